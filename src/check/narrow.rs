//! Every f32x8 narrow-phase kernel against its scalar reference, lane by lane.
//!
//! One input picks a kernel and decodes eight lanes of its inputs, biased toward the
//! edge cases (NaN, `±∞`, `-0.0`, denormals, huge values, zero-size and touching
//! shapes, oriented boxes at exact and arbitrary angles, non-unit axes). The check then
//! requires, per the contract of [`crate::narrow`] (ulp bound **0**):
//! - the wide kernel at [`SimdLevel::Portable`], at [`SimdLevel::Avx2`] and at
//!   [`SimdLevel::Avx512`] (where the CPU has them; every kernel compiled for AVX-512
//!   there) gives every lane the scalar kernel's answer: booleans and statuses exactly,
//!   every `f32` with the same bits (any NaN matches any NaN);
//! - Portable, AVX2 and AVX-512 agree bit for bit, NaN payloads included;
//! - [`NarrowPhase`] at every level, on one thread and in a two-thread pool, returns
//!   exactly the pairs whose scalar answer is a hit, in pair order, with the scalar
//!   answer's bits; the eight lane pairs come first, then up to 15 more decoded from the
//!   input (repeats allowed, now and then one past the end or at the index limit:
//!   `2^31 - 1`, `2^31`, `u32::MAX`); an index out of range is the same
//!   [`Error::PairOutOfRange`] at every level and configuration;
//! - oriented boxes built at extreme scales (a 2D axis through [`Obb2::try_new`], a 3D
//!   rotation through [`Obb3::from_rotation`], scaled by up to `3e38` or down to a
//!   subnormal) come out normalised, as at scale 1.
//!
//! # Input layout
//! ```text
//!  byte 0     kernel (mod 12): overlap_aabb_aabb, overlap_circle_circle,
//!             overlap_aabb_circle, sweep_aabb_aabb, cast_point_aabb,
//!             overlap_obb2_obb2, overlap_obb3_obb3, sweep_circle_circle,
//!             sweep_obb2_obb2, sweep_aabb_obb2, sweep_aabb_circle, sweep_circle_obb2
//!  byte 1     scale of the grid values
//!  then       per lane: the `a` shape, the `b` shape (and for sweeps both motions)
//!  then       extra pairs: a count byte (mod 16), two index bytes each
//! ```

use super::bytes::Bytes;
use crate::lanes::{F32W, LANES, MaskW, SimdLevel, SimdTask, dispatch};
use crate::narrow::columns::{AabbSoa, CircleSoa, MotionSoa, Obb2Soa, Obb3Soa, RaySoa};
use crate::narrow::wide::{self, AabbW, CircleW, Obb2W, Obb3W, RayW, Vec2W};
use crate::narrow::{Mtv2, Mtv3, NarrowConfig, NarrowPhase, PairSweep, Sweep, SweepStatus, scalar};
use crate::{Aabb, Circle, Error, Obb2, Obb3, Pair, Ray};
use glam::{Quat, Vec2, Vec3};
use std::sync::OnceLock;

/// The kernels, by the input's first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// `overlap_aabb_aabb`.
    AabbAabb,
    /// `overlap_circle_circle`.
    CircleCircle,
    /// `overlap_aabb_circle`.
    AabbCircle,
    /// `sweep_aabb_aabb`.
    SweepAabbAabb,
    /// `cast_point_aabb`.
    CastPointAabb,
    /// `overlap_obb2_obb2`.
    Obb2Obb2,
    /// `overlap_obb3_obb3`.
    Obb3Obb3,
    /// `sweep_circle_circle`.
    SweepCircleCircle,
    /// `sweep_obb2_obb2`.
    SweepObb2Obb2,
    /// `sweep_aabb_obb2`.
    SweepAabbObb2,
    /// `sweep_aabb_circle`.
    SweepAabbCircle,
    /// `sweep_circle_obb2`.
    SweepCircleObb2,
}

const KERNELS: [Kernel; 12] = [
    Kernel::AabbAabb,
    Kernel::CircleCircle,
    Kernel::AabbCircle,
    Kernel::SweepAabbAabb,
    Kernel::CastPointAabb,
    Kernel::Obb2Obb2,
    Kernel::Obb3Obb3,
    Kernel::SweepCircleCircle,
    Kernel::SweepObb2Obb2,
    Kernel::SweepAabbObb2,
    Kernel::SweepAabbCircle,
    Kernel::SweepCircleObb2,
];

/// One answer per lane (or per pair), of whichever type the kernel answers.
#[derive(Debug, Clone, PartialEq)]
pub enum Answers {
    /// Overlap tests.
    Overlap(Vec<bool>),
    /// Swept tests.
    Sweep(Vec<Sweep>),
    /// 2D separating-axis tests.
    Mtv2(Vec<Option<Mtv2>>),
    /// 3D separating-axis tests.
    Mtv3(Vec<Option<Mtv3>>),
}

/// Which answers a [`Tamper`] hook sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The scalar reference answers of the eight lanes (before anything is compared).
    Reference,
    /// The wide kernel's answers at this level.
    Lanes(SimdLevel),
}

/// A hook that may change answers before they are checked: the identity in
/// [`lanes_vs_scalar`]; tests plant bugs with it to show that the check catches them.
pub type Tamper<'t> = &'t dyn Fn(Stage, &mut Answers);

/// Same bits, or both NaN (`strict`: same bits, NaN payloads included).
fn same_f32(a: f32, b: f32, strict: bool) -> bool {
    a.to_bits() == b.to_bits() || (!strict && a.is_nan() && b.is_nan())
}

fn same_sweep(a: &Sweep, b: &Sweep, strict: bool) -> bool {
    a.status == b.status
        && [a.t, a.normal.x, a.normal.y, a.stop.x, a.stop.y]
            .iter()
            .zip([b.t, b.normal.x, b.normal.y, b.stop.x, b.stop.y])
            .all(|(x, y)| same_f32(*x, y, strict))
}

fn same_mtv2(a: &Option<Mtv2>, b: &Option<Mtv2>, strict: bool) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.axis == b.axis
                && same_f32(a.depth, b.depth, strict)
                && same_f32(a.normal.x, b.normal.x, strict)
                && same_f32(a.normal.y, b.normal.y, strict)
        }
        _ => false,
    }
}

fn same_mtv3(a: &Option<Mtv3>, b: &Option<Mtv3>, strict: bool) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.axis == b.axis
                && same_f32(a.depth, b.depth, strict)
                && (0..3).all(|k| same_f32(a.normal[k], b.normal[k], strict))
        }
        _ => false,
    }
}

impl Answers {
    fn len(&self) -> usize {
        match self {
            Answers::Overlap(v) => v.len(),
            Answers::Sweep(v) => v.len(),
            Answers::Mtv2(v) => v.len(),
            Answers::Mtv3(v) => v.len(),
        }
    }

    /// The first index where the two differ.
    fn first_difference(&self, other: &Answers, strict: bool) -> Option<usize> {
        if self.len() != other.len() {
            return Some(self.len().min(other.len()));
        }
        let same = |i: usize| match (self, other) {
            (Answers::Overlap(a), Answers::Overlap(b)) => a[i] == b[i],
            (Answers::Sweep(a), Answers::Sweep(b)) => same_sweep(&a[i], &b[i], strict),
            (Answers::Mtv2(a), Answers::Mtv2(b)) => same_mtv2(&a[i], &b[i], strict),
            (Answers::Mtv3(a), Answers::Mtv3(b)) => same_mtv3(&a[i], &b[i], strict),
            _ => false,
        };
        (0..self.len()).find(|&i| !same(i))
    }

    /// Whether answer `i` is a hit (what a batch call keeps).
    fn is_hit(&self, i: usize) -> bool {
        match self {
            Answers::Overlap(v) => v[i],
            Answers::Sweep(v) => v[i].status != SweepStatus::Miss,
            Answers::Mtv2(v) => v[i].is_some(),
            Answers::Mtv3(v) => v[i].is_some(),
        }
    }

    /// Answer `i` of `self` against the batch hit `hit` of `batch` (same variant).
    fn same_at(&self, i: usize, batch: &Answers, hit: usize) -> bool {
        match (self, batch) {
            (Answers::Overlap(a), Answers::Overlap(b)) => a[i] == b[hit],
            (Answers::Sweep(a), Answers::Sweep(b)) => same_sweep(&a[i], &b[hit], false),
            (Answers::Mtv2(a), Answers::Mtv2(b)) => same_mtv2(&a[i], &b[hit], false),
            (Answers::Mtv3(a), Answers::Mtv3(b)) => same_mtv3(&a[i], &b[hit], false),
            _ => false,
        }
    }
}

/// Discs, their motions, oriented boxes and theirs (`sweep_circle_obb2`'s lanes).
type CircleObb2Lanes = ([Circle; LANES], [Vec2; LANES], [Obb2; LANES], [Vec2; LANES]);

/// Eight lanes of one kernel's inputs, and (for the batch call) its columns.
#[derive(Debug, Clone)]
enum Lanes {
    AabbAabb([Aabb; LANES], [Aabb; LANES]),
    CircleCircle([Circle; LANES], [Circle; LANES]),
    AabbCircle([Aabb; LANES], [Circle; LANES]),
    Sweep([Aabb; LANES], [Vec2; LANES], [Aabb; LANES], [Vec2; LANES]),
    Cast([Ray; LANES], [Aabb; LANES]),
    Obb2([Obb2; LANES], [Obb2; LANES]),
    Obb3(Box<([Obb3; LANES], [Obb3; LANES])>),
    SweepCircle(
        [Circle; LANES],
        [Vec2; LANES],
        [Circle; LANES],
        [Vec2; LANES],
    ),
    SweepObb2([Obb2; LANES], [Vec2; LANES], [Obb2; LANES], [Vec2; LANES]),
    SweepAabbObb2([Aabb; LANES], [Vec2; LANES], [Obb2; LANES], [Vec2; LANES]),
    SweepAabbCircle([Aabb; LANES], [Vec2; LANES], [Circle; LANES], [Vec2; LANES]),
    SweepCircleObb2(Box<CircleObb2Lanes>),
}

/// Pair indices at the index limit, drawn after the in-range ones and one past the end.
const FAR_INDICES: [u32; 3] = [i32::MAX as u32, 1 << 31, u32::MAX];

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

fn vec3(r: &mut Bytes<'_>, scale: f32) -> Vec3 {
    Vec3::new(value(r, scale), value(r, scale), value(r, scale))
}

fn circle(r: &mut Bytes<'_>, scale: f32) -> Circle {
    Circle::new(vec2(r, scale), value(r, scale))
}

/// A 2D oriented box: an exact axis-aligned or right-angle orientation, a turn by a
/// multiple of 1/256 of a full turn, or a raw (possibly non-unit, NaN) axis.
fn obb2(r: &mut Bytes<'_>, scale: f32) -> Obb2 {
    let center = vec2(r, scale);
    let half = vec2(r, scale);
    let mode = r.u8();
    let axis = match mode % 4 {
        0 => [Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::NEG_Y][usize::from(mode >> 2) % 4],
        1 | 2 => {
            let angle = f32::from(r.u8()) * core::f32::consts::TAU / 256.0;
            Vec2::new(angle.cos(), angle.sin())
        }
        _ => {
            // A raw axis; now and then through the checked constructor at an extreme
            // scale, which must normalise any finite non-zero direction.
            let raw = vec2(r, 1.0);
            let s = EXTREME_SCALES[usize::from(mode >> 2) % EXTREME_SCALES.len()];
            if mode & 0x40 != 0 {
                let scaled = raw * s;
                if let Ok(b) = Obb2::try_new(center, scaled, half) {
                    let unit = b.axis.length();
                    assert!(
                        (unit - 1.0).abs() <= 2.0 * f32::EPSILON,
                        "Obb2::try_new({scaled:?}) gave the axis {:?} of length {unit}",
                        b.axis
                    );
                    return b;
                }
            }
            raw
        }
    };
    Obb2::new(center, axis, half)
}

/// Now and then a quarter-turned box touching the box of center `c` and world half
/// extents `e` on its side (exactly, on the grid), else any box.
fn obb2_near(r: &mut Bytes<'_>, scale: f32, c: Vec2, e: Vec2) -> Obb2 {
    let b = obb2(r, scale);
    let mode = r.u8();
    if mode < 0x60 {
        let axis = [Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::NEG_Y][usize::from(mode & 3)];
        let h = b.half_extents;
        let eb = if axis.x != 0.0 {
            h
        } else {
            Vec2::new(h.y, h.x)
        };
        let side = if mode & 4 == 0 { 1.0 } else { -1.0 };
        let center = if mode & 8 == 0 {
            Vec2::new(c.x + side * (e.x + eb.x), b.center.y)
        } else {
            Vec2::new(b.center.x, c.y + side * (e.y + eb.y))
        };
        Obb2::new(center, axis, h)
    } else {
        b
    }
}

/// A quarter-turned box's world half extents (its own for others: only a hint).
fn world_half(b: &Obb2) -> Vec2 {
    if b.axis.y.abs() == 1.0 {
        Vec2::new(b.half_extents.y, b.half_extents.x)
    } else {
        b.half_extents
    }
}

/// Scales that overflow or underflow a squared length in `f32` (normalising must not).
const EXTREME_SCALES: [f32; 6] = [1.0, 1.0e20, 1.0e-30, 3.0e38, 1.0e-40, -1.0e19];

/// A 3D oriented box: identity, a rotation from byte angles, or raw axes.
fn obb3(r: &mut Bytes<'_>, scale: f32) -> Obb3 {
    let center = vec3(r, scale);
    let half = vec3(r, scale);
    let mode = r.u8();
    match mode % 4 {
        0 => Obb3::new(center, [Vec3::X, Vec3::Y, Vec3::Z], half),
        1 | 2 => {
            let turn = |b: u8| f32::from(b) * core::f32::consts::TAU / 256.0;
            let q = Quat::from_euler(
                glam::EulerRot::XYZ,
                turn(r.u8()),
                turn(r.u8()),
                turn(r.u8()),
            );
            // The rotation at an extreme scale turns the box as the unit one does.
            let s = EXTREME_SCALES[usize::from(mode >> 2) % EXTREME_SCALES.len()];
            let b = Obb3::from_rotation(center, q * s, half);
            let unit = Obb3::from_rotation(center, q, half);
            let close = b
                .axes
                .iter()
                .zip(unit.axes)
                .all(|(a, u)| (*a - u).length() < 1e-4);
            assert!(
                close,
                "Obb3::from_rotation({:?}) gave the axes {:?}, at scale 1 {:?}",
                q * s,
                b.axes,
                unit.axes
            );
            b
        }
        _ => Obb3::new(center, [vec3(r, 1.0), vec3(r, 1.0), vec3(r, 1.0)], half),
    }
}

fn decode(r: &mut Bytes<'_>) -> (Kernel, Lanes) {
    let kernel = KERNELS[r.below(KERNELS.len())];
    let scale = r.scale();
    let mut prev: Option<Aabb> = None;
    let mut aabb = |r: &mut Bytes<'_>| {
        let b = r.aabb(prev, scale, true);
        prev = Some(b);
        b
    };
    let mut a_boxes = [Aabb::default(); LANES];
    let mut b_boxes = [Aabb::default(); LANES];
    let lanes = match kernel {
        Kernel::AabbAabb => {
            for i in 0..LANES {
                a_boxes[i] = aabb(r);
                b_boxes[i] = aabb(r);
            }
            Lanes::AabbAabb(a_boxes, b_boxes)
        }
        Kernel::CircleCircle => Lanes::CircleCircle(
            core::array::from_fn(|_| circle(r, scale)),
            core::array::from_fn(|_| circle(r, scale)),
        ),
        Kernel::AabbCircle => {
            let mut cs = [Circle::default(); LANES];
            for i in 0..LANES {
                a_boxes[i] = aabb(r);
                cs[i] = circle(r, scale);
            }
            Lanes::AabbCircle(a_boxes, cs)
        }
        Kernel::SweepAabbAabb => {
            let (mut ma, mut mb) = ([Vec2::ZERO; LANES], [Vec2::ZERO; LANES]);
            for i in 0..LANES {
                a_boxes[i] = aabb(r);
                b_boxes[i] = aabb(r);
                ma[i] = vec2(r, scale);
                // Sometimes the same motion: no relative motion at all.
                mb[i] = if r.u8() < 0x30 { ma[i] } else { vec2(r, scale) };
            }
            Lanes::Sweep(a_boxes, ma, b_boxes, mb)
        }
        Kernel::SweepCircleCircle => {
            let (mut ca, mut cb) = ([Circle::default(); LANES], [Circle::default(); LANES]);
            let (mut ma, mut mb) = ([Vec2::ZERO; LANES], [Vec2::ZERO; LANES]);
            for i in 0..LANES {
                ca[i] = circle(r, scale);
                // Sometimes touching `a` exactly (a 3-4-5 triangle on the grid).
                cb[i] = if r.u8() < 0x40 {
                    let c = ca[i];
                    Circle::new(
                        c.center + Vec2::new(3.0, 4.0) * scale,
                        5.0 * scale - c.radius,
                    )
                } else {
                    circle(r, scale)
                };
                ma[i] = vec2(r, scale);
                mb[i] = if r.u8() < 0x30 { ma[i] } else { vec2(r, scale) };
            }
            Lanes::SweepCircle(ca, ma, cb, mb)
        }
        Kernel::SweepObb2Obb2 => {
            let (mut oa, mut ob) = ([Obb2::default(); LANES], [Obb2::default(); LANES]);
            let (mut ma, mut mb) = ([Vec2::ZERO; LANES], [Vec2::ZERO; LANES]);
            for i in 0..LANES {
                oa[i] = obb2(r, scale);
                ob[i] = obb2_near(r, scale, oa[i].center, world_half(&oa[i]));
                ma[i] = vec2(r, scale);
                mb[i] = if r.u8() < 0x30 { ma[i] } else { vec2(r, scale) };
            }
            Lanes::SweepObb2(oa, ma, ob, mb)
        }
        Kernel::SweepAabbObb2 => {
            let mut ob = [Obb2::default(); LANES];
            let (mut ma, mut mb) = ([Vec2::ZERO; LANES], [Vec2::ZERO; LANES]);
            for i in 0..LANES {
                let a = aabb(r);
                a_boxes[i] = a;
                ob[i] = obb2_near(r, scale, (a.min + a.max) * 0.5, (a.max - a.min) * 0.5);
                ma[i] = vec2(r, scale);
                mb[i] = if r.u8() < 0x30 { ma[i] } else { vec2(r, scale) };
            }
            Lanes::SweepAabbObb2(a_boxes, ma, ob, mb)
        }
        Kernel::SweepAabbCircle => {
            let mut cs = [Circle::default(); LANES];
            let (mut ma, mut mb) = ([Vec2::ZERO; LANES], [Vec2::ZERO; LANES]);
            for i in 0..LANES {
                a_boxes[i] = aabb(r);
                let b = a_boxes[i];
                // Sometimes touching the box: on a face, or 5 from a corner (3-4-5).
                cs[i] = match r.u8() {
                    0..=0x2f => {
                        let radius = f32::from(r.u8() % 4) * scale;
                        Circle::new(Vec2::new(b.min.x - radius, b.max.y), radius)
                    }
                    0x30..=0x4f => Circle::new(b.max + Vec2::new(3.0, 4.0) * scale, 5.0 * scale),
                    _ => circle(r, scale),
                };
                ma[i] = vec2(r, scale);
                mb[i] = if r.u8() < 0x30 { ma[i] } else { vec2(r, scale) };
            }
            Lanes::SweepAabbCircle(a_boxes, ma, cs, mb)
        }
        Kernel::SweepCircleObb2 => {
            let mut cs = [Circle::default(); LANES];
            let mut bs = [Obb2::default(); LANES];
            let (mut ma, mut mb) = ([Vec2::ZERO; LANES], [Vec2::ZERO; LANES]);
            for i in 0..LANES {
                bs[i] = obb2(r, scale);
                let b = bs[i];
                // Sometimes touching the box's local +y face (exact when axis-aligned).
                cs[i] = if r.u8() < 0x40 {
                    let radius = f32::from(r.u8() % 4) * scale;
                    Circle::new(b.center + b.axis_y() * (b.half_extents.y + radius), radius)
                } else {
                    circle(r, scale)
                };
                ma[i] = vec2(r, scale);
                mb[i] = if r.u8() < 0x30 { ma[i] } else { vec2(r, scale) };
            }
            Lanes::SweepCircleObb2(Box::new((cs, ma, bs, mb)))
        }
        Kernel::CastPointAabb => {
            let mut rays = [Ray::default(); LANES];
            for i in 0..LANES {
                rays[i] = Ray::new(vec2(r, scale), vec2(r, scale));
                b_boxes[i] = aabb(r);
            }
            Lanes::Cast(rays, b_boxes)
        }
        Kernel::Obb2Obb2 => Lanes::Obb2(
            core::array::from_fn(|_| obb2(r, scale)),
            core::array::from_fn(|_| obb2(r, scale)),
        ),
        Kernel::Obb3Obb3 => Lanes::Obb3(Box::new((
            core::array::from_fn(|_| obb3(r, scale)),
            core::array::from_fn(|_| obb3(r, scale)),
        ))),
    };
    (kernel, lanes)
}

/// The scalar reference on `a[i]`, `b[i]`.
fn reference(lanes: &Lanes) -> Answers {
    let l = 0..LANES;
    match lanes {
        Lanes::AabbAabb(a, b) => {
            Answers::Overlap(l.map(|i| scalar::overlap_aabb_aabb(&a[i], &b[i])).collect())
        }
        Lanes::CircleCircle(a, b) => Answers::Overlap(
            l.map(|i| scalar::overlap_circle_circle(&a[i], &b[i]))
                .collect(),
        ),
        Lanes::AabbCircle(a, b) => Answers::Overlap(
            l.map(|i| scalar::overlap_aabb_circle(&a[i], &b[i]))
                .collect(),
        ),
        Lanes::Sweep(a, ma, b, mb) => Answers::Sweep(
            l.map(|i| scalar::sweep_aabb_aabb(&a[i], ma[i], &b[i], mb[i]))
                .collect(),
        ),
        Lanes::Cast(r, b) => {
            Answers::Sweep(l.map(|i| scalar::cast_point_aabb(&r[i], &b[i])).collect())
        }
        Lanes::SweepCircle(a, ma, b, mb) => Answers::Sweep(
            l.map(|i| scalar::sweep_circle_circle(&a[i], ma[i], &b[i], mb[i]))
                .collect(),
        ),
        Lanes::SweepAabbCircle(a, ma, b, mb) => Answers::Sweep(
            l.map(|i| scalar::sweep_aabb_circle(&a[i], ma[i], &b[i], mb[i]))
                .collect(),
        ),
        Lanes::SweepCircleObb2(x) => {
            let (a, ma, b, mb) = &**x;
            Answers::Sweep(
                l.map(|i| scalar::sweep_circle_obb2(&a[i], ma[i], &b[i], mb[i]))
                    .collect(),
            )
        }
        Lanes::Obb2(a, b) => {
            Answers::Mtv2(l.map(|i| scalar::overlap_obb2_obb2(&a[i], &b[i])).collect())
        }
        Lanes::SweepObb2(a, ma, b, mb) => Answers::Sweep(
            l.map(|i| scalar::sweep_obb2_obb2(&a[i], ma[i], &b[i], mb[i]))
                .collect(),
        ),
        Lanes::SweepAabbObb2(a, ma, b, mb) => Answers::Sweep(
            l.map(|i| scalar::sweep_aabb_obb2(&a[i], ma[i], &b[i], mb[i]))
                .collect(),
        ),
        Lanes::Obb3(ab) => {
            let (a, b) = &**ab;
            Answers::Mtv3(l.map(|i| scalar::overlap_obb3_obb3(&a[i], &b[i])).collect())
        }
    }
}

/// The wide kernels on the eight lanes, for [`dispatch`].
struct WideTask<'a>(&'a Lanes);

fn bits<M: MaskW>(m: M) -> Vec<bool> {
    let b = m.bitmask();
    (0..LANES).map(|i| b >> i & 1 == 1).collect()
}

impl SimdTask for WideTask<'_> {
    // At `SimdLevel::Avx512` every lane kernel runs compiled for AVX-512, the batches'
    // choice or not, so that build is held to the same bits as the others.
    const AVX512: bool = true;
    type Output = Answers;
    #[inline(always)]
    fn run<W: F32W>(self) -> Answers {
        match self.0 {
            Lanes::AabbAabb(a, b) => Answers::Overlap(bits(wide::overlap_aabb_aabb(
                &AabbW::<W>::from_array(a),
                &AabbW::from_array(b),
            ))),
            Lanes::CircleCircle(a, b) => Answers::Overlap(bits(wide::overlap_circle_circle(
                &CircleW::<W>::from_array(a),
                &CircleW::from_array(b),
            ))),
            Lanes::AabbCircle(a, b) => Answers::Overlap(bits(wide::overlap_aabb_circle(
                &AabbW::<W>::from_array(a),
                &CircleW::from_array(b),
            ))),
            Lanes::Sweep(a, ma, b, mb) => Answers::Sweep(
                wide::sweep_aabb_aabb(
                    &AabbW::<W>::from_array(a),
                    &Vec2W::from_array(ma),
                    &AabbW::from_array(b),
                    &Vec2W::from_array(mb),
                )
                .to_array()
                .to_vec(),
            ),
            Lanes::Cast(r, b) => Answers::Sweep(
                wide::cast_point_aabb(&RayW::<W>::from_array(r), &AabbW::from_array(b))
                    .to_array()
                    .to_vec(),
            ),
            Lanes::SweepCircle(a, ma, b, mb) => Answers::Sweep(
                wide::sweep_circle_circle(
                    &CircleW::<W>::from_array(a),
                    &Vec2W::from_array(ma),
                    &CircleW::from_array(b),
                    &Vec2W::from_array(mb),
                )
                .to_array()
                .to_vec(),
            ),
            Lanes::SweepAabbCircle(a, ma, b, mb) => Answers::Sweep(
                wide::sweep_aabb_circle(
                    &AabbW::<W>::from_array(a),
                    &Vec2W::from_array(ma),
                    &CircleW::from_array(b),
                    &Vec2W::from_array(mb),
                )
                .to_array()
                .to_vec(),
            ),
            Lanes::SweepCircleObb2(x) => {
                let (a, ma, b, mb) = &**x;
                Answers::Sweep(
                    wide::sweep_circle_obb2(
                        &CircleW::<W>::from_array(a),
                        &Vec2W::from_array(ma),
                        &Obb2W::from_array(b),
                        &Vec2W::from_array(mb),
                    )
                    .to_array()
                    .to_vec(),
                )
            }
            Lanes::Obb2(a, b) => {
                let m = wide::overlap_obb2_obb2(&Obb2W::<W>::from_array(a), &Obb2W::from_array(b));
                Answers::Mtv2((0..LANES).map(|i| m.lane(i)).collect())
            }
            Lanes::SweepObb2(a, ma, b, mb) => Answers::Sweep(
                wide::sweep_obb2_obb2(
                    &Obb2W::<W>::from_array(a),
                    &Vec2W::from_array(ma),
                    &Obb2W::from_array(b),
                    &Vec2W::from_array(mb),
                )
                .to_array()
                .to_vec(),
            ),
            Lanes::SweepAabbObb2(a, ma, b, mb) => Answers::Sweep(
                wide::sweep_aabb_obb2(
                    &AabbW::<W>::from_array(a),
                    &Vec2W::from_array(ma),
                    &Obb2W::from_array(b),
                    &Vec2W::from_array(mb),
                )
                .to_array()
                .to_vec(),
            ),
            Lanes::Obb3(ab) => {
                let (a, b) = &**ab;
                let m = wide::overlap_obb3_obb3(&Obb3W::<W>::from_array(a), &Obb3W::from_array(b));
                Answers::Mtv3((0..LANES).map(|i| m.lane(i)).collect())
            }
        }
    }
}

/// The answers of the batch call on `pairs` (the hits, in order), or its error; the
/// shapes passed as slices of records when `records`, else as columns.
fn batch(
    narrow: &mut NarrowPhase,
    lanes: &Lanes,
    pairs: &[Pair],
    records: bool,
) -> Result<(Vec<Pair>, Answers), Error> {
    fn cat<T: Copy>(a: &[T; LANES], b: &[T; LANES]) -> Vec<T> {
        [&a[..], &b[..]].concat()
    }
    let overlap = |hits: &[Pair]| (hits.to_vec(), Answers::Overlap(vec![true; hits.len()]));
    let sweeps = |hits: &[PairSweep]| {
        (
            hits.iter().map(|h| h.pair).collect(),
            Answers::Sweep(hits.iter().map(|h| h.sweep).collect()),
        )
    };
    Ok(match lanes {
        Lanes::AabbAabb(a, b) => {
            let boxes = cat(a, b);
            overlap(if records {
                narrow.overlap_aabb_aabb(&boxes[..], pairs)?
            } else {
                narrow.overlap_aabb_aabb(AabbSoa::from(&boxes[..]).columns(), pairs)?
            })
        }
        Lanes::CircleCircle(a, b) => {
            let circles = cat(a, b);
            overlap(if records {
                narrow.overlap_circle_circle(&circles[..], pairs)?
            } else {
                narrow.overlap_circle_circle(CircleSoa::from(&circles[..]).columns(), pairs)?
            })
        }
        Lanes::AabbCircle(a, b) => overlap(if records {
            narrow.overlap_aabb_circle(&a[..], &b[..], pairs)?
        } else {
            let (boxes, circles) = (AabbSoa::from(&a[..]), CircleSoa::from(&b[..]));
            narrow.overlap_aabb_circle(boxes.columns(), circles.columns(), pairs)?
        }),
        Lanes::Sweep(a, ma, b, mb) => {
            let (boxes, motions) = (cat(a, b), cat(ma, mb));
            sweeps(if records {
                narrow.sweep_aabb_aabb(&boxes[..], &motions[..], pairs)?
            } else {
                let (boxes, motions) = (AabbSoa::from(&boxes[..]), MotionSoa::from(&motions[..]));
                narrow.sweep_aabb_aabb(boxes.columns(), motions.columns(), pairs)?
            })
        }
        Lanes::SweepCircle(a, ma, b, mb) => {
            let (circles, motions) = (cat(a, b), cat(ma, mb));
            sweeps(if records {
                narrow.sweep_circle_circle(&circles[..], &motions[..], pairs)?
            } else {
                let (circles, motions) =
                    (CircleSoa::from(&circles[..]), MotionSoa::from(&motions[..]));
                narrow.sweep_circle_circle(circles.columns(), motions.columns(), pairs)?
            })
        }
        Lanes::SweepAabbCircle(a, ma, b, mb) => sweeps(if records {
            narrow.sweep_aabb_circle(&a[..], &ma[..], &b[..], &mb[..], pairs)?
        } else {
            let (boxes, circles) = (AabbSoa::from(&a[..]), CircleSoa::from(&b[..]));
            let (ma, mb) = (MotionSoa::from(&ma[..]), MotionSoa::from(&mb[..]));
            let (bc, cc) = (boxes.columns(), circles.columns());
            narrow.sweep_aabb_circle(bc, ma.columns(), cc, mb.columns(), pairs)?
        }),
        Lanes::SweepCircleObb2(x) => {
            let (a, ma, b, mb) = &**x;
            sweeps(if records {
                narrow.sweep_circle_obb2(&a[..], &ma[..], &b[..], &mb[..], pairs)?
            } else {
                let (circles, boxes) = (CircleSoa::from(&a[..]), Obb2Soa::from(&b[..]));
                let (ma, mb) = (MotionSoa::from(&ma[..]), MotionSoa::from(&mb[..]));
                let (cc, bc) = (circles.columns(), boxes.columns());
                narrow.sweep_circle_obb2(cc, ma.columns(), bc, mb.columns(), pairs)?
            })
        }
        Lanes::Cast(r, b) => sweeps(if records {
            narrow.cast_point_aabb(&r[..], &b[..], pairs)?
        } else {
            let (rays, boxes) = (RaySoa::from(&r[..]), AabbSoa::from(&b[..]));
            narrow.cast_point_aabb(rays.columns(), boxes.columns(), pairs)?
        }),
        Lanes::Obb2(a, b) => {
            let shapes = cat(a, b);
            let hits = if records {
                narrow.overlap_obb2_obb2(&shapes[..], pairs)?
            } else {
                narrow.overlap_obb2_obb2(Obb2Soa::from(&shapes[..]).columns(), pairs)?
            };
            (
                hits.iter().map(|h| h.pair).collect(),
                Answers::Mtv2(hits.iter().map(|h| Some(h.mtv)).collect()),
            )
        }
        Lanes::SweepObb2(a, ma, b, mb) => {
            let (boxes, motions) = (cat(a, b), cat(ma, mb));
            sweeps(if records {
                narrow.sweep_obb2_obb2(&boxes[..], &motions[..], pairs)?
            } else {
                let (boxes, motions) = (Obb2Soa::from(&boxes[..]), MotionSoa::from(&motions[..]));
                narrow.sweep_obb2_obb2(boxes.columns(), motions.columns(), pairs)?
            })
        }
        Lanes::SweepAabbObb2(a, ma, b, mb) => sweeps(if records {
            narrow.sweep_aabb_obb2(&a[..], &ma[..], &b[..], &mb[..], pairs)?
        } else {
            let (aabbs, aabb_motions) = (AabbSoa::from(&a[..]), MotionSoa::from(&ma[..]));
            let (obbs, obb_motions) = (Obb2Soa::from(&b[..]), MotionSoa::from(&mb[..]));
            narrow.sweep_aabb_obb2(
                aabbs.columns(),
                aabb_motions.columns(),
                obbs.columns(),
                obb_motions.columns(),
                pairs,
            )?
        }),
        Lanes::Obb3(ab) => {
            let (a, b) = &**ab;
            let shapes = cat(a, b);
            let hits = if records {
                narrow.overlap_obb3_obb3(&shapes[..], pairs)?
            } else {
                narrow.overlap_obb3_obb3(Obb3Soa::from(&shapes[..]).columns(), pairs)?
            };
            (
                hits.iter().map(|h| h.pair).collect(),
                Answers::Mtv3(hits.iter().map(|h| Some(h.mtv)).collect()),
            )
        }
    })
}

/// Whether `a` and `b` index one set of columns (`a` lanes first, then `b` lanes), or
/// two (each of `LANES` entries).
fn shared_columns(kernel: Kernel) -> bool {
    !matches!(
        kernel,
        Kernel::AabbCircle
            | Kernel::CastPointAabb
            | Kernel::SweepAabbObb2
            | Kernel::SweepAabbCircle
            | Kernel::SweepCircleObb2
    )
}

/// The scalar answer for an arbitrary pair of the batch's columns.
fn reference_pair(lanes: &Lanes, p: Pair) -> Answers {
    let (i, j) = (p.a as usize, p.b as usize);
    let pick = |i: usize| (i / LANES, i % LANES);
    let one = |a: &[Aabb; LANES], b: &[Aabb; LANES], i: usize| {
        let (s, k) = pick(i);
        if s == 0 { a[k] } else { b[k] }
    };
    match lanes {
        Lanes::AabbAabb(a, b) => Answers::Overlap(vec![scalar::overlap_aabb_aabb(
            &one(a, b, i),
            &one(a, b, j),
        )]),
        Lanes::CircleCircle(a, b) => {
            let c = |i: usize| if i < LANES { a[i] } else { b[i - LANES] };
            Answers::Overlap(vec![scalar::overlap_circle_circle(&c(i), &c(j))])
        }
        Lanes::AabbCircle(a, b) => {
            Answers::Overlap(vec![scalar::overlap_aabb_circle(&a[i], &b[j])])
        }
        Lanes::Sweep(a, ma, b, mb) => {
            let m = |i: usize| if i < LANES { ma[i] } else { mb[i - LANES] };
            Answers::Sweep(vec![scalar::sweep_aabb_aabb(
                &one(a, b, i),
                m(i),
                &one(a, b, j),
                m(j),
            )])
        }
        Lanes::Cast(r, b) => Answers::Sweep(vec![scalar::cast_point_aabb(&r[i], &b[j])]),
        Lanes::SweepAabbCircle(a, ma, b, mb) => {
            Answers::Sweep(vec![scalar::sweep_aabb_circle(&a[i], ma[i], &b[j], mb[j])])
        }
        Lanes::SweepCircleObb2(x) => {
            let (a, ma, b, mb) = &**x;
            Answers::Sweep(vec![scalar::sweep_circle_obb2(&a[i], ma[i], &b[j], mb[j])])
        }
        Lanes::SweepCircle(a, ma, b, mb) => {
            let c = |i: usize| if i < LANES { a[i] } else { b[i - LANES] };
            let m = |i: usize| if i < LANES { ma[i] } else { mb[i - LANES] };
            Answers::Sweep(vec![scalar::sweep_circle_circle(&c(i), m(i), &c(j), m(j))])
        }
        Lanes::Obb2(a, b) => {
            let o = |i: usize| if i < LANES { a[i] } else { b[i - LANES] };
            Answers::Mtv2(vec![scalar::overlap_obb2_obb2(&o(i), &o(j))])
        }
        Lanes::SweepObb2(a, ma, b, mb) => {
            let o = |i: usize| if i < LANES { a[i] } else { b[i - LANES] };
            let m = |i: usize| if i < LANES { ma[i] } else { mb[i - LANES] };
            Answers::Sweep(vec![scalar::sweep_obb2_obb2(&o(i), m(i), &o(j), m(j))])
        }
        Lanes::SweepAabbObb2(a, ma, b, mb) => {
            Answers::Sweep(vec![scalar::sweep_aabb_obb2(&a[i], ma[i], &b[j], mb[j])])
        }
        Lanes::Obb3(ab) => {
            let (a, b) = &**ab;
            let o = |i: usize| if i < LANES { a[i] } else { b[i - LANES] };
            Answers::Mtv3(vec![scalar::overlap_obb3_obb3(&o(i), &o(j))])
        }
    }
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

/// The wide kernels and the batch API against the scalar kernels on the input decoded
/// from `data` (see the [module docs](self)).
///
/// # Panics
/// When a property is violated.
pub fn lanes_vs_scalar(data: &[u8]) {
    if let Err(e) = lanes_vs_scalar_with(data, &|_, _| {}) {
        panic!("narrow check failed: {e}");
    }
}

/// [`lanes_vs_scalar`] with a [`Tamper`] hook, returning the first violated property.
///
/// # Errors
/// A description of the first violated property, with the decoded input.
pub fn lanes_vs_scalar_with(data: &[u8], tamper: Tamper<'_>) -> Result<(), String> {
    let mut r = Bytes::new(data);
    let (kernel, lanes) = decode(&mut r);
    let ctx = |e: String| format!("{kernel:?}: {e}\nlanes: {lanes:?}");
    let mut want = reference(&lanes);
    tamper(Stage::Reference, &mut want);

    // The batch call: the lane pairs first, then the decoded ones.
    let shared = shared_columns(kernel);
    let n_cols = if shared { 2 * LANES } else { LANES };
    let mut pairs: Vec<Pair> = (0..LANES as u32)
        .map(|i| Pair::new(i, if shared { i + LANES as u32 } else { i }))
        .collect();
    for _ in 0..r.below(16) {
        // One past the end now and then, or at the index limit (2^31 - 1, 2^31, the
        // largest u32): refused alike at every level.
        let mut index = || {
            let k = r.below(n_cols + 1 + FAR_INDICES.len());
            FAR_INDICES
                .get(k.wrapping_sub(n_cols + 1))
                .map_or(k as u32, |&far| far)
        };
        let (a, b) = (index(), index());
        pairs.push(Pair::new(a, b));
    }
    let in_range = pairs
        .iter()
        .all(|p| (p.a as usize) < n_cols && (p.b as usize) < n_cols);
    // Every level and configuration refuses a bad pair with the same error.
    let mut refusal: Option<Error> = None;
    for &level in SimdLevel::available() {
        for (parallel, records) in [(false, false), (true, false), (false, true)] {
            let mut narrow = NarrowPhase::with_config(NarrowConfig {
                simd: level,
                parallel,
                parallel_threshold: 0,
            });
            let got = if parallel {
                pool().install(|| batch(&mut narrow, &lanes, &pairs, records))
            } else {
                batch(&mut narrow, &lanes, &pairs, records)
            };
            let what = |e: String| {
                ctx(format!(
                    "batch at {level:?} (parallel {parallel}, records {records}): {e}"
                ))
            };
            match (got, in_range) {
                (Err(e @ Error::PairOutOfRange { .. }), false) => match &refusal {
                    Some(first) if *first != e => {
                        return Err(what(format!("refused with {e:?}, elsewhere {first:?}")));
                    }
                    _ => refusal = Some(e),
                },
                (Ok((hit_pairs, hits)), true) => {
                    verify_batch(&want, &lanes, &pairs, &hit_pairs, &hits).map_err(what)?;
                }
                (got, _) => {
                    return Err(what(format!(
                        "pairs {pairs:?} (in range: {in_range}) gave {:?}",
                        got.map(|g| g.0)
                    )));
                }
            }
        }
    }

    // The wide kernels, lane by lane.
    let mut first: Option<Answers> = None;
    for &level in SimdLevel::available() {
        if level == SimdLevel::Scalar {
            continue;
        }
        let mut got = dispatch(level, WideTask(&lanes));
        tamper(Stage::Lanes(level), &mut got);
        if let Some(i) = want.first_difference(&got, false) {
            return Err(ctx(format!(
                "lane {i} at {level:?} differs from the scalar kernel: {got:?}, want {want:?}"
            )));
        }
        match &first {
            None => first = Some(got),
            Some(f) => {
                if let Some(i) = f.first_difference(&got, true) {
                    return Err(ctx(format!(
                        "lane {i}: {level:?} and Portable differ in their bits: {got:?} / {f:?}"
                    )));
                }
            }
        }
    }
    Ok(())
}

/// The batch's hits are exactly the pairs whose reference answer is a hit, in pair
/// order, with the reference's bits.
fn verify_batch(
    want: &Answers,
    lanes: &Lanes,
    pairs: &[Pair],
    hit_pairs: &[Pair],
    hits: &Answers,
) -> Result<(), String> {
    let mut k = 0;
    for (i, &p) in pairs.iter().enumerate() {
        // The lane pairs' reference may carry a planted bug; recompute the others.
        let (reference, at) = if i < LANES {
            (want.clone(), i)
        } else {
            (reference_pair(lanes, p), 0)
        };
        if reference.is_hit(at) {
            if hit_pairs.get(k) != Some(&p) {
                return Err(format!(
                    "pair {i} {p:?} is a hit but missing from {hit_pairs:?}"
                ));
            }
            if !reference.same_at(at, hits, k) {
                return Err(format!(
                    "pair {i} {p:?}: the batch answer differs from the reference"
                ));
            }
            k += 1;
        }
    }
    if k != hit_pairs.len() || hits.len() != hit_pairs.len() {
        return Err(format!("extra hits: {hit_pairs:?}, {k} expected"));
    }
    Ok(())
}
