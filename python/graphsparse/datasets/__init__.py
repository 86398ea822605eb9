"""Graph collections: the :class:`GraphDataset` container, readers, writers and generators.

Graphs are undirected, with one label per vertex and one per edge (any hashable, sortable
values: ints, strings, bond orders ...). A :class:`GraphDataset` stores them once as flat integer
arrays plus the maps back to your labels, which is the form that crosses into Rust.
"""

from __future__ import annotations

from .._dataset import GraphDataset, from_networkx
from .._dataset import PathLike as PathLike
from .._dataset import as_dataset as as_dataset
from .._public import publish as _publish
from ..chem import from_smiles, read_sdf  # RDKit is imported only when one is called
from ._generators import make_subgraph_classification
from ._graphda import GraphDABenchmark, grid_edges, make_graphda_benchmark
from ._readers import load_tu, read_gspan, write_gspan
from ._readers import parse_gspan as parse_gspan
from ._recovery import GraphRecoveryProblem, make_graph_structured_recovery

# the imports written ``X as X`` re-export public names that __all__ leaves out, as before
__all__ = [
    "GraphDABenchmark",
    "GraphDataset",
    "GraphRecoveryProblem",
    "from_networkx",
    "from_smiles",
    "grid_edges",
    "load_tu",
    "make_graph_structured_recovery",
    "make_graphda_benchmark",
    "make_subgraph_classification",
    "read_gspan",
    "read_sdf",
    "write_gspan",
]

_publish(__name__, __all__, globals())
