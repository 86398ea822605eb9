//! The solver against brute-force references on the explicit lattice of a few propositions
//! (spec §10): `K_u`, weak duality sandwiches that certify the active set reached the
//! full-lattice optimum, ℓ1-MKL on a flat DAG, HKL at `ρ = 2`, gradients against finite
//! differences, gHKL-MT, determinism and thread-count independence, budgets and the cache.

#![allow(clippy::needless_range_loop)]

mod common;

use common::{Lattice, Loss as RefLoss, lower_bound, primal_brute, random_problem, task_kernel};
use graphsparse_base::{Budget, RunControl, Truncation};
use graphsparse_lattice::{
    Check, Dag, GhklFit, GhklParams, Loss, Parallel, TaskCoupling, evaluate_dual, fit, fit_path,
    kernel_ku, kernel_ku_child, solve_dag, zeta,
};
use proptest::prelude::*;

/// Node weights of a fitted model on the explicit lattice (node-major `n × T`).
fn weights_on_lattice(lat: &Lattice, model: &GhklFit) -> Vec<f64> {
    let nt = model.tasks;
    let mut f = vec![0.0; lat.n() * nt];
    for r in &model.rules {
        let w = lat.node(&r.props);
        f[w * nt..(w + 1) * nt].copy_from_slice(&r.weights);
    }
    f
}

fn tight(rho: f64, c: f64) -> GhklParams {
    GhklParams::new()
        .rho(rho)
        .c(c)
        .tol(1e-4)
        .eps_sm(1e-6)
        .md_max_iter(2000)
        .md_tol(1e-7)
        .mkl_tol(1e-8)
        .mkl_max_iter(2000)
        .svm_tol(1e-8)
        .rule_threshold(0.0)
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / a.abs().max(b.abs()).max(1.0)
}

/// One sandwich check: the fitted model's primal (evaluated node by node over all `2^p`
/// nodes) and a lower bound from its `α` (computed from scratch) must be close, and both
/// must agree with Algorithm 2 run on the full lattice.
#[allow(clippy::too_many_arguments)]
fn sandwich(
    x: &[bool],
    m: usize,
    p: usize,
    y: &[f64],
    tasks: usize,
    params: GhklParams,
    rho: f64,
    c: f64,
    loss: Loss,
    coupling: f64,
) -> (f64, f64) {
    let lat = Lattice::new(x, m, p, 2.0);
    let xm = Lattice::matrix(x, m, p);
    let valid = params.check().unwrap();
    let model = fit(&valid, &xm, y, tasks, &RunControl::new()).unwrap();
    assert!(model.converged, "{model:?}");
    let full = solve_dag(&valid, &lat.dag, y, tasks, &RunControl::new()).unwrap();
    let (b, binv) = task_kernel(tasks, coupling);
    let rl = if loss == Loss::Hinge {
        RefLoss::Hinge
    } else {
        RefLoss::Squared
    };
    let f = weights_on_lattice(&lat, &model);
    let p_model = primal_brute(&lat, &f, tasks, &binv, rho, c, rl, y);
    let lb = lower_bound(
        &lat,
        model.dual_coef(),
        y,
        tasks,
        &b,
        rho,
        c,
        rl,
        &full.eta,
        300,
    );
    let p_full = primal_brute(&lat, &full.weights, tasks, &binv, rho, c, rl, y);
    // the crate's own primal is the brute-force one (with its optimal biases)
    assert!(
        rel(model.primal, p_model) < 1e-9,
        "primal {} vs brute {p_model}",
        model.primal
    );
    assert!(
        rel(full.primal, p_full) < 1e-9,
        "full primal {} vs brute {p_full}",
        full.primal
    );
    // weak duality across independent solutions: every lower bound below every primal
    let slack = 1e-9 * p_model.abs().max(1.0);
    assert!(
        lb <= p_model + slack && lb <= p_full + slack,
        "lb {lb} p {p_model} {p_full}"
    );
    assert!(
        model.dual <= p_full + slack,
        "dual {} > full primal {p_full}",
        model.dual
    );
    assert!(
        full.dual <= p_model + slack,
        "full dual {} > primal {p_model}",
        full.dual
    );
    // the active set is optimal for the whole lattice
    let gap = (p_model - lb) / p_model.abs().max(1.0);
    assert!(
        gap < 2e-4,
        "certified relative gap {gap}: p {p_model} lb {lb} (rho {rho}, C {c})"
    );
    assert!(
        rel(p_model, p_full) < 5e-4,
        "active set {p_model} vs full lattice {p_full}"
    );
    (p_model, lb)
}

#[test]
fn active_set_reaches_the_full_lattice_optimum_hinge() {
    for (seed, rho, c) in [
        (1, 2.0, 1.0),
        (2, 1.5, 1.0),
        (3, 1.1, 1.0),
        (4, 2.0, 10.0),
        (5, 1.5, 10.0),
        (6, 1.1, 10.0),
    ] {
        let (m, p) = (24, 5);
        let (x, y) = random_problem(seed, m, p);
        sandwich(&x, m, p, &y, 1, tight(rho, c), rho, c, Loss::Hinge, 0.0);
    }
}

#[test]
fn active_set_reaches_the_full_lattice_optimum_squared() {
    for (seed, rho, c) in [(11, 2.0, 1.0), (12, 1.5, 3.0), (13, 1.1, 0.5)] {
        let (m, p) = (20, 4);
        let (x, y) = random_problem(seed, m, p);
        let y: Vec<f64> = y
            .iter()
            .enumerate()
            .map(|(i, v)| v + 0.1 * (i as f64).sin())
            .collect();
        let params = tight(rho, c).loss(Loss::Squared);
        sandwich(&x, m, p, &y, 1, params, rho, c, Loss::Squared, 0.0);
    }
}

#[test]
fn multitask_reaches_the_full_lattice_optimum() {
    for (seed, rho, mu) in [(21, 1.5, None), (22, 2.0, Some(0.7)), (23, 1.1, Some(0.7))] {
        let (m, p) = (16, 4);
        let (x, y1) = random_problem(seed, m, p);
        let (_, y2) = random_problem(seed + 100, m, p);
        let y: Vec<f64> = y1.iter().chain(&y2).copied().collect();
        let coupling = match mu {
            None => TaskCoupling::Independent,
            Some(mu) => TaskCoupling::MeanRegularized { mu },
        };
        let c_b = mu.map_or(0.0, |mu| 1.0 / mu);
        let params = tight(rho, 2.0).coupling(coupling);
        sandwich(&x, m, p, &y, 2, params, rho, 2.0, Loss::Hinge, c_b);
    }
}

#[test]
fn identical_tasks_double_the_single_task_objective() {
    let (m, p) = (20, 4);
    let (x, y) = random_problem(31, m, p);
    let xm = Lattice::matrix(&x, m, p);
    let single = fit(
        &tight(1.5, 1.0).check().unwrap(),
        &xm,
        &y,
        1,
        &RunControl::new(),
    )
    .unwrap();
    let yy: Vec<f64> = y.iter().chain(&y).copied().collect();
    let double = fit(
        &tight(1.5, 1.0).check().unwrap(),
        &xm,
        &yy,
        2,
        &RunControl::new(),
    )
    .unwrap();
    // Q_w = √2 |f_w| and the loss doubles: the objective is twice gHKL's, same weights
    assert!(
        rel(double.primal, 2.0 * single.primal) < 2e-3,
        "{} {}",
        double.primal,
        single.primal
    );
    let fs = single.decision_function(&xm).unwrap();
    let fd = double.decision_function(&xm).unwrap();
    for i in 0..m {
        assert!(
            (fd[2 * i] - fs[i]).abs() < 2e-2 * (1.0 + fs[i].abs()),
            "{i}"
        );
        assert_eq!(fd[2 * i].to_bits(), fd[2 * i + 1].to_bits());
    }
}

#[test]
fn flat_dag_is_l1_mkl_for_every_rho() {
    // no edges: min_η g = max_α 1ᵀα − ½ max_w M_w / d_w², whatever ρ
    let (m, p) = (18, 5);
    let (x, y) = random_problem(41, m, p);
    let covers: Vec<Vec<u32>> = (0..p)
        .map(|j| (0..m as u32).filter(|&i| x[i as usize * p + j]).collect())
        .collect();
    let d: Vec<f64> = (0..p).map(|j| 1.0 + j as f64 * 0.25).collect();
    let dag = Dag::new(m, &covers, &vec![vec![]; p], &d).unwrap();
    let mut values = Vec::new();
    for rho in [2.0, 1.5, 1.1] {
        let sol = solve_dag(
            &tight(rho, 1.0).check().unwrap(),
            &dag,
            &y,
            1,
            &RunControl::new(),
        )
        .unwrap();
        // primal: ½ (Σ d_w |f_w|)² + C Σ hinge, evaluated here
        let omega: f64 = sol.weights.iter().zip(&d).map(|(f, d)| d * f.abs()).sum();
        let s: Vec<f64> = (0..m)
            .map(|i| {
                (0..p)
                    .filter(|&j| x[i * p + j])
                    .map(|j| sol.weights[j])
                    .sum()
            })
            .collect();
        let loss: f64 = (0..m)
            .map(|i| (1.0 - y[i] * (s[i] - sol.bias[0])).max(0.0))
            .sum();
        let primal = 0.5 * omega * omega + loss;
        let beta: Vec<f64> = y.iter().zip(&sol.alpha).map(|(y, a)| y * a).collect();
        let o = covers
            .iter()
            .zip(&d)
            .map(|(c, d)| {
                let pr: f64 = c.iter().map(|&i| beta[i as usize]).sum();
                pr * pr / (d * d)
            })
            .fold(0.0f64, f64::max);
        let lower = sol.alpha.iter().sum::<f64>() - 0.5 * o;
        assert!(
            lower <= primal + 1e-9 && (primal - lower) / primal.max(1.0) < 2e-3,
            "rho {rho}: {primal} {lower}"
        );
        values.push(primal);
    }
    assert!(
        rel(values[0], values[1]) < 3e-3 && rel(values[0], values[2]) < 3e-3,
        "{values:?}"
    );
}

#[test]
fn zeta_matches_its_definition_and_hkl_at_rho_two() {
    let (m, p) = (10, 3);
    let (x, _) = random_problem(51, m, p);
    let lat = Lattice::new(&x, m, p, 2.0);
    let mut rng = graphsparse_base::SplitMix64::new(7);
    let eta: Vec<f64> = (0..lat.n()).map(|_| 0.05 + rng.uniform()).collect();
    for rho in [2.0, 1.5, 1.1] {
        let z = zeta(&lat.dag, &eta, rho).unwrap();
        for w in 0..lat.n() {
            let s: f64 = (0..lat.n())
                .filter(|&v| lat.below(v, w))
                .map(|v| lat.d[v].powf(rho) * eta[v].powf(1.0 - rho))
                .sum();
            assert!(rel(z[w], s.powf(1.0 / (1.0 - rho))) < 1e-12);
            if rho == 2.0 {
                let inv: f64 = (0..lat.n())
                    .filter(|&v| lat.below(v, w))
                    .map(|v| lat.d[v] * lat.d[v] / eta[v])
                    .sum();
                assert!(rel(z[w], 1.0 / inv) < 1e-12);
            }
            // ζ_w ≤ ζ_v for w ∈ D(v)
            for v in 0..lat.n() {
                if lat.below(v, w) {
                    assert!(z[w] <= z[v] * (1.0 + 1e-12));
                }
            }
        }
        // positively 1-homogeneous
        let e3: Vec<f64> = eta.iter().map(|e| 3.0 * e).collect();
        let z3 = zeta(&lat.dag, &e3, rho).unwrap();
        assert!(z.iter().zip(&z3).all(|(a, b)| rel(3.0 * a, *b) < 1e-12));
        // a zero η on an ancestor gives ζ = 0 below it
        let mut e0 = eta.clone();
        e0[1] = 0.0;
        let z0 = zeta(&lat.dag, &e0, rho).unwrap();
        for w in 0..lat.n() {
            if lat.below(1, w) {
                assert_eq!(z0[w], 0.0);
            }
        }
    }
}

#[test]
fn gradient_matches_central_differences() {
    let (m, p) = (14, 3);
    let (x, y) = random_problem(61, m, p);
    let lat = Lattice::new(&x, m, p, 2.0);
    let mut rng = graphsparse_base::SplitMix64::new(9);
    for rho in [2.0, 1.5] {
        let params = tight(rho, 1.0).eps_sm(1e-2).check().unwrap();
        let eta: Vec<f64> = (0..lat.n()).map(|_| 0.2 + rng.uniform()).collect();
        let s: f64 = eta.iter().sum();
        let eta: Vec<f64> = eta.iter().map(|e| e / s).collect();
        let ev = evaluate_dual(&params, &lat.dag, &y, 1, &eta).unwrap();
        assert!(ev.gradient.iter().all(|&g| g <= 0.0));
        let h = 1e-5;
        // directions e_i − e_j keep Σ η fixed, so no normalisation enters the difference
        for (i, j) in [(1, 0), (3, 2), (7, 4), (5, 6)] {
            let mut up = eta.clone();
            let mut dn = eta.clone();
            up[i] += h;
            up[j] -= h;
            dn[i] -= h;
            dn[j] += h;
            let gu = evaluate_dual(&params, &lat.dag, &y, 1, &up).unwrap().value;
            let gd = evaluate_dual(&params, &lat.dag, &y, 1, &dn).unwrap().value;
            let fd = (gu - gd) / (2.0 * h);
            let an = ev.gradient[i] - ev.gradient[j];
            assert!(
                (fd - an).abs() <= 1e-4 * (1.0 + an.abs()),
                "rho {rho} ({i},{j}): fd {fd} vs {an}"
            );
        }
    }
}

/// Along an increasing `C` path a converged hinge fit is kept without another solve when its
/// gap at the larger `C` is still certified; the kept fits must really be that close to the
/// full-lattice optimum at their own `C`.
#[test]
fn path_keeps_only_fits_certified_at_the_larger_c() {
    for (m, p, seed) in [(32, 5, 0u64), (40, 6, 91), (48, 6, 92)] {
        let (x, y) = if seed == 0 {
            // y = +1 exactly when propositions 0 and 1 hold: separable by one conjunction
            let x: Vec<bool> = (0..m)
                .flat_map(|i| (0..p).map(move |j| (i >> j) & 1 == 1))
                .collect();
            let y: Vec<f64> = (0..m)
                .map(|i| if i & 3 == 3 { 1.0 } else { -1.0 })
                .collect();
            (x, y)
        } else {
            random_problem(seed, m, p)
        };
        let lat = Lattice::new(&x, m, p, 2.0);
        let xm = Lattice::matrix(&x, m, p);
        let cs = [0.1, 1.0, 10.0, 100.0, 1000.0];
        let path = fit_path(
            &tight(1.5, 1.0).check().unwrap(),
            &xm,
            &y,
            1,
            &cs,
            &RunControl::new(),
        )
        .unwrap();
        if seed == 0 {
            assert!(
                path.iter().any(|f| f.n_rounds == 0),
                "separable: nothing kept"
            );
        }
        let (_, binv) = task_kernel(1, 0.0);
        for (fit, &c) in path.iter().zip(&cs) {
            assert_eq!(fit.c, c);
            let f = weights_on_lattice(&lat, fit);
            let p_fit = primal_brute(&lat, &f, 1, &binv, 1.5, c, RefLoss::Hinge, &y);
            assert!(
                rel(fit.primal, p_fit) < 1e-9,
                "C {c}: primal {} vs {p_fit}",
                fit.primal
            );
            let full = solve_dag(
                &tight(1.5, c).check().unwrap(),
                &lat.dag,
                &y,
                1,
                &RunControl::new(),
            )
            .unwrap();
            let slack = 1e-7 * p_fit.abs().max(1.0);
            assert!(
                fit.dual <= full.primal + slack,
                "C {c}: dual {} > optimum {}",
                fit.dual,
                full.primal
            );
            assert!(
                p_fit - full.primal <= fit.gap + slack,
                "C {c}: suboptimality {} beyond the certified gap {}",
                p_fit - full.primal,
                fit.gap
            );
            if fit.n_rounds == 0 {
                assert!(
                    fit.gap <= 1e-4 * fit.primal.max(1.0),
                    "C {c}: kept with gap {}",
                    fit.gap
                );
            }
        }
    }
}

#[test]
fn results_do_not_depend_on_threads_or_runs() {
    let (m, p) = (60, 12);
    let (x, y1) = random_problem(71, m, p);
    let (_, y2) = random_problem(72, m, p);
    let (_, y3) = random_problem(73, m, p);
    let y: Vec<f64> = y1.iter().chain(&y2).chain(&y3).copied().collect();
    let xm = Lattice::matrix(&x, m, p);
    let run = |parallel: Parallel, threads: usize| {
        let params = GhklParams::new().c(5.0).parallel(parallel).check().unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| fit_path(&params, &xm, &y, 3, &[0.5, 5.0], &RunControl::new()).unwrap())
    };
    let base = run(Parallel::Serial, 1);
    let forced = Parallel::Threshold(0);
    for (par, th) in [(Parallel::Serial, 1), (forced, 1), (forced, 2), (forced, 3)] {
        let other = run(par, th);
        for (a, b) in base.iter().zip(&other) {
            assert_eq!(a.rules, b.rules);
            assert_eq!(a.bias, b.bias);
            assert_eq!(a.gap.to_bits(), b.gap.to_bits());
            assert_eq!(a.dual_coef(), b.dual_coef());
        }
    }
}

#[test]
fn budgets_truncate_and_cancellation_stops() {
    let (m, p) = (40, 10);
    let (x, y) = random_problem(81, m, p);
    let xm = Lattice::matrix(&x, m, p);
    let capped = GhklParams::new()
        .c(10.0)
        .budget(Budget::new().max_nodes(Some(2)))
        .check()
        .unwrap();
    let f = fit(&capped, &xm, &y, 1, &RunControl::new()).unwrap();
    assert_eq!(f.truncation, Some(Truncation::MaxNodes));
    assert!(!f.converged && f.active_set_size <= 3);
    assert!(f.gap.is_finite() && f.gap >= 0.0 && f.dual <= f.primal);
    let full = fit(
        &GhklParams::new().c(10.0).check().unwrap(),
        &xm,
        &y,
        1,
        &RunControl::new(),
    )
    .unwrap();
    assert!(full.converged && full.truncation.is_none());
    assert!(f.dual <= full.primal + 1e-9 && full.dual <= f.primal + 1e-9);
    let ctl = RunControl::new();
    ctl.cancel();
    let c = fit(&GhklParams::new().check().unwrap(), &xm, &y, 1, &ctl).unwrap();
    assert_eq!(c.truncation, Some(Truncation::Cancelled));
    assert!(!c.converged);
    let timed = GhklParams::new()
        .budget(Budget::new().time_limit(Some(std::time::Duration::ZERO)))
        .check()
        .unwrap();
    let t = fit(&timed, &xm, &y, 1, &RunControl::new()).unwrap();
    assert_eq!(t.truncation, Some(Truncation::TimeLimit));
}

#[test]
fn kernel_cache_stays_within_its_budget_and_changes_nothing() {
    let (m, p) = (80, 14);
    let (x, y) = random_problem(91, m, p);
    let xm = Lattice::matrix(&x, m, p);
    let run = |bytes: usize| {
        let params = GhklParams::new()
            .c(10.0)
            .kernel_cache_bytes(bytes)
            .check()
            .unwrap();
        fit(&params, &xm, &y, 1, &RunControl::new()).unwrap()
    };
    let big = run(64 << 20);
    assert!(big.cache.peak_bytes <= big.cache.budget_bytes && big.cache.entrywise > 0);
    for bytes in [0, 4096, 60_000, 210_000] {
        let small = run(bytes);
        assert!(small.cache.peak_bytes <= bytes, "{:?}", small.cache);
        // G = q^N takes m² · 8 = 51 200 bytes: blocks below four times that, G above
        assert_eq!(
            small.cache.entrywise > 0,
            bytes >= 4 * 51_200,
            "{:?}",
            small.cache
        );
        assert_eq!(small.rules.len(), big.rules.len());
        for (a, b) in small.rules.iter().zip(&big.rules) {
            assert_eq!(a.props, b.props);
            assert!((a.weights[0] - b.weights[0]).abs() <= 1e-9 * (1.0 + a.weights[0].abs()));
        }
        assert!(rel(small.primal, big.primal) < 1e-9);
    }
    let tiny = run(60_000);
    assert!(tiny.cache.evictions > 0, "{:?}", tiny.cache);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// `K_u` by the closed form and by the parent → child update equal brute force over
    /// `D(u)`, for every node `u`.
    #[test]
    fn prop_ku_closed_form_and_update_equal_brute_force(
        seed in 0u64..1_000_000,
        m in 1usize..7,
        p in 1usize..5,
        a in prop::sample::select(vec![0.5, 1.0, 1.7, 2.0, 3.0]),
    ) {
        let mut rng = graphsparse_base::SplitMix64::new(seed);
        let x: Vec<bool> = (0..m * p).map(|_| rng.uniform() < 0.6).collect();
        let lat = Lattice::new(&x, m, p, a);
        let xm = Lattice::matrix(&x, m, p);
        for u in 0..lat.n() {
            let props: Vec<u32> = (0..p as u32).filter(|&j| lat.masks[u] >> j & 1 == 1).collect();
            let brute = lat.ku_brute(u);
            let closed = kernel_ku(&xm, &props, a).unwrap();
            for (b, c) in brute.iter().zip(&closed) {
                prop_assert!((b - c).abs() <= 1e-12 * (1.0 + b.abs()), "{b} vs {c}");
            }
            for &e in &props {
                let parent: Vec<u32> = props.iter().copied().filter(|&q| q != e).collect();
                let kp = kernel_ku(&xm, &parent, a).unwrap();
                let child = kernel_ku_child(&xm, &kp, e, a).unwrap();
                for (b, c) in brute.iter().zip(&child) {
                    prop_assert!((b - c).abs() <= 1e-12 * (1.0 + b.abs()));
                }
            }
        }
    }
}

#[test]
fn default_fit_certifies_a_small_gap_on_a_realistic_table() {
    use graphsparse_lattice::{Column, PropositionParams, PropositionSet, tic_tac_toe_boards};
    let (cols, y) = tic_tac_toe_boards(96, 5);
    let table: Vec<Column> = cols
        .iter()
        .map(|c| Column::Categorical {
            codes: c,
            n_categories: 3,
        })
        .collect();
    let set = PropositionSet::fit(&PropositionParams::new().check().unwrap(), &table).unwrap();
    assert_eq!(set.len(), 54, "{:?}", set.propositions());
    let x = set.transform(&table).unwrap();
    for c in [1.0, 10.0] {
        let model = fit(
            &GhklParams::new().c(c).check().unwrap(),
            &x,
            &y,
            1,
            &RunControl::new(),
        )
        .unwrap();
        assert!(model.converged);
        let rel_gap = model.gap / model.primal.abs().max(1.0);
        assert!(rel_gap <= 3e-3, "C {c}: certified relative gap {rel_gap}");
        let f = model.decision_function(&x).unwrap();
        let acc = f.iter().zip(&y).filter(|(f, y)| *f * *y > 0.0).count() as f64 / 96.0;
        if c >= 10.0 {
            assert!(acc >= 0.8, "C {c}: training accuracy {acc}");
        }
    }
}
