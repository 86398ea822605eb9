"""The penalty ``Psi_alpha`` and the proximal operator of the perspective function, alone."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _graphsparse as _rs
from .._base import warn_budget_stop
from .._validation import as_edges, as_float_array, as_real, check_endpoints
from ._design import FloatArray, _weights


def penalty(
    w: npt.ArrayLike, edges: Any, alpha: float, weights: Any = None, tol: float = 1e-9
) -> tuple[float, FloatArray]:
    """``Psi_alpha(w)`` and an optimal ``σ`` (closed forms where they exist, else a certified
    inner solve to relative gap ``tol``).

    When the inner solve reaches its iteration budget above ``tol`` (a ``tol`` near rounding
    on a badly scaled ``w``), the value is the objective at its last feasible ``σ`` — an upper
    bound of ``Psi_alpha(w)``, ``inf`` where ``σ`` is still 0 at a nonzero entry — and a
    :class:`~graphsparse.exceptions.TruncatedSearchWarning` says so.
    """
    ww = as_float_array(w, "w")
    e = as_edges(edges)
    check_endpoints(e, ww.size, f"w has {ww.size} entries", "give one entry of w per vertex")
    value, sigma, gap, n_iter, converged = _rs.recovery_penalty(
        ww, e, as_real(alpha, "alpha"), _weights(weights, len(e)), as_real(tol, "tol")
    )
    if not converged:
        warn_budget_stop(
            "penalty's inner solve",
            "max_iter",
            n_iter,
            f"{n_iter} iterations at a relative gap of {gap:.2e} (tol={tol})",
            f"the value {value:.6g} is an upper bound of Psi_alpha(w); a larger tol converges",
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
