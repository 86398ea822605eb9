"""Streaming (iter_subgraphs), the pattern budget (max_patterns) and occurrence counts."""

from __future__ import annotations

import _thread
import gc
import pickle
import signal
import threading
import time
import warnings
from collections import Counter
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import graphsparse as gs
from graphsparse import _graphsparse as _rs
from graphsparse.exceptions import (
    BudgetExceededError,
    InvalidParameterError,
    TruncatedSearchWarning,
)
from graphsparse.mining import MiningResult, Pattern
from graphsparse.testing.reference.subgraphs import occurrence_counts
from graphsparse.testing.strategies import graph_databases

small_dbs = graph_databases(min_graphs=1, max_graphs=6, max_vertices=7).filter(
    lambda gs_: all(g.number_of_edges() <= 9 for g in gs_)
)
# few labels, dense: many automorphisms and overlapping occurrences
dense_dbs = graph_databases(
    min_graphs=1, max_graphs=4, max_vertices=6, n_vertex_labels=2, n_edge_labels=1
).filter(lambda gs_: all(g.number_of_edges() <= 9 for g in gs_))


def _key(p: Pattern) -> tuple:
    counts = None if p.counts is None else tuple(p.counts.tolist())
    return (p.dfs_code, p.vertex_labels, p.support, tuple(p.graph_ids.tolist()), counts)


def _as_graph(g: nx.Graph) -> nx.Graph:
    """``g`` with a label on every vertex and edge (0 where missing), as the miner reads it."""
    h = nx.Graph()
    h.add_nodes_from((v, {"label": d.get("label", 0)}) for v, d in g.nodes(data=True))
    h.add_edges_from((u, v, {"label": d.get("label", 0)}) for u, v, d in g.edges(data=True))
    return h


# -- streaming == list ------------------------------------------------------------------------


@settings(max_examples=40)
@given(
    small_dbs,
    st.integers(1, 3),
    st.sampled_from([None, 2, 4]),
    st.booleans(),
    st.sampled_from([1, 2]),
    st.sampled_from([None, "embeddings", "vertex_sets"]),
)
def test_stream_equals_list_as_multiset(graphs, min_support, max_size, single, n_jobs, counts):
    min_support = min(min_support, len(graphs))
    kw = dict(max_size=max_size, single_vertices=single, counts=counts)
    listed = gs.mine_subgraphs(graphs, min_support, n_jobs=1, **kw)
    streamed = list(gs.iter_subgraphs(graphs, min_support, n_jobs=n_jobs, **kw))
    assert all(isinstance(p, Pattern) for p in streamed)
    assert Counter(map(_key, streamed)) == Counter(map(_key, listed))


def test_stream_equals_list_on_mutag(data_dir):
    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")
    listed = gs.mine_subgraphs(mutag, 40, n_jobs=2)
    for n_jobs in (1, 2):
        streamed = list(gs.iter_subgraphs(mutag, 40, n_jobs=n_jobs))
        assert len(streamed) == len(listed) > 1000
        assert Counter(map(_key, streamed)) == Counter(map(_key, listed))
    # serially, the stream comes in the list's order (increasing DFS code)
    serial = list(gs.iter_subgraphs(mutag, 40, n_jobs=1))
    assert [p.dfs_code for p in serial] == [p.dfs_code for p in listed]


def test_stream_batches_are_bounded_while_consumed_slowly(data_dir):
    # the search waits for the consumer: after one pattern, far fewer than all are decoded
    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")
    stream = _rs.iter_subgraphs(mutag._db, _params(min_support=19), 2)
    first = next(stream)
    time.sleep(0.3)
    assert not stream.finished
    assert 0 < len(first.support) <= 256
    stream.close()
    assert stream.finished and stream.truncation == "cancelled"


def _params(**kw):
    p = {
        "min_support": 1,
        "max_size": None,
        "single_vertices": False,
        "max_nodes": None,
        "time_limit": None,
    }
    p.update(kw)
    return p


def _search_threads() -> int:
    """Live search threads of streams (Rust threads: Linux lists them under /proc)."""
    tasks = Path("/proc/self/task")
    if not tasks.is_dir():
        pytest.skip("needs /proc to see the search threads")
    n = 0
    for t in tasks.iterdir():
        try:
            comm = (t / "comm").read_text().strip()
        except OSError:  # the thread ended meanwhile
            continue
        n += comm.startswith("graphsparse-str")  # "graphsparse-stream", cut to 15 bytes
    return n


def test_closing_a_stream_early_stops_the_search(data_dir):
    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")
    t0 = time.perf_counter()
    it = gs.iter_subgraphs(mutag, 2, n_jobs=2)  # millions of patterns: minutes to finish
    first = [next(it) for _ in range(5)]
    assert len(first) == 5
    it.close()
    assert time.perf_counter() - t0 < 30
    # the same through the binding: close() cancels and joins, the reason says so
    stream = _rs.iter_subgraphs(mutag._db, _params(min_support=2), 2)
    next(stream)
    stream.close()
    assert stream.finished
    assert stream.truncation == "cancelled"
    stream.close()  # idempotent
    with pytest.raises(StopIteration):
        next(stream)


def test_dropping_an_unfinished_stream_stops_its_thread(data_dir):
    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")
    it = gs.iter_subgraphs(mutag, 2, n_jobs=1)
    next(it)
    del it
    gc.collect()
    stream = _rs.iter_subgraphs(mutag._db, _params(min_support=2), 1)
    next(stream)
    del stream
    gc.collect()
    assert _no_search_threads_left()


def test_a_long_search_streams_and_ctrl_c_stops_it(data_dir):
    # MUTAG at support 1: millions of patterns, far more than a second's worth, each node cheap.
    # (Unlabelled K9 was used first: its minimum-code checks are not polled for cancellation, so
    # on a fast machine the search outlived the Ctrl-C by minutes: a known limit, see issue 27.)
    # Python's own Ctrl-C handler: an earlier test's library (Dask) may have replaced it, and
    # then the simulated Ctrl-C below never becomes a KeyboardInterrupt (the full suite hung)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _interrupt_a_long_search(data_dir)
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupt_a_long_search(data_dir) -> None:
    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")
    it = gs.iter_subgraphs(mutag, 1, n_jobs=1)
    t0 = time.monotonic()
    next(it)  # part-filled batches are sent, the first within seconds
    assert time.monotonic() - t0 < 30
    timer = threading.Timer(0.5, _thread.interrupt_main)  # Ctrl-C, as the signal handler sees it
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        for _ in it:
            pass
    timer.join()
    assert time.monotonic() - t0 < 60
    assert _no_search_threads_left()


def _no_search_threads_left() -> bool:
    deadline = time.monotonic() + 10
    while _search_threads() and time.monotonic() < deadline:
        time.sleep(0.05)
    return _search_threads() == 0


def test_a_stream_never_started_starts_no_search():
    graphs = gs.datasets.make_subgraph_classification(20, random_state=0)
    assert _no_search_threads_left()
    it = gs.iter_subgraphs(graphs, 2)
    assert _search_threads() == 0
    del it


@pytest.mark.timeout(300)
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_the_consumer_may_mine_while_a_stream_waits(data_dir, n_jobs):
    # the stream's workers block on a full queue; calls made between two patterns must not need
    # them (a shared pool would deadlock here)
    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")
    small = gs.datasets.make_subgraph_classification(20, random_state=0)
    want = len(gs.mine_subgraphs(small, 2, n_jobs=n_jobs))
    stream = gs.iter_subgraphs(mutag, 10, n_jobs=n_jobs)
    for k, _ in enumerate(stream):
        if k % 2000 == 0:
            time.sleep(0.05)  # let the queue fill
            assert len(gs.mine_subgraphs(small, 2, n_jobs=n_jobs)) == want
        if k == 10_000:
            break
    stream.close()
    assert _no_search_threads_left()


def test_stream_arguments_are_checked_when_called():
    graphs = gs.datasets.make_subgraph_classification(10, random_state=0)
    with pytest.raises(InvalidParameterError, match="max_patterns"):
        gs.iter_subgraphs(graphs, 2, max_patterns=-1)
    with pytest.raises(InvalidParameterError, match="counts"):
        gs.iter_subgraphs(graphs, 2, counts="edges")
    with pytest.raises(InvalidParameterError, match="min_support"):
        gs.iter_subgraphs(graphs, 0)


def test_stream_budgets_warn_after_the_last_pattern():
    graphs = gs.datasets.make_subgraph_classification(60, random_state=2)
    with pytest.warns(TruncatedSearchWarning, match="max_nodes"):
        cut = list(gs.iter_subgraphs(graphs, 2, max_nodes=10))
    assert 0 < len(cut) <= 10
    with pytest.raises(BudgetExceededError):
        list(gs.iter_subgraphs(graphs, 2, max_nodes=10, strict=True))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        full = list(gs.iter_subgraphs(graphs, 2))
    assert len(full) == len(gs.mine_subgraphs(graphs, 2))


# -- max_patterns ------------------------------------------------------------------------------


@pytest.mark.parametrize("limit", [0, 1, 7, 100])
def test_max_patterns_keeps_the_first_patterns_for_any_thread_count(limit):
    graphs = gs.datasets.make_subgraph_classification(60, random_state=2)
    full = gs.mine_subgraphs(graphs, 2, n_jobs=1)
    assert len(full) > 100
    want = [_key(p) for p in full[:limit]]
    for n_jobs in (1, 2):
        with pytest.warns(TruncatedSearchWarning, match="max_patterns"):
            cut = gs.mine_subgraphs(graphs, 2, n_jobs=n_jobs, max_patterns=limit)
        assert (cut.truncated, cut.truncation) == (True, "max_patterns")
        assert [_key(p) for p in cut] == want


def test_max_patterns_at_or_above_the_count_is_no_truncation():
    graphs = gs.datasets.make_subgraph_classification(30, random_state=1)
    full = gs.mine_subgraphs(graphs, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        same = gs.mine_subgraphs(graphs, 3, max_patterns=len(full))
        more = gs.mine_subgraphs(graphs, 3, max_patterns=len(full) + 1, n_jobs=2)
    for r in (same, more):
        assert r.truncated is False and r.truncation is None
        assert [_key(p) for p in r] == [_key(p) for p in full]
    with pytest.raises(BudgetExceededError, match="max_patterns"):
        gs.mine_subgraphs(graphs, 3, max_patterns=len(full) - 1, strict=True)


@settings(max_examples=30)
@given(small_dbs, st.integers(0, 12), st.sampled_from([1, 2]))
def test_max_patterns_is_a_prefix_of_the_full_list(graphs, limit, n_jobs):
    full = gs.mine_subgraphs(graphs, 1, n_jobs=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TruncatedSearchWarning)
        cut = gs.mine_subgraphs(graphs, 1, n_jobs=n_jobs, max_patterns=limit)
    assert [_key(p) for p in cut] == [_key(p) for p in full[:limit]]
    assert cut.truncated == (len(full) > limit)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TruncatedSearchWarning)
        streamed = list(gs.iter_subgraphs(graphs, 1, n_jobs=n_jobs, max_patterns=limit))
    assert len(streamed) == min(limit, len(full))
    assert set(map(_key, streamed)) <= set(map(_key, full))


def test_max_patterns_on_mutag_stops_early(data_dir):
    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")
    with pytest.warns(TruncatedSearchWarning, match="max_patterns"):
        cut = gs.mine_subgraphs(mutag, 2, max_patterns=500, n_jobs=2)
    assert len(cut) == 500  # of millions: the search stopped after them
    assert cut.nodes_visited < 50_000
    small = gs.mine_subgraphs(mutag, 40, n_jobs=2)
    with pytest.warns(TruncatedSearchWarning, match="max_patterns"):
        first = gs.mine_subgraphs(mutag, 40, max_patterns=300, n_jobs=2)
    assert [_key(p) for p in first] == [_key(p) for p in small[:300]]


# -- occurrence counts ---------------------------------------------------------------------------


@settings(max_examples=40)
@given(dense_dbs | small_dbs, st.integers(1, 2), st.booleans(), st.sampled_from([1, 2]))
def test_counts_match_brute_force_monomorphisms(graphs, min_support, single, n_jobs):
    min_support = min(min_support, len(graphs))
    emb = gs.mine_subgraphs(
        graphs, min_support, single_vertices=single, counts="embeddings", n_jobs=n_jobs
    )
    vs = gs.mine_subgraphs(
        graphs, min_support, single_vertices=single, counts="vertex_sets", n_jobs=n_jobs
    )
    assert [p.dfs_code for p in emb] == [p.dfs_code for p in vs]
    full = [_as_graph(g) for g in graphs]
    for p, q in zip(emb, vs, strict=True):
        h = p.to_networkx()
        assert p.counts.shape == p.graph_ids.shape
        for gid, n_emb, n_sets in zip(p.graph_ids, p.counts, q.counts, strict=True):
            assert (n_emb, n_sets) == occurrence_counts(h, full[gid])
        # and no occurrence in the other graphs
        others = set(range(len(graphs))) - set(p.graph_ids.tolist())
        assert all(occurrence_counts(h, full[g]) == (0, 0) for g in others)


def test_counts_of_a_symmetric_pattern():
    # K4 with one label: a triangle maps 24 ways onto 4 vertex sets; a 4-cycle 24 ways onto one
    k4 = nx.complete_graph(4)
    res = gs.mine_subgraphs([k4], 1, counts="embeddings")
    vs = gs.mine_subgraphs([k4], 1, counts="vertex_sets")
    by_graph = {
        tuple(sorted(d for _, d in p.to_networkx().degree())): (int(p.counts[0]), int(q.counts[0]))
        for p, q in zip(res, vs, strict=True)
        if p.n_edges in (3, 4)
    }
    assert by_graph[(2, 2, 2)] == (24, 4)  # triangle
    assert by_graph[(2, 2, 2, 2)] == (24, 1)  # 4-cycle
    assert by_graph[(1, 1, 1, 3)] == (24, 1)  # star K1,3: 4 centres, 3! leaf orders


def test_counts_survive_pickling_and_are_read_only():
    res = gs.mine_subgraphs([nx.cycle_graph(3), nx.path_graph(3)], 1, counts="embeddings")
    p = res[0]
    assert pickle.loads(pickle.dumps(p)).counts.tolist() == p.counts.tolist()
    with pytest.raises(ValueError):
        p.counts[0] = 5
    assert gs.mine_subgraphs([nx.cycle_graph(3)], 1)[0].counts is None
    with pytest.raises(InvalidParameterError, match="counts"):
        Pattern((), 1, [0, 1], ("a",), counts=[1])


def test_mutag_counts_match_brute_force_on_a_sample(data_dir):
    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")
    res = gs.mine_subgraphs(mutag, 150, counts="embeddings", n_jobs=2)
    vs = gs.mine_subgraphs(mutag, 150, counts="vertex_sets", n_jobs=2)
    graphs = mutag.graphs
    rng = np.random.default_rng(0)
    for k in rng.choice(len(res), size=min(12, len(res)), replace=False):
        p, q = res[int(k)], vs[int(k)]
        h = p.to_networkx()
        for j in rng.choice(len(p.graph_ids), size=3, replace=False):
            g = graphs[int(p.graph_ids[j])]
            assert (p.counts[j], q.counts[j]) == occurrence_counts(h, g)


# -- count matrix --------------------------------------------------------------------------------


@settings(max_examples=30)
@given(small_dbs, st.sampled_from(["embeddings", "vertex_sets"]))
def test_count_matrix_equals_brute_force(graphs, kind):
    res = gs.mine_subgraphs(graphs, 1, counts=kind, max_size=4)
    m = res.count_matrix()
    assert sp.issparse(m) and m.format == "csr"
    assert m.shape == (len(res), len(graphs))
    full = [_as_graph(g) for g in graphs]
    col = 0 if kind == "embeddings" else 1
    want = np.array(
        [[occurrence_counts(p.to_networkx(), g)[col] for g in full] for p in res], dtype=np.int64
    ).reshape(len(res), len(graphs))
    np.testing.assert_array_equal(m.toarray(), want)
    assert m.nnz == int((want != 0).sum())  # no explicit zeros
    np.testing.assert_array_equal(res.count_matrix(binary=True).toarray(), (want > 0))
    # the binary matrix needs no counts, and is the transpose of pattern_matrix
    plain = gs.mine_subgraphs(graphs, 1, max_size=4)
    np.testing.assert_array_equal(
        plain.count_matrix(binary=True).toarray().T,
        gs.mining.pattern_matrix(plain, len(graphs), dtype=np.int64),
    )


def test_count_matrix_errors_and_sizes():
    graphs = [nx.cycle_graph(3), nx.path_graph(2)]
    plain = gs.mine_subgraphs(graphs, 1)
    with pytest.raises(InvalidParameterError, match="counts"):
        plain.count_matrix()
    assert plain.n_graphs == 2
    assert plain.count_matrix(binary=True, n_graphs=5).shape == (len(plain), 5)
    with pytest.raises(InvalidParameterError, match="n_graphs"):
        plain.count_matrix(binary=True, n_graphs=1)
    bare = MiningResult(list(plain))
    with pytest.raises(InvalidParameterError, match="n_graphs"):
        bare.count_matrix(binary=True)
    assert MiningResult([]).count_matrix(binary=True, n_graphs=3).shape == (0, 3)
    with pytest.raises(InvalidParameterError, match="binary"):
        plain.count_matrix(binary="yes")
