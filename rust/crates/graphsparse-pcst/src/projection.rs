//! Head and tail projections onto supports: the weighted graph model (WGM) by GraphDA's binary
//! search over PCST runs (spec §B.3–B.5), and the exact top-`s` model.
//!
//! They live here, below the online learners and graph-structured recovery, because both use
//! them: `graphsparse-online`'s GraphDA and GraphStoIHT, and `graphsparse-recovery`'s
//! Graph-IHT and Graph-CoSaMP.
//!
//! # Example
//! ```
//! use graphsparse_graph::{EdgeRules, WeightedGraph};
//! use graphsparse_pcst::Check;
//! use graphsparse_pcst::projection::{GraphProjection, GraphProjectionParams, SupportProjection};
//! // a path 0-1-2-3-4 with weight on 1 and 2
//! let g = WeightedGraph::from_edges(
//!     5, &[[0usize, 1], [1, 2], [2, 3], [3, 4]], None, EdgeRules::MULTIGRAPH,
//! )?;
//! let params = GraphProjectionParams::new(2).ratio(0.0).check()?;
//! let mut proj = GraphProjection::new(g, &params)?;
//! let mut support = Vec::new();
//! proj.tail_into(&[0.0, 3.0, 2.0, 0.0, 0.1], &mut support)?;
//! assert_eq!(support, vec![1, 2]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use graphsparse_base::{
    Check, InputError, check_at_least_one, check_finite, check_len, check_nonnegative,
};
use graphsparse_graph::WeightedGraph;

use crate::error::PcstError;
use crate::solver::PcstSolver;
use crate::{PcstParams, PcstSolution, PcstValidParams, Pruning};

/// The PCST merge tolerance of GraphDA's projections (graph-da's `head_tail_binsearch`).
pub const PROJECTION_EPS: f64 = 1e-10;

/// The [`Fallback::Closest`] bookkeeping of a search: the least distance of a support size
/// to `[s_low, s_high]` seen so far (nothing is tracked when off).
struct Closest {
    on: bool,
    s_low: usize,
    s_high: usize,
    best: usize,
}

impl Closest {
    fn new(on: bool, s_low: usize, s_high: usize) -> Self {
        Self {
            on,
            s_low,
            s_high,
            best: usize::MAX,
        }
    }

    fn dist(&self, k: usize) -> usize {
        if k < self.s_low {
            self.s_low - k
        } else {
            k.saturating_sub(self.s_high)
        }
    }

    /// Whether a run with support size `k` is the closest so far (then it is recorded).
    fn improves(&mut self, k: usize) -> bool {
        let better = self.on && self.dist(k) < self.best;
        if better {
            self.best = self.dist(k);
        }
        better
    }

    /// Whether support size `k` is farther than the closest run.
    fn is_worse(&self, k: usize) -> bool {
        self.on && self.dist(k) > self.best
    }
}

/// [`LambdaStart::Previous`]: the first factor by which `λ` moves away from the previous
/// result's (squared at each further step, up to 2).
const WARM_FIRST_STEP: f64 = 1.02;
/// [`LambdaStart::Previous`]: a search stops once its bracket `[λ_l, λ_h]` is narrower than
/// this fraction of `λ_h`.
const WARM_RTOL: f64 = 1.0 / 1024.0;

/// How a search ended: the `λ` of its result and, after a miss, the largest `λ` run whose
/// support had more than `s_high` nodes.
struct SearchEnd {
    lambda: f64,
    low: Option<f64>,
}

/// Errors of the head and tail projections.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ProjectionError {
    /// A shared rule broken by an argument (`w` of the wrong length or not finite, a count
    /// below 1, a negative `ratio` or `eps`).
    #[error(transparent)]
    Input(#[from] InputError),
    /// A sparsity (range) that does not fit the graph, or an empty graph.
    #[error("{name} must be {expected}, got {value}")]
    InvalidParameter {
        /// The parameter.
        name: &'static str,
        /// What it must be.
        expected: &'static str,
        /// The offending value, formatted.
        value: String,
    },
    /// The weights to project hold NaN or an infinity (the message the Python API has always
    /// given: `w contains NaN or infinity`).
    #[error("w contains NaN or infinity (first at index {index}: {value})")]
    NonFiniteWeight {
        /// Index of the first non-finite weight.
        index: usize,
        /// The weight.
        value: f64,
    },
    /// A PCST run failed (prizes or scaled costs too large).
    #[error(transparent)]
    Pcst(#[from] PcstError),
}

fn invalid(name: &'static str, expected: &'static str, value: impl ToString) -> ProjectionError {
    ProjectionError::InvalidParameter {
        name,
        expected,
        value: value.to_string(),
    }
}

/// A head and a tail projection onto supports (spec §B.1): each writes the selected support of
/// `v` (the `p` feature coordinates, intercept excluded) into `support`, ascending.
pub trait SupportProjection {
    /// Head projection `H = head(v)`.
    ///
    /// # Errors
    /// Only for invalid input (non-finite `v`), which the learners never pass.
    fn head_into(&mut self, v: &[f64], support: &mut Vec<usize>) -> Result<(), ProjectionError>;
    /// Tail projection `T = tail(v)`.
    ///
    /// # Errors
    /// As [`SupportProjection::head_into`].
    fn tail_into(&mut self, v: &[f64], support: &mut Vec<usize>) -> Result<(), ProjectionError>;

    /// The last step of GraphDA and GraphStoIHT: `coef = w` on the tail support of `w`'s
    /// feature part, 0 elsewhere, and `coef`'s intercept (last entry) `= w`'s.
    ///
    /// # Errors
    /// As [`SupportProjection::head_into`].
    ///
    /// # Complexity
    /// One tail projection plus O(p).
    fn keep_tail(
        &mut self,
        w: &[f64],
        support: &mut Vec<usize>,
        coef: &mut [f64],
    ) -> Result<(), ProjectionError> {
        let p = w.len() - 1;
        self.tail_into(&w[..p], support)?;
        coef.fill(0.0);
        for &i in support.iter() {
            coef[i] = w[i];
        }
        coef[p] = w[p];
        Ok(())
    }
}

/// Exact head and tail of the non-graph model `{S : |S| ≤ s}`: the top-`s` coordinates by
/// magnitude, ties to the smaller index (spec §B.8, Theorem 2 of the paper).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TopKProjection {
    /// Support size of the head projection.
    pub head_sparsity: usize,
    /// Support size of the tail projection.
    pub tail_sparsity: usize,
}

impl TopKProjection {
    /// Head keeps `head_sparsity` coordinates, tail keeps `tail_sparsity`.
    ///
    /// # Errors
    /// [`ProjectionError::Input`] if either is 0.
    ///
    /// # Complexity
    /// O(1); each projection is an O(p) selection.
    pub fn new(head_sparsity: usize, tail_sparsity: usize) -> Result<Self, ProjectionError> {
        check_at_least_one("head_sparsity", head_sparsity)?;
        check_at_least_one("sparsity", tail_sparsity)?;
        Ok(Self {
            head_sparsity,
            tail_sparsity,
        })
    }
}

impl SupportProjection for TopKProjection {
    fn head_into(&mut self, v: &[f64], support: &mut Vec<usize>) -> Result<(), ProjectionError> {
        Ok(top_support_into(
            "head input",
            v,
            self.head_sparsity,
            support,
        )?)
    }
    fn tail_into(&mut self, v: &[f64], support: &mut Vec<usize>) -> Result<(), ProjectionError> {
        Ok(top_support_into(
            "tail input",
            v,
            self.tail_sparsity,
            support,
        )?)
    }
}

/// The top-`s` support of `v` (`s` capped at the length): larger magnitudes first, ties to the
/// smaller index, written ascending into `support`.
///
/// # Errors
/// [`InputError::NotFinite`] naming `arg` when `v` holds NaN or ±inf (an iterate that
/// overflowed).
///
/// # Complexity
/// O(p) (selection, not sorting).
pub fn top_support_into(
    arg: &'static str,
    v: &[f64],
    s: usize,
    support: &mut Vec<usize>,
) -> Result<(), InputError> {
    graphsparse_proj::top_k_support_into(v, s.min(v.len()), support).map_err(|e| match e {
        graphsparse_proj::ProjError::Input(InputError::NotFinite { index, value, .. }) => {
            InputError::NotFinite { arg, index, value }
        }
        other => unreachable!("invariant: k <= len was ensured above ({other})"),
    })
}

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

/// Where each binary search over `λ` starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LambdaStart {
    /// graph-da's rule every time (spec §B.4: `λ_h` from the prizes, `λ_l = 0`): the
    /// published results, each projection independent of the ones before.
    #[default]
    Fixed,
    /// From where the previous search of the same projector for the same sparsity range
    /// ended (a [`GraphProjection`] keeps its head and its tail searches apart) (the first search of a range uses [`LambdaStart::Fixed`], and so does every
    /// search after one that the fixed rule's first `λ_h` answered in one run, as with the
    /// head projection's wide range).
    ///
    /// The first run is at the previous result's `λ`; a support in `[s_low, s_high]` is
    /// returned at once. Otherwise, when the previous search missed the range, its largest
    /// `λ` with too many nodes is tried next; then `λ` moves by growing factors (1.02, 1.02²,
    /// 1.02⁴, …, at most 2) until the support size crosses the range, and the bracket is
    /// bisected until a run lands in the range, `max_iter` runs were made, or the bracket is
    /// narrower than `λ_h / 1024` (far coarser than the fixed search's, so a range that the
    /// support sizes jump over costs a few runs instead of `max_iter`). Without a hit,
    /// [`Fallback::LambdaHigh`] returns the run at the least `λ` whose support had at most
    /// `s_high` nodes (the last run when none had), and `n_iter` counts the runs made. Much
    /// faster on slowly changing inputs (the online learners), but each result depends on
    /// the earlier ones and in general differs from [`LambdaStart::Fixed`]'s.
    Previous,
}

/// Settings of the binary search (a builder; see [`Check::check`]).
///
/// Defaults: `g = 1`, `max_iter = 20`, [`Fallback::LambdaHigh`], `eps = 1e-10`,
/// [`LambdaStart::Fixed`], the published GraphDA settings.
///
/// # Example
/// ```
/// use graphsparse_pcst::Check;
/// use graphsparse_pcst::projection::ProjectionParams;
/// let p = ProjectionParams::new().max_iter(5).check()?;
/// assert_eq!(p.max_iter(), 5);
/// assert!(ProjectionParams::new().num_clusters(0).check().is_err());
/// # Ok::<(), graphsparse_pcst::projection::ProjectionError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProjectionParams {
    num_clusters: usize,
    max_iter: usize,
    fallback: Fallback,
    eps: f64,
    lambda_start: LambdaStart,
}

impl Default for ProjectionParams {
    fn default() -> Self {
        Self::new()
    }
}

impl ProjectionParams {
    /// The published GraphDA settings.
    pub const fn new() -> Self {
        Self {
            num_clusters: 1,
            max_iter: 20,
            fallback: Fallback::LambdaHigh,
            eps: PROJECTION_EPS,
            lambda_start: LambdaStart::Fixed,
        }
    }

    graphsparse_base::setters! {
        /// Number of trees `g` of the forest (GraphDA: 1; `>= 1`).
        num_clusters: usize => num_clusters,
        /// Most PCST runs before the fallback (GraphDA: 20; `>= 1`).
        max_iter: usize => max_iter,
        /// What to return when the range was not hit.
        fallback: Fallback => fallback,
        /// PCST merge tolerance ([`PROJECTION_EPS`] = 1e-10 in GraphDA; `pcst_fast` uses 1e-6).
        eps: f64 => eps,
        /// Where each search starts (GraphDA: [`LambdaStart::Fixed`]).
        lambda_start: LambdaStart => lambda_start,
    }
}

impl Check for ProjectionParams {
    type Checked = ProjectionValidParams;
    type Error = ProjectionError;

    /// # Errors
    /// [`ProjectionError::Input`] for `max_iter = 0`, `num_clusters = 0` or a negative or
    /// non-finite `eps`.
    fn check(self) -> Result<ProjectionValidParams, ProjectionError> {
        check_at_least_one("max_iter", self.max_iter)?;
        check_at_least_one("num_clusters", self.num_clusters)?;
        check_nonnegative("eps", self.eps)?;
        let pcst = PcstParams::new()
            .pruning(Pruning::Gw)
            .num_clusters(self.num_clusters)
            .eps(self.eps)
            .check()?;
        Ok(ProjectionValidParams { params: self, pcst })
    }
}

/// Checked [`ProjectionParams`], with the PCST parameters of every run.
#[derive(Debug, Clone, PartialEq)]
pub struct ProjectionValidParams {
    params: ProjectionParams,
    pcst: PcstValidParams,
}

impl Default for ProjectionValidParams {
    /// The published GraphDA settings (always valid).
    fn default() -> Self {
        ProjectionParams::new()
            .check()
            .expect("invariant: the default projection parameters are valid")
    }
}

impl ProjectionValidParams {
    /// Number of trees.
    pub const fn num_clusters(&self) -> usize {
        self.params.num_clusters
    }
    /// Most PCST runs before the fallback.
    pub const fn max_iter(&self) -> usize {
        self.params.max_iter
    }
    /// The fallback.
    pub const fn fallback(&self) -> Fallback {
        self.params.fallback
    }
    /// The PCST merge tolerance.
    pub const fn eps(&self) -> f64 {
        self.params.eps
    }
    /// Where each search starts.
    pub const fn lambda_start(&self) -> LambdaStart {
        self.params.lambda_start
    }
    /// Back to the builder.
    pub const fn into_params(self) -> ProjectionParams {
        self.params
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
/// Holds the graph (its weights are the edge costs `c_e`), a reusable [`PcstSolver`] and
/// every buffer, so repeated projections allocate nothing once warm. The search is
/// sequential: each PCST run decides the next `λ`.
#[derive(Debug, Clone)]
pub struct GraphProjector {
    graph: WeightedGraph,
    prizes: Vec<f64>,
    select: Vec<f64>,
    solver: PcstSolver,
    sol: PcstSolution,
    best: PcstSolution,
    /// The solution of the run at the current `λ_h` during the bisection (the fallback's).
    at_high: PcstSolution,
    n_runs: u64,
    /// [`LambdaStart::Previous`]: per sparsity range `(s_low, s_high)`, the `λ` of the last
    /// result and, when it missed the range, the largest `λ` it saw with too many nodes (else
    /// NaN).
    warm: Vec<(usize, usize, f64, f64)>,
}

impl GraphProjector {
    /// A projector for `graph` (one node per coordinate, costs `>= 0`; self-loops and
    /// parallel edges are allowed, as PCST takes them).
    ///
    /// # Errors
    /// [`ProjectionError::InvalidParameter`] for a graph without nodes.
    ///
    /// # Complexity
    /// O(n) time and memory (the PCST graph is the one given, reused by every run).
    pub fn new(graph: WeightedGraph) -> Result<Self, ProjectionError> {
        let n = graph.n_vertices();
        if n == 0 {
            return Err(invalid("n_nodes", "at least 1", n));
        }
        Ok(Self {
            graph,
            prizes: vec![0.0; n],
            select: Vec::with_capacity(n),
            solver: PcstSolver::new(),
            sol: PcstSolution::default(),
            best: PcstSolution::default(),
            at_high: PcstSolution::default(),
            n_runs: 0,
            warm: Vec::new(),
        })
    }

    /// Number of nodes.
    ///
    /// # Complexity
    /// O(1).
    pub fn n_nodes(&self) -> usize {
        self.graph.n_vertices()
    }

    /// The graph.
    ///
    /// # Complexity
    /// O(1).
    pub fn graph(&self) -> &WeightedGraph {
        &self.graph
    }

    /// Total number of PCST runs made so far (a fallback repeats a run already made, whose
    /// solution is kept, and adds none).
    ///
    /// # Complexity
    /// O(1).
    pub fn n_pcst_runs(&self) -> u64 {
        self.n_runs
    }

    fn run(&mut self, lambda: f64, pcst: &PcstValidParams) -> Result<usize, ProjectionError> {
        self.n_runs += 1;
        self.solver
            .solve_scaled_into(&self.graph, &self.prizes, lambda, pcst, &mut self.sol)?;
        Ok(self.sol.nodes.len())
    }

    /// Projects `w` (the `n` node weights; never an intercept) onto a forest support with
    /// between `s_low` and `s_high` nodes, by GraphDA's binary search over the edge-cost scale
    /// `λ` (spec §B.4), and writes the result to `out`.
    ///
    /// Prizes are `π_i = w_i²`; each run is an unrooted GW-pruned PCST with costs `λ·c_e` and
    /// tolerance `params.eps()`.
    /// 1. `λ_h = 2·(s_high-th smallest prize)`, else `2·(s_low-th smallest)`, else `2·max π`;
    ///    `λ_l = 0`.
    /// 2. Doubling: `λ_h ← 2λ_h` (starting from the value above) while the support has more
    ///    than `s_high` nodes and fewer than `max_iter` runs were made; return if the last
    ///    support has at least `s_low` nodes and runs remain.
    /// 3. Bisection on `[λ_l, λ_h]` until a support size lands in `[s_low, s_high]`.
    /// 4. Otherwise the fallback (see [`Fallback`]), whose run is not counted in `n_iter`.
    ///
    /// With [`LambdaStart::Previous`] every search after the first one of a range starts
    /// from the previous result's `λ` instead (see there).
    ///
    /// # Errors
    /// [`ProjectionError::Input`] for `w` of the wrong length or whose square overflows,
    /// [`ProjectionError::NonFiniteWeight`] for a non-finite `w`,
    /// [`ProjectionError::InvalidParameter`] unless `1 ≤ s_low ≤ s_high ≤ n`.
    ///
    /// # Complexity
    /// At most `max_iter` PCST runs, each O(m log n); a search whose `λ` bracket can no
    /// longer change stops early with the result the remaining runs would give, so a huge
    /// `max_iter` costs at most about 2100 runs (the doublings and halvings of an `f64`).
    pub fn project_into(
        &mut self,
        w: &[f64],
        s_low: usize,
        s_high: usize,
        params: &ProjectionValidParams,
        out: &mut Projection,
    ) -> Result<(), ProjectionError> {
        self.load_prizes(w, s_low, s_high)?;
        if params.lambda_start() == LambdaStart::Fixed {
            self.search_fixed(s_low, s_high, params, out)?;
            return Ok(());
        }
        let slot = self
            .warm
            .iter()
            .position(|&(lo, hi, _, _)| (lo, hi) == (s_low, s_high));
        let start = slot
            .map(|i| self.warm[i].2)
            .filter(|&l| l.is_normal() && (l * 4.0).is_finite());
        let end = match start {
            Some(start) => {
                let alt = slot.map(|i| self.warm[i].3).filter(|a| a.is_normal());
                self.search_from(start, alt, s_low, s_high, params, out)?
            }
            None => self.search_fixed(s_low, s_high, params, out)?,
        };
        let first_fixed_hit =
            start.is_none() && out.n_iter == 1 && (s_low..=s_high).contains(&out.nodes.len());
        if first_fixed_hit {
            // the fixed rule's first λ_h did it in one run: keep that rule for this range
            if let Some(i) = slot {
                self.warm.swap_remove(i);
            }
        } else if end.lambda.is_normal() {
            let low = end.low.unwrap_or(f64::NAN);
            match slot {
                Some(i) => self.warm[i] = (s_low, s_high, end.lambda, low),
                None => self.warm.push((s_low, s_high, end.lambda, low)),
            }
        }
        Ok(())
    }

    /// The search from graph-da's fixed start (spec §B.4); returns the `λ` of the result.
    fn search_fixed(
        &mut self,
        s_low: usize,
        s_high: usize,
        params: &ProjectionValidParams,
        out: &mut Projection,
    ) -> Result<SearchEnd, ProjectionError> {
        let pcst = &params.pcst;
        let max_iter = params.max_iter();
        let mut closest = Closest::new(params.fallback() == Fallback::Closest, s_low, s_high);
        let mut lambda_h = self.start_lambda(s_low, s_high);
        let mut lambda_l = 0.0;
        let mut it = 0;
        lambda_h /= 2.0;
        let mut k;
        let mut last_lambda;
        let mut best_lambda = f64::NAN;
        loop {
            it += 1;
            lambda_h *= 2.0;
            k = self.run(lambda_h, pcst)?;
            last_lambda = lambda_h;
            if closest.improves(k) {
                self.best.clone_from(&self.sol);
                best_lambda = lambda_h;
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
            return Ok(SearchEnd {
                lambda: last_lambda,
                low: None,
            });
        }
        // the last run was at λ_h; the bisection keeps the solution at λ_h up to date, since
        // the fallback needs it and λ_h is always a value already run
        self.at_high.clone_from(&self.sol);
        while it < max_iter {
            it += 1;
            let lambda_m = (lambda_l + lambda_h) / 2.0;
            k = self.run(lambda_m, pcst)?;
            last_lambda = lambda_m;
            if closest.improves(k) {
                self.best.clone_from(&self.sol);
                best_lambda = lambda_m;
            }
            if s_low <= k && k <= s_high {
                self.emit(it, out);
                return Ok(SearchEnd {
                    lambda: lambda_m,
                    low: None,
                });
            }
            let (low, high) = (lambda_l, lambda_h);
            if k > s_high {
                lambda_l = lambda_m;
            } else {
                lambda_h = lambda_m;
                self.at_high.clone_from(&self.sol);
            }
            if lambda_l.to_bits() == low.to_bits() && lambda_h.to_bits() == high.to_bits() {
                // the bracket is two adjacent floats: the remaining runs would repeat this one
                it = max_iter;
            }
        }
        // PCST is deterministic and λ_h was run already (the last doubling run or a bisection
        // midpoint) on these prizes: the fallback run at λ_h would repeat that run, whose
        // solution was kept.
        if last_lambda.to_bits() != lambda_h.to_bits() {
            std::mem::swap(&mut self.sol, &mut self.at_high);
            k = self.sol.nodes.len();
            last_lambda = lambda_h;
        }
        if closest.is_worse(k) {
            std::mem::swap(&mut self.sol, &mut self.best);
            last_lambda = best_lambda;
        }
        self.emit(it, out);
        Ok(SearchEnd {
            lambda: last_lambda,
            low: (lambda_l > 0.0).then_some(lambda_l),
        })
    }

    /// The [`LambdaStart::Previous`] search from `λ = start` (finite, `> 0`), trying `alt`
    /// (the previous miss's lower end, `< start`) next when `start` gave too few nodes.
    fn search_from(
        &mut self,
        start: f64,
        alt: Option<f64>,
        s_low: usize,
        s_high: usize,
        params: &ProjectionValidParams,
        out: &mut Projection,
    ) -> Result<SearchEnd, ProjectionError> {
        let pcst = &params.pcst;
        let max_iter = params.max_iter();
        let mut closest = Closest::new(params.fallback() == Fallback::Closest, s_low, s_high);
        let mut best_lambda = f64::NAN;
        // the largest λ seen with more than s_high nodes, the least with at most s_high
        let (mut low, mut high): (Option<f64>, Option<f64>) = (None, None);
        let mut alt = alt.filter(|&a| a < start);
        let mut factor = WARM_FIRST_STEP;
        let mut lambda = start;
        let mut last = start;
        let mut it = 0;
        while it < max_iter {
            it += 1;
            let k = self.run(lambda, pcst)?;
            last = lambda;
            if closest.improves(k) {
                self.best.clone_from(&self.sol);
                best_lambda = lambda;
            }
            if s_low <= k && k <= s_high {
                self.emit(it, out);
                return Ok(SearchEnd { lambda, low: None });
            }
            if k > s_high {
                low = Some(lambda);
            } else {
                high = Some(lambda);
                self.at_high.clone_from(&self.sol);
            }
            let next = match (low, high) {
                (Some(l), Some(h)) => {
                    if h - l <= WARM_RTOL * h {
                        break;
                    }
                    (l + h) / 2.0
                }
                (Some(l), None) => l * factor,
                (None, Some(h)) => alt.take().unwrap_or(h / factor),
                (None, None) => unreachable!("invariant: the run just made set one end"),
            };
            if low.is_none() || high.is_none() {
                factor = (factor * factor).min(2.0);
            }
            if next.to_bits() == lambda.to_bits()
                || low.is_some_and(|l| next.to_bits() == l.to_bits())
                || high.is_some_and(|h| next.to_bits() == h.to_bits())
                || !(next * 4.0).is_finite()
            {
                // the bracket cannot shrink or grow further: a further run would repeat one
                // already made
                break;
            }
            lambda = next;
        }
        let mut lambda_out = last;
        if let Some(h) = high
            && h.to_bits() != last.to_bits()
        {
            std::mem::swap(&mut self.sol, &mut self.at_high);
            lambda_out = h;
        }
        if closest.is_worse(self.sol.nodes.len()) {
            std::mem::swap(&mut self.sol, &mut self.best);
            lambda_out = best_lambda;
        }
        self.emit(it, out);
        Ok(SearchEnd {
            lambda: lambda_out,
            low,
        })
    }

    /// Checks `w` and the sparsity range, and sets the prizes `w_i²`.
    fn load_prizes(
        &mut self,
        w: &[f64],
        s_low: usize,
        s_high: usize,
    ) -> Result<(), ProjectionError> {
        let n = self.n_nodes();
        check_len("w", w.len(), n)?;
        if s_low == 0 || s_low > s_high || s_high > n {
            return Err(ProjectionError::InvalidParameter {
                name: "sparsity",
                expected: "a range 1 <= s_low <= s_high <= n_nodes",
                value: format!("({s_low}, {s_high}) with n_nodes = {n}"),
            });
        }
        check_finite("w", w).map_err(|e| match e {
            InputError::NotFinite { index, value, .. } => ProjectionError::NonFiniteWeight {
                index,
                value: f64::from_bits(value),
            },
            other => other.into(),
        })?;
        for (p, &x) in self.prizes.iter_mut().zip(w) {
            *p = x * x;
        }
        if let Some(index) = self.prizes.iter().position(|p| !p.is_finite()) {
            return Err(InputError::EntryOutOfRange {
                arg: "w",
                index,
                value: w[index].to_bits(),
                range: "small enough that its square is finite",
            }
            .into());
        }
        Ok(())
    }

    /// The first `λ_h`: twice the `s_high`-th smallest prize (graph-da's C rule), else twice
    /// the `s_low`-th, else twice the largest.
    fn start_lambda(&mut self, s_low: usize, s_high: usize) -> f64 {
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
        lambda_h
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
        params: &ProjectionValidParams,
    ) -> Result<Projection, ProjectionError> {
        let mut out = Projection::default();
        self.project_into(w, s_low, s_high, params, &mut out)?;
        Ok(out)
    }
}

/// Settings of GraphDA/GraphStoIHT's head and tail projections (a builder; see
/// [`Check::check`]).
///
/// # Example
/// ```
/// use graphsparse_pcst::Check;
/// use graphsparse_pcst::projection::{Fallback, GraphProjectionParams};
/// let p = GraphProjectionParams::new(5).head_sparsity(Some(10)).fallback(Fallback::Closest);
/// let valid = p.check()?;
/// assert_eq!((valid.sparsity(), valid.head_sparsity()), (5, Some(10)));
/// let err = GraphProjectionParams::new(5).ratio(-1.0).check().unwrap_err();
/// assert_eq!(err.to_string(), "ratio must be finite and >= 0, got -1");
/// # Ok::<(), graphsparse_pcst::projection::ProjectionError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GraphProjectionParams {
    sparsity: usize,
    head_sparsity: Option<usize>,
    ratio: f64,
    search: ProjectionParams,
}

impl GraphProjectionParams {
    /// The published settings for sparsity `s`: head `p/2`, `ω = 0.1`, `g = 1`, 20 runs.
    ///
    /// # Complexity
    /// O(1).
    pub const fn new(sparsity: usize) -> Self {
        Self {
            sparsity,
            head_sparsity: None,
            ratio: 0.1,
            search: ProjectionParams::new(),
        }
    }

    graphsparse_base::setters! {
        /// Tail sparsity `s` (the model's sparsity; `>= 1`).
        sparsity: usize => sparsity,
        /// Head sparsity; `None` means `p / 2` (the published setting).
        head_sparsity: Option<usize> => head_sparsity,
        /// Tolerance ratio `ω >= 0`: ranges are `(s, ⌊s(1+ω)⌋)` (published: 0.1).
        ratio: f64 => ratio,
        /// Trees, PCST run budget, fallback and tolerance of each binary search.
        search: ProjectionParams => search,
        /// Number of trees `g` of each search.
        num_clusters: usize => search.num_clusters,
        /// PCST runs per search.
        max_iter: usize => search.max_iter,
        /// What a search returns when its range was not hit.
        fallback: Fallback => search.fallback,
        /// PCST merge tolerance.
        eps: f64 => search.eps,
        /// Where each search starts.
        lambda_start: LambdaStart => search.lambda_start,
    }
}

impl Check for GraphProjectionParams {
    type Checked = GraphProjectionValidParams;
    type Error = ProjectionError;

    /// Checks the rules that do not depend on the graph.
    ///
    /// # Errors
    /// [`ProjectionError::Input`] naming the first parameter out of range: `sparsity`,
    /// `head_sparsity`, `max_iter` and `num_clusters` at least 1; `ratio` and `eps` finite and
    /// `>= 0`.
    fn check(self) -> Result<GraphProjectionValidParams, ProjectionError> {
        check_at_least_one("sparsity", self.sparsity)?;
        if let Some(hs) = self.head_sparsity {
            check_at_least_one("head_sparsity", hs)?;
        }
        check_nonnegative("ratio", self.ratio)?;
        Ok(GraphProjectionValidParams {
            sparsity: self.sparsity,
            head_sparsity: self.head_sparsity,
            ratio: self.ratio,
            search: self.search.check()?,
        })
    }
}

/// Checked [`GraphProjectionParams`].
#[derive(Debug, Clone, PartialEq)]
pub struct GraphProjectionValidParams {
    sparsity: usize,
    head_sparsity: Option<usize>,
    ratio: f64,
    search: ProjectionValidParams,
}

impl GraphProjectionValidParams {
    /// Tail sparsity `s`.
    pub const fn sparsity(&self) -> usize {
        self.sparsity
    }
    /// Head sparsity (`None`: `p / 2`).
    pub const fn head_sparsity(&self) -> Option<usize> {
        self.head_sparsity
    }
    /// Tolerance ratio `ω`.
    pub const fn ratio(&self) -> f64 {
        self.ratio
    }
    /// The binary-search settings.
    pub const fn search(&self) -> &ProjectionValidParams {
        &self.search
    }
    /// Back to the builder.
    pub fn to_params(&self) -> GraphProjectionParams {
        GraphProjectionParams {
            sparsity: self.sparsity,
            head_sparsity: self.head_sparsity,
            ratio: self.ratio,
            search: self.search.params,
        }
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
    params: ProjectionValidParams,
    last_head: Projection,
    last_tail: Projection,
    /// [`LambdaStart::Previous`]: the head searches' own warm states (the projector's are the
    /// tail's), so that a head and a tail range that happen to coincide do not share one.
    head_warm: Vec<(usize, usize, f64, f64)>,
}

impl GraphProjection {
    /// The head/tail pair on `graph` (`p` nodes, one per feature).
    ///
    /// # Errors
    /// As [`GraphProjector::new`], and [`ProjectionError::InvalidParameter`] for a sparsity
    /// or head sparsity above `p`.
    ///
    /// # Complexity
    /// As [`GraphProjector::new`]; each projection is a binary search of at most `max_iter`
    /// PCST-GW runs, O(max_iter · (n + m) log n).
    pub fn new(
        graph: WeightedGraph,
        params: &GraphProjectionValidParams,
    ) -> Result<Self, ProjectionError> {
        let projector = GraphProjector::new(graph)?;
        let p = projector.n_nodes();
        if params.sparsity > p {
            return Err(invalid("sparsity", "in 1..=n_features", params.sparsity));
        }
        let hs = params.head_sparsity.unwrap_or_else(|| head_sparsity(p));
        if hs > p {
            return Err(invalid("head_sparsity", "in 1..=n_features", hs));
        }
        Ok(Self {
            projector,
            head_range: sparsity_range(hs, params.ratio, p),
            tail_range: sparsity_range(params.sparsity, params.ratio, p),
            params: params.search.clone(),
            last_head: Projection::default(),
            last_tail: Projection::default(),
            head_warm: Vec::new(),
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
    fn head_into(&mut self, v: &[f64], support: &mut Vec<usize>) -> Result<(), ProjectionError> {
        let (lo, hi) = self.head_range;
        std::mem::swap(&mut self.projector.warm, &mut self.head_warm);
        let done = self
            .projector
            .project_into(v, lo, hi, &self.params, &mut self.last_head);
        std::mem::swap(&mut self.projector.warm, &mut self.head_warm);
        done?;
        support.clone_from(&self.last_head.nodes);
        Ok(())
    }
    fn tail_into(&mut self, v: &[f64], support: &mut Vec<usize>) -> Result<(), ProjectionError> {
        let (lo, hi) = self.tail_range;
        self.projector
            .project_into(v, lo, hi, &self.params, &mut self.last_tail)?;
        support.clone_from(&self.last_tail.nodes);
        Ok(())
    }
}
