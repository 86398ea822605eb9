//! The parameters of a BCGD fit: the builder and its checked form.

use std::time::Duration;

use graphsparse_base::{Budget, Check, Parallel, check_nonnegative, check_positive, check_range};

use crate::cache::{DEFAULT_CACHE_BYTES, TreeCache};
use crate::error::{Result, SubgraphError, feature_miner};

/// Unchecked BCGD parameters (a builder); [`Check::check`] validates them.
///
/// Defaults follow the paper's experiments: `λ2 = 0`, `tol = 1e-3`, `max_iter = 1000`,
/// `min_support = 1`, unbounded pattern size, pruning on, serial traversal.
#[derive(Debug, Clone, PartialEq)]
pub struct BcgdParams {
    pub(super) lambda1: f64,
    pub(super) lambda2: f64,
    pub(super) tol: f64,
    pub(super) max_iter: usize,
    pub(super) min_support: usize,
    pub(super) max_size: Option<usize>,
    pub(super) budget: Budget,
    pub(super) prune: bool,
    pub(super) parallel: Parallel,
    pub(super) cache: bool,
    pub(super) cache_bytes: usize,
    pub(super) screening: bool,
    pub(super) working_set: bool,
    pub(super) record_trace: bool,
}

/// Validated BCGD parameters, from [`Check::check`] on [`BcgdParams`].
#[derive(Debug, Clone, PartialEq)]
pub struct BcgdValidParams(pub(super) BcgdParams);

impl BcgdParams {
    /// Parameters with the given `λ1` and the defaults for everything else.
    pub const fn new(lambda1: f64) -> Self {
        Self {
            lambda1,
            lambda2: 0.0,
            tol: 1e-3,
            max_iter: 1000,
            min_support: 1,
            max_size: None,
            budget: Budget::UNLIMITED,
            prune: true,
            parallel: Parallel::Serial,
            cache: true,
            cache_bytes: DEFAULT_CACHE_BYTES,
            screening: true,
            working_set: true,
            record_trace: false,
        }
    }

    graphsparse_base::setters! {
        /// The L1 weight `λ1 > 0` (on the mean loss).
        lambda1: f64 => lambda1,
        /// The ridge weight `λ2 ≥ 0`.
        lambda2: f64 => lambda2,
        /// Stop when `||H d||_∞ ≤ tol` (`tol > 0`).
        tol: f64 => tol,
        /// Most iterations (updates) of one fit (≥ 1).
        max_iter: usize => max_iter,
        /// Least number of graphs a pattern must occur in (≥ 1).
        min_support: usize => min_support,
        /// Largest pattern size in edges (`None`: unbounded).
        max_size: Option<usize> => max_size,
        /// The node and time budget of the whole fit (all iterations together; each fit of a path
        /// has its own).
        budget: Budget => budget,
        /// Node budget over the whole fit (all iterations together).
        max_nodes: Option<u64> => budget.max_nodes,
        /// Wall-time budget of the whole fit.
        time_limit: Option<Duration> => budget.time_limit,
        /// Use the Theorem 11 bound to prune (turn off only to check that pruning is safe).
        prune: bool => prune,
        /// Whether sibling subtrees may be traversed in parallel on the current rayon pool
        /// (default [`Parallel::Serial`]; every other policy runs the searches in parallel).
        parallel: Parallel => parallel,
        /// Keep the visited tree (graph ids, children) between iterations, so later searches walk
        /// it without re-embedding and expand only the frontier (default on). In parallel,
        /// the first search (which fills the cache) runs in parallel; later searches walk the
        /// cache serially (a parallel walk costs BCGD more CPU than it saves; the boosting
        /// searches of [`crate::StumpSearcher`] do walk in parallel).
        cache: bool => cache,
        /// Byte budget for stored embeddings of the cached tree's expanded nodes (default 256 MiB;
        /// 0 stores none): the ancestors a frontier expansion re-embeds are kept, least recently
        /// used evicted first, and a later expansion below one of them starts from its
        /// embeddings instead of re-embedding its path from the root. Changes no result, only
        /// the time (and the node budget a search uses: path nodes it does not re-traverse are
        /// not claimed).
        cache_bytes: usize => cache_bytes,
        /// Safe pattern pruning (default on; see the [`crate`] docs for the rule): every search
        /// also prunes the subtrees the gap-safe sphere around the best dual point so far proves
        /// zero at the optimum, whether or not Theorem 11 (`prune`) prunes them. A fit without a
        /// warm start first finds `λ_max` (one branch-and-bound search) and, when `λ1 < λ_max / 2`,
        /// runs an internal path `λ_max/2, λ_max/4, …, λ1` so that each fit starts from a dual
        /// point close to its own optimum (its searches are in [`BcgdFit::path_history`]). A fit
        /// returned truncated by a budget during the internal path is the model of the `λ1` it
        /// had reached. Turn off to get the plain BCGD of the paper (iterate by iterate).
        screening: bool => screening,
        /// Working sets (default on; used with `screening` only): between two searches of the
        /// whole tree the fit iterates over the working set alone — the nonzero features and
        /// every pattern a search found with `T_j ≠ 0` — with the same direction,
        /// Gauss–Southwell-r and line search but no tree search, until `||H d||_∞ ≤ tol` over
        /// the working set; a search of the whole tree then either certifies `||H d||_∞ ≤ tol`
        /// over all patterns (the fit has converged, with the same stopping rule as without
        /// working sets) or adds the patterns that violate it. The iterates differ from the
        /// plain BCGD's, the optimum and the tolerance do not. Each of these iterations is an
        /// update (counted by `max_iter`).
        working_set: bool => working_set,
        /// Keep the coefficients of every iteration in [`BcgdFit::trace`].
        record_trace: bool => record_trace,
    }
}

impl Check for BcgdParams {
    type Checked = BcgdValidParams;
    type Error = SubgraphError;

    /// Validates the parameters.
    ///
    /// # Errors
    /// [`SubgraphError::Input`] naming the first of `lambda1`, `lambda2`, `tol`, `max_iter`
    /// out of range; the errors of the pattern space (`min_support`, `max_size`).
    ///
    /// # Complexity
    /// O(1).
    fn check(self) -> Result<BcgdValidParams> {
        check_positive("lambda1", self.lambda1)?;
        check_nonnegative("lambda2", self.lambda2)?;
        check_positive("tol", self.tol)?;
        check_range("max_iter", self.max_iter as f64, ">= 1", |v| v >= 1.0)?;
        feature_miner(self.min_support, self.max_size, self.parallel)?;
        Ok(BcgdValidParams(self))
    }
}

impl BcgdValidParams {
    /// The parameters back as a builder.
    ///
    /// # Complexity
    /// O(1).
    pub fn into_params(self) -> BcgdParams {
        self.0
    }
    /// `λ1`.
    pub const fn lambda1(&self) -> f64 {
        self.0.lambda1
    }
    /// The tree cache the fits of a call share, when `cache` is on.
    pub(super) fn tree_cache(&self) -> Option<TreeCache> {
        let p = &self.0;
        p.cache.then(|| TreeCache::new(p.max_size, p.cache_bytes))
    }
}
