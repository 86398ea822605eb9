# ruff: noqa: RUF001  (mathematical notation in docstrings)
"""Online learning with graph-structured sparsity (Zhou, Chen & Ying, KDD 2019).

Every learner sees the samples once, in order: it predicts with its current model (counting
online mistakes), takes the gradient of the loss at that model and updates. The models are
scikit-learn classifiers with ±1 labels:

* :class:`GraphDA` — dual averaging with WGM head/tail projections on a graph over the features;
* :class:`DAIHT` — the same with the exact top-``s`` projection (no graph);
* :class:`StoIHT`, :class:`GraphStoIHT` — stochastic iterative hard thresholding;
* :class:`L1RDA`, :class:`AdaGradL1`, :class:`DAGL`, :class:`DASGL`, :class:`Adam` — baselines.

``fit`` makes one online pass from zero; ``partial_fit`` continues the pass. Fitted models keep
``coef_``/``intercept_`` (the last iterate ``w_T``), ``coef_avg_``/``intercept_avg_`` (the average
``w̄_T``) and ``n_mistakes_``/``n_mistakes_avg_`` (online mistakes of ``w_t`` and ``w̄_t``).

:func:`head_projection` and :func:`tail_projection` expose GraphDA's projections.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from . import _graphsparse as _rs
from .exceptions import InvalidGraphError, InvalidParameterError

__all__ = [
    "DAGL",
    "DAIHT",
    "DASGL",
    "AdaGradL1",
    "Adam",
    "GraphDA",
    "GraphStoIHT",
    "L1RDA",
    "StoIHT",
    "grid_groups",
    "head_projection",
    "tail_projection",
]

_LOSSES = ("logistic", "least_squares")
_FALLBACKS = ("lambda_high", "closest")


# -- validation -----------------------------------------------------------------------------------
def _real(name: str, value: Any, *, low: float = 0.0, strict: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidParameterError(f"{name} must be a real number, got {value!r}")
    v = float(value)
    ok = np.isfinite(v) and (v > low if strict else v >= low)
    if not ok:
        raise InvalidParameterError(
            f"{name} must be finite and {'>' if strict else '>='} {low}, got {value!r}"
        )
    return v


def _int(name: str, value: Any, *, low: int = 1, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidParameterError(f"{name} must be an integer, got {value!r}")
    v = int(value)
    if v < low or (high is not None and v > high):
        bound = f"in [{low}, {high}]" if high is not None else f">= {low}"
        raise InvalidParameterError(f"{name} must be {bound}, got {value!r}")
    return v


def _choice(name: str, value: Any, options: Sequence[str]) -> str:
    if value not in options:
        raise InvalidParameterError(f"{name} must be one of {list(options)}, got {value!r}")
    return str(value)


def _vector(name: str, value: Any) -> npt.NDArray[np.float64]:
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"{name} must be a 1-d array of real numbers") from None
    if arr.ndim != 1:
        raise InvalidParameterError(f"{name} must be 1-d, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise InvalidParameterError(f"{name} contains NaN or infinity")
    return np.ascontiguousarray(arr)


def _graph(
    edges: Any, costs: Any, n_nodes: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Validated ``(edges int64 (m, 2), costs float64 (m,))`` over ``n_nodes`` nodes."""
    try:
        e = np.asarray(edges)
    except (TypeError, ValueError):
        raise InvalidGraphError("edges must be an integer array of shape (m, 2)") from None
    if e.size == 0:
        e = e.reshape(0, 2)
    if e.ndim != 2 or e.shape[1] != 2:
        raise InvalidGraphError(f"edges must have shape (m, 2), got {e.shape}")
    if e.dtype.kind not in "iu":
        if e.dtype.kind == "f" and np.all(np.isfinite(e)) and np.all(e == np.round(e)):
            e = e.astype(np.int64)
        else:
            raise InvalidGraphError(f"edges must hold integer node ids, got dtype {e.dtype}")
    e = np.ascontiguousarray(e, dtype=np.int64)
    if e.size and (e.min() < 0 or e.max() >= n_nodes):
        bad = int(np.flatnonzero((e < 0).any(axis=1) | (e >= n_nodes).any(axis=1))[0])
        raise InvalidGraphError(
            f"edges[{bad}] = {tuple(int(v) for v in e[bad])} has an endpoint out of range "
            f"for {n_nodes} nodes (one node per feature)"
        )
    if costs is None:
        c = np.ones(len(e), dtype=np.float64)
    else:
        c = _vector("costs", costs)
        if len(c) != len(e):
            raise InvalidParameterError(f"costs has {len(c)} entries, edges has {len(e)}")
        if np.any(c < 0):
            raise InvalidParameterError(
                f"costs must be >= 0; costs[{int(np.argmax(c < 0))}] is negative"
            )
    return e, c


def _check_X(X: Any, name: str = "X") -> npt.NDArray[np.float64]:
    try:
        arr = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"{name} must be a 2-d array of real numbers") from None
    if arr.ndim != 2:
        raise InvalidParameterError(
            f"{name} must be 2-d (n_samples, n_features), got shape {arr.shape}"
        )
    if arr.shape[1] == 0:
        raise InvalidParameterError(f"{name} has no features")
    if not np.all(np.isfinite(arr)):
        raise InvalidParameterError(f"{name} contains NaN or infinity")
    return np.ascontiguousarray(arr)


def _check_y(y: Any, n: int, loss: str) -> npt.NDArray[np.float64]:
    arr = _vector("y", y)
    if len(arr) != n:
        raise InvalidParameterError(f"y has {len(arr)} entries, X has {n} rows")
    if loss == "logistic" and not np.all((arr == 1.0) | (arr == -1.0)):
        raise InvalidParameterError("y must hold labels -1 and +1 for the logistic loss")
    return arr


def _stable_sigmoid(z: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    out = np.empty_like(z)
    pos = z > 0
    out[pos] = 1.0 / (1.0 + np.exp(-z[pos]))
    out[~pos] = 1.0 - 1.0 / (1.0 + np.exp(z[~pos]))
    return out


def grid_groups(height: int, width: int, block: int = 3) -> list[list[int]]:
    """Non-overlapping ``block × block`` squares of a row-major ``height × width`` grid.

    The benchmark's DA-GL/DA-SGL groups are ``grid_groups(33, 33, 3)``: 121 groups of 9 nodes,
    block rows outermost. Edge blocks of a grid whose size is not a multiple of ``block`` are
    smaller.
    """
    height = _int("height", height)
    width = _int("width", width)
    block = _int("block", block)
    return [
        [
            r * width + c
            for r in range(br, min(br + block, height))
            for c in range(bc, min(bc + block, width))
        ]
        for br in range(0, height, block)
        for bc in range(0, width, block)
    ]


# -- projections ----------------------------------------------------------------------------------
def _project(
    w: Any,
    edges: Any,
    sparsity: int,
    costs: Any,
    ratio: float,
    num_clusters: int,
    max_iter: int,
    fallback: str,
    eps: float,
) -> tuple[npt.NDArray[np.int64], int]:
    v = _vector("w", w)
    if len(v) == 0:
        raise InvalidParameterError("w must not be empty")
    p = len(v)
    s = _int("sparsity", sparsity, high=p)
    r = _real("ratio", ratio, strict=False)
    g = _int("num_clusters", num_clusters)
    it = _int("max_iter", max_iter)
    fb = _choice("fallback", fallback, _FALLBACKS)
    tol = _real("eps", eps, strict=False)
    if not np.all(np.isfinite(v * v)):
        raise InvalidParameterError("w is too large: its squares overflow")
    e, c = _graph(edges, costs, p)
    high = min(int(s * (1.0 + r)), p)
    nodes, _edges, n_iter = _rs.graph_projection(v, e, c, s, max(high, s), g, it, fb, tol)
    return nodes, int(n_iter)


def head_projection(
    w: npt.ArrayLike,
    edges: npt.ArrayLike,
    sparsity: int | None = None,
    *,
    costs: npt.ArrayLike | None = None,
    ratio: float = 0.1,
    num_clusters: int = 1,
    max_iter: int = 20,
    fallback: str = "lambda_high",
    eps: float = 1e-10,
) -> tuple[npt.NDArray[np.int64], int]:
    """GraphDA's head projection of ``w`` onto a forest support on the graph.

    Runs graph-da's binary search over the edge-cost scale ``λ``: prizes ``w_i²``, costs
    ``λ·costs``, unrooted GW-pruned prize-collecting Steiner forests with ``num_clusters`` trees
    (merge tolerance 1e-10), aiming at a support of ``sparsity`` to ``⌊sparsity·(1+ratio)⌋``
    nodes.

    Parameters
    ----------
    w : array-like of shape (p,)
        One weight per node (features only; never an intercept).
    edges : array-like of int, shape (m, 2)
        Undirected edges over nodes ``0..p-1``.
    sparsity : int, optional
        Lower end of the target support size; default ``p // 2``, the head setting of GraphDA.
    costs : array-like of shape (m,), optional
        Non-negative edge costs; default 1.
    ratio : float, default=0.1
        Tolerance ``ω`` of the range.
    num_clusters : int, default=1
        Trees in the forest.
    max_iter : int, default=20
        PCST runs before the fallback.
    fallback : {"lambda_high", "closest"}, default="lambda_high"
        When no run lands in range: the run at the final upper ``λ`` (graph-da), or the run
        whose support size is closest to the range.
    eps : float, default=1e-10
        PCST merge tolerance (graph-da's projections use 1e-10, ``pcst_fast`` 1e-6).

    Returns
    -------
    support : ndarray of int64
        Selected nodes, ascending.
    n_iter : int
        PCST runs made by the search (the fallback run is not counted).

    Raises
    ------
    InvalidParameterError
        For NaN/inf in ``w``, a sparsity outside ``[1, p]`` and other bad parameters.
    InvalidGraphError
        For malformed edges or out-of-range endpoints.
    """
    p = len(np.atleast_1d(np.asarray(w)))
    s = max(p // 2, 1) if sparsity is None else sparsity
    return _project(w, edges, s, costs, ratio, num_clusters, max_iter, fallback, eps)


def tail_projection(
    w: npt.ArrayLike,
    edges: npt.ArrayLike,
    sparsity: int,
    *,
    costs: npt.ArrayLike | None = None,
    ratio: float = 0.1,
    num_clusters: int = 1,
    max_iter: int = 20,
    fallback: str = "lambda_high",
    eps: float = 1e-10,
) -> tuple[npt.NDArray[np.int64], int]:
    """GraphDA's tail projection of ``w``: a forest support of ``sparsity`` to
    ``⌊sparsity·(1+ratio)⌋`` nodes.

    The same binary search as :func:`head_projection` (GraphDA uses one search for both; only
    the target size differs); see there for the parameters.

    Returns
    -------
    support : ndarray of int64
        Selected nodes, ascending.
    n_iter : int
        PCST runs made by the search (the fallback run is not counted).
    """
    return _project(w, edges, sparsity, costs, ratio, num_clusters, max_iter, fallback, eps)


# -- learners -------------------------------------------------------------------------------------
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

    # the Rust parameters (validated); subclasses add theirs
    def _rust_params(self, n_features: int) -> dict[str, Any]:
        return {
            "loss": _choice("loss", self.loss, _LOSSES),
            "l2": _real("l2", self.l2, strict=False),
        }

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
        params = self._rust_params(p)
        ya = _check_y(y, n, params["loss"])
        state = _rs.online_pass(self._method, params, Xa, ya, self._state(), **self._graph_args(p))
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
    edges: Any
    costs: Any
    sparsity: int
    head_sparsity: int | None
    ratio: float
    max_iter: int
    num_clusters: int
    fallback: str

    def _graph_params(self, p: int) -> dict[str, Any]:
        hs = (
            None
            if self.head_sparsity is None
            else _int("head_sparsity", self.head_sparsity, high=p)
        )
        return {
            "sparsity": _int("sparsity", self.sparsity, high=p),
            "head_sparsity": hs,
            "ratio": _real("ratio", self.ratio, strict=False),
            "max_iter": _int("max_iter", self.max_iter),
            "num_clusters": _int("num_clusters", self.num_clusters),
            "fallback": _choice("fallback", self.fallback, _FALLBACKS),
        }

    def _graph_args(self, n_features: int) -> dict[str, Any]:
        e, c = _graph(self.edges, self.costs, n_features)
        return {"edges": e, "costs": c}


_COMMON_DOC = """
    loss : {"logistic", "least_squares"}, default="logistic"
        The per-sample loss.
    l2 : float, default=0.0
        Ridge weight ``η`` added to the gradient (never on the intercept).

    Attributes
    ----------
    coef_, intercept_ : ndarray of shape (n_features,), float
        The last iterate ``w_T``.
    coef_avg_, intercept_avg_ : ndarray of shape (n_features,), float
        The average ``w̄_T`` of the iterates.
    n_mistakes_, n_mistakes_avg_ : int
        Online mistakes of ``w_t`` and ``w̄_t`` (each prediction made before its update).
    n_samples_seen_ : int
    n_features_in_ : int
"""

_GRAPH_DOC = """
    costs : array-like of shape (m,), optional
        Non-negative edge costs; default 1.
    head_sparsity : int, optional
        Lower end of the head projection's support size; default ``n_features // 2``.
    ratio : float, default=0.1
        Tolerance ``ω``: the projections aim at ``s`` to ``⌊s(1+ω)⌋`` nodes.
    max_iter : int, default=20
        PCST runs per projection before its fallback.
    num_clusters : int, default=1
        Trees in each projected forest.
    fallback : {"lambda_high", "closest"}, default="lambda_high"
        What a projection returns when no run lands in range (see :func:`head_projection`)."""


class GraphDA(_GraphMixin, _OnlineClassifier):
    __doc__ = (
        """GraphDA: online dual averaging under a graph-structured sparsity model.

    Per sample: ``ḡ ← mean of the gradients``; ``b = P(ḡ, head(ḡ))``; ``w̃ = −√t/γ · b``;
    ``w = P(w̃, tail(w̃))`` (the intercept follows ``w̃``). Head and tail are the WGM projections
    of :func:`head_projection` on ``edges`` (one node per feature).

    Parameters
    ----------
    edges : array-like of int, shape (m, 2)
        The feature graph.
    sparsity : int
        Target support size ``s`` of the tail projection.
    gamma : float
        Learning-rate parameter ``γ > 0``."""
        + _GRAPH_DOC
        + _COMMON_DOC
        + """    grad_avg_ : ndarray of shape (n_features + 1,)
        The dual average ``ḡ`` (intercept last).
"""
    )

    _method = "graph_da"
    _state_vectors = ("grad_avg",)

    def __init__(
        self,
        edges: npt.ArrayLike,
        sparsity: int,
        gamma: float,
        loss: str = "logistic",
        *,
        costs: npt.ArrayLike | None = None,
        head_sparsity: int | None = None,
        ratio: float = 0.1,
        max_iter: int = 20,
        num_clusters: int = 1,
        fallback: str = "lambda_high",
        l2: float = 0.0,
    ) -> None:
        self.edges = edges
        self.sparsity = sparsity
        self.gamma = gamma
        self.loss = loss
        self.costs = costs
        self.head_sparsity = head_sparsity
        self.ratio = ratio
        self.max_iter = max_iter
        self.num_clusters = num_clusters
        self.fallback = fallback
        self.l2 = l2

    def _rust_params(self, n_features: int) -> dict[str, Any]:
        return {
            **super()._rust_params(n_features),
            **self._graph_params(n_features),
            "gamma": _real("gamma", self.gamma),
        }


class GraphStoIHT(_GraphMixin, _OnlineClassifier):
    __doc__ = (
        """GraphStoIHT: StoIHT whose gradient step is restricted to a head projection and whose
    iterate is a tail projection on ``edges``; the intercept stays 0.

    Parameters
    ----------
    edges : array-like of int, shape (m, 2)
        The feature graph.
    sparsity : int
        Target support size ``s`` of the tail projection.
    lr : float
        Step size; step ``t`` uses ``lr/√t``."""
        + _GRAPH_DOC
        + _COMMON_DOC
    )

    _method = "graph_sto_iht"

    def __init__(
        self,
        edges: npt.ArrayLike,
        sparsity: int,
        lr: float,
        loss: str = "logistic",
        *,
        costs: npt.ArrayLike | None = None,
        head_sparsity: int | None = None,
        ratio: float = 0.1,
        max_iter: int = 20,
        num_clusters: int = 1,
        fallback: str = "lambda_high",
        l2: float = 0.0,
    ) -> None:
        self.edges = edges
        self.sparsity = sparsity
        self.lr = lr
        self.loss = loss
        self.costs = costs
        self.head_sparsity = head_sparsity
        self.ratio = ratio
        self.max_iter = max_iter
        self.num_clusters = num_clusters
        self.fallback = fallback
        self.l2 = l2

    def _rust_params(self, n_features: int) -> dict[str, Any]:
        return {
            **super()._rust_params(n_features),
            **self._graph_params(n_features),
            "lr": _real("lr", self.lr),
        }


class DAIHT(_OnlineClassifier):
    __doc__ = (
        """DA-IHT: dual averaging with the exact top-``s`` projection (GraphDA without a graph).

    ``w = −1/γ·√t · ḡ`` on the ``sparsity`` largest ``|ḡ_i|`` (ties to the smaller index).

    Parameters
    ----------
    sparsity : int
        Number of non-zero features.
    gamma : float
        Learning-rate parameter ``γ > 0``."""
        + _COMMON_DOC
    )

    _method = "da_iht"
    _state_vectors = ("grad_avg",)

    def __init__(
        self, sparsity: int, gamma: float, loss: str = "logistic", *, l2: float = 0.0
    ) -> None:
        self.sparsity = sparsity
        self.gamma = gamma
        self.loss = loss
        self.l2 = l2

    def _rust_params(self, n_features: int) -> dict[str, Any]:
        return {
            **super()._rust_params(n_features),
            "sparsity": _int("sparsity", self.sparsity, high=n_features),
            "gamma": _real("gamma", self.gamma),
        }


class StoIHT(_OnlineClassifier):
    __doc__ = (
        """StoIHT with block size 1: ``w ← top-s(w − lr/√t · g)``; the intercept is not thresholded.

    Parameters
    ----------
    sparsity : int
        Number of non-zero features.
    lr : float
        Step size; step ``t`` uses ``lr/√t``."""
        + _COMMON_DOC
    )

    _method = "sto_iht"

    def __init__(
        self, sparsity: int, lr: float, loss: str = "logistic", *, l2: float = 0.0
    ) -> None:
        self.sparsity = sparsity
        self.lr = lr
        self.loss = loss
        self.l2 = l2

    def _rust_params(self, n_features: int) -> dict[str, Any]:
        return {
            **super()._rust_params(n_features),
            "sparsity": _int("sparsity", self.sparsity, high=n_features),
            "lr": _real("lr", self.lr),
        }


class L1RDA(_OnlineClassifier):
    __doc__ = (
        """Enhanced ℓ1 regularised dual averaging (Xiao 2010, Algorithm 2).

    ``λ_t = λ + γρ/√t``; ``w_i = −√t/γ · (ḡ_i − λ_t sgn ḡ_i)`` where ``|ḡ_i| > λ_t``, else 0.

    Parameters
    ----------
    lam : float, default=0.01
        ℓ1 weight ``λ ≥ 0``.
    gamma : float, default=1.0
        Learning-rate parameter ``γ > 0``.
    rho : float, default=0.0
        Sparsity-enhancing ``ρ ≥ 0`` (0: basic ℓ1-RDA)."""
        + _COMMON_DOC
    )

    _method = "l1_rda"
    _state_vectors = ("grad_avg",)

    def __init__(
        self,
        lam: float = 0.01,
        gamma: float = 1.0,
        rho: float = 0.0,
        loss: str = "logistic",
        *,
        l2: float = 0.0,
    ) -> None:
        self.lam = lam
        self.gamma = gamma
        self.rho = rho
        self.loss = loss
        self.l2 = l2

    def _rust_params(self, n_features: int) -> dict[str, Any]:
        return {
            **super()._rust_params(n_features),
            "lam": _real("lam", self.lam, strict=False),
            "gamma": _real("gamma", self.gamma),
            "rho": _real("rho", self.rho, strict=False),
        }


class AdaGradL1(_OnlineClassifier):
    __doc__ = (
        """AdaGrad with ℓ1 regularisation, primal-dual form (Duchi, Hazan & Singer 2011).

    ``w_i = sign(−ḡ_i)·η·t/(δ + √G_i)·max(|ḡ_i| − λ, 0)`` with ``G`` the sum of squared gradients.

    Parameters
    ----------
    lam : float, default=0.01
        ℓ1 weight ``λ ≥ 0``.
    eta : float, default=1.0
        Step size ``η > 0``.
    delta : float, default=1e-8
        ``δ > 0`` added to ``√G``."""
        + _COMMON_DOC
    )

    _method = "adagrad_l1"
    _state_vectors = ("grad_avg", "grad_sq_sum")

    def __init__(
        self,
        lam: float = 0.01,
        eta: float = 1.0,
        delta: float = 1e-8,
        loss: str = "logistic",
        *,
        l2: float = 0.0,
    ) -> None:
        self.lam = lam
        self.eta = eta
        self.delta = delta
        self.loss = loss
        self.l2 = l2

    def _rust_params(self, n_features: int) -> dict[str, Any]:
        return {
            **super()._rust_params(n_features),
            "lam": _real("lam", self.lam, strict=False),
            "eta": _real("eta", self.eta),
            "delta": _real("delta", self.delta),
        }


def _group_labels(groups: Any, p: int) -> npt.NDArray[np.int64]:
    """Group id per feature (-1: in no group, which makes it a singleton group)."""
    if groups is None:
        return np.arange(p, dtype=np.int64)
    labels = np.full(p, -1, dtype=np.int64)
    try:
        lists = [list(g) for g in groups]
    except TypeError:
        raise InvalidParameterError(
            "groups must be a sequence of sequences of feature indices"
        ) from None
    for k, g in enumerate(lists):
        if not g:
            raise InvalidParameterError(f"groups[{k}] is empty")
        for i in g:
            if isinstance(i, bool) or not isinstance(i, numbers.Integral) or not 0 <= int(i) < p:
                raise InvalidParameterError(
                    f"groups[{k}] has {i!r}, not a feature index in [0, {p - 1}]"
                )
            if labels[int(i)] >= 0:
                raise InvalidParameterError(
                    f"feature {int(i)} is in more than one group (groups[{k}])"
                )
            labels[int(i)] = k
    return labels


class DAGL(_OnlineClassifier):
    __doc__ = (
        """Online dual-averaging group lasso (Yang et al. 2010).

    ``w_G = −√t/γ · max(0, 1 − λ√|G|/‖ḡ_G‖) · ḡ_G`` for each group ``G``.

    Parameters
    ----------
    lam : float, default=0.01
        Group-lasso weight ``λ ≥ 0``.
    gamma : float, default=1.0
        Learning-rate parameter ``γ > 0``.
    groups : sequence of sequences of int, optional
        Disjoint feature groups (e.g. :func:`grid_groups`); features in no group are singleton
        groups; ``None`` makes every feature its own group."""
        + _COMMON_DOC
    )

    _method = "da_gl"
    _state_vectors = ("grad_avg",)

    def __init__(
        self,
        lam: float = 0.01,
        gamma: float = 1.0,
        groups: Sequence[Sequence[int]] | None = None,
        loss: str = "logistic",
        *,
        l2: float = 0.0,
    ) -> None:
        self.lam = lam
        self.gamma = gamma
        self.groups = groups
        self.loss = loss
        self.l2 = l2

    def _rust_params(self, n_features: int) -> dict[str, Any]:
        return {
            **super()._rust_params(n_features),
            "lam": _real("lam", self.lam, strict=False),
            "gamma": _real("gamma", self.gamma),
        }

    def _graph_args(self, n_features: int) -> dict[str, Any]:
        return {"groups": _group_labels(self.groups, n_features)}


class DASGL(DAGL):
    __doc__ = (
        """Online dual-averaging sparse group lasso (Yang et al. 2010).

    ``c = sgn(ḡ)·max(0, |ḡ| − λr)``; ``w_G = −√t/γ · max(0, 1 − λ√|G|/‖c_G‖) · c_G``.

    Parameters
    ----------
    lam : float, default=0.01
        Weight ``λ ≥ 0``.
    gamma : float, default=1.0
        Learning-rate parameter ``γ > 0``.
    groups : sequence of sequences of int, optional
        Disjoint feature groups, as for :class:`DAGL`.
    r : float, default=1.0
        Per-group ℓ1 factor ``r ≥ 0``."""
        + _COMMON_DOC
    )

    _method = "da_sgl"

    def __init__(
        self,
        lam: float = 0.01,
        gamma: float = 1.0,
        groups: Sequence[Sequence[int]] | None = None,
        r: float = 1.0,
        loss: str = "logistic",
        *,
        l2: float = 0.0,
    ) -> None:
        self.lam = lam
        self.gamma = gamma
        self.groups = groups
        self.r = r
        self.loss = loss
        self.l2 = l2

    def _rust_params(self, n_features: int) -> dict[str, Any]:
        return {**super()._rust_params(n_features), "r": _real("r", self.r, strict=False)}


class Adam(_OnlineClassifier):
    __doc__ = (
        """Online Adam (Kingma & Ba 2014) on all coefficients including the intercept (dense).

    Parameters
    ----------
    alpha : float, default=0.001
        Step size ``α > 0``.
    beta1, beta2 : float, default=0.9, 0.999
        Moment decay rates in ``[0, 1)``.
    epsilon : float, default=1e-8
        ``ε > 0``."""
        + _COMMON_DOC
    )

    _method = "adam"
    _state_vectors = ("moment1", "moment2")

    def __init__(
        self,
        alpha: float = 0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-8,
        loss: str = "logistic",
        *,
        l2: float = 0.0,
    ) -> None:
        self.alpha = alpha
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.loss = loss
        self.l2 = l2

    def _rust_params(self, n_features: int) -> dict[str, Any]:
        for name, b in (("beta1", self.beta1), ("beta2", self.beta2)):
            v = _real(name, b, strict=False)
            if v >= 1.0:
                raise InvalidParameterError(f"{name} must be in [0, 1), got {b!r}")
        return {
            **super()._rust_params(n_features),
            "alpha": _real("alpha", self.alpha),
            "beta1": float(self.beta1),
            "beta2": float(self.beta2),
            "epsilon": _real("epsilon", self.epsilon),
        }
