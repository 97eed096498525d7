//! Unit tests: exact index arithmetic, the property checks on random maps (at ordinary
//! coordinates, near 10⁶, with huge motions, from fuzz-style bytes), and the checks'
//! own ability to reject wrong answers.

use super::check::{self, check_ascii, check_cast, check_move_and_slide, input_from_bytes};
use super::*;
use crate::math::Aabb;
use crate::rng::{Rng, for_cases};
use glam::{IVec2, Vec2};

const TILES: [f32; 6] = [1.0, 16.0, 0.1, 7.3, 0.5, 3.0];
const ORIGINS: [(f32, f32); 5] = [
    (0.0, 0.0),
    (1.0e6, 1.0e6),
    (-1.0e6, 37.5),
    (1000.5, -2.7),
    (-3.3, 1.0e5),
];

fn random_map(w: u32, h: u32, tile: Vec2, origin: Vec2, density: f32, seed: u64) -> TileMap {
    let mut rng = Rng::new(seed);
    let cells = (0..w * h)
        .map(|_| {
            if rng.unit_f32() < density {
                1 + rng.below(3) as u8
            } else {
                EMPTY
            }
        })
        .collect();
    TileMap::from_cells(w, h, cells, tile, origin).unwrap()
}

// ----- index arithmetic --------------------------------------------------------------

/// `floor_index` / `ceil_index` agree with a linear scan of the f32 edges, for tile sizes
/// that are not powers of two and origins far from zero.
#[test]
fn indices_match_a_scan_of_the_edges() {
    let mut rng = Rng::new(7);
    for &t in &TILES {
        for &(ox, oy) in &ORIGINS {
            let map = TileMap::new(40, 3, Vec2::new(t, t), Vec2::new(ox, oy)).unwrap();
            let n = 40i64;
            let lines: Vec<f32> = (0..=n).map(|k| map.line(0, k)).collect();
            let scan_floor = |x: f32| -> i64 {
                if x < lines[0] {
                    -1
                } else {
                    (0..=n).rev().find(|&k| lines[k as usize] <= x).unwrap()
                }
            };
            let scan_ceil = |x: f32| -> i64 {
                if x <= lines[0] {
                    -1
                } else if x > lines[n as usize] {
                    n
                } else {
                    (0..n)
                        .find(|&k| lines[k as usize] < x && x <= lines[k as usize + 1])
                        .unwrap()
                }
            };
            let mut xs: Vec<f32> = lines
                .iter()
                .flat_map(|&l| [l, l.next_up(), l.next_down()])
                .collect();
            for _ in 0..200 {
                xs.push(rng.range_f32(lines[0] - 3.0 * t, lines[n as usize] + 3.0 * t));
            }
            for x in xs {
                assert_eq!(
                    map.floor_index(0, f64::from(x)),
                    scan_floor(x),
                    "floor {x} tile {t} origin {ox}"
                );
                assert_eq!(
                    map.ceil_index(0, f64::from(x)),
                    scan_ceil(x),
                    "ceil {x} tile {t} origin {ox}"
                );
            }
        }
    }
}

#[test]
fn spans_follow_the_open_and_seam_rules() {
    let map = TileMap::new(4, 4, Vec2::ONE, Vec2::ZERO).unwrap();
    let s = |lo: f64, hi: f64| {
        let s = map.still_span(0, lo, hi);
        (s.lo, s.hi, s.all)
    };
    assert_eq!(s(1.0, 2.0), (1, 1, false)); // exactly one cell: its neighbours only touch
    assert_eq!(s(0.5, 2.5), (0, 2, false));
    assert_eq!(s(1.5, 1.5), (1, 1, false)); // a point inside cell 1
    assert_eq!(s(2.0, 2.0), (1, 2, true)); // a point on the seam: both, jointly
    assert_eq!(s(0.0, 0.0), (-1, 0, true)); // on the map's edge: outside and cell 0
    assert_eq!(s(4.0, 4.0), (3, 4, true));
    assert_eq!(s(-5.0, -1.0), (-1, -1, false));
    assert_eq!(s(-5.0, 9.0), (-1, 4, false));
}

// ----- properties on random input ----------------------------------------------------

fn arb_map(rng: &mut Rng) -> TileMap {
    let (w, h) = (rng.range_u32(1, 14), rng.range_u32(1, 14));
    let tile = Vec2::new(rng.pick(&TILES), rng.pick(&TILES));
    let (ox, oy) = rng.pick(&ORIGINS);
    let walled = rng.chance(0.5);
    let density = rng.range_f32(0.0, 0.45);
    let map = random_map(w, h, tile, Vec2::new(ox, oy), density, rng.next_u64());
    if walled { map.with_outside(SOLID) } else { map }
}

/// A coordinate in tile units: on the grid of eighths (exact contacts), or anywhere.
fn arb_units(rng: &mut Rng, range: f32) -> f32 {
    if rng.chance(0.5) {
        let q = range as i32 * 8;
        (rng.range_u32(0, 2 * q as u32 + 1) as i32 - q) as f32 / 8.0
    } else {
        rng.range_f32(-range, range)
    }
}

fn arb_size(rng: &mut Rng) -> f32 {
    match rng.below(4) {
        0 => 0.0,
        1 => rng.range_f32(0.05, 0.95),
        2 => 1.0,
        _ => rng.range_f32(1.0, 3.5),
    }
}

/// A motion in tile units: small, across many tiles, or absurd.
fn arb_motion(rng: &mut Rng) -> f32 {
    match rng.weighted(&[3, 1, 1, 1]) {
        0 => arb_units(rng, 3.0),
        1 => 0.0,
        2 => rng.range_f32(-150.0, 150.0),
        _ => rng.pick(&[1.0e7f32, -1.0e7, 1.0e30, -3.0e38]),
    }
}

/// A map and a body near it (its min corner up to 2 tiles outside the map), often moved
/// into an empty cell so that it starts free, and a motion.
fn arb_case(rng: &mut Rng) -> (TileMap, Aabb, Vec2) {
    let map = arb_map(rng);
    let (fx, fy) = (rng.range_f32(-0.2, 1.2), rng.range_f32(-0.2, 1.2));
    let (ox, oy) = (arb_units(rng, 1.0), arb_units(rng, 1.0));
    let (sx, sy) = (arb_size(rng), arb_size(rng));
    let (mx, my) = (arb_motion(rng), arb_motion(rng));
    let free_start = rng.chance(0.7);
    let pick = rng.next_u64() as u32;
    let (w, h) = (map.width() as f32, map.height() as f32);
    let mut at = Vec2::new((fx * w).floor() + ox.abs(), (fy * h).floor() + oy.abs());
    let cells = map.cells();
    let empty: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == EMPTY).collect();
    if free_start && !empty.is_empty() {
        // The body's min corner in an empty cell, at an eighth-tile offset.
        let i = empty[pick as usize % empty.len()];
        let wid = map.width() as usize;
        let cell = Vec2::new((i % wid) as f32, (i / wid) as f32);
        at = cell + Vec2::new(ox.abs().fract(), oy.abs().fract());
    }
    let t = map.tile_size();
    let min = map.origin() + at * t;
    let max = map.origin() + (at + Vec2::new(sx, sy)) * t;
    (map, Aabb::new(min, max), Vec2::new(mx, my) * t)
}

/// Issue 5's invariants for move-and-slide: never ends inside, never passes through,
/// never farther than asked; plus flush hits, full motion without a hit, grounded.
#[test]
fn slide_invariants() {
    for_cases("slide_invariants", 768, |rng| {
        let (map, body, motion) = arb_case(rng);
        assert_eq!(check_move_and_slide(&map, body, motion), Ok(()));
    });
}

/// The same for straight casts (bullets), including fast path == full DDA.
#[test]
fn cast_invariants() {
    for_cases("cast_invariants", 768, |rng| {
        let (map, body, motion) = arb_case(rng);
        assert_eq!(check_cast(&map, body, motion), Ok(()));
    });
}

/// Fuzz-style: raw bytes through the input builder (raw f32 bits included).
#[test]
fn byte_inputs() {
    for_cases("byte_inputs", 768, |rng| {
        let data: Vec<u8> = (0..rng.below(96)).map(|_| rng.next_u64() as u8).collect();
        if let Some((map, body, motion)) = input_from_bytes(&data) {
            assert_eq!(check_move_and_slide(&map, body, motion), Ok(()));
            assert_eq!(check_cast(&map, body, motion), Ok(()));
        }
    });
}

/// The byte decoder's large maps: the small map's tiles at their place in the large map
/// and in the world, the rectangles drawn, the size cut to `LARGE_CELLS`; the checks
/// hold on bodies moving through them.
#[test]
fn large_maps_from_bytes_keep_the_small_map_in_place() {
    // A 3×3 sketch with a centre wall, 16-unit tiles at the origin; a body left of the
    // wall pushed right, then a 600 × 300 map with the sketch at (70, 40) and a wall
    // column at x = 75.
    let small = [
        2u8, 2, 7, 0, 0x10, 0, 0, 0, 0, 8, 0, 4, 0, 4, 0, 40, 0, 0, 0,
    ];
    let (map, body, motion) = input_from_bytes(&small).unwrap();
    assert_eq!((map.width(), map.height()), (3, 3));
    let mut large = small.to_vec();
    large.push(b'L');
    for v in [600u16, 300, 70, 40, 75, 0] {
        large.extend(v.to_le_bytes());
    }
    large.extend([1, 255, 1]);
    let (big, b2, m2) = input_from_bytes(&large).unwrap();
    assert_eq!(
        (big.width(), big.height(), b2, m2),
        (600, 300, body, motion)
    );
    for (x, y) in (0..3).flat_map(|y| (0..3).map(move |x| (x, y))) {
        let (t, at) = (IVec2::new(x, y), IVec2::new(70 + x, 40 + y));
        assert_eq!(
            (big.get(at), big.tile_aabb(at)),
            (map.get(t), map.tile_aabb(t))
        );
    }
    assert!((0..300).all(|y| big.get(IVec2::new(75, y)) == SOLID));
    assert_eq!(check_move_and_slide(&big, body, motion), Ok(()));
    assert_eq!(check_cast(&big, body, motion), Ok(()));
    // Sides past the cell budget are cut; past MAX_SIDE, refused.
    let mut huge = small.to_vec();
    huge.push(b'L');
    for v in [0xc100u16, 0x0005, 0, 0] {
        huge.extend(v.to_le_bytes());
    }
    let (cut, _, _) = input_from_bytes(&huge).unwrap();
    let cells = u64::from(cut.width()) * u64::from(cut.height());
    assert_eq!((cut.height(), cells <= check::LARGE_CELLS), (5, true));
    huge[20..22].copy_from_slice(&0xffffu16.to_le_bytes());
    huge[22..24].copy_from_slice(&0u16.to_le_bytes());
    assert!(input_from_bytes(&huge).is_none());
}

/// The ASCII reader agrees with the plain reading of its rules on texts with every
/// defect, both ways up; the byte decoder reads ASCII art after the tag `A`.
#[test]
fn ascii_art_reads_by_its_rules() {
    let texts = [
        "",
        " \n\t\n",
        "..#\n#..",
        "\n    ...\n    .#.\n",
        "#..\r\n.#.\r\n..#\r\n",
        "..\r",
        ".\r.",
        "..\n\n..",
        "...\n....",
        "....\n...",
        "  .x\n",
        "#é#",
        "09\n90",
    ];
    for text in texts {
        for y_up in [false, true] {
            let read = check_ascii(text, y_up, Vec2::splat(16.0), Vec2::ZERO);
            assert!(read.is_ok(), "{text:?} y_up {y_up}: {read:?}");
        }
    }
    let read = check_ascii("09\n#.", true, Vec2::ONE, Vec2::ZERO)
        .unwrap()
        .unwrap();
    assert_eq!(read.cells(), &[1, 0, 0, 9]);
    // "..\n.#" after a small input: the map is the art, with the small map's tiles.
    let mut data = vec![
        2u8, 2, 7, 0, 0x10, 0, 0, 0, 0, 8, 0, 4, 0, 4, 0, 40, 0, 0, 0,
    ];
    data.extend([b'A', 0, 0, 0, 7, 0, 1]);
    let (map, _, _) = input_from_bytes(&data).unwrap();
    assert_eq!((map.width(), map.cells()), (2, &[0u8, 0, 0, 1][..]));
    assert_eq!(map.tile_size(), Vec2::splat(16.0));
}

/// A 16-unit grid near 10⁶, where f32 steps are 1/16: bodies on that grid (so contacts
/// are exact) or anywhere, and motions of any size.
fn arb_far_case(rng: &mut Rng) -> (TileMap, Aabb, Vec2) {
    let (w, h) = (rng.range_u32(2, 20), rng.range_u32(2, 20));
    let density = rng.range_f32(0.0, 0.5);
    let seed = rng.next_u64();
    let walled = rng.chance(0.5);
    let sign = rng.pick(&[1.0f32, -1.0]);
    let (x, y) = (arb_units(rng, 24.0), arb_units(rng, 24.0));
    let (sx, sy) = (arb_size(rng), arb_size(rng));
    let (mx, my) = (arb_motion(rng), arb_motion(rng));
    let jitter = rng.range_f32(-0.5, 0.5);
    let map = random_map(
        w,
        h,
        Vec2::splat(16.0),
        Vec2::splat(sign * 1.0e6),
        density,
        seed,
    );
    let map = if walled { map.with_outside(SOLID) } else { map };
    let t = map.tile_size();
    let min = map.origin() + Vec2::new(x, y) * t;
    let max = map.origin() + Vec2::new(x + sx, y + sy) * t;
    (
        map,
        Aabb::new(min, max),
        Vec2::new(mx, my) * t + Vec2::splat(jitter),
    )
}

#[test]
fn far_slide_invariants() {
    for_cases("far_slide_invariants", 512, |rng| {
        let (map, body, motion) = arb_far_case(rng);
        assert_eq!(check_move_and_slide(&map, body, motion), Ok(()));
    });
}

#[test]
fn far_cast_invariants() {
    for_cases("far_cast_invariants", 512, |rng| {
        let (map, body, motion) = arb_far_case(rng);
        assert_eq!(check_cast(&map, body, motion), Ok(()));
    });
}

/// Near 10⁶ a body that slides flush into a wall keeps its size exactly and touches the
/// wall exactly: max.x == the wall's edge, min.x == edge - width.
#[test]
fn far_flush_is_exact() {
    for_cases("far_flush_is_exact", 512, |rng| {
        let row = rng.below(8);
        let start = rng.range_f32(0.0, 40.0);
        let width16 = rng.range_u32(1, 48);
        let speed = rng.range_f32(50.0, 5000.0);
        let o = 1.0e6f32;
        let mut map = TileMap::new(64, 8, Vec2::splat(16.0), Vec2::splat(o)).unwrap();
        map.set(50, row, SOLID).unwrap();
        let wall = o + 50.0 * 16.0;
        let w = width16 as f32 / 16.0; // representable at 10⁶
        let min_x = (o + start).max(o);
        let y0 = o + row as f32 * 16.0 + 4.0;
        let body = Aabb::from_coords(min_x, y0, min_x + w, y0 + 8.0);
        if body.max.x > wall {
            return;
        }
        let r = map
            .move_and_slide(body, Vec2::new(speed * 16.0, 0.0))
            .unwrap();
        let hit = r.hit_x.unwrap();
        assert_eq!(hit.coord, wall);
        assert_eq!(r.aabb.max.x, wall);
        assert_eq!(r.aabb.max.x - r.aabb.min.x, w);
        assert_eq!(hit.tile, IVec2::new(50, row as i32));
        // And back: the left face runs into nothing but the outside.
        let back = map.move_and_slide(r.aabb, Vec2::new(-speed, 0.0)).unwrap();
        assert_eq!(back.aabb.max.x - back.aabb.min.x, w);
    });
}

/// Batch results equal per-body results, in order, for several thread counts: on a
/// cluttered map, and on an arena walled at its border (the bullets inside its open
/// interior moved without a lookup).
#[test]
fn batch_matches_single_for_every_thread_count() {
    let cluttered = random_map(
        24,
        16,
        Vec2::new(7.3, 3.0),
        Vec2::new(1000.5, -2.7),
        0.3,
        11,
    );
    let mut arena = TileMap::new(24, 16, Vec2::new(7.3, 3.0), Vec2::new(1000.5, -2.7)).unwrap();
    for (x, y) in (0..16).flat_map(|y| (0..24).map(move |x| (x, y))) {
        if x == 0 || y == 0 || x == 23 || y == 15 {
            arena.set(x, y, SOLID).unwrap();
        }
    }
    assert!(arena.interior.world[0] < arena.interior.world[2]);
    let (few, many) = (
        batch_matches_single(&cluttered),
        batch_matches_single(&arena),
    );
    assert!(few < 100 && many > 500, "{few} {many}");
}

/// [`batch_matches_single_for_every_thread_count`] on `map`; returns how many bullets
/// were swept inside its open interior.
fn batch_matches_single(map: &TileMap) -> usize {
    let mut rng = Rng::new(5);
    let n = 9000;
    let bodies: Vec<Aabb> = (0..n)
        .map(|_| {
            let min = map.origin()
                + Vec2::new(rng.range_f32(-2.0, 26.0), rng.range_f32(-2.0, 18.0)) * map.tile_size();
            Aabb::from_min_size(
                min,
                Vec2::new(rng.range_f32(0.0, 9.0), rng.range_f32(0.0, 4.0)),
            )
        })
        .collect();
    let motions: Vec<Vec2> = (0..n)
        .map(|_| Vec2::new(rng.range_f32(-30.0, 30.0), rng.range_f32(-30.0, 30.0)))
        .collect();
    let options = SlideOptions::default().with_order(AxisOrder::YThenX);
    let want: Vec<SlideResult> = bodies
        .iter()
        .zip(&motions)
        .map(|(&b, &m)| map.move_and_slide_with(b, m, &options).unwrap())
        .collect();
    let casts: Vec<CastResult> = bodies
        .iter()
        .zip(&motions)
        .map(|(&b, &m)| map.cast(b, m).unwrap())
        .collect();
    assert!(want.iter().any(|r| r.hit_x.is_some()) && casts.iter().any(|r| r.hit.is_some()));
    for threads in [1, 2, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut out = Vec::new();
        pool.install(|| map.move_and_slide_all(&bodies, &motions, &options, &mut out))
            .unwrap();
        assert_eq!(out, want, "{threads} threads");
        for response in [BulletResponse::Stop, BulletResponse::Destroy] {
            let mut bullets = bodies.clone();
            let mut hits = Vec::new();
            pool.install(|| map.move_bullets(&mut bullets, &motions, response, &mut hits))
                .unwrap();
            let mut k = 0;
            for (i, c) in casts.iter().enumerate() {
                match c.hit {
                    Some(h) => {
                        let bh = hits[k];
                        assert_eq!(
                            (bh.index as usize, bh.hit, bh.aabb, bh.toi),
                            (i, h, c.aabb, c.toi)
                        );
                        k += 1;
                        let want_box = if response == BulletResponse::Stop {
                            c.aabb
                        } else {
                            bodies[i]
                        };
                        assert_eq!(bullets[i], want_box);
                    }
                    // Free flight: the exact cast or the plain f32 sum (one-lookup path).
                    None => assert!(
                        bullets[i] == c.aabb || bullets[i] == bodies[i].translated(motions[i]),
                        "{:?} vs {:?}",
                        bullets[i],
                        c.aabb
                    ),
                }
            }
            assert_eq!(k, hits.len());
        }
    }
    // Each bullet alone (the scalar path) lands where the batch (in lanes) put it.
    for response in [BulletResponse::Stop, BulletResponse::Destroy] {
        let (mut batch, mut hits) = (bodies.clone(), Vec::new());
        map.move_bullets(&mut batch, &motions, response, &mut hits)
            .unwrap();
        for (i, want) in batch.iter().enumerate() {
            let mut one = [bodies[i]];
            map.move_bullets(&mut one, &motions[i..=i], response, &mut hits)
                .unwrap();
            assert_eq!(one[0], *want, "bullet {i} alone and in the batch");
        }
    }
    let [ix0, iy0, ix1, iy1] = map.interior.world;
    bodies
        .iter()
        .zip(&motions)
        .map(|(b, &m)| b.swept(m))
        .filter(|s| s.min.x >= ix0 && s.min.y >= iy0 && s.max.x <= ix1 && s.max.y <= iy1)
        .count()
}

// ----- the checks reject wrong answers -----------------------------------------------

/// A wall at x in [3, 4]; body [0, 1] × [0.25, 0.75] pushed right by 5.
fn wall_case() -> (TileMap, Aabb, Vec2, SlideResult) {
    let map = TileMap::from_ascii("...#..", Vec2::ONE, Vec2::ZERO).unwrap();
    let body = Aabb::from_coords(0.0, 0.25, 1.0, 0.75);
    let motion = Vec2::new(5.0, 0.0);
    let r = map.move_and_slide(body, motion).unwrap();
    assert_eq!(r.aabb, Aabb::from_coords(2.0, 0.25, 3.0, 0.75));
    (map, body, motion, r)
}

#[test]
fn checks_accept_the_right_answer_and_reject_wrong_ones() {
    let (map, body, motion, good) = wall_case();
    let opts = SlideOptions::default();
    assert_eq!(
        check::verify_slide(&map, body, motion, &opts, &good),
        Ok(())
    );
    let wrong = |f: &dyn Fn(&mut SlideResult)| {
        let mut r = good;
        f(&mut r);
        check::verify_slide(&map, body, motion, &opts, &r)
    };
    // Penetrating by one ulp, leaving a gap, tunnelling, no hit reported, wrong edge,
    // wrong tile, shrinking, moving backwards, wrong grounded.
    type Edit<'a> = &'a dyn Fn(&mut SlideResult);
    let cases: [(&str, Edit<'_>); 9] = [
        ("penetrate", &|r| {
            r.aabb.max.x = 3.0f32.next_up();
            r.aabb.min.x = 2.0f32.next_up();
        }),
        ("gap", &|r| {
            r.aabb.max.x = 2.5;
            r.aabb.min.x = 1.5;
        }),
        ("tunnel", &|r| {
            r.aabb.max.x = 5.0;
            r.aabb.min.x = 4.0;
            r.hit_x = None;
        }),
        ("no hit", &|r| r.hit_x = None),
        ("edge", &|r| r.hit_x.as_mut().unwrap().edge = TileEdge::MaxX),
        ("tile", &|r| {
            r.hit_x.as_mut().unwrap().tile = IVec2::new(2, 0)
        }),
        ("shrink", &|r| r.aabb.min.x = 2.5),
        ("backwards", &|r| r.aabb.min.x = -1.0),
        ("grounded", &|r| r.grounded = true),
    ];
    for (name, f) in cases {
        assert!(
            wrong(f).is_err(),
            "the check accepted a wrong answer: {name}"
        );
    }
}

#[test]
fn cast_checks_reject_wrong_answers() {
    // Diagonal past a single tile at (2, 1): the path crosses it.
    let map = TileMap::from_ascii("....\n..#.\n....", Vec2::ONE, Vec2::ZERO).unwrap();
    let body = Aabb::from_coords(0.0, 0.0, 0.5, 0.5);
    let motion = Vec2::new(3.0, 2.0);
    let good = map.cast(body, motion).unwrap();
    assert!(good.hit.is_some());
    assert_eq!(check::verify_cast(&map, body, motion, &good), Ok(()));
    let tunnelled = CastResult {
        aabb: body.translated(motion),
        hit: None,
        toi: 1.0,
    };
    assert!(check::verify_cast(&map, body, motion, &tunnelled).is_err());
    let mut early = good;
    early.aabb = body;
    early.toi = 0.0;
    assert!(check::verify_cast(&map, body, motion, &early).is_err());
}

#[test]
fn fast_path_agrees_with_the_dda_on_dense_maps() {
    let mut rng = Rng::new(3);
    let map = random_map(30, 30, Vec2::splat(2.0), Vec2::new(-3.3, 1.0e5), 0.05, 9);
    let mut free = 0;
    for _ in 0..20_000 {
        let min = map.origin() + Vec2::new(rng.range_f32(-4.0, 64.0), rng.range_f32(-4.0, 64.0));
        let b = Aabb::from_min_size(
            min,
            Vec2::new(rng.range_f32(0.0, 1.5), rng.range_f32(0.0, 1.5)),
        );
        let m = Vec2::new(rng.range_f32(-3.0, 3.0), rng.range_f32(-3.0, 3.0));
        let fast = map.cast_unchecked(b, m, true);
        assert_eq!(fast, map.cast_unchecked(b, m, false), "{b:?} {m:?}");
        free += usize::from(fast.hit.is_none());
    }
    assert!(free > 10_000 && free < 20_000, "{free}");
}

#[test]
fn debug_summarises_instead_of_printing_every_cell() {
    let mut map = TileMap::new(2000, 1500, Vec2::splat(8.0), Vec2::new(-4.0, 2.0)).unwrap();
    map.set(7, 9, 3).unwrap();
    map.set(1999, 1499, 1).unwrap();
    let text = format!("{map:?}");
    assert!(text.len() < 200, "{} characters", text.len());
    assert!(text.contains("2000 x 1500"), "{text}");
    assert!(text.contains("non_empty: 2"), "{text}");
    assert!(text.contains("origin: Vec2(-4.0, 2.0)"), "{text}");
}

#[test]
fn a_trailing_face_that_crosses_several_edges_at_once_leaves_them_all() {
    // Found by the `tilemap_cast` fuzz target: a box 8e21 below and left of a 3×3 map,
    // moving up and right by 2.7e23. In `f64`, its trailing (bottom) face crosses all
    // three row edges at the time its right face reaches the first column. Stepping
    // that face one edge per event left the bottom row in the box's span when the
    // column was tested, and the cast reported a hit on a tile that the box it returned
    // was not across. Now the rows are behind it: the box passes above the map.
    let map = TileMap::from_cells(
        3,
        3,
        vec![1, 1, 0, 0, 0, 1, 1, 1, 1],
        Vec2::ONE,
        Vec2::new(1000.5, -2.7),
    )
    .unwrap();
    let body = Aabb::from_coords(-8.407664e21, -8.407664e21, -8.407664e21, 2.3510523e-38);
    let motion = Vec2::new(2.720083e23, 2.720083e23);
    assert_eq!(check_cast(&map, body, motion), Ok(()));
    assert_eq!(map.cast(body, motion).unwrap().hit, None);
}

#[test]
fn a_trailing_face_never_passes_its_leading_face() {
    // Found by the `tilemap_cast` fuzz target in CI: a body of zero width 8e21 left of a
    // map of 0.1-wide columns, moving right by 2.7e23. In `f64` both its faces cross
    // every column edge at the same time. The trailing face took all of those crossings
    // while the leading face, stopped by the first column, had taken one: the trailing
    // face ended at x = 0.3 and the leading one at 0, an inverted box. Now the trailing
    // face stays in the leading face's slab and the box stops flush, still of zero width.
    let map = TileMap::from_cells(
        3,
        3,
        vec![1, 0, 0, 0, 0, 1, 0, 0, 1],
        Vec2::new(0.1, 1.0),
        Vec2::ZERO,
    )
    .unwrap();
    let body = Aabb::from_coords(-8.407664e21, -8.407664e21, -8.407664e21, 8.175e-41);
    let motion = Vec2::new(2.72011e23, 2.720083e23);
    assert_eq!(check_cast(&map, body, motion), Ok(()));
    let r = map.cast(body, motion).unwrap();
    assert_eq!((r.aabb.min.x, r.aabb.max.x), (0.0, 0.0));
    assert_eq!(
        r.hit.map(|h| (h.tile, h.coord)),
        Some((glam::IVec2::new(0, 0), 0.0))
    );
}

// ----- open space at every scale -----------------------------------------------------

/// The coarse open-space levels patched by `set` and rebuilt by `with_outside` equal
/// levels built from scratch, on maps of odd and degenerate sizes.
#[test]
fn coarse_levels_follow_every_change() {
    let mut rng = Rng::new(0x0c0a);
    for &(w, h) in &[(1, 1), (1, 9), (7, 1), (5, 3), (33, 17), (64, 64)] {
        for outside in [EMPTY, SOLID] {
            let mut map = random_map(w, h, Vec2::splat(2.0), Vec2::ZERO, 0.05, rng.next_u64())
                .with_outside(outside);
            assert!(map.coarse == super::open::Coarse::build(&map));
            for _ in 0..40 {
                let (x, y) = (rng.below(w), rng.below(h));
                let kind = if rng.unit_f32() < 0.5 { EMPTY } else { SOLID };
                map.set(x, y, kind).unwrap();
                assert!(
                    map.coarse == super::open::Coarse::build(&map),
                    "{w}x{h} set ({x}, {y})"
                );
            }
        }
    }
}

/// `region_clear` never calls a box clear that reaches a solid tile (edges included) or,
/// with a solid outside, the map's edge; and it does answer "clear" at every scale.
#[test]
fn region_clear_never_misses_a_solid_tile() {
    let mut rng = Rng::new(0x0e5);
    let mut clear_at = [0usize; 4];
    for &t in &TILES {
        for &(ox, oy) in &ORIGINS {
            for (outside, density) in [(EMPTY, 0.02), (SOLID, 0.002), (EMPTY, 0.3)] {
                let (w, h) = (1 + rng.below(90), 1 + rng.below(90));
                let tile = Vec2::new(t, t * (0.5 + rng.unit_f32()));
                let map = random_map(w, h, tile, Vec2::new(ox, oy), density, rng.next_u64())
                    .with_outside(outside);
                let Some(fast) = map.fast_index else {
                    continue;
                };
                let solids: Vec<(i64, i64)> = (0..i64::from(h))
                    .flat_map(|r| (0..i64::from(w)).map(move |c| (c, r)))
                    .filter(|&(c, r)| map.kind_at(c, r) != EMPTY)
                    .collect();
                let edges = [map.line64(0, 0), map.line64(1, 0)];
                let far = [map.line64(0, i64::from(w)), map.line64(1, i64::from(h))];
                for _ in 0..400 {
                    let size = [0, 1].map(|a| {
                        let scale = [0.3, 1.0, 2.5, 9.0][rng.below(4) as usize];
                        rng.unit_f32() * scale * tile[a]
                    });
                    let lo = [0, 1].map(|a| {
                        let span = (far[a] - edges[a]) as f32;
                        edges[a] as f32 - 2.0 * tile[a] + rng.unit_f32() * (span + 4.0 * tile[a])
                    });
                    let b = [lo[0], lo[1], lo[0] + size[0], lo[1] + size[1]];
                    if !map.region_clear(fast, b) {
                        continue;
                    }
                    let big = (size[0] / tile.x).max(size[1] / tile.y);
                    clear_at[(big.max(1.0).log2().ceil() as usize).min(3)] += 1;
                    let [x0, y0, x1, y1] = b.map(f64::from);
                    for &(c, r) in &solids {
                        let meets = x0 <= map.line64(0, c + 1)
                            && x1 >= map.line64(0, c)
                            && y0 <= map.line64(1, r + 1)
                            && y1 >= map.line64(1, r);
                        assert!(!meets, "{b:?} reaches solid ({c}, {r}) of {map:?}");
                    }
                    if outside != EMPTY {
                        let inside = x0 > edges[0] && y0 > edges[1] && x1 < far[0] && y1 < far[1];
                        assert!(inside, "{b:?} reaches the solid outside of {map:?}");
                    }
                }
            }
        }
    }
    assert!(
        clear_at.iter().all(|&n| n > 50),
        "clear answers per scale: {clear_at:?}"
    );
}

/// Whether every tile of `xs × ys` (tile indices, any integers) is empty, tiles outside
/// the map counting as its outside kind: the definition the open-space bits accelerate.
fn tiles_empty(map: &TileMap, xs: core::ops::Range<i64>, ys: core::ops::Range<i64>) -> bool {
    let (w, h) = (i64::from(map.width()), i64::from(map.height()));
    let inside = |r: &core::ops::Range<i64>, n: i64| r.start.max(0)..r.end.min(n);
    // Beyond the map every tile is the outside kind: one look at it is enough.
    let reaches_out = xs.start < 0 || ys.start < 0 || xs.end > w || ys.end > h;
    if reaches_out && map.outside() != EMPTY && !xs.is_empty() && !ys.is_empty() {
        return false;
    }
    inside(&ys, h).all(|y| inside(&xs, w).all(|x| map.kind_at(x, y) == EMPTY))
}

/// Every open-space bit of `map` against its definition, tile by tile: at level 0 a
/// cell's 3×3 tiles, at level `k` the tiles under its 3×3 block of `2^k`-tile cells,
/// all empty (the outside counting as its kind); and the interior rectangle against the
/// column-by-column histogram search it replaces.
fn assert_open_space_exact(map: &TileMap, what: &str) {
    let (w, h) = (i64::from(map.width()), i64::from(map.height()));
    for y in 0..h {
        for x in 0..w {
            let want = tiles_empty(map, x - 1..x + 2, y - 1..y + 2);
            let got = map.is_clear((y * w + x) as usize);
            assert_eq!(got, want, "{what}: level 0 ({x}, {y})");
        }
    }
    for k in 1..=map.coarse.len() {
        let side = 1i64 << k;
        let (cw, ch) = ((w + side - 1) >> k, (h + side - 1) >> k);
        for cy in 0..ch {
            for cx in 0..cw {
                let xs = (cx - 1) * side..(cx + 2) * side;
                let ys = (cy - 1) * side..(cy + 2) * side;
                let got = map.coarse.is_clear(k, (cx << k) as u32, (cy << k) as u32);
                assert_eq!(
                    got,
                    tiles_empty(map, xs, ys),
                    "{what}: level {k} ({cx}, {cy})"
                );
            }
        }
    }
    let fresh = super::open::Interior::build(map);
    assert_eq!(fresh.tiles(), reference_interior(map), "{what}: interior");
}

/// The largest empty rectangle as the map first found it: each row's histogram of empty
/// runs upwards, searched column by column with a stack (the first found on ties).
fn reference_interior(map: &TileMap) -> [u32; 4] {
    let (w, h) = (map.width() as usize, map.height() as usize);
    let mut heights = vec![0u32; w];
    let mut stack: Vec<(usize, u32)> = Vec::new();
    let (mut best, mut tiles) = (0u64, [0u32; 4]);
    for y in 0..h {
        for (x, hx) in heights.iter_mut().enumerate() {
            *hx = if map.cells()[y * w + x] == EMPTY {
                *hx + 1
            } else {
                0
            };
        }
        stack.clear();
        for (x, hx) in heights.iter().copied().chain([0]).enumerate() {
            let mut start = x;
            while let Some(&(s, top)) = stack.last() {
                if top < hx {
                    break;
                }
                stack.pop();
                let area = u64::from(top) * (x - s) as u64;
                if area > best {
                    best = area;
                    let y1 = y as u32 + 1;
                    tiles = [s as u32, y1 - top, x as u32, y1];
                }
                start = s;
            }
            stack.push((start, hx));
        }
    }
    tiles
}

/// A map drawn from a few patterns: noise at a density, walls (a border, rooms, long
/// lines, a solid block) and runs of one kind, so that rows repeat, differ by a tile, or
/// are solid throughout.
fn patterned_map(w: u32, h: u32, rng: &mut Rng) -> TileMap {
    let (wu, hu) = (w as usize, h as usize);
    let mut cells = vec![EMPTY; wu * hu];
    let density = [0.0, 0.002, 0.02, 0.2, 0.5, 0.9][rng.below(6) as usize];
    for c in &mut cells {
        if rng.unit_f32() < density {
            *c = 1 + rng.below(3) as u8;
        }
    }
    for _ in 0..rng.below(4) {
        match rng.below(4) {
            0 => {
                for y in 0..hu {
                    for x in 0..wu {
                        if x == 0 || y == 0 || x + 1 == wu || y + 1 == hu {
                            cells[y * wu + x] = SOLID;
                        }
                    }
                }
            }
            1 if w > 0 => {
                let x = rng.below(w) as usize;
                let (y0, y1) = (rng.below(h + 1) as usize, rng.below(h + 1) as usize);
                for y in y0.min(y1)..y0.max(y1) {
                    cells[y * wu + x] = SOLID;
                }
            }
            2 if h > 0 => {
                let y = rng.below(h) as usize;
                let (x0, x1) = (rng.below(w + 1) as usize, rng.below(w + 1) as usize);
                cells[y * wu + x0.min(x1)..y * wu + x0.max(x1)].fill(SOLID);
            }
            _ => {
                let (x0, y0) = (rng.below(w + 1) as usize, rng.below(h + 1) as usize);
                let (x1, y1) = (rng.below(w + 1) as usize, rng.below(h + 1) as usize);
                let kind = if rng.unit_f32() < 0.5 { EMPTY } else { SOLID };
                for y in y0.min(y1)..y0.max(y1) {
                    cells[y * wu + x0.min(x1)..y * wu + x0.max(x1)].fill(kind);
                }
            }
        }
    }
    TileMap::from_cells(w, h, cells, Vec2::splat(2.0), Vec2::new(-5.0, 3.0)).unwrap()
}

/// The open-space tables (clear bits at every level, the interior rectangle), built a
/// word at a time, equal their definitions evaluated tile by tile: on maps of every
/// shape (sides around 64, one tile wide, empty, long and thin), of noise and walls,
/// with either outside, after the outside changes and after single tiles change.
#[test]
fn open_space_tables_match_their_definitions() {
    let mut rng = Rng::new(0x0be5);
    let sizes = [
        (0, 0),
        (0, 7),
        (5, 0),
        (1, 1),
        (1, 70),
        (70, 1),
        (2, 33),
        (63, 5),
        (64, 4),
        (65, 9),
        (127, 3),
        (128, 2),
        (129, 7),
        (31, 31),
        (200, 12),
        (3, 200),
        (100, 90),
    ];
    for &(w, h) in &sizes {
        for round in 0..6 {
            let map = patterned_map(w, h, &mut rng);
            let what = format!("{w}x{h} round {round}");
            assert_open_space_exact(&map, &what);
            let walled = map.clone().with_outside(SOLID);
            assert_open_space_exact(&walled, &format!("{what}, walled"));
            assert_open_space_exact(&walled.clone().with_outside(3), &format!("{what}, 3"));
            let mut open = walled.with_outside(EMPTY);
            assert!(open == map, "{what}: walled and opened again");
            if w > 0 && h > 0 {
                for _ in 0..5 {
                    let (x, y) = (rng.below(w), rng.below(h));
                    let kind = if rng.unit_f32() < 0.5 { EMPTY } else { SOLID };
                    open.set(x, y, kind).unwrap();
                }
                assert_open_space_exact(&open, &format!("{what}, after set"));
            }
        }
    }
}

/// A new map (whose cells are known to be empty and not read) holds the tables a map of
/// empty cells read from its cells holds.
#[test]
fn new_maps_equal_maps_of_empty_cells() {
    for (w, h) in [
        (0, 0),
        (0, 3),
        (4, 0),
        (1, 1),
        (63, 2),
        (64, 64),
        (65, 3),
        (200, 130),
    ] {
        let new = TileMap::new(w, h, Vec2::splat(3.0), Vec2::new(-1.0, 2.0)).unwrap();
        let cells = vec![EMPTY; (w * h) as usize];
        let read = TileMap::from_cells(w, h, cells, Vec2::splat(3.0), Vec2::new(-1.0, 2.0));
        let read = read.unwrap();
        assert!(new == read, "{w}x{h}");
        assert_eq!(new.interior.tiles(), read.interior.tiles(), "{w}x{h}");
        assert_eq!(new.interior.world, read.interior.world, "{w}x{h}");
        assert_open_space_exact(&new, &format!("new {w}x{h}"));
    }
}

/// The interior search on large maps (where its shortcuts matter: open rows repeating,
/// tall columns, long stretches of equal height) gives the column-by-column answer, in
/// any number of bands of rows.
#[test]
fn interior_search_matches_the_column_by_column_search_on_large_maps() {
    let mut rng = Rng::new(0x1b1e);
    for &(w, h) in &[(700, 300), (64, 2000), (3000, 40), (333, 333), (5, 9)] {
        for _ in 0..4 {
            let map = patterned_map(w, h, &mut rng);
            let want = reference_interior(&map);
            let built = super::open::Interior::build(&map);
            assert_eq!(built.tiles(), want, "{w}x{h} {map:?}");
            let solid = super::bits::solid(map.cells());
            for bands in [2, 3, 7, 64, 1000] {
                let banded = super::open::Interior::from_solid_in(&solid, w, h, bands);
                assert_eq!(banded.tiles(), want, "{w}x{h} in {bands} bands");
            }
        }
    }
    // Ties across bands: two equal rooms, one per band; the first (upper) one wins.
    let mut cells = vec![SOLID; 40 * 40];
    for (x0, y0) in [(2, 3), (20, 25)] {
        for y in y0..y0 + 5 {
            cells[y * 40 + x0..y * 40 + x0 + 6].fill(EMPTY);
        }
    }
    let solid = super::bits::solid(&cells);
    for bands in 1..8 {
        let interior = super::open::Interior::from_solid_in(&solid, 40, 40, bands);
        assert_eq!(interior.tiles(), [2, 3, 8, 8], "{bands} bands");
    }
}

// ----- the open interior -------------------------------------------------------------

/// The largest all-empty rectangle's area, by trying every rectangle (small maps only).
fn largest_empty_area(map: &TileMap) -> u64 {
    let (w, h) = (map.width() as i64, map.height() as i64);
    let mut best = 0;
    for y0 in 0..h {
        for x0 in 0..w {
            for y1 in y0 + 1..=h {
                for x1 in x0 + 1..=w {
                    let empty = (y0..y1).all(|y| (x0..x1).all(|x| map.kind_at(x, y) == EMPTY));
                    if empty {
                        best = best.max(((x1 - x0) * (y1 - y0)) as u64);
                    }
                }
            }
        }
    }
    best
}

/// Every tile of the map's interior rectangle is empty, and its world box lies at least a
/// quarter of a tile inside the rectangle's edges (or is the empty box `NONE`).
fn assert_interior_valid(map: &TileMap, what: &str) {
    let [x0, y0, x1, y1] = map.interior.tiles();
    for y in y0..y1 {
        for x in x0..x1 {
            assert_eq!(map.kind_at(x.into(), y.into()), EMPTY, "{what}: ({x}, {y})");
        }
    }
    let world = map.interior.world;
    if world[0] > world[2] {
        return; // no rectangle: no box is inside
    }
    assert!(x0 < x1 && y0 < y1, "{what}: a world box without tiles");
    let quarter = |a: usize| 0.25 * f64::from(map.tile_size()[a]);
    assert!(
        f64::from(world[0]) >= map.line64(0, x0.into()) + quarter(0),
        "{what}"
    );
    assert!(
        f64::from(world[1]) >= map.line64(1, y0.into()) + quarter(1),
        "{what}"
    );
    assert!(
        f64::from(world[2]) <= map.line64(0, x1.into()) - quarter(0),
        "{what}"
    );
    assert!(
        f64::from(world[3]) <= map.line64(1, y1.into()) - quarter(1),
        "{what}"
    );
}

/// A map built from its cells holds the largest empty rectangle (against trying every
/// rectangle), at every density and on degenerate sizes.
#[test]
fn interior_is_the_largest_empty_rectangle() {
    let mut rng = Rng::new(0x1a7e);
    for &(w, h) in &[(1, 1), (1, 9), (7, 1), (5, 3), (12, 12), (17, 9)] {
        for density in [0.0, 0.05, 0.2, 0.5, 1.0] {
            let map = random_map(
                w,
                h,
                Vec2::new(3.0, 2.0),
                Vec2::new(-7.0, 5.0),
                density,
                rng.next_u64(),
            );
            let [x0, y0, x1, y1] = map.interior.tiles();
            let area = u64::from(x1 - x0) * u64::from(y1 - y0);
            assert_eq!(area, largest_empty_area(&map), "{w}x{h} at {density}");
            assert_interior_valid(&map, "built");
        }
    }
}

/// Through any sequence of `set`, the interior stays all empty and inside its tiles;
/// an arena drawn tile by tile ends with its whole inside as the interior; and the
/// interior is not part of the map's value.
#[test]
fn interior_follows_every_change() {
    let mut rng = Rng::new(0x1a7f);
    for &(w, h) in &[(1, 1), (6, 1), (9, 7), (40, 23)] {
        let mut map = random_map(w, h, Vec2::splat(4.0), Vec2::ZERO, 0.1, rng.next_u64());
        for k in 0..300 {
            let (x, y) = (rng.below(w), rng.below(h));
            let kind = if rng.unit_f32() < 0.6 { EMPTY } else { SOLID };
            map.set(x, y, kind).unwrap();
            assert_interior_valid(&map, &format!("{w}x{h} change {k}"));
        }
        let rebuilt =
            TileMap::from_cells(w, h, map.cells().to_vec(), map.tile_size(), map.origin()).unwrap();
        assert!(map == rebuilt, "equality ignores the interior");
    }
    // The arena of the demo: walls drawn along the border, row by row then column by
    // column. Without the rebuilds, the first row's tiles would eat the rectangle from
    // the side a column at a time.
    let (w, h) = (60, 20);
    let mut map = TileMap::new(w, h, Vec2::splat(16.0), Vec2::ZERO).unwrap();
    for x in 0..w {
        map.set(x, 0, SOLID).unwrap();
        map.set(x, h - 1, SOLID).unwrap();
    }
    for y in 0..h {
        map.set(0, y, SOLID).unwrap();
        map.set(w - 1, y, SOLID).unwrap();
    }
    assert_eq!(map.interior.tiles(), [1, 1, w - 1, h - 1]);
    assert_eq!(map.interior.world, [20.0, 20.0, 940.0, 300.0]);
    // A map carved out of solid rock tile by tile finds the space it opened.
    let mut rock =
        TileMap::from_cells(w, h, vec![SOLID; (w * h) as usize], Vec2::ONE, Vec2::ZERO).unwrap();
    for y in 2..12 {
        for x in 3..43 {
            rock.set(x, y, EMPTY).unwrap();
        }
    }
    assert_eq!(rock.interior.tiles(), [3, 2, 43, 12]);
}

/// A map whose edges `f32` cannot place within a quarter of a tile has no interior (the
/// frame's wall pass then looks every box up); nor has a map of no cells.
#[test]
fn interior_needs_a_precise_map() {
    for (w, h) in [(0, 0), (0, 5), (5, 0)] {
        let empty = TileMap::new(w, h, Vec2::ONE, Vec2::ZERO).unwrap();
        assert_eq!(empty.interior.tiles(), [0; 4]);
        assert_eq!(empty.interior.world[0], f32::INFINITY);
    }
    let far = TileMap::new(4, 4, Vec2::splat(1.0), Vec2::splat(3.0e6)).unwrap();
    assert!(far.fast_index.is_none());
    assert_eq!(far.interior.world[0], f32::INFINITY);
}

// ----- the near-walls listing -----------------------------------------------------------

/// `reaches_solid`'s nine-bit mask gives the cell-by-cell answer for every centre cell,
/// at the edge and away from it, and every set of reached offsets; and `small_box_near`
/// on random small boxes agrees with locating the box and reading cell by cell.
#[test]
fn near_walls_mask_matches_the_cells() {
    let mut rng = Rng::new(0x9a11);
    for (k, density) in [0.05, 0.3, 0.7].into_iter().enumerate() {
        let map = random_map(
            9,
            7,
            Vec2::new(8.0, 6.0),
            Vec2::new(-20.0, 13.0),
            density,
            k as u64,
        );
        for map in [map.clone(), map.with_outside(2)] {
            let (w, h) = (map.width(), map.height());
            let (mut near, mut clear) = (0, 0);
            for cy in 0..h {
                for cx in 0..w {
                    for offsets in 0..16 {
                        let cols = [-(offsets & 1), (offsets >> 1) & 1];
                        let rows = [-((offsets >> 2) & 1), offsets >> 3];
                        let want = map.reaches_solid_by_cells([cx, cy], cols, rows);
                        assert_eq!(
                            map.reaches_solid([cx, cy], cols, rows),
                            want,
                            "cell ({cx}, {cy}), columns {cols:?}, rows {rows:?}"
                        );
                        if want {
                            near += 1;
                        } else {
                            clear += 1;
                        }
                    }
                }
            }
            assert!(
                near > 0 && clear > 0,
                "density {density}: both answers occur"
            );
            let fast = map.fast_index.expect("a small map near the origin");
            let b = map.bounds();
            for _ in 0..2000 {
                let (sx, sy) = (rng.unit_f32() * 9.0, rng.unit_f32() * 7.0);
                let x0 = b.min.x - 8.0 + rng.unit_f32() * (b.max.x - b.min.x + 16.0);
                let y0 = b.min.y - 6.0 + rng.unit_f32() * (b.max.y - b.min.y + 12.0);
                let boxed = [x0, y0, x0 + sx, y0 + sy];
                let want = map
                    .near_reach(fast, boxed)
                    .is_none_or(|(c, cols, rows)| map.reaches_solid_by_cells(c, cols, rows));
                assert_eq!(map.small_box_near(fast, boxed), want, "box {boxed:?}");
            }
        }
    }
}
