//! What the swept tests share: eight [`Sweep`]s kept as [`PairSweep`] records (packed
//! whole in lanes with AVX2), and whether they are compiled for AVX-512.

use super::PairSweep;
use super::chunk::HitLanes;
use crate::lanes::{F32W, LANES, MaskW};
use crate::narrow::{Sweep, SweepStatus, wide};
use crate::pair::Pair;

/// Eight sweeps' answers, as [`PairSweep`]s.
pub(super) struct SweepLanes<W: F32W> {
    pub(super) group: [Pair; LANES],
    pub(super) sweep: wide::SweepW<W>,
}

/// [`SweepLanes`] as arrays, for a loop over the kept lanes.
pub(super) struct SweepArrays {
    pub(super) group: [Pair; LANES],
    pub(super) is_hit: u32,
    pub(super) t: [f32; LANES],
    pub(super) nx: [f32; LANES],
    pub(super) ny: [f32; LANES],
    pub(super) sx: [f32; LANES],
    pub(super) sy: [f32; LANES],
}

impl HitLanes<PairSweep> for SweepArrays {
    #[inline(always)]
    fn hit(&self, k: usize) -> PairSweep {
        // Only hits and overlaps are kept, so a lane that is not a hit is overlapping.
        let status = if self.is_hit >> k & 1 == 1 {
            SweepStatus::Hit
        } else {
            SweepStatus::Overlapping
        };
        PairSweep {
            pair: self.group[k],
            sweep: Sweep {
                status,
                t: self.t[k],
                normal: glam::Vec2::new(self.nx[k], self.ny[k]),
                stop: glam::Vec2::new(self.sx[k], self.sy[k]),
            },
        }
    }
}

impl<W: F32W> SweepLanes<W> {
    #[inline(always)]
    pub(super) fn arrays(&self) -> SweepArrays {
        let s = &self.sweep;
        SweepArrays {
            group: self.group,
            is_hit: s.is_hit.bitmask(),
            t: s.t.to_array(),
            nx: s.normal.x.to_array(),
            ny: s.normal.y.to_array(),
            sx: s.stop.x.to_array(),
            sy: s.stop.y.to_array(),
        }
    }
}

// `PairSweep` as eight words: the pair, the status (its byte first, then padding), `t`,
// the normal and the stop. `SweepLanes::emit` writes whole records in this layout.
const _: () = {
    use core::mem::{align_of, offset_of, size_of};
    assert!(size_of::<PairSweep>() == 32 && align_of::<PairSweep>() == 4);
    assert!(offset_of!(PairSweep, pair) == 0 && offset_of!(PairSweep, sweep.status) == 8);
    assert!(offset_of!(PairSweep, sweep.t) == 12 && offset_of!(PairSweep, sweep.normal) == 16);
    assert!(offset_of!(PairSweep, sweep.stop) == 24);
};

/// The word of a status in a [`PairSweep`] record: the status byte, then zero padding.
pub(super) const fn status_word(s: SweepStatus) -> f32 {
    f32::from_bits(u32::from_ne_bytes([s as u8, 0, 0, 0]))
}

impl<W: F32W> HitLanes<PairSweep> for SweepLanes<W> {
    #[inline(always)]
    fn hit(&self, k: usize) -> PairSweep {
        self.arrays().hit(k)
    }
    /// With AVX2, left-packs whole records in lanes ([`F32W::compress_records`]): no
    /// branch per kept lane, and no record built from scalars. Random pairs, about half
    /// kept, 64k / 1M pairs: moving point 4.05 -> 3.56 / 5.3 -> 4.7 ns per pair, swept
    /// AABB 5.05 -> 4.60 / 6.2 -> 5.6. Elsewhere, a record per kept lane from arrays
    /// (the packing's default method made the portable sweeps 1.3-1.5x slower).
    #[inline(always)]
    fn emit(&self, bits: u32, out: &mut [PairSweep], n: usize, is_streaming: bool) -> usize {
        if !W::PACKS_RECORDS {
            return self.arrays().emit(bits, out, n, is_streaming);
        }
        let s = &self.sweep;
        // Only hits and overlaps are kept, so a lane that is not a hit is overlapping.
        let status = W::select(
            s.is_hit,
            W::splat(status_word(SweepStatus::Hit)),
            W::splat(status_word(SweepStatus::Overlapping)),
        );
        let rows = [status, s.t, s.normal.x, s.normal.y, s.stop.x, s.stop.y];
        let window: &mut [PairSweep; LANES] = (&mut out[n..n + LANES]).try_into().expect("8");
        // SAFETY: a `PairSweep` is eight words in the order of `rows` above (asserted at
        // compile time), so the view has the window's size and alignment. Every record
        // written through it is a valid `PairSweep`: the status word's first byte is a
        // `SweepStatus` discriminant (`Hit` or `Overlapping`, in dropped lanes too),
        // its other bytes are padding, and any bits are valid `f32`s. Nothing else is
        // written through the view, and it ends with this call.
        let dst = unsafe {
            &mut *core::ptr::from_mut(window).cast::<[core::mem::MaybeUninit<[u32; 8]>; LANES]>()
        };
        n + W::compress_records(bytemuck::cast_ref(&self.group), rows, bits, dst)
    }
}

/// Keeps the hits and overlaps of eight sweeps.
#[inline(always)]
pub(super) fn sweep_hits<W: F32W>(
    s: &wide::SweepW<W>,
    group: &[Pair; LANES],
) -> (u32, SweepLanes<W>) {
    let lanes = SweepLanes {
        group: *group,
        sweep: *s,
    };
    (s.is_hit.bitmask() | s.is_overlapping.bitmask(), lanes)
}

/// Whether the two sweeps (swept AABB, moving point) run compiled for AVX-512 at
/// [`SimdLevel::Avx512`](crate::SimdLevel::Avx512): many values live at once and a dozen blends per group, which
/// 32 vector registers (fewer spills) and mask registers serve better.
pub(super) const SWEEPS_AVX512: bool = true;
