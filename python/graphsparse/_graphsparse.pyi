# Hand-written stub of the private Rust module (checked by mypy.stubtest in CI).
from os import PathLike
from typing import Any

import numpy as np
import numpy.typing as npt

__version__: str

def _after_fork_in_child() -> None: ...

# graph readers: dicts of int64 arrays plus label tokens
def parse_gspan_text(text: str, source: str = "<string>") -> dict[str, Any]: ...
def read_gspan_file(path: str | PathLike[str]) -> dict[str, Any]: ...
def read_tu_folder(path: str | PathLike[str], name: str | None = None) -> dict[str, Any]: ...
def validate_database(
    node_ptr: npt.NDArray[np.int64],
    node_labels: npt.NDArray[np.int64],
    edge_ptr: npt.NDArray[np.int64],
    edges: npt.NDArray[np.int64],
    edge_labels: npt.NDArray[np.int64],
) -> None: ...

# gSpan mining (flat int64 arrays as GraphDataset holds them; labels are dense ids)
def mine_subgraphs(
    node_ptr: npt.NDArray[np.int64],
    node_labels: npt.NDArray[np.int64],
    edge_ptr: npt.NDArray[np.int64],
    edges: npt.NDArray[np.int64],
    edge_labels: npt.NDArray[np.int64],
    min_support: int,
    max_size: int | None,
    single_vertices: bool,
    max_nodes: int | None,
    time_limit: float | None,
    n_threads: int,
) -> dict[str, Any]: ...
def min_dfs_code(
    node_labels: npt.NDArray[np.int64],
    edges: npt.NDArray[np.int64],
    edge_labels: npt.NDArray[np.int64],
) -> npt.NDArray[np.int64]: ...

# sparse learning over all subgraphs (BCGD, boosting search, pattern matching)
def fit_subgraph_bcgd(
    node_ptr: npt.NDArray[np.int64],
    node_labels: npt.NDArray[np.int64],
    edge_ptr: npt.NDArray[np.int64],
    edges: npt.NDArray[np.int64],
    edge_labels: npt.NDArray[np.int64],
    y: npt.NDArray[np.float64],
    loss: str,
    lambdas: npt.NDArray[np.float64],
    lambda2: float,
    tol: float,
    max_iter: int,
    min_support: int,
    max_size: int | None,
    max_nodes: int | None,
    time_limit: float | None,
    prune: bool,
    record_trace: bool,
    n_threads: int,
    cache: bool = True,
) -> list[dict[str, Any]]: ...
def best_subgraph_stump(
    node_ptr: npt.NDArray[np.int64],
    node_labels: npt.NDArray[np.int64],
    edge_ptr: npt.NDArray[np.int64],
    edges: npt.NDArray[np.int64],
    edge_labels: npt.NDArray[np.int64],
    weights: npt.NDArray[np.float64],
    labels: npt.NDArray[np.float64],
    min_support: int,
    max_size: int | None,
    max_nodes: int | None,
    time_limit: float | None,
    prune: bool,
    n_threads: int,
) -> dict[str, Any]: ...
def fit_subgraph_adaboost(
    node_ptr: npt.NDArray[np.int64],
    node_labels: npt.NDArray[np.int64],
    edge_ptr: npt.NDArray[np.int64],
    edges: npt.NDArray[np.int64],
    edge_labels: npt.NDArray[np.int64],
    labels: npt.NDArray[np.float64],
    rounds: int,
    min_support: int,
    max_size: int | None,
    max_nodes: int | None,
    time_limit: float | None,
) -> dict[str, Any]: ...
def match_subgraph_patterns(
    node_ptr: npt.NDArray[np.int64],
    node_labels: npt.NDArray[np.int64],
    edge_ptr: npt.NDArray[np.int64],
    edges: npt.NDArray[np.int64],
    edge_labels: npt.NDArray[np.int64],
    codes: list[npt.NDArray[np.int64]],
    n_threads: int,
) -> list[npt.NDArray[np.int64]]: ...
