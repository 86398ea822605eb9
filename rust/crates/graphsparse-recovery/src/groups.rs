//! Overlapping groups of the latent group lasso (Jacob, Obozinski & Vert, ICML 2009).
//!
//! `Ω(x) = min { Σ_g d_g ‖v_g‖₂ : Σ_g P_g v_g = x }`. The latent vector `v ∈ ℝ^M`,
//! `M = Σ_g |g|`, stores the groups one after the other; `x = P v` is a gather over a
//! vertex → latent-slot index (fixed order, parallel over vertices) and `Pᵀ u = u[member]`.
//! The duplicated design `L P` is never formed.

use graphsparse_base::Parallel;

use crate::error::{RecoveryError, Result};
use crate::graph::{MAX_GRAPH_SIZE, WeightedGraph};
use crate::operator::LinearOperator;
use crate::par::for_chunks;
use graphsparse_base::check_len;

/// Groups of vertices with their weights `d_g`, laid out for the latent group lasso.
///
/// # Example
/// ```
/// use graphsparse_recovery::{Check, LatentGroups, WeightedGraph};
/// let g = WeightedGraph::new(3, &[[0, 1], [1, 2]], None)?;
/// let groups = LatentGroups::neighbourhoods(&g)?;
/// assert_eq!(groups.n_groups(), 3);
/// assert_eq!(groups.group(1), Some(&[0, 1, 2][..])); // closed neighbourhood of vertex 1
/// assert_eq!(groups.group(3), None);
/// assert_eq!(groups.weights()[1], 3f64.sqrt());
/// # Ok::<(), graphsparse_recovery::RecoveryError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct LatentGroups {
    n: usize,
    ptr: Vec<usize>,
    member: Vec<u32>,
    weights: Vec<f64>,
    vptr: Vec<usize>,
    vslot: Vec<u32>,
    max_cover: usize,
}

impl LatentGroups {
    /// Groups from explicit vertex lists.
    ///
    /// # Arguments
    /// * `n_nodes` – number of variables `N`.
    /// * `groups` – each group's vertices (non-empty, no repeats; groups may overlap, and
    ///   vertices in no group are forced to 0).
    /// * `weights` – `d_g > 0` per group, or `None` for `d_g = √|g|`.
    ///
    /// # Returns
    /// The layout.
    ///
    /// # Errors
    /// [`RecoveryError::InvalidGroups`] for an empty group, a repeated or out-of-range
    /// vertex; [`RecoveryError::InvalidParameter`] for a bad weight;
    /// [`RecoveryError::Input`] for weights vs groups; [`RecoveryError::TooLarge`].
    ///
    /// # Complexity
    /// O(N + M).
    ///
    /// # Example
    /// ```
    /// let g = graphsparse_recovery::LatentGroups::new(3, &[vec![0, 1], vec![1, 2]], Some(&[1.0, 2.0]))?;
    /// assert_eq!(g.n_latent(), 4);
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    pub fn new(n_nodes: usize, groups: &[Vec<usize>], weights: Option<&[f64]>) -> Result<Self> {
        if n_nodes > MAX_GRAPH_SIZE {
            return Err(RecoveryError::TooLarge {
                name: "n_nodes",
                value: n_nodes as u128,
                limit: MAX_GRAPH_SIZE as u128,
            });
        }
        if let Some(w) = weights {
            check_len("weights", w.len(), groups.len())?;
            if let Some((g, &v)) = w
                .iter()
                .enumerate()
                .find(|(_, w)| !(w.is_finite() && **w > 0.0))
            {
                return Err(RecoveryError::InvalidParameter {
                    name: "group weights",
                    expected: "finite and > 0",
                    value: format!("{v} (group {g})"),
                });
            }
        }
        let total: usize = groups.iter().map(Vec::len).sum();
        if total > MAX_GRAPH_SIZE {
            return Err(RecoveryError::TooLarge {
                name: "total group size",
                value: total as u128,
                limit: MAX_GRAPH_SIZE as u128,
            });
        }
        let mut seen = vec![u32::MAX; n_nodes];
        let mut ptr = Vec::with_capacity(groups.len() + 1);
        ptr.push(0);
        let mut member = Vec::with_capacity(total);
        for (g, group) in groups.iter().enumerate() {
            if group.is_empty() {
                return Err(RecoveryError::InvalidGroups(format!("group {g} is empty")));
            }
            for &v in group {
                if v >= n_nodes {
                    return Err(RecoveryError::InvalidGroups(format!(
                        "group {g} holds vertex {v}, out of range for {n_nodes} variables"
                    )));
                }
                if seen[v] == g as u32 {
                    return Err(RecoveryError::InvalidGroups(format!(
                        "group {g} lists vertex {v} twice"
                    )));
                }
                seen[v] = g as u32;
                member.push(v as u32);
            }
            ptr.push(member.len());
        }
        let weights = match weights {
            Some(w) => w.to_vec(),
            None => groups.iter().map(|g| (g.len() as f64).sqrt()).collect(),
        };
        let mut vptr = vec![0usize; n_nodes + 1];
        for &v in &member {
            vptr[v as usize + 1] += 1;
        }
        let max_cover = vptr.iter().copied().max().unwrap_or(0);
        for i in 0..n_nodes {
            vptr[i + 1] += vptr[i];
        }
        let mut fill = vptr.clone();
        let mut vslot = vec![0u32; member.len()];
        for (k, &v) in member.iter().enumerate() {
            vslot[fill[v as usize]] = k as u32;
            fill[v as usize] += 1;
        }
        Ok(Self {
            n: n_nodes,
            ptr,
            member,
            weights,
            vptr,
            vslot,
            max_cover,
        })
    }

    /// The closed neighbourhoods `{n} ∪ N(n)` of every vertex, `d_g = √|g|` (the groups the
    /// paper's §4 builds from "adjacent nodes").
    ///
    /// # Errors
    /// [`RecoveryError::TooLarge`] when `N + 2m` exceeds `u32::MAX` latent coordinates.
    ///
    /// # Complexity
    /// O(N + m).
    pub fn neighbourhoods(graph: &WeightedGraph) -> Result<Self> {
        let n = graph.n_vertices();
        let adj: Vec<Vec<usize>> = (0..n)
            .map(|i| {
                let mut a: Vec<usize> = std::iter::once(i)
                    .chain(graph.neighbors(i).iter().map(|&v| v as usize))
                    .collect();
                a.sort_unstable();
                a
            })
            .collect();
        Self::new(n, &adj, None)
    }

    /// Every edge `{u, v}` as a group of two, `d_g = √2` (the "graph lasso" of Jacob et al.).
    ///
    /// # Errors
    /// [`RecoveryError::TooLarge`] when `2m` exceeds `u32::MAX` latent coordinates.
    ///
    /// # Complexity
    /// O(N + m).
    pub fn edges(graph: &WeightedGraph) -> Result<Self> {
        let groups: Vec<Vec<usize>> = graph
            .edges()
            .iter()
            .map(|&[u, v]| vec![u as usize, v as usize])
            .collect();
        Self::new(graph.n_vertices(), &groups, None)
    }

    /// Number of variables `N`.
    pub fn n_nodes(&self) -> usize {
        self.n
    }

    /// Number of groups.
    pub fn n_groups(&self) -> usize {
        self.weights.len()
    }

    /// Length `M = Σ_g |g|` of the latent vector.
    pub fn n_latent(&self) -> usize {
        self.member.len()
    }

    /// The vertices of group `g` (as given), or `None` for `g ≥ n_groups()`.
    pub fn group(&self, g: usize) -> Option<&[u32]> {
        let (a, b) = (*self.ptr.get(g)?, *self.ptr.get(g + 1)?);
        Some(&self.member[a..b])
    }

    /// The group weights `d_g`.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// The members of all groups, one group after the other (split by [`Self::offsets`]).
    pub fn members(&self) -> &[u32] {
        &self.member
    }

    /// Start of each group in the latent vector (length `n_groups + 1`).
    pub fn offsets(&self) -> &[usize] {
        &self.ptr
    }

    /// The most groups any vertex belongs to (`‖P‖²`).
    pub fn max_cover(&self) -> usize {
        self.max_cover
    }

    /// `x = P v`: the sum of each vertex's latent copies.
    ///
    /// # Errors
    /// [`RecoveryError::Input`].
    ///
    /// # Complexity
    /// O(N + M).
    pub fn to_signal_into(&self, v: &[f64], x: &mut [f64]) -> Result<()> {
        check_len("v", v.len(), self.n_latent())?;
        check_len("x", x.len(), self.n)?;
        self.gather_sum(v, x, Parallel::Serial);
        Ok(())
    }

    pub(crate) fn gather_sum(&self, v: &[f64], x: &mut [f64], par: Parallel) {
        for_chunks(par, x, |off, chunk| {
            for (i, o) in chunk.iter_mut().enumerate() {
                let n = off + i;
                *o = self.vslot[self.vptr[n]..self.vptr[n + 1]]
                    .iter()
                    .map(|&k| v[k as usize])
                    .sum();
            }
        });
    }

    pub(crate) fn spread(&self, u: &[f64], v: &mut [f64], par: Parallel) {
        for_chunks(par, v, |off, chunk| {
            for (o, &n) in chunk.iter_mut().zip(&self.member[off..]) {
                *o = u[n as usize];
            }
        });
    }
}

/// `L P`: the design of the latent group lasso in the latent space, applied through `L`.
pub(crate) struct LatentDesign<'a, Op: LinearOperator + ?Sized> {
    pub(crate) op: &'a Op,
    pub(crate) groups: &'a LatentGroups,
    pub(crate) scratch: std::sync::Mutex<Vec<f64>>,
}

impl<Op: LinearOperator + ?Sized> LinearOperator for LatentDesign<'_, Op> {
    fn n_rows(&self) -> usize {
        self.op.n_rows()
    }
    fn n_cols(&self) -> usize {
        self.groups.n_latent()
    }
    fn cost(&self) -> u64 {
        self.op.cost() + self.groups.n_latent() as u64 + self.groups.n_nodes() as u64
    }
    fn apply_into(&self, v: &[f64], out: &mut [f64], par: Parallel) -> Result<()> {
        check_len("x", v.len(), self.n_cols())?;
        let mut x = self
            .scratch
            .lock()
            .expect("invariant: scratch lock not poisoned");
        x.resize(self.groups.n_nodes(), 0.0);
        self.groups.gather_sum(v, &mut x, par);
        self.op.apply_into(&x, out, par)
    }
    fn apply_adjoint_into(&self, u: &[f64], out: &mut [f64], par: Parallel) -> Result<()> {
        check_len("out", out.len(), self.n_cols())?;
        let mut x = self
            .scratch
            .lock()
            .expect("invariant: scratch lock not poisoned");
        x.resize(self.groups.n_nodes(), 0.0);
        self.op.apply_adjoint_into(u, &mut x, par)?;
        self.groups.spread(&x, out, par);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gather_and_spread_are_adjoint() {
        let g = LatentGroups::new(4, &[vec![0, 1], vec![1, 2, 3], vec![3]], None).unwrap();
        let v = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let mut x = [0.0; 4];
        g.to_signal_into(&v, &mut x).unwrap();
        assert_eq!(x, [1.0, 5.0, 4.0, 11.0]);
        let u = [0.5, -1.0, 2.0, 3.0];
        let mut w = [0.0; 6];
        g.spread(&u, &mut w, Parallel::Serial);
        let lhs: f64 = x.iter().zip(&u).map(|(a, b)| a * b).sum();
        let rhs: f64 = v.iter().zip(&w).map(|(a, b)| a * b).sum();
        assert_eq!(lhs, rhs);
        assert_eq!(g.max_cover(), 2);
    }

    #[test]
    fn bad_groups() {
        assert!(LatentGroups::new(2, &[vec![]], None).is_err());
        assert!(LatentGroups::new(2, &[vec![0, 0]], None).is_err());
        assert!(LatentGroups::new(2, &[vec![2]], None).is_err());
        assert!(LatentGroups::new(2, &[vec![1]], Some(&[0.0])).is_err());
        assert!(LatentGroups::new(2, &[vec![1]], Some(&[1.0, 1.0])).is_err());
    }
}
