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
//! Each shape has two column types:
//! - A borrowed view, named `*Columns`. It holds one `&[f32]` per field. For example,
//!   you can take one straight from a [`BoxStore`](crate::BoxStore).
//! - An owned twin, named `*Soa`. You build it from a slice of shapes.
//!
//! All columns of a view must have the same length. [`AabbColumns::new`] and the other
//! constructors check this. The fields are public, so the batch entry points check it
//! again. Both return [`Error::LengthMismatch`] when the lengths differ.
//!
//! Every batch entry point of [`NarrowPhase`](super::NarrowPhase) takes its shapes
//! through an input trait. There is one trait per shape: [`AabbInput`], [`CircleInput`],
//! [`CapsuleInput`], [`RayInput`], [`MotionInput`], [`Obb2Input`] and [`Obb3Input`].
//! Each trait is implemented by the column view and by a plain slice of the shapes. The
//! slices are `&[Aabb]`, `&[Circle]`, `&[Capsule]`, `&[Ray]`, `&[Vec2]`, `&[Obb2]` and
//! `&[Obb3]`. Both inputs give
//! the same answers, bit for bit.
//!
//! Pick the input that matches where your data already lives:
//! - If the shapes live in an array of structs, pass the slice. The SIMD gather then
//!   loads a whole record at once, instead of one `f32` per field. With AVX2, an
//!   [`Aabb`] or a [`Ray`] takes one 16-byte load per lane instead of four 4-byte loads.
//! - If the data lives in columns, as in a [`BoxStore`](crate::BoxStore), pass the
//!   columns. Converting them first would cost a pass over the shapes.

use crate::error::{Error, check_count};
use crate::lanes::{F32W, LANES};
use crate::math::{Aabb, Capsule, Circle, Obb2, Obb3, Ray};
use glam::Vec2;

// The views and their owned twins are plain data a level down (`math::columns`), so
// that the store can hand out its columns as views without the narrow phase knowing
// the store; their public paths are these.
pub use crate::math::{
    AabbColumns, AabbSoa, CapsuleColumns, CapsuleSoa, CircleColumns, CircleSoa, MotionColumns,
    MotionSoa, Obb2Columns, Obb2Soa, Obb3Columns, Obb3Soa, RayColumns, RaySoa,
};

mod sealed {
    /// Only this crate implements [`ShapeInput`](super::ShapeInput).
    pub trait Sealed {}
}

/// The shapes a batch reads, each as `N` `f32` fields.
///
/// The input is a column view or a slice of the shapes. This trait is sealed. Every
/// `*Columns` view implements it, and so do `&[Aabb]`, `&[Circle]`, `&[Capsule]`,
/// `&[Ray]`, `&[Vec2]`, `&[Obb2]` and `&[Obb3]`. The batch entry points name it through one trait per shape,
/// such as [`AabbInput`].
pub trait ShapeInput<const N: usize>: Copy + Sync + sealed::Sealed {
    /// The shape.
    type Shape: Copy;
    /// The number of shapes.
    ///
    /// # Errors
    /// - [`Error::LengthMismatch`] when the columns of a view differ in length.
    /// - [`Error::TooManyBoxes`] when there are more than
    ///   [`MAX_BOXES`](crate::MAX_BOXES) shapes. Every batch refuses such an input before
    ///   it reads a pair, at every SIMD level.
    fn checked_len(&self) -> Result<usize, Error>;
    /// The shape at index `i`.
    ///
    /// # Panics
    /// Panics if `i` is out of range.
    fn shape(&self, i: usize) -> Self::Shape;
    /// Returns the fields of shapes `idx[0..8]` in lanes.
    ///
    /// Lane `j` of result `k` is field `k` of shape `idx[j]`.
    ///
    /// # Safety
    /// Every `idx[j]` must be below the length of every column (of the slice).
    #[doc(hidden)]
    unsafe fn gather_unchecked<W: F32W>(&self, idx: &[u32; LANES]) -> [W; N];
    /// Whether [`ShapeInput::gather_padded_unchecked`] is faster than
    /// [`ShapeInput::gather_unchecked`].
    ///
    /// This is true for circle records. With AVX2, each record is then gathered in one
    /// 16-byte load.
    #[doc(hidden)]
    const PADS: bool = false;
    /// Works like [`ShapeInput::gather_unchecked`] when shape `idx[j] + 1` exists too.
    ///
    /// It returns the same result.
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
    /// Boxes for a batch: [`AabbColumns`] or `&[Aabb]`.
    ///
    /// For example, [`AabbColumns::from_store`] gives a view of a store's boxes.
    AabbInput, 4, Aabb
}
input_trait! {
    /// Circles for a batch: [`CircleColumns`] or `&[Circle]`.
    CircleInput, 3, Circle
}
input_trait! {
    /// Capsules for a batch: [`CapsuleColumns`] or `&[Capsule]`.
    CapsuleInput, 5, Capsule
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

/// Makes a slice of shapes an input.
///
/// Each shape is a record of `$n` `f32` fields, in the order of the lane type's
/// `from_lanes`. A compile-time assertion checks the size. The field order is that of the
/// `*Columns` view, and the tests check it.
macro_rules! records {
    ($shape:ty, $n:literal) => {
        records!($shape, $n, bytemuck::cast_slice);
    };
    ($shape:ty, $n:literal, $cast:path) => {
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
                let recs: &[[f32; $n]] = $cast(self);
                // SAFETY: as many records as shapes; every index is in range (the
                // caller's contract).
                unsafe { W::gather_records_unchecked(recs, idx) }
            }
            // Circles only, as measured (criterion, records, AVX2, 64k pairs): circles
            // 59 -> 43.5 us, box-circle 51 -> 45.5; the 3D boxes (15 fields) not faster.
            const PADS: bool = $n == 3;
            #[inline(always)]
            unsafe fn gather_padded_unchecked<W: F32W>(&self, idx: &[u32; LANES]) -> [W; $n] {
                let recs: &[[f32; $n]] = $cast(self);
                // SAFETY: as many records as shapes; every index and the next are in
                // range (the caller's contract).
                unsafe { W::gather_records_padded_unchecked(recs, idx) }
            }
        }
    };
}

records!(Aabb, 4);
records!(Circle, 3);
records!(Capsule, 5);
records!(Ray, 4);
records!(Vec2, 2, crate::math::vec2_records);
records!(Obb2, 6);
records!(Obb3, 15);

/// Makes a column view an input.
///
/// Shape `i` is [`get`](AabbColumns::get)`(i)`. The fields of eight shapes are gathered
/// from one column each.
macro_rules! columns {
    ($cols:ident, $n:literal, $shape:ty) => {
        impl sealed::Sealed for $cols<'_> {}

        impl ShapeInput<$n> for $cols<'_> {
            type Shape = $shape;
            fn checked_len(&self) -> Result<usize, Error> {
                self.lengths()
            }
            #[inline]
            fn shape(&self, i: usize) -> $shape {
                self.get(i)
            }
            #[inline(always)]
            unsafe fn gather_unchecked<W: F32W>(&self, idx: &[u32; LANES]) -> [W; $n] {
                // SAFETY: every index is in range of every column (the caller's contract).
                unsafe { W::gather_columns_unchecked(self.slices(), idx) }
            }
        }
    };
}

columns!(AabbColumns, 4, Aabb);
columns!(MotionColumns, 2, Vec2);
columns!(CircleColumns, 3, Circle);
columns!(CapsuleColumns, 5, Capsule);
columns!(RayColumns, 4, Ray);
columns!(Obb2Columns, 6, Obb2);
columns!(Obb3Columns, 15, Obb3);
