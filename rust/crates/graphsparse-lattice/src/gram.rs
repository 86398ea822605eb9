//! The dense effective kernel `K = Σ_w κ_w φ_w φ_wᵀ` handed to the SVM / ridge sub-solvers.

use graphsparse_base::Meter;

use crate::dag::Dag;
use crate::error::{LatticeError, Result};

/// Entries added to the kernel between two polls of the meter in [`DenseGram::build`] (a
/// poll is tens of nanoseconds, this many additions tens of microseconds).
const POLL_ENTRIES: usize = 1 << 16;

/// A symmetric `m × m` matrix stored in full (row `i` is column `i`).
#[derive(Debug, Clone)]
pub(crate) struct DenseGram {
    m: usize,
    k: Vec<f64>,
    /// Scratch: the weight of each cover class.
    class_w: Vec<f64>,
    /// Scratch: `Σ_k w_k φ̄_k` over the classes built through their complement.
    edge: Vec<f64>,
    /// Scratch: one complement cover.
    complement: Vec<u32>,
}

impl DenseGram {
    /// An `m × m` zero matrix; an error instead of an abort when it cannot be allocated.
    pub(crate) fn try_new(m: usize) -> Result<Self> {
        let too_large = || LatticeError::TooLarge {
            name: "kernel matrix entries (m * m)",
            value: m as u128 * m as u128,
            reason: "the dense m x m effective kernel cannot be allocated",
        };
        let n = m.checked_mul(m).ok_or_else(too_large)?;
        if n > isize::MAX as usize / 8 {
            return Err(too_large());
        }
        let mut k = Vec::new();
        k.try_reserve_exact(n).map_err(|_| too_large())?;
        k.resize(n, 0.0);
        Ok(Self {
            m,
            k,
            class_w: Vec::new(),
            edge: Vec::new(),
            complement: Vec::new(),
        })
    }

    pub(crate) fn m(&self) -> usize {
        self.m
    }

    /// `K = Σ_v weights[v] φ_v φ_vᵀ` over the nodes of `dag`; `false` when `meter` stopped
    /// the build (it is polled every [`POLL_ENTRIES`] entries added), which leaves the
    /// entries partial: the matrix must not be used until a later build completes.
    ///
    /// O(|W| + Σ_k min(|c_k|, m − |c_k|)² / 2 + m²) over the distinct covers `c_k`: the
    /// weights are summed per cover class, then each class adds its weight to the upper
    /// triangle of its cover block, which is then mirrored. A class covering more than half
    /// the examples goes through its complement `c̄`, as `φφᵀ = 11ᵀ − 1φ̄ᵀ − φ̄1ᵀ + φ̄φ̄ᵀ`: a
    /// constant, a vector added to rows and columns, and the smaller block.
    pub(crate) fn build(&mut self, dag: &Dag, weights: &[f64], meter: Option<&Meter>) -> bool {
        let m = self.m;
        // entries added since the last poll
        let mut work = 0usize;
        let stopped = |work: &mut usize, added: usize| -> bool {
            *work += added;
            if *work < POLL_ENTRIES {
                return false;
            }
            *work = 0;
            meter.is_some_and(|mt| mt.poll())
        };
        self.k.iter_mut().for_each(|x| *x = 0.0);
        self.class_w.clear();
        self.class_w.resize(dag.n_classes(), 0.0);
        for (v, &w) in weights.iter().enumerate() {
            self.class_w[dag.class(v)] += w;
        }
        self.edge.clear();
        self.edge.resize(m, 0.0);
        let mut constant = 0.0;
        for (k, &w) in self.class_w.iter().enumerate() {
            if w == 0.0 {
                continue;
            }
            let mut c = dag.class_cover(k);
            if 2 * c.len() > m + 2 {
                // the complement of the sorted cover
                self.complement.clear();
                let mut next = 0;
                for &i in c {
                    self.complement.extend(next..i);
                    next = i + 1;
                }
                self.complement.extend(next..m as u32);
                constant += w;
                for &j in &self.complement {
                    self.edge[j as usize] += w;
                }
                c = &self.complement;
            }
            // a class costs its cover (or complement) at least, however small its block
            if stopped(&mut work, m) {
                return false;
            }
            for (a, &i) in c.iter().enumerate() {
                let row = &mut self.k[i as usize * m..(i as usize + 1) * m];
                for &j in &c[a..] {
                    row[j as usize] += w;
                }
                if stopped(&mut work, c.len() - a) {
                    return false;
                }
            }
        }
        for i in 0..m {
            let (ei, row) = (self.edge[i], i * m);
            for j in i..m {
                self.k[row + j] += constant - ei - self.edge[j];
            }
            for j in 0..i {
                self.k[row + j] = self.k[j * m + i];
            }
            if stopped(&mut work, m) {
                return false;
            }
        }
        true
    }

    /// Row (= column) `i`.
    #[inline]
    pub(crate) fn row(&self, i: usize) -> &[f64] {
        &self.k[i * self.m..(i + 1) * self.m]
    }

    /// `K_ii`.
    #[inline]
    pub(crate) fn diag(&self, i: usize) -> f64 {
        self.k[i * self.m + i]
    }

    /// `out = K x`.
    pub(crate) fn matvec_into(&self, x: &[f64], out: &mut [f64]) {
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.row(i).iter().zip(x).map(|(a, b)| a * b).sum();
        }
    }

    /// The entries, row-major (tests).
    #[cfg(test)]
    pub(crate) fn entries(&self) -> &[f64] {
        &self.k
    }

    /// Overwrites the entries (tests of the sub-solvers on arbitrary PSD matrices).
    #[cfg(test)]
    pub(crate) fn from_entries(m: usize, k: Vec<f64>) -> Self {
        assert_eq!(k.len(), m * m);
        Self {
            m,
            k,
            class_w: Vec::new(),
            edge: Vec::new(),
            complement: Vec::new(),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn build_sums_rank_one_blocks() {
        let dag = Dag::new(
            3,
            &[vec![0, 1, 2], vec![0, 2], vec![1]],
            &[vec![], vec![0], vec![0]],
            &[1.0, 2.0, 2.0],
        )
        .unwrap();
        let mut g = DenseGram::try_new(3).unwrap();
        assert!(g.build(&dag, &[0.5, 2.0, 3.0], None));
        #[rustfmt::skip]
        let want = [
            2.5, 0.5, 2.5,
            0.5, 3.5, 0.5,
            2.5, 0.5, 2.5,
        ];
        assert_eq!(g.entries(), &want);
        let mut o = vec![0.0; 3];
        g.matvec_into(&[1.0, 0.0, -1.0], &mut o);
        assert_eq!(o, vec![0.0, 0.0, 0.0]);
    }

    #[test]
    fn large_covers_through_their_complement_equal_the_direct_sum() {
        // covers of every size from empty to all m examples, most above m / 2
        let m = 11;
        let mut covers = vec![(0..m as u32).collect::<Vec<u32>>()];
        let mut parents = vec![vec![]];
        for v in 1..40u32 {
            let size = (v as usize * 7) % (m + 1);
            let mut c: Vec<u32> = (0..m as u32).map(|i| (i * 5 + v * 3) % m as u32).collect();
            c.truncate(size);
            covers.push(c);
            parents.push(vec![0]);
        }
        let n = covers.len();
        let dag = Dag::new(m, &covers, &parents, &vec![2.0; n]).unwrap();
        let weights: Vec<f64> = (0..n).map(|v| 0.1 + ((v * 13) % 7) as f64 * 0.37).collect();
        let mut g = DenseGram::try_new(m).unwrap();
        assert!(g.build(&dag, &weights, None));
        let mut want = vec![0.0; m * m];
        for (c, w) in covers.iter().zip(&weights) {
            for &i in c {
                for &j in c {
                    want[i as usize * m + j as usize] += w;
                }
            }
        }
        for (k, (got, want)) in g.entries().iter().zip(&want).enumerate() {
            assert!(
                (got - want).abs() <= 1e-12 * weights.iter().sum::<f64>(),
                "{k}: {got} {want}"
            );
        }
        let k = g.entries();
        assert!((0..m).all(|i| (0..m).all(|j| k[i * m + j] == k[j * m + i])));
    }

    #[test]
    fn nodes_sharing_a_cover_add_up() {
        // nodes 1 and 3 cover {0, 2}, nodes 2 and 4 cover {1}
        let covers = [vec![0, 1, 2], vec![0, 2], vec![1], vec![2, 0], vec![1]];
        let parents = [vec![], vec![0], vec![0], vec![1], vec![2]];
        let dag = Dag::new(3, &covers, &parents, &[1.0, 2.0, 2.0, 4.0, 4.0]).unwrap();
        assert_eq!(dag.n_classes(), 3);
        let weights = [0.5, 1.5, 1.0, 0.5, 2.0];
        let mut g = DenseGram::try_new(3).unwrap();
        assert!(g.build(&dag, &weights, None));
        let mut want = [0.0; 9];
        for (c, w) in covers.iter().zip(weights) {
            for &i in c {
                for &j in c {
                    want[i as usize * 3 + j as usize] += w;
                }
            }
        }
        assert_eq!(g.entries(), &want);
        let mut p = vec![0.0; 5];
        dag.project_into(&[1.0, 10.0, 100.0], 1, &mut p);
        assert_eq!(p, vec![111.0, 101.0, 10.0, 101.0, 10.0]);
    }

    /// A DAG over `m = 400` examples whose build adds several hundred thousand entries (it
    /// polls its meter many times), and weights for it.
    pub(crate) fn large_dag() -> (Dag, Vec<f64>) {
        let m = 400u32;
        let mut covers = vec![(0..m).collect::<Vec<u32>>()];
        let mut parents = vec![vec![]];
        for v in 1..30u32 {
            // blocks of 80 to 320 examples, some through their complement
            let size = 80 + (v * 37) % 241;
            covers.push((0..size).map(|i| (i * 7 + v * 11) % m).collect());
            parents.push(vec![0]);
        }
        let n = covers.len();
        let dag = Dag::new(m as usize, &covers, &parents, &vec![2.0; n]).unwrap();
        let weights = (0..n).map(|v| 0.5 + (v % 5) as f64 * 0.25).collect();
        (dag, weights)
    }

    #[test]
    fn a_build_under_a_running_meter_equals_the_unmetered_one() {
        use graphsparse_base::{Budget, RunControl};
        let (dag, weights) = large_dag();
        let mut plain = DenseGram::try_new(dag.n_examples()).unwrap();
        assert!(plain.build(&dag, &weights, None));
        let ctl = RunControl::new();
        let meter = Budget::new().start(&ctl);
        let mut metered = DenseGram::try_new(dag.n_examples()).unwrap();
        assert!(metered.build(&dag, &weights, Some(&meter)));
        assert_eq!(metered.entries(), plain.entries());
        assert!(meter.truncation().is_none());
    }

    #[test]
    fn a_stopped_meter_stops_the_build_and_a_later_build_is_whole() {
        use graphsparse_base::{Budget, RunControl, Truncation};
        let (dag, weights) = large_dag();
        let m = dag.n_examples();
        let mut plain = DenseGram::try_new(m).unwrap();
        assert!(plain.build(&dag, &weights, None));
        let ctl = RunControl::new();
        ctl.cancel();
        let meter = Budget::new().start(&ctl);
        let mut g = DenseGram::try_new(m).unwrap();
        assert!(!g.build(&dag, &weights, Some(&meter)));
        assert_eq!(meter.truncation(), Some(Truncation::Cancelled));
        // it stopped early: the entries are partial (not all of the last rows are written)
        assert_ne!(g.entries(), plain.entries());
        // the same buffers then build the whole kernel
        assert!(g.build(&dag, &weights, None));
        assert_eq!(g.entries(), plain.entries());
    }
}
