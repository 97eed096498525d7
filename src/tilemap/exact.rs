//! Exact `f32` face placement: where a face lands when it moves, so that no face ever
//! moves farther than asked and a stopped face sits exactly on a tile edge.
//!
//! An `f32` sum rounds to nearest, so `max.x + 0.04` at `x = 10⁶` (spacing `0.0625`)
//! lands `0.0225` *past* the asked motion. Instead, every face here is rounded toward
//! where it started. The tests decide "did it go too far" exactly: the difference of two
//! `f32` is held as an unevaluated `f64` sum `hi + lo` (Knuth's TwoSum, error-free), and
//! two such differences compare lexicographically.

use core::cmp::Ordering;

/// `a - b` exactly, as `hi + lo` with `hi = fl(a - b)` (TwoSum).
#[inline]
fn two_diff(a: f64, b: f64) -> (f64, f64) {
    let c = -b;
    let s = a + c;
    let bb = s - a;
    let err = (a - (s - bb)) + (c - bb);
    (s, err)
}

/// Compares `a - b` with `c - d` exactly (`None` when a value is not finite).
#[inline]
pub(crate) fn cmp_diff(a: f32, b: f32, c: f32, d: f32) -> Option<Ordering> {
    if !(a.is_finite() && b.is_finite() && c.is_finite() && d.is_finite()) {
        return None;
    }
    let (h1, l1) = two_diff(f64::from(a), f64::from(b));
    let (h2, l2) = two_diff(f64::from(c), f64::from(d));
    // Rounding is monotone, so hi decides unless it ties; then lo is the exact rest.
    match h1.partial_cmp(&h2)? {
        Ordering::Equal => l1.partial_cmp(&l2),
        o => Some(o),
    }
}

/// Whether `to - from` is at most `step` in size and has its sign (exactly; `step` may be
/// negative, `to == from` always qualifies).
#[cfg(any(test, feature = "fuzzing"))]
#[inline]
pub(crate) fn within(from: f32, to: f32, step: f32) -> bool {
    if to == from {
        return true;
    }
    let Some(o) = cmp_diff(to, from, step, 0.0) else {
        return false;
    };
    if step > 0.0 {
        to > from && o != Ordering::Greater
    } else {
        to < from && o != Ordering::Less
    }
}

/// The `f32` nearest to `a + d` that does not pass it: the largest `t <= a + d` when
/// `d > 0`, the smallest `t >= a + d` when `d < 0` (exactly; saturates at `±f32::MAX`).
#[inline(always)]
pub(crate) fn advance(a: f32, d: f32) -> f32 {
    if d == 0.0 {
        return a;
    }
    // Usually a + d is exact in f64: then rounding it back to f32 is the answer.
    let (s, err) = two_diff(f64::from(a), -f64::from(d));
    if err == 0.0 {
        return round_back(s, d > 0.0);
    }
    let t = a + d;
    if !t.is_finite() {
        // Round-to-nearest overflows only when |a + d| > f32::MAX.
        return f32::MAX.copysign(d);
    }
    match cmp_diff(t, a, d, 0.0) {
        Some(Ordering::Greater) if d > 0.0 => t.next_down(),
        Some(Ordering::Less) if d < 0.0 => t.next_up(),
        _ => t,
    }
}

/// Where a trailing face at `trail` goes when its leading face moved from `lead0` to
/// `lead1`: the `f32` closest to `trail + (lead1 - lead0)` that does not pass it, so the
/// trailing face moves at most as far as the leading one and the size never shrinks.
/// It is exact (the size is kept) whenever that sum is representable.
#[inline(always)]
pub(crate) fn follow(trail: f32, lead0: f32, lead1: f32) -> f32 {
    if lead1 == lead0 {
        return trail;
    }
    let up = lead1 > lead0;
    // Usually trail + (lead1 - lead0) is exact in f64 (both steps error-free): then
    // rounding it back to f32 is the answer.
    let (h, l) = two_diff(f64::from(lead1), f64::from(lead0));
    if l == 0.0 {
        let (s, err) = two_diff(f64::from(trail), -h);
        if err == 0.0 {
            let c = round_back(s, up);
            return if up { c.max(trail) } else { c.min(trail) };
        }
    }
    let ok = |c: f32| match cmp_diff(c, trail, lead1, lead0) {
        Some(Ordering::Equal) => true,
        Some(Ordering::Less) => up,
        Some(Ordering::Greater) => !up,
        None => false,
    };
    let back = |c: f32| if up { c.next_down() } else { c.next_up() };
    let fwd = |c: f32| if up { c.next_up() } else { c.next_down() };
    // The estimate keeps both rounding errors: (lead1 - lead0) = h + l exactly, and
    // trail + h = s + e exactly, so trail + (lead1 - lead0) = s + (e + l) up to the last
    // addition. Dropping them misses by many ulps when the magnitudes are far apart (a
    // face at 2e-43 moved by 3e-16, found by the tilemap_cast fuzz target).
    let (s, e) = two_diff(f64::from(trail), -h);
    let mut c = (s + (e + l)) as f32;
    let mut tries = 0;
    while !ok(c) {
        c = back(c);
        tries += 1;
        if tries > 4 {
            return trail;
        }
    }
    for _ in 0..2 {
        let n = fwd(c);
        if ok(n) {
            c = n;
        } else {
            break;
        }
    }
    if up { c.max(trail) } else { c.min(trail) }
}

/// `x` as an `f32`, rounded toward `-∞` when `up` (the motion is positive) and toward
/// `+∞` otherwise, so it never lies past `x` in the direction of motion.
#[inline]
pub(crate) fn round_back(x: f64, up: bool) -> f32 {
    let c = x as f32;
    if up && f64::from(c) > x {
        c.next_down()
    } else if !up && f64::from(c) < x {
        c.next_up()
    } else {
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advance_never_overshoots() {
        // 10^6 + 0.04 rounds to 10^6 + 0.0625 to nearest: too far.
        assert_eq!(advance(1.0e6, 0.04), 1.0e6);
        assert_eq!(advance(1.0e6, 0.1), 1.0e6 + 0.0625);
        assert_eq!(advance(1.0e6, -0.1), 1.0e6 - 0.0625);
        assert_eq!(advance(1.0, 2.0), 3.0);
        // a + d = 1 - 2^-100 exactly: the largest f32 below 1.
        assert_eq!(advance(-(2.0f32).powi(-100), 1.0), 1.0f32.next_down());
        assert_eq!(advance(3.0e38, 3.0e38), f32::MAX);
        assert_eq!(advance(-3.0e38, -3.0e38), -f32::MAX);
        assert_eq!(advance(5.0, 0.0), 5.0);
        // Magnitudes 2^200 apart: not exact in f64, the slow path decides.
        let (big, tiny) = (2.0f32.powi(100), 2.0f32.powi(-100));
        assert_eq!(advance(big, tiny), big);
        assert_eq!(advance(tiny, big), big);
        assert_eq!(advance(-tiny, big), big.next_down());
        assert_eq!(advance(tiny, -big), -big.next_down());
    }

    #[test]
    fn follow_keeps_the_size_when_it_can() {
        assert_eq!(follow(0.0, 16.0, 20.0), 4.0);
        assert_eq!(follow(1.0e6, 1.0e6 + 16.0, 1.0e6 + 32.0), 1.0e6 + 16.0);
        assert_eq!(follow(4.0, 0.0, -3.0), 1.0);
        // Not exact in f64 (the slow path): 2^100 ± 2^-100 rounds back toward the start.
        let (big, tiny) = (2.0f32.powi(100), 2.0f32.powi(-100));
        assert_eq!(follow(tiny, 0.0, big), big);
        assert_eq!(follow(-tiny, 0.0, big), big.next_down());
        assert_eq!(follow(0.0, -tiny, big), big);
        assert_eq!(follow(tiny, 0.0, -big), -big.next_down());
        // Into the next binade (spacing 0.0625 below 2^20, 0.125 above): exact when
        // representable, else the trailing face lags by half a step and the box grows.
        let m = 1_048_576.0_f32; // 2^20
        assert_eq!(follow(m - 0.125, m + 14.0, m + 14.125), m);
        assert_eq!(follow(m - 0.0625, m + 14.0, m + 14.125), m);
        // Not representable: the trailing face lags, the size grows by < 1 ulp.
        // -3 + 2^-24 is not an f32 (spacing 2^-22 there): the face stays at -3.
        assert_eq!(follow(-3.0, 0.25, 0.25 + 2.0f32.powi(-24)), -3.0);
        assert_eq!(
            follow(-3.0, 0.25, 0.25 + 2.0f32.powi(-22)),
            -3.0 + 2.0f32.powi(-22)
        );
    }

    #[test]
    fn cmp_diff_is_exact() {
        let tiny = (2.0f32).powi(-100);
        assert_eq!(cmp_diff(1.0, -tiny, 1.0, 0.0), Some(Ordering::Greater));
        assert_eq!(cmp_diff(1.0, tiny, 1.0, 0.0), Some(Ordering::Less));
        assert_eq!(cmp_diff(3.0, 1.0, 2.0, 0.0), Some(Ordering::Equal));
        assert_eq!(cmp_diff(f32::NAN, 1.0, 2.0, 0.0), None);
    }

    #[test]
    fn round_back_points_home() {
        let x = 1.0e6_f64 + 0.04;
        assert_eq!(round_back(x, true), 1.0e6);
        assert_eq!(round_back(x, false), 1.0e6 + 0.0625);
        assert_eq!(round_back(2.0, true), 2.0);
        assert_eq!(round_back(1e300, true), f32::MAX);
    }
}
