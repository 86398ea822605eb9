"""Sparse linear models over all subgraph features (Takigawa & Mamitsuka), and boosting baselines.

Every connected subgraph ``x`` of the training graphs is a 0/1 feature ``I(x ⊆ g)``. The models
search the gSpan enumeration tree for the few features they need instead of building the (huge)
design matrix:

* :class:`SubgraphLogisticRegression`, :class:`SubgraphLinearRegression` — L1 / elastic-net
  models fitted by block coordinate gradient descent with the Theorem 11 pruning (the paper's
  Figure 7), ``mean_i L(y_i, mu_i) + lambda1 ||b||_1 + lambda2/2 ||b||^2``. The loss is the *mean*
  over samples, as in glmnet, so the paper's ``lambda1`` grid (0.004-0.010 on CPDB) applies.
* :func:`lambda1_path` — a warm-started regularisation path sharing one tree cache.

Beyond the paper, the visited part of the enumeration tree (each node's graph ids and children)
is cached between iterations, so a search re-evaluates known nodes without re-embedding them and
runs gSpan only below the frontier nodes it needs to enter.

* :class:`SubgraphAdaBoost` (Kudo et al. 2005) and :class:`SubgraphLPBoost` (gBoost, Saigo et al.
  2009) — decision stumps ``s (2 I(x ⊆ g) - 1)`` found by branch and bound.

All estimators follow scikit-learn: ``fit(X, y)`` with ``X`` a :class:`~graphsparse.GraphDataset`
or a list of ``networkx`` graphs, ``predict`` on new graphs through subgraph-isomorphism tests of
the selected patterns (in Rust, parallel over graphs), and fitted state made only of NumPy
arrays, Python scalars and :class:`~graphsparse.Pattern` objects (they pickle).
"""

from __future__ import annotations

from .._public import publish as _publish
from ._bcgd import SubgraphLinearRegression, SubgraphLogisticRegression, lambda1_path
from ._boosting import SubgraphAdaBoost, SubgraphLPBoost

__all__ = [
    "SubgraphAdaBoost",
    "SubgraphLPBoost",
    "SubgraphLinearRegression",
    "SubgraphLogisticRegression",
    "lambda1_path",
]

_publish(__name__, __all__, globals())
