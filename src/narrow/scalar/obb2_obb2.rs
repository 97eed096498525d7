//! 2D oriented box against oriented box by the separating axis theorem (seed 004;
//!
//! The math is documented on [`overlap_obb2_obb2`](fn@super::overlap_obb2_obb2).

use crate::math::Obb2;
use crate::narrow::Mtv2;
use glam::Vec2;

/// Whether two oriented boxes overlap, and if so, their minimum translation vector.
/// The test is closed, so touching counts. NaN or infinite values give `None`.
///
/// This is the separating-axis test of Ericson, §4.4.1, reduced to the plane.
///
/// Two convex shapes are disjoint when some axis separates their projections. For two
/// rectangles, the candidate axes are their four edge normals, which are their own
/// axes: `A.x`, `A.y`, `B.x`, `B.y`. They are tested in that order, as axis indices 0
/// to 3. On a unit axis `L`, a box with axes `e₀, e₁` and half extents `h` projects to
/// a segment of half length `r = h₀|L·e₀| + h₁|L·e₁|` around its center. So with
/// `T = c_B - c_A`, the boxes overlap on `L` when `|T·L| <= r_A + r_B`. Touching counts.
/// The overlap on `L` is
///
/// ```text
/// n_L = (r_A + r_B) - |T·L|  >= 0
/// ```
///
/// Let `c = A.x·B.x` and `s = A.x × B.x`, the cosine and sine of the angle between the
/// boxes. Then every `|A.eᵢ·B.eⱼ|` is `|c|` or `|s|`:
///
/// | axis | `r_A` | `r_B` | `T·L` |
/// |---|---|---|---|
/// | 0: `A.x` | `hA.x` | `hB.x·|c| + hB.y·|s|` | `T·A.x` |
/// | 1: `A.y` | `hA.y` | `hB.x·|s| + hB.y·|c|` | `T·A.y` |
/// | 2: `B.x` | `hA.x·|c| + hA.y·|s|` | `hB.x` | `T·B.x` |
/// | 3: `B.y` | `hA.x·|s| + hA.y·|c|` | `hB.y` | `T·B.y` |
///
/// # Minimum translation vector
/// When no axis separates, the smallest overlap `n_L` over the four axes is the
/// penetration depth. For convex polygons, the minimum over all directions is found at
/// an edge normal. At a tie, the earlier axis wins. The [`Mtv2`] normal is that axis,
/// signed to point from `a` toward `b`, so that `T·L >= 0`. It is `+L` when the centers
/// coincide on the axis. Moving `a` by `-normal·depth`, or `b` by `+normal·depth`,
/// leaves the boxes touching.
///
/// # Bad input
/// The test is `0 <= n_L <= f32::MAX` on every axis. So a NaN anywhere never overlaps,
/// because it reaches some `n_L`. An infinity never overlaps either. An infinite radius
/// makes `n_L` infinite or NaN, and an infinite center makes `|T·L|` infinite. The axes
/// are used as given, so they must have unit length.
/// [`Obb2::try_new`](crate::Obb2::try_new) normalises them.
///
/// ```
/// use hantei::Obb2;
/// use hantei::narrow::scalar::overlap_obb2_obb2;
/// use glam::Vec2;
/// let a = Obb2::from_angle(Vec2::ZERO, Vec2::new(2.0, 1.0), 0.0);
/// let b = Obb2::from_angle(Vec2::new(2.5, 0.0), Vec2::new(1.0, 1.0), 0.0);
/// let mtv = overlap_obb2_obb2(&a, &b).unwrap();
/// assert_eq!((mtv.normal, mtv.depth, mtv.axis), (Vec2::X, 0.5, 0));
/// // A box whose left edge stops short at x = 2.2; turned 45°, its corner reaches 1.79.
/// let c = Obb2::from_angle(Vec2::new(3.2, 0.0), Vec2::new(1.0, 1.0), 0.0);
/// assert!(overlap_obb2_obb2(&a, &c).is_none());
/// let turned = Obb2::from_angle(c.center, c.half_extents, core::f32::consts::FRAC_PI_4);
/// assert!(overlap_obb2_obb2(&a, &turned).is_some());
/// ```
#[inline]
#[must_use]
pub fn overlap_obb2_obb2(a: &Obb2, b: &Obb2) -> Option<Mtv2> {
    let (ua, ub) = (a.axis, b.axis);
    let (ha, hb) = (a.half_extents, b.half_extents);
    // Cosine and sine of the angle from A's x axis to B's.
    let c = ua.x * ub.x + ua.y * ub.y;
    let s = ua.x * ub.y - ua.y * ub.x;
    let (ac, as_) = (c.abs(), s.abs());
    let tx = b.center.x - a.center.x;
    let ty = b.center.y - a.center.y;
    // T projected on A.x, A.y = (-ua.y, ua.x), B.x, B.y.
    let d = [
        tx * ua.x + ty * ua.y,
        ty * ua.x - tx * ua.y,
        tx * ub.x + ty * ub.y,
        ty * ub.x - tx * ub.y,
    ];
    let r = [
        ha.x + (hb.x * ac + hb.y * as_),
        ha.y + (hb.x * as_ + hb.y * ac),
        (ha.x * ac + ha.y * as_) + hb.x,
        (ha.x * as_ + ha.y * ac) + hb.y,
    ];
    let mut best = 0;
    let mut depth = 0.0;
    for k in 0..4 {
        let n = r[k] - d[k].abs();
        // Separated on this axis, or a NaN / infinity reached it.
        if !(0.0..=f32::MAX).contains(&n) {
            return None;
        }
        if k == 0 || n < depth {
            best = k;
            depth = n;
        }
    }
    let axes = [ua, Vec2::new(-ua.y, ua.x), ub, Vec2::new(-ub.y, ub.x)];
    let normal = if d[best] < 0.0 {
        -axes[best]
    } else {
        axes[best]
    };
    Some(Mtv2 {
        normal,
        depth,
        axis: best as u8,
    })
}
