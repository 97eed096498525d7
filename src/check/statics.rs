//! The static grid against the brute-force oracle, on arbitrary boxes.
//!
//! One input gives a set of static boxes and a set of movers, each from a slice, four
//! columns or a [`BoxStore`](crate::BoxStore), with or without filters, and requires:
//! - [`StaticGrid::build`] on the statics' valid prefix (the boxes before the first
//!   invalid one, all of them when none is) succeeds, and its queries equal
//!   [`brute_force_bipartite`]`(movers, prefix)` exactly (sorted by `(mover, static)`);
//! - rebuilding with the statics: invalid ones give [`Error::InvalidBox`] naming the
//!   lowest invalid static, and the grid answers as before (left unchanged); valid ones
//!   give the oracle's answer for the new statics;
//! - every query (serial, in 1 to 4 chunks at every SIMD level, and `parallel` in rayon
//!   pools of 1, 2 and 3 threads) gives the same sequence; an invalid mover gives [`Error::InvalidBox`]
//!   naming the lowest invalid mover, with the output left empty.
//!
//! # Input layout
//! ```text
//!  byte 0     flags: bit 0 statics dirty (invalid boxes allowed), bit 1 movers dirty,
//!             bit 2 filters on the statics, bit 3 on the movers,
//!             bits 4-5 representation (slice, columns, store, slice)
//!  byte 1     static count (mod 97)
//!  byte 2     mover count (mod 97)
//!  byte 3     scene scale
//!  then       per static, then per mover: a box (`Bytes::aabb`), then a filter byte
//!             when that set is filtered
//! ```

use super::broad::{Repr, SetData, pools};
use super::bytes::{Bytes, filter_from};
use crate::broad::brute_force_bipartite;
use crate::lanes::SimdLevel;
use crate::{Aabb, BoxSet, Error, Pair, StaticGrid};

/// The most boxes one input decodes to, per set.
const MAX_BOXES: usize = 96;

/// The statics, then the movers.
fn decode(data: &[u8]) -> [SetData; 2] {
    let mut r = Bytes::new(data);
    let flags = r.u8();
    let counts = [r.below(MAX_BOXES + 1), r.below(MAX_BOXES + 1)];
    let scale = r.scale();
    let repr = match (flags >> 4) & 3 {
        1 => Repr::Columns,
        2 => Repr::Store,
        _ => Repr::Slice,
    };
    let mut prev = None;
    let mut set = |s: usize| {
        let dirty = flags & (1 << s) != 0;
        let filtered = flags & (4 << s) != 0;
        let mut boxes = Vec::with_capacity(counts[s]);
        let mut filters = Vec::with_capacity(counts[s]);
        for _ in 0..counts[s] {
            let b = r.aabb(prev, scale, dirty);
            prev = Some(b);
            boxes.push(b);
            if filtered {
                filters.push(filter_from(r.u8()));
            }
        }
        SetData::new(boxes, filtered.then_some(filters), repr)
    };
    let statics = set(0);
    let movers = set(1);
    [statics, movers]
}

/// The lowest invalid box of `boxes`, as the error that names it.
fn first_invalid(boxes: &[Aabb]) -> Option<Error> {
    boxes.iter().enumerate().find_map(|(index, b)| {
        b.validate()
            .err()
            .map(|defect| Error::InvalidBox { index, defect })
    })
}

/// Every way of querying `grid` gives `want` (pairs, or the error with `out` empty).
fn queries(
    grid: &StaticGrid,
    movers: BoxSet<'_>,
    want: &Result<Vec<Pair>, Error>,
) -> Result<(), String> {
    let mut out = vec![Pair::new(7, 7)];
    let verify = |what: &str, r: Result<(), Error>, out: &mut Vec<Pair>| {
        let got = r.map(|()| out.clone());
        if got != *want {
            return Err(format!("{what}: got {got:?}, the oracle says {want:?}"));
        }
        if got.is_err() && !out.is_empty() {
            return Err(format!("{what}: pairs left behind after an error"));
        }
        out.push(Pair::new(7, 7)); // the next call must clear it
        Ok(())
    };
    for &level in SimdLevel::available() {
        for chunks in 1..=4 {
            let r = grid.query_with(movers, chunks, level, &mut out);
            verify(&format!("{chunks} chunks at {}", level.name()), r, &mut out)?;
        }
    }
    let r = grid.query(movers, false, &mut out);
    verify("serial", r, &mut out)?;
    for (t, pool) in pools().iter().enumerate() {
        let r = pool.install(|| grid.query(movers, true, &mut out));
        verify(&format!("parallel, {} threads", t + 1), r, &mut out)?;
    }
    Ok(())
}

/// The static grid against brute force on the input decoded from `data` (see the
/// [module docs](self) for the properties and the input layout).
///
/// # Panics
/// When a property is violated (that is the bug a fuzzer reports).
pub fn static_vs_brute(data: &[u8]) {
    if let Err(e) = static_vs_brute_with(data) {
        panic!("static grid check failed: {e}");
    }
}

/// [`static_vs_brute`], returning the first violated property.
///
/// # Errors
/// A description of the first violated property, with the decoded input.
pub fn static_vs_brute_with(data: &[u8]) -> Result<(), String> {
    let [statics, movers] = decode(data);
    let ctx = |e: String| format!("{e}\nstatics: {statics:?}\nmovers: {movers:?}");
    let (s, m) = (statics.set(), movers.set());
    let static_err = first_invalid(&statics.boxes);
    let mover_err = first_invalid(&movers.boxes);
    // The oracle (movers first, so that its error names the mover's own index).
    let oracle = |s: BoxSet<'_>| -> Result<Result<Vec<Pair>, Error>, String> {
        let want = brute_force_bipartite(m, s);
        match (&want, &mover_err) {
            (Err(w), Some(e)) if w == e => Ok(want),
            (Ok(_), None) => Ok(want),
            _ => Err(format!(
                "the oracle says {want:?}, the movers {mover_err:?}"
            )),
        }
    };

    // The valid prefix of the statics first.
    let k = match static_err {
        Some(Error::InvalidBox { index, .. }) => index,
        _ => statics.boxes.len(),
    };
    let prefix_filters = statics.filters.as_ref().map(|f| &f[..k]);
    let mut prefix = BoxSet::from_slice(&statics.boxes[..k]);
    if let Some(f) = prefix_filters {
        prefix = prefix.with_filters(f).map_err(|e| ctx(format!("{e:?}")))?;
    }
    let mut grid = StaticGrid::new();
    queries(&grid, m, &oracle(BoxSet::from_slice(&[]))?)
        .map_err(|e| ctx(format!("empty grid: {e}")))?;
    grid.build(prefix)
        .map_err(|e| ctx(format!("the valid prefix was refused: {e:?}")))?;
    if grid.len() != k {
        return Err(ctx(format!("len {} after building {k} boxes", grid.len())));
    }
    let before = oracle(prefix).map_err(ctx)?;
    queries(&grid, m, &before).map_err(|e| ctx(format!("prefix: {e}")))?;

    // Then all of them: an error leaves the grid as it was.
    match (grid.build(s), static_err) {
        (Err(got), Some(want)) if got == want => {
            queries(&grid, m, &before).map_err(|e| ctx(format!("after a failed build: {e}")))?;
        }
        (Ok(()), None) => {
            let want = oracle(s).map_err(ctx)?;
            queries(&grid, m, &want).map_err(|e| ctx(format!("rebuilt: {e}")))?;
            // A fresh grid agrees with the rebuilt one.
            let mut fresh = StaticGrid::new();
            fresh.build(s).map_err(|e| ctx(format!("{e:?}")))?;
            queries(&fresh, m, &want).map_err(|e| ctx(format!("fresh: {e}")))?;
        }
        (got, want) => {
            return Err(ctx(format!("build gave {got:?}, the statics say {want:?}")));
        }
    }
    Ok(())
}
