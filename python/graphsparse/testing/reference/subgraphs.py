"""Brute-force frequent connected subgraph enumeration: the naive reference for gSpan.

Every connected edge-induced subgraph of every graph is enumerated (all edge subsets, kept when
connected), then deduplicated across graphs by labelled isomorphism (networkx VF2, with a
Weisfeiler-Lehman hash to bucket candidates). Exponential: only for tiny graphs.

Size and cost: ``2^m`` edge subsets per graph of ``m`` edges, then pairwise isomorphism tests
within each Weisfeiler-Lehman bucket: graphs of up to about 10 edges.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

import networkx as nx

__all__ = [
    "connected_edge_subgraphs",
    "frequent_subgraphs",
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
