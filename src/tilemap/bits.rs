//! Bit sets over a grid of cells, a word at a time: the building blocks of the open-space
//! tables (see the `open` module).
//!
//! A grid of `w × h` cells is one bit string, row-major: cell `(x, y)` is bit `y·w + x`,
//! 64 bits a word, bit `i` of the string being bit `i % 64` of word `i / 64`. Rows do not
//! start on word boundaries. Bits past the last cell are always zero.
//!
//! Every whole-grid operation here is a pass over words with a few shifts and masks per
//! word (and per row at most a few word operations), so building the tables of a map costs
//! a small fraction of reading its cells.

/// Bit `i` of `bits`.
#[inline(always)]
pub(crate) fn get(bits: &[u64], i: usize) -> bool {
    bits[i / 64] & (1 << (i % 64)) != 0
}

/// Sets bit `i` of `bits` to `on`.
#[inline(always)]
pub(crate) fn put(bits: &mut [u64], i: usize, on: bool) {
    bits[i / 64] = (bits[i / 64] & !(1 << (i % 64))) | (u64::from(on) << (i % 64));
}

/// One bit per cell: set where the cell is not [`super::EMPTY`] (zero).
pub(crate) fn solid(cells: &[u8]) -> Vec<u64> {
    let mut bits = vec![0u64; cells.len().div_ceil(64)];
    let (chunks, tail) = cells.as_chunks::<64>();
    let zero = wide::u8x16::ZERO;
    for (word, chunk) in bits.iter_mut().zip(chunks) {
        let mut empty = 0u64;
        for (k, part) in chunk.as_chunks::<16>().0.iter().enumerate() {
            let lanes = wide::u8x16::new(*part).simd_eq(zero);
            empty |= u64::from(lanes.to_bitmask()) << (16 * k);
        }
        *word = !empty;
    }
    if !tail.is_empty() {
        let word = tail
            .iter()
            .enumerate()
            .fold(0u64, |m, (k, &c)| m | (u64::from(c != 0) << k));
        bits[chunks.len()] = word;
    }
    bits
}

/// The 64 bits of `bits` from bit `start` on (bit `start` lowest). Bits before the start
/// of the string or past its end read as zero.
#[inline(always)]
fn window(bits: &[u64], start: i64) -> u64 {
    let word = |j: i64| usize::try_from(j).ok().and_then(|j| bits.get(j)).copied();
    let (j, s) = (start.div_euclid(64), start.rem_euclid(64) as u32);
    let lo = word(j).unwrap_or(0);
    if s == 0 {
        lo
    } else {
        (lo >> s) | (word(j + 1).unwrap_or(0) << (64 - s))
    }
}

/// Copies `len` bits of `bits` from bit `start` on into `out`, aligned (bit `start` is
/// bit 0 of `out[0]`); the rest of `out`'s last word is zero.
pub(crate) fn read(bits: &[u64], start: usize, len: usize, out: &mut [u64]) {
    // Output word q starts in word j + q (bit start + 64q is before the end).
    let (j, s) = (start / 64, (start % 64) as u32);
    for (q, o) in out[..len.div_ceil(64)].iter_mut().enumerate() {
        let lo = bits[j + q];
        *o = if s == 0 {
            lo
        } else {
            (lo >> s) | bits.get(j + q + 1).map_or(0, |&hi| hi << (64 - s))
        };
    }
    if !len.is_multiple_of(64) {
        out[len / 64] &= (1 << (len % 64)) - 1;
    }
}

/// Overwrites `count` (1 to 64) bits of `bits` from bit `start` on with the low bits of
/// `value`.
#[inline(always)]
fn put_word(bits: &mut [u64], start: usize, value: u64, count: usize) {
    let mask = if count == 64 { !0 } else { (1u64 << count) - 1 };
    let (j, s) = (start / 64, start % 64);
    let v = value & mask;
    bits[j] = (bits[j] & !(mask << s)) | (v << s);
    if s + count > 64 {
        bits[j + 1] = (bits[j + 1] & !(mask >> (64 - s))) | (v >> (64 - s));
    }
}

/// Overwrites `len` bits of `bits` from bit `start` on with the first `len` bits of
/// `src` (aligned).
pub(crate) fn write(bits: &mut [u64], start: usize, len: usize, src: &[u64]) {
    for (q, &v) in src[..len.div_ceil(64)].iter().enumerate() {
        put_word(bits, start + 64 * q, v, (len - 64 * q).min(64));
    }
}

/// Sets bits `from..to` of `bits` to `on`.
pub(crate) fn fill(bits: &mut [u64], from: usize, to: usize, on: bool) {
    let mut i = from;
    while i < to {
        let count = (to - i).min(64 - i % 64);
        put_word(bits, i, if on { !0 } else { 0 }, count);
        i += count;
    }
}

/// The first set bit in `from..to`, or `to` when there is none.
#[inline]
pub(crate) fn next_one(bits: &[u64], from: usize, to: usize) -> usize {
    next(bits, from, to, 0)
}

/// The first clear bit in `from..to`, or `to` when there is none.
#[inline]
pub(crate) fn next_zero(bits: &[u64], from: usize, to: usize) -> usize {
    next(bits, from, to, !0)
}

/// The first bit in `from..to` that differs from the bits of `flip`, or `to`.
#[inline(always)]
fn next(bits: &[u64], from: usize, to: usize, flip: u64) -> usize {
    if from >= to {
        return to;
    }
    let mut j = from / 64;
    let mut word = (bits[j] ^ flip) & (!0 << (from % 64));
    loop {
        if word != 0 {
            return (64 * j + word.trailing_zeros() as usize).min(to);
        }
        j += 1;
        if 64 * j >= to {
            return to;
        }
        word = bits[j] ^ flip;
    }
}

/// The word masks of the first cell of every row of a grid `w` cells wide, word after
/// word.
struct RowStarts {
    w: usize,
    /// The first row start not yet in a mask.
    next: usize,
}

impl RowStarts {
    /// The mask of word `j`, the word after the previous call's.
    #[inline(always)]
    fn mask(&mut self, j: usize) -> u64 {
        let (base, mut m) = (64 * j, 0u64);
        while self.next < base + 64 {
            m |= 1 << (self.next - base);
            self.next += self.w;
        }
        m
    }
}

/// The open-space bits of a grid `w` cells wide (the length of `solid` says how many
/// rows): a bit per cell, set when that cell and its eight neighbours are all clear in
/// `solid`. Neighbours beyond the grid count as clear (see [`wall_off`] for a solid
/// outside). `solid` is overwritten.
pub(crate) fn open(mut solid: Vec<u64>, w: usize, n: usize) -> Vec<u64> {
    if n == 0 {
        return Vec::new();
    }
    // Across: each bit takes in its left and right neighbours in the same row. A row's
    // first bit takes nothing from the left (the previous row's last bit), its last bit
    // nothing from the right; the bit past the last cell starts a row, so stays zero.
    let mut starts = RowStarts { w, next: 0 };
    let mut this_starts = starts.mask(0);
    let mut prev = 0u64;
    for j in 0..solid.len() {
        let s = solid[j];
        let next = solid.get(j + 1).copied().unwrap_or(0);
        let next_starts = starts.mask(j + 1);
        let ends = (this_starts >> 1) | (next_starts << 63);
        let left = (s << 1) | (prev >> 63);
        let right = (s >> 1) | (next << 63);
        solid[j] = s | (left & !this_starts) | (right & !ends);
        prev = s;
        this_starts = next_starts;
    }
    // Along: each bit takes in the bits one row up and one row down (none beyond the
    // first and last rows: they read as zero), and open is the complement.
    let spread = solid;
    let (d, r) = ((w / 64) as isize, (w % 64) as u32);
    let word = |k: isize| usize::try_from(k).ok().and_then(|k| spread.get(k)).copied();
    let word = |k: isize| word(k).unwrap_or(0);
    let mut open: Vec<u64> = (0..spread.len() as isize)
        .map(|j| {
            // Bits 64j - w.. and 64j + w.. of the string.
            let (up, down) = if r == 0 {
                (word(j - d), word(j + d))
            } else {
                (
                    (word(j - d - 1) >> (64 - r)) | (word(j - d) << r),
                    (word(j + d) >> r) | (word(j + d + 1) << (64 - r)),
                )
            };
            !(spread[j as usize] | up | down)
        })
        .collect();
    if !n.is_multiple_of(64) {
        open[n / 64] &= (1 << (n % 64)) - 1;
    }
    open
}

/// Clears the bits of the cells of a `w × h` grid that lie within `margin` cells of its
/// edges: `[left, top, right, bottom]`, each at least one. These are the cells a solid
/// outside (and, with a margin of two, a solid last column or row) takes out of open
/// space.
pub(crate) fn wall_off(bits: &mut [u64], w: usize, h: usize, [l, t, r, b]: [usize; 4]) {
    let (t, b) = (t.min(h), b.min(h));
    fill(bits, 0, t * w, false);
    fill(bits, (h - b) * w, h * w, false);
    if w >= 64 {
        // A row a word or more: the side cells row by row.
        let (l, r) = (l.min(w), r.min(w));
        for y in t..h.saturating_sub(b) {
            fill(bits, y * w, y * w + l, false);
            fill(bits, y * w + w - r, (y + 1) * w, false);
        }
        return;
    }
    if l + r >= w {
        fill(bits, 0, h * w, false); // every cell is in a margin
        return;
    }
    // Rows shorter than a word: every word at once, by masks of the row starts. A cell
    // `k < l` to the right of a row start is in the left margin; `k <= r` to its left,
    // in the right margin of the row before.
    let mut starts = RowStarts { w, next: 0 };
    let mut this = starts.mask(0);
    for (j, word) in bits.iter_mut().enumerate() {
        let next = starts.mask(j + 1);
        let mut side = 0u64;
        for k in 0..l {
            side |= this << k;
        }
        for k in 1..=r {
            side |= (this >> k) | (next << (64 - k));
        }
        *word &= !side;
        this = next;
    }
}

/// The even bits of `x` packed into its low 32 bits.
#[inline(always)]
fn even_bits(x: u64) -> u64 {
    let mut x = x & 0x5555_5555_5555_5555;
    x = (x | (x >> 1)) & 0x3333_3333_3333_3333;
    x = (x | (x >> 2)) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | (x >> 4)) & 0x00ff_00ff_00ff_00ff;
    x = (x | (x >> 8)) & 0x0000_ffff_0000_ffff;
    (x | (x >> 16)) & 0x0000_0000_ffff_ffff
}

/// A grid of half the size (rounded up) from a `w × h` one: cell `(x, y)` is set when any
/// of cells `(2x, 2y)`, `(2x + 1, 2y)`, `(2x, 2y + 1)`, `(2x + 1, 2y + 1)` that exist is.
pub(crate) fn halve(fine: &[u64], w: usize, h: usize) -> Vec<u64> {
    let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
    let mut coarse = vec![0u64; (cw * ch).div_ceil(64)];
    if cw * ch == 0 {
        return coarse;
    }
    if w <= 64 {
        // A row in a word (or two): no row buffers.
        let mask = if w == 64 { !0 } else { (1u64 << w) - 1 };
        for y in 0..ch {
            let mut r = window(fine, (2 * y * w) as i64) & mask;
            if 2 * y + 1 < h {
                r |= window(fine, ((2 * y + 1) * w) as i64) & mask;
            }
            put_word(&mut coarse, y * cw, even_bits(r | (r >> 1)), cw);
        }
        return coarse;
    }
    // Two rows of the fine grid, and one more word so that a pair of words is always
    // there to read.
    let mut pair = vec![0u64; w.div_ceil(64) + 1];
    let mut row = vec![0u64; w.div_ceil(64) + 1];
    let mut out = vec![0u64; cw.div_ceil(64)];
    for y in 0..ch {
        read(fine, 2 * y * w, w, &mut pair);
        if 2 * y + 1 < h {
            read(fine, (2 * y + 1) * w, w, &mut row);
            for (p, r) in pair.iter_mut().zip(&row) {
                *p |= r;
            }
        }
        for (q, o) in out.iter_mut().enumerate() {
            let (a, b) = (pair[2 * q], pair.get(2 * q + 1).copied().unwrap_or(0));
            *o = even_bits(a | (a >> 1)) | (even_bits(b | (b >> 1)) << 32);
        }
        write(&mut coarse, y * cw, cw, &out);
    }
    coarse
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn random_bits(n: usize, density: f32, rng: &mut Rng) -> (Vec<bool>, Vec<u64>) {
        let plain: Vec<bool> = (0..n).map(|_| rng.unit_f32() < density).collect();
        let mut bits = vec![0u64; n.div_ceil(64)];
        for (i, &b) in plain.iter().enumerate() {
            put(&mut bits, i, b);
        }
        (plain, bits)
    }

    #[test]
    fn solid_marks_every_non_empty_byte() {
        let mut rng = Rng::new(0xb175);
        for n in [0usize, 1, 15, 63, 64, 65, 127, 200, 1000] {
            let cells: Vec<u8> = (0..n)
                .map(|_| {
                    if rng.unit_f32() < 0.3 {
                        rng.below(256) as u8
                    } else {
                        0
                    }
                })
                .collect();
            let bits = solid(&cells);
            assert_eq!(bits.len(), n.div_ceil(64));
            for (i, &c) in cells.iter().enumerate() {
                assert_eq!(get(&bits, i), c != 0, "n {n}, cell {i}");
            }
            if !n.is_multiple_of(64) {
                assert_eq!(bits[n / 64] >> (n % 64), 0, "bits past the end");
            }
        }
    }

    #[test]
    fn reads_writes_and_searches_match_bit_by_bit() {
        let mut rng = Rng::new(0xb176);
        for _ in 0..300 {
            let n = 1 + rng.below(300) as usize;
            let (mut plain, mut bits) = random_bits(n, 0.4, &mut rng);
            let from = rng.below(n as u32) as usize;
            let len = rng.below((n - from) as u32 + 1) as usize;
            let mut out = vec![!0u64; len.div_ceil(64) + 1];
            read(&bits, from, len, &mut out);
            for k in 0..len {
                assert_eq!(get(&out, k), plain[from + k]);
            }
            if !len.is_multiple_of(64) {
                assert_eq!(out[len / 64] >> (len % 64), 0);
            }
            let first = |want: bool| (from..from + len).find(|&i| plain[i] == want);
            assert_eq!(
                next_one(&bits, from, from + len),
                first(true).unwrap_or(from + len)
            );
            assert_eq!(
                next_zero(&bits, from, from + len),
                first(false).unwrap_or(from + len)
            );
            let (src_plain, src) = random_bits(len, 0.5, &mut rng);
            write(&mut bits, from, len, &src);
            plain[from..from + len].copy_from_slice(&src_plain);
            let on = rng.unit_f32() < 0.5;
            let (a, b) = (
                rng.below(n as u32) as usize,
                rng.below(n as u32 + 1) as usize,
            );
            fill(&mut bits, a.min(b), a.max(b), on);
            plain[a.min(b)..a.max(b)].fill(on);
            for (i, &p) in plain.iter().enumerate() {
                assert_eq!(get(&bits, i), p, "bit {i} of {n}");
            }
            if !n.is_multiple_of(64) {
                assert_eq!(bits[n / 64] >> (n % 64), 0, "bits past the end");
            }
        }
    }

    #[test]
    fn open_and_halve_match_cell_by_cell() {
        let mut rng = Rng::new(0xb177);
        for _ in 0..200 {
            let (w, h) = (rng.below(140) as usize, rng.below(12) as usize);
            let density = [0.0, 0.01, 0.1, 0.5][rng.below(4) as usize];
            let (plain, bits) = random_bits(w * h, density, &mut rng);
            let at = |x: i64, y: i64| {
                (0..w as i64).contains(&x) && (0..h as i64).contains(&y) && {
                    plain[y as usize * w + x as usize]
                }
            };
            let opened = open(bits.clone(), w, w * h);
            assert_eq!(opened.len(), (w * h).div_ceil(64));
            let halved = halve(&bits, w, h);
            let cw = w.div_ceil(2);
            for y in 0..h as i64 {
                for x in 0..w as i64 {
                    let clear = (-1..=1).all(|dy| (-1..=1).all(|dx| !at(x + dx, y + dy)));
                    assert_eq!(get(&opened, y as usize * w + x as usize), clear);
                    if x % 2 == 0 && y % 2 == 0 {
                        let any = at(x, y) || at(x + 1, y) || at(x, y + 1) || at(x + 1, y + 1);
                        let i = (y / 2) as usize * cw + (x / 2) as usize;
                        assert_eq!(get(&halved, i), any, "{w}x{h} ({x}, {y})");
                    }
                }
            }
            for v in [&opened, &halved] {
                let n = if std::ptr::eq(v, &opened) {
                    w * h
                } else {
                    cw * h.div_ceil(2)
                };
                if !n.is_multiple_of(64) {
                    assert_eq!(v[n / 64] >> (n % 64), 0, "bits past the end");
                }
            }
            let mut walled = opened.clone();
            let margin = [1, 1, 1 + rng.below(2) as usize, 1 + rng.below(2) as usize];
            wall_off(&mut walled, w, h, margin);
            for y in 0..h {
                for x in 0..w {
                    let near =
                        x < margin[0] || y < margin[1] || x + margin[2] >= w || y + margin[3] >= h;
                    let want = !near && get(&opened, y * w + x);
                    assert_eq!(get(&walled, y * w + x), want);
                }
            }
        }
    }
}
