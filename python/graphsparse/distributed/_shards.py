"""Shards of a graph collection as Dask futures: each one read or built on a worker.

A shard is a :class:`~graphsparse.GraphDataset` held by one worker. The driver only ever sees
its size and its label values; the graphs stay where they were read. Each future keeps its
lineage (the reading task), so a worker lost mid-run costs a re-read, never a missing shard.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from .._validation import as_optional_count
from ..datasets import GraphDataset, as_dataset, from_networkx, load_tu, read_gspan
from ..exceptions import InvalidParameterError

__all__ = ["FORMATS", "as_n_shards", "get_client", "read_shard", "shard_futures"]

#: File formats :func:`read_shard` knows, and the suffixes that select them by default.
FORMATS = {
    "gspan": (".gsp", ".gspan", ".txt", ".data"),
    "sdf": (".sdf", ".sd", ".mol"),
    "smiles": (".smi", ".smiles", ".ism", ".can"),
    "tu": (),
}

Loader = Callable[[Any], GraphDataset]


def as_n_shards(n_shards: Any) -> int | None:
    """``n_shards`` checked as a count ``>= 1`` (``None``: the default); call it before
    :func:`get_client`, so that a bad value is named even without a cluster."""
    return as_optional_count(n_shards, "n_shards", 1)


def get_client(client: Any) -> Any:
    """``client`` itself, or the current ``distributed`` client (a clear error if none)."""
    if client is not None:
        return client
    from distributed import get_client as current

    try:
        return current()
    except ValueError:
        raise InvalidParameterError(
            "no Dask client: pass client=distributed.Client(...) or create one first"
        ) from None


def absolute(item: Any) -> Any:
    """A path made absolute against the driver's working directory (workers have their own)."""
    return os.path.abspath(item) if isinstance(item, str | os.PathLike) else item


def _format_of(path: Path, fmt: str | None) -> str:
    if fmt is not None:
        if fmt not in FORMATS:
            raise InvalidParameterError(f"format must be one of {sorted(FORMATS)}, got {fmt!r}")
        return fmt
    if path.is_dir():
        return "tu"
    suffix = path.suffix.lower()
    for name, suffixes in FORMATS.items():
        if suffix in suffixes:
            return name
    raise InvalidParameterError(
        f"cannot tell the format of {os.fspath(path)!r} from its suffix; pass format= "
        f"(one of {sorted(FORMATS)})"
    )


def _read_smiles_file(path: Path) -> GraphDataset:
    """One molecule per line: the SMILES, optionally followed by a name (``.smi`` files)."""
    from ..chem import from_smiles

    smiles: list[str] = []
    names: list[str] = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.split(maxsplit=1)
            if not parts or parts[0].startswith("#"):
                continue
            smiles.append(parts[0])
            names.append(parts[1].strip() if len(parts) > 1 else str(len(names)))
    return from_smiles(smiles, names=names)


def read_shard(source: Any, fmt: str | None = None, loader: Loader | None = None) -> GraphDataset:
    """Read one shard on a worker: a path (gSpan, TU folder, SMILES or SD file) or graphs.

    Parameters
    ----------
    source : path-like, GraphDataset or sequence of networkx.Graph
        A file or TU folder, or the graphs themselves (a ``dask.bag`` partition).
    fmt : {"gspan", "tu", "smiles", "sdf"}, optional
        The file format; by default a folder is a TU dataset and a file goes by its suffix.
    loader : callable, optional
        ``loader(source) -> GraphDataset`` for any other source (it must pickle).
    """
    if loader is not None:
        ds = loader(source)
        if not isinstance(ds, GraphDataset):
            raise InvalidParameterError(
                f"loader must return a GraphDataset, got {type(ds).__name__}"
            )
        return ds
    if isinstance(source, GraphDataset):
        return source
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        kind = _format_of(path, fmt)
        if kind == "tu":
            return load_tu(path)
        if kind == "gspan":
            return read_gspan(path)
        if kind == "sdf":
            from ..chem import read_sdf

            return read_sdf(path)
        return _read_smiles_file(path)
    graphs = list(source)
    return from_networkx(graphs) if graphs else _empty_dataset()


def _empty_dataset() -> GraphDataset:
    z = np.zeros(0, dtype=np.int64)
    return GraphDataset([0], z, [0], z.reshape(0, 2), z, (), ())


def shard_info(ds: GraphDataset) -> tuple[int, tuple[Any, ...], tuple[Any, ...]]:
    """What the driver learns of a shard: its size and the label values that occur in it."""
    vl, el = ds.vertex_label_values, ds.edge_label_values
    used_v = np.unique(ds.node_labels).tolist()
    used_e = np.unique(ds.edge_labels).tolist()
    return len(ds), tuple(vl[i] for i in used_v), tuple(el[i] for i in used_e)


def release(futures: Sequence[Any]) -> None:
    """Lets the cluster drop what ``futures`` hold (and stop their tasks if still running).

    Not ``client.cancel``: cancelling a shard also cancels its dependent tasks, and one whose
    future this client already released (still running, nobody wanting it) trips an assertion
    in the scheduler's cancel handler, which then drops the client's connection; every later
    call failed with ``scheduler-connection-lost``. Releasing only withdraws this client's
    interest, which is all the driver means.
    """
    for future in futures:
        future.release()


def _is_bag(obj: Any) -> bool:
    try:
        import dask.bag as db
    except ImportError:  # pragma: no cover - dask.bag ships with dask
        return False
    return isinstance(obj, db.Bag)


def default_n_shards(client: Any) -> int:
    """Two shards per worker thread: enough to balance unequal shards, few enough to be cheap."""
    try:
        info = client.scheduler_info(n_workers=-1)  # newer clients list only a few by default
    except TypeError:  # pragma: no cover - distributed before n_workers= was added
        info = client.scheduler_info()
    threads = sum(int(w.get("nthreads", 1)) for w in info["workers"].values())
    return max(1, 2 * threads)


def split_bounds(n: int, n_shards: int) -> list[tuple[int, int]]:
    """``n_shards`` contiguous ``[a, b)`` ranges covering ``0..n`` as evenly as possible."""
    edges = np.linspace(0, n, n_shards + 1).round().astype(np.int64).tolist()
    return list(itertools.pairwise(edges))


def split_in_memory(
    collection: Any, client: Any, n_shards: int | None
) -> list[GraphDataset] | None:
    """A GraphDataset or list of networkx graphs in ``n_shards`` contiguous pieces (else None).

    The default is two pieces per worker thread.
    """
    if isinstance(collection, GraphDataset) or (
        isinstance(collection, Sequence)
        and collection
        and all(isinstance(g, nx.Graph) for g in collection)
    ):
        ds = as_dataset(collection, "collection")
        k = as_n_shards(n_shards)
        k = k if k is not None else default_n_shards(client)
        return [ds[a:b] for a, b in split_bounds(len(ds), k)]
    return None


def shard_futures(
    collection: Any,
    client: Any,
    *,
    n_shards: int | None = None,
    fmt: str | None = None,
    loader: Loader | None = None,
) -> list[Any]:
    """One future per shard, each resolving on a worker to a :class:`GraphDataset`.

    ``collection`` is a ``dask.bag`` of networkx graphs (one shard per partition), a
    :class:`GraphDataset` or a list of networkx graphs (split into ``n_shards`` contiguous
    shards, each sent once to the worker that holds it), or a list whose items are paths (each
    read on a worker by :func:`read_shard`) or GraphDatasets. Shard order is collection order,
    which is the global graph numbering.
    """
    n_shards = as_n_shards(n_shards)
    if _is_bag(collection):
        from dask import delayed

        parts = collection.to_delayed()
        tasks = [delayed(read_shard)(p, fmt, loader) for p in parts]
        return list(client.compute(tasks, optimize_graph=True))
    if isinstance(collection, str | os.PathLike):
        collection = [collection]
    if isinstance(collection, nx.Graph):
        raise InvalidParameterError("collection is one graph; pass a sequence of graphs")
    in_memory = split_in_memory(collection, client, n_shards)
    if in_memory is not None:
        # the shard is an argument of its task, so the scheduler can resend it if a worker dies
        return [client.submit(read_shard, s, pure=False) for s in in_memory]
    if isinstance(collection, Sequence) and not isinstance(collection, str | bytes):
        items = list(collection)
        for k, item in enumerate(items):
            if not isinstance(item, str | os.PathLike | GraphDataset) and loader is None:
                raise InvalidParameterError(
                    f"collection[{k}] is a {type(item).__name__}; expected a path or a "
                    "GraphDataset (or pass loader=)"
                )
        if n_shards is not None and n_shards != len(items):
            raise InvalidParameterError(
                f"n_shards={n_shards} but the collection lists {len(items)} shards"
            )
        items = [absolute(item) for item in items]
        return [client.submit(read_shard, item, fmt, loader, pure=False) for item in items]
    raise InvalidParameterError(
        "collection must be a dask.bag of networkx graphs, a GraphDataset, a list of networkx "
        f"graphs, or a list of files or GraphDatasets; got {type(collection).__name__}"
    )


class Packed:
    """An object that crosses to the workers as one in-band pickle, so its arrays are aligned.

    Dask packs small out-of-band buffers (a fitted model's coefficient arrays, a chunk of
    prize vectors) back to back in one network frame, so NumPy arrays can arrive misaligned,
    and the Rust bindings accept only aligned, contiguous arrays. An in-band pickle (made
    with cloudpickle, so lambdas travel too) rebuilds every array in its own allocation.
    """

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __reduce__(self) -> tuple[Any, ...]:
        import cloudpickle

        return (_unpack, (cloudpickle.dumps(self.obj, protocol=5),))


def _unpack(payload: bytes) -> Packed:
    import pickle

    return Packed(pickle.loads(payload))


def unpacked(obj: Any) -> Any:
    """The object inside a :class:`Packed` (anything else as it is)."""
    return obj.obj if isinstance(obj, Packed) else obj


def _register_sizes() -> None:
    """Tell Dask what a shard weighs (its default guess for unknown objects is 128 bytes).

    The scheduler places each task beside its largest inputs and weighs a steal against the
    transfer it costs; with the real sizes it keeps the phases of a shard on the worker that
    holds it.
    """
    from dask.sizeof import sizeof

    @sizeof.register(GraphDataset)
    def _dataset_size(ds: GraphDataset) -> int:
        arrays = sum(a.nbytes for a in ds._arrays())
        return arrays + 64 * len(ds) + (0 if ds.y is None else ds.y.nbytes)


_register_sizes()
