"""The pieces of ``benches/bench_rules.py`` that decide what the gHKL table reports: the split
that tops small classes up, and the margin loss that breaks CV ties."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("pandas")

BENCHES = Path(__file__).resolve().parents[1] / "benches"


@pytest.fixture(scope="module")
def bench() -> Any:
    sys.path.insert(0, str(BENCHES))  # the script imports its sibling ``_progress``
    try:
        spec = importlib.util.spec_from_file_location("bench_rules", BENCHES / "bench_rules.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["bench_rules"] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHES))


class Scores:
    """A fitted model as far as ``margin_loss`` reads one."""

    def __init__(self, classes: list[Any], scores: Any) -> None:
        self.classes_ = np.asarray(classes)
        self._scores = np.asarray(scores, dtype=float)

    def decision_function(self, X: Any) -> Any:
        return self._scores


@st.composite
def labelled_split(draw: Any) -> tuple[Any, Any, Any, int]:
    n = draw(st.integers(1, 40))
    labels = np.asarray(draw(st.lists(st.sampled_from("abcde"), min_size=n, max_size=n)))
    order = draw(st.permutations(range(n)))
    cut = draw(st.integers(0, n))
    return (
        np.asarray(order[:cut], dtype=np.intp),
        np.asarray(order[cut:], dtype=np.intp),
        labels,
        draw(st.integers(0, 5)),
    )


@given(labelled_split())
def test_top_up_gives_every_class_k_training_rows_and_keeps_a_partition(
    bench: Any, case: tuple[Any, Any, Any, int]
) -> None:
    train, test, labels, k = case
    new_train, new_test = bench.top_up(train, test, labels, k)
    assert sorted([*new_train, *new_test]) == list(range(len(labels)))
    assert not set(new_train.tolist()) & set(new_test.tolist())
    assert new_train.tolist()[: len(train)] == train.tolist()  # nothing leaves the training part
    for cls in np.unique(labels):
        before = int(np.sum(labels[train] == cls))
        after = int(np.sum(labels[new_train] == cls))
        assert after == max(before, min(k, int(np.sum(labels == cls))))
        # the rows moved are the class's first rows in the test part's order
        moved = [i for i in new_train.tolist()[len(train) :] if labels[i] == cls]
        assert moved == [i for i in test.tolist() if labels[i] == cls][: len(moved)]


def test_top_up_with_k_zero_leaves_the_split_alone(bench: Any) -> None:
    labels = np.array(list("aabbbc"))
    train, test = bench.top_up(np.array([4, 0]), np.array([1, 2, 3, 5]), labels, 0)
    assert train.tolist() == [4, 0] and test.tolist() == [1, 2, 3, 5]


@given(
    st.lists(st.floats(-5, 5), min_size=1, max_size=12),
    st.lists(st.booleans(), min_size=12, max_size=12),
)
def test_margin_loss_of_a_binary_model_is_the_hinge_loss(
    bench: Any, f: list[float], positive: list[bool]
) -> None:
    y = np.where(np.asarray(positive[: len(f)]), 1, -1)
    model = Scores([-1, 1], f)
    hinge = np.mean(np.maximum(0.0, 1.0 - y * np.asarray(f)))
    assert bench.margin_loss(model, None, y) == pytest.approx(hinge, abs=1e-12)


@given(st.data())
def test_margin_loss_of_a_multiclass_model_matches_its_definition(bench: Any, data: Any) -> None:
    classes = ["x", "y", "z"]
    n = data.draw(st.integers(1, 10))
    row = st.lists(st.floats(-5, 5), min_size=3, max_size=3)
    scores = np.asarray(data.draw(st.lists(row, min_size=n, max_size=n)))
    y = data.draw(st.lists(st.sampled_from([*classes, "unseen"]), min_size=n, max_size=n))
    terms = [
        max(0.0, 1.0 + max(s[j] for j in range(3) if j != classes.index(t)) - s[classes.index(t)])
        for s, t in zip(scores, y, strict=True)
        if t != "unseen"
    ]
    expected = float(np.mean(terms)) if terms else 0.0
    assert bench.margin_loss(Scores(classes, scores), None, y) == pytest.approx(expected, abs=1e-12)
