//! Box properties (collision filter, owner); the handle type lives in `crate::handle`.

pub use crate::handle::BoxHandle;

/// Which boxes may pair: layer membership and the layers a box pairs with.
///
/// Two boxes `a` and `b` are allowed to pair iff `a.layers & b.mask != 0` and
/// `b.layers & a.mask != 0` (both must agree, as in Box2D). The default,
/// [`Filter::ALL`], pairs with everything.
///
/// ```
/// use hantei::Filter;
/// const BULLET: u32 = 1 << 0;
/// const ENEMY: u32 = 1 << 1;
/// let bullet = Filter::new(BULLET, ENEMY); // bullets hit enemies, never bullets
/// let enemy = Filter::new(ENEMY, BULLET);
/// assert!(bullet.pairs_with(enemy));
/// assert!(!bullet.pairs_with(bullet));
/// assert!(Filter::ALL.pairs_with(Filter::ALL));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Filter {
    /// The layers this box belongs to (one bit each).
    pub layers: u32,
    /// The layers this box pairs with.
    pub mask: u32,
}

impl Filter {
    /// Member of every layer, pairs with every layer.
    pub const ALL: Filter = Filter {
        layers: u32::MAX,
        mask: u32::MAX,
    };

    /// A filter from its membership bits and its mask.
    #[must_use]
    pub const fn new(layers: u32, mask: u32) -> Self {
        Self { layers, mask }
    }

    /// Whether boxes with these two filters may pair (symmetric).
    #[inline]
    #[must_use]
    pub const fn pairs_with(self, other: Filter) -> bool {
        self.layers & other.mask != 0 && other.layers & self.mask != 0
    }
}

impl Default for Filter {
    fn default() -> Self {
        Filter::ALL
    }
}

/// The game object a box belongs to; several boxes with one owner form a compound
/// hitbox, and boxes of the same owner never pair with each other in the frame pipeline.
///
/// An owner is any `u64` the game chooses except [`Owner::NONE`]: an entity id with
/// its generation (an ECS entity's bits), or [`Owner::new`]`(index, generation)`. Give
/// a respawned object a new generation: the frame then reports the old body's contacts
/// ended and the new one's began, instead of confusing the two.
///
/// ```
/// use hantei::Owner;
/// let first = Owner::new(7, 0);
/// let respawned = Owner::new(7, 1); // the same slot in the game's enemy table
/// assert_ne!(first, respawned);
/// assert_eq!((respawned.index(), respawned.generation()), (7, 1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Owner(pub u64);

impl Owner {
    /// No owner: the box stands for itself.
    pub const NONE: Owner = Owner(u64::MAX);

    /// The owner `index` of generation `generation` (`generation` in the high 32 bits).
    /// `Owner::new(u32::MAX, u32::MAX)` is [`Owner::NONE`].
    #[must_use]
    pub const fn new(index: u32, generation: u32) -> Self {
        Owner(((generation as u64) << 32) | index as u64)
    }

    /// The low 32 bits: the index given to [`Owner::new`].
    #[must_use]
    pub const fn index(self) -> u32 {
        self.0 as u32
    }

    /// The high 32 bits: the generation given to [`Owner::new`].
    #[must_use]
    pub const fn generation(self) -> u32 {
        (self.0 >> 32) as u32
    }
}

impl Default for Owner {
    fn default() -> Self {
        Owner::NONE
    }
}

/// What a box does at its first contact of the frame in
/// [`Frame::advance`](crate::frame::Frame::advance) (which moves every box by its
/// motion): every box responds to its own earliest contact (with a box, a wall tile or
/// a static box), whatever the other side's response.
///
/// A stop answers only a contact the motion carries the box into (a
/// [`Hit`](crate::narrow::SweepStatus::Hit)): boxes already touching or overlapping when
/// the frame begins ([`Overlapping`](crate::narrow::SweepStatus::Overlapping)) are
/// reported and move on, so nothing is stuck in what it overlaps. A destroy answers any
/// contact: a bullet spawned inside an enemy hits it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum Response {
    /// Moves the whole way; its contacts are reported (a sensor, an enemy moved by the
    /// game, the player's graze box).
    #[default]
    Pass = 0,
    /// Stops flush at the time of its first hit (an arrow, a crate pushed into a wall):
    /// never inside what it hit when that stands still (a wall, a static box, a resting
    /// box); against a moving box flush within rounding. Its later contacts in the frame
    /// are dropped.
    Stop = 1,
    /// Removed from the store at its first contact (hit or overlap), which is reported;
    /// its later contacts in the frame are dropped, and its contacts end, flagged
    /// `removed`, on the next advance. A bullet.
    Destroy = 2,
}

impl Response {
    /// The response stored as `v` (unknown values are [`Response::Pass`]).
    #[must_use]
    pub(crate) const fn from_u8(v: u8) -> Self {
        match v {
            1 => Response::Stop,
            2 => Response::Destroy,
            _ => Response::Pass,
        }
    }
}
