"""The shared estimator base of the online learners: coercion, the state round trip through
the Rust pass, and prediction. Ranges and invariants are the Rust core's to check."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from .. import _graphsparse as _rs
from .._validation import as_edges, as_float_array, as_response
from ..exceptions import InvalidParameterError


def _check_X(X: Any) -> npt.NDArray[np.float64]:
    return as_float_array(X, "X", ndim=(2,))


def _check_y(y: Any, n: int) -> npt.NDArray[np.float64]:
    as_response(y, n)
    return as_float_array(y, "y")


def _stable_sigmoid(z: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    out = np.empty_like(z)
    pos = z > 0
    out[pos] = 1.0 / (1.0 + np.exp(-z[pos]))
    out[~pos] = 1.0 - 1.0 / (1.0 + np.exp(z[~pos]))
    return out


def graph_arrays(edges: Any, costs: Any) -> dict[str, Any]:
    """``{"edges": int64 (m, 2), "costs": float64 (m,)}``; unit costs by default."""
    e = as_edges(edges)
    c = np.ones(len(e)) if costs is None else as_float_array(costs, "costs")
    return {"edges": e, "costs": c}


_FITTED = (
    "coef_",
    "intercept_",
    "coef_avg_",
    "intercept_avg_",
    "n_samples_seen_",
    "n_mistakes_",
    "n_mistakes_avg_",
    "n_features_in_",
    "classes_",
)


class _OnlineClassifier(ClassifierMixin, BaseEstimator):
    """Shared shell: validation, the state round trip and prediction."""

    _method: ClassVar[str]
    _state_vectors: ClassVar[tuple[str, ...]] = ()
    loss: str
    l2: float

    # the parameters of the Rust learner (checked there); subclasses add theirs
    def _rust_params(self, n_features: int) -> dict[str, Any]:
        return {"method": self._method, "loss": self.loss, "l2": self.l2}

    def _graph_args(self, n_features: int) -> dict[str, Any]:
        return {}

    def _fitted_attributes(self) -> list[str]:
        names = [*_FITTED, *(k + "_" for k in self._state_vectors)]
        if "moment1" in self._state_vectors:
            names += ["beta1_power_", "beta2_power_"]
        return names

    def _state(self) -> dict[str, Any] | None:
        if not hasattr(self, "coef_"):
            return None
        state: dict[str, Any] = {
            "coef": np.append(self.coef_, self.intercept_),
            "coef_avg": np.append(self.coef_avg_, self.intercept_avg_),
            "n_seen": int(self.n_samples_seen_),
            "n_mistakes": int(self.n_mistakes_),
            "n_mistakes_avg": int(self.n_mistakes_avg_),
        }
        for key in self._state_vectors:
            state[key] = np.ascontiguousarray(getattr(self, key + "_"), dtype=np.float64)
        if "moment1" in self._state_vectors:
            state["beta1_power"] = float(self.beta1_power_)
            state["beta2_power"] = float(self.beta2_power_)
        return state

    def _store(self, state: dict[str, Any], p: int) -> None:
        coef = state["coef"]
        coef_avg = state["coef_avg"]
        self.coef_ = coef[:p].copy()
        self.intercept_ = float(coef[p])
        self.coef_avg_ = coef_avg[:p].copy()
        self.intercept_avg_ = float(coef_avg[p])
        self.n_samples_seen_ = int(state["n_seen"])
        self.n_mistakes_ = int(state["n_mistakes"])
        self.n_mistakes_avg_ = int(state["n_mistakes_avg"])
        for key in self._state_vectors:
            setattr(self, key + "_", state[key])
        if "moment1" in self._state_vectors:
            self.beta1_power_ = float(state["beta1_power"])
            self.beta2_power_ = float(state["beta2_power"])
        self.n_features_in_ = p
        self.classes_ = np.array([-1, 1])

    def partial_fit(self, X: npt.ArrayLike, y: npt.ArrayLike) -> _OnlineClassifier:
        """Continue the online pass with the rows of ``X`` (one update per row, in order).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Labels -1/+1 (any finite values for ``loss="least_squares"``).

        Returns
        -------
        self
        """
        Xa = _check_X(X)
        n, p = Xa.shape
        if hasattr(self, "coef_") and p != self.n_features_in_:
            raise InvalidParameterError(
                f"X has {p} features, but {type(self).__name__} was fitted with "
                f"{self.n_features_in_}"
            )
        ya = _check_y(y, n)
        params = self._rust_params(p)
        state = _rs.online_pass(params, Xa, ya, self._state(), **self._graph_args(p))
        self._store(state, p)
        return self

    def fit(self, X: npt.ArrayLike, y: npt.ArrayLike) -> _OnlineClassifier:
        """One online pass over the rows of ``X`` starting from ``w = 0``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Labels -1/+1 (any finite values for ``loss="least_squares"``).

        Returns
        -------
        self
        """
        for attr in self._fitted_attributes():
            if hasattr(self, attr):
                delattr(self, attr)
        return self.partial_fit(X, y)

    def _scores(self, X: npt.ArrayLike, avg: bool) -> npt.NDArray[np.float64]:
        check_is_fitted(self, "coef_")
        Xa = _check_X(X)
        if Xa.shape[1] != self.n_features_in_:
            raise InvalidParameterError(
                f"X has {Xa.shape[1]} features, but {type(self).__name__} was fitted with "
                f"{self.n_features_in_}"
            )
        if avg:
            return Xa @ self.coef_avg_ + self.intercept_avg_
        return Xa @ self.coef_ + self.intercept_

    def decision_function(self, X: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """``X @ coef_ + intercept_`` (positive means class +1)."""
        return self._scores(X, avg=False)

    def predict(self, X: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """Labels ±1 of the last iterate: +1 where ``σ(decision) ≥ 0.5``."""
        return np.where(_stable_sigmoid(self._scores(X, avg=False)) >= 0.5, 1, -1)

    def predict_avg(self, X: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """Labels ±1 of the averaged model ``w̄`` (``coef_avg_``, ``intercept_avg_``)."""
        return np.where(_stable_sigmoid(self._scores(X, avg=True)) >= 0.5, 1, -1)


class _GraphMixin:
    """The feature graph and projection settings of GraphDA and GraphStoIHT."""

    edges: Any
    costs: Any
    sparsity: int
    head_sparsity: int | None
    ratio: float
    max_iter: int
    num_clusters: int
    fallback: str

    def _graph_params(self, p: int) -> dict[str, Any]:
        return {
            "sparsity": self.sparsity,
            "head_sparsity": self.head_sparsity,
            "ratio": self.ratio,
            "max_iter": self.max_iter,
            "num_clusters": self.num_clusters,
            "fallback": self.fallback,
        }

    def _graph_args(self, n_features: int) -> dict[str, Any]:
        return graph_arrays(self.edges, self.costs)
