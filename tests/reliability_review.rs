//! Regressions of the reliability review (issue 22): each input broke a promise of the
//! crate ("never panics on bad input", "the same answer on every SIMD level") before
//! its fix. One test per finding, named after it.

use glam::{Quat, Vec2, Vec3};
use hantei::frame::Frame;
use hantei::narrow::columns::AabbColumns;
use hantei::scene::generate::{self, Shape};
use hantei::tilemap::{BulletResponse, TileMap};
use hantei::{
    Aabb, BoxProps, BoxStore, BroadPhase, Error, MAX_BOXES, NarrowConfig, NarrowPhase, Obb2, Obb3,
    Pair, SimdLevel,
};

/// Finding 1: `BoxStore::default()` (what `#[derive(Default)]` on a game struct calls)
/// panicked on its first insert; it is now the same store as `BoxStore::new()`.
#[test]
fn a_default_store_is_a_new_store() -> Result<(), Error> {
    #[derive(Default)]
    struct Game {
        store: BoxStore,
        frame: Frame,
        broad: BroadPhase,
        narrow: NarrowPhase,
    }
    let mut game = Game::default();
    let a = game.store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0))?;
    let b = game.store.insert_with(
        Aabb::from_coords(0.5, 0.5, 2.0, 2.0),
        BoxProps {
            motion: Vec2::new(1.0, 0.0),
            ..BoxProps::default()
        },
    )?;
    game.store.remove(a)?;
    let c = game.store.insert(Aabb::from_coords(1.5, 0.0, 3.0, 1.0))?;
    // Handles, slots and columns exactly as a `new()` store would have them.
    let mut new = BoxStore::new();
    let a2 = new.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0))?;
    let b2 = new.insert_with(
        Aabb::from_coords(0.5, 0.5, 2.0, 2.0),
        BoxProps {
            motion: Vec2::new(1.0, 0.0),
            ..BoxProps::default()
        },
    )?;
    new.remove(a2)?;
    let c2 = new.insert(Aabb::from_coords(1.5, 0.0, 3.0, 1.0))?;
    assert_eq!((b, c), (b2, c2));
    assert_eq!(game.store.handles(), new.handles());
    assert_eq!(game.store.min_x(), new.min_x());
    assert!(!game.store.contains(a));
    // The other derived defaults work as their `new()` does.
    let report = game.frame.step(&game.store)?;
    assert_eq!(report.contacts.len(), 1);
    let boxes = [Aabb::from_coords(0.0, 0.0, 1.0, 1.0); 3];
    assert_eq!(game.broad.find_pairs(&boxes[..])?.len(), 3);
    let hits = game
        .narrow
        .overlap_aabb_aabb(&boxes[..], &[Pair::new(0, 2)])?;
    assert_eq!(hits, [Pair::new(0, 2)]);
    Ok(())
}

/// Finding 2: a 0 × 0 (or 0 × 5) tile map panicked in `cast` and `move_bullets`; every
/// tile map call answers on a map with no cells, whose outside decides what is solid.
#[test]
fn tile_maps_without_cells_answer_every_call() -> Result<(), Error> {
    let body = Aabb::from_coords(0.0, 0.0, 1.0, 1.0);
    let motion = Vec2::new(5.0, 5.0);
    for (w, h) in [(0, 0), (0, 5), (5, 0)] {
        let open = TileMap::new(w, h, Vec2::ONE, Vec2::ZERO)?;
        let r = open.cast(body, motion)?;
        assert_eq!((r.hit, r.toi), (None, 1.0), "{w}x{h}");
        assert_eq!(r.aabb, Aabb::from_coords(5.0, 5.0, 6.0, 6.0));
        let mut bullets = [body; 3];
        let mut hits = Vec::new();
        open.move_bullets(&mut bullets, &[motion; 3], BulletResponse::Stop, &mut hits)?;
        assert!(hits.is_empty());
        assert_eq!(bullets, [r.aabb; 3]);
        // A solid outside: the map is all wall, and the body starts inside it.
        let walled = TileMap::new(w, h, Vec2::ONE, Vec2::ZERO)?.with_outside(1);
        let r = walled.cast(body, motion)?;
        assert!(r.hit.is_some(), "{w}x{h}");
        let mut bullets = [body; 9];
        walled.move_bullets(
            &mut bullets,
            &[motion; 9],
            BulletResponse::Destroy,
            &mut hits,
        )?;
        assert_eq!(hits.len(), 9);
        assert_eq!(bullets, [body; 9]);
    }
    Ok(())
}

/// Finding 3: at the index limit the scalar level answered `Ok` where the lane levels
/// answered `PairOutOfRange`. An input of more than `MAX_BOXES` shapes is now refused
/// as `TooManyBoxes` by every level, before any pair is read.
#[test]
fn every_level_refuses_inputs_beyond_max_boxes_alike() -> Result<(), Error> {
    let n = MAX_BOXES + 2; // 2^31 + 1 boxes
    // Zeroed pages: 8 GiB of address space, of which the test touches none.
    let column = vec![0.0f32; n];
    let boxes = AabbColumns {
        min_x: &column,
        min_y: &column,
        max_x: &column,
        max_y: &column,
    };
    assert_eq!(
        AabbColumns::new(&column, &column, &column, &column).err(),
        Some(Error::TooManyBoxes { requested: n })
    );
    let pairs = [Pair::new(0, 1 << 31)];
    for &simd in SimdLevel::available() {
        for parallel in [false, true] {
            let mut narrow = NarrowPhase::with_config(NarrowConfig {
                simd,
                parallel,
                ..NarrowConfig::default()
            });
            let got = narrow.overlap_aabb_aabb(boxes, &pairs).map(<[Pair]>::len);
            assert_eq!(got, Err(Error::TooManyBoxes { requested: n }), "{simd:?}");
            let got = narrow.overlap_aabb_aabb(boxes, &[]).map(<[Pair]>::len);
            assert_eq!(got, Err(Error::TooManyBoxes { requested: n }), "{simd:?}");
        }
    }
    drop(column);
    // Just below the limit, an index of 2^31 - 1 is out of range on every level too.
    let boxes = [Aabb::from_coords(0.0, 0.0, 1.0, 1.0); 2];
    for &simd in SimdLevel::available() {
        let mut narrow = NarrowPhase::with_config(NarrowConfig {
            simd,
            ..NarrowConfig::default()
        });
        let got = narrow.overlap_aabb_aabb(&boxes[..], &[Pair::new(0, i32::MAX as u32)]);
        assert!(
            matches!(got, Err(Error::PairOutOfRange { pair: 0, .. })),
            "{simd:?}"
        );
    }
    Ok(())
}

/// Finding 4: normalising overflowed or underflowed silently. Any finite non-zero
/// direction or rotation is now normalised, at any scale.
#[test]
fn directions_and_rotations_normalise_at_any_scale() -> Result<(), Error> {
    let close = |a: Vec2, b: Vec2| (a - b).length() < 1e-6;
    let diagonal = Vec2::splat(core::f32::consts::FRAC_1_SQRT_2);
    for axis in [
        Vec2::splat(3e38),
        Vec2::splat(f32::MAX),
        Vec2::splat(1e-30),
        Vec2::splat(f32::from_bits(1)), // the smallest subnormal
        Vec2::splat(1.0),
    ] {
        let b = Obb2::try_new(Vec2::ZERO, axis, Vec2::ONE)?;
        assert!(close(b.axis, diagonal), "{axis:?} -> {:?}", b.axis);
        assert_eq!(b.validate(), Ok(()));
    }
    let b = Obb2::try_new(
        Vec2::ZERO,
        Vec2::new(-f32::MAX, f32::MIN_POSITIVE),
        Vec2::ONE,
    )?;
    assert_eq!(b.axis, Vec2::new(-1.0, 0.0));
    assert!(Obb2::try_new(Vec2::ZERO, Vec2::ZERO, Vec2::ONE).is_err());
    assert!(Obb2::try_new(Vec2::ZERO, Vec2::new(-0.0, 0.0), Vec2::ONE).is_err());

    // A quarter turn about z at every scale; its axes are (y, -x, z).
    let want = [Vec3::Y, -Vec3::X, Vec3::Z];
    for s in [1e20f32, 1e-30, 1.0, 3e38, 1e-40] {
        let q = Quat::from_xyzw(0.0, 0.0, s, s);
        for b in [
            Obb3::from_rotation(Vec3::ZERO, q, Vec3::ONE),
            Obb3::try_from_rotation(Vec3::ZERO, q, Vec3::ONE)?,
        ] {
            assert_eq!(b.validate(), Ok(()), "scale {s}");
            for (a, w) in b.axes.iter().zip(want) {
                assert!((*a - w).length() < 1e-6, "scale {s}: {:?}", b.axes);
            }
        }
    }
    // The review's case: that box against a unit box 3 units away is no hit.
    let turned = Obb3::from_rotation(Vec3::ZERO, Quat::from_xyzw(1e20, 0.0, 0.0, 1e20), Vec3::ONE);
    let far = Obb3::from_rotation(Vec3::new(3.0, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE);
    let mut narrow = NarrowPhase::new();
    let hits = narrow.overlap_obb3_obb3(&[turned, far][..], &[Pair::new(0, 1)])?;
    assert!(hits.is_empty());
    // A zero or non-finite rotation: NaN axes unchecked (refused by validate and never a
    // hit), an error checked.
    for q in [
        Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
        Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0),
        Quat::from_xyzw(f32::INFINITY, 0.0, 0.0, 1.0),
    ] {
        let b = Obb3::from_rotation(Vec3::ZERO, q, Vec3::ONE);
        assert!(b.validate().is_err(), "{q:?}");
        assert!(
            Obb3::try_from_rotation(Vec3::ZERO, q, Vec3::ONE).is_err(),
            "{q:?}"
        );
        let hits = narrow.overlap_obb3_obb3(&[b, b][..], &[Pair::new(0, 1)]);
        assert!(!matches!(hits, Ok(h) if !h.is_empty()), "{q:?}");
    }
    Ok(())
}

/// Finding 5: the scene generators aborted with "capacity overflow" on a size they
/// cannot build; `Shape::try_generate` answers it with an error, and the plain
/// generators document their panic.
#[test]
fn generators_refuse_sizes_they_cannot_build() -> Result<(), Error> {
    for shape in Shape::ALL {
        for n in [usize::MAX, MAX_BOXES + 1] {
            assert_eq!(
                shape.try_generate(n, 1).err(),
                Some(Error::TooManyBoxes { requested: n }),
                "{shape:?}"
            );
        }
        // Within the limit: the same boxes as the plain generator.
        assert_eq!(shape.try_generate(500, 9)?, shape.generate(500, 9));
    }
    assert_eq!(generate::vertical_line(3, 1).len(), 3);
    let plain = std::panic::catch_unwind(|| generate::identical(usize::MAX));
    let message = plain.expect_err("a documented panic");
    let text = message
        .downcast_ref::<String>()
        .expect("a formatted message");
    assert!(text.contains("too many boxes"), "{text}");
    Ok(())
}
