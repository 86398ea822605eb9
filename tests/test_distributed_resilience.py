"""A worker killed mid-run changes nothing; everything graphsparse.distributed ships pickles.

This module kills worker processes of the module's cluster (their nannies restart them), so it
waits for both workers to be back before it ends.
"""

from __future__ import annotations

import os
import pickle
import signal
import threading
import time

import numpy as np
import pytest

import graphsparse as gs

pytest.importorskip("distributed")
gsd = pytest.importorskip("graphsparse.distributed")


def _kill_one_worker_after(client, seconds, killed):
    """SIGKILL one worker process (not its nanny) after ``seconds``, from a side thread."""
    pids = client.run(os.getpid)
    victim = pids[sorted(pids)[0]]

    def kill():
        time.sleep(seconds)
        os.kill(victim, signal.SIGKILL)
        killed.append((victim, time.perf_counter()))

    thread = threading.Thread(target=kill, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("kill_after", [0.5, 1.4, "pinned"])
def test_killed_worker_costs_a_retry_not_the_result(
    dask_client, data_dir, tmp_path, kill_after, monkeypatch
):
    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")
    bounds = np.linspace(0, len(mutag), 9).astype(int)
    paths = []
    for k in range(8):
        path = tmp_path / f"shard{k}.gsp"
        gs.write_gspan(mutag[bounds[k] : bounds[k + 1]], path)
        paths.append(path)

    def slow_read(path):
        # slow enough that the kill lands while shards are being read and mined
        time.sleep(0.4)
        return gs.read_gspan(path)

    expected = gs.mine_subgraphs(mutag, 20, 5)
    killed = []
    threads = []
    if kill_after == "pinned":
        # kill as soon as the phases are pinned to the workers that read the shards
        from graphsparse.distributed import mining

        pins = mining._pins

        def pins_then_kill(client, shards):
            out = pins(client, shards)
            threads.append(_kill_one_worker_after(client, 0.0, killed))
            return out

        monkeypatch.setattr(mining, "_pins", pins_then_kill)
    else:
        threads.append(_kill_one_worker_after(dask_client, kill_after, killed))
    got = gsd.mine_subgraphs(paths, 20, 5, loader=slow_read)
    finished = time.perf_counter()
    for thread in threads:
        thread.join()
    assert killed and killed[0][1] < finished, "the worker was killed after the run ended"
    assert list(got) == list(expected)
    assert got.scheme == "level-wise"  # thresholds of 3: the rounds, each state recomputable
    dask_client.wait_for_workers(2, timeout=120)
    assert killed[0][0] not in dask_client.run(os.getpid).values()


def test_everything_shipped_round_trips_through_pickle(data_dir):
    import cloudpickle

    from graphsparse import compression as gc
    from graphsparse.distributed._partition import _Counted, _LocalMined, _phase1
    from graphsparse.distributed._rounds import _proposed, _Round, _round
    from graphsparse.distributed._shards import Packed, unpacked
    from graphsparse.distributed.mining import _frequent

    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")[:40]
    local = _phase1(mutag, 10, 3, 1, None)
    objects = [
        mutag,
        local,
        _Counted([np.arange(3), np.zeros(0, dtype=np.int64)]),
        gs.mine_subgraphs(mutag, 10, 3),
        gs.SubgraphLogisticRegression(lambda1=0.05, max_size=3).fit(mutag, mutag.y),
        gc.WLSubtreeFeatures(n_iter=2).fit(mutag),
        Packed(lambda x: x + 1),
    ]
    for obj in objects:
        back = pickle.loads(cloudpickle.dumps(obj, protocol=5))
        assert type(back) is type(obj)
    back = pickle.loads(pickle.dumps(local))
    assert isinstance(back, _LocalMined) and back.ids.keys() == local.ids.keys()
    assert unpacked(pickle.loads(pickle.dumps(Packed([1, 2])))) == [1, 2]
    model = pickle.loads(pickle.dumps(objects[4]))
    np.testing.assert_array_equal(
        model.decision_function(mutag), objects[4].decision_function(mutag)
    )
    # a level-wise round's state (moved between workers when unpinned) carries on unchanged
    labels = (sorted(mutag.vertex_label_values), sorted(mutag.edge_label_values))
    first = _round(mutag, None, None, labels, True, 1)
    keep = _frequent([_proposed(first)], 10)[:2]
    second = _round(mutag, first, keep, labels, True, 1)
    back = pickle.loads(pickle.dumps(second))
    assert isinstance(back, _Round) and len(back.frontier) == len(second.frontier) > 0
    keep = _frequent([_proposed(second)], 10)[:2]
    again, direct = (_round(mutag, r, keep, labels, True, 1) for r in (back, second))
    for a, b in zip(_proposed(again), _proposed(direct), strict=True):
        np.testing.assert_array_equal(a, b)


def test_pins_to_a_missing_worker_fall_back_to_unpinned(dask_client, data_dir, monkeypatch):
    # phases pinned to a worker that is not (any more) in the cluster cannot run: after the
    # grace period they are redone unpinned, with the same result
    from graphsparse.distributed import mining

    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")
    calls = []

    def pins_to_nowhere(client, shards):
        calls.append(len(shards))
        return [{"workers": ["tcp://127.0.0.1:9"]} for _ in shards]

    monkeypatch.setattr(mining, "_pins", pins_to_nowhere)
    monkeypatch.setattr(mining, "_PIN_GRACE", 0.5)
    got = gsd.mine_subgraphs(mutag, 20, 4, n_shards=6)
    assert calls == [6]
    assert list(got) == list(gs.mine_subgraphs(mutag, 20, 4))
