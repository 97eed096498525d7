//! The frame tests' shared oracle: every pair of boxes through the scalar swept kernel,
//! the earliest contact per body pair, and the bits the tests compare.

use glam::Vec2;
use hantei::frame::{Body, BodyPair, Contact, Frame, FrameConfig};
use hantei::narrow::SweepStatus;
use hantei::narrow::scalar::sweep_turning;
use hantei::{BoxStore, ContactPoint, Owner, SimdLevel};

/// The all-pairs oracle: every pair whose filters agree, owners differ and swept bounds
/// touch, through `sweep_turning` in canonical kind order (`aabb`, `circle`, `obb2`,
/// `capsule`); the earliest per body pair. With no turn `sweep_turning` is
/// `sweep_shapes`, bit for bit. The contact points are left at their default: `bits`
/// leaves them out, and `contact_points.rs` checks them.
pub fn all_pairs(store: &BoxStore) -> Vec<Contact> {
    let n = store.len();
    let body = |i: usize| match store.owners()[i] {
        o if o == Owner::NONE.0 => Body::Box(store.handles()[i]),
        o => Body::Owner(Owner(o)),
    };
    let mut out = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let p = |k: usize| store.props(store.handle_at(k).unwrap()).unwrap();
            let (pi, pj) = (p(i), p(j));
            if !pi.filter.pairs_with(pj.filter) || (pi.owner != Owner::NONE && pi.owner == pj.owner)
            {
                continue;
            }
            let (bi, bj) = (store.aabb_at(i).unwrap(), store.aabb_at(j).unwrap());
            if !bi.swept(pi.motion).overlaps(&bj.swept(pj.motion)) {
                continue;
            }
            let shape = |k: usize| store.shape_at(k).unwrap();
            let (i, j, pi, pj) = if shape(i).kind() <= shape(j).kind() {
                (i, j, pi, pj)
            } else {
                (j, i, pj, pi)
            };
            let s = sweep_turning(&shape(i), pi.motion, pi.turn, &shape(j), pj.motion, pj.turn);
            if s.status == SweepStatus::Miss {
                continue;
            }
            let (hi, hj) = (store.handles()[i], store.handles()[j]);
            let (a, b, boxes, normal, user_data) = if body(i) <= body(j) {
                (
                    body(i),
                    body(j),
                    (hi, hj),
                    s.normal,
                    (pi.user_data, pj.user_data),
                )
            } else {
                (
                    body(j),
                    body(i),
                    (hj, hi),
                    Vec2::ZERO - s.normal,
                    (pj.user_data, pi.user_data),
                )
            };
            out.push(Contact {
                bodies: BodyPair { a, b },
                boxes,
                status: s.status,
                toi: s.t,
                normal,
                user_data,
                point: ContactPoint::default(),
            });
        }
    }
    out.sort_by(|x, y| {
        (x.bodies, x.toi.to_bits(), x.boxes).cmp(&(y.bodies, y.toi.to_bits(), y.boxes))
    });
    out.dedup_by(|later, first| later.bodies == first.bodies);
    out
}

/// Each contact's bodies, status, time and normal as bits: what the oracle decides.
pub fn bits(c: &[Contact]) -> Vec<(BodyPair, u8, u32, u32, u32)> {
    c.iter()
        .map(|c| {
            (
                c.bodies,
                c.status as u8,
                c.toi.to_bits(),
                c.normal.x.to_bits(),
                c.normal.y.to_bits(),
            )
        })
        .collect()
}

/// Every frame configuration the tests compare: each SIMD level on 1, 2 and 4 threads,
/// parallel from the first box.
pub fn frames() -> Vec<(Frame, rayon::ThreadPool, String)> {
    let mut out = Vec::new();
    for &simd in SimdLevel::available() {
        for threads in [1, 2, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let frame = Frame::with_config(FrameConfig {
                simd,
                parallel: threads > 1,
                parallel_threshold: 0,
                ..FrameConfig::default()
            });
            out.push((frame, pool, format!("{simd:?} x{threads}")));
        }
    }
    out
}
