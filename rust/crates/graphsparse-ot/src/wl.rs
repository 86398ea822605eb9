//! Weisfeiler–Lehman subtree features (Shervashidze et al., JMLR 2011), compiled.
//!
//! Level 0 is the vertex label. Level `i ≥ 1` relabels every vertex by its *signature*: its
//! level-`(i−1)` label followed by the sorted multiset of its neighbours' level-`(i−1)`
//! labels; signatures are compressed to dense ids by a dictionary shared by all graphs.
//! Graph `G`'s feature vector stacks the label histograms of levels `0..=h`, so
//! `⟨φ(G), φ(G')⟩ = Σ_{i=0}^{h} ⟨φ_i(G), φ_i(G')⟩` is the WL subtree kernel; with `h = n_iter`
//! it equals GraKeL's `WeisfeilerLehman(n_iter=h, base_graph_kernel=VertexHistogram)`
//! (unnormalised) when every vertex is given to GraKeL (isolated ones included).
//!
//! With [`WlParams::edge_labels`] the neighbour multiset holds `(edge label, neighbour label)`
//! pairs: the signature is the own label followed by the pairs sorted lexicographically and
//! flattened, so two vertices get the same new label only when their neighbours agree and are
//! reached through equally labelled edges. Level 0 is unchanged; without the flag, edge labels
//! are ignored and the features are exactly the plain WL features.
//!
//! Long runs are cancellable: both [`wl_subtree_features`] and [`WlVocabulary::transform`]
//! take a [`RunControl`], poll it once per chunk of graphs and report one iteration and one
//! stage per finished level; a cancelled run returns the levels it finished, with
//! `truncation` set.
//!
//! Ids are given in order of first occurrence (graph by graph, vertex by vertex), so the
//! output does not depend on the thread count: graphs are processed in parallel chunks, each
//! chunk interns its signatures locally in first-occurrence order, and the chunks' new
//! signatures join the shared dictionary in chunk order, which is exactly the serial order.
//!
//! Reference: N. Shervashidze, P. Schweitzer, E. J. van Leeuwen, K. Mehlhorn and K. M.
//! Borgwardt, "Weisfeiler–Lehman graph kernels", JMLR 12 (2011),
//! <https://www.jmlr.org/papers/v12/shervashidze11a.html>.

use graphsparse_base::{Budget, Check, Parallel, RunControl, Truncation};
use graphsparse_graph::{CsrMatrix, GraphDatabase};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::error::{OtError, Result, bad_param};

/// Vertex label of a signature that is not in a fitted vocabulary.
const UNSEEN: u32 = u32::MAX;

/// Graphs per parallel chunk.
const CHUNK: usize = 64;

/// WL feature parameters (a builder); see [`WlParams::check`].
///
/// # Example
/// ```
/// use graphsparse_ot::{Check, Parallel, WlParams};
/// let p = WlParams::new().n_iter(3).parallel(Parallel::Auto).check()?;
/// assert_eq!((p.n_iter(), p.parallel()), (3, Parallel::Auto));
/// assert!(WlParams::new().n_iter(5000).check().is_err());
/// # Ok::<(), graphsparse_ot::OtError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WlParams {
    n_iter: usize,
    parallel: Parallel,
    edge_labels: bool,
}

impl Default for WlParams {
    fn default() -> Self {
        Self::new()
    }
}

impl WlParams {
    /// `h = 5` refinements (six levels), serial.
    pub const fn new() -> Self {
        Self {
            n_iter: 5,
            parallel: Parallel::Serial,
            edge_labels: false,
        }
    }
    graphsparse_base::setters! {
        /// The number of refinements `h` (levels `0..=h`); at most 1000.
        n_iter: usize => n_iter,
        /// When graphs are processed in parallel chunks on the caller's rayon pool (the
        /// result never depends on it).
        parallel: Parallel => parallel,
        /// Whether the refinement reads edge labels: each neighbour enters the signature
        /// as an `(edge label, neighbour label)` pair (default `false`: plain WL).
        edge_labels: bool => edge_labels,
    }
}

impl Check for WlParams {
    type Checked = WlValidParams;
    type Error = OtError;

    /// Validates the parameters.
    ///
    /// # Errors
    /// [`OtError::InvalidParameter`] when `n_iter > 1000`.
    fn check(self) -> Result<WlValidParams> {
        if self.n_iter > 1000 {
            return Err(bad_param(
                "n_iter",
                format!("must be <= 1000, got {}", self.n_iter),
            ));
        }
        Ok(WlValidParams(self))
    }
}

/// Validated WL parameters, from [`WlParams`]' [`Check::check`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WlValidParams(WlParams);

impl WlValidParams {
    /// The number of refinements `h`.
    pub fn n_iter(&self) -> usize {
        self.0.n_iter
    }
    /// When graphs are processed in parallel.
    pub fn parallel(&self) -> Parallel {
        self.0.parallel
    }
    /// Whether the refinement reads edge labels.
    pub fn edge_labels(&self) -> bool {
        self.0.edge_labels
    }
}

/// One level's dictionary: signature → id, and the signatures in id order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct LevelDict {
    map: FxHashMap<Box<[u32]>, u32>,
    ptr: Vec<usize>,
    data: Vec<u32>,
}

impl LevelDict {
    fn new() -> Self {
        Self {
            ptr: vec![0],
            ..Self::default()
        }
    }
    fn len(&self) -> usize {
        self.ptr.len() - 1
    }
    fn insert(&mut self, sig: &[u32]) -> u32 {
        if let Some(&id) = self.map.get(sig) {
            return id;
        }
        let id = self.len() as u32;
        self.map.insert(sig.into(), id);
        self.data.extend_from_slice(sig);
        self.ptr.push(self.data.len());
        id
    }
}

/// The fitted dictionaries of every level: what [`WlVocabulary::transform`] maps new graphs
/// with. Signatures not seen at fit time are dropped (they have no column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WlVocabulary {
    levels: Vec<LevelDict>,
    edge_labels: bool,
}

impl WlVocabulary {
    /// Number of refinements `h`.
    pub fn n_iter(&self) -> usize {
        self.levels.len() - 1
    }
    /// Number of labels of each level.
    pub fn level_sizes(&self) -> Vec<usize> {
        self.levels.iter().map(LevelDict::len).collect()
    }
    /// Whether the signatures carry edge labels (see [`WlParams::edge_labels`]).
    pub fn edge_labels(&self) -> bool {
        self.edge_labels
    }
    /// Total number of features (columns).
    pub fn n_features(&self) -> usize {
        self.levels.iter().map(LevelDict::len).sum()
    }
    /// The signatures of level `i` as flat arrays `(ptr, data)`: signature `j` is
    /// `data[ptr[j]..ptr[j + 1]]` (level 0: `[vertex label]`; later levels: own label, then
    /// the sorted neighbour labels, all ids of the level before; with edge labels: own label,
    /// then `edge label, neighbour label` pairs in lexicographic order). `None` when `i > h`.
    ///
    /// With [`WlVocabulary::from_signatures`] this serialises a fitted vocabulary.
    pub fn level_signatures(&self, i: usize) -> Option<(&[usize], &[u32])> {
        self.levels.get(i).map(|l| (&l.ptr[..], &l.data[..]))
    }
    /// Rebuilds a vocabulary from [`WlVocabulary::level_signatures`] of every level.
    ///
    /// # Arguments
    /// * `levels` – `(ptr, data)` of levels `0..=h`, in order.
    ///
    /// # Returns
    /// The vocabulary, equal to the one the arrays came from.
    ///
    /// # Errors
    /// [`crate::OtError::InvalidParameter`] when the arrays are malformed or a signature
    /// repeats or refers to an id the level before does not have.
    ///
    /// # Complexity
    /// O(total signature length) expected.
    ///
    /// # Example
    /// ```
    /// use graphsparse_base::RunControl;
    /// use graphsparse_graph::GraphDatabase;
    /// use graphsparse_ot::{Check, WlParams, WlVocabulary, wl_subtree_features};
    /// let db = GraphDatabase::new(vec![0, 3], vec![0, 1, 0], vec![0, 2], vec![[0, 1], [1, 2]], vec![0; 2])?;
    /// let params = WlParams::new().n_iter(2).check()?;
    /// let vocab = wl_subtree_features(&db, &params, &RunControl::new())?.vocabulary;
    /// let arrays: Vec<(Vec<usize>, Vec<u32>)> = (0..=vocab.n_iter())
    ///     .filter_map(|i| vocab.level_signatures(i))
    ///     .map(|(p, d)| (p.to_vec(), d.to_vec()))
    ///     .collect();
    /// assert_eq!(WlVocabulary::from_signatures(&arrays)?, vocab);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_signatures(levels: &[(Vec<usize>, Vec<u32>)]) -> Result<Self> {
        Self::from_signatures_with(levels, false)
    }

    /// [`WlVocabulary::from_signatures`] for a vocabulary fitted with or without
    /// [`WlParams::edge_labels`] (`edge_labels` says which; [`WlVocabulary::edge_labels`]
    /// tells it for a fitted one).
    ///
    /// # Errors
    /// As [`WlVocabulary::from_signatures`]; with `edge_labels`, also when a signature of a
    /// level `i ≥ 1` has an even length (it must be own label plus pairs).
    ///
    /// # Example
    /// ```
    /// use graphsparse_base::RunControl;
    /// use graphsparse_graph::GraphDatabase;
    /// use graphsparse_ot::{Check, WlParams, WlVocabulary, wl_subtree_features};
    /// let db = GraphDatabase::new(vec![0, 3], vec![0, 1, 0], vec![0, 2], vec![[0, 1], [1, 2]], vec![0, 7])?;
    /// let params = WlParams::new().n_iter(1).edge_labels(true).check()?;
    /// let vocab = wl_subtree_features(&db, &params, &RunControl::new())?.vocabulary;
    /// let (ptr, data) = vocab.level_signatures(1).unwrap();
    /// // own label, then (edge label, neighbour label) pairs: the two ends differ by their edge
    /// assert_eq!(ptr, &[0, 3, 8, 11][..]);
    /// assert_eq!(data, &[0, 0, 1, /**/ 1, 0, 0, 7, 0, /**/ 0, 7, 1][..]);
    /// let arrays: Vec<(Vec<usize>, Vec<u32>)> = (0..=vocab.n_iter())
    ///     .filter_map(|i| vocab.level_signatures(i))
    ///     .map(|(p, d)| (p.to_vec(), d.to_vec()))
    ///     .collect();
    /// assert_eq!(WlVocabulary::from_signatures_with(&arrays, true)?, vocab);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_signatures_with(
        levels: &[(Vec<usize>, Vec<u32>)],
        edge_labels: bool,
    ) -> Result<Self> {
        if levels.is_empty() {
            return Err(bad_param("vocabulary", "needs at least level 0"));
        }
        let mut out = Vec::with_capacity(levels.len());
        let mut prev_len = usize::MAX;
        for (i, (ptr, data)) in levels.iter().enumerate() {
            let ok = !ptr.is_empty()
                && ptr[0] == 0
                && ptr.windows(2).all(|w| w[0] < w[1])
                && ptr.last() == Some(&data.len());
            if !ok {
                return Err(bad_param(
                    "vocabulary",
                    format!("level {i}: malformed offsets"),
                ));
            }
            let mut d = LevelDict::new();
            for w in ptr.windows(2) {
                let sig = &data[w[0]..w[1]];
                if i > 0 && edge_labels && sig.len() % 2 == 0 {
                    return Err(bad_param(
                        "vocabulary",
                        format!("level {i}: an edge-labelled signature must have odd length"),
                    ));
                }
                // with edge labels, odd positions are edge labels, not ids of the level before
                let step = if edge_labels { 2 } else { 1 };
                if i > 0
                    && std::iter::once(sig[0])
                        .chain(sig[1..].iter().skip(step - 1).step_by(step).copied())
                        .any(|x| x as usize >= prev_len)
                {
                    return Err(bad_param(
                        "vocabulary",
                        format!("level {i}: unknown label id"),
                    ));
                }
                if i == 0 && sig.len() != 1 {
                    return Err(bad_param(
                        "vocabulary",
                        "level 0 signatures are single labels",
                    ));
                }
                let before = d.len();
                if d.insert(sig) as usize != before {
                    return Err(bad_param(
                        "vocabulary",
                        format!("level {i}: repeated signature"),
                    ));
                }
            }
            prev_len = d.len();
            out.push(d);
        }
        Ok(Self {
            levels: out,
            edge_labels,
        })
    }

    /// Features of new graphs in this vocabulary's columns (scikit-learn's `transform`).
    ///
    /// # Arguments
    /// * `db` – the graphs.
    /// * `parallel` – when to relabel in parallel chunks on the caller's rayon pool (a
    ///   [`Parallel`], or a `bool`: `true` is [`Parallel::Auto`]).
    /// * `ctl` – cancellation (polled once per chunk of 64 graphs) and progress (one
    ///   iteration per finished level; `stage` = levels finished, `stages = h + 1`).
    ///
    /// # Returns
    /// An `n_graphs × n_features` count matrix and the truncation. A vertex whose signature
    /// was not seen at fit time counts nowhere at that level and at every later one (its
    /// subtree is new). Identical for every thread count. When cancelled, only the levels
    /// finished before are counted (the later levels' columns stay empty) and the truncation
    /// is `Some`.
    ///
    /// # Complexity
    /// O(h · (n + m log Δ)) for `n` vertices, `m` edges and largest degree `Δ`.
    ///
    /// # Example
    /// ```
    /// use graphsparse_base::RunControl;
    /// use graphsparse_graph::GraphDatabase;
    /// use graphsparse_ot::{Check, Parallel, WlParams, wl_subtree_features};
    /// let db = GraphDatabase::new(vec![0, 2, 4], vec![0, 1, 0, 2], vec![0, 1, 2],
    ///     vec![[0, 1], [0, 1]], vec![0; 2])?;
    /// let ctl = RunControl::new();
    /// let fit = wl_subtree_features(&db.select(&[0])?, &WlParams::new().n_iter(1).check()?, &ctl)?;
    /// let (y, truncation) = fit.vocabulary.transform(&db, Parallel::Serial, &ctl);
    /// assert!(truncation.is_none());
    /// assert_eq!(y.n_cols(), fit.features.n_cols());
    /// assert_eq!(y.row_dot(1, 1), Some(1.0)); // only label 0 of the second graph is known
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn transform(
        &self,
        db: &GraphDatabase,
        parallel: impl Into<Parallel>,
        ctl: &RunControl,
    ) -> (CsrMatrix<'static>, Option<Truncation>) {
        let meter = Budget::UNLIMITED.start(ctl);
        let n_iter = self.n_iter();
        let stages = n_iter as u64 + 1;
        let adj = Adjacency::new(db);
        let mut labels: Vec<u32> = db
            .node_labels()
            .iter()
            .map(|&l| *self.levels[0].map.get(&[l][..]).unwrap_or(&UNSEEN))
            .collect();
        let mut all = vec![labels.clone()];
        level_done(ctl, 0, stages);
        let chunks = chunk_ranges(db.len());
        let par = parallel
            .into()
            .use_rayon(chunks.len(), db.node_labels().len());
        for i in 1..=n_iter {
            if meter.poll() {
                break;
            }
            let dict = &self.levels[i];
            let relabel = |&(a, b): &(usize, usize)| {
                let mut out = Vec::new();
                if meter.poll() {
                    return out;
                }
                let mut sig = Signature::new(self.edge_labels);
                for g in a..b {
                    for v in db.node_ptr()[g]..db.node_ptr()[g + 1] {
                        if sig.build(&adj, &labels, v) {
                            out.push(*dict.map.get(sig.as_slice()).unwrap_or(&UNSEEN));
                        } else {
                            out.push(UNSEEN);
                        }
                    }
                }
                out
            };
            let parts: Vec<Vec<u32>> = if par {
                chunks.par_iter().map(relabel).collect()
            } else {
                chunks.iter().map(relabel).collect()
            };
            if meter.is_stopped() {
                break;
            }
            labels = parts.concat();
            all.push(labels.clone());
            level_done(ctl, i, stages);
        }
        let x = histogram(db, &all, &self.level_sizes(), par);
        (x, meter.truncation())
    }
}

/// Global CSR adjacency of all vertices of a database, with the label of every edge.
struct Adjacency {
    ptr: Vec<usize>,
    nbr: Vec<u32>,
    elab: Vec<u32>,
}

impl Adjacency {
    fn new(db: &GraphDatabase) -> Self {
        let n = db.node_labels().len();
        let mut ptr = vec![0usize; n + 1];
        for g in 0..db.len() {
            let base = db.node_ptr()[g];
            for &[u, v] in db.graph(g).edges {
                ptr[base + u as usize + 1] += 1;
                ptr[base + v as usize + 1] += 1;
            }
        }
        for i in 0..n {
            ptr[i + 1] += ptr[i];
        }
        let mut fill = ptr.clone();
        let mut nbr = vec![0u32; ptr[n]];
        let mut elab = vec![0u32; ptr[n]];
        for g in 0..db.len() {
            let base = db.node_ptr()[g];
            let graph = db.graph(g);
            for (&[u, v], &e) in graph.edges.iter().zip(graph.edge_labels) {
                let (a, b) = (base + u as usize, base + v as usize);
                (nbr[fill[a]], elab[fill[a]]) = (b as u32, e);
                fill[a] += 1;
                (nbr[fill[b]], elab[fill[b]]) = (a as u32, e);
                fill[b] += 1;
            }
        }
        Self { ptr, nbr, elab }
    }
}

/// A reusable signature buffer.
struct Signature {
    edge_labels: bool,
    sig: Vec<u32>,
    pairs: Vec<(u32, u32)>,
}

impl Signature {
    fn new(edge_labels: bool) -> Self {
        Self {
            edge_labels,
            sig: Vec::new(),
            pairs: Vec::new(),
        }
    }

    fn as_slice(&self) -> &[u32] {
        &self.sig
    }

    /// Builds the signature of global vertex `v`: its label, then its neighbours' labels
    /// sorted (or, with edge labels, the `(edge label, neighbour label)` pairs sorted and
    /// flattened). False when the vertex or a neighbour has an unseen label.
    fn build(&mut self, adj: &Adjacency, labels: &[u32], v: usize) -> bool {
        let sig = &mut self.sig;
        sig.clear();
        sig.push(labels[v]);
        let range = adj.ptr[v]..adj.ptr[v + 1];
        if self.edge_labels {
            self.pairs.clear();
            self.pairs.extend(
                adj.elab[range.clone()]
                    .iter()
                    .zip(&adj.nbr[range])
                    .map(|(&e, &u)| (e, labels[u as usize])),
            );
            if labels[v] == UNSEEN || self.pairs.iter().any(|p| p.1 == UNSEEN) {
                return false;
            }
            self.pairs.sort_unstable();
            sig.extend(self.pairs.iter().flat_map(|&(e, l)| [e, l]));
        } else {
            sig.extend(adj.nbr[range].iter().map(|&u| labels[u as usize]));
            if sig.contains(&UNSEEN) {
                return false;
            }
            sig[1..].sort_unstable();
        }
        true
    }
}

/// Reports that level `i` (of `stages`) is finished.
fn level_done(ctl: &RunControl, i: usize, stages: u64) {
    ctl.progress().add_iteration();
    ctl.progress().set_stage(i as u64 + 1, stages);
}

fn chunk_ranges(n: usize) -> Vec<(usize, usize)> {
    (0..n.div_ceil(CHUNK))
        .map(|c| (c * CHUNK, ((c + 1) * CHUNK).min(n)))
        .collect()
}

/// Per-graph histograms of every level, columns stacked level after level.
fn histogram(
    db: &GraphDatabase,
    all: &[Vec<u32>],
    sizes: &[usize],
    parallel: bool,
) -> CsrMatrix<'static> {
    let mut offsets = vec![0usize; sizes.len() + 1];
    for (i, s) in sizes.iter().enumerate() {
        offsets[i + 1] = offsets[i] + s;
    }
    let row = |g: usize| -> Vec<(u32, f64)> {
        let mut cols: Vec<u32> = Vec::new();
        for (lvl, labels) in all.iter().enumerate() {
            for &l in &labels[db.node_ptr()[g]..db.node_ptr()[g + 1]] {
                if l != UNSEEN {
                    cols.push((offsets[lvl] + l as usize) as u32);
                }
            }
        }
        cols.sort_unstable();
        let mut out: Vec<(u32, f64)> = Vec::new();
        for c in cols {
            match out.last_mut() {
                Some(last) if last.0 == c => last.1 += 1.0,
                _ => out.push((c, 1.0)),
            }
        }
        out
    };
    let rows: Vec<Vec<(u32, f64)>> = if parallel {
        (0..db.len()).into_par_iter().map(row).collect()
    } else {
        (0..db.len()).map(row).collect()
    };
    let mut indptr = Vec::with_capacity(db.len() + 1);
    let (mut indices, mut data) = (Vec::new(), Vec::new());
    indptr.push(0);
    for r in rows {
        for (c, x) in r {
            indices.push(c);
            data.push(x);
        }
        indptr.push(indices.len());
    }
    CsrMatrix::from_vecs(indptr, indices, data, db.len(), offsets[sizes.len()])
        .expect("invariant: histogram rows are sorted counts within the vocabulary")
}

/// What [`wl_subtree_features`] computed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct WlFeatures {
    /// The per-level dictionaries (levels `0..=h`, fewer when truncated).
    pub vocabulary: WlVocabulary,
    /// The `n_graphs × n_features` count matrix, columns stacked by level.
    pub features: CsrMatrix<'static>,
    /// `Some` when the run was cancelled: the levels finished before are returned.
    pub truncation: Option<Truncation>,
}

/// Fits the WL dictionaries on `db` and returns its features.
///
/// # Arguments
/// * `db` – the graphs (vertex labels are the level-0 labels; edge labels are read only
///   with [`WlParams::edge_labels`]).
/// * `params` – `h`, edge labels and parallelism.
/// * `ctl` – cancellation (polled once per chunk of 64 graphs) and progress (one iteration
///   per finished level; `stage` = levels finished, `stages = h + 1`).
///
/// # Returns
/// The per-level dictionaries and the `n_graphs × n_features` count matrix, columns stacked
/// by level; identical for every thread count. When cancelled, the levels finished before
/// (at least level 0) with `truncation` set.
///
/// # Errors
/// [`crate::OtError::InvalidParameter`] when `(h + 1) ·` (number of vertices) does not fit
/// in 32 bits (column indices are `u32`).
///
/// # Complexity
/// O(h · (n + m log Δ)) time, O(h · n) memory for `n` vertices and `m` edges in all.
///
/// # Example
/// ```
/// use graphsparse_base::RunControl;
/// use graphsparse_graph::GraphDatabase;
/// use graphsparse_ot::{Check, WlParams, wl_subtree_features};
/// // two paths a-b-a and b-a-b
/// let db = GraphDatabase::new(vec![0, 3, 6], vec![0, 1, 0, 1, 0, 1], vec![0, 2, 4],
///     vec![[0, 1], [1, 2], [0, 1], [1, 2]], vec![0; 4])?;
/// let ctl = RunControl::new();
/// let fit = wl_subtree_features(&db, &WlParams::new().n_iter(1).check()?, &ctl)?;
/// let (vocab, x) = (&fit.vocabulary, &fit.features);
/// assert_eq!(vocab.level_sizes(), vec![2, 4]);
/// assert_eq!(ctl.progress().snapshot().iterations, 2); // levels 0 and 1
/// // level 0: one shared label pair (2·1 + 1·2); level 1: nothing shared
/// assert_eq!(x.row_dot(0, 1), Some(4.0));
/// assert_eq!(x.row_dot(0, 0), Some(5.0 + 5.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn wl_subtree_features(
    db: &GraphDatabase,
    params: &WlValidParams,
    ctl: &RunControl,
) -> Result<WlFeatures> {
    let params = params.0;
    let cells = (params.n_iter + 1).saturating_mul(db.node_labels().len());
    if cells >= u32::MAX as usize {
        return Err(bad_param(
            "n_iter",
            format!(
                "{} levels of {} vertices exceed the 2^32 feature columns",
                params.n_iter + 1,
                db.node_labels().len()
            ),
        ));
    }
    let meter = Budget::UNLIMITED.start(ctl);
    let stages = params.n_iter as u64 + 1;
    let adj = Adjacency::new(db);
    let mut levels = Vec::with_capacity(params.n_iter + 1);
    let mut d0 = LevelDict::new();
    let mut labels: Vec<u32> = db.node_labels().iter().map(|&l| d0.insert(&[l])).collect();
    levels.push(d0);
    let mut all = vec![labels.clone()];
    level_done(ctl, 0, stages);
    let chunks = chunk_ranges(db.len());
    let par = params
        .parallel
        .use_rayon(chunks.len(), db.node_labels().len());
    for level in 1..=params.n_iter {
        if meter.poll() {
            break;
        }
        // local interning per chunk: (local signatures in first-occurrence order, local ids)
        let local = |&(a, b): &(usize, usize)| -> (LevelDict, Vec<u32>) {
            let mut d = LevelDict::new();
            let mut ids = Vec::new();
            if meter.poll() {
                return (d, ids);
            }
            let mut sig = Signature::new(params.edge_labels);
            for g in a..b {
                for v in db.node_ptr()[g]..db.node_ptr()[g + 1] {
                    sig.build(&adj, &labels, v);
                    ids.push(d.insert(sig.as_slice()));
                }
            }
            (d, ids)
        };
        let parts: Vec<(LevelDict, Vec<u32>)> = if par {
            chunks.par_iter().map(local).collect()
        } else {
            chunks.iter().map(local).collect()
        };
        if meter.is_stopped() {
            break;
        }
        let mut dict = LevelDict::new();
        let maps: Vec<Vec<u32>> = parts
            .iter()
            .map(|(d, _)| {
                d.ptr
                    .windows(2)
                    .map(|w| dict.insert(&d.data[w[0]..w[1]]))
                    .collect()
            })
            .collect();
        let remap = |(p, m): (&(LevelDict, Vec<u32>), &Vec<u32>)| -> Vec<u32> {
            p.1.iter().map(|&l| m[l as usize]).collect()
        };
        let relabelled: Vec<Vec<u32>> = if par {
            parts.par_iter().zip(maps.par_iter()).map(remap).collect()
        } else {
            parts.iter().zip(maps.iter()).map(remap).collect()
        };
        labels = relabelled.concat();
        all.push(labels.clone());
        levels.push(dict);
        level_done(ctl, level, stages);
    }
    let vocabulary = WlVocabulary {
        levels,
        edge_labels: params.edge_labels,
    };
    let features = histogram(db, &all, &vocabulary.level_sizes(), par);
    Ok(WlFeatures {
        vocabulary,
        features,
        truncation: meter.truncation(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn db() -> GraphDatabase {
        // a triangle (labels 0,0,1), a path (1,0,0) and a lone vertex (2)
        GraphDatabase::new(
            vec![0, 3, 6, 7],
            vec![0, 0, 1, 1, 0, 0, 2],
            vec![0, 3, 5, 5],
            vec![[0, 1], [1, 2], [2, 0], [0, 1], [1, 2]],
            vec![0; 5],
        )
        .unwrap()
    }

    #[test]
    fn fit_then_transform_is_fit_transform_and_serial_is_parallel() {
        let d = db();
        let p = WlParams::new().n_iter(3);
        let ctl = RunControl::new();
        let fit = wl_subtree_features(&d, &p.check().unwrap(), &ctl).unwrap();
        let fit2 = wl_subtree_features(
            &d,
            &p.parallel(Parallel::Threshold(0)).check().unwrap(),
            &ctl,
        )
        .unwrap();
        assert_eq!(fit, fit2);
        assert_eq!(fit.truncation, None);
        let (v, x) = (fit.vocabulary, fit.features);
        assert_eq!(v.transform(&d, false, &ctl), (x.clone(), None));
        assert_eq!(
            v.transform(&d, Parallel::Threshold(0), &ctl),
            (x.clone(), None)
        );
        let levels: Vec<_> = (0..=3)
            .map(|i| {
                let (p, s) = v.level_signatures(i).unwrap();
                (p.to_vec(), s.to_vec())
            })
            .collect();
        assert_eq!(WlVocabulary::from_signatures(&levels).unwrap(), v);
        // every graph has one count per vertex per level
        for g in 0..3 {
            let n = d.graph(g).n_vertices() as f64;
            let r = x.indptr()[g]..x.indptr()[g + 1];
            assert_eq!(x.data()[r].iter().sum::<f64>(), 4.0 * n);
        }
    }

    #[test]
    fn unseen_signatures_are_dropped() {
        let d = db();
        let ctl = RunControl::new();
        let v = wl_subtree_features(
            &d.select(&[0]).unwrap(),
            &WlParams::new().n_iter(2).check().unwrap(),
            &ctl,
        )
        .unwrap()
        .vocabulary;
        let (x, _) = v.transform(&d, false, &ctl);
        // the lone vertex of label 2 is unknown at every level
        assert_eq!(x.indptr()[3] - x.indptr()[2], 0);
        assert_eq!(x.n_cols(), v.n_features());
    }

    #[test]
    fn cancelled_runs_return_level_zero_and_report_progress() {
        let d = db();
        let p = WlParams::new().n_iter(3).check().unwrap();
        let ctl = RunControl::new();
        let full = wl_subtree_features(&d, &p, &ctl).unwrap();
        let snap = ctl.progress().snapshot();
        assert_eq!((snap.iterations, snap.stage, snap.stages), (4, 4, 4));
        let cancelled = RunControl::new();
        cancelled.cancel();
        let part = wl_subtree_features(&d, &p, &cancelled).unwrap();
        assert_eq!(part.truncation, Some(Truncation::Cancelled));
        assert_eq!(part.vocabulary.n_iter(), 0);
        // level 0 is complete: its columns are the full run's first columns
        let n0 = part.vocabulary.n_features();
        assert_eq!(n0, full.vocabulary.level_sizes()[0]);
        let row = |x: &CsrMatrix, g: usize| -> Vec<(u32, f64)> {
            let r = x.indptr()[g]..x.indptr()[g + 1];
            x.indices()[r.clone()]
                .iter()
                .zip(&x.data()[r])
                .filter(|(c, _)| (**c as usize) < n0)
                .map(|(&c, &v)| (c, v))
                .collect()
        };
        for g in 0..3 {
            assert_eq!(row(&part.features, g), row(&full.features, g));
        }
        let (x, t) = full.vocabulary.transform(&d, true, &cancelled);
        assert_eq!(t, Some(Truncation::Cancelled));
        assert_eq!(x.n_cols(), full.vocabulary.n_features());
        for g in 0..3 {
            assert_eq!(row(&x, g), row(&full.features, g));
        }
    }

    /// A plain reference of the refinement: per level a list of the signatures in
    /// first-occurrence order (linear search); with edge labels, neighbours enter as sorted
    /// `(edge label, neighbour label)` pairs. Returns the dense count matrix.
    fn reference(db: &GraphDatabase, h: usize, edge_labels: bool) -> Vec<Vec<f64>> {
        let mut labels: Vec<Vec<u32>> = (0..db.len())
            .map(|g| db.graph(g).node_labels.to_vec())
            .collect();
        let mut offset = 0usize;
        let mut cells: Vec<Vec<(usize, u32)>> = vec![Vec::new(); db.len()];
        for level in 0..=h {
            let mut table: Vec<Vec<u32>> = Vec::new();
            let mut next = Vec::new();
            for (g, lab) in labels.iter().enumerate() {
                let graph = db.graph(g);
                let mut out = Vec::new();
                for v in 0..lab.len() {
                    let sig: Vec<u32> = if level == 0 {
                        vec![lab[v]]
                    } else {
                        let mut nb: Vec<(u32, u32)> = Vec::new();
                        for (&[a, b], &e) in graph.edges.iter().zip(graph.edge_labels) {
                            let (a, b) = (a as usize, b as usize);
                            if a == v {
                                nb.push((e, lab[b]));
                            }
                            if b == v {
                                nb.push((e, lab[a]));
                            }
                        }
                        let mut sig = vec![lab[v]];
                        if edge_labels {
                            nb.sort();
                            sig.extend(nb.iter().flat_map(|&(e, l)| [e, l]));
                        } else {
                            let mut ls: Vec<u32> = nb.iter().map(|p| p.1).collect();
                            ls.sort();
                            sig.extend(ls);
                        }
                        sig
                    };
                    let id = match table.iter().position(|s| *s == sig) {
                        Some(i) => i,
                        None => {
                            table.push(sig);
                            table.len() - 1
                        }
                    };
                    cells[g].push((offset + id, 1));
                    out.push(id as u32);
                }
                next.push(out);
            }
            offset += table.len();
            labels = next;
        }
        cells
            .iter()
            .map(|c| {
                let mut row = vec![0.0; offset];
                for &(j, _) in c {
                    row[j] += 1.0;
                }
                row
            })
            .collect()
    }

    fn dense(x: &CsrMatrix) -> Vec<Vec<f64>> {
        (0..x.n_rows())
            .map(|g| {
                let mut row = vec![0.0; x.n_cols()];
                for k in x.indptr()[g]..x.indptr()[g + 1] {
                    row[x.indices()[k] as usize] = x.data()[k];
                }
                row
            })
            .collect()
    }

    /// Random databases: up to 199 graphs (several parallel chunks of 64) of up to 7
    /// vertices, 3 vertex and 3 edge labels.
    fn random_db() -> impl Strategy<Value = GraphDatabase> {
        prop::collection::vec(
            (1usize..8).prop_flat_map(|n| {
                (
                    prop::collection::vec(0u32..3, n),
                    prop::collection::vec((0..n as u32, 0..n as u32, 0u32..3), 0..2 * n),
                )
            }),
            1..200,
        )
        .prop_map(|graphs| {
            let (mut node_ptr, mut labels, mut edge_ptr) = (vec![0], vec![], vec![0]);
            let (mut edges, mut elabs) = (vec![], vec![]);
            for (lab, es) in graphs {
                labels.extend(&lab);
                node_ptr.push(labels.len());
                for (a, b, e) in es {
                    if a != b
                        && !edges[edge_ptr[edge_ptr.len() - 1]..].contains(&[a, b])
                        && !edges[edge_ptr[edge_ptr.len() - 1]..].contains(&[b, a])
                    {
                        edges.push([a, b]);
                        elabs.push(e);
                    }
                }
                edge_ptr.push(edges.len());
            }
            GraphDatabase::new(node_ptr, labels, edge_ptr, edges, elabs).unwrap()
        })
    }

    fn with_edge_labels(db: &GraphDatabase, f: impl Fn(usize) -> u32) -> GraphDatabase {
        let elabs = (0..db.edges().len()).map(f).collect();
        GraphDatabase::new(
            db.node_ptr().to_vec(),
            db.node_labels().to_vec(),
            db.edge_ptr().to_vec(),
            db.edges().to_vec(),
            elabs,
        )
        .unwrap()
    }

    fn fit_in_pool(db: &GraphDatabase, h: usize, edges: bool, threads: usize) -> WlFeatures {
        let p = WlParams::new()
            .n_iter(h)
            .edge_labels(edges)
            .parallel(Parallel::Threshold(0))
            .check()
            .unwrap();
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| wl_subtree_features(db, &p, &RunControl::new()).unwrap())
    }

    #[test]
    fn edge_labels_split_vertices_that_plain_wl_merges() {
        // two single edges a-a, one labelled 0 and one labelled 1
        let d = GraphDatabase::new(
            vec![0, 2, 4],
            vec![0, 0, 0, 0],
            vec![0, 1, 2],
            vec![[0, 1], [0, 1]],
            vec![0, 1],
        )
        .unwrap();
        let ctl = RunControl::new();
        let plain =
            wl_subtree_features(&d, &WlParams::new().n_iter(1).check().unwrap(), &ctl).unwrap();
        assert_eq!(plain.vocabulary.level_sizes(), vec![1, 1]);
        let p = WlParams::new().n_iter(1).edge_labels(true).check().unwrap();
        assert!(p.edge_labels());
        let fit = wl_subtree_features(&d, &p, &ctl).unwrap();
        assert!(fit.vocabulary.edge_labels());
        assert_eq!(fit.vocabulary.level_sizes(), vec![1, 2]);
        assert_eq!(
            dense(&fit.features),
            vec![vec![2.0, 2.0, 0.0], vec![2.0, 0.0, 2.0]]
        );
        // a vocabulary fitted on the first graph does not know the second one's level 1
        let first = wl_subtree_features(&d.select(&[0]).unwrap(), &p, &ctl).unwrap();
        let (x, _) = first.vocabulary.transform(&d, false, &ctl);
        assert_eq!(dense(&x), vec![vec![2.0, 2.0], vec![2.0, 0.0]]);
    }

    #[test]
    fn edge_labelled_vocabularies_round_trip_and_reject_bad_arrays() {
        let d = with_edge_labels(&db(), |e| (e % 2) as u32 + 5);
        let p = WlParams::new().n_iter(2).edge_labels(true).check().unwrap();
        let v = wl_subtree_features(&d, &p, &RunControl::new())
            .unwrap()
            .vocabulary;
        let levels: Vec<_> = (0..=2)
            .map(|i| {
                let (p, s) = v.level_signatures(i).unwrap();
                (p.to_vec(), s.to_vec())
            })
            .collect();
        assert_eq!(
            WlVocabulary::from_signatures_with(&levels, true).unwrap(),
            v
        );
        // read as plain signatures, the edge labels 5 and 6 are unknown ids of level 0
        assert!(WlVocabulary::from_signatures(&levels).is_err());
        // an even length cannot be own label plus pairs
        let even = vec![levels[0].clone(), (vec![0, 2], vec![0, 5])];
        let err = WlVocabulary::from_signatures_with(&even, true).unwrap_err();
        assert!(err.to_string().contains("odd length"), "{err}");
        // a neighbour id beyond the level before is rejected, an edge label there is not
        let n0 = levels[0].0.len() as u32 - 1;
        let bad = vec![levels[0].clone(), (vec![0, 3], vec![0, 9, n0])];
        assert!(WlVocabulary::from_signatures_with(&bad, true).is_err());
        let ok = vec![levels[0].clone(), (vec![0, 3], vec![0, 9, 0])];
        assert!(WlVocabulary::from_signatures_with(&ok, true).is_ok());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// With and without edge labels, the features equal a plain reference of the
        /// refinement (columns in first-occurrence order), for 1 and 3 threads, and
        /// `transform` on the fitted graphs gives the same matrix.
        #[test]
        fn features_match_the_reference_for_any_thread_count(d in random_db(), h in 0usize..4) {
            for edges in [false, true] {
                let want = reference(&d, h, edges);
                let one = fit_in_pool(&d, h, edges, 1);
                let three = fit_in_pool(&d, h, edges, 3);
                prop_assert_eq!(dense(&one.features), want);
                prop_assert_eq!(&one, &three);
                let (x, t) = one.vocabulary.transform(&d, Parallel::Threshold(0), &RunControl::new());
                prop_assert_eq!((x, t), (one.features.clone(), None));
            }
        }

        /// Equal edge labels carry no information: edge-labelled WL has the plain features.
        #[test]
        fn constant_edge_labels_give_the_plain_features(d in random_db(), h in 0usize..4, c in 0u32..9) {
            let d = with_edge_labels(&d, |_| c);
            let plain = fit_in_pool(&d, h, false, 2);
            let edged = fit_in_pool(&d, h, true, 2);
            prop_assert_eq!(plain.features, edged.features);
            prop_assert_eq!(plain.vocabulary.level_sizes(), edged.vocabulary.level_sizes());
        }
    }
}
