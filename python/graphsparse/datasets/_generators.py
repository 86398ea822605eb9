"""The synthetic graph classification data of :func:`make_subgraph_classification`."""

from __future__ import annotations

import numbers
import sys

import networkx as nx
import numpy as np

from .._dataset import GraphDataset, from_networkx
from .._validation import as_count, as_real, as_rng
from ..exceptions import InvalidParameterError


def make_subgraph_classification(
    n_samples: int = 200,
    n_pool_a: int = 5,
    n_pool_b: int = 5,
    p1: float = 0.3,
    q1: float = 0.1,
    p2: float = 0.1,
    q2: float = 0.3,
    n_vertex_labels: int = 5,
    n_edge_labels: int = 5,
    mean_growth: float = 3.0,
    random_state: int | None = 0,
) -> GraphDataset:
    """Random graph classification data with planted subgraph motifs (Takigawa & Mamitsuka).

    ``n_pool_a + n_pool_b`` distinct seed graphs are grown from single random edges (each grows
    ``a ~ Poisson(mean_growth)`` steps, redrawn while ``a < 2``; a step joins a random vertex to a
    non-adjacent vertex or to a new one). A positive graph contains each seed of pool A with
    probability ``p1`` and each of pool B with ``q1``; a negative one uses ``p2`` and ``q2``. The
    chosen seeds are joined into one connected graph by one random edge per seed. Half the samples
    are positive (``y = 1``), half negative (``y = 0``); graphs with no seed get one random seed.

    Returns
    -------
    GraphDataset
        ``y`` in ``{0, 1}``; reproducible for a given ``random_state``.
    """
    n_samples = as_count(n_samples, "n_samples", 2)
    n_pool_a = as_count(n_pool_a, "n_pool_a")
    n_pool_b = as_count(n_pool_b, "n_pool_b")
    if n_pool_a + n_pool_b < 1:
        raise InvalidParameterError("n_pool_a + n_pool_b must be at least 1")
    for name, value in (("p1", p1), ("q1", q1), ("p2", p2), ("q2", q2)):
        if not (isinstance(value, numbers.Real) and 0.0 <= value <= 1.0):
            raise InvalidParameterError(f"{name} must be a probability in [0, 1], got {value!r}")
    n_vertex_labels = as_count(n_vertex_labels, "n_vertex_labels", 1)
    n_edge_labels = as_count(n_edge_labels, "n_edge_labels", 1)
    if not 0.0 < as_real(mean_growth, "mean_growth") <= _MAX_MEAN_GROWTH:
        raise InvalidParameterError(
            f"mean_growth must be in (0, {_MAX_MEAN_GROWTH:g}], got {mean_growth!r}"
        )
    rng = as_rng(random_state)
    seeds: list[nx.Graph] = []
    n_seeds = n_pool_a + n_pool_b
    attempts = 0
    while len(seeds) < n_seeds:
        attempts += 1
        if attempts > 1000 * n_seeds:
            raise InvalidParameterError(
                "could not draw enough distinct seed graphs; use more labels or fewer seeds"
            )
        g = _grow_seed(rng, n_vertex_labels, n_edge_labels, mean_growth)
        if not any(_same_labeled_graph(g, s) for s in seeds):
            seeds.append(g)
    graphs: list[nx.Graph] = []
    y = np.zeros(n_samples, dtype=np.int64)
    n_pos = n_samples // 2
    for i in range(n_samples):
        positive = i < n_pos
        pa, pb = (p1, q1) if positive else (p2, q2)
        chosen = [k for k in range(n_seeds) if rng.random() < (pa if k < n_pool_a else pb)]
        if not chosen:
            chosen = [int(rng.integers(n_seeds))]
        graphs.append(_combine([seeds[k] for k in chosen], rng, n_edge_labels))
        y[i] = 1 if positive else 0
    order = rng.permutation(n_samples)
    return from_networkx([graphs[i] for i in order], y=y[order])


def _grow_seed(rng: np.random.Generator, nv: int, ne: int, mean: float) -> nx.Graph:
    g = nx.Graph()
    g.add_node(0, label=int(rng.integers(nv)))
    g.add_node(1, label=int(rng.integers(nv)))
    g.add_edge(0, 1, label=int(rng.integers(ne)))
    for _ in range(_poisson_at_least_two(rng, mean)):
        u = int(rng.integers(g.number_of_nodes()))
        candidates = [w for w in g.nodes if w != u and not g.has_edge(u, w)]
        if candidates and rng.random() < 0.5:
            w = candidates[int(rng.integers(len(candidates)))]
        else:
            w = g.number_of_nodes()
            g.add_node(w, label=int(rng.integers(nv)))
        g.add_edge(u, w, label=int(rng.integers(ne)))
    return g


# a seed grown by 10^4 steps is already far larger than any motif this generator is for
_MAX_MEAN_GROWTH = 1e4


def _poisson_at_least_two(rng: np.random.Generator, mean: float) -> int:
    """A draw of ``Poisson(mean)`` conditioned on ``>= 2``."""
    if mean >= 1.0:  # P(>= 2) >= 0.26: redraw until it holds
        steps = int(rng.poisson(mean))
        while steps < 2:
            steps = int(rng.poisson(mean))
        return steps
    # a small mean would need ~2/mean² redraws: invert the truncated law's CDF instead, with
    # its terms taken relative to P(2) (they fall factorially, so the sums end quickly)
    terms = [1.0]
    while terms[-1] > 1e-17 * sum(terms):
        terms.append(terms[-1] * mean / (len(terms) + 2))
    u = rng.random() * sum(terms)
    acc = 0.0
    for k, t in enumerate(terms):
        acc += t
        if u < acc:
            return k + 2
    return len(terms) + 1


def _same_labeled_graph(a: nx.Graph, b: nx.Graph) -> bool:
    match = nx.algorithms.isomorphism.categorical_node_match("label", None)
    ematch = nx.algorithms.isomorphism.categorical_edge_match("label", None)
    # networkx's VF2 raises the interpreter's recursion limit for large graphs and leaves it
    # raised: put it back, a data generator must not change the caller's process
    limit = sys.getrecursionlimit()
    try:
        return nx.is_isomorphic(a, b, node_match=match, edge_match=ematch)
    finally:
        sys.setrecursionlimit(limit)


def _combine(parts: list[nx.Graph], rng: np.random.Generator, ne: int) -> nx.Graph:
    g = nx.Graph()
    for part in parts:
        offset = g.number_of_nodes()
        existing = offset
        g = nx.union(g, nx.relabel_nodes(part, {v: v + offset for v in part.nodes}))
        if existing:
            u = int(rng.integers(existing))
            w = offset + int(rng.integers(part.number_of_nodes()))
            g.add_edge(u, w, label=int(rng.integers(ne)))
    return g
