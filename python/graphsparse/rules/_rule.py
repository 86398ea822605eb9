"""What a fitted rule ensemble is made of: each :class:`Rule` is a conjunction of conditions
(:class:`Condition`) with its weights; :class:`MergedCondition` is a rule's conditions on one
feature read as one interval or set."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import InvalidParameterError


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


_NUMERIC_OPS = ("<=", ">")


@dataclass(frozen=True)
class MergedCondition:
    """All the conditions of a rule on one feature, merged into one interval or set.

    A numeric feature's ``x <= t`` and ``x > t`` become ``lower < x <= upper`` (``lower`` the
    largest ``> t`` threshold, ``upper`` the smallest ``<= t``; either may be absent); a
    categorical feature's ``x == v`` and ``x != w`` become ``x == v`` (a ``!=`` beside an
    ``==`` on another value adds nothing), ``x != w`` or ``x not in {w1, w2, ...}``. A missing
    value satisfies none, as it satisfies no :class:`Condition`. (A fitted model's
    :meth:`~graphsparse.rules.RuleEnsembleClassifier.transform` also fires no condition on a
    category it did not see in training; :meth:`holds`, like :meth:`Condition.holds`,
    compares values only.)

    A conjunction that no value satisfies (``x > 5`` and ``x <= 3``, or ``x == 'a'`` and
    ``x == 'b'``) cannot come out of a fit, whose rules all fire on some training row, but a
    hand-made :class:`Rule` may hold one: :attr:`is_empty` is then true, :meth:`holds` is
    false for every value and the text reads ``(never: <the conditions>)``.

    Attributes
    ----------
    feature : str
    conditions : tuple of Condition
        The conditions merged, as in the rule.
    lower, upper : float or None
        Numeric features: the bounds of ``lower < x <= upper`` (``None``: unbounded).
    values : tuple or None
        Categorical features: the single category ``x`` must equal (one value; empty when
        two ``==`` conditions contradict each other), or ``None`` when no ``==`` constrains it.
    excluded : tuple
        Categorical features without ``==``: the categories ``x`` must differ from.
    """

    feature: str
    conditions: tuple[Condition, ...]
    lower: float | None = None
    upper: float | None = None
    values: tuple[Any, ...] | None = None
    excluded: tuple[Any, ...] = ()

    @classmethod
    def merge(cls, conditions: tuple[Condition, ...]) -> MergedCondition:
        """Merge conditions on one feature, all numeric (``<=``, ``>``) or all categorical
        (``==``, ``!=``)."""
        conditions = tuple(conditions)
        if not conditions:
            raise InvalidParameterError("conditions: need at least one condition to merge")
        feature = conditions[0].feature
        if any(c.feature != feature for c in conditions):
            raise InvalidParameterError(
                "conditions must all be on one feature, got "
                f"{sorted({c.feature for c in conditions})}"
            )
        kinds = {c.op in _NUMERIC_OPS for c in conditions}
        if len(kinds) > 1:
            raise InvalidParameterError(
                f"conditions on {feature!r} mix numeric (<=, >) and categorical (==, !=) tests"
            )
        if kinds == {True}:
            lows = [float(c.value) for c in conditions if c.op == ">"]
            highs = [float(c.value) for c in conditions if c.op == "<="]
            return cls(
                feature,
                conditions,
                lower=max(lows) if lows else None,
                upper=min(highs) if highs else None,
            )
        equal: list[Any] = []
        for c in conditions:
            if c.op == "==" and c.value not in equal:
                equal.append(c.value)
        excluded: list[Any] = []
        for c in conditions:
            if c.op == "!=" and c.value not in excluded:
                excluded.append(c.value)
        if not equal:
            return cls(feature, conditions, excluded=tuple(excluded))
        if len(equal) > 1 or equal[0] in excluded:
            return cls(feature, conditions, values=())
        return cls(feature, conditions, values=(equal[0],))

    @property
    def numeric(self) -> bool:
        """Whether the feature is numeric (an interval) rather than categorical (a set)."""
        return self.conditions[0].op in _NUMERIC_OPS

    @property
    def is_empty(self) -> bool:
        """Whether no value satisfies the conditions."""
        if self.numeric:
            return self.lower is not None and self.upper is not None and self.lower >= self.upper
        return self.values is not None and len(self.values) == 0

    def holds(self, x: Any) -> bool:
        """Whether the value ``x`` of this feature satisfies every condition (missing: never).

        The same as ``all(c.holds(x) for c in conditions)``.
        """
        if x is None or (isinstance(x, float) and np.isnan(x)) or self.is_empty:
            return False
        if self.numeric:
            return (self.lower is None or bool(x > self.lower)) and (
                self.upper is None or bool(x <= self.upper)
            )
        if self.values is not None:
            return bool(x == self.values[0])
        return all(bool(x != v) for v in self.excluded)

    def __str__(self) -> str:
        f = self.feature
        if self.is_empty:
            return "(never: " + " AND ".join(str(c) for c in self.conditions) + ")"
        if self.numeric:
            if self.lower is None:
                return f"{f} <= {self.upper:.6g}"
            if self.upper is None:
                return f"{f} > {self.lower:.6g}"
            return f"{self.lower:.6g} < {f} <= {self.upper:.6g}"
        if self.values is not None:
            return f"{f} == {self.values[0]!r}"
        if len(self.excluded) == 1:
            return f"{f} != {self.excluded[0]!r}"
        return f"{f} not in {{{', '.join(repr(v) for v in self.excluded)}}}"


def _merge_conditions(conditions: tuple[Condition, ...]) -> tuple[MergedCondition, ...]:
    """The conditions grouped by feature and merged, in the order the features first appear."""
    groups: dict[tuple[str, bool], list[Condition]] = {}
    for c in conditions:
        groups.setdefault((c.feature, c.op in _NUMERIC_OPS), []).append(c)
    return tuple(MergedCondition.merge(tuple(g)) for g in groups.values())


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
        """Number of conditions (the lattice degree that the weight ``a^length`` penalises)."""
        return len(self.conditions)

    @property
    def merged_conditions(self) -> tuple[MergedCondition, ...]:
        """The conditions merged per feature, in the order the features first appear.

        ``x > 0.2 AND x <= 0.7`` becomes the one interval ``0.2 < x <= 0.7``; ``c != 'a' AND
        c != 'b'`` becomes ``c not in {'a', 'b'}`` (see :class:`MergedCondition`). They select
        the same rows as ``conditions``.
        """
        return _merge_conditions(self.conditions)

    def __str__(self) -> str:
        """The rule as text, one merged condition per feature (``" AND ".join(map(str,
        rule.conditions))`` gives the propositions as the lattice holds them)."""
        return " AND ".join(str(m) for m in self.merged_conditions)
