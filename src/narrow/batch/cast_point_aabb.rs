//! The moving point against boxes ([`NarrowPhase::cast_point_aabb`](super::NarrowPhase::cast_point_aabb)).

use super::PairSweep;
use super::chunk::HitLanes;
use super::shapes::PairTest;
use super::sweep::{SWEEPS_AVX512, sweep_hits};
use crate::lanes::{F32W, LANES};
use crate::math::{Aabb, Ray};
use crate::narrow::wide::{AabbW, RayW};
use crate::narrow::{SweepStatus, scalar, wide};
use crate::pair::Pair;

/// Moving point against box ([`NarrowPhase::cast_point_aabb`](super::NarrowPhase::cast_point_aabb)).
pub(super) struct CastPointAabb;

impl PairTest<4, 4> for CastPointAabb {
    type A = Ray;
    type B = Aabb;
    type Hit = PairSweep;
    const AVX512: bool = SWEEPS_AVX512;
    #[inline(always)]
    fn scalar(ray: &Ray, b: &Aabb, p: Pair) -> Option<PairSweep> {
        let s = scalar::cast_point_aabb(ray, b);
        (s.status != SweepStatus::Miss).then_some(PairSweep { pair: p, sweep: s })
    }
    #[inline(always)]
    fn wide<W: F32W>(
        r: [W; 4],
        b: [W; 4],
        group: &[Pair; LANES],
    ) -> (u32, impl HitLanes<PairSweep>) {
        let (r, b) = (RayW::from_lanes(r), AabbW::from_lanes(b));
        sweep_hits(&wide::cast_point_aabb(&r, &b), group)
    }
}
