//! The entry points: one fit (warm or cold, with the internal `λ_max` path of a screened
//! cold fit), a regularisation path, and the objective of a model.

use graphsparse_base::{Check, Parallel, RunControl, check_finite, check_len};
use graphsparse_graph::GraphDatabase;
use graphsparse_gspan::mine_with_meter;

use super::model::{BcgdFit, IterationStats, WarmDual};
use super::params::BcgdValidParams;
use super::solver::{FitEnv, fit_with_cache, mean_loss, penalty};
use crate::cache::{Traversal, TreeCache, search_cached};
use crate::dual::{MaxCorrelation, balance, null_intercept};
use crate::error::{Result, SubgraphError, feature_miner};
use crate::loss::Loss;

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

/// Fits the model by BCGD, from zero or warm-started from `warm`.
///
/// # Arguments
/// * `db`, `y`: the graphs and one response per graph (`y ∈ {0, 1}` for [`crate::Logistic`]).
/// * `loss`: the loss (mean over samples).
/// * `params`: see [`BcgdParams`](crate::BcgdParams); its budget bounds the whole fit.
/// * `warm`: a previous fit on the same data to start from (a regularisation path).
/// * `ctl`: the caller's handle; [`RunControl::cancel`] stops the fit, which returns what it
///   has with [`Truncation::Cancelled`](crate::Truncation::Cancelled). Progress: nodes visited, iterations, the objective.
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
/// selected features for the line search; with working sets most iterations traverse nothing
/// and cost `O(Σ_j |1(x_j)|)` over the working set.
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
        full_search: true,
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
