//! The swept axis-aligned against oriented box batch
//! ([`NarrowPhase::sweep_aabb_obb2`](super::NarrowPhase::sweep_aabb_obb2)): two inputs,
//! each with its own motions gathered by its side's indices ([`SideWith`] on both sides).

use super::PairSweep;
use super::chunk::{HitLanes, PairKernel};
use super::side::{SideWith, len};
use super::sweep::{SWEEPS_AVX512, sweep_hits};
use crate::broad::Pair;
use crate::lanes::{F32W, LANES};
use crate::narrow::columns::{AabbInput, MotionInput, Obb2Input};
use crate::narrow::wide::{AabbW, Obb2W, Vec2W};
use crate::narrow::{SweepStatus, scalar, wide};

pub(super) struct SweepAabbObb2<A, MA, B, MB> {
    pub(super) aabbs: A,
    pub(super) aabb_motions: MA,
    pub(super) obbs: B,
    pub(super) obb_motions: MB,
}

impl<A: AabbInput, MA: MotionInput, B: Obb2Input, MB: MotionInput> PairKernel
    for SweepAabbObb2<A, MA, B, MB>
{
    type Hit = PairSweep;
    const AVX512: bool = SWEEPS_AVX512;
    type Lanes<'p>
        = (SideWith<'p, A, MA, 4, 2, 0>, SideWith<'p, B, MB, 6, 2, 1>)
    where
        Self: 'p;
    fn lens(&self) -> (usize, usize) {
        // The entry point checked that each side has one motion per box.
        (len(&self.aabbs), len(&self.obbs))
    }
    #[inline(always)]
    fn scalar(&self, p: Pair) -> Option<PairSweep> {
        let (i, j) = (p.a as usize, p.b as usize);
        let s = scalar::sweep_aabb_obb2(
            &self.aabbs.shape(i),
            self.aabb_motions.shape(i),
            &self.obbs.shape(j),
            self.obb_motions.shape(j),
        );
        (s.status != SweepStatus::Miss).then_some(PairSweep { pair: p, sweep: s })
    }
    fn lanes<'p>(&'p self, pairs: &'p [[u32; 2]], max: [u32; 2]) -> Option<Self::Lanes<'p>> {
        Some((
            SideWith::new(self.aabbs, self.aabb_motions, pairs, max)?,
            SideWith::new(self.obbs, self.obb_motions, pairs, max)?,
        ))
    }
    #[inline(always)]
    fn wide<'p, W: F32W>(
        lanes: &Self::Lanes<'p>,
        start: usize,
        group: &[Pair; LANES],
    ) -> (u32, impl HitLanes<PairSweep>)
    where
        Self: 'p,
    {
        let (a, ma) = lanes.0.gather::<W>(start);
        let (b, mb) = lanes.1.gather::<W>(start);
        let (a, b) = (AabbW::from_lanes(a), Obb2W::from_lanes(b));
        let (ma, mb) = (Vec2W::from_lanes(ma), Vec2W::from_lanes(mb));
        sweep_hits(&wide::sweep_aabb_obb2(&a, &ma, &b, &mb), group)
    }
}
