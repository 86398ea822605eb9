"""The restricted master LP of soft-margin LPBoost, re-solved after each new column.

The master is solved in its dual form, which has one row per column (few) instead of one per
sample::

    minimise beta  subject to  sum_i u_i y_i h_j(g_i) <= beta   for every column j,
                               sum_i u_i = 1,   0 <= u_i <= cap.

Its optimum equals the primal ``max rho - cap sum_i xi_i`` (LP duality) and the primal stump
weights ``a_j`` are the duals of the column rows. With ``highspy`` installed (the ``highs``
extra) the rows are added to one HiGHS model and every solve warm-starts from the previous
basis, usually a few dual simplex pivots; otherwise ``scipy.optimize.linprog`` (HiGHS as well)
solves each master from scratch.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
import threading
from collections.abc import Iterator

import numpy as np
from scipy.optimize import linprog

from .._optional import install_hint
from ..exceptions import InvalidParameterError

try:  # optional: warm-started incremental solves
    import highspy
except ImportError:  # pragma: no cover - exercised when the extra is absent
    highspy = None

HAVE_HIGHSPY = highspy is not None

_QUIET = threading.Lock()


@contextlib.contextmanager
def _stdout_silenced() -> Iterator[None]:
    """Point file descriptor 1 at /dev/null for the duration (C-level writes included).

    highspy (1.16 here) prints its banner from the ``Highs()`` constructor, before any option can be
    set; a library must not print unasked, so the constructor runs with stdout silenced.
    """
    with _QUIET:
        sys.stdout.flush()
        libc = ctypes.CDLL(None)
        saved = os.dup(1)
        try:
            with open(os.devnull, "w") as null:
                os.dup2(null.fileno(), 1)
            yield
        finally:
            libc.fflush(None)  # what C stdio buffered goes to /dev/null, not to the caller
            os.dup2(saved, 1)
            os.close(saved)


def _new_highs(verbose: bool) -> highspy.Highs:
    """A HiGHS instance whose output, banner included, appears only when ``verbose``."""
    if verbose:
        h = highspy.Highs()
    else:
        with _stdout_silenced():
            h = highspy.Highs()
    h.setOptionValue("output_flag", verbose)
    return h


class LPBoostMaster:
    """Soft-margin LPBoost master over the columns added so far.

    Parameters
    ----------
    labels : ndarray of float
        ``+1``/``-1`` per sample.
    cap : float
        Upper bound ``1 / (nu n)`` of each sample weight.
    warm_start : bool, optional
        Use highspy's incremental solver (default: when it is installed).
    verbose : bool, default=False
        Let HiGHS print its log (banner and solver output); silent by default.
    """

    def __init__(
        self,
        labels: np.ndarray,
        cap: float,
        warm_start: bool | None = None,
        verbose: bool = False,
    ) -> None:
        self.labels = np.asarray(labels, dtype=np.float64)
        self.cap = float(cap)
        self.verbose = bool(verbose)
        self.n = len(self.labels)
        self.warm_start = HAVE_HIGHSPY if warm_start is None else bool(warm_start)
        if self.warm_start and not HAVE_HIGHSPY:
            raise InvalidParameterError(f"warm_start=True needs highspy: {install_hint('highs')}")
        self._rows: list[np.ndarray] = []
        if self.warm_start:
            self._init_highs()

    def _init_highs(self) -> None:
        n = self.n
        h = _new_highs(self.verbose)
        h.addVars(n, np.zeros(n), np.full(n, self.cap))
        h.addVar(-highspy.kHighsInf, highspy.kHighsInf)  # beta
        h.changeColsCost(1, np.array([n], dtype=np.int32), np.array([1.0]))
        h.addRow(1.0, 1.0, n, np.arange(n, dtype=np.int32), np.ones(n))
        self._highs = h
        self._index = np.arange(n + 1, dtype=np.int32)

    def add(self, column: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        """Add the column ``h_j(g_i)`` (``+-1`` per sample) and re-solve.

        Returns the column weights ``a`` (summing to one), the sample weights ``u`` and the
        optimum ``beta``.
        """
        row = self.labels * np.asarray(column, dtype=np.float64)
        self._rows.append(row)
        if self.warm_start:
            return self._solve_highs(row)
        return self._solve_linprog()

    def _solve_highs(self, row: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        h = self._highs
        h.addRow(-highspy.kHighsInf, 0.0, self.n + 1, self._index, np.append(row, -1.0))
        h.run()
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            raise InvalidParameterError(
                f"LPBoost master LP failed: {h.modelStatusToString(h.getModelStatus())}"
            )
        sol = h.getSolution()
        u = np.asarray(sol.col_value[: self.n], dtype=np.float64)
        a = -np.asarray(sol.row_dual[1:], dtype=np.float64)
        beta = float(h.getInfo().objective_function_value)
        return _clean(a), np.clip(u, 0.0, None), beta

    def _solve_linprog(self) -> tuple[np.ndarray, np.ndarray, float]:
        n, m = self.n, len(self._rows)
        c = np.zeros(n + 1)
        c[n] = 1.0
        a_ub = np.hstack([np.vstack(self._rows), -np.ones((m, 1))])
        a_eq = np.append(np.ones(n), 0.0)[None, :]
        bounds = [(0.0, self.cap)] * n + [(None, None)]
        res = linprog(
            c,
            A_ub=a_ub,
            b_ub=np.zeros(m),
            A_eq=a_eq,
            b_eq=[1.0],
            bounds=bounds,
            method="highs",
            options={"disp": self.verbose},
        )
        if res.status != 0:
            raise InvalidParameterError(f"LPBoost master LP failed: {res.message}")
        a = -np.asarray(res.ineqlin.marginals, dtype=np.float64)
        return _clean(a), np.clip(np.asarray(res.x[:n]), 0.0, None), float(res.fun)


def _clean(a: np.ndarray) -> np.ndarray:
    # duals come back with -0.0 and round-off of either sign; the weights are a distribution
    a = np.clip(a, 0.0, None)
    total = a.sum()
    return a / total if total > 0 else a
