"""graphsparse.recovery against the CVXPY references of graphsparse.testing.reference.recovery."""

from __future__ import annotations

import math
import pickle

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import Lasso

from graphsparse.datasets import make_graph_structured_recovery
from graphsparse.exceptions import InvalidGraphError, InvalidParameterError, TruncatedSearchWarning
from graphsparse.recovery import (
    GraphIHT,
    GraphStructuredRecovery,
    LatentGroupLasso,
    lambda_max,
    neighbourhood_groups,
    penalty,
    prox_perspective,
)
from graphsparse.testing.reference import recovery as ref

cp = pytest.importorskip("cvxpy")


def _instance(seed: int, n: int = 12, j: int = 9) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    g = nx.random_regular_graph(3, n, seed=seed)
    a = rng.standard_normal((j, n))
    x = np.zeros(n)
    x[: n // 3] = rng.standard_normal(n // 3)
    return a, a @ x + 0.05 * rng.standard_normal(j), np.array(g.edges())


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    alpha=st.sampled_from([0.0, 0.3, 1.0, 4.0]),
    rho=st.sampled_from([0.05, 0.2, 0.6]),
    weighted=st.booleans(),
)
def test_objective_matches_cvxpy(seed: int, alpha: float, rho: float, weighted: bool) -> None:
    a, y, edges = _instance(seed)
    w = np.random.default_rng(seed).uniform(0.5, 2.0, len(edges)) if weighted else None
    lam = rho * lambda_max(a, y, edges, alpha, w)
    model = GraphStructuredRecovery(edges, alpha=alpha, lambda_=lam, weights=w, tol=1e-9)
    model.fit(a, y)
    assert model.converged_
    _, _, want = ref.cvxpy_graph_recovery(a, y, edges, alpha, lam, weights=w)
    assert model.objective_ == pytest.approx(want, rel=1e-6)
    # the objective recomputed from coef_ alone
    got = ref.graph_objective(a, y, model.coef_, edges, alpha, lam, weights=w)
    assert got == pytest.approx(want, rel=1e-6)


@pytest.mark.parametrize("solver", ["pdhg", "pdhg-fixed", "kk", "anderson", "ssnal", "auto"])
def test_solvers_and_sparse_input_agree(solver: str) -> None:
    a, y, edges = _instance(3, n=16, j=12)
    lam = 0.1 * lambda_max(a, y, edges, 1.0)
    dense = GraphStructuredRecovery(edges, alpha=1.0, lambda_=lam, solver=solver, tol=1e-9)
    dense.fit(a, y)
    sparse = clone(dense).fit(sp.csr_matrix(a), y)
    # dense and CSR products add in different orders: equal up to rounding
    np.testing.assert_allclose(dense.coef_, sparse.coef_, rtol=0, atol=1e-8)
    _, _, want = ref.cvxpy_graph_recovery(a, y, edges, 1.0, lam)
    assert dense.objective_ == pytest.approx(want, rel=1e-6)


def test_lagrangian_form_matches_cvxpy() -> None:
    a, y, edges = _instance(5)
    m = GraphStructuredRecovery(edges, alpha=0.1, lambda_=0.5, penalty_form="lagrangian", tol=1e-9)
    m.fit(a, y)
    _, _, want = ref.cvxpy_graph_recovery(a, y, edges, 0.1, 0.5, form="lagrangian")
    assert m.objective_ == pytest.approx(want, rel=1e-6)


def test_special_cases_of_the_penalty_and_the_model() -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal(10)
    cycle = [(i, (i + 1) % 10) for i in range(10)]
    # alpha = 0 on a connected graph: √N ‖x‖₂; no edges: ‖x‖₁
    assert penalty(x, cycle, 0.0)[0] == pytest.approx(math.sqrt(10) * np.linalg.norm(x))
    assert penalty(x, [], 3.0)[0] == pytest.approx(np.abs(x).sum())
    val, _ = penalty(x, cycle, 1.0)
    assert val == pytest.approx(ref.cvxpy_penalty(x, cycle, 1.0)[0], rel=1e-7)
    # edgeless model = scikit-learn's Lasso with alpha = lambda_ / n_samples
    a = rng.standard_normal((30, 10))
    y = a @ x
    lam = 0.2 * lambda_max(a, y)
    m = GraphStructuredRecovery([], alpha=1.0, lambda_=lam, tol=1e-12, max_iter=200_000).fit(a, y)
    sk = Lasso(alpha=lam / 30, fit_intercept=False, tol=1e-12, max_iter=100_000).fit(a, y)
    np.testing.assert_allclose(m.coef_, sk.coef_, atol=1e-5)
    # λ ≥ λ_max gives exactly zero
    top = lambda_max(a, y, cycle, 0.5)
    m = GraphStructuredRecovery(cycle, alpha=0.5, lambda_=1.01 * top).fit(a, y)
    assert np.all(m.coef_ == 0.0)


@given(
    st.floats(-1e3, 1e3, allow_nan=False),
    st.floats(-1e3, 1e3, allow_nan=False),
    st.floats(1e-3, 1e3),
)
def test_prox_matches_the_bisection_reference(x: float, sigma: float, c: float) -> None:
    a, b = prox_perspective([x], [sigma], c)
    ra, rb = ref.prox_perspective_bisection(x, sigma, c)
    scale = max(abs(x), abs(sigma), c)
    assert abs(a[0] - ra) <= 1e-13 * scale and abs(b[0] - rb) <= 1e-13 * scale


def test_latent_group_lasso_matches_cvxpy() -> None:
    a, y, edges = _instance(7, n=10, j=14)
    groups = neighbourhood_groups(edges, 10)
    lam = 2.0
    m = LatentGroupLasso(edges=edges, lambda_=lam, tol=1e-10).fit(a, y)
    _, want = ref.cvxpy_latent_group_lasso(a, y, groups, lam)
    assert m.objective_ == pytest.approx(want, rel=1e-6)


def test_graph_iht_recovers_a_connected_support() -> None:
    rng = np.random.default_rng(2)
    edges = [(i, i + 1) for i in range(59)]
    a = rng.standard_normal((40, 60))
    x = np.zeros(60)
    x[20:26] = rng.standard_normal(6) + 2.0
    for method, atol in (("iht", 1e-2), ("cosamp", 1e-6)):
        m = GraphIHT(edges, sparsity=6, method=method, max_iter=200, tol=1e-10).fit(a, a @ x)
        assert m.support_.tolist() == list(range(20, 26))
        np.testing.assert_allclose(m.coef_, x, atol=atol)
    with pytest.raises(InvalidParameterError, match="method"):
        GraphIHT(edges, sparsity=6, method="omp").fit(a, a @ x)


def test_estimator_protocol() -> None:
    a, y, edges = _instance(9)
    m = GraphStructuredRecovery(edges, alpha=1.0, lambda_=0.5)
    with pytest.raises(NotFittedError):
        m.predict(a)
    assert clone(m).get_params()["lambda_"] == 0.5
    m.fit(a, y)
    again = pickle.loads(pickle.dumps(m))
    np.testing.assert_array_equal(again.predict(a), m.predict(a))
    assert m.sigma_.shape == (12,) and m.dual_gap_ == max(
        m.objective_ - m.history_["dual_objective"][-1], 0.0
    )
    with pytest.warns(Warning, match="max_iter"):
        GraphStructuredRecovery(edges, alpha=1.0, lambda_=0.01, max_iter=3).fit(a, y)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"lambda_": 0.0}, InvalidParameterError, "lambda"),
        ({"lambda_": float("nan")}, InvalidParameterError, "lambda"),
        ({"alpha": -1.0}, InvalidParameterError, "alpha"),
        ({"tol": 0.0}, InvalidParameterError, "tol"),
        ({"edges": [(0, 0)]}, InvalidGraphError, "self-loop"),
        ({"edges": [(0, 1), (1, 0)]}, InvalidGraphError, "duplicates"),
        ({"edges": [(0, 99)]}, InvalidGraphError, "out of range"),
        ({"edges": [(0, 1)], "weights": [-1.0]}, InvalidGraphError, "weight"),
        ({"solver": "newton"}, InvalidParameterError, "solver"),
        ({"penalty_form": "other"}, InvalidParameterError, "penalty_form"),
    ],
)
def test_bad_input_raises_named_errors(kwargs: dict, error: type, match: str) -> None:
    a, y, edges = _instance(11)
    params = {"edges": edges, "alpha": 1.0, "lambda_": 0.5, **kwargs}
    with pytest.raises(error, match=match):
        GraphStructuredRecovery(**params).fit(a, y)


def test_bad_data_raises_named_errors() -> None:
    a, y, edges = _instance(12)
    m = GraphStructuredRecovery(edges, alpha=1.0, lambda_=0.5)
    bad = a.copy()
    bad[1, 2] = np.nan
    with pytest.raises(InvalidParameterError, match="X contains NaN"):
        m.fit(bad, y)
    with pytest.raises(InvalidParameterError, match="inconsistent numbers of samples"):
        m.fit(a, y[:-1])
    with pytest.raises(InvalidParameterError, match="y"):
        m.fit(a, np.where(np.arange(len(y)) == 0, np.inf, y))
    # a column too few: the graph's last vertex is beyond X, and the message says so
    with pytest.raises(InvalidGraphError, match=r"X has 11 columns but edges\[\d+\]"):
        m.fit(a[:, :-1], y)


def test_penalty_warns_when_its_inner_solve_stops_above_tol() -> None:
    # found while writing the user guide: at tol=1e-9 the inner solve on a fitted estimate
    # (entries down to ~1e-9) ran out of iterations and the value came back inf, silently
    a, y, _, edges, _ = make_graph_structured_recovery(random_state=0)
    # the estimate of that finding: adaptive PDHG's (the default then; "auto" now runs Anderson
    # here, whose estimate the inner solve happens to finish at 1e-9)
    m = GraphStructuredRecovery(edges, alpha=150.0, lambda_=1.0, solver="pdhg").fit(a, y)
    with pytest.warns(TruncatedSearchWarning, match="max_iter.*upper bound"):
        loose, _ = penalty(m.coef_, edges, 150.0, tol=1e-9)
    value, sigma = penalty(m.coef_, edges, 150.0, tol=1e-7)  # converges: no warning
    assert np.isfinite(value) and value <= loose
    assert sigma.shape == m.coef_.shape and (sigma >= 0).all()
