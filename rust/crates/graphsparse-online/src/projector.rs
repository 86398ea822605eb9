//! WGM head and tail projections: GraphDA's binary search over PCST runs (spec §B.3–B.5).

use graphsparse_pcst::{PcstParams, PcstSolution, PcstSolver, PcstValidParams, Pruning};

use crate::da::{GraphDa, check_sparsity};
use crate::error::{OnlineError, Result, check_finite, check_len, invalid};
use crate::iht::GraphStoIht;
use crate::loss::Loss;
use crate::params::check_graph;
use crate::select::SupportProjection;

/// The PCST merge tolerance of GraphDA's projections (graph-da's `head_tail_binsearch`).
pub const PROJECTION_EPS: f64 = 1e-10;

/// What the binary search returns when no PCST run landed in `[s_low, s_high]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fallback {
    /// The PCST solution at the final `λ_h` (graph-da; normative for reproducing GraphDA).
    #[default]
    LambdaHigh,
    /// The solution, among all runs including the final `λ_h` one, whose size is closest to
    /// the range (ties to the `λ_h` run, then to the earliest run).
    Closest,
}

/// Settings of the binary search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProjectionParams {
    /// Number of trees `g` of the forest (GraphDA: 1).
    pub num_clusters: usize,
    /// Maximum number of PCST runs before the fallback (GraphDA: 20).
    pub max_iter: usize,
    /// What to return when the range was not hit.
    pub fallback: Fallback,
    /// PCST merge tolerance ([`PROJECTION_EPS`] = 1e-10 in GraphDA; `pcst_fast` uses 1e-6).
    pub eps: f64,
}

impl Default for ProjectionParams {
    /// `g = 1`, `max_iter = 20`, [`Fallback::LambdaHigh`], `eps = 1e-10`: the published
    /// GraphDA settings.
    fn default() -> Self {
        Self {
            num_clusters: 1,
            max_iter: 20,
            fallback: Fallback::LambdaHigh,
            eps: PROJECTION_EPS,
        }
    }
}

/// Output of one projection.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Projection {
    /// The support `N`: nodes of the final PCST forest (GW pruning), ascending.
    pub nodes: Vec<usize>,
    /// The forest's edges, in reverse merge order.
    pub edges: Vec<usize>,
    /// Number of PCST runs in the doubling and bisection phases (the fallback run excluded).
    pub n_iter: usize,
}

/// `(s_low, s_high)` for a target sparsity: `(s, ⌊s·(1+ratio)⌋)`, `s_high` capped at `n`.
///
/// With `ratio = 0.1` this is graph-da's `int((1+0.1)*s)` (26 → 28, 46 → 50, 92 → 101).
///
/// # Complexity
/// O(1).
pub fn sparsity_range(s: usize, ratio: f64, n: usize) -> (usize, usize) {
    let high = (s as f64 * (1.0 + ratio)) as usize;
    (s, high.min(n).max(s))
}

/// The head projection's default sparsity for `p` nodes: `p / 2` (at least 1).
///
/// # Complexity
/// O(1).
pub fn head_sparsity(p: usize) -> usize {
    (p / 2).max(1)
}

/// Head and tail projections for the weighted graph model on one graph.
///
/// Holds the graph, a reusable [`PcstSolver`] and every buffer, so repeated projections
/// allocate nothing once warm. The search is sequential: each PCST run decides the next `λ`.
#[derive(Debug, Clone)]
pub struct GraphProjector {
    n: usize,
    edges: Vec<[usize; 2]>,
    costs: Vec<f64>,
    prizes: Vec<f64>,
    scaled: Vec<f64>,
    select: Vec<f64>,
    solver: PcstSolver,
    sol: PcstSolution,
    best: PcstSolution,
    pcst: PcstValidParams,
    n_runs: u64,
}

impl GraphProjector {
    /// A projector for the graph on `n` nodes with the given edges and non-negative costs.
    ///
    /// # Errors
    /// [`OnlineError::EdgeOutOfRange`], [`OnlineError::InvalidCost`],
    /// [`OnlineError::LengthMismatch`] (costs vs edges), or `n = 0`.
    ///
    /// # Complexity
    /// O(n + m) time and memory (the PCST graph is built once and reused by every run).
    pub fn new(n: usize, edges: &[[usize; 2]], costs: &[f64]) -> Result<Self> {
        if n == 0 {
            return Err(invalid("n_nodes", "at least 1", n));
        }
        check_len("costs", costs.len(), edges.len())?;
        for (e, &[u, v]) in edges.iter().enumerate() {
            if let Some(&node) = [u, v].iter().find(|&&x| x >= n) {
                return Err(OnlineError::EdgeOutOfRange {
                    edge: e,
                    node,
                    n_nodes: n,
                });
            }
        }
        if let Some((edge, &value)) = costs
            .iter()
            .enumerate()
            .find(|(_, c)| !(c.is_finite() && **c >= 0.0))
        {
            return Err(OnlineError::InvalidCost { edge, value });
        }
        Ok(Self {
            n,
            edges: edges.to_vec(),
            costs: costs.to_vec(),
            prizes: vec![0.0; n],
            scaled: vec![0.0; edges.len()],
            select: Vec::with_capacity(n),
            solver: PcstSolver::new(),
            sol: PcstSolution::default(),
            best: PcstSolution::default(),
            pcst: PcstParams::new()
                .pruning(Pruning::Gw)
                .eps(PROJECTION_EPS)
                .check()
                .expect("invariant: constant PCST parameters are valid"),
            n_runs: 0,
        })
    }

    /// Number of nodes.
    ///
    /// # Complexity
    /// O(1).
    pub fn n_nodes(&self) -> usize {
        self.n
    }

    /// Total number of PCST runs made so far (fallback runs included).
    ///
    /// # Complexity
    /// O(1).
    pub fn n_pcst_runs(&self) -> u64 {
        self.n_runs
    }

    fn run(&mut self, lambda: f64) -> Result<usize> {
        for (s, &c) in self.scaled.iter_mut().zip(&self.costs) {
            *s = lambda * c;
        }
        self.n_runs += 1;
        self.solver
            .solve_into(
                &self.edges,
                &self.prizes,
                &self.scaled,
                &self.pcst,
                &mut self.sol,
            )
            .map_err(|e| OnlineError::Pcst(e.to_string()))?;
        Ok(self.sol.nodes.len())
    }

    /// Projects `w` (the `n` node weights; never an intercept) onto a forest support with
    /// between `s_low` and `s_high` nodes, by GraphDA's binary search over the edge-cost scale
    /// `λ` (spec §B.4), and writes the result to `out`.
    ///
    /// Prizes are `π_i = w_i²`; each run is an unrooted GW-pruned PCST with costs `λ·c_e` and
    /// tolerance `params.eps`.
    /// 1. `λ_h = 2·(s_high-th smallest prize)`, else `2·(s_low-th smallest)`, else `2·max π`;
    ///    `λ_l = 0`.
    /// 2. Doubling: `λ_h ← 2λ_h` (starting from the value above) while the support has more
    ///    than `s_high` nodes and fewer than `max_iter` runs were made; return if the last
    ///    support has at least `s_low` nodes and runs remain.
    /// 3. Bisection on `[λ_l, λ_h]` until a support size lands in `[s_low, s_high]`.
    /// 4. Otherwise the fallback (see [`Fallback`]), whose run is not counted in `n_iter`.
    ///
    /// # Errors
    /// [`OnlineError::LengthMismatch`] or [`OnlineError::NonFinite`] for `w` (also when a
    /// square overflows), [`OnlineError::InvalidParameter`] unless
    /// `1 ≤ s_low ≤ s_high ≤ n`, `max_iter ≥ 1`, `num_clusters ≥ 1` and `eps ≥ 0`.
    ///
    /// # Complexity
    /// At most `max_iter + 1` PCST runs, each O(m log n); a search whose `λ` bracket can no
    /// longer change stops early with the result the remaining runs would give, so a huge
    /// `max_iter` costs at most about 2100 runs (the doublings and halvings of an `f64`).
    pub fn project_into(
        &mut self,
        w: &[f64],
        s_low: usize,
        s_high: usize,
        params: &ProjectionParams,
        out: &mut Projection,
    ) -> Result<()> {
        check_len("w", w.len(), self.n)?;
        if s_low == 0 || s_low > s_high || s_high > self.n {
            return Err(OnlineError::InvalidParameter {
                name: "sparsity",
                expected: "a range 1 <= s_low <= s_high <= n_nodes",
                value: format!("({s_low}, {s_high}) with n_nodes = {}", self.n),
            });
        }
        if params.max_iter == 0 {
            return Err(invalid("max_iter", ">= 1", params.max_iter));
        }
        if params.num_clusters == 0 {
            return Err(invalid("num_clusters", ">= 1", params.num_clusters));
        }
        for (p, &x) in self.prizes.iter_mut().zip(w) {
            *p = x * x;
        }
        check_finite("w", &self.prizes)?;
        self.pcst = PcstParams::new()
            .num_clusters(params.num_clusters)
            .eps(params.eps)
            .check()
            .map_err(|_| invalid("eps", "finite and >= 0", params.eps))?;
        let max_iter = params.max_iter;
        let closest = params.fallback == Fallback::Closest;
        let dist = |k: usize| {
            if k < s_low {
                s_low - k
            } else {
                k.saturating_sub(s_high)
            }
        };
        let mut best_dist = usize::MAX;

        // λ_h from the s_high-th (then s_low-th) smallest prize: graph-da's C rule
        self.select.clear();
        self.select.extend_from_slice(&self.prizes);
        let kth = |sel: &mut Vec<f64>, k: usize| *sel.select_nth_unstable_by(k, f64::total_cmp).1;
        let mut lambda_h = 2.0 * kth(&mut self.select, s_high - 1);
        if lambda_h == 0.0 {
            lambda_h = 2.0 * kth(&mut self.select, s_low - 1);
            if lambda_h == 0.0 {
                lambda_h = 2.0 * self.prizes.iter().copied().fold(0.0, f64::max);
            }
        }
        let mut lambda_l = 0.0;
        let mut it = 0;
        lambda_h /= 2.0;
        let mut k;
        let mut last_lambda;
        loop {
            it += 1;
            lambda_h *= 2.0;
            k = self.run(lambda_h)?;
            last_lambda = lambda_h;
            if closest && dist(k) < best_dist {
                best_dist = dist(k);
                self.best.clone_from(&self.sol);
            }
            if !(k > s_high && it < max_iter) {
                break;
            }
            if lambda_h * 2.0 == lambda_h {
                // λ_h = 0 cannot grow: every remaining run would repeat this one, so the
                // search ends as if it had used them all (fast for any max_iter)
                it = max_iter;
                break;
            }
        }
        if it < max_iter && k >= s_low {
            self.emit(it, out);
            return Ok(());
        }
        while it < max_iter {
            it += 1;
            let lambda_m = (lambda_l + lambda_h) / 2.0;
            k = self.run(lambda_m)?;
            last_lambda = lambda_m;
            if closest && dist(k) < best_dist {
                best_dist = dist(k);
                self.best.clone_from(&self.sol);
            }
            if s_low <= k && k <= s_high {
                self.emit(it, out);
                return Ok(());
            }
            let (low, high) = (lambda_l, lambda_h);
            if k > s_high {
                lambda_l = lambda_m;
            } else {
                lambda_h = lambda_m;
            }
            if lambda_l.to_bits() == low.to_bits() && lambda_h.to_bits() == high.to_bits() {
                // the bracket is two adjacent floats: the remaining runs would repeat this one
                it = max_iter;
            }
        }
        // PCST is deterministic, so the fallback run at λ_h equals the last run when that
        // run used λ_h already; skip it then.
        if last_lambda.to_bits() != lambda_h.to_bits() {
            k = self.run(lambda_h)?;
        }
        if closest && dist(k) > best_dist {
            std::mem::swap(&mut self.sol, &mut self.best);
        }
        self.emit(it, out);
        Ok(())
    }

    fn emit(&self, it: usize, out: &mut Projection) {
        out.nodes.clone_from(&self.sol.nodes);
        out.edges.clone_from(&self.sol.edges);
        out.n_iter = it;
    }

    /// [`GraphProjector::project_into`] returning a fresh [`Projection`].
    ///
    /// # Errors
    /// As [`GraphProjector::project_into`].
    ///
    /// # Complexity
    /// As [`GraphProjector::project_into`], plus the O(n) result.
    pub fn project(
        &mut self,
        w: &[f64],
        s_low: usize,
        s_high: usize,
        params: &ProjectionParams,
    ) -> Result<Projection> {
        let mut out = Projection::default();
        self.project_into(w, s_low, s_high, params, &mut out)?;
        Ok(out)
    }
}

/// The graph head/tail pair of GraphDA and GraphStoIHT (spec §B.5).
///
/// Head: sparsity range `(p/2, ⌊(p/2)(1+ω)⌋)` by default; tail: `(s, ⌊s(1+ω)⌋)`; both with
/// `g` trees and `max_iter` runs. The last head and tail results are kept for inspection.
#[derive(Debug, Clone)]
pub struct GraphProjection {
    projector: GraphProjector,
    head_range: (usize, usize),
    tail_range: (usize, usize),
    params: ProjectionParams,
    last_head: Projection,
    last_tail: Projection,
}

/// Settings of GraphDA/GraphStoIHT's head and tail projections.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GraphProjectionParams {
    /// Tail sparsity `s` (the model's sparsity).
    pub sparsity: usize,
    /// Head sparsity; `None` means `p / 2` (the published setting).
    pub head_sparsity: Option<usize>,
    /// Tolerance ratio `ω`: ranges are `(s, ⌊s(1+ω)⌋)` (published: 0.1).
    pub ratio: f64,
    /// Trees, PCST run budget and fallback of each binary search.
    pub search: ProjectionParams,
}

impl GraphProjectionParams {
    /// The published settings for sparsity `s`: head `p/2`, `ω = 0.1`, `g = 1`, 20 runs.
    ///
    /// # Complexity
    /// O(1).
    pub fn new(sparsity: usize) -> Self {
        Self {
            sparsity,
            head_sparsity: None,
            ratio: 0.1,
            search: ProjectionParams::default(),
        }
    }
}

impl GraphProjection {
    /// The head/tail pair on the graph with `p` nodes.
    ///
    /// # Errors
    /// As [`GraphProjector::new`], and [`OnlineError::InvalidParameter`] for a sparsity
    /// outside `1..=p`, a negative or non-finite ratio, `max_iter = 0` or `num_clusters = 0`.
    ///
    /// # Complexity
    /// As [`GraphProjector::new`]; each projection is a binary search of at most `max_iter` PCST-GW
    /// runs, O(max_iter · (n + m) log n).
    pub fn new(
        p: usize,
        edges: &[[usize; 2]],
        costs: &[f64],
        params: &GraphProjectionParams,
    ) -> Result<Self> {
        let projector = GraphProjector::new(p, edges, costs)?;
        check_graph(params)?;
        check_sparsity(params.sparsity, p)?;
        let hs = params.head_sparsity.unwrap_or_else(|| head_sparsity(p));
        if hs == 0 || hs > p {
            return Err(invalid("head_sparsity", "in 1..=n_features", hs));
        }
        Ok(Self {
            projector,
            head_range: sparsity_range(hs, params.ratio, p),
            tail_range: sparsity_range(params.sparsity, params.ratio, p),
            params: params.search,
            last_head: Projection::default(),
            last_tail: Projection::default(),
        })
    }

    /// `(s_low, s_high)` of the head projection.
    ///
    /// # Complexity
    /// O(1).
    pub fn head_range(&self) -> (usize, usize) {
        self.head_range
    }

    /// `(s_low, s_high)` of the tail projection.
    ///
    /// # Complexity
    /// O(1).
    pub fn tail_range(&self) -> (usize, usize) {
        self.tail_range
    }

    /// The last head projection.
    ///
    /// # Complexity
    /// O(1).
    pub fn last_head(&self) -> &Projection {
        &self.last_head
    }

    /// The last tail projection.
    ///
    /// # Complexity
    /// O(1).
    pub fn last_tail(&self) -> &Projection {
        &self.last_tail
    }

    /// The underlying projector (for its run counter).
    ///
    /// # Complexity
    /// O(1).
    pub fn projector(&self) -> &GraphProjector {
        &self.projector
    }
}

impl SupportProjection for GraphProjection {
    fn head_into(&mut self, v: &[f64], support: &mut Vec<usize>) -> Result<()> {
        let (lo, hi) = self.head_range;
        self.projector
            .project_into(v, lo, hi, &self.params, &mut self.last_head)?;
        support.clone_from(&self.last_head.nodes);
        Ok(())
    }
    fn tail_into(&mut self, v: &[f64], support: &mut Vec<usize>) -> Result<()> {
        let (lo, hi) = self.tail_range;
        self.projector
            .project_into(v, lo, hi, &self.params, &mut self.last_tail)?;
        support.clone_from(&self.last_tail.nodes);
        Ok(())
    }
}

impl GraphDa<GraphProjection> {
    /// GraphDA on a graph with `p` nodes (one per feature).
    ///
    /// # Errors
    /// As [`GraphProjection::new`] and [`GraphDa::with_projection`].
    ///
    /// # Complexity
    /// As [`GraphProjection::new`]; each update costs O(p) plus two projections.
    pub fn new(
        p: usize,
        edges: &[[usize; 2]],
        costs: &[f64],
        gamma: f64,
        params: &GraphProjectionParams,
        loss: Loss,
        l2: f64,
    ) -> Result<Self> {
        let proj = GraphProjection::new(p, edges, costs, params)?;
        Self::with_projection(p, gamma, loss, l2, proj)
    }
}

impl GraphStoIht<GraphProjection> {
    /// GraphStoIHT on a graph with `p` nodes (one per feature).
    ///
    /// # Errors
    /// As [`GraphProjection::new`] and [`GraphStoIht::with_projection`].
    ///
    /// # Complexity
    /// As [`GraphProjection::new`]; each update costs O(p) plus two projections.
    pub fn new(
        p: usize,
        edges: &[[usize; 2]],
        costs: &[f64],
        lr: f64,
        params: &GraphProjectionParams,
        loss: Loss,
        l2: f64,
    ) -> Result<Self> {
        let proj = GraphProjection::new(p, edges, costs, params)?;
        Self::with_projection(p, lr, loss, l2, proj)
    }
}
