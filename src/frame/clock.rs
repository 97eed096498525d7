//! The clock behind [`FrameTimings`](super::FrameTimings).
//!
//! It uses `std::time::Instant` where the target has one. `wasm32-unknown-unknown` has
//! no clock, and `Instant::now()` panics there with "time not implemented on this
//! platform". On that target every duration it measures is zero. So
//! [`Frame::step`](super::Frame::step) runs the same on every target, and only its
//! timings go missing.

use std::time::Duration;

/// A point in time, or nothing on a target without a clock.
#[derive(Debug, Clone, Copy)]
pub(super) struct Stamp {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    at: std::time::Instant,
}

impl Stamp {
    /// Now (a placeholder on a target without a clock).
    #[inline]
    pub(super) fn now() -> Stamp {
        Stamp {
            #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
            at: std::time::Instant::now(),
        }
    }

    /// The time from `earlier` to `self` (zero when `earlier` is later, and always zero
    /// on a target without a clock).
    #[inline]
    pub(super) fn since(self, earlier: Stamp) -> Duration {
        #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
        {
            self.at.saturating_duration_since(earlier.at)
        }
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        {
            let _ = earlier;
            Duration::ZERO
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_ordered_and_never_negative() {
        let a = Stamp::now();
        std::thread::sleep(Duration::from_millis(2));
        let b = Stamp::now();
        assert_eq!(a.since(b), Duration::ZERO, "an earlier stamp saturates");
        if cfg!(all(target_arch = "wasm32", target_os = "unknown")) {
            assert_eq!(b.since(a), Duration::ZERO);
        } else {
            assert!(b.since(a) >= Duration::from_millis(2));
        }
    }
}
