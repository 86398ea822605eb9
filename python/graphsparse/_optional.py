"""Optional dependencies: one place that imports them and says how to install the extra."""

from __future__ import annotations

import importlib
from types import ModuleType


def require(module: str, extra: str, feature: str) -> ModuleType:
    """``module`` imported, or an :class:`ImportError` naming ``pip install graphsparse[extra]``.

    ``feature`` says what needs it (``"graphsparse.plotting"``, ``"this function"``).
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        root = module.split(".")[0]
        raise ImportError(
            f"{feature} needs {root}, an optional dependency: pip install graphsparse[{extra}]"
        ) from exc
