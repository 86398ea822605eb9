"""GraphDataset, readers and writers: round trips, indexing, and precise errors."""

from __future__ import annotations

import pickle
import sys

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import graphsparse as gs
from graphsparse.exceptions import GraphFormatError, InvalidGraphError, InvalidParameterError
from graphsparse.testing.strategies import graph_databases


def _edge_sets(ds: gs.GraphDataset) -> list[set]:
    out = []
    for g in ds.graphs:
        out.append(
            {
                (
                    frozenset((g.nodes[u]["label"], g.nodes[v]["label"])),
                    d["label"],
                    frozenset((u, v)),
                )
                for u, v, d in g.edges(data=True)
            }
        )
    return out


def test_load_tu_mutag_matches_published_statistics(data_dir):
    ds = gs.load_tu(data_dir / "tu" / "MUTAG")
    assert len(ds) == 188
    assert int(ds.n_vertices.sum()) == 3371
    assert int(ds.n_edges.sum()) == 7442 // 2
    assert sorted(np.unique(ds.y).tolist()) == [-1, 1]
    assert int((ds.y == 1).sum()) == 125
    assert len(ds.vertex_label_values) == 7 and len(ds.edge_label_values) == 4


def test_load_tu_accepts_any_file_of_the_dataset(data_dir):
    folder = data_dir / "tu" / "MUTAG"
    assert gs.load_tu(folder / "MUTAG_A.txt") == gs.load_tu(folder)
    assert gs.load_tu(str(folder / "MUTAG_graph_labels.txt"), name="MUTAG") == gs.load_tu(folder)


def test_read_gspan_cpdb_one_based_ids(data_dir):
    folder = data_dir / "molecules" / "CPDB"
    ds = gs.read_gspan(folder / "mutagen.gsp", y=folder / "mutagen.label")
    assert len(ds) == 684
    assert int(ds.n_vertices.sum()) == 9672 and int(ds.n_edges.sum()) == 9985
    assert len(ds.vertex_label_values) == 23 and ds.edge_label_values == (1, 2, 3)
    assert int((ds.y == 1).sum()) == 341 and int((ds.y == -1).sum()) == 343


@given(graph_databases())
def test_networkx_round_trip(graphs):
    ds = gs.from_networkx(graphs)
    assert len(ds) == len(graphs)
    for g, h in zip(graphs, ds.graphs, strict=True):
        nm = nx.algorithms.isomorphism.categorical_node_match("label", None)
        em = nx.algorithms.isomorphism.categorical_edge_match("label", None)
        assert nx.is_isomorphic(g, h, node_match=nm, edge_match=em)


@given(graph_databases())
def test_gspan_text_round_trip(tmp_path_factory, graphs):
    path = tmp_path_factory.mktemp("gsp") / "x.gsp"
    ds = gs.from_networkx(graphs, y=np.arange(len(graphs)))
    gs.write_gspan(ds, path)
    back = gs.read_gspan(path, y=np.arange(len(graphs)))
    assert back == ds


@given(graph_databases(min_graphs=1), st.data())
def test_indexing_matches_graph_by_graph(graphs, data):
    ds = gs.from_networkx(graphs, y=np.arange(len(graphs)) * 10)
    n = len(ds)
    ids = data.draw(st.lists(st.integers(0, n - 1), max_size=2 * n))
    sub = ds[np.asarray(ids, dtype=np.int64)]
    assert len(sub) == len(ids)
    assert sub.y.tolist() == [10 * i for i in ids]
    assert _edge_sets(sub) == [_edge_sets(ds)[i] for i in ids]
    mask = np.asarray(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    assert ds[mask].y.tolist() == (np.arange(n) * 10)[mask].tolist()
    assert ds[1:].y.tolist() == (np.arange(n) * 10)[1:].tolist()
    assert len(ds[-1]) == 1 and ds[-1].y.tolist() == [10 * (n - 1)]


def test_pickle_round_trip():
    ds = gs.datasets.make_subgraph_classification(20, random_state=3)
    assert pickle.loads(pickle.dumps(ds)) == ds


def test_generator_is_reproducible_and_balanced():
    a = gs.datasets.make_subgraph_classification(40, random_state=7)
    b = gs.datasets.make_subgraph_classification(40, random_state=7)
    c = gs.datasets.make_subgraph_classification(40, random_state=8)
    assert a == b and a != c
    assert int(a.y.sum()) == 20
    assert all(nx.is_connected(g) for g in a.graphs)


def test_large_seeds_leave_the_recursion_limit_alone():
    # networkx's VF2 raises the limit for graphs over ~660 nodes and never lowers it
    before = sys.getrecursionlimit()
    gs.datasets.make_subgraph_classification(4, n_pool_a=2, mean_growth=1500.0, random_state=0)
    assert sys.getrecursionlimit() == before


@pytest.mark.parametrize("mean", [1e-300, 0.05, 0.5, 3.0])
def test_seed_growth_is_poisson_conditioned_on_two_steps(mean):
    # a small mean is sampled from the truncated law, not by redrawing (which never ends)
    from scipy.stats import poisson

    from graphsparse.datasets._generators import _poisson_at_least_two

    rng = np.random.default_rng(0)
    draws = np.array([_poisson_at_least_two(rng, mean) for _ in range(4000)])
    assert draws.min() >= 2
    law = poisson(mean)
    # P(2 | >= 2); at mean 1e-300 SciPy's ratio is 0/0, and the law sits at 2
    expected = law.pmf(2) / law.sf(1) if mean > 1e-9 else 1.0
    assert abs(np.mean(draws == 2) - expected) < 0.03
    ds = gs.datasets.make_subgraph_classification(6, mean_growth=mean, random_state=1)
    assert len(ds) == 6


@pytest.mark.parametrize(
    "kwargs",
    [
        {"mean_growth": 1e308},
        {"n_vertex_labels": 2**64},
        {"n_samples": 2**63},
        {"random_state": -1},
        {"random_state": float("nan")},
    ],
)
def test_generator_rejects_bad_arguments_by_name(kwargs):
    with pytest.raises(InvalidParameterError, match=next(iter(kwargs))):
        gs.datasets.make_subgraph_classification(**kwargs)


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        ("t # 0\nv 1 C\ne 1 2 1\n", 3, "undeclared vertex 2"),
        ("t # 0\nv 1 C\nv 2 C\ne 1 1 1\n", 4, "self-loop"),
        ("t # 0\nv 1 C\nv 2 C\ne 1 2 1\ne 2 1 3\n", 5, "parallel edge"),
        ("v 1 C\n", 1, "before any"),
        ("t # 0\nv 1\n", 2, "expected `v <id> <label>`"),
    ],
)
def test_malformed_gspan_names_file_and_line(tmp_path, text, line, needle):
    path = tmp_path / "bad.gsp"
    path.write_text(text)
    with pytest.raises(GraphFormatError, match=rf"bad\.gsp:{line}: .*{needle}"):
        gs.read_gspan(path)


def test_mismatched_tu_files(tmp_path):
    (tmp_path / "X_A.txt").write_text("1, 2\n2, 1\n")
    (tmp_path / "X_graph_indicator.txt").write_text("1\n1\n")
    (tmp_path / "X_node_labels.txt").write_text("0\n")
    with pytest.raises(GraphFormatError, match=r"1 labels but .* 2 vertices"):
        gs.load_tu(tmp_path)
    (tmp_path / "X_node_labels.txt").write_text("0\n1\n")
    (tmp_path / "X_graph_labels.txt").write_text("1\n0\n")
    with pytest.raises(GraphFormatError, match=r"2 labels but .* 1 graphs"):
        gs.load_tu(tmp_path)
    with pytest.raises(FileNotFoundError):
        gs.load_tu(tmp_path / "nope")


def test_networkx_errors_name_the_problem():
    g = nx.Graph()
    g.add_node(0, label="C")
    g.add_node(1, label="O")
    g.add_edge(0, 1, label=1)
    loop = g.copy()
    loop.add_edge(1, 1, label=1)
    with pytest.raises(InvalidGraphError, match="graph 1: self-loop on node 1"):
        gs.from_networkx([g, loop])
    missing = g.copy()
    del missing.nodes[1]["label"]
    with pytest.raises(InvalidGraphError, match="node 1 has no 'label'"):
        gs.from_networkx([missing])
    mixed = g.copy()
    mixed.nodes[1]["label"] = 3
    with pytest.raises(InvalidGraphError, match="mix types"):
        gs.from_networkx([mixed])
    unhashable = g.copy()
    unhashable.nodes[1]["label"] = ["O"]
    with pytest.raises(InvalidGraphError, match="not hashable"):
        gs.from_networkx([unhashable])
    with pytest.raises(InvalidGraphError, match="multigraph"):
        gs.from_networkx([nx.MultiGraph(g)])
    with pytest.raises(InvalidGraphError, match="directed"):
        gs.from_networkx([nx.DiGraph(g)])
    with pytest.raises(InvalidParameterError, match="y has 2 entries but there are 1 graphs"):
        gs.from_networkx([g], y=[0, 1])
    # all of them are ValueErrors, as scikit-learn users expect
    assert issubclass(InvalidGraphError, ValueError) and issubclass(GraphFormatError, ValueError)


def test_unlabelled_graphs_get_label_zero():
    ds = gs.from_networkx([nx.path_graph(3)], node_label=None, edge_label=None)
    assert ds.vertex_label_values == (0,) and ds.edge_label_values == (0,)


def test_label_kinds_come_from_rust_in_canonical_order():
    big = 2**70 + 1  # exact: integers of any length stay Python ints
    ds = gs.datasets.parse_gspan(f"t # a\nv 0 10\nv 1 9\nv 2 {big}\ne 0 1 x\ne 1 2 b\n")
    assert ds.vertex_label_values == (9, 10, big)
    assert ds.edge_label_values == ("b", "x")
    assert [ds.graphs[0].nodes[v]["label"] for v in range(3)] == [10, 9, big]
    floats = gs.datasets.parse_gspan("t # 0\nv 0 1.0\nv 1 01\nv 2 -2.5\ne 0 2 0\n")
    assert floats.vertex_label_values == (-2.5, 1.0)  # "1.0" and "01" are one label
    assert floats.graphs[0].nodes[1]["label"] == 1.0


def test_write_gspan_keeps_names_and_rejects_what_cannot_be_read_back(tmp_path):
    g = nx.Graph(name="aspirin 2")
    g.add_node(0, label="C")
    g.add_node(1, label="O")
    g.add_edge(0, 1, label=1)
    ds = gs.from_networkx([g])
    gs.write_gspan(ds, tmp_path / "a.gsp")
    back = gs.read_gspan(tmp_path / "a.gsp")
    assert back.names == ["aspirin 2"] and back == ds
    g.nodes[0]["label"] = "C C"
    with pytest.raises(InvalidGraphError, match="whitespace"):
        gs.write_gspan([g], tmp_path / "b.gsp")
    g.nodes[0]["label"] = "C"
    g.graph["name"] = "two\tfields"
    with pytest.raises(InvalidGraphError, match="name"):
        gs.write_gspan([g], tmp_path / "c.gsp")
