//! The BCGD iteration (paper Figure 7): the iterate, one search per iteration, the direction
//! over the features found, Gauss–Southwell-r, the Armijo line search and the dual point
//! that certifies each iterate and screens the next search.

use std::time::Instant;

use graphsparse_base::{Check, Meter, Parallel, RunControl, Truncation};
use graphsparse_graph::GraphDatabase;
use graphsparse_gspan::{DfsCode, MinerValidParams, mine_with_meter};

use super::model::{BcgdFit, IterationStats, TraceStep, WarmDual};
use super::params::{BcgdParams, BcgdValidParams};
use super::search::{Ctx, Found, Search, clip_h};
use crate::cache::{Traversal, TreeCache, search_cached};
use crate::dual::{DualPoint, balance, dual_point};
use crate::error::{Result, feature_miner};
use crate::feature::Feature;
use crate::loss::Loss;

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

pub(super) fn mean_loss<L: Loss + ?Sized>(loss: &L, y: &[f64], mu: &[f64]) -> f64 {
    let s: f64 = y.iter().zip(mu).map(|(&yi, &m)| loss.value(yi, m)).sum();
    s / y.len() as f64
}

pub(super) fn penalty(lambda1: f64, lambda2: f64, betas: impl Iterator<Item = f64>) -> f64 {
    let (mut l1, mut l2) = (0.0, 0.0);
    for b in betas {
        l1 += b.abs();
        l2 += b * b;
    }
    lambda1 * l1 + 0.5 * lambda2 * l2
}

pub(super) fn merge_codes(mut codes: Vec<DfsCode>) -> (DfsCode, Vec<DfsCode>) {
    codes.sort();
    codes.dedup();
    let rep = codes.remove(0);
    (rep, codes)
}

/// What a fit and the fits it runs inside (the internal path) share: the graphs and
/// responses, the loss, the caller's handle and the budget meter they claim their nodes from.
pub(super) struct FitEnv<'a, L: ?Sized> {
    pub(super) db: &'a GraphDatabase,
    pub(super) y: &'a [f64],
    pub(super) loss: &'a L,
    pub(super) ctl: &'a RunControl,
    pub(super) meter: Meter<'a>,
}

impl<'a, L: ?Sized> FitEnv<'a, L> {
    /// Starts the budget of `params` (its clock starts now).
    pub(super) fn start(
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

/// A fit from zero or warm-started from `warm`, on responses the drivers checked: iterations
/// of a [`Bcgd`] until it converges, reaches `max_iter` or a budget stops it.
pub(super) fn fit_with_cache<L: Loss + ?Sized>(
    env: &FitEnv<'_, L>,
    params: &BcgdValidParams,
    warm: Option<&BcgdFit>,
    mut cache: Option<&mut TreeCache>,
) -> Result<BcgdFit> {
    let mut fit = Bcgd::new(env, params, warm)?;
    while fit.iteration(cache.as_deref_mut())? == Next::Continue {}
    Ok(fit.finish())
}

/// Whether the fit goes on after an iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    Continue,
    Stop,
}

/// What one search found: the direction over its features and the search's counts.
struct Searched {
    dir: Vec<DirEntry>,
    d0: f64,
    h0: f64,
    visited: u64,
    skipped: u64,
    pruned_bound: u64,
    pruned_spp: u64,
    /// `U`: the search's bound on `|x_jᵀθ̃|` over the zero-coefficient patterns.
    bound: f64,
}

/// A BCGD fit in progress: the iterate, the line search's buffers, the safe-screening sphere
/// and what the fit reports, advanced by [`Bcgd::iteration`].
struct Bcgd<'e, 'a, L: ?Sized> {
    env: &'e FitEnv<'a, L>,
    p: &'e BcgdParams,
    miner: MinerValidParams,
    it: Iterate,
    line: LineSearch,
    /// Safe pattern pruning is on and the loss has what it needs.
    screening: bool,
    /// The smallest gap-safe sphere so far (`None`: no screening yet).
    sphere: Option<DualPoint>,
    history: Vec<IterationStats>,
    trace: Vec<TraceStep>,
    converged: bool,
    truncation: Option<Truncation>,
    n_iter: usize,
    /// The gap and the warm-start bound of the iterate last searched (`+∞` / `None` once it
    /// has moved).
    duality_gap: f64,
    warm_dual: Option<WarmDual>,
}

impl<'e, 'a, L: Loss + ?Sized> Bcgd<'e, 'a, L> {
    /// Starts from zero or from `warm`; a warm start with a usable dual bound screens its
    /// first search with the sphere of its own iterate.
    fn new(
        env: &'e FitEnv<'a, L>,
        params: &'e BcgdValidParams,
        warm: Option<&BcgdFit>,
    ) -> Result<Self> {
        let p = &params.0;
        let (y, loss) = (env.y, env.loss);
        let n = env.db.len();
        let miner = feature_miner(p.min_support, p.max_size, p.parallel)?;
        let mut it = Iterate::new(n, warm);
        let screening = p.screening && loss.smoothness().is_some();
        let mut sphere: Option<DualPoint> = None;
        if screening {
            let usable = warm
                .and_then(|w| w.warm_dual)
                .filter(|d| d.n == n && d.min_support == p.min_support && d.max_size == p.max_size);
            if let Some(d) = usable {
                it.refresh(loss, y, p.lambda1, p.lambda2);
                sphere = Some(iterate_dual(loss, y, &it, p, d.bound));
            }
        }
        Ok(Self {
            env,
            p,
            miner,
            it,
            line: LineSearch {
                dmu: vec![0.0; n],
                trial: vec![0.0; n],
                alpha_init: 1.0,
            },
            screening,
            sphere,
            history: Vec::new(),
            trace: Vec::new(),
            converged: false,
            truncation: None,
            n_iter: 0,
            duality_gap: f64::INFINITY,
            warm_dual: None,
        })
    }

    /// One iteration: the search at the iterate, its certificate, the convergence test and
    /// the update.
    fn iteration(&mut self, cache: Option<&mut TreeCache>) -> Result<Next> {
        let start = Instant::now();
        let (loss, y, meter) = (self.env.loss, self.env.y, &self.env.meter);
        let (lambda1, lambda2) = (self.p.lambda1, self.p.lambda2);
        if meter.poll() {
            self.truncation = meter.truncation();
            return Ok(Next::Stop);
        }
        let f_old = self.it.refresh(loss, y, lambda1, lambda2);
        let Some(found) = self.search(cache)? else {
            return Ok(Next::Stop);
        };
        let gap = self.certify(found.bound);
        let Searched {
            visited,
            skipped,
            pruned_bound,
            pruned_spp,
            ..
        } = found;
        let stats = |objective: f64, nonzeros: usize| IterationStats {
            objective,
            nonzeros,
            visited,
            skipped,
            pruned_bound,
            pruned_spp,
            duality_gap: gap,
            seconds: start.elapsed().as_secs_f64(),
        };
        let opt = found
            .dir
            .iter()
            .map(|e| (e.h * e.d).abs())
            .fold((found.h0 * found.d0).abs(), f64::max);
        if opt <= self.p.tol {
            self.converged = true;
            self.history.push(stats(f_old, self.it.active.len()));
            return Ok(Next::Stop);
        }
        if self.n_iter == self.p.max_iter {
            return Ok(Next::Stop);
        }
        let objective = self.update(found, f_old);
        self.history.push(stats(objective, self.it.active.len()));
        self.env.ctl.progress().add_iteration();
        self.env.ctl.progress().set_value(objective);
        Ok(Next::Continue)
    }

    /// Searches the tree at the iterate (refreshed) and builds the direction over what it
    /// found; `None` when a budget cut the search (the truncation is recorded).
    fn search(&mut self, cache: Option<&mut TreeCache>) -> Result<Option<Searched>> {
        let lambda2 = self.p.lambda2;
        let active_h = self.it.active_h(lambda2);
        let ctx = self
            .it
            .search_context(self.p, &active_h, self.sphere.as_ref());
        let mut search = Search::new(&ctx, (0..self.it.active.len() as u32).collect());
        let cut = run_search(
            cache,
            self.env.db,
            &self.miner,
            &mut search,
            &self.env.meter,
        )?;
        if cut.is_some() {
            self.truncation = cut;
            return Ok(None);
        }
        let (visited, skipped) = (search.visited, search.skipped);
        let (pruned_bound, pruned_spp, bound) =
            (search.pruned_bound, search.pruned_spp, search.dual_bound);
        let (dir, d0, h0) = direction(search.found, &self.it, &active_h, lambda2);
        Ok(Some(Searched {
            dir,
            d0,
            h0,
            visited,
            skipped,
            pruned_bound,
            pruned_spp,
            bound,
        }))
    }

    /// The dual point of the iterate just searched (from the search's bound `U`): its gap,
    /// the bound a warm start can screen with, and a smaller sphere for the next searches.
    /// Returns the gap.
    fn certify(&mut self, bound: f64) -> f64 {
        let (loss, y, p) = (self.env.loss, self.env.y, self.p);
        let dual = iterate_dual(loss, y, &self.it, p, bound);
        let gap = dual.gap;
        self.duality_gap = gap;
        self.warm_dual = Some(WarmDual {
            bound,
            n: self.env.db.len(),
            min_support: p.min_support,
            max_size: p.max_size,
        });
        if self.screening && self.sphere.as_ref().is_none_or(|s| dual.radius < s.radius) {
            self.sphere = Some(dual);
        }
        gap
    }

    /// Gauss–Southwell-r on the direction, the Armijo step along it and the move; returns
    /// the objective at the new iterate.
    fn update(&mut self, found: Searched, f_old: f64) -> f64 {
        let (loss, y) = (self.env.loss, self.env.y);
        let (lambda1, lambda2) = (self.p.lambda1, self.p.lambda2);
        let Searched {
            mut dir, mut d0, ..
        } = found;
        gauss_southwell_r(&mut dir, &mut d0);
        let alpha = self
            .line
            .step(loss, y, &self.it, &dir, d0, f_old, lambda1, lambda2);
        apply_step(&mut self.it, dir, d0, alpha);
        (self.duality_gap, self.warm_dual) = (f64::INFINITY, None);
        self.n_iter += 1;
        self.it.refresh_mu();
        let objective = self.it.objective(loss, y, lambda1, lambda2);
        if self.p.record_trace {
            self.trace.push(TraceStep {
                intercept: self.it.intercept,
                coefs: self
                    .it
                    .active
                    .iter()
                    .map(|f| (f.graph_ids.clone(), f.coef))
                    .collect(),
            });
        }
        objective
    }

    /// The fitted model.
    fn finish(self) -> BcgdFit {
        BcgdFit {
            intercept: self.it.intercept,
            features: self.it.active,
            n_iter: self.n_iter,
            converged: self.converged,
            truncation: self.truncation,
            history: self.history,
            trace: self.trace,
            path_history: Vec::new(),
            lambda_max: None,
            duality_gap: self.duality_gap,
            warm_dual: self.warm_dual,
        }
    }
}
