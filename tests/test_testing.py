"""graphsparse.testing: each strategy keeps its documented invariants and shrinks to a minimal
case; the assertions accept what is equal and name what is not.

That the references agree with the library on drawn instances is what the rest of the suite
checks (test_pcst, test_projections, test_gspan, test_online, test_compression ... import them
from here).
"""

from __future__ import annotations

import math
from typing import Any

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

import graphsparse as gs
from graphsparse.exceptions import InvalidParameterError
from graphsparse.testing import (
    assert_forests_equal,
    assert_patterns_equal,
    assert_within_gap,
    reference,
)
from graphsparse.testing import strategies as S

SOME = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FIND = settings(database=None, max_examples=2000)


def minimal(strategy: st.SearchStrategy[Any], condition: Any = lambda _: True) -> Any:
    """The smallest draw that satisfies ``condition``, as Hypothesis shrinks it."""
    return find(strategy, condition, settings=FIND)


# -- labelled graphs and databases -------------------------------------------------------------


@SOME
@given(S.labelled_graphs(max_vertices=6, n_vertex_labels=2, n_edge_labels=3, max_edges=4))
def test_labelled_graphs_keep_their_ranges(g: nx.Graph) -> None:
    assert 1 <= g.number_of_nodes() <= 6 and sorted(g) == list(range(len(g)))
    assert g.number_of_edges() <= 4
    assert nx.number_of_selfloops(g) == 0
    assert all(lab in (0, 1) for _, lab in g.nodes(data="label"))
    assert all(lab in (0, 1, 2) for _, _, lab in g.edges(data="label"))


@SOME
@given(S.labelled_graphs(max_vertices=8, connected=True, min_vertices=3))
def test_connected_labelled_graphs_are_connected(g: nx.Graph) -> None:
    assert 3 <= len(g) <= 8 and nx.is_connected(g)


def test_labelled_graphs_shrink_to_one_edge_labelled_zero() -> None:
    g = minimal(S.labelled_graphs(), lambda g: g.number_of_edges() >= 1)
    assert sorted(g.nodes(data="label")) == [(0, 0), (1, 0)]
    assert list(g.edges(data="label")) == [(0, 1, 0)]


@SOME
@given(S.graph_databases(min_graphs=1, max_graphs=4, max_vertices=3, n_vertex_labels=1))
def test_graph_databases_keep_their_ranges(db: list[nx.Graph]) -> None:
    assert 1 <= len(db) <= 4
    assert all(len(g) <= 3 and {lab for _, lab in g.nodes(data="label")} == {0} for g in db)


@SOME
@given(S.graph_datasets(min_graphs=1, max_graphs=4, max_vertices=4))
def test_graph_datasets_are_datasets_of_the_drawn_size(ds: gs.GraphDataset) -> None:
    assert isinstance(ds, gs.GraphDataset) and 1 <= len(ds) <= 4
    sizes = np.diff(ds.node_ptr)
    assert np.all((sizes >= 1) & (sizes <= 4))


def test_databases_shrink_to_single_vertices() -> None:
    db = minimal(S.graph_databases(), lambda d: len(d) >= 2)
    assert [sorted(g.nodes(data="label")) for g in db] == [[(0, 0)], [(0, 0)]]
    assert len(minimal(S.graph_datasets(), lambda d: len(d) >= 1)) == 1


def test_a_failing_property_reports_the_smallest_database() -> None:
    """The use the strategies are for: a wrong claim fails on a small, readable case."""
    seen: list[list[nx.Graph]] = []

    @settings(database=None, max_examples=200)
    @given(S.graph_databases(max_vertices=6))
    def claim(db: list[nx.Graph]) -> None:
        seen.append(db)
        assert all(g.number_of_edges() < 2 for g in db)  # false

    with pytest.raises(AssertionError):
        claim()
    # Hypothesis runs the shrunk failing example last
    (g,) = seen[-1]
    assert g.number_of_edges() == 2 and len(g) == 3


# -- Steiner forests ---------------------------------------------------------------------------


@SOME
@given(S.pcst_instances(max_nodes=12, with_num_clusters=True))
def test_pcst_instances_keep_signs_and_shapes(g: dict[str, Any]) -> None:
    n = g["n"]
    assert 1 <= n <= 12 and g["prizes"].shape == (n,)
    assert g["edges"].dtype == np.int64 and g["edges"].shape == (len(g["costs"]), 2)
    assert len(g["costs"]) <= 3 * n
    assert np.all((g["edges"] >= 0) & (g["edges"] < n))
    assert np.all(g["prizes"] >= 0) and np.all(g["costs"] >= 0)
    assert np.all(np.isfinite(g["prizes"])) and np.all(np.isfinite(g["costs"]))
    assert g["root"] == -1 or 0 <= g["root"] < n
    assert g["num_clusters"] == 1 if g["root"] >= 0 else 1 <= g["num_clusters"] <= n


@SOME
@given(S.pcst_instances(max_nodes=8, ties=True))
def test_tied_pcst_instances_are_quarter_integers(g: dict[str, Any]) -> None:
    weights = np.concatenate([g["prizes"], g["costs"]])
    assert np.all(weights * 4 == np.round(weights * 4)) and np.all(weights <= 4)


def test_pcst_instances_draw_the_degenerate_cases() -> None:
    def isolated(g: dict[str, Any]) -> bool:
        return len(set(range(g["n"])) - set(g["edges"].ravel().tolist())) > 0

    assert minimal(S.pcst_instances(), lambda g: g["n"] >= 3 and isolated(g))["n"] == 3
    assert minimal(S.pcst_instances(), lambda g: np.any(g["prizes"] == 0))["n"] == 1
    tie = minimal(S.pcst_instances(ties=False), lambda g: len(g["costs"]) >= 2)
    assert tie["costs"].tolist() == [0.0, 0.0]  # ties even without tied weights: zeros
    looped = minimal(S.pcst_instances(), lambda g: len(g["edges"]) >= 1)
    assert looped["n"] == 1 and looped["edges"].tolist() == [[0, 0]]  # a self-loop


def test_pcst_instances_shrink_to_one_vertex() -> None:
    g = minimal(S.pcst_instances())
    assert g["n"] == 1 and g["root"] == -1 and g["prizes"].tolist() == [0.0]
    assert g["edges"].shape == (0, 2)
    assert minimal(S.pcst_instances(max_nodes=1), lambda g: g["root"] >= 0)["root"] == 0


# -- projections -------------------------------------------------------------------------------


@SOME
@given(S.projection_vectors(max_len=9, min_len=2))
def test_projection_vectors_are_finite(v: np.ndarray) -> None:
    assert v.dtype == np.float64 and 2 <= v.size <= 9 and np.all(np.isfinite(v))


@SOME
@given(st.integers(1, 9).flatmap(S.projection_weights))
def test_projection_weights_have_a_positive_entry(e: np.ndarray) -> None:
    assert np.all((e >= 0) & (e <= 1)) and np.any(e > 0)


@SOME
@given(S.radii(), S.radii(allow_zero=False))
def test_radii_are_nonnegative(r: float, positive: float) -> None:
    assert math.isfinite(r) and r >= 0
    assert math.isfinite(positive) and positive > 0


@SOME
@given(S.weighted_simplex_inputs(max_len=9))
def test_weighted_simplex_inputs_are_representable(case: tuple[np.ndarray, np.ndarray]) -> None:
    y, eps = case
    assert y.shape == eps.shape and np.any(eps > 0)
    assert np.max(np.abs(y)) <= 1e200


@SOME
@given(S.capped_simplex_inputs(max_len=9))
def test_capped_simplex_inputs_have_nonnegative_caps(case: tuple[np.ndarray, float]) -> None:
    y, k = case
    assert np.all(np.isfinite(y)) and 0 <= k <= 8


@SOME
@given(S.projection_batches(max_rows=5, max_cols=7))
def test_projection_batches_mix_scales(batch: np.ndarray) -> None:
    assert 1 <= batch.shape[0] <= 5 and 3 <= batch.shape[1] <= 7
    assert np.all(np.isfinite(batch))


def test_projection_batches_reach_extreme_scales() -> None:
    big = minimal(S.projection_batches(), lambda b: np.abs(b).max() > 1e100)
    assert big.shape == (1, 3)
    tiny = minimal(S.projection_batches(), lambda b: 0 < np.abs(b[b != 0]).min(initial=1) < 1e-100)
    assert tiny.shape == (1, 3)


def test_projection_inputs_shrink_to_zeros() -> None:
    assert minimal(S.projection_vectors(), lambda v: v.size >= 3).tolist() == [0.0, 0.0, 0.0]
    assert minimal(S.radii()) == 0.0 and minimal(S.radii(allow_zero=False)) == 1.0
    y, eps = minimal(S.weighted_simplex_inputs(), lambda c: c[0].size >= 2)
    assert y.tolist() == [0.0, 0.0] and np.count_nonzero(eps) == 1
    assert minimal(S.projection_batches(), lambda b: b.shape[0] >= 2).tolist() == [[0.0] * 3] * 2


# -- graphs over features ----------------------------------------------------------------------


@SOME
@given(S.sparse_projection_instances(max_nodes=10))
def test_sparse_projection_instances_are_connected(case: tuple[Any, ...]) -> None:
    n, edges, costs, w, s = case
    g = nx.MultiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges.tolist())
    assert 2 <= n <= 10 and nx.is_connected(g) and len(edges) >= n - 1
    assert np.all((costs >= 0.5) & (costs <= 2.0)) and costs.shape == (len(edges),)
    assert w.shape == (n,) and np.all(np.abs(w) <= 3) and 1 <= s <= n


def test_feature_graphs_shrink_to_a_star() -> None:
    n, edges, costs = minimal(S.feature_graphs(), lambda t: t[0] >= 3)
    assert n == 3 and edges.tolist() == [[0, 1], [0, 2]] and len(costs) == 2
    assert minimal(S.node_weights(4)).tolist() == [0.0] * 4


# -- transport problems ------------------------------------------------------------------------


@SOME
@given(S.transport_problems(max_nodes=7))
def test_transport_problems_are_feasible(case: tuple[Any, ...]) -> None:
    n, edges, costs, a, b = case
    assert 2 <= n <= 7 and nx.is_connected(nx.Graph(edges))
    assert all(u < v for u, v in edges) and len(set(edges)) == len(edges)
    assert all(0.01 <= c <= 2.0 for c in costs)
    for rho in (a, b):
        assert rho.shape == (n,) and np.all(rho >= 0) and abs(rho.sum() - 1) <= 1e-12


@SOME
@given(S.transport_problems(max_nodes=5, mixed=True))
def test_mixed_transport_problems_carry_a_mask(case: tuple[Any, ...]) -> None:
    _n, edges, _costs, _a, _b, mask = case
    assert len(mask) == len(edges) and all(isinstance(d, bool) for d in mask)


def test_transport_problems_shrink_to_one_edge() -> None:
    n, edges, _, a, b = minimal(S.transport_problems())
    assert n == 2 and edges == [(0, 1)] and a.tolist() == b.tolist() == [0.5, 0.5]


# -- recovery ----------------------------------------------------------------------------------


@SOME
@given(S.recovery_instances(max_features=8, max_samples=5, noise=0.1))
def test_recovery_instances_have_a_connected_support(inst: S.RecoveryInstance) -> None:
    a, y, x, edges, groups = inst
    m, n = a.shape
    assert 1 <= n <= 8 and 1 <= m <= 5 and y.shape == (m,) and x.shape == (n,)
    assert np.all(np.abs(a) <= 3) and np.all(np.abs(y - a @ x) <= 0.1 + 1e-12)
    support = np.flatnonzero(x)
    assert support.size >= 1 and np.all((np.abs(x[support]) >= 0.5) & (np.abs(x[support]) <= 2))
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges.tolist())
    assert all(u < v for u, v in edges.tolist()) and len(g.edges) == len(edges)
    assert nx.is_connected(g.subgraph(support.tolist()))
    assert groups == [sorted([v, *g.neighbors(v)]) for v in range(n)]


@SOME
@given(S.recovery_instances(max_features=6, connected=True))
def test_connected_recovery_graphs_are_connected(inst: S.RecoveryInstance) -> None:
    g = nx.Graph()
    g.add_nodes_from(range(inst.A.shape[1]))
    g.add_edges_from(inst.edges.tolist())
    assert nx.is_connected(g)


def test_recovery_instances_shrink_to_one_feature() -> None:
    inst = minimal(S.recovery_instances())
    assert inst.A.shape == (1, 1) and inst.edges.shape == (0, 2) and inst.groups == [[0]]


# -- rule tables -------------------------------------------------------------------------------


@SOME
@given(S.rule_tables(max_rows=12, max_numeric=2, max_categorical=2, categories=("u", "v")))
def test_rule_tables_have_numeric_and_categorical_columns(table: Any) -> None:
    pytest.importorskip("pandas")
    assert 2 <= len(table) <= 12 and 1 <= table.shape[1] <= 4
    for name in table.columns:
        col = table[name]
        if name.startswith("x"):
            assert col.dtype == np.float64 and np.all(np.isnan(col) | (np.abs(col) <= 1e3))
        else:
            assert name.startswith("c") and col.dtype == object
            assert set(col) <= {"u", "v", None}


def test_rule_tables_shrink_to_one_column_of_two_rows() -> None:
    pytest.importorskip("pandas")
    table = minimal(S.rule_tables(missing=False), lambda t: t.shape[1] >= 2)
    assert table.shape == (2, 2)
    assert minimal(S.rule_tables()).shape == (2, 1)


# -- assertions --------------------------------------------------------------------------------


def _path(labels: list[int], edge_label: int = 0) -> nx.Graph:
    g = nx.path_graph(len(labels))
    nx.set_node_attributes(g, dict(enumerate(labels)), "label")
    nx.set_edge_attributes(g, edge_label, "label")
    return g


def test_pattern_sets_compare_up_to_order_and_numbering() -> None:
    db = [_path([0, 1, 2]), _path([2, 1, 0]), _path([1, 1])]
    mined = gs.mine_subgraphs(db, 2, single_vertices=True)
    brute = reference.subgraphs.frequent_subgraphs(db, 2, single_vertices=True)
    assert_patterns_equal(mined, brute)
    assert_patterns_equal(list(reversed(mined)), brute)
    # supports are compared when both sides have them; bare graphs compare shapes only
    assert_patterns_equal(mined, [g for g, _ in brute])
    with pytest.raises(AssertionError, match=r"only in want \(1\): dfs code"):
        assert_patterns_equal(mined[1:] if mined[0].n_edges else mined[:-1], brute)
    wrong = [(g, len(ids) + 1) for g, ids in brute]
    with pytest.raises(AssertionError, match="support"):
        assert_patterns_equal(mined, wrong)
    with pytest.raises(AssertionError, match="vertex labelled 7"):
        assert_patterns_equal([_path([7])], [_path([8])])
    with pytest.raises(InvalidParameterError, match="got: each pattern"):
        assert_patterns_equal([1], [])
    with pytest.raises(InvalidParameterError, match="want: a pattern must be a connected"):
        assert_patterns_equal([], [nx.Graph()])


def test_forests_compare_as_sets() -> None:
    assert_forests_equal(([2, 0], np.array([1])), (np.array([0, 2]), [1]))
    with pytest.raises(AssertionError, match=r"vertices: only in got \[3\], only in want \[\]"):
        assert_forests_equal(([0, 3], []), ([0], []))
    with pytest.raises(AssertionError, match=r"edges: only in got \[\], only in want \[4\]"):
        assert_forests_equal(([0], []), ([0], [4]))
    with pytest.raises(AssertionError, match="lists an id twice"):
        assert_forests_equal(([0, 0], []), ([0], []))
    with pytest.raises(InvalidParameterError, match="want: expected a pair"):
        assert_forests_equal(([0], []), ([0],))
    with pytest.raises(InvalidParameterError, match="got vertices: expected a one-dimensional"):
        assert_forests_equal(([0.5], []), ([0], []))


def test_forests_of_the_library_match_pcst_fast_and_the_optimum() -> None:
    pcst_fast = pytest.importorskip("pcst_fast")
    edges = np.array([[0, 1], [1, 2], [2, 3]])
    prizes, costs = np.array([5.0, 0.0, 0.0, 5.0]), np.array([1.0, 1.0, 9.0])
    got = gs.pcst(edges, prizes, costs, -1, 1, "strong")
    assert reference.pcst.objective(prizes, costs, *got) == reference.pcst.optimum(
        edges, prizes, costs
    )
    nodes, edge_ids = pcst_fast.pcst_fast(edges, prizes, costs, -1, 1, "strong", 0)
    assert_forests_equal(got, (nodes[::-1], edge_ids[::-1]))


def test_values_agree_up_to_their_gaps() -> None:
    assert_within_gap(1.0005, 1.0, gap=1e-3)
    assert_within_gap(1.0, 1.0005, gap=0.0, reference_gap=1e-3)
    assert_within_gap(1.0, 1.0 + 1e-12, gap=0.0)  # rounding
    assert_within_gap(0.9995, 1.0, gap=1e-3, sense="max")
    with pytest.raises(AssertionError, match="disagree"):
        assert_within_gap(1.01, 1.0, gap=1e-3)
    with pytest.raises(AssertionError, match="disagree"):
        assert_within_gap(0.99, 1.0, gap=1.0)  # below the optimum: no gap excuses that
    with pytest.raises(AssertionError, match="disagree"):
        assert_within_gap(1.0005, 1.0, gap=1e-3, sense="max")
    for kwargs, name in [
        ({"gap": -1.0}, "gap"),
        ({"gap": 0.0, "reference_gap": math.nan}, "reference_gap"),
        ({"gap": 0.0, "rtol": -1e-9}, "rtol"),
    ]:
        with pytest.raises(InvalidParameterError, match=f"^{name} must be"):
            assert_within_gap(1.0, 1.0, **kwargs)
    with pytest.raises(InvalidParameterError, match=r"^value must be a finite"):
        assert_within_gap(math.inf, 1.0, gap=0.0)
    with pytest.raises(InvalidParameterError, match=r"^sense must be"):
        assert_within_gap(1.0, 1.0, gap=0.0, sense="maximise")  # type: ignore[arg-type]


def test_a_certified_solver_is_within_its_gap_of_the_reference() -> None:
    pytest.importorskip("cvxpy")
    rng = np.random.default_rng(3)
    a, edges = rng.normal(size=(12, 6)), np.array([[0, 1], [1, 2], [3, 4], [4, 5]])
    y = a @ np.array([1.0, -1.0, 0.5, 0.0, 0.0, 0.0])
    model = gs.recovery.GraphStructuredRecovery(edges, alpha=0.5, lambda_=0.3, tol=1e-8).fit(a, y)
    _, _, best = reference.recovery.cvxpy_graph_recovery(a, y, edges, 0.5, 0.3)
    value = reference.recovery.graph_objective(a, y, model.coef_, edges, 0.5, 0.3)
    assert_within_gap(value, best, model.dual_gap_, rtol=1e-6)


def test_the_other_strategies_shrink_to_small_cases() -> None:
    y, k = minimal(S.capped_simplex_inputs(), lambda c: c[0].size >= 2)
    assert y.tolist() == [0.0, 0.0] and k == 0.0
    n, edges, _costs, w, s = minimal(S.sparse_projection_instances(), lambda t: t[4] >= 2)
    assert (n, s) == (2, 2) and edges.tolist() == [[0, 1]] and w.tolist() == [0.0, 0.0]
    n, edges, _costs = minimal(S.costed_graphs(), lambda t: t[0] >= 3)
    assert n == 3 and edges == [(0, 1), (0, 2)]
    assert minimal(S.mixed_graphs())[1:2] == ([(0, 1)],)
    assert minimal(S.mixed_graphs())[3] == [False]
    np.testing.assert_allclose(minimal(S.distributions(3)), [1 / 3] * 3)
