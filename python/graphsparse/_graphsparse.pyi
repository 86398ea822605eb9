# Hand-written stub of the private Rust module (checked by mypy.stubtest in CI).
from collections.abc import Callable, Sequence
from os import PathLike
from typing import Any, Literal, NotRequired, Protocol, TypedDict, final

import numpy as np
import numpy.typing as npt

# progress(nodes, iterations, stage, stages, value, seconds), called every 100 ms by long calls
_Progress = Callable[[int, int, int, int, float, float], object]

# A parameter dict is a TypedDict named after the binding's #[derive(FromPyObject)] struct that
# reads it; those TypedDicts (and the FrontierParts protocol) exist for type checkers only.

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
        directed: bool = False,  # edge (u, v) is the arc u -> v
    ) -> Database: ...
    @property
    def directed(self) -> bool: ...
    def select(self, ids: npt.NDArray[np.int64]) -> Database: ...
    def arrays(self) -> _Arrays: ...
    def __len__(self) -> int: ...

__version__: str

def _after_fork_in_child() -> None: ...

# graph readers: the Database with its label tokens (canonical order) and graph names
@final
class LabeledDatabase:
    @property
    def db(self) -> Database: ...
    @property
    def vertex_labels(self) -> list[str]: ...
    @property
    def vertex_label_kind(self) -> str: ...  # "integer", "float" or "text"
    @property
    def edge_labels(self) -> list[str]: ...
    @property
    def edge_label_kind(self) -> str: ...
    @property
    def graph_labels(self) -> list[str] | None: ...
    @property
    def graph_label_kind(self) -> str | None: ...
    @property
    def graph_names(self) -> list[str]: ...

def parse_gspan_text(
    text: str, source: str = "<string>", directed: bool = False
) -> LabeledDatabase: ...
def read_gspan_file(path: str | PathLike[str], directed: bool = False) -> LabeledDatabase: ...
def read_tu_folder(path: str | PathLike[str], name: str | None = None) -> LabeledDatabase: ...
def format_gspan_text(
    db: Database, vertex_tokens: list[str], edge_tokens: list[str], names: list[str]
) -> str: ...

# gSpan mining
class MinerArgs(TypedDict):
    min_support: int  # absolute
    max_size: int | None
    single_vertices: bool
    max_nodes: int | None
    time_limit: float | None
    max_patterns: NotRequired[int | None]  # keep the first ones in DFS-code order
    counts: NotRequired[str | None]  # "embeddings" or "vertex_sets"
    pattern_set: NotRequired[Literal["all", "closed", "maximal"]]  # default "all"

# pattern k: codes[code_ptr[k]:code_ptr[k + 1]] (none for a single vertex of label
# single_label[k], -1 otherwise), graphs graph_ids[gid_ptr[k]:gid_ptr[k + 1]]
@final
class MiningResult:
    @property
    def code_ptr(self) -> npt.NDArray[np.int64]: ...
    @property
    # (rows, 5); in a directed database l_ij is the arc label 2 * label + (1 if j -> i)
    def codes(self) -> npt.NDArray[np.int64]: ...
    @property
    def single_label(self) -> npt.NDArray[np.int64]: ...
    @property
    def support(self) -> npt.NDArray[np.int64]: ...
    @property
    def gid_ptr(self) -> npt.NDArray[np.int64]: ...
    @property
    def graph_ids(self) -> npt.NDArray[np.int64]: ...
    @property
    def counts(self) -> npt.NDArray[np.int64] | None: ...  # parallel to graph_ids
    @property
    def nodes_visited(self) -> int: ...
    @property
    def truncation(self) -> str | None: ...
    @property
    def seconds(self) -> float: ...

def mine_subgraphs(
    db: Database,
    params: MinerArgs,
    n_threads: int = 1,
    progress: _Progress | None = None,
) -> MiningResult: ...

# a search on a background thread; iterating yields its patterns in batches (statistics empty)
@final
class PatternStream:
    def __iter__(self) -> PatternStream: ...
    def __next__(self) -> MiningResult: ...
    def close(self) -> None: ...
    @property
    def finished(self) -> bool: ...
    @property
    def truncation(self) -> str | None: ...
    @property
    def nodes_visited(self) -> int: ...
    @property
    def seconds(self) -> float: ...

def iter_subgraphs(db: Database, params: MinerArgs, n_threads: int = 1) -> PatternStream: ...
def min_dfs_code(
    node_labels: npt.NDArray[np.int64],
    edges: npt.NDArray[np.int64],
    edge_labels: npt.NDArray[np.int64],
    directed: bool = False,  # then l_ij is the arc label 2 * label + (1 if j -> i)
) -> npt.NDArray[np.int64]: ...
def one_edge_smaller_codes(
    codes: npt.NDArray[np.int64],
    ptr: npt.NDArray[np.int64],
    n_threads: int = 1,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...

# level-wise rounds over one shard (graphsparse.distributed)
class FrontierParts(Protocol):
    """What the rounds read from a `frontier` (a Frontier, or distributed/_rounds.py's copy)."""

    @property
    def size(self) -> int: ...
    @property
    def codes(self) -> npt.NDArray[np.int64]: ...  # (patterns * size, 5)
    @property
    def pairs(self) -> npt.NDArray[np.uint32]: ...  # (embeddings, 2)
    @property
    def emb_ptr(self) -> npt.NDArray[np.int64]: ...
    @property
    def starts(self) -> npt.NDArray[np.uint32]: ...  # (patterns * (size + 1),)
    @property
    def gids(self) -> npt.NDArray[np.uint32]: ...
    @property
    def gid_ptr(self) -> npt.NDArray[np.int64]: ...

# the binding's own frontier: exactly the parts, declared once above
@final
class Frontier(FrontierParts): ...

@final
class LevelCount:
    @property
    def parents(self) -> npt.NDArray[np.int64]: ...
    @property
    def edges(self) -> npt.NDArray[np.int64]: ...  # (n, 5)
    @property
    def supports(self) -> npt.NDArray[np.int64]: ...

def level_extensions(db: Database, frontier: FrontierParts, n_threads: int = 1) -> LevelCount: ...
def level_frontier(
    db: Database,
    frontier: FrontierParts,
    parents: npt.NDArray[np.int64],
    edges: npt.NDArray[np.int64],
    grow: bool,
    n_threads: int = 1,
) -> tuple[Frontier, npt.NDArray[np.int64], LevelCount | None]: ...
def dfs_codes_are_min(
    codes: npt.NDArray[np.int64], size: int, directed: bool = False
) -> npt.NDArray[np.bool_]: ...

# prize-collecting Steiner forest
@final
class PcstSolution:
    @property
    def nodes(self) -> npt.NDArray[np.int64]: ...
    @property
    def edges(self) -> npt.NDArray[np.int64]: ...  # indices into the input edges

def pcst(
    edges: npt.NDArray[np.int64],
    prizes: npt.NDArray[np.float64],
    costs: npt.NDArray[np.float64],
    root: int | None = None,
    num_clusters: int | None = None,
    pruning: str = "gw",
    eps: float = 1e-6,
) -> PcstSolution: ...

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
class ProjectionArgs(TypedDict):
    sparsity: int | None  # None: p // 2
    ratio: float
    num_clusters: int
    max_iter: int
    fallback: str  # "lambda_high" or "closest"
    eps: float

@final
class Projection:
    @property
    def nodes(self) -> npt.NDArray[np.int64]: ...
    @property
    def edges(self) -> npt.NDArray[np.int64]: ...
    @property
    def n_iter(self) -> int: ...

def graph_projection(
    w: npt.NDArray[np.float64],
    edges: npt.NDArray[np.int64],
    costs: npt.NDArray[np.float64],
    params: ProjectionArgs,
) -> Projection: ...

# read as LearnerArgs (method, loss, l2) and, by method, as that method's own struct from the
# one dict: graph_da gamma; graph_sto_iht lr (both with the projection keys sparsity to
# lambda_start); da_iht gamma, sparsity; sto_iht lr, sparsity; l1_rda lam, gamma, rho; adagrad_l1
# lam, eta, delta; da_gl lam, gamma; da_sgl lam, gamma, r; adam alpha, beta1, beta2, epsilon
class LearnerArgs(TypedDict):
    method: str
    loss: str  # "logistic" or "least_squares"
    l2: float
    gamma: NotRequired[float]
    lr: NotRequired[float]
    sparsity: NotRequired[int | None]
    head_sparsity: NotRequired[int | None]
    ratio: NotRequired[float]
    max_iter: NotRequired[int]
    num_clusters: NotRequired[int]
    fallback: NotRequired[str]
    lambda_start: NotRequired[str]  # "fixed" or "previous"
    lam: NotRequired[float]
    rho: NotRequired[float]
    eta: NotRequired[float]
    delta: NotRequired[float]
    r: NotRequired[float]
    alpha: NotRequired[float]
    beta1: NotRequired[float]
    beta2: NotRequired[float]
    epsilon: NotRequired[float]

# the vectors a learner does not keep are empty
@final
class OnlineState:
    def __new__(
        cls,
        *,
        coef: npt.NDArray[np.float64],
        coef_avg: npt.NDArray[np.float64],
        n_seen: int,
        n_mistakes: int,
        n_mistakes_avg: int,
        grad_avg: npt.NDArray[np.float64] | None = None,
        grad_sq_sum: npt.NDArray[np.float64] | None = None,
        moment1: npt.NDArray[np.float64] | None = None,
        moment2: npt.NDArray[np.float64] | None = None,
        beta1_power: float = 0.0,
        beta2_power: float = 0.0,
    ) -> OnlineState: ...
    @property
    def coef(self) -> npt.NDArray[np.float64]: ...  # features, then the intercept
    @property
    def coef_avg(self) -> npt.NDArray[np.float64]: ...
    @property
    def grad_avg(self) -> npt.NDArray[np.float64]: ...
    @property
    def grad_sq_sum(self) -> npt.NDArray[np.float64]: ...
    @property
    def moment1(self) -> npt.NDArray[np.float64]: ...
    @property
    def moment2(self) -> npt.NDArray[np.float64]: ...
    @property
    def beta1_power(self) -> float: ...
    @property
    def beta2_power(self) -> float: ...
    @property
    def n_seen(self) -> int: ...
    @property
    def n_mistakes(self) -> int: ...
    @property
    def n_mistakes_avg(self) -> int: ...

def online_pass(
    params: LearnerArgs,
    x: npt.NDArray[np.float64],
    y: npt.NDArray[np.float64],
    state: OnlineState | None = None,
    edges: npt.NDArray[np.int64] | None = None,
    costs: npt.NDArray[np.float64] | None = None,
    groups: npt.NDArray[np.int64] | None = None,
) -> OnlineState: ...

# a learner kept between calls (the estimators' partial_fit); not picklable: its state is
@final
class OnlineLearner:
    def __new__(
        cls,
        params: LearnerArgs,
        n_features: int,
        state: OnlineState | None = None,
        edges: npt.NDArray[np.int64] | None = None,
        costs: npt.NDArray[np.float64] | None = None,
        groups: npt.NDArray[np.int64] | None = None,
    ) -> OnlineLearner: ...
    def partial_fit(self, x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> None: ...
    def state(self) -> OnlineState: ...
    @property
    def n_seen(self) -> int: ...
    @property
    def n_features(self) -> int: ...

# sparse learning over all subgraphs (BCGD, boosting search, pattern matching)
class SearchArgs(TypedDict):
    min_support: int
    max_size: int | None
    max_nodes: int | None
    time_limit: float | None
    prune: bool
    cache_bytes: NotRequired[int]  # absent: the core's default

# read as two structs from the one dict: BcgdArgs and SearchArgs (lambda1 is the grid)
class BcgdArgs(SearchArgs):
    lambda2: float
    tol: float
    max_iter: int
    cache: bool
    screening: bool
    record_trace: bool
    working_set: NotRequired[bool]  # absent: on

# read as AdaBoostArgs and SearchArgs from the one dict
class AdaBoostArgs(SearchArgs):
    n_estimators: int

_Code = npt.NDArray[np.int64]  # (k, 5) rows (i, j, l_i, l_ij, l_j)
_Ids = npt.NDArray[np.int64]

@final
class BcgdHistory:
    @property
    def objective(self) -> npt.NDArray[np.float64]: ...
    @property
    def nonzeros(self) -> npt.NDArray[np.int64]: ...
    @property
    def visited(self) -> npt.NDArray[np.int64]: ...
    @property
    def skipped(self) -> npt.NDArray[np.int64]: ...
    @property
    def pruned_bound(self) -> npt.NDArray[np.int64]: ...
    @property
    def pruned_spp(self) -> npt.NDArray[np.int64]: ...
    @property
    def duality_gap(self) -> npt.NDArray[np.float64]: ...
    @property
    def seconds(self) -> npt.NDArray[np.float64]: ...
    @property
    def full_search(self) -> npt.NDArray[np.bool_]: ...

@final
class BcgdFit:
    @property
    def intercept(self) -> float: ...
    @property
    def coef(self) -> npt.NDArray[np.float64]: ...
    @property
    def codes(self) -> list[_Code]: ...
    @property
    def graph_ids(self) -> list[_Ids]: ...
    @property
    def equivalents(self) -> list[list[_Code]]: ...
    @property
    def n_iter(self) -> int: ...
    @property
    def converged(self) -> bool: ...
    @property
    def truncation(self) -> str | None: ...
    @property
    def dual_gap(self) -> float: ...
    @property
    def history(self) -> BcgdHistory: ...
    @property
    def total_visited(self) -> int: ...
    @property
    def total_pruned_bound(self) -> int: ...
    @property
    def total_pruned_spp(self) -> int: ...
    @property
    def path_searches(self) -> int: ...
    @property
    def full_searches(self) -> int: ...
    @property
    def lambda_max(self) -> float | None: ...
    @property
    def trace(self) -> list[tuple[float, list[_Ids], npt.NDArray[np.float64]]]: ...

def fit_subgraph_bcgd(
    db: Database,
    y: npt.NDArray[np.float64],
    loss: str,
    lambdas: npt.NDArray[np.float64],
    params: BcgdArgs,
    n_threads: int = 1,
    progress: _Progress | None = None,
) -> list[BcgdFit]: ...
def separable_bounds(
    f0: npt.NDArray[np.float64], f1: npt.NDArray[np.float64], graph_ids: npt.NDArray[np.int64]
) -> tuple[float, float, float]: ...

@final
class StumpSearch:
    @property
    def code(self) -> _Code | None: ...
    @property
    def graph_ids(self) -> _Ids: ...
    @property
    def sign(self) -> float: ...
    @property
    def gain(self) -> float: ...
    @property
    def visited(self) -> int: ...
    @property
    def truncation(self) -> str | None: ...

@final
class FrontierStats:
    @property
    def entries(self) -> int: ...
    @property
    def bytes(self) -> int: ...
    @property
    def budget(self) -> int: ...
    @property
    def evicted(self) -> int: ...
    @property
    def resumed(self) -> int: ...
    @property
    def reembedded(self) -> int: ...

@final
class StumpSearcher:
    def __new__(cls, db: Database, params: SearchArgs, n_threads: int = 1) -> StumpSearcher: ...
    def search(
        self, weights: npt.NDArray[np.float64], labels: npt.NDArray[np.float64]
    ) -> StumpSearch: ...
    @property
    def cached_nodes(self) -> int: ...
    @property
    def frontier_stats(self) -> FrontierStats: ...

@final
class AdaBoostFit:
    @property
    def codes(self) -> list[_Code]: ...
    @property
    def graph_ids(self) -> list[_Ids]: ...
    @property
    def signs(self) -> npt.NDArray[np.float64]: ...
    @property
    def weights(self) -> npt.NDArray[np.float64]: ...
    @property
    def visited(self) -> npt.NDArray[np.int64]: ...
    @property
    def truncation(self) -> str | None: ...

def fit_subgraph_adaboost(
    db: Database,
    labels: npt.NDArray[np.float64],
    params: AdaBoostArgs,
    n_threads: int = 1,
    progress: _Progress | None = None,
) -> AdaBoostFit: ...
def match_subgraph_patterns(
    db: Database,
    codes: list[npt.NDArray[np.int64]],
    n_threads: int = 1,
) -> list[npt.NDArray[np.int64]]: ...

# recovery: X is a 2-D float64 array or a CSR triple (indptr, indices, data, (n_rows, n_cols))
_Design = (
    npt.NDArray[np.float64]
    | tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64], tuple[int, int]]
)

class SolverArgs(TypedDict):
    alpha: float
    loss: str  # "squared", "absolute", "logistic" or "hinge"
    penalty_form: str  # "budget" or "lagrangian"
    solver: str  # "auto", "anderson", "ssnal", "pdhg", "pdhg-fixed" or "kk"
    gamma: float | None
    tol: float
    max_iter: int
    check_every: int
    op_norm: float | None
    diff_norm: float | None
    step_ratio: float
    max_nodes: int | None
    time_limit: float | None

# read as two structs from the one dict: SolverArgs and lambda_ (a path takes an array instead)
class SolveArgs(SolverArgs):
    lambda_: float

@final
class RecoveryState:
    """A solve's final iterates and steps (opaque), the warm start of a later solve."""

    def __new__(
        cls,
        x: npt.NDArray[np.float64],
        sigma: npt.NDArray[np.float64],
        dual_data: npt.NDArray[np.float64],
        dual_graph: npt.NDArray[np.float64],
        aux_data: npt.NDArray[np.float64],
        aux_graph: npt.NDArray[np.float64],
        tau: float,
        adapt: float,
    ) -> RecoveryState: ...
    def restarted(self) -> RecoveryState: ...
    def __reduce__(self) -> tuple[type[RecoveryState], tuple[Any, ...]]: ...

@final
class RecoveryHistory:
    @property
    def iteration(self) -> npt.NDArray[np.int64]: ...
    @property
    def primal(self) -> npt.NDArray[np.float64]: ...
    @property
    def dual(self) -> npt.NDArray[np.float64]: ...
    @property
    def gap(self) -> npt.NDArray[np.float64]: ...
    @property
    def primal_residual(self) -> npt.NDArray[np.float64]: ...
    @property
    def dual_residual(self) -> npt.NDArray[np.float64]: ...
    @property
    def infeasibility(self) -> npt.NDArray[np.float64]: ...

@final
class OpCounts:
    @property
    def forward(self) -> int: ...
    @property
    def adjoint(self) -> int: ...
    @property
    def diff(self) -> int: ...
    @property
    def diff_adjoint(self) -> int: ...
    @property
    def prox(self) -> int: ...
    @property
    def ball_projections(self) -> int: ...
    @property
    def work(self) -> int: ...

@final
class RecoveryFit:
    @property
    def coef(self) -> npt.NDArray[np.float64]: ...
    @property
    def sigma(self) -> npt.NDArray[np.float64]: ...
    @property
    def latent(self) -> npt.NDArray[np.float64]: ...
    @property
    def n_iter(self) -> int: ...
    @property
    def converged(self) -> bool: ...
    @property
    def objective(self) -> float: ...
    @property
    def dual_objective(self) -> float: ...
    @property
    def dual_gap(self) -> float: ...
    @property
    def truncation(self) -> str | None: ...
    @property
    def op_norm(self) -> float: ...
    @property
    def diff_norm(self) -> float: ...
    @property
    def history(self) -> RecoveryHistory: ...
    @property
    def counts(self) -> OpCounts: ...
    @property
    def state(self) -> RecoveryState: ...
    @property
    def solver(self) -> str: ...

def recovery_solve(
    model: str,
    x: _Design,
    y: npt.NDArray[np.float64],
    params: SolveArgs,
    edges: npt.NDArray[np.int64] | None = None,
    weights: npt.NDArray[np.float64] | None = None,
    groups: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]
    | None = None,  # (offsets, members, weights)
    n_threads: int = 1,
    progress: _Progress | None = None,
    warm: RecoveryState | None = None,
) -> RecoveryFit: ...

# one row per lambda solved
@final
class RecoveryPathFit:
    @property
    def lambdas(self) -> npt.NDArray[np.float64]: ...
    @property
    def coef(self) -> npt.NDArray[np.float64]: ...  # (n_lambdas, n_features)
    @property
    def sigma(self) -> npt.NDArray[np.float64]: ...  # (n_lambdas, n_features)
    @property
    def n_iter(self) -> npt.NDArray[np.int64]: ...
    @property
    def converged(self) -> npt.NDArray[np.bool_]: ...
    @property
    def dual_gap(self) -> npt.NDArray[np.float64]: ...
    @property
    def objective(self) -> npt.NDArray[np.float64]: ...
    @property
    def truncation(self) -> str | None: ...

# relative: the lambdas are fractions of lambda_max (computed on the same design)
def recovery_path(
    x: _Design,
    y: npt.NDArray[np.float64],
    edges: npt.NDArray[np.int64],
    params: SolverArgs,
    lambdas: npt.NDArray[np.float64],
    weights: npt.NDArray[np.float64] | None = None,
    relative: bool = False,
    n_threads: int = 1,
    progress: _Progress | None = None,
) -> RecoveryPathFit: ...
def recovery_lambda_max(
    x: _Design,
    y: npt.NDArray[np.float64],
    loss_name: str,
    alpha: float,
    edges: npt.NDArray[np.int64] | None = None,
    weights: npt.NDArray[np.float64] | None = None,
) -> float: ...
def recovery_prox_perspective(
    x: npt.NDArray[np.float64], sigma: npt.NDArray[np.float64], c: float
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
def recovery_penalty(
    x: npt.NDArray[np.float64],
    edges: npt.NDArray[np.int64],
    alpha: float,
    weights: npt.NDArray[np.float64] | None = None,
    tol: float = 1e-9,
    max_iter: int = 100_000,
) -> tuple[float, npt.NDArray[np.float64], float, int, bool]: ...

class IhtArgs(TypedDict):
    sparsity: int
    n_components: int
    method: str  # "iht" or "cosamp"
    max_iter: int
    tol: float
    ratio: float
    time_limit: float | None

@final
class IhtFit:
    @property
    def coef(self) -> npt.NDArray[np.float64]: ...
    @property
    def support(self) -> npt.NDArray[np.int64]: ...
    @property
    def n_iter(self) -> int: ...
    @property
    def converged(self) -> bool: ...
    @property
    def residual_norms(self) -> npt.NDArray[np.float64]: ...
    @property
    def n_projection_runs(self) -> int: ...
    @property
    def truncation(self) -> str | None: ...

def recovery_graph_iht(
    x: _Design,
    y: npt.NDArray[np.float64],
    edges: npt.NDArray[np.int64],
    params: IhtArgs,
    n_threads: int = 1,
    progress: _Progress | None = None,
) -> IhtFit: ...

# compression (graphsparse-ot)
def ot_distance(
    edges: npt.NDArray[np.int64],
    costs: npt.NDArray[np.float64],
    rho0: npt.NDArray[np.float64],
    rho1: npt.NDArray[np.float64],
    directed: npt.NDArray[np.bool_],
) -> float: ...

# the functional form: "lambda" is a Python keyword; mode is "paper" or "stable"
OtcArgs = TypedDict(
    "OtcArgs",
    {"mode": str, "lambda": float, "alpha": float, "beta": float, "gamma": float, "n_iter": int},
)

@final
class OtcSolution:
    @property
    def vertices(self) -> npt.NDArray[np.int64]: ...
    @property
    def eps_hat(self) -> npt.NDArray[np.float64]: ...
    @property
    def t_bar(self) -> npt.NDArray[np.float64]: ...
    @property
    def zeta_bar(self) -> float: ...
    @property
    def rho1_hat(self) -> npt.NDArray[np.float64]: ...
    @property
    def n_iter(self) -> int: ...
    @property
    def projections_converged(self) -> bool: ...
    @property
    def max_projection_iterations(self) -> int: ...

def ot_select(
    n: int,
    edges: npt.NDArray[np.int64],
    costs: npt.NDArray[np.float64],
    rho0: npt.NDArray[np.float64] | None,
    k: int,
    params: OtcArgs,
) -> OtcSolution: ...

# method "otc": read as two structs from the one dict, CostArgs and OtcArgs
class CostArgs(OtcArgs):
    cost_same: float
    cost_different: float

# method "rec", "heavy_edge", "algebraic_distance" or "affinity"
class CoarsenArgs(TypedDict):
    seed: int
    max_levels: int | None

@final
class Compressed:
    @property
    def db(self) -> Database: ...
    @property
    def assignment(self) -> npt.NDArray[np.int64]: ...  # -1: dropped
    @property
    def eps_hat(self) -> npt.NDArray[np.float64]: ...  # empty but for OTC

def ot_compress(
    db: Database,
    method: str,
    params: CostArgs | CoarsenArgs,
    ks: npt.NDArray[np.int64],
    n_threads: int = 1,
    progress: _Progress | None = None,
) -> Compressed: ...

@final
class CsrMatrix:
    @property
    def indptr(self) -> npt.NDArray[np.int64]: ...
    @property
    def indices(self) -> npt.NDArray[np.int64]: ...
    @property
    def data(self) -> npt.NDArray[np.float64]: ...
    @property
    def n_cols(self) -> int: ...

_Level = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]  # (ptr, data) signatures

@final
class WlFeatures:
    @property
    def vocabulary(self) -> list[_Level]: ...
    @property
    def features(self) -> CsrMatrix: ...

def wl_fit_transform(
    db: Database,
    n_iter: int,
    n_threads: int = 1,
    progress: _Progress | None = None,
    edge_labels: bool = False,
) -> WlFeatures: ...
def wl_transform(
    db: Database,
    levels: Sequence[_Level],
    n_threads: int = 1,
    progress: _Progress | None = None,
    edge_labels: bool = False,
) -> CsrMatrix: ...

# rule ensembles (gHKL on the conjunction lattice)
_RuleColumn = npt.NDArray[np.float64] | tuple[npt.NDArray[np.uint32], int]
_Proposition = tuple[int, str, float | int]  # (feature, "<=" | ">" | "==" | "!=", value)

class PropArgs(TypedDict):
    n_cuts: int
    cut_rule: str  # "distinct_quantiles", "quantiles" or "equal_width"
    not_equal: bool
    cut_points: NotRequired[list[list[float] | None] | None]  # per column; None: the rule

class GhklArgs(TypedDict):
    rho: float
    a: float
    loss: str
    mu: float | None  # None: independent tasks
    tol: float
    max_iter: int
    rule_threshold: float
    max_add: int | None
    kernel_cache_bytes: int
    max_nodes: int | None
    time_limit: float | None
    line_search: NotRequired[bool]  # Armijo mirror steps (default True)
    solver_form: NotRequired[str]  # "auto" (default), "dual" or "primal"

@final
class GhklFit:
    @property
    def rule_props(self) -> list[npt.NDArray[np.uint32]]: ...
    @property
    def weights(self) -> npt.NDArray[np.float64]: ...  # (n_rules, tasks)
    @property
    def strength(self) -> npt.NDArray[np.float64]: ...
    @property
    def support(self) -> npt.NDArray[np.int64]: ...
    @property
    def bias(self) -> npt.NDArray[np.float64]: ...
    @property
    def c(self) -> float: ...
    @property
    def dual_gap(self) -> float: ...
    @property
    def primal(self) -> float: ...
    @property
    def dual(self) -> float: ...
    @property
    def converged(self) -> bool: ...
    @property
    def truncation(self) -> str | None: ...
    @property
    def n_rounds(self) -> int: ...
    @property
    def n_md_iter(self) -> int: ...
    @property
    def n_inner_solves(self) -> int: ...
    @property
    def n_svm_iter(self) -> int: ...
    @property
    def active_set_size(self) -> int: ...
    @property
    def cache_peak_bytes(self) -> int: ...
    @property
    def cache_budget_bytes(self) -> int: ...
    @property
    def dual_coef(self) -> npt.NDArray[np.float64]: ...

def fit_rule_ensemble(
    columns: list[_RuleColumn],
    y: npt.NDArray[np.float64],
    tasks: int,
    cs: npt.NDArray[np.float64],
    prop_params: PropArgs,
    params: GhklArgs,
    n_threads: int = 1,
    progress: _Progress | None = None,
) -> tuple[list[_Proposition], list[GhklFit]]: ...
def rule_propositions(columns: list[_RuleColumn], prop_params: PropArgs) -> list[_Proposition]: ...
def rule_activations(
    columns: list[_RuleColumn],
    kinds: Sequence[int | None],
    propositions: Sequence[tuple[int, str, float]],
    rules: Sequence[Sequence[int]],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
