//! Building a tile map: [`TileMap::new`], [`TileMap::from_cells`] and
//! [`TileMap::with_outside`] on maps of `2^26` tiles, each with its open-space tables
//! (the clear bits at every scale and the open interior).
//!
//! ```text
//! cargo bench --bench tilemap
//! ```
//!
//! Rows (one thread; the cells are made, and cloned for the calls that take them, outside
//! the timed loop):
//! - `new/8192x8192`, `new/1048576x64`, `new/64x1048576`: an empty map, square, wide
//!   and tall;
//! - `from_cells/arena`: 8192 × 8192 walled at its border, with 3,000 walls inside
//!   (tiles, lines and blocks);
//! - `from_cells/noise_1_in_2`, `from_cells/noise_1_in_64`: every tile solid at random,
//!   one in two and one in 64;
//! - `with_outside/arena`: the arena walled in (a solid outside), then opened again.
//!
//! With `HANTEI_BENCH_MAX=1` in the environment, a second group builds maps of
//! `TileMap::MAX_CELLS` (`2^30`) tiles: `new` in the same three shapes, and `from_cells`
//! of a 32768 × 32768 arena and of noise (one tile in 64 solid). It needs about 4 GiB of
//! memory and a few minutes:
//!
//! ```text
//! HANTEI_BENCH_MAX=1 cargo bench --bench tilemap -- tilemap_build_max
//! ```

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use glam::Vec2;
use hantei::TileMap;
use hantei::rng::Rng;
use hantei::tilemap::{EMPTY, SOLID};
use std::time::Duration;

const SIDE: usize = 8192;

/// An arena `side` tiles square: a solid border, and 3,000 walls inside (single tiles,
/// lines of up to 30 tiles either way, blocks of up to 6 × 6).
fn arena(rng: &mut Rng, side: usize) -> Vec<u8> {
    let (w, h) = (side, side);
    let mut cells = vec![EMPTY; w * h];
    cells[..w].fill(SOLID);
    cells[(h - 1) * w..].fill(SOLID);
    for y in 0..h {
        cells[y * w] = SOLID;
        cells[y * w + w - 1] = SOLID;
    }
    for k in 0..3000 {
        let (x, y) = (
            1 + rng.below(w as u32 - 40) as usize,
            1 + rng.below(h as u32 - 40) as usize,
        );
        let (dx, dy) = match k % 4 {
            0 => (1, 1),
            1 => (1 + rng.below(30) as usize, 1),
            2 => (1, 1 + rng.below(30) as usize),
            _ => (1 + rng.below(6) as usize, 1 + rng.below(6) as usize),
        };
        for r in y..y + dy {
            cells[r * w + x..r * w + x + dx].fill(2);
        }
    }
    cells
}

/// `side × side` tiles, each solid with probability `1 / one_in`.
fn noise(rng: &mut Rng, side: usize, one_in: u32) -> Vec<u8> {
    (0..side * side)
        .map(|_| if rng.below(one_in) == 0 { SOLID } else { EMPTY })
        .collect()
}

fn build(c: &mut Criterion) {
    let mut rng = Rng::new(34);
    let size = Vec2::splat(16.0);
    let mut group = c.benchmark_group("tilemap_build");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    for (w, h) in [(SIDE, SIDE), (1 << 20, 64), (64, 1 << 20)] {
        group.bench_function(format!("new/{w}x{h}"), |b| {
            b.iter(|| TileMap::new(w as u32, h as u32, size, Vec2::ZERO).unwrap());
        });
    }
    let side = SIDE as u32;
    let inputs = [
        ("arena", arena(&mut rng, SIDE)),
        ("noise_1_in_2", noise(&mut rng, SIDE, 2)),
        ("noise_1_in_64", noise(&mut rng, SIDE, 64)),
    ];
    for (name, cells) in &inputs {
        group.bench_function(format!("from_cells/{name}"), |b| {
            b.iter_batched(
                || cells.clone(),
                |cells| TileMap::from_cells(side, side, cells, size, Vec2::ZERO).unwrap(),
                BatchSize::PerIteration,
            );
        });
    }
    let map = TileMap::from_cells(side, side, inputs[0].1.clone(), size, Vec2::ZERO).unwrap();
    group.bench_function("with_outside/arena", |b| {
        b.iter_batched(
            || map.clone(),
            |map| map.with_outside(SOLID).with_outside(EMPTY),
            BatchSize::PerIteration,
        );
    });
    group.finish();
}

/// The `tilemap_build_max` group (see the module docs), only with `HANTEI_BENCH_MAX` set.
fn build_max(c: &mut Criterion) {
    if std::env::var_os("HANTEI_BENCH_MAX").is_none() {
        return;
    }
    let mut rng = Rng::new(30);
    let size = Vec2::splat(16.0);
    let mut group = c.benchmark_group("tilemap_build_max");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(100));
    group.measurement_time(Duration::from_secs(5));
    let max = TileMap::MAX_SIDE as usize;
    for (w, h) in [(1 << 15, 1 << 15), (max, 64), (64, max)] {
        group.bench_function(format!("new/{w}x{h}"), |b| {
            b.iter(|| TileMap::new(w as u32, h as u32, size, Vec2::ZERO).unwrap());
        });
    }
    let side = 1 << 15;
    for (name, cells) in [
        ("arena", arena(&mut rng, side)),
        ("noise_1_in_64", noise(&mut rng, side, 64)),
    ] {
        group.bench_function(format!("from_cells/{name}"), |b| {
            b.iter_batched(
                || cells.clone(),
                |cells| {
                    let s = side as u32;
                    TileMap::from_cells(s, s, cells, size, Vec2::ZERO).unwrap()
                },
                BatchSize::PerIteration,
            );
        });
    }
    group.finish();
}

criterion_group!(benches, build, build_max);
criterion_main!(benches);
