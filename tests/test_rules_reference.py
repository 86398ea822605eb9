"""The rule ensembles against naive references: the gHKL primal over the full lattice solved
by CVXPY (the active set must reach its optimum, and the certified gap must bracket it),
thread-count independence, and bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsparse.exceptions import GraphSparseError, InvalidParameterError
from graphsparse.rules import RuleEnsembleClassifier, RuleEnsembleRegressor
from graphsparse.testing.reference.rules import ghkl_primal_cvxpy
from tests.test_api_hostile_values import HOSTILE

pytest.importorskip("cvxpy")


def _prop_matrix(model, X):
    """The fitted propositions evaluated on X by Condition.holds (the Python reading)."""
    cols = {f"x{j}": X[:, j] for j in range(X.shape[1])}
    out = np.zeros((X.shape[0], len(model.propositions_)), dtype=bool)
    for k, c in enumerate(model.propositions_):
        out[:, k] = [c.holds(v) for v in cols[c.feature]]
    return out


@st.composite
def _binary_tables(draw, n_classes=2):
    """0/1 numeric columns (each gives ``x <= t`` and ``x > t``: p = 2 * columns <= 6)."""
    m = draw(st.integers(6, 14))
    k = draw(st.integers(1, 3))
    bits = draw(st.lists(st.lists(st.booleans(), min_size=k, max_size=k), min_size=m, max_size=m))
    X = np.asarray(bits, dtype=float)
    labels = draw(st.lists(st.integers(0, n_classes - 1), min_size=m, max_size=m))
    y = np.asarray(labels)
    for c in range(n_classes):  # every class present
        y[c] = c
    return X, y


def _agree(model, optimum):
    # the model's primal is feasible (>= optimum) and its dual a lower bound (<= optimum);
    # both up to Clarabel's accuracy; the gap is what the fit certifies
    tol = 1e-5 * max(1.0, abs(optimum))
    assert model.primal_objective_ >= optimum - tol
    assert model.dual_objective_ <= optimum + tol
    assert model.primal_objective_ - optimum <= model.dual_gap_ + tol


@settings(max_examples=8)
@given(
    table=_binary_tables(),
    rho=st.sampled_from([2.0, 1.5, 1.1]),
    C=st.sampled_from([0.5, 2.0, 10.0]),
)
def test_binary_fit_reaches_the_full_lattice_optimum(table, rho, C):
    X, y = table
    model = RuleEnsembleClassifier(rho=rho, C=C, tol=1e-4, rule_threshold=0.0).fit(X, y)
    P = _prop_matrix(model, X)
    target = np.where(y == model.classes_[1], 1.0, -1.0)[None, :]
    optimum = ghkl_primal_cvxpy(P, target, C=C, rho=rho, a=2.0)
    _agree(model, optimum)
    assert model.dual_gap_ <= 2e-3 * max(1.0, optimum)


@settings(max_examples=5)
@given(table=_binary_tables(n_classes=3), rho=st.sampled_from([2.0, 1.5]))
def test_multiclass_ghkl_mt_reaches_the_full_lattice_optimum(table, rho):
    X, y = table
    model = RuleEnsembleClassifier(rho=rho, C=2.0, tol=1e-4, rule_threshold=0.0).fit(X, y)
    P = _prop_matrix(model, X)
    target = np.stack([np.where(y == c, 1.0, -1.0) for c in model.classes_])
    optimum = ghkl_primal_cvxpy(P, target, C=2.0, rho=rho, a=2.0)
    _agree(model, optimum)


@settings(max_examples=5)
@given(table=_binary_tables(), rho=st.sampled_from([2.0, 1.5, 1.1]))
def test_regressor_reaches_the_full_lattice_optimum(table, rho):
    X, labels = table
    y = labels + 0.25 * X[:, 0]
    model = RuleEnsembleRegressor(rho=rho, C=1.0, tol=1e-4, rule_threshold=0.0).fit(X, y)
    P = _prop_matrix(model, X)
    optimum = ghkl_primal_cvxpy(P, y[None, :], C=1.0, rho=rho, a=2.0, loss="squared")
    _agree(model, optimum)


def test_results_do_not_depend_on_thread_count(data_dir):
    from sklearn.model_selection import train_test_split

    from graphsparse.datasets._uci import load_uci

    data = load_uci("TIC", data_dir)
    X, _, y, _ = train_test_split(data.X, data.y, train_size=0.1, stratify=data.y, random_state=0)
    fits = [RuleEnsembleClassifier(C=1.0, n_jobs=n).fit(X, y) for n in (1, 2, 1)]
    for other in fits[1:]:
        assert [str(r) for r in other.rules_] == [str(r) for r in fits[0].rules_]
        np.testing.assert_array_equal(other.coef_, fits[0].coef_)
        np.testing.assert_array_equal(other.intercept_, fits[0].intercept_)
        assert other.dual_gap_ == fits[0].dual_gap_


def test_budget_truncates_with_a_flag_and_a_gap():
    from graphsparse.exceptions import TruncatedSearchWarning

    rng = np.random.default_rng(0)
    X = rng.uniform(size=(60, 4))
    y = (X[:, 0] + X[:, 1] > 1.0).astype(int)
    with pytest.warns(TruncatedSearchWarning, match="max_nodes"):
        model = RuleEnsembleClassifier(C=10.0, max_nodes=3).fit(X, y)
    assert model.truncated_ is True and model.truncation_ == "max_nodes"
    assert not model.converged_
    assert model.active_set_size_ <= 4 and np.isfinite(model.dual_gap_)
    full = RuleEnsembleClassifier(C=10.0).fit(X, y)
    assert full.dual_gap_ < model.dual_gap_


def test_time_limit_bounds_a_long_fit():
    """A fit stopped by its time limit returns within it plus the certificate's grace (a
    quarter of the limit): the scoring of candidate rules polls the clock too."""
    import time

    from graphsparse.exceptions import TruncatedSearchWarning

    rng = np.random.RandomState(0)
    X = rng.uniform(size=(300, 20))  # noise: without a budget this fit takes minutes
    y = rng.permutation(np.repeat(np.arange(4), 75))
    start = time.perf_counter()
    with pytest.warns(TruncatedSearchWarning, match="time_limit"):
        model = RuleEnsembleClassifier(C=10.0, max_nodes=None, time_limit=2.0).fit(X, y)
    # 2 s, a grace of 0.5 s, and the unpolled bookkeeping after it (slack for a loaded CI)
    assert time.perf_counter() - start < 10.0
    assert model.truncated_ is True and model.truncation_ == "time_limit"
    assert not model.converged_


X_OK = np.arange(24, dtype=float).reshape(12, 2)
Y_OK = np.array([0, 1] * 6)


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"rho": 2.5}, "rho"),
        ({"rho": 1.0}, "rho"),
        ({"C": 0.0}, "C"),
        ({"C": float("nan")}, "C"),
        ({"a": 1.0}, "a"),
        ({"n_cuts": 0}, "n_cuts"),
        ({"cut_rule": "median"}, "cut_rule"),
        ({"max_nodes": 0}, "max_nodes"),
        ({"time_limit": -1.0}, "time_limit"),
        ({"tol": "small"}, "tol"),
        ({"mu": -1.0}, "mu"),
        ({"categorical_features": ["nope"]}, "categorical_features"),
    ],
)
def test_bad_parameters_name_the_argument(params, name):
    with pytest.raises(InvalidParameterError, match=name):
        RuleEnsembleClassifier(**params).fit(X_OK, Y_OK)


def test_bad_data_names_the_argument():
    with pytest.raises(InvalidParameterError, match="X"):
        RuleEnsembleClassifier().fit(np.where(X_OK > 20, np.inf, X_OK), Y_OK)
    with pytest.raises(InvalidParameterError, match="y"):
        RuleEnsembleClassifier().fit(X_OK, Y_OK[:-1])
    with pytest.raises(InvalidParameterError, match="one class"):
        RuleEnsembleClassifier().fit(X_OK, np.zeros(12))
    with pytest.raises(InvalidParameterError, match="y"):
        RuleEnsembleRegressor().fit(X_OK, np.full(12, np.nan))
    model = RuleEnsembleClassifier().fit(X_OK, Y_OK)
    with pytest.raises(InvalidParameterError, match="X"):
        model.predict(np.full((3, 2), -np.inf))
    # NaN is a missing value: it satisfies no proposition, so no rule fires on it
    assert model.transform(np.full((3, 2), np.nan)).nnz == 0


RULE_DEFAULTS = {
    "rho": 1.5,
    "C": 1.0,
    "a": 2.0,
    "n_cuts": 4,
    "tol": 1e-3,
    "max_iter": 50,
    "rule_threshold": 1e-3,
    "max_nodes": None,
    "time_limit": 5.0,
    "kernel_cache_bytes": 1 << 20,
    "n_jobs": 1,
    "mu": None,
}


@settings(max_examples=60)
@given(data=st.data())
def test_hostile_scalars_give_library_errors(data):
    key = data.draw(st.sampled_from(sorted(RULE_DEFAULTS)))
    value = data.draw(HOSTILE)
    if key == "max_iter" and isinstance(value, int) and value > 200:
        value = 200
    y3 = np.array([0, 1, 2] * 4)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            RuleEnsembleClassifier(**{**RULE_DEFAULTS, key: value}).fit(X_OK, y3)
    except GraphSparseError:
        pass
    except BaseException as exc:  # PanicException derives from BaseException
        pytest.fail(f"RuleEnsembleClassifier({key}={value!r}) raised {exc!r}")


def test_ctrl_c_stops_a_long_fit():
    import os
    import signal
    import threading
    import time

    rng = np.random.RandomState(0)
    X = rng.uniform(size=(300, 20))  # noise: without a budget this fit takes minutes
    y = rng.permutation(np.repeat(np.arange(4), 75))
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.perf_counter()
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            RuleEnsembleClassifier(C=10.0, max_nodes=None).fit(X, y)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)
    assert time.perf_counter() - start < 30.0
