"""Exact Euclidean projections onto the sets used by sparse and graph-structured solvers.

Every function takes a 1-D vector or a 2-D array whose rows are projected independently (in
parallel on ``n_jobs`` Rust threads), and can write into a caller-provided ``out`` array, which
may be the input itself for an in-place projection. The work runs in Rust with the GIL released;
float64 C-contiguous inputs are read without a copy.

===============================  ============================================  ===============
function                         set                                           time
===============================  ============================================  ===============
:func:`project_simplex`          ``{x >= 0, sum(x) = radius}``                 expected O(n)
:func:`project_l1_ball`          ``{sum(|x|) <= radius}``                      expected O(n)
:func:`project_weighted_simplex` ``{sum(eps * x) = 1, eps * x >= 0}``          expected O(n)
:func:`project_capped_simplex`   ``{0 <= x <= 1, sum(x) <= k}``                expected O(n)
:func:`project_top_k`            ``{x : at most k non-zeros}``                 expected O(n)
===============================  ============================================  ===============
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import numpy.typing as npt

from . import _graphsparse as _rs
from ._threads import resolve_n_jobs
from .exceptions import InvalidParameterError

__all__ = [
    "project_capped_simplex",
    "project_l1_ball",
    "project_simplex",
    "project_top_k",
    "project_weighted_simplex",
]

FloatArray = npt.NDArray[np.float64]


def _as_array(x: npt.ArrayLike, name: str, *, allow_2d: bool = True) -> FloatArray:
    """``x`` as a C-contiguous float64 array of 1 (or 2) dimensions; no copy when it already is.

    Non-finite values are rejected by the Rust kernel (with the argument name and index), which
    saves a full pass over large inputs here.
    """
    raw = x if isinstance(x, np.ndarray) else np.asarray(x)
    dims = (1, 2) if allow_2d else (1,)
    if raw.ndim not in dims:
        want = "1-D or 2-D" if allow_2d else "1-D"
        raise InvalidParameterError(f"{name} must be a {want} array, got shape {raw.shape}")
    if raw.dtype == np.float64 and raw.flags.c_contiguous:
        return raw
    if not (
        np.issubdtype(raw.dtype, np.floating)
        or np.issubdtype(raw.dtype, np.integer)
        or raw.dtype == np.bool_
    ):
        raise InvalidParameterError(
            f"{name} must be an array of real numbers, got dtype {raw.dtype}"
        )
    return np.ascontiguousarray(raw, dtype=np.float64)


def _as_float(x: object, name: str) -> float:
    if type(x) is float:  # the common case, without the slower ABC check
        return x
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise InvalidParameterError(f"{name} must be a real number, got {x!r}")
    return float(x)


def _check_out(out: FloatArray | None, shape: tuple[int, ...]) -> FloatArray | None:
    if out is None:
        return None
    if not isinstance(out, np.ndarray):
        raise InvalidParameterError(f"out must be a numpy array, got {type(out).__name__}")
    if out.dtype != np.float64 or not out.flags.c_contiguous or not out.flags.writeable:
        raise InvalidParameterError("out must be a writeable C-contiguous float64 array")
    if out.shape != shape:
        raise InvalidParameterError(f"out has shape {out.shape}, expected {shape}")
    return out


def _unalias(arr: FloatArray, out: FloatArray | None) -> FloatArray:
    # Rust borrows the input and the output separately: an input sharing memory with `out`
    # is copied first, which makes ``out=x`` an in-place projection.
    if out is not None and np.may_share_memory(arr, out):
        return arr.copy()
    return arr


def _n_threads(arr: FloatArray, n_jobs: int | None) -> int:
    if arr.ndim == 1:
        # one vector runs on the calling thread; still reject a bad n_jobs
        if n_jobs is not None:
            resolve_n_jobs(n_jobs)
        return 1
    return resolve_n_jobs(n_jobs)


def project_simplex(
    v: npt.ArrayLike,
    radius: float = 1.0,
    *,
    n_jobs: int | None = None,
    out: FloatArray | None = None,
) -> FloatArray:
    """Euclidean projection onto the simplex ``{x : x >= 0, sum(x) = radius}``.

    Uses Condat's algorithm (expected linear time); the result is exact up to rounding,
    ``max(v - tau, 0)`` with the threshold ``tau`` computed in closed form from the active set.

    Parameters
    ----------
    v : array_like of shape (n,) or (m, n)
        Point to project; a 2-D array is projected row by row.
    radius : float, default=1.0
        Sum of the simplex, finite and ``> 0``.
    n_jobs : int or None, default=None
        Rust threads for 2-D input (``None``: all cores, capped by
        ``GRAPHSPARSE_NUM_THREADS``). The result does not depend on it.
    out : ndarray of float64, optional
        Writeable C-contiguous array of ``v``'s shape that receives the result (may be ``v``).

    Returns
    -------
    ndarray of float64
        The projection, of ``v``'s shape (``out`` itself when given).

    Raises
    ------
    InvalidParameterError
        If ``v`` is empty, holds NaN or inf, or has more than 2 dimensions, or if ``radius``
        or ``out`` is invalid.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsparse import project_simplex
    >>> project_simplex(np.array([0.5, 1.5, -1.0]))
    array([0., 1., 0.])
    """
    arr = _as_array(v, "v")
    r = _as_float(radius, "radius")
    if not (math.isfinite(r) and r > 0):
        raise InvalidParameterError(f"radius must be finite and > 0, got {radius!r}")
    if arr.shape[-1] == 0:
        raise InvalidParameterError("v must not be empty: the simplex in dimension 0 is empty")
    out = _check_out(out, arr.shape)
    arr = _unalias(arr, out)
    return _rs.project_simplex(arr, r, n_threads=_n_threads(arr, n_jobs), out=out)


def project_l1_ball(
    v: npt.ArrayLike,
    radius: float = 1.0,
    *,
    n_jobs: int | None = None,
    out: FloatArray | None = None,
) -> FloatArray:
    """Euclidean projection onto the l1 ball ``{x : sum(|x|) <= radius}``.

    ``v`` itself when it lies in the ball, otherwise ``sign(v) * project_simplex(|v|, radius)``.

    Parameters
    ----------
    v : array_like of shape (n,) or (m, n)
        Point to project; a 2-D array is projected row by row.
    radius : float, default=1.0
        Radius of the ball, finite and ``>= 0`` (``0`` gives zeros).
    n_jobs : int or None, default=None
        Rust threads for 2-D input; the result does not depend on it.
    out : ndarray of float64, optional
        Writeable C-contiguous array of ``v``'s shape that receives the result (may be ``v``).

    Returns
    -------
    ndarray of float64
        The projection, of ``v``'s shape.

    Raises
    ------
    InvalidParameterError
        If ``v`` holds NaN or inf or has more than 2 dimensions, or ``radius`` or ``out`` is
        invalid.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsparse import project_l1_ball
    >>> project_l1_ball(np.array([2.0, -1.0, 0.25]))
    array([ 1., -0.,  0.])
    """
    arr = _as_array(v, "v")
    r = _as_float(radius, "radius")
    if not (math.isfinite(r) and r >= 0):
        raise InvalidParameterError(f"radius must be finite and >= 0, got {radius!r}")
    out = _check_out(out, arr.shape)
    arr = _unalias(arr, out)
    return _rs.project_l1_ball(arr, r, n_threads=_n_threads(arr, n_jobs), out=out)


def project_weighted_simplex(
    y: npt.ArrayLike,
    eps: npt.ArrayLike,
    *,
    n_jobs: int | None = None,
    out: FloatArray | None = None,
) -> FloatArray:
    """Euclidean projection onto ``{x : sum(eps * x) = 1, eps * x >= 0}``.

    The transformed simplex of Garg & Jaakkola (NeurIPS 2019, Algorithm 1):
    ``x_i = max(y_i + theta * eps_i, 0)`` where ``eps_i > 0`` and ``x_i = y_i`` where
    ``eps_i == 0`` (those coordinates are unconstrained). Short vectors use the sort-based
    Algorithm 1, long ones an expected-linear-time variant; both are exact up to rounding.

    Parameters
    ----------
    y : array_like of shape (n,) or (m, n)
        Point to project; a 2-D array is projected row by row.
    eps : array_like of shape (n,) or (m, n)
        Non-negative finite weights, not all zero (in every row); one row is shared by all rows
        of ``y``.
    n_jobs : int or None, default=None
        Rust threads for 2-D input; the result does not depend on it.
    out : ndarray of float64, optional
        Writeable C-contiguous array of ``y``'s shape that receives the result (may be ``y``).

    Returns
    -------
    ndarray of float64
        The projection, of ``y``'s shape.

    Raises
    ------
    InvalidParameterError
        If ``y`` or ``eps`` holds NaN or inf, ``eps`` is negative or all zero, or the shapes
        do not match.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsparse import project_weighted_simplex
    >>> x = project_weighted_simplex([0.9, -0.3, 0.4, 2.0, 0.1], [1.0, 0.5, 0.0, 0.25, 0.8])
    >>> np.round(x, 6)
    array([0.523529, 0.      , 0.4     , 1.905882, 0.      ])
    """
    arr = _as_array(y, "y")
    w = _as_array(eps, "eps")
    n = arr.shape[-1]
    if not (w.shape == (n,) or w.shape == arr.shape):
        raise InvalidParameterError(
            f"eps must have shape ({n},) or {arr.shape} to match y, got {w.shape}"
        )
    if n == 0:
        raise InvalidParameterError("y must not be empty: the weighted simplex is empty")
    out = _check_out(out, arr.shape)
    arr = _unalias(arr, out)
    w = _unalias(w, out)
    return _rs.project_weighted_simplex(arr, w, n_threads=_n_threads(arr, n_jobs), out=out)


def project_capped_simplex(
    y: npt.ArrayLike,
    k: float,
    *,
    n_jobs: int | None = None,
    out: FloatArray | None = None,
) -> FloatArray:
    """Euclidean projection onto the capped simplex ``{x : 0 <= x <= 1, sum(x) <= k}``.

    The result is ``clip(y - tau, 0, 1)`` with ``tau = 0`` when the clip already meets the
    budget, else the root of ``sum(clip(y - tau, 0, 1)) = k`` (found by pivoting on the
    breakpoints, closed exactly).

    Parameters
    ----------
    y : array_like of shape (n,) or (m, n)
        Point to project; a 2-D array is projected row by row.
    k : float
        Budget, ``>= 0`` (fractional values and ``inf`` are allowed).
    n_jobs : int or None, default=None
        Rust threads for 2-D input; the result does not depend on it.
    out : ndarray of float64, optional
        Writeable C-contiguous array of ``y``'s shape that receives the result (may be ``y``).

    Returns
    -------
    ndarray of float64
        The projection, of ``y``'s shape.

    Raises
    ------
    InvalidParameterError
        If ``y`` holds NaN or inf, or ``k`` is negative or NaN.

    Examples
    --------
    >>> from graphsparse import project_capped_simplex
    >>> project_capped_simplex([1.4, 0.9, 0.5, 0.2, -0.3], 2).round(12)
    array([1. , 0.7, 0.3, 0. , 0. ])
    """
    arr = _as_array(y, "y")
    kk = _as_float(k, "k")
    if math.isnan(kk) or kk < 0:
        raise InvalidParameterError(f"k must be >= 0, got {k!r}")
    out = _check_out(out, arr.shape)
    arr = _unalias(arr, out)
    return _rs.project_capped_simplex(arr, kk, n_threads=_n_threads(arr, n_jobs), out=out)


def project_top_k(
    y: npt.ArrayLike,
    k: int,
    *,
    n_jobs: int | None = None,
    out: FloatArray | None = None,
) -> FloatArray:
    """Keep the ``k`` entries of largest magnitude and zero the rest.

    The Euclidean projection onto the (non-convex) set of ``k``-sparse vectors; among entries
    of equal magnitude the lower indices are kept. Uses selection, not a full sort.

    Parameters
    ----------
    y : array_like of shape (n,) or (m, n)
        Point to project; a 2-D array is projected row by row.
    k : int
        Number of entries to keep, ``0 <= k <= n``.
    n_jobs : int or None, default=None
        Rust threads for 2-D input; the result does not depend on it.
    out : ndarray of float64, optional
        Writeable C-contiguous array of ``y``'s shape that receives the result (may be ``y``).

    Returns
    -------
    ndarray of float64
        The thresholded array, of ``y``'s shape.

    Raises
    ------
    InvalidParameterError
        If ``y`` holds NaN or inf, or ``k`` is not an integer in ``[0, n]``.

    Examples
    --------
    >>> from graphsparse import project_top_k
    >>> project_top_k([0.5, -2.0, 1.0, -1.0], 2)
    array([ 0., -2.,  1.,  0.])
    """
    arr = _as_array(y, "y")
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise InvalidParameterError(f"k must be an integer, got {k!r}")
    n = arr.shape[-1]
    if not 0 <= k <= n:
        raise InvalidParameterError(f"k must be in [0, {n}], got {k}")
    out = _check_out(out, arr.shape)
    arr = _unalias(arr, out)
    return _rs.project_top_k(arr, int(k), n_threads=_n_threads(arr, n_jobs), out=out)
