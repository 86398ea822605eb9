"""The design matrix ``X`` and the graph arguments in the form the binding takes them: a dense
array or a CSR triple, edge weights, groups, and the graph's vertices checked against the
columns of ``X``."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._base import GraphSparseEstimator
from .._validation import as_float_array, as_real, check_endpoints, sklearn_data
from ..exceptions import InvalidParameterError

FloatArray = npt.NDArray[np.float64]

_REGRESSION_LOSSES = ("squared", "absolute")
_CLASSIFICATION_LOSSES = ("logistic", "hinge")


def _design(X: Any) -> tuple[Any, int, int]:
    """``X`` as a dense float64 array or a CSR triple for the binding, with its shape.

    Only a conversion: finiteness is checked by scikit-learn's ``validate_data`` for the
    estimators (:func:`_fit_data`) and by the core for the functions, once per call, with a
    message naming ``X`` and the entry (the binding builds the design once)."""
    import scipy.sparse as sp

    if sp.issparse(X):
        csr = sp.csr_array(X)
        if csr.ndim != 2:
            raise InvalidParameterError(f"X must be 2-dimensional, got shape {csr.shape}")
        if csr.dtype.kind not in "fiub":
            raise InvalidParameterError(f"X must be a real numeric matrix, got dtype {csr.dtype}")
        data = as_float_array(csr.data, "X.data")
        n_rows, n_cols = csr.shape
        return (
            (
                np.ascontiguousarray(csr.indptr, dtype=np.int64),
                np.ascontiguousarray(csr.indices, dtype=np.int64),
                data,
                (int(n_rows), int(n_cols)),
            ),
            int(n_rows),
            int(n_cols),
        )
    arr = np.asarray(X) if not isinstance(X, np.ndarray) else X
    if arr.dtype == object:
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError) as err:
            raise InvalidParameterError(f"X must be a real numeric array: {err}") from None
    if arr.ndim == 1:
        raise InvalidParameterError(
            f"X must be a 2-D array, got a 1-D array of shape {arr.shape}. Reshape your data "
            "either using array.reshape(-1, 1) if it has a single feature or "
            "array.reshape(1, -1) if it contains a single sample."
        )
    arr = as_float_array(arr, "X", ndim=(2,))
    return arr, arr.shape[0], arr.shape[1]


def _fit_data(
    est: GraphSparseEstimator, X: Any, y: Any, classifier: bool = False
) -> tuple[Any, np.ndarray, int, int]:
    """``(design, y, n, p)`` for ``fit``: scikit-learn's checks and messages (shapes, finiteness,
    column-vector ``y``, ``n_features_in_``) through :func:`sklearn_data`, then the binding's
    form of ``X``."""
    Xa, ya = sklearn_data(est, X, y, reset=True, classifier=classifier, accept_sparse="csr")
    design, n, p = _design(Xa)
    return design, np.asarray(ya), n, p


def _dense(design: Any) -> Any:
    """The binding's CSR triple back as a SciPy matrix (dense arrays unchanged)."""
    if isinstance(design, tuple):
        import scipy.sparse as sp

        indptr, indices, data, shape = design
        return sp.csr_array((data, indices, indptr), shape=shape)
    return design


def _weights(weights: Any, m: int) -> FloatArray | None:
    if weights is None:
        return None
    return as_float_array(weights, "weights", length=m)


def _time_limit(value: Any) -> float | None:
    return None if value is None else as_real(value, "time_limit")


def _groups_arg(groups: list[list[int]]) -> tuple[Any, Any]:
    ptr = np.zeros(len(groups) + 1, dtype=np.int64)
    ptr[1:] = np.cumsum([len(g) for g in groups])
    members = np.asarray([v for g in groups for v in g], dtype=np.int64)
    return ptr, members


def _check_graph_of_x(edges: Any, p: int) -> None:
    """The graph's vertices are the columns of ``X``: an edge beyond them names both."""
    check_endpoints(edges, p, f"X has {p} columns", _ONE_NODE_PER_COLUMN)


_ONE_NODE_PER_COLUMN = "the graph has one vertex per column (feature) of X"
