"""Plain networkx graphs (no ``"label"`` attributes) read as one vertex label 0 and one edge
label 0 wherever graphs are accepted; partly labelled ones still raise, naming the fix."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphsparse as gs
from graphsparse import compression as gc
from graphsparse.exceptions import InvalidGraphError
from graphsparse.testing.strategies import labelled_graphs

# a handful of examples per property: each one mines or featurises a small database
_EXAMPLES = max(10, settings.default.max_examples // 4)


def _bare(g: nx.Graph) -> nx.Graph:
    """``g``'s structure with every attribute dropped."""
    h = nx.Graph()
    h.add_nodes_from(g)
    h.add_edges_from(g.edges)
    return h


def _zero_labelled(g: nx.Graph) -> nx.Graph:
    """``g`` with the label 0 written on every vertex and edge."""
    h = _bare(g)
    nx.set_node_attributes(h, 0, "label")
    nx.set_edge_attributes(h, 0, "label")
    return h


bare_graphs = st.lists(labelled_graphs(max_vertices=6).map(_bare), min_size=1, max_size=5)


def _summary(patterns):
    return [(p.dfs_code, p.vertex_labels, p.support, p.graph_ids.tolist()) for p in patterns]


# -- reading --------------------------------------------------------------------------------------
def test_unlabelled_graphs_read_as_the_node_label_none_path():
    graphs = [nx.cycle_graph(6), nx.path_graph(4)]
    ds = gs.from_networkx(graphs)
    explicit = gs.from_networkx(graphs, node_label=None, edge_label=None)
    assert ds.vertex_label_values == (0,) and ds.edge_label_values == (0,)
    np.testing.assert_array_equal(ds.node_labels, explicit.node_labels)
    np.testing.assert_array_equal(ds.edge_labels, explicit.edge_labels)
    np.testing.assert_array_equal(ds.edges, explicit.edges)


def test_node_labels_without_edge_labels_keep_the_node_labels():
    g = nx.path_graph(3)
    nx.set_node_attributes(g, {0: "C", 1: "O", 2: "C"}, "label")
    ds = gs.from_networkx([g])
    assert ds.vertex_label_values == ("C", "O") and ds.edge_label_values == (0,)
    assert [str(p) for p in gs.mine_subgraphs([g], 1, max_size=1)] == ["(0:C)-[0]-(1:O)"]


def test_a_partly_labelled_collection_raises_and_names_the_fix():
    g = nx.path_graph(3)
    g.nodes[0]["label"] = "C"  # nodes 1 and 2 have none
    with pytest.raises(InvalidGraphError, match=r"graph 0: node 1 has no 'label' attribute") as e:
        gs.mine_subgraphs([g], 1)
    assert "node_label=None" in str(e.value) and "give every node one" in str(e.value)
    # one labelled graph beside unlabelled ones is a mismatch too, reported where it happens
    labelled = nx.path_graph(2)
    nx.set_node_attributes(labelled, "C", "label")
    with pytest.raises(InvalidGraphError, match=r"graph 1: node 0 .*node_label=None"):
        gs.from_networkx([labelled, nx.path_graph(3)])
    edges = nx.path_graph(3)
    edges.edges[0, 1]["label"] = 1
    with pytest.raises(InvalidGraphError, match=r"edge \(1, 2\) .*edge_label=None"):
        gc.WLSubtreeFeatures().fit_transform([edges])


def test_an_explicit_attribute_name_must_be_present():
    # only the default "label" may be absent everywhere: a chosen name may be misspelt
    with pytest.raises(InvalidGraphError, match=r"node 0 has no 'atom' attribute"):
        gs.from_networkx([nx.path_graph(3)], node_label="atom")
    with pytest.raises(InvalidGraphError, match=r"has no 'bond' attribute.*edge_label=None"):
        gs.from_networkx([nx.path_graph(3)], edge_label="bond")


# -- mining ---------------------------------------------------------------------------------------
def test_mining_cycles_finds_the_paths_with_their_supports():
    cycles = [nx.cycle_graph(n) for n in (4, 5, 6)]
    patterns = gs.mine_subgraphs(cycles, min_support=2)
    # C_n holds every path of up to n - 1 edges and, as a cycle, only itself
    assert sorted((p.n_edges, p.support, p.graph_ids.tolist()) for p in patterns) == [
        (1, 3, [0, 1, 2]),
        (2, 3, [0, 1, 2]),
        (3, 3, [0, 1, 2]),
        (4, 2, [1, 2]),
    ]
    for p in patterns:
        assert nx.is_isomorphic(p.to_networkx(), nx.path_graph(p.n_edges + 1))
        assert set(p.vertex_labels) == {0} and {e[3] for e in p.dfs_code} == {0}
    every = gs.mine_subgraphs(cycles, min_support=1)
    # plus the longer paths and the three cycles themselves, each in one graph
    assert sorted(p.n_edges for p in every if p.support == 1) == [4, 5, 5, 6]


@settings(max_examples=_EXAMPLES)
@given(graphs=bare_graphs)
def test_mining_unlabelled_graphs_equals_mining_them_labelled_zero(graphs):
    bare = gs.mine_subgraphs(graphs, 1, max_size=4)
    assert _summary(bare) == _summary(gs.mine_subgraphs([_zero_labelled(g) for g in graphs], 1, 4))
    explicit = gs.from_networkx(graphs, node_label=None, edge_label=None)
    assert _summary(bare) == _summary(gs.mine_subgraphs(explicit, 1, max_size=4))


def test_a_model_fits_unlabelled_graphs_as_the_explicit_path():
    graphs = [nx.cycle_graph(n) for n in range(3, 9)] + [nx.path_graph(n) for n in range(3, 9)]
    y = np.array([1] * 6 + [0] * 6)
    model = gs.SubgraphLogisticRegression(lambda1=0.05, max_size=3).fit(graphs, y)
    explicit = gs.from_networkx(graphs, node_label=None, edge_label=None)
    again = gs.SubgraphLogisticRegression(lambda1=0.05, max_size=3).fit(explicit, y)
    np.testing.assert_array_equal(model.coef_, again.coef_)
    assert [p.dfs_code for p in model.patterns_] == [p.dfs_code for p in again.patterns_]
    np.testing.assert_array_equal(model.predict(graphs), again.predict(explicit))


# -- compression and WL features ------------------------------------------------------------------
def _structure(graphs):
    return [(sorted(g.nodes(data="label")), sorted(g.edges(data="label"))) for g in graphs]


def test_ot_compression_of_unlabelled_graphs():
    graphs = [nx.cycle_graph(6), nx.path_graph(4), nx.star_graph(4)]
    small = gc.OTCompressor(k=3).fit_transform(graphs)
    assert [g.number_of_nodes() for g in small] == [3, 3, 3]
    assert all(lab == 0 for g in small for _, lab in g.nodes(data="label"))
    # the same as labels switched off explicitly, and as labels 0 written out
    explicit = gc.OTCompressor(k=3).fit_transform(gs.from_networkx(graphs, None, None))
    assert _structure(small) == _structure(explicit.graphs)
    zeros = gc.OTCompressor(k=3).fit_transform([_zero_labelled(g) for g in graphs])
    assert _structure(small) == _structure(zeros)


def test_wl_features_of_unlabelled_graphs():
    hexagon, triangles = nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    shuffled = nx.relabel_nodes(hexagon, {v: (v * 5) % 6 for v in hexagon})
    graphs = [hexagon, shuffled, triangles, nx.path_graph(6)]
    x = gc.WLSubtreeFeatures(n_iter=3).fit_transform(graphs).toarray()
    np.testing.assert_array_equal(x[0], x[1])  # isomorphic
    # colour refinement cannot tell two 2-regular graphs of one size apart, but sees a path's ends
    np.testing.assert_array_equal(x[0], x[2])
    assert not np.array_equal(x[0], x[3])
    explicit = gc.WLSubtreeFeatures(n_iter=3).fit_transform(gs.from_networkx(graphs, None, None))
    np.testing.assert_array_equal(x, explicit.toarray())


@settings(max_examples=_EXAMPLES)
@given(graph=labelled_graphs(max_vertices=7).map(_bare), data=st.data())
def test_wl_features_ignore_vertex_numbering(graph, data):
    new_name = dict(zip(graph, data.draw(st.permutations(list(graph))), strict=True))
    renamed = nx.Graph()
    renamed.add_nodes_from(sorted(new_name.values()))  # a new vertex order, not just new names
    renamed.add_edges_from((new_name[u], new_name[v]) for u, v in graph.edges)
    x = gc.WLSubtreeFeatures(n_iter=2).fit_transform([graph, renamed]).toarray()
    np.testing.assert_array_equal(x[0], x[1])
