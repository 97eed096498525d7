//! 3D oriented box against oriented box, eight pairs at a time (the math and the axis
//! table: [`scalar::overlap_obb3_obb3`](crate::narrow::scalar::overlap_obb3_obb3)).
//!
//! The six face axes come first, as in the scalar kernel; when they separate all eight
//! lanes the nine edge–edge axes are skipped (the lane form of the early exit).
//! Otherwise every axis runs in every lane, the running minimum is a chain of selects,
//! and the winner is normalised once at the end.

use super::{F32W, MaskW, Mtv3W, Obb3W, Vec3W};
use crate::narrow::SAT_EPSILON;
use crate::narrow::scalar::obb3_obb3::MIN_CROSS_LEN2;

/// The best axis so far, lane by lane.
struct BestW<W> {
    n: W,
    len2: W,
    d: W,
    axis: W,
    local: [W; 3],
}

impl<W: F32W> BestW<W> {
    /// Takes axis `k` in the lanes where it is shallower (and `eligible`).
    #[inline(always)]
    fn offer(&mut self, eligible: W::Mask, axis: usize, n: W, len2: W, d: W, local: [W; 3]) {
        let take = eligible & (n * n * self.len2).lt(self.n * self.n * len2);
        self.n = W::select(take, n, self.n);
        self.len2 = W::select(take, len2, self.len2);
        self.d = W::select(take, d, self.d);
        self.axis = W::select(take, W::splat(axis as f32), self.axis);
        for (mine, theirs) in self.local.iter_mut().zip(local) {
            *mine = W::select(take, theirs, *mine);
        }
    }
}

/// `0 <= n <= f32::MAX`, lane by lane (false for NaN and infinities).
#[inline(always)]
fn is_overlap<W: F32W>(n: W) -> W::Mask {
    n.ge(W::splat(0.0)) & n.le(W::splat(f32::MAX))
}

/// Lane `i`: whether the boxes overlap (closed) and, where they do, the minimum
/// translation vector; bit-identical to the scalar kernel.
#[inline(always)]
#[must_use]
pub fn overlap_obb3_obb3<W: F32W>(a: &Obb3W<W>, b: &Obb3W<W>) -> Mtv3W<W> {
    let (ea, eb) = (&a.axes, &b.axes);
    let ha = [a.half_extents.x, a.half_extents.y, a.half_extents.z];
    let hb = [b.half_extents.x, b.half_extents.y, b.half_extents.z];
    // Plain loops, no `array::from_fn` or closures: those would be compiled out of
    // line, without the AVX2 target features of the caller.
    let (zero, one) = (W::splat(0.0), W::splat(1.0));
    let mut r = [[zero; 3]; 3];
    let mut abs_r = [[zero; 3]; 3];
    for (i, (row, abs_row)) in r.iter_mut().zip(&mut abs_r).enumerate() {
        for (j, (x, ax)) in row.iter_mut().zip(abs_row).enumerate() {
            *x = ea[i].x * eb[j].x + ea[i].y * eb[j].y + ea[i].z * eb[j].z;
            *ax = x.abs();
        }
    }
    let tw = Vec3W {
        x: b.center.x - a.center.x,
        y: b.center.y - a.center.y,
        z: b.center.z - a.center.z,
    };
    let mut t = [zero; 3];
    for (ti, e) in t.iter_mut().zip(ea) {
        *ti = tw.x * e.x + tw.y * e.y + tw.z * e.z;
    }
    let all = zero.eq(zero);

    // Face axes of A.
    let rb0 = hb[0] * abs_r[0][0] + hb[1] * abs_r[0][1] + hb[2] * abs_r[0][2];
    let n0 = (ha[0] + rb0) - t[0].abs();
    let mut ok = is_overlap(n0);
    let mut best = BestW {
        n: n0,
        len2: one,
        d: t[0],
        axis: zero,
        local: [one, zero, zero],
    };
    for i in 1..3 {
        let rb = hb[0] * abs_r[i][0] + hb[1] * abs_r[i][1] + hb[2] * abs_r[i][2];
        let n = (ha[i] + rb) - t[i].abs();
        ok = ok & is_overlap(n);
        let mut local = [zero; 3];
        local[i] = one;
        best.offer(all, i, n, one, t[i], local);
    }
    // Face axes of B.
    for j in 0..3 {
        let ra = ha[0] * abs_r[0][j] + ha[1] * abs_r[1][j] + ha[2] * abs_r[2][j];
        let d = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
        let n = (ra + hb[j]) - d.abs();
        ok = ok & is_overlap(n);
        best.offer(all, 3 + j, n, one, d, [r[0][j], r[1][j], r[2][j]]);
    }
    if !ok.any() {
        return Mtv3W {
            is_overlapping: ok,
            normal: Vec3W {
                x: zero,
                y: zero,
                z: zero,
            },
            depth: zero,
            axis: zero,
        };
    }
    // Edge-edge axes.
    let eps = W::splat(SAT_EPSILON);
    let min_len2 = W::splat(MIN_CROSS_LEN2);
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let ra = ha[i1] * (abs_r[i2][j] + eps) + ha[i2] * (abs_r[i1][j] + eps);
            let rb = hb[j1] * (abs_r[i][j2] + eps) + hb[j2] * (abs_r[i][j1] + eps);
            let d = t[i2] * r[i1][j] - t[i1] * r[i2][j];
            let n = (ra + rb) - d.abs();
            ok = ok & is_overlap(n);
            let len2 = r[i1][j] * r[i1][j] + r[i2][j] * r[i2][j];
            let mut local = [zero; 3];
            local[i1] = -r[i2][j];
            local[i2] = r[i1][j];
            best.offer(len2.ge(min_len2), 6 + 3 * i + j, n, len2, d, local);
        }
    }
    let len = best.len2.sqrt();
    let l = [
        best.local[0] / len,
        best.local[1] / len,
        best.local[2] / len,
    ];
    let world = Vec3W {
        x: ea[0].x * l[0] + ea[1].x * l[1] + ea[2].x * l[2],
        y: ea[0].y * l[0] + ea[1].y * l[1] + ea[2].y * l[2],
        z: ea[0].z * l[0] + ea[1].z * l[1] + ea[2].z * l[2],
    };
    let flip = best.d.lt(zero);
    Mtv3W {
        is_overlapping: ok,
        normal: Vec3W {
            x: W::select(flip, -world.x, world.x),
            y: W::select(flip, -world.y, world.y),
            z: W::select(flip, -world.z, world.z),
        },
        depth: best.n / len,
        axis: best.axis,
    }
}
