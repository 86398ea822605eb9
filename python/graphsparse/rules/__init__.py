"""Rule ensembles by generalized hierarchical kernel learning (gHKL, gHKL-MT).

A rule ensemble predicts ``F(x) = sum_r w_r [x satisfies rule r] - b``, where every rule is a
conjunction of basic propositions such as ``petal_width <= 0.8 AND colour == 'red'``. gHKL
(Jawanpuria, Nath & Ramakrishnan, JMLR 16, 2015) learns the rules and their weights at once by
hierarchical multiple kernel learning over the lattice of *all* conjunctions, with the
regulariser ``sum_v a^|v| ||f_D(v)||_rho`` that favours few, short rules (``rho`` in (1, 2];
``rho = 2`` is Bach's HKL). An active-set method solves this exponentially large problem
exactly, visiting only the conjunctions its optimality condition reaches, and certifies the
result with a duality gap (``dual_gap_``).

* :class:`RuleEnsembleClassifier` — hinge loss; two classes directly, more classes by gHKL-MT
  (one-vs-rest tasks sharing one lattice, optionally coupled by ``mu``).
* :class:`RuleEnsembleRegressor` — squared loss.

Input is a NumPy array or a pandas DataFrame. Numeric columns give threshold propositions
``x <= t`` and ``x > t`` at a few quantiles of their distinct values (the paper's rule, spec
§7.1); object, category and bool columns (or those named in ``categorical_features``) give
``x == v`` (and ``x != v`` for three or more values). A missing value (NaN, None) satisfies no
proposition, and neither does a category first seen at prediction time: rules that test that
column simply do not fire.

``str(rule)`` merges a rule's conditions on one feature into one interval or set
(``0.2 < x <= 0.7``, ``colour not in {'red', 'blue'}``), and ``rules_frame()`` lists the rules
as a pandas DataFrame (text, weights, support, length, importance).
"""

from __future__ import annotations

from .._public import publish as _publish
from ._ensemble import RuleEnsembleClassifier, RuleEnsembleRegressor
from ._rule import Condition, MergedCondition, Rule
from ._table import cut_points

__all__ = [
    "Condition",
    "MergedCondition",
    "Rule",
    "RuleEnsembleClassifier",
    "RuleEnsembleRegressor",
    "cut_points",
]

_publish(__name__, __all__, globals())
