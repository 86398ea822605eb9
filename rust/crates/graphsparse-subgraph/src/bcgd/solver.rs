//! The BCGD iteration (paper Figure 7): the iterate, one search per iteration, the direction
//! over the features found, Gauss–Southwell-r, the Armijo line search and the dual point
//! that certifies each iterate and screens the next search.

use std::time::Instant;

use graphsparse_base::{Meter, RunControl, Truncation};
use graphsparse_graph::GraphDatabase;
use graphsparse_gspan::{DfsCode, MinerValidParams, mine_with_meter};
use rustc_hash::FxHashMap;

use super::model::{BcgdFit, IterationStats, TraceStep, WarmDual};
use super::params::{BcgdParams, BcgdValidParams};
use super::search::{Ctx, Found, Search, clip_h, soft_step};
use crate::cache::{Traversal, TreeCache, search_cached};
use crate::dual::{DualPoint, balance, dual_point};
use crate::error::{Result, feature_miner};
use crate::feature::Feature;
use crate::loss::Loss;

/// A column of the working set whose coefficient is zero: a pattern a search found with
/// `T_j ≠ 0` (or a feature that left the model), kept for the iterations between searches.
struct Cand {
    ids: Vec<u32>,
    code: DfsCode,
    equivalents: Vec<DfsCode>,
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
        // the walk of the cached tree is serial: a BCGD fork/join merges what each fork saw,
        // so a parallel walk costs more CPU than it saves (CPDB, λ1 = 0.005: 2.0 s against
        // 1.3 s on 2 threads); the first search (which fills the cache) and the expansions of
        // frontier nodes (gSpan's embedding work, most of a path's time on Mutagenicity) run in
        // parallel
        Some(c) => search_cached(c, &Traversal::new(db, miner, meter).serial_walk(), search)?,
        None => mine_with_meter(db, miner, search, meter)?.truncation,
    })
}

/// The direction over `{T_j ≠ 0} ∪ {β_j ≠ 0}` and the intercept's `d0`, `h0`. A found
/// column that is in the working set `extra` leaves it (its patterns join the entry's).
fn direction(
    found: Vec<Found>,
    it: &Iterate,
    active_h: &[f64],
    lambda2: f64,
    extra: &mut Vec<Cand>,
) -> (Vec<DirEntry>, f64, f64) {
    let active = &it.active;
    let mut covered = vec![false; active.len()];
    let mut taken = vec![false; extra.len()];
    let index: FxHashMap<&[u32], usize> = extra
        .iter()
        .enumerate()
        .map(|(k, c)| (c.ids.as_slice(), k))
        .collect();
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
        } else if let Some(&k) = index.get(f.ids.as_slice()) {
            taken[k] = true;
            codes.push(extra[k].code.clone());
            codes.extend(extra[k].equivalents.iter().cloned());
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
    drop(index);
    let mut k = 0;
    extra.retain(|_| {
        k += 1;
        !taken[k - 1]
    });
    let (d0, h0) = intercept_step(it);
    (dir, d0, h0)
}

/// The intercept's `d0` and `h0`.
fn intercept_step(it: &Iterate) -> (f64, f64) {
    let h0 = clip_h(it.g2.iter().sum());
    (-it.g1.iter().sum::<f64>() / h0, h0)
}

/// The direction over the working set only (no search): every nonzero feature and the
/// columns of `extra` whose `T_j ≠ 0`, which leave `extra` for the direction. `None` (and
/// `extra` untouched) when `||H d||_∞ ≤ tol` over the working set and the intercept.
fn working_direction(
    it: &Iterate,
    active_h: &[f64],
    p: &BcgdParams,
    extra: &mut Vec<Cand>,
) -> Option<(Vec<DirEntry>, f64, f64)> {
    let (lambda1, lambda2) = (p.lambda1, p.lambda2);
    let (d0, h0) = intercept_step(it);
    let mut opt = (h0 * d0).abs();
    let mut dir: Vec<DirEntry> = Vec::with_capacity(it.active.len());
    for (f, &h) in it.active.iter().zip(active_h) {
        let s1: f64 = f.graph_ids.iter().map(|&i| it.g1[i as usize]).sum();
        let beta = f.coef;
        let d = soft_step(s1 + (lambda2 - h) * beta, lambda1, h) - beta;
        opt = opt.max((h * d).abs());
        dir.push(DirEntry {
            ids: f.graph_ids.clone(),
            code: f.code.clone(),
            equivalents: f.equivalents.clone(),
            beta,
            grad: s1 + lambda2 * beta,
            h,
            d,
        });
    }
    // (t, h, sum of g1) of each zero-coefficient column
    let steps: Vec<(f64, f64, f64)> = extra
        .iter()
        .map(|c| {
            let (s1, s2) = c.ids.iter().fold((0.0, 0.0), |(a, b), &i| {
                (a + it.g1[i as usize], b + it.g2[i as usize])
            });
            let h = clip_h(s2 + lambda2);
            (soft_step(s1, lambda1, h), h, s1)
        })
        .collect();
    for &(t, h, _) in &steps {
        opt = opt.max((h * t).abs());
    }
    if opt <= p.tol {
        return None;
    }
    let mut kept = Vec::with_capacity(extra.len());
    for (c, (t, h, s1)) in extra.drain(..).zip(steps) {
        if t == 0.0 {
            kept.push(c);
        } else {
            dir.push(DirEntry {
                ids: c.ids,
                code: c.code,
                equivalents: c.equivalents,
                beta: 0.0,
                grad: s1,
                h,
                d: t,
            });
        }
    }
    *extra = kept;
    Some((dir, d0, h0))
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

/// Moves the iterate by `alpha` along the direction; zero coefficients leave the model (into
/// `dropped` when it is given: the working set keeps them).
fn apply_step(
    it: &mut Iterate,
    dir: Vec<DirEntry>,
    d0: f64,
    alpha: f64,
    mut dropped: Option<&mut Vec<Cand>>,
) {
    it.intercept += alpha * d0;
    it.active.clear();
    for e in dir {
        let coef = e.beta + alpha * e.d;
        if coef != 0.0 {
            it.active.push(Feature {
                code: e.code,
                graph_ids: e.ids,
                coef,
                equivalents: e.equivalents,
            });
        } else if let Some(out) = dropped.as_deref_mut() {
            out.push(Cand {
                ids: e.ids,
                code: e.code,
                equivalents: e.equivalents,
            });
        }
    }
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
    /// Working sets are on (with `screening`).
    working: bool,
    /// The zero-coefficient columns of the working set.
    extra: Vec<Cand>,
    /// The next iteration searches the whole tree (the working set has converged, or there
    /// is none).
    search_next: bool,
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
        let working = screening && p.working_set;
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
            working,
            extra: Vec::new(),
            search_next: !working,
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
        if !self.search_next && self.n_iter < self.p.max_iter {
            let active_h = self.it.active_h(lambda2);
            if let Some((dir, d0, h0)) =
                working_direction(&self.it, &active_h, self.p, &mut self.extra)
            {
                let found = Searched {
                    dir,
                    d0,
                    h0,
                    visited: 0,
                    skipped: 0,
                    pruned_bound: 0,
                    pruned_spp: 0,
                    bound: f64::INFINITY,
                };
                let objective = self.update(found, f_old);
                self.history.push(IterationStats {
                    objective,
                    nonzeros: self.it.active.len(),
                    duality_gap: f64::INFINITY,
                    seconds: start.elapsed().as_secs_f64(),
                    full_search: false,
                    ..IterationStats::default()
                });
                self.env.ctl.progress().add_iteration();
                self.env.ctl.progress().set_value(objective);
                return Ok(Next::Continue);
            }
        }
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
            full_search: true,
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
        // iterate over the working set until it converges, then search again
        self.search_next = !self.working;
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
        let (dir, d0, h0) = direction(search.found, &self.it, &active_h, lambda2, &mut self.extra);
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
        let dropped = self.working.then_some(&mut self.extra);
        apply_step(&mut self.it, dir, d0, alpha, dropped);
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

#[cfg(test)]
mod tests {
    use graphsparse_gspan::DfsEdge;
    use proptest::prelude::*;

    use super::*;

    fn code(k: u32) -> DfsCode {
        DfsCode::from_edges(vec![DfsEdge::new(0, 1, k, 0, 0)]).unwrap()
    }

    /// `n` graphs, columns from bit masks, the first `n_active` of them nonzero.
    fn setup(
        n: usize,
        masks: &[u32],
        betas: &[f64],
        g: &[(f64, f64)],
    ) -> (Iterate, Vec<Cand>, usize) {
        let cols: Vec<Vec<u32>> = masks
            .iter()
            .map(|m| (0..n as u32).filter(|i| m >> i & 1 == 1).collect())
            .collect();
        let n_active = betas.len().min(cols.len());
        let mut it = Iterate::new(n, None);
        for (k, (ids, &b)) in cols.iter().zip(betas).enumerate() {
            it.active.push(Feature {
                code: code(k as u32),
                graph_ids: ids.clone(),
                coef: b,
                equivalents: Vec::new(),
            });
        }
        for (i, &(a, b)) in g.iter().enumerate().take(n) {
            it.g1[i] = a;
            it.g2[i] = b;
        }
        let extra = cols[n_active..]
            .iter()
            .enumerate()
            .map(|(k, ids)| Cand {
                ids: ids.clone(),
                code: code((n_active + k) as u32),
                equivalents: Vec::new(),
            })
            .collect();
        (it, extra, n_active)
    }

    /// Working sets with the frontier expansions forked (the unit tests fork them below 8
    /// embeddings): the same fits, iterate by iterate and count by count, as on one thread.
    #[test]
    fn parallel_expansions_change_no_working_set_fit() {
        use graphsparse_base::{Check, Parallel, RunControl};
        use graphsparse_graph::RandomGraphs;

        use crate::{Logistic, fit_bcgd_path};

        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for seed in [1, 2, 3] {
            let db = RandomGraphs {
                n_graphs: 40,
                vertices: (5, 9),
                vertex_labels: 2,
                edge_labels: 2,
                extra_edges: 2,
                seed,
            }
            .generate()
            .unwrap();
            let y: Vec<f64> = (0..db.len())
                .map(|g| {
                    f64::from(u8::from(
                        db.graph(g).node_labels.iter().sum::<u32>() % 3 == 0,
                    ))
                })
                .collect();
            let lambdas = [0.05, 0.02, 0.01];
            let run = |parallel: Parallel| {
                let p = BcgdParams::new(1.0)
                    .max_size(Some(5))
                    .tol(1e-6)
                    .record_trace(true)
                    .parallel(parallel)
                    .check()
                    .unwrap();
                fit_bcgd_path(&db, &y, &Logistic, &p, &lambdas, &RunControl::new()).unwrap()
            };
            let serial = run(Parallel::Serial);
            let par = pool.install(|| run(Parallel::Auto));
            for (a, b) in serial.iter().zip(&par) {
                assert!(a.converged && a.full_searches() < a.history.len() as u64);
                assert_eq!(a.features, b.features);
                assert_eq!(a.history.len(), b.history.len());
                for (s, t) in a.history.iter().zip(&b.history) {
                    assert_eq!(
                        (s.visited, s.skipped, s.pruned_bound, s.pruned_spp),
                        (t.visited, t.skipped, t.pruned_bound, t.pruned_spp)
                    );
                    assert_eq!(s.objective.to_bits(), t.objective.to_bits());
                    assert_eq!(s.duality_gap.to_bits(), t.duality_gap.to_bits());
                }
                assert_eq!(a.trace, b.trace);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// The working-set direction is the BCGD direction of each column of the working set
        /// (`T_j − β_j` by Lemma 10), `None` exactly when `||H d||_∞ ≤ tol`, and moves only the
        /// zero-coefficient columns with `T_j ≠ 0` out of the working set; the step returns the
        /// columns whose coefficient becomes zero.
        #[test]
        fn working_direction_is_the_bcgd_direction_over_the_working_set(
            masks in prop::collection::vec(1u32..64, 1..8),
            betas in prop::collection::vec(
                prop_oneof![Just(0.3), Just(-0.2), -1.0f64..1.0], 0..4),
            g in prop::collection::vec((-0.2f64..0.2, 0.0f64..0.25), 6),
            lambda1 in 0.01f64..0.3,
            lambda2 in prop_oneof![Just(0.0), 0.0f64..0.1],
            tol in prop_oneof![Just(1e-9), 1e-3f64..1.0],
            alpha in prop_oneof![Just(1.0), 0.0f64..1.0],
        ) {
            let (it, mut extra, n_active) = setup(6, &masks, &betas, &g);
            let p = BcgdParams::new(lambda1).lambda2(lambda2).tol(tol);
            let active_h = it.active_h(lambda2);
            let before: Vec<Vec<u32>> = extra.iter().map(|c| c.ids.clone()).collect();
            // the expected direction, column by column
            let col = |ids: &[u32]| -> (f64, f64) {
                ids.iter().fold((0.0, 0.0), |(a, b), &i| (a + it.g1[i as usize], b + it.g2[i as usize]))
            };
            let (d0, h0) = intercept_step(&it);
            let mut opt = (h0 * d0).abs();
            let mut want: Vec<(Vec<u32>, f64, f64)> = Vec::new();
            for f in &it.active {
                let (s1, s2) = col(&f.graph_ids);
                let h = clip_h(s2 + lambda2);
                let d = soft_step(s1 + (lambda2 - h) * f.coef, lambda1, h) - f.coef;
                opt = opt.max((h * d).abs());
                want.push((f.graph_ids.clone(), d, h));
            }
            let mut stay = Vec::new();
            for ids in &before {
                let (s1, s2) = col(ids);
                let h = clip_h(s2 + lambda2);
                let t = soft_step(s1, lambda1, h);
                opt = opt.max((h * t).abs());
                if t == 0.0 { stay.push(ids.clone()) } else { want.push((ids.clone(), t, h)) }
            }
            let got = working_direction(&it, &active_h, &p, &mut extra);
            prop_assert_eq!(got.is_none(), opt <= tol);
            let Some((dir, gd0, gh0)) = got else {
                let after: Vec<Vec<u32>> = extra.iter().map(|c| c.ids.clone()).collect();
                prop_assert_eq!(after, before);
                return Ok(());
            };
            prop_assert_eq!((gd0, gh0), (d0, h0));
            prop_assert_eq!(dir.len(), want.len());
            for (e, (ids, d, h)) in dir.iter().zip(&want) {
                prop_assert_eq!(&e.ids, ids);
                prop_assert!((e.d - d).abs() <= 1e-12 && (e.h - h).abs() <= 1e-12);
            }
            prop_assert!(dir[..n_active].iter().zip(&it.active).all(|(e, f)| e.beta == f.coef));
            prop_assert!(dir[n_active..].iter().all(|e| e.beta == 0.0 && e.d != 0.0));
            let after: Vec<Vec<u32>> = extra.iter().map(|c| c.ids.clone()).collect();
            prop_assert_eq!(&after, &stay);
            // the step: nonzero coefficients form the model, zero ones rejoin the working set
            let mut it = it;
            let zero: Vec<Vec<u32>> = dir
                .iter()
                .filter(|e| e.beta + alpha * e.d == 0.0)
                .map(|e| e.ids.clone())
                .collect();
            let nonzero = dir.len() - zero.len();
            apply_step(&mut it, dir, d0, alpha, Some(&mut extra));
            prop_assert_eq!(it.active.len(), nonzero);
            prop_assert!(it.active.iter().all(|f| f.coef != 0.0));
            let back: Vec<Vec<u32>> = extra[stay.len()..].iter().map(|c| c.ids.clone()).collect();
            prop_assert_eq!(back, zero);
        }
    }
}
