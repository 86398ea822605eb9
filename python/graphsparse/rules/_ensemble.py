"""The rule-ensemble estimators: :class:`RuleEnsembleClassifier` (gHKL, gHKL-MT) and
:class:`RuleEnsembleRegressor`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from sklearn.base import ClassifierMixin, RegressorMixin, TransformerMixin, clone
from sklearn.utils import TransformerTags
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .. import _graphsparse as _rs
from .._base import GraphSparseEstimator, deprecated_alias
from .._optional import require
from .._validation import (
    as_count,
    as_optional_count,
    as_real,
    as_real_target,
    as_target,
    set_init_params,
)
from ..exceptions import InvalidParameterError
from ._rule import Condition, Rule
from ._table import (
    _CUT_RULES,
    _SUPERVISED_CUT_RULES,
    _encode,
    _explicit_cuts,
    _is_dataframe,
    _mdl_cuts,
    _Table,
    _tree_cuts,
)

# how the inner problems are solved (GhklParams::solver_form)
_SOLVER_FORMS = ("auto", "dual", "primal")

# what a path's fits share (set once by ``_fit_grid``)
_SHARED = (
    "categories_",
    "classes_",
    "feature_names_in_",
    "n_features_in_",
    "propositions_",
    "_feature_names",
    "_n_fit_rows",
    "_props",
    "_tasks",
)


class _RuleEnsemble(TransformerMixin, GraphSparseEstimator):
    """Shared code of the rule-ensemble estimators."""

    _loss = "hinge"
    duality_gap_ = deprecated_alias("duality_gap_", "dual_gap_")

    def __init__(
        self,
        rho: float = 1.5,
        C: float = 1.0,
        a: float = 2.0,
        *,
        categorical_features: Any = None,
        n_cuts: int = 4,
        cut_rule: str = "distinct_quantiles",
        cut_points: Any = None,
        tol: float = 1e-3,
        max_iter: int = 300,
        rule_threshold: float = 1e-3,
        max_nodes: int | None = 50_000,
        time_limit: float | None = None,
        kernel_cache_bytes: int = 64 << 20,
        solver_form: str = "auto",
        n_jobs: int | None = 1,
        verbose: bool | int | str = 0,
    ) -> None:
        set_init_params(self, locals())

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.transformer_tags = TransformerTags(preserves_dtype=[])
        return tags

    def get_feature_names_out(self, input_features: Any = None) -> npt.NDArray[np.object_]:
        """The output names of :meth:`transform`: each rule as text."""
        check_is_fitted(self, "rules_")
        return np.asarray([str(r) for r in self.rules_], dtype=object)

    # - hooks of the subclasses
    def _targets(self, y: Any, n: int) -> tuple[npt.NDArray[np.float64], int]:
        raise NotImplementedError

    def _mu(self) -> float | None:
        return None

    # - conversion
    def _columns(self, table: _Table, fitting: bool) -> list[Any]:
        cols: list[Any] = []
        if fitting:
            self.categories_: list[list[Any] | None] = []
        for j in range(len(table.names)):
            if table.categorical[j]:
                known = None if fitting else self.categories_[j]
                codes, cats = _encode(table.values[j], known)
                if fitting:
                    self.categories_.append(cats)
                cols.append((codes, len(cats)))
            else:
                if fitting:
                    self.categories_.append(None)
                cols.append(table.numeric(j))
        return cols

    def _table(self, X: Any, fitting: bool) -> _Table:
        if not _is_dataframe(X) and not sp.issparse(X):
            try:
                X = np.asarray(X)
            except (TypeError, ValueError) as err:
                raise InvalidParameterError(f"X cannot be converted to an array: {err}") from None
        if not _is_dataframe(X) and not sp.issparse(X) and X.ndim != 2:
            raise InvalidParameterError(
                f"X must be a 2-D array (n_samples, n_features), got shape {X.shape}. "
                "Reshape your data with X.reshape(-1, 1) for a single feature or "
                "X.reshape(1, -1) for a single sample."
            )
        try:
            validate_data(self, X, skip_check_array=True, reset=fitting)
        except ValueError as err:
            # the column count or names differ from fit's: the library's error, as everywhere
            raise InvalidParameterError(str(err)) from None
        table = _Table(X, self.categorical_features if fitting else None)
        if not fitting:
            table.categorical = [c is not None for c in self.categories_]
        if table.n_rows == 0:
            raise InvalidParameterError("X has no rows (0 samples)")
        if not table.names:
            raise InvalidParameterError(
                f"X has 0 feature(s) (shape=({table.n_rows}, 0)) while a minimum of 1 is required."
            )
        return table

    def _params(self, table: _Table | None = None) -> tuple[_rs.PropArgs, _rs.GhklArgs]:
        rules = _CUT_RULES + _SUPERVISED_CUT_RULES
        if self.cut_rule not in rules:
            raise InvalidParameterError(
                f"cut_rule must be one of {', '.join(map(repr, rules))}, got {self.cut_rule!r}"
            )
        prop: _rs.PropArgs = {
            "n_cuts": as_count(self.n_cuts, "n_cuts"),
            # a supervised rule places every numeric column's cuts itself (``_fit_grid``)
            "cut_rule": self.cut_rule if self.cut_rule in _CUT_RULES else _CUT_RULES[0],
            "not_equal": True,
        }
        if self.cut_points is not None and table is not None:
            prop["cut_points"] = _explicit_cuts(self.cut_points, table)
        if self.solver_form not in _SOLVER_FORMS:
            raise InvalidParameterError(
                f"solver_form must be one of {', '.join(map(repr, _SOLVER_FORMS))}, "
                f"got {self.solver_form!r}"
            )
        params: _rs.GhklArgs = {
            "rho": self.rho,
            "a": self.a,
            "loss": self._loss,
            "mu": self._mu(),
            "tol": self.tol,
            "max_iter": as_count(self.max_iter, "max_iter"),
            "rule_threshold": self.rule_threshold,
            "max_add": getattr(self, "_max_add", None),
            # a switch for benchmarks (the 1/sqrt(i) step schedule when False)
            "line_search": getattr(self, "_line_search", True),
            "kernel_cache_bytes": as_count(self.kernel_cache_bytes, "kernel_cache_bytes"),
            "max_nodes": as_optional_count(self.max_nodes, "max_nodes"),
            "time_limit": self.time_limit,
            "solver_form": self.solver_form,
        }
        return prop, params

    def _fit_grid(self, X: Any, y: Any, Cs: Sequence[float]) -> list[_rs.GhklFit]:
        table = self._table(X, fitting=True)
        cols = self._columns(table, fitting=True)
        target, tasks = self._targets(y, table.n_rows)
        grid = np.array([as_real(c, "C") for c in Cs], dtype=np.float64)
        prop, params = self._params(table)
        if self.cut_rule == "mdl" and self._loss != "hinge":
            raise InvalidParameterError(
                "cut_rule='mdl' places cuts at class boundaries and needs class labels; "
                "use cut_rule='tree' for a regressor"
            )
        if self.cut_rule in _SUPERVISED_CUT_RULES:
            if self._loss == "hinge":
                # the class index of each row (task-major one-vs-rest targets, or +-1)
                labels = (
                    (target > 0).astype(np.int64)
                    if tasks == 1
                    else (np.argmax(target.reshape(tasks, table.n_rows), axis=0))
                )
            else:
                labels = target
            explicit = prop.get("cut_points")
            if self.cut_rule == "mdl":
                placed = _mdl_cuts(table, labels, prop["n_cuts"], explicit)
            else:
                placed = _tree_cuts(table, labels, prop["n_cuts"], self._loss == "hinge", explicit)
            prop["cut_points"] = [
                e if e is not None else t
                for e, t in zip(explicit or [None] * len(placed), placed, strict=True)
            ]
        props, fits = self._run_rust(
            _rs.fit_rule_ensemble,
            cols,
            np.ascontiguousarray(target, dtype=np.float64),
            tasks,
            grid,
            prop,
            params,
        )
        self._feature_names = table.names
        self._n_fit_rows = table.n_rows
        self.propositions_ = [self._condition(p) for p in props]
        self._props = [(int(f), op, float(v)) for f, op, v in props]
        self._tasks = tasks
        return list(fits)

    def _condition(self, prop: tuple[int, str, Any]) -> Condition:
        f, op, v = prop
        cats = self.categories_[f]
        value = cats[int(v)] if cats is not None else float(v)
        return Condition(self._feature_names[f], op, value)

    def _set_fitted(self, fit: _rs.GhklFit) -> None:
        """The fitted attributes from one Rust fit, as plain NumPy and Python values."""
        self._rule_props = [np.asarray(r, dtype=np.uint32) for r in fit.rule_props]
        self.coef_ = np.asarray(fit.weights, dtype=np.float64).reshape(-1, self._tasks)
        self.intercept_ = -np.asarray(fit.bias, dtype=np.float64)
        support, strength = fit.support, fit.strength
        self.rules_ = [
            Rule(
                conditions=tuple(self.propositions_[int(q)] for q in r),
                weights=tuple(float(w) for w in self.coef_[k]),
                support=int(support[k]),
                strength=float(strength[k]),
            )
            for k, r in enumerate(self._rule_props)
        ]
        self.n_rules_ = len(self.rules_)
        self.primal_objective_ = float(fit.primal)
        self.dual_objective_ = float(fit.dual)
        self.active_set_size_ = int(fit.active_set_size)
        self.kernel_cache_peak_bytes_ = int(fit.cache_peak_bytes)
        # max_iter bounds each restricted solve, not the fit: only max_nodes and time_limit
        # stop the active-set method
        self._set_outcome(
            n_iter=fit.n_rounds,
            converged=fit.converged,
            truncation=fit.truncation,
            dual_gap=fit.dual_gap,
            iteration_budget=None,
            unit="active-set round",
            detail=f"gHKL kept {self.active_set_size_} lattice nodes; the rules are those of "
            f"the last restricted solve (dual_gap_ {fit.dual_gap:.3g})",
        )

    def fit(self, X: Any, y: npt.ArrayLike) -> _RuleEnsemble:
        """Fit the rule ensemble.

        Parameters
        ----------
        X : array-like or pandas.DataFrame of shape (n_samples, n_features)
            Training data; NaN / None are missing values.
        y : array-like of shape (n_samples,)
            Class labels (classifier) or real targets (regressor).

        Returns
        -------
        self
        """
        fits = self._fit_grid(X, y, [self.C])
        self._set_fitted(fits[0])
        return self

    def path(self, X: Any, y: npt.ArrayLike, Cs: Sequence[float]) -> list[Any]:
        """Fit one model per ``C`` in ``Cs``, each warm-started from the previous one.

        Much faster than separate fits (the lattice, the kernel cache and the dual variables
        are reused); an increasing grid is fastest. Budgets apply to the whole path.

        Parameters
        ----------
        X, y
            As in :meth:`fit`.
        Cs : sequence of float
            The values of ``C``, each > 0.

        Returns
        -------
        list of estimators
            Fitted copies of this estimator with ``C`` set to each value, in the order of
            ``Cs``.
        """
        if isinstance(Cs, str) or not isinstance(Cs, Sequence | np.ndarray) or len(Cs) == 0:
            raise InvalidParameterError(f"Cs must be a non-empty sequence of floats, got {Cs!r}")
        fits = self._fit_grid(X, y, list(Cs))
        out = []
        for c, fit in zip(Cs, fits, strict=True):
            est = clone(self).set_params(C=float(c))
            for k in _SHARED:
                if k in self.__dict__:
                    setattr(est, k, self.__dict__[k])
            est._set_fitted(fit)
            out.append(est)
        return out

    def _activations(self, X: Any) -> sp.csr_matrix:
        check_is_fitted(self, "rules_")
        table = self._table(X, fitting=False)
        cols = self._columns(table, fitting=False)
        kinds = [None if c is None else len(c) for c in self.categories_]
        indptr, indices = _rs.rule_activations(
            cols, kinds, self._props, [r.tolist() for r in self._rule_props]
        )
        data = np.ones(len(indices), dtype=np.float64)
        return sp.csr_matrix((data, indices, indptr), shape=(table.n_rows, len(self._rule_props)))

    def transform(self, X: Any) -> sp.csr_matrix:
        """The rule activations: ``A[i, r] = 1`` when rule ``rules_[r]`` fires on row ``i``.

        Parameters
        ----------
        X : array-like or pandas.DataFrame of shape (n_samples, n_features)

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_samples, ``n_rules_``)
        """
        return self._activations(X)

    def rules_frame(self) -> Any:
        """The rules as a table: one row per rule of ``rules_``, in that order.

        Needs pandas (an optional dependency, in the ``bench`` extra).

        Returns
        -------
        pandas.DataFrame
            Row ``r`` describes ``rules_[r]``, the rule of column ``r`` of :meth:`transform`,
            with the columns

            ``rule``
                The rule as text, its conditions on each feature merged into one interval or
                set (``0.2 < x0 <= 0.7``, ``colour not in {'red', 'blue'}``): ``str(rule)``.
            ``weight``
                Its weight (a binary classifier: positive favours ``classes_[1]``). With
                ``K > 2`` classes, one column ``weight_<class>`` per class instead (the
                weights of the one-vs-rest tasks, in the order of ``classes_``).
            ``support``
                The number of training rows where the rule fires.
            ``coverage``
                ``support`` as a fraction of the training rows, ``s``.
            ``length``
                The number of propositions in the conjunction (the degree that ``a^length``
                penalises); the text can read shorter, after merging.
            ``importance``
                ``|w| * sqrt(s * (1 - s))`` for the weight ``w``, as in RuleFit (Friedman &
                Popescu, 2008): the standard deviation of the rule's term ``w * [rule fires]``
                over the training rows. With ``K > 2`` classes ``w`` is the vector of the
                class weights and ``|w|`` its Euclidean norm (``Rule.strength``), and the
                columns ``importance_<class>`` give ``|w_k| * sqrt(s * (1 - s))`` per class.

        Raises
        ------
        ImportError
            When pandas is not installed; the message says how to install it.

        Examples
        --------
        >>> import numpy as np
        >>> from graphsparse.rules import RuleEnsembleRegressor
        >>> X = np.arange(10.0).reshape(-1, 1)
        >>> y = np.where((X[:, 0] > 2) & (X[:, 0] <= 6), 1.0, 0.0)
        >>> model = RuleEnsembleRegressor(C=100.0, cut_points={0: [2.0, 6.0]}).fit(X, y)
        >>> table = model.rules_frame()
        >>> list(table.columns)
        ['rule', 'weight', 'support', 'coverage', 'length', 'importance']
        >>> r = int(table["length"].idxmax())         # the one rule of two propositions
        >>> print(table["rule"][r], "|", " AND ".join(map(str, model.rules_[r].conditions)))
        2 < x0 <= 6 | x0 > 2 AND x0 <= 6
        """
        check_is_fitted(self, "rules_")
        pd = require("pandas", "bench", "rules_frame()")
        coverage = np.asarray([r.support for r in self.rules_], dtype=np.float64) / max(
            self._n_fit_rows, 1
        )
        spread = np.sqrt(coverage * (1.0 - coverage))
        weights = np.asarray(self.coef_, dtype=np.float64)  # (n_rules_, n_tasks)
        columns: dict[str, Any] = {"rule": np.asarray([str(r) for r in self.rules_], dtype=object)}
        names = self._task_names()
        if names is None:
            columns["weight"] = weights[:, 0]
        else:
            for k, name in enumerate(names):
                columns[f"weight_{name}"] = weights[:, k]
        columns["support"] = np.asarray([r.support for r in self.rules_], dtype=np.int64)
        columns["coverage"] = coverage
        columns["length"] = np.asarray([r.length for r in self.rules_], dtype=np.int64)
        columns["importance"] = np.linalg.norm(weights, axis=1) * spread
        if names is not None:
            for k, name in enumerate(names):
                columns[f"importance_{name}"] = np.abs(weights[:, k]) * spread
        return pd.DataFrame(columns)

    def _task_names(self) -> list[str] | None:
        """The names of the tasks of a multi-task model (``None``: a single task)."""
        return None

    def _scores(self, X: Any) -> npt.NDArray[np.float64]:
        A = self._activations(X)
        return np.asarray(A @ self.coef_) + self.intercept_


_PARAMS_DOC = """
    Parameters
    ----------
    rho : float, default=1.5
        ``rho`` in (1, 2] of the l1/l_rho regulariser: smaller values give fewer, shorter
        rules (``2`` is HKL).
    C : float, default=1.0
        Loss weight (> 0); larger values fit the training data more closely.
    a : float, default=2.0
        ``a > 1`` in the rule weights ``d_v = a^|v|``: larger values penalise long rules more.
    categorical_features : list of str or int, boolean mask, optional
        Columns to treat as categorical besides the object, category and bool columns of a
        DataFrame (or the string / object columns of a NumPy array).
    n_cuts : int, default=4
        Cut points per numeric column (each gives ``x <= t`` and ``x > t``).
    cut_rule : {"distinct_quantiles", "quantiles", "equal_width", "tree", "mdl"}, \
default="distinct_quantiles"
        Where the cut points lie: quantiles of the distinct values (the paper's rule), of
        all values, equally spaced, or, supervised, (``"tree"``) the split points of one
        greedy CART tree grown on the numeric columns against ``y`` (at most ``n_cuts`` per
        column, those with the largest impurity decrease; a column the tree never splits
        gives no proposition) or (``"mdl"``, classifier only) each column's own class
        boundaries by Fayyad and Irani's entropy discretisation with its minimum description
        length stopping test (at most ``n_cuts`` per column; a column whose classes do not
        change enough gives no proposition). Quantile cuts rarely fall where the classes
        change, so a rule such as ``x > 0.3`` is only approximated; supervised cuts put a
        threshold there, and with far fewer propositions the lattice, and the fit, are much
        smaller. See the rules guide for when to prefer which.
    cut_points : dict, optional
        Explicit thresholds for some numeric columns, ``{column name or index: [t, ...]}``
        (an empty list: no proposition from that column); the others follow ``cut_rule``.
        For example cut points computed once on a whole table, as the paper does.
    tol : float, default=1e-3
        Relative tolerance of the active-set method: the active set is complete when no
        rule outside it violates the optimality condition (15) by more than ``tol`` times
        ``max(1, |g|)``, and a complete active set whose certified gap is above that is
        solved again more tightly (up to three times, while the gap keeps halving). The
        mirror-descent steps are Armijo-backtracked; when the re-solves still end above
        ``tol`` (rare, at large ``C`` on noisy data; a few times ``tol`` at most in the runs
        measured), ``converged_`` is ``False`` and ``dual_gap_`` is the certificate to read.
    max_iter : int, default=300
        Most mirror-descent iterations per restricted problem.
    rule_threshold : float, default=1e-3
        Rules weaker than ``rule_threshold`` times the strongest are dropped.
    max_nodes : int or None, default=50_000
        Budget of lattice nodes added to the active set (``None``: no limit). On noisy data
        with many numeric columns the optimality condition can pull in hundreds of
        thousands of nodes (minutes, and gigabytes: about 10 KB per node); the default
        bounds a fit to well under a gigabyte. A fit that hits it (or
        ``time_limit``) keeps what it has, sets ``truncated_`` and issues a
        :class:`~graphsparse.exceptions.TruncatedSearchWarning`; ``dual_gap_`` says how far
        from optimal it stopped.
    time_limit : float, optional
        Budget of seconds for a fit (for :meth:`path`, for the whole path). Every phase polls
        it, the dense kernel builds and ridge solves included; a fit it stops then takes at
        most a twentieth of the limit more (0.2–1 s) to certify what it has, and reports
        ``dual_gap_`` NaN when that does not finish. A fit stopped before the first step of
        the solve that follows a growth of the active set returns the solve before it.
    kernel_cache_bytes : int, default=64 MiB
        Byte budget of the lattice kernel cache (never exceeded; 0 recomputes every kernel).
    solver_form : {"auto", "dual", "primal"}, default="auto"
        How the inner SVM (classifier) or ridge (regressor) problems are solved. Every
        rule's kernel is rank one, so the problem is also a linear model over the rules'
        0/1 indicator columns. ``"dual"`` builds the dense ``m x m`` kernel of the ``m``
        training rows (identical rows merged, classifier only; ``8 m^2`` bytes), fastest
        for small tables; ``"primal"`` works on the sparse indicator columns, ``O(nnz)`` per
        pass, with no ``m x m`` matrix (dual coordinate descent for the SVM; for the ridge a
        Cholesky of the normal equations over the ``r`` distinct rule covers up to 512 of
        them, matrix-free conjugate gradients above, so memory stays ``O(nnz)`` rather than
        ``16 r^2`` bytes). ``"auto"`` takes the dual form
        up to 2,000 rows and the primal form above. Both reach the same optimum within the
        certified ``dual_gap_``. The classifier with ``mu`` set always uses the dual form
        under ``"auto"`` and refuses ``"primal"``.
    n_jobs : int, optional, default=1
        Rust worker threads scoring candidate rules (``None``: all cores). Results do not
        depend on it.
    verbose : bool, int or "bar", default=0
        Report progress (active-set rounds, the duality gap) while fitting.

    Attributes
    ----------
    rules_ : list of Rule
        The rules, strongest first; ``str(rule)`` reads like ``0.2 < petal_width <= 0.8 AND
        colour == 'red'`` (one condition per feature: see ``Rule.merged_conditions``); each
        has ``weight(s)``, ``support`` and ``length``. :meth:`rules_frame` lists them as a
        pandas DataFrame.
    n_rules_ : int
    coef_ : ndarray of shape (``n_rules_``, n_tasks)
        Rule weights (one column per task).
    intercept_ : ndarray of shape (n_tasks,)
    propositions_ : list of Condition
        The basic propositions the rules are built from.
    categories_ : list
        Per column, the sorted categories seen in training (``None`` for numeric columns).
    dual_gap_ : float
        Certified gap between the primal objective of the fitted model and a dual lower
        bound over the *whole* lattice (scikit-learn's name, as in ``Lasso``;
        ``duality_gap_`` is a deprecated alias).
    primal_objective_, dual_objective_ : float
    converged_ : bool
        Whether the optimality condition (15) holds for the final active set (no rule is
        missing from it) with no budget cut, and the certified gap ``dual_gap_`` is within
        ``tol`` times ``max(1, |g|)`` (``g`` the restricted dual value).
    truncated_ : bool
        Whether a budget stopped the fit.
    truncation_ : str or None
        Which budget: ``"max_nodes"`` or ``"time_limit"``; ``None`` when none did.
    n_iter_ : int
        Active-set rounds.
    active_set_size_ : int
        Lattice nodes visited (the active set, with the empty rule).
    kernel_cache_peak_bytes_ : int
        Most bytes the kernel cache held.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Column names of a DataFrame ``X``.
"""


class RuleEnsembleClassifier(ClassifierMixin, _RuleEnsemble):
    __doc__ = (
        """Rule-ensemble classifier by gHKL (two classes) or gHKL-MT (more classes).

    Hinge loss. With ``K > 2`` classes, ``K`` one-vs-rest tasks share one conjunction lattice
    (gHKL-MT, ``B = I``; ``mu`` couples them by ``B = I + 11^T / mu``) and ``predict`` takes
    the class with the largest score. A rule counts once however many tasks use it.
    """
        + _PARAMS_DOC.replace(
            "    tol : float",
            """    mu : float, optional
        Multiclass only: couple the tasks by penalising the mean of their rule weights with
        ``mu`` (``None``: independent tasks, the paper's choice).
    tol : float""",
        )
        + """
    classes_ : ndarray
        The class labels (any type); ``classes_[1]`` is the positive class of a binary model.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsparse.rules import RuleEnsembleClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(size=(200, 3))
    >>> y = np.where((X[:, 0] > 0.5) & (X[:, 1] > 0.3), "yes", "no")
    >>> model = RuleEnsembleClassifier(C=10.0).fit(X, y)
    >>> bool(model.score(X, y) > 0.9)
    True
    """
    )

    def __init__(
        self,
        rho: float = 1.5,
        C: float = 1.0,
        a: float = 2.0,
        *,
        mu: float | None = None,
        categorical_features: Any = None,
        n_cuts: int = 4,
        cut_rule: str = "distinct_quantiles",
        cut_points: Any = None,
        tol: float = 1e-3,
        max_iter: int = 300,
        rule_threshold: float = 1e-3,
        max_nodes: int | None = 50_000,
        time_limit: float | None = None,
        kernel_cache_bytes: int = 64 << 20,
        solver_form: str = "auto",
        n_jobs: int | None = 1,
        verbose: bool | int | str = 0,
    ) -> None:
        set_init_params(self, locals())

    _loss = "hinge"

    def _mu(self) -> float | None:
        return None if self.mu is None else as_real(self.mu, "mu")

    def _targets(self, y: Any, n: int) -> tuple[npt.NDArray[np.float64], int]:
        arr = as_target(y, n, type(self).__name__)
        if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
            raise InvalidParameterError("y contains NaN or infinite values")
        check_classification_targets(arr)
        try:
            self.classes_ = np.unique(arr)
        except TypeError as err:
            raise InvalidParameterError(f"y labels cannot be ordered: {err}") from None
        k = len(self.classes_)
        if k < 2:
            raise InvalidParameterError(
                f"y has only one class ({self.classes_[0]!r}); a classifier needs two or more"
            )
        if k == 2:
            return np.where(arr == self.classes_[1], 1.0, -1.0), 1
        return np.concatenate([np.where(arr == c, 1.0, -1.0) for c in self.classes_]), k

    def _task_names(self) -> list[str] | None:
        return None if len(self.classes_) == 2 else [str(c) for c in self.classes_]

    def decision_function(self, X: Any) -> npt.NDArray[np.float64]:
        """Scores: ``(n_samples,)`` for two classes (positive: ``classes_[1]``), else
        ``(n_samples, n_classes)``."""
        f = self._scores(X)
        return f[:, 0] if f.shape[1] == 1 else f

    def predict(self, X: Any) -> np.ndarray:
        """The predicted class of each row."""
        f = self._scores(X)
        if f.shape[1] == 1:
            return self.classes_[(f[:, 0] > 0).astype(int)]
        return self.classes_[np.argmax(f, axis=1)]


class RuleEnsembleRegressor(RegressorMixin, _RuleEnsemble):
    __doc__ = (
        """Rule-ensemble regressor by gHKL with the squared loss ``(y - F(x))^2 / 2``.
    """
        + _PARAMS_DOC
        + """
    Examples
    --------
    >>> import numpy as np
    >>> from graphsparse.rules import RuleEnsembleRegressor
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(size=(200, 2))
    >>> y = 3.0 * (X[:, 0] > 0.5) + rng.normal(scale=0.1, size=200)
    >>> model = RuleEnsembleRegressor(C=10.0, n_cuts=9).fit(X, y)
    >>> bool(model.score(X, y) > 0.9)
    True
    """
    )

    _loss = "squared"

    def _targets(self, y: Any, n: int) -> tuple[npt.NDArray[np.float64], int]:
        return as_real_target(y, n, type(self).__name__), 1

    def predict(self, X: Any) -> npt.NDArray[np.float64]:
        """The predicted target of each row."""
        return self._scores(X)[:, 0]
