"""graphsparse: sparse learning on graph-structured data, with a parallel Rust core.

The public API:

* data — :mod:`graphsparse.datasets` (``GraphDataset``, ``load_tu``, ``read_gspan``,
  ``write_gspan``, ``from_networkx``, generators)
* mining — :func:`mine_subgraphs` (parallel gSpan) returning :class:`Pattern` objects
* chemistry — :mod:`graphsparse.chem` (SMILES and SD files in, SMARTS and drawings out; needs
  the optional extra ``chem``, RDKit)
* Steiner — :func:`pcst` (prize-collecting Steiner forest, identical to ``pcst_fast``)
* projections — :mod:`graphsparse.projections` (``project_simplex``, ``project_l1_ball``,
  ``project_weighted_simplex``, ``project_capped_simplex``, ``project_top_k``)
* online learning — :mod:`graphsparse.online` (GraphDA and baselines, head/tail projections)
* convex graph-structured recovery — :mod:`graphsparse.recovery` (Kuroda & Kitahara,
  latent group lasso, Graph-IHT)
* compression — :mod:`graphsparse.compression` (OT graph compression, coarsening baselines,
  WL subtree features, the paper's evaluation protocol)
* metrics — :mod:`graphsparse.metrics` (support recovery and online-learning scores)
* subgraph models — :class:`SubgraphLogisticRegression`, :class:`SubgraphLinearRegression`,
  :func:`lambda1_path`, :class:`SubgraphAdaBoost`, :class:`SubgraphLPBoost`
* rule ensembles — :mod:`graphsparse.rules` (``RuleEnsembleClassifier``,
  ``RuleEnsembleRegressor``: gHKL / gHKL-MT on the conjunction lattice)
* errors — :mod:`graphsparse.exceptions` (all bad-input errors are ``ValueError`` subclasses)
"""

from __future__ import annotations

import os as _os

from . import (
    _graphsparse,
    chem,
    compression,
    datasets,
    exceptions,
    metrics,
    online,
    plotting,
    projections,
    recovery,
    rules,
)
from .datasets import GraphDataset, from_networkx, load_tu, read_gspan, write_gspan
from .mining import MiningResult, Pattern, iter_subgraphs, min_dfs_code, mine_subgraphs
from .models import (
    SubgraphAdaBoost,
    SubgraphLinearRegression,
    SubgraphLogisticRegression,
    SubgraphLPBoost,
    lambda1_path,
)
from .projections import (
    project_capped_simplex,
    project_l1_ball,
    project_simplex,
    project_top_k,
    project_weighted_simplex,
)
from .steiner import pcst

__version__: str = _graphsparse.__version__

if hasattr(_os, "register_at_fork"):
    # rayon pools do not survive fork(); a forked child runs every later call serially.
    _os.register_at_fork(after_in_child=_graphsparse._after_fork_in_child)

__all__ = [
    "GraphDataset",
    "MiningResult",
    "Pattern",
    "SubgraphAdaBoost",
    "SubgraphLPBoost",
    "SubgraphLinearRegression",
    "SubgraphLogisticRegression",
    "__version__",
    "chem",
    "compression",
    "datasets",
    "exceptions",
    "from_networkx",
    "iter_subgraphs",
    "lambda1_path",
    "load_tu",
    "min_dfs_code",
    "mine_subgraphs",
    "pcst",
    "project_capped_simplex",
    "project_l1_ball",
    "project_simplex",
    "project_top_k",
    "project_weighted_simplex",
    "projections",
    "metrics",
    "online",
    "plotting",
    "recovery",
    "rules",
    "read_gspan",
    "write_gspan",
]
