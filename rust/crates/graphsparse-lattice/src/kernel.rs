//! The lattice kernels `K_u` of the sufficient condition (15), their closed form, the
//! incremental parent → child update, and a cache of them under a byte budget.
//!
//! On the conjunction lattice with `d_v = a^{|S_v|}`, `K_u = Σ_{w ∈ D(u)} K_w / (Σ_{v ∈ A(w) ∩
//! D(u)} d_v)²` has the closed form (spec §7.3, App. A.11)
//!
//! `K_u = a^{−2|S_u|} (⊙_{c ∈ S_u} K_c) ⊙ ⊙_{c ∉ S_u} (K_c/(1+a)² + 11ᵀ)`,
//!
//! entry-wise `K_u[i,j] = a^{−2|S_u|} φ_u(x_i) φ_u(x_j) q^{N_ij − |S_u|}` with
//! `q = 1 + (1+a)^{−2}` and `N_ij` the number of propositions true for both examples. A child
//! `u₁ = u₀ ∪ {e}` follows from its parent by `K_{u₁} = K_{u₀} ⊙ (K_e/a²) ⊘ (K_e/(1+a)² +
//! 11ᵀ)`. `K_u` vanishes outside `c_u × c_u`, so a block is stored as the upper triangle of
//! its `|c_u| × |c_u|` restriction.

use std::collections::BTreeMap;

use graphsparse_base::{Meter, Parallel, check_len, check_positive};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::bits;
use crate::error::Result;
use crate::props::PropositionMatrix;

/// Bytes charged to every cached block besides its arrays (hash-map slot, LRU index entry,
/// vector headers).
pub const BLOCK_OVERHEAD_BYTES: usize = 128;

fn check_a(a: f64) -> Result<()> {
    Ok(check_positive("a", a)?)
}

/// Most propositions a lattice kernel accepts.
pub const MAX_PROPS: usize = 1 << 20;

/// Checks that `p ≤` [`MAX_PROPS`] and that `q^p`, `q = 1 + (1+a)^{−2}`, the largest factor of
/// a lattice kernel entry, is a finite `f64` (about `p ≤ 6700` propositions for `a = 2`).
pub(crate) fn check_n_props(n_props: usize, a: f64) -> Result<()> {
    if n_props > MAX_PROPS {
        return Err(crate::LatticeError::TooLarge {
            name: "number of propositions p",
            value: n_props as u128,
            reason: "above MAX_PROPS = 2^20",
        });
    }
    let log_q = (1.0 / ((1.0 + a) * (1.0 + a))).ln_1p();
    if n_props as f64 * log_q > 700.0 {
        return Err(crate::LatticeError::TooLarge {
            name: "number of propositions p",
            value: n_props as u128,
            reason: "the lattice kernels grow like (1 + (1+a)^-2)^p, which overflows f64; use fewer propositions or a larger a",
        });
    }
    Ok(())
}

fn check_props(x: &PropositionMatrix, props: &[u32]) -> Result<()> {
    for (k, &q) in props.iter().enumerate() {
        if q as usize >= x.n_props() {
            return Err(crate::error::bad_input(
                "props",
                format!("proposition {q} out of range (p = {})", x.n_props()),
            ));
        }
        if k > 0 && props[k - 1] >= q {
            return Err(crate::error::bad_input(
                "props",
                "must be strictly increasing",
            ));
        }
    }
    Ok(())
}

/// `m²`, the length of a flat `m × m` kernel, or [`crate::LatticeError::TooLarge`].
fn gram_len(m: usize) -> Result<usize> {
    m.checked_mul(m).ok_or(crate::LatticeError::TooLarge {
        name: "m * m",
        value: m as u128 * m as u128,
        reason: "overflows usize",
    })
}

/// `K_u` as a dense row-major `m × m` matrix, by the entry-wise closed form.
///
/// # Arguments
/// * `x` — the proposition matrix (`m × p`).
/// * `props` — `S_u`, strictly increasing proposition indices.
/// * `a` — the base of `d_v = a^{|S_v|}`, `a > 0`.
///
/// # Errors
/// [`LatticeError::InvalidParameter`](crate::LatticeError::InvalidParameter) for a bad `a`;
/// [`LatticeError::InvalidInput`](crate::LatticeError::InvalidInput) for bad `props`;
/// [`LatticeError::TooLarge`](crate::LatticeError::TooLarge) when `m²` entries cannot be
/// allocated.
///
/// # Complexity
/// O(m² + |c_u|² · p/64).
///
/// # Example
/// ```
/// use graphsparse_lattice::{PropositionMatrix, kernel_ku};
/// // two examples, one proposition true for the first only
/// let x = PropositionMatrix::from_dense(2, 1, &[true, false])?;
/// let k = kernel_ku(&x, &[], 2.0)?;
/// // K_∅ = Σ over {∅, {0}}: 1·1ᵀ/1² + K_0/(1+2)²
/// assert!((k[0] - (1.0 + 1.0 / 9.0)).abs() < 1e-15 && (k[1] - 1.0).abs() < 1e-15);
/// # Ok::<(), graphsparse_lattice::LatticeError>(())
/// ```
pub fn kernel_ku(x: &PropositionMatrix, props: &[u32], a: f64) -> Result<Vec<f64>> {
    check_a(a)?;
    check_n_props(x.n_props(), a)?;
    check_props(x, props)?;
    let m = x.n_examples();
    let n = gram_len(m)?;
    let mut out = Vec::new();
    out.try_reserve_exact(n)
        .map_err(|_| crate::LatticeError::TooLarge {
            name: "m * m",
            value: n as u128,
            reason: "cannot allocate the dense kernel",
        })?;
    out.resize(n, 0.0);
    let tab = Tables::new(a, x.n_props());
    let cover = x.cover_of(props);
    let scale = tab.scale(props.len());
    for &i in &cover {
        for &j in &cover {
            out[i as usize * m + j as usize] =
                scale * tab.q_pow[tab.n_shared(x, i, j) - props.len()];
        }
    }
    Ok(out)
}

/// The incremental update: `K_{u₀ ∪ {e}} = K_{u₀} ⊙ (K_e / a²) ⊘ (K_e/(1+a)² + 11ᵀ)` from a
/// dense parent kernel.
///
/// # Errors
/// [`LatticeError::InvalidParameter`](crate::LatticeError::InvalidParameter) for a bad `a`;
/// [`LatticeError::Input`](crate::LatticeError::Input) when `parent` is not
/// `m × m`; [`LatticeError::InvalidInput`](crate::LatticeError::InvalidInput) when `e` is out
/// of range.
///
/// # Complexity
/// O(m²).
///
/// # Example
/// ```
/// use graphsparse_lattice::{PropositionMatrix, kernel_ku, kernel_ku_child};
/// let x = PropositionMatrix::from_dense(3, 2, &[true, true, true, false, false, true])?;
/// let root = kernel_ku(&x, &[], 2.0)?;
/// let child = kernel_ku_child(&x, &root, 1, 2.0)?;
/// let direct = kernel_ku(&x, &[1], 2.0)?;
/// assert!(child.iter().zip(&direct).all(|(a, b)| (a - b).abs() < 1e-14));
/// # Ok::<(), graphsparse_lattice::LatticeError>(())
/// ```
pub fn kernel_ku_child(x: &PropositionMatrix, parent: &[f64], e: u32, a: f64) -> Result<Vec<f64>> {
    check_a(a)?;
    let m = x.n_examples();
    let mm = gram_len(m)?;
    check_len("parent", parent.len(), mm)?;
    check_props(x, &[e])?;
    let f = child_factor(a);
    let ce = x.prop_bits(e as usize);
    let mut out = parent.to_vec();
    for i in 0..m {
        for j in 0..m {
            let ke = (bits::get(ce, i) && bits::get(ce, j)) as u8;
            out[i * m + j] *= if ke == 1 { f } else { 0.0 };
        }
    }
    Ok(out)
}

/// `(1/a²) / (1/(1+a)² + 1)`: the factor a child entry gets where `K_e = 1`.
fn child_factor(a: f64) -> f64 {
    (1.0 / (a * a)) / (1.0 / ((1.0 + a) * (1.0 + a)) + 1.0)
}

/// Precomputed powers `q^k` and `a^{−2k}`.
#[derive(Debug, Clone)]
struct Tables {
    q_pow: Vec<f64>,
    log_a: f64,
}

impl Tables {
    fn new(a: f64, p: usize) -> Self {
        let q = 1.0 + 1.0 / ((1.0 + a) * (1.0 + a));
        let mut q_pow = Vec::with_capacity(p + 1);
        let mut v = 1.0;
        for _ in 0..=p {
            q_pow.push(v);
            v *= q;
        }
        Self {
            q_pow,
            log_a: a.ln(),
        }
    }
    fn scale(&self, s: usize) -> f64 {
        (-2.0 * s as f64 * self.log_a).exp()
    }
    #[inline]
    fn n_shared(&self, x: &PropositionMatrix, i: u32, j: u32) -> usize {
        bits::and_count(x.example_bits(i as usize), x.example_bits(j as usize)) as usize
    }
}

/// What the kernel cache did: size, peak and traffic.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// The byte budget.
    pub budget_bytes: usize,
    /// Bytes held now.
    pub bytes: usize,
    /// Most bytes ever held (never above the budget).
    pub peak_bytes: usize,
    /// Blocks held now.
    pub entries: usize,
    /// Scores computed from a cached block.
    pub hits: u64,
    /// Blocks computed (filled into the cache or evaluated on the fly).
    pub misses: u64,
    /// Blocks computed from a cached parent by the incremental update.
    pub incremental: u64,
    /// Blocks evicted to make room.
    pub evictions: u64,
    /// Scores computed from the precomputed `m × m` matrix `q^N` (the entry-wise form, used
    /// instead of blocks when that matrix fits in a quarter of the budget).
    pub entrywise: u64,
}

#[derive(Debug)]
struct Block {
    n_props: usize,
    cover: Vec<u32>,
    packed: Vec<f64>,
    last: u64,
    filled: bool,
}

fn block_bytes(n_props: usize, cover_len: usize) -> usize {
    BLOCK_OVERHEAD_BYTES
        .saturating_add(n_props.saturating_mul(8))
        .saturating_add(cover_len.saturating_mul(4))
        .saturating_add(
            cover_len
                .saturating_mul(cover_len.saturating_add(1))
                .saturating_div(2)
                .saturating_mul(8),
        )
}

/// A lattice node to score: `S_u` (sorted), one parent in the active set and the cover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub props: Box<[u32]>,
    /// `S_u` without its largest proposition (a parent in the active set).
    pub parent: Box<[u32]>,
    /// The proposition added to the parent.
    pub added: u32,
    pub cover: Vec<u32>,
}

/// One round's scoring of candidates: `s_u = Σ_{t,t'} B_{tt'} β_tᵀ K_u β_{t'}` with `B = I +
/// c·11ᵀ` (`β` task-major), in parallel on the current rayon pool when the policy says so for
/// the round's work ([`Scoring::use_rayon`]), polling `meter` (if any) between candidates.
#[derive(Clone, Copy)]
pub(crate) struct Scoring<'a> {
    pub x: &'a PropositionMatrix,
    pub cands: &'a [Candidate],
    pub beta: &'a [f64],
    pub tasks: usize,
    pub coupling: f64,
    pub parallel: Parallel,
    pub meter: Option<&'a Meter<'a>>,
}

impl Scoring<'_> {
    /// Whether the round runs on rayon: `parallel` for `Σ_u c_u²` units of work (a kernel
    /// block or a quadratic form on the cover of each candidate `u`).
    pub(crate) fn use_rayon(&self) -> bool {
        let work = self
            .cands
            .iter()
            .map(|c| c.cover.len().saturating_mul(c.cover.len()))
            .fold(0, usize::saturating_add);
        self.parallel.use_rayon(self.cands.len(), work)
    }
}

/// Cache of lattice kernels `K_u` (packed upper triangles of the `c_u × c_u` blocks) under a
/// byte budget, least-recently-used eviction, and recomputation on a miss (from a cached
/// parent by the incremental update, else by the closed form).
///
/// The bytes held (arrays plus [`BLOCK_OVERHEAD_BYTES`] per block) never exceed the budget:
/// room is made before a block is allocated, and a block larger than the whole budget is
/// evaluated on the fly without being stored.
#[derive(Debug)]
pub struct KernelCache {
    tab: Tables,
    a: f64,
    budget: usize,
    bytes: usize,
    tick: u64,
    map: FxHashMap<Box<[u32]>, Block>,
    lru: BTreeMap<u64, Box<[u32]>>,
    /// `G = q^{⊙N}` (row-major `m × m`) when it fits in a quarter of the budget.
    entrywise: Option<(usize, Vec<f64>)>,
    stats: CacheStats,
}

impl KernelCache {
    /// An empty cache for propositions of `x` (`p` of them), base `a`, holding at most
    /// `budget_bytes`.
    ///
    /// # Errors
    /// [`LatticeError::InvalidParameter`](crate::LatticeError::InvalidParameter) for a bad `a`;
    /// [`LatticeError::TooLarge`](crate::LatticeError::TooLarge) when `(1 + (1+a)^{−2})^p`
    /// overflows (thousands of propositions).
    pub fn new(n_props: usize, a: f64, budget_bytes: usize) -> Result<Self> {
        check_a(a)?;
        check_n_props(n_props, a)?;
        Ok(Self {
            tab: Tables::new(a, n_props),
            a,
            budget: budget_bytes,
            bytes: 0,
            tick: 0,
            map: FxHashMap::default(),
            lru: BTreeMap::new(),
            entrywise: None,
            stats: CacheStats {
                budget_bytes,
                ..CacheStats::default()
            },
        })
    }

    /// The statistics so far.
    pub fn stats(&self) -> CacheStats {
        CacheStats {
            bytes: self.bytes,
            entries: self.map.len(),
            ..self.stats
        }
    }

    fn touch(&mut self, key: &[u32]) {
        if let Some(b) = self.map.get_mut(key) {
            self.lru.remove(&b.last);
            self.tick += 1;
            b.last = self.tick;
            self.lru.insert(self.tick, key.into());
        }
    }

    fn evict_lru(&mut self) -> bool {
        let Some((_, key)) = self.lru.pop_first() else {
            return false;
        };
        if let Some(b) = self.map.remove(&key) {
            self.bytes -= block_bytes(b.n_props, b.cover.len());
            self.stats.evictions += 1;
        }
        true
    }

    /// Switches to the entry-wise form when `G = q^{⊙N}` (`m²` doubles) fits in a quarter of
    /// the budget: drops every block, then charges `G` to the budget.
    fn try_entrywise(&mut self, x: &PropositionMatrix) {
        let m = x.n_examples();
        let Some(need) = m.checked_mul(m).and_then(|n| n.checked_mul(8)) else {
            return;
        };
        if need > self.budget / 4 {
            return;
        }
        let mut g = Vec::new();
        if g.try_reserve_exact(m * m).is_err() {
            return;
        }
        for i in 0..m {
            let ri = x.example_bits(i);
            g.extend(
                (0..m).map(|j| self.tab.q_pow[bits::and_count(ri, x.example_bits(j)) as usize]),
            );
        }
        self.map.clear();
        self.lru.clear();
        self.bytes = need;
        self.stats.peak_bytes = self.stats.peak_bytes.max(need);
        self.entrywise = Some((m, g));
    }

    /// Reserves a block for `cand` (evicting as needed); false when it cannot fit.
    fn reserve(&mut self, cand: &Candidate) -> bool {
        let need = block_bytes(cand.props.len(), cand.cover.len());
        if need > self.budget {
            return false;
        }
        while self.bytes + need > self.budget {
            if !self.evict_lru() {
                return false;
            }
        }
        self.tick += 1;
        self.bytes += need;
        self.stats.peak_bytes = self.stats.peak_bytes.max(self.bytes);
        self.map.insert(
            cand.props.clone(),
            Block {
                n_props: cand.props.len(),
                cover: Vec::new(),
                packed: Vec::new(),
                last: self.tick,
                filled: false,
            },
        );
        self.lru.insert(self.tick, cand.props.clone());
        true
    }

    /// Scores `s_u = Σ_{t,t'} B_{tt'} β_tᵀ K_u β_{t'}` (with `B = I + c·11ᵀ`) for every
    /// candidate, in parallel when asked; the values do not depend on the thread count.
    pub(crate) fn score(&mut self, job: &Scoring) -> Vec<f64> {
        let Scoring {
            x,
            cands,
            beta,
            tasks,
            coupling,
            meter,
            ..
        } = *job;
        let on_rayon = job.use_rayon();
        // once the meter stops, the remaining scores are left at 0 (the caller checks it)
        let stopped = |k: usize| stopped_at(meter, k);
        let m = x.n_examples();
        if self.entrywise.as_ref().is_none_or(|(mm, _)| *mm != m) {
            self.try_entrywise(x);
        }
        if let Some((_, g)) = &self.entrywise {
            self.stats.entrywise += cands.len() as u64;
            let (tab, g) = (&self.tab, &g[..]);
            let score_one = |buf: &mut Vec<f64>, (k, c): (usize, &Candidate)| -> f64 {
                if stopped(k) {
                    return 0.0;
                }
                let mut rows = Vec::new();
                let (n, w) = gather_support(buf, &mut rows, c, beta, m, tasks, coupling);
                quad_entrywise(g, m, &rows, buf, n, &w) * tab.scale(c.props.len())
                    / tab.q_pow[c.props.len()]
            };
            return map_candidates(cands, on_rayon, score_one);
        }
        // phase 0 (serial, in candidate order): LRU bookkeeping and room for new blocks
        let mut pending = Vec::new();
        let mut hits = 0u64;
        for cand in cands {
            if self.map.contains_key(&cand.props) {
                self.touch(&cand.props);
                hits += 1;
            } else if self.reserve(cand) {
                pending.push(cand);
            }
        }
        self.stats.hits += hits;
        self.stats.misses += cands.len() as u64 - hits;
        // phase 1 (parallel): fill the reserved blocks that survived phase 0's evictions
        let mut filling: Vec<(&Candidate, Block)> = pending
            .into_iter()
            .filter_map(|c| self.map.remove(&c.props).map(|b| (c, b)))
            .collect();
        let from_parent: Vec<bool> = filling
            .iter()
            .map(|(c, _)| self.map.get(&c.parent).is_some_and(|b| b.filled))
            .collect();
        {
            let (map, tab, a) = (&self.map, &self.tab, self.a);
            let fill = |(k, (c, b)): (usize, &mut (&Candidate, Block))| {
                if stopped(k) {
                    return;
                }
                b.cover = c.cover.clone();
                b.packed = vec![0.0; c.cover.len() * (c.cover.len() + 1) / 2];
                match map.get(&c.parent) {
                    Some(pb) if pb.filled => fill_from_parent(pb, &c.cover, a, &mut b.packed),
                    _ => fill_closed(x, tab, c.props.len(), &c.cover, &mut b.packed),
                }
                b.filled = true;
            };
            if on_rayon {
                filling.par_iter_mut().enumerate().for_each(fill);
            } else {
                filling.iter_mut().enumerate().for_each(fill);
            }
        }
        self.stats.incremental += from_parent.iter().filter(|&&f| f).count() as u64;
        for (c, b) in filling {
            self.map.insert(c.props.clone(), b);
        }
        // phase 2 (parallel): the scores
        let (map, tab, a) = (&self.map, &self.tab, self.a);
        let score_one = |buf: &mut Vec<f64>, (k, c): (usize, &Candidate)| -> (f64, u8) {
            if stopped(k) {
                return (0.0, 0);
            }
            match map.get(&c.props) {
                Some(b) if b.filled => {
                    let (n, w) = gather(buf, c, beta, m, tasks, coupling);
                    (quad_packed(&b.packed, buf, n, &w), 0)
                }
                _ => match map.get(&c.parent) {
                    Some(pb) if pb.filled => {
                        let (n, w) = gather(buf, c, beta, m, tasks, coupling);
                        (quad_from_parent(pb, &c.cover, a, buf, n, &w), 2)
                    }
                    _ => {
                        let mut rows = Vec::new();
                        let (_, w) = gather_support(buf, &mut rows, c, beta, m, tasks, coupling);
                        let q = quad_closed(x, tab, c.props.len(), &rows, buf, &w, meter);
                        (q, 1)
                    }
                },
            }
        };
        let res: Vec<(f64, u8)> = map_candidates(cands, on_rayon, score_one);
        self.stats.incremental += res.iter().filter(|r| r.1 == 2).count() as u64;
        res.into_iter().map(|(s, _)| s).collect()
    }
}

/// `f(buf, (k, c))` for every candidate `c` at index `k`, in order, on the caller's rayon pool
/// when `on_rayon`; each worker (or the serial loop) reuses one scratch buffer `buf`.
fn map_candidates<T, F>(cands: &[Candidate], on_rayon: bool, f: F) -> Vec<T>
where
    T: Send,
    F: Fn(&mut Vec<f64>, (usize, &Candidate)) -> T + Sync + Send,
{
    if on_rayon {
        cands.par_iter().enumerate().map_init(Vec::new, f).collect()
    } else {
        let mut buf = Vec::new();
        cands.iter().enumerate().map(|kc| f(&mut buf, kc)).collect()
    }
}

/// Whether `meter` has stopped before the `k`-th candidate of a scoring; the clock is read
/// only every [`POLL_EVERY`]-th candidate, since a read costs as much as a small candidate.
pub(crate) fn stopped_at(meter: Option<&Meter>, k: usize) -> bool {
    meter.is_some_and(|mt| {
        if k % POLL_EVERY == 0 {
            mt.poll()
        } else {
            mt.is_stopped()
        }
    })
}

const POLL_EVERY: usize = 64;

/// Rows of one closed-form quadratic form between two polls of the budget.
pub(crate) const ROWS_PER_POLL: usize = 256;

/// Gathers `β_t` on the cover of `c` into `buf` (one row per task, plus `Σ_t β_t` when the
/// tasks are coupled); returns the cover size and the weight of each row.
pub(crate) fn gather(
    buf: &mut Vec<f64>,
    c: &Candidate,
    beta: &[f64],
    m: usize,
    tasks: usize,
    coupling: f64,
) -> (usize, Vec<f64>) {
    gather_rows(buf, &c.cover, beta, m, tasks, coupling)
}

/// `β_t` on `rows` into `buf` (one row per task, then `Σ_t β_t` when the tasks are coupled);
/// the number of rows and the weight of each row of `buf`.
fn gather_rows(
    buf: &mut Vec<f64>,
    rows: &[u32],
    beta: &[f64],
    m: usize,
    tasks: usize,
    coupling: f64,
) -> (usize, Vec<f64>) {
    let nv = tasks + usize::from(coupling != 0.0 && tasks > 1);
    let n = rows.len();
    buf.clear();
    buf.resize(nv * n, 0.0);
    for t in 0..tasks {
        for (k, &i) in rows.iter().enumerate() {
            buf[t * n + k] = beta[t * m + i as usize];
        }
    }
    let mut w = vec![1.0; tasks];
    if nv > tasks {
        for k in 0..n {
            buf[tasks * n + k] = (0..tasks).map(|t| buf[t * n + k]).sum();
        }
        w.push(coupling);
    }
    (n, w)
}

/// As [`gather`], but over the examples of the cover where some `β_t` is nonzero only (their
/// indices into `rows`): the others add nothing to a quadratic form, and at an SVM solution
/// most examples have `α = 0`, so the `O(n²)` sums below shrink to the support.
pub(crate) fn gather_support(
    buf: &mut Vec<f64>,
    rows: &mut Vec<u32>,
    c: &Candidate,
    beta: &[f64],
    m: usize,
    tasks: usize,
    coupling: f64,
) -> (usize, Vec<f64>) {
    rows.clear();
    rows.extend(
        c.cover
            .iter()
            .copied()
            .filter(|&i| (0..tasks).any(|t| beta[t * m + i as usize] != 0.0)),
    );
    gather_rows(buf, rows, beta, m, tasks, coupling)
}

/// `Σ_r w_r v_rᵀ G[c, c] v_r` with `G` dense row-major `m × m`.
fn quad_entrywise(g: &[f64], m: usize, cover: &[u32], buf: &[f64], n: usize, w: &[f64]) -> f64 {
    let mut total = 0.0;
    for (r, &wr) in w.iter().enumerate() {
        let v = &buf[r * n..(r + 1) * n];
        let mut s = 0.0;
        for (a, &ia) in cover.iter().enumerate() {
            let row = &g[ia as usize * m..(ia as usize + 1) * m];
            let mut acc = 0.5 * row[ia as usize] * v[a];
            for (&ib, &vb) in cover[a + 1..].iter().zip(&v[a + 1..]) {
                acc += row[ib as usize] * vb;
            }
            s += v[a] * acc;
        }
        total += wr * 2.0 * s;
    }
    total
}

/// Offset of row `a` in a packed upper triangle of order `n` (row `a` holds columns `a..n`):
/// `Σ_{r<a} (n − r)`.
#[inline]
fn row_start(n: usize, a: usize) -> usize {
    a * n - a * a.saturating_sub(1) / 2
}

fn fill_closed(x: &PropositionMatrix, tab: &Tables, s: usize, cover: &[u32], out: &mut [f64]) {
    let scale = tab.scale(s);
    let n = cover.len();
    let mut o = 0;
    for (a, &ca) in cover.iter().enumerate() {
        let ra = x.example_bits(ca as usize);
        for &cb in &cover[a..] {
            let k = bits::and_count(ra, x.example_bits(cb as usize)) as usize;
            out[o] = scale * tab.q_pow[k - s];
            o += 1;
        }
    }
    debug_assert_eq!(o, n * (n + 1) / 2);
}

/// Positions of `child` (sorted) inside `parent` (sorted superset).
fn positions(parent: &[u32], child: &[u32]) -> Vec<usize> {
    let mut pos = Vec::with_capacity(child.len());
    let mut k = 0;
    for &c in child {
        while parent[k] != c {
            k += 1;
        }
        pos.push(k);
    }
    pos
}

fn fill_from_parent(pb: &Block, cover: &[u32], a: f64, out: &mut [f64]) {
    let f = child_factor(a);
    let pos = positions(&pb.cover, cover);
    let np = pb.cover.len();
    let n = cover.len();
    let mut o = 0;
    for x in 0..n {
        let base = row_start(np, pos[x]);
        for y in x..n {
            out[o] = pb.packed[base + pos[y] - pos[x]] * f;
            o += 1;
        }
    }
}

/// `Σ_r w_r v_rᵀ K v_r` for the `nv` vectors `v_r = buf[r·n..(r+1)·n]`, `K` packed.
fn quad_packed(packed: &[f64], buf: &[f64], n: usize, w: &[f64]) -> f64 {
    let mut total = 0.0;
    for (r, &wr) in w.iter().enumerate() {
        let v = &buf[r * n..(r + 1) * n];
        let mut s = 0.0;
        let mut o = 0;
        for a in 0..n {
            let row = &packed[o..o + n - a];
            let mut acc = 0.5 * row[0] * v[a];
            for (k, &vb) in row[1..].iter().zip(&v[a + 1..]) {
                acc += k * vb;
            }
            s += v[a] * acc;
            o += n - a;
        }
        total += wr * 2.0 * s;
    }
    total
}

fn quad_from_parent(pb: &Block, cover: &[u32], a: f64, buf: &[f64], n: usize, w: &[f64]) -> f64 {
    let f = child_factor(a);
    let pos = positions(&pb.cover, cover);
    let np = pb.cover.len();
    let mut total = 0.0;
    for (r, &wr) in w.iter().enumerate() {
        let v = &buf[r * n..(r + 1) * n];
        let mut s = 0.0;
        for x in 0..n {
            let base = row_start(np, pos[x]);
            let mut acc = 0.5 * pb.packed[base] * v[x];
            for y in x + 1..n {
                acc += pb.packed[base + pos[y] - pos[x]] * v[y];
            }
            s += v[x] * acc;
        }
        total += wr * 2.0 * f * s;
    }
    total
}

/// `Σ_r w_r v_rᵀ K_u[c, c] v_r` by the closed form, `O(|c|²)` pairs; polls `meter` every
/// [`ROWS_PER_POLL`] rows (a cover of tens of thousands of rows takes seconds) and returns 0
/// once it stopped, as a stopped scoring does for the candidates it skips.
fn quad_closed(
    x: &PropositionMatrix,
    tab: &Tables,
    s: usize,
    cover: &[u32],
    buf: &[f64],
    w: &[f64],
    meter: Option<&Meter>,
) -> f64 {
    let scale = tab.scale(s);
    let n = cover.len();
    let mut acc = vec![0.0; w.len()];
    for a in 0..n {
        if a % ROWS_PER_POLL == ROWS_PER_POLL - 1 && meter.is_some_and(|mt| mt.poll()) {
            return 0.0;
        }
        let ra = x.example_bits(cover[a] as usize);
        let diag = tab.q_pow[bits::and_count(ra, ra) as usize - s];
        let mut row = vec![0.0; w.len()];
        for (r, ro) in row.iter_mut().enumerate() {
            *ro = 0.5 * diag * buf[r * n + a];
        }
        for b in a + 1..n {
            let k = tab.q_pow[bits::and_count(ra, x.example_bits(cover[b] as usize)) as usize - s];
            for (r, ro) in row.iter_mut().enumerate() {
                *ro += k * buf[r * n + b];
            }
        }
        for (r, ro) in row.iter().enumerate() {
            acc[r] += buf[r * n + a] * ro;
        }
    }
    acc.iter().zip(w).map(|(a, w)| 2.0 * w * a).sum::<f64>() * scale
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Σ_{t,t'} B_{tt'} β_tᵀ K_u β_{t'}` from the dense closed form.
    fn dense_score(
        x: &PropositionMatrix,
        props: &[u32],
        a: f64,
        beta: &[f64],
        tasks: usize,
        c: f64,
    ) -> f64 {
        let m = x.n_examples();
        let k = kernel_ku(x, props, a).unwrap();
        let mut total = 0.0;
        for t in 0..tasks {
            for s in 0..tasks {
                let b = if t == s { 1.0 + c } else { c };
                let mut q = 0.0;
                for i in 0..m {
                    for j in 0..m {
                        q += beta[t * m + i] * k[i * m + j] * beta[s * m + j];
                    }
                }
                total += b * q;
            }
        }
        total
    }

    fn candidate(x: &PropositionMatrix, props: &[u32]) -> Candidate {
        Candidate {
            props: props.into(),
            parent: props[..props.len() - 1].into(),
            added: *props.last().unwrap(),
            cover: x.cover_of(props),
        }
    }

    #[test]
    fn cached_scores_equal_the_dense_closed_form_on_every_path() {
        let (m, p) = (23, 6);
        let vals: Vec<bool> = (0..m * p).map(|k| (k * 7 + k / 5) % 3 != 0).collect();
        let x = PropositionMatrix::from_dense(m, p, &vals).unwrap();
        let tasks = 2;
        let beta: Vec<f64> = (0..tasks * m).map(|k| ((k as f64) * 0.73).sin()).collect();
        let level1: Vec<Candidate> = (0..p as u32).map(|j| candidate(&x, &[j])).collect();
        let level2: Vec<Candidate> = (0..p as u32)
            .flat_map(|i| (i + 1..p as u32).map(move |j| (i, j)))
            .map(|(i, j)| candidate(&x, &[i, j]))
            .collect();
        for (budget, coupling, a) in [
            (64 << 20, 0.0, 2.0),
            (64 << 20, 0.5, 1.5),
            (16_000, 0.5, 1.5),
            (0, 0.0, 3.0),
            (3000, 0.5, 2.0),
        ] {
            let mut cache = KernelCache::new(p, a, budget).unwrap();
            // first pass fills (closed form), second pass hits, level 2 uses the parents
            for cands in [&level1, &level1, &level2, &level2] {
                for parallel in [Parallel::Serial, Parallel::Threshold(0)] {
                    let got = cache.score(&Scoring {
                        x: &x,
                        cands,
                        beta: &beta,
                        tasks,
                        coupling,
                        parallel,
                        meter: None,
                    });
                    for (c, g) in cands.iter().zip(&got) {
                        let want = dense_score(&x, &c.props, a, &beta, tasks, coupling);
                        assert!(
                            (g - want).abs() <= 1e-10 * (1.0 + want.abs()),
                            "{:?}: {g} vs {want}",
                            c.props
                        );
                    }
                }
                assert!(cache.stats().peak_bytes <= budget);
            }
            let st = cache.stats();
            if budget > 1 << 20 {
                assert!(st.entrywise > 0 && st.misses == 0, "{st:?}");
            } else {
                assert_eq!(st.entrywise, 0);
            }
            if budget == 16_000 {
                assert!(st.hits > 0 && st.incremental > 0, "{st:?}");
            }
        }
    }
}
