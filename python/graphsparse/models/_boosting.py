"""Boosting with subgraph decision stumps: :class:`SubgraphAdaBoost` and
:class:`SubgraphLPBoost` (column generation over the restricted master LP of
:mod:`._lpboost`)."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import numpy.typing as npt
from sklearn.utils.validation import check_is_fitted

from .. import _graphsparse as _rs
from .._base import GraphSparseEstimator
from .._dataset import GraphDataset
from .._progress import reports
from .._validation import as_count, as_optional_count, as_real, min_support_count, set_init_params
from ..exceptions import InvalidParameterError
from ..mining._pattern import _pattern
from ._base import (
    _CACHE_BYTES,
    _binary_response,
    _dataset,
    _linear_decision,
    _PatternFeatures,
    _SignClassifier,
)
from ._lpboost import LPBoostMaster

#: One stump of an ensemble: its pattern's DFS code (label ids), the pattern's training graphs,
#: its sign (+1 or -1) and its weight.
_Stump = tuple[np.ndarray, np.ndarray, float, float]


class _StumpEnsemble(_SignClassifier, _PatternFeatures, GraphSparseEstimator):
    """Shared code of the boosting classifiers: an ensemble of ``s (2 I(x ⊆ g) - 1)`` stumps."""

    def _stump_params(self, n_graphs: int) -> _rs.SearchArgs:
        return {
            "min_support": min_support_count(self.min_support, n_graphs),
            "max_size": as_optional_count(self.max_size, "max_size"),
            "max_nodes": as_optional_count(self.max_nodes, "max_nodes"),
            "time_limit": self.time_limit,
            "prune": True,
            "cache_bytes": as_count(self.cache_bytes, "cache_bytes"),
        }

    def _finish(self, ds: GraphDataset, stumps: list[_Stump]) -> None:
        """Merge stumps into ``coef_``/``intercept_`` over distinct patterns."""
        index: dict[bytes, int] = {}
        codes: list[np.ndarray] = []
        ids: list[np.ndarray] = []
        coef: list[float] = []
        intercept = 0.0
        self.estimators_ = []
        for code, graph_ids, sign, weight in stumps:
            key = np.asarray(code).tobytes()
            if key not in index:
                index[key] = len(codes)
                codes.append(code)
                ids.append(graph_ids)
                coef.append(0.0)
            coef[index[key]] += 2.0 * weight * sign
            intercept -= weight * sign
            self.estimators_.append((_pattern(code, graph_ids, ds), sign, weight))
        self.patterns_ = [_pattern(c, i, ds) for c, i in zip(codes, ids, strict=True)]
        self.coef_ = np.asarray(coef, dtype=np.float64)
        self.intercept_ = float(intercept)

    def _graphs_and_signs(self, X: Any, y: Any) -> tuple[GraphDataset, np.ndarray]:
        """The training graphs and their labels as ±1 (``classes_[1]`` is +1)."""
        ds = _dataset(X)
        return ds, 2.0 * _binary_response(self, y, len(ds)) - 1.0

    def decision_function(self, X: Any) -> np.ndarray:
        """``sum_t w_t s_t (2 I(x_t ⊆ g) - 1)`` for each graph."""
        check_is_fitted(self, "coef_")
        return _linear_decision(self.patterns_, self.coef_, self.intercept_, X, self._n_threads())


class SubgraphAdaBoost(_StumpEnsemble):
    """Adaboost with subgraph decision stumps (Kudo, Maeda & Matsumoto 2005).

    Each round finds the stump ``h(g) = s (2 I(x ⊆ g) - 1)`` with the largest weighted gain
    ``sum_i w_i y_i h(g_i)`` over all subgraphs by branch and bound (Morishita-Kudo bound), then
    applies the usual Adaboost update. The whole loop runs in Rust, and the rounds share a
    cache of the visited tree (no re-embedding of known nodes). ``n_jobs`` threads run every
    round's search (the later ones walk the cache) and prediction, with the single-thread
    result.

    Parameters
    ----------
    n_estimators : int, default=50
        Boosting rounds.
    max_size, min_support, n_jobs, max_nodes, time_limit, verbose, cache_bytes
        As for :class:`SubgraphLogisticRegression` (budgets apply to each round's search).
        ``verbose=1`` prints the nodes visited and rounds done on standard error every second.
        What the defaults cost: with ``max_size=None`` the rounds on MUTAG (188 molecules,
        2 shared cores) visit 1.1-1.3 million tree nodes in 0.7-7 s (the more the busier the
        cores), against 31 thousand (0.015-0.05 s) with ``max_size=5``; the search deepens
        with the size of the graphs.

    Attributes
    ----------
    estimators_ : list of (Pattern, sign, weight)
    patterns_, coef_, intercept_
        The same model as a linear function of distinct patterns.
    n_visited_ : list of int
        Tree nodes visited per round.
    n_iter_ : int
        Rounds done (``n_estimators`` unless a budget or the data ended the boosting early).
    truncated_ : bool
        Whether a round's ``max_nodes`` or ``time_limit`` budget stopped the boosting (with a
        :class:`~graphsparse.exceptions.TruncatedSearchWarning`).
    truncation_ : str or None
        Which budget: ``"max_nodes"`` or ``"time_limit"``; ``None`` when none did.
    """

    def __init__(
        self,
        n_estimators: int = 50,
        max_size: int | None = None,
        min_support: int | float = 1,
        n_jobs: int | None = None,
        max_nodes: int | None = None,
        time_limit: float | None = None,
        verbose: bool | int | str = 0,
        cache_bytes: int = _CACHE_BYTES,
    ) -> None:
        set_init_params(self, locals())

    def fit(self, X: Any, y: npt.ArrayLike) -> SubgraphAdaBoost:
        """Run ``n_estimators`` boosting rounds on graphs ``X`` with two-class labels ``y``."""
        ds, labels = self._graphs_and_signs(X, y)
        rounds = as_count(self.n_estimators, "n_estimators")
        params: _rs.AdaBoostArgs = {**self._stump_params(len(ds)), "n_estimators": rounds}
        fit = self._run_rust(
            _rs.fit_subgraph_adaboost,
            ds._db,
            np.ascontiguousarray(labels, dtype=np.float64),
            params,
        )
        self.n_visited_ = [int(v) for v in fit.visited]
        stumps = [
            (c, i, float(s), float(a))
            for c, i, s, a in zip(fit.codes, fit.graph_ids, fit.signs, fit.weights, strict=True)
        ]
        # boosting has no convergence test: n_estimators is the model's size, not a budget
        self._set_outcome(
            n_iter=len(stumps),
            converged=None,
            truncation=fit.truncation,
            unit="round",
            detail="the model holds the rounds done",
        )
        if not stumps:
            raise InvalidParameterError("no subgraph stump beats chance on this data")
        self._finish(ds, stumps)
        return self


class SubgraphLPBoost(_StumpEnsemble):
    """LPBoost with subgraph stumps by column generation (gBoost, Saigo et al. 2009).

    Soft-margin LPBoost: maximise ``rho - D sum_i xi_i`` subject to ``y_i sum_j a_j h_j(g_i) +
    xi_i >= rho``, ``sum_j a_j = 1``, ``a, xi >= 0``, with ``D = 1 / (nu n)``. The restricted
    master LP is solved with HiGHS in its dual form (warm-started through ``highspy`` when it is
    installed, else ``scipy.optimize.linprog``); the pricing step finds the most
    violated stump (largest ``sum_i u_i y_i h(g_i)`` for the dual weights ``u``) by branch and
    bound over all subgraphs. It stops when no stump violates the dual constraint by more than
    ``tol``. All pricing steps of a fit share one cache of the visited gSpan tree, so a node is
    embedded once per fit however often it is evaluated, and the embeddings of the frontier's
    ancestors are kept (within ``cache_bytes``) for the steps that expand it; every search and
    prediction run on ``n_jobs`` threads (with the single-thread result), and
    ``max_nodes``/``time_limit`` bound each step.

    Parameters
    ----------
    nu : float, default=0.4
        In ``(0, 1]``: the fraction of margin errors allowed.
    tol : float, default=1e-3
        Convergence tolerance of the column generation.
    max_iter : int, default=500
        Most columns added.
    max_size, min_support, n_jobs, max_nodes, time_limit, cache_bytes
        As for :class:`SubgraphLogisticRegression`. What the defaults cost: with
        ``max_size=None`` the pricing steps on MUTAG (188 molecules, 2 shared cores) visit
        750 thousand tree nodes in 0.7-0.8 s, against 20 thousand (0.03-0.1 s) with
        ``max_size=5``; the search deepens with the size of the graphs.
    verbose : bool or int, default=0
        Print one line per column on standard error (the LP objective, the pricing gain, nodes
        visited) and let HiGHS print its own log; by default nothing is printed.

    Attributes
    ----------
    estimators_ : list of (Pattern, sign, weight)
        The stumps with nonzero weight.
    objective_ : float
        The LP optimum ``rho - D sum xi`` (equal to the dual ``beta``).
    patterns_, coef_, intercept_, n_iter_, converged_, n_visited_
    truncated_ : bool
        Whether a budget stopped the column generation (with a
        :class:`~graphsparse.exceptions.TruncatedSearchWarning`).
    truncation_ : str or None
        Which budget: ``"max_iter"`` (columns), or ``"max_nodes"`` or ``"time_limit"`` of a
        pricing step; ``None`` when none did.
    """

    def __init__(
        self,
        nu: float = 0.4,
        tol: float = 1e-3,
        max_iter: int = 500,
        max_size: int | None = None,
        min_support: int | float = 1,
        n_jobs: int | None = None,
        max_nodes: int | None = None,
        time_limit: float | None = None,
        verbose: bool | int = 0,
        cache_bytes: int = _CACHE_BYTES,
    ) -> None:
        set_init_params(self, locals())

    def fit(self, X: Any, y: npt.ArrayLike) -> SubgraphLPBoost:
        """Column generation on graphs ``X`` with two-class labels ``y``."""
        ds, labels = self._graphs_and_signs(X, y)
        # the column generation runs here in Python, so its own parameters are checked here
        nu = as_real(self.nu, "nu")
        if not 0.0 < nu <= 1.0:
            raise InvalidParameterError(f"nu must be in (0, 1], got {self.nu!r}")
        tol = as_real(self.tol, "tol")
        if not (np.isfinite(tol) and tol > 0.0):
            raise InvalidParameterError(f"tol must be finite and > 0, got {self.tol!r}")
        max_iter = as_count(self.max_iter, "max_iter", 1)
        n = len(ds)
        cap = 1.0 / (nu * n)
        u = np.full(n, 1.0 / n)
        beta = -np.inf
        cols: list[tuple[np.ndarray, np.ndarray, float]] = []  # the stumps, unweighted
        # one searcher for the whole fit: its cache of the visited tree serves every pricing
        # step, so only the frontier a new weighting wants to enter is embedded again
        searcher = _rs.StumpSearcher(ds._db, self._stump_params(n), self._n_threads())
        verbose = reports(self.verbose)
        master = LPBoostMaster(labels, cap, verbose=verbose)
        self.n_visited_ = []
        alpha = np.zeros(0)
        converged = False
        objective = float("nan")
        cut = None
        for _ in range(max_iter):
            s = searcher.search(u, labels)
            self.n_visited_.append(int(s.visited))
            if s.truncation is not None:
                # an incomplete pricing step cannot certify optimality: stop with what we have
                cut = s.truncation
                break
            if s.code is None or s.gain <= beta + tol:
                converged = True
                break
            inside = np.zeros(n, dtype=bool)
            inside[s.graph_ids] = True
            cols.append((s.code, s.graph_ids, float(s.sign)))
            alpha, u, objective = master.add(s.sign * np.where(inside, 1.0, -1.0))
            beta = objective
            if verbose:
                print(
                    f"[graphsparse] SubgraphLPBoost: column {len(cols)}, LP objective "
                    f"{objective:.6g}, pricing gain {s.gain:.6g}, {s.visited} nodes",
                    file=sys.stderr,
                )
        self.objective_ = objective
        self._set_outcome(
            n_iter=len(cols),
            converged=converged,
            truncation=cut,
            unit="column",
            detail="the model is the last restricted LP's",
        )
        keep = [(c, i, s, float(a)) for (c, i, s), a in zip(cols, alpha, strict=True) if a > 1e-12]
        if not keep:
            raise InvalidParameterError("no subgraph stump found on this data")
        self._finish(ds, keep)
        return self
