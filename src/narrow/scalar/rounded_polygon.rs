//! The rounded-polygon core of the capsule sweeps: a point that moves against a convex
//! polygon grown by a radius (the Minkowski difference of the two shapes, rounded by
//! their radii). [`sweep_capsule_circle`](fn@super::sweep_capsule_circle),
//! [`sweep_capsule_capsule`](fn@super::sweep_capsule_capsule),
//! [`sweep_capsule_aabb`](fn@super::sweep_capsule_aabb) and
//! [`sweep_capsule_obb2`](fn@super::sweep_capsule_obb2) build the polygon, and this core
//! answers.
//!
//! The math is documented on [`sweep_capsule_capsule`](fn@super::sweep_capsule_capsule).

use super::sweep_aabb_circle::corner;
use super::{max, min};
use crate::narrow::{Sweep, SweepStatus};
use glam::Vec2;

/// How far the stop backs `a` off along the normal, per unit of the magnitudes it
/// covers (`2⁻²²`; see `sweep_capsule_capsule`, "Stop").
pub(crate) const NUDGE: f32 = 1.0 / 4_194_304.0;

/// A point that starts at the origin and moves by `v`, against the convex polygon whose
/// vertices `p` (relative to the point's start) run counter-clockwise, grown by `r`
/// with rounded corners. `mag` is added to the magnitudes that size the nudge (the
/// world coordinates). The caller has checked the inputs' finiteness and shapes
/// (`is_valid`). A polygon may be degenerate: a segment (two vertices, or four on one
/// line), or one with edges of zero length.
///
/// The answer is a [`Sweep`] of the point: `normal` is the rounded polygon's outward
/// normal at the contact (toward the point), `stop` is `t·v` backed off along it.
#[inline(always)]
pub(crate) fn rounded_polygon<const N: usize>(
    p: [Vec2; N],
    v: Vec2,
    r: f32,
    mag: f32,
    is_valid: bool,
) -> Sweep {
    let (inf, big) = (f32::INFINITY, f32::MAX);
    let rr = r * r;
    let aa = v.x * v.x + v.y * v.y;
    // From each vertex to the point, and its square.
    let d: [Vec2; N] = core::array::from_fn(|i| Vec2::new(0.0 - p[i].x, 0.0 - p[i].y));
    let dd: [f32; N] = core::array::from_fn(|i| d[i].x * d[i].x + d[i].y * d[i].y);
    let mut fits = is_valid && r >= 0.0 && aa <= big && rr <= big;
    // At rest: inside the polygon (every edge's offset <= 0, and within its bounds),
    // and the least squared distance to an edge.
    let mut is_in = true;
    let mut dist2 = inf;
    let (mut lo_x, mut lo_y, mut hi_x, mut hi_y) = (p[0].x, p[0].y, p[0].x, p[0].y);
    // The first contact: its time, its normal (of an edge) or its vertex (of a disc).
    let mut t_win = inf;
    let (mut nx_win, mut ny_win) = (0.0, 0.0);
    let (mut dx_win, mut dy_win) = (0.0, 0.0);
    let mut on_disc = false;
    let mut extent = 0.0;
    for i in 0..N {
        let j = if i + 1 == N { 0 } else { i + 1 };
        lo_x = min(lo_x, p[i].x);
        lo_y = min(lo_y, p[i].y);
        hi_x = max(hi_x, p[i].x);
        hi_y = max(hi_y, p[i].y);
        extent += p[i].x.abs() + p[i].y.abs();
        // Edge i, from vertex i to vertex j: its unit outward normal (right of the edge).
        let (ex, ey) = (p[j].x - p[i].x, p[j].y - p[i].y);
        let ll = ex * ex + ey * ey;
        let len = ll.sqrt();
        let (nx, ny) = (ey / len, (0.0 - ex) / len);
        let (dx, dy) = (d[i].x, d[i].y);
        // The point's offset from the edge's line, its speed along the normal, and its
        // place along the edge (`0 ..= ll` within the edge).
        let h = nx * dx + ny * dy;
        let wn = nx * v.x + ny * v.y;
        let x = ex * dx + ey * dy;
        let ev = ex * v.x + ey * v.y;
        fits = fits && ll <= big && x.abs() <= big && ev.abs() <= big;
        is_in = is_in && (ll == 0.0 || h <= 0.0);
        let seg2 = if x <= 0.0 {
            dd[i]
        } else if x >= ll {
            dd[j]
        } else {
            h * h
        };
        dist2 = min(dist2, seg2);
        // The offset edge, from outside (or touching) and moving in, within the edge.
        let t_e = (r - h) / wn;
        let x_e = x + t_e * ev;
        let is_edge = h >= r && wn < 0.0 && x_e >= 0.0 && x_e <= ll;
        if is_edge && t_e < t_win {
            t_win = t_e;
            (nx_win, ny_win) = (nx, ny);
            on_disc = false;
        }
        // Vertex i's disc.
        let c = corner(dx, dy, v, rr, aa);
        fits = fits && c.fits;
        if c.is_hit && c.t < t_win {
            t_win = c.t;
            (dx_win, dy_win) = (dx, dy);
            on_disc = true;
        }
    }
    let is_in = is_in && lo_x <= 0.0 && hi_x >= 0.0 && lo_y <= 0.0 && hi_y >= 0.0;
    let dist2 = if is_in { 0.0 } else { dist2 };
    // Statuses: touching at rest is a hit at t = 0 only when moving in.
    let is_hit_at_zero = dist2 == rr && t_win == 0.0;
    let is_inside = dist2 < rr || (dist2 == rr && !is_hit_at_zero);
    if !fits || !(is_inside || t_win <= 1.0) {
        return Sweep {
            status: SweepStatus::Miss,
            t: 1.0,
            normal: Vec2::ZERO,
            stop: v,
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
    // A disc's normal: from its vertex to the point at contact; when they meet exactly
    // (a zero radius), against the motion.
    let (px, py) = (dx_win + t * v.x, dy_win + t * v.y);
    let len = (px * px + py * py).sqrt();
    let speed = aa.sqrt();
    let (cnx, cny) = if len > 0.0 {
        (px / len, py / len)
    } else {
        ((0.0 - v.x) / speed, (0.0 - v.y) / speed)
    };
    let (nx, ny) = if on_disc {
        (cnx, cny)
    } else {
        (nx_win, ny_win)
    };
    let nudge = (((mag + extent) + r) + (v.x.abs() + v.y.abs())) * NUDGE;
    Sweep {
        status: SweepStatus::Hit,
        t,
        normal: Vec2::new(nx, ny),
        stop: Vec2::new(t * v.x + nx * nudge, t * v.y + ny * nudge),
    }
}
