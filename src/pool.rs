//! Parallel passes on rayon's pool, through closures passed by reference.
//!
//! Each parallel iterator chain compiles its own copy of rayon's machinery: the
//! splitting, the jobs and the joins. A pass written once for every kernel kind made a
//! copy per kind, and each pass of the frame made one more. These functions take the
//! work as `&dyn Fn`, so every caller shares one copy, and the crate builds faster. The
//! work is a whole chunk of a pass, so the indirect call costs nothing measurable.
//!
//! Every job is one index: callers pass a few large chunks, not many small items. The
//! results come back in the order of the indices, whatever thread ran each one, so a
//! pass stays deterministic.

use rayon::prelude::*;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The range of chunk `k` when `0..len` is cut into chunks of `size`: the last one may
/// be shorter. It is how a job finds its part of the slices it did not get as a part.
pub(crate) fn chunk(k: usize, size: usize, len: usize) -> core::ops::Range<usize> {
    k * size..len.min((k + 1) * size)
}

/// `work(k)` for every `k` in `0..n` on rayon's pool, one job per index.
pub(crate) fn for_each_index(n: usize, work: &(dyn Fn(usize) + Sync)) {
    (0..n).into_par_iter().with_max_len(1).for_each(work);
}

/// `work(k)` for every `k` in `0..n` on rayon's pool, one job per index; `out` holds
/// the results in the order of `k`.
pub(crate) fn map_indices<R: Send>(n: usize, work: &(dyn Fn(usize) -> R + Sync), out: &mut Vec<R>) {
    (0..n)
        .into_par_iter()
        .with_max_len(1)
        .map(work)
        .collect_into_vec(out);
}

/// `work(k, &mut parts[k])` for every part on rayon's pool, one job per part; `out`
/// holds the results in the order of the parts.
///
/// Each part sits behind a lock that only its own job takes, so the jobs get disjoint
/// mutable parts without `unsafe`.
pub(crate) fn map_parts<T: Send, R: Send>(
    parts: &mut [T],
    work: &(dyn Fn(usize, &mut T) -> R + Sync),
    out: &mut Vec<R>,
) {
    let locks: Vec<Mutex<&mut T>> = parts.iter_mut().map(Mutex::new).collect();
    map_indices(locks.len(), &|k| work(k, &mut lock(&locks[k])), out);
}

/// [`map_parts`] without results.
pub(crate) fn for_each_part<T: Send>(parts: &mut [T], work: &(dyn Fn(usize, &mut T) + Sync)) {
    let locks: Vec<Mutex<&mut T>> = parts.iter_mut().map(Mutex::new).collect();
    for_each_index(locks.len(), &|k| work(k, &mut lock(&locks[k])));
}

/// `work(range, part)` on `out` cut into blocks of `size`, each block with the range
/// of indices it covers. With `parallel` and more than one block, on rayon's pool, one
/// job per block; else in one call on the calling thread.
///
/// Returns whether `out` holds more than one block: whether the pass runs on the pool
/// in a parallel frame. A frame counts such passes apart from its serial time.
pub(crate) fn fill_blocks<T: Send>(
    out: &mut [T],
    size: usize,
    parallel: bool,
    work: &(dyn Fn(core::ops::Range<usize>, &mut [T]) + Sync),
) -> bool {
    let len = out.len();
    let blocks = len > size;
    if parallel && blocks {
        let mut parts: Vec<&mut [T]> = out.chunks_mut(size).collect();
        for_each_part(&mut parts, &|k, part| work(chunk(k, size, len), part));
    } else {
        work(0..len, out);
    }
    blocks
}

/// The lock of a part: a panic in another job does not poison it for this one (the
/// panic reaches the caller through rayon anyway).
fn lock<'a, T>(m: &'a Mutex<T>) -> MutexGuard<'a, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    #[test]
    fn results_keep_the_order_of_the_indices_on_any_pool() {
        for threads in [1, 2, 4] {
            let mut out = vec![7; 3];
            pool(threads).install(|| map_indices(1000, &|k| k * k, &mut out));
            assert_eq!(out, (0..1000).map(|k| k * k).collect::<Vec<_>>());
            pool(threads).install(|| map_indices(0, &|k| k, &mut out));
            assert!(out.is_empty());
        }
    }

    #[test]
    fn every_index_and_every_part_runs_once() {
        let seen: Vec<AtomicUsize> = (0..300).map(|_| AtomicUsize::new(0)).collect();
        pool(4).install(|| {
            for_each_index(seen.len(), &|k| {
                seen[k].fetch_add(1, Ordering::Relaxed);
            });
        });
        assert!(seen.iter().all(|s| s.load(Ordering::Relaxed) == 1));

        let mut parts: Vec<Vec<usize>> = vec![Vec::new(); 50];
        pool(4).install(|| for_each_part(&mut parts, &|k, p| p.push(k)));
        assert_eq!(parts, (0..50).map(|k| vec![k]).collect::<Vec<_>>());

        let mut sums = Vec::new();
        pool(4).install(|| {
            map_parts(
                &mut parts,
                &|k, p| {
                    p.push(1);
                    k + p.len()
                },
                &mut sums,
            );
        });
        assert_eq!(sums, (0..50).map(|k| k + 2).collect::<Vec<_>>());
        assert!(parts.iter().all(|p| p.len() == 2));
    }
}
