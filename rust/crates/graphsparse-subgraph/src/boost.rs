//! The best decision stump by branch and bound: Adaboost's weak learner (Kudo et al. 2005) and
//! LPBoost's pricing step (gBoost, Saigo et al. 2009) on the gSpan tree.
//!
//! A stump is `h(g) = s (2 I(x ⊆ g) − 1)` with `s ∈ {−1, +1}`; its gain is `Σ_i w_i y_i h(g_i)`.
//! Below a node with graphs `1(x)`, no pattern can beat the Morishita–Kudo bound
//! [`WeightedGain::bound`], so a subtree whose bound is below the best gain found so far
//! (shared between threads through an atomic) is pruned. A subtree whose bound only *equals*
//! the best gain is pruned when the best stump's code is smaller than the node's (every code
//! below is larger still, so it could only lose the tie-break): plateaus of equal gains, common
//! when the weights are sparse (LPBoost), do not force a full traversal, and the answer stays
//! independent of the thread count.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use graphsparse_graph::GraphDatabase;
use graphsparse_gspan::{
    DfsCode, MinerParams, Node, ParallelVisitor, Truncation, Visit, Visitor, mine, mine_parallel,
};

use crate::bounds::WeightedGain;
use crate::error::{Result, SubgraphError, bad};

/// Parameters of [`best_stump`].
#[derive(Debug, Clone, PartialEq)]
pub struct StumpParams {
    /// Least number of graphs a pattern must occur in (≥ 1).
    pub min_support: usize,
    /// Largest pattern size in edges (`None`: unbounded).
    pub max_size: Option<usize>,
    /// Node budget of the search.
    pub max_nodes: Option<u64>,
    /// Time budget of the search.
    pub time_limit: Option<Duration>,
    /// Prune with the bound (turn off only to check that pruning is safe).
    pub prune: bool,
    /// Traverse sibling subtrees in parallel on the current rayon pool.
    pub parallel: bool,
}

impl Default for StumpParams {
    fn default() -> Self {
        Self {
            min_support: 1,
            max_size: None,
            max_nodes: None,
            time_limit: None,
            prune: true,
            parallel: false,
        }
    }
}

/// The result of [`best_stump`].
#[derive(Debug, Clone, PartialEq)]
pub struct StumpSearch {
    /// The best pattern (`None` when the tree is empty).
    pub code: Option<DfsCode>,
    /// Its graphs, sorted.
    pub graph_ids: Vec<u32>,
    /// The stump's sign `s` (+1 or −1).
    pub sign: f64,
    /// Its gain `Σ_i w_i y_i h(g_i)` (≥ 0 whenever a pattern exists).
    pub gain: f64,
    /// Nodes visited.
    pub visited: u64,
    /// Why the search stopped early, if it did (the result is then the best seen so far).
    pub truncation: Option<Truncation>,
}

struct Best<'a> {
    gain: &'a WeightedGain,
    prune: bool,
    incumbent: Arc<AtomicU64>,
    global: Arc<Mutex<Option<(f64, DfsCode)>>>,
    best: Option<(f64, DfsCode, Vec<u32>, f64)>,
}

fn better(g: f64, c: &DfsCode, than: &Option<(f64, DfsCode, Vec<u32>, f64)>) -> bool {
    match than {
        None => true,
        Some((bg, bc, _, _)) => g > *bg || (g == *bg && c < bc),
    }
}

impl Visitor for Best<'_> {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        let ids = node.graph_ids();
        let plus = self.gain.gain_plus(ids);
        let g = plus.abs();
        if better(g, node.code(), &self.best) {
            let sign = if plus >= 0.0 { 1.0 } else { -1.0 };
            self.best = Some((g, node.code().clone(), ids.to_vec(), sign));
            if g >= f64::from_bits(self.incumbent.load(Ordering::Relaxed)) {
                let mut global = self.global.lock().unwrap_or_else(|p| p.into_inner());
                let wins = match &*global {
                    None => true,
                    Some((bg, bc)) => g > *bg || (g == *bg && node.code() < bc),
                };
                if wins {
                    *global = Some((g, node.code().clone()));
                    self.incumbent.fetch_max(g.to_bits(), Ordering::Relaxed);
                }
            }
        }
        if !self.prune {
            return Visit::Continue;
        }
        let bound = self.gain.bound(ids);
        let incumbent = f64::from_bits(self.incumbent.load(Ordering::Relaxed));
        if bound < incumbent {
            return Visit::Prune;
        }
        if bound == incumbent {
            let global = self.global.lock().unwrap_or_else(|p| p.into_inner());
            if let Some((bg, bc)) = &*global
                && bound <= *bg
                && bc < node.code()
            {
                return Visit::Prune;
            }
        }
        Visit::Continue
    }
}

impl ParallelVisitor for Best<'_> {
    fn fork(&self) -> Self {
        Best {
            gain: self.gain,
            prune: self.prune,
            incumbent: Arc::clone(&self.incumbent),
            global: Arc::clone(&self.global),
            best: None,
        }
    }

    fn join(&mut self, child: Self) {
        if let Some(b) = child.best
            && better(b.0, &b.1, &self.best)
        {
            self.best = Some(b);
        }
    }
}

/// Finds the stump `(x, s)` with the largest gain `Σ_i w_i y_i s (2 I(x ⊆ g_i) − 1)`.
///
/// Ties go to the smaller DFS code, then to `s = +1`; the answer does not depend on the
/// thread count.
///
/// # Arguments
/// * `weights`: non-negative sample weights; `labels`: `±1`, one per graph.
///
/// # Errors
/// [`SubgraphError::InvalidResponse`] for lengths that do not match the database or labels
/// other than ±1; [`SubgraphError::InvalidParameter`] for negative or non-finite weights or
/// `min_support == 0`.
///
/// # Example
/// ```
/// use std::sync::atomic::AtomicBool;
/// use graphsparse_graph::parse_gspan;
/// use graphsparse_subgraph::{best_stump, StumpParams};
/// let text = "t # 0\nv 0 0\nv 1 1\ne 0 1 0\nt # 1\nv 0 0\nv 1 0\ne 0 1 0\n";
/// let db = parse_gspan(text, "<doc>").unwrap().db;
/// let s = best_stump(&db, &[0.5, 0.5], &[1.0, -1.0], &StumpParams::default(), &AtomicBool::new(false)).unwrap();
/// assert_eq!(s.gain, 1.0); // either edge separates the two graphs
/// ```
pub fn best_stump(
    db: &GraphDatabase,
    weights: &[f64],
    labels: &[f64],
    params: &StumpParams,
    cancel: &AtomicBool,
) -> Result<StumpSearch> {
    let n = db.len();
    if weights.len() != n || labels.len() != n {
        return Err(SubgraphError::InvalidResponse(format!(
            "weights ({}) and labels ({}) need one value per graph ({n})",
            weights.len(),
            labels.len()
        )));
    }
    if weights.iter().any(|w| !(w.is_finite() && *w >= 0.0)) {
        return Err(bad("weights", "must be finite and >= 0"));
    }
    if labels.iter().any(|&y| y != 1.0 && y != -1.0) {
        return Err(SubgraphError::InvalidResponse(
            "labels must be -1 or +1".into(),
        ));
    }
    let miner = MinerParams::new()
        .min_support(params.min_support)
        .max_size(params.max_size)
        .max_nodes(params.max_nodes)
        .time_limit(params.time_limit)
        .check()?;
    let gain = WeightedGain::new(weights, labels);
    let mut v = Best {
        gain: &gain,
        prune: params.prune,
        incumbent: Arc::new(AtomicU64::new(0)),
        global: Arc::new(Mutex::new(None)),
        best: None,
    };
    let stats = if params.parallel {
        mine_parallel(db, &miner, &mut v, cancel)?
    } else {
        mine(db, &miner, &mut v, cancel)?
    };
    Ok(match v.best {
        Some((g, code, ids, sign)) => StumpSearch {
            code: Some(code),
            graph_ids: ids,
            sign,
            gain: g,
            visited: stats.nodes_visited,
            truncation: stats.truncation,
        },
        None => StumpSearch {
            code: None,
            graph_ids: Vec::new(),
            sign: 1.0,
            gain: 0.0,
            visited: stats.nodes_visited,
            truncation: stats.truncation,
        },
    })
}
