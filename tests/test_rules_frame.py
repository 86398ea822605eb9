"""Rules as a table (issue #26, item 5): ``str(rule)`` merges a rule's conditions on one feature
into one interval or set, and ``rules_frame()`` lists the rules as a pandas DataFrame.

The check the issue asks for: every rule's merged conditions, read back from their bounds and
sets alone, select exactly the rows of its activation column in ``transform``.
"""

from __future__ import annotations

import math
import re
import sys
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphsparse._optional import install_hint
from graphsparse.exceptions import InvalidParameterError
from graphsparse.rules import (
    Condition,
    MergedCondition,
    Rule,
    RuleEnsembleClassifier,
    RuleEnsembleRegressor,
)
from graphsparse.testing import strategies as S

pd = pytest.importorskip("pandas")


def _missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def _selects(m: MergedCondition, column: Any) -> np.ndarray:
    """The rows of ``column`` that ``m`` selects, from its bounds and sets (not ``holds``)."""
    out = np.zeros(len(column), dtype=bool)
    for i, v in enumerate(column):
        if _missing(v) or m.is_empty:
            continue
        if m.numeric:
            out[i] = (m.lower is None or v > m.lower) and (m.upper is None or v <= m.upper)
        elif m.values is not None:
            out[i] = v == m.values[0]
        else:
            out[i] = v not in m.excluded
    return out


def _assert_rules_match_activations(model: Any, X: Any, training: bool = True) -> None:
    """Each rule's merged conditions select the rows of its activation column, and read once
    per feature (on the training rows, as many rows as the rule's support)."""
    A = model.transform(X).toarray().astype(bool)
    if not isinstance(X, pd.DataFrame):  # unnamed columns are x0, x1, ...
        X = pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])])
    frame = model.rules_frame()
    assert list(frame["rule"]) == [str(r) for r in model.rules_]
    assert list(frame["rule"]) == list(model.get_feature_names_out())
    for r, rule in enumerate(model.rules_):
        merged = rule.merged_conditions
        features = [m.feature for m in merged]
        assert len(features) == len(set(features)), str(rule)
        assert sum(len(m.conditions) for m in merged) == rule.length
        assert str(rule) == " AND ".join(str(m) for m in merged)
        assert not any(m.is_empty for m in merged)  # the lattice keeps rules that fire
        mask = np.ones(A.shape[0], dtype=bool)
        for m in merged:
            mask &= _selects(m, X[m.feature].to_numpy(dtype=object))
        np.testing.assert_array_equal(mask, A[:, r], err_msg=str(rule))
        assert frame["support"][r] == rule.support
        if training:
            assert rule.support == A[:, r].sum()


# - the merge on hand-made conditions

_NUMBERS = st.sampled_from([-1.0, 0.0, 0.5, 1.0, 2.0, 3.5])
_LABELS = st.sampled_from(["a", "b", "c"])
_numeric_conditions = st.lists(
    st.builds(Condition, st.just("x"), st.sampled_from(["<=", ">"]), _NUMBERS),
    min_size=1,
    max_size=5,
)
_categorical_conditions = st.lists(
    st.builds(Condition, st.just("c"), st.sampled_from(["==", "!="]), _LABELS),
    min_size=1,
    max_size=4,
)


@given(_numeric_conditions)
def test_a_merged_interval_holds_where_all_its_conditions_hold(conds: list[Condition]) -> None:
    (m,) = Rule(tuple(conds), (1.0,), 1, 1.0).merged_conditions
    assert m.numeric and m.conditions == tuple(conds)
    for x in [-2.0, -1.0, -0.5, 0.0, 0.25, 0.5, 0.75, 1.0, 2.0, 3.0, 3.5, 4.0, math.nan, None]:
        assert m.holds(x) == all(c.holds(x) for c in conds), (conds, x)
    grid = np.linspace(-2.0, 4.0, 61)
    assert m.is_empty == (not any(m.holds(x) for x in grid))


@given(_categorical_conditions)
def test_a_merged_set_holds_where_all_its_conditions_hold(conds: list[Condition]) -> None:
    (m,) = Rule(tuple(conds), (1.0,), 1, 1.0).merged_conditions
    assert not m.numeric
    for x in ["a", "b", "c", "z", None, math.nan]:
        assert m.holds(x) == all(c.holds(x) for c in conds), (conds, x)
        assert _selects(m, [x])[0] == m.holds(x)
    # the categories are an open set: "not in {'a', 'b', 'c'}" holds for "z"
    assert m.is_empty == (not any(m.holds(x) for x in "abcz"))


def test_merged_text():
    def text(*conds: tuple[str, str, Any]) -> str:
        return str(Rule(tuple(Condition(*c) for c in conds), (1.0,), 1, 1.0))

    # the rulefit example: one bound, not "a < 5 and a < 10"
    assert text(("a", "<=", 5.0), ("a", "<=", 10.0)) == "a <= 5"
    assert text(("a", ">", 5.0), ("a", ">", 1.0)) == "a > 5"
    assert text(("a", ">", 0.3), ("b", "<=", 1.0), ("a", "<=", 1.2)) == "0.3 < a <= 1.2 AND b <= 1"
    assert text(("c", "==", "red")) == "c == 'red'"
    assert text(("c", "!=", "red"), ("c", "==", "blue")) == "c == 'blue'"
    assert text(("c", "!=", "red")) == "c != 'red'"
    assert text(("c", "!=", "red"), ("c", "!=", "blue")) == "c not in {'red', 'blue'}"
    assert text(("c", "==", True)) == "c == True"
    # contradictions: said, never silently dropped
    assert text(("a", ">", 5.0), ("a", "<=", 3.0)) == "(never: a > 5 AND a <= 3)"
    assert text(("a", ">", 5.0), ("a", "<=", 5.0)) == "(never: a > 5 AND a <= 5)"
    assert text(("c", "==", "r"), ("c", "==", "b"), ("d", "<=", 1.0)) == (
        "(never: c == 'r' AND c == 'b') AND d <= 1"
    )
    assert text(("c", "==", "r"), ("c", "!=", "r")) == "(never: c == 'r' AND c != 'r')"
    # the raw propositions stay as they were
    rule = Rule((Condition("a", "<=", 5.0), Condition("a", "<=", 10.0)), (1.0,), 3, 1.0)
    assert [str(c) for c in rule.conditions] == ["a <= 5", "a <= 10"] and rule.length == 2


def test_merge_rejects_what_is_not_one_feature():
    with pytest.raises(InvalidParameterError, match="conditions: need at least one"):
        MergedCondition.merge(())
    with pytest.raises(InvalidParameterError, match=r"one feature, got \['a', 'b'\]"):
        MergedCondition.merge((Condition("a", "<=", 1.0), Condition("b", "<=", 1.0)))
    with pytest.raises(InvalidParameterError, match="mix numeric"):
        MergedCondition.merge((Condition("a", "<=", 1.0), Condition("a", "==", "u")))
    # a hand-made rule mixing the two on one name keeps them apart rather than fail to print
    rule = Rule((Condition("a", "<=", 1.0), Condition("a", "==", "u")), (1.0,), 1, 1.0)
    assert str(rule) == "a <= 1 AND a == 'u'"


# - the verification on fitted models


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=S.rule_tables(min_rows=4, max_rows=30), data=st.data())
def test_merged_rules_select_their_activation_rows_regressor(table: Any, data: Any) -> None:
    y = data.draw(st.lists(st.integers(0, 3), min_size=len(table), max_size=len(table)))
    model = RuleEnsembleRegressor(C=10.0, n_cuts=3).fit(table, np.asarray(y, dtype=float))
    _assert_rules_match_activations(model, table)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=S.rule_tables(min_rows=6, max_rows=30), data=st.data())
def test_merged_rules_select_their_activation_rows_multiclass(table: Any, data: Any) -> None:
    y = data.draw(st.lists(st.sampled_from("pqr"), min_size=len(table), max_size=len(table)))
    y[:3] = ["p", "q", "r"]
    model = RuleEnsembleClassifier(C=10.0, n_cuts=3).fit(table, np.asarray(y))
    _assert_rules_match_activations(model, table)
    frame = model.rules_frame()
    assert [c for c in frame.columns if c.startswith("weight")] == [
        "weight_p",
        "weight_q",
        "weight_r",
    ]


def _interval_table(n: int = 240, seed: int = 0) -> Any:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "x0": rng.uniform(0.0, 1.0, n),
            "colour": rng.choice(["red", "blue", "white", "green"], n).astype(object),
            "x1": rng.uniform(0.0, 1.0, n),
        }
    )


def test_binary_classifier_on_an_interval_and_a_category_set():
    X = _interval_table()
    inside = (X.x0 > 0.3) & (X.x0 <= 0.7)
    y = np.where(inside & ~X.colour.isin(["red", "blue"]), "yes", "no")
    model = RuleEnsembleClassifier(C=10.0, cut_points={"x0": [0.3, 0.7], "x1": [0.5]}).fit(X, y)
    _assert_rules_match_activations(model, X)
    texts = [str(r) for r in model.rules_]
    # the two-sided interval appears, read once; no rule names a feature twice
    assert any("0.3 < x0 <= 0.7" in t for t in texts), texts
    assert not any(re.search(r"x0 [<>]=? .* x0 [<>]", t) for t in texts)
    frame = model.rules_frame()
    assert list(frame.columns) == ["rule", "weight", "support", "coverage", "length", "importance"]
    np.testing.assert_array_equal(frame["weight"], model.coef_[:, 0])
    np.testing.assert_array_equal(frame["coverage"], frame["support"] / len(X))
    np.testing.assert_array_equal(frame["length"], [r.length for r in model.rules_])
    s = frame["coverage"].to_numpy()
    np.testing.assert_allclose(
        frame["importance"], np.abs(model.coef_[:, 0]) * np.sqrt(s * (1 - s)), rtol=1e-12
    )
    # rows with values seen in training but not in it: the same selection
    _assert_rules_match_activations(model, _interval_table(seed=1), training=False)


def test_multiclass_frame_has_weights_and_importances_per_class():
    X = _interval_table(300)
    y = np.select(
        [X.x0 <= 0.3, (X.x0 > 0.3) & (X.x0 <= 0.7) & (X.colour == "red")],
        [1, 2],
        3,
    )
    model = RuleEnsembleClassifier(C=10.0, cut_points={"x0": [0.3, 0.7], "x1": [0.5]}).fit(X, y)
    _assert_rules_match_activations(model, X)
    frame = model.rules_frame()
    assert list(frame.columns) == [
        "rule",
        "weight_1",
        "weight_2",
        "weight_3",
        "support",
        "coverage",
        "length",
        "importance",
        "importance_1",
        "importance_2",
        "importance_3",
    ]
    weights = frame[["weight_1", "weight_2", "weight_3"]].to_numpy()
    np.testing.assert_array_equal(weights, model.coef_)
    np.testing.assert_array_equal(weights, [r.weights for r in model.rules_])
    spread = np.sqrt(frame["coverage"] * (1 - frame["coverage"])).to_numpy()
    np.testing.assert_allclose(
        frame["importance"], [r.strength for r in model.rules_] * spread, rtol=1e-9
    )
    for k in (1, 2, 3):
        np.testing.assert_allclose(
            frame[f"importance_{k}"], np.abs(frame[f"weight_{k}"]) * spread, rtol=1e-12
        )


def test_regressor_and_path_models_on_a_numpy_array():
    rng = np.random.default_rng(3)
    X = rng.uniform(0.0, 1.0, (200, 2))
    y = 2.0 * ((X[:, 0] > 0.25) & (X[:, 0] <= 0.75)) + rng.normal(scale=0.05, size=200)
    est = RuleEnsembleRegressor(C=10.0, cut_points={0: [0.25, 0.5, 0.75], 1: [0.5]})
    for model in [est.fit(X, y), *est.path(X, y, [1.0, 100.0])]:
        _assert_rules_match_activations(model, X)
        frame = model.rules_frame()
        assert frame.shape == (model.n_rules_, 6)
        np.testing.assert_array_equal(frame["coverage"], frame["support"] / 200)


def test_rules_frame_without_pandas_names_the_extra(monkeypatch):
    model = RuleEnsembleRegressor(C=1.0).fit([[0.0], [1.0], [2.0], [3.0]], [0.0, 0.0, 1.0, 1.0])
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=re.escape(install_hint("bench"))) as info:
        model.rules_frame()
    assert str(info.value).startswith("rules_frame() needs pandas")


def test_a_model_without_rules_gives_an_empty_frame_with_its_columns():
    model = RuleEnsembleRegressor(C=1.0).fit([["a"], ["a"], ["a"]], [0.0, 0.0, 0.0])
    assert model.n_rules_ == 0
    frame = model.rules_frame()
    assert frame.shape == (0, 6) and frame.columns[0] == "rule"


def test_rules_frame_before_fit_says_not_fitted():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        RuleEnsembleClassifier().rules_frame()
