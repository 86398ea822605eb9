"""Fitted models applied partition-wise to Dask collections.

The fitted model is scattered once to every worker (``client.scatter(model, broadcast=True)``)
and each partition is turned into a block of the output where it lives: graphs become a
:class:`~graphsparse.GraphDataset` on the worker, table partitions go to the model as they are.
Outputs are lazy ``dask.array`` objects (scipy CSR blocks where the output is sparse:
``transform`` of rule ensembles, WL features and pattern features), or a ``dask.bag`` of
networkx graphs for the compressors. Row order is partition order, so the result lines up with
the input collection.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._threads import resolve_n_jobs
from ..compression import WLSubtreeFeatures
from ..compression._base import _Compressor
from ..datasets import GraphDataset, as_dataset
from ..exceptions import InvalidParameterError
from ..mining import Pattern
from ..mining._search import _pattern_features
from ._shards import (
    Packed,
    absolute,
    as_n_shards,
    get_client,
    read_shard,
    split_in_memory,
    unpacked,
)

__all__ = ["decision_function", "pattern_features", "predict", "predict_proba", "transform"]


def pattern_features(patterns: Sequence[Pattern], X: Any, n_jobs: int | None = 1) -> sp.csr_matrix:
    """The 0/1 CSR matrix ``A[i, j] = 1`` when graph ``i`` of ``X`` contains ``patterns[j]``.

    Computed by the subgraph-isomorphism matcher of the subgraph models, so it agrees with
    ``graph_ids`` of mined patterns on the graphs they were mined from.
    """
    return _pattern_features(patterns, as_dataset(X, "X", directed_ok=True), n_jobs)


class _PatternSet:
    """A list of patterns as a transformer (its ``transform`` is :func:`pattern_features`)."""

    def __init__(self, patterns: Sequence[Pattern], n_jobs: int | None) -> None:
        self.patterns = list(patterns)
        self.n_jobs = n_jobs

    def transform(self, X: Any) -> sp.csr_matrix:
        return pattern_features(self.patterns, X, self.n_jobs)


def _is_graph_model(model: Any) -> bool:
    return isinstance(model, _PatternSet | WLSubtreeFeatures | _Compressor) or hasattr(
        model, "patterns_"
    )


def _block(model: Any, method: str, part: Any, graphs: bool) -> Any:
    """One output block: ``model.method`` on one partition, on the worker that holds it."""
    model = unpacked(model)
    # table blocks may arrive as views of a network frame, unaligned for the Rust bindings
    if isinstance(part, np.ndarray):
        part = np.require(part, requirements=["C", "A"])
    elif type(part).__name__ == "DataFrame" and hasattr(part, "copy"):
        part = part.copy(deep=True)
    if graphs:
        ds = part if isinstance(part, GraphDataset) else read_shard(part)
        if len(ds) == 0:
            return None
        out = getattr(model, method)(ds)
        return list(out.graphs) if isinstance(out, GraphDataset) else out
    if hasattr(part, "shape") and part.shape[0] == 0:
        return None
    return getattr(model, method)(part)


def _fill_empty(out: Any, empty: Any) -> Any:
    return empty if out is None else out


def _spec(model: Any, method: str) -> tuple[tuple[int, ...], np.dtype, Any]:
    """Trailing shape, dtype and block type (``meta``) of ``model.method``'s output."""
    classes = getattr(model, "classes_", None)
    if method == "predict":
        dtype = np.asarray(classes).dtype if classes is not None else np.dtype(np.float64)
        return (), dtype, np.empty(0, dtype=dtype)
    if method == "decision_function":
        tail: tuple[int, ...] = (len(classes),) if classes is not None and len(classes) > 2 else ()
        return tail, np.dtype(np.float64), np.empty((0, *tail))
    if method == "predict_proba":
        if classes is None:
            raise InvalidParameterError(f"{type(model).__name__} has no classes_ (not fitted?)")
        return (len(classes),), np.dtype(np.float64), np.empty((0, len(classes)))
    if isinstance(model, _PatternSet):
        width = len(model.patterns)
    elif hasattr(model, "n_features_out_"):
        width = int(model.n_features_out_)
    elif hasattr(model, "n_rules_"):
        width = int(model.n_rules_)
    else:
        raise InvalidParameterError(
            f"cannot tell the width of {type(model).__name__}.transform (not fitted?)"
        )
    return (width,), np.dtype(np.float64), sp.csr_matrix((0, width))


def _partitions(
    collection: Any, client: Any, n_shards: int | None
) -> tuple[list[Any], list[float], bool]:
    """Delayed partitions, their row counts (NaN when unknown) and whether they hold graphs."""
    import dask.array as da
    import dask.bag as db
    from dask import delayed

    if isinstance(collection, db.Bag):
        parts = collection.to_delayed()
        return list(parts), [np.nan] * len(parts), True
    if isinstance(collection, da.Array):
        if collection.ndim != 2:
            raise InvalidParameterError(
                f"a dask array collection must be 2-D (rows x features), got {collection.ndim}-D"
            )
        arr = collection.rechunk({1: -1})
        return list(arr.to_delayed().ravel()), [float(c) for c in arr.chunks[0]], False
    try:
        import dask.dataframe as dd

        if isinstance(collection, dd.DataFrame):
            parts = collection.to_delayed()
            return list(parts), [np.nan] * len(parts), False
    except ImportError:  # pragma: no cover - dask.dataframe needs pandas and pyarrow
        pass
    in_memory = split_in_memory(collection, client, n_shards)
    if in_memory is not None:
        parts = [delayed(piece, pure=False) for piece in in_memory]
        return parts, [float(len(piece)) for piece in in_memory], True
    if isinstance(collection, Sequence) and all(
        isinstance(p, str | os.PathLike) for p in collection
    ):
        # the path itself goes to the block's task, which reads the file where it runs
        parts = [os.fspath(absolute(p)) for p in collection]
        return parts, [np.nan] * len(parts), True
    raise InvalidParameterError(
        "collection must be a dask.bag of networkx graphs, a dask.dataframe, a 2-D dask.array, "
        "a GraphDataset or list of graphs, or a list of graph files; "
        f"got {type(collection).__name__}"
    )


def _apply(
    model: Any,
    method: str,
    collection: Any,
    client: Any,
    n_shards: int | None,
    n_jobs: int | None,
) -> Any:
    import dask.array as da
    import dask.bag as db
    from dask import delayed

    # the counts are checked here, on the driver, before any cluster is needed
    n_shards = as_n_shards(n_shards)
    if n_jobs is not None:
        resolve_n_jobs(n_jobs)
    if isinstance(model, Sequence) and all(isinstance(p, Pattern) for p in model):
        if method != "transform":
            raise InvalidParameterError(f"a list of patterns has transform only, not {method}")
        model = _PatternSet(model, n_jobs)
    elif method == "transform" and hasattr(model, "patterns_"):
        model = _PatternSet(model.patterns_, n_jobs)  # a subgraph model's features, unpickled
    elif not hasattr(model, method):
        raise InvalidParameterError(f"{type(model).__name__} has no method {method!r}")
    elif n_jobs is not None and "n_jobs" in getattr(model, "__dict__", {}):
        model = copy.copy(model)  # threads per task; the caller's model is left alone
        model.n_jobs = n_jobs
    client = get_client(client)
    parts, rows, graphs = _partitions(collection, client, n_shards)
    if graphs and not _is_graph_model(model):
        raise InvalidParameterError(f"{type(model).__name__} does not take graphs")
    [shipped] = client.scatter([Packed(model)], broadcast=True, hash=False)
    block = delayed(_block, pure=True)
    if isinstance(model, _Compressor):
        return db.from_delayed(
            [delayed(_fill_empty)(block(shipped, method, p, graphs), []) for p in parts]
        )
    tail, dtype, meta = _spec(model, method)
    empty = meta if sp.issparse(meta) else np.empty((0, *tail), dtype=dtype)
    blocks = [
        da.from_delayed(
            delayed(_fill_empty)(block(shipped, method, p, graphs), empty),
            shape=(n, *tail),
            dtype=dtype,
            meta=meta,
        )
        for p, n in zip(parts, rows, strict=True)
    ]
    if not blocks:
        raise InvalidParameterError("collection has no partitions")
    return da.concatenate(blocks, axis=0, allow_unknown_chunksizes=True)


_DOC = """{summary}

    Parameters
    ----------
    model : fitted estimator{extra}
    collection : dask.bag.Bag, dask.dataframe.DataFrame, dask.array.Array, GraphDataset, or list
        Graphs (a ``dask.bag`` of networkx graphs, a ``GraphDataset`` or list of graphs split
        into ``n_shards`` blocks, or a list of graph files read on the workers) for graph
        models; a ``dask.dataframe`` or 2-D ``dask.array`` (rows x features) for table models
        (rule ensembles, recovery estimators).
    client : distributed.Client, optional
        The cluster (default: the current client). The model is scattered to every worker once.
    n_shards : int, optional
        Blocks for an in-memory ``GraphDataset`` or list of graphs (default: two per thread).
    n_jobs : int or None, default=1
        Threads the model uses inside each task (its ``n_jobs``); ``None`` keeps the model's.

    Returns
    -------
    {returns}
    """


def _partitionwise(method: str, summary: str, extra: str, returns: str) -> Any:
    """The public wrapper that applies ``model.<method>`` to every partition."""

    def apply(
        model: Any,
        collection: Any,
        *,
        client: Any = None,
        n_shards: int | None = None,
        n_jobs: int | None = 1,
    ) -> Any:
        return _apply(model, method, collection, client, n_shards, n_jobs)

    apply.__name__ = apply.__qualname__ = method
    apply.__doc__ = _DOC.format(summary=summary, extra=extra, returns=returns)
    return apply


predict = _partitionwise(
    "predict",
    summary="``model.predict`` on every partition: a lazy 1-D ``dask.array`` in row order.",
    extra="\n        Any fitted estimator with ``predict`` (subgraph models, rule ensembles, ...).",
    returns="dask.array.Array\n        Predictions, one per row (row counts unknown until computed "
    "for bags, data frames and files).",
)
decision_function = _partitionwise(
    "decision_function",
    summary="``model.decision_function`` on every partition, as a lazy ``dask.array``.",
    extra="\n        A fitted classifier with ``decision_function``.",
    returns="dask.array.Array\n        ``(n,)`` for two classes, ``(n, n_classes)`` otherwise.",
)
predict_proba = _partitionwise(
    "predict_proba",
    summary="``model.predict_proba`` on every partition, as a lazy ``dask.array``.",
    extra="\n        A fitted classifier with ``predict_proba``.",
    returns="dask.array.Array\n        ``(n, n_classes)`` class probabilities.",
)
transform = _partitionwise(
    "transform",
    summary="``model.transform`` on every partition: features, or compressed graphs.",
    extra=(
        "\n        ``WLSubtreeFeatures``, a rule ensemble, a fitted subgraph model or a list of "
        "``Pattern``\n        (0/1 pattern features), or a compressor (``OTCompressor`` ...)."
    ),
    returns=(
        "dask.array.Array or dask.bag.Bag\n        Features as a lazy ``dask.array`` of scipy "
        "CSR blocks (``compute()`` gives one CSR matrix);\n        compressed graphs as a "
        "``dask.bag`` of networkx graphs."
    ),
)
