//! Armijo-backtracked mirror steps (the default) against the paper's `1/√i` schedule: the
//! same optimum within the certified gaps, and certified gaps within a few times `tol`.
//!
//! Which of the two converges on a given ill-conditioned case (`C = 1000`) and which ends
//! with the smaller gap changes with the last bits of the inner Newton solves, so the test
//! does not rank them: both reach the optimum, and neither stops far from it.

mod common;

use common::random_problem;
use graphsparse_base::RunControl;
use graphsparse_lattice::{Check, GhklParams, PropositionMatrix, fit};

#[test]
fn line_search_reaches_the_same_optimum_with_a_smaller_gap() {
    let (mut conv_ls, mut conv_schedule) = (0, 0);
    for seed in 0..6 {
        let (m, p) = (40, 6);
        let (bits, y) = random_problem(seed, m, p);
        let x = PropositionMatrix::from_dense(m, p, &bits).unwrap();
        for (rho, c) in [(1.5, 100.0), (1.1, 1000.0)] {
            let base = GhklParams::new().rho(rho).c(c);
            let ls = fit(
                &base.clone().check().unwrap(),
                &x,
                &y,
                1,
                &RunControl::new(),
            )
            .unwrap();
            let plain = fit(
                &base.line_search(false).check().unwrap(),
                &x,
                &y,
                1,
                &RunControl::new(),
            )
            .unwrap();
            assert!(ls.truncation.is_none() && plain.truncation.is_none());
            assert!(ls.gap.is_finite() && plain.gap.is_finite());
            // converged means certified by (15) with the gap within tol (relative to g,
            // which lies between the dual bound and the primal)
            for f in [&ls, &plain] {
                if f.converged {
                    assert!(f.gap <= 1e-3 * f.primal.abs().max(1.0), "{f:?}");
                }
            }
            conv_ls += usize::from(ls.converged);
            conv_schedule += usize::from(plain.converged);
            assert!(
                (ls.primal - plain.primal).abs() <= ls.gap + plain.gap + 1e-9,
                "seed {seed} rho {rho}: {} (gap {}) vs {} (gap {})",
                ls.primal,
                ls.gap,
                plain.primal,
                plain.gap
            );
            for f in [&ls, &plain] {
                assert!(
                    f.gap <= 5e-3 * f.primal.abs().max(1.0),
                    "seed {seed} rho {rho}: gap {} at primal {}",
                    f.gap,
                    f.primal
                );
            }
        }
    }
    // most fits converge either way (10 or 12 of 12 today, depending on rounding)
    assert!(
        conv_ls >= 9 && conv_schedule >= 9,
        "{conv_ls}, {conv_schedule} of 12"
    );
}
