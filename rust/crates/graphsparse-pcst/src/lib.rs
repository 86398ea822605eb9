//! Goemans–Williamson prize-collecting Steiner forest, bit-identical to `pcst_fast`.
//!
//! Given an undirected multigraph with node prizes π ≥ 0 and edge costs c ≥ 0, the
//! prize-collecting Steiner forest (PCSF) problem asks for a forest `F` minimising
//! `c(F) + π(V \ V_F)`, with exactly `g` trees (unrooted) or one tree containing a given root.
//! [`solve_pcst`] runs the event-driven Goemans–Williamson (GW) growth phase of Hegde, Indyk
//! and Schmidt (2014) followed by one of four pruning modes ([`Pruning`]). It reproduces the
//! reference implementation `pcst_fast` exactly — the same node list and the same edge list,
//! in the same order — including its tie-breaking, which depends on the shape of its pairing
//! heaps (replicated in [`pairing_heap`]) and on the `(key, cluster)` order of its event
//! queues. All arithmetic follows the reference's evaluation order.
//!
//! With `gw` pruning the result satisfies the Lagrangian-preserving 2-approximation
//! `c(F) + 2 π(V \ V_F) ≤ 2 OPT`; `strong` pruning never does worse than `gw` on the same
//! input.
//!
//! For repeated solves (the GraphDA head/tail projections call PCST many times per step),
//! keep a [`PcstSolver`] and call [`PcstSolver::solve_into`]: it reuses every buffer. Those
//! head and tail projections (a binary search over PCST runs) are the [`projection`] module,
//! which the online learners and graph-structured recovery both use.
//!
//! # Where it differs from `pcst_fast`
//!
//! * Input is validated: NaN or infinite prizes and costs, out-of-range roots, a root with
//!   `num_clusters != 1` and absurdly large totals are errors ([`PcstError`]). The edges and
//!   costs are the one validated [`WeightedGraph`] of `graphsparse-graph`.
//! * `pcst_fast` loops forever when an edge's remaining length falls below the floating-point
//!   resolution of the current time (subnormal costs, costs ~1e-10 times the prizes, or
//!   `eps = 0`). A stall guard detects this (far more growth events in a row than exact
//!   arithmetic allows) and then also merges such edges, so every call terminates. Runs that
//!   never trip the guard are exactly `pcst_fast`'s.
//!
//! # Example
//! ```
//! use graphsparse_pcst::{solve_pcst, Check, PcstParams, Pruning};
//! // path 0-1-2-3 with prizes at both ends
//! let edges = [[0, 1], [1, 2], [2, 3]];
//! let prizes = [5.0, 0.0, 0.0, 5.0];
//! let costs = [1.0, 1.0, 1.0];
//! let sol = solve_pcst(&edges, &prizes, &costs, &PcstParams::new().check().unwrap()).unwrap();
//! assert_eq!(sol.nodes, vec![0, 1, 2, 3]);
//! assert_eq!(sol.edges, vec![1, 2, 0]); // gw: reverse merge order
//!
//! let params = PcstParams::new().num_clusters(2).pruning("strong".parse().unwrap()).check().unwrap();
//! assert_eq!(params.pruning(), Pruning::Strong);
//! let sol = solve_pcst(&edges, &prizes, &costs, &params).unwrap();
//! assert_eq!((sol.nodes, sol.edges), (vec![0, 3], vec![]));
//! ```
//!
//! # References
//!
//! C. Hegde, P. Indyk and L. Schmidt, *A fast, adaptive variant of the Goemans–Williamson
//! scheme for the prize-collecting Steiner tree problem*, 11th DIMACS Implementation Challenge
//! (2014). Reference implementation: `pcst_fast` (PyPI `pcst-fast`, `fraenkel-lab/pcst_fast`).

mod error;
mod grid;
pub mod pairing_heap;
pub mod projection;
mod queue;
mod solver;

use std::fmt;
use std::str::FromStr;

use graphsparse_base::check_nonnegative;
use graphsparse_graph::{EdgeRules, WeightedGraph};

pub use error::{PcstError, Result};
pub use graphsparse_base::Check;
pub use grid::grid_edges;
pub use solver::PcstSolver;

/// How the forest found by the growth phase is pruned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Pruning {
    /// No pruning: every merge edge, including those of clusters that were not kept.
    None,
    /// The merge edges whose endpoints are both in kept clusters.
    Simple,
    /// Goemans–Williamson pruning (the 2-approximation); the edges come in reverse merge order.
    #[default]
    Gw,
    /// Per tree, the best subtree by a rerooting dynamic program (never worse than `Gw`).
    Strong,
}

impl Pruning {
    /// The name `pcst_fast` uses: `"none"`, `"simple"`, `"gw"` or `"strong"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Pruning::None => "none",
            Pruning::Simple => "simple",
            Pruning::Gw => "gw",
            Pruning::Strong => "strong",
        }
    }
}

impl fmt::Display for Pruning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Pruning {
    type Err = PcstError;

    /// Parses exactly `"none"`, `"simple"`, `"gw"` or `"strong"` (case-sensitive, as in
    /// `pcst_fast`).
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "none" => Ok(Pruning::None),
            "simple" => Ok(Pruning::Simple),
            "gw" => Ok(Pruning::Gw),
            "strong" => Ok(Pruning::Strong),
            _ => Err(PcstError::UnknownPruning(s.to_owned())),
        }
    }
}

/// Unchecked parameters of a PCST solve (a builder); see [`Check::check`].
///
/// Defaults: unrooted, one tree, `gw` pruning, `eps = 1e-6` (the `pcst_fast` settings).
///
/// # Example
/// ```
/// use graphsparse_pcst::{Check, PcstParams, Pruning};
/// let params = PcstParams::new().num_clusters(2).pruning(Pruning::Strong).check().unwrap();
/// assert_eq!(params.num_clusters(), 2);
/// assert!(PcstParams::new().root(Some(0)).num_clusters(2).check().is_err());
/// assert!(PcstParams::new().eps(f64::NAN).check().is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PcstParams {
    root: Option<usize>,
    num_clusters: usize,
    pruning: Pruning,
    eps: f64,
}

impl Default for PcstParams {
    fn default() -> Self {
        Self::new()
    }
}

impl PcstParams {
    /// Unrooted, one tree, `gw` pruning, `eps = 1e-6`.
    pub const fn new() -> Self {
        Self {
            root: None,
            num_clusters: 1,
            pruning: Pruning::Gw,
            eps: 1e-6,
        }
    }

    graphsparse_base::setters! {
        /// Root node (rooted problem: one tree that contains it), or `None` (unrooted).
        root: Option<usize> => root,
        /// Number of trees `g` in the unrooted case; must be 1 when rooted. `0` stops the growth
        /// only when every cluster is inactive (empty output except with [`Pruning::None`]);
        /// `g >= n` returns every node and no edge.
        num_clusters: usize => num_clusters,
        /// Pruning mode.
        pruning: Pruning => pruning,
        /// Merge tolerance: an edge is fully covered when its remainder is `< eps * cost`.
        /// `pcst_fast` uses `1e-6`; `cluster_approx` and GraphDA's projections use `1e-10`.
        eps: f64 => eps,
    }
}

impl Check for PcstParams {
    type Checked = PcstValidParams;
    type Error = PcstError;

    /// Validates the parameters (the input-dependent checks, such as a root within the graph,
    /// happen in the solve).
    ///
    /// # Errors
    /// [`PcstError::RootedNumClusters`] for a root with `num_clusters != 1`;
    /// [`PcstError::Input`] for a negative or non-finite `eps`.
    fn check(self) -> Result<PcstValidParams> {
        if self.root.is_some() && self.num_clusters != 1 {
            return Err(PcstError::RootedNumClusters(self.num_clusters));
        }
        check_nonnegative("eps", self.eps)?;
        Ok(PcstValidParams(self))
    }
}

/// Validated PCST parameters, from [`PcstParams`]' [`Check::check`].
#[derive(Clone, Debug, PartialEq)]
pub struct PcstValidParams(PcstParams);

impl Default for PcstValidParams {
    /// The `pcst_fast` settings (always valid).
    fn default() -> Self {
        Self(PcstParams::new())
    }
}

impl PcstValidParams {
    /// The root, if rooted.
    pub const fn root(&self) -> Option<usize> {
        self.0.root
    }
    /// Number of trees (1 when rooted).
    pub const fn num_clusters(&self) -> usize {
        self.0.num_clusters
    }
    /// Pruning mode.
    pub const fn pruning(&self) -> Pruning {
        self.0.pruning
    }
    /// Merge tolerance.
    pub const fn eps(&self) -> f64 {
        self.0.eps
    }
    /// Back to the builder, to change a field and check again.
    pub fn into_params(self) -> PcstParams {
        self.0
    }
}

/// A PCST solution: node ids and edge ids, in `pcst_fast`'s order.
///
/// For `simple`, `gw` and `strong` the nodes are strictly ascending; the edges are in merge
/// order (`simple`, `strong`) or reverse merge order (`gw`). For `none`, the nodes are the
/// merge edges' endpoints in merge order followed by the remaining kept nodes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PcstSolution {
    /// Selected nodes.
    pub nodes: Vec<usize>,
    /// Selected edges, as indices into the input edge list.
    pub edges: Vec<usize>,
}

/// Solves the prize-collecting Steiner forest problem with the GW scheme of `pcst_fast`, on
/// `pcst_fast`'s input: an edge list (self-loops and parallel edges allowed), node prizes and
/// edge costs.
///
/// A one-shot wrapper: checks the prizes, builds the
/// [`EdgeRules::MULTIGRAPH`] [`WeightedGraph`] of `edges` and `costs`, and calls
/// [`PcstSolver::solve_into`]; see there for the arguments and complexity. Keep the graph
/// and a [`PcstSolver`] to solve repeatedly.
///
/// # Errors
/// [`PcstError`] on invalid input, the prizes checked first: negative or non-finite prizes
/// ([`PcstError::NegativePrize`], [`PcstError::NonFinitePrize`]), then the graph's errors in
/// edge order ([`PcstError::Graph`]: out-of-range endpoints, negative or non-finite costs,
/// costs of the wrong length), then the root.
pub fn solve_pcst(
    edges: &[[usize; 2]],
    prizes: &[f64],
    costs: &[f64],
    params: &PcstValidParams,
) -> Result<PcstSolution> {
    solver::check_prizes(prizes)?;
    let graph = WeightedGraph::from_edges(prizes.len(), edges, Some(costs), EdgeRules::MULTIGRAPH)?;
    PcstSolver::new().solve(&graph, prizes, params)
}
