//! The foundation every graphsparse crate stands on: run control, parameter checking,
//! the parallelism policy and the seeded generator.
//!
//! * [`Budget`], [`RunControl`], [`Meter`], [`Truncation`]: budgets, cancellation and
//!   progress of long runs (below);
//! * [`Check`] and the shared checks ([`check_len`], [`check_finite`], …) returning
//!   [`InputError`]: every parameter builder's path to its checked form, and the one place
//!   each generic rule is written;
//! * [`Loss`]: the one loss vocabulary (and [`sigmoid`]);
//! * [`Parallel`]: when a computation may use rayon;
//! * [`SplitMix64`]: the one seeded generator;
//! * [`cholesky_in_place`] ([`cholesky_in_place_until`] with a stop test), [`cholesky_solve`]:
//!   the small dense SPD solves of the solvers;
//! * [`setters!`]: the chainable setters of a parameter builder.
//!
//! # Budgets, cancellation and progress
//!
//! Every search or solver in graphsparse that can run for a long time (gSpan mining, the
//! subgraph learners, the rule lattice, compression, recovery) follows the same contract:
//!
//! * its parameters hold a [`Budget`]: an optional node budget and an optional time budget;
//! * it takes a [`RunControl`] from the caller, through which another thread can ask it to
//!   stop ([`RunControl::cancel`]) and watch how far it got ([`RunControl::progress`]);
//! * it starts a [`Meter`] from the two ([`Budget::start`]), claims one unit of the node
//!   budget per node it visits ([`Meter::claim_node`]) and polls the meter now and then
//!   ([`Meter::poll`]); when either says stop, it returns what it finished, with the
//!   [`Truncation`] saying why it was cut.
//!
//! A [`Meter`] is `Sync`: the workers of one parallel run share it, and the first reason to
//! stop wins. The Python binding polls [`RunControl::progress`] from the waiting thread to
//! print progress and raises `cancel` on Ctrl-C.
//!
//! # Example
//! ```
//! use std::time::Duration;
//! use graphsparse_base::{Budget, RunControl, Truncation};
//!
//! let budget = Budget::new().max_nodes(Some(3)).time_limit(Some(Duration::from_secs(60)));
//! let ctl = RunControl::new();
//! let meter = budget.start(&ctl);
//! let mut visited = 0;
//! while meter.claim_node() {
//!     visited += 1; // ... visit one node ...
//! }
//! assert_eq!(visited, 3);
//! assert_eq!(meter.truncation(), Some(Truncation::MaxNodes));
//! assert_eq!(ctl.progress().snapshot().nodes, 3);
//! ```

mod budget;
mod check;
mod control;
mod linalg;
mod loss;
mod parallel;
mod rng;
mod setters;

pub use budget::{Budget, Meter, Truncation};
pub use check::{
    Check, InputError, check_all_nonnegative, check_at_least_one, check_finite, check_len,
    check_nonnegative, check_positive, check_range, check_unit_interval,
};
pub use control::{Progress, ProgressSnapshot, RunControl};
pub use linalg::{cholesky_in_place, cholesky_in_place_until, cholesky_solve};
pub use loss::{Loss, UnknownLoss, sigmoid};
pub use parallel::{PARALLEL_MIN_ELEMENTS, Parallel};
pub use rng::{SplitMix64, mix64};
