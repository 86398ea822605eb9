"""The compressed-sensing experiment of Kuroda & Kitahara (§4): a random connected regular graph,
a signal on disjoint connected subgraphs, Gaussian measurements and white noise at a given SNR.

Choices where the paper is silent (spec ``convex-recovery.md`` §5.1): subgraph sizes are a
uniform composition of ``support_size`` into ``n_subgraphs`` positive parts; a subgraph grows
from a uniform random vertex by picking a uniform random member and adding its new neighbours
in random order (``growth="neighbours"``) or one random new neighbour (``growth="single"``);
overlapping subgraphs redraw sizes and subgraphs (adjacent ones are kept); the noise variance
is ``‖x*‖²/10^{SNR/10}`` (``snr_mode="conditional"``: ``E_A‖A x*‖² = J‖x*‖²``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import networkx as nx
import numpy as np
import numpy.typing as npt

from .._validation import as_count, as_real, as_rng
from ..exceptions import InvalidParameterError

__all__ = ["GraphRecoveryProblem", "make_graph_structured_recovery"]

_GROWTH = ("neighbours", "single")
_SNR_MODES = ("conditional", "expected", "realized")
_MAX_TRIES = 10_000


class GraphRecoveryProblem(NamedTuple):
    """One draw of the experiment (unpacks as ``A, y, x_true, edges, supports``).

    Attributes
    ----------
    A : ndarray of float64, shape (n_measurements, n_nodes)
        The measurement matrix, i.i.d. N(0, 1).
    y : ndarray of float64, shape (n_measurements,)
        ``A @ x_true + noise``.
    x_true : ndarray of float64, shape (n_nodes,)
        N(0, 1) amplitudes on the support, 0 elsewhere.
    edges : ndarray of int64, shape (n_nodes * degree / 2, 2)
        The graph.
    supports : list of ndarray of int64
        The vertices of each subgraph, sorted (pairwise disjoint, each connected).
    """

    A: npt.NDArray[np.float64]
    y: npt.NDArray[np.float64]
    x_true: npt.NDArray[np.float64]
    edges: npt.NDArray[np.int64]
    supports: list[npt.NDArray[np.int64]]


def _grow(
    adj: list[list[int]], size: int, growth: str, rng: np.random.Generator
) -> list[int] | None:
    """A connected vertex set of ``size`` grown from a random vertex (``None`` if stuck)."""
    n = len(adj)
    start = int(rng.integers(n))
    members = [start]
    inside = {start}
    while len(members) < size:
        v = members[int(rng.integers(len(members)))]
        new = [u for u in adj[v] if u not in inside]
        if not new:
            if all(u in inside for w in members for u in adj[w]):
                return None
            continue
        if growth == "single":
            new = [new[int(rng.integers(len(new)))]]
        else:
            new = [new[k] for k in rng.permutation(len(new))]
        for u in new:
            if len(members) == size:
                break
            members.append(u)
            inside.add(u)
    return members


def make_graph_structured_recovery(
    n_nodes: int = 500,
    degree: int = 3,
    n_measurements: int = 350,
    snr_db: float = 40.0,
    support_size: int = 150,
    n_subgraphs: int = 2,
    growth: str = "neighbours",
    snr_mode: str = "conditional",
    random_state: int | np.random.Generator | None = None,
) -> GraphRecoveryProblem:
    """Draw one instance of the paper's experiment (Kuroda & Kitahara, §4).

    Parameters
    ----------
    n_nodes : int, default=500
        Vertices ``N`` (= unknowns).
    degree : int, default=3
        Degree of the random regular graph (``n_nodes * degree`` must be even).
    n_measurements : int, default=350
        Rows ``J`` of ``A`` (the paper's ``d``).
    snr_db : float, default=40.0
        Signal-to-noise ratio in decibels.
    support_size : int, default=150
        Total number of non-zeros, split over the subgraphs.
    n_subgraphs : int, default=2
        Number of disjoint connected subgraphs (each of at least one vertex).
    growth : {"neighbours", "single"}, default="neighbours"
        Add all new neighbours of a random member at once, or one of them.
    snr_mode : {"conditional", "expected", "realized"}, default="conditional"
        Noise variance ``‖x*‖²/10^{snr/10}``, ``support_size/10^{snr/10}`` (expectation over
        ``x*`` too) or ``‖A x*‖²/(J·10^{snr/10})`` (this draw of ``A``).
    random_state : int, numpy Generator or None
        Seed of ``numpy.random.default_rng``; graphs are drawn with a seed taken from it.

    Returns
    -------
    GraphRecoveryProblem
        ``(A, y, x_true, edges, supports)``.

    Raises
    ------
    InvalidParameterError
        For non-positive sizes, ``support_size`` above ``n_nodes`` or below ``n_subgraphs``,
        an odd ``n_nodes * degree``, ``degree >= n_nodes``, a non-finite ``snr_db``, an unknown
        ``growth``/``snr_mode``, or when no disjoint subgraphs are found in 10 000 draws.

    Examples
    --------
    >>> from graphsparse.datasets import make_graph_structured_recovery
    >>> A, y, x, edges, supports = make_graph_structured_recovery(
    ...     n_nodes=60, n_measurements=30, support_size=12, random_state=0)
    >>> A.shape, int((x != 0).sum()), sum(len(s) for s in supports)
    ((30, 60), 12, 12)
    """
    n = as_count(n_nodes, "n_nodes", 1)
    k = as_count(degree, "degree", 1)
    j = as_count(n_measurements, "n_measurements", 1)
    s = as_count(support_size, "support_size", 1)
    g = as_count(n_subgraphs, "n_subgraphs", 1)
    if k >= n or (n * k) % 2:
        raise InvalidParameterError(
            f"degree must be < n_nodes with n_nodes * degree even, got degree={k}, n_nodes={n}"
        )
    if k == 1 and n > 2:
        # a 1-regular graph is a perfect matching: connected only on two vertices
        raise InvalidParameterError(f"degree=1 has no connected graph on n_nodes={n} > 2")
    if s > n or g > s:
        raise InvalidParameterError(
            f"need n_subgraphs <= support_size <= n_nodes, got {g}, {s}, {n}"
        )
    snr = as_real(snr_db, "snr_db")
    if not np.isfinite(snr):
        raise InvalidParameterError(f"snr_db must be finite, got {snr_db!r}")
    try:
        ratio = 10.0 ** (snr / 10.0)
    except OverflowError:  # so high a ratio that the noise is exactly zero
        ratio = math.inf
    if ratio == 0.0:  # so low that it underflows
        raise InvalidParameterError(f"snr_db={snr_db!r} is too low: the noise variance overflows")
    if growth not in _GROWTH:
        raise InvalidParameterError(f"growth must be one of {_GROWTH}, got {growth!r}")
    if snr_mode not in _SNR_MODES:
        raise InvalidParameterError(f"snr_mode must be one of {_SNR_MODES}, got {snr_mode!r}")
    rng = as_rng(random_state)

    for _ in range(_MAX_TRIES):
        graph = nx.random_regular_graph(k, n, seed=int(rng.integers(2**31)))
        if nx.is_connected(graph):
            break
    else:
        raise InvalidParameterError(
            f"no connected {k}-regular graph on {n} nodes found in {_MAX_TRIES} draws; raise degree"
        )
    adj = [sorted(graph.neighbors(v)) for v in range(n)]
    edges = np.asarray(sorted(tuple(sorted(e)) for e in graph.edges()), dtype=np.int64)
    edges = edges.reshape(-1, 2)

    for _ in range(_MAX_TRIES):
        cuts = np.sort(rng.choice(np.arange(1, s), size=g - 1, replace=False))
        sizes = np.diff(np.concatenate([[0], cuts, [s]])).astype(int)
        parts = [_grow(adj, int(size), growth, rng) for size in sizes]
        if any(p is None for p in parts):
            continue
        flat = [v for p in parts if p is not None for v in p]
        if len(set(flat)) == s:
            break
    else:
        raise InvalidParameterError(
            f"no {g} disjoint connected subgraphs of total size {s} found in {_MAX_TRIES} draws"
        )
    supports = [np.sort(np.asarray(p, dtype=np.int64)) for p in parts if p is not None]

    x = np.zeros(n)
    support = np.sort(np.concatenate(supports))
    x[support] = rng.standard_normal(s)
    a = rng.standard_normal((j, n))
    clean = a @ x
    if snr_mode == "conditional":
        var = float(x @ x) / ratio
    elif snr_mode == "expected":
        var = s / ratio
    else:
        var = float(clean @ clean) / (j * ratio)
    if not np.isfinite(var):
        raise InvalidParameterError(f"snr_db={snr_db!r} is too low: the noise variance overflows")
    y = clean + np.sqrt(var) * rng.standard_normal(j)
    return GraphRecoveryProblem(a, y, x, edges, supports)
