"""Online learning with graph-structured sparsity (Zhou, Chen & Ying, KDD 2019).

Every learner sees the samples once, in order: it predicts with its current model (counting
online mistakes), takes the gradient of the loss at that model and updates. The models are
binary scikit-learn classifiers (any two labels, kept in ``classes_``; the larger is the
``+1`` of the paper's ±1 convention, and ``partial_fit(..., classes=...)`` names both when the
first chunk holds only one):

* :class:`GraphDA` — dual averaging with WGM head/tail projections on a graph over the features;
* :class:`DAIHT` — the same with the exact top-``s`` projection (no graph);
* :class:`StoIHT`, :class:`GraphStoIHT` — stochastic iterative hard thresholding;
* :class:`L1RDA`, :class:`AdaGradL1`, :class:`DAGL`, :class:`DASGL`, :class:`Adam` — baselines.

``fit`` makes one online pass from zero; ``partial_fit`` continues the pass. Fitted models keep
``coef_``/``intercept_`` (the last iterate ``w_T``), ``coef_avg_``/``intercept_avg_`` (the average
``w̄_T``) and ``n_mistakes_``/``n_mistakes_avg_`` (online mistakes of ``w_t`` and ``w̄_t``).

:func:`head_projection` and :func:`tail_projection` expose GraphDA's projections.
"""

from __future__ import annotations

from .estimators import DAGL, DAIHT, DASGL, L1RDA, AdaGradL1, Adam, GraphDA, GraphStoIHT, StoIHT
from .projections import grid_groups, head_projection, tail_projection

__all__ = [
    "DAGL",
    "DAIHT",
    "DASGL",
    "AdaGradL1",
    "Adam",
    "GraphDA",
    "GraphStoIHT",
    "L1RDA",
    "StoIHT",
    "grid_groups",
    "head_projection",
    "tail_projection",
]
