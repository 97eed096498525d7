//! Swept capsule–AABB, eight pairs at a time, and the lane form of the hexagon that
//! `sweep_capsule_obb2` shares (the math, the statuses and the meaning of every field:
//! [`scalar::sweep_capsule_aabb`](fn@crate::narrow::scalar::sweep_capsule_aabb)).
//!
//! The quadrant that picks the hexagon's first corner becomes three masks, and each of
//! the four turned corners a chain of selects: no arithmetic, so the same values.

use super::rounded_polygon::rounded_polygon;
use super::{AabbW, CapsuleW, F32W, MaskW, SweepW, Vec2W, all_finite};

/// The lane form of `scalar::sweep_capsule_aabb::capsule_box`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn capsule_box<W: F32W>(
    lo: &Vec2W<W>,
    hi: &Vec2W<W>,
    a0: &Vec2W<W>,
    a1: &Vec2W<W>,
    v: &Vec2W<W>,
    r: W,
    mag: W,
    is_valid: W::Mask,
) -> SweepW<W> {
    let zero = W::splat(0.0);
    let kx = [lo.x, hi.x, hi.x, lo.x];
    let ky = [lo.y, lo.y, hi.y, hi.y];
    let (sx, sy) = (a0.x - a1.x, a0.y - a1.y);
    let (is_x, is_y) = (sx.ge(zero), sy.ge(zero));
    // Quadrants 1, 2 and 3 (0 is the rest): as the scalar kernel's `q`.
    let q = [is_y.and_not(is_x), !(is_x | is_y), is_x.and_not(is_y)];
    // No closures or `array::from_fn` here: a generic helper that is not inlined is
    // compiled without the caller's target features (see `rounded_polygon`).
    let c = [
        turned_corner(&q, &kx, &ky, 0),
        turned_corner(&q, &kx, &ky, 1),
        turned_corner(&q, &kx, &ky, 2),
        turned_corner(&q, &kx, &ky, 3),
    ];
    let p = [
        from(c[0], a0),
        from(c[1], a0),
        from(c[1], a1),
        from(c[2], a1),
        from(c[3], a1),
        from(c[3], a0),
    ];
    rounded_polygon(p, v, r, mag, is_valid)
}

/// Corner `j` of the box turned by the quadrant `q` (quadrants 1, 2 and 3 as masks; 0 is
/// none of them): corner `j + q` of `kx`, `ky`, picked by a chain of selects.
#[inline(always)]
fn turned_corner<W: F32W>(q: &[W::Mask; 3], kx: &[W; 4], ky: &[W; 4], j: usize) -> (W, W) {
    (pick(q, kx, j), pick(q, ky, j))
}

/// Entry `j + q` of `k`, by the quadrant masks `q` of [`turned_corner`].
#[inline(always)]
fn pick<W: F32W>(q: &[W::Mask; 3], k: &[W; 4], j: usize) -> W {
    W::select(
        q[0],
        k[(1 + j) % 4],
        W::select(
            q[1],
            k[(2 + j) % 4],
            W::select(q[2], k[(3 + j) % 4], k[j % 4]),
        ),
    )
}

/// `c - a`, as a lane vector.
#[inline(always)]
fn from<W: F32W>(c: (W, W), a: &Vec2W<W>) -> Vec2W<W> {
    Vec2W {
        x: c.0 - a.x,
        y: c.1 - a.y,
    }
}

/// Lane `i`: capsule `a` moving by `ma` against box `b` moving by `mb` over one frame,
/// bit-identical to
/// [`scalar::sweep_capsule_aabb`](fn@crate::narrow::scalar::sweep_capsule_aabb).
///
/// ```
/// use hantei::{Aabb, Capsule};
/// use hantei::narrow::scalar;
/// use hantei::narrow::wide::{AabbW, CapsuleW, PortableW, Vec2W, sweep_capsule_aabb};
/// use glam::Vec2;
/// let floor = Aabb::from_coords(-50.0, -5.0, 50.0, 0.0);
/// let laser = Capsule::new(Vec2::new(0.0, 3.0), Vec2::new(4.0, 7.0), 0.5);
/// let falls: [Vec2; 8] = core::array::from_fn(|i| Vec2::new(1.0, -(i as f32)));
/// let s = sweep_capsule_aabb(
///     &CapsuleW::<PortableW>::splat(&laser), &Vec2W::from_array(&falls),
///     &AabbW::splat(&floor), &Vec2W::splat(Vec2::ZERO),
/// );
/// for i in 0..8 {
///     assert_eq!(s.lane(i), scalar::sweep_capsule_aabb(&laser, falls[i], &floor, Vec2::ZERO));
/// }
/// assert!(!s.lane(2).is_hit() && s.lane(3).is_hit());
/// ```
#[inline(always)]
#[must_use]
pub fn sweep_capsule_aabb<W: F32W>(
    a: &CapsuleW<W>,
    ma: &Vec2W<W>,
    b: &AabbW<W>,
    mb: &Vec2W<W>,
) -> SweepW<W> {
    let zero = W::splat(0.0);
    let is_finite = all_finite([
        a.a.x, a.a.y, a.b.x, a.b.y, a.radius, b.min_x, b.min_y, b.max_x, b.max_y, ma.x, ma.y, mb.x,
        mb.y,
    ]);
    let is_valid = is_finite & a.radius.ge(zero) & b.min_x.le(b.max_x) & b.min_y.le(b.max_y);
    let v = Vec2W {
        x: ma.x - mb.x,
        y: ma.y - mb.y,
    };
    let mag = ((a.a.x.abs() + a.a.y.abs()) + (a.b.x.abs() + a.b.y.abs()))
        + ((b.min_x.abs() + b.min_y.abs()) + (b.max_x.abs() + b.max_y.abs()));
    let lo = Vec2W {
        x: b.min_x,
        y: b.min_y,
    };
    let hi = Vec2W {
        x: b.max_x,
        y: b.max_y,
    };
    capsule_box(&lo, &hi, &a.a, &a.b, &v, a.radius, mag, is_valid)
}
