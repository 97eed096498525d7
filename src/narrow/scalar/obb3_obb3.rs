//! 3D oriented box against oriented box by the separating axis theorem, with 15 axes
//!
//! The math is documented on [`overlap_obb3_obb3`](fn@super::overlap_obb3_obb3).

use crate::math::Obb3;
use crate::narrow::{Mtv3, SAT_EPSILON};
use glam::Vec3;

/// Cross axes shorter than this (squared) are never chosen for the MTV.
pub(crate) const MIN_CROSS_LEN2: f32 = 1.0e-6;

/// The best axis so far.
struct Best {
    n: f32,
    len2: f32,
    d: f32,
    axis: usize,
    local: [f32; 3],
}

/// Whether the overlap `n` says "not separated" (false for NaN and infinities).
#[inline(always)]
fn is_overlap(n: f32) -> bool {
    (0.0..=f32::MAX).contains(&n)
}

impl Best {
    /// Takes axis `k` if it is shallower than the best so far.
    #[inline(always)]
    fn offer(&mut self, axis: usize, n: f32, len2: f32, d: f32, local: [f32; 3]) {
        if axis == 0 || n * n * self.len2 < self.n * self.n * len2 {
            *self = Best {
                n,
                len2,
                d,
                axis,
                local,
            };
        }
    }
}

/// Whether two oriented boxes overlap, and if so, their minimum translation vector.
/// The test is closed, so touching counts. NaN or infinite values give `None`.
///
/// The test tries the 15 axes of the table below in order, and stops at the first that
/// separates. It follows seed 004 and Ericson, *Real-Time Collision Detection*, §4.4.1.
///
/// Two convex polyhedra are disjoint when a separating axis exists among the face
/// normals of either, and the cross products of an edge of one with an edge of the
/// other. For two boxes, that is 3 + 3 + 9 = 15 axes. The **face axes come first**,
/// because they reject most separated pairs. The nine edge–edge axes follow. They are
/// needed for twisted edge-against-edge configurations that all six face axes miss.
///
/// # Working in A's frame
/// Let `R[i][j] = A.eᵢ · B.eⱼ`, which gives B's axes in A's frame, with column `j` equal
/// to `B.eⱼ`. Let `t = (T·A.e₀, T·A.e₁, T·A.e₂)` for `T = c_B - c_A`. Then each axis
/// needs only table look-ups, with `i₁ = i+1` and `i₂ = i+2` mod 3, and the same for
/// `j`:
///
/// | axis (index) | `r_A` | `r_B` | `T·L` | `|L|²` |
/// |---|---|---|---|---|
/// | `A.eᵢ` (`i`) | `hA[i]` | `Σⱼ hB[j]·|R[i][j]|` | `t[i]` | 1 |
/// | `B.eⱼ` (`3 + j`) | `Σᵢ hA[i]·|R[i][j]|` | `hB[j]` | `Σᵢ t[i]·R[i][j]` | 1 |
/// | `A.eᵢ × B.eⱼ` (`6 + 3i + j`) | `hA[i₁]·|R[i₂][j]|′ + hA[i₂]·|R[i₁][j]|′` | `hB[j₁]·|R[i][j₂]|′ + hB[j₂]·|R[i][j₁]|′` | `t[i₂]·R[i₁][j] - t[i₁]·R[i₂][j]` | `R[i₁][j]² + R[i₂][j]²` |
///
/// The boxes overlap on `L` when `n_L = (r_A + r_B) - |T·L| >= 0`. Touching counts.
/// The cross axes do not have unit length, but that scales both sides alike.
///
/// # Near-parallel edges
/// When `A.eᵢ` and `B.eⱼ` are nearly parallel, their cross product is nearly zero. Both
/// sides of the test are then rounding noise, which can fake a separation. So, as
/// Ericson does, the cross-axis radii use `|R|′ = |R| + ε`, with `ε =` [`SAT_EPSILON`].
/// Each radius grows by `ε` times the box's own half extents. This error is scaled to
/// the boxes, and it is enough to cover the rounding of `R` and `t`, a few `f32` ulps.
/// The face axes use the plain `|R|`, so axis-aligned boxes get the exact closed AABB
/// answer. The price is that two boxes separated *only* by an edge–edge axis, by less
/// than about `ε·(hA + hB)/|L|`, are reported as touching.
///
/// # Minimum translation vector
/// When no axis separates, the axis of least overlap `n_L/|L|` gives the [`Mtv3`]. At a
/// tie, the earlier axis wins. Candidates are compared without square roots, as
/// `n_k²·|L_best|² < n_best²·|L_k|²`. Cross axes with `|L|² < 10⁻⁶` are never chosen:
/// their edges are within about 0.06° of parallel, and their direction is noise.
///
/// The winner's direction is built in A's frame, as `eᵢ`, column `j` of `R`, or
/// `eᵢ × R[·][j]`. It is normalised by `√|L|²`, turned into world space with A's axes,
/// and signed to point from `a` toward `b`. The depth is `n_L / |L|`. The MTV is exact
/// only up to the `ε` on cross axes.
///
/// # Bad input
/// As in 2D, the test reads `0 <= n_L <= f32::MAX`, so NaN or infinite values never
/// overlap. The axes must be orthonormal, as [`Obb3::try_new`](crate::Obb3::try_new)
/// checks. Other axes give the answer of the test evaluated with them.
///
/// ```
/// use hantei::Obb3;
/// use hantei::narrow::scalar::overlap_obb3_obb3;
/// use glam::{Quat, Vec3};
/// let a = Obb3::from_rotation(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
/// let b = Obb3::from_rotation(Vec3::new(1.5, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE);
/// let mtv = overlap_obb3_obb3(&a, &b).unwrap();
/// assert_eq!((mtv.normal, mtv.depth, mtv.axis), (Vec3::X, 0.5, 0));
/// ```
#[inline]
#[must_use]
pub fn overlap_obb3_obb3(a: &Obb3, b: &Obb3) -> Option<Mtv3> {
    let (ea, eb) = (&a.axes, &b.axes);
    let ha = a.half_extents.to_array();
    let hb = b.half_extents.to_array();
    let r: [[f32; 3]; 3] = core::array::from_fn(|i| {
        core::array::from_fn(|j| ea[i].x * eb[j].x + ea[i].y * eb[j].y + ea[i].z * eb[j].z)
    });
    let abs_r = r.map(|row| row.map(f32::abs));
    let tw = Vec3::new(
        b.center.x - a.center.x,
        b.center.y - a.center.y,
        b.center.z - a.center.z,
    );
    let t: [f32; 3] = core::array::from_fn(|i| tw.x * ea[i].x + tw.y * ea[i].y + tw.z * ea[i].z);

    let mut best = Best {
        n: 0.0,
        len2: 1.0,
        d: 0.0,
        axis: 0,
        local: [0.0; 3],
    };
    // Face axes of A: L = A.e_i.
    for i in 0..3 {
        let rb = hb[0] * abs_r[i][0] + hb[1] * abs_r[i][1] + hb[2] * abs_r[i][2];
        let n = (ha[i] + rb) - t[i].abs();
        if !is_overlap(n) {
            return None;
        }
        let mut local = [0.0; 3];
        local[i] = 1.0;
        best.offer(i, n, 1.0, t[i], local);
    }
    // Face axes of B: L = B.e_j.
    for j in 0..3 {
        let ra = ha[0] * abs_r[0][j] + ha[1] * abs_r[1][j] + ha[2] * abs_r[2][j];
        let d = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
        let n = (ra + hb[j]) - d.abs();
        if !is_overlap(n) {
            return None;
        }
        best.offer(3 + j, n, 1.0, d, [r[0][j], r[1][j], r[2][j]]);
    }
    // Edge-edge axes: L = A.e_i x B.e_j.
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let ra = ha[i1] * (abs_r[i2][j] + SAT_EPSILON) + ha[i2] * (abs_r[i1][j] + SAT_EPSILON);
            let rb = hb[j1] * (abs_r[i][j2] + SAT_EPSILON) + hb[j2] * (abs_r[i][j1] + SAT_EPSILON);
            let d = t[i2] * r[i1][j] - t[i1] * r[i2][j];
            let n = (ra + rb) - d.abs();
            if !is_overlap(n) {
                return None;
            }
            let len2 = r[i1][j] * r[i1][j] + r[i2][j] * r[i2][j];
            if len2 >= MIN_CROSS_LEN2 {
                let mut local = [0.0; 3];
                local[i1] = -r[i2][j];
                local[i2] = r[i1][j];
                best.offer(6 + 3 * i + j, n, len2, d, local);
            }
        }
    }
    let len = best.len2.sqrt();
    let l = best.local.map(|c| c / len);
    let world = Vec3::new(
        ea[0].x * l[0] + ea[1].x * l[1] + ea[2].x * l[2],
        ea[0].y * l[0] + ea[1].y * l[1] + ea[2].y * l[2],
        ea[0].z * l[0] + ea[1].z * l[1] + ea[2].z * l[2],
    );
    Some(Mtv3 {
        normal: if best.d < 0.0 { -world } else { world },
        depth: best.n / len,
        axis: best.axis as u8,
    })
}
