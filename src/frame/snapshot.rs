//! Rollback: the only state a [`Frame`] carries from one step to the next.
//!
//! A step's began / stayed / ended events compare this step's contacting body pairs with
//! the previous step's. Everything else in a `Frame` is a buffer, rebuilt by every step.
//! So a rollback game saves [`FrameEvents`] with its [`BoxStore`](crate::BoxStore) (the
//! store is `Serialize` too, with the `serde` feature), and after restoring both, the
//! next steps report exactly what they reported the first time.

use super::{Frame, PairEvent};
use crate::error::Error;

/// The body pairs in contact at the end of a [`Frame`]'s last step, with their boxes
/// and user data: what its next step compares against to tell began, stayed and ended
/// apart.
///
/// The pairs are strictly sorted by bodies, each with `a < b` and `removed` unset, as
/// a report's `began` and `stayed` together list them; [`FrameEvents::from_events`]
/// checks this, and so does deserializing (with the `serde` feature), so a restored
/// frame's events are always well defined.
///
/// ```
/// use hantei::frame::{Frame, FrameEvents, layers};
/// use hantei::{Aabb, BoxProps, BoxStore, Owner};
/// use glam::Vec2;
/// let mut store = BoxStore::new();
/// let props = |filter, owner| BoxProps { filter, owner: Owner(owner), ..Default::default() };
/// let bullet = store.insert_with(Aabb::from_coords(0.0, 0.0, 1.0, 1.0), props(layers::player_bullet(), 1))?;
/// store.insert_with(Aabb::from_coords(0.5, 0.0, 2.0, 1.0), props(layers::enemy(), 2))?;
/// let mut frame = Frame::new();
/// assert_eq!(frame.step(&store)?.began.len(), 1);
///
/// // Save the frame's events with the store (here: clones; a game would serialize both).
/// let saved = (store.clone(), frame.events_snapshot());
/// assert_eq!(saved.1.events().len(), 1);
///
/// // The bullet leaves: the contact ends.
/// store.update(bullet, Aabb::from_coords(9.0, 9.0, 10.0, 10.0))?;
/// assert_eq!(frame.step(&store)?.ended.len(), 1);
///
/// // Roll back and replay: the contact stays, as it did the first time.
/// let (store, events) = saved;
/// frame.restore_events(&events);
/// let report = frame.step(&store)?;
/// assert_eq!((report.began.len(), report.stayed.len()), (0, 1));
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "EventsFields")
)]
pub struct FrameEvents {
    pairs: Vec<PairEvent>,
}

impl FrameEvents {
    /// No pair in contact: what a new frame, or one after [`Frame::reset_events`],
    /// starts from (its next step reports every contact as begun).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Events from the pairs in contact, as a report's `began` and `stayed` together
    /// list them (sorted by bodies).
    ///
    /// ```
    /// use hantei::frame::{Body, BodyPair, FrameEvents, PairEvent};
    /// use hantei::{Aabb, BoxStore, Owner};
    /// let mut store = BoxStore::new();
    /// let h = store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0))?;
    /// let pair = |a, b| PairEvent {
    ///     bodies: BodyPair { a: Body::Owner(Owner(a)), b: Body::Owner(Owner(b)) },
    ///     boxes: (h, h),
    ///     user_data: (a, b),
    ///     removed: false,
    /// };
    /// assert!(FrameEvents::from_events(vec![pair(1, 2), pair(1, 3)]).is_ok());
    /// assert!(FrameEvents::from_events(vec![pair(1, 3), pair(1, 2)]).is_err()); // unsorted
    /// assert!(FrameEvents::from_events(vec![pair(2, 1)]).is_err()); // a > b
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidEvents`] naming the first pair that is not after the one before
    /// it (unsorted or repeated), whose bodies are not in order (`a < b`), or that is
    /// marked `removed`.
    pub fn from_events(pairs: Vec<PairEvent>) -> Result<Self, Error> {
        for (index, p) in pairs.iter().enumerate() {
            if p.bodies.a >= p.bodies.b {
                return Err(Error::InvalidEvents {
                    index,
                    reason: "its bodies are not in order (a < b)",
                });
            }
            if index > 0 && pairs[index - 1].bodies >= p.bodies {
                return Err(Error::InvalidEvents {
                    index,
                    reason: "not after the pair before it (pairs must be sorted, each once)",
                });
            }
            if p.removed {
                return Err(Error::InvalidEvents {
                    index,
                    reason: "marked removed (only an ended pair is)",
                });
            }
        }
        Ok(Self { pairs })
    }

    /// The pairs in contact, sorted by bodies.
    #[must_use]
    pub fn events(&self) -> &[PairEvent] {
        &self.pairs
    }

    /// The pairs in contact, sorted by bodies, as a vector.
    #[must_use]
    pub fn into_events(self) -> Vec<PairEvent> {
        self.pairs
    }
}

/// Rollback: save and restore the events state (see [`FrameEvents`]).
impl Frame {
    /// The body pairs in contact at the end of the last step (none before the first step
    /// or after [`Frame::reset_events`]).
    #[must_use]
    pub fn events_snapshot(&self) -> FrameEvents {
        FrameEvents {
            pairs: self.previous.clone(),
        }
    }

    /// [`Frame::events_snapshot`] into `out`, reusing its allocation (for a game that
    /// saves every frame).
    pub fn events_snapshot_into(&self, out: &mut FrameEvents) {
        out.pairs.clone_from(&self.previous);
    }

    /// Makes `events` the state the next step compares against, as if the step that
    /// saved them had just run. The frame's settings and buffers are kept.
    pub fn restore_events(&mut self, events: &FrameEvents) {
        self.previous.clone_from(&events.pairs);
    }
}

/// [`FrameEvents`] as read, before the check.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename = "FrameEvents")]
struct EventsFields {
    pairs: Vec<PairEvent>,
}

#[cfg(feature = "serde")]
impl TryFrom<EventsFields> for FrameEvents {
    type Error = Error;

    fn try_from(f: EventsFields) -> Result<Self, Error> {
        FrameEvents::from_events(f.pairs)
    }
}
