"""Many independent solves spread over a Dask cluster.

Items are grouped into chunks, one task per chunk; what all items share (one graph's edges and
costs, a solver's settings) is scattered once to every worker instead of travelling with each
task. Inside a task the chunk's solves run on ``n_jobs`` threads: the Rust solvers release the
GIL, so a worker's threads solve in parallel. Results come back in item order and are the same
objects the one-by-one calls return.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from .._validation import as_count, as_edges, as_float_array, as_optional_count
from ..exceptions import InvalidParameterError
from ..steiner import pcst
from ._shards import Packed, default_n_shards, get_client, release, unpacked

__all__ = ["map_solves", "pcst_graphs", "pcst_many"]


def _run_chunk(func: Packed, items: Packed, shared: Packed, n_jobs: int) -> list[Any]:
    func, items, shared = unpacked(func), unpacked(items), unpacked(shared)
    if n_jobs <= 1 or len(items) <= 1:
        return [func(item, **shared) for item in items]
    with ThreadPoolExecutor(max_workers=n_jobs) as pool:
        return list(pool.map(lambda item: func(item, **shared), items))


def map_solves(
    func: Callable[..., Any],
    items: Iterable[Any],
    *,
    shared: dict[str, Any] | None = None,
    client: Any = None,
    chunk_size: int | None = None,
    n_jobs: int = 1,
) -> list[Any]:
    """``[func(item, **shared) for item in items]``, computed on the cluster in chunks.

    The building block of the batched solvers: one PCST per prize vector, one compression per
    graph (:func:`graphsparse.compression.otc_select`), one recovery fit per response or per
    parameter setting. ``func`` and the items must pickle (Dask uses cloudpickle, so lambdas
    and local functions do).

    Parameters
    ----------
    func : callable
        ``func(item, **shared)``; an exception in any call is raised here.
    items : iterable
        One entry per solve.
    shared : dict, optional
        Keyword arguments common to every call, scattered once to every worker.
    client : distributed.Client, optional
        The cluster (default: the current client).
    chunk_size : int, optional
        Items per task (default: enough for about four tasks per worker thread).
    n_jobs : int, default=1
        Threads per task; use more when ``func`` releases the GIL (the Rust solvers do) and the
        workers have fewer threads than cores.

    Returns
    -------
    list
        The results, in item order.
    """
    chunk_size = as_optional_count(chunk_size, "chunk_size", 1)
    n_jobs = as_count(n_jobs, "n_jobs", 1)
    if not callable(func):
        raise InvalidParameterError(f"func must be callable, got {type(func).__name__}")
    items = list(items)
    if not items:
        return []
    client = get_client(client)
    if chunk_size is None:
        chunk_size = max(1, math.ceil(len(items) / (2 * default_n_shards(client))))
    [shipped] = client.scatter([Packed(dict(shared or {}))], broadcast=True, hash=False)
    packed_func = Packed(func)
    chunks = [items[k : k + chunk_size] for k in range(0, len(items), chunk_size)]
    futures = [
        client.submit(_run_chunk, packed_func, Packed(chunk), shipped, n_jobs, pure=False)
        for chunk in chunks
    ]
    try:
        done = client.gather(futures)
    finally:
        release([*futures, shipped])
    return [r for chunk in done for r in chunk]


def _pcst_one(prizes: np.ndarray, **kw: Any) -> tuple[np.ndarray, np.ndarray]:
    return pcst(kw.pop("edges"), prizes, kw.pop("costs"), **kw)


def _pcst_problem(problem: Sequence[Any], **kw: Any) -> tuple[np.ndarray, np.ndarray]:
    edges, prizes, costs = problem
    return pcst(edges, prizes, costs, **kw)


def _pcst_settings(root: Any, num_clusters: Any, pruning: Any, eps: Any) -> dict[str, Any]:
    """The settings every solve shares, their integers checked here on the driver: a bad one
    is named before any cluster is needed, not raised once per task."""
    return {
        # -1 or a node id; pcst checks it against each graph's nodes
        "root": None if root is None else as_count(root, "root", -1),
        "num_clusters": as_count(num_clusters, "num_clusters"),
        "pruning": pruning,
        "eps": eps,
    }


def pcst_many(
    edges: Any,
    prizes: Any,
    costs: Any,
    root: int | None = -1,
    num_clusters: int = 1,
    pruning: str = "gw",
    eps: float = 1e-6,
    *,
    client: Any = None,
    chunk_size: int | None = None,
    n_jobs: int = 1,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """:func:`graphsparse.pcst` for many prize vectors on one graph, on the cluster.

    The graph (``edges``, ``costs``) is scattered once to every worker; each task solves a
    chunk of prize vectors. Result ``k`` is exactly ``pcst(edges, prizes[k], costs, ...)``.

    Parameters
    ----------
    edges : array_like of int, shape (m, 2)
        The graph, shared by every solve.
    prizes : array_like of float, shape (k, n), or sequence of k prize vectors
        One prize vector per solve.
    costs : array_like of float, shape (m,)
        Edge costs, shared by every solve.
    root, num_clusters, pruning, eps
        As in :func:`graphsparse.pcst`, the same for every solve.
    client, chunk_size, n_jobs
        As in :func:`map_solves`.

    Returns
    -------
    list of (vertices, edge_ids)
        One pair per prize vector, in order.
    """
    e = as_edges(edges, "edges")
    c = as_float_array(costs, "costs")
    rows = [np.asarray(p, dtype=np.float64) for p in prizes]
    shared = {"edges": e, "costs": c, **_pcst_settings(root, num_clusters, pruning, eps)}
    return map_solves(
        _pcst_one, rows, shared=shared, client=client, chunk_size=chunk_size, n_jobs=n_jobs
    )


def pcst_graphs(
    problems: Iterable[tuple[Any, Any, Any]],
    root: int | None = -1,
    num_clusters: int = 1,
    pruning: str = "gw",
    eps: float = 1e-6,
    *,
    client: Any = None,
    chunk_size: int | None = None,
    n_jobs: int = 1,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """:func:`graphsparse.pcst` on many graphs: ``problems`` is a sequence of
    ``(edges, prizes, costs)``; result ``k`` is ``pcst(*problems[k], ...)``.

    Parameters are as in :func:`pcst_many`; each problem travels with its chunk.
    """
    shared = _pcst_settings(root, num_clusters, pruning, eps)
    return map_solves(
        _pcst_problem,
        list(problems),
        shared=shared,
        client=client,
        chunk_size=chunk_size,
        n_jobs=n_jobs,
    )
