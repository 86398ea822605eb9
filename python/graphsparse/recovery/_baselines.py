"""The baselines of the recovery experiments: the latent group lasso (with the groups it is
given on a graph) and Graph-IHT / Graph-CoSaMP."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from sklearn.base import RegressorMixin

from .. import _graphsparse as _rs
from .._validation import (
    as_count,
    as_edges,
    as_float_array,
    as_real,
    as_real_target,
    check_endpoints,
    set_init_params,
)
from ..exceptions import InvalidGraphError, InvalidParameterError
from ._base import _Convex, _LinearModel
from ._design import (
    _REGRESSION_LOSSES,
    FloatArray,
    _check_graph_of_x,
    _fit_data,
    _groups_arg,
    _time_limit,
)


def edge_groups(edges: Any) -> list[list[int]]:
    """Every edge ``{u, v}`` as a group (the "graph lasso" of Jacob, Obozinski & Vert)."""
    return [sorted(e) for e in as_edges(edges).tolist()]


def neighbourhood_groups(edges: Any, n_features: int) -> list[list[int]]:
    """The closed neighbourhood ``{v} + N(v)`` of every vertex, each sorted."""
    n = as_count(n_features, "n_features")
    e = as_edges(edges)
    check_endpoints(e, n, f"n_features is {n}", "edges hold feature ids in [0, n_features)")
    groups: list[set[int]] = [{v} for v in range(n)]
    for u, v in e.tolist():
        if u < 0 or v < 0:
            raise InvalidGraphError(f"edge ({u}, {v}) has a negative endpoint (not a feature id)")
        groups[u].add(v)
        groups[v].add(u)
    return [sorted(g) for g in groups]


class LatentGroupLasso(RegressorMixin, _Convex):
    """The latent group lasso of Jacob, Obozinski & Vert (2009).

    Minimises ``f(X w) + lambda_ · min {Σ_g d_g‖v_g‖₂ : Σ_g v_g = w, supp v_g ⊆ g}``
    with ``d_g = √|g|`` unless ``group_weights`` are given, and ``f`` as in
    :class:`GraphStructuredRecovery`. ``groups=None`` uses the closed neighbourhoods of
    ``edges`` (the paper's baseline); a feature in no group is fixed at 0.

    Parameters
    ----------
    groups : list of list of int, optional
    edges : array-like of int, shape (m, 2), optional
        Used when ``groups`` is None.
    lambda_ : float, default=1.0
    loss : {"squared", "absolute"}, default="squared"
    group_weights : array-like of float, optional
    tol, max_iter, warm_start, time_limit, n_jobs, verbose
        As :class:`GraphStructuredRecovery`.

    Attributes
    ----------
    coef_, intercept_, n_iter_, converged_, dual_gap_, objective_, history_
        As :class:`GraphStructuredRecovery` (``intercept_`` is always 0).
    truncated_, truncation_
        As :class:`GraphStructuredRecovery`.
    """

    def __init__(
        self,
        groups: Any = None,
        edges: Any = (),
        lambda_: float = 1.0,
        loss: str = "squared",
        group_weights: Any = None,
        tol: float = 1e-6,
        max_iter: int = 20_000,
        warm_start: bool = False,
        time_limit: float | None = None,
        n_jobs: int | None = None,
        verbose: Any = False,
    ) -> None:
        set_init_params(self, locals())

    def fit(self, X: Any, y: npt.ArrayLike) -> LatentGroupLasso:
        """Solve for ``X`` (dense or SciPy sparse) and ``y``; returns ``self``."""
        if self.loss not in _REGRESSION_LOSSES:
            raise InvalidParameterError(f"loss must be 'squared' or 'absolute', got {self.loss!r}")
        design, ya, n, p = _fit_data(self, X, y)
        yy = as_real_target(ya, n, type(self).__name__)
        if self.groups is None:
            _check_graph_of_x(as_edges(self.edges), p)
            groups = neighbourhood_groups(self.edges, p)
        else:
            groups = [[as_count(v, "groups") for v in g] for g in self.groups]
            for k, g in enumerate(groups):
                if any(v >= p for v in g):
                    raise InvalidParameterError(
                        f"groups[{k}] holds feature {max(g)}, but X has {p} columns; groups "
                        "hold column indices of X"
                    )
        ptr, members = _groups_arg(groups)
        w = (
            np.sqrt([float(len(g)) for g in groups])
            if self.group_weights is None
            else as_float_array(self.group_weights, "group_weights", length=len(groups))
        )
        out = self._solve(
            "latent",
            design,
            yy,
            self.loss,
            ("latent", n, p, len(members)),
            groups=(ptr, members, np.ascontiguousarray(w, dtype=np.float64)),
        )
        self.coef_ = out.coef
        self.intercept_ = 0.0
        return self

    def predict(self, X: Any) -> FloatArray:
        """``X @ coef_``, shape ``(n_samples,)``."""
        return self._decision(X)


class GraphIHT(RegressorMixin, _LinearModel):
    """Graph-IHT / Graph-CoSaMP (Hegde, Indyk & Schmidt, ICML 2015), the non-convex baseline.

    Least squares over signals supported on at most ``n_components`` connected pieces of about
    ``sparsity`` vertices, with the weighted-graph-model head and tail projections.

    Parameters
    ----------
    edges : array-like of int, shape (m, 2)
    sparsity : int, default=10
        Capped at ``n_features``.
    n_components : int, default=1
    method : {"iht", "cosamp"}, default="iht"
    max_iter : int, default=100
        Most iterations; a run they stop warns with a
        :class:`~graphsparse.exceptions.TruncatedSearchWarning`.
    tol : float, default=1e-6
        Relative change of the iterate at which the run stops.
    time_limit : float, optional
        Seconds; the run stops there with the same warning.
    n_jobs : int, optional

    Attributes
    ----------
    coef_, support_, n_iter_, converged_, residual_norms_
    truncated_ : bool
        Whether a budget stopped the run.
    truncation_ : str or None
        Which budget: ``"max_iter"`` or ``"time_limit"``; ``None`` when none did.
    """

    def __init__(
        self,
        edges: Any = (),
        sparsity: int = 10,
        n_components: int = 1,
        method: str = "iht",
        max_iter: int = 100,
        tol: float = 1e-6,
        time_limit: float | None = None,
        n_jobs: int | None = None,
    ) -> None:
        set_init_params(self, locals())

    def fit(self, X: Any, y: npt.ArrayLike) -> GraphIHT:
        """Run on ``X`` (dense or SciPy sparse) and ``y``; returns ``self``."""
        design, ya, n, p = _fit_data(self, X, y)
        yy = as_real_target(ya, n, type(self).__name__)
        edges = as_edges(self.edges)
        _check_graph_of_x(edges, p)
        sparsity = as_count(self.sparsity, "sparsity")
        params: _rs.IhtArgs = {
            "sparsity": min(sparsity, p) if sparsity >= 1 else sparsity,
            "n_components": as_count(self.n_components, "n_components"),
            "method": self.method,
            "max_iter": as_count(self.max_iter, "max_iter"),
            "tol": as_real(self.tol, "tol"),
            "ratio": 0.1,
            "time_limit": _time_limit(self.time_limit),
        }
        out = self._run_rust(_rs.recovery_graph_iht, design, yy, edges, params)
        self.coef_ = out.coef
        self.intercept_ = 0.0
        self.support_ = out.support
        self.residual_norms_ = out.residual_norms
        self._set_outcome(
            n_iter=out.n_iter,
            converged=out.converged,
            truncation=out.truncation,
            detail=f"the estimate is the last iterate (tol={self.tol})",
        )
        return self

    def predict(self, X: Any) -> FloatArray:
        """``X @ coef_``, shape ``(n_samples,)``."""
        return self._decision(X)
