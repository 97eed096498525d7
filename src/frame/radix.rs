//! A stable LSD radix sort by an integer key.
//!
//! The frame uses it for its sorts of a few thousand records each frame: events by
//! time, static pairs, destroyed boxes and each body's hits.
//!
//! On such records, `sort_unstable` spends most of its time on mispredicted
//! comparisons, because the times of impact are random. A sort by eight-bit digits needs
//! one counting pass. Then it needs one branch-free scatter for each digit that is not
//! the same in every key. The high bytes of a dense index, or of a time in `[0, 1]`,
//! usually are the same. The sort is stable, so its result depends only on the input.

/// Below this many records, insertion sort (stable too).
const INSERTION_MAX: usize = 32;

/// A key of 32, 64 or 128 bits, split into bytes.
pub(super) trait Key: Copy + Ord {
    /// How many bytes the key has.
    const BYTES: usize;
    /// Byte `d` (0 the lowest).
    fn byte(self, d: usize) -> usize;
}

impl Key for u32 {
    const BYTES: usize = 4;
    #[inline(always)]
    fn byte(self, d: usize) -> usize {
        ((self >> (8 * d)) & 0xff) as usize
    }
}

impl Key for u64 {
    const BYTES: usize = 8;
    #[inline(always)]
    fn byte(self, d: usize) -> usize {
        ((self >> (8 * d)) & 0xff) as usize
    }
}

impl Key for u128 {
    const BYTES: usize = 16;
    #[inline(always)]
    fn byte(self, d: usize) -> usize {
        ((self >> (8 * d)) & 0xff) as usize
    }
}

/// Sorts `v` by `key`, stably, with `scratch` as the second buffer (grown once, kept
/// by the caller: no allocation in a steady state).
pub(super) fn sort_by_key<T: Copy, K: Key>(
    v: &mut Vec<T>,
    scratch: &mut Vec<T>,
    key: impl Fn(&T) -> K,
) {
    let n = v.len();
    if n <= INSERTION_MAX {
        for i in 1..n {
            let x = v[i];
            let k = key(&x);
            let mut j = i;
            while j > 0 && key(&v[j - 1]) > k {
                v[j] = v[j - 1];
                j -= 1;
            }
            v[j] = x;
        }
        return;
    }
    let mut hist = [[0u32; 256]; 16];
    for x in v.iter() {
        let k = key(x);
        for (d, h) in hist.iter_mut().enumerate().take(K::BYTES) {
            h[k.byte(d)] += 1;
        }
    }
    scratch.clear();
    scratch.extend_from_slice(v);
    let first = key(&v[0]);
    for (d, h) in hist.iter_mut().enumerate().take(K::BYTES) {
        if h[first.byte(d)] as usize == n {
            continue; // every key has this byte
        }
        let mut sum = 0;
        for c in h.iter_mut() {
            (*c, sum) = (sum, sum + *c);
        }
        for x in v.iter() {
            let b = key(x).byte(d);
            scratch[h[b] as usize] = *x;
            h[b] += 1;
        }
        core::mem::swap(v, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Sorts `v` by its keys with [`sort_by_key`] (through `scratch`, kept from earlier
    /// sorts) and with the standard library's stable sort: the same order.
    fn sorts_as_stable_sort<K: Key + core::fmt::Debug>(
        mut v: Vec<(K, usize)>,
        scratch: &mut Vec<(K, usize)>,
        what: &str,
    ) {
        let mut want = v.clone();
        want.sort_by_key(|x| x.0);
        sort_by_key(&mut v, scratch, |x| x.0);
        assert_eq!(v, want, "{what}");
    }

    #[test]
    fn radix_equals_a_stable_sort() {
        let mut rng = Rng::new(0x4ad1);
        let (mut s64, mut s128, mut s32) = (Vec::new(), Vec::new(), Vec::new());
        for n in [0, 1, 2, 31, 32, 33, 100, 5000] {
            for bits in [2u32, 17, 40, 64] {
                let mask = if bits == 64 {
                    u64::MAX
                } else {
                    (1 << bits) - 1
                };
                // (key, position): equal keys must keep their order.
                let v: Vec<(u64, usize)> = (0..n).map(|i| (rng.next_u64() & mask, i)).collect();
                sorts_as_stable_sort(v, &mut s64, &format!("n {n}, {bits} bits"));
                // The same through a 128-bit key with the high half varying too.
                let w: Vec<(u128, usize)> = (0..n)
                    .map(|i| {
                        (
                            (u128::from(rng.next_u64() & mask) << 64) | u128::from(rng.below(3)),
                            i,
                        )
                    })
                    .collect();
                sorts_as_stable_sort(w, &mut s128, &format!("n {n}, {bits} bits, u128"));
                // The same through a 32-bit key: the low half of the masked bits.
                let u: Vec<(u32, usize)> = (0..n)
                    .map(|i| ((rng.next_u64() & mask) as u32, i))
                    .collect();
                sorts_as_stable_sort(u, &mut s32, &format!("n {n}, {bits} bits, u32"));
            }
        }
    }
}
