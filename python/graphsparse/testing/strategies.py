"""Hypothesis strategies for graph-sparsity problems.

Each strategy draws small instances of one problem that graphsparse solves, in the form its
functions (and other implementations, such as ``pcst_fast`` or ``gspan-mining``) take. The
knobs bound the sizes; each docstring says what is drawn and which invariants every draw keeps.
All of them shrink towards the smallest case: fewer vertices, graphs, edges and entries, the
simplest labels and values (``0``, ``1``), no root.

Hypothesis is an optional dependency of graphsparse: install the extra ``test``
(``pip install "graphsparse[test]"``). Importing this module without it raises an
:class:`ImportError` that says so.

Examples
--------
>>> from hypothesis import given, settings
>>> import graphsparse as gs
>>> from graphsparse.testing import reference, strategies
>>> @settings(max_examples=20, deadline=None)
... @given(strategies.projection_vectors(max_len=8), strategies.radii(allow_zero=False))
... def test_simplex(v, radius):
...     want = reference.projections.project_simplex_sort(v, radius)
...     assert abs(gs.project_simplex(v, radius).sum() - want.sum()) <= 1e-9 * max(1.0, radius)
>>> test_simplex()
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import networkx as nx
import numpy as np
import numpy.typing as npt

from .._optional import require

require("hypothesis", "test", "graphsparse.testing.strategies")

from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra.numpy import arrays  # noqa: E402

if TYPE_CHECKING:
    import pandas as pd

    from .._dataset import GraphDataset

__all__ = [
    "RecoveryInstance",
    "capped_simplex_inputs",
    "costed_graphs",
    "distributions",
    "feature_graphs",
    "graph_databases",
    "graph_datasets",
    "labelled_graphs",
    "mixed_graphs",
    "node_weights",
    "pcst_instances",
    "projection_batches",
    "projection_vectors",
    "projection_weights",
    "radii",
    "recovery_instances",
    "rule_tables",
    "sparse_projection_instances",
    "transport_problems",
    "weighted_simplex_inputs",
]

# -- labelled graphs and graph databases -------------------------------------------------------


@st.composite
def labelled_graphs(
    draw: st.DrawFn,
    max_vertices: int = 7,
    n_vertex_labels: int = 3,
    n_edge_labels: int = 2,
    connected: bool = False,
    min_vertices: int = 1,
    max_edges: int | None = None,
) -> nx.Graph:
    """Small simple undirected graphs with integer ``label`` attributes on vertices and edges.

    The number of vertices is uniform in ``[min_vertices, max_vertices]``; the vertices are
    ``0 .. n - 1``, each labelled independently in ``0 .. n_vertex_labels - 1``. The edges are a
    list of distinct vertex pairs (so the density ranges from none to the complete graph, at most
    ``max_edges`` edges before connecting), each labelled in ``0 .. n_edge_labels - 1``. With
    ``connected=True`` the components are then joined in a chain by one edge each (between their
    smallest vertices), so the graph is connected. No self-loops, no parallel edges.

    Parameters
    ----------
    max_vertices, min_vertices : int
        The range of the number of vertices, ``1 <= min_vertices <= max_vertices``.
    n_vertex_labels, n_edge_labels : int
        The sizes of the label alphabets, ``>= 1``.
    connected : bool, default=False
        Whether every draw is connected.
    max_edges : int or None, default=None
        At most this many drawn edges (``connected=True`` may add ``components - 1``).

    Returns
    -------
    strategy of networkx.Graph
        Shrinks towards one vertex labelled ``0``.
    """
    n = draw(st.integers(min_vertices, max_vertices))
    g = nx.Graph()
    for v in range(n):
        g.add_node(v, label=draw(st.integers(0, n_vertex_labels - 1)))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    cap = len(pairs) if max_edges is None else min(len(pairs), max_edges)
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=cap)) if pairs else []
    for u, v in chosen:
        g.add_edge(u, v, label=draw(st.integers(0, n_edge_labels - 1)))
    if connected:
        comps = [sorted(c) for c in nx.connected_components(g)]
        for a, b in itertools.pairwise(comps):
            g.add_edge(a[0], b[0], label=draw(st.integers(0, n_edge_labels - 1)))
    return g


@st.composite
def graph_databases(
    draw: st.DrawFn, min_graphs: int = 0, max_graphs: int = 6, **graph_options: Any
) -> list[nx.Graph]:
    """Lists of small labelled graphs: databases to mine.

    The number of graphs is uniform in ``[min_graphs, max_graphs]``; each is drawn independently
    by :func:`labelled_graphs`, which takes ``graph_options`` (``max_vertices``,
    ``n_vertex_labels``, ``n_edge_labels``, ``connected`` ...) and holds their defaults.

    Returns
    -------
    strategy of list of networkx.Graph
        Shrinks towards ``min_graphs`` one-vertex graphs.
    """
    k = draw(st.integers(min_graphs, max_graphs))
    return [draw(labelled_graphs(**graph_options)) for _ in range(k)]


@st.composite
def graph_datasets(
    draw: st.DrawFn, min_graphs: int = 0, max_graphs: int = 6, **graph_options: Any
) -> GraphDataset:
    """:class:`graphsparse.GraphDataset` objects holding a :func:`graph_databases` draw.

    The same distribution and knobs as :func:`graph_databases`, converted by
    :func:`graphsparse.from_networkx` (the labels are the ``label`` attributes).

    Returns
    -------
    strategy of graphsparse.GraphDataset
    """
    from .._dataset import from_networkx

    return from_networkx(draw(graph_databases(min_graphs, max_graphs, **graph_options)))


# -- prize-collecting Steiner forests ----------------------------------------------------------


@st.composite
def pcst_instances(
    draw: st.DrawFn,
    max_nodes: int = 25,
    ties: bool | None = None,
    with_num_clusters: bool = False,
) -> dict[str, Any]:
    """Prize-collecting Steiner forest instances on small multigraphs, degenerate ones included.

    ``n`` is uniform in ``[1, max_nodes]`` and the number of edges uniform in ``[0, 3 n]``; the
    endpoints are uniform, so self-loops, parallel edges and isolated vertices occur. Prizes and
    costs are ``>= 0`` and often ``0``: with ties (``ties=True``, or half of the draws when
    ``ties`` is ``None``) all of them are multiples of ``1`` or of ``0.25`` in ``[0, 4]``, so
    many events of the growth happen at once; without, they are floats in ``[0, 10]`` with
    everything below ``1e-3`` set to ``0``. Half of the instances are rooted.

    Parameters
    ----------
    max_nodes : int, default=25
        The largest number of vertices, ``>= 1``.
    ties : bool or None, default=None
        Draw tied weights always (``True``), never (``False``) or in half of the draws.
    with_num_clusters : bool, default=False
        Also draw ``"num_clusters"``: ``1`` for a rooted instance, else uniform in ``[1, n]``.

    Returns
    -------
    strategy of dict
        ``{"edges": int64 array (m, 2), "prizes": float64 array (n,), "costs": float64 array
        (m,), "root": int (-1 for none), "n": int}``, the arguments of
        :func:`graphsparse.pcst` and of ``pcst_fast.pcst_fast``. Shrinks towards one vertex
        with prize ``0``, no edge and no root.
    """
    n = draw(st.integers(1, max_nodes))
    m = draw(st.integers(0, 3 * n))
    edges = draw(
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), min_size=m, max_size=m)
    )
    if ties is None:
        ties = draw(st.booleans())
    if ties:
        # integer or quarter-integer weights: equal event times everywhere
        scale = draw(st.sampled_from([1.0, 0.25]))
        weight = st.integers(0, 4).map(lambda k: k * scale)
    else:
        # no magnitudes below 1e-3: with costs ~1e-10 times the event times pcst_fast can loop
        # forever
        weight = st.floats(0.0, 10.0).map(lambda x: 0.0 if x < 1e-3 else x)
    prizes = draw(st.lists(weight, min_size=n, max_size=n))
    costs = draw(st.lists(weight, min_size=m, max_size=m))
    rooted = draw(st.booleans())
    root = draw(st.integers(0, n - 1)) if rooted else -1
    instance = {
        "edges": np.array(edges, dtype=np.int64).reshape(-1, 2),
        "prizes": np.array(prizes, dtype=np.float64),
        "costs": np.array(costs, dtype=np.float64),
        "root": root,
        "n": n,
    }
    if with_num_clusters:
        instance["num_clusters"] = 1 if rooted else draw(st.integers(1, n))
    return instance


# -- Euclidean projections ---------------------------------------------------------------------

_FINITE = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
_TIED = st.sampled_from([-2.0, -0.5, 0.0, 0.25, 0.5, 1.0, 3.0])
_SCALES = st.sampled_from([1.0, 1.0, 1.0, 1e-300, 1e-150, 1e150, 1e300])


def _scale_of(x: npt.NDArray[np.float64]) -> float:
    return max(1e-300, float(np.max(np.abs(x), initial=0.0)))


@st.composite
def projection_vectors(
    draw: st.DrawFn, max_len: int = 64, min_len: int = 1
) -> npt.NDArray[np.float64]:
    """Finite float64 vectors, often with many ties, at scales from ``1e-300`` to ``1e300``.

    The length is uniform in ``[min_len, max_len]``. The entries come from one of three
    families, picked per draw: floats in ``[-1e6, 1e6]``, a few tied values (``-2, -0.5, 0,
    0.25, 0.5, 1, 3``), or floats in ``[-1, 1]``; half of the vectors are then divided by their
    largest magnitude (when above 1), and every vector is multiplied by ``1`` (in three draws of
    seven) or by ``1e-300``, ``1e-150``, ``1e150`` or ``1e300``. Every entry is finite.

    Returns
    -------
    strategy of ndarray of float64, shape (n,)
        Shrinks towards ``[0.0]``.
    """
    n = draw(st.integers(min_len, max_len))
    elems = draw(st.sampled_from([_FINITE, _TIED, st.floats(-1.0, 1.0)]))
    v = draw(arrays(np.float64, n, elements=elems))
    if draw(st.booleans()):
        v = v / max(1.0, float(np.abs(v).max(initial=0.0)))
    return v * draw(_SCALES)


@st.composite
def projection_weights(draw: st.DrawFn, n: int) -> npt.NDArray[np.float64]:
    """Weights ``ε`` of the weighted simplex ``{x : Σ ε_i x_i = 1, x_i >= 0 where ε_i > 0}``.

    ``n`` entries in ``[0, 1]``, each ``0``, ``0.5``, ``1`` or a float in ``[1e-6, 1]``; at least
    one is positive (an all-zero draw gets ``0.75`` at a drawn position).

    Returns
    -------
    strategy of ndarray of float64, shape (n,)
    """
    e = draw(
        arrays(
            np.float64,
            n,
            elements=st.one_of(st.just(0.0), st.just(0.5), st.just(1.0), st.floats(1e-6, 1.0)),
        )
    )
    if not np.any(e > 0):
        e[draw(st.integers(0, n - 1))] = 0.75
    return e


def radii(allow_zero: bool = True) -> st.SearchStrategy[float]:
    """Radii of the simplex and of the L1 ball: ``1``, a float in ``[1e-3, 1e3]``, or ``0``.

    Parameters
    ----------
    allow_zero : bool, default=True
        Whether ``0`` (the set ``{0}``) is drawn too.

    Returns
    -------
    strategy of float
        Every draw is finite and ``>= 0`` (``> 0`` unless ``allow_zero``).
    """
    if allow_zero:
        return st.one_of(st.just(0.0), st.just(1.0), st.floats(1e-3, 1e3))
    return st.one_of(st.just(1.0), st.floats(1e-3, 1e3))


@st.composite
def weighted_simplex_inputs(
    draw: st.DrawFn, max_len: int = 64
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """``(y, eps)``: a :func:`projection_vectors` draw and :func:`projection_weights` for it.

    A vector whose largest magnitude is above ``1e200`` or below ``1e-200`` is rescaled to
    ``1e150`` or ``1e-150`` (the weighted simplex has radius 1: the projection stays
    representable).

    Returns
    -------
    strategy of tuple (ndarray, ndarray)
    """
    y = draw(projection_vectors(max_len=max_len))
    if _scale_of(y) > 1e200 or _scale_of(y) < 1e-200:
        y = y / _scale_of(y) * draw(st.sampled_from([1e-150, 1e150]))
    return y, draw(projection_weights(y.size))


@st.composite
def capped_simplex_inputs(
    draw: st.DrawFn, max_len: int = 64
) -> tuple[npt.NDArray[np.float64], float]:
    """``(y, k)`` for the capped simplex ``{x : Σ x_i <= k, 0 <= x_i <= 1}``.

    ``y`` is a :func:`projection_vectors` draw, in half of the draws rescaled to a largest
    magnitude in ``[0.5, 3]`` (where the caps bind); ``k`` is ``0``, an integer in ``[1, 5]`` or a
    float in ``[0, 8]``, always ``>= 0``.

    Returns
    -------
    strategy of tuple (ndarray, float)
    """
    y = draw(projection_vectors(max_len=max_len))
    if draw(st.booleans()):
        y = y / max(_scale_of(y), 1e-300) * draw(st.floats(0.5, 3.0))
    k = draw(st.one_of(st.just(0.0), st.integers(1, 5).map(float), st.floats(0.0, 8.0)))
    return y, k


@st.composite
def projection_batches(
    draw: st.DrawFn,
    min_rows: int = 1,
    max_rows: int = 30,
    min_cols: int = 3,
    max_cols: int = 60,
    extreme_scales: bool = True,
) -> npt.NDArray[np.float64]:
    """Batches of vectors to project row by row: a float64 matrix.

    The shape is uniform in ``[min_rows, max_rows] × [min_cols, max_cols]`` and the entries are
    floats in ``[-1e6, 1e6]``. With ``extreme_scales`` every row is then multiplied by its own
    scale, ``1`` or one of ``1e-300``, ``1e-150``, ``1e150``, ``1e300`` (as in
    :func:`projection_vectors`), so one batch mixes rows of very different magnitudes. Every
    entry is finite.

    Returns
    -------
    strategy of ndarray of float64, shape (rows, cols)
    """
    shape = st.tuples(st.integers(min_rows, max_rows), st.integers(min_cols, max_cols))
    data = draw(arrays(np.float64, shape, elements=_FINITE))
    if extreme_scales:
        data = data * draw(arrays(np.float64, (data.shape[0], 1), elements=_SCALES))
    return data


# -- graphs over features (online learning, head/tail projections) -----------------------------


@st.composite
def feature_graphs(
    draw: st.DrawFn, min_nodes: int = 2, max_nodes: int = 24
) -> tuple[int, npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Connected multigraphs over features, with positive edge costs: ``(n, edges, costs)``.

    ``n`` is uniform in ``[min_nodes, max_nodes]``; the edges are a random spanning tree (vertex
    ``i`` joined to a uniform earlier vertex) followed by up to ``2 n`` uniform extra pairs,
    which may repeat an edge or be self-loops. Costs are floats in ``[0.5, 2]``.

    Returns
    -------
    strategy of tuple (int, ndarray of int64 (m, 2), ndarray of float64 (m,))
        Every draw is connected and ``m >= n - 1``.
    """
    n = draw(st.integers(min_nodes, max_nodes))
    tree = [(draw(st.integers(0, i - 1)), i) for i in range(1, n)]
    extra = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=2 * n))
    edges = np.asarray(tree + extra, dtype=np.int64).reshape(-1, 2)
    costs = np.asarray(
        draw(st.lists(st.floats(0.5, 2.0), min_size=len(edges), max_size=len(edges))),
        dtype=np.float64,
    )
    return n, edges, costs


@st.composite
def node_weights(draw: st.DrawFn, n: int) -> npt.NDArray[np.float64]:
    """``n`` vertex weights (a model's coefficients): ``0`` or a float in ``[-3, 3]`` each.

    Returns
    -------
    strategy of ndarray of float64, shape (n,)
    """
    finite = st.floats(-3.0, 3.0, allow_nan=False, allow_infinity=False)
    vals = draw(st.lists(st.one_of(st.just(0.0), finite), min_size=n, max_size=n))
    return np.asarray(vals, dtype=np.float64)


@st.composite
def sparse_projection_instances(
    draw: st.DrawFn, min_nodes: int = 2, max_nodes: int = 24
) -> tuple[int, npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64], int]:
    """``(n, edges, costs, w, s)``: a :func:`feature_graphs` draw, :func:`node_weights` on it and
    a target support size ``s`` uniform in ``[1, n]`` (the input of the head and tail
    projections, :func:`graphsparse.online.head_projection`).

    Returns
    -------
    strategy of tuple
    """
    n, edges, costs = draw(feature_graphs(min_nodes, max_nodes))
    w = draw(node_weights(n))
    s = draw(st.integers(1, n))
    return n, edges, costs, w, s


# -- optimal transport on graphs ---------------------------------------------------------------


@st.composite
def _connected_graphs(draw: st.DrawFn, max_n: int = 8) -> tuple[int, list[tuple[int, int]]]:
    n = draw(st.integers(2, max_n))
    parents = [draw(st.integers(0, v - 1)) for v in range(1, n)]
    edges = {(p, v) for v, p in zip(range(1, n), parents, strict=True)}
    extra = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=n))
    edges |= {(min(a, b), max(a, b)) for a, b in extra if a != b}
    return n, sorted(edges)


@st.composite
def costed_graphs(
    draw: st.DrawFn, max_nodes: int = 8
) -> tuple[int, list[tuple[int, int]], list[float]]:
    """Connected simple graphs with a positive cost per edge: ``(n, edges, costs)``.

    ``n`` is uniform in ``[2, max_nodes]``; the edges are a random spanning tree plus up to ``n``
    uniform extra pairs, without self-loops or repeats, as sorted pairs ``(u, v)`` with
    ``u < v``. Costs are floats in ``[0.01, 2]``.

    Returns
    -------
    strategy of tuple (int, list of (int, int), list of float)
        Every draw is connected and simple. Shrinks towards one edge ``(0, 1)``.
    """
    n, edges = draw(_connected_graphs(max_nodes))
    costs = draw(st.lists(st.floats(0.01, 2.0), min_size=len(edges), max_size=len(edges)))
    return n, edges, costs


@st.composite
def mixed_graphs(
    draw: st.DrawFn, max_nodes: int = 8
) -> tuple[int, list[tuple[int, int]], list[float], list[bool]]:
    """A :func:`costed_graphs` draw and which of its edges are directed (from ``u`` to ``v``):
    ``(n, edges, costs, directed)``, each edge directed with probability about one half.

    Returns
    -------
    strategy of tuple (int, list, list, list of bool)
    """
    n, edges, costs = draw(costed_graphs(max_nodes))
    mask = draw(st.lists(st.booleans(), min_size=len(edges), max_size=len(edges)))
    return n, edges, costs, mask


@st.composite
def distributions(draw: st.DrawFn, n: int) -> npt.NDArray[np.float64]:
    """Probability vectors of length ``n``: ``n`` floats in ``[0, 1]`` divided by their sum
    (uniform when they are all ``0``). Every draw is ``>= 0`` and sums to 1 up to rounding.

    Returns
    -------
    strategy of ndarray of float64, shape (n,)
    """
    w = np.array(draw(st.lists(st.floats(0.0, 1.0), min_size=n, max_size=n)))
    return w / w.sum() if w.sum() > 0 else np.full(n, 1.0 / n)


@st.composite
def transport_problems(draw: st.DrawFn, max_nodes: int = 8, mixed: bool = False) -> tuple[Any, ...]:
    """Transport problems on a graph: move the mass ``rho0`` to ``rho1`` along costed edges.

    ``(n, edges, costs, rho0, rho1)`` from :func:`costed_graphs` and two :func:`distributions`;
    with ``mixed=True`` the graph is a :func:`mixed_graphs` draw and its ``directed`` mask comes
    last (then a problem may be infeasible). Undirected problems are always feasible: the graph
    is connected and both distributions sum to 1.

    Returns
    -------
    strategy of tuple
        The arguments of :func:`graphsparse.compression.graph_ot_distance` (after ``n``).
    """
    if mixed:
        n, edges, costs, mask = draw(mixed_graphs(max_nodes))
        return n, edges, costs, draw(distributions(n)), draw(distributions(n)), mask
    n, edges, costs = draw(costed_graphs(max_nodes))
    return n, edges, costs, draw(distributions(n)), draw(distributions(n))


# -- graph-structured recovery -----------------------------------------------------------------


class RecoveryInstance(NamedTuple):
    """One drawn recovery problem (unpacks as ``A, y, x_true, edges, groups``).

    Attributes
    ----------
    A : ndarray of float64, shape (n_samples, n_features)
        The design.
    y : ndarray of float64, shape (n_samples,)
        ``A @ x_true``, plus noise when drawn with ``noise > 0``.
    x_true : ndarray of float64, shape (n_features,)
        Nonzero exactly on a connected set of vertices of the graph.
    edges : ndarray of int64, shape (n_edges, 2)
        A simple undirected graph over the features, pairs ``(u, v)`` with ``u < v``.
    groups : list of list of int
        Each vertex with its neighbours, sorted (the groups of the latent group lasso).
    """

    A: npt.NDArray[np.float64]
    y: npt.NDArray[np.float64]
    x_true: npt.NDArray[np.float64]
    edges: npt.NDArray[np.int64]
    groups: list[list[int]]


@st.composite
def recovery_instances(
    draw: st.DrawFn,
    max_features: int = 10,
    max_samples: int = 12,
    connected: bool = False,
    noise: float = 0.0,
) -> RecoveryInstance:
    """Graph-structured recovery problems: a design, a graph over its features, a connected
    support and the groups of its neighbourhoods.

    ``n_features`` is uniform in ``[1, max_features]`` and ``n_samples`` in ``[1, max_samples]``;
    the design's entries are floats in ``[-3, 3]`` (zeros and tied columns occur). The graph is
    a list of distinct vertex pairs (edgeless to complete; joined in a chain of its components
    when ``connected``). The support grows from a drawn vertex along the graph's edges to a
    drawn size, so it is connected; its amplitudes are ``±`` a float in ``[0.5, 2]``. The noise
    is ``noise`` times floats in ``[-1, 1]``.

    Returns
    -------
    strategy of RecoveryInstance
        Shrinks towards one feature, one sample, no edge.
    """
    n = draw(st.integers(1, max_features))
    m = draw(st.integers(1, max_samples))
    a = draw(arrays(np.float64, (m, n), elements=st.floats(-3.0, 3.0)))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(chosen)
    if connected:
        comps = [sorted(c) for c in nx.connected_components(g)]
        g.add_edges_from((a_[0], b_[0]) for a_, b_ in itertools.pairwise(comps))
    edges = np.array(sorted((min(e), max(e)) for e in g.edges), dtype=np.int64).reshape(-1, 2)
    start = draw(st.integers(0, n - 1))
    reach = list(nx.bfs_tree(g, start))  # a BFS order: every prefix is connected
    support = reach[: draw(st.integers(1, len(reach)))]
    x_true = np.zeros(n)
    for v in support:
        sign = draw(st.sampled_from([1.0, -1.0]))
        x_true[v] = sign * draw(st.floats(0.5, 2.0))
    y = a @ x_true
    if noise > 0:
        y = y + noise * draw(arrays(np.float64, m, elements=st.floats(-1.0, 1.0)))
    groups = [sorted([v, *g.neighbors(v)]) for v in range(n)]
    return RecoveryInstance(a, y, x_true, edges, groups)


# -- tables for rule ensembles -----------------------------------------------------------------

_CATEGORIES = ("a", "b", "c", "d")


@st.composite
def rule_tables(
    draw: st.DrawFn,
    min_rows: int = 2,
    max_rows: int = 30,
    max_numeric: int = 3,
    max_categorical: int = 2,
    missing: bool = True,
    categories: Sequence[str] = _CATEGORIES,
) -> pd.DataFrame:
    """Tables with numeric and categorical columns, as pandas DataFrames (needs pandas).

    The number of rows is uniform in ``[min_rows, max_rows]``; there are up to ``max_numeric``
    float64 columns ``x0, x1, ...`` and up to ``max_categorical`` object columns ``c0, c1, ...``
    (at least one column in all). Numeric entries are small integers in ``[-5, 5]`` (ties) or
    floats in ``[-1e3, 1e3]``; categorical entries are drawn from ``categories``. With
    ``missing`` some entries are missing (``NaN`` and ``None``).

    Returns
    -------
    strategy of pandas.DataFrame
    """
    pandas = require("pandas", "bench", "rule_tables")
    m = draw(st.integers(min_rows, max_rows))
    n_num = draw(st.integers(0, max_numeric))
    n_cat = draw(st.integers(0 if n_num else min(1, max_categorical), max_categorical))
    if n_num + n_cat == 0:
        n_num = 1
    number = st.one_of(st.integers(-5, 5).map(float), st.floats(-1e3, 1e3))
    label: st.SearchStrategy[Any] = st.sampled_from(list(categories))
    if missing:
        number = st.one_of(number, st.just(np.nan))
        label = st.one_of(label, st.none())
    columns: dict[str, Any] = {}
    for j in range(n_num):
        columns[f"x{j}"] = np.asarray(
            draw(st.lists(number, min_size=m, max_size=m)), dtype=np.float64
        )
    for j in range(n_cat):
        columns[f"c{j}"] = pandas.Series(
            draw(st.lists(label, min_size=m, max_size=m)), dtype=object
        )
    return pandas.DataFrame(columns)


# ``st.composite`` returns a function whose qualified name is ``accept.<locals>.name``: give each
# strategy its own, so that documentation and pickles find it here
for _name in __all__:
    _obj = globals()[_name]
    if "<locals>" in getattr(_obj, "__qualname__", ""):
        _obj.__qualname__ = _name
del _name, _obj
