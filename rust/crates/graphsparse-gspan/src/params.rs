//! Miner parameters as a linfa-style triplet: unchecked builder → [`Check::check`] → validated
//! params.

use std::time::Duration;

use graphsparse_base::{Budget, Check, Parallel, check_range};

use crate::error::{GspanError, Result};

/// Which frequent patterns a traversal reports (see [`MinerParams::pattern_set`]).
///
/// With `max_size`, "closed" and "maximal" are relative to the frequent patterns of at most
/// `max_size` edges: the result is always the closed (maximal) members of the set
/// [`PatternSet::All`] would give with the same parameters, so a pattern of exactly `max_size`
/// edges is always closed and maximal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PatternSet {
    /// Every frequent connected pattern (gSpan).
    #[default]
    All,
    /// The closed ones: no super-pattern has the same support (CloseGraph, Yan & Han 2003). A
    /// lossless summary: every frequent pattern's support is the largest support of a closed
    /// pattern containing it.
    Closed,
    /// The maximal ones: no super-pattern is frequent. Lossy; a subset of the closed patterns.
    Maximal,
}

impl PatternSet {
    /// The lower-case name (`"all"`, `"closed"`, `"maximal"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Closed => "closed",
            Self::Maximal => "maximal",
        }
    }
}

/// Unchecked parameters of a gSpan traversal (a builder).
///
/// Defaults: `min_support = 1`, `max_size = None` (unbounded), no single-vertex patterns, no
/// node or time budget, a serial traversal ([`Parallel::Serial`]), parallel split depth 3,
/// split threshold 1 000 embeddings, and every frequent pattern ([`PatternSet::All`]).
///
/// # Example
/// ```
/// use std::time::Duration;
/// use graphsparse_gspan::{Check, MinerParams, Parallel};
/// let params = MinerParams::new()
///     .min_support(19)
///     .max_size(Some(6))
///     .time_limit(Some(Duration::from_secs(60)))
///     .parallel(Parallel::Auto)
///     .check()
///     .unwrap();
/// assert_eq!(params.min_support(), 19);
/// assert_eq!(params.parallel(), Parallel::Auto);
/// assert!(MinerParams::new().min_support(0).check().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinerParams {
    min_support: usize,
    max_size: Option<usize>,
    single_vertices: bool,
    budget: Budget,
    parallel: Parallel,
    split_depth: usize,
    split_embeddings: usize,
    pattern_set: PatternSet,
}

impl Default for MinerParams {
    fn default() -> Self {
        Self::new()
    }
}

impl MinerParams {
    /// The default parameters (see the type documentation).
    pub const fn new() -> Self {
        Self {
            min_support: 1,
            max_size: None,
            single_vertices: false,
            budget: Budget::UNLIMITED,
            parallel: Parallel::Serial,
            split_depth: 3,
            split_embeddings: 1_000,
            pattern_set: PatternSet::All,
        }
    }

    graphsparse_base::setters! {
        /// Minimum support: the least number of distinct graphs a pattern must occur in (>= 1).
        min_support: usize => min_support,
        /// Largest pattern size in edges; `None` is unbounded. `Some(0)` yields only the
        /// single-vertex patterns (when enabled).
        max_size: Option<usize> => max_size,
        /// Also report one single-vertex pattern (depth 0) per frequent vertex label, before the
        /// edge patterns.
        single_vertices: bool => single_vertices,
        /// The node and time budget of a traversal (default: none).
        budget: Budget => budget,
        /// Stop after visiting this many tree nodes (`None`: no limit; 0 visits nothing).
        max_nodes: Option<u64> => budget.max_nodes,
        /// Stop after this much wall time, counted from the start of the call (`None`: no limit).
        time_limit: Option<Duration> => budget.time_limit,
        /// Whether sibling subtrees may run on the current rayon pool (default
        /// [`Parallel::Serial`]: the calling thread only). Every policy but `Serial` runs the
        /// traversal in parallel (its work is not known up front), splitting by the two rules
        /// below.
        parallel: Parallel => parallel,
        /// Parallel traversal only: every node shallower than this many edges hands each child
        /// subtree to a separate task (default 3; 0 splits only by size).
        split_depth: usize => split_depth,
        /// Parallel traversal only: deeper nodes whose frequent children hold at least this many
        /// embeddings in total also split (default 1 000; must be >= 1). Splitting is cheap
        /// (subtasks borrow the ancestors' embeddings), so fine splits balance load well.
        ///
        /// The split rule depends on the data only, never on the number of threads, so a visitor
        /// sees the same sequence of forks and joins whatever the pool size.
        split_embeddings: usize => split_embeddings,
        /// Which patterns to report (default [`PatternSet::All`]). The closed and maximal sets
        /// are computed inside the search: every visited node tests its one-edge extensions
        /// from all of its vertices, and CloseGraph's early termination skips subtrees that
        /// hold no closed (maximal) pattern; see [`crate::mine`] for when it applies.
        pattern_set: PatternSet => pattern_set,
    }
}

impl Check for MinerParams {
    type Checked = MinerValidParams;
    type Error = GspanError;

    /// Validates the parameters.
    ///
    /// # Errors
    /// [`GspanError::Input`] naming `min_support` when it is 0 and `split_embeddings` when
    /// it is 0.
    ///
    /// # Complexity
    /// O(1).
    fn check(self) -> Result<MinerValidParams> {
        check_range(
            "min_support",
            self.min_support as f64,
            ">= 1 (an absolute number of graphs)",
            |v| v >= 1.0,
        )?;
        check_range(
            "split_embeddings",
            self.split_embeddings as f64,
            ">= 1",
            |v| v >= 1.0,
        )?;
        Ok(MinerValidParams(self))
    }
}

/// Validated miner parameters, produced by [`Check::check`] on [`MinerParams`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinerValidParams(MinerParams);

impl MinerValidParams {
    /// Minimum support (absolute number of graphs, >= 1).
    pub const fn min_support(&self) -> usize {
        self.0.min_support
    }

    /// Largest pattern size in edges (`None`: unbounded).
    pub const fn max_size(&self) -> Option<usize> {
        self.0.max_size
    }

    /// Whether single-vertex patterns are reported.
    pub const fn single_vertices(&self) -> bool {
        self.0.single_vertices
    }

    /// The node and time budget.
    pub const fn budget(&self) -> Budget {
        self.0.budget
    }

    /// Node budget.
    pub const fn max_nodes(&self) -> Option<u64> {
        self.0.budget.max_nodes
    }

    /// Time budget.
    pub const fn time_limit(&self) -> Option<Duration> {
        self.0.budget.time_limit
    }

    /// Whether the traversal may run on the current rayon pool.
    pub const fn parallel(&self) -> Parallel {
        self.0.parallel
    }

    /// Depth above which the parallel traversal always splits.
    pub const fn split_depth(&self) -> usize {
        self.0.split_depth
    }

    /// Embedding count from which deeper nodes split.
    pub const fn split_embeddings(&self) -> usize {
        self.0.split_embeddings
    }

    /// Which patterns are reported.
    pub const fn pattern_set(&self) -> PatternSet {
        self.0.pattern_set
    }

    /// Back to the builder, to change a field and check again.
    ///
    /// # Complexity
    /// O(1).
    pub fn into_params(self) -> MinerParams {
        self.0
    }
}
