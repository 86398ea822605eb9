"""Progress reports of long Rust calls, for ``verbose=``.

The binding calls ``callback(nodes, iterations, stage, stages, value, seconds)`` every 100 ms
while a call runs and once when it ends (see ``graphsparse-base``'s ``Progress``). With
``verbose`` true this prints a line to standard error at most once a second, or drives a
``tqdm`` bar when tqdm is installed and ``verbose`` is ``"bar"``; with ``verbose`` false nothing
is printed and no callback is installed.
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Callable
from typing import Any, TextIO, TypeVar

import numpy as np

from ._validation import as_count
from .exceptions import InvalidParameterError

__all__ = ["Reporter", "reporter", "reports", "run_reported"]

Callback = Callable[[int, int, int, int, float, float], None]
_T = TypeVar("_T")


class Reporter:
    """Formats the counters of one call; see the module documentation."""

    def __init__(
        self, what: str, value_name: str = "objective", *, every: float = 1.0, bar: bool = False
    ) -> None:
        self.what = what
        self.value_name = value_name
        self.every = every
        self.stream: TextIO = sys.stderr
        self._last = -math.inf
        self._bar: Any = None
        if bar:
            try:
                from tqdm.auto import tqdm
            except ImportError:
                bar = False
            else:
                self._bar = tqdm(desc=what, unit=" nodes", file=self.stream)
        self._done = False

    def line(self, nodes: int, iterations: int, stage: int, stages: int, value: float) -> str:
        parts = [f"{nodes:,} nodes"]
        if iterations:
            parts.append(f"{iterations} iterations")
        if stages:
            parts.append(f"step {min(stage + 1, stages)}/{stages}")
        if not math.isnan(value):
            parts.append(f"{self.value_name} {value:.6g}")
        return ", ".join(parts)

    def __call__(
        self, nodes: int, iterations: int, stage: int, stages: int, value: float, seconds: float
    ) -> None:
        if self._bar is not None:
            self._bar.update(nodes - self._bar.n)
            self._bar.set_postfix_str(self.line(nodes, iterations, stage, stages, value))
            return
        if seconds - self._last < self.every:
            return
        self._last = seconds
        text = self.line(nodes, iterations, stage, stages, value)
        print(f"[graphsparse] {self.what}: {text} ({seconds:.1f} s)", file=self.stream)

    def close(self) -> None:
        """Ends the bar, if any (the binding's last call already showed the final counters)."""
        if self._bar is not None and not self._done:
            self._bar.close()
            self._done = True


def _level(verbose: Any) -> int | str:
    """``verbose`` as ``"bar"`` or a level ``>= 0`` (``True`` is 1); an integer goes through
    :func:`as_count` like every other integer argument."""
    if verbose is None:
        return 0
    if isinstance(verbose, bool | np.bool_):
        return int(verbose)
    if isinstance(verbose, str) and verbose == "bar":
        return verbose
    if isinstance(verbose, numbers.Integral):
        return as_count(verbose, "verbose")
    raise InvalidParameterError(f"verbose must be a bool, an int >= 0 or 'bar', got {verbose!r}")


def reports(verbose: Any) -> bool:
    """Whether ``verbose`` asks for any output (a bad value raises, naming ``verbose``)."""
    return _level(verbose) != 0


def reporter(verbose: Any, what: str, value_name: str = "objective") -> Reporter | None:
    """A :class:`Reporter` for ``verbose`` (``False``/``0``: none; ``True``/``1``/``2``: lines;
    ``"bar"``: a tqdm bar when tqdm is installed, else lines)."""
    level = _level(verbose)
    if level == 0:
        return None
    if level == "bar":
        return Reporter(what, value_name, bar=True)
    return Reporter(what, value_name, every=1.0 if level == 1 else 0.1)


def run_reported(
    work: Callable[[Reporter | None], _T], verbose: Any, what: str, value_name: str = "objective"
) -> _T:
    """``work(report)`` with the :func:`reporter` for ``verbose``, closed afterwards (also when
    the work is interrupted): the one way every long Rust call reports its progress."""
    report = reporter(verbose, what, value_name)
    try:
        return work(report)
    finally:
        if report is not None:
            report.close()
