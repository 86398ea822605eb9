"""graphsparse.recovery as scikit-learn estimators: check_estimator, the classifier, intercepts,
warm starts, the λ path and model selection."""

from __future__ import annotations

import pickle
import time
import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.linear_model import Lasso
from sklearn.model_selection import GridSearchCV
from sklearn.utils.estimator_checks import parametrize_with_checks

from graphsparse.datasets import make_graph_structured_recovery
from graphsparse.exceptions import InvalidParameterError
from graphsparse.recovery import (
    GraphIHT,
    GraphStructuredClassifier,
    GraphStructuredRecovery,
    LatentGroupLasso,
    lambda_max,
    recovery_path,
)
from graphsparse.testing.reference import recovery as ref

from .test_gspan_binding import ctrl_c_after

# No check is skipped: every estimator passes all of scikit-learn's checks.


@parametrize_with_checks(
    [
        GraphStructuredRecovery(tol=1e-8),
        GraphStructuredClassifier(tol=1e-8),
        GraphStructuredClassifier(loss="hinge", tol=1e-8),
        LatentGroupLasso(tol=1e-8),
        GraphIHT(),
    ],
)
def test_scikit_learn_conventions(estimator: object, check: object) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)  # type: ignore[operator]


def _classification(
    seed: int, n: int = 120, p: int = 15
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    edges = np.array([(i, i + 1) for i in range(p - 1)])
    w = np.zeros(p)
    w[3:7] = [2.0, -1.5, 1.0, 2.5]
    x = rng.standard_normal((n, p))
    return x, np.where(x @ w + 0.7 + 0.3 * rng.standard_normal(n) > 0, "pos", "neg"), edges


@pytest.mark.parametrize("loss", ["logistic", "hinge"])
def test_classifier_objective_matches_cvxpy(loss: str) -> None:
    x, labels, edges = _classification(1, n=40, p=8)
    t = np.where(labels == "pos", 1.0, -1.0)
    clf = GraphStructuredClassifier(edges, alpha=0.7, lambda_=1.5, loss=loss, fit_intercept=False)
    clf.fit(x, labels)
    assert clf.converged_ and clf.classes_.tolist() == ["neg", "pos"]
    _, _, best = ref.cvxpy_graph_recovery(x, t, edges, 0.7, 1.5, loss=loss)
    ours = ref.graph_objective(x, t, clf.coef_, edges, 0.7, 1.5, loss=loss)
    assert ours == pytest.approx(best, rel=1e-6, abs=1e-7)


def test_classifier_intercept_is_an_isolated_vertex_of_the_graph() -> None:
    x, labels, edges = _classification(2, n=40, p=8)
    t = np.where(labels == "pos", 1.0, -1.0)
    s = 10.0
    clf = GraphStructuredClassifier(edges, alpha=0.7, lambda_=1.5, intercept_scaling=s).fit(
        x, labels
    )
    # the same problem with the constant column written out by hand
    xa = np.hstack([x, np.full((40, 1), s)])
    _, _, best = ref.cvxpy_graph_recovery(xa, t, edges, 0.7, 1.5, loss="logistic")
    wa = np.r_[clf.coef_, clf.intercept_ / s]
    assert ref.graph_objective(xa, t, wa, edges, 0.7, 1.5, loss="logistic") == pytest.approx(
        best, rel=1e-6, abs=1e-7
    )
    assert clf.intercept_ != 0.0


def test_classifier_api() -> None:
    x, labels, edges = _classification(3)
    clf = GraphStructuredClassifier(edges, alpha=1.0, lambda_=2.0).fit(x, labels)
    assert clf.score(x, labels) > 0.9
    proba = clf.predict_proba(x)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(clf.classes_[proba.argmax(axis=1)], clf.predict(x))
    np.testing.assert_allclose(np.exp(clf.predict_log_proba(x)), proba, rtol=1e-12)
    assert set(np.flatnonzero(clf.coef_)) <= set(range(15))
    assert clf.coef_.shape == clf.sigma_.shape == (15,)
    # sparse X gives the same fit
    sparse = GraphStructuredClassifier(edges, alpha=1.0, lambda_=2.0).fit(sp.csr_array(x), labels)
    np.testing.assert_allclose(sparse.coef_, clf.coef_, atol=1e-6)
    hinge = GraphStructuredClassifier(edges, alpha=1.0, lambda_=2.0, loss="hinge")
    assert not hasattr(hinge, "predict_proba")
    assert hinge.fit(x, labels).score(x, labels) > 0.9
    again = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(again.decision_function(x), clf.decision_function(x))
    # booleans and integers are labels like any other
    b = GraphStructuredClassifier(edges, alpha=1.0, lambda_=2.0).fit(x, labels == "pos")
    assert b.classes_.tolist() == [False, True]


@pytest.mark.parametrize("n_classes", [1, 3])
def test_classifier_needs_two_classes(n_classes: int) -> None:
    x, _, edges = _classification(4, n=30)
    with pytest.raises(InvalidParameterError, match="two classes"):
        GraphStructuredClassifier(edges).fit(x, np.arange(30) % n_classes)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"loss": "squared"}, "loss"),
        ({"intercept_scaling": 0.0}, "intercept_scaling"),
        ({"fit_intercept": "yes"}, r"^fit_intercept must be a bool, got 'yes'$"),
    ],
)
def test_classifier_bad_parameters(kwargs: dict, match: str) -> None:
    x, labels, edges = _classification(5, n=30)
    with pytest.raises(InvalidParameterError, match=match):
        GraphStructuredClassifier(edges, **kwargs).fit(x, labels)


def test_regressor_intercept_is_exact_centring() -> None:
    rng = np.random.default_rng(6)
    x = rng.standard_normal((30, 6)) + 2.0
    y = x @ np.r_[1.0, -1.0, 0, 0, 0, 0] + 5.0 + 0.1 * rng.standard_normal(30)
    m = GraphStructuredRecovery((), alpha=0.0, lambda_=3.0, fit_intercept=True, tol=1e-10)
    m.fit(x, y)
    # without edges the model is the lasso; scikit-learn's alpha is lambda_ / n
    sk = Lasso(alpha=3.0 / 30, tol=1e-12, max_iter=100_000).fit(x, y)
    np.testing.assert_allclose(m.coef_, sk.coef_, atol=1e-6)
    assert m.intercept_ == pytest.approx(sk.intercept_, abs=1e-6)
    with pytest.raises(InvalidParameterError, match="dense"):
        GraphStructuredRecovery(fit_intercept=True).fit(sp.csr_array(x), y)
    with pytest.raises(InvalidParameterError, match="squared"):
        GraphStructuredRecovery(fit_intercept=True, loss="absolute").fit(x, y)
    with pytest.raises(InvalidParameterError, match="loss"):
        GraphStructuredRecovery(loss="logistic").fit(x, y)
    with pytest.raises(InvalidParameterError, match=r"^fit_intercept must be a bool, got 1$"):
        GraphStructuredRecovery(fit_intercept=1).fit(x, y)


def test_absolute_loss_matches_cvxpy() -> None:
    rng = np.random.default_rng(7)
    g = nx.random_regular_graph(3, 10, seed=7)
    edges = np.array(g.edges())
    x = rng.standard_normal((12, 10))
    y = x[:, :3] @ np.ones(3) + 0.05 * rng.standard_normal(12)
    m = GraphStructuredRecovery(edges, alpha=0.5, lambda_=0.8, loss="absolute", tol=1e-8)
    m.fit(x, y)
    _, _, best = ref.cvxpy_graph_recovery(x, y, edges, 0.5, 0.8, loss="absolute")
    ours = ref.graph_objective(x, y, m.coef_, edges, 0.5, 0.8, loss="absolute")
    assert ours == pytest.approx(best, rel=1e-6, abs=1e-7)


def test_warm_start_resumes_from_the_previous_solution() -> None:
    p = ref_problem()
    a, y, edges = p
    top = lambda_max(a, y, edges, alpha=2.0)
    cold = GraphStructuredRecovery(edges, alpha=2.0, lambda_=0.05 * top, tol=1e-7).fit(a, y)
    warm = GraphStructuredRecovery(edges, alpha=2.0, lambda_=0.06 * top, tol=1e-7, warm_start=True)
    warm.fit(a, y)
    first = warm.n_iter_
    warm.set_params(lambda_=0.05 * top).fit(a, y)
    assert warm.n_iter_ < cold.n_iter_ and warm.n_iter_ <= first
    np.testing.assert_allclose(warm.coef_, cold.coef_, atol=1e-4)
    # a refit without warm_start ignores the stored state: identical to a fresh fit
    fresh = clone(cold).fit(a, y)
    np.testing.assert_array_equal(fresh.coef_, cold.coef_)
    # a different shape starts cold instead of failing
    warm.set_params(edges=edges[edges.max(axis=1) < a.shape[1] - 1]).fit(a[:, :-1], y)
    assert warm.coef_.shape == (a.shape[1] - 1,)


def ref_problem() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(8)
    g = nx.random_regular_graph(3, 30, seed=8)
    a = rng.standard_normal((20, 30))
    x = np.zeros(30)
    x[:6] = rng.standard_normal(6)
    return a, a @ x + 0.01 * rng.standard_normal(20), np.array(g.edges())


def test_path_agrees_with_single_solves_and_starts_at_zero() -> None:
    a, y, edges = ref_problem()
    path = recovery_path(a, y, edges, alpha=2.0, n_lambdas=8, eps=1e-2, tol=1e-8)
    assert path.coefs.shape == (8, 30) and np.all(np.diff(path.lambdas) < 0)
    assert np.all(path.coefs[0] == 0.0) and path.converged.all()
    for k in (3, 7):
        single = GraphStructuredRecovery(edges, alpha=2.0, lambda_=path.lambdas[k], tol=1e-8)
        single.fit(a, y)
        obj_path = ref.graph_objective(a, y, path.coefs[k], edges, 2.0, path.lambdas[k])
        obj_single = ref.graph_objective(a, y, single.coef_, edges, 2.0, path.lambdas[k])
        assert obj_path == pytest.approx(obj_single, rel=1e-6)
    with pytest.raises(InvalidParameterError, match="lambda"):
        recovery_path(a, y, edges, lambdas=[1.0, -1.0])
    with pytest.raises(InvalidParameterError, match="eps"):
        recovery_path(a, y, edges, eps=0.0)


def test_grid_search_selects_lambda_and_alpha() -> None:
    a, y, edges = ref_problem()
    top = lambda_max(a, y, edges, alpha=2.0)
    search = GridSearchCV(
        GraphStructuredRecovery(edges, tol=1e-6, warm_start=True),
        {"lambda_": [0.5 * top, 0.05 * top, 0.005 * top], "alpha": [0.5, 2.0]},
        cv=3,
    ).fit(a, y)
    assert search.best_params_["lambda_"] < 0.5 * top
    assert search.best_estimator_.coef_.shape == (30,)


def test_regressors_not_fitted_and_history() -> None:
    a, y, edges = ref_problem()
    for est in (GraphStructuredRecovery(edges), LatentGroupLasso(edges=edges), GraphIHT(edges)):
        with pytest.raises(NotFittedError):
            est.predict(a)
    m = GraphStructuredRecovery(edges, alpha=2.0, lambda_=1.0).fit(a, y)
    h = m.history_
    assert len(h["gap"]) == len(h["primal_residual"]) == len(h["dual_residual"]) >= 1
    assert h["gap"][-1] <= 1e-6
    # the certificate is absolute, in the objective's units; the relative gap is what tol bounds
    assert m.dual_gap_ == max(h["objective"][-1] - h["dual_objective"][-1], 0.0)
    scale = max(abs(h["objective"][-1]), abs(h["dual_objective"][-1]))
    assert m.dual_gap_ == pytest.approx(max(h["gap"][-1], 0.0) * scale, rel=1e-12, abs=1e-300)
    assert h["objective"][-1] == pytest.approx(m.objective_)


def test_path_warm_starts_are_not_slower_than_cold_starts() -> None:
    # Regression: warm starts that inherited the decayed step adaptation of the previous
    # solve hit max_iter at small lambda on the paper's instance (cold solves: < 4,000).
    p = make_graph_structured_recovery(
        n_nodes=200, n_measurements=140, support_size=60, random_state=3
    )
    path = recovery_path(p.A, p.y, p.edges, alpha=60.0, n_lambdas=10, eps=1e-4, max_iter=4000)
    assert path.converged.all()
    cold = [
        GraphStructuredRecovery(p.edges, alpha=60.0, lambda_=lam, max_iter=4000)
        .fit(p.A, p.y)
        .n_iter_
        for lam in path.lambdas
    ]
    assert path.n_iter.sum() <= 1.1 * sum(cold)


def test_object_and_list_inputs() -> None:
    a, y, edges = ref_problem()
    m = GraphStructuredRecovery(edges, alpha=2.0, lambda_=1.0).fit(a, y)
    obj = GraphStructuredRecovery(edges, alpha=2.0, lambda_=1.0).fit(a.astype(object), list(y))
    np.testing.assert_array_equal(obj.coef_, m.coef_)
    bad = a.astype(object)
    bad[0, 0] = {"foo": "bar"}
    # scikit-learn's own conversion error, as _validation.sklearn_data passes it on
    with pytest.raises(TypeError, match="argument must be"):
        GraphStructuredRecovery(edges).fit(bad, y)
    with pytest.raises(InvalidParameterError, match="Reshape"):
        GraphStructuredRecovery(edges).fit(a[0], y[:1])
    with pytest.raises(InvalidParameterError, match="requires y"):
        GraphStructuredRecovery(edges).fit(a, None)


@pytest.mark.parametrize(
    "make",
    [
        lambda e: GraphStructuredRecovery(e, alpha=2.0, lambda_=0.3),
        lambda e: LatentGroupLasso(edges=e, lambda_=0.3),
        lambda e: GraphIHT(e, sparsity=6),
    ],
)
def test_results_do_not_depend_on_the_thread_count(make: object) -> None:
    a, y, edges = ref_problem()
    one = make(edges).set_params(n_jobs=1).fit(sp.csr_array(a), y)  # type: ignore[operator]
    two = make(edges).set_params(n_jobs=2).fit(sp.csr_array(a), y)  # type: ignore[operator]
    np.testing.assert_array_equal(one.coef_, two.coef_)
    assert one.n_iter_ == two.n_iter_


def test_time_limit_stops_the_solve_with_a_warning() -> None:
    p = make_graph_structured_recovery(random_state=4)
    m = GraphStructuredRecovery(p.edges, alpha=150.0, lambda_=1e-3, tol=1e-14, time_limit=0.05)
    with pytest.warns(ConvergenceWarning, match="time"):
        m.fit(p.A, p.y)
    assert not m.converged_ and m.n_iter_ < 20_000
    with pytest.raises(InvalidParameterError, match="time_limit"):
        GraphStructuredRecovery(p.edges, time_limit=-1.0).fit(p.A, p.y)


@pytest.mark.timeout(60)
def test_ctrl_c_interrupts_a_long_solve() -> None:
    p = make_graph_structured_recovery(random_state=5)
    m = GraphStructuredRecovery(p.edges, alpha=150.0, lambda_=1e-4, tol=1e-15, max_iter=10**8)
    with ctrl_c_after(0.3) as timer:
        t0 = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            m.fit(p.A, p.y)
        timer.join()
        assert time.perf_counter() - t0 < 5.0
