//! L1 / elastic-net learning over all subgraph features by block coordinate gradient descent
//! (Takigawa & Mamitsuka, Figure 7).
//!
//! Problem: `min over (β0, β)  Σ_i L(y_i, μ_i) / n + λ1 ||β||_1 + λ2/2 ||β||²` with
//! `μ_i = β0 + Σ_j β_j I(x_j ⊆ g_i)`, over every connected subgraph `x_j` of the data.
//!
//! Notation map (paper → code): `L'_i/n`, `L''_i/n` → `g1[i]`, `g2[i]`; `H_jj` → `h`;
//! `b_j` → `b`; `T(θ)_j` → `t`; `d_j` → `d`; `\overline{L}_j`, `\underline{L}_j` → `lup`, `llo`;
//! `\overline{B}_j`, `\underline{B}_j` → `bup`, `blo`; the dictionary `h[j]` of nonzero features
//! below `x_j` → the candidate stack `cand` (depth-first dictionary passing: a feature is below
//! a node exactly when the node's DFS code is a prefix of the feature's code).
//!
//! Each iteration traverses the gSpan tree once. At each node it computes `T_j` and prunes the
//! subtree when `max(Lup + Bup, −Llo − Blo) ≤ λ1` (Theorem 11): then `T_k = 0` for every `k` below.
//! A node whose graph-id set (column) was already seen this iteration is the same feature: it
//! is counted as skipped and recorded as an equivalent pattern, and the traversal continues
//! below it. Columns are compared exactly (hash map keyed by the sorted ids).
//!
//! With screening, working sets (beyond the paper; [`BcgdParams::working_set`]) replace most
//! searches: after a search, the iterations run over the nonzero features and the columns
//! searches found with `T_j ≠ 0` (their derivatives summed over their graph ids, no tree),
//! with the same Gauss–Southwell-r and line search, until `||H d||_∞ ≤ tol` over them; then a
//! search of the whole tree either certifies `||H d||_∞ ≤ tol` over all patterns or brings the
//! violating ones in. The returned model is always certified by a search of the whole tree.
//!
//! * `params`: [`BcgdParams`] → [`BcgdValidParams`];
//! * `model`: the fitted model [`BcgdFit`] and the statistics of its searches;
//! * `search`: one search of the tree (the Theorem 11 and safe-pattern pruning tests);
//! * `solver`: the iteration (direction, Gauss–Southwell-r, line search, dual point);
//! * `drivers`: [`fit_bcgd`], [`fit_bcgd_path`], [`objective`].

mod drivers;
mod model;
mod params;
mod search;
mod solver;

pub use drivers::{fit_bcgd, fit_bcgd_path, objective};
pub use model::{BcgdFit, IterationStats, TraceStep};
pub use params::{BcgdParams, BcgdValidParams};
