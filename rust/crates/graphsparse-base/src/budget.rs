//! Node and time budgets, and the meter that enforces one during a run.

use std::fmt;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::control::RunControl;

/// Limits on a long run: a node budget and a time budget, both optional.
///
/// Plain data: every value is valid. `None` is unlimited; a zero budget stops a run at its
/// first check (the result is then empty and flagged). Start the budget with [`Budget::start`]
/// when the run begins.
///
/// # Example
/// ```
/// use std::time::Duration;
/// use graphsparse_base::Budget;
/// let b = Budget::new().max_nodes(Some(10_000)).time_limit(Some(Duration::from_secs(5)));
/// assert_eq!(b.max_nodes, Some(10_000));
/// assert_eq!(Budget::default(), Budget::UNLIMITED);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Budget {
    /// Most search-tree nodes the run may visit (`None`: no limit).
    pub max_nodes: Option<u64>,
    /// Most wall time the run may take, from [`Budget::start`] (`None`: no limit).
    pub time_limit: Option<Duration>,
}

impl Budget {
    /// No limit at all.
    pub const UNLIMITED: Self = Self {
        max_nodes: None,
        time_limit: None,
    };

    /// No limit (the same as [`Budget::UNLIMITED`]).
    pub const fn new() -> Self {
        Self::UNLIMITED
    }

    crate::setters! {
        /// Sets the node budget.
        max_nodes: Option<u64> => max_nodes,
        /// Sets the time budget.
        time_limit: Option<Duration> => time_limit,
    }

    /// Starts the clock: a [`Meter`] enforcing this budget and `ctl`'s cancellation flag.
    ///
    /// # Complexity
    /// O(1); reads the clock once.
    pub fn start<'a>(&self, ctl: &'a RunControl) -> Meter<'a> {
        let start = Instant::now();
        Meter {
            ctl,
            max_nodes: self.max_nodes,
            // a limit too far away to represent is no limit
            deadline: self.time_limit.and_then(|t| start.checked_add(t)),
            start,
            nodes: AtomicU64::new(0),
            stop: AtomicU8::new(STOP_NONE),
        }
    }
}

/// Why a run stopped before it finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Truncation {
    /// The node budget was used up.
    MaxNodes,
    /// The time budget ran out.
    TimeLimit,
    /// The caller cancelled the run ([`RunControl::cancel`]).
    Cancelled,
}

impl Truncation {
    /// A short name: `"max_nodes"`, `"time_limit"` or `"cancelled"`.
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::MaxNodes => "max_nodes",
            Self::TimeLimit => "time_limit",
            Self::Cancelled => "cancelled",
        }
    }

    const fn code(self) -> u8 {
        match self {
            Self::MaxNodes => 1,
            Self::TimeLimit => 2,
            Self::Cancelled => 3,
        }
    }

    const fn from_code(code: u8) -> Option<Self> {
        match code {
            1 => Some(Self::MaxNodes),
            2 => Some(Self::TimeLimit),
            3 => Some(Self::Cancelled),
            _ => None,
        }
    }
}

impl fmt::Display for Truncation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

const STOP_NONE: u8 = 0;

/// A started [`Budget`]: the run's node count, its deadline and the first reason it must stop.
///
/// Shared by reference between the threads of one run (it is `Sync`). Once any check fails,
/// every later check fails too, and [`Meter::truncation`] keeps the first reason.
#[derive(Debug)]
pub struct Meter<'a> {
    ctl: &'a RunControl,
    max_nodes: Option<u64>,
    deadline: Option<Instant>,
    start: Instant,
    nodes: AtomicU64,
    stop: AtomicU8,
}

impl<'a> Meter<'a> {
    /// Records `reason` as why the run stops, unless an earlier reason was recorded.
    pub fn stop(&self, reason: Truncation) {
        let _ = self.stop.compare_exchange(
            STOP_NONE,
            reason.code(),
            Ordering::SeqCst,
            Ordering::SeqCst,
        );
    }

    /// True once the run must stop, without looking at the clock or the flag (cheapest check).
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) != STOP_NONE
    }

    /// Checks for an earlier stop, cancellation and the deadline; true when the run must stop.
    ///
    /// # Complexity
    /// O(1): two atomic loads and at most one clock read (tens of nanoseconds), so call it every
    /// few microseconds of work at most.
    pub fn poll(&self) -> bool {
        if self.is_stopped() {
            return true;
        }
        if self.ctl.is_cancelled() {
            self.stop(Truncation::Cancelled);
            return true;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop(Truncation::TimeLimit);
            return true;
        }
        false
    }

    /// Claims one node of the budget before visiting it; false when the run must stop instead
    /// (the node is then not counted).
    ///
    /// # Complexity
    /// O(1), a [`Meter::poll`] plus one atomic update.
    pub fn claim_node(&self) -> bool {
        if self.poll() {
            return false;
        }
        match self.max_nodes {
            None => {
                self.nodes.fetch_add(1, Ordering::Relaxed);
            }
            Some(max) => {
                let claimed = self
                    .nodes
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                        (n < max).then_some(n + 1)
                    });
                if claimed.is_err() {
                    self.stop(Truncation::MaxNodes);
                    return false;
                }
            }
        }
        self.ctl.progress().add_nodes(1);
        true
    }

    /// Why the run stopped early, or `None` while it may go on.
    pub fn truncation(&self) -> Option<Truncation> {
        Truncation::from_code(self.stop.load(Ordering::SeqCst))
    }

    /// Nodes claimed so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Wall time since [`Budget::start`].
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The caller's handle (for progress updates beyond node counts).
    pub fn control(&self) -> &'a RunControl {
        self.ctl
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unlimited_budget_never_stops_by_itself() {
        let ctl = RunControl::new();
        let m = Budget::UNLIMITED.start(&ctl);
        for _ in 0..10_000 {
            assert!(m.claim_node());
        }
        assert_eq!(m.nodes(), 10_000);
        assert_eq!(m.truncation(), None);
    }

    #[test]
    fn zero_node_budget_stops_before_the_first_node() {
        let ctl = RunControl::new();
        let m = Budget::new().max_nodes(Some(0)).start(&ctl);
        assert!(!m.claim_node());
        assert_eq!(m.truncation(), Some(Truncation::MaxNodes));
        assert_eq!(ctl.progress().snapshot().nodes, 0);
    }

    #[test]
    fn time_budget_stops_and_huge_limits_mean_none() {
        let ctl = RunControl::new();
        let m = Budget::new().time_limit(Some(Duration::ZERO)).start(&ctl);
        assert!(m.poll());
        assert_eq!(m.truncation(), Some(Truncation::TimeLimit));
        let m = Budget::new().time_limit(Some(Duration::MAX)).start(&ctl);
        assert!(!m.poll());
    }

    #[test]
    fn first_reason_wins() {
        let ctl = RunControl::new();
        let m = Budget::new().max_nodes(Some(1)).start(&ctl);
        assert!(m.claim_node());
        assert!(!m.claim_node());
        ctl.cancel();
        assert!(m.poll());
        assert_eq!(m.truncation(), Some(Truncation::MaxNodes));
    }

    #[test]
    fn cancel_stops_a_running_meter() {
        let ctl = RunControl::new();
        let m = Budget::UNLIMITED.start(&ctl);
        assert!(m.claim_node());
        ctl.cancel();
        assert!(!m.claim_node());
        assert_eq!(m.truncation(), Some(Truncation::Cancelled));
        assert_eq!(Truncation::Cancelled.to_string(), "cancelled");
    }

    #[test]
    fn threads_share_one_node_budget_exactly() {
        let ctl = RunControl::new();
        let m = Budget::new().max_nodes(Some(1000)).start(&ctl);
        let claimed = AtomicU64::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    while m.claim_node() {
                        claimed.fetch_add(1, Ordering::Relaxed);
                    }
                });
            }
        });
        assert_eq!(claimed.load(Ordering::Relaxed), 1000);
        assert_eq!(m.nodes(), 1000);
        assert_eq!(ctl.progress().snapshot().nodes, 1000);
    }
}
