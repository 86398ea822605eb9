//! Exact, fast Euclidean projections for graphsparse.
//!
//! | function | set | algorithm | time |
//! |---|---|---|---|
//! | [`project_simplex`] | `{x ≥ 0, Σ x = z}` | Condat 2016 | expected O(n) |
//! | [`project_l1_ball`] | `{‖x‖₁ ≤ r}` | `sign(v) ⊙ P_simplex(|v|, r)` when outside | expected O(n) |
//! | [`project_weighted_simplex`] | `{Σ ε_i x_i = 1, ε_i x_i ≥ 0}` | Garg–Jaakkola Alg. 1 / weighted Condat | O(d log d) / expected O(d) |
//! | [`project_capped_simplex`] | `{x ∈ [0,1]^n, Σ x ≤ k}` | pivoting on breakpoints | expected O(n) |
//! | [`project_top_k`] | `{‖x‖₀ ≤ k}` | selection | expected O(n) |
//! | [`top_k_support`] | the support of the top-`k` projection | selection | expected O(n + k log k) |
//!
//! Every projection comes in three forms: an allocating one (`project_simplex`), an
//! allocation-free one writing into a caller buffer (`project_simplex_into`, for solver loops;
//! the output buffer doubles as working memory), and a batched one over the rows of a
//! row-major 2-D buffer (`project_simplex_rows`), which may use rayon (see [`Parallel`]) and
//! gives exactly the row-by-row result whatever the thread count.
//!
//! All results are exact up to floating-point rounding: the thresholds are closed-form
//! functions of the exact active set, not the outcome of a tolerance-based iteration. Bad input
//! (NaN/inf, an impossible parameter, mismatched lengths) returns a [`ProjError`]; nothing here
//! panics on user input.
//!
//! # Example
//! ```
//! use graphsparse_proj::{project_l1_ball, project_simplex, project_top_k};
//!
//! let v = [0.8, -0.6, 0.1, 0.5];
//! let x = project_simplex(&v, 1.0)?;
//! assert!((x.iter().sum::<f64>() - 1.0).abs() < 1e-15 && x.iter().all(|&t| t >= 0.0));
//!
//! let b = project_l1_ball(&v, 1.0)?;
//! assert!((b.iter().map(|t| t.abs()).sum::<f64>() - 1.0).abs() < 1e-15);
//!
//! assert_eq!(project_top_k(&v, 2)?, vec![0.8, -0.6, 0.0, 0.0]);
//! # Ok::<(), graphsparse_proj::ProjError>(())
//! ```
//!
//! References: L. Condat, "Fast projection onto the simplex and the l1 ball", Math.
//! Programming 158 (2016), <https://doi.org/10.1007/s10107-015-0946-6>; H. Garg and T.
//! Jaakkola, "Solving graph compression via optimal transport", NeurIPS 2019 (Algorithm 1).

mod batch;
mod capped;
mod error;
mod simplex;
mod topk;
mod util;
mod weighted;

pub use batch::{
    PARALLEL_MIN_ELEMENTS, Parallel, project_capped_simplex_rows, project_l1_ball_rows,
    project_simplex_rows, project_top_k_rows, project_weighted_simplex_rows,
};
pub use capped::{project_capped_simplex, project_capped_simplex_into};
pub use error::{ProjError, Result};
pub use graphsparse_base::InputError;
pub use simplex::{
    project_l1_ball, project_l1_ball_into, project_simplex, project_simplex_into,
    project_simplex_zeroed_into,
};
pub use topk::{project_top_k, project_top_k_into, top_k_support, top_k_support_into};
pub use weighted::{
    WEIGHTED_SORT_MAX_LEN, project_weighted_simplex, project_weighted_simplex_into,
    project_weighted_simplex_linear_into, project_weighted_simplex_sort_into,
};
