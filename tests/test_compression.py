"""graphsparse.compression against naive references (spec ot-graph-compression §11)."""

from __future__ import annotations

import pickle

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
