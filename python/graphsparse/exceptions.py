"""The exceptions and warnings of graphsparse.

Every error raised for bad input is a :class:`ValueError`, so code written against
scikit-learn conventions keeps working; catch :class:`GraphSparseError` to catch them all.
One kind of bad input always raises the same type, whichever function received it:

==============================  ===================================================================
error                           raised for
==============================  ===================================================================
:class:`InvalidGraphError`      a malformed graph argument: an edge list of the wrong shape or
                                dtype, a negative or out-of-range endpoint, a self-loop or parallel
                                edge where none is allowed, bad or mixed labels, an unusable graph
                                object
:class:`GraphFormatError`       a file that cannot be parsed, or files of one dataset that disagree
                                (the message gives the file and line), or a molecule RDKit cannot
                                read (its index and RDKit's reason)
:class:`InvalidParameterError`  any other bad argument: a value out of range (NaN, negative
                                costs, ``lambda1 <= 0`` ...), the wrong type, the wrong shape
==============================  ===================================================================

:class:`InvalidGraphError` is itself an :class:`InvalidParameterError` (a graph is an argument),
so ``except InvalidParameterError`` catches both.

One warning reports every budget stop: :class:`TruncatedSearchWarning`, issued when a fit or a
search stops at its iteration limit (``max_iter``), its node budget (``max_nodes``) or its time
budget (``time_limit``) before it converged or finished; an estimator then sets ``truncated_``
and names the budget in ``truncation_``. It is a scikit-learn
:class:`~sklearn.exceptions.ConvergenceWarning`, so the filters written for scikit-learn catch
it. Ctrl-C is no budget: it raises ``KeyboardInterrupt``.

Two warnings report on molecules: :class:`MoleculeSkippedWarning` for those left out
(``on_error="skip"``), :class:`MoleculeRepairedWarning` for those kept after formal charges that
the input left out were restored (see :mod:`graphsparse.chem`). Each comes once per call.
"""

from __future__ import annotations

from sklearn.exceptions import ConvergenceWarning

__all__ = [
    "BudgetExceededError",
    "GraphFormatError",
    "GraphSparseError",
    "InvalidGraphError",
    "InvalidParameterError",
    "MoleculeRepairedWarning",
    "MoleculeSkippedWarning",
    "ThreadCountWarning",
    "TruncatedSearchWarning",
]


class GraphSparseError(Exception):
    """Base class of every error raised by graphsparse."""


class InvalidParameterError(GraphSparseError, ValueError):
    """An argument is out of range or of the wrong type; the message names the argument."""


class InvalidGraphError(InvalidParameterError):
    """A graph argument is malformed: bad edge list, endpoint out of range, self-loop, bad label."""


class GraphFormatError(GraphSparseError, ValueError):
    """A graph file cannot be parsed, or the files of one dataset disagree (with file and line)."""


class BudgetExceededError(GraphSparseError, RuntimeError):
    """A search budget (nodes, patterns, time) ran out and the caller asked for ``strict=True``."""


class TruncatedSearchWarning(ConvergenceWarning):
    """A fit or search stopped at a budget; the result holds what was finished.

    The one warning of a budget stop, whichever estimator or search it comes from: the
    iterations (``max_iter``), the search nodes (``max_nodes``) or the seconds
    (``time_limit``) ran out before the solver converged or the search finished. The message
    names the budget; a fitted estimator also says so in ``truncated_`` (``True``) and
    ``truncation_`` (the budget's name), with ``converged_`` ``False``. A subclass of
    scikit-learn's :class:`~sklearn.exceptions.ConvergenceWarning` (itself a ``UserWarning``),
    so ``warnings.simplefilter("ignore", ConvergenceWarning)`` silences it too.
    """


class ThreadCountWarning(RuntimeWarning):
    """More threads were requested than the machine offers; the pool was capped at its cores."""


class MoleculeSkippedWarning(UserWarning):
    """Molecules that could not be read were left out (``on_error="skip"``).

    Attributes
    ----------
    skipped : list of (int, str)
        The index of each molecule left out, with RDKit's reason.
    """

    def __init__(self, message: str, skipped: list[tuple[int, str]]) -> None:
        super().__init__(message)
        self.skipped = skipped


class MoleculeRepairedWarning(UserWarning):
    """Molecules were read after restoring formal charges the input left out (nitro groups
    written ``N(=O)O`` and the like; the rules are in :mod:`graphsparse.chem`).

    Attributes
    ----------
    repaired : list of (int, str)
        The index of each molecule repaired, with the groups charged and their atoms, e.g.
        ``(0, "nitro (N1+, O0-)")``.
    """

    def __init__(self, message: str, repaired: list[tuple[int, str]]) -> None:
        super().__init__(message)
        self.repaired = repaired
