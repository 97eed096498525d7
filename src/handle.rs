//! The generational handle of a box in a store.
//!
//! A leaf module: the error type names handles, and the store hands them out.

/// A stable reference to a box in a [`BoxStore`](crate::BoxStore).
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

/// Writes the handle as `slot 5 (generation 0)`, as error messages name a box.
impl core::fmt::Display for BoxHandle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "slot {} (generation {})", self.slot, self.generation)
    }
}
