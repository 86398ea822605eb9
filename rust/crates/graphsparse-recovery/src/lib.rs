//! Convex graph-structured sparse recovery (Kuroda & Kitahara), its convex baselines, and the
//! non-convex graph models beside them.
//!
//! The penalty `Ψ_α(x) = min_σ Σ_n φ(x_n, σ_n)` subject to `‖W D σ‖₁ ≤ α` (paper eq. 5)
//! finds the relevant subgraph of `G₀` by itself: `σ` is a latent per-vertex scale whose
//! weighted graph differences have an `ℓ1` budget `α`; where `σ` is constant on a connected
//! piece, `Ψ_α` acts as `√|c|·‖x_c‖₂` on it. Model (6) is `min_x f(L x) + λ Ψ_α(x)`.
//!
//! | item | here |
//! |---|---|
//! | graph `G₀`, weights `w`, `W D` | [`WeightedGraph`] (`D` never formed), [`GraphDifference`] |
//! | `φ` and `prox_{cφ}` (closed form, Cardano) | [`perspective`], [`prox_perspective`], [`prox_perspective_into`] |
//! | data terms and their proxes | [`Loss`] (the library's one vocabulary: squared, absolute, logistic, hinge) and [`DataFit`] |
//! | operators `L` | [`LinearOperator`]: [`DenseMatrix`], [`CsrMatrix`], [`Identity`] |
//! | `‖L‖`, `‖W D‖` | [`estimate_op_norm`] (Lanczos), [`power_iteration_norm`], [`WeightedGraph::diff_norm_bound`] |
//! | model (6) | [`RecoveryParams`] → [`RecoveryValidParams::solve`] (PDHG, Anderson-accelerated PDHG or Algorithm 1), [`RecoveryValidParams::solve_path`] |
//! | `Ψ_α(x)` | [`penalty`] |
//! | penalised variant `min_σ Σφ + β‖W D σ‖₁` (a norm) | [`PenaltyForm::Lagrangian`] |
//! | `ℓ1` baseline | [`RecoveryValidParams::solve_lasso`] |
//! | latent group lasso | [`LatentGroups`], [`RecoveryValidParams::solve_latent_group`] |
//! | Graph-IHT / Graph-CoSaMP | [`IhtParams`] → [`IhtValidParams::solve`] |
//! | `λ_max` | [`lambda_max`] |
//! | kept edges, identified subgraphs `G*` | [`identified_subgraphs`] |
//!
//! # Notation map (paper → code)
//!
//! | paper | code | meaning |
//! |---|---|---|
//! | `N`, `G₀ = (V₀, E₀)`, `w₀` | `n_nodes`, [`WeightedGraph`], `weights` | variables = vertices, edge weights |
//! | `D`, `W` | [`WeightedGraph::diff_into`] (`W D σ`) | `(W D σ)_e = w_e(σ_head − σ_tail)` |
//! | `α` | `alpha` | budget on `‖W D σ‖₁` (units of `\|x\|`, not an edge count) |
//! | `λ` | `lam` | regularisation weight |
//! | `L`, `f` | `op`, [`Loss`] | linear map and data-fit term (`L = A` in §4) |
//! | `d` (§4) | `J = op.n_rows()` | number of measurements |
//! | `γ, μ₁, μ₂` | [`Solver::KurodaKitahara`] | steps of Algorithm 1 |
//! | `p, q, D` (Cardano) | `p`, `2X`, the discriminant | cubic `s³ + p s − 2X = 0` of the prox |
//!
//! # Solvers
//!
//! The default is PDHG (Chambolle–Pock) on the unlifted splitting `z = (x, σ)`,
//! `K = blockdiag(L, W D)`, with one dual step per block and adaptive step balancing; the
//! paper's Algorithm 1 is [`Solver::KurodaKitahara`]; [`Solver::Anderson`] runs fixed-step
//! PDHG with a safeguarded Anderson (multisecant quasi-Newton) step on its residual, and
//! [`Solver::Auto`] picks it over adaptive PDHG when `L` is small and dense;
//! [`Solver::Ssnal`] is a semismooth Newton augmented Lagrangian method on the dual (squared
//! loss), measured slower than Anderson on every size tried. All stop on a
//! rigorous relative duality gap (a feasible primal point against a feasible dual point, the
//! same check for every method), or on primal and dual
//! residuals ([`StopRule`]). Each iteration applies `L`, `Lᵀ`, `W D` and `Dᵀ W` once
//! ([`OpCounts`] reports the counts), so it costs O(nnz(L) + N + J + m). Parallel loops run
//! on the caller's rayon pool in fixed chunks, and every reduction adds chunk partials in a
//! fixed order: results are bitwise identical for every thread count. Long solves honour a
//! [`graphsparse_base::Budget`] and a cancellation flag.
//!
//! # Example
//! ```
//! use graphsparse_base::RunControl;
//! use graphsparse_recovery::{Check, DenseMatrix, Loss, Model, RecoveryParams, WeightedGraph, lambda_max};
//!
//! // a path graph on 6 vertices, a random-ish 4 × 6 design, signal on {1, 2}
//! let a: Vec<f64> = (0..24).map(|k| ((k * 7919 % 23) as f64 - 11.0) / 11.0).collect();
//! let l = DenseMatrix::new(&a, 4, 6)?;
//! let g = WeightedGraph::new(6, &[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]], None)?;
//! let x_true = [0.0, 1.0, -1.5, 0.0, 0.0, 0.0];
//! let y: Vec<f64> = (0..4).map(|r| (0..6).map(|c| a[r * 6 + c] * x_true[c]).sum()).collect();
//!
//! let top = lambda_max(&l, &y, Loss::Squared, Model::Graph { graph: &g, alpha: 1.0 })?;
//! let fit = RecoveryParams::new(0.05 * top, 1.0).tol(1e-8).check()?
//!     .solve(&l, &y, &g, None, &RunControl::new())?;
//! assert!(fit.converged && fit.gap <= 1e-8);
//! assert_eq!(fit.x.len(), 6);
//! # Ok::<(), graphsparse_recovery::RecoveryError>(())
//! ```
//!
//! Reference: H. Kuroda and D. Kitahara, "Graph-structured sparse regularization via convex
//! optimization" (eqs. 5–6, Algorithm 1, §4). Baselines: L. Jacob, G. Obozinski and J.-P.
//! Vert, "Group lasso with overlap and graph lasso", ICML 2009; C. Hegde, P. Indyk and
//! L. Schmidt, "A nearly-linear time framework for graph-structured sparsity", ICML 2015.

mod anderson;
mod error;
mod graph;
mod groups;
mod identify;
mod iht;
mod kk;
mod loss;
mod norm;
mod operator;
mod par;
mod params;
mod pdhg;
mod prox;
mod solve;
mod ssnal;

pub use error::{RecoveryError, Result};
pub use graph::{
    DuplicateEdges, GraphDiff, GraphDifference, MAX_GRAPH_SIZE, WeightedGraph,
    check_positive_weights,
};
pub use graphsparse_base::{Check, Parallel};
pub use graphsparse_graph::{CsrMatrix, EdgeRules, SelfLoops, SparseIndex};
pub use groups::LatentGroups;
pub use identify::{Subgraphs, identified_subgraphs};
pub use iht::{IhtMethod, IhtParams, IhtResult, IhtValidParams};
pub use loss::{DataFit, Loss};
pub use norm::{NORM_SAFETY, NormEstimate, estimate_op_norm, power_iteration_norm};
pub use operator::{CsrOperator, DenseMatrix, Identity, LinearOperator};
pub use params::{
    ANDERSON_MEMORY, HistoryEntry, OpCounts, PenaltyForm, Recovery, RecoveryParams,
    RecoveryValidParams, Solver, StopRule, WarmStart,
};
pub use prox::{perspective, prox_perspective, prox_perspective_into};
pub use solve::{Model, PenaltyValue, lambda_max, penalty};
