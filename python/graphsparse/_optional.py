"""Optional dependencies: one place that imports them and says how to install the extra.

Every optional import of the package goes through :func:`require` (or, where a missing library
only changes the method, quotes :func:`install_hint`), so each message names the extra in
``pyproject.toml`` that provides it, in a form that works both from an index and from a checkout.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def install_hint(extra: str) -> str:
    """The pip commands that install ``extra``: from an index and from a checkout.

    Quoted because shells such as zsh expand the brackets; a bare ``graphsparse[chem]`` in a
    checkout would also fetch the package from the index instead of building the checkout.
    """
    return f'pip install "graphsparse[{extra}]" (from a checkout: pip install ".[{extra}]")'


def require(module: str, extra: str, feature: str) -> ModuleType:
    """``module`` imported, or an :class:`ImportError` whose message is :func:`install_hint`.

    ``feature`` says what needs it (``"graphsparse.plotting"``, ``"this function"``).
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        root = module.split(".")[0]
        raise ImportError(
            f"{feature} needs {root}, an optional dependency: {install_hint(extra)}"
        ) from exc
