//! Joining the parallel work items' pair lists in item order while they run.
//!
//! The result is one slice in band order, so each item's pairs land after every earlier
//! item's. Copying every item's list once all had run was a large share of the
//! two-thread time with dense scenes (Gaussian clusters of 100k boxes: 1.4 million
//! pairs, a sixth of the time). Instead, the item at the *frontier* (every earlier item
//! already joined) sweeps straight into the result; any other item sweeps into its own
//! list, and whoever moves the frontier past it copies that list while the other
//! threads are still sweeping. The result is the same whichever item ran where: the
//! concatenation in item order.
//!
//! With many threads the sweeps can finish well before the frontier has copied every
//! list behind it. Once every item has finished, the copier stops when the lists left
//! hold more than [`TAIL_IN_PARALLEL`] pairs, and [`Join::into_parts`] copies them in
//! parallel, each list into its own slice of the result.

use std::sync::{Mutex, MutexGuard, PoisonError};

use super::Pair;
use rayon::prelude::*;

/// Pairs left to copy once every item has finished above which the rest is copied in
/// parallel instead of by the frontier's thread alone (2 MB: below it, on a 16-vCPU
/// machine, the parallel copy's fork-join cost what it saved). Tests and fuzzing: a
/// few, so that the parallel copy runs often.
const TAIL_IN_PARALLEL: usize = if cfg!(any(test, feature = "fuzzing")) {
    4
} else {
    1 << 18
};

/// Where an item's pairs are while the items run.
#[derive(Debug)]
enum Slot {
    /// Not finished, or swept straight into the result.
    Running,
    /// Finished into its own list, not yet copied.
    Waiting(Vec<Pair>),
    /// Copied into the result; the (cleared) list goes back to its item.
    Joined(Vec<Pair>),
}

#[derive(Debug)]
struct State {
    /// Every item before this one is in `out`.
    next: usize,
    /// The result; `None` while a thread holds it (sweeping into it, or copying).
    out: Option<Vec<Pair>>,
    slots: Vec<Slot>,
    /// Items finished.
    finished: usize,
    /// Pairs in `Waiting` lists.
    waiting: usize,
}

/// The join of `items` pair lists, shared by the threads running them.
#[derive(Debug)]
pub(super) struct Join {
    state: Mutex<State>,
}

impl Join {
    /// A join of `items` lists into `out` (cleared).
    pub(super) fn new(items: usize, mut out: Vec<Pair>) -> Self {
        out.clear();
        let mut slots = Vec::with_capacity(items);
        slots.resize_with(items, || Slot::Running);
        Self {
            state: Mutex::new(State {
                next: 0,
                out: Some(out),
                slots,
                finished: 0,
                waiting: 0,
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Nothing panics while holding the lock; were it poisoned, the state is still
        // consistent (each step leaves it so before unlocking).
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Item `k` starting: the result to sweep into when `k` is at the frontier, else
    /// `None` (sweep into its own list and hand that to [`Join::finish`]).
    pub(super) fn claim(&self, k: usize) -> Option<Vec<Pair>> {
        let mut st = self.lock();
        if st.next == k { st.out.take() } else { None }
    }

    /// Item `k` finished, swept into the result it claimed.
    pub(super) fn finish_claimed(&self, k: usize, out: Vec<Pair>) {
        let mut st = self.lock();
        debug_assert_eq!(st.next, k);
        st.next = k + 1;
        st.finished += 1;
        self.advance(st, out);
    }

    /// Item `k` finished into its own list `pairs`.
    pub(super) fn finish(&self, k: usize, pairs: Vec<Pair>) {
        let mut st = self.lock();
        st.finished += 1;
        st.waiting += pairs.len();
        st.slots[k] = Slot::Waiting(pairs);
        // At the frontier with the result free: join it now. (With the result held,
        // its holder is copying item `k - 1` and looks at `k` next.)
        if st.next == k
            && let Some(out) = st.out.take()
        {
            self.advance(st, out);
        }
    }

    /// Copies the finished items at the frontier into `out` (outside the lock), then
    /// puts `out` back; stops early, leaving the rest to [`Join::into_parts`], once
    /// every item has finished and more than [`TAIL_IN_PARALLEL`] pairs are left.
    fn advance<'a>(&'a self, mut st: MutexGuard<'a, State>, mut out: Vec<Pair>) {
        loop {
            let j = st.next;
            let stop = st.finished == st.slots.len() && st.waiting > TAIL_IN_PARALLEL;
            let mut pairs = match st.slots.get_mut(j) {
                Some(Slot::Waiting(list)) if !stop => core::mem::take(list),
                _ => {
                    st.out = Some(out);
                    return;
                }
            };
            st.waiting -= pairs.len();
            st.next = j + 1;
            drop(st);
            out.extend_from_slice(&pairs);
            pairs.clear();
            st = self.lock();
            st.slots[j] = Slot::Joined(pairs);
        }
    }

    /// The result (every item must have finished), and per item its own list back
    /// (cleared) where it swept into one. Lists not yet joined are copied here, in
    /// parallel.
    pub(super) fn into_parts(self) -> (Vec<Pair>, impl Iterator<Item = Option<Vec<Pair>>>) {
        let mut st = self
            .state
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        debug_assert_eq!(st.finished, st.slots.len());
        let mut out = st.out.take().unwrap_or_default();
        let next = st.next;
        let tail = &mut st.slots[next..];
        if !tail.is_empty() {
            let start = out.len();
            // Room for the rest, made in parallel too (a serial fill of a few MB cost
            // what the parallel copy saved).
            out.par_extend(rayon::iter::repeat_n(Pair::default(), st.waiting));
            let mut rest = &mut out[start..];
            let mut parts = Vec::with_capacity(tail.len());
            for slot in tail.iter_mut() {
                let Slot::Waiting(list) = core::mem::replace(slot, Slot::Running) else {
                    unreachable!("every item after the frontier has finished into a list")
                };
                let (dst, r) = rest.split_at_mut(list.len());
                rest = r;
                parts.push((dst, list));
            }
            crate::pool::for_each_part(&mut parts, &|_, (dst, list)| {
                dst.copy_from_slice(list);
                list.clear();
            });
            for (slot, (_, list)) in tail.iter_mut().zip(parts) {
                *slot = Slot::Joined(list);
            }
        }
        let lists = st.slots.into_iter().map(|s| match s {
            Slot::Joined(v) => Some(v),
            Slot::Running | Slot::Waiting(_) => None,
        });
        (out, lists)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn list(k: usize, len: usize) -> Vec<Pair> {
        (0..len).map(|i| Pair::new(k as u32, i as u32)).collect()
    }

    /// Every interleaving of the items' starts and finishes joins the lists in item
    /// order; items that swept into their own lists get them back, cleared.
    #[test]
    fn any_interleaving_joins_in_item_order() {
        let mut rng = Rng::new(7);
        for round in 0..500 {
            let n = 1 + rng.below(9) as usize;
            let lens: Vec<usize> = (0..n).map(|_| rng.below(5) as usize).collect();
            let want: Vec<Pair> = (0..n).flat_map(|k| list(k, lens[k])).collect();
            let join = Join::new(n, list(99, 3));
            // Per item: not started, running (with the result, or not), finished.
            let mut held: Vec<Option<Option<Vec<Pair>>>> = vec![None; n];
            let mut done = vec![false; n];
            let mut claimed = 0;
            while done.iter().any(|d| !d) {
                let k = rng.below(n as u32) as usize;
                if done[k] {
                    continue;
                }
                match held[k].take() {
                    None => {
                        let got = join.claim(k);
                        claimed += usize::from(got.is_some());
                        held[k] = Some(got);
                    }
                    Some(Some(mut out)) => {
                        out.extend(list(k, lens[k]));
                        join.finish_claimed(k, out);
                        done[k] = true;
                    }
                    Some(None) => {
                        join.finish(k, list(k, lens[k]));
                        done[k] = true;
                    }
                }
            }
            assert!(
                claimed >= 1,
                "round {round}: item 0 always sweeps into the result"
            );
            let (out, lists) = join.into_parts();
            assert_eq!(out, want, "round {round}");
            let lists: Vec<Option<Vec<Pair>>> = lists.collect();
            assert_eq!(lists.len(), n);
            assert_eq!(
                lists.iter().filter(|l| l.is_none()).count(),
                claimed,
                "round {round}: the claimed items have no list of their own"
            );
            assert!(lists.iter().flatten().all(Vec::is_empty));
        }
    }

    /// Once every item has finished with more than `TAIL_IN_PARALLEL` pairs left, the
    /// frontier stops copying and `into_parts` copies the rest (in parallel), in order.
    #[test]
    fn a_long_tail_is_left_to_the_parallel_copy() {
        let n = 6;
        let join = Join::new(n, list(99, 2));
        let mut first = join.claim(0).expect("at the frontier");
        for k in 1..n {
            assert!(join.claim(k).is_none());
            join.finish(k, list(k, 3));
        }
        first.extend(list(0, 2));
        join.finish_claimed(0, first);
        {
            let st = join.lock();
            assert_eq!(
                (st.next, st.waiting),
                (1, 15),
                "the frontier stopped at once"
            );
        }
        let want: Vec<Pair> = (0..n)
            .flat_map(|k| list(k, if k == 0 { 2 } else { 3 }))
            .collect();
        let pool = &crate::check::broad::pools()[2];
        let (out, lists) = pool.install(|| join.into_parts());
        assert_eq!(out, want);
        let lists: Vec<Option<Vec<Pair>>> = lists.collect();
        assert!(lists[0].is_none());
        assert!(
            lists[1..]
                .iter()
                .all(|l| l.as_ref().is_some_and(Vec::is_empty))
        );
    }

    #[test]
    fn in_order_items_all_sweep_into_the_result() {
        let join = Join::new(3, Vec::new());
        for k in 0..3 {
            let mut out = join.claim(k).expect("at the frontier");
            out.extend(list(k, 2));
            join.finish_claimed(k, out);
        }
        let (out, lists) = join.into_parts();
        assert_eq!(out.len(), 6);
        assert!(lists.into_iter().all(|l| l.is_none()));
    }
}
