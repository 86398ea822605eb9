"""Benchmark graphsparse.pcst against pcst_fast on 4-neighbour grids.

Grids of 1e3, 1e4, 1e5 and 1e6 nodes (sides 32, 100, 316, 1000), unit costs, squared-Gaussian
prizes from a fixed seed, unrooted, one tree, ``gw`` pruning. Both solvers run in the same
process on the same arrays; their outputs are asserted identical and the best-of-k wall times
and the speed-up are printed.

Usage::

    python benches/bench_pcst.py            # up to 1e6 nodes (about a minute)
    python benches/bench_pcst.py --quick    # up to 1e5 nodes (a few seconds)
"""

from __future__ import annotations

import argparse

import numpy as np
from _timing import best_of

import graphsparse as gs

SIDES = (32, 100, 316, 1000)


def grid(side: int) -> np.ndarray:
    """Row-major grid edges: all horizontal edges, then all vertical ones."""
    idx = np.arange(side * side, dtype=np.int64).reshape(side, side)
    horizontal = np.stack([idx[:, :-1].ravel(), idx[:, 1:].ravel()], axis=1)
    vertical = np.stack([idx[:-1, :].ravel(), idx[1:, :].ravel()], axis=1)
    return np.ascontiguousarray(np.concatenate([horizontal, vertical]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="stop at 1e5 nodes")
    parser.add_argument("--repeats", type=int, default=None, help="best-of-k (default: by size)")
    parser.add_argument("--pruning", default="gw", choices=["none", "simple", "gw", "strong"])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    try:
        import pcst_fast
    except ImportError:
        pcst_fast = None
        print("pcst_fast not importable (pip install pcst-fast2): timing graphsparse only")

    sides = SIDES[:3] if args.quick else SIDES
    print(f"pcst on grids, unit costs, squared-Gaussian prizes, pruning={args.pruning!r}")
    print(f"{'nodes':>9} {'edges':>9} {'graphsparse':>12} {'pcst_fast':>12} {'speed-up':>9}")
    for side in sides:
        n = side * side
        edges = grid(side)
        prizes = np.random.default_rng(args.seed).standard_normal(n) ** 2
        costs = np.ones(len(edges))
        k = args.repeats or (7 if n <= 10_000 else 3 if n <= 100_000 else 2)
        ours_t, ours = best_of(k, gs.pcst, edges, prizes, costs, -1, 1, args.pruning)
        if pcst_fast is None:
            print(f"{n:>9} {len(edges):>9} {ours_t * 1e3:>10.1f}ms")
            continue
        ref_t, ref = best_of(k, pcst_fast.pcst_fast, edges, prizes, costs, -1, 1, args.pruning, 0)
        assert np.array_equal(ours[0], ref[0]) and np.array_equal(ours[1], ref[1]), (
            f"outputs differ on the {side}x{side} grid"
        )
        print(
            f"{n:>9} {len(edges):>9} {ours_t * 1e3:>10.1f}ms {ref_t * 1e3:>10.1f}ms "
            f"{ref_t / ours_t:>8.2f}x"
        )


if __name__ == "__main__":
    main()
