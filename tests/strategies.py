"""Hypothesis strategies shared by the test modules."""

from __future__ import annotations

import itertools
from typing import Any

import networkx as nx
from hypothesis import strategies as st


@st.composite
def labelled_graph(
    draw,
    max_vertices: int = 7,
    n_vertex_labels: int = 3,
    n_edge_labels: int = 2,
    connected: bool = False,
) -> nx.Graph:
    """A small simple undirected graph with integer ``label`` attributes."""
    n = draw(st.integers(1, max_vertices))
    g = nx.Graph()
    for v in range(n):
        g.add_node(v, label=draw(st.integers(0, n_vertex_labels - 1)))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    chosen = (
        draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs))) if pairs else []
    )
    for u, v in chosen:
        g.add_edge(u, v, label=draw(st.integers(0, n_edge_labels - 1)))
    if connected:
        comps = [sorted(c) for c in nx.connected_components(g)]
        for a, b in itertools.pairwise(comps):
            g.add_edge(a[0], b[0], label=draw(st.integers(0, n_edge_labels - 1)))
    return g


@st.composite
def graph_databases(
    draw, min_graphs: int = 0, max_graphs: int = 6, **graph_options: Any
) -> list[nx.Graph]:
    """A list of small labelled graphs (a database for mining).

    ``graph_options`` (``max_vertices``, ``n_vertex_labels``, ``n_edge_labels``) are passed to
    :func:`labelled_graph`, which holds their defaults.
    """
    k = draw(st.integers(min_graphs, max_graphs))
    return [draw(labelled_graph(**graph_options)) for _ in range(k)]
