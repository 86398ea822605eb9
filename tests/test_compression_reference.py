"""The naive references of ``graphsparse.testing.reference.compression`` against the
specification's facts.

These tests pin down the maths the compression module is checked against (spec
ot-graph-compression §2.4, §3.4, §3.7, §8.4, §10, §11 items 1-4): the signed incidence fix,
primal = dual = POT's EMD on shortest-path metrics, Theorem 1, mixed graphs, the exact values of
problem (3) on the golden graphs, and the WL kernel against GraKeL. They do not need the
compiled extension.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphsparse.testing.reference import compression as ref
from graphsparse.testing.strategies import costed_graphs, distributions, mixed_graphs

PATH = [(0, 1), (1, 2)]
RHO0 = [0.1, 0.6, 0.3]
RHO1 = [0.4, 0.1, 0.5]
G2 = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 5)]
G2_COSTS = [0.01, 0.02, 0.02, 0.01, 0.01, 0.02]


def figure2_tree() -> tuple[list[tuple[int, int]], list[float]]:
    """The synthetic tree of the paper's Figure 2 (spec §8.4)."""
    heavy = {8, 11, 12, 14, 15, 16, 17, 18, 19, 20}
    edges, costs = [], []
    for p in range(1, 5):
        edges.append((0, p))
        costs.append(0.3)
        for leaf in range(5 + 4 * (p - 1), 9 + 4 * (p - 1)):
            edges.append((p, leaf))
            costs.append(0.5 if leaf in heavy else 0.1)
    return edges, costs


def test_worked_example_signed_and_unsigned() -> None:
    primal = ref.transport_primal(3, PATH, [1, 2], RHO0, RHO1)
    dual = ref.transport_dual(3, PATH, [1, 2], RHO0, RHO1)
    assert primal.status == dual.status == "optimal"
    assert primal.value == pytest.approx(0.7, abs=1e-12)
    assert dual.value == pytest.approx(0.7, abs=1e-12)
    # J⁻(e0) = 0.3 (mass 1 → 0) and J⁺(e1) = 0.2 (mass 1 → 2)
    assert primal.x is not None
    np.testing.assert_allclose(primal.x, [0.0, 0.2, 0.3, 0.0], atol=1e-12)
    # the paper's unsigned incidence: infeasible primal, unbounded dual on the path ...
    assert ref.transport_primal(3, PATH, [1, 2], RHO0, RHO1, signed=False).status == "infeasible"
    assert ref.transport_dual(3, PATH, [1, 2], RHO0, RHO1, signed=False).status == "unbounded"
    # ... and the wrong value on a triangle
    tri = [(0, 1), (1, 2), (2, 0)]
    delta = ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0])
    assert ref.transport_primal(3, tri, [1, 1, 1], *delta, signed=False).value == pytest.approx(2)
    assert ref.transport_primal(3, tri, [1, 1, 1], *delta).value == pytest.approx(1)


def test_worked_example_mixed_variants() -> None:
    ok = ref.transport_primal(3, [(1, 0), (1, 2)], [1, 2], RHO0, RHO1, directed=[True, False])
    assert ok.value == pytest.approx(0.7, abs=1e-12)
    bad = [(0, 1), (1, 2)]
    assert ref.transport_primal(3, bad, [1, 2], RHO0, RHO1, directed=[True, False]).status == (
        "infeasible"
    )
    assert ref.transport_dual(3, bad, [1, 2], RHO0, RHO1, directed=[True, False]).status == (
        "unbounded"
    )


# HiGHS stops at a primal/dual feasibility of 1e-7; random inputs can put the
# optimum near zero, where a relative tolerance says nothing.
LP_TOL = 1e-7


@given(st.data())
def test_primal_dual_and_emd_agree(data: st.DataObject) -> None:
    n, edges, costs = data.draw(costed_graphs())
    a, b = data.draw(distributions(n)), data.draw(distributions(n))
    primal = ref.transport_primal(n, edges, costs, a, b)
    dual = ref.transport_dual(n, edges, costs, a, b)
    emd = ref.kantorovich_emd2(n, edges, costs, a, b)
    assert primal.value == pytest.approx(dual.value, rel=1e-9, abs=LP_TOL)
    assert primal.value == pytest.approx(emd, rel=1e-7, abs=1e-10)
    # Theorem 1: at most one direction carries flow on every edge
    assert primal.x is not None
    m = len(edges)
    assert np.all(np.minimum(primal.x[:m], primal.x[m:]) <= LP_TOL)
    if len(edges) == n - 1:
        assert primal.value == pytest.approx(
            ref.tree_closed_form(n, edges, costs, a, b), rel=1e-9, abs=LP_TOL
        )


@given(st.data())
def test_mixed_primal_dual_and_orientation(data: st.DataObject) -> None:
    n, edges, costs, mask = data.draw(mixed_graphs(6))
    a, b = data.draw(distributions(n)), data.draw(distributions(n))
    primal = ref.transport_primal(n, edges, costs, a, b, directed=mask)
    dual = ref.transport_dual(n, edges, costs, a, b, directed=mask)
    if primal.status == "optimal":
        assert dual.value == pytest.approx(primal.value, rel=1e-9, abs=LP_TOL)
    else:
        assert (primal.status, dual.status) == ("infeasible", "unbounded")
    # undirected edges may be written either way round
    flipped = [(v, u) if not d else (u, v) for (u, v), d in zip(edges, mask, strict=True)]
    again = ref.transport_primal(n, flipped, costs, a, b, directed=mask)
    assert again.status == primal.status
    if primal.status == "optimal":
        assert again.value == pytest.approx(primal.value, rel=1e-9, abs=LP_TOL)


def test_exact_values_of_the_golden_graphs() -> None:
    rho0 = ref.degree_prior(3, PATH)
    want = {(1, 2): 0.2574, (0, 1): 0.257475, (0, 2): 0.257475}
    for s, v in want.items():
        ind = np.zeros(3)
        ind[list(s)] = 1
        assert ref.value_of_set(3, PATH, [0.01, 0.02], rho0, ind) == pytest.approx(v, abs=1e-9)
    assert ref.best_subset(3, PATH, [0.01, 0.02], rho0, 2) == (pytest.approx(0.2574), (1, 2))
    rho0 = ref.degree_prior(6, G2)
    best, _ = ref.best_subset(6, G2, G2_COSTS, rho0, 3)
    assert best == pytest.approx(0.173308333333, abs=1e-9)
    assert ref.value_of_set(6, G2, G2_COSTS, rho0, np.ones(6)) == pytest.approx(0.0849, abs=1e-9)


def test_figure2_tree_exact_values() -> None:
    edges, costs = figure2_tree()
    rho0 = ref.degree_prior(21, edges)

    def without(x: int) -> np.ndarray:
        ind = np.ones(21)
        ind[x] = 0
        return ind

    assert ref.value_of_set(21, edges, costs, rho0, np.ones(21)) == pytest.approx(0.04125)
    assert ref.value_of_set(21, edges, costs, rho0, np.r_[np.ones(5), np.zeros(16)]) == (
        pytest.approx(0.24625, abs=1e-9)
    )
    for x, v in [(5, 7 / 150), (9, 0.04671875), (13, 0.046875), (8, 0.056640625), (20, 0.056875)]:
        assert ref.value_of_set(21, edges, costs, rho0, without(x)) == pytest.approx(v, abs=1e-9)


@pytest.mark.parametrize("lam", [0.1, 1.0, 10.0])
def test_degeneracy_value_is_lambda_over_2k(lam: float) -> None:
    rho0 = ref.degree_prior(6, G2)
    k = 3
    assert k * rho0.max() <= 1
    v = ref.value_of_set(6, G2, G2_COSTS, rho0, k * rho0, lam)
    assert v == pytest.approx(lam / (2 * k), abs=1e-10)
    rng = np.random.default_rng(0)
    for _ in range(5):
        eps = ref.project_capped_simplex_bisect(rng.uniform(0, 1, 6), k)
        assert ref.value_of_set(6, G2, G2_COSTS, rho0, eps, lam) >= lam / (2 * k) - 1e-9


def test_lipschitz_projection_reference_first_step_of_g1() -> None:
    t = ref.project_lipschitz_slsqp(3, PATH, [0.01, 0.02], [-0.025, -0.05, -0.025])
    np.testing.assert_allclose(t, [-0.0325, -0.0425, -0.025], atol=1e-10)


def test_capped_simplex_reference_example() -> None:
    x = ref.project_capped_simplex_bisect([1.4, 0.9, 0.5, 0.2, -0.3], 2)
    np.testing.assert_allclose(x, [1, 0.7, 0.3, 0, 0], atol=1e-12)


def test_induced_subgraph_reference() -> None:
    keep, edges = ref.induced_subgraph(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)], [4, 0, 2])
    assert keep == [0, 2, 4]
    assert edges == [(2, 0)]


def _grakel_kernel(graphs: list[tuple[list[int], list[tuple[int, int]]]], h: int) -> np.ndarray:
    grakel = pytest.importorskip("grakel")
    from grakel.kernels import VertexHistogram, WeisfeilerLehman

    gs = []
    for labels, edges in graphs:
        adj = np.zeros((len(labels), len(labels)))
        for u, v in edges:
            adj[u, v] = adj[v, u] = 1
        gs.append(grakel.Graph(adj, node_labels=dict(enumerate(labels))))
    wl = WeisfeilerLehman(n_iter=h, base_graph_kernel=VertexHistogram, normalize=False)
    return np.asarray(wl.fit_transform(gs))


def _random_labelled(seed: int, count: int) -> list[tuple[list[int], list[tuple[int, int]]]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        n = int(rng.integers(1, 9))
        g = nx.gnp_random_graph(n, 0.4, seed=int(rng.integers(1 << 30)))
        out.append(([int(x) for x in rng.integers(0, 3, n)], list(g.edges())))
    return out


@pytest.mark.parametrize("seed", [0, 1])
def test_naive_wl_equals_grakel(seed: int) -> None:
    graphs = _random_labelled(seed, 12)
    np.testing.assert_array_equal(ref.wl_subtree_kernel(graphs, 5), _grakel_kernel(graphs, 5))


def test_naive_wl_counts_by_hand() -> None:
    # a-b-a and b-a-b: level 0 shares 2·1 + 1·2; level 1 shares nothing
    k = ref.wl_subtree_kernel([([0, 1, 0], PATH), ([1, 0, 1], PATH)], 1)
    np.testing.assert_array_equal(k, [[10, 4], [4, 10]])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_naive_wl_features_give_the_naive_kernel(seed: int) -> None:
    graphs = _random_labelled(seed, 12)
    for h in range(4):
        x = ref.wl_subtree_features(graphs, h)
        np.testing.assert_array_equal(x @ x.T, ref.wl_subtree_kernel(graphs, h))
        # one count per vertex per level
        np.testing.assert_array_equal(x.sum(axis=1), [(h + 1) * len(lab) for lab, _ in graphs])


def test_naive_wl_features_with_edge_labels_by_hand() -> None:
    # a-b-a with edges "s" and "d": the two a's differ by their edge from level 1 on
    g = ([0, 1, 0], PATH, ["s", "d"])
    np.testing.assert_array_equal(
        ref.wl_subtree_features([g], 1, edge_labels=True), [[2, 1, 1, 1, 1]]
    )
    # read without edge labels, both a's are a(b)
    np.testing.assert_array_equal(ref.wl_subtree_features([g], 1), [[2, 1, 2, 1]])
    # equal edge labels: the same columns as without
    same = ([0, 1, 0], PATH, ["s", "s"])
    np.testing.assert_array_equal(
        ref.wl_subtree_features([same], 2, edge_labels=True), ref.wl_subtree_features([same], 2)
    )
