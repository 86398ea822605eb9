"""The GraphDA benchmark generator: a 33×33 grid with a signal on one of four subgraphs.

Protocol of Zhou, Chen & Ying (KDD 2019), §5 and Appendix B; graph-da's
``exp_logit_benchmark.py`` (described in spec §C.10, not copied).

The four signal subgraphs (node = row·33 + col) are the node lists of graph-da's
``bench_data['fig_1'..'fig_4']`` (Arias-Castro et al. 2011), sizes 26, 46, 92 and 132; each is
connected in the grid. A test checks them against the copy in
``shared/data/graphda/benchmark_grid/subgraphs.json``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .._validation import as_count, as_real, as_rng
from ..exceptions import InvalidParameterError

__all__ = ["GraphDABenchmark", "grid_edges", "make_graphda_benchmark"]

GRID_SIZE = 33

SUBGRAPHS: dict[str, tuple[int, ...]] = {
    "Graph01": (
        475,
        505,
        506,
        507,
        508,
        509,
        510,
        511,
        512,
        539,
        540,
        541,
        542,
        543,
        544,
        545,
        576,
        609,
        642,
        643,
        644,
        645,
        646,
        647,
        679,
        712,
    ),
    "Graph02": (
        439,
        440,
        471,
        472,
        473,
        474,
        504,
        505,
        506,
        537,
        538,
        539,
        568,
        569,
        570,
        571,
        572,
        600,
        601,
        602,
        603,
        604,
        605,
        633,
        634,
        635,
        636,
        637,
        666,
        667,
        668,
        698,
        699,
        700,
        701,
        730,
        731,
        732,
        733,
        763,
        764,
        765,
        796,
        797,
        798,
        830,
    ),
    "Graph03": (
        151,
        183,
        184,
        185,
        217,
        218,
        219,
        251,
        252,
        285,
        286,
        319,
        320,
        352,
        353,
        385,
        386,
        405,
        406,
        407,
        408,
        409,
        419,
        420,
        437,
        438,
        439,
        440,
        441,
        442,
        443,
        452,
        453,
        470,
        471,
        475,
        476,
        485,
        486,
        502,
        503,
        504,
        507,
        508,
        509,
        518,
        519,
        535,
        536,
        541,
        550,
        551,
        568,
        569,
        583,
        584,
        601,
        602,
        615,
        616,
        617,
        635,
        636,
        648,
        649,
        668,
        669,
        670,
        680,
        681,
        702,
        703,
        704,
        711,
        712,
        713,
        736,
        737,
        738,
        739,
        740,
        741,
        742,
        743,
        744,
        745,
        771,
        772,
        773,
        774,
        775,
        776,
    ),
    "Graph04": (
        244,
        245,
        246,
        247,
        248,
        249,
        254,
        255,
        256,
        277,
        278,
        279,
        280,
        281,
        282,
        283,
        286,
        287,
        288,
        289,
        290,
        310,
        311,
        312,
        313,
        314,
        315,
        316,
        317,
        318,
        319,
        320,
        321,
        322,
        323,
        324,
        343,
        344,
        345,
        346,
        347,
        348,
        349,
        350,
        351,
        352,
        353,
        354,
        355,
        356,
        357,
        377,
        378,
        379,
        380,
        381,
        382,
        383,
        384,
        385,
        386,
        387,
        388,
        389,
        390,
        411,
        412,
        413,
        414,
        415,
        416,
        417,
        418,
        419,
        420,
        421,
        422,
        423,
        448,
        449,
        450,
        451,
        452,
        453,
        454,
        455,
        456,
        481,
        482,
        483,
        484,
        485,
        486,
        487,
        488,
        489,
        514,
        515,
        516,
        517,
        518,
        519,
        520,
        521,
        547,
        548,
        549,
        550,
        551,
        552,
        553,
        579,
        580,
        581,
        582,
        583,
        584,
        585,
        586,
        613,
        614,
        615,
        616,
        617,
        618,
        646,
        647,
        648,
        649,
        650,
        680,
        681,
    ),
}


def grid_edges(height: int = GRID_SIZE, width: int = GRID_SIZE) -> npt.NDArray[np.int64]:
    """Edges of the row-major ``height × width`` 4-neighbour grid (node ``r·width + c``).

    Scanning nodes in order, each adds its right neighbour, then its lower neighbour; the
    33×33 benchmark grid has 1089 nodes and 2112 edges.
    """
    height, width = as_count(height, "height", 1), as_count(width, "width", 1)
    edges: list[tuple[int, int]] = []
    n = height * width
    for i in range(n):
        if i % width != width - 1:
            edges.append((i, i + 1))
        if i + width < n:
            edges.append((i, i + width))
    return np.asarray(edges, dtype=np.int64).reshape(-1, 2)


@dataclass(frozen=True)
class GraphDABenchmark:
    """One draw of the benchmark; all arrays are NumPy (features z-scored over all rows).

    Attributes
    ----------
    X_train, y_train, X_valid, y_valid, X_test, y_test : ndarray
        Features ``(n, 1089)`` and labels ±1 of the three splits.
    edges : ndarray of int64, shape (2112, 2)
        The grid (see :func:`grid_edges`).
    costs : ndarray of float64, shape (2112,)
        Unit edge costs.
    true_support : ndarray of int64
        The signal subgraph's nodes (the support of the true model).
    coef : ndarray of float64, shape (1089,)
        The true model: ``mu`` on the subgraph, 0 elsewhere.
    graph : str
        ``"Graph01"`` … ``"Graph04"``.
    mu : float
    """

    X_train: npt.NDArray[np.float64]
    y_train: npt.NDArray[np.float64]
    X_valid: npt.NDArray[np.float64]
    y_valid: npt.NDArray[np.float64]
    X_test: npt.NDArray[np.float64]
    y_test: npt.NDArray[np.float64]
    edges: npt.NDArray[np.int64]
    costs: npt.NDArray[np.float64]
    true_support: npt.NDArray[np.int64]
    coef: npt.NDArray[np.float64]
    graph: str
    mu: float


def make_graphda_benchmark(
    graph: str = "Graph01",
    mu: float = 0.3,
    n_train: int = 400,
    n_valid: int = 400,
    n_test: int = 400,
    random_state: int | np.random.Generator | None = 0,
    *,
    n_train_pool: int | None = 1000,
) -> GraphDABenchmark:
    """Draw the GraphDA benchmark data (spec §C.10).

    ``n = n_pool + n_valid + n_test`` rows are drawn with ``n_pool = max(n_train,
    n_train_pool)``: the first ``⌊n/2⌋`` rows are labelled +1, the rest −1;
    ``X ~ N(0, 1)`` (one flat draw, reshaped row-major); the positive rows' subgraph columns are
    then redrawn from ``N(mu, 1)``; the rows are shuffled; every column is z-scored over all
    ``n`` rows (population std; a constant column becomes 0). The split is in row order:
    ``n_pool`` training rows (of which the first ``n_train`` are returned), then validation,
    then test. The paper's "400 train / 400 validation / 400 test" is the default: 1000 training
    rows drawn and 400 used, as in graph-da.

    Parameters
    ----------
    graph : {"Graph01", "Graph02", "Graph03", "Graph04"}, default="Graph01"
        The signal subgraph (26, 46, 92 or 132 nodes).
    mu : float, default=0.3
        Mean shift of the positive samples on the subgraph.
    n_train, n_valid, n_test : int, default=400
        Split sizes (``n_train >= 1``; the others may be 0).
    random_state : int, numpy Generator or None, default=0
        Seed of ``numpy.random.default_rng``; the reference is unseeded, so only the
        distribution, not the draws, matches it.
    n_train_pool : int or None, default=1000
        Training rows drawn before keeping the first ``n_train`` (``None``: ``n_train``). It
        changes only the pool the z-scores are computed on.

    Returns
    -------
    GraphDABenchmark
    """
    if graph not in SUBGRAPHS:
        raise InvalidParameterError(f"graph must be one of {sorted(SUBGRAPHS)}, got {graph!r}")
    if not math.isfinite(as_real(mu, "mu")):
        raise InvalidParameterError(f"mu must be a finite real number, got {mu!r}")
    n_train = as_count(n_train, "n_train", 1)
    n_valid = as_count(n_valid, "n_valid")
    n_test = as_count(n_test, "n_test")
    if n_train_pool is not None:
        n_train_pool = as_count(n_train_pool, "n_train_pool", 1)
    rng = as_rng(random_state)
    p = GRID_SIZE * GRID_SIZE
    support = np.asarray(SUBGRAPHS[graph], dtype=np.int64)
    n_pool = max(int(n_train), int(n_train_pool or 0))
    n = n_pool + int(n_valid) + int(n_test)
    n_pos = n // 2
    y = np.ones(n, dtype=np.float64)
    y[n_pos:] = -1.0
    X = rng.normal(0.0, 1.0, size=n * p).reshape(n, p)
    X[:n_pos, support] = rng.normal(float(mu), 1.0, size=(n_pos, len(support)))
    order = rng.permutation(n)
    X, y = X[order], y[order]
    mean = X.mean(axis=0)
    std = X.std(axis=0)
    centred = X - mean
    safe = np.where(std > 0.0, std, 1.0)
    X = np.where(std > 0.0, centred / safe, 0.0)
    a, b = n_pool, n_pool + int(n_valid)
    coef = np.zeros(p)
    coef[support] = float(mu)
    edges = grid_edges()
    return GraphDABenchmark(
        X_train=np.ascontiguousarray(X[: int(n_train)]),
        y_train=y[: int(n_train)].copy(),
        X_valid=np.ascontiguousarray(X[a:b]),
        y_valid=y[a:b].copy(),
        X_test=np.ascontiguousarray(X[b:]),
        y_test=y[b:].copy(),
        edges=edges,
        costs=np.ones(len(edges)),
        true_support=np.sort(support),
        coef=coef,
        graph=graph,
        mu=float(mu),
    )
