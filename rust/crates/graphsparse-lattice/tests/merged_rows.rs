//! Identical training rows are merged into weighted examples (hinge loss): an exact reduction.
//! Every row repeated twice at `C` is the original problem at `2C` (the same objective), and the dual
//! coefficients still come one per original row.

mod common;

use common::Lattice;
use graphsparse_base::{RunControl, SplitMix64};
use graphsparse_lattice::{Check, GhklParams, PropositionMatrix, fit, fit_path, solve_dag};

fn table(m: usize, p: usize, seed: u64) -> (Vec<bool>, Vec<f64>) {
    let mut rng = SplitMix64::new(seed);
    let bits: Vec<bool> = (0..m * p).map(|_| rng.next_u64() % 2 == 0).collect();
    let mut y: Vec<f64> = (0..m)
        .map(|i| {
            let (a, b) = (bits[i * p], bits[i * p + 1]);
            if (a && b) != (rng.next_u64() % 7 == 0) {
                1.0
            } else {
                -1.0
            }
        })
        .collect();
    (y[0], y[1]) = (1.0, -1.0);
    (bits, y)
}

#[test]
fn doubled_rows_at_c_are_the_original_at_2c() {
    for seed in 0..6 {
        let (m, p) = (18, 4);
        let (bits, y) = table(m, p, seed);
        let x = PropositionMatrix::from_dense(m, p, &bits).unwrap();
        let bits2: Vec<bool> = bits.iter().chain(&bits).copied().collect();
        let y2: Vec<f64> = y.iter().chain(&y).copied().collect();
        let x2 = PropositionMatrix::from_dense(2 * m, p, &bits2).unwrap();
        for (rho, c) in [(1.5, 1.0), (2.0, 5.0), (1.1, 0.3)] {
            let base = GhklParams::new().rho(rho).tol(1e-4).eps_sm(1e-6);
            let one = fit(
                &base.clone().c(2.0 * c).check().unwrap(),
                &x,
                &y,
                1,
                &RunControl::new(),
            )
            .unwrap();
            let two = fit(&base.c(c).check().unwrap(), &x2, &y2, 1, &RunControl::new()).unwrap();
            assert!(one.converged && two.converged);
            // the same primal problem: ½Ω² + C Σ 2ξ = ½Ω² + 2C Σ ξ
            let tol = one.gap + two.gap + 1e-9;
            assert!(
                (one.primal - two.primal).abs() <= tol,
                "seed {seed} rho {rho}: {} vs {} (gaps {}, {})",
                one.primal,
                two.primal,
                one.gap,
                two.gap
            );
            assert_eq!(two.dual_coef().len(), 2 * m);
            assert!(
                two.dual_coef()
                    .iter()
                    .all(|&a| (0.0..=c + 1e-12).contains(&a))
            );
            let net: f64 = two.dual_coef().iter().zip(&y2).map(|(a, y)| a * y).sum();
            assert!(net.abs() < 1e-8 * c * m as f64, "{net}");
            // supports count the original rows
            for r in &two.rules {
                assert_eq!(r.support, x2.cover_of(&r.props).len());
            }
        }
    }
}

#[test]
fn a_path_over_merged_rows_reports_per_row_duals() {
    let (m, p) = (40, 3); // 8 patterns: most rows merge
    let (bits, y) = table(m, p, 42);
    let x = PropositionMatrix::from_dense(m, p, &bits).unwrap();
    let params = GhklParams::new().check().unwrap();
    let path = fit_path(&params, &x, &y, 1, &[0.1, 1.0, 10.0], &RunControl::new()).unwrap();
    for (f, c) in path.iter().zip([0.1, 1.0, 10.0]) {
        assert!(f.converged);
        assert_eq!(f.dual_coef().len(), m);
        assert!(
            f.dual_coef()
                .iter()
                .all(|&a| (0.0..=c + 1e-12).contains(&a))
        );
    }
}

/// The merged fit reaches the optimum of Algorithm 2 on the whole lattice of the original,
/// unmerged rows (`solve_dag` never merges), within the two certified gaps.
#[test]
fn merged_fit_matches_the_unmerged_full_lattice() {
    for seed in 0..5 {
        let (m, p) = (30, 4); // 16 patterns for 30 rows: many merge
        let (bits, y) = table(m, p, 100 + seed);
        let x = PropositionMatrix::from_dense(m, p, &bits).unwrap();
        let lat = Lattice::new(&bits, m, p, 2.0);
        for (rho, c) in [(1.5, 1.0), (2.0, 3.0)] {
            let params = GhklParams::new()
                .rho(rho)
                .c(c)
                .tol(1e-5)
                .eps_sm(1e-7)
                .md_max_iter(2000)
                .check()
                .unwrap();
            let merged = fit(&params, &x, &y, 1, &RunControl::new()).unwrap();
            let full = solve_dag(&params, &lat.dag, &y, 1, &RunControl::new()).unwrap();
            let tol = merged.gap + full.gap + 1e-6 * full.primal.abs().max(1.0);
            assert!(
                (merged.primal - full.primal).abs() <= tol,
                "seed {seed} rho {rho}: merged {} (gap {}) vs full {} (gap {})",
                merged.primal,
                merged.gap,
                full.primal,
                full.gap
            );
        }
    }
}
