"""Brute-force frequent connected subgraph enumeration: the naive reference for gSpan, and the
closed and maximal patterns by their definitions.

Every connected edge-induced subgraph of every graph is enumerated (all edge subsets, kept when
connected), then deduplicated across graphs by labelled isomorphism (networkx VF2, with a
Weisfeiler-Lehman hash to bucket candidates). Exponential: only for tiny graphs. Directed graphs
(``networkx.DiGraph``) work alike: the subsets kept are the weakly connected ones, and
isomorphism and matching respect arc directions (networkx's DiGraphMatcher).

Size and cost: ``2^m`` edge subsets per graph of ``m`` edges, then pairwise isomorphism tests
within each Weisfeiler-Lehman bucket: graphs of up to about 10 edges.

:func:`occurrence_counts` counts the occurrences of one pattern in one graph by listing every
subgraph monomorphism (networkx's VF2 matcher): the reference for ``counts=`` of the miners.
Its cost is the number of monomorphisms times the pattern size: small graphs and patterns only.

:func:`closed_patterns` and :func:`maximal_patterns` filter any frequent set (this module's, or
a miner's) by the definitions: a pattern is closed when no other pattern of the set contains
it with the same support, maximal when no other pattern of the set contains it at all.
Containment is a labelled subgraph monomorphism (networkx VF2). The cost is one test per pair
that passes cheap necessary conditions (more edges, graph ids a subset, label counts
contained): seconds for the tens of thousands of patterns of MUTAG at support 19.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Sequence

import networkx as nx

__all__ = [
    "closed_patterns",
    "connected_edge_subgraphs",
    "frequent_subgraphs",
    "maximal_patterns",
    "occurrence_counts",
]

_NM = nx.algorithms.isomorphism.categorical_node_match("label", None)
_EM = nx.algorithms.isomorphism.categorical_edge_match("label", None)


def _key(g: nx.Graph) -> tuple:
    """An isomorphism invariant to bucket candidates; a directed graph hashes its undirected
    skeleton (networkx's directed hash changed in 3.5) plus each vertex's in and out degree."""
    skeleton = g.to_undirected(as_view=True) if g.is_directed() else g
    degrees = (
        tuple(sorted((d["label"], g.in_degree(v), g.out_degree(v)) for v, d in g.nodes(data=True)))
        if g.is_directed()
        else ()
    )
    return (
        g.number_of_nodes(),
        g.number_of_edges(),
        nx.weisfeiler_lehman_graph_hash(
            skeleton, node_attr="label", edge_attr="label", iterations=3
        ),
        degrees,
    )


def connected_edge_subgraphs(g: nx.Graph, max_edges: int | None = None):
    """Yield each connected edge-induced subgraph of ``g`` (with labels) once; for a
    ``networkx.DiGraph``, each weakly connected arc-induced one, as a ``DiGraph``."""
    edges = list(g.edges)
    top = len(edges) if max_edges is None else min(max_edges, len(edges))
    connected = nx.is_weakly_connected if g.is_directed() else nx.is_connected
    kind = nx.DiGraph if g.is_directed() else nx.Graph
    for k in range(1, top + 1):
        for subset in itertools.combinations(edges, k):
            h = g.edge_subgraph(subset)
            if connected(h):
                yield kind(h)


def frequent_subgraphs(
    graphs: list[nx.Graph],
    min_support: int,
    max_edges: int | None = None,
    single_vertices: bool = False,
) -> list[tuple[nx.Graph, frozenset[int]]]:
    """All connected patterns occurring in at least ``min_support`` graphs, with their graph ids."""
    buckets: dict[tuple, list[tuple[nx.Graph, set[int]]]] = defaultdict(list)

    def add(h: nx.Graph, gid: int) -> None:
        bucket = buckets[_key(h)]
        for rep, ids in bucket:
            if nx.is_isomorphic(rep, h, node_match=_NM, edge_match=_EM):
                ids.add(gid)
                return
        bucket.append((h, {gid}))

    for gid, g in enumerate(graphs):
        if single_vertices:
            for label in {d["label"] for _, d in g.nodes(data=True)}:
                h = nx.DiGraph() if g.is_directed() else nx.Graph()
                h.add_node(0, label=label)
                add(h, gid)
        for h in connected_edge_subgraphs(g, max_edges):
            add(h, gid)
    return [
        (rep, frozenset(ids))
        for bucket in buckets.values()
        for rep, ids in bucket
        if len(ids) >= min_support
    ]


def occurrence_counts(pattern: nx.Graph, graph: nx.Graph) -> tuple[int, int]:
    """The occurrences of ``pattern`` in ``graph`` as ``(embeddings, vertex_sets)``.

    ``embeddings`` is the number of label-preserving subgraph monomorphisms of ``pattern`` into
    ``graph``: injective maps of the pattern's vertices into the graph's such that every pattern
    edge lands on a graph edge, with equal ``label`` attributes on vertices and edges. The graph
    may have more edges between the mapped vertices (patterns are not induced), and maps that
    differ by an automorphism of the pattern count separately. ``vertex_sets`` is the number of
    distinct sets of graph vertices those maps cover.

    Examples
    --------
    >>> import networkx as nx
    >>> tri = nx.cycle_graph(3)
    >>> nx.set_node_attributes(tri, 0, "label")
    >>> nx.set_edge_attributes(tri, 0, "label")
    >>> edge = nx.path_graph(2)
    >>> nx.set_node_attributes(edge, 0, "label")
    >>> nx.set_edge_attributes(edge, 0, "label")
    >>> occurrence_counts(edge, tri)  # 3 edges, each both ways round
    (6, 3)
    """
    iso = nx.algorithms.isomorphism
    kind = iso.DiGraphMatcher if graph.is_directed() else iso.GraphMatcher
    matcher = kind(graph, pattern, node_match=_NM, edge_match=_EM)
    embeddings = 0
    sets: set[frozenset] = set()
    for mapping in matcher.subgraph_monomorphisms_iter():  # graph vertex -> pattern vertex
        embeddings += 1
        sets.add(frozenset(mapping))
    return embeddings, len(sets)


Entry = tuple[nx.Graph, frozenset[int]]


def _labels(g: nx.Graph) -> tuple[Counter, Counter]:
    """Vertex label counts and edge label-triple counts (sorted end labels, edge label)."""
    vertices = Counter(d["label"] for _, d in g.nodes(data=True))
    edges = Counter(
        (*sorted((g.nodes[u]["label"], g.nodes[v]["label"]), key=repr), d["label"])
        for u, v, d in g.edges(data=True)
    )
    return vertices, edges


def _contains(big: Entry, small: Entry, big_labels, small_labels) -> bool:
    """Whether pattern ``small`` is a proper labelled subgraph of ``big`` (edges to edges)."""
    (g, gids), (h, hids) = big, small
    if g.number_of_edges() <= h.number_of_edges() and g.number_of_nodes() <= h.number_of_nodes():
        return False
    if not gids <= hids:
        return False
    (gv, ge), (hv, he) = big_labels, small_labels
    if any(gv[k] < n for k, n in hv.items()) or any(ge[k] < n for k, n in he.items()):
        return False
    iso = nx.algorithms.isomorphism
    kind = iso.DiGraphMatcher if g.is_directed() else iso.GraphMatcher
    return kind(g, h, node_match=_NM, edge_match=_EM).subgraph_is_monomorphic()


def _dominated(patterns: Sequence[Entry], same_support: bool) -> list[bool]:
    """Whether each pattern is properly contained in another one (with the same graph ids
    when ``same_support``)."""
    labels = [_labels(g) for g, _ in patterns]
    groups: dict[frozenset[int] | None, list[int]] = defaultdict(list)
    for k, (_, ids) in enumerate(patterns):
        groups[ids if same_support else None].append(k)
    out = [False] * len(patterns)
    for members in groups.values():
        by_size = sorted(members, key=lambda k: -patterns[k][0].number_of_edges())
        for k in members:
            small = patterns[k]
            for j in by_size:
                big = patterns[j]
                if big[0].number_of_edges() < small[0].number_of_edges():
                    break
                if j != k and _contains(big, small, labels[j], labels[k]):
                    out[k] = True
                    break
    return out


def _dominated_by_deletion(
    patterns: Sequence[Entry], same_support: bool, canonical: Callable[[nx.Graph], Hashable]
) -> list[bool]:
    """:func:`_dominated` through one-edge deletions: each pattern minus one edge (and the
    vertex only that edge held), when connected, is looked up by ``canonical`` among the
    patterns not yet found dominated that have its label counts (and graphs)."""

    def key(g: nx.Graph) -> Hashable:
        if g.number_of_edges() == 0:
            return ("vertex", next(iter(g.nodes(data="label")))[1])
        return ("edges", canonical(g))

    def counts(vertices: Counter, edges: Counter, ids: frozenset[int]) -> Hashable:
        return (
            frozenset((+vertices).items()),
            frozenset((+edges).items()),
            ids if same_support else None,
        )

    labels = [_labels(g) for g, _ in patterns]
    # patterns not yet dominated, by label counts: canonical codes computed on demand
    open_: dict[Hashable, dict[Hashable, int] | list[int]] = defaultdict(list)
    for k, ((v, e), (_, ids)) in enumerate(zip(labels, patterns, strict=True)):
        open_[counts(v, e, ids)].append(k)
    out = [False] * len(patterns)

    def lookup(h: nx.Graph, bucket_key: Hashable) -> None:
        bucket = open_.get(bucket_key)
        if not bucket:
            return
        if isinstance(bucket, list):  # first use: index the bucket by canonical code
            bucket = {key(patterns[k][0]): k for k in bucket}
            open_[bucket_key] = bucket
        k = bucket.pop(key(h), None)
        if k is not None:
            out[k] = True

    for (g, ids), (gv, ge) in zip(patterns, labels, strict=True):
        lab = dict(g.nodes(data="label"))
        if g.number_of_edges() == 1:
            for v in g.nodes:
                h = g.subgraph([v])
                lookup(h, counts(Counter([lab[v]]), Counter(), ids))
            continue
        for u, v, el in g.edges(data="label"):
            gone = [x for x in (u, v) if g.degree(x) == 1]
            triple = (*sorted((lab[u], lab[v]), key=repr), el)
            vertices = gv - Counter(lab[x] for x in gone)
            bucket_key = counts(vertices, ge - Counter([triple]), ids)
            if not open_.get(bucket_key):
                continue  # no pattern left that this deletion could be
            h = (nx.DiGraph if g.is_directed() else nx.Graph)(g)
            h.remove_edge(u, v)
            h.remove_nodes_from(gone)
            if (nx.is_weakly_connected if h.is_directed() else nx.is_connected)(h):
                lookup(h, bucket_key)
    return out


def closed_patterns(
    patterns: Sequence[Entry], canonical: Callable[[nx.Graph], Hashable] | None = None
) -> list[Entry]:
    """The closed members of a frequent set: no other member contains them with the same
    graphs (so the same support; containment shrinks the graph set).

    ``patterns`` are ``(pattern, graph ids)`` pairs as :func:`frequent_subgraphs` returns, one
    per isomorphism class (single-vertex patterns included or not); the result keeps their
    order. Relative to the set given: with a size bound, a pattern of the largest size is
    always closed.

    Without ``canonical``, every pair is tested for containment (the definition as written;
    for sets of a few thousand patterns). With ``canonical``, a complete isomorphism invariant
    of connected labelled graphs (a canonical code), only one-edge super-patterns are looked
    for, by deleting each edge of each pattern: the same answer for a frequent set that holds
    every frequent pattern up to a size, since between a pattern and a connected super-pattern
    there is a chain of connected patterns one edge apart, all frequent, with supports in
    between. Linear in the patterns times their edges.
    """
    if canonical is not None:
        dominated = _dominated_by_deletion(patterns, True, canonical)
    else:
        dominated = _dominated(patterns, same_support=True)
    return [p for p, d in zip(patterns, dominated, strict=True) if not d]


def maximal_patterns(
    patterns: Sequence[Entry], canonical: Callable[[nx.Graph], Hashable] | None = None
) -> list[Entry]:
    """The maximal members of a frequent set: no other member contains them.

    As :func:`closed_patterns`. Without ``canonical`` only the closed members are tested
    against each other: every maximal pattern is closed, and a member containing a pattern is
    contained in a closed member with its graphs (the largest member holding it with the same
    graphs).
    """
    if canonical is not None:
        dominated = _dominated_by_deletion(patterns, False, canonical)
        return [p for p, d in zip(patterns, dominated, strict=True) if not d]
    closed = closed_patterns(patterns)
    dominated = _dominated(closed, same_support=False)
    return [p for p, d in zip(closed, dominated, strict=True) if not d]
