"""Weisfeiler–Lehman subtree features (:class:`WLSubtreeFeatures`), compiled."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import networkx as nx
import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from sklearn.base import TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .. import _graphsparse as _rs
from .._base import GraphSparseEstimator
from .._dataset import GraphDataset, as_dataset
from .._validation import as_count, as_flag, as_int, set_init_params
from ..exceptions import InvalidGraphError, InvalidParameterError

# the most bins per attribute dimension (more than any attribute has distinct values in use)
_MAX_BINS = 2**16


def _csr(n_rows: int, x: _rs.CsrMatrix) -> sp.csr_matrix:
    """The binding's CSR arrays as a SciPy matrix of ``n_rows`` rows."""
    return sp.csr_matrix((x.data, x.indices, x.indptr), shape=(n_rows, x.n_cols))


def _reiterable(X: Any, key: str | None) -> Any:
    """``X`` as a list when its graphs are read twice (labels, then attributes)."""
    if key is not None and isinstance(X, Iterator):
        return list(X)
    return X


def _attribute_rows(graphs: Any, key: str) -> npt.NDArray[np.float64]:
    """The ``key`` attribute of every vertex (in the dataset's vertex order) as an
    ``n_vertices × d`` float array; a number is a vector of length 1."""
    if isinstance(graphs, GraphDataset):
        raise InvalidParameterError(
            "vertex_attributes needs networkx graphs: a GraphDataset carries no vertex attributes"
        )
    if isinstance(graphs, nx.Graph):
        graphs = [graphs]
    rows: list[npt.NDArray[np.float64]] = []
    for gi, g in enumerate(graphs):
        for node, attrs in g.nodes(data=True):
            if key not in attrs:
                raise InvalidGraphError(f"graph {gi}: node {node!r} has no attribute {key!r}")
            value = attrs[key]
            try:
                row = np.asarray(value, dtype=np.float64).reshape(-1)
            except (TypeError, ValueError):
                raise InvalidGraphError(
                    f"graph {gi}: node {node!r}: attribute {key!r} = {value!r} is not a number "
                    "or a vector of numbers"
                ) from None
            if np.ndim(value) > 1 or not np.isfinite(row).all():
                raise InvalidGraphError(
                    f"graph {gi}: node {node!r}: attribute {key!r} must be a finite number or "
                    f"a 1-d vector of finite numbers, got {value!r}"
                )
            if rows and row.size != rows[0].size:
                raise InvalidGraphError(
                    f"graph {gi}: node {node!r}: attribute {key!r} has {row.size} entries, "
                    f"the first vertex's has {rows[0].size}"
                )
            rows.append(row)
    if not rows:
        return np.zeros((0, 0))
    return np.vstack(rows)


def _relabelled(
    data: GraphDataset, vertex_values: Sequence[Any], edge_values: Sequence[Any], node_ids: Any
) -> GraphDataset:
    """``data`` with vertex label ids ``node_ids`` of ``vertex_values`` (its edges unchanged)."""
    return GraphDataset(
        data.node_ptr,
        node_ids,
        data.edge_ptr,
        data.edges,
        data.edge_labels,
        vertex_values,
        edge_values,
        names=data.names,
    )


def _codes(values: Sequence[Any], known: Sequence[Any]) -> npt.NDArray[np.int64]:
    """For each of ``values``, its index in ``known``; a value not there gets an index from
    ``len(known)`` on (a label no fitted signature holds)."""
    index = {v: i for i, v in enumerate(known)}
    out = np.empty(len(values), dtype=np.int64)
    extra = len(known)
    for i, v in enumerate(values):
        code = index.get(v)
        if code is None:
            code, extra = extra, extra + 1
        out[i] = code
    return out


class WLSubtreeFeatures(TransformerMixin, GraphSparseEstimator):
    """Weisfeiler–Lehman subtree features (Shervashidze et al. 2011), compiled.

    Level 0 counts vertex labels; each of the ``n_iter`` refinements relabels every vertex by
    its label and the sorted labels of its neighbours, through a dictionary shared by all
    graphs. The features of a graph stack its label counts of every level, so ``X @ X.T`` is
    the WL subtree kernel — equal to GraKeL's ``WeisfeilerLehman(n_iter=h,
    base_graph_kernel=VertexHistogram)`` (unnormalised). Column ``j`` counts the vertices
    whose depth-``level`` unfolding tree is one rooted subtree: :meth:`describe` writes it
    out and :meth:`get_feature_names_out` names the columns.

    Parameters
    ----------
    n_iter : int, default 5
        Refinements ``h`` (levels ``0..h``), at most 1000.
    edge_labels : bool, default False
        Whether the refinement reads edge labels: each neighbour enters a vertex's signature
        as the pair (label of the joining edge, neighbour's label), the pairs sorted. With
        ``False`` edge labels are ignored and the features are the plain ones above.
    vertex_attributes : str or None, default None
        The name of a vertex attribute of the networkx input graphs holding a real number or a
        vector of real numbers (the same length on every vertex), to be combined with the
        vertex label: each dimension is cut into ``attribute_bins`` bins at the quantiles
        ``1/b, …, (b−1)/b`` of its values in the graphs given to ``fit`` (equal edges
        merge, so a dimension may get fewer bins), a value's bin is the number of edges at
        or below it, and the level-0 label of a vertex becomes the tuple (label, bin of
        dimension 0, bin of dimension 1, …). ``transform`` uses the fitted edges.
        ``None`` (default) reads no attribute. Needs networkx graphs as input.
    attribute_bins : int, default 4
        Bins per attribute dimension, in ``[1, 65536]`` (used with ``vertex_attributes``).
    n_jobs : int, optional
        Threads.
    verbose : bool, int or "bar", default False
        Progress on standard error (levels done) while the Rust work runs. Ctrl-C stops the
        work within milliseconds and raises ``KeyboardInterrupt`` either way.

    Attributes
    ----------
    vocabulary_ : list of tuple of ndarray
        For each level, the signatures that define its columns (``(ptr, data)``): level 0
        ``[label id]``; a later level its own label id, then the neighbours' label ids of the
        level before, sorted (with ``edge_labels``: ``edge label id, neighbour label id``
        pairs, sorted).
    n_features_out_ : int
        Number of columns.
    level_sizes_ : list of int
        Number of columns of each level (the columns are stacked level after level).
    vertex_label_values_ : tuple
        The vertex label of each level-0 label id (tuples ``(label, bin, …)`` with
        ``vertex_attributes``). ``transform`` maps its graphs' labels onto these.
    edge_label_values_ : tuple
        The edge label of each edge label id.
    attribute_edges_ : list of ndarray or None
        With ``vertex_attributes``: the bin edges of each attribute dimension.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.path_graph(3)
    >>> nx.set_node_attributes(g, {0: "a", 1: "b", 2: "a"}, "label")
    >>> nx.set_edge_attributes(g, 0, "label")
    >>> x = WLSubtreeFeatures(n_iter=1).fit_transform([g])
    >>> int((x @ x.T)[0, 0])    # level 0: 2² + 1²; level 1: 2² + 1²
    10
    >>> nx.set_edge_attributes(g, {(0, 1): "single", (1, 2): "double"}, "label")
    >>> wl = WLSubtreeFeatures(n_iter=1, edge_labels=True).fit([g])
    >>> [wl.describe(j) for j in range(wl.n_features_out_)]
    ['a', 'b', 'a(-single- b)', 'b(-double- a, -single- a)', 'a(-double- b)']
    """

    def __init__(
        self,
        n_iter: int = 5,
        *,
        edge_labels: bool = False,
        vertex_attributes: str | None = None,
        attribute_bins: int = 4,
        n_jobs: int | None = None,
        verbose: bool | int | str = False,
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

    def _checked(self) -> tuple[int, bool, str | None, int]:
        h = as_count(self.n_iter, "n_iter")
        edges = as_flag(self.edge_labels, "edge_labels")
        key = self.vertex_attributes
        if key is not None and not isinstance(key, str):
            raise InvalidParameterError(
                f"vertex_attributes must be an attribute name (str) or None, got {key!r}"
            )
        bins = as_int(self.attribute_bins, "attribute_bins")
        if not 1 <= bins <= _MAX_BINS:
            raise InvalidParameterError(
                f"attribute_bins must be an integer in [1, {_MAX_BINS}], got {bins}"
            )
        return h, edges, key, bins

    def _with_attributes(
        self, X: Any, data: GraphDataset, key: str, edges: list[npt.NDArray[np.float64]]
    ) -> GraphDataset:
        """``data`` with level-0 labels (label, bin of each attribute dimension)."""
        values = _attribute_rows(X, key)
        if values.shape[1] != len(edges):
            raise InvalidGraphError(
                f"attribute {key!r} has {values.shape[1]} entries per vertex, "
                f"{len(edges)} at fit time"
            )
        bins = np.column_stack(
            [np.searchsorted(e, values[:, d], side="right") for d, e in enumerate(edges)]
        ).reshape(len(values), len(edges))
        labels = [
            (data.vertex_label_values[lab], *map(int, b))
            for lab, b in zip(data.node_labels, bins, strict=True)
        ]
        distinct = tuple(sorted(set(labels)))
        ids = _codes(labels, distinct)
        return _relabelled(data, distinct, data.edge_label_values, ids)

    def _fit(self, X: Any) -> sp.csr_matrix:
        h, edges, key, bins = self._checked()
        X = _reiterable(X, key)
        data = as_dataset(X, "X")
        attribute_edges = None
        if key is not None:
            values = _attribute_rows(X, key)
            qs = np.arange(1, bins) / bins
            attribute_edges = [
                np.unique(np.quantile(values[:, d], qs)) if len(values) else np.zeros(0)
                for d in range(values.shape[1])
            ]
            data = self._with_attributes(X, data, key, attribute_edges)
        fit = self._run_rust(
            _rs.wl_fit_transform, data._db, h, edge_labels=edges, value_name="levels"
        )
        self.vocabulary_ = fit.vocabulary
        self.n_features_out_ = fit.features.n_cols
        self.level_sizes_ = [len(ptr) - 1 for ptr, _ in fit.vocabulary]
        self.vertex_label_values_ = data.vertex_label_values
        self.edge_label_values_ = data.edge_label_values
        self.attribute_edges_ = attribute_edges
        # what transform and describe follow, whatever set_params changes after fit
        self._fitted_options = (edges, key)
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
        # models pickled before these options read edge labels and attributes never
        edges, key = getattr(self, "_fitted_options", (False, None))
        X = _reiterable(X, key)
        data = as_dataset(X, "X")
        attribute_edges = getattr(self, "attribute_edges_", None)
        if key is not None and attribute_edges is not None:
            data = self._with_attributes(X, data, key, attribute_edges)
        known = getattr(self, "vertex_label_values_", None)  # absent in models pickled before
        if known is not None and (
            data.vertex_label_values != known
            or (edges and data.edge_label_values != self.edge_label_values_)
        ):
            # the fitted signatures hold the fit data's label ids: map these graphs' labels
            # onto them (a label unseen at fit time gets an id no signature holds)
            node_ids = _codes(data.vertex_label_values, known)[data.node_labels]
            edge_ids = _codes(data.edge_label_values, self.edge_label_values_)[data.edge_labels]
            data = GraphDataset(
                data.node_ptr,
                node_ids,
                data.edge_ptr,
                data.edges,
                edge_ids,
                [*known, *range(len(known), int(node_ids.max(initial=-1)) + 1)],
                [
                    *self.edge_label_values_,
                    *range(len(self.edge_label_values_), int(edge_ids.max(initial=-1)) + 1),
                ],
            )
        features = self._run_rust(
            _rs.wl_transform, data._db, self.vocabulary_, edge_labels=edges, value_name="levels"
        )
        return _csr(len(data), features)

    def get_feature_names_out(self, input_features: Any = None) -> npt.NDArray[np.object_]:
        """Names of the columns: ``"wl{level}_{k}"`` for the ``k``-th label of ``level``.

        Parameters
        ----------
        input_features : ignored
            Graphs have no input feature names.

        Returns
        -------
        ndarray of str (object dtype), of length ``n_features_out_``
        """
        check_is_fitted(self, "vocabulary_")
        return np.asarray(
            [
                f"wl{level}_{k}"
                for level, (ptr, _) in enumerate(self.vocabulary_)
                for k in range(len(ptr) - 1)
            ],
            dtype=object,
        )

    def describe(self, j: int) -> str:
        """The rooted subtree that column ``j`` counts, written out.

        A level-0 column is a vertex label ``a``; a level-``i`` column is the depth-``i``
        unfolding tree ``a(t1, t2, …)``: the root's label ``a`` and the depth-``(i−1)``
        subtrees of its neighbours, in the vocabulary's order (with ``edge_labels`` each
        child reads ``-e- t``, ``e`` the label of the edge to it). A leaf has no brackets.
        The text grows with the tree (up to ``degree ** level`` vertices).

        Parameters
        ----------
        j : int
            A column, in ``[0, n_features_out_)``.

        Returns
        -------
        str
        """
        check_is_fitted(self, "vocabulary_")
        j = as_int(j, "j")
        if not 0 <= j < self.n_features_out_:
            raise InvalidParameterError(f"j must be in [0, {self.n_features_out_}), got {j}")
        level = 0
        while j >= len(self.vocabulary_[level][0]) - 1:
            j -= len(self.vocabulary_[level][0]) - 1
            level += 1
        edges = getattr(self, "_fitted_options", (False, None))[0]
        values = getattr(self, "vertex_label_values_", None)
        edge_values = getattr(self, "edge_label_values_", None)
        memo: dict[tuple[int, int], str] = {}

        def root(level: int, k: int) -> str:
            while level > 0:
                ptr, data = self.vocabulary_[level]
                k, level = int(data[ptr[k]]), level - 1
            label = int(self.vocabulary_[0][1][k])
            if values is None:
                return str(label)
            value = values[label]
            if isinstance(value, tuple):  # (label, attribute bins)
                return f"{value[0]}[{','.join(map(str, value[1:]))}]"
            return str(value)

        def tree(level: int, k: int) -> str:
            if (level, k) in memo:
                return memo[(level, k)]
            text = root(level, k)
            if level > 0:
                ptr, data = self.vocabulary_[level]
                sig = [int(x) for x in data[ptr[k] + 1 : ptr[k + 1]]]
                if edges:
                    kids = [
                        f"-{edge_values[e] if edge_values is not None else e}- {tree(level - 1, c)}"
                        for e, c in zip(sig[::2], sig[1::2], strict=True)
                    ]
                else:
                    kids = [tree(level - 1, c) for c in sig]
                if kids:
                    text += f"({', '.join(kids)})"
            memo[(level, k)] = text
            return text

        return tree(level, j)

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        return tags
