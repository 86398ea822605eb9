//! L1 / elastic-net learning over all subgraph features by block coordinate gradient descent
//! (Takigawa & Mamitsuka, Figure 7).
//!
//! Problem: `min over (β0, β)  Σ_i L(y_i, μ_i) / n + λ1 ||β||_1 + λ2/2 ||β||²` with
//! `μ_i = β0 + Σ_j β_j I(x_j ⊆ g_i)`, over every connected subgraph `x_j` of the data.
//!
//! Notation map (paper → code): `L'_i/n`, `L''_i/n` → `g1[i]`, `g2[i]`; `H_jj` → `h`;
//! `b_j` → `b`; `T(θ)_j` → `t`; `d_j` → `d`; `\overline{L}_j`, `\underline{L}_j` → `lup`, `llo`;
//! `\overline{B}_j`, `\underline{B}_j` → `bup`, `blo`; the dictionary `h[j]` of nonzero features
//! below `x_j` → the candidate stack `cand` (depth-first dictionary passing: a feature is below
//! a node exactly when the node's DFS code is a prefix of the feature's code).
//!
//! Each iteration traverses the gSpan tree once. At each node it computes `T_j` and prunes the
//! subtree when `max(Lup + Bup, −Llo − Blo) ≤ λ1` (Theorem 11): then `T_k = 0` for every `k` below.
//! A node whose graph-id set (column) was already seen this iteration is the same feature: it
//! is counted as skipped and recorded as an equivalent pattern, and the traversal continues
//! below it. Columns are compared exactly (hash map keyed by the sorted ids).

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::time::{Duration, Instant};

use graphsparse_base::{
    Budget, Check, Meter, Parallel, RunControl, Truncation, check_finite, check_len,
    check_nonnegative, check_positive, check_range,
};
use graphsparse_graph::GraphDatabase;
use graphsparse_gspan::{
    DfsCode, MinerValidParams, Node, ParallelVisitor, Visit, Visitor, mine_with_meter,
};
use rustc_hash::FxBuildHasher;

use crate::cache::{CachedSearch, DEFAULT_CACHE_BYTES, Traversal, TreeCache, search_cached};
use crate::dual::{DualPoint, MaxCorrelation, SPP_MARGIN, balance, dual_point, null_intercept};
use crate::error::{Result, SubgraphError, feature_miner};
use crate::feature::Feature;
use crate::loss::Loss;

type FxMap<K, V> = HashMap<K, V, FxBuildHasher>;

/// Unchecked BCGD parameters (a builder); [`Check::check`] validates them.
///
/// Defaults follow the paper's experiments: `λ2 = 0`, `tol = 1e-3`, `max_iter = 1000`,
/// `min_support = 1`, unbounded pattern size, pruning on, serial traversal.
#[derive(Debug, Clone, PartialEq)]
pub struct BcgdParams {
    lambda1: f64,
    lambda2: f64,
    tol: f64,
    max_iter: usize,
    min_support: usize,
    max_size: Option<usize>,
    budget: Budget,
    prune: bool,
    parallel: Parallel,
    cache: bool,
    cache_bytes: usize,
    screening: bool,
    record_trace: bool,
}

/// Validated BCGD parameters, from [`Check::check`] on [`BcgdParams`].
#[derive(Debug, Clone, PartialEq)]
pub struct BcgdValidParams(BcgdParams);

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
    fn tree_cache(&self) -> Option<TreeCache> {
        let p = &self.0;
        p.cache.then(|| TreeCache::new(p.max_size, p.cache_bytes))
    }
}

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
    /// The duality gap `P − D ≥ 0` at the iterate searched (before the iteration's update).
    pub duality_gap: f64,
    /// Wall time of the iteration in seconds.
    pub seconds: f64,
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
    /// One entry per search (the updates, then the final convergence check when it happened).
    pub history: Vec<IterationStats>,
    /// The coefficients after each update, when asked for.
    pub trace: Vec<TraceStep>,
    /// The searches that preceded this fit when it screened from a cold start (see
    /// [`BcgdParams::screening`]): the `λ_max` search, then every search of the internal path
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
    warm_dual: Option<WarmDual>,
}

/// What a warm start needs to screen: `U` at the final iterate and what it was computed over.
#[derive(Debug, Clone, Copy, PartialEq)]
struct WarmDual {
    bound: f64,
    n: usize,
    min_support: usize,
    max_size: Option<usize>,
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

fn clip_h(h: f64) -> f64 {
    h.clamp(1e-10, 1e10)
}

/// `T_j` of Lemma 10: the minimiser of the one-dimensional quadratic model with the L1 term.
fn soft_step(b: f64, lambda1: f64, h: f64) -> f64 {
    if b < -lambda1 {
        -(b + lambda1) / h
    } else if b > lambda1 {
        -(b - lambda1) / h
    } else {
        0.0
    }
}

/// Read-only data of one search.
struct Ctx<'a> {
    g1: &'a [f64],
    g2: &'a [f64],
    lambda1: f64,
    lambda2: f64,
    prune: bool,
    /// `(a₊, a₋)` of `g1` (the dual bound `U`).
    balance: (f64, f64),
    /// `(θ, r)` of the safe-pruning sphere.
    sphere: Option<(&'a [f64], f64)>,
    active_codes: Vec<&'a DfsCode>,
    active_c: Vec<f64>,
    active_beta: Vec<f64>,
    by_col: FxMap<&'a [u32], usize>,
}

/// A column met by the search whose `T_j ≠ 0` or `β_j ≠ 0`.
struct Found {
    ids: Vec<u32>,
    code: DfsCode,
    equivalents: Vec<DfsCode>,
    t: f64,
    h: f64,
    sum_g1: f64,
    active: Option<usize>,
}

pub(crate) struct Search<'c, 'a> {
    ctx: &'c Ctx<'a>,
    cand: Vec<u32>,
    marks: Vec<usize>,
    seen: FxMap<Box<[u32]>, Option<u32>>,
    found: Vec<Found>,
    pub(crate) visited: u64,
    skipped: u64,
    pruned_bound: u64,
    pruned_spp: u64,
    /// `U`: a bound on `|x_jᵀθ̃|` over every zero-coefficient pattern met or pruned.
    dual_bound: f64,
}

impl<'c, 'a> Search<'c, 'a> {
    fn new(ctx: &'c Ctx<'a>, cand: Vec<u32>) -> Self {
        Self {
            ctx,
            cand,
            marks: vec![0],
            seen: FxMap::default(),
            found: Vec::new(),
            visited: 0,
            skipped: 0,
            pruned_bound: 0,
            pruned_spp: 0,
            dual_bound: 0.0,
        }
    }
}

impl Search<'_, '_> {
    /// Dictionary passing: the nonzero features below the node (code prefix match).
    pub(crate) fn enter(&mut self, code: &DfsCode) {
        let depth = code.len();
        let start = *self.marks.last().expect("invariant: marks never empty");
        let new_start = self.cand.len();
        if depth >= 1 {
            let e = code.edges()[depth - 1];
            for idx in start..new_start {
                let k = self.cand[idx];
                let fc = self.ctx.active_codes[k as usize].edges();
                if fc.len() >= depth && fc[depth - 1] == e {
                    self.cand.push(k);
                }
            }
        }
        self.marks.push(new_start);
    }

    pub(crate) fn leave(&mut self) {
        let start = self.marks.pop().expect("invariant: enter pushed a mark");
        self.cand.truncate(start);
    }

    /// `T_j` of the node's column (first sight only) and the Theorem 11 pruning test.
    pub(crate) fn evaluate(&mut self, code: &DfsCode, ids: &[u32]) -> Visit {
        let ctx = self.ctx;
        self.visited += 1;
        let new_start = *self.marks.last().expect("invariant: marks never empty");
        let (mut bup, mut blo) = (0.0f64, 0.0f64);
        for &k in &self.cand[new_start..] {
            let c = ctx.active_c[k as usize];
            bup = bup.max(c);
            blo = blo.min(c);
        }
        let (mut lup, mut llo, mut s1, mut s2) = (0.0, 0.0, 0.0, 0.0);
        for &i in ids {
            let a = ctx.g1[i as usize];
            if a > 0.0 {
                lup += a;
            } else {
                llo += a;
            }
            s1 += a;
            s2 += ctx.g2[i as usize];
        }
        let by_bound = ctx.prune && (lup + bup).max(-llo - blo) <= ctx.lambda1;
        let by_spp = ctx.sphere.is_some_and(|(theta, r)| {
            let (mut tp, mut tn) = (0.0f64, 0.0f64);
            for &i in ids {
                let t = theta[i as usize];
                if t > 0.0 {
                    tp += t;
                } else {
                    tn -= t;
                }
            }
            tp.max(tn) + r * (ids.len() as f64).sqrt() < ctx.lambda1 * (1.0 - SPP_MARGIN)
        });
        self.pruned_bound += u64::from(by_bound);
        self.pruned_spp += u64::from(by_spp);
        let (ap, an) = ctx.balance;
        if by_bound || by_spp {
            self.dual_bound = self.dual_bound.max((ap * lup).max(-an * llo));
        }
        match self.seen.get(ids) {
            Some(slot) => {
                self.skipped += 1;
                if let Some(f) = *slot {
                    self.found[f as usize].equivalents.push(code.clone());
                }
            }
            None => {
                let h = clip_h(s2 + ctx.lambda2);
                let active = ctx.by_col.get(ids).copied();
                if active.is_none() {
                    self.dual_bound = self.dual_bound.max((ap * lup + an * llo).abs());
                }
                let beta = active.map_or(0.0, |k| ctx.active_beta[k]);
                let b = s1 + (ctx.lambda2 - h) * beta;
                let t = soft_step(b, ctx.lambda1, h);
                let slot = if t != 0.0 || active.is_some() {
                    self.found.push(Found {
                        ids: ids.to_vec(),
                        code: code.clone(),
                        equivalents: Vec::new(),
                        t,
                        h,
                        sum_g1: s1,
                        active,
                    });
                    Some((self.found.len() - 1) as u32)
                } else {
                    None
                };
                self.seen.insert(ids.into(), slot);
            }
        }
        if by_bound || by_spp {
            Visit::Prune
        } else {
            Visit::Continue
        }
    }
}

impl CachedSearch for Search<'_, '_> {
    fn enter(&mut self, code: &DfsCode) {
        Search::enter(self, code);
    }
    fn evaluate(&mut self, code: &DfsCode, ids: &[u32]) -> Visit {
        Search::evaluate(self, code, ids)
    }
    fn leave(&mut self) {
        Search::leave(self);
    }
}

impl Visitor for Search<'_, '_> {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        self.enter(node.code());
        self.evaluate(node.code(), node.graph_ids())
    }

    fn post(&mut self, _node: &Node<'_>) {
        self.leave();
    }
}

impl ParallelVisitor for Search<'_, '_> {
    fn fork(&self) -> Self {
        let start = *self.marks.last().expect("invariant: marks never empty");
        Self::new(self.ctx, self.cand[start..].to_vec())
    }

    fn join(&mut self, child: Self) {
        self.visited += child.visited;
        self.skipped += child.skipped;
        self.pruned_bound += child.pruned_bound;
        self.pruned_spp += child.pruned_spp;
        self.dual_bound = self.dual_bound.max(child.dual_bound);
        // the child's subtree comes after everything this visitor has seen (DFS order)
        let mut target: Vec<Option<u32>> = vec![None; child.found.len()];
        for (key, slot) in child.seen {
            match self.seen.entry(key) {
                Entry::Occupied(o) => {
                    self.skipped += 1;
                    if let (Some(cf), Some(pf)) = (slot, *o.get()) {
                        target[cf as usize] = Some(pf);
                    }
                }
                Entry::Vacant(v) => {
                    v.insert(None);
                }
            }
        }
        for (cf, f) in child.found.into_iter().enumerate() {
            if let Some(pf) = target[cf] {
                let dst = &mut self.found[pf as usize].equivalents;
                dst.push(f.code);
                dst.extend(f.equivalents);
            } else {
                let idx = self.found.len() as u32;
                *self
                    .seen
                    .get_mut(f.ids.as_slice())
                    .expect("invariant: inserted above") = Some(idx);
                self.found.push(f);
            }
        }
    }
}

/// One entry of the direction: a feature with `T_j ≠ 0` or `β_j ≠ 0`.
struct DirEntry {
    ids: Vec<u32>,
    code: DfsCode,
    equivalents: Vec<DfsCode>,
    beta: f64,
    grad: f64,
    h: f64,
    d: f64,
}

fn mean_loss<L: Loss + ?Sized>(loss: &L, y: &[f64], mu: &[f64]) -> f64 {
    let s: f64 = y.iter().zip(mu).map(|(&yi, &m)| loss.value(yi, m)).sum();
    s / y.len() as f64
}

fn penalty(lambda1: f64, lambda2: f64, betas: impl Iterator<Item = f64>) -> f64 {
    let (mut l1, mut l2) = (0.0, 0.0);
    for b in betas {
        l1 += b.abs();
        l2 += b * b;
    }
    lambda1 * l1 + 0.5 * lambda2 * l2
}

/// The objective `Σ_i L(y_i, μ_i)/n + λ1 ||β||_1 + λ2/2 ||β||²` of a model on its training data.
///
/// # Complexity
/// O(n + Σ_j |graphs of feature j|).
pub fn objective<L: Loss + ?Sized>(
    loss: &L,
    y: &[f64],
    fit: &BcgdFit,
    lambda1: f64,
    lambda2: f64,
) -> f64 {
    let mu = fit.decision_function(y.len());
    mean_loss(loss, y, &mu) + penalty(lambda1, lambda2, fit.features.iter().map(|f| f.coef))
}

fn merge_codes(mut codes: Vec<DfsCode>) -> (DfsCode, Vec<DfsCode>) {
    codes.sort();
    codes.dedup();
    let rep = codes.remove(0);
    (rep, codes)
}

/// Fits the model by BCGD, from zero or warm-started from `warm`.
///
/// # Arguments
/// * `db`, `y`: the graphs and one response per graph (`y ∈ {0, 1}` for [`crate::Logistic`]).
/// * `loss`: the loss (mean over samples).
/// * `params`: see [`BcgdParams`]; its budget bounds the whole fit.
/// * `warm`: a previous fit on the same data to start from (a regularisation path).
/// * `ctl`: the caller's handle; [`RunControl::cancel`] stops the fit, which returns what it
///   has with [`Truncation::Cancelled`]. Progress: nodes visited, iterations, the objective.
///
/// # Returns
/// The last complete iterate, with its history and why it stopped.
///
/// # Errors
/// [`SubgraphError::Input`] when `y` does not have one finite value per graph,
/// [`SubgraphError::InvalidResponse`] when there are no graphs; gSpan errors from the
/// traversal.
///
/// # Complexity
/// Each iteration is one pruned traversal of the gSpan tree plus `O(Σ_j |1(x_j)|)` over the
/// selected features for the line search.
///
/// # Example
/// ```
/// use graphsparse_base::RunControl;
/// use graphsparse_graph::parse_gspan;
/// use graphsparse_subgraph::{BcgdParams, Check, Squared, fit_bcgd};
/// let text = "t # 0\nv 0 0\nv 1 1\ne 0 1 0\nt # 1\nv 0 0\nv 1 0\ne 0 1 0\n";
/// let db = parse_gspan(text, "<doc>").unwrap().db;
/// let params = BcgdParams::new(0.01).check().unwrap();
/// let fit = fit_bcgd(&db, &[1.0, 0.0], &Squared, &params, None, &RunControl::new()).unwrap();
/// assert!(fit.converged);
/// assert!(fit.features.iter().all(|f| f.coef != 0.0));
/// ```
pub fn fit_bcgd<L: Loss + ?Sized>(
    db: &GraphDatabase,
    y: &[f64],
    loss: &L,
    params: &BcgdValidParams,
    warm: Option<&BcgdFit>,
    ctl: &RunControl,
) -> Result<BcgdFit> {
    let env = FitEnv::start(db, y, loss, params, ctl);
    fit_from(&env, params, warm, params.tree_cache().as_mut())
}

/// What a fit and the fits it runs inside (the internal path) share: the graphs and
/// responses, the loss, the caller's handle and the budget meter they claim their nodes from.
struct FitEnv<'a, L: ?Sized> {
    db: &'a GraphDatabase,
    y: &'a [f64],
    loss: &'a L,
    ctl: &'a RunControl,
    meter: Meter<'a>,
}

impl<'a, L: ?Sized> FitEnv<'a, L> {
    /// Starts the budget of `params` (its clock starts now).
    fn start(
        db: &'a GraphDatabase,
        y: &'a [f64],
        loss: &'a L,
        params: &BcgdValidParams,
        ctl: &'a RunControl,
    ) -> Self {
        let meter = params.0.budget.start(ctl);
        Self {
            db,
            y,
            loss,
            ctl,
            meter,
        }
    }
}

/// One fit: checks the responses, then warm-starts from `warm` or, without one, runs a cold fit.
fn fit_from<L: Loss + ?Sized>(
    env: &FitEnv<'_, L>,
    params: &BcgdValidParams,
    warm: Option<&BcgdFit>,
    cache: Option<&mut TreeCache>,
) -> Result<BcgdFit> {
    check_response(env.y, env.db.len())?;
    match warm {
        Some(w) => fit_with_cache(env, params, Some(w), cache),
        None => fit_cold(env, params, cache),
    }
}

fn check_response(y: &[f64], n: usize) -> Result<()> {
    check_len("y", y.len(), n)?;
    if n == 0 {
        return Err(SubgraphError::InvalidResponse("no graphs".into()));
    }
    check_finite("y", y)?;
    Ok(())
}

/// The iterate and its per-graph quantities: `μ`, `L'/n` and `L''/n` at `μ`.
struct Iterate {
    intercept: f64,
    active: Vec<Feature>,
    mu: Vec<f64>,
    g1: Vec<f64>,
    g2: Vec<f64>,
}

impl Iterate {
    fn new(n: usize, warm: Option<&BcgdFit>) -> Self {
        let (intercept, active) = match warm {
            Some(w) => (w.intercept, w.features.clone()),
            None => (0.0, Vec::new()),
        };
        Self {
            intercept,
            active,
            mu: vec![0.0; n],
            g1: vec![0.0; n],
            g2: vec![0.0; n],
        }
    }

    /// `μ = β0 + Σ_j β_j 1(x_j)`.
    fn refresh_mu(&mut self) {
        self.mu.fill(self.intercept);
        for f in &self.active {
            for &i in &f.graph_ids {
                self.mu[i as usize] += f.coef;
            }
        }
    }

    /// Refreshes `μ` and the derivatives; returns the objective at the iterate.
    fn refresh<L: Loss + ?Sized>(
        &mut self,
        loss: &L,
        y: &[f64],
        lambda1: f64,
        lambda2: f64,
    ) -> f64 {
        self.refresh_mu();
        let nf = y.len() as f64;
        for (((g1, g2), &yi), &mu) in self.g1.iter_mut().zip(&mut self.g2).zip(y).zip(&self.mu) {
            *g1 = loss.d1(yi, mu) / nf;
            *g2 = loss.d2(yi, mu) / nf;
        }
        self.objective(loss, y, lambda1, lambda2)
    }

    fn objective<L: Loss + ?Sized>(&self, loss: &L, y: &[f64], lambda1: f64, lambda2: f64) -> f64 {
        mean_loss(loss, y, &self.mu) + penalty(lambda1, lambda2, self.active.iter().map(|f| f.coef))
    }

    /// `H_kk` of the nonzero features.
    fn active_h(&self, lambda2: f64) -> Vec<f64> {
        self.active
            .iter()
            .map(|f| {
                clip_h(
                    f.graph_ids
                        .iter()
                        .map(|&i| self.g2[i as usize])
                        .sum::<f64>()
                        + lambda2,
                )
            })
            .collect()
    }

    /// The read-only data of one search: derivatives and the nonzero features (for `Bup`/`Blo`).
    fn search_context<'a>(
        &'a self,
        p: &BcgdParams,
        active_h: &[f64],
        sphere: Option<&'a DualPoint>,
    ) -> Ctx<'a> {
        let active = &self.active;
        Ctx {
            g1: &self.g1,
            g2: &self.g2,
            lambda1: p.lambda1,
            lambda2: p.lambda2,
            prune: p.prune,
            balance: balance(&self.g1),
            sphere: sphere.map(|d| (d.theta.as_slice(), d.radius)),
            active_codes: active.iter().map(|f| &f.code).collect(),
            active_c: active
                .iter()
                .zip(active_h)
                .map(|(f, &h)| (p.lambda2 - h) * f.coef)
                .collect(),
            active_beta: active.iter().map(|f| f.coef).collect(),
            by_col: active
                .iter()
                .enumerate()
                .map(|(k, f)| (f.graph_ids.as_slice(), k))
                .collect(),
        }
    }
}

/// One search of the tree: through the cache when there is one, else a plain traversal (in
/// parallel under the policy of `miner`); every node is claimed from `meter`.
fn run_search(
    cache: Option<&mut TreeCache>,
    db: &GraphDatabase,
    miner: &MinerValidParams,
    search: &mut Search<'_, '_>,
    meter: &Meter<'_>,
) -> Result<Option<Truncation>> {
    Ok(match cache {
        // only the first search (which fills the cache) runs in parallel: a BCGD fork/join
        // merges what each fork saw, so a parallel walk of the cached tree costs more CPU than
        // it saves (CPDB, λ1 = 0.005: 2.0 s against 1.3 s on 2 threads)
        Some(c) if !c.is_unbuilt() && miner.parallel().enabled() => {
            let serial = miner
                .clone()
                .into_params()
                .parallel(Parallel::Serial)
                .check()?;
            search_cached(c, &Traversal::new(db, &serial, meter), search)?
        }
        Some(c) => search_cached(c, &Traversal::new(db, miner, meter), search)?,
        None => mine_with_meter(db, miner, search, meter)?.truncation,
    })
}

/// The direction over `{T_j ≠ 0} ∪ {β_j ≠ 0}` and the intercept's `d0`, `h0`.
fn direction(
    found: Vec<Found>,
    it: &Iterate,
    active_h: &[f64],
    lambda2: f64,
) -> (Vec<DirEntry>, f64, f64) {
    let active = &it.active;
    let mut covered = vec![false; active.len()];
    let mut dir: Vec<DirEntry> = Vec::with_capacity(found.len() + active.len());
    for f in found {
        let beta = f.active.map_or(0.0, |k| {
            covered[k] = true;
            active[k].coef
        });
        let mut codes = vec![f.code];
        codes.extend(f.equivalents);
        if let Some(k) = f.active {
            codes.push(active[k].code.clone());
            codes.extend(active[k].equivalents.iter().cloned());
        }
        let (code, equivalents) = merge_codes(codes);
        dir.push(DirEntry {
            ids: f.ids,
            code,
            equivalents,
            beta,
            grad: f.sum_g1 + lambda2 * beta,
            h: f.h,
            d: f.t - beta,
        });
    }
    for (k, f) in active.iter().enumerate() {
        if !covered[k] {
            // pruned: Theorem 11 guarantees T_k = 0
            let s1: f64 = f.graph_ids.iter().map(|&i| it.g1[i as usize]).sum();
            dir.push(DirEntry {
                ids: f.graph_ids.clone(),
                code: f.code.clone(),
                equivalents: f.equivalents.clone(),
                beta: f.coef,
                grad: s1 + lambda2 * f.coef,
                h: active_h[k],
                d: -f.coef,
            });
        }
    }
    let h0 = clip_h(it.g2.iter().sum());
    let d0 = -it.g1.iter().sum::<f64>() / h0;
    (dir, d0, h0)
}

/// Gauss–Southwell-r: keeps the coordinates whose step is within `V` of the largest.
fn gauss_southwell_r(dir: &mut [DirEntry], d0: &mut f64) {
    const V: f64 = 0.9;
    let dmax = dir.iter().map(|e| e.d.abs()).fold(d0.abs(), f64::max);
    for e in dir.iter_mut() {
        if e.d.abs() <= V * dmax {
            e.d = 0.0;
        }
    }
    if d0.abs() <= V * dmax {
        *d0 = 0.0;
    }
}

/// Buffers of the Armijo line search, allocated once per fit.
struct LineSearch {
    dmu: Vec<f64>,
    trial: Vec<f64>,
    alpha_init: f64,
}

impl LineSearch {
    const SIGMA: f64 = 0.1;
    const SHRINK: f64 = 0.5;

    /// The Armijo step along `(d0, dir)` from the iterate whose objective is `f_old`.
    #[allow(clippy::too_many_arguments)]
    fn step<L: Loss + ?Sized>(
        &mut self,
        loss: &L,
        y: &[f64],
        it: &Iterate,
        dir: &[DirEntry],
        d0: f64,
        f_old: f64,
        lambda1: f64,
        lambda2: f64,
    ) -> f64 {
        let sum_g1: f64 = it.g1.iter().sum();
        let mut delta = sum_g1 * d0;
        for e in dir {
            delta += e.grad * e.d + lambda1 * ((e.beta + e.d).abs() - e.beta.abs());
        }
        self.dmu.fill(d0);
        for e in dir {
            if e.d != 0.0 {
                for &i in &e.ids {
                    self.dmu[i as usize] += e.d;
                }
            }
        }
        let mut alpha = self.alpha_init;
        for _ in 0..100 {
            for ((t, &m), &dm) in self.trial.iter_mut().zip(&it.mu).zip(&self.dmu) {
                *t = m + alpha * dm;
            }
            let f_new = mean_loss(loss, y, &self.trial)
                + penalty(lambda1, lambda2, dir.iter().map(|e| e.beta + alpha * e.d));
            if f_new <= f_old + alpha * Self::SIGMA * delta {
                break;
            }
            alpha *= Self::SHRINK;
        }
        self.alpha_init = (alpha / Self::SHRINK.powi(5)).min(1.0);
        alpha
    }
}

/// Moves the iterate by `alpha` along the direction; zero coefficients leave the model.
fn apply_step(it: &mut Iterate, dir: Vec<DirEntry>, d0: f64, alpha: f64) {
    it.intercept += alpha * d0;
    it.active = dir
        .into_iter()
        .filter_map(|e| {
            let coef = e.beta + alpha * e.d;
            (coef != 0.0).then_some(Feature {
                code: e.code,
                graph_ids: e.ids,
                coef,
                equivalents: e.equivalents,
            })
        })
        .collect();
    it.active.sort_by(|a, b| a.code.cmp(&b.code));
}

/// The dual point of the iterate just searched, from the search's bound `U`.
fn iterate_dual<L: Loss + ?Sized>(
    loss: &L,
    y: &[f64],
    it: &Iterate,
    p: &BcgdParams,
    bound: f64,
) -> DualPoint {
    dual_point(
        loss, y, &it.mu, &it.g1, &it.active, p.lambda1, p.lambda2, bound,
    )
}

/// A fit from zero or warm-started from `warm`, on responses [`fit_from`] checked.
fn fit_with_cache<L: Loss + ?Sized>(
    env: &FitEnv<'_, L>,
    params: &BcgdValidParams,
    warm: Option<&BcgdFit>,
    mut cache: Option<&mut TreeCache>,
) -> Result<BcgdFit> {
    let FitEnv {
        db,
        y,
        loss,
        ctl,
        ref meter,
    } = *env;
    let p = &params.0;
    let n = db.len();
    let (lambda1, lambda2) = (p.lambda1, p.lambda2);
    let miner = feature_miner(p.min_support, p.max_size, p.parallel)?;
    let mut it = Iterate::new(n, warm);
    let mut line = LineSearch {
        dmu: vec![0.0; n],
        trial: vec![0.0; n],
        alpha_init: 1.0,
    };
    let screening = p.screening && loss.smoothness().is_some();
    let mut sphere: Option<DualPoint> = None;
    if screening {
        let usable = warm
            .and_then(|w| w.warm_dual)
            .filter(|d| d.n == n && d.min_support == p.min_support && d.max_size == p.max_size);
        if let Some(d) = usable {
            it.refresh(loss, y, lambda1, lambda2);
            sphere = Some(iterate_dual(loss, y, &it, p, d.bound));
        }
    }
    let (mut history, mut trace) = (Vec::new(), Vec::new());
    let (mut converged, mut truncation, mut n_iter) = (false, None, 0usize);
    let (mut duality_gap, mut warm_dual) = (f64::INFINITY, None);
    loop {
        let it_start = Instant::now();
        if meter.poll() {
            truncation = meter.truncation();
            break;
        }
        let f_old = it.refresh(loss, y, lambda1, lambda2);
        let active_h = it.active_h(lambda2);
        let ctx = it.search_context(p, &active_h, sphere.as_ref());
        let mut search = Search::new(&ctx, (0..it.active.len() as u32).collect());
        let cut = run_search(cache.as_deref_mut(), db, &miner, &mut search, meter)?;
        if cut.is_some() {
            truncation = cut;
            break;
        }
        let (visited, skipped) = (search.visited, search.skipped);
        let (pruned_bound, pruned_spp, bound) =
            (search.pruned_bound, search.pruned_spp, search.dual_bound);
        let (mut dir, mut d0, h0) = direction(search.found, &it, &active_h, lambda2);
        drop(ctx);
        let dual = iterate_dual(loss, y, &it, p, bound);
        let gap = dual.gap;
        duality_gap = gap;
        warm_dual = Some(WarmDual {
            bound,
            n,
            min_support: p.min_support,
            max_size: p.max_size,
        });
        if screening && sphere.as_ref().is_none_or(|s| dual.radius < s.radius) {
            sphere = Some(dual);
        }
        let stats = |objective: f64, nonzeros: usize| IterationStats {
            objective,
            nonzeros,
            visited,
            skipped,
            pruned_bound,
            pruned_spp,
            duality_gap: gap,
            seconds: it_start.elapsed().as_secs_f64(),
        };
        let opt = dir
            .iter()
            .map(|e| (e.h * e.d).abs())
            .fold((h0 * d0).abs(), f64::max);
        if opt <= p.tol {
            converged = true;
            history.push(stats(f_old, it.active.len()));
            break;
        }
        if n_iter == p.max_iter {
            break;
        }
        gauss_southwell_r(&mut dir, &mut d0);
        let alpha = line.step(loss, y, &it, &dir, d0, f_old, lambda1, lambda2);
        apply_step(&mut it, dir, d0, alpha);
        (duality_gap, warm_dual) = (f64::INFINITY, None);
        n_iter += 1;
        it.refresh_mu();
        let objective = it.objective(loss, y, lambda1, lambda2);
        if p.record_trace {
            trace.push(TraceStep {
                intercept: it.intercept,
                coefs: it
                    .active
                    .iter()
                    .map(|f| (f.graph_ids.clone(), f.coef))
                    .collect(),
            });
        }
        history.push(stats(objective, it.active.len()));
        ctl.progress().add_iteration();
        ctl.progress().set_value(objective);
    }
    Ok(BcgdFit {
        intercept: it.intercept,
        features: it.active,
        n_iter,
        converged,
        truncation,
        history,
        trace,
        path_history: Vec::new(),
        lambda_max: None,
        duality_gap,
        warm_dual,
    })
}

/// Ratio of consecutive `λ1` on the internal path of a single screened fit.
const INTERNAL_PATH_RATIO: f64 = 0.5;

/// A fit without a warm start. With screening, the null model's dual point and `λ_max`
/// (one branch-and-bound search) start an internal path `λ_max · ratio^k` down to `λ1` when
/// `λ1 < λ_max · ratio`; the returned fit keeps their searches in `path_history`. The
/// responses are the ones [`fit_from`] checked.
fn fit_cold<L: Loss + ?Sized>(
    env: &FitEnv<'_, L>,
    params: &BcgdValidParams,
    mut cache: Option<&mut TreeCache>,
) -> Result<BcgdFit> {
    let p = &params.0;
    let n = env.db.len();
    let null = (p.screening && env.loss.smoothness().is_some())
        .then(|| null_intercept(env.loss, env.y))
        .flatten();
    let Some(b0) = null else {
        return fit_with_cache(env, params, None, cache);
    };
    let nf = n as f64;
    let g1: Vec<f64> = env.y.iter().map(|&v| env.loss.d1(v, b0) / nf).collect();
    let (ap, an) = balance(&g1);
    let theta: Vec<f64> = g1
        .iter()
        .map(|&v| v * if v > 0.0 { ap } else { an })
        .collect();
    // serial: a parallel branch and bound finds the same maximum but visits a thread-dependent
    // number of nodes, and this search is small next to the fits
    let miner = feature_miner(p.min_support, p.max_size, Parallel::Serial)?;
    let mut mc = MaxCorrelation {
        theta: &theta,
        best: 0.0,
        visited: 0,
    };
    let cut = match cache.as_deref_mut() {
        Some(c) => search_cached(c, &Traversal::new(env.db, &miner, &env.meter), &mut mc)?,
        None => mine_with_meter(env.db, &miner, &mut mc, &env.meter)?.truncation,
    };
    if cut.is_some() {
        return fit_with_cache(env, params, None, cache);
    }
    let lambda_max = mc.best;
    let mut warm = BcgdFit {
        intercept: b0,
        features: Vec::new(),
        n_iter: 0,
        converged: true,
        truncation: None,
        history: Vec::new(),
        trace: Vec::new(),
        path_history: Vec::new(),
        lambda_max: None,
        duality_gap: f64::INFINITY,
        warm_dual: Some(WarmDual {
            bound: lambda_max,
            n,
            min_support: p.min_support,
            max_size: p.max_size,
        }),
    };
    let mut path_history = vec![IterationStats {
        objective: f64::NAN,
        visited: mc.visited,
        duality_gap: f64::INFINITY,
        ..IterationStats::default()
    }];
    let mut lam = lambda_max * INTERNAL_PATH_RATIO;
    while lam > p.lambda1 {
        let pk = params.clone().into_params().lambda1(lam).check()?;
        let fit = fit_with_cache(env, &pk, Some(&warm), cache.as_deref_mut())?;
        path_history.extend_from_slice(&fit.history);
        if fit.truncation.is_some() {
            return Ok(BcgdFit {
                path_history,
                lambda_max: Some(lambda_max),
                duality_gap: f64::INFINITY,
                ..fit
            });
        }
        warm = fit;
        lam *= INTERNAL_PATH_RATIO;
    }
    let fit = fit_with_cache(env, params, Some(&warm), cache)?;
    Ok(BcgdFit {
        path_history,
        lambda_max: Some(lambda_max),
        ..fit
    })
}

/// Fits a regularisation path: one model per `λ1` of `lambdas` (in the order given; a
/// decreasing grid is the useful one), each warm-started from the previous and reusing the
/// tree cache of the previous fits. Each fit has the budget of `params`; a truncated fit ends
/// the path. Progress: the stage is the index of the current `λ1`.
///
/// # Errors
/// As [`fit_bcgd`], and [`SubgraphError::Input`] for a `λ1` that is not positive.
///
/// # Complexity
/// One fit per `λ1`; warm starts and the shared cache make a decreasing grid far cheaper than
/// independent fits.
pub fn fit_bcgd_path<L: Loss + ?Sized>(
    db: &GraphDatabase,
    y: &[f64],
    loss: &L,
    params: &BcgdValidParams,
    lambdas: &[f64],
    ctl: &RunControl,
) -> Result<Vec<BcgdFit>> {
    let mut out: Vec<BcgdFit> = Vec::with_capacity(lambdas.len());
    let mut cache = params.tree_cache();
    for (k, &lam) in lambdas.iter().enumerate() {
        ctl.progress().set_stage(k as u64, lambdas.len() as u64);
        let pk = params.clone().into_params().lambda1(lam).check()?;
        let env = FitEnv::start(db, y, loss, &pk, ctl);
        let fit = fit_from(&env, &pk, out.last(), cache.as_mut())?;
        let stop = fit.truncation.is_some();
        out.push(fit);
        if stop {
            break;
        }
    }
    Ok(out)
}
