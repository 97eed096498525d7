//! Shapes as structure-of-arrays columns.
//!
//! Each shape has a borrowed view, named `*Columns`, with one `&[f32]` per field. Each
//! view has an owned twin, named `*Soa`.
//!
//! These types are plain data that sit below the store and the narrow phase. The store
//! hands out its box and motion columns as views. It does so through
//! `AabbColumns::from_store` and `MotionColumns::from_store`, in `store`. The narrow
//! phase's batches read any view through their input trait, `ShapeInput`. That trait is
//! implemented in `narrow::columns`. The public paths of these types are there too, such
//! as `hantei::narrow::columns::AabbColumns`.

use super::{Aabb, Capsule, Circle, Obb2, Obb3, Ray};
use crate::error::{Error, check_count, check_len};
use glam::{Vec2, Vec3};

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
            /// Creates a view over the given columns.
            ///
            /// # Errors
            /// - [`Error::LengthMismatch`] when a column's length differs from the
            ///   length of the first column.
            /// - [`Error::TooManyBoxes`] when there are more than
            ///   [`MAX_BOXES`](crate::MAX_BOXES) shapes.
            #[allow(clippy::too_many_arguments)]
            pub fn new($($f: &'a [f32]),+) -> Result<Self, Error> {
                let c = Self { $($f),+ };
                c.lengths()?;
                Ok(c)
            }

            /// Returns the number of shapes. This is the length of the first column.
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

            /// The number of shapes, once every column is known to have it.
            ///
            /// # Errors
            /// - [`Error::LengthMismatch`] when a column's length differs from the
            ///   length of the first column.
            /// - [`Error::TooManyBoxes`] when there are more than
            ///   [`MAX_BOXES`](crate::MAX_BOXES) shapes.
            pub(crate) fn lengths(&self) -> Result<usize, Error> {
                let lens = [$((concat!(stringify!($cols), ".", stringify!($f)), self.$f.len())),+];
                for &(what, len) in &lens[1..] {
                    check_len(what, lens[0].1, len)?;
                }
                check_count(lens[0].1)?;
                Ok(lens[0].1)
            }

            /// The shape at index `i`.
            ///
            /// # Panics
            /// Panics if `i` is out of range of a column.
            #[must_use]
            #[inline]
            pub fn get(&self, i: usize) -> $shape {
                let ($($g),+) = ($(self.$f[i]),+);
                $build
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
    /// Boxes as four columns: `min_x`, `min_y`, `max_x` and `max_y`.
    ///
    /// This is the layout of a [`BoxStore`](crate::BoxStore).
    AabbColumns,
    /// Owned [`AabbColumns`].
    AabbSoa,
    Aabb,
    { min_x, min_y, max_x, max_y },
    |s| [s.min.x, s.min.y, s.max.x, s.max.y],
    |min_x, min_y, max_x, max_y| Aabb::from_coords(min_x, min_y, max_x, max_y)
}

columns! {
    /// Per-frame displacements as two columns, `x` and `y`.
    ///
    /// These are the motion columns of a [`BoxStore`](crate::BoxStore).
    MotionColumns,
    /// Owned [`MotionColumns`].
    MotionSoa,
    Vec2,
    { x, y },
    |s| [s.x, s.y],
    |x, y| Vec2::new(x, y)
}

columns! {
    /// Circles as three columns: the center `x` and `y`, and the `radius`.
    CircleColumns,
    /// Owned [`CircleColumns`].
    CircleSoa,
    Circle,
    { x, y, radius },
    |s| [s.center.x, s.center.y, s.radius],
    |x, y, radius| Circle::new(Vec2::new(x, y), radius)
}

columns! {
    /// Capsules as five columns: the ends `a_x`, `a_y`, `b_x`, `b_y`, and the `radius`.
    CapsuleColumns,
    /// Owned [`CapsuleColumns`].
    CapsuleSoa,
    Capsule,
    { a_x, a_y, b_x, b_y, radius },
    |s| [s.a.x, s.a.y, s.b.x, s.b.y, s.radius],
    |ax, ay, bx, by, radius| Capsule::new(Vec2::new(ax, ay), Vec2::new(bx, by), radius)
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
    /// 3D oriented boxes as fifteen columns: the center, the three axes, and the half
    /// extents.
    ///
    /// For example, `axis0_x` is the x component of `axes[0]`.
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
