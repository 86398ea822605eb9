"""The references of the recovery area checked against each other and against closed forms,
plus the experiment generator and the NMSE metric (pure Python).

These are what the binding's tests will compare with; each identity below is one the paper or
the spec proves (P3, P4, P5, the prox's cases, the parabola identity).
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphsparse.datasets import make_graph_structured_recovery
from graphsparse.exceptions import InvalidParameterError
from graphsparse.metrics import nmse
from graphsparse.testing.reference import recovery as ref

cp = pytest.importorskip("cvxpy")

finite = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)
positive = st.floats(1e-3, 1e3, allow_nan=False, allow_infinity=False)


# ------------------------------------------------------------------------------ perspective prox


@given(finite, finite, positive)
def test_bisection_prox_solves_the_two_dimensional_problem(
    x: float, sigma: float, c: float
) -> None:
    a, b = ref.prox_perspective_bisection(x, sigma, c)
    assert b >= 0.0 and abs(a) <= abs(x)

    def obj(p: float, q: float) -> float:
        return c * ref.perspective(p, q) + 0.5 * (p - x) ** 2 + 0.5 * (q - sigma) ** 2

    best = obj(a, b)
    scale = max(abs(x), abs(sigma), c)
    for da, db in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)]:
        for h in (1e-3, 1e-6):
            q = max(b + h * scale * db, 0.0)
            assert best <= obj(a + h * scale * da, q) + 1e-12 * scale * scale


@given(finite, finite, positive)
def test_paper_cardano_agrees_with_the_bisection_on_moderate_inputs(
    x: float, sigma: float, c: float
) -> None:
    lit = ref.prox_perspective_cardano(x, sigma, c)
    bis = ref.prox_perspective_bisection(x, sigma, c)
    scale = max(abs(x), abs(sigma), c)
    assert abs(lit[0] - bis[0]) <= 1e-6 * scale
    assert abs(lit[1] - bis[1]) <= 1e-6 * scale


@given(finite, finite, positive)
def test_parabola_identity_in_cases_two_and_three(x: float, sigma: float, c: float) -> None:
    a, b = ref.prox_perspective_bisection(x, sigma, c)
    v, s = (x - a) / c, (sigma - b) / c
    if b > 0:
        assert v * v + 2 * s == pytest.approx(1.0, rel=1e-6, abs=1e-6 * (1 + abs(s)))
    else:
        assert v * v + 2 * s <= 1.0 + 1e-9 * (1 + abs(s))


# ------------------------------------------------------------------------------ the penalty


def _cycle(n: int) -> np.ndarray:
    return np.array([(i, (i + 1) % n) for i in range(n)])


def test_cvxpy_penalty_closed_forms() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(8)
    # P3: α = 0 on a connected graph is √N ‖x‖₂; on a disconnected one Σ_c √|c| ‖x_c‖₂
    val, sigma = ref.cvxpy_penalty(x, _cycle(8), 0.0)
    assert val == pytest.approx(math.sqrt(8) * np.linalg.norm(x), rel=1e-7)
    assert np.ptp(sigma) < 1e-6
    two = np.array([(0, 1), (1, 2), (3, 4), (4, 5), (5, 6)])
    assert ref.cvxpy_penalty(x, two, 0.0)[0] == pytest.approx(ref.psi_zero(x, two), rel=1e-7)
    # P4: no edges gives l1 for every α
    for alpha in (0.0, 1.0):
        assert ref.cvxpy_penalty(x, np.empty((0, 2)), alpha)[0] == pytest.approx(
            np.abs(x).sum(), rel=1e-7
        )
    # P5: l1 exactly when ‖W D |x|‖₁ ≤ α, strictly more just below
    w = rng.uniform(0.5, 2.0, 8)
    tv = np.abs(ref.difference_matrix(8, _cycle(8), w) @ np.abs(x)).sum()
    assert ref.cvxpy_penalty(x, _cycle(8), tv, w)[0] == pytest.approx(np.abs(x).sum(), rel=1e-7)
    assert ref.cvxpy_penalty(x, _cycle(8), 0.8 * tv, w)[0] > np.abs(x).sum() * (1 + 1e-6)


def test_edgeless_model_equals_the_cvxpy_lasso_and_scikit_learn() -> None:
    from sklearn.linear_model import Lasso

    rng = np.random.default_rng(1)
    a = rng.standard_normal((30, 10))
    y = a @ rng.standard_normal(10) + 0.1 * rng.standard_normal(30)
    lam = 0.2 * np.max(np.abs(a.T @ y))
    x_graph, _, obj_graph = ref.cvxpy_graph_recovery(a, y, np.empty((0, 2)), 1.0, lam)
    x_lasso, obj_lasso = ref.cvxpy_lasso(a, y, lam)
    assert obj_graph == pytest.approx(obj_lasso, rel=1e-7)
    # scikit-learn minimises (1/(2J))‖y − Ax‖² + α‖x‖₁: α = λ/J
    sk = Lasso(alpha=lam / 30, fit_intercept=False, tol=1e-12, max_iter=100_000).fit(a, y)
    np.testing.assert_allclose(x_lasso, sk.coef_, atol=1e-5)
    np.testing.assert_allclose(x_graph, sk.coef_, atol=1e-5)


def test_lambda_max_gives_zero_for_the_cvxpy_model() -> None:
    rng = np.random.default_rng(2)
    g = nx.random_regular_graph(3, 12, seed=3)
    edges = np.array(g.edges())
    a = rng.standard_normal((8, 12))
    y = rng.standard_normal(8)
    for alpha in (0.0, 2.0):
        top = ref.lambda_max(a, y, edges, alpha)
        above = ref.cvxpy_graph_recovery(a, y, edges, alpha, 1.01 * top)[0]
        below = ref.cvxpy_graph_recovery(a, y, edges, alpha, 0.9 * top)[0]
        assert np.abs(above).max() < 1e-6
        assert np.abs(below).max() > 1e-3


def test_latent_group_lasso_with_singletons_is_the_lasso() -> None:
    rng = np.random.default_rng(4)
    a = rng.standard_normal((15, 6))
    y = rng.standard_normal(15)
    lam = 0.3 * np.max(np.abs(a.T @ y))
    x1, o1 = ref.cvxpy_latent_group_lasso(a, y, [[i] for i in range(6)], lam, np.ones(6))
    x2, o2 = ref.cvxpy_lasso(a, y, lam)
    assert o1 == pytest.approx(o2, rel=1e-7)
    np.testing.assert_allclose(x1, x2, atol=1e-6)
    groups = ref.neighbourhood_groups(4, [(0, 1), (1, 2), (2, 3)])
    assert groups == [[0, 1], [0, 1, 2], [1, 2, 3], [2, 3]]


def test_lagrangian_form_equals_the_budget_form_at_the_solution_total_variation() -> None:
    rng = np.random.default_rng(6)
    edges = _cycle(10)
    a = rng.standard_normal((12, 10))
    y = a @ rng.standard_normal(10)
    lam, beta = 0.5, 0.1
    x1, s1, o1 = ref.cvxpy_graph_recovery(a, y, edges, beta, lam, form="lagrangian")
    alpha = float(np.abs(ref.difference_matrix(10, edges) @ s1).sum())
    x2, _, o2 = ref.cvxpy_graph_recovery(a, y, edges, alpha, lam)
    assert o2 == pytest.approx(o1 - lam * beta * alpha, rel=1e-6)
    np.testing.assert_allclose(x1, x2, atol=1e-5)


@pytest.mark.parametrize("loss", ref.LOSSES)
def test_graph_objective_recomputes_the_cvxpy_optimum(loss: str) -> None:
    rng = np.random.default_rng(5)
    edges = _cycle(10)
    a = rng.standard_normal((12, 10))
    y = a @ rng.standard_normal(10)
    if loss in ("logistic", "hinge"):
        y = np.where(y >= 0, 1.0, -1.0)
    x, _, obj = ref.cvxpy_graph_recovery(a, y, edges, 1.0, 0.5, loss)
    assert ref.graph_objective(a, y, x, edges, 1.0, 0.5, loss) == pytest.approx(obj, rel=1e-6)


# ------------------------------------------------------------------------------ the generator


@pytest.mark.parametrize("growth", ["neighbours", "single"])
def test_generator_follows_the_protocol(growth: str) -> None:
    p = make_graph_structured_recovery(random_state=3, growth=growth)
    a, y, x, edges, supports = p
    assert a.shape == (350, 500) and y.shape == (350,) and x.shape == (500,)
    g = nx.Graph()
    g.add_nodes_from(range(500))
    g.add_edges_from(edges.tolist())
    assert nx.is_connected(g) and all(d == 3 for _, d in g.degree())
    assert len(supports) == 2
    assert all(1 <= len(s) <= 149 for s in supports)
    assert sum(len(s) for s in supports) == 150
    assert not set(supports[0].tolist()) & set(supports[1].tolist())
    assert all(nx.is_connected(g.subgraph(s.tolist())) for s in supports)
    assert np.array_equal(np.flatnonzero(x), np.sort(np.concatenate(supports)))
    again = make_graph_structured_recovery(random_state=3, growth=growth)
    for u, v in zip(p[:4], again[:4], strict=True):
        np.testing.assert_array_equal(u, v)


def test_generator_snr_matches_the_target_on_average() -> None:
    ratios = []
    for seed in range(40):
        a, y, x, _, _ = make_graph_structured_recovery(
            n_nodes=100, n_measurements=400, support_size=20, snr_db=10.0, random_state=seed
        )
        clean = a @ x
        ratios.append((clean @ clean) / ((y - clean) @ (y - clean)))
    # E‖Ax‖²/E‖ε‖² = 10: the mean of per-draw ratios is within a few per cent of it
    assert np.mean(ratios) == pytest.approx(10.0, rel=0.03)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"n_nodes": 0},
        {"degree": 3, "n_nodes": 11},
        {"support_size": 501},
        {"n_subgraphs": 0},
        {"snr_db": float("nan")},
        {"snr_db": -1e308},  # the noise variance overflows
        {"degree": 1, "n_nodes": 10},  # a perfect matching is never connected
        {"random_state": -1},
        {"random_state": 0.5},
        {"growth": "bfs"},
        {"snr_mode": "db"},
        {"n_measurements": True},
    ],
)
def test_generator_rejects_bad_arguments_by_name(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidParameterError, match=next(iter(kwargs))):
        make_graph_structured_recovery(**kwargs)  # type: ignore[arg-type]


def test_nmse() -> None:
    assert nmse([1.0, -2.0, 0.0], [1.0, -1.0, 0.0]) == pytest.approx(0.2)
    assert nmse([3.0, 4.0], [0.0, 0.0]) == 1.0
    assert ref.nmse([3.0, 4.0], [3.0, 4.0]) == nmse([3.0, 4.0], [3.0, 4.0]) == 0.0
    for bad in ([0.0, 0.0], [np.nan, 1.0]):
        with pytest.raises(InvalidParameterError, match="x_true"):
            nmse(bad, [1.0, 1.0])
    with pytest.raises(InvalidParameterError, match="same length"):
        nmse([1.0], [1.0, 2.0])
