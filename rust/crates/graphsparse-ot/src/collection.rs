//! Whole collections: every graph of a [`GraphDatabase`] compressed in parallel.

use graphsparse_base::{
    Parallel, RunControl, Truncation, check_at_least_one, check_nonnegative, check_range,
};
use graphsparse_graph::{GraphDatabase, GraphRef};
use rayon::prelude::*;

use crate::coarsen::{Coarsening, coarsen};
use crate::error::{OtError, Result, bad_param};
use crate::graph::{OtGraph, degree_prior};
use crate::otc::{OtcValidParams, OtcWorkspace, solve_unchecked};

/// Edge costs of a labelled graph (spec §7).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CostRule {
    /// `c = same` when the endpoints' labels agree, `different` otherwise (the paper:
    /// `θ_s = 0.01`, `θ_d = 0.02`).
    Labels {
        /// Cost of an edge between equal labels.
        same: f64,
        /// Cost of an edge between different labels.
        different: f64,
    },
    /// `c(i, j) = max(deg i, deg j)` (the paper's heavy-edge-like alternative, §3.4).
    MaxDegree,
}

impl Default for CostRule {
    fn default() -> Self {
        Self::Labels {
            same: 0.01,
            different: 0.02,
        }
    }
}

impl CostRule {
    /// The cost of every edge of `g`.
    ///
    /// # Arguments
    /// * `g` – a graph of a [`GraphDatabase`] (its vertex labels decide [`CostRule::Labels`]).
    ///
    /// # Returns
    /// One cost per edge of `g`, in edge order.
    ///
    /// # Errors
    /// [`OtError::Input`] for a negative or non-finite `same`/`different`.
    ///
    /// # Complexity
    /// O(n + m).
    ///
    /// # Example
    /// ```
    /// use graphsparse_graph::GraphDatabase;
    /// use graphsparse_ot::CostRule;
    /// let db = GraphDatabase::new(vec![0, 3], vec![0, 0, 1], vec![0, 2], vec![[0, 1], [1, 2]], vec![0, 0])?;
    /// assert_eq!(CostRule::default().costs(db.graph(0))?, vec![0.01, 0.02]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn costs(&self, g: GraphRef<'_>) -> Result<Vec<f64>> {
        self.check()?;
        Ok(self.costs_unchecked(g))
    }

    fn check(&self) -> Result<()> {
        if let Self::Labels { same, different } = *self {
            check_nonnegative("cost_same", same)?;
            check_nonnegative("cost_different", different)?;
        }
        Ok(())
    }

    fn costs_unchecked(&self, g: GraphRef<'_>) -> Vec<f64> {
        match *self {
            Self::Labels { same, different } => g
                .edges
                .iter()
                .map(|&[u, v]| {
                    if g.node_labels[u as usize] == g.node_labels[v as usize] {
                        same
                    } else {
                        different
                    }
                })
                .collect(),
            Self::MaxDegree => {
                let mut d = vec![0u32; g.n_vertices()];
                for &[u, v] in g.edges {
                    d[u as usize] += 1;
                    d[v as usize] += 1;
                }
                g.edges
                    .iter()
                    .map(|&[u, v]| f64::from(d[u as usize].max(d[v as usize])))
                    .collect()
            }
        }
    }
}

/// The budget `k` of each graph.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TargetSize<'a> {
    /// The same `k ≥ 1` for every graph.
    Fixed(usize),
    /// `k = max(1, round(ratio · n))` with `0 < ratio ≤ 1`.
    Ratio(f64),
    /// One `k ≥ 1` per graph (the paper's protocol: the sizes REC reached).
    PerGraph(&'a [usize]),
}

impl TargetSize<'_> {
    fn check(&self, n_graphs: usize) -> Result<()> {
        match *self {
            Self::Fixed(k) => Ok(check_at_least_one("k", k)?),
            Self::Ratio(r) => Ok(check_range("ratio", r, "in (0, 1]", |r| {
                r > 0.0 && r <= 1.0
            })?),
            Self::PerGraph(ks) => {
                graphsparse_base::check_len("k", ks.len(), n_graphs)?;
                match ks.iter().position(|&k| k == 0) {
                    Some(i) => Err(bad_param("k", format!("must be >= 1, got 0 for graph {i}"))),
                    None => Ok(()),
                }
            }
        }
    }

    /// The budget of graph `i` with `n` vertices (`i` in range: checked by `check`).
    pub(crate) fn k(&self, i: usize, n: usize) -> usize {
        match *self {
            Self::Fixed(k) => k,
            Self::Ratio(r) => ((r * n as f64).round() as usize).max(1),
            Self::PerGraph(ks) => ks[i],
        }
    }
}

/// The method that compresses each graph.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Method {
    /// OTC: keep the induced subgraph on the vertices Mirror Prox selects.
    Otc {
        /// Checked Mirror Prox parameters.
        params: OtcValidParams,
        /// Edge costs from labels.
        costs: CostRule,
    },
    /// An edge-contraction baseline (merged vertices keep their representative's label).
    Coarsen {
        /// REC or heavy edge.
        method: Coarsening,
        /// Most matching levels (`None`: until the target is met or no edge is left).
        max_levels: Option<usize>,
    },
}

/// A compressed collection.
#[derive(Debug, Clone, PartialEq)]
pub struct Compressed {
    /// The compressed graphs, in input order (only the first `n_done` when truncated).
    pub db: GraphDatabase,
    /// For every original vertex (graph after graph, as in the input database), its vertex in
    /// the compressed graph, or `u32::MAX` when OTC dropped it.
    pub assignment: Vec<u32>,
    /// OTC only (empty for the baselines): the averaged relaxation `ε̂` of every original
    /// vertex, graph after graph (1 for the vertices of graphs kept whole because `k ≥ n`).
    pub eps_hat: Vec<f64>,
    /// Graphs compressed (all of them unless `truncation` is set).
    pub n_done: usize,
    /// Why the run stopped early, if it did.
    pub truncation: Option<Truncation>,
}

/// Compresses every graph of `db` with `method` to its target size.
///
/// # Arguments
/// * `db` – the graphs (vertex labels drive the costs and are kept).
/// * `method` – [`Method::Otc`] or a [`Method::Coarsen`] baseline.
/// * `target` – the budget `k` of each graph; `k ≥ n` keeps a graph as it is.
/// * `parallel` – when to compress graphs in parallel on the caller's rayon pool (a
///   [`Parallel`], or a `bool`: `true` is [`Parallel::Auto`]); every policy but
///   [`Parallel::Serial`] does, since each graph is a whole solve.
/// * `ctl` – cancellation and progress (`stage` counts finished graphs).
///
/// # Returns
/// A [`Compressed`] collection: OTC gives the induced subgraph `G[S]` (original labels, every
/// edge with both ends in `S`, vertices in increasing original order); a baseline gives the
/// contracted graph. The result is identical for every thread count.
///
/// # Errors
/// [`OtError::Input`] or [`OtError::InvalidParameter`] for a bad target or cost rule.
///
/// # Complexity
/// The sum of the per-graph costs ([`crate::solve_otc`], [`crate::coarsen`]), spread over
/// the pool's threads; O(total size) memory.
///
/// # Example
/// ```
/// use graphsparse_base::RunControl;
/// use graphsparse_graph::GraphDatabase;
/// use graphsparse_ot::{Check, CostRule, Method, OtcParams, TargetSize, compress_collection};
/// // G1 of the specification: the path C–C–N
/// let db = GraphDatabase::new(vec![0, 3], vec![0, 0, 1], vec![0, 2], vec![[0, 1], [1, 2]], vec![0, 0])?;
/// let method = Method::Otc { params: OtcParams::new().check()?, costs: CostRule::default() };
/// let out = compress_collection(&db, &method, TargetSize::Fixed(2), false, &RunControl::new())?;
/// assert_eq!(out.db.graph(0).edges, &[[0, 1]]);
/// assert_eq!(out.assignment, vec![0, 1, u32::MAX]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compress_collection(
    db: &GraphDatabase,
    method: &Method,
    target: TargetSize<'_>,
    parallel: impl Into<Parallel>,
    ctl: &RunControl,
) -> Result<Compressed> {
    let parallel = parallel.into().enabled() && db.len() > 1;
    target.check(db.len())?;
    let budget = match method {
        Method::Otc { params, costs } => {
            costs.check()?;
            params.budget()
        }
        Method::Coarsen { .. } => graphsparse_base::Budget::UNLIMITED,
    };
    let meter = budget.start(ctl);
    let n_graphs = db.len();
    let done = std::sync::atomic::AtomicU64::new(0);
    type One = (Vec<u32>, Vec<f64>);
    let one = |i: usize, ws: &mut OtcWorkspace| -> Option<Result<One>> {
        if meter.poll() {
            return None;
        }
        let g = db.graph(i);
        let n = g.n_vertices();
        let k = target.k(i, n);
        let out = match method {
            Method::Otc { params, costs } => {
                let c = costs.costs_unchecked(g);
                let og = match OtGraph::undirected(n, g.edges, &c) {
                    Ok(og) => og,
                    Err(e) => return Some(Err(e)),
                };
                let rho0 = degree_prior(&og);
                let sol = match solve_unchecked(&og, &rho0, k, params, &meter, ws) {
                    Ok(sol) => sol,
                    Err(e) => return Some(Err(e)),
                };
                if sol.truncation.is_some() {
                    return None;
                }
                let mut a = vec![u32::MAX; n];
                for (new, &old) in sol.vertices.iter().enumerate() {
                    a[old as usize] = new as u32;
                }
                Ok((a, sol.eps_hat))
            }
            Method::Coarsen { method, max_levels } => {
                coarsen(n, g.edges, k, *method, i as u64, *max_levels)
                    .map(|c| (c.assignment, Vec::new()))
            }
        };
        let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        ctl.progress().set_stage(d, n_graphs as u64);
        Some(out.map_err(|e| OtError::InGraph {
            graph: i,
            source: Box::new(e),
        }))
    };
    let results: Vec<Option<Result<One>>> = if parallel {
        (0..n_graphs)
            .into_par_iter()
            .map_init(OtcWorkspace::default, |ws, i| one(i, ws))
            .collect()
    } else {
        let mut ws = OtcWorkspace::default();
        (0..n_graphs).map(|i| one(i, &mut ws)).collect()
    };
    let mut assignment = Vec::with_capacity(db.node_labels().len());
    let mut eps_hat = Vec::new();
    let mut node_ptr = vec![0usize];
    let mut edge_ptr = vec![0usize];
    let (mut labels, mut edges, mut edge_labels) = (Vec::new(), Vec::new(), Vec::new());
    let mut n_done = 0;
    for (i, r) in results.into_iter().enumerate() {
        let Some(r) = r else { break };
        let (a, e) = r?;
        eps_hat.extend_from_slice(&e);
        append_image(db.graph(i), &a, &mut labels, &mut edges, &mut edge_labels);
        node_ptr.push(labels.len());
        edge_ptr.push(edges.len());
        assignment.extend_from_slice(&a);
        n_done += 1;
    }
    let truncation = if n_done < n_graphs {
        Some(meter.truncation().unwrap_or(Truncation::Cancelled))
    } else {
        None
    };
    let db = GraphDatabase::new(node_ptr, labels, edge_ptr, edges, edge_labels)?;
    Ok(Compressed {
        db,
        assignment,
        eps_hat,
        n_done,
        truncation,
    })
}

/// Appends the image of `g` under the vertex map `a` (`u32::MAX`: dropped).
///
/// New vertex `j` takes the label of the smallest original vertex mapped to it; a new edge
/// takes the label of the first original edge mapped to it; edges inside one new vertex and
/// edges with a dropped end vanish.
fn append_image(
    g: GraphRef<'_>,
    a: &[u32],
    labels: &mut Vec<u32>,
    edges: &mut Vec<[u32; 2]>,
    edge_labels: &mut Vec<u32>,
) {
    let n_new = a
        .iter()
        .filter(|&&x| x != u32::MAX)
        .map(|&x| x as usize + 1)
        .max()
        .unwrap_or(0);
    let base = labels.len();
    labels.resize(base + n_new, u32::MAX);
    for (v, &x) in a.iter().enumerate() {
        if x != u32::MAX && labels[base + x as usize] == u32::MAX {
            labels[base + x as usize] = g.node_labels[v];
        }
    }
    let mut seen = rustc_hash::FxHashSet::default();
    for (&[u, v], &l) in g.edges.iter().zip(g.edge_labels) {
        let (x, y) = (a[u as usize], a[v as usize]);
        if x == u32::MAX || y == u32::MAX || x == y {
            continue;
        }
        if seen.insert((x.min(y), x.max(y))) {
            edges.push([x, y]);
            edge_labels.push(l);
        }
    }
}
