/// The edges of a `height × width` grid graph whose nodes are numbered row by row
/// (`node = row * width + column`), the graph of the GraphDA benchmarks and of the recovery
/// experiments.
///
/// # Arguments
/// * `height`, `width` – rows and columns of nodes (either may be 0: no nodes, no edges).
///
/// # Returns
/// The `height (width − 1) + (height − 1) width` edges `[u, v]` with `u < v`, node by node in
/// row-major order, each node's right edge before its down edge.
///
/// # Complexity
/// O(height · width) time and memory.
///
/// # Example
/// ```
/// use graphsparse_pcst::grid_edges;
///
/// assert_eq!(grid_edges(2, 2), vec![[0, 1], [0, 2], [1, 3], [2, 3]]);
/// assert_eq!(grid_edges(3, 4).len(), 3 * 3 + 2 * 4);
/// ```
pub fn grid_edges(height: usize, width: usize) -> Vec<[usize; 2]> {
    let n = height * width;
    let mut edges = Vec::with_capacity((2 * n).saturating_sub(height + width));
    for v in 0..n {
        if v % width != width - 1 {
            edges.push([v, v + 1]);
        }
        if v + width < n {
            edges.push([v, v + width]);
        }
    }
    edges
}
