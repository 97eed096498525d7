//! [`OwnedFrameReport`]: a frame's report that owns its lists, to keep or to save.

use super::{
    Body, BodyHit, Contact, Destroyed, FrameReport, FrameTimings, PairEvent, StaticHit, WallHit,
};

/// A copy of a [`FrameReport`] that owns its lists.
///
/// A [`FrameReport`] borrows the [`Frame`](super::Frame), so it lasts only until the
/// next step. Keep an `OwnedFrameReport` instead to log a frame, to record a replay or
/// to compare two runs of a rollback game. With the `serde` feature it serializes.
///
/// Two reports are equal when they report the same collisions. The comparison leaves
/// out [`timings`](OwnedFrameReport::timings), which differ from run to run.
///
/// ```
/// use glam::Vec2;
/// use hantei::frame::{Frame, OwnedFrameReport, layers};
/// use hantei::{Aabb, BoxProps, BoxStore};
///
/// let mut store = BoxStore::new();
/// let bullet = BoxProps::new(layers::player_bullet()).with_motion(Vec2::new(10.0, 0.0));
/// store.insert_with(Aabb::from_coords(0.0, 0.0, 1.0, 1.0), bullet)?;
/// store.insert_with(Aabb::from_coords(5.0, 0.0, 6.0, 1.0), BoxProps::new(layers::enemy()))?;
///
/// let mut frame = Frame::new();
/// let first = frame.step(&store)?.to_owned_report();
/// // The next step borrows the frame again; the owned report is still there.
/// let second = frame.step(&store)?.to_owned_report();
/// assert_eq!(first.contacts, second.contacts);
/// assert_eq!((first.began.len(), second.stayed.len()), (1, 1));
/// assert_ne!(first, second); // the events differ
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OwnedFrameReport {
    /// See [`FrameReport::contacts`].
    pub contacts: Vec<Contact>,
    /// See [`FrameReport::began`].
    pub began: Vec<PairEvent>,
    /// See [`FrameReport::stayed`].
    pub stayed: Vec<PairEvent>,
    /// See [`FrameReport::ended`].
    pub ended: Vec<PairEvent>,
    /// See [`FrameReport::wall_hits`].
    pub wall_hits: Vec<WallHit>,
    /// See [`FrameReport::static_hits`].
    pub static_hits: Vec<StaticHit>,
    /// See [`FrameReport::destroyed`].
    pub destroyed: Vec<Destroyed>,
    /// See [`FrameReport::hits`].
    pub hits: Vec<BodyHit>,
    /// See [`FrameReport::candidates`].
    pub candidates: usize,
    /// See [`FrameReport::timings`]. Equality leaves this field out.
    pub timings: FrameTimings,
}

impl OwnedFrameReport {
    /// What `body` touched in this step, earliest first. See [`FrameReport::hits_of`].
    #[must_use]
    pub fn hits_of(&self, body: Body) -> &[BodyHit] {
        self.as_report().hits_of(body)
    }

    /// The report as a [`FrameReport`] that borrows this one.
    #[must_use]
    pub fn as_report(&self) -> FrameReport<'_> {
        FrameReport {
            contacts: &self.contacts,
            began: &self.began,
            stayed: &self.stayed,
            ended: &self.ended,
            wall_hits: &self.wall_hits,
            static_hits: &self.static_hits,
            destroyed: &self.destroyed,
            hits: &self.hits,
            candidates: self.candidates,
            timings: self.timings,
        }
    }
}

impl PartialEq for OwnedFrameReport {
    fn eq(&self, other: &Self) -> bool {
        self.contacts == other.contacts
            && self.began == other.began
            && self.stayed == other.stayed
            && self.ended == other.ended
            && self.wall_hits == other.wall_hits
            && self.static_hits == other.static_hits
            && self.destroyed == other.destroyed
            && self.hits == other.hits
            && self.candidates == other.candidates
    }
}

impl From<FrameReport<'_>> for OwnedFrameReport {
    fn from(r: FrameReport<'_>) -> Self {
        r.to_owned_report()
    }
}

impl FrameReport<'_> {
    /// Copies the report into an [`OwnedFrameReport`], which does not borrow the frame.
    #[must_use]
    pub fn to_owned_report(&self) -> OwnedFrameReport {
        OwnedFrameReport {
            contacts: self.contacts.to_vec(),
            began: self.began.to_vec(),
            stayed: self.stayed.to_vec(),
            ended: self.ended.to_vec(),
            wall_hits: self.wall_hits.to_vec(),
            static_hits: self.static_hits.to_vec(),
            destroyed: self.destroyed.to_vec(),
            hits: self.hits.to_vec(),
            candidates: self.candidates,
            timings: self.timings,
        }
    }
}
