//! BCGD against an explicit-matrix implementation, pruning / parallel / warm-start
//! equivalences, the stump search against brute force, and the matcher against gSpan.
#![allow(clippy::needless_range_loop)] // explicit-matrix reference reads best with indices

use graphsparse_graph::{GraphDatabase, RandomGraphs};
use graphsparse_gspan::{MinerParams, mine_frequent};
use graphsparse_subgraph::{
    BcgdFit, BcgdParams, Check, Logistic, Loss, Parallel, RunControl, Squared, StumpParams,
    StumpSearcher, Truncation, adaboost, best_stump, fit_bcgd, fit_bcgd_path, match_patterns,
    objective,
};

fn random_db(n_graphs: usize, seed: u64) -> GraphDatabase {
    RandomGraphs {
        n_graphs,
        vertices: (4, 7),
        vertex_labels: 2,
        edge_labels: 2,
        extra_edges: 2,
        seed,
    }
    .generate()
    .unwrap()
}

fn responses(db: &GraphDatabase, seed: u64, binary: bool) -> Vec<f64> {
    // depends on the graphs, so that patterns carry signal
    (0..db.len())
        .map(|g| {
            let gr = db.graph(g);
            let ones = gr.node_labels.iter().filter(|&&l| l == 1).count() as f64;
            let noise = ((g as u64 * 2_654_435_761 + seed) % 7) as f64 / 7.0;
            let score = ones / gr.n_vertices() as f64 + 0.6 * noise - 0.8;
            if binary {
                f64::from(u8::from(score > 0.0))
            } else {
                score + 0.1 * gr.n_edges() as f64
            }
        })
        .collect()
}

/// Distinct columns in DFS order (first occurrence kept), as in `graphsparse.testing.reference.bcgd`.
fn columns(db: &GraphDatabase, max_size: usize) -> Vec<Vec<u32>> {
    let params = MinerParams::new().max_size(Some(max_size)).check().unwrap();
    let res = mine_frequent(db, &params, &RunControl::new()).unwrap();
    let mut out: Vec<Vec<u32>> = Vec::new();
    for p in res.patterns {
        if !out.contains(&p.graph_ids) {
            out.push(p.graph_ids);
        }
    }
    out
}

struct Step {
    intercept: f64,
    coefs: Vec<f64>,
}

/// Explicit-matrix BCGD (the same rules, written over dense columns).
fn explicit_bcgd(
    cols: &[Vec<u32>],
    y: &[f64],
    loss: &dyn Loss,
    lam1: f64,
    lam2: f64,
    tol: f64,
    max_iter: usize,
) -> (Vec<Step>, bool) {
    let (n, p) = (y.len(), cols.len());
    let x: Vec<Vec<f64>> = cols
        .iter()
        .map(|c| {
            let mut v = vec![0.0; n];
            for &i in c {
                v[i as usize] = 1.0;
            }
            v
        })
        .collect();
    let mu_of = |b0: f64, b: &[f64]| -> Vec<f64> {
        (0..n)
            .map(|i| b0 + (0..p).map(|j| x[j][i] * b[j]).sum::<f64>())
            .collect()
    };
    let obj = |b0: f64, b: &[f64]| -> f64 {
        let mu = mu_of(b0, b);
        let l: f64 = (0..n).map(|i| loss.value(y[i], mu[i])).sum::<f64>() / n as f64;
        l + lam1 * b.iter().map(|v| v.abs()).sum::<f64>()
            + 0.5 * lam2 * b.iter().map(|v| v * v).sum::<f64>()
    };
    let (mut b0, mut b) = (0.0, vec![0.0; p]);
    let mut alpha_init = 1.0f64;
    let mut steps = Vec::new();
    for _ in 0..max_iter {
        let mu = mu_of(b0, &b);
        let d1: Vec<f64> = (0..n).map(|i| loss.d1(y[i], mu[i]) / n as f64).collect();
        let d2: Vec<f64> = (0..n).map(|i| loss.d2(y[i], mu[i]) / n as f64).collect();
        let h: Vec<f64> = (0..p)
            .map(|j| ((0..n).map(|i| x[j][i] * d2[i]).sum::<f64>() + lam2).clamp(1e-10, 1e10))
            .collect();
        let h0 = d2.iter().sum::<f64>().clamp(1e-10, 1e10);
        let grad: Vec<f64> = (0..p)
            .map(|j| (0..n).map(|i| x[j][i] * d1[i]).sum::<f64>() + lam2 * b[j])
            .collect();
        let mut d: Vec<f64> = (0..p)
            .map(|j| {
                let bj = grad[j] - h[j] * b[j];
                let t = if bj < -lam1 {
                    -(bj + lam1) / h[j]
                } else if bj > lam1 {
                    -(bj - lam1) / h[j]
                } else {
                    0.0
                };
                t - b[j]
            })
            .collect();
        let s1: f64 = d1.iter().sum();
        let mut dd0 = -s1 / h0;
        let opt = (0..p)
            .map(|j| (h[j] * d[j]).abs())
            .fold((h0 * dd0).abs(), f64::max);
        if opt <= tol {
            return (steps, true);
        }
        let dmax = d.iter().map(|v| v.abs()).fold(dd0.abs(), f64::max);
        for v in d.iter_mut() {
            if v.abs() <= 0.9 * dmax {
                *v = 0.0;
            }
        }
        if dd0.abs() <= 0.9 * dmax {
            dd0 = 0.0;
        }
        let f_old = obj(b0, &b);
        let delta: f64 = (0..p)
            .map(|j| grad[j] * d[j] + lam1 * ((b[j] + d[j]).abs() - b[j].abs()))
            .sum::<f64>()
            + s1 * dd0;
        let mut alpha = alpha_init;
        for _ in 0..100 {
            let bt: Vec<f64> = (0..p).map(|j| b[j] + alpha * d[j]).collect();
            if obj(b0 + alpha * dd0, &bt) <= f_old + alpha * 0.1 * delta {
                break;
            }
            alpha *= 0.5;
        }
        b0 += alpha * dd0;
        for j in 0..p {
            b[j] += alpha * d[j];
        }
        alpha_init = (alpha / 0.5f64.powi(5)).min(1.0);
        steps.push(Step {
            intercept: b0,
            coefs: b.clone(),
        });
    }
    (steps, false)
}

fn dense(fit_coefs: &[(Vec<u32>, f64)], cols: &[Vec<u32>]) -> Vec<f64> {
    let mut out = vec![0.0; cols.len()];
    for (ids, c) in fit_coefs {
        let j = cols
            .iter()
            .position(|col| col == ids)
            .expect("feature is a column of the explicit matrix");
        out[j] = *c;
    }
    out
}

fn fit(db: &GraphDatabase, y: &[f64], loss: &dyn Loss, p: BcgdParams) -> BcgdFit {
    fit_bcgd(db, y, loss, &p.check().unwrap(), None, &RunControl::new()).unwrap()
}

fn assert_same_trace(a: &BcgdFit, b: &BcgdFit) {
    assert_eq!(a.trace.len(), b.trace.len());
    for (s, t) in a.trace.iter().zip(&b.trace) {
        assert!((s.intercept - t.intercept).abs() < 1e-12);
        assert_eq!(s.coefs.len(), t.coefs.len());
        for ((ia, ca), (ib, cb)) in s.coefs.iter().zip(&t.coefs) {
            assert_eq!(ia, ib);
            assert!((ca - cb).abs() < 1e-12, "{ca} vs {cb}");
        }
    }
}

#[test]
fn bcgd_matches_explicit_matrix_every_iteration() {
    let cases: [(&dyn Loss, bool, f64, f64); 4] = [
        (&Logistic, true, 0.01, 0.0),
        (&Logistic, true, 0.03, 0.05),
        (&Squared, false, 0.02, 0.0),
        (&Squared, false, 0.005, 0.1),
    ];
    for (seed, (loss, binary, lam1, lam2)) in cases.into_iter().enumerate() {
        let db = random_db(30, 11 + seed as u64);
        let y = responses(&db, seed as u64, binary);
        let cols = columns(&db, 3);
        let f = fit(
            &db,
            &y,
            loss,
            BcgdParams::new(lam1)
                .lambda2(lam2)
                .max_size(Some(3))
                .tol(1e-6)
                .max_iter(300)
                .screening(false)
                .record_trace(true),
        );
        let (steps, conv) = explicit_bcgd(&cols, &y, loss, lam1, lam2, 1e-6, 300);
        assert!(f.n_iter > 3, "too few iterations to compare: {}", f.n_iter);
        assert_eq!(f.n_iter, steps.len(), "case {seed}");
        assert_eq!(f.converged, conv);
        for (t, (s, r)) in f.trace.iter().zip(&steps).enumerate() {
            let got = dense(&s.coefs, &cols);
            assert!(
                (s.intercept - r.intercept).abs() < 1e-8,
                "case {seed} iter {t}"
            );
            for j in 0..cols.len() {
                assert_eq!(
                    got[j] != 0.0,
                    r.coefs[j] != 0.0,
                    "case {seed} iter {t} col {j}"
                );
                assert!(
                    (got[j] - r.coefs[j]).abs() < 1e-8,
                    "case {seed} iter {t} col {j}"
                );
            }
        }
        let obj = objective(loss, &y, &f, lam1, lam2);
        let last = f.history.last().unwrap().objective;
        assert!((obj - last).abs() < 1e-12);
    }
}

#[test]
fn pruning_cache_and_parallel_do_not_change_the_iterates() {
    let db = random_db(40, 5);
    let y = responses(&db, 3, true);
    let plain = BcgdParams::new(0.01)
        .max_size(Some(4))
        .tol(1e-5)
        .screening(false)
        .record_trace(true);
    let pruned = fit(&db, &y, &Logistic, plain.clone());
    let unpruned = fit(&db, &y, &Logistic, plain.clone().prune(false));
    assert_same_trace(&pruned, &unpruned);
    assert!(pruned.visited() < unpruned.visited());
    for screening in [false, true] {
        let base = plain.clone().screening(screening);
        let pruned = fit(&db, &y, &Logistic, base.clone());
        same_iterates_cached_uncached_parallel(&db, &y, &base, &pruned);
    }
    // skipped = visited - distinct columns (unpruned search sees the whole tree)
    let all = mine_frequent(
        &db,
        &MinerParams::new().max_size(Some(4)).check().unwrap(),
        &RunControl::new(),
    )
    .unwrap();
    let h = &unpruned.history[0];
    assert_eq!(h.visited as usize, all.patterns.len());
    assert_eq!((h.visited - h.skipped) as usize, columns(&db, 4).len());
}

/// Uncached, parallel and parallel-cached fits have the iterates and search counts of `pruned`.
fn same_iterates_cached_uncached_parallel(
    db: &GraphDatabase,
    y: &[f64],
    base: &BcgdParams,
    pruned: &BcgdFit,
) {
    let uncached = fit(db, y, &Logistic, base.clone().cache(false));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let par = pool.install(|| {
        fit(
            db,
            y,
            &Logistic,
            base.clone().cache(false).parallel(Parallel::Auto),
        )
    });
    // the first search fills the cache in parallel, later ones walk it
    let par_cached = pool.install(|| fit(db, y, &Logistic, base.clone().parallel(Parallel::Auto)));
    for other in [&uncached, &par, &par_cached] {
        assert_same_fit(pruned, other);
    }
}

/// Same iterates, features and per-search counts.
fn assert_same_fit(a: &BcgdFit, b: &BcgdFit) {
    assert_same_trace(a, b);
    assert_eq!(a.features, b.features);
    // the cached search evaluates exactly the nodes the plain traversal visits
    assert_eq!(a.history.len(), b.history.len());
    for (k, (a, b)) in a.history.iter().zip(&b.history).enumerate() {
        assert_eq!(
            (a.visited, a.skipped, a.nonzeros),
            (b.visited, b.skipped, b.nonzeros),
            "search {k}"
        );
        assert_eq!(
            (a.pruned_bound, a.pruned_spp),
            (b.pruned_bound, b.pruned_spp)
        );
        assert_eq!(a.duality_gap.to_bits(), b.duality_gap.to_bits());
    }
}

/// Byte budgets of the stored embeddings for the tests: none, tiny (every entry refused),
/// small (constant eviction) and the default.
const BUDGETS: [usize; 4] = [0, 300, 6_000, graphsparse_subgraph::DEFAULT_CACHE_BYTES];

#[test]
fn frontier_budget_and_parallel_walk_do_not_change_bcgd_fits() {
    let db = random_db(40, 5);
    let y = responses(&db, 3, true);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    for screening in [false, true] {
        let base = BcgdParams::new(0.01)
            .max_size(Some(4))
            .tol(1e-5)
            .screening(screening)
            .record_trace(true);
        let reference = fit(&db, &y, &Logistic, base.clone().cache(false));
        for bytes in BUDGETS {
            let p = base.clone().cache_bytes(bytes);
            assert_same_fit(&reference, &fit(&db, &y, &Logistic, p.clone()));
            let par = pool.install(|| fit(&db, &y, &Logistic, p.parallel(Parallel::Auto)));
            assert_same_fit(&reference, &par);
        }
    }
    // the path shares one cache over its fits
    let grid = [0.05, 0.02, 0.01];
    let params = BcgdParams::new(0.05).max_size(Some(4)).tol(1e-5);
    let path = |p: BcgdParams| {
        fit_bcgd_path(
            &db,
            &y,
            &Logistic,
            &p.check().unwrap(),
            &grid,
            &RunControl::new(),
        )
        .unwrap()
    };
    let reference = path(params.clone().cache(false));
    for bytes in BUDGETS {
        let serial = path(params.clone().cache_bytes(bytes));
        let par = pool.install(|| path(params.clone().cache_bytes(bytes).parallel(Parallel::Auto)));
        for (a, (b, c)) in reference.iter().zip(serial.iter().zip(&par)) {
            assert_same_fit(a, b);
            assert_same_fit(a, c);
        }
    }
}

/// LPBoost-like weights: many exact zeros and many ties.
fn sparse_weights(n: usize, state: &mut u64) -> Vec<f64> {
    (0..n)
        .map(|_| {
            *state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            match (*state >> 33) % 4 {
                0 | 1 => 0.0,
                2 => 0.5,
                _ => ((*state >> 40) % 7) as f64 / 7.0,
            }
        })
        .collect()
}

/// Runs `rounds` searches with every frontier budget, serial and on 2 threads, against the
/// uncached search; returns the serial searchers' frontier statistics per budget.
fn check_stump_searchers(
    db: &GraphDatabase,
    labels: &[f64],
    params: &StumpParams,
    rounds: usize,
    seed: u64,
) -> Vec<graphsparse_subgraph::FrontierStats> {
    let cancel = RunControl::new();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut serial: Vec<StumpSearcher> = BUDGETS
        .iter()
        .map(|&b| StumpSearcher::new(db, &params.clone().cache_bytes(b).check().unwrap()))
        .collect();
    let mut par: Vec<StumpSearcher> = BUDGETS
        .iter()
        .map(|&b| {
            StumpSearcher::new(
                db,
                &params
                    .clone()
                    .cache_bytes(b)
                    .parallel(Parallel::Auto)
                    .check()
                    .unwrap(),
            )
        })
        .collect();
    let plain_params = params.clone().check().unwrap();
    let mut state = seed;
    for round in 0..rounds {
        let weights = sparse_weights(db.len(), &mut state);
        let plain = best_stump(db, &weights, labels, &plain_params, &cancel).unwrap();
        let mut visited = Vec::new();
        for s in &mut serial {
            let found = s.search(db, &weights, labels, &cancel).unwrap();
            visited.push((found.visited, s.cached_nodes()));
            assert_eq!(found.code, plain.code, "round {round}");
            assert_eq!(found.graph_ids, plain.graph_ids);
            assert_eq!(found.sign, plain.sign);
            assert!((found.gain - plain.gain).abs() < 1e-12);
        }
        // serially, resuming or re-embedding evaluates the same nodes in the same order
        assert!(visited.windows(2).all(|w| w[0] == w[1]), "{visited:?}");
        for s in &mut par {
            let found = pool
                .install(|| s.search(db, &weights, labels, &cancel))
                .unwrap();
            assert_eq!(found.code, plain.code, "round {round}");
            assert_eq!(found.graph_ids, plain.graph_ids);
            assert_eq!(found.sign, plain.sign);
            assert!((found.gain - plain.gain).abs() < 1e-12);
        }
    }
    for s in serial.iter().chain(&par) {
        let st = s.frontier_stats();
        assert!(st.bytes <= st.budget, "{st:?}");
        if st.budget == 0 {
            assert_eq!((st.entries, st.bytes, st.resumed), (0, 0, 0));
        }
    }
    serial.iter().map(StumpSearcher::frontier_stats).collect()
}

#[test]
fn stump_searcher_with_any_frontier_budget_equals_the_uncached_search() {
    let db = random_db(30, 91);
    let labels = signed_labels(&db, 9);
    let stats = check_stump_searchers(&db, &labels, &stumps_up_to_5_edges(), 15, 12345);
    let [none, tiny, small, default] = stats.try_into().unwrap();
    assert!(none.reembedded > 0, "{none:?}");
    // the tiny budget holds nothing, the small one evicts (it is smaller than the expanded nodes)
    assert_eq!((tiny.entries, tiny.resumed), (0, 0), "{tiny:?}");
    assert!(small.evicted > 0 && small.resumed > 0, "{small:?}");
    assert!(small.reembedded > 0, "{small:?}");
    // the default budget holds every expanded node: only one-edge frontier nodes (below the
    // root) are re-embedded
    assert!(default.resumed > 0 && default.evicted == 0, "{default:?}");
    assert!(default.reembedded < default.resumed, "{default:?}");
    assert!(default.reembedded < none.reembedded, "{default:?} {none:?}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(8))]

    /// On random small databases, every frontier budget and the parallel walk find the stump
    /// of the uncached search in every round, and fit the BCGD model of the uncached search.
    #[test]
    fn prop_frontier_budget_and_parallel_walk_change_no_model(
        seed in 1u64..10_000,
        n_graphs in 8usize..24,
        lambda1 in 0.005f64..0.05,
    ) {
        let db = random_db(n_graphs, seed);
        let labels = signed_labels(&db, seed);
        check_stump_searchers(&db, &labels, &StumpParams::new().max_size(Some(4)), 5, seed);
        let y = responses(&db, seed, true);
        let base = BcgdParams::new(lambda1).max_size(Some(4)).tol(1e-4).record_trace(true);
        let reference = fit(&db, &y, &Logistic, base.clone().cache(false));
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        for bytes in BUDGETS {
            let p = base.clone().cache_bytes(bytes);
            assert_same_fit(&reference, &fit(&db, &y, &Logistic, p.clone()));
            assert_same_fit(&reference, &pool.install(|| fit(&db, &y, &Logistic, p.parallel(Parallel::Auto))));
        }
    }
}

#[test]
fn equivalent_patterns_share_the_column() {
    let db = random_db(25, 9);
    let y = responses(&db, 1, true);
    let f = fit(
        &db,
        &y,
        &Logistic,
        BcgdParams::new(0.005).max_size(Some(4)).prune(false),
    );
    assert!(!f.features.is_empty());
    for feat in &f.features {
        let mut codes = vec![feat.code.clone()];
        codes.extend(feat.equivalents.iter().cloned());
        let found = match_patterns(&db, &codes, Parallel::Serial);
        for ids in found {
            assert_eq!(ids, feat.graph_ids);
        }
        assert!(feat.equivalents.iter().all(|c| *c > feat.code));
    }
}

#[test]
fn warm_started_path_matches_cold_starts() {
    let db = random_db(40, 21);
    let y = responses(&db, 2, true);
    let params = BcgdParams::new(1.0)
        .max_size(Some(4))
        .tol(1e-7)
        .max_iter(20000);
    let lambdas = [0.05, 0.02, 0.01, 0.005];
    let path = fit_bcgd_path(
        &db,
        &y,
        &Logistic,
        &params.clone().check().unwrap(),
        &lambdas,
        &RunControl::new(),
    )
    .unwrap();
    assert_eq!(path.len(), lambdas.len());
    let uncached = fit_bcgd_path(
        &db,
        &y,
        &Logistic,
        &params.clone().cache(false).check().unwrap(),
        &lambdas,
        &RunControl::new(),
    )
    .unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let parallel = pool
        .install(|| {
            fit_bcgd_path(
                &db,
                &y,
                &Logistic,
                &params.clone().parallel(Parallel::Auto).check().unwrap(),
                &lambdas,
                &RunControl::new(),
            )
        })
        .unwrap();
    let others = uncached.iter().chain(&parallel);
    for (a, b) in path.iter().cycle().zip(others) {
        assert_eq!(a.n_iter, b.n_iter);
        assert_eq!(a.features.len(), b.features.len());
        for (fa, fb) in a.features.iter().zip(&b.features) {
            assert_eq!(fa.graph_ids, fb.graph_ids);
            assert!((fa.coef - fb.coef).abs() < 1e-10);
        }
    }
    for (lam, warm) in lambdas.iter().zip(&path) {
        let cold = fit(&db, &y, &Logistic, params.clone().lambda1(*lam));
        assert!(
            warm.converged && cold.converged,
            "{lam}: {} {}",
            warm.n_iter,
            cold.n_iter
        );
        let (ow, oc) = (
            objective(&Logistic, &y, warm, *lam, 0.0),
            objective(&Logistic, &y, &cold, *lam, 0.0),
        );
        assert!((ow - oc).abs() <= 1e-6 * oc.abs(), "{lam}: {ow} vs {oc}");
        eprintln!(
            "lambda1 {lam}: warm {} iterations, cold {}",
            warm.n_iter, cold.n_iter
        );
    }
}

#[test]
fn budgets_stop_cleanly() {
    let db = random_db(40, 8);
    let y = responses(&db, 2, true);
    let f = fit(
        &db,
        &y,
        &Logistic,
        BcgdParams::new(0.002).max_nodes(Some(50)),
    );
    assert_eq!(f.truncation, Some(Truncation::MaxNodes));
    let cancel = RunControl::new();
    cancel.cancel();
    let g = fit_bcgd(
        &db,
        &y,
        &Logistic,
        &BcgdParams::new(0.002).check().unwrap(),
        None,
        &cancel,
    )
    .unwrap();
    assert_eq!(g.truncation, Some(Truncation::Cancelled));
    assert!(BcgdParams::new(-1.0).check().is_err());
    assert!(BcgdParams::new(0.1).lambda2(f64::NAN).check().is_err());
    assert!(
        fit_bcgd(
            &db,
            &y[1..],
            &Logistic,
            &BcgdParams::new(0.1).check().unwrap(),
            None,
            &RunControl::new()
        )
        .is_err()
    );
}

/// `±1` labels from [`responses`].
fn signed_labels(db: &GraphDatabase, seed: u64) -> Vec<f64> {
    responses(db, seed, true)
        .iter()
        .map(|&v| 2.0 * v - 1.0)
        .collect()
}

fn stumps_up_to_5_edges() -> StumpParams {
    StumpParams::new().max_size(Some(5))
}

#[test]
fn best_stump_equals_brute_force() {
    for seed in 0..6u64 {
        let db = random_db(30, 100 + seed);
        let labels = signed_labels(&db, seed);
        let weights: Vec<f64> = (0..db.len())
            .map(|i| 0.1 + ((i as u64 * 7 + seed) % 5) as f64)
            .collect();
        let all = mine_frequent(
            &db,
            &MinerParams::new().max_size(Some(5)).check().unwrap(),
            &RunControl::new(),
        )
        .unwrap();
        let total: f64 = weights.iter().zip(&labels).map(|(w, y)| w * y).sum();
        let mut best: Option<(f64, usize)> = None;
        for (k, p) in all.patterns.iter().enumerate() {
            let inside: f64 = p
                .graph_ids
                .iter()
                .map(|&i| weights[i as usize] * labels[i as usize])
                .sum();
            let g = (2.0 * inside - total).abs();
            if best.is_none_or(|(bg, _)| g > bg) {
                best = Some((g, k));
            }
        }
        let (bg, bk) = best.unwrap();
        let params = stumps_up_to_5_edges();
        let s = best_stump(
            &db,
            &weights,
            &labels,
            &params.clone().check().unwrap(),
            &RunControl::new(),
        )
        .unwrap();
        assert!((s.gain - bg).abs() < 1e-9);
        assert_eq!(s.code.as_ref(), Some(&all.patterns[bk].code));
        let unpruned = best_stump(
            &db,
            &weights,
            &labels,
            &params.clone().prune(false).check().unwrap(),
            &RunControl::new(),
        )
        .unwrap();
        assert_eq!(unpruned.code, s.code);
        assert!(s.visited <= unpruned.visited);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let par = pool
            .install(|| {
                best_stump(
                    &db,
                    &weights,
                    &labels,
                    &params.clone().parallel(Parallel::Auto).check().unwrap(),
                    &RunControl::new(),
                )
            })
            .unwrap();
        assert_eq!(par.code, s.code);
    }
}

#[test]
fn matcher_agrees_with_gspan_occurrences() {
    let db = random_db(30, 77);
    let all = mine_frequent(
        &db,
        &MinerParams::new().max_size(Some(4)).check().unwrap(),
        &RunControl::new(),
    )
    .unwrap();
    let codes: Vec<_> = all.patterns.iter().map(|p| p.code.clone()).collect();
    let serial = match_patterns(&db, &codes, Parallel::Serial);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let par = pool.install(|| match_patterns(&db, &codes, Parallel::Threshold(0)));
    assert_eq!(serial, par);
    for (p, ids) in all.patterns.iter().zip(&serial) {
        assert_eq!(&p.graph_ids, ids, "{:?}", p.code);
    }
}

#[test]
fn adaboost_with_cache_picks_the_brute_force_best_stump_each_round() {
    let db = random_db(30, 55);
    let labels = signed_labels(&db, 4);
    let params = stumps_up_to_5_edges();
    let fit = adaboost(
        &db,
        &labels,
        12,
        &params.clone().check().unwrap(),
        &RunControl::new(),
    )
    .unwrap();
    assert!(fit.stumps.len() >= 5);
    let all = mine_frequent(
        &db,
        &MinerParams::new().max_size(Some(5)).check().unwrap(),
        &RunControl::new(),
    )
    .unwrap();
    let n = db.len();
    let mut w = vec![1.0 / n as f64; n];
    for (t, s) in fit.stumps.iter().enumerate() {
        // the uncached search under the same weights finds the same stump
        let plain = best_stump(
            &db,
            &w,
            &labels,
            &params.clone().check().unwrap(),
            &RunControl::new(),
        )
        .unwrap();
        assert_eq!(plain.code.as_ref(), Some(&s.code), "round {t}");
        assert_eq!(plain.sign, s.sign);
        let total: f64 = w.iter().zip(&labels).map(|(a, b)| a * b).sum();
        let best = all
            .patterns
            .iter()
            .map(|p| {
                let inside: f64 = p
                    .graph_ids
                    .iter()
                    .map(|&i| w[i as usize] * labels[i as usize])
                    .sum();
                (2.0 * inside - total).abs()
            })
            .fold(0.0, f64::max);
        let h = |i: usize| {
            if s.graph_ids.contains(&(i as u32)) {
                s.sign
            } else {
                -s.sign
            }
        };
        let gain: f64 = (0..n).map(|i| w[i] * labels[i] * h(i)).sum();
        assert!((gain - best).abs() < 1e-12, "round {t}: {gain} vs {best}");
        let err: f64 = (0..n).filter(|&i| h(i) != labels[i]).map(|i| w[i]).sum();
        assert!((s.weight - 0.5 * ((1.0 - err) / err).ln()).abs() < 1e-9);
        for i in 0..n {
            w[i] *= (-s.weight * labels[i] * h(i)).exp();
        }
        let z: f64 = w.iter().sum();
        w.iter_mut().for_each(|x| *x /= z);
    }
    // later rounds evaluate nodes from the cache: the visited counts stay bounded by the tree
    assert!(
        fit.visited
            .iter()
            .all(|&v| v as usize <= all.patterns.len())
    );
}

#[test]
fn stump_searcher_equals_uncached_search_under_changing_sparse_weights() {
    let db = random_db(30, 91);
    let labels = signed_labels(&db, 9);
    let params = stumps_up_to_5_edges();
    let cancel = RunControl::new();
    let mut searcher = StumpSearcher::new(&db, &params.clone().check().unwrap());
    // the same searches with the first one (the cache fill) run on two threads
    let mut par_searcher = StumpSearcher::new(
        &db,
        &params.clone().parallel(Parallel::Auto).check().unwrap(),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut state = 12345u64;
    let mut grown = Vec::new();
    for round in 0..15 {
        // LPBoost-like weights: many exact zeros and many ties
        let weights: Vec<f64> = (0..db.len())
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                match (state >> 33) % 4 {
                    0 | 1 => 0.0,
                    2 => 0.5,
                    _ => ((state >> 40) % 7) as f64 / 7.0,
                }
            })
            .collect();
        let plain = best_stump(
            &db,
            &weights,
            &labels,
            &params.clone().check().unwrap(),
            &cancel,
        )
        .unwrap();
        let cached = searcher.search(&db, &weights, &labels, &cancel).unwrap();
        let par = pool
            .install(|| par_searcher.search(&db, &weights, &labels, &cancel))
            .unwrap();
        for found in [&cached, &par] {
            assert_eq!(found.code, plain.code, "round {round}");
            assert_eq!(found.graph_ids, plain.graph_ids);
            assert_eq!(found.sign, plain.sign);
            assert!((found.gain - plain.gain).abs() < 1e-12);
        }
        grown.push(searcher.cached_nodes());
    }
    assert!(grown.windows(2).all(|w| w[0] <= w[1]));
    let other = random_db(31, 92);
    let w = vec![1.0; other.len()];
    let l = vec![1.0; other.len()];
    assert!(searcher.search(&other, &w, &l, &cancel).is_err());
    let bad = vec![f64::NAN; db.len()];
    assert!(searcher.search(&db, &bad, &labels, &cancel).is_err());
}

// ---- safe pattern pruning and the duality gap --------------------------------------------------

/// `(P, D, gap)` of a fit computed from the explicit columns: the dual point of the crate docs
/// (`θ̃` balanced, `s = min(1, λ1 / M)`, `ξ = s λ2 β`) with `M` maxed over every column.
fn explicit_gap(
    cols: &[Vec<u32>],
    y: &[f64],
    loss: &dyn Loss,
    fit: &BcgdFit,
    lam1: f64,
    lam2: f64,
) -> (f64, f64, f64) {
    let n = y.len();
    let nf = n as f64;
    let mu = fit.decision_function(n);
    let g1: Vec<f64> = (0..n).map(|i| loss.d1(y[i], mu[i]) / nf).collect();
    let pos: f64 = g1.iter().filter(|v| **v > 0.0).sum();
    let neg: f64 = -g1.iter().filter(|v| **v < 0.0).sum::<f64>();
    let (ap, an) = if pos > neg && pos > 0.0 {
        (neg / pos, 1.0)
    } else if neg > pos && neg > 0.0 {
        (1.0, pos / neg)
    } else {
        (1.0, 1.0)
    };
    let tt: Vec<f64> = g1
        .iter()
        .map(|&v| v * if v > 0.0 { ap } else { an })
        .collect();
    let beta = |col: &Vec<u32>| {
        fit.features
            .iter()
            .find(|f| &f.graph_ids == col)
            .map_or(0.0, |f| f.coef)
    };
    let m = cols
        .iter()
        .map(|c| (c.iter().map(|&i| tt[i as usize]).sum::<f64>() + lam2 * beta(c)).abs())
        .fold(0.0, f64::max);
    let s = if m <= lam1 { 1.0 } else { lam1 / m };
    let l2: f64 = fit.features.iter().map(|f| f.coef * f.coef).sum();
    let l1: f64 = fit.features.iter().map(|f| f.coef.abs()).sum();
    let primal =
        (0..n).map(|i| loss.value(y[i], mu[i])).sum::<f64>() / nf + lam1 * l1 + 0.5 * lam2 * l2;
    let conj: f64 = (0..n)
        .map(|i| loss.conjugate(y[i], s * nf * tt[i]))
        .sum::<f64>()
        / nf;
    let dual = -conj - 0.5 * lam2 * s * s * l2;
    (primal, dual, primal - dual)
}

#[test]
fn reported_gap_equals_the_explicit_computation() {
    let cases: [(&dyn Loss, bool, f64, f64); 4] = [
        (&Logistic, true, 0.01, 0.0),
        (&Logistic, true, 0.02, 0.05),
        (&Squared, false, 0.02, 0.0),
        (&Squared, false, 0.01, 0.1),
    ];
    for (k, (loss, binary, lam1, lam2)) in cases.into_iter().enumerate() {
        let db = random_db(30, 40 + k as u64);
        let y = responses(&db, k as u64, binary);
        let cols = columns(&db, 3);
        let base = BcgdParams::new(lam1)
            .lambda2(lam2)
            .max_size(Some(3))
            .tol(1e-7);
        for max_iter in [2, 5, 50_000] {
            let params = base.clone().max_iter(max_iter);
            // no pruning: the search's bound U is the exact maximum over the columns
            let exact = fit(&db, &y, loss, params.clone().prune(false).screening(false));
            let (p, d, gap) = explicit_gap(&cols, &y, loss, &exact, lam1, lam2);
            assert!(gap >= -1e-12, "case {k}: P {p} D {d}");
            assert!(
                (exact.duality_gap - gap.max(0.0)).abs() <= 1e-10 * (1.0 + p.abs()),
                "case {k} max_iter {max_iter}: {} vs {gap}",
                exact.duality_gap
            );
            if exact.converged {
                assert_eq!(exact.history.last().unwrap().duality_gap, exact.duality_gap);
            }
            // with the pruning rules the bound is looser: the gap can only grow
            for screening in [false, true] {
                let f = fit(&db, &y, loss, params.clone().screening(screening));
                let (_, _, g) = explicit_gap(&cols, &y, loss, &f, lam1, lam2);
                assert!(
                    f.duality_gap >= g - 1e-10,
                    "case {k}: {} < {g}",
                    f.duality_gap
                );
                if max_iter > 5 {
                    assert!(f.converged);
                    assert!(f.duality_gap < 1e-4, "case {k}: gap {}", f.duality_gap);
                }
            }
        }
        // a budget that stops the fit leaves no certified gap
        let cut = fit(&db, &y, loss, base.clone().max_nodes(Some(3)));
        assert!(cut.truncation.is_some() && cut.duality_gap == f64::INFINITY);
    }
}

/// Objective of the explicit-matrix reference after `max_iter` iterations from zero.
fn explicit_objective(
    cols: &[Vec<u32>],
    y: &[f64],
    loss: &dyn Loss,
    lam1: f64,
    lam2: f64,
) -> (f64, Vec<f64>) {
    let (steps, conv) = explicit_bcgd(cols, y, loss, lam1, lam2, 1e-7, 100_000);
    assert!(conv, "reference did not converge");
    let last = steps.last().expect("at least one step");
    let n = y.len();
    let mut mu = vec![last.intercept; n];
    for (c, b) in cols.iter().zip(&last.coefs) {
        for &i in c {
            mu[i as usize] += b;
        }
    }
    let obj = (0..n).map(|i| loss.value(y[i], mu[i])).sum::<f64>() / n as f64
        + lam1 * last.coefs.iter().map(|b| b.abs()).sum::<f64>()
        + 0.5 * lam2 * last.coefs.iter().map(|b| b * b).sum::<f64>();
    (obj, mu)
}

fn check_screened_path(seed: u64, n_graphs: usize, logistic: bool, lam2: f64) -> (u64, u64) {
    let db = random_db(n_graphs, seed);
    let y = responses(&db, seed, logistic);
    let loss: &dyn Loss = if logistic { &Logistic } else { &Squared };
    let cols = columns(&db, 3);
    let lambdas = [0.08, 0.04, 0.02, 0.01, 0.005];
    let params = BcgdParams::new(1.0)
        .lambda2(lam2)
        .max_size(Some(3))
        .tol(1e-7)
        .max_iter(50_000);
    let run = |p: BcgdParams| {
        fit_bcgd_path(
            &db,
            &y,
            loss,
            &p.check().unwrap(),
            &lambdas,
            &RunControl::new(),
        )
        .unwrap()
    };
    let spp = run(params.clone());
    let thm11 = run(params.clone().screening(false));
    // the screened path without working sets (a search of the whole tree every iteration),
    // and with them on 3 threads
    let plain = run(params.clone().working_set(false));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let par = pool.install(|| run(params.clone().parallel(Parallel::Auto)));
    let (mut by_spp, mut by_bound) = (0, 0);
    for (k, &lam) in lambdas.iter().enumerate() {
        let (a, b) = (&spp[k], &thm11[k]);
        assert!(
            a.converged && b.converged,
            "seed {seed} lambda {lam}: {} {} {} {}",
            a.converged,
            a.n_iter,
            b.converged,
            b.n_iter
        );
        let (ref_obj, ref_mu) = explicit_objective(&cols, &y, loss, lam, lam2);
        let oa = objective(loss, &y, a, lam, lam2);
        let ob = objective(loss, &y, b, lam, lam2);
        let scale = 1e-8 * (1.0 + ref_obj.abs());
        assert!(
            (oa - ref_obj).abs() <= scale,
            "seed {seed} lambda {lam}: {oa} vs {ref_obj}"
        );
        assert!(
            (ob - ref_obj).abs() <= scale,
            "seed {seed} lambda {lam}: {ob} vs {ref_obj}"
        );
        // the losses are strictly convex in μ, so the optimal μ is unique
        for (fit_mu, name) in [
            (a.decision_function(y.len()), "spp"),
            (b.decision_function(y.len()), "thm11"),
        ] {
            for (u, v) in fit_mu.iter().zip(&ref_mu) {
                assert!(
                    (u - v).abs() <= 1e-3,
                    "seed {seed} lambda {lam} {name}: {u} vs {v}"
                );
            }
        }
        // the gap bounds the suboptimality and vanishes at convergence
        for f in [a, b] {
            let o = objective(loss, &y, f, lam, lam2);
            assert!(f.duality_gap >= 0.0 && f.duality_gap >= o - ref_obj - 1e-12);
            assert!(
                f.duality_gap < 1e-5,
                "seed {seed} lambda {lam}: gap {}",
                f.duality_gap
            );
            assert!(f.history.iter().all(|h| h.duality_gap >= 0.0));
        }
        assert_eq!(b.pruned_by_spp(), 0);
        // working sets: certified by a final search of the whole tree, the same model as
        // the plain screened path (the same support where the optimum is unique: λ2 > 0)
        // and the same fit whatever the thread count
        let c = &plain[k];
        assert!(c.converged && c.history.iter().all(|h| h.full_search));
        assert!(a.history.last().unwrap().full_search);
        assert!(
            a.history
                .iter()
                .filter(|h| !h.full_search)
                .all(|h| h.visited == 0 && h.duality_gap == f64::INFINITY)
        );
        assert!(a.full_searches() <= a.history.len() as u64 + a.path_history.len() as u64);
        let oc = objective(loss, &y, c, lam, lam2);
        assert!(
            (oa - oc).abs() <= a.duality_gap.max(c.duality_gap) + 1e-12,
            "seed {seed} lambda {lam}: {oa} vs {oc}"
        );
        if lam2 > 0.0 {
            let support = |f: &BcgdFit| {
                let mut s: Vec<Vec<u32>> = f.features.iter().map(|f| f.graph_ids.clone()).collect();
                s.sort();
                s
            };
            assert_eq!(support(a), support(c), "seed {seed} lambda {lam}");
        }
        assert_same_fit(a, &par[k]);
        by_spp += a.pruned_by_spp();
        by_bound += a.pruned_by_bound();
    }
    (by_spp, by_bound)
}

#[test]
fn screened_path_equals_theorem11_path_and_explicit_reference() {
    let (mut by_spp, mut by_bound) = (0, 0);
    for (seed, logistic, lam2) in [
        (3, true, 0.0),
        (4, false, 0.0),
        (5, true, 0.05),
        (6, false, 0.1),
    ] {
        let (s, b) = check_screened_path(seed, 30, logistic, lam2);
        by_spp += s;
        by_bound += b;
    }
    // both rules are at work on these paths
    assert!(by_spp > 0 && by_bound > 0, "{by_spp} {by_bound}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(6))]
    #[test]
    fn prop_screening_never_prunes_an_active_pattern(
        seed in 1u64..10_000,
        n_graphs in 12usize..28,
        logistic in proptest::bool::ANY,
        ridge in proptest::bool::ANY,
    ) {
        check_screened_path(seed, n_graphs, logistic, if ridge { 0.05 } else { 0.0 });
    }
}
