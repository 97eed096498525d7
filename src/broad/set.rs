//! [`BoxSet`]: the boxes a broad-phase call reads, from a slice, columns or a store.

use crate::error::{Error, check_len};
use crate::lanes::{F32W, LANES, MaskW};
use crate::math::{Aabb, box_defect};
use crate::store::{BoxStore, Filter};

/// A borrowed set of boxes for the broad phase, with their filters if you give them.
///
/// Build a set from a `&[Aabb]`, which is read in place without a copy. You can also
/// build it from four coordinate columns, or from a [`BoxStore`], which gives its
/// columns and filters. Lengths are checked when the set is built. Coordinates are
/// checked by the call that reads the set.
///
/// ```
/// use hantei::{Aabb, BoxSet, Filter};
/// let boxes = [Aabb::from_coords(0.0, 0.0, 1.0, 1.0)];
/// let set = BoxSet::from(&boxes[..]);
/// assert_eq!(set.len(), 1);
/// let filters = [Filter::ALL, Filter::ALL];
/// assert!(set.with_filters(&filters).is_err()); // 2 filters for 1 box
/// ```
#[derive(Debug, Clone, Copy)]
pub struct BoxSet<'a> {
    pub(crate) bounds: Bounds<'a>,
    pub(crate) filters: Option<Filters<'a>>,
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum Bounds<'a> {
    Slice(&'a [Aabb]),
    Columns([&'a [f32]; 4]),
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum Filters<'a> {
    Slice(&'a [Filter]),
    Columns(&'a [u32], &'a [u32]),
    /// One filter for every box.
    One(Filter),
}

impl<'a> BoxSet<'a> {
    /// Boxes read in place from a slice.
    #[must_use]
    pub fn from_slice(boxes: &'a [Aabb]) -> Self {
        Self {
            bounds: Bounds::Slice(boxes),
            filters: None,
        }
    }

    /// Boxes from four coordinate columns, as a structure of arrays.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] unless all four columns have the same length.
    pub fn from_columns(
        min_x: &'a [f32],
        min_y: &'a [f32],
        max_x: &'a [f32],
        max_y: &'a [f32],
    ) -> Result<Self, Error> {
        check_len("min_y column", min_x.len(), min_y.len())?;
        check_len("max_x column", min_x.len(), max_x.len())?;
        check_len("max_y column", min_x.len(), max_y.len())?;
        Ok(Self {
            bounds: Bounds::Columns([min_x, min_y, max_x, max_y]),
            filters: None,
        })
    }

    /// The same boxes, with one [`Filter`] for each box.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] unless there is one filter per box.
    pub fn with_filters(self, filters: &'a [Filter]) -> Result<Self, Error> {
        check_len("filters", self.len(), filters.len())?;
        Ok(Self {
            filters: Some(Filters::Slice(filters)),
            ..self
        })
    }

    /// The same boxes, every one with filter `f`.
    pub(crate) fn with_filter(self, f: Filter) -> Self {
        Self {
            filters: Some(Filters::One(f)),
            ..self
        }
    }

    /// The same boxes, with filters given as columns of layers and masks.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] unless there is one layer value and one mask per box.
    pub fn with_filter_columns(self, layers: &'a [u32], masks: &'a [u32]) -> Result<Self, Error> {
        check_len("layers column", self.len(), layers.len())?;
        check_len("masks column", self.len(), masks.len())?;
        Ok(Self {
            filters: Some(Filters::Columns(layers, masks)),
            ..self
        })
    }

    /// The number of boxes.
    #[must_use]
    pub fn len(&self) -> usize {
        match self.bounds {
            Bounds::Slice(s) => s.len(),
            Bounds::Columns(c) => c[0].len(),
        }
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Runs `f` with a monomorphic accessor for the bounds (so hot loops inline it).
    #[inline]
    pub(crate) fn with_bounds<R>(&self, f: impl WithBounds<Output = R>) -> R {
        match self.bounds {
            Bounds::Slice(s) => f.call(SliceBounds(s)),
            Bounds::Columns(c) => f.call(ColumnBounds(c)),
        }
    }

    /// Box `i` as `[min_x, min_y, max_x, max_y]`.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> [f32; 4] {
        match self.bounds {
            Bounds::Slice(s) => {
                let b = s[i];
                [b.min.x, b.min.y, b.max.x, b.max.y]
            }
            Bounds::Columns(c) => [c[0][i], c[1][i], c[2][i], c[3][i]],
        }
    }

    /// Asks for box `i`'s bounds to be brought into the cache (any `i`: past the end it
    /// prefetches an address that nothing reads, which is harmless).
    #[inline]
    pub(crate) fn prefetch(&self, i: usize) {
        match self.bounds {
            Bounds::Slice(s) => crate::lanes::prefetch(s.as_ptr().wrapping_add(i)),
            Bounds::Columns(c) => {
                for col in c {
                    crate::lanes::prefetch(col.as_ptr().wrapping_add(i));
                }
            }
        }
    }

    /// Filter of box `i` (`Filter::ALL` when the set has none).
    #[inline]
    pub(crate) fn filter(&self, i: usize) -> Filter {
        match self.filters {
            None => Filter::ALL,
            Some(Filters::Slice(f)) => f[i],
            Some(Filters::Columns(l, m)) => Filter::new(l[i], m[i]),
            Some(Filters::One(f)) => f,
        }
    }

    /// Box `i` as an [`Aabb`].
    #[inline]
    pub(crate) fn aabb(&self, i: usize) -> Aabb {
        let [a, b, c, d] = self.get(i);
        Aabb::from_coords(a, b, c, d)
    }

    /// Checks every box; the first invalid one is named by its index.
    pub(crate) fn validate(&self) -> Result<(), Error> {
        crate::error::check_count(self.len())?;
        for i in 0..self.len() {
            let [a, b, c, d] = self.get(i);
            if let Some(defect) = box_defect(a, b, c, d) {
                return Err(Error::InvalidBox { index: i, defect });
            }
        }
        Ok(())
    }
}

impl<'a> From<&'a [Aabb]> for BoxSet<'a> {
    fn from(boxes: &'a [Aabb]) -> Self {
        BoxSet::from_slice(boxes)
    }
}

impl<'a, const N: usize> From<&'a [Aabb; N]> for BoxSet<'a> {
    fn from(boxes: &'a [Aabb; N]) -> Self {
        BoxSet::from_slice(boxes)
    }
}

impl<'a> From<&'a Vec<Aabb>> for BoxSet<'a> {
    fn from(boxes: &'a Vec<Aabb>) -> Self {
        BoxSet::from_slice(boxes)
    }
}

impl<'a> From<&'a BoxStore> for BoxSet<'a> {
    /// The store's boxes in dense order, with their filters.
    fn from(store: &'a BoxStore) -> Self {
        BoxSet {
            bounds: Bounds::Columns([store.min_x(), store.min_y(), store.max_x(), store.max_y()]),
            filters: Some(Filters::Columns(store.layers(), store.masks())),
        }
    }
}

/// Whether all eight boxes pass the quick validity test: ordered, with finite extents
/// (a NaN or infinite coordinate makes an extent non-finite). A group that fails it must
/// go box by box through the exact test (`Aabb::validate`), which also accepts finite
/// boxes whose extent overflows `f32`, so that the lane paths keep the scalar order.
#[inline(always)]
pub(crate) fn all_plainly_valid<W: F32W>([x0, y0, x1, y1]: [W; 4]) -> bool {
    let max = W::splat(f32::MAX);
    (x0.le(x1) & y0.le(y1) & (x1 - x0).le(max) & (y1 - y0).le(max)).all()
}

/// Read access to box bounds, implemented once per storage layout.
pub(crate) trait BoundsRead: Copy + Sync {
    /// Boxes `from..` in order, without a bounds check per box.
    fn iter(&self, from: core::ops::RangeFrom<usize>) -> impl Iterator<Item = [f32; 4]>;
    /// Boxes `i..i + LANES` as four lanes: `[min_x, min_y, max_x, max_y]`.
    ///
    /// # Panics
    /// If `i + LANES` is past the end.
    fn lanes<W: F32W>(&self, i: usize) -> [W; 4];
}

/// Bounds read from a `&[Aabb]`.
#[derive(Clone, Copy)]
pub(crate) struct SliceBounds<'a>(&'a [Aabb]);

impl BoundsRead for SliceBounds<'_> {
    #[inline(always)]
    fn iter(&self, from: core::ops::RangeFrom<usize>) -> impl Iterator<Item = [f32; 4]> {
        self.0[from]
            .iter()
            .map(|b| [b.min.x, b.min.y, b.max.x, b.max.y])
    }
    #[inline(always)]
    fn lanes<W: F32W>(&self, i: usize) -> [W; 4] {
        W::load_transposed4(bytemuck::cast_slice(&self.0[i..i + LANES]))
    }
}

/// Bounds read from four columns of equal length.
#[derive(Clone, Copy)]
pub(crate) struct ColumnBounds<'a>([&'a [f32]; 4]);

impl BoundsRead for ColumnBounds<'_> {
    #[inline(always)]
    fn iter(&self, from: core::ops::RangeFrom<usize>) -> impl Iterator<Item = [f32; 4]> {
        let [a, b, c, d] = self.0;
        let n = a.len();
        let (a, b, c, d) = (
            &a[from.start..n],
            &b[from.start..n],
            &c[from.start..n],
            &d[from.start..n],
        );
        a.iter()
            .zip(b)
            .zip(c)
            .zip(d)
            .map(|(((a, b), c), d)| [*a, *b, *c, *d])
    }
    #[inline(always)]
    fn lanes<W: F32W>(&self, i: usize) -> [W; 4] {
        let [a, b, c, d] = self.0;
        [
            W::load(&a[i..]),
            W::load(&b[i..]),
            W::load(&c[i..]),
            W::load(&d[i..]),
        ]
    }
}

/// A computation generic over the bounds accessor (see [`BoxSet::with_bounds`]).
pub(crate) trait WithBounds {
    /// What it returns.
    type Output;
    /// Runs it.
    fn call<B: BoundsRead>(self, b: B) -> Self::Output;
}
