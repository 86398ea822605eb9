//! The database as the miner reads it: global ids, label-sorted adjacency, infrequent edges removed.

use std::collections::HashMap;

use graphsparse_graph::GraphDatabase;

use crate::code::DfsEdge;
use crate::error::{GspanError, Result};

/// The key an edge's support is counted under: its label triple, unordered ends when
/// undirected, `(tail, label, head)` when directed.
fn triple(directed: bool, a: u32, l: u32, b: u32) -> (u32, u32, u32) {
    if directed {
        (a, l, b)
    } else {
        (a.min(b), l, a.max(b))
    }
}

/// One directed adjacency entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Adj {
    /// Global id of the neighbour.
    pub to: u32,
    /// Label of the edge.
    pub elabel: u32,
    /// Label of the neighbour.
    pub to_label: u32,
    /// Dense id of `(elabel, to_label)`; ids follow the order of the pairs.
    pub pair: u32,
}

/// Above this many distinct `(edge label, vertex label)` pairs the miner keys extensions by
/// hashing instead of a dense per-node table.
const DENSE_MAX_PAIRS: usize = 4096;

/// Flattened, filtered view of a [`GraphDatabase`].
///
/// Vertices and edges get global ids (graph after graph). Edges whose label triple
/// `(min vertex label, edge label, max vertex label)` occurs in fewer than `min_support`
/// graphs cannot be part of a frequent pattern and are dropped from the adjacency.
///
/// In a directed database the triple is `(tail label, edge label, head label)` and each
/// adjacency entry carries the arc label ([`crate::DfsEdge::arc_label`]) as seen from its
/// vertex: `2 * label` at the tail, `2 * label + 1` at the head. Everything downstream reads
/// labels from the side it walks from, so extensions and codes carry the direction.
#[derive(Debug)]
pub(crate) struct Prepared {
    pub n_graphs: usize,
    /// Whether adjacency labels are arc labels.
    pub directed: bool,
    pub vlabel: Vec<u32>,
    pub vgraph: Vec<u32>,
    pub adj_ptr: Vec<u32>,
    pub adj: Vec<Adj>,
    /// Number of distinct `(elabel, to_label)` pairs in the adjacency.
    pub n_pairs: usize,
    /// The distinct `(elabel, to_label)` pairs, sorted; `Adj::pair` indexes this.
    pub pairs: Vec<(u32, u32)>,
    /// Whether extensions are keyed through dense tables (few label pairs).
    pub dense_keys: bool,
}

impl Prepared {
    pub fn new(db: &GraphDatabase, min_support: usize) -> Result<Self> {
        let n_vertices = db.node_labels().len();
        let n_edges = db.edges().len();
        if 2 * n_edges >= u32::MAX as usize {
            return Err(GspanError::TooLarge(format!("{n_edges} edges")));
        }
        if n_vertices >= u32::MAX as usize || db.len() >= u32::MAX as usize {
            return Err(GspanError::TooLarge(format!("{n_vertices} vertices")));
        }
        let vlabel = db.node_labels().to_vec();
        let directed = db.directed();
        let mut vgraph = Vec::with_capacity(n_vertices);
        let mut ends = Vec::with_capacity(n_edges);
        let mut elabel = Vec::with_capacity(n_edges);
        // support of each edge label triple, counted once per graph
        let mut triple_support: HashMap<(u32, u32, u32), (usize, u32)> = HashMap::new();
        for g in 0..db.len() {
            let base = db.node_ptr()[g] as u32;
            let graph = db.graph(g);
            vgraph.extend(std::iter::repeat_n(g as u32, graph.n_vertices()));
            for (&[u, v], &l) in graph.edges.iter().zip(graph.edge_labels) {
                let (a, b) = (graph.node_labels[u as usize], graph.node_labels[v as usize]);
                let key = triple(directed, a, l, b);
                let entry = triple_support.entry(key).or_insert((0, u32::MAX));
                if entry.1 != g as u32 {
                    *entry = (entry.0 + 1, g as u32);
                }
                ends.push([base + u, base + v]);
                elabel.push(l);
            }
        }
        let mut degree = vec![0u32; n_vertices + 1];
        let keep: Vec<bool> = ends
            .iter()
            .zip(&elabel)
            .map(|(&[u, v], &l)| {
                let (a, b) = (vlabel[u as usize], vlabel[v as usize]);
                triple_support[&triple(directed, a, l, b)].0 >= min_support
            })
            .collect();
        for (&[u, v], _) in ends.iter().zip(&keep).filter(|(_, k)| **k) {
            degree[u as usize] += 1;
            degree[v as usize] += 1;
        }
        let mut adj_ptr = Vec::with_capacity(n_vertices + 1);
        adj_ptr.push(0u32);
        let mut acc = 0u32;
        for &d in &degree[..n_vertices] {
            acc += d;
            adj_ptr.push(acc);
        }
        let mut adj = vec![
            Adj {
                to: 0,
                elabel: 0,
                to_label: 0,
                pair: 0
            };
            acc as usize
        ];
        let mut cursor = adj_ptr.clone();
        for (e, (&[u, v], &l)) in ends.iter().zip(&elabel).enumerate() {
            if !keep[e] {
                continue;
            }
            // both directions of the undirected edge (of the arc u -> v: tail side, head side)
            let labels = if directed {
                [DfsEdge::arc_label(l, false), DfsEdge::arc_label(l, true)]
            } else {
                [l, l]
            };
            for ((from, to), l) in [(u, v), (v, u)].into_iter().zip(labels) {
                let at = &mut cursor[from as usize];
                adj[*at as usize] = Adj {
                    to,
                    elabel: l,
                    to_label: vlabel[to as usize],
                    pair: 0,
                };
                *at += 1;
            }
        }
        // label-sorted adjacency: extensions of one vertex come out in extension order
        for v in 0..n_vertices {
            adj[adj_ptr[v] as usize..adj_ptr[v + 1] as usize]
                .sort_unstable_by_key(|a| (a.elabel, a.to_label, a.to));
        }
        let mut pairs: Vec<(u32, u32)> = adj.iter().map(|a| (a.elabel, a.to_label)).collect();
        pairs.sort_unstable();
        pairs.dedup();
        for a in &mut adj {
            a.pair = pairs
                .binary_search(&(a.elabel, a.to_label))
                .expect("invariant: listed") as u32;
        }
        let n_pairs = pairs.len();
        Ok(Self {
            n_graphs: db.len(),
            directed,
            vlabel,
            vgraph,
            adj_ptr,
            adj,
            n_pairs,
            pairs,
            dense_keys: n_pairs <= DENSE_MAX_PAIRS,
        })
    }

    /// The label of the same edge seen from its other end (the arc label with its direction
    /// flipped in a directed database, the label itself otherwise).
    #[inline]
    pub fn reverse_label(&self, elabel: u32) -> u32 {
        elabel ^ u32::from(self.directed)
    }

    #[inline]
    pub fn nbrs(&self, v: u32) -> &[Adj] {
        &self.adj[self.adj_ptr[v as usize] as usize..self.adj_ptr[v as usize + 1] as usize]
    }

    /// Bytes of the heap buffers (by length).
    pub fn bytes(&self) -> usize {
        4 * (self.vlabel.len() + self.vgraph.len() + self.adj_ptr.len())
            + self.adj.len() * std::mem::size_of::<Adj>()
            + self.pairs.len() * 8
    }

    pub fn n_vertices(&self) -> usize {
        self.vlabel.len()
    }
}
