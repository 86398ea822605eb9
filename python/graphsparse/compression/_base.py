"""What the compressors share: the compressed collection they return
(:class:`CompressionResult`) and the target sizes, input and output conversion and Rust call of
a compressor."""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sklearn.base import TransformerMixin

from .. import _graphsparse as _rs
from .._base import GraphSparseEstimator
from .._dataset import GraphDataset, as_dataset
from .._validation import as_count, as_real
from ..exceptions import InvalidParameterError


@dataclass(frozen=True)
class CompressionResult:
    """A compressed collection (see ``compress`` of the compressors).

    Attributes
    ----------
    dataset : GraphDataset
        The compressed graphs (``y`` and names carried over).
    assignment : list of ndarray
        For each graph, the new vertex of every original vertex (-1: dropped by OTC).
    eps_hat : list of ndarray or None
        OTC's ``ε̂`` for each graph (``None`` for the baselines).
    """

    dataset: GraphDataset
    assignment: list[np.ndarray]
    eps_hat: list[np.ndarray] | None = field(default=None)

    @property
    def kept(self) -> list[np.ndarray]:
        """For each graph, the original vertices that were kept (OTC) or are representatives."""
        out = []
        for a in self.assignment:
            first = np.full(int(a.max(initial=-1)) + 1, -1, dtype=np.int64)
            for v in range(len(a) - 1, -1, -1):
                if a[v] >= 0:
                    first[a[v]] = v
            out.append(first)
        return out


class _Compressor(TransformerMixin, GraphSparseEstimator):
    """Shared machinery: target sizes, input/output conversion, the Rust call."""

    _method: str = ""

    def _targets(self, data: GraphDataset) -> np.ndarray:
        k, ratio = self.k, self.ratio  # type: ignore[attr-defined]
        n = data.n_vertices
        if k is not None and ratio is not None:
            raise InvalidParameterError("k and ratio are exclusive: give one of them")
        if k is None:
            r = 0.5 if ratio is None else as_real(ratio, "ratio")
            if not 0.0 < r <= 1.0:
                raise InvalidParameterError(f"ratio must be in (0, 1], got {ratio!r}")
            return np.maximum(1, np.round(r * n)).astype(np.int64)
        if isinstance(k, numbers.Integral) and not isinstance(k, bool):
            # k >= n keeps a graph whole
            return np.full(len(data), as_count(k, "k", 1), dtype=np.int64)
        ks = np.asarray(k)
        if ks.shape != (len(data),) or not np.issubdtype(ks.dtype, np.integer):
            raise InvalidParameterError(
                f"k must be an integer or one integer per graph ({len(data)}), got {k!r}"
            )
        if ks.size:
            # a uint64 entry from 2**63 on would wrap to a negative int64
            as_count(int(ks.min()), "k", 1)
            as_count(int(ks.max()), "k", 1)
        return np.ascontiguousarray(ks, dtype=np.int64)

    def _method_params(self) -> _rs.CostArgs | _rs.CoarsenArgs:
        raise NotImplementedError

    def fit(self, X: Any, y: Any = None) -> _Compressor:
        """Check the parameters (compression itself has nothing to learn).

        Parameters
        ----------
        X : GraphDataset or sequence of networkx.Graph
            The graphs (only used to check ``k``).
        y : ignored

        Returns
        -------
        self
        """
        self._targets(as_dataset(X, "X"))
        self._method_params()
        self._n_threads()
        return self

    def compress(self, X: Any) -> CompressionResult:
        """Compress every graph of ``X``.

        Parameters
        ----------
        X : GraphDataset or sequence of networkx.Graph

        Returns
        -------
        CompressionResult
            The compressed dataset, the vertex maps and (OTC) ``ε̂``.
        """
        data = as_dataset(X, "X")
        ks = self._targets(data)
        params = self._method_params()
        # no budget here: the binding raises KeyboardInterrupt for a cancelled run (Ctrl-C)
        c = self._run_rust(_rs.ot_compress, data._db, self._method, params, ks, value_name="graphs")
        out = GraphDataset._from_db(
            c.db, data.vertex_label_values, data.edge_label_values, y=data.y, names=data.names
        )
        cuts = data.node_ptr[1:-1]
        assignment = np.split(c.assignment, cuts)
        eps = c.eps_hat
        return CompressionResult(out, assignment, np.split(eps, cuts) if eps.size else None)

    def transform(self, X: Any) -> Any:
        """The compressed graphs, in the container they came in.

        Parameters
        ----------
        X : GraphDataset or sequence of networkx.Graph

        Returns
        -------
        GraphDataset or list of networkx.Graph
        """
        out = self.compress(X).dataset
        return out if isinstance(X, GraphDataset) else out.graphs

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.requires_fit = False
        tags.input_tags.two_d_array = False
        return tags
