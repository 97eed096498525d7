//! Narrow phase: exact tests on the candidate pairs that the broad phase found.
//!
//! # Naming
//! Kernels are named `<test>_<a>_<b>`. The shapes come in the canonical order `aabb`,
//! `circle`, `obb2`, `obb3`, and a moving point is a `point`. The capsule sweeps put the
//! capsule first: `sweep_capsule_<b>`.
//!
//! - `overlap_*` tests two shapes that stand still.
//! - `sweep_*` tests two shapes that move over a frame.
//! - `cast_*` tests a moving point.
//!
//! Every kernel exists twice, under the same name:
//!
//! - [`scalar`] holds the reference kernels. Each tests one pair at a time, and its
//!   docs give the math.
//! - [`wide`] holds the same kernels over eight pairs at once. They are generic over
//!   the lane type [`F32W`]. Run them with [`PortableW`], which is `wide::f32x8`, or
//!   through [`NarrowPhase`], which also has an AVX2 flavour.
//!
//! [`NarrowPhase`] runs the lane kernels, or the scalar ones, over slices of candidate
//! [`Pair`](crate::Pair)s. The pairs index either structure-of-arrays [`columns`] or
//! slices of the shapes themselves, and both inputs give the same bits. It keeps only
//! the hits, in pair order. See [`batch`].
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
//! | `sweep_capsule_capsule` | moving [`Capsule`](crate::Capsule) × moving [`Capsule`](crate::Capsule) | [`Sweep`] | a point against the Minkowski difference (a parallelogram) grown by the radii: offset edges and vertex discs (exact first roots) |
//! | `sweep_capsule_circle` | moving [`Capsule`](crate::Capsule) × moving [`Circle`](crate::Circle) | [`Sweep`] | the same core, the segment for a polygon |
//! | `sweep_capsule_aabb` | moving [`Capsule`](crate::Capsule) × moving [`Aabb`](crate::Aabb) | [`Sweep`] | the same core, the hexagon `box - segment` |
//! | `sweep_capsule_obb2` | moving [`Capsule`](crate::Capsule) × moving [`Obb2`](crate::Obb2) | [`Sweep`] | the same hexagon in the box's frame, normal and stop turned back |
//!
//! # Conventions
//! - **Closed**: touching counts as overlap everywhere. This covers a point on an edge,
//!   two circles at distance `r₁ + r₂`, and a sweep that ends flush at `t = 1`.
//! - **Bad input never hits and never panics**. A NaN or an infinity in any input gives
//!   `false`, `None` or [`SweepStatus::Miss`]. A negative radius never hits. The batch
//!   API answers mismatched column lengths with
//!   [`Error::LengthMismatch`](crate::Error::LengthMismatch), and out-of-range pair
//!   indices with [`Error::PairOutOfRange`](crate::Error::PairOutOfRange).
//! - **Orientation**: oriented boxes need unit axes in 2D and orthonormal axes in 3D.
//!   [`Obb2::try_new`](crate::Obb2::try_new) normalises its axis.
//!   [`Obb3::try_new`](crate::Obb3::try_new) rejects axes that are not orthonormal to
//!   within `1e-3`, and re-orthonormalises the rest.
//!
//! # Scalar and SIMD agree bit for bit (ulp bound: 0)
//! The lane kernels perform the same IEEE-754 operations as the scalar ones, on the
//! same operands, in the same order. They use no fused multiply-add. Both sides use the
//! lane `min`/`max` rule (`scalar::min`). Sums keep the same association, and `/` and
//! `sqrt` are correctly rounded. So every boolean and status is equal, and every `f32`
//! has the same bits: `t`, normals, stops and depths. The stated bound is **0 ulp**.
//!
//! There is one deliberate exception in form, not in result. The AABB lane kernel
//! guards against infinities with fewer operations than the scalar one. Its comment
//! proves that the booleans are equal.
//!
//! The unit tests of this module check every lane bit for bit at every level,
//! including [`SimdLevel::Portable`](crate::SimdLevel::Portable),
//! [`SimdLevel::Avx2`](crate::SimdLevel::Avx2) and
//! [`SimdLevel::Avx512`](crate::SimdLevel::Avx512). They use hand-picked edge cases
//! and seeded random inputs biased toward special values. `tests/narrow_*.rs` check the
//! batch API the same way.
//!
//! Against an `f64` oracle, the scalar kernels give the exact booleans and statuses
//! away from ties. For inputs on a grid, where the differences are exact, they always
//! do. A sweep's `t` is within **3 ulp**, one rounding each for the gap, the relative
//! velocity and the quotient. It is correctly rounded, within 0.5 ulp, when the gap and
//! the velocity are exact.
//!
//! # Dispatch
//! [`NarrowPhase`] runs the [`SimdLevel`](crate::SimdLevel) of its [`NarrowConfig`].
//! The default is [`SimdLevel::best`](crate::SimdLevel::best).
//!
//! - `Scalar` calls the [`scalar`] kernels pair by pair.
//! - `Portable` runs the [`wide`] kernels on `wide::f32x8`. In a default x86-64 build,
//!   that is two SSE halves.
//! - `Avx2` runs the same generic kernels on 256-bit AVX2 lanes, inside a
//!   `#[target_feature]` function chosen at run time. So a default build gets the fast
//!   path on a CPU that has AVX2.
//!
//! The results are identical at every level and for every thread count.
//!
//! Most of a lane kernel's time is the gather. Lane `i` of a column is loaded from the
//! index of pair `i`, with one scalar load per lane and column. With AVX2, half of
//! those loads are broadcasts and blends. `vgatherdps` is microcoded on AMD cores, and
//! it was slower for every kernel. From a slice of shapes, the gather loads a whole
//! record per lane instead. An [`Aabb`](crate::Aabb) or a [`Ray`](crate::Ray) is one
//! 16-byte load and a transpose. This makes the cheap kernels faster. The narrow-phase
//! tables in `BENCHMARKS.md` measure both inputs. The batch checks a chunk's indices
//! once, so the gathers themselves carry no bounds checks.

pub mod batch;
pub mod columns;
pub mod scalar;
pub mod wide;

pub use batch::{NarrowConfig, NarrowPhase, PairMtv2, PairMtv3, PairSweep};
pub use wide::{F32W, MaskW, PortableW};

use glam::{Vec2, Vec3};

/// The `ε` added to `|R|` in the edge–edge axes of the 3D separating-axis test. Each
/// radius grows by `ε` times the box's half extents. See
/// [`overlap_obb3_obb3`](scalar::overlap_obb3_obb3).
pub const SAT_EPSILON: f32 = 1.0e-5;

/// How a swept test ended. [`sweep_aabb_aabb`](fn@scalar::sweep_aabb_aabb) gives the
/// exact rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum SweepStatus {
    /// No contact during the frame, or a NaN or infinite input.
    #[default]
    Miss = 0,
    /// First contact at time `t ∈ [0, 1]`.
    Hit = 1,
    /// Already in contact when the frame began.
    ///
    /// Touching counts as contact. But when the shapes touch and the motion pushes one
    /// into the other, the test reports a hit at `t = 0` instead.
    Overlapping = 2,
}

/// The answer of a swept test.
///
/// The swept tests are [`sweep_aabb_aabb`](fn@scalar::sweep_aabb_aabb),
/// [`sweep_circle_circle`](fn@scalar::sweep_circle_circle),
/// [`cast_point_aabb`](scalar::cast_point_aabb),
/// [`sweep_obb2_obb2`](fn@scalar::sweep_obb2_obb2),
/// [`sweep_aabb_obb2`](fn@scalar::sweep_aabb_obb2),
/// [`sweep_aabb_circle`](fn@scalar::sweep_aabb_circle),
/// [`sweep_circle_obb2`](fn@scalar::sweep_circle_obb2) and the capsule sweeps
/// ([`sweep_capsule_capsule`](fn@scalar::sweep_capsule_capsule) and its siblings). The
/// table below gives the
/// fields for two axis-aligned boxes. For other shapes, the normal is a unit vector
/// that points toward `a`:
///
/// - For two discs, it points from `b`'s center to `a`'s at contact. The stop places `a`
///   along it, just past touching.
/// - For a box and a disc, it is `b`'s outward normal at the contact. That is a face's
///   axis, or the direction from the corner or from the disc's center at a rounded
///   contact.
/// - For oriented boxes, it is the separating axis that closed last. The stop is `t·v`,
///   backed off along it.
/// - For a capsule, it is the outward normal of the shapes' Minkowski difference at the
///   contact: an edge's normal, or the direction from a vertex. The stop is `t·v`,
///   backed off along it.
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
    /// A hit, already overlapping, or a miss.
    pub status: SweepStatus,
    /// The time of impact, as a fraction of the frame.
    pub t: f32,
    /// The normal of the face of `b` that was hit, pointing toward `a`.
    ///
    /// Between two axis-aligned boxes it is `(±1, 0)` or `(0, ±1)`. Both components are
    /// set for an exact corner hit.
    pub normal: Vec2,
    /// The displacement of `a` relative to `b` that stops it flush at contact, with no
    /// penetration. It is computed per axis.
    pub stop: Vec2,
}

impl Sweep {
    /// Whether the status is [`SweepStatus::Hit`].
    #[inline]
    #[must_use]
    pub fn is_hit(&self) -> bool {
        self.status == SweepStatus::Hit
    }

    /// Whether this is a hit on both axes at once, which is an exact corner hit.
    #[inline]
    #[must_use]
    pub fn is_corner(&self) -> bool {
        self.normal.x != 0.0 && self.normal.y != 0.0
    }
}

/// The minimum translation vector of two overlapping 2D oriented boxes.
///
/// Moving `a` by `-normal * depth`, or `b` by `+normal * depth`, leaves them touching.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mtv2 {
    /// The unit axis of least overlap, pointing from `a` toward `b`.
    pub normal: Vec2,
    /// How deep the boxes overlap along `normal`. It is `>= 0`, and `0` when they only
    /// touch.
    pub depth: f32,
    /// Which axis: 0 and 1 are `a`'s x and y, 2 and 3 are `b`'s x and y.
    pub axis: u8,
}

/// The minimum translation vector of two overlapping 3D oriented boxes.
///
/// Moving `a` by `-normal * depth`, or `b` by `+normal * depth`, leaves them touching.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mtv3 {
    /// The unit axis of least overlap, pointing from `a` toward `b`.
    pub normal: Vec3,
    /// How deep the boxes overlap along `normal`. It is `>= 0`.
    pub depth: f32,
    /// Which axis: `i` for `a.axes[i]`, `3 + j` for `b.axes[j]`, and `6 + 3i + j` for
    /// `a.axes[i] × b.axes[j]`.
    pub axis: u8,
}

#[cfg(test)]
mod tests;
