//! [`Pair`]: two boxes by their indices, what the broad phase finds and the narrow
//! phase tests. It lives below both (at the store's level, importing nothing of the
//! crate) so that neither reaches into the other for it; its public paths are
//! `hantei::Pair` and `hantei::broad::Pair`.

/// Two overlapping boxes, by their indices in the input.
///
/// Self mode: `a < b`. Bipartite mode: `a` indexes the first set, `b` the second.
/// Ordered by `(a, b)`, which is the canonical listing order of the scene format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub struct Pair {
    /// The first box.
    pub a: u32,
    /// The second box.
    pub b: u32,
}

plain_old_data!(Pair { u32, u32 });

impl Pair {
    /// A pair from two indices, as given.
    #[must_use]
    pub const fn new(a: u32, b: u32) -> Self {
        Self { a, b }
    }
}
