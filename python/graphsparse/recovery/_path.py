"""The ``λ`` path of model (6): its start :func:`lambda_max` and the warm-started
:func:`recovery_path`."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _graphsparse as _rs
from .._base import warn_budget_stop
from .._threads import resolve_n_jobs
from .._validation import as_count, as_edges, as_float_array, as_real, as_real_target
from ..exceptions import InvalidParameterError
from ._design import FloatArray, _check_graph_of_x, _design, _weights
from ._graph_structured import GraphStructuredRecovery


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
    design, n, p = _design(X)
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
        The relative duality gap ``(P − D) / max(|P|, |D|)`` of each solve, the quantity
        ``tol`` bounds (an estimator's ``dual_gap_`` is ``P − D`` itself).
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
    solver: str = "auto",
    tol: float = 1e-6,
    max_iter: int = 20_000,
    time_limit: float | None = None,
    n_jobs: int | None = None,
) -> RecoveryPath:
    """Model (6) along a ``λ`` path, each solve warm-started from the previous one.

    The whole path runs in Rust in one call (``X`` and the graph built once, the GIL
    released, Ctrl-C honoured); each solve reuses the previous one's iterates, steps and
    norm estimates.

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
    design, n, p = _design(X)
    if n < 1 or p < 1:
        raise InvalidParameterError(f"X must have at least one row and one column, got ({n}, {p})")
    yy = as_real_target(y, n, "recovery_path")
    e = as_edges(edges)
    _check_graph_of_x(e, p)
    w = _weights(weights, len(e))
    k = as_count(n_lambdas, "n_lambdas")  # checked even when lambdas makes it unused
    if lambdas is None:
        ratio = as_real(eps, "eps")
        if k < 1 or not (0.0 < ratio <= 1.0):
            raise InvalidParameterError(
                f"n_lambdas must be >= 1 and eps in (0, 1], got {n_lambdas!r} and {eps!r}"
            )
        # fractions of lambda_max, which the binding computes on the design it builds
        grid, relative = np.logspace(0.0, np.log10(ratio), k), True
    else:
        grid, relative = as_float_array(lambdas, "lambdas"), False
    template = GraphStructuredRecovery(
        e,
        alpha=alpha,
        loss=loss,
        penalty_form=penalty_form,
        solver=solver,
        tol=tol,
        max_iter=max_iter,
        time_limit=time_limit,
    )
    # one call: X and the graph are built once, the time limit is the whole path's
    fit = _rs.recovery_path(
        design,
        yy,
        e,
        template._solver_params(loss),
        grid,
        weights=w,
        relative=relative,
        n_threads=resolve_n_jobs(n_jobs),
    )
    if fit.truncation is not None:
        warn_budget_stop(
            "recovery_path",
            fit.truncation,
            time_limit,
            f"{len(fit.lambdas)} of {len(grid)} values",
        )
    return RecoveryPath(
        lambdas=fit.lambdas,
        coefs=fit.coef,
        sigmas=fit.sigma,
        n_iter=fit.n_iter,
        gaps=fit.dual_gap,
        converged=fit.converged,
    )
