"""graphsparse.compression against naive references (spec ot-graph-compression §11)."""

from __future__ import annotations

import pickle
from typing import Any

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone

import graphsparse as gs
from graphsparse import compression as gc
from graphsparse.exceptions import InvalidGraphError, InvalidParameterError
from graphsparse.testing.reference import compression as ref
from graphsparse.testing.strategies import costed_graphs, distributions, mixed_graphs
from tests.test_compression_reference import (
    G2,
    PATH,
    RHO0,
    RHO1,
    _random_labelled,
    figure2_tree,
)

# ------------------------------------------------------------------------- transport distance


def test_worked_example() -> None:
    assert gc.graph_ot_distance(PATH, [1, 2], RHO0, RHO1) == pytest.approx(0.7, abs=1e-15)
    # mixed: e0 directed 1 → 0 gives the same value; directed 0 → 1 is infeasible
    mixed = gc.graph_ot_distance([(1, 0), (1, 2)], [1, 2], RHO0, RHO1, directed=[True, False])
    assert mixed == pytest.approx(0.7, abs=1e-15)
    assert gc.graph_ot_distance(PATH, [1, 2], RHO0, RHO1, directed=[True, False]) == np.inf
    assert gc.graph_ot_distance(PATH, [1, 2], RHO0, RHO1, directed=True) == np.inf
    assert gc.graph_ot_distance([(0, 1), (2, 1)], [1, 2], RHO1, RHO0, directed=True) == (
        pytest.approx(0.7, abs=1e-15)
    )


@given(st.data())
def test_distance_equals_lp_and_emd(data: st.DataObject) -> None:
    n, edges, costs = data.draw(costed_graphs(10))
    a, b = data.draw(distributions(n)), data.draw(distributions(n))
    got = gc.graph_ot_distance(edges, costs, a, b)
    # HiGHS meets each balance row to 1e-10 (graphsparse.testing.reference.compression), so the
    # LP's value may be off by that much per unit of path cost: with a mass of 1.2e-7 to move it
    # gave 1.19093e-7 where the flow is 1.19209e-7 (a flow of -5.8e-11 within its tolerance)
    assert got == pytest.approx(
        ref.transport_primal(n, edges, costs, a, b).value, rel=1e-9, abs=1e-10 * sum(costs)
    )
    assert got == pytest.approx(ref.kantorovich_emd2(n, edges, costs, a, b), rel=1e-7, abs=1e-10)


@given(st.data())
def test_mixed_distance_equals_lp(data: st.DataObject) -> None:
    n, edges, costs, mask = data.draw(mixed_graphs(7))
    a = np.full(n, 1.0 / n)
    b = np.zeros(n)
    b[data.draw(st.integers(0, n - 1))] = 1.0
    want = ref.transport_primal(n, edges, costs, a, b, directed=mask)
    got = gc.graph_ot_distance(edges, costs, a, b, directed=mask)
    if want.status == "optimal":
        assert got == pytest.approx(want.value, rel=1e-9, abs=1e-12)
    else:
        assert got == np.inf


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (([(0, 1)], [-1.0], [0.5, 0.5], [0.5, 0.5]), "costs"),
        (([(0, 1)], [np.nan], [0.5, 0.5], [0.5, 0.5]), "costs"),
        (([(0, 1)], [1.0, 2.0], [0.5, 0.5], [0.5, 0.5]), "costs"),
        (([(0, 2)], [1.0], [0.5, 0.5], [0.5, 0.5]), "edge"),
        (([(0, 1)], [1.0], [0.5, 0.6], [0.5, 0.5]), "rho0"),
        (([(0, 1)], [1.0], [0.5, 0.5], [1.5, -0.5]), "rho1"),
        (([(0, 1)], [1.0], [0.5, 0.5], [1.0]), "rho1"),
        (([(0, 1, 2)], [1.0], [0.5, 0.5], [0.5, 0.5]), "edges"),
    ],
)
def test_distance_rejects_bad_input(args: tuple, match: str) -> None:
    with pytest.raises((InvalidParameterError, InvalidGraphError), match=match):
        gc.graph_ot_distance(*args)


# ------------------------------------------------------------------------------- compression


def labelled(edges: list[tuple[int, int]], labels: list[str]) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from((v, {"label": lab}) for v, lab in enumerate(labels))
    g.add_edges_from(edges, label="-")
    return g


GOLDEN = [
    (labelled(PATH, ["C", "C", "N"]), 2, [0, 1]),
    (labelled(G2, ["C", "C", "N", "C", "C", "O"]), 3, [0, 1, 2]),
    (
        labelled(
            [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 3)], ["C", "C", "C", "N", "N", "O"]
        ),
        3,
        [2, 3, 4],
    ),
]


def test_golden_graphs_paper_mode() -> None:
    data = gs.from_networkx([g for g, _, _ in GOLDEN])
    ks = [k for _, k, _ in GOLDEN]
    res = gc.OTCompressor(k=ks).compress(data)
    for i, (g, _, kept) in enumerate(GOLDEN):
        assert res.kept[i].tolist() == kept
        _, induced = ref.induced_subgraph(g.number_of_nodes(), list(g.edges()), kept)
        h = res.dataset.graph(i)
        assert sorted(map(tuple, map(sorted, h.edges()))) == sorted(
            tuple(sorted(e)) for e in induced
        )
        assert [h.nodes[v]["label"] for v in h] == [g.nodes[v]["label"] for v in kept]
    np.testing.assert_allclose(
        res.eps_hat[0], [0.666609294907, 0.672028386167, 0.661362318926], atol=1e-9
    )


def test_figure2_tree_panel_d_and_single_graph_api() -> None:
    edges, costs = figure2_tree()
    # the tree's costs are not label-driven: give them directly
    res = gc.otc_select(edges, costs, 5)
    assert res.kept.tolist() == [0, 1, 2, 3, 4]
    assert res.n_iter == 26 and res.projections_converged
    assert res.eps_hat.sum() == pytest.approx(5.0)
    g1 = gc.otc_select(PATH, [0.01, 0.02], 2, rho0=[0.25, 0.5, 0.25])
    np.testing.assert_allclose(
        g1.eps_hat, [0.666609294907, 0.672028386167, 0.661362318926], atol=1e-9
    )
    stable = gc.otc_select(PATH, [0.01, 0.02], 2, mode="stable")
    assert len(stable.kept) == 2
    with pytest.raises(InvalidParameterError, match="rho0"):
        gc.otc_select(PATH, [0.01, 0.02], 2, rho0=[0.5, 0.5, 0.5])
    with pytest.raises(InvalidParameterError, match="mode"):
        gc.otc_select(PATH, [0.01, 0.02], 2, mode="fast")


def test_networkx_in_networkx_out_and_k_at_least_n() -> None:
    g = GOLDEN[1][0]
    out = gc.OTCompressor(k=3).fit_transform([g])
    assert isinstance(out, list) and isinstance(out[0], nx.Graph)
    assert out[0].number_of_nodes() == 3
    same = gc.OTCompressor(k=100).fit_transform([g])
    assert dict(same[0].nodes(data="label")) == dict(g.nodes(data="label"))
    assert sorted(map(sorted, same[0].edges())) == sorted(map(sorted, g.edges()))


@pytest.mark.parametrize("mode", ["paper", "stable"])
def test_collection_output_is_induced_and_thread_independent(data_dir, mode: str) -> None:
    data = gs.load_tu(data_dir / "tu" / "MUTAG", "MUTAG")
    one = gc.OTCompressor(ratio=0.5, mode=mode, n_jobs=1).compress(data)
    two = gc.OTCompressor(ratio=0.5, mode=mode, n_jobs=2).compress(data)
    assert one.dataset == two.dataset
    for i in range(len(data)):
        n = int(data.n_vertices[i])
        kept = one.kept[i]
        assert len(kept) == max(1, round(0.5 * n))
        g = data.graph(i)
        _, induced = ref.induced_subgraph(n, list(g.edges()), kept.tolist())
        assert one.dataset.graph(i).number_of_edges() == len(induced)


@pytest.mark.parametrize(
    "cls",
    [
        gc.RECCompressor,
        gc.HeavyEdgeCompressor,
        gc.AlgebraicDistanceCompressor,
        gc.AffinityCompressor,
    ],
)
def test_baselines_reach_their_targets(data_dir, cls: type) -> None:
    data = gs.load_tu(data_dir / "tu" / "MUTAG", "MUTAG")
    out = cls(ratio=0.5, max_levels=None).fit_transform(data)
    want = np.maximum(1, np.round(0.5 * data.n_vertices))
    np.testing.assert_array_equal(out.n_vertices, want)  # MUTAG graphs are connected
    assert out == cls(ratio=0.5, max_levels=None, n_jobs=2).fit_transform(data)
    # one level is one matching: it halves a graph at best
    one = cls(ratio=0.5, max_levels=1).fit_transform(data)
    assert np.all(one.n_vertices >= want)
    assert np.all(one.n_vertices >= np.ceil(data.n_vertices / 2))


def _unlabelled(g: nx.Graph) -> nx.Graph:
    """``g`` with label 0 on every vertex and edge."""
    nx.set_node_attributes(g, 0, "label")
    nx.set_edge_attributes(g, 0, "label")
    return g


def _rec_sizes(g: nx.Graph, k: int, n_seeds: int) -> list[int]:
    """The size of ``g`` after one REC level towards ``k``, for the seeds ``0..n_seeds-1``."""
    return [
        gc.RECCompressor(k=k, random_state=s).fit_transform([g])[0].number_of_nodes()
        for s in range(n_seeds)
    ]


def test_rec_single_level_target_in_expectation() -> None:
    # on a complete graph one REC level is a random perfect matching: the target is met
    sizes = _rec_sizes(_unlabelled(nx.complete_graph(20)), 10, 10)
    assert sizes == [10] * 10
    # on a path a random maximal matching is smaller: the size varies around n/2 + n/6
    sizes = _rec_sizes(_unlabelled(nx.path_graph(60)), 30, 30)
    assert min(sizes) >= 30 and len(set(sizes)) > 1 and 30 < np.mean(sizes) < 45


def test_rec_seeds() -> None:
    g = _unlabelled(nx.cycle_graph(30))
    a = gc.RECCompressor(k=10, random_state=1).compress([g])
    b = gc.RECCompressor(k=10, random_state=1).compress([g])
    c = gc.RECCompressor(k=10, random_state=2).compress([g])
    assert a.assignment[0].tolist() == b.assignment[0].tolist()
    assert a.assignment[0].tolist() != c.assignment[0].tolist()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"k": 0}, "k"),
        ({"k": -2}, "k"),
        ({"k": 2.5}, "k"),
        ({"ratio": 0.0}, "ratio"),
        ({"ratio": 1.5}, "ratio"),
        ({"k": 2, "ratio": 0.5}, "k"),
        ({"k": 2, "mode": "fast"}, "mode"),
        ({"k": 2, "lam": -1.0}, "lambda"),
        ({"k": 2, "n_iter": 0}, "n_iter"),
        ({"k": [1, 2]}, "k"),
    ],
)
def test_compressor_rejects_bad_parameters(kwargs: dict, match: str) -> None:
    with pytest.raises(InvalidParameterError, match=match):
        gc.OTCompressor(**kwargs).fit_transform([GOLDEN[0][0]])


def test_estimator_protocol() -> None:
    est = gc.OTCompressor(k=3, mode="stable")
    assert clone(est).get_params() == est.get_params()
    assert pickle.loads(pickle.dumps(est)).get_params() == est.get_params()


# ------------------------------------------------------------------------------- WL features


def test_wl_kernel_equals_grakel(data_dir) -> None:
    pytest.importorskip("grakel")
    from tests.test_compression_reference import _grakel_kernel

    data = gs.load_tu(data_dir / "tu" / "MUTAG", "MUTAG")
    x = gc.WLSubtreeFeatures(n_iter=5).fit_transform(data)
    graphs = [
        (
            data.node_labels[data.node_ptr[i] : data.node_ptr[i + 1]].tolist(),
            [tuple(map(int, e)) for e in data.edges[data.edge_ptr[i] : data.edge_ptr[i + 1]]],
        )
        for i in range(len(data))
    ]
    np.testing.assert_array_equal((x @ x.T).toarray(), _grakel_kernel(graphs, 5))


@settings(max_examples=30)
@given(st.integers(0, 2**31), st.integers(0, 4))
def test_wl_kernel_equals_naive(seed: int, h: int) -> None:
    from tests.test_compression_reference import _random_labelled

    graphs = _random_labelled(seed, 8)
    nxs = [labelled(list(e), [str(x) for x in lab]) for lab, e in graphs]
    x = gc.WLSubtreeFeatures(n_iter=h).fit_transform(nxs)
    np.testing.assert_array_equal((x @ x.T).toarray(), ref.wl_subtree_kernel(graphs, h))


def test_wl_transform_pickle_and_not_fitted() -> None:
    from sklearn.exceptions import NotFittedError

    nxs = [g for g, _, _ in GOLDEN]
    wl = gc.WLSubtreeFeatures(n_iter=2)
    with pytest.raises(NotFittedError):
        wl.transform(nxs)
    x = wl.fit_transform(nxs)
    again = pickle.loads(pickle.dumps(wl))
    assert (again.transform(nxs) != x).nnz == 0
    assert (wl.transform(nxs[:1]) != x[:1]).nnz == 0


def _edge_labelled(seed: int, count: int, n_edge_labels: int = 3) -> list[tuple]:
    """Random graphs ``(vertex labels, edges, edge labels)``, labels small ints."""
    rng = np.random.default_rng(seed)
    out = []
    for lab, es in _random_labelled(seed, count):
        out.append((lab, es, [int(x) for x in rng.integers(0, n_edge_labels, len(es))]))
    return out


def _to_nx(graphs: list[tuple]) -> list[nx.Graph]:
    out = []
    for lab, es, el in graphs:
        g = nx.Graph()
        g.add_nodes_from((v, {"label": x}) for v, x in enumerate(lab))
        g.add_edges_from((u, v, {"label": e}) for (u, v), e in zip(es, el, strict=True))
        out.append(g)
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 4), st.integers(1, 4))
def test_wl_edge_labels_equal_the_naive_refinement(seed: int, h: int, n_edge_labels: int) -> None:
    graphs = _edge_labelled(seed, 10, n_edge_labels)
    nxs = _to_nx(graphs)
    x = gc.WLSubtreeFeatures(n_iter=h, edge_labels=True).fit_transform(nxs)
    np.testing.assert_array_equal(x.toarray(), ref.wl_subtree_features(graphs, h, edge_labels=True))
    # without edge labels: the plain refinement, columns in the same order as before
    plain = gc.WLSubtreeFeatures(n_iter=h).fit_transform(nxs)
    np.testing.assert_array_equal(plain.toarray(), ref.wl_subtree_features(graphs, h))
    off = gc.WLSubtreeFeatures(n_iter=h, edge_labels=False).fit_transform(nxs)
    stripped = gc.WLSubtreeFeatures(n_iter=h).fit_transform(
        [labelled(list(es), lab) for lab, es, _ in graphs]
    )
    assert (off != plain).nnz == 0 and (stripped != plain).nnz == 0


def test_wl_without_edge_labels_is_todays_features_on_mutag(data_dir) -> None:
    """The default reads no edge label (MUTAG has 4 bond types): the same matrix as the naive
    plain refinement, whose kernel is GraKeL's (test_wl_kernel_equals_grakel)."""
    data = gs.load_tu(data_dir / "tu" / "MUTAG", "MUTAG")
    graphs = [
        (
            data.node_labels[data.node_ptr[i] : data.node_ptr[i + 1]].tolist(),
            [tuple(map(int, e)) for e in data.edges[data.edge_ptr[i] : data.edge_ptr[i + 1]]],
            data.edge_labels[data.edge_ptr[i] : data.edge_ptr[i + 1]].tolist(),
        )
        for i in range(len(data))
    ]
    x = gc.WLSubtreeFeatures(n_iter=3).fit_transform(data)
    np.testing.assert_array_equal(x.toarray(), ref.wl_subtree_features(graphs, 3))
    # with edge labels: the naive refinement again, and the same for 1 and 2 threads
    # (MUTAG's 188 graphs are three parallel chunks)
    xe = gc.WLSubtreeFeatures(n_iter=3, edge_labels=True, n_jobs=1).fit_transform(data)
    np.testing.assert_array_equal(xe.toarray(), ref.wl_subtree_features(graphs, 3, True))
    wl2 = gc.WLSubtreeFeatures(n_iter=3, edge_labels=True, n_jobs=2).fit(data)
    assert (wl2.transform(data) != xe).nnz == 0
    assert xe.shape[1] > x.shape[1]  # bond types split some subtrees


def _canonical(tree: tuple) -> str:
    """A rooted tree ``(label, [(edge, child), ...])`` as text, children sorted."""
    label, kids = tree
    inner = sorted(f"{e}>{_canonical(c)}" for e, c in kids)
    return f"{label}({','.join(inner)})"


def _unfold(g: nx.Graph, v: Any, depth: int, edges: bool) -> tuple:
    """The depth-``depth`` unfolding tree of ``v``, from networkx directly."""
    if depth == 0:
        return (g.nodes[v]["label"], [])
    kids = [
        (g.edges[v, u]["label"] if edges else "", _unfold(g, u, depth - 1, edges))
        for u in g.neighbors(v)
    ]
    return (g.nodes[v]["label"], kids)


def _parse(text: str, edges: bool) -> tuple:
    """Reads :meth:`WLSubtreeFeatures.describe`'s text back (integer labels)."""
    pos = 0

    def number() -> int:
        nonlocal pos
        start = pos
        while pos < len(text) and text[pos].isdigit():
            pos += 1
        return int(text[start:pos])

    def tree() -> tuple:
        nonlocal pos
        label = number()
        kids = []
        if pos < len(text) and text[pos] == "(":
            pos += 1
            while True:
                edge: Any = ""
                if edges:
                    assert text[pos] == "-"
                    pos += 1
                    edge = number()
                    assert text[pos : pos + 2] == "- "
                    pos += 2
                kids.append((edge, tree()))
                if text[pos] == ")":
                    pos += 1
                    break
                assert text[pos : pos + 2] == ", "
                pos += 2
        return (label, kids)

    out = tree()
    assert pos == len(text)
    return out


@pytest.mark.parametrize("edges", [False, True])
@pytest.mark.parametrize("seed", [3, 4])
def test_wl_describe_names_the_subtree_each_column_counts(seed: int, edges: bool) -> None:
    """Each graph's count of column ``j`` is the number of its vertices whose unfolding tree,
    built from networkx without WL, is the tree that ``describe(j)`` writes."""
    h = 3
    nxs = _to_nx(_edge_labelled(seed, 12))
    wl = gc.WLSubtreeFeatures(n_iter=h, edge_labels=edges)
    x = wl.fit_transform(nxs).toarray()
    names = wl.get_feature_names_out()
    assert len(names) == x.shape[1] == wl.n_features_out_ == sum(wl.level_sizes_)
    assert len(set(names)) == len(names) and names[0] == "wl0_0"
    texts = [wl.describe(j) for j in range(x.shape[1])]
    start = 0
    for level, size in enumerate(wl.level_sizes_):
        assert all(n.startswith(f"wl{level}_") for n in names[start : start + size])
        trees = [_canonical(_parse(t, edges)) for t in texts[start : start + size]]
        assert len(set(trees)) == size  # one subtree per column within a level
        for gi, g in enumerate(nxs):
            counts: dict[str, int] = {}
            for v in g:
                key = _canonical(_unfold(g, v, level, edges))
                counts[key] = counts.get(key, 0) + 1
            row = x[gi, start : start + size]
            got = {t: int(c) for t, c in zip(trees, row, strict=True) if c}
            assert got == counts
        start += size
    with pytest.raises(InvalidParameterError, match="j must be in"):
        wl.describe(x.shape[1])
    with pytest.raises(InvalidParameterError, match="j must be an integer"):
        wl.describe(1.5)  # type: ignore[arg-type]


def test_wl_edge_labels_transform_maps_labels_by_value() -> None:
    def edge(a: str, b: str, bond: str) -> nx.Graph:
        g = nx.Graph()
        g.add_nodes_from([(0, {"label": a}), (1, {"label": b})])
        g.add_edge(0, 1, label=bond)
        return g

    for flag in (False, True):
        wl = gc.WLSubtreeFeatures(n_iter=1, edge_labels=flag).fit([edge("C", "O", "=")])
        assert wl.transform([edge("C", "O", "=")]).toarray().tolist() == [[1, 1, 1, 1]]
        # N is unknown (it is not C, although both have label id 0 in their datasets)
        assert wl.transform([edge("N", "O", "=")]).toarray().tolist() == [[0, 1, 0, 0]]
        # another bond: unknown at level 1 only with edge labels
        want = [[1, 1, 0, 0]] if flag else [[1, 1, 1, 1]]
        assert wl.transform([edge("C", "O", "-")]).toarray().tolist() == want
        again = pickle.loads(pickle.dumps(wl))
        assert again.transform([edge("C", "O", "-")]).toarray().tolist() == want
        assert again.describe(3) == ("O(-=- C)" if flag else "O(C)")
        # transform and describe follow the fit, not a later set_params
        wl.set_params(edge_labels=not flag, vertex_attributes="x")
        assert wl.transform([edge("C", "O", "-")]).toarray().tolist() == want
        assert wl.describe(3) == again.describe(3)


def _attributed(seed: int, count: int, dim: int) -> list[nx.Graph]:
    rng = np.random.default_rng(seed)
    out = []
    for g in _to_nx(_edge_labelled(seed, count)):
        for v in g:
            g.nodes[v]["x"] = rng.normal(size=dim) if dim > 1 else float(rng.normal())
        out.append(g)
    return out


def _binned_by_hand(graphs: list[nx.Graph], cuts: list[np.ndarray]) -> list[nx.Graph]:
    out = []
    for g in graphs:
        h = g.copy()
        for v in h:
            xs = np.atleast_1d(h.nodes[v]["x"])
            bins = [int(np.sum(c <= xs[d])) for d, c in enumerate(cuts)]
            h.nodes[v]["label"] = (h.nodes[v]["label"], *bins)
        out.append(h)
    return out


@pytest.mark.parametrize("dim, bins", [(1, 4), (3, 2), (2, 5)])
def test_wl_vertex_attributes_are_quantile_bins_of_the_fit_data(dim: int, bins: int) -> None:
    train, test = _attributed(5, 15, dim), _attributed(6, 8, dim)
    wl = gc.WLSubtreeFeatures(n_iter=2, vertex_attributes="x", attribute_bins=bins)
    x = wl.fit_transform(iter(train))  # an iterator is read twice: labels, attributes
    values = np.vstack([np.atleast_1d(g.nodes[v]["x"]) for g in train for v in g])
    cuts = [np.unique(np.quantile(values[:, d], np.arange(1, bins) / bins)) for d in range(dim)]
    assert len(wl.attribute_edges_) == dim
    for got, want in zip(wl.attribute_edges_, cuts, strict=True):
        np.testing.assert_array_equal(got, want)
    by_hand = gc.WLSubtreeFeatures(n_iter=2).fit(_binned_by_hand(train, cuts))
    assert (x != by_hand.transform(_binned_by_hand(train, cuts))).nnz == 0
    # new graphs are binned with the fitted edges
    assert (wl.transform(test) != by_hand.transform(_binned_by_hand(test, cuts))).nnz == 0
    # the root of a level-0 column reads label[bins]
    assert wl.describe(0).count(",") == dim - 1 and wl.describe(0).endswith("]")
    # one bin: the attributes change nothing
    one = gc.WLSubtreeFeatures(n_iter=2, vertex_attributes="x", attribute_bins=1)
    assert (
        one.fit_transform(train) != gc.WLSubtreeFeatures(n_iter=2).fit_transform(train)
    ).nnz == 0


def test_wl_vertex_attribute_errors() -> None:
    train = _attributed(7, 4, 2)
    wl = gc.WLSubtreeFeatures(vertex_attributes="x")
    with pytest.raises(InvalidParameterError, match="GraphDataset carries no vertex attributes"):
        wl.fit(gs.from_networkx(train))
    with pytest.raises(InvalidGraphError, match="has no attribute 'y'"):
        gc.WLSubtreeFeatures(vertex_attributes="y").fit(train)
    bad = [g.copy() for g in train]
    first = next(iter(bad[1]))
    bad[1].nodes[first]["x"] = [1.0, float("nan")]
    with pytest.raises(InvalidGraphError, match="finite"):
        wl.fit(bad)
    bad[1].nodes[first]["x"] = [1.0, 2.0, 3.0]
    with pytest.raises(InvalidGraphError, match="3 entries"):
        wl.fit(bad)
    wl.fit(train)
    with pytest.raises(InvalidGraphError, match="1 entries per vertex, 2 at fit time"):
        wl.transform(_attributed(8, 2, 1))
    for bins in (0, 2**16 + 1, 2.0):
        with pytest.raises(InvalidParameterError, match="attribute_bins"):
            gc.WLSubtreeFeatures(vertex_attributes="x", attribute_bins=bins).fit(train)
    with pytest.raises(InvalidParameterError, match="vertex_attributes must be"):
        gc.WLSubtreeFeatures(vertex_attributes=3).fit(train)  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="edge_labels must be True or False"):
        gc.WLSubtreeFeatures(edge_labels="yes").fit(train)  # type: ignore[arg-type]


# -------------------------------------------------------------------------------- evaluation


@pytest.mark.slow
def test_evaluation_runner_shapes(data_dir) -> None:
    data = gs.load_tu(data_dir / "tu" / "MUTAG", "MUTAG")
    res = gc.evaluate_compression(
        data, methods=("rec", "otc"), n_runs=2, train_fractions=[0.5], n_splits=2, random_state=0
    )
    for method in ("rec", "otc"):
        assert res.accuracies[method].shape == (2, 1, 2)
        assert 0.5 < res.mean[method][0] <= 1.0


def test_progress_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    data = gs.from_networkx([g for g, _, _ in GOLDEN])
    gc.OTCompressor(k=2, verbose=2).fit_transform(data)
    assert "OTCompressor" in capsys.readouterr().err
    with pytest.raises(InvalidParameterError, match="verbose"):
        gc.OTCompressor(k=2, verbose="loud").fit_transform(data)
