"""Convex graph-structured sparse recovery (Kuroda & Kitahara) and its baselines.

:class:`GraphStructuredRecovery` minimises exactly the paper's model (6),

    f(X w) + lambda_ * Psi_alpha(w),   Psi_alpha(w) = min_sigma sum_n phi(w_n, sigma_n)
                                        subject to ||W D sigma||_1 <= alpha,

with ``phi(x, t) = x**2 / (2 t) + t / 2`` and, for the squared loss, ``f(u) = ½‖y − u‖²``:
**no 1/n factor**. On a graph without edges this is scikit-learn's ``Lasso`` with
``alpha_sklearn = lambda_ / n_samples``. Note the names: ``alpha`` here is the paper's budget on
the latent jumps (in units of ``|w|``, not an edge count), **not** scikit-learn's regularisation
strength, which is ``lambda_``.

============ =======================================================================
parameter    meaning
============ =======================================================================
``lambda_``  regularisation weight ``λ > 0``
``alpha``    budget ``α ≥ 0`` on ``‖W D σ‖₁`` (``0``: one group per component;
             large: the lasso); with ``penalty_form="lagrangian"`` the weight ``β``
             of ``β‖W D σ‖₁`` (a scale-free norm)
``edges``    the graph on the features, an ``(m, 2)`` integer array
``weights``  positive edge weights (default 1)
============ =======================================================================

The solver is adaptive PDHG (or the paper's Algorithm 1, ``solver="kk"``) in Rust, stopped
when a certified relative duality gap falls below ``tol``. :class:`LatentGroupLasso` and
:class:`GraphIHT` are the convex and non-convex baselines.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import numpy.typing as npt
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted

from . import _graphsparse as _rs
from ._progress import reporter
from ._threads import resolve_n_jobs
from ._validation import as_edges, as_float_array, as_int, as_real
from .exceptions import InvalidParameterError

__all__ = [
    "GraphIHT",
    "GraphStructuredRecovery",
    "LatentGroupLasso",
    "edge_groups",
    "lambda_max",
    "neighbourhood_groups",
    "penalty",
    "prox_perspective",
]

FloatArray = npt.NDArray[np.float64]


def _design(X: Any) -> tuple[Any, int, int]:
    """``X`` as a dense float64 array or a CSR triple for the binding, with its shape."""
    try:
        import scipy.sparse as sp
    except ImportError:  # pragma: no cover - scipy is a dependency
        sp = None
    if sp is not None and sp.issparse(X):
        csr = sp.csr_array(X)
        if csr.ndim != 2:
            raise InvalidParameterError(f"X must be 2-dimensional, got shape {csr.shape}")
        data = as_float_array(csr.data, "X.data")
        n_rows, n_cols = csr.shape
        return (
            (
                np.ascontiguousarray(csr.indptr, dtype=np.int64),
                np.ascontiguousarray(csr.indices, dtype=np.int64),
                data,
                (int(n_rows), int(n_cols)),
            ),
            int(n_rows),
            int(n_cols),
        )
    arr = as_float_array(X, "X", ndim=(2,))
    return arr, arr.shape[0], arr.shape[1]


def _weights(weights: Any, m: int) -> FloatArray | None:
    if weights is None:
        return None
    return as_float_array(weights, "weights", length=m)


def _time_limit(value: Any) -> float | None:
    return None if value is None else as_real(value, "time_limit")


class _Solved(BaseEstimator):
    """Shared fitting of the convex models (the binding's ``recovery_solve``)."""

    _model = "graph"

    def _params(self) -> dict[str, Any]:
        return {
            "lambda_": as_real(self.lambda_, "lambda_"),
            "alpha": as_real(getattr(self, "alpha", 0.0), "alpha"),
            "loss": "squared",
            "penalty_form": getattr(self, "penalty_form", "budget"),
            "solver": getattr(self, "solver", "pdhg"),
            "gamma": None,
            "tol": as_real(self.tol, "tol"),
            "max_iter": as_int(self.max_iter, "max_iter"),
            "check_every": 10,
            "op_norm": None,
            "step_ratio": 1.0,
            "max_nodes": None,
            "time_limit": _time_limit(self.time_limit),
        }

    def _store(self, out: dict[str, Any], n_features: int) -> None:
        self.coef_ = np.asarray(out["coef"])
        self.n_iter_ = int(out["n_iter"])
        self.converged_ = bool(out["converged"])
        self.dual_gap_ = float(out["gap"])
        self.objective_ = float(out["objective"])
        self.history_ = {
            "iteration": np.asarray(out["history_iteration"]),
            "gap": np.asarray(out["history_gap"]),
        }
        self.n_features_in_ = n_features
        if not self.converged_:
            why = out["truncated"] or f"max_iter={self.max_iter}"
            warnings.warn(
                f"{type(self).__name__} stopped at a relative duality gap of {self.dual_gap_:.2e} "
                f"> tol={self.tol} ({why}); raise max_iter or tol",
                ConvergenceWarning,
                stacklevel=3,
            )

    def _check_y(self, y: Any, n: int) -> FloatArray:
        return as_float_array(y, "y", length=n)

    def predict(self, X: Any) -> FloatArray:
        """``X @ coef_``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "coef_")
        design, _, p = _design(X)
        if p != self.n_features_in_:
            raise InvalidParameterError(
                f"X has {p} features, but the model was fitted with {self.n_features_in_}"
            )
        if isinstance(design, tuple):
            import scipy.sparse as sp

            indptr, indices, data, shape = design
            return np.asarray(sp.csr_array((data, indices, indptr), shape=shape) @ self.coef_)
        return np.asarray(design @ self.coef_)


class GraphStructuredRecovery(RegressorMixin, _Solved):
    """Kuroda & Kitahara's convex graph-structured sparse regression (squared loss).

    Minimises ``½‖y − X w‖² + lambda_ · Psi_alpha(w)`` (no 1/n factor; see the module docs).

    Parameters
    ----------
    edges : array-like of int, shape (m, 2)
        The graph on the features (self-loops and repeated edges are errors).
    alpha : float, default=1.0
        The budget ``α ≥ 0`` on the weighted total variation of the latent scales ``σ``
        (``penalty_form="budget"``), or the weight ``β ≥ 0`` (``"lagrangian"``).
    lambda_ : float, default=1.0
        The regularisation weight ``λ > 0``.
    weights : array-like of float, shape (m,), optional
        Positive edge weights (default 1).
    penalty_form : {"budget", "lagrangian"}, default="budget"
    solver : {"pdhg", "pdhg-fixed", "kk"}, default="pdhg"
        Adaptive PDHG, PDHG with fixed steps, or the paper's Algorithm 1.
    tol : float, default=1e-6
        Relative duality gap at which the solve stops (a certificate on the objective).
    max_iter : int, default=20000
    time_limit : float, optional
        Seconds; the solve stops there with ``converged_ = False``.
    n_jobs : int, optional
        Threads (``None``: all available cores). Results do not depend on it.
    verbose : bool or "bar", default=False

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        The estimate (exact zeros off its support).
    sigma_ : ndarray of shape (n_features,)
        The latent per-vertex scales ``σ``.
    n_iter_, converged_, dual_gap_, objective_ : int, bool, float, float
    history_ : dict of ndarray
        ``iteration`` and relative ``gap`` at each convergence check.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsparse.recovery import GraphStructuredRecovery
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((40, 10))
    >>> w = np.r_[np.ones(3), np.zeros(7)]
    >>> path = [(i, i + 1) for i in range(9)]
    >>> model = GraphStructuredRecovery(path, alpha=1.0, lambda_=1.0).fit(X, X @ w)
    >>> bool(model.converged_), np.flatnonzero(model.coef_).tolist()
    (True, [0, 1, 2])
    """

    def __init__(
        self,
        edges: Any = (),
        alpha: float = 1.0,
        lambda_: float = 1.0,
        weights: Any = None,
        penalty_form: str = "budget",
        solver: str = "pdhg",
        tol: float = 1e-6,
        max_iter: int = 20_000,
        time_limit: float | None = None,
        n_jobs: int | None = None,
        verbose: Any = False,
    ) -> None:
        self.edges = edges
        self.alpha = alpha
        self.lambda_ = lambda_
        self.weights = weights
        self.penalty_form = penalty_form
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter
        self.time_limit = time_limit
        self.n_jobs = n_jobs
        self.verbose = verbose

    def fit(self, X: Any, y: npt.ArrayLike) -> GraphStructuredRecovery:
        """Solve model (6) for ``X`` (dense or SciPy sparse) and ``y``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        design, n, p = _design(X)
        yy = self._check_y(y, n)
        edges = as_edges(self.edges)
        out = _rs.recovery_solve(
            "graph",
            design,
            yy,
            self._params(),
            edges=edges,
            weights=_weights(self.weights, len(edges)),
            n_threads=resolve_n_jobs(self.n_jobs),
            progress=reporter(self.verbose, "GraphStructuredRecovery", "gap"),
        )
        self.sigma_ = np.asarray(out["sigma"])
        self._store(out, p)
        return self


def edge_groups(edges: Any) -> list[list[int]]:
    """Every edge ``{u, v}`` as a group (the "graph lasso" of Jacob, Obozinski & Vert)."""
    return [sorted(e) for e in as_edges(edges).tolist()]


def neighbourhood_groups(edges: Any, n_features: int) -> list[list[int]]:
    """The closed neighbourhood ``{v} + N(v)`` of every vertex, each sorted."""
    n = as_int(n_features, "n_features")
    if n < 0:
        raise InvalidParameterError(f"n_features must be >= 0, got {n}")
    groups: list[set[int]] = [{v} for v in range(n)]
    for u, v in as_edges(edges).tolist():
        if not (0 <= u < n and 0 <= v < n):
            raise InvalidParameterError(f"edge ({u}, {v}) is out of range for {n} features")
        groups[u].add(v)
        groups[v].add(u)
    return [sorted(g) for g in groups]


class LatentGroupLasso(RegressorMixin, _Solved):
    """The latent group lasso of Jacob, Obozinski & Vert (2009), squared loss.

    Minimises ``½‖y − X w‖² + lambda_ · min {Σ_g d_g‖v_g‖₂ : Σ_g v_g = w, supp v_g ⊆ g}``
    with ``d_g = √|g|`` unless ``group_weights`` are given. ``groups=None`` uses the closed
    neighbourhoods of ``edges`` (the paper's baseline).

    Parameters
    ----------
    groups : list of list of int, optional
    edges : array-like of int, shape (m, 2), optional
        Used when ``groups`` is None.
    lambda_ : float, default=1.0
    group_weights : array-like of float, optional
    tol, max_iter, time_limit, n_jobs, verbose
        As :class:`GraphStructuredRecovery`.

    Attributes
    ----------
    coef_, n_iter_, converged_, dual_gap_, objective_, history_
        As :class:`GraphStructuredRecovery`.
    """

    _model = "latent"

    def __init__(
        self,
        groups: Any = None,
        edges: Any = (),
        lambda_: float = 1.0,
        group_weights: Any = None,
        tol: float = 1e-6,
        max_iter: int = 20_000,
        time_limit: float | None = None,
        n_jobs: int | None = None,
        verbose: Any = False,
    ) -> None:
        self.groups = groups
        self.edges = edges
        self.lambda_ = lambda_
        self.group_weights = group_weights
        self.tol = tol
        self.max_iter = max_iter
        self.time_limit = time_limit
        self.n_jobs = n_jobs
        self.verbose = verbose

    def fit(self, X: Any, y: npt.ArrayLike) -> LatentGroupLasso:
        """Solve for ``X`` (dense or SciPy sparse) and ``y``; returns ``self``."""
        design, n, p = _design(X)
        yy = self._check_y(y, n)
        groups = (
            neighbourhood_groups(self.edges, p)
            if self.groups is None
            else [[as_int(v, "groups") for v in g] for g in self.groups]
        )
        ptr = np.zeros(len(groups) + 1, dtype=np.int64)
        ptr[1:] = np.cumsum([len(g) for g in groups])
        members = np.asarray([v for g in groups for v in g], dtype=np.int64)
        w = (
            np.sqrt([float(len(g)) for g in groups])
            if self.group_weights is None
            else as_float_array(self.group_weights, "group_weights", length=len(groups))
        )
        out = _rs.recovery_solve(
            "latent",
            design,
            yy,
            self._params(),
            groups=(ptr, members, np.ascontiguousarray(w, dtype=np.float64)),
            n_threads=resolve_n_jobs(self.n_jobs),
            progress=reporter(self.verbose, "LatentGroupLasso", "gap"),
        )
        self._store(out, p)
        return self


class GraphIHT(RegressorMixin, BaseEstimator):
    """Graph-IHT / Graph-CoSaMP (Hegde, Indyk & Schmidt, ICML 2015), the non-convex baseline.

    Least squares over signals supported on at most ``n_components`` connected pieces of about
    ``sparsity`` vertices, with the weighted-graph-model head and tail projections.

    Parameters
    ----------
    edges : array-like of int, shape (m, 2)
    sparsity : int, default=10
    n_components : int, default=1
    method : {"iht", "cosamp"}, default="iht"
    max_iter : int, default=100
    tol : float, default=1e-6
        Relative change of the iterate at which the run stops.
    time_limit : float, optional
    n_jobs : int, optional

    Attributes
    ----------
    coef_, support_, n_iter_, converged_, residual_norms_
    """

    def __init__(
        self,
        edges: Any = (),
        sparsity: int = 10,
        n_components: int = 1,
        method: str = "iht",
        max_iter: int = 100,
        tol: float = 1e-6,
        time_limit: float | None = None,
        n_jobs: int | None = None,
    ) -> None:
        self.edges = edges
        self.sparsity = sparsity
        self.n_components = n_components
        self.method = method
        self.max_iter = max_iter
        self.tol = tol
        self.time_limit = time_limit
        self.n_jobs = n_jobs

    def fit(self, X: Any, y: npt.ArrayLike) -> GraphIHT:
        """Run on ``X`` (dense or SciPy sparse) and ``y``; returns ``self``."""
        design, n, p = _design(X)
        yy = as_float_array(y, "y", length=n)
        params = {
            "sparsity": as_int(self.sparsity, "sparsity"),
            "n_components": as_int(self.n_components, "n_components"),
            "method": self.method,
            "max_iter": as_int(self.max_iter, "max_iter"),
            "tol": as_real(self.tol, "tol"),
            "ratio": 0.1,
            "time_limit": _time_limit(self.time_limit),
        }
        out = _rs.recovery_graph_iht(
            design, yy, as_edges(self.edges), params, n_threads=resolve_n_jobs(self.n_jobs)
        )
        self.coef_ = np.asarray(out["coef"])
        self.support_ = np.asarray(out["support"])
        self.n_iter_ = int(out["n_iter"])
        self.converged_ = bool(out["converged"])
        self.residual_norms_ = np.asarray(out["residual_norms"])
        self.n_features_in_ = p
        return self

    predict = _Solved.predict


def lambda_max(
    X: Any, y: npt.ArrayLike, edges: Any = None, alpha: float = 1.0, weights: Any = None
) -> float:
    """The smallest ``lambda_`` with solution ``w = 0`` (squared loss).

    ``‖Xᵀy‖_∞`` for ``alpha > 0`` or without ``edges`` (the lasso); for ``alpha = 0``
    ``max_c ‖(Xᵀy)_c‖₂/√|c|`` over the connected components.
    """
    design, n, _ = _design(X)
    yy = as_float_array(y, "y", length=n)
    if edges is None:
        return float(_rs.recovery_lambda_max(design, yy, "squared", 0.0))
    e = as_edges(edges)
    return float(
        _rs.recovery_lambda_max(
            design, yy, "squared", as_real(alpha, "alpha"), e, _weights(weights, len(e))
        )
    )


def penalty(
    w: npt.ArrayLike, edges: Any, alpha: float, weights: Any = None, tol: float = 1e-9
) -> tuple[float, FloatArray]:
    """``Psi_alpha(w)`` and an optimal ``σ`` (closed forms where they exist, else a certified
    inner solve to relative gap ``tol``)."""
    ww = as_float_array(w, "w")
    e = as_edges(edges)
    value, sigma, _, _, _ = _rs.recovery_penalty(
        ww, e, as_real(alpha, "alpha"), _weights(weights, len(e)), as_real(tol, "tol")
    )
    return float(value), np.asarray(sigma)


def prox_perspective(
    x: npt.ArrayLike, sigma: npt.ArrayLike, c: float
) -> tuple[FloatArray, FloatArray]:
    """``prox_{c φ}(x, σ)`` elementwise: ``argmin c φ(a, b) + ½(a − x)² + ½(b − σ)²``."""
    xx = as_float_array(x, "x")
    ss = as_float_array(sigma, "sigma", length=len(xx))
    a, b = _rs.recovery_prox_perspective(xx, ss, as_real(c, "c"))
    return np.asarray(a), np.asarray(b)
