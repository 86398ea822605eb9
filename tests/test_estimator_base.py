"""The one estimator base (``graphsparse._base``): every public estimator derives from it, the
solvers set the same fitted attributes, every budget stop issues the one warning class, the
certificate is ``dual_gap_`` (``duality_gap_`` a deprecated alias) and fitted models pickle.

The estimators are found by walking graphsparse's public modules, so a new one is checked
without being listed: it fails here until it is classed as a solver (with the budget that
stops it) or as an estimator without one.
"""

from __future__ import annotations

import importlib
import inspect
import math
import pickle
import pkgutil
import warnings
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.exceptions import ConvergenceWarning

import graphsparse as gs
from graphsparse._base import BUDGETS, GraphSparseEstimator
from graphsparse.exceptions import TruncatedSearchWarning


def _public_modules() -> list[Any]:
    modules = []
    for info in pkgutil.walk_packages(gs.__path__, "graphsparse."):
        if any(part.startswith("_") for part in info.name.split(".")[1:]):
            continue
        try:
            modules.append(importlib.import_module(info.name))
        except ImportError:  # an optional extra that is not installed
            continue
    return modules


def _public_estimators() -> list[type]:
    found: dict[str, type] = {}
    for module in _public_modules():
        for name, obj in vars(module).items():
            if (
                not name.startswith("_")
                and inspect.isclass(obj)
                and issubclass(obj, BaseEstimator)
                and obj.__module__.startswith("graphsparse")
                and not obj.__name__.startswith("_")
                and obj is not GraphSparseEstimator
            ):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return sorted(found.values(), key=lambda c: c.__name__)


ESTIMATORS = _public_estimators()
IDS = [c.__name__ for c in ESTIMATORS]


def _name(cls: type) -> str:
    return cls.__name__


_EDGES = [(0, 1), (1, 2), (2, 3)]
# the estimators whose constructor needs arguments
_ARGS: dict[str, tuple[Any, ...]] = {
    "GraphDA": (_EDGES, 2, 10.0),
    "GraphStoIHT": (_EDGES, 2, 0.1),
    "DAIHT": (2, 10.0),
    "StoIHT": (2, 0.1),
}
# small problems, quick fits
_SMALL: dict[str, dict[str, Any]] = {
    "SubgraphLogisticRegression": {"max_size": 3, "n_jobs": 1},
    "SubgraphLinearRegression": {"max_size": 3, "n_jobs": 1},
    "SubgraphLPBoost": {"max_size": 3, "n_jobs": 1},
    "SubgraphAdaBoost": {"max_size": 3, "n_estimators": 5, "n_jobs": 1},
    "GraphStructuredRecovery": {"edges": _EDGES, "n_jobs": 1},
    "GraphStructuredClassifier": {"edges": _EDGES, "n_jobs": 1},
    "LatentGroupLasso": {"edges": _EDGES, "n_jobs": 1},
    "GraphIHT": {"edges": _EDGES, "sparsity": 2, "n_jobs": 1},
    "RuleEnsembleClassifier": {"max_nodes": 200},
    "RuleEnsembleRegressor": {"max_nodes": 200},
}

# the solvers: whether they certify their result (dual_gap_), decide convergence
# (converged_), and the parameters that make a budget stop them, with the budget named
SOLVERS: dict[str, tuple[bool, bool, dict[str, Any], str]] = {
    "SubgraphLogisticRegression": (True, True, {"max_iter": 1}, "max_iter"),
    "SubgraphLinearRegression": (True, True, {"max_iter": 1}, "max_iter"),
    "SubgraphLPBoost": (False, True, {"max_iter": 1}, "max_iter"),
    "SubgraphAdaBoost": (False, False, {}, "max_nodes"),  # see _adaboost_cut
    "GraphStructuredRecovery": (True, True, {"max_iter": 1}, "max_iter"),
    "GraphStructuredClassifier": (True, True, {"max_iter": 1}, "max_iter"),
    "LatentGroupLasso": (True, True, {"max_iter": 1}, "max_iter"),
    "GraphIHT": (False, True, {"max_iter": 1}, "max_iter"),
    "RuleEnsembleClassifier": (True, True, {"max_nodes": 1}, "max_nodes"),
    "RuleEnsembleRegressor": (True, True, {"max_nodes": 1}, "max_nodes"),
}
# estimators without an iterative solver: nothing to converge, no budget to stop them
WITHOUT_SOLVER = {
    "OTCompressor",
    "RECCompressor",
    "HeavyEdgeCompressor",
    "AlgebraicDistanceCompressor",
    "AffinityCompressor",
    "WLSubtreeFeatures",
    "GraphDA",
    "GraphStoIHT",
    "DAIHT",
    "StoIHT",
    "L1RDA",
    "AdaGradL1",
    "DAGL",
    "DASGL",
    "Adam",
}
# the estimators that had ``duality_gap_`` before the rename
ALIASED = {
    "SubgraphLogisticRegression",
    "SubgraphLinearRegression",
    "RuleEnsembleClassifier",
    "RuleEnsembleRegressor",
}
_OUTCOME = ("n_iter_", "converged_", "truncated_", "truncation_", "dual_gap_")


def _build(cls: type, **params: Any) -> Any:
    est = cls(*_ARGS.get(cls.__name__, ()))
    return est.set_params(**{**_SMALL.get(cls.__name__, {}), **params})


def _data(est: Any) -> tuple[Any, Any]:
    module = type(est).__module__
    if module.startswith(("graphsparse.models", "graphsparse.compression")):
        ds = gs.datasets.make_subgraph_classification(n_samples=20, random_state=0)
        if type(est).__name__ == "SubgraphLinearRegression":
            return ds, ds.y.astype(float) + np.linspace(0.0, 0.5, len(ds))
        return ds, ds.y
    rng = np.random.default_rng(0)
    X = rng.uniform(-1.0, 1.0, size=(40, 4))
    signal = X[:, 0] + 0.5 * X[:, 1]
    if type(est).__name__ in ("GraphStructuredClassifier", "RuleEnsembleClassifier"):
        return X, np.where(signal > 0, "yes", "no")
    if module.startswith("graphsparse.online"):
        return X, (signal > 0).astype(int)
    return X, signal + 0.01 * rng.standard_normal(40)


def _fit(cls: type, **params: Any) -> Any:
    est = _build(cls, **params)
    X, y = _data(est)
    with warnings.catch_warnings():
        # a budget stop is beside the point of these tests (the budget tests force one)
        warnings.simplefilter("ignore", TruncatedSearchWarning)
        est.fit(X, y)
    return est


def _output(est: Any) -> Any:
    X, _ = _data(est)
    method = "predict" if hasattr(est, "predict") else "transform"
    return getattr(est, method)(X)


def _same(a: Any, b: Any) -> bool:
    if sp.issparse(a):
        return (a != b).nnz == 0
    if isinstance(a, gs.GraphDataset):
        graphs = [(sorted(g.nodes(data="label")), sorted(g.edges)) for g in a.graphs]
        return graphs == [(sorted(g.nodes(data="label")), sorted(g.edges)) for g in b.graphs]
    return bool(np.array_equal(a, b))


def test_the_walk_finds_every_family() -> None:
    modules = {c.__module__ for c in ESTIMATORS}
    assert {
        "graphsparse.models",
        "graphsparse.recovery",
        "graphsparse.rules",
        "graphsparse.compression",
        "graphsparse.online.estimators",
    } <= modules
    # every estimator is classed here, once
    names = set(IDS)
    assert len(names) == len(IDS)
    assert names == set(SOLVERS) | WITHOUT_SOLVER
    assert not set(SOLVERS) & WITHOUT_SOLVER


@pytest.mark.parametrize("cls", ESTIMATORS, ids=IDS)
def test_every_estimator_derives_from_the_one_base(cls: type) -> None:
    assert issubclass(cls, GraphSparseEstimator)
    # the scikit-learn mixins come before the base, as scikit-learn requires
    mro = cls.__mro__
    assert mro.index(GraphSparseEstimator) < mro.index(BaseEstimator)


@pytest.mark.parametrize("cls", [c for c in ESTIMATORS if c.__name__ in SOLVERS], ids=_name)
def test_solvers_set_the_common_fitted_attributes(cls: type) -> None:
    certified, decides, _, _ = SOLVERS[cls.__name__]
    est = _fit(cls)
    assert type(est.n_iter_) is int and est.n_iter_ >= 0
    assert type(est.truncated_) is bool
    assert est.truncation_ is None or est.truncation_ in BUDGETS
    assert est.truncated_ == (est.truncation_ is not None)
    if decides:
        assert type(est.converged_) is bool
        assert not (est.truncated_ and est.converged_)
    else:
        assert not hasattr(est, "converged_")
    if certified:
        assert type(est.dual_gap_) is float
        assert math.isnan(est.dual_gap_) or est.dual_gap_ >= 0.0
    else:
        assert not hasattr(est, "dual_gap_")


@pytest.mark.parametrize("cls", [c for c in ESTIMATORS if c.__name__ in WITHOUT_SOLVER], ids=_name)
def test_estimators_without_a_solver_claim_no_outcome(cls: type) -> None:
    est = _fit(cls)
    assert [a for a in _OUTCOME if hasattr(est, a)] == []


def _adaboost_cut(cls: type) -> dict[str, Any]:
    """A node budget that lets Adaboost's first rounds finish and stops a later one (each
    round's search has the budget; with none at all a round can stop before any stump)."""
    full = _fit(cls)
    for budget in range(min(full.n_visited_), 2 * max(full.n_visited_), 10):
        est = _build(cls, max_nodes=budget)
        X, y = _data(est)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", TruncatedSearchWarning)
            try:
                est.fit(X, y)
            except gs.exceptions.InvalidParameterError:  # cut before the first stump
                continue
        if est.truncated_:
            return {"max_nodes": budget}
    raise AssertionError("no node budget stops Adaboost after its first round")


@pytest.mark.parametrize("cls", [c for c in ESTIMATORS if c.__name__ in SOLVERS], ids=_name)
def test_a_budget_stop_issues_the_one_warning(cls: type) -> None:
    _, decides, params, budget = SOLVERS[cls.__name__]
    if cls.__name__ == "SubgraphAdaBoost":
        params = _adaboost_cut(cls)
    est = _build(cls, **params)
    X, y = _data(est)
    with pytest.warns(TruncatedSearchWarning, match=budget) as record:
        est.fit(X, y)
    # one warning, of the one class, a ConvergenceWarning, pointing at the call to fit
    stops = [w for w in record if issubclass(w.category, ConvergenceWarning)]
    assert [w.category for w in stops] == [TruncatedSearchWarning]
    assert isinstance(stops[0].message, ConvergenceWarning)
    assert stops[0].filename == __file__
    assert est.truncated_ is True and est.truncation_ == budget
    if decides:
        assert est.converged_ is False


def test_paths_warn_at_the_caller_too() -> None:
    ds, y = _data(gs.SubgraphLogisticRegression())
    model = gs.SubgraphLogisticRegression(max_size=3, max_iter=1)
    with pytest.warns(TruncatedSearchWarning, match="max_iter") as record:
        fits = gs.lambda1_path(model, ds, y, [0.05, 0.02])
    assert {w.filename for w in record} == {__file__}
    assert all(m.truncation_ == "max_iter" for m in fits)
    rules = gs.rules.RuleEnsembleRegressor(max_nodes=1)
    X, target = _data(rules)
    with pytest.warns(TruncatedSearchWarning, match="max_nodes") as record:
        rules.path(X, target, [1.0, 2.0])
    assert {w.filename for w in record} == {__file__}
    X, target = _data(gs.recovery.GraphStructuredRecovery())
    with pytest.warns(TruncatedSearchWarning, match="time_limit") as record:
        gs.recovery.recovery_path(X, target, _EDGES, time_limit=1e-9, n_lambdas=3)
    assert [w.filename for w in record] == [__file__]


def test_a_cancelled_run_is_no_budget() -> None:
    est = gs.SubgraphLogisticRegression()
    with pytest.raises(KeyboardInterrupt):
        est._set_outcome(n_iter=0, converged=False, truncation="cancelled")
    assert not hasattr(est, "truncated_")


def test_the_deprecated_alias_is_where_it_was() -> None:
    have = {
        c.__name__ for c in ESTIMATORS if isinstance(getattr(c, "duality_gap_", None), property)
    }
    assert have == ALIASED


@pytest.mark.parametrize("cls", [c for c in ESTIMATORS if c.__name__ in ALIASED], ids=_name)
def test_duality_gap_is_a_deprecated_read_only_alias(cls: type) -> None:
    est = _fit(cls)
    with pytest.warns(FutureWarning, match="dual_gap_") as record:
        old = est.duality_gap_
    assert record[0].filename == __file__
    assert old == est.dual_gap_ or (math.isnan(old) and math.isnan(est.dual_gap_))
    with pytest.raises(AttributeError):
        est.duality_gap_ = 0.0
    # the alias is on the class only: parameters, clones and pickles never meet it (an
    # access would fail here, as warnings are errors in this suite)
    assert "duality_gap_" not in vars(est) and "duality_gap_" not in est.get_params()
    clone(est)
    again = pickle.loads(pickle.dumps(est))
    assert again.dual_gap_ == est.dual_gap_ or math.isnan(est.dual_gap_)
    # a model pickled before the rename reads with its certificate under the new name
    state = dict(est.__getstate__())  # a copy: object.__getstate__ gives the __dict__ itself
    state["duality_gap_"] = state.pop("dual_gap_")
    old_model = cls.__new__(cls)
    old_model.__setstate__(state)
    assert "duality_gap_" not in vars(old_model)
    assert old_model.dual_gap_ == est.dual_gap_ or math.isnan(est.dual_gap_)


@pytest.mark.parametrize("cls", ESTIMATORS, ids=IDS)
def test_fitted_estimators_pickle(cls: type) -> None:
    est = _fit(cls)
    again = pickle.loads(pickle.dumps(est))
    assert type(again) is cls and sorted(vars(again)) == sorted(vars(est))
    for attr in _OUTCOME:
        if hasattr(est, attr):
            a, b = getattr(est, attr), getattr(again, attr)
            assert a == b or (isinstance(a, float) and math.isnan(a) and math.isnan(b))
    assert _same(_output(again), _output(est))


@pytest.mark.parametrize(
    "cls", [c for c in ESTIMATORS if issubclass(c, ClassifierMixin)], ids=_name
)
@pytest.mark.parametrize(
    "labels", [("no", "yes"), (3, 7), (False, True)], ids=["strings", "ints", "bools"]
)
def test_classifiers_take_any_two_labels(cls: type, labels: tuple[Any, Any]) -> None:
    est = _build(cls)
    X, y = _data(est)
    binary = np.unique(y, return_inverse=True)[1]  # 0/1, whatever _data gave
    named = np.asarray(labels)[binary]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TruncatedSearchWarning)
        est.fit(X, named)
    assert est.classes_.tolist() == list(labels)
    assert set(np.asarray(est.predict(X)).tolist()) <= set(labels)
