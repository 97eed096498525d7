//! The properties of a box: its filter, owner and response. The handle type lives in
//! `crate::handle`.

pub use crate::handle::BoxHandle;

/// Which boxes may pair, and which of their contacts a box responds to.
///
/// Two boxes `a` and `b` may pair only when both agree, as in Box2D. That is,
/// `a.layers & b.mask != 0` and `b.layers & a.mask != 0`. The default, [`Filter::ALL`],
/// pairs with everything. [`frame::layers`](crate::frame::layers) has ready-made filters
/// for a bullet-hell game.
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
///
/// # Solid and sensor contacts
/// A box's [`Response`] reacts only to contacts with its *solid* layers. Every other
/// contact is a sensor contact: it is reported, and the box moves on. So a player can
/// stop at walls and still only report the bullets that touch it. [`Filter::new`] makes
/// every paired layer solid, and [`Filter::with_solid`] chooses them.
///
/// ```
/// use hantei::Filter;
/// const PLAYER: u32 = 1 << 0;
/// const BULLET: u32 = 1 << 1;
/// const WALL: u32 = 1 << 2;
/// let player = Filter::new(PLAYER, BULLET | WALL).with_solid(WALL);
/// assert!(player.responds_to(WALL));
/// assert!(!player.responds_to(BULLET)); // reported, but the player moves on
/// assert!(Filter::new(PLAYER, WALL).sensor().solid == 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Filter {
    /// The layers this box is on, one bit per layer.
    pub layers: u32,
    /// The layers this box pairs with.
    pub mask: u32,
    /// The layers whose contacts trigger this box's [`Response`].
    ///
    /// Contacts with the other layers of `mask` are sensor contacts. They are reported
    /// and change nothing. Bits outside `mask` have no effect.
    #[cfg_attr(feature = "serde", serde(default = "all_layers"))]
    pub solid: u32,
}

/// Every layer: the `solid` of a filter written before `solid` existed, which reacts to
/// every contact as [`Filter::new`]'s does.
#[cfg(feature = "serde")]
const fn all_layers() -> u32 {
    u32::MAX
}

impl Filter {
    /// On every layer, pairs with every layer, and responds to every contact.
    pub const ALL: Filter = Filter {
        layers: u32::MAX,
        mask: u32::MAX,
        solid: u32::MAX,
    };

    /// A filter from its layer bits and its mask. Every contact is solid: the box's
    /// response reacts to all of them.
    #[must_use]
    pub const fn new(layers: u32, mask: u32) -> Self {
        Self {
            layers,
            mask,
            solid: mask,
        }
    }

    /// Returns this filter with its solid layers set. The box's response reacts only to
    /// contacts with boxes, walls or static boxes on these layers.
    #[must_use]
    pub const fn with_solid(self, solid: u32) -> Self {
        Self { solid, ..self }
    }

    /// Returns this filter with no solid layer. The box reports its contacts and
    /// never responds to them, like a trigger area or a graze box.
    #[must_use]
    pub const fn sensor(self) -> Self {
        self.with_solid(0)
    }

    /// Whether this box responds to a contact with something on `layers`.
    #[inline]
    #[must_use]
    pub const fn responds_to(self, layers: u32) -> bool {
        self.solid & layers != 0
    }

    /// Whether boxes with these two filters may pair. The answer is the same either way
    /// round. The solid layers play no part.
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

/// The game object that a box belongs to.
///
/// Several boxes with one owner form a compound hitbox. In the frame pipeline, boxes of
/// the same owner never pair with each other.
///
/// An owner is any `u64` that the game chooses, except [`Owner::NONE`]. It can be an
/// entity id with its generation, such as an ECS entity's bits. It can also be
/// [`Owner::new`]`(index, generation)`. Give a respawned object a new generation. Then
/// the frame reports that the old body's contacts ended and the new body's contacts
/// began, instead of mixing the two up.
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
    /// No owner. The box is a body by itself.
    pub const NONE: Owner = Owner(u64::MAX);

    /// The owner with this index and generation. The generation goes in the high 32
    /// bits.
    ///
    /// `Owner::new(u32::MAX, u32::MAX)` is [`Owner::NONE`].
    #[must_use]
    pub const fn new(index: u32, generation: u32) -> Self {
        Owner(((generation as u64) << 32) | index as u64)
    }

    /// The index given to [`Owner::new`], from the low 32 bits.
    #[must_use]
    pub const fn index(self) -> u32 {
        self.0 as u32
    }

    /// The generation given to [`Owner::new`], from the high 32 bits.
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

/// What a box does at its first solid contact of the frame in
/// [`Frame::advance`](crate::frame::Frame::advance).
///
/// `advance` moves every box by its motion. Each box responds to its own earliest
/// contact with something on one of its solid layers ([`Filter::solid`]), whether a
/// box, a wall tile or a static box. Its other contacts are sensor contacts: they are
/// reported and change nothing. The other side's response does not matter.
///
/// [`Response::Stop`] answers only a contact that the motion carries the box into, a
/// [`Hit`](crate::narrow::SweepStatus::Hit). Boxes that already overlap when the frame
/// begins are [`Overlapping`](crate::narrow::SweepStatus::Overlapping). They are
/// reported and move on, so nothing gets stuck in what it overlaps.
/// [`Response::Destroy`] answers any contact, so a bullet spawned inside an enemy hits
/// it. [`Response::Slide`] moves like a platformer character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum Response {
    /// The box moves the whole way, and its contacts are reported. This suits a sensor,
    /// an enemy that the game moves, or the player's graze box.
    #[default]
    Pass = 0,
    /// The box stops flush at the time of its first solid hit. This suits an arrow, or
    /// a crate pushed into a wall.
    ///
    /// When the box hits something that stands still, such as a wall, a static box or a
    /// resting box, it never ends inside it. Against a moving box it ends flush within
    /// rounding. Its later contacts in the frame are dropped.
    Stop = 1,
    /// The box is removed from the store at its first solid contact, a hit or an
    /// overlap. This suits a bullet.
    ///
    /// That first contact is reported, and the box's later contacts in the frame are
    /// dropped. On the next advance, its contacts end with
    /// [`PairEvent::removed`](crate::frame::PairEvent::removed) set.
    Destroy = 2,
    /// The box moves and slides along the solid things in its way, like a platformer
    /// character. This suits the player or a walking enemy.
    ///
    /// The box moves one axis at a time, x first and then y, as
    /// [`TileMap::move_and_slide`](crate::tilemap::TileMap::move_and_slide) does. On each
    /// axis it stops flush at the first wall tile, static box or solid box in its way.
    /// Against walls alone it ends exactly where `move_and_slide` puts it. It slides as
    /// its bounding box, so a sliding disc slides like the square around it. The
    /// [`Frame::advance`](crate::frame::Frame::advance) docs give the details.
    Slide = 3,
}

impl Response {
    /// The response stored as `v` (unknown values are [`Response::Pass`]).
    #[must_use]
    pub(crate) const fn from_u8(v: u8) -> Self {
        match v {
            1 => Response::Stop,
            2 => Response::Destroy,
            3 => Response::Slide,
            _ => Response::Pass,
        }
    }
}
