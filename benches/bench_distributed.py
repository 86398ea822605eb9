"""graphsparse.distributed against single-process mining: wall time, memory, bytes, efficiency.

Run ``python benches/bench_distributed.py --quick`` (about a minute) or with ``--n-graphs
1000000`` for a collection of a million molecule graphs. The collection is Mutagenicity (4,337
molecules) replicated with relabelling: every copy renumbers each graph's vertices by a random
permutation, so copies are isomorphic but stored differently and each pattern's support is
exactly ``copies x`` its support in one copy (checked when the size is a multiple). It is
written as gSpan shard files; workers read their own files, so no graph crosses the network.

For each configuration the benchmark runs, on the same files:

* **single process** — ``graphsparse.mine_subgraphs`` on the whole collection read into one
  process (a subprocess, so its peak RSS is its own), with 1 thread and with all cores; its
  time includes reading the files, as the distributed time includes the workers reading them;
* **Dask, k workers** — ``graphsparse.distributed.mine_subgraphs`` on a ``LocalCluster`` of ``k``
  worker processes with one thread each (k = 1, 2 by default), then featurisation
  (``graphsparse.distributed.transform`` of the first ``--n-features`` mined patterns over the
  files) against the in-process ``pattern_features`` of the same patterns.

Every distributed result is checked against the single-process one (the same patterns, supports
and graph ids in order; the same feature matrix) before it is reported. Printed: wall time;
CPU seconds (for the Dask rows all worker processes and the driver together, mining and
features; for the single-process rows the whole subprocess, reading included); peak RSS per
worker and its rise over the idle worker (which has imported everything); the bytes the workers
sent (almost all of it the result's graph ids going to the driver) and the bytes moved between
workers, during mining and during featurisation (where Dask concatenates the feature
blocks); the speedup and the efficiency ``T_1 / (k T_k)`` against one
worker and against the one-thread single process. On a shared machine the times are noisy:
compare rows of one run only.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import graphsparse as gs
from benches._progress import progress

SCHEMES = ("auto", "level-wise")

DATA = Path(
    os.environ.get("GRAPHSPARSE_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)


def replicate(ds: gs.GraphDataset, n_graphs: int, seed: int) -> gs.GraphDataset:
    """``n_graphs`` graphs: copies of ``ds`` in order, each graph's vertices randomly renumbered."""
    rng = np.random.default_rng(seed)
    reps = -(-n_graphs // len(ds))
    ids = np.tile(np.arange(len(ds)), reps)[:n_graphs]
    base = ds[ids]
    node_ptr, node_labels, edge_ptr, edges, edge_labels = base._arrays()
    n_v = np.diff(node_ptr)
    graph_of = np.repeat(np.arange(len(base)), n_v)
    # a random order of the vertices inside each graph: sort by (graph, random key)
    order = np.lexsort((rng.random(len(node_labels)), graph_of))
    new_pos = np.empty_like(order)
    new_pos[order] = np.arange(len(order))
    local = new_pos - np.repeat(node_ptr[:-1], n_v)  # new local id of every old vertex
    edge_graph = np.repeat(np.arange(len(base)), np.diff(edge_ptr))
    old_global = edges + node_ptr[:-1][edge_graph, None]
    return gs.GraphDataset(
        node_ptr,
        node_labels[order],
        edge_ptr,
        local[old_global],
        edge_labels,
        base.vertex_label_values,
        base.edge_label_values,
    )


def _single_process(paths, min_support, max_size, n_jobs, n_features, out):
    """Mine (and featurise) the whole collection in a fresh process; returns its report."""
    code = f"""
import json, pickle, resource, sys, time
import numpy as np
import graphsparse as gs
from graphsparse.distributed.apply import pattern_features
sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})
from benches.bench_distributed import RssSampler, concat
paths = {[str(p) for p in paths]!r}
sampler = RssSampler()
t0 = time.perf_counter()
ds = concat([gs.read_gspan(p) for p in paths])
t1 = time.perf_counter()
res = gs.mine_subgraphs(ds, {min_support!r}, {max_size!r}, n_jobs={n_jobs})
t2 = time.perf_counter()
X = pattern_features(list(res)[:{n_features}], ds, n_jobs={n_jobs})
t3 = time.perf_counter()
rss = sampler.stop()[1]
with open({str(out)!r}, "wb") as fh:
    pickle.dump((list(res), X), fh)
u = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({{"read": t1 - t0, "mine": t2 - t0, "features": t3 - t2,
    "cpu_s": u.ru_utime + u.ru_stime,
    "rss_mib": rss}}))
"""
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=7200
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])


def concat(parts: list[gs.GraphDataset]) -> gs.GraphDataset:
    """One dataset from shards with possibly different label sets (labels matched by value)."""
    vvals = sorted({v for p in parts for v in p.vertex_label_values})
    evals = sorted({v for p in parts for v in p.edge_label_values})
    vmap, emap = {v: k for k, v in enumerate(vvals)}, {v: k for k, v in enumerate(evals)}
    node_ptr, node_labels, edge_ptr, edges, edge_labels = [[0]], [], [[0]], [], []
    nv = ne = 0
    for p in parts:
        vm = np.array([vmap[v] for v in p.vertex_label_values], dtype=np.int64)
        em = np.array([emap[v] for v in p.edge_label_values], dtype=np.int64)
        node_ptr.append(p.node_ptr[1:] + nv)
        edge_ptr.append(p.edge_ptr[1:] + ne)
        node_labels.append(vm[p.node_labels] if len(vm) else p.node_labels)
        edge_labels.append(em[p.edge_labels] if len(em) else p.edge_labels)
        edges.append(p.edges)
        nv += int(p.node_ptr[-1])
        ne += int(p.edge_ptr[-1])
    return gs.GraphDataset(
        np.concatenate(node_ptr),
        np.concatenate(node_labels),
        np.concatenate(edge_ptr),
        np.concatenate(edges),
        np.concatenate(edge_labels),
        vvals,
        evals,
    )


class RssSampler:
    """Peak resident memory of this process, sampled every 10 ms on a daemon thread.

    ``ru_maxrss`` will not do: Linux carries the high-water mark of a forked parent over
    ``exec``, so a worker started by a big driver would report the driver's peak.
    """

    def __init__(self) -> None:
        import threading

        import psutil

        self._proc = psutil.Process()
        self.idle = self.peak = self._proc.memory_info().rss
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.01):
            self.peak = max(self.peak, self._proc.memory_info().rss)

    def stop(self) -> tuple[float, float]:
        """``(idle, peak)`` resident MiB."""
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self._proc.memory_info().rss)
        return self.idle / 2**20, self.peak / 2**20


def _start_sampler(dask_worker) -> None:
    dask_worker._gs_rss = RssSampler()


def _stop_sampler(dask_worker) -> tuple[float, float]:
    return dask_worker._gs_rss.stop()


def _cpu_seconds() -> float:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def _warm_up() -> None:
    import graphsparse.distributed  # noqa: F401


def _worker_sent(dask_worker) -> int:
    """Bytes the worker sent, to the driver and to other workers."""
    return int(dask_worker.transfer_outgoing_bytes_total)


def _worker_fetched(dask_worker) -> int:
    """Bytes the worker fetched from other workers (its transfer log)."""
    return sum(int(d.get("total", 0)) for d in dask_worker.transfer_incoming_log)


def run_dask(paths, k, min_support, max_size, n_features, scheme="auto"):
    from distributed import Client, LocalCluster

    import graphsparse.distributed as gsd

    with (
        LocalCluster(
            n_workers=k, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        Client(cluster) as client,
    ):
        client.run(_warm_up)  # imports before the clock starts
        client.run(_start_sampler)
        cpu0 = sum(client.run(_cpu_seconds).values()) + _cpu_seconds()
        t = time.perf_counter()
        res = gsd.mine_subgraphs(paths, min_support, max_size, client=client, scheme=scheme)
        t_mine = time.perf_counter() - t
        moved_mining = sum(client.run(_worker_fetched).values())
        t = time.perf_counter()
        X = None
        if n_features:
            X = gsd.transform(list(res)[:n_features], paths, client=client).compute()
        t_feat = time.perf_counter() - t
        cpu = sum(client.run(_cpu_seconds).values()) + _cpu_seconds() - cpu0
        rss = client.run(_stop_sampler)
        sent = sum(client.run(_worker_sent).values())
        moved = sum(client.run(_worker_fetched).values())
    return {
        "mine": t_mine,
        "features": t_feat,
        "rss_mib": [rss[w][1] for w in sorted(rss)],
        "rss_rise_mib": [rss[w][1] - rss[w][0] for w in sorted(rss)],
        "sent_bytes": sent,
        "w2w_bytes": (moved_mining, moved - moved_mining),
        "result": (list(res), X),
        "nodes": res.nodes_visited,
        "scheme": res.scheme,
        "rounds": res.rounds,
        "candidates": res.candidates,
        "gathered": res.bytes_gathered,
        "cpu_s": cpu,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="about a minute (40,000 graphs)")
    ap.add_argument("--n-graphs", type=int, default=None, help="collection size (default 200,000)")
    ap.add_argument("--min-support", type=float, default=0.05)
    ap.add_argument("--max-size", type=int, default=5)
    ap.add_argument("--n-shards", type=int, default=8, help="shard files (default 8)")
    ap.add_argument("--workers", default="1,2", help="worker counts to run (default 1,2)")
    ap.add_argument("--n-features", type=int, default=32, help="patterns to featurise")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--uneven-min-support",
        type=int,
        default=19,
        help="support count for the uneven-shard case (MUTAG in 6 shards of 3 to 89 graphs)",
    )
    args = ap.parse_args()
    n_graphs = args.n_graphs or (40_000 if args.quick else 200_000)
    base = gs.load_tu(DATA / "tu" / "Mutagenicity")
    workers = [int(w) for w in args.workers.split(",")]

    with tempfile.TemporaryDirectory(prefix="gs-bench-dask-") as tmp:
        t = time.perf_counter()
        bounds = np.linspace(0, n_graphs, args.n_shards + 1).astype(np.int64)
        paths = []
        for s in progress(range(args.n_shards), "writing shards"):
            a, b = int(bounds[s]), int(bounds[s + 1])
            shard = replicate(base[np.arange(a, b) % len(base)], b - a, args.seed + s)
            path = Path(tmp) / f"shard{s:03d}.gsp"
            gs.write_gspan(shard, path)
            paths.append(path)
        size_mib = sum(p.stat().st_size for p in paths) / 2**20
        print(
            f"collection: {n_graphs:,} graphs (Mutagenicity x {n_graphs / len(base):.1f}, "
            f"vertices renumbered), {args.n_shards} gSpan files, {size_mib:.0f} MiB, "
            f"written in {time.perf_counter() - t:.1f} s; min_support={args.min_support}, "
            f"max_size={args.max_size}, {args.n_features} patterns featurised"
        )
        print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")

        rows = []
        out = Path(tmp) / "single.pkl"
        for n_jobs in progress([1, os.cpu_count() or 1], "single process"):
            rep = _single_process(
                paths, args.min_support, args.max_size, n_jobs, args.n_features, out
            )
            rows.append((f"single process, {n_jobs} thread(s)", rep))
        import pickle

        with open(out, "rb") as fh:
            ref_patterns, ref_X = pickle.load(fh)
        if n_graphs % len(base) == 0:
            one = gs.mine_subgraphs(base, args.min_support, args.max_size)
            reps = n_graphs // len(base)
            assert [p.support for p in ref_patterns] == [reps * p.support for p in one]
        dask_rows = {}
        for k, scheme in progress([(k, s) for k in workers for s in SCHEMES], "dask"):
            rep = run_dask(paths, k, args.min_support, args.max_size, args.n_features, scheme)
            patterns, X = rep.pop("result")
            assert patterns == ref_patterns, f"{k} workers: patterns differ from single process"
            assert (X != ref_X).nnz == 0, f"{k} workers: features differ from single process"
            if scheme == "auto":
                dask_rows[k] = rep
            rows.append((f"dask, {k} worker(s) x 1 thread, {scheme} -> {rep['scheme']}", rep))

    print(
        f"\n{len(ref_patterns):,} patterns; every distributed result equals the single-process one"
    )
    print(
        "\n| run | read + mine s | features s | peak RSS MiB (per process) | rise over idle MiB "
        "| bytes sent by workers | bytes between workers (mining / features) | CPU s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, r in rows:
        rss = r["rss_mib"]
        rss_s = ", ".join(f"{x:.0f}" for x in rss) if isinstance(rss, list) else f"{rss:.0f}"
        rise = r.get("rss_rise_mib")
        rise_s = ", ".join(f"{x:.0f}" for x in rise) if rise else ""
        sent = r.get("sent_bytes")
        w2w = "{:,} / {:,}".format(*r["w2w_bytes"]) if "w2w_bytes" in r else ""
        print(
            f"| {name} | {r['mine']:.2f} | {r['features']:.2f} | {rss_s} | {rise_s} "
            f"| {'' if sent is None else f'{sent:,}'} | {w2w} "
            f"| {r['cpu_s']:.1f} |"
        )
    t_single = rows[0][1]["mine"]
    if 1 in dask_rows:
        t1 = dask_rows[1]["mine"]
        for k, r in dask_rows.items():
            print(
                f"{k} worker(s): mining speedup over 1 worker {t1 / r['mine']:.2f}x "
                f"(efficiency {t1 / (k * r['mine']):.2f}), over the 1-thread single process "
                f"{t_single / r['mine']:.2f}x (efficiency {t_single / (k * r['mine']):.2f}); "
                f"features {dask_rows[1]['features'] / r['features']:.2f}x over 1 worker"
            )
    ids_mib = sum(p.support for p in ref_patterns) * 8 / 2**20
    print(f"the result's graph ids (int64, held by the driver): {ids_mib:,.0f} MiB")
    for name, r in rows:
        if "scheme" in r:
            print(
                f"{name}: {r['rounds']} rounds, {r['candidates']:,} candidates, "
                f"{r['nodes']:,} codes reported"
            )
    print(
        f"per graph: single process {1e6 * t_single / n_graphs:.1f} us mining, "
        f"{1e6 * rows[0][1]['features'] / n_graphs:.1f} us featurising {args.n_features} patterns"
    )
    uneven_case(args.uneven_min_support, workers)


#: The uneven layout of the issue that retired the partition-only scheme: small shards whose
#: proportional threshold is 1 beside large ones, no max_size.
UNEVEN_SIZES = (3, 2, 55, 1, 89, 38)


def uneven_case(min_support: int, workers: list[int]) -> None:
    """MUTAG in six uneven shard files, no max_size: candidates, bytes, memory and time of
    the scheme ``auto`` picks (level-wise here), against one process; and how far the
    partition scheme's local search on the smallest shard gets within its node budget."""
    from graphsparse.distributed.mining import PARTITION_NODE_BUDGET, local_thresholds

    mutag = gs.load_tu(DATA / "tu" / "MUTAG")
    assert sum(UNEVEN_SIZES) == len(mutag)
    bounds = np.concatenate([[0], np.cumsum(UNEVEN_SIZES)])
    print(
        f"\nuneven shards: MUTAG ({len(mutag)} graphs) in {len(UNEVEN_SIZES)} shard files of "
        f"{', '.join(map(str, UNEVEN_SIZES))} graphs, min_support={min_support}, no max_size; "
        f"partition thresholds {local_thresholds(list(UNEVEN_SIZES), min_support)}"
    )
    with tempfile.TemporaryDirectory(prefix="gs-bench-uneven-") as tmp:
        paths = []
        for s, (a, b) in enumerate(itertools.pairwise(bounds)):
            path = Path(tmp) / f"uneven{s}.gsp"
            gs.write_gspan(mutag[np.arange(a, b)], path)
            paths.append(path)
        t = time.perf_counter()
        ref = gs.mine_subgraphs(mutag, min_support)
        t_single = time.perf_counter() - t
        smallest = int(np.argmin(UNEVEN_SIZES))
        a, b = bounds[smallest], bounds[smallest + 1]
        t = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", gs.exceptions.TruncatedSearchWarning)
            local = gs.mine_subgraphs(mutag[np.arange(a, b)], 1, max_nodes=PARTITION_NODE_BUDGET)
        t_local = time.perf_counter() - t
        print(
            f"one process: {len(ref):,} patterns in {t_single:.2f} s; the partition scheme's "
            f"local search on shard {smallest} ({b - a} graph(s), threshold 1): "
            f"{local.nodes_visited:,} nodes in {t_local:.2f} s, "
            f"{'cut at the budget' if local.truncated else 'finished'}"
        )
        print(
            "\n| run | scheme | mine s | rounds | candidates | bytes gathered by the driver "
            "| bytes sent by workers | peak RSS MiB per worker | rise over idle MiB |"
        )
        print("|---|---|---|---|---|---|---|---|---|")
        for k in workers:
            rep = run_dask(paths, k, min_support, None, 0)
            patterns, _ = rep.pop("result")
            assert patterns == list(ref), f"{k} workers: patterns differ from one process"
            print(
                f"| dask, {k} worker(s) | {rep['scheme']} | {rep['mine']:.2f} | {rep['rounds']} "
                f"| {rep['candidates']:,} | {rep['gathered']:,} | {rep['sent_bytes']:,} "
                f"| {', '.join(f'{x:.0f}' for x in rep['rss_mib'])} "
                f"| {', '.join(f'{x:.0f}' for x in rep['rss_rise_mib'])} |"
            )
        print(f"one process (in this process, 1 thread): {t_single:.2f} s")


if __name__ == "__main__":
    main()
