//! The visitor interface of the traversal and the statistics it returns.

use crate::code::DfsCode;
use crate::embed::Chain;

/// A visitor's answer for a node seen in pre-order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Visit {
    /// Expand the node (visit its children).
    Continue,
    /// Do not expand below this node. Its post-order call still happens.
    Prune,
}

/// One node of the gSpan enumeration tree, as a visitor sees it.
///
/// Edge patterns have `depth == code().len() >= 1`. Single-vertex patterns (when enabled) have
/// depth 0, an empty code and [`Node::vertex_label`] set; they are leaves, reported before any
/// edge pattern.
#[derive(Debug, Clone, Copy)]
pub struct Node<'a> {
    pub(crate) code: &'a DfsCode,
    pub(crate) vertex_label: Option<u32>,
    pub(crate) graph_ids: &'a [u32],
    pub(crate) counts: &'a [u32],
    /// The embedding arrays of the node and its ancestors (empty for single vertices).
    pub(crate) chain: Chain<'a>,
    /// In the pattern set the parameters ask for.
    pub(crate) in_set: bool,
}

impl<'a> Node<'a> {
    /// The pattern's minimum DFS code (empty for a single-vertex pattern).
    ///
    /// # Complexity
    /// O(1).
    pub fn code(&self) -> &'a DfsCode {
        self.code
    }

    /// The vertex label of a single-vertex pattern; `None` for edge patterns.
    ///
    /// # Complexity
    /// O(1).
    pub fn vertex_label(&self) -> Option<u32> {
        self.vertex_label
    }

    /// The graphs containing the pattern, sorted and distinct (`1(x)` in the paper).
    ///
    /// # Complexity
    /// O(1).
    pub fn graph_ids(&self) -> &'a [u32] {
        self.graph_ids
    }

    /// Number of distinct graphs containing the pattern.
    ///
    /// # Complexity
    /// O(1).
    pub fn support(&self) -> usize {
        self.graph_ids.len()
    }

    /// Whether the pattern belongs to the set that
    /// [`MinerParams::pattern_set`](crate::MinerParams::pattern_set) asks for: always true
    /// for [`PatternSet::All`](crate::PatternSet::All); for `Closed` (`Maximal`), whether no
    /// super-pattern of at most `max_size` edges has the same support (is frequent).
    ///
    /// The traversal still visits nodes outside the set (their subtrees may hold patterns in
    /// it), except where early termination proves a subtree holds none.
    ///
    /// # Complexity
    /// O(1) (decided before the visitor sees the node).
    pub fn in_pattern_set(&self) -> bool {
        self.in_set
    }

    /// Number of edges (0 for single-vertex patterns).
    ///
    /// # Complexity
    /// O(1).
    pub fn depth(&self) -> usize {
        self.code.len()
    }

    /// Per graph of [`Node::graph_ids`] (same order), the number of embeddings of the DFS
    /// code in it: vertex maps, so automorphic images count separately. For single-vertex
    /// patterns, the number of vertices with that label.
    ///
    /// # Complexity
    /// O(1) (a borrowed slice).
    pub fn embedding_counts(&self) -> &'a [u32] {
        self.counts
    }
}

/// A serial traversal callback.
///
/// `pre` sees every node in pre-order (children in increasing DFS-lexicographic order of
/// their last edge, i.e. increasing code) and decides whether to expand it; `post` is called
/// after the node's subtree, also when the traversal stops early, so every `pre` has a
/// matching `post`.
pub trait Visitor {
    /// Called before the node's children; [`Visit::Prune`] skips them.
    fn pre(&mut self, node: &Node<'_>) -> Visit;

    /// Called after the node's children (default: nothing).
    fn post(&mut self, node: &Node<'_>) {
        let _ = node;
    }
}

/// A visitor that can be split across threads, as [`crate::mine`] takes (a serial traversal
/// never calls `fork` or `join`).
///
/// Where the traversal runs sibling subtrees in parallel, it calls `fork` once per child
/// subtree (in child order, before any of them starts), runs each subtree with its own fork,
/// and then `join`s the forks back in child order. Where to split depends only on the data
/// and the parameters, never on the number of threads, so the sequence of `pre`/`post`/`fork`
/// /`join` calls each visitor sees is the same for every pool size; visitors whose state flows
/// only through `fork`/`join` give thread-count-independent results.
///
/// State that must be shared *while* subtrees run (a branch-and-bound incumbent) belongs in
/// the visitor, e.g. as an `Arc<AtomicU64>` cloned by `fork`:
///
/// ```
/// use std::sync::Arc;
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use graphsparse_base::RunControl;
/// use graphsparse_graph::parse_gspan;
/// use graphsparse_gspan::{mine, Check, MinerParams, Node, Parallel, ParallelVisitor, Visit, Visitor};
///
/// /// Finds the pattern with the largest total weight sum over its graphs, pruning with the
/// /// bound "sum of the positive weights" (supports only shrink below a node).
/// struct Best<'w> {
///     weights: &'w [f64],
///     bound: Arc<AtomicU64>, // f64 bits of the best gain so far (gains are >= 0 here)
///     best: Option<(f64, graphsparse_gspan::DfsCode)>,
/// }
///
/// impl Visitor for Best<'_> {
///     fn pre(&mut self, node: &Node<'_>) -> Visit {
///         let ids = node.graph_ids();
///         let gain: f64 = ids.iter().map(|&g| self.weights[g as usize]).sum();
///         let upper: f64 = ids.iter().map(|&g| self.weights[g as usize].max(0.0)).sum();
///         let incumbent = f64::from_bits(self.bound.load(Ordering::Relaxed));
///         // ties go to the smaller code: keep a strictly better gain, or an equal gain
///         // with a smaller code, so the answer does not depend on the visiting order
///         let better = match &self.best {
///             None => true,
///             Some((g, c)) => gain > *g || (gain == *g && node.code() < c),
///         };
///         if better && gain >= incumbent {
///             self.best = Some((gain, node.code().clone()));
///             self.bound.fetch_max(gain.to_bits(), Ordering::Relaxed);
///         }
///         // strict: a subtree that can only tie might still hold a smaller code
///         if upper < f64::from_bits(self.bound.load(Ordering::Relaxed)) {
///             Visit::Prune
///         } else {
///             Visit::Continue
///         }
///     }
/// }
///
/// impl ParallelVisitor for Best<'_> {
///     fn fork(&self) -> Self {
///         Best { weights: self.weights, bound: Arc::clone(&self.bound), best: None }
///     }
///     fn join(&mut self, child: Self) {
///         if let Some((g, c)) = child.best {
///             let better = match &self.best {
///                 None => true,
///                 Some((bg, bc)) => g > *bg || (g == *bg && c < *bc),
///             };
///             if better {
///                 self.best = Some((g, c));
///             }
///         }
///     }
/// }
///
/// let text = "t # 0\nv 0 0\nv 1 1\nv 2 0\ne 0 1 0\ne 1 2 0\n\
///             t # 1\nv 0 0\nv 1 1\ne 0 1 0\n\
///             t # 2\nv 0 1\nv 1 1\ne 0 1 0\n";
/// let db = parse_gspan(text, "<doc>").unwrap().db;
/// let weights = [2.0, -1.0, 0.5];
/// let params = MinerParams::new().min_support(1).parallel(Parallel::Auto).check().unwrap();
/// let mut v = Best { weights: &weights, bound: Arc::new(AtomicU64::new(0)), best: None };
/// // a parallel traversal runs on the rayon pool the caller installed (here: the global one)
/// mine(&db, &params, &mut v, &RunControl::new()).unwrap();
/// let (gain, code) = v.best.unwrap();
/// assert_eq!(gain, 2.0); // a pattern found in graph 0 only
/// assert_eq!(code.len(), 2);
/// ```
pub trait ParallelVisitor: Visitor + Send + Sized {
    /// A visitor for one child subtree, made before the subtree starts.
    fn fork(&self) -> Self;

    /// Merges a finished subtree's visitor back (called in child order).
    fn join(&mut self, child: Self);
}

use graphsparse_base::Truncation;

/// What a traversal did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MiningStats {
    /// Tree nodes passed to the visitor (patterns visited, single vertices included).
    pub nodes_visited: u64,
    /// Nodes for which the visitor answered [`Visit::Prune`].
    pub nodes_pruned: u64,
    /// Frequent extensions rejected because their code was not minimal (duplicates).
    pub non_minimal: u64,
    /// Nodes whose children early termination cut, all or some (closed and maximal sets
    /// only; see [`crate::mine`]).
    pub early_terminations: u64,
    /// Why the traversal stopped early, or `None` when it finished the tree.
    pub truncation: Option<Truncation>,
    /// Wall time of the call in seconds.
    pub seconds: f64,
}
