"""scikit-learn conformance of the rule ensembles (``check_estimator`` through
``parametrize_with_checks``), and their use inside GridSearchCV, Pipeline and pickling."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils.estimator_checks import parametrize_with_checks

from graphsparse.exceptions import InvalidParameterError
from graphsparse.rules import RuleEnsembleClassifier, RuleEnsembleRegressor

# Checks that do not apply, and why (the README's rules section lists them too).
EXPECTED_FAILED = {
    # a dict in a numeric column must raise TypeError there; graphsparse raises its own
    # InvalidParameterError (a ValueError) naming the column, as for every bad input
    "check_dtype_object": "bad values raise graphsparse.exceptions errors (ValueError)",
}


def _expected(est):
    return EXPECTED_FAILED


# The checks fit on uniform noise with 10 numeric columns (80 propositions), where the
# active set grows to 10^5 nodes; a node budget keeps each fit short (truncated fits warn).
@pytest.mark.filterwarnings("ignore::graphsparse.exceptions.TruncatedSearchWarning")
@parametrize_with_checks(
    [RuleEnsembleClassifier(C=1.0, max_nodes=2000), RuleEnsembleRegressor(C=1.0, max_nodes=2000)],
    expected_failed_checks=_expected,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def _table(n=120, seed=0):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "petal_width": rng.uniform(0.0, 2.0, n),
            "colour": rng.choice(["red", "green", "blue"], n),
            "shiny": rng.choice([True, False], n),
        }
    )
    y = np.where((X["petal_width"] <= 0.8) & (X["colour"] == "red"), "setosa", "other")
    return X, y


def test_dataframe_rules_read_like_conditions():
    X, y = _table()
    model = RuleEnsembleClassifier(C=10.0).fit(X, y)
    assert list(model.feature_names_in_) == ["petal_width", "colour", "shiny"]
    assert model.score(X, y) >= 0.95
    assert model.n_rules_ == len(model.rules_) > 0
    text = [str(r) for r in model.rules_]
    assert any("colour == 'red'" in t for t in text)
    assert any(t.startswith("petal_width <= ") for t in text)
    # the text reads one condition per feature (merged); length counts the propositions
    assert all(r.length == len(r.conditions) >= 1 for r in model.rules_)
    assert all(len(r.merged_conditions) == str(r).count(" AND ") + 1 for r in model.rules_)
    # a rule's support is the number of training rows where transform says it fires
    A = model.transform(X)
    assert A.shape == (len(X), model.n_rules_)
    np.testing.assert_array_equal(
        np.asarray(A.sum(axis=0)).ravel(), [r.support for r in model.rules_]
    )
    # and each condition holds exactly where the rule fires
    for k, rule in enumerate(model.rules_[:5]):
        fires = np.ones(len(X), dtype=bool)
        for c in rule.conditions:
            fires &= np.array([c.holds(v) for v in X[c.feature]])
        np.testing.assert_array_equal(A[:, k].toarray().ravel() > 0, fires)
    # decision_function = A @ coef_ + intercept_
    np.testing.assert_allclose(
        model.decision_function(X), (A @ model.coef_)[:, 0] + model.intercept_[0]
    )
    assert model.dual_gap_ >= 0.0 and model.converged_ and model.truncated_ is False
    assert model.truncation_ is None


def test_unseen_and_missing_categories_do_not_fire():
    X, y = _table()
    model = RuleEnsembleClassifier(C=10.0).fit(X, y)
    X2 = X.copy()
    X2["colour"] = ["purple"] * len(X2)
    A = model.transform(X2)
    for k, rule in enumerate(model.rules_):
        if any(c.feature == "colour" for c in rule.conditions):
            assert A[:, k].nnz == 0
    X2["colour"] = [None] * len(X2)
    A2 = model.transform(X2)
    for k, rule in enumerate(model.rules_):
        if any(c.feature == "colour" for c in rule.conditions):
            assert A2[:, k].nnz == 0
    assert len(model.predict(X2)) == len(X2)


def test_categorical_features_by_name_and_index():
    rng = np.random.default_rng(1)
    X = np.column_stack([rng.integers(0, 3, 90), rng.uniform(size=90)])
    y = (X[:, 0] == 1).astype(int)
    by_index = RuleEnsembleClassifier(C=10.0, categorical_features=[0]).fit(X, y)
    assert any(c.op == "==" and c.feature == "x0" for c in by_index.propositions_)
    assert by_index.score(X, y) == 1.0
    numeric = RuleEnsembleClassifier(C=10.0).fit(X, y)
    assert all(c.op in ("<=", ">") for c in numeric.propositions_)


def test_multiclass_any_labels_and_path():
    X, _ = _table(150, seed=3)
    y = np.where(X["colour"] == "red", "r", np.where(X["petal_width"] > 1.0, "wide", "narrow"))
    model = RuleEnsembleClassifier(C=10.0).fit(X, y)
    assert list(model.classes_) == ["narrow", "r", "wide"]
    assert model.coef_.shape == (model.n_rules_, 3)
    assert model.decision_function(X).shape == (len(X), 3)
    assert model.score(X, y) >= 0.95
    path = RuleEnsembleClassifier().path(X, y, [0.1, 1.0, 10.0])
    assert [m.C for m in path] == [0.1, 1.0, 10.0]
    last = path[-1]
    np.testing.assert_array_equal(last.predict(X), model.predict(X))
    assert abs(last.dual_gap_ - model.dual_gap_) <= 0.05 * max(1.0, model.primal_objective_)


def test_grid_search_pipeline_pickle():
    X, y = _table(90)
    search = GridSearchCV(RuleEnsembleClassifier(), {"C": [0.1, 10.0]}, cv=3).fit(X, y)
    assert search.best_params_["C"] in (0.1, 10.0)
    scores = cross_val_score(RuleEnsembleClassifier(C=10.0), X, y, cv=3)
    assert scores.mean() > 0.8
    pipe = make_pipeline(FunctionTransformer(lambda d: d), RuleEnsembleClassifier(C=10.0))
    pipe.fit(X, y)
    model = pickle.loads(pickle.dumps(search.best_estimator_))
    np.testing.assert_array_equal(model.predict(X), search.best_estimator_.predict(X))
    assert clone(model).get_params() == model.get_params()


def test_regressor_fits_a_step():
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(150, 2))
    y = 3.0 * (X[:, 0] > 0.5) - 1.0
    model = RuleEnsembleRegressor(C=10.0, n_cuts=9).fit(X, y)
    assert model.score(X, y) > 0.9
    assert model.rules_[0].conditions[0].feature == "x0"


@pytest.mark.parametrize(
    "y, message",
    [
        (np.full(20, 1.0 + 1.0j), "Complex data not supported"),
        (np.array(["a"] * 20, dtype=object), "must hold real numbers"),
        (np.r_[np.ones(19), np.nan], "NaN or infinite"),
    ],
)
def test_regressor_rejects_targets_that_are_not_real_numbers(y, message):
    X = np.random.default_rng(0).uniform(size=(20, 2))
    with pytest.raises(InvalidParameterError, match=message):
        RuleEnsembleRegressor().fit(X, y)
