//! Swept AABB–circle: a box and a disc that both move during one frame (Ericson,
//! §5.5.7, "intersecting moving sphere against AABB"), and the rounded-box core that
//! [`sweep_circle_obb2`](fn@super::sweep_circle_obb2) runs in its box's frame.
//!
//! The math is documented on [`sweep_aabb_circle`](fn@super::sweep_aabb_circle).

use super::sweep_circle_circle::NUDGE;
use super::{all_finite, max, min};
use crate::math::{Aabb, Circle};
use crate::narrow::{Sweep, SweepStatus};
use glam::Vec2;

/// One axis of the two slabs: when the center, moving by `w`, enters and leaves the
/// box's range on this axis and the range grown by `r`.
pub(crate) struct Slabs {
    /// Entry into `[lo, hi]` (`±∞` for a zero velocity).
    pub in_box: f32,
    /// Exit from `[lo, hi]`.
    pub out_box: f32,
    /// Entry into `[lo - r, hi + r]`.
    pub in_grown: f32,
    /// Exit from `[lo - r, hi + r]`.
    pub out_grown: f32,
    /// The gap to the grown side the center moves toward (`lo - r` or `hi + r`).
    pub near_grown: f32,
}

/// The slab times of one axis: `lo` and `hi` are the box's sides minus the center.
/// `is_pos` says which side faces the motion (the low one when `w > 0`).
#[inline(always)]
pub(crate) fn slabs(lo: f32, hi: f32, r: f32, w: f32, is_pos: bool) -> Slabs {
    let lo_r = lo - r;
    let hi_r = hi + r;
    let (near, far) = if is_pos { (lo, hi) } else { (hi, lo) };
    let (near_r, far_r) = if is_pos { (lo_r, hi_r) } else { (hi_r, lo_r) };
    let (in_box, out_box, in_grown, out_grown) = if w == 0.0 {
        // No motion on this axis: inside the range for ever, or never.
        let (inf, neg_inf) = (f32::INFINITY, f32::NEG_INFINITY);
        let is_in = lo <= 0.0 && hi >= 0.0;
        let is_in_r = lo_r <= 0.0 && hi_r >= 0.0;
        (
            if is_in { neg_inf } else { inf },
            if is_in { inf } else { neg_inf },
            if is_in_r { neg_inf } else { inf },
            if is_in_r { inf } else { neg_inf },
        )
    } else {
        (near / w, far / w, near_r / w, far_r / w)
    };
    Slabs {
        in_box,
        out_box,
        in_grown,
        out_grown,
        near_grown: near_r,
    }
}

/// The first contact of the center with one corner's disc of radius `r`.
pub(crate) struct Corner {
    /// The time of the first root (`0` when touching and moving in).
    pub t: f32,
    /// `d × w`: on which side of the corner the path passes.
    pub cross: f32,
    /// Whether the path meets the disc within the frame, from outside or touching.
    pub is_hit: bool,
    /// Whether every square and product stayed below `f32::MAX`.
    pub fits: bool,
}

/// The center at `d` from a corner, moving by `w`, against the corner's disc: the
/// first root of `|d + t·w|² = r²` exactly as in `sweep_circle_circle` (`rr = r²`,
/// `aa = w·w`).
#[inline(always)]
pub(crate) fn corner(dx: f32, dy: f32, w: Vec2, rr: f32, aa: f32) -> Corner {
    let big = f32::MAX;
    let dd = dx * dx + dy * dy;
    let bb = dx * w.x + dy * w.y;
    let cc = dd - rr;
    let cross = dx * w.y - dy * w.x;
    let aarr = aa * rr;
    let cross2 = cross * cross;
    let fits = dd <= big && bb.abs() <= big && aarr <= big && cross2 <= big;
    let is_touching_in = dd == rr && bb < 0.0;
    let disc = aarr - cross2;
    let is_approaching = dd > rr && bb < 0.0 && disc >= 0.0;
    let enter = cc / (disc.sqrt() - bb);
    Corner {
        t: if is_touching_in { 0.0 } else { enter },
        cross,
        is_hit: is_touching_in || (is_approaching && enter <= 1.0),
        fits,
    }
}

/// Whether candidate `a` comes first: earlier, or as early and of a lower rank.
#[inline(always)]
fn is_first(t_a: f32, rank_a: f32, t_b: f32, rank_b: f32) -> bool {
    t_a < t_b || (t_a == t_b && rank_a < rank_b)
}

/// The rounded-box core: a disc of radius `r` whose center starts at `c` and moves by
/// `w` against the still box `[min, max]`, answered as a [`Sweep`] of the center
/// against the box grown by `r` with rounded corners: `normal` is the rounded box's
/// outward normal (toward the center), `stop` the center's displacement that leaves
/// the disc flush outside (the whole `w` on a miss). `mag` is added to the magnitudes
/// that size the nudge (the world coordinates, when the caller works in a box's frame).
/// The caller has checked the inputs' finiteness and shapes (`is_valid`).
///
/// See [`sweep_aabb_circle`](fn@super::sweep_aabb_circle) for the math.
#[inline(always)]
pub(crate) fn rounded_box(
    min_c: Vec2,
    max_c: Vec2,
    c: Vec2,
    w: Vec2,
    r: f32,
    mag: f32,
    is_valid: bool,
) -> Sweep {
    let (inf, big) = (f32::INFINITY, f32::MAX);
    // The box's sides relative to the center.
    let (lo_x, hi_x) = (min_c.x - c.x, max_c.x - c.x);
    let (lo_y, hi_y) = (min_c.y - c.y, max_c.y - c.y);
    // At rest: from the center to its closest point of the box (e = q - c).
    let ex = max(lo_x, 0.0) + min(hi_x, 0.0);
    let ey = max(lo_y, 0.0) + min(hi_y, 0.0);
    let dist2 = ex * ex + ey * ey;
    let rr = r * r;
    // The sides that face the motion (on a still axis: the side the center is on).
    let is_pos_x = w.x > 0.0 || (w.x == 0.0 && lo_x > 0.0);
    let is_pos_y = w.y > 0.0 || (w.y == 0.0 && lo_y > 0.0);
    let x = slabs(lo_x, hi_x, r, w.x, is_pos_x);
    let y = slabs(lo_y, hi_y, r, w.y, is_pos_y);
    // The two slabs: the box grown by r across x (its faces x = min - r, max + r) and
    // across y; entered through the grown face, or through a side (rank 4, 5).
    let enter_x = max(x.in_grown, y.in_box);
    let exit_x = min(x.out_grown, y.out_box);
    let enter_y = max(y.in_grown, x.in_box);
    let exit_y = min(y.out_grown, x.out_box);
    let t_x = if enter_x <= exit_x && (0.0..=1.0).contains(&enter_x) {
        enter_x
    } else {
        inf
    };
    let t_y = if enter_y <= exit_y && (0.0..=1.0).contains(&enter_y) {
        enter_y
    } else {
        inf
    };
    let rank_x = if x.in_grown >= y.in_box { 0.0 } else { 4.0 };
    let rank_y = if y.in_grown >= x.in_box { 1.0 } else { 5.0 };
    // The front corner F (facing the motion) and the neighbour on the side the path
    // passes F: along x when `sx·sy·(d × w) > 0`, else along y.
    let fx = if is_pos_x { min_c.x } else { max_c.x };
    let fy = if is_pos_y { min_c.y } else { max_c.y };
    let bx = if is_pos_x { max_c.x } else { min_c.x };
    let by = if is_pos_y { max_c.y } else { min_c.y };
    let aa = w.x * w.x + w.y * w.y;
    let f = corner(c.x - fx, c.y - fy, w, rr, aa);
    let to_x = if is_pos_x == is_pos_y {
        f.cross > 0.0
    } else {
        f.cross < 0.0
    };
    let (nx, ny) = if to_x { (bx, fy) } else { (fx, by) };
    let n = corner(c.x - nx, c.y - ny, w, rr, aa);
    let is_valid = is_valid && r >= 0.0 && aa <= big && rr <= big && f.fits && n.fits;
    let has_radius = r > 0.0;
    let t_f = if has_radius && f.is_hit { f.t } else { inf };
    let t_n = if has_radius && n.is_hit { n.t } else { inf };
    // The earliest candidate; ties go to the grown faces, then F, then the neighbour,
    // then the sides.
    let (t_xy, rank_xy) = if is_first(t_x, rank_x, t_y, rank_y) {
        (t_x, rank_x)
    } else {
        (t_y, rank_y)
    };
    let (t_fn, rank_fn) = if is_first(t_f, 2.0, t_n, 3.0) {
        (t_f, 2.0)
    } else {
        (t_n, 3.0)
    };
    let (t_win, rank) = if is_first(t_xy, rank_xy, t_fn, rank_fn) {
        (t_xy, rank_xy)
    } else {
        (t_fn, rank_fn)
    };
    // Statuses: touching at rest is a hit at t = 0 only when moving in.
    let is_moving_in = ex * w.x + ey * w.y > 0.0;
    let is_hit_at_zero = dist2 == rr && t_win == 0.0 && (r == 0.0 || is_moving_in);
    let is_inside = dist2 < rr || (dist2 == rr && !is_hit_at_zero);
    if !is_valid || !(is_inside || t_win <= 1.0) {
        return Sweep {
            status: SweepStatus::Miss,
            t: 1.0,
            normal: Vec2::ZERO,
            stop: w,
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
    let t = max(t_win, 0.0);
    let on_x = rank == 0.0 || rank == 4.0;
    let on_y = rank == 1.0 || rank == 5.0;
    let on_n = rank == 3.0;
    // The contact's corner (F for a face): the center at contact relative to it, and
    // that point's offset from the box (its closest point `q`, relative to the corner).
    let (kx, ky) = if on_n { (nx, ny) } else { (fx, fy) };
    let (dkx, dky) = (c.x - kx, c.y - ky);
    let (px, py) = (dkx + t * w.x, dky + t * w.y);
    let qx = min(max(px, min_c.x - kx), max_c.x - kx);
    let qy = min(max(py, min_c.y - ky), max_c.y - ky);
    let (ux, uy) = (px - qx, py - qy);
    let len = (ux * ux + uy * uy).sqrt();
    // A zero offset (a radius below the rounding): the corner's diagonal.
    let is_min_x = is_pos_x != (on_n && to_x);
    let is_min_y = is_pos_y != (on_n && !to_x);
    let diag = core::f32::consts::FRAC_1_SQRT_2;
    let (cnx, cny) = if len > 0.0 {
        (ux / len, uy / len)
    } else {
        (
            if is_min_x { -diag } else { diag },
            if is_min_y { -diag } else { diag },
        )
    };
    let face_x = if is_pos_x { -1.0 } else { 1.0 };
    let face_y = if is_pos_y { -1.0 } else { 1.0 };
    let nbx = if on_x {
        face_x
    } else if on_y {
        0.0
    } else {
        cnx
    };
    let nby = if on_x {
        0.0
    } else if on_y {
        face_y
    } else {
        cny
    };
    // The nudge: 2^-20 of the magnitudes that the stop's roundings are relative to.
    let ax = kx.abs() + c.x.abs();
    let ay = ky.abs() + c.y.abs();
    let base = if on_x {
        ax
    } else if on_y {
        ay
    } else {
        ax + ay
    };
    let nudge = ((base + mag) + r) * NUDGE;
    let reach = r + nudge;
    let stop_x = if on_x {
        x.near_grown + nbx * nudge
    } else if on_y {
        t * w.x
    } else {
        (nbx * reach + qx) - dkx
    };
    let stop_y = if on_x {
        t * w.y
    } else if on_y {
        y.near_grown + nby * nudge
    } else {
        (nby * reach + qy) - dky
    };
    Sweep {
        status: SweepStatus::Hit,
        t,
        normal: Vec2::new(nbx, nby),
        stop: Vec2::new(stop_x, stop_y),
    }
}

/// Sweeps box `a`, moving by `motion_a`, against disc `b`, moving by `motion_b`, over
/// one frame.
///
/// The answer says whether and when they first touch, the contact normal, and how far
/// `a` may move relative to `b` without entering it. Its fields mean what they mean for
/// [`sweep_aabb_aabb`](fn@super::sweep_aabb_aabb). See [`Sweep`].
///
/// # A moving point against a rounded box
/// Relative to the box, the disc's center moves by `w = motion_b - motion_a`. So the box
/// moves by `v = -w` relative to the disc. The disc touches the box exactly when its
/// center is in the box grown by `r` with rounded corners. That shape is the Minkowski
/// sum of the box and the disc. It is the union of two slabs and four corner discs:
///
/// ```text
///         ╭──┬─────────┬──╮      the slab across x: [min.x - r, max.x + r] × [min.y, max.y]
///         │ N│    Y    │  │      the slab across y: [min.x, max.x] × [min.y - r, max.y + r]
///         ├──┼─────────┼──┤      the discs: radius r at the four corners
///         │  │         │  │
///         │X │   box   │ X│      the center enters at the first of: a slab's grown face,
///         │  │         │  │      the front corner's disc F, its neighbour's disc N
///         ├──┼─────────┼──┤
///     ●──▶│ F│    Y    │  │      (here w → right and up: F is the lower left corner)
///         ╰──┴─────────┴──╯
/// ```
///
/// The first contact is the earliest entry into any of the pieces:
///
/// - **The slabs**: the entry and exit times of each axis, as in the swept AABB test,
///   for the box's range and for the range grown by `r`. A zero velocity component
///   never divides: the center is inside the range for ever, or never. A slab is in
///   contact over `[max(entries), min(exits)]`. The gaps are taken from the center,
///   `min.x - c.x` first and `- r` second, so a small disc near `10⁶` keeps its size. A
///   slab entered through its grown face gives that face's normal. A slab entered
///   through a side ranks last. That only happens at a tie with a corner's disc, or
///   within rounding of one.
/// - **The corner discs**: the exact first root of `|d + t·w|² = r²`, where `d` is the
///   center relative to the corner. It is computed as in
///   [`sweep_circle_circle`](fn@super::sweep_circle_circle), with `t = C / (-B + √D)`
///   and `D = A·r² - (d × w)²` by Lagrange's identity. So there is no cancellation, and
///   no speed tunnels. Only two discs can be first. One is the disc of the front corner
///   F, the corner facing the motion, on the low x side when `w.x > 0`. The other is
///   F's neighbour along x or along y, on the side of F that the path passes. The sign
///   of `d × w`, mirrored into the quadrant of `w`, tells which. The discs behind F
///   only meet a path that has entered a slab or F's disc first. Near `d × w = 0`, both
///   neighbours are far from the path, so the rounding of the sign never matters.
///
/// Candidates at the same time are taken in this order: the grown faces with x first,
/// then F, then the neighbour, then the sides. With `r = 0`, the discs are points and
/// are left out. The two slabs are then the box, and the answer is that of
/// [`cast_point_aabb`](fn@super::cast_point_aabb), except for the normal at an exact
/// corner, which here is x's, and the stop described below. Nothing is sampled, so no
/// speed can tunnel.
///
/// # Statuses
/// Let `q` be the point of the box closest to the disc's center `c`.
/// - Already overlapping, `|c - q|² < r²`: [`Overlapping`](SweepStatus::Overlapping).
/// - Touching at rest, `|c - q|² = r²`: a **hit at `t = 0`** when the disc moves into
///   the box, that is when `(q - c)·w > 0`. With `r = 0`, it is a hit when a slab is
///   entered at `t = 0`. Otherwise, when sliding along or moving away, it is
///   overlapping, as for two discs.
/// - Otherwise: a hit at the first contact if that is in `[0, 1]`, touching at `t = 1`
///   included. Else a [`Miss`](SweepStatus::Miss).
///
/// # Normal
/// The normal is the outward normal of `b`'s surface at the contact, pointing toward
/// `a`. That is the unit vector from the disc toward the box. At a face, it is that
/// face's axis, `(±1, 0)` or `(0, ±1)`. At a corner, it is `(k - p) / |k - p|`, where
/// `p` is the disc's center at contact and `k` is the corner, the box's closest point to
/// it. When the offset `p - k` rounds to zero, because the radius is below the rounding
/// of the coordinates, the normal is the corner's diagonal.
///
/// # Stop
/// The stop is the displacement of `a` relative to `b` that leaves it flush, with no
/// penetration.
/// - At a face, it is the gap to the grown face less a nudge of
///   `(|face| + |c| + r)·2⁻²⁰` on the normal's axis, and `t·v` along the face.
/// - At a corner, it places the closest point `k` at `r` plus a nudge of
///   `(|k.x| + |k.y| + |c.x| + |c.y| + r)·2⁻²⁰` from the disc's center, along the
///   normal.
///
/// So `a + stop`, rounded to `f32`, is at least `r` from the center. There is **no
/// penetration**, whatever the angle of approach. The stop differs from `t·v` by about
/// the nudge.
///
/// # Bad input and range
/// A NaN or infinite value, a negative radius, or an inverted box with `min > max` is a
/// [`Miss`](SweepStatus::Miss). The answer is exact up to rounding while the squares and
/// products of the two corner discs stay below `f32::MAX`. That holds for distances, box
/// sizes, motions and radii below about `1.8e19`. Beyond that, the kernel answers a miss
/// rather than guess.
///
/// ```
/// use hantei::{Aabb, Circle};
/// use hantei::narrow::{SweepStatus, scalar::sweep_aabb_circle};
/// use glam::Vec2;
/// // A wall 2 thick at x = 10..12 moving left by 20 onto a still round bullet (r = 1).
/// let wall = Aabb::from_coords(10.0, -5.0, 12.0, 5.0);
/// let bullet = Circle::new(Vec2::ZERO, 1.0);
/// let s = sweep_aabb_circle(&wall, Vec2::new(-20.0, 0.0), &bullet, Vec2::ZERO);
/// assert_eq!(s.status, SweepStatus::Hit);
/// assert_eq!(s.t, 0.45); // (10 - 1) / 20
/// assert_eq!(s.normal, Vec2::new(1.0, 0.0)); // from the bullet toward the wall
/// assert!(wall.translated(s.stop).min.x >= 1.0); // flush, not inside
/// // A bullet whose path passes (0.8, 0.8) beyond the corner (12, 5): its bounding box
/// // overlaps the wall on the way, but the disc never touches the rounded corner.
/// let past = Circle::new(Vec2::new(7.8, 10.8), 1.0);
/// let s = sweep_aabb_circle(&wall, Vec2::ZERO, &past, Vec2::new(10.0, -10.0));
/// assert_eq!(s.status, SweepStatus::Miss);
/// ```
#[inline]
#[must_use]
pub fn sweep_aabb_circle(a: &Aabb, motion_a: Vec2, b: &Circle, motion_b: Vec2) -> Sweep {
    let is_finite = all_finite([
        a.min.x, a.min.y, a.max.x, a.max.y, b.center.x, b.center.y, b.radius, motion_a.x,
        motion_a.y, motion_b.x, motion_b.y,
    ]);
    let is_valid = is_finite && a.min.x <= a.max.x && a.min.y <= a.max.y;
    let w = Vec2::new(motion_b.x - motion_a.x, motion_b.y - motion_a.y);
    let s = rounded_box(a.min, a.max, b.center, w, b.radius, 0.0, is_valid);
    match s.status {
        SweepStatus::Miss => Sweep {
            status: SweepStatus::Miss,
            t: 1.0,
            normal: Vec2::ZERO,
            stop: Vec2::new(motion_a.x - motion_b.x, motion_a.y - motion_b.y),
        },
        SweepStatus::Overlapping => s,
        // The box moves the other way: both vectors turn around.
        SweepStatus::Hit => Sweep {
            status: SweepStatus::Hit,
            t: s.t,
            normal: Vec2::new(0.0 - s.normal.x, 0.0 - s.normal.y),
            stop: Vec2::new(0.0 - s.stop.x, 0.0 - s.stop.y),
        },
    }
}
