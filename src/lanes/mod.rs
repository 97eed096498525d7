//! SIMD lanes: the only module that imports `wide` or `core::arch`.
//!
//! Kernels are written once, generic over [`F32W`] (eight `f32` lanes) and its mask
//! [`MaskW`], and run in one of three flavours chosen by [`SimdLevel`]:
//!
//! | level | lane type | how it is compiled |
//! |---|---|---|
//! | [`SimdLevel::Scalar`] | none: the plain scalar reference kernels | any target |
//! | [`SimdLevel::Portable`] | `wide::f32x8` ([`PortableW`]) | baseline target (SSE2 on x86-64: two 128-bit halves) |
//! | [`SimdLevel::Avx2`] | `__m256` (`Avx2W`) | `#[target_feature]` AVX2, FMA, POPCNT, BMI1/2, LZCNT, chosen at run time |
//! | [`SimdLevel::Avx512`] | `__m256` (`Avx2W`) | as AVX2, plus AVX-512 F/VL/BW/DQ for the kernels that opt in ([`SimdTask::AVX512`]) |
//!
//! `wide` picks its instructions at compile time, so a default build runs `f32x8` as two
//! SSE halves even on an AVX2 machine, and calling it inside a `#[target_feature]`
//! function does not change that. The `Avx2W` lane type calls `core::arch` intrinsics
//! directly; a generic kernel instantiated with it and inlined into a
//! `#[target_feature(enable = "avx2,fma,popcnt,bmi1,bmi2,lzcnt")]` function (see
//! [`dispatch`]) compiles to true 256-bit code in a default build.
//!
//! # Bit-identical flavours
//! Both lane types implement every operation with the same IEEE-754 semantics: `+ - * /`
//! and `sqrt` are correctly rounded; no fused multiply-add is ever emitted (FMA would
//! round once instead of twice); `min`/`max` are defined as `if a < b { a } else { b }`
//! and `if a > b { a } else { b }` lane by lane (the x86 `minps`/`maxps` rule, NaN and
//! `-0.0` included). So the Portable and AVX2 paths give bit-identical results, which
//! the tests check.

mod portable;
pub use portable::PortableW;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
use avx2::Avx2W;

use core::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};

/// Number of `f32` lanes the SIMD kernels process at once: eight, at every
/// [`SimdLevel`] but `Scalar` (the lane type is [`narrow::F32W`](crate::narrow::F32W)).
pub const LANES: usize = 8;

/// Eight `f32` lanes.
///
/// Implemented by [`PortableW`] (`wide::f32x8`) and, on x86-64, by an AVX2 type that
/// only exists inside the crate's runtime dispatcher.
pub trait F32W:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// The mask type that comparisons return.
    type Mask: MaskW;
    /// Whether [`F32W::compress_records`] runs in registers. Where it does not (the
    /// default method), a loop over the kept lanes' records is faster.
    const PACKS_RECORDS: bool = false;
    /// Whether chunk loops should read records back from lane arrays one group late
    /// (`HitLanes::DEFERRED` in the narrow batches): a win where the lanes are one
    /// register (AVX2: 2D oriented boxes 5-8% faster), a loss where they are two halves
    /// that the deferral spills (portable: 35% slower).
    const DEFERS_RECORDS: bool = false;
    /// All lanes equal to `x`.
    fn splat(x: f32) -> Self;
    /// Lanes from an array.
    fn from_array(a: [f32; LANES]) -> Self;
    /// Lanes to an array.
    fn to_array(self) -> [f32; LANES];
    /// Loads `s[0..8]`.
    ///
    /// # Panics
    /// If `s.len() < 8`.
    fn load(s: &[f32]) -> Self;
    /// Stores the lanes in `s[0..8]`.
    ///
    /// # Panics
    /// If `s.len() < 8`.
    fn store(self, s: &mut [f32]);
    /// `if a < b { a } else { b }`, lane by lane.
    fn min(self, b: Self) -> Self;
    /// `if a > b { a } else { b }`, lane by lane.
    fn max(self, b: Self) -> Self;
    /// Absolute value (clears the sign bit).
    fn abs(self) -> Self;
    /// Correctly rounded square root.
    fn sqrt(self) -> Self;
    /// Rounds toward negative infinity.
    fn floor(self) -> Self;
    /// Each lane truncated toward zero to an `i32`. A lane that is NaN or outside
    /// `i32`'s range gives an unspecified value (no panic, no undefined behaviour; the
    /// flavours may differ there): callers mask such lanes out.
    fn trunc_i32(self) -> [i32; LANES];
    /// `self < b`.
    fn lt(self, b: Self) -> Self::Mask;
    /// `self <= b`.
    fn le(self, b: Self) -> Self::Mask;
    /// `self > b`.
    fn gt(self, b: Self) -> Self::Mask;
    /// `self >= b`.
    fn ge(self, b: Self) -> Self::Mask;
    /// `self == b` (false for NaN).
    fn eq(self, b: Self) -> Self::Mask;
    /// `self != b` (true for NaN).
    fn ne(self, b: Self) -> Self::Mask;
    /// `if m { t } else { f }`, lane by lane.
    fn select(m: Self::Mask, t: Self, f: Self) -> Self;
    /// Eight records of four `f32` (boxes `[min_x, min_y, max_x, max_y]`, stored one
    /// after another) as four columns: lane `i` of result `k` is `s[4 * i + k]`.
    ///
    /// # Panics
    /// If `s.len() < 32`.
    #[inline(always)]
    fn load_transposed4(s: &[f32]) -> [Self; 4] {
        let s = &s[..4 * LANES];
        let mut cols = [[0.0; LANES]; 4];
        for (i, rec) in s.chunks_exact(4).enumerate() {
            for (col, &x) in cols.iter_mut().zip(rec) {
                col[i] = x;
            }
        }
        [
            Self::from_array(cols[0]),
            Self::from_array(cols[1]),
            Self::from_array(cols[2]),
            Self::from_array(cols[3]),
        ]
    }
    /// The inverse of [`F32W::load_transposed4`]: four columns stored as eight records of
    /// four `f32`, record `i` being `[cols[0][i], cols[1][i], cols[2][i], cols[3][i]]`.
    #[inline(always)]
    fn store_transposed4(cols: [Self; 4], out: &mut [[f32; 4]; LANES]) {
        let cols = cols.map(Self::to_array);
        for (i, rec) in out.iter_mut().enumerate() {
            *rec = [cols[0][i], cols[1][i], cols[2][i], cols[3][i]];
        }
    }
    /// Eight records of two `f32` (vectors `[x, y]`) as two columns: lane `i` of result
    /// `k` is `s[2 * i + k]`.
    ///
    /// # Panics
    /// If `s.len() < 16`.
    #[inline(always)]
    fn load_transposed2(s: &[f32]) -> [Self; 2] {
        let s = &s[..2 * LANES];
        let mut cols = [[0.0; LANES]; 2];
        for (i, rec) in s.chunks_exact(2).enumerate() {
            cols[0][i] = rec[0];
            cols[1][i] = rec[1];
        }
        [Self::from_array(cols[0]), Self::from_array(cols[1])]
    }
    /// Bit `idx[i]` of the bit set `bits` (bit `k` is `bits[k / 64] >> (k % 64) & 1`) as
    /// bit `i` of the result; an index past the set reads as clear.
    #[inline(always)]
    fn test_bits(bits: &[u64], idx: &[u32; LANES]) -> u32 {
        test_bits_scalar(bits, idx)
    }
    /// Lane `i` of the result is `s[idx[i]]`.
    ///
    /// # Panics
    /// If an index is out of bounds.
    #[inline(always)]
    fn gather(s: &[f32], idx: &[u32; LANES]) -> Self {
        Self::from_array(core::array::from_fn(|i| s[idx[i] as usize]))
    }
    /// [`F32W::gather`] from several columns by the same indices, with one bounds check
    /// for all of them: lane `i` of result `k` is `cols[k][idx[i]]`.
    ///
    /// # Panics
    /// If an index is out of range of one of the columns.
    #[inline(always)]
    fn gather_columns<const N: usize>(cols: [&[f32]; N], idx: &[u32; LANES]) -> [Self; N] {
        // No closures or `array::from_fn` in these methods: they would be compiled out
        // of line, without the caller's target features.
        let mut len = i32::MAX as usize;
        for c in &cols {
            len = len.min(c.len());
        }
        let mut max = 0;
        for &i in idx {
            max = max.max(i);
        }
        assert!(
            (max as usize) < len,
            "gather index {max} out of range {len}"
        );
        // SAFETY: every `idx[i] <= max < len`, and `len` is at most every column's
        // length and below 2^31 (checked just above).
        unsafe { Self::gather_columns_unchecked(cols, idx) }
    }
    /// [`F32W::gather_columns`] without its bounds check.
    ///
    /// # Safety
    /// Every `idx[i]` must be less than `cols[k].len()` for every `k`, and less than
    /// 2^31.
    #[inline(always)]
    unsafe fn gather_columns_unchecked<const N: usize>(
        cols: [&[f32]; N],
        idx: &[u32; LANES],
    ) -> [Self; N] {
        let mut out = [Self::splat(0.0); N];
        for (o, c) in out.iter_mut().zip(cols) {
            let mut lanes = [0.0; LANES];
            for (x, &i) in lanes.iter_mut().zip(idx) {
                // SAFETY: `i < c.len()` (the caller's contract).
                *x = unsafe { *c.get_unchecked(i as usize) };
            }
            *o = Self::from_array(lanes);
        }
        out
    }
    /// Eight records of `N` `f32` (shapes stored one after another, e.g. `&[Aabb]`)
    /// gathered by index, as `N` columns: lane `i` of result `k` is `recs[idx[i]][k]`.
    ///
    /// # Safety
    /// Every `idx[i]` must be less than `recs.len()`.
    #[inline(always)]
    unsafe fn gather_records_unchecked<const N: usize>(
        recs: &[[f32; N]],
        idx: &[u32; LANES],
    ) -> [Self; N] {
        let mut out = [Self::splat(0.0); N];
        for (k, o) in out.iter_mut().enumerate() {
            let mut lanes = [0.0; LANES];
            for (x, &i) in lanes.iter_mut().zip(idx) {
                // SAFETY: `i < recs.len()` (the caller's contract).
                *x = unsafe { recs.get_unchecked(i as usize)[k] };
            }
            *o = Self::from_array(lanes);
        }
        out
    }
    /// [`F32W::gather_records_unchecked`] where the record after every gathered one
    /// exists too, so that a load may run past the end of a gathered record into the next
    /// one (AVX2 then loads a 3-field record, such as a [`Circle`](crate::Circle), in one
    /// 16-byte load). Same result.
    ///
    /// # Safety
    /// Every `idx[i] + 1` must be less than `recs.len()`.
    #[inline(always)]
    unsafe fn gather_records_padded_unchecked<const N: usize>(
        recs: &[[f32; N]],
        idx: &[u32; LANES],
    ) -> [Self; N] {
        // SAFETY: a stronger contract than `gather_records_unchecked`'s.
        unsafe { Self::gather_records_unchecked(recs, idx) }
    }
    /// Suffix minimum across the lanes: lane `k` becomes the [`F32W::min`] of lanes
    /// `k..8`. Three steps, each taking the minimum with the lanes shifted down by 1, 2
    /// and 4 (the top lane repeated into the vacated ones), in the same order on every
    /// level, so the flavours agree bit for bit.
    #[inline(always)]
    fn suffix_min(self) -> Self {
        let mut a = self.to_array();
        for shift in [1, 2, 4] {
            let b = a;
            for (k, x) in a.iter_mut().enumerate() {
                let y = b[(k + shift).min(LANES - 1)];
                *x = if *x < y { *x } else { y };
            }
        }
        Self::from_array(a)
    }
    /// Bit `k` set when the top bit of `v[k]` is set.
    #[inline(always)]
    fn sign_bits(v: &[u32; LANES]) -> u32 {
        let mut m = 0;
        for (k, &x) in v.iter().enumerate() {
            m |= (x >> 31) << k;
        }
        m
    }
    /// Whether each lane is NaN.
    #[inline(always)]
    fn is_nan(self) -> Self::Mask {
        self.ne(self)
    }

    /// Left-packs pairs: for every set bit `k` of `bits` (low 8 bits), in ascending `k`,
    /// writes the pair of `id` and `ids[k]` ordered by `order` to the next slot of
    /// `dst`, and returns how many were written (`bits.count_ones()`). Slots past that
    /// count may be written too (with garbage); `dst` must have room for all eight.
    ///
    /// Ids must be below `2³¹` (they are compared as `i32`). The portable version writes
    /// all eight candidates and advances by the hit count (no branch per lane); the
    /// AVX2 one permutes the ids with a table and writes two vectors.
    #[inline(always)]
    fn pack_pairs(
        id: u32,
        ids: &[u32; LANES],
        bits: u32,
        order: PairOrder,
        dst: &mut [core::mem::MaybeUninit<[u32; 2]>; LANES],
    ) -> usize {
        let mut c = 0usize;
        for (k, &j) in ids.iter().enumerate() {
            dst[c & (LANES - 1)].write(order.pair(id, j));
            c += ((bits >> k) & 1) as usize;
        }
        c
    }

    /// Left-packs whole pairs: for every set bit `k` of `bits` (low 8 bits), in
    /// ascending `k`, copies `src[k]` to the next slot of `dst`, and returns how many
    /// were copied (`bits.count_ones()`). Slots past that count may be written too. The
    /// portable version writes all eight and advances by each lane's bit; the AVX2 one
    /// permutes each half of four pairs with a table and writes two vectors.
    #[inline(always)]
    fn compress_pairs(src: &[[u32; 2]; LANES], bits: u32, dst: &mut [[u32; 2]; LANES]) -> usize {
        let mut c = 0usize;
        for (k, &p) in src.iter().enumerate() {
            dst[c & (LANES - 1)] = p;
            c += ((bits >> k) & 1) as usize;
        }
        c
    }

    /// Left-packs 32-byte records: for every set bit `k` of `bits` (low 8 bits), in
    /// ascending `k`, writes `[head[k][0], head[k][1], rows[0][k], …, rows[5][k]]` (the
    /// rows as their bits) to the next slot of `dst`, and returns how many were written
    /// (`bits.count_ones()`). Slots past that count are written too, with the records
    /// of dropped lanes. The portable version writes every lane and advances by its
    /// bit; the AVX2 one transposes the 8 × 8 words in registers and does the same with
    /// one 32-byte store per lane.
    #[inline(always)]
    fn compress_records(
        head: &[[u32; 2]; LANES],
        rows: [Self; 6],
        bits: u32,
        dst: &mut [core::mem::MaybeUninit<[u32; 8]>; LANES],
    ) -> usize {
        let rows = rows.map(Self::to_array);
        let mut c = 0usize;
        for (k, &[a, b]) in head.iter().enumerate() {
            let r = rows.map(|row| row[k].to_bits());
            dst[c & (LANES - 1)].write([a, b, r[0], r[1], r[2], r[3], r[4], r[5]]);
            c += ((bits >> k) & 1) as usize;
        }
        c
    }
}

/// How [`F32W::pack_pairs`] orders a pair of ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairOrder {
    /// `(min, max)`.
    Sorted,
    /// `(id, ids[k])`.
    AsIs,
    /// `(ids[k], id)`.
    Flipped,
}

impl PairOrder {
    /// The pair of `id` and `j` in this order.
    #[inline(always)]
    pub fn pair(self, id: u32, j: u32) -> [u32; 2] {
        match self {
            PairOrder::Sorted => [id.min(j), id.max(j)],
            PairOrder::AsIs => [id, j],
            PairOrder::Flipped => [j, id],
        }
    }
}

/// For every 4-bit mask of four pairs, the `u32` positions `2k, 2k + 1` of its set bits
/// `k` in ascending order (then pair 0's, in slots past the count): the permutation that
/// left-packs the selected pairs of a 256-bit register. Derived from [`PACK_TABLE`].
#[cfg(target_arch = "x86_64")]
pub(crate) const PACK4_TABLE: [[u32; LANES]; 16] = {
    // Lane `c` of PACK_TABLE[m] picks pair `k`: here lanes 2c and 2c + 1 pick its words.
    let mut t = [[0u32; LANES]; 16];
    let mut m = 0;
    while m < 16 {
        let mut c = 0;
        while c < 4 {
            t[m][2 * c] = 2 * PACK_TABLE[m][c];
            t[m][2 * c + 1] = 2 * PACK_TABLE[m][c] + 1;
            c += 1;
        }
        m += 1;
    }
    t
};

/// For every 8-bit mask, the indices of its set bits in ascending order, then zeros:
/// the permutation that left-packs the selected lanes.
#[cfg(target_arch = "x86_64")]
pub(crate) const PACK_TABLE: [[u32; LANES]; 256] = {
    let mut t = [[0u32; LANES]; 256];
    let mut m = 0;
    while m < 256 {
        let mut k = 0;
        let mut c = 0;
        while k < LANES {
            if m & (1 << k) != 0 {
                t[m][c] = k as u32;
                c += 1;
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// [`F32W::test_bits`]' scalar reference (and its portable lanes).
#[inline(always)]
pub(crate) fn test_bits_scalar(bits: &[u64], idx: &[u32; LANES]) -> u32 {
    let mut m = 0;
    for (j, &k) in idx.iter().enumerate() {
        let set = bits
            .get(k as usize / 64)
            .is_some_and(|w| (w >> (k % 64)) & 1 != 0);
        m |= u32::from(set) << j;
    }
    m
}

/// A mask of eight lanes, as returned by [`F32W`] comparisons.
pub trait MaskW: Copy + BitAnd<Output = Self> + BitOr<Output = Self> + Not<Output = Self> {
    /// Bit `i` is set when lane `i` is true.
    fn bitmask(self) -> u32;
    /// Whether any lane is true.
    #[inline(always)]
    fn any(self) -> bool {
        self.bitmask() != 0
    }
    /// Whether every lane is true.
    #[inline(always)]
    fn all(self) -> bool {
        self.bitmask() == 0xff
    }
    /// `self & !other`.
    fn and_not(self, other: Self) -> Self;
}

/// Asks the CPU to bring the cache line holding `p` close. Any address will do: a
/// prefetch is a hint, never an access, and never faults. Does nothing off x86-64.
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `prefetcht0` (SSE, which every x86-64 CPU has) only hints the cache: it
    // reads nothing architecturally and cannot fault, whatever the address.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// The largest first and the largest second index of `pairs` (`[0, 0]` when empty), in
/// one pass of eight `u32` (four pairs) at a time, compiled for `level` (with AVX2:
/// one `vpmaxud` per four pairs). Two scalar passes, one per side, were a tenth of the
/// AABB batch's time.
#[must_use]
pub(crate) fn max_indices(level: SimdLevel, pairs: &[[u32; 2]]) -> [u32; 2] {
    dispatch(level, MaxIndices(pairs))
}

struct MaxIndices<'a>(&'a [[u32; 2]]);

impl SimdTask for MaxIndices<'_> {
    type Output = [u32; 2];
    #[inline(always)]
    fn run<W: F32W>(self) -> [u32; 2] {
        let flat = self.0.as_flattened();
        // Two registers' worth of maxima, so that consecutive ones do not wait on each
        // other.
        let mut acc = [0u32; 2 * LANES];
        let mut groups = flat.chunks_exact(2 * LANES);
        for g in &mut groups {
            for (a, &x) in acc.iter_mut().zip(g) {
                *a = (*a).max(x);
            }
        }
        // The remainder has an even length, so position parity is still the side.
        for (a, &x) in acc.iter_mut().zip(groups.remainder()) {
            *a = (*a).max(x);
        }
        let mut max = [0; 2];
        for (k, &a) in acc.iter().enumerate() {
            max[k % 2] = max[k % 2].max(a);
        }
        max
    }
}

/// Which kernel flavour runs: the scalar reference kernels, or eight `f32` lanes
/// compiled one of three ways.
///
/// Every level gives the same results, bit for bit: the lane kernels perform the same
/// IEEE-754 operations as the scalar ones, in the same order (no fused multiply-add;
/// `min`/`max` as `if a < b { a } else { b }` and `if a > b { a } else { b }`). Only the
/// speed differs.
///
/// | level | how the kernels run |
/// |---|---|
/// | `Scalar` | the plain scalar references, one pair at a time; any target |
/// | `Portable` | `wide::f32x8`, compiled for the build's baseline target (on x86-64: SSE2, two 128-bit halves) |
/// | `Avx2` | 256-bit AVX2 kernels for CPUs with AVX2 and FMA (FMA never emitted), chosen at run time, so a default build gets them on a CPU that has them |
/// | `Avx512` | the `Avx2` kernels, with the swept AABB and the moving point compiled for AVX-512 F/VL/BW/DQ |
///
/// The default is [`SimdLevel::best`]; [`SimdLevel::supported`] turns a level this CPU
/// lacks into the best one below it, so any level is safe to ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SimdLevel {
    /// The plain scalar reference kernels.
    Scalar,
    /// `wide::f32x8`, compiled for the build's baseline target.
    Portable,
    /// 256-bit AVX2 (with FMA available but unused), detected at run time.
    Avx2,
    /// The same 256-bit AVX2 kernels, where the CPU also has AVX-512 (F, VL, BW and DQ):
    /// the kernels that measured faster so (the swept AABB and the moving point, whose
    /// many live values and blends gain from 32 vector registers and mask registers) are
    /// compiled for it; every other kernel runs its AVX2 build. Still eight lanes and
    /// bit-identical to the other levels.
    Avx512,
}

impl SimdLevel {
    /// The best level this CPU and build support: [`SimdLevel::Avx512`] where the CPU
    /// has AVX-512 F, VL, BW and DQ too, [`SimdLevel::Avx2`] where it has AVX2 and FMA
    /// (and POPCNT, BMI1, BMI2 and LZCNT, which come with them), else
    /// [`SimdLevel::Portable`]. With the `force-scalar` feature, always
    /// [`SimdLevel::Scalar`].
    #[must_use]
    pub fn best() -> SimdLevel {
        if cfg!(feature = "force-scalar") {
            SimdLevel::Scalar
        } else if has_avx512() {
            SimdLevel::Avx512
        } else if has_avx2() {
            SimdLevel::Avx2
        } else {
            SimdLevel::Portable
        }
    }

    /// Every level this CPU supports, scalar first (for tests and benchmarks).
    #[must_use]
    pub fn available() -> &'static [SimdLevel] {
        if has_avx512() {
            &[
                SimdLevel::Scalar,
                SimdLevel::Portable,
                SimdLevel::Avx2,
                SimdLevel::Avx512,
            ]
        } else if has_avx2() {
            &[SimdLevel::Scalar, SimdLevel::Portable, SimdLevel::Avx2]
        } else {
            &[SimdLevel::Scalar, SimdLevel::Portable]
        }
    }

    /// This level, or the best supported one below it (AVX-512 falls back to AVX2, and
    /// AVX2 to Portable, on a CPU without it), so a level read from a config is always
    /// safe to run.
    #[must_use]
    pub fn supported(self) -> SimdLevel {
        match self {
            SimdLevel::Avx512 if !has_avx512() => SimdLevel::Avx2.supported(),
            SimdLevel::Avx2 if !has_avx2() => SimdLevel::Portable,
            level => level,
        }
    }

    /// A short lower-case name: `scalar`, `portable`, `avx2` or `avx512`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            SimdLevel::Scalar => "scalar",
            SimdLevel::Portable => "portable",
            SimdLevel::Avx2 => "avx2",
            SimdLevel::Avx512 => "avx512",
        }
    }
}

impl Default for SimdLevel {
    fn default() -> Self {
        SimdLevel::best()
    }
}

/// Whether this CPU has AVX2 and FMA, and POPCNT, BMI1, BMI2 and LZCNT, which every
/// AVX2 CPU has and the AVX2 kernels are compiled with (cached by `std`).
#[inline]
#[must_use]
pub fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU has what [`SimdLevel::Avx512`] compiles for: [`has_avx2`] and
/// AVX-512 F, VL, BW and DQ (cached by `std`).
#[inline]
#[must_use]
pub fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        has_avx2()
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512dq")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A kernel generic over the lane type, run by [`dispatch`].
///
/// `run` must be `#[inline(always)]`: that is what lets the AVX2 instantiation be
/// compiled inside the `#[target_feature]` function.
pub(crate) trait SimdTask {
    /// Whether [`SimdLevel::Avx512`] runs this task's AVX2 lanes compiled with AVX-512
    /// enabled (`run_avx512`) rather than its AVX2 build. Only for the kernels that a
    /// measurement shows faster so: the rest were slower (64k-pair narrow batches on an
    /// Intel Xeon: circles 8-15%, AABB 5-7%, AABB-circle 3-10%, 3D boxes 8-18%; on a Zen
    /// 5 the AABB and circle batches too).
    const AVX512: bool = false;
    /// What the kernel returns.
    type Output;
    /// Runs the kernel with lane type `W`.
    fn run<W: F32W>(self) -> Self::Output;
}

/// Runs `task` with the lane type of `level` (`Scalar` is the caller's business: it
/// runs the portable lanes here).
#[inline]
pub(crate) fn dispatch<T: SimdTask>(level: SimdLevel, task: T) -> T::Output {
    #[cfg(target_arch = "x86_64")]
    {
        if T::AVX512 && level == SimdLevel::Avx512 && has_avx512() {
            // SAFETY: the CPU supports AVX2, FMA, POPCNT, BMI1, BMI2, LZCNT and AVX-512 F,
            // VL, BW and DQ (checked just above), which is all that `run_avx512` requires.
            return unsafe { run_avx512(task) };
        }
        if matches!(level, SimdLevel::Avx2 | SimdLevel::Avx512) && has_avx2() {
            // SAFETY: the CPU supports AVX2, FMA, POPCNT, BMI1, BMI2 and LZCNT (checked
            // just above), which is all that `run_avx2` requires.
            return unsafe { run_avx2(task) };
        }
    }
    // Off x86-64 there is one lane type, whatever the level asks for.
    let _ = (level, T::AVX512);
    task.run::<PortableW>()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,popcnt,bmi1,bmi2,lzcnt")]
unsafe fn run_avx2<T: SimdTask>(task: T) -> T::Output {
    task.run::<Avx2W>()
}

/// [`run_avx2`] compiled with AVX-512 enabled too: the same `Avx2W` lanes and the same
/// IEEE operations (so the same bits), which the compiler may now keep in 32 vector
/// registers and blend through mask registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,popcnt,bmi1,bmi2,lzcnt,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn run_avx512<T: SimdTask>(task: T) -> T::Output {
    task.run::<Avx2W>()
}

#[cfg(test)]
mod tests;
