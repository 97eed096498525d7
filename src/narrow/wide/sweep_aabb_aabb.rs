//! Swept AABB–AABB, eight pairs at a time (the math, the statuses and the meaning of
//! every field: [`scalar::sweep_aabb_aabb`](fn@crate::narrow::scalar::sweep_aabb_aabb)).
//!
//! The scalar kernel's branches become selects: the quotients are computed in every lane
//! with the divisor replaced by `1` where the velocity is zero, then discarded there.

use super::{AabbW, F32W, MaskW, SweepW, Vec2W, all_finite};
use crate::narrow::scalar::sweep_aabb_aabb::NUDGE;

/// One axis (see `scalar::sweep_aabb_aabb::axis`).
struct AxisW<W> {
    enter: W,
    exit: W,
    stop: W,
}

#[inline(always)]
fn axis<W: F32W>(a0: W, a1: W, b0: W, b1: W, v: W) -> AxisW<W> {
    let zero = W::splat(0.0);
    let is_neg = v.lt(zero);
    let lead = W::select(is_neg, a0, a1);
    let face = W::select(is_neg, b1, b0);
    let near = face - lead;
    let far = W::select(is_neg, b0 - a1, b1 - a0);
    let is_zero = v.eq(zero);
    let safe_v = W::select(is_zero, W::splat(1.0), v);
    let is_static_overlap = a0.le(b1) & b0.le(a1);
    let (inf, neg_inf) = (W::splat(f32::INFINITY), W::splat(f32::NEG_INFINITY));
    let enter = W::select(
        is_zero,
        W::select(is_static_overlap, neg_inf, inf),
        near / safe_v,
    );
    let exit = W::select(
        is_zero,
        W::select(is_static_overlap, inf, neg_inf),
        far / safe_v,
    );
    let moved = lead + near;
    let overshoots = (is_neg & moved.lt(face)) | moved.gt(face).and_not(is_neg);
    let nudge = (lead.abs() + face.abs()) * W::splat(NUDGE);
    let corrected = W::select(is_neg, near + nudge, near - nudge);
    AxisW {
        enter,
        exit,
        stop: W::select(overshoots, corrected, near),
    }
}

/// The lane form of `scalar::sweep_aabb_aabb::sweep_core`.
#[inline(always)]
pub(crate) fn sweep_core<W: F32W>(
    a_min: Vec2W<W>,
    a_max: Vec2W<W>,
    b: &AabbW<W>,
    v: Vec2W<W>,
    is_finite: W::Mask,
) -> SweepW<W> {
    let (zero, one) = (W::splat(0.0), W::splat(1.0));
    let x = axis(a_min.x, a_max.x, b.min_x, b.max_x, v.x);
    let y = axis(a_min.y, a_max.y, b.min_y, b.max_y, v.y);
    let enter = x.enter.max(y.enter);
    let exit = x.exit.min(y.exit);
    let is_number =
        x.enter.eq(x.enter) & y.enter.eq(y.enter) & x.exit.eq(x.exit) & y.exit.eq(y.exit);
    let is_contact = is_finite & is_number & enter.le(exit) & enter.le(one) & exit.ge(zero);
    let is_early = enter.lt(zero);
    let is_overlapping = is_contact & is_early;
    let is_hit = is_contact.and_not(is_early);
    let on_x = is_hit & x.enter.eq(enter);
    let on_y = is_hit & y.enter.eq(enter);
    SweepW {
        is_hit,
        is_overlapping,
        t: W::select(
            is_hit,
            enter.max(zero),
            W::select(is_overlapping, zero, one),
        ),
        normal: Vec2W {
            x: W::select(on_x, face_normal(v.x), zero),
            y: W::select(on_y, face_normal(v.y), zero),
        },
        stop: Vec2W {
            x: W::select(on_x, x.stop, W::select(is_overlapping, zero, v.x)),
            y: W::select(on_y, y.stop, W::select(is_overlapping, zero, v.y)),
        },
    }
}

/// The outward normal component of the face that a motion `v` meets: `-1` for `v > 0`.
#[inline(always)]
fn face_normal<W: F32W>(v: W) -> W {
    W::select(v.gt(W::splat(0.0)), W::splat(-1.0), W::splat(1.0))
}

/// Lane `i`: box `a` moving by `motion_a` swept against box `b` moving by `motion_b`,
/// bit-identical to [`scalar::sweep_aabb_aabb`](fn@crate::narrow::scalar::sweep_aabb_aabb).
///
/// ```
/// use hantei::Aabb;
/// use hantei::narrow::scalar;
/// use hantei::narrow::wide::{AabbW, PortableW, Vec2W, sweep_aabb_aabb};
/// use glam::Vec2;
/// let a = Aabb::from_coords(0.0, 0.0, 1.0, 1.0);
/// let b = Aabb::from_coords(3.0, 0.0, 4.0, 1.0);
/// let speeds: [Vec2; 8] = core::array::from_fn(|i| Vec2::new(i as f32, 0.0));
/// let s = sweep_aabb_aabb(
///     &AabbW::<PortableW>::splat(&a), &Vec2W::from_array(&speeds),
///     &AabbW::splat(&b), &Vec2W::splat(Vec2::ZERO),
/// );
/// for i in 0..8 {
///     assert_eq!(s.lane(i), scalar::sweep_aabb_aabb(&a, speeds[i], &b, Vec2::ZERO));
/// }
/// assert!(!s.lane(1).is_hit() && s.lane(2).is_hit() && s.lane(2).t == 1.0); // flush at t = 1
/// ```
#[inline(always)]
#[must_use]
pub fn sweep_aabb_aabb<W: F32W>(
    a: &AabbW<W>,
    motion_a: &Vec2W<W>,
    b: &AabbW<W>,
    motion_b: &Vec2W<W>,
) -> SweepW<W> {
    let is_finite = all_finite([
        a.min_x, a.min_y, a.max_x, a.max_y, b.min_x, b.min_y, b.max_x, b.max_y, motion_a.x,
        motion_a.y, motion_b.x, motion_b.y,
    ]);
    let v = Vec2W {
        x: motion_a.x - motion_b.x,
        y: motion_a.y - motion_b.y,
    };
    let a_min = Vec2W {
        x: a.min_x,
        y: a.min_y,
    };
    let a_max = Vec2W {
        x: a.max_x,
        y: a.max_y,
    };
    sweep_core(a_min, a_max, b, v, is_finite)
}
