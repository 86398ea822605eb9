"""Convex graph-structured recovery (Kuroda & Kitahara): speed against CVXPY, scaling, Figure 1.

Run ``python benches/bench_recovery.py`` (default: Figure 1 with 3 trials on 11 points, N up to
10⁶), ``--quick`` (a few minutes) or ``--full`` (100 trials on 15 points, N up to 10⁷; many
hours); ``--only SECTION`` runs one section.

* **speed** — one solve of model (6) at α = 150, λ = 0.02·λ_max, 40 dB by
  ``graphsparse.recovery`` (relative duality gap 1e-5) and by CVXPY on the SOCP form of the
  same problem (its default solver, timed; Clarabel at 1e-10 fixes the optimum): N = 500,
  d = 350 with the paper's dense ``A``, and N = 2·10⁴, d = 1.4·10⁴ with a sparse ``L``
  (10 entries per row). Objectives must agree to 1e-4 relative; the ratio is printed. At
  N = 500 one more row per solver (``anderson``, ``ssnal``, ``pdhg``, ``pdhg-fixed``, ``kk``),
  each timed right after a fresh CVXPY timing, at the same certified relative gap.
* **scaling** — seconds per iteration on 2-D grids and 3-regular graphs, N = 10³ … 10⁶ (10⁷
  with ``--full``), J = N/2 sparse measurements; the last column divides by N + m + nnz(L) and
  stays flat when the cost is linear.
* **large** — a 10⁶-vertex problem with a sparse ``L`` solved to a relative gap of 1e-4.
* **figure 1** — NMSE against d (40 dB) and against the SNR (d = 350): the proposed model
  (α ∈ {0, 50, 100, 150, 200, 300}), l1, the latent group lasso (closed neighbourhoods) and
  Graph-IHT (s = 150, 2 components); each model's λ = ρ·λ_max (its own λ_max) on a log grid of
  ρ ∈ [1e-4, 1], the best ρ per trial (the paper's "tuned independently for each model to
  obtain the best result"); prints the table and saves ``recovery_fig1a.png`` and
  ``recovery_fig1b.png``.

``--anchor-only`` runs the CVXPY side of the speed section alone.
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
import time
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from _progress import progress
from _timing import best_of

from graphsparse.datasets import make_graph_structured_recovery
from graphsparse.metrics import nmse
from graphsparse.testing.reference import recovery as ref

try:
    from graphsparse import recovery as gsr
except ImportError:  # the binding of issue #11 is not built yet
    gsr = None  # type: ignore[assignment]


def cvxpy_socp(
    a: Any, y: np.ndarray, edges: np.ndarray, alpha: float, lam: float, solver: str | None
) -> tuple[np.ndarray, float, float]:
    """Model (6) as the SOCP of spec §1.3: ``(x, objective, seconds)``, default solver unless
    ``solver`` is given (then at tolerances 1e-10)."""
    import cvxpy as cp

    n = a.shape[1]
    x = cp.Variable(n)
    s = cp.Variable(n, nonneg=True)
    t = cp.Variable(n, nonneg=True)
    import scipy.sparse as sp

    m = len(edges)
    rows = np.r_[np.arange(m), np.arange(m)]
    d = sp.csr_array((np.r_[np.ones(m), -np.ones(m)], (rows, edges.T.ravel())), shape=(m, n))
    cons = [cp.SOC(t + s, cp.vstack([2 * x, t - s]), axis=0), cp.norm1(d @ s) <= alpha]
    prob = cp.Problem(
        cp.Minimize(0.5 * cp.sum_squares(y - a @ x) + lam * 0.5 * cp.sum(t + s)), cons
    )
    t0 = time.perf_counter()
    if solver is None:
        prob.solve()
    else:
        prob.solve(solver=solver, tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
    return np.asarray(x.value), float(prob.value), time.perf_counter() - t0


def ours(
    a: Any,
    y: np.ndarray,
    edges: np.ndarray,
    alpha: float,
    lam: float,
    tol: float,
    solver: str = "auto",
) -> Any:
    """Fit ``graphsparse.recovery.GraphStructuredRecovery`` (the issue's API) on one thread,
    like CVXPY's solvers."""
    model = gsr.GraphStructuredRecovery(
        edges, alpha=alpha, lambda_=lam, tol=tol, max_iter=50_000, n_jobs=1, solver=solver
    )
    return model.fit(a, y)


#: the solvers timed one by one on the paper's instance (the default, "auto", is the first row)
SOLVERS = ("anderson", "ssnal", "pdhg", "pdhg-fixed", "kk")


def bench_speed(n_large: int, anchor_only: bool) -> None:
    """One solve against CVXPY at N = 500 (dense L) and at ``n_large`` (sparse L)."""
    print(
        "\nspeed: one solve of model (6), alpha = 150, lambda = 0.02 lambda_max, 40 dB; one "
        "thread each, best of 3 (CVXPY at N > 500: one run)"
    )
    print(
        f"{'N':>7} {'J':>6} {'L':>6} {'CVXPY':>9} {'ours':>9} {'ratio':>7} {'rel. obj. diff':>15}"
    )
    sizes = [(500, 350)] + ([(n_large, 7 * n_large // 10)] if n_large else [])
    for n, j in sizes:
        p = make_graph_structured_recovery(
            n_nodes=n, n_measurements=j, support_size=150 * n // 500, random_state=0
        )
        a: Any = p.A
        if n > 500:
            import scipy.sparse as sp

            # a sparse L with 10 entries per row at this size
            rng = np.random.default_rng(1)
            a = sp.random(j, n, density=10 / n, random_state=rng, format="csr")
            a.data = rng.standard_normal(a.nnz)
        y = a @ p.x_true + 0.01 * np.random.default_rng(2).standard_normal(j)
        lam = (
            0.02 * gsr.lambda_max(a, y)
            if gsr is not None
            else 0.02 * float(np.max(np.abs(a.T @ y)))
        )
        _, obj_ref, t_ref = cvxpy_socp(a, y, p.edges, 150.0, lam, "CLARABEL")
        repeats = 3 if n <= 500 else 1
        t_cvx, (_, obj_cvx, _) = best_of(
            repeats, functools.partial(cvxpy_socp, a, y, p.edges, 150.0, lam, None)
        )
        kind = "dense" if n == 500 else "sparse"
        if anchor_only or gsr is None:
            print(f"{n:>7} {j:>6} {kind:>6} {t_cvx:>8.3f}s {'-':>9} {'-':>7} {'-':>15}")
            continue
        t_ours, fit = best_of(3, functools.partial(ours, a, y, p.edges, 150.0, lam, 1e-5))
        # Ψ by CVXPY at N = 500; beyond, the solver's own primal objective (a feasible σ:
        # an upper bound on the exact value)
        obj = (
            ref.graph_objective(a, y, fit.coef_, p.edges, 150.0, lam)
            if n <= 500
            else fit.objective_
        )
        diff = (obj - obj_ref) / abs(obj_ref)
        assert abs(diff) <= 1e-4, f"objectives differ: {obj} vs {obj_ref}"
        assert abs(obj_cvx - obj_ref) <= 1e-4 * abs(obj_ref)
        print(
            f"{n:>7} {j:>6} {kind:>6} {t_cvx:>8.3f}s {t_ours:>8.3f}s {t_cvx / t_ours:>6.1f}x "
            f"{diff:>15.1e}   ({fit.n_iter_} iterations of {fit.solver_!r}; Clarabel at 1e-10: "
            f"{t_ref:.2f}s)"
        )
        if n > 500:
            continue
        # each solver at the same certified relative gap (1e-5), alternating with CVXPY so that
        # a load change on a shared machine hits both sides of a ratio alike
        for solver in SOLVERS:
            t_s, fit_s = best_of(
                3, functools.partial(ours, a, y, p.edges, 150.0, lam, 1e-5, solver)
            )
            t_c, _ = best_of(3, functools.partial(cvxpy_socp, a, y, p.edges, 150.0, lam, None))
            obj_s = ref.graph_objective(a, y, fit_s.coef_, p.edges, 150.0, lam)
            diff_s = (obj_s - obj_ref) / abs(obj_ref)
            assert abs(diff_s) <= 1e-4, f"{solver}: objectives differ: {obj_s} vs {obj_ref}"
            assert fit_s.history_["gap"][-1] <= 1e-5, f"{solver}: not certified"
            print(
                f"{'':>7} {'':>6} {solver:>10} {t_c:>8.3f}s {t_s:>8.3f}s {t_c / t_s:>6.1f}x "
                f"{diff_s:>15.1e}   ({fit_s.n_iter_} iterations, {fit_s.objective_:.6g} "
                f"- {fit_s.history_['dual_objective'][-1]:.6g} certified)"
            )


def regular3(n: int, rng: np.random.Generator) -> np.ndarray:
    """A cycle plus a random perfect matching: every vertex has degree 3, except that matching
    edges repeating a cycle edge are dropped (a few, with probability ~2/n each)."""
    cycle = np.column_stack([np.arange(n), (np.arange(n) + 1) % n])
    perm = rng.permutation(n)
    match = np.sort(perm.reshape(-1, 2), axis=1)
    gap = match[:, 1] - match[:, 0]
    match = match[(gap != 1) & (gap != n - 1)]
    return np.ascontiguousarray(np.vstack([cycle, match]), dtype=np.int64)


def grid(n: int) -> np.ndarray:
    """The 4-neighbour grid on ``side × side`` vertices, ``side = ⌊√n⌋`` (so ``N ≈ n``)."""
    side = math.isqrt(n)
    idx = np.arange(side * side).reshape(side, side)
    right = np.column_stack([idx[:, :-1].ravel(), idx[:, 1:].ravel()])
    down = np.column_stack([idx[:-1, :].ravel(), idx[1:, :].ravel()])
    return np.ascontiguousarray(np.vstack([right, down]), dtype=np.int64)


def sparse_design(j: int, n: int, per_row: int, rng: np.random.Generator) -> Any:
    """A ``j × n`` CSR matrix with ``per_row`` N(0, 1/per_row) entries per row (built directly:
    ``scipy.sparse.random`` is too slow at 10⁷ columns)."""
    import scipy.sparse as sp

    indices = rng.integers(0, n, size=j * per_row, dtype=np.int64)
    indptr = np.arange(0, j * per_row + 1, per_row, dtype=np.int64)
    data = rng.standard_normal(j * per_row) / math.sqrt(per_row)
    return sp.csr_array((data, indices, indptr), shape=(j, n))


def scaled_problem(
    n: int, graph: str, seed: int
) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, int]:
    """``(L, y, edges, x_true, N)``: J = N/2 sparse measurements (8 per row) of a signal on a
    few connected blocks (≈ 3% of the vertices), 40 dB."""
    rng = np.random.default_rng(seed)
    edges = grid(n) if graph == "grid" else regular3(n - n % 2, rng)
    n = int(edges.max()) + 1
    x = np.zeros(n)
    block = max(n // 200, 1)
    for start in rng.choice(n - block, size=6, replace=False):
        x[start : start + block] = rng.standard_normal(block)
    a = sparse_design(n // 2, n, 8, rng)
    clean = a @ x
    y = clean + np.linalg.norm(clean) / math.sqrt(len(clean)) * 0.01 * rng.standard_normal(
        len(clean)
    )
    return a, y, edges, x, n


def bench_scaling(sizes: Sequence[int]) -> None:
    """Seconds per iteration: solves of ``k₀`` and ``k₀ + K`` iterations (best of 3 each), the
    difference over ``K`` (the norm estimates and set-up cancel); ``K`` grows as N shrinks so
    that every difference spans about the same work."""
    print(
        "\nscaling: seconds per iteration of model (6), J = N/2, 8 nonzeros per row of L, "
        "one thread"
    )
    print(
        f"{'graph':>9} {'N':>9} {'edges':>9} {'nnz(L)':>10} {'K':>5} {'s/iter':>10} "
        f"{'ns/(N+m+nnz)':>13}"
    )
    for graph in ("grid", "3-regular"):
        for size in sizes:
            a, y, edges, _, n = scaled_problem(size, graph, 0)
            lam = 0.05 * gsr.lambda_max(a, y)
            work = n + len(edges) + a.nnz
            # K large enough that the difference dwarfs the timing noise of a whole solve
            extra = int(min(max(2 * 10**8 // work, 50), 2000))
            times = []
            for k in (10, 10 + extra):
                m = gsr.GraphStructuredRecovery(
                    edges, alpha=float(n) / 50, lambda_=lam, tol=1e-300, max_iter=k, n_jobs=1
                )
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # the max_iter stop is the point here
                    best, _ = best_of(3, m.fit, a, y)
                assert m.n_iter_ == k
                times.append(best)
            per = (times[1] - times[0]) / extra
            print(
                f"{graph:>9} {n:>9} {len(edges):>9} {a.nnz:>10} {extra:>5} {per:>10.2e} "
                f"{per / work * 1e9:>13.2f}"
            )
            del a, y, edges


def bench_million(n: int) -> None:
    """A ``n``-vertex problem with a sparse L solved to tolerance (relative gap 1e-4)."""
    print(f"\nlarge: one solve at N = {n} (3-regular graph, J = N/2, sparse L), tol = 1e-4")
    a, y, edges, x, n = scaled_problem(n, "3-regular", 1)
    lam = 0.05 * gsr.lambda_max(a, y)
    t0 = time.perf_counter()
    fit = gsr.GraphStructuredRecovery(
        edges, alpha=float(n) / 50, lambda_=lam, tol=1e-4, max_iter=5000
    ).fit(a, y)
    took = time.perf_counter() - t0
    print(
        f"N = {n}, m = {len(edges)}, nnz(L) = {a.nnz}: {took:.1f}s, {fit.n_iter_} iterations, "
        f"relative gap {fit.history_['gap'][-1]:.1e}, converged = {fit.converged_}, "
        f"NMSE = {10 * math.log10(nmse(x, fit.coef_)):.1f} dB"
    )


ALPHAS = (0.0, 50.0, 100.0, 150.0, 200.0, 300.0)
MODELS = ["l1", "LGL", "IHT"] + [f"alpha={a:g}" for a in ALPHAS]


def path_errors(
    name: str, a: np.ndarray, y: np.ndarray, edges: np.ndarray, x: np.ndarray, rhos: np.ndarray
) -> list[float]:
    """NMSE of one model along ``λ = ρ·λ_max`` (its own ``λ_max``), warm-started from the
    largest ``λ`` down; the walk stops once the NMSE has risen ``PATIENCE`` times in a row past
    its minimum (the small-λ end is the expensive one and, past the minimum, only overfits)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name == "IHT":
            return [nmse(x, gsr.GraphIHT(edges, sparsity=150, n_components=2).fit(a, y).coef_)]
        model: Any
        if name == "LGL":
            groups = gsr.neighbourhood_groups(edges, a.shape[1])
            g = a.T @ y
            top = max(float(np.linalg.norm(g[grp])) / math.sqrt(len(grp)) for grp in groups)
            model = gsr.LatentGroupLasso(groups=groups, tol=1e-6, warm_start=True)
        else:
            alpha = 0.0 if name == "l1" else float(name.split("=")[1])
            graph = () if name == "l1" else edges
            top = gsr.lambda_max(a, y, graph, alpha=alpha) if len(graph) else gsr.lambda_max(a, y)
            model = gsr.GraphStructuredRecovery(graph, alpha=alpha, tol=1e-6, warm_start=True)
        out: list[float] = []
        for rho in rhos:
            out.append(nmse(x, model.set_params(lambda_=float(rho * top)).fit(a, y).coef_))
            k = int(np.argmin(out))
            if len(out) - 1 - k >= PATIENCE:
                break
        return out


PATIENCE = 3


def bench_figure1(trials: int, quick: bool, full: bool, grid_size: int) -> None:
    """Figure 1 of the paper: NMSE against d (40 dB) and against SNR (d = 350)."""
    rhos = np.logspace(0, -4, grid_size)
    settings: list[tuple[int, float]] = (
        [(200, 40.0), (350, 40.0), (350, 20.0)]
        if quick
        else [(j, 40.0) for j in (150, 200, 250, 300, 350, 400, 450)]
        + [
            (350, s)
            for s in (
                (0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0) if full else (0.0, 10.0, 20.0, 30.0)
            )
        ]
    )
    print(
        f"\nfigure 1: N = 500, 3-regular graph, 150 nonzeros on 2 subgraphs; {trials} trials per "
        f"point; lambda = rho * lambda_max, rho on {grid_size} log-spaced values in [1e-4, 1], "
        "the best rho per trial and model (the paper's oracle tuning)"
    )
    table: dict[tuple[int, float], dict[str, float]] = {}
    t_start = time.perf_counter()
    for j, snr in progress(settings, "settings"):
        errs: dict[str, list[float]] = {m: [] for m in MODELS}
        for t in range(trials):
            p = make_graph_structured_recovery(n_measurements=j, snr_db=snr, random_state=1000 + t)
            for m in MODELS:
                errs[m].append(min(path_errors(m, p.A, p.y, p.edges, p.x_true, rhos)))
        table[(j, snr)] = {m: float(np.mean(errs[m])) for m in MODELS}
        row = " ".join(f"{m}={10 * math.log10(table[(j, snr)][m]):.2f}" for m in MODELS)
        print(f"  d={j} SNR={snr:g}: {row}", file=sys.stderr, flush=True)
    print(f"mean NMSE in dB ({time.perf_counter() - t_start:.0f}s)")
    print(f"{'d':>4} {'SNR':>5} " + " ".join(f"{m:>10}" for m in MODELS))
    for (j, snr), row in table.items():
        print(
            f"{j:>4} {snr:>5.0f} " + " ".join(f"{10 * math.log10(row[m]):>10.2f}" for m in MODELS)
        )
    best = [m for m in MODELS if m.startswith("alpha=") and m != "alpha=0"]
    wins = sum(min(row[m] for m in best) < min(row["l1"], row["LGL"]) for row in table.values())
    print(f"the best proposed alpha is below l1 and LGL at {wins} of {len(table)} points")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plots")
        return
    for key, xs, label, fname in (
        (
            0,
            [k for k in table if k[1] == 40.0],
            "number of measurements d (SNR 40 dB)",
            "recovery_fig1a.png",
        ),
        (1, [k for k in table if k[0] == 350], "SNR in dB (d = 350)", "recovery_fig1b.png"),
    ):
        xs = sorted(xs, key=lambda k: k[key])
        fig, ax = plt.subplots(figsize=(6, 4))
        for m in MODELS:
            ax.plot(
                [k[key] for k in xs],
                [10 * math.log10(table[k][m]) for k in xs],
                marker="o" if m.startswith("alpha") else "s",
                linestyle="-" if m.startswith("alpha") else "--",
                label=m,
            )
        ax.set_xlabel(label)
        ax.set_ylabel("NMSE (dB)")
        ax.set_title(f"Kuroda & Kitahara Fig. 1 ({trials} trials)")
        ax.legend(fontsize=7, ncol=2)
        fig.tight_layout()
        fig.savefig(fname, dpi=120)
        print("saved", fname)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="about a minute")
    parser.add_argument("--full", action="store_true", help="100 trials, N up to 1e7 (hours)")
    parser.add_argument("--anchor-only", action="store_true", help="CVXPY timings only")
    parser.add_argument(
        "--only",
        choices=["speed", "scaling", "large", "figure1"],
        action="append",
        help="run only these sections (repeatable)",
    )
    parser.add_argument("--trials", type=int, default=None, help="Figure 1 trials per point")
    parser.add_argument("--grid", type=int, default=None, help="Figure 1 rho values")
    parser.add_argument("--cvxpy-n", type=int, default=None, help="N of the sparse CVXPY run")
    parser.add_argument(
        "--max-n", type=int, default=None, help="largest N of the scaling section (a power of 10)"
    )
    args = parser.parse_args(argv)
    trials = args.trials or (100 if args.full else 1 if args.quick else 3)
    only = set(args.only or ["speed", "scaling", "large", "figure1"])
    if "speed" in only or args.anchor_only:
        n_large = args.cvxpy_n if args.cvxpy_n is not None else 0 if args.quick else 20_000
        bench_speed(n_large, args.anchor_only)
    if args.anchor_only:
        return
    if "scaling" in only:
        top = args.max_n or (10**7 if args.full else 10**4 if args.quick else 10**6)
        bench_scaling([10**k for k in range(3, int(math.log10(top)) + 1)])
    if "large" in only and not args.quick:
        bench_million(10**6)
    if "figure1" in only:
        grid_size = args.grid or (30 if args.full else 12 if args.quick else 20)
        bench_figure1(trials, args.quick, args.full, grid_size)


if __name__ == "__main__":
    main()
