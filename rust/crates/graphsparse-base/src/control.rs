//! What a caller can do to a run under way: stop it, and watch how far it got.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The caller's handle on a run: a cancellation flag and progress counters, both shared with
/// the run's threads.
///
/// Pass `&RunControl` to a long-running function; from another thread, [`RunControl::cancel`]
/// makes it stop within a few milliseconds (it returns what it finished, flagged
/// [`Truncation::Cancelled`](crate::Truncation::Cancelled)), and [`RunControl::progress`] shows
/// how far it got.
///
/// # Example
/// ```
/// use graphsparse_base::RunControl;
/// let ctl = RunControl::new();
/// assert!(!ctl.is_cancelled());
/// ctl.cancel();
/// assert!(ctl.is_cancelled());
/// ```
#[derive(Debug, Default)]
pub struct RunControl {
    cancel: AtomicBool,
    progress: Progress,
}

impl RunControl {
    /// A fresh handle: not cancelled, all counters zero.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the run to stop as soon as it can.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Whether [`RunControl::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The run's progress counters.
    pub fn progress(&self) -> &Progress {
        &self.progress
    }
}

/// Progress counters of one run, written by its threads and read by anyone.
///
/// The counters mean the same thing in every algorithm:
/// * `nodes`: search-tree nodes visited so far (counted by [`Meter::claim_node`](crate::Meter::claim_node));
/// * `iterations`: outer iterations made (BCGD updates, boosting rounds, solver steps);
/// * `stage` of `stages`: the position in a sequence of sub-problems (a λ path, a collection
///   of graphs), `stages == 0` when there is none;
/// * `value`: the latest value worth showing (an objective, a duality gap, the current λ),
///   `NaN` until one is set.
///
/// Updates use relaxed atomics: a snapshot taken while the run is under way is a consistent
/// enough picture for a progress bar, not a synchronisation point.
#[derive(Debug)]
pub struct Progress {
    nodes: AtomicU64,
    iterations: AtomicU64,
    stage: AtomicU64,
    stages: AtomicU64,
    value: AtomicU64,
}

impl Default for Progress {
    fn default() -> Self {
        Self {
            nodes: AtomicU64::new(0),
            iterations: AtomicU64::new(0),
            stage: AtomicU64::new(0),
            stages: AtomicU64::new(0),
            value: AtomicU64::new(f64::NAN.to_bits()),
        }
    }
}

/// A copy of the [`Progress`] counters at one moment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProgressSnapshot {
    /// Search-tree nodes visited.
    pub nodes: u64,
    /// Outer iterations made.
    pub iterations: u64,
    /// Current sub-problem (0-based).
    pub stage: u64,
    /// Number of sub-problems (0: none).
    pub stages: u64,
    /// The latest reported value (`NaN`: none yet).
    pub value: f64,
}

impl Progress {
    /// Adds `n` visited nodes.
    pub fn add_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Ordering::Relaxed);
    }

    /// Adds one outer iteration.
    pub fn add_iteration(&self) {
        self.iterations.fetch_add(1, Ordering::Relaxed);
    }

    /// Sets the number of outer iterations made.
    pub fn set_iterations(&self, n: u64) {
        self.iterations.store(n, Ordering::Relaxed);
    }

    /// Sets the current sub-problem `stage` of `stages`.
    pub fn set_stage(&self, stage: u64, stages: u64) {
        self.stage.store(stage, Ordering::Relaxed);
        self.stages.store(stages, Ordering::Relaxed);
    }

    /// Sets the value to show (an objective, a gap, the current λ).
    pub fn set_value(&self, value: f64) {
        self.value.store(value.to_bits(), Ordering::Relaxed);
    }

    /// The counters now.
    pub fn snapshot(&self) -> ProgressSnapshot {
        ProgressSnapshot {
            nodes: self.nodes.load(Ordering::Relaxed),
            iterations: self.iterations.load(Ordering::Relaxed),
            stage: self.stage.load(Ordering::Relaxed),
            stages: self.stages.load(Ordering::Relaxed),
            value: f64::from_bits(self.value.load(Ordering::Relaxed)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_counts_and_snapshots() {
        let p = Progress::default();
        assert!(p.snapshot().value.is_nan());
        p.add_nodes(5);
        p.add_nodes(2);
        p.add_iteration();
        p.set_stage(3, 10);
        p.set_value(0.25);
        let s = p.snapshot();
        assert_eq!((s.nodes, s.iterations, s.stage, s.stages), (7, 1, 3, 10));
        assert_eq!(s.value, 0.25);
        p.set_iterations(40);
        assert_eq!(p.snapshot().iterations, 40);
    }

    #[test]
    fn cancel_is_seen_across_threads() {
        let ctl = RunControl::new();
        std::thread::scope(|s| {
            s.spawn(|| ctl.cancel());
        });
        assert!(ctl.is_cancelled());
    }
}
