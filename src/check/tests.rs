//! Every check on seeded byte strings and on the committed fuzz corpus (so that
//! `cargo test` runs what the fuzz targets run), and each check against planted bugs
//! (so that none of them is a check that cannot fail).

use super::{advance, broad, capsule, frame, narrow, scene, statics, store, tilemap, turning};
use crate::rng::Rng;
use crate::{Aabb, Error, Pair, SimdLevel};
use std::path::PathBuf;

/// `n` byte strings from `seed`: lengths up to `max_len`, bytes uniform or (one string
/// in four) from a small alphabet of tags that the decoders give meaning to.
fn inputs(seed: u64, n: usize, max_len: usize) -> Vec<Vec<u8>> {
    const ALPHABET: [u8; 12] = [0, 1, 2, 3, 0x80, 0xa0, 0xc0, 0xe0, 0xf0, 0xfe, 0xff, 0x10];
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let len = rng.below(max_len as u32 + 1) as usize;
            let small = rng.below(4) == 0;
            (0..len)
                .map(|_| {
                    if small {
                        ALPHABET[rng.below(ALPHABET.len() as u32) as usize]
                    } else {
                        rng.next_u64() as u8
                    }
                })
                .collect()
        })
        .collect()
}

/// The committed corpus of one fuzz target.
///
/// A packaged crate has no `fuzz/corpus` at all (cargo leaves `fuzz/`, a package of its
/// own, out of the `.crate`). Then one line on stderr says so, and three stand-ins take
/// the corpus's place: well-formed scene files that random bytes practically never are
/// (two valid records, the first with `min.x == -0.0`; the same file with record 1
/// inverted; and cut short), which the planted scene bugs need to show. Every check
/// accepts any bytes, so the other targets run them too. In a checkout, a target's
/// corpus that is missing or empty still fails.
fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let dir = root.join(target);
    if !root.exists() {
        eprintln!(
            "fuzz corpus {} not present (packaged crate?): checking seeded inputs and 3 stand-in scene files only",
            dir.display()
        );
        let valid = crate::scene::encode(&[
            Aabb::from_coords(-0.0, 0.0, 1.0, 1.0),
            Aabb::from_coords(0.5, 0.5, 2.0, 2.0),
        ])
        .expect("valid boxes");
        let mut inverted = valid.clone();
        inverted[32..36].copy_from_slice(&3.0f32.to_le_bytes()); // record 1: min.x 3 > max.x 2
        let short = valid[..40].to_vec();
        return [("valid", valid), ("inverted", inverted), ("short", short)]
            .into_iter()
            .map(|(name, bytes)| (PathBuf::from(format!("stand-in:{name}")), bytes))
            .collect();
    }
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus {}: {e}", dir.display()))
        .map(|e| e.expect("corpus entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "corpus {} is empty", dir.display());
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("corpus file");
            (p, bytes)
        })
        .collect()
}

/// Runs `check` on the corpus of `target` and on `n` seeded inputs.
fn run_all(target: &str, check: fn(&[u8]), seed: u64, n: usize, max_len: usize) {
    for (path, bytes) in corpus(target) {
        let r = std::panic::catch_unwind(|| check(&bytes));
        assert!(r.is_ok(), "{target}: corpus file {} failed", path.display());
    }
    for data in inputs(seed, n, max_len) {
        check(&data);
    }
}

#[test]
fn broad_pairs_on_seeded_inputs_and_corpus() {
    run_all("broad_pairs", broad::broad_vs_brute, 1, 2000, 400);
}

#[test]
fn static_grid_on_seeded_inputs_and_corpus() {
    run_all("static_grid", statics::static_vs_brute, 13, 2000, 400);
}

#[test]
fn frame_step_on_seeded_inputs_and_corpus() {
    run_all("frame_step", frame::frame_vs_oracle, 7, 600, 400);
}

/// The frame check catches a contact one ulp late, on an input that passes as is.
#[test]
fn frame_check_catches_a_planted_bug() {
    let late = |c: &mut Vec<crate::frame::Contact>| {
        if let Some(first) = c.first_mut() {
            first.toi = f32::from_bits(first.toi.to_bits() + 1);
        }
    };
    let with_contacts = inputs(70, 400, 400)
        .into_iter()
        .find(|d| !frame::oracle(&frame::oracle_store_for_test(d)).is_empty())
        .expect("a seeded input with contacts");
    assert!(frame::frame_check(&with_contacts, &|_| {}).is_ok());
    let err = frame::frame_check(&with_contacts, &late).unwrap_err();
    assert!(err.contains("contacts"), "{err}");
}

#[test]
fn frame_advance_on_seeded_inputs_and_corpus() {
    run_all("frame_advance", advance::advance_vs_oracle, 11, 600, 600);
}

#[test]
fn frame_slide_on_seeded_inputs_and_corpus() {
    run_all(
        "frame_slide",
        advance::slide_vs_move_and_slide,
        17,
        600,
        300,
    );
    // The seeded inputs slide many boxes, and tiles stop many of them.
    let (mut boxes, mut stopped) = (0, 0);
    for data in inputs(17, 600, 300) {
        let (b, s) = advance::slide_check(&data).expect("checked above");
        boxes += b;
        stopped += s;
    }
    assert!(
        boxes > 1000 && stopped > 300,
        "{boxes} boxes, {stopped} stopped"
    );
}

/// The seeded inputs reach every part of the advance check: wall hits (inside the map
/// and beyond a solid outside), contacts, stopped, destroyed and sliding boxes.
#[test]
fn frame_advance_inputs_reach_walls_stops_and_destroys() {
    let (mut walls, mut ring, mut contacts, mut stopped, mut destroyed) = (0, 0, 0, 0, 0);
    let mut slid = 0;
    for data in inputs(11, 600, 600) {
        let input = advance::decode(&data);
        let o = advance::oracle(&input.store, input.map.as_ref(), input.wall_filter);
        if o.out_of_range.is_some() {
            continue;
        }
        walls += o.walls.len();
        ring += o
            .walls
            .iter()
            .filter(|w| {
                let m = input.map.as_ref().expect("walls need a map");
                w.tile.x < 0
                    || w.tile.y < 0
                    || w.tile.x >= m.width() as i32
                    || w.tile.y >= m.height() as i32
            })
            .count();
        contacts += o.contacts.len();
        for out in &o.outcomes {
            match out {
                advance::BoxOutcome::Stopped { .. } => stopped += 1,
                advance::BoxOutcome::Destroyed { .. } => destroyed += 1,
                advance::BoxOutcome::Slid => slid += 1,
                advance::BoxOutcome::Moved(_) => {}
            }
        }
    }
    let counts = (walls, ring, contacts, stopped, destroyed, slid);
    assert!(
        walls > 200 && ring > 20 && contacts > 200 && stopped > 50 && destroyed > 100 && slid > 100,
        "too little reached (walls, ring, contacts, stopped, destroyed, slid): {counts:?}"
    );
}

/// The advance check catches a box one unit off where it should be.
#[test]
fn advance_check_catches_a_planted_bug() {
    let nudge = |s: &mut crate::BoxStore| {
        if let Some(h) = s.handles().first().copied() {
            let shape = s.shape(h).expect("alive");
            let _ = s.update_shape(h, shape.translated(glam::Vec2::new(1.0, 0.0)));
        }
    };
    catches(
        "frame_advance",
        12,
        600,
        advance::advance_vs_oracle_with,
        |d| advance::advance_check(d, &nudge),
        "box ",
    );
}

#[test]
fn narrow_lanes_on_seeded_inputs_and_corpus() {
    if cfg!(miri) {
        // `.ci/miri` runs this for the batches' unchecked gathers (records with and
        // without the padding, columns, on one thread and two, at every level), at a
        // thousandth of the speed: one input per kernel (byte 0), its tail (the scale and
        // 15 bytes) used up by the lanes' shapes, which read a byte at least each, so
        // that no extra pair is decoded and every batch is in range and gathers. The
        // corpus (files, which Miri isolates) is left to the native runs.
        for (kernel, tail) in (0u8..7).zip(inputs(6, 7, 16)) {
            let mut data = vec![kernel];
            data.extend(tail.iter().chain([0; 16].iter()).take(16));
            narrow::lanes_vs_scalar(&data);
        }
        return;
    }
    run_all("narrow_lanes", narrow::lanes_vs_scalar, 6, 5000, 400);
}

#[test]
fn narrow_capsule_on_seeded_inputs_and_corpus() {
    run_all("narrow_capsule", capsule::capsule_vs_oracle, 14, 3000, 400);
}

#[test]
fn narrow_turning_on_seeded_inputs_and_corpus() {
    run_all("narrow_turning", turning::turning_vs_oracle, 15, 1500, 96);
}

#[test]
fn store_ops_on_seeded_inputs_and_corpus() {
    run_all("store_ops", store::store_vs_model, 2, 4000, 600);
}

#[test]
fn scene_decode_on_seeded_inputs_and_corpus() {
    run_all("scene_decode", scene::decode_never_panics, 3, 10000, 200);
}

#[test]
fn tilemap_slide_on_seeded_inputs_and_corpus() {
    run_all("tilemap_slide", tilemap::move_and_slide, 4, 4000, 96);
}

#[test]
fn tilemap_cast_on_seeded_inputs_and_corpus() {
    run_all("tilemap_cast", tilemap::cast, 5, 4000, 96);
}

/// Requires some input (of the corpus of `target`, then seeded ones) to make `planted`
/// fail with a message containing `want`, and that input to pass `clean`.
fn catches(
    target: &str,
    seed: u64,
    max_len: usize,
    clean: impl Fn(&[u8]) -> Result<(), String>,
    planted: impl Fn(&[u8]) -> Result<(), String>,
    want: &str,
) {
    let corpus = corpus(target).into_iter().map(|(_, d)| d);
    let mut other = None;
    for data in corpus.chain(inputs(seed, 2000, max_len)) {
        match planted(&data) {
            Err(e) if e.contains(want) => {
                assert_eq!(
                    clean(&data),
                    Ok(()),
                    "the input fails without the planted bug"
                );
                return;
            }
            Err(e) => other = other.or(Some(e)),
            Ok(()) => {}
        }
    }
    panic!("no input revealed the planted bug as {want:?} (first other failure: {other:?})");
}

#[test]
fn broad_check_catches_planted_bugs() {
    let clean = |d: &[u8]| broad::broad_vs_brute_with(d, &|_, _| {});
    type Bug = fn(broad::Run, &mut Result<Vec<Pair>, Error>);
    let bugs: [(Bug, &str); 6] = [
        // A pair lost on two threads.
        (
            |run, r| {
                if let (2, Ok(p)) = (run.threads, r) {
                    p.pop();
                }
            },
            "pairs differ from brute force",
        ),
        // A pair reported twice.
        (
            |_, r| {
                if let Ok(p) = r
                    && let Some(&q) = p.first()
                {
                    p.push(q);
                }
            },
            "duplicates",
        ),
        // The order depends on the SIMD level.
        (
            |run, r| {
                if let (SimdLevel::Portable, Ok(p)) = (run.level, r) {
                    p.reverse();
                }
            },
            "the order differs",
        ),
        // An index past the end of the input.
        (
            |_, r| {
                if let Ok(p) = r
                    && let Some(q) = p.first_mut()
                {
                    q.b = u32::MAX;
                }
            },
            "malformed pair",
        ),
        // Invalid input accepted.
        (
            |_, r| {
                if r.is_err() {
                    *r = Ok(vec![]);
                }
            },
            "got Ok",
        ),
        // The wrong index reported.
        (
            |_, r| {
                if let Err(Error::InvalidBox { index, .. }) = r {
                    *index += 1;
                }
            },
            "the oracle says",
        ),
    ];
    for (bug, want) in bugs {
        catches(
            "broad_pairs",
            11,
            200,
            clean,
            |d| broad::broad_vs_brute_with(d, &bug),
            want,
        );
    }
}

#[test]
fn store_check_catches_planted_bugs() {
    let clean = |d: &[u8]| store::store_vs_model_with(d, &|_, _| {});
    type Bug = fn(usize, &mut crate::BoxStore);
    let bugs: [(Bug, &str); 4] = [
        // A box silently moved.
        (
            |_, s| {
                if let Some(h) = s.handle_at(0) {
                    let b = s.get(h).unwrap();
                    s.update(h, b.translated(glam::Vec2::X)).unwrap();
                }
            },
            "columns",
        ),
        // A box silently lost.
        (
            |k, s| {
                if let (5, Some(h)) = (k, s.handle_at(0)) {
                    s.remove(h).unwrap();
                }
            },
            "boxes, the model",
        ),
        // A filter silently changed.
        (
            |_, s| {
                if let Some(h) = s.handle_at(0) {
                    s.set_filter(h, crate::Filter::new(0, 0)).unwrap();
                }
            },
            "filter or owner",
        ),
        // Everything silently cleared.
        (
            |k, s| {
                if k == 7 {
                    s.clear();
                }
            },
            "boxes, the model",
        ),
    ];
    for (bug, want) in bugs {
        catches(
            "store_ops",
            12,
            300,
            clean,
            |d| store::store_vs_model_with(d, &bug),
            want,
        );
    }
}

#[test]
fn scene_check_catches_planted_bugs() {
    let clean = |d: &[u8]| scene::decode_never_panics_with(d, &|_| {});
    type Bug = fn(&mut Result<Vec<Aabb>, crate::scene::SceneError>);
    let bugs: [(Bug, &str); 4] = [
        // The last record dropped.
        (
            |r| {
                if let Ok(b) = r {
                    b.pop();
                }
            },
            "the reference",
        ),
        // A bad file accepted as empty.
        (
            |r| {
                if r.is_err() {
                    *r = Ok(vec![]);
                }
            },
            "the reference",
        ),
        // -0.0 read as 0.0.
        (
            |r| {
                if let Ok(b) = r {
                    for v in b.iter_mut() {
                        v.min.x += 0.0;
                    }
                }
            },
            "the reference",
        ),
        // An inverted record accepted.
        (
            |r| {
                if let Err(crate::scene::SceneError::Inverted { .. }) = r {
                    *r = Ok(vec![Aabb::from_coords(1.0, 0.0, 0.0, 0.0)]);
                }
            },
            "the reference",
        ),
    ];
    for (bug, want) in bugs {
        catches(
            "scene_decode",
            13,
            120,
            clean,
            |d| scene::decode_never_panics_with(d, &bug),
            want,
        );
    }
}

#[test]
fn narrow_check_catches_planted_bugs() {
    use crate::narrow::SweepStatus;
    use narrow::{Answers, Stage};
    let clean = |d: &[u8]| narrow::lanes_vs_scalar_with(d, &|_, _| {});
    type Bug = fn(Stage, &mut Answers);
    let bugs: [(Bug, &str); 6] = [
        // A lane's overlap flipped in the wide kernel.
        (
            |s, a| {
                if let (Stage::Lanes(SimdLevel::Portable), Answers::Overlap(v)) = (s, a) {
                    v[3] = !v[3];
                }
            },
            "lane 3 at Portable differs",
        ),
        // A time of impact one ulp off.
        (
            |s, a| {
                if let (Stage::Lanes(_), Answers::Sweep(v)) = (s, a) {
                    for w in v.iter_mut().filter(|w| w.status == SweepStatus::Hit) {
                        w.t = f32::from_bits(w.t.to_bits() + 1);
                    }
                }
            },
            "differs from the scalar kernel",
        ),
        // A separating-axis hit lost.
        (
            |s, a| {
                if let (Stage::Lanes(_), Answers::Mtv2(v)) = (s, a) {
                    v.iter_mut().for_each(|m| *m = None);
                }
            },
            "differs from the scalar kernel",
        ),
        // A 3D depth with its sign flipped.
        (
            |s, a| {
                if let (Stage::Lanes(_), Answers::Mtv3(v)) = (s, a) {
                    for m in v.iter_mut().flatten() {
                        m.depth = -m.depth - 1.0;
                    }
                }
            },
            "differs from the scalar kernel",
        ),
        // The batch answer differs from the reference (a wrong oracle for lane 0).
        (
            |s, a| {
                if let (Stage::Reference, Answers::Overlap(v)) = (s, a) {
                    v[0] = !v[0];
                }
            },
            "batch at",
        ),
        // A sweep status changed in the reference: the batch keeps other pairs.
        (
            |s, a| {
                if let (Stage::Reference, Answers::Sweep(v)) = (s, a) {
                    for w in v.iter_mut() {
                        w.status = match w.status {
                            SweepStatus::Miss => SweepStatus::Hit,
                            _ => SweepStatus::Miss,
                        };
                    }
                }
            },
            "batch at",
        ),
    ];
    for (bug, want) in bugs {
        catches(
            "narrow_lanes",
            14,
            400,
            clean,
            |d| narrow::lanes_vs_scalar_with(d, &bug),
            want,
        );
    }
}
