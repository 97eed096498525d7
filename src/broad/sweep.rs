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
//! **Filtering** ([`crate::Filter`]) runs only on lanes that already hit, so it never
//! shortens or lengthens the window.
//!
//! [`SimdLevel::Scalar`] runs the same loops one candidate at a time; every level emits
//! the same pairs in the same order.

use super::Pair;
use crate::lanes::{F32W, LANES, MaskW, SimdLevel, SimdTask, dispatch};
use crate::store::Filter;

/// Set on the id of a box copy that is not in the box's first band.
pub(crate) const CONT: u32 = 1 << 31;

/// One band's boxes in sweep order, padded with [`LANES`] sentinels.
#[derive(Debug, Default, Clone)]
pub(crate) struct BandSoa {
    pub s0: Vec<f32>,
    pub s1: Vec<f32>,
    pub b0: Vec<f32>,
    pub b1: Vec<f32>,
    pub id: Vec<u32>,
    pub filter: Vec<Filter>,
}

impl BandSoa {
    /// Number of boxes (without sentinels).
    pub(crate) fn len(&self) -> usize {
        self.id.len().saturating_sub(LANES)
    }

    pub(crate) fn clear(&mut self) {
        self.s0.clear();
        self.s1.clear();
        self.b0.clear();
        self.b1.clear();
        self.id.clear();
        self.filter.clear();
    }

    /// Appends the sentinels that end the band.
    pub(crate) fn seal(&mut self, filtered: bool) {
        for _ in 0..LANES {
            self.s0.push(f32::INFINITY);
            self.s1.push(f32::NEG_INFINITY);
            self.b0.push(f32::INFINITY);
            self.b1.push(f32::NEG_INFINITY);
            self.id.push(CONT);
            if filtered {
                self.filter.push(Filter::new(0, 0));
            }
        }
    }
}

/// How [`emit`] orients a pair.
const SORTED: u8 = 0; // (min, max): self mode
const AS_IS: u8 = 1; // (band box, other box): bipartite, A scanning B
const FLIPPED: u8 = 2; // (other box, band box): bipartite, B scanning A

/// Emits `(i, j)` if it is reported in this band and the filters agree.
#[inline(always)]
fn emit<const FILTERED: bool, const ORIENT: u8>(
    band: &BandSoa,
    other: &BandSoa,
    i: usize,
    j: usize,
    out: &mut Vec<Pair>,
) {
    let idi = band.id[i];
    let idj = other.id[j];
    if idi & idj & CONT != 0 {
        return; // both are copies: the pair was reported in an earlier band
    }
    if FILTERED && !band.filter[i].pairs_with(other.filter[j]) {
        return;
    }
    let (a, b) = (idi & !CONT, idj & !CONT);
    out.push(match ORIENT {
        SORTED if a > b => Pair { a: b, b: a },
        FLIPPED => Pair { a: b, b: a },
        _ => Pair { a, b },
    });
}

/// Scans `other[j..]` for boxes overlapping `band[i]`, eight lanes at a time.
#[inline(always)]
fn scan<W: F32W, const FILTERED: bool, const ORIENT: u8>(
    band: &BandSoa,
    i: usize,
    other: &BandSoa,
    mut j: usize,
    out: &mut Vec<Pair>,
) {
    let s1 = W::splat(band.s1[i]);
    let b0 = W::splat(band.b0[i]);
    let b1 = W::splat(band.b1[i]);
    loop {
        let in_window = W::load(&other.s0[j..]).le(s1);
        let window = in_window.bitmask();
        if window == 0 {
            return;
        }
        let hit = in_window & W::load(&other.b0[j..]).le(b1) & W::load(&other.b1[j..]).ge(b0);
        let mut bits = hit.bitmask();
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            emit::<FILTERED, ORIENT>(band, other, i, j + k, out);
            bits &= bits - 1;
        }
        if window != 0xff {
            return;
        }
        j += LANES;
    }
}

/// [`scan`], one candidate at a time.
#[inline(always)]
fn scan_scalar<const FILTERED: bool, const ORIENT: u8>(
    band: &BandSoa,
    i: usize,
    other: &BandSoa,
    mut j: usize,
    out: &mut Vec<Pair>,
) {
    let (s1, b0, b1) = (band.s1[i], band.b0[i], band.b1[i]);
    while other.s0[j] <= s1 {
        if other.b0[j] <= b1 && other.b1[j] >= b0 {
            emit::<FILTERED, ORIENT>(band, other, i, j, out);
        }
        j += 1;
    }
}

/// Runs the self sweep with lanes `W`, or scalar when `W` is `None`.
#[inline(always)]
fn self_sweep<W: F32W, const FILTERED: bool>(band: &BandSoa, scalar: bool, out: &mut Vec<Pair>) {
    for i in 0..band.len() {
        if scalar {
            scan_scalar::<FILTERED, SORTED>(band, i, band, i + 1, out);
        } else {
            scan::<W, FILTERED, SORTED>(band, i, band, i + 1, out);
        }
    }
}

/// Merges the two sorted lists; whichever box comes first (ties: the A box) scans the
/// other list from that list's cursor.
#[inline(always)]
fn bipartite_sweep<W: F32W, const FILTERED: bool>(
    a: &BandSoa,
    b: &BandSoa,
    scalar: bool,
    out: &mut Vec<Pair>,
) {
    let (na, nb) = (a.len(), b.len());
    let (mut ia, mut ib) = (0, 0);
    while ia < na && ib < nb {
        if a.s0[ia] <= b.s0[ib] {
            if scalar {
                scan_scalar::<FILTERED, AS_IS>(a, ia, b, ib, out);
            } else {
                scan::<W, FILTERED, AS_IS>(a, ia, b, ib, out);
            }
            ia += 1;
        } else {
            if scalar {
                scan_scalar::<FILTERED, FLIPPED>(b, ib, a, ia, out);
            } else {
                scan::<W, FILTERED, FLIPPED>(b, ib, a, ia, out);
            }
            ib += 1;
        }
    }
}

struct Sweep<'a> {
    a: &'a BandSoa,
    /// `None`: self mode.
    b: Option<&'a BandSoa>,
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
pub(crate) fn sweep_self(level: SimdLevel, band: &BandSoa, filtered: bool, out: &mut Vec<Pair>) {
    let scalar = level == SimdLevel::Scalar;
    dispatch(level, Sweep { a: band, b: None, filtered, scalar, out });
}

/// Appends every overlapping `(a, b)` with `a` from band `a` and `b` from band `b`, in
/// merge order (the earlier box on the sweep axis scans the other list; ties: A first).
pub(crate) fn sweep_bipartite(
    level: SimdLevel,
    a: &BandSoa,
    b: &BandSoa,
    filtered: bool,
    out: &mut Vec<Pair>,
) {
    let scalar = level == SimdLevel::Scalar;
    dispatch(level, Sweep { a, b: Some(b), filtered, scalar, out });
}
