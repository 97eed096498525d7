//! Property checks for tile-map motion, shared by the tests and the fuzz targets
//! (compiled with `cfg(test)` or the `fuzzing` feature).
//!
//! Each check runs the query, then verifies its answer against the definitions alone:
//! solid cells come from [`TileMap::get`] and [`TileMap::tile_aabb`], and "inside" is the
//! interior of the union of solid cells (positive-area overlap for boxes; for segments and
//! points, the seam rule of the module docs), evaluated cell by cell without the sweep
//! code. A per-axis step sweeps an axis-aligned box, so its path is checked exactly; a
//! cast's path is the convex hull of its start and end boxes, checked by separating axes
//! with a tolerance of a few `f32` ulps on the diagonal axes only.
//!
//! Cost: every check scans the cells within two cells of the body's path (plus the ring
//! outside the map where the path reaches it): the whole map for a path across it.

use super::exact::within;
use super::map::{Reach, TileMap};
use super::slide::{AxisOrder, Direction, SlideOptions, SlideResult, TileEdge, TileHit};
use super::{CastResult, EMPTY};
use crate::error::{AsciiDefect, Error};
use crate::math::Aabb;
use core::cmp::Ordering;
use glam::{IVec2, Vec2};

/// A closed box in `f64`; ring cells outside the map extend to infinity.
type Box64 = [f64; 4];

fn box64(b: &Aabb) -> Box64 {
    [
        f64::from(b.min.x),
        f64::from(b.min.y),
        f64::from(b.max.x),
        f64::from(b.max.y),
    ]
}

/// The world box of cell `(c, r)`, `c` in `-1..=width`, `r` in `-1..=height`.
fn cell_box(map: &TileMap, c: i64, r: i64) -> Box64 {
    let axis = |k: i64, n: i64, a: usize| -> (f64, f64) {
        let edge = |k: i64| {
            let t = map.tile_aabb(if a == 0 {
                IVec2::new(k as i32, 0)
            } else {
                IVec2::new(0, k as i32)
            });
            f64::from(t.min[a])
        };
        let lo = if k < 0 { f64::NEG_INFINITY } else { edge(k) };
        let hi = if k >= n { f64::INFINITY } else { edge(k + 1) };
        (lo, hi)
    };
    let (x0, x1) = axis(c, i64::from(map.width()), 0);
    let (y0, y1) = axis(r, i64::from(map.height()), 1);
    [x0, y0, x1, y1]
}

fn solid(map: &TileMap, c: i64, r: i64) -> bool {
    map.get(IVec2::new(c as i32, r as i32)) != EMPTY
}

/// Every solid cell within two cells of the boxes `near`, the ring outside the map
/// included, as `(c, r, box)`. The checks look at no cell farther away (their boxes
/// move by one ulp at most, less than a tile), so a large map costs only the cells
/// around the body's path. A box with a NaN coordinate takes in the whole map.
fn solid_cells(map: &TileMap, near: &[Aabb]) -> Vec<(i64, i64, Box64)> {
    let (w, h) = (i64::from(map.width()), i64::from(map.height()));
    let range = |a: usize, n: i64| {
        let lo = near
            .iter()
            .map(|b| f64::from(b.min[a]))
            .fold(f64::INFINITY, f64::min);
        let hi = near
            .iter()
            .map(|b| f64::from(b.max[a]))
            .fold(f64::NEG_INFINITY, f64::max);
        if near.iter().any(|b| b.min[a].is_nan() || b.max[a].is_nan()) || lo > hi {
            return (-1, n);
        }
        let (k0, k1) = (map.floor_index(a, lo), map.floor_index(a, hi));
        ((k0 - 2).max(-1), (k1 + 2).min(n))
    };
    let ((c0, c1), (r0, r1)) = (range(0, w), range(1, h));
    let mut v = Vec::new();
    for r in r0..=r1 {
        for c in c0..=c1 {
            if solid(map, c, r) {
                v.push((c, r, cell_box(map, c, r)));
            }
        }
    }
    v
}

/// The solid cells through whose part of the solid interior `b` passes.
fn interior_cells(map: &TileMap, cells: &[(i64, i64, Box64)], b: &Box64) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for &(c, r, cb) in cells {
        let i = [
            cb[0].max(b[0]),
            cb[1].max(b[1]),
            cb[2].min(b[2]),
            cb[3].min(b[3]),
        ];
        if i[0] > i[2] || i[1] > i[3] {
            continue;
        }
        let (wide, tall) = (i[0] < i[2], i[1] < i[3]);
        let inside = match (wide, tall) {
            (true, true) => true,
            // A horizontal segment: inside the cell's rows, or on an edge shared with a
            // solid cell across it.
            (true, false) => {
                let y = i[1];
                (cb[1] < y && y < cb[3]) || solid(map, c, if y == cb[1] { r - 1 } else { r + 1 })
            }
            (false, true) => {
                let x = i[0];
                (cb[0] < x && x < cb[2]) || solid(map, if x == cb[0] { c - 1 } else { c + 1 }, r)
            }
            // A point: every cell around it must be solid.
            (false, false) => {
                let around = |v: f64, lo: f64, hi: f64, k: i64| -> Vec<i64> {
                    if v == lo {
                        vec![k - 1, k]
                    } else if v == hi {
                        vec![k, k + 1]
                    } else {
                        vec![k]
                    }
                };
                let cs = around(i[0], cb[0], cb[2], c);
                let rs = around(i[1], cb[1], cb[3], r);
                cs.iter().all(|&cc| rs.iter().all(|&rr| solid(map, cc, rr)))
            }
        };
        if inside {
            out.push((c, r));
        }
    }
    out
}

/// Whether `cells` (as [`interior_cells`] lists them: by row, then column) holds `c`,
/// by binary search: a large body overlaps thousands of cells.
fn holds(cells: &[(i64, i64)], c: &(i64, i64)) -> bool {
    cells
        .binary_search_by_key(&(c.1, c.0), |&(x, y)| (y, x))
        .is_ok()
}

fn union64(a: &Box64, b: &Box64) -> Box64 {
    [
        a[0].min(b[0]),
        a[1].min(b[1]),
        a[2].max(b[2]),
        a[3].max(b[3]),
    ]
}

/// Overlap lengths of `b` with cell box `cb` on both axes (0 when apart).
fn overlap(b: &Box64, cb: &Box64) -> [f64; 2] {
    [
        (b[2].min(cb[2]) - b[0].max(cb[0])).max(0.0),
        (b[3].min(cb[3]) - b[1].max(cb[1])).max(0.0),
    ]
}

fn lead_trail(b: &Aabb, a: usize, up: bool) -> (f32, f32) {
    if up {
        (b.max[a], b.min[a])
    } else {
        (b.min[a], b.max[a])
    }
}

/// The next `f32` from `x` in the direction `up`.
fn step(x: f32, up: bool) -> f32 {
    if up { x.next_up() } else { x.next_down() }
}

/// `b` with its face on side (`a`, `up`) moved one ulp outward.
fn nudged(b: &Aabb, a: usize, up: bool) -> Aabb {
    let mut e = *b;
    if up {
        e.max[a] = e.max[a].next_up();
    } else {
        e.min[a] = e.min[a].next_down();
    }
    e
}

/// Whether the input must be rejected, and the error it must be rejected with.
fn expected_error(body: Aabb, motion: Vec2) -> Option<Error> {
    if let Err(defect) = body.validate() {
        Some(Error::InvalidBox { index: 0, defect })
    } else if !motion.is_finite() {
        Some(Error::InvalidMotion { index: 0 })
    } else if [body.min + motion, body.max + motion]
        .iter()
        .any(|p| !p.is_finite())
    {
        Some(Error::OutOfRange {
            handle: None,
            index: 0,
            limit: f32::MAX,
        })
    } else {
        None
    }
}

/// Checks [`TileMap::move_and_slide_with`] on one input for both axis orders and both
/// y directions: valid input never fails and bad input gets the right typed error; the
/// body never ends inside, nor passes through, a solid tile it did not start in; no face
/// moves farther than asked or against the motion; the size never shrinks; a hit is
/// solid, flush and reported on the right edge; no hit means the full motion;
/// `grounded` matches a one-ulp probe.
///
/// # Errors
/// A description of the first violated property.
pub fn check_move_and_slide(map: &TileMap, body: Aabb, motion: Vec2) -> Result<(), String> {
    for order in [AxisOrder::XThenY, AxisOrder::YThenX] {
        for down in [Direction::PosY, Direction::NegY] {
            let options = SlideOptions { order, down };
            check_move_and_slide_with(map, body, motion, &options)?;
        }
    }
    Ok(())
}

/// [`check_move_and_slide`] for one set of options.
///
/// # Errors
/// A description of the first violated property.
pub fn check_move_and_slide_with(
    map: &TileMap,
    body: Aabb,
    motion: Vec2,
    options: &SlideOptions,
) -> Result<(), String> {
    let got = map.move_and_slide_with(body, motion, options);
    match (expected_error(body, motion), got) {
        (Some(e), Err(g)) if e == g => Ok(()),
        (Some(e), other) => Err(format!("expected {e:?}, got {other:?}")),
        (None, Err(g)) => Err(format!("valid input rejected: {g:?}")),
        (None, Ok(r)) => {
            verify_slide(map, body, motion, options, &r)?;
            verify_contacts(map, &r.aabb)
        }
    }
}

/// [`TileMap::contact`] on all four sides of `b` agrees with a one-ulp probe, and a
/// contact reports the face's own coordinate on the right edge.
fn verify_contacts(map: &TileMap, b: &Aabb) -> Result<(), String> {
    let cells = solid_cells(map, &[*b]);
    for side in [
        Direction::PosX,
        Direction::NegX,
        Direction::PosY,
        Direction::NegY,
    ] {
        let c = map
            .contact(*b, side)
            .map_err(|e| format!("contact failed: {e:?}"))?;
        verify_grounded(map, &cells, b, side, c.is_some())
            .map_err(|e| format!("contact {side:?} of {b:?}: {e}"))?;
        if let Some(h) = c {
            let (a, up) = side.axis_sign();
            let face = if up { b.max[a] } else { b.min[a] };
            if h.coord != face || h.edge != TileEdge::facing(a, up) || map.get(h.tile) != h.kind {
                return Err(format!("contact {side:?} of {b:?}: wrong report {h:?}"));
            }
        }
    }
    Ok(())
}

/// Verifies a [`SlideResult`] claimed for `body` moved by `motion` (public so that the
/// checks themselves can be tested on wrong answers).
///
/// # Errors
/// A description of the first violated property.
pub fn verify_slide(
    map: &TileMap,
    body: Aabb,
    motion: Vec2,
    options: &SlideOptions,
    r: &SlideResult,
) -> Result<(), String> {
    let cells = solid_cells(map, &[body, r.aabb]);
    let ctx = |what: String| {
        format!("{what} (body {body:?}, motion {motion:?}, {options:?}, result {r:?})")
    };
    let mut before = body;
    for a in options.order.axes() {
        let mut after = before;
        after.min[a] = r.aabb.min[a];
        after.max[a] = r.aabb.max[a];
        verify_axis_step(map, &cells, &before, &after, a, motion[a], r.hit(a)).map_err(ctx)?;
        before = after;
    }
    verify_grounded(map, &cells, &r.aabb, options.down, r.grounded).map_err(ctx)
}

fn verify_axis_step(
    map: &TileMap,
    cells: &[(i64, i64, Box64)],
    b0: &Aabb,
    b1: &Aabb,
    a: usize,
    d: f32,
    hit: Option<&TileHit>,
) -> Result<(), String> {
    let axis = ["x", "y"][a];
    if d == 0.0 {
        if b0 != b1 || hit.is_some() {
            return Err(format!("{axis}: moved or hit without motion"));
        }
        return Ok(());
    }
    let up = d > 0.0;
    let (lead0, trail0) = lead_trail(b0, a, up);
    let (lead1, trail1) = lead_trail(b1, a, up);
    // Direction and distance, exactly.
    if !within(lead0, lead1, d) || !within(trail0, trail1, d) {
        return Err(format!(
            "{axis}: a face moved against the motion or farther than asked"
        ));
    }
    // The trailing face moves no farther than the leading one (no shrinking), and lags by
    // less than one ulp.
    let lag = super::exact::cmp_diff(trail1, trail0, lead1, lead0);
    let too_far = if up {
        Ordering::Greater
    } else {
        Ordering::Less
    };
    if lag == Some(too_far) || lag.is_none() {
        return Err(format!("{axis}: the box shrank"));
    }
    // (A trailing face saturated at ±f32::MAX has no next value to compare.)
    if lead1 != lead0
        && step(trail1, up).is_finite()
        && super::exact::cmp_diff(step(trail1, up), trail0, lead1, lead0) != Some(too_far)
    {
        return Err(format!("{axis}: the trailing face lags by an ulp or more"));
    }
    // The path: an axis-aligned box, checked exactly.
    let (s0, s1) = (box64(b0), box64(b1));
    let start = interior_cells(map, cells, &s0);
    let swept = interior_cells(map, cells, &union64(&s0, &s1));
    if let Some(c) = swept.iter().find(|c| !holds(&start, c)) {
        return Err(format!(
            "{axis}: passed through or ended in solid cell {c:?}"
        ));
    }
    for &(c, r, cb) in cells {
        let (o0, o1) = (overlap(&s0, &cb), overlap(&s1, &cb));
        if o1[0] * o1[1] > 0.0 && o1[a] > o0[a] {
            return Err(format!("{axis}: moved deeper into solid cell {:?}", (c, r)));
        }
    }
    match hit {
        None => {
            // Nothing hit: the full motion, to the last f32 not past it.
            if within(lead0, step(lead1, up), d) {
                return Err(format!("{axis}: stopped short without a hit"));
            }
        }
        Some(h) => {
            let want_edge = TileEdge::facing(a, up);
            if h.edge != want_edge {
                return Err(format!(
                    "{axis}: hit edge {:?}, expected {want_edge:?}",
                    h.edge
                ));
            }
            if h.kind == EMPTY || map.get(h.tile) != h.kind {
                return Err(format!(
                    "{axis}: hit tile {:?} is not solid kind {}",
                    h.tile, h.kind
                ));
            }
            if lead1 != h.coord {
                return Err(format!(
                    "{axis}: leading face {lead1} is not at the hit {}",
                    h.coord
                ));
            }
            let tb = cell_box(map, i64::from(h.tile.x), i64::from(h.tile.y));
            let p = 1 - a;
            let across = tb[p] <= f64::from(b1.max[p]) && f64::from(b1.min[p]) <= tb[p + 2];
            if !across {
                return Err(format!(
                    "{axis}: hit tile {:?} is not across the body",
                    h.tile
                ));
            }
            if h.embedded {
                let (lo, hi) = (tb[a], tb[a + 2]);
                let l = f64::from(lead0);
                if lead1 != lead0 || !(lo < l && l < hi) {
                    return Err(format!(
                        "{axis}: embedded hit, but the face moved or is not inside"
                    ));
                }
            } else {
                let near = if up { tb[a] } else { tb[a + 2] };
                if f64::from(h.coord) != near {
                    return Err(format!(
                        "{axis}: hit at {} but the tile edge is at {near}",
                        h.coord
                    ));
                }
                // One ulp further would enter the solid interior through this tile.
                let e = box64(&nudged(b1, a, up));
                let into = interior_cells(map, cells, &e);
                if !holds(&into, &(i64::from(h.tile.x), i64::from(h.tile.y))) {
                    return Err(format!(
                        "{axis}: hit tile {:?} does not block the face",
                        h.tile
                    ));
                }
            }
        }
    }
    Ok(())
}

fn verify_grounded(
    map: &TileMap,
    cells: &[(i64, i64, Box64)],
    b: &Aabb,
    down: Direction,
    grounded: bool,
) -> Result<(), String> {
    let (a, up) = down.axis_sign();
    let s = box64(b);
    if !interior_cells(map, cells, &s).is_empty() {
        return Ok(()); // Embedded: "grounded" follows the start-inside rule instead.
    }
    let e = nudged(b, a, up);
    if !e.min[a].is_finite() || !e.max[a].is_finite() {
        return Ok(());
    }
    let want = !interior_cells(map, cells, &box64(&e)).is_empty();
    if want != grounded {
        return Err(format!(
            "grounded is {grounded}, a one-ulp probe {down:?} says {want}"
        ));
    }
    Ok(())
}

/// Checks [`TileMap::cast`] on one input: typed errors for bad input; the fast path
/// agrees with the full DDA; the straight path from the start box to the end box enters
/// no solid tile the body did not start in (up to a few ulps across the diagonal); no
/// face moves farther than asked or against the motion; a hit is solid, flush on its
/// axis, at the reported time; no hit means the full motion.
///
/// # Errors
/// A description of the first violated property.
pub fn check_cast(map: &TileMap, body: Aabb, motion: Vec2) -> Result<(), String> {
    let got = map.cast(body, motion);
    let r = match (expected_error(body, motion), got) {
        (Some(e), Err(g)) if e == g => return Ok(()),
        (Some(e), other) => return Err(format!("expected {e:?}, got {other:?}")),
        (None, Err(g)) => return Err(format!("valid input rejected: {g:?}")),
        (None, Ok(r)) => r,
    };
    let slow = map.cast_unchecked(body, motion, false);
    if slow != r {
        return Err(format!("fast path {r:?} differs from the DDA {slow:?}"));
    }
    verify_cast(map, body, motion, &r)
        .map_err(|e| format!("{e} (body {body:?}, motion {motion:?}, result {r:?})"))?;
    check_region_clear(map, body, motion, r.hit.is_some())?;
    check_reach(map, body, motion)
}

/// Checks [`TileMap::reach`] for `body` swept along `motion`. The wall pass tests only
/// the cells it gives, so every cell whose box meets the swept box, edges included,
/// must be among them. When it answers "clear", no cell of the map meets the swept
/// box. When it gives cells on a map with a solid outside, the swept box keeps off the
/// map's edges.
///
/// # Errors
/// A description of the cell left out.
pub fn check_reach(map: &TileMap, body: Aabb, motion: Vec2) -> Result<(), String> {
    let s = body.swept(motion);
    let ranges = match map.reach(body, motion) {
        Reach::Unsure => return Ok(()),
        Reach::Clear => None,
        Reach::Cells(xs, ys) => Some((xs, ys)),
    };
    let bounds = map.bounds();
    if ranges.is_some()
        && map.outside() != EMPTY
        && (0..2).any(|a| s.min[a] <= bounds.min[a] || s.max[a] >= bounds.max[a])
    {
        return Err(format!(
            "reach gives cells for {s:?}, which meets the solid outside of {bounds:?}"
        ));
    }
    let inside = |k: u32, (lo, hi): (i64, i64)| (lo..=hi).contains(&i64::from(k));
    for y in 0..map.height() {
        for x in 0..map.width() {
            let cell = map.tile_aabb(IVec2::new(x as i32, y as i32));
            if !s.overlaps(&cell) {
                continue;
            }
            let kept = ranges.is_some_and(|(c, r)| inside(x, c) && inside(y, r));
            if !kept {
                return Err(format!(
                    "reach ({ranges:?}) leaves out cell ({x}, {y}) at {cell:?}, which {s:?} meets"
                ));
            }
        }
    }
    Ok(())
}

/// The one-lookup open-space test ([`TileMap::region_clear`]) on `body` swept along
/// `motion`: when it answers "clear", the exact cell scan ([`TileMap::open_space`])
/// agrees and the cast hit nothing (`hit`).
///
/// # Errors
/// A description of the disagreement.
pub fn check_region_clear(
    map: &TileMap,
    body: Aabb,
    motion: Vec2,
    hit: bool,
) -> Result<(), String> {
    let Some(fast) = map.fast_index else {
        return Ok(());
    };
    let s = body.swept(motion);
    if !map.region_clear(fast, [s.min.x, s.min.y, s.max.x, s.max.y]) {
        return Ok(());
    }
    if hit || !map.open_space(body, motion) {
        return Err(format!(
            "region_clear calls {s:?} clear, but the cast hit ({hit}) or the cells it \
             reaches are not all empty"
        ));
    }
    Ok(())
}

/// Verifies a [`CastResult`] claimed for `body` cast along `motion`.
///
/// # Errors
/// A description of the first violated property.
pub fn verify_cast(map: &TileMap, body: Aabb, motion: Vec2, r: &CastResult) -> Result<(), String> {
    let cells = solid_cells(map, &[body, r.aabb]);
    let (b0, b1) = (body, r.aabb);
    for a in 0..2 {
        let d = motion[a];
        let (lo_ok, hi_ok) = (
            within(b0.min[a], b1.min[a], d),
            within(b0.max[a], b1.max[a], d),
        );
        if !(lo_ok && hi_ok) {
            return Err(format!(
                "axis {a}: a face moved against the motion or farther than asked"
            ));
        }
        let (s0, s1) = (b0.max[a] - b0.min[a], b1.max[a] - b1.min[a]);
        let ulp = |v: f32| (v.abs().next_up() - v.abs()).max(f32::MIN_POSITIVE);
        let slack = 2.0 * ulp(b1.min[a]).max(ulp(b1.max[a]));
        if s1.is_finite() && s0.is_finite() && (s1 - s0).abs() > slack {
            return Err(format!("axis {a}: size changed from {s0} to {s1}"));
        }
    }
    let (s0, s1) = (box64(&b0), box64(&b1));
    let start = interior_cells(map, &cells, &s0);
    if let Some(c) = interior_cells(map, &cells, &s1)
        .iter()
        .find(|c| !holds(&start, c))
    {
        return Err(format!("ended in solid cell {c:?}"));
    }
    if motion.x == 0.0 || motion.y == 0.0 {
        let swept = interior_cells(map, &cells, &union64(&s0, &s1));
        if let Some(c) = swept.iter().find(|c| !holds(&start, c)) {
            return Err(format!("passed through solid cell {c:?}"));
        }
    }
    for &(c, rr, cb) in &cells {
        if holds(&start, &(c, rr)) {
            let (o0, o1) = (overlap(&s0, &cb), overlap(&s1, &cb));
            let (a0, a1) = (o0[0] * o0[1], o1[0] * o1[1]);
            if a1 > a0 * (1.0 + 1e-9) {
                return Err(format!("moved deeper into solid cell {:?}", (c, rr)));
            }
        } else if hull_enters(&s0, &s1, &cb) {
            return Err(format!("the path crosses solid cell {:?}", (c, rr)));
        }
    }
    match r.hit {
        None => {
            if r.toi != 1.0 {
                return Err("no hit but toi != 1".into());
            }
            for a in 0..2 {
                let d = motion[a];
                if d != 0.0 {
                    let up = d > 0.0;
                    let (lead0, _) = lead_trail(&b0, a, up);
                    let (lead1, _) = lead_trail(&b1, a, up);
                    if within(lead0, step(lead1, up), d) {
                        return Err(format!("axis {a}: stopped short without a hit"));
                    }
                }
            }
        }
        Some(h) => {
            let a = h.edge.axis();
            let d = motion[a];
            let up = d > 0.0;
            if d == 0.0 || h.edge != TileEdge::facing(a, up) {
                return Err(format!("hit edge {:?} does not face the motion", h.edge));
            }
            if h.kind == EMPTY || map.get(h.tile) != h.kind {
                return Err(format!(
                    "hit tile {:?} is not solid kind {}",
                    h.tile, h.kind
                ));
            }
            let (lead0, _) = lead_trail(&b0, a, up);
            let (lead1, _) = lead_trail(&b1, a, up);
            if lead1 != h.coord {
                return Err(format!(
                    "leading face {lead1} is not at the hit {}",
                    h.coord
                ));
            }
            if !(0.0..=1.0).contains(&r.toi) {
                return Err(format!("toi {} out of [0, 1]", r.toi));
            }
            if h.embedded && b0 != b1 {
                return Err("an embedded hit moved the body".into());
            }
            let tb = cell_box(map, i64::from(h.tile.x), i64::from(h.tile.y));
            let p = 1 - a;
            if !(tb[p] <= f64::from(b1.max[p]) && f64::from(b1.min[p]) <= tb[p + 2]) {
                return Err(format!("hit tile {:?} is not across the body", h.tile));
            }
            if h.embedded {
                let l = f64::from(lead0);
                if !(tb[a] < l && l < tb[a + 2]) {
                    return Err("embedded hit, but the face is not inside the tile".into());
                }
            } else {
                let near = if up { tb[a] } else { tb[a + 2] };
                if f64::from(h.coord) != near {
                    return Err(format!("hit at {} but the tile edge is at {near}", h.coord));
                }
                // The reported time matches the hit face's travel.
                let t = (f64::from(h.coord) - f64::from(lead0)) / f64::from(d);
                if (t - f64::from(r.toi)).abs() > 1e-5 + 1e-5 * t.abs() {
                    return Err(format!("toi {} but the hit face travelled {t}", r.toi));
                }
            }
        }
    }
    Ok(())
}

/// Whether the convex hull of boxes `s0` and `s1` overlaps the open cell `cb` by more
/// than a few ulps (separating axes: x, y, and the normals of the four corner paths).
fn hull_enters(s0: &Box64, s1: &Box64, cb: &Box64) -> bool {
    let h = union64(s0, s1);
    if !(cb[0] < h[2] && h[0] < cb[2] && cb[1] < h[3] && h[1] < cb[3]) {
        return false;
    }
    // Clip the (possibly infinite) cell to the hull's bounds: the intersection is unchanged.
    let c = [
        cb[0].max(h[0]),
        cb[1].max(h[1]),
        cb[2].min(h[2]),
        cb[3].min(h[3]),
    ];
    let corners = |b: &Box64| [(b[0], b[1]), (b[2], b[1]), (b[0], b[3]), (b[2], b[3])];
    let (c0, c1, cc) = (corners(s0), corners(s1), corners(&c));
    let scale = s0
        .iter()
        .chain(s1)
        .chain(&c)
        .fold(1.0f64, |m, v| m.max(v.abs()));
    for k in 0..4 {
        let (vx, vy) = (c1[k].0 - c0[k].0, c1[k].1 - c0[k].1);
        let (nx, ny) = (-vy, vx);
        if nx == 0.0 || ny == 0.0 {
            continue; // axis-aligned: already tested
        }
        let proj = |pts: &[(f64, f64)]| {
            pts.iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                    let v = nx * p.0 + ny * p.1;
                    (lo.min(v), hi.max(v))
                })
        };
        let (hl, hh) = proj(&[c0, c1].concat());
        let (cl, ch) = proj(&cc);
        let tol = 4.0 * f64::from(f32::EPSILON) * scale * (nx.abs() + ny.abs());
        if ch <= hl + tol || cl >= hh - tol {
            return false;
        }
    }
    true
}

/// Builds a map, a body and a motion from raw bytes (for fuzz targets): sizes
/// (1 to 12 cells a side, or 0 for a size byte of 255: maps without cells),
/// tile size and origin from short tables (including origins near `±10⁶` and tile sizes
/// that are not powers of two), cells as bits, and a body either on a grid of eighth
/// tiles (many exact contacts) or from raw `f32` bits (NaN, infinities, huge values).
/// `None` when the bytes run out or the map is rejected.
///
/// Bytes left over after the body and motion may change the map (other leftovers are
/// ignored, so older inputs keep their meaning):
/// - `b'L'` then a large map: its size (two bytes a side, up to
///   [`TileMap::MAX_SIDE`], at most [`LARGE_CELLS`] cells in all), where the small
///   map sits in it (the small map's tiles keep their place in the world), and up to
///   16 rectangles of walls or of empty tiles. See [`large_map`].
/// - `b'A'` then ASCII art: a flags byte (bit 0: read it y-up), then one character a
///   byte from a table of tiles, line ends, blanks and characters that are no tile.
///   The text is read with the small map's tile size and origin, and checked by
///   [`check_ascii`]; a text refused as documented gives `None`.
///
/// # Panics
/// When the ASCII reader breaks its contract (see [`check_ascii`]).
#[must_use]
pub fn input_from_bytes(data: &[u8]) -> Option<(TileMap, Aabb, Vec2)> {
    const TILES: [f32; 6] = [1.0, 16.0, 0.1, 7.3, 0.5, 3.0];
    const ORIGINS: [(f32, f32); 5] = [
        (0.0, 0.0),
        (1.0e6, 1.0e6),
        (-1.0e6, 37.5),
        (1000.5, -2.7),
        (-3.3, 1.0e5),
    ];
    let mut it = data.iter().copied();
    let mut byte = || it.next();
    let side = |b: u8| {
        if b == u8::MAX {
            0
        } else {
            u32::from(b % 12) + 1
        }
    };
    let w = side(byte()?);
    let h = side(byte()?);
    let t = byte()?;
    let o = byte()?;
    let tile = Vec2::new(TILES[usize::from(t % 6)], TILES[usize::from((t / 6) % 6)]);
    let (ox, oy) = ORIGINS[usize::from(o % 5)];
    let n = (w * h) as usize;
    let mut cells = vec![EMPTY; n];
    for chunk in 0..n.div_ceil(8) {
        let bits = byte()?;
        for (i, cell) in cells.iter_mut().enumerate().skip(chunk * 8).take(8) {
            *cell = (bits >> (i % 8)) & 1;
        }
    }
    let map = TileMap::from_cells(w, h, cells, tile, Vec2::new(ox, oy)).ok()?;
    let map = if o & 0x80 != 0 {
        map.with_outside(2)
    } else {
        map
    };
    let mode = byte()?;
    let (body, motion) = body_from_bytes(&map, tile, mode, &mut byte)?;
    let map = match byte() {
        Some(b'L') => large_map(&map, &mut byte)?,
        Some(b'A') => {
            let y_up = byte()? & 1 == 1;
            let text: String = core::iter::from_fn(&mut byte)
                .take(4096)
                .map(|b| ASCII_CHARS[usize::from(b) % ASCII_CHARS.len()])
                .collect();
            let read = check_ascii(&text, y_up, map.tile_size(), map.origin())
                .unwrap_or_else(|e| panic!("ascii reader: {e}\ntext: {text:?}"));
            read?.with_outside(map.outside())
        }
        _ => map,
    };
    Some((map, body, motion))
}

/// The body and motion of [`input_from_bytes`], after the map's bytes.
fn body_from_bytes(
    map: &TileMap,
    tile: Vec2,
    mode: u8,
    mut byte: impl FnMut() -> Option<u8>,
) -> Option<(Aabb, Vec2)> {
    Some(if mode & 1 == 1 {
        let mut f =
            || -> Option<f32> { Some(f32::from_le_bytes([byte()?, byte()?, byte()?, byte()?])) };
        let v = [f()?, f()?, f()?, f()?, f()?, f()?];
        (
            Aabb::from_coords(v[0], v[1], v[2], v[3]),
            Vec2::new(v[4], v[5]),
        )
    } else {
        // Eighths of a tile from the origin, as i16.
        let mut q =
            || -> Option<f32> { Some(f32::from(i16::from_le_bytes([byte()?, byte()?])) / 8.0) };
        let (x, y, sx, sy, mx, my) = (q()?, q()?, q()?.abs(), q()?.abs(), q()?, q()?);
        let scale = if mode & 2 == 2 { 1000.0 } else { 1.0 };
        let at = |u: f32, a: usize| map.origin()[a] + u * map.tile_size()[a];
        let min = Vec2::new(at(x, 0), at(y, 1));
        let body = Aabb::new(min, Vec2::new(at(x + sx, 0), at(y + sy, 1)));
        let motion = Vec2::new(mx * tile.x * scale, my * tile.y * scale);
        (body, motion)
    })
}

/// The most cells of a map made by [`large_map`]: large enough for rows of many words
/// and for several coarse levels, small enough to build in about a millisecond.
pub const LARGE_CELLS: u64 = 1 << 20;

/// A large map around `small` from bytes: per side two bytes `v`, the side being
/// `(v & 0xfff) << (v >> 12)` (so up to [`TileMap::MAX_SIDE`] and past it, which is
/// refused), the taller side cut down to fit [`LARGE_CELLS`]; two bytes a side for the
/// small map's place (its tiles keep their world position: the large map's origin
/// moves); then up to 16 rectangles of seven bytes (`x`, `y` as two bytes each taken
/// modulo the side, width and height a byte each, 255 meaning the whole side, and a
/// kind `0..=3`, 0 carving empty tiles). `None` when the bytes run out before the
/// place, or the map is refused.
pub fn large_map(small: &TileMap, mut byte: impl FnMut() -> Option<u8>) -> Option<TileMap> {
    let u16_ = |byte: &mut dyn FnMut() -> Option<u8>| Some(u16::from_le_bytes([byte()?, byte()?]));
    let side = |v: u16| u64::from(v & 0xfff) << (v >> 12);
    let (mut w, mut h) = (side(u16_(&mut byte)?), side(u16_(&mut byte)?));
    while w * h > LARGE_CELLS {
        if w >= h {
            w = (LARGE_CELLS / h).max(1);
        } else {
            h = (LARGE_CELLS / w).max(1);
        }
    }
    let (sw, sh) = (u64::from(small.width()), u64::from(small.height()));
    let at = |v: u16, n: u64, s: u64| u64::from(v) % (n.saturating_sub(s) + 1);
    let (ox, oy) = (at(u16_(&mut byte)?, w, sw), at(u16_(&mut byte)?, h, sh));
    let (wu, hu) = (w as usize, h as usize);
    if w > u64::from(TileMap::MAX_SIDE) || h > u64::from(TileMap::MAX_SIDE) {
        return TileMap::new(w as u32, h as u32, small.tile_size(), small.origin()).ok();
    }
    let mut cells = vec![EMPTY; wu * hu];
    for y in 0..sh.min(h - oy) {
        for x in 0..sw.min(w - ox) {
            let kind = small.get(IVec2::new(x as i32, y as i32));
            cells[(oy + y) as usize * wu + (ox + x) as usize] = kind;
        }
    }
    let mut rect = || -> Option<()> {
        let x = u64::from(u16_(&mut byte)?) % w.max(1);
        let y = u64::from(u16_(&mut byte)?) % h.max(1);
        let span = |b: u8, n: u64| if b == u8::MAX { n } else { u64::from(b) };
        let (dx, dy) = (span(byte()?, w), span(byte()?, h));
        let kind = byte()? % 4;
        for r in y..(y + dy).min(h) {
            let row = r as usize * wu;
            cells[row + x as usize..row + (x + dx).min(w) as usize].fill(kind);
        }
        Some(())
    };
    for _ in 0..16 {
        if rect().is_none() {
            break;
        }
    }
    let t = small.tile_size();
    let origin = small.origin() - Vec2::new(ox as f32 * t.x, oy as f32 * t.y);
    let map = TileMap::from_cells(w as u32, h as u32, cells, t, origin).ok()?;
    Some(map.with_outside(small.outside()))
}

/// The characters of [`input_from_bytes`]'s ASCII art: tiles, line ends (twice as
/// likely), blanks, and characters that are no tile (one of them not ASCII).
const ASCII_CHARS: [char; 18] = [
    '.', '#', '.', '#', '0', '7', '9', '\n', '\n', '\n', '\r', ' ', ' ', '\t', 'x', 'é', '.', '.',
];

/// Reads `text` as ASCII art ([`TileMap::from_ascii`], or [`TileMap::from_ascii_y_up`])
/// and checks the answer against a plain reading of the documented rules: the same
/// cells, or the first defect in the text at the same line and column, or the map
/// refused by [`TileMap::from_cells`] for the same reason.
///
/// # Errors
/// A description of the disagreement. `Ok(None)` when the text is refused as it
/// should be.
pub fn check_ascii(
    text: &str,
    y_up: bool,
    tile: Vec2,
    origin: Vec2,
) -> Result<Option<TileMap>, String> {
    let got = if y_up {
        TileMap::from_ascii_y_up(text, tile, origin)
    } else {
        TileMap::from_ascii(text, tile, origin)
    };
    // The rules, plainly: lines end at '\n' (a '\r' before it goes with it; no line
    // after the last line end), each is
    // trimmed, blank lines around the rows are dropped, rows must be non-blank, of the
    // first row's length, of tiles only.
    let lines: Vec<(usize, &str)> = text
        .split_inclusive('\n')
        .map(|l| match l.strip_suffix('\n') {
            Some(l) => l.strip_suffix('\r').unwrap_or(l),
            None => l,
        })
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .collect();
    let rows: Vec<(usize, &str)> = {
        let first = lines.iter().position(|l| !l.1.trim().is_empty());
        let last = lines.iter().rposition(|l| !l.1.trim().is_empty());
        match (first, last) {
            (Some(a), Some(b)) => lines[a..=b].to_vec(),
            _ => Vec::new(),
        }
    };
    let mut want: Result<Vec<u8>, AsciiDefect> = Err(AsciiDefect::NoRows);
    if let Some(&(first_line, first)) = rows.first() {
        let first_tiles = first.trim().chars().count();
        let mut cells = Vec::new();
        want = Ok(Vec::new());
        'rows: for &(line, raw) in &rows {
            let row = raw.trim();
            if row.is_empty() {
                want = Err(AsciiDefect::BlankLine { line });
                break;
            }
            let indent = raw.chars().count() - raw.trim_start().chars().count();
            for (k, ch) in row.chars().enumerate() {
                let kind = match ch {
                    '.' => 0,
                    '#' => 1,
                    '0'..='9' => ch as u8 - b'0',
                    found => {
                        let column = indent + k + 1;
                        want = Err(AsciiDefect::UnknownTile {
                            line,
                            column,
                            found,
                        });
                        break 'rows;
                    }
                };
                cells.push(kind);
            }
            let tiles = row.chars().count();
            if tiles != first_tiles {
                want = Err(AsciiDefect::Ragged {
                    line,
                    tiles,
                    first_line,
                    first_tiles,
                });
                break;
            }
        }
        if want.is_ok() {
            if y_up {
                let rows_read: Vec<&[u8]> = cells.chunks(first_tiles.max(1)).rev().collect();
                cells = rows_read.concat();
            }
            want = Ok(cells);
        }
    }
    let width = rows.first().map_or(0, |r| r.1.trim().chars().count()) as u32;
    match (want, got) {
        (Err(defect), Err(Error::InvalidAscii(d))) if d == defect => Ok(None),
        (Ok(cells), got) => {
            let height = rows.len() as u32;
            let plain = TileMap::from_cells(width, height, cells, tile, origin);
            match (plain, got) {
                (Ok(p), Ok(g)) if p == g => Ok(Some(g)),
                (Err(p), Err(g)) if p == g => Ok(None),
                (p, g) => Err(format!("read {g:?}, the rules give {p:?}")),
            }
        }
        (Err(defect), got) => Err(format!("read {got:?}, the rules give {defect:?}")),
    }
}
