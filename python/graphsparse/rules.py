"""Rule ensembles by generalized hierarchical kernel learning (gHKL, gHKL-MT).

A rule ensemble predicts ``F(x) = sum_r w_r [x satisfies rule r] - b``, where every rule is a
conjunction of basic propositions such as ``petal_width <= 0.8 AND colour == 'red'``. gHKL
(Jawanpuria, Nath & Ramakrishnan, JMLR 16, 2015) learns the rules and their weights at once by
hierarchical multiple kernel learning over the lattice of *all* conjunctions, with the
regulariser ``sum_v a^|v| ||f_D(v)||_rho`` that favours few, short rules (``rho`` in (1, 2];
``rho = 2`` is Bach's HKL). An active-set method solves this exponentially large problem
exactly, visiting only the conjunctions its optimality condition reaches, and certifies the
result with a duality gap (``dual_gap_``).

* :class:`RuleEnsembleClassifier` — hinge loss; two classes directly, more classes by gHKL-MT
  (one-vs-rest tasks sharing one lattice, optionally coupled by ``mu``).
* :class:`RuleEnsembleRegressor` — squared loss.

Input is a NumPy array or a pandas DataFrame. Numeric columns give threshold propositions
``x <= t`` and ``x > t`` at a few quantiles of their distinct values (the paper's rule, spec
§7.1); object, category and bool columns (or those named in ``categorical_features``) give
``x == v`` (and ``x != v`` for three or more values). A missing value (NaN, None) satisfies no
proposition, and neither does a category first seen at prediction time: rules that test that
column simply do not fire.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from sklearn.base import ClassifierMixin, RegressorMixin, TransformerMixin, clone
from sklearn.utils import TransformerTags
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from . import _graphsparse as _rs
from ._base import GraphSparseEstimator, deprecated_alias
from ._validation import (
    as_count,
    as_optional_count,
    as_real,
    as_real_target,
    as_target,
    set_init_params,
)
from .exceptions import InvalidParameterError

__all__ = ["Condition", "Rule", "RuleEnsembleClassifier", "RuleEnsembleRegressor", "cut_points"]

_MISSING = np.uint32(2**32 - 1)
# what a path's fits share (set once by ``_fit_grid``)
_SHARED = (
    "categories_",
    "classes_",
    "feature_names_in_",
    "n_features_in_",
    "propositions_",
    "_feature_names",
    "_props",
    "_tasks",
)
_CUT_RULES = ("distinct_quantiles", "quantiles", "equal_width")


@dataclass(frozen=True)
class Condition:
    """One basic proposition: ``feature op value``.

    Attributes
    ----------
    feature : str
        Column name (``x<j>`` for unnamed columns).
    op : {"<=", ">", "==", "!="}
    value : float or object
        The threshold (numeric columns) or the category.
    """

    feature: str
    op: str
    value: Any

    def __str__(self) -> str:
        if self.op in ("<=", ">"):
            return f"{self.feature} {self.op} {self.value:.6g}"
        return f"{self.feature} {self.op} {self.value!r}"

    def holds(self, x: Any) -> bool:
        """Whether the value ``x`` of this feature satisfies the condition (missing: never)."""
        if x is None or (isinstance(x, float) and np.isnan(x)):
            return False
        if self.op == "<=":
            return bool(x <= self.value)
        if self.op == ">":
            return bool(x > self.value)
        if self.op == "==":
            return bool(x == self.value)
        return bool(x != self.value)


@dataclass(frozen=True)
class Rule:
    """A fitted rule: a conjunction of conditions with its weight(s).

    Attributes
    ----------
    conditions : tuple of Condition
    weights : tuple of float
        One weight per task: for a binary classifier or a regressor a single weight (positive
        favours ``classes_[1]`` / larger targets); for ``K > 2`` classes one per class.
    support : int
        Number of training rows where the rule fires.
    strength : float
        ``||weights||_2``; rules are listed strongest first.
    """

    conditions: tuple[Condition, ...]
    weights: tuple[float, ...]
    support: int
    strength: float

    @property
    def weight(self) -> float:
        """The weight of a single-task model (binary classifier, regressor)."""
        if len(self.weights) != 1:
            raise AttributeError("a multiclass rule has one weight per class; use .weights")
        return self.weights[0]

    @property
    def length(self) -> int:
        """Number of conditions."""
        return len(self.conditions)

    def __str__(self) -> str:
        return " AND ".join(str(c) for c in self.conditions)


# -- tables ---------------------------------------------------------------------------------------
def _py(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def _is_missing(v: Any) -> bool:
    if v is None:
        return True
    try:
        import pandas as pd

        if v is pd.NA or v is pd.NaT:
            return True
    except ImportError:  # pragma: no cover - pandas is optional
        pass
    return isinstance(v, float | np.floating) and bool(np.isnan(v))


def _sort_key(v: Any) -> tuple[str, Any]:
    if isinstance(v, bool | np.bool_):
        return ("0bool", bool(v))
    if isinstance(v, numbers.Real):
        return ("1num", float(v))
    return ("2" + type(v).__name__, str(v))


def _is_dataframe(X: Any) -> bool:
    return hasattr(X, "iloc") and hasattr(X, "dtypes") and hasattr(X, "columns")


def _categorical_dtype(dtype: Any) -> bool:
    kind = getattr(dtype, "kind", None)
    return kind in ("O", "b", "U", "S") or str(dtype) in ("category", "string", "boolean")


class _Table:
    """The columns of ``X`` as 1-D arrays with a name and a categorical flag each."""

    def __init__(self, X: Any, categorical_features: Any) -> None:
        if _is_dataframe(X):
            names = [str(c) for c in X.columns]
            cols = [X.iloc[:, j] for j in range(X.shape[1])]
            flags = [_categorical_dtype(c.dtype) for c in cols]
            values = [
                np.asarray(c.to_numpy(dtype=object)) if f else c
                for c, f in zip(cols, flags, strict=True)
            ]
        else:
            if sp.issparse(X):
                raise TypeError(
                    "X: sparse input is not supported (rule ensembles read columns); "
                    "pass a dense array or a DataFrame"
                )
            try:
                arr = np.asarray(X)
            except (TypeError, ValueError) as err:
                raise InvalidParameterError(f"X cannot be converted to an array: {err}") from None
            if arr.ndim != 2:
                raise InvalidParameterError(
                    f"X must be a 2-D array (n_samples, n_features), got shape {arr.shape}; "
                    "reshape a single feature with X.reshape(-1, 1)"
                )
            names = [f"x{j}" for j in range(arr.shape[1])]
            if arr.dtype.kind == "O":
                flags = [
                    any(isinstance(v, str | bool | np.str_ | np.bool_) for v in arr[:, j])
                    for j in range(arr.shape[1])
                ]
            else:
                flags = [_categorical_dtype(arr.dtype)] * arr.shape[1]
            values = [arr[:, j] for j in range(arr.shape[1])]
        self.names = names
        self.values = values
        self.n_rows = len(values[0]) if values else (X.shape[0] if hasattr(X, "shape") else 0)
        if categorical_features is not None:
            flags = _categorical_mask(categorical_features, names, flags)
        self.categorical = flags

    def numeric(self, j: int) -> npt.NDArray[np.float64]:
        col = self.values[j]
        if np.asarray(col).dtype.kind == "c":
            raise InvalidParameterError(f"X column {self.names[j]!r}: Complex data not supported")
        try:
            arr = np.asarray(col, dtype=np.float64)
        except (TypeError, ValueError) as err:
            raise InvalidParameterError(
                f"X column {self.names[j]!r} is numeric but holds a value that is not a "
                f"number: {err} (name it in categorical_features to treat it as categorical)"
            ) from err
        return np.ascontiguousarray(arr)


def _categorical_mask(spec: Any, names: list[str], default: list[bool]) -> list[bool]:
    n = len(names)
    if isinstance(spec, str):
        spec = [spec]
    arr = np.asarray(spec)
    if arr.dtype.kind == "b":
        if arr.shape != (n,):
            raise InvalidParameterError(
                f"categorical_features as a mask must have {n} entries, got shape {arr.shape}"
            )
        return [bool(v) for v in arr]
    out = list(default)
    for v in spec:
        if isinstance(v, str):
            if v not in names:
                raise InvalidParameterError(
                    f"categorical_features names column {v!r}, which X does not have"
                )
            out[names.index(v)] = True
        elif isinstance(v, numbers.Integral) and not isinstance(v, bool | np.bool_):
            if not -n <= int(v) < n:
                raise InvalidParameterError(
                    f"categorical_features index {int(v)} is out of range for {n} columns"
                )
            out[int(v)] = True
        else:
            raise InvalidParameterError(
                f"categorical_features must hold column names, indices or a boolean mask, got {v!r}"
            )
    return out


def _explicit_cuts(spec: Any, table: _Table) -> list[list[float] | None]:
    """``cut_points`` as one entry per column: the given thresholds, ``None`` for the rule."""
    if not isinstance(spec, Mapping):
        raise InvalidParameterError(
            f"cut_points must map columns (names or indices) to thresholds, got {spec!r}"
        )
    n = len(table.names)
    out: list[list[float] | None] = [None] * n
    for key, cuts in spec.items():
        if isinstance(key, str):
            if key not in table.names:
                raise InvalidParameterError(
                    f"cut_points names column {key!r}, which X does not have"
                )
            j = table.names.index(key)
        elif isinstance(key, numbers.Integral) and not isinstance(key, bool | np.bool_):
            if not -n <= int(key) < n:
                raise InvalidParameterError(
                    f"cut_points index {int(key)} is out of range for {n} columns"
                )
            j = int(key) % n
        else:
            raise InvalidParameterError(
                f"cut_points keys must be column names or indices, got {key!r}"
            )
        if table.categorical[j]:
            raise InvalidParameterError(
                f"cut_points gives thresholds for column {table.names[j]!r}, which is categorical"
            )
        try:
            values = np.asarray(cuts, dtype=np.float64).ravel()
        except (TypeError, ValueError):
            raise InvalidParameterError(
                f"cut_points for column {table.names[j]!r} must be numbers, got {cuts!r}"
            ) from None
        out[j] = [float(v) for v in values]
    return out


def _encode(values: Any, categories: list[Any] | None) -> tuple[Any, list[Any]]:
    """Codes of a categorical column (and the categories when fitting)."""
    raw = [_py(v) for v in np.asarray(values, dtype=object)]
    present = [not _is_missing(v) for v in raw]
    if categories is None:
        try:
            categories = sorted(
                {v for v, ok in zip(raw, present, strict=True) if ok}, key=_sort_key
            )
        except TypeError as err:
            raise InvalidParameterError(f"X holds an unhashable category: {err}") from None
    lookup = {v: k for k, v in enumerate(categories)}
    unseen = len(categories)
    codes = np.empty(len(raw), dtype=np.uint32)
    for i, (v, ok) in enumerate(zip(raw, present, strict=True)):
        if not ok:
            codes[i] = _MISSING
        else:
            try:
                codes[i] = lookup.get(v, unseen)
            except TypeError:
                codes[i] = unseen
    return codes, categories


def cut_points(
    X: Any,
    *,
    n_cuts: int = 4,
    cut_rule: str = "distinct_quantiles",
    categorical_features: Any = None,
) -> dict[str, npt.NDArray[np.float64]]:
    """The thresholds ``cut_rule`` places on each numeric column of ``X``.

    The same propositionalisation the estimators fit, without a model. The paper computes cut
    points once on the whole table before splitting it; pass this function's result as
    ``cut_points=`` to reproduce that protocol (the estimators otherwise fit them on each
    training set, as a scikit-learn estimator must).

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
    n_cuts, cut_rule, categorical_features
        As in :class:`RuleEnsembleClassifier`.

    Returns
    -------
    dict
        Column name (``x<j>`` for unnamed columns) to its increasing thresholds; categorical
        columns are left out.

    Examples
    --------
    >>> from graphsparse.rules import cut_points
    >>> cut_points([[1.0], [2.0], [3.0], [4.0], [5.0]], n_cuts=2)
    {'x0': array([2.33333333, 3.66666667])}
    """
    if cut_rule not in _CUT_RULES:
        raise InvalidParameterError(
            f"cut_rule must be one of {', '.join(map(repr, _CUT_RULES))}, got {cut_rule!r}"
        )
    table = _Table(X, categorical_features)
    if table.n_rows == 0 or not table.names:
        raise InvalidParameterError(f"X must have rows and columns, got {table.n_rows} rows")
    cols: list[Any] = []
    for j, cat in enumerate(table.categorical):
        if cat:
            codes, categories = _encode(table.values[j], None)
            cols.append((codes, len(categories)))
        else:
            cols.append(table.numeric(j))
    prop = {"n_cuts": as_count(n_cuts, "n_cuts"), "cut_rule": cut_rule, "not_equal": True}
    props = _rs.rule_propositions(cols, prop)
    out: dict[str, list[float]] = {
        name: [] for name, cat in zip(table.names, table.categorical, strict=True) if not cat
    }
    for feature, op, value in props:
        if op == "<=":
            out[table.names[int(feature)]].append(float(value))
    return {k: np.asarray(v, dtype=np.float64) for k, v in out.items()}


# -- the estimators -------------------------------------------------------------------------------
class _RuleEnsemble(TransformerMixin, GraphSparseEstimator):
    """Shared code of the rule-ensemble estimators."""

    _loss = "hinge"
    duality_gap_ = deprecated_alias("duality_gap_", "dual_gap_")

    def __init__(
        self,
        rho: float = 1.5,
        C: float = 1.0,
        a: float = 2.0,
        *,
        categorical_features: Any = None,
        n_cuts: int = 4,
        cut_rule: str = "distinct_quantiles",
        cut_points: Any = None,
        tol: float = 1e-3,
        max_iter: int = 300,
        rule_threshold: float = 1e-3,
        max_nodes: int | None = 50_000,
        time_limit: float | None = None,
        kernel_cache_bytes: int = 64 << 20,
        n_jobs: int | None = 1,
        verbose: bool | int | str = 0,
    ) -> None:
        set_init_params(self, locals())

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.transformer_tags = TransformerTags(preserves_dtype=[])
        return tags

    def get_feature_names_out(self, input_features: Any = None) -> npt.NDArray[np.object_]:
        """The output names of :meth:`transform`: each rule as text."""
        check_is_fitted(self, "rules_")
        return np.asarray([str(r) for r in self.rules_], dtype=object)

    # - hooks of the subclasses
    def _targets(self, y: Any, n: int) -> tuple[npt.NDArray[np.float64], int]:
        raise NotImplementedError

    def _mu(self) -> float | None:
        return None

    # - conversion
    def _columns(self, table: _Table, fitting: bool) -> list[Any]:
        cols: list[Any] = []
        if fitting:
            self.categories_: list[list[Any] | None] = []
        for j in range(len(table.names)):
            if table.categorical[j]:
                known = None if fitting else self.categories_[j]
                codes, cats = _encode(table.values[j], known)
                if fitting:
                    self.categories_.append(cats)
                cols.append((codes, len(cats)))
            else:
                if fitting:
                    self.categories_.append(None)
                cols.append(table.numeric(j))
        return cols

    def _table(self, X: Any, fitting: bool) -> _Table:
        if not _is_dataframe(X) and not sp.issparse(X):
            try:
                X = np.asarray(X)
            except (TypeError, ValueError) as err:
                raise InvalidParameterError(f"X cannot be converted to an array: {err}") from None
        if not _is_dataframe(X) and not sp.issparse(X) and X.ndim != 2:
            raise InvalidParameterError(
                f"X must be a 2-D array (n_samples, n_features), got shape {X.shape}. "
                "Reshape your data with X.reshape(-1, 1) for a single feature or "
                "X.reshape(1, -1) for a single sample."
            )
        try:
            validate_data(self, X, skip_check_array=True, reset=fitting)
        except ValueError as err:
            # the column count or names differ from fit's: the library's error, as everywhere
            raise InvalidParameterError(str(err)) from None
        table = _Table(X, self.categorical_features if fitting else None)
        if not fitting:
            table.categorical = [c is not None for c in self.categories_]
        if table.n_rows == 0:
            raise InvalidParameterError("X has no rows (0 samples)")
        if not table.names:
            raise InvalidParameterError(
                f"X has 0 feature(s) (shape=({table.n_rows}, 0)) while a minimum of 1 is required."
            )
        return table

    def _params(self, table: _Table | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        if self.cut_rule not in _CUT_RULES:
            raise InvalidParameterError(
                f"cut_rule must be one of {', '.join(map(repr, _CUT_RULES))}, got {self.cut_rule!r}"
            )
        prop = {
            "n_cuts": as_count(self.n_cuts, "n_cuts"),
            "cut_rule": self.cut_rule,
            "not_equal": True,
        }
        if self.cut_points is not None and table is not None:
            prop["cut_points"] = _explicit_cuts(self.cut_points, table)
        params = {
            "rho": self.rho,
            "a": self.a,
            "loss": self._loss,
            "mu": self._mu(),
            "tol": self.tol,
            "max_iter": as_count(self.max_iter, "max_iter"),
            "rule_threshold": self.rule_threshold,
            "max_add": getattr(self, "_max_add", None),
            "kernel_cache_bytes": as_count(self.kernel_cache_bytes, "kernel_cache_bytes"),
            "max_nodes": as_optional_count(self.max_nodes, "max_nodes"),
            "time_limit": self.time_limit,
        }
        return prop, params

    def _fit_grid(self, X: Any, y: Any, Cs: Sequence[float]) -> list[dict[str, Any]]:
        table = self._table(X, fitting=True)
        cols = self._columns(table, fitting=True)
        target, tasks = self._targets(y, table.n_rows)
        grid = np.array([as_real(c, "C") for c in Cs], dtype=np.float64)
        prop, params = self._params(table)
        props, fits = self._run_rust(
            _rs.fit_rule_ensemble,
            cols,
            np.ascontiguousarray(target, dtype=np.float64),
            tasks,
            grid,
            prop,
            params,
        )
        self._feature_names = table.names
        self.propositions_ = [self._condition(p) for p in props]
        self._props = [(int(f), op, float(v)) for f, op, v in props]
        self._tasks = tasks
        return list(fits)

    def _condition(self, prop: tuple[int, str, Any]) -> Condition:
        f, op, v = prop
        cats = self.categories_[f]
        value = cats[int(v)] if cats is not None else float(v)
        return Condition(self._feature_names[f], op, value)

    def _set_fitted(self, d: dict[str, Any]) -> None:
        self._rule_props = [np.asarray(r, dtype=np.uint32) for r in d["rule_props"]]
        self.coef_ = np.asarray(d["weights"], dtype=np.float64).reshape(-1, self._tasks)
        self.intercept_ = -np.asarray(d["bias"], dtype=np.float64)
        self.rules_ = [
            Rule(
                conditions=tuple(self.propositions_[int(q)] for q in r),
                weights=tuple(float(w) for w in self.coef_[k]),
                support=int(d["support"][k]),
                strength=float(d["strength"][k]),
            )
            for k, r in enumerate(self._rule_props)
        ]
        self.n_rules_ = len(self.rules_)
        self.primal_objective_ = float(d["primal"])
        self.dual_objective_ = float(d["dual"])
        self.active_set_size_ = int(d["active_set_size"])
        self.kernel_cache_peak_bytes_ = int(d["cache_peak_bytes"])
        # max_iter bounds each restricted solve, not the fit: only max_nodes and time_limit
        # stop the active-set method
        self._set_outcome(
            n_iter=d["n_rounds"],
            converged=d["converged"],
            truncation=d["truncated"],
            dual_gap=d["gap"],
            iteration_budget=None,
            unit="active-set round",
            detail=f"gHKL kept {self.active_set_size_} lattice nodes; the rules are those of "
            f"the last restricted solve (dual_gap_ {float(d['gap']):.3g})",
        )

    def fit(self, X: Any, y: npt.ArrayLike) -> _RuleEnsemble:
        """Fit the rule ensemble.

        Parameters
        ----------
        X : array-like or pandas.DataFrame of shape (n_samples, n_features)
            Training data; NaN / None are missing values.
        y : array-like of shape (n_samples,)
            Class labels (classifier) or real targets (regressor).

        Returns
        -------
        self
        """
        fits = self._fit_grid(X, y, [self.C])
        self._set_fitted(fits[0])
        return self

    def path(self, X: Any, y: npt.ArrayLike, Cs: Sequence[float]) -> list[Any]:
        """Fit one model per ``C`` in ``Cs``, each warm-started from the previous one.

        Much faster than separate fits (the lattice, the kernel cache and the dual variables
        are reused); an increasing grid is fastest. Budgets apply to the whole path.

        Parameters
        ----------
        X, y
            As in :meth:`fit`.
        Cs : sequence of float
            The values of ``C``, each > 0.

        Returns
        -------
        list of estimators
            Fitted copies of this estimator with ``C`` set to each value, in the order of
            ``Cs``.
        """
        if isinstance(Cs, str) or not isinstance(Cs, Sequence | np.ndarray) or len(Cs) == 0:
            raise InvalidParameterError(f"Cs must be a non-empty sequence of floats, got {Cs!r}")
        fits = self._fit_grid(X, y, list(Cs))
        out = []
        for c, d in zip(Cs, fits, strict=True):
            est = clone(self).set_params(C=float(c))
            for k in _SHARED:
                if k in self.__dict__:
                    setattr(est, k, self.__dict__[k])
            est._set_fitted(d)
            out.append(est)
        return out

    def _activations(self, X: Any) -> sp.csr_matrix:
        check_is_fitted(self, "rules_")
        table = self._table(X, fitting=False)
        cols = self._columns(table, fitting=False)
        kinds = [None if c is None else len(c) for c in self.categories_]
        indptr, indices = _rs.rule_activations(
            cols, kinds, self._props, [r.tolist() for r in self._rule_props]
        )
        data = np.ones(len(indices), dtype=np.float64)
        return sp.csr_matrix((data, indices, indptr), shape=(table.n_rows, len(self._rule_props)))

    def transform(self, X: Any) -> sp.csr_matrix:
        """The rule activations: ``A[i, r] = 1`` when rule ``rules_[r]`` fires on row ``i``.

        Parameters
        ----------
        X : array-like or pandas.DataFrame of shape (n_samples, n_features)

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_samples, n_rules_)
        """
        return self._activations(X)

    def _scores(self, X: Any) -> npt.NDArray[np.float64]:
        A = self._activations(X)
        return np.asarray(A @ self.coef_) + self.intercept_


_PARAMS_DOC = """
    Parameters
    ----------
    rho : float, default=1.5
        ``rho`` in (1, 2] of the l1/l_rho regulariser: smaller values give fewer, shorter
        rules (``2`` is HKL).
    C : float, default=1.0
        Loss weight (> 0); larger values fit the training data more closely.
    a : float, default=2.0
        ``a > 1`` in the rule weights ``d_v = a^|v|``: larger values penalise long rules more.
    categorical_features : list of str or int, boolean mask, optional
        Columns to treat as categorical besides the object, category and bool columns of a
        DataFrame (or the string / object columns of a NumPy array).
    n_cuts : int, default=4
        Cut points per numeric column (each gives ``x <= t`` and ``x > t``).
    cut_rule : {"distinct_quantiles", "quantiles", "equal_width"}, default="distinct_quantiles"
        Where the cut points lie: quantiles of the distinct values (the paper's rule), of
        all values, or equally spaced.
    cut_points : dict, optional
        Explicit thresholds for some numeric columns, ``{column name or index: [t, ...]}``
        (an empty list: no proposition from that column); the others follow ``cut_rule``.
        For example cut points computed once on a whole table, as the paper does.
    tol : float, default=1e-3
        Relative tolerance of the active-set method: the active set is complete when no
        rule outside it violates the optimality condition (15) by more than ``tol`` times
        ``max(1, |g|)``, and a complete active set whose certified gap is above that is
        solved again more tightly (up to three times, while the gap keeps halving). Mirror
        descent limits how far those re-solves get: at large ``C`` the relative gap
        ``dual_gap_ / primal_objective_`` can end above ``tol`` (up to a few per cent on
        noisy data at ``C >= 100``); ``dual_gap_`` is the certificate to read.
    max_iter : int, default=300
        Most mirror-descent iterations per restricted problem.
    rule_threshold : float, default=1e-3
        Rules weaker than ``rule_threshold`` times the strongest are dropped.
    max_nodes : int or None, default=50_000
        Budget of lattice nodes added to the active set (``None``: no limit). On noisy data
        with many numeric columns the optimality condition can pull in hundreds of
        thousands of nodes (minutes, and gigabytes: about 10 KB per node); the default
        bounds a fit to well under a gigabyte. A fit that hits it (or
        ``time_limit``) keeps what it has, sets ``truncated_`` and issues a
        :class:`~graphsparse.exceptions.TruncatedSearchWarning`; ``dual_gap_`` says how far
        from optimal it stopped.
    time_limit : float, optional
        Budget of seconds for a fit (for :meth:`path`, for the whole path). Every phase polls
        it; a fit it stops then takes at most a quarter of the limit more (0.5–30 s) to
        certify what it has, and reports ``dual_gap_`` NaN when that does not finish.
    kernel_cache_bytes : int, default=64 MiB
        Byte budget of the lattice kernel cache (never exceeded; 0 recomputes every kernel).
    n_jobs : int, optional, default=1
        Rust worker threads scoring candidate rules (``None``: all cores). Results do not
        depend on it.
    verbose : bool, int or "bar", default=0
        Report progress (active-set rounds, the duality gap) while fitting.

    Attributes
    ----------
    rules_ : list of Rule
        The rules, strongest first; ``str(rule)`` reads like ``petal_width <= 0.8 AND colour
        == 'red'``; each has ``weight(s)``, ``support`` and ``length``.
    n_rules_ : int
    coef_ : ndarray of shape (n_rules_, n_tasks)
        Rule weights (one column per task).
    intercept_ : ndarray of shape (n_tasks,)
    propositions_ : list of Condition
        The basic propositions the rules are built from.
    categories_ : list
        Per column, the sorted categories seen in training (``None`` for numeric columns).
    dual_gap_ : float
        Certified gap between the primal objective of the fitted model and a dual lower
        bound over the *whole* lattice (scikit-learn's name, as in ``Lasso``;
        ``duality_gap_`` is a deprecated alias).
    primal_objective_, dual_objective_ : float
    converged_ : bool
        Whether the optimality condition (15) holds for the final active set (no rule is
        missing from it) with no budget cut; the optimisation error left is
        ``dual_gap_``.
    truncated_ : bool
        Whether a budget stopped the fit.
    truncation_ : str or None
        Which budget: ``"max_nodes"`` or ``"time_limit"``; ``None`` when none did.
    n_iter_ : int
        Active-set rounds.
    active_set_size_ : int
        Lattice nodes visited (the active set, with the empty rule).
    kernel_cache_peak_bytes_ : int
        Most bytes the kernel cache held.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Column names of a DataFrame ``X``.
"""


class RuleEnsembleClassifier(ClassifierMixin, _RuleEnsemble):
    __doc__ = (
        """Rule-ensemble classifier by gHKL (two classes) or gHKL-MT (more classes).

    Hinge loss. With ``K > 2`` classes, ``K`` one-vs-rest tasks share one conjunction lattice
    (gHKL-MT, ``B = I``; ``mu`` couples them by ``B = I + 11^T / mu``) and ``predict`` takes
    the class with the largest score. A rule counts once however many tasks use it.
    """
        + _PARAMS_DOC.replace(
            "    tol : float",
            """    mu : float, optional
        Multiclass only: couple the tasks by penalising the mean of their rule weights with
        ``mu`` (``None``: independent tasks, the paper's choice).
    tol : float""",
        )
        + """
    classes_ : ndarray
        The class labels (any type); ``classes_[1]`` is the positive class of a binary model.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsparse.rules import RuleEnsembleClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(size=(200, 3))
    >>> y = np.where((X[:, 0] > 0.5) & (X[:, 1] > 0.3), "yes", "no")
    >>> model = RuleEnsembleClassifier(C=10.0).fit(X, y)
    >>> bool(model.score(X, y) > 0.9)
    True
    """
    )

    def __init__(
        self,
        rho: float = 1.5,
        C: float = 1.0,
        a: float = 2.0,
        *,
        mu: float | None = None,
        categorical_features: Any = None,
        n_cuts: int = 4,
        cut_rule: str = "distinct_quantiles",
        cut_points: Any = None,
        tol: float = 1e-3,
        max_iter: int = 300,
        rule_threshold: float = 1e-3,
        max_nodes: int | None = 50_000,
        time_limit: float | None = None,
        kernel_cache_bytes: int = 64 << 20,
        n_jobs: int | None = 1,
        verbose: bool | int | str = 0,
    ) -> None:
        set_init_params(self, locals())

    _loss = "hinge"

    def _mu(self) -> float | None:
        return None if self.mu is None else as_real(self.mu, "mu")

    def _targets(self, y: Any, n: int) -> tuple[npt.NDArray[np.float64], int]:
        arr = as_target(y, n, type(self).__name__)
        if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
            raise InvalidParameterError("y contains NaN or infinite values")
        check_classification_targets(arr)
        try:
            self.classes_ = np.unique(arr)
        except TypeError as err:
            raise InvalidParameterError(f"y labels cannot be ordered: {err}") from None
        k = len(self.classes_)
        if k < 2:
            raise InvalidParameterError(
                f"y has only one class ({self.classes_[0]!r}); a classifier needs two or more"
            )
        if k == 2:
            return np.where(arr == self.classes_[1], 1.0, -1.0), 1
        return np.concatenate([np.where(arr == c, 1.0, -1.0) for c in self.classes_]), k

    def decision_function(self, X: Any) -> npt.NDArray[np.float64]:
        """Scores: ``(n_samples,)`` for two classes (positive: ``classes_[1]``), else
        ``(n_samples, n_classes)``."""
        f = self._scores(X)
        return f[:, 0] if f.shape[1] == 1 else f

    def predict(self, X: Any) -> np.ndarray:
        """The predicted class of each row."""
        f = self._scores(X)
        if f.shape[1] == 1:
            return self.classes_[(f[:, 0] > 0).astype(int)]
        return self.classes_[np.argmax(f, axis=1)]


class RuleEnsembleRegressor(RegressorMixin, _RuleEnsemble):
    __doc__ = (
        """Rule-ensemble regressor by gHKL with the squared loss ``(y - F(x))^2 / 2``.
    """
        + _PARAMS_DOC
        + """
    Examples
    --------
    >>> import numpy as np
    >>> from graphsparse.rules import RuleEnsembleRegressor
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(size=(200, 2))
    >>> y = 3.0 * (X[:, 0] > 0.5) + rng.normal(scale=0.1, size=200)
    >>> model = RuleEnsembleRegressor(C=10.0, n_cuts=9).fit(X, y)
    >>> bool(model.score(X, y) > 0.9)
    True
    """
    )

    _loss = "squared"

    def _targets(self, y: Any, n: int) -> tuple[npt.NDArray[np.float64], int]:
        return as_real_target(y, n, type(self).__name__), 1

    def predict(self, X: Any) -> npt.NDArray[np.float64]:
        """The predicted target of each row."""
        return self._scores(X)[:, 0]
