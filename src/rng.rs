//! A tiny seeded pseudo-random generator (xoshiro256**, seeded through SplitMix64).
//!
//! Scene generators, tests and benchmarks use it so that a seed means the same scene on
//! every platform and in every version of this crate's dependencies. Not for
//! cryptography.
//!
//! **Not part of the API**: a test helper, public only so that the crate's own tests,
//! benchmarks and examples can use it (`hantei::rng::Rng`), and hidden from the
//! documentation. It may change or go away in any release; games should use a random
//! number crate of their choice.

/// A seeded xoshiro256** generator.
///
/// ```
/// let mut a = hantei::rng::Rng::new(7);
/// let mut b = hantei::rng::Rng::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// let x = a.range_f32(-1.0, 1.0);
/// assert!((-1.0..1.0).contains(&x));
/// ```
#[derive(Debug, Clone)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator whose whole stream is fixed by `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        let mut z = seed;
        let mut next = || {
            z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            x ^ (x >> 31)
        };
        Self {
            s: [next(), next(), next(), next()],
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform `f32` in `[0, 1)`.
    pub fn unit_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
    }

    /// A uniform `f32` in `[lo, hi)` (or `lo` when `hi <= lo`).
    pub fn range_f32(&mut self, lo: f32, hi: f32) -> f32 {
        let x = lo + (hi - lo) * self.unit_f32();
        if x < hi { x } else { lo }
    }

    /// A uniform integer in `[0, n)`; `0` when `n == 0`.
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * u64::from(n)) >> 32) as u32
    }

    /// A standard normal sample (Box–Muller).
    pub fn normal_f32(&mut self) -> f32 {
        let u1 = 1.0 - self.unit_f32(); // (0, 1]
        let u2 = self.unit_f32();
        (-2.0 * u1.ln()).sqrt() * (core::f32::consts::TAU * u2).cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_in_range() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        let mut c = Rng::new(43);
        let xs: Vec<u64> = (0..100).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..100).map(|_| b.next_u64()).collect();
        let zs: Vec<u64> = (0..100).map(|_| c.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
        let mut counts = [0u32; 10];
        for _ in 0..100_000 {
            let u = a.unit_f32();
            assert!((0.0..1.0).contains(&u));
            counts[(u * 10.0) as usize] += 1;
            assert!(a.below(7) < 7);
        }
        // Roughly uniform: every decile within 10% of its expectation.
        assert!(
            counts.iter().all(|&k| (9_000..11_000).contains(&k)),
            "{counts:?}"
        );
        assert_eq!(a.below(0), 0);
        let mean = (0..100_000).map(|_| a.normal_f32() as f64).sum::<f64>() / 1e5;
        assert!(mean.abs() < 0.02, "{mean}");
    }
}
