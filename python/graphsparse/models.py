"""Sparse linear models over all subgraph features (Takigawa & Mamitsuka), and boosting baselines.

Every connected subgraph ``x`` of the training graphs is a 0/1 feature ``I(x ⊆ g)``. The models
search the gSpan enumeration tree for the few features they need instead of building the (huge)
design matrix:

* :class:`SubgraphLogisticRegression`, :class:`SubgraphLinearRegression` — L1 / elastic-net
  models fitted by block coordinate gradient descent with the Theorem 11 pruning (the paper's
  Figure 7), ``mean_i L(y_i, mu_i) + lambda1 ||b||_1 + lambda2/2 ||b||^2``. The loss is the *mean*
  over samples, as in glmnet, so the paper's ``lambda1`` grid (0.004-0.010 on CPDB) applies.
* :func:`lambda1_path` — a warm-started regularisation path sharing one tree cache.

Beyond the paper, the visited part of the enumeration tree (each node's graph ids and children)
is cached between iterations, so a search re-evaluates known nodes without re-embedding them and
runs gSpan only below the frontier nodes it needs to enter.
* :class:`SubgraphAdaBoost` (Kudo et al. 2005) and :class:`SubgraphLPBoost` (gBoost, Saigo et al.
  2009) — decision stumps ``s (2 I(x ⊆ g) - 1)`` found by branch and bound.

All estimators follow scikit-learn: ``fit(X, y)`` with ``X`` a :class:`~graphsparse.GraphDataset`
or a list of ``networkx`` graphs, ``predict`` on new graphs through subgraph-isomorphism tests of
the selected patterns (in Rust, parallel over graphs), and fitted state made only of NumPy
arrays, Python scalars and :class:`~graphsparse.Pattern` objects (they pickle).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from sklearn.base import ClassifierMixin, RegressorMixin, clone
from sklearn.utils.validation import check_is_fitted

from . import _graphsparse as _rs
from ._base import GraphSparseEstimator, deprecated_alias
from ._dataset import GraphDataset, as_dataset
from ._lpboost import LPBoostMaster
from ._progress import reports
from ._validation import (
    as_count,
    as_optional_count,
    as_real,
    as_real_target,
    encode_binary,
    min_support_count,
    set_init_params,
)
from .exceptions import InvalidParameterError
from .mining import Pattern

#: Default byte budget of the stored embeddings of a cached search (``cache_bytes``): 256 MiB.
_CACHE_BYTES = 256 * 2**20

__all__ = [
    "SubgraphAdaBoost",
    "SubgraphLPBoost",
    "SubgraphLinearRegression",
    "SubgraphLogisticRegression",
    "lambda1_path",
]


# -- helpers --------------------------------------------------------------------------------------
def _dataset(X: Any) -> GraphDataset:
    ds = as_dataset(X, "X")
    if len(ds) == 0:
        raise InvalidParameterError("X contains no graphs")
    return ds


def _binary_response(est: Any, y: Any, n: int) -> np.ndarray:
    est.classes_, target = encode_binary(y, n, type(est).__name__)
    return target


def _codes_for(patterns: Sequence[Pattern], ds: GraphDataset) -> list[np.ndarray | None]:
    """Each pattern's DFS code in ``ds``'s label ids (``None`` when a label does not occur)."""
    vmap = {v: k for k, v in enumerate(ds.vertex_label_values)}
    emap = {v: k for k, v in enumerate(ds.edge_label_values)}
    out: list[np.ndarray | None] = []
    for p in patterns:
        try:
            rows = [(i, j, vmap[li], emap[lij], vmap[lj]) for i, j, li, lij, lj in p.dfs_code]
        except KeyError:
            out.append(None)
            continue
        out.append(np.asarray(rows, dtype=np.int64).reshape(-1, 5))
    return out


def _occurrences(patterns: Sequence[Pattern], ds: GraphDataset, n_threads: int) -> list[np.ndarray]:
    """For each pattern, the ids of the graphs of ``ds`` that contain it."""
    codes = _codes_for(patterns, ds)
    present = [c for c in codes if c is not None]
    found = iter(_rs.match_subgraph_patterns(ds._db, present, n_threads) if present else [])
    empty = np.zeros(0, dtype=np.int64)
    return [empty if c is None else next(found) for c in codes]


def _pattern(code: np.ndarray, ids: np.ndarray, ds: GraphDataset) -> Pattern:
    vl, el = ds.vertex_label_values, ds.edge_label_values
    rows = code.tolist()
    dfs = tuple((i, j, vl[li], el[lij], vl[lj]) for i, j, li, lij, lj in rows)
    labels: list[Any] = [None] * (1 + max(max(i, j) for i, j, *_ in rows))
    for i, j, li, _, lj in rows:
        labels[i], labels[j] = vl[li], vl[lj]
    return Pattern(dfs, len(ids), np.asarray(ids, dtype=np.int64), tuple(labels))


def _linear_decision(
    patterns: Sequence[Pattern], coef: np.ndarray, intercept: float, X: Any, n_threads: int
) -> np.ndarray:
    ds = _dataset(X)
    mu = np.full(len(ds), float(intercept))
    for ids, c in zip(_occurrences(patterns, ds, n_threads), coef, strict=True):
        mu[ids] += c
    return mu


class _SignClassifier(ClassifierMixin):
    """``predict`` of a binary model: ``classes_[1]`` where the decision function is > 0."""

    classes_: np.ndarray
    decision_function: Callable[[Any], np.ndarray]  # the model's, further along the MRO

    def predict(self, X: Any) -> np.ndarray:
        """Predicted class labels."""
        positive = self.decision_function(X) > 0  # first: it raises NotFittedError
        return self.classes_[positive.astype(np.intp)]


# -- BCGD models ----------------------------------------------------------------------------------
class _SubgraphBCGD(GraphSparseEstimator):
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
    ) -> tuple[GraphDataset, list[dict[str, Any]]]:
        ds = _dataset(X)
        target = np.ascontiguousarray(self._target(y, len(ds)), dtype=np.float64)
        grid = np.array([as_real(v, "lambda1") for v in lambdas], dtype=np.float64)
        params = {
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

    def _set_fitted(self, ds: GraphDataset, d: dict[str, Any]) -> None:
        self.coef_ = np.asarray(d["coef"], dtype=np.float64)
        self.intercept_ = float(d["intercept"])
        self.patterns_ = [
            _pattern(c, ids, ds) for c, ids in zip(d["codes"], d["graph_ids"], strict=True)
        ]
        self.equivalent_patterns_ = [
            [_pattern(c, ids, ds) for c in eq]
            for eq, ids in zip(d["equivalents"], d["graph_ids"], strict=True)
        ]
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
                d["objective"],
                d["nonzeros"],
                d["visited"],
                d["skipped"],
                d["pruned_bound"],
                d["pruned_spp"],
                d["duality_gap"],
                d["seconds"],
                strict=True,
            )
        ]
        self.lambda_max_ = None if d["lambda_max"] is None else float(d["lambda_max"])
        self.search_stats_ = {
            "visited": int(d["total_visited"]),
            "pruned_bound": int(d["total_pruned_bound"]),
            "pruned_spp": int(d["total_pruned_spp"]),
            "path_searches": int(d["path_searches"]),
        }
        self._set_outcome(
            n_iter=d["n_iter"],
            converged=d["converged"],
            truncation=d["truncated"],
            dual_gap=d["gap"],
            detail=f"the model is the last complete iterate (tol={self.tol}, "
            f"dual_gap_ {float(d['gap']):.3g})",
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
        ``lambda1`` (its searches are counted in ``search_stats_``). The optimum is the same
        either way; ``False`` gives the paper's plain BCGD iterates.
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
        Per search: ``objective``, ``nonzeros``, ``visited`` (tree nodes), ``skipped``
        (visited nodes whose occurrence set was already seen), ``pruned_bound`` and
        ``pruned_spp`` (nodes pruned by Theorem 11 and by safe pattern pruning; a node where
        both hold counts for both), ``duality_gap`` (at the iterate searched), ``seconds``.
        The last entry is the final convergence check when the fit converged.
    dual_gap_ : float
        ``P - D >= 0`` of the fitted model, a bound on its suboptimality in the objective
        (scikit-learn's name, as in ``Lasso``); ``inf`` when a node or time budget stopped the
        fit before its final iterate was searched. ``duality_gap_`` is a deprecated alias.
    search_stats_ : dict
        Totals over the fit, the internal screening path included: ``visited``,
        ``pruned_bound``, ``pruned_spp`` and ``path_searches`` (searches before the fit).
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
    for lam, d in zip(grid, fits, strict=False):
        m = clone(template).set_params(lambda1=float(lam))
        if isinstance(m, SubgraphLogisticRegression):
            m.classes_ = template.classes_
        m._set_fitted(ds, d)
        out.append(m)
    return out


# -- boosting -------------------------------------------------------------------------------------
class _StumpEnsemble(_SignClassifier, GraphSparseEstimator):
    """Shared code of the boosting classifiers: an ensemble of ``s (2 I(x ⊆ g) - 1)`` stumps."""

    def _stump_params(self, n_graphs: int) -> dict[str, Any]:
        return {
            "min_support": min_support_count(self.min_support, n_graphs),
            "max_size": as_optional_count(self.max_size, "max_size"),
            "max_nodes": as_optional_count(self.max_nodes, "max_nodes"),
            "time_limit": self.time_limit,
            "prune": True,
            "cache_bytes": as_count(self.cache_bytes, "cache_bytes"),
        }

    def _finish(self, ds: GraphDataset, stumps: list[tuple[dict[str, Any], float]]) -> None:
        """Merge stumps into ``coef_``/``intercept_`` over distinct patterns."""
        index: dict[bytes, int] = {}
        codes: list[np.ndarray] = []
        ids: list[np.ndarray] = []
        coef: list[float] = []
        intercept = 0.0
        self.estimators_ = []
        for s, weight in stumps:
            key = np.asarray(s["code"]).tobytes()
            if key not in index:
                index[key] = len(codes)
                codes.append(s["code"])
                ids.append(s["graph_ids"])
                coef.append(0.0)
            coef[index[key]] += 2.0 * weight * s["sign"]
            intercept -= weight * s["sign"]
            self.estimators_.append(
                (_pattern(s["code"], s["graph_ids"], ds), float(s["sign"]), weight)
            )
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
        params = {**self._stump_params(len(ds)), "n_estimators": rounds}
        d = self._run_rust(
            _rs.fit_subgraph_adaboost,
            ds._db,
            np.ascontiguousarray(labels, dtype=np.float64),
            params,
        )
        self.n_visited_ = [int(v) for v in d["visited"]]
        stumps = [
            ({"code": c, "graph_ids": i, "sign": float(s)}, float(a))
            for c, i, s, a in zip(d["codes"], d["graph_ids"], d["signs"], d["weights"], strict=True)
        ]
        # boosting has no convergence test: n_estimators is the model's size, not a budget
        self._set_outcome(
            n_iter=len(stumps),
            converged=None,
            truncation=d["truncated"],
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
        cols: list[dict[str, Any]] = []
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
            self.n_visited_.append(int(s["visited"]))
            if s["truncated"] is not None:
                # an incomplete pricing step cannot certify optimality: stop with what we have
                cut = s["truncated"]
                break
            if s["code"] is None or s["gain"] <= beta + tol:
                converged = True
                break
            inside = np.zeros(n, dtype=bool)
            inside[s["graph_ids"]] = True
            cols.append(s)
            alpha, u, objective = master.add(s["sign"] * np.where(inside, 1.0, -1.0))
            beta = objective
            if verbose:
                print(
                    f"[graphsparse] SubgraphLPBoost: column {len(cols)}, LP objective "
                    f"{objective:.6g}, pricing gain {s['gain']:.6g}, {s['visited']} nodes",
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
        keep = [(c, float(a)) for c, a in zip(cols, alpha, strict=True) if a > 1e-12]
        if not keep:
            raise InvalidParameterError("no subgraph stump found on this data")
        self._finish(ds, keep)
        return self
