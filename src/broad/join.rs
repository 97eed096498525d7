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

use std::sync::{Mutex, MutexGuard, PoisonError};

use super::Pair;

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
        self.advance(st, out);
    }

    /// Item `k` finished into its own list `pairs`.
    pub(super) fn finish(&self, k: usize, pairs: Vec<Pair>) {
        let mut st = self.lock();
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
    /// puts `out` back.
    fn advance<'a>(&'a self, mut st: MutexGuard<'a, State>, mut out: Vec<Pair>) {
        loop {
            let j = st.next;
            let Some(Slot::Waiting(list)) = st.slots.get_mut(j) else {
                st.out = Some(out);
                return;
            };
            let mut pairs = core::mem::take(list);
            st.next = j + 1;
            drop(st);
            out.extend_from_slice(&pairs);
            pairs.clear();
            st = self.lock();
            st.slots[j] = Slot::Joined(pairs);
        }
    }

    /// The result (every item must have finished), and per item its own list back
    /// (cleared) where it swept into one.
    pub(super) fn into_parts(self) -> (Vec<Pair>, impl Iterator<Item = Option<Vec<Pair>>>) {
        let st = self
            .state
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        debug_assert_eq!(st.next, st.slots.len());
        let out = st.out.unwrap_or_default();
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
