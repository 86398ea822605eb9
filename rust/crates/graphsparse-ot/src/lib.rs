//! Optimal transport on graphs, graph compression by optimal transport (OTC), coarsening
//! baselines and compiled Weisfeiler–Lehman subtree features.
//!
//! This crate implements Garg & Jaakkola, *Solving graph compression via optimal transport*
//! (NeurIPS 2019) as reconstructed and corrected in the project's specification
//! (`shared/spec/ot-graph-compression.md`, "the spec" below). Everything is sparse: one step
//! costs O(n + m) for `n` vertices and `m` edges; no dense `n × n` matrix is ever formed.
//!
//! | item | what it computes | algorithm |
//! |---|---|---|
//! | [`OtGraph`] | graph with signed incidence `F` (spec §1), directed, undirected or mixed | edge list, `F t` and `Fᵀ μ` as O(m) loops |
//! | [`solve_transport`], [`graph_ot_distance`] | `W(ρ0, ρ1)` (Beckmann / Wasserstein-1 on the graph, spec §2), flow and dual potentials | exact network simplex |
//! | [`project_lipschitz`] | projection onto `T_{F,c} = {t : \|t(u) − t(v)\| ≤ c(e)}` (spec §4.2) | Hildreth dual coordinate descent or FDPG, warm-started |
//! | [`solve_otc`] | OTC: Mirror Prox (Algorithm 2) and rounding to `k` vertices (spec §5, §6.1) | extragradient, paper or stable steps |
//! | [`inner_value`], [`saddle_gap`], [`certificate`] | `V(ε)`, the saddle gap, the exactness certificate (spec §5.3, §6.4, §6.5) | FISTA with a primal–dual bracket |
//! | [`coarsen`] | REC, heavy-edge, algebraic-distance and affinity baselines (spec §8.2) | multilevel edge contraction, seeded |
//! | [`compress_collection`] | a whole [`GraphDatabase`](graphsparse_graph::GraphDatabase) compressed in parallel | rayon over graphs, thread-count independent |
//! | [`wl_subtree_features`] | WL subtree feature map (kernel = GraKeL's `WeisfeilerLehman` + `VertexHistogram`) | shared dictionary, parallel chunks, CSR output |
//!
//! The two simplex-type projections the method needs, the capped simplex `Ẽ_k` and the
//! paper's Algorithm 1, live in `graphsparse-proj` (`project_capped_simplex_into`,
//! `project_weighted_simplex`).
//!
//! # Notation (paper / spec → code)
//!
//! | symbol | meaning | code |
//! |---|---|---|
//! | `F` | signed incidence: `+1` at the head, `−1` at the tail | [`OtGraph::apply_f`], [`OtGraph::apply_ft`] |
//! | `c(e)` | edge cost | [`OtGraph::cost`], [`CostRule`] |
//! | `ρ0`, `ρ1` | prior and target distributions | `rho0`, `rho1`; [`degree_prior`] |
//! | `J⁺ − J⁻` | net flow along `tail → head` | [`TransportSolution::flow`] |
//! | `t` | dual potentials | [`TransportSolution::potentials`], [`OtcSolution::t_bar`] |
//! | `λ` | regulariser of `‖ρ1‖²` | [`OtcParams::lambda`] |
//! | `ε`, `ε̂` | relaxed vertex indicator and its average | `eps`, [`OtcSolution::eps_hat`] |
//! | `ζ` | multiplier of `Σ ρ1 = 1` | `zeta`, [`OtcSolution::zeta_bar`] |
//! | `ψ_{ρ0}` (Theorem 5) | saddle function `Φ(ε, t, ζ)` | [`phi`], [`grad_phi`] |
//! | `α_ℓ, β_ℓ, γ_ℓ`, `T` | Mirror Prox steps and iterations | [`OtcParams::alpha`] … [`OtcParams::n_iter`] |
//! | `k`, `S` | budget and kept vertices | `k`, [`OtcSolution::vertices`] |
//! | `h` | WL refinements | [`WlParams::n_iter`] |
//!
//! # Where this differs from the paper (each choice is justified in the spec)
//!
//! * The undirected incidence is **signed** (arbitrary orientation), not the paper's unsigned
//!   `F(e, v) = 1`, which makes problem (1) infeasible on bipartite graphs (spec §2.2).
//! * `ψ_{ρ0}` is read as the bounded saddle function `Φ` of spec §3.3, and "`∇ψ`" in
//!   Algorithm 2 as its full gradient (spec §3.6).
//! * The paper leaves out the projections, the gradients and the rounding; they are derived in
//!   the spec (§3.5, §4, §6.1). The rounding tie rule is `(−round(10¹⁰ ε̂), −ρ0, index)`.
//! * [`StepMode::Paper`] reproduces the paper's fixed run, golden values of spec §10 to 1e-9;
//!   [`StepMode::Stable`] caps `β, γ` at `λ/(1 + k)`, because the paper's steps oscillate for
//!   `k ≳ 10` (spec §5.4).
//! * When `k max ρ0 ≤ 1` the relaxation's optimum is `ε* = k ρ0` whatever the costs (spec
//!   §3.7): a converged run ranks by degree; paper mode's ranking comes from its short
//!   transient. Theorem 4's certificate never holds with a full-support prior (spec §6.4).
//! * REC picks candidate edges uniformly (the potential used by the OTC authors is not
//!   stated). Algebraic distance and affinity use 10 test vectors and 20 relaxation sweeps
//!   (Loukas' settings are not stated either).
//!
//! # Errors, budgets, parallelism
//!
//! Every entry point validates its input and returns [`OtError`] naming the argument and the
//! bad value; nothing panics on user input. Long runs take a
//! [`RunControl`](graphsparse_base::RunControl) (cancellation, progress) and a
//! [`Budget`](graphsparse_base::Budget); a truncated result says so in its `truncation`.
//! Parallel work runs on the caller's rayon pool and gives identical results for every
//! thread count.
//!
//! # Example
//! Compress the golden graph G1 of the spec (the path C–C–N, costs from labels) to two
//! vertices, then measure how far its degree prior is from the uniform distribution:
//! ```
//! use graphsparse_base::RunControl;
//! use graphsparse_ot::{Check, OtGraph, OtcParams, degree_prior, graph_ot_distance, solve_otc};
//!
//! let g = OtGraph::undirected(3, &[[0, 1], [1, 2]], &[0.01, 0.02])?;
//! let rho0 = degree_prior(&g); // (1/4, 1/2, 1/4)
//! let sol = solve_otc(&g, &rho0, 2, &OtcParams::new().check()?, &RunControl::new())?;
//! assert_eq!(sol.vertices, vec![0, 1]);
//!
//! // move 1/12 from vertex 1 to each end: 1/12 · 0.01 + 1/12 · 0.02
//! let w = graph_ot_distance(&g, &rho0, &[1.0 / 3.0; 3])?;
//! assert!((w - 0.0025).abs() < 1e-15);
//! # Ok::<(), graphsparse_ot::OtError>(())
//! ```
//!
//! References: V. K. Garg and T. Jaakkola, "Solving graph compression via optimal transport",
//! NeurIPS 2019, <https://arxiv.org/abs/1905.12158>; M. Essid and J. Solomon, "Quadratically
//! regularized optimal transport on graphs", SIAM J. Sci. Comput. 40 (2018),
//! <https://arxiv.org/abs/1704.08200>; A. Beck and M. Teboulle, "A fast dual proximal gradient
//! algorithm for convex minimization and applications", Oper. Res. Lett. 42 (2014),
//! <https://doi.org/10.1016/j.orl.2013.10.007>; A. Loukas and P. Vandergheynst, "Spectrally
//! approximating large graphs with smaller graphs", ICML 2018,
//! <https://arxiv.org/abs/1802.07510>; N. Shervashidze et al., "Weisfeiler–Lehman graph
//! kernels", JMLR 12 (2011), <https://www.jmlr.org/papers/v12/shervashidze11a.html>.

mod coarsen;
mod collection;
mod error;
mod graph;
mod inner;
mod lipschitz;
mod otc;
mod transport;
mod wl;

pub use coarsen::{Coarsening, Contraction, RELAX_SWEEPS, TEST_VECTORS, coarsen};
pub use collection::{Compressed, CostRule, Method, TargetSize, compress_collection};
pub use error::{MASS_TOL, OtError, Result};
pub use graph::{Directed, OtGraph, degree_prior};
pub use graphsparse_base::{Check, Parallel};
pub use graphsparse_graph::{CsrMatrix, WeightedGraph};
pub use inner::{Certificate, InnerSolution, certificate, inner_value, saddle_gap};
pub use lipschitz::{
    LipschitzOptions, LipschitzSolver, LipschitzValidOptions, LipschitzWork, ProjectionInfo,
    project_lipschitz, project_lipschitz_into,
};
pub use otc::{
    OtcParams, OtcSolution, OtcTrace, OtcValidParams, OtcWorkspace, StepMode, grad_phi, phi,
    round_top_k, solve_otc,
};
pub use transport::{
    TransportParams, TransportSolution, TransportValidParams, graph_ot_distance, solve_transport,
};
pub use wl::{WlFeatures, WlParams, WlValidParams, WlVocabulary, wl_subtree_features};
