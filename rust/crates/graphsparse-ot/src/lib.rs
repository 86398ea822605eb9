//! Optimal transport on graphs and graph compression by optimal transport (OTC).
//!
//! Work in progress: see the module docs.

mod coarsen;
mod collection;
mod error;
mod graph;
mod inner;
mod lipschitz;
mod otc;
mod transport;
mod wl;

pub use coarsen::{Coarsening, Contraction, coarsen};
pub use collection::{Compressed, CostRule, Method, TargetSize, compress_collection};
pub use error::{MASS_TOL, OtError, Result};
pub use graph::{Directed, OtGraph, degree_prior};
pub use inner::{Certificate, InnerSolution, certificate, inner_value, saddle_gap};
pub use lipschitz::{
    LipschitzOptions, LipschitzSolver, LipschitzWork, ProjectionInfo, project_lipschitz,
    project_lipschitz_into,
};
pub use otc::{
    OtcParams, OtcSolution, OtcTrace, OtcValidParams, OtcWorkspace, StepMode, grad_phi, phi,
    round_top_k, solve_otc,
};
pub use transport::{TransportParams, TransportSolution, graph_ot_distance, solve_transport};
pub use wl::{CsrMatrix, WlParams, WlVocabulary, wl_subtree_features};
