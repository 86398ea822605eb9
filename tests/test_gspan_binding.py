"""The raw gSpan binding (``_graphsparse.mine_subgraphs`` / ``min_dfs_code``): array contract,
agreement with a networkx brute force on tiny databases, budgets, errors and Ctrl-C."""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphsparse import _graphsparse as rs
from graphsparse.exceptions import InvalidGraphError, InvalidParameterError

Graph = tuple[list[int], list[tuple[int, int, int]]]  # vertex labels, (u, v, edge label)


def flat(graphs: list[Graph]) -> tuple[np.ndarray, ...]:
    node_ptr, labels, edge_ptr, edges, elabels = [0], [], [0], [], []
    for vl, es in graphs:
        labels += vl
        node_ptr.append(len(labels))
        edges += [(u, v) for u, v, _ in es]
        elabels += [lab for _, _, lab in es]
        edge_ptr.append(len(edges))
    i64 = np.int64
    return (
        np.array(node_ptr, dtype=i64),
        np.array(labels, dtype=i64),
        np.array(edge_ptr, dtype=i64),
        np.array(edges, dtype=i64).reshape(-1, 2),
        np.array(elabels, dtype=i64),
    )


def params(min_support: int, **kw: Any) -> dict[str, Any]:
    args = dict(max_size=None, single_vertices=False, max_nodes=None, time_limit=None)
    args.update(kw)
    return {"min_support": min_support, **args}


def mine(graphs: list[Graph], min_support: int, n_threads: int = 1, **kw: Any) -> rs.MiningResult:
    return rs.mine_subgraphs(rs.Database(*flat(graphs)), params(min_support, **kw), n_threads)


@contextlib.contextmanager
def ctrl_c_after(delay: float) -> Iterator[threading.Timer]:
    """Sends this process SIGINT ``delay`` seconds after entry, under Python's own Ctrl-C
    handler (whatever an earlier test, a Dask cluster, left installed); yields the timer."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(delay, lambda: os.kill(os.getpid(), signal.SIGINT))
    try:
        timer.start()
        yield timer
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)


def to_nx(vl: list[int], es: list[tuple[int, int, int]]) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from((i, {"l": lab}) for i, lab in enumerate(vl))
    g.add_edges_from((u, v, {"l": lab}) for u, v, lab in es)
    return g


def code_graph(rows: np.ndarray) -> nx.Graph:
    g = nx.Graph()
    for i, j, li, lij, lj in rows.tolist():
        g.add_node(i, l=li)
        g.add_node(j, l=lj)
        g.add_edge(i, j, l=lij)
    return g


def same(a: nx.Graph, b: nx.Graph) -> bool:
    match = nx.algorithms.isomorphism.categorical_node_match("l", None)
    ematch = nx.algorithms.isomorphism.categorical_edge_match("l", None)
    return nx.is_isomorphic(a, b, node_match=match, edge_match=ematch)


def brute_force(graphs: list[Graph], min_support: int) -> list[tuple[nx.Graph, list[int]]]:
    """Connected edge subsets of every graph, deduplicated by labelled isomorphism."""
    classes: list[tuple[nx.Graph, set[int]]] = []
    for gid, (vl, es) in enumerate(graphs):
        for k in range(1, len(es) + 1):
            for sub in itertools.combinations(es, k):
                h = nx.Graph()
                for u, v, lab in sub:
                    h.add_node(u, l=vl[u])
                    h.add_node(v, l=vl[v])
                    h.add_edge(u, v, l=lab)
                if not nx.is_connected(h):
                    continue
                for rep, ids in classes:
                    if same(rep, h):
                        ids.add(gid)
                        break
                else:
                    classes.append((h, {gid}))
    return [(h, sorted(ids)) for h, ids in classes if len(ids) >= min_support]


@st.composite
def databases(draw: st.DrawFn) -> list[Graph]:
    n_vl, n_el = draw(st.integers(1, 3)), draw(st.integers(1, 2))
    graphs = []
    for _ in range(draw(st.integers(1, 4))):
        n = draw(st.integers(1, 5))
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=6)) if pairs else []
        es = [(u, v, draw(st.integers(0, n_el - 1))) for u, v in chosen]
        graphs.append(([draw(st.integers(0, n_vl - 1)) for _ in range(n)], es))
    return graphs


def check_contract(out: rs.MiningResult) -> int:
    n = len(out.support)
    for key in ("code_ptr", "codes", "single_label", "support", "gid_ptr", "graph_ids"):
        assert getattr(out, key).dtype == np.int64, key
    assert out.code_ptr.shape == (n + 1,) and out.gid_ptr.shape == (n + 1,)
    assert out.code_ptr[0] == 0 and out.code_ptr[-1] == len(out.codes)
    assert out.codes.shape == (out.code_ptr[-1], 5)
    assert out.gid_ptr[-1] == len(out.graph_ids)
    np.testing.assert_array_equal(np.diff(out.gid_ptr), out.support)
    single = out.single_label >= 0
    np.testing.assert_array_equal(np.diff(out.code_ptr)[single], 0)
    assert np.all(np.diff(out.code_ptr)[~single] > 0)
    # single vertices come first
    assert single[: int(single.sum())].all()
    for k in range(n):
        ids = out.graph_ids[out.gid_ptr[k] : out.gid_ptr[k + 1]]
        assert np.all(np.diff(ids) > 0)
    return n


@given(graphs=databases(), frac=st.floats(0.0, 1.0), single=st.booleans())
def test_mine_subgraphs_matches_networkx_brute_force(
    graphs: list[Graph], frac: float, single: bool
) -> None:
    min_support = 1 + min(int(len(graphs) * frac), len(graphs) - 1)
    out = mine(graphs, min_support, single_vertices=single)
    n = check_contract(out)
    assert out.truncation is None and out.nodes_visited == n
    want = brute_force(graphs, min_support)
    edge_rows = [k for k in range(n) if out.single_label[k] < 0]
    assert len(edge_rows) == len(want)
    for k in edge_rows:
        g = code_graph(out.codes[out.code_ptr[k] : out.code_ptr[k + 1]])
        ids = out.graph_ids[out.gid_ptr[k] : out.gid_ptr[k + 1]].tolist()
        matches = [w for w in want if same(w[0], g)]
        assert len(matches) == 1 and matches[0][1] == ids
    if single:
        labels = sorted({lab for vl, _ in graphs for lab in vl})
        want_single = {lab: [g for g, (vl, _) in enumerate(graphs) if lab in vl] for lab in labels}
        got_single = {
            int(out.single_label[k]): out.graph_ids[out.gid_ptr[k] : out.gid_ptr[k + 1]].tolist()
            for k in range(n)
            if out.single_label[k] >= 0
        }
        assert got_single == {k: v for k, v in want_single.items() if len(v) >= min_support}


@given(graphs=databases())
@pytest.mark.filterwarnings("ignore::graphsparse.exceptions.ThreadCountWarning")
def test_threads_do_not_change_the_result(graphs: list[Graph]) -> None:
    one = mine(graphs, 1, single_vertices=True, n_threads=1)
    for threads in (2, 3):
        other = mine(graphs, 1, single_vertices=True, n_threads=threads)
        for key in ("code_ptr", "codes", "single_label", "support", "gid_ptr", "graph_ids"):
            np.testing.assert_array_equal(getattr(one, key), getattr(other, key))


@st.composite
def connected_graphs(draw: st.DrawFn) -> Graph:
    n = draw(st.integers(1, 7))
    es = {(draw(st.integers(0, v - 1)), v) for v in range(1, n)}
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n) if (i, j) not in es]
    if pairs:
        es |= set(draw(st.lists(st.sampled_from(pairs), unique=True, max_size=4)))
    labels = [draw(st.integers(0, 2)) for _ in range(n)]
    return labels, [(u, v, draw(st.integers(0, 1))) for u, v in sorted(es)]


@given(g=connected_graphs(), seed=st.integers(0, 2**32 - 1))
def test_min_dfs_code_is_invariant_and_describes_the_graph(g: Graph, seed: int) -> None:
    vl, es = g
    perm = np.random.default_rng(seed).permutation(len(vl))
    code = rs.min_dfs_code(
        np.array(vl, np.int64),
        np.array([(u, v) for u, v, _ in es], np.int64).reshape(-1, 2),
        np.array([e[2] for e in es], np.int64),
    )
    pl = [0] * len(vl)
    for v, p in enumerate(perm):
        pl[p] = vl[v]
    pe = [(int(perm[u]), int(perm[v]), lab) for u, v, lab in es]
    code2 = rs.min_dfs_code(
        np.array(pl, np.int64),
        np.array([(u, v) for u, v, _ in pe], np.int64).reshape(-1, 2),
        np.array([e[2] for e in pe], np.int64),
    )
    np.testing.assert_array_equal(code, code2)
    assert code.dtype == np.int64 and code.shape == (len(es), 5)
    if es:
        assert same(code_graph(code), to_nx(vl, es))


def test_errors_name_the_argument() -> None:
    g = [([0, 1], [(0, 1, 0)])]
    with pytest.raises(InvalidParameterError, match="min_support"):
        mine(g, 0)
    with pytest.raises(InvalidParameterError, match="max_size"):
        mine(g, 1, max_size=-1)
    with pytest.raises(InvalidParameterError, match="max_nodes"):
        mine(g, 1, max_nodes=-1)
    with pytest.raises(InvalidParameterError, match="time_limit"):
        mine(g, 1, time_limit=float("nan"))
    with pytest.raises(InvalidParameterError, match="time_limit"):
        mine(g, 1, time_limit=-1.0)
    with pytest.raises(InvalidParameterError, match="n_threads"):
        mine(g, 1, n_threads=0)
    with pytest.raises(InvalidGraphError, match="self-loop"):
        mine([([0, 1], [(1, 1, 0)])], 1)
    with pytest.raises(InvalidGraphError):
        rs.Database(*flat(g)[:3], np.zeros((1, 3), np.int64), np.zeros(1, np.int64))
    with pytest.raises(InvalidGraphError, match="not connected"):
        rs.min_dfs_code(np.array([0, 0, 0]), np.array([[0, 1]]), np.array([0]))
    with pytest.raises(InvalidGraphError, match="parallel"):
        rs.min_dfs_code(np.array([0, 0]), np.array([[0, 1], [1, 0]]), np.array([0, 0]))
    with pytest.raises(InvalidGraphError, match="edge_labels"):
        rs.min_dfs_code(np.array([0, 0]), np.array([[0, 1]]), np.array([-2]))
    assert issubclass(InvalidParameterError, ValueError) and issubclass(
        InvalidGraphError, ValueError
    )


def explosive() -> list[Graph]:
    """Random single-label graphs whose gSpan tree is far too large to finish."""
    rng = np.random.default_rng(7)
    graphs = []
    for _ in range(12):
        n = 16
        es = {(int(rng.integers(0, v)), v) for v in range(1, n)} | {
            (v, (v + 5) % n) for v in range(n - 5)
        }
        graphs.append(([0] * n, [(min(u, v), max(u, v), 0) for u, v in es]))
    return graphs


@pytest.mark.parametrize("threads", [1, 2])
def test_budgets_stop_and_report(threads: int) -> None:
    g = explosive()
    out = mine(g, 2, max_nodes=250, n_threads=threads)
    assert out.truncation == "max_nodes" and out.nodes_visited == 250
    assert check_contract(out) == 250
    t0 = time.perf_counter()
    out = mine(g, 2, time_limit=0.2, n_threads=threads)
    assert out.truncation == "time_limit"
    assert time.perf_counter() - t0 < 3.0
    check_contract(out)


@pytest.mark.timeout(30)
def test_ctrl_c_interrupts_quickly() -> None:
    g = explosive()
    with ctrl_c_after(0.3):
        t0 = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            mine(g, 2, n_threads=2)
        assert time.perf_counter() - t0 < 2.0


def test_real_data_counts(data_dir: Path) -> None:
    from graphsparse.datasets import load_tu, read_gspan

    mutag = load_tu(data_dir / "tu" / "MUTAG")
    out = rs.mine_subgraphs(mutag._db, params(56), 2)
    assert check_contract(out) == 638
    cpdb = read_gspan(data_dir / "molecules" / "CPDB" / "mutagen.gsp")
    assert len(rs.mine_subgraphs(cpdb._db, params(68), 1).support) == 324
    assert len(rs.mine_subgraphs(cpdb._db, params(34, max_size=6), 2).support) <= 1085


@pytest.mark.parametrize("key", ["min_support", "max_size", "max_nodes"])
@pytest.mark.parametrize("value", [2**63, 2**64 + 1])
def test_the_binding_refuses_counts_past_int64(key, value):
    # the Python API refuses these first; the binding is the backstop for direct callers and
    # must not saturate a count into "no limit"
    db = rs.Database(*flat([([0, 0, 0], [(0, 1, 0), (1, 2, 0)])]))
    kw = {"min_support": 1, key: value}
    with pytest.raises(InvalidParameterError, match=r"below 2\*\*63"):
        rs.mine_subgraphs(db, params(**kw))
