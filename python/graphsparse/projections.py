"""Exact Euclidean projections onto the sets used by sparse and graph-structured solvers.

Every function takes a 1-D vector or a 2-D array whose rows are projected independently (in
parallel on ``n_jobs`` Rust threads), and can write into a caller-provided ``out`` array, which
may be the input itself for an in-place projection. The work runs in Rust with the GIL released;
float64 C-contiguous inputs are read without a copy.

================================  ============================================  ===============
function                          set                                           time
================================  ============================================  ===============
:func:`project_simplex`           ``{x >= 0, sum(x) = radius}``                 expected O(n)
:func:`project_l1_ball`           ``{sum(|x|) <= radius}``                      expected O(n)
:func:`project_weighted_simplex`  ``{sum(eps * x) = 1, eps * x >= 0}``          expected O(n)
:func:`project_capped_simplex`    ``{0 <= x <= 1, sum(x) <= k}``                expected O(n)
:func:`project_top_k`             ``{x : at most k non-zeros}``                 expected O(n)
================================  ============================================  ===============
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from . import _graphsparse as _rs
from ._threads import resolve_n_jobs
from ._validation import as_count, as_float_array, as_real
from .exceptions import InvalidParameterError

__all__ = [
    "project_capped_simplex",
    "project_l1_ball",
    "project_simplex",
    "project_top_k",
    "project_weighted_simplex",
]

FloatArray = npt.NDArray[np.float64]
_F = TypeVar("_F", bound=Callable[..., Any])


_DIMS = (1, 2)


def _check_out(out: FloatArray | None) -> FloatArray | None:
    # what the binding cannot take as a float64 array; its shape is checked there
    if out is None:
        return None
    if not isinstance(out, np.ndarray):
        raise InvalidParameterError(f"out must be a numpy array, got {type(out).__name__}")
    if out.dtype != np.float64 or not out.flags.c_contiguous or not out.flags.writeable:
        raise InvalidParameterError("out must be a writeable C-contiguous float64 array")
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


def _shared_doc(point: str) -> Callable[[_F], _F]:
    """Fill in the parameter text that every projection shares (scipy's ``doccer`` style).

    ``%(point)s``, ``%(n_jobs)s`` and ``%(out)s`` in the docstring become the entries of the
    projected array ``point``, of ``n_jobs`` and of ``out``.
    """
    entries = {
        "point": (
            f"{point} : array_like of shape (n,) or (m, n)\n"
            "        Point to project; a 2-D array is projected row by row."
        ),
        "n_jobs": (
            "n_jobs : int or None, default=None\n"
            "        Rust threads for 2-D input; the result does not depend on it."
        ),
        "out": (
            "out : ndarray of float64, optional\n"
            f"        Writeable C-contiguous array of ``{point}``'s shape that receives the result"
            f" (may be ``{point}``)."
        ),
    }

    def fill(func: _F) -> _F:
        if func.__doc__ is not None:  # None under ``python -OO``
            func.__doc__ %= entries
        return func

    return fill


def _project(
    rust_fn: Any, arr: FloatArray, param: Any, n_jobs: int | None, out: FloatArray | None
) -> FloatArray:
    """Runs one Rust projection; ``param`` is its scalar, or the weights array."""
    out = _check_out(out)
    if isinstance(param, np.ndarray):
        param = _unalias(param, out)
    arr = _unalias(arr, out)
    return rust_fn(arr, param, n_threads=_n_threads(arr, n_jobs), out=out)


@_shared_doc("v")
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
    %(point)s
    radius : float, default=1.0
        Sum of the simplex, finite and ``> 0``.
    n_jobs : int or None, default=None
        Rust threads for 2-D input (``None``: all cores, capped by
        ``GRAPHSPARSE_NUM_THREADS``). The result does not depend on it.
    %(out)s

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
    arr = as_float_array(v, "v", ndim=_DIMS)
    if arr.shape[-1] == 0:  # the rows of an (m, 0) batch never reach the core
        raise InvalidParameterError("v must not be empty: the simplex in dimension 0 is empty")
    return _project(_rs.project_simplex, arr, as_real(radius, "radius"), n_jobs, out)


@_shared_doc("v")
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
    %(point)s
    radius : float, default=1.0
        Radius of the ball, finite and ``>= 0`` (``0`` gives zeros).
    %(n_jobs)s
    %(out)s

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
    arr = as_float_array(v, "v", ndim=_DIMS)
    return _project(_rs.project_l1_ball, arr, as_real(radius, "radius"), n_jobs, out)


@_shared_doc("y")
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
    %(point)s
    eps : array_like of shape (n,) or (m, n)
        Non-negative finite weights, not all zero (in every row); one row is shared by all rows
        of ``y``.
    %(n_jobs)s
    %(out)s

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
    arr = as_float_array(y, "y", ndim=_DIMS)
    if arr.shape[-1] == 0:  # the rows of an (m, 0) batch never reach the core
        raise InvalidParameterError("y must not be empty: the weighted simplex is empty")
    w = as_float_array(eps, "eps", ndim=_DIMS)
    return _project(_rs.project_weighted_simplex, arr, w, n_jobs, out)


@_shared_doc("y")
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
    %(point)s
    k : float
        Budget, ``>= 0`` (fractional values and ``inf`` are allowed).
    %(n_jobs)s
    %(out)s

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
    arr = as_float_array(y, "y", ndim=_DIMS)
    return _project(_rs.project_capped_simplex, arr, as_real(k, "k"), n_jobs, out)


@_shared_doc("y")
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
    %(point)s
    k : int
        Number of entries to keep, ``0 <= k <= n``.
    %(n_jobs)s
    %(out)s

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
    arr = as_float_array(y, "y", ndim=_DIMS)
    kk = as_count(k, "k")  # the upper bound n is the core's
    return _project(_rs.project_top_k, arr, kk, n_jobs, out)
