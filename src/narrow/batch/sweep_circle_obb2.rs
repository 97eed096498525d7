//! The swept circle–OBB batch ([`NarrowPhase::sweep_circle_obb2`](super::NarrowPhase::sweep_circle_obb2)):
//! discs and oriented boxes in two inputs, each with its own motions, gathered by its
//! side's indices ([`SideWith`]).

use super::PairSweep;
use super::chunk::{HitLanes, PairKernel};
use super::side::{SideWith, len};
use super::sweep::{SWEEPS_AVX512, sweep_hits};
use crate::broad::Pair;
use crate::lanes::{F32W, LANES};
use crate::narrow::columns::{CircleInput, MotionInput, Obb2Input};
use crate::narrow::wide::{CircleW, Obb2W, Vec2W};
use crate::narrow::{SweepStatus, scalar, wide};

pub(super) struct SweepCircleObb2<C, MC, B, MB> {
    pub(super) circles: C,
    pub(super) circle_motions: MC,
    pub(super) boxes: B,
    pub(super) box_motions: MB,
}

impl<C: CircleInput, MC: MotionInput, B: Obb2Input, MB: MotionInput> PairKernel
    for SweepCircleObb2<C, MC, B, MB>
{
    type Hit = PairSweep;
    const AVX512: bool = SWEEPS_AVX512;
    type Lanes<'p>
        = (SideWith<'p, C, MC, 3, 2, 0>, SideWith<'p, B, MB, 6, 2, 1>)
    where
        Self: 'p;
    fn lens(&self) -> (usize, usize) {
        // The entry point checked that there is one motion per circle and per box.
        (len(&self.circles), len(&self.boxes))
    }
    #[inline(always)]
    fn scalar(&self, p: Pair) -> Option<PairSweep> {
        let (i, j) = (p.a as usize, p.b as usize);
        let s = scalar::sweep_circle_obb2(
            &self.circles.shape(i),
            self.circle_motions.shape(i),
            &self.boxes.shape(j),
            self.box_motions.shape(j),
        );
        (s.status != SweepStatus::Miss).then_some(PairSweep { pair: p, sweep: s })
    }
    fn lanes<'p>(&'p self, pairs: &'p [[u32; 2]], max: [u32; 2]) -> Option<Self::Lanes<'p>> {
        Some((
            SideWith::new(self.circles, self.circle_motions, pairs, max)?,
            SideWith::new(self.boxes, self.box_motions, pairs, max)?,
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
        let (a, b) = (CircleW::from_lanes(a), Obb2W::from_lanes(b));
        let (ma, mb) = (Vec2W::from_lanes(ma), Vec2W::from_lanes(mb));
        sweep_hits(&wide::sweep_circle_obb2(&a, &ma, &b, &mb), group)
    }
}
