"""Run the PyPI ``gspan-mining`` package (the pure-Python anchor) and collect pattern supports.

Its reporting uses ``DataFrame.append``, which pandas 2 removed, so we subclass it to collect
the supports directly; the mining itself is the package's own code.
"""

from __future__ import annotations

import contextlib
import io

from gspan_mining import gSpan


class _Collecting(gSpan):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.supports: list[int] = []

    def _report_size1(self, g, support):
        pass

    def _report(self, projected):
        if self._DFScode.get_num_vertices() >= self._min_num_vertices:
            self.supports.append(self._support)


def mine_with_gspan_mining(path, min_support: int) -> list[int]:
    """Supports of all connected patterns with >= 1 edge (gspan-mining, undirected)."""
    miner = _Collecting(str(path), min_support=min_support, min_num_vertices=2, is_undirected=True)
    with contextlib.redirect_stdout(io.StringIO()):
        miner.run()
    return sorted(miner.supports)
