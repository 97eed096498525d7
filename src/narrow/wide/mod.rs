//! The lane-batched kernels: eight pairs per call, same names and same answers as
//! [`crate::narrow::scalar`], bit for bit.
//!
//! Every kernel is generic over the lane type [`F32W`]: instantiate it with [`PortableW`]
//! (`wide::f32x8`, compiled for the build's target) to call it directly, or go through
//! [`NarrowPhase`](crate::narrow::NarrowPhase), which also runs the AVX2 flavour.
//!
//! ```text
//!  lane:        0     1     2  …  7          one pair per lane
//!  AabbW.min_x [ a0.x  a1.x  a2.x … a7.x ]    (W: eight f32)
//!  AabbW.min_y [ … ]
//!  result mask [ 1     0     1  …  0    ]    comparisons give a mask, never a branch
//! ```
//!
//! The kernels never branch per lane: both sides of every choice are computed and
//! `select`ed, so the scalar kernel's early exits become masks, and a division whose
//! divisor could be zero divides by `1` in that lane and discards the quotient. Lane
//! types end in `W`; each has `splat` (one shape in every lane), `from_array` and
//! `gather` (lane `i` from index `idx[i]` of SoA [`columns`](crate::narrow::columns)), and
//! each result type has `lane(i)`, which gives the scalar kernel's answer type.
//!
//! All functions here are `#[inline(always)]`: that is what lets the AVX2 instantiation
//! compile to 256-bit instructions inside the dispatcher's `#[target_feature]` function.

mod aabb_aabb;
mod aabb_circle;
mod circle_circle;
mod obb2_obb2;
mod obb3_obb3;
mod ray_aabb;
mod rounded_polygon;
mod sweep_aabb_aabb;
mod sweep_aabb_circle;
mod sweep_aabb_obb2;
mod sweep_capsule_aabb;
mod sweep_capsule_capsule;
mod sweep_capsule_circle;
mod sweep_capsule_obb2;
mod sweep_circle_circle;
mod sweep_circle_obb2;
mod sweep_obb2_obb2;

pub use crate::lanes::{F32W, LANES, MaskW, PortableW};
pub use aabb_aabb::overlap_aabb_aabb;
pub use aabb_circle::overlap_aabb_circle;
pub use circle_circle::overlap_circle_circle;
pub use obb2_obb2::overlap_obb2_obb2;
pub use obb3_obb3::overlap_obb3_obb3;
pub use ray_aabb::cast_point_aabb;
pub use sweep_aabb_aabb::sweep_aabb_aabb;
pub use sweep_aabb_circle::sweep_aabb_circle;
pub use sweep_aabb_obb2::sweep_aabb_obb2;
pub use sweep_capsule_aabb::sweep_capsule_aabb;
pub use sweep_capsule_capsule::sweep_capsule_capsule;
pub use sweep_capsule_circle::sweep_capsule_circle;
pub use sweep_capsule_obb2::sweep_capsule_obb2;
pub use sweep_circle_circle::sweep_circle_circle;
pub use sweep_circle_obb2::sweep_circle_obb2;
pub use sweep_obb2_obb2::sweep_obb2_obb2;

use crate::math::{Aabb, Capsule, Circle, Obb2, Obb3, Ray};
use crate::narrow::columns::{
    AabbColumns, CapsuleColumns, CircleColumns, MotionColumns, Obb2Columns, Obb3Columns, RayColumns,
};
use crate::narrow::{Mtv2, Mtv3, Sweep, SweepStatus};
use glam::{Vec2, Vec3};

/// Whether every value is finite, lane by lane: `Σ x·0 == 0` (see
/// `scalar::all_finite`).
#[inline(always)]
pub(crate) fn all_finite<W: F32W, const N: usize>(xs: [W; N]) -> W::Mask {
    let zero = W::splat(0.0);
    let mut sum = xs[0] * zero;
    for &x in &xs[1..] {
        sum = sum + x * zero;
    }
    sum.eq(zero)
}

/// Lane `i` of a mask.
#[inline(always)]
fn bit<M: MaskW>(m: M, i: usize) -> bool {
    m.bitmask() >> i & 1 == 1
}

/// Lane `i` of `w`.
#[inline(always)]
fn at<W: F32W>(w: W, i: usize) -> f32 {
    w.to_array()[i]
}

/// One column gathered by `idx`, or eight lanes from an array of shapes.
#[inline(always)]
fn lanes<W: F32W, S>(shapes: &[S; LANES], f: impl Fn(&S) -> f32) -> W {
    W::from_array(core::array::from_fn(|i| f(&shapes[i])))
}

/// Eight 2D vectors.
#[derive(Debug, Clone, Copy)]
pub struct Vec2W<W> {
    /// The x lanes.
    pub x: W,
    /// The y lanes.
    pub y: W,
}

impl<W: F32W> Vec2W<W> {
    /// `v` in every lane.
    #[inline(always)]
    #[must_use]
    pub fn splat(v: Vec2) -> Self {
        Self {
            x: W::splat(v.x),
            y: W::splat(v.y),
        }
    }

    /// Lane `i` is `v[i]`.
    #[inline(always)]
    #[must_use]
    pub fn from_array(v: &[Vec2; LANES]) -> Self {
        Self {
            x: lanes(v, |p| p.x),
            y: lanes(v, |p| p.y),
        }
    }

    /// Lane `i` is motion `idx[i]`.
    ///
    /// # Panics
    /// If an index is out of range.
    #[inline(always)]
    #[must_use]
    pub fn gather(cols: &MotionColumns<'_>, idx: &[u32; LANES]) -> Self {
        Self::from_lanes(W::gather_columns(cols.slices(), idx))
    }

    /// From the lanes of [`MotionColumns`]' columns, in field order.
    #[inline(always)]
    pub(crate) fn from_lanes([x, y]: [W; 2]) -> Self {
        Self { x, y }
    }

    /// Lane `i`.
    #[must_use]
    pub fn lane(&self, i: usize) -> Vec2 {
        Vec2::new(at(self.x, i), at(self.y, i))
    }
}

/// Eight 3D vectors.
#[derive(Debug, Clone, Copy)]
pub struct Vec3W<W> {
    /// The x lanes.
    pub x: W,
    /// The y lanes.
    pub y: W,
    /// The z lanes.
    pub z: W,
}

impl<W: F32W> Vec3W<W> {
    /// `v` in every lane.
    #[inline(always)]
    #[must_use]
    pub fn splat(v: Vec3) -> Self {
        Self {
            x: W::splat(v.x),
            y: W::splat(v.y),
            z: W::splat(v.z),
        }
    }

    /// Lane `i` is `v[i]`.
    #[inline(always)]
    #[must_use]
    pub fn from_array(v: &[Vec3; LANES]) -> Self {
        Self {
            x: lanes(v, |p| p.x),
            y: lanes(v, |p| p.y),
            z: lanes(v, |p| p.z),
        }
    }

    /// Lane `i`.
    #[must_use]
    pub fn lane(&self, i: usize) -> Vec3 {
        Vec3::new(at(self.x, i), at(self.y, i), at(self.z, i))
    }
}

/// Eight axis-aligned boxes.
#[derive(Debug, Clone, Copy)]
pub struct AabbW<W> {
    /// The `min.x` lanes.
    pub min_x: W,
    /// The `min.y` lanes.
    pub min_y: W,
    /// The `max.x` lanes.
    pub max_x: W,
    /// The `max.y` lanes.
    pub max_y: W,
}

impl<W: F32W> AabbW<W> {
    /// `b` in every lane.
    #[inline(always)]
    #[must_use]
    pub fn splat(b: &Aabb) -> Self {
        Self {
            min_x: W::splat(b.min.x),
            min_y: W::splat(b.min.y),
            max_x: W::splat(b.max.x),
            max_y: W::splat(b.max.y),
        }
    }

    /// Lane `i` is `b[i]`.
    #[inline(always)]
    #[must_use]
    pub fn from_array(b: &[Aabb; LANES]) -> Self {
        Self {
            min_x: lanes(b, |s| s.min.x),
            min_y: lanes(b, |s| s.min.y),
            max_x: lanes(b, |s| s.max.x),
            max_y: lanes(b, |s| s.max.y),
        }
    }

    /// Lane `i` is box `idx[i]`.
    ///
    /// # Panics
    /// If an index is out of range.
    #[inline(always)]
    #[must_use]
    pub fn gather(cols: &AabbColumns<'_>, idx: &[u32; LANES]) -> Self {
        Self::from_lanes(W::gather_columns(cols.slices(), idx))
    }

    /// From the lanes of [`AabbColumns`]' columns, in field order.
    #[inline(always)]
    pub(crate) fn from_lanes([min_x, min_y, max_x, max_y]: [W; 4]) -> Self {
        Self {
            min_x,
            min_y,
            max_x,
            max_y,
        }
    }
}

/// Eight circles.
#[derive(Debug, Clone, Copy)]
pub struct CircleW<W> {
    /// The center's x lanes.
    pub x: W,
    /// The center's y lanes.
    pub y: W,
    /// The radius lanes.
    pub radius: W,
}

impl<W: F32W> CircleW<W> {
    /// `c` in every lane.
    #[inline(always)]
    #[must_use]
    pub fn splat(c: &Circle) -> Self {
        Self {
            x: W::splat(c.center.x),
            y: W::splat(c.center.y),
            radius: W::splat(c.radius),
        }
    }

    /// Lane `i` is `c[i]`.
    #[inline(always)]
    #[must_use]
    pub fn from_array(c: &[Circle; LANES]) -> Self {
        Self {
            x: lanes(c, |s| s.center.x),
            y: lanes(c, |s| s.center.y),
            radius: lanes(c, |s| s.radius),
        }
    }

    /// Lane `i` is circle `idx[i]`.
    ///
    /// # Panics
    /// If an index is out of range.
    #[inline(always)]
    #[must_use]
    pub fn gather(cols: &CircleColumns<'_>, idx: &[u32; LANES]) -> Self {
        Self::from_lanes(W::gather_columns(cols.slices(), idx))
    }

    /// From the lanes of [`CircleColumns`]' columns, in field order.
    #[inline(always)]
    pub(crate) fn from_lanes([x, y, radius]: [W; 3]) -> Self {
        Self { x, y, radius }
    }
}

/// Eight capsules.
#[derive(Debug, Clone, Copy)]
pub struct CapsuleW<W> {
    /// The segment's first ends.
    pub a: Vec2W<W>,
    /// The segment's other ends.
    pub b: Vec2W<W>,
    /// The radius lanes.
    pub radius: W,
}

impl<W: F32W> CapsuleW<W> {
    /// `c` in every lane.
    #[inline(always)]
    #[must_use]
    pub fn splat(c: &Capsule) -> Self {
        Self {
            a: Vec2W::splat(c.a),
            b: Vec2W::splat(c.b),
            radius: W::splat(c.radius),
        }
    }

    /// Lane `i` is `c[i]`.
    #[inline(always)]
    #[must_use]
    pub fn from_array(c: &[Capsule; LANES]) -> Self {
        Self {
            a: Vec2W::from_array(&c.map(|s| s.a)),
            b: Vec2W::from_array(&c.map(|s| s.b)),
            radius: lanes(c, |s| s.radius),
        }
    }

    /// Lane `i` is capsule `idx[i]`.
    ///
    /// # Panics
    /// If an index is out of range.
    #[inline(always)]
    #[must_use]
    pub fn gather(cols: &CapsuleColumns<'_>, idx: &[u32; LANES]) -> Self {
        Self::from_lanes(W::gather_columns(cols.slices(), idx))
    }

    /// From the lanes of [`CapsuleColumns`]' columns, in field order.
    #[inline(always)]
    pub(crate) fn from_lanes([ax, ay, bx, by, radius]: [W; 5]) -> Self {
        Self {
            a: Vec2W { x: ax, y: ay },
            b: Vec2W { x: bx, y: by },
            radius,
        }
    }
}

/// Eight moving points.
#[derive(Debug, Clone, Copy)]
pub struct RayW<W> {
    /// Where each point starts.
    pub origin: Vec2W<W>,
    /// How far each moves over the frame.
    pub motion: Vec2W<W>,
}

impl<W: F32W> RayW<W> {
    /// `r` in every lane.
    #[inline(always)]
    #[must_use]
    pub fn splat(r: &Ray) -> Self {
        Self {
            origin: Vec2W::splat(r.origin),
            motion: Vec2W::splat(r.motion),
        }
    }

    /// Lane `i` is `r[i]`.
    #[inline(always)]
    #[must_use]
    pub fn from_array(r: &[Ray; LANES]) -> Self {
        Self {
            origin: Vec2W {
                x: lanes(r, |s| s.origin.x),
                y: lanes(r, |s| s.origin.y),
            },
            motion: Vec2W {
                x: lanes(r, |s| s.motion.x),
                y: lanes(r, |s| s.motion.y),
            },
        }
    }

    /// Lane `i` is ray `idx[i]`.
    ///
    /// # Panics
    /// If an index is out of range.
    #[inline(always)]
    #[must_use]
    pub fn gather(cols: &RayColumns<'_>, idx: &[u32; LANES]) -> Self {
        Self::from_lanes(W::gather_columns(cols.slices(), idx))
    }

    /// From the lanes of [`RayColumns`]' columns, in field order.
    #[inline(always)]
    pub(crate) fn from_lanes([ox, oy, mx, my]: [W; 4]) -> Self {
        Self {
            origin: Vec2W { x: ox, y: oy },
            motion: Vec2W { x: mx, y: my },
        }
    }
}

/// Eight 2D oriented boxes.
#[derive(Debug, Clone, Copy)]
pub struct Obb2W<W> {
    /// The centers.
    pub center: Vec2W<W>,
    /// The unit local x axes.
    pub axis: Vec2W<W>,
    /// The half extents.
    pub half_extents: Vec2W<W>,
}

impl<W: F32W> Obb2W<W> {
    /// `b` in every lane.
    #[inline(always)]
    #[must_use]
    pub fn splat(b: &Obb2) -> Self {
        Self {
            center: Vec2W::splat(b.center),
            axis: Vec2W::splat(b.axis),
            half_extents: Vec2W::splat(b.half_extents),
        }
    }

    /// Lane `i` is `b[i]`.
    #[inline(always)]
    #[must_use]
    pub fn from_array(b: &[Obb2; LANES]) -> Self {
        Self {
            center: Vec2W::from_array(&b.map(|s| s.center)),
            axis: Vec2W::from_array(&b.map(|s| s.axis)),
            half_extents: Vec2W::from_array(&b.map(|s| s.half_extents)),
        }
    }

    /// Lane `i` is box `idx[i]`.
    ///
    /// # Panics
    /// If an index is out of range.
    #[inline(always)]
    #[must_use]
    pub fn gather(cols: &Obb2Columns<'_>, idx: &[u32; LANES]) -> Self {
        Self::from_lanes(W::gather_columns(cols.slices(), idx))
    }

    /// From the lanes of [`Obb2Columns`]' columns, in field order.
    #[inline(always)]
    pub(crate) fn from_lanes([cx, cy, ax, ay, hx, hy]: [W; 6]) -> Self {
        Self {
            center: Vec2W { x: cx, y: cy },
            axis: Vec2W { x: ax, y: ay },
            half_extents: Vec2W { x: hx, y: hy },
        }
    }
}

/// Eight 3D oriented boxes.
#[derive(Debug, Clone, Copy)]
pub struct Obb3W<W> {
    /// The centers.
    pub center: Vec3W<W>,
    /// The local axes.
    pub axes: [Vec3W<W>; 3],
    /// The half extents.
    pub half_extents: Vec3W<W>,
}

impl<W: F32W> Obb3W<W> {
    /// `b` in every lane.
    #[inline(always)]
    #[must_use]
    pub fn splat(b: &Obb3) -> Self {
        Self {
            center: Vec3W::splat(b.center),
            axes: b.axes.map(Vec3W::splat),
            half_extents: Vec3W::splat(b.half_extents),
        }
    }

    /// Lane `i` is `b[i]`.
    #[inline(always)]
    #[must_use]
    pub fn from_array(b: &[Obb3; LANES]) -> Self {
        Self {
            center: Vec3W::from_array(&b.map(|s| s.center)),
            axes: core::array::from_fn(|k| Vec3W::from_array(&b.map(|s| s.axes[k]))),
            half_extents: Vec3W::from_array(&b.map(|s| s.half_extents)),
        }
    }

    /// Lane `i` is box `idx[i]`.
    ///
    /// # Panics
    /// If an index is out of range.
    #[inline(always)]
    #[must_use]
    pub fn gather(cols: &Obb3Columns<'_>, idx: &[u32; LANES]) -> Self {
        Self::from_lanes(W::gather_columns(cols.slices(), idx))
    }

    /// From the lanes of [`Obb3Columns`]' columns, in field order.
    #[inline(always)]
    pub(crate) fn from_lanes(
        [
            cx,
            cy,
            cz,
            a0x,
            a0y,
            a0z,
            a1x,
            a1y,
            a1z,
            a2x,
            a2y,
            a2z,
            hx,
            hy,
            hz,
        ]: [W; 15],
    ) -> Self {
        let v = |x, y, z| Vec3W { x, y, z };
        Self {
            center: v(cx, cy, cz),
            axes: [v(a0x, a0y, a0z), v(a1x, a1y, a1z), v(a2x, a2y, a2z)],
            half_extents: v(hx, hy, hz),
        }
    }
}

/// Eight answers of a swept test (the lane form of [`Sweep`]).
#[derive(Clone, Copy)]
pub struct SweepW<W: F32W> {
    /// Lanes whose status is [`SweepStatus::Hit`].
    pub is_hit: W::Mask,
    /// Lanes whose status is [`SweepStatus::Overlapping`].
    pub is_overlapping: W::Mask,
    /// [`Sweep::t`].
    pub t: W,
    /// [`Sweep::normal`].
    pub normal: Vec2W<W>,
    /// [`Sweep::stop`].
    pub stop: Vec2W<W>,
}

impl<W: F32W> SweepW<W> {
    /// Lane `i` as a [`Sweep`].
    #[must_use]
    pub fn lane(&self, i: usize) -> Sweep {
        self.to_array()[i]
    }

    /// Every lane as a [`Sweep`].
    #[inline(always)]
    #[must_use]
    pub fn to_array(&self) -> [Sweep; LANES] {
        let (t, nx, ny) = (
            self.t.to_array(),
            self.normal.x.to_array(),
            self.normal.y.to_array(),
        );
        let (sx, sy) = (self.stop.x.to_array(), self.stop.y.to_array());
        let (hit, over) = (self.is_hit.bitmask(), self.is_overlapping.bitmask());
        let mut out = [Sweep::default(); LANES];
        for (i, s) in out.iter_mut().enumerate() {
            *s = Sweep {
                status: if hit >> i & 1 == 1 {
                    SweepStatus::Hit
                } else if over >> i & 1 == 1 {
                    SweepStatus::Overlapping
                } else {
                    SweepStatus::Miss
                },
                t: t[i],
                normal: Vec2::new(nx[i], ny[i]),
                stop: Vec2::new(sx[i], sy[i]),
            };
        }
        out
    }
}

/// Eight answers of the 2D separating-axis test (the lane form of `Option<Mtv2>`).
#[derive(Clone, Copy)]
pub struct Mtv2W<W: F32W> {
    /// Lanes whose boxes overlap (the others' values are meaningless).
    pub is_overlapping: W::Mask,
    /// [`Mtv2::normal`].
    pub normal: Vec2W<W>,
    /// [`Mtv2::depth`].
    pub depth: W,
    /// [`Mtv2::axis`], as a float.
    pub axis: W,
}

impl<W: F32W> Mtv2W<W> {
    /// Lane `i` as the scalar kernel's answer.
    #[must_use]
    pub fn lane(&self, i: usize) -> Option<Mtv2> {
        bit(self.is_overlapping, i).then(|| Mtv2 {
            normal: self.normal.lane(i),
            depth: at(self.depth, i),
            axis: at(self.axis, i) as u8,
        })
    }
}

/// Eight answers of the 3D separating-axis test (the lane form of `Option<Mtv3>`).
#[derive(Clone, Copy)]
pub struct Mtv3W<W: F32W> {
    /// Lanes whose boxes overlap (the others' values are meaningless).
    pub is_overlapping: W::Mask,
    /// [`Mtv3::normal`].
    pub normal: Vec3W<W>,
    /// [`Mtv3::depth`].
    pub depth: W,
    /// [`Mtv3::axis`], as a float.
    pub axis: W,
}

impl<W: F32W> Mtv3W<W> {
    /// Lane `i` as the scalar kernel's answer.
    #[must_use]
    pub fn lane(&self, i: usize) -> Option<Mtv3> {
        bit(self.is_overlapping, i).then(|| Mtv3 {
            normal: self.normal.lane(i),
            depth: at(self.depth, i),
            axis: at(self.axis, i) as u8,
        })
    }
}
