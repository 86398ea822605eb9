"""The coarsening baselines: randomised edge contraction and three matchings (heavy edge,
algebraic distance, affinity), contracted level by level."""

from __future__ import annotations

import numpy.typing as npt

from .. import _graphsparse as _rs
from .._validation import as_count, as_optional_count, set_init_params
from ._base import _Compressor


class _LevelCompressor(_Compressor):
    """Compressors that contract level by level (``max_levels``) from a seed."""

    max_levels: int | None
    random_state: int

    def _method_params(self) -> _rs.CoarsenArgs:
        return {
            "seed": as_count(self.random_state, "random_state"),
            "max_levels": as_optional_count(self.max_levels, "max_levels"),
        }


class RECCompressor(_LevelCompressor):
    """Randomised edge contraction (REC; Loukas & Vandergheynst, ICML 2018, Algorithm 1).

    While candidate edges remain and the graph is above its target, a candidate is drawn
    uniformly, contracted, and its neighbouring edges leave the candidate set. One such pass is
    a random matching; with ``max_levels=1`` (the default, as the paper) a graph may stay above
    its target. Merged vertices keep the label of their smallest original vertex.

    Parameters
    ----------
    k, ratio :
        The target, as for :class:`OTCompressor`.
    max_levels : int or None, default 1
        Passes (levels); ``None``: until the target is met or no edge is left.
    random_state : int, default 0
        Seed; graph ``i`` uses its own stream, so results do not depend on ``n_jobs``.
    n_jobs : int, optional
        Threads.
    """

    _method = "rec"

    def __init__(
        self,
        k: int | npt.ArrayLike | None = None,
        ratio: float | None = None,
        *,
        max_levels: int | None = 1,
        random_state: int = 0,
        n_jobs: int | None = None,
        verbose: bool | int | str = False,
    ) -> None:
        set_init_params(self, locals())


class _MatchingCompressor(_LevelCompressor):
    """Multilevel greedy matchings (heavy edge, algebraic distance, affinity)."""

    def __init__(
        self,
        k: int | npt.ArrayLike | None = None,
        ratio: float | None = None,
        *,
        max_levels: int | None = None,
        random_state: int = 0,
        n_jobs: int | None = None,
        verbose: bool | int | str = False,
    ) -> None:
        set_init_params(self, locals())


class HeavyEdgeCompressor(_MatchingCompressor):
    """Heavy-edge matching (Dhillon et al. 2007): edges by ``w / max(d_u, d_v)``, level after level.

    Parameters as :class:`RECCompressor`, but ``max_levels=None`` (until the target) by default;
    ``random_state`` is unused (the method is deterministic).
    """

    _method = "heavy_edge"


class AlgebraicDistanceCompressor(_MatchingCompressor):
    """Matching by algebraic distance on Jacobi-smoothed random test vectors (Ron et al. 2011).

    Parameters as :class:`HeavyEdgeCompressor`; ``random_state`` seeds the test vectors.
    """

    _method = "algebraic_distance"


class AffinityCompressor(_MatchingCompressor):
    """Matching by affinity on Gauss–Seidel-smoothed random test vectors (Livne & Brandt 2012).

    Parameters as :class:`HeavyEdgeCompressor`; ``random_state`` seeds the test vectors.
    """

    _method = "affinity"
