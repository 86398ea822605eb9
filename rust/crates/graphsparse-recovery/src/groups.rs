//! Overlapping groups of the latent group lasso (Jacob, Obozinski & Vert, ICML 2009).
//!
//! `Ω(x) = min { Σ_g d_g ‖v_g‖₂ : Σ_g P_g v_g = x }`. The latent vector `v ∈ ℝ^M`,
//! `M = Σ_g |g|`, stores the groups one after the other; `x = P v` is a gather over a
//! vertex → latent-slot index (fixed order, parallel over vertices) and `Pᵀ u = u[member]`.
//! The duplicated design `L P` is never formed.

use graphsparse_base::Parallel;
use graphsparse_graph::SparseIndex;

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
    /// Flattens the lists and calls [`LatentGroups::from_offsets`], which checks them.
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
    /// As [`LatentGroups::from_offsets`].
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
        let mut offsets = Vec::with_capacity(groups.len() + 1);
        offsets.push(0);
        let mut members = Vec::with_capacity(groups.iter().map(Vec::len).sum());
        for g in groups {
            members.extend_from_slice(g);
            offsets.push(members.len());
        }
        Self::from_offsets(n_nodes, &offsets, &members, weights)
    }

    /// Groups in compressed form: group `g` holds `members[offsets[g]..offsets[g + 1]]`.
    ///
    /// Every rule on the groups is checked here (and only here). The offsets and members may
    /// be of any [`SparseIndex`] type, so that signed arrays (NumPy's `int64`) pass without a
    /// conversion; a negative value is an error.
    ///
    /// # Arguments
    /// * `n_nodes` – number of variables `N`.
    /// * `offsets` – `n_groups + 1` offsets into `members`, from 0 to `members.len()`.
    /// * `members` – the groups' vertices, one group after the other (each group non-empty,
    ///   without repeats; groups may overlap, and vertices in no group are forced to 0).
    /// * `weights` – `d_g > 0` per group, or `None` for `d_g = √|g|`.
    ///
    /// # Returns
    /// The layout.
    ///
    /// # Errors
    /// [`RecoveryError::InvalidGroups`] for malformed offsets, an empty group, a repeated or
    /// out-of-range vertex; [`RecoveryError::InvalidParameter`] for a bad weight;
    /// [`RecoveryError::Input`] for weights vs groups; [`RecoveryError::TooLarge`].
    ///
    /// # Complexity
    /// O(N + M).
    ///
    /// # Example
    /// ```
    /// use graphsparse_recovery::LatentGroups;
    /// // the groups {0, 1} and {1, 2}, from NumPy-style int64 arrays
    /// let g = LatentGroups::from_offsets(3, &[0i64, 2, 4], &[0i64, 1, 1, 2], None)?;
    /// assert_eq!(g, LatentGroups::new(3, &[vec![0, 1], vec![1, 2]], None)?);
    /// assert!(LatentGroups::from_offsets(3, &[0i64, 2, 1], &[0i64, 1], None).is_err());
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    pub fn from_offsets<P: SparseIndex, I: SparseIndex>(
        n_nodes: usize,
        offsets: &[P],
        members: &[I],
        weights: Option<&[f64]>,
    ) -> Result<Self> {
        if n_nodes > MAX_GRAPH_SIZE {
            return Err(RecoveryError::TooLarge {
                name: "n_nodes",
                value: n_nodes as u128,
                limit: MAX_GRAPH_SIZE as u128,
            });
        }
        let bad = |msg: String| RecoveryError::InvalidGroups(msg);
        let ptr = offsets
            .iter()
            .enumerate()
            .map(|(g, &o)| {
                o.to_index()
                    .ok_or_else(|| bad(format!("offset {g} is {o:?}, not an index")))
            })
            .collect::<Result<Vec<usize>>>()?;
        match (ptr.first(), ptr.last()) {
            (Some(0), Some(&last)) if last == members.len() => {}
            (Some(0), Some(&last)) => {
                return Err(bad(format!(
                    "the offsets end at {last}, but there are {} members",
                    members.len()
                )));
            }
            _ => {
                return Err(bad(
                    "the offsets must start at 0 (n_groups + 1 of them)".to_owned()
                ));
            }
        }
        if let Some(g) = ptr.windows(2).position(|w| w[1] < w[0]) {
            return Err(bad(format!(
                "the offsets decrease at group {g} ({} then {})",
                ptr[g],
                ptr[g + 1]
            )));
        }
        let n_groups = ptr.len() - 1;
        if let Some(w) = weights {
            check_len("weights", w.len(), n_groups)?;
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
        let total = members.len();
        if total > MAX_GRAPH_SIZE {
            return Err(RecoveryError::TooLarge {
                name: "total group size",
                value: total as u128,
                limit: MAX_GRAPH_SIZE as u128,
            });
        }
        let mut seen = vec![u32::MAX; n_nodes];
        let mut member = Vec::with_capacity(total);
        for (g, span) in ptr.windows(2).enumerate() {
            if span[0] == span[1] {
                return Err(bad(format!("group {g} is empty")));
            }
            for &v in &members[span[0]..span[1]] {
                let v = match v.to_index() {
                    Some(v) if v < n_nodes => v,
                    _ => {
                        return Err(bad(format!(
                            "group {g} holds vertex {v:?}, out of range for {n_nodes} variables"
                        )));
                    }
                };
                if seen[v] == g as u32 {
                    return Err(bad(format!("group {g} lists vertex {v} twice")));
                }
                seen[v] = g as u32;
                member.push(v as u32);
            }
        }
        let weights = match weights {
            Some(w) => w.to_vec(),
            None => ptr
                .windows(2)
                .map(|s| ((s[1] - s[0]) as f64).sqrt())
                .collect(),
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
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        let mut members: Vec<u32> = Vec::with_capacity(n + 2 * graph.n_edges());
        for i in 0..n {
            let start = members.len();
            members.push(i as u32);
            members.extend_from_slice(graph.neighbors(i));
            members[start..].sort_unstable();
            offsets.push(members.len());
        }
        Self::from_offsets(n, &offsets, &members, None)
    }

    /// Every edge `{u, v}` as a group of two, `d_g = √2` (the "graph lasso" of Jacob et al.).
    ///
    /// # Errors
    /// [`RecoveryError::TooLarge`] when `2m` exceeds `u32::MAX` latent coordinates.
    ///
    /// # Complexity
    /// O(N + m).
    pub fn edges(graph: &WeightedGraph) -> Result<Self> {
        let members: Vec<u32> = graph.edges().iter().flatten().copied().collect();
        let offsets: Vec<usize> = (0..=graph.n_edges()).map(|k| 2 * k).collect();
        Self::from_offsets(graph.n_vertices(), &offsets, &members, None)
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

    #[test]
    fn offsets_are_checked_once_and_agree_with_lists() {
        let lists = [vec![2, 0], vec![1], vec![0, 1, 2]];
        let from_lists = LatentGroups::new(3, &lists, None).unwrap();
        let from_offsets =
            LatentGroups::from_offsets(3, &[0i64, 2, 3, 6], &[2i64, 0, 1, 0, 1, 2], None).unwrap();
        assert_eq!(from_lists, from_offsets);
        let groups = |ptr: &[i64], members: &[i64]| match LatentGroups::from_offsets(
            3, ptr, members, None,
        ) {
            Err(RecoveryError::InvalidGroups(msg)) => msg,
            other => panic!("{other:?}"),
        };
        assert!(groups(&[], &[]).contains("start at 0"));
        assert!(groups(&[1, 2], &[0, 1]).contains("start at 0"));
        assert!(groups(&[0, 1], &[0, 1]).contains("end at 1"));
        assert!(groups(&[0, -1, 1], &[0]).contains("offset 1 is -1"));
        assert!(groups(&[0, 2, 1, 2], &[0, 1]).contains("decrease at group 1"));
        assert!(groups(&[0, 0, 1], &[0]).contains("group 0 is empty"));
        assert!(groups(&[0, 1], &[-2]).contains("vertex -2"));
        assert!(groups(&[0, 1], &[3]).contains("vertex 3, out of range"));
        // no groups at all: every variable is fixed at 0
        assert_eq!(
            LatentGroups::from_offsets(3, &[0usize], &[0usize; 0], None)
                .unwrap()
                .n_groups(),
            0
        );
    }
}
