"""Exact frequent-subgraph mining over a sharded collection (two-phase partition mining).

The scheme (Savasere, Omiecinski & Navathe's partition algorithm, applied to gSpan):

**Phase 1 (local candidates).** Shard ``i`` holds ``n_i`` of the ``n`` graphs. Each non-empty
shard is mined on its worker by :func:`graphsparse.mine_subgraphs` at the *proportional*
threshold ``t_i = ceil(s · n_i / n)``, where ``s`` is the global support count. The local
patterns' graph ids stay on the worker; only their DFS codes go to the driver.

**Why no globally frequent pattern is missed.** Let ``P`` have global support
``sup(P) = Σ_i sup_i(P) ≥ s``. If ``P`` were frequent in no shard, then for every ``i``
``sup_i(P) ≤ t_i − 1 < s · n_i / n`` (because ``ceil(x) − 1 < x``), and summing over the shards
``sup(P) < s · Σ_i n_i / n = s``: a contradiction. So some shard mines ``P`` at its threshold,
and gSpan at that threshold is exact (support is anti-monotone along the DFS-code tree, and
``max_size`` bounds both runs alike). Empty shards add nothing to either side and are skipped;
every non-empty shard has ``1 ≤ t_i ≤ n_i``.

**Phase 2 (exact counts).** The driver takes the union of the candidates (keyed by minimum DFS
code in label *values*, so shards with different label sets agree) and sends it once to every
worker. Each shard counts the exact local support of every candidate it did not already mine:
the subgraph-isomorphism matcher of the subgraph models (``_rs.match_subgraph_patterns``),
parallel over graphs. The driver adds the counts, keeps the candidates with total support
``≥ s``, and only then fetches their graph ids, offset to the global numbering. Patterns are
sorted by gSpan's DFS lexicographic order on the global label ids, i.e. the order
:func:`graphsparse.mine_subgraphs` returns.

**Placement and failures.** Every shard is read by one task on a worker and stays there: its
phases are pinned to that worker (strict restrictions, so work stealing cannot move a shard,
whose real size is registered with ``dask.sizeof``). A lost worker's shards are read again
elsewhere from their reading tasks; pinned phases that wait for it for 5 seconds are cancelled
and redone without pins. The result is the same either way.

**Worst case.** The candidate set is the union of the locally frequent sets, and a small
shard has a small threshold: a shard of ``n_i ≤ n / s`` graphs has ``t_i = 1`` and proposes
*every* connected subgraph of its graphs up to ``max_size`` edges. Without ``max_size`` that is
exponential in the graph size (all connected subgraphs of a molecule with many rings). Shards of
equal size keep ``t_i ≈ s / n_shards``; the candidate set then grows as the number of
shards grows and the local threshold falls, and phase 2 pays one matcher pass per candidate
and shard. With skewed shards (one shard holding all graphs with some rare motif), the local
threshold makes that motif a candidate everywhere. Neither costs exactness, only work; keep
shards large (``n_i · s / n`` well above 1) and pass ``max_size`` when shards are small.
"""

from __future__ import annotations

import functools
import time
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._validation import min_support_count
from ..exceptions import InvalidParameterError
from ..mining import MiningResult, Pattern
from ..mining import mine_subgraphs as _mine_local
from ..models import _occurrences
from ._shards import Loader, get_client, shard_futures, shard_info

__all__ = ["SmallShardWarning", "dfs_code_order", "local_thresholds", "mine_subgraphs"]


class SmallShardWarning(UserWarning):
    """A shard so small that its local threshold is 1 while no ``max_size`` bounds phase 1."""


Code = tuple[tuple[Any, Any, Any, Any, Any], ...]


# -- the tasks that run on the workers ------------------------------------------------------------
class _LocalMined:
    """A shard's phase-1 patterns: DFS code (label values) -> local graph ids (on its worker)."""

    __slots__ = ("ids", "nodes_visited")

    def __init__(self, ids: dict[Code, np.ndarray], nodes_visited: int) -> None:
        self.ids = ids
        self.nodes_visited = nodes_visited


def _ids_size(ids: Any) -> int:
    return sum(a.nbytes + 100 for a in ids)


def _register_sizes() -> None:
    """Real sizes for the per-shard state kept on the workers (see ``_shards._register_sizes``)."""
    from dask.sizeof import sizeof

    sizeof.register(_LocalMined)(lambda m: _ids_size(m.ids.values()))
    sizeof.register(_Counted)(lambda c: _ids_size(c.ids))


def _phase1(ds: Any, threshold: int, max_size: int | None, n_jobs: int) -> _LocalMined:
    result = _mine_local(ds, threshold, max_size, n_jobs)
    return _LocalMined({p.dfs_code: p.graph_ids for p in result}, result.nodes_visited)


def _phase1_summary(local: _LocalMined) -> tuple[list[Code], int]:
    return list(local.ids), local.nodes_visited


def _vertex_label_ids(ds: Any) -> dict[Any, np.ndarray]:
    """For each vertex label value, the local ids of the graphs that have such a vertex."""
    graph_of = np.repeat(np.arange(len(ds), dtype=np.int64), np.diff(ds.node_ptr))
    out: dict[Any, np.ndarray] = {}
    if graph_of.size == 0:
        return out
    pairs = np.unique(np.stack([ds.node_labels, graph_of], axis=1), axis=0)
    labels, starts = np.unique(pairs[:, 0], return_index=True)
    for lab, ids in zip(labels.tolist(), np.split(pairs[:, 1], starts[1:]), strict=True):
        out[ds.vertex_label_values[lab]] = ids
    return out


class _Counted:
    """A shard's phase-2 answer: local graph ids per candidate (kept on the worker)."""

    __slots__ = ("ids",)

    def __init__(self, ids: list[np.ndarray]) -> None:
        self.ids = ids


def _phase2(
    ds: Any,
    local: _LocalMined | None,
    candidates: tuple[list[Code], list[Any]],
    n_jobs: int,
) -> _Counted:
    codes, vertex_labels = candidates
    empty = np.zeros(0, dtype=np.int64)
    known = local.ids if local is not None else {}
    todo = [k for k, c in enumerate(codes) if c not in known]
    out = [known.get(c, empty) for c in codes]
    if todo and len(ds):
        probes = [Pattern(codes[k], 0, empty) for k in todo]
        for k, ids in zip(todo, _occurrences(probes, ds, n_jobs), strict=True):
            out[k] = np.asarray(ids, dtype=np.int64)
    if vertex_labels:
        by_label = _vertex_label_ids(ds)
        out += [by_label.get(v, empty) for v in vertex_labels]
    return _Counted(out)


_register_sizes()


def _phase2_counts(counted: _Counted) -> np.ndarray:
    return np.fromiter((len(ids) for ids in counted.ids), dtype=np.int64, count=len(counted.ids))


def _phase3(counted: _Counted, keep: np.ndarray) -> list[np.ndarray]:
    """Local graph ids of the kept candidates, in the narrowest unsigned dtype (fewer bytes)."""
    n = max((int(counted.ids[k][-1]) for k in keep.tolist() if len(counted.ids[k])), default=0)
    dtype = np.min_scalar_type(n)
    return [counted.ids[k].astype(dtype) for k in keep.tolist()]


# -- the driver -----------------------------------------------------------------------------------
#: Seconds a worker holding pinned shards may be gone before the phases are redone unpinned.
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


def local_thresholds(sizes: Sequence[int], min_support: int) -> list[int]:
    """Phase-1 threshold ``ceil(min_support · n_i / n)`` of each shard (0 for an empty shard).

    Exact integer arithmetic, so no rounding can push a threshold above its true value.

    >>> local_thresholds([10, 0, 5, 1], 6)
    [4, 0, 2, 1]
    """
    n = sum(sizes)
    return [(min_support * n_i + n - 1) // n if n_i else 0 for n_i in sizes]


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


def mine_subgraphs(
    collection: Any,
    min_support: int | float,
    max_size: int | None = None,
    *,
    client: Any = None,
    single_vertices: bool = False,
    n_shards: int | None = None,
    format: str | None = None,
    loader: Loader | None = None,
    n_jobs: int = 1,
    graph_ids: bool = True,
    pin: bool = True,
) -> MiningResult:
    """Every connected subgraph in at least ``min_support`` graphs of a sharded collection.

    Exact two-phase partition mining on a Dask cluster (see the module docstring for the
    scheme, the proof that nothing is missed, and its worst case). The result is identical to
    :func:`graphsparse.mine_subgraphs` on the concatenated collection: the same patterns (same
    minimum DFS codes in the same order), supports and graph ids in the global numbering (shard
    order, then order within the shard). No shard leaves its worker (see ``pin``); the driver
    holds DFS codes, counts and the final graph ids only.

    Parameters
    ----------
    collection : dask.bag.Bag, GraphDataset, list of networkx.Graph, or list of paths
        A ``dask.bag`` of networkx graphs (one shard per partition); a ``GraphDataset`` or a
        list of graphs (split into ``n_shards`` contiguous shards); or a list of files and TU
        folders (gSpan, TU, SMILES ``.smi``, SD files), each read on a worker (relative paths
        are made absolute on the driver; the workers must see the same files), and/or
        GraphDatasets. Labels are matched across shards by value, so shards need not share
        label sets.
    min_support : int or float
        A count in ``[1, n_graphs]`` or a fraction in ``(0, 1]`` of the whole collection.
    max_size : int, optional
        Largest pattern size in edges. Bounds the candidate set of small shards (see the worst
        case).
    client : distributed.Client, optional
        The cluster (default: the current client).
    single_vertices : bool, default=False
        Also report single-vertex patterns, first, as :func:`graphsparse.mine_subgraphs` does.
    n_shards : int, optional
        Shards for a ``GraphDataset`` or a list of graphs (default: two per worker thread).
    format : {"gspan", "tu", "smiles", "sdf"}, optional
        The format of listed files (default: a folder is TU, a file goes by its suffix).
    loader : callable, optional
        ``loader(item) -> GraphDataset`` to read each listed item on a worker (must pickle).
    n_jobs : int, default=1
        Rayon threads inside each task (Dask already runs one task per worker thread).
    graph_ids : bool, default=True
        Fetch every pattern's graph ids to the driver. They are most of the result (8 bytes per
        occurrence: the sum of the supports); ``False`` skips that last phase and returns each
        pattern with its exact ``support`` and an empty ``graph_ids``, so the driver holds
        O(number of patterns) for collections whose occurrence lists would not fit.

    pin : bool, default=True
        Run every phase of a shard on the worker that read it, so that Dask's work stealing
        never moves a shard between workers. If a worker holding shards is lost, the phases
        are redone without pins after 5 seconds (same result; the lost shards are read again
        elsewhere). ``False`` lets Dask place and steal tasks freely.

    Returns
    -------
    MiningResult
        ``truncated`` is ``None``; ``nodes_visited`` is the sum over the phase-1 searches (it
        differs from a single-machine run); ``seconds`` is the wall time of the whole run.

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
    if max_size is not None and (
        isinstance(max_size, bool) or not isinstance(max_size, int | np.integer) or max_size < 0
    ):
        raise InvalidParameterError(f"max_size must be a non-negative integer, got {max_size!r}")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int | np.integer) or n_jobs < 1:
        raise InvalidParameterError(f"n_jobs must be a positive integer, got {n_jobs!r}")
    client = get_client(client)
    shards = shard_futures(collection, client, n_shards=n_shards, fmt=format, loader=loader)
    try:
        args = (client, shards, min_support, max_size, single_vertices, int(n_jobs), graph_ids)
        try:
            patterns, nodes_visited = _run_phases(*args, pin=pin)
        except _WorkerGone:  # a pinned worker stayed away: redo the phases unpinned
            patterns, nodes_visited = _run_phases(*args, pin=False)
    finally:
        client.cancel(shards)
    return MiningResult(
        patterns,
        truncated=None,
        nodes_visited=int(nodes_visited),
        seconds=time.perf_counter() - start,
    )


def _run_phases(
    client: Any,
    shards: list[Any],
    min_support: int | float,
    max_size: int | None,
    single_vertices: bool,
    n_jobs: int,
    graph_ids: bool,
    *,
    pin: bool,
) -> tuple[list[Pattern], int]:
    """Phases 1 to 3 over the shard futures; the patterns and the phase-1 node count."""
    futures: list[Any] = []
    try:
        infos = client.gather([client.submit(shard_info, f, pure=False) for f in shards])
        sizes = [n for n, _, _ in infos]
        n = sum(sizes)
        if n == 0:
            raise InvalidParameterError("collection contains no graphs")
        support = min_support_count(min_support, n)
        vertex_values = _sorted_values({v for _, vs, _ in infos for v in vs}, "vertex")
        edge_values = _sorted_values({v for _, _, es in infos for v in es}, "edge")

        # each shard's phases prefer the worker holding it (loose: any worker if it is lost)
        near = _pins(client, shards) if pin else [{} for _ in shards]
        gather = functools.partial(_gather_pinned, client, near)

        # phase 1: local mining at the proportional thresholds
        thresholds = local_thresholds(sizes, support)
        tiny = [k for k, t in enumerate(thresholds) if t == 1]
        if tiny and support > 1 and max_size is None:
            warnings.warn(
                f"{len(tiny)} shard(s) (first: shard {tiny[0]}, {sizes[tiny[0]]} of {n} graphs) "
                f"have local threshold 1 at min_support={support}, so phase 1 enumerates every "
                "connected subgraph of their graphs; pass max_size, or use fewer, larger shards",
                SmallShardWarning,
                stacklevel=2,
            )
        local: list[Any] = [None] * len(shards)
        for k, (f, t) in enumerate(zip(shards, thresholds, strict=True)):
            if t and max_size != 0:
                local[k] = client.submit(
                    _phase1, f, t, max_size, int(n_jobs), pure=False, **near[k]
                )
        futures += [f for f in local if f is not None]
        summaries = gather(
            [
                client.submit(_phase1_summary, f, pure=False, **near[k])
                for k, f in enumerate(local)
                if f is not None
            ]
        )
        union: dict[Code, None] = {}
        for codes, _ in summaries:
            union.update(dict.fromkeys(codes))
        nodes_visited = sum(v for _, v in summaries)
        codes = list(union)
        order = dfs_code_order(codes, vertex_values, edge_values)
        codes = [codes[k] for k in order]
        singles = list(vertex_values) if single_vertices else []

        # phase 2: exact support of every candidate in every non-empty shard
        [candidates] = client.scatter([(codes, singles)], broadcast=True, hash=False)
        futures.append(candidates)
        counted: list[Any] = [None] * len(shards)
        for k, f in enumerate(shards):
            if sizes[k]:
                counted[k] = client.submit(
                    _phase2, f, local[k], candidates, int(n_jobs), pure=False, **near[k]
                )
        futures += [f for f in counted if f is not None]
        live = [k for k in range(len(shards)) if counted[k] is not None]
        counts = gather(
            [client.submit(_phase2_counts, counted[k], pure=False, **near[k]) for k in live]
        )
        total = np.sum(counts, axis=0) if counts else np.zeros(0, dtype=np.int64)
        keep = np.flatnonzero(total >= support)

        # phase 3: graph ids of the frequent candidates, in global numbering
        offsets = np.concatenate([[0], np.cumsum(sizes)]).tolist()
        per_shard = (
            gather([client.submit(_phase3, counted[k], keep, pure=False, **near[k]) for k in live])
            if graph_ids
            else None
        )
    finally:
        client.cancel(futures)
    n_codes = len(codes)
    patterns: list[Pattern] = []
    no_ids = np.zeros(0, dtype=np.int64)
    for pos, j in enumerate(keep.tolist()):
        if per_shard is None:
            ids = no_ids
        else:
            ids = np.concatenate(
                [s[pos].astype(np.int64) + offsets[k] for s, k in zip(per_shard, live, strict=True)]
            )
        support = int(total[j])
        if j >= n_codes:  # a single vertex
            patterns.append(Pattern((), support, ids, (singles[j - n_codes],)))
        else:
            patterns.append(Pattern(codes[j], support, ids, _vertex_labels_of(codes[j])))
    if single_vertices:  # single vertices first, as the single-machine miner reports them
        n_single = int(np.count_nonzero(keep >= n_codes))
        patterns = patterns[len(patterns) - n_single :] + patterns[: len(patterns) - n_single]
    return patterns, nodes_visited
