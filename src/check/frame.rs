//! The frame pipeline on arbitrary bytes: [`frame_vs_oracle`].
//!
//! A small store (up to 64 boxes, each a plain box, a disc, an oriented rectangle or a
//! capsule, with
//! motions, filters from the bullet-hell layers or arbitrary bits, owners: compound
//! bodies may mix kinds) is stepped twice by a [`Frame`], in between every shape moving
//! by its motion. Each step must equal the all-pairs oracle ([`oracle`]: every pair of
//! boxes whose filters agree and whose owners differ through the scalar swept test of
//! their kinds, [`sweep_shapes`], the earliest per body pair), in the same order, for every SIMD level (statuses and pairs
//! exactly, times within the documented bit-identical bound: the kernels are 0-ulp) and
//! one or two threads (and with the grouping in chunks of three boxes); and the events
//! must be the set differences of consecutive steps' body pairs. A store the decoder builds never holds invalid boxes (the store
//! refuses them); a box whose swept bounds reach beyond [`MAX_COORDINATE`] must give
//! `OutOfRange` naming the lowest such box.

use super::bytes::{Bytes, finite};
use crate::error::Error;
use crate::frame::{
    Body, BodyPair, Contact, Frame, FrameConfig, MAX_COORDINATE, contact_point, layers,
};
use crate::lanes::SimdLevel;
use crate::math::{Aabb, Capsule, Circle, Obb2, Shape};
use crate::narrow::scalar::sweep_shapes;
use crate::narrow::{Sweep, SweepStatus};
use crate::store::{BoxProps, BoxStore, Filter, Owner};
use glam::Vec2;

/// The most boxes one input decodes to.
const MAX_BOXES: usize = 64;

fn pool(threads: usize) -> &'static rayon::ThreadPool {
    &super::broad::pools()[threads - 1]
}

/// The store the bytes describe (for tests of the check itself).
#[cfg(test)]
pub(crate) fn oracle_store_for_test(data: &[u8]) -> BoxStore {
    decode(data)
}

/// The store the bytes describe.
fn decode(data: &[u8]) -> BoxStore {
    let mut bytes = Bytes::new(data);
    let n = bytes.below(MAX_BOXES + 1);
    let scale = bytes.scale();
    let filters = layers::PRESETS;
    let mut store = BoxStore::new();
    let mut prev = None;
    for _ in 0..n {
        let b = bytes.aabb(prev, scale, false);
        prev = Some(b);
        let motion = match bytes.u8() % 4 {
            0 => Vec2::ZERO,
            1 => Vec2::new(finite(bytes.f32_edge()), finite(bytes.f32_edge())),
            _ => {
                let (x, y) = (bytes.u8(), bytes.u8());
                Vec2::new(f32::from(x % 64) - 32.0, f32::from(y % 64) - 32.0) * scale * 0.25
            }
        };
        let filter = match bytes.u8() {
            k @ 0..=199 => filters[usize::from(k) % filters.len()],
            _ => Filter::new(bytes.u32(), bytes.u32()),
        };
        // The owner byte's high bits choose the shape: the box, the disc inscribed in
        // it, or a rectangle of its half extents turned by one of four angles; and
        // when they are all set, a capsule along the box's diagonal.
        let kind_byte = bytes.u8();
        let (owner, mut shape) = owner_and_shape(&mut bytes, b, kind_byte);
        if kind_byte >> 4 == 15 {
            shape = Shape::Capsule(capsule_in(b, kind_byte));
        }
        // The store refuses only shapes whose bounds leave the finite range.
        let _ = store.insert_shape(
            shape,
            BoxProps {
                filter,
                owner,
                motion,
                user_data: u64::from(kind_byte) << 40 | store.len() as u64,
                ..BoxProps::default()
            },
        );
    }
    store
}

/// The owner and the shape a kind byte chooses for box `b`: the low bits the owner (one
/// of four, read from the next byte, or none), the high bits the box itself, the disc
/// inscribed in it, or a rectangle of its half extents turned by one of four angles.
pub(crate) fn owner_and_shape(bytes: &mut Bytes<'_>, b: Aabb, kind_byte: u8) -> (Owner, Shape) {
    let owner = match kind_byte % 4 {
        0 => Owner(u64::from(bytes.u8() % 4)),
        _ => Owner::NONE,
    };
    let shape = match (kind_byte >> 4) % 3 {
        0 => Shape::Aabb(b),
        1 => Shape::Circle(Circle::new(b.center(), b.half_extents().min_element())),
        _ => {
            let angle = [0.1f32, 0.7, 1.570_796_4, 2.5][usize::from(kind_byte >> 2) % 4];
            Shape::Obb2(Obb2::from_angle(b.center(), b.half_extents(), angle))
        }
    };
    (owner, shape)
}

/// A capsule inside box `b`: along its rising or its falling diagonal (by a bit of
/// `kind_byte`), its radius half the smaller half extent.
pub(crate) fn capsule_in(b: Aabb, kind_byte: u8) -> Capsule {
    let r = b.half_extents().min_element() * 0.5;
    let (lo, hi) = (b.min + r, b.max - r);
    if kind_byte & 4 == 0 {
        Capsule::new(lo, hi, r)
    } else {
        Capsule::new(Vec2::new(lo.x, hi.y), Vec2::new(hi.x, lo.y), r)
    }
}

fn body(store: &BoxStore, i: usize) -> Body {
    let owner = store.owners()[i];
    if owner == Owner::NONE.0 {
        Body::Box(store.handles()[i])
    } else {
        Body::Owner(Owner(owner))
    }
}

/// Every pair of boxes whose swept bounds overlap (closed) through the scalar swept
/// test; the earliest per body pair, in the frame's order (by body pair).
///
/// The swept-bounds condition is the pipeline's definition (its broad phase); in exact
/// arithmetic the swept test implies it. It matters only where the swept test's times
/// underflow (a gap far below its relative speed, e.g. `5e-20` against `1e31`): they
/// round to `±0` and the kernel can report a touch at `t = 0` for boxes that separate,
/// which the broad phase, comparing coordinates exactly, rightly never proposes.
#[must_use]
pub fn oracle(store: &BoxStore) -> Vec<Contact> {
    let n = store.len();
    let mut out: Vec<Contact> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let props = |k: usize| {
                store
                    .props(store.handle_at(k).expect("dense index"))
                    .expect("alive")
            };
            let (pi, pj) = (props(i), props(j));
            if !pi.filter.pairs_with(pj.filter) {
                continue;
            }
            if pi.owner != Owner::NONE && pi.owner == pj.owner {
                continue;
            }
            let (bi, bj) = (
                store.aabb_at(i).expect("dense index"),
                store.aabb_at(j).expect("dense index"),
            );
            if !bi.swept(pi.motion).overlaps(&bj.swept(pj.motion)) {
                continue;
            }
            // The kinds in canonical order, as the frame runs them.
            let shape = |k: usize| store.shape_at(k).expect("dense index");
            let kind = |k: usize| shape(k).kind();
            let (i, j, pi, pj) = if kind(i) <= kind(j) {
                (i, j, pi, pj)
            } else {
                (j, i, pj, pi)
            };
            let s = sweep_shapes(&shape(i), pi.motion, &shape(j), pj.motion);
            if s.status == SweepStatus::Miss {
                continue;
            }
            out.push(contact(store, i, j, &s));
        }
    }
    out.sort_by(|x, y| {
        (x.bodies, x.toi.to_bits(), x.boxes).cmp(&(y.bodies, y.toi.to_bits(), y.boxes))
    });
    out.dedup_by(|later, first| later.bodies == first.bodies);
    out
}

/// The contact of the boxes at dense indices `i` and `j` from their sweep `s` (seen
/// from `i`): bodies in order, the normal turned with them (the oracles' own reading
/// of [`Contact`]'s documentation).
pub(crate) fn contact(store: &BoxStore, i: usize, j: usize, s: &Sweep) -> Contact {
    let (bi, bj) = (body(store, i), body(store, j));
    let (hi, hj) = (store.handles()[i], store.handles()[j]);
    let (di, dj) = (store.user_data()[i], store.user_data()[j]);
    // The point is the frame's own (`math::contact`, which has its own oracle), from
    // the boxes in the contact's order.
    if bi <= bj {
        Contact {
            bodies: BodyPair { a: bi, b: bj },
            boxes: (hi, hj),
            status: s.status,
            toi: s.t,
            normal: s.normal,
            user_data: (di, dj),
            point: contact_point(store, i, j, s.status, s.t, s.normal),
        }
    } else {
        let normal = Vec2::ZERO - s.normal;
        Contact {
            bodies: BodyPair { a: bj, b: bi },
            boxes: (hj, hi),
            status: s.status,
            toi: s.t,
            normal,
            user_data: (dj, di),
            point: contact_point(store, j, i, s.status, s.t, normal),
        }
    }
}

/// The lowest dense index whose swept box reaches beyond [`MAX_COORDINATE`] (the frame's
/// documented error).
fn out_of_range(store: &BoxStore) -> Option<usize> {
    (0..store.len()).find(|&i| {
        let b = store.aabb_at(i).expect("dense index");
        let m = Vec2::new(store.motion_x()[i], store.motion_y()[i]);
        let s = b.swept(m);
        !(s.min.x >= -MAX_COORDINATE
            && s.min.y >= -MAX_COORDINATE
            && s.max.x <= MAX_COORDINATE
            && s.max.y <= MAX_COORDINATE)
    })
}

/// Region and point queries on the decoded shapes: a region that covers a shape's
/// bounds finds it, whatever its kind and however far the region reaches (up to
/// `±f32::MAX`, beyond the coordinate limit); a point at a disc's centre or a
/// rectangle's centre finds that shape.
fn queries_find_every_shape(store: &BoxStore) -> Result<(), String> {
    let n = store.len();
    // Filter::ALL pairs with every box that has a layer and a mask.
    let all: Vec<_> = (0..n)
        .filter(|&i| store.layers()[i] != 0 && store.masks()[i] != 0)
        .map(|i| store.handles()[i])
        .collect();
    let mut union: Option<Aabb> = None;
    for i in 0..n {
        let b = store.aabb_at(i).ok_or("dense index")?;
        union = Some(union.map_or(b, |u| u.union(&b)));
    }
    let Some(u) = union else {
        return Ok(());
    };
    let wide = |lo: f32, hi: f32| Aabb::from_coords(lo, lo, hi, hi);
    let regions = [
        u,
        wide(f32::MIN, f32::MAX),
        Aabb::from_coords(f32::MIN, u.min.y, u.max.x, f32::MAX),
        Aabb::from_coords(u.min.x, f32::MIN, f32::MAX, u.max.y),
        wide(-MAX_COORDINATE, MAX_COORDINATE),
    ];
    for region in regions {
        for &level in SimdLevel::available() {
            let mut out = Vec::new();
            store
                .query_region_with(region, Filter::ALL, level, &mut out)
                .map_err(|e| format!("query_region {region:?}: {e}"))?;
            if out != all {
                let missed: Vec<_> = all
                    .iter()
                    .filter(|h| !out.contains(h))
                    .map(|&h| store.shape(h))
                    .collect();
                return Err(format!(
                    "query_region {region:?} at {level:?} found {} of {n} shapes, missed \
                     {missed:?}",
                    out.len()
                ));
            }
        }
    }
    for &h in &all {
        let centre = match store.shape(h) {
            Some(Shape::Circle(c)) => c.center,
            Some(Shape::Obb2(o)) => o.center,
            Some(Shape::Capsule(c)) => c.center(),
            _ => continue,
        };
        let mut out = Vec::new();
        store
            .query_point(centre, Filter::ALL, &mut out)
            .map_err(|e| format!("query_point {centre:?}: {e}"))?;
        if !out.contains(&h) {
            return Err(format!("query_point at the centre of {h:?} missed it"));
        }
    }
    Ok(())
}

fn same_bits(a: &[Contact], b: &[Contact]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.bodies == y.bodies
                && x.boxes == y.boxes
                && x.status == y.status
                && x.toi.to_bits() == y.toi.to_bits()
                && x.normal.x.to_bits() == y.normal.x.to_bits()
                && x.normal.y.to_bits() == y.normal.y.to_bits()
        })
}

/// [`Frame::step`] on the store the bytes describe, twice, against [`oracle`] and the
/// set-difference events, at every SIMD level on one and two threads.
///
/// # Panics
/// When a property fails (that is what a fuzz target reports).
pub fn frame_vs_oracle(data: &[u8]) {
    if let Err(e) = frame_vs_oracle_with(data) {
        panic!("frame check failed: {e}");
    }
}

/// [`frame_vs_oracle`], answering `Err` instead of panicking.
///
/// # Errors
/// The first property that fails, described.
pub fn frame_vs_oracle_with(data: &[u8]) -> Result<(), String> {
    frame_check(data, &|_| {})
}

/// The check, with `tamper` applied to every step's contacts before they are compared
/// (tests plant bugs through it).
pub(crate) fn frame_check(data: &[u8], tamper: &dyn Fn(&mut Vec<Contact>)) -> Result<(), String> {
    let mut store = decode(data);
    queries_find_every_shape(&store)?;
    let mut frames: Vec<(Frame, usize)> = Vec::new();
    for &simd in SimdLevel::available() {
        for threads in [1, 2] {
            let config = FrameConfig {
                simd,
                parallel: threads > 1,
                parallel_threshold: 0,
                ..FrameConfig::default()
            };
            frames.push((Frame::with_config(config), threads));
            // Few groups: the per-box-filter fallback must agree too.
            let few = FrameConfig {
                max_groups: 2,
                ..config
            };
            frames.push((Frame::with_config(few), threads));
        }
    }
    // Grouping in chunks of three boxes (runs and filters split across chunks).
    for threads in [1, 2] {
        let mut chunked = Frame::with_config(FrameConfig {
            parallel_threshold: 0,
            parallel: threads > 1,
            ..FrameConfig::default()
        });
        chunked.set_group_chunk(3);
        frames.push((chunked, threads));
    }
    let mut previous: Vec<BodyPair> = Vec::new();
    for step in 0..2 {
        let expect_error = out_of_range(&store);
        let want = oracle(&store);
        let now: Vec<BodyPair> = want.iter().map(|c| c.bodies).collect();
        for (frame, threads) in &mut frames {
            let cfg = *frame.config();
            let got = pool(*threads).install(|| {
                frame.step(&store).map(|r| {
                    (
                        r.contacts.to_vec(),
                        r.began.iter().map(|e| e.bodies).collect::<Vec<_>>(),
                        r.stayed.iter().map(|e| e.bodies).collect::<Vec<_>>(),
                        r.ended.iter().map(|e| e.bodies).collect::<Vec<_>>(),
                    )
                })
            });
            match got {
                Err(Error::OutOfRange { index, limit, .. })
                    if Some(index) == expect_error && limit == MAX_COORDINATE => {}
                Err(e) => return Err(format!("step {step} {cfg:?}: unexpected error {e}")),
                Ok(_) if expect_error.is_some() => {
                    return Err(format!("step {step} {cfg:?}: out-of-range box accepted"));
                }
                Ok((mut contacts, began, stayed, ended)) => {
                    tamper(&mut contacts);
                    if !same_bits(&contacts, &want) {
                        return Err(format!(
                            "step {step} {cfg:?} × {threads}: contacts {contacts:?}, oracle {want:?}"
                        ));
                    }
                    let b: Vec<_> = now
                        .iter()
                        .filter(|p| !previous.contains(p))
                        .copied()
                        .collect();
                    let s: Vec<_> = now
                        .iter()
                        .filter(|p| previous.contains(p))
                        .copied()
                        .collect();
                    let e: Vec<_> = previous
                        .iter()
                        .filter(|p| !now.contains(p))
                        .copied()
                        .collect();
                    if (began, stayed, ended) != (b, s, e) {
                        return Err(format!("step {step} {cfg:?}: events differ from the sets"));
                    }
                }
            }
        }
        if expect_error.is_some() {
            return Ok(());
        }
        previous = now;
        // Move every shape by its motion (shapes that would leave the finite range stay).
        let handles = store.handles().to_vec();
        for h in handles {
            let shape = store.shape(h).ok_or("handle died")?;
            let m = store.props(h).ok_or("handle died")?.motion;
            let _ = store.update_shape(h, shape.translated(m));
        }
    }
    Ok(())
}
