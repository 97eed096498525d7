//! Exact sorts of a band by its minima, for [`BandOrder::Radix`](super::BandOrder::Radix).
//!
//! `benches/broad_phase.rs`, group `band_order`, measures them against the default
//! bucket order and against `slice::sort_unstable`.
//!
//! Keys are the `f32` minima mapped to `u32` so that integer order is float order
//! ([`ordered_key`]); ties keep their input order (both sorts below are stable).
//! [`radix_sort`] is an LSD radix sort (three passes of 11, 11 and 10 bits, a pass
//! skipped when every key shares that digit); [`insertion_sort`] takes small inputs.

/// Maps an `f32` to a `u32` whose unsigned order is the float order (for non-NaN input;
/// `-0.0` sorts just before `+0.0`).
#[inline(always)]
pub(crate) fn ordered_key(f: f32) -> u32 {
    let b = f.to_bits();
    if b & 0x8000_0000 != 0 {
        !b
    } else {
        b | 0x8000_0000
    }
}

/// Below this many entries a band is insertion-sorted.
pub(crate) const INSERTION_MAX: usize = 48;

/// Sorts `idx` (initially `0..n`) by `keys[idx[i]]`, stably.
pub(crate) fn insertion_sort(keys: &[u32], idx: &mut [u32]) {
    for i in 1..idx.len() {
        let v = idx[i];
        let k = keys[v as usize];
        let mut j = i;
        while j > 0 && keys[idx[j - 1] as usize] > k {
            idx[j] = idx[j - 1];
            j -= 1;
        }
        idx[j] = v;
    }
}

/// Stable LSD radix sort of `(keys[i], i)`: on return `idx` lists `0..n` by ascending
/// key, ties in index order. `tmp_*` are scratch buffers (resized as needed).
pub(crate) fn radix_sort(
    keys: &[u32],
    idx: &mut Vec<u32>,
    tmp_keys: &mut Vec<u32>,
    tmp_idx: &mut Vec<u32>,
    keys_out: &mut Vec<u32>,
) {
    let n = keys.len();
    idx.clear();
    idx.extend(0..n as u32);
    if n <= INSERTION_MAX {
        insertion_sort(keys, idx);
        return;
    }
    const SHIFTS: [u32; 3] = [0, 11, 22];
    const BUCKETS: usize = 2048;
    let mut hist = [[0u32; BUCKETS]; 3];
    for &k in keys {
        hist[0][(k & 0x7ff) as usize] += 1;
        hist[1][((k >> 11) & 0x7ff) as usize] += 1;
        hist[2][(k >> 22) as usize] += 1;
    }
    keys_out.clear();
    keys_out.extend_from_slice(keys);
    tmp_keys.resize(n, 0);
    tmp_idx.resize(n, 0);
    for (pass, &shift) in SHIFTS.iter().enumerate() {
        let h = &mut hist[pass];
        let digit0 = ((keys_out[0] >> shift) & 0x7ff) as usize;
        if h[digit0] as usize == n {
            continue; // every key has the same digit here
        }
        let mut sum = 0u32;
        for c in h.iter_mut() {
            let v = *c;
            *c = sum;
            sum += v;
        }
        for i in 0..n {
            let k = keys_out[i];
            let d = ((k >> shift) & 0x7ff) as usize;
            let dst = h[d] as usize;
            h[d] += 1;
            tmp_keys[dst] = k;
            tmp_idx[dst] = idx[i];
        }
        core::mem::swap(keys_out, tmp_keys);
        core::mem::swap(idx, tmp_idx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn ordered_key_preserves_float_order() {
        let vals = [
            f32::NEG_INFINITY,
            -1e30,
            -1.0,
            -1e-40,
            -0.0,
            0.0,
            1e-40,
            1.0,
            3.5,
            1e30,
            f32::INFINITY,
        ];
        for w in vals.windows(2) {
            assert!(ordered_key(w[0]) < ordered_key(w[1]), "{w:?}");
        }
    }

    #[test]
    fn radix_matches_a_stable_sort() {
        let mut rng = Rng::new(11);
        let (mut idx, mut tk, mut ti, mut ko) = (vec![], vec![], vec![], vec![]);
        for n in [0, 1, 5, 47, 48, 49, 100, 1000, 20_000] {
            for spread in [3u32, 1 << 12, u32::MAX] {
                let keys: Vec<u32> = (0..n)
                    .map(|_| (rng.next_u64() as u32) % spread.max(1))
                    .collect();
                radix_sort(&keys, &mut idx, &mut tk, &mut ti, &mut ko);
                let mut want: Vec<u32> = (0..n as u32).collect();
                want.sort_by_key(|&i| keys[i as usize]); // stable
                assert_eq!(idx, want, "n={n} spread={spread}");
            }
        }
    }
}
