//! Turning raw fuzz bytes into inputs biased toward the edge cases.
//!
//! A [`Bytes`] cursor never fails: once the bytes run out every read gives zero, so every
//! byte string decodes to *some* input and a fuzzer's mutations always reach the code
//! under test. The float readers spend most of the byte space on a small integer grid
//! (boxes that touch, nest and coincide exactly) and the rest on the special values
//! below, on values scaled to huge and tiny magnitudes, and on raw bit patterns.

use crate::MAX_COORDINATE;
use crate::{Aabb, Filter};
use glam::Vec2;

/// The values every float reader favours.
pub(crate) const SPECIAL_F32: [f32; 24] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MIN_POSITIVE,
    -f32::MIN_POSITIVE,
    1.0e-40,  // a denormal
    -1.0e-45, // the smallest negative denormal (rounds to -1 ulp)
    f32::MAX,
    f32::MIN,
    1.0e30,
    -1.0e30,
    16_777_216.0, // 2^24: above it, f32 steps exceed 1
    1.0e6,
    f32::EPSILON,
    3.0e38,
    // The coordinate limit, on it and one f32 step beyond.
    MAX_COORDINATE,
    -MAX_COORDINATE,
    100_000_008.0,
    -100_000_008.0,
];

/// Scales applied to grid values: from denormal steps to near overflow. The grid's
/// values times `MAX_COORDINATE / 32` reach three quarters of the coordinate limit.
const SCALES: [f32; 9] = [
    1.0e-40,
    1.0e-20,
    1.0e-3,
    1.0e3,
    1.0e6,
    MAX_COORDINATE / 32.0,
    1.0e12,
    1.0e30,
    1.0e37,
];

/// A cursor over fuzz bytes; reads past the end give zeros.
#[derive(Debug, Clone)]
pub(crate) struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    /// A cursor at the start of `data`.
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Self { data, pos: 0 }
    }

    /// Whether every byte has been read.
    pub(crate) fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// The next byte (0 past the end).
    pub(crate) fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// The next four bytes, little-endian.
    pub(crate) fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    /// A value in `0..n` from one byte (`0` when `n == 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        usize::from(self.u8()) % n.max(1)
    }

    /// One bit of a byte.
    pub(crate) fn bool(&mut self) -> bool {
        self.u8() & 1 == 1
    }

    /// An `f32` biased toward edge cases: half the time a small grid value (`-8..24` in
    /// quarter steps, many exact ties), else a special value, a grid value at an
    /// extreme scale, or raw bits.
    pub(crate) fn f32_edge(&mut self) -> f32 {
        let tag = self.u8();
        match tag {
            0..=127 => grid(tag),
            128..=191 => SPECIAL_F32[usize::from(tag - 128) % SPECIAL_F32.len()],
            192..=223 => grid(self.u8()) * SCALES[usize::from(tag) % SCALES.len()],
            _ => f32::from_bits(self.u32()),
        }
    }

    /// Two [`Bytes::f32_edge`] values.
    pub(crate) fn vec2_edge(&mut self) -> Vec2 {
        Vec2::new(self.f32_edge(), self.f32_edge())
    }

    /// A box biased toward edge cases. With `dirty`, raw coordinates may be NaN,
    /// infinite or inverted; without, every box is valid.
    ///
    /// Kinds, by the first byte: a box on the integer grid (zero-size on one or both
    /// axes a quarter of the time each) scaled by `scale`; a copy of `prev`; a box
    /// touching `prev` at an edge or a corner; or four [`Bytes::f32_edge`] coordinates.
    pub(crate) fn aabb(&mut self, prev: Option<Aabb>, scale: f32, dirty: bool) -> Aabb {
        let kind = self.u8();
        let b = match (kind, prev) {
            (0..=159, _) | (160..=223, None) => {
                let (x, y, wh) = (self.u8(), self.u8(), self.u8());
                let x = f32::from(x % 32) - 8.0;
                let y = f32::from(y % 32) - 8.0;
                let w = f32::from(wh & 3);
                let h = f32::from((wh >> 2) & 3);
                Aabb::from_coords(x * scale, y * scale, (x + w) * scale, (y + h) * scale)
            }
            (160..=191, Some(p)) => p,
            (192..=223, Some(p)) => {
                // Share p's max edge on x, on y, or both (a corner), possibly zero-size.
                let (sx, sy) = (f32::from(self.u8() & 3), f32::from(self.u8() & 3));
                let (x0, y0) = match kind & 3 {
                    0 => (p.max.x, p.min.y),
                    1 => (p.min.x, p.max.y),
                    2 => (p.max.x, p.max.y),
                    _ => (p.min.x - sx * scale, p.min.y),
                };
                Aabb::from_coords(x0, y0, x0 + sx * scale, y0 + sy * scale)
            }
            _ => Aabb::from_coords(
                self.f32_edge(),
                self.f32_edge(),
                self.f32_edge(),
                self.f32_edge(),
            ),
        };
        if dirty { b } else { clean(b) }
    }

    /// A scale for a whole scene: `1` three times in four, else an extreme one.
    pub(crate) fn scale(&mut self) -> f32 {
        let s = self.u8();
        if s < 192 {
            1.0
        } else {
            SCALES[usize::from(s) % SCALES.len()]
        }
    }
}

/// `-8..24` in quarter steps.
fn grid(b: u8) -> f32 {
    f32::from(b % 128) * 0.25 - 8.0
}

/// A finite stand-in: NaN becomes 0, infinities the largest finite values.
pub(crate) fn finite(v: f32) -> f32 {
    if v.is_nan() {
        0.0
    } else {
        v.clamp(f32::MIN, f32::MAX)
    }
}

/// The valid box with the same (finite stand-in) coordinates, corners sorted.
pub(crate) fn clean(b: Aabb) -> Aabb {
    let [x0, y0, x1, y1] = [b.min.x, b.min.y, b.max.x, b.max.y].map(finite);
    Aabb::from_coords(x0.min(x1), y0.min(y1), x0.max(x1), y0.max(y1))
}

/// Whether two boxes have the same bits (`-0.0 != 0.0`, NaN equals itself).
pub(crate) fn same_bits(a: &Aabb, b: &Aabb) -> bool {
    bytemuck::bytes_of(a) == bytemuck::bytes_of(b)
}

/// A filter from one byte: few layers, so that filters often agree; `0xff` pairs with
/// nothing, `0xfe` with everything.
pub(crate) fn filter_from(b: u8) -> Filter {
    match b {
        0xff => Filter::new(0, 0),
        0xfe => Filter::ALL,
        _ => {
            let f = Filter::new(
                1 << (b & 3),
                (1 << ((b >> 2) & 3)) | u32::from(b >> 4 & 1) << 1,
            );
            // Sometimes only some of the paired layers are solid.
            if b & 0x20 != 0 {
                f.with_solid(f.mask & 0b0101)
            } else {
                f
            }
        }
    }
}
