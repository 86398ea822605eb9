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
when a certified relative duality gap falls below ``tol``. :class:`GraphStructuredClassifier`
is the same model with the logistic or hinge loss; :class:`LatentGroupLasso` and
:class:`GraphIHT` are the convex and non-convex baselines; :func:`recovery_path` solves along a
warm-started ``λ`` path.

**Intercepts.** The paper's model (6) has none: ``f(L x)`` with ``L`` the measurement matrix.
The regressors therefore default to ``fit_intercept=False``; ``fit_intercept=True`` (squared
loss only) solves the exact unpenalised-intercept problem by centring ``X`` and ``y`` (dense
``X`` only: centring a sparse ``X`` would densify it). The classifier defaults to
``fit_intercept=True`` and appends a constant column ``intercept_scaling`` as an isolated vertex
of the graph (liblinear's device): the intercept ``b`` is penalised by ``lambda_·|b|/s``, so a
large ``intercept_scaling`` leaves it nearly free.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from sklearn.base import ClassifierMixin, RegressorMixin
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from . import _graphsparse as _rs
from ._base import GraphSparseEstimator, warn_budget_stop
from ._threads import resolve_n_jobs
from ._validation import (
    as_count,
    as_edges,
    as_float_array,
    as_real,
    as_real_target,
    check_endpoints,
    encode_binary,
    set_init_params,
    sklearn_data,
)
from .exceptions import InvalidGraphError, InvalidParameterError

__all__ = [
    "GraphIHT",
    "GraphStructuredClassifier",
    "GraphStructuredRecovery",
    "LatentGroupLasso",
    "RecoveryPath",
    "edge_groups",
    "lambda_max",
    "neighbourhood_groups",
    "penalty",
    "prox_perspective",
    "recovery_path",
]

FloatArray = npt.NDArray[np.float64]

_REGRESSION_LOSSES = ("squared", "absolute")
_CLASSIFICATION_LOSSES = ("logistic", "hinge")


def _design(X: Any) -> tuple[Any, int, int]:
    """``X`` as a dense float64 array or a CSR triple for the binding, with its shape.

    Only a conversion: finiteness is checked once, by scikit-learn's ``validate_data`` for the
    estimators (:func:`_fit_data`) and by :func:`_function_design` for the functions."""
    import scipy.sparse as sp

    if sp.issparse(X):
        csr = sp.csr_array(X)
        if csr.ndim != 2:
            raise InvalidParameterError(f"X must be 2-dimensional, got shape {csr.shape}")
        if csr.dtype.kind not in "fiub":
            raise InvalidParameterError(f"X must be a real numeric matrix, got dtype {csr.dtype}")
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
    arr = np.asarray(X) if not isinstance(X, np.ndarray) else X
    if arr.dtype == object:
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError) as err:
            raise InvalidParameterError(f"X must be a real numeric array: {err}") from None
    if arr.ndim == 1:
        raise InvalidParameterError(
            f"X must be a 2-D array, got a 1-D array of shape {arr.shape}. Reshape your data "
            "either using array.reshape(-1, 1) if it has a single feature or "
            "array.reshape(1, -1) if it contains a single sample."
        )
    arr = as_float_array(arr, "X", ndim=(2,))
    return arr, arr.shape[0], arr.shape[1]


def _function_design(X: Any) -> tuple[Any, int, int]:
    """:func:`_design` for the functions, whose ``X`` no ``validate_data`` has seen: a dense
    ``X`` is checked for finite values here, naming it (the binding's own check, the backstop,
    names the operator ``L``)."""
    design, n, p = _design(X)
    if not isinstance(design, tuple) and not np.all(np.isfinite(design)):
        raise InvalidParameterError("X (the operator L) contains NaN or inf")
    return design, n, p


def _fit_data(
    est: GraphSparseEstimator, X: Any, y: Any, classifier: bool = False
) -> tuple[Any, np.ndarray, int, int]:
    """``(design, y, n, p)`` for ``fit``: scikit-learn's checks and messages (shapes, finiteness,
    column-vector ``y``, ``n_features_in_``) through :func:`sklearn_data`, then the binding's
    form of ``X``."""
    Xa, ya = sklearn_data(est, X, y, reset=True, classifier=classifier, accept_sparse="csr")
    design, n, p = _design(Xa)
    return design, np.asarray(ya), n, p


def _dense(design: Any) -> Any:
    """The binding's CSR triple back as a SciPy matrix (dense arrays unchanged)."""
    if isinstance(design, tuple):
        import scipy.sparse as sp

        indptr, indices, data, shape = design
        return sp.csr_array((data, indices, indptr), shape=shape)
    return design


def _weights(weights: Any, m: int) -> FloatArray | None:
    if weights is None:
        return None
    return as_float_array(weights, "weights", length=m)


def _time_limit(value: Any) -> float | None:
    return None if value is None else as_real(value, "time_limit")


def _groups_arg(groups: list[list[int]]) -> tuple[Any, Any]:
    ptr = np.zeros(len(groups) + 1, dtype=np.int64)
    ptr[1:] = np.cumsum([len(g) for g in groups])
    members = np.asarray([v for g in groups for v in g], dtype=np.int64)
    return ptr, members


def _check_graph_of_x(edges: Any, p: int) -> None:
    """The graph's vertices are the columns of ``X``: an edge beyond them names both."""
    check_endpoints(edges, p, f"X has {p} columns", _ONE_NODE_PER_COLUMN)


_ONE_NODE_PER_COLUMN = "the graph has one vertex per column (feature) of X"


def _restart(state: dict[str, Any]) -> dict[str, Any]:
    """A solve's final state as the warm start of a changed problem: iterates and steps kept,
    the step adaptation restarted (a decayed one freezes the steps; see the core's
    ``WarmStart::adapt``)."""
    return {**state, "adapt": 0.0}


class _LinearModel(GraphSparseEstimator):
    """What every estimator here shares: sparse input, fitted means ``coef_`` exists (the
    parameter ``lambda_`` ends in ``_`` too, which would fool scikit-learn's default test)."""

    def __sklearn_is_fitted__(self) -> bool:
        return hasattr(self, "coef_")

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _decision(self, X: Any) -> FloatArray:
        check_is_fitted(self)
        Xa = sklearn_data(self, X, reset=False, accept_sparse="csr")
        return np.asarray(Xa @ self.coef_, dtype=np.float64) + self.intercept_


class _Convex(_LinearModel):
    """Shared fitting of the convex models (the binding's ``recovery_solve``)."""

    def _solver_params(self, loss: str, lam: Any = None) -> dict[str, Any]:
        return {
            "lambda_": as_real(self.lambda_ if lam is None else lam, "lambda_"),
            "alpha": as_real(getattr(self, "alpha", 0.0), "alpha"),
            "loss": loss,
            "penalty_form": getattr(self, "penalty_form", "budget"),
            "solver": getattr(self, "solver", "pdhg"),
            "gamma": None,
            "tol": as_real(self.tol, "tol"),
            "max_iter": as_count(self.max_iter, "max_iter"),
            "check_every": 10,
            "op_norm": None,
            "diff_norm": None,
            "step_ratio": 1.0,
            "max_nodes": None,
            "time_limit": _time_limit(self.time_limit),
        }

    def _warm(self, key: tuple[Any, ...]) -> dict[str, Any] | None:
        """The previous solution's state when ``warm_start`` and the problem shape agree."""
        if not getattr(self, "warm_start", False):
            return None
        state = getattr(self, "_warm_state", None)
        return _restart(state[1]) if state is not None and state[0] == key else None

    def _solve(
        self, kind: str, design: Any, y: FloatArray, loss: str, key: tuple[Any, ...], **model: Any
    ) -> dict[str, Any]:
        """One ``recovery_solve`` of model ``kind`` (``model``: its graph or groups), warm-started
        from the previous fit when ``warm_start`` and the problem ``key`` agree, with progress
        for ``verbose``; the outcome is kept by :meth:`_store`."""
        warm = self._warm(key)
        out = self._run_rust(
            _rs.recovery_solve,
            kind,
            design,
            y,
            self._solver_params(loss),
            **model,
            warm=warm,
            value_name="gap",
        )
        self._store(out, key)
        return out

    def _store(self, out: dict[str, Any], key: tuple[Any, ...]) -> None:
        self._warm_state = (key, out["state"])
        self.objective_ = float(out["objective"])
        self.history_ = {
            "iteration": np.asarray(out["history_iteration"]),
            "gap": np.asarray(out["history_gap"]),
            "objective": np.asarray(out["history_primal"]),
            "primal_residual": np.asarray(out["history_primal_residual"]),
            "dual_residual": np.asarray(out["history_dual_residual"]),
        }
        self._set_outcome(
            n_iter=out["n_iter"],
            converged=out["converged"],
            truncation=out["truncated"],
            dual_gap=out["gap"],
            detail=f"the estimate is the last iterate, at a relative duality gap of "
            f"{float(out['gap']):.2e} (tol={self.tol})",
        )


class _GraphModel(_Convex):
    """Fitting of model (6) on the graph ``edges``; ``extra`` isolated vertices are appended."""

    def _fit_graph(
        self, design: Any, y: FloatArray, loss: str, n: int, p: int, intercept_col: float | None
    ) -> dict[str, Any]:
        edges = as_edges(self.edges)
        # before the intercept column becomes vertex p, which an edge must not reach
        _check_graph_of_x(edges, p)
        weights = _weights(self.weights, len(edges))
        if intercept_col is not None:
            col = np.full((n, 1), intercept_col)
            if isinstance(design, tuple):
                import scipy.sparse as sp

                design, _, _ = _design(sp.hstack([_dense(design), col], format="csr"))
            else:
                design = np.hstack([design, col])
        key = ("graph", n, p, intercept_col is not None)
        out = self._solve("graph", design, y, loss, key, edges=edges, weights=weights)
        # the features' coefficients and scales (an intercept column's come last)
        self.coef_ = np.asarray(out["coef"])[:p]
        self.sigma_ = np.asarray(out["sigma"])[:p]
        return out


class GraphStructuredRecovery(RegressorMixin, _GraphModel):
    """Kuroda & Kitahara's convex graph-structured sparse regression.

    Minimises ``f(X w) + lambda_ · Psi_alpha(w)`` with ``f(u) = ½‖y − u‖²`` (``loss="squared"``,
    no 1/n factor; see the module docs) or ``‖y − u‖₁`` (``loss="absolute"``).

    Parameters
    ----------
    edges : array-like of int, shape (m, 2)
        The graph on the features (self-loops and repeated edges are errors). Empty: the lasso.
    alpha : float, default=1.0
        The budget ``α ≥ 0`` on the weighted total variation of the latent scales ``σ``
        (``penalty_form="budget"``), or the weight ``β ≥ 0`` (``"lagrangian"``).
    lambda_ : float, default=1.0
        The regularisation weight ``λ > 0``.
    loss : {"squared", "absolute"}, default="squared"
    weights : array-like of float, shape (m,), optional
        Positive edge weights (default 1).
    fit_intercept : bool, default=False
        The paper's model has no intercept. ``True`` (squared loss, dense ``X``) fits an
        unpenalised one by centring.
    penalty_form : {"budget", "lagrangian"}, default="budget"
    solver : {"pdhg", "pdhg-fixed", "kk"}, default="pdhg"
        Adaptive PDHG, PDHG with fixed steps, or the paper's Algorithm 1.
    tol : float, default=1e-6
        Relative duality gap at which the solve stops (a certificate on the objective).
    max_iter : int, default=20000
        Most iterations; a solve they stop warns with a
        :class:`~graphsparse.exceptions.TruncatedSearchWarning` (a
        :class:`~sklearn.exceptions.ConvergenceWarning`).
    warm_start : bool, default=False
        Start from the previous fit's primal and dual iterates (same shapes) — the way to
        walk a ``λ`` or ``α`` grid cheaply; see also :func:`recovery_path`.
    time_limit : float, optional
        Seconds; the solve stops there with ``converged_ = False`` and the same warning.
    n_jobs : int, optional
        Threads (``None``: all available cores). Results do not depend on it.
    verbose : bool or "bar", default=False

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        The estimate (exact zeros off its support).
    intercept_ : float
        ``0.0`` unless ``fit_intercept``.
    sigma_ : ndarray of shape (n_features,)
        The latent per-vertex scales ``σ``.
    n_iter_, converged_, dual_gap_, objective_ : int, bool, float, float
        ``dual_gap_`` is the relative duality gap of the estimate (the certificate ``tol``
        bounds).
    truncated_ : bool
        Whether a budget stopped the solve.
    truncation_ : str or None
        Which budget: ``"max_iter"`` or ``"time_limit"``; ``None`` when none did.
    history_ : dict of ndarray
        ``iteration``, relative ``gap``, ``objective``, ``primal_residual`` and
        ``dual_residual`` at each convergence check.

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
        loss: str = "squared",
        weights: Any = None,
        fit_intercept: bool = False,
        penalty_form: str = "budget",
        solver: str = "pdhg",
        tol: float = 1e-6,
        max_iter: int = 20_000,
        warm_start: bool = False,
        time_limit: float | None = None,
        n_jobs: int | None = None,
        verbose: Any = False,
    ) -> None:
        set_init_params(self, locals())

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
        if self.loss not in _REGRESSION_LOSSES:
            raise InvalidParameterError(
                f"loss must be 'squared' or 'absolute' for a regressor, got {self.loss!r} "
                "(use GraphStructuredClassifier for 'logistic' and 'hinge')"
            )
        design, ya, n, p = _fit_data(self, X, y)
        yy = as_real_target(ya, n, type(self).__name__)
        design, yy, x_mean, y_mean = _centre(design, yy, self.fit_intercept, self.loss)
        self._fit_graph(design, yy, self.loss, n, p, None)
        self.intercept_ = float(y_mean - x_mean @ self.coef_) if x_mean is not None else 0.0
        return self

    def predict(self, X: Any) -> FloatArray:
        """``X @ coef_ + intercept_``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._decision(X)


def _centre(
    design: Any, y: FloatArray, fit_intercept: Any, loss: str
) -> tuple[Any, FloatArray, FloatArray | None, float]:
    """Centred ``X`` and ``y`` (the exact unpenalised intercept of the squared loss)."""
    if not isinstance(fit_intercept, bool | np.bool_):
        raise InvalidParameterError(f"fit_intercept must be a bool, got {fit_intercept!r}")
    if not fit_intercept:
        return design, y, None, 0.0
    if loss != "squared":
        raise InvalidParameterError(
            f"fit_intercept=True needs loss='squared' (centring is exact only there), got {loss!r}"
        )
    if isinstance(design, tuple):
        raise InvalidParameterError(
            "fit_intercept=True needs a dense X (centring a sparse X densifies it); "
            "centre y yourself and pass fit_intercept=False"
        )
    x_mean = design.mean(axis=0)
    y_mean = float(y.mean())
    return np.ascontiguousarray(design - x_mean), y - y_mean, x_mean, y_mean


class GraphStructuredClassifier(ClassifierMixin, _GraphModel):
    """Kuroda & Kitahara's model (6) with a classification loss (two classes).

    Minimises ``Σ_j l(t_j, x_jᵀw + b) + lambda_ · Psi_alpha(w)`` with ``t_j = ±1``
    (``classes_[1]`` is ``+1``) and ``l(t, u) = log(1 + e^{−t u})`` (``loss="logistic"``) or
    ``max(1 − t u, 0)`` (``"hinge"``); no 1/n factor. Any two labels work; one or more than two
    classes raise :class:`~graphsparse.exceptions.InvalidParameterError`.

    Parameters
    ----------
    edges, alpha, lambda_, weights, penalty_form, solver, tol, max_iter
        As :class:`GraphStructuredRecovery`.
    warm_start, time_limit, n_jobs, verbose
        As :class:`GraphStructuredRecovery`.
    loss : {"logistic", "hinge"}, default="logistic"
    fit_intercept : bool, default=True
        Append the constant column ``intercept_scaling`` as an isolated vertex (its
        coefficient is penalised by ``lambda_·|b|/intercept_scaling``).
    intercept_scaling : float, default=1.0

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    coef_ : ndarray of shape (n_features,)
    intercept_ : float
    sigma_, n_iter_, converged_, dual_gap_, objective_, history_, truncated_, truncation_
        As :class:`GraphStructuredRecovery`.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsparse.recovery import GraphStructuredClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((80, 8))
    >>> labels = np.where(X[:, 0] + X[:, 1] > 0, "yes", "no")
    >>> path = [(i, i + 1) for i in range(7)]
    >>> clf = GraphStructuredClassifier(path, alpha=0.5, lambda_=2.0).fit(X, labels)
    >>> clf.classes_.tolist(), bool(clf.score(X, labels) > 0.9)
    (['no', 'yes'], True)
    """

    def __init__(
        self,
        edges: Any = (),
        alpha: float = 1.0,
        lambda_: float = 1.0,
        loss: str = "logistic",
        weights: Any = None,
        fit_intercept: bool = True,
        intercept_scaling: float = 1.0,
        penalty_form: str = "budget",
        solver: str = "pdhg",
        tol: float = 1e-6,
        max_iter: int = 20_000,
        warm_start: bool = False,
        time_limit: float | None = None,
        n_jobs: int | None = None,
        verbose: Any = False,
    ) -> None:
        set_init_params(self, locals())

    def fit(self, X: Any, y: npt.ArrayLike) -> GraphStructuredClassifier:
        """Solve the classification model for ``X`` (dense or SciPy sparse) and labels ``y``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Exactly two distinct labels.

        Returns
        -------
        self
        """
        if self.loss not in _CLASSIFICATION_LOSSES:
            raise InvalidParameterError(
                f"loss must be 'logistic' or 'hinge' for a classifier, got {self.loss!r}"
            )
        if not isinstance(self.fit_intercept, bool | np.bool_):
            raise InvalidParameterError(f"fit_intercept must be a bool, got {self.fit_intercept!r}")
        design, labels, n, p = _fit_data(self, X, y, classifier=True)
        self.classes_, target = encode_binary(labels, n, type(self).__name__)
        t = np.ascontiguousarray(2.0 * target - 1.0)
        scale = None
        if self.fit_intercept:
            scale = as_real(self.intercept_scaling, "intercept_scaling")
            if not (np.isfinite(scale) and scale > 0):
                raise InvalidParameterError(
                    f"intercept_scaling must be finite and > 0, got {self.intercept_scaling!r}"
                )
        out = self._fit_graph(design, t, self.loss, n, p, scale)
        self.intercept_ = float(out["coef"][p] * scale) if scale is not None else 0.0
        return self

    def decision_function(self, X: Any) -> FloatArray:
        """``X @ coef_ + intercept_``: positive for ``classes_[1]``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._decision(X)

    def predict(self, X: Any) -> np.ndarray:
        """The class of each row of ``X`` (``classes_[1]`` where the decision is positive)."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(np.intp)]

    def _has_proba(self) -> bool:
        return self.loss == "logistic"

    @available_if(_has_proba)
    def predict_proba(self, X: Any) -> FloatArray:
        """Class probabilities of the logistic model, shape ``(n_samples, 2)`` in the order of
        ``classes_`` (only for ``loss="logistic"``; the hinge loss has no probability model)."""
        p1 = 0.5 * (1.0 + np.tanh(0.5 * self.decision_function(X)))
        return np.column_stack([1.0 - p1, p1])

    @available_if(_has_proba)
    def predict_log_proba(self, X: Any) -> FloatArray:
        """``log`` of :meth:`predict_proba`, computed stably."""
        d = self.decision_function(X)
        return np.column_stack([-np.logaddexp(0.0, d), -np.logaddexp(0.0, -d)])

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        if tags.classifier_tags is not None:
            tags.classifier_tags.multi_class = False
        return tags


def edge_groups(edges: Any) -> list[list[int]]:
    """Every edge ``{u, v}`` as a group (the "graph lasso" of Jacob, Obozinski & Vert)."""
    return [sorted(e) for e in as_edges(edges).tolist()]


def neighbourhood_groups(edges: Any, n_features: int) -> list[list[int]]:
    """The closed neighbourhood ``{v} + N(v)`` of every vertex, each sorted."""
    n = as_count(n_features, "n_features")
    e = as_edges(edges)
    check_endpoints(e, n, f"n_features is {n}", "edges hold feature ids in [0, n_features)")
    groups: list[set[int]] = [{v} for v in range(n)]
    for u, v in e.tolist():
        if u < 0 or v < 0:
            raise InvalidGraphError(f"edge ({u}, {v}) has a negative endpoint (not a feature id)")
        groups[u].add(v)
        groups[v].add(u)
    return [sorted(g) for g in groups]


class LatentGroupLasso(RegressorMixin, _Convex):
    """The latent group lasso of Jacob, Obozinski & Vert (2009).

    Minimises ``f(X w) + lambda_ · min {Σ_g d_g‖v_g‖₂ : Σ_g v_g = w, supp v_g ⊆ g}``
    with ``d_g = √|g|`` unless ``group_weights`` are given, and ``f`` as in
    :class:`GraphStructuredRecovery`. ``groups=None`` uses the closed neighbourhoods of
    ``edges`` (the paper's baseline); a feature in no group is fixed at 0.

    Parameters
    ----------
    groups : list of list of int, optional
    edges : array-like of int, shape (m, 2), optional
        Used when ``groups`` is None.
    lambda_ : float, default=1.0
    loss : {"squared", "absolute"}, default="squared"
    group_weights : array-like of float, optional
    tol, max_iter, warm_start, time_limit, n_jobs, verbose
        As :class:`GraphStructuredRecovery`.

    Attributes
    ----------
    coef_, intercept_, n_iter_, converged_, dual_gap_, objective_, history_
        As :class:`GraphStructuredRecovery` (``intercept_`` is always 0).
    truncated_, truncation_
        As :class:`GraphStructuredRecovery`.
    """

    def __init__(
        self,
        groups: Any = None,
        edges: Any = (),
        lambda_: float = 1.0,
        loss: str = "squared",
        group_weights: Any = None,
        tol: float = 1e-6,
        max_iter: int = 20_000,
        warm_start: bool = False,
        time_limit: float | None = None,
        n_jobs: int | None = None,
        verbose: Any = False,
    ) -> None:
        set_init_params(self, locals())

    def fit(self, X: Any, y: npt.ArrayLike) -> LatentGroupLasso:
        """Solve for ``X`` (dense or SciPy sparse) and ``y``; returns ``self``."""
        if self.loss not in _REGRESSION_LOSSES:
            raise InvalidParameterError(f"loss must be 'squared' or 'absolute', got {self.loss!r}")
        design, ya, n, p = _fit_data(self, X, y)
        yy = as_real_target(ya, n, type(self).__name__)
        if self.groups is None:
            _check_graph_of_x(as_edges(self.edges), p)
            groups = neighbourhood_groups(self.edges, p)
        else:
            groups = [[as_count(v, "groups") for v in g] for g in self.groups]
            for k, g in enumerate(groups):
                if any(v >= p for v in g):
                    raise InvalidParameterError(
                        f"groups[{k}] holds feature {max(g)}, but X has {p} columns; groups "
                        "hold column indices of X"
                    )
        ptr, members = _groups_arg(groups)
        w = (
            np.sqrt([float(len(g)) for g in groups])
            if self.group_weights is None
            else as_float_array(self.group_weights, "group_weights", length=len(groups))
        )
        out = self._solve(
            "latent",
            design,
            yy,
            self.loss,
            ("latent", n, p, len(members)),
            groups=(ptr, members, np.ascontiguousarray(w, dtype=np.float64)),
        )
        self.coef_ = np.asarray(out["coef"])
        self.intercept_ = 0.0
        return self

    def predict(self, X: Any) -> FloatArray:
        """``X @ coef_``, shape ``(n_samples,)``."""
        return self._decision(X)


class GraphIHT(RegressorMixin, _LinearModel):
    """Graph-IHT / Graph-CoSaMP (Hegde, Indyk & Schmidt, ICML 2015), the non-convex baseline.

    Least squares over signals supported on at most ``n_components`` connected pieces of about
    ``sparsity`` vertices, with the weighted-graph-model head and tail projections.

    Parameters
    ----------
    edges : array-like of int, shape (m, 2)
    sparsity : int, default=10
        Capped at ``n_features``.
    n_components : int, default=1
    method : {"iht", "cosamp"}, default="iht"
    max_iter : int, default=100
        Most iterations; a run they stop warns with a
        :class:`~graphsparse.exceptions.TruncatedSearchWarning`.
    tol : float, default=1e-6
        Relative change of the iterate at which the run stops.
    time_limit : float, optional
        Seconds; the run stops there with the same warning.
    n_jobs : int, optional

    Attributes
    ----------
    coef_, support_, n_iter_, converged_, residual_norms_
    truncated_ : bool
        Whether a budget stopped the run.
    truncation_ : str or None
        Which budget: ``"max_iter"`` or ``"time_limit"``; ``None`` when none did.
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
        set_init_params(self, locals())

    def fit(self, X: Any, y: npt.ArrayLike) -> GraphIHT:
        """Run on ``X`` (dense or SciPy sparse) and ``y``; returns ``self``."""
        design, ya, n, p = _fit_data(self, X, y)
        yy = as_real_target(ya, n, type(self).__name__)
        edges = as_edges(self.edges)
        _check_graph_of_x(edges, p)
        sparsity = as_count(self.sparsity, "sparsity")
        params = {
            "sparsity": min(sparsity, p) if sparsity >= 1 else sparsity,
            "n_components": as_count(self.n_components, "n_components"),
            "method": self.method,
            "max_iter": as_count(self.max_iter, "max_iter"),
            "tol": as_real(self.tol, "tol"),
            "ratio": 0.1,
            "time_limit": _time_limit(self.time_limit),
        }
        out = self._run_rust(_rs.recovery_graph_iht, design, yy, edges, params)
        self.coef_ = np.asarray(out["coef"])
        self.intercept_ = 0.0
        self.support_ = np.asarray(out["support"])
        self.residual_norms_ = np.asarray(out["residual_norms"])
        self._set_outcome(
            n_iter=out["n_iter"],
            converged=out["converged"],
            truncation=out["truncated"],
            detail=f"the estimate is the last iterate (tol={self.tol})",
        )
        return self

    def predict(self, X: Any) -> FloatArray:
        """``X @ coef_``, shape ``(n_samples,)``."""
        return self._decision(X)


def lambda_max(
    X: Any,
    y: npt.ArrayLike,
    edges: Any = None,
    alpha: float = 1.0,
    weights: Any = None,
    loss: str = "squared",
) -> float:
    """The smallest ``lambda_`` with solution ``w = 0``.

    ``‖Xᵀg‖_∞`` with ``g ∈ ∂f(0)`` for ``alpha > 0`` or without ``edges`` (the lasso); for
    ``alpha = 0`` ``max_c ‖(Xᵀg)_c‖₂/√|c|`` over the connected components. For the
    classification losses ``y`` holds ``±1`` labels (no intercept).
    """
    design, n, p = _function_design(X)
    yy = as_real_target(y, n, "lambda_max")
    if edges is None:
        return float(_rs.recovery_lambda_max(design, yy, loss, 0.0))
    e = as_edges(edges)
    _check_graph_of_x(e, p)
    return float(
        _rs.recovery_lambda_max(
            design, yy, loss, as_real(alpha, "alpha"), e, _weights(weights, len(e))
        )
    )


class RecoveryPath:
    """The solutions of :func:`recovery_path`, one row per ``λ`` (decreasing).

    Attributes
    ----------
    lambdas : ndarray of shape (n_lambdas,)
    coefs : ndarray of shape (n_lambdas, n_features)
    sigmas : ndarray of shape (n_lambdas, n_features)
    n_iter : ndarray of int, shape (n_lambdas,)
    gaps : ndarray of shape (n_lambdas,)
    converged : ndarray of bool, shape (n_lambdas,)
    """

    def __init__(
        self,
        lambdas: FloatArray,
        coefs: FloatArray,
        sigmas: FloatArray,
        n_iter: np.ndarray,
        gaps: FloatArray,
        converged: np.ndarray,
    ) -> None:
        self.lambdas = lambdas
        self.coefs = coefs
        self.sigmas = sigmas
        self.n_iter = n_iter
        self.gaps = gaps
        self.converged = converged

    def __repr__(self) -> str:
        return (
            f"RecoveryPath(n_lambdas={len(self.lambdas)}, n_features={self.coefs.shape[1]}, "
            f"total_iter={int(self.n_iter.sum())})"
        )


def recovery_path(
    X: Any,
    y: npt.ArrayLike,
    edges: Any = (),
    alpha: float = 1.0,
    *,
    lambdas: Any = None,
    n_lambdas: int = 30,
    eps: float = 1e-3,
    loss: str = "squared",
    weights: Any = None,
    penalty_form: str = "budget",
    solver: str = "pdhg",
    tol: float = 1e-6,
    max_iter: int = 20_000,
    time_limit: float | None = None,
    n_jobs: int | None = None,
) -> RecoveryPath:
    """Model (6) along a ``λ`` path, each solve warm-started from the previous one.

    Parameters
    ----------
    X, y, edges, alpha, loss, weights, penalty_form, solver, tol, max_iter, n_jobs
        As :class:`GraphStructuredRecovery` (``y`` holds ``±1`` for the classification
        losses; no intercept).
    lambdas : array-like of float, optional
        The values, solved in the order given. Default: ``n_lambdas`` values log-spaced from
        :func:`lambda_max` down to ``eps·lambda_max``.
    n_lambdas : int, default=30
    eps : float, default=1e-3
    time_limit : float, optional
        Seconds for the whole path; the path stops early (with a
        :class:`~graphsparse.exceptions.TruncatedSearchWarning`) when it runs out.

    Returns
    -------
    RecoveryPath
    """
    import time

    design, n, p = _function_design(X)
    if n < 1 or p < 1:
        raise InvalidParameterError(f"X must have at least one row and one column, got ({n}, {p})")
    yy = as_real_target(y, n, "recovery_path")
    e = as_edges(edges)
    _check_graph_of_x(e, p)
    w = _weights(weights, len(e))
    k = as_count(n_lambdas, "n_lambdas")  # checked even when lambdas makes it unused
    if lambdas is None:
        top = float(_rs.recovery_lambda_max(design, yy, loss, as_real(alpha, "alpha"), e, w))
        ratio = as_real(eps, "eps")
        if k < 1 or not (0.0 < ratio <= 1.0):
            raise InvalidParameterError(
                f"n_lambdas must be >= 1 and eps in (0, 1], got {n_lambdas!r} and {eps!r}"
            )
        if top <= 0.0:
            raise InvalidParameterError("lambda_max is 0 (X.T @ y = 0): every lambda gives w = 0")
        lams = top * np.logspace(0.0, np.log10(ratio), k)
    else:
        lams = as_float_array(lambdas, "lambdas")
    template = GraphStructuredRecovery(
        e,
        alpha=alpha,
        loss=loss,
        penalty_form=penalty_form,
        solver=solver,
        tol=tol,
        max_iter=max_iter,
    )
    limit = _time_limit(time_limit)
    start = time.perf_counter()
    warm: dict[str, Any] | None = None
    norms: tuple[float, float] | None = None
    rows: list[dict[str, Any]] = []
    for lam in lams:
        params = template._solver_params(loss, lam)
        if norms is not None:
            params["op_norm"], params["diff_norm"] = norms[0], norms[1] or None
        if limit is not None:
            params["time_limit"] = max(limit - (time.perf_counter() - start), 1e-9)
        out = _rs.recovery_solve(
            "graph",
            design,
            yy,
            params,
            edges=e,
            weights=w,
            n_threads=resolve_n_jobs(n_jobs),
            warm=warm,
        )
        warm, norms = _restart(out["state"]), (float(out["op_norm"]), float(out["diff_norm"]))
        rows.append(out)
        if out["truncated"] is not None:
            warn_budget_stop(
                "recovery_path", out["truncated"], time_limit, f"{len(rows)} of {len(lams)} values"
            )
            break
    return RecoveryPath(
        lambdas=np.asarray(lams[: len(rows)], dtype=np.float64),
        coefs=np.array([r["coef"] for r in rows]).reshape(len(rows), p),
        sigmas=np.array([r["sigma"] for r in rows]).reshape(len(rows), p),
        n_iter=np.array([r["n_iter"] for r in rows], dtype=np.int64),
        gaps=np.array([r["gap"] for r in rows], dtype=np.float64),
        converged=np.array([r["converged"] for r in rows], dtype=bool),
    )


def penalty(
    w: npt.ArrayLike, edges: Any, alpha: float, weights: Any = None, tol: float = 1e-9
) -> tuple[float, FloatArray]:
    """``Psi_alpha(w)`` and an optimal ``σ`` (closed forms where they exist, else a certified
    inner solve to relative gap ``tol``)."""
    ww = as_float_array(w, "w")
    e = as_edges(edges)
    check_endpoints(e, ww.size, f"w has {ww.size} entries", "give one entry of w per vertex")
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
