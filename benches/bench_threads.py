"""Thread scaling: the same call at 1, 2, 4, ... threads, on the same inputs, in one process.

There is no anchor here: the baseline is our own one-thread run, and each row checks that the
result at k threads equals the one-thread result exactly (results never depend on the thread
count). Workloads: frequent-subgraph mining (the Python call, and the Rust example alone when
``--rust-example`` names its binary), row-batched simplex projections, and WL subtree features.

    python benches/bench_threads.py                 # threads 1, 2, 4, ... up to the cores
    python benches/bench_threads.py --quick         # the small cases
    python benches/bench_threads.py --threads 1 2 4 8 16 --rust-example target/release/examples/mine
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from _timing import best_of

import graphsparse as gs
from graphsparse.compression import WLSubtreeFeatures

DATA = Path(
    os.environ.get(
        "GRAPHSPARSE_DATA", Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
    )
)


def mining(path: str, minsup: int) -> tuple[str, Callable[[int], Any], Callable[[Any], Any]]:
    ds = gs.load_tu(DATA / path)
    name = f"mine_subgraphs {Path(path).name} min_support={minsup}"
    return (
        name,
        lambda k: gs.mine_subgraphs(ds, minsup, n_jobs=k),
        lambda r: sorted((p.dfs_code, p.support) for p in r),
    )


def projections(rows: int, cols: int) -> tuple[str, Callable[[int], Any], Callable[[Any], Any]]:
    v = np.random.default_rng(0).normal(size=(rows, cols))
    out = np.empty_like(v)
    name = f"project_simplex rows={rows} n={cols} out="
    return name, lambda k: gs.project_simplex(v, out=out, n_jobs=k).copy(), lambda r: r


def wl(path: str) -> tuple[str, Callable[[int], Any], Callable[[Any], Any]]:
    ds = gs.load_tu(DATA / path)
    name = f"WLSubtreeFeatures {Path(path).name} h=5"

    def run(k: int) -> Any:
        return WLSubtreeFeatures(n_iter=5, n_jobs=k).fit_transform(ds)

    return name, run, lambda r: r.toarray() if hasattr(r, "toarray") else np.asarray(r)


def rust_example(binary: str, path: str, minsup: int, threads: list[int]) -> None:
    print(f"\nRust example alone ({binary} {Path(path).name} {minsup}): wall seconds of the search")
    base = None
    for k in threads:
        out = subprocess.run(
            [binary, str(DATA / path), str(minsup), str(k)], capture_output=True, text=True
        ).stdout
        m = re.search(r"(\d+) patterns.*wall ([0-9.]+) s", out)
        if not m:
            print(out)
            continue
        wall = float(m[2])
        base = base or wall
        n = int(m[1])
        print(f"  threads {k:3d}: {n:7d} patterns  {wall:8.3f} s  speed-up {base / wall:5.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--threads", type=int, nargs="*")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rust-example", help="path of the built gspan example `mine`")
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    threads = args.threads or [k for k in (1, 2, 4, 8, 16, 32, 64) if k <= cores]
    cases = [mining("tu/MUTAG", 56), projections(200, 10_000)]
    if not args.quick:
        cases = [
            mining("tu/MUTAG", 19),
            mining("tu/Mutagenicity", 434),
            projections(2_000, 10_000),
            wl("tu/Mutagenicity"),
        ]
    print(f"{cores} cores; best of {args.repeat} runs after one warm-up; threads {threads}")
    for name, run, key in cases:
        print(f"\n{name}")
        run(threads[0])  # warm-up: page cache, pools, allocator
        base_t, base_out = None, None
        for k in threads:
            t, out = best_of(args.repeat, lambda k=k, run=run: run(k))
            if base_out is None:
                base_t, base_out = t, key(out)
            else:
                got = key(out)
                same = (
                    np.array_equal(got, base_out)
                    if isinstance(got, np.ndarray)
                    else got == base_out
                )
                assert same, f"{name}: the result at {k} threads differs from 1 thread"
            print(f"  threads {k:3d}: {t:8.3f} s  speed-up {base_t / t:5.2f}x  (same result)")
    if args.rust_example and not args.quick:
        rust_example(args.rust_example, "tu/MUTAG", 19, threads)
        rust_example(args.rust_example, "tu/Mutagenicity", 434, threads)


if __name__ == "__main__":
    main()
