"""gSpan against a brute-force enumeration, metamorphic properties, real-data counts, errors."""

from __future__ import annotations

import pickle
import random

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphsparse as gs
from graphsparse.exceptions import BudgetExceededError, InvalidParameterError
from graphsparse.mining import MiningResult, TruncatedSearchWarning, min_dfs_code
from graphsparse.testing.reference.subgraphs import frequent_subgraphs
from graphsparse.testing.strategies import graph_databases, labelled_graphs

_NM = nx.algorithms.isomorphism.categorical_node_match("label", None)
_EM = nx.algorithms.isomorphism.categorical_edge_match("label", None)

small_dbs = graph_databases(min_graphs=1, max_graphs=6, max_vertices=7).filter(
    lambda gs_: all(g.number_of_edges() <= 9 for g in gs_)
)


def _summary(patterns):
    return [(p.dfs_code, p.vertex_labels, p.support, tuple(p.graph_ids.tolist())) for p in patterns]


@settings(max_examples=60)
@given(small_dbs, st.integers(1, 3), st.sampled_from([None, 1, 2, 4]), st.booleans())
def test_matches_brute_force(graphs, min_support, max_size, single):
    min_support = min(min_support, len(graphs))
    got = gs.mine_subgraphs(graphs, min_support, max_size=max_size, single_vertices=single)
    want = frequent_subgraphs(graphs, min_support, max_size, single_vertices=single)
    assert len(got) == len(want)
    unmatched = list(want)
    for p in got:
        h = p.to_networkx()
        assert nx.is_connected(h)
        hits = [
            k
            for k, (rep, _) in enumerate(unmatched)
            if nx.is_isomorphic(rep, h, node_match=_NM, edge_match=_EM)
        ]
        assert len(hits) == 1, f"pattern {p} matched {len(hits)} brute-force classes"
        _rep, ids = unmatched.pop(hits[0])
        assert p.support == len(ids)
        assert p.graph_ids.tolist() == sorted(ids)
    assert not unmatched


@settings(max_examples=40)
@given(small_dbs, st.integers(1, 2), st.randoms(use_true_random=False))
def test_invariant_to_vertex_numbering_and_graph_order(graphs, min_support, rnd):
    min_support = min(min_support, len(graphs))
    base = gs.mine_subgraphs(graphs, min_support)
    relabelled = []
    for g in graphs:
        nodes = list(g.nodes)
        perm = nodes[:]
        rnd.shuffle(perm)
        h = nx.Graph()
        h.add_nodes_from(
            (perm[i], g.nodes[nodes[i]]) for i in rnd.sample(range(len(nodes)), len(nodes))
        )
        h.add_edges_from(
            (perm[nodes.index(u)], perm[nodes.index(v)], d) for u, v, d in g.edges(data=True)
        )
        relabelled.append(h)
    order = list(range(len(graphs)))
    rnd.shuffle(order)
    shuffled = gs.mine_subgraphs([relabelled[i] for i in order], min_support)
    assert [p.dfs_code for p in shuffled] == [p.dfs_code for p in base]
    for p, q in zip(base, shuffled, strict=True):
        assert p.support == q.support
        assert sorted(order[i] for i in q.graph_ids) == p.graph_ids.tolist()


@pytest.mark.filterwarnings("ignore::graphsparse.exceptions.ThreadCountWarning")
@settings(max_examples=40)
@given(small_dbs, st.integers(1, 2))
def test_serial_equals_parallel(graphs, min_support):
    min_support = min(min_support, len(graphs))
    runs = [_summary(gs.mine_subgraphs(graphs, min_support, n_jobs=k)) for k in (1, 2, 3)]
    assert runs[0] == runs[1] == runs[2]


@settings(max_examples=40)
@given(small_dbs)
def test_support_is_antimonotone_along_the_tree(graphs):
    patterns = gs.mine_subgraphs(graphs, 1)
    by_code = {p.dfs_code: p for p in patterns}
    for p in patterns:
        assert p.dfs_code == min_dfs_code(p.to_networkx())
        if p.n_edges > 1:
            parent = by_code[p.dfs_code[:-1]]  # the gSpan parent is the code prefix
            assert p.support <= parent.support
            assert set(p.graph_ids.tolist()) <= set(parent.graph_ids.tolist())
    codes = [p.dfs_code for p in patterns]
    assert len(set(codes)) == len(codes)


@settings(max_examples=60)
@given(labelled_graphs(max_vertices=6, connected=True), st.randoms(use_true_random=False))
def test_min_dfs_code_is_a_canonical_form(g, rnd):
    nodes = list(g.nodes)
    perm = dict(zip(nodes, rnd.sample(nodes, len(nodes)), strict=True))
    h = nx.relabel_nodes(g, perm)
    if g.number_of_edges() == 0:
        return
    assert min_dfs_code(g) == min_dfs_code(h)


def test_isomorphic_patterns_in_different_graphs_get_one_code():
    a = nx.Graph()
    a.add_nodes_from([(0, {"label": "C"}), (1, {"label": "O"}), (2, {"label": "C"})])
    a.add_edges_from([(0, 1, {"label": 1}), (1, 2, {"label": 1})])
    b = nx.relabel_nodes(a, {0: 2, 1: 0, 2: 1})
    found = gs.mine_subgraphs([a, b], 2)
    assert [p.support for p in found] == [2, 2]
    assert [p.dfs_code for p in found] == [
        ((0, 1, "C", 1, "O"),),
        ((0, 1, "C", 1, "O"), (1, 2, "O", 1, "C")),
    ]


def test_fractional_min_support_rounds_up():
    graphs = gs.datasets.make_subgraph_classification(30, random_state=1)
    assert _summary(gs.mine_subgraphs(graphs, 0.1, max_size=2)) == _summary(
        gs.mine_subgraphs(graphs, 3, max_size=2)
    )
    assert _summary(gs.mine_subgraphs(graphs, 0.11, max_size=2)) == _summary(
        gs.mine_subgraphs(graphs, 4, max_size=2)
    )


def test_mutag_counts_match_published_gspan(data_dir):
    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")
    assert len(gs.mine_subgraphs(mutag, 56)) == 638


@pytest.mark.slow
def test_mutag_19_and_cpdb_14_counts(data_dir):
    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")
    assert len(gs.mine_subgraphs(mutag, 19)) == 40_220
    cpdb = gs.read_gspan(data_dir / "molecules" / "CPDB" / "mutagen.gsp")
    for minsup, count in [(68, 324), (34, 1_085), (14, 6_820)]:
        assert len(gs.mine_subgraphs(cpdb, minsup)) == count


def test_agrees_with_gspan_mining_anchor(tmp_path):
    anchor = pytest.importorskip("tests.reference.gspan_anchor")
    rng = random.Random(5)
    for trial in range(4):
        graphs = gs.datasets.make_subgraph_classification(12, random_state=trial)
        path = tmp_path / f"db{trial}.gsp"
        gs.write_gspan(graphs, path)
        minsup = rng.randint(2, 4)
        ours = gs.mine_subgraphs(graphs, minsup)
        theirs = anchor.mine_with_gspan_mining(path, minsup)
        assert len(ours) == len(theirs)
        assert sorted(p.support for p in ours) == sorted(theirs)


def test_budgets_stop_cleanly_and_say_so():
    graphs = gs.datasets.make_subgraph_classification(60, random_state=2)
    full = gs.mine_subgraphs(graphs, 2)
    with pytest.warns(TruncatedSearchWarning, match="max_nodes"):
        cut = gs.mine_subgraphs(graphs, 2, max_nodes=10)
    assert cut.truncated is True and cut.truncation == "max_nodes"
    assert 0 < len(cut) < len(full)
    assert full.truncated is False and full.truncation is None
    full_codes = {p.dfs_code for p in full}
    assert all(p.dfs_code in full_codes for p in cut)
    with pytest.raises(BudgetExceededError):
        gs.mine_subgraphs(graphs, 2, max_nodes=10, strict=True)


def test_a_time_limit_cut_reads_true_with_its_reason():
    graphs = gs.datasets.make_subgraph_classification(60, random_state=2)
    with pytest.warns(TruncatedSearchWarning, match="time_limit"):
        cut = gs.mine_subgraphs(graphs, 1, time_limit=1e-9)
    assert (cut.truncated, cut.truncation) == (True, "time_limit")


def test_mining_result_keeps_flag_and_reason_consistent():
    # None (what the distributed miner passes) and no reason: a finished search
    assert MiningResult([], truncated=None).truncated is False
    assert MiningResult([]).truncation is None
    made = MiningResult([], truncation="max_nodes", nodes_visited=3, seconds=0.5)
    assert (made.truncated, made.truncation, made.nodes_visited) == (True, "max_nodes", 3)
    assert MiningResult([], truncated=True, truncation="time_limit").truncated is True
    with pytest.raises(InvalidParameterError, match="truncation='max_nodes'"):
        MiningResult([], truncated="max_nodes")
    with pytest.raises(InvalidParameterError, match="contradicts"):
        MiningResult([], truncated=True)
    with pytest.raises(InvalidParameterError, match="contradicts"):
        MiningResult([], truncated=False, truncation="max_nodes")
    with pytest.raises(InvalidParameterError, match="truncation must be None or one of"):
        MiningResult([], truncation="node budget")
    with pytest.raises(InvalidParameterError, match="truncated must be a bool"):
        MiningResult([], truncated=1)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"min_support": 0}, r"min_support as a count must be in \[1, 3\]"),
        ({"min_support": 4}, r"min_support as a count must be in \[1, 3\]"),
        ({"min_support": 1.5}, r"min_support as a fraction must be in \(0, 1\]"),
        ({"min_support": 0.0}, r"min_support as a fraction"),
        ({"min_support": True}, "min_support must be an int or a float"),
        ({"min_support": "2"}, "min_support must be an int or a float"),
        ({"min_support": 1, "max_size": -1}, r"max_size must be an integer in \[0, 2\*\*63\)"),
        ({"min_support": 1, "max_size": 2**64 + 1}, r"max_size must be an integer in \[0, 2"),
        ({"min_support": 1, "max_size": 1.5}, "max_size must be an integer"),
        ({"min_support": 1, "n_jobs": 0}, "n_jobs must not be 0"),
        ({"min_support": 1, "time_limit": -1}, "time_limit must be a positive"),
        ({"min_support": 1, "max_nodes": 0}, "max_nodes must be >= 1"),
    ],
)
def test_bad_parameters_raise_named_errors(kwargs, message):
    graphs = gs.datasets.make_subgraph_classification(3 * 2, random_state=0)[:3]
    with pytest.raises(InvalidParameterError, match=message):
        gs.mine_subgraphs(graphs, **kwargs)


def test_bad_data_raises():
    with pytest.raises(InvalidParameterError, match="no graphs"):
        gs.mine_subgraphs([], 1)
    with pytest.raises(InvalidParameterError, match="is a path"):
        gs.mine_subgraphs("graphs.gsp", 1)
    with pytest.raises(InvalidParameterError, match="GraphDataset or a sequence"):
        gs.mine_subgraphs(42, 1)


def test_pattern_views():
    g = nx.Graph()
    g.add_nodes_from([(0, {"label": "C"}), (1, {"label": "N"})])
    g.add_edge(0, 1, label=2)
    (p,) = gs.mine_subgraphs([g], 1)
    assert p.dfs_code == ((0, 1, "C", 2, "N"),)
    assert p.vertex_labels == ("C", "N") and p.n_edges == 1 and p.n_vertices == 2
    assert nx.is_isomorphic(p.to_networkx(), g, node_match=_NM, edge_match=_EM)
    assert p.to_gspan() == "t # 0\nv 0 C\nv 1 N\ne 0 1 2"
    assert str(p) == "(0:C)-[2]-(1:N)"
    assert isinstance(p.graph_ids, np.ndarray) and p.graph_ids.dtype == np.int64
    singles = gs.mine_subgraphs([g], 1, single_vertices=True)
    assert [q.vertex_labels for q in singles[:2]] == [("C",), ("N",)]
    assert singles[0].dfs_code == ()


@settings(max_examples=40)
@given(small_dbs, st.booleans())
def test_mined_patterns_are_consistent_values(graphs, single):
    # string vertex labels and float edge labels: patterns must speak the user's labels
    named = []
    for g in graphs:
        h = nx.relabel_nodes(g, {v: f"v{v}" for v in g})
        nx.set_node_attributes(h, {v: "ABC"[d["label"]] for v, d in h.nodes(data=True)}, "label")
        nx.set_edge_attributes(
            h, {(u, v): 0.5 + d["label"] for u, v, d in h.edges(data=True)}, "label"
        )
        named.append(h)
    found = gs.mine_subgraphs(named, 1, single_vertices=single)
    for p in found:
        labels = p.vertex_labels
        assert all(lab in "ABC" for lab in labels)
        for i, j, li, lij, lj in p.dfs_code:
            assert labels[i] == li and labels[j] == lj and lij in (0.5, 1.5)
        assert p.n_vertices == (1 if not p.dfs_code else 1 + max(max(e[:2]) for e in p.dfs_code))
        eager = gs.Pattern(p.dfs_code, p.support, p.graph_ids.tolist(), p.vertex_labels)
        assert eager == p and hash(eager) == hash(p)
        copy = pickle.loads(pickle.dumps(p))
        assert copy == p and copy.graph_ids.dtype == np.int64
        with pytest.raises(AttributeError):
            p.support = 0  # type: ignore[misc]
        with pytest.raises(ValueError):
            p.graph_ids[:1] = 7
