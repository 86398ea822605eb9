"""The shared base of the online learners (on the library's one estimator base): coercion, the
Rust learner kept between ``partial_fit`` calls, and prediction. Ranges and invariants are the
Rust core's to check."""

from __future__ import annotations

from typing import Any, ClassVar, cast

import numpy as np
import numpy.typing as npt
from sklearn.base import ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from .. import _graphsparse as _rs
from .._base import GraphSparseEstimator
from .._validation import (
    as_edges,
    as_float_array,
    as_optional_count,
    check_endpoints,
    encode_binary,
    sklearn_data,
)
from ..exceptions import InvalidParameterError


def _stable_sigmoid(z: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    out = np.empty_like(z)
    pos = z > 0
    out[pos] = 1.0 / (1.0 + np.exp(-z[pos]))
    out[~pos] = 1.0 - 1.0 / (1.0 + np.exp(z[~pos]))
    return out


def graph_arrays(edges: Any, costs: Any) -> dict[str, Any]:
    """``{"edges": int64 (m, 2), "costs": float64 (m,)}``; unit costs by default."""
    e = as_edges(edges)
    c = np.ones(len(e)) if costs is None else as_float_array(costs, "costs")
    return {"edges": e, "costs": c}


_FITTED = (
    "coef_",
    "intercept_",
    "coef_avg_",
    "intercept_avg_",
    "n_samples_seen_",
    "n_mistakes_",
    "n_mistakes_avg_",
    "n_features_in_",
    "classes_",
)


class _OnlineClassifier(ClassifierMixin, GraphSparseEstimator):
    """Shared shell: label encoding, the state round trip through the Rust pass, prediction.

    Subclasses name their Rust method and the constructor parameters it takes; the Rust core
    checks every value.
    """

    _method: ClassVar[str]
    # constructor parameters passed to the Rust learner besides ``loss`` and ``l2``
    _params: ClassVar[tuple[str, ...]] = ()
    _state_vectors: ClassVar[tuple[str, ...]] = ()
    loss: str
    l2: float

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary: two labels, ±1 in the paper
        return tags

    def _rust_params(self, n_features: int) -> _rs.LearnerArgs:
        names = ("loss", "l2", *self._params)
        params = {k: getattr(self, k) for k in names}
        for k in _COUNTS.intersection(params):
            params[k] = as_optional_count(params[k], k)
        # the keys are this learner's: the binding reads them as its method's struct
        return cast("_rs.LearnerArgs", {"method": self._method, **params})

    def _graph_args(self, n_features: int) -> dict[str, Any]:
        return {}

    def _fitted_attributes(self) -> list[str]:
        names = [*_FITTED, *(k + "_" for k in self._state_vectors)]
        if "moment1" in self._state_vectors:
            names += ["beta1_power_", "beta2_power_"]
        return names

    def _state(self) -> _rs.OnlineState | None:
        if not hasattr(self, "coef_"):
            return None
        vectors = {
            key: np.ascontiguousarray(getattr(self, key + "_"), dtype=np.float64)
            for key in self._state_vectors
        }
        powers = {}
        if "moment1" in self._state_vectors:
            powers = {"beta1_power": self.beta1_power_, "beta2_power": self.beta2_power_}
        return _rs.OnlineState(
            coef=np.append(self.coef_, self.intercept_),
            coef_avg=np.append(self.coef_avg_, self.intercept_avg_),
            n_seen=int(self.n_samples_seen_),
            n_mistakes=int(self.n_mistakes_),
            n_mistakes_avg=int(self.n_mistakes_avg_),
            **vectors,
            **powers,
        )

    def _store(self, state: _rs.OnlineState, p: int) -> None:
        coef = state.coef
        coef_avg = state.coef_avg
        self.coef_ = coef[:p].copy()
        self.intercept_ = float(coef[p])
        self.coef_avg_ = coef_avg[:p].copy()
        self.intercept_avg_ = float(coef_avg[p])
        self.n_samples_seen_ = state.n_seen
        self.n_mistakes_ = state.n_mistakes
        self.n_mistakes_avg_ = state.n_mistakes_avg
        for key in self._state_vectors:
            setattr(self, key + "_", getattr(state, key))
        if "moment1" in self._state_vectors:
            self.beta1_power_ = state.beta1_power
            self.beta2_power_ = state.beta2_power
        self.n_features_in_ = p

    def _signed_targets(self, y: np.ndarray, classes: Any) -> npt.NDArray[np.float64]:
        """``y`` as ±1 (``classes_[1]`` is +1), fixing ``classes_`` on the first call."""
        if hasattr(self, "classes_"):
            known = self.classes_
            if classes is not None and not _same_labels(classes, known):
                raise InvalidParameterError(
                    f"classes={list(classes)!r} differs from classes_={known.tolist()!r} "
                    "of the earlier calls"
                )
        elif classes is not None:
            known = np.unique(np.asarray(classes))
            if len(known) != 2:
                raise InvalidParameterError(
                    f"classes must hold exactly two labels, got {known.tolist()!r}"
                )
        else:
            known, _ = encode_binary(y, len(y), type(self).__name__)
        try:
            if len(known) == 2 and y.dtype.kind in "biuf" and known.dtype.kind in "biuf":
                unseen = (y != known[0]) & (y != known[1])  # np.isin, without its set-up
            else:
                unseen = ~np.isin(y, known)
        except TypeError as err:
            raise InvalidParameterError(f"y labels cannot be compared: {err}") from None
        if unseen.any():
            raise InvalidParameterError(
                f"y has label {y[np.flatnonzero(unseen)[0]]!r}, not one of "
                f"classes_={known.tolist()!r}"
            )
        self.classes_ = known
        return np.where(y == known[1], 1.0, -1.0)

    def partial_fit(
        self, X: npt.ArrayLike, y: npt.ArrayLike, classes: npt.ArrayLike | None = None
    ) -> _OnlineClassifier:
        """Continue the online pass with the rows of ``X`` (one update per row, in order).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels, any two values (``classes_[1]`` is the positive class ``+1`` of the
            paper's ±1 convention).
        classes : array-like of shape (2,), optional
            Both labels; needed on the first call when that call's ``y`` holds only one of
            them (for example a single sample). Later calls must agree with ``classes_``.

        Returns
        -------
        self
        """
        first = not hasattr(self, "coef_")
        data = None if first else self._checked_fast(X, y)
        if data is None:
            data = sklearn_data(self, X, y, reset=first, classifier=True)
        Xa, ya = data
        p = Xa.shape[1]
        target = self._signed_targets(ya, classes)
        learner = self._learner(p)
        try:
            learner.partial_fit(Xa, target)
        except BaseException:
            # a pass stopped part-way (Ctrl-C) leaves the Rust state ahead of the attributes
            self.__dict__.pop("_rust_learner", None)
            raise
        self._store(learner.state(), p)
        self._rust_learner = (*self._rust_learner[:2], self._state_objects())
        return self

    def _checked_fast(self, X: Any, y: Any) -> tuple[np.ndarray, np.ndarray] | None:
        """``(X, y)`` unchanged when a later ``partial_fit`` call passes what
        :func:`~graphsparse._validation.sklearn_data` would return as is: a C-contiguous
        float64 ``X`` with ``n_features_in_`` columns and at least one row, all finite, on an
        estimator fitted without feature names, and a numeric 1-D ``y`` of one finite label
        per row. Anything else (``None``) goes through scikit-learn's ``validate_data``, which
        converts it or raises its own error."""
        if not (
            type(X) is np.ndarray
            and type(y) is np.ndarray
            and X.ndim == 2
            and y.ndim == 1
            and X.dtype == np.float64
            and y.dtype.kind in "biuf"
            and X.flags.c_contiguous
            and 0 < X.shape[0] == y.shape[0]
            and X.shape[1] == self.n_features_in_
            and not hasattr(self, "feature_names_in_")
        ):
            return None
        if not np.isfinite(X).all() or (y.dtype.kind == "f" and not np.isfinite(y).all()):
            return None
        return X, y

    def _learner_key(self, p: int) -> tuple[Any, ...]:
        """What the Rust learner is built from: the parameters' values and the graph inputs'
        objects (compared by identity: converting them is what the kept learner saves)."""
        values = tuple(getattr(self, k) for k in ("loss", "l2", *self._params))
        sources = tuple(getattr(self, k, None) for k in ("edges", "costs", "groups"))
        return (p, values, sources)

    def _learner(self, p: int) -> _rs.OnlineLearner:
        """The Rust learner of the running pass, kept between ``partial_fit`` calls while the
        parameters, the graph inputs and the fitted state are those it was built from or left;
        otherwise a new one, from the fitted attributes (or from zero on the first call)."""
        key = self._learner_key(p)
        kept = self.__dict__.get("_rust_learner")
        if kept is not None:
            old_key, learner, stored = kept
            if (
                old_key[0] == key[0]
                and _equal(old_key[1], key[1])
                and all(a is b for a, b in zip(old_key[2], key[2], strict=True))
                and stored is not None
                and all(a is b for a, b in zip(stored, self._state_objects(), strict=True))
                and learner.n_seen == self.n_samples_seen_
            ):
                return learner
        params = self._rust_params(p)
        learner = _rs.OnlineLearner(params, p, self._state(), **self._graph_args(p))
        self._rust_learner = (key, learner, None)
        return learner

    def _state_objects(self) -> tuple[Any, ...]:
        """The fitted attributes the state is read from, as objects: the kept learner is the
        state only while none of them was assigned anew."""
        d = self.__dict__
        return tuple(d.get(k) for k in self._fitted_attributes())

    def __getstate__(self) -> dict[str, Any]:
        # the Rust learner is not pickled (None in its place): the fitted attributes rebuild it
        state = dict(super().__getstate__())
        if "_rust_learner" in state:
            state["_rust_learner"] = None
        return state

    def fit(self, X: npt.ArrayLike, y: npt.ArrayLike) -> _OnlineClassifier:
        """One online pass over the rows of ``X`` starting from ``w = 0``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels, exactly two distinct values (sorted, the larger is ``+1``).

        Returns
        -------
        self
        """
        for attr in [*self._fitted_attributes(), "_rust_learner"]:
            if hasattr(self, attr):
                delattr(self, attr)
        return self.partial_fit(X, y)

    def _scores(self, X: npt.ArrayLike, avg: bool) -> npt.NDArray[np.float64]:
        check_is_fitted(self, "coef_")
        Xa = sklearn_data(self, X, reset=False)
        if avg:
            return Xa @ self.coef_avg_ + self.intercept_avg_
        return Xa @ self.coef_ + self.intercept_

    def _labels(self, score: npt.NDArray[np.float64]) -> np.ndarray:
        # graph-da's rule: positive where the sigmoid of the score reaches 0.5
        return self.classes_[(_stable_sigmoid(score) >= 0.5).astype(np.intp)]

    def decision_function(self, X: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """``X @ coef_ + intercept_`` (positive means ``classes_[1]``)."""
        return self._scores(X, avg=False)

    def predict(self, X: npt.ArrayLike) -> np.ndarray:
        """Class labels of the last iterate: ``classes_[1]`` where ``σ(decision) ≥ 0.5``."""
        return self._labels(self._scores(X, avg=False))

    def predict_avg(self, X: npt.ArrayLike) -> np.ndarray:
        """Class labels of the averaged model ``w̄`` (``coef_avg_``, ``intercept_avg_``)."""
        return self._labels(self._scores(X, avg=True))


def _equal(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """``a == b`` for parameter values; values that do not compare to one truth value (arrays)
    count as changed."""
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _same_labels(classes: Any, known: np.ndarray) -> bool:
    """Whether ``classes`` holds exactly the labels ``known`` (sorted, distinct): the same set,
    checked as a Python set first (what a per-sample call passes), else as NumPy compares."""
    try:
        if set(classes) == set(known.tolist()):
            return True
    except TypeError:
        pass
    return bool(np.array_equal(np.unique(classes), known))


# projection settings of the graph learners passed to Rust (the edges and costs go as arrays)
GRAPH_PARAMS = (
    "sparsity",
    "head_sparsity",
    "ratio",
    "max_iter",
    "num_clusters",
    "fallback",
    "lambda_start",
)
# the learners' integer parameters (None: the core's default, or its "missing" error)
_COUNTS = frozenset({"sparsity", "head_sparsity", "max_iter", "num_clusters"})


class _GraphMixin:
    """The feature graph and projection settings of GraphDA and GraphStoIHT."""

    edges: Any
    costs: Any

    def _graph_args(self, n_features: int) -> dict[str, Any]:
        graph = graph_arrays(self.edges, self.costs)
        check_endpoints(
            graph["edges"],
            n_features,
            f"X has {n_features} columns",
            "the graph has one node per column (feature) of X",
        )
        return graph
