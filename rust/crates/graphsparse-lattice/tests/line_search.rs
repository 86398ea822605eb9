//! Armijo-backtracked mirror steps (the default) against the paper's `1/√i` schedule: the
//! same optimum within the certified gaps, and a smaller certified gap at large `C`.

mod common;

use common::random_problem;
use graphsparse_base::RunControl;
use graphsparse_lattice::{Check, GhklParams, PropositionMatrix, fit};

#[test]
fn line_search_reaches_the_same_optimum_with_a_smaller_gap() {
    let (mut gap_ls, mut gap_schedule) = (0.0, 0.0);
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
            gap_ls += ls.gap / ls.primal.max(1.0);
            gap_schedule += plain.gap / plain.primal.max(1.0);
        }
    }
    eprintln!(
        "converged: line search {conv_ls}/12, schedule {conv_schedule}/12; gaps {gap_ls} vs {gap_schedule}"
    );
    assert!(conv_ls >= conv_schedule, "{conv_ls} vs {conv_schedule}");
    assert!(
        gap_ls < gap_schedule,
        "relative gaps summed: line search {gap_ls}, schedule {gap_schedule}"
    );
}
