"""``cut_rule="tree"``: cut points at the split points of a CART tree grown against ``y``, so that
planted rules with thresholds off every quantile come out as written."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsparse.exceptions import InvalidParameterError
from graphsparse.rules import RuleEnsembleClassifier, RuleEnsembleRegressor, cut_points


def _gap(x: np.ndarray, t: float) -> tuple[float, float]:
    """The interval ``[lo, hi)`` of thresholds that split ``x`` as ``t`` does."""
    below, above = x[x <= t], x[x > t]
    return (
        float(below.max()) if below.size else -np.inf,
        float(above.min()) if above.size else np.inf,
    )


def _planted_case(seed: int) -> tuple[np.ndarray, np.ndarray, int, int, np.ndarray]:
    rng = np.random.default_rng(seed)
    n, p = int(rng.integers(200, 601)), int(rng.integers(2, 6))
    t = rng.uniform(-0.4, 0.4, 2)
    X = rng.uniform(-1.0, 1.0, size=(n, p))
    a, b = (int(v) for v in rng.choice(p, 2, replace=False))
    return X, (X[:, a] > t[0]) & (X[:, b] <= t[1]), a, b, t


def _recovered(seed: int) -> tuple[bool, bool]:
    """Whether the fit is exact on the training rows, and whether one of its rules is the
    planted conjunction as written (its thresholds split the rows as the planted ones do)."""
    X, planted, a, b, t = _planted_case(seed)
    model = RuleEnsembleClassifier(C=10.0, cut_rule="tree").fit(X, planted.astype(int))
    lo_a, hi_a = _gap(X[X[:, b] <= t[1], a], t[0])
    lo_b, hi_b = _gap(X[X[:, a] > t[0], b], t[1])
    fires = model.transform(X).toarray() > 0
    exact = [
        k
        for k, rule in enumerate(model.rules_)
        if {(c.feature, c.op) for c in rule.conditions} == {(f"x{a}", ">"), (f"x{b}", "<=")}
        and len(rule.conditions) == 2
        and lo_a <= rule.conditions[[c.op for c in rule.conditions].index(">")].value < hi_a
        and lo_b <= rule.conditions[[c.op for c in rule.conditions].index("<=")].value < hi_b
    ]
    for k in exact:
        np.testing.assert_array_equal(fires[:, k], planted)
        assert model.rules_[k].support == int(planted.sum())
    return model.score(X, planted.astype(int)) == 1.0, bool(exact)


def test_planted_conjunctions_are_mostly_recovered_as_written() -> None:
    # Not every time: the tree is greedy and its leaves hold >= 1 % of the rows, so a lone row
    # between a planted threshold and the tree's first split can stay on the wrong side (issue
    # 29 stays open on this). 40 random planted conjunctions, thresholds off every quantile:
    # 37 fit exactly when this test was written; the bound leaves room for other platforms.
    results = [_recovered(seed) for seed in range(40)]
    assert sum(fit for fit, _ in results) >= 34, results
    assert sum(rule for _, rule in results) >= 30, results


def _issue_table(n: int, p: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p))
    y = (((X[:, 0] > 0.3) & (X[:, 1] < 0)) | (X[:, 2] > 1)).astype(int)
    return X, y


def test_tree_cuts_fit_the_issue_target_where_quantiles_do_not() -> None:
    X, y = _issue_table(500, 10)
    tree = RuleEnsembleClassifier(rho=1.5, C=10.0, cut_rule="tree").fit(X, y)
    quant = RuleEnsembleClassifier(rho=1.5, C=10.0, max_nodes=2000).fit(X, y)
    assert tree.score(X, y) == 1.0
    assert quant.score(X, y) < 1.0
    # only the three columns of the target are cut, and the lattice stays small
    assert {c.feature for c in tree.propositions_} == {"x0", "x1", "x2"}
    assert tree.active_set_size_ < quant.active_set_size_
    assert tree.converged_


def test_a_column_the_tree_never_splits_gives_no_proposition() -> None:
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 3))
    y = (X[:, 1] > 0.25).astype(int)
    model = RuleEnsembleClassifier(C=10.0, cut_rule="tree").fit(X, y)
    (t,) = {c.value for c in model.propositions_}
    assert {c.feature for c in model.propositions_} == {"x1"}
    lo, hi = _gap(X[:, 1], 0.25)
    assert lo <= t < hi


def test_tree_cuts_keep_at_most_n_cuts_per_column() -> None:
    rng = np.random.default_rng(5)
    X = rng.uniform(size=(300, 2))
    y = (np.floor(X[:, 0] * 6) % 2).astype(int)  # six stripes: five class boundaries
    for n_cuts in (1, 2, 5):
        model = RuleEnsembleClassifier(C=10.0, cut_rule="tree", n_cuts=n_cuts).fit(X, y)
        cuts = {c.value for c in model.propositions_ if c.feature == "x0"}
        assert 1 <= len(cuts) <= n_cuts
    five = RuleEnsembleClassifier(C=100.0, cut_rule="tree", n_cuts=5).fit(X, y)
    assert five.score(X, y) == 1.0


def test_tree_cuts_for_a_regressor_and_for_several_classes() -> None:
    rng = np.random.default_rng(7)
    X = rng.uniform(-1.0, 1.0, size=(300, 3))
    y = np.where(X[:, 2] > 0.37, 2.0, -1.0)
    reg = RuleEnsembleRegressor(C=100.0, cut_rule="tree").fit(X, y)
    lo, hi = _gap(X[:, 2], 0.37)
    assert [c.feature for c in reg.propositions_] == ["x2", "x2"]
    assert all(lo <= c.value < hi for c in reg.propositions_)
    assert np.max(np.abs(reg.predict(X) - y)) < 0.1
    labels = np.select([X[:, 0] < -0.2, X[:, 1] > 0.4], ["a", "b"], "c")
    clf = RuleEnsembleClassifier(C=100.0, cut_rule="tree").fit(X, labels)
    assert clf.score(X, labels) == 1.0
    assert {c.feature for c in clf.propositions_} == {"x0", "x1"}


def test_tree_cuts_leave_explicit_and_categorical_columns_alone() -> None:
    rng = np.random.default_rng(11)
    frame = pd.DataFrame(
        {
            "u": rng.uniform(size=150),
            "v": rng.uniform(size=150),
            "colour": rng.choice(["red", "blue"], size=150),
        }
    )
    frame.loc[::10, "v"] = np.nan
    y = ((frame["u"] > 0.6) | (frame["colour"] == "red")).astype(int)
    model = RuleEnsembleClassifier(C=10.0, cut_rule="tree", cut_points={"v": [0.5]}).fit(frame, y)
    v = [c.value for c in model.propositions_ if c.feature == "v"]
    assert v == [0.5, 0.5]  # v <= 0.5 and v > 0.5, as given
    assert {c.value for c in model.propositions_ if c.feature == "colour"} == {"red", "blue"}
    # a cut on u that splits the rows where colour does not decide as 0.6 does
    lo, hi = _gap(frame["u"].to_numpy()[frame["colour"] == "blue"], 0.6)
    assert any(lo <= c.value < hi for c in model.propositions_ if c.feature == "u")
    assert model.score(frame, y) == 1.0


def test_tree_is_a_named_choice_of_cut_rule() -> None:
    X, y = _issue_table(50, 3)
    with pytest.raises(InvalidParameterError, match=r"cut_rule must be one of.*'tree'"):
        RuleEnsembleClassifier(cut_rule="trees").fit(X, y)
    with pytest.raises(InvalidParameterError, match="cut_rule='tree' reads the target"):
        cut_points(X, cut_rule="tree")


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(10, 60),
    p=st.integers(1, 3),
    C=st.sampled_from([0.1, 1.0, 10.0]),
    rho=st.sampled_from([1.5, 2.0]),
)
def test_repeated_rows_are_merged_exactly(seed: int, n: int, p: int, C: float, rho: float) -> None:
    """Rows that repeat are merged into weighted examples: every row twice at ``C`` is the same
    problem as the rows once at ``2C`` (the same objective, within the two certified gaps), and
    supports count rows, not merged examples. (That merging is exact against the unmerged
    problem is checked in Rust: ``graphsparse-lattice/tests/merged_rows.rs`` against
    Algorithm 2 on the full lattice of the original rows.)"""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, size=(n, p)).astype(float)  # few patterns: many rows merge
    y = rng.integers(0, 2, size=n)
    y[:2] = [0, 1]
    once = RuleEnsembleClassifier(rho=rho, C=2.0 * C, cut_rule="tree").fit(X, y)
    twice = RuleEnsembleClassifier(rho=rho, C=C, cut_rule="tree").fit(
        np.vstack([X, X]), np.concatenate([y, y])
    )
    assert [str(c) for c in once.propositions_] == [str(c) for c in twice.propositions_]
    tol = once.dual_gap_ + twice.dual_gap_ + 1e-9 * max(1.0, once.primal_objective_)
    assert abs(once.primal_objective_ - twice.primal_objective_) <= tol
    assert [2 * r.support for r in once.rules_] == [r.support for r in twice.rules_]
