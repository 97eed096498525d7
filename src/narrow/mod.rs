//! Narrow phase: exact tests on the candidate pairs the broad phase found.
//!
//! # Naming
//! Kernels are named `<test>_<a>_<b>`, with the shapes in the canonical order
//! `aabb < circle < obb2 < obb3` (a moving point is a `point`): `overlap_*` for static
//! overlap, `sweep_*` for two boxes moving over a frame, `cast_*` for a moving point.
//! Every kernel exists twice, under the same name:
//!
//! - [`scalar`]: the reference, one pair at a time, documented with its math;
//! - [`wide`]: the same kernel over eight pairs at once, generic over the lane type
//!   [`F32W`] (run it with [`PortableW`], i.e. `wide::f32x8`, or through [`NarrowPhase`],
//!   which also has an AVX2 flavour).
//!
//! [`NarrowPhase`] runs the lane kernels (or the scalar ones) over slices of candidate
//! [`Pair`](crate::Pair)s that index structure-of-arrays [`columns`] or slices of the
//! shapes themselves (both inputs give the same bits), and keeps only the
//! hits, in pair order ([`batch`]).
//!
//! | kernel | shapes | answer | math |
//! |---|---|---|---|
//! | `overlap_aabb_aabb` | [`Aabb`](crate::Aabb) × [`Aabb`](crate::Aabb) | `bool` | closed intervals on both axes, as the broad phase |
//! | `overlap_circle_circle` | [`Circle`](crate::Circle) × [`Circle`](crate::Circle) | `bool` | `d² <= (r₁ + r₂)²`, no square root |
//! | `overlap_aabb_circle` | [`Aabb`](crate::Aabb) × [`Circle`](crate::Circle) | `bool` | closest point of the box, `|c - q|² <= r²` |
//! | `sweep_aabb_aabb` | moving [`Aabb`](crate::Aabb) × moving [`Aabb`](crate::Aabb) | [`Sweep`] | per-axis entry/exit times of the relative motion |
//! | `sweep_circle_circle` | moving [`Circle`](crate::Circle) × moving [`Circle`](crate::Circle) | [`Sweep`] | first root of `|d + t·v|² = (r₁ + r₂)²`, discriminant by Lagrange's identity |
//! | `sweep_aabb_circle` | moving [`Aabb`](crate::Aabb) × moving [`Circle`](crate::Circle) | [`Sweep`] | the disc's center against the box grown by `r` with rounded corners: two slabs and two corner discs (exact first roots) |
//! | `sweep_circle_obb2` | moving [`Circle`](crate::Circle) × moving [`Obb2`](crate::Obb2) | [`Sweep`] | the same rounded box in the box's frame, normal and stop turned back |
//! | `cast_point_aabb` | [`Ray`](crate::Ray) (moving point) × [`Aabb`](crate::Aabb) | [`Sweep`] | the same slabs; box × box = point × grown box |
//! | `overlap_obb2_obb2` | [`Obb2`](crate::Obb2) × [`Obb2`](crate::Obb2) | `Option<`[`Mtv2`]`>` | separating axis theorem, 4 axes |
//! | `overlap_obb3_obb3` | [`Obb3`](crate::Obb3) × [`Obb3`](crate::Obb3) | `Option<`[`Mtv3`]`>` | separating axis theorem, 15 axes, face axes first |
//! | `sweep_obb2_obb2` | moving [`Obb2`](crate::Obb2) × moving [`Obb2`](crate::Obb2) | [`Sweep`] | separating axis theorem over time: per-axis entry/exit times on the 4 edge normals |
//! | `sweep_aabb_obb2` | moving [`Aabb`](crate::Aabb) × moving [`Obb2`](crate::Obb2) | [`Sweep`] | the same, `a`'s axes the world's |
//!
//! # Conventions
//! - **Closed**: touching counts as overlap everywhere (a point on an edge, two circles
//!   at distance `r₁ + r₂`, a sweep that ends flush at `t = 1`).
//! - **Bad input never hits and never panics**: a NaN or an infinity in any input gives
//!   `false`, `None` or [`SweepStatus::Miss`]; a negative radius never hits. The batch API
//!   answers mismatched column lengths with
//!   [`Error::LengthMismatch`](crate::Error::LengthMismatch) and out-of-range pair
//!   indices with [`Error::PairOutOfRange`](crate::Error::PairOutOfRange).
//! - **Orientation**: oriented boxes need unit (2D) or orthonormal (3D) axes;
//!   [`Obb2::try_new`](crate::Obb2::try_new) normalises its axis,
//!   [`Obb3::try_new`](crate::Obb3::try_new) rejects axes that are not orthonormal to
//!   within `1e-3` and re-orthonormalises the rest.
//!
//! # Scalar and SIMD agree bit for bit (ulp bound: 0)
//! The lane kernels perform the same IEEE-754 operations on the same operands in the same
//! order as the scalar ones: no fused multiply-add, the lane `min`/`max` rule on both
//! sides (`scalar::min`), sums in the same association, correctly rounded `/` and
//! `sqrt`. So every boolean and status is equal, and every `f32` (`t`, normals, stops,
//! depths) has the same bits: the stated bound is **0 ulp**. (One deliberate exception
//! in form, not in result: the AABB lane kernel guards against infinities with fewer
//! operations than the scalar one; its comment proves the booleans equal.) The unit
//! tests of this module check every lane bit for bit at every level,
//! [`SimdLevel::Portable`](crate::SimdLevel), [`SimdLevel::Avx2`](crate::SimdLevel) and
//! [`SimdLevel::Avx512`](crate::SimdLevel) included, on hand-picked edge cases and on seeded random inputs biased toward special
//! values, and `tests/narrow_*.rs` check the batch API the same way. Against an `f64` oracle the scalar kernels give
//! the exact booleans and statuses away from ties (always, for inputs on a grid where
//! the differences are exact), and a sweep's `t` within **3 ulp** (one rounding each for
//! the gap, the relative velocity and the quotient; correctly rounded, 0.5 ulp, when the
//! gap and the velocity are exact).
//!
//! # Dispatch
//! [`NarrowPhase`] runs the [`SimdLevel`](crate::SimdLevel) of its [`NarrowConfig`]
//! (default: [`SimdLevel::best`](crate::SimdLevel::best)): `Scalar` calls the [`scalar`]
//! kernels pair by pair; `Portable` runs the [`wide`] kernels on `wide::f32x8` (two SSE
//! halves in a default x86-64 build); `Avx2` runs the same generic kernels on 256-bit
//! AVX2 lanes inside a `#[target_feature]` function, chosen at run time, so a default
//! build gets the fast path on a CPU that has it. The results are identical at every
//! level and for every thread count.
//!
//! Most of a lane kernel's time is the gather: lane `i` of a column is loaded from the
//! index of pair `i`, one scalar load per lane and column (with AVX2, half of them as
//! broadcasts and blends; `vgatherdps`, microcoded on AMD cores, measured slower for every
//! kernel). From a slice of shapes the gather loads a whole record per lane instead (an
//! [`Aabb`](crate::Aabb) or a [`Ray`](crate::Ray) is one 16-byte load and a transpose),
//! which makes the cheap kernels up to twice as fast; BENCHMARKS.md's narrow-phase tables
//! have both. The batch checks a chunk's indices once, so the gathers themselves carry
//! no bounds checks.

pub mod batch;
pub mod columns;
pub mod scalar;
pub mod wide;

pub use batch::{NarrowConfig, NarrowPhase, PairMtv2, PairMtv3, PairSweep};
pub use wide::{F32W, MaskW, PortableW};

use glam::{Vec2, Vec3};

/// The `ε` added to `|R|` in the edge–edge axes of the 3D separating-axis test (see
/// [`scalar::overlap_obb3_obb3`]): each radius grows by `ε` times the box's half
/// extents.
pub const SAT_EPSILON: f32 = 1.0e-5;

/// How a swept test ended. See [`scalar::sweep_aabb_aabb`](fn@scalar::sweep_aabb_aabb)
/// for the exact rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum SweepStatus {
    /// No contact during the frame (or a NaN or infinite input).
    #[default]
    Miss = 0,
    /// First contact at time `t ∈ [0, 1]`.
    Hit = 1,
    /// Already in contact when the frame began (closed: touching counts unless the
    /// motion closes the gap, which is a hit at `t = 0`).
    Overlapping = 2,
}

/// The answer of a swept test ([`scalar::sweep_aabb_aabb`](fn@scalar::sweep_aabb_aabb),
/// [`scalar::sweep_circle_circle`](fn@scalar::sweep_circle_circle),
/// [`scalar::cast_point_aabb`], [`scalar::sweep_obb2_obb2`](fn@scalar::sweep_obb2_obb2),
/// [`scalar::sweep_aabb_obb2`](fn@scalar::sweep_aabb_obb2),
/// [`scalar::sweep_aabb_circle`](fn@scalar::sweep_aabb_circle),
/// [`scalar::sweep_circle_obb2`](fn@scalar::sweep_circle_obb2)). For discs the normal
/// is the unit vector from `b`'s center to `a`'s at contact, and the stop places `a`
/// along it just past touching. For a box and a disc it is `b`'s unit outward normal at
/// the contact (a face's axis, or from the corner or the disc's center at a rounded
/// contact), pointing toward `a`; for oriented boxes the unit separating axis that
/// closed last (pointing toward `a`), the stop `t·v` backed off along it.
///
/// | status | `t` | `normal` | `stop` |
/// |---|---|---|---|
/// | `Hit` | time of first contact, in `[0, 1]` | outward normal of `b`'s face, components in `{-1, 0, 1}` (both set at a corner) | relative displacement of `a` that ends flush with `b` |
/// | `Overlapping` | `0` | `(0, 0)` | `(0, 0)` |
/// | `Miss` | `1` | `(0, 0)` | the whole relative motion |
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub struct Sweep {
    /// Hit, already overlapping, or miss.
    pub status: SweepStatus,
    /// The time of impact, as a fraction of the frame.
    pub t: f32,
    /// The face of `b` that was hit, pointing toward `a`: `(±1, 0)`, `(0, ±1)`, or both
    /// components set for an exact corner hit.
    pub normal: Vec2,
    /// The displacement of `a` relative to `b` that stops it flush at contact, with no
    /// penetration (seed 002's response, per axis).
    pub stop: Vec2,
}

impl Sweep {
    /// Whether the status is [`SweepStatus::Hit`].
    #[inline]
    #[must_use]
    pub fn is_hit(&self) -> bool {
        self.status == SweepStatus::Hit
    }

    /// Whether this is a hit on both axes at once (an exact corner hit).
    #[inline]
    #[must_use]
    pub fn is_corner(&self) -> bool {
        self.normal.x != 0.0 && self.normal.y != 0.0
    }
}

/// The minimum translation vector of two overlapping 2D oriented boxes.
///
/// Moving `a` by `-normal * depth` (or `b` by `+normal * depth`) leaves them touching.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mtv2 {
    /// Unit axis of least overlap, pointing from `a` toward `b`.
    pub normal: Vec2,
    /// How deep they overlap along `normal` (`>= 0`; `0` when they only touch).
    pub depth: f32,
    /// Which axis: 0, 1 = `a`'s x, y; 2, 3 = `b`'s x, y.
    pub axis: u8,
}

/// The minimum translation vector of two overlapping 3D oriented boxes.
///
/// Moving `a` by `-normal * depth` (or `b` by `+normal * depth`) leaves them touching.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mtv3 {
    /// Unit axis of least overlap, pointing from `a` toward `b`.
    pub normal: Vec3,
    /// How deep they overlap along `normal` (`>= 0`).
    pub depth: f32,
    /// Which axis: `i` for `a.axes[i]`, `3 + j` for `b.axes[j]`, `6 + 3i + j` for
    /// `a.axes[i] × b.axes[j]`.
    pub axis: u8,
}

#[cfg(test)]
mod tests;
