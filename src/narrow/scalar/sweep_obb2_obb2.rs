//! Swept 2D oriented box against oriented box: the separating axis test for two
//! translating convex polygons (Ericson, §5.5.8, on the four edge normals of seed 004).
//!
//! The math is documented on [`sweep_obb2_obb2`](fn@super::sweep_obb2_obb2); the core
//! ([`sweep_core`]) is shared with [`sweep_aabb_obb2`](fn@super::sweep_aabb_obb2).

use super::{all_finite, max, min};
use crate::math::Obb2;
use crate::narrow::{Sweep, SweepStatus};
use glam::Vec2;

/// How far the stop backs `a` off along the normal: `2⁻²¹` times the magnitude of `a`'s
/// center, the center difference, the half extents and the relative motion (see
/// `sweep_obb2_obb2`, "Stop").
pub(crate) const NUDGE: f32 = 1.0 / 2_097_152.0;

/// The least `|axis|²` accepted: `(1 - Obb2::UNIT_TOLERANCE)²`.
pub(crate) const UNIT_MIN: f32 = (1.0 - Obb2::UNIT_TOLERANCE) * (1.0 - Obb2::UNIT_TOLERANCE);

/// The largest `|axis|²` accepted: `(1 + Obb2::UNIT_TOLERANCE)²`.
pub(crate) const UNIT_MAX: f32 = (1.0 + Obb2::UNIT_TOLERANCE) * (1.0 + Obb2::UNIT_TOLERANCE);

/// Whether `axis` is a unit vector to within [`Obb2::UNIT_TOLERANCE`] (compared squared;
/// false for NaN).
#[inline(always)]
pub(crate) fn is_unit(axis: Vec2) -> bool {
    let q = axis.x * axis.x + axis.y * axis.y;
    (UNIT_MIN..=UNIT_MAX).contains(&q)
}

/// The entry and exit times on one axis: `a`'s center is at `p + t·w` relative to `b`'s,
/// and the projections touch or overlap while `|p + t·w| <= r`.
#[inline(always)]
fn axis(p: f32, r: f32, w: f32) -> (f32, f32) {
    // The displacements along the axis that bring `a` flush with `b`'s low and high side.
    let lo = -r - p;
    let hi = r - p;
    if w == 0.0 {
        // No division: a static test (exact: `lo <= 0` iff `-r <= p` before rounding).
        if lo <= 0.0 && hi >= 0.0 {
            (f32::NEG_INFINITY, f32::INFINITY)
        } else {
            (f32::INFINITY, f32::NEG_INFINITY)
        }
    } else if w < 0.0 {
        (hi / w, lo / w)
    } else {
        (lo / w, hi / w)
    }
}

/// The swept test of box `a` (center `ca`, unit x axis `ua`, half extents `ha`) moving
/// by `v` against the still box `b`. `is_valid`: the caller's input checks.
#[inline(always)]
pub(crate) fn sweep_core(ca: Vec2, ua: Vec2, ha: Vec2, b: &Obb2, v: Vec2, is_valid: bool) -> Sweep {
    let (ub, hb) = (b.axis, b.half_extents);
    // Cosine and sine of the angle from A's x axis to B's (as `overlap_obb2_obb2`).
    let c = ua.x * ub.x + ua.y * ub.y;
    let s = ua.x * ub.y - ua.y * ub.x;
    let (ac, as_) = (c.abs(), s.abs());
    let dx = ca.x - b.center.x;
    let dy = ca.y - b.center.y;
    // The axes in tie order: B.x, B.y, A.x, A.y (B.y = B.x turned a quarter left).
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
    let enter = max(max(max(e[0].0, e[1].0), e[2].0), e[3].0);
    let exit = min(min(min(e[0].1, e[1].1), e[2].1), e[3].1);
    let is_number = e.iter().all(|&(i, o)| !(i.is_nan() || o.is_nan()));
    let is_contact = is_valid && is_number && enter <= exit && enter <= 1.0 && exit >= 0.0;
    if !is_contact {
        return Sweep {
            status: SweepStatus::Miss,
            t: 1.0,
            normal: Vec2::ZERO,
            stop: v,
        };
    }
    if enter < 0.0 {
        return Sweep {
            status: SweepStatus::Overlapping,
            t: 0.0,
            normal: Vec2::ZERO,
            stop: Vec2::ZERO,
        };
    }
    // The hit axis: the first, in tie order, whose entry is the latest; its velocity is
    // not zero (a zero one enters at ±∞), and `a` comes from the side opposite to it.
    let k = if e[0].0 == enter {
        0
    } else if e[1].0 == enter {
        1
    } else if e[2].0 == enter {
        2
    } else {
        3
    };
    let (lx, ly) = l[k];
    let (nx, ny) = if w[k] < 0.0 { (lx, ly) } else { (-lx, -ly) };
    let t = max(enter, 0.0);
    let nudge = (((((ca.x.abs() + ca.y.abs()) + dx.abs()) + dy.abs())
        + ((ha.x + ha.y) + (hb.x + hb.y)))
        + (v.x.abs() + v.y.abs()))
        * NUDGE;
    Sweep {
        status: SweepStatus::Hit,
        t,
        normal: Vec2::new(nx, ny),
        stop: Vec2::new(t * v.x + nx * nudge, t * v.y + ny * nudge),
    }
}

/// Sweeps oriented box `a`, moving by `motion_a`, against oriented box `b`, moving by
/// `motion_b`, over one frame.
///
/// The answer says whether and when the boxes first touch, the contact normal, and how
/// far `a` may move relative to `b` without entering it. Its fields mean what they mean
/// for [`sweep_aabb_aabb`](fn@super::sweep_aabb_aabb). See [`Sweep`]. The boxes move,
/// and their rotations stay the same for the frame.
///
/// # Per-axis entry and exit times
/// Relative to `b`, `a` moves by `v = motion_a - motion_b`. Two convex polygons are
/// disjoint when one of their edge normals separates them (seed 004). So two rectangles
/// touch at time `t` when they touch on each of the four axes `B.x`, `B.y`, `A.x`,
/// `A.y`. On a unit axis `L`, each box projects to its center `± r`, with
/// `r = h₀|L·e₀| + h₁|L·e₁|`. These are the radii of
/// [`overlap_obb2_obb2`](fn@super::overlap_obb2_obb2). Let `p = (a.center -
/// b.center)·L`, `w = v·L` and `r = r_A + r_B`. The projections overlap while
///
/// ```text
/// |p + t·w| <= r    ⇔    t ∈ [enter, exit]:
///            w > 0                  w < 0               w = 0
///  enter = (-r - p) / w      enter = (r - p) / w    -∞ if |p| <= r, else +∞
///  exit  = ( r - p) / w      exit  = (-r - p) / w   +∞ if |p| <= r, else -∞
/// ```
///
/// A zero projected velocity takes the static column, so there is no division and no
/// NaN. Over the four axes, `enter = max enterₗ` and `exit = min exitₗ`. The boxes touch
/// within the frame when `enter <= exit && enter <= 1 && exit >= 0` (Ericson, §5.5.8).
/// The separating axes of translating polygons are their own edge normals, so the
/// interval is exact up to rounding. Nothing is sampled, so no speed tunnels, however
/// thin the box.
///
/// # Result
/// | status | when | `t` | `normal` | `stop` |
/// |---|---|---|---|---|
/// | [`Hit`](SweepStatus::Hit) | `0 <= enter <= min(exit, 1)` | `enter` | the hit axis, toward `a` | `t·v`, backed off along the normal |
/// | [`Overlapping`](SweepStatus::Overlapping) | `enter < 0 <= exit` | `0` | `(0, 0)` | `(0, 0)` |
/// | [`Miss`](SweepStatus::Miss) | no contact in `[0, 1]`, or bad input | `1` | `(0, 0)` | `v` |
///
/// Touching counts. Touching at `t = 0` and moving in is a hit at `t = 0`. Touching and
/// sliding along or moving away is overlapping. Touching exactly at `t = 1` is a hit.
///
/// # Normal
/// The normal is the unit axis whose entry is the latest. The test uses exact equality,
/// since `enter` *is* one of the entries. The axis is signed to point toward `a`: it is
/// `+L` when `a` moves along `-L`, that is, when `w < 0`.
///
/// - On `B.x` or `B.y`, it is the outward normal of the face of `b` that `a` meets.
/// - On `A.x` or `A.y`, a corner of `b` meets a face of `a`. The normal is that face's
///   inward normal. It is still the normal of the contact plane, pointing from `b` to
///   `a`.
///
/// Ties happen when edges are parallel, or when a corner meets a corner exactly. They
/// go to the first axis in the order `B.x`, `B.y`, `A.x`, `A.y`, so `b`'s faces come
/// first. So two boxes with parallel axes get `b`'s face, as the swept AABB test does.
/// At an exact corner hit, the swept AABB test sets both components, while this normal
/// keeps unit length and is `b`'s x face.
///
/// # Stop
/// The stop moves `a` to the contact, `t·v`, then back along the normal by a nudge:
/// `stop = t·v + normal·nudge`. With `d = a.center - b.center`, the nudge is
/// `(|a.center.x| + |a.center.y| + |d.x| + |d.y| + Σ half extents + |v.x| + |v.y|)·2⁻²¹`.
/// It is a distance across the hit face, not a fraction of `t`. Backing off in time
/// would not help when `a` grazes along the face.
///
/// The nudge covers several roundings, each at most half an ulp of its magnitude:
/// - of `d` and the projections, an ulp of `|d|` and of the half extents,
/// - of the quotient and of `t·v`, an ulp of `|v|`,
/// - of `a.center + stop` in `f32`, an ulp of `a`'s coordinates.
///
/// That is about `2⁻²²` of the sum in all, so the nudge has a factor of 2 to spare. The
/// tests measured at most about `2⁻²⁶` of the sum, up to coordinates of 10⁶. So `a`,
/// moved by `stop`, stays on its side of the hit axis, and **it never enters `b`**. The
/// static test then finds a gap, or at most touching. The nudge is a couple of ulps of
/// `a`'s coordinates, about a unit near 10⁶. Only `a`'s own position and the pair's
/// separation count, not where `b` sits in the world.
///
/// # Bad input and range
/// The following inputs give a [`Miss`](SweepStatus::Miss):
/// - a NaN or infinite value,
/// - a negative half extent,
/// - an axis whose length is not 1 to within [`Obb2::UNIT_TOLERANCE`], compared
///   squared, as [`Obb2::validate`] does,
/// - a center difference or relative motion that overflows `f32`.
///
/// [`overlap_obb2_obb2`](fn@super::overlap_obb2_obb2) uses a box with a bad axis as
/// given. But a sweep that promised no tunnelling with a wrong box would promise
/// nothing. The answer is exact up to rounding for coordinates, half extents and motions
/// below about `1e37`. Beyond that, it is never a NaN time or a panic.
///
/// ```
/// use hantei::Obb2;
/// use hantei::narrow::{SweepStatus, scalar::{overlap_obb2_obb2, sweep_obb2_obb2}};
/// use glam::Vec2;
/// // A laser 20 long and 0.2 thick, turned 90°, at x = 10; a 1 × 1 bullet flies 100 right.
/// let laser = Obb2::from_angle(Vec2::new(10.0, 0.0), Vec2::new(10.0, 0.1), core::f32::consts::FRAC_PI_2);
/// let bullet = Obb2::new(Vec2::ZERO, Vec2::X, Vec2::new(0.5, 0.5));
/// let s = sweep_obb2_obb2(&bullet, Vec2::new(100.0, 3.0), &laser, Vec2::ZERO);
/// assert_eq!(s.status, SweepStatus::Hit);
/// assert!((s.t - 0.094).abs() < 1e-6); // (10 - 0.1 - 0.5) / 100
/// assert!((s.normal - Vec2::new(-1.0, 0.0)).length() < 1e-6); // the laser's near face
/// // Moved by the stop, the bullet is flush with the laser and not inside it.
/// let flush = Obb2 { center: bullet.center + s.stop, ..bullet };
/// assert!(overlap_obb2_obb2(&flush, &laser).is_none_or(|m| m.depth == 0.0));
/// // Passing above the laser's end (y = 10 + 0.5): a miss, at any speed.
/// let high = Obb2 { center: Vec2::new(0.0, 11.0), ..bullet };
/// let s = sweep_obb2_obb2(&high, Vec2::new(1e6, 0.0), &laser, Vec2::ZERO);
/// assert_eq!(s.status, SweepStatus::Miss);
/// ```
#[inline]
#[must_use]
pub fn sweep_obb2_obb2(a: &Obb2, motion_a: Vec2, b: &Obb2, motion_b: Vec2) -> Sweep {
    let v = Vec2::new(motion_a.x - motion_b.x, motion_a.y - motion_b.y);
    let (ua, ha) = (a.axis, a.half_extents);
    let (ub, hb) = (b.axis, b.half_extents);
    // The center difference and `v` carry every center and motion: either is finite
    // iff its operands are, and does not overflow.
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
        && ha.x >= 0.0
        && ha.y >= 0.0
        && hb.x >= 0.0
        && hb.y >= 0.0
        && is_unit(ua)
        && is_unit(ub);
    sweep_core(a.center, ua, ha, b, v, is_valid)
}
