"""The level-wise rounds' side on a worker: a shard's frontier and one round over it.

See :mod:`graphsparse.distributed.mining` for the scheme. A round's state (:class:`_Round`) is a
task result that depends on the shard and the previous round, so Dask recomputes a lost one
from its lineage; it holds plain arrays, so it pickles if Dask moves it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _graphsparse as _rs  # type: ignore[attr-defined]

_NO_IDS = np.zeros(0, dtype=np.int64)
_NO_CODES = np.zeros((0, 5), dtype=np.int64)


class _Frontier:
    """A shard's patterns of ``size`` edges with their embeddings, as flat arrays.

    A copy of the ``Frontier`` that :func:`graphsparse._graphsparse.level_frontier` returns,
    with the attributes the binding reads back (``FrontierParts``); plain arrays, so the state
    pickles if Dask moves it. ``size == 0`` is the empty pattern that round 0 extends.
    """

    __slots__ = ("codes", "emb_ptr", "gid_ptr", "gids", "pairs", "size", "starts")

    def __init__(self, size: int, *arrays: np.ndarray) -> None:
        self.size = size
        if not arrays:
            u32 = np.zeros(0, dtype=np.uint32)
            arrays = (_NO_CODES, u32.reshape(0, 2), np.zeros(1, np.int64), u32, u32)
            arrays += (np.zeros(1, np.int64),)
        self.codes, self.pairs, self.emb_ptr, self.starts, self.gids, self.gid_ptr = arrays

    @classmethod
    def of(cls, f: _rs.Frontier) -> _Frontier:
        """A plain copy of the binding's frontier (the same arrays, no copy of the data)."""
        return cls(f.size, f.codes, f.pairs, f.emb_ptr, f.starts, f.gids, f.gid_ptr)

    def __len__(self) -> int:
        return len(self.gid_ptr) - 1

    def nbytes(self) -> int:
        return sum(getattr(self, a).nbytes for a in self.__slots__ if a != "size")


class _Round:
    """A shard after one round: its frontier, where the frontier's patterns sit in the
    driver's list of that round, and the extensions it proposes with their local supports:
    ``parents`` (positions in the driver's list) and appended ``edges`` (collection-wide label
    ids)."""

    __slots__ = ("edges", "frontier", "parents", "positions", "supports")

    def __init__(
        self,
        frontier: _Frontier,
        positions: np.ndarray,
        proposed: tuple[np.ndarray, np.ndarray, np.ndarray],
    ) -> None:
        self.frontier, self.positions = frontier, positions
        self.parents, self.edges, self.supports = proposed

    def nbytes(self) -> int:
        arrays = (self.positions, self.parents, self.edges, self.supports)
        return self.frontier.nbytes() + sum(a.nbytes for a in arrays)


def _register_sizes() -> None:
    """Real sizes for the per-shard state kept on the workers (see ``_shards._register_sizes``)."""
    from dask.sizeof import sizeof

    sizeof.register(_Round)(_Round.nbytes)


_register_sizes()


# -- the tasks that run on the workers ------------------------------------------------------------
def _label_maps(ds: Any, labels: tuple[list[Any], list[Any]]) -> tuple[np.ndarray, np.ndarray]:
    """The collection-wide id of each of the shard's vertex and edge label ids."""
    vertex_values, edge_values = labels
    vid = {v: k for k, v in enumerate(vertex_values)}
    eid = {v: k for k, v in enumerate(edge_values)}
    # a shard lists label values it may not use; those are not in the collection's lists
    vmap = np.array([vid.get(v, -1) for v in ds.vertex_label_values], dtype=np.int64)
    emap = np.array([eid.get(v, -1) for v in ds.edge_label_values], dtype=np.int64)
    return vmap, emap


def _relabel(codes: np.ndarray, vmap: np.ndarray, emap: np.ndarray) -> np.ndarray:
    """``codes`` (rows of ``(i, j, l_i, l_ij, l_j)``) with their labels mapped."""
    out = codes.copy()
    out[:, 2], out[:, 3], out[:, 4] = vmap[codes[:, 2]], emap[codes[:, 3]], vmap[codes[:, 4]]
    return out


def _inverse(fwd: np.ndarray, n: int) -> np.ndarray:
    inv = np.full(n, -1, dtype=np.int64)
    ok = fwd >= 0
    inv[fwd[ok]] = np.flatnonzero(ok)
    return inv


def _round(
    ds: Any,
    prev: _Round | None,
    keep: tuple[np.ndarray, np.ndarray] | None,
    labels: tuple[list[Any], list[Any]],
    grow: bool,
    n_jobs: int,
) -> _Round:
    """One round on one shard: keep the embeddings of the extensions ``keep`` (the previous
    round's frequent ones: positions of their parents in the round before, appended edges in
    collection-wide label ids), then list their own extensions (when ``grow``)."""
    vmap, emap = _label_maps(ds, labels)
    if prev is None:
        frontier, positions = _Frontier(0), np.zeros(1, dtype=np.int64)  # the empty pattern
        count = _rs.level_extensions(ds._db, frontier, n_jobs) if grow else None
    else:
        assert keep is not None
        parents, edges = keep
        # the shard's index of each parent; -1 where the parent does not occur here
        local_parent = np.full(int(prev.positions.max(initial=-1)) + 1, -1, dtype=np.int64)
        local_parent[prev.positions] = np.arange(len(prev.positions))
        inv_v, inv_e = _inverse(vmap, len(labels[0])), _inverse(emap, len(labels[1]))
        local = _relabel(edges, inv_v, inv_e)
        lp = np.full(len(parents), -1, dtype=np.int64)
        known = parents < len(local_parent)
        lp[known] = local_parent[parents[known]]
        # an extension with a label or a parent this shard lacks cannot occur in it
        here = np.flatnonzero((lp >= 0) & (local[:, 2:] >= 0).all(axis=1))
        next_frontier, found, count = _rs.level_frontier(
            ds._db, prev.frontier, lp[here], local[here], grow, n_jobs
        )
        frontier = _Frontier.of(next_frontier)
        positions = here[found]
    if count is None or not len(positions):
        return _Round(frontier, positions, (_NO_IDS, _NO_CODES, _NO_IDS))
    proposed = (positions[count.parents], _relabel(count.edges, vmap, emap), count.supports)
    return _Round(frontier, positions, proposed)


def _value(value: Any) -> Any:
    return value


def _proposed(r: _Round) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return r.parents, r.edges, r.supports


def _frontier_ids(r: _Round) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Positions of the shard's frontier patterns in the round's list, with their local graph
    ids (``gid_ptr``, ``gids`` in the narrowest unsigned dtype: fewer bytes to move)."""
    f = r.frontier
    gids = f.gids.astype(np.min_scalar_type(int(f.gids.max(initial=0))))
    return r.positions, f.gid_ptr, gids
