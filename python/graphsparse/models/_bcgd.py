"""Sparse subgraph regression by block coordinate gradient descent on the gSpan tree (Takigawa
& Mamitsuka): :class:`SubgraphLogisticRegression`, :class:`SubgraphLinearRegression` and their
warm-started ``lambda1`` path."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from sklearn.base import RegressorMixin, clone
from sklearn.utils.validation import check_is_fitted

from .. import _graphsparse as _rs
from .._base import GraphSparseEstimator, deprecated_alias
from .._dataset import GraphDataset
from .._validation import (
    as_count,
    as_optional_count,
    as_real,
    as_real_target,
    min_support_count,
    set_init_params,
)
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


class _SubgraphBCGD(_PatternFeatures, GraphSparseEstimator):
    """Shared fitting code of the BCGD models (``_loss`` is set by the subclasses)."""

    _loss = "logistic"
    duality_gap_ = deprecated_alias("duality_gap_", "dual_gap_")

    def __init__(
        self,
        lambda1: float = 0.01,
        lambda2: float = 0.0,
        max_size: int | None = None,
        min_support: int | float = 1,
        tol: float = 1e-3,
        max_iter: int = 1000,
        n_jobs: int | None = None,
        max_nodes: int | None = None,
        time_limit: float | None = None,
        screening: bool = True,
        verbose: bool | int | str = 0,
        cache_bytes: int = _CACHE_BYTES,
    ) -> None:
        set_init_params(self, locals())

    def _target(self, y: Any, n: int) -> np.ndarray:
        raise NotImplementedError

    def _run(
        self, X: Any, y: Any, lambdas: Sequence[float], record_trace: bool = False
    ) -> tuple[GraphDataset, list[_rs.BcgdFit]]:
        ds = _dataset(X)
        target = np.ascontiguousarray(self._target(y, len(ds)), dtype=np.float64)
        grid = np.array([as_real(v, "lambda1") for v in lambdas], dtype=np.float64)
        params: _rs.BcgdArgs = {
            "lambda2": self.lambda2,
            "tol": self.tol,
            "max_iter": as_count(self.max_iter, "max_iter"),
            "min_support": min_support_count(self.min_support, len(ds)),
            "max_size": as_optional_count(self.max_size, "max_size"),
            "max_nodes": as_optional_count(self.max_nodes, "max_nodes"),
            "time_limit": self.time_limit,
            "prune": True,
            "cache": True,
            "cache_bytes": as_count(self.cache_bytes, "cache_bytes"),
            "screening": bool(self.screening),
            "record_trace": record_trace,
        }
        fits = self._run_rust(_rs.fit_subgraph_bcgd, ds._db, target, self._loss, grid, params)
        return ds, fits

    def _set_fitted(self, ds: GraphDataset, fit: _rs.BcgdFit) -> None:
        """The fitted attributes from one Rust fit, as plain NumPy and Python values."""
        self.coef_ = np.asarray(fit.coef, dtype=np.float64)
        self.intercept_ = float(fit.intercept)
        graph_ids = fit.graph_ids
        self.patterns_ = [_pattern(c, ids, ds) for c, ids in zip(fit.codes, graph_ids, strict=True)]
        self.equivalent_patterns_ = [
            [_pattern(c, ids, ds) for c in eq]
            for eq, ids in zip(fit.equivalents, graph_ids, strict=True)
        ]
        h = fit.history
        self.history_ = [
            {
                "objective": float(o),
                "nonzeros": int(z),
                "visited": int(v),
                "skipped": int(s),
                "pruned_bound": int(pb),
                "pruned_spp": int(ps),
                "duality_gap": float(g),
                "seconds": float(t),
            }
            for o, z, v, s, pb, ps, g, t in zip(
                h.objective,
                h.nonzeros,
                h.visited,
                h.skipped,
                h.pruned_bound,
                h.pruned_spp,
                h.duality_gap,
                h.seconds,
                strict=True,
            )
        ]
        self.lambda_max_ = None if fit.lambda_max is None else float(fit.lambda_max)
        self.search_stats_ = {
            "visited": int(fit.total_visited),
            "pruned_bound": int(fit.total_pruned_bound),
            "pruned_spp": int(fit.total_pruned_spp),
            "path_searches": int(fit.path_searches),
            "full_searches": int(fit.full_searches),
        }
        self._set_outcome(
            n_iter=fit.n_iter,
            converged=fit.converged,
            truncation=fit.truncation,
            dual_gap=fit.dual_gap,
            detail=f"the model is the last complete iterate (tol={self.tol}, "
            f"dual_gap_ {fit.dual_gap:.3g})",
        )

    def fit(self, X: Any, y: npt.ArrayLike) -> _SubgraphBCGD:
        """Fit the model on graphs ``X`` with responses ``y``.

        Parameters
        ----------
        X : GraphDataset or sequence of networkx.Graph
            Training graphs (networkx graphs: ``"label"`` attributes, or none at all).
        y : array-like of shape (n_graphs,)
            Responses (two classes for the classifier, real values for the regressor).

        Returns
        -------
        self
        """
        ds, fits = self._run(X, y, [self.lambda1])
        self._set_fitted(ds, fits[0])
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """The linear predictor ``intercept_ + sum_j coef_[j] I(patterns_[j] ⊆ g)`` per graph."""
        check_is_fitted(self, "coef_")
        return _linear_decision(self.patterns_, self.coef_, self.intercept_, X, self._n_threads())

    @property
    def n_nonzero_(self) -> int:
        """Number of selected features (nonzero coefficients)."""
        check_is_fitted(self, "coef_")
        return len(self.coef_)


_PARAMS_DOC = """
    Parameters
    ----------
    lambda1 : float, default=0.01
        L1 weight (> 0) on the *mean* loss.
    lambda2 : float, default=0.0
        Ridge weight (>= 0): ``lambda2/2 ||b||^2``.
    max_size : int, optional
        Largest pattern size in edges (``None``: all subgraphs). What the default costs: with no
        size bound (and ``min_support=1``) only the pruning bounds end the search, which can go
        as deep as the largest training graph. On MUTAG (188 molecules, 2 shared cores) a fit
        with every default visits 6.3 million tree nodes in 6-12 s for the logistic loss and
        127 million in 40-55 s for the squared loss, against 66 thousand (0.02-0.05 s) and 192
        thousand (0.06-0.1 s) with ``max_size=5``. Bound the size (or set ``time_limit``) for
        quick fits, and ``verbose=1`` to watch a long one.
    min_support : int or float, default=1
        Least number (int) or fraction (float) of training graphs a pattern must occur in.
    tol : float, default=1e-3
        Stop when ``||H d||_inf <= tol`` (the paper's tolerance).
    max_iter : int, default=1000
        Most BCGD iterations; a :class:`~graphsparse.exceptions.TruncatedSearchWarning` (a
        :class:`~sklearn.exceptions.ConvergenceWarning`) says when hit.
    n_jobs : int, optional
        Rust worker threads (``None``: all cores, capped by ``GRAPHSPARSE_NUM_THREADS``) for
        the fit's searches and for matching patterns in new graphs. The fit keeps a cache of
        the visited tree between iterations (no re-embedding; only frontier nodes are
        expanded): the first search, which fills it, runs on these threads, later ones walk it
        on one (with the single-thread result either way). Use ``n_jobs=1`` inside a parallel
        ``GridSearchCV``.
    max_nodes : int, optional
        Budget of enumeration-tree nodes over the whole fit.
    time_limit : float, optional
        Budget of seconds for the whole fit. When a budget stops the fit, the model is the last
        complete iterate and a :class:`~graphsparse.exceptions.TruncatedSearchWarning` is issued.
    screening : bool, default=True
        Safe pattern pruning (Nakagawa et al., KDD 2016) on top of the Theorem 11 bound: a
        subtree is also pruned when the gap-safe sphere around a dual point proves every
        pattern in it zero at the optimum. Without a warm start the fit first finds
        ``lambda_max`` and runs an internal path ``lambda_max/2, lambda_max/4, ...`` down to
        ``lambda1`` (its searches are counted in ``search_stats_``). With screening the fit
        also uses working sets: between two searches of the whole tree it iterates over the
        selected features and the patterns a search found that would enter the model, with no
        tree search, until ``||H d||_inf <= tol`` over them; a search of the whole tree then
        certifies ``||H d||_inf <= tol`` over all patterns or adds the ones that violate it, so
        a few searches per fit replace one per iteration. The optimum and the stopping rule are
        the same either way; ``False`` gives the paper's plain BCGD iterates.
    verbose : bool, int or "bar", default=0
        Report nodes visited, iterations and the objective while fitting: ``0`` prints nothing,
        ``1`` a line on standard error every second (and one at the end), ``2`` every 0.1 s,
        ``"bar"`` a tqdm bar when tqdm is installed.
    cache_bytes : int, default=268435456 (256 MiB)
        Memory budget in bytes for embeddings of the cached tree (``0``: none kept): the
        ancestors of the frontier nodes a search expands are kept, least recently used dropped
        first, and a later expansion below one of them starts from its embeddings instead of
        re-embedding the path from the root. Changes the time, never the model.

    Attributes
    ----------
    coef_ : ndarray of shape (n_selected,)
        Nonzero coefficients, one per selected feature.
    intercept_ : float
    patterns_ : list of Pattern
        The selected features (representatives: smallest DFS code), aligned with ``coef_``.
    equivalent_patterns_ : list of list of Pattern
        Per selected feature, the other patterns met with exactly the same occurrences.
    n_iter_ : int
        Updates made.
    history_ : list of dict
        Per iteration: ``objective``, ``nonzeros``, ``visited`` (tree nodes), ``skipped``
        (visited nodes whose occurrence set was already seen), ``pruned_bound`` and
        ``pruned_spp`` (nodes pruned by Theorem 11 and by safe pattern pruning; a node where
        both hold counts for both), ``duality_gap`` (at the iterate searched), ``seconds``.
        An iteration over the working set (``screening=True``) searches no tree: its node
        counts are ``0`` and its ``duality_gap`` is ``inf``. The last entry is the final
        convergence check, a search of the whole tree, when the fit converged.
    dual_gap_ : float
        ``P - D >= 0`` of the fitted model, a bound on its suboptimality in the objective
        (scikit-learn's name, as in ``Lasso``); ``inf`` when a node or time budget stopped the
        fit before its final iterate was searched. ``duality_gap_`` is a deprecated alias.
    search_stats_ : dict
        Totals over the fit, the internal screening path included: ``visited``,
        ``pruned_bound``, ``pruned_spp``, ``path_searches`` (searches of the tree before the
        fit) and ``full_searches`` (searches of the whole tree, those before the fit and the
        ``lambda_max`` search included).
    lambda_max_ : float or None
        The smallest ``lambda1`` whose model has no feature, when the fit computed it (a fit
        from scratch with ``screening=True``; ``None`` for the warm fits of a path after the first).
    converged_ : bool
    truncated_ : bool
        Whether a budget stopped the fit (the model is then the last complete iterate, and a
        :class:`~graphsparse.exceptions.TruncatedSearchWarning` says so).
    truncation_ : str or None
        Which budget: ``"max_iter"``, ``"max_nodes"`` or ``"time_limit"``; ``None`` when none
        did.
"""


class SubgraphLogisticRegression(_SignClassifier, _SubgraphBCGD):
    __doc__ = (
        """L1 / elastic-net logistic regression over all subgraph indicators.

    Minimises ``mean_i log(1 + exp(-s_i mu_i)) + lambda1 ||b||_1 + lambda2/2 ||b||^2`` by BCGD on
    the gSpan tree (Takigawa & Mamitsuka, Figure 7). ``classes_[1]`` is the positive class.
    """
        + _PARAMS_DOC
        + """
    Examples
    --------
    >>> import graphsparse as gs
    >>> data = gs.datasets.make_subgraph_classification(n_samples=60, random_state=0)
    >>> model = gs.SubgraphLogisticRegression(lambda1=0.02, max_size=4).fit(data, data.y)
    >>> bool(model.score(data, data.y) > 0.5)
    True
    """
    )

    _loss = "logistic"

    def _target(self, y: Any, n: int) -> np.ndarray:
        return _binary_response(self, y, n)

    def predict_proba(self, X: Any) -> np.ndarray:
        """Class probabilities, shape ``(n_graphs, 2)`` in the order of ``classes_``."""
        mu = self.decision_function(X)
        p = 0.5 * (1.0 + np.tanh(0.5 * mu))  # the logistic function without overflow
        return np.column_stack([1.0 - p, p])


class SubgraphLinearRegression(RegressorMixin, _SubgraphBCGD):
    __doc__ = (
        """Lasso / elastic-net least squares over all subgraph indicators.

    Minimises ``mean_i (y_i - mu_i)^2 / 2 + lambda1 ||b||_1 + lambda2/2 ||b||^2`` (scikit-learn's
    ``Lasso`` with ``alpha = lambda1``; ``ElasticNet`` with ``alpha = lambda1 + lambda2``,
    ``l1_ratio = lambda1 / alpha``) by BCGD on the gSpan tree.
    """
        + _PARAMS_DOC
    )

    _loss = "squared"

    def _target(self, y: Any, n: int) -> np.ndarray:
        return as_real_target(y, n, type(self).__name__)

    def predict(self, X: Any) -> np.ndarray:
        """Predicted responses."""
        return self.decision_function(X)


def lambda1_path(
    estimator: SubgraphLogisticRegression | SubgraphLinearRegression,
    X: Any,
    y: npt.ArrayLike,
    lambdas: npt.ArrayLike,
) -> list[SubgraphLogisticRegression | SubgraphLinearRegression]:
    """Fit ``estimator`` along a ``lambda1`` grid with warm starts (continuation).

    Each model starts from the previous one's solution, so a decreasing grid is much cheaper
    than independent fits; every other parameter is taken from ``estimator``.

    Parameters
    ----------
    estimator : SubgraphLogisticRegression or SubgraphLinearRegression
        The template (not modified).
    X, y
        Training data, as for ``fit``.
    lambdas : array-like of float
        The grid, in the order to fit it (use a decreasing one).

    Returns
    -------
    list of fitted estimators
        One clone per ``lambda1``, with ``lambda1`` set. A budget stops the path early.
    """
    try:
        grid = np.asarray(lambdas, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        raise InvalidParameterError("lambdas must be an array of real numbers") from None
    template = clone(estimator)
    ds, fits = template._run(X, y, grid.tolist())
    out = []
    for lam, fit in zip(grid, fits, strict=False):
        m = clone(template).set_params(lambda1=float(lam))
        if isinstance(m, SubgraphLogisticRegression):
            m.classes_ = template.classes_
        m._set_fitted(ds, fit)
        out.append(m)
    return out
