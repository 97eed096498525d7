//! Swept circle–circle, eight pairs at a time (the math, the statuses and the meaning of
//! every field: [`scalar::sweep_circle_circle`](fn@crate::narrow::scalar::sweep_circle_circle)).
//!
//! The scalar kernel's branches become selects: the root, the normal and the stop are
//! computed in every lane (a NaN or an infinity where the scalar kernel would not get
//! that far) and kept only where the lane is a hit.

use super::{CircleW, F32W, MaskW, SweepW, Vec2W, all_finite};
use crate::narrow::scalar::sweep_circle_circle::{NUDGE, NUDGE_AT};

/// Lane `i`: disc `a` moving by `ma` against disc `b` moving by `mb` over one frame.
#[inline(always)]
#[must_use]
pub fn sweep_circle_circle<W: F32W>(
    a: &CircleW<W>,
    ma: &Vec2W<W>,
    b: &CircleW<W>,
    mb: &Vec2W<W>,
) -> SweepW<W> {
    let (zero, one, big) = (W::splat(0.0), W::splat(1.0), W::splat(f32::MAX));
    let is_finite = all_finite([
        a.x, a.y, a.radius, b.x, b.y, b.radius, ma.x, ma.y, mb.x, mb.y,
    ]);
    let (vx, vy) = (ma.x - mb.x, ma.y - mb.y);
    let (dx, dy) = (a.x - b.x, a.y - b.y);
    let s = a.radius + b.radius;
    let dd = dx * dx + dy * dy;
    let ss = s * s;
    let aa = vx * vx + vy * vy;
    let bb = dx * vx + dy * vy;
    let c = dd - ss;
    let cross = dx * vy - dy * vx;
    let aass = aa * ss;
    let cross2 = cross * cross;
    let is_valid = is_finite
        & a.radius.ge(zero)
        & b.radius.ge(zero)
        & dd.le(big)
        & ss.le(big)
        & aa.le(big)
        & bb.abs().le(big)
        & aass.le(big)
        & cross2.le(big);
    let is_touching = dd.eq(ss);
    let is_touching_in = is_touching & bb.lt(zero);
    let is_inside = dd.lt(ss) | (is_touching & bb.ge(zero));
    let disc = aass - cross2;
    let is_approaching = dd.gt(ss) & bb.lt(zero) & disc.ge(zero);
    let enter = c / (disc.sqrt() - bb);
    let is_contact = is_valid & (is_touching_in | is_inside | (is_approaching & enter.le(one)));
    let is_overlapping = is_contact & is_inside;
    let is_hit = is_contact.and_not(is_inside);
    let t = W::select(is_touching_in, zero, enter);
    let (px, py) = (dx + t * vx, dy + t * vy);
    let len = (px * px + py * py).sqrt();
    let speed = aa.sqrt();
    let has_len = len.gt(zero);
    let nx = W::select(has_len, px / len, (zero - vx) / speed);
    let ny = W::select(has_len, py / len, (zero - vy) / speed);
    let at = (a.x.abs() + a.y.abs()) * W::splat(NUDGE_AT);
    let gap = ((dx.abs() + dy.abs()) + s) * W::splat(NUDGE);
    let reach = s + (at + gap);
    SweepW {
        is_hit,
        is_overlapping,
        t: W::select(is_hit, t, W::select(is_overlapping, zero, one)),
        normal: Vec2W {
            x: W::select(is_hit, nx, zero),
            y: W::select(is_hit, ny, zero),
        },
        stop: Vec2W {
            x: W::select(is_hit, nx * reach - dx, W::select(is_overlapping, zero, vx)),
            y: W::select(is_hit, ny * reach - dy, W::select(is_overlapping, zero, vy)),
        },
    }
}
