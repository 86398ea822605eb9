"""Graph compression by optimal transport (OTC), coarsening baselines and WL evaluation.

Garg & Jaakkola, *Solving graph compression via optimal transport* (NeurIPS 2019), as
reconstructed and corrected in the project's specification (``ot-graph-compression.md``): the
undirected incidence is signed, the saddle function and its gradients are derived, and the
paper's fixed short run ("paper" mode) is reproduced exactly beside a stabilised one.

=====================================  ===========================================================
:func:`graph_ot_distance`              exact transport cost between two distributions on a graph
:class:`OTCompressor`                  OTC: keep the induced subgraph on ``k`` selected vertices
:func:`otc_select`                     OTC on one graph with your own edge costs and prior
:class:`RECCompressor`                 randomised edge contraction (Loukas & Vandergheynst 2018)
:class:`HeavyEdgeCompressor`           heavy-edge matching (Dhillon et al. 2007)
:class:`AlgebraicDistanceCompressor`   matching by algebraic distance (Ron et al. 2011)
:class:`AffinityCompressor`            matching by affinity (Livne & Brandt 2012)
:class:`WLSubtreeFeatures`             Weisfeiler–Lehman subtree features (sparse, compiled)
:func:`kernel_svm_accuracy`            the paper's SVM protocol on a precomputed kernel
:func:`evaluate_compression`           the whole protocol: REC sizes, compress, WL kernel, SVM
=====================================  ===========================================================

Compressors take a :class:`~graphsparse.GraphDataset` (returned as one) or a sequence of
``networkx`` graphs (returned as a list of graphs) and work on all graphs in parallel in Rust,
with the GIL released; results do not depend on ``n_jobs``.
"""

from __future__ import annotations

from .._public import publish as _publish
from ._base import CompressionResult
from ._coarsening import (
    AffinityCompressor,
    AlgebraicDistanceCompressor,
    HeavyEdgeCompressor,
    RECCompressor,
)
from ._evaluation import (
    TRAIN_FRACTIONS,
    EvaluationResult,
    evaluate_compression,
    kernel_svm_accuracy,
)
from ._ot import OTCompressor, OTCResult, graph_ot_distance, otc_select
from ._wl import WLSubtreeFeatures

__all__ = [
    "TRAIN_FRACTIONS",
    "AffinityCompressor",
    "AlgebraicDistanceCompressor",
    "CompressionResult",
    "EvaluationResult",
    "HeavyEdgeCompressor",
    "OTCResult",
    "OTCompressor",
    "RECCompressor",
    "WLSubtreeFeatures",
    "evaluate_compression",
    "graph_ot_distance",
    "kernel_svm_accuracy",
    "otc_select",
]

_publish(__name__, __all__, globals())
