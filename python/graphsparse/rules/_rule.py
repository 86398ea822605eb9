"""What a fitted rule ensemble is made of: each :class:`Rule` is a conjunction of conditions
(:class:`Condition`) with its weights."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Condition:
    """One basic proposition: ``feature op value``.

    Attributes
    ----------
    feature : str
        Column name (``x<j>`` for unnamed columns).
    op : {"<=", ">", "==", "!="}
    value : float or object
        The threshold (numeric columns) or the category.
    """

    feature: str
    op: str
    value: Any

    def __str__(self) -> str:
        if self.op in ("<=", ">"):
            return f"{self.feature} {self.op} {self.value:.6g}"
        return f"{self.feature} {self.op} {self.value!r}"

    def holds(self, x: Any) -> bool:
        """Whether the value ``x`` of this feature satisfies the condition (missing: never)."""
        if x is None or (isinstance(x, float) and np.isnan(x)):
            return False
        if self.op == "<=":
            return bool(x <= self.value)
        if self.op == ">":
            return bool(x > self.value)
        if self.op == "==":
            return bool(x == self.value)
        return bool(x != self.value)


@dataclass(frozen=True)
class Rule:
    """A fitted rule: a conjunction of conditions with its weight(s).

    Attributes
    ----------
    conditions : tuple of Condition
    weights : tuple of float
        One weight per task: for a binary classifier or a regressor a single weight (positive
        favours ``classes_[1]`` / larger targets); for ``K > 2`` classes one per class.
    support : int
        Number of training rows where the rule fires.
    strength : float
        ``||weights||_2``; rules are listed strongest first.
    """

    conditions: tuple[Condition, ...]
    weights: tuple[float, ...]
    support: int
    strength: float

    @property
    def weight(self) -> float:
        """The weight of a single-task model (binary classifier, regressor)."""
        if len(self.weights) != 1:
            raise AttributeError("a multiclass rule has one weight per class; use .weights")
        return self.weights[0]

    @property
    def length(self) -> int:
        """Number of conditions."""
        return len(self.conditions)

    def __str__(self) -> str:
        return " AND ".join(str(c) for c in self.conditions)
