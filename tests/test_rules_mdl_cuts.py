"""``cut_rule="mdl"``: each numeric column cut at its own class boundaries by Fayyad and Irani's
entropy discretisation with the minimum-description-length stopping test, checked against a
plain-loop reference of the same procedure."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from graphsparse.exceptions import InvalidParameterError
from graphsparse.rules import RuleEnsembleClassifier, RuleEnsembleRegressor
from graphsparse.rules._table import _mdl_column

# decisions closer than this (entropies, the MDL test, the order of the best-first queue) are
# called ties: the reference then cannot say which one the procedure takes
_TIE = 1e-7


class _Ambiguous(Exception):
    pass


def _n_entropy(counts: list[int]) -> float:
    """``n · H(counts)`` in bits, by a plain loop."""
    n = sum(counts)
    return sum(-c * math.log2(c / n) for c in counts if c > 0)


def _reference_split(xs: list[float], ys: list[int], k: int) -> tuple[float, int] | None:
    """The Fayyad–Irani split of one sorted segment, by brute force over its boundaries."""
    n = len(xs)
    total = [ys.count(c) for c in range(k)]
    scored = []
    for b in range(1, n):
        if xs[b] == xs[b - 1]:
            continue
        left = [ys[:b].count(c) for c in range(k)]
        right = [t - v for t, v in zip(total, left, strict=True)]
        scored.append((_n_entropy(left) + _n_entropy(right), b, left, right))
    if not scored:
        return None
    scored.sort(key=lambda s: s[0])
    if len(scored) > 1 and scored[1][0] - scored[0][0] < _TIE:
        raise _Ambiguous
    part, b, left, right = scored[0]
    gain = _n_entropy(total) - part

    def classes(c: list[int]) -> int:
        return sum(v > 0 for v in c)

    def ent(c: list[int]) -> float:
        return _n_entropy(c) / sum(c)

    delta = math.log2(3 ** classes(total) - 2) - (
        classes(total) * ent(total) - classes(left) * ent(left) - classes(right) * ent(right)
    )
    threshold = math.log2(n - 1) + delta
    if abs(gain - threshold) < _TIE:
        raise _Ambiguous
    return (gain, b) if gain > threshold else None


def _reference_cuts(x: list[float], y: list[int], n_cuts: int) -> list[float]:
    order = sorted(range(len(x)), key=lambda i: x[i])
    xs, ys = [x[i] for i in order], [y[i] for i in order]
    k = max(y) + 1
    queue: list[tuple[float, int, int, int]] = []

    def consider(lo: int, hi: int) -> None:
        found = _reference_split(xs[lo:hi], ys[lo:hi], k)
        if found is not None:
            queue.append((found[0], lo + found[1], lo, hi))

    consider(0, len(xs))
    cuts: list[float] = []
    tie = False
    while queue and len(cuts) < n_cuts:
        queue.sort(key=lambda q: -q[0])
        tie |= len(queue) > 1 and queue[0][0] - queue[1][0] < _TIE
        _, b, lo, hi = queue.pop(0)
        cuts.append((xs[b - 1] + xs[b]) / 2)
        consider(lo, b)
        consider(b, hi)
    if tie and queue:
        # the order of equal gains decides which splits the budget leaves out
        raise _Ambiguous
    return sorted(cuts)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(4, 60),
    st.integers(2, 4),
    st.integers(1, 5),
    st.booleans(),
)
def test_mdl_cuts_equal_the_plain_loop_reference(
    seed: int, n: int, k: int, n_cuts: int, coarse: bool
) -> None:
    rng = np.random.default_rng(seed)
    # repeated values (coarse) or distinct ones; classes that change along x with noise
    x = rng.integers(0, 8, n).astype(float) if coarse else rng.normal(size=n)
    y = np.clip(np.floor((x - x.min()) / (np.ptp(x) + 1e-9) * k), 0, k - 1).astype(np.int64)
    flip = rng.random(n) < 0.15
    y[flip] = rng.integers(0, k, int(flip.sum()))
    try:
        expected = _reference_cuts(x.tolist(), y.tolist(), n_cuts)
    except _Ambiguous:
        assume(False)
    got = _mdl_column(x, y, n_cuts)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    assert len(got) <= n_cuts


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(30, 300), st.floats(-0.6, 0.6))
def test_a_single_planted_threshold_is_cut_where_the_classes_change(
    seed: int, n: int, t: float
) -> None:
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.0, 1.0, size=(n, 3))
    y = (X[:, 1] > t).astype(int)
    assume(5 <= y.sum() <= n - 5)
    model = RuleEnsembleClassifier(C=10.0, cut_rule="mdl").fit(X, y)
    x1 = X[:, 1]
    lo, hi = x1[x1 <= t].max(), x1[x1 > t].min()
    cuts = {c.value for c in model.propositions_ if c.feature == "x1"}
    # a pure split has zero entropy: the first cut is the class boundary
    assert any(lo <= c < hi for c in cuts), (cuts, lo, hi)
    assert model.score(X, y) == 1.0


def test_mdl_cuts_fit_the_issue_target_with_its_three_columns() -> None:
    rng = np.random.default_rng(0)
    X = rng.standard_normal((5000, 5))
    y = (((X[:, 0] > 0.3) & (X[:, 1] < 0)) | (X[:, 2] > 1)).astype(int)
    model = RuleEnsembleClassifier(rho=1.5, C=10.0, cut_rule="mdl").fit(X, y)
    assert {c.feature for c in model.propositions_} == {"x0", "x1", "x2"}
    assert model.score(X, y) >= 0.999
    quant = RuleEnsembleClassifier(rho=1.5, C=10.0, max_nodes=2000).fit(X, y)
    assert model.active_set_size_ < quant.active_set_size_


def test_columns_the_classes_do_not_follow_give_no_proposition() -> None:
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 6))
    y = (X[:, 4] > 0.25).astype(int)
    model = RuleEnsembleClassifier(C=10.0, cut_rule="mdl").fit(X, y)
    assert {c.feature for c in model.propositions_} == {"x4"}


def test_mdl_cuts_keep_at_most_n_cuts_per_column() -> None:
    rng = np.random.default_rng(5)
    X = rng.uniform(size=(600, 2))
    y = (np.floor(X[:, 0] * 6) % 2).astype(int)  # six stripes: five class boundaries
    for n_cuts in (1, 2, 5):
        model = RuleEnsembleClassifier(C=10.0, cut_rule="mdl", n_cuts=n_cuts).fit(X, y)
        cuts = {c.value for c in model.propositions_ if c.feature == "x0"}
        assert 1 <= len(cuts) <= n_cuts
    five = RuleEnsembleClassifier(C=100.0, cut_rule="mdl", n_cuts=5).fit(X, y)
    assert five.score(X, y) == 1.0
    assert {c.feature for c in five.propositions_} == {"x0"}


def test_mdl_cuts_for_several_classes_and_named_columns() -> None:
    rng = np.random.default_rng(7)
    frame = pd.DataFrame(rng.uniform(-1.0, 1.0, size=(300, 3)), columns=["a", "b", "c"])
    labels = np.select([frame["a"] < -0.2, frame["b"] > 0.4], ["low a", "high b"], "other")
    model = RuleEnsembleClassifier(C=100.0, cut_rule="mdl").fit(frame, labels)
    assert model.score(frame, labels) == 1.0
    assert {c.feature for c in model.propositions_} == {"a", "b"}


def test_mdl_cuts_leave_explicit_categorical_and_missing_values_alone() -> None:
    rng = np.random.default_rng(11)
    frame = pd.DataFrame(
        {
            "u": rng.uniform(size=200),
            "v": rng.uniform(size=200),
            "colour": rng.choice(["red", "blue"], size=200),
        }
    )
    frame.loc[::10, "u"] = np.nan
    y = ((frame["u"] > 0.6) | (frame["colour"] == "red")).astype(int)
    model = RuleEnsembleClassifier(C=10.0, cut_rule="mdl", cut_points={"v": [0.5]}).fit(frame, y)
    assert [c.value for c in model.propositions_ if c.feature == "v"] == [0.5, 0.5]
    assert {c.value for c in model.propositions_ if c.feature == "colour"} == {"red", "blue"}
    u = frame["u"].to_numpy()
    assert all(np.isfinite(c.value) for c in model.propositions_ if c.feature == "u")
    blue = u[(frame["colour"] == "blue").to_numpy() & ~np.isnan(u)]
    lo, hi = blue[blue <= 0.6].max(), blue[blue > 0.6].min()
    assert any(lo <= c.value < hi for c in model.propositions_ if c.feature == "u")


def test_mdl_cuts_need_class_labels() -> None:
    X = np.random.default_rng(0).uniform(size=(50, 2))
    with pytest.raises(InvalidParameterError, match=r"cut_rule='mdl'.*regressor"):
        RuleEnsembleRegressor(cut_rule="mdl").fit(X, X[:, 0])


def test_mdl_column_edge_cases() -> None:
    assert _mdl_column(np.array([1.0]), np.array([0]), 4) == []
    assert _mdl_column(np.array([2.0, 2.0, 2.0]), np.array([0, 1, 0]), 4) == []
    assert _mdl_column(np.array([np.nan, 1.0, np.nan]), np.array([0, 1, 0]), 4) == []
    x = np.arange(40, dtype=float)
    assert _mdl_column(x, (x >= 20).astype(np.int64), 0) == []
    assert _mdl_column(x, (x >= 20).astype(np.int64), 3) == [19.5]
    # adjacent floats: the threshold stays on the left value so that x <= t splits them
    a = 1.0
    b = np.nextafter(a, 2.0)
    xs = np.array([a] * 20 + [b] * 20)
    (t,) = _mdl_column(xs, (xs > a).astype(np.int64), 2)
    assert a <= t < b
