//! Every crash the fuzz targets found, minimised, as a regression test.
//!
//! Each finding has two tests: the public-API reproduction (always compiled), and the
//! minimised fuzz input fed to the same check function the fuzz target calls (needs
//! `--features fuzzing`; `.ci/fuzz` runs them). The inputs are also in the committed
//! corpus (`fuzz/corpus/<target>/regression-*`), so the library's own tests replay them
//! too.

use glam::Vec2;
use hantei::tilemap::{BulletResponse, TileMap};
use hantei::{Aabb, BoxDefect, BroadPhase, Error};

/// broad_pairs, finding 1: bipartite grid path, the *second* set is the small one and
/// holds an invalid box.
///
/// ```text
///   first (16 boxes, valid)      second (1 box)
///   ┌──┐ ×16 at (0,0)-(1,1)      [NaN, 0, 1, 1]   ← grid build stops here
/// ```
/// `Probe::build` returned early on the NaN and left the grid unbuilt (dims 0, no cell
/// lists), but `run_grid` still streams the large set past it, to report a lower index
/// in the large set first. Debug builds overflowed in `to_index(x, 0)`
/// (`count - 1`), release builds indexed an empty `cell_start`. Fixed by leaving an
/// empty grid (bounds `+∞..-∞`, one empty cell) when the build fails.
#[test]
fn bipartite_grid_with_an_invalid_box_in_the_small_second_set() {
    let first = vec![Aabb::from_coords(0.0, 0.0, 1.0, 1.0); 16];
    let second = [Aabb::from_coords(f32::NAN, 0.0, 1.0, 1.0)];
    let mut broad = BroadPhase::new();
    // Once on a fresh broad phase, once after a successful grid call (stale grid).
    for _ in 0..2 {
        assert_eq!(
            broad.find_pairs_bipartite(&first[..], &second[..]),
            Err(Error::InvalidBox {
                index: 16,
                defect: BoxDefect::NaN
            })
        );
        assert!(broad.pairs().is_empty());
        let valid = [Aabb::from_coords(0.5, 0.5, 0.5, 0.5)];
        assert_eq!(
            broad
                .find_pairs_bipartite(&first[..], &valid[..])
                .map(<[_]>::len),
            Ok(16)
        );
        assert!(broad.last_stats().grid);
    }
}

/// tilemap_cast, finding 2: `move_bullets` strayed from its documentation, which then
/// claimed "at most one ulp per face from `cast`". The open-space path is the plain
/// translation, which at a denormal step moves one face and not the other:
///
/// ```text
///   . . .      3×1 empty map, 1-unit tiles
///   body (0, 1.3e-44)-(0, 0.5000002), motion (0, 9e-44): a denormal step
/// ```
/// `cast` places faces exactly (the leading face `max.y` cannot move by `9e-44` at
/// `0.5`, so neither face moves); `move_bullets` in open space gives
/// `body.translated(motion)` bit for bit, as its documentation now states (the size is
/// not kept exactly on this path).
#[test]
fn move_bullets_in_open_space_is_the_plain_translation_even_at_a_denormal_step() {
    let map = TileMap::new(3, 1, Vec2::ONE, Vec2::ZERO).unwrap();
    let body = Aabb::from_coords(0.0, 1.3e-44, 0.0, 0.500_000_2);
    let motion = Vec2::new(0.0, 9e-44);
    let cast = map.cast(body, motion).unwrap();
    let mut bullets = [body];
    let mut hits = Vec::new();
    map.move_bullets(&mut bullets, &[motion], BulletResponse::Stop, &mut hits)
        .unwrap();
    assert!(hits.is_empty() && cast.hit.is_none());
    assert_eq!(
        cast.aabb, body,
        "the exact cast cannot move the leading face"
    );
    assert_eq!(bullets[0], body.translated(motion));
}

/// Far from the origin: at `x = 10⁶` the spacing is `0.0625`, so the translation's
/// `max.x + 0.04` lands `0.0625` further (farther than asked, as documented) while
/// `cast` keeps the bullet in place; `move_bullets` gives one of the two.
#[test]
fn move_bullets_in_open_space_far_from_the_origin() {
    let map = TileMap::new(4, 4, Vec2::splat(16.0), Vec2::splat(1.0e6)).unwrap();
    let body = Aabb::from_coords(1.0e6 + 20.0, 1.0e6 + 20.0, 1.0e6 + 22.0, 1.0e6 + 22.0);
    let motion = Vec2::new(0.04, 0.0);
    let cast = map.cast(body, motion).unwrap();
    let mut bullets = [body];
    let mut hits = Vec::new();
    map.move_bullets(&mut bullets, &[motion], BulletResponse::Stop, &mut hits)
        .unwrap();
    assert!(bullets[0] == cast.aabb || bullets[0] == body.translated(motion));
}

/// broad_pairs, finding 3 (a campaign after the second landing): bipartite, a handful
/// of small boxes against a slice, where one large box has finite coordinates but an
/// extent that overflows `f32` (`-1.7e38 ..= 3.4e38`).
///
/// ```text
///   large set (≥ 16× the small one, lanes of 8)  small set (≤ 4 boxes)
///   [ ok ok ok HUGE ok ok ok ok ] [ ok ... ]    the player
///             └ x1 - x0 = +∞: fails the lanes' quick validity test
/// ```
/// The lane loop gave up on the quick test's failure and the grid path took over, which
/// emits the same pairs in another order; the scalar loop validated exactly, accepted the
/// box and kept its own order. Pairs were equal as sets, but the order depended on the
/// SIMD level (the determinism contract). Fixed by sending such a group through the
/// exact per-box test inside the lane loop.
#[test]
fn tiny_bipartite_order_with_an_overflowing_extent_is_the_same_at_every_level() {
    use hantei::{BroadConfig, SimdLevel};
    let mut large: Vec<Aabb> = (0..64)
        .map(|i| Aabb::from_coords(i as f32, 0.0, i as f32 + 1.5, 1.0))
        .collect();
    large[3] = Aabb::from_coords(-1.7e38, -3.39e38, f32::MAX, f32::MAX);
    let small = [
        Aabb::from_coords(2.0, 0.5, 6.0, 0.5),
        Aabb::from_coords(10.0, -1.0, 10.0, 2.0),
    ];
    let mut orders = Vec::new();
    for &level in SimdLevel::available() {
        let mut broad = BroadPhase::with_config(BroadConfig {
            simd: level,
            parallel: false,
            ..BroadConfig::default()
        });
        let pairs = broad
            .find_pairs_bipartite(&large[..], &small[..])
            .unwrap()
            .to_vec();
        // The huge box (3) pairs with both small boxes (0 and 1 of the second set).
        assert!(pairs.iter().any(|p| (p.a, p.b) == (3, 0)), "{level:?}");
        assert!(pairs.iter().any(|p| (p.a, p.b) == (3, 1)), "{level:?}");
        orders.push((level, pairs));
    }
    for (level, pairs) in &orders[1..] {
        assert_eq!(pairs, &orders[0].1, "{level:?} against {:?}", orders[0].0);
    }
}

/// frame_step, CI's 30-second run: two rotated rectangles of zero size at one point,
/// in different filter groups, so the broad phase found them as (group of the later box,
/// group of the earlier one). The swept test of two shapes of one kind can answer with
/// either shape's axis where the faces tie, and the frame ran the pair in the order the
/// groups gave, the oracle lower dense index first: different normals. The frame now
/// runs every pair with the lower dense index first (kinds: `aabb < circle < obb2`
/// first, then dense index), so the contact is the same whichever way the groups fall.
///
/// ```text
///   dense 0: a box far away, filter P  (P's group is numbered first)
///   dense 1: a point rectangle at (-8, -8), turned 0.7 rad, filter Q
///   dense 2: a point rectangle at (-8, -8), turned pi/2, filter P, moving (2.5, -7.5)
///   broad phase pair: (2, 1); the contact must be sweep_shapes(1, 2)'s
/// ```
#[test]
fn a_tie_between_two_rotated_points_follows_the_dense_order() {
    use hantei::frame::{Frame, layers};
    use hantei::narrow::scalar::sweep_shapes;
    use hantei::{BoxProps, BoxStore, Obb2, Shape};
    let (p, q) = (layers::player_bullet(), layers::enemy());
    assert!(p.pairs_with(q));
    let mut store = BoxStore::new();
    let props = |filter, motion| BoxProps {
        filter,
        motion,
        ..BoxProps::default()
    };
    let far = Shape::Aabb(Aabb::from_coords(100.0, 100.0, 101.0, 101.0));
    let one = Shape::Obb2(Obb2::from_angle(Vec2::splat(-8.0), Vec2::ZERO, 0.7));
    let two = Shape::Obb2(Obb2::from_angle(Vec2::splat(-8.0), Vec2::ZERO, 1.570_796_4));
    let motion = Vec2::new(2.5, -7.5);
    store.insert_shape(far, props(p, Vec2::ZERO)).unwrap();
    let h1 = store.insert_shape(one, props(q, Vec2::ZERO)).unwrap();
    let h2 = store.insert_shape(two, props(p, motion)).unwrap();
    let want = sweep_shapes(&one, Vec2::ZERO, &two, motion);
    for level in hantei::SimdLevel::available() {
        let mut frame = Frame::with_config(hantei::frame::FrameConfig {
            simd: *level,
            ..Default::default()
        });
        let report = frame.step(&store).unwrap();
        assert_eq!(report.contacts.len(), 1, "{level:?}");
        let c = report.contacts[0];
        assert_eq!(c.boxes, (h1, h2), "{level:?}");
        assert_eq!((c.toi, c.normal), (want.t, want.normal), "{level:?}");
    }
}

/// frame_advance, CI's 30-second run: the check's slide oracle placed a box's trailing
/// face by `coord + size` when another box stopped it, while `Frame::advance` (rightly)
/// uses the tile map's size rule. The stop was at a subnormal `2.8e-45`, where
/// `2.8e-45 + 1` rounds to `1` and the box would shrink; the rule gives `1.0000001`.
/// The wall hit's contact point then differed by an ulp. The frame was right, the
/// oracle now follows the rule, and its tolerance for box stops is gone.
///
/// ```text
///   row 1   . . . . .[player]   moving (-128, -110), slides
///   row 0  #. . . . .           tile (0, 0) solid, 4 units
///   obstacle: a wall-layer box from x = -7.5 to 2.8e-45, y = 0.625 to 8.125
/// ```
#[test]
fn a_box_stopped_at_a_subnormal_face_keeps_its_size() {
    use glam::IVec2;
    use hantei::frame::{Frame, Level, layers};
    use hantei::{BoxProps, BoxStore, Response};
    let map = TileMap::from_ascii(
        "
        #.......
        ........",
        Vec2::splat(4.0),
        Vec2::ZERO,
    )
    .unwrap();
    let face = f32::from_bits(2);
    let mut store = BoxStore::new();
    let player = store
        .insert_with(
            Aabb::from_coords(20.0, 4.0, 21.0, 5.0),
            BoxProps::new(layers::player())
                .with_motion(Vec2::new(-128.0, -110.0))
                .with_response(Response::Slide),
        )
        .unwrap();
    store
        .insert_with(
            Aabb::from_coords(-7.5, 0.625, face, 8.125),
            BoxProps::new(layers::wall()),
        )
        .unwrap();
    let mut frame = Frame::new();
    frame.advance(&mut store, &Level::walls(&map)).unwrap();
    // The leading face stops on the obstacle's; the trailing face follows by the
    // size rule and rounds outward, so the box is never smaller than it was.
    let end = Aabb::from_coords(face, 4.0, 1.0f32.next_up(), 5.0);
    assert_eq!(store.get(player).unwrap(), end);
    // Then the y move meets the top of tile (0, 0) at once. The contact point lies on
    // the box where it stopped: the middle of its bottom face.
    let w = frame.report().wall_hits;
    assert_eq!(w.len(), 1);
    assert_eq!(
        (w[0].tile, w[0].toi, w[0].normal),
        (IVec2::ZERO, 0.0, Vec2::Y)
    );
    assert_eq!(w[0].point.a, Vec2::new((face + end.max.x) / 2.0, 4.0));
}

/// The minimised fuzz inputs, through the checks the fuzz targets call.
#[cfg(feature = "fuzzing")]
mod checks {
    use hantei::check;

    /// The tie between two rotated points (see above), the input as CI's fuzzer found it.
    #[test]
    fn frame_step_tied_rotated_points() {
        check::frame::frame_vs_oracle(include_bytes!(
            "../fuzz/corpus/frame_step/regression-ci-tied-rotated-points"
        ));
    }

    /// The box stopped at a subnormal face (see above), the input as CI's fuzzer found
    /// it.
    #[test]
    fn frame_advance_slide_stopped_at_a_subnormal_face() {
        check::advance::advance_vs_oracle(include_bytes!(
            "../fuzz/corpus/frame_advance/regression-ci-slide-stopped-at-a-subnormal-face"
        ));
    }

    /// Finding 1 (see above), as the broad_pairs input: bipartite, 16 + 1 boxes, the
    /// small set second with a NaN box.
    #[test]
    fn broad_pairs_grid_invalid_small_second() {
        let mut data = vec![0x03, 17, 0x10, 0, 0, 0x00, 8, 8, 0x05];
        data.extend([0xa0; 15]);
        data.extend([0xe0, 0x85, 0, 0, 0]);
        check::broad::broad_vs_brute(&data);
    }

    /// Finding 3 (see above), the campaign's input as found (389 bytes; it is also in
    /// the corpus as `regression-campaign-tiny-overflowing-extent`).
    #[test]
    fn broad_pairs_tiny_overflowing_extent_order() {
        let data = include_bytes!(
            "../fuzz/corpus/broad_pairs/regression-campaign-tiny-overflowing-extent"
        );
        check::broad::broad_vs_brute(data);
    }

    /// The overflowing cast (see above), the input as CI's fuzzer found it.
    #[test]
    fn tilemap_cast_overflowing_end() {
        check::tilemap::cast(include_bytes!(
            "../fuzz/corpus/tilemap_cast/regression-ci-overflowing-end"
        ));
    }

    /// Finding 2 (see above), as the tilemap_cast input: body
    /// `(0, 1.3e-44)-(0, 0.5000002)`, motion `(0, 9e-44)`.
    #[test]
    fn tilemap_cast_move_bullets_denormal_motion() {
        check::tilemap::cast(&[
            0x02, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x3f, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00,
            0x00, 0x00,
        ]);
    }

    /// tilemap_slide, finding 3: a point body at `3.4e38` moved by `3.4e38` saturated
    /// at `f32::MAX` on both faces, and the check's "the trailing face lags by less than
    /// one ulp" test stepped the trailing face one ulp further, to `+∞`: a false alarm
    /// then. Since the overflowing cast below, such a motion is `Error::OutOfRange`,
    /// which the check expects.
    #[test]
    fn tilemap_slide_saturating_motion_at_f32_max() {
        let mut data = vec![0x0c, 0x00];
        data.extend([0x7f; 28]);
        check::tilemap::move_and_slide(&data);
    }
}

/// tilemap_cast, CI's 30-second run: a body 3.3e38 tall at 8.1e34 moved by
/// (-3.316085e38, -3.3161121e38). Its bottom face would end at -6.6e38, beyond `f32`; it
/// saturated at `-f32::MAX` and the box kept its size, so the reported end sat 3.2e38
/// above the true one, and the straight path to it crossed a solid tile that the true
/// path misses by 6.6e29 (the cast had rightly found no hit). A motion that carries a
/// face beyond `±f32::MAX` is now `Error::OutOfRange`, for casts, slides and the
/// batches alike (the input is in the corpus as `regression-ci-overflowing-end`).
#[test]
fn a_motion_that_carries_a_face_beyond_f32_is_out_of_range() {
    let map = TileMap::from_cells(
        10,
        1,
        vec![1, 0, 0, 1, 1, 1, 1, 0, 1, 0],
        Vec2::ONE,
        Vec2::splat(1e6),
    )
    .unwrap();
    let body = Aabb::from_coords(8.095_910_5e34, -3.316_085e38, 8.095_977e34, 8.095_910_5e34);
    let motion = Vec2::new(-3.316_085e38, -3.316_112_1e38);
    let out = Error::OutOfRange {
        handle: None,
        index: 0,
        limit: f32::MAX,
    };
    assert_eq!(map.cast(body, motion), Err(out.clone()));
    assert_eq!(map.move_and_slide(body, motion).map(|_| ()), Err(out));
    // In a batch, the error names the body.
    let bodies = [Aabb::from_coords(0.0, 0.0, 1.0, 1.0), body];
    let motions = [Vec2::ZERO, motion];
    let mut out = Vec::new();
    assert_eq!(
        map.move_and_slide_all(&bodies, &motions, &Default::default(), &mut out),
        Err(Error::OutOfRange {
            handle: None,
            index: 1,
            limit: f32::MAX
        })
    );
    // Up to f32::MAX itself is fine: a face may land on it.
    let edge = Aabb::from_coords(3.0e38, 0.5, 3.0e38, 0.5);
    let r = map.cast(edge, Vec2::new(f32::MAX - 3.0e38, 0.0)).unwrap();
    assert_eq!(r.aabb.max.x, f32::MAX);
}

/// tilemap_cast, 10-minute campaign: a trailing face two hundred orders of magnitude
/// below its motion did not follow the leading face (the estimate in `follow` dropped
/// the rounding error of `lead1 - lead0`), so the box doubled in size.
#[test]
fn a_tiny_trailing_face_follows_a_huge_relative_step() {
    let map = TileMap::new(3, 3, Vec2::splat(1e30), Vec2::splat(-1.5e30)).unwrap();
    let body = Aabb::from_coords(
        -2.873_518_2e-16,
        -2.873_518_2e-16,
        -2.873_518_2e-16,
        2.19e-43,
    );
    let motion = Vec2::new(0.0, 2.873_518_2e-16);
    let r = map.cast(body, motion).unwrap();
    assert_eq!(r.aabb.max.y, 2.873_518_2e-16);
    assert_eq!(r.aabb.min.y, -2.19e-43, "the size is kept exactly");
    let s = map.move_and_slide(body, motion).unwrap();
    assert_eq!(s.aabb, r.aabb);
}

/// tilemap_slide, 10-minute campaign: a box from -3.4e38 to 3.6e-12 pushed by +3.4e38
/// kept its trailing face in place (same cause), and the check saw it lag.
#[test]
fn a_huge_box_pushed_by_a_huge_motion_keeps_its_size() {
    let map = TileMap::new(2, 2, Vec2::splat(1.0), Vec2::splat(-1.0)).unwrap();
    let body = Aabb::from_coords(-3.396_151_4e38, 0.0, 3.630_845_4e-12, 1.0);
    let r = map
        .move_and_slide(body, Vec2::new(3.396_151_4e38, 0.0))
        .unwrap();
    assert_eq!(r.aabb.max.x, 3.396_151_4e38);
    assert_eq!(r.aabb.min.x, -3.630_845_4e-12, "the size is kept exactly");
}

/// tilemap_cast, 10-minute campaign: with 0.1-unit tiles a million units from the
/// origin, tile edges (rounded to `f32`, spacing 0.0625) stray up to a third of a tile
/// from `origin + k · 0.1`; the open-space shortcut located cells with that formula and
/// missed the wall a segment was flush against. The shortcut now widens its search by
/// the edges' rounding slack.
///
/// ```text
///   # . # .     row 0 (y from 37.5)      the body: a vertical segment on the right
///   . . . .                              edge of tile (0, 0), moving left and down
///   # . # #
/// ```
#[test]
fn tiny_tiles_far_from_the_origin_do_not_fool_the_open_space_shortcut() {
    let cells = vec![1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 1];
    let map =
        TileMap::from_cells(4, 3, cells, Vec2::new(0.1, 7.3), Vec2::new(-1.0e6, 37.5)).unwrap();
    let body = Aabb::from_coords(-999_999.9, 37.5, -999_999.9, 38.412_5);
    let r = map.cast(body, Vec2::new(-0.012_5, -0.912_5)).unwrap();
    let hit = r.hit.expect("flush against the wall, moving into it");
    assert_eq!((hit.tile, r.toi), (glam::IVec2::new(0, 0), 0.0));
    assert_eq!(r.aabb, body);
}
