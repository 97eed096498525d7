//! Bad input at every public entry point: a typed error, or a documented behaviour,
//! never a panic. One test per family of entry points; the fuzz targets
//! (`hantei::check`, feature `fuzzing`) explore the same ground at random.

use glam::{IVec2, Vec2};
use hantei::scene::{self, SceneError};
use hantei::tilemap::{BulletResponse, Direction, SlideOptions, TileMap};
use hantei::{
    Aabb, AsciiDefect, BandOrder, BoxDefect, BoxProps, BoxSet, BoxStore, BroadConfig, BroadPhase,
    Error, Filter, Owner, Pair, Ray, SimdLevel, broad,
};

const NAN: f32 = f32::NAN;
const INF: f32 = f32::INFINITY;

/// Boxes with each defect, and the defect `validate` names.
fn bad_boxes() -> [(Aabb, BoxDefect); 6] {
    [
        (Aabb::from_coords(NAN, 0.0, 1.0, 1.0), BoxDefect::NaN),
        (Aabb::from_coords(0.0, 0.0, 1.0, NAN), BoxDefect::NaN),
        (Aabb::from_coords(-INF, 0.0, 1.0, 1.0), BoxDefect::Infinite),
        (Aabb::from_coords(0.0, 0.0, 1.0, INF), BoxDefect::Infinite),
        (
            Aabb::from_coords(2.0, 0.0, 1.0, 1.0),
            BoxDefect::Inverted { axis: 0 },
        ),
        (
            Aabb::from_coords(0.0, 2.0, 1.0, 1.0),
            BoxDefect::Inverted { axis: 1 },
        ),
    ]
}

fn unit(x: f32, y: f32) -> Aabb {
    Aabb::from_coords(x, y, x + 1.0, y + 1.0)
}

fn invalid(index: usize, defect: BoxDefect) -> Result<(), Error> {
    Err(Error::InvalidBox { index, defect })
}

/// Every column of a store, bit for bit, for "nothing changed" checks.
fn columns(s: &BoxStore) -> Vec<u32> {
    [
        s.min_x(),
        s.min_y(),
        s.max_x(),
        s.max_y(),
        s.motion_x(),
        s.motion_y(),
    ]
    .iter()
    .flat_map(|c| c.iter().map(|v| v.to_bits()))
    .chain(s.layers().iter().chain(s.masks()).copied())
    .chain(
        s.owners()
            .iter()
            .chain(s.user_data())
            .flat_map(|&v| [v as u32, (v >> 32) as u32]),
    )
    .chain(s.responses().iter().map(|&r| u32::from(r)))
    .collect()
}

#[test]
fn store_refuses_bad_boxes_motions_lengths_and_handles() {
    let mut store = BoxStore::new();
    let hs = store
        .insert_many(
            &[unit(0.0, 0.0), unit(2.0, 0.0), unit(4.0, 0.0)],
            BoxProps::default(),
        )
        .unwrap();
    let before = columns(&store);
    for (b, defect) in bad_boxes() {
        assert_eq!(store.insert(b).map(|_| ()), invalid(0, defect));
        assert_eq!(store.update(hs[0], b), invalid(0, defect));
        assert_eq!(
            store
                .insert_many(&[unit(0.0, 0.0), unit(1.0, 1.0), b], BoxProps::default())
                .map(|_| ()),
            invalid(2, defect)
        );
        assert_eq!(
            store.update_all(&[unit(0.0, 0.0), b, b]),
            invalid(1, defect)
        );
    }
    for m in [Vec2::new(NAN, 0.0), Vec2::new(0.0, -INF)] {
        let props = BoxProps {
            motion: m,
            ..BoxProps::default()
        };
        assert_eq!(
            store.insert_with(unit(0.0, 0.0), props),
            Err(Error::InvalidMotion { index: 0 })
        );
        assert_eq!(
            store.set_motion(hs[1], m),
            Err(Error::InvalidMotion { index: 0 })
        );
        assert_eq!(
            store.set_motion_all(&[Vec2::ZERO, Vec2::ZERO, m]),
            Err(Error::InvalidMotion { index: 2 })
        );
    }
    // Bulk calls want one item per box.
    for n in [0, 2, 4] {
        let boxes = vec![unit(0.0, 0.0); n];
        assert_eq!(
            store.update_all(&boxes),
            Err(Error::LengthMismatch {
                what: "update_all boxes",
                expected: 3,
                found: n
            })
        );
        assert!(matches!(
            store.set_motion_all(&vec![Vec2::ZERO; n]),
            Err(Error::LengthMismatch {
                expected: 3,
                found,
                ..
            }) if found == n
        ));
    }
    assert_eq!(columns(&store), before, "a refused call changed the store");
    assert_eq!(store.len(), 3);

    // Dead handles stay dead, for every call that takes one.
    let dead = hs[1];
    store.remove(dead).unwrap();
    assert_eq!(store.remove(dead), Err(Error::StaleHandle));
    assert_eq!(store.update(dead, unit(0.0, 0.0)), Err(Error::StaleHandle));
    assert_eq!(store.set_motion(dead, Vec2::ONE), Err(Error::StaleHandle));
    assert_eq!(store.set_filter(dead, Filter::ALL), Err(Error::StaleHandle));
    assert_eq!(store.set_owner(dead, Owner(1)), Err(Error::StaleHandle));
    assert!(store.get(dead).is_none() && store.props(dead).is_none());
    assert!(store.index_of(dead).is_none() && !store.contains(dead));
    // A handle from a bigger store names a slot this one never had.
    let mut big = BoxStore::new();
    let far = (0..10)
        .map(|_| big.insert(unit(0.0, 0.0)).unwrap())
        .last()
        .unwrap();
    assert_eq!(store.remove(far), Err(Error::StaleHandle));
    // Index accessors answer None out of range, whatever the index.
    for i in [2, 3, usize::MAX] {
        assert!(store.handle_at(i).is_none() && store.aabb_at(i).is_none());
    }
}

#[test]
fn store_empty_inputs_and_extreme_valid_boxes() {
    let mut store = BoxStore::with_capacity(0);
    assert_eq!(store.insert_many(&[], BoxProps::default()), Ok(vec![]));
    assert_eq!(store.update_all(&[]), Ok(()));
    assert_eq!(store.set_motion_all(&[]), Ok(()));
    store.clear();
    store.reserve(0);
    assert!(store.is_empty() && store.iter().next().is_none());
    // A box beyond the coordinate limit is refused, and the store is unchanged.
    let huge = Aabb::from_coords(f32::MIN, f32::MIN, f32::MAX, f32::MAX);
    assert!(matches!(
        store.insert(huge),
        Err(Error::OutOfRange {
            handle: None,
            index: 0,
            ..
        })
    ));
    assert!(store.is_empty());
    // Valid up to the limit, or when the box is a point or a -0.0 box.
    let l = hantei::MAX_COORDINATE;
    for b in [
        Aabb::from_coords(-l, -l, l, l),
        Aabb::from_coords(1e-45, -1e-45, 1e-45, 1e-45),
        Aabb::from_coords(-0.0, 0.0, 0.0, -0.0),
    ] {
        let h = store.insert(b).unwrap();
        assert_eq!(
            store.get(h).map(|g| bytemuck::bytes_of(&g).to_vec()),
            Some(bytemuck::bytes_of(&b).to_vec())
        );
    }
}

/// `reserve` and `with_capacity` take capacity as a hint: an impossible size reserves
/// nothing, and never panics.
#[test]
fn store_reserve_of_an_impossible_size_is_ignored() {
    let mut store = BoxStore::with_capacity(usize::MAX);
    store.reserve(usize::MAX);
    store.reserve(hantei::MAX_BOXES + 1);
    assert!(store.is_empty());
    store.insert(unit(0.0, 0.0)).unwrap();
    assert_eq!(store.len(), 1);
}

#[test]
fn store_queries_refuse_bad_regions_points_and_rays() {
    let mut store = BoxStore::new();
    let a = store.insert(unit(0.0, 0.0)).unwrap();
    let sentinel = a;
    for (b, defect) in bad_boxes() {
        let mut out = vec![sentinel];
        for &level in SimdLevel::available() {
            assert_eq!(
                store.query_region_with(b, Filter::ALL, level, &mut out),
                invalid(0, defect)
            );
        }
        assert_eq!(out, [sentinel], "a refused query wrote to out");
        assert!(matches!(
            store.shape_cast(b, Vec2::X, Filter::ALL),
            Err(Error::InvalidBox { index: 0, .. })
        ));
    }
    for p in [Vec2::new(NAN, 0.0), Vec2::new(0.0, INF), Vec2::NEG_INFINITY] {
        let mut out = vec![sentinel];
        assert!(matches!(
            store.query_point(p, Filter::ALL, &mut out),
            Err(Error::InvalidShape { index: 0, .. })
        ));
        let ray = Ray::new(p, Vec2::X);
        let mut hits = vec![];
        assert!(matches!(
            store.ray_cast_all(ray, Filter::ALL, &mut hits),
            Err(Error::InvalidShape { index: 0, .. })
        ));
        assert!(hits.is_empty());
        assert!(
            store
                .ray_cast(Ray::new(Vec2::ZERO, p), Filter::ALL)
                .is_err()
        );
        assert_eq!(
            store.shape_cast(unit(0.0, 0.0), p, Filter::ALL),
            Err(Error::InvalidMotion { index: 0 })
        );
        assert_eq!(out, [sentinel]);
    }
    // Empty store, zero-size region, region at the end of the f32 range, zero motion.
    let empty = BoxStore::new();
    let mut out = vec![];
    empty
        .query_region(Aabb::from_coords(0.0, 0.0, 0.0, 0.0), Filter::ALL, &mut out)
        .unwrap();
    empty
        .query_point(Vec2::ZERO, Filter::ALL, &mut out)
        .unwrap();
    assert!(out.is_empty());
    assert_eq!(
        empty.ray_cast(Ray::new(Vec2::ZERO, Vec2::ZERO), Filter::ALL),
        Ok(None)
    );
    store
        .query_region(
            Aabb::from_coords(f32::MAX, f32::MAX, f32::MAX, f32::MAX),
            Filter::ALL,
            &mut out,
        )
        .unwrap();
    assert!(out.is_empty());
    let hit = store
        .shape_cast(unit(0.0, 0.0), Vec2::ZERO, Filter::ALL)
        .unwrap()
        .unwrap();
    assert_eq!((hit.handle, hit.t), (a, 0.0));
}

#[test]
fn box_sets_refuse_mismatched_columns_and_filters() {
    let (a, b) = ([0.0f32; 3], [1.0f32; 2]);
    for cols in [
        [&a[..], &b, &b, &b],
        [&b, &a, &b, &b],
        [&b, &b, &a, &b],
        [&b, &b, &b, &a],
    ] {
        assert!(matches!(
            BoxSet::from_columns(cols[0], cols[1], cols[2], cols[3]),
            Err(Error::LengthMismatch { .. })
        ));
    }
    let boxes = [unit(0.0, 0.0), unit(0.5, 0.5)];
    let set = BoxSet::from(&boxes);
    assert!(matches!(
        set.with_filters(&[Filter::ALL]),
        Err(Error::LengthMismatch {
            expected: 2,
            found: 1,
            ..
        })
    ));
    assert!(set.with_filter_columns(&[1, 1], &[1]).is_err());
    assert!(set.with_filter_columns(&[1, 1, 1], &[1, 1]).is_err());
    assert!(set.with_filter_columns(&[1, 1], &[1, 1]).is_ok());
    // Empty columns are an empty set.
    let empty = BoxSet::from_columns(&[], &[], &[], &[]).unwrap();
    assert!(empty.is_empty());
}

/// Every configuration a caller can build: the threads come from the caller's rayon pool
/// (a broad phase has no thread count of its own), a threshold of 0 or `usize::MAX` is
/// fine, and a SIMD level the CPU lacks falls back.
fn configs() -> Vec<BroadConfig> {
    let mut v = Vec::new();
    for simd in [
        SimdLevel::Scalar,
        SimdLevel::Portable,
        SimdLevel::Avx2,
        SimdLevel::Avx512,
    ] {
        for order in [BandOrder::Buckets, BandOrder::Radix, BandOrder::Comparison] {
            for (parallel, parallel_threshold) in [(true, 0), (true, usize::MAX), (false, 0)] {
                v.push(BroadConfig {
                    simd,
                    parallel,
                    parallel_threshold,
                    order,
                });
            }
        }
    }
    v
}

#[test]
fn broad_phase_refuses_bad_boxes_and_keeps_nothing_stale() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let good: Vec<Aabb> = (0..100)
        .map(|i| unit((i % 10) as f32, (i / 10) as f32))
        .collect();
    for config in configs() {
        let mut broad = BroadPhase::with_config(config);
        assert!(SimdLevel::available().contains(&broad.config().simd));
        for (bad, defect) in bad_boxes() {
            for at in [0, 57, 99] {
                let mut boxes = good.clone();
                boxes[at] = bad;
                boxes[99.min(at + 1)] = bad; // only the lowest index is named
                pool.install(|| {
                    assert!(!broad.find_pairs(&good).unwrap().is_empty());
                    assert_eq!(broad.find_pairs(&boxes).map(|_| ()), invalid(at, defect));
                    assert!(broad.pairs().is_empty() && broad.last_stats().pairs == 0);
                    // Bipartite: band path (even split) and grid path (one small set),
                    // indices counted through both sets.
                    let (first, second) = boxes.split_at(50);
                    assert_eq!(
                        broad.find_pairs_bipartite(first, second).map(|_| ()),
                        invalid(at, defect)
                    );
                    assert!(broad.pairs().is_empty());
                    let small = [bad];
                    assert_eq!(
                        broad
                            .find_pairs_bipartite(&good[..], &small[..])
                            .map(|_| ()),
                        invalid(100, defect)
                    );
                    assert_eq!(
                        broad
                            .find_pairs_bipartite(&small[..], &good[..])
                            .map(|_| ()),
                        invalid(0, defect)
                    );
                    assert!(broad.pairs().is_empty());
                });
            }
        }
    }
    assert_eq!(
        broad::brute_force_pairs(&[unit(0.0, 0.0), bad_boxes()[0].0][..]),
        Err(Error::InvalidBox {
            index: 1,
            defect: BoxDefect::NaN
        })
    );
    assert_eq!(
        broad::brute_force_bipartite(&[unit(0.0, 0.0)][..], &[bad_boxes()[2].0][..]),
        Err(Error::InvalidBox {
            index: 1,
            defect: BoxDefect::Infinite
        })
    );
}

#[test]
fn broad_phase_on_empty_tiny_and_extreme_inputs() {
    let none: [Aabb; 0] = [];
    let one = [unit(0.0, 0.0)];
    let extreme = [
        Aabb::from_coords(f32::MIN, f32::MIN, f32::MAX, f32::MAX),
        Aabb::from_coords(f32::MAX, f32::MAX, f32::MAX, f32::MAX),
        Aabb::from_coords(-0.0, -0.0, -0.0, -0.0),
        Aabb::from_coords(0.0, 0.0, 1e-45, 1e-45),
        Aabb::from_coords(-3e38, 5.0, 3e38, 5.0),
    ];
    for config in configs() {
        let mut broad = BroadPhase::with_config(config);
        assert_eq!(broad.find_pairs(&none), Ok(&[][..]));
        assert_eq!(broad.find_pairs(&one), Ok(&[][..]));
        assert_eq!(broad.find_pairs_bipartite(&none, &none), Ok(&[][..]));
        assert_eq!(broad.find_pairs_bipartite(&one, &none), Ok(&[][..]));
        assert_eq!(broad.find_pairs_bipartite(&none, &one), Ok(&[][..]));
        assert_eq!(
            broad.find_pairs_bipartite(&one, &one),
            Ok(&[Pair::new(0, 0)][..])
        );
        // Extent overflow, f32::MAX, -0.0 against 0.0, denormals: all valid, all paired
        // as the closed rule says.
        let mut got = broad.find_pairs(&extreme).unwrap().to_vec();
        got.sort_unstable();
        assert_eq!(got, broad::brute_force_pairs(&extreme).unwrap());
        assert_eq!(got.len(), 5, "{got:?}");
    }
}

#[test]
fn scene_reader_names_every_malformation() {
    let valid =
        scene::encode(&[unit(0.0, 0.0), Aabb::from_coords(-0.0, 1e-45, 0.0, 1e-45)]).unwrap();
    assert_eq!(scene::decode(&valid).unwrap().len(), 2);
    let header = |magic: &[u8], version: u32, count: u32| {
        let mut v = magic.to_vec();
        v.extend(version.to_le_bytes());
        v.extend(count.to_le_bytes());
        v
    };
    assert_eq!(
        scene::decode(&[]).map(|_| ()),
        Err(SceneError::TruncatedHeader { len: 0 })
    );
    assert_eq!(
        scene::decode(&valid[..15]).map(|_| ()),
        Err(SceneError::TruncatedHeader { len: 15 })
    );
    assert!(matches!(
        scene::decode(&header(b"AABB2D\0\x01", 1, 0)),
        Err(SceneError::BadMagic { .. })
    ));
    for version in [0, 2, u32::MAX] {
        assert_eq!(
            scene::decode(&header(&scene::MAGIC, version, 0)).map(|_| ()),
            Err(SceneError::UnsupportedVersion { version })
        );
    }
    // A count whose size overflows 32 bits is a size mismatch, computed in 64 bits.
    assert_eq!(
        scene::decode(&header(&scene::MAGIC, 1, u32::MAX)).map(|_| ()),
        Err(SceneError::SizeMismatch {
            count: u32::MAX,
            expected: 16 + 16 * u64::from(u32::MAX),
            found: 16
        })
    );
    assert!(matches!(
        scene::decode(&valid[..valid.len() - 1]),
        Err(SceneError::SizeMismatch { count: 2, .. })
    ));
    let mut extra = valid.clone();
    extra.push(0);
    assert!(matches!(
        scene::decode(&extra),
        Err(SceneError::SizeMismatch { .. })
    ));
    // Bad records: the first one is named, a NaN wins over an inversion.
    for (b, defect) in bad_boxes() {
        let mut file = header(&scene::MAGIC, 1, 2);
        for r in [unit(0.0, 0.0), b] {
            for v in [r.min.x, r.min.y, r.max.x, r.max.y] {
                file.extend(v.to_le_bytes());
            }
        }
        let want = match defect {
            BoxDefect::Inverted { axis } => SceneError::Inverted { record: 1, axis },
            _ => SceneError::NonFinite { record: 1 },
        };
        assert_eq!(scene::decode(&file).map(|_| ()), Err(want.clone()));
        // Misaligned bytes take the copying path and give the same answer.
        let mut shifted = vec![0u8];
        shifted.extend(&file);
        assert_eq!(scene::decode(&shifted[1..]).map(|_| ()), Err(want.clone()));
        // The writer refuses what the reader would refuse.
        assert_eq!(scene::encode(&[unit(0.0, 0.0), b]), Err(want));
    }
    assert_eq!(scene::encode(&[]).unwrap(), header(&scene::MAGIC, 1, 0));
}

#[test]
fn scene_files_that_cannot_be_read_or_written_are_io_errors() {
    let dir = std::env::temp_dir().join(format!("hantei-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.aabb");
    assert!(matches!(
        scene::load(&missing),
        Err(SceneError::Io {
            kind: std::io::ErrorKind::NotFound,
            ..
        })
    ));
    assert!(matches!(scene::load(&dir), Err(SceneError::Io { .. })));
    assert!(matches!(
        scene::save(dir.join("no/such/dir/x.aabb"), &[unit(0.0, 0.0)]),
        Err(SceneError::Io { .. })
    ));
    // An invalid box is refused before anything is written.
    let file = dir.join("bad.aabb");
    assert_eq!(
        scene::save(&file, &[bad_boxes()[4].0]),
        Err(SceneError::Inverted { record: 0, axis: 0 })
    );
    assert!(!file.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tile_maps_refuse_bad_geometry_and_bad_art() {
    let t = Vec2::splat(16.0);
    let shape = |r: Result<TileMap, Error>| matches!(r, Err(Error::InvalidShape { index: 0, .. }));
    for tile in [
        Vec2::ZERO,
        Vec2::new(-1.0, 1.0),
        Vec2::new(NAN, 1.0),
        Vec2::new(1.0, INF),
    ] {
        assert!(shape(TileMap::new(4, 4, tile, Vec2::ZERO)), "{tile:?}");
    }
    assert!(shape(TileMap::new(4, 4, t, Vec2::new(NAN, 0.0))));
    assert!(shape(TileMap::new(4, 4, t, Vec2::new(0.0, -INF))));
    // Too big: refused before anything is allocated, with the size asked for.
    let too_large = |r: Result<TileMap, Error>| match r {
        Err(Error::MapTooLarge { width, height }) => (width, height),
        other => panic!("expected MapTooLarge, got {other:?}"),
    };
    let side = TileMap::MAX_SIDE;
    assert_eq!(
        too_large(TileMap::new(side + 1, 1, t, Vec2::ZERO)),
        (1 << 24 | 1, 1)
    );
    let max = u64::from(u32::MAX);
    assert_eq!(
        too_large(TileMap::new(u32::MAX, u32::MAX, t, Vec2::ZERO)),
        (max, max)
    );
    let err = TileMap::from_cells(side, side, Vec::new(), t, Vec2::ZERO).unwrap_err();
    assert_eq!(
        err.to_string(),
        "tile map of 16777216 x 16777216 tiles is too large (at most 16777216 a side and \
         1073741824 in all)"
    );
    // Tiles too small for their coordinates, or a far edge that overflows.
    assert!(shape(TileMap::new(
        4,
        4,
        Vec2::splat(1e-3),
        Vec2::splat(1e6)
    )));
    assert!(shape(TileMap::new(
        4,
        1,
        Vec2::splat(1e38),
        Vec2::splat(3e38)
    )));
    assert!(matches!(
        TileMap::from_cells(3, 3, vec![0; 8], t, Vec2::ZERO),
        Err(Error::LengthMismatch {
            expected: 9,
            found: 8,
            ..
        })
    ));
    for art in ["", "\n  \n", "..\n\n..", "..x.", "#é", "...\n.."] {
        let ascii = |r: Result<TileMap, Error>| matches!(r, Err(Error::InvalidAscii(_)));
        assert!(ascii(TileMap::from_ascii(art, t, Vec2::ZERO)), "{art:?}");
        assert!(
            ascii(TileMap::from_ascii_y_up(art, t, Vec2::ZERO)),
            "{art:?}"
        );
    }
    // A map with no cells is valid: everything is outside.
    let empty = TileMap::new(0, 0, t, Vec2::ZERO).unwrap();
    let r = empty
        .move_and_slide(unit(0.0, 0.0), Vec2::new(100.0, -100.0))
        .unwrap();
    assert_eq!(r.aabb, unit(100.0, -100.0));
    let walled = TileMap::new(0, 3, t, Vec2::ZERO).unwrap().with_outside(1);
    assert!(walled.move_and_slide(unit(0.0, 0.0), Vec2::X).is_ok());
}

/// An ASCII map's error names its defect and where it is in the text: the line (every
/// line counted from 1, blank ones too) and the column (characters counted from 1,
/// indentation included), whichever way the rows are read.
#[test]
fn ascii_tile_map_errors_name_the_line_and_column() {
    let t = Vec2::splat(16.0);
    let both = |art: &str| {
        let down = TileMap::from_ascii(art, t, Vec2::ZERO);
        let up = TileMap::from_ascii_y_up(art, t, Vec2::ZERO);
        assert_eq!(down, up, "both readings find the same defect in {art:?}");
        match down {
            Err(Error::InvalidAscii(defect)) => defect,
            other => panic!("expected InvalidAscii for {art:?}, got {other:?}"),
        }
    };
    let unknown = |line, column, found| AsciiDefect::UnknownTile {
        line,
        column,
        found,
    };
    assert_eq!(both("..x."), unknown(1, 3, 'x'));
    // Indented art in source code: blank first line, four spaces of indentation.
    let art = "
    ......
    ..##..
    .#.?#.
    ";
    assert_eq!(both(art), unknown(4, 8, '?'));
    // Columns count characters, not bytes; Windows line ends are line ends.
    assert_eq!(both("#é#"), unknown(1, 2, 'é'));
    assert_eq!(both("##\r\n#é\r\n"), unknown(2, 2, 'é'));
    assert_eq!(both("\t.\t#"), unknown(1, 3, '\t'));
    // Rows of the wrong length, shorter or longer, against the first row.
    let ragged = |line, tiles| AsciiDefect::Ragged {
        line,
        tiles,
        first_line: 2,
        first_tiles: 3,
    };
    assert_eq!(both("\n...\n...\n.."), ragged(4, 2));
    assert_eq!(both("\n...\n....\n..."), ragged(3, 4));
    assert_eq!(both("...\n\n..."), AsciiDefect::BlankLine { line: 2 });
    assert_eq!(both("  \n\t\n"), AsciiDefect::NoRows);
    assert_eq!(both(""), AsciiDefect::NoRows);
    // The messages: one line each, naming the place and what is wrong.
    let message = |art: &str| {
        TileMap::from_ascii(art, t, Vec2::ZERO)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        message(art),
        "ascii tile map, line 4, column 8: unknown tile '?' (use '.', '#' or a digit)"
    );
    assert_eq!(
        message("...\n...\n.."),
        "ascii tile map, line 3 has 2 tiles, the first row (line 1) has 3; rows must be \
         the same length"
    );
    assert_eq!(
        message("..\n\n.."),
        "ascii tile map, line 2 is blank, between rows"
    );
    assert_eq!(
        message(" "),
        "ascii tile map, no rows (the text is empty or blank)"
    );
    // Too wide: refused with its size before its tiles are read.
    let wide = ".".repeat(TileMap::MAX_SIDE as usize + 1);
    assert_eq!(
        TileMap::from_ascii(&format!("{wide}\n#"), t, Vec2::ZERO),
        Err(Error::MapTooLarge {
            width: u64::from(TileMap::MAX_SIDE) + 1,
            height: 2
        })
    );
}

#[test]
fn tile_map_lookups_take_any_index_or_point() {
    let mut map = TileMap::from_ascii("#.\n.#", Vec2::splat(8.0), Vec2::ZERO).unwrap();
    assert!(shape_err(map.set(2, 0, 1)));
    assert!(shape_err(map.set(0, u32::MAX, 1)));
    assert_eq!(map.set(1, 0, 7), Ok(0));
    for tile in [IVec2::MIN, IVec2::MAX, IVec2::new(-1, 0), IVec2::new(2, 1)] {
        assert_eq!(map.get(tile), map.outside());
        let _ = map.tile_aabb(tile); // may be huge or infinite far away, never a panic
    }
    for p in [
        Vec2::new(NAN, 1.0),
        Vec2::new(1.0, INF),
        Vec2::splat(-1.0),
        Vec2::splat(16.0),
        Vec2::splat(f32::MAX),
    ] {
        assert_eq!(map.tile_at(p), None, "{p:?}");
    }
    assert_eq!(map.tile_at(Vec2::splat(15.9)), Some(IVec2::new(1, 1)));
}

fn shape_err<T: std::fmt::Debug>(r: Result<T, Error>) -> bool {
    matches!(r, Err(Error::InvalidShape { .. }))
}

#[test]
fn tile_map_motion_refuses_bad_bodies_motions_and_lengths() {
    let map = TileMap::from_ascii("....\n.##.\n....", Vec2::splat(8.0), Vec2::ZERO).unwrap();
    let body = unit(0.0, 0.0);
    for (b, defect) in bad_boxes() {
        let e = invalid(0, defect);
        assert_eq!(map.move_and_slide(b, Vec2::X).map(|_| ()), e);
        assert_eq!(map.cast(b, Vec2::X).map(|_| ()), e);
        assert_eq!(map.contact(b, Direction::PosY).map(|_| ()), e);
    }
    for m in [Vec2::new(NAN, 0.0), Vec2::new(0.0, INF)] {
        let e = Err(Error::InvalidMotion { index: 0 });
        assert_eq!(map.move_and_slide(body, m).map(|_| ()), e);
        assert_eq!(map.cast(body, m).map(|_| ()), e);
    }
    // Batches: lengths first, then the lowest bad index; nothing changes on error.
    let opts = SlideOptions::default();
    let mut out = vec![map.move_and_slide(body, Vec2::ZERO).unwrap()];
    let before = out.clone();
    assert!(matches!(
        map.move_and_slide_all(&[body, body], &[Vec2::X], &opts, &mut out),
        Err(Error::LengthMismatch {
            expected: 2,
            found: 1,
            ..
        })
    ));
    assert_eq!(
        map.move_and_slide_all(
            &[body, body, bad_boxes()[0].0],
            &[Vec2::X; 3],
            &opts,
            &mut out
        ),
        invalid(2, BoxDefect::NaN)
    );
    assert_eq!(
        map.move_and_slide_all(
            &[body; 3],
            &[Vec2::X, Vec2::NAN, Vec2::NAN],
            &opts,
            &mut out
        ),
        Err(Error::InvalidMotion { index: 1 })
    );
    assert_eq!(out, before);
    map.move_and_slide_all(&[], &[], &opts, &mut out).unwrap();
    assert!(out.is_empty());
    let mut bullets = [body, body];
    let mut hits = vec![];
    assert!(matches!(
        map.move_bullets(&mut bullets, &[Vec2::X], BulletResponse::Stop, &mut hits),
        Err(Error::LengthMismatch { .. })
    ));
    assert_eq!(
        map.move_bullets(
            &mut bullets,
            &[Vec2::X, Vec2::INFINITY],
            BulletResponse::Destroy,
            &mut hits
        ),
        Err(Error::InvalidMotion { index: 1 })
    );
    assert_eq!(bullets, [body, body]);
    map.move_bullets(&mut [], &[], BulletResponse::Stop, &mut hits)
        .unwrap();
    assert!(hits.is_empty());
    // Extreme but valid: motions at the end of the f32 range, denormal motions.
    for m in [
        Vec2::new(f32::MAX, f32::MIN),
        Vec2::new(1e-45, -1e-45),
        Vec2::new(-0.0, 0.0),
    ] {
        let r = map.move_and_slide(body, m).unwrap();
        assert!(r.aabb.validate().is_ok());
        assert!(map.cast(body, m).unwrap().aabb.validate().is_ok());
    }
}

/// Large bullet batches are checked in parallel chunks: still the lowest bad index,
/// still nothing moved, whatever the thread count.
#[test]
fn large_bullet_batches_name_the_lowest_bad_index_on_any_thread_count() {
    let map = TileMap::from_ascii("....\n.##.\n....", Vec2::splat(8.0), Vec2::ZERO).unwrap();
    let n = 200_000;
    let bodies: Vec<Aabb> = (0..n).map(|k| unit((k % 30) as f32, 0.5)).collect();
    let motions = vec![Vec2::new(0.25, 0.0); n];
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut hits = Vec::new();
        // A NaN motion in a late chunk and an infinite one in an earlier chunk.
        let mut bad = motions.clone();
        bad[170_001] = Vec2::NAN;
        bad[70_003] = Vec2::new(0.0, f32::INFINITY);
        let mut bullets = bodies.clone();
        let got =
            pool.install(|| map.move_bullets(&mut bullets, &bad, BulletResponse::Stop, &mut hits));
        assert_eq!(
            got,
            Err(Error::InvalidMotion { index: 70_003 }),
            "{threads}"
        );
        assert_eq!(bullets, bodies);
        // A box whose face would leave f32 in a later chunk than a reversed box.
        let mut bad_boxes = bodies.clone();
        bad_boxes[150_000] = Aabb::from_coords(1.0e38, 0.0, 1.0e38, 1.0);
        let mut far = motions.clone();
        far[150_000] = Vec2::new(f32::MAX, 0.0);
        bad_boxes[99_999] = Aabb::from_coords(2.0, 0.0, 1.0, 1.0);
        let got = pool.install(|| {
            map.move_bullets(
                &mut bad_boxes.clone(),
                &motions,
                BulletResponse::Stop,
                &mut hits,
            )
        });
        assert_eq!(
            got,
            invalid(99_999, BoxDefect::Inverted { axis: 0 }),
            "{threads}"
        );
        bad_boxes[99_999] = bodies[99_999];
        let got = pool.install(|| {
            map.move_bullets(
                &mut bad_boxes.clone(),
                &far,
                BulletResponse::Stop,
                &mut hits,
            )
        });
        assert!(
            matches!(got, Err(Error::OutOfRange { index: 150_000, .. })),
            "{threads}: {got:?}"
        );
        // All good: every bullet moves.
        let mut bullets = bodies.clone();
        pool.install(|| map.move_bullets(&mut bullets, &motions, BulletResponse::Stop, &mut hits))
            .unwrap();
        assert_ne!(bullets, bodies);
    }
}

#[test]
fn narrow_batches_refuse_ragged_columns_and_bad_pair_indices() {
    use hantei::narrow::NarrowPhase;
    use hantei::narrow::columns::{AabbColumns, AabbSoa, CircleSoa, MotionSoa, Obb2Soa, RaySoa};
    let boxes = AabbSoa::from(&[unit(0.0, 0.0), unit(0.5, 0.5), unit(5.0, 5.0)][..]);
    let circles = CircleSoa::from(&[hantei::Circle::new(Vec2::ZERO, 1.0)][..]);
    let motions = MotionSoa::from(&[Vec2::X; 2][..]);
    let rays = RaySoa::from(&[Ray::new(Vec2::ZERO, Vec2::X)][..]);
    let obbs = Obb2Soa::from(&[hantei::Obb2::new(Vec2::ZERO, Vec2::X, Vec2::ONE)][..]);
    let ok = [Pair::new(0, 1)];
    let len = |r: Result<usize, Error>| matches!(r, Err(Error::LengthMismatch { .. }));
    let range = |r: Result<usize, Error>| matches!(r, Err(Error::PairOutOfRange { .. }));
    for simd in [
        SimdLevel::Scalar,
        SimdLevel::Portable,
        SimdLevel::Avx2,
        SimdLevel::Avx512,
    ] {
        let mut narrow = NarrowPhase::with_config(hantei::narrow::NarrowConfig {
            simd,
            parallel: true,
            parallel_threshold: 0,
        });
        let b = boxes.columns();
        // Ragged views: the fields are public, so the batch checks them again.
        let ragged = AabbColumns {
            max_y: &b.max_y[..2],
            ..b
        };
        assert!(AabbColumns::new(b.min_x, b.min_y, b.max_x, &b.max_y[..2]).is_err());
        assert!(len(narrow.overlap_aabb_aabb(ragged, &ok).map(<[_]>::len)));
        assert!(len(narrow
            .sweep_aabb_aabb(b, motions.columns(), &ok)
            .map(<[_]>::len)));
        // A pair index out of range, first, last, or beyond 2^31, on a full group of
        // eight or in the scalar tail.
        for bad in [Pair::new(3, 0), Pair::new(0, 3), Pair::new(u32::MAX, 0)] {
            for n in [1, 8, 9, 17] {
                let mut pairs = vec![Pair::new(0, 1); n];
                pairs[n - 1] = bad;
                assert!(range(narrow.overlap_aabb_aabb(b, &pairs).map(<[_]>::len)));
                assert!(range(
                    narrow
                        .overlap_circle_circle(circles.columns(), &pairs)
                        .map(<[_]>::len)
                ));
                assert!(range(
                    narrow
                        .overlap_aabb_circle(b, circles.columns(), &pairs)
                        .map(<[_]>::len)
                ));
                assert!(range(
                    narrow
                        .cast_point_aabb(rays.columns(), b, &pairs)
                        .map(<[_]>::len)
                ));
                assert!(range(
                    narrow
                        .overlap_obb2_obb2(obbs.columns(), &pairs)
                        .map(<[_]>::len)
                ));
            }
        }
        // Empty pairs, empty columns.
        assert_eq!(narrow.overlap_aabb_aabb(b, &[]).map(<[_]>::len), Ok(0));
        let none = AabbSoa::default();
        assert_eq!(
            narrow
                .overlap_aabb_aabb(none.columns(), &[])
                .map(<[_]>::len),
            Ok(0)
        );
        assert!(range(
            narrow
                .overlap_aabb_aabb(none.columns(), &ok)
                .map(<[_]>::len)
        ));
        // A good call after the errors: nothing stale.
        assert_eq!(narrow.overlap_aabb_aabb(b, &ok), Ok(&ok[..]));
    }
}

#[test]
fn narrow_shapes_refuse_bad_values_and_kernels_never_hit_on_them() {
    use glam::Vec3;
    use hantei::narrow::{SweepStatus, scalar};
    use hantei::{Circle, Obb2, Obb3};
    let shape = |r: Result<(), Error>| matches!(r, Err(Error::InvalidShape { index: 0, .. }));
    assert!(shape(Circle::try_new(Vec2::ZERO, -1.0).map(|_| ())));
    assert!(shape(Circle::try_new(Vec2::NAN, 1.0).map(|_| ())));
    assert!(shape(
        Ray::try_new(Vec2::ZERO, Vec2::new(INF, 0.0)).map(|_| ())
    ));
    for axis in [
        Vec2::ZERO,
        Vec2::splat(1e-45),
        Vec2::NAN,
        Vec2::splat(f32::MAX),
    ] {
        // Zero, too small or too large to normalise, or not finite.
        match Obb2::try_new(Vec2::ZERO, axis, Vec2::ONE) {
            Ok(o) => assert!(o.validate().is_ok(), "{axis:?}"),
            Err(e) => assert!(matches!(e, Error::InvalidShape { index: 0, .. })),
        }
    }
    assert!(shape(
        Obb2::try_new(Vec2::ZERO, Vec2::X, Vec2::new(-1.0, 1.0)).map(|_| ())
    ));
    let skew = [Vec3::X, Vec3::X, Vec3::Z];
    assert!(shape(
        Obb3::try_new(Vec3::ZERO, skew, Vec3::ONE).map(|_| ())
    ));
    assert!(shape(
        Obb3::try_new(Vec3::ZERO, [Vec3::ZERO; 3], Vec3::ONE).map(|_| ())
    ));
    // The kernels take unchecked shapes: NaN and infinities never hit, never panic.
    let nan_box = Aabb::from_coords(NAN, 0.0, 1.0, 1.0);
    let u = unit(0.0, 0.0);
    assert!(!scalar::overlap_aabb_aabb(&nan_box, &u));
    assert!(!scalar::overlap_circle_circle(
        &Circle::new(Vec2::ZERO, INF),
        &Circle::new(Vec2::ZERO, 1.0)
    ));
    assert!(!scalar::overlap_aabb_circle(
        &u,
        &Circle::new(Vec2::ZERO, -1.0)
    ));
    let s = scalar::sweep_aabb_aabb(&u, Vec2::new(NAN, 0.0), &u, Vec2::ZERO);
    assert_eq!(s.status, SweepStatus::Miss);
    let c = scalar::cast_point_aabb(&Ray::new(Vec2::ZERO, Vec2::INFINITY), &u);
    assert_eq!(c.status, SweepStatus::Miss);
    let o = Obb2::new(Vec2::ZERO, Vec2::NAN, Vec2::ONE);
    assert!(scalar::overlap_obb2_obb2(&o, &o).is_none());
    let o3 = Obb3::new(Vec3::ZERO, [Vec3::X, Vec3::Y, Vec3::Z], Vec3::splat(INF));
    assert!(scalar::overlap_obb3_obb3(&o3, &o3).is_none());
}
