"""Naive references for the rule ensembles (``graphsparse.rules``).

``propositions_p1`` is rule P1 of the spec (§7.1) in plain NumPy: numeric cut points are the
linearly interpolated quantiles 0.2, 0.4, 0.6, 0.8 of a column's distinct values, a cut whose
split is constant or repeats an earlier split of the same column is dropped, each kept cut
gives ``x <= t`` and ``x > t``; a categorical column with k >= 3 present values gives
``x == v`` and ``x != v`` per value, with k == 2 gives the two ``x == v``, and with k <= 1
nothing. Missing values satisfy no proposition.

Size and cost: :func:`propositions_p1` is linear in the table; :func:`ghkl_primal_cvxpy`
enumerates all ``2^p`` conjunctions of the ``p`` propositions, so ``p <= 6`` or so. It needs
CVXPY (``pip install cvxpy``).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ._cvxpy import cvxpy

if TYPE_CHECKING:
    import pandas as pd


__all__ = [
    "propositions_p1",
    "ghkl_primal_cvxpy",
]


def propositions_p1(
    frame: pd.DataFrame, n_cuts: int = 4
) -> tuple[list[tuple[str, str, object]], NDArray[np.bool_]]:
    """The basic propositions of a table and their truth matrix (rows x propositions)."""
    import pandas as pd

    props: list[tuple[str, str, object]] = []
    columns: list[NDArray[np.bool_]] = []
    for name in frame.columns:
        col = frame[name]
        if isinstance(col.dtype, pd.CategoricalDtype) or col.dtype == object or col.dtype == bool:
            present = col.dropna()
            values = sorted(set(present.tolist()), key=str)
            ops = ("==", "!=") if len(values) >= 3 else ("==",) if len(values) == 2 else ()
            for v in values:
                for op in ops:
                    truth = col.notna().to_numpy() & (
                        (col == v).to_numpy() if op == "==" else (col != v).to_numpy()
                    )
                    props.append((str(name), op, v))
                    columns.append(truth)
        else:
            x = col.to_numpy(dtype=float)
            ok = ~np.isnan(x)
            u = np.unique(x[ok])
            if u.size == 0:
                continue
            cuts = np.quantile(u, np.arange(1, n_cuts + 1) / (n_cuts + 1))
            seen: set[int] = set()
            for t in np.sort(cuts):
                below = int(np.sum(x[ok] <= t))
                if below in (0, int(ok.sum())) or below in seen:
                    continue
                seen.add(below)
                props.append((str(name), "<=", float(t)))
                columns.append(ok & (x <= t))
                props.append((str(name), ">", float(t)))
                columns.append(ok & (x > t))
    matrix = np.column_stack(columns) if columns else np.zeros((len(frame), 0), dtype=bool)
    return props, matrix


def ghkl_primal_cvxpy(
    props: NDArray[np.bool_],
    y: NDArray[np.float64],
    *,
    C: float,
    rho: float,
    a: float,
    loss: str = "hinge",
) -> float:
    """The optimum of the gHKL(-MT) primal (5)/(6) over the **full** conjunction lattice.

    ``props`` is the ``m x p`` proposition matrix (p <= 6: 2^p nodes, all enumerated); every
    node ``S`` is the rank-one 0/1 feature ``phi_S(x) = prod_{c in S} x_c`` with one weight per
    task. ``y`` is ``(T, m)``: +-1 labels for the hinge loss, reals for the squared loss
    ``(y - F)^2 / 2``. The regulariser is ``Omega = sum_v a^|v| (sum_{w >= v} Q_w^rho)^(1/rho)``
    with ``Q_w = ||(f_tw)_t||_2`` (``B = I``); the objective ``Omega^2 / 2 + C sum loss``.
    Solved by CVXPY (Clarabel) on the explicit problem, with no kernel, no dual, no active set.
    """
    import itertools

    cp = cvxpy()

    m, p = props.shape
    T = y.shape[0]
    nodes = [frozenset(s) for r in range(p + 1) for s in itertools.combinations(range(p), r)]
    phi = np.column_stack(
        [props[:, sorted(s)].all(axis=1) if s else np.ones(m, dtype=bool) for s in nodes]
    ).astype(float)
    F = cp.Variable((len(nodes), T))
    b = cp.Variable(T)
    q = cp.norm(F, 2, axis=1) if T > 1 else cp.abs(F[:, 0])
    terms = []
    for sv in nodes:
        below = [w for w, sw in enumerate(nodes) if sv <= sw]
        terms.append(a ** len(sv) * cp.pnorm(cp.hstack([q[w] for w in below]), rho))
    omega = cp.sum(cp.hstack(terms))
    scores = phi @ F - np.ones((m, 1)) @ cp.reshape(b, (1, T), order="C")
    if loss == "hinge":
        fit = cp.sum(cp.pos(1 - cp.multiply(y.T, scores)))
    else:
        fit = 0.5 * cp.sum_squares(y.T - scores)
    prob = cp.Problem(cp.Minimize(0.5 * cp.square(omega) + C * fit))
    with warnings.catch_warnings():
        # Clarabel may call power cones with exponents near 1 (rho = 1.1) "inaccurate" while
        # its value still agrees with ours to ~1e-6, far inside the tests' tolerances
        warnings.filterwarnings("ignore", message="Solution may be inaccurate")
        prob.solve(solver=cp.CLARABEL)
    if prob.status not in ("optimal", "optimal_inaccurate"):
        raise AssertionError(f"the CVXPY reference did not solve: {prob.status}")
    return float(prob.value)
