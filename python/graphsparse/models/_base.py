"""What the subgraph models share: the training graphs, binary targets, the linear decision
function over pattern occurrences, and ``predict`` of a sign classifier."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from sklearn.base import ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from .._dataset import GraphDataset, as_dataset
from .._validation import encode_binary
from ..exceptions import InvalidParameterError
from ..mining._pattern import Pattern
from ..mining._search import _occurrences, _pattern_features

#: Default byte budget of the stored embeddings of a cached search (``cache_bytes``): 256 MiB.
_CACHE_BYTES = 256 * 2**20


def _dataset(X: Any) -> GraphDataset:
    ds = as_dataset(X, "X", directed_ok=True)  # the subgraph models mine and match arcs
    if len(ds) == 0:
        raise InvalidParameterError("X contains no graphs")
    return ds


def _binary_response(est: Any, y: Any, n: int) -> np.ndarray:
    est.classes_, target = encode_binary(y, n, type(est).__name__)
    return target


def _linear_decision(
    patterns: Sequence[Pattern], coef: np.ndarray, intercept: float, X: Any, n_threads: int
) -> np.ndarray:
    ds = _dataset(X)
    mu = np.full(len(ds), float(intercept))
    for ids, c in zip(_occurrences(patterns, ds, n_threads), coef, strict=True):
        mu[ids] += c
    return mu


class _SignClassifier(ClassifierMixin):
    """``predict`` of a binary model: ``classes_[1]`` where the decision function is > 0."""

    classes_: np.ndarray
    decision_function: Callable[[Any], np.ndarray]  # the model's, further along the MRO

    def predict(self, X: Any) -> np.ndarray:
        """Predicted class labels."""
        positive = self.decision_function(X) > 0  # first: it raises NotFittedError
        return self.classes_[positive.astype(np.intp)]


class _PatternFeatures:
    """``transform`` and ``get_feature_names_out``: the model's patterns as features of new
    graphs, for any scikit-learn model downstream."""

    patterns_: list[Pattern]
    _n_threads: Callable[[], int]  # GraphSparseEstimator's, further along the MRO

    def transform(self, X: Any) -> sp.csr_matrix:
        """Which of the model's patterns each graph contains.

        Parameters
        ----------
        X : GraphDataset or sequence of networkx graphs
            The graphs, labelled as the training graphs were.

        Returns
        -------
        scipy.sparse.csr_matrix of float64, shape ``(n_graphs, len(patterns_))``
            1 where graph ``i`` contains ``patterns_[j]`` (as a subgraph, labels matched),
            0 elsewhere; column ``j`` is the feature ``coef_[j]`` weighs.
        """
        check_is_fitted(self, "patterns_")
        return _pattern_features(self.patterns_, _dataset(X), self._n_threads())

    def get_feature_names_out(self, input_features: Any = None) -> npt.NDArray[np.object_]:
        """The columns of :meth:`transform`: each pattern as its DFS code text."""
        check_is_fitted(self, "patterns_")
        return np.asarray([str(p) for p in self.patterns_], dtype=object)
