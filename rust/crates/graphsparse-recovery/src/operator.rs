//! Linear maps `L : ℝᴺ → ℝᴶ` applied without forming anything: dense row-major, CSR (the
//! library's one [`CsrMatrix`] with its transpose), identity.
//!
//! Every implementation computes each output entry by the same serial expression whatever the
//! thread count (rows of `L x` are dot products in a fixed order; `Lᵀ v` is accumulated row by
//! row per column block, or read from a CSR of `Lᵀ`), so results are bitwise independent of
//! parallelism.

use graphsparse_base::Parallel;
use graphsparse_graph::{CsrMatrix, SparseIndex};
use rayon::prelude::*;

use crate::error::{RecoveryError, Result};
use crate::par::dot;
use crate::params::OpCounts;
use graphsparse_base::{check_finite, check_len};

/// A real matrix `L ∈ ℝ^{J×N}` seen through its two products.
///
/// Implementations must be deterministic: the same bits for every `par` and thread count.
///
/// # Example
/// ```
/// use graphsparse_recovery::{Check, DenseMatrix, LinearOperator, Parallel};
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
    /// [`RecoveryError::Input`] unless `x.len() == N` and `out.len() == J`.
    fn apply_into(&self, x: &[f64], out: &mut [f64], par: Parallel) -> Result<()>;
    /// `out = Lᵀ v`.
    ///
    /// # Errors
    /// [`RecoveryError::Input`] unless `v.len() == J` and `out.len() == N`.
    fn apply_adjoint_into(&self, v: &[f64], out: &mut [f64], par: Parallel) -> Result<()>;
    /// The entries in row-major order when the operator is a dense matrix held in memory
    /// (default: `None`). A solver may then keep a column-major copy, whose products with a
    /// vector that has exact zeros read only the columns of its nonzeros.
    fn dense_row_major(&self) -> Option<&[f64]> {
        None
    }
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
    fn dense_row_major(&self) -> Option<&[f64]> {
        (**self).dense_row_major()
    }
}

/// `out = L x`, counted in `c` (one forward product, `op.cost()` multiply-adds).
pub(crate) fn apply_counted<Op: LinearOperator + ?Sized>(
    op: &Op,
    par: Parallel,
    x: &[f64],
    out: &mut [f64],
    c: &mut OpCounts,
) -> Result<()> {
    c.forward += 1;
    c.work += op.cost();
    op.apply_into(x, out, par)
}

/// `out = Lᵀ v`, counted in `c` (one adjoint product, `op.cost()` multiply-adds).
pub(crate) fn apply_adjoint_counted<Op: LinearOperator + ?Sized>(
    op: &Op,
    par: Parallel,
    v: &[f64],
    out: &mut [f64],
    c: &mut OpCounts,
) -> Result<()> {
    c.adjoint += 1;
    c.work += op.cost();
    op.apply_adjoint_into(v, out, par)
}

fn check_shapes(op: &impl LinearOperator, x: usize, out: usize, adjoint: bool) -> Result<()> {
    let (a, b) = if adjoint {
        (op.n_rows(), op.n_cols())
    } else {
        (op.n_cols(), op.n_rows())
    };
    check_len(if adjoint { "v" } else { "x" }, x, a)?;
    Ok(check_len("out", out, b)?)
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
    /// [`RecoveryError::Input`] when `data.len() != n_rows·n_cols` or for NaN/inf (named
    /// `"L"`, flat index), [`RecoveryError::TooLarge`] when the product overflows.
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
    fn dense_row_major(&self) -> Option<&[f64]> {
        Some(self.data)
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
        // column blocks of at most 256 per task, more of them when there are many rows; one
        // block of every column when serial. Each entry is the same sum in row order whatever
        // the blocks (four rows are added per pass, in order, in a register), so the bits do
        // not depend on the blocking or the thread count.
        let task_block = (DENSE_TASK / rows.max(1)).clamp(16, 256);
        let parallel = par.use_rayon(cols.div_ceil(task_block), self.data.len());
        let block = if parallel { task_block } else { cols.max(1) };
        let body = |(k, chunk): (usize, &mut [f64])| {
            chunk.fill(0.0);
            let (c0, w) = (k * block, chunk.len());
            let row = |j: usize| &self.data[j * cols + c0..j * cols + c0 + w];
            let mut j = 0;
            while j + 4 <= rows {
                let (v0, v1, v2, v3) = (v[j], v[j + 1], v[j + 2], v[j + 3]);
                let rs = chunk
                    .iter_mut()
                    .zip(row(j))
                    .zip(row(j + 1))
                    .zip(row(j + 2))
                    .zip(row(j + 3));
                for ((((o, &a0), &a1), &a2), &a3) in rs {
                    let mut t = *o;
                    t += v0 * a0;
                    t += v1 * a1;
                    t += v2 * a2;
                    t += v3 * a3;
                    *o = t;
                }
                j += 4;
            }
            for (jj, &vj) in v.iter().enumerate().skip(j) {
                for (o, &a) in chunk.iter_mut().zip(row(jj)) {
                    *o += vj * a;
                }
            }
        };
        if parallel {
            out.par_chunks_mut(block).enumerate().for_each(body);
        } else {
            out.chunks_mut(block).enumerate().for_each(body);
        }
        Ok(())
    }
}

/// A dense `L` with an owned column-major copy, for the solvers whose iterates have exact
/// zeros (crate-private; built from [`LinearOperator::dense_row_major`]).
///
/// `L x` adds `x_c L_{:,c}` over the nonzero `x_c` in increasing `c`, four columns per pass,
/// into blocks of rows (each block on one task): every entry is the same sequential sum
/// whatever the blocking or the thread count, and skipping `x_c = 0` changes no bit (the sum
/// starts at `+0`, and adding `±0` to it leaves it as it is; `L` is finite). It reads only the
/// columns of the support, where the row-major dot products read all of `L`. `Lᵀ v` is the
/// wrapped operator's own product (which reads `L` row by row).
pub(crate) struct ColumnMajor<'a, Op: LinearOperator + ?Sized> {
    op: &'a Op,
    /// `cols[c·J + r] = L[r, c]`.
    cols: Vec<f64>,
}

/// Most entries of `L` that [`ColumnMajor`] copies (2²³ floats, 64 MiB): a larger dense `L`
/// is not doubled in memory.
pub(crate) const COLUMN_COPY_MAX: usize = 1 << 23;

impl<'a, Op: LinearOperator + ?Sized> ColumnMajor<'a, Op> {
    /// The copy, when `op` is dense with at most [`COLUMN_COPY_MAX`] entries (`None`
    /// otherwise).
    pub(crate) fn new(op: &'a Op) -> Option<Self> {
        let data = op.dense_row_major()?;
        let (rows, n) = (op.n_rows(), op.n_cols());
        if data.len() != rows * n || data.len() > COLUMN_COPY_MAX {
            return None;
        }
        let mut cols = vec![0.0; data.len()];
        for (r, row) in data.chunks_exact(n.max(1)).enumerate() {
            for (c, &a) in row.iter().enumerate() {
                cols[c * rows + r] = a;
            }
        }
        Some(Self { op, cols })
    }

    /// The copy: `columns()[c·J + r] = L[r, c]`.
    pub(crate) fn columns(&self) -> &[f64] {
        &self.cols
    }
}

impl<Op: LinearOperator + ?Sized> LinearOperator for ColumnMajor<'_, Op> {
    fn n_rows(&self) -> usize {
        self.op.n_rows()
    }
    fn n_cols(&self) -> usize {
        self.op.n_cols()
    }
    fn cost(&self) -> u64 {
        self.op.cost()
    }

    fn apply_into(&self, x: &[f64], out: &mut [f64], par: Parallel) -> Result<()> {
        check_shapes(self, x.len(), out.len(), false)?;
        let rows = self.n_rows();
        let nz: Vec<usize> = (0..x.len()).filter(|&c| x[c] != 0.0).collect();
        let task_block = (DENSE_TASK / nz.len().max(1)).clamp(16, 256);
        let parallel = par.use_rayon(rows.div_ceil(task_block), nz.len() * rows);
        let block = if parallel { task_block } else { rows.max(1) };
        let body = |(k, chunk): (usize, &mut [f64])| {
            chunk.fill(0.0);
            let (r0, w) = (k * block, chunk.len());
            let col = |c: usize| &self.cols[c * rows + r0..c * rows + r0 + w];
            let mut quads = nz.chunks_exact(4);
            for q in &mut quads {
                let (x0, x1, x2, x3) = (x[q[0]], x[q[1]], x[q[2]], x[q[3]]);
                let cs = chunk
                    .iter_mut()
                    .zip(col(q[0]))
                    .zip(col(q[1]))
                    .zip(col(q[2]))
                    .zip(col(q[3]));
                for ((((o, &a0), &a1), &a2), &a3) in cs {
                    let mut t = *o;
                    t += x0 * a0;
                    t += x1 * a1;
                    t += x2 * a2;
                    t += x3 * a3;
                    *o = t;
                }
            }
            for &c in quads.remainder() {
                let xc = x[c];
                for (o, &a) in chunk.iter_mut().zip(col(c)) {
                    *o += xc * a;
                }
            }
        };
        if parallel {
            out.par_chunks_mut(block).enumerate().for_each(body);
        } else {
            out.chunks_mut(block).enumerate().for_each(body);
        }
        Ok(())
    }

    fn apply_adjoint_into(&self, v: &[f64], out: &mut [f64], par: Parallel) -> Result<()> {
        self.op.apply_adjoint_into(v, out, par)
    }
}

/// A sparse `L` for the solvers: the library's one [`CsrMatrix`] (borrowed from the caller's
/// arrays, any of SciPy's index types) with an owned CSR of its transpose for `Lᵀ v`.
///
/// Both products are row-parallel gathers, so they are deterministic. Column indices within
/// a row may be unsorted or repeated (repeats add up, as in SciPy).
///
/// # Example
/// ```
/// use graphsparse_recovery::{Check, CsrOperator, LinearOperator, Parallel};
/// // [[0, 2], [3, 0], [0, 0]]
/// let l = CsrOperator::new(&[0i32, 1, 2, 2], &[1i32, 0], &[2.0, 3.0], 3, 2)?;
/// let mut x = [0.0; 2];
/// l.apply_adjoint_into(&[1.0, 1.0, 5.0], &mut x, Parallel::Serial)?;
/// assert_eq!(x, [3.0, 2.0]);
/// # Ok::<(), graphsparse_recovery::RecoveryError>(())
/// ```
#[derive(Debug, Clone)]
pub struct CsrOperator<'a, P: SparseIndex = usize, I: SparseIndex = P> {
    matrix: CsrMatrix<'a, P, I>,
    transpose: CsrMatrix<'static, usize, u32>,
}

/// Rows per rayon task of the sparse products.
const SPARSE_ROWS: usize = 512;

impl<'a, P: SparseIndex, I: SparseIndex> CsrOperator<'a, P, I> {
    /// Validates the CSR arrays of an `n_rows × n_cols` matrix ([`CsrMatrix::new`]) and
    /// builds its transpose.
    ///
    /// # Arguments
    /// As [`CsrMatrix::new`].
    ///
    /// # Returns
    /// The operator (borrowing the three arrays).
    ///
    /// # Errors
    /// [`RecoveryError::Graph`] with the matrix's error: malformed offsets or indices, NaN/inf
    /// data, more than `u32::MAX` rows or columns.
    ///
    /// # Complexity
    /// O(nnz + J + N) time, O(nnz + N) memory for the transpose.
    pub fn new(
        indptr: &'a [P],
        indices: &'a [I],
        data: &'a [f64],
        n_rows: usize,
        n_cols: usize,
    ) -> Result<Self> {
        Self::from_matrix(CsrMatrix::new(indptr, indices, data, n_rows, n_cols)?)
    }

    /// The operator of a validated matrix.
    ///
    /// # Errors
    /// [`RecoveryError::Graph`] when the transpose's memory cannot be reserved.
    ///
    /// # Complexity
    /// O(nnz + J + N).
    pub fn from_matrix(matrix: CsrMatrix<'a, P, I>) -> Result<Self> {
        let transpose = matrix.transpose()?;
        Ok(Self { matrix, transpose })
    }

    /// The matrix.
    pub fn matrix(&self) -> &CsrMatrix<'a, P, I> {
        &self.matrix
    }

    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.matrix.nnz()
    }
}

impl<P: SparseIndex, I: SparseIndex> LinearOperator for CsrOperator<'_, P, I> {
    fn n_rows(&self) -> usize {
        self.matrix.n_rows()
    }
    fn n_cols(&self) -> usize {
        self.matrix.n_cols()
    }
    fn cost(&self) -> u64 {
        self.nnz() as u64
    }

    fn apply_into(&self, x: &[f64], out: &mut [f64], par: Parallel) -> Result<()> {
        check_shapes(self, x.len(), out.len(), false)?;
        let (indices, data) = (self.matrix.indices(), self.matrix.data());
        let body = |(k, chunk): (usize, &mut [f64])| {
            for (i, o) in chunk.iter_mut().enumerate() {
                let range = self.matrix.row_range(k * SPARSE_ROWS + i);
                let mut s = 0.0;
                for (c, v) in indices[range.clone()].iter().zip(&data[range]) {
                    s += v * x[c.to_index().expect("invariant: validated index")];
                }
                *o = s;
            }
        };
        let rows = self.n_rows();
        if par.use_rayon(rows.div_ceil(SPARSE_ROWS), self.nnz() + rows) {
            out.par_chunks_mut(SPARSE_ROWS).enumerate().for_each(body);
        } else {
            out.chunks_mut(SPARSE_ROWS).enumerate().for_each(body);
        }
        Ok(())
    }

    fn apply_adjoint_into(&self, v: &[f64], out: &mut [f64], par: Parallel) -> Result<()> {
        check_shapes(self, v.len(), out.len(), true)?;
        let t = &self.transpose;
        let (t_ptr, t_idx, t_data) = (t.indptr(), t.indices(), t.data());
        let body = |(k, chunk): (usize, &mut [f64])| {
            for (i, o) in chunk.iter_mut().enumerate() {
                let c = k * SPARSE_ROWS + i;
                let (a, b) = (t_ptr[c], t_ptr[c + 1]);
                let mut s = 0.0;
                for (&r, &x) in t_idx[a..b].iter().zip(&t_data[a..b]) {
                    s += x * v[r as usize];
                }
                *o = s;
            }
        };
        let cols = self.n_cols();
        if par.use_rayon(cols.div_ceil(SPARSE_ROWS), self.nnz() + cols) {
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
        let mut g = graphsparse_base::SplitMix64::new(seed);
        (0..n).map(|_| g.uniform() - 0.5).collect()
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
        let csr = CsrOperator::new(&ptr, &idx, &val, rows, cols).unwrap();
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
    fn the_column_copy_skips_zeros_without_changing_a_bit() {
        let (rows, cols) = (300, 37);
        let a = pseudo(rows * cols, 11);
        let dense = DenseMatrix::new(&a, rows, cols).unwrap();
        let copy = ColumnMajor::new(&dense).expect("a dense matrix has a column copy");
        assert!(ColumnMajor::new(&Identity(3)).is_none());
        assert_eq!(
            (copy.n_rows(), copy.n_cols(), copy.cost()),
            (rows, cols, dense.cost())
        );
        let mut x = pseudo(cols, 5);
        for (c, v) in x.iter_mut().enumerate() {
            if c % 3 != 1 {
                *v = 0.0;
            }
        }
        // every entry is the sequential sum over all columns, zeros included, in column order
        let naive: Vec<f64> = (0..rows)
            .map(|r| (0..cols).fold(0.0, |t, c| t + x[c] * a[r * cols + c]))
            .collect();
        for par in [Parallel::Serial, Parallel::Threshold(0)] {
            let mut out = vec![f64::NAN; rows];
            copy.apply_into(&x, &mut out, par).unwrap();
            assert_eq!(out, naive);
            out.fill(f64::NAN);
            copy.apply_into(&vec![0.0; cols], &mut out, par).unwrap();
            assert!(out.iter().all(|&v| v == 0.0));
        }
        // the adjoint is the dense operator's own product
        let v = pseudo(rows, 6);
        let (mut p, mut q) = (vec![0.0; cols], vec![0.0; cols]);
        copy.apply_adjoint_into(&v, &mut p, Parallel::Serial)
            .unwrap();
        dense
            .apply_adjoint_into(&v, &mut q, Parallel::Serial)
            .unwrap();
        assert_eq!(p, q);
        assert!(
            copy.apply_into(&x[1..], &mut vec![0.0; rows], Parallel::Serial)
                .is_err()
        );
    }

    #[test]
    fn malformed_inputs_are_errors() {
        assert!(DenseMatrix::new(&[1.0, 2.0], 1, 3).is_err());
        assert!(matches!(
            DenseMatrix::new(&[1.0, f64::NAN], 1, 2),
            Err(RecoveryError::Input(
                graphsparse_base::InputError::NotFinite {
                    arg: "L",
                    index: 1,
                    ..
                }
            ))
        ));
        assert!(DenseMatrix::new(&[], usize::MAX, 2).is_err());
        let bad = |r: Result<CsrOperator<'_, i32>>| {
            matches!(
                r,
                Err(RecoveryError::Graph(
                    graphsparse_graph::WeightedGraphError::InvalidSparse { .. }
                ))
            )
        };
        assert!(bad(CsrOperator::new(&[0, 1], &[5], &[1.0], 1, 2)));
        assert!(bad(CsrOperator::new(&[0, -1], &[0], &[1.0], 1, 2)));
        assert!(bad(CsrOperator::new(&[1, 1], &[0], &[1.0], 1, 2)));
        assert!(bad(CsrOperator::new(&[0, 1], &[0, 1], &[1.0], 1, 2)));
        assert!(bad(CsrOperator::new(
            &[0, 2, 1],
            &[0, 1],
            &[1.0, 1.0],
            2,
            2
        )));
        assert!(bad(CsrOperator::new(&[0], &[], &[], 1, 2)));
        let l = DenseMatrix::new(&[1.0, 2.0], 1, 2).unwrap();
        let mut out = [0.0; 2];
        assert!(
            l.apply_into(&[1.0, 1.0], &mut out, Parallel::Serial)
                .is_err()
        );
    }
}
