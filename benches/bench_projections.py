"""Projection benchmarks: graphsparse against numpy sort-based code and POT.

Run ``python benches/bench_projections.py`` (n = 1e3 ... 1e7) or ``--quick`` (a few seconds).
For each size it prints the time per element of

* ``copy``   — ``np.copyto`` into a preallocated buffer: one read and one write pass, the
  memory-bandwidth floor any projection must pay;
* ``ours``   — ``graphsparse.project_simplex(v, out=buf)`` (same preallocated buffer);
* ``alloc``  — ``graphsparse.project_simplex(v)`` (a fresh output array, page faults included);
* ``fresh``  — ``v.copy()``: a copy into a fresh array, the like-for-like floor of ``alloc``
  (``alloc`` writes a ``numpy.zeros`` array only where the result is not zero, so the pages
  it leaves untouched are mapped when first read, as with ``numpy.zeros``);
* ``numpy``  — the sort-based reference (Duchi et al.) in numpy;
* ``POT``    — ``ot.utils.proj_simplex`` (the anchor; also sort-based),

then the ratios ``ours/copy``, ``alloc/copy``, ``alloc/fresh``, ``numpy/ours`` and
``POT/ours``. Results are checked to agree
before they are timed. A second table compares the weighted simplex (and the other projections)
with their numpy sort/argsort versions at 1e6 (1e5 with ``--quick``), and with a copy pass.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np

import graphsparse as gs
from graphsparse.testing.reference import projections as ref

try:
    import ot
except ImportError:  # pragma: no cover - POT is a bench extra
    ot = None


def best_time(fn: Callable[[], object], min_total: float = 0.3, min_runs: int = 3) -> float:
    """Best wall time of ``fn`` over at least ``min_runs`` runs and ``min_total`` seconds."""
    fn()  # warm-up (first-touch page faults, caches)
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < min_runs or time.perf_counter() - start < min_total:
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        if len(times) >= 200:
            break
    return min(times)


def ns_per(t: float, n: int) -> float:
    return t / n * 1e9


def bench_simplex(sizes: list[int], rng: np.random.Generator) -> None:
    print("\nsimplex projection (z = 1), ns per element; ratios: lower ours/copy is better")
    head = f"{'n':>10} {'copy':>8} {'ours':>8} {'alloc':>8} {'fresh':>8} {'numpy':>8} {'POT':>8}"
    print(
        head + f" {'ours/copy':>10} {'alloc/copy':>11} {'alloc/fresh':>12}"
        f" {'numpy/ours':>11} {'POT/ours':>9}"
    )
    for n in sizes:
        v = rng.normal(size=n)
        buf = np.empty_like(v)
        ours = gs.project_simplex(v)
        want = ref.project_simplex_sort(v)
        np.testing.assert_allclose(ours, want, rtol=0, atol=1e-12)
        if ot is not None:
            np.testing.assert_allclose(ot.utils.proj_simplex(v), ours, rtol=0, atol=1e-12)
        t_copy = best_time(lambda v=v, buf=buf: np.copyto(buf, v))
        t_ours = best_time(lambda v=v, buf=buf: gs.project_simplex(v, out=buf))
        t_alloc = best_time(lambda v=v: gs.project_simplex(v))
        t_fresh = best_time(lambda v=v: v.copy())
        t_np = best_time(lambda v=v: ref.project_simplex_sort(v), min_total=0.1, min_runs=2)
        t_pot = (
            best_time(lambda v=v: ot.utils.proj_simplex(v), min_total=0.1, min_runs=2)
            if ot is not None
            else float("nan")
        )
        row = [ns_per(t, n) for t in (t_copy, t_ours, t_alloc, t_fresh, t_np, t_pot)]
        print(
            f"{n:>10} " + " ".join(f"{x:8.2f}" for x in row) + f" {t_ours / t_copy:10.2f}"
            f" {t_alloc / t_copy:11.2f} {t_alloc / t_fresh:12.2f}"
            f" {t_np / t_ours:11.1f} {t_pot / t_ours:9.1f}"
        )


def bench_l1(sizes: list[int], rng: np.random.Generator) -> None:
    print("\nl1 ball (radius 1), ns per element; ratios: lower ours/copy is better")
    head = f"{'n':>10} {'copy':>8} {'ours':>8} {'alloc':>8} {'fresh':>8}"
    print(head + f" {'ours/copy':>10} {'alloc/fresh':>12}")
    for n in sizes:
        v = rng.normal(size=n)
        buf = np.empty_like(v)
        np.testing.assert_allclose(
            gs.project_l1_ball(v), ref.project_l1_ball_sort(v, 1.0), rtol=0, atol=1e-12
        )
        t_copy = best_time(lambda v=v, buf=buf: np.copyto(buf, v))
        t_ours = best_time(lambda v=v, buf=buf: gs.project_l1_ball(v, out=buf))
        t_alloc = best_time(lambda v=v: gs.project_l1_ball(v))
        t_fresh = best_time(lambda v=v: v.copy())
        row = [ns_per(t, n) for t in (t_copy, t_ours, t_alloc, t_fresh)]
        print(
            f"{n:>10} "
            + " ".join(f"{x:8.2f}" for x in row)
            + f" {t_ours / t_copy:10.2f} {t_alloc / t_fresh:12.2f}"
        )


def bench_others(n: int, rng: np.random.Generator) -> None:
    print(
        f"\nother projections at n = {n}: ms (ours with out=), numpy reference, speed-up,"
        " ours / copy pass"
    )
    y = rng.normal(size=n)
    eps = rng.uniform(0.0, 1.0, size=n)
    eps[::10] = 0.0
    buf = np.empty_like(y)
    t_copy = best_time(lambda: np.copyto(buf, y))
    cases: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
        (
            "weighted simplex (vs argsort Alg. 1)",
            lambda: gs.project_weighted_simplex(y, eps, out=buf),
            lambda: ref.project_weighted_simplex_sort(y, eps),
        ),
        (
            "l1 ball r=1 (vs sort)",
            lambda: gs.project_l1_ball(y, 1.0, out=buf),
            lambda: ref.project_l1_ball_sort(y, 1.0),
        ),
        (
            f"capped simplex k={n // 10} (vs sorted sweep)",
            lambda: gs.project_capped_simplex(y, n // 10, out=buf),
            lambda: ref.project_capped_simplex_sort(y, n // 10),
        ),
        (
            f"top-k k={n // 100} (vs stable argsort)",
            lambda: gs.project_top_k(y, n // 100, out=buf),
            lambda: ref.project_top_k_sort(y, n // 100),
        ),
    ]
    for name, ours, theirs in cases:
        ours()
        np.testing.assert_allclose(buf, np.asarray(theirs()), rtol=0, atol=1e-12)
        t_ours = best_time(ours)
        t_ref = best_time(theirs, min_total=0.1, min_runs=2)
        print(
            f"  {name:<42} ours {t_ours * 1e3:8.2f} ms   numpy {t_ref * 1e3:8.2f} ms"
            f"   x{t_ref / t_ours:6.1f}   {t_ours / t_copy:5.2f}x copy"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, a few seconds")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    sizes = [1_000, 10_000, 100_000] if args.quick else [10**e for e in range(3, 8)]
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(
        f"graphsparse {gs.__version__}, numpy {np.__version__}, "
        f"POT {getattr(ot, '__version__', 'not installed')}; "
        f"{os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    bench_simplex(sizes, rng)
    bench_l1(sizes[-2:], rng)
    bench_others(100_000 if args.quick else 1_000_000, rng)


if __name__ == "__main__":
    main()
