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

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use graphsparse_base::{Budget, Check, Parallel, RunControl, Truncation, check_all_nonnegative};
use graphsparse_graph::GraphDatabase;
use graphsparse_gspan::{
    DfsCode, MinerValidParams, Node, ParallelVisitor, Visit, Visitor, mine_with_meter,
};

use crate::bounds::WeightedGain;
use crate::cache::{CachedSearch, DEFAULT_CACHE_BYTES, Traversal, TreeCache, search_cached};
use crate::error::{Result, SubgraphError, bad, feature_miner};

/// Unchecked parameters of the best-stump search (a builder); [`Check::check`] validates them.
///
/// Defaults: `min_support = 1`, unbounded pattern size, no budget, pruning on, serial.
///
/// # Example
/// ```
/// use graphsparse_subgraph::{Check, StumpParams};
/// let params = StumpParams::new().max_size(Some(5)).max_nodes(Some(10_000)).check().unwrap();
/// assert_eq!(params.max_size(), Some(5));
/// assert!(StumpParams::new().min_support(0).check().is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct StumpParams {
    min_support: usize,
    max_size: Option<usize>,
    budget: Budget,
    prune: bool,
    parallel: Parallel,
    cache_bytes: usize,
}

impl Default for StumpParams {
    fn default() -> Self {
        Self::new()
    }
}

impl StumpParams {
    /// The default parameters (see the type documentation).
    pub const fn new() -> Self {
        Self {
            min_support: 1,
            max_size: None,
            budget: Budget::UNLIMITED,
            prune: true,
            parallel: Parallel::Serial,
            cache_bytes: DEFAULT_CACHE_BYTES,
        }
    }
    graphsparse_base::setters! {
        /// Prune with the bound (turn off only to check that pruning is safe).
        prune: bool => prune,
        /// Whether sibling subtrees may be traversed in parallel on the current rayon pool
        /// (default [`Parallel::Serial`]; in a [`StumpSearcher`]: every search, cached walks
        /// included, with the serial result).
        parallel: Parallel => parallel,
        /// Byte budget of a [`StumpSearcher`] for stored embeddings of its cached tree's
        /// expanded nodes (default 256 MiB; 0 stores none): the ancestors a frontier expansion
        /// re-embeds are kept, least recently used evicted first, and a later expansion below
        /// one of them starts from its embeddings instead of re-embedding its path from the
        /// root. Changes no result, only the time (and the node budget a search uses).
        cache_bytes: usize => cache_bytes,
        /// Least number of graphs a pattern must occur in (≥ 1).
        min_support: usize => min_support,
        /// Largest pattern size in edges (`None`: unbounded).
        max_size: Option<usize> => max_size,
        /// The node and time budget of *each* search.
        budget: Budget => budget,
        /// Node budget of each search (`None`: no limit).
        max_nodes: Option<u64> => budget.max_nodes,
        /// Time budget of each search (`None`: no limit).
        time_limit: Option<Duration> => budget.time_limit,
    }
}

impl Check for StumpParams {
    type Checked = StumpValidParams;
    type Error = SubgraphError;

    /// Validates the parameters.
    ///
    /// # Errors
    /// [`SubgraphError::Gspan`] for `min_support == 0`; [`SubgraphError::InvalidParameter`]
    /// for `max_size == Some(0)` (a stump needs a pattern with an edge).
    ///
    /// # Complexity
    /// O(1).
    fn check(self) -> Result<StumpValidParams> {
        let miner = feature_miner(self.min_support, self.max_size, self.parallel)?;
        Ok(StumpValidParams {
            miner,
            budget: self.budget,
            prune: self.prune,
            cache_bytes: self.cache_bytes,
        })
    }
}

/// Validated best-stump parameters, from [`Check::check`] on [`StumpParams`] (the parallel
/// policy is the miner's).
#[derive(Debug, Clone, PartialEq)]
pub struct StumpValidParams {
    miner: MinerValidParams,
    budget: Budget,
    prune: bool,
    cache_bytes: usize,
}

impl StumpValidParams {
    /// Largest pattern size in edges.
    ///
    /// # Complexity
    /// O(1).
    pub fn max_size(&self) -> Option<usize> {
        self.miner.max_size()
    }
    /// The budget of each search.
    pub const fn budget(&self) -> Budget {
        self.budget
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
    visited: u64,
}

impl<'a> Best<'a> {
    fn new(gain: &'a WeightedGain, prune: bool) -> Self {
        Best {
            gain,
            prune,
            incumbent: Arc::new(AtomicU64::new(0)),
            global: Arc::new(Mutex::new(None)),
            best: None,
            visited: 0,
        }
    }

    fn finish(self, visited: u64, truncation: Option<Truncation>) -> StumpSearch {
        match self.best {
            Some((gain, code, graph_ids, sign)) => StumpSearch {
                code: Some(code),
                graph_ids,
                sign,
                gain,
                visited,
                truncation,
            },
            None => StumpSearch {
                code: None,
                graph_ids: Vec::new(),
                sign: 1.0,
                gain: 0.0,
                visited,
                truncation,
            },
        }
    }
}

fn better(g: f64, c: &DfsCode, than: &Option<(f64, DfsCode, Vec<u32>, f64)>) -> bool {
    match than {
        None => true,
        Some((bg, bc, _, _)) => g > *bg || (g == *bg && c < bc),
    }
}

impl Visitor for Best<'_> {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        self.evaluate(node.code(), node.graph_ids())
    }
}

impl CachedSearch for Best<'_> {
    fn enter(&mut self, _code: &DfsCode) {}
    fn leave(&mut self) {}

    fn evaluate(&mut self, code: &DfsCode, ids: &[u32]) -> Visit {
        self.visited += 1;
        let plus = self.gain.gain_plus(ids);
        let g = plus.abs();
        if better(g, code, &self.best) {
            let sign = if plus >= 0.0 { 1.0 } else { -1.0 };
            self.best = Some((g, code.clone(), ids.to_vec(), sign));
            if g >= f64::from_bits(self.incumbent.load(Ordering::Relaxed)) {
                let mut global = self.global.lock().unwrap_or_else(|p| p.into_inner());
                let wins = match &*global {
                    None => true,
                    Some((bg, bc)) => g > *bg || (g == *bg && code < bc),
                };
                if wins {
                    *global = Some((g, code.clone()));
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
                && bc < code
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
            visited: 0,
        }
    }

    fn join(&mut self, child: Self) {
        self.visited += child.visited;
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
/// other than ±1; [`SubgraphError::Input`] for negative or non-finite weights.
///
/// # Example
/// ```
/// use graphsparse_base::RunControl;
/// use graphsparse_graph::parse_gspan;
/// use graphsparse_subgraph::{best_stump, Check, StumpParams};
/// let text = "t # 0\nv 0 0\nv 1 1\ne 0 1 0\nt # 1\nv 0 0\nv 1 0\ne 0 1 0\n";
/// let db = parse_gspan(text, "<doc>").unwrap().db;
/// let params = StumpParams::new().check().unwrap();
/// let s = best_stump(&db, &[0.5, 0.5], &[1.0, -1.0], &params, &RunControl::new()).unwrap();
/// assert_eq!(s.gain, 1.0); // either edge separates the two graphs
/// ```
///
/// # Complexity
/// One branch-and-bound traversal of the gSpan tree (worst case exponential in the pattern size; see [`graphsparse_gspan::mine`]); each visited node costs O(its embeddings + support).
pub fn best_stump(
    db: &GraphDatabase,
    weights: &[f64],
    labels: &[f64],
    params: &StumpValidParams,
    ctl: &RunControl,
) -> Result<StumpSearch> {
    check_weights(db.len(), weights, labels)?;
    let gain = WeightedGain::new(weights, labels);
    let mut v = Best::new(&gain, params.prune);
    let meter = params.budget.start(ctl);
    let stats = mine_with_meter(db, &params.miner, &mut v, &meter)?;
    Ok(v.finish(stats.nodes_visited, stats.truncation))
}

fn check_weights(n: usize, weights: &[f64], labels: &[f64]) -> Result<()> {
    if weights.len() != n || labels.len() != n {
        return Err(SubgraphError::InvalidResponse(format!(
            "weights ({}) and labels ({}) need one value per graph ({n})",
            weights.len(),
            labels.len()
        )));
    }
    check_all_nonnegative("weights", weights)?;
    check_labels(labels)
}

fn check_labels(labels: &[f64]) -> Result<()> {
    if labels.iter().any(|&y| y != 1.0 && y != -1.0) {
        return Err(SubgraphError::InvalidResponse(
            "labels must be -1 or +1".into(),
        ));
    }
    Ok(())
}

/// Repeated best-stump searches over one database that share a cache of the visited tree.
///
/// Boosting asks for the best stump once per round under new weights. The tree nodes a round
/// evaluates are kept with their graph ids, so a later round re-evaluates them without any
/// embedding work and only expands the frontier it newly wants to enter (gBoost's trick; the
/// paper's own future-work item). Each search returns exactly what [`best_stump`] returns for
/// the same weights; in parallel ([`StumpParams::parallel`]) every search (the first one, which fills the
/// cache, the walks of the cached tree and the expansions from stored frontier embeddings) runs
/// on the current rayon pool. The embeddings of the frontier's ancestors are kept within
/// [`StumpParams::cache_bytes`], so that expanding the frontier later does not re-embed the
/// paths from the root. The budget of the parameters applies to each search.
///
/// # Example
/// ```
/// use graphsparse_base::RunControl;
/// use graphsparse_graph::parse_gspan;
/// use graphsparse_subgraph::{Check, StumpParams, StumpSearcher};
/// let text = "t # 0\nv 0 0\nv 1 1\ne 0 1 0\nt # 1\nv 0 0\nv 1 0\ne 0 1 0\n";
/// let db = parse_gspan(text, "<doc>").unwrap().db;
/// let mut searcher = StumpSearcher::new(&db, &StumpParams::new().check().unwrap());
/// let cancel = RunControl::new();
/// let s = searcher.search(&db, &[0.5, 0.5], &[1.0, -1.0], &cancel).unwrap();
/// assert_eq!(s.gain, 1.0);
/// let again = searcher.search(&db, &[0.9, 0.1], &[1.0, -1.0], &cancel).unwrap();
/// assert!((again.gain - 1.0).abs() < 1e-12);
/// ```
pub struct StumpSearcher {
    params: StumpValidParams,
    cache: TreeCache,
    shape: (usize, usize, usize),
}

fn db_shape(db: &GraphDatabase) -> (usize, usize, usize) {
    (db.len(), db.node_labels().len(), db.edges().len())
}

impl StumpSearcher {
    /// A searcher for `db` (pass the same database to every [`search`](Self::search)).
    ///
    /// # Complexity
    /// O(1); the cache grows with the searches.
    pub fn new(db: &GraphDatabase, params: &StumpValidParams) -> Self {
        Self {
            params: params.clone(),
            cache: TreeCache::new(params.max_size(), params.cache_bytes),
            shape: db_shape(db),
        }
    }

    /// The best stump under `weights` and `labels` (as [`best_stump`]).
    ///
    /// # Errors
    /// As [`best_stump`]; [`SubgraphError::InvalidParameter`] when `db` is not the database the
    /// searcher was made for (its graph, vertex or edge count differ).
    ///
    /// # Complexity
    /// The first search as [`best_stump`]; later ones walk the cached tree (O(cached nodes · support) at most) and expand only its frontier.
    pub fn search(
        &mut self,
        db: &GraphDatabase,
        weights: &[f64],
        labels: &[f64],
        ctl: &RunControl,
    ) -> Result<StumpSearch> {
        if db_shape(db) != self.shape {
            return Err(bad(
                "db",
                "is not the database this StumpSearcher was created for",
            ));
        }
        check_weights(db.len(), weights, labels)?;
        let gain = WeightedGain::new(weights, labels);
        let p = &self.params;
        let mut v = Best::new(&gain, p.prune);
        let meter = p.budget.start(ctl);
        let tr = Traversal::new(db, &p.miner, &meter);
        let cut = search_cached(&mut self.cache, &tr, &mut v)?;
        let visited = v.visited;
        Ok(v.finish(visited, cut))
    }

    /// Tree nodes held in the cache.
    ///
    /// # Complexity
    /// O(1).
    pub fn cached_nodes(&self) -> usize {
        self.cache.len()
    }

    /// The state of the store of frontier embeddings (see [`StumpParams::cache_bytes`]).
    ///
    /// # Complexity
    /// O(1).
    pub fn frontier_stats(&self) -> crate::FrontierStats {
        self.cache.frontier_stats()
    }
}

/// One weak learner of [`adaboost`]: `weight · sign · (2 I(code ⊆ g) − 1)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Stump {
    /// The pattern.
    pub code: DfsCode,
    /// Sorted ids of the training graphs that contain it.
    pub graph_ids: Vec<u32>,
    /// `+1` or `−1`.
    pub sign: f64,
    /// The Adaboost weight `α_t = ½ ln((1 − ε_t) / ε_t)`.
    pub weight: f64,
}

/// The result of [`adaboost`].
#[derive(Debug, Clone, PartialEq)]
pub struct AdaBoostFit {
    /// The weak learners, one per round.
    pub stumps: Vec<Stump>,
    /// Tree nodes evaluated by each round's search.
    pub visited: Vec<u64>,
    /// Why the fit stopped early (a budget or cancellation), if it did.
    pub truncation: Option<Truncation>,
}

/// Adaboost with subgraph stumps (Kudo et al. 2005): `rounds` rounds of "best stump by
/// branch and bound under the current weights, then the exponential reweighting".
///
/// The searches share one cache of the visited tree, so later rounds re-evaluate known nodes
/// without re-embedding (gBoost's trick). Stops early when no stump beats chance
/// (`ε_t ≥ ½`); `ε_t` is floored at `1e-10`.
///
/// # Errors
/// As [`best_stump`], and [`SubgraphError::InvalidParameter`] (`n_estimators`) for
/// `rounds == 0`.
///
/// # Complexity
/// `rounds` searches of a shared [`StumpSearcher`] plus O(rounds · n) for the weights.
pub fn adaboost(
    db: &GraphDatabase,
    labels: &[f64],
    rounds: usize,
    params: &StumpValidParams,
    ctl: &RunControl,
) -> Result<AdaBoostFit> {
    if rounds == 0 {
        return Err(bad(
            "n_estimators",
            "must be >= 1 (the number of boosting rounds)",
        ));
    }
    let n = db.len();
    if labels.len() != n || n == 0 {
        return Err(SubgraphError::InvalidResponse(format!(
            "labels ({}) need one value per graph ({n})",
            labels.len()
        )));
    }
    check_labels(labels)?;
    let mut searcher = StumpSearcher::new(db, params);
    let mut w = vec![1.0 / n as f64; n];
    let mut fit = AdaBoostFit {
        stumps: Vec::new(),
        visited: Vec::new(),
        truncation: None,
    };
    let mut inside = vec![false; n];
    for _ in 0..rounds {
        let found = searcher.search(db, &w, labels, ctl)?;
        fit.visited.push(found.visited);
        if found.truncation.is_some() {
            fit.truncation = found.truncation;
            break;
        }
        let StumpSearch {
            code: Some(code),
            graph_ids: ids,
            sign,
            ..
        } = found
        else {
            break;
        };
        inside.fill(false);
        for &i in &ids {
            inside[i as usize] = true;
        }
        let h = |i: usize| if inside[i] { sign } else { -sign };
        let err: f64 = (0..n).filter(|&i| h(i) != labels[i]).map(|i| w[i]).sum();
        if err >= 0.5 {
            break;
        }
        let err = err.max(1e-10);
        let alpha = 0.5 * ((1.0 - err) / err).ln();
        for i in 0..n {
            w[i] *= (-alpha * labels[i] * h(i)).exp();
        }
        let total: f64 = w.iter().sum();
        for x in w.iter_mut() {
            *x /= total;
        }
        fit.stumps.push(Stump {
            code,
            graph_ids: ids,
            sign,
            weight: alpha,
        });
        ctl.progress().add_iteration();
    }
    Ok(fit)
}
