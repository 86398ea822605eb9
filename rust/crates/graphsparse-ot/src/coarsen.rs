//! Edge-contraction baselines: randomised edge contraction (REC), heavy-edge matching,
//! algebraic distance and affinity.
//!
//! Both contract a matching of the current (coarse) graph, level after level, until the graph
//! has at most `k` vertices, no edge is left, or the level cap is reached. A contracted set of
//! vertices becomes one vertex; it keeps the label of its **representative**, the smallest
//! original vertex in the set (spec §8.1 item 6). Two coarse vertices are joined when any
//! original edge joins their sets; the coarse edge keeps the label of the first such edge.
//!
//! * **REC** (Loukas & Vandergheynst, ICML 2018, Alg. 1): while candidates remain, pick a
//!   candidate edge uniformly at random (potential `φ = 1`; the OTC authors do not state
//!   theirs), contract it and remove its edge neighbourhood from the candidates. One level is a
//!   random maximal matching stopped at the target; randomness is the library's one seeded
//!   generator, one stream per graph ([`SplitMix64::stream`]`(seed, graph index)`), so
//!   results do not depend on the thread count.
//! * **Heavy edge** (Dhillon et al. 2007; Loukas' `heavy_edge`): edges sorted by
//!   `w_ij / max(d_i, d_j)` (weighted degrees of the current level; ties by endpoint order),
//!   taken greedily when both ends are free, until the target. Deterministic.
//!
//! * **Algebraic distance** (Ron, Safro & Brandt 2011; Chen & Safro 2011; Loukas'
//!   `algebraic_JC`) and **affinity** (Livne & Brandt 2012; Loukas' `affinity_GS`): per level,
//!   [`TEST_VECTORS`] random test vectors (uniform in `[−½, ½]`, seeded) are smoothed by
//!   [`RELAX_SWEEPS`] sweeps of weighted Jacobi (`ω = ½`, algebraic distance) or Gauss–Seidel
//!   (affinity) on the coarse graph's Laplacian system `L x = 0`. An edge's proximity is
//!   `1 / max_k (x_k(i) − x_k(j))²` (algebraic distance) or
//!   `(Σ_k x_k(i) x_k(j))² / (‖x(i)‖² ‖x(j)‖²)` (affinity); edges are then matched greedily by
//!   decreasing proximity, as heavy edge does with its weights. The number of vectors and
//!   sweeps are the choices here (the OTC paper does not state Loukas' settings).

use graphsparse_base::{SplitMix64, check_at_least_one};
use graphsparse_graph::{EdgeRules, WeightedGraph};

use crate::error::{Result, bad_param};

/// A contraction of one graph: the group of every original vertex, and the groups' count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contraction {
    /// `assignment[v]` is the coarse vertex of original vertex `v` (coarse vertices are
    /// numbered in increasing order of their representative, the smallest member).
    pub assignment: Vec<u32>,
    /// Number of coarse vertices.
    pub n_coarse: usize,
    /// Contraction levels made.
    pub levels: usize,
}

/// Which coarsening baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coarsening {
    /// Randomised edge contraction with a seed.
    Rec {
        /// Seed of the per-graph generators (graph `i` uses a stream derived from `(seed, i)`).
        seed: u64,
    },
    /// Heavy-edge matching (deterministic).
    HeavyEdge,
    /// Greedy matching by algebraic-distance proximity on Jacobi-smoothed test vectors.
    AlgebraicDistance {
        /// Seed of the test vectors (graph `i` uses a stream derived from `(seed, i)`).
        seed: u64,
    },
    /// Greedy matching by affinity on Gauss–Seidel-smoothed test vectors.
    Affinity {
        /// Seed of the test vectors (graph `i` uses a stream derived from `(seed, i)`).
        seed: u64,
    },
}

/// Test vectors of the algebraic-distance and affinity baselines.
pub const TEST_VECTORS: usize = 10;

/// Relaxation sweeps applied to each test vector.
pub const RELAX_SWEEPS: usize = 20;

fn find(p: &mut [u32], mut x: u32) -> u32 {
    while p[x as usize] != x {
        p[x as usize] = p[p[x as usize] as usize];
        x = p[x as usize];
    }
    x
}

/// The current level: coarse vertices `0..n` with representative `rep`, and weighted edges.
struct Level {
    n: usize,
    edges: Vec<(u32, u32, f64)>,
}

/// Builds the coarse graph of the union-find `parent` (roots are the smallest members).
fn level_of(parent: &mut [u32], edges: &[[u32; 2]], id: &mut [u32]) -> Level {
    let n0 = parent.len();
    let mut n = 0u32;
    for (v, slot) in id.iter_mut().enumerate().take(n0) {
        if find(parent, v as u32) == v as u32 {
            *slot = n;
            n += 1;
        }
    }
    let mut es: Vec<(u32, u32, f64)> = Vec::with_capacity(edges.len());
    for &[u, v] in edges {
        let (a, b) = (id[find(parent, u) as usize], id[find(parent, v) as usize]);
        if a != b {
            es.push((a.min(b), a.max(b), 1.0));
        }
    }
    es.sort_unstable_by_key(|x| (x.0, x.1));
    let mut merged: Vec<(u32, u32, f64)> = Vec::with_capacity(es.len());
    for e in es {
        match merged.last_mut() {
            Some(last) if (last.0, last.1) == (e.0, e.1) => last.2 += e.2,
            _ => merged.push(e),
        }
    }
    Level {
        n: n as usize,
        edges: merged,
    }
}

/// Contracts `n` vertices with the given edges towards at most `k` vertices.
///
/// # Arguments
/// * `n` – number of vertices; `edges` – endpoint pairs (`< n`, no self-loops needed).
/// * `k` – the target, `≥ 1`; `method` – REC or heavy edge; `stream` – the graph's index
///   (REC's generator stream).
/// * `max_levels` – most matching levels (`None`: until the target or no edge is left).
///
/// # Returns
/// The [`Contraction`]; it has more than `k` vertices only when the edges or the level cap
/// run out first.
///
/// # Errors
/// [`crate::OtError::Input`] for `k = 0`, [`crate::OtError::InvalidParameter`] for
/// `n ≥ 2³²`, [`crate::OtError::Graph`] for an endpoint `≥ n`.
///
/// # Complexity
/// O(levels · (n + m log m)) time, O(n + m) memory.
///
/// # Example
/// ```
/// use graphsparse_ot::{Coarsening, coarsen};
/// // a path of 4 vertices halved by heavy-edge matching: {0, 1} and {2, 3}
/// let c = coarsen(4, &[[0, 1], [1, 2], [2, 3]], 2, Coarsening::HeavyEdge, 0, None)?;
/// assert_eq!((c.assignment, c.n_coarse), (vec![0, 0, 1, 1], 2));
/// # Ok::<(), graphsparse_ot::OtError>(())
/// ```
pub fn coarsen(
    n: usize,
    edges: &[[u32; 2]],
    k: usize,
    method: Coarsening,
    stream: u64,
    max_levels: Option<usize>,
) -> Result<Contraction> {
    check_at_least_one("k", k)?;
    if u32::try_from(n).is_err() {
        return Err(bad_param(
            "n",
            format!("at most {} vertices are supported, got {n}", u32::MAX),
        ));
    }
    // the edge list's validation is the one graph's
    WeightedGraph::from_edges(n, edges, None, EdgeRules::MULTIGRAPH)?;
    let mut parent: Vec<u32> = (0..n as u32).collect();
    let mut id = vec![0u32; n];
    let mut rng = match method {
        Coarsening::Rec { seed }
        | Coarsening::AlgebraicDistance { seed }
        | Coarsening::Affinity { seed } => SplitMix64::stream(seed, stream),
        Coarsening::HeavyEdge => SplitMix64::stream(0, 0),
    };
    let mut levels = 0;
    let mut lvl = level_of(&mut parent, edges, &mut id);
    // representative (smallest original vertex) of each coarse vertex of the current level
    let mut rep: Vec<u32> = Vec::new();
    while lvl.n > k && !lvl.edges.is_empty() && max_levels.is_none_or(|c| levels < c) {
        rep.clear();
        rep.resize(lvl.n, 0);
        for v in (0..n).rev() {
            rep[id[find(&mut parent, v as u32) as usize] as usize] = v as u32;
        }
        let pairs = match method {
            Coarsening::Rec { .. } => rec_level(&lvl, k, &mut rng),
            Coarsening::HeavyEdge => heavy_level(&lvl, k),
            Coarsening::AlgebraicDistance { .. } => {
                let x = test_vectors(&lvl, &mut rng, false);
                greedy_matching(&lvl, k, &algebraic_proximity(&lvl, &x))
            }
            Coarsening::Affinity { .. } => {
                let x = test_vectors(&lvl, &mut rng, true);
                greedy_matching(&lvl, k, &affinity(&lvl, &x))
            }
        };
        if pairs.is_empty() {
            break;
        }
        for (a, b) in pairs {
            let (ra, rb) = (rep[a as usize], rep[b as usize]);
            let (ra, rb) = (find(&mut parent, ra), find(&mut parent, rb));
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            parent[hi as usize] = lo;
        }
        levels += 1;
        lvl = level_of(&mut parent, edges, &mut id);
    }
    let assignment = (0..n)
        .map(|v| id[find(&mut parent, v as u32) as usize])
        .collect();
    Ok(Contraction {
        assignment,
        n_coarse: lvl.n,
        levels,
    })
}

/// One REC level: a random matching, stopped once `n − |matching| ≤ k`.
fn rec_level(lvl: &Level, k: usize, rng: &mut SplitMix64) -> Vec<(u32, u32)> {
    let m = lvl.edges.len();
    // incidence lists of the level's edges
    let mut deg = vec![0usize; lvl.n + 1];
    for &(a, b, _) in &lvl.edges {
        deg[a as usize + 1] += 1;
        deg[b as usize + 1] += 1;
    }
    for i in 0..lvl.n {
        deg[i + 1] += deg[i];
    }
    let mut fill = deg.clone();
    let mut inc = vec![0u32; 2 * m];
    for (e, &(a, b, _)) in lvl.edges.iter().enumerate() {
        for x in [a, b] {
            inc[fill[x as usize]] = e as u32;
            fill[x as usize] += 1;
        }
    }
    // candidate set with O(1) removal: cand[0..alive], pos[e] its slot
    let mut cand: Vec<u32> = (0..m as u32).collect();
    let mut pos: Vec<usize> = (0..m).collect();
    let mut alive = m;
    let mut out = Vec::new();
    let mut n_cur = lvl.n;
    while alive > 0 && n_cur > k {
        let e = cand[rng.below(alive as u64) as usize] as usize;
        let (a, b, _) = lvl.edges[e];
        out.push((a, b));
        n_cur -= 1;
        for x in [a, b] {
            for &f in &inc[deg[x as usize]..deg[x as usize + 1]] {
                let p = pos[f as usize];
                if p < alive {
                    alive -= 1;
                    let last = cand[alive];
                    cand[p] = last;
                    pos[last as usize] = p;
                    cand[alive] = f;
                    pos[f as usize] = alive;
                }
            }
        }
    }
    out
}

/// One heavy-edge level: greedy matching by `w / max(d_a, d_b)`, stopped at the target.
fn heavy_level(lvl: &Level, k: usize) -> Vec<(u32, u32)> {
    let mut d = vec![0.0_f64; lvl.n];
    for &(a, b, w) in &lvl.edges {
        d[a as usize] += w;
        d[b as usize] += w;
    }
    let score: Vec<f64> = lvl
        .edges
        .iter()
        .map(|&(a, b, w)| w / d[a as usize].max(d[b as usize]))
        .collect();
    greedy_matching(lvl, k, &score)
}

/// Greedy matching by decreasing `score` (stable: ties keep the edge order), stopped once
/// `n − |matching| ≤ k`.
fn greedy_matching(lvl: &Level, k: usize, score: &[f64]) -> Vec<(u32, u32)> {
    let mut order: Vec<usize> = (0..lvl.edges.len()).collect();
    order.sort_by(|&x, &y| score[y].total_cmp(&score[x]));
    let mut used = vec![false; lvl.n];
    let mut out = Vec::new();
    let mut n_cur = lvl.n;
    for e in order {
        if n_cur <= k {
            break;
        }
        let (a, b, _) = lvl.edges[e];
        if !used[a as usize] && !used[b as usize] {
            used[a as usize] = true;
            used[b as usize] = true;
            out.push((a, b));
            n_cur -= 1;
        }
    }
    out
}

/// [`TEST_VECTORS`] random vectors smoothed by [`RELAX_SWEEPS`] sweeps of weighted Jacobi
/// (`ω = ½`) or, with `gauss_seidel`, Gauss–Seidel on `L x = 0`; stored vertex-major
/// (`x[v · K + k]`). Isolated vertices keep their random values.
fn test_vectors(lvl: &Level, rng: &mut SplitMix64, gauss_seidel: bool) -> Vec<f64> {
    const K: usize = TEST_VECTORS;
    let n = lvl.n;
    let mut ptr = vec![0usize; n + 1];
    for &(a, b, _) in &lvl.edges {
        ptr[a as usize + 1] += 1;
        ptr[b as usize + 1] += 1;
    }
    for i in 0..n {
        ptr[i + 1] += ptr[i];
    }
    let mut fill = ptr.clone();
    let mut nbr = vec![(0u32, 0.0_f64); ptr[n]];
    for &(a, b, w) in &lvl.edges {
        nbr[fill[a as usize]] = (b, w);
        fill[a as usize] += 1;
        nbr[fill[b as usize]] = (a, w);
        fill[b as usize] += 1;
    }
    let mut x: Vec<f64> = (0..n * K).map(|_| rng.uniform() - 0.5).collect();
    let mut next = x.clone();
    let mut acc = [0.0_f64; K];
    for _ in 0..RELAX_SWEEPS {
        for v in 0..n {
            let adj = &nbr[ptr[v]..ptr[v + 1]];
            if adj.is_empty() {
                continue;
            }
            acc.fill(0.0);
            let mut deg = 0.0;
            for &(u, w) in adj {
                deg += w;
                let src = if gauss_seidel { &next } else { &x };
                for (a, &xu) in acc.iter_mut().zip(&src[u as usize * K..u as usize * K + K]) {
                    *a += w * xu;
                }
            }
            for (j, a) in acc.iter().enumerate() {
                let avg = a / deg;
                next[v * K + j] = if gauss_seidel {
                    avg
                } else {
                    0.5 * x[v * K + j] + 0.5 * avg
                };
            }
        }
        if !gauss_seidel {
            std::mem::swap(&mut x, &mut next);
        }
    }
    if gauss_seidel { next } else { x }
}

/// `1 / max_k (x_k(a) − x_k(b))²` per edge (`+∞` capped at `f64::MAX` for equal vectors).
fn algebraic_proximity(lvl: &Level, x: &[f64]) -> Vec<f64> {
    const K: usize = TEST_VECTORS;
    lvl.edges
        .iter()
        .map(|&(a, b, _)| {
            let (xa, xb) = (&x[a as usize * K..][..K], &x[b as usize * K..][..K]);
            let d = xa
                .iter()
                .zip(xb)
                .map(|(p, q)| (p - q) * (p - q))
                .fold(0.0_f64, f64::max);
            if d > 0.0 {
                (1.0 / d).min(f64::MAX)
            } else {
                f64::MAX
            }
        })
        .collect()
}

/// `(x(a) · x(b))² / (‖x(a)‖² ‖x(b)‖²)` per edge (1 when a norm is 0).
fn affinity(lvl: &Level, x: &[f64]) -> Vec<f64> {
    const K: usize = TEST_VECTORS;
    lvl.edges
        .iter()
        .map(|&(a, b, _)| {
            let (xa, xb) = (&x[a as usize * K..][..K], &x[b as usize * K..][..K]);
            let dot: f64 = xa.iter().zip(xb).map(|(p, q)| p * q).sum();
            let na: f64 = xa.iter().map(|p| p * p).sum();
            let nb: f64 = xb.iter().map(|q| q * q).sum();
            if na > 0.0 && nb > 0.0 {
                dot * dot / (na * nb)
            } else {
                1.0
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_graph_rec_is_a_perfect_matching() {
        let mut edges = Vec::new();
        for u in 0..10u32 {
            for v in u + 1..10 {
                edges.push([u, v]);
            }
        }
        for s in 0..20 {
            let c = coarsen(10, &edges, 5, Coarsening::Rec { seed: s }, 0, Some(1)).unwrap();
            assert_eq!(c.n_coarse, 5);
            let mut sizes = [0; 5];
            for &a in &c.assignment {
                sizes[a as usize] += 1;
            }
            assert_eq!(sizes, [2; 5]);
        }
    }

    #[test]
    fn representatives_are_smallest_members() {
        let c = coarsen(3, &[[1, 2], [0, 1]], 2, Coarsening::HeavyEdge, 0, None).unwrap();
        // degrees 1, 2, 1: both edges score 1/2; the first in (a, b) order is (0, 1)
        assert_eq!(c.assignment, vec![0, 0, 1]);
    }

    #[test]
    fn test_vector_baselines_reach_targets_deterministically() {
        // a ring of 12 with two chords, and two isolated vertices
        let mut edges: Vec<[u32; 2]> = (0..12).map(|i| [i, (i + 1) % 12]).collect();
        edges.extend([[0, 6], [3, 9]]);
        for method in [
            Coarsening::AlgebraicDistance { seed: 5 },
            Coarsening::Affinity { seed: 5 },
        ] {
            for k in [1, 4, 7, 13] {
                let c = coarsen(14, &edges, k, method, 2, None).unwrap();
                // the isolated vertices can never merge
                assert_eq!(c.n_coarse, k.max(3), "{method:?} k={k}");
                assert_eq!(coarsen(14, &edges, k, method, 2, None).unwrap(), c);
            }
            // one level is one matching: at most 6 pairs on 12 ring vertices
            let one = coarsen(14, &edges, 7, method, 2, Some(1)).unwrap();
            assert!((8..14).contains(&one.n_coarse), "{}", one.n_coarse);
        }
    }

    #[test]
    fn algebraic_distance_prefers_the_strongly_tied_pair() {
        // two triangles joined by one edge: smoothing makes each triangle's values nearly
        // equal, so the bridge (2, 3) is never the first choice
        let edges = [[0, 1], [1, 2], [2, 0], [2, 3], [3, 4], [4, 5], [5, 3]];
        for seed in 0..10 {
            let c = coarsen(
                6,
                &edges,
                5,
                Coarsening::AlgebraicDistance { seed },
                0,
                None,
            )
            .unwrap();
            assert_ne!(c.assignment[2], c.assignment[3], "seed {seed}");
            let c = coarsen(6, &edges, 5, Coarsening::Affinity { seed }, 0, None).unwrap();
            assert_eq!(c.n_coarse, 5);
        }
    }

    #[test]
    fn levels_reach_the_target_and_stop_without_edges() {
        let edges: Vec<[u32; 2]> = (0..15).map(|i| [i, i + 1]).collect();
        let c = coarsen(16, &edges, 3, Coarsening::Rec { seed: 7 }, 0, None).unwrap();
        assert_eq!(c.n_coarse, 3);
        let c = coarsen(4, &[], 1, Coarsening::HeavyEdge, 0, None).unwrap();
        assert_eq!(c.n_coarse, 4);
        assert!(coarsen(4, &[], 0, Coarsening::HeavyEdge, 0, None).is_err());
    }
}
