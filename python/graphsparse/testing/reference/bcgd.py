"""Explicit-matrix block coordinate gradient descent: the naive reference for the subgraph models.

The same rules as the tree search (Takigawa & Mamitsuka, Figure 7; spec §4), but over an explicit
0/1 design matrix whose columns are the patterns in DFS order. Columns equal to an earlier column
are the same feature (an equivalence class) and are dropped, as the tree search does.

Objective: mean_i L(y_i, b0 + X_i b) + lam1 ||b||_1 + lam2/2 ||b||^2.

Size and cost: the design matrix is dense, ``n_samples × n_patterns``; one sweep costs
``O(n_samples · n_patterns)``. Meant for a few dozen samples and a few hundred patterns
(the patterns of small drawn databases).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "logistic",
    "squared",
    "BcgdTrace",
    "unique_columns",
    "objective",
    "bcgd",
    "dual_point",
    "spp_bound",
]


def logistic(y: np.ndarray, mu: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Loss, first and second derivative in mu for y in {0, 1}."""
    p = 1.0 / (1.0 + np.exp(-mu))
    loss = np.logaddexp(0.0, mu) - y * mu
    return loss, p - y, p * (1.0 - p)


def squared(y: np.ndarray, mu: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """0.5 (y - mu)^2 and its derivatives (the scaling of scikit-learn's Lasso)."""
    r = mu - y
    return 0.5 * r * r, r, np.ones_like(mu)


LOSSES = {"logistic": logistic, "squared": squared}


@dataclass
class BcgdTrace:
    """The iterates of a run: one entry per iteration."""

    intercepts: list[float] = field(default_factory=list)
    coefs: list[np.ndarray] = field(default_factory=list)
    objectives: list[float] = field(default_factory=list)
    n_iter: int = 0
    converged: bool = False


def unique_columns(x: np.ndarray) -> np.ndarray:
    """Indices of the first occurrence of each distinct column."""
    seen: dict[bytes, int] = {}
    keep = []
    for j in range(x.shape[1]):
        key = np.packbits(x[:, j].astype(bool)).tobytes()
        if key not in seen:
            seen[key] = j
            keep.append(j)
    return np.asarray(keep, dtype=np.int64)


def objective(x, y, b0, b, lam1, lam2, loss="logistic") -> float:
    mu = b0 + x @ b
    value, _, _ = LOSSES[loss](y, mu)
    return float(value.mean() + lam1 * np.abs(b).sum() + 0.5 * lam2 * (b @ b))


def bcgd(
    x: np.ndarray,
    y: np.ndarray,
    lam1: float,
    lam2: float = 0.0,
    loss: str = "logistic",
    tol: float = 1e-3,
    max_iter: int = 1000,
    v: float = 0.9,
    sigma: float = 0.1,
    c: float = 0.5,
) -> BcgdTrace:
    """Run BCGD from zero on the explicit matrix ``x`` (duplicate columns already removed)."""
    n, p = x.shape
    lossfn = LOSSES[loss]
    b0, b = 0.0, np.zeros(p)
    trace = BcgdTrace()
    alpha_init = 1.0
    for t in range(max_iter):
        mu = b0 + x @ b
        _, d1, d2 = lossfn(y, mu)
        d1, d2 = d1 / n, d2 / n
        h = np.clip(x.T @ d2 + lam2, 1e-10, 1e10)
        h0 = float(np.clip(d2.sum(), 1e-10, 1e10))
        grad = x.T @ d1 + lam2 * b
        bj = grad - h * b
        tj = np.where(bj < -lam1, -(bj + lam1) / h, np.where(bj > lam1, -(bj - lam1) / h, 0.0))
        t0 = b0 - d1.sum() / h0
        d = tj - b
        dd0 = t0 - b0
        # convergence on the full direction (Tseng & Yun's optimality measure)
        if max(abs(h0 * dd0), np.max(np.abs(h * d), initial=0.0)) <= tol:
            trace.converged = True
            trace.n_iter = t
            return trace
        dmax = max(abs(dd0), np.max(np.abs(d), initial=0.0))
        d = np.where(np.abs(d) <= v * dmax, 0.0, d)
        if abs(dd0) <= v * dmax:
            dd0 = 0.0
        f_old = objective(x, y, b0, b, lam1, lam2, loss)
        delta = float(grad @ d + d1.sum() * dd0 + lam1 * (np.abs(b + d).sum() - np.abs(b).sum()))
        alpha = alpha_init
        for _ in range(100):
            if objective(x, y, b0 + alpha * dd0, b + alpha * d, lam1, lam2, loss) <= (
                f_old + alpha * sigma * delta
            ):
                break
            alpha *= c
        b0, b = b0 + alpha * dd0, b + alpha * d
        alpha_init = min(alpha / c**5, 1.0)
        trace.intercepts.append(b0)
        trace.coefs.append(b.copy())
        trace.objectives.append(objective(x, y, b0, b, lam1, lam2, loss))
    trace.n_iter = max_iter
    return trace


# -- the duality gap and the safe-pruning sphere (crate docs, "Safe pattern pruning") -----------
CONJUGATES = {
    # L*(y, u) = sup_mu u mu - L(y, mu)
    "logistic": lambda y, u: _xlogx(u + y) + _xlogx(1.0 - u - y),
    "squared": lambda y, u: u * y + 0.5 * u * u,
}
SMOOTHNESS = {"logistic": 0.25, "squared": 1.0}


def _xlogx(p: np.ndarray) -> np.ndarray:
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.inf)
    inside = (p >= 0.0) & (p <= 1.0)
    q = p[inside]
    out[inside] = np.where(q > 0.0, q * np.log(np.where(q > 0.0, q, 1.0)), 0.0)
    return out


def dual_point(x, y, b0, b, lam1, lam2=0.0, loss="logistic"):
    """``(theta, P, D, gap, radius)`` of the iterate ``(b0, b)`` over every column of ``x``.

    ``theta`` balances the positive or negative part of ``L'(y, mu)/n`` to sum zero, then
    scales by ``s = min(1, lam1 / M)`` with ``M = max_j |x_j' theta~ + lam2 b_j|``; the ridge
    block of the dual is ``xi = s lam2 b``. ``radius = sqrt(2 c gap / n)`` for a c-smooth loss.
    """
    n = len(y)
    mu = b0 + x @ b
    value, d1, _ = LOSSES[loss](y, mu)
    g1 = d1 / n
    pos, neg = g1[g1 > 0].sum(), -g1[g1 < 0].sum()
    ap, an = (
        (neg / pos, 1.0)
        if pos > neg and pos > 0
        else ((1.0, pos / neg) if neg > pos else (1.0, 1.0))
    )
    tt = g1 * np.where(g1 > 0, ap, an)
    m = float(np.max(np.abs(x.T @ tt + lam2 * b), initial=0.0))
    s = 1.0 if m <= lam1 else lam1 / m
    theta = s * tt
    primal = float(value.mean() + lam1 * np.abs(b).sum() + 0.5 * lam2 * (b @ b))
    dual = float(-CONJUGATES[loss](y, n * theta).mean() - 0.5 * lam2 * s * s * (b @ b))
    gap = primal - dual
    radius = float(np.sqrt(2.0 * SMOOTHNESS[loss] * max(gap, 0.0) / n))
    return theta, primal, dual, gap, radius


def spp_bound(theta: np.ndarray, radius: float, occurrences: np.ndarray) -> float:
    """The SPP bound of a node occurring in ``occurrences``: over every pattern below it,
    ``|x' theta*| <= max(sum theta+, -sum theta-) + radius sqrt(|occ|)``."""
    t = theta[occurrences]
    return float(max(t[t > 0].sum(), -t[t < 0].sum()) + radius * np.sqrt(len(t)))
