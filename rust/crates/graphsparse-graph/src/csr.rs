//! The one compressed-sparse-row matrix of the library.

use std::borrow::Cow;
use std::ops::Range;

use crate::weighted_error::WeightedGraphError;

/// Largest vertex or edge count: ids are stored as `u32`.
pub const MAX_GRAPH_SIZE: usize = u32::MAX as usize;

/// A `Vec` of `n` copies of `value`, or [`WeightedGraphError::TooLarge`] instead of aborting
/// when the memory cannot be reserved.
pub(crate) fn try_filled<T: Clone>(
    what: &'static str,
    n: usize,
    value: T,
) -> Result<Vec<T>, WeightedGraphError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| WeightedGraphError::TooLarge {
            what,
            value: n,
            max: isize::MAX as usize / std::mem::size_of::<T>().max(1),
        })?;
    v.resize(n, value);
    Ok(v)
}

/// An index type of CSR arrays and edge lists: `i32` and `i64` as SciPy and NumPy store them,
/// `u32`, `u64` and `usize`.
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

/// A real sparse matrix in compressed-sparse-row form, borrowed or owned.
///
/// Row `r` holds the entries `indptr[r]..indptr[r + 1]` of `indices` (their columns) and
/// `data` (their values). `P` is the offset type and `I` the column-index type, so the arrays
/// SciPy hands over (`i32` or `i64` both) are used in place, without a copy, and the matrices
/// the library builds itself are `CsrMatrix<'static, usize, u32>` (owned, 32-bit columns).
/// Column indices within a row may be unsorted or repeated (repeats add up, as in SciPy);
/// [`CsrMatrix::has_sorted_indices`] says whether each row's columns strictly increase.
///
/// Every constructor validates: offsets that start at 0, never decrease and end at the
/// number of stored entries, columns in range, finite values, and at most `u32::MAX` rows and
/// columns (so a transpose can index rows with `u32`).
///
/// It is the matrix behind recovery's sparse design (`graphsparse_recovery::CsrOperator`
/// wraps it with its transpose), WL feature maps (`graphsparse_ot::wl_subtree_features`) and
/// [`WeightedGraph::from_adjacency`](crate::WeightedGraph::from_adjacency).
///
/// # Example
/// ```
/// use graphsparse_graph::CsrMatrix;
/// // [[0, 2], [3, 0], [0, 0]], as SciPy stores it (int32 offsets and columns)
/// let a = CsrMatrix::new(&[0i32, 1, 2, 2], &[1i32, 0], &[2.0, 3.0], 3, 2)?;
/// assert_eq!((a.n_rows(), a.n_cols(), a.nnz()), (3, 2, 2));
/// let t = a.transpose()?; // [[0, 3, 0], [2, 0, 0]], owned
/// assert_eq!((t.indptr(), t.indices(), t.data()), (&[0, 1, 2][..], &[1u32, 0][..], &[3.0, 2.0][..]));
/// assert_eq!(a.row_dot(0, 1), Some(0.0));
/// # Ok::<(), graphsparse_graph::WeightedGraphError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct CsrMatrix<'a, P: SparseIndex = usize, I: SparseIndex = u32> {
    n_rows: usize,
    n_cols: usize,
    indptr: Cow<'a, [P]>,
    indices: Cow<'a, [I]>,
    data: Cow<'a, [f64]>,
    sorted: bool,
}

impl<P: SparseIndex, I: SparseIndex> Default for CsrMatrix<'_, P, I> {
    /// The empty `0 × 0` matrix.
    fn default() -> Self {
        Self {
            n_rows: 0,
            n_cols: 0,
            indptr: Cow::Owned(Vec::new()),
            indices: Cow::Owned(Vec::new()),
            data: Cow::Owned(Vec::new()),
            sorted: true,
        }
    }
}

fn bad_sparse(reason: String) -> WeightedGraphError {
    WeightedGraphError::InvalidSparse {
        name: "matrix",
        reason,
    }
}

/// Checks the CSR arrays of an `n_rows × n_cols` matrix; returns whether every row's columns
/// strictly increase.
fn validate<P: SparseIndex, I: SparseIndex>(
    indptr: &[P],
    indices: &[I],
    data: &[f64],
    n_rows: usize,
    n_cols: usize,
) -> Result<bool, WeightedGraphError> {
    for (what, n) in [("rows", n_rows), ("columns", n_cols)] {
        if n > MAX_GRAPH_SIZE {
            return Err(WeightedGraphError::TooLarge {
                what,
                value: n,
                max: MAX_GRAPH_SIZE,
            });
        }
    }
    if indptr.len() != n_rows + 1 {
        return Err(bad_sparse(format!(
            "indptr has length {}, expected n_rows + 1 = {}",
            indptr.len(),
            n_rows as u128 + 1
        )));
    }
    if indices.len() != data.len() {
        return Err(bad_sparse(format!(
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
            .ok_or_else(|| bad_sparse(format!("indptr[{i}] = {p:?} is negative")))?;
        if (i == 0 && p != 0) || p < prev || p > nnz {
            return Err(bad_sparse(format!(
                "indptr must increase from 0 to nnz = {nnz}; indptr[{i}] = {p}"
            )));
        }
        prev = p;
    }
    if prev != nnz {
        return Err(bad_sparse(format!(
            "indptr ends at {prev}, expected nnz = {nnz}"
        )));
    }
    let mut sorted = true;
    for r in 0..n_rows {
        let (a, b) = (offset(indptr, r), offset(indptr, r + 1));
        let mut last = None;
        for (k, c) in indices[a..b].iter().enumerate() {
            match c.to_index() {
                Some(c) if c < n_cols => {
                    sorted &= last.is_none_or(|l| l < c);
                    last = Some(c);
                }
                _ => {
                    return Err(bad_sparse(format!(
                        "column index {c:?} at position {} is out of range for {n_cols} columns",
                        a + k
                    )));
                }
            }
        }
    }
    graphsparse_base::check_finite("data", data)?;
    Ok(sorted)
}

#[inline(always)]
fn offset<P: SparseIndex>(indptr: &[P], r: usize) -> usize {
    indptr[r].to_index().expect("invariant: validated offsets")
}

impl<'a, P: SparseIndex, I: SparseIndex> CsrMatrix<'a, P, I> {
    /// Validates the CSR arrays of an `n_rows × n_cols` matrix and borrows them.
    ///
    /// # Arguments
    /// * `indptr` – row offsets, length `n_rows + 1`, non-decreasing from 0 to `nnz`.
    /// * `indices` – column index of each stored entry, in `0..n_cols`.
    /// * `data` – value of each stored entry, finite.
    ///
    /// # Returns
    /// The matrix, borrowing the three arrays.
    ///
    /// # Errors
    /// [`WeightedGraphError::InvalidSparse`] for malformed offsets or indices,
    /// [`WeightedGraphError::Input`] for NaN/inf data, [`WeightedGraphError::TooLarge`] for
    /// more than `u32::MAX` rows or columns.
    ///
    /// # Complexity
    /// O(nnz + n_rows), no allocation.
    pub fn new(
        indptr: &'a [P],
        indices: &'a [I],
        data: &'a [f64],
        n_rows: usize,
        n_cols: usize,
    ) -> Result<Self, WeightedGraphError> {
        let sorted = validate(indptr, indices, data, n_rows, n_cols)?;
        Ok(Self {
            n_rows,
            n_cols,
            indptr: Cow::Borrowed(indptr),
            indices: Cow::Borrowed(indices),
            data: Cow::Borrowed(data),
            sorted,
        })
    }

    /// Validates owned CSR arrays (see [`CsrMatrix::new`]) and takes them.
    ///
    /// # Errors
    /// As [`CsrMatrix::new`].
    ///
    /// # Complexity
    /// O(nnz + n_rows).
    pub fn from_vecs(
        indptr: Vec<P>,
        indices: Vec<I>,
        data: Vec<f64>,
        n_rows: usize,
        n_cols: usize,
    ) -> Result<CsrMatrix<'static, P, I>, WeightedGraphError> {
        let sorted = validate(&indptr, &indices, &data, n_rows, n_cols)?;
        Ok(CsrMatrix {
            n_rows,
            n_cols,
            indptr: Cow::Owned(indptr),
            indices: Cow::Owned(indices),
            data: Cow::Owned(data),
            sorted,
        })
    }

    /// Number of rows.
    #[inline]
    pub fn n_rows(&self) -> usize {
        self.n_rows
    }

    /// Number of columns.
    #[inline]
    pub fn n_cols(&self) -> usize {
        self.n_cols
    }

    /// Number of stored entries.
    #[inline]
    pub fn nnz(&self) -> usize {
        self.data.len()
    }

    /// The row offsets (`n_rows + 1` entries).
    #[inline]
    pub fn indptr(&self) -> &[P] {
        &self.indptr
    }

    /// The column of each stored entry.
    #[inline]
    pub fn indices(&self) -> &[I] {
        &self.indices
    }

    /// The value of each stored entry.
    #[inline]
    pub fn data(&self) -> &[f64] {
        &self.data
    }

    /// Whether the columns of every row strictly increase (no repeats), as in a canonical
    /// SciPy matrix.
    #[inline]
    pub fn has_sorted_indices(&self) -> bool {
        self.sorted
    }

    /// The positions of row `r`'s entries in [`indices`](Self::indices) and
    /// [`data`](Self::data).
    ///
    /// # Panics
    /// When `r >= n_rows`.
    #[inline(always)]
    pub fn row_range(&self, r: usize) -> Range<usize> {
        offset(&self.indptr, r)..offset(&self.indptr, r + 1)
    }

    /// The columns and values of row `r`.
    ///
    /// # Panics
    /// When `r >= n_rows`.
    #[inline]
    pub fn row(&self, r: usize) -> (&[I], &[f64]) {
        let range = self.row_range(r);
        (&self.indices[range.clone()], &self.data[range])
    }

    /// The inner product of two rows: one entry of the Gram matrix `X Xᵀ`.
    ///
    /// # Returns
    /// `⟨row a, row b⟩`, or `None` when a row index is out of range or the rows' columns are
    /// not sorted ([`CsrMatrix::has_sorted_indices`]).
    ///
    /// # Complexity
    /// O(nnz(a) + nnz(b)) (a merge of the sorted column lists).
    pub fn row_dot(&self, a: usize, b: usize) -> Option<f64> {
        if a >= self.n_rows || b >= self.n_rows || !self.sorted {
            return None;
        }
        let ((ia, da), (ib, db)) = (self.row(a), self.row(b));
        let (mut i, mut j, mut s) = (0, 0, 0.0);
        while i < ia.len() && j < ib.len() {
            let (ca, cb) = (ia[i].to_index(), ib[j].to_index());
            match ca.cmp(&cb) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    s += da[i] * db[j];
                    i += 1;
                    j += 1;
                }
            }
        }
        Some(s)
    }

    /// The transpose, owned, with `u32` row indices; within each of its rows the columns
    /// (the rows of `self`) increase.
    ///
    /// # Errors
    /// [`WeightedGraphError::TooLarge`] when the memory cannot be reserved.
    ///
    /// # Complexity
    /// O(nnz + n_rows + n_cols) time, O(nnz + n_cols) memory.
    pub fn transpose(&self) -> Result<CsrMatrix<'static, usize, u32>, WeightedGraphError> {
        let nnz = self.nnz();
        let mut count = try_filled("columns", self.n_cols + 1, 0usize)?;
        for c in self.indices.iter() {
            count[c.to_index().expect("invariant: validated index") + 1] += 1;
        }
        for c in 0..self.n_cols {
            count[c + 1] += count[c];
        }
        let mut fill = count.clone();
        let mut t_idx = try_filled("nnz", nnz, 0u32)?;
        let mut t_data = try_filled("nnz", nnz, 0.0)?;
        for r in 0..self.n_rows {
            let range = self.row_range(r);
            for k in range {
                let c = self.indices[k]
                    .to_index()
                    .expect("invariant: validated index");
                let slot = &mut fill[c];
                t_idx[*slot] = r as u32;
                t_data[*slot] = self.data[k];
                *slot += 1;
            }
        }
        Ok(CsrMatrix {
            n_rows: self.n_cols,
            n_cols: self.n_rows,
            indptr: Cow::Owned(count),
            indices: Cow::Owned(t_idx),
            data: Cow::Owned(t_data),
            sorted: true,
        })
    }

    /// The matrix with owned arrays (a copy of borrowed ones).
    ///
    /// # Complexity
    /// O(nnz + n_rows) when borrowed, O(1) when owned.
    pub fn into_owned(self) -> CsrMatrix<'static, P, I> {
        CsrMatrix {
            n_rows: self.n_rows,
            n_cols: self.n_cols,
            indptr: Cow::Owned(self.indptr.into_owned()),
            indices: Cow::Owned(self.indices.into_owned()),
            data: Cow::Owned(self.data.into_owned()),
            sorted: self.sorted,
        }
    }

    /// The three arrays `(indptr, indices, data)`, owned.
    ///
    /// # Complexity
    /// O(1) when owned, O(nnz + n_rows) when borrowed.
    pub fn into_vecs(self) -> (Vec<P>, Vec<I>, Vec<f64>) {
        (
            self.indptr.into_owned(),
            self.indices.into_owned(),
            self.data.into_owned(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_arrays_are_named_errors() {
        let bad = |r: Result<CsrMatrix<'_, i32, i32>, WeightedGraphError>| {
            matches!(r, Err(WeightedGraphError::InvalidSparse { .. }))
        };
        assert!(bad(CsrMatrix::new(&[0, 1], &[5], &[1.0], 1, 2)));
        assert!(bad(CsrMatrix::new(&[0, -1], &[0], &[1.0], 1, 2)));
        assert!(bad(CsrMatrix::new(&[1, 1], &[0], &[1.0], 1, 2)));
        assert!(bad(CsrMatrix::new(&[0, 1], &[0, 1], &[1.0], 1, 2)));
        assert!(bad(CsrMatrix::new(&[0, 2, 1], &[0, 1], &[1.0, 1.0], 2, 2)));
        assert!(bad(CsrMatrix::new(&[0], &[], &[], 1, 2)));
        assert!(matches!(
            CsrMatrix::new(&[0usize, 1], &[0u32], &[f64::NAN], 1, 1),
            Err(WeightedGraphError::Input(_))
        ));
    }

    #[test]
    fn transpose_and_row_dot() {
        // [[1, 0, 2], [0, 5, 3]] with a repeated column in a third row
        let a = CsrMatrix::new(
            &[0usize, 2, 4, 6],
            &[0u32, 2, 1, 2, 1, 1],
            &[1.0, 2.0, 5.0, 3.0, 1.0, 1.0],
            3,
            3,
        )
        .unwrap();
        assert!(!a.has_sorted_indices());
        assert_eq!(a.row_dot(0, 1), None);
        let t = a.transpose().unwrap();
        assert_eq!(t.indptr(), &[0, 1, 4, 6]);
        assert_eq!(t.indices(), &[0, 1, 2, 2, 0, 1]);
        assert_eq!(t.data(), &[1.0, 5.0, 1.0, 1.0, 2.0, 3.0]);
        let s = CsrMatrix::from_vecs(
            vec![0usize, 2, 4],
            vec![0u32, 2, 1, 2],
            vec![1.0, 2.0, 5.0, 3.0],
            2,
            3,
        )
        .unwrap();
        assert!(s.has_sorted_indices());
        assert_eq!(s.row_dot(0, 1), Some(6.0));
        assert_eq!(s.row_dot(0, 2), None);
        assert_eq!(s.clone().into_owned(), s);
    }
}
