"""Convex graph-structured sparse recovery (Kuroda & Kitahara) and its baselines.

:class:`GraphStructuredRecovery` minimises exactly the paper's model (6)::

    f(X w) + lambda_ * Psi_alpha(w),   Psi_alpha(w) = min_sigma sum_n phi(w_n, sigma_n)
                                        subject to ||W D sigma||_1 <= alpha,

with ``phi(x, t) = x**2 / (2 t) + t / 2`` and, for the squared loss, ``f(u) = ½‖y − u‖²``:
**no 1/n factor**. On a graph without edges this is scikit-learn's ``Lasso`` with
``alpha_sklearn = lambda_ / n_samples``. Note the names: ``alpha`` here is the paper's budget on
the latent jumps (in units of ``|w|``, not an edge count), **not** scikit-learn's regularisation
strength, which is ``lambda_``.

============ =======================================================================
parameter    meaning
============ =======================================================================
``lambda_``  regularisation weight ``λ > 0``
``alpha``    budget ``α ≥ 0`` on ``‖W D σ‖₁`` (``0``: one group per component;
             large: the lasso); with ``penalty_form="lagrangian"`` the weight ``β``
             of ``β‖W D σ‖₁`` (a scale-free norm)
``edges``    the graph on the features, an ``(m, 2)`` integer array
``weights``  positive edge weights (default 1)
============ =======================================================================

The solver (``solver="auto"``) is Anderson-accelerated PDHG for a small dense ``X`` and adaptive
PDHG otherwise (or the paper's Algorithm 1, ``solver="kk"``), in Rust, stopped when a
certified relative duality gap falls below ``tol``. :class:`GraphStructuredClassifier`
is the same model with the logistic or hinge loss; :class:`LatentGroupLasso` and
:class:`GraphIHT` are the convex and non-convex baselines; :func:`recovery_path` solves along a
warm-started ``λ`` path.

**Intercepts.** The paper's model (6) has none: ``f(L x)`` with ``L`` the measurement matrix.
The regressors therefore default to ``fit_intercept=False``; ``fit_intercept=True`` (squared
loss only) solves the exact unpenalised-intercept problem by centring ``X`` and ``y`` (dense
``X`` only: centring a sparse ``X`` would densify it). The classifier defaults to
``fit_intercept=True`` and appends a constant column ``intercept_scaling`` as an isolated vertex
of the graph (liblinear's device): the intercept ``b`` is penalised by ``lambda_·|b|/s``, so a
large ``intercept_scaling`` leaves it nearly free.
"""

from __future__ import annotations

from .._public import publish as _publish
from ._baselines import GraphIHT, LatentGroupLasso, edge_groups, neighbourhood_groups
from ._design import FloatArray as FloatArray
from ._graph_structured import GraphStructuredClassifier, GraphStructuredRecovery
from ._path import RecoveryPath, lambda_max, recovery_path
from ._penalty import penalty, prox_perspective

# the imports written ``X as X`` re-export public names that __all__ leaves out, as before
__all__ = [
    "GraphIHT",
    "GraphStructuredClassifier",
    "GraphStructuredRecovery",
    "LatentGroupLasso",
    "RecoveryPath",
    "edge_groups",
    "lambda_max",
    "neighbourhood_groups",
    "penalty",
    "prox_perspective",
    "recovery_path",
]

_publish(__name__, __all__, globals())
