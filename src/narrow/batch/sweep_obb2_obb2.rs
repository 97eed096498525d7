//! The swept 2D oriented-box batch ([`NarrowPhase::sweep_obb2_obb2`](super::NarrowPhase::sweep_obb2_obb2)):
//! its motions are gathered by the boxes' indices ([`SideWith`]).

use super::PairSweep;
use super::chunk::{HitLanes, PairKernel};
use super::side::{SideWith, len};
use super::sweep::{SWEEPS_AVX512, sweep_hits};
use crate::broad::Pair;
use crate::lanes::{F32W, LANES};
use crate::narrow::columns::{MotionInput, Obb2Input};
use crate::narrow::wide::{Obb2W, Vec2W};
use crate::narrow::{SweepStatus, scalar, wide};

pub(super) struct SweepObb2Obb2<B, M> {
    pub(super) boxes: B,
    pub(super) motions: M,
}

impl<B: Obb2Input, M: MotionInput> PairKernel for SweepObb2Obb2<B, M> {
    type Hit = PairSweep;
    const AVX512: bool = SWEEPS_AVX512;
    type Lanes<'p>
        = (SideWith<'p, B, M, 6, 2, 0>, SideWith<'p, B, M, 6, 2, 1>)
    where
        Self: 'p;
    fn lens(&self) -> (usize, usize) {
        // The entry point checked that there is one motion per box.
        (len(&self.boxes), len(&self.boxes))
    }
    #[inline(always)]
    fn scalar(&self, p: Pair) -> Option<PairSweep> {
        let (i, j) = (p.a as usize, p.b as usize);
        let s = scalar::sweep_obb2_obb2(
            &self.boxes.shape(i),
            self.motions.shape(i),
            &self.boxes.shape(j),
            self.motions.shape(j),
        );
        (s.status != SweepStatus::Miss).then_some(PairSweep { pair: p, sweep: s })
    }
    fn lanes<'p>(&'p self, pairs: &'p [[u32; 2]], max: [u32; 2]) -> Option<Self::Lanes<'p>> {
        Some((
            SideWith::new(self.boxes, self.motions, pairs, max)?,
            SideWith::new(self.boxes, self.motions, pairs, max)?,
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
        let (a, b) = (Obb2W::from_lanes(a), Obb2W::from_lanes(b));
        let (ma, mb) = (Vec2W::from_lanes(ma), Vec2W::from_lanes(mb));
        sweep_hits(&wide::sweep_obb2_obb2(&a, &ma, &b, &mb), group)
    }
}
