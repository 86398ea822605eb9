"""Brute-force frequent connected subgraph enumeration: the naive reference for gSpan.

Every connected edge-induced subgraph of every graph is enumerated (all edge subsets, kept when
connected), then deduplicated across graphs by labelled isomorphism (networkx VF2, with a
Weisfeiler-Lehman hash to bucket candidates). Exponential: only for tiny graphs.

Size and cost: ``2^m`` edge subsets per graph of ``m`` edges, then pairwise isomorphism tests
within each Weisfeiler-Lehman bucket: graphs of up to about 10 edges.

:func:`occurrence_counts` counts the occurrences of one pattern in one graph by listing every
subgraph monomorphism (networkx's VF2 matcher): the reference for ``counts=`` of the miners.
Its cost is the number of monomorphisms times the pattern size: small graphs and patterns only.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

import networkx as nx

__all__ = [
    "connected_edge_subgraphs",
    "frequent_subgraphs",
    "occurrence_counts",
]

_NM = nx.algorithms.isomorphism.categorical_node_match("label", None)
_EM = nx.algorithms.isomorphism.categorical_edge_match("label", None)


def _key(g: nx.Graph) -> tuple:
    return (
        g.number_of_nodes(),
        g.number_of_edges(),
        nx.weisfeiler_lehman_graph_hash(g, node_attr="label", edge_attr="label", iterations=3),
    )


def connected_edge_subgraphs(g: nx.Graph, max_edges: int | None = None):
    """Yield each connected edge-induced subgraph of ``g`` (with labels) once."""
    edges = list(g.edges)
    top = len(edges) if max_edges is None else min(max_edges, len(edges))
    for k in range(1, top + 1):
        for subset in itertools.combinations(edges, k):
            h = g.edge_subgraph(subset)
            if nx.is_connected(h):
                yield nx.Graph(h)


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
                h = nx.Graph()
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
    matcher = nx.algorithms.isomorphism.GraphMatcher(graph, pattern, node_match=_NM, edge_match=_EM)
    embeddings = 0
    sets: set[frozenset] = set()
    for mapping in matcher.subgraph_monomorphisms_iter():  # graph vertex -> pattern vertex
        embeddings += 1
        sets.add(frozenset(mapping))
    return embeddings, len(sets)
