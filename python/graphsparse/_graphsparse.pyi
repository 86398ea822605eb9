# Hand-written stub of the private Rust module (checked by mypy.stubtest in CI).
from collections.abc import Callable, Mapping
from os import PathLike
from typing import Any, final

import numpy as np
import numpy.typing as npt

# progress(nodes, iterations, stage, stages, value, seconds), called every 100 ms by long calls
_Progress = Callable[[int, int, int, int, float, float], object]

_Arrays = tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
]

@final
class Database:
    """A validated, immutable graph database (held by GraphDataset)."""

    def __new__(
        cls,
        node_ptr: npt.NDArray[np.int64],
        node_labels: npt.NDArray[np.int64],
        edge_ptr: npt.NDArray[np.int64],
        edges: npt.NDArray[np.int64],
        edge_labels: npt.NDArray[np.int64],
    ) -> Database: ...
    def select(self, ids: npt.NDArray[np.int64]) -> Database: ...
    def arrays(self) -> _Arrays: ...
    def __len__(self) -> int: ...

__version__: str

def _after_fork_in_child() -> None: ...

# graph readers: a dict with the Database ("db") plus label tokens
def parse_gspan_text(text: str, source: str = "<string>") -> dict[str, Any]: ...
def read_gspan_file(path: str | PathLike[str]) -> dict[str, Any]: ...
def read_tu_folder(path: str | PathLike[str], name: str | None = None) -> dict[str, Any]: ...
def format_gspan_text(
    db: Database, vertex_tokens: list[str], edge_tokens: list[str], names: list[str]
) -> str: ...

# gSpan mining; params: min_support (absolute), max_size, single_vertices, max_nodes, time_limit
def mine_subgraphs(
    db: Database,
    params: Mapping[str, Any],
    n_threads: int = 1,
    progress: _Progress | None = None,
) -> dict[str, Any]: ...
def min_dfs_code(
    node_labels: npt.NDArray[np.int64],
    edges: npt.NDArray[np.int64],
    edge_labels: npt.NDArray[np.int64],
) -> npt.NDArray[np.int64]: ...

# prize-collecting Steiner forest: (vertices, edge_ids)
def pcst(
    edges: npt.NDArray[np.int64],
    prizes: npt.NDArray[np.float64],
    costs: npt.NDArray[np.float64],
    root: int = -1,
    num_clusters: int = 1,
    pruning: str = "gw",
    eps: float = 1e-6,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...

# projections: 1-D input, or 2-D input projected row by row on n_threads workers
def project_simplex(
    v: npt.NDArray[np.float64],
    radius: float = 1.0,
    *,
    n_threads: int = 1,
    out: npt.NDArray[np.float64] | None = None,
    min_parallel: int | None = None,
) -> npt.NDArray[np.float64]: ...
def project_l1_ball(
    v: npt.NDArray[np.float64],
    radius: float = 1.0,
    *,
    n_threads: int = 1,
    out: npt.NDArray[np.float64] | None = None,
    min_parallel: int | None = None,
) -> npt.NDArray[np.float64]: ...
def project_weighted_simplex(
    y: npt.NDArray[np.float64],
    eps: npt.NDArray[np.float64],
    *,
    n_threads: int = 1,
    out: npt.NDArray[np.float64] | None = None,
    min_parallel: int | None = None,
) -> npt.NDArray[np.float64]: ...
def project_capped_simplex(
    y: npt.NDArray[np.float64],
    k: float,
    *,
    n_threads: int = 1,
    out: npt.NDArray[np.float64] | None = None,
    min_parallel: int | None = None,
) -> npt.NDArray[np.float64]: ...
def project_top_k(
    y: npt.NDArray[np.float64],
    k: int,
    *,
    n_threads: int = 1,
    out: npt.NDArray[np.float64] | None = None,
    min_parallel: int | None = None,
) -> npt.NDArray[np.float64]: ...

# online learners and WGM projections (graphsparse.online)
def graph_projection(
    w: npt.NDArray[np.float64],
    edges: npt.NDArray[np.int64],
    costs: npt.NDArray[np.float64],
    s_low: int,
    s_high: int,
    num_clusters: int = 1,
    max_iter: int = 20,
    fallback: str = "lambda_high",
    eps: float = 1e-10,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]: ...
def online_pass(
    method: str,
    params: dict[str, Any],
    x: npt.NDArray[np.float64],
    y: npt.NDArray[np.float64],
    state: dict[str, Any] | None = None,
    edges: npt.NDArray[np.int64] | None = None,
    costs: npt.NDArray[np.float64] | None = None,
    groups: npt.NDArray[np.int64] | None = None,
) -> dict[str, Any]: ...

# sparse learning over all subgraphs (BCGD, boosting search, pattern matching)
# params: lambda2, tol, max_iter, min_support, max_size, max_nodes, time_limit, prune, cache,
# record_trace
def fit_subgraph_bcgd(
    db: Database,
    y: npt.NDArray[np.float64],
    loss: str,
    lambdas: npt.NDArray[np.float64],
    params: Mapping[str, Any],
    n_threads: int = 1,
    progress: _Progress | None = None,
) -> list[dict[str, Any]]: ...
def separable_bounds(
    f0: npt.NDArray[np.float64], f1: npt.NDArray[np.float64], graph_ids: npt.NDArray[np.int64]
) -> tuple[float, float, float]: ...

# stump params: min_support, max_size, max_nodes, time_limit, prune (+ n_estimators for Adaboost)
@final
class StumpSearcher:
    def __new__(
        cls, db: Database, params: Mapping[str, Any], n_threads: int = 1
    ) -> StumpSearcher: ...
    def search(
        self, weights: npt.NDArray[np.float64], labels: npt.NDArray[np.float64]
    ) -> dict[str, Any]: ...
    @property
    def cached_nodes(self) -> int: ...

def fit_subgraph_adaboost(
    db: Database,
    labels: npt.NDArray[np.float64],
    params: Mapping[str, Any],
    n_threads: int = 1,
    progress: _Progress | None = None,
) -> dict[str, Any]: ...
def match_subgraph_patterns(
    db: Database,
    codes: list[npt.NDArray[np.int64]],
    n_threads: int = 1,
) -> list[npt.NDArray[np.int64]]: ...
