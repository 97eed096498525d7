//! The generational handle of a box in a store.
//!
//! A leaf module: the error type names handles, and the store hands them out.

/// A stable reference to a box in a [`BoxStore`](crate::BoxStore).
///
/// A handle holds an index into the store's slot table, and the slot's generation when
/// the box was inserted. Removing a box bumps its slot's generation. So an old handle
/// never refers to a box inserted later in the same slot. A slot whose generation would
/// wrap around is retired for good.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BoxHandle {
    pub(crate) slot: u32,
    pub(crate) generation: u32,
}

impl BoxHandle {
    /// The slot index. It stays the same for the box's lifetime, and the store may reuse
    /// it after the box is removed.
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

/// Writes the handle as `slot 5 (generation 0)`. Error messages name a box this way.
impl core::fmt::Display for BoxHandle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "slot {} (generation {})", self.slot, self.generation)
    }
}
