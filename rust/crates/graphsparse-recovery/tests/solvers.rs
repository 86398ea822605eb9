//! The solvers of model (6) and the baselines: agreement between methods, closed forms,
//! independent references (coordinate-descent lasso, group soft-thresholding), `λ_max`,
//! metamorphic relations, warm starts, operation counts, budgets and determinism.

mod common;

use common::{Instance, Rng, instance, rel};
use graphsparse_base::{Budget, RunControl, Truncation};
use graphsparse_recovery::{
    Check, CsrOperator, DataFit, DenseMatrix, DuplicateEdges, GraphDiff, Identity, IhtMethod,
    IhtParams, LatentGroups, LinearOperator, Loss, Model, Parallel, Recovery, RecoveryParams,
    Solver, WarmStart, WeightedGraph, lambda_max, penalty,
};

fn ctl() -> RunControl {
    RunControl::new()
}

/// `L` (dense) and the graph (unit weights) of an instance.
fn operands(inst: &Instance) -> (DenseMatrix<'_>, WeightedGraph) {
    (
        DenseMatrix::new(&inst.a, inst.j, inst.n).unwrap(),
        WeightedGraph::new(inst.n, &inst.edges, None).unwrap(),
    )
}

/// `λ_max` of the graph model with budget `alpha`.
fn graph_lambda_max<Op: LinearOperator + ?Sized>(
    op: &Op,
    y: &[f64],
    loss: Loss,
    g: &WeightedGraph,
    alpha: f64,
) -> f64 {
    lambda_max(op, y, loss, Model::Graph { graph: g, alpha }).unwrap()
}

fn solve(p: RecoveryParams, l: &DenseMatrix<'_>, y: &[f64], g: &WeightedGraph) -> Recovery {
    let r = p.check().unwrap().solve(l, y, g, None, &ctl()).unwrap();
    assert!(
        r.converged,
        "not converged: gap {} after {}",
        r.gap, r.n_iter
    );
    r
}

/// `f(L x) + λ Ψ_α(x)` recomputed from scratch (the penalty by its own inner solve).
fn objective(
    loss: Loss,
    l: &DenseMatrix<'_>,
    y: &[f64],
    g: &WeightedGraph,
    x: &[f64],
    lam: f64,
    alpha: f64,
) -> f64 {
    let (j, n) = (y.len(), x.len());
    let lx: Vec<f64> = (0..j)
        .map(|r| (0..n).map(|c| l.data()[r * n + c] * x[c]).sum())
        .collect();
    loss.value(&lx, y).unwrap() + lam * penalty(g, x, alpha, 1e-11, 500_000).unwrap().value
}

/// Cyclic coordinate descent for `½‖y − A x‖² + λ‖x‖₁` (independent of the crate).
fn lasso_cd(a: &[f64], y: &[f64], j: usize, n: usize, lam: f64) -> Vec<f64> {
    let mut x = vec![0.0; n];
    let mut r = y.to_vec();
    let col_sq: Vec<f64> = (0..n)
        .map(|c| (0..j).map(|i| a[i * n + c].powi(2)).sum())
        .collect();
    for _ in 0..20_000 {
        let mut change = 0.0f64;
        for c in 0..n {
            let rho: f64 = (0..j).map(|i| a[i * n + c] * r[i]).sum::<f64>() + col_sq[c] * x[c];
            let new = (rho.abs() - lam).max(0.0).copysign(rho) / col_sq[c];
            let d = new - x[c];
            if d != 0.0 {
                for i in 0..j {
                    r[i] -= a[i * n + c] * d;
                }
                change = change.max(d.abs());
                x[c] = new;
            }
        }
        if change < 1e-14 {
            break;
        }
    }
    x
}

#[test]
fn pdhg_fixed_adaptive_and_algorithm_1_agree_for_every_loss() {
    let inst = instance(24, 16, 6, 0.05, 1);
    let (l, g) = operands(&inst);
    let labels = inst.labels();
    for loss in [Loss::Squared, Loss::Absolute, Loss::Logistic, Loss::Hinge] {
        let y = if loss.is_classification() {
            &labels
        } else {
            &inst.y
        };
        let top = graph_lambda_max(&l, y, loss, &g, 1.0);
        let lam = 0.1 * top;
        let mut objs = Vec::new();
        for solver in [
            Solver::Pdhg { adaptive: true },
            Solver::Pdhg { adaptive: false },
            Solver::KurodaKitahara { gamma: None },
        ] {
            let r = solve(
                RecoveryParams::new(lam, 1.0)
                    .loss(loss)
                    .solver(solver)
                    .tol(1e-9)
                    .max_iter(400_000),
                &l,
                y,
                &g,
            );
            assert!(r.gap >= -1e-12 && r.gap <= 1e-9);
            for h in &r.history {
                // a certificate: the dual value never exceeds the primal one
                assert!(
                    h.primal - h.dual >= -1e-12 * h.primal.abs(),
                    "{loss:?} {solver:?}: {h:?}"
                );
            }
            objs.push(r.objective);
            // the reported objective is f(Lx) + λ Ψ_α(x) (Ψ_α by its own inner solve)
            let direct = objective(loss, &l, y, &g, &r.x, lam, 1.0);
            assert!(
                rel(direct, r.objective) <= 1e-7,
                "{loss:?} {solver:?}: {direct} vs {}",
                r.objective
            );
        }
        for o in &objs[1..] {
            assert!(rel(*o, objs[0]) <= 2e-9, "{loss:?}: {objs:?}");
        }
    }
}

#[test]
fn edgeless_graph_and_large_alpha_reproduce_the_lasso_and_coordinate_descent() {
    let inst = instance(20, 30, 5, 0.05, 2);
    let l = DenseMatrix::new(&inst.a, inst.j, inst.n).unwrap();
    let top = lambda_max(&l, &inst.y, Loss::Squared, Model::Lasso).unwrap();
    let lam = 0.05 * top;
    let cd = lasso_cd(&inst.a, &inst.y, inst.j, inst.n, lam);
    let p = RecoveryParams::new(lam, 0.0).tol(1e-12).max_iter(400_000);
    let lasso = p
        .clone()
        .check()
        .unwrap()
        .solve_lasso(&l, &inst.y, None, &ctl())
        .unwrap();
    assert!(lasso.converged);
    // J ≥ N with full rank: the solution is unique; gap 1e-12 gives x to about 1e-6
    for (a, b) in lasso.x.iter().zip(&cd) {
        assert!((a - b).abs() < 1e-5, "{a} vs {b}");
    }
    let edgeless = WeightedGraph::new(inst.n, &[], None).unwrap();
    let r = solve(p.clone(), &l, &inst.y, &edgeless);
    assert!(rel(r.objective, lasso.objective) <= 1e-11);
    // α ≥ ‖W D |x̂_ℓ1|‖₁ makes Ψ_α = ℓ1 near the lasso solution (P5)
    let g = WeightedGraph::new(inst.n, &inst.edges, None).unwrap();
    let abs: Vec<f64> = lasso.x.iter().map(|v| v.abs()).collect();
    let alpha = 1.5 * g.weighted_total_variation(&abs).unwrap();
    let r = solve(p.alpha(alpha), &l, &inst.y, &g);
    assert!(rel(r.objective, lasso.objective) <= 1e-10);
}

#[test]
fn alpha_zero_on_a_connected_graph_is_group_soft_thresholding() {
    // L = I: x̂ = y·max(0, 1 − λ√N/‖y‖)
    let mut rng = Rng(4);
    let n = 9;
    let g =
        WeightedGraph::new(n, &(0..n - 1).map(|i| [i, i + 1]).collect::<Vec<_>>(), None).unwrap();
    let y = rng.normals(n);
    let ny = y.iter().map(|v| v * v).sum::<f64>().sqrt();
    let lam = 0.4 * ny / (n as f64).sqrt();
    let r = RecoveryParams::new(lam, 0.0)
        .tol(1e-13)
        .max_iter(100_000)
        .check()
        .unwrap()
        .solve(&Identity(n), &y, &g, None, &ctl())
        .unwrap();
    let shrink = 1.0 - lam * (n as f64).sqrt() / ny;
    for (a, b) in r.x.iter().zip(&y) {
        assert!((a - shrink * b).abs() < 1e-6, "{a} vs {}", shrink * b);
    }
    // σ is the common RMS; a warm start from the state (vertex layout) restarts at the optimum
    let rms = r.x.iter().map(|v| v * v).sum::<f64>().sqrt() / (n as f64).sqrt();
    assert!(r.sigma.iter().all(|&s| (s - rms).abs() < 1e-15));
    let again = RecoveryParams::new(lam, 0.0)
        .tol(1e-13)
        .check()
        .unwrap()
        .solve(&Identity(n), &y, &g, Some(&r.state), &ctl())
        .unwrap();
    assert!(again.converged && again.n_iter <= 10 && rel(again.objective, r.objective) < 1e-13);
    // λ_max for α = 0 is ‖y‖/√N here; α > 0 gives ‖y‖_∞
    let top0 = graph_lambda_max(&Identity(n), &y, Loss::Squared, &g, 0.0);
    assert!(rel(top0, ny / (n as f64).sqrt()) < 1e-14);
}

#[test]
fn lambda_max_separates_zero_and_nonzero_solutions() {
    let inst = instance(30, 20, 6, 0.05, 3);
    let (l, g) = operands(&inst);
    for alpha in [0.0, 2.0] {
        let top = graph_lambda_max(&l, &inst.y, Loss::Squared, &g, alpha);
        let above = solve(
            RecoveryParams::new(1.01 * top, alpha).tol(1e-9),
            &l,
            &inst.y,
            &g,
        );
        assert!(
            above.x.iter().all(|&v| v == 0.0),
            "α = {alpha}: {:?}",
            above.x
        );
        let below = solve(
            RecoveryParams::new(0.99 * top, alpha).tol(1e-9),
            &l,
            &inst.y,
            &g,
        );
        assert!(below.x.iter().any(|&v| v != 0.0), "α = {alpha}");
    }
}

#[test]
fn metamorphic_permutation_orientation_and_scaling() {
    let inst = instance(20, 14, 5, 0.05, 5);
    let (n, j) = (inst.n, inst.j);
    let (l, g) = operands(&inst);
    let (lam, alpha) = (0.5, 1.0);
    let p = RecoveryParams::new(lam, alpha).tol(1e-12).max_iter(400_000);
    let base = solve(p.clone(), &l, &inst.y, &g);
    // vertex permutation π: column c of L moves to π(c), edges relabelled
    let mut rng = Rng(6);
    let mut perm: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        perm.swap(i, rng.below(i + 1));
    }
    let mut a2 = vec![0.0; j * n];
    for r in 0..j {
        for c in 0..n {
            a2[r * n + perm[c]] = inst.a[r * n + c];
        }
    }
    let l2 = DenseMatrix::new(&a2, j, n).unwrap();
    // relabelled and with every orientation flipped
    let e2: Vec<[usize; 2]> = inst
        .edges
        .iter()
        .map(|&[u, v]| [perm[v], perm[u]])
        .collect();
    let g2 = WeightedGraph::new(n, &e2, None).unwrap();
    let r2 = solve(p.clone(), &l2, &inst.y, &g2);
    assert!(rel(r2.objective, base.objective) < 1e-10);
    for (c, &pc) in perm.iter().enumerate() {
        assert!((r2.x[pc] - base.x[c]).abs() < 1e-4, "{c}");
    }
    // P6: scaling (y, λ, α) by t scales x̂ by t
    let t = 3.0;
    let ty: Vec<f64> = inst.y.iter().map(|v| t * v).collect();
    let rt = solve(p.clone().lam(t * lam).alpha(t * alpha), &l, &ty, &g);
    assert!(rel(rt.objective, t * t * base.objective) < 1e-10);
    for (a, b) in rt.x.iter().zip(&base.x) {
        assert!((a - t * b).abs() < 1e-4 * t);
    }
    // duplicate edges merged by summing weights
    let mut dup = inst.edges.clone();
    dup.push(inst.edges[0]);
    let mut w = vec![1.0; dup.len()];
    w[0] = 0.25;
    *w.last_mut().unwrap() = 0.75;
    let gd = WeightedGraph::from_edges(n, &dup, Some(&w), DuplicateEdges::Sum).unwrap();
    let rd = solve(p, &l, &inst.y, &gd);
    assert!(rel(rd.objective, base.objective) < 1e-10);
}

#[test]
fn warm_starts_and_paths_reach_the_cold_solution() {
    let inst = instance(30, 20, 6, 0.05, 8);
    let (l, g) = operands(&inst);
    let alpha = 2.0;
    let top = graph_lambda_max(&l, &inst.y, Loss::Squared, &g, alpha);
    let p = RecoveryParams::new(0.05 * top, alpha)
        .tol(1e-9)
        .max_iter(200_000);
    let cold = solve(p.clone(), &l, &inst.y, &g);
    let valid = p.clone().check().unwrap();
    let again = valid
        .solve(&l, &inst.y, &g, Some(&cold.state), &ctl())
        .unwrap();
    assert!(again.converged && again.n_iter <= 10, "{}", again.n_iter);
    assert!(rel(again.objective, cold.objective) < 1e-9);
    // a primal guess alone is accepted
    let guess = WarmStart {
        x: cold.x.clone(),
        sigma: cold.sigma.clone(),
        ..Default::default()
    };
    let from_guess = valid.solve(&l, &inst.y, &g, Some(&guess), &ctl()).unwrap();
    assert!(from_guess.converged && rel(from_guess.objective, cold.objective) < 1e-8);
    let lams: Vec<f64> = (0..8)
        .map(|k| top * 0.05f64.powf(f64::from(k) / 7.0))
        .collect();
    let path = valid.solve_path(&l, &inst.y, &g, &lams, &ctl()).unwrap();
    assert_eq!(path.len(), lams.len());
    assert!(path.iter().all(|r| r.converged));
    assert!(rel(path.last().unwrap().objective, cold.objective) < 1e-8);
    // bad warm-start lengths are named errors
    let bad = WarmStart {
        x: vec![0.0; 3],
        ..Default::default()
    };
    assert!(valid.solve(&l, &inst.y, &g, Some(&bad), &ctl()).is_err());
}

/// Regression: path solves inherited the decayed step adaptation of the previous λ and hit
/// `max_iter` at small λ, where cold solves converged in a few thousand iterations.
#[test]
fn path_warm_starts_converge_like_cold_starts() {
    let inst = instance(200, 140, 60, 0.01, 3);
    let (l, g) = operands(&inst);
    let alpha = 20.0;
    let top = graph_lambda_max(&l, &inst.y, Loss::Squared, &g, alpha);
    let lams: Vec<f64> = (0..10)
        .map(|k| top * 1e-4f64.powf(f64::from(k) / 9.0))
        .collect();
    let p = RecoveryParams::new(1.0, alpha).tol(1e-6).max_iter(6000);
    let path = p
        .clone()
        .check()
        .unwrap()
        .solve_path(&l, &inst.y, &g, &lams, &ctl())
        .unwrap();
    let its: Vec<usize> = path.iter().map(|r| r.n_iter).collect();
    assert!(path.iter().all(|r| r.converged), "{its:?}");
    let warm: usize = its.iter().sum();
    let cold: usize = lams
        .iter()
        .map(|&lam| solve(p.clone().lam(lam), &l, &inst.y, &g).n_iter)
        .sum();
    // warm starts are not always cheaper here, but never far off
    assert!(warm <= 2 * cold, "path {warm} vs cold {cold} iterations");
}

#[test]
fn every_iteration_applies_each_operator_once() {
    let inst = instance(40, 25, 8, 0.05, 9);
    let (l, g) = operands(&inst);
    for solver in [
        Solver::Pdhg { adaptive: true },
        Solver::KurodaKitahara { gamma: None },
    ] {
        let run = |k: usize| {
            RecoveryParams::new(0.1, 1.0)
                .solver(solver)
                .tol(1e-300)
                .max_iter(k)
                .op_norm(Some(60.0))
                .diff_norm(Some(3.0))
                .check()
                .unwrap()
                .solve(&l, &inst.y, &g, None, &ctl())
                .unwrap()
        };
        let (a, b) = (run(100), run(300));
        assert_eq!((a.n_iter, b.n_iter), (100, 300));
        let d = |f: fn(&Recovery) -> u64| f(&b) - f(&a);
        // per iteration: one L, one Lᵀ, one W D, one Dᵀ W, N proxes, one ball projection
        // (Algorithm 1 adds one Lᵀ and one Dᵀ W per convergence check, every 10 iterations)
        let extra = if matches!(solver, Solver::KurodaKitahara { .. }) {
            20
        } else {
            0
        };
        assert_eq!(d(|r| r.counts.forward), 200);
        assert_eq!(d(|r| r.counts.adjoint), 200 + extra);
        assert_eq!(d(|r| r.counts.diff), 200);
        assert_eq!(d(|r| r.counts.diff_adjoint), 200 + extra);
        assert_eq!(d(|r| r.counts.ball_projections), 200);
        assert_eq!(d(|r| r.counts.prox), 200 * inst.n as u64);
    }
}

#[test]
fn budgets_and_cancellation_truncate_without_error() {
    let inst = instance(30, 20, 6, 0.05, 10);
    let (l, g) = operands(&inst);
    let r = RecoveryParams::new(0.01, 1.0)
        .tol(1e-300)
        .budget(Budget::new().max_nodes(Some(7)))
        .check()
        .unwrap()
        .solve(&l, &inst.y, &g, None, &ctl())
        .unwrap();
    assert_eq!(r.n_iter, 7);
    assert!(!r.converged);
    assert_eq!(r.truncation, Some(Truncation::MaxNodes));
    let c = RunControl::new();
    c.cancel();
    let r = RecoveryParams::new(0.01, 1.0)
        .check()
        .unwrap()
        .solve(&l, &inst.y, &g, None, &c)
        .unwrap();
    assert_eq!(r.n_iter, 0);
    assert_eq!(r.truncation, Some(Truncation::Cancelled));
    let r = RecoveryParams::new(0.01, 1.0)
        .tol(1e-300)
        .max_iter(5)
        .check()
        .unwrap()
        .solve(&l, &inst.y, &g, None, &ctl())
        .unwrap();
    assert!(!r.converged && r.truncation.is_none() && r.n_iter == 5);
}

#[test]
fn serial_and_parallel_runs_are_bitwise_identical() {
    // large enough for several chunks in every loop: a sparse L with 3 entries per row
    let (n, j) = (9000, 6000);
    let mut rng = Rng(12);
    let (mut ptr, mut idx, mut val) = (vec![0usize], Vec::new(), Vec::new());
    for _ in 0..j {
        for _ in 0..3 {
            idx.push(rng.below(n));
            val.push(rng.normal());
        }
        ptr.push(idx.len());
    }
    let l = CsrOperator::new(&ptr, &idx, &val, j, n).unwrap();
    let edges: Vec<[usize; 2]> = (0..n).map(|i| [i, (i + 1) % n]).collect();
    let g = WeightedGraph::new(n, &edges, None).unwrap();
    let y = rng.normals(j);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    for solver in [
        Solver::Pdhg { adaptive: true },
        Solver::KurodaKitahara { gamma: None },
    ] {
        let run = |par: Parallel| {
            pool.install(|| {
                RecoveryParams::new(0.3, 20.0)
                    .solver(solver)
                    .max_iter(60)
                    .parallel(par)
                    .check()
                    .unwrap()
                    .solve(&l, &y, &g, None, &ctl())
                    .unwrap()
            })
        };
        let (s, p) = (run(Parallel::Serial), run(Parallel::Threshold(0)));
        assert_eq!(s.n_iter, p.n_iter);
        assert!(
            s.x.iter()
                .zip(&p.x)
                .all(|(a, b)| a.to_bits() == b.to_bits())
        );
        assert!(
            s.sigma
                .iter()
                .zip(&p.sigma)
                .all(|(a, b)| a.to_bits() == b.to_bits())
        );
        assert_eq!(s.objective.to_bits(), p.objective.to_bits());
        assert_eq!(s.gap.to_bits(), p.gap.to_bits());
    }
}

#[test]
fn latent_group_lasso_references() {
    let inst = instance(16, 24, 5, 0.05, 13);
    let (l, g) = operands(&inst);
    let lam = 0.2 * lambda_max(&l, &inst.y, Loss::Squared, Model::Lasso).unwrap();
    let p = RecoveryParams::new(lam, 0.0)
        .tol(1e-11)
        .max_iter(400_000)
        .check()
        .unwrap();
    // singleton groups with d_g = 1 are the lasso
    let singles: Vec<Vec<usize>> = (0..inst.n).map(|i| vec![i]).collect();
    let sg = LatentGroups::new(inst.n, &singles, Some(&vec![1.0; inst.n])).unwrap();
    let a = p
        .solve_latent_group(&l, &inst.y, &sg, None, &ctl())
        .unwrap();
    let b = p.solve_lasso(&l, &inst.y, None, &ctl()).unwrap();
    assert!(a.converged && b.converged && rel(a.objective, b.objective) < 1e-10);
    // overlapping neighbourhood groups: gap certified, x = P v, λ_max separates zero
    let nb = LatentGroups::neighbourhoods(&g).unwrap();
    assert_eq!(LatentGroups::edges(&g).unwrap().n_latent(), 2 * g.n_edges());
    let r = p
        .solve_latent_group(&l, &inst.y, &nb, None, &ctl())
        .unwrap();
    assert!(r.converged && r.gap <= 1e-11);
    let mut x = vec![0.0; inst.n];
    nb.to_signal_into(&r.latent, &mut x).unwrap();
    assert_eq!(x, r.x);
    let top = lambda_max(&l, &inst.y, Loss::Squared, Model::LatentGroup(&nb)).unwrap();
    let p2 = RecoveryParams::new(1.01 * top, 0.0)
        .tol(1e-10)
        .check()
        .unwrap();
    assert!(
        p2.solve_latent_group(&l, &inst.y, &nb, None, &ctl())
            .unwrap()
            .x
            .iter()
            .all(|&v| v == 0.0)
    );
    // a partition with L = I is block soft-thresholding
    let y = [3.0, 4.0, -1.0, 0.5, 0.2];
    let part = LatentGroups::new(5, &[vec![0, 1], vec![2, 3, 4]], None).unwrap();
    let r = RecoveryParams::new(1.0, 0.0)
        .tol(1e-14)
        .max_iter(100_000)
        .check()
        .unwrap()
        .solve_latent_group(&Identity(5), &y, &part, None, &ctl())
        .unwrap();
    let s1 = 1.0 - 2f64.sqrt() / 5.0;
    let n2 = (1.0f64 + 0.25 + 0.04).sqrt();
    let s2 = (1.0 - 3f64.sqrt() / n2).max(0.0);
    let want = [3.0 * s1, 4.0 * s1, -s2, 0.5 * s2, 0.2 * s2];
    for (a, b) in r.x.iter().zip(&want) {
        assert!((a - b).abs() < 1e-6, "{:?} vs {want:?}", r.x);
    }
}

#[test]
fn graph_iht_and_cosamp_recover_a_connected_support_without_noise() {
    let inst = instance(60, 40, 6, 0.0, 14);
    let (l, g) = operands(&inst);
    let truth: Vec<usize> = (0..inst.n).filter(|&i| inst.x[i] != 0.0).collect();
    for method in [IhtMethod::Iht, IhtMethod::Cosamp] {
        let r = IhtParams::new(6)
            .ratio(0.0)
            .method(method)
            .max_iter(300)
            .tol(1e-10)
            .check()
            .unwrap()
            .solve(&l, &inst.y, &g, None, &ctl())
            .unwrap();
        assert_eq!(r.support, truth, "{method:?}");
        let err: f64 =
            r.x.iter()
                .zip(&inst.x)
                .map(|(a, b)| (a - b).powi(2))
                .sum::<f64>()
                .sqrt();
        assert!(err < 1e-6, "{method:?}: {err}");
        assert!(r.residual_norms.windows(2).count() + 1 == r.n_iter);
    }
}

#[test]
fn identified_subgraphs_of_a_two_block_denoising_problem() {
    // a path with two constant blocks: σ is flat on each block and jumps at their ends
    let y = [0.0, 0.0, 3.0, 3.0, 3.0, 0.0, 0.0, 0.0, -2.0, -2.0, 0.0, 0.0];
    let n = y.len();
    let edges: Vec<[usize; 2]> = (0..n - 1).map(|i| [i, i + 1]).collect();
    let g = WeightedGraph::new(n, &edges, None).unwrap();
    let r = RecoveryParams::new(0.5, 10.0)
        .tol(1e-12)
        .max_iter(200_000)
        .check()
        .unwrap()
        .solve(&Identity(n), &y, &g, None, &ctl())
        .unwrap();
    assert!(r.converged);
    let s = graphsparse_recovery::identified_subgraphs(&g, &r.x, &r.sigma, 1e-4).unwrap();
    assert_eq!(s.components, vec![vec![2, 3, 4], vec![8, 9]]);
    assert!(s.kept_edges.contains(&2) && s.kept_edges.contains(&8) && !s.kept_edges.contains(&1));
    assert!(graphsparse_recovery::identified_subgraphs(&g, &r.x, &r.sigma[1..], 1e-4).is_err());
}

#[test]
fn operator_norm_estimates_and_the_graph_bound() {
    use graphsparse_recovery::{LinearOperator, estimate_op_norm, power_iteration_norm};
    let mut rng = Rng(21);
    // dense Gaussian 45 × 50 (near-square: the slowest case for power iteration)
    let a = rng.normals(45 * 50);
    let dense = DenseMatrix::new(&a, 45, 50).unwrap();
    // sparse 300 × 400 with 5 entries per row
    let (mut ptr, mut idx, mut val) = (vec![0usize], Vec::new(), Vec::new());
    for _ in 0..300 {
        for _ in 0..5 {
            idx.push(rng.below(400));
            val.push(rng.normal());
        }
        ptr.push(idx.len());
    }
    let sparse = CsrOperator::new(&ptr, &idx, &val, 300, 400).unwrap();
    for op in [
        &dense as &dyn LinearOperator,
        &sparse as &dyn LinearOperator,
    ] {
        let exact = power_iteration_norm(op, 20_000, 1e-15, Parallel::Serial)
            .unwrap()
            .value;
        let est = estimate_op_norm(op, 300, 1e-10, Parallel::Serial)
            .unwrap()
            .value;
        assert!(
            est >= 0.99 * exact && est <= exact * (1.0 + 1e-9),
            "{est} vs {exact}"
        );
    }
    // the Gershgorin bound of ‖W D‖ is above the (converged) estimate
    let inst = instance(40, 1, 1, 0.0, 22);
    let w: Vec<f64> = (0..inst.edges.len())
        .map(|_| 0.2 + 2.0 * rng.uniform())
        .collect();
    for weights in [None, Some(&w[..])] {
        let g = WeightedGraph::new(inst.n, &inst.edges, weights).unwrap();
        let d = g.difference_operator();
        let est = estimate_op_norm(&d, 500, 1e-14, Parallel::Serial)
            .unwrap()
            .value;
        assert!(
            g.diff_norm_bound() >= est * (1.0 - 1e-12),
            "{} < {est}",
            g.diff_norm_bound()
        );
    }
}
