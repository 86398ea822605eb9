"""The partition scheme's side on a worker, and its thresholds.

See :mod:`graphsparse.distributed.mining` for the scheme and when it runs.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..exceptions import TruncatedSearchWarning
from ..mining import Pattern
from ..mining import mine_subgraphs as _mine_local
from ..mining._search import _occurrences

#: A DFS code in label values: ``(i, j, l_i, l_ij, l_j)`` per edge.
Code = tuple[tuple[Any, Any, Any, Any, Any], ...]
_NO_IDS = np.zeros(0, dtype=np.int64)

#: ``scheme="auto"`` runs the partition scheme only when every non-empty shard's local
#: threshold is at least this (small thresholds propose nearly every subgraph of a shard).
PARTITION_MIN_THRESHOLD = 20
#: ... and only while every local search stays within this many tree nodes.
PARTITION_NODE_BUDGET = 1_000_000
_SCHEMES = ("auto", "level-wise", "partition")


def local_thresholds(sizes: Sequence[int], min_support: int) -> list[int]:
    """Partition-scheme threshold ``ceil(min_support · n_i / n)`` of each shard (0 if empty).

    Exact integer arithmetic, so no rounding can push a threshold above its true value.

    >>> local_thresholds([10, 0, 5, 1], 6)
    [4, 0, 2, 1]
    """
    n = sum(sizes)
    return [(min_support * n_i + n - 1) // n if n_i else 0 for n_i in sizes]


class _LocalMined:
    """A shard's locally frequent patterns: DFS code (label values) -> local graph ids."""

    __slots__ = ("cut", "ids", "nodes_visited")

    def __init__(self, ids: dict[Code, np.ndarray], nodes_visited: int, cut: bool) -> None:
        self.ids, self.nodes_visited, self.cut = ids, nodes_visited, cut


class _Counted:
    """A shard's exact local graph ids of every candidate (kept on the worker)."""

    __slots__ = ("ids",)

    def __init__(self, ids: list[np.ndarray]) -> None:
        self.ids = ids


def _ids_size(ids: Any) -> int:
    return sum(a.nbytes + 100 for a in ids)


def _register_partition_sizes() -> None:
    from dask.sizeof import sizeof

    sizeof.register(_LocalMined)(lambda m: _ids_size(m.ids.values()))
    sizeof.register(_Counted)(lambda c: _ids_size(c.ids))


_register_partition_sizes()


def _phase1(
    ds: Any, threshold: int, max_size: int | None, n_jobs: int, budget: int | None
) -> _LocalMined:
    with warnings.catch_warnings():  # a cut search is reported in the result, not warned
        warnings.simplefilter("ignore", TruncatedSearchWarning)
        result = _mine_local(ds, threshold, max_size, n_jobs, max_nodes=budget)
    ids = {} if result.truncated else {p.dfs_code: p.graph_ids for p in result}
    return _LocalMined(ids, result.nodes_visited, result.truncated)


def _phase1_summary(local: _LocalMined) -> tuple[list[Code], int, bool]:
    return list(local.ids), local.nodes_visited, local.cut


def _phase2(ds: Any, local: _LocalMined | None, codes: list[Code], n_jobs: int) -> _Counted:
    """Exact local support of every candidate: the shard's own patterns, the rest matched."""
    known = local.ids if local is not None else {}
    todo = [k for k, c in enumerate(codes) if c not in known]
    out = [known.get(c, _NO_IDS) for c in codes]
    if todo:
        probes = [Pattern(codes[k], 0, _NO_IDS) for k in todo]
        for k, ids in zip(todo, _occurrences(probes, ds, n_jobs), strict=True):
            out[k] = np.asarray(ids, dtype=np.int64)
    return _Counted(out)


def _phase2_counts(counted: _Counted) -> np.ndarray:
    return np.fromiter((len(ids) for ids in counted.ids), dtype=np.int64, count=len(counted.ids))


def _phase3(counted: _Counted, keep: np.ndarray) -> list[np.ndarray]:
    """Local graph ids of the kept candidates, in the narrowest unsigned dtype (fewer bytes)."""
    n = max((int(counted.ids[k][-1]) for k in keep.tolist() if len(counted.ids[k])), default=0)
    dtype = np.min_scalar_type(n)
    return [counted.ids[k].astype(dtype) for k in keep.tolist()]
