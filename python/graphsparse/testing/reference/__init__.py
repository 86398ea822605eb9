"""Naive references: plain, readable solutions of the problems graphsparse solves.

Each submodule writes its problem out the way a textbook or paper states it and solves it with
a generic tool (NumPy, SciPy's HiGHS and SLSQP, networkx, CVXPY) or by brute force, sharing none
of the library's algorithms. They are slow on purpose; each module states the sizes it is meant
for and what it costs. They check the library in its own test suite, and they can check any
other implementation of the same problems:

* :mod:`~graphsparse.testing.reference.subgraphs` — frequent connected subgraphs by enumerating
  every edge subset (the reference for gSpan);
* :mod:`~graphsparse.testing.reference.pcst` — the prize-collecting Steiner forest by
  enumerating vertex subsets;
* :mod:`~graphsparse.testing.reference.projections` — Euclidean projections onto the simplex,
  the L1 ball, the weighted and capped simplex and the top-``k`` set, by sorting and by trying
  every active set;
* :mod:`~graphsparse.testing.reference.bcgd` and :mod:`~graphsparse.testing.reference.lpboost`
  — the subgraph models over an explicit design matrix;
* :mod:`~graphsparse.testing.reference.online` — the online learners, one sample at a time;
* :mod:`~graphsparse.testing.reference.recovery` — graph-structured recovery and its baselines
  as cone programs;
* :mod:`~graphsparse.testing.reference.compression` — optimal transport on graphs as LPs and the
  compression objective by trying every subset;
* :mod:`~graphsparse.testing.reference.rules` — the propositions of a table and the gHKL primal
  over the whole conjunction lattice.

None of them needs Hypothesis; the strategies that draw their inputs are in
:mod:`graphsparse.testing.strategies`.
"""

from __future__ import annotations

from . import bcgd, compression, lpboost, online, pcst, projections, recovery, rules, subgraphs

__all__ = [
    "bcgd",
    "compression",
    "lpboost",
    "online",
    "pcst",
    "projections",
    "recovery",
    "rules",
    "subgraphs",
]
