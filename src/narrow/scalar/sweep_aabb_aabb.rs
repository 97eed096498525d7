//! Swept AABB–AABB: two boxes that both move during one frame (seed 002; Ericson, §5.5.8).
//!
//! The math is documented on [`sweep_aabb_aabb`](fn@super::sweep_aabb_aabb).

use super::{all_finite, max, min};
use crate::math::Aabb;
use crate::narrow::{Sweep, SweepStatus};
use glam::Vec2;

/// How far a rounded gap is shortened when it would overshoot: `2⁻²²` times the
/// magnitude of the two coordinates (see `sweep_aabb_aabb`, "Result").
pub(crate) const NUDGE: f32 = 1.0 / 4_194_304.0;

/// One axis of the swept test.
pub(crate) struct Axis {
    /// Entry time (`±∞` for a zero velocity).
    pub enter: f32,
    /// Exit time.
    pub exit: f32,
    /// The gap the leading edge of `a` closes, already kept from overshooting.
    pub stop: f32,
}

/// The entry and exit times and the flush gap on one axis (see `sweep_aabb_aabb`).
#[inline(always)]
pub(crate) fn axis(a0: f32, a1: f32, b0: f32, b1: f32, v: f32) -> Axis {
    let is_neg = v < 0.0;
    // The leading edge of `a` and the face of `b` it meets.
    let lead = if is_neg { a0 } else { a1 };
    let face = if is_neg { b1 } else { b0 };
    let near = face - lead;
    let far = if is_neg { b0 - a1 } else { b1 - a0 };
    let (enter, exit) = if v == 0.0 {
        if a0 <= b1 && b0 <= a1 {
            (f32::NEG_INFINITY, f32::INFINITY)
        } else {
            (f32::INFINITY, f32::NEG_INFINITY)
        }
    } else {
        (near / v, far / v)
    };
    // Keep `lead + stop` on the near side of `face` despite the rounding of `near`.
    let moved = lead + near;
    let overshoots = if is_neg { moved < face } else { moved > face };
    let stop = if overshoots {
        let nudge = (lead.abs() + face.abs()) * NUDGE;
        if is_neg { near + nudge } else { near - nudge }
    } else {
        near
    };
    Axis { enter, exit, stop }
}

/// The swept test of the box `[a_min, a_max]` moving by `v` against the still box `b`.
#[inline(always)]
pub(crate) fn sweep_core(a_min: Vec2, a_max: Vec2, b: &Aabb, v: Vec2, is_finite: bool) -> Sweep {
    let x = axis(a_min.x, a_max.x, b.min.x, b.max.x, v.x);
    let y = axis(a_min.y, a_max.y, b.min.y, b.max.y, v.y);
    let enter = max(x.enter, y.enter);
    let exit = min(x.exit, y.exit);
    let is_number = !(x.enter.is_nan() || y.enter.is_nan() || x.exit.is_nan() || y.exit.is_nan());
    let is_contact = is_finite && is_number && enter <= exit && enter <= 1.0 && exit >= 0.0;
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
    // The hit axes: those whose entry time is the latest (both for an exact corner).
    let on_x = x.enter == enter;
    let on_y = y.enter == enter;
    let face_normal = |v: f32| if v > 0.0 { -1.0 } else { 1.0 };
    Sweep {
        status: SweepStatus::Hit,
        t: max(enter, 0.0),
        normal: Vec2::new(
            if on_x { face_normal(v.x) } else { 0.0 },
            if on_y { face_normal(v.y) } else { 0.0 },
        ),
        stop: Vec2::new(
            if on_x { x.stop } else { v.x },
            if on_y { y.stop } else { v.y },
        ),
    }
}

/// Sweeps box `a`, moving by `motion_a`, against box `b`, moving by `motion_b`, over one
/// frame.
///
/// The answer says whether and when the boxes first touch, on which face, and how far
/// `a` may move relative to `b` without entering it. The sections below give the math
/// and the meaning of each field.
///
/// # Relative motion
/// Box `a` moves by `motion_a` and `b` by `motion_b`, both at constant speed over
/// `t ∈ [0, 1]`. Subtracting `b`'s motion from both makes `b` stand still, and `a` move
/// by `v = motion_a - motion_b`. The contact times do not change.
///
/// # Per-axis entry and exit times
/// On one axis `a` covers `[a₀ + v·t, a₁ + v·t]` and `b` covers `[b₀, b₁]`. The closed
/// intervals overlap iff `a₀ + v·t <= b₁` and `b₀ <= a₁ + v·t`. Solving for `t`:
///
/// ```text
///            v > 0                         v < 0                     v = 0
///  enter = (b₀ - a₁) / v          enter = (b₁ - a₀) / v      -∞ if the intervals overlap,
///  exit  = (b₁ - a₀) / v          exit  = (b₀ - a₁) / v      +∞ (and exit -∞) if not
///           └ near ┘ (the gap the leading edge of `a` closes)
/// ```
///
/// A zero component never divides. It takes the `v = 0` column, which a static overlap
/// test decides, so no `±∞/0` or `0/0` NaN is ever formed. The boxes are in contact
/// exactly for `t ∈ [enter, exit]`, with `enter = max(enter_x, enter_y)` and
/// `exit = min(exit_x, exit_y)`. They touch within the frame when
///
/// ```text
/// enter <= exit   &&   enter <= 1   &&   exit >= 0
/// ```
///
/// This is seed 002's condition, with closed inequalities. Nothing is sampled, so no
/// speed can tunnel. A box that crosses another within the frame always has such an
/// interval.
///
/// # Result ([`Sweep`])
/// | status | when | `t` | `normal` | `stop` |
/// |---|---|---|---|---|
/// | [`Hit`](SweepStatus::Hit) | `0 <= enter <= min(exit, 1)` | `enter` | the face of `b` that is hit | `v` with each hit axis cut to the gap |
/// | [`Overlapping`](SweepStatus::Overlapping) | `enter < 0 <= exit`: in contact before the frame began | `0` | `(0, 0)` | `(0, 0)` |
/// | [`Miss`](SweepStatus::Miss) | no contact in `[0, 1]`, or a NaN/∞ input | `1` | `(0, 0)` | `v` |
///
/// - **Normal**: the axis whose entry time is `enter`, which is the latest entry time.
///   The test uses exact float equality, since `enter` *is* one of them. The normal is
///   the outward normal of `b`'s face, pointing toward `a`. It is `-1` on x when `a`
///   moves right (`v.x > 0`) into `b`'s left face, and `+1` when it moves left. When
///   both entry times are equal, at an exact corner hit, both components are set, as in
///   `(-1, -1)`. [`Sweep::is_corner`] tells this case, and the normal then does not
///   have unit length.
/// - **Stop**: the displacement of `a` relative to `b` that brings it flush with `b`
///   and no further. This is seed 002's response, per axis. On each hit axis it is the
///   gap `near`, which is `b₀ - a₁` or `b₁ - a₀` and equals `enter·v` in exact
///   arithmetic. On the other axis it is the full `v`, so the box slides.
///
///   Seed 002 applies this to two moving objects, by scaling each one's motion on the
///   hit axes by `t`. `stop` is the same response seen from `b`. It is computed from the
///   gap itself rather than from `t·v`, so **`a.translated(stop)` never enters `b`**.
///   On a hit axis, the leading edge `a₁ + stop` is `<= b₀`, or `a₀ + stop >= b₁`, bit
///   for bit. When the rounding of `b₀ - a₁` would overshoot, the gap is shortened by
///   `(|a₁| + |b₀|)·2⁻²²`, a couple of ulps of the coordinates.
///
/// # Touching at `t = 0` and `t = 1`
/// - Touching at the start and moving into `b`: the gap is `0`, so `enter = 0`. This
///   is a **hit at `t = 0`**, with that face's normal and `stop = 0` on that axis. So a
///   box resting on the ground while gravity pulls it down still slides sideways.
/// - Touching or overlapping at the start, and sliding along or moving away: `enter < 0`.
///   This is **overlapping**. The closed static test holds at `t = 0`, and the sweep
///   does not resolve contacts that already exist.
/// - Touching exactly at the end of the frame: `enter = 1`. This is a **hit at `t = 1`**,
///   since the closed static test holds at the end position.
/// - Touching only at one instant while crossing, as when a corner grazes a corner:
///   a hit at that instant.
///
/// # Bad input
/// A NaN or infinite coordinate or motion is a [`Miss`](SweepStatus::Miss). The kernel
/// tests this up front, as `Σ x·0 == 0`. Finite inputs whose differences overflow
/// `f32`, with coordinates or motions beyond about `1.7e38`, cannot be answered
/// exactly. Even then, the kernel never returns a NaN time, because a NaN entry or exit
/// time is a miss. It never panics.
///
/// ```
/// use hantei::Aabb;
/// use hantei::narrow::{SweepStatus, scalar::sweep_aabb_aabb};
/// use glam::Vec2;
/// // A bullet 1 wide moving 100 to the right through a wall 0.5 thick: no tunnelling.
/// let bullet = Aabb::from_coords(0.0, 0.0, 1.0, 1.0);
/// let wall = Aabb::from_coords(10.0, -5.0, 10.5, 5.0);
/// let s = sweep_aabb_aabb(&bullet, Vec2::new(100.0, 3.0), &wall, Vec2::ZERO);
/// assert_eq!(s.status, SweepStatus::Hit);
/// assert_eq!(s.t, 0.09); // (10 - 1) / 100
/// assert_eq!(s.normal, Vec2::new(-1.0, 0.0)); // the wall's left face
/// assert_eq!(s.stop, Vec2::new(9.0, 3.0)); // flush on x, sliding on y
/// assert!(bullet.translated(s.stop).max.x <= wall.min.x);
/// ```
#[inline]
#[must_use]
pub fn sweep_aabb_aabb(a: &Aabb, motion_a: Vec2, b: &Aabb, motion_b: Vec2) -> Sweep {
    let is_finite = all_finite([
        a.min.x, a.min.y, a.max.x, a.max.y, b.min.x, b.min.y, b.max.x, b.max.y, motion_a.x,
        motion_a.y, motion_b.x, motion_b.y,
    ]);
    let v = Vec2::new(motion_a.x - motion_b.x, motion_a.y - motion_b.y);
    sweep_core(a.min, a.max, b, v, is_finite)
}
