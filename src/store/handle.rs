//! Generational handles, box properties (collision filter, owner).

/// A stable reference to a box in a [`crate::BoxStore`].
///
/// A handle is an index into the store's slot table plus the slot's generation when the
/// box was inserted. Removing a box bumps its slot's generation, so an old handle never
/// refers to a box inserted later in the same slot (a slot whose generation would wrap is
/// retired for good).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BoxHandle {
    pub(crate) slot: u32,
    pub(crate) generation: u32,
}

impl BoxHandle {
    /// The slot index (stable for the box's lifetime; reused after removal).
    #[must_use]
    pub fn slot(self) -> u32 {
        self.slot
    }

    /// The slot's generation when this box was inserted.
    #[must_use]
    pub fn generation(self) -> u32 {
        self.generation
    }
}

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Owner(pub u32);

impl Owner {
    /// No owner: the box stands for itself.
    pub const NONE: Owner = Owner(u32::MAX);
}

impl Default for Owner {
    fn default() -> Self {
        Owner::NONE
    }
}
