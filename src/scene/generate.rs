//! Seeded scene generators for tests, benchmarks and examples.
//!
//! Each generator returns exactly `n` valid boxes. The result depends only on `n` and
//! `seed`.
//!
//! Some sizes cannot be built. That happens with more than
//! [`MAX_BOXES`](crate::MAX_BOXES) boxes, or with more boxes than memory holds. For such
//! a size, [`Shape::try_generate`] returns [`Error::TooManyBoxes`]. The plain functions
//! panic with that message instead. Their `# Panics` sections say so.
//!
//! Each shape has a fixed density, and its world grows with `n`. So the number of
//! overlapping pairs grows roughly linearly with `n`. The exception is [`identical`],
//! where all `n(n-1)/2` pairs overlap.

use crate::error::{Error, check_count};
use crate::math::Aabb;
use crate::rng::Rng;
use glam::Vec2;

/// The scene shapes, for benchmarks and command lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// [`uniform`]
    Uniform,
    /// [`bullet_hell`]
    BulletHell,
    /// [`clusters`]
    Clusters,
    /// [`horizontal_line`]
    HorizontalLine,
    /// [`vertical_line`]
    VerticalLine,
    /// [`identical`]
    Identical,
    /// [`huge_and_tiny`]
    HugeAndTiny,
    /// [`parked`]
    Parked,
}

impl Shape {
    /// Every shape.
    pub const ALL: [Shape; 8] = [
        Shape::Uniform,
        Shape::BulletHell,
        Shape::Clusters,
        Shape::HorizontalLine,
        Shape::VerticalLine,
        Shape::Identical,
        Shape::HugeAndTiny,
        Shape::Parked,
    ];

    /// Returns the generator's name, such as `uniform` or `bullet_hell`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Shape::Uniform => "uniform",
            Shape::BulletHell => "bullet_hell",
            Shape::Clusters => "clusters",
            Shape::HorizontalLine => "horizontal_line",
            Shape::VerticalLine => "vertical_line",
            Shape::Identical => "identical",
            Shape::HugeAndTiny => "huge_and_tiny",
            Shape::Parked => "parked",
        }
    }

    /// Returns the shape with this name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Generates `n` boxes of this shape.
    ///
    /// # Panics
    /// Panics when `n` boxes cannot be built. [`Shape::try_generate`] says when.
    #[must_use]
    pub fn generate(self, n: usize, seed: u64) -> Vec<Aabb> {
        self.try_generate(n, seed)
            .unwrap_or_else(|e| panic!("scene::generate::{}: {e}", self.name()))
    }

    /// Generates `n` boxes of this shape, or returns why it cannot.
    ///
    /// ```
    /// use hantei::scene::generate::Shape;
    /// assert_eq!(Shape::Clusters.try_generate(100, 1)?.len(), 100);
    /// assert!(Shape::Identical.try_generate(usize::MAX, 1).is_err());
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// - [`Error::TooManyBoxes`] when `n` is more than [`MAX_BOXES`](crate::MAX_BOXES),
    ///   or when the allocator cannot provide room for `n` boxes. Nothing is generated.
    pub fn try_generate(self, n: usize, seed: u64) -> Result<Vec<Aabb>, Error> {
        check_count(n)?;
        let mut out = Vec::new();
        out.try_reserve_exact(n)
            .map_err(|_| Error::TooManyBoxes { requested: n })?;
        match self {
            Shape::Uniform => fill_uniform(&mut out, n, seed),
            Shape::BulletHell => fill_bullet_hell(&mut out, n, seed),
            Shape::Clusters => fill_clusters(&mut out, n, seed),
            Shape::HorizontalLine => fill_line(&mut out, n, seed, false),
            Shape::VerticalLine => fill_line(&mut out, n, seed, true),
            Shape::Identical => out.resize(n, Aabb::from_coords(0.0, 0.0, 1.0, 1.0)),
            Shape::HugeAndTiny => fill_huge_and_tiny(&mut out, n, seed),
            Shape::Parked => fill_parked(&mut out, n, seed),
        }
        debug_assert_eq!(out.len(), n);
        Ok(out)
    }
}

/// What every plain generator's `# Panics` says.
macro_rules! panics {
    () => {
        "# Panics\nPanics when `n` is more than [`MAX_BOXES`](crate::MAX_BOXES), or when \
         memory cannot hold `n` boxes. [`Shape::try_generate`] answers \
         [`Error::TooManyBoxes`] instead."
    };
}

/// Boxes spread uniformly over a square of area `2n`.
///
/// Each box has sides in `[0.5, 1.5)`. Each box overlaps about two others, so the scene
/// has about `n` pairs.
///
#[doc = panics!()]
#[must_use]
pub fn uniform(n: usize, seed: u64) -> Vec<Aabb> {
    Shape::Uniform.generate(n, seed)
}

fn fill_uniform(out: &mut Vec<Aabb>, n: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    let side = (2.0 * n as f32).sqrt().max(1.0);
    out.extend((0..n).map(|_| {
        let p = Vec2::new(rng.range_f32(0.0, side), rng.range_f32(0.0, side));
        let s = Vec2::new(rng.range_f32(0.5, 1.5), rng.range_f32(0.5, 1.5));
        Aabb::from_min_size(p, s)
    }));
}

/// A bullet-hell scene: emitters fire rings and spirals of small bullets.
///
/// The field has a 16:9 shape. Bullets are boxes with sides of 4 to 8 units. The scene
/// also has a few large enemies, with sides of 24 to 64 units. There is one enemy per
/// 2,000 boxes, with at least one and at most 50.
///
/// The field has about 200 square units per box. The rings crowd near their emitters.
/// So bullets overlap their neighbours there, and the rings of different emitters
/// cross.
///
#[doc = panics!()]
#[must_use]
pub fn bullet_hell(n: usize, seed: u64) -> Vec<Aabb> {
    Shape::BulletHell.generate(n, seed)
}

fn fill_bullet_hell(out: &mut Vec<Aabb>, n: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    let area = 200.0 * n.max(1) as f32;
    let width = (area * 16.0 / 9.0).sqrt();
    let height = area / width;
    let enemies = (n / 2000).clamp(1, 50).min(n);
    let bullets = n - enemies;
    let emitters = (bullets / 1500).max(1);
    let per_emitter = bullets.div_ceil(emitters);
    for e in 0..emitters {
        let c = Vec2::new(rng.range_f32(0.0, width), rng.range_f32(0.0, height));
        let count = per_emitter.min(bullets - out.len());
        let spiral = e % 3 == 2;
        let ring_size = 24 + rng.below(41) as usize; // 24..=64 bullets per ring
        let spacing = rng.range_f32(10.0, 18.0);
        let phase = rng.range_f32(0.0, core::f32::consts::TAU);
        let half = rng.range_f32(2.0, 4.0);
        for k in 0..count {
            let (angle, radius) = if spiral {
                // Several arms; each bullet a little further out and further round.
                let arms = 5.0;
                let arm = (k % 5) as f32;
                let step = (k / 5) as f32;
                (
                    phase + arm * core::f32::consts::TAU / arms + step * 0.12,
                    20.0 + step * spacing * 0.35,
                )
            } else {
                let ring = (k / ring_size) as f32;
                let slot = (k % ring_size) as f32;
                let offset = ring * 0.5; // alternate rings are staggered
                (
                    phase + (slot + offset) * core::f32::consts::TAU / ring_size as f32,
                    20.0 + ring * spacing,
                )
            };
            // Not `angle.sin_cos()`: the platform's maths library differs in the last bit.
            let (sin, cos) = crate::rng::sin_cos(angle);
            let p = c + Vec2::new(cos, sin) * radius;
            out.push(Aabb::from_center_half_extents(p, Vec2::splat(half)));
        }
    }
    for _ in 0..enemies {
        let c = Vec2::new(rng.range_f32(0.0, width), rng.range_f32(0.0, height));
        let h = Vec2::new(rng.range_f32(12.0, 32.0), rng.range_f32(12.0, 32.0));
        out.push(Aabb::from_center_half_extents(c, h));
    }
}

/// Boxes in Gaussian clusters.
///
/// There is one cluster per 2,000 boxes. Each cluster has a standard deviation of 3 to
/// 8 units. Each box has sides in `[0.5, 1.5)`. The scene is dense, with about a dozen
/// pairs per box.
///
#[doc = panics!()]
#[must_use]
pub fn clusters(n: usize, seed: u64) -> Vec<Aabb> {
    Shape::Clusters.generate(n, seed)
}

fn fill_clusters(out: &mut Vec<Aabb>, n: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    let k = (n / 2000).max(1);
    let side = 40.0 * (k as f32).sqrt() + 40.0;
    let centers: Vec<(Vec2, f32)> = (0..k)
        .map(|_| {
            (
                Vec2::new(rng.range_f32(0.0, side), rng.range_f32(0.0, side)),
                rng.range_f32(3.0, 8.0),
            )
        })
        .collect();
    out.extend((0..n).map(|i| {
        let (c, sigma) = centers[i % k];
        let p = c + Vec2::new(rng.normal_f32(), rng.normal_f32()) * sigma;
        let s = Vec2::new(rng.range_f32(0.5, 1.5), rng.range_f32(0.5, 1.5));
        Aabb::from_min_size(p, s)
    }));
}

/// Every box in one horizontal strip of height 1.
///
/// This case suits a plain sweep-and-prune and is hard for a grid. Centers lie one unit
/// apart, with jitter. Each box has sides in `[0.5, 1.5)`. The boxes come in shuffled
/// order.
///
#[doc = panics!()]
#[must_use]
pub fn horizontal_line(n: usize, seed: u64) -> Vec<Aabb> {
    Shape::HorizontalLine.generate(n, seed)
}

/// Every box in one vertical strip. This is [`horizontal_line`] with x and y swapped.
///
#[doc = panics!()]
#[must_use]
pub fn vertical_line(n: usize, seed: u64) -> Vec<Aabb> {
    Shape::VerticalLine.generate(n, seed)
}

/// The horizontal strip, or with `swap` its mirror about `y = x`.
fn fill_line(out: &mut Vec<Aabb>, n: usize, seed: u64, swap: bool) {
    let mut rng = Rng::new(seed);
    out.extend((0..n).map(|i| {
        let x = i as f32 + rng.range_f32(-0.3, 0.3);
        let w = rng.range_f32(0.5, 1.5);
        let y = rng.range_f32(0.0, 0.5);
        Aabb::from_coords(x, y, x + w, y + rng.range_f32(0.5, 1.0))
    }));
    shuffle(out, &mut rng);
    if swap {
        for b in out.iter_mut() {
            *b = Aabb::from_coords(b.min.y, b.min.x, b.max.y, b.max.x);
        }
    }
}

/// `n` copies of the unit box.
///
/// Every pair overlaps, so the scene has `n(n-1)/2` pairs.
///
#[doc = panics!()]
#[must_use]
pub fn identical(n: usize) -> Vec<Aabb> {
    Shape::Identical.generate(n, 0)
}

/// Many tiny boxes, plus a few huge ones.
///
/// The tiny boxes have sides in `[0.1, 0.5)`. They lie over a `side × side` square, with
/// `side = √(4n)`. There is one huge box per 10,000 boxes, and at least two. Each huge
/// box spans a quarter to the whole of the world, on one or both axes.
///
#[doc = panics!()]
#[must_use]
pub fn huge_and_tiny(n: usize, seed: u64) -> Vec<Aabb> {
    Shape::HugeAndTiny.generate(n, seed)
}

fn fill_huge_and_tiny(out: &mut Vec<Aabb>, n: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    let side = (4.0 * n as f32).sqrt().max(1.0);
    let huge = (n / 10_000).max(2).min(n);
    out.extend((0..n - huge).map(|_| {
        let p = Vec2::new(rng.range_f32(0.0, side), rng.range_f32(0.0, side));
        let s = Vec2::new(rng.range_f32(0.1, 0.5), rng.range_f32(0.1, 0.5));
        Aabb::from_min_size(p, s)
    }));
    for k in 0..huge {
        let w = side * rng.range_f32(0.25, 1.0);
        let h = if k % 2 == 0 {
            side * rng.range_f32(0.25, 1.0)
        } else {
            1.0
        };
        let p = Vec2::new(rng.range_f32(0.0, side - w), rng.range_f32(0.0, side - h));
        out.push(Aabb::from_min_size(p, Vec2::new(w, h)));
    }
    shuffle(out, &mut rng);
}

/// The [`uniform`] scene, with one box in a thousand parked far out of the field.
///
/// A game parks objects like this when it hides them instead of removing them.
///
/// A parked box sits at plus or minus half of [`MAX_COORDINATE`](crate::MAX_COORDINATE)
/// on one axis. On the other axis it lies anywhere along the field. So every store
/// accepts the scene. Parked boxes on the same spot overlap.
///
#[doc = panics!()]
#[must_use]
pub fn parked(n: usize, seed: u64) -> Vec<Aabb> {
    Shape::Parked.generate(n, seed)
}

fn fill_parked(out: &mut Vec<Aabb>, n: usize, seed: u64) {
    fill_uniform(out, n, seed);
    let mut rng = Rng::new(seed ^ 0x005e_ed0f_da7a);
    let side = (2.0 * n as f32).sqrt().max(1.0);
    for b in out.iter_mut().skip(rng.below(1000) as usize).step_by(1000) {
        let far = 0.5 * crate::math::MAX_COORDINATE;
        let far = if rng.below(2) == 0 { far } else { -far };
        let along = rng.range_f32(0.0, side).floor();
        let at = if rng.below(2) == 0 {
            Vec2::new(far, along)
        } else {
            Vec2::new(along, far)
        };
        *b = Aabb::from_min_size(at, b.size());
    }
}

/// Shuffles with Fisher–Yates and our own generator, which is stable across platforms.
///
/// `v` holds at most [`MAX_BOXES`](crate::MAX_BOXES) entries, so every `i + 1` fits a
/// `u32`.
fn shuffle<T>(v: &mut [T], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        v.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generators_are_exact_valid_and_seeded() {
        for shape in Shape::ALL {
            for n in [0, 1, 2, 7, 1000] {
                let a = shape.generate(n, 3);
                assert_eq!(a.len(), n, "{shape:?} n={n}");
                assert!(a.iter().all(|b| b.validate().is_ok()), "{shape:?}");
                assert_eq!(a, shape.generate(n, 3));
            }
            assert_eq!(Shape::from_name(shape.name()), Some(shape));
            if shape != Shape::Identical {
                assert_ne!(shape.generate(100, 1), shape.generate(100, 2), "{shape:?}");
            }
        }
    }

    #[test]
    fn bullet_hell_has_small_bullets_and_large_enemies() {
        let s = bullet_hell(10_000, 9);
        let small = s.iter().filter(|b| b.size().max_element() <= 8.0).count();
        let large = s.iter().filter(|b| b.size().min_element() >= 24.0).count();
        assert_eq!(large, 5);
        assert_eq!(small, 10_000 - 5);
    }
}
