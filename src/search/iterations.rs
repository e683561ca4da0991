//! What the threads of one alpha-beta search (Lazy SMP) tell each other about their
//! iterations: the deepest iteration any of them has completed, with its line, and how many
//! threads are searching each depth.
//!
//! Every thread posts each iteration it completes. A thread whose own iteration is no deeper
//! than the deepest completed one abandons it (its work stays in the shared transposition
//! table) and goes on from there: the main thread takes over the deeper line, reports it and
//! starts the next depth; a helper picks the shallowest depth not already searched by half of
//! the threads. So each depth is finished by whichever thread gets there first, and with two
//! threads one searches a ply ahead of the other. In a game whose helpers share depths
//! ([`SearchHooks::SMP_HELPERS_SHARE_DEPTH`](crate::game::SearchHooks)), a helper goes deeper
//! only than a depth every thread is on: the threads split each iteration between them.
//!
//! Threads also post the moves an unfinished iteration has found better than the first move
//! it searched ([`SharedIterations::post_improved`]): when the search ends with an iteration
//! cut short, the deepest such move is a deeper opinion than the last completed iteration's,
//! and the main thread plays it (see `MainSearch::iterate`).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use super::ordering::MAX_PLY;
use super::root_line::{Improvement, RootLine};

/// An iteration completed by one of the threads, and its best line.
#[derive(Clone, Debug)]
pub struct Completed<M> {
    /// The iteration's depth.
    pub depth: u32,
    /// Its best line.
    pub line: RootLine<M>,
}

/// The iterations of one search's threads (see the module's doc).
pub struct SharedIterations<M> {
    /// Depth of the deepest completed iteration (0: none yet).
    completed: AtomicU32,
    /// How many threads are searching each depth.
    searching: Vec<AtomicU32>,
    /// The deepest completed iteration's line (written before `completed` grows).
    deepest: Mutex<Option<Completed<M>>>,
    /// The deepest improvement any thread found in an iteration (the highest score at that
    /// depth), completed or not.
    improved: Mutex<Option<Improvement<M>>>,
    /// How many threads may search one depth before a helper goes deeper.
    crowd: u32,
}

impl<M: Clone> SharedIterations<M> {
    /// Nothing completed yet, for a search with `threads` threads. A helper goes a ply beyond
    /// any depth that half of them are searching, or with `share_depth` only beyond a depth
    /// all of them are searching (each iteration is then split among them by deferral,
    /// [`super::inflight`]).
    pub fn new(threads: usize, share_depth: bool) -> Self {
        let crowd = if share_depth { threads } else { threads / 2 };
        SharedIterations {
            completed: AtomicU32::new(0),
            searching: (0..=MAX_PLY + 1).map(|_| AtomicU32::new(0)).collect(),
            deepest: Mutex::new(None),
            improved: Mutex::new(None),
            crowd: crowd.max(1) as u32,
        }
    }

    /// The counter a thread's search looks at to notice that its iteration was overtaken:
    /// the depth of the deepest completed iteration.
    pub fn completed_depth(&self) -> &AtomicU32 {
        &self.completed
    }

    /// Records that a thread completed the iteration at `depth` with `line` as its best line;
    /// kept if it is the deepest so far.
    pub fn post(&self, depth: u32, line: &RootLine<M>) {
        let mut deepest = self.deepest.lock().unwrap_or_else(|e| e.into_inner());
        if deepest.as_ref().is_none_or(|c| depth > c.depth) {
            *deepest = Some(Completed {
                depth,
                line: line.clone(),
            });
            self.completed.fetch_max(depth, Ordering::Release);
        }
    }

    /// The deepest completed iteration, if any.
    pub fn deepest(&self) -> Option<Completed<M>> {
        self.deepest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Records that a thread's iteration found a move better than the first one it
    /// searched: kept if no deeper improvement is known and, at the same depth, if its score
    /// is higher ([`Improvement::keep_in`]).
    pub fn post_improved(&self, found: &Improvement<M>) {
        let mut improved = self.improved.lock().unwrap_or_else(|e| e.into_inner());
        found.keep_in(&mut improved);
    }

    /// The improvement recorded by [`SharedIterations::post_improved`] at the deepest depth,
    /// if any.
    pub fn improved(&self) -> Option<Improvement<M>> {
        self.improved
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// A thread starts searching `depth`; [`SharedIterations::end`] must follow.
    pub fn begin(&self, depth: u32) {
        if let Some(count) = self.searching.get(depth as usize) {
            count.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// A thread stopped searching `depth` (completed or abandoned).
    pub fn end(&self, depth: u32) {
        if let Some(count) = self.searching.get(depth as usize) {
            count.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// The depth a helper searches next, having completed `done` itself: the shallowest
    /// depth beyond both `done` and every completed iteration that fewer than half of the
    /// threads (at least one; all of them with `share_depth`) are searching, but never beyond
    /// `max_depth`.
    pub fn helper_depth(&self, done: u32, max_depth: u32) -> u32 {
        let crowd = self.crowd;
        let mut depth = done.max(self.completed.load(Ordering::Acquire)) + 1;
        while depth < max_depth
            && self
                .searching
                .get(depth as usize)
                .is_some_and(|c| c.load(Ordering::Relaxed) >= crowd)
        {
            depth += 1;
        }
        depth
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(score: i32, first: u8) -> RootLine<u8> {
        RootLine {
            score,
            pv: vec![first],
        }
    }

    #[test]
    fn only_a_deeper_iteration_replaces_the_deepest() {
        let shared = SharedIterations::new(2, false);
        assert!(shared.deepest().is_none());
        assert_eq!(shared.completed_depth().load(Ordering::Relaxed), 0);
        shared.post(3, &line(10, 1));
        shared.post(2, &line(20, 2));
        shared.post(3, &line(30, 3));
        let deepest = shared.deepest().map(|c| (c.depth, c.line.score, c.line.pv));
        assert_eq!(deepest, Some((3, 10, vec![1])));
        shared.post(5, &line(-7, 4));
        assert_eq!(shared.completed_depth().load(Ordering::Relaxed), 5);
        assert_eq!(shared.deepest().map(|c| c.line.pv), Some(vec![4]));
    }

    fn improvement(depth: u32, score: i32, first: u8) -> Improvement<u8> {
        Improvement {
            depth,
            line: line(score, first),
            over: 0,
        }
    }

    #[test]
    fn the_deepest_improvement_with_the_highest_score_is_kept() {
        let shared = SharedIterations::new(2, false);
        assert!(shared.improved().is_none());
        shared.post_improved(&improvement(6, 10, 1));
        shared.post_improved(&improvement(6, 5, 2));
        assert_eq!(shared.improved().map(|c| c.line.pv), Some(vec![1]));
        shared.post_improved(&improvement(6, 12, 3));
        assert_eq!(shared.improved().map(|c| c.line.pv), Some(vec![3]));
        shared.post_improved(&improvement(5, 90, 4));
        assert_eq!(
            shared.improved().map(|c| (c.depth, c.line.pv)),
            Some((6, vec![3])),
            "a shallower improvement never replaces a deeper one"
        );
        shared.post_improved(&improvement(7, -40, 5));
        assert_eq!(
            shared.improved().map(|c| (c.depth, c.line.score)),
            Some((7, -40))
        );
    }

    #[test]
    fn a_helper_skips_the_depths_half_the_threads_search() {
        let two = SharedIterations::<u8>::new(2, false);
        two.begin(1);
        assert_eq!(two.helper_depth(0, 64), 2, "the main thread is on depth 1");
        two.begin(2);
        two.begin(3);
        assert_eq!(two.helper_depth(0, 64), 4);
        assert_eq!(
            two.helper_depth(0, 3),
            3,
            "never beyond the deepest allowed"
        );
        two.end(2);
        assert_eq!(two.helper_depth(1, 64), 2);
        two.post(6, &line(0, 0));
        assert_eq!(two.helper_depth(1, 64), 7, "past every completed iteration");

        let four = SharedIterations::<u8>::new(4, false);
        four.begin(1);
        assert_eq!(
            four.helper_depth(0, 64),
            1,
            "one of four threads is not half"
        );
        four.begin(1);
        assert_eq!(four.helper_depth(0, 64), 2);
    }

    #[test]
    fn sharing_depths_a_helper_joins_until_every_thread_is_on_the_depth() {
        let two = SharedIterations::<u8>::new(2, true);
        two.begin(1);
        assert_eq!(
            two.helper_depth(0, 64),
            1,
            "the main thread alone is on depth 1"
        );
        two.begin(1);
        assert_eq!(two.helper_depth(0, 64), 2, "both threads are");
        two.post(3, &line(0, 0));
        assert_eq!(two.helper_depth(1, 64), 4, "past every completed iteration");

        let one = SharedIterations::<u8>::new(1, true);
        one.begin(5);
        assert_eq!(one.helper_depth(4, 64), 6);
    }
}
