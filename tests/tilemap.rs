//! Tile map scenarios (issue 4, part 2; seed 003): each test sketches its scene.
//!
//! Unless stated, tiles are 16 × 16 with the origin at (0, 0), y points down (row 0 is
//! the top line of the sketch), `#` is solid, `.` empty, `B` marks where the body starts.

use glam::{IVec2, Vec2};
use hantei::tilemap::{
    AxisOrder, BulletResponse, Direction, SOLID, SlideOptions, TileEdge, TileHit, TileMap,
};
use hantei::{Aabb, AsciiDefect, BoxDefect, Error};

const T: f32 = 16.0;

/// A 16-unit map from a sketch (`B` is empty: it only marks the body).
fn map(art: &str) -> TileMap {
    TileMap::from_ascii(&art.replace('B', "."), Vec2::splat(T), Vec2::ZERO).unwrap()
}

fn slide(m: &TileMap, b: Aabb, motion: Vec2) -> hantei::tilemap::SlideResult {
    m.move_and_slide(b, motion).unwrap()
}

fn hit(edge: TileEdge, coord: f32, tile: (i32, i32)) -> TileHit {
    TileHit {
        edge,
        coord,
        tile: IVec2::new(tile.0, tile.1),
        kind: SOLID,
        embedded: false,
    }
}

// ----- the issue's scenarios -----------------------------------------------------------

/// ```text
///    ........   row 0
///    ...B....   row 1     a 12×14 body falls under gravity (v += 0.8 per frame)
///    ........   row 2
///    ........   row 3
///    ########   row 4     floor top at y = 64
/// ```
#[test]
fn landing_under_gravity() {
    let m = map("........\n...B....\n........\n........\n########");
    let mut b = Aabb::from_min_size(Vec2::new(50.0, 18.0), Vec2::new(12.0, 14.0));
    let mut vy = 0.0f32;
    let mut landed_at = None;
    for frame in 0..100 {
        vy += 0.8;
        let r = slide(&m, b, Vec2::new(0.0, vy));
        assert!(r.aabb.max.y <= 64.0, "frame {frame}: below the floor");
        assert_eq!((r.aabb.min.x, r.aabb.max.x), (50.0, 62.0));
        if let Some(h) = r.hit_y {
            // Flush on the floor's top edge, on the tile under the body's left part.
            assert_eq!(h, hit(TileEdge::MinY, 64.0, (3, 4)));
            assert_eq!(r.aabb.max.y, 64.0);
            assert_eq!(r.aabb.min.y, 50.0);
            assert!(r.grounded);
            landed_at.get_or_insert(frame);
            vy = 0.0;
        } else {
            assert!(landed_at.is_none(), "frame {frame}: left the floor");
            assert!(!r.grounded);
            assert_eq!(r.aabb.size(), Vec2::new(12.0, 14.0));
        }
        b = r.aabb;
    }
    assert!(landed_at.is_some_and(|f| f > 2 && f < 20), "{landed_at:?}");
}

/// ```text
///    ................................   rows 0-1
///    B...............................
///    ........................#.......   row 2: a one-tile block at column 24
///    ################################   row 3: floor top at y = 48, 31 seams
/// ```
/// Walking with gravity every frame: the body stays exactly on the floor, never snags
/// on a seam between floor tiles, and stops flush at the block.
#[test]
fn walking_along_the_floor() {
    let m = map("
        ................................
        B...............................
        ........................#.......
        ################################
        ");
    let mut b = Aabb::from_coords(3.0, 34.0, 13.0, 48.0);
    let mut stopped = false;
    for frame in 0..400 {
        let r = slide(&m, b, Vec2::new(1.7, 0.8));
        assert_eq!((r.aabb.min.y, r.aabb.max.y), (34.0, 48.0), "frame {frame}");
        assert!(r.grounded, "frame {frame}");
        assert_eq!(
            r.hit_y.map(|h| (h.edge, h.coord)),
            Some((TileEdge::MinY, 48.0))
        );
        match r.hit_x {
            None => {
                assert!(!stopped, "frame {frame}: moved again after the block");
                assert!(
                    (r.aabb.min.x - b.min.x - 1.7).abs() < 1e-4,
                    "frame {frame}: snagged"
                );
            }
            Some(h) => {
                assert_eq!(h, hit(TileEdge::MinX, 384.0, (24, 2)));
                assert_eq!(r.aabb.max.x, 384.0);
                stopped = true;
            }
        }
        assert_eq!(r.aabb.max.x - r.aabb.min.x, 10.0);
        b = r.aabb;
    }
    assert!(stopped);
}

/// ```text
///    ......#    a wall at column 6 (x = 96)
///    ...B..#    the body is pushed right while it falls
///    ......#
///    ......#
///    #######    floor top at y = 64
/// ```
#[test]
fn sliding_down_a_wall() {
    let m = map("......#\n...B..#\n......#\n......#\n#######");
    let mut b = Aabb::from_coords(80.0, 17.0, 88.0, 29.0);
    let mut vy = 0.0;
    let mut touching = false;
    let mut landed = false;
    for frame in 0..60 {
        vy += 0.5;
        let r = slide(&m, b, Vec2::new(3.0, vy));
        assert!(r.aabb.max.x <= 96.0);
        if let Some(h) = r.hit_x {
            assert_eq!((h.edge, h.coord, h.tile.x), (TileEdge::MinX, 96.0, 6));
            assert_eq!(r.aabb.max.x, 96.0);
            touching = true;
        } else {
            assert!(!touching, "frame {frame}: let go of the wall");
        }
        if r.hit_y.is_none() {
            // Sliding: the wall never slows the fall.
            assert!(!landed);
            assert!((r.aabb.min.y - b.min.y - vy).abs() < 1e-4);
        } else {
            assert_eq!(r.aabb.max.y, 64.0);
            assert!(r.grounded);
            landed = true;
            vy = 0.0;
        }
        b = r.aabb;
    }
    assert!(touching && landed);
    assert_eq!(b, Aabb::from_coords(88.0, 52.0, 96.0, 64.0));
}

/// ```text
///    ......#
///    ......#
///    .....B#    flush against the wall and standing on the floor
///    #######
/// ```
#[test]
fn jumping_while_touching_a_wall() {
    let m = map("......#\n......#\n......#\n#######");
    let b = Aabb::from_coords(86.0, 34.0, 96.0, 48.0);
    // Touching: the wall on the right, the floor below; nothing on the left or above.
    assert_eq!(
        m.contact(b, Direction::PosX).unwrap(),
        Some(hit(TileEdge::MinX, 96.0, (6, 2)))
    );
    assert_eq!(
        m.contact(b, Direction::PosY).unwrap(),
        Some(hit(TileEdge::MinY, 48.0, (5, 3)))
    );
    assert_eq!(m.contact(b, Direction::NegX).unwrap(), None);
    assert_eq!(m.contact(b, Direction::NegY).unwrap(), None);
    for order in [AxisOrder::XThenY, AxisOrder::YThenX] {
        let opts = SlideOptions::default().with_order(order);
        // Jump while pushing into the wall: x is blocked, y is not slowed by the wall.
        let r = m
            .move_and_slide_with(b, Vec2::new(2.0, -20.0), &opts)
            .unwrap();
        assert_eq!(
            r.aabb,
            Aabb::from_coords(86.0, 14.0, 96.0, 28.0),
            "{order:?}"
        );
        assert_eq!(
            r.hit_x.map(|h| (h.edge, h.coord)),
            Some((TileEdge::MinX, 96.0))
        );
        assert_eq!(r.hit_y, None);
        assert!(!r.grounded);
        assert!(
            m.contact(r.aabb, Direction::PosX).unwrap().is_some(),
            "still on the wall"
        );
        // Jump away from the wall: free.
        let r = m
            .move_and_slide_with(b, Vec2::new(-2.0, -20.0), &opts)
            .unwrap();
        assert_eq!(r.aabb, Aabb::from_coords(84.0, 14.0, 94.0, 28.0));
        assert_eq!((r.hit_x, r.hit_y, r.grounded), (None, None, false));
    }
}

/// ```text
///      0 1 2 3
///    0 B . . .     the body is the 16×16 tile-sized box at (0, 0)
///    1 . . . .
///    2 . . # .     one solid tile, [32, 48]²; its corner (32, 32) is on the diagonal
///    3 . . . .
/// ```
#[test]
fn exact_diagonal_corner_hit() {
    let m = map("B...\n....\n..#.\n....");
    let b = Aabb::from_coords(0.0, 0.0, 16.0, 16.0);
    let xy = SlideOptions::default();
    let yx = SlideOptions::default().with_order(AxisOrder::YThenX);

    // Ending exactly on the corner: touching, not hitting, in every mode.
    let corner = Aabb::from_coords(16.0, 16.0, 32.0, 32.0);
    for o in [xy, yx] {
        let r = m.move_and_slide_with(b, Vec2::splat(16.0), &o).unwrap();
        assert_eq!(
            (r.aabb, r.hit_x, r.hit_y, r.grounded),
            (corner, None, None, false)
        );
    }
    let c = m.cast(b, Vec2::splat(16.0)).unwrap();
    assert_eq!((c.aabb, c.hit, c.toi), (corner, None, 1.0));

    // Through the corner: per-axis resolution lands the second axis on the tile.
    let r = m.move_and_slide_with(b, Vec2::splat(24.0), &xy).unwrap();
    assert_eq!(r.aabb, Aabb::from_coords(24.0, 16.0, 40.0, 32.0));
    assert_eq!(
        (r.hit_x, r.hit_y),
        (None, Some(hit(TileEdge::MinY, 32.0, (2, 2))))
    );
    assert!(r.grounded);
    let r = m.move_and_slide_with(b, Vec2::splat(24.0), &yx).unwrap();
    assert_eq!(r.aabb, Aabb::from_coords(16.0, 24.0, 32.0, 40.0));
    assert_eq!(
        (r.hit_x, r.hit_y),
        (Some(hit(TileEdge::MinX, 32.0, (2, 2))), None)
    );
    assert!(!r.grounded);

    // A straight cast enters the tile through its corner: stopped flush on both axes,
    // reported on the x edge.
    let c = m.cast(b, Vec2::splat(24.0)).unwrap();
    assert_eq!(c.aabb, corner);
    assert_eq!(c.hit, Some(hit(TileEdge::MinX, 32.0, (2, 2))));
    assert!((c.toi - 2.0 / 3.0).abs() < 1e-6);

    // A hair off the diagonal, the box still enters the tile, just past its corner
    // (through the top edge; x is then past 32 by less than its f32 step, so it rounds
    // back to 32); a box one unit shorter passes above it untouched.
    let c = m.cast(b, Vec2::new(40.0, 40.0f32.next_down())).unwrap();
    assert_eq!(
        c.hit.map(|h| (h.edge, h.coord)),
        Some((TileEdge::MinY, 32.0))
    );
    assert_eq!(c.aabb.max.y, 32.0);
    assert!(c.aabb.max.x >= 32.0 && c.aabb.max.x < 32.001);
    let c = m
        .cast(
            Aabb::from_coords(0.0, 0.0, 16.0, 15.0),
            Vec2::new(48.0, 16.0),
        )
        .unwrap();
    assert_eq!(
        (c.hit, c.aabb),
        (None, Aabb::from_coords(48.0, 16.0, 64.0, 31.0))
    );
}

/// ```text
///    column: 0         100   110        129
///            B......... ... .#. ........     a one-tile wall 110 tiles away
/// ```
/// One frame of 150 tiles stops flush at the wall; without it, the body goes the whole
/// way; no speed tunnels through a one-tile wall.
#[test]
fn hundred_tile_motion_in_one_frame() {
    let mut row = vec![b'.'; 130];
    row[110] = b'#';
    let row = String::from_utf8(row).unwrap();
    let walled = map(&format!("{row}\n{row}"));
    let open = map(&format!("{}\n{}", ".".repeat(130), ".".repeat(130)));
    let b = Aabb::from_coords(2.0, 20.0, 10.0, 28.0);
    let far = Vec2::new(150.0 * T, 0.0);

    let r = slide(&walled, b, far);
    assert_eq!(r.aabb, Aabb::from_coords(1752.0, 20.0, 1760.0, 28.0));
    assert_eq!(r.hit_x, Some(hit(TileEdge::MinX, 1760.0, (110, 1))));
    let r = slide(&open, b, far);
    assert_eq!((r.aabb, r.hit_x), (b.translated(far), None));

    // Any speed, including absurd ones.
    for speed in [111.0, 1000.0, 1.0e6, 1.0e30] {
        let r = slide(&walled, b, Vec2::new(speed * T, 0.0));
        assert_eq!(r.aabb.max.x, 1760.0, "speed {speed}");
        let c = walled.cast(b, Vec2::new(speed * T, 0.5)).unwrap();
        assert_eq!(c.aabb.max.x, 1760.0, "cast at speed {speed}");
    }
    // A bullet thinner than anything, fast, along the row: stopped too.
    let c = walled
        .cast(Aabb::from_coords(0.0, 5.0, 0.0, 5.0), far)
        .unwrap();
    assert_eq!(
        (c.aabb.max.x, c.hit.map(|h| h.tile)),
        (1760.0, Some(IVec2::new(110, 0)))
    );

    // Vertically: a 1-tile floor 100 rows down.
    let mut art = vec!["..."; 101];
    art[100] = "###";
    let deep = map(&art.join("\n"));
    let r = slide(
        &deep,
        Aabb::from_coords(17.0, 1.0, 30.0, 9.0),
        Vec2::new(0.0, 5000.0),
    );
    assert_eq!(
        (r.aabb.max.y, r.hit_y.map(|h| h.tile)),
        (1600.0, Some(IVec2::new(1, 100)))
    );
}

/// The same scenes with the map's origin near ±10⁶, where f32 steps are 1/16: a body
/// lands exactly on the floor, keeps its size exactly, walks along it, stops flush at a
/// wall, and a sub-step motion moves nothing instead of rounding past its target.
///
/// ```text
///    ..........#
///    ...B......#
///    ..........#
///    ###########
/// ```
#[test]
fn bodies_near_a_million() {
    for origin in [
        Vec2::splat(1.0e6),
        Vec2::new(-1.0e6, 1.0e6),
        Vec2::splat(-1.0e6),
    ] {
        let m = TileMap::from_ascii(
            "..........#\n..........#\n..........#\n###########",
            Vec2::splat(T),
            origin,
        )
        .unwrap();
        let floor = origin.y + 48.0;
        let wall = origin.x + 160.0;
        let size = Vec2::new(10.0625, 13.5);
        let mut b = Aabb::from_min_size(origin + Vec2::new(50.0, 17.0), size);
        let mut vy = 0.0f32;
        for frame in 0..300 {
            vy += 0.3;
            let r = slide(&m, b, Vec2::new(0.7, vy));
            assert!(
                r.aabb.max.y <= floor && r.aabb.max.x <= wall,
                "{origin} frame {frame}"
            );
            assert_eq!(r.aabb.size(), size, "{origin} frame {frame}");
            if r.hit_y.is_some() {
                assert_eq!(r.aabb.max.y, floor);
                assert!(r.grounded);
                vy = 0.0;
            }
            if let Some(h) = r.hit_x {
                assert_eq!((h.coord, r.aabb.max.x), (wall, wall));
            }
            b = r.aabb;
        }
        assert_eq!((b.max.x, b.max.y), (wall, floor), "{origin}");
        // 0.04 is less than a step here, yet rounds to a whole step to nearest: it must
        // not move (never farther than asked), however often it is asked.
        for _ in 0..100 {
            let r = slide(&m, b, Vec2::new(-0.04, -0.04));
            assert_eq!(r.aabb, b);
        }
        // 0.1 moves one step (0.0625), never two (0.125, its nearest).
        let r = slide(&m, b, Vec2::new(-0.1, -0.1));
        assert_eq!(r.aabb, b.translated(Vec2::splat(-0.0625)));
    }
}

// ----- conventions ------------------------------------------------------------------

/// ```text
///    ....      row 0
///    .B..      row 1
///    ....      row 2
/// ```
/// Outside the map is empty by default (bodies leave freely) or solid when walled in,
/// with hits reported on the ring of cells just outside (-1 or width/height).
#[test]
fn outside_cells_are_configurable() {
    let open = map("....\n.B..\n....");
    let walled = open.clone().with_outside(7);
    let b = Aabb::from_coords(20.0, 20.0, 28.0, 28.0);
    let r = slide(&open, b, Vec2::new(-100.0, 100.0));
    assert_eq!(
        (r.aabb, r.hit_x, r.hit_y),
        (b.translated(Vec2::new(-100.0, 100.0)), None, None)
    );
    let r = slide(&walled, b, Vec2::new(-100.0, 100.0));
    assert_eq!(r.aabb, Aabb::from_coords(0.0, 40.0, 8.0, 48.0));
    let hx = r.hit_x.unwrap();
    assert_eq!(
        (hx.edge, hx.coord, hx.tile, hx.kind),
        (TileEdge::MaxX, 0.0, IVec2::new(-1, 1), 7)
    );
    let hy = r.hit_y.unwrap();
    assert_eq!(
        (hy.edge, hy.coord, hy.tile),
        (TileEdge::MinY, 48.0, IVec2::new(0, 3))
    );
    assert!(r.grounded);
    assert_eq!(walled.get(IVec2::new(-5, 99)), 7);
    assert!(!open.is_solid(IVec2::new(-5, 99)));
    // A body entirely outside a walled map is embedded: it cannot move at all.
    let out = Aabb::from_coords(-50.0, 0.0, -40.0, 10.0);
    let r = slide(&walled, out, Vec2::new(30.0, 5.0));
    assert_eq!(r.aabb, out);
    assert!(r.hit_x.unwrap().embedded && r.hit_y.unwrap().embedded);
}

/// ```text
///    ..##..      a body overlapping the block from the left (x in [28, 36])
///    ..##..
///    ######      and another sunk 4 units into the floor
/// ```
/// A body that starts inside may move out, never further in.
#[test]
fn bodies_that_start_inside() {
    let m = map("..##..\n..##..\n######");
    let b = Aabb::from_coords(28.0, 4.0, 36.0, 12.0);
    // Further in: no motion, reported as embedded, at the face's own coordinate.
    let r = slide(&m, b, Vec2::new(5.0, 0.0));
    assert_eq!(r.aabb, b);
    let h = r.hit_x.unwrap();
    assert_eq!(
        (h.edge, h.coord, h.tile, h.embedded),
        (TileEdge::MinX, 36.0, IVec2::new(2, 0), true)
    );
    // Out: free, and it can then come back only to the block's edge.
    let r = slide(&m, b, Vec2::new(-5.0, 0.0));
    assert_eq!(
        (r.aabb, r.hit_x),
        (b.translated(Vec2::new(-5.0, 0.0)), None)
    );
    let r = slide(&m, r.aabb, Vec2::new(50.0, 0.0));
    assert_eq!(r.aabb.max.x, 32.0);
    assert!(!r.hit_x.unwrap().embedded);

    // Sunk into the floor: grounded (embedded), can jump out, cannot walk along.
    let sunk = Aabb::from_coords(2.0, 26.0, 12.0, 36.0);
    let r = slide(&m, sunk, Vec2::new(0.0, 1.0));
    assert!(r.grounded && r.hit_y.unwrap().embedded && r.aabb == sunk);
    let r = slide(&m, sunk, Vec2::new(0.0, -10.0));
    assert_eq!(
        (r.aabb, r.hit_y),
        (sunk.translated(Vec2::new(0.0, -10.0)), None)
    );
    assert!(!r.grounded);
    let r = slide(&m, sunk, Vec2::new(3.0, 0.0));
    assert_eq!(r.aabb, sunk);
    assert!(r.hit_x.unwrap().embedded);
}

/// ```text
///    .#..     column 1: a wall; the seam x = 32 lies between column 1 and 2
///    .#..
///    ####     row 2: floor, top at y = 32
/// ```
/// Zero-size bodies collide with the interior of the solid region: a point on a wall's
/// face slides along it; a point on the seam between two solid tiles is blocked.
#[test]
fn zero_size_bodies() {
    let m = map(".#..\n.#..\n####");
    let point = |x: f32, y: f32| Aabb::from_coords(x, y, x, y);
    // A point falling onto the floor lands on it.
    let r = slide(&m, point(40.0, 5.0), Vec2::new(0.0, 100.0));
    assert_eq!((r.aabb, r.grounded), (point(40.0, 32.0), true));
    // A point on the wall's right face (x = 32) slides down it, then lands.
    let r = slide(&m, point(32.0, 1.0), Vec2::new(0.0, 100.0));
    assert_eq!(r.aabb, point(32.0, 32.0));
    assert_eq!(r.hit_y.unwrap().coord, 32.0);
    // On the floor's seam at x = 16 (columns 0 and 1 both solid in row 2): blocked at
    // the floor's top like anywhere else; at x = 16 in rows 0-1 column 0 is empty, so
    // a point there slides down the wall's left face.
    let r = slide(&m, point(16.0, 0.0), Vec2::new(0.0, 50.0));
    assert_eq!(r.aabb, point(16.0, 32.0));
    // A zero-width, tall body (a vertical segment) and zero motion.
    let seg = Aabb::from_coords(48.0, 2.0, 48.0, 30.0);
    let r = slide(&m, seg, Vec2::ZERO);
    assert_eq!(
        (r.aabb, r.hit_x, r.hit_y, r.grounded),
        (seg, None, None, false)
    );
    let r = slide(&m, seg, Vec2::new(-40.0, 10.0));
    assert_eq!(r.aabb, Aabb::from_coords(32.0, 4.0, 32.0, 32.0));
    assert_eq!(r.hit_x.unwrap().tile, IVec2::new(1, 0));
    assert!(r.grounded);
}

/// ```text
///    ..........
///    .BBBB.....    a body 2.5 tiles wide above a floor with a one-tile hole
///    ..........
///    ###.######
/// ```
/// Bodies larger than a tile: they do not fall through holes narrower than themselves,
/// and tiles in the middle of their span block them like any other.
#[test]
fn bodies_larger_than_a_tile() {
    let m = map("..........\n..........\n..........\n###.######");
    let b = Aabb::from_coords(20.0, 10.0, 60.0, 30.0);
    let r = slide(&m, b, Vec2::new(0.0, 100.0));
    assert_eq!((r.aabb.max.y, r.grounded), (48.0, true));
    // Walk over the hole without dropping into it.
    let mut b = r.aabb;
    for _ in 0..10 {
        let r = slide(&m, b, Vec2::new(3.0, 2.0));
        assert_eq!(r.aabb.max.y, 48.0);
        b = r.aabb;
    }
    // A narrow body does fall into it.
    let narrow = Aabb::from_coords(50.0, 30.0, 62.0, 40.0);
    let r = slide(&m, narrow, Vec2::new(0.0, 100.0));
    assert_eq!(r.aabb.max.y, 140.0);
    assert_eq!(r.hit_y, None);
}

/// A y-up world: the map's picture reads with its last line as row 0, and "down" is -y.
///
/// ```text
///    ....     row 2 (top)
///    .B..     row 1
///    ####     row 0: floor, top at y = 16
/// ```
#[test]
fn y_up_world() {
    let m = TileMap::from_ascii_y_up("....\n....\n####", Vec2::splat(T), Vec2::ZERO).unwrap();
    assert!(m.is_solid(IVec2::new(0, 0)) && !m.is_solid(IVec2::new(0, 2)));
    let opts = SlideOptions::y_up();
    let b = Aabb::from_coords(20.0, 20.0, 28.0, 30.0);
    let r = m
        .move_and_slide_with(b, Vec2::new(0.0, -50.0), &opts)
        .unwrap();
    assert_eq!(r.aabb.min.y, 16.0);
    assert_eq!(r.hit_y.map(|h| h.edge), Some(TileEdge::MaxY));
    assert!(r.grounded);
    // With y-down options the same contact is a ceiling, not ground.
    let r = m.move_and_slide(b, Vec2::new(0.0, -50.0)).unwrap();
    assert!(!r.grounded);
}

// ----- construction and bad input ------------------------------------------------------

#[test]
fn constructors_reject_bad_maps() {
    let shape = |e: Result<TileMap, Error>| match e {
        Err(Error::InvalidShape { index: 0, reason }) => reason,
        other => panic!("expected InvalidShape, got {other:?}"),
    };
    let ok = Vec2::splat(T);
    let ascii = |art: &str| match TileMap::from_ascii(art, ok, Vec2::ZERO) {
        Err(Error::InvalidAscii(defect)) => defect,
        other => panic!("expected InvalidAscii, got {other:?}"),
    };
    assert_eq!(
        ascii("##.\n#."),
        AsciiDefect::Ragged {
            line: 2,
            tiles: 2,
            first_line: 1,
            first_tiles: 3
        }
    );
    assert_eq!(
        ascii("#x#"),
        AsciiDefect::UnknownTile {
            line: 1,
            column: 2,
            found: 'x'
        }
    );
    assert_eq!(ascii("  \n \n"), AsciiDefect::NoRows);
    assert_eq!(ascii("##\n\n##"), AsciiDefect::BlankLine { line: 2 });
    assert_eq!(
        TileMap::from_cells(3, 2, vec![0; 5], ok, Vec2::ZERO),
        Err(Error::LengthMismatch {
            what: "tile map cells",
            expected: 6,
            found: 5
        })
    );
    for bad in [
        Vec2::ZERO,
        Vec2::new(1.0, -1.0),
        Vec2::new(f32::NAN, 1.0),
        Vec2::splat(f32::INFINITY),
    ] {
        assert!(shape(TileMap::new(2, 2, bad, Vec2::ZERO)).contains("tile size"));
    }
    assert!(shape(TileMap::new(2, 2, ok, Vec2::new(0.0, f32::NAN))).contains("origin"));
    let too_large = |width: u64, height: u64| Err(Error::MapTooLarge { width, height });
    let side = TileMap::MAX_SIDE;
    assert_eq!(
        TileMap::new(side + 1, 1, ok, Vec2::ZERO),
        too_large(1 << 24 | 1, 1)
    );
    assert_eq!(
        TileMap::new(1 << 16, 1 << 16, ok, Vec2::ZERO),
        too_large(1 << 16, 1 << 16)
    );
    // Tiles of 0.01 at 10⁷ (f32 step 1): edges collapse; a far edge past f32::MAX.
    assert!(shape(TileMap::new(4, 1, Vec2::splat(0.01), Vec2::splat(1.0e7))).contains("distinct"));
    assert!(shape(TileMap::new(4, 1, Vec2::splat(1.0e38), Vec2::ZERO)).contains("distinct"));
    // Digits are kinds; `set` changes one cell and refuses cells outside.
    let mut m = TileMap::from_ascii(
        "
        .3
        #0
        ",
        ok,
        Vec2::ZERO,
    )
    .unwrap();
    assert_eq!(m.cells(), &[0, 3, 1, 0]);
    assert_eq!(m.set(1, 1, 9), Ok(0));
    assert_eq!(m.get(IVec2::new(1, 1)), 9);
    assert!(shape(m.set(2, 0, 1).map(|_| m.clone())).contains("outside"));
    assert_eq!(
        m.tile_aabb(IVec2::new(1, 0)),
        Aabb::from_coords(16.0, 0.0, 32.0, 16.0)
    );
    assert_eq!(m.bounds(), Aabb::from_coords(0.0, 0.0, 32.0, 32.0));
    assert_eq!(m.tile_at(Vec2::new(16.0, 15.9)), Some(IVec2::new(1, 0)));
    assert_eq!(m.tile_at(Vec2::new(32.0, 0.0)), None);
    // A map with no cells is valid: everything is outside.
    let empty = TileMap::new(0, 0, ok, Vec2::ZERO).unwrap();
    let b = Aabb::from_coords(0.0, 0.0, 1.0, 1.0);
    assert_eq!(
        empty.move_and_slide(b, Vec2::splat(5.0)).unwrap().aabb,
        b.translated(Vec2::splat(5.0))
    );
    let walled = empty.with_outside(SOLID);
    assert!(
        walled
            .move_and_slide(b, Vec2::splat(5.0))
            .unwrap()
            .hit_x
            .unwrap()
            .embedded
    );
}

#[test]
fn bad_input_gets_typed_errors() {
    let m = map("..\n##");
    let ok = Aabb::from_coords(0.0, 0.0, 4.0, 4.0);
    let bad_boxes = [
        (Aabb::from_coords(f32::NAN, 0.0, 1.0, 1.0), BoxDefect::NaN),
        (
            Aabb::from_coords(0.0, 0.0, f32::INFINITY, 1.0),
            BoxDefect::Infinite,
        ),
        (
            Aabb::from_coords(2.0, 0.0, 1.0, 1.0),
            BoxDefect::Inverted { axis: 0 },
        ),
        (
            Aabb::from_coords(0.0, 2.0, 1.0, 1.0),
            BoxDefect::Inverted { axis: 1 },
        ),
    ];
    for (b, defect) in bad_boxes {
        let want = Error::InvalidBox { index: 0, defect };
        assert_eq!(m.move_and_slide(b, Vec2::X).unwrap_err(), want);
        assert_eq!(m.cast(b, Vec2::X).unwrap_err(), want);
        assert_eq!(m.contact(b, Direction::PosY).unwrap_err(), want);
    }
    for motion in [Vec2::new(f32::NAN, 0.0), Vec2::new(0.0, f32::NEG_INFINITY)] {
        assert_eq!(
            m.move_and_slide(ok, motion).unwrap_err(),
            Error::InvalidMotion { index: 0 }
        );
        assert_eq!(
            m.cast(ok, motion).unwrap_err(),
            Error::InvalidMotion { index: 0 }
        );
    }

    // Batches: the lowest bad index; nothing written.
    let bodies = [ok, ok, bad_boxes[0].0, ok];
    let motions = [Vec2::X, Vec2::new(f32::NAN, 0.0), Vec2::X, Vec2::X];
    let mut out = vec![];
    let opts = SlideOptions::default();
    assert_eq!(
        m.move_and_slide_all(&bodies, &motions, &opts, &mut out),
        Err(Error::InvalidMotion { index: 1 })
    );
    assert!(out.is_empty());
    assert_eq!(
        m.move_and_slide_all(&bodies, &motions[..3], &opts, &mut out),
        Err(Error::LengthMismatch {
            what: "motions",
            expected: 4,
            found: 3
        })
    );
    let mut bullets = bodies;
    let mut hits = vec![];
    let motions = [Vec2::X, Vec2::X, Vec2::X, Vec2::X];
    assert_eq!(
        m.move_bullets(&mut bullets, &motions, BulletResponse::Stop, &mut hits),
        Err(Error::InvalidBox {
            index: 2,
            defect: BoxDefect::NaN
        })
    );
    assert_eq!(bullets[0], ok, "nothing moved");
}

// ----- many bodies ----------------------------------------------------------------------

/// ```text
///    ..........#     bullets flying right along row 1; a wall at column 10
///    BBBB.......     (row 1 is open to the right: those fly on)
///    ..........#
/// ```
#[test]
fn bullets_stop_or_are_destroyed() {
    let m = map("..........#\n...........\n..........#");
    let bullets: Vec<Aabb> = (0..6)
        .map(|i| {
            let y = 2.0 + i as f32 * 8.0; // rows 0, 0, 1, 1, 2, 2
            Aabb::from_coords(10.0 * i as f32, y, 10.0 * i as f32 + 4.0, y + 4.0)
        })
        .collect();
    let motions = vec![Vec2::new(400.0, 0.0); 6];
    for response in [BulletResponse::Stop, BulletResponse::Destroy] {
        let mut b = bullets.clone();
        let mut hits = vec![];
        m.move_bullets(&mut b, &motions, response, &mut hits)
            .unwrap();
        let idx: Vec<u32> = hits.iter().map(|h| h.index).collect();
        assert_eq!(idx, [0, 1, 4, 5], "{response:?}");
        for h in &hits {
            assert_eq!(
                (h.hit.edge, h.hit.coord, h.aabb.max.x),
                (TileEdge::MinX, 160.0, 160.0)
            );
            let i = h.index as usize;
            let want = match response {
                BulletResponse::Stop => h.aabb,
                BulletResponse::Destroy => bullets[i],
            };
            assert_eq!(b[i], want);
        }
        // The ones in open space flew the full distance.
        assert_eq!(b[2], bullets[2].translated(motions[2]));
        assert_eq!(b[3], bullets[3].translated(motions[3]));
        // Stopped bullets pushed again: reported again at toi 0, not moved.
        if response == BulletResponse::Stop {
            let before = b.clone();
            m.move_bullets(&mut b, &motions, response, &mut hits)
                .unwrap();
            assert_eq!(hits.len(), 4);
            assert!(hits.iter().all(|h| h.toi == 0.0 && !h.hit.embedded));
            assert_eq!(b[0], before[0]);
        }
    }
}

/// Batch move-and-slide agrees with one-at-a-time calls, in order, on any thread count.
#[test]
fn batch_slide_matches_single_calls() {
    let m = map("........\n..#.....\n.....#..\n########");
    let bodies: Vec<Aabb> = (0..5000)
        .map(|i| {
            let f = i as f32;
            Aabb::from_min_size(
                Vec2::new((f * 7.31) % 120.0, (f * 3.17) % 40.0),
                Vec2::new(5.0, 9.0),
            )
        })
        .collect();
    let motions: Vec<Vec2> = (0..5000)
        .map(|i| Vec2::new(((i * 37) % 41) as f32 - 20.0, ((i * 11) % 23) as f32 - 6.0))
        .collect();
    let opts = SlideOptions::default();
    let want: Vec<_> = bodies
        .iter()
        .zip(&motions)
        .map(|(&b, &v)| slide(&m, b, v))
        .collect();
    assert!(want.iter().any(|r| r.grounded) && want.iter().any(|r| r.hit_x.is_some()));
    for threads in [1, 3, 8] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut out = vec![];
        pool.install(|| m.move_and_slide_all(&bodies, &motions, &opts, &mut out))
            .unwrap();
        assert_eq!(out, want, "{threads} threads");
    }
}

// ----- the largest maps -------------------------------------------------------------------

/// Maps of `TileMap::MAX_CELLS` tiles, in each shape at the limit (square, widest,
/// tallest), build and answer. Building one used to take most of a minute; the test
/// guards its cost as well as its answers.
#[test]
fn maps_of_the_largest_size_build_and_answer() -> Result<(), Error> {
    for (w, h) in [
        (1 << 15, 1 << 15),
        (TileMap::MAX_SIDE, 64),
        (64, TileMap::MAX_SIDE),
    ] {
        assert_eq!(w as usize * h as usize, TileMap::MAX_CELLS);
        let mut map = TileMap::new(w, h, Vec2::ONE, Vec2::ZERO)?.with_outside(SOLID);
        let (fw, fh) = (w as f32, h as f32);
        // A bullet across the middle flies free; one pushed past the far corner stops on
        // the walled outside.
        let mid = Aabb::from_min_size(Vec2::new(fw / 2.0, fh / 2.0), Vec2::splat(0.5));
        let mut bullets = [mid, mid];
        let motions = [Vec2::new(7.0, 5.0), Vec2::new(2.0 * fw, 2.0 * fh)];
        let mut hits = vec![];
        map.move_bullets(&mut bullets, &motions, BulletResponse::Stop, &mut hits)?;
        assert_eq!(bullets[0], mid.translated(motions[0]), "{w} x {h}");
        assert_eq!(hits.len(), 1, "{w} x {h}");
        assert!(
            bullets[1].max.x <= fw && bullets[1].max.y <= fh,
            "{w} x {h}"
        );
        // A wall set in the first bullet's path stops it there.
        let wall = (w / 2 + 3, h / 2 + 2);
        map.set(wall.0, wall.1, SOLID)?;
        let r = map.cast(mid, motions[0])?;
        let hit = r.hit.expect("the new wall is hit");
        assert!(
            hit.tile == IVec2::new(wall.0 as i32, wall.1 as i32) || r.toi < 1.0,
            "{w} x {h}: {r:?}"
        );
    }
    Ok(())
}

/// Whether a solid tile of `map` (unit tiles at the origin) overlaps `b` with positive
/// area: a scan of the tiles under it.
fn overlaps_solid(map: &TileMap, b: Aabb) -> bool {
    let (x0, y0) = (b.min.x.floor() as i32, b.min.y.floor() as i32);
    let (x1, y1) = (b.max.x.ceil() as i32, b.max.y.ceil() as i32);
    (y0..y1).any(|y| {
        (x0..x1).any(|x| {
            let t = map.tile_aabb(IVec2::new(x, y));
            let overlap =
                t.min.x < b.max.x && b.min.x < t.max.x && t.min.y < b.max.y && b.min.y < t.max.y;
            overlap && map.is_solid(IVec2::new(x, y))
        })
    })
}

/// A maximum-size map read from its cells (an arena with walls, lines and blocks
/// inside): bullets near the walls and in open space move as `cast` says they do, and
/// every bullet that flew free crossed only empty tiles (a scan of the tiles its path
/// covers). The open-space tables decide which bullets skip the exact sweep, so a wrong
/// bit would show as a bullet through a wall.
#[test]
fn the_largest_map_from_cells_answers_like_a_scan() -> Result<(), Error> {
    let (w, h) = (1usize << 15, 1usize << 15);
    let mut cells = vec![0u8; w * h];
    let mut seed = 0x5eed_u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    cells[..w].fill(SOLID);
    cells[(h - 1) * w..].fill(SOLID);
    for y in 0..h {
        cells[y * w] = SOLID;
        cells[y * w + w - 1] = SOLID;
    }
    // Walls: single tiles, horizontal and vertical lines, and solid blocks.
    let mut walls = Vec::new();
    for k in 0..3000 {
        let (x, y) = (1 + next(w - 40), 1 + next(h - 40));
        let (dx, dy) = match k % 4 {
            0 => (1, 1),
            1 => (1 + next(30), 1),
            2 => (1, 1 + next(30)),
            _ => (1 + next(6), 1 + next(6)),
        };
        for r in y..y + dy {
            cells[r * w + x..r * w + x + dx].fill(2);
        }
        walls.push((x, y));
    }
    let map = TileMap::from_cells(w as u32, h as u32, cells, Vec2::ONE, Vec2::ZERO)?;
    // Bullets around the walls, and anywhere, none starting inside a wall; motions along
    // an axis, so that the swept box is the path.
    let (mut bullets, mut motions) = (Vec::new(), Vec::new());
    while bullets.len() < 20_000 {
        let corner = if bullets.len() % 4 == 0 {
            Vec2::new(next(w) as f32, next(h) as f32)
        } else {
            let (x, y) = walls[next(walls.len())];
            Vec2::new(x as f32 - 8.0, y as f32 - 8.0) + Vec2::new(next(16) as f32, next(16) as f32)
        };
        let size = Vec2::new(0.1 + next(9) as f32 / 10.0, 0.1 + next(9) as f32 / 10.0);
        let b = Aabb::from_min_size(corner + next(8) as f32 / 8.0, size);
        if overlaps_solid(&map, b) {
            continue;
        }
        let d = next(161) as f32 / 8.0 - 10.0;
        bullets.push(b);
        motions.push(if next(2) == 0 {
            Vec2::new(d, 0.0)
        } else {
            Vec2::new(0.0, d)
        });
    }
    let mut moved = bullets.clone();
    let mut hits = vec![];
    map.move_bullets(&mut moved, &motions, BulletResponse::Stop, &mut hits)?;
    let mut batch_hits = hits.iter().peekable();
    let (mut free, mut stopped) = (0, 0);
    for (i, (&b, &m)) in bullets.iter().zip(&motions).enumerate() {
        let cast = map.cast(b, m)?;
        match (cast.hit, batch_hits.next_if(|h| h.index as usize == i)) {
            (Some(want), Some(got)) => {
                assert_eq!(
                    (got.hit, got.aabb, got.toi),
                    (want, cast.aabb, cast.toi),
                    "{i}"
                );
                assert!(map.is_solid(want.tile), "bullet {i}: {want:?}");
                assert!(!overlaps_solid(&map, b.swept(m * cast.toi)), "bullet {i}");
                stopped += 1;
            }
            (None, None) => {
                assert!(moved[i] == cast.aabb || moved[i] == b.translated(m), "{i}");
                assert!(
                    !overlaps_solid(&map, b.swept(m)),
                    "bullet {i}: {b:?} + {m:?}"
                );
                free += 1;
            }
            (want, got) => panic!("bullet {i}: cast {want:?}, move_bullets {got:?}"),
        }
    }
    assert!(batch_hits.next().is_none());
    assert!(
        free > 10_000 && stopped > 500,
        "{free} free, {stopped} stopped"
    );
    Ok(())
}
