//! The capsule sweeps: every f32x8 kernel against its scalar reference, the batches, and
//! the scalar kernels against the `f64` oracle.
//!
//! One input picks a capsule kernel and decodes eight lanes of its inputs, biased toward
//! the edge cases (NaN, `±∞`, `-0.0`, denormals, huge values, zero radii, capsules whose
//! ends are equal or differ on one axis only, parallel and touching shapes, boxes at
//! exact and arbitrary angles). The check then requires:
//! - the wide kernel at every [`SimdLevel`] the CPU has gives every lane the scalar
//!   kernel's answer, bit for bit (any NaN matches any NaN), and the levels agree bit for
//!   bit, NaN payloads included;
//! - [`NarrowPhase`] at every level, on one thread and in a two-thread pool, from columns
//!   and from records, returns exactly the pairs whose scalar answer is not a miss, in
//!   pair order, with the scalar answer's bits; the eight lane pairs first, then up to
//!   15 more decoded from the input;
//! - on every lane whose inputs are valid and below `10⁷` in magnitude, the scalar
//!   answer passes the `f64` oracle's judge ([`capsule_oracle`](super::capsule_oracle)):
//!   overlapping means in contact at `t = 0`; a hit at `t` means no contact before `t`
//!   and contact at `t`; a miss means no contact during the frame, so nothing tunnels.
//!   The oracle measures the distance between the shapes in `f64`, with a tolerance of
//!   `4·10⁻⁶` of the largest magnitude of the lane, plus `10⁻⁹`: below about `3.3·10⁻¹⁰`
//!   the kernels' squares underflow (see [`Circle`]'s precision).
//!
//! # Input layout
//! ```text
//!  byte 0     kernel (mod 4): sweep_capsule_aabb, sweep_capsule_circle,
//!             sweep_capsule_obb2, sweep_capsule_capsule
//!  byte 1     scale of the grid values
//!  then       per lane: the capsule, its motion, the other shape, its motion
//!  then       extra pairs: a count byte (mod 16), two index bytes each
//! ```

use super::bytes::Bytes;
use super::capsule_oracle::{self as oracle, Obb, P, Status};
use crate::lanes::{F32W, LANES, SimdLevel, SimdTask, dispatch};
use crate::narrow::columns::{AabbSoa, CapsuleSoa, CircleSoa, MotionSoa, Obb2Soa};
use crate::narrow::wide::{self, AabbW, CapsuleW, CircleW, Obb2W, Vec2W};
use crate::narrow::{NarrowConfig, NarrowPhase, PairSweep, Sweep, SweepStatus, scalar};
use crate::{Aabb, Capsule, Circle, Error, Obb2, Pair};
use glam::Vec2;
use std::sync::OnceLock;

/// The capsule kernels, by the input's first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// `sweep_capsule_aabb`.
    Aabb,
    /// `sweep_capsule_circle`.
    Circle,
    /// `sweep_capsule_obb2`.
    Obb2,
    /// `sweep_capsule_capsule`.
    Capsule,
}

/// Eight lanes of one kernel's inputs: the capsules and their motions, and the other
/// shapes (only the kernel's kind is filled) and theirs.
#[derive(Debug, Clone)]
struct Lanes {
    kernel: Kernel,
    a: [Capsule; LANES],
    ma: [Vec2; LANES],
    aabb: [Aabb; LANES],
    circle: [Circle; LANES],
    obb2: [Obb2; LANES],
    capsule: [Capsule; LANES],
    mb: [Vec2; LANES],
}

/// An `f32` biased toward the edge cases, scaled when it is a plain grid value.
fn value(r: &mut Bytes<'_>, scale: f32) -> f32 {
    let v = r.f32_edge();
    if v.fract() == 0.0 || (v * 4.0).fract() == 0.0 {
        v * scale
    } else {
        v
    }
}

fn vec2(r: &mut Bytes<'_>, scale: f32) -> Vec2 {
    Vec2::new(value(r, scale), value(r, scale))
}

/// A capsule: ends equal (a disc), differing on one axis (parallel to it), or any; a
/// zero radius now and then.
fn capsule(r: &mut Bytes<'_>, scale: f32) -> Capsule {
    let a = vec2(r, scale);
    let b = match r.below(5) {
        0 => a,
        1 => Vec2::new(value(r, scale), a.y),
        2 => Vec2::new(a.x, value(r, scale)),
        _ => vec2(r, scale),
    };
    let radius = if r.below(4) == 0 {
        0.0
    } else {
        value(r, scale)
    };
    Capsule::new(a, b, radius)
}

/// Now and then a capsule parallel to `a` (its segment moved), else any.
fn capsule_near(r: &mut Bytes<'_>, scale: f32, a: &Capsule) -> Capsule {
    if r.below(3) == 0 {
        let d = vec2(r, scale);
        Capsule::new(a.a + d, a.b + d, value(r, scale))
    } else {
        capsule(r, scale)
    }
}

/// A 2D oriented box: a quarter-turn axis, a turn by a multiple of 1/256 of a full
/// turn, or a raw (possibly non-unit, NaN) axis.
fn obb2(r: &mut Bytes<'_>, scale: f32) -> Obb2 {
    let center = vec2(r, scale);
    let half = vec2(r, scale);
    let axis = match r.below(4) {
        0 => [Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::NEG_Y][r.below(4)],
        1 => r.vec2_edge(),
        _ => {
            let turn = f32::from(r.u8()) / 256.0 * core::f32::consts::TAU;
            Vec2::new(turn.cos(), turn.sin())
        }
    };
    Obb2::new(center, axis, half)
}

fn decode(r: &mut Bytes<'_>) -> Lanes {
    let kernel = [Kernel::Aabb, Kernel::Circle, Kernel::Obb2, Kernel::Capsule][r.below(4)];
    let scale = r.scale();
    let mut l = Lanes {
        kernel,
        a: [Capsule::default(); LANES],
        ma: [Vec2::ZERO; LANES],
        aabb: [Aabb::default(); LANES],
        circle: [Circle::default(); LANES],
        obb2: [Obb2::default(); LANES],
        capsule: [Capsule::default(); LANES],
        mb: [Vec2::ZERO; LANES],
    };
    for i in 0..LANES {
        l.a[i] = capsule(r, scale);
        l.ma[i] = vec2(r, scale);
        match kernel {
            Kernel::Aabb => {
                let dirty = r.below(8) == 0;
                l.aabb[i] = r.aabb(None, scale, dirty);
            }
            Kernel::Circle => l.circle[i] = Circle::new(vec2(r, scale), value(r, scale)),
            Kernel::Obb2 => l.obb2[i] = obb2(r, scale),
            Kernel::Capsule => l.capsule[i] = capsule_near(r, scale, &l.a[i]),
        }
        // A still other shape now and then (zero motion on both axes).
        l.mb[i] = if r.below(3) == 0 {
            Vec2::ZERO
        } else {
            vec2(r, scale)
        };
    }
    l
}

/// The scalar reference on lane `i` against other shape `j`.
fn reference(l: &Lanes, i: usize, j: usize) -> Sweep {
    match l.kernel {
        Kernel::Aabb => scalar::sweep_capsule_aabb(&l.a[i], l.ma[i], &l.aabb[j], l.mb[j]),
        Kernel::Circle => scalar::sweep_capsule_circle(&l.a[i], l.ma[i], &l.circle[j], l.mb[j]),
        Kernel::Obb2 => scalar::sweep_capsule_obb2(&l.a[i], l.ma[i], &l.obb2[j], l.mb[j]),
        Kernel::Capsule => scalar::sweep_capsule_capsule(&l.a[i], l.ma[i], &l.capsule[j], l.mb[j]),
    }
}

/// The wide kernel on the eight lanes, for [`dispatch`].
struct WideTask<'a>(&'a Lanes);

impl SimdTask for WideTask<'_> {
    const AVX512: bool = true;
    type Output = [Sweep; LANES];
    #[inline(always)]
    fn run<W: F32W>(self) -> [Sweep; LANES] {
        let l = self.0;
        let a = CapsuleW::<W>::from_array(&l.a);
        let (ma, mb) = (Vec2W::from_array(&l.ma), Vec2W::from_array(&l.mb));
        let s = match l.kernel {
            Kernel::Aabb => wide::sweep_capsule_aabb(&a, &ma, &AabbW::from_array(&l.aabb), &mb),
            Kernel::Circle => {
                wide::sweep_capsule_circle(&a, &ma, &CircleW::from_array(&l.circle), &mb)
            }
            Kernel::Obb2 => wide::sweep_capsule_obb2(&a, &ma, &Obb2W::from_array(&l.obb2), &mb),
            Kernel::Capsule => {
                wide::sweep_capsule_capsule(&a, &ma, &CapsuleW::from_array(&l.capsule), &mb)
            }
        };
        s.to_array()
    }
}

/// Same bits, or both NaN (`strict`: same bits, NaN payloads included).
fn same_f32(a: f32, b: f32, strict: bool) -> bool {
    a.to_bits() == b.to_bits() || (!strict && a.is_nan() && b.is_nan())
}

fn same_sweep(a: &Sweep, b: &Sweep, strict: bool) -> bool {
    a.status == b.status
        && same_f32(a.t, b.t, strict)
        && same_f32(a.normal.x, b.normal.x, strict)
        && same_f32(a.normal.y, b.normal.y, strict)
        && same_f32(a.stop.x, b.stop.x, strict)
        && same_f32(a.stop.y, b.stop.y, strict)
}

/// The batch call's hits on `pairs`: capsules first, then the other shapes (for two
/// capsule inputs, one input of the sixteen: the lanes' `a`s, then their `b`s).
fn batch(
    narrow: &mut NarrowPhase,
    l: &Lanes,
    pairs: &[Pair],
    records: bool,
) -> Result<Vec<PairSweep>, Error> {
    let (a, ma) = (&l.a[..], &l.ma[..]);
    let (ca, cma) = (CapsuleSoa::from(a), MotionSoa::from(ma));
    let mbs = MotionSoa::from(&l.mb[..]);
    let hits = match (l.kernel, records) {
        (Kernel::Aabb, true) => narrow.sweep_capsule_aabb(a, ma, &l.aabb[..], &l.mb[..], pairs)?,
        (Kernel::Aabb, false) => {
            let b = AabbSoa::from(&l.aabb[..]);
            narrow.sweep_capsule_aabb(
                ca.columns(),
                cma.columns(),
                b.columns(),
                mbs.columns(),
                pairs,
            )?
        }
        (Kernel::Circle, true) => {
            narrow.sweep_capsule_circle(a, ma, &l.circle[..], &l.mb[..], pairs)?
        }
        (Kernel::Circle, false) => {
            let b = CircleSoa::from(&l.circle[..]);
            narrow.sweep_capsule_circle(
                ca.columns(),
                cma.columns(),
                b.columns(),
                mbs.columns(),
                pairs,
            )?
        }
        (Kernel::Obb2, true) => narrow.sweep_capsule_obb2(a, ma, &l.obb2[..], &l.mb[..], pairs)?,
        (Kernel::Obb2, false) => {
            let b = Obb2Soa::from(&l.obb2[..]);
            narrow.sweep_capsule_obb2(
                ca.columns(),
                cma.columns(),
                b.columns(),
                mbs.columns(),
                pairs,
            )?
        }
        (Kernel::Capsule, _) => {
            let all: Vec<Capsule> = l.a.iter().chain(&l.capsule).copied().collect();
            let moves: Vec<Vec2> = l.ma.iter().chain(&l.mb).copied().collect();
            if records {
                narrow.sweep_capsule_capsule(&all[..], &moves[..], pairs)?
            } else {
                let (c, m) = (CapsuleSoa::from(&all[..]), MotionSoa::from(&moves[..]));
                narrow.sweep_capsule_capsule(c.columns(), m.columns(), pairs)?
            }
        }
    };
    Ok(hits.to_vec())
}

/// The scalar answer for a pair of the batch's inputs.
fn reference_pair(l: &Lanes, p: Pair) -> Sweep {
    let (i, j) = (p.a as usize, p.b as usize);
    if l.kernel != Kernel::Capsule {
        return reference(l, i, j);
    }
    let all: Vec<Capsule> = l.a.iter().chain(&l.capsule).copied().collect();
    let moves: Vec<Vec2> = l.ma.iter().chain(&l.mb).copied().collect();
    scalar::sweep_capsule_capsule(&all[i], moves[i], &all[j], moves[j])
}

fn pool() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a small rayon pool")
    })
}

fn p(v: Vec2) -> P {
    [f64::from(v.x), f64::from(v.y)]
}

/// The `f64` distance between lane `i`'s shapes at time `t`, and the contact distance;
/// `None` when the lane is outside the oracle's range (bad input, or magnitudes beyond
/// `10⁷`), with the magnitude that sizes the tolerance.
#[allow(clippy::type_complexity)]
fn oracle_lane(l: &Lanes, i: usize) -> Option<(Box<dyn Fn(f64) -> f64>, f64, f64)> {
    let a = l.a[i];
    let (va, vb) = (p(l.ma[i]), p(l.mb[i]));
    let mut vals = vec![a.a.x, a.a.y, a.b.x, a.b.y, a.radius];
    vals.extend([l.ma[i].x, l.ma[i].y, l.mb[i].x, l.mb[i].y]);
    match l.kernel {
        Kernel::Aabb => {
            let b = l.aabb[i];
            vals.extend([b.min.x, b.min.y, b.max.x, b.max.y]);
            if !(b.min.x <= b.max.x && b.min.y <= b.max.y) {
                return None;
            }
        }
        Kernel::Circle => {
            let b = l.circle[i];
            vals.extend([b.center.x, b.center.y, b.radius]);
            if b.radius < 0.0 {
                return None;
            }
        }
        Kernel::Obb2 => {
            let b = l.obb2[i];
            vals.extend([b.center.x, b.center.y, b.half_extents.x, b.half_extents.y]);
            let unit = f64::from(b.axis.x).hypot(f64::from(b.axis.y));
            if !(b.half_extents.min_element() >= 0.0 && (unit - 1.0).abs() < 1e-6) {
                return None;
            }
        }
        Kernel::Capsule => {
            let b = l.capsule[i];
            vals.extend([b.a.x, b.a.y, b.b.x, b.b.y, b.radius]);
            if b.radius < 0.0 {
                return None;
            }
        }
    }
    let mag = vals.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    if a.radius < 0.0 || !vals.iter().all(|v| v.is_finite()) || mag > 1.0e7 {
        return None;
    }
    let at = |q: P, v: P, t: f64| [q[0] + t * v[0], q[1] + t * v[1]];
    let (a0, a1) = (p(a.a), p(a.b));
    let r = f64::from(a.radius);
    Some(match l.kernel {
        Kernel::Aabb => {
            let (lo, hi) = (p(l.aabb[i].min), p(l.aabb[i].max));
            let dist = move |t: f64| {
                let (s0, s1) = (at(a0, va, t), at(a1, va, t));
                oracle::segment_box(s0, s1, at(lo, vb, t), at(hi, vb, t))
            };
            (Box::new(dist) as Box<dyn Fn(f64) -> f64>, r, f64::from(mag))
        }
        Kernel::Circle => {
            let c = l.circle[i];
            let q = p(c.center);
            let dist =
                move |t: f64| oracle::point_segment(at(q, vb, t), at(a0, va, t), at(a1, va, t));
            (Box::new(dist) as _, r + f64::from(c.radius), f64::from(mag))
        }
        Kernel::Obb2 => {
            let b = l.obb2[i];
            let (c, u, h) = (p(b.center), p(b.axis), p(b.half_extents));
            let dist = move |t: f64| {
                let o = Obb {
                    center: at(c, vb, t),
                    axis: u,
                    half: h,
                };
                oracle::segment_obb(at(a0, va, t), at(a1, va, t), &o)
            };
            (Box::new(dist) as _, r, f64::from(mag))
        }
        Kernel::Capsule => {
            let b = l.capsule[i];
            let (b0, b1) = (p(b.a), p(b.b));
            let dist = move |t: f64| {
                oracle::segment_segment(at(a0, va, t), at(a1, va, t), at(b0, vb, t), at(b1, vb, t))
            };
            (Box::new(dist) as _, r + f64::from(b.radius), f64::from(mag))
        }
    })
}

/// Checks the scalar answer of lane `i` against the `f64` oracle (see the
/// [module docs](self)).
///
/// # Errors
/// Which property failed.
fn check_oracle(l: &Lanes, i: usize, s: &Sweep) -> Result<(), String> {
    let Some((dist, r, mag)) = oracle_lane(l, i) else {
        return Ok(());
    };
    let status = match s.status {
        SweepStatus::Miss => Status::Miss,
        SweepStatus::Hit => Status::Hit,
        SweepStatus::Overlapping => Status::Overlapping,
    };
    oracle::judge(&*dist, r, status, f64::from(s.t), 4.0e-6 * mag + 1.0e-9)
}

/// The wide kernels, the batch API and the `f64` oracle against the scalar kernels on
/// the input decoded from `data` (see the [module docs](self)).
///
/// # Panics
/// When a property is violated.
pub fn capsule_vs_oracle(data: &[u8]) {
    if let Err(e) = capsule_vs_oracle_with(data) {
        panic!("capsule check failed: {e}");
    }
}

/// [`capsule_vs_oracle`], returning the first violated property.
///
/// # Errors
/// A description of the first violated property, with the decoded input.
pub fn capsule_vs_oracle_with(data: &[u8]) -> Result<(), String> {
    let mut r = Bytes::new(data);
    let l = decode(&mut r);
    let ctx = |e: String| format!("{:?}: {e}\nlanes: {l:?}", l.kernel);
    let want: [Sweep; LANES] = core::array::from_fn(|i| reference(&l, i, i));

    // The oracle, lane by lane.
    for (i, s) in want.iter().enumerate() {
        check_oracle(&l, i, s).map_err(|e| ctx(format!("lane {i}: {s:?}: {e}")))?;
    }

    // The wide kernel at every level.
    let mut first: Option<[Sweep; LANES]> = None;
    for &level in SimdLevel::available() {
        if level == SimdLevel::Scalar {
            continue;
        }
        let got = dispatch(level, WideTask(&l));
        for i in 0..LANES {
            if !same_sweep(&got[i], &want[i], false) {
                return Err(ctx(format!(
                    "lane {i} at {level:?}: {:?}, the scalar kernel {:?}",
                    got[i], want[i]
                )));
            }
            if let Some(f) = &first
                && !same_sweep(&got[i], &f[i], true)
            {
                return Err(ctx(format!("lane {i}: {level:?} and Portable differ")));
            }
        }
        first.get_or_insert(got);
    }

    // The batch: the lane pairs first, then the decoded ones, all in range.
    let shared = l.kernel == Kernel::Capsule;
    let n_cols = if shared { 2 * LANES } else { LANES };
    let mut pairs: Vec<Pair> = (0..LANES as u32)
        .map(|i| Pair::new(i, if shared { i + LANES as u32 } else { i }))
        .collect();
    for _ in 0..r.below(16) {
        pairs.push(Pair::new(r.below(n_cols) as u32, r.below(n_cols) as u32));
    }
    let expect: Vec<PairSweep> = pairs
        .iter()
        .filter_map(|&p| {
            let s = reference_pair(&l, p);
            (s.status != SweepStatus::Miss).then_some(PairSweep { pair: p, sweep: s })
        })
        .collect();
    for &level in SimdLevel::available() {
        for (parallel, records) in [(false, false), (true, false), (false, true), (true, true)] {
            let mut narrow = NarrowPhase::with_config(NarrowConfig {
                simd: level,
                parallel,
                parallel_threshold: 0,
            });
            let got = if parallel {
                pool().install(|| batch(&mut narrow, &l, &pairs, records))
            } else {
                batch(&mut narrow, &l, &pairs, records)
            }
            .map_err(|e| ctx(format!("batch at {level:?} refused: {e:?}")))?;
            let same = got.len() == expect.len()
                && got
                    .iter()
                    .zip(&expect)
                    .all(|(g, w)| g.pair == w.pair && same_sweep(&g.sweep, &w.sweep, false));
            if !same {
                return Err(ctx(format!(
                    "batch at {level:?} (parallel {parallel}, records {records}): {got:?}, \
                     want {expect:?}"
                )));
            }
        }
    }
    Ok(())
}
