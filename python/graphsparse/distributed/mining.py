"""Exact frequent-subgraph mining over a sharded collection, level by level.

The scheme is FSM-H's (Bhuiyan & Al Hasan, IEEE TKDE 2015) on the gSpan tree, with global
support counts:

**Round 0.** Every non-empty shard lists the one-edge patterns that occur in it with their
local supports (the number of its graphs holding each), as minimum DFS codes in the label ids
of the whole collection. The driver adds the supports over the shards and keeps the codes
whose total reaches the support count ``s``: the frequent patterns of one edge.

**Round k.** The driver sends the frequent codes of ``k`` edges to every shard. Each shard
keeps the embeddings of those that occur in it (extending its stored frontier of ``k - 1``
edges once more) and lists their minimal one-edge extensions with local supports; the driver
adds them up and keeps the frequent ones. Rounds end when no code is frequent or at
``max_size`` edges.

**Why this is gSpan on the whole collection.** Support adds up over disjoint shards; it can
only shrink from a code to its extensions; and the prefix of a minimum DFS code is itself a
minimum DFS code. So every frequent pattern's minimum code extends a frequent minimum code one
edge shorter, and round ``k`` sees it. Minimality depends on the code alone, and a shard's
label ids rank its labels as the whole collection's do, so every shard agrees on it.

**Work and memory.** A shard generates the one-edge extensions of the globally frequent
patterns that occur in it, which is the work gSpan does for them on one machine, done twice
(once to count, once to keep the frequent ones' embeddings); the shard's sizes do not enter.
The candidates counted by the driver are the distinct minimal extensions of frequent
patterns, at most the frequent patterns times their extensions. A worker holds its shard and
the embeddings of one frontier (the frequent patterns of one size that occur in the shard);
the driver holds codes and counts, then the graph ids of the result.

**The partition scheme, where it is safe.** With large shards the older two-phase partition
scheme (Savasere, Omiecinski & Navathe's partition algorithm applied to gSpan) is faster: each
shard mines itself at the proportional threshold ``t_i = ceil(s · n_i / n)`` (if a pattern
were below ``t_i`` in every shard its total would be below ``s``, so no frequent pattern is
missed), the driver takes the union of the local patterns, every shard counts the candidates it
did not mine with the subgraph matcher, and the totals decide. Its candidates are every shard's
locally frequent patterns, so a shard with a small threshold proposes nearly all its connected
subgraphs (at ``t_i = 1``, all of them: exponential in the graph size without ``max_size``).
``scheme="auto"`` therefore runs it only when every non-empty shard has ``t_i >= 20`` and every
local search stays within 1,000,000 tree nodes; a shard that passes that budget stops the
partition run, and the level-wise rounds run instead. The result says which scheme ran.

**Placement and failures.** Every shard is read by one task on a worker and stays there: its
rounds are pinned to that worker (strict restrictions, so work stealing cannot move a shard,
whose real size is registered with ``dask.sizeof``). Each round's state is a task result that
depends on the shard and the previous round, so a lost worker's shards and rounds are
recomputed elsewhere from their lineage; pinned rounds that wait for a lost worker for 5
seconds are cancelled and the rounds redone without pins. The result is the same either way.
"""

from __future__ import annotations

import numbers
import time
from collections.abc import Sequence
from typing import Any

import networkx as nx
import numpy as np

from .. import _graphsparse as _rs  # type: ignore[attr-defined]
from .._validation import as_count, as_flag, min_support_count
from ..exceptions import InvalidGraphError, InvalidParameterError
from ..mining import MiningResult, Pattern
from ..mining._search import _pattern_set
from ._closed import closed_part
from ._partition import (
    _SCHEMES,
    PARTITION_MIN_THRESHOLD,
    PARTITION_NODE_BUDGET,
    Code,
    _phase1,
    _phase1_summary,
    _phase2,
    _phase2_counts,
    _phase3,
    local_thresholds,
)
from ._rounds import _NO_CODES, _NO_IDS, _frontier_ids, _proposed, _round, _value
from ._shards import Loader, as_n_shards, get_client, release, shard_futures, shard_info

__all__ = [
    "PARTITION_MIN_THRESHOLD",
    "PARTITION_NODE_BUDGET",
    "ShardedMiningResult",
    "dfs_code_order",
    "local_thresholds",
    "mine_subgraphs",
]


class ShardedMiningResult(MiningResult):
    """The patterns of :func:`mine_subgraphs`, plus what the rounds cost.

    Attributes
    ----------
    rounds : int
        Rounds run (one per pattern size reached, plus the last that found nothing new).
    candidates : int
        Distinct codes whose supports the driver added up: the minimal one-edge extensions of
        the frequent patterns (and the one-edge patterns) that occur in some shard.
    nodes_visited : int
        Codes reported by the shards, summed over shards and rounds (a code found in three
        shards counts three times).
    bytes_gathered : int
        Bytes of the arrays the driver gathered (codes, counts, graph ids).
    scheme : {"level-wise", "partition"}
        The scheme that produced the result (see the module docstring). For ``"partition"``,
        ``rounds`` is 2 (local mining, then counting), ``candidates`` is the union of the local
        patterns and ``nodes_visited`` the local searches' tree nodes.
    """

    rounds: int
    candidates: int
    bytes_gathered: int
    scheme: str

    def __init__(
        self,
        patterns: Sequence[Pattern],
        *,
        nodes_visited: int,
        seconds: float,
        rounds: int,
        candidates: int,
        bytes_gathered: int,
        scheme: str,
    ) -> None:
        super().__init__(patterns, False, nodes_visited, seconds)
        self.rounds = rounds
        self.candidates = candidates
        self.bytes_gathered = bytes_gathered
        self.scheme = scheme


_DIRECTED = (
    "collection holds directed graphs: the sharded search mines undirected graphs only; mine "
    "directed graphs with graphsparse.mine_subgraphs"
)


def _refuse_directed(collection: Any) -> None:
    """The error for an in-memory directed collection, before any shard is made."""
    if getattr(collection, "directed", False) is True or (
        isinstance(collection, Sequence)
        and any(
            (isinstance(g, nx.Graph) and g.is_directed()) or getattr(g, "directed", False) is True
            for g in collection
        )
    ):
        raise InvalidGraphError(_DIRECTED)


def _shard_info(ds: Any) -> tuple[int, tuple[Any, ...], tuple[Any, ...]]:
    """:func:`shard_info` of an undirected shard (a shard read on a worker may be directed)."""
    if ds.directed:
        raise InvalidGraphError(_DIRECTED)
    return shard_info(ds)


def _vertex_label_ids(ds: Any, values: list[Any]) -> list[np.ndarray]:
    """For each vertex label value, the local ids of the graphs that have such a vertex."""
    graph_of = np.repeat(np.arange(len(ds), dtype=np.int64), np.diff(ds.node_ptr))
    out: dict[Any, np.ndarray] = {}
    if graph_of.size:
        pairs = np.unique(np.stack([ds.node_labels, graph_of], axis=1), axis=0)
        labels, starts = np.unique(pairs[:, 0], return_index=True)
        for lab, ids in zip(labels.tolist(), np.split(pairs[:, 1], starts[1:]), strict=True):
            out[ds.vertex_label_values[lab]] = ids
    return [out.get(v, _NO_IDS) for v in values]


# -- the driver -----------------------------------------------------------------------------------
#: Seconds a worker holding pinned shards may be gone before the rounds are redone unpinned.
_PIN_GRACE = 5.0
_POLL = 1.0


class _WorkerGone(Exception):
    """A worker that pinned tasks wait for has been gone longer than ``_PIN_GRACE``."""


def _worker_addresses(client: Any) -> set[str]:
    try:
        info = client.scheduler_info(n_workers=-1)
    except TypeError:  # pragma: no cover - distributed before n_workers= was added
        info = client.scheduler_info()
    return set(info["workers"])


def _pins(client: Any, shards: list[Any]) -> list[dict[str, Any]]:
    """``submit`` keywords that keep each shard's tasks on the worker(s) holding it.

    The restriction is strict (by address), so work stealing cannot move a shard to an idle
    worker. Tasks pinned to a worker that is gone wait; :func:`_gather_pinned` notices.
    """
    who = client.who_has(shards)
    return [{"workers": list(who[f.key])} if who.get(f.key) else {} for f in shards]


def _gather_pinned(client: Any, pins: list[dict[str, Any]], futures: list[Any]) -> list[Any]:
    """``client.gather(futures)``, raising :class:`_WorkerGone` if a pinned worker stays away."""
    from distributed import wait

    wanted = {name for pin in pins for name in pin.get("workers", ())}
    away_since: float | None = None
    while True:
        try:
            wait(futures, timeout=_POLL)
        except TimeoutError:
            if wanted - _worker_addresses(client):
                away_since = away_since if away_since is not None else time.perf_counter()
                if time.perf_counter() - away_since > _PIN_GRACE:
                    raise _WorkerGone from None
            else:
                away_since = None
            continue
        return client.gather(futures)


def _edge_key(i: int, j: int, li: int, le: int, lj: int) -> tuple[int, ...]:
    """A sort key that orders the edges extending one DFS-code prefix as gSpan does.

    ``DfsEdge::cmp_extension`` restricted to the extensions of one prefix: every backward edge
    starts at the rightmost vertex ``r`` and every forward edge ends at the new vertex ``r + 1``,
    so backward edges come first (``r < r + 1``), ordered by target and then labels, and forward
    edges by *decreasing* source and then labels. Since a minimum DFS code's prefixes are
    minimum DFS codes, comparing codes edge by edge with this key (a shorter prefix first) is
    gSpan's DFS lexicographic order.
    """
    if i < j:
        return (1, -i, li, le, lj)
    return (0, j, li, le, lj)


def dfs_code_order(
    codes: Sequence[Code], vertex_values: Sequence[Any], edge_values: Sequence[Any]
) -> list[int]:
    """Positions that sort ``codes`` (in label values) by gSpan's DFS lexicographic order.

    Labels compare by their rank among ``vertex_values`` / ``edge_values`` (sorted), as the
    label ids of a :class:`~graphsparse.GraphDataset` over the whole collection do; sorting by
    code is then the pre-order of the gSpan tree, the order of
    :func:`graphsparse.mine_subgraphs`.
    """
    vid = {v: k for k, v in enumerate(vertex_values)}
    eid = {v: k for k, v in enumerate(edge_values)}
    keys = [
        tuple(_edge_key(i, j, vid[li], eid[lij], vid[lj]) for i, j, li, lij, lj in code)
        for code in codes
    ]
    return sorted(range(len(codes)), key=keys.__getitem__)


def _vertex_labels_of(code: Code) -> tuple[Any, ...]:
    labels: list[Any] = [None] * (1 + max(max(i, j) for i, j, *_ in code))
    for i, j, li, _, lj in code:
        labels[i], labels[j] = li, lj
    return tuple(labels)


def _sorted_values(values: set[Any], what: str) -> list[Any]:
    try:
        return sorted(values)
    except TypeError:
        raise InvalidParameterError(
            f"{what} labels differ in type between shards and cannot be ordered"
        ) from None


def _nbytes(obj: Any) -> int:
    """Bytes of the arrays in a gathered answer (nested tuples and lists of arrays)."""
    if isinstance(obj, np.ndarray):
        return obj.nbytes
    if isinstance(obj, tuple | list):
        return sum(_nbytes(x) for x in obj)
    return 0


def _frequent(
    proposed: list[tuple[np.ndarray, np.ndarray, np.ndarray]], support: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The extensions whose supports, added over the shards, reach ``support``: parents,
    edges, total supports, and the number of distinct extensions proposed."""
    rows = np.concatenate([np.column_stack([p, e]) for p, e, _ in proposed])
    supports = np.concatenate([s for _, _, s in proposed])
    if not len(rows):
        return _NO_IDS, _NO_CODES, _NO_IDS, 0
    distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
    total = np.bincount(inverse.ravel(), weights=supports, minlength=len(distinct))
    total = total.astype(np.int64)
    keep = total >= support
    return distinct[keep, 0], distinct[keep, 1:], total[keep], len(distinct)


def mine_subgraphs(
    collection: Any,
    min_support: int | float,
    max_size: int | None = None,
    *,
    client: Any = None,
    single_vertices: bool = False,
    closed: bool = False,
    maximal: bool = False,
    n_shards: int | None = None,
    format: str | None = None,
    loader: Loader | None = None,
    n_jobs: int = 1,
    graph_ids: bool = True,
    pin: bool = True,
    scheme: str = "auto",
) -> ShardedMiningResult:
    """Every connected subgraph in at least ``min_support`` graphs of a sharded collection.

    Exact level-wise mining on a Dask cluster with supports summed across the shards (see the
    module docstring for the scheme, why nothing is missed, and what it costs). The result is
    identical to :func:`graphsparse.mine_subgraphs` on the concatenated collection: the same
    patterns (same minimum DFS codes in the same order), supports and graph ids in the global
    numbering (shard order, then order within the shard), for every layout of the shards
    (empty ones, one graph each, any mix of sizes) and with or without ``max_size``. No shard
    leaves its worker (see ``pin``); the driver holds DFS codes, counts and the final graph
    ids only.

    Parameters
    ----------
    collection : dask.bag.Bag, GraphDataset, list of networkx.Graph, or list of paths
        A ``dask.bag`` of networkx graphs (one shard per partition); a ``GraphDataset`` or a
        list of graphs (split into ``n_shards`` contiguous shards); or a list of files and TU
        folders (gSpan, TU, SMILES ``.smi``, SD files), each read on a worker (relative paths
        are made absolute on the driver; the workers must see the same files), and/or
        GraphDatasets. Labels are matched across shards by value, so shards need not share
        label sets. Undirected graphs only: directed ones are refused with an
        :class:`~graphsparse.exceptions.InvalidGraphError` (mine them with
        :func:`graphsparse.mine_subgraphs`).
    min_support : int or float
        A count in ``[1, n_graphs]`` or a fraction in ``(0, 1]`` of the whole collection.
    max_size : int, optional
        Largest pattern size in edges (default: no bound). Each size is one round.
    client : distributed.Client, optional
        The cluster (default: the current client).
    single_vertices : bool, default=False
        Also report single-vertex patterns, first, as :func:`graphsparse.mine_subgraphs` does.
    closed, maximal : bool, default=False
        Report only the closed (maximal) patterns, the same as
        :func:`graphsparse.mine_subgraphs` with ``closed=True`` (``maximal=True``), under
        ``max_size`` too. The rounds find every frequent pattern and the driver then keeps
        those without a one-edge-larger frequent super-pattern of the same support (of any
        support), by the minimum DFS codes of each pattern's one-edge-smaller subgraphs
        (computed in Rust on ``n_jobs`` threads): the rounds cost what the full search costs
        (the single-machine miner prunes inside the search instead).
    n_shards : int, optional
        Shards for a ``GraphDataset`` or a list of graphs (default: two per worker thread).
    format : {"gspan", "tu", "smiles", "sdf"}, optional
        The format of listed files (default: a folder is TU, a file goes by its suffix).
    loader : callable, optional
        ``loader(item) -> GraphDataset`` to read each listed item on a worker (must pickle).
    n_jobs : int, default=1
        Rayon threads inside each task (Dask already runs one task per worker thread), and of
        the driver's closed/maximal filter.
    graph_ids : bool, default=True
        Fetch every pattern's graph ids to the driver. They are most of the result (8 bytes per
        occurrence: the sum of the supports); ``False`` skips them and returns each pattern
        with its exact ``support`` and an empty ``graph_ids``, so the driver holds O(number of
        patterns) for collections whose occurrence lists would not fit.
    pin : bool, default=True
        Run every round of a shard on the worker that read it, so that Dask's work stealing
        never moves a shard between workers. If a worker holding shards is lost, the rounds
        are redone without pins after 5 seconds (same result; the lost shards are read again
        elsewhere). ``False`` lets Dask place and steal tasks freely.
    scheme : {"auto", "level-wise", "partition"}, default="auto"
        ``"auto"`` runs the partition scheme when every non-empty shard's local threshold is
        at least 20 and its local search stays within 1,000,000 tree nodes, else the
        level-wise rounds (module docstring); the others force one scheme (``"partition"``
        without the node budget: its work grows with the shards' local frequent sets).

    Returns
    -------
    ShardedMiningResult
        The patterns (``truncated`` is ``False``) with ``scheme`` (which ran), ``rounds``,
        ``candidates`` (distinct codes counted), ``nodes_visited`` (codes reported by the
        shards) and ``bytes_gathered``; ``seconds`` is the wall time of the whole run.

    Examples
    --------
    >>> from distributed import Client, LocalCluster  # doctest: +SKIP
    >>> import graphsparse as gs, graphsparse.distributed as gsd  # doctest: +SKIP
    >>> client = Client(LocalCluster(n_workers=2, threads_per_worker=1))  # doctest: +SKIP
    >>> data = gs.load_tu("../shared/data/tu/MUTAG")  # doctest: +SKIP
    >>> sharded = gsd.mine_subgraphs(data, 0.3, 6, n_shards=4)  # doctest: +SKIP
    >>> list(sharded) == list(gs.mine_subgraphs(data, 0.3, 6))  # doctest: +SKIP
    True
    """
    start = time.perf_counter()
    if max_size is not None:
        max_size = as_count(max_size, "max_size")
    n_jobs = as_count(n_jobs, "n_jobs", 1)
    single_vertices = as_flag(single_vertices, "single_vertices")
    pattern_set = _pattern_set(closed, maximal)
    graph_ids = as_flag(graph_ids, "graph_ids")
    pin = as_flag(pin, "pin")
    if scheme not in _SCHEMES:
        raise InvalidParameterError(f"scheme must be one of {_SCHEMES}, got {scheme!r}")
    # what can be checked before the shards are counted is checked before a cluster is needed
    if isinstance(min_support, numbers.Integral) and not isinstance(min_support, bool | np.bool_):
        as_count(min_support, "min_support", 1)
    else:
        min_support_count(min_support, 1)  # the type, and a fraction's range
    n_shards = as_n_shards(n_shards)
    _refuse_directed(collection)
    client = get_client(client)
    shards = shard_futures(collection, client, n_shards=n_shards, fmt=format, loader=loader)
    try:
        args = (client, shards, min_support, max_size, single_vertices, n_jobs, graph_ids, scheme)
        try:
            patterns, stats = _mine(*args, pin=pin)
        except _WorkerGone:  # a pinned worker stayed away: redo the run unpinned
            patterns, stats = _mine(*args, pin=False)
    finally:
        release(shards)
    labels = stats.pop("labels")
    if pattern_set != "all":
        patterns = closed_part(patterns, pattern_set, *labels, n_jobs)
    return ShardedMiningResult(patterns, seconds=time.perf_counter() - start, **stats)


def _mine(
    client: Any,
    shards: list[Any],
    min_support: int | float,
    max_size: int | None,
    single_vertices: bool,
    n_jobs: int,
    graph_ids: bool,
    scheme: str,
    *,
    pin: bool,
) -> tuple[list[Pattern], dict[str, Any]]:
    """The patterns and the counts of what they cost, by the scheme chosen."""
    run = _Run(client, shards, min_support, n_jobs, pin)
    try:
        edge_patterns = None
        if scheme == "partition" or (
            scheme == "auto"
            and min(local_thresholds(run.sizes, run.support)[k] for k in run.live)
            >= PARTITION_MIN_THRESHOLD
        ):
            budget = None if scheme == "partition" else PARTITION_NODE_BUDGET
            edge_patterns = run.partition(max_size, graph_ids, budget)
        ran = "partition" if edge_patterns is not None else "level-wise"
        if edge_patterns is None:
            edge_patterns = run.level_wise(max_size, graph_ids)
        singles = run.single_vertices(graph_ids) if single_vertices else []
    finally:
        run.close()
    labels = (run.vertex_values, run.edge_values)
    return singles + edge_patterns, {**run.stats, "scheme": ran, "labels": labels}


class _Run:
    """One run over the shard futures: what the driver knows of the shards, and the helpers
    that submit a shard's tasks beside it and gather their answers."""

    def __init__(
        self, client: Any, shards: list[Any], min_support: int | float, n_jobs: int, pin: bool
    ) -> None:
        self.client, self.shards, self.n_jobs = client, shards, n_jobs
        self.futures: list[Any] = []
        self.stats = {"rounds": 0, "candidates": 0, "nodes_visited": 0, "bytes_gathered": 0}
        infos = client.gather([client.submit(_shard_info, f, pure=False) for f in shards])
        self.sizes = [n for n, _, _ in infos]
        n = sum(self.sizes)
        if n == 0:
            raise InvalidParameterError("collection contains no graphs")
        self.support = min_support_count(min_support, n)
        self.vertex_values = _sorted_values({v for _, vs, _ in infos for v in vs}, "vertex")
        self.edge_values = _sorted_values({v for _, _, es in infos for v in es}, "edge")
        self.offsets = np.concatenate([[0], np.cumsum(self.sizes)]).astype(np.int64)
        self.live = [k for k in range(len(shards)) if self.sizes[k]]
        # each shard's tasks stay on the worker holding it
        self.near = _pins(client, shards) if pin else [{} for _ in shards]

    def submit(self, k: int, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` as a task beside shard ``k``; its result lives on the worker while
        the driver holds the future (so a round's state goes when the next replaces it)."""
        return self.client.submit(fn, *args, pure=False, **self.near[k])

    def fetch(self, futures: list[Any]) -> list[Any]:
        got = _gather_pinned(self.client, self.near, futures)
        self.stats["bytes_gathered"] += _nbytes(got)
        return got

    def broadcast(self, value: Any) -> Any:
        """``value`` as a future every shard's tasks can take. A task that returns it, not a
        scatter: scattered data lost with a worker cannot be recovered, a task result is
        recomputed from its lineage (the value travels in the task, once)."""
        future = self.client.submit(_value, value, pure=False)
        self.futures.append(future)
        return future

    def close(self) -> None:
        """Releases the broadcast values (task results go with their futures)."""
        release(self.futures)

    def single_vertices(self, graph_ids: bool) -> list[Pattern]:
        values = list(self.vertex_values)
        per_shard = self.fetch(
            [self.submit(k, _vertex_label_ids, self.shards[k], values) for k in self.live]
        )
        return _single_patterns(values, per_shard, self.live, self.offsets, self.support, graph_ids)

    def level_wise(self, max_size: int | None, graph_ids: bool) -> list[Pattern]:
        """The rounds: the frequent edge patterns (module docstring)."""
        live, shards, stats = self.live, self.shards, self.stats
        labels = self.broadcast((self.vertex_values, self.edge_values))
        limit = max_size if max_size is not None else np.iinfo(np.int64).max
        # levels[k]: the frequent patterns of k + 1 edges as extensions (positions of their
        # parents in levels[k - 1], appended edges in collection-wide label ids), their
        # supports, and their graph ids per shard
        levels: list[tuple[np.ndarray, np.ndarray, np.ndarray, list[Any]]] = []
        states: dict[int, Any] = dict.fromkeys(live)
        keep: Any = None
        size = 0
        last_codes = np.zeros((1, 0, 5), dtype=np.int64)  # the empty pattern
        while size < limit or (size and graph_ids):
            grow = size < limit
            step = {
                k: self.submit(k, _round, shards[k], states[k], keep, labels, grow, self.n_jobs)
                for k in live
            }
            stats["rounds"] += 1
            if size and graph_ids:
                ids = self.fetch([self.submit(k, _frontier_ids, step[k]) for k in live])
                levels[-1][3].extend(ids)
            # dropping the previous states frees them once the new ones exist (Dask keeps
            # their lineage and recomputes a lost state from it)
            states = step
            if not grow:
                break
            proposed = self.fetch([self.submit(k, _proposed, step[k]) for k in live])
            stats["nodes_visited"] += sum(len(s) for _, _, s in proposed)
            parents, edges, totals, n_distinct = _frequent(proposed, self.support)
            stats["candidates"] += n_distinct
            # only minimum DFS codes are patterns (tested here once per frequent extension)
            codes = np.concatenate([last_codes[parents], edges[:, None, :]], axis=1)
            if size:
                minimal = _rs.dfs_codes_are_min(codes.reshape(-1, 5), size + 1)
                parents, edges, totals, codes = (
                    a[minimal] for a in (parents, edges, totals, codes)
                )
            last_codes = codes
            if not len(edges):
                break
            levels.append((parents, edges, totals, []))
            keep = self.broadcast((parents, edges))
            size += 1
        return _edge_patterns(
            levels, live, self.offsets, self.vertex_values, self.edge_values, graph_ids
        )

    def partition(self, max_size: int | None, graph_ids: bool, budget: int | None) -> Any:
        """The partition scheme (module docstring): the frequent edge patterns, or ``None``
        when a shard's local search passed ``budget`` tree nodes."""
        live, shards, stats = self.live, self.shards, self.stats
        thresholds = local_thresholds(self.sizes, self.support)
        local = {}
        if max_size != 0:
            local = {
                k: self.submit(k, _phase1, shards[k], thresholds[k], max_size, self.n_jobs, budget)
                for k in live
            }
        summaries = self.fetch([self.submit(k, _phase1_summary, local[k]) for k in local])
        if any(cut for _, _, cut in summaries):
            return None
        union: dict[Code, None] = {}
        for codes, _, _ in summaries:
            union.update(dict.fromkeys(codes))
        stats["rounds"] += 2
        stats["nodes_visited"] += sum(v for _, v, _ in summaries)
        codes = list(union)
        codes = [codes[k] for k in dfs_code_order(codes, self.vertex_values, self.edge_values)]
        stats["candidates"] += len(codes)
        candidates = self.broadcast(codes)
        counted = {
            k: self.submit(k, _phase2, shards[k], local.get(k), candidates, self.n_jobs)
            for k in live
        }
        counts = self.fetch([self.submit(k, _phase2_counts, counted[k]) for k in live])
        total = np.sum(counts, axis=0) if counts else np.zeros(0, dtype=np.int64)
        keep = np.flatnonzero(total >= self.support)
        per_shard = (
            self.fetch([self.submit(k, _phase3, counted[k], keep) for k in live])
            if graph_ids
            else None
        )
        patterns = []
        for pos, j in enumerate(keep.tolist()):
            ids = _NO_IDS
            if per_shard is not None:
                ids = np.concatenate(
                    [
                        s[pos].astype(np.int64) + self.offsets[k]
                        for s, k in zip(per_shard, live, strict=True)
                    ]
                )
            code = codes[j]
            patterns.append(Pattern(code, int(total[j]), ids, _vertex_labels_of(code)))
        return patterns


def _single_patterns(
    singles: list[Any],
    per_shard: list[list[np.ndarray]],
    live: list[int],
    offsets: np.ndarray,
    support: int,
    graph_ids: bool,
) -> list[Pattern]:
    """The frequent single-vertex patterns, by label, as the single-machine miner lists them."""
    out = []
    for j, value in enumerate(singles):
        ids = np.concatenate([s[j] + offsets[k] for s, k in zip(per_shard, live, strict=True)])
        if len(ids) >= support:
            out.append(Pattern((), len(ids), ids if graph_ids else _NO_IDS, (value,)))
    return out


def _edge_patterns(
    levels: list[tuple[np.ndarray, np.ndarray, np.ndarray, list[Any]]],
    live: list[int],
    offsets: np.ndarray,
    vertex_values: list[Any],
    edge_values: list[Any],
    graph_ids: bool,
) -> list[Pattern]:
    """The frequent edge patterns of every round, in gSpan's DFS lexicographic order."""
    made: list[Pattern] = []
    prev_codes: list[Code] = [()]  # the empty pattern, parent of the one-edge ones
    for parents, edges, totals, per_shard in levels:
        ids: list[list[np.ndarray]] = [[] for _ in range(len(edges))]
        for (positions, gid_ptr, gids), k in zip(per_shard, live if graph_ids else [], strict=True):
            parts = np.split(gids.astype(np.int64) + offsets[k], gid_ptr[1:-1])
            for pos, part in zip(positions.tolist(), parts[: len(positions)], strict=True):
                ids[pos].append(part)
        codes: list[Code] = []
        for parent, (i, j, li, le, lj), total, found in zip(
            parents.tolist(), edges.tolist(), totals.tolist(), ids, strict=True
        ):
            edge = (i, j, vertex_values[li], edge_values[le], vertex_values[lj])
            code = (*prev_codes[parent], edge)
            codes.append(code)
            gids = np.concatenate(found) if graph_ids else _NO_IDS
            made.append(Pattern(code, total, gids, _vertex_labels_of(code)))
        prev_codes = codes
    order = dfs_code_order([p.dfs_code for p in made], vertex_values, edge_values)
    return [made[k] for k in order]
