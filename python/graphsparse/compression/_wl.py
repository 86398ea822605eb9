"""Weisfeiler–Lehman subtree features (:class:`WLSubtreeFeatures`), compiled."""

from __future__ import annotations

from typing import Any

import scipy.sparse as sp
from sklearn.base import TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .. import _graphsparse as _rs
from .._base import GraphSparseEstimator
from .._dataset import as_dataset
from .._validation import as_count, set_init_params


def _csr(n_rows: int, x: _rs.CsrMatrix) -> sp.csr_matrix:
    """The binding's CSR arrays as a SciPy matrix of ``n_rows`` rows."""
    return sp.csr_matrix((x.data, x.indices, x.indptr), shape=(n_rows, x.n_cols))


class WLSubtreeFeatures(TransformerMixin, GraphSparseEstimator):
    """Weisfeiler–Lehman subtree features (Shervashidze et al. 2011), compiled.

    Level 0 counts vertex labels; each of the ``n_iter`` refinements relabels every vertex by
    its label and the sorted labels of its neighbours, through a dictionary shared by all
    graphs. The features of a graph stack its label counts of every level, so ``X @ X.T`` is
    the WL subtree kernel — equal to GraKeL's ``WeisfeilerLehman(n_iter=h,
    base_graph_kernel=VertexHistogram)`` (unnormalised). Edge labels are not used.

    Parameters
    ----------
    n_iter : int, default 5
        Refinements ``h`` (levels ``0..h``), at most 1000.
    n_jobs : int, optional
        Threads.
    verbose : bool, int or "bar", default False
        Progress on standard error (levels done) while the Rust work runs. Ctrl-C stops the
        work within milliseconds and raises ``KeyboardInterrupt`` either way.

    Attributes
    ----------
    vocabulary_ : list of tuple of ndarray
        For each level, the signatures that define its columns (``(ptr, data)``).
    n_features_out_ : int
        Number of columns.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.path_graph(3)
    >>> nx.set_node_attributes(g, {0: "a", 1: "b", 2: "a"}, "label")
    >>> nx.set_edge_attributes(g, 0, "label")
    >>> x = WLSubtreeFeatures(n_iter=1).fit_transform([g])
    >>> int((x @ x.T)[0, 0])    # level 0: 2² + 1²; level 1: 2² + 1²
    10
    """

    def __init__(
        self, n_iter: int = 5, *, n_jobs: int | None = None, verbose: bool | int | str = False
    ) -> None:
        set_init_params(self, locals())

    def fit(self, X: Any, y: Any = None) -> WLSubtreeFeatures:
        """Learn the label dictionaries of ``X``.

        Parameters
        ----------
        X : GraphDataset or sequence of networkx.Graph
        y : ignored

        Returns
        -------
        self
        """
        self._fit(X)
        return self

    def _fit(self, X: Any) -> sp.csr_matrix:
        data = as_dataset(X, "X")
        h = as_count(self.n_iter, "n_iter")
        fit = self._run_rust(_rs.wl_fit_transform, data._db, h, value_name="levels")
        self.vocabulary_ = fit.vocabulary
        self.n_features_out_ = fit.features.n_cols
        return _csr(len(data), fit.features)

    def fit_transform(self, X: Any, y: Any = None, **fit_params: Any) -> sp.csr_matrix:
        """Fit and return the features of ``X`` in one pass.

        Parameters
        ----------
        X : GraphDataset or sequence of networkx.Graph
        y : ignored

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_graphs, ``n_features_out_``)
        """
        return self._fit(X)

    def transform(self, X: Any) -> sp.csr_matrix:
        """Features of ``X`` in the fitted columns (signatures unseen at fit time count nowhere).

        Parameters
        ----------
        X : GraphDataset or sequence of networkx.Graph

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_graphs, ``n_features_out_``)
        """
        check_is_fitted(self, "vocabulary_")
        data = as_dataset(X, "X")
        features = self._run_rust(_rs.wl_transform, data._db, self.vocabulary_, value_name="levels")
        return _csr(len(data), features)

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        return tags
