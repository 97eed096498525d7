//! Swept AABB–circle, eight pairs at a time, and the lane form of the rounded-box core
//! (the math, the statuses and the meaning of every field:
//! [`scalar::sweep_aabb_circle`](fn@crate::narrow::scalar::sweep_aabb_circle)).
//!
//! The scalar kernel's branches become selects: the slab quotients divide by `1` where
//! a velocity component is zero, both corner roots, the contact normal and every stop
//! are computed in every lane (a NaN or an infinity where the scalar kernel would not
//! get that far) and kept only where the lane is a hit of that kind.

use super::{AabbW, CircleW, F32W, MaskW, SweepW, Vec2W, all_finite};
use crate::narrow::scalar::sweep_circle_circle::NUDGE;

/// One axis of the two slabs (see `scalar::sweep_aabb_circle::slabs`).
struct SlabsW<W> {
    in_box: W,
    out_box: W,
    in_grown: W,
    out_grown: W,
    near_grown: W,
}

#[inline(always)]
fn slabs<W: F32W>(lo: W, hi: W, r: W, w: W, is_pos: W::Mask) -> SlabsW<W> {
    let zero = W::splat(0.0);
    let (inf, neg_inf) = (W::splat(f32::INFINITY), W::splat(f32::NEG_INFINITY));
    let lo_r = lo - r;
    let hi_r = hi + r;
    let near = W::select(is_pos, lo, hi);
    let far = W::select(is_pos, hi, lo);
    let near_r = W::select(is_pos, lo_r, hi_r);
    let far_r = W::select(is_pos, hi_r, lo_r);
    let is_zero = w.eq(zero);
    let safe_w = W::select(is_zero, W::splat(1.0), w);
    let is_in = lo.le(zero) & hi.ge(zero);
    let is_in_r = lo_r.le(zero) & hi_r.ge(zero);
    SlabsW {
        in_box: W::select(is_zero, W::select(is_in, neg_inf, inf), near / safe_w),
        out_box: W::select(is_zero, W::select(is_in, inf, neg_inf), far / safe_w),
        in_grown: W::select(is_zero, W::select(is_in_r, neg_inf, inf), near_r / safe_w),
        out_grown: W::select(is_zero, W::select(is_in_r, inf, neg_inf), far_r / safe_w),
        near_grown: near_r,
    }
}

/// One corner's disc (see `scalar::sweep_aabb_circle::corner`).
pub(crate) struct CornerW<W: F32W> {
    pub(crate) t: W,
    pub(crate) cross: W,
    pub(crate) is_hit: W::Mask,
    pub(crate) fits: W::Mask,
}

#[inline(always)]
pub(crate) fn corner<W: F32W>(dx: W, dy: W, w: &Vec2W<W>, rr: W, aa: W) -> CornerW<W> {
    let (zero, one, big) = (W::splat(0.0), W::splat(1.0), W::splat(f32::MAX));
    let dd = dx * dx + dy * dy;
    let bb = dx * w.x + dy * w.y;
    let cc = dd - rr;
    let cross = dx * w.y - dy * w.x;
    let aarr = aa * rr;
    let cross2 = cross * cross;
    let fits = dd.le(big) & bb.abs().le(big) & aarr.le(big) & cross2.le(big);
    let is_touching_in = dd.eq(rr) & bb.lt(zero);
    let disc = aarr - cross2;
    let is_approaching = dd.gt(rr) & bb.lt(zero) & disc.ge(zero);
    let enter = cc / (disc.sqrt() - bb);
    CornerW {
        t: W::select(is_touching_in, zero, enter),
        cross,
        is_hit: is_touching_in | (is_approaching & enter.le(one)),
        fits,
    }
}

/// Whether candidate `a` comes first (see `scalar::sweep_aabb_circle::is_first`).
#[inline(always)]
fn is_first<W: F32W>(t_a: W, rank_a: W, t_b: W, rank_b: W) -> W::Mask {
    t_a.lt(t_b) | (t_a.eq(t_b) & rank_a.lt(rank_b))
}

/// `if m { a } else { b }` for masks.
#[inline(always)]
fn pick<M: MaskW>(m: M, a: M, b: M) -> M {
    (m & a) | b.and_not(m)
}

/// The lane form of `scalar::sweep_aabb_circle::rounded_box`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn rounded_box<W: F32W>(
    min_x: W,
    min_y: W,
    max_x: W,
    max_y: W,
    c: &Vec2W<W>,
    w: &Vec2W<W>,
    r: W,
    mag: W,
    is_valid: W::Mask,
) -> SweepW<W> {
    let (zero, one) = (W::splat(0.0), W::splat(1.0));
    let (inf, big) = (W::splat(f32::INFINITY), W::splat(f32::MAX));
    let (lo_x, hi_x) = (min_x - c.x, max_x - c.x);
    let (lo_y, hi_y) = (min_y - c.y, max_y - c.y);
    let ex = lo_x.max(zero) + hi_x.min(zero);
    let ey = lo_y.max(zero) + hi_y.min(zero);
    let dist2 = ex * ex + ey * ey;
    let rr = r * r;
    let is_pos_x = w.x.gt(zero) | (w.x.eq(zero) & lo_x.gt(zero));
    let is_pos_y = w.y.gt(zero) | (w.y.eq(zero) & lo_y.gt(zero));
    let x = slabs(lo_x, hi_x, r, w.x, is_pos_x);
    let y = slabs(lo_y, hi_y, r, w.y, is_pos_y);
    let enter_x = x.in_grown.max(y.in_box);
    let exit_x = x.out_grown.min(y.out_box);
    let enter_y = y.in_grown.max(x.in_box);
    let exit_y = y.out_grown.min(x.out_box);
    let t_x = W::select(
        enter_x.le(exit_x) & enter_x.ge(zero) & enter_x.le(one),
        enter_x,
        inf,
    );
    let t_y = W::select(
        enter_y.le(exit_y) & enter_y.ge(zero) & enter_y.le(one),
        enter_y,
        inf,
    );
    let rank_x = W::select(x.in_grown.ge(y.in_box), zero, W::splat(4.0));
    let rank_y = W::select(y.in_grown.ge(x.in_box), one, W::splat(5.0));
    let fx = W::select(is_pos_x, min_x, max_x);
    let fy = W::select(is_pos_y, min_y, max_y);
    let bx = W::select(is_pos_x, max_x, min_x);
    let by = W::select(is_pos_y, max_y, min_y);
    let aa = w.x * w.x + w.y * w.y;
    let f = corner(c.x - fx, c.y - fy, w, rr, aa);
    let is_same = pick(is_pos_x, is_pos_y, !is_pos_y);
    let to_x = pick(is_same, f.cross.gt(zero), f.cross.lt(zero));
    let nx = W::select(to_x, bx, fx);
    let ny = W::select(to_x, fy, by);
    let n = corner(c.x - nx, c.y - ny, w, rr, aa);
    let is_valid = is_valid & r.ge(zero) & aa.le(big) & rr.le(big) & f.fits & n.fits;
    let has_radius = r.gt(zero);
    let t_f = W::select(has_radius & f.is_hit, f.t, inf);
    let t_n = W::select(has_radius & n.is_hit, n.t, inf);
    let (two, three) = (W::splat(2.0), W::splat(3.0));
    let xy_first = is_first(t_x, rank_x, t_y, rank_y);
    let (t_xy, rank_xy) = (
        W::select(xy_first, t_x, t_y),
        W::select(xy_first, rank_x, rank_y),
    );
    let f_first = is_first(t_f, two, t_n, three);
    let (t_fn, rank_fn) = (W::select(f_first, t_f, t_n), W::select(f_first, two, three));
    let face_first = is_first(t_xy, rank_xy, t_fn, rank_fn);
    let t_win = W::select(face_first, t_xy, t_fn);
    let rank = W::select(face_first, rank_xy, rank_fn);
    let is_moving_in = (ex * w.x + ey * w.y).gt(zero);
    let is_touching = dist2.eq(rr);
    let is_hit_at_zero = is_touching & t_win.eq(zero) & (r.eq(zero) | is_moving_in);
    let is_inside = dist2.lt(rr) | is_touching.and_not(is_hit_at_zero);
    let is_contact = is_valid & (is_inside | t_win.le(one));
    let is_overlapping = is_contact & is_inside;
    let is_hit = is_contact.and_not(is_inside);
    let t = t_win.max(zero);
    let on_x = rank.eq(zero) | rank.eq(W::splat(4.0));
    let on_y = rank.eq(one) | rank.eq(W::splat(5.0));
    let on_n = rank.eq(three);
    let kx = W::select(on_n, nx, fx);
    let ky = W::select(on_n, ny, fy);
    let (dkx, dky) = (c.x - kx, c.y - ky);
    let (px, py) = (dkx + t * w.x, dky + t * w.y);
    let qx = px.max(min_x - kx).min(max_x - kx);
    let qy = py.max(min_y - ky).min(max_y - ky);
    let (ux, uy) = (px - qx, py - qy);
    let len = (ux * ux + uy * uy).sqrt();
    let on_nx = on_n & to_x;
    let on_ny = on_n.and_not(to_x);
    let is_min_x = pick(is_pos_x, !on_nx, on_nx);
    let is_min_y = pick(is_pos_y, !on_ny, on_ny);
    let (diag, neg_diag) = (
        W::splat(core::f32::consts::FRAC_1_SQRT_2),
        W::splat(-core::f32::consts::FRAC_1_SQRT_2),
    );
    let has_len = len.gt(zero);
    let cnx = W::select(has_len, ux / len, W::select(is_min_x, neg_diag, diag));
    let cny = W::select(has_len, uy / len, W::select(is_min_y, neg_diag, diag));
    let (neg_one, pos_one) = (W::splat(-1.0), one);
    let face_x = W::select(is_pos_x, neg_one, pos_one);
    let face_y = W::select(is_pos_y, neg_one, pos_one);
    let nbx = W::select(on_x, face_x, W::select(on_y, zero, cnx));
    let nby = W::select(on_x, zero, W::select(on_y, face_y, cny));
    let ax = kx.abs() + c.x.abs();
    let ay = ky.abs() + c.y.abs();
    let base = W::select(on_x, ax, W::select(on_y, ay, ax + ay));
    let nudge = ((base + mag) + r) * W::splat(NUDGE);
    let reach = r + nudge;
    let stop_x = W::select(
        on_x,
        x.near_grown + nbx * nudge,
        W::select(on_y, t * w.x, (nbx * reach + qx) - dkx),
    );
    let stop_y = W::select(
        on_x,
        t * w.y,
        W::select(on_y, y.near_grown + nby * nudge, (nby * reach + qy) - dky),
    );
    SweepW {
        is_hit,
        is_overlapping,
        t: W::select(is_hit, t, W::select(is_overlapping, zero, one)),
        normal: Vec2W {
            x: W::select(is_hit, nbx, zero),
            y: W::select(is_hit, nby, zero),
        },
        stop: Vec2W {
            x: W::select(is_hit, stop_x, W::select(is_overlapping, zero, w.x)),
            y: W::select(is_hit, stop_y, W::select(is_overlapping, zero, w.y)),
        },
    }
}

/// Lane `i`: box `a` moving by `ma` against disc `b` moving by `mb` over one frame,
/// bit-identical to [`scalar::sweep_aabb_circle`](fn@crate::narrow::scalar::sweep_aabb_circle).
///
/// ```
/// use hantei::{Aabb, Circle};
/// use hantei::narrow::scalar;
/// use hantei::narrow::wide::{AabbW, CircleW, PortableW, Vec2W, sweep_aabb_circle};
/// use glam::Vec2;
/// let a = Aabb::from_coords(0.0, 0.0, 2.0, 2.0);
/// let b = Circle::new(Vec2::new(5.0, 3.0), 1.0);
/// let speeds: [Vec2; 8] = core::array::from_fn(|i| Vec2::new(i as f32, i as f32));
/// let s = sweep_aabb_circle(
///     &AabbW::<PortableW>::splat(&a), &Vec2W::from_array(&speeds),
///     &CircleW::splat(&b), &Vec2W::splat(Vec2::ZERO),
/// );
/// for i in 0..8 {
///     assert_eq!(s.lane(i), scalar::sweep_aabb_circle(&a, speeds[i], &b, Vec2::ZERO));
/// }
/// assert!(!s.lane(1).is_hit() && s.lane(3).is_hit());
/// ```
#[inline(always)]
#[must_use]
pub fn sweep_aabb_circle<W: F32W>(
    a: &AabbW<W>,
    ma: &Vec2W<W>,
    b: &CircleW<W>,
    mb: &Vec2W<W>,
) -> SweepW<W> {
    let zero = W::splat(0.0);
    let is_finite = all_finite([
        a.min_x, a.min_y, a.max_x, a.max_y, b.x, b.y, b.radius, ma.x, ma.y, mb.x, mb.y,
    ]);
    let is_valid = is_finite & a.min_x.le(a.max_x) & a.min_y.le(a.max_y);
    let w = Vec2W {
        x: mb.x - ma.x,
        y: mb.y - ma.y,
    };
    let c = Vec2W { x: b.x, y: b.y };
    let s = rounded_box(
        a.min_x, a.min_y, a.max_x, a.max_y, &c, &w, b.radius, zero, is_valid,
    );
    let is_miss = !(s.is_hit | s.is_overlapping);
    SweepW {
        is_hit: s.is_hit,
        is_overlapping: s.is_overlapping,
        t: s.t,
        normal: Vec2W {
            x: W::select(s.is_hit, zero - s.normal.x, s.normal.x),
            y: W::select(s.is_hit, zero - s.normal.y, s.normal.y),
        },
        stop: Vec2W {
            x: W::select(is_miss, ma.x - mb.x, zero - s.stop.x),
            y: W::select(is_miss, ma.y - mb.y, zero - s.stop.y),
        },
    }
}
