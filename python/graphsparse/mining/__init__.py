"""Frequent connected subgraph mining (parallel gSpan in Rust)."""

from __future__ import annotations

from .._public import publish as _publish
from ..exceptions import TruncatedSearchWarning
from ._pattern import DfsEdge as DfsEdge
from ._pattern import MiningResult, Pattern
from ._pattern import pattern_matrix as pattern_matrix
from ._search import iter_subgraphs, min_dfs_code, mine_subgraphs

# the imports written ``X as X`` re-export public names that __all__ leaves out, as before
__all__ = [
    "MiningResult",
    "Pattern",
    "TruncatedSearchWarning",
    "iter_subgraphs",
    "mine_subgraphs",
    "min_dfs_code",
]

_publish(__name__, __all__, globals())
