"""The exception hierarchy of graphsparse.

Every error raised for bad input is a subclass of :class:`ValueError`, so code written against
scikit-learn conventions keeps working; catch :class:`GraphSparseError` to catch them all.
"""

from __future__ import annotations

__all__ = [
    "BudgetExceededError",
    "GraphFormatError",
    "GraphSparseError",
    "InvalidGraphError",
    "InvalidParameterError",
]


class GraphSparseError(Exception):
    """Base class of every error raised by graphsparse."""


class InvalidGraphError(GraphSparseError, ValueError):
    """A graph is malformed: self-loop, parallel edge, out-of-range endpoint, bad label."""


class GraphFormatError(GraphSparseError, ValueError):
    """A graph file cannot be parsed, or the files of one dataset disagree (with file and line)."""


class InvalidParameterError(GraphSparseError, ValueError):
    """A parameter is out of range or of the wrong type; the message names the parameter."""


class BudgetExceededError(GraphSparseError, RuntimeError):
    """A search budget (nodes, patterns, time) ran out and the caller asked for ``strict=True``."""
