"""RDKit, imported only when a function needs it, and its error log kept off standard error."""

from __future__ import annotations

import re
from typing import Any

from .._optional import require

_LOG_STAMP = re.compile(r"^\[\d\d:\d\d:\d\d\] (ERROR: )?")


def _rdkit() -> Any:
    """RDKit's ``Chem`` module, or an ImportError that says how to install it."""
    return require("rdkit.Chem", "chem", "this function")


class _Captured:
    """RDKit's error log while parsing one molecule, kept off standard error."""

    def __enter__(self) -> _Captured:
        from rdkit import rdBase

        self._block = rdBase.BlockLogs()
        capture = getattr(rdBase, "CaptureErrorLog", None)
        self._cap = capture() if capture is not None else None
        if self._cap is not None:
            self._cap.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._cap is not None:
            self._cap.__exit__(None, None, None)
        del self._block

    def reason(self, default: str) -> str:
        if self._cap is None:
            return default
        lines = [_LOG_STAMP.sub("", ln).strip() for ln in self._cap.messages.splitlines()]
        lines = [ln for ln in lines if ln]
        return "; ".join(dict.fromkeys(lines)) or default
