//! The shape of a box in a [`BoxStore`](crate::BoxStore). It is an axis-aligned box, a
//! disc, an oriented rectangle or a capsule.

use super::{Aabb, Capsule, Circle, Obb2};
use crate::error::Error;

/// The true shape of a box in a [`BoxStore`](crate::BoxStore).
///
/// The frame's exact tests and the scene queries use the shape. The store computes the
/// box's bounds from it, and the broad phase sweeps those bounds. So a disc cannot be
/// given a wrong box.
///
/// - [`Shape::Aabb`] is the box itself. It is the default, and what
///   [`BoxStore::insert`](crate::BoxStore::insert) stores.
/// - [`Shape::Circle`] is a closed disc, such as a round bullet or a player's hitbox.
///   Its bounds are `center ± radius`.
/// - [`Shape::Obb2`] is an oriented rectangle, such as a laser or a sword swing. Its
///   bounds are [`Obb2::aabb`]. Over a frame it moves by the box's motion, and its
///   rotation stays the same.
/// - [`Shape::Capsule`] is a segment with a radius, such as a laser or a character.
///   Its bounds are [`Capsule::aabb`]. Over a frame it moves by the box's motion, and
///   its rotation stays the same.
///
/// ```
/// use hantei::{Circle, Shape};
/// use glam::Vec2;
/// let bullet = Shape::Circle(Circle::new(Vec2::new(10.0, 5.0), 2.0));
/// let b = bullet.bounds(); // 8..12 × 3..7, two ulps wider on each side
/// assert!(b.min.x < 8.0 && b.min.x > 7.9999 && b.max.y > 7.0 && b.max.y < 7.0001);
/// assert!(Shape::Circle(Circle::new(Vec2::ZERO, -1.0)).validate().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Shape {
    /// An axis-aligned box.
    Aabb(Aabb),
    /// A disc.
    Circle(Circle),
    /// An oriented rectangle.
    Obb2(Obb2),
    /// A capsule: a segment with a radius.
    Capsule(Capsule),
}

/// `b` grown outward by two ulps on each side: what [`Shape::bounds`] does to a disc's,
/// a rectangle's or a capsule's box.
#[inline]
#[must_use]
pub(crate) fn grow(b: Aabb) -> Aabb {
    Aabb::from_coords(down2(b.min.x), down2(b.min.y), up2(b.max.x), up2(b.max.y))
}

/// [`grow`] for bounds without NaN, in integer steps alone (no branch): the same bits.
#[inline(always)]
pub(crate) fn grow_finite(b: Aabb) -> Aabb {
    let (lo, hi) = (b.min, b.max);
    Aabb::from_coords(
        down2_finite(lo.x),
        down2_finite(lo.y),
        up2_finite(hi.x),
        up2_finite(hi.y),
    )
}

/// The integer that orders floats as `<` does: `+0.0` and `-0.0` both map to `0`, a
/// step of one is one ulp. NaN maps somewhere; the callers pass NaN through.
#[inline(always)]
fn float_key(x: f32) -> i32 {
    let b = x.to_bits() as i32;
    let m = b >> 31; // all ones for a negative sign
    ((b & 0x7fff_ffff) ^ m) - m
}

/// The float of an ordering key not `0`.
#[inline(always)]
fn from_key(k: i32) -> u32 {
    let m = k >> 31;
    (((k ^ m) - m) as u32) | (m as u32 & 0x8000_0000)
}

/// `x.next_up().next_up()`, without branches: the same bits for every input.
#[inline(always)]
pub(crate) fn up2(x: f32) -> f32 {
    let k = (float_key(x) + 2).min(0x7f80_0000);
    // Key 0 comes from two steps up from `-2` subnormal ulps, through `-0.0`.
    let bits = if k == 0 { 0x8000_0000 } else { from_key(k) };
    if x.is_nan() { x } else { f32::from_bits(bits) }
}

/// `x.next_down().next_down()`, without branches: the same bits for every input.
#[inline(always)]
pub(crate) fn down2(x: f32) -> f32 {
    let k = (float_key(x) - 2).max(-0x7f80_0000);
    // Key 0 comes from two steps down from `2` subnormal ulps, through `+0.0`.
    let bits = if k == 0 { 0 } else { from_key(k) };
    if x.is_nan() { x } else { f32::from_bits(bits) }
}

/// [`up2`] for a value that is not NaN, in integer steps alone (no select on the
/// value): what a vectorised loop can use.
#[inline(always)]
pub(crate) fn up2_finite(x: f32) -> f32 {
    let k = (float_key(x) + 2).min(0x7f80_0000);
    // Key 0 comes from two steps up from `-2` subnormal ulps, through `-0.0`.
    f32::from_bits(from_key(k) | (u32::from(k == 0) << 31))
}

/// [`down2`] for a value that is not NaN, in integer steps alone.
#[inline(always)]
pub(crate) fn down2_finite(x: f32) -> f32 {
    f32::from_bits(from_key((float_key(x) - 2).max(-0x7f80_0000)))
}

/// Which kind a [`Shape`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum ShapeKind {
    /// [`Shape::Aabb`].
    Aabb = 0,
    /// [`Shape::Circle`].
    Circle = 1,
    /// [`Shape::Obb2`].
    Obb2 = 2,
    /// [`Shape::Capsule`].
    Capsule = 3,
}

impl Default for Shape {
    fn default() -> Self {
        Shape::Aabb(Aabb::default())
    }
}

impl From<Aabb> for Shape {
    fn from(b: Aabb) -> Self {
        Shape::Aabb(b)
    }
}

impl From<Circle> for Shape {
    fn from(c: Circle) -> Self {
        Shape::Circle(c)
    }
}

impl From<Obb2> for Shape {
    fn from(o: Obb2) -> Self {
        Shape::Obb2(o)
    }
}

impl From<Capsule> for Shape {
    fn from(c: Capsule) -> Self {
        Shape::Capsule(c)
    }
}

impl Shape {
    /// The shape's kind.
    #[must_use]
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Aabb(_) => ShapeKind::Aabb,
            Shape::Circle(_) => ShapeKind::Circle,
            Shape::Obb2(_) => ShapeKind::Obb2,
            Shape::Capsule(_) => ShapeKind::Capsule,
        }
    }

    /// An axis-aligned box that contains the shape. The broad phase tests this box.
    ///
    /// For a [`Shape::Aabb`], it is the box itself. For a disc, an oriented rectangle or
    /// a capsule, it is [`Circle::aabb`], [`Obb2::aabb`] or [`Capsule::aabb`] grown
    /// outward by two ulps on each side.
    /// The growth makes the bounds contain the exact shape despite the rounding of
    /// `center ± extent`. So the broad phase never loses a contact exactly at the rim.
    #[must_use]
    pub fn bounds(&self) -> Aabb {
        match self {
            Shape::Aabb(b) => *b,
            Shape::Circle(c) => grow(c.aabb()),
            Shape::Obb2(o) => grow(o.aabb()),
            Shape::Capsule(c) => grow(c.aabb()),
        }
    }

    /// The bounds of the shape at every angle of a turn by `turn` radians about its
    /// centre, grown for rounding like [`Shape::bounds`]. For a turn of zero, and for a
    /// plain box or a disc, they are [`Shape::bounds`].
    ///
    /// A small turn gives the bounds at both ends of the turn, a little wider for the
    /// arc between them. A quarter turn or more gives the square around the disc that
    /// the shape sweeps.
    ///
    /// ```
    /// use hantei::{Obb2, Shape};
    /// use glam::Vec2;
    /// let laser = Shape::Obb2(Obb2::new(Vec2::ZERO, Vec2::X, Vec2::new(10.0, 1.0)));
    /// let b = laser.turn_bounds(core::f32::consts::FRAC_PI_2);
    /// assert!(b.min.y <= -10.0 && b.max.y >= 10.0 && b.max.x >= 10.0);
    /// assert_eq!(laser.turn_bounds(0.0), laser.bounds());
    /// ```
    #[must_use]
    pub fn turn_bounds(&self, turn: f32) -> Aabb {
        match self {
            Shape::Obb2(_) | Shape::Capsule(_) if turn != 0.0 => {
                grow(super::turn_bounds(self, turn))
            }
            _ => self.bounds(),
        }
    }

    /// The shape turned by `angle` radians, counter-clockwise about its centre: a
    /// rectangle about its `center`, a capsule about the middle of its segment.
    ///
    /// A disc is unchanged. A plain box cannot turn and is returned unchanged. The
    /// store turns a shape this way when [`Frame::advance`](crate::frame::Frame::advance)
    /// moves it by its turn ([`BoxStore::set_turn`](crate::BoxStore::set_turn)). The
    /// sine and cosine are computed without the platform's maths library, so the
    /// result has the same bits on every machine.
    ///
    /// ```
    /// use hantei::{Capsule, Shape};
    /// use glam::Vec2;
    /// let laser = Shape::Capsule(Capsule::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0), 1.0));
    /// let Shape::Capsule(c) = laser.turned(core::f32::consts::FRAC_PI_2) else { unreachable!() };
    /// assert!((c.a - Vec2::new(0.0, -10.0)).length() < 1e-5);
    /// assert!((c.b - Vec2::new(0.0, 10.0)).length() < 1e-5);
    /// ```
    #[must_use]
    pub fn turned(&self, angle: f32) -> Shape {
        super::turn_shape(self, angle)
    }

    /// The shape moved by `offset`. A rectangle or a capsule keeps its rotation.
    #[must_use]
    pub fn translated(&self, offset: glam::Vec2) -> Shape {
        match self {
            Shape::Aabb(b) => Shape::Aabb(b.translated(offset)),
            Shape::Circle(c) => Shape::Circle(Circle::new(c.center + offset, c.radius)),
            Shape::Obb2(o) => Shape::Obb2(Obb2::new(o.center + offset, o.axis, o.half_extents)),
            Shape::Capsule(c) => Shape::Capsule(c.translated(offset)),
        }
    }

    /// Checks the shape and its bounds.
    ///
    /// # Errors
    /// - [`Error::InvalidBox`] for a NaN, infinite or inverted box, or for a finite
    ///   shape whose bounds overflow `f32`.
    /// - [`Error::InvalidShape`] for a disc with a NaN, infinite or negative value.
    /// - [`Error::InvalidShape`] for an oriented rectangle that [`Obb2::validate`]
    ///   refuses: a value is not finite, a half extent is negative, or the axis is not a
    ///   unit vector.
    /// - [`Error::InvalidShape`] for a capsule with a NaN or infinite value, or a
    ///   negative radius.
    ///
    /// The error names index 0. Calls that check many shapes name the shape's own index
    /// instead.
    pub fn validate(&self) -> Result<(), Error> {
        self.check(0)
    }

    /// [`Shape::validate`], naming `index`.
    pub(crate) fn check(&self, index: usize) -> Result<(), Error> {
        self.checked_bounds(index).map(|_| ())
    }

    /// [`Shape::validate`], naming `index`, and the shape's [`Shape::bounds`] that it
    /// checked.
    ///
    /// A valid shape's values are finite, so its box has no NaN. An overflow can give
    /// it an infinite side, and the box's check refuses that. So the bounds grow with
    /// [`grow_finite`], which skips the NaN checks and gives the same bits.
    pub(crate) fn checked_bounds(&self, index: usize) -> Result<Aabb, Error> {
        let (reason, aabb) = match self {
            Shape::Aabb(b) => {
                b.check(index)?;
                return Ok(*b);
            }
            Shape::Circle(c) => (c.validate().err(), c.aabb()),
            Shape::Obb2(o) => (o.validate().err(), o.aabb()),
            Shape::Capsule(c) => (c.validate().err(), c.aabb()),
        };
        if let Some(reason) = reason {
            return Err(Error::InvalidShape { index, reason });
        }
        let bounds = grow_finite(aabb);
        bounds.check(index)?;
        Ok(bounds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// `checked_bounds` answers as `validate` then `bounds` do: the same error, or the
    /// same bounds bit for bit. Shapes of every kind with ordinary values, values near
    /// `f32::MAX` (the box overflows), NaN and infinite values, and negative sizes.
    #[test]
    fn checked_bounds_are_the_checked_shape_s_bounds() {
        let mut rng = Rng::new(0xb0b);
        let value = |rng: &mut Rng| match rng.below(8) {
            0 => f32::MAX * rng.range_f32(-1.0, 1.0),
            1 => [f32::NAN, f32::INFINITY, -f32::INFINITY, -1.0][rng.below(4) as usize],
            _ => rng.range_f32(-1000.0, 1000.0),
        };
        let (mut valid, mut refused) = (0, 0);
        for _ in 0..100_000 {
            let v: [f32; 6] = core::array::from_fn(|_| value(&mut rng));
            let p = |k: usize| glam::Vec2::new(v[k], v[k + 1]);
            let angle = rng.range_f32(-4.0, 4.0);
            let shape = match rng.below(4) {
                0 => Shape::Aabb(Aabb::from_coords(v[0], v[1], v[2], v[3])),
                1 => Shape::Circle(Circle::new(p(0), v[2].abs() * v[3].signum())),
                2 => Shape::Obb2(Obb2::from_angle(p(0), p(2).abs(), angle)),
                _ => Shape::Capsule(Capsule::new(p(0), p(2), v[4].abs())),
            };
            // The check as it was written before `checked_bounds`: the shape's own
            // validation, then its bounds' check.
            let reason = match shape {
                Shape::Aabb(_) => None,
                Shape::Circle(c) => c.validate().err(),
                Shape::Obb2(o) => o.validate().err(),
                Shape::Capsule(c) => c.validate().err(),
            };
            let want = match reason {
                Some(reason) => Err(Error::InvalidShape { index: 0, reason }),
                None => {
                    let b = shape.bounds();
                    b.check(0).map(|()| b)
                }
            };
            let got = shape.checked_bounds(0);
            match (&got, &want) {
                (Ok(g), Ok(w)) => {
                    valid += 1;
                    assert_eq!(
                        [g.min.x, g.min.y, g.max.x, g.max.y].map(f32::to_bits),
                        [w.min.x, w.min.y, w.max.x, w.max.y].map(f32::to_bits),
                        "{shape:?}"
                    );
                }
                _ => {
                    refused += 1;
                    assert_eq!(got, want, "{shape:?}");
                }
            }
        }
        assert!(valid > 10_000 && refused > 10_000, "{valid} {refused}");
    }

    /// The branch-free two-ulp steps give `next_up` / `next_down` twice, bit for bit,
    /// on the edge cases (zeros, subnormals, the largest finite values, infinities, NaN)
    /// and on a million random bit patterns.
    #[test]
    fn two_ulp_steps_match_next_up_and_next_down() {
        let check = |x: f32| {
            let (up, down) = (x.next_up().next_up(), x.next_down().next_down());
            assert_eq!(
                up2(x).to_bits(),
                up.to_bits(),
                "up2({x:e}) bits {:#x}",
                x.to_bits()
            );
            assert_eq!(
                down2(x).to_bits(),
                down.to_bits(),
                "down2({x:e}) bits {:#x}",
                x.to_bits()
            );
            assert_eq!(up2_finite(x).to_bits(), up.to_bits(), "up2_finite({x:e})");
            assert_eq!(
                down2_finite(x).to_bits(),
                down.to_bits(),
                "down2_finite({x:e})"
            );
            // Each side of `grow_finite` steps its own way.
            let b = Aabb::from_coords(x, -x, x, -x);
            let (g, f) = (grow(b), grow_finite(b));
            assert_eq!(
                [f.min.x, f.min.y, f.max.x, f.max.y].map(f32::to_bits),
                [g.min.x, g.min.y, g.max.x, g.max.y].map(f32::to_bits),
                "grow_finite of {x:e}"
            );
        };
        let edges = [
            0.0,
            -0.0,
            f32::from_bits(1),
            f32::from_bits(2),
            f32::from_bits(3),
            -f32::from_bits(1),
            -f32::from_bits(2),
            -f32::from_bits(3),
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::MAX,
            f32::MIN,
            f32::MAX.next_down(),
            f32::MIN.next_up(),
            f32::INFINITY,
            f32::NEG_INFINITY,
            1.0,
            -1.0,
        ];
        for x in edges {
            check(x);
        }
        let nan = f32::NAN;
        assert!(up2(nan).is_nan() && down2(nan).is_nan());
        let mut rng = Rng::new(7);
        for _ in 0..1_000_000 {
            let x = f32::from_bits(rng.next_u64() as u32);
            if x.is_nan() {
                assert!(up2(x).is_nan() && down2(x).is_nan());
            } else {
                check(x);
            }
        }
    }
}
