//! 2D oriented box against oriented box, eight pairs at a time (the math:
//! [`scalar::overlap_obb2_obb2`](crate::narrow::scalar::overlap_obb2_obb2)).
//!
//! All four axes are tested in every lane; the scalar kernel's early exit becomes the
//! `is_overlapping` mask and its running minimum a chain of selects (strict `<`, so
//! ties keep the earlier axis, as in the scalar loop).

use super::{F32W, Mtv2W, Obb2W, Vec2W};

/// Lane `i`: whether the boxes overlap (closed) and, where they do, the minimum
/// translation vector; bit-identical to the scalar kernel.
#[inline(always)]
#[must_use]
pub fn overlap_obb2_obb2<W: F32W>(a: &Obb2W<W>, b: &Obb2W<W>) -> Mtv2W<W> {
    let (ua, ub) = (a.axis, b.axis);
    let (ha, hb) = (a.half_extents, b.half_extents);
    let c = ua.x * ub.x + ua.y * ub.y;
    let s = ua.x * ub.y - ua.y * ub.x;
    let (ac, as_) = (c.abs(), s.abs());
    let tx = b.center.x - a.center.x;
    let ty = b.center.y - a.center.y;
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
    let axes = [(ua.x, ua.y), (-ua.y, ua.x), (ub.x, ub.y), (-ub.y, ub.x)];
    let (zero, max) = (W::splat(0.0), W::splat(f32::MAX));
    let n0 = r[0] - d[0].abs();
    let mut is_overlapping = n0.ge(zero) & n0.le(max);
    let (mut depth, mut axis, mut dk) = (n0, zero, d[0]);
    let (mut nx, mut ny) = axes[0];
    for k in 1..4 {
        let n = r[k] - d[k].abs();
        is_overlapping = is_overlapping & n.ge(zero) & n.le(max);
        let is_better = n.lt(depth);
        depth = W::select(is_better, n, depth);
        axis = W::select(is_better, W::splat(k as f32), axis);
        dk = W::select(is_better, d[k], dk);
        nx = W::select(is_better, axes[k].0, nx);
        ny = W::select(is_better, axes[k].1, ny);
    }
    let flip = dk.lt(zero);
    Mtv2W {
        is_overlapping,
        normal: Vec2W {
            x: W::select(flip, -nx, nx),
            y: W::select(flip, -ny, ny),
        },
        depth,
        axis,
    }
}
