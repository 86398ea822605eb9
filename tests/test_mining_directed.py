"""Directed labelled graphs: datasets, readers, mining against a brute force, the subgraph models,
and undirected output unchanged."""

from __future__ import annotations

import hashlib
import pickle

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphsparse as gs
from graphsparse.exceptions import InvalidGraphError, InvalidParameterError
from graphsparse.mining import Pattern, min_dfs_code
from graphsparse.testing.reference.subgraphs import (
    closed_patterns,
    frequent_subgraphs,
    maximal_patterns,
    occurrence_counts,
)
from graphsparse.testing.strategies import labelled_graphs

_NM = nx.algorithms.isomorphism.categorical_node_match("label", None)
_EM = nx.algorithms.isomorphism.categorical_edge_match("label", None)


@st.composite
def directed_graphs(draw: st.DrawFn, max_vertices: int = 6, max_edges: int = 7) -> nx.DiGraph:
    """A small labelled undirected graph with each edge given a random direction."""
    g = draw(labelled_graphs(max_vertices=max_vertices, max_edges=max_edges, n_edge_labels=2))
    m = g.number_of_edges()
    flips = draw(st.lists(st.booleans(), min_size=m, max_size=m))
    d = nx.DiGraph()
    d.add_nodes_from(g.nodes(data=True))
    for (u, v, a), flip in zip(g.edges(data=True), flips, strict=True):
        d.add_edge(*((v, u) if flip else (u, v)), **a)
    return d


directed_dbs = st.lists(directed_graphs(), min_size=1, max_size=5).filter(
    lambda gs_: all(g.number_of_edges() <= 8 for g in gs_)
)


def _summary(patterns):
    return [(p.dfs_code, p.vertex_labels, p.support, tuple(p.graph_ids.tolist())) for p in patterns]


def _match_reference(got, want):
    """Each mined pattern is isomorphic (as a labelled digraph) to exactly one reference class,
    with the same graph ids, and every class is matched."""
    assert len(got) == len(want)
    unmatched = list(want)
    for p in got:
        h = p.to_networkx()
        assert h.is_directed() and p.directed
        assert nx.is_weakly_connected(h)
        hits = [
            k
            for k, (rep, _) in enumerate(unmatched)
            if nx.is_isomorphic(rep, h, node_match=_NM, edge_match=_EM)
        ]
        assert len(hits) == 1, f"pattern {p} matched {len(hits)} brute-force classes"
        _rep, ids = unmatched.pop(hits[0])
        assert p.graph_ids.tolist() == sorted(ids)
    assert not unmatched


@pytest.mark.filterwarnings("ignore::graphsparse.exceptions.ThreadCountWarning")
@settings(max_examples=60, deadline=None)
@given(directed_dbs, st.integers(1, 3), st.sampled_from([None, 1, 2, 4]), st.booleans())
def test_directed_mining_matches_brute_force(graphs, min_support, max_size, single):
    min_support = min(min_support, len(graphs))
    got = gs.mine_subgraphs(
        graphs, min_support, max_size=max_size, single_vertices=single, n_jobs=1
    )
    want = frequent_subgraphs(graphs, min_support, max_size, single_vertices=single)
    _match_reference(got, want)
    # the codes are canonical: every pattern's graph gives back its own code
    for p in got:
        if p.n_edges:
            assert min_dfs_code(p.to_networkx()) == p.dfs_code
    # serial == parallel, pattern for pattern
    for n_jobs in (2, 3):
        par = gs.mine_subgraphs(
            graphs, min_support, max_size=max_size, single_vertices=single, n_jobs=n_jobs
        )
        assert _summary(par) == _summary(got)


@pytest.mark.filterwarnings("ignore::graphsparse.exceptions.ThreadCountWarning")
@settings(max_examples=30, deadline=None)
@given(directed_dbs, st.integers(1, 3))
def test_directed_closed_counts_and_streaming(graphs, min_support):
    min_support = min(min_support, len(graphs))
    full = gs.mine_subgraphs(graphs, min_support, n_jobs=1, counts="embeddings")
    closed = gs.mine_subgraphs(graphs, min_support, n_jobs=1, closed=True)
    maximal = gs.mine_subgraphs(graphs, min_support, n_jobs=1, maximal=True)
    entries = [(p.to_networkx(), frozenset(p.graph_ids.tolist())) for p in full]
    _match_reference(closed, closed_patterns(entries))
    _match_reference(maximal, maximal_patterns(entries))
    for p in full:
        for g, c in zip(p.graph_ids.tolist(), p.counts.tolist(), strict=True):
            assert occurrence_counts(p.to_networkx(), graphs[g])[0] == c
    streamed = list(gs.iter_subgraphs(graphs, min_support, n_jobs=2))
    assert sorted(map(str, _summary(streamed))) == sorted(map(str, _summary(full)))


def test_orientation_tells_patterns_apart():
    chain = nx.DiGraph([(0, 1), (1, 2)])  # a -> b -> c
    collider = nx.DiGraph([(0, 1), (2, 1)])  # a -> b <- c
    res = gs.mine_subgraphs([chain, collider], 1, n_jobs=1)
    assert [(p.n_edges, p.graph_ids.tolist()) for p in res] == [(1, [0, 1]), (2, [0]), (2, [1])]
    assert [str(p) for p in res] == [
        "(0:0)-[0]->(1:0)",
        "(0:0)-[0]->(1:0) (1:0)-[0]->(2:0)",
        "(0:0)-[0]->(1:0) (1:0)<-[0]-(2:0)",
    ]
    # from the source a: a -> b, then b's other arc comes in from the new vertex c
    assert res[2].dfs_code == ((0, 1, 0, 0, 0, "->"), (1, 2, 0, 0, 0, "<-"))
    # undirected, the two are one path
    und = gs.mine_subgraphs([chain.to_undirected(), collider.to_undirected()], 2, n_jobs=1)
    assert [p.n_edges for p in und] == [1, 2]


def test_pattern_round_trips():
    g = nx.DiGraph()
    g.add_nodes_from([(0, {"label": "A"}), (1, {"label": "B"}), (2, {"label": "A"})])
    g.add_edges_from([(1, 0, {"label": "x"}), (1, 2, {"label": "y"}), (2, 0, {"label": "x"})])
    res = gs.mine_subgraphs([g], 1, n_jobs=1)
    whole = max(res, key=lambda p: p.n_edges)
    h = whole.to_networkx()
    assert isinstance(h, nx.DiGraph)
    assert nx.is_isomorphic(h, g, node_match=_NM, edge_match=_EM)
    back = gs.datasets.parse_gspan(whole.to_gspan(), directed=True)
    assert back.directed
    assert nx.is_isomorphic(back.graph(0), g, node_match=_NM, edge_match=_EM)
    assert pickle.loads(pickle.dumps(whole)) == whole
    assert pickle.loads(pickle.dumps(whole)).directed
    rebuilt = Pattern(whole.dfs_code, whole.support, whole.graph_ids, whole.vertex_labels)
    assert rebuilt == whole and rebuilt.directed
    with pytest.raises(InvalidGraphError, match="directed pattern"):
        whole.to_smarts()
    with pytest.raises(InvalidParameterError, match="contradicts"):
        Pattern(whole.dfs_code, 1, [0], whole.vertex_labels, directed=False)
    with pytest.raises(InvalidParameterError, match="arrow"):
        Pattern([(0, 1, "A", "x", "B", ">")], 1, [0], ("A", "B"))


def test_dataset_readers_and_pickle(tmp_path):
    g = nx.DiGraph([(0, 1), (2, 1)])
    ds = gs.from_networkx([g, nx.DiGraph([(1, 0)])])
    assert ds.directed and "directed" in repr(ds)
    assert ds.edges.tolist() == [[0, 1], [2, 1], [0, 1]]  # node order 1, 0 in the second
    assert isinstance(ds.graph(0), nx.DiGraph) and set(ds.graph(0).edges) == {(0, 1), (2, 1)}
    assert ds[1:].directed
    assert pickle.loads(pickle.dumps(ds)) == ds and pickle.loads(pickle.dumps(ds)).directed
    path = tmp_path / "d.gsp"
    gs.write_gspan(ds, path)
    assert gs.read_gspan(path, directed=True) == ds
    assert gs.read_gspan(path) != ds  # the same arrays, undirected
    assert not gs.read_gspan(path).directed
    arrays = ds._arrays()
    same = gs.GraphDataset(*arrays, ds.vertex_label_values, ds.edge_label_values, directed=True)
    assert same == ds


def test_bad_directed_input_is_named():
    with pytest.raises(InvalidGraphError, match=r"mixes directed and undirected.*graph 1 is"):
        gs.from_networkx([nx.path_graph(2), nx.DiGraph([(0, 1)])])
    with pytest.raises(InvalidGraphError, match="graph 0: arcs in both directions"):
        gs.from_networkx([nx.DiGraph([(0, 1), (1, 0)])])
    with pytest.raises(InvalidParameterError, match="directed must be a bool"):
        gs.datasets.parse_gspan("t # 0\nv 0 0\n", directed="yes")
    with pytest.raises(gs.exceptions.GraphFormatError, match="parallel"):
        gs.datasets.parse_gspan("t # 0\nv 0 0\nv 1 0\ne 0 1 0\ne 1 0 0\n", directed=True)
    ds = gs.from_networkx([nx.DiGraph([(0, 1), (1, 2)])])
    # algorithms that take undirected graphs only name the argument
    with pytest.raises(InvalidGraphError, match="X holds directed graphs"):
        gs.compression.WLSubtreeFeatures().fit(ds)
    # a model fitted on directed graphs predicts on directed graphs only
    graphs = [nx.DiGraph([(0, 1), (1, 2)]), nx.DiGraph([(1, 0), (1, 2)])] * 3
    model = gs.models.SubgraphAdaBoost(n_estimators=2, min_support=1, max_size=2, n_jobs=1)
    model.fit(graphs, [0, 1] * 3)
    with pytest.raises(InvalidGraphError, match="directed pattern cannot be matched"):
        model.predict([nx.path_graph(3)])
    # the sharded search takes undirected graphs only (refused before a cluster is needed)
    pytest.importorskip("distributed")
    import graphsparse.distributed as gsd

    with pytest.raises(InvalidGraphError, match="collection holds directed graphs"):
        gsd.mine_subgraphs(ds, 1, client=object())
    with pytest.raises(InvalidGraphError, match="collection holds directed graphs"):
        gsd.mine_subgraphs([nx.path_graph(2), *graphs], 1, client=object())


def test_subgraph_models_fit_directed_graphs():
    # class 1 holds a -> b -> c chains, class 0 the same edges as colliders a -> b <- c
    rng = np.random.default_rng(0)
    graphs, y = [], []
    for k in range(40):
        n = int(rng.integers(4, 7))
        g = nx.DiGraph()
        g.add_nodes_from(range(n))
        for v in range(1, n):
            g.add_edge(v - 1, v) if k % 2 or v % 2 else g.add_edge(v, v - 1)
        graphs.append(g)
        y.append(k % 2)
    model = gs.models.SubgraphAdaBoost(n_estimators=5, min_support=2, max_size=3, n_jobs=1)
    model.fit(graphs, y)
    assert all(p.directed for p in model.patterns_)
    assert (model.predict(graphs) == np.asarray(y)).mean() == 1.0


def _digest(res):
    h = hashlib.sha256()
    for p in res:
        h.update(repr((p.dfs_code, p.vertex_labels, p.support, p.graph_ids.tolist())).encode())
    return h.hexdigest()[:16]


def test_undirected_output_is_unchanged(data_dir):
    # digests of the output of the build before directed graphs existed (main, 2026-11-28)
    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")
    assert not mutag.directed
    res = gs.mine_subgraphs(mutag, 56, n_jobs=1)
    assert (len(res), _digest(res)) == (638, "54b67eee369c50f0")
    res = gs.mine_subgraphs(mutag, 120, n_jobs=2, closed=True)
    assert (len(res), _digest(res)) == (5, "8124467a24f87404")
    g = gs.datasets.make_subgraph_classification(40, random_state=3)
    res = gs.mine_subgraphs(g, 4, n_jobs=1, counts="embeddings")
    counts = hashlib.sha256(res.count_matrix().toarray().tobytes()).hexdigest()[:16]
    assert (len(res), _digest(res), counts) == (130, "44aed764c2247c10", "01fbdf3f8a21c886")
    assert all(not p.directed and len(e) == 5 for p in res for e in p.dfs_code)


def test_cli_mines_a_directed_gspan_file(tmp_path, capsys, data_dir):
    from graphsparse.cli import main

    graphs = [nx.DiGraph([(0, 1), (1, 2)]), nx.DiGraph([(0, 1), (2, 1)])]
    path = tmp_path / "d.gsp"
    gs.write_gspan(graphs, path)
    out_file = tmp_path / "patterns.gsp"
    assert main(["mine", str(path), "--min-support", "1", "--directed", "-o", str(out_file)]) == 0
    out = capsys.readouterr().out
    assert "3 frequent connected patterns" in out and "directed" in out
    written = out_file.read_text()
    assert written.count("t # ") == 3
    assert "e 0 1 0\ne 2 1 0" in written  # the collider's arcs 0 -> 1 and 2 -> 1
    # read undirected, the two graphs are one path
    assert main(["mine", str(path), "--min-support", "1"]) == 0
    assert "2 frequent connected patterns" in capsys.readouterr().out
    assert main(["mine", str(data_dir / "tu" / "MUTAG"), "--min-support", "56", "--directed"]) == 2
    assert "--directed reads gSpan files only" in capsys.readouterr().err
