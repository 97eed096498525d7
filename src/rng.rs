//! A tiny seeded pseudo-random generator (xoshiro256**, seeded through SplitMix64).
//!
//! Scene generators, tests and benchmarks use it so that a seed means the same scene on
//! every platform and in every version of this crate's dependencies. Not for
//! cryptography.
//!
//! The same holds for the few elementary functions they need (the crate-private
//! `sin_cos` and `ln`): `f32::sin`, `f32::cos` and `f32::ln` call the platform's maths
//! library, whose last bit differs between platforms (glibc's `sinf`/`cosf` on x86-64
//! Linux and wasi-libc's on wasm32-wasip1 disagree on about one angle in eighty), so a
//! bullet-hell or cluster scene generated on one was not the scene generated on the
//! other. Ours use IEEE-754 `+ - * /` alone, in `f64`, rounded once to `f32`.
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
        (-2.0 * ln(u1)).sqrt() * sin_cos(core::f32::consts::TAU * u2).1
    }
}

/// `(sin x, cos x)`, the same bits on every platform (see the module docs): the
/// correctly rounded values but for inputs within about 2⁻²⁹ ulp of a rounding boundary,
/// for `|x| < 2²⁰`; NaN for infinite or NaN `x`. Larger angles lose accuracy (still the
/// same bits everywhere).
#[must_use]
pub(crate) fn sin_cos(x: f32) -> (f32, f32) {
    if !x.is_finite() {
        return (f32::NAN, f32::NAN);
    }
    // π/2 as a 33-bit head and its tail (Cody-Waite): `k * PIO2_HI` is exact for
    // `|k| < 2²⁰`, so `x - k * PIO2_HI` is too.
    const PIO2_HI: f64 = f64::from_bits(0x3ff9_21fb_5440_0000); // 1.5707963267341256
    const PIO2_LO: f64 = f64::from_bits(0x3dd0_b461_1a62_6331); // 6.077100506506192e-11
    let x = f64::from(x);
    let t = x * core::f64::consts::FRAC_2_PI;
    // Round to the nearest quadrant; `as` saturates, so a huge `x` stays defined.
    let k = if t >= 0.0 { t + 0.5 } else { t - 0.5 } as i64;
    let kf = k as f64;
    let r = (x - kf * PIO2_HI) - kf * PIO2_LO;
    // Taylor series on |r| <= π/4 (plus rounding slack): the first omitted terms,
    // r¹⁹/19! and r²⁰/20!, are below 10⁻¹⁹.
    let z = r * r;
    let mut sin = SIN_TAYLOR[SIN_TAYLOR.len() - 1];
    for &c in SIN_TAYLOR.iter().rev().skip(1) {
        sin = sin * z + c;
    }
    let sin = sin * r;
    let mut cos = COS_TAYLOR[COS_TAYLOR.len() - 1];
    for &c in COS_TAYLOR.iter().rev().skip(1) {
        cos = cos * z + c;
    }
    let (s, c) = match k & 3 {
        0 => (sin, cos),
        1 => (cos, -sin),
        2 => (-sin, -cos),
        _ => (-cos, sin),
    };
    (s as f32, c as f32)
}

/// `(-1)ⁿ / (2n + 1)!` for `n = 0..9`: `sin r = r · Σ SIN_TAYLOR[n] · r²ⁿ`.
const SIN_TAYLOR: [f64; 9] = taylor(1);
/// `(-1)ⁿ / (2n)!` for `n = 0..10`: `cos r = Σ COS_TAYLOR[n] · r²ⁿ`.
const COS_TAYLOR: [f64; 10] = taylor(0);

/// `(-1)ⁿ / (2n + first)!` for `n = 0..N`, each computed as one correctly rounded
/// division of exact integers (the factorials up to 19! are exact in `f64`).
const fn taylor<const N: usize>(first: u64) -> [f64; N] {
    let mut out = [0.0; N];
    let mut n = 0;
    while n < N {
        let mut fact: u64 = 1;
        let mut i = 2;
        while i <= 2 * n as u64 + first {
            fact *= i;
            i += 1;
        }
        let sign = if n % 2 == 0 { 1.0 } else { -1.0 };
        out[n] = sign / fact as f64;
        n += 1;
    }
    out
}

/// The natural logarithm, the same bits on every platform (see the module docs): the
/// correctly rounded value but for inputs within about 2⁻²⁹ ulp of a rounding
/// boundary. `-∞` at zero, NaN below zero or at NaN, `+∞` at `+∞`.
#[must_use]
pub(crate) fn ln(x: f32) -> f32 {
    if x.is_nan() || x < 0.0 {
        return f32::NAN;
    }
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    if x == f32::INFINITY {
        return x;
    }
    // x = m · 2^e with m in [√½, √2): scale subnormals up first.
    let (x, mut e) = if x < f32::MIN_POSITIVE {
        (x * (1u32 << 24) as f32, -24)
    } else {
        (x, 0)
    };
    let bits = x.to_bits();
    e += ((bits >> 23) & 0xff) as i32 - 127;
    let mut m = f64::from(f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000));
    if m > core::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    // ln m = 2 atanh s, s = (m - 1) / (m + 1), |s| <= 0.172: the series' first omitted
    // term, 2 s²³ / 23, is below 10⁻¹⁸.
    let s = (m - 1.0) / (m + 1.0);
    let z = s * s;
    let mut sum = 1.0 / 21.0;
    let mut k = 19.0;
    while k > 0.0 {
        sum = sum * z + 1.0 / k;
        k -= 2.0;
    }
    let ln_m = 2.0 * s * sum;
    (f64::from(e) * core::f64::consts::LN_2 + ln_m) as f32
}

/// Property tests' inputs: what the unit tests draw from a seeded generator.
#[cfg(test)]
impl Rng {
    /// A uniform integer in `[lo, hi)`; `lo` when `hi <= lo`.
    pub(crate) fn range_u32(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below(hi.saturating_sub(lo))
    }

    /// `true` with probability `p`.
    pub(crate) fn chance(&mut self, p: f32) -> bool {
        self.unit_f32() < p
    }

    /// One of `items`, each as likely.
    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u32) as usize]
    }

    /// An index into `weights`, each drawn in proportion to its weight.
    pub(crate) fn weighted(&mut self, weights: &[u32]) -> usize {
        let mut r = self.below(weights.iter().sum());
        for (i, &w) in weights.iter().enumerate() {
            if r < w {
                return i;
            }
            r -= w;
        }
        weights.len() - 1
    }
}

/// Runs `check` on `cases` random cases, each from a generator of its own seed, so a
/// failure names the one case to rerun. `HANTEI_CASES` asks for another number of
/// cases (long runs).
#[cfg(test)]
pub(crate) fn for_cases(name: &str, cases: u32, mut check: impl FnMut(&mut Rng)) {
    /// Names the failing case when a check panics.
    struct Case<'a>(&'a str, u64);
    impl Drop for Case<'_> {
        fn drop(&mut self) {
            if std::thread::panicking() {
                eprintln!("{}: failed on the case of seed {:#x}", self.0, self.1);
            }
        }
    }
    let cases = std::env::var("HANTEI_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(cases);
    let base = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    for k in 0..u64::from(cases) {
        let case = Case(name, base ^ k);
        check(&mut Rng::new(case.1));
        drop(case);
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

    /// The elementary functions agree with the correctly rounded values (the `f64`
    /// maths library's, rounded to `f32`) nearly everywhere, and within one ulp
    /// everywhere.
    #[test]
    fn sin_cos_and_ln_are_accurate() {
        let ulps = |a: f32, b: f32| (a.to_bits() as i32 - b.to_bits() as i32).unsigned_abs();
        let mut rng = Rng::new(9);
        let mut off = 0;
        let n = 200_000;
        for k in 0..n {
            let x = if k % 2 == 0 {
                rng.range_f32(-8.0, 8.0)
            } else {
                rng.range_f32(-1000.0, 1000.0)
            };
            let (s, c) = sin_cos(x);
            let (ws, wc) = ((x as f64).sin() as f32, (x as f64).cos() as f32);
            assert!(
                ulps(s, ws) <= 1 && ulps(c, wc) <= 1,
                "{x}: {s} {ws} / {c} {wc}"
            );
            off += usize::from(s != ws) + usize::from(c != wc);
            let y = f32::from_bits(rng.next_u64() as u32 & 0x7f7f_ffff);
            let (l, wl) = (ln(y), (y as f64).ln() as f32);
            assert!(ulps(l, wl) <= 1, "ln {y:e}: {l:e} {wl:e}");
            off += usize::from(l != wl);
        }
        assert!(off < 5, "{off} of {} values not correctly rounded", 3 * n);
        assert_eq!(sin_cos(0.0), (0.0, 1.0));
        assert_eq!(ln(1.0), 0.0);
        assert_eq!(ln(0.0), f32::NEG_INFINITY);
        assert!(ln(-1.0).is_nan() && ln(f32::NAN).is_nan() && sin_cos(f32::INFINITY).0.is_nan());
        assert_eq!(ln(f32::INFINITY), f32::INFINITY);
        assert_eq!(
            ln(f32::from_bits(1)),
            (f32::from_bits(1) as f64).ln() as f32
        );
    }

    /// Bits that every platform must reproduce (the determinism check in `.ci/wasm`
    /// compares whole scenes; these pin the functions themselves). The first input is
    /// one where glibc's `cosf` (`0x3f34c826`) and wasi-libc's (`0x3f34c827`, the
    /// correctly rounded value) disagree.
    #[test]
    fn sin_cos_and_ln_bits_are_pinned() {
        let got: Vec<u32> = [f32::from_bits(0x3f49_65c8), 2.5, -40.0, 1234.5]
            .iter()
            .flat_map(|&x| {
                let (s, c) = sin_cos(x);
                [s.to_bits(), c.to_bits()]
            })
            .chain(
                [1e-30f32, 0.1, 0.75, 3.0e38]
                    .iter()
                    .map(|&x| ln(x).to_bits()),
            )
            .collect();
        assert_eq!(got, PINNED);
    }

    /// `sin, cos` of the four angles, then `ln` of the four values.
    const PINNED: [u32; 12] = [
        0x3f35_41ab,
        0x3f34_c827,
        0x3f19_3578,
        0xbf4d_17bf,
        0xbf3e_bfbc,
        0xbf2a_bc74,
        0x3e14_e299,
        0xbf7d_4796,
        0xc28a_27b5,
        0xc013_5d8e,
        0xbe93_4b11,
        0x42b1_3196,
    ];
}
