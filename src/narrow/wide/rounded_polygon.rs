//! The lane form of the rounded-polygon core of the capsule sweeps (the math:
//! [`scalar::sweep_capsule_capsule`](fn@crate::narrow::scalar::sweep_capsule_capsule)).
//!
//! The scalar core's choices become selects: every edge and every vertex disc is
//! computed in every lane, and the earliest candidate is kept by a strict comparison,
//! in the scalar core's order.

use super::sweep_aabb_circle::corner;
use super::{F32W, MaskW, SweepW, Vec2W};
use crate::narrow::scalar::rounded_polygon::NUDGE;

/// The lane form of `scalar::rounded_polygon::rounded_polygon`.
#[inline(always)]
pub(crate) fn rounded_polygon<W: F32W, const N: usize>(
    p: [Vec2W<W>; N],
    v: &Vec2W<W>,
    r: W,
    mag: W,
    is_valid: W::Mask,
) -> SweepW<W> {
    let (zero, one) = (W::splat(0.0), W::splat(1.0));
    let (inf, big) = (W::splat(f32::INFINITY), W::splat(f32::MAX));
    let rr = r * r;
    let aa = v.x * v.x + v.y * v.y;
    // Plain loops, no `array::from_fn`: a generic helper that is not inlined is
    // compiled without the caller's target features, and every lane operation in it
    // becomes a call (measured: the AVX2 batch slower than the portable one).
    let mut d = [Vec2W { x: zero, y: zero }; N];
    let mut dd = [zero; N];
    for i in 0..N {
        d[i] = Vec2W {
            x: zero - p[i].x,
            y: zero - p[i].y,
        };
        dd[i] = d[i].x * d[i].x + d[i].y * d[i].y;
    }
    let mut fits = is_valid & r.ge(zero) & aa.le(big) & rr.le(big);
    let mut is_in = zero.eq(zero);
    let mut dist2 = inf;
    let (mut lo_x, mut lo_y, mut hi_x, mut hi_y) = (p[0].x, p[0].y, p[0].x, p[0].y);
    let mut t_win = inf;
    let (mut nx_win, mut ny_win) = (zero, zero);
    let (mut dx_win, mut dy_win) = (zero, zero);
    let mut on_disc = zero.ne(zero);
    let mut extent = zero;
    for i in 0..N {
        let j = if i + 1 == N { 0 } else { i + 1 };
        lo_x = lo_x.min(p[i].x);
        lo_y = lo_y.min(p[i].y);
        hi_x = hi_x.max(p[i].x);
        hi_y = hi_y.max(p[i].y);
        extent = extent + (p[i].x.abs() + p[i].y.abs());
        let (ex, ey) = (p[j].x - p[i].x, p[j].y - p[i].y);
        let ll = ex * ex + ey * ey;
        let len = ll.sqrt();
        let (nx, ny) = (ey / len, (zero - ex) / len);
        let (dx, dy) = (d[i].x, d[i].y);
        let h = nx * dx + ny * dy;
        let wn = nx * v.x + ny * v.y;
        let x = ex * dx + ey * dy;
        let ev = ex * v.x + ey * v.y;
        fits = fits & ll.le(big) & x.abs().le(big) & ev.abs().le(big);
        is_in = is_in & (ll.eq(zero) | h.le(zero));
        let seg2 = W::select(x.le(zero), dd[i], W::select(x.ge(ll), dd[j], h * h));
        dist2 = dist2.min(seg2);
        let t_e = (r - h) / wn;
        let x_e = x + t_e * ev;
        let is_edge = h.ge(r) & wn.lt(zero) & x_e.ge(zero) & x_e.le(ll);
        let take = is_edge & t_e.lt(t_win);
        t_win = W::select(take, t_e, t_win);
        nx_win = W::select(take, nx, nx_win);
        ny_win = W::select(take, ny, ny_win);
        on_disc = on_disc.and_not(take);
        let c = corner(dx, dy, v, rr, aa);
        fits = fits & c.fits;
        let take = c.is_hit & c.t.lt(t_win);
        t_win = W::select(take, c.t, t_win);
        dx_win = W::select(take, dx, dx_win);
        dy_win = W::select(take, dy, dy_win);
        on_disc = on_disc | take;
    }
    let is_in = is_in & lo_x.le(zero) & hi_x.ge(zero) & lo_y.le(zero) & hi_y.ge(zero);
    let dist2 = W::select(is_in, zero, dist2);
    let is_touching = dist2.eq(rr);
    let is_hit_at_zero = is_touching & t_win.eq(zero);
    let is_inside = dist2.lt(rr) | is_touching.and_not(is_hit_at_zero);
    let is_contact = fits & (is_inside | t_win.le(one));
    let is_overlapping = is_contact & is_inside;
    let is_hit = is_contact.and_not(is_inside);
    let t = t_win.max(zero);
    let (px, py) = (dx_win + t * v.x, dy_win + t * v.y);
    let len = (px * px + py * py).sqrt();
    let speed = aa.sqrt();
    let has_len = len.gt(zero);
    let cnx = W::select(has_len, px / len, (zero - v.x) / speed);
    let cny = W::select(has_len, py / len, (zero - v.y) / speed);
    let nx = W::select(on_disc, cnx, nx_win);
    let ny = W::select(on_disc, cny, ny_win);
    let nudge = (((mag + extent) + r) + (v.x.abs() + v.y.abs())) * W::splat(NUDGE);
    let stop_x = t * v.x + nx * nudge;
    let stop_y = t * v.y + ny * nudge;
    SweepW {
        is_hit,
        is_overlapping,
        t: W::select(is_hit, t, W::select(is_overlapping, zero, one)),
        normal: Vec2W {
            x: W::select(is_hit, nx, zero),
            y: W::select(is_hit, ny, zero),
        },
        stop: Vec2W {
            x: W::select(is_hit, stop_x, W::select(is_overlapping, zero, v.x)),
            y: W::select(is_hit, stop_y, W::select(is_overlapping, zero, v.y)),
        },
    }
}
