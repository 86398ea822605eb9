"""The paper's evaluation protocol (spec §8.1): kernel SVM accuracy over random splits."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.model_selection import GridSearchCV
from sklearn.svm import SVC

from graphsparse import compression as gc
from graphsparse.compression._evaluation import _inner_cv, _outer_splits
from graphsparse.exceptions import InvalidParameterError, ThreadCountWarning


def _blobs(seed: int, n: int = 60, classes: int = 3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = np.arange(n) % classes
    x = rng.normal(size=(n, 4)) + 4.0 * np.eye(classes, 4)[y]
    return x @ x.T, y


def test_separable_groups_are_classified_perfectly() -> None:
    x = np.repeat(np.eye(3), 8, axis=0)
    acc = gc.kernel_svm_accuracy(x @ x.T, np.repeat([5, 7, 9], 8), train_fractions=[0.3, 0.7])
    assert acc.shape == (2, 5)
    assert np.all(acc == 1.0)


def test_c_selection_matches_grid_search_cv() -> None:
    k, y = _blobs(1)
    grid = [0.001, 0.1, 10.0]
    acc = gc.kernel_svm_accuracy(k, y, train_fractions=[0.5], n_splits=3, C=grid, random_state=4)
    for j, (train, test) in enumerate(_outer_splits(y, 0.5, 3, 4)):
        inner = _inner_cv(y[train], 5, 4 + 1000 + j)
        search = GridSearchCV(SVC(kernel="precomputed"), {"C": grid}, cv=inner)
        search.fit(k[np.ix_(train, train)], y[train])
        want = np.mean(search.predict(k[np.ix_(test, train)]) == y[test])
        assert acc[0, j] == pytest.approx(want)


def test_same_seed_same_splits_and_chance_on_noise() -> None:
    k, y = _blobs(2)
    a = gc.kernel_svm_accuracy(k, y, train_fractions=[0.5], random_state=3)
    b = gc.kernel_svm_accuracy(k, y, train_fractions=[0.5], random_state=3)
    np.testing.assert_array_equal(a, b)
    assert a.mean() > 0.8
    rng = np.random.default_rng(0)
    noise = rng.normal(size=(90, 5))
    labels = rng.integers(0, 2, 90)
    chance = gc.kernel_svm_accuracy(noise @ noise.T, labels, train_fractions=[0.5])
    assert 0.25 < chance.mean() < 0.75


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**16), classes=st.integers(2, 4), n_splits=st.integers(1, 4))
def test_result_does_not_depend_on_the_thread_count(seed: int, classes: int, n_splits: int) -> None:
    k, y = _blobs(seed, n=40, classes=classes)
    noisy = k + np.random.default_rng(seed).normal(scale=3.0, size=k.shape)
    noisy = noisy @ noisy.T  # still a kernel, and hard enough that C matters
    args = {"train_fractions": [0.3, 0.6], "n_splits": n_splits, "random_state": seed}
    one = gc.kernel_svm_accuracy(noisy, y, n_jobs=1, **args)
    two = gc.kernel_svm_accuracy(noisy, y, n_jobs=2, **args)
    np.testing.assert_array_equal(one, two)


def test_more_threads_than_cores_warn_and_run() -> None:
    k, y = _blobs(5, n=20, classes=2)
    with pytest.warns(ThreadCountWarning, match="cores are available"):
        acc = gc.kernel_svm_accuracy(k, y, train_fractions=[0.5], n_splits=2, n_jobs=10**6)
    assert acc.shape == (1, 2)
    with pytest.raises(InvalidParameterError, match="n_jobs"):
        gc.kernel_svm_accuracy(k, y, train_fractions=[0.5], n_jobs=0)


def test_rare_classes_fall_back_without_warnings() -> None:
    # one class with a single member: no stratification possible (filterwarnings = error)
    k, y = _blobs(3, n=30, classes=2)
    y = y.copy()
    y[0] = 2
    acc = gc.kernel_svm_accuracy(k, y, train_fractions=[0.2, 0.8], n_splits=2)
    assert acc.shape == (2, 2) and np.all((acc >= 0) & (acc <= 1))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"kernel": np.ones((3, 2))}, "kernel"),
        ({"y": [0, 1]}, "y"),
        ({"y": [1, 1, 1]}, "two classes"),
        ({"train_fractions": [1.0]}, "train_fractions"),
        ({"train_fractions": [True]}, "train_fractions"),
        ({"C": [0.0]}, "C"),
        ({"C": []}, "C"),
        ({"cv": 1}, "cv"),
        ({"n_splits": 0}, "n_splits"),
        ({"kernel": np.full((3, 3), np.nan)}, "finite"),
    ],
)
def test_bad_input_is_named(kwargs: dict, match: str) -> None:
    args = {"kernel": np.eye(3), "y": [0, 1, 0]} | kwargs
    with pytest.raises(InvalidParameterError, match=match):
        gc.kernel_svm_accuracy(args.pop("kernel"), args.pop("y"), **args)
