"""The closed or maximal part of a complete frequent-pattern set, on the driver.

The sharded search is level-wise, so it cannot prune inside the search as the single-machine
CloseGraph does; it finds every frequent pattern, then keeps the closed (maximal) ones. A
frequent pattern ``P`` of ``k`` edges has a frequent super-pattern exactly when it has one of
``k + 1`` edges (any super-pattern contains a connected one with one edge more, as frequent),
and every connected ``k``-edge subgraph of a ``(k + 1)``-edge pattern ``Q`` is ``Q`` less one
edge: an edge on a cycle (the vertices stay), or a pendant edge with its leaf. So each pattern
of the set names its one-edge-smaller sub-patterns by their minimum DFS codes (the gSpan
crate's ``one_edge_smaller``), and a sub-pattern is not maximal, and not closed when it has
the same support. Patterns of exactly
``max_size`` edges have no super-pattern in the set, which is the single-machine miner's rule
under ``max_size``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import _graphsparse as _rs  # type: ignore[attr-defined]
from ..mining import Pattern


def closed_part(
    patterns: Sequence[Pattern],
    kind: str,
    vertex_values: Sequence[Any],
    edge_values: Sequence[Any],
    n_jobs: int = 1,
) -> list[Pattern]:
    """The patterns of a complete frequent set (in its order) that are closed
    (``kind="closed"``) or maximal (``kind="maximal"``) within it; the sub-pattern codes are
    computed on ``n_jobs`` threads of the driver."""
    vid = {v: k for k, v in enumerate(vertex_values)}
    eid = {v: k for k, v in enumerate(edge_values)}
    single: dict[int, int] = {}
    codes: list[np.ndarray] = []
    edge_patterns: list[int] = []
    for k, p in enumerate(patterns):
        if p.dfs_code:
            edge_patterns.append(k)
            codes.append(
                np.array(
                    [(i, j, vid[li], eid[lij], vid[lj]) for i, j, li, lij, lj in p.dfs_code],
                    dtype=np.int64,
                )
            )
        else:
            single[vid[p.vertex_labels[0]]] = k
    # every pattern's code, and every one-edge-smaller subgraph's, as bytes of int64 rows
    where = {c.tobytes(): k for c, k in zip(codes, edge_patterns, strict=True)}
    covered = np.zeros(len(patterns), dtype=bool)

    def mark(k: int | None, q: Pattern) -> None:
        # every sub-pattern of a frequent pattern is frequent, so it is in the set (single
        # vertices only when they were asked for)
        if k is not None and (kind == "maximal" or patterns[k].support == q.support):
            covered[k] = True

    for c, k in zip(codes, edge_patterns, strict=True):
        if len(c) == 1:
            mark(single.get(int(c[0, 2])), patterns[k])
            mark(single.get(int(c[0, 4])), patterns[k])
    if codes:
        ptr = np.concatenate([[0], np.cumsum([len(c) for c in codes])]).astype(np.int64)
        rows, owner = _rs.one_edge_smaller_codes(np.concatenate(codes), ptr, n_jobs)
        start = 0
        for q in owner.tolist():
            size = int(ptr[q + 1] - ptr[q]) - 1
            mark(where.get(rows[start : start + size].tobytes()), patterns[edge_patterns[q]])
            start += size
    return [p for p, c in zip(patterns, covered, strict=True) if not c]
