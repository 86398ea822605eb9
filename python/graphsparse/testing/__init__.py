"""Tools to test a solver for graph-sparsity problems: graphsparse's own verification suite.

Three parts, usable for graphsparse and for any other implementation of the same problems (a
gSpan variant, a Steiner-forest heuristic, a projection, a structured-sparsity solver):

* :mod:`graphsparse.testing.strategies` — `Hypothesis <https://hypothesis.readthedocs.io>`_
  strategies that draw labelled graphs and graph databases, Steiner-forest instances,
  projection inputs, transport problems, recovery instances and rule tables, each with its
  knobs, its distribution and the invariants its draws keep; they shrink towards small cases.
  Hypothesis is an optional dependency: install the extra ``test``
  (``pip install "graphsparse[test]"``).
* :mod:`graphsparse.testing.reference` — naive references: plain implementations that solve
  the same problems the slow, obvious way (brute force, NumPy, SciPy's HiGHS, networkx), with
  the sizes they are meant for.
* the assertions below, for results that are equal without being equal as objects: pattern
  sets listed in another order, forests listed in another order, objective values equal up to
  a certified duality gap.

``import graphsparse`` imports none of this; ``import graphsparse.testing`` does not import
Hypothesis.
"""

from __future__ import annotations

from .._public import publish as _publish
from ._assertions import assert_forests_equal, assert_patterns_equal, assert_within_gap

__all__ = ["assert_forests_equal", "assert_patterns_equal", "assert_within_gap"]

_publish(__name__, __all__, globals())
