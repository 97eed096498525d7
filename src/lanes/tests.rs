//! Every lane operation, in every flavour, against its scalar definition, bit for bit,
//! on special values and on a seeded stream biased toward them.

use super::*;
use crate::rng::Rng;

/// Values that break careless SIMD code.
const SPECIAL: [f32; 16] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MIN_POSITIVE,
    -f32::MIN_POSITIVE,
    1.0e-40, // denormal
    -1.0e-40,
    f32::MAX,
    f32::MIN,
    1.5,
    -2.5,
    f32::EPSILON,
];

/// `native` rounds, or `miri` under Miri: `.ci/miri` runs these tests for the `unsafe`
/// code they reach (every `Avx2W` method, the default gathers), where a round costs about
/// a thousand times as much and a few reach every path.
const fn rounds(native: usize, miri: usize) -> usize {
    if cfg!(miri) { miri } else { native }
}

fn lanes(rng: &mut Rng) -> [f32; LANES] {
    core::array::from_fn(|_| {
        if rng.below(3) == 0 {
            SPECIAL[rng.below(SPECIAL.len() as u32) as usize]
        } else {
            rng.range_f32(-1.0e3, 1.0e3)
        }
    })
}

/// The results of every operation on `(a, b)` with lane type `W`, as bit patterns.
struct Results {
    values: Vec<[u32; LANES]>,
    masks: Vec<u32>,
}

struct AllOps {
    a: [f32; LANES],
    b: [f32; LANES],
}

impl SimdTask for &AllOps {
    type Output = Results;
    #[inline(always)]
    fn run<W: F32W>(self) -> Results {
        let a = W::from_array(self.a);
        let b = W::load(&self.b);
        let bits = |v: W| v.to_array().map(f32::to_bits);
        let m = a.lt(b);
        let mut stored = [0.0f32; LANES];
        (a * b).store(&mut stored);
        Results {
            values: vec![
                bits(a + b),
                bits(a - b),
                bits(a * b),
                bits(a / b),
                bits(-a),
                bits(a.min(b)),
                bits(a.max(b)),
                bits(a.abs()),
                bits(a.sqrt()),
                bits(a.floor()),
                bits(W::select(m, a, b)),
                bits(W::splat(self.a[3])),
                bits(W::gather(&self.b, &[7, 6, 5, 4, 3, 2, 1, 0])),
                bits(W::gather_columns([&self.a[..], &self.b], &[3, 3, 0, 7, 1, 2, 6, 5])[0]),
                bits(W::gather_columns([&self.a[..], &self.b], &[3, 3, 0, 7, 1, 2, 6, 5])[1]),
                stored.map(f32::to_bits),
            ],
            masks: vec![
                a.lt(b).bitmask(),
                a.le(b).bitmask(),
                a.gt(b).bitmask(),
                a.ge(b).bitmask(),
                a.eq(b).bitmask(),
                a.ne(b).bitmask(),
                a.is_nan().bitmask(),
                (a.lt(b) & a.gt(W::splat(0.0))).bitmask(),
                (a.lt(b) | a.is_nan()).bitmask(),
                (!a.lt(b)).bitmask(),
                a.le(b).and_not(a.eq(b)).bitmask(),
                u32::from(a.lt(b).any()) | (u32::from(a.lt(b).all()) << 1),
            ],
        }
    }
}

// The definitions are written exactly as the lane operations behave, NaN included.
#[allow(clippy::neg_cmp_op_on_partial_ord, clippy::double_comparisons)]
fn scalar(a: [f32; LANES], b: [f32; LANES]) -> Results {
    let map2 = |f: &dyn Fn(f32, f32) -> f32| -> [u32; LANES] {
        core::array::from_fn(|i| f(a[i], b[i]).to_bits())
    };
    let mask = |f: &dyn Fn(f32, f32) -> bool| -> u32 {
        (0..LANES).fold(0, |m, i| m | (u32::from(f(a[i], b[i])) << i))
    };
    let lt = mask(&|x, y| x < y);
    Results {
        values: vec![
            map2(&|x, y| x + y),
            map2(&|x, y| x - y),
            map2(&|x, y| x * y),
            map2(&|x, y| x / y),
            map2(&|x, _| -x),
            map2(&|x, y| if x < y { x } else { y }),
            map2(&|x, y| if x > y { x } else { y }),
            map2(&|x, _| x.abs()),
            map2(&|x, _| x.sqrt()),
            map2(&|x, _| x.floor()),
            map2(&|x, y| if x < y { x } else { y }),
            [a[3].to_bits(); LANES],
            core::array::from_fn(|i| b[LANES - 1 - i].to_bits()),
            [3, 3, 0, 7, 1, 2, 6, 5].map(|i| a[i].to_bits()),
            [3, 3, 0, 7, 1, 2, 6, 5].map(|i| b[i].to_bits()),
            map2(&|x, y| x * y),
        ],
        masks: vec![
            lt,
            mask(&|x, y| x <= y),
            mask(&|x, y| x > y),
            mask(&|x, y| x >= y),
            mask(&|x, y| x == y),
            mask(&|x, y| x != y),
            mask(&|x, _| x.is_nan()),
            mask(&|x, y| x < y && x > 0.0),
            mask(&|x, y| x < y || x.is_nan()),
            mask(&|x, y| !(x < y)),
            mask(&|x, y| x <= y && x != y),
            u32::from(lt != 0) | (u32::from(lt == 0xff) << 1),
        ],
    }
}

fn same_bits(x: u32, y: u32) -> bool {
    // Any NaN equals any NaN: payloads and signs of NaN are not part of the contract.
    x == y || (f32::from_bits(x).is_nan() && f32::from_bits(y).is_nan())
}

#[test]
fn every_level_matches_the_scalar_definition() {
    let mut rng = Rng::new(0x5eed);
    // Under Miri: the 32 rounds of special values, and 16 random ones.
    for round in 0..rounds(4000, 48) {
        let (a, b) = if round < SPECIAL.len() * SPECIAL.len() / 8 {
            // Every special value against every other, eight pairs at a time.
            let k = round * 8;
            let a = core::array::from_fn(|i| SPECIAL[(k + i) / SPECIAL.len()]);
            let b = core::array::from_fn(|i| SPECIAL[(k + i) % SPECIAL.len()]);
            (a, b)
        } else {
            (lanes(&mut rng), lanes(&mut rng))
        };
        let want = scalar(a, b);
        for &level in SimdLevel::available() {
            let got = dispatch(level, &AllOps { a, b });
            for (op, (g, w)) in got.values.iter().zip(&want.values).enumerate() {
                for lane in 0..LANES {
                    assert!(
                        same_bits(g[lane], w[lane]),
                        "{level:?} op {op} lane {lane}: a={:?} b={:?} got {:?} want {:?}",
                        a[lane],
                        b[lane],
                        f32::from_bits(g[lane]),
                        f32::from_bits(w[lane])
                    );
                }
            }
            assert_eq!(got.masks, want.masks, "{level:?} masks for a={a:?} b={b:?}");
        }
    }
}

/// Gathers from columns of different lengths by an index past the shortest one.
struct GatherPastEnd;

impl SimdTask for GatherPastEnd {
    type Output = ();
    #[inline(always)]
    fn run<W: F32W>(self) {
        let (long, short) = ([1.0; 9], [2.0; 4]);
        let _ = W::gather_columns([&long[..], &short], &[0, 1, 2, 3, 4, 0, 0, 0]);
    }
}

#[test]
fn gather_columns_checks_the_shortest_column() {
    for &level in SimdLevel::available() {
        let caught = std::panic::catch_unwind(|| dispatch(level, GatherPastEnd));
        assert!(caught.is_err(), "{level:?} read past the end");
    }
}

#[test]
fn levels_are_ordered_and_supported() {
    let best = SimdLevel::best();
    assert!(SimdLevel::available().contains(&best));
    assert_eq!(SimdLevel::Avx2.supported() == SimdLevel::Avx2, has_avx2());
    assert_eq!(
        SimdLevel::Avx512.supported() == SimdLevel::Avx512,
        has_avx512()
    );
    // AVX-512 falls back to AVX2 first, then to the portable lanes.
    let below = if has_avx2() {
        SimdLevel::Avx2
    } else {
        SimdLevel::Portable
    };
    if !has_avx512() {
        assert_eq!(SimdLevel::Avx512.supported(), below);
    }
    // The best level is the highest this CPU has (the lowest with `force-scalar`).
    let highest = *SimdLevel::available().last().expect("scalar at least");
    let want = if cfg!(feature = "force-scalar") {
        SimdLevel::Scalar
    } else {
        highest
    };
    assert_eq!(best, want);
    assert_eq!(SimdLevel::Scalar.supported(), SimdLevel::Scalar);
    assert_eq!(SimdLevel::Portable.name(), "portable");
    assert_eq!(SimdLevel::Avx512.name(), "avx512");
    // `available` lists levels in order, each one supported as it is.
    let levels = SimdLevel::available();
    assert!(levels.windows(2).all(|w| w[0] < w[1]));
    assert!(levels.iter().all(|&l| l.supported() == l));
    // Miri's feature detection sees the build's target features: `.ci/miri` builds once
    // with the AVX2 ones to reach the AVX2 lanes, which must then be detected (else
    // that run would quietly test the portable lanes twice).
    #[cfg(miri)]
    {
        let avx2 = cfg!(all(
            target_feature = "avx2",
            target_feature = "fma",
            target_feature = "popcnt",
            target_feature = "bmi1",
            target_feature = "bmi2",
            target_feature = "lzcnt"
        ));
        let avx512 = cfg!(all(
            target_feature = "avx512f",
            target_feature = "avx512vl",
            target_feature = "avx512bw",
            target_feature = "avx512dq"
        ));
        assert_eq!(has_avx2(), avx2);
        assert_eq!(has_avx512(), avx2 && avx512);
    }
}

struct Pack {
    id: u32,
    ids: [u32; LANES],
    bits: u32,
    order: PairOrder,
}

impl SimdTask for &Pack {
    type Output = Vec<[u32; 2]>;
    #[inline(always)]
    fn run<W: F32W>(self) -> Vec<[u32; 2]> {
        let mut dst = [core::mem::MaybeUninit::<[u32; 2]>::uninit(); LANES];
        let c = W::pack_pairs(self.id, &self.ids, self.bits, self.order, &mut dst);
        // SAFETY: `pack_pairs` initialises the first `c` slots.
        dst[..c]
            .iter()
            .map(|p| unsafe { p.assume_init() })
            .collect()
    }
}

#[test]
fn pack_pairs_left_packs_the_hits_in_order_at_every_level() {
    let mut rng = Rng::new(77);
    for round in 0..rounds(3000, 256) {
        let bits = if round < 256 {
            round as u32
        } else {
            rng.below(256)
        };
        let ids: [u32; LANES] = core::array::from_fn(|_| rng.below(i32::MAX as u32));
        let id = rng.below(i32::MAX as u32);
        for order in [PairOrder::Sorted, PairOrder::AsIs, PairOrder::Flipped] {
            let want: Vec<[u32; 2]> = (0..LANES)
                .filter(|&k| bits & (1 << k) != 0)
                .map(|k| order.pair(id, ids[k]))
                .collect();
            for &level in SimdLevel::available() {
                let got = dispatch(
                    level,
                    &Pack {
                        id,
                        ids,
                        bits,
                        order,
                    },
                );
                assert_eq!(got, want, "{level:?} bits {bits:08b} {order:?}");
            }
        }
    }
}

struct Trunc([f32; LANES]);

impl SimdTask for &Trunc {
    type Output = [i32; LANES];
    #[inline(always)]
    fn run<W: F32W>(self) -> [i32; LANES] {
        W::from_array(self.0).trunc_i32()
    }
}

#[test]
fn trunc_i32_truncates_toward_zero_at_every_level() {
    let mut rng = Rng::new(5);
    let fixed = [0.0, -0.0, 0.99, -0.99, 1.0, -1.5, 2.0e9, -2.0e9];
    for round in 0..rounds(2000, 32) {
        let x: [f32; LANES] = if round == 0 {
            fixed
        } else {
            core::array::from_fn(|_| rng.range_f32(-3.0e9, 3.0e9) / (1 << rng.below(31)) as f32)
        };
        for &level in SimdLevel::available() {
            let got = dispatch(level, &Trunc(x));
            for k in 0..LANES {
                // In range: exactly `trunc`; the rest is unspecified (but no panic).
                if x[k].abs() < 2.0e9 {
                    assert_eq!(got[k], x[k].trunc() as i32, "{level:?} {}", x[k]);
                }
            }
        }
    }
    // NaN and infinities: some value, no panic.
    let odd = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        f32::MIN,
        3e9,
        -3e9,
        0.5,
    ];
    for &level in SimdLevel::available() {
        let got = dispatch(level, &Trunc(odd));
        assert_eq!(got[7], 0, "{level:?}");
    }
}

/// Records of four and of two `f32` read back as columns, as bit patterns.
struct Transpose([f32; 4 * LANES]);

impl SimdTask for &Transpose {
    type Output = ([[u32; LANES]; 4], [[u32; LANES]; 2]);
    #[inline(always)]
    fn run<W: F32W>(self) -> Self::Output {
        let bits = |c: W| c.to_array().map(f32::to_bits);
        (
            W::load_transposed4(&self.0).map(bits),
            W::load_transposed2(&self.0).map(bits),
        )
    }
}

#[test]
fn load_transposed_makes_columns_of_records_at_every_level() {
    let mut rng = Rng::new(6);
    for _ in 0..rounds(500, 8) {
        let mut s = [0.0; 4 * LANES];
        for c in s.chunks_exact_mut(LANES) {
            c.copy_from_slice(&lanes(&mut rng));
        }
        let four: [[u32; LANES]; 4] =
            core::array::from_fn(|k| core::array::from_fn(|i| s[4 * i + k].to_bits()));
        let two: [[u32; LANES]; 2] =
            core::array::from_fn(|k| core::array::from_fn(|i| s[2 * i + k].to_bits()));
        for &level in SimdLevel::available() {
            assert_eq!(dispatch(level, &Transpose(s)), (four, two), "{level:?}");
        }
    }
}

/// Four columns written back as records, as bit patterns.
struct Untranspose([[f32; LANES]; 4]);

impl SimdTask for &Untranspose {
    type Output = [[u32; 4]; LANES];
    #[inline(always)]
    fn run<W: F32W>(self) -> Self::Output {
        let mut out = [[f32::NAN; 4]; LANES];
        W::store_transposed4(self.0.map(W::from_array), &mut out);
        out.map(|r| r.map(f32::to_bits))
    }
}

#[test]
fn store_transposed_makes_records_of_columns_at_every_level() {
    let mut rng = Rng::new(8);
    for _ in 0..rounds(500, 8) {
        let cols: [[f32; LANES]; 4] = core::array::from_fn(|_| lanes(&mut rng));
        let want: [[u32; 4]; LANES] =
            core::array::from_fn(|i| core::array::from_fn(|k| cols[k][i].to_bits()));
        for &level in SimdLevel::available() {
            assert_eq!(dispatch(level, &Untranspose(cols)), want, "{level:?}");
        }
        // And back: the records read as columns again.
        let flat: [f32; 4 * LANES] = core::array::from_fn(|j| f32::from_bits(want[j / 4][j % 4]));
        let back: [[u32; LANES]; 4] = cols.map(|c| c.map(f32::to_bits));
        for &level in SimdLevel::available() {
            assert_eq!(dispatch(level, &Transpose(flat)).0, back, "{level:?}");
        }
    }
}

struct SignBits([u32; LANES]);

impl SimdTask for &SignBits {
    type Output = u32;
    #[inline(always)]
    fn run<W: F32W>(self) -> u32 {
        W::sign_bits(&self.0)
    }
}

struct TestBits<'a>(&'a [u64], [u32; LANES]);

impl SimdTask for &TestBits<'_> {
    type Output = u32;
    #[inline(always)]
    fn run<W: F32W>(self) -> u32 {
        W::test_bits(self.0, &self.1)
    }
}

#[test]
fn test_bits_reads_each_lanes_bit_at_every_level() {
    let mut rng = Rng::new(0x7b17);
    for round in 0..rounds(3000, 200) {
        let words = [0, 1, 2, 3, 17][round % 5];
        let bits: Vec<u64> = (0..words).map(|_| rng.next_u64()).collect();
        let n = (words * 64) as u32;
        // In the set (its first and last bits among them), just past it, far past it.
        let idx: [u32; LANES] = core::array::from_fn(|_| match rng.below(6) {
            0 => 0,
            1 => n.saturating_sub(1),
            2 => n + rng.below(64),
            3 => u32::MAX - rng.below(64),
            _ => rng.below(n.max(1)),
        });
        // The definition, bit by bit.
        let want = (0..LANES).fold(0, |m, j| {
            let k = idx[j] as usize;
            let set = k < bits.len() * 64 && bits[k / 64] >> (k % 64) & 1 == 1;
            m | u32::from(set) << j
        });
        assert_eq!(super::test_bits_scalar(&bits, &idx), want);
        for &level in SimdLevel::available() {
            let got = dispatch(level, &TestBits(&bits, idx));
            assert_eq!(got, want, "{level:?} {idx:?} {bits:x?}");
        }
    }
}

#[test]
fn sign_bits_reads_the_top_bit_of_every_lane_at_every_level() {
    let mut rng = Rng::new(31);
    for round in 0..rounds(2000, 272) as u32 {
        // Every 8-bit pattern of top bits first, with random low bits, then random words
        // and the edge values.
        let v: [u32; LANES] = core::array::from_fn(|k| match round {
            0..256 => ((round >> k & 1) << 31) | rng.below(1 << 31),
            _ => [
                0,
                1,
                1 << 31,
                u32::MAX,
                i32::MAX as u32,
                rng.below(u32::MAX),
            ][rng.below(6) as usize],
        });
        let want = (0..LANES).fold(0, |m, k| m | (v[k] >> 31) << k);
        if round < 256 {
            assert_eq!(want, round);
        }
        for &level in SimdLevel::available() {
            assert_eq!(dispatch(level, &SignBits(v)), want, "{level:?} {v:x?}");
        }
    }
}

#[test]
fn max_indices_finds_the_largest_index_of_each_side_at_every_level() {
    let mut rng = Rng::new(41);
    for len in (0..70).chain([1000, 4096, 4097]) {
        for _ in 0..8 {
            let limit = [1, 7, 1 << 20, u32::MAX][rng.below(4) as usize];
            let pairs: Vec<[u32; 2]> = (0..len)
                .map(|_| [rng.below(limit), rng.below(limit)])
                .collect();
            let want = pairs
                .iter()
                .fold([0, 0], |[a, b], p| [a.max(p[0]), b.max(p[1])]);
            for &level in SimdLevel::available() {
                assert_eq!(max_indices(level, &pairs), want, "{level:?} len {len}");
            }
            // A lone large index on either side, at every position of a short run.
            if len > 0 && len < 40 {
                for at in 0..len {
                    for side in 0..2 {
                        let mut p = pairs.clone();
                        p[at][side] = u32::MAX - 3;
                        for &level in SimdLevel::available() {
                            assert_eq!(max_indices(level, &p)[side], u32::MAX - 3, "{level:?}");
                        }
                    }
                }
            }
        }
    }
}

struct Compress([[u32; 2]; LANES], u32);

impl SimdTask for &Compress {
    type Output = Vec<[u32; 2]>;
    #[inline(always)]
    fn run<W: F32W>(self) -> Vec<[u32; 2]> {
        let mut dst = [[u32::MAX; 2]; LANES];
        let c = W::compress_pairs(&self.0, self.1, &mut dst);
        dst[..c].to_vec()
    }
}

#[test]
fn compress_pairs_left_packs_the_kept_pairs_in_order_at_every_level() {
    let mut rng = Rng::new(78);
    for round in 0..rounds(2000, 256) as u32 {
        let bits = if round < 256 { round } else { rng.below(256) };
        let src: [[u32; 2]; LANES] =
            core::array::from_fn(|_| [rng.below(u32::MAX), rng.below(u32::MAX)]);
        let want: Vec<[u32; 2]> = (0..LANES)
            .filter(|&k| bits & (1 << k) != 0)
            .map(|k| src[k])
            .collect();
        for &level in SimdLevel::available() {
            assert_eq!(
                dispatch(level, &Compress(src, bits)),
                want,
                "{level:?} bits {bits:08b}"
            );
        }
    }
}

/// Eight heads and six rows of record words (any bits: NaNs, denormals), and a mask.
struct Records([[u32; 2]; LANES], [[u32; LANES]; 6], u32);

impl SimdTask for &Records {
    type Output = (usize, [[u32; 8]; LANES]);
    #[inline(always)]
    fn run<W: F32W>(self) -> Self::Output {
        let rows = self.1.map(|r| W::from_array(r.map(f32::from_bits)));
        let mut dst = [core::mem::MaybeUninit::new([u32::MAX; 8]); LANES];
        let c = W::compress_records(&self.0, rows, self.2, &mut dst);
        // SAFETY: every slot was initialised above and is only ever overwritten.
        (c, dst.map(|r| unsafe { r.assume_init() }))
    }
}

#[test]
fn compress_records_left_packs_whole_records_in_order_at_every_level() {
    let mut rng = Rng::new(79);
    for round in 0..rounds(2000, 256) as u32 {
        let bits = if round < 256 { round } else { rng.below(256) };
        let mut word = || match rng.below(4) {
            0 => 0x7FC0_0001 + rng.below(8), // NaNs with payloads
            1 => rng.below(16),              // denormals and zero
            _ => rng.below(u32::MAX),
        };
        let head: [[u32; 2]; LANES] = core::array::from_fn(|_| [word(), word()]);
        let rows: [[u32; LANES]; 6] = core::array::from_fn(|_| core::array::from_fn(|_| word()));
        let record = |k: usize| {
            let r = rows.map(|row| row[k]);
            [head[k][0], head[k][1], r[0], r[1], r[2], r[3], r[4], r[5]]
        };
        let want: Vec<[u32; 8]> = (0..LANES)
            .filter(|&k| bits & (1 << k) != 0)
            .map(record)
            .collect();
        let task = Records(head, rows, bits);
        let (_, first) = dispatch(SimdLevel::Scalar, &task);
        for &level in SimdLevel::available() {
            let (c, dst) = dispatch(level, &task);
            assert_eq!(
                (c, &dst[..c]),
                (want.len(), &want[..]),
                "{level:?} {bits:08b}"
            );
            // Past the count: the same dropped lanes' records on every path.
            assert_eq!(dst, first, "{level:?} bits {bits:08b}");
            assert!(
                dst[c..]
                    .iter()
                    .all(|r| *r == [u32::MAX; 8] || (0..LANES).any(|k| record(k) == *r))
            );
        }
    }
}

/// Columns of every width the gathers special-case, gathered by random indices.
struct GatherWide {
    cols: Vec<Vec<f32>>,
    idx: [u32; LANES],
}

impl SimdTask for &GatherWide {
    type Output = Vec<[u32; LANES]>;
    #[inline(always)]
    fn run<W: F32W>(self) -> Self::Output {
        let c = |k: usize| &self.cols[k][..];
        let bits = |v: W| v.to_array().map(f32::to_bits);
        let mut out = vec![];
        out.extend(W::gather_columns([c(0), c(1), c(2)], &self.idx).map(bits));
        out.extend(W::gather_columns([c(0), c(1), c(2), c(3)], &self.idx).map(bits));
        out.extend(W::gather_columns([c(0), c(1), c(2), c(3), c(4), c(5)], &self.idx).map(bits));
        let eight: [&[f32]; 8] = core::array::from_fn(c);
        out.extend(W::gather_columns(eight, &self.idx).map(bits));
        let fifteen: [&[f32]; 15] = core::array::from_fn(c);
        out.extend(W::gather_columns(fifteen, &self.idx).map(bits));
        out
    }
}

#[test]
fn gather_columns_reads_every_lane_for_every_column_count_at_every_level() {
    let mut rng = Rng::new(12);
    // Short columns first (every lane near the end), then long ones; fewer under Miri.
    let (total, short, long) = (rounds(300, 12), rounds(100, 6), rounds(5000, 64));
    for round in 0..total {
        let len = 1 + rng.below(if round < short { 8 } else { long as u32 }) as usize;
        let cols: Vec<Vec<f32>> = (0..15)
            .map(|_| {
                (0..len)
                    .map(|_| f32::from_bits(rng.below(u32::MAX)))
                    .collect()
            })
            .collect();
        let idx: [u32; LANES] = core::array::from_fn(|_| rng.below(len as u32));
        let lane = |k: usize| core::array::from_fn(|i| cols[k][idx[i] as usize].to_bits());
        let want: Vec<[u32; LANES]> = [3, 4, 6, 8, 15]
            .iter()
            .flat_map(|&n| (0..n).map(lane))
            .collect();
        let task = GatherWide { cols, idx };
        for &level in SimdLevel::available() {
            assert_eq!(dispatch(level, &task), want, "{level:?}");
        }
    }
}

/// Records of every width the record gathers special-case, gathered by random indices.
struct GatherRecords {
    flat: Vec<f32>,
    idx: [u32; LANES],
    /// Indices whose next record exists too (for the padded gathers).
    padded: [u32; LANES],
}

impl GatherRecords {
    /// `flat` as records of `N` (its length is a multiple of 60, so of every `N` here).
    fn recs<const N: usize>(&self) -> &[[f32; N]] {
        self.flat.as_chunks::<N>().0
    }
}

impl SimdTask for &GatherRecords {
    type Output = Vec<[u32; LANES]>;
    #[inline(always)]
    fn run<W: F32W>(self) -> Self::Output {
        let bits = |v: W| v.to_array().map(f32::to_bits);
        let mut out = vec![];
        // SAFETY: every index is below `flat.len() / 15` (the test draws them so), so
        // below the number of records of every width up to 15, for each call.
        unsafe {
            out.extend(W::gather_records_unchecked(self.recs::<1>(), &self.idx).map(bits));
            out.extend(W::gather_records_unchecked(self.recs::<2>(), &self.idx).map(bits));
            out.extend(W::gather_records_unchecked(self.recs::<3>(), &self.idx).map(bits));
            out.extend(W::gather_records_unchecked(self.recs::<4>(), &self.idx).map(bits));
            out.extend(W::gather_records_unchecked(self.recs::<6>(), &self.idx).map(bits));
            out.extend(W::gather_records_unchecked(self.recs::<7>(), &self.idx).map(bits));
            out.extend(W::gather_records_unchecked(self.recs::<15>(), &self.idx).map(bits));
        }
        // SAFETY: every padded index is below `flat.len() / 15 - 1`, so it and the next
        // are records of every width up to 15, for each call.
        unsafe {
            let p = &self.padded;
            out.extend(W::gather_records_padded_unchecked(self.recs::<1>(), p).map(bits));
            out.extend(W::gather_records_padded_unchecked(self.recs::<3>(), p).map(bits));
            out.extend(W::gather_records_padded_unchecked(self.recs::<4>(), p).map(bits));
            out.extend(W::gather_records_padded_unchecked(self.recs::<7>(), p).map(bits));
            out.extend(W::gather_records_padded_unchecked(self.recs::<15>(), p).map(bits));
        }
        out
    }
}

#[test]
fn gather_records_reads_every_lane_for_every_record_width_at_every_level() {
    let mut rng = Rng::new(13);
    let (total, short, long) = (rounds(300, 12), rounds(100, 6), rounds(3000, 32));
    for round in 0..total {
        // `len` records of the widest kind; the narrower kinds have more, and the test
        // reaches the last record of the widest one (the loads must stay inside it).
        let len = 2 + rng.below(if round < short { 8 } else { long as u32 }) as usize;
        let flat: Vec<f32> = (0..60 * len.div_ceil(4))
            .map(|_| f32::from_bits(rng.below(u32::MAX)))
            .collect();
        let records = flat.len() / 15;
        let idx: [u32; LANES] = core::array::from_fn(|i| {
            if i == 0 {
                records as u32 - 1
            } else {
                rng.below(records as u32)
            }
        });
        // The padded gathers reach the last record whose next one exists.
        let padded: [u32; LANES] = core::array::from_fn(|i| {
            if i == 3 {
                records as u32 - 2
            } else {
                rng.below(records as u32 - 1)
            }
        });
        let f = &flat;
        let lanes = |idx: [u32; LANES], widths: &[usize]| -> Vec<[u32; LANES]> {
            widths
                .iter()
                .flat_map(|&n| (0..n).map(move |k| idx.map(|i| f[i as usize * n + k].to_bits())))
                .collect()
        };
        let mut want = lanes(idx, &[1, 2, 3, 4, 6, 7, 15]);
        want.extend(lanes(padded, &[1, 3, 4, 7, 15]));
        let task = GatherRecords { flat, idx, padded };
        for &level in SimdLevel::available() {
            assert_eq!(dispatch(level, &task), want, "{level:?}");
        }
    }
}

struct SuffixMinLanes([f32; LANES]);

impl SimdTask for &SuffixMinLanes {
    type Output = [u32; LANES];
    #[inline(always)]
    fn run<W: F32W>(self) -> [u32; LANES] {
        W::from_array(self.0)
            .suffix_min()
            .to_array()
            .map(f32::to_bits)
    }
}

#[test]
fn suffix_min_takes_the_minimum_of_every_later_lane_at_every_level() {
    let mut rng = Rng::new(53);
    let total = rounds(4000, 64);
    for round in 0..total {
        // Special values (NaN, ±0, ±∞) in the first rounds' mix; plain numbers after, where
        // the result is the mathematical minimum.
        let v = if round < total / 2 {
            lanes(&mut rng)
        } else {
            core::array::from_fn(|_| rng.range_f32(-1.0e3, 1.0e3))
        };
        let levels: Vec<[u32; LANES]> = SimdLevel::available()
            .iter()
            .map(|&level| dispatch(level, &SuffixMinLanes(v)))
            .collect();
        // Every level gives the same bits, NaN and the sign of zero included.
        for (level, got) in SimdLevel::available().iter().zip(&levels) {
            assert_eq!(*got, levels[0], "{level:?} {v:?}");
        }
        if v.iter().all(|x| x.is_finite() && *x != 0.0) {
            for k in 0..LANES {
                let want = v[k..].iter().copied().fold(f32::INFINITY, f32::min);
                assert_eq!(f32::from_bits(levels[0][k]), want, "lane {k} of {v:?}");
            }
        }
    }
}
