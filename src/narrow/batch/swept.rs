//! The swept tests between two moving shapes, each a [`SweepTest`] (its scalar
//! reference and its lane kernel on one pair of shapes with their motions), run over
//! two inputs and their motions by [`Swept`]: a new swept kernel is one `sweep_test!`
//! line here, beside its scalar and wide twins of the same name.

use super::PairSweep;
use super::chunk::{HitLanes, PairKernel};
use super::side::{SideWith, len};
use super::sweep::{SWEEPS_AVX512, sweep_hits};
use crate::lanes::{F32W, LANES};
use crate::math::{Aabb, Capsule, Circle, Obb2};
use crate::narrow::columns::{MotionInput, ShapeInput};
use crate::narrow::wide::{AabbW, CapsuleW, CircleW, Obb2W, SweepW, Vec2W};
use crate::narrow::{Sweep, SweepStatus, scalar, wide};
use crate::pair::Pair;
use core::marker::PhantomData;
use glam::Vec2;

/// A swept test between a shape of `N` fields (the one `Pair::a` indexes) and one of
/// `M` fields (`Pair::b`), both moving over the frame.
pub(super) trait SweepTest<const N: usize, const M: usize>: Sync {
    /// The shape that `Pair::a` indexes.
    type A;
    /// The shape that `Pair::b` indexes.
    type B;
    /// The scalar reference.
    fn scalar(a: &Self::A, motion_a: Vec2, b: &Self::B, motion_b: Vec2) -> Sweep;
    /// The lane kernel on eight pairs' gathered fields.
    fn wide<W: F32W>(a: [W; N], motion_a: Vec2W<W>, b: [W; M], motion_b: Vec2W<W>) -> SweepW<W>;
}

/// A [`SweepTest`] over two inputs and their motions: `Pair::a` indexes `a` and `ma`,
/// `Pair::b` indexes `b` and `mb` (the same input twice for like shapes). Each side's
/// shapes and motions are gathered on one read of its indices ([`SideWith`]).
pub(super) struct Swept<T, SA, MA, SB, MB, const N: usize, const M: usize> {
    a: SA,
    ma: MA,
    b: SB,
    mb: MB,
    test: PhantomData<T>,
}

impl<T, SA, MA, SB, MB, const N: usize, const M: usize> Swept<T, SA, MA, SB, MB, N, M> {
    /// The kernel of `T` over `(a, ma)` and `(b, mb)`, whose lengths the entry point has
    /// checked.
    pub(super) fn new(a: SA, ma: MA, b: SB, mb: MB) -> Self {
        Self {
            a,
            ma,
            b,
            mb,
            test: PhantomData,
        }
    }
}

impl<T, SA, MA, SB, MB, const N: usize, const M: usize> PairKernel
    for Swept<T, SA, MA, SB, MB, N, M>
where
    T: SweepTest<N, M>,
    SA: ShapeInput<N, Shape = T::A>,
    MA: MotionInput,
    SB: ShapeInput<M, Shape = T::B>,
    MB: MotionInput,
{
    type Hit = PairSweep;
    const AVX512: bool = SWEEPS_AVX512;
    type Lanes<'p>
        = (SideWith<'p, SA, MA, N, 2, 0>, SideWith<'p, SB, MB, M, 2, 1>)
    where
        Self: 'p;
    fn lens(&self) -> (usize, usize) {
        // The entry point checked that there is one motion per shape on each side.
        (len(&self.a), len(&self.b))
    }
    #[inline(always)]
    fn scalar(&self, p: Pair) -> Option<PairSweep> {
        let (i, j) = (p.a as usize, p.b as usize);
        let s = T::scalar(
            &self.a.shape(i),
            self.ma.shape(i),
            &self.b.shape(j),
            self.mb.shape(j),
        );
        (s.status != SweepStatus::Miss).then_some(PairSweep { pair: p, sweep: s })
    }
    fn lanes<'p>(&'p self, pairs: &'p [[u32; 2]], max: [u32; 2]) -> Option<Self::Lanes<'p>> {
        Some((
            SideWith::new(self.a, self.ma, pairs, max)?,
            SideWith::new(self.b, self.mb, pairs, max)?,
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
        let s = T::wide(a, Vec2W::from_lanes(ma), b, Vec2W::from_lanes(mb));
        sweep_hits(&s, group)
    }
}

/// Declares the swept test `$name` between `$a` (`$n` fields, lanes `$aw`) and `$b`
/// (`$m` fields, lanes `$bw`), by `scalar::$f` and `wide::$f`.
macro_rules! sweep_test {
    ($(#[$doc:meta])* $name:ident, $f:ident, ($a:ty, $n:literal, $aw:ident), ($b:ty, $m:literal, $bw:ident)) => {
        $(#[$doc])*
        pub(super) struct $name;

        impl SweepTest<$n, $m> for $name {
            type A = $a;
            type B = $b;
            #[inline(always)]
            fn scalar(a: &$a, ma: Vec2, b: &$b, mb: Vec2) -> Sweep {
                scalar::$f(a, ma, b, mb)
            }
            #[inline(always)]
            fn wide<W: F32W>(a: [W; $n], ma: Vec2W<W>, b: [W; $m], mb: Vec2W<W>) -> SweepW<W> {
                wide::$f(&$aw::from_lanes(a), &ma, &$bw::from_lanes(b), &mb)
            }
        }
    };
}

sweep_test! {
    /// Swept AABB ([`NarrowPhase::sweep_aabb_aabb`](super::NarrowPhase::sweep_aabb_aabb)).
    SweepAabbAabb, sweep_aabb_aabb, (Aabb, 4, AabbW), (Aabb, 4, AabbW)
}
sweep_test! {
    /// Swept box–disc ([`NarrowPhase::sweep_aabb_circle`](super::NarrowPhase::sweep_aabb_circle)).
    SweepAabbCircle, sweep_aabb_circle, (Aabb, 4, AabbW), (Circle, 3, CircleW)
}
sweep_test! {
    /// Swept box–rectangle ([`NarrowPhase::sweep_aabb_obb2`](super::NarrowPhase::sweep_aabb_obb2)).
    SweepAabbObb2, sweep_aabb_obb2, (Aabb, 4, AabbW), (Obb2, 6, Obb2W)
}
sweep_test! {
    /// Swept discs ([`NarrowPhase::sweep_circle_circle`](super::NarrowPhase::sweep_circle_circle)).
    SweepCircleCircle, sweep_circle_circle, (Circle, 3, CircleW), (Circle, 3, CircleW)
}
sweep_test! {
    /// Swept disc–rectangle ([`NarrowPhase::sweep_circle_obb2`](super::NarrowPhase::sweep_circle_obb2)).
    SweepCircleObb2, sweep_circle_obb2, (Circle, 3, CircleW), (Obb2, 6, Obb2W)
}
sweep_test! {
    /// Swept rectangles ([`NarrowPhase::sweep_obb2_obb2`](super::NarrowPhase::sweep_obb2_obb2)).
    SweepObb2Obb2, sweep_obb2_obb2, (Obb2, 6, Obb2W), (Obb2, 6, Obb2W)
}
sweep_test! {
    /// Swept capsule–box ([`NarrowPhase::sweep_capsule_aabb`](super::NarrowPhase::sweep_capsule_aabb)).
    SweepCapsuleAabb, sweep_capsule_aabb, (Capsule, 5, CapsuleW), (Aabb, 4, AabbW)
}
sweep_test! {
    /// Swept capsule–disc ([`NarrowPhase::sweep_capsule_circle`](super::NarrowPhase::sweep_capsule_circle)).
    SweepCapsuleCircle, sweep_capsule_circle, (Capsule, 5, CapsuleW), (Circle, 3, CircleW)
}
sweep_test! {
    /// Swept capsule–rectangle ([`NarrowPhase::sweep_capsule_obb2`](super::NarrowPhase::sweep_capsule_obb2)).
    SweepCapsuleObb2, sweep_capsule_obb2, (Capsule, 5, CapsuleW), (Obb2, 6, Obb2W)
}
sweep_test! {
    /// Swept capsules ([`NarrowPhase::sweep_capsule_capsule`](super::NarrowPhase::sweep_capsule_capsule)).
    SweepCapsuleCapsule, sweep_capsule_capsule, (Capsule, 5, CapsuleW), (Capsule, 5, CapsuleW)
}
