"""Turning scikit-learn style ``n_jobs`` into a positive number of Rust worker threads."""

from __future__ import annotations

import os
import warnings

import numpy as np

from ._validation import as_count
from .exceptions import InvalidParameterError, ThreadCountWarning

__all__ = ["python_threads", "resolve_n_jobs"]


def _available_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def resolve_n_jobs(n_jobs: int | None) -> int:
    """Number of worker threads for ``n_jobs``.

    ``None`` means all available cores, capped by the ``GRAPHSPARSE_NUM_THREADS`` environment
    variable when it is set; ``-1`` means all cores; ``k > 0`` means ``k``; ``-k`` means all but
    ``k - 1`` (as in joblib).
    """
    cores = _available_cores()
    if n_jobs is None:
        env = os.environ.get("GRAPHSPARSE_NUM_THREADS")
        if env:
            try:
                cap = int(env)
            except ValueError:
                raise InvalidParameterError(
                    f"GRAPHSPARSE_NUM_THREADS must be a positive integer, got {env!r}"
                ) from None
            if cap < 1:
                raise InvalidParameterError(
                    f"GRAPHSPARSE_NUM_THREADS must be a positive integer, got {env!r}"
                )
            return min(cap, cores)
        return cores
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int | np.integer):
        raise InvalidParameterError(f"n_jobs must be an integer or None, got {n_jobs!r}")
    # a count like any other: refused beyond the int64 range, never clamped
    n_jobs = as_count(n_jobs, "n_jobs", -(2**63))
    if n_jobs == 0:
        raise InvalidParameterError("n_jobs must not be 0 (use None, -1 or a positive integer)")
    if n_jobs > 0:
        return n_jobs  # the binding caps at the available cores, with a ThreadCountWarning
    return max(1, cores + 1 + n_jobs)


def python_threads(n_jobs: int | None) -> int:
    """Threads for work run on a Python thread pool: :func:`resolve_n_jobs`, capped at the
    available cores with the same ``ThreadCountWarning`` as the Rust pools."""
    requested = resolve_n_jobs(n_jobs)
    cores = _available_cores()
    if requested > cores:
        warnings.warn(
            f"{requested} threads requested but only {cores} cores are available; using {cores}",
            ThreadCountWarning,
            stacklevel=3,
        )
        return cores
    return requested
