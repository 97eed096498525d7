//! Scattering boxes into bands, and building each band's sorted SoA.
//!
//! ```text
//!  input boxes ──chunks──► per chunk: entries grouped by band (counting sort,
//!  (slice, columns          input order kept within a band; a box reaching bands
//!   or store)               f..=l is copied into each, copies after f marked CONT)
//!
//!  chunk 0: [band 0 entries][band 1 entries] ... [band B-1 entries]
//!  chunk 1: [band 0 entries][band 1 entries] ...
//!
//!  band k ──► gather band k of every chunk, in chunk order (= input order)
//!         ──► radix sort by ordered_key(s0), stable
//!         ──► BandSoa: s0 s1 b0 b1 id (+ filter) columns + LANES sentinels
//! ```

use super::layout::Layout;
use super::set::BoxSet;
use super::sort::{ordered_key, radix_sort};
use super::sweep::{BandSoa, CONT};
use crate::store::Filter;

/// One box copy in one band, in sweep-axis coordinates.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C)]
pub(crate) struct Entry {
    pub s0: f32,
    pub s1: f32,
    pub b0: f32,
    pub b1: f32,
    pub id: u32,
}

/// A contiguous run of one set's boxes, scattered into bands.
#[derive(Debug, Default)]
pub(crate) struct Chunk {
    /// Which input set (0 or 1).
    pub set: usize,
    pub start: usize,
    pub end: usize,
    /// `starts[k]..starts[k + 1]` are band `k`'s entries.
    pub starts: Vec<u32>,
    cursor: Vec<u32>,
    pub entries: Vec<Entry>,
    pub filters: Vec<Filter>,
}

impl Chunk {
    pub(crate) fn assign(&mut self, set: usize, start: usize, end: usize) {
        self.set = set;
        self.start = start;
        self.end = end;
    }

    /// Band `k`'s entries (and filters, when filtered).
    pub(crate) fn band(&self, k: usize) -> (&[Entry], &[Filter]) {
        let r = self.starts[k] as usize..self.starts[k + 1] as usize;
        let f = if self.filters.is_empty() {
            &[][..]
        } else {
            &self.filters[r.clone()]
        };
        (&self.entries[r], f)
    }

    /// Counting-sorts this chunk's boxes into bands.
    pub(crate) fn scatter(&mut self, set: &BoxSet<'_>, layout: &Layout, filtered: bool) {
        let bands = layout.bands as usize;
        self.starts.clear();
        self.starts.resize(bands + 1, 0);
        self.filters.clear();
        if bands == 1 {
            self.entries.clear();
            self.entries.extend((self.start..self.end).map(|i| {
                let [s0, b0, s1, b1] = layout.project(set.get(i));
                Entry {
                    s0,
                    s1,
                    b0,
                    b1,
                    id: i as u32,
                }
            }));
            if filtered {
                self.filters
                    .extend((self.start..self.end).map(|i| set.filter(i)));
            }
            self.starts[1] = self.entries.len() as u32;
            return;
        }
        // Pass 1: count copies per band.
        let counts = &mut self.starts[1..];
        for i in self.start..self.end {
            let [_, b0, _, b1] = layout.project(set.get(i));
            let (f, l) = (layout.band_of(b0) as usize, layout.band_of(b1) as usize);
            for c in &mut counts[f..=l] {
                *c += 1;
            }
        }
        let mut sum = 0;
        for s in self.starts.iter_mut() {
            sum += *s;
            *s = sum;
        }
        // Pass 2: place each copy.
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.starts[..bands]);
        self.entries.clear();
        self.entries.resize(sum as usize, Entry::default());
        if filtered {
            self.filters.resize(sum as usize, Filter::ALL);
        }
        for i in self.start..self.end {
            let [s0, b0, s1, b1] = layout.project(set.get(i));
            let (f, l) = (layout.band_of(b0) as usize, layout.band_of(b1) as usize);
            let filter = if filtered { set.filter(i) } else { Filter::ALL };
            for k in f..=l {
                let at = self.cursor[k] as usize;
                self.cursor[k] += 1;
                let cont = if k == f { 0 } else { CONT };
                self.entries[at] = Entry {
                    s0,
                    s1,
                    b0,
                    b1,
                    id: i as u32 | cont,
                };
                if filtered {
                    self.filters[at] = filter;
                }
            }
        }
    }
}

/// Scratch for building one band's SoA.
#[derive(Debug, Default)]
pub(crate) struct SortScratch {
    entries: Vec<Entry>,
    filters: Vec<Filter>,
    keys: Vec<u32>,
    idx: Vec<u32>,
    tmp_keys: Vec<u32>,
    tmp_idx: Vec<u32>,
    keys_out: Vec<u32>,
}

/// Builds `soa` from band `k` of `chunks` (those of set `set`), sorted for the sweep.
pub(crate) fn build_band(
    soa: &mut BandSoa,
    chunks: &[Chunk],
    set: usize,
    k: usize,
    filtered: bool,
    scratch: &mut SortScratch,
) {
    let mut mine = chunks.iter().filter(|c| c.set == set);
    let (entries, filters): (&[Entry], &[Filter]) = match (mine.next(), mine.next()) {
        (None, _) => (&[], &[]),
        (Some(only), None) => only.band(k),
        _ => {
            scratch.entries.clear();
            scratch.filters.clear();
            for c in chunks.iter().filter(|c| c.set == set) {
                let (e, f) = c.band(k);
                scratch.entries.extend_from_slice(e);
                scratch.filters.extend_from_slice(f);
            }
            (&scratch.entries, &scratch.filters)
        }
    };
    scratch.keys.clear();
    scratch.keys.extend(entries.iter().map(|e| ordered_key(e.s0)));
    radix_sort(
        &scratch.keys,
        &mut scratch.idx,
        &mut scratch.tmp_keys,
        &mut scratch.tmp_idx,
        &mut scratch.keys_out,
    );
    soa.clear();
    let n = entries.len();
    for c in [&mut soa.s0, &mut soa.s1, &mut soa.b0, &mut soa.b1] {
        c.reserve(n + crate::LANES);
    }
    for &i in &scratch.idx {
        let e = entries[i as usize];
        soa.s0.push(e.s0);
        soa.s1.push(e.s1);
        soa.b0.push(e.b0);
        soa.b1.push(e.b1);
        soa.id.push(e.id);
    }
    if filtered {
        soa.filter
            .extend(scratch.idx.iter().map(|&i| filters[i as usize]));
    }
    soa.seal(filtered);
}
