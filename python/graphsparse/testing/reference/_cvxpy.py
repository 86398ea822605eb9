"""CVXPY for the references that state their problem as a cone program.

graphsparse does not depend on CVXPY (none of its extras installs it): a reference that needs it
imports it here and, when it is missing, says so and how to get it.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def cvxpy() -> ModuleType:
    """``cvxpy`` imported, or an :class:`ImportError` saying how to install it."""
    try:
        return importlib.import_module("cvxpy")
    except ImportError as exc:
        raise ImportError(
            "this reference needs cvxpy, which graphsparse does not depend on: pip install cvxpy"
        ) from exc
