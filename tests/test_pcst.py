"""graphsparse.pcst: identical to pcst_fast, valid forests, the GW bound, and clear errors."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import graphsparse as gs
from graphsparse.exceptions import InvalidParameterError
from graphsparse.testing.reference.pcst import forest_trees, objective, optimum
from graphsparse.testing.strategies import pcst_instances

try:
    import pcst_fast
except ImportError:  # pragma: no cover - depends on the environment
    pcst_fast = None

needs_anchor = pytest.mark.skipif(
    pcst_fast is None, reason="pcst_fast is not importable (pip install pcst-fast2)"
)

PRUNINGS = ("none", "simple", "gw", "strong")


# ---------------------------------------------------------------------------------------
# helpers


def cluster_counts(g: dict[str, Any]) -> list[int]:
    return [1] if g["root"] >= 0 else sorted({0, 1, 2, 3, g["n"]})


def ours(g: dict[str, Any], num_clusters: int, pruning: str, **kw: Any):
    return gs.pcst(g["edges"], g["prizes"], g["costs"], g["root"], num_clusters, pruning, **kw)


def anchor(g: dict[str, Any], num_clusters: int, pruning: str):
    return pcst_fast.pcst_fast(
        g["edges"], g["prizes"], g["costs"], g["root"], num_clusters, pruning, 0
    )


def assert_identical(g: dict[str, Any]) -> None:
    for k in cluster_counts(g):
        for pruning in PRUNINGS:
            got_nodes, got_edges = ours(g, k, pruning)
            want_nodes, want_edges = anchor(g, k, pruning)
            assert got_nodes.dtype == np.int64 and got_edges.dtype == np.int64
            assert got_nodes.tolist() == want_nodes.tolist(), (k, pruning)
            assert got_edges.tolist() == want_edges.tolist(), (k, pruning)


# ---------------------------------------------------------------------------------------
# identical output to pcst_fast


@needs_anchor
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pcst_instances(ties=True))
def test_pcst_matches_pcst_fast_with_ties(g: dict[str, Any]) -> None:
    assert_identical(g)


@needs_anchor
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pcst_instances(ties=False))
def test_pcst_matches_pcst_fast_real_weights(g: dict[str, Any]) -> None:
    assert_identical(g)


@needs_anchor
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pcst_instances(), st.sampled_from(["plus", "times", "equal"]))
def test_pcst_matches_pcst_fast_when_every_edge_costs_twice_the_top_prize(
    g: dict[str, Any], how: str
) -> None:
    """Unrooted instances whose every edge costs at least twice the largest prize (the first
    run of a tail projection's search), which the solver answers without the growth phase;
    ``"equal"`` puts the cheapest edge exactly at twice the top prize (ties of event times),
    ``"times"`` halves one edge below it (the plain path)."""
    top = float(g["prizes"].max()) if g["n"] else 0.0
    costs = g["costs"]
    if how == "plus":
        costs = costs + 2.0 * top
    elif how == "equal" and len(costs):
        costs = costs - costs.min() + 2.0 * top
    elif len(costs):
        costs = costs + 2.0 * top
        costs[0] = top
    g = {**g, "root": -1, "costs": costs}
    assert_identical(g)


def grid(width: int, height: int) -> np.ndarray:
    """4-neighbour grid edges in the spec's order: per node, right then down."""
    out = []
    for i in range(width * height):
        if i % width != width - 1:
            out.append((i, i + 1))
        if i + width < width * height:
            out.append((i, i + width))
    return np.array(out, dtype=np.int64)


@needs_anchor
@pytest.mark.parametrize("side", [5, 12, 33])
@pytest.mark.parametrize("seed", range(4))
def test_pcst_matches_pcst_fast_on_grids(side: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    edges = grid(side, side)
    cases = [
        (rng.standard_normal(side * side) ** 2, np.ones(len(edges))),
        (rng.integers(0, 3, side * side).astype(float), rng.integers(0, 3, len(edges)) / 2),
    ]
    for prizes, costs in cases:
        g = {"edges": edges, "prizes": prizes, "costs": costs, "root": -1, "n": side * side}
        for k in (1, 2, 5):
            for pruning in PRUNINGS:
                assert [a.tolist() for a in ours(g, k, pruning)] == [
                    a.tolist() for a in anchor(g, k, pruning)
                ]
        g["root"] = int(rng.integers(0, side * side))
        for pruning in PRUNINGS:
            assert [a.tolist() for a in ours(g, 1, pruning)] == [
                a.tolist() for a in anchor(g, 1, pruning)
            ]


# ---------------------------------------------------------------------------------------
# worked examples of spec §A.9 (exact lists, order included)

PATH = [(0, 1), (1, 2), (2, 3)]


def star() -> list[tuple[int, int]]:
    return [(0, i) for i in range(1, 6)]


def grid_weights_10() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    edges = grid(5, 3)
    prizes = np.array([((37 * i) % 11) / 3.0 + 0.01 * i for i in range(15)])
    costs = np.array([0.5 + ((13 * e) % 7) / 10.0 for e in range(len(edges))])
    return edges, prizes, costs


P9 = [float((7 * i) % 5) for i in range(16)]
E9 = grid(4, 4)
E10, P10, C10 = grid_weights_10()

EXAMPLES = [
    # (id, edges, prizes, costs, root, g, pruning, nodes, edge_ids)
    ("1-gw", PATH, [5, 0, 0, 5], [1] * 3, -1, 1, "gw", [0, 1, 2, 3], [1, 2, 0]),
    ("1-none", PATH, [5, 0, 0, 5], [1] * 3, -1, 1, "none", [0, 1, 2, 3], [0, 2, 1]),
    ("1-simple", PATH, [5, 0, 0, 5], [1] * 3, -1, 1, "simple", [0, 1, 2, 3], [0, 2, 1]),
    ("1-strong", PATH, [5, 0, 0, 5], [1] * 3, -1, 1, "strong", [0, 1, 2, 3], [0, 2, 1]),
    ("1-g2", PATH, [5, 0, 0, 5], [1] * 3, -1, 2, "gw", [0, 3], []),
    ("2-g4", PATH, [1, 2, 3, 4], [1] * 3, -1, 4, "gw", [0, 1, 2, 3], []),
    ("2-g10", PATH, [1, 2, 3, 4], [1] * 3, -1, 10, "strong", [0, 1, 2, 3], []),
    ("2-g0-gw", PATH, [1, 2, 3, 4], [1] * 3, -1, 0, "gw", [], []),
    ("2-g0-simple", PATH, [1, 2, 3, 4], [1] * 3, -1, 0, "simple", [], []),
    ("2-g0-strong", PATH, [1, 2, 3, 4], [1] * 3, -1, 0, "strong", [], []),
    ("2-g0-none", PATH, [1, 2, 3, 4], [1] * 3, -1, 0, "none", [0, 1, 2, 3], [0, 2, 1]),
    ("3-c1", PATH, [0] * 4, [1] * 3, -1, 1, "gw", [3], []),
    ("3-c0", PATH, [0] * 4, [0] * 3, -1, 1, "gw", [3], []),
    ("4", [], [1, 2, 3], [], -1, 1, "gw", [2], []),
    ("5-g1", [(0, 1)], [3, 3, 10], [1], -1, 1, "gw", [2], []),
    ("5-g2", [(0, 1)], [3, 3, 10], [1], -1, 2, "gw", [0, 1, 2], [0]),
    ("6-gw", PATH, [5, 0, 0, 5], [1] * 3, 0, 1, "gw", [0, 1, 2, 3], [0, 1, 2]),
    ("6-strong", PATH, [5, 0, 0, 5], [1] * 3, 0, 1, "strong", [0, 1, 2, 3], [2, 1, 0]),
    ("6-none", PATH, [5, 0, 0, 5], [1] * 3, 0, 1, "none", [2, 3, 1, 0], [2, 1, 0]),
    ("7-gw", PATH, [0, 1, 0, 1], [0] * 3, -1, 1, "gw", [1, 2, 3], [2, 1]),
    ("7-none", PATH, [0, 1, 0, 1], [0] * 3, -1, 1, "none", [1, 2, 3], [1, 2]),
    ("8-gw", star(), [0, 2, 2, 2, 0.5, 0.5], [1] * 5, -1, 1, "gw", [0, 1, 2, 3], [2, 1, 0]),
    ("8-strong", star(), [0, 2, 2, 2, 0.5, 0.5], [1] * 5, -1, 1, "strong", [0, 1, 2, 3], [0, 1, 2]),
    ("9-none", E9, P9, [1] * 24, -1, 1, "none",
     [1, 2, 3, 7, 4, 8, 6, 9, 13, 11, 12, 14, 5], [2, 6, 8, 11, 17, 13, 21, 22, 5, 15, 3, 10]),
    ("9-simple", E9, P9, [1] * 24, -1, 1, "simple",
     [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14], [2, 6, 8, 11, 17, 13, 21, 22, 5, 15, 3, 10]),
    ("9-gw", E9, P9, [1] * 24, -1, 1, "gw",
     [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14], [10, 3, 15, 5, 22, 21, 13, 17, 11, 8, 6, 2]),
    ("9-strong", E9, P9, [1] * 24, -1, 1, "strong",
     [1, 2, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14], [2, 8, 11, 17, 13, 21, 22, 5, 15, 3, 10]),
    ("9-g2-gw", E9, P9, [1] * 24, -1, 2, "gw",
     [1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14], [15, 5, 22, 21, 13, 17, 11, 8, 6, 2]),
    ("9-g2-strong", E9, P9, [1] * 24, -1, 2, "strong",
     [1, 2, 4, 6, 7, 8, 9, 11, 12, 13, 14], [2, 8, 11, 17, 13, 21, 22, 5, 15]),
    ("9-root-gw", E9, P9, [1] * 24, 5, 1, "gw",
     [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14], [10, 9, 15, 5, 22, 21, 13, 17, 11, 8, 6, 2]),
    ("9-root-strong", E9, P9, [1] * 24, 5, 1, "strong",
     [1, 2, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14], [2, 8, 11, 17, 13, 21, 22, 5, 15, 9, 10]),
    ("10-none", E10, P10, C10, -1, 1, "none",
     [3, 8, 7, 12, 13, 14, 4, 2, 6, 1, 5, 10, 9], [7, 14, 21, 6, 20, 13, 5, 11, 3, 10, 17, 9]),
    ("10-gw", E10, P10, C10, -1, 1, "gw",
     [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14], [9, 17, 10, 3, 11, 5, 13, 20, 6, 21, 14, 7]),
    ("10-strong", E10, P10, C10, -1, 1, "strong",
     [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14], [7, 14, 21, 6, 20, 13, 5, 11, 3, 10, 17, 9]),
    ("10-g3-gw", E10, P10, C10, -1, 3, "gw",
     [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14], [10, 3, 11, 5, 13, 20, 6, 21, 14, 7]),
    ("10-g3-strong", E10, P10, C10, -1, 3, "strong",
     [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13], [7, 14, 6, 20, 13, 5, 11, 3, 10]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("edges", "prizes", "costs", "root", "g", "pruning", "nodes", "edge_ids"),
    [pytest.param(*case[1:], id=case[0]) for case in EXAMPLES],
)
def test_pcst_worked_examples(edges, prizes, costs, root, g, pruning, nodes, edge_ids) -> None:
    got_nodes, got_edges = gs.pcst(edges, prizes, costs, root, g, pruning)
    assert got_nodes.tolist() == nodes
    assert got_edges.tolist() == edge_ids


def test_pcst_eps_changes_the_result() -> None:
    """Spec §A.9 example 12: a 1e-8 remainder merges with eps=1e-6 but not with 1e-10."""
    prizes = [0.5 + 5e-9, 0.5 - 1e-8, 10.0]
    nodes, edges = gs.pcst([(0, 1)], prizes, [1.0], pruning="none")
    assert (nodes.tolist(), edges.tolist()) == ([0, 1, 2], [0])
    nodes, edges = gs.pcst([(0, 1)], prizes, [1.0], pruning="none", eps=1e-10)
    assert (nodes.tolist(), edges.tolist()) == ([2], [])
    for eps in (1e-6, 1e-10):
        assert gs.pcst([(0, 1)], prizes, [1.0], eps=eps)[0].tolist() == [2]


# ---------------------------------------------------------------------------------------
# properties that need no anchor


@settings(max_examples=400, deadline=None)
@given(pcst_instances(max_nodes=20))
def test_pcst_output_is_a_forest_with_the_requested_trees(g: dict[str, Any]) -> None:
    n = g["n"]
    for k in cluster_counts(g):
        merges = ours(g, k, "none")[1].tolist()
        for pruning in ("simple", "gw", "strong"):
            nodes, edge_ids = ours(g, k, pruning)
            assert np.all(np.diff(nodes) > 0), "nodes must be strictly ascending"
            trees = forest_trees(n, g["edges"], nodes.tolist(), edge_ids.tolist())
            if g["root"] >= 0:
                assert trees == 1 and g["root"] in nodes
            else:
                assert trees == min(k, n)
            if pruning == "gw":
                reversed_merges = iter(merges[::-1])
                assert all(e in reversed_merges for e in edge_ids.tolist())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pcst_instances(max_nodes=9), st.sampled_from([1, 2]))
def test_pcst_gw_is_a_lagrangian_2_approximation(g: dict[str, Any], k: int) -> None:
    """c(F) + 2 π(V \\ N) <= 2 OPT_g (spec §A.2), against brute force; strong <= gw."""
    n = g["n"]
    if g["root"] < 0 and k > n:
        k = n
    if g["root"] >= 0:
        k = 1
    opt = optimum(g["edges"], g["prizes"], g["costs"], k, g["root"])
    nodes, edge_ids = ours(g, k, "gw")
    cost = float(np.sum(g["costs"][edge_ids]))
    keep = np.zeros(n, dtype=bool)
    keep[nodes] = True
    missed = float(np.sum(g["prizes"][~keep]))
    scale = 1.0 + g["prizes"].sum() + g["costs"].sum()
    assert cost + 2 * missed <= 2 * opt + 1e-9 * scale
    gw = objective(g["prizes"], g["costs"], nodes.tolist(), edge_ids.tolist())
    assert opt <= gw + 1e-9 * scale
    s_nodes, s_edges = ours(g, k, "strong")
    strong = objective(g["prizes"], g["costs"], s_nodes.tolist(), s_edges.tolist())
    assert opt <= strong + 1e-9 * scale
    assert strong <= gw + 1e-9 * scale


def test_pcst_terminates_where_pcst_fast_stalls() -> None:
    """pcst_fast loops forever here: the subnormal costs leave remainders below the resolution
    of the event time. Our stall guard ends the run with a valid forest."""
    edges = [(1, 2), (2, 4), (3, 3), (2, 1), (1, 2), (2, 1), (0, 0)]
    tiny = 2.2250738585072014e-308
    prizes = [1e-12, tiny, 1e-300, tiny, 1.0000000000000002]
    costs = [tiny, 5e-324, 10.0, 9.999999999999998, 3.0, 5e-324, 3.0]
    for k in (1, 2):
        for pruning in ("simple", "gw", "strong"):
            nodes, edge_ids = gs.pcst(edges, prizes, costs, num_clusters=k, pruning=pruning)
            assert forest_trees(5, edges, nodes.tolist(), edge_ids.tolist()) == k
    # eps = 0: rounding residues never count as covered, yet the run ends
    rng = np.random.default_rng(3)
    e = grid(15, 15)
    for k in (1, 4):
        nodes, edge_ids = gs.pcst(
            e, rng.random(225) * 3, rng.random(len(e)) + 0.1, num_clusters=k, eps=0.0
        )
        assert forest_trees(225, e, nodes.tolist(), edge_ids.tolist()) == k


def test_pcst_degenerate_cases() -> None:
    path = np.array(PATH)
    for pruning in PRUNINGS:
        # g >= n: every node, no edge
        nodes, edges = gs.pcst(
            path, [1.0, 0.0, 2.0, 0.0], [1.0] * 3, num_clusters=7, pruning=pruning
        )
        assert (nodes.tolist(), edges.tolist()) == ([0, 1, 2, 3], [])
        # all-zero prizes: the last node alone
        nodes, edges = gs.pcst(path, [0.0] * 4, [1.0] * 3, pruning=pruning)
        assert (nodes.tolist(), edges.tolist()) == ([3], [])
        # no edges: the g largest prizes, the higher index on ties
        nodes, edges = gs.pcst(
            np.zeros((0, 2), int), [2.0, 1.0, 2.0, 2.0], [], num_clusters=2, pruning=pruning
        )
        assert (nodes.tolist(), edges.tolist()) == ([2, 3], [])
    # zero-prize nodes deactivate before zero-cost edges at t = 0
    assert gs.pcst(path, [0.0, 1.0, 0.0, 1.0], [0.0] * 3)[0].tolist() == [1, 2, 3]
    # no nodes at all
    nodes, edges = gs.pcst(np.zeros((0, 2), np.int64), np.zeros(0), np.zeros(0))
    assert nodes.size == 0 and edges.size == 0 and nodes.dtype == np.int64


# ---------------------------------------------------------------------------------------
# input handling


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64])
def test_pcst_accepts_any_integer_edge_dtype(dtype: type) -> None:
    want = gs.pcst(np.array(E9), P9, [1.0] * 24)
    got = gs.pcst(np.array(E9).astype(dtype), np.array(P9, dtype=np.float32), np.ones(24, int))
    assert [a.tolist() for a in got] == [a.tolist() for a in want]


def test_pcst_accepts_lists_views_and_empty_edges() -> None:
    want = gs.pcst(np.array(E9), P9, [1.0] * 24)
    as_list = [tuple(map(int, e)) for e in E9]
    assert [a.tolist() for a in gs.pcst(as_list, P9, [1.0] * 24)] == [a.tolist() for a in want]
    # non-contiguous views
    wide = np.zeros((24, 4), dtype=np.int64)
    wide[:, ::2] = E9
    prizes = np.repeat(np.array(P9), 2)[::2]
    got = gs.pcst(wide[:, ::2], prizes, np.ones(48)[::2])
    assert [a.tolist() for a in got] == [a.tolist() for a in want]
    for empty in ([], np.zeros((0, 2)), np.zeros(0, dtype=np.int64)):
        nodes, edges = gs.pcst(empty, [1.0, 3.0], [])
        assert (nodes.tolist(), edges.tolist()) == ([1], [])
    assert gs.pcst([(0, 1)], [1.0, 1.0], [0.5], root=None)[0].tolist() == [0, 1]
    assert gs.pcst([(0, 1)], [1.0, 1.0], [0.5], root=np.int64(1))[0].tolist() == [0, 1]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"pruning": "GW"}, "'none', 'simple', 'gw', 'strong'"),
        ({"pruning": "best"}, "pruning"),
        ({"prizes": [1.0, np.nan, 1.0]}, r"prizes\[1\]"),
        ({"prizes": [1.0, 1.0, np.inf]}, "prizes must be finite"),
        ({"prizes": [1.0, -1.0, 1.0]}, r"prizes must be >= 0; prizes\[1\]"),
        ({"costs": [1.0, -np.inf]}, r"costs must be finite; costs\[1\]"),
        ({"costs": [1.0, -0.5]}, r"costs must be >= 0; costs\[1\]"),
        ({"costs": [1.0]}, "costs must have length 2"),
        ({"costs": [[1.0, 1.0]]}, "costs must be 1-dimensional"),
        ({"prizes": [[1.0, 1.0, 1.0]]}, "prizes must be 1-dimensional"),
        ({"prizes": ["a", "b", "c"]}, "prizes must be a real numeric array"),
        (
            {"edges": [(0, 3), (1, 2)]},
            r"prizes has 3 entries but edges\[0\] = \[0, 3\] references node 3, which is out "
            "of range; give one prize per node",
        ),
        ({"edges": [(0, 1), (-1, 2)]}, r"edges\[1\] = \[-1, 2\] is negative"),
        ({"edges": [(0, 1, 2)]}, r"edges must have shape \(m, 2\)"),
        ({"edges": [0, 1]}, r"edges must have shape \(m, 2\)"),
        ({"edges": [(0.0, 1.0), (1.0, 2.0)]}, "edges must be an integer array"),
        ({"edges": [(0, 1), (1,)]}, "edges cannot be converted"),
        ({"root": 3}, r"root must be -1 \(unrooted\) or a node id in \[0, 3\)"),
        ({"root": -2}, "root must be -1"),
        ({"root": 1.5}, "root must be an integer"),
        ({"root": 0, "num_clusters": 2}, "num_clusters must be 1 when a root is given"),
        ({"num_clusters": -1}, r"num_clusters must be an integer in \[0, 2\*\*63\), got -1"),
        ({"num_clusters": 2**64 + 1}, r"num_clusters must be an integer in \[0, 2\*\*63\)"),
        ({"num_clusters": True}, "num_clusters must be an integer"),
        ({"eps": -1e-6}, "eps must be finite and >= 0"),
        ({"eps": np.nan}, "eps must be finite and >= 0"),
        ({"eps": "x"}, "eps must be a float"),
    ],
)
def test_pcst_rejects_bad_input(kwargs: dict[str, Any], match: str) -> None:
    args: dict[str, Any] = {
        "edges": [(0, 1), (1, 2)],
        "prizes": [1.0, 2.0, 3.0],
        "costs": [1.0, 1.0],
    }
    args.update(kwargs)
    with pytest.raises(InvalidParameterError, match=match) as info:
        gs.pcst(**args)
    assert isinstance(info.value, ValueError)


def test_pcst_binding_validates_too() -> None:
    """The Rust function checks what the wrapper checks (for callers of the private module)."""
    from graphsparse import _graphsparse as rs

    e = np.array([[0, 1]], dtype=np.int64)
    one = np.ones(1)
    two = np.ones(2)
    bad = [
        (e, np.array([1.0, np.nan]), one, -1, 1, "gw", "prizes\\[1\\] is not finite"),
        (e, np.array([1.0, -1.0]), one, -1, 1, "gw", "prizes\\[1\\] is negative"),
        (e, two, np.array([-1.0]), -1, 1, "gw", "costs\\[0\\] is negative"),
        (e, two, np.array([np.inf]), -1, 1, "gw", "costs\\[0\\] is not finite"),
        (e, two, two, -1, 1, "gw", "costs has length 2"),
        (np.array([[0, 2]]), two, one, -1, 1, "gw", "out of range for 2 nodes"),
        (np.array([[0, -1]]), two, one, -1, 1, "gw", "negative endpoint"),
        (np.array([[0, 1, 1]]), two, one, -1, 1, "gw", "shape"),
        (e, two, one, 5, 1, "gw", "root 5 is out of range"),
        (e, two, one, -3, 1, "gw", "root must be -1"),
        (e, two, one, 0, 2, "gw", "num_clusters must be 1"),
        (e, two, one, -1, -2, "gw", "num_clusters must be >= 0"),
        (e, two, one, -1, 1, "Strong", "unknown pruning"),
        (e, np.array([1e308, 1e308]), one, -1, 1, "gw", "too large"),
    ]
    for edges, prizes, costs, root, k, pruning, match in bad:
        with pytest.raises(InvalidParameterError, match=match):
            rs.pcst(edges, prizes, costs, root, k, pruning, 1e-6)
    with pytest.raises(InvalidParameterError, match="eps"):
        rs.pcst(e, two, one, -1, 1, "gw", -1.0)


def test_pcst_is_thread_safe_and_deterministic() -> None:
    rng = np.random.default_rng(7)
    edges = grid(40, 40)
    prizes = rng.standard_normal(1600) ** 2
    costs = np.ones(len(edges))
    want = [a.tolist() for a in gs.pcst(edges, prizes, costs)]
    results: list[list[list[int]]] = []

    def work() -> None:
        for _ in range(5):
            results.append([a.tolist() for a in gs.pcst(edges, prizes, costs)])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 20 and all(r == want for r in results)
