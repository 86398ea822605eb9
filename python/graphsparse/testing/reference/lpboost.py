"""Soft-margin LPBoost written out explicitly: the primal LP and its value for fixed weights.

Size and cost: one dense LP with ``n_samples + n_hypotheses + 1`` variables (SciPy's HiGHS);
hundreds of samples and hypotheses solve in well under a second.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linprog

__all__ = [
    "primal_lp",
    "primal_value",
]


def primal_lp(h: np.ndarray, labels: np.ndarray, cap: float) -> tuple[float, np.ndarray]:
    """``max rho - cap sum xi`` s.t. ``y_i (H a)_i + xi_i >= rho``, ``sum a = 1``, ``a, xi >= 0``.

    Solved as one LP in the primal variables ``(a, xi, rho)``; returns the optimum and ``a``.
    """
    n, m = h.shape
    c = np.concatenate([np.zeros(m), np.full(n, cap), [-1.0]])
    a_ub = np.hstack([-(labels[:, None] * h), -np.eye(n), np.ones((n, 1))])
    res = linprog(
        c,
        A_ub=a_ub,
        b_ub=np.zeros(n),
        A_eq=np.concatenate([np.ones(m), np.zeros(n + 1)])[None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * (m + n) + [(None, None)],
        method="highs",
    )
    assert res.status == 0, res.message
    return float(-res.fun), np.asarray(res.x[:m])


def primal_value(a: np.ndarray, h: np.ndarray, labels: np.ndarray, cap: float) -> float:
    """``max_rho rho - cap sum_i max(0, rho - margin_i)`` for fixed weights ``a``.

    The function is concave and piecewise linear in ``rho`` with kinks at the margins, so its
    maximum is at one of them: evaluate all.
    """
    margins = labels * (h @ a)
    return float(max(r - cap * np.maximum(0.0, r - margins).sum() for r in margins))
