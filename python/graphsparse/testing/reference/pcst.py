"""Naive references for the prize-collecting Steiner forest (brute force, for tiny graphs).

Size and cost: :func:`optimum` enumerates every vertex subset and, for each, the cheapest
forest spanning it with ``g`` trees: ``O(2^n · poly)``. Up to about 10 vertices
(12 takes seconds).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations

import numpy as np
import numpy.typing as npt

__all__ = ["forest_trees", "objective", "optimum"]


def _find(parent: list[int] | dict[int, int], x: int) -> int:
    """The root of ``x`` in a union-find forest, halving the path on the way."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def objective(
    prizes: npt.ArrayLike, costs: npt.ArrayLike, nodes: Sequence[int], edge_ids: Sequence[int]
) -> float:
    """PCSF objective ``c(F) + π(V \\ N)``, summed with ``math.fsum``."""
    p = np.asarray(prizes, dtype=np.float64)
    c = np.asarray(costs, dtype=np.float64)
    keep = np.zeros(len(p), dtype=bool)
    keep[list(nodes)] = True
    return math.fsum(c[list(edge_ids)]) + math.fsum(p[~keep])


def forest_trees(n: int, edges: npt.ArrayLike, nodes: Sequence[int], edge_ids: Sequence[int]):
    """Number of trees of ``(nodes, edges[edge_ids])``, or ``None`` if it is not a forest on
    exactly those nodes (an edge leaves ``nodes``, or an edge closes a cycle)."""
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    inside = set(int(v) for v in nodes)
    if len(inside) != len(nodes):
        return None
    parent = list(range(n))
    for k in edge_ids:
        u, v = int(e[k, 0]), int(e[k, 1])
        if u not in inside or v not in inside:
            return None
        ru, rv = _find(parent, u), _find(parent, v)
        if ru == rv:
            return None
        parent[ru] = rv
    return len(nodes) - len(edge_ids)


def _min_forest_cost(subset: Sequence[int], edges: np.ndarray, costs: np.ndarray, g: int):
    """Cheapest forest spanning ``subset`` with exactly ``g`` trees (Kruskal truncated at
    ``|subset| - g`` edges, optimal by the matroid greedy property), or ``None``."""
    inside = set(subset)
    need = len(subset) - g
    if need < 0:
        return None
    order = sorted(
        (float(costs[k]), k)
        for k in range(len(edges))
        if edges[k, 0] in inside and edges[k, 1] in inside and edges[k, 0] != edges[k, 1]
    )
    parent = {v: v for v in subset}
    total, used = 0.0, 0
    for cost, k in order:
        if used == need:
            break
        ru, rv = _find(parent, int(edges[k, 0])), _find(parent, int(edges[k, 1]))
        if ru != rv:
            parent[ru] = rv
            total += cost
            used += 1
    return total if used == need else None


def optimum(
    edges: npt.ArrayLike,
    prizes: npt.ArrayLike,
    costs: npt.ArrayLike,
    num_clusters: int = 1,
    root: int = -1,
) -> float:
    """``OPT_g``: the minimum over node subsets ``S`` of the cheapest forest spanning ``S`` with
    exactly ``g`` trees plus the prizes outside ``S`` (rooted: ``g = 1`` and ``root ∈ S``).

    Exponential in ``n``; meant for ``n <= 10``.
    """
    p = np.asarray(prizes, dtype=np.float64)
    c = np.asarray(costs, dtype=np.float64)
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    n = len(p)
    g = 1 if root >= 0 else num_clusters
    best = np.inf
    for size in range(max(g, 1), n + 1):
        for subset in combinations(range(n), size):
            if root >= 0 and root not in subset:
                continue
            forest = _min_forest_cost(subset, e, c, g)
            if forest is None:
                continue
            chosen = set(subset)
            outside = math.fsum(float(p[i]) for i in range(n) if i not in chosen)
            best = min(best, forest + outside)
    return float(best)
