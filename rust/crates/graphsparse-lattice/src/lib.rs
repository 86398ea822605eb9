//! Rule ensembles by generalized hierarchical kernel learning (gHKL, gHKL-MT) on a lazy
//! conjunction lattice.
//!
//! A rule ensemble is `F_t(x) = Σ_w f_tw φ_w(x) − b_t`, where each rule `φ_w` is a
//! conjunction of basic propositions (`petal_width ≤ 0.8 AND colour = red`). gHKL
//! (Jawanpuria, Nath & Ramakrishnan, JMLR 2015) learns it by hierarchical multiple kernel
//! learning over the lattice of **all** conjunctions, with the ℓ1/ℓρ regularizer
//! `Ω(f) = Σ_v d_v ‖f_{D(v)}‖_ρ`, `d_v = a^{|S_v|}`, `ρ ∈ (1, 2]` (`ρ = 2` is Bach's HKL); an
//! active-set method solves this exponentially large problem exactly, visiting only the
//! nodes its sufficient condition reaches, and certifies the result with a duality gap.
//!
//! The sufficient condition is the paper's (15) made tighter without losing validity: the
//! bound on the nodes outside the active set `W` uses how many nodes of each size `W`
//! holds, and keeps the `ℓ_ρ̄` norm that the paper relaxes to `ℓ1` (level by level, through
//! Hölder's inequality). On the benchmark sets this certifies fits with 10–100 times fewer
//! lattice nodes; the certificate and the optimum are unchanged.
//!
//! | step | item | spec |
//! |---|---|---|
//! | tabular data → propositions | [`PropositionSet`], [`PropositionMatrix`] | §7.1 (rule P1) |
//! | the lattice kernels `K_u` | [`kernel_ku`], [`kernel_ku_child`], [`KernelCache`] | §7.3 |
//! | the restricted problem on a DAG | [`Dag`], [`solve_dag`], [`evaluate_dual`], [`zeta`] | §4, §5 |
//! | the active set on the lattice | [`fit`], [`fit_path`] → [`GhklFit`] | §6, §7 |
//!
//! Notation map (paper → code): `ρ, ρ̂, ρ̄` → `rho`, `rho_hat`, `rho_bar`; `C` → `c`; `a` in
//! `d_v = a^{|S_v|}` → `a`; `η` (kernel-group weights on the simplex) → `eta`; `ζ_w(η)` →
//! [`zeta`]; `θ` (ℓ_ρ̂-MKL weights) → `theta`; `κ_w = θ_w ζ_w^{1/ρ̄}` (effective kernel
//! weights) → `kappa`; `α`, `b` → `alpha`, `bias`; `W` (active set) →
//! [`GhklFit::active_set`]; `ε_tol` → `tol`; `ε_W` (inner MKL gap) → `mkl_gap`; `B` (task
//! kernel) → [`TaskCoupling`]; `S_w` (a rule's propositions) → [`Rule::props`].
//!
//! Long runs follow the `graphsparse-base` contract: [`GhklParams::budget`] caps the nodes
//! added to the active set and the wall time, a [`RunControl`](graphsparse_base::RunControl)
//! cancels, and the result says whether and why it was cut.
//!
//! # Example
//! ```
//! use graphsparse_base::RunControl;
//! use graphsparse_lattice::{Check, Column, GhklParams, PropositionParams, PropositionSet, fit};
//!
//! // a numeric and a categorical column; the class is "x > 5 and colour = 2"
//! let x: Vec<f64> = (0..40).map(|i| (i % 10) as f64).collect();
//! let colour: Vec<u32> = (0..40).map(|i| (i / 3 % 3) as u32).collect();
//! let y: Vec<f64> = x.iter().zip(&colour).map(|(&x, &c)| if x > 5.0 && c == 2 { 1.0 } else { -1.0 }).collect();
//! let cols = [Column::Numeric(&x), Column::Categorical { codes: &colour, n_categories: 3 }];
//! let props = PropositionSet::fit(&PropositionParams::new().check()?, &cols)?;
//! let matrix = props.transform(&cols)?;
//! let model = fit(&GhklParams::new().c(10.0).check()?, &matrix, &y, 1, &RunControl::new())?;
//! let scores = model.decision_function(&matrix)?;
//! let accuracy = scores.iter().zip(&y).filter(|(f, y)| *f * *y > 0.0).count() as f64 / 40.0;
//! assert_eq!(accuracy, 1.0);
//! assert!(model.converged && !model.rules.is_empty());
//! # Ok::<(), graphsparse_lattice::LatticeError>(())
//! ```
//!
//! Reference: P. Jawanpuria, J. S. Nath, G. Ramakrishnan, *Generalized hierarchical kernel
//! learning*, JMLR 16 (2015) 617–652, <https://jmlr.org/papers/v16/jawanpuria15a.html>;
//! F. Bach, *Exploring large feature spaces with hierarchical multiple kernel learning*,
//! NIPS 2008.

mod bits;
mod bound;
mod dag;
mod error;
mod generate;
mod ghkl;
mod gram;
mod kernel;
mod primal;
mod props;
mod ridge;
mod smo;
mod solver;

pub use dag::Dag;
pub use error::{LatticeError, Result};
pub use generate::tic_tac_toe_boards;
pub use ghkl::{
    DEFAULT_KERNEL_CACHE_BYTES, DagSolution, DualEvaluation, GhklFit, GhklParams, GhklValidParams,
    Rule, evaluate_dual, fit, fit_path, solve_dag, zeta,
};
pub use graphsparse_base::{Check, Loss, Parallel, Truncation};
pub use kernel::{
    BLOCK_OVERHEAD_BYTES, CacheStats, KernelCache, MAX_PROPS, kernel_ku, kernel_ku_child,
};
pub use props::{
    Column, Condition, CutRule, FeatureKind, MAX_CUTS, MISSING_CATEGORY, Proposition,
    PropositionMatrix, PropositionParams, PropositionSet, PropositionValidParams,
};
pub use solver::{AUTO_PRIMAL_ROWS, SolverForm, StepNorm, TaskCoupling};
