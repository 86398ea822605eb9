"""What the recovery estimators share: sparse input and ``coef_`` (every one), and the warm-started
convex solve and its outcome (the convex ones)."""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .. import _graphsparse as _rs
from .._base import GraphSparseEstimator
from .._validation import as_count, as_edges, as_real, sklearn_data
from ._design import FloatArray, _check_graph_of_x, _dense, _design, _time_limit, _weights


class _LinearModel(GraphSparseEstimator):
    """What every estimator here shares: sparse input, fitted means ``coef_`` exists (the
    parameter ``lambda_`` ends in ``_`` too, which would fool scikit-learn's default test)."""

    def __sklearn_is_fitted__(self) -> bool:
        return hasattr(self, "coef_")

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _decision(self, X: Any) -> FloatArray:
        check_is_fitted(self)
        Xa = sklearn_data(self, X, reset=False, accept_sparse="csr")
        return np.asarray(Xa @ self.coef_, dtype=np.float64) + self.intercept_


class _Convex(_LinearModel):
    """Shared fitting of the convex models (the binding's ``recovery_solve``)."""

    def _solver_params(self, loss: str) -> _rs.SolverArgs:
        """The solver settings (all but ``lambda_``: a path takes its values as an array)."""
        return {
            "alpha": as_real(getattr(self, "alpha", 0.0), "alpha"),
            "loss": loss,
            "penalty_form": getattr(self, "penalty_form", "budget"),
            "solver": getattr(self, "solver", "pdhg"),
            "gamma": None,
            "tol": as_real(self.tol, "tol"),
            "max_iter": as_count(self.max_iter, "max_iter"),
            "check_every": 10,
            "op_norm": None,
            "diff_norm": None,
            "step_ratio": 1.0,
            "max_nodes": None,
            "time_limit": _time_limit(self.time_limit),
        }

    def _warm(self, key: tuple[Any, ...]) -> _rs.RecoveryState | None:
        """The previous solution's state when ``warm_start`` and the problem shape agree, with
        the step adaptation restarted (the problem changed: see ``RecoveryState.restarted``)."""
        if not getattr(self, "warm_start", False):
            return None
        state = getattr(self, "_warm_state", None)
        # a model pickled before the state was a RecoveryState starts cold
        if state is None or state[0] != key or not isinstance(state[1], _rs.RecoveryState):
            return None
        return state[1].restarted()

    def _solve(
        self, kind: str, design: Any, y: FloatArray, loss: str, key: tuple[Any, ...], **model: Any
    ) -> _rs.RecoveryFit:
        """One ``recovery_solve`` of model ``kind`` (``model``: its graph or groups), warm-started
        from the previous fit when ``warm_start`` and the problem ``key`` agree, with progress
        for ``verbose``; the outcome is kept by :meth:`_store`."""
        warm = self._warm(key)
        params: _rs.SolveArgs = {
            **self._solver_params(loss),
            "lambda_": as_real(self.lambda_, "lambda_"),
        }
        out = self._run_rust(
            _rs.recovery_solve,
            kind,
            design,
            y,
            params,
            **model,
            warm=warm,
            value_name="gap",
        )
        self._store(out, key)
        return out

    def _store(self, out: _rs.RecoveryFit, key: tuple[Any, ...]) -> None:
        self._warm_state = (key, out.state)
        self.objective_ = float(out.objective)
        h = out.history
        self.history_ = {
            "iteration": h.iteration,
            "gap": h.gap,
            "objective": h.primal,
            "dual_objective": h.dual,
            "primal_residual": h.primal_residual,
            "dual_residual": h.dual_residual,
        }
        self._set_outcome(
            n_iter=out.n_iter,
            converged=out.converged,
            truncation=out.truncation,
            # the certificate in the objective's units, as every estimator reports it (weak
            # duality makes it >= 0 up to rounding); the relative gap that `tol` bounds stays
            # in history_["gap"]
            dual_gap=max(out.objective - out.dual_objective, 0.0),
            detail=f"the estimate is the last iterate, at a relative duality gap of "
            f"{out.dual_gap:.2e} (tol={self.tol})",
        )


class _GraphModel(_Convex):
    """Fitting of model (6) on the graph ``edges``; ``extra`` isolated vertices are appended."""

    def _fit_graph(
        self, design: Any, y: FloatArray, loss: str, n: int, p: int, intercept_col: float | None
    ) -> _rs.RecoveryFit:
        edges = as_edges(self.edges)
        # before the intercept column becomes vertex p, which an edge must not reach
        _check_graph_of_x(edges, p)
        weights = _weights(self.weights, len(edges))
        if intercept_col is not None:
            col = np.full((n, 1), intercept_col)
            if isinstance(design, tuple):
                import scipy.sparse as sp

                design, _, _ = _design(sp.hstack([_dense(design), col], format="csr"))
            else:
                design = np.hstack([design, col])
        key = ("graph", n, p, intercept_col is not None)
        out = self._solve("graph", design, y, loss, key, edges=edges, weights=weights)
        # the features' coefficients and scales (an intercept column's come last)
        self.coef_ = out.coef[:p]
        self.sigma_ = out.sigma[:p]
        self.solver_ = out.solver
        return out
