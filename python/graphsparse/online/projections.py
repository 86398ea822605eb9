"""GraphDA's head and tail projections, and the block groups of the benchmark's DA-GL."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _graphsparse as _rs
from .._validation import as_count, as_float_array, as_optional_count, check_endpoints
from ..exceptions import InvalidParameterError
from ._base import graph_arrays

__all__ = ["grid_groups", "head_projection", "tail_projection"]


def grid_groups(height: int, width: int, block: int = 3) -> list[list[int]]:
    """Non-overlapping ``block × block`` squares of a row-major ``height × width`` grid.

    The benchmark's DA-GL/DA-SGL groups are ``grid_groups(33, 33, 3)``: 121 groups of 9 nodes,
    block rows outermost. Edge blocks of a grid whose size is not a multiple of ``block`` are
    smaller.
    """
    height, width = as_count(height, "height", 1), as_count(width, "width", 1)
    block = as_count(block, "block", 1)
    if height * width > 2**22:
        # the groups are Python lists: beyond a few million nodes use graphsparse-online's
        # Groups::grid_blocks from Rust
        raise InvalidParameterError(
            f"height * width must be at most 2**22 nodes, got a {height} x {width} grid"
        )
    return [
        [
            r * width + c
            for r in range(br, min(br + block, height))
            for c in range(bc, min(bc + block, width))
        ]
        for br in range(0, height, block)
        for bc in range(0, width, block)
    ]


def _project(
    w: Any,
    edges: Any,
    sparsity: int | None,
    costs: Any,
    ratio: float,
    num_clusters: int,
    max_iter: int,
    fallback: str,
    eps: float,
) -> tuple[npt.NDArray[np.int64], int]:
    search: _rs.ProjectionArgs = {
        "sparsity": as_optional_count(sparsity, "sparsity"),
        "ratio": ratio,
        "num_clusters": as_count(num_clusters, "num_clusters"),
        "max_iter": as_count(max_iter, "max_iter"),
        "fallback": fallback,
        "eps": eps,
    }
    graph = graph_arrays(edges, costs)
    ww = as_float_array(w, "w")
    check_endpoints(graph["edges"], ww.size, f"w has {ww.size} entries", "give one weight per node")
    proj = _rs.graph_projection(ww, graph["edges"], graph["costs"], search)
    return proj.nodes, proj.n_iter


def head_projection(
    w: npt.ArrayLike,
    edges: npt.ArrayLike,
    sparsity: int | None = None,
    *,
    costs: npt.ArrayLike | None = None,
    ratio: float = 0.1,
    num_clusters: int = 1,
    max_iter: int = 20,
    fallback: str = "lambda_high",
    eps: float = 1e-10,
) -> tuple[npt.NDArray[np.int64], int]:
    """GraphDA's head projection of ``w`` onto a forest support on the graph.

    Runs graph-da's binary search over the edge-cost scale ``λ``: prizes ``w_i²``, costs
    ``λ·costs``, unrooted GW-pruned prize-collecting Steiner forests with ``num_clusters`` trees
    (merge tolerance 1e-10), aiming at a support of ``sparsity`` to ``⌊sparsity·(1+ratio)⌋``
    nodes.

    Parameters
    ----------
    w : array-like of shape (p,)
        One weight per node (features only; never an intercept).
    edges : array-like of int, shape (m, 2)
        Undirected edges over nodes ``0..p-1``.
    sparsity : int, optional
        Lower end of the target support size; default ``p // 2``, the head setting of GraphDA.
    costs : array-like of shape (m,), optional
        Non-negative edge costs; default 1.
    ratio : float, default=0.1
        Tolerance ``ω`` of the range.
    num_clusters : int, default=1
        Trees in the forest.
    max_iter : int, default=20
        PCST runs before the fallback.
    fallback : {"lambda_high", "closest"}, default="lambda_high"
        When no run lands in range: the run at the final upper ``λ`` (graph-da), or the run
        whose support size is closest to the range.
    eps : float, default=1e-10
        PCST merge tolerance (graph-da's projections use 1e-10, ``pcst_fast`` 1e-6).

    Returns
    -------
    support : ndarray of int64
        Selected nodes, ascending.
    n_iter : int
        PCST runs made by the search (the fallback run is not counted).

    Raises
    ------
    InvalidParameterError
        For NaN/inf in ``w``, a sparsity outside ``[1, p]`` and other bad parameters.
    InvalidGraphError
        For malformed edges or out-of-range endpoints.
    """
    return _project(w, edges, sparsity, costs, ratio, num_clusters, max_iter, fallback, eps)


def tail_projection(
    w: npt.ArrayLike,
    edges: npt.ArrayLike,
    sparsity: int,
    *,
    costs: npt.ArrayLike | None = None,
    ratio: float = 0.1,
    num_clusters: int = 1,
    max_iter: int = 20,
    fallback: str = "lambda_high",
    eps: float = 1e-10,
) -> tuple[npt.NDArray[np.int64], int]:
    """GraphDA's tail projection of ``w``: a forest support of ``sparsity`` to
    ``⌊sparsity·(1+ratio)⌋`` nodes.

    The same binary search as :func:`head_projection` (GraphDA uses one search for both; only
    the target size differs); see there for the parameters.

    Returns
    -------
    support : ndarray of int64
        Selected nodes, ascending.
    n_iter : int
        PCST runs made by the search (the fallback run is not counted).
    """
    return _project(w, edges, sparsity, costs, ratio, num_clusters, max_iter, fallback, eps)
