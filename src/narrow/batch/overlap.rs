//! The plain overlap tests, whose hits are their pairs: AABB, circles, AABB–circle.

use super::chunk::HitLanes;
use super::shapes::PairTest;
use crate::lanes::{F32W, LANES, MaskW};
use crate::math::{Aabb, Circle};
use crate::narrow::wide::{AabbW, CircleW};
use crate::narrow::{scalar, wide};
use crate::pair::Pair;

/// Declares an overlap test, whose hits are its pairs: `$name` between `$a` (`$n` fields,
/// lanes `$aw`) and `$b` (`$m` fields, lanes `$bw`), by `scalar::$f` and `wide::$f`.
macro_rules! overlap_test {
    ($(#[$doc:meta])* $name:ident, $f:ident, ($a:ty, $n:literal, $aw:ident), ($b:ty, $m:literal, $bw:ident)) => {
        $(#[$doc])*
        pub(super) struct $name;

        impl PairTest<$n, $m> for $name {
            type A = $a;
            type B = $b;
            type Hit = Pair;
            #[inline(always)]
            fn as_pairs(out: &mut [Pair]) -> Option<&mut [Pair]> {
                Some(out)
            }
            #[inline(always)]
            fn scalar(a: &$a, b: &$b, p: Pair) -> Option<Pair> {
                scalar::$f(a, b).then_some(p)
            }
            #[inline(always)]
            fn wide<W: F32W>(
                a: [W; $n],
                b: [W; $m],
                group: &[Pair; LANES],
            ) -> (u32, impl HitLanes<Pair>) {
                let (a, b) = ($aw::from_lanes(a), $bw::from_lanes(b));
                (wide::$f(&a, &b).bitmask(), *group)
            }
        }
    };
}

overlap_test! {
    /// Static AABB overlap ([`NarrowPhase::overlap_aabb_aabb`](super::NarrowPhase::overlap_aabb_aabb)).
    AabbAabb, overlap_aabb_aabb, (Aabb, 4, AabbW), (Aabb, 4, AabbW)
}
overlap_test! {
    /// Circle overlap ([`NarrowPhase::overlap_circle_circle`](super::NarrowPhase::overlap_circle_circle)).
    CircleCircle, overlap_circle_circle, (Circle, 3, CircleW), (Circle, 3, CircleW)
}
overlap_test! {
    /// Box–circle overlap ([`NarrowPhase::overlap_aabb_circle`](super::NarrowPhase::overlap_aabb_circle)).
    AabbCircle, overlap_aabb_circle, (Aabb, 4, AabbW), (Circle, 3, CircleW)
}
