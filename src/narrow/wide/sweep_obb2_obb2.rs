//! Swept 2D oriented box against oriented box, eight pairs at a time (the math, the
//! statuses and the meaning of every field:
//! [`scalar::sweep_obb2_obb2`](fn@crate::narrow::scalar::sweep_obb2_obb2)).
//!
//! The scalar kernel's branches become selects: each axis divides by `1` where its
//! projected velocity is zero and discards the quotient there; the hit axis is a chain of
//! selects from the last axis to the first, so that the first equal one wins, as in the
//! scalar `if` chain.

use super::{F32W, MaskW, Obb2W, SweepW, Vec2W, all_finite};
use crate::narrow::scalar::sweep_obb2_obb2::{NUDGE, UNIT_MAX, UNIT_MIN};

/// Whether each lane's axis is a unit vector (see `scalar::sweep_obb2_obb2::is_unit`).
#[inline(always)]
pub(crate) fn is_unit<W: F32W>(axis: &Vec2W<W>) -> W::Mask {
    let q = axis.x * axis.x + axis.y * axis.y;
    q.ge(W::splat(UNIT_MIN)) & q.le(W::splat(UNIT_MAX))
}

/// One axis's entry and exit times (see `scalar::sweep_obb2_obb2::axis`).
#[inline(always)]
fn axis<W: F32W>(p: W, r: W, w: W) -> (W, W) {
    let zero = W::splat(0.0);
    let lo = -r - p;
    let hi = r - p;
    let is_zero = w.eq(zero);
    let is_neg = w.lt(zero);
    let safe_w = W::select(is_zero, W::splat(1.0), w);
    let near = W::select(is_neg, hi, lo) / safe_w;
    let far = W::select(is_neg, lo, hi) / safe_w;
    let is_static_overlap = lo.le(zero) & hi.ge(zero);
    let (inf, neg_inf) = (W::splat(f32::INFINITY), W::splat(f32::NEG_INFINITY));
    (
        W::select(is_zero, W::select(is_static_overlap, neg_inf, inf), near),
        W::select(is_zero, W::select(is_static_overlap, inf, neg_inf), far),
    )
}

/// The lane form of `scalar::sweep_obb2_obb2::sweep_core`.
#[inline(always)]
pub(crate) fn sweep_core<W: F32W>(
    ca: Vec2W<W>,
    ua: Vec2W<W>,
    ha: Vec2W<W>,
    b: &Obb2W<W>,
    v: Vec2W<W>,
    is_valid: W::Mask,
) -> SweepW<W> {
    let (zero, one) = (W::splat(0.0), W::splat(1.0));
    let (ub, hb) = (b.axis, b.half_extents);
    let c = ua.x * ub.x + ua.y * ub.y;
    let s = ua.x * ub.y - ua.y * ub.x;
    let (ac, as_) = (c.abs(), s.abs());
    let dx = ca.x - b.center.x;
    let dy = ca.y - b.center.y;
    let l = [(ub.x, ub.y), (-ub.y, ub.x), (ua.x, ua.y), (-ua.y, ua.x)];
    let p = [
        dx * ub.x + dy * ub.y,
        dy * ub.x - dx * ub.y,
        dx * ua.x + dy * ua.y,
        dy * ua.x - dx * ua.y,
    ];
    let w = [
        v.x * ub.x + v.y * ub.y,
        v.y * ub.x - v.x * ub.y,
        v.x * ua.x + v.y * ua.y,
        v.y * ua.x - v.x * ua.y,
    ];
    let r = [
        (ha.x * ac + ha.y * as_) + hb.x,
        (ha.x * as_ + ha.y * ac) + hb.y,
        ha.x + (hb.x * ac + hb.y * as_),
        ha.y + (hb.x * as_ + hb.y * ac),
    ];
    let e = [
        axis(p[0], r[0], w[0]),
        axis(p[1], r[1], w[1]),
        axis(p[2], r[2], w[2]),
        axis(p[3], r[3], w[3]),
    ];
    let enter = e[0].0.max(e[1].0).max(e[2].0).max(e[3].0);
    let exit = e[0].1.min(e[1].1).min(e[2].1).min(e[3].1);
    let is_number = (e[0].0.eq(e[0].0) & e[0].1.eq(e[0].1))
        & (e[1].0.eq(e[1].0) & e[1].1.eq(e[1].1))
        & (e[2].0.eq(e[2].0) & e[2].1.eq(e[2].1))
        & (e[3].0.eq(e[3].0) & e[3].1.eq(e[3].1));
    let is_contact = is_valid & is_number & enter.le(exit) & enter.le(one) & exit.ge(zero);
    let is_early = enter.lt(zero);
    let is_overlapping = is_contact & is_early;
    let is_hit = is_contact.and_not(is_early);
    // The hit axis: the first whose entry is `enter` (selected last to first).
    let (mut lx, mut ly, mut wk) = (l[3].0, l[3].1, w[3]);
    for k in (0..3).rev() {
        let is_k = e[k].0.eq(enter);
        lx = W::select(is_k, l[k].0, lx);
        ly = W::select(is_k, l[k].1, ly);
        wk = W::select(is_k, w[k], wk);
    }
    let is_toward = wk.lt(zero);
    let nx = W::select(is_toward, lx, -lx);
    let ny = W::select(is_toward, ly, -ly);
    let t = enter.max(zero);
    let nudge = (((((ca.x.abs() + ca.y.abs()) + dx.abs()) + dy.abs())
        + ((ha.x + ha.y) + (hb.x + hb.y)))
        + (v.x.abs() + v.y.abs()))
        * W::splat(NUDGE);
    SweepW {
        is_hit,
        is_overlapping,
        t: W::select(is_hit, t, W::select(is_overlapping, zero, one)),
        normal: Vec2W {
            x: W::select(is_hit, nx, zero),
            y: W::select(is_hit, ny, zero),
        },
        stop: Vec2W {
            x: W::select(
                is_hit,
                t * v.x + nx * nudge,
                W::select(is_overlapping, zero, v.x),
            ),
            y: W::select(
                is_hit,
                t * v.y + ny * nudge,
                W::select(is_overlapping, zero, v.y),
            ),
        },
    }
}

/// Lane `i`: oriented box `a` moving by `motion_a` swept against oriented box `b` moving
/// by `motion_b`, bit-identical to
/// [`scalar::sweep_obb2_obb2`](fn@crate::narrow::scalar::sweep_obb2_obb2).
///
/// ```
/// use hantei::Obb2;
/// use hantei::narrow::scalar;
/// use hantei::narrow::wide::{Obb2W, PortableW, Vec2W, sweep_obb2_obb2};
/// use glam::Vec2;
/// let bullet = Obb2::new(Vec2::ZERO, Vec2::X, Vec2::new(0.5, 0.25));
/// let laser = Obb2::from_angle(Vec2::new(6.0, 0.0), Vec2::new(5.0, 0.1), 1.2);
/// let speeds: [Vec2; 8] = core::array::from_fn(|i| Vec2::new(2.0 * i as f32, 0.5));
/// let s = sweep_obb2_obb2(
///     &Obb2W::<PortableW>::splat(&bullet), &Vec2W::from_array(&speeds),
///     &Obb2W::splat(&laser), &Vec2W::splat(Vec2::ZERO),
/// );
/// for i in 0..8 {
///     assert_eq!(s.lane(i), scalar::sweep_obb2_obb2(&bullet, speeds[i], &laser, Vec2::ZERO));
/// }
/// assert!(!s.lane(0).is_hit() && s.lane(7).is_hit());
/// ```
#[inline(always)]
#[must_use]
pub fn sweep_obb2_obb2<W: F32W>(
    a: &Obb2W<W>,
    motion_a: &Vec2W<W>,
    b: &Obb2W<W>,
    motion_b: &Vec2W<W>,
) -> SweepW<W> {
    let zero = W::splat(0.0);
    let v = Vec2W {
        x: motion_a.x - motion_b.x,
        y: motion_a.y - motion_b.y,
    };
    let (ua, ha) = (a.axis, a.half_extents);
    let (ub, hb) = (b.axis, b.half_extents);
    let is_finite = all_finite([
        a.center.x - b.center.x,
        a.center.y - b.center.y,
        ua.x,
        ua.y,
        ha.x,
        ha.y,
        ub.x,
        ub.y,
        hb.x,
        hb.y,
        v.x,
        v.y,
    ]);
    let is_valid = is_finite
        & ha.x.ge(zero)
        & ha.y.ge(zero)
        & hb.x.ge(zero)
        & hb.y.ge(zero)
        & is_unit(&ua)
        & is_unit(&ub);
    sweep_core(a.center, ua, ha, b, v, is_valid)
}
