"""Model (6) of Kuroda & Kitahara on a graph over the features: :class:`GraphStructuredRecovery`
(squared or absolute loss, optionally an exact intercept) and
:class:`GraphStructuredClassifier` (logistic or hinge loss)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from sklearn.base import ClassifierMixin, RegressorMixin
from sklearn.utils.metaestimators import available_if

from .._validation import as_real, as_real_target, encode_binary, set_init_params
from ..exceptions import InvalidParameterError
from ._base import _GraphModel
from ._design import _CLASSIFICATION_LOSSES, _REGRESSION_LOSSES, FloatArray, _fit_data


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
    solver : {"auto", "anderson", "ssnal", "pdhg", "pdhg-fixed", "kk"}, default="auto"
        ``"anderson"``: fixed-step PDHG accelerated by a safeguarded Anderson (multisecant
        quasi-Newton) step on its fixed-point residual — fewer products with ``X`` on small
        problems, at the cost of keeping 11 copies of the iterate; ``"ssnal"``: a semismooth
        Newton augmented Lagrangian method on the dual (Li, Sun & Toh), squared loss only,
        whose Newton systems use ``X`` on the columns where ``σ > 0`` (``n_iter_`` counts its
        Newton steps; on the instances measured it needed more products with ``X`` than
        ``"anderson"``, so ``"auto"`` never takes it; where its Newton iteration breaks down
        the fit is finished by ``"anderson"``, and ``solver_`` says so); ``"pdhg"``: adaptive PDHG
        (one copy; the method for a large sparse ``X``); ``"pdhg-fixed"``: PDHG with fixed
        steps; ``"kk"``: the paper's Algorithm 1. ``"auto"`` takes ``"anderson"`` when its extra
        work per iteration, ``10·(2·n_features + n_samples + m)``, is at most one product with
        ``X`` (its number of stored entries), and ``"pdhg"`` otherwise (and always for
        ``alpha = 0`` in the budget form, solved as the group lasso over the components). Every
        method stops on the same certificate (``tol``); ``solver_`` tells which one ran. All but
        ``"kk"`` copy a dense ``X`` of at most 2**23 entries column-major, so that products
        with the iterate read only the columns of its support.
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
        ``dual_gap_`` is the duality gap ``P − D`` of the estimate, in the objective's units
        (as scikit-learn's ``Lasso`` and every graphsparse estimator report it): the estimate's
        objective is within ``dual_gap_`` of the optimum. The solve stops when the relative
        gap ``(P − D) / max(|P|, |D|)`` is at most ``tol``; that one is ``history_["gap"]``.
    solver_ : str
        The method that ran (``"auto"`` resolved).
    truncated_ : bool
        Whether a budget stopped the solve.
    truncation_ : str or None
        Which budget: ``"max_iter"`` or ``"time_limit"``; ``None`` when none did.
    history_ : dict of ndarray
        ``iteration``, relative ``gap``, ``objective`` (``P``), ``dual_objective`` (``D``),
        ``primal_residual`` and ``dual_residual`` at each convergence check.

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
        solver: str = "auto",
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


def _check_fit_intercept(fit_intercept: Any) -> None:
    if not isinstance(fit_intercept, bool | np.bool_):
        raise InvalidParameterError(f"fit_intercept must be a bool, got {fit_intercept!r}")


def _centre(
    design: Any, y: FloatArray, fit_intercept: Any, loss: str
) -> tuple[Any, FloatArray, FloatArray | None, float]:
    """Centred ``X`` and ``y`` (the exact unpenalised intercept of the squared loss)."""
    _check_fit_intercept(fit_intercept)
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
    sigma_, n_iter_, converged_, dual_gap_, objective_, history_, solver_, truncated_, truncation_
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
        solver: str = "auto",
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
        _check_fit_intercept(self.fit_intercept)
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
        self.intercept_ = float(out.coef[p] * scale) if scale is not None else 0.0
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
