"""Naive references for graph optimal transport and OT graph compression (spec §2-§8).

Each function follows the specification's formulas literally with a generic solver (HiGHS
through ``scipy.optimize.linprog``, SLSQP, POT, dense shortest paths) or brute force, so that
the Rust kernels are checked against something that shares none of their algorithms. Small
inputs only.

Size and cost: the transport LPs have one variable per edge direction (dense HiGHS through
SciPy), the distance matrix is dense ``n × n``, :func:`best_subset` tries all ``C(n, k)``
subsets (each a QP): graphs of up to about 10 vertices. :func:`kantorovich_emd2` needs POT
(extra ``bench``), :func:`value_of_set` and :func:`best_subset` need highspy (extra ``highs``).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.optimize import linprog, minimize
from scipy.sparse.csgraph import shortest_path

from ..._optional import require

__all__ = [
    "incidence",
    "LpResult",
    "transport_primal",
    "transport_dual",
    "distance_matrix",
    "kantorovich_emd2",
    "tree_closed_form",
    "project_lipschitz_slsqp",
    "project_capped_simplex_bisect",
    "degree_prior",
    "value_of_set",
    "best_subset",
    "induced_subgraph",
    "wl_subtree_kernel",
    "wl_subtree_features",
]

FloatArray = npt.NDArray[np.float64]
Edges = Sequence[tuple[int, int]]


def incidence(n: int, edges: Edges, signed: bool = True) -> FloatArray:
    """The dense ``m × n`` incidence matrix: ``+1`` at the head (second endpoint), ``-1`` at the
    tail when ``signed``; the paper's unsigned matrix (``+1`` at both ends) otherwise."""
    f = np.zeros((len(edges), n))
    for e, (u, v) in enumerate(edges):
        f[e, v] += 1.0
        f[e, u] += -1.0 if signed else 1.0
    return f


@dataclass
class LpResult:
    """Outcome of an LP: ``status`` is ``"optimal"``, ``"infeasible"`` or ``"unbounded"``."""

    status: str
    value: float
    x: FloatArray | None


# tight tolerances: the masses are small and HiGHS' defaults (1e-7) show in the value
_HIGHS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


def _status(res: object) -> str:
    return {0: "optimal", 2: "infeasible", 3: "unbounded"}.get(res.status, f"status {res.status}")  # type: ignore[attr-defined]


def _transport_lp(solve: Callable[..., LpResult]) -> Callable[..., LpResult]:
    """The arguments both transport LPs take, read once: ``solve(f, c, d, b)`` gets the incidence
    matrix, the costs, the directed-edge mask and ``ρ1 − ρ0``; the LP keeps ``solve``'s name and
    docstring (not ``functools.wraps``: its ``__wrapped__`` would show ``solve``'s signature)."""

    def lp(
        n: int,
        edges: Edges,
        costs: Sequence[float],
        rho0: Sequence[float],
        rho1: Sequence[float],
        directed: Sequence[bool] | None = None,
        signed: bool = True,
    ) -> LpResult:
        m = len(edges)
        d = np.zeros(m, dtype=bool) if directed is None else np.asarray(directed, dtype=bool)
        b = np.asarray(rho1, float) - np.asarray(rho0, float)
        return solve(incidence(n, edges, signed), np.asarray(costs, dtype=float), d, b)

    lp.__name__ = lp.__qualname__ = solve.__name__
    lp.__doc__ = solve.__doc__
    return lp


@_transport_lp
def transport_primal(f: FloatArray, c: FloatArray, d: np.ndarray, b_eq: FloatArray) -> LpResult:
    """Problem (1') / §2.3: ``min c·(J⁺ + J⁻)`` s.t. ``Fᵀ(J⁺ − J⁻) = ρ1 − ρ0``, ``J± ≥ 0``,
    ``J⁻ = 0`` on directed edges. ``x`` is ``[J⁺, J⁻]``."""
    m = len(f)
    a_eq = np.hstack([f.T, -f.T])
    bounds = [(0, None)] * m + [(0, 0) if d[e] else (0, None) for e in range(m)]
    if m == 0:
        ok = np.allclose(b_eq, 0.0)
        return LpResult("optimal" if ok else "infeasible", 0.0 if ok else np.inf, np.zeros(0))
    res = linprog(
        np.concatenate([c, c]), A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs", options=_HIGHS
    )
    st = _status(res)
    return LpResult(st, float(res.fun) if st == "optimal" else np.inf, res.x)


@_transport_lp
def transport_dual(f: FloatArray, c: FloatArray, d: np.ndarray, b: FloatArray) -> LpResult:
    """Problem (2'): ``max tᵀ(ρ1 − ρ0)`` s.t. ``|F t| ≤ c`` (``F t ≤ c`` on directed edges)."""
    m, n = f.shape
    rows = [f, -f[~d]]
    a_ub = np.vstack(rows) if m else np.zeros((0, n))
    b_ub = np.concatenate([c, c[~d]]) if m else np.zeros(0)
    res = linprog(
        -b,
        A_ub=a_ub if m else None,
        b_ub=b_ub if m else None,
        bounds=[(None, None)] * n,
        method="highs",
        options=_HIGHS,
    )
    st = _status(res)
    return LpResult(st, -float(res.fun) if st == "optimal" else np.inf, res.x)


def distance_matrix(n: int, edges: Edges, costs: Sequence[float]) -> FloatArray:
    """All-pairs shortest-path distances ``d_c`` of an undirected graph (dense)."""
    w = np.full((n, n), np.inf)
    for (u, v), c in zip(edges, costs, strict=True):
        if u != v:
            w[u, v] = w[v, u] = min(w[u, v], c)
    np.fill_diagonal(w, 0.0)
    return shortest_path(np.where(np.isinf(w), 0.0, w), method="D", directed=False)


def kantorovich_emd2(
    n: int, edges: Edges, costs: Sequence[float], rho0: Sequence[float], rho1: Sequence[float]
) -> float:
    """``W`` as POT's exact EMD with the shortest-path metric (Beckmann = Kantorovich, §2.2)."""
    ot = require("ot", "bench", "kantorovich_emd2")

    m = distance_matrix(n, edges, costs)
    a, b = np.asarray(rho0, float), np.asarray(rho1, float)
    return float(ot.emd2(a / a.sum(), b / b.sum(), m))


def tree_closed_form(
    n: int, edges: Edges, costs: Sequence[float], rho0: Sequence[float], rho1: Sequence[float]
) -> float:
    """On a tree, ``W = Σ_e c(e) |Σ_{side(e)} (ρ1 − ρ0)|`` (§2.2): no LP."""
    diff = np.asarray(rho1, float) - np.asarray(rho0, float)
    total = 0.0
    for e, ((_, v), c) in enumerate(zip(edges, costs, strict=True)):
        rest = [x for i, x in enumerate(edges) if i != e]
        side = _component(n, rest, v)
        total += c * abs(diff[list(side)].sum())
    return total


def _component(n: int, edges: Edges, start: int) -> set[int]:
    adj: dict[int, list[int]] = {v: [] for v in range(n)}
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    seen, stack = {start}, [start]
    while stack:
        x = stack.pop()
        for y in adj[x]:
            if y not in seen:
                seen.add(y)
                stack.append(y)
    return seen


def project_lipschitz_slsqp(
    n: int,
    edges: Edges,
    costs: Sequence[float],
    y: Sequence[float],
    directed: Sequence[bool] | None = None,
) -> FloatArray:
    """``argmin ½‖t − y‖²`` s.t. ``|F t| ≤ c`` (one-sided on directed edges), by SLSQP."""
    f = incidence(n, edges)
    c = np.asarray(costs, float)
    d = np.zeros(len(edges), dtype=bool) if directed is None else np.asarray(directed, bool)
    y = np.asarray(y, float)
    if len(edges) == 0:
        return y.copy()
    a = np.vstack([-f, f[~d]])
    b = np.concatenate([c, c[~d]])
    res = minimize(
        lambda t: 0.5 * np.sum((t - y) ** 2),
        y.copy(),
        jac=lambda t: t - y,
        constraints=[{"type": "ineq", "fun": lambda t: b + a @ t, "jac": lambda t: a}],
        method="SLSQP",
        options={"ftol": 1e-15, "maxiter": 1000},
    )
    return np.asarray(res.x, dtype=float)


def project_capped_simplex_bisect(z: Sequence[float], k: float) -> FloatArray:
    """``clip(z − τ, 0, 1)`` with ``τ ≥ 0`` found by bisection (§4.1)."""
    z = np.asarray(z, float)
    x = np.clip(z, 0.0, 1.0)
    if x.sum() <= k:
        return x
    lo, hi = 0.0, float(z.max())
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if np.clip(z - mid, 0.0, 1.0).sum() > k:
            lo = mid
        else:
            hi = mid
    return np.clip(z - 0.5 * (lo + hi), 0.0, 1.0)


def degree_prior(n: int, edges: Edges) -> FloatArray:
    """``ρ0 ∝ deg`` after dropping loops and repeats; uniform without edges (§7)."""
    es = {(min(u, v), max(u, v)) for u, v in edges if u != v}
    deg = np.zeros(n)
    for u, v in es:
        deg[u] += 1
        deg[v] += 1
    return deg / deg.sum() if deg.sum() > 0 else np.full(n, 1.0 / n)


def _qp_highs(
    cost: FloatArray,
    hess_diag: FloatArray,
    a_eq: FloatArray,
    b_eq: FloatArray,
    upper: FloatArray,
) -> float:
    """``min costᵀx + ½ Σ hess_diag·x²`` s.t. ``a_eq x = b_eq``, ``0 ≤ x ≤ upper`` (HiGHS QP)."""
    highspy = require("highspy", "highs", "value_of_set")

    nv = cost.size
    lp = highspy.HighsLp()
    lp.num_col_ = nv
    lp.num_row_ = a_eq.shape[0]
    lp.col_cost_ = cost
    lp.col_lower_ = np.zeros(nv)
    lp.col_upper_ = upper
    lp.row_lower_ = b_eq
    lp.row_upper_ = b_eq
    start, index, value = [0], [], []
    for j in range(nv):
        rows = np.nonzero(a_eq[:, j])[0]
        index.extend(int(r) for r in rows)
        value.extend(float(a_eq[r, j]) for r in rows)
        start.append(len(index))
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = start
    lp.a_matrix_.index_ = index
    lp.a_matrix_.value_ = value
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("dual_feasibility_tolerance", 1e-10)
    h.setOptionValue("primal_feasibility_tolerance", 1e-10)
    h.passModel(lp)
    hs = highspy.HighsHessian()
    hs.dim_ = nv
    hs.format_ = highspy.HessianFormat.kTriangular
    nz = np.nonzero(hess_diag)[0]
    starts = np.searchsorted(nz, np.arange(nv + 1))
    hs.start_ = [int(x) for x in starts]
    hs.index_ = [int(x) for x in nz]
    hs.value_ = [float(hess_diag[x]) for x in nz]
    h.passHessian(hs)
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:  # pragma: no cover
        raise RuntimeError(f"HiGHS QP: {h.modelStatusToString(h.getModelStatus())}")
    return float(h.getInfo().objective_function_value)


def value_of_set(
    n: int,
    edges: Edges,
    costs: Sequence[float],
    rho0: Sequence[float],
    eps: Sequence[float],
    lam: float = 1.0,
) -> float:
    """``V(ε)`` as the primal perspective QP of §3.4, by HiGHS:
    ``min c·(J⁺ + J⁻) + (λ/2) Σ_{ε>0} ρ1²/ε`` s.t. ``Fᵀ(J⁺ − J⁻) = ρ1 − ρ0``, ``ρ1 ∈ Δ``,
    ``ρ1 = 0`` where ``ε = 0``. For ``ε = 1_S`` this is problem (3) with support ``S``."""
    m = len(edges)
    f = incidence(n, edges)
    c = np.asarray(costs, float)
    e = np.asarray(eps, float)
    r0 = np.asarray(rho0, float)
    pos = e > 0
    a = np.zeros((n + 1, 2 * m + n))
    a[:n, :m] = f.T
    a[:n, m : 2 * m] = -f.T
    a[:n, 2 * m :] = -np.eye(n)
    a[n, 2 * m :] = 1.0
    b = np.concatenate([-r0, [1.0]])
    hess = np.concatenate([np.zeros(2 * m), np.where(pos, lam / np.where(pos, e, 1.0), 0.0)])
    upper = np.concatenate([np.full(2 * m, np.inf), np.where(pos, np.inf, 0.0)])
    return _qp_highs(np.concatenate([c, c, np.zeros(n)]), hess, a, b, upper)


def best_subset(
    n: int, edges: Edges, costs: Sequence[float], rho0: Sequence[float], k: int, lam: float = 1.0
) -> tuple[float, tuple[int, ...]]:
    """Brute force over every ``|S| = k``: the exact optimum of problem (3) (tiny ``n``)."""
    best = (np.inf, ())
    for s in itertools.combinations(range(n), k):
        ind = np.zeros(n)
        ind[list(s)] = 1.0
        v = value_of_set(n, edges, costs, rho0, ind, lam)
        if v < best[0] - 1e-12:
            best = (v, s)
    return best


def induced_subgraph(
    n: int, edges: Edges, keep: Sequence[int]
) -> tuple[list[int], list[tuple[int, int]]]:
    """The vertices kept (sorted) and the edges with both ends kept, renumbered (§6.2)."""
    ks = sorted(set(keep))
    new = {v: i for i, v in enumerate(ks)}
    return ks, [(new[u], new[v]) for u, v in edges if u in new and v in new]


def wl_subtree_kernel(
    graphs: Sequence[tuple[Sequence[int], Edges]], h: int = 5
) -> npt.NDArray[np.int64]:
    """The WL subtree kernel (Shervashidze et al. 2011) by dictionaries, as the textbook states
    it: level 0 counts vertex labels; level ``i`` relabels each vertex by (own label, sorted
    neighbour labels) through a dictionary shared by all graphs; ``K = Σ_i ⟨φ_i, φ_i'⟩``."""
    labels = [list(lab) for lab, _ in graphs]
    adj = []
    for lab, es in graphs:
        a: list[list[int]] = [[] for _ in lab]
        for u, v in es:
            a[u].append(v)
            a[v].append(u)
        adj.append(a)
    k = np.zeros((len(graphs), len(graphs)), dtype=np.int64)
    for level in range(h + 1):
        if level > 0:
            table: dict[tuple[object, ...], int] = {}
            labels = [
                [
                    table.setdefault((lab[v], *sorted(lab[u] for u in a[v])), len(table))
                    for v in range(len(lab))
                ]
                for lab, a in zip(labels, adj, strict=True)
            ]
        counts = [Counter(lab) for lab in labels]
        for i, ci in enumerate(counts):
            for j, cj in enumerate(counts):
                k[i, j] += sum(x * cj.get(key, 0) for key, x in ci.items())
    return k


def wl_subtree_features(
    graphs: Sequence[
        tuple[Sequence[object], Edges] | tuple[Sequence[object], Edges, Sequence[object]]
    ],
    h: int = 5,
    edge_labels: bool = False,
) -> npt.NDArray[np.int64]:
    """The WL subtree feature matrix, refinement written out: one row per graph, the columns
    of level 0, then level 1, … ; within a level, a column per distinct label in order of
    first occurrence (graph by graph, vertex by vertex).

    A graph is ``(vertex labels, edges)`` or ``(vertex labels, edges, edge labels)``. Level
    ``i ≥ 1`` relabels vertex ``v`` by the tuple (its label, sorted neighbour labels); with
    ``edge_labels`` the neighbours enter as sorted ``(edge label, neighbour label)`` pairs
    instead. Labels must be mutually comparable within their kind (ints, or strings)."""
    labels: list[list[object]] = [list(g[0]) for g in graphs]
    nbrs: list[list[list[tuple[object, int]]]] = []
    for g in graphs:
        lab, es = g[0], g[1]
        elab = g[2] if len(g) > 2 else [0] * len(es)  # type: ignore[misc]
        a: list[list[tuple[object, int]]] = [[] for _ in lab]
        for (u, v), e in zip(es, elab, strict=True):
            a[u].append((e, v))
            a[v].append((e, u))
        nbrs.append(a)
    blocks: list[npt.NDArray[np.int64]] = []
    for level in range(h + 1):
        table: dict[object, int] = {}
        new_labels = []
        for lab, a in zip(labels, nbrs, strict=True):
            out = []
            for v in range(len(lab)):
                if level == 0:
                    sig: object = lab[v]
                elif edge_labels:
                    sig = (lab[v], tuple(sorted((e, lab[u]) for e, u in a[v])))
                else:
                    sig = (lab[v], tuple(sorted(lab[u] for _, u in a[v])))
                out.append(table.setdefault(sig, len(table)))
            new_labels.append(out)
        block = np.zeros((len(graphs), len(table)), dtype=np.int64)
        for gi, out in enumerate(new_labels):
            for c in out:
                block[gi, c] += 1
        blocks.append(block)
        labels = new_labels  # type: ignore[assignment]
    return np.hstack(blocks)
