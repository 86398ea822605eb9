//! Linear maps `L : ℝᴺ → ℝᴶ` applied without forming anything: dense row-major, CSR, identity.
//!
//! Every implementation computes each output entry by the same serial expression whatever the
//! thread count (rows of `L x` are dot products in a fixed order; `Lᵀ v` is accumulated row by
//! row per column block, or read from a CSR of `Lᵀ`), so results are bitwise independent of
//! parallelism.

use graphsparse_proj::Parallel;
use rayon::prelude::*;

use crate::error::{RecoveryError, Result, check_finite, check_len};
use crate::graph::{MAX_GRAPH_SIZE, try_vec};
use crate::par::dot;

/// A real matrix `L ∈ ℝ^{J×N}` seen through its two products.
///
/// Implementations must be deterministic: the same bits for every `par` and thread count.
///
/// # Example
/// ```
/// use graphsparse_recovery::{DenseMatrix, LinearOperator, Parallel};
/// let l = DenseMatrix::new(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 2, 3)?; // [[1,2,3],[4,5,6]]
/// let mut y = [0.0; 2];
/// l.apply_into(&[1.0, 0.0, -1.0], &mut y, Parallel::Serial)?;
/// assert_eq!(y, [-2.0, -2.0]);
/// let mut x = [0.0; 3];
/// l.apply_adjoint_into(&[1.0, 1.0], &mut x, Parallel::Serial)?;
/// assert_eq!(x, [5.0, 7.0, 9.0]);
/// # Ok::<(), graphsparse_recovery::RecoveryError>(())
/// ```
pub trait LinearOperator: Sync {
    /// Number of rows `J`.
    fn n_rows(&self) -> usize;
    /// Number of columns `N`.
    fn n_cols(&self) -> usize;
    /// Multiply-adds of one product (`J·N` dense, `nnz` sparse): the unit in which solvers
    /// report their work.
    fn cost(&self) -> u64;
    /// `out = L x`.
    ///
    /// # Errors
    /// [`RecoveryError::LengthMismatch`] unless `x.len() == N` and `out.len() == J`.
    fn apply_into(&self, x: &[f64], out: &mut [f64], par: Parallel) -> Result<()>;
    /// `out = Lᵀ v`.
    ///
    /// # Errors
    /// [`RecoveryError::LengthMismatch`] unless `v.len() == J` and `out.len() == N`.
    fn apply_adjoint_into(&self, v: &[f64], out: &mut [f64], par: Parallel) -> Result<()>;
}

impl<T: LinearOperator + ?Sized> LinearOperator for &T {
    fn n_rows(&self) -> usize {
        (**self).n_rows()
    }
    fn n_cols(&self) -> usize {
        (**self).n_cols()
    }
    fn cost(&self) -> u64 {
        (**self).cost()
    }
    fn apply_into(&self, x: &[f64], out: &mut [f64], par: Parallel) -> Result<()> {
        (**self).apply_into(x, out, par)
    }
    fn apply_adjoint_into(&self, v: &[f64], out: &mut [f64], par: Parallel) -> Result<()> {
        (**self).apply_adjoint_into(v, out, par)
    }
}

fn check_shapes(op: &impl LinearOperator, x: usize, out: usize, adjoint: bool) -> Result<()> {
    let (a, b) = if adjoint {
        (op.n_rows(), op.n_cols())
    } else {
        (op.n_cols(), op.n_rows())
    };
    check_len(if adjoint { "v" } else { "x" }, x, a)?;
    check_len("out", out, b)
}

/// Multiply-adds per rayon task of the dense products.
const DENSE_TASK: usize = 1 << 14;

/// A dense matrix in row-major order, borrowed (no copy of the caller's buffer).
///
/// `L x` computes each row's dot product with eight partial sums in a fixed order; `Lᵀ v`
/// accumulates `v_j L_j` row by row into blocks of columns, each block on one task. Neither
/// keeps a transposed copy.
#[derive(Debug, Clone, Copy)]
pub struct DenseMatrix<'a> {
    data: &'a [f64],
    rows: usize,
    cols: usize,
}

impl<'a> DenseMatrix<'a> {
    /// Wraps a row-major buffer of `n_rows × n_cols` finite values.
    ///
    /// # Arguments
    /// * `data` – the entries, row after row.
    /// * `n_rows`, `n_cols` – the shape `J × N`.
    ///
    /// # Returns
    /// The operator (borrowing `data`).
    ///
    /// # Errors
    /// [`RecoveryError::LengthMismatch`] when `data.len() != n_rows·n_cols`,
    /// [`RecoveryError::TooLarge`] when the product overflows, [`RecoveryError::NonFinite`]
    /// (named `"L"`, flat index) for NaN/inf.
    ///
    /// # Complexity
    /// O(J·N) for the finiteness check.
    ///
    /// # Example
    /// ```
    /// let l = graphsparse_recovery::DenseMatrix::new(&[1.0, 0.0, 0.0, 1.0], 2, 2)?;
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    pub fn new(data: &'a [f64], n_rows: usize, n_cols: usize) -> Result<Self> {
        let len = n_rows.checked_mul(n_cols).ok_or(RecoveryError::TooLarge {
            name: "n_rows * n_cols",
            value: n_rows as u128 * n_cols as u128,
            limit: usize::MAX as u128,
        })?;
        check_len("L", data.len(), len)?;
        check_finite("L", data)?;
        Ok(Self {
            data,
            rows: n_rows,
            cols: n_cols,
        })
    }

    /// The row-major entries.
    pub fn data(&self) -> &'a [f64] {
        self.data
    }
}

impl LinearOperator for DenseMatrix<'_> {
    fn n_rows(&self) -> usize {
        self.rows
    }
    fn n_cols(&self) -> usize {
        self.cols
    }
    fn cost(&self) -> u64 {
        (self.rows as u64) * (self.cols as u64)
    }

    fn apply_into(&self, x: &[f64], out: &mut [f64], par: Parallel) -> Result<()> {
        check_shapes(self, x.len(), out.len(), false)?;
        let cols = self.cols;
        if cols == 0 {
            out.fill(0.0);
            return Ok(());
        }
        let rows_per_task = (DENSE_TASK / cols).max(1);
        let body = |(k, chunk): (usize, &mut [f64])| {
            for (i, o) in chunk.iter_mut().enumerate() {
                let r = k * rows_per_task + i;
                *o = dot(&self.data[r * cols..(r + 1) * cols], x);
            }
        };
        if par.use_rayon(self.rows.div_ceil(rows_per_task), self.data.len()) {
            out.par_chunks_mut(rows_per_task).enumerate().for_each(body);
        } else {
            out.chunks_mut(rows_per_task).enumerate().for_each(body);
        }
        Ok(())
    }

    fn apply_adjoint_into(&self, v: &[f64], out: &mut [f64], par: Parallel) -> Result<()> {
        check_shapes(self, v.len(), out.len(), true)?;
        let (rows, cols) = (self.rows, self.cols);
        // column blocks of at most 256, more of them when there are many rows
        let block = (DENSE_TASK / rows.max(1)).clamp(16, 256);
        let body = |(k, chunk): (usize, &mut [f64])| {
            chunk.fill(0.0);
            let c0 = k * block;
            for (j, &vj) in v.iter().enumerate() {
                let row = &self.data[j * cols + c0..j * cols + c0 + chunk.len()];
                for (o, &a) in chunk.iter_mut().zip(row) {
                    *o += vj * a;
                }
            }
        };
        if par.use_rayon(cols.div_ceil(block), self.data.len()) {
            out.par_chunks_mut(block).enumerate().for_each(body);
        } else {
            out.chunks_mut(block).enumerate().for_each(body);
        }
        Ok(())
    }
}

/// An index type of CSR arrays (`i32` and `i64` as SciPy stores them, `u32`, `u64`, `usize`).
pub trait SparseIndex: Copy + Send + Sync + std::fmt::Debug {
    /// The index as `usize`, or `None` when negative or too large.
    fn to_index(self) -> Option<usize>;
}

macro_rules! impl_sparse_index {
    ($($t:ty),*) => {$(
        impl SparseIndex for $t {
            #[inline(always)]
            fn to_index(self) -> Option<usize> {
                usize::try_from(self).ok()
            }
        }
    )*};
}
impl_sparse_index!(i32, i64, u32, u64, usize);

/// A sparse matrix in CSR form, borrowed (the caller's arrays are not copied), with an owned
/// CSR of its transpose for `Lᵀ v`.
///
/// Both products are row-parallel gathers, so they are deterministic. Column indices within
/// a row may be unsorted or repeated (repeats add up, as in SciPy).
#[derive(Debug, Clone)]
pub struct CsrMatrix<'a, I: SparseIndex = usize> {
    indptr: &'a [I],
    indices: &'a [I],
    data: &'a [f64],
    rows: usize,
    cols: usize,
    t_ptr: Vec<usize>,
    t_idx: Vec<u32>,
    t_data: Vec<f64>,
}

/// Rows per rayon task of the sparse products.
const SPARSE_ROWS: usize = 512;

impl<'a, I: SparseIndex> CsrMatrix<'a, I> {
    /// Validates the CSR arrays of an `n_rows × n_cols` matrix and builds its transpose.
    ///
    /// # Arguments
    /// * `indptr` – row offsets, length `n_rows + 1`, non-decreasing from 0 to `nnz`.
    /// * `indices` – column index of each stored entry, in `0..n_cols`.
    /// * `data` – value of each stored entry, finite.
    ///
    /// # Returns
    /// The operator (borrowing the three arrays).
    ///
    /// # Errors
    /// [`RecoveryError::InvalidSparse`] (named `"L"`) for malformed offsets or indices,
    /// [`RecoveryError::NonFinite`] for NaN/inf data, [`RecoveryError::TooLarge`] for more
    /// than `u32::MAX` rows or columns.
    ///
    /// # Complexity
    /// O(nnz + J + N) time, O(nnz + N) memory for the transpose.
    ///
    /// # Example
    /// ```
    /// use graphsparse_recovery::{CsrMatrix, LinearOperator, Parallel};
    /// // [[0, 2], [3, 0], [0, 0]]
    /// let l = CsrMatrix::new(&[0i32, 1, 2, 2], &[1i32, 0], &[2.0, 3.0], 3, 2)?;
    /// let mut x = [0.0; 2];
    /// l.apply_adjoint_into(&[1.0, 1.0, 5.0], &mut x, Parallel::Serial)?;
    /// assert_eq!(x, [3.0, 2.0]);
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    pub fn new(
        indptr: &'a [I],
        indices: &'a [I],
        data: &'a [f64],
        n_rows: usize,
        n_cols: usize,
    ) -> Result<Self> {
        let bad = |reason: String| RecoveryError::InvalidSparse { name: "L", reason };
        for (name, n) in [("n_rows", n_rows), ("n_cols", n_cols)] {
            if n > MAX_GRAPH_SIZE {
                return Err(RecoveryError::TooLarge {
                    name,
                    value: n as u128,
                    limit: MAX_GRAPH_SIZE as u128,
                });
            }
        }
        if indptr.len() != n_rows + 1 {
            return Err(bad(format!(
                "indptr has length {}, expected n_rows + 1 = {}",
                indptr.len(),
                n_rows as u128 + 1
            )));
        }
        if indices.len() != data.len() {
            return Err(bad(format!(
                "indices has length {} but data has length {}",
                indices.len(),
                data.len()
            )));
        }
        let nnz = data.len();
        let mut prev = 0usize;
        for (i, p) in indptr.iter().enumerate() {
            let p = p
                .to_index()
                .ok_or_else(|| bad(format!("indptr[{i}] = {p:?} is negative")))?;
            if (i == 0 && p != 0) || p < prev || p > nnz {
                return Err(bad(format!(
                    "indptr must increase from 0 to nnz = {nnz}; indptr[{i}] = {p}"
                )));
            }
            prev = p;
        }
        if prev != nnz {
            return Err(bad(format!("indptr ends at {prev}, expected nnz = {nnz}")));
        }
        let mut count = try_vec("n_cols", n_cols + 1, 0usize)?;
        for (k, c) in indices.iter().enumerate() {
            match c.to_index() {
                Some(c) if c < n_cols => count[c + 1] += 1,
                _ => {
                    return Err(bad(format!(
                        "column index {c:?} at position {k} is out of range for {n_cols} columns"
                    )));
                }
            }
        }
        check_finite("L", data)?;
        for c in 0..n_cols {
            count[c + 1] += count[c];
        }
        let t_ptr = count.clone();
        let mut fill = count;
        let mut t_idx = try_vec("nnz", nnz, 0u32)?;
        let mut t_data = try_vec("nnz", nnz, 0.0)?;
        for r in 0..n_rows {
            let (a, b) = (row_start(indptr, r), row_start(indptr, r + 1));
            for k in a..b {
                let c = indices[k].to_index().expect("invariant: validated index");
                let slot = &mut fill[c];
                t_idx[*slot] = r as u32;
                t_data[*slot] = data[k];
                *slot += 1;
            }
        }
        Ok(Self {
            indptr,
            indices,
            data,
            rows: n_rows,
            cols: n_cols,
            t_ptr,
            t_idx,
            t_data,
        })
    }

    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.data.len()
    }
}

#[inline(always)]
fn row_start<I: SparseIndex>(indptr: &[I], r: usize) -> usize {
    indptr[r].to_index().expect("invariant: validated offsets")
}

impl<I: SparseIndex> LinearOperator for CsrMatrix<'_, I> {
    fn n_rows(&self) -> usize {
        self.rows
    }
    fn n_cols(&self) -> usize {
        self.cols
    }
    fn cost(&self) -> u64 {
        self.data.len() as u64
    }

    fn apply_into(&self, x: &[f64], out: &mut [f64], par: Parallel) -> Result<()> {
        check_shapes(self, x.len(), out.len(), false)?;
        let body = |(k, chunk): (usize, &mut [f64])| {
            for (i, o) in chunk.iter_mut().enumerate() {
                let r = k * SPARSE_ROWS + i;
                let (a, b) = (row_start(self.indptr, r), row_start(self.indptr, r + 1));
                let mut s = 0.0;
                for (c, v) in self.indices[a..b].iter().zip(&self.data[a..b]) {
                    s += v * x[c.to_index().expect("invariant: validated index")];
                }
                *o = s;
            }
        };
        if par.use_rayon(self.rows.div_ceil(SPARSE_ROWS), self.nnz() + self.rows) {
            out.par_chunks_mut(SPARSE_ROWS).enumerate().for_each(body);
        } else {
            out.chunks_mut(SPARSE_ROWS).enumerate().for_each(body);
        }
        Ok(())
    }

    fn apply_adjoint_into(&self, v: &[f64], out: &mut [f64], par: Parallel) -> Result<()> {
        check_shapes(self, v.len(), out.len(), true)?;
        let body = |(k, chunk): (usize, &mut [f64])| {
            for (i, o) in chunk.iter_mut().enumerate() {
                let c = k * SPARSE_ROWS + i;
                let (a, b) = (self.t_ptr[c], self.t_ptr[c + 1]);
                let mut s = 0.0;
                for (&r, &x) in self.t_idx[a..b].iter().zip(&self.t_data[a..b]) {
                    s += x * v[r as usize];
                }
                *o = s;
            }
        };
        if par.use_rayon(self.cols.div_ceil(SPARSE_ROWS), self.nnz() + self.cols) {
            out.par_chunks_mut(SPARSE_ROWS).enumerate().for_each(body);
        } else {
            out.chunks_mut(SPARSE_ROWS).enumerate().for_each(body);
        }
        Ok(())
    }
}

/// The identity on `ℝⁿ` (the exact-fit solve behind [`crate::penalty`], denoising).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity(pub usize);

impl LinearOperator for Identity {
    fn n_rows(&self) -> usize {
        self.0
    }
    fn n_cols(&self) -> usize {
        self.0
    }
    fn cost(&self) -> u64 {
        self.0 as u64
    }
    fn apply_into(&self, x: &[f64], out: &mut [f64], _par: Parallel) -> Result<()> {
        check_shapes(self, x.len(), out.len(), false)?;
        out.copy_from_slice(x);
        Ok(())
    }
    fn apply_adjoint_into(&self, v: &[f64], out: &mut [f64], _par: Parallel) -> Result<()> {
        check_shapes(self, v.len(), out.len(), true)?;
        out.copy_from_slice(v);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pseudo(n: usize, seed: u64) -> Vec<f64> {
        (0..n)
            .map(|i| {
                let z = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ seed;
                (z >> 11) as f64 / (1u64 << 53) as f64 - 0.5
            })
            .collect()
    }

    #[test]
    fn dense_and_csr_agree_with_naive_products_and_across_threads() {
        let (rows, cols) = (70, 301);
        let mut a = pseudo(rows * cols, 7);
        for (k, v) in a.iter_mut().enumerate() {
            if k % 3 != 0 {
                *v = 0.0;
            }
        }
        let dense = DenseMatrix::new(&a, rows, cols).unwrap();
        let (mut ptr, mut idx, mut val) = (vec![0i64], Vec::new(), Vec::new());
        for r in 0..rows {
            for c in 0..cols {
                if a[r * cols + c] != 0.0 {
                    idx.push(c as i64);
                    val.push(a[r * cols + c]);
                }
            }
            ptr.push(idx.len() as i64);
        }
        let csr = CsrMatrix::new(&ptr, &idx, &val, rows, cols).unwrap();
        let x = pseudo(cols, 3);
        let v = pseudo(rows, 4);
        let naive_lx: Vec<f64> = (0..rows)
            .map(|r| (0..cols).map(|c| a[r * cols + c] * x[c]).sum())
            .collect();
        let naive_ltv: Vec<f64> = (0..cols)
            .map(|c| (0..rows).map(|r| a[r * cols + c] * v[r]).sum())
            .collect();
        for op in [&dense as &dyn LinearOperator, &csr as &dyn LinearOperator] {
            for par in [Parallel::Serial, Parallel::Threshold(0)] {
                let mut lx = vec![0.0; rows];
                op.apply_into(&x, &mut lx, par).unwrap();
                let mut ltv = vec![0.0; cols];
                op.apply_adjoint_into(&v, &mut ltv, par).unwrap();
                for (p, q) in lx.iter().zip(&naive_lx) {
                    assert!((p - q).abs() < 1e-12);
                }
                for (p, q) in ltv.iter().zip(&naive_ltv) {
                    assert!((p - q).abs() < 1e-12);
                }
            }
        }
        let mut s = vec![0.0; rows];
        let mut p = vec![0.0; rows];
        dense.apply_into(&x, &mut s, Parallel::Serial).unwrap();
        dense
            .apply_into(&x, &mut p, Parallel::Threshold(0))
            .unwrap();
        assert_eq!(s, p);
        let mut s = vec![0.0; cols];
        let mut p = vec![0.0; cols];
        dense
            .apply_adjoint_into(&v, &mut s, Parallel::Serial)
            .unwrap();
        dense
            .apply_adjoint_into(&v, &mut p, Parallel::Threshold(0))
            .unwrap();
        assert_eq!(s, p);
        assert_eq!(csr.cost(), val.len() as u64);
    }

    #[test]
    fn malformed_inputs_are_errors() {
        assert!(DenseMatrix::new(&[1.0, 2.0], 1, 3).is_err());
        assert!(matches!(
            DenseMatrix::new(&[1.0, f64::NAN], 1, 2),
            Err(RecoveryError::NonFinite {
                name: "L",
                index: 1,
                ..
            })
        ));
        assert!(DenseMatrix::new(&[], usize::MAX, 2).is_err());
        let bad =
            |r: Result<CsrMatrix<'_, i32>>| matches!(r, Err(RecoveryError::InvalidSparse { .. }));
        assert!(bad(CsrMatrix::new(&[0, 1], &[5], &[1.0], 1, 2)));
        assert!(bad(CsrMatrix::new(&[0, -1], &[0], &[1.0], 1, 2)));
        assert!(bad(CsrMatrix::new(&[1, 1], &[0], &[1.0], 1, 2)));
        assert!(bad(CsrMatrix::new(&[0, 1], &[0, 1], &[1.0], 1, 2)));
        assert!(bad(CsrMatrix::new(&[0, 2, 1], &[0, 1], &[1.0, 1.0], 2, 2)));
        assert!(bad(CsrMatrix::new(&[0], &[], &[], 1, 2)));
        let l = DenseMatrix::new(&[1.0, 2.0], 1, 2).unwrap();
        let mut out = [0.0; 2];
        assert!(
            l.apply_into(&[1.0, 1.0], &mut out, Parallel::Serial)
                .is_err()
        );
    }
}
