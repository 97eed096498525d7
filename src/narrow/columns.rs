//! What the batch kernels read: structure-of-arrays columns, or slices of shapes.
//!
//! ```text
//!  AabbColumns            index i = one box          pairs from the broad phase
//!  min_x [ f32 f32 f32 f32 ... ]                     [ (a, b) (a, b) ... ]
//!  min_y [ f32 f32 f32 f32 ... ]   ◄── gathered ──        │ indices into the columns
//!  max_x [ f32 f32 f32 f32 ... ]       8 pairs per step ◄─┘
//!  max_y [ f32 f32 f32 f32 ... ]
//!
//!  &[Aabb]   [ min_x min_y max_x max_y | min_x min_y max_x max_y | ... ]
//!              one record per box, gathered whole (one load) and transposed to lanes
//! ```
//!
//! Each shape has a borrowed view (`*Columns`: one `&[f32]` per field, e.g. straight from
//! a [`BoxStore`]) and an owned twin (`*Soa`, built from a slice of shapes). A view's
//! columns must all have the same length: [`AabbColumns::new`] and friends check it, and
//! the batch entry points check it again (the fields are public), answering
//! [`Error::LengthMismatch`].
//!
//! Every batch entry point of [`NarrowPhase`](super::NarrowPhase) takes its shapes as an
//! input trait ([`AabbInput`], [`CircleInput`], [`RayInput`], [`MotionInput`],
//! [`Obb2Input`], [`Obb3Input`]), implemented by the column view and by a plain slice of
//! the shapes (`&[Aabb]`, `&[Circle]`, `&[Ray]`, `&[Vec2]`, `&[Obb2]`, `&[Obb3]`). Both
//! give the same answers, bit for bit. Records are the faster input where the shapes
//! already live in an array of structs: the SIMD gather loads a whole record at once
//! instead of one `f32` per field (with AVX2, an [`Aabb`] or a [`Ray`] is one 16-byte
//! load per lane instead of four 4-byte ones); columns are the faster input where the
//! data already lives in columns, such as a [`BoxStore`], since converting first would
//! cost a pass over the shapes.

use crate::error::{Error, check_count, check_len};
use crate::lanes::{F32W, LANES};
use crate::math::{Aabb, Circle, Obb2, Obb3, Ray};
use crate::store::BoxStore;
use glam::{Vec2, Vec3};

mod sealed {
    /// Only this crate implements [`ShapeInput`](super::ShapeInput).
    pub trait Sealed {}
}

/// Shapes a batch reads, as `N` `f32` fields each: a column view or a slice of the shapes.
///
/// Sealed: implemented by every `*Columns` view and by `&[Aabb]`, `&[Circle]`,
/// `&[Ray]`, `&[Vec2]`, `&[Obb2]` and `&[Obb3]`. The batch entry points name it through
/// one trait per shape ([`AabbInput`] and friends).
pub trait ShapeInput<const N: usize>: Copy + Sync + sealed::Sealed {
    /// The shape.
    type Shape: Copy;
    /// The number of shapes.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] when a column view's columns differ in length;
    /// [`Error::TooManyBoxes`] for more than [`crate::MAX_BOXES`] shapes (every batch
    /// refuses such an input before it reads a pair, at every SIMD level).
    fn checked_len(&self) -> Result<usize, Error>;
    /// The shape at index `i`.
    ///
    /// # Panics
    /// If `i` is out of range.
    fn shape(&self, i: usize) -> Self::Shape;
    /// The fields of shapes `idx[0..8]` in lanes: lane `j` of result `k` is field `k`
    /// of shape `idx[j]`.
    ///
    /// # Safety
    /// Every `idx[j]` must be below the length of every column (of the slice).
    #[doc(hidden)]
    unsafe fn gather_unchecked<W: F32W>(&self, idx: &[u32; LANES]) -> [W; N];
    /// Whether [`ShapeInput::gather_padded_unchecked`] is faster than
    /// [`ShapeInput::gather_unchecked`] (circle records: with AVX2, each is then
    /// gathered in one 16-byte load).
    #[doc(hidden)]
    const PADS: bool = false;
    /// [`ShapeInput::gather_unchecked`] where shape `idx[j] + 1` exists too. Same
    /// result.
    ///
    /// # Safety
    /// Every `idx[j] + 1` must be below the length of every column (of the slice).
    #[doc(hidden)]
    #[inline(always)]
    unsafe fn gather_padded_unchecked<W: F32W>(&self, idx: &[u32; LANES]) -> [W; N] {
        // SAFETY: a stronger contract than `gather_unchecked`'s.
        unsafe { self.gather_unchecked(idx) }
    }
}

macro_rules! input_trait {
    ($(#[$doc:meta])* $name:ident, $n:literal, $shape:ty) => {
        $(#[$doc])*
        pub trait $name: ShapeInput<$n, Shape = $shape> {}
        impl<T: ShapeInput<$n, Shape = $shape>> $name for T {}
    };
}

input_trait! {
    /// Boxes for a batch: [`AabbColumns`] (e.g. [`AabbColumns::from_store`]) or `&[Aabb]`.
    AabbInput, 4, Aabb
}
input_trait! {
    /// Circles for a batch: [`CircleColumns`] or `&[Circle]`.
    CircleInput, 3, Circle
}
input_trait! {
    /// Moving points for a batch: [`RayColumns`] or `&[Ray]`.
    RayInput, 4, Ray
}
input_trait! {
    /// Per-frame displacements for a batch: [`MotionColumns`] or `&[Vec2]`.
    MotionInput, 2, Vec2
}
input_trait! {
    /// 2D oriented boxes for a batch: [`Obb2Columns`] or `&[Obb2]`.
    Obb2Input, 6, Obb2
}
input_trait! {
    /// 3D oriented boxes for a batch: [`Obb3Columns`] or `&[Obb3]`.
    Obb3Input, 15, Obb3
}

/// A slice of shapes as an input: each shape is a record of `$n` `f32`, in the order of
/// the lane type's `from_lanes` (asserted at compile time by size; the field order is
/// that of the `*Columns` view, checked by the tests).
macro_rules! records {
    ($shape:ty, $n:literal) => {
        const _: () = assert!(core::mem::size_of::<$shape>() == 4 * $n);
        impl sealed::Sealed for &[$shape] {}
        impl ShapeInput<$n> for &[$shape] {
            type Shape = $shape;
            fn checked_len(&self) -> Result<usize, Error> {
                check_count(self.len())?;
                Ok(self.len())
            }
            #[inline]
            fn shape(&self, i: usize) -> $shape {
                self[i]
            }
            #[inline(always)]
            unsafe fn gather_unchecked<W: F32W>(&self, idx: &[u32; LANES]) -> [W; $n] {
                let recs: &[[f32; $n]] = bytemuck::cast_slice(self);
                // SAFETY: as many records as shapes; every index is in range (the
                // caller's contract).
                unsafe { W::gather_records_unchecked(recs, idx) }
            }
            // Circles only, as measured (criterion, records, AVX2, 64k pairs): circles
            // 59 -> 43.5 us, box-circle 51 -> 45.5; the 3D boxes (15 fields) not faster.
            const PADS: bool = $n == 3;
            #[inline(always)]
            unsafe fn gather_padded_unchecked<W: F32W>(&self, idx: &[u32; LANES]) -> [W; $n] {
                let recs: &[[f32; $n]] = bytemuck::cast_slice(self);
                // SAFETY: as many records as shapes; every index and the next are in
                // range (the caller's contract).
                unsafe { W::gather_records_padded_unchecked(recs, idx) }
            }
        }
    };
}

records!(Aabb, 4);
records!(Circle, 3);
records!(Ray, 4);
records!(Vec2, 2);
records!(Obb2, 6);
records!(Obb3, 15);

macro_rules! columns {
    (
        $(#[$cdoc:meta])* $cols:ident,
        $(#[$sdoc:meta])* $soa:ident,
        $shape:ty,
        { $($f:ident),+ $(,)? },
        |$s:ident| [$($get:expr),+ $(,)?],
        |$($g:ident),+| $build:expr
    ) => {
        $(#[$cdoc])*
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct $cols<'a> {
            $(
                #[doc = concat!("The `", stringify!($f), "` column.")]
                pub $f: &'a [f32],
            )+
        }

        impl<'a> $cols<'a> {
            /// A view over the given columns.
            ///
            /// # Errors
            /// [`Error::LengthMismatch`] when a column's length differs from the first
            /// one's; [`Error::TooManyBoxes`] for more than [`crate::MAX_BOXES`] shapes.
            #[allow(clippy::too_many_arguments)]
            pub fn new($($f: &'a [f32]),+) -> Result<Self, Error> {
                let c = Self { $($f),+ };
                c.checked_len()?;
                Ok(c)
            }

            /// The number of shapes (the length of the first column).
            #[must_use]
            pub fn len(&self) -> usize {
                [$(self.$f.len()),+][0]
            }

            /// Every column, in field order (the order of the lane type's `from_lanes`).
            #[must_use]
            #[inline(always)]
            pub(crate) fn slices(&self) -> [&'a [f32]; [$(stringify!($f)),+].len()] {
                [$(self.$f),+]
            }

            /// Whether there are no shapes.
            #[must_use]
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }

            /// The shape at index `i`.
            ///
            /// # Panics
            /// If `i` is out of range of a column.
            #[must_use]
            #[inline]
            pub fn get(&self, i: usize) -> $shape {
                let ($($g),+) = ($(self.$f[i]),+);
                $build
            }
        }

        impl sealed::Sealed for $cols<'_> {}

        impl ShapeInput<{ [$(stringify!($f)),+].len() }> for $cols<'_> {
            type Shape = $shape;
            fn checked_len(&self) -> Result<usize, Error> {
                let lens = [$((concat!(stringify!($cols), ".", stringify!($f)), self.$f.len())),+];
                for &(what, len) in &lens[1..] {
                    check_len(what, lens[0].1, len)?;
                }
                check_count(lens[0].1)?;
                Ok(lens[0].1)
            }
            #[inline]
            fn shape(&self, i: usize) -> $shape {
                self.get(i)
            }
            #[inline(always)]
            unsafe fn gather_unchecked<W: F32W>(
                &self,
                idx: &[u32; LANES],
            ) -> [W; [$(stringify!($f)),+].len()] {
                // SAFETY: every index is in range of every column (the caller's contract).
                unsafe { W::gather_columns_unchecked(self.slices(), idx) }
            }
        }

        $(#[$sdoc])*
        #[derive(Debug, Clone, Default, PartialEq)]
        pub struct $soa {
            $(
                #[doc = concat!("The `", stringify!($f), "` column.")]
                pub $f: Vec<f32>,
            )+
        }

        impl $soa {
            /// Appends one shape.
            pub fn push(&mut self, shape: &$shape) {
                let $s = shape;
                $(self.$f.push($get);)+
            }

            /// The borrowed view of every column.
            #[must_use]
            pub fn columns(&self) -> $cols<'_> {
                $cols { $($f: &self.$f),+ }
            }
        }

        impl From<&[$shape]> for $soa {
            fn from(shapes: &[$shape]) -> Self {
                let mut soa = Self::default();
                for s in shapes {
                    soa.push(s);
                }
                soa
            }
        }
    };
}

columns! {
    /// Boxes as four columns: `min_x`, `min_y`, `max_x`, `max_y` (the [`BoxStore`]
    /// layout).
    AabbColumns,
    /// Owned [`AabbColumns`].
    AabbSoa,
    Aabb,
    { min_x, min_y, max_x, max_y },
    |s| [s.min.x, s.min.y, s.max.x, s.max.y],
    |min_x, min_y, max_x, max_y| Aabb::from_coords(min_x, min_y, max_x, max_y)
}

columns! {
    /// Per-frame displacements as two columns, `x` and `y` (the [`BoxStore`] motion
    /// columns).
    MotionColumns,
    /// Owned [`MotionColumns`].
    MotionSoa,
    Vec2,
    { x, y },
    |s| [s.x, s.y],
    |x, y| Vec2::new(x, y)
}

columns! {
    /// Circles as three columns: `x`, `y` (the center) and `radius`.
    CircleColumns,
    /// Owned [`CircleColumns`].
    CircleSoa,
    Circle,
    { x, y, radius },
    |s| [s.center.x, s.center.y, s.radius],
    |x, y, radius| Circle::new(Vec2::new(x, y), radius)
}

columns! {
    /// Moving points as four columns: `origin_x`, `origin_y`, `motion_x`, `motion_y`.
    RayColumns,
    /// Owned [`RayColumns`].
    RaySoa,
    Ray,
    { origin_x, origin_y, motion_x, motion_y },
    |s| [s.origin.x, s.origin.y, s.motion.x, s.motion.y],
    |ox, oy, mx, my| Ray::new(Vec2::new(ox, oy), Vec2::new(mx, my))
}

columns! {
    /// 2D oriented boxes as six columns: center, unit x axis, half extents.
    Obb2Columns,
    /// Owned [`Obb2Columns`].
    Obb2Soa,
    Obb2,
    { center_x, center_y, axis_x, axis_y, half_x, half_y },
    |s| [s.center.x, s.center.y, s.axis.x, s.axis.y, s.half_extents.x, s.half_extents.y],
    |cx, cy, ax, ay, hx, hy| Obb2::new(Vec2::new(cx, cy), Vec2::new(ax, ay), Vec2::new(hx, hy))
}

columns! {
    /// 3D oriented boxes as fifteen columns: center, the three axes (`axis0_x` is the x
    /// component of `axes[0]`), half extents.
    Obb3Columns,
    /// Owned [`Obb3Columns`].
    Obb3Soa,
    Obb3,
    {
        center_x, center_y, center_z,
        axis0_x, axis0_y, axis0_z,
        axis1_x, axis1_y, axis1_z,
        axis2_x, axis2_y, axis2_z,
        half_x, half_y, half_z,
    },
    |s| [
        s.center.x, s.center.y, s.center.z,
        s.axes[0].x, s.axes[0].y, s.axes[0].z,
        s.axes[1].x, s.axes[1].y, s.axes[1].z,
        s.axes[2].x, s.axes[2].y, s.axes[2].z,
        s.half_extents.x, s.half_extents.y, s.half_extents.z,
    ],
    |cx, cy, cz, a0x, a0y, a0z, a1x, a1y, a1z, a2x, a2y, a2z, hx, hy, hz| Obb3::new(
        Vec3::new(cx, cy, cz),
        [Vec3::new(a0x, a0y, a0z), Vec3::new(a1x, a1y, a1z), Vec3::new(a2x, a2y, a2z)],
        Vec3::new(hx, hy, hz),
    )
}

impl<'a> AabbColumns<'a> {
    /// The box columns of a store (dense indices, as the broad phase's pairs).
    #[must_use]
    pub fn from_store(store: &'a BoxStore) -> Self {
        Self {
            min_x: store.min_x(),
            min_y: store.min_y(),
            max_x: store.max_x(),
            max_y: store.max_y(),
        }
    }
}

impl<'a> MotionColumns<'a> {
    /// The motion columns of a store.
    #[must_use]
    pub fn from_store(store: &'a BoxStore) -> Self {
        Self {
            x: store.motion_x(),
            y: store.motion_y(),
        }
    }
}
