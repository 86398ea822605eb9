"""Graph files: the gSpan text format (read and written) and the TU Dortmund folders."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any

import networkx as nx
import numpy as np
import numpy.typing as npt

from .. import _graphsparse as _rs
from .._dataset import GraphDataset, PathLike, _as_response, from_networkx
from ..exceptions import InvalidParameterError


def _tokens_to_values(tokens: Sequence[str], kind: str) -> list[Any]:
    """Label tokens from the Rust readers as Python values, by the kind Rust gave the set.

    The tokens arrive in canonical order (integers, then floats, by value; text by code point)
    and one token per label, so the values need no re-sorting.
    """
    if kind == "integer":
        return [int(t) for t in tokens]
    if kind == "float":
        return [float(t) for t in tokens]
    return list(tokens)


def _from_rust(data: _rs.LabeledDatabase, y: Any = None) -> GraphDataset:
    """A dataset from what the Rust readers return (label tokens -> user values)."""
    vvals = _tokens_to_values(data.vertex_labels, data.vertex_label_kind)
    evals = _tokens_to_values(data.edge_labels, data.edge_label_kind)
    graph_labels, graph_label_kind = data.graph_labels, data.graph_label_kind
    if y is None and graph_labels is not None and graph_label_kind is not None:
        y = np.asarray(_tokens_to_values(graph_labels, graph_label_kind))
    return GraphDataset._from_db(data.db, vvals, evals, y=y, names=data.graph_names)


def read_gspan(
    path: PathLike, y: npt.ArrayLike | PathLike | None = None, *, directed: bool = False
) -> GraphDataset:
    r"""Read graphs in gSpan text format (``t # id`` / ``v id label`` / ``e u v label``).

    Parameters
    ----------
    path : str or path-like
        The file. Vertex ids may be 1-based or non-contiguous.
    y : array-like, or path to a file with one label per line, optional
        The response, one value per graph.
    directed : bool, default=False
        Read ``e u v label`` as the arc ``u -> v``: a directed dataset
        (``GraphDataset.directed``). Two vertices are still joined by one line at most, so
        arcs in both directions between them are rejected like parallel edges.

    Raises
    ------
    GraphFormatError
        With file name and line number, for malformed lines, undeclared or duplicate vertices,
        self-loops and parallel edges.
    FileNotFoundError
        If the file cannot be read.

    Examples
    --------
    >>> ds = parse_gspan("t # 0\nv 0 A\nv 1 B\ne 1 0 x\n", directed=True)
    >>> ds.directed, list(ds.graph(0).edges)
    (True, [(1, 0)])
    """
    directed = _as_directed(directed)
    data = _rs.read_gspan_file(os.fspath(path), directed=directed)
    if y is None:
        return _from_rust(data)
    ds = _from_rust(data)
    ds.y = _as_response(y, len(ds))
    return ds


def parse_gspan(
    text: str, y: npt.ArrayLike | None = None, *, directed: bool = False
) -> GraphDataset:
    """Like :func:`read_gspan`, from a string."""
    directed = _as_directed(directed)
    ds = _from_rust(_rs.parse_gspan_text(text, "<string>", directed=directed))
    ds.y = _as_response(y, len(ds))
    return ds


def _as_directed(directed: Any) -> bool:
    if not isinstance(directed, bool | np.bool_):
        raise InvalidParameterError(f"directed must be a bool, got {directed!r}")
    return bool(directed)


def load_tu(path: PathLike, name: str | None = None) -> GraphDataset:
    """Read a dataset in the TU Dortmund format (``NAME_A.txt``, ``NAME_graph_indicator.txt`` ...).

    Parameters
    ----------
    path : str or path-like
        The dataset folder, or any one of its files.
    name : str, optional
        The dataset name; by default inferred from the single ``*_A.txt`` in the folder.

    Returns
    -------
    GraphDataset
        ``y`` holds ``NAME_graph_labels.txt`` when present. Vertex labels come from
        ``NAME_node_labels.txt`` and edge labels from ``NAME_edge_labels.txt``; a missing label file
        means label 0 everywhere. Edges listed in both directions are merged: the format has
        no mark for directed graphs (its datasets list every undirected edge both ways), so the
        result is undirected.
    """
    return _from_rust(_rs.read_tu_folder(os.fspath(path), name))


def write_gspan(data: GraphDataset | Iterable[nx.Graph], path: PathLike) -> None:
    """Write graphs in gSpan text format (vertex ids from 0); ``read_gspan`` reads them back
    (``read_gspan(path, directed=True)`` for a directed dataset, whose ``e u v`` lines are its
    arcs ``u -> v``).

    Graph names are written on the ``t #`` lines. Raises
    :class:`~graphsparse.exceptions.InvalidGraphError` when the
    file could not be read back as the same dataset: a label whose text is empty or holds
    whitespace, two labels with one spelling (``1`` and ``"1"``), or a name that is empty,
    ``-1`` or holds whitespace other than single spaces.
    """
    ds = data if isinstance(data, GraphDataset) else from_networkx(data)
    text = _rs.format_gspan_text(
        ds._db,
        [str(v) for v in ds.vertex_label_values],
        [str(v) for v in ds.edge_label_values],
        list(ds.names),
    )
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
