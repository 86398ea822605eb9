"""The searches: gSpan's frequent connected subgraphs (parallel, in Rust), a graph's minimum DFS
code, and the graphs of a dataset that contain given patterns."""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Sequence
from typing import Any, Literal

import networkx as nx
import numpy as np
import scipy.sparse as sp

from .. import _graphsparse as _rs
from .._dataset import GraphDataset, as_dataset
from .._progress import run_reported
from .._threads import resolve_n_jobs
from .._validation import as_flag, as_optional_count, min_support_count
from ..exceptions import (
    BudgetExceededError,
    InvalidGraphError,
    InvalidParameterError,
    TruncatedSearchWarning,
)
from ._pattern import _ARROWS, DfsEdge, MiningResult, Pattern, _decode_edge, _patterns_from_arrays


def mine_subgraphs(
    data: GraphDataset | Sequence[nx.Graph],
    min_support: int | float,
    max_size: int | None = None,
    n_jobs: int | None = None,
    *,
    single_vertices: bool = False,
    closed: bool = False,
    maximal: bool = False,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    max_patterns: int | None = None,
    counts: str | None = None,
    strict: bool = False,
    verbose: bool | int | str = False,
) -> MiningResult:
    """Enumerate every connected subgraph pattern occurring in at least ``min_support`` graphs
    (or only the closed or the maximal ones).

    gSpan (Yan & Han 2002) in Rust: minimum DFS codes, rightmost-path extension, rayon-parallel
    over subtrees. The output does not depend on ``n_jobs``, on vertex numbering or on graph order
    (``graph_ids`` follow the order given).

    Parameters
    ----------
    data : GraphDataset or sequence of networkx.Graph
        The graphs. networkx graphs are read by :func:`~graphsparse.datasets.from_networkx`:
        ``"label"`` attributes on vertices and edges, or none at all (every label 0). Directed
        graphs (a directed dataset, or ``networkx.DiGraph`` objects) give directed patterns:
        weakly connected subgraphs whose arcs keep their direction
        (:attr:`~graphsparse.mining.Pattern.directed`).
    min_support : int or float
        An ``int`` is an absolute number of graphs in ``[1, n_graphs]``; a ``float`` in
        ``(0, 1]`` is a fraction of the graphs, rounded up.
    max_size : int, optional
        Largest pattern size in edges (``None``: unbounded).
    n_jobs : int, optional
        Worker threads (``None``: all cores, capped by ``GRAPHSPARSE_NUM_THREADS``).
    single_vertices : bool, default=False
        Also report single-vertex patterns (one per frequent vertex label), first.
    closed : bool, default=False
        Report only the closed patterns: those with no frequent super-pattern of the same
        support (CloseGraph, Yan & Han 2003). A lossless summary: the support of any frequent
        pattern is the largest support of a closed pattern that contains it. Computed inside
        the search (each node tests its one-edge extensions, and CloseGraph's early
        termination skips subtrees that hold no closed pattern when ``max_size`` is
        ``None``), not by filtering the full result afterwards.
    maximal : bool, default=False
        Report only the maximal patterns: those with no frequent super-pattern at all (a
        lossy, smaller subset of the closed ones). Not together with ``closed``. With
        ``max_size``, both sets are taken among the patterns of at most ``max_size`` edges
        (so a frequent pattern of exactly ``max_size`` edges is always closed and maximal):
        the result is always the closed (maximal) part of what the same call without them
        returns.
    max_nodes : int, optional
        Stop after visiting this many enumeration-tree nodes.
    time_limit : float, optional
        Stop after this many seconds.
    max_patterns : int, optional
        Keep at most this many patterns: the first ones in DFS-code order, the same for every
        ``n_jobs``. When there are more, the search stops soon after them (threads working on
        later subtrees stop once the earlier ones hold ``max_patterns``) and the result is
        truncated with ``truncation == "max_patterns"``, like the other budgets.
    counts : {"embeddings", "vertex_sets"}, optional
        Also count the pattern's occurrences in each graph of ``graph_ids``
        (:attr:`~graphsparse.mining.Pattern.counts`): ``"embeddings"``, the number of
        label-preserving subgraph monomorphisms (injective maps of the pattern's vertices that
        send each pattern edge onto a graph edge with the same labels; maps that differ by an
        automorphism of the pattern count separately, as gSpan's embeddings do), or
        ``"vertex_sets"``, the number of distinct vertex sets of the graph those maps cover.
    strict : bool, default=False
        Raise :class:`~graphsparse.exceptions.BudgetExceededError` instead of warning when a budget
        stops the search.
    verbose : bool, int or "bar", default=False
        Report the nodes visited and the time while the search runs (a line on standard error
        every second; ``"bar"``: a tqdm bar when tqdm is installed).

    Returns
    -------
    MiningResult
        A list of :class:`Pattern` sorted by minimum DFS code (the pre-order of the gSpan tree),
        with ``truncated`` (bool), ``truncation`` (why it stopped: ``None``, ``"max_nodes"`` or
        ``"time_limit"``), ``nodes_visited`` and ``seconds`` attributes. With a budget, the closed
        (maximal) patterns among those the stopped search reached are returned; a pattern is
        reported only when it is closed (maximal) in the whole database.

    Examples
    --------
    >>> import networkx as nx, graphsparse as gs
    >>> g = nx.Graph([(0, 1), (1, 2)])
    >>> nx.set_node_attributes(g, {0: "C", 1: "C", 2: "O"}, "label")
    >>> nx.set_edge_attributes(g, 1, "label")
    >>> [str(p) for p in gs.mine_subgraphs([g, g], min_support=2)]
    ['(0:C)-[1]-(1:C)', '(0:C)-[1]-(1:C) (1:C)-[1]-(2:O)', '(0:C)-[1]-(1:O)']
    >>> [str(p) for p in gs.mine_subgraphs([g, g], min_support=2, closed=True)]
    ['(0:C)-[1]-(1:C) (1:C)-[1]-(2:O)']
    """
    ds, params = _miner_args(
        data,
        min_support,
        max_size,
        single_vertices,
        _pattern_set(closed, maximal),
        max_nodes,
        time_limit,
        max_patterns,
        counts,
    )
    found = run_reported(
        lambda report: _rs.mine_subgraphs(ds._db, params, resolve_n_jobs(n_jobs), report),
        verbose,
        "mine_subgraphs",
    )
    result = MiningResult(
        _patterns_from_arrays(found, ds),
        truncation=found.truncation,  # the binding's reason, or None
        nodes_visited=found.nodes_visited,
        seconds=found.seconds,
        n_graphs=len(ds),
    )
    if result.truncated:
        _report_truncation(result.truncation, result.nodes_visited, len(result), strict)
    return result


#: The occurrence counts ``counts=`` may ask for.
_COUNT_KINDS = ("embeddings", "vertex_sets")


def _miner_args(
    data: GraphDataset | Sequence[nx.Graph],
    min_support: int | float,
    max_size: int | None,
    single_vertices: bool,
    pattern_set: Literal["all", "closed", "maximal"],
    max_nodes: int | None,
    time_limit: float | None,
    max_patterns: int | None,
    counts: str | None,
) -> tuple[GraphDataset, _rs.MinerArgs]:
    """The dataset and the binding's parameters, checked, for both miners."""
    ds = as_dataset(data, directed_ok=True)
    if len(ds) == 0:
        raise InvalidParameterError("data contains no graphs")
    if counts is not None and counts not in _COUNT_KINDS:
        raise InvalidParameterError(
            f"counts must be None, 'embeddings' or 'vertex_sets', got {counts!r}"
        )
    params: _rs.MinerArgs = {
        "min_support": min_support_count(min_support, len(ds)),
        "max_size": as_optional_count(max_size, "max_size"),
        "single_vertices": single_vertices,
        "max_nodes": as_optional_count(max_nodes, "max_nodes"),
        "time_limit": time_limit,
        "max_patterns": as_optional_count(max_patterns, "max_patterns"),
        "counts": counts,
        "pattern_set": pattern_set,
    }
    return ds, params


def _report_truncation(truncation: str | None, nodes: int, found: int, strict: bool) -> None:
    msg = (
        f"subgraph search stopped by its {truncation} budget after {nodes} nodes; "
        f"{found} patterns were found"
    )
    if strict:
        raise BudgetExceededError(msg)
    warnings.warn(msg, TruncatedSearchWarning, stacklevel=3)


def iter_subgraphs(
    data: GraphDataset | Sequence[nx.Graph],
    min_support: int | float,
    max_size: int | None = None,
    n_jobs: int | None = None,
    *,
    single_vertices: bool = False,
    closed: bool = False,
    maximal: bool = False,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    max_patterns: int | None = None,
    counts: str | None = None,
    strict: bool = False,
) -> Iterator[Pattern]:
    """Stream the patterns of :func:`mine_subgraphs` as the search finds them.

    The search runs on a background thread and hands its patterns over in small batches through
    a bounded queue; it waits while the queue is full. Memory is the search's frontier plus
    those batches, not the whole result, so a search whose result does not fit in memory can
    still be consumed (counted, filtered, written out) pattern by pattern.

    The patterns are those of :func:`mine_subgraphs` with the same arguments, as a multiset: the
    order is the order of discovery, which depends on ``n_jobs`` when it is above 1.
    Closing the generator (``close()``, leaving a ``for`` loop early and letting it be
    collected, or a ``with contextlib.closing(...)`` block) and Ctrl-C while it waits cancel the
    search and wait for its thread.

    Parameters
    ----------
    data, min_support, max_size, n_jobs, single_vertices, closed, maximal
        As for :func:`mine_subgraphs`.
    max_nodes, time_limit, counts, strict
        As for :func:`mine_subgraphs`.
    max_patterns : int, optional
        Stop after this many patterns, the first ones found: with ``n_jobs=1`` the first in
        DFS-code order (those :func:`mine_subgraphs` keeps), with more threads which ones may
        depend on the thread count, as with the time budget.

    Yields
    ------
    Pattern
        Each frequent pattern once. When a budget stopped the search, a
        :class:`~graphsparse.exceptions.TruncatedSearchWarning` is issued (or
        :class:`~graphsparse.exceptions.BudgetExceededError` raised when ``strict``) after the
        last pattern.

    Examples
    --------
    >>> import networkx as nx, graphsparse as gs
    >>> g = nx.Graph([(0, 1), (1, 2)])
    >>> nx.set_node_attributes(g, {0: "C", 1: "C", 2: "O"}, "label")
    >>> nx.set_edge_attributes(g, 1, "label")
    >>> sorted(str(p) for p in gs.iter_subgraphs([g, g], min_support=2, n_jobs=1))
    ['(0:C)-[1]-(1:C)', '(0:C)-[1]-(1:C) (1:C)-[1]-(2:O)', '(0:C)-[1]-(1:O)']
    """
    ds, params = _miner_args(
        data,
        min_support,
        max_size,
        single_vertices,
        _pattern_set(closed, maximal),
        max_nodes,
        time_limit,
        max_patterns,
        counts,
    )
    n_threads = resolve_n_jobs(n_jobs)
    strict = bool(strict)
    return _stream(ds, params, n_threads, strict)


def _stream(
    ds: GraphDataset, params: _rs.MinerArgs, n_threads: int, strict: bool
) -> Iterator[Pattern]:
    # the search starts at the first next(): a generator never started holds no thread
    stream = _rs.iter_subgraphs(ds._db, params, n_threads)
    found = 0
    try:
        for batch in stream:
            patterns = _patterns_from_arrays(batch, ds)
            found += len(patterns)
            yield from patterns
    finally:
        stream.close()
    if stream.truncation is not None:
        _report_truncation(stream.truncation, stream.nodes_visited, found, strict)


def _pattern_set(closed: Any, maximal: Any) -> Literal["all", "closed", "maximal"]:
    """The binding's name of the pattern set that ``closed`` and ``maximal`` ask for."""
    closed = as_flag(closed, "closed")
    maximal = as_flag(maximal, "maximal")
    if closed and maximal:
        raise InvalidParameterError(
            "closed=True and maximal=True cannot be combined: choose one (every maximal "
            "pattern is closed)"
        )
    return "closed" if closed else "maximal" if maximal else "all"


def min_dfs_code(graph: nx.Graph | GraphDataset) -> tuple[DfsEdge, ...]:
    """The minimum DFS code (gSpan's canonical form) of one connected labelled graph.

    Two labelled graphs are isomorphic exactly when their minimum DFS codes are equal. A
    directed graph (``networkx.DiGraph``, weakly connected) has the code a directed search
    gives it, with an arrow per edge (see :attr:`~graphsparse.mining.Pattern.dfs_code`).
    """
    ds = as_dataset(
        graph if isinstance(graph, GraphDataset) else [graph], "graph", directed_ok=True
    )
    if len(ds) != 1:
        raise InvalidParameterError(f"expected one graph, got {len(ds)}")
    rows = _rs.min_dfs_code(ds.node_labels, ds.edges, ds.edge_labels, directed=ds.directed)
    vl, el = ds.vertex_label_values, ds.edge_label_values
    return tuple(_decode_edge(r, vl, el, ds.directed) for r in rows.tolist())


def _codes_for(patterns: Sequence[Pattern], ds: GraphDataset) -> list[np.ndarray | None]:
    """Each pattern's DFS code in ``ds``'s label ids (``None`` when a label does not occur)."""
    vmap = {v: k for k, v in enumerate(ds.vertex_label_values)}
    emap = {v: k for k, v in enumerate(ds.edge_label_values)}
    out: list[np.ndarray | None] = []
    for p in patterns:
        if p.directed != ds.directed:
            kind = "directed" if p.directed else "undirected"
            raise InvalidGraphError(
                f"a {kind} pattern cannot be matched in {'' if ds.directed else 'un'}directed "
                "graphs: give graphs of the kind the patterns were mined from"
            )
        try:
            if p.directed:
                rows = [
                    (e[0], e[1], vmap[e[2]], 2 * emap[e[3]] + _ARROWS.index(e[5]), vmap[e[4]])
                    for e in p.dfs_code
                ]
            else:
                rows = [(i, j, vmap[li], emap[lij], vmap[lj]) for i, j, li, lij, lj in p.dfs_code]
        except KeyError:
            out.append(None)
            continue
        out.append(np.asarray(rows, dtype=np.int64).reshape(-1, 5))
    return out


def _occurrences(patterns: Sequence[Pattern], ds: GraphDataset, n_threads: int) -> list[np.ndarray]:
    """For each pattern, the ids of the graphs of ``ds`` that contain it."""
    codes = _codes_for(patterns, ds)
    present = [c for c in codes if c is not None]
    found = iter(_rs.match_subgraph_patterns(ds._db, present, n_threads) if present else [])
    empty = np.zeros(0, dtype=np.int64)
    return [empty if c is None else next(found) for c in codes]


def _pattern_features(
    patterns: Sequence[Pattern], ds: GraphDataset, n_threads: int
) -> sp.csr_matrix:
    """The 0/1 CSR matrix ``A[i, j] = 1`` when graph ``i`` of ``ds`` contains ``patterns[j]``:
    the features of the subgraph models' ``transform`` and of ``distributed.pattern_features``."""
    occ = (
        _occurrences(list(patterns), ds, n_threads)
        if len(ds)
        else [np.zeros(0, np.int64)] * len(patterns)
    )
    cols = np.repeat(np.arange(len(occ), dtype=np.int64), [len(o) for o in occ])
    rows = np.concatenate(occ) if occ else np.zeros(0, dtype=np.int64)
    data = np.ones(len(rows), dtype=np.float64)
    return sp.csr_matrix((data, (rows, cols)), shape=(len(ds), len(occ)))
