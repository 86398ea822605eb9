"""Patterns and the results of a search: :class:`Pattern`, :class:`MiningResult`, and the
decoding of the flat arrays a Rust search returns into them."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import networkx as nx
import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from .._dataset import GraphDataset
from .._validation import as_count, as_flag
from ..chem._smarts import dfs_code_smarts
from ..exceptions import InvalidGraphError, InvalidParameterError

if TYPE_CHECKING:
    from .. import _graphsparse as _rs

DfsEdge = tuple[int, int, Any, Any, Any] | tuple[int, int, Any, Any, Any, str]

#: The direction mark of a directed pattern's code edge ``(i, j, ...)``: the arc ``i -> j`` or
#: ``j -> i`` (the Rust code's arc label ``2 * label + 1`` for the latter).
_ARROWS = ("->", "<-")


def _decode_edge(
    row: Sequence[int], vl: Sequence[Any], el: Sequence[Any], directed: bool
) -> DfsEdge:
    """One code row in label ids as the user's labels (and the arrow, for a directed search)."""
    i, j, li, lij, lj = row
    if directed:
        return (i, j, vl[li], el[lij >> 1], vl[lj], _ARROWS[lij & 1])
    return (i, j, vl[li], el[lij], vl[lj])


class _PatternTable:
    """The flat arrays of one mining run, shared by its patterns and decoded on access.

    Building tens of thousands of tuples up front used to take longer than the parallel search
    itself, so a mined ``Pattern`` only stores its row here until a field is read.
    """

    __slots__ = (
        "code_ptr",
        "codes",
        "counts",
        "directed",
        "el",
        "gid_ptr",
        "graph_ids",
        "vertex_ptr",
        "vl",
        "vx",
    )

    def __init__(self, found: _rs.MiningResult, ds: GraphDataset) -> None:
        self.vl, self.el = ds.vertex_label_values, ds.edge_label_values
        self.directed = ds.directed
        self.codes = np.asarray(found.codes, dtype=np.int64).reshape(-1, 5)
        self.code_ptr = np.asarray(found.code_ptr, dtype=np.int64)
        self.graph_ids = np.asarray(found.graph_ids, dtype=np.int64)
        self.gid_ptr = np.asarray(found.gid_ptr, dtype=np.int64)
        self.graph_ids.flags.writeable = False  # patterns hand out views of it
        counts = getattr(found, "counts", None)
        self.counts = None if counts is None else np.asarray(counts, dtype=np.int64)
        if self.counts is not None:
            self.counts.flags.writeable = False
        single = np.asarray(found.single_label, dtype=np.int64)
        # Vertex label ids in DFS order: the first edge's source, then the target of each forward
        # edge (a forward edge discovers one new vertex); a single-vertex pattern has its label.
        n = len(self.code_ptr) - 1
        codes, starts = self.codes, self.code_ptr[:-1]
        has_edges = np.diff(self.code_ptr) > 0
        forward = codes[:, 0] < codes[:, 1]
        fwd_cum = np.zeros(len(codes) + 1, dtype=np.int64)
        np.cumsum(forward, out=fwd_cum[1:])
        n_vertices = 1 + fwd_cum[self.code_ptr[1:]] - fwd_cum[starts]
        self.vertex_ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(n_vertices, out=self.vertex_ptr[1:])
        vx = np.empty(int(self.vertex_ptr[-1]), dtype=np.int64)
        heads = self.vertex_ptr[:-1]
        body = np.ones(len(vx), dtype=bool)
        body[heads] = False
        vx[body] = codes[:, 4][forward]  # a column first: faster than a 2-D mask
        vx[heads[has_edges]] = codes[starts[has_edges], 2]
        vx[heads[~has_edges]] = single[~has_edges]
        self.vx = vx

    def dfs_code(self, k: int) -> tuple[DfsEdge, ...]:
        vl, el = self.vl, self.el
        rows = self.codes[self.code_ptr[k] : self.code_ptr[k + 1]].tolist()
        if self.directed:
            return tuple(_decode_edge(r, vl, el, True) for r in rows)
        return tuple((i, j, vl[li], el[lij], vl[lj]) for i, j, li, lij, lj in rows)

    def vertex_labels(self, k: int) -> tuple[Any, ...]:
        vl = self.vl
        return tuple(vl[v] for v in self.vx[self.vertex_ptr[k] : self.vertex_ptr[k + 1]].tolist())

    def graph_ids_of(self, k: int) -> np.ndarray:
        return self.graph_ids[self.gid_ptr[k] : self.gid_ptr[k + 1]]

    def counts_of(self, k: int) -> np.ndarray | None:
        if self.counts is None:
            return None
        return self.counts[self.gid_ptr[k] : self.gid_ptr[k + 1]]


class Pattern:
    """A connected subgraph pattern with its occurrences.

    Attributes
    ----------
    dfs_code : tuple of (i, j, l_i, l_ij, l_j), or of (i, j, l_i, l_ij, l_j, arrow) if directed
        The minimum DFS code in your labels: edge ``(i, j)`` between pattern vertices ``i`` and
        ``j`` (forward when ``i < j``) with vertex labels ``l_i``, ``l_j`` and edge label ``l_ij``.
        A pattern of directed graphs adds the arc's direction, ``"->"`` (``i -> j``) or ``"<-"``
        (``j -> i``); its codes order an edge's label before its direction, ``"->"`` first.
        Empty for a single-vertex pattern.
    directed : bool
        Whether the pattern is a (weakly connected) directed graph, as mined from a directed
        dataset.

    ``Pattern(dfs_code, support, graph_ids, vertex_labels=(), counts=None, directed=None)``
    builds one; ``directed=None`` reads it from the code (6-tuples with arrows: directed), and
    an explicit value must agree with a non-empty code.
    support : int
        Number of graphs that contain the pattern.
    graph_ids : ndarray of int64
        Sorted indices (into the mined dataset) of those graphs (a read-only view).
    vertex_labels : tuple
        Label of each pattern vertex, in DFS order.
    counts : ndarray of int64 or None
        The pattern's occurrence count in each graph of ``graph_ids`` (same order; a read-only
        view) when the search was asked for them (``counts=`` of :func:`mine_subgraphs`), else
        ``None``.
    """

    __slots__ = (
        "_counts",
        "_dfs_code",
        "_directed",
        "_graph_ids",
        "_k",
        "_support",
        "_table",
        "_vertex_labels",
    )

    def __init__(
        self,
        dfs_code: Sequence[DfsEdge],
        support: int,
        graph_ids: npt.ArrayLike,
        vertex_labels: Sequence[Any] = (),
        counts: npt.ArrayLike | None = None,
        directed: bool | None = None,
    ) -> None:
        gids = np.array(graph_ids, dtype=np.int64)
        gids.flags.writeable = False
        if counts is None:
            self._counts: np.ndarray | None = None
        else:
            self._counts = np.array(counts, dtype=np.int64)
            if self._counts.shape != gids.shape:
                raise InvalidParameterError(
                    f"counts must have one entry per graph id ({len(gids)}), "
                    f"got shape {self._counts.shape}"
                )
            self._counts.flags.writeable = False
        self._dfs_code: tuple[DfsEdge, ...] | None = tuple(tuple(e) for e in dfs_code)  # type: ignore[misc]
        self._directed = _code_directedness(self._dfs_code, directed)
        self._support = int(support)
        self._graph_ids: np.ndarray | None = gids
        self._vertex_labels: tuple[Any, ...] | None = tuple(vertex_labels)
        self._table: _PatternTable | None = None
        self._k = -1

    @classmethod
    def _from_table(cls, table: _PatternTable, k: int, support: int) -> Pattern:
        p = object.__new__(cls)
        p._table, p._k, p._support = table, k, support
        p._directed = table.directed
        p._dfs_code = p._graph_ids = p._vertex_labels = p._counts = None
        return p

    def _field(self, slot: str, read: Callable[[_PatternTable, int], Any]) -> Any:
        """The value in ``slot``; a pattern of a mining table reads it there on first use."""
        value = getattr(self, slot)
        if value is None:
            assert self._table is not None
            value = read(self._table, self._k)
            setattr(self, slot, value)
        return value

    @property
    def dfs_code(self) -> tuple[DfsEdge, ...]:
        """The minimum DFS code, in your labels (see the class docstring)."""
        return self._field("_dfs_code", _PatternTable.dfs_code)

    @property
    def directed(self) -> bool:
        """Whether the pattern is a directed graph (mined from a directed dataset)."""
        return self._directed

    @property
    def support(self) -> int:
        """Number of graphs that contain the pattern."""
        return self._support

    @property
    def graph_ids(self) -> np.ndarray:
        """Sorted indices of the graphs that contain the pattern (a read-only view)."""
        return self._field("_graph_ids", _PatternTable.graph_ids_of)

    @property
    def vertex_labels(self) -> tuple[Any, ...]:
        """Label of each pattern vertex, in DFS order."""
        return self._field("_vertex_labels", _PatternTable.vertex_labels)

    @property
    def counts(self) -> np.ndarray | None:
        """Occurrence count in each graph of :attr:`graph_ids`, or ``None`` when not asked for."""
        if self._counts is None and self._table is not None:
            self._counts = self._table.counts_of(self._k)
        return self._counts

    @property
    def n_edges(self) -> int:
        """Number of edges (the pattern's size)."""
        return len(self.dfs_code)

    @property
    def n_vertices(self) -> int:
        """Number of vertices."""
        return len(self.vertex_labels)

    def _arcs(self) -> list[tuple[int, int, Any]]:
        """``(u, v, label)`` per code edge; for a directed pattern, the arc ``u -> v``."""
        out = []
        for e in self.dfs_code:
            i, j, lab = e[0], e[1], e[3]
            out.append((j, i, lab) if self._directed and e[5] == "<-" else (i, j, lab))
        return out

    def to_networkx(self) -> nx.Graph:
        """The pattern as a ``networkx.Graph`` (a ``networkx.DiGraph`` when :attr:`directed`)
        with ``"label"`` attributes on vertices and edges."""
        g = nx.DiGraph() if self._directed else nx.Graph()
        for v, lab in enumerate(self.vertex_labels):
            g.add_node(v, label=lab)
        for u, v, lab in self._arcs():
            g.add_edge(u, v, label=lab)
        return g

    def to_gspan(self) -> str:
        """The pattern as a gSpan text record (``t # 0`` / ``v`` / ``e`` lines); a directed
        pattern's ``e u v`` lines are its arcs ``u -> v`` (read them back with
        ``read_gspan(..., directed=True)``)."""
        lines = ["t # 0"]
        lines += [f"v {v} {lab}" for v, lab in enumerate(self.vertex_labels)]
        lines += [f"e {u} {v} {lab}" for u, v, lab in self._arcs()]
        return "\n".join(lines)

    def to_smarts(
        self, atoms: Mapping[Any, Any] | None = None, bonds: Mapping[Any, Any] | None = None
    ) -> str:
        """The pattern as a SMARTS query (needs no RDKit).

        Atoms are written ``[#Z]`` (any aromaticity, charge and hydrogen count) and every bond
        explicitly (``-``, ``=``, ``#``, ``:``), so RDKit's substructure search on the molecules a
        dataset was read from finds the pattern in exactly the graphs of ``graph_ids``.

        Parameters
        ----------
        atoms : mapping, optional
            Vertex label -> element symbol or atomic number, for datasets whose vertex labels
            are not element symbols (e.g. ``{6: 6, 7: 7}`` for atomic numbers).
        bonds : mapping, optional
            Edge label -> bond type name (``"SINGLE"`` ...) or order (1, 2, 3, 1.5 aromatic).

        Raises
        ------
        InvalidGraphError
            When a label is not an atom or a bond; patterns mined from
            :func:`~graphsparse.datasets.from_smiles` or
            :func:`~graphsparse.datasets.read_sdf` datasets need no mapping.

        Examples
        --------
        >>> import networkx as nx
        >>> g = nx.cycle_graph(3)
        >>> nx.set_node_attributes(g, {0: "C", 1: "C", 2: "O"}, "label")
        >>> nx.set_edge_attributes(g, "SINGLE", "label")
        >>> [p.to_smarts() for p in mine_subgraphs([g], 1) if p.n_edges == 3]
        ['[#6]-1-[#6]-[#8]1']
        """
        if self._directed:
            raise InvalidGraphError("to_smarts: a directed pattern is not a molecule")
        return dfs_code_smarts(self.vertex_labels, self.dfs_code, atoms, bonds)

    def __str__(self) -> str:
        if not self.dfs_code:
            return f"({self.vertex_labels[0]})"
        if self._directed:
            ends = {"->": ("-", "->"), "<-": ("<-", "-")}
            return " ".join(
                f"({i}:{li}){ends[a][0]}[{lij}]{ends[a][1]}({j}:{lj})"
                for i, j, li, lij, lj, a in self.dfs_code  # type: ignore[misc]
            )
        return " ".join(f"({i}:{li})-[{lij}]-({j}:{lj})" for i, j, li, lij, lj in self.dfs_code)

    def __repr__(self) -> str:
        directed = ", directed=True" if self._directed else ""
        return (
            f"Pattern(dfs_code={self.dfs_code!r}, support={self.support!r}, "
            f"vertex_labels={self.vertex_labels!r}{directed})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pattern):
            return NotImplemented
        return (
            self.dfs_code == other.dfs_code
            and self._directed == other._directed
            and self.vertex_labels == other.vertex_labels
            and self.support == other.support
            and np.array_equal(self.graph_ids, other.graph_ids)
        )

    def __hash__(self) -> int:
        return hash((self.dfs_code, self.vertex_labels, self.support))

    def __reduce__(self) -> tuple[Any, ...]:
        # pickles as its decoded fields, never the whole run's table
        fields = (self.dfs_code, self.support, self.graph_ids, self.vertex_labels, self.counts)
        return (Pattern, (*fields, self._directed) if self._directed else fields)


#: Why a search was cut short, as the Rust budget names it (``Truncation::as_str``).
_TRUNCATIONS = ("max_nodes", "time_limit", "max_patterns", "cancelled")


class MiningResult(list[Pattern]):
    """The list of patterns found, plus how the search went.

    Attributes
    ----------
    truncated : bool
        ``True`` when a budget stopped the search before it finished (the list then holds the
        patterns found so far).
    truncation : str or None
        Why it stopped: ``None`` when the search finished, else the budget that cut it,
        ``"max_nodes"``, ``"time_limit"`` or ``"max_patterns"`` (``"cancelled"``:
        interrupted).
    nodes_visited : int
        Enumeration-tree nodes visited.
    seconds : float
        Wall-clock time of the search.
    n_graphs : int or None
        Number of graphs of the mined dataset (the columns of :meth:`count_matrix`); ``None``
        when unknown.

    ``MiningResult(patterns, truncated=None, nodes_visited=0, seconds=0.0, *, truncation=None,
    n_graphs=None)`` builds one: ``truncated=None`` follows ``truncation`` (``False`` when both
    are ``None``).
    """

    truncated: bool
    truncation: str | None
    nodes_visited: int
    seconds: float
    n_graphs: int | None

    def __init__(
        self,
        patterns: Iterable[Pattern] = (),
        truncated: bool | None = None,
        nodes_visited: int = 0,
        seconds: float = 0.0,
        *,
        truncation: str | None = None,
        n_graphs: int | None = None,
    ) -> None:
        if truncation is not None and truncation not in _TRUNCATIONS:
            raise InvalidParameterError(
                f"truncation must be None or one of {', '.join(map(repr, _TRUNCATIONS))}, "
                f"got {truncation!r}"
            )
        if truncated is None:  # unset: the reason decides
            truncated = truncation is not None
        if isinstance(truncated, str):  # the reason, where results once kept it
            raise InvalidParameterError(
                f"truncated must be a bool, got {truncated!r}; pass the reason as "
                f"truncation={truncated!r}"
            )
        if not isinstance(truncated, bool | np.bool_):
            raise InvalidParameterError(f"truncated must be a bool, got {truncated!r}")
        if bool(truncated) != (truncation is not None):
            raise InvalidParameterError(
                f"truncated={truncated!r} contradicts truncation={truncation!r}: a cut search "
                "needs its reason and a finished one has none"
            )
        super().__init__(patterns)
        self.truncated = bool(truncated)
        self.truncation = truncation
        self.nodes_visited = nodes_visited
        self.seconds = seconds
        self.n_graphs = None if n_graphs is None else as_count(n_graphs, "n_graphs")

    def count_matrix(self, binary: bool = False, n_graphs: int | None = None) -> sp.csr_matrix:
        """The pattern x graph matrix of occurrences, as a SciPy CSR matrix.

        Row ``k`` is pattern ``self[k]``: ``M[k, g]`` is its count in graph ``g``
        (:attr:`~graphsparse.mining.Pattern.counts`) or, with ``binary=True``, 1 when graph
        ``g`` contains it; 0 elsewhere. ``M.T`` is the graph x pattern design matrix of the
        patterns as features.

        Parameters
        ----------
        binary : bool, default=False
            0/1 entries (the patterns need no counts) instead of the counts (which need
            ``counts=`` at mining time).
        n_graphs : int, optional
            Number of columns; default ``n_graphs``, the size of the mined dataset.

        Returns
        -------
        scipy.sparse.csr_matrix of int64, shape ``(len(self), n_graphs)``
            Sorted column indices, no explicit zeros.

        Raises
        ------
        InvalidParameterError
            For counts of patterns mined without ``counts=``, an unknown ``n_graphs``, or a
            graph id outside ``[0, n_graphs)``.

        Examples
        --------
        >>> import networkx as nx, graphsparse as gs
        >>> tri, edge = nx.cycle_graph(3), nx.path_graph(2)
        >>> res = gs.mine_subgraphs([tri, edge], min_support=1, counts="embeddings", n_jobs=1)
        >>> [p.n_edges for p in res]
        [1, 2, 3]
        >>> res.count_matrix().toarray().tolist()
        [[6, 2], [6, 0], [6, 0]]
        """
        binary = as_flag(binary, "binary")
        if n_graphs is None:
            n_graphs = self.n_graphs
        if n_graphs is None:
            raise InvalidParameterError(
                "n_graphs is unknown for this result: pass n_graphs= (the dataset's size)"
            )
        n_graphs = as_count(n_graphs, "n_graphs")
        indptr = np.zeros(len(self) + 1, dtype=np.int64)
        ids = [p.graph_ids for p in self]
        np.cumsum([len(i) for i in ids], out=indptr[1:])
        indices = np.concatenate(ids) if ids else np.zeros(0, dtype=np.int64)
        if binary:
            data = np.ones(len(indices), dtype=np.int64)
        else:
            counts = [c for c in (p.counts for p in self) if c is not None]
            if len(counts) < len(self):
                raise InvalidParameterError(
                    "these patterns carry no counts: mine with counts='embeddings' or "
                    "'vertex_sets', or ask for binary=True"
                )
            data = np.concatenate(counts) if counts else np.zeros(0, dtype=np.int64)
        outside = indices[(indices < 0) | (indices >= n_graphs)]
        if len(outside):
            raise InvalidParameterError(
                f"a pattern occurs in graph {int(outside[0])}, outside n_graphs={n_graphs}"
            )
        return sp.csr_matrix(
            (data, indices.astype(np.int64, copy=False), indptr), shape=(len(self), n_graphs)
        )


def _patterns_from_arrays(found: _rs.MiningResult, ds: GraphDataset) -> list[Pattern]:
    table = _PatternTable(found, ds)
    make = Pattern._from_table
    supports = found.support.tolist()
    # Tens of thousands of new objects trigger the cyclic collector many times, and its full
    # passes walk every object alive (10x the cost of making the patterns on a large heap);
    # patterns hold no cycles, so it waits until they are all made.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return [make(table, k, s) for k, s in enumerate(supports)]
    finally:
        if was_enabled:
            gc.enable()


def _pattern(code: np.ndarray, ids: np.ndarray, ds: GraphDataset) -> Pattern:
    vl, el = ds.vertex_label_values, ds.edge_label_values
    rows = code.tolist()
    dfs = tuple(_decode_edge(r, vl, el, ds.directed) for r in rows)
    labels: list[Any] = [None] * (1 + max(max(i, j) for i, j, *_ in rows))
    for i, j, li, _, lj in rows:
        labels[i], labels[j] = vl[li], vl[lj]
    return Pattern(
        dfs, len(ids), np.asarray(ids, dtype=np.int64), tuple(labels), directed=ds.directed
    )


def _code_directedness(code: Sequence[Sequence[Any]], directed: bool | None) -> bool:
    """Whether a code given to :class:`Pattern` is directed: 6-tuples with arrows, all alike
    (``directed`` says it for the empty code and must agree otherwise)."""
    widths = {len(e) for e in code}
    if widths - {5, 6} or len(widths) > 1:
        raise InvalidParameterError(
            "dfs_code edges must all be (i, j, l_i, l_ij, l_j) tuples, or all (i, j, l_i, l_ij, "
            f"l_j, arrow) tuples for a directed pattern; got lengths {sorted(widths)}"
        )
    if widths == {6} and any(e[5] not in _ARROWS for e in code):
        bad = next(e[5] for e in code if e[5] not in _ARROWS)
        raise InvalidParameterError(
            f"a directed dfs_code edge's arrow must be '->' or '<-', got {bad!r}"
        )
    found = widths == {6}
    if directed is None:
        return found
    if not isinstance(directed, bool | np.bool_):
        raise InvalidParameterError(f"directed must be a bool or None, got {directed!r}")
    if code and bool(directed) != found:
        raise InvalidParameterError(
            f"directed={directed!r} contradicts dfs_code, whose edges have "
            f"{6 if found else 5} fields"
        )
    return bool(directed)


def pattern_matrix(
    patterns: Sequence[Pattern], n_graphs: int, dtype: npt.DTypeLike = np.float64
) -> np.ndarray:
    """The 0/1 design matrix ``X[i, j] = 1`` when graph ``i`` contains pattern ``j``."""
    x = np.zeros((n_graphs, len(patterns)), dtype=dtype)
    for j, p in enumerate(patterns):
        x[p.graph_ids, j] = 1
    return x
