//! Rollback support: the only state that a [`Frame`] carries from one step to the next.
//!
//! A step finds its began, stayed and ended events by comparing the body pairs in
//! contact now with those of the previous step. That list of pairs is the frame's only
//! state. Everything else in a `Frame` is a buffer that every step rebuilds.
//!
//! So a rollback game saves [`FrameEvents`] together with its
//! [`BoxStore`](crate::BoxStore). With the `serde` feature, both are `Serialize`. After
//! the game restores both, the next steps report exactly what they reported the first
//! time.
//!
//! A game that keeps its snapshots in memory saves and restores them without
//! allocating: [`Frame::events_snapshot_into`] and [`Frame::restore_events`] for the
//! events, and `clone_from` for the store, which copies into the target's own buffers.

use super::{Frame, PairEvent};
use crate::error::Error;

/// The body pairs in contact at the end of a [`Frame`]'s last step, with their boxes
/// and user data.
///
/// The frame's next step compares against these pairs to tell which contacts began,
/// stayed or ended.
///
/// The pairs are strictly sorted by bodies. Each pair has `a < b` and `removed` unset.
/// This is how a report's `began` and `stayed` list them together.
/// [`FrameEvents::from_events`] checks these rules, and so does deserializing with the
/// `serde` feature. So a restored frame's events are always well defined.
///
/// A game saves the events with its store, then rolls back and replays a step:
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
    /// No pairs in contact.
    ///
    /// A new frame starts from this state, and so does a frame after
    /// [`Frame::reset_events`]. Its next step reports every contact as begun.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Events from the pairs in contact, sorted by bodies. List them as a report's
    /// `began` and `stayed` list them together.
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
    /// [`Error::InvalidEvents`] naming the first pair that breaks a rule. A pair breaks
    /// a rule when
    /// - its bodies are out of order, so `a < b` fails,
    /// - it does not come after the pair before it, because the list is unsorted or
    ///   repeats a pair, or
    /// - it is marked `removed`.
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

/// Rollback: saving and restoring the event state. See [`FrameEvents`].
impl Frame {
    /// The body pairs in contact at the end of the last step.
    ///
    /// There are none before the first step and after [`Frame::reset_events`].
    #[must_use]
    pub fn events_snapshot(&self) -> FrameEvents {
        FrameEvents {
            pairs: self.previous.clone(),
        }
    }

    /// Writes [`Frame::events_snapshot`] into `out` and reuses its allocation. This
    /// suits a game that saves every frame.
    pub fn events_snapshot_into(&self, out: &mut FrameEvents) {
        out.pairs.clone_from(&self.previous);
    }

    /// Makes `events` the state that the next step compares against, as if the step
    /// that saved them had just run. The frame keeps its settings and buffers.
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
