"""The input table and its propositionalisation: the columns of an array or DataFrame, which are
categorical, their codes, and the cut points of the numeric ones (:func:`cut_points`)."""

from __future__ import annotations

import heapq
import math
import numbers
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from .. import _graphsparse as _rs
from .._validation import as_count
from ..exceptions import InvalidParameterError

_MISSING = np.uint32(2**32 - 1)


_CUT_RULES = ("distinct_quantiles", "quantiles", "equal_width")
# cut rules that read the target: the estimators place their cuts in Python (``_tree_cuts``)
_SUPERVISED_CUT_RULES = ("tree", "mdl")


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


def _tree_cuts(
    table: _Table,
    target: npt.NDArray[Any],
    n_cuts: int,
    classification: bool,
    skip: list[list[float] | None] | None = None,
) -> list[list[float] | None]:
    """The ``cut_rule="tree"`` thresholds: split points of CART trees grown against ``target``.

    A best-first :class:`~sklearn.tree.DecisionTreeClassifier` (``...Regressor`` for a real
    target) is grown on all numeric columns (``max_leaf_nodes = n_cuts * n_numeric + 1``,
    leaves of at least 1 % of the rows); the columns it splits are the ones cut. Each of them
    then also gets a one-column tree (``max_leaf_nodes = n_cuts + 1``), whose splits are the
    column's own class boundaries (the greedy joint tree can place its first split off the
    true boundary and repair that deeper down). A column keeps ``n_cuts`` thresholds, taken
    alternately from the two trees in order of weighted impurity decrease; a column the
    joint tree never splits gets no proposition. Split points lie midway between adjacent
    training values (scikit-learn's rule). Columns with an entry in ``skip`` (explicit
    ``cut_points``) and categorical columns are left as ``None``.
    """
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    n = len(table.names)
    out: list[list[float] | None] = [None] * n
    numeric = [
        j for j in range(n) if not table.categorical[j] and (skip is None or skip[j] is None)
    ]
    for j in numeric:
        out[j] = []
    if not numeric or n_cuts == 0:
        return out
    kind = DecisionTreeClassifier if classification else DecisionTreeRegressor
    leaf = max(1, table.n_rows // 100)

    def splits(X: npt.NDArray[np.float64], leaves: int) -> dict[int, list[float]]:
        t = kind(max_leaf_nodes=max(2, leaves), min_samples_leaf=leaf, random_state=0)
        t = t.fit(X, target).tree_
        w = t.weighted_n_node_samples
        found: dict[int, list[tuple[float, float]]] = {}
        for node in range(t.node_count):
            lo, hi = t.children_left[node], t.children_right[node]
            if lo >= 0:
                drop = w[node] * t.impurity[node] - w[lo] * t.impurity[lo] - w[hi] * t.impurity[hi]
                found.setdefault(int(t.feature[node]), []).append((-drop, float(t.threshold[node])))
        return {f: [th for _, th in sorted(g)] for f, g in found.items()}

    cols = {j: table.numeric(j) for j in numeric}
    joint = splits(np.column_stack([cols[j] for j in numeric]), n_cuts * len(numeric) + 1)
    for k, ths in joint.items():
        j = numeric[k]
        own = splits(cols[j][:, None], n_cuts + 1).get(0, [])
        kept: list[float] = []
        for pair in zip(own + [None] * len(ths), ths + [None] * len(own), strict=False):
            for th in pair:
                if th is not None and th not in kept and len(kept) < n_cuts:
                    kept.append(th)
        out[j] = sorted(kept)
    return out


def _xlog2x(c: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
    """``c log2 c`` elementwise, 0 at 0."""
    c = np.asarray(c, dtype=np.float64)
    return c * np.log2(np.where(c > 0, c, 1.0))


def _mdl_split(
    xs: npt.NDArray[np.float64], cum: npt.NDArray[np.int64], lo: int, hi: int
) -> tuple[float, int] | None:
    """The Fayyad–Irani split of the sorted rows ``[lo, hi)``: ``(gain in bits, position)``
    of the boundary of least class entropy, or ``None`` when it fails the MDL test.

    ``cum[i]`` holds the class counts of the first ``i`` sorted rows. A boundary lies between
    two different adjacent values; ``n·H`` of a part with counts ``c`` is
    ``n log2 n − Σ c log2 c`` (entropies weighted by size, in bits).
    """
    inner = np.flatnonzero(xs[lo + 1 : hi] != xs[lo : hi - 1]) + lo + 1
    if inner.size == 0:
        return None
    n = hi - lo
    total = cum[hi] - cum[lo]
    left = cum[inner] - cum[lo]
    right = total - left
    nl = (inner - lo).astype(np.float64)
    nr = n - nl
    part = _xlog2x(nl) - _xlog2x(left).sum(axis=1) + _xlog2x(nr) - _xlog2x(right).sum(axis=1)
    best = int(np.argmin(part))  # the first of equal entropies: the smallest threshold
    n_h = float(_xlog2x(n) - _xlog2x(total).sum())
    gain = n_h - float(part[best])  # n times the information gain
    # the MDL acceptance test: n·gain > log2(n − 1) + log2(3^k − 2) − (k E − k1 E1 − k2 E2)
    k, k1, k2 = (int(np.count_nonzero(c)) for c in (total, left[best], right[best]))
    e, e1, e2 = (
        float(_xlog2x(m) - _xlog2x(c).sum()) / m
        for m, c in ((n, total), (nl[best], left[best]), (nr[best], right[best]))
    )
    delta = math.log2(3**k - 2) - (k * e - k1 * e1 - k2 * e2)
    if not gain > math.log2(n - 1) + delta:
        return None
    return gain, int(inner[best])


def _mdl_column(
    x: npt.NDArray[np.float64], codes: npt.NDArray[np.int64], n_cuts: int
) -> list[float]:
    """The ``cut_rule="mdl"`` thresholds of one column (see :func:`_mdl_cuts`)."""
    keep = ~np.isnan(x)
    x, codes = x[keep], codes[keep]
    if x.size < 2 or n_cuts == 0:
        return []
    order = np.argsort(x, kind="stable")
    xs = x[order]
    n_classes = int(codes.max()) + 1
    cum = np.zeros((xs.size + 1, n_classes), dtype=np.int64)
    cum[np.arange(1, xs.size + 1), codes[order]] = 1
    np.cumsum(cum, axis=0, out=cum)
    # best-first: split the accepted segment of largest gain, then consider its two halves
    heap: list[tuple[float, int, int, int]] = []

    def push(lo: int, hi: int) -> None:
        found = _mdl_split(xs, cum, lo, hi)
        if found is not None:
            heapq.heappush(heap, (-found[0], found[1], lo, hi))

    push(0, xs.size)
    cuts: list[float] = []
    while heap and len(cuts) < n_cuts:
        _, b, lo, hi = heapq.heappop(heap)
        a, c = float(xs[b - 1]), float(xs[b])
        t = a / 2 + c / 2
        cuts.append(t if a <= t < c else a)  # x <= t splits as the boundary does
        push(lo, b)
        push(b, hi)
    return sorted(cuts)


def _mdl_cuts(
    table: _Table,
    labels: npt.NDArray[Any],
    n_cuts: int,
    skip: list[list[float] | None] | None = None,
) -> list[list[float] | None]:
    """The ``cut_rule="mdl"`` thresholds: Fayyad and Irani's supervised discretisation of each
    numeric column on its own.

    A column's sorted values are split recursively at the boundary of least class entropy
    while the information gain passes the minimum-description-length test (U. M. Fayyad,
    K. B. Irani, *Multi-interval discretization of continuous-valued attributes for
    classification learning*, IJCAI 1993); the accepted splits are taken best first (largest
    gain times rows), at most ``n_cuts`` per column, and a column whose first split fails the
    test gives no proposition. Thresholds lie midway between adjacent training values; missing
    values are left out. Columns with an entry in ``skip`` and categorical columns are ``None``.
    """
    n = len(table.names)
    codes = np.unique(np.asarray(labels), return_inverse=True)[1].reshape(-1).astype(np.int64)
    out: list[list[float] | None] = [None] * n
    for j in range(n):
        if not table.categorical[j] and (skip is None or skip[j] is None):
            out[j] = _mdl_column(table.numeric(j), codes, n_cuts)
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
    if cut_rule in _SUPERVISED_CUT_RULES:
        raise InvalidParameterError(
            f"cut_rule={cut_rule!r} reads the target, which cut_points() does not take; fit an "
            "estimator with that cut_rule and read its propositions_ instead"
        )
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
    prop: _rs.PropArgs = {
        "n_cuts": as_count(n_cuts, "n_cuts"),
        "cut_rule": cut_rule,
        "not_equal": True,
    }
    props = _rs.rule_propositions(cols, prop)
    out: dict[str, list[float]] = {
        name: [] for name, cat in zip(table.names, table.categorical, strict=True) if not cat
    }
    for feature, op, value in props:
        if op == "<=":
            out[table.names[int(feature)]].append(float(value))
    return {k: np.asarray(v, dtype=np.float64) for k, v in out.items()}
