//! A fitted model and the statistics of its searches.

use graphsparse_base::Truncation;

use crate::feature::Feature;

/// What one iteration did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct IterationStats {
    /// Objective after the iteration's update (unchanged for the final check).
    pub objective: f64,
    /// Nonzero coefficients after the update.
    pub nonzeros: usize,
    /// Tree nodes visited by the search.
    pub visited: u64,
    /// Visited nodes whose column was already seen in the same search.
    pub skipped: u64,
    /// Visited nodes where the Theorem 11 bound pruned the subtree.
    pub pruned_bound: u64,
    /// Visited nodes where safe pattern pruning pruned the subtree (a node where both rules
    /// hold counts for both).
    pub pruned_spp: u64,
    /// The duality gap `P − D ≥ 0` at the iterate searched (before the iteration's update);
    /// `+∞` for an iteration on the working set (no search, no certificate).
    pub duality_gap: f64,
    /// Wall time of the iteration in seconds.
    pub seconds: f64,
    /// Whether the iteration searched the whole pattern tree; `false` for an iteration over
    /// the working set only (see [`BcgdParams::working_set`](crate::BcgdParams::working_set)),
    /// whose counts of nodes are all zero.
    pub full_search: bool,
}

/// The coefficients after one update (kept when `record_trace` is on).
#[derive(Debug, Clone, PartialEq)]
pub struct TraceStep {
    /// The intercept `β0`.
    pub intercept: f64,
    /// `(column, coefficient)` of every nonzero feature.
    pub coefs: Vec<(Vec<u32>, f64)>,
}

/// A fitted model and how the fit went.
#[derive(Debug, Clone, PartialEq)]
pub struct BcgdFit {
    /// The intercept `β0`.
    pub intercept: f64,
    /// The nonzero features, in increasing DFS-code order of their representatives.
    pub features: Vec<Feature>,
    /// Number of updates made.
    pub n_iter: usize,
    /// Whether `||H d||_∞ ≤ tol` was reached.
    pub converged: bool,
    /// Why the fit stopped early (a budget or cancellation), if it did.
    pub truncation: Option<Truncation>,
    /// One entry per iteration (the updates, then the final convergence check when it
    /// happened); with working sets most updates search no tree
    /// ([`IterationStats::full_search`]).
    pub history: Vec<IterationStats>,
    /// The coefficients after each update, when asked for.
    pub trace: Vec<TraceStep>,
    /// The searches that preceded this fit when it screened from a cold start (see
    /// [`BcgdParams::screening`](crate::BcgdParams::screening)): the `λ_max` search, then every search of the internal path
    /// `λ_max/2, λ_max/4, …` (empty otherwise). [`BcgdFit::visited`] and the pruning counts
    /// include them.
    pub path_history: Vec<IterationStats>,
    /// `λ_max`, the smallest `λ1` whose optimum has no feature, when the fit computed it (a
    /// cold start with screening).
    pub lambda_max: Option<f64>,
    /// The duality gap `P − D ≥ 0` of the returned model (a bound on its suboptimality);
    /// `+∞` when the fit stopped before a complete search of its final iterate (a budget).
    pub duality_gap: f64,
    /// The dual bound of the final iterate, for a warm start's screening.
    pub(super) warm_dual: Option<WarmDual>,
}

/// What a warm start needs to screen: `U` at the final iterate and what it was computed over.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct WarmDual {
    pub(super) bound: f64,
    pub(super) n: usize,
    pub(super) min_support: usize,
    pub(super) max_size: Option<usize>,
}

impl BcgdFit {
    /// The sum of one count over all searches of the fit, the internal path's included.
    fn total(&self, count: impl Fn(&IterationStats) -> u64) -> u64 {
        self.history
            .iter()
            .chain(&self.path_history)
            .map(count)
            .sum()
    }

    /// Nodes pruned by the Theorem 11 bound over all searches of the fit.
    ///
    /// # Complexity
    /// O(k) over the `k` searches of the fit.
    pub fn pruned_by_bound(&self) -> u64 {
        self.total(|s| s.pruned_bound)
    }

    /// Nodes pruned by safe pattern pruning over all searches of the fit.
    ///
    /// # Complexity
    /// O(k) over the `k` searches of the fit.
    pub fn pruned_by_spp(&self) -> u64 {
        self.total(|s| s.pruned_spp)
    }

    /// Tree nodes visited over all searches of the fit.
    ///
    /// # Complexity
    /// O(k) over the `k` searches of the fit.
    pub fn visited(&self) -> u64 {
        self.total(|s| s.visited)
    }

    /// Searches of the whole pattern tree made by the fit, the internal path's included (the
    /// `λ_max` search counts as one).
    ///
    /// # Complexity
    /// O(k) over the `k` iterations of the fit.
    pub fn full_searches(&self) -> u64 {
        self.total(|s| u64::from(s.full_search))
    }

    /// `μ_i = β0 + Σ_j β_j I(x_j ⊆ g_i)` for the training graphs.
    ///
    /// # Complexity
    /// O(n + Σ_j |graphs of feature j|).
    pub fn decision_function(&self, n: usize) -> Vec<f64> {
        let mut mu = vec![self.intercept; n];
        for f in &self.features {
            for &i in &f.graph_ids {
                mu[i as usize] += f.coef;
            }
        }
        mu
    }
}
