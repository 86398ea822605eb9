"""``pcst_fast`` (PyPI ``pcst-fast2``) as the Steiner-forest solver that GraphDA's reference binary
search (:func:`graphsparse.testing.reference.online.binsearch`) calls, as the paper's code does."""

from __future__ import annotations

import numpy as np


def pcst_fast_gw(edges: np.ndarray, prizes: np.ndarray, costs: np.ndarray) -> np.ndarray:
    """``pcst_fast`` (tolerance 1e-6), unrooted, one tree, GW pruning."""
    import pcst_fast

    nodes, _ = pcst_fast.pcst_fast(
        np.ascontiguousarray(edges, dtype=np.int64), prizes, costs, -1, 1, "gw", 0
    )
    return np.asarray(nodes)
