//! Frequent-subgraph mining as a visitor: collect every node.

use graphsparse_base::RunControl;
use graphsparse_graph::GraphDatabase;

use crate::code::DfsCode;
use crate::error::Result;
use crate::miner::mine;
use crate::params::MinerValidParams;
use crate::visit::{MiningStats, Node, ParallelVisitor, Visit, Visitor};

/// One frequent pattern.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FoundPattern {
    /// Minimum DFS code (empty for a single-vertex pattern).
    pub code: DfsCode,
    /// Label of a single-vertex pattern; `None` for edge patterns.
    pub vertex_label: Option<u32>,
    /// Sorted ids of the graphs containing the pattern.
    pub graph_ids: Vec<u32>,
}

impl FoundPattern {
    /// Number of graphs containing the pattern.
    ///
    /// # Complexity
    /// O(1).
    pub fn support(&self) -> usize {
        self.graph_ids.len()
    }
}

/// The result of [`mine_frequent`]: the patterns in canonical order and the statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct MiningResult {
    /// Single-vertex patterns (by label) first, then edge patterns in increasing DFS-code
    /// order (the pre-order of the gSpan tree).
    pub patterns: Vec<FoundPattern>,
    /// What the traversal did, including whether it was truncated.
    pub stats: MiningStats,
}

/// A visitor that keeps every node it sees in the requested pattern set (the plain miner).
#[derive(Debug, Clone, Default)]
pub struct CollectVisitor {
    /// The collected patterns, in visiting order.
    pub patterns: Vec<FoundPattern>,
}

impl Visitor for CollectVisitor {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        if !node.in_pattern_set() {
            return Visit::Continue;
        }
        self.patterns.push(FoundPattern {
            code: node.code().clone(),
            vertex_label: node.vertex_label(),
            graph_ids: node.graph_ids().to_vec(),
        });
        Visit::Continue
    }
}

impl ParallelVisitor for CollectVisitor {
    fn fork(&self) -> Self {
        Self::default()
    }

    fn join(&mut self, mut child: Self) {
        if self.patterns.is_empty() {
            self.patterns = child.patterns;
        } else {
            self.patterns.append(&mut child.patterns);
        }
    }
}

/// All frequent connected subgraphs of `db` (or the closed or maximal ones, by
/// [`MinerParams::pattern_set`](crate::MinerParams::pattern_set)), in canonical order
/// (increasing DFS code); in
/// parallel on the current rayon pool under the policy of `params`, with the same patterns in
/// the same order for any number of threads (when not truncated).
///
/// # Errors
/// As [`mine`].
///
/// # Example
/// ```
/// use graphsparse_base::RunControl;
/// use graphsparse_graph::parse_gspan;
/// use graphsparse_gspan::{mine_frequent, Check, MinerParams};
/// let text = "t # 0\nv 0 0\nv 1 1\nv 2 0\ne 0 1 0\ne 1 2 0\nt # 1\nv 0 0\nv 1 1\ne 0 1 0\n";
/// let db = parse_gspan(text, "<doc>").unwrap().db;
/// let params = MinerParams::new().min_support(2).single_vertices(true).check().unwrap();
/// let res = mine_frequent(&db, &params, &RunControl::new()).unwrap();
/// // labels 0 and 1 as single vertices, then the edge 0-1
/// assert_eq!(res.patterns.len(), 3);
/// assert_eq!(res.patterns[0].vertex_label, Some(0));
/// assert_eq!(res.patterns[2].code.to_string(), "(0,1,0,0,1)");
/// assert_eq!(res.patterns[2].graph_ids, vec![0, 1]);
/// ```
///
/// # Complexity
/// As [`mine`], plus O(pattern size + support) to copy each frequent pattern out.
pub fn mine_frequent(
    db: &GraphDatabase,
    params: &MinerValidParams,
    ctl: &RunControl,
) -> Result<MiningResult> {
    let mut v = CollectVisitor::default();
    let stats = mine(db, params, &mut v, ctl)?;
    Ok(MiningResult {
        patterns: v.patterns,
        stats,
    })
}
