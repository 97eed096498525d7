//! [`F32W`] over `__m256`: 256-bit AVX2 lanes for code reached through
//! [`super::dispatch`].
//!
//! # Safety contract
//! Every method executes AVX instructions. This module is private to `lanes`, and the
//! only places that name [`Avx2W`] are `run_avx2`, a `#[target_feature(enable =
//! "avx2,fma,popcnt,bmi1,bmi2,lzcnt")]` function, and `run_avx512` (the same features and
//! AVX-512's), which `dispatch` calls only after detecting those features at run time
//! (see `has_avx2` and `has_avx512`). So no value of this type is
//! ever created on a CPU without AVX2. Each `unsafe` block below relies on that contract
//! (and, for loads and stores, on the bounds check before it).

use super::{F32W, LANES, MaskW};
use core::arch::x86_64::*;
use core::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};

/// Eight `f32` lanes in one AVX register.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(super) struct Avx2W(__m256);

/// The mask of [`Avx2W`]: all-ones or all-zeros bits per lane.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(super) struct Avx2MaskW(__m256);

macro_rules! binop {
    ($ty:ident, $tr:ident, $f:ident, $intr:ident) => {
        impl $tr for $ty {
            type Output = $ty;
            #[inline(always)]
            fn $f(self, b: $ty) -> $ty {
                // SAFETY: AVX is available (module contract).
                $ty(unsafe { $intr(self.0, b.0) })
            }
        }
    };
}
binop!(Avx2W, Add, add, _mm256_add_ps);
binop!(Avx2W, Sub, sub, _mm256_sub_ps);
binop!(Avx2W, Mul, mul, _mm256_mul_ps);
binop!(Avx2W, Div, div, _mm256_div_ps);
binop!(Avx2MaskW, BitAnd, bitand, _mm256_and_ps);
binop!(Avx2MaskW, BitOr, bitor, _mm256_or_ps);

impl Neg for Avx2W {
    type Output = Avx2W;
    #[inline(always)]
    fn neg(self) -> Avx2W {
        // SAFETY: AVX is available (module contract).
        Avx2W(unsafe { _mm256_xor_ps(self.0, _mm256_set1_ps(-0.0)) })
    }
}

impl Not for Avx2MaskW {
    type Output = Avx2MaskW;
    #[inline(always)]
    fn not(self) -> Avx2MaskW {
        // SAFETY: AVX is available (module contract).
        Avx2MaskW(unsafe { _mm256_xor_ps(self.0, _mm256_castsi256_ps(_mm256_set1_epi32(-1))) })
    }
}

impl MaskW for Avx2MaskW {
    #[inline(always)]
    fn bitmask(self) -> u32 {
        // SAFETY: AVX is available (module contract).
        unsafe { _mm256_movemask_ps(self.0) as u32 }
    }
    #[inline(always)]
    fn and_not(self, other: Self) -> Self {
        // SAFETY: AVX is available (module contract).
        Avx2MaskW(unsafe { _mm256_andnot_ps(other.0, self.0) })
    }
}

macro_rules! cmp {
    ($f:ident, $pred:ident) => {
        #[inline(always)]
        fn $f(self, b: Self) -> Avx2MaskW {
            // SAFETY: AVX is available (module contract).
            Avx2MaskW(unsafe { _mm256_cmp_ps::<$pred>(self.0, b.0) })
        }
    };
}

impl F32W for Avx2W {
    type Mask = Avx2MaskW;
    const PACKS_RECORDS: bool = true;
    const DEFERS_RECORDS: bool = true;
    #[inline(always)]
    fn splat(x: f32) -> Self {
        // SAFETY: AVX is available (module contract).
        Avx2W(unsafe { _mm256_set1_ps(x) })
    }
    #[inline(always)]
    fn from_array(a: [f32; LANES]) -> Self {
        // SAFETY: AVX is available; `a` is 8 readable f32.
        Avx2W(unsafe { _mm256_loadu_ps(a.as_ptr()) })
    }
    #[inline(always)]
    fn to_array(self) -> [f32; LANES] {
        let mut a = [0.0; LANES];
        // SAFETY: AVX is available; `a` is 8 writable f32.
        unsafe { _mm256_storeu_ps(a.as_mut_ptr(), self.0) };
        a
    }
    #[inline(always)]
    fn load(s: &[f32]) -> Self {
        let s = &s[..LANES];
        // SAFETY: AVX is available; `s` has 8 readable f32 (checked by the slice above).
        Avx2W(unsafe { _mm256_loadu_ps(s.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, s: &mut [f32]) {
        let s = &mut s[..LANES];
        // SAFETY: AVX is available; `s` has 8 writable f32 (checked by the slice above).
        unsafe { _mm256_storeu_ps(s.as_mut_ptr(), self.0) }
    }
    #[inline(always)]
    fn min(self, b: Self) -> Self {
        // SAFETY: AVX is available. `minps(a, b)` is `a < b ? a : b` per lane.
        Avx2W(unsafe { _mm256_min_ps(self.0, b.0) })
    }
    #[inline(always)]
    fn max(self, b: Self) -> Self {
        // SAFETY: AVX is available. `maxps(a, b)` is `a > b ? a : b` per lane.
        Avx2W(unsafe { _mm256_max_ps(self.0, b.0) })
    }
    #[inline(always)]
    fn abs(self) -> Self {
        // SAFETY: AVX is available (module contract).
        Avx2W(unsafe { _mm256_andnot_ps(_mm256_set1_ps(-0.0), self.0) })
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        // SAFETY: AVX is available (module contract).
        Avx2W(unsafe { _mm256_sqrt_ps(self.0) })
    }
    #[inline(always)]
    fn floor(self) -> Self {
        // SAFETY: AVX is available (module contract).
        Avx2W(unsafe { _mm256_floor_ps(self.0) })
    }
    #[inline(always)]
    fn load_transposed4(s: &[f32]) -> [Self; 4] {
        let s = &s[..4 * LANES];
        // SAFETY: AVX is available (module contract); `s` has 32 readable f32 (checked
        // by the slice above), read as four unaligned 8-lane loads.
        unsafe {
            let p = s.as_ptr();
            // Records 0-1, 2-3, 4-5, 6-7.
            let (r0, r1) = (_mm256_loadu_ps(p), _mm256_loadu_ps(p.add(8)));
            let (r2, r3) = (_mm256_loadu_ps(p.add(16)), _mm256_loadu_ps(p.add(24)));
            // Records (0, 4), (1, 5), (2, 6), (3, 7): one per 128-bit half.
            let t0 = _mm256_permute2f128_ps::<0x20>(r0, r2);
            let t1 = _mm256_permute2f128_ps::<0x31>(r0, r2);
            let t2 = _mm256_permute2f128_ps::<0x20>(r1, r3);
            let t3 = _mm256_permute2f128_ps::<0x31>(r1, r3);
            // A 4 x 4 transpose in each half.
            let u0 = _mm256_unpacklo_ps(t0, t1);
            let u1 = _mm256_unpackhi_ps(t0, t1);
            let u2 = _mm256_unpacklo_ps(t2, t3);
            let u3 = _mm256_unpackhi_ps(t2, t3);
            [
                Avx2W(_mm256_shuffle_ps::<0x44>(u0, u2)),
                Avx2W(_mm256_shuffle_ps::<0xEE>(u0, u2)),
                Avx2W(_mm256_shuffle_ps::<0x44>(u1, u3)),
                Avx2W(_mm256_shuffle_ps::<0xEE>(u1, u3)),
            ]
        }
    }
    #[inline(always)]
    fn store_transposed4(cols: [Self; 4], out: &mut [[f32; 4]; LANES]) {
        let [c0, c1, c2, c3] = cols.map(|c| c.0);
        // SAFETY: AVX is available (module contract); `out` is 8 records of 16 bytes,
        // written as four unaligned 32-byte stores.
        unsafe {
            // A 4 x 4 transpose in each 128-bit half: records (0, 4), (1, 5), (2, 6), (3, 7).
            let u0 = _mm256_unpacklo_ps(c0, c1);
            let u1 = _mm256_unpackhi_ps(c0, c1);
            let u2 = _mm256_unpacklo_ps(c2, c3);
            let u3 = _mm256_unpackhi_ps(c2, c3);
            let r04 = _mm256_shuffle_ps::<0x44>(u0, u2);
            let r15 = _mm256_shuffle_ps::<0xEE>(u0, u2);
            let r26 = _mm256_shuffle_ps::<0x44>(u1, u3);
            let r37 = _mm256_shuffle_ps::<0xEE>(u1, u3);
            let p = out.as_mut_ptr().cast::<f32>();
            _mm256_storeu_ps(p, _mm256_permute2f128_ps::<0x20>(r04, r15));
            _mm256_storeu_ps(p.add(8), _mm256_permute2f128_ps::<0x20>(r26, r37));
            _mm256_storeu_ps(p.add(16), _mm256_permute2f128_ps::<0x31>(r04, r15));
            _mm256_storeu_ps(p.add(24), _mm256_permute2f128_ps::<0x31>(r26, r37));
        }
    }
    #[inline(always)]
    fn load_transposed2(s: &[f32]) -> [Self; 2] {
        let s = &s[..2 * LANES];
        // SAFETY: AVX2 is available (module contract); `s` has 16 readable f32 (checked
        // by the slice above), read as two unaligned 8-lane loads.
        unsafe {
            let (r0, r1) = (
                _mm256_loadu_ps(s.as_ptr()),
                _mm256_loadu_ps(s.as_ptr().add(8)),
            );
            // [x0 x1 x4 x5 | x2 x3 x6 x7], then the 64-bit quarters in order 0, 2, 1, 3.
            let xs = _mm256_castps_pd(_mm256_shuffle_ps::<0x88>(r0, r1));
            let ys = _mm256_castps_pd(_mm256_shuffle_ps::<0xDD>(r0, r1));
            [
                Avx2W(_mm256_castpd_ps(_mm256_permute4x64_pd::<0xD8>(xs))),
                Avx2W(_mm256_castpd_ps(_mm256_permute4x64_pd::<0xD8>(ys))),
            ]
        }
    }
    #[inline(always)]
    fn trunc_i32(self) -> [i32; LANES] {
        let mut a = [0i32; LANES];
        // SAFETY: AVX is available (module contract); `a` is 8 writable i32. Out-of-range
        // lanes become `i32::MIN` (the x86 "integer indefinite" value).
        unsafe {
            _mm256_storeu_si256(a.as_mut_ptr().cast(), _mm256_cvttps_epi32(self.0));
        }
        a
    }
    #[inline(always)]
    unsafe fn gather_columns_unchecked<const N: usize>(
        cols: [&[f32]; N],
        idx: &[u32; LANES],
    ) -> [Self; N] {
        let mut out = [Self::splat(0.0); N];
        // Eight loads per column. From four columns up, `gather8` (half the lanes
        // through blends) beats the compiler's all-insert sequence (criterion, 64k / 1M
        // pairs: AABB -8% / -17%, moving point -14% / -4%, swept AABB -5% / -10%), but
        // not for three (circles +9% / +11%). It also beats `vgatherdps`, which AMD cores
        // run as microcode: 3D boxes (15 columns a side), 64k / 1M pairs, fastest of
        // five runs: 24.9 -> 21.1 / 29.3 -> 23.1 ns per pair; and on an Intel Xeon,
        // where `vgatherdps` on columns was 8-16% slower at 64k pairs (AABB, swept AABB,
        // moving point, 3D boxes) and from records 24-55%.
        if N >= 4 {
            let mut i = [0usize; LANES];
            for (i, &x) in i.iter_mut().zip(idx) {
                *i = x as usize;
            }
            for (o, c) in out.iter_mut().zip(cols) {
                // SAFETY: AVX2 is available; every `idx[k] < c.len()` (the caller's
                // contract), so each broadcast reads an f32 inside `c`.
                *o = Avx2W(unsafe { gather8(c.as_ptr(), &i) });
            }
        } else {
            for (o, c) in out.iter_mut().zip(cols) {
                let mut lanes = [0.0; LANES];
                for (x, &i) in lanes.iter_mut().zip(idx) {
                    // SAFETY: `i < c.len()` (the caller's contract).
                    *x = unsafe { *c.get_unchecked(i as usize) };
                }
                *o = Self::from_array(lanes);
            }
        }
        out
    }
    #[inline(always)]
    unsafe fn gather_records_unchecked<const N: usize>(
        recs: &[[f32; N]],
        idx: &[u32; LANES],
    ) -> [Self; N] {
        // SAFETY: the caller's contract, which is `records`' with `PADDED = false`.
        unsafe { records::<N, false>(recs, idx) }
    }
    #[inline(always)]
    unsafe fn gather_records_padded_unchecked<const N: usize>(
        recs: &[[f32; N]],
        idx: &[u32; LANES],
    ) -> [Self; N] {
        // SAFETY: the caller's contract, which is `records`' with `PADDED = true`.
        unsafe { records::<N, true>(recs, idx) }
    }
    cmp!(lt, _CMP_LT_OQ);
    cmp!(le, _CMP_LE_OQ);
    cmp!(gt, _CMP_GT_OQ);
    cmp!(ge, _CMP_GE_OQ);
    cmp!(eq, _CMP_EQ_OQ);
    cmp!(ne, _CMP_NEQ_UQ);
    #[inline(always)]
    fn select(m: Avx2MaskW, t: Self, f: Self) -> Self {
        // SAFETY: AVX is available; blendv takes `t` where the mask's sign bit is set.
        Avx2W(unsafe { _mm256_blendv_ps(f.0, t.0, m.0) })
    }
    #[inline(always)]
    fn suffix_min(self) -> Self {
        // SAFETY: AVX2 is available (module contract). `vpermps` moves lane
        // `min(k + shift, 7)` to lane `k`, and `minps(a, b)` is `a < b ? a : b`: the
        // default method's steps in the same order.
        unsafe {
            let mut a = self.0;
            let down1 = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 7);
            a = _mm256_min_ps(a, _mm256_permutevar8x32_ps(a, down1));
            let down2 = _mm256_setr_epi32(2, 3, 4, 5, 6, 7, 7, 7);
            a = _mm256_min_ps(a, _mm256_permutevar8x32_ps(a, down2));
            let down4 = _mm256_setr_epi32(4, 5, 6, 7, 7, 7, 7, 7);
            Avx2W(_mm256_min_ps(a, _mm256_permutevar8x32_ps(a, down4)))
        }
    }
    #[inline(always)]
    fn test_bits(bits: &[u64], idx: &[u32; LANES]) -> u32 {
        // One gather of the eight 32-bit words instead of eight dependent scalar
        // lookups (the wall pre-test: 1M boxes, see `frame::groups::NearLanes`).
        let words = bits.len() * 2;
        if words == 0 || words > i32::MAX as usize {
            return super::test_bits_scalar(bits, idx);
        }
        // SAFETY: AVX2 is available (module contract); the load reads the 8 u32 of
        // `idx`; every gathered word index is clamped to `words - 1`, so each 4-byte
        // read lies inside `bits` (its `u64`s seen as pairs of `u32`: on x86-64, which
        // is little-endian, bit `k` is bit `k % 32` of word `k / 32`). A lane whose
        // index was clamped reads as clear.
        unsafe {
            let k = _mm256_loadu_si256(idx.as_ptr().cast());
            let want = _mm256_srli_epi32::<5>(k);
            let w = _mm256_min_epu32(want, _mm256_set1_epi32((words - 1) as i32));
            let g = _mm256_i32gather_epi32::<4>(bits.as_ptr().cast(), w);
            let up = _mm256_sub_epi32(
                _mm256_set1_epi32(31),
                _mm256_and_si256(k, _mm256_set1_epi32(31)),
            );
            let v = _mm256_and_si256(_mm256_sllv_epi32(g, up), _mm256_cmpeq_epi32(w, want));
            _mm256_movemask_ps(_mm256_castsi256_ps(v)) as u32
        }
    }
    #[inline(always)]
    fn sign_bits(v: &[u32; LANES]) -> u32 {
        // SAFETY: AVX is available (module contract); the load reads the 8 u32 of `v`.
        unsafe {
            _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_loadu_si256(v.as_ptr().cast()))) as u32
        }
    }
    #[inline(always)]
    fn compress_records(
        head: &[[u32; 2]; LANES],
        rows: [Self; 6],
        bits: u32,
        dst: &mut [core::mem::MaybeUninit<[u32; 8]>; LANES],
    ) -> usize {
        let [r0, r1, r2, r3, r4, r5] = rows.map(|r| r.0);
        // SAFETY: AVX is available (module contract). The loads read `head` (8 pairs = 64
        // bytes). Each store writes one 32-byte record at `dst[c]`, where `c` counts the
        // set bits below lane `k`, so `c <= k < 8`: inside `dst`.
        unsafe {
            let h = head.as_ptr().cast::<__m256>();
            let (lo, hi) = (_mm256_loadu_ps(h.cast()), _mm256_loadu_ps(h.add(1).cast()));
            // Heads of lanes 0, 1 | 4, 5 and 2, 3 | 6, 7.
            let p01 = _mm256_permute2f128_ps::<0x20>(lo, hi);
            let p23 = _mm256_permute2f128_ps::<0x31>(lo, hi);
            // Words 2-3 (rows 0-1) and 4-7 (rows 2-5), lanes 0, 1 | 4, 5 and 2, 3 | 6, 7.
            let (s01, s23) = (_mm256_unpacklo_ps(r0, r1), _mm256_unpackhi_ps(r0, r1));
            let (n01, n23) = (_mm256_unpacklo_ps(r2, r3), _mm256_unpackhi_ps(r2, r3));
            let (m01, m23) = (_mm256_unpacklo_ps(r4, r5), _mm256_unpackhi_ps(r4, r5));
            // Low and high halves of the records of lanes k | k + 4.
            let low = [
                _mm256_shuffle_ps::<0x44>(p01, s01),
                _mm256_shuffle_ps::<0xEE>(p01, s01),
                _mm256_shuffle_ps::<0x44>(p23, s23),
                _mm256_shuffle_ps::<0xEE>(p23, s23),
            ];
            let high = [
                _mm256_shuffle_ps::<0x44>(n01, m01),
                _mm256_shuffle_ps::<0xEE>(n01, m01),
                _mm256_shuffle_ps::<0x44>(n23, m23),
                _mm256_shuffle_ps::<0xEE>(n23, m23),
            ];
            let d = dst.as_mut_ptr().cast::<f32>();
            let mut c = 0usize;
            for k in 0..4 {
                let rec = _mm256_permute2f128_ps::<0x20>(low[k], high[k]);
                _mm256_storeu_ps(d.add(8 * c), rec);
                c += ((bits >> k) & 1) as usize;
            }
            for k in 0..4 {
                let rec = _mm256_permute2f128_ps::<0x31>(low[k], high[k]);
                _mm256_storeu_ps(d.add(8 * c), rec);
                c += ((bits >> (k + 4)) & 1) as usize;
            }
            c
        }
    }
    #[inline(always)]
    fn compress_pairs(src: &[[u32; 2]; LANES], bits: u32, dst: &mut [[u32; 2]; LANES]) -> usize {
        let (m0, m1) = ((bits & 15) as usize, ((bits >> 4) & 15) as usize);
        let c0 = m0.count_ones() as usize;
        // SAFETY: AVX2 is available (module contract). The loads read `src` (8 pairs =
        // 64 bytes) and two table rows (8 u32 each); the stores write 4 pairs (32
        // bytes) at `dst[0]` and at `dst[c0]` with `c0 <= 4`, so inside `dst` (8 pairs).
        unsafe {
            let s = src.as_ptr().cast::<__m256i>();
            let (lo, hi) = (_mm256_loadu_si256(s), _mm256_loadu_si256(s.add(1)));
            let t0 = _mm256_loadu_si256(super::PACK4_TABLE[m0].as_ptr().cast());
            let t1 = _mm256_loadu_si256(super::PACK4_TABLE[m1].as_ptr().cast());
            let d = dst.as_mut_ptr();
            _mm256_storeu_si256(d.cast(), _mm256_permutevar8x32_epi32(lo, t0));
            _mm256_storeu_si256(d.add(c0).cast(), _mm256_permutevar8x32_epi32(hi, t1));
        }
        c0 + m1.count_ones() as usize
    }
    #[inline(always)]
    fn pack_pairs(
        id: u32,
        ids: &[u32; LANES],
        bits: u32,
        order: super::PairOrder,
        dst: &mut [core::mem::MaybeUninit<[u32; 2]>; LANES],
    ) -> usize {
        let bits = (bits & 0xff) as usize;
        let perm = &super::PACK_TABLE[bits];
        // SAFETY: AVX2 is available (module contract). The loads read 8 u32 from `ids`
        // and `perm` (arrays of 8); the stores write 16 u32 = 64 bytes into `dst`, an
        // array of 8 `[u32; 2]` (64 bytes); unaligned loads and stores are used.
        unsafe {
            let v = _mm256_loadu_si256(ids.as_ptr().cast());
            let p = _mm256_loadu_si256(perm.as_ptr().cast());
            let packed = _mm256_permutevar8x32_epi32(v, p);
            let one = _mm256_set1_epi32(id as i32);
            let (a, b) = match order {
                super::PairOrder::Sorted => {
                    (_mm256_min_epi32(one, packed), _mm256_max_epi32(one, packed))
                }
                super::PairOrder::AsIs => (one, packed),
                super::PairOrder::Flipped => (packed, one),
            };
            // (a0 b0 a1 b1 | a4 b4 a5 b5) and (a2 b2 a3 b3 | a6 b6 a7 b7) ...
            let lo = _mm256_unpacklo_epi32(a, b);
            let hi = _mm256_unpackhi_epi32(a, b);
            // ... into (p0 p1 p2 p3) and (p4 p5 p6 p7).
            let first = _mm256_permute2x128_si256::<0x20>(lo, hi);
            let second = _mm256_permute2x128_si256::<0x31>(lo, hi);
            let out = dst.as_mut_ptr().cast::<__m256i>();
            _mm256_storeu_si256(out, first);
            _mm256_storeu_si256(out.add(1), second);
        }
        bits.count_ones() as usize
    }
}

/// Lane `j` of result `k` is `recs[idx[j]][k]`. Four fields at a time by one 16-byte
/// load per record and a transpose (`records4`); with `PADDED`, the last three fields
/// too, the load then reading the first field of the next record. Then two fields by one
/// 8-byte load per record (`records2`), then a last one like a column (`gather8`).
///
/// # Safety
/// AVX2 must be available, every `idx[j] < recs.len()`, and with `PADDED` every
/// `idx[j] + 1 < recs.len()`.
#[inline(always)]
unsafe fn records<const N: usize, const PADDED: bool>(
    recs: &[[f32; N]],
    idx: &[u32; LANES],
) -> [Avx2W; N] {
    let mut out = [Avx2W::splat(0.0); N];
    let mut i = [0usize; LANES];
    for (i, &x) in i.iter_mut().zip(idx) {
        *i = x as usize * N;
    }
    let p = recs.as_ptr().cast::<f32>();
    let mut k = 0;
    while k + 4 <= N || (PADDED && k + 3 == N) {
        // SAFETY: AVX is available (the caller's contract). `i[j] / N = idx[j]` is a
        // record of `recs`, and the 16 bytes from its field `k` lie inside it when
        // `k + 4 <= N`, or end with the first field of record `idx[j] + 1`, which exists
        // with `PADDED` (the caller's contract).
        let c = unsafe { records4(p.add(k), &i) };
        let fields = (N - k).min(4);
        for (o, c) in out[k..k + fields].iter_mut().zip(c) {
            *o = Avx2W(c);
        }
        k += fields;
    }
    if k + 2 <= N {
        // SAFETY: as above; the 8 bytes from field `k`, `k + 2 <= N`, lie in the record.
        let [x, y] = unsafe { records2(p.add(k), &i) };
        out[k] = Avx2W(x);
        out[k + 1] = Avx2W(y);
        k += 2;
    }
    if k < N {
        // SAFETY: as above; field `k < N` lies in the record.
        out[k] = Avx2W(unsafe { gather8(p.add(k), &i) });
    }
    out
}

/// Lane `j` of result `f` is `*p.add(i[j] + f)`, `f < 4`: one 16-byte load per lane and
/// a 4 x 4 transpose in each 128-bit half.
///
/// # Safety
/// AVX must be available and every `p.add(i[j])` start 16 readable bytes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn records4(p: *const f32, i: &[usize; LANES]) -> [__m256; 4] {
    // SAFETY: the caller's contract.
    unsafe {
        macro_rules! row {
            ($lo:literal, $hi:literal) => {
                _mm256_insertf128_ps::<1>(
                    _mm256_castps128_ps256(_mm_loadu_ps(p.add(i[$lo]))),
                    _mm_loadu_ps(p.add(i[$hi])),
                )
            };
        }
        // Records (0, 4), (1, 5), (2, 6), (3, 7): one per 128-bit half.
        let (t0, t1, t2, t3) = (row!(0, 4), row!(1, 5), row!(2, 6), row!(3, 7));
        let u0 = _mm256_unpacklo_ps(t0, t1);
        let u1 = _mm256_unpackhi_ps(t0, t1);
        let u2 = _mm256_unpacklo_ps(t2, t3);
        let u3 = _mm256_unpackhi_ps(t2, t3);
        [
            _mm256_shuffle_ps::<0x44>(u0, u2),
            _mm256_shuffle_ps::<0xEE>(u0, u2),
            _mm256_shuffle_ps::<0x44>(u1, u3),
            _mm256_shuffle_ps::<0xEE>(u1, u3),
        ]
    }
}

/// Lane `j` of result `f` is `*p.add(i[j] + f)`, `f < 2`: one 8-byte load per lane and
/// a transpose.
///
/// # Safety
/// AVX must be available and every `p.add(i[j])` start 8 readable bytes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn records2(p: *const f32, i: &[usize; LANES]) -> [__m256; 2] {
    // SAFETY: the caller's contract; `_mm_loadu_si64` has no alignment requirement.
    // (Not `_mm_load_sd`: it reads through an `f64` pointer, which must be 8-byte
    // aligned, and a record's field need not be, e.g. an odd circle's. Miri found it;
    // both compile to the same `vmovsd`.)
    unsafe {
        macro_rules! row {
            ($lo:literal, $hi:literal) => {
                _mm256_insertf128_ps::<1>(
                    _mm256_castps128_ps256(_mm_castsi128_ps(_mm_loadu_si64(p.add(i[$lo]).cast()))),
                    _mm_castsi128_ps(_mm_loadu_si64(p.add(i[$hi]).cast())),
                )
            };
        }
        // [x, y, 0, 0] of records (0, 4), (1, 5), (2, 6), (3, 7).
        let (t0, t1, t2, t3) = (row!(0, 4), row!(1, 5), row!(2, 6), row!(3, 7));
        let u0 = _mm256_unpacklo_ps(t0, t1);
        let u1 = _mm256_unpacklo_ps(t2, t3);
        [
            _mm256_shuffle_ps::<0x44>(u0, u1),
            _mm256_shuffle_ps::<0xEE>(u0, u1),
        ]
    }
}

/// Lane `k` is `*c.add(i[k])`: lanes 0-3 by a load and three inserts (shuffles), lanes
/// 4-7 by broadcasts from memory and blends, which run on other execution ports than the
/// shuffles, so that a kernel gathering several columns is not held up by the shuffle
/// port alone. Written as assembly because the compiler turns broadcasts and blends
/// back into its own insert sequence.
///
/// # Safety
/// AVX2 must be available and every `c.add(i[k])` readable.
#[cfg(not(miri))]
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn gather8(c: *const f32, i: &[usize; LANES]) -> __m256 {
    let v: __m256;
    // SAFETY: the caller's contract.
    unsafe {
        core::arch::asm!(
            "vmovss {v:x}, dword ptr [{b} + {i0} * 4]",
            "vinsertps {v:x}, {v:x}, dword ptr [{b} + {i1} * 4], 0x10",
            "vinsertps {v:x}, {v:x}, dword ptr [{b} + {i2} * 4], 0x20",
            "vinsertps {v:x}, {v:x}, dword ptr [{b} + {i3} * 4], 0x30",
            "vbroadcastss {t}, dword ptr [{b} + {i4} * 4]",
            "vblendps {v}, {v}, {t}, 0x10",
            "vbroadcastss {t}, dword ptr [{b} + {i5} * 4]",
            "vblendps {v}, {v}, {t}, 0x20",
            "vbroadcastss {t}, dword ptr [{b} + {i6} * 4]",
            "vblendps {v}, {v}, {t}, 0x40",
            "vbroadcastss {t}, dword ptr [{b} + {i7} * 4]",
            "vblendps {v}, {v}, {t}, 0x80",
            b = in(reg) c,
            i0 = in(reg) i[0], i1 = in(reg) i[1], i2 = in(reg) i[2], i3 = in(reg) i[3],
            i4 = in(reg) i[4], i5 = in(reg) i[5], i6 = in(reg) i[6], i7 = in(reg) i[7],
            v = out(ymm_reg) v,
            t = out(ymm_reg) _,
            options(pure, readonly, nostack, preserves_flags),
        );
    }
    v
}

/// [`gather8`] under Miri, which cannot run inline assembly (`.ci/miri`): the same eight
/// reads as plain loads, so that Miri still checks the caller's contract (each
/// `c.add(i[k])` inside `c`'s allocation and readable) on every path that gathers
/// through it. Compiled only under Miri.
///
/// # Safety
/// As [`gather8`]'s.
#[cfg(miri)]
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn gather8(c: *const f32, i: &[usize; LANES]) -> __m256 {
    // SAFETY: the caller's contract: every `c.add(i[k])` is a readable `f32`.
    unsafe {
        let at = |k: usize| *c.add(i[k]);
        _mm256_setr_ps(at(0), at(1), at(2), at(3), at(4), at(5), at(6), at(7))
    }
}
