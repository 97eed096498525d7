//! Swept circle–circle: two discs that both move during one frame (Ericson, §5.5.5).
//!
//! The math is documented on [`sweep_circle_circle`](fn@super::sweep_circle_circle).

use super::all_finite;
use crate::math::Circle;
use crate::narrow::{Sweep, SweepStatus};
use glam::Vec2;

/// How far past touching the stop places `a`, per unit of `|d| + s` (`2⁻²¹`) and per unit
/// of `a`'s coordinates (`2⁻²²`; see `sweep_circle_circle`, "Stop").
pub(crate) const NUDGE: f32 = 1.0 / 2_097_152.0;
/// See [`NUDGE`].
pub(crate) const NUDGE_AT: f32 = 1.0 / 4_194_304.0;

/// Sweeps disc `a`, moving by `motion_a`, against disc `b`, moving by `motion_b`, over
/// one frame.
///
/// The answer says whether and when the discs first touch, the contact normal, and how
/// far `a` may move relative to `b` without entering it. Its fields mean what they mean
/// for [`sweep_aabb_aabb`](fn@super::sweep_aabb_aabb). See [`Sweep`].
///
/// # The first root
/// Relative to `b`, `a` moves by `v = motion_a - motion_b`. Let `d = a.center -
/// b.center` and `s = a.radius + b.radius`. The discs touch when
///
/// ```text
/// |d + t·v|² = s²   ⇔   A·t² + 2B·t + C = 0,   A = v·v,  B = d·v,  C = d·d - s²
/// ```
///
/// - `C < 0`: the discs overlap when the frame begins. The answer is
///   [`Overlapping`](SweepStatus::Overlapping).
/// - `C = 0`: the discs touch. When `a` moves into `b` (`B < 0`), this is a **hit at
///   `t = 0`**. When `a` slides along or moves away, it is overlapping, as for boxes.
/// - `C > 0`: the discs meet only if `a` approaches (`B < 0`) and the discriminant
///   `D = B² - A·C` is `>= 0`. The first root is then
///   `t = (-B - √D) / A = C / (-B + √D)`. The second form is free of cancellation, and
///   of a division by a small `A`. Since `-B > 0`, its divisor is positive. The answer
///   is a hit when `t <= 1`, and a miss otherwise. Nothing is sampled, so no speed can
///   tunnel.
///
/// The discriminant is computed as `D = A·s² - (d × v)²`. Lagrange's identity makes
/// this equal to `B² - A·C`. When `a` approaches head on, `B²` and `A·C` are two huge,
/// nearly equal squares, and their difference loses everything below their rounding.
/// With that form, a bullet a thousand units from a target of radius 0.05, aimed at its
/// center, missed. `(d × v)²` is `A` times the squared distance of the path from `b`'s
/// center. So the test reads "the path passes within `s`", with only the rounding of
/// the cross product, about an ulp of `|d|` in distance.
///
/// # Normal
/// The normal is the unit vector from `b`'s center to `a`'s at contact, `p / |p|` with
/// `p = d + t·v`. It points toward `a`, as every [`Sweep::normal`] does. Two points,
/// with zero radii, that meet exactly have `p = 0`. Their normal then points against
/// the motion, `-v / |v|`.
///
/// # Stop
/// The stop is the displacement of `a` relative to `b` that leaves it flush. It places
/// `a` along the normal, at the radius sum plus a nudge: `stop = n·(s + nudge) - d`.
/// Then `a.center + stop`, rounded to `f32`, is at least `s` from `b.center`. So there
/// is **no penetration**, whatever the angle of approach. Backing off along `v` alone
/// would not achieve this when `a` grazes `b`.
///
/// The nudge covers two roundings. The first is the rounding of `n` and of
/// `n·(s + ..) - d`, a few ulps of `|d| + s`: `(|d.x| + |d.y| + s)·2⁻²¹`. The second is
/// the rounding of the game's `a.center + stop`, half an ulp of `a`'s coordinates:
/// `(|a.x| + |a.y|)·2⁻²²`. Where `b` sits in the world does not matter. So the stop
/// differs from `t·v` by well under a unit near `10⁶`, and by about `2⁻²⁰` of the radius
/// sum near the origin. Without the nudge, the tests find stops a few ulps inside.
///
/// # Bad input and range
/// A NaN or infinite value, or a negative radius, is a [`Miss`](SweepStatus::Miss).
/// The answer is exact up to rounding while the squares and products above stay below
/// `f32::MAX`. That holds for distances, motions and radius sums below about `1.8e19`.
/// Beyond that, the kernel answers a miss rather than guess.
///
/// ```
/// use hantei::Circle;
/// use hantei::narrow::{SweepStatus, scalar::sweep_circle_circle};
/// use glam::Vec2;
/// // A round bullet (r = 1) flying right at 100 per frame toward a player (r = 2) at x = 50.
/// let bullet = Circle::new(Vec2::ZERO, 1.0);
/// let player = Circle::new(Vec2::new(50.0, 0.0), 2.0);
/// let s = sweep_circle_circle(&bullet, Vec2::new(100.0, 0.0), &player, Vec2::ZERO);
/// assert_eq!(s.status, SweepStatus::Hit);
/// assert_eq!(s.t, 0.47); // (50 - 3) / 100
/// assert_eq!(s.normal, Vec2::new(-1.0, 0.0));
/// assert!((bullet.center + s.stop).distance(player.center) >= 3.0); // flush, not inside
/// // Grazing past 3.5 units above the player's center: a miss.
/// let high = Circle::new(Vec2::new(0.0, 3.5), 1.0);
/// let s = sweep_circle_circle(&high, Vec2::new(100.0, 0.0), &player, Vec2::ZERO);
/// assert_eq!(s.status, SweepStatus::Miss);
/// ```
#[inline]
#[must_use]
pub fn sweep_circle_circle(a: &Circle, motion_a: Vec2, b: &Circle, motion_b: Vec2) -> Sweep {
    let is_finite = all_finite([
        a.center.x, a.center.y, a.radius, b.center.x, b.center.y, b.radius, motion_a.x, motion_a.y,
        motion_b.x, motion_b.y,
    ]);
    let (vx, vy) = (motion_a.x - motion_b.x, motion_a.y - motion_b.y);
    let (dx, dy) = (a.center.x - b.center.x, a.center.y - b.center.y);
    let s = a.radius + b.radius;
    let dd = dx * dx + dy * dy;
    let ss = s * s;
    let aa = vx * vx + vy * vy;
    let bb = dx * vx + dy * vy;
    let c = dd - ss;
    let cross = dx * vy - dy * vx;
    let aass = aa * ss;
    let cross2 = cross * cross;
    let big = f32::MAX;
    let is_valid = is_finite
        && a.radius >= 0.0
        && b.radius >= 0.0
        && dd <= big
        && ss <= big
        && aa <= big
        && bb.abs() <= big
        && aass <= big
        && cross2 <= big;
    let is_touching_in = dd == ss && bb < 0.0;
    let is_inside = dd < ss || (dd == ss && bb >= 0.0);
    let disc = aass - cross2;
    let is_approaching = dd > ss && bb < 0.0 && disc >= 0.0;
    let enter = c / (disc.sqrt() - bb);
    if !is_valid || !(is_touching_in || is_inside || (is_approaching && enter <= 1.0)) {
        return Sweep {
            status: SweepStatus::Miss,
            t: 1.0,
            normal: Vec2::ZERO,
            stop: Vec2::new(vx, vy),
        };
    }
    if is_inside {
        return Sweep {
            status: SweepStatus::Overlapping,
            t: 0.0,
            normal: Vec2::ZERO,
            stop: Vec2::ZERO,
        };
    }
    let t = if is_touching_in { 0.0 } else { enter };
    let (px, py) = (dx + t * vx, dy + t * vy);
    let len = (px * px + py * py).sqrt();
    let speed = aa.sqrt();
    let (nx, ny) = if len > 0.0 {
        (px / len, py / len)
    } else {
        ((0.0 - vx) / speed, (0.0 - vy) / speed)
    };
    let at = (a.center.x.abs() + a.center.y.abs()) * NUDGE_AT;
    let gap = ((dx.abs() + dy.abs()) + s) * NUDGE;
    let reach = s + (at + gap);
    Sweep {
        status: SweepStatus::Hit,
        t,
        normal: Vec2::new(nx, ny),
        stop: Vec2::new(nx * reach - dx, ny * reach - dy),
    }
}
