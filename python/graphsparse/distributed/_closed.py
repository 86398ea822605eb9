"""The closed or maximal part of a complete frequent-pattern set, on the driver.

The sharded search is level-wise, so it cannot prune inside the search as the single-machine
CloseGraph does; it finds every frequent pattern, then keeps the closed (maximal) ones. A
frequent pattern ``P`` of ``k`` edges has a frequent super-pattern exactly when it has one of
``k + 1`` edges (any super-pattern contains a connected one with one edge more, as frequent),
and every connected ``k``-edge subgraph of a ``(k + 1)``-edge pattern ``Q`` is ``Q`` less one
edge: an edge on a cycle (the vertices stay), or a pendant edge with its leaf. So each pattern
of the set names its one-edge-smaller sub-patterns by their minimum DFS codes, and a
sub-pattern is not maximal, and not closed when it has the same support. Patterns of exactly
``max_size`` edges have no super-pattern in the set, which is the single-machine miner's rule
under ``max_size``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from .. import _graphsparse as _rs  # type: ignore[attr-defined]
from ..mining import Pattern

#: a DFS code in label ids: (i, j, l_i, l_ij, l_j) per edge
IdCode = tuple[tuple[int, int, int, int, int], ...]


def _bridges(n: int, edges: list[tuple[int, int]]) -> set[int]:
    """The positions of the bridges of a connected multigraph-free graph (Tarjan's lowpoints,
    iteratively)."""
    adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for e, (a, b) in enumerate(edges):
        adj[a].append((b, e))
        adj[b].append((a, e))
    order = [-1] * n
    low = [0] * n
    out: set[int] = set()
    order[0] = low[0] = 0
    seen = 1
    stack = [(0, -1, iter(adj[0]))]
    while stack:
        v, via, it = stack[-1]
        for w, e in it:
            if e == via:
                continue
            if order[w] < 0:
                order[w] = low[w] = seen
                seen += 1
                stack.append((w, e, iter(adj[w])))
                break
            low[v] = min(low[v], order[w])
        else:
            stack.pop()
            if stack:
                u = stack[-1][0]
                low[u] = min(low[u], low[v])
                if low[v] > order[u]:
                    out.add(via)
    return out


def _one_edge_less(code: IdCode) -> Iterator[IdCode]:
    """The minimum DFS codes of the connected subgraphs of ``code``'s pattern with one edge
    fewer (a pattern of two or more edges; repeats are possible)."""
    n = 1 + max(max(i, j) for i, j, *_ in code)
    labels = [0] * n
    degree = [0] * n
    for i, j, li, _, lj in code:
        labels[i], labels[j] = li, lj
        degree[i] += 1
        degree[j] += 1
    edges = [(i, j) for i, j, *_ in code]
    bridges = _bridges(n, edges)
    for skip, (a, b) in enumerate(edges):
        if skip not in bridges:
            keep = range(n)  # an edge on a cycle: every vertex stays
        elif degree[a] == 1 or degree[b] == 1:
            leaf = a if degree[a] == 1 else b  # a pendant edge goes with its leaf
            keep = [v for v in range(n) if v != leaf]
        else:
            continue  # a bridge between two larger parts: no connected subgraph is left
        new = {v: k for k, v in enumerate(keep)}
        rest = code[:skip] + code[skip + 1 :]
        rows = _rs.min_dfs_code(
            np.array([labels[v] for v in keep], dtype=np.int64),
            np.array([(new[i], new[j]) for i, j, *_ in rest], dtype=np.int64),
            np.array([e[3] for e in rest], dtype=np.int64),
        )
        yield tuple(map(tuple, rows.tolist()))


def closed_part(
    patterns: Sequence[Pattern], kind: str, vertex_values: Sequence[Any], edge_values: Sequence[Any]
) -> list[Pattern]:
    """The patterns of a complete frequent set (in its order) that are closed
    (``kind="closed"``) or maximal (``kind="maximal"``) within it."""
    vid = {v: k for k, v in enumerate(vertex_values)}
    eid = {v: k for k, v in enumerate(edge_values)}
    where: dict[IdCode, int] = {}
    single: dict[int, int] = {}
    codes: list[IdCode | None] = []
    for k, p in enumerate(patterns):
        if not p.dfs_code:
            single[vid[p.vertex_labels[0]]] = k
            codes.append(None)
            continue
        code = tuple((i, j, vid[li], eid[lij], vid[lj]) for i, j, li, lij, lj in p.dfs_code)
        where[code] = k
        codes.append(code)
    # a pattern of k + 1 edges can only make one of k edges not closed if some pattern of k
    # edges has its support
    supports = {(len(c) if c else 0, p.support) for p, c in zip(patterns, codes, strict=True)}
    covered = np.zeros(len(patterns), dtype=bool)
    for q, code in zip(patterns, codes, strict=True):
        if code is None or (kind == "closed" and (len(code) - 1, q.support) not in supports):
            continue
        if len(code) == 1:
            _, _, li, _, lj = code[0]
            subs = [single.get(li), single.get(lj)]
        else:
            subs = [where.get(c) for c in _one_edge_less(code)]
        for k in subs:
            # every sub-pattern of a frequent pattern is frequent, so it is in the set (single
            # vertices only when they were asked for)
            if k is not None and (kind == "maximal" or patterns[k].support == q.support):
                covered[k] = True
    return [p for p, c in zip(patterns, covered, strict=True) if not c]
