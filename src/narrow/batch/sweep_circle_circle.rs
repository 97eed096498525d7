//! The swept circle batch ([`NarrowPhase::sweep_circle_circle`](super::NarrowPhase::sweep_circle_circle)):
//! its motions are gathered by the circles' indices ([`SideWith`]).

use super::PairSweep;
use super::chunk::{HitLanes, PairKernel};
use super::side::{SideWith, len};
use super::sweep::{SWEEPS_AVX512, sweep_hits};
use crate::broad::Pair;
use crate::lanes::{F32W, LANES};
use crate::narrow::columns::{CircleInput, MotionInput};
use crate::narrow::wide::{CircleW, Vec2W};
use crate::narrow::{SweepStatus, scalar, wide};

pub(super) struct SweepCircleCircle<C, M> {
    pub(super) circles: C,
    pub(super) motions: M,
}

impl<C: CircleInput, M: MotionInput> PairKernel for SweepCircleCircle<C, M> {
    type Hit = PairSweep;
    const AVX512: bool = SWEEPS_AVX512;
    type Lanes<'p>
        = (SideWith<'p, C, M, 3, 2, 0>, SideWith<'p, C, M, 3, 2, 1>)
    where
        Self: 'p;
    fn lens(&self) -> (usize, usize) {
        // The entry point checked that there is one motion per circle.
        (len(&self.circles), len(&self.circles))
    }
    #[inline(always)]
    fn scalar(&self, p: Pair) -> Option<PairSweep> {
        let (i, j) = (p.a as usize, p.b as usize);
        let s = scalar::sweep_circle_circle(
            &self.circles.shape(i),
            self.motions.shape(i),
            &self.circles.shape(j),
            self.motions.shape(j),
        );
        (s.status != SweepStatus::Miss).then_some(PairSweep { pair: p, sweep: s })
    }
    fn lanes<'p>(&'p self, pairs: &'p [[u32; 2]], max: [u32; 2]) -> Option<Self::Lanes<'p>> {
        Some((
            SideWith::new(self.circles, self.motions, pairs, max)?,
            SideWith::new(self.circles, self.motions, pairs, max)?,
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
        let (a, b) = (CircleW::from_lanes(a), CircleW::from_lanes(b));
        let (ma, mb) = (Vec2W::from_lanes(ma), Vec2W::from_lanes(mb));
        sweep_hits(&wide::sweep_circle_circle(&a, &ma, &b, &mb), group)
    }
}
