"""Explicit cut points: ``graphsparse.rules.cut_points`` against the reference rule P1, and the
estimators' ``cut_points=`` (the paper's protocol computes cuts once on the whole table)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from graphsparse.exceptions import InvalidParameterError
from graphsparse.rules import RuleEnsembleClassifier, cut_points
from graphsparse.testing.reference.rules import propositions_p1

_values = st.one_of(st.integers(-5, 5).map(float), st.floats(-1e3, 1e3), st.just(np.nan))


@st.composite
def numeric_frames(draw: st.DrawFn) -> pd.DataFrame:
    m = draw(st.integers(2, 30))
    p = draw(st.integers(1, 4))
    data = draw(arrays(np.float64, (m, p), elements=_values))
    return pd.DataFrame(data, columns=[f"c{j}" for j in range(p)])


@settings(max_examples=60, deadline=None)
@given(frame=numeric_frames(), n_cuts=st.integers(1, 9))
def test_cut_points_are_rule_p1(frame: pd.DataFrame, n_cuts: int) -> None:
    props, _ = propositions_p1(frame, n_cuts=n_cuts)
    got = cut_points(frame, n_cuts=n_cuts)
    assert list(got) == list(frame.columns)
    for name in frame.columns:
        want = [t for f, op, t in props if f == name and op == "<="]
        np.testing.assert_allclose(got[name], want, rtol=1e-12, atol=0)


def _labelled(seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "a": rng.normal(size=60),
            "b": rng.integers(0, 6, 60).astype(float),
            "colour": rng.choice(["red", "blue", "green"], 60),
        }
    )
    y = np.where((X.a > 0) & (X.colour != "blue"), "yes", "no")
    return X, y


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cut_points_of_the_training_set_reproduce_the_default_fit(seed: int) -> None:
    X, y = _labelled(seed)
    default = RuleEnsembleClassifier(C=10.0).fit(X, y)
    explicit = RuleEnsembleClassifier(C=10.0, cut_points=cut_points(X)).fit(X, y)
    assert [str(c) for c in explicit.propositions_] == [str(c) for c in default.propositions_]
    assert [str(r) for r in explicit.rules_] == [str(r) for r in default.rules_]
    np.testing.assert_array_equal(explicit.decision_function(X), default.decision_function(X))


def test_given_thresholds_become_the_propositions() -> None:
    X, y = _labelled(3)
    # thresholds from a wider table (the paper's protocol), one column left to the rule
    cuts = {"a": [-1.0, 0.0, 1.0], 1: []}
    model = RuleEnsembleClassifier(C=10.0, cut_points=cuts).fit(X, y)
    on_a = sorted({c.value for c in model.propositions_ if c.feature == "a"})
    assert on_a == [-1.0, 0.0, 1.0]
    assert not [c for c in model.propositions_ if c.feature == "b"]
    assert {c.feature for c in model.propositions_} == {"a", "colour"}


@pytest.mark.parametrize(
    ("cuts", "match"),
    [
        ({"z": [0.0]}, "cut_points names column 'z'"),
        ({7: [0.0]}, "cut_points index 7 is out of range"),
        ({"colour": [0.0]}, "column 'colour', which is categorical"),
        ({"a": ["low"]}, "cut_points for column 'a' must be numbers"),
        ({"a": [np.nan]}, "cut_points"),
        ([0.0, 1.0], "cut_points must map columns"),
        ({1.5: [0.0]}, "cut_points keys must be column names or indices"),
    ],
)
def test_bad_cut_points_are_named_errors(cuts: object, match: str) -> None:
    X, y = _labelled(0)
    with pytest.raises(InvalidParameterError, match=match):
        RuleEnsembleClassifier(cut_points=cuts).fit(X, y)


def test_cut_points_function_rejects_bad_input() -> None:
    with pytest.raises(InvalidParameterError, match="cut_rule"):
        cut_points([[1.0]], cut_rule="median")
    with pytest.raises(InvalidParameterError, match="X must have rows"):
        cut_points(np.zeros((0, 2)))
    assert cut_points(pd.DataFrame({"s": ["a", "b"]})) == {}
