//! gSpan frequent connected subgraph mining, exact and parallel, with a visitor traversal.
//!
//! The gSpan enumeration tree (Yan & Han 2002 [1]) visits every connected pattern that occurs
//! in a graph database exactly once, through its minimum DFS code: children come from
//! rightmost-path extension only and a child is kept when its code is minimal. Support (the
//! number of distinct graphs containing a pattern) can only shrink below a node, so a minimum
//! support prunes whole subtrees, and so can any visitor with its own bound (boosting's
//! best-pattern search, the BCGD step of sparse learning over all subgraphs [2]).
//!
//! * [`DfsCode`], [`DfsEdge`]: codes, gSpan's DFS lexicographic order (`Ord`), the minimum-code
//!   test [`DfsCode::is_min`], conversion to a graph; [`min_dfs_code`] canonicalises any small
//!   connected labelled graph.
//! * [`MinerParams`] → ([`Check`]) → [`MinerValidParams`]: `min_support` (absolute),
//!   `max_size` (edges), single-vertex patterns, a node and time [`Budget`], the [`Parallel`]
//!   policy, the [`PatternSet`] (all, closed or maximal patterns); every traversal takes the
//!   caller's [`RunControl`] (cancellation, progress).
//! * [`mine`]: the traversal, serial or parallel by the policy, driving a
//!   [`ParallelVisitor`] (a [`Visitor`] that can fork and join); [`mine_frequent`] collects
//!   all patterns in canonical order (increasing DFS code).
//! * [`Node::embeddings`], [`MiningIndex`], [`mine_below`]: keep a pruned node's embeddings
//!   and expand it later without re-embedding its ancestors.
//! * [`LevelIndex`], [`Frontier`], [`count_extensions`], [`extend_frontier`]: level-wise
//!   rounds over one part of a partitioned database, for exact mining with supports summed
//!   across the parts.
//!
//! Embeddings are stored gBolt-style, 8 bytes each (`(parent embedding, directed data edge)`)
//! in per-depth arenas reused across siblings, so memory is one frontier per depth. The
//! parallel traversal splits sibling subtrees with rayon on the caller's pool, at places that
//! depend on the data only, so results never depend on the number of threads.
//!
//! # Example
//! ```
//! use graphsparse_base::RunControl;
//! use graphsparse_graph::parse_gspan;
//! use graphsparse_gspan::{mine_frequent, Check, MinerParams};
//!
//! // two molecules sharing the fragment C-C-O
//! let text = "t # 0\nv 0 C\nv 1 C\nv 2 O\ne 0 1 1\ne 1 2 1\n\
//!             t # 1\nv 0 C\nv 1 C\nv 2 O\nv 3 N\ne 0 1 1\ne 1 2 1\ne 2 3 1\n";
//! let data = parse_gspan(text, "<doc>").unwrap();
//! let params = MinerParams::new().min_support(2).check().unwrap();
//! let res = mine_frequent(&data.db, &params, &RunControl::new()).unwrap();
//! // C-C, C-O and C-C-O occur in both graphs
//! assert_eq!(res.patterns.len(), 3);
//! assert!(res.patterns.iter().all(|p| p.support() == 2 && p.code.is_min()));
//! assert!(res.patterns.windows(2).all(|w| w[0].code < w[1].code));
//! ```
//!
//! [1]: https://doi.org/10.1109/ICDM.2002.1184038
//! [2]: https://doi.org/10.1007/s10994-013-5371-4

mod closed;
mod code;
mod counts;
mod embed;
mod error;
mod frequent;
mod levels;
mod mincode;
mod miner;
mod params;
mod prepared;
mod resume;
mod subpatterns;
mod visit;

pub use code::{DfsCode, DfsEdge, PatternGraph};
pub use error::{GspanError, Result};
pub use frequent::{CollectVisitor, FoundPattern, MiningResult, mine_frequent};
pub use graphsparse_base::{Budget, Check, Parallel, RunControl, Truncation};
pub use levels::{Extension, Frontier, LevelCount, LevelIndex, count_extensions, extend_frontier};
pub use mincode::{min_dfs_code, min_dfs_code_directed};
pub use miner::{mine, mine_with_meter};
pub use params::{MinerParams, MinerValidParams, PatternSet};
pub use resume::{Embeddings, MiningIndex, mine_below};
pub use subpatterns::one_edge_smaller;
pub use visit::{MiningStats, Node, ParallelVisitor, Visit, Visitor};
