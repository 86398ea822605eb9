"""Library-wide scikit-learn conventions: every public estimator clones and raises
``NotFittedError`` before ``fit`` (a stateless one, tagged ``requires_fit=False``, works)."""

from __future__ import annotations

import importlib
import inspect
import warnings
from typing import Any

import numpy as np
import pytest
from sklearn.base import BaseEstimator, clone, is_classifier
from sklearn.exceptions import NotFittedError

import graphsparse as gs
from graphsparse.exceptions import InvalidParameterError

MODULES = ["models", "online", "recovery", "compression", "rules"]

_EDGE = [[0, 1]]

# how to build each public estimator, and what to call on unfitted
FACTORIES: dict[str, Any] = {
    "GraphDA": lambda m: m.GraphDA(_EDGE, 1, 1.0),
    "GraphStoIHT": lambda m: m.GraphStoIHT(_EDGE, 1, 0.1),
    "DAIHT": lambda m: m.DAIHT(1, 1.0),
    "StoIHT": lambda m: m.StoIHT(1, 0.1),
    "GraphStructuredRecovery": lambda m: m.GraphStructuredRecovery(_EDGE),
    "LatentGroupLasso": lambda m: m.LatentGroupLasso(_EDGE),
    "GraphIHT": lambda m: m.GraphIHT(_EDGE, 1),
}


def _public_estimators() -> list[tuple[str, Any, type]]:
    found = []
    for name in MODULES:
        try:
            module = importlib.import_module(f"graphsparse.{name}")
        except ImportError:
            continue
        for attr in getattr(module, "__all__", []):
            obj = getattr(module, attr)
            if inspect.isclass(obj) and issubclass(obj, BaseEstimator):
                found.append((attr, module, obj))
    return found


ESTIMATORS = _public_estimators()


def _build(name: str, module: Any, cls: type) -> Any:
    if name in FACTORIES:
        return FACTORIES[name](module)
    return cls()


def _input_for(est: Any) -> Any:
    if type(est).__module__.startswith(("graphsparse.models", "graphsparse.compression")):
        return gs.datasets.make_subgraph_classification(10, random_state=0)
    return np.ones((3, 2))


def test_the_public_estimators_are_found() -> None:
    names = {n for n, _, _ in ESTIMATORS}
    assert {"SubgraphLogisticRegression", "GraphDA", "GraphStructuredRecovery"} <= names


@pytest.mark.parametrize(("name", "module", "cls"), ESTIMATORS, ids=[n for n, _, _ in ESTIMATORS])
def test_unfitted_estimators_raise_not_fitted_error(name: str, module: Any, cls: type) -> None:
    est = _build(name, module, cls)
    assert clone(est).get_params() == est.get_params()
    if not est.__sklearn_tags__().requires_fit:
        # stateless (the compressors): documented to work unfitted, as the tag says
        est.transform(_input_for(est))
        return
    methods = [
        m
        for m in ("predict", "predict_proba", "decision_function", "transform", "score")
        if hasattr(est, m)
    ]
    assert methods, f"{name} has no method that needs a fitted model"
    X = _input_for(est)
    for method in methods:
        args = (X, np.zeros(len(X))) if method == "score" else (X,)
        with pytest.raises(NotFittedError):
            getattr(est, method)(*args)


def _misaligned(values: list[float], dtype: Any) -> np.ndarray:
    """A C-contiguous but unaligned array, as a buffer unpickled in another process can be."""
    itemsize = np.dtype(dtype).itemsize
    raw = np.zeros(len(values) * itemsize + 1, dtype=np.uint8)
    arr = np.frombuffer(raw.data, dtype=dtype, count=len(values), offset=1)
    arr.flags.writeable = True
    arr[:] = values
    assert not arr.flags.aligned and arr.flags.c_contiguous
    return arr


def test_unaligned_arrays_are_accepted() -> None:
    y = _misaligned([0.9, -0.3, 0.4, 2.0], np.float64)
    np.testing.assert_array_equal(gs.project_simplex(y), gs.project_simplex(np.array(y)))
    edges = _misaligned([0, 1, 1, 2, 2, 3], np.int64).reshape(3, 2)
    prizes = np.array([1.0, 0.0, 0.0, 1.0])
    costs = np.full(3, 0.5)
    assert str(gs.pcst(edges, prizes, costs)) == str(gs.pcst(np.array(edges), prizes, costs))


def _training_data(est: Any) -> tuple[Any, Any]:
    if _reads_graphs(est):
        ds = gs.datasets.make_subgraph_classification(20, random_state=0)
        return ds, ds.y
    X = np.random.default_rng(0).normal(size=(40, 2))
    return X, (X[:, 0] > 0).astype(int) if is_classifier(est) else X[:, 0]


def _reads_graphs(est: Any) -> bool:
    return type(est).__module__.startswith(("graphsparse.models", "graphsparse.compression"))


# what needs a fitted model and reads X
_METHODS = (
    "predict",
    "predict_proba",
    "predict_log_proba",
    "decision_function",
    "predict_avg",
    "transform",
    "score",
)


@pytest.mark.parametrize(("name", "module", "cls"), ESTIMATORS, ids=[n for n, _, _ in ESTIMATORS])
def test_an_x_of_the_wrong_shape_raises_the_librarys_error(
    name: str, module: Any, cls: type
) -> None:
    """Every estimator, given an ``X`` unlike the one it was fitted on (a column too many; a
    feature matrix where it reads graphs), raises ``InvalidParameterError`` naming ``X``: never
    scikit-learn's plain ``ValueError`` (it still is one, so scikit-learn's checks pass)."""
    est = _build(name, module, cls)
    X, y = _training_data(est)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence on this small problem is beside the point
        est.fit(X, y)
    wrong = np.ones((5, 3))
    methods = [m for m in _METHODS if hasattr(est, m)]
    assert methods
    for method in methods:
        args = (wrong, np.zeros(5)) if method == "score" else (wrong,)
        with pytest.raises(InvalidParameterError, match=r"\bX\b"):
            getattr(est, method)(*args)
