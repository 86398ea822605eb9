"""The graph container that every area reads: :class:`GraphDataset`, its label maps, and the
encoding of ``networkx`` graphs into it (all public in :mod:`graphsparse.datasets`).

Graphs are undirected, or directed (every graph of a dataset alike), with one label per vertex
and one per edge (any hashable, sortable values: ints, strings, bond orders ...). A
:class:`GraphDataset` stores them once as flat integer arrays plus the maps back to your labels,
which is the form that crosses into Rust.

A leaf below the areas: the molecule readers, mining, the models and the compressors build or
read datasets, so it imports none of them (nor :mod:`graphsparse.datasets`, whose
``__init__`` re-exports the molecule readers).
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import Any

import networkx as nx
import numpy as np
import numpy.typing as npt

from . import _graphsparse as _rs
from .exceptions import GraphFormatError, InvalidGraphError, InvalidParameterError

PathLike = str | os.PathLike[str]


def _label_kind(value: Any) -> str:
    if isinstance(value, bool | np.bool_):
        return "bool"
    if isinstance(value, numbers.Integral):
        return "int"
    if isinstance(value, numbers.Real):
        return "real"
    if isinstance(value, str):
        return "str"
    return type(value).__name__


def _canonical_ids(values: Sequence[Any], what: str) -> tuple[tuple[Any, ...], dict[Any, int]]:
    """Sorted distinct values and the value -> dense id map; rejects unhashable or mixed types."""
    distinct: dict[Any, None] = {}
    for v in values:
        if not isinstance(v, Hashable):
            raise InvalidGraphError(f"{what} label {v!r} is not hashable")
        distinct[v] = None
    kinds = {_label_kind(v) for v in distinct}
    if {"int", "real"} >= kinds and kinds:
        kinds = {"number"}
    if len(kinds) > 1:
        raise InvalidGraphError(
            f"{what} labels mix types ({', '.join(sorted(kinds))}); use one type for all labels"
        )
    try:
        ordered = tuple(sorted(distinct))
    except TypeError as exc:
        raise InvalidGraphError(f"{what} labels cannot be ordered: {exc}") from None
    for v in ordered:
        if isinstance(v, float) and v != v:
            raise InvalidGraphError(f"{what} label NaN is not allowed")
    return ordered, {v: i for i, v in enumerate(ordered)}


def _as_response(y: Any, n: int) -> np.ndarray | None:
    if y is None:
        return None
    if isinstance(y, str | os.PathLike):
        y = _read_label_file(y)
    arr = np.asarray(y)
    if arr.ndim != 1:
        raise InvalidParameterError(f"y must be one-dimensional, got shape {arr.shape}")
    if arr.shape[0] != n:
        raise InvalidParameterError(f"y has {arr.shape[0]} entries but there are {n} graphs")
    return arr


def _read_label_file(path: PathLike) -> np.ndarray:
    tokens: list[str] = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            text = line.strip()
            if not text:
                continue
            if len(text.split()) != 1:
                raise GraphFormatError(
                    f"{path}:{lineno}: expected one label per line, got {text!r}"
                )
            tokens.append(text)
    return np.asarray(_label_file_values(tokens))


def _label_file_values(tokens: list[str]) -> list[Any]:
    """One response per line: integers, else floats, else the strings themselves."""
    for convert in (int, float):
        try:
            return [convert(t) for t in tokens]
        except ValueError:
            pass
    return tokens


class GraphDataset:
    """A collection of labelled graphs, with an optional response ``y``.

    The graphs are undirected, or all directed (``directed=True``: edge ``(u, v)`` is the arc
    ``u -> v``; :func:`from_networkx` makes one from ``networkx.DiGraph`` objects). A pair of
    vertices holds at most one edge, so a directed graph has no antiparallel arcs. Subgraph
    mining and the subgraph models take directed datasets; the other algorithms take
    undirected ones only and say so.

    Build one with :func:`from_networkx`, :func:`read_gspan`, :func:`load_tu`, a generator, or
    from molecules with :func:`from_smiles` and :func:`read_sdf` (RDKit).

    Indexing follows NumPy: ``ds[i]``, ``ds[a:b]``, ``ds[[0, 3]]`` and ``ds[mask]`` all return a
    new ``GraphDataset`` (``ds[i]`` holds one graph). ``ds.graphs`` (or iterating) gives
    ``networkx.Graph`` objects (``networkx.DiGraph`` when ``directed``) whose vertices and edges
    carry a ``"label"`` attribute (graphs read without labels carry the label 0).

    Attributes
    ----------
    y : ndarray or None
        One response per graph.
    directed : bool
        Whether the graphs are directed (edge ``(u, v)`` of ``edges`` is the arc ``u -> v``).
    vertex_label_values, edge_label_values : tuple
        The user's label for each dense label id (sorted).
    names : list of str
        A name per graph (the id from the source file, or its index).
    source_index : ndarray of int64 or None
        For molecules read by :func:`from_smiles` or :func:`read_sdf`: the position of each graph
        in the input (inputs left out with ``on_error="skip"`` leave gaps); ``None`` otherwise.
    """

    __slots__ = (
        "_db",
        "_graphs",
        "directed",
        "edge_label_values",
        "edge_labels",
        "edge_ptr",
        "edges",
        "names",
        "node_labels",
        "node_ptr",
        "source_index",
        "vertex_label_values",
        "y",
    )

    def __init__(
        self,
        node_ptr: npt.ArrayLike,
        node_labels: npt.ArrayLike,
        edge_ptr: npt.ArrayLike,
        edges: npt.ArrayLike,
        edge_labels: npt.ArrayLike,
        vertex_label_values: Sequence[Any],
        edge_label_values: Sequence[Any],
        y: npt.ArrayLike | None = None,
        names: Sequence[str] | None = None,
        *,
        directed: bool = False,
    ) -> None:
        as_i64 = lambda a: np.ascontiguousarray(a, dtype=np.int64)  # noqa: E731
        if not isinstance(directed, bool | np.bool_):
            raise InvalidParameterError(f"directed must be a bool, got {directed!r}")
        # the Rust database validates the arrays once and is kept for every later call
        db = _rs.Database(
            as_i64(node_ptr),
            as_i64(node_labels),
            as_i64(edge_ptr),
            as_i64(edges).reshape(-1, 2),
            as_i64(edge_labels),
            directed=bool(directed),
        )
        self._init_from_db(db, vertex_label_values, edge_label_values, y, names)

    @classmethod
    def _from_db(
        cls,
        db: _rs.Database,
        vertex_label_values: Sequence[Any],
        edge_label_values: Sequence[Any],
        y: npt.ArrayLike | None = None,
        names: Sequence[str] | None = None,
    ) -> GraphDataset:
        """A dataset around an already validated Rust database (no second validation)."""
        ds = object.__new__(cls)
        ds._init_from_db(db, vertex_label_values, edge_label_values, y, names)
        return ds

    def _init_from_db(
        self,
        db: _rs.Database,
        vertex_label_values: Sequence[Any],
        edge_label_values: Sequence[Any],
        y: npt.ArrayLike | None,
        names: Sequence[str] | None,
    ) -> None:
        self._db = db
        self.directed = bool(db.directed)
        arrays = db.arrays()
        self.node_ptr, self.node_labels, self.edge_ptr, self.edges, self.edge_labels = arrays
        for a in arrays:
            a.flags.writeable = False  # the Rust handle is the source of truth
        self.vertex_label_values = tuple(vertex_label_values)
        self.edge_label_values = tuple(edge_label_values)
        for ids, values, what in (
            (self.node_labels, self.vertex_label_values, "vertex"),
            (self.edge_labels, self.edge_label_values, "edge"),
        ):
            if ids.size and int(ids.max()) >= len(values):
                raise InvalidGraphError(
                    f"{what} label id {int(ids.max())} has no value ({len(values)} values given)"
                )
        n = len(self.node_ptr) - 1
        self.y = _as_response(y, n)
        self.names = list(names) if names is not None else [str(i) for i in range(n)]
        if len(self.names) != n:
            raise InvalidParameterError(f"{len(self.names)} names given for {n} graphs")
        self.source_index: np.ndarray | None = None
        self._graphs: list[nx.Graph] | None = None

    # -- container protocol -------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.node_ptr) - 1

    @property
    def shape(self) -> tuple[int]:
        """``(n_graphs,)``, so that scikit-learn splitters index the dataset directly."""
        return (len(self),)

    def __iter__(self) -> Iterator[nx.Graph]:
        return iter(self.graphs)

    def __getitem__(self, key: Any) -> GraphDataset:
        n = len(self)
        if isinstance(key, tuple) and len(key) == 2 and key[1] is Ellipsis:
            key = key[0]  # scikit-learn's _safe_indexing asks for X[indices, ...]
        if isinstance(key, numbers.Integral) and not isinstance(key, bool | np.bool_):
            i = int(key)
            if not -n <= i < n:
                raise IndexError(f"graph index {i} out of range for {n} graphs")
            ids = np.array([i % n], dtype=np.int64)
        elif isinstance(key, slice):
            ids = np.arange(n, dtype=np.int64)[key]
        else:
            arr = np.asarray(key)
            if arr.dtype == bool:
                if arr.shape != (n,):
                    raise IndexError(f"boolean index has shape {arr.shape}, expected ({n},)")
                ids = np.flatnonzero(arr)
            elif arr.dtype.kind in "iu" and arr.ndim == 1:
                ids = arr.astype(np.int64)
                if ids.size and (ids.min() < -n or ids.max() >= n):
                    raise IndexError(f"graph index out of range for {n} graphs")
                ids = ids % n if n else ids
            elif arr.size == 0:
                ids = np.zeros(0, dtype=np.int64)
            else:
                raise IndexError(f"cannot index a GraphDataset with {key!r}")
        return self._take(ids)

    def _take(self, ids: np.ndarray) -> GraphDataset:
        ds = GraphDataset._from_db(
            self._db.select(np.ascontiguousarray(ids, dtype=np.int64)),
            self.vertex_label_values,
            self.edge_label_values,
            y=None if self.y is None else self.y[ids],
            names=[self.names[i] for i in ids],
        )
        if self.source_index is not None:
            ds.source_index = self.source_index[ids]
        return ds

    # -- views ----------------------------------------------------------------------------------
    @property
    def graphs(self) -> list[nx.Graph]:
        """The graphs as ``networkx.Graph`` objects (vertices ``0..n-1``, ``label`` attributes)."""
        if self._graphs is None:
            self._graphs = [self.graph(i) for i in range(len(self))]
        return self._graphs

    def graph(self, i: int) -> nx.Graph:
        """Graph ``i`` as a new ``networkx.Graph`` (a ``networkx.DiGraph`` when ``directed``;
        ``i`` indexes as in ``self[i]``)."""
        n = len(self)
        if isinstance(i, bool | np.bool_) or not isinstance(i, numbers.Integral):
            raise IndexError(f"graph index must be an integer, got {i!r}")
        if not -n <= int(i) < n:  # an IndexError, as for self[i], never an OverflowError
            raise IndexError(f"graph index {int(i)} out of range for {n} graphs")
        i = int(i) % n
        a, b = int(self.node_ptr[i]), int(self.node_ptr[i + 1])
        c, d = int(self.edge_ptr[i]), int(self.edge_ptr[i + 1])
        g = (nx.DiGraph if self.directed else nx.Graph)(name=self.names[i])
        vl = self.vertex_label_values
        el = self.edge_label_values
        g.add_nodes_from((k, {"label": vl[lab]}) for k, lab in enumerate(self.node_labels[a:b]))
        g.add_edges_from(
            (int(u), int(v), {"label": el[lab]})
            for (u, v), lab in zip(self.edges[c:d], self.edge_labels[c:d], strict=True)
        )
        return g

    @property
    def n_vertices(self) -> np.ndarray:
        """Vertices per graph."""
        return np.diff(self.node_ptr)

    @property
    def n_edges(self) -> np.ndarray:
        """Edges per graph."""
        return np.diff(self.edge_ptr)

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return (self.node_ptr, self.node_labels, self.edge_ptr, self.edges, self.edge_labels)

    def __repr__(self) -> str:
        y = "" if self.y is None else f", y={self.y.dtype}"
        if self.directed:
            y += ", directed"
        return (
            f"GraphDataset({len(self)} graphs, {int(self.n_vertices.sum())} vertices, "
            f"{int(self.n_edges.sum())} edges, {len(self.vertex_label_values)} vertex labels, "
            f"{len(self.edge_label_values)} edge labels{y})"
        )

    def __getstate__(self) -> dict[str, Any]:
        # the Rust handle does not pickle: it is rebuilt (and revalidated) from the arrays
        return {s: getattr(self, s) for s in self.__slots__ if s not in ("_graphs", "_db")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.source_index = None  # absent from pickles written before it existed
        self.directed = False  # likewise
        for k, v in state.items():
            object.__setattr__(self, k, v)
        for k in ("node_ptr", "node_labels", "edge_ptr", "edges", "edge_labels"):
            # pickle protocol 5 (Dask, multiprocessing) may hand back views of unaligned frames
            object.__setattr__(self, k, np.require(getattr(self, k), np.int64, ["C", "A"]))
        self._graphs = None
        self._db = _rs.Database(*self._arrays(), directed=self.directed)
        for a in self._arrays():
            a.flags.writeable = False

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GraphDataset):
            return NotImplemented
        same_y = (self.y is None and other.y is None) or (
            self.y is not None and other.y is not None and np.array_equal(self.y, other.y)
        )
        return (
            same_y
            and self.directed == other.directed
            and all(
                np.array_equal(a, b) for a, b in zip(self._arrays(), other._arrays(), strict=True)
            )
            and self.vertex_label_values == other.vertex_label_values
            and self.edge_label_values == other.edge_label_values
        )

    __hash__ = None  # type: ignore[assignment]


# -- networkx graphs -------------------------------------------------------------------------------


def _label(attrs: dict[str, Any], key: str | None, gi: int, kind: str, item: Any) -> Any:
    """The ``key`` attribute of one node or edge (0 when no key is asked for)."""
    if key is None:
        return 0
    try:
        return attrs[key]
    except KeyError:
        where = f"edge ({item[0]!r}, {item[1]!r})" if kind == "edge" else f"node {item!r}"
        raise InvalidGraphError(
            f"graph {gi}: {where} has no {key!r} attribute; give every {kind} one, or pass "
            f"{kind}_label=None to read every {kind} with the label 0"
        ) from None


def _label_key(graphs: Sequence[Any], key: str | None, kind: str) -> str | None:
    """``key``, or ``None`` (every label 0) when it is the default ``"label"`` and no node
    (edge) of any graph has it: plain networkx graphs then read as unlabelled graphs.

    A name the caller chose is never dropped, so a misspelt one still raises; and one labelled
    node anywhere keeps the labels on, so a partly labelled collection still raises.
    """
    if key != "label":
        return key
    nets = [g for g in graphs if isinstance(g, nx.Graph)]  # the others are refused later
    if kind == "node":
        attrs: Iterator[dict[str, Any]] = (a for g in nets for a in g.nodes.values())
    else:
        attrs = (a for g in nets for *_, a in g.edges(data=True))
    return key if any(key in a for a in attrs) else None


def from_networkx(
    graphs: Iterable[nx.Graph],
    node_label: str | None = "label",
    edge_label: str | None = "label",
    y: npt.ArrayLike | None = None,
) -> GraphDataset:
    """Encode ``networkx`` graphs as a :class:`GraphDataset`.

    Parameters
    ----------
    graphs : iterable of networkx.Graph
        Simple graphs: all undirected (``networkx.Graph``), or all directed
        (``networkx.DiGraph``, read as a directed dataset). Multigraphs, and arcs in both
        directions between two vertices, are rejected.
    node_label, edge_label : str or None, default="label"
        Attribute names holding the labels; ``None`` gives every vertex (edge) the label 0.
        Unlabelled graphs need neither: when no vertex (edge) of any graph has a ``"label"``
        attribute, the default reads as ``None``, so ``[nx.cycle_graph(6), nx.path_graph(4)]``
        is one vertex label 0 and one edge label 0. A name passed explicitly, or a ``"label"``
        that only some vertices (edges) have, must be on every vertex (edge).
    y : array-like, optional
        One response per graph.

    Raises
    ------
    InvalidGraphError
        For a missing label attribute, unhashable or mixed-type labels, self-loops,
        multigraphs, antiparallel arcs, or directed and undirected graphs mixed; the message
        names the graph and the vertex or edge.

    Examples
    --------
    >>> import networkx as nx
    >>> ds = from_networkx([nx.cycle_graph(6), nx.path_graph(4)])
    >>> ds.vertex_label_values, ds.edge_label_values
    ((0,), (0,))
    >>> from_networkx([nx.DiGraph([(0, 1), (2, 1)])]).directed
    True
    """
    if isinstance(graphs, nx.Graph):
        raise InvalidParameterError("graphs must be a sequence of networkx graphs, not one graph")
    graphs = list(graphs)
    node_label = _label_key(graphs, node_label, "node")
    edge_label = _label_key(graphs, edge_label, "edge")
    vlabels: list[Any] = []
    elabels: list[Any] = []
    node_ptr = [0]
    edge_ptr = [0]
    edges: list[tuple[int, int]] = []
    directed = _directedness(graphs)
    for gi, g in enumerate(graphs):
        if g.is_multigraph():
            raise InvalidGraphError(f"graph {gi} is a multigraph; parallel edges are not allowed")
        index = {}
        for k, (node, attrs) in enumerate(g.nodes(data=True)):
            index[node] = k
            vlabels.append(_label(attrs, node_label, gi, "node", node))
        for u, v, attrs in g.edges(data=True):
            if u == v:
                raise InvalidGraphError(f"graph {gi}: self-loop on node {u!r}")
            if directed and u in g.succ[v]:
                raise InvalidGraphError(
                    f"graph {gi}: arcs in both directions between nodes {u!r} and {v!r}; a "
                    "directed graph may join two vertices by one arc only"
                )
            edges.append((index[u], index[v]))
            elabels.append(_label(attrs, edge_label, gi, "edge", (u, v)))
        node_ptr.append(len(vlabels))
        edge_ptr.append(len(edges))
    vvals, vmap = _canonical_ids(vlabels, "vertex")
    evals, emap = _canonical_ids(elabels, "edge")
    names = [str(g.graph["name"]) if g.graph.get("name") else str(i) for i, g in enumerate(graphs)]
    return GraphDataset(
        node_ptr,
        np.fromiter((vmap[v] for v in vlabels), dtype=np.int64, count=len(vlabels)),
        edge_ptr,
        np.asarray(edges, dtype=np.int64).reshape(-1, 2),
        np.fromiter((emap[e] for e in elabels), dtype=np.int64, count=len(elabels)),
        vvals,
        evals,
        y=y,
        names=names,
        directed=directed,
    )


def _directedness(graphs: Sequence[Any]) -> bool:
    """Whether the networkx graphs are directed: all alike, else an error naming two of them."""
    kinds: dict[bool, int] = {}
    for gi, g in enumerate(graphs):
        if not isinstance(g, nx.Graph):
            raise InvalidGraphError(f"graph {gi} is a {type(g).__name__}, not a networkx.Graph")
        kinds.setdefault(bool(g.is_directed()), gi)
    if len(kinds) > 1:
        raise InvalidGraphError(
            f"graphs mixes directed and undirected graphs (graph {kinds[True]} is directed, "
            f"graph {kinds[False]} is not); a dataset's graphs are all directed or all undirected"
        )
    return next(iter(kinds), False)


def as_dataset(data: Any, what: str = "data", *, directed_ok: bool = False) -> GraphDataset:
    """Accept a GraphDataset or an iterable of networkx graphs; reject anything else clearly.

    Directed datasets (and ``networkx.DiGraph`` objects) pass only with ``directed_ok``: the
    algorithms that take them (subgraph mining, the subgraph models) say so.
    """
    ds = _as_dataset(data, what)
    if ds.directed and not directed_ok:
        raise InvalidGraphError(
            f"{what} holds directed graphs, which this algorithm does not take (subgraph mining "
            "and the subgraph models do); pass undirected graphs (e.g. "
            "networkx's to_undirected())"
        )
    return ds


def _as_dataset(data: Any, what: str) -> GraphDataset:
    if isinstance(data, GraphDataset):
        return data
    if isinstance(data, nx.Graph):
        return from_networkx([data])
    if isinstance(data, str | os.PathLike):
        raise InvalidParameterError(
            f"{what} is a path; read it first with read_gspan(...) or load_tu(...)"
        )
    if isinstance(data, np.ndarray):  # a feature matrix given to a model of graphs
        raise InvalidGraphError(
            f"{what} is an array of shape {data.shape}; it must be a GraphDataset or a sequence "
            "of networkx graphs"
        )
    try:
        graphs = list(data)
    except TypeError:
        raise InvalidParameterError(
            f"{what} must be a GraphDataset or a sequence of networkx graphs, "
            f"got {type(data).__name__}"
        ) from None
    for k, g in enumerate(graphs):
        if not isinstance(g, nx.Graph):
            raise InvalidGraphError(f"{what}[{k}] is a {type(g).__name__}, not a networkx.Graph")
    return from_networkx(graphs)
