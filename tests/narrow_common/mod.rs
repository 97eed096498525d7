//! Shared helpers of the `narrow_*` tests: generators biased toward special values,
//! bit comparisons, and the f64 oracles.

#![allow(dead_code)]

use glam::{Vec2, Vec3};
use hantei::narrow::{Mtv2, Mtv3, NarrowConfig, NarrowPhase, Sweep, SweepStatus};
use hantei::rng::Rng;
use hantei::{Aabb, Obb2, Obb3, SimdLevel};

/// Values that break careless kernels.
pub const SPECIAL: [f32; 12] = [
    0.0,
    -0.0,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MIN_POSITIVE,
    1.0e-40,
    f32::MAX,
    f32::MIN,
    1.0e30,
    -1.0e30,
    3.0e38,
];

/// Any special value.
pub fn special(rng: &mut Rng) -> f32 {
    SPECIAL[rng.below(SPECIAL.len() as u32) as usize]
}

/// A multiple of 1/8 in `[-r, r]`: sums and differences of these are exact in f32.
pub fn grid(rng: &mut Rng, r: u32) -> f32 {
    (rng.below(16 * r + 1) as f32 - 8.0 * r as f32) / 8.0
}

/// Same bits (any NaN equals any NaN).
pub fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// Distance in units in the last place between two finite non-negative floats.
pub fn ulps(a: f32, b: f32) -> u32 {
    a.to_bits().abs_diff(b.to_bits())
}

pub fn same_sweep(a: &Sweep, b: &Sweep) -> bool {
    a.status == b.status
        && same(a.t, b.t)
        && same(a.normal.x, b.normal.x)
        && same(a.normal.y, b.normal.y)
        && same(a.stop.x, b.stop.x)
        && same(a.stop.y, b.stop.y)
}

pub fn same_mtv2(a: &Mtv2, b: &Mtv2) -> bool {
    a.axis == b.axis
        && same(a.depth, b.depth)
        && same(a.normal.x, b.normal.x)
        && same(a.normal.y, b.normal.y)
}

pub fn same_mtv3(a: &Mtv3, b: &Mtv3) -> bool {
    a.axis == b.axis && same(a.depth, b.depth) && (0..3).all(|k| same(a.normal[k], b.normal[k]))
}

/// A narrow phase at `level`, threaded or not, with no threshold.
pub fn narrow(level: SimdLevel, parallel: bool) -> NarrowPhase {
    NarrowPhase::with_config(NarrowConfig {
        simd: level,
        parallel,
        parallel_threshold: 0,
    })
}

/// A rayon pool of `threads` threads.
pub fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

// ---------------------------------------------------------------------------------------
// f64 oracles. Inputs are converted exactly; every operation below is done in f64.
// ---------------------------------------------------------------------------------------

/// The f64 answer of a swept test, with how far each decision was from a tie.
#[derive(Debug, Clone, Copy)]
pub struct Sweep64 {
    pub status: SweepStatus,
    /// Entry time (latest axis).
    pub enter: f64,
    /// Per-axis entry times (±∞ for a zero velocity).
    pub enter_x: f64,
    pub enter_y: f64,
    /// The smallest distance between the quantities compared to decide the status.
    pub margin: f64,
    /// Relative velocity.
    pub v: [f64; 2],
}

fn axis64(a0: f64, a1: f64, b0: f64, b1: f64, v: f64) -> (f64, f64) {
    if v == 0.0 {
        if a0 <= b1 && b0 <= a1 {
            (f64::NEG_INFINITY, f64::INFINITY)
        } else {
            (f64::INFINITY, f64::NEG_INFINITY)
        }
    } else if v > 0.0 {
        ((b0 - a1) / v, (b1 - a0) / v)
    } else {
        ((b1 - a0) / v, (b0 - a1) / v)
    }
}

/// Box `[a_min, a_max]` moving by `v` against the still box `b`, in f64.
pub fn sweep64(a_min: Vec2, a_max: Vec2, b: &Aabb, v: [f64; 2]) -> Sweep64 {
    let f = |x: f32| x as f64;
    let (ex, xx) = axis64(f(a_min.x), f(a_max.x), f(b.min.x), f(b.max.x), v[0]);
    let (ey, xy) = axis64(f(a_min.y), f(a_max.y), f(b.min.y), f(b.max.y), v[1]);
    let enter = ex.max(ey);
    let exit = xx.min(xy);
    let contact = enter <= exit && enter <= 1.0 && exit >= 0.0;
    let status = if !contact {
        SweepStatus::Miss
    } else if enter < 0.0 {
        SweepStatus::Overlapping
    } else {
        SweepStatus::Hit
    };
    let finite = |x: f64| if x.is_finite() { x } else { f64::INFINITY };
    // Every comparison that decided the status, as a distance.
    let mut margin = f64::INFINITY;
    for d in [
        finite(exit - enter),
        finite(enter - 1.0),
        finite(exit),
        finite(enter),
        finite(ex - xy),
        finite(ey - xx),
    ] {
        margin = margin.min(d.abs());
    }
    // Static overlap on a still axis is decided by coordinates: their distance counts.
    for (still, a0, a1, b0, b1) in [
        (v[0] == 0.0, a_min.x, a_max.x, b.min.x, b.max.x),
        (v[1] == 0.0, a_min.y, a_max.y, b.min.y, b.max.y),
    ] {
        if still {
            margin = margin.min((f(a0) - f(b1)).abs()).min((f(b0) - f(a1)).abs());
        }
    }
    Sweep64 {
        status,
        enter,
        enter_x: ex,
        enter_y: ey,
        margin,
        v,
    }
}

/// The 2D box's corners in f64, counter-clockwise.
pub fn corners64(b: &Obb2) -> [[f64; 2]; 4] {
    let (c, u, h) = (b.center, b.axis, b.half_extents);
    let (cx, cy, ux, uy, hx, hy) = (
        c.x as f64, c.y as f64, u.x as f64, u.y as f64, h.x as f64, h.y as f64,
    );
    let (vx, vy) = (-uy, ux);
    let p = |sx: f64, sy: f64| {
        [
            cx + sx * hx * ux + sy * hy * vx,
            cy + sx * hx * uy + sy * hy * vy,
        ]
    };
    [p(-1.0, -1.0), p(1.0, -1.0), p(1.0, 1.0), p(-1.0, 1.0)]
}

/// Sutherland–Hodgman: polygon `poly` clipped by the closed half-plane left of edge
/// `p -> q` (counter-clockwise convex clip polygon).
fn clip(poly: &[[f64; 2]], p: [f64; 2], q: [f64; 2]) -> Vec<[f64; 2]> {
    let side = |x: [f64; 2]| (q[0] - p[0]) * (x[1] - p[1]) - (q[1] - p[1]) * (x[0] - p[0]);
    let mut out = Vec::new();
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        let (sa, sb) = (side(a), side(b));
        if sa >= 0.0 {
            out.push(a);
        }
        if (sa >= 0.0) != (sb >= 0.0) {
            let t = sa / (sa - sb);
            out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
        }
    }
    out
}

/// Whether two 2D boxes intersect, by clipping one against the other (no SAT).
pub fn clip_overlap(a: &Obb2, b: &Obb2) -> bool {
    let mut poly = corners64(a).to_vec();
    let cb = corners64(b);
    for i in 0..4 {
        poly = clip(&poly, cb[i], cb[(i + 1) % 4]);
        if poly.is_empty() {
            return false;
        }
    }
    true
}

/// The projection half-width of a 2D box on the unit direction `d` and its center's
/// coordinate, in f64.
fn project2(b: &Obb2, d: [f64; 2]) -> (f64, f64) {
    let (u, h) = (b.axis, b.half_extents);
    let (ux, uy) = (u.x as f64, u.y as f64);
    let r =
        h.x as f64 * (ux * d[0] + uy * d[1]).abs() + h.y as f64 * (-uy * d[0] + ux * d[1]).abs();
    (b.center.x as f64 * d[0] + b.center.y as f64 * d[1], r)
}

/// How far the boxes overlap along the unit direction `d` (negative: a gap).
pub fn overlap_along2(a: &Obb2, b: &Obb2, d: [f64; 2]) -> f64 {
    let (ca, ra) = project2(a, d);
    let (cb, rb) = project2(b, d);
    ra + rb - (cb - ca).abs()
}

/// The f64 separating-axis answer of two 2D boxes: the least overlap over the four axes
/// (negative when separated) and its axis index.
pub fn sat2_64(a: &Obb2, b: &Obb2) -> (f64, usize) {
    let axes = [a.axis, a.axis_y(), b.axis, b.axis_y()];
    let mut best = (f64::INFINITY, 0);
    for (k, l) in axes.iter().enumerate() {
        let n = overlap_along2(a, b, [l.x as f64, l.y as f64]);
        if n < best.0 {
            best = (n, k);
        }
    }
    best
}

fn v3(v: Vec3) -> [f64; 3] {
    [v.x as f64, v.y as f64, v.z as f64]
}

fn dot3(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross3(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// How far two 3D boxes overlap along the unit direction `d`, in f64.
pub fn overlap_along3(a: &Obb3, b: &Obb3, d: [f64; 3]) -> f64 {
    let r = |o: &Obb3| {
        (0..3)
            .map(|i| o.half_extents[i] as f64 * dot3(v3(o.axes[i]), d).abs())
            .sum::<f64>()
    };
    let t = dot3(
        [
            b.center.x as f64 - a.center.x as f64,
            b.center.y as f64 - a.center.y as f64,
            b.center.z as f64 - a.center.z as f64,
        ],
        d,
    );
    r(a) + r(b) - t.abs()
}

/// The f64 separating-axis answer of two 3D boxes over the 15 axes, built in world space
/// and normalised (cross axes shorter than `min_len` skipped): the least overlap
/// (negative when separated), its axis index, and the face-axes-only least overlap.
pub fn sat3_64(a: &Obb3, b: &Obb3, min_len: f64) -> (f64, usize, f64) {
    let mut axes: Vec<(usize, [f64; 3])> = Vec::new();
    for i in 0..3 {
        axes.push((i, v3(a.axes[i])));
    }
    for j in 0..3 {
        axes.push((3 + j, v3(b.axes[j])));
    }
    for i in 0..3 {
        for j in 0..3 {
            let c = cross3(v3(a.axes[i]), v3(b.axes[j]));
            let len = dot3(c, c).sqrt();
            if len >= min_len {
                axes.push((6 + 3 * i + j, [c[0] / len, c[1] / len, c[2] / len]));
            }
        }
    }
    let mut best = (f64::INFINITY, 0);
    let mut faces = f64::INFINITY;
    for (k, d) in axes {
        let n = overlap_along3(a, b, d);
        if k < 6 {
            faces = faces.min(n);
        }
        if n < best.0 {
            best = (n, k);
        }
    }
    (best.0, best.1, faces)
}
