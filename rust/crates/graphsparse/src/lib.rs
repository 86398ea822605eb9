//! graphsparse: sparse learning on graph-structured data.
//!
//! This facade re-exports the core crates, one Cargo feature per area:
//!
//! | module | crate | feature |
//! |---|---|---|
//! | [`base`] | `graphsparse-base`: the foundation: budgets, run control, the `Check` trait and shared checks, `Parallel`, the seeded generator | always |
//! | [`graph`] | `graphsparse-graph`: labelled-graph databases, gSpan and TU readers | `graph` |
//! | [`gspan`] | `graphsparse-gspan`: parallel gSpan with a visitor traversal | `gspan` |
//! | [`pcst`] | `graphsparse-pcst`: GW prize-collecting Steiner forest (as `pcst_fast`) | `pcst` |
//! | [`proj`] | `graphsparse-proj`: simplex, l1-ball, weighted/capped simplex, top-k projections | `proj` |
//! | [`online`] | `graphsparse-online`: WGM head/tail projections, GraphDA and online baselines | `online` |
//! | [`recovery`] | `graphsparse-recovery`: convex graph-structured recovery (Kuroda & Kitahara), lasso, latent group lasso, Graph-IHT/CoSaMP | `recovery` |
//! | [`ot`] | `graphsparse-ot`: graph optimal transport, OTC compression, REC/heavy-edge coarsening, WL features | `ot` |
//! | [`subgraph`] | `graphsparse-subgraph`: sparse models over all subgraph features (BCGD, boosting) | `subgraph` |
//! | [`lattice`] | `graphsparse-lattice`: rule ensembles by gHKL on the conjunction lattice (kernel cache, active set) | `lattice` |
//!
//! # Example
//! ```
//! use graphsparse::graph::parse_gspan;
//! let data = parse_gspan("t # 0\nv 0 C\nv 1 O\ne 0 1 1\n", "<string>").unwrap();
//! assert_eq!(data.db.len(), 1);
//! ```

pub use graphsparse_base as base;
#[cfg(feature = "graph")]
pub use graphsparse_graph as graph;
#[cfg(feature = "gspan")]
pub use graphsparse_gspan as gspan;
#[cfg(feature = "lattice")]
pub use graphsparse_lattice as lattice;
#[cfg(feature = "online")]
pub use graphsparse_online as online;
#[cfg(feature = "ot")]
pub use graphsparse_ot as ot;
#[cfg(feature = "pcst")]
pub use graphsparse_pcst as pcst;
#[cfg(feature = "proj")]
pub use graphsparse_proj as proj;
#[cfg(feature = "recovery")]
pub use graphsparse_recovery as recovery;
#[cfg(feature = "subgraph")]
pub use graphsparse_subgraph as subgraph;
