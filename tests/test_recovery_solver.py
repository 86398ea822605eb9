"""The ``solver`` parameter of the graph model: ``"auto"`` picks by size, the Anderson-accelerated
solver, the semismooth Newton solver and adaptive PDHG certify the same optimum (against each other
and against CVXPY), and bad values raise errors that name the parameter."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsparse.exceptions import InvalidParameterError, TruncatedSearchWarning
from graphsparse.recovery import (
    GraphStructuredClassifier,
    GraphStructuredRecovery,
    lambda_max,
    recovery_path,
)
from graphsparse.testing.reference import recovery as ref

cp = pytest.importorskip("cvxpy")


def _instance(seed: int, n: int, j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    g = nx.random_regular_graph(3, n, seed=seed)
    a = rng.standard_normal((j, n))
    x = np.zeros(n)
    x[: n // 3] = rng.standard_normal(n // 3)
    return a, a @ x + 0.05 * rng.standard_normal(j), np.array(g.edges())


def _expected(n_features: int, n_samples: int, n_edges: int, stored: int) -> str:
    """The documented rule: Anderson when 10·(2N + J + m) is at most one product with X."""
    return "anderson" if 10 * (2 * n_features + n_samples + n_edges) <= stored else "pdhg"


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.sampled_from([10, 16, 40, 60, 100]),
    ratio=st.sampled_from([0.5, 0.7, 1.5]),
    sparse=st.booleans(),
)
def test_auto_picks_by_size(seed: int, n: int, ratio: float, sparse: bool) -> None:
    j = max(2, int(ratio * n))
    a, y, edges = _instance(seed, n, j)
    if sparse:
        # about a fifth of the entries stored
        a = sp.random(j, n, density=0.2, random_state=seed, format="csr")
        a.data = np.random.default_rng(seed).standard_normal(a.nnz)
        y = a @ np.r_[np.ones(n // 3), np.zeros(n - n // 3)]
    stored = a.nnz if sparse else a.size
    model = GraphStructuredRecovery(edges, alpha=1.0, lambda_=0.5, max_iter=50_000).fit(a, y)
    assert model.solver_ == _expected(n, j, len(edges), stored)
    assert model.converged_
    # an explicit solver is kept as asked (10 iterations: a truncation warning or not)
    for name in ("pdhg", "anderson", "kk", "pdhg-fixed", "ssnal"):
        fixed = GraphStructuredRecovery(edges, alpha=1.0, lambda_=0.5, solver=name, max_iter=10)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", TruncatedSearchWarning)
            fixed.fit(a, y)
        assert fixed.solver_ == name


def test_auto_takes_pdhg_for_alpha_zero_and_anderson_for_the_papers_shape() -> None:
    a, y, edges = _instance(1, 100, 70)
    assert GraphStructuredRecovery(edges, alpha=0.0, lambda_=0.5).fit(a, y).solver_ == "pdhg"
    assert GraphStructuredRecovery(edges, alpha=2.0, lambda_=0.5).fit(a, y).solver_ == "anderson"
    # the classifier shares the rule (its intercept column is one more feature)
    labels = np.where(y > 0, 1, 0)
    clf = GraphStructuredClassifier(edges, alpha=2.0, lambda_=0.5).fit(a, labels)
    assert clf.solver_ == _expected(101, 70, len(edges), 70 * 101)
    assert clf.converged_


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    alpha=st.sampled_from([0.3, 1.0, 4.0]),
    rho=st.sampled_from([0.05, 0.2, 0.6]),
    loss=st.sampled_from(["squared", "absolute"]),
    form=st.sampled_from(["budget", "lagrangian"]),
)
def test_anderson_and_pdhg_agree_within_the_gap(
    seed: int, alpha: float, rho: float, loss: str, form: str
) -> None:
    a, y, edges = _instance(seed, 30, 21)
    lam = rho * lambda_max(a, y, edges, alpha, loss=loss)
    fits = {
        name: GraphStructuredRecovery(
            edges, alpha=alpha, lambda_=lam, loss=loss, penalty_form=form, solver=name, tol=1e-8
        ).fit(a, y)
        for name in ("anderson", "pdhg")
    }
    for m in fits.values():
        assert m.converged_ and m.history_["gap"][-1] <= 1e-8
    p, q = fits["anderson"], fits["pdhg"]
    slack = 1e-12 * max(abs(p.objective_), 1.0)
    # weak duality across the two solves, and the objectives within the larger certificate
    assert p.objective_ >= q.history_["dual_objective"][-1] - slack
    assert q.objective_ >= p.history_["dual_objective"][-1] - slack
    assert abs(p.objective_ - q.objective_) <= max(p.dual_gap_, q.dual_gap_) + slack
    if loss == "squared" and form == "budget":
        # both within their certificate of CVXPY's optimum (Clarabel at 1e-10)
        _, _, want = ref.cvxpy_graph_recovery(a, y, edges, alpha, lam)
        for m in (p, q):
            assert m.objective_ - want <= m.dual_gap_ + 1e-7 * abs(want)
            assert m.objective_ >= want - 1e-7 * abs(want)


@pytest.mark.parametrize("seed", [3, 11])
def test_anderson_on_dense_and_sparse_x_certifies_the_same_optimum(seed: int) -> None:
    # a dense X goes through a column-major copy whose products skip the zeros of the iterate;
    # the same X in CSR form does not: both must certify CVXPY's optimum, and the dense solve
    # gives the same bits on one thread and on two
    a, y, edges = _instance(seed, 60, 42)
    alpha = 2.0
    # at 0.3·λ_max about half of the 60 features are nonzero
    lam = 0.3 * lambda_max(a, y, edges, alpha)

    def fit(x: object, n_jobs: int) -> GraphStructuredRecovery:
        return GraphStructuredRecovery(
            edges, alpha=alpha, lambda_=lam, solver="anderson", tol=1e-9, n_jobs=n_jobs
        ).fit(x, y)

    dense, csr, dense2 = fit(a, 1), fit(sp.csr_array(a), 1), fit(a, 2)
    _, _, want = ref.cvxpy_graph_recovery(a, y, edges, alpha, lam)
    for m in (dense, csr):
        assert m.converged_ and m.history_["gap"][-1] <= 1e-9
        assert 0.0 < np.count_nonzero(m.coef_) < a.shape[1]
        assert m.objective_ - want <= m.dual_gap_ + 1e-7 * abs(want)
        assert m.objective_ >= want - 1e-7 * abs(want)
    assert abs(dense.objective_ - csr.objective_) <= max(dense.dual_gap_, csr.dual_gap_) + 1e-12
    np.testing.assert_array_equal(dense.coef_, dense2.coef_)
    assert dense.n_iter_ == dense2.n_iter_


def test_path_with_auto_matches_pdhg() -> None:
    a, y, edges = _instance(4, 100, 70)
    auto = recovery_path(a, y, edges, 2.0, n_lambdas=6, eps=0.05, tol=1e-8)
    pdhg = recovery_path(a, y, edges, 2.0, n_lambdas=6, eps=0.05, tol=1e-8, solver="pdhg")
    np.testing.assert_allclose(auto.lambdas, pdhg.lambdas)
    np.testing.assert_allclose(auto.coefs, pdhg.coefs, rtol=0, atol=1e-3)


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    alpha=st.sampled_from([0.3, 1.0, 4.0]),
    rho=st.sampled_from([0.05, 0.2, 0.6]),
    form=st.sampled_from(["budget", "lagrangian"]),
    sparse=st.booleans(),
)
def test_ssnal_certifies_the_optimum_of_anderson_and_pdhg(
    seed: int, alpha: float, rho: float, form: str, sparse: bool
) -> None:
    a, y, edges = _instance(seed, 30, 21)
    lam = rho * lambda_max(a, y, edges, alpha)
    x = sp.csr_matrix(a) if sparse else a
    fits = {
        name: GraphStructuredRecovery(
            edges, alpha=alpha, lambda_=lam, penalty_form=form, solver=name, tol=1e-8
        ).fit(x, y)
        for name in ("ssnal", "anderson", "pdhg")
    }
    for m in fits.values():
        assert m.converged_ and m.history_["gap"][-1] <= 1e-8
    s = fits["ssnal"]
    assert s.solver_ == "ssnal"
    for q in (fits["anderson"], fits["pdhg"]):
        slack = 1e-12 * max(abs(s.objective_), 1.0)
        # weak duality both ways, and the objectives within the larger certificate
        assert s.objective_ >= q.history_["dual_objective"][-1] - slack
        assert q.objective_ >= s.history_["dual_objective"][-1] - slack
        assert abs(s.objective_ - q.objective_) <= max(s.dual_gap_, q.dual_gap_) + slack
    if form == "budget":
        # the certificate is a true gap: CVXPY's optimum (Clarabel at 1e-10) lies in it
        _, _, want = ref.cvxpy_graph_recovery(a, y, edges, alpha, lam)
        assert s.objective_ - want <= s.dual_gap_ + 1e-7 * abs(want)
        assert s.objective_ >= want - 1e-7 * abs(want)
        assert s.history_["dual_objective"][-1] <= want + 1e-7 * abs(want)


def test_ssnal_is_for_the_squared_loss_and_the_graph_model() -> None:
    a, y, edges = _instance(3, 12, 9)
    with pytest.raises(InvalidParameterError, match="loss"):
        GraphStructuredRecovery(edges, alpha=1.0, lambda_=0.5, loss="absolute", solver="ssnal").fit(
            a, y
        )
    with pytest.raises(InvalidParameterError, match="loss"):
        GraphStructuredClassifier(edges, alpha=1.0, lambda_=0.5, solver="ssnal").fit(
            a, np.where(y > 0, 1, 0)
        )
    # alpha = 0 (budget form) is the component group lasso, solved by PDHG whatever was asked
    m = GraphStructuredRecovery(edges, alpha=0.0, lambda_=0.5, solver="ssnal").fit(a, y)
    assert m.solver_ == "pdhg" and m.converged_
    path = recovery_path(a, y, edges, 1.0, n_lambdas=4, eps=0.1, solver="ssnal", tol=1e-8)
    pdhg = recovery_path(a, y, edges, 1.0, n_lambdas=4, eps=0.1, solver="pdhg", tol=1e-8)
    np.testing.assert_allclose(path.coefs, pdhg.coefs, rtol=0, atol=1e-3)


@pytest.mark.parametrize("bad", ["newton", "Anderson", "", "SSNAL", 3, None, 1.5])
def test_bad_solver_values_raise_errors_naming_solver(bad: object) -> None:
    a, y, edges = _instance(2, 12, 9)
    with pytest.raises(InvalidParameterError, match="solver"):
        GraphStructuredRecovery(edges, alpha=1.0, lambda_=0.5, solver=bad).fit(a, y)
    with pytest.raises(InvalidParameterError, match="solver"):
        recovery_path(a, y, edges, 1.0, n_lambdas=2, solver=bad)


def test_anderson_is_for_the_graph_model_only() -> None:
    from graphsparse import _graphsparse as rs

    a, y, _ = _instance(2, 12, 9)
    params = {
        "alpha": 0.0,
        "loss": "squared",
        "penalty_form": "budget",
        "solver": "anderson",
        "gamma": None,
        "tol": 1e-6,
        "max_iter": 100,
        "check_every": 10,
        "op_norm": None,
        "diff_norm": None,
        "step_ratio": 1.0,
        "max_nodes": None,
        "time_limit": None,
        "lambda_": 0.5,
    }
    with pytest.raises(InvalidParameterError, match="solver"):
        rs.recovery_solve("lasso", np.ascontiguousarray(a), y, params, n_threads=1)
