"""The one place for Python-side coercion of arguments.

Only what is Python-specific lives here: turning array-likes into the C-contiguous NumPy arrays
the Rust kernels read without a copy, Python scalars into the types the binding expects, class
labels into 0/1 targets, and fractions of counts into counts. Every estimator's target goes
through :func:`as_target` (a regressor's through :func:`as_real_target`, a binary classifier's
through :func:`encode_binary`). Ranges and invariants (``lambda1 >
0``, finite costs, endpoints inside the graph, ...) are checked once, by the Rust core, whose
errors reach Python as :mod:`graphsparse.exceptions` errors naming the argument.
"""

from __future__ import annotations

import math
import numbers
import os
import sys
import warnings
from typing import Any

import numpy as np
import numpy.typing as npt
from sklearn.exceptions import DataConversionWarning

from .exceptions import InvalidGraphError, InvalidParameterError

__all__ = [
    "as_count",
    "as_edges",
    "as_flag",
    "as_float_array",
    "as_int",
    "as_optional_count",
    "as_real",
    "as_response",
    "as_rng",
    "as_target",
    "caller_stacklevel",
    "check_endpoints",
    "encode_binary",
    "min_support_count",
    "set_init_params",
    "sklearn_data",
]

FloatArray = npt.NDArray[np.float64]


def as_int(value: Any, name: str) -> int:
    """``value`` as a Python ``int`` (any integer type, not ``bool``)."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        raise InvalidParameterError(f"{name} must be an integer, got {value!r}")
    return int(value)


# Every count becomes an int64 or a u64 below 2**63 (a shape, an index, a loop bound in Rust,
# whose conversion would otherwise saturate a larger one into "no limit"): one beyond it cannot
# be honoured.
_INT64_LIMIT = 2**63


def _bound(v: int) -> str:
    return "-2**63" if v == -_INT64_LIMIT else str(v)


def as_count(value: Any, name: str, minimum: int = 0) -> int:
    """``value`` as a count: an integer in ``[minimum, 2**63)``.

    The one conversion of every integer argument of the public API (counts, budgets, sizes,
    seeds, ``n_jobs`` with ``minimum=-2**63``), so that none is clamped or wrapped on its way
    to Rust. Narrower ranges (``max_iter >= 1``, ``k <= n``) stay the core's to check.
    """
    n = as_int(value, name)
    if not minimum <= n < _INT64_LIMIT:
        raise InvalidParameterError(
            f"{name} must be an integer in [{_bound(minimum)}, 2**63), got {n}"
        )
    return n


def as_optional_count(value: Any, name: str, minimum: int = 0) -> int | None:
    """``None`` (no limit) or :func:`as_count`."""
    return None if value is None else as_count(value, name, minimum)


def as_rng(random_state: Any, name: str = "random_state") -> np.random.Generator:
    """``numpy.random.default_rng(random_state)`` for ``None``, an integer in ``[0, 2**63)`` or
    a ``Generator``; anything else is an :class:`InvalidParameterError` naming the argument."""
    if random_state is None or isinstance(random_state, np.random.Generator):
        return np.random.default_rng(random_state)
    return np.random.default_rng(as_count(random_state, name))


def as_flag(value: Any, name: str) -> bool:
    """``value`` as a Python ``bool`` (``True``/``False`` or NumPy's booleans only)."""
    if not isinstance(value, bool | np.bool_):
        raise InvalidParameterError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def as_real(value: Any, name: str) -> float:
    """``value`` as a Python ``float`` (any real number, not ``bool``; NaN and inf are kept)."""
    if type(value) is float:  # the common case, without the slower ABC check
        return value
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise InvalidParameterError(f"{name} must be a float (a real number), got {value!r}")
    try:
        return float(value)
    except OverflowError:  # an integer beyond the float range
        raise InvalidParameterError(f"{name} = {value!r} is beyond the float range") from None


def _asarray(x: Any, name: str) -> np.ndarray:
    if isinstance(x, np.ndarray):
        return x
    try:
        return np.asarray(x)
    except (TypeError, ValueError) as err:
        raise InvalidParameterError(f"{name} cannot be converted to an array: {err}") from None


def as_float_array(
    x: Any, name: str, *, ndim: tuple[int, ...] = (1,), length: int | None = None
) -> FloatArray:
    """``x`` as a C-contiguous float64 array with one of the dimensions ``ndim``.

    No copy when ``x`` already is one. Non-finite values are left to the Rust kernel, which
    rejects them with the argument's name and the index (saving a pass over large inputs).
    ``length`` fixes the size of the first dimension.
    """
    arr = _asarray(x, name)
    if arr.ndim not in ndim:
        want = " or ".join(f"{d}-D" for d in ndim)
        if ndim == (1,):
            raise InvalidParameterError(f"{name} must be 1-dimensional, got shape {arr.shape}")
        raise InvalidParameterError(f"{name} must be a {want} array, got shape {arr.shape}")
    if not (arr.dtype == np.float64 and arr.flags.c_contiguous and arr.flags.aligned):
        if arr.dtype.kind not in "fiub":
            what = "Complex data not supported, " if arr.dtype.kind == "c" else ""
            raise InvalidParameterError(
                f"{name} must be a real numeric array (an array of real numbers), "
                f"{what}got dtype {arr.dtype}"
            )
        # aligned too: buffers unpickled from another process (Dask) may not be
        arr = np.require(arr, np.float64, ["C", "A"])
    if length is not None and arr.shape[0] != length:
        raise InvalidParameterError(f"{name} must have length {length}, got {arr.shape[0]}")
    return arr


def as_edges(edges: Any, name: str = "edges") -> npt.NDArray[np.int64]:
    """An edge list as a C-contiguous int64 array of shape ``(m, 2)``.

    Accepts any integer array-like (a list of pairs, an ``(m, 2)`` array, an empty list).
    Whether the endpoints are nodes of the graph is checked by the Rust core; here only the
    shape and the dtype, always raising :class:`~graphsparse.exceptions.InvalidGraphError`.
    """
    try:
        arr = np.asarray(edges)
    except (TypeError, ValueError) as err:
        raise InvalidGraphError(f"{name} cannot be converted to an array: {err}") from None
    if arr.size == 0 and arr.ndim <= 2 and (arr.ndim < 2 or arr.shape[-1] in (0, 2)):
        return np.zeros((0, 2), dtype=np.int64)
    if arr.dtype == object or arr.dtype.kind not in "iu":
        raise InvalidGraphError(
            f"{name} must be an integer array of shape (m, 2), got dtype {arr.dtype}"
        )
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise InvalidGraphError(f"{name} must have shape (m, 2), got {arr.shape}")
    if arr.dtype.kind == "u" and arr.size and int(arr.max()) > np.iinfo(np.int64).max:
        raise InvalidGraphError(f"{name} holds a node id beyond the int64 range")
    return np.require(arr, np.int64, ["C", "A"])


def check_endpoints(edges: npt.NDArray[np.int64], n: int, sized: str, hint: str) -> None:
    """Refuse an edge with an endpoint ``>= n`` when another argument fixes the ``n`` nodes.

    Either argument may be the wrong one, so the message names both: ``sized`` says where ``n``
    comes from (``"prizes has 3 entries"``, ``"X has 3 columns"``) and ``hint`` how the two
    must agree. ``edges`` is :func:`as_edges`'s array; negative endpoints are the binding's to
    refuse.
    """
    if edges.size == 0:
        return
    bad = np.flatnonzero((edges >= n).any(axis=1))
    if bad.size:
        k = int(bad[0])
        u, v = edges[k].tolist()
        raise InvalidGraphError(
            f"{sized} but edges[{k}] = [{u}, {v}] references node {max(u, v)}, which is out of "
            f"range; {hint}"
        )


def sklearn_data(
    estimator: Any,
    X: Any,
    y: Any = "no_validation",
    *,
    reset: bool,
    classifier: bool = False,
    accept_sparse: bool = False,
) -> Any:
    """scikit-learn's own ``validate_data`` for an estimator's ``X`` (and ``y``).

    Shapes, dtypes, finiteness, sparse input, ``n_features_in_`` and ``feature_names_in_`` follow
    scikit-learn to the letter (users and ``check_estimator`` expect its messages); its
    ``ValueError`` is raised as :class:`~graphsparse.exceptions.InvalidParameterError` with the
    same text. ``X`` comes back C-contiguous float64 (no copy when it already is); a
    ``classifier`` also has its targets checked to be class labels.
    """
    from sklearn.utils.multiclass import check_classification_targets
    from sklearn.utils.validation import validate_data

    try:
        out = validate_data(
            estimator, X, y, reset=reset, dtype=np.float64, order="C", accept_sparse=accept_sparse
        )
        if classifier and not isinstance(y, str):
            check_classification_targets(out[1])
    except InvalidParameterError:
        raise
    except ValueError as err:
        raise InvalidParameterError(str(err)) from None
    return out


def as_response(y: Any, n: int, name: str = "y") -> np.ndarray:
    """``y`` as a 1-D array with one entry per sample (any dtype); an estimator's target goes
    through :func:`as_target`, which ends here."""
    if y is None:
        raise InvalidParameterError(f"{name} is required")
    arr = _asarray(y, name)
    if arr.ndim != 1:
        raise InvalidParameterError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.shape[0] != n:
        raise InvalidParameterError(f"{name} has {arr.shape[0]} entries for {n} samples")
    return arr


def as_target(y: Any, n: int, who: str) -> np.ndarray:
    """An estimator's target ``y`` as a 1-D array with one entry per sample (any dtype).

    The one conversion of every target. ``None`` is refused naming ``who`` (the estimator or
    function that needs ``y``), with scikit-learn's words; a column vector ``(n, 1)`` warns
    with a :class:`~sklearn.exceptions.DataConversionWarning` and is flattened, as scikit-learn
    does; any other shape, or a length other than ``n``, is an
    :class:`~graphsparse.exceptions.InvalidParameterError` naming ``y``.
    """
    if y is None:
        raise InvalidParameterError(f"{who} requires y to be passed, but the target y is None")
    arr = _asarray(y, "y")
    if arr.ndim == 2 and arr.shape[1] == 1:
        warnings.warn(
            "A column-vector y was passed when a 1d array was expected; it is flattened "
            "(pass y of shape (n_samples,))",
            DataConversionWarning,
            stacklevel=caller_stacklevel(),
        )
        arr = arr[:, 0]
    return as_response(arr, n)


def as_real_target(y: Any, n: int, who: str) -> FloatArray:
    """A regressor's target as float64 (:func:`as_target`, then real numbers): numbers of any
    dtype (an object array of numbers too), finite; anything else is an
    :class:`InvalidParameterError` naming ``y``."""
    arr = as_target(y, n, who)
    if arr.dtype.kind not in "fiubc":  # complex is refused by as_float_array, never cast
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise InvalidParameterError(
                "Unknown label type: y must hold real numbers for a regressor, "
                f"got dtype {arr.dtype}"
            ) from None
    out = as_float_array(arr, "y")
    if not np.all(np.isfinite(out)):
        raise InvalidParameterError("y contains NaN or infinite values")
    return out


def encode_binary(y: Any, n: int, who: str) -> tuple[np.ndarray, FloatArray]:
    """``(classes, target)`` for a two-class ``y``: the sorted labels and ``y == classes[1]``.

    The one encoder of binary class labels (:func:`as_target` first). Any two labels work
    (ints, strings, booleans), as in scikit-learn, whose rules and messages it follows for a
    target that is not two class labels: non-integral numbers are an "Unknown label type",
    one class or more than two are refused; every error names ``y``.
    """
    from sklearn.utils.multiclass import type_of_target

    arr = as_target(y, n, who)
    if arr.dtype.kind in "fc" and not np.all(np.isfinite(arr)):
        raise InvalidParameterError("y contains NaN or infinite values")
    if arr.dtype.kind == "O" and any(v is None for v in arr):
        raise InvalidParameterError("y contains None")
    if arr.dtype.kind in "fc":  # numbers that are not integral are no class labels
        try:
            kind = type_of_target(arr, input_name="y")
        except ValueError as err:
            raise InvalidParameterError(f"y: {err}") from None
        if kind.startswith("continuous"):
            raise InvalidParameterError(
                f"Unknown label type: y is {kind}; a classifier needs two class labels"
            )
    try:
        classes = np.unique(arr)
    except TypeError as err:
        raise InvalidParameterError(f"y labels cannot be ordered: {err}") from None
    if len(classes) < 2:
        raise InvalidParameterError(
            "y must have two classes for a binary classifier, got 1 class: "
            f"{classes.tolist()} (a classifier can't train when only one class is present)"
        )
    if len(classes) > 2:
        # the first sentence is scikit-learn's, which users and check_estimator look for
        raise InvalidParameterError(
            "Only binary classification is supported: y must have two classes, got "
            f"{len(classes)}: {classes[:5].tolist()}"
        )
    return classes, (arr == classes[1]).astype(np.float64)


def min_support_count(min_support: Any, n_graphs: int) -> int:
    """An absolute support from a count (``int``) or a fraction of ``n_graphs`` (``float``)."""
    if isinstance(min_support, bool | np.bool_):
        raise InvalidParameterError(f"min_support must be an int or a float, got {min_support!r}")
    if isinstance(min_support, numbers.Integral):
        value = int(min_support)
        if not 1 <= value <= n_graphs:
            raise InvalidParameterError(
                f"min_support as a count must be in [1, {n_graphs}] (the number of graphs), "
                f"got {value}"
            )
        return value
    if isinstance(min_support, numbers.Real):
        frac = float(min_support)
        if not (0.0 < frac <= 1.0):
            raise InvalidParameterError(
                f"min_support as a fraction must be in (0, 1], got {min_support!r}"
            )
        # rounding guards against 0.1 * 30 = 3.0000000000000004 becoming 4
        return max(1, math.ceil(round(frac * n_graphs, 9)))
    raise InvalidParameterError(f"min_support must be an int or a float, got {min_support!r}")


def set_init_params(est: Any, args: dict[str, Any]) -> None:
    """Store the constructor's arguments unchanged, as scikit-learn asks of ``__init__``.

    ``args`` is the constructor's ``locals()``: each parameter is then named only in the explicit
    signature that ``get_params`` reads, not again in an assignment per parameter.
    """
    for name in est._get_param_names():
        setattr(est, name, args[name])


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def caller_stacklevel() -> int:
    """The ``stacklevel`` for a warning issued by the function calling this one that points
    at the first frame outside graphsparse: the user's call, however deep in the package the
    warning arose (a ``fit``, a path of fits, a helper of either)."""
    frame = sys._getframe(1)  # the function that calls warnings.warn: stacklevel 1
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level
