"""Reference projections: sort-based numpy versions, exact active-set brute force, and SLSQP.

These are deliberately simple (and slow); each follows the textbook derivation directly so that
the Rust kernels can be checked against something independent of their own tricks.

Size and cost: the ``*_sort`` functions are ``O(n log n)`` (``O(n²)`` for the capped simplex)
and fine for thousands of entries; the ``*_brute`` functions try every active set,
``O(2^n)`` or ``O(3^n)``: up to about 10 entries; :func:`project_qp_slsqp` is a general QP
solver (tolerance about 1e-9) for up to a few dozen entries.
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
from scipy.optimize import minimize

__all__ = [
    "project_simplex_sort",
    "project_l1_ball_sort",
    "project_weighted_simplex_sort",
    "project_weighted_simplex_brute",
    "project_capped_simplex_sort",
    "project_capped_simplex_brute",
    "project_top_k_sort",
    "project_qp_slsqp",
]

FloatArray = npt.NDArray[np.float64]


def project_simplex_sort(v: npt.ArrayLike, z: float = 1.0) -> FloatArray:
    """Duchi et al. (2008): sort, cumulative sums, the largest prefix with a positive gap.

    Computed on ``v - max(v)``, which has the same projection (``sum(x) = z`` is fixed), so
    that huge values do not cancel the result (``v = (1e300, 1e300)`` gives ``(z/2, z/2)``).
    """
    v = np.asarray(v, dtype=np.float64)
    v = v - v.max()
    u = np.sort(v)[::-1]
    css = np.cumsum(u)
    j = np.arange(1, v.size + 1)
    ok = np.nonzero(u - (css - z) / j > 0)[0]
    rho = int(ok[-1]) + 1 if ok.size else 1  # j = 1 always qualifies in exact arithmetic
    tau = (css[rho - 1] - z) / rho
    return np.maximum(v - tau, 0.0)


def project_l1_ball_sort(v: npt.ArrayLike, radius: float = 1.0) -> FloatArray:
    """``v`` inside the ball, else ``sign(v) * project_simplex_sort(|v|, radius)``."""
    v = np.asarray(v, dtype=np.float64)
    if np.abs(v).sum() <= radius:
        return v.copy()
    if radius == 0:
        return np.zeros_like(v)
    return np.sign(v) * project_simplex_sort(np.abs(v), radius)


def project_weighted_simplex_sort(y: npt.ArrayLike, eps: npt.ArrayLike) -> FloatArray:
    """Garg & Jaakkola Algorithm 1 with numpy argsort (the O(d log d) baseline)."""
    y = np.asarray(y, dtype=np.float64)
    eps = np.asarray(eps, dtype=np.float64)
    x = y.copy()
    p = np.nonzero(eps > 0)[0]
    yp, ep = y[p], eps[p]
    order = np.argsort(-(yp / ep), kind="stable")
    ys, es = yp[order], ep[order]
    s = np.cumsum(es * ys)
    q = np.cumsum(es * es)
    theta = (1.0 - s) / q
    b = ys + es * theta
    j = int(np.nonzero(b > 0)[0][-1]) if np.any(b > 0) else 0
    x[p] = np.maximum(yp + theta[j] * ep, 0.0)
    return x


def project_weighted_simplex_brute(y: npt.ArrayLike, eps: npt.ArrayLike) -> FloatArray:
    """Exact projection by enumerating active sets (small ``d`` only).

    For every non-empty subset ``B`` of ``P = {eps > 0}``, ``theta_B = (1 - S_B) / Q_B`` solves
    the equality constraint with ``B`` active; the KKT point is the subset whose members stay
    non-negative and whose non-members are clipped. Ties make several subsets valid, all giving
    the same ``x``; the least-violating one is returned.
    """
    y = np.asarray(y, dtype=np.float64)
    eps = np.asarray(eps, dtype=np.float64)
    p = [int(i) for i in np.nonzero(eps > 0)[0]]
    best: tuple[float, float] | None = None
    for r in range(1, len(p) + 1):
        for sub in itertools.combinations(p, r):
            idx = list(sub)
            theta = (1.0 - float(eps[idx] @ y[idx])) / float(eps[idx] @ eps[idx])
            b = y[p] + theta * eps[p]
            inside = np.isin(p, idx)
            viol = max(
                float(np.max(-b[inside], initial=0.0)), float(np.max(b[~inside], initial=0.0))
            )
            if best is None or viol < best[0]:
                best = (viol, theta)
    assert best is not None
    x = y.copy()
    x[p] = np.maximum(y[p] + best[1] * eps[p], 0.0)
    return x


def project_capped_simplex_sort(y: npt.ArrayLike, k: float) -> FloatArray:
    """The §4.1 algorithm of the spec, literally: sorted breakpoints, binary search, closed form.

    ``s(tau) = sum clip(y - tau, 0, 1)`` is evaluated directly (O(n) per evaluation, no
    cancellation) at O(log n) of the sorted breakpoints (the positive ``y_i`` and ``y_i - 1``,
    and 0); on the bracketing segment the upper and middle sets are fixed and ``tau`` is closed
    exactly.
    """
    y = np.asarray(y, dtype=np.float64)
    clip = np.clip(y, 0.0, 1.0)
    if clip.sum() <= k:
        return clip
    if k == 0:
        return np.zeros_like(y)

    def s(t: float) -> float:
        return float(np.clip(y - t, 0.0, 1.0).sum())

    b = np.unique(np.concatenate([[0.0], y[y > 0], y[y - 1 > 0] - 1]))
    lo, hi = 0, b.size - 1  # s(b[0] = 0) > k >= 0 = s(b[-1] = max y)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if s(b[mid]) >= k:
            lo = mid
        else:
            hi = mid
    tl, th = b[lo], b[hi]
    mid_t = 0.5 * (tl + th)
    upper = y - mid_t >= 1
    middle = (y - mid_t > 0) & ~upper
    tau = (upper.sum() + y[middle].sum() - k) / middle.sum() if middle.any() else tl
    return np.clip(y - tau, 0.0, 1.0)


def project_capped_simplex_brute(y: npt.ArrayLike, k: float) -> FloatArray:
    """Exact projection by enumerating which coordinates sit at 0, inside, or at 1 (n <= 8)."""
    y = np.asarray(y, dtype=np.float64)
    clip = np.clip(y, 0.0, 1.0)
    if clip.sum() <= k:
        return clip
    best: tuple[float, FloatArray] | None = None
    for labels in itertools.product((0, 1, 2), repeat=y.size):
        lab = np.array(labels)
        mid, up = lab == 1, lab == 2
        if mid.any():
            tau = (up.sum() + y[mid].sum() - k) / mid.sum()
        elif up.sum() == k:
            tau = float(np.max(y[lab == 0], initial=0.0))
        else:
            continue
        if tau < 0:
            continue
        d = y - tau
        viol = max(
            float(np.max(d[lab == 0], initial=0.0)),
            float(np.max(-d[mid], initial=0.0)),
            float(np.max(d[mid] - 1, initial=0.0)),
            float(np.max(1 - d[up], initial=0.0)),
        )
        if best is None or viol < best[0]:
            best = (viol, np.clip(d, 0.0, 1.0))
    assert best is not None
    return best[1]


def project_top_k_sort(y: npt.ArrayLike, k: int) -> FloatArray:
    """Full stable sort by decreasing magnitude; the first ``k`` survive."""
    y = np.asarray(y, dtype=np.float64)
    x = np.zeros_like(y)
    keep = np.argsort(-np.abs(y), kind="stable")[:k]
    x[keep] = y[keep]
    return x


def project_qp_slsqp(
    y: npt.ArrayLike,
    *,
    eq: tuple[FloatArray, float] | None = None,
    ineq: tuple[FloatArray, float] | None = None,
    lower: FloatArray | None = None,
    upper: FloatArray | None = None,
) -> FloatArray:
    """Generic ``argmin 0.5 ||x - y||^2`` s.t. ``a.x = b`` / ``a.x <= b`` and box bounds.

    A numerical solver (SLSQP), accurate to about 1e-7: the independent check of the closed
    forms on small problems.
    """
    y = np.asarray(y, dtype=np.float64)
    cons = []
    if eq is not None:
        a, b = eq
        cons.append({"type": "eq", "fun": lambda x: a @ x - b, "jac": lambda x: a})
    if ineq is not None:
        a2, b2 = ineq
        cons.append({"type": "ineq", "fun": lambda x: b2 - a2 @ x, "jac": lambda x: -a2})
    lo = lower if lower is not None else np.full(y.size, -np.inf)
    hi = upper if upper is not None else np.full(y.size, np.inf)
    bounds = list(zip(lo, hi, strict=True))
    x0 = np.clip(y, lo, hi)
    res = minimize(
        lambda x: 0.5 * float((x - y) @ (x - y)),
        x0,
        jac=lambda x: x - y,
        bounds=bounds,
        constraints=cons,
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 1000},
    )
    return np.asarray(res.x, dtype=np.float64)
