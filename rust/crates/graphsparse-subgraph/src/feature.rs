//! The selected features of a sparse subgraph model.

use graphsparse_gspan::DfsCode;

/// One selected feature: an equivalence class of patterns with the same occurrence set.
#[derive(Debug, Clone, PartialEq)]
pub struct Feature {
    /// The representative pattern (the smallest DFS code met).
    pub code: DfsCode,
    /// Sorted ids of the graphs containing it (the column `1(x)`).
    pub graph_ids: Vec<u32>,
    /// The coefficient `β_j` (nonzero).
    pub coef: f64,
    /// Other patterns met with the same column, in increasing DFS-code order.
    pub equivalents: Vec<DfsCode>,
}
