//! The sweep kernels: one band's boxes, sorted by their minimum on the sweep axis,
//! swept in lanes of eight.
//!
//! ```text
//!  band SoA (sorted by s0)             i: the box being swept
//!  s0  [ 1.0 1.2 1.9 2.4 2.5 3.1 ... +∞ +∞ +∞ +∞ +∞ +∞ +∞ +∞ ]   ← LANES sentinels
//!  s1  [ ...                                               ]
//!  b0  [ ...     band-axis min                             ]
//!  b1  [ ...     band-axis max                             ]
//!  id  [ input index | CONT bit (box started in an earlier band) ]
//!
//!  for i:  j = i+1, i+2, ... in steps of 8 lanes while s0[j] <= s1[i]
//!          hit = s0[j] <= s1[i]  &  b0[j] <= b1[i]  &  b1[j] >= b0[i]
//! ```
//!
//! Sorted order makes `s0[i] <= s0[j]`, so `s0[i] <= s1[j]` holds for every later `j`
//! and the three lane tests are the whole closed-interval overlap test. The lanes that
//! pass the sweep test form a prefix; the first chunk with a failing lane ends the
//! window. `LANES` sentinels with `s0 = +∞` end every band, so no chunk reads past the
//! end and no tail needs masking.
//!
//! **Each pair once**: a box straddling band edges is copied into every band it reaches;
//! copies after the first carry the `CONT` bit. Two boxes both reach every band between
//! `max(first bands)` and `min(last bands)`; the pair is reported only in the first of
//! those, which is exactly the band where at least one of them has no `CONT` bit.
//!
//! **Filtering** ([`Filter`]) runs only on lanes that already hit, so it never
//! shortens or lengthens the window.
//!
//! [`SimdLevel::Scalar`] runs the same loops one candidate at a time; every level emits
//! the same pairs in the same order.

use super::Pair;
use crate::lanes::{F32W, LANES, MaskW, PairOrder, SimdLevel, SimdTask, dispatch};
use crate::store::Filter;

/// Set on the id of a box copy that is not in the box's first band.
pub(crate) const CONT: u32 = 1 << 31;
// The sweep finds copies with `F32W::sign_bits`: CONT must be the top bit.
const _: () = assert!(CONT == 1 << 31);

/// One band's boxes in sweep order, followed by [`LANES`] sentinels.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BandView<'a> {
    /// Number of boxes (without sentinels).
    pub n: usize,
    /// `min(s0[m..])`: non-decreasing, and `key[m] <= s0[m]`.
    pub key: &'a [f32],
    pub s0: &'a [f32],
    pub s1: &'a [f32],
    pub b0: &'a [f32],
    pub b1: &'a [f32],
    pub id: &'a [u32],
    /// Empty unless filtered.
    pub filter: &'a [Filter],
}

/// How [`reported`] orients a pair.
const SORTED: u8 = 0; // (min, max): self mode
const AS_IS: u8 = 1; // (band box, other box): bipartite, A scanning B
const FLIPPED: u8 = 2; // (other box, band box): bipartite, B scanning A

/// The pair `(idi, idj)`, oriented, if it is reported in this band and the filters
/// agree.
#[inline(always)]
fn reported<const FILTERED: bool, const ORIENT: u8>(
    idi: u32,
    fi: Filter,
    idj: u32,
    fj: impl FnOnce() -> Filter,
) -> Option<Pair> {
    if idi & idj & CONT != 0 {
        return None; // both are copies: the pair was reported in an earlier band
    }
    if FILTERED && !fi.pairs_with(fj()) {
        return None;
    }
    let (a, b) = (idi & !CONT, idj & !CONT);
    Some(match ORIENT {
        SORTED if a > b => Pair { a: b, b: a },
        FLIPPED => Pair { a: b, b: a },
        _ => Pair { a, b },
    })
}

/// The columns of a band as plain slices of one length (`n + LANES`), so that one
/// bounds check covers a load from each, and the number of boxes `n`, derived from that
/// length so that the compiler sees `i < n` imply `i < len` (no check per box).
#[derive(Clone, Copy)]
struct Cols<'a> {
    n: usize,
    key: &'a [f32],
    s0: &'a [f32],
    s1: &'a [f32],
    b0: &'a [f32],
    b1: &'a [f32],
    id: &'a [u32],
    filter: &'a [Filter],
}

impl<'a> Cols<'a> {
    #[inline(always)]
    fn of(v: &BandView<'a>) -> Self {
        // Every column below has exactly `n + LANES` entries (or the slicing panics):
        // `scan` reads windows unchecked on that.
        let m = v.n.saturating_add(LANES);
        Cols {
            n: m - LANES,
            key: &v.key[..m],
            s0: &v.s0[..m],
            s1: &v.s1[..m],
            b0: &v.b0[..m],
            b1: &v.b1[..m],
            id: &v.id[..m],
            filter: if v.filter.is_empty() {
                &[]
            } else {
                &v.filter[..m]
            },
        }
    }
}

/// The [`LANES`] entries of `col` from `j`.
///
/// # Safety
/// `j + LANES <= col.len()`.
#[inline(always)]
unsafe fn window<T>(col: &[T], j: usize) -> &[T; LANES] {
    debug_assert!(j + LANES <= col.len());
    // SAFETY: the caller's contract; the array has the slice's alignment.
    unsafe { &*col.as_ptr().add(j).cast::<[T; LANES]>() }
}

/// Scans `other[j..]` for boxes overlapping `band[i]`, eight lanes at a time. `j` must
/// be at most `other.n` (else nothing is scanned).
#[inline(always)]
fn scan<W: F32W, const FILTERED: bool, const ORIENT: u8>(
    band: Cols<'_>,
    i: usize,
    other: Cols<'_>,
    mut j: usize,
    out: &mut Vec<Pair>,
    cur: &mut Cursor,
) {
    let s0 = W::splat(band.s0[i]);
    let s1 = W::splat(band.s1[i]);
    let b0 = W::splat(band.b0[i]);
    let b1 = W::splat(band.b1[i]);
    let idi = band.id[i];
    let fi = if FILTERED {
        band.filter[i]
    } else {
        Filter::ALL
    };
    let (mut len, mut room, mut ptr) = *cur;
    // The windows are read without bounds checks (one thread, fastest of five
    // interleaved processes: uniform 100k 0.855 -> 0.834 ms, bullet hell 100k 0.817 ->
    // 0.801, clusters 100k 2.477 -> 2.437): `j <= other.n` holds on entry to every
    // step (checked before the first and before each later one), and every column of
    // `other` has `other.n + LANES` entries (`Cols::of`), so the eight entries from `j`
    // exist. (A window runs into the sentinels only when every key is `<= s1`; they
    // are `+∞`, so only a box with `s1 = +∞`, which validation refuses, could carry it
    // past them.)
    while j <= other.n {
        // SAFETY: `j + LANES <= other.n + LANES`, the length of every column.
        let [key, s0j, s1j, b0j, b1j] =
            [other.key, other.s0, other.s1, other.b0, other.b1].map(|c| unsafe { window(c, j) });
        // SAFETY: as above.
        let ids = unsafe { window(other.id, j) };
        let in_window = W::load(key).le(s1);
        let hit =
            W::load(s0j).le(s1) & W::load(s1j).ge(s0) & W::load(b0j).le(b1) & W::load(b1j).ge(b0);
        let mut bits = hit.bitmask();
        let mut uids = *ids;
        if !FILTERED {
            // A copy meets only first-band boxes here (see the module docs): drop the
            // lanes with the CONT bit when `idi` has it. Without a branch: copies come in
            // no pattern (13% of uniform 100k's entries), and a branch on them
            // mispredicted. (Filtered, `reported` drops them.)
            let copy = ((idi as i32) >> 31) as u32; // all ones for a copy
            bits &= !(W::sign_bits(ids) & copy);
            for u in &mut uids {
                *u &= !CONT;
            }
        }
        if room < LANES {
            // SAFETY: the first `len` pairs are initialised (`Cursor`).
            unsafe { out.set_len(len) };
            out.reserve(16 * LANES);
            room = out.capacity() - len;
            ptr = out.as_mut_ptr();
        }
        // SAFETY: `room >= LANES`, so the eight slots from `len` lie in the allocation.
        // `Pair` is `#[repr(C)]` with two `u32` fields: the same size, alignment and
        // layout as `[u32; 2]`, and `MaybeUninit` keeps them. Nothing else reaches the
        // slots while the reference lives.
        let slots = unsafe {
            &mut *ptr
                .add(len)
                .cast::<[core::mem::MaybeUninit<[u32; 2]>; LANES]>()
        };
        let c = if FILTERED {
            let mut c = 0;
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                let fj = || other.filter[j + k];
                if let Some(p) = reported::<FILTERED, ORIENT>(idi, fi, ids[k], fj) {
                    slots[c].write([p.a, p.b]);
                    c += 1;
                }
                bits &= bits - 1;
            }
            c
        } else {
            // Left-packed without a branch per lane (`F32W::pack_pairs`): hit counts
            // are data-dependent and unpredictable, and a mispredicted branch per pair
            // cost more than this (`broad_phase` bench).
            let order = match ORIENT {
                SORTED => PairOrder::Sorted,
                FLIPPED => PairOrder::Flipped,
                _ => PairOrder::AsIs,
            };
            W::pack_pairs(idi & !CONT, &uids, bits, order, slots)
        };
        len += c;
        room -= c;
        if in_window.bitmask() != 0xff {
            break;
        }
        j += LANES;
    }
    *cur = (len, room, ptr);
}

/// The end of the pair list while a band is swept: its length, the spare room after it
/// and its buffer, in locals, so that an append neither reads nor writes the `Vec`
/// (whose length the next group's appends would otherwise wait for, through memory).
/// The pairs before the length are initialised; `finish` writes it back. One thread,
/// fastest of five interleaved processes: against `Vec::reserve` and `Vec::set_len` per
/// group of eight candidates, uniform 100k 0.921 -> 0.891 ms, bullet hell 100k 0.863 ->
/// 0.856, clusters 100k 2.85 -> 2.67; then kept over the whole band rather than one
/// box's window, uniform 0.876 -> 0.858, bullet hell 0.841 -> 0.826, clusters 2.58 ->
/// 2.61. (As a struct with methods, the same code ran 1-2% slower.)
type Cursor = (usize, usize, *mut Pair);

/// A cursor at the end of `out`.
#[inline(always)]
fn cursor(out: &mut Vec<Pair>) -> Cursor {
    (out.len(), out.capacity() - out.len(), out.as_mut_ptr())
}

/// Writes the cursor's length back to `out`.
#[inline(always)]
fn finish(out: &mut Vec<Pair>, cur: Cursor) {
    // SAFETY: the first `cur.0` pairs are initialised (`Cursor`).
    unsafe { out.set_len(cur.0) };
}

/// [`scan`], one candidate at a time.
#[inline(always)]
fn scan_scalar<const FILTERED: bool, const ORIENT: u8>(
    band: Cols<'_>,
    i: usize,
    other: Cols<'_>,
    mut j: usize,
    out: &mut Vec<Pair>,
) {
    let (s0, s1, b0, b1, idi) = (band.s0[i], band.s1[i], band.b0[i], band.b1[i], band.id[i]);
    let fi = if FILTERED {
        band.filter[i]
    } else {
        Filter::ALL
    };
    while other.key[j] <= s1 {
        if other.s0[j] <= s1 && other.s1[j] >= s0 && other.b0[j] <= b1 && other.b1[j] >= b0 {
            let fj = || other.filter[j];
            if let Some(p) = reported::<FILTERED, ORIENT>(idi, fi, other.id[j], fj) {
                out.push(p);
            }
        }
        j += 1;
    }
}

/// Runs the self sweep with lanes `W`, or scalar when `W` is `None`.
#[inline(always)]
fn self_sweep<W: F32W, const FILTERED: bool>(
    band: &BandView<'_>,
    scalar: bool,
    out: &mut Vec<Pair>,
) {
    let cols = Cols::of(band);
    if scalar {
        for i in 0..cols.n {
            scan_scalar::<FILTERED, SORTED>(cols, i, cols, i + 1, out);
        }
    } else {
        let mut cur = cursor(out);
        for i in 0..cols.n {
            scan::<W, FILTERED, SORTED>(cols, i, cols, i + 1, out, &mut cur);
        }
        finish(out, cur);
    }
}

/// Merges the two sorted lists; whichever box comes first (ties: the A box) scans the
/// other list from that list's cursor.
#[inline(always)]
fn bipartite_sweep<W: F32W, const FILTERED: bool>(
    a: &BandView<'_>,
    b: &BandView<'_>,
    scalar: bool,
    out: &mut Vec<Pair>,
) {
    let (ca, cb) = (Cols::of(a), Cols::of(b));
    let (mut ia, mut ib) = (0, 0);
    while ia < ca.n && ib < cb.n {
        if ca.key[ia] <= cb.key[ib] {
            if scalar {
                scan_scalar::<FILTERED, AS_IS>(ca, ia, cb, ib, out);
            } else {
                let mut cur = cursor(out);
                scan::<W, FILTERED, AS_IS>(ca, ia, cb, ib, out, &mut cur);
                finish(out, cur);
            }
            ia += 1;
        } else {
            if scalar {
                scan_scalar::<FILTERED, FLIPPED>(cb, ib, ca, ia, out);
            } else {
                let mut cur = cursor(out);
                scan::<W, FILTERED, FLIPPED>(cb, ib, ca, ia, out, &mut cur);
                finish(out, cur);
            }
            ib += 1;
        }
    }
}

struct Sweep<'a> {
    a: &'a BandView<'a>,
    /// `None`: self mode.
    b: Option<&'a BandView<'a>>,
    filtered: bool,
    scalar: bool,
    out: &'a mut Vec<Pair>,
}

impl SimdTask for Sweep<'_> {
    type Output = ();
    #[inline(always)]
    fn run<W: F32W>(self) {
        match (self.b, self.filtered) {
            (None, false) => self_sweep::<W, false>(self.a, self.scalar, self.out),
            (None, true) => self_sweep::<W, true>(self.a, self.scalar, self.out),
            (Some(b), false) => bipartite_sweep::<W, false>(self.a, b, self.scalar, self.out),
            (Some(b), true) => bipartite_sweep::<W, true>(self.a, b, self.scalar, self.out),
        }
    }
}

/// Appends every overlapping pair within one band to `out` (`a < b` in each pair), in
/// sweep order: by `i`, then by `j`.
pub(crate) fn sweep_self(
    level: SimdLevel,
    band: &BandView<'_>,
    filtered: bool,
    out: &mut Vec<Pair>,
) {
    let scalar = level == SimdLevel::Scalar;
    dispatch(
        level,
        Sweep {
            a: band,
            b: None,
            filtered,
            scalar,
            out,
        },
    );
}

/// Appends every overlapping `(a, b)` with `a` from band `a` and `b` from band `b`, in
/// merge order (the earlier box on the sweep axis scans the other list; ties: A first).
pub(crate) fn sweep_bipartite(
    level: SimdLevel,
    a: &BandView<'_>,
    b: &BandView<'_>,
    filtered: bool,
    out: &mut Vec<Pair>,
) {
    let scalar = level == SimdLevel::Scalar;
    dispatch(
        level,
        Sweep {
            a,
            b: Some(b),
            filtered,
            scalar,
            out,
        },
    );
}
