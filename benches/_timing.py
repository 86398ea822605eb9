"""The timer the benchmarks share: the fastest of a few runs (the machine is shared)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any


def best_of(k: int, fn: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """``(seconds, result)``: the fastest of ``k`` calls ``fn(*args)``, and the last result."""
    best, out = math.inf, None
    for _ in range(k):
        t0 = time.perf_counter()
        out = fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best, out
