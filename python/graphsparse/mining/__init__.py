"""Frequent connected subgraph mining (parallel gSpan in Rust)."""

from __future__ import annotations

from .._public import publish
from ..exceptions import TruncatedSearchWarning
from ._pattern import DfsEdge as DfsEdge
from ._pattern import MiningResult, Pattern
from ._pattern import pattern_matrix as pattern_matrix
from ._search import min_dfs_code, mine_subgraphs

# ``X as X``: public names outside __all__, importable from here as before the split
__all__ = ["MiningResult", "Pattern", "TruncatedSearchWarning", "mine_subgraphs", "min_dfs_code"]

publish(__name__, __all__, globals())
