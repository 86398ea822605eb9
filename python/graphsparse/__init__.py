"""graphsparse: sparse learning on graph-structured data, with a parallel Rust core.

The public API:

* data — :mod:`graphsparse.datasets` (``GraphDataset``, ``load_tu``, ``read_gspan``,
  ``write_gspan``, ``from_networkx``, generators)
* mining — :func:`mine_subgraphs` (parallel gSpan) returning :class:`Pattern` objects
* online learning — :mod:`graphsparse.online` (GraphDA and baselines, head/tail projections)
* metrics — :mod:`graphsparse.metrics` (support recovery and online-learning scores)
* Steiner — :func:`pcst` (prize-collecting Steiner forest, identical to ``pcst_fast``)
* errors — :mod:`graphsparse.exceptions` (all bad-input errors are ``ValueError`` subclasses)
"""

from __future__ import annotations

import os as _os

from . import _graphsparse, datasets, exceptions, metrics, online
from .datasets import GraphDataset, from_networkx, load_tu, read_gspan, write_gspan
from .steiner import pcst

__version__: str = _graphsparse.__version__

if hasattr(_os, "register_at_fork"):
    # rayon pools do not survive fork(); a forked child runs every later call serially.
    _os.register_at_fork(after_in_child=_graphsparse._after_fork_in_child)

__all__ = [
    "GraphDataset",
    "__version__",
    "datasets",
    "exceptions",
    "from_networkx",
    "load_tu",
    "metrics",
    "online",
    "pcst",
    "read_gspan",
    "write_gspan",
]
