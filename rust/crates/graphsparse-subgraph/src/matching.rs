//! Subgraph-isomorphism tests of small patterns against a database (prediction on new graphs).
//!
//! The matcher follows the pattern's DFS code: the first edge tries every data vertex with the
//! right label, each forward edge extends the embedding along an adjacency list, each backward
//! edge checks one data edge. Graphs are independent, so they may run in parallel (under the
//! caller's [`Parallel`] policy).

use graphsparse_base::Parallel;
use graphsparse_graph::{GraphDatabase, GraphRef};
use graphsparse_gspan::{DfsCode, DfsEdge};
use rayon::prelude::*;

struct Adjacency {
    start: Vec<usize>,
    nbrs: Vec<(u32, u32)>,
}

impl Adjacency {
    /// Both ends' view of every edge; in a `directed` graph the arc label
    /// ([`DfsEdge::arc_label`]) seen from each end, as the codes of a directed search carry it.
    fn new(g: &GraphRef<'_>, directed: bool) -> Self {
        let n = g.n_vertices();
        let mut deg = vec![0usize; n + 1];
        for e in g.edges {
            deg[e[0] as usize + 1] += 1;
            deg[e[1] as usize + 1] += 1;
        }
        for v in 0..n {
            deg[v + 1] += deg[v];
        }
        let mut fill = deg.clone();
        let mut nbrs = vec![(0u32, 0u32); 2 * g.n_edges()];
        for (e, &l) in g.edges.iter().zip(g.edge_labels) {
            let (tail, head) = if directed {
                (DfsEdge::arc_label(l, false), DfsEdge::arc_label(l, true))
            } else {
                (l, l)
            };
            nbrs[fill[e[0] as usize]] = (e[1], tail);
            fill[e[0] as usize] += 1;
            nbrs[fill[e[1] as usize]] = (e[0], head);
            fill[e[1] as usize] += 1;
        }
        Self { start: deg, nbrs }
    }

    fn of(&self, v: u32) -> &[(u32, u32)] {
        &self.nbrs[self.start[v as usize]..self.start[v as usize + 1]]
    }
}

struct Matcher<'a> {
    labels: &'a [u32],
    adj: &'a Adjacency,
    map: Vec<u32>,
    used: Vec<bool>,
}

impl Matcher<'_> {
    fn extend(&mut self, code: &DfsCode, k: usize) -> bool {
        let edges = code.edges();
        if k == edges.len() {
            return true;
        }
        let e = edges[k];
        let u = self.map[e.from as usize];
        if e.from > e.to {
            let w = self.map[e.to as usize];
            return self
                .adj
                .of(u)
                .iter()
                .any(|&(x, l)| x == w && l == e.edge_label)
                && self.extend(code, k + 1);
        }
        let adj = self.adj;
        for &(w, l) in adj.of(u) {
            if l == e.edge_label && !self.used[w as usize] && self.labels[w as usize] == e.to_label
            {
                self.used[w as usize] = true;
                self.map[e.to as usize] = w;
                let ok = self.extend(code, k + 1);
                self.used[w as usize] = false;
                if ok {
                    return true;
                }
            }
        }
        false
    }

    fn contains(&mut self, code: &DfsCode) -> bool {
        let Some(first) = code.edges().first() else {
            return false;
        };
        self.map.clear();
        self.map.resize(code.n_vertices(), u32::MAX);
        for v in 0..self.labels.len() as u32 {
            if self.labels[v as usize] != first.from_label {
                continue;
            }
            self.used[v as usize] = true;
            self.map[first.from as usize] = v;
            let ok = self.extend(code, 0);
            self.used[v as usize] = false;
            if ok {
                return true;
            }
        }
        false
    }
}

fn patterns_in(g: GraphRef<'_>, directed: bool, patterns: &[DfsCode]) -> Vec<u32> {
    let adj = Adjacency::new(&g, directed);
    let mut m = Matcher {
        labels: g.node_labels,
        adj: &adj,
        map: Vec::new(),
        used: vec![false; g.n_vertices()],
    };
    (0..patterns.len() as u32)
        .filter(|&p| m.contains(&patterns[p as usize]))
        .collect()
}

/// For each pattern, the sorted ids of the graphs of `db` that contain it (as a subgraph,
/// labels included; not necessarily induced). In a directed database the patterns are codes
/// of a directed search (edge labels are arc labels, [`DfsEdge::arc_label`]) and arcs must
/// match with their direction.
///
/// # Complexity
/// Backtracking, exponential in the pattern size in the worst case; fast for the small
/// patterns that sparse models select.
///
/// # Example
/// ```
/// use graphsparse_graph::parse_gspan;
/// use graphsparse_gspan::{DfsCode, DfsEdge};
/// use graphsparse_subgraph::{Parallel, match_patterns};
/// let db = parse_gspan("t # 0\nv 0 0\nv 1 1\ne 0 1 0\nt # 1\nv 0 0\nv 1 0\ne 0 1 0\n", "<doc>").unwrap().db;
/// let p = DfsCode::from_edges(vec![DfsEdge::new(0, 1, 0, 0, 1)]).unwrap();
/// assert_eq!(match_patterns(&db, &[p], Parallel::Serial), vec![vec![0]]);
/// ```
pub fn match_patterns(
    db: &GraphDatabase,
    patterns: &[DfsCode],
    parallel: Parallel,
) -> Vec<Vec<u32>> {
    // work: one match per (graph, pattern) pair
    let work = db.len().saturating_mul(patterns.len());
    let per_graph: Vec<Vec<u32>> = if parallel.use_rayon(db.len(), work) {
        (0..db.len())
            .into_par_iter()
            .map(|g| patterns_in(db.graph(g), db.directed(), patterns))
            .collect()
    } else {
        (0..db.len())
            .map(|g| patterns_in(db.graph(g), db.directed(), patterns))
            .collect()
    };
    let mut out = vec![Vec::new(); patterns.len()];
    for (g, ps) in per_graph.iter().enumerate() {
        for &p in ps {
            out[p as usize].push(g as u32);
        }
    }
    out
}
