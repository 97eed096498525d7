//! [`Frame::advance`] on arbitrary bytes: [`advance_vs_oracle`].
//!
//! A small store (up to 48 boxes: plain boxes, discs and oriented rectangles; motions
//! zero, small and huge; filters from the bullet-hell layers or arbitrary bits; owners
//! sometimes shared; solid layers from the presets or arbitrary bits; responses `Pass`,
//! `Stop`, `Destroy` and `Slide`; distinct user data) and a
//! small tile map (up to 12 × 12 cells, tile size and origin from the bytes, cells from
//! bits or an arena drawn tile by tile, the outside empty or solid) or none, with a
//! wall filter, is advanced twice by a [`Frame`] at every SIMD level on one and two
//! threads (and with the grouping in chunks of three boxes). Each advance must equal
//! [`oracle`], the documented walk on all pairs and all tiles with no broad phase and no
//! shortcuts:
//!
//! - the wall hits (box, user data, tile, status, time and normal, bit for bit), in dense
//!   order, a sliding box's from its slide;
//! - the destroyed boxes (user data, time, and their shape at that time);
//! - the contacts (one per body pair, the earliest, with its boxes, status, time and
//!   normal bit for bit);
//! - the store afterwards: a `Pass` box (or a `Stop` box that hit nothing) moved the
//!   whole way (`shape.translated(motion)`, bit for bit), a destroyed box gone, a stopped
//!   box moved by `motion · t` on every axis where the normal of the hit that stopped it
//!   is zero (exactly when the other side stands still, within rounding when it moves)
//!   and, when the other side stands still and the box did not start inside it, never
//!   inside it (strictly, in `f64`; within rounding for discs and rectangles);
//! - a sliding box where [`slide_oracle`] puts it: against walls alone exactly where
//!   [`TileMap::move_and_slide`] puts it, bit for bit;
//! - the same report and the same store for every configuration;
//! - [`Error::OutOfRange`] exactly when a box's swept bounds pass [`MAX_COORDINATE`]
//!   (naming the lowest), and then the store unchanged.

use super::bytes::{Bytes, finite};
use crate::error::Error;
use crate::frame::{
    Body, Contact, Frame, FrameConfig, Level, MAX_COORDINATE, WallHit, layers, shapes_point,
};
use crate::lanes::SimdLevel;
use crate::math::{Aabb, ContactPoint, Shape, box_enters, enters, outside_normal};
use crate::narrow::scalar::sweep_shapes;
use crate::narrow::{Sweep, SweepStatus};
use crate::store::{BoxHandle, BoxProps, BoxStore, Filter, Owner, Response};
use crate::tilemap::{EMPTY, TileMap, place_axis};
use glam::{DVec2, IVec2, Vec2};

/// The most boxes one input decodes to.
const MAX_BOXES: usize = 48;

/// The most cells along one side of the map.
const MAX_SIDE: usize = 12;

fn pool(threads: usize) -> &'static rayon::ThreadPool {
    &super::broad::pools()[threads - 1]
}

/// What the bytes describe: the boxes, the walls (if any) and the walls' filter.
#[derive(Debug, Clone)]
pub struct AdvanceInput {
    /// The boxes.
    pub store: BoxStore,
    /// The walls.
    pub map: Option<TileMap>,
    /// [`Level::wall_filter`].
    pub wall_filter: Filter,
}

impl AdvanceInput {
    /// The level of this input.
    #[must_use]
    pub fn level(&self) -> Level<'_> {
        Level {
            walls: self.map.as_ref(),
            wall_filter: self.wall_filter,
            statics: None,
        }
    }
}

/// The input the bytes describe.
#[must_use]
pub fn decode(data: &[u8]) -> AdvanceInput {
    let mut bytes = Bytes::new(data);
    let n = bytes.below(MAX_BOXES + 1);
    let scale = bytes.scale();
    let map = decode_map(&mut bytes, scale);
    let wall_filter = match bytes.u8() {
        0..=127 => layers::wall(),
        128..=191 => Filter::ALL,
        k @ 192..=223 => layers::PRESETS[usize::from(k) % layers::PRESETS.len()],
        _ => Filter::new(bytes.u32(), bytes.u32()),
    };
    let filters = layers::PRESETS;
    let mut store = BoxStore::new();
    let mut prev = None;
    for _ in 0..n {
        let b = bytes.aabb(prev, scale, false);
        prev = Some(b);
        let motion = decode_motion(&mut bytes, scale);
        let filter = match bytes.u8() {
            k @ 0..=199 => filters[usize::from(k) % filters.len()],
            200..=219 => Filter::ALL,
            220..=235 => Filter::new(bytes.u32(), bytes.u32()).with_solid(bytes.u32()),
            _ => Filter::new(bytes.u32(), bytes.u32()),
        };
        // The kind byte: the owner (low bits), the shape (high bits), the response.
        let kind_byte = bytes.u8();
        let (owner, shape) = super::frame::owner_and_shape(&mut bytes, b, kind_byte);
        let response = match bytes.u8() % 4 {
            0 => Response::Pass,
            1 => Response::Stop,
            2 => Response::Destroy,
            _ => Response::Slide,
        };
        // The store refuses only shapes whose bounds leave the finite range.
        let _ = store.insert_shape(
            shape,
            BoxProps {
                filter,
                owner,
                motion,
                response,
                user_data: u64::from(kind_byte) << 40 | store.len() as u64,
                turn: 0.0,
            },
        );
    }
    AdvanceInput {
        store,
        map,
        wall_filter,
    }
}

/// A motion: still, arbitrary bits, fast (many tiles, or the whole map, in one frame),
/// or a few tiles.
fn decode_motion(bytes: &mut Bytes<'_>, scale: f32) -> Vec2 {
    match bytes.u8() % 8 {
        0 | 1 => Vec2::ZERO,
        2 => Vec2::new(finite(bytes.f32_edge()), finite(bytes.f32_edge())),
        3 => {
            let (x, y) = (bytes.u8(), bytes.u8());
            Vec2::new(f32::from(x) - 128.0, f32::from(y) - 128.0) * scale
        }
        _ => {
            let (x, y) = (bytes.u8(), bytes.u8());
            Vec2::new(f32::from(x % 64) - 32.0, f32::from(y % 64) - 32.0) * scale * 0.25
        }
    }
}

/// [`Response::Slide`] in [`Frame::advance`] against the standalone
/// [`TileMap::move_and_slide`], on a map and up to 16 sliding players (which pair with
/// the walls and nothing else), at every SIMD level on one and two threads: each box
/// ends where `move_and_slide` puts it, bit for bit, and its wall hits are the tiles
/// that stopped it (status, time and normal as [`Frame::advance`] documents them).
///
/// # Panics
/// When a property fails (that is what a fuzz target reports).
pub fn slide_vs_move_and_slide(data: &[u8]) {
    if let Err(e) = slide_check(data) {
        panic!("slide check failed: {e}");
    }
}

/// The slide check: `Ok` with how many sliding boxes it compared and how many of them a
/// tile stopped on some axis.
pub(crate) fn slide_check(data: &[u8]) -> Result<(usize, usize), String> {
    let mut bytes = Bytes::new(data);
    let scale = bytes.scale();
    let Some(map) = decode_map(&mut bytes, scale) else {
        return Ok((0, 0));
    };
    if !crate::math::within_limit(&map.bounds()) {
        return Ok((0, 0)); // refused by advance, as `advance_vs_oracle` checks
    }
    let mut store = BoxStore::new();
    let mut bodies = Vec::new();
    let mut prev = None;
    for _ in 0..1 + bytes.below(16) {
        let b = bytes.aabb(prev, scale, false);
        prev = Some(b);
        let m = decode_motion(&mut bytes, scale);
        let props = BoxProps::new(layers::player())
            .with_motion(m)
            .with_response(Response::Slide);
        // The store refuses what leaves the coordinate limit; so does move_and_slide
        // what leaves f32.
        if let (Ok(h), Ok(want)) = (store.insert_with(b, props), map.move_and_slide(b, m)) {
            bodies.push((h, b, m, want));
        }
    }
    let same = |a: Aabb, b: Aabb| {
        [a.min.x, a.min.y, a.max.x, a.max.y].map(f32::to_bits)
            == [b.min.x, b.min.y, b.max.x, b.max.y].map(f32::to_bits)
    };
    for &simd in SimdLevel::available() {
        for threads in [1, 2] {
            let mut frame = Frame::with_config(FrameConfig {
                simd,
                parallel: threads > 1,
                parallel_threshold: 0,
                ..FrameConfig::default()
            });
            let mut s = store.clone();
            pool(threads)
                .install(|| frame.advance(&mut s, &Level::walls(&map)))
                .map_err(|e| format!("{simd:?} × {threads}: {e}"))?;
            let walls = frame.report().wall_hits;
            for (h, b, m, want) in &bodies {
                let got = s.get(*h).ok_or("a sliding box was removed")?;
                if !same(got, want.aabb) {
                    return Err(format!(
                        "{simd:?} × {threads}: {b:?} moving {m:?} at {got:?}, move_and_slide {:?}",
                        want.aabb
                    ));
                }
                let mine: Vec<&WallHit> = walls.iter().filter(|w| w.handle == *h).collect();
                let stops: Vec<(usize, crate::tilemap::TileHit)> = [want.hit_x, want.hit_y]
                    .into_iter()
                    .enumerate()
                    .filter_map(|(a, t)| Some((a, t?)))
                    .collect();
                let ok = mine.len() == stops.len()
                    && mine.iter().zip(&stops).all(|(w, (a, t))| {
                        let lead0 = if m[*a] > 0.0 { b.max[*a] } else { b.min[*a] };
                        let (status, toi, normal) = if t.embedded {
                            (SweepStatus::Overlapping, 0.0, Vec2::ZERO)
                        } else {
                            let mut n = Vec2::ZERO;
                            n[*a] = -m[*a].signum();
                            let toi = ((t.coord - lead0) / m[*a]).clamp(0.0, 1.0);
                            (SweepStatus::Hit, toi, n)
                        };
                        w.tile == t.tile
                            && w.status == status
                            && w.toi.to_bits() == toi.to_bits()
                            && w.normal == normal
                    });
                if !ok {
                    return Err(format!(
                        "{simd:?} × {threads}: {b:?} moving {m:?}: wall hits {mine:?}, \
                         move_and_slide {stops:?}"
                    ));
                }
            }
        }
    }
    let stopped = bodies
        .iter()
        .filter(|(.., w)| w.hit_x.is_some() || w.hit_y.is_some())
        .count();
    Ok((bodies.len(), stopped))
}

/// A map of up to 12 × 12 cells, or none (a quarter of the time, or when the bytes
/// give a geometry the map refuses).
fn decode_map(bytes: &mut Bytes<'_>, scale: f32) -> Option<TileMap> {
    let head = bytes.u8();
    if head.is_multiple_of(4) {
        return None;
    }
    let w = 1 + bytes.below(MAX_SIDE);
    let h = 1 + bytes.below(MAX_SIDE);
    const SIZES: [f32; 8] = [1.0, 2.0, 4.0, 0.5, 3.0, 8.0, 0.25, 16.0];
    let sx = SIZES[bytes.below(SIZES.len())];
    let sy = if head & 8 == 0 {
        sx
    } else {
        SIZES[bytes.below(SIZES.len())]
    };
    let tile = Vec2::new(sx, sy) * scale;
    let origin = if head & 16 == 0 {
        let (x, y) = (bytes.u8(), bytes.u8());
        Vec2::new(f32::from(x % 32) - 8.0, f32::from(y % 32) - 8.0) * scale
    } else {
        Vec2::new(finite(bytes.f32_edge()), finite(bytes.f32_edge()))
    };
    // Cells from bits: one byte per eight cells; `head & 32` thins them out.
    let mut cells = Vec::with_capacity(w * h);
    let mut bits = 0u8;
    for k in 0..w * h {
        if k % 8 == 0 {
            bits = bytes.u8();
            if head & 32 != 0 {
                bits &= bytes.u8();
            }
        }
        let solid = bits >> (k % 8) & 1 == 1;
        cells.push(if solid { 1 + (k % 3) as u8 } else { EMPTY });
    }
    let mut map = TileMap::from_cells(w as u32, h as u32, cells, tile, origin).ok()?;
    // Sometimes an arena drawn tile by tile instead: walls on the border, the inside
    // emptied (the open interior as `TileMap::set` keeps it, not as built).
    if bytes.u8() & 1 == 1 {
        for (y, x) in (0..h).flat_map(|y| (0..w).map(move |x| (y, x))) {
            let border = x == 0 || y == 0 || x == w - 1 || y == h - 1;
            map.set(x as u32, y as u32, if border { 1 } else { EMPTY })
                .ok()?;
        }
    }
    Some(if head & 4 != 0 {
        map.with_outside(1 + (head >> 6))
    } else {
        map
    })
}

/// What the oracle expects of one box after the advance.
#[derive(Debug, Clone, PartialEq)]
pub enum BoxOutcome {
    /// Moved the whole way: this shape.
    Moved(Shape),
    /// Destroyed at this time: gone, reported with this shape.
    Destroyed {
        /// Time of its first contact.
        t: f32,
        /// Its shape at that time.
        shape: Shape,
    },
    /// Slides ([`Response::Slide`]): where to depends on where the frame leaves the
    /// boxes it may stop against, so [`slide_oracle`] decides it after the advance.
    Slid,
    /// Stopped at time `t` by one of `by` (the kept hits at that time: which one stops it
    /// depends on the order of hits at one time, which the oracle leaves open).
    Stopped {
        /// The time.
        t: f32,
        /// The candidates.
        by: Vec<Stopper>,
    },
}

/// A hit that may have stopped a box.
#[derive(Debug, Clone, PartialEq)]
pub struct Stopper {
    /// The face hit, pointing toward the stopped box.
    pub normal: Vec2,
    /// What was hit: a wall tile (its box; slabs out to [`MAX_COORDINATE`] beyond the
    /// map's edge) or a box's shape.
    pub other: Shape,
    /// The other side's motion.
    pub other_motion: Vec2,
}

/// What [`Frame::advance`] must give.
#[derive(Debug, Clone)]
pub struct AdvanceOracle {
    /// The lowest dense index whose swept bounds pass [`MAX_COORDINATE`]: then the
    /// answer is [`Error::OutOfRange`] and nothing else holds.
    pub out_of_range: Option<usize>,
    /// The kept wall hits, in dense order.
    pub walls: Vec<WallHit>,
    /// The contacts, one per body pair, sorted by body pair.
    pub contacts: Vec<Contact>,
    /// Per box, in dense order.
    pub outcomes: Vec<BoxOutcome>,
}

fn body(store: &BoxStore, i: usize) -> Body {
    let owner = store.owners()[i];
    if owner == Owner::NONE.0 {
        Body::Box(store.handles()[i])
    } else {
        Body::Owner(Owner(owner))
    }
}

fn motion(store: &BoxStore, i: usize) -> Vec2 {
    Vec2::new(store.motion_x()[i], store.motion_y()[i])
}

fn filter(store: &BoxStore, i: usize) -> Filter {
    Filter::new(store.layers()[i], store.masks()[i]).with_solid(store.solids()[i])
}

fn shape(store: &BoxStore, i: usize) -> Shape {
    store.shape_at(i).expect("dense index")
}

/// The lowest dense index whose swept box reaches beyond [`MAX_COORDINATE`].
fn out_of_range(store: &BoxStore) -> Option<usize> {
    (0..store.len()).find(|&i| {
        let s = store
            .aabb_at(i)
            .expect("dense index")
            .swept(motion(store, i));
        !(s.min.x >= -MAX_COORDINATE
            && s.min.y >= -MAX_COORDINATE
            && s.max.x <= MAX_COORDINATE
            && s.max.y <= MAX_COORDINATE)
    })
}

/// The box of the wall cell `(c, r)`: a tile of the map, or beyond its edge (a solid
/// outside, whose cells collapse onto the ring of indices `-1` and `width` / `height`)
/// the slab from the map's edge outward, cut where `swept` (the swept bounds of the box
/// tested) cannot reach: a tile's size beyond them, at most [`MAX_COORDINATE`]. A swept
/// shape inside `swept` meets the cut slab exactly where it meets the whole one (the far
/// faces are out of its reach); the cut keeps the swept kernels, which work on centres
/// and half extents, at the scale of the scene and not of `MAX_COORDINATE`.
fn cell_box(map: &TileMap, c: i32, r: i32, swept: &Aabb) -> Aabb {
    let bounds = map.bounds();
    let tile = map.tile_size();
    let (w, h) = (map.width() as i32, map.height() as i32);
    let inner = map.tile_aabb(IVec2::new(c.clamp(0, w - 1), r.clamp(0, h - 1)));
    let span = |k: i32, n: i32, a: usize| {
        let (edge_lo, edge_hi) = (bounds.min[a], bounds.max[a]);
        if k < 0 {
            let far = (swept.min[a].min(edge_lo - tile[a]) - tile[a]).max(-MAX_COORDINATE);
            (far, edge_lo)
        } else if k >= n {
            let far = (swept.max[a].max(edge_hi + tile[a]) + tile[a]).min(MAX_COORDINATE);
            (edge_hi, far)
        } else {
            (inner.min[a], inner.max[a])
        }
    };
    let x = span(c, w, 0);
    let y = span(r, h, 1);
    Aabb::from_coords(x.0, y.0, x.1, y.1)
}

/// Box `i`'s earliest contact with a solid cell its swept bounds reach (every cell
/// tested, in row-major order; the first of equal times), and its earliest hit when
/// that contact is an overlap (an overlap never blocks, so it must not hide what does):
/// the tile, its box and the sweep (normal without the faces shared with a solid
/// neighbour).
fn wall_contact(store: &BoxStore, map: &TileMap, i: usize) -> [Option<(IVec2, Aabb, Sweep)>; 2] {
    let swept = store
        .aabb_at(i)
        .expect("dense index")
        .swept(motion(store, i));
    let outside = map.outside() != EMPTY;
    let (w, h) = (map.width() as i32, map.height() as i32);
    let (c0, c1, r0, r1) = if outside {
        (-1, w, -1, h)
    } else {
        (0, w - 1, 0, h - 1)
    };
    let (mut first, mut hit): (Option<(IVec2, Aabb, Sweep)>, _) = (None, None);
    for r in r0..=r1 {
        for c in c0..=c1 {
            let tile = IVec2::new(c, r);
            if !map.is_solid(tile) {
                continue;
            }
            let cell = cell_box(map, c, r, &swept);
            if !swept.overlaps(&cell) {
                continue;
            }
            let (sh, m) = (shape(store, i), motion(store, i));
            let mut s = sweep_shapes(&sh, m, &Shape::Aabb(cell), Vec2::ZERO);
            // Touching a tile is not entering it: a contact that begins touching is a
            // hit at 0 when the motion goes inward, else none; a box's hit counts when
            // its open interval overlaps the tile's before the frame ends, another
            // shape's when it comes before the end.
            if s.status == SweepStatus::Overlapping
                && let Some(n) = outside_normal(&sh, &cell)
            {
                if !enters(&sh, n, m) {
                    continue;
                }
                s = Sweep {
                    status: SweepStatus::Hit,
                    t: 0.0,
                    normal: n,
                    stop: Vec2::ZERO,
                };
            }
            if s.status == SweepStatus::Hit {
                let enters = match sh {
                    Shape::Aabb(b) => box_enters(&b, m, &cell),
                    _ => s.t < 1.0,
                };
                if !enters {
                    continue;
                }
            }
            match s.status {
                SweepStatus::Miss => continue,
                SweepStatus::Overlapping => {}
                SweepStatus::Hit => {
                    // A face toward a solid neighbour is inside the wall: never hit. A
                    // corner hit with one such face hits the other one.
                    let n = s.normal;
                    let open_x =
                        n.x != 0.0 && !map.is_solid(tile + IVec2::new(n.x.signum() as i32, 0));
                    let open_y =
                        n.y != 0.0 && !map.is_solid(tile + IVec2::new(0, n.y.signum() as i32));
                    s.normal = match (open_x, open_y) {
                        (false, false) => continue,
                        (true, true) => n,
                        (true, false) if n.y == 0.0 => n,
                        (false, true) if n.x == 0.0 => n,
                        (true, false) => Vec2::new(n.x.signum(), 0.0),
                        (false, true) => Vec2::new(0.0, n.y.signum()),
                    };
                }
            }
            // The earliest contact; and, while that is an overlap, the earliest hit.
            if first.is_none_or(|(_, _, b)| s.t < b.t) {
                let old = first.replace((tile, cell, s));
                if s.status == SweepStatus::Hit {
                    hit = None;
                } else if let Some(o) = old
                    && o.2.status == SweepStatus::Hit
                {
                    hit = Some(o);
                }
            } else if s.status == SweepStatus::Hit
                && first.is_some_and(|(_, _, b)| b.status != SweepStatus::Hit)
                && hit.is_none_or(|(_, _, b)| s.t < b.t)
            {
                hit = Some((tile, cell, s));
            }
        }
    }
    [first, hit]
}

/// The documented [`Frame::advance`] on all pairs and all tiles: every pair of boxes
/// whose filters agree, whose owners differ and whose swept bounds overlap through the
/// scalar swept test of their kinds; every box whose filter pairs with `wall_filter`
/// against every solid cell its swept bounds reach (its earliest); then all of them in
/// time order, a hit kept while both its boxes still move at its time; `Stop` ends a
/// box's motion at its first kept hit, `Destroy` at its first kept contact.
#[must_use]
pub fn oracle(store: &BoxStore, map: Option<&TileMap>, wall_filter: Filter) -> AdvanceOracle {
    let n = store.len();
    let out_of_range = out_of_range(store);
    let response = |i: usize| match store.responses()[i] {
        1 => Response::Stop,
        2 => Response::Destroy,
        3 => Response::Slide,
        _ => Response::Pass,
    };
    // A sliding box's solid walls are its slide's, not the walk's.
    let slides_on_walls = |i: usize| {
        response(i) == Response::Slide && filter(store, i).responds_to(wall_filter.layers)
    };
    // Pair hits (`a` sees `b`, in kind order) and each box's earliest wall hit.
    let mut pairs: Vec<(usize, usize, Sweep)> = Vec::new();
    let mut walls: Vec<(usize, IVec2, Aabb, Sweep)> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if !filter(store, i).pairs_with(filter(store, j)) {
                continue;
            }
            let (oi, oj) = (store.owners()[i], store.owners()[j]);
            if oi != Owner::NONE.0 && oi == oj {
                continue;
            }
            let (bi, bj) = (
                store.aabb_at(i).expect("dense index"),
                store.aabb_at(j).expect("dense index"),
            );
            // The pipeline's candidates (see `check::frame::oracle`).
            if !bi
                .swept(motion(store, i))
                .overlaps(&bj.swept(motion(store, j)))
            {
                continue;
            }
            let (a, b) = if shape(store, j).kind() < shape(store, i).kind() {
                (j, i)
            } else {
                (i, j)
            };
            let s = sweep_shapes(
                &shape(store, a),
                motion(store, a),
                &shape(store, b),
                motion(store, b),
            );
            if s.status != SweepStatus::Miss {
                pairs.push((a, b, s));
            }
        }
        if let Some(map) = map
            && filter(store, i).pairs_with(wall_filter)
        {
            for (tile, cell, s) in wall_contact(store, map, i).into_iter().flatten() {
                if !slides_on_walls(i) {
                    walls.push((i, tile, cell, s));
                }
            }
        }
    }
    // Time order; at one time the order is left open (see `BoxOutcome::Stopped`).
    let mut events: Vec<(u32, bool, usize)> = pairs
        .iter()
        .enumerate()
        .map(|(k, p)| (p.2.t.to_bits(), false, k))
        .chain(
            walls
                .iter()
                .enumerate()
                .map(|(k, w)| (w.3.t.to_bits(), true, k)),
        )
        .collect();
    events.sort_unstable();
    let mut end = vec![f32::INFINITY; n];
    let mut stoppers: Vec<Vec<Stopper>> = vec![Vec::new(); n];
    let mut kept_pairs = Vec::new();
    let mut kept_walls = Vec::new();
    // Box `i`'s response to a kept contact at `t` with something on `layers` (`normal`
    // pointing toward it): none unless those layers are solid to it.
    let mut respond = |end: &mut [f32], i: usize, t: f32, status, stopper: Stopper, layers| {
        if !filter(store, i).responds_to(layers) {
            return;
        }
        match response(i) {
            Response::Pass | Response::Slide => {}
            Response::Stop if status == SweepStatus::Hit => {
                if end[i] == f32::INFINITY {
                    end[i] = t;
                }
                if end[i] == t {
                    stoppers[i].push(stopper);
                }
            }
            Response::Stop => {}
            Response::Destroy => {
                if end[i] == f32::INFINITY {
                    end[i] = t;
                }
            }
        }
    };
    for (tb, wall, k) in events {
        let t = f32::from_bits(tb);
        if wall {
            let (i, _, cell, s) = walls[k];
            if end[i] < t {
                continue;
            }
            kept_walls.push(k);
            let stopper = Stopper {
                normal: s.normal,
                other: Shape::Aabb(cell),
                other_motion: Vec2::ZERO,
            };
            respond(&mut end, i, t, s.status, stopper, wall_filter.layers);
        } else {
            let (a, b, s) = pairs[k];
            if end[a] < t || end[b] < t {
                continue;
            }
            kept_pairs.push(k);
            let to_a = Stopper {
                normal: s.normal,
                other: shape(store, b),
                other_motion: motion(store, b),
            };
            let to_b = Stopper {
                normal: Vec2::ZERO - s.normal,
                other: shape(store, a),
                other_motion: motion(store, a),
            };
            let layers = store.layers();
            respond(&mut end, a, t, s.status, to_a, layers[b]);
            respond(&mut end, b, t, s.status, to_b, layers[a]);
        }
    }
    // Wall hits in dense order.
    kept_walls.sort_unstable_by_key(|&k| (walls[k].0, k));
    let wall_hits = kept_walls
        .iter()
        .map(|&k| {
            let (i, tile, cell, s) = walls[k];
            let (sh, m) = (shape(store, i), motion(store, i));
            let point = shapes_point(
                &sh,
                m,
                &Shape::Aabb(cell),
                Vec2::ZERO,
                s.status,
                s.t,
                s.normal,
            );
            WallHit {
                body: body(store, i),
                handle: store.handles()[i],
                user_data: store.user_data()[i],
                tile,
                status: s.status,
                toi: s.t,
                normal: s.normal,
                point,
            }
        })
        .collect();
    // Contacts: one per body pair, the earliest (ties: the smaller boxes).
    let mut contacts: Vec<Contact> = kept_pairs
        .iter()
        .map(|&k| {
            let (i, j, s) = pairs[k];
            super::frame::contact(store, i, j, &s)
        })
        .collect();
    contacts.sort_by(|x, y| {
        (x.bodies, x.toi.to_bits(), x.boxes).cmp(&(y.bodies, y.toi.to_bits(), y.boxes))
    });
    contacts.dedup_by(|later, first| later.bodies == first.bodies);
    let outcomes = (0..n)
        .map(|i| {
            let (s, m, t) = (shape(store, i), motion(store, i), end[i]);
            match response(i) {
                Response::Destroy if t != f32::INFINITY => BoxOutcome::Destroyed {
                    t,
                    shape: s.translated(m * t),
                },
                Response::Stop if t != f32::INFINITY => BoxOutcome::Stopped {
                    t,
                    by: core::mem::take(&mut stoppers[i]),
                },
                Response::Slide => BoxOutcome::Slid,
                _ => BoxOutcome::Moved(s.translated(m)),
            }
        })
        .collect();
    AdvanceOracle {
        out_of_range,
        walls: wall_hits,
        contacts,
        outcomes,
    }
}

/// Where [`Frame::advance`] must leave sliding box `i` of `before`, and the wall hits
/// its slide reports: `(box, wall hits)`.
///
/// The documented slide, restated: one axis at a time, x then y; on each, the wall part
/// is [`TileMap::move_and_slide`] with that axis's motion alone (with no walls to slide
/// on, a map with no solid tile), then the store's boxes that may pair with it, on its
/// solid layers, whose swept bounds meet its own, where the advance left them (`after`;
/// a sliding box later in dense order where it started). A box across the motion (open
/// intervals) whose near face is at or ahead of the leading face stops it there when
/// nearer than the wall; one that holds the leading face inside keeps it still. The
/// trailing face follows by the tile map's size rule, as it does against a wall.
#[must_use]
pub fn slide_oracle(
    before: &BoxStore,
    after: &BoxStore,
    i: usize,
    (map, wall_filter): (Option<&TileMap>, Filter),
) -> (Aabb, Vec<WallHit>) {
    let b0 = before.aabb_at(i).expect("dense index");
    let m = motion(before, i);
    let f = filter(before, i);
    let empty = TileMap::new(1, 1, Vec2::ONE, Vec2::ZERO).expect("a valid map");
    let walls = map
        .filter(|_| f.pairs_with(wall_filter) && f.responds_to(wall_filter.layers))
        .unwrap_or(&empty);
    let swept = b0.swept(m);
    let owner = before.owners()[i];
    let obstacles: Vec<Aabb> = (0..before.len())
        .filter(|&j| {
            j != i
                && f.pairs_with(filter(before, j))
                && f.responds_to(before.layers()[j])
                && !(owner != Owner::NONE.0 && owner == before.owners()[j])
                && swept.overlaps(
                    &before
                        .aabb_at(j)
                        .expect("dense index")
                        .swept(motion(before, j)),
                )
        })
        .filter_map(|j| {
            if before.responses()[j] == Response::Slide as u8 && j > i {
                before.aabb_at(j)
            } else {
                after.get(before.handles()[j])
            }
        })
        .collect();
    let mut b = b0;
    let mut hits = Vec::new();
    for a in 0..2 {
        let d = m[a];
        if d == 0.0 {
            continue;
        }
        let mut along = Vec2::ZERO;
        along[a] = d;
        let r = walls.move_and_slide(b, along).expect("checked input");
        let (up, p) = (d > 0.0, 1 - a);
        let lead = |x: &Aabb| if up { x.max[a] } else { x.min[a] };
        let lead0 = lead(&b);
        let mut lead1 = lead(&r.aabb);
        let mut wall = r.hit(a).copied();
        let mut stopped = None;
        for o in &obstacles {
            if !(b.min[p] < o.max[p] && o.min[p] < b.max[p]) {
                continue;
            }
            let (near, far) = if up {
                (o.min[a], o.max[a])
            } else {
                (o.max[a], o.min[a])
            };
            let ahead = if up { near >= lead0 } else { near <= lead0 };
            let holds = if up { lead0 < far } else { lead0 > far };
            let coord = if ahead {
                near
            } else if holds {
                lead0
            } else {
                continue;
            };
            if (up && coord < lead1) || (!up && coord > lead1) {
                lead1 = coord;
                wall = None;
                stopped = Some(coord);
            }
        }
        if let Some(coord) = stopped {
            // The leading face at the stop, the trailing face after it by the tile map's
            // size rule (the same as a wall's): the size kept where it can be, and never
            // shrunk where it cannot.
            b = place_axis(b, a, d, coord);
        } else {
            b = r.aabb;
        }
        if let Some(h) = wall {
            let (status, toi, normal) = if h.embedded {
                (SweepStatus::Overlapping, 0.0, Vec2::ZERO)
            } else {
                let mut n = Vec2::ZERO;
                n[a] = -d.signum();
                (SweepStatus::Hit, ((h.coord - lead0) / d).clamp(0.0, 1.0), n)
            };
            // The true shape where this axis's move left the box (moved as its leading
            // face moved), against the tile.
            let here = match shape(before, i) {
                Shape::Aabb(_) => Shape::Aabb(b),
                other => {
                    let led = |k: usize| match m[k] {
                        v if v > 0.0 => b.max[k] - b0.max[k],
                        v if v < 0.0 => b.min[k] - b0.min[k],
                        _ => 0.0,
                    };
                    other.translated(Vec2::new(led(0), led(1)))
                }
            };
            let cell = map.map_or(b, |map| cell_box(map, h.tile.x, h.tile.y, &swept));
            let point = shapes_point(
                &here,
                Vec2::ZERO,
                &Shape::Aabb(cell),
                Vec2::ZERO,
                status,
                0.0,
                normal,
            );
            hits.push(WallHit {
                body: body(before, i),
                handle: before.handles()[i],
                user_data: before.user_data()[i],
                tile: h.tile,
                status,
                toi,
                normal,
                point,
            });
        }
    }
    (b, hits)
}

/// A shape's coordinates as bits (`-0.0 != 0.0`).
fn bits(s: &Shape) -> Vec<u32> {
    let v: Vec<f32> = match s {
        Shape::Aabb(b) => vec![b.min.x, b.min.y, b.max.x, b.max.y],
        Shape::Circle(c) => vec![c.center.x, c.center.y, c.radius],
        Shape::Obb2(o) => vec![
            o.center.x,
            o.center.y,
            o.axis.x,
            o.axis.y,
            o.half_extents.x,
            o.half_extents.y,
        ],
        Shape::Capsule(c) => vec![c.a.x, c.a.y, c.b.x, c.b.y, c.radius],
    };
    let kind = s.kind() as u32;
    core::iter::once(kind)
        .chain(v.into_iter().map(f32::to_bits))
        .collect()
}

/// The coordinates of `s` along axis `a` (0 = x) that a translation moves.
fn axis_coords(s: &Shape, a: usize) -> Vec<f32> {
    match s {
        Shape::Aabb(b) => vec![b.min[a], b.max[a]],
        Shape::Circle(c) => vec![c.center[a]],
        Shape::Obb2(o) => vec![o.center[a]],
        Shape::Capsule(c) => vec![c.a[a], c.b[a]],
    }
}

/// The largest coordinate magnitude of `s` (its scale, for rounding tolerances).
fn magnitude(s: &Shape) -> f64 {
    let v: Vec<f32> = match s {
        Shape::Aabb(b) => vec![b.min.x, b.min.y, b.max.x, b.max.y],
        Shape::Circle(c) => vec![c.center.x, c.center.y, c.radius],
        Shape::Obb2(o) => vec![o.center.x, o.center.y, o.half_extents.x, o.half_extents.y],
        Shape::Capsule(c) => vec![c.a.x, c.a.y, c.b.x, c.b.y, c.radius],
    };
    v.into_iter()
        .map(|x| f64::from(x).abs())
        .filter(|x| x.is_finite() && *x < f64::from(MAX_COORDINATE) * 0.5)
        .fold(0.0, f64::max)
}

fn d(v: Vec2) -> DVec2 {
    DVec2::new(f64::from(v.x), f64::from(v.y))
}

/// The corners of a box or rectangle, counter-clockwise, in `f64`.
fn polygon(s: &Shape) -> Option<[DVec2; 4]> {
    match s {
        Shape::Aabb(b) => Some([
            d(b.min),
            DVec2::new(f64::from(b.max.x), f64::from(b.min.y)),
            d(b.max),
            DVec2::new(f64::from(b.min.x), f64::from(b.max.y)),
        ]),
        Shape::Obb2(o) => {
            let (c, ax) = (d(o.center), d(o.axis));
            let ay = DVec2::new(-ax.y, ax.x);
            let (ex, ey) = (
                ax * f64::from(o.half_extents.x),
                ay * f64::from(o.half_extents.y),
            );
            Some([c - ex - ey, c + ex - ey, c + ex + ey, c - ex + ey])
        }
        Shape::Circle(_) | Shape::Capsule(_) => None,
    }
}

/// The least of `f` over `t` in `[0, 1]`, for a convex `f` (a ternary search).
fn convex_min(f: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if f(m1) <= f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    f(0.0).min(f(1.0)).min(f((lo + hi) * 0.5))
}

/// The signed distance from `p` to `s` without its radius (or rounding): a box's or a
/// rectangle's polygon, a disc's centre, a capsule's segment. Convex in `p`.
fn core_distance(s: &Shape, p: DVec2) -> f64 {
    match s {
        Shape::Circle(c) => (p - d(c.center)).length(),
        Shape::Capsule(c) => {
            let (a, e) = (d(c.a), d(c.b) - d(c.a));
            let len2 = e.length_squared();
            let t = if len2 > 0.0 {
                ((p - a).dot(e) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (a + e * t - p).length()
        }
        _ => signed_distance(&polygon(s).expect("a polygon"), p),
    }
}

/// The radius a shape adds around its core ([`core_distance`]).
fn rounding(s: &Shape) -> f64 {
    match s {
        Shape::Circle(c) => f64::from(c.radius),
        Shape::Capsule(c) => f64::from(c.radius),
        _ => 0.0,
    }
}

/// The signed distance from `p` to the convex polygon `q` (negative inside).
fn signed_distance(q: &[DVec2; 4], p: DVec2) -> f64 {
    let mut inside = f64::NEG_INFINITY;
    let mut outside = f64::INFINITY;
    for k in 0..4 {
        let (a, b) = (q[k], q[(k + 1) % 4]);
        let e = b - a;
        let len = e.length();
        if len > 0.0 {
            // Outward normal of a counter-clockwise polygon.
            let n = DVec2::new(e.y, -e.x) / len;
            inside = inside.max(n.dot(p - a));
        }
        let t = if len > 0.0 {
            ((p - a).dot(e) / (len * len)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        outside = outside.min((a + e * t - p).length());
    }
    // A polygon with a zero-length edge (a box of zero width or height: a segment or a
    // point) has no interior: only the distance to it counts.
    let flat = (0..4).any(|k| q[k] == q[(k + 1) % 4]);
    if inside <= 0.0 && !flat {
        inside
    } else {
        outside
    }
}

/// How deep two shapes' interiors overlap, in `f64` (`<= 0`: they do not; touching is
/// not penetrating).
fn depth(a: &Shape, b: &Shape) -> f64 {
    match (a, b) {
        (Shape::Aabb(a), Shape::Aabb(b)) => {
            let x = f64::from(a.max.x.min(b.max.x)) - f64::from(a.min.x.max(b.min.x));
            let y = f64::from(a.max.y.min(b.max.y)) - f64::from(a.min.y.max(b.min.y));
            x.min(y)
        }
        (Shape::Circle(a), Shape::Circle(b)) => {
            f64::from(a.radius) + f64::from(b.radius) - d(a.center).distance(d(b.center))
        }
        (Shape::Capsule(c), other) | (other, Shape::Capsule(c)) => {
            // The other shape's signed distance, least along the segment (convex).
            let (a, e) = (d(c.a), d(c.b) - d(c.a));
            let gap = convex_min(|t| core_distance(other, a + e * t));
            f64::from(c.radius) + rounding(other) - gap
        }
        (Shape::Circle(c), p) | (p, Shape::Circle(c)) => {
            let q = polygon(p).expect("a polygon");
            f64::from(c.radius) - signed_distance(&q, d(c.center))
        }
        _ => {
            // Separating axes: the edge normals of both.
            let (p, q) = (
                polygon(a).expect("a polygon"),
                polygon(b).expect("a polygon"),
            );
            let mut best = f64::INFINITY;
            for poly in [&p, &q] {
                for k in 0..2 {
                    let e = poly[k + 1] - poly[k];
                    let axis = DVec2::new(-e.y, e.x);
                    let len = axis.length();
                    if len == 0.0 {
                        continue;
                    }
                    let axis = axis / len;
                    let range = |s: &[DVec2; 4]| {
                        s.iter()
                            .map(|v| v.dot(axis))
                            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                                (lo.min(x), hi.max(x))
                            })
                    };
                    let ((p0, p1), (q0, q1)) = (range(&p), range(&q));
                    best = best.min(p1.min(q1) - p0.max(q0));
                }
            }
            best
        }
    }
}

/// Whether `a` penetrates `b`: strictly for two plain boxes, else deeper than the
/// rounding of the shapes' coordinates (`2⁻¹⁸` of their scale: the kernels' stops are
/// flush within a few ulps, and a rectangle's corners carry the rounding of its axis),
/// the scale taken as at least [`PRECISION_FLOOR`].
fn penetrates(a: &Shape, b: &Shape) -> bool {
    let tol = if matches!((a, b), (Shape::Aabb(_), Shape::Aabb(_))) {
        0.0
    } else {
        (magnitude(a) + magnitude(b)).max(PRECISION_FLOOR) * f64::from(2f32.powi(-18))
    };
    depth(a, b) > tol
}

/// The length below which the disc and rectangle kernels lose relative precision: the
/// fourth root of `f32::MIN_POSITIVE` (about `3.3e-10`). Their times of impact solve
/// quadratics in `f32`, whose terms are fourth powers of lengths; below it those
/// underflow (documented on [`crate::Circle`]).
const PRECISION_FLOOR: f64 = 3.3e-10;

/// Checks a stopped box: its shape `got` (from `before`, moving by `m`) against one
/// candidate hit at time `t`.
fn stopped_by(before: &Shape, m: Vec2, got: &Shape, t: f32, s: &Stopper) -> Result<(), String> {
    let still = s.other_motion == Vec2::ZERO;
    for a in 0..2 {
        if s.normal[a] != 0.0 {
            continue;
        }
        let mut along = Vec2::ZERO;
        along[a] = m[a] * t;
        let want = axis_coords(&before.translated(along), a);
        let have = axis_coords(got, a);
        let ok = if still {
            want == have
        } else {
            // `other · t + (m - other) · t`: within the rounding of those terms.
            let om = f64::from(s.other_motion[a]).abs();
            let tol = (magnitude(before) + om * 2.0 + f64::from(m[a]).abs())
                * f64::from(f32::EPSILON)
                * 4.0
                + 1.0e-44;
            want.iter()
                .zip(&have)
                .all(|(w, h)| (f64::from(*w) - f64::from(*h)).abs() <= tol)
        };
        if !ok {
            return Err(format!(
                "axis {a}: moved to {have:?}, want {want:?} (motion · t, normal {:?})",
                s.normal
            ));
        }
    }
    if still && !penetrates(before, &s.other) && penetrates(got, &s.other) {
        return Err(format!(
            "stopped inside what it hit: {got:?} in {:?} (depth {})",
            s.other,
            depth(got, &s.other)
        ));
    }
    Ok(())
}

fn same_contacts(a: &[Contact], b: &[Contact]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.bodies == y.bodies
                && x.boxes == y.boxes
                && x.user_data == y.user_data
                && x.status == y.status
                && x.toi.to_bits() == y.toi.to_bits()
                && x.normal.x.to_bits() == y.normal.x.to_bits()
                && x.normal.y.to_bits() == y.normal.y.to_bits()
                && same_point(&x.point, &y.point)
        })
}

fn same_walls(a: &[WallHit], b: &[WallHit]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.body == y.body
                && x.handle == y.handle
                && x.user_data == y.user_data
                && x.tile == y.tile
                && x.status == y.status
                && x.toi.to_bits() == y.toi.to_bits()
                && x.normal.x.to_bits() == y.normal.x.to_bits()
                && x.normal.y.to_bits() == y.normal.y.to_bits()
                && same_point(&x.point, &y.point)
        })
}

/// Bit for bit (NaN equal to itself).
fn same_point(x: &ContactPoint, y: &ContactPoint) -> bool {
    let bits = |p: &ContactPoint| {
        [p.a.x, p.a.y, p.b.x, p.b.y, p.normal.x, p.normal.y, p.depth].map(f32::to_bits)
    };
    bits(x) == bits(y)
}

/// Every box's handle, shape bits and properties: what "the store is unchanged" means.
fn fingerprint(store: &BoxStore) -> Vec<(BoxHandle, Vec<u32>, Option<BoxProps>)> {
    (0..store.len())
        .map(|i| {
            let h = store.handles()[i];
            (h, bits(&shape(store, i)), store.props(h))
        })
        .collect()
}

/// One advance's report and store against the oracle (`before` is the store it ran on,
/// `level` its walls).
pub(crate) fn compare(
    before: &BoxStore,
    want: &AdvanceOracle,
    after: &BoxStore,
    level: (Option<&TileMap>, Filter),
    walls: &[WallHit],
    (contacts, destroyed, stopped): (&[Contact], &[crate::frame::Destroyed], usize),
) -> Result<(), String> {
    // The sliding boxes, in dense order: where they end, and their wall hits merged into
    // the walk's in dense order.
    let mut slides = Vec::new();
    let mut want_walls: Vec<(usize, WallHit)> = want
        .walls
        .iter()
        .map(|w| (before.index_of(w.handle).unwrap_or(usize::MAX), *w))
        .collect();
    for (i, o) in want.outcomes.iter().enumerate() {
        if matches!(o, BoxOutcome::Slid) {
            let (b, hits) = slide_oracle(before, after, i, level);
            slides.push((i, b));
            want_walls.extend(hits.into_iter().map(|h| (i, h)));
        }
    }
    want_walls.sort_by_key(|w| w.0);
    let want_walls: Vec<WallHit> = want_walls.into_iter().map(|w| w.1).collect();
    if !same_walls(walls, &want_walls) {
        return Err(format!("wall hits {walls:?}, oracle {want_walls:?}"));
    }
    for (i, want_box) in slides {
        let data = before.user_data()[i];
        let (b0, m) = (before.aabb_at(i).expect("dense index"), motion(before, i));
        let Some(got) = after.shape(before.handles()[i]) else {
            return Err(format!("sliding box {data:#x} removed"));
        };
        let moved = |a: usize| match m[a] {
            x if x > 0.0 => want_box.max[a] - b0.max[a],
            x if x < 0.0 => want_box.min[a] - b0.min[a],
            _ => 0.0,
        };
        let want_shape = match shape(before, i) {
            Shape::Aabb(_) => Shape::Aabb(want_box),
            s => s.translated(Vec2::new(moved(0), moved(1))),
        };
        if bits(&want_shape) != bits(&got) {
            return Err(format!(
                "sliding box {data:#x} {b0:?} moving {m:?} at {got:?}, oracle {want_shape:?}"
            ));
        }
    }
    if !same_contacts(contacts, &want.contacts) {
        return Err(format!("contacts {contacts:?}, oracle {:?}", want.contacts));
    }
    // Destroyed: in dense order, with their time and shape.
    let want_destroyed: Vec<(u64, u32, Vec<u32>)> = want
        .outcomes
        .iter()
        .enumerate()
        .filter_map(|(i, o)| match o {
            BoxOutcome::Destroyed { t, shape } => {
                Some((before.user_data()[i], t.to_bits(), bits(shape)))
            }
            _ => None,
        })
        .collect();
    let got_destroyed: Vec<(u64, u32, Vec<u32>)> = destroyed
        .iter()
        .map(|d| (d.user_data, d.toi.to_bits(), bits(&d.shape)))
        .collect();
    if got_destroyed != want_destroyed {
        return Err(format!(
            "destroyed {got_destroyed:?}, oracle {want_destroyed:?}"
        ));
    }
    let want_stopped = want
        .outcomes
        .iter()
        .filter(|o| matches!(o, BoxOutcome::Stopped { .. }))
        .count();
    if stopped != want_stopped {
        return Err(format!("{stopped} stopped, oracle {want_stopped}"));
    }
    // The store afterwards.
    let survivors = want
        .outcomes
        .iter()
        .filter(|o| !matches!(o, BoxOutcome::Destroyed { .. }))
        .count();
    if after.len() != survivors {
        return Err(format!(
            "{} boxes afterwards, oracle {survivors}",
            after.len()
        ));
    }
    for (i, o) in want.outcomes.iter().enumerate() {
        let h = before.handles()[i];
        let got = after.shape(h);
        let data = before.user_data()[i];
        match (o, got) {
            (BoxOutcome::Destroyed { .. }, None) => {}
            (BoxOutcome::Destroyed { .. }, Some(s)) => {
                return Err(format!("box {data:#x} destroyed but still there: {s:?}"));
            }
            (_, None) => return Err(format!("box {data:#x} removed")),
            (BoxOutcome::Slid, Some(_)) => {}
            (BoxOutcome::Moved(w), Some(s)) => {
                if bits(w) != bits(&s) {
                    return Err(format!("box {data:#x} at {s:?}, oracle {w:?}"));
                }
            }
            (BoxOutcome::Stopped { t, by }, Some(s)) => {
                let b = shape(before, i);
                let m = motion(before, i);
                let mut why = Vec::new();
                for stopper in by {
                    match stopped_by(&b, m, &s, *t, stopper) {
                        Ok(()) => {
                            why.clear();
                            break;
                        }
                        Err(e) => why.push(e),
                    }
                }
                if !why.is_empty() {
                    return Err(format!(
                        "box {data:#x} {b:?} moving {m:?} stopped at t = {t} at {s:?}: {why:?}"
                    ));
                }
            }
        }
        if let Some(p) = after.props(h)
            && Some(p) != before.props(h)
        {
            return Err(format!("box {data:#x}: properties changed"));
        }
    }
    Ok(())
}

/// [`Frame::advance`] on the input the bytes describe, twice, against [`oracle`], at
/// every SIMD level on one and two threads.
///
/// # Panics
/// When a property fails (that is what a fuzz target reports).
pub fn advance_vs_oracle(data: &[u8]) {
    if let Err(e) = advance_vs_oracle_with(data) {
        panic!("advance check failed: {e}");
    }
}

/// [`advance_vs_oracle`], answering `Err` instead of panicking.
///
/// # Errors
/// The first property that fails, described.
pub fn advance_vs_oracle_with(data: &[u8]) -> Result<(), String> {
    advance_check(data, &|_| {})
}

/// The check, with `tamper` applied to every advanced store before it is compared
/// (tests plant bugs through it).
pub(crate) fn advance_check(data: &[u8], tamper: &dyn Fn(&mut BoxStore)) -> Result<(), String> {
    let input = decode(data);
    let level = input.level();
    let mut frames: Vec<(Frame, usize)> = Vec::new();
    for &simd in SimdLevel::available() {
        for threads in [1, 2] {
            frames.push((
                Frame::with_config(FrameConfig {
                    simd,
                    parallel: threads > 1,
                    parallel_threshold: 0,
                    ..FrameConfig::default()
                }),
                threads,
            ));
        }
    }
    let mut chunked = Frame::with_config(FrameConfig {
        parallel_threshold: 0,
        parallel: true,
        ..FrameConfig::default()
    });
    chunked.set_group_chunk(3);
    frames.push((chunked, 2));
    let mut store = input.store.clone();
    // A frame refuses a tile map that reaches beyond the coordinate limit.
    let map_too_far = input.map.as_ref().is_some_and(|m| {
        let b = m.bounds();
        let l = MAX_COORDINATE;
        !(b.min.x >= -l && b.min.y >= -l && b.max.x <= l && b.max.y <= l)
    });
    if map_too_far {
        let before = fingerprint(&store);
        for (frame, threads) in &mut frames {
            let mut s = store.clone();
            let got = pool(*threads).install(|| frame.advance(&mut s, &level).map(|_| ()));
            if !matches!(got, Err(Error::InvalidShape { .. })) {
                return Err(format!("a tile map beyond the limit gave {got:?}"));
            }
            if fingerprint(&s) != before {
                return Err("the store changed when the tile map was refused".into());
            }
        }
        return Ok(());
    }
    for step in 0..2 {
        let want = oracle(&store, input.map.as_ref(), input.wall_filter);
        let before = fingerprint(&store);
        let mut next: Option<(BoxStore, Vec<u32>, String)> = None;
        for (k, (frame, threads)) in frames.iter_mut().enumerate() {
            let cfg = *frame.config();
            let at = || format!("step {step} {cfg:?} × {threads}");
            let mut s = store.clone();
            // Every other configuration with the store keeping its extent through the
            // motion pass (as after a game's first `set_motions`).
            if k % 2 == 1 {
                s.keep_extent();
            }
            let got = pool(*threads).install(|| frame.advance(&mut s, &level).map(|x| x.stopped));
            match (got, want.out_of_range) {
                (Err(Error::OutOfRange { index, limit, .. }), Some(w))
                    if index == w && limit == MAX_COORDINATE =>
                {
                    if fingerprint(&s) != before {
                        return Err(format!("{}: the store changed on OutOfRange", at()));
                    }
                    continue;
                }
                (Err(e), _) => return Err(format!("{}: unexpected error {e}", at())),
                (Ok(_), Some(w)) => {
                    return Err(format!("{}: box {w} out of range accepted", at()));
                }
                (Ok(stopped), None) => {
                    if !s.extent_holds() {
                        return Err(format!("{}: a box beyond the store's extent", at()));
                    }
                    tamper(&mut s);
                    let r = frame.report();
                    compare(
                        &store,
                        &want,
                        &s,
                        (input.map.as_ref(), input.wall_filter),
                        r.wall_hits,
                        (r.contacts, r.destroyed, stopped),
                    )
                    .map_err(|e| format!("{}: {e}", at()))?;
                    // The same report and store on every configuration.
                    let shapes: Vec<u32> = (0..s.len()).flat_map(|i| bits(&shape(&s, i))).collect();
                    let report = format!(
                        "{:?}{:?}{:?}{:?}{:?}{:?}{:?}",
                        r.contacts, r.began, r.stayed, r.ended, r.wall_hits, r.destroyed, r.hits
                    );
                    match &next {
                        None => next = Some((s, shapes, report)),
                        Some((_, sh, rep)) => {
                            if *sh != shapes {
                                return Err(format!("{}: the store differs from the first", at()));
                            }
                            if *rep != report {
                                return Err(format!("{}: the report differs from the first", at()));
                            }
                        }
                    }
                }
            }
        }
        match next {
            Some((s, _, _)) => store = s,
            None => return Ok(()), // out of range
        }
    }
    Ok(())
}
