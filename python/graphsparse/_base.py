"""The one base class of graphsparse's estimators.

Every public estimator (the subgraph models, the recovery models, the rule ensembles, the
compressors and WL features, the online learners) derives from :class:`GraphSparseEstimator`,
which owns what they all repeat and nothing else:

* ``n_jobs`` resolved into Rust worker threads (:meth:`GraphSparseEstimator._n_threads`);
* a long Rust call run through the binding's cancellable runner with a progress reporter for
  ``verbose`` (:meth:`GraphSparseEstimator._run_rust`): the binding polls for Ctrl-C, cancels
  and awaits the work and raises ``KeyboardInterrupt``; the reporter is closed either way;
* the outcome of a solver, where it has one (:meth:`GraphSparseEstimator._set_outcome`):
  ``n_iter_``, ``converged_``, ``truncated_`` (bool), ``truncation_`` (the budget that stopped
  it, or ``None``) and the certificate ``dual_gap_``, with the one warning for a budget stop,
  :class:`~graphsparse.exceptions.TruncatedSearchWarning` (a
  :class:`~sklearn.exceptions.ConvergenceWarning`), issued by :func:`warn_budget_stop`;
* reading models pickled before ``duality_gap_`` was renamed ``dual_gap_``.

Each estimator's own logic (its data, its solver's parameters, its fitted model) stays in its
module.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, TypeVar

from sklearn.base import BaseEstimator

from ._progress import run_reported
from ._threads import resolve_n_jobs
from ._validation import caller_stacklevel
from .exceptions import TruncatedSearchWarning

__all__ = ["BUDGETS", "GraphSparseEstimator", "deprecated_alias", "warn_budget_stop"]

_T = TypeVar("_T")

#: The budgets that can stop a fit: iterations, search nodes, seconds (each named after the
#: parameter that sets it, which is also what ``truncation_`` holds).
BUDGETS = ("max_iter", "max_nodes", "time_limit")


def _count(n: int, unit: str) -> str:
    return f"{n} {unit}" if n == 1 else f"{n} {unit}s"


def warn_budget_stop(who: str, budget: str, value: Any, done: str, detail: str = "") -> None:
    """Issue the one warning of a budget stop, pointing at the user's call.

    The message reads ``"<who> stopped by its <budget> budget (<budget>=<value>) after <done>;
    <detail>"``, so it always names the budget (``max_iter``, ``max_nodes`` or ``time_limit``).
    """
    text = f"{who} stopped by its {budget} budget"
    if value is not None:
        text += f" ({budget}={value!r})"
    text += f" after {done}"
    if detail:
        text += f"; {detail}"
    warnings.warn(text, TruncatedSearchWarning, stacklevel=caller_stacklevel())


def deprecated_alias(old: str, new: str) -> property:
    """A read-only attribute ``old`` that returns ``new`` with a ``FutureWarning`` naming it.

    A property lives on the class, not in the instance's ``__dict__``: pickling, ``clone`` and
    ``get_params`` never see it.
    """

    def get(self: Any) -> Any:
        warnings.warn(
            f"{old} is deprecated and will be removed in the next release; use {new}",
            FutureWarning,
            stacklevel=2,
        )
        return getattr(self, new)

    return property(get, doc=f"Deprecated alias of ``{new}`` (read-only); use ``{new}``.")


class GraphSparseEstimator(BaseEstimator):
    """The base class of every public graphsparse estimator (see the module documentation)."""

    def _n_threads(self) -> int:
        """Rust worker threads for ``n_jobs`` (see :func:`graphsparse._threads.resolve_n_jobs`)."""
        return resolve_n_jobs(self.n_jobs)  # type: ignore[attr-defined]

    def _run_rust(
        self, call: Callable[..., _T], *args: Any, value_name: str = "objective", **kwargs: Any
    ) -> _T:
        """``call(*args, **kwargs, n_threads=..., progress=...)``: a long call of the binding.

        ``n_threads`` comes from ``n_jobs``; ``progress`` reports to standard error for
        ``verbose`` (``value_name`` labels the value the binding reports), under the
        estimator's class name. The binding's runner releases the GIL, polls for Ctrl-C (it
        then cancels the work, awaits it and raises ``KeyboardInterrupt``) and calls the
        reporter, which is closed afterwards whatever happens.
        """
        n_threads = self._n_threads()
        return run_reported(
            lambda progress: call(*args, **kwargs, n_threads=n_threads, progress=progress),
            getattr(self, "verbose", 0),
            type(self).__name__,
            value_name,
        )

    def _set_outcome(
        self,
        *,
        n_iter: int,
        converged: bool | None,
        truncation: str | None,
        dual_gap: float | None = None,
        iteration_budget: str | None = "max_iter",
        unit: str = "iteration",
        detail: str = "",
    ) -> None:
        """Set the common fitted attributes of a solver's outcome; warn when a budget stopped it.

        Parameters
        ----------
        n_iter
            Iterations (rounds, columns) done: ``n_iter_``.
        converged
            The solver's own verdict (``None``: the method has no notion of convergence, and
            ``converged_`` is not set).
        truncation
            The budget that cut the run, as the binding names it (``"max_nodes"``,
            ``"time_limit"``), or ``None``. ``"cancelled"`` (Ctrl-C) is not a budget: it raises
            ``KeyboardInterrupt``.
        dual_gap
            The certificate, when the solver has one: ``dual_gap_``.
        iteration_budget
            The budget that ended a run which stopped unconverged without a truncation (the
            parameter bounding the iterations); ``None`` when the iterations are no budget of
            the fit (the run then just reports ``converged_ = False``).
        unit, detail
            What ``n_iter`` counts (singular), and what the warning adds about the model kept.

        ``truncated_`` is ``True`` exactly when ``truncation_`` names a budget, and then
        ``converged_`` is ``False`` and a
        :class:`~graphsparse.exceptions.TruncatedSearchWarning` is issued.
        """
        if truncation == "cancelled":
            raise KeyboardInterrupt
        if truncation is None and converged is False:
            truncation = iteration_budget
        self.n_iter_ = int(n_iter)
        if converged is not None:
            self.converged_ = bool(converged) and truncation is None
        self.truncation_ = truncation
        self.truncated_ = truncation is not None
        if dual_gap is not None:
            self.dual_gap_ = float(dual_gap)
        if truncation is not None:
            warn_budget_stop(
                type(self).__name__,
                truncation,
                getattr(self, truncation, None),
                _count(self.n_iter_, unit),
                detail,
            )

    def __setstate__(self, state: dict[str, Any]) -> None:
        # a model pickled before the rename holds its certificate under the old name
        if "duality_gap_" in state:
            state = dict(state)
            state.setdefault("dual_gap_", state.pop("duality_gap_"))
        super().__setstate__(state)
