//! Swept circle–OBB (2D), eight pairs at a time (the math, the statuses and the meaning
//! of every field: [`scalar::sweep_circle_obb2`](fn@crate::narrow::scalar::sweep_circle_obb2)):
//! the turn into each box's frame, the lane rounded-box core, the turn back.

use super::sweep_aabb_circle::rounded_box;
use super::{CircleW, F32W, Obb2W, SweepW, Vec2W, all_finite};

/// Lane `i`: disc `a` moving by `ma` against the oriented box `b` moving by `mb` over
/// one frame, bit-identical to
/// [`scalar::sweep_circle_obb2`](fn@crate::narrow::scalar::sweep_circle_obb2).
///
/// ```
/// use hantei::{Circle, Obb2};
/// use hantei::narrow::scalar;
/// use hantei::narrow::wide::{CircleW, Obb2W, PortableW, Vec2W, sweep_circle_obb2};
/// use glam::Vec2;
/// let laser = Obb2::from_angle(Vec2::ZERO, Vec2::new(10.0, 0.25), 0.5);
/// let bullet = Circle::new(Vec2::new(-3.0, 8.0), 0.5);
/// let speeds: [Vec2; 8] = core::array::from_fn(|i| Vec2::new(i as f32, -2.0 * i as f32));
/// let s = sweep_circle_obb2(
///     &CircleW::<PortableW>::splat(&bullet), &Vec2W::from_array(&speeds),
///     &Obb2W::splat(&laser), &Vec2W::splat(Vec2::ZERO),
/// );
/// for i in 0..8 {
///     assert_eq!(s.lane(i), scalar::sweep_circle_obb2(&bullet, speeds[i], &laser, Vec2::ZERO));
/// }
/// assert!(!s.lane(0).is_hit() && s.lane(7).is_hit());
/// ```
#[inline(always)]
#[must_use]
pub fn sweep_circle_obb2<W: F32W>(
    a: &CircleW<W>,
    ma: &Vec2W<W>,
    b: &Obb2W<W>,
    mb: &Vec2W<W>,
) -> SweepW<W> {
    let zero = W::splat(0.0);
    let is_finite = all_finite([
        a.x,
        a.y,
        a.radius,
        b.center.x,
        b.center.y,
        b.axis.x,
        b.axis.y,
        b.half_extents.x,
        b.half_extents.y,
        ma.x,
        ma.y,
        mb.x,
        mb.y,
    ]);
    let h = &b.half_extents;
    let is_valid = is_finite & h.x.ge(zero) & h.y.ge(zero);
    let (vx, vy) = (ma.x - mb.x, ma.y - mb.y);
    let (dx, dy) = (a.x - b.center.x, a.y - b.center.y);
    let (ux, uy) = (b.axis.x, b.axis.y);
    let c = Vec2W {
        x: dx * ux + dy * uy,
        y: dy * ux - dx * uy,
    };
    let w = Vec2W {
        x: vx * ux + vy * uy,
        y: vy * ux - vx * uy,
    };
    let mag = ((a.x.abs() + a.y.abs()) + b.center.x.abs()) + b.center.y.abs();
    let s = rounded_box(
        zero - h.x,
        zero - h.y,
        h.x,
        h.y,
        &c,
        &w,
        a.radius,
        mag,
        is_valid,
    );
    to_world(&s, ux, uy, vx, vy)
}

/// Eight sweeps `s` found in boxes' frames, whose x axes are `(ux, uy)`, turned back
/// into the world lane by lane, as the scalar `to_world` does: a hit's normal and stop
/// as `n.x·u + n.y·u⊥`, a miss's stop the whole relative motion `(vx, vy)`.
#[inline(always)]
pub(super) fn to_world<W: F32W>(s: &SweepW<W>, ux: W, uy: W, vx: W, vy: W) -> SweepW<W> {
    let is_miss = !(s.is_hit | s.is_overlapping);
    let (n, st) = (&s.normal, &s.stop);
    SweepW {
        is_hit: s.is_hit,
        is_overlapping: s.is_overlapping,
        t: s.t,
        normal: Vec2W {
            x: W::select(s.is_hit, n.x * ux - n.y * uy, n.x),
            y: W::select(s.is_hit, n.x * uy + n.y * ux, n.y),
        },
        stop: Vec2W {
            x: W::select(
                is_miss,
                vx,
                W::select(s.is_hit, st.x * ux - st.y * uy, st.x),
            ),
            y: W::select(
                is_miss,
                vy,
                W::select(s.is_hit, st.x * uy + st.y * ux, st.y),
            ),
        },
    }
}
