//! What hantei computes on seeded scenes, as text, for a byte-for-byte comparison
//! between builds (x86-64 at every SIMD level and thread count, wasm32 with and without
//! simd128). The `hantei-determinism` program writes it to a file; on
//! wasm32-unknown-unknown, which has no files, `hantei_report` hands it to the host.
//! Run by `.ci/wasm`.
//!
//! ```text
//! hantei-determinism OUT [--simd LEVEL] [--threads N]
//! hantei-determinism --levels
//! ```
//!
//! For each scene of [`SCENES`] (from `hantei::scene::generate`), the file holds:
//! - `scene NAME N SEED boxes=DIGEST`: the generated boxes' FNV-1a digest (of their
//!   bits), so that a generator that differs is told apart from a broad phase that does;
//! - `pairs K`, then the broad phase's pairs as `i j` lines, `i < j`, sorted (the listing
//!   of the `pairs` example);
//! - `frame F candidates=C contacts=K`, then for each of [`FRAMES`] steps of a
//!   `Frame::step` loop over a `BoxStore` built from the scene (filters, owners and
//!   motions from a hash of the index; boxes moved, removed and inserted between steps):
//!   one `c` line per contact (bodies, boxes, status, and `toi`, `normal.x`, `normal.y`
//!   as `f32` bit patterns in hex) and one `began` / `stayed` / `ended` line per event.
//!
//! Then `danmaku N`: [`DANMAKU_FRAMES`] calls of `Frame::advance` on
//! `hantei::frame::Danmaku` (round bullets and needle capsules, pillars, lasers that turn
//! during the frame): per frame the counts, one `c` line per contact (with its contact
//! point's bits), one `w` line per wall hit, one `d` line per destroyed box, and each
//! laser's shape after the frame as bits, so that the turning sine and cosine and the
//! `f64` contact points are compared too.
//!
//! The file ends with a line `end`, written last, so that a reader can tell a complete
//! file from a cut one (Node's WASI may exit abnormally after the output is complete).
//! Nothing in the file depends on the SIMD level or the thread count.

use glam::Vec2;
use hantei::frame::{Body, BodyPair, Frame, FrameConfig, layers};
use hantei::scene::generate::Shape;
use hantei::{Aabb, BoxHandle, BoxProps, BoxStore, BroadConfig, BroadPhase, Owner, SimdLevel};
use std::fmt::Write as _;

/// The scenes: shape, box count, seed.
pub const SCENES: [(Shape, usize, u64); 6] = [
    (Shape::Uniform, 6000, 1),
    (Shape::BulletHell, 6000, 2),
    (Shape::Clusters, 4000, 3),
    (Shape::HugeAndTiny, 3000, 4),
    (Shape::Parked, 5000, 5),
    (Shape::HorizontalLine, 3000, 6),
];

/// Steps of the frame loop per scene.
pub const FRAMES: u32 = 4;

/// Bullets in the danmaku scene, and `Frame::advance` calls on it.
pub const DANMAKU: usize = 4000;
/// See [`DANMAKU`].
pub const DANMAKU_FRAMES: u32 = 6;

/// The whole report, at `level` (each kernel runs on rayon's current pool).
///
/// # Errors
/// What hantei answers, as text (never, for these valid scenes).
pub fn report(level: SimdLevel) -> Result<String, String> {
    let mut s = String::new();
    s.push_str("hantei determinism v1\n");
    for (shape, n, seed) in SCENES {
        let boxes = shape.generate(n, seed);
        writeln!(
            s,
            "scene {} {n} {seed} boxes={:016x}",
            shape.name(),
            digest(&boxes)
        )
        .unwrap();
        pairs(&mut s, &boxes, level)?;
        frames(&mut s, &boxes, level)?;
    }
    danmaku(&mut s, level)?;
    s.push_str("end\n");
    Ok(s)
}

/// The broad phase's sorted pair listing. A low parallel threshold so that the
/// parallel band split runs on these few thousand boxes.
fn pairs(s: &mut String, boxes: &[Aabb], level: SimdLevel) -> Result<(), String> {
    let mut broad = BroadPhase::with_config(BroadConfig {
        simd: level,
        parallel_threshold: 256,
        ..BroadConfig::default()
    });
    let mut pairs = broad.find_pairs(boxes).map_err(|e| e.to_string())?.to_vec();
    pairs.sort_unstable();
    writeln!(s, "pairs {}", pairs.len()).unwrap();
    for p in &pairs {
        writeln!(s, "{} {}", p.a, p.b).unwrap();
    }
    Ok(())
}

/// [`FRAMES`] steps of the frame loop over a store built from `boxes`.
fn frames(s: &mut String, boxes: &[Aabb], level: SimdLevel) -> Result<(), String> {
    let err = |e: hantei::Error| e.to_string();
    let mut store = BoxStore::with_capacity(boxes.len());
    let mut handles: Vec<BoxHandle> = Vec::with_capacity(boxes.len());
    for (i, b) in boxes.iter().enumerate() {
        handles.push(store.insert_with(*b, props(i as u64)).map_err(err)?);
    }
    let mut frame = Frame::with_config(FrameConfig {
        simd: level,
        ..FrameConfig::default()
    });
    for f in 0..FRAMES {
        let report = frame.step(&store).map_err(err)?;
        writeln!(
            s,
            "frame {f} candidates={} contacts={}",
            report.candidates,
            report.contacts.len()
        )
        .unwrap();
        for c in report.contacts {
            writeln!(
                s,
                "c {} {} {} {:?} {:08x} {:08x} {:08x}",
                pair(&c.bodies),
                handle(c.boxes.0),
                handle(c.boxes.1),
                c.status,
                c.toi.to_bits(),
                c.normal.x.to_bits(),
                c.normal.y.to_bits()
            )
            .unwrap();
        }
        for (what, list) in [
            ("began", report.began),
            ("stayed", report.stayed),
            ("ended", report.ended),
        ] {
            for p in list {
                writeln!(s, "{what} {}", pair(&p.bodies)).unwrap();
            }
        }
        // Between steps: every box moves by its motion; every 50th box (counting from
        // `f`) goes, and as many new ones come, reusing the freed slots (new
        // generations).
        let moved: Vec<Aabb> = (0..store.len())
            .map(|i| {
                let b = store.aabb_at(i).expect("dense index");
                let m = Vec2::new(store.motion_x()[i], store.motion_y()[i]);
                b.translated(m)
            })
            .collect();
        store.update_all(&moved).map_err(err)?;
        let mut removed = Vec::new();
        for h in handles.iter().skip(f as usize).step_by(50) {
            if store.contains(*h) {
                removed.push(store.remove(*h).map_err(err)?);
            }
        }
        for (k, b) in removed.into_iter().enumerate() {
            let key = u64::from(f) << 32 | k as u64;
            let b = b.translated(Vec2::new(0.5, -0.25));
            handles.push(store.insert_with(b, props(key)).map_err(err)?);
        }
    }
    Ok(())
}

/// [`DANMAKU_FRAMES`] calls of `Frame::advance` on the danmaku scene, every contact,
/// wall hit, destroyed box and laser written as bits.
fn danmaku(s: &mut String, level: SimdLevel) -> Result<(), String> {
    use hantei::frame::{Danmaku, DanmakuConfig, Level};
    let err = |e: hantei::Error| e.to_string();
    let mut scene = Danmaku::new(DanmakuConfig::new(DANMAKU));
    let mut frame = Frame::with_config(FrameConfig {
        simd: level,
        parallel_threshold: 1024,
        ..FrameConfig::default()
    });
    let bits = |v: Vec2| format!("{:08x} {:08x}", v.x.to_bits(), v.y.to_bits());
    writeln!(s, "danmaku {DANMAKU}").unwrap();
    for f in 0..DANMAKU_FRAMES {
        frame
            .advance(&mut scene.store, &Level::walls(&scene.map))
            .map_err(err)?;
        let r = frame.report();
        writeln!(
            s,
            "advance {f} contacts={} wall_hits={} destroyed={}",
            r.contacts.len(),
            r.wall_hits.len(),
            r.destroyed.len()
        )
        .unwrap();
        for c in r.contacts {
            writeln!(
                s,
                "c {} {:?} {:08x} {} {} {} {}",
                pair(&c.bodies),
                c.status,
                c.toi.to_bits(),
                bits(c.normal),
                bits(c.point.a),
                bits(c.point.b),
                c.point.depth.to_bits()
            )
            .unwrap();
        }
        for w in r.wall_hits {
            writeln!(
                s,
                "w {} {:?} {:08x} {} {}",
                handle(w.handle),
                w.status,
                w.toi.to_bits(),
                bits(w.normal),
                bits(w.point.a)
            )
            .unwrap();
        }
        for d in r.destroyed {
            writeln!(s, "d {} {:08x}", handle(d.handle), d.toi.to_bits()).unwrap();
        }
        for &l in &scene.lasers {
            let shape = scene.store.shape(l).map(|sh| format!("{sh:?}"));
            let turned = match scene.store.shape(l) {
                Some(hantei::Shape::Obb2(o)) => format!("{} {}", bits(o.center), bits(o.axis)),
                Some(hantei::Shape::Capsule(k)) => format!("{} {}", bits(k.a), bits(k.b)),
                _ => format!("{shape:?}"),
            };
            writeln!(s, "laser {} {turned}", handle(l)).unwrap();
        }
    }
    Ok(())
}

/// Filter, owner and motion of box `key`, from a hash: one in ten a player bullet, five
/// an enemy bullet, three an enemy (owners shared by pairs of keys: compound hitboxes),
/// one the player. Motions are multiples of 1/8 in `[-4, 4]`, exact in `f32`.
fn props(key: u64) -> BoxProps {
    let h = splitmix(key);
    let (filter, owner) = match h % 10 {
        0 => (layers::player_bullet(), Owner::NONE),
        1..=5 => (layers::enemy_bullet(), Owner::NONE),
        6..=8 => (layers::enemy(), Owner(1 + key / 2)),
        _ => (layers::player(), Owner(0)),
    };
    let coord = |bits: u64| ((bits % 65) as f32 - 32.0) / 8.0;
    BoxProps {
        filter,
        owner,
        motion: Vec2::new(coord(h >> 8), coord(h >> 24)),
        ..BoxProps::default()
    }
}

/// SplitMix64's output function.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// FNV-1a over the boxes' bits.
fn digest(boxes: &[Aabb]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in boxes {
        for x in [b.min.x, b.min.y, b.max.x, b.max.y] {
            for byte in x.to_bits().to_le_bytes() {
                h = (h ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    h
}

fn handle(h: BoxHandle) -> String {
    format!("{}.{}", h.slot(), h.generation())
}

fn body(b: Body) -> String {
    match b {
        Body::Owner(o) => format!("o{}", o.0),
        Body::Box(h) => format!("b{}", handle(h)),
    }
}

fn pair(p: &BodyPair) -> String {
    format!("{} {}", body(p.a), body(p.b))
}

/// The report at `SimdLevel::available()[level]` (none beyond the last), for a host
/// that runs the wasm32-unknown-unknown build: the text's address in the module's
/// memory in the high 32 bits, its length in the low ones (zero length on an error).
/// The text is leaked: one call per instance.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
#[unsafe(no_mangle)]
pub extern "C" fn hantei_report(level: u32) -> u64 {
    let text = SimdLevel::available()
        .get(level as usize)
        .ok_or_else(|| "no such level".to_owned())
        .and_then(|&l| report(l))
        .unwrap_or_default();
    let text: &'static str = Box::leak(text.into_boxed_str());
    ((text.as_ptr() as u64) << 32) | text.len() as u64
}
