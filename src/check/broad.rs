//! The broad phase against the brute-force oracle, on arbitrary boxes.
//!
//! One input drives [`BroadPhase::find_pairs`] (or
//! [`BroadPhase::find_pairs_bipartite`]) with one [`BandOrder`] (chosen by the input)
//! through every [`SimdLevel::available`], serially and inside rayon pools of 1, 2 and 3
//! threads (parallel threshold 0, so even a handful of boxes takes the parallel path),
//! and requires:
//! - valid input: the pairs equal [`brute_force_pairs`] / [`brute_force_bipartite`] as
//!   sets; self mode has `a < b`, bipartite mode `a < first.len()`, `b < second.len()`;
//!   every level and thread count gives the same sequence;
//!   [`BroadPhase::last_stats`] counts the pairs and, in bipartite mode, reports the grid
//!   only when the smaller set has at most 1/16 as many boxes as the larger, and always
//!   then when it has at most 4 (beyond that, the grid's coverage test decides);
//! - invalid input: [`Error::InvalidBox`] naming the lowest invalid index (counted through
//!   both sets in bipartite mode) and its defect, as the oracle says, with
//!   [`BroadPhase::pairs`] empty afterwards, even when the previous call found pairs;
//! - a second call on the same broad phase gives the same answer (buffer reuse);
//! - columns or filters one element short are [`Error::LengthMismatch`].
//!
//! Boxes come from a slice, from four columns or from a [`BoxStore`], with or without
//! filters on each set.
//!
//! # Input layout
//! ```text
//!  byte 0     flags: bit 0 bipartite, bit 1 dirty (invalid boxes allowed),
//!             bits 2-3 representation (slice, columns, store, slice),
//!             bit 4 filters on the first set, bit 5 on the second, bit 6 short columns
//!  byte 1     box count (mod 97)
//!  byte 2     bipartite split (see `split`)
//!  byte 3     scene scale
//!  byte 4     band order (mod 3: buckets, radix, comparison)
//!  then       per box: a box (`Bytes::aabb`), then a filter byte when filtered
//! ```

use super::bytes::{Bytes, filter_from};
use crate::broad::{brute_force_bipartite, brute_force_pairs};
use crate::{
    Aabb, BandOrder, BoxProps, BoxSet, BoxStore, BroadConfig, BroadPhase, Error, Filter, Pair,
    SimdLevel,
};
use std::sync::OnceLock;

/// Every band order.
const ORDERS: [BandOrder; 3] = [BandOrder::Buckets, BandOrder::Radix, BandOrder::Comparison];

/// The most boxes one input decodes to.
const MAX_BOXES: usize = 96;

/// The thread pools the checks run in (1, 2 and 3 threads), built once.
pub(crate) fn pools() -> &'static [rayon::ThreadPool] {
    static POOLS: OnceLock<Vec<rayon::ThreadPool>> = OnceLock::new();
    POOLS.get_or_init(|| {
        (1..=3)
            .map(|n| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .expect("a small rayon pool")
            })
            .collect()
    })
}

/// How the boxes reach the broad phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Repr {
    Slice,
    Columns,
    Store,
}

/// One set of boxes, held in every representation a [`BoxSet`] can borrow.
#[derive(Debug)]
pub(super) struct SetData {
    pub(super) boxes: Vec<Aabb>,
    pub(super) filters: Option<Vec<Filter>>,
    cols: [Vec<f32>; 4],
    layers: Vec<u32>,
    masks: Vec<u32>,
    store: Option<BoxStore>,
    repr: Repr,
}

impl SetData {
    pub(super) fn new(boxes: Vec<Aabb>, filters: Option<Vec<Filter>>, repr: Repr) -> Self {
        let cols = [
            boxes.iter().map(|b| b.min.x).collect(),
            boxes.iter().map(|b| b.min.y).collect(),
            boxes.iter().map(|b| b.max.x).collect(),
            boxes.iter().map(|b| b.max.y).collect(),
        ];
        let fs = filters.as_deref().unwrap_or(&[]);
        let layers = fs.iter().map(|f| f.layers).collect();
        let masks = fs.iter().map(|f| f.mask).collect();
        // A store holds valid boxes only: an invalid set falls back to columns.
        let store = (repr == Repr::Store)
            .then(|| {
                let mut store = BoxStore::new();
                let handles = store.insert_many(&boxes, BoxProps::default()).ok()?;
                for (h, f) in handles.iter().zip(fs) {
                    store.set_filter(*h, *f).expect("a live handle");
                }
                Some(store)
            })
            .flatten();
        let repr = match (repr, &store) {
            (Repr::Store, None) => Repr::Columns,
            (r, _) => r,
        };
        Self {
            boxes,
            filters,
            cols,
            layers,
            masks,
            store,
            repr,
        }
    }

    /// The set as the broad phase reads it.
    pub(super) fn set(&self) -> BoxSet<'_> {
        let set = match (self.repr, &self.store) {
            (Repr::Store, Some(store)) => return BoxSet::from(store),
            (Repr::Columns, _) => {
                let [a, b, c, d] = &self.cols;
                BoxSet::from_columns(a, b, c, d).expect("equal columns")
            }
            _ => BoxSet::from_slice(&self.boxes),
        };
        match (&self.filters, self.repr) {
            (None, _) => set,
            (Some(_), Repr::Columns) => set
                .with_filter_columns(&self.layers, &self.masks)
                .expect("one filter per box"),
            (Some(f), _) => set.with_filters(f).expect("one filter per box"),
        }
    }

    /// Builds the set with one column (or filter list) one element short, which must be
    /// refused with [`Error::LengthMismatch`].
    fn check_short(&self, which: usize) -> Result<(), String> {
        let n = self.boxes.len();
        if n == 0 {
            return Ok(());
        }
        let [a, b, c, d] = &self.cols;
        let mut cols: [&[f32]; 4] = [a, b, c, d];
        cols[which % 4] = &cols[which % 4][..n - 1];
        let r = match which % 7 {
            0..=3 => BoxSet::from_columns(cols[0], cols[1], cols[2], cols[3]).map(|_| ()),
            4 => BoxSet::from_slice(&self.boxes)
                .with_filters(&vec![Filter::ALL; n - 1])
                .map(|_| ()),
            5 => BoxSet::from_slice(&self.boxes)
                .with_filter_columns(&vec![0; n - 1], &vec![0; n])
                .map(|_| ()),
            _ => BoxSet::from_slice(&self.boxes)
                .with_filter_columns(&vec![0; n], &vec![0; n + 1])
                .map(|_| ()),
        };
        match r {
            Err(Error::LengthMismatch {
                expected, found, ..
            }) if expected.abs_diff(found) == 1 => Ok(()),
            other => Err(format!(
                "a short column or filter list (case {}) gave {other:?}",
                which % 7
            )),
        }
    }
}

/// A decoded input.
#[derive(Debug)]
struct Case {
    sets: Vec<SetData>,
    short: Option<usize>,
    order: BandOrder,
}

/// The sizes of the two sets in bipartite mode: an arbitrary split, or a lopsided one
/// (1 to 6 boxes against the rest, either way round) that takes the grid path: up to
/// four in lanes, five and six through the slab masks where they pay.
fn split(n: usize, s: u8) -> usize {
    if s & 1 == 1 {
        usize::from(s >> 1) % (n + 1)
    } else {
        let small = (usize::from(s >> 1) % 6 + 1).min(n);
        if s & 0x10 == 0 { small } else { n - small }
    }
}

fn decode(data: &[u8]) -> Case {
    let mut r = Bytes::new(data);
    let flags = r.u8();
    let n = r.below(MAX_BOXES + 1);
    let split_byte = r.u8();
    let scale = r.scale();
    let order = ORDERS[r.below(ORDERS.len())];
    let bipartite = flags & 1 == 1;
    let dirty = flags & 2 == 2;
    let repr = match (flags >> 2) & 3 {
        1 => Repr::Columns,
        2 => Repr::Store,
        _ => Repr::Slice,
    };
    let n0 = if bipartite { split(n, split_byte) } else { n };
    let mut prev = None;
    let mut sets = Vec::new();
    for (s, len) in [n0, n - n0].into_iter().enumerate() {
        if s == 1 && !bipartite {
            break;
        }
        let filtered = flags & (0x10 << s) != 0;
        let mut boxes = Vec::with_capacity(len);
        let mut filters = Vec::with_capacity(len);
        for _ in 0..len {
            let b = r.aabb(prev, scale, dirty);
            prev = Some(b);
            boxes.push(b);
            if filtered {
                filters.push(filter_from(r.u8()));
            }
        }
        sets.push(SetData::new(boxes, filtered.then_some(filters), repr));
    }
    let short = (flags & 0x40 != 0).then_some(usize::from(split_byte));
    Case { sets, short, order }
}

/// One broad-phase run of [`broad_vs_brute`].
#[derive(Debug, Clone, Copy)]
pub struct Run {
    /// The band order.
    pub order: BandOrder,
    /// The SIMD level.
    pub level: SimdLevel,
    /// Threads in the rayon pool; `0` for `parallel: false`.
    pub threads: usize,
}

/// A hook that may change a run's answer before it is checked: the identity in
/// [`broad_vs_brute`]; tests plant bugs with it to show that the check catches them.
pub type Tamper<'t> = &'t dyn Fn(Run, &mut Result<Vec<Pair>, Error>);

/// The broad phase against brute force on the input decoded from `data` (see the
/// [module docs](self) for the properties and the input layout).
///
/// # Panics
/// When a property is violated (that is the bug a fuzzer reports).
pub fn broad_vs_brute(data: &[u8]) {
    if let Err(e) = broad_vs_brute_with(data, &|_, _| {}) {
        panic!("broad phase check failed: {e}");
    }
}

/// [`broad_vs_brute`] with a [`Tamper`] hook, returning the first violated property.
///
/// # Errors
/// A description of the first violated property, with the decoded input.
pub fn broad_vs_brute_with(data: &[u8], tamper: Tamper<'_>) -> Result<(), String> {
    let case = decode(data);
    let ctx = |e: String| format!("{e}\ninput: {case:?}");
    if let Some(which) = case.short {
        for set in &case.sets {
            set.check_short(which).map_err(ctx)?;
        }
    }
    let sets: Vec<BoxSet<'_>> = case.sets.iter().map(SetData::set).collect();
    let bipartite = sets.len() == 2;
    let want = if bipartite {
        brute_force_bipartite(sets[0], sets[1])
    } else {
        brute_force_pairs(sets[0])
    };
    // The lowest invalid index, found independently of the oracle.
    let all: Vec<Aabb> = case.sets.iter().flat_map(|s| s.boxes.clone()).collect();
    let first_bad = all
        .iter()
        .enumerate()
        .find_map(|(index, b)| b.validate().err().map(|defect| (index, defect)));
    let expected_err = first_bad.map(|(index, defect)| Error::InvalidBox { index, defect });
    match (&want, &expected_err) {
        (Err(w), Some(e)) if w == e => {}
        (Ok(_), None) => {}
        _ => {
            return Err(ctx(format!(
                "the oracle says {want:?}, the boxes say {expected_err:?}"
            )));
        }
    }
    // The grid needs lopsided sets; among those it is certain for a few small boxes
    // and decided by how much of their area they cover beyond that (`None`: either).
    let grid = if !bipartite {
        Some(false)
    } else {
        let (a, b) = (sets[0].len(), sets[1].len());
        let (small, large) = (a.min(b), a.max(b));
        if !(small > 0 && small * 16 <= large) {
            Some(false)
        } else if small <= crate::broad::TINY {
            Some(true)
        } else {
            None
        }
    };
    let call = |broad: &mut BroadPhase| -> Result<Vec<Pair>, Error> {
        if bipartite {
            broad
                .find_pairs_bipartite(sets[0], sets[1])
                .map(<[Pair]>::to_vec)
        } else {
            broad.find_pairs(sets[0]).map(<[Pair]>::to_vec)
        }
    };
    let order = case.order;
    let mut reference: Option<Vec<Pair>> = None;
    for &level in SimdLevel::available() {
        for threads in 0..=pools().len() {
            let run = Run {
                order,
                level,
                threads,
            };
            let config = BroadConfig {
                simd: level,
                parallel: threads > 0,
                parallel_threshold: 0,
                order,
            };
            let mut broad = BroadPhase::with_config(config);
            let mut got = match threads {
                0 => call(&mut broad),
                t => pools()[t - 1].install(|| call(&mut broad)),
            };
            tamper(run, &mut got);
            let what = |e: String| ctx(format!("{run:?}: {e}"));
            verify_run(&want, got, &broad, bipartite, &sets, grid, &mut reference).map_err(what)?;
            if threads == 0 && level == SimdLevel::Scalar {
                check_reuse(&mut broad, &reference, &call, first_bad.is_some()).map_err(what)?;
            }
        }
    }
    // A call that fails after one that found pairs leaves no stale pairs behind.
    if let (Some((index, _)), false) = (first_bad, bipartite) {
        let prefix = &all[..index];
        let mut broad = BroadPhase::new();
        broad
            .find_pairs(prefix)
            .map_err(|e| ctx(format!("the valid prefix was refused: {e:?}")))?;
        if broad.find_pairs(sets[0]).is_ok() || !broad.pairs().is_empty() {
            return Err(ctx("an error after a success left pairs behind".into()));
        }
    }
    Ok(())
}

/// One run's answer against the oracle and against the other runs of its band order.
fn verify_run(
    want: &Result<Vec<Pair>, Error>,
    got: Result<Vec<Pair>, Error>,
    broad: &BroadPhase,
    bipartite: bool,
    sets: &[BoxSet<'_>],
    grid: Option<bool>,
    reference: &mut Option<Vec<Pair>>,
) -> Result<(), String> {
    let (want, got) = match (want, got) {
        (Err(w), Err(g)) => {
            if *w != g {
                return Err(format!("error {g:?}, the oracle says {w:?}"));
            }
            if !broad.pairs().is_empty() || broad.last_stats().pairs != 0 {
                return Err("pairs left behind after an error".into());
            }
            return Ok(());
        }
        (Ok(w), Ok(g)) => (w, g),
        (w, g) => return Err(format!("got {g:?}, the oracle says {w:?}")),
    };
    let in_range = |p: &Pair| {
        if bipartite {
            (p.a as usize) < sets[0].len() && (p.b as usize) < sets[1].len()
        } else {
            p.a < p.b
        }
    };
    if let Some(p) = got.iter().find(|p| !in_range(p)) {
        return Err(format!("malformed pair {p:?}"));
    }
    let mut sorted = got.clone();
    sorted.sort_unstable();
    if sorted != *want {
        let missing: Vec<_> = want.iter().filter(|p| !sorted.contains(p)).collect();
        let extra: Vec<_> = sorted.iter().filter(|p| !want.contains(p)).collect();
        let mut dups = sorted.clone();
        dups.dedup();
        return Err(format!(
            "pairs differ from brute force: missing {missing:?}, extra {extra:?}, {} \
             duplicates",
            sorted.len() - dups.len()
        ));
    }
    match reference {
        None => *reference = Some(got.clone()),
        Some(r) if *r == got => {}
        Some(_) => return Err("the order differs from the first run of this band order".into()),
    }
    // Checked last, so that a tampered answer meets the checks above first.
    let stats = broad.last_stats();
    if stats.pairs != got.len() || broad.pairs() != got.as_slice() {
        return Err(format!(
            "stats {stats:?} or pairs() disagree with the answer"
        ));
    }
    if bipartite && grid.is_some_and(|g| g != stats.grid) {
        return Err(format!("grid path {}, expected {grid:?}", stats.grid));
    }
    Ok(())
}

/// Calls the same broad phase again: the same answer (buffers reused, nothing stale).
fn check_reuse(
    broad: &mut BroadPhase,
    reference: &Option<Vec<Pair>>,
    call: &dyn Fn(&mut BroadPhase) -> Result<Vec<Pair>, Error>,
    invalid: bool,
) -> Result<(), String> {
    let again = call(broad);
    match (again, reference) {
        (Err(_), None) if invalid => Ok(()),
        (Ok(p), Some(r)) if p == *r => Ok(()),
        (a, r) => Err(format!("a second call gave {a:?}, the first {r:?}")),
    }
}
