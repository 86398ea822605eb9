"""graphsparse.distributed.mine_subgraphs == graphsparse.mine_subgraphs on the whole collection.

The sharded miner runs on the module's two-process ``LocalCluster`` (``dask_client`` in
``conftest.py``); the reference is the single-machine Rust miner on the concatenated graphs.
"""

from __future__ import annotations

import itertools
import pickle
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphsparse as gs
from graphsparse.exceptions import InvalidParameterError
from graphsparse.testing.strategies import graph_databases

pytest.importorskip("distributed")
gsd = pytest.importorskip("graphsparse.distributed")
db = pytest.importorskip("dask.bag")
from dask import delayed  # noqa: E402

# Hypothesis examples each cost a few scheduler round trips on a shared 2-core machine: a fifth
# of the profile's count (20 by default, 200 with HYPOTHESIS_PROFILE=thorough).
_EXAMPLES = max(10, settings.default.max_examples // 5)


def _summary(patterns):
    return [(p.dfs_code, p.vertex_labels, p.support, tuple(p.graph_ids.tolist())) for p in patterns]


def _assert_identical(sharded, single):
    assert type(sharded) is gsd.ShardedMiningResult
    assert all(type(p) is gs.Pattern for p in sharded)
    assert sharded.truncated is False and sharded.truncation is None
    assert _summary(sharded) == _summary(single)
    assert list(sharded) == list(single)


@pytest.fixture(scope="module")
def mutag(data_dir):
    return gs.load_tu(data_dir / "tu" / "MUTAG")


@pytest.mark.parametrize(
    ("min_support", "max_size", "n_shards", "single"),
    [(0.2, 5, 1, False), (38, 5, 3, True), (0.1, 4, 7, False), (94, None, 2, True)],
)
def test_tu_dataset_split_into_shards(dask_client, mutag, min_support, max_size, n_shards, single):
    sharded = gsd.mine_subgraphs(
        mutag, min_support, max_size, n_shards=n_shards, single_vertices=single
    )
    single_machine = gs.mine_subgraphs(mutag, min_support, max_size, single_vertices=single)
    assert len(single_machine) > 10
    _assert_identical(sharded, single_machine)


@pytest.mark.parametrize(
    ("min_support", "max_size", "single"), [(19, None, True), (30, 4, True), (0.1, 5, False)]
)
@pytest.mark.parametrize("kind", ["closed", "maximal"])
def test_closed_and_maximal_patterns(dask_client, mutag, min_support, max_size, single, kind):
    sharded = gsd.mine_subgraphs(
        mutag, min_support, max_size, n_shards=3, single_vertices=single, **{kind: True}
    )
    single_machine = gs.mine_subgraphs(
        mutag, min_support, max_size, single_vertices=single, **{kind: True}
    )
    full = gs.mine_subgraphs(mutag, min_support, max_size, single_vertices=single)
    assert 10 < len(single_machine) < len(full)
    _assert_identical(sharded, single_machine)


def _brute_one_edge_less(g):
    """The minimum DFS codes of the connected subgraphs of ``g`` with one edge fewer, from every
    edge subset (vertices: those the subset touches)."""
    out = set()
    for drop in g.edges:
        h = g.edge_subgraph([e for e in g.edges if e != drop])
        if h.number_of_edges() and nx.is_connected(h):
            out.add(gs.min_dfs_code(nx.convert_node_labels_to_integers(h)))
    return out


@settings(max_examples=60, deadline=None)
@given(graph_databases(min_graphs=1, max_graphs=1, max_vertices=7, n_vertex_labels=2))
def test_one_edge_smaller_subgraphs_equal_brute_force(graphs):
    from graphsparse import _graphsparse as _rs

    g = graphs[0]
    g = g.subgraph(max(nx.connected_components(g), key=len)).copy()
    if g.number_of_edges() < 2:
        return
    g = nx.convert_node_labels_to_integers(g)
    ds = gs.from_networkx([g])
    vl, el = ds.vertex_label_values, ds.edge_label_values
    code = tuple(
        (i, j, vl.index(a), el.index(b), vl.index(c)) for i, j, a, b, c in gs.min_dfs_code(g)
    )

    def values(c):
        return tuple((i, j, vl[a], el[b], vl[d]) for i, j, a, b, d in c)

    rows, owner = _rs.one_edge_smaller_codes(
        np.array(code, dtype=np.int64), np.array([0, len(code)])
    )
    k = len(code) - 1
    assert (owner == 0).all() and len(rows) == k * len(owner)
    got = {values(tuple(map(tuple, rows[a : a + k].tolist()))) for a in range(0, len(rows), k)}
    assert got == _brute_one_edge_less(g)


def test_supports_only_leaves_graph_ids_on_the_workers(dask_client, mutag):
    sharded = gsd.mine_subgraphs(mutag, 19, 5, n_shards=3, graph_ids=False, single_vertices=True)
    single_machine = gs.mine_subgraphs(mutag, 19, 5, single_vertices=True)
    assert [(p.dfs_code, p.vertex_labels, p.support) for p in sharded] == [
        (p.dfs_code, p.vertex_labels, p.support) for p in single_machine
    ]
    assert all(p.graph_ids.size == 0 for p in sharded)


def test_tu_files_read_on_workers(dask_client, data_dir, mutag, tmp_path):
    # three gSpan shards plus the untouched TU folder: files are read where they are mined
    bounds = [0, 50, 51, 120]
    paths = []
    for k, (a, b) in enumerate(itertools.pairwise(bounds)):
        path = tmp_path / f"shard{k}.gsp"
        gs.write_gspan(mutag[a:b], path)
        paths.append(path)
    paths.append(data_dir / "tu" / "MUTAG")
    graphs = mutag.graphs[:120] + mutag.graphs
    sharded = gsd.mine_subgraphs(paths, 0.25, 4)
    _assert_identical(sharded, gs.mine_subgraphs(graphs, 0.25, 4))


def test_dask_bag_of_networkx_graphs(dask_client, mutag):
    bag = db.from_sequence(mutag.graphs, npartitions=4)
    _assert_identical(gsd.mine_subgraphs(bag, 30, 5), gs.mine_subgraphs(mutag, 30, 5))


def test_smiles_and_sd_files(dask_client, data_dir, tmp_path):
    pytest.importorskip("rdkit")
    smiles = ["c1ccccc1N", "CC(=O)O", "O=[N+]([O-])c1ccccc1", "CCN", "c1ccncc1C(=O)O", "CCO"]
    (tmp_path / "a.smi").write_text("\n".join(f"{s} m{k}" for k, s in enumerate(smiles[:4])))
    (tmp_path / "b.smi").write_text("\n".join(smiles[4:]) + "\n")
    sdf = data_dir / "molecules" / "CPDB" / "mutagen.sdf"
    paths = [tmp_path / "a.smi", tmp_path / "b.smi", sdf]
    from graphsparse.datasets import from_smiles, read_sdf
    from graphsparse.exceptions import MoleculeRepairedWarning

    with pytest.warns(MoleculeRepairedWarning):  # charges the file left out are restored
        cpdb = read_sdf(sdf)
    whole = from_smiles(smiles).graphs + cpdb.graphs
    _assert_identical(gsd.mine_subgraphs(paths, 0.1, 4), gs.mine_subgraphs(whole, 0.1, 4))


# shards as separate GraphDatasets, each with its own label ids: labels are matched by value;
# any layout (empty shards, one graph each, uneven), with and without max_size
@settings(max_examples=_EXAMPLES, deadline=None)
@given(
    graph_databases(min_graphs=1, max_graphs=9, max_vertices=6, n_vertex_labels=3),
    st.data(),
)
def test_random_databases_split_at_random_boundaries(dask_client, graphs, data):
    n = len(graphs)
    if data.draw(st.booleans(), label="one graph per shard"):
        cuts = list(range(1, n))
    else:
        cuts = data.draw(st.lists(st.integers(0, n), max_size=4), label="cuts")
    bounds = [0, *sorted(cuts), n]  # repeated cuts give empty shards
    min_support = data.draw(st.integers(1, n), label="min_support")
    max_size = data.draw(st.sampled_from([None, None, 1, 2, 3]), label="max_size")
    single = data.draw(st.booleans(), label="single_vertices")
    scheme = data.draw(st.sampled_from(["level-wise", "level-wise", "partition"]), label="scheme")
    kind = data.draw(st.sampled_from([{}, {}, {"closed": True}, {"maximal": True}]), label="set")
    pieces = itertools.pairwise(bounds)
    shards = [gs.from_networkx(graphs[a:b]) if b > a else _empty() for a, b in pieces]
    sharded = gsd.mine_subgraphs(
        shards, min_support, max_size, single_vertices=single, scheme=scheme, **kind
    )
    single_machine = gs.mine_subgraphs(
        graphs, min_support, max_size, single_vertices=single, **kind
    )
    _assert_identical(sharded, single_machine)
    assert sharded.scheme == scheme
    if scheme == "level-wise" and not kind:
        # a round per pattern size found, and one more that finds nothing (or materialises the
        # last size's graph ids at max_size)
        largest = max((p.n_edges for p in single_machine if p.dfs_code), default=0)
        stops = max_size is not None and largest == max_size
        assert sharded.rounds == (largest + 1 if largest or not stops else 0)


def _empty():
    from graphsparse.distributed._shards import _empty_dataset

    return _empty_dataset()


def _grids(n, seed):
    """3x3 grids with random C/N/O vertices: each has thousands of connected subgraphs."""
    rng = np.random.default_rng(seed)
    graphs = []
    for _ in range(n):
        g = nx.convert_node_labels_to_integers(nx.grid_2d_graph(3, 3))
        nx.set_node_attributes(g, {v: "CNO"[rng.integers(3)] for v in g}, "label")
        nx.set_edge_attributes(g, 1, "label")
        graphs.append(g)
    return graphs


def test_tiny_shards_without_max_size_cost_the_frequent_patterns_only(dask_client):
    # one graph per shard at support 6 of 12: a partition scheme with proportional local
    # thresholds mines every shard at threshold 1, proposing every connected subgraph
    graphs = _grids(12, seed=0)
    single = gs.mine_subgraphs(graphs, 6)
    proposed_by_partitions = set()
    for g in graphs:
        proposed_by_partitions |= {p.dfs_code for p in gs.mine_subgraphs([g], 1)}
    assert len(proposed_by_partitions) >= 100 * len(single)
    sharded = gsd.mine_subgraphs(graphs, 6, n_shards=12)
    _assert_identical(sharded, single)
    # the candidates are the frequent patterns' one-edge extensions: 3 vertex labels and one
    # edge label give at most 9 label pairs per rightmost-path vertex and a backward edge per
    # vertex, on patterns of at most 9 vertices
    assert len(single) <= sharded.candidates <= (len(single) + 1) * (9 * 9 + 9)
    assert sharded.candidates * 10 < len(proposed_by_partitions)


def test_auto_picks_the_partition_scheme_for_large_thresholds_only(dask_client, mutag):
    big = gsd.mine_subgraphs(mutag, 94, n_shards=2)  # thresholds 47 and 47
    assert big.scheme == "partition" and big.rounds == 2
    _assert_identical(big, gs.mine_subgraphs(mutag, 94))
    small = gsd.mine_subgraphs(mutag, 94, n_shards=10)  # thresholds 10: level-wise
    assert small.scheme == "level-wise"
    _assert_identical(small, gs.mine_subgraphs(mutag, 94))


def test_a_partition_search_past_its_budget_hands_over_to_the_rounds(
    dask_client, mutag, monkeypatch
):
    from graphsparse.distributed import mining

    monkeypatch.setattr(mining, "PARTITION_NODE_BUDGET", 50)
    sharded = gsd.mine_subgraphs(mutag, 94, n_shards=2)
    assert sharded.scheme == "level-wise"
    _assert_identical(sharded, gs.mine_subgraphs(mutag, 94))


def test_issue_example_uneven_shards_in_a_bag(dask_client, mutag):
    # six uneven partitions, no max_size: the layout that killed the workers of the old scheme
    bounds = [0, 3, 5, 60, 61, 150, 188]
    graphs = list(mutag.graphs)
    parts = [graphs[a:b] for a, b in itertools.pairwise(bounds)]
    bag = db.from_delayed([delayed(list)(p) for p in parts])
    assert bag.npartitions == 6
    sharded = gsd.mine_subgraphs(bag, 40)
    _assert_identical(sharded, gs.mine_subgraphs(mutag, 40))


def test_bad_input_raises_named_errors(dask_client, mutag):
    with pytest.raises(InvalidParameterError, match="no graphs"):
        gsd.mine_subgraphs([_empty(), _empty()], 1)
    with pytest.raises(InvalidParameterError, match="n_shards"):
        gsd.mine_subgraphs(mutag, 2, 2, n_shards=0)
    with pytest.raises(InvalidParameterError, match="min_support"):
        gsd.mine_subgraphs(mutag, 189, 2, n_shards=2)
    with pytest.raises(InvalidParameterError, match="max_size"):
        gsd.mine_subgraphs(mutag, 2, -1)
    with pytest.raises(InvalidParameterError, match="format"):
        gsd.mine_subgraphs(["x.unknown"], 1)
    with pytest.raises(InvalidParameterError, match="collection"):
        gsd.mine_subgraphs(42, 1)
    with pytest.raises(InvalidParameterError, match="one graph"):
        gsd.mine_subgraphs(nx.path_graph(3), 1)
    with pytest.raises(InvalidParameterError, match="scheme"):
        gsd.mine_subgraphs(mutag, 2, 2, scheme="depth-first")
    with pytest.raises(InvalidParameterError, match="closed=True and maximal=True"):
        gsd.mine_subgraphs(mutag, 2, 2, closed=True, maximal=True)
    with pytest.raises(InvalidParameterError, match="closed"):
        gsd.mine_subgraphs(mutag, 2, 2, closed="yes")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=1, max_size=8), st.data())
def test_proportional_thresholds_miss_nothing(sizes, data):
    # the partition scheme's lemma: any per-shard support vector (0 <= c_i <= n_i) whose total
    # reaches s reaches t_i in some shard
    from graphsparse.distributed.mining import local_thresholds

    n = sum(sizes)
    if n == 0:
        return
    s = data.draw(st.integers(1, n))
    counts = [data.draw(st.integers(0, n_i)) for n_i in sizes]
    t = local_thresholds(sizes, s)
    assert all(1 <= t_i <= n_i for t_i, n_i in zip(t, sizes, strict=True) if n_i)
    if sum(counts) >= s:
        assert any(c >= t_i for c, t_i, n_i in zip(counts, t, sizes, strict=True) if n_i)
    # and they are the largest with this property: one less in every shard lets s slip by
    below = [max(t_i - 1, 0) for t_i in t]
    assert sum(below) < s


def test_dataset_pickles_through_unaligned_buffers(mutag):
    # Dask hands arrays back as views of its network frames, which need not be aligned
    buffers = []
    payload = pickle.dumps(mutag, protocol=5, buffer_callback=buffers.append)
    shifted = []
    for buf in buffers:
        raw = bytes(buf.raw())
        store = bytearray(len(raw) + 1)
        store[1:] = raw
        shifted.append(memoryview(store)[1:])
    assert shifted
    back = pickle.loads(payload, buffers=shifted)
    assert back == mutag
    assert gs.mine_subgraphs(back, 60, 3) == gs.mine_subgraphs(mutag, 60, 3)


def test_dfs_code_order_is_the_single_machine_order(mutag):
    from graphsparse.distributed.mining import dfs_code_order

    patterns = gs.mine_subgraphs(mutag, 10, 5)
    codes = [p.dfs_code for p in patterns]
    rng = np.random.default_rng(0)
    shuffled = [codes[k] for k in rng.permutation(len(codes))]
    order = dfs_code_order(shuffled, mutag.vertex_label_values, mutag.edge_label_values)
    assert [shuffled[k] for k in order] == codes


def test_graphsparse_imports_without_dask():
    # the extra stays optional: graphsparse imports, graphsparse.distributed names the extra
    code = (
        "import sys\n"
        "sys.modules['dask'] = sys.modules['distributed'] = None\n"
        "import graphsparse\n"
        "try:\n"
        "    import graphsparse.distributed\n"
        "except ImportError as exc:\n"
        "    assert 'graphsparse[dask]' in str(exc), exc\n"
        "else:\n"
        "    raise SystemExit('imported without dask')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


@settings(max_examples=100, deadline=None)
@given(
    graph_databases(min_graphs=1, max_graphs=6, max_vertices=7, n_vertex_labels=3),
    st.randoms(use_true_random=False),
)
def test_dfs_code_order_on_random_databases(graphs, rnd):
    # no cluster: the driver's sort must reproduce the Rust miner's pre-order exactly
    from graphsparse.distributed.mining import dfs_code_order

    ds = gs.from_networkx(graphs)
    codes = [p.dfs_code for p in gs.mine_subgraphs(ds, 1, 4)]
    shuffled = codes[:]
    rnd.shuffle(shuffled)
    order = dfs_code_order(shuffled, ds.vertex_label_values, ds.edge_label_values)
    assert [shuffled[k] for k in order] == codes


@pytest.mark.parametrize(
    ("name", "min_support", "max_size"),
    [("MSRC_9", 0.2, 4), ("DHFR", 0.5, 5), ("BZR_MD", 0.5, 3), ("Mutagenicity", 0.2, 4)],
)
def test_the_other_tu_sets(dask_client, data_dir, name, min_support, max_size):
    data = gs.load_tu(data_dir / "tu" / name)
    sharded = gsd.mine_subgraphs(data, min_support, max_size, n_shards=3)
    single_machine = gs.mine_subgraphs(data, min_support, max_size)
    assert len(single_machine) > 5
    _assert_identical(sharded, single_machine)


def _scheduler_tasks(dask_scheduler=None):
    return len(dask_scheduler.tasks)


def test_back_to_back_runs_leave_nothing_on_the_cluster(dask_client, mutag):
    # the driver releases its shards and broadcasts instead of cancelling them: cancelling a
    # shard cancels its dependent tasks, and one already released by this client tripped an
    # assertion in the scheduler, which then dropped the client's connection
    # ("scheduler-connection-lost" in the next call)
    import time

    want = gs.mine_subgraphs(mutag, 38, 4)
    before = dask_client.run_on_scheduler(_scheduler_tasks)  # what earlier tests still hold
    for n_shards in (3, 2, 7, 3):
        assert list(gsd.mine_subgraphs(mutag, 38, 4, n_shards=n_shards)) == list(want)
    deadline = time.monotonic() + 30
    while dask_client.run_on_scheduler(_scheduler_tasks) > before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert dask_client.run_on_scheduler(_scheduler_tasks) <= before
