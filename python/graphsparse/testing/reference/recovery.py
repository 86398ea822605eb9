"""References for convex graph-structured recovery (Kuroda & Kitahara) and its baselines.

Everything here is independent of the Rust solvers:

* the perspective prox by bisection on the reduced one-dimensional problem (spec §2.1 step 1)
  and the paper's literal Cardano formula (spec §6, kept to show the rewrite is the same map);
* the penalty ``Ψ_α`` and model (6) as CVXPY second-order cone programs (spec §1.3 item 2),
  for the squared, absolute, logistic and hinge losses;
* the lasso and the latent group lasso of Jacob, Obozinski & Vert (one variable per group);
* closed forms: ``Ψ_0`` over components, ``l1`` on an edgeless graph.

CVXPY is a test dependency; the functions solve with Clarabel at tight tolerances.

Size and cost: the ``cvxpy_*`` functions build second-order cone programs with a few variables
per edge and vertex (Clarabel, tolerances 1e-10): up to a few hundred variables in about a
second. They need CVXPY, which graphsparse does not depend on (``pip install cvxpy``).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ._cvxpy import cvxpy

__all__ = [
    "perspective",
    "prox_perspective_bisection",
    "prox_perspective_cardano",
    "difference_matrix",
    "components",
    "psi_zero",
    "neighbourhood_groups",
    "loss_value",
    "cvxpy_penalty",
    "cvxpy_graph_recovery",
    "cvxpy_lasso",
    "cvxpy_latent_group_lasso",
    "graph_objective",
    "lambda_max",
    "nmse",
]

FloatArray = npt.NDArray[np.float64]

LOSSES = ("squared", "absolute", "logistic", "hinge")


# --------------------------------------------------------------------------------------------
# the perspective prox


def perspective(x: float, tau: float) -> float:
    """``φ(x, τ) = x²/(2τ) + τ/2`` for ``τ > 0``; 0 at ``(0, 0)``; ``+∞`` otherwise."""
    if tau > 0.0:
        return 0.5 * (x * (x / tau) + tau)
    if x == 0.0 and tau == 0.0:
        return 0.0
    return math.inf


def prox_perspective_bisection(x: float, sigma: float, c: float) -> tuple[float, float]:
    """``argmin_{a,b} c φ(a, b) + ½(a − x)² + ½(b − σ)²`` by bisection on ``F'(b)``.

    With ``a`` eliminated (``a = x b/(b + c)``) the problem is ``min_{b ≥ 0} F(b)``,
    ``F(b) = c x²/(2(b + c)) + c b/2 + ½(b − σ)²``, whose derivative increases; the root
    lies in ``[0, max(σ, 0) + |x|]``.
    """
    ax = abs(x)

    def fprime(b: float) -> float:
        r = ax / (b + c)
        return (b - sigma) + (c - ax * (c / (b + c)) * r) * 0.5

    if fprime(0.0) >= 0.0:
        return 0.0, 0.0
    lo, hi = 0.0, max(sigma, 0.0) + ax
    for _ in range(2000):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if fprime(mid) < 0.0:
            lo = mid
        else:
            hi = mid
    b = 0.5 * (lo + hi)
    return x * (b / (b + c)), b


def prox_perspective_cardano(x: float, sigma: float, c: float) -> tuple[float, float]:
    """The paper's closed form as printed: three cases, Cardano with the discriminant ``Δ``.

    Accurate to about 1e-8 on moderate inputs (cancellation between the two cube roots); the
    library uses a rewritten, cancellation-free form.
    """
    if 2.0 * c * sigma + x * x <= c * c:
        return 0.0, 0.0
    if x == 0.0:
        return 0.0, sigma - c / 2.0
    p = 2.0 * sigma / c + 1.0
    q = -2.0 * abs(x) / c
    delta = (q / 2.0) ** 2 + (p / 3.0) ** 3
    if delta >= 0.0:
        s = np.cbrt(-q / 2.0 + math.sqrt(delta)) + np.cbrt(-q / 2.0 - math.sqrt(delta))
    else:
        r = math.sqrt(-((p / 3.0) ** 3))
        theta = math.acos(max(-1.0, min(1.0, -q / (2.0 * r))))
        s = 2.0 * math.sqrt(-p / 3.0) * math.cos(theta / 3.0)
    s = float(s)
    return x - c * s * math.copysign(1.0, x), sigma + c * (s * s - 1.0) / 2.0


# --------------------------------------------------------------------------------------------
# graphs


def difference_matrix(
    n: int, edges: npt.ArrayLike, weights: npt.ArrayLike | None = None
) -> FloatArray:
    """The dense ``W D`` (``m × N``): row ``e`` is ``w_e (e_head − e_tail)``."""
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    w = np.ones(len(e)) if weights is None else np.asarray(weights, dtype=np.float64)
    d = np.zeros((len(e), n))
    d[np.arange(len(e)), e[:, 0]] = w
    d[np.arange(len(e)), e[:, 1]] = -w
    return d


def components(n: int, edges: npt.ArrayLike) -> list[list[int]]:
    """Connected components (isolated vertices are singletons), each sorted."""
    parent = list(range(n))

    def find(v: int) -> int:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for u, v in np.asarray(edges, dtype=np.int64).reshape(-1, 2).tolist():
        ru, rv = find(u), find(v)
        if ru != rv:
            parent[max(ru, rv)] = min(ru, rv)
    groups: dict[int, list[int]] = {}
    for v in range(n):
        groups.setdefault(find(v), []).append(v)
    return list(groups.values())


def psi_zero(x: npt.ArrayLike, edges: npt.ArrayLike) -> float:
    """``Ψ_0(x) = Σ_c √|c| ‖x_c‖₂`` over the connected components (spec P3)."""
    x = np.asarray(x, dtype=np.float64)
    return float(sum(math.sqrt(len(c)) * np.linalg.norm(x[c]) for c in components(len(x), edges)))


def neighbourhood_groups(n: int, edges: npt.ArrayLike) -> list[list[int]]:
    """The closed neighbourhoods ``{v} + N(v)``, each sorted."""
    nb: list[set[int]] = [{v} for v in range(n)]
    for u, v in np.asarray(edges, dtype=np.int64).reshape(-1, 2).tolist():
        nb[u].add(v)
        nb[v].add(u)
    return [sorted(s) for s in nb]


# --------------------------------------------------------------------------------------------
# losses


def loss_value(loss: str, u: npt.ArrayLike, y: npt.ArrayLike) -> float:
    """``f(u)`` (squared: ``½‖y − u‖²`` without a ``1/J`` factor; labels ±1 otherwise)."""
    u = np.asarray(u, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if loss == "squared":
        return float(0.5 * np.sum((y - u) ** 2))
    if loss == "absolute":
        return float(np.sum(np.abs(y - u)))
    if loss == "logistic":
        return float(np.sum(np.logaddexp(0.0, -y * u)))
    if loss == "hinge":
        return float(np.sum(np.maximum(1.0 - y * u, 0.0)))
    raise ValueError(f"unknown loss {loss!r}")


def _cvx_loss(cp, loss: str, u, y: FloatArray):  # type: ignore[no-untyped-def]
    if loss == "squared":
        return 0.5 * cp.sum_squares(y - u)
    if loss == "absolute":
        return cp.norm1(y - u)
    if loss == "logistic":
        return cp.sum(cp.logistic(-cp.multiply(y, u)))
    if loss == "hinge":
        return cp.sum(cp.pos(1.0 - cp.multiply(y, u)))
    raise ValueError(f"unknown loss {loss!r}")


def _solve(problem) -> None:  # type: ignore[no-untyped-def]
    """Clarabel at tolerances 1e-10; an "inaccurate" finish at these tolerances is accepted
    (its objective is still far inside the 1e-6 the tests compare at) without the warning."""
    cp = cvxpy()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        problem.solve(
            solver=cp.CLARABEL,
            tol_gap_abs=1e-10,
            tol_gap_rel=1e-10,
            tol_feas=1e-10,
            max_iter=500,
        )
    if problem.status not in ("optimal", "optimal_inaccurate"):
        raise RuntimeError(f"CVXPY status {problem.status}")


def _penalty_terms(
    cp, x, n: int, edges: npt.ArrayLike, weights, alpha: float, form: str = "budget"
):  # type: ignore[no-untyped-def]
    """``(½Σ(t + σ), constraints, σ)`` with ``x_n² ≤ t_n σ_n`` and ``‖W D σ‖₁ ≤ α``; with
    ``form="lagrangian"`` the term ``α‖W D σ‖₁`` joins the objective instead (spec §1.3 item 4)."""
    s = cp.Variable(n, nonneg=True)
    t = cp.Variable(n, nonneg=True)
    cons = [cp.SOC(t + s, cp.vstack([2 * x, t - s]), axis=0)]
    pen = 0.5 * cp.sum(t + s)
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    if len(e):
        wd = difference_matrix(n, e, weights)
        if form == "lagrangian":
            pen = pen + alpha * cp.norm1(wd @ s)
        else:
            cons.append(cp.norm1(wd @ s) <= alpha)
    return pen, cons, s


def cvxpy_penalty(
    x: npt.ArrayLike, edges: npt.ArrayLike, alpha: float, weights: npt.ArrayLike | None = None
) -> tuple[float, FloatArray]:
    """``Ψ_α(x)`` and an optimal ``σ`` by the SOCP form (spec §1.3 item 2)."""
    cp = cvxpy()

    x = np.asarray(x, dtype=np.float64)
    pen, cons, s = _penalty_terms(cp, x, len(x), edges, weights, alpha)
    problem = cp.Problem(cp.Minimize(pen), cons)
    _solve(problem)
    return float(problem.value), np.asarray(s.value, dtype=np.float64)


def cvxpy_graph_recovery(
    a: npt.ArrayLike,
    y: npt.ArrayLike,
    edges: npt.ArrayLike,
    alpha: float,
    lam: float,
    loss: str = "squared",
    weights: npt.ArrayLike | None = None,
    form: str = "budget",
) -> tuple[FloatArray, FloatArray, float]:
    """Model (6), ``min_x f(A x) + λ Ψ_α(x)``, jointly in ``(x, σ)``: ``(x, σ, objective)``
    (``form="lagrangian"``: ``Ψ^pen_β`` with ``β = alpha``)."""
    cp = cvxpy()

    a = np.asarray(a, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    n = a.shape[1]
    x = cp.Variable(n)
    pen, cons, s = _penalty_terms(cp, x, n, edges, weights, alpha, form)
    problem = cp.Problem(cp.Minimize(_cvx_loss(cp, loss, a @ x, y) + lam * pen), cons)
    _solve(problem)
    return np.asarray(x.value), np.asarray(s.value), float(problem.value)


def cvxpy_lasso(
    a: npt.ArrayLike, y: npt.ArrayLike, lam: float, loss: str = "squared"
) -> tuple[FloatArray, float]:
    """``min_x f(A x) + λ‖x‖₁``: ``(x, objective)``."""
    cp = cvxpy()

    a = np.asarray(a, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    x = cp.Variable(a.shape[1])
    problem = cp.Problem(cp.Minimize(_cvx_loss(cp, loss, a @ x, y) + lam * cp.norm1(x)))
    _solve(problem)
    return np.asarray(x.value), float(problem.value)


def cvxpy_latent_group_lasso(
    a: npt.ArrayLike,
    y: npt.ArrayLike,
    groups: Sequence[Sequence[int]],
    lam: float,
    group_weights: npt.ArrayLike | None = None,
    loss: str = "squared",
) -> tuple[FloatArray, float]:
    """``min_v f(A Σ_g P_g v_g) + λ Σ_g d_g ‖v_g‖₂`` with one variable per group (``d_g = √|g|``
    by default): ``(x, objective)``."""
    cp = cvxpy()

    a = np.asarray(a, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    n = a.shape[1]
    d = (
        np.sqrt([len(g) for g in groups])
        if group_weights is None
        else np.asarray(group_weights, dtype=np.float64)
    )
    vs = [cp.Variable(len(g)) for g in groups]
    x = 0
    for g, v in zip(groups, vs, strict=True):
        sel = np.zeros((n, len(g)))
        sel[list(g), np.arange(len(g))] = 1.0
        x = x + sel @ v
    pen = sum(dg * cp.norm(v, 2) for dg, v in zip(d, vs, strict=True))
    problem = cp.Problem(cp.Minimize(_cvx_loss(cp, loss, a @ x, y) + lam * pen))
    _solve(problem)
    return np.asarray(x.value, dtype=np.float64), float(problem.value)


def graph_objective(
    a: npt.ArrayLike,
    y: npt.ArrayLike,
    x: npt.ArrayLike,
    edges: npt.ArrayLike,
    alpha: float,
    lam: float,
    loss: str = "squared",
    weights: npt.ArrayLike | None = None,
) -> float:
    """``f(A x) + λ Ψ_α(x)`` with ``Ψ_α`` by :func:`cvxpy_penalty`."""
    a = np.asarray(a, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64)
    return loss_value(loss, a @ x, y) + lam * cvxpy_penalty(x, edges, alpha, weights)[0]


def lambda_max(a: npt.ArrayLike, y: npt.ArrayLike, edges: npt.ArrayLike, alpha: float) -> float:
    """Squared loss: ``‖Aᵀy‖_∞`` for ``α > 0``; ``max_c ‖(Aᵀy)_c‖₂/√|c|`` for ``α = 0`` (P7)."""
    g = np.asarray(a, dtype=np.float64).T @ np.asarray(y, dtype=np.float64)
    if alpha > 0:
        return float(np.max(np.abs(g)))
    return float(max(np.linalg.norm(g[c]) / math.sqrt(len(c)) for c in components(len(g), edges)))


def nmse(x_true: npt.ArrayLike, x_hat: npt.ArrayLike) -> float:
    """``‖x* − x̂‖²/‖x*‖²``."""
    xt = np.asarray(x_true, dtype=np.float64)
    return float(np.sum((xt - np.asarray(x_hat)) ** 2) / np.sum(xt**2))
