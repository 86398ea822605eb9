//! gHKL / gHKL-MT on the conjunction lattice: parameters, the active-set method (Algorithm 3)
//! with the sufficient condition (15), the duality-gap certificate, the fitted rule ensemble
//! and a warm-started path over `C`.
//!
//! * `params`: [`GhklParams`] → [`GhklValidParams`] and the check of the targets;
//! * `model`: the fitted ensemble [`GhklFit`] and its [`Rule`]s;
//! * `active_set`: the active set `W` on the lattice and the frontier of its sources;
//! * `certificate`: the duality-gap certificate of a restricted solution for the whole lattice;
//! * `fitter`: Algorithm 3 as a state machine (solve `W`, score, grow, refine or certify);
//! * `drivers`: [`fit`], [`fit_path`], [`solve_dag`], [`evaluate_dual`], [`zeta`].

mod active_set;
mod certificate;
mod drivers;
mod fitter;
mod model;
mod params;

pub use drivers::{DagSolution, DualEvaluation, evaluate_dual, fit, fit_path, solve_dag, zeta};
pub use model::{GhklFit, Rule};
pub use params::{DEFAULT_KERNEL_CACHE_BYTES, GhklParams, GhklValidParams};
