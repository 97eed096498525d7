//! The static grid against brute force on random scenes of every kind; errors; rebuilds.

use super::*;
use crate::broad::BroadPhase;
use crate::broad::brute_force_bipartite;
use crate::error::BoxDefect;
use crate::math::Aabb;
use crate::rng::Rng;
use glam::Vec2;

/// The chunk counts every scene is queried with (1: the serial path).
const CHUNKS: [usize; 4] = [1, 2, 3, 7];

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// A random scene: `kind` picks sizes and placement.
fn scene(rng: &mut Rng, n: usize, kind: u32) -> Vec<Aabb> {
    let centre = Vec2::new(rng.range_f32(-50.0, 50.0), rng.range_f32(-50.0, 50.0));
    (0..n)
        .map(|k| {
            let (p, size) = match kind {
                // Spread, small to medium.
                0 => (
                    Vec2::new(rng.range_f32(0.0, 400.0), rng.range_f32(0.0, 400.0)),
                    Vec2::new(rng.range_f32(0.5, 12.0), rng.range_f32(0.5, 12.0)),
                ),
                // Clustered (Gaussian) around a centre.
                1 => (
                    centre + 15.0 * Vec2::new(rng.normal_f32(), rng.normal_f32()),
                    Vec2::new(rng.range_f32(0.0, 4.0), rng.range_f32(0.0, 4.0)),
                ),
                // Integer grid: touching edges and corners, zero-size boxes.
                2 => (
                    Vec2::new(rng.below(24) as f32, rng.below(24) as f32),
                    Vec2::new(rng.below(3) as f32, rng.below(3) as f32),
                ),
                // Mostly small, a few huge or far away.
                _ => match rng.below(40) {
                    0 => (Vec2::splat(-1e6), Vec2::splat(2e6)),
                    1 => (Vec2::new(1e30, rng.range_f32(0.0, 200.0)), Vec2::splat(1.0)),
                    2 => (Vec2::new(rng.range_f32(0.0, 200.0), -1e37), Vec2::ONE),
                    3 => (Vec2::new(0.0, 50.0), Vec2::new(1e37, 1.0)),
                    _ => (
                        Vec2::new(rng.range_f32(0.0, 200.0), rng.range_f32(0.0, 200.0)),
                        Vec2::splat((k % 5) as f32),
                    ),
                },
            };
            Aabb::from_min_size(p, size)
        })
        .collect()
}

fn filters(rng: &mut Rng, n: usize) -> Vec<Filter> {
    (0..n)
        .map(|_| Filter::new(1 << rng.below(3), (1 << rng.below(3)) | (1 << rng.below(3))))
        .collect()
}

/// Queries with every chunk count (and `query` itself, serial and in a pool of 3), and
/// requires the oracle's exact sequence each time.
fn check(grid: &StaticGrid, movers: BoxSet<'_>, statics: BoxSet<'_>, what: &str) {
    let want = brute_force_bipartite(movers, statics).unwrap();
    let mut got = vec![Pair::new(9, 9)]; // cleared by the query
    for chunks in CHUNKS {
        grid.query_chunked(movers, chunks, &mut got).unwrap();
        assert_eq!(got, want, "{what}: {chunks} chunks");
    }
    grid.query(movers, false, &mut got).unwrap();
    assert_eq!(got, want, "{what}: serial");
    pool(3).install(|| grid.query(movers, true, &mut got).unwrap());
    assert_eq!(got, want, "{what}: parallel");
}

#[test]
fn random_scenes_match_brute_force() {
    let mut rng = Rng::new(17);
    let mut grid = StaticGrid::new();
    for round in 0..240 {
        let (ks, km) = (round % 4, (round / 4) % 4);
        let ns = [0, 1, 2, 9, 60, 300, 1500][rng.below(7) as usize];
        let nm = [0, 1, 5, 80, 700][rng.below(5) as usize];
        let statics = scene(&mut rng, ns, ks);
        let movers = scene(&mut rng, nm, km);
        let (fs, fm) = (filters(&mut rng, ns), filters(&mut rng, nm));
        let mut s = BoxSet::from(&statics);
        let mut m = BoxSet::from(&movers);
        if round % 3 == 1 {
            s = s.with_filters(&fs).unwrap();
        }
        if round % 5 >= 3 {
            m = m.with_filters(&fm).unwrap();
        }
        grid.build(s).unwrap();
        assert_eq!(grid.len(), ns);
        check(
            &grid,
            m,
            s,
            &format!("round {round}: {ns} x{ks} statics, {nm} x{km} movers"),
        );
        // Statics against themselves as movers: every touching pair.
        check(
            &grid,
            s,
            s,
            &format!("round {round}: statics against themselves"),
        );
    }
}

#[test]
fn bench_sized_scene_matches_brute_force_and_its_cells_are_bounded() {
    let mut rng = Rng::new(5);
    let field = 1000.0;
    let statics: Vec<Aabb> = (0..20_000)
        .map(|_| {
            let p = Vec2::new(rng.range_f32(0.0, field), rng.range_f32(0.0, field));
            Aabb::from_min_size(
                p,
                Vec2::new(rng.range_f32(2.0, 8.0), rng.range_f32(2.0, 8.0)),
            )
        })
        .collect();
    let movers: Vec<Aabb> = (0..20_000)
        .map(|_| {
            let p = Vec2::new(rng.range_f32(0.0, field), rng.range_f32(0.0, field));
            let b = Aabb::from_min_size(p, Vec2::splat(rng.range_f32(1.0, 3.0)));
            let d = Vec2::new(rng.range_f32(-6.0, 6.0), rng.range_f32(-6.0, 6.0));
            Aabb::from_coords(
                b.min.x.min(b.min.x + d.x),
                b.min.y.min(b.min.y + d.y),
                b.max.x.max(b.max.x + d.x),
                b.max.y.max(b.max.y + d.y),
            )
        })
        .collect();
    let mut grid = StaticGrid::new();
    grid.build(BoxSet::from(&statics)).unwrap();
    let cells = grid.cells.dims[0] as usize * grid.cells.dims[1] as usize;
    assert!(
        cells <= 4 * statics.len() + 64 && cells >= 1000,
        "{cells} cells"
    );
    check(
        &grid,
        BoxSet::from(&movers),
        BoxSet::from(&statics),
        "bench-like",
    );
}

/// The sifting bits never leave out a mover that meets a static box, and they do sift:
/// small movers well inside open space are left out before any cell is read.
#[test]
fn sifting_keeps_every_meeting_mover_and_leaves_out_open_space() {
    let mut rng = Rng::new(0x51f7);
    // Statics on the dark squares of a board of 100-unit squares; the light ones open.
    let dark = |p: Vec2| ((p.x / 100.0) as i32 + (p.y / 100.0) as i32) % 2 == 0;
    let mut statics = Vec::new();
    while statics.len() < 3000 {
        let p = Vec2::new(rng.range_f32(0.0, 1000.0), rng.range_f32(0.0, 1000.0));
        let b = Aabb::from_min_size(
            p,
            Vec2::new(rng.range_f32(1.0, 6.0), rng.range_f32(1.0, 6.0)),
        );
        if dark(b.min)
            && dark(b.max)
            && dark(Vec2::new(b.min.x, b.max.y))
            && dark(Vec2::new(b.max.x, b.min.y))
        {
            statics.push(b);
        }
    }
    let mut grid = StaticGrid::new();
    grid.build(BoxSet::from(&statics)).unwrap();
    let (mut open, mut left_out) = (0, 0);
    for _ in 0..6000 {
        let p = Vec2::new(rng.range_f32(0.0, 1000.0), rng.range_f32(0.0, 1000.0));
        let m = Aabb::from_min_size(p, Vec2::splat(rng.range_f32(0.0, 4.0)));
        let b = [m.min.x, m.min.y, m.max.x, m.max.y];
        if statics.iter().any(|s| s.overlaps(&m)) {
            assert!(!grid.sifted_out(&b), "{m:?} meets a static box");
        }
        // Thirty units inside a light square: farther than two fine cells from its edge.
        let inner = |v: f32| (30.0..66.0).contains(&(v % 100.0));
        if !dark(p) && inner(p.x) && inner(p.y) {
            open += 1;
            left_out += usize::from(grid.sifted_out(&b));
        }
    }
    assert!(open > 300, "{open} movers in open space");
    assert_eq!(left_out, open, "movers well inside open space left out");
}

#[test]
fn degenerate_scenes_work() {
    let huge = Aabb::from_coords(-1e37, -1e37, 1e37, 1e37);
    let point = Aabb::from_coords(3.0, 3.0, 3.0, 3.0);
    let widest = Aabb::from_coords(f32::MIN, f32::MIN, f32::MAX, f32::MAX); // extent overflows
    let mut rng = Rng::new(3);
    let small = scene(&mut rng, 500, 0);
    let cases: Vec<(&str, Vec<Aabb>, Vec<Aabb>)> = vec![
        ("empty statics", vec![], small.clone()),
        ("empty movers", small.clone(), vec![]),
        ("one huge static", vec![huge], small.clone()),
        ("one huge mover", small.clone(), vec![huge]),
        (
            "all at one point",
            vec![point; 300],
            vec![point, huge, small[0]],
        ),
        (
            "zero-size",
            vec![point, Aabb::from_coords(3.0, 0.0, 3.0, 9.0)],
            vec![point; 4],
        ),
        (
            "±1e37",
            vec![huge, Aabb::from_min_size(Vec2::splat(1e37), Vec2::ZERO)],
            vec![huge],
        ),
        ("widest", vec![widest, point], vec![widest, point, huge]),
        ("widest movers", small.clone(), vec![widest; 3]),
    ];
    let mut grid = StaticGrid::new();
    for (what, statics, movers) in &cases {
        grid.build(BoxSet::from(statics)).unwrap();
        assert_eq!(grid.is_empty(), statics.is_empty(), "{what}");
        check(&grid, BoxSet::from(movers), BoxSet::from(statics), what);
    }
    // A fresh grid finds nothing and reports nothing.
    let mut out = vec![Pair::new(1, 1)];
    StaticGrid::new()
        .query(BoxSet::from(&small), false, &mut out)
        .unwrap();
    assert!(out.is_empty());
}

#[test]
fn huge_boxes_among_small_ones_keep_the_copies_linear() {
    let mut rng = Rng::new(9);
    let mut statics = scene(&mut rng, 4000, 0);
    for b in statics.iter_mut().step_by(2) {
        *b = Aabb::from_coords(-10.0, -10.0, 500.0, 500.0);
    }
    let mut grid = StaticGrid::new();
    grid.build(BoxSet::from(&statics)).unwrap();
    let n = statics.len();
    assert!(grid.copies() as u64 <= COPIES_PER_BOX * n as u64 + 64);
    let movers = scene(&mut rng, 300, 0);
    check(
        &grid,
        BoxSet::from(&movers),
        BoxSet::from(&statics),
        "half huge",
    );
}

#[test]
fn overflowing_cells_keep_their_copies_bounds_beside_them() {
    // Piles of boxes on a few spots: many cells hold more than `SLOTS` copies.
    let mut rng = Rng::new(23);
    let spots: Vec<(f32, f32)> = (0..12)
        .map(|_| (rng.range_f32(0.0, 400.0), rng.range_f32(0.0, 400.0)))
        .collect();
    let mut statics = scene(&mut rng, 1500, 0);
    for (k, b) in statics.iter_mut().enumerate().skip(1).step_by(2) {
        let (x, y) = spots[k % spots.len()];
        let (dx, dy) = (rng.range_f32(-3.0, 3.0), rng.range_f32(-3.0, 3.0));
        *b = Aabb::from_coords(x + dx, y + dy, x + dx + 2.0, y + dy + 2.0);
    }
    let mut grid = StaticGrid::new();
    grid.build(BoxSet::from(&statics)).unwrap();
    assert!(
        grid.over.len() > 100,
        "{} overflowing copies",
        grid.over.len()
    );
    assert_eq!(grid.over_boxes.len(), grid.over.len());
    for (&j, b) in grid.over.iter().zip(&grid.over_boxes) {
        assert_eq!(*b, grid.boxes[j as usize]);
    }
    let movers = scene(&mut rng, 700, 0);
    check(
        &grid,
        BoxSet::from(&movers),
        BoxSet::from(&statics),
        "piles",
    );
    // Rebuilt over other boxes: the bounds follow.
    grid.build(BoxSet::from(&movers)).unwrap();
    assert_eq!(grid.over_boxes.len(), grid.over.len());
    check(
        &grid,
        BoxSet::from(&statics),
        BoxSet::from(&movers),
        "rebuilt",
    );
}

#[test]
fn far_boxes_keep_the_cells_on_the_bulk() {
    let mut rng = Rng::new(11);
    let mut statics = scene(&mut rng, 4000, 0);
    let mut grid = StaticGrid::new();
    grid.build(BoxSet::from(&statics)).unwrap();
    let clean = grid.cells;
    for b in statics.iter_mut().step_by(200) {
        *b = Aabb::from_min_size(Vec2::new(1e30, -1e30), Vec2::ONE);
    }
    grid.build(BoxSet::from(&statics)).unwrap();
    let g = grid.cells;
    assert!(g.hi[0] >= 1e30 && g.lo[1] <= -1e30, "{g:?}");
    for axis in 0..2 {
        let r = g.inv[axis] / clean.inv[axis];
        assert!((0.5..2.0).contains(&r), "{g:?} against {clean:?}");
    }
    let movers = scene(&mut rng, 500, 3);
    check(
        &grid,
        BoxSet::from(&movers),
        BoxSet::from(&statics),
        "far boxes",
    );
}

#[test]
fn invalid_boxes_name_the_lowest_index() {
    let mut rng = Rng::new(21);
    let statics = scene(&mut rng, 200, 0);
    let movers = scene(&mut rng, 5000, 0);
    let mut grid = StaticGrid::new();
    grid.build(BoxSet::from(&statics)).unwrap();
    let mut before = Vec::new();
    grid.query(BoxSet::from(&movers), false, &mut before)
        .unwrap();
    assert!(!before.is_empty());
    let nan = Aabb::from_coords(f32::NAN, 0.0, 1.0, 1.0);
    let inf = Aabb::from_coords(0.0, 0.0, f32::INFINITY, 1.0);
    let inverted = Aabb::from_coords(0.0, 2.0, 1.0, 1.0);

    // Statics: the lowest bad index; the grid is left as it was.
    let mut bad = scene(&mut rng, 300, 0);
    bad[250] = nan;
    bad[40] = inverted;
    bad[120] = nan;
    let snapshot = (
        grid.cells,
        grid.slots.clone(),
        grid.over.clone(),
        grid.len(),
    );
    assert_eq!(
        grid.build(BoxSet::from(&bad)),
        Err(Error::InvalidBox {
            index: 40,
            defect: BoxDefect::Inverted { axis: 1 }
        })
    );
    assert_eq!(
        snapshot,
        (
            grid.cells,
            grid.slots.clone(),
            grid.over.clone(),
            grid.len()
        )
    );
    let mut after = Vec::new();
    grid.query(BoxSet::from(&movers), false, &mut after)
        .unwrap();
    assert_eq!(after, before);

    // Movers: the lowest bad index at every chunk count; `out` left empty.
    let mut bad = movers.clone();
    bad[4000] = nan;
    bad[1700] = inf;
    bad[3000] = nan;
    for chunks in CHUNKS {
        let mut out = before.clone();
        assert_eq!(
            grid.query_chunked(BoxSet::from(&bad), chunks, &mut out),
            Err(Error::InvalidBox {
                index: 1700,
                defect: BoxDefect::Infinite
            }),
            "{chunks} chunks"
        );
        assert!(out.is_empty());
    }
    // Still usable.
    grid.query(BoxSet::from(&movers), true, &mut after).unwrap();
    assert_eq!(after, before);
}

#[test]
fn rebuilding_gives_the_new_answer() {
    let mut rng = Rng::new(31);
    let movers = scene(&mut rng, 800, 0);
    let mut grid = StaticGrid::new();
    for k in 0..6 {
        let statics = scene(&mut rng, [500, 20, 0, 3000, 1, 700][k], k as u32 % 4);
        grid.build(BoxSet::from(&statics)).unwrap();
        check(
            &grid,
            BoxSet::from(&movers),
            BoxSet::from(&statics),
            &format!("build {k}"),
        );
        // A clone answers the same.
        let clone = grid.clone();
        check(
            &clone,
            BoxSet::from(&movers),
            BoxSet::from(&statics),
            &format!("clone {k}"),
        );
    }
}

#[test]
fn columns_and_store_read_the_same() {
    let mut rng = Rng::new(41);
    let statics = scene(&mut rng, 900, 1);
    let movers = scene(&mut rng, 900, 1);
    let cols = |b: &[Aabb]| -> [Vec<f32>; 4] {
        [
            b.iter().map(|b| b.min.x).collect(),
            b.iter().map(|b| b.min.y).collect(),
            b.iter().map(|b| b.max.x).collect(),
            b.iter().map(|b| b.max.y).collect(),
        ]
    };
    let (cs, cm) = (cols(&statics), cols(&movers));
    let s = BoxSet::from_columns(&cs[0], &cs[1], &cs[2], &cs[3]).unwrap();
    let m = BoxSet::from_columns(&cm[0], &cm[1], &cm[2], &cm[3]).unwrap();
    let mut store = crate::store::BoxStore::new();
    store
        .insert_many(&statics, crate::store::BoxProps::default())
        .unwrap();
    let mut grid = StaticGrid::new();
    grid.build(s).unwrap();
    check(&grid, m, s, "columns");
    grid.build(BoxSet::from(&store)).unwrap();
    check(
        &grid,
        BoxSet::from(&movers),
        BoxSet::from(&statics),
        "store",
    );
}

#[test]
fn agrees_with_the_bipartite_broad_phase() {
    let mut rng = Rng::new(51);
    let statics = scene(&mut rng, 3000, 0);
    let movers = scene(&mut rng, 3000, 0);
    let mut grid = StaticGrid::new();
    grid.build(BoxSet::from(&statics)).unwrap();
    let mut got = Vec::new();
    grid.query(BoxSet::from(&movers), false, &mut got).unwrap();
    let mut want = BroadPhase::new()
        .find_pairs_bipartite(&movers, &statics)
        .unwrap()
        .to_vec();
    want.sort_unstable();
    assert_eq!(got, want);
}
