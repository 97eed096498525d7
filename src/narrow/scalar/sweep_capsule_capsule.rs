//! Swept capsule–capsule: two capsules that both move during one frame, answered by the
//! rounded-polygon core with their Minkowski difference, a parallelogram, for a polygon.
//!
//! The math is documented on [`sweep_capsule_capsule`](fn@super::sweep_capsule_capsule).

use super::all_finite;
use super::rounded_polygon::rounded_polygon;
use crate::math::Capsule;
use crate::narrow::Sweep;
use glam::Vec2;

/// Sweeps capsule `a`, moving by `motion_a`, against capsule `b`, moving by `motion_b`,
/// over one frame.
///
/// The answer says whether and when they first touch, the contact normal, and how far
/// `a` may move relative to `b` without entering it. Its fields mean what they mean for
/// [`sweep_aabb_aabb`](fn@super::sweep_aabb_aabb). See [`Sweep`]. Both capsules move,
/// and their rotations stay the same for the frame.
///
/// # A moving point against a rounded polygon
/// Relative to `b`, `a` moves by `v = motion_a - motion_b`. The capsules touch when
/// their segments come within `r = a.radius + b.radius` of each other. A point `y` of
/// `b`'s segment and a point `x` of `a`'s are that close when `y - x` is within `r` of
/// the origin. So the capsules touch at time `t` when the point `t·v` is within `r` of
/// the set of all `y - x`, the Minkowski difference of the segments. That set is the
/// parallelogram with the vertices `b.a - a.a`, `b.b - a.a`, `b.b - a.b` and
/// `b.a - a.b`, taken counter-clockwise. Parallel segments make it a segment.
///
/// ```text
///        ╭─────────────────╮          the polygon grown by r: one slab per edge
///       ╱ ╲               ╱ ╲         (the edge pushed out by r along its normal)
///      │   ●─────────────●   │        and one disc of radius r per vertex
///      │  ╱      P      ╱    │
///       ╲╱             ╱    ╱         the point enters through the first of them
///        ●─────────────●───╯
///   ●──▶ (the point t·v)
/// ```
///
/// The same core answers [`sweep_capsule_circle`](fn@super::sweep_capsule_circle) (a
/// segment for a polygon), [`sweep_capsule_aabb`](fn@super::sweep_capsule_aabb) and
/// [`sweep_capsule_obb2`](fn@super::sweep_capsule_obb2) (a hexagon: the box swept along
/// the segment). The point enters the polygon grown by `r` at the first of these
/// times, each exact up to rounding:
///
/// - **An edge**, pushed out by `r`. Let `n` be the edge's unit outward normal, `h` the
///   point's offset from the edge's line along `n`, and `w = n·v`. When `h >= r` and
///   `w < 0`, the point reaches the pushed-out edge at `t = (r - h) / w`. It counts when
///   it lands within the edge's length. An edge of zero length drops out.
/// - **A vertex's disc** of radius `r`: the exact first root of `|d + t·v|² = r²`, where
///   `d` is the point relative to the vertex. It is computed as in
///   [`sweep_circle_circle`](fn@super::sweep_circle_circle), with `t = C / (-B + √D)`
///   and `D = A·r² - (d × v)²` by Lagrange's identity. So there is no cancellation, and
///   no speed tunnels.
///
/// The grown polygon is the union of the slabs and the discs, and its outline is made
/// of their outer sides. So the earliest of these times is the first contact. The
/// candidates are taken in the order edge 0, disc 0, edge 1, disc 1, and so on. The
/// first of equal times wins. Nothing is sampled, so no speed can tunnel.
///
/// # Statuses
/// Let `δ` be the distance from the point's start to the polygon: zero inside it (on
/// the inner side of every edge, and within its bounds), else the least distance to an
/// edge, as `h` along the edge or `|d|` beyond its ends.
/// - `δ < r`: [`Overlapping`](crate::narrow::SweepStatus::Overlapping).
/// - `δ = r`, touching: a **hit at `t = 0`** when a piece is entered at `t = 0`, that is
///   when `a` moves into `b`. Otherwise, sliding along or moving away, it is
///   overlapping, as for discs.
/// - Otherwise: a hit at the first contact if that is in `[0, 1]`, touching at `t = 1`
///   included. Else a [`Miss`](crate::narrow::SweepStatus::Miss).
///
/// # Normal
/// The normal is the grown polygon's outward normal at the contact, pointing toward
/// `a`. At an edge it is the edge's normal `n`. At a disc, it is `(d + t·v) / |d + t·v|`.
/// When that is zero, which needs `r = 0` and a path through the vertex, it is
/// `-v / |v|`.
///
/// # Stop
/// The stop moves `a` to the contact, `t·v`, then back along the normal by a nudge:
/// `stop = t·v + normal·nudge`. The nudge is `2⁻²²` of the sum of the magnitudes that
/// the answer is rounded against: the world coordinates of both shapes, the polygon's
/// vertices, `r`, and `|v.x| + |v.y|`. Moving out along the normal of a convex shape
/// grows the distance by as much. So `a`, moved by `stop` in `f32`, keeps a gap of at
/// least `r` to `b`: there is **no penetration**. The stop differs from `t·v` by about
/// the nudge, a few ulps of the coordinates.
///
/// # Rounding
/// The polygon's vertices are differences of the inputs, rounded once each. A
/// near-parallel pair whose cross product rounds to the wrong sign gives a polygon
/// turned inside out, but it is then at most a rounding thick. The normals carry a
/// square root and a quotient each. So the answer is the exact one for shapes moved by
/// a few ulps of the coordinates.
///
/// # Bad input and range
/// A NaN or infinite value, or a negative radius, is a [`Miss`](crate::narrow::SweepStatus::Miss).
/// The answer is exact up to rounding while the squares and products stay below
/// `f32::MAX`. That holds for distances, lengths, motions and radii below about
/// `1.8e19`. Beyond that, the kernel answers a miss rather than guess.
///
/// ```
/// use hantei::Capsule;
/// use hantei::narrow::{SweepStatus, scalar::sweep_capsule_capsule};
/// use glam::Vec2;
/// // A still laser along y at x = 10, 0.5 thick, and a capsule bullet (r = 0.25)
/// // flying right at 1000 per frame: caught, however fast.
/// let laser = Capsule::new(Vec2::new(10.0, -20.0), Vec2::new(10.0, 20.0), 0.5);
/// let bullet = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(0.0, 0.0), 0.25);
/// let s = sweep_capsule_capsule(&bullet, Vec2::new(1000.0, 0.0), &laser, Vec2::ZERO);
/// assert_eq!(s.status, SweepStatus::Hit);
/// assert_eq!(s.t, 0.00925); // (10 - 0.75) / 1000
/// assert_eq!(s.normal, Vec2::new(-1.0, 0.0)); // from the laser toward the bullet
/// // Moved by the stop, the bullet is just short of the laser.
/// assert!(bullet.b.x + s.stop.x <= 10.0 - 0.75);
/// // A bullet passing above the laser's end: a miss.
/// let high = Capsule::new(Vec2::new(-1.0, 21.0), Vec2::new(0.0, 21.0), 0.25);
/// let s = sweep_capsule_capsule(&high, Vec2::new(1000.0, 0.0), &laser, Vec2::ZERO);
/// assert_eq!(s.status, SweepStatus::Miss);
/// ```
#[inline]
#[must_use]
pub fn sweep_capsule_capsule(a: &Capsule, motion_a: Vec2, b: &Capsule, motion_b: Vec2) -> Sweep {
    let is_finite = all_finite([
        a.a.x, a.a.y, a.b.x, a.b.y, a.radius, b.a.x, b.a.y, b.b.x, b.b.y, b.radius, motion_a.x,
        motion_a.y, motion_b.x, motion_b.y,
    ]);
    let is_valid = is_finite && a.radius >= 0.0 && b.radius >= 0.0;
    let v = Vec2::new(motion_a.x - motion_b.x, motion_a.y - motion_b.y);
    let (ea_x, ea_y) = (a.b.x - a.a.x, a.b.y - a.a.y);
    let (eb_x, eb_y) = (b.b.x - b.a.x, b.b.y - b.a.y);
    let p0 = Vec2::new(b.a.x - a.a.x, b.a.y - a.a.y);
    let p1 = Vec2::new(b.b.x - a.a.x, b.b.y - a.a.y);
    let p2 = Vec2::new(b.b.x - a.b.x, b.b.y - a.b.y);
    let p3 = Vec2::new(b.a.x - a.b.x, b.a.y - a.b.y);
    // Counter-clockwise when `ea × eb >= 0`; else the order turns around.
    let is_ccw = ea_x * eb_y - ea_y * eb_x >= 0.0;
    let (p1, p3) = if is_ccw { (p1, p3) } else { (p3, p1) };
    let mag = ((a.a.x.abs() + a.a.y.abs()) + (a.b.x.abs() + a.b.y.abs()))
        + ((b.a.x.abs() + b.a.y.abs()) + (b.b.x.abs() + b.b.y.abs()));
    rounded_polygon([p0, p1, p2, p3], v, a.radius + b.radius, mag, is_valid)
}
