"""Closed and maximal mining (``mine_subgraphs(closed=True)`` / ``maximal=True``) against the
definitions: the full frequent set filtered by :mod:`graphsparse.testing.reference.subgraphs`
(no super-pattern with the same support / no frequent super-pattern), on random databases and
on MUTAG; serial == parallel; budgets, Ctrl-C and errors."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphsparse as gs
from graphsparse.exceptions import BudgetExceededError, InvalidParameterError
from graphsparse.mining import TruncatedSearchWarning
from graphsparse.testing.reference.subgraphs import (
    closed_patterns,
    frequent_subgraphs,
    maximal_patterns,
)
from graphsparse.testing.strategies import graph_databases

_NM = nx.algorithms.isomorphism.categorical_node_match("label", None)
_EM = nx.algorithms.isomorphism.categorical_edge_match("label", None)

small_dbs = graph_databases(min_graphs=1, max_graphs=6, max_vertices=7, n_vertex_labels=2).filter(
    lambda gs_: all(g.number_of_edges() <= 9 for g in gs_)
)
FILTERS = {"closed": closed_patterns, "maximal": maximal_patterns}


def _entries(result):
    return [(p.to_networkx(), frozenset(p.graph_ids.tolist())) for p in result]


def _summary(patterns):
    return [(p.dfs_code, p.vertex_labels, tuple(p.graph_ids.tolist())) for p in patterns]


def _filtered(full, mode, canonical=None):
    """The patterns of the full result that the reference filter keeps, in the full order."""
    entries = _entries(full)
    keep = {id(g) for g, _ in FILTERS[mode](entries, canonical)}
    return [p for p, (g, _) in zip(full, entries, strict=True) if id(g) in keep]


@settings(max_examples=80, deadline=None)
@given(
    small_dbs,
    st.integers(1, 3),
    st.sampled_from([None, 1, 2, 3]),
    st.booleans(),
    st.sampled_from(["closed", "maximal"]),
)
def test_random_databases_match_the_definition(graphs, min_support, max_size, single, mode):
    min_support = min(min_support, len(graphs))
    kw = {"max_size": max_size, "single_vertices": single}
    full = gs.mine_subgraphs(graphs, min_support, **kw)
    got = gs.mine_subgraphs(graphs, min_support, **kw, **{mode: True})
    assert _summary(got) == _summary(_filtered(full, mode))
    assert _summary(got) == _summary(_filtered(full, mode, canonical=gs.min_dfs_code))


@settings(max_examples=25, deadline=None)
@given(small_dbs, st.integers(1, 2), st.sampled_from(["closed", "maximal"]))
def test_random_databases_match_the_brute_force_reference(graphs, min_support, mode):
    # the reference filter applied to the brute-force frequent set, matched by isomorphism
    min_support = min(min_support, len(graphs))
    want = FILTERS[mode](frequent_subgraphs(graphs, min_support))
    got = gs.mine_subgraphs(graphs, min_support, **{mode: True})
    assert len(got) == len(want)
    unmatched = list(want)
    for p in got:
        h = p.to_networkx()
        hits = [
            k
            for k, (rep, _) in enumerate(unmatched)
            if nx.is_isomorphic(rep, h, node_match=_NM, edge_match=_EM)
        ]
        assert len(hits) == 1
        _, ids = unmatched.pop(hits[0])
        assert p.graph_ids.tolist() == sorted(ids)


@settings(max_examples=30, deadline=None)
@given(small_dbs, st.integers(1, 3), st.sampled_from(["closed", "maximal"]))
def test_serial_equals_parallel_on_random_databases(graphs, min_support, mode):
    min_support = min(min_support, len(graphs))
    serial = gs.mine_subgraphs(graphs, min_support, n_jobs=1, **{mode: True})
    parallel = gs.mine_subgraphs(graphs, min_support, n_jobs=2, **{mode: True})
    assert _summary(parallel) == _summary(serial)


@pytest.fixture(scope="module")
def mutag(data_dir: Path) -> gs.GraphDataset:
    return gs.load_tu(data_dir / "tu" / "MUTAG", "MUTAG")


@pytest.fixture(scope="module")
def mutag_full(mutag):
    return gs.mine_subgraphs(mutag, 19, n_jobs=2)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["closed", "maximal"])
def test_mutag_19_matches_the_definition(mutag, mutag_full, mode):
    got = gs.mine_subgraphs(mutag, 19, n_jobs=2, **{mode: True})
    # 40,220 patterns: the reference looks up one-edge deletions by a canonical code (the
    # pairwise containment tests would take hours); the random databases above check that
    # this agrees with the pairwise definition
    want = _filtered(mutag_full, mode, canonical=gs.min_dfs_code)
    assert _summary(got) == _summary(want)
    assert len(got) < len(mutag_full) / 10
    # inside the search: early termination skips part of the tree
    assert got.nodes_visited < mutag_full.nodes_visited


@pytest.mark.parametrize("mode", ["closed", "maximal"])
def test_mutag_serial_equals_parallel(mutag, mode):
    serial = gs.mine_subgraphs(mutag, 19, n_jobs=1, single_vertices=True, **{mode: True})
    for n_jobs in (2, None):
        parallel = gs.mine_subgraphs(mutag, 19, n_jobs=n_jobs, single_vertices=True, **{mode: True})
        assert _summary(parallel) == _summary(serial)
        assert parallel.nodes_visited == serial.nodes_visited


def test_maximal_patterns_are_closed(mutag):
    closed = _summary(gs.mine_subgraphs(mutag, 40, closed=True))
    maximal = _summary(gs.mine_subgraphs(mutag, 40, maximal=True))
    assert maximal and set(maximal) < set(closed)


def test_a_size_bound_keeps_the_largest_patterns(mutag):
    # with max_size, the sets are those of the bounded frequent set
    full = gs.mine_subgraphs(mutag, 40, max_size=3)
    closed = gs.mine_subgraphs(mutag, 40, max_size=3, closed=True)
    assert _summary(closed) == _summary(_filtered(full, "closed"))
    largest = [p for p in full if p.n_edges == 3]
    assert set(_summary(largest)) <= set(_summary(closed))


def test_the_documented_example():
    g = nx.Graph([(0, 1), (1, 2)])
    nx.set_node_attributes(g, {0: "C", 1: "C", 2: "O"}, "label")
    nx.set_edge_attributes(g, 1, "label")
    h = nx.Graph(g)
    h.add_edge(2, 3, label=1)
    h.nodes[3]["label"] = "N"
    closed = gs.mine_subgraphs([g, h], 1, closed=True)
    assert [str(p) for p in closed] == [
        "(0:C)-[1]-(1:C) (1:C)-[1]-(2:O)",
        "(0:C)-[1]-(1:C) (1:C)-[1]-(2:O) (2:O)-[1]-(3:N)",
    ]
    assert [p.support for p in closed] == [2, 1]
    assert [str(p) for p in gs.mine_subgraphs([g, h], 1, maximal=True)] == [str(closed[1])]


def explosive() -> list[nx.Graph]:
    """Random single-label graphs whose gSpan tree is far too large to finish."""
    rng = np.random.default_rng(7)
    graphs = []
    for _ in range(12):
        n = 16
        g = nx.Graph()
        g.add_nodes_from(range(n), label=0)
        g.add_edges_from(((int(rng.integers(0, v)), v) for v in range(1, n)), label=0)
        g.add_edges_from(((v, (v + 5) % n) for v in range(n - 5)), label=0)
        graphs.append(g)
    return graphs


@pytest.mark.parametrize("mode", ["closed", "maximal"])
def test_budgets_stop_the_search(mode):
    graphs = explosive()
    with pytest.warns(TruncatedSearchWarning, match="max_nodes"):
        out = gs.mine_subgraphs(graphs, 2, max_nodes=300, n_jobs=2, **{mode: True})
    assert out.truncated and out.truncation == "max_nodes" and out.nodes_visited == 300
    with pytest.warns(TruncatedSearchWarning, match="time_limit"):
        out = gs.mine_subgraphs(graphs, 2, time_limit=0.3, **{mode: True})
    assert out.truncation == "time_limit"
    with pytest.raises(BudgetExceededError):
        gs.mine_subgraphs(graphs, 2, max_nodes=10, strict=True, **{mode: True})


@pytest.mark.parametrize("mode", ["closed", "maximal"])
def test_truncated_results_hold_only_patterns_of_the_set(mutag, mode):
    whole = set(_summary(gs.mine_subgraphs(mutag, 19, **{mode: True})))
    with pytest.warns(TruncatedSearchWarning):
        part = gs.mine_subgraphs(mutag, 19, max_nodes=2000, **{mode: True})
    assert set(_summary(part)) <= whole


def test_ctrl_c_interrupts_closed_mining():
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    try:
        timer.start()
        t0 = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            gs.mine_subgraphs(explosive(), 2, n_jobs=2, closed=True)
        assert time.perf_counter() - t0 < 2.0
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)


def test_errors():
    g = nx.path_graph(3)
    with pytest.raises(InvalidParameterError, match="closed=True and maximal=True"):
        gs.mine_subgraphs([g], 1, closed=True, maximal=True)
    with pytest.raises(InvalidParameterError, match="closed must be True or False"):
        gs.mine_subgraphs([g], 1, closed="yes")
    with pytest.raises(InvalidParameterError, match="maximal must be True or False"):
        gs.mine_subgraphs([g], 1, maximal=1)


def test_the_binding_names_a_bad_pattern_set():
    from graphsparse import _graphsparse as rs

    ds = gs.from_networkx([nx.path_graph(3)])
    params = {
        "min_support": 1,
        "max_size": None,
        "single_vertices": False,
        "max_nodes": None,
        "time_limit": None,
    }
    assert len(rs.mine_subgraphs(ds._db, params).support) == 2  # pattern_set defaults to "all"
    closed = rs.mine_subgraphs(ds._db, {**params, "pattern_set": "closed"})
    assert closed.support.tolist() == [1]
    with pytest.raises(InvalidParameterError, match="pattern_set must be 'all', 'closed'"):
        rs.mine_subgraphs(ds._db, {**params, "pattern_set": "Closed"})


def test_the_command_line_mines_closed_and_maximal_patterns(data_dir, capsys):
    from graphsparse.cli import main

    mutag = str(data_dir / "tu" / "MUTAG")
    assert main(["mine", mutag, "--min-support", "56", "--closed"]) == 0
    assert "59 closed frequent connected patterns" in capsys.readouterr().out
    assert main(["mine", mutag, "--min-support", "56", "--maximal"]) == 0
    assert "4 maximal frequent connected patterns" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["mine", mutag, "--min-support", "56", "--closed", "--maximal"])
