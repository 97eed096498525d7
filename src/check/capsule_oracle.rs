//! The f64 oracle of the capsule sweeps: exact distances between the shapes, in `f64`,
//! with no Minkowski construction (so it shares nothing with the kernels), and the
//! first-contact judge. Plain `[f64; 2]` points, so that `tests/narrow_sweep_capsule.rs`
//! includes this file as it is.

#![allow(dead_code)]

/// A point or vector.
pub type P = [f64; 2];

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1]]
}

fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

fn cross(a: P, b: P) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

/// The point of the segment `[a, b]` closest to `p`.
pub fn closest_on_segment(p: P, a: P, b: P) -> P {
    let e = sub(b, a);
    let ee = dot(e, e);
    let u = if ee > 0.0 {
        (dot(sub(p, a), e) / ee).clamp(0.0, 1.0)
    } else {
        0.0
    };
    [a[0] + u * e[0], a[1] + u * e[1]]
}

/// Distance from `p` to the segment `[a, b]`.
pub fn point_segment(p: P, a: P, b: P) -> f64 {
    let q = closest_on_segment(p, a, b);
    (p[0] - q[0]).hypot(p[1] - q[1])
}

/// Whether the segments `[a0, a1]` and `[b0, b1]` meet (closed).
fn segments_meet(a0: P, a1: P, b0: P, b1: P) -> bool {
    let d1 = cross(sub(a1, a0), sub(b0, a0));
    let d2 = cross(sub(a1, a0), sub(b1, a0));
    let d3 = cross(sub(b1, b0), sub(a0, b0));
    let d4 = cross(sub(b1, b0), sub(a1, b0));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    // Touching or collinear: an end on the other segment.
    point_segment(b0, a0, a1) == 0.0
        || point_segment(b1, a0, a1) == 0.0
        || point_segment(a0, b0, b1) == 0.0
        || point_segment(a1, b0, b1) == 0.0
}

/// Distance between the segments `[a0, a1]` and `[b0, b1]`.
pub fn segment_segment(a0: P, a1: P, b0: P, b1: P) -> f64 {
    if segments_meet(a0, a1, b0, b1) {
        return 0.0;
    }
    point_segment(a0, b0, b1)
        .min(point_segment(a1, b0, b1))
        .min(point_segment(b0, a0, a1))
        .min(point_segment(b1, a0, a1))
}

/// Distance from `p` to the box `[lo, hi]` (zero inside).
pub fn point_box(p: P, lo: P, hi: P) -> f64 {
    let q = [p[0].clamp(lo[0], hi[0]), p[1].clamp(lo[1], hi[1])];
    (p[0] - q[0]).hypot(p[1] - q[1])
}

/// Whether the segment `[a, b]` meets the box `[lo, hi]` (Liang–Barsky, closed).
fn segment_meets_box(a: P, b: P, lo: P, hi: P) -> bool {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for k in 0..2 {
        let d = b[k] - a[k];
        if d == 0.0 {
            if a[k] < lo[k] || a[k] > hi[k] {
                return false;
            }
        } else {
            let (u, w) = ((lo[k] - a[k]) / d, (hi[k] - a[k]) / d);
            t0 = t0.max(u.min(w));
            t1 = t1.min(u.max(w));
        }
    }
    t0 <= t1
}

/// Distance between the segment `[a, b]` and the box `[lo, hi]`.
pub fn segment_box(a: P, b: P, lo: P, hi: P) -> f64 {
    if segment_meets_box(a, b, lo, hi) {
        return 0.0;
    }
    let corners = [lo, [hi[0], lo[1]], hi, [lo[0], hi[1]]];
    let mut d = point_box(a, lo, hi).min(point_box(b, lo, hi));
    for k in corners {
        d = d.min(point_segment(k, a, b));
    }
    d
}

/// An oriented box: center, unit axis, half extents.
#[derive(Debug, Clone, Copy)]
pub struct Obb {
    pub center: P,
    pub axis: P,
    pub half: P,
}

impl Obb {
    /// `p` in the box's frame.
    pub fn local(&self, p: P) -> P {
        let d = sub(p, self.center);
        let (u, v) = (self.axis, [-self.axis[1], self.axis[0]]);
        [dot(d, u), dot(d, v)]
    }
}

/// Distance between the segment `[a, b]` and the oriented box (in its frame).
pub fn segment_obb(a: P, b: P, o: &Obb) -> f64 {
    let lo = [-o.half[0], -o.half[1]];
    segment_box(o.local(a), o.local(b), lo, o.half)
}

/// The least value of a convex function of `t` over `[lo, hi]`: golden-section search
/// after a coarse scan (the scan keeps a flat or kinked function honest).
pub fn convex_min(f: &dyn Fn(f64) -> f64, lo: f64, hi: f64) -> f64 {
    if hi <= lo {
        return f(lo);
    }
    let n = 32;
    let at = |i: usize| lo + (hi - lo) * i as f64 / n as f64;
    let k = (0..=n)
        .min_by(|&i, &j| f(at(i)).total_cmp(&f(at(j))))
        .unwrap_or(0);
    let (mut a, mut b) = (at(k.saturating_sub(1)), at((k + 1).min(n)));
    for _ in 0..80 {
        let m1 = a + (b - a) * 0.381_966;
        let m2 = b - (b - a) * 0.381_966;
        if f(m1) <= f(m2) {
            b = m2;
        } else {
            a = m1;
        }
    }
    f(a).min(f(lo)).min(f(hi)).min(f(at(k)))
}

/// What a kernel answered, in the oracle's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Miss,
    Hit,
    Overlapping,
}

/// Judges an answer against the distance between the shapes at time `t` of the frame
/// (`dist`, convex in `t`) and the contact distance `r`, within `tol`:
/// - overlapping: in contact at `t = 0`;
/// - a hit at `t`: not overlapping before `t` (no earlier contact), in contact at `t`;
/// - a miss: never in contact during the frame (nothing tunnels).
///
/// # Errors
/// Which property failed, and the distances that show it.
pub fn judge(
    dist: &dyn Fn(f64) -> f64,
    r: f64,
    status: Status,
    t: f64,
    tol: f64,
) -> Result<(), String> {
    let d0 = dist(0.0);
    match status {
        Status::Overlapping => {
            if d0 > r + tol {
                return Err(format!("overlapping, but apart at t = 0: {d0} > {r}"));
            }
        }
        Status::Miss => {
            let m = convex_min(dist, 0.0, 1.0);
            if m < r - tol {
                return Err(format!(
                    "a miss, but the shapes come within {m} < {r} (tunnelled)"
                ));
            }
        }
        Status::Hit => {
            if !(0.0..=1.0).contains(&t) {
                return Err(format!("a hit at t = {t}, outside the frame"));
            }
            let m = convex_min(dist, 0.0, t);
            if m < r - tol {
                return Err(format!("a hit at {t}, but in contact earlier: {m} < {r}"));
            }
            let dt = dist(t);
            if dt > r + tol {
                return Err(format!("a hit at {t}, but apart then: {dt} > {r}"));
            }
        }
    }
    Ok(())
}
