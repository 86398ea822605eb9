//! Level-wise (breadth-first) gSpan over one part of a partitioned database.
//!
//! A database split into disjoint parts is mined exactly in rounds, as FSM-H does (Bhuiyan &
//! Al Hasan, IEEE TKDE 2015). In round `k` every part extends the patterns of `k` edges that are
//! frequent in the *whole* database (its [`Frontier`]) by one edge, on its own embeddings, and
//! reports each rightmost-path extension that occurs in it with its support there
//! ([`count_extensions`]). The caller adds the supports over the parts and keeps the
//! extensions whose total reaches the minimum support and whose code is minimal
//! ([`DfsCode::is_min`], tested once per frequent extension rather than in every part for
//! every extension); each part then keeps the embeddings of exactly those
//! ([`extend_frontier`]) for the next round.
//!
//! Why this is gSpan: support (distinct graphs) adds up over disjoint parts, it can only
//! shrink from a code to its extensions, and the prefix of a minimum DFS code is a minimum DFS
//! code. So every frequent pattern's minimum code is an extension of a frequent minimum code
//! one edge shorter, and the rounds keep exactly the patterns gSpan finds on the whole
//! database. Minimality depends on the code alone, and the parts' label ids need only order
//! the labels alike.
//!
//! Cost: a part generates the one-edge extensions of the frequent patterns that occur in it,
//! which is what gSpan does for them on one machine, twice (once to count, once to keep the
//! frequent ones' embeddings), and holds the embeddings of one frontier. Nothing depends on how
//! the parts are sized. Single-vertex patterns are not part of the rounds.

use graphsparse_base::{Check, Meter, RunControl, Truncation};
use graphsparse_graph::GraphDatabase;
use rayon::prelude::*;

use crate::code::{DfsCode, DfsEdge};
use crate::error::{GspanError, Result};
use crate::miner::{SerialMode, mine_serial_with_meter};
use crate::params::{MinerParams, MinerValidParams};
use crate::resume::{Embeddings, MiningIndex, below_checked};
use crate::visit::{Node, Visit, Visitor};

/// One part of a database prepared for level-wise rounds (every extension that occurs in it
/// counts, whatever its support there).
#[derive(Debug)]
pub struct LevelIndex {
    index: MiningIndex,
    params: MinerValidParams,
}

impl LevelIndex {
    /// Prepares `db` (one part of the whole database).
    ///
    /// # Errors
    /// [`GspanError::TooLarge`] for parts beyond the 32-bit embedding store.
    ///
    /// # Complexity
    /// O(vertices + edges) time and memory.
    pub fn new(db: &GraphDatabase) -> Result<Self> {
        let params = MinerParams::new().check()?;
        Ok(Self {
            index: MiningIndex::new(db, &params)?,
            params,
        })
    }

    /// The prepared part, for [`Embeddings::from_parts`].
    ///
    /// # Complexity
    /// O(1).
    pub fn mining_index(&self) -> &MiningIndex {
        &self.index
    }
}

/// The patterns of one size that a round extends, with their embeddings in one part, in
/// increasing code order. [`Frontier::root`] is the empty pattern, whose extensions are the
/// one-edge patterns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Frontier {
    size: usize,
    patterns: Vec<Embeddings>,
}

impl Frontier {
    /// The frontier of round 0: the empty pattern.
    pub fn root() -> Self {
        Self::default()
    }

    /// A frontier of patterns with `size >= 1` edges each, given in strictly increasing code
    /// order (as [`extend_frontier`] returns them).
    ///
    /// # Errors
    /// [`GspanError::Mismatch`] when `size` is 0, a pattern has another size, or the codes do
    /// not increase.
    ///
    /// # Complexity
    /// O(total code length).
    pub fn new(size: usize, patterns: Vec<Embeddings>) -> Result<Self> {
        let mismatch = |what: &str| Err(GspanError::Mismatch(what.to_string()));
        if size == 0 {
            return mismatch("a frontier of stored patterns has size >= 1 (the root has 0)");
        }
        if patterns.iter().any(|p| p.code().len() != size) {
            return mismatch("every pattern of a frontier has the frontier's size");
        }
        if patterns.windows(2).any(|w| w[0].code() >= w[1].code()) {
            return mismatch("a frontier's codes must increase");
        }
        Ok(Self { size, patterns })
    }

    /// Edges per pattern (0 for the root).
    ///
    /// # Complexity
    /// O(1).
    pub fn size(&self) -> usize {
        self.size
    }

    /// The patterns with their embeddings, in increasing code order (none for the root).
    ///
    /// # Complexity
    /// O(1).
    pub fn patterns(&self) -> &[Embeddings] {
        &self.patterns
    }

    /// Bytes held by the stored embeddings (see [`Embeddings::bytes`]).
    ///
    /// # Complexity
    /// O(patterns).
    pub fn bytes(&self) -> usize {
        self.patterns.iter().map(Embeddings::bytes).sum()
    }
}

/// One rightmost-path extension found in a part (its code need not be minimal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extension {
    /// Index of the extended pattern in the frontier (0 for the root's extensions).
    pub parent: usize,
    /// The edge appended to the parent's code.
    pub edge: DfsEdge,
    /// Number of the part's graphs holding the extension.
    pub support: usize,
}

impl Extension {
    /// The extension's code: its parent's with `edge` appended.
    ///
    /// # Complexity
    /// O(code length).
    pub fn code(&self, frontier: &Frontier) -> DfsCode {
        let mut code = frontier
            .patterns
            .get(self.parent)
            .map_or_else(DfsCode::new, |p| p.code().clone());
        code.push(self.edge);
        code
    }
}

/// What one round found in one part.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LevelCount {
    /// Every rightmost-path extension of the frontier's patterns that occurs in the part,
    /// minimal or not, in increasing code order (by parent, then edge).
    pub extensions: Vec<Extension>,
    /// Why the round stopped early (a cancellation), or `None` when it finished.
    pub truncation: Option<Truncation>,
}

/// The rightmost-path extensions of `frontier`'s patterns in the part `db` (prepared as
/// `index`) and their supports there, minimal codes or not (the one-edge patterns of the root
/// are always minimal); the frontier's patterns are extended in parallel on the current
/// rayon pool (the result does not depend on the pool).
///
/// # Errors
/// [`GspanError::TooLarge`] as [`crate::mine`], for the root.
///
/// # Complexity
/// The extension step of gSpan for each pattern of the frontier: O(embeddings × pattern
/// size), with no minimality test.
///
/// # Example
/// ```
/// use graphsparse_base::RunControl;
/// use graphsparse_graph::parse_gspan;
/// use graphsparse_gspan::{count_extensions, Frontier, LevelIndex};
///
/// // a path a-b-c: one-edge patterns a-b and b-c
/// let db = parse_gspan("t # 0\nv 0 0\nv 1 1\nv 2 2\ne 0 1 0\ne 1 2 0\n", "<doc>").unwrap().db;
/// let index = LevelIndex::new(&db).unwrap();
/// let ctl = RunControl::new();
/// let level = count_extensions(&db, &index, &Frontier::root(), &ctl).unwrap();
/// assert_eq!(level.extensions.len(), 2);
/// assert!(level.extensions.iter().all(|x| x.parent == 0 && x.support == 1));
/// ```
pub fn count_extensions(
    db: &GraphDatabase,
    index: &LevelIndex,
    frontier: &Frontier,
    ctl: &RunControl,
) -> Result<LevelCount> {
    let meter = index.params.budget().start(ctl);
    let parts = each_pattern(db, index, frontier, &meter, |_| Counted(Vec::new()))?;
    let extensions = parts
        .into_iter()
        .enumerate()
        .flat_map(|(parent, c)| {
            c.0.into_iter().map(move |(edge, support)| Extension {
                parent,
                edge,
                support,
            })
        })
        .collect();
    Ok(LevelCount {
        extensions,
        truncation: meter.truncation(),
    })
}

/// The next frontier: those one-edge extensions `(parent, edge)` of `frontier`'s patterns
/// listed in `keep` that occur in the part `db` (prepared as `index`), with their embeddings,
/// and for each the position of its entry in `keep`. Entries that do not occur in the part,
/// or name no pattern of the frontier, are left out.
///
/// # Errors
/// [`GspanError::TooLarge`] as [`crate::mine`], for the root; [`GspanError::Mismatch`] when
/// the round was cancelled (the frontier would be incomplete).
///
/// # Complexity
/// As [`count_extensions`], plus copying the kept embeddings (O(size × embeddings) each) and
/// sorting `keep`.
pub fn extend_frontier(
    db: &GraphDatabase,
    index: &LevelIndex,
    frontier: &Frontier,
    keep: &[(usize, DfsEdge)],
    ctl: &RunControl,
) -> Result<(Frontier, Vec<usize>)> {
    // entries grouped by parent, each group sorted by edge for a binary search
    let mut order: Vec<usize> = (0..keep.len()).collect();
    order.sort_unstable_by_key(|&k| (keep[k].0, edge_key(&keep[k].1)));
    let sorted: Vec<(usize, [u32; 5])> = order
        .iter()
        .map(|&k| (keep[k].0, edge_key(&keep[k].1)))
        .collect();
    let meter = index.params.budget().start(ctl);
    let parts = each_pattern(db, index, frontier, &meter, |parent| {
        let lo = sorted.partition_point(|e| e.0 < parent);
        let hi = sorted.partition_point(|e| e.0 <= parent);
        Kept {
            keep: &sorted[lo..hi],
            offset: lo,
            found: Vec::new(),
        }
    })?;
    if meter.truncation().is_some() {
        return Err(GspanError::Mismatch(
            "the round was cancelled before the frontier was complete".to_string(),
        ));
    }
    let (positions, patterns): (Vec<usize>, Vec<Embeddings>) = parts
        .into_iter()
        .flat_map(|k| k.found)
        .map(|(at, emb)| (order[at], emb))
        .unzip();
    let frontier = Frontier {
        size: frontier.size + 1,
        patterns,
    };
    Ok((frontier, positions))
}

fn edge_key(e: &DfsEdge) -> [u32; 5] {
    [e.from, e.to, e.from_label, e.edge_label, e.to_label]
}

/// Runs a fresh visitor from `make(parent)` below every pattern of `frontier` (below the
/// root: over the one-edge patterns, as parent 0), in parallel over the patterns; the
/// visitors in frontier order.
fn each_pattern<V, F>(
    db: &GraphDatabase,
    index: &LevelIndex,
    frontier: &Frontier,
    meter: &Meter<'_>,
    make: F,
) -> Result<Vec<V>>
where
    V: Visitor + Send,
    F: Fn(usize) -> V + Sync,
{
    if frontier.size == 0 {
        let mut v = make(0);
        mine_serial_with_meter(db, &index.params, &mut v, meter)?;
        return Ok(vec![v]);
    }
    Ok(frontier
        .patterns
        .par_iter()
        .enumerate()
        .map(|(parent, emb)| {
            let mut v = make(parent);
            // minimality is the caller's test, once per globally frequent extension
            below_checked::<V, SerialMode>(&index.index, &index.params, emb, &mut v, meter, false);
            v
        })
        .collect())
}

/// Records each child's last edge and support, and goes no deeper.
struct Counted(Vec<(DfsEdge, usize)>);

impl Visitor for Counted {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        let edge = *node
            .code()
            .edges()
            .last()
            .expect("invariant: an edge pattern");
        self.0.push((edge, node.support()));
        Visit::Prune
    }
}

/// Keeps the embeddings of the children whose last edge is listed in `keep` (one parent's
/// sorted entries, starting at `offset` of the whole sorted list) and goes no deeper.
struct Kept<'k> {
    keep: &'k [(usize, [u32; 5])],
    offset: usize,
    found: Vec<(usize, Embeddings)>,
}

impl Visitor for Kept<'_> {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        let edge = edge_key(
            node.code()
                .edges()
                .last()
                .expect("invariant: an edge pattern"),
        );
        if let Ok(at) = self.keep.binary_search_by(|e| e.1.cmp(&edge)) {
            let emb = node
                .embeddings()
                .expect("invariant: an edge pattern has embeddings");
            self.found.push((self.offset + at, emb));
        }
        Visit::Prune
    }
}
