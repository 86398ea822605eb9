"""graphsparse.compression on the issue's bad and degenerate inputs, and Ctrl-C / progress.

One test per item of issue #10's "Bad input" list: empty graphs, isolated vertices,
disconnected graphs, k >= n and k < 1, negative or NaN costs and priors, priors that do not
sum to one, a directed edge given in both directions. Each is a named error (a
``graphsparse.exceptions`` type whose message names the argument) or the behaviour the
docstrings state. Cancellation goes through the shared runner: a progress callback that
raises ``KeyboardInterrupt`` takes the same path as Ctrl-C (the run is cancelled, awaited
and the exception raised).
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np
import pytest

import graphsparse as gs
from graphsparse import _progress
from graphsparse import compression as gc
from graphsparse.exceptions import InvalidGraphError, InvalidParameterError

NO_EDGES = np.zeros((0, 2), dtype=np.int64)


def labelled(n: int, edges: list[tuple[int, int]], labels: str | None = None) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from((v, {"label": (labels or "a" * n)[v]}) for v in range(n))
    g.add_edges_from(edges, label="-")
    return g


COMPRESSORS = [
    gc.OTCompressor,
    gc.RECCompressor,
    gc.HeavyEdgeCompressor,
    gc.AlgebraicDistanceCompressor,
    gc.AffinityCompressor,
]


def make(cls: type, k: Any) -> Any:
    """``cls(k=k)``; the contraction baselines contract until the target (no level cap)."""
    return cls(k=k) if cls is gc.OTCompressor else cls(k=k, max_levels=None)


# ---------------------------------------------------------------------------- empty graphs


def test_empty_graphs() -> None:
    # no vertices: the only (empty) distributions are at distance 0; OTC keeps nothing
    assert gc.graph_ot_distance(NO_EDGES, [], [], []) == 0.0
    assert gc.otc_select(NO_EDGES, [], 1).kept.tolist() == []
    # vertices without edges: mass cannot move
    assert gc.graph_ot_distance(NO_EDGES, [], [0.5, 0.5], [0.5, 0.5]) == 0.0
    assert gc.graph_ot_distance(NO_EDGES, [], [1.0, 0.0], [0.0, 1.0]) == np.inf
    # an edgeless graph has the uniform prior: the first k vertices are kept
    assert gc.otc_select(NO_EDGES, [], 2, n_vertices=4).kept.tolist() == [0, 1]
    # a graph without vertices, and a collection without graphs, go through unchanged
    data = gs.from_networkx([nx.Graph(), labelled(3, [(0, 1), (1, 2)])])
    for cls in COMPRESSORS:
        out = make(cls, 1).fit_transform(data)
        assert out.n_vertices.tolist() == [0, 1]
        assert make(cls, 1).fit_transform([]) == []
    x = gc.WLSubtreeFeatures(n_iter=2).fit_transform(data)
    assert x.shape[0] == 2 and x[0].nnz == 0


# ------------------------------------------------------------------------ isolated vertices


def test_isolated_vertices() -> None:
    # mass cannot reach an isolated vertex; a zero mass there is fine
    edges = [(0, 1)]
    assert gc.graph_ot_distance(edges, [1.0], [0.5, 0.5, 0.0], [0.0, 0.5, 0.5]) == np.inf
    assert gc.graph_ot_distance(edges, [1.0], [0.5, 0.5, 0.0], [0.0, 1.0, 0.0]) == 0.5
    # the degree prior gives an isolated vertex no mass: OTC drops it first
    g = labelled(4, [(0, 1), (1, 2)], "aaab")
    assert gc.otc_select([(0, 1), (1, 2)], [0.01, 0.01], 3, n_vertices=4).kept.tolist() == [
        0,
        1,
        2,
    ]
    assert sorted(gc.OTCompressor(k=3).fit_transform([g])[0].nodes) == [0, 1, 2]
    # contraction cannot merge it: the path contracts, the isolated vertex stays
    out = gc.HeavyEdgeCompressor(k=2, max_levels=None).compress([g])
    assert out.dataset.n_vertices.tolist() == [2]
    assert out.assignment[0][3] not in out.assignment[0][:3]
    # WL counts it at every level (GraKeL's convention)
    x = gc.WLSubtreeFeatures(n_iter=2).fit_transform([g])
    assert x.sum() == 3 * 4


# ---------------------------------------------------------------------- disconnected graphs


def test_disconnected_graphs() -> None:
    edges, costs = [(0, 1), (2, 3)], [1.0, 2.0]
    # finite when every component keeps its mass, inf otherwise
    w = gc.graph_ot_distance(edges, costs, [0.25] * 4, [0.5, 0.0, 0.0, 0.5])
    assert w == pytest.approx(0.25 * 1.0 + 0.25 * 2.0, rel=1e-12)
    assert gc.graph_ot_distance(edges, costs, [0.25] * 4, [0.5, 0.5, 0.0, 0.0]) == np.inf
    # OTC and the baselines run per graph; OTC may drop a whole component
    g = labelled(6, [(0, 1), (1, 2), (3, 4), (4, 5)], "aabaab")
    for cls in COMPRESSORS:
        h = make(cls, 3).fit_transform([g])[0]
        assert h.number_of_nodes() == 3
    kept = gc.OTCompressor(k=3).compress([g]).kept[0]
    assert len(kept) == 3 and set(kept.tolist()) <= set(range(6))


# -------------------------------------------------------------------------------- k vs n


@pytest.mark.parametrize("k", [3, 4, 100, 2**63 - 1])
def test_k_at_least_n_keeps_the_graph(k: int) -> None:
    g = labelled(3, [(0, 1), (1, 2)], "abc")
    assert gc.otc_select([(0, 1), (1, 2)], [0.01, 0.02], k).kept.tolist() == [0, 1, 2]
    for cls in COMPRESSORS:
        h = make(cls, k).fit_transform([g])[0]
        assert sorted(h.nodes) == [0, 1, 2]
        assert h.number_of_edges() == 2


@pytest.mark.parametrize("k", [0, -1, -(2**40), 2**63, 2**64 + 1])
def test_k_outside_the_counts_is_an_error(k: int) -> None:
    match = r"k must be an integer in \[1, 2\*\*63\)"
    with pytest.raises(InvalidParameterError, match=match):
        gc.otc_select([(0, 1)], [1.0], k)
    # an array of k as uint64 too, whose 2**63 would wrap to a negative int64
    dtype = np.uint64 if 0 <= k < 2**64 else object
    for cls in COMPRESSORS:
        with pytest.raises(InvalidParameterError, match=match):
            cls(k=k).fit_transform([labelled(2, [(0, 1)])])
        with pytest.raises(InvalidParameterError, match="k must be"):
            cls(k=np.array([k], dtype=dtype if k >= 0 else np.int64)).fit_transform(
                [labelled(2, [(0, 1)])]
            )


# ---------------------------------------------------------------------- costs and priors


@pytest.mark.parametrize("bad", [-1.0, -1e-300, np.nan, np.inf, -np.inf])
def test_negative_or_nan_costs(bad: float) -> None:
    with pytest.raises(InvalidParameterError, match=r"costs\[1\]"):
        gc.graph_ot_distance([(0, 1), (1, 2)], [1.0, bad], [1, 0, 0], [0, 0, 1])
    with pytest.raises(InvalidParameterError, match=r"costs\[1\]"):
        gc.otc_select([(0, 1), (1, 2)], [1.0, bad], 1)
    for name in ("cost_same", "cost_different"):
        with pytest.raises(InvalidParameterError, match=name):
            gc.OTCompressor(k=1, **{name: bad}).fit_transform([labelled(2, [(0, 1)])])


@pytest.mark.parametrize("bad", [-0.5, np.nan, np.inf])
def test_negative_or_nan_priors(bad: float) -> None:
    rho = [bad, 0.5, 0.5]
    ok = [0.0, 0.5, 0.5]
    with pytest.raises(InvalidParameterError, match=r"rho0\[0\]"):
        gc.graph_ot_distance([(0, 1), (1, 2)], [1.0, 1.0], rho, ok)
    with pytest.raises(InvalidParameterError, match=r"rho1\[0\]"):
        gc.graph_ot_distance([(0, 1), (1, 2)], [1.0, 1.0], ok, rho)
    with pytest.raises(InvalidParameterError, match=r"rho0\[0\]"):
        gc.otc_select([(0, 1), (1, 2)], [1.0, 1.0], 1, rho0=rho)


@pytest.mark.parametrize("scale", [0.5, 1.0 + 1e-6, 2.0, 0.0])
def test_priors_not_summing_to_one(scale: float) -> None:
    rho = [scale * 0.5, scale * 0.5]
    with pytest.raises(InvalidParameterError, match="rho0 must sum to 1"):
        gc.graph_ot_distance([(0, 1)], [1.0], rho, [0.5, 0.5])
    with pytest.raises(InvalidParameterError, match="rho1 must sum to 1"):
        gc.graph_ot_distance([(0, 1)], [1.0], [0.5, 0.5], rho)
    with pytest.raises(InvalidParameterError, match="rho0 must sum to 1"):
        gc.otc_select([(0, 1)], [1.0], 1, rho0=rho)
    # within the documented 1e-9 the prior is accepted
    assert gc.graph_ot_distance([(0, 1)], [1.0], [0.5, 0.5 + 1e-12], [0.5, 0.5]) < 1e-11


# ------------------------------------------------------------- both directions of an edge


def test_directed_edge_in_both_directions() -> None:
    # directed: two edges, each with its own cost
    edges, costs = [(0, 1), (1, 0)], [1.0, 3.0]
    assert gc.graph_ot_distance(edges, costs, [1, 0], [0, 1], directed=True) == 1.0
    assert gc.graph_ot_distance(edges, costs, [0, 1], [1, 0], directed=True) == 3.0
    # one direction only: the other way is unreachable
    assert gc.graph_ot_distance([(0, 1)], [1.0], [0, 1], [1, 0], directed=True) == np.inf
    # mixed: a directed and an undirected edge on the same pair both count (cheaper binds)
    mask = np.array([True, False])
    assert gc.graph_ot_distance(edges, [1.0, 3.0], [1, 0], [0, 1], directed=mask) == 1.0
    assert gc.graph_ot_distance(edges, [1.0, 3.0], [0, 1], [1, 0], directed=mask) == 3.0
    # undirected: the pair given both ways is one edge with the cheaper cost
    assert gc.graph_ot_distance(edges, costs, [0, 1], [1, 0]) == 1.0
    # compression needs undirected graphs: a directed networkx graph is a named error
    with pytest.raises(InvalidGraphError, match="directed"):
        gc.OTCompressor(k=1).fit_transform([nx.DiGraph([(0, 1), (1, 0)])])


# ------------------------------------------------------------------ Ctrl-C and progress


class _Interrupt:
    """A progress callback that records the counters and raises on its first call."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def __call__(self, *counters: Any) -> None:
        self.calls.append(counters)
        raise KeyboardInterrupt

    def close(self) -> None:
        pass


def _interrupt(monkeypatch: pytest.MonkeyPatch) -> _Interrupt:
    cb = _Interrupt()
    # every long call takes its reporter through _progress.run_reported
    monkeypatch.setattr(_progress, "reporter", lambda verbose, *args: cb if verbose else None)
    return cb


def test_wl_features_are_cancelled_mid_run(data_dir, monkeypatch: pytest.MonkeyPatch) -> None:
    data = gs.load_tu(data_dir / "tu" / "Mutagenicity", "Mutagenicity")
    h = 60
    cb = _interrupt(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        gc.WLSubtreeFeatures(n_iter=h, n_jobs=1, verbose=True).fit_transform(data)
    # (nodes, iterations, stage, stages, value, seconds) at the first report: not finished
    _, _, stage, stages, _, _ = cb.calls[0]
    assert stages == h + 1 and stage < stages
    # fitted on all graphs, so that transform has every level's work to do (with a vocabulary
    # of two graphs it can finish within the runner's first 100 ms on a quiet machine)
    wl = gc.WLSubtreeFeatures(n_iter=h, n_jobs=1).fit(data)
    cb = _interrupt(monkeypatch)
    wl.set_params(verbose=True)
    with pytest.raises(KeyboardInterrupt):
        wl.transform(data)
    assert cb.calls[0][2] < cb.calls[0][3]


def test_compression_is_cancelled_mid_run(data_dir, monkeypatch: pytest.MonkeyPatch) -> None:
    data = gs.load_tu(data_dir / "tu" / "Mutagenicity", "Mutagenicity")
    cb = _interrupt(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        gc.OTCompressor(ratio=0.5, n_iter=400, n_jobs=1, verbose=True).fit_transform(data)
    # stage counts the graphs done (stages is 0 until the first one is)
    _, _, stage, stages, _, _ = cb.calls[0]
    assert stages in (0, len(data)) and stage < len(data)


def test_wl_progress_lines(capsys: pytest.CaptureFixture[str]) -> None:
    g = labelled(3, [(0, 1), (1, 2)], "aba")
    gc.WLSubtreeFeatures(n_iter=3, verbose=2).fit_transform([g])
    err = capsys.readouterr().err
    assert "WLSubtreeFeatures" in err and "step 4/4" in err
    with pytest.raises(InvalidParameterError, match="verbose"):
        gc.WLSubtreeFeatures(verbose="loud").fit_transform([g])
