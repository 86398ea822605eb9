"""Convex graph-structured recovery (Kuroda & Kitahara): speed against CVXPY, and Figure 1.

Run ``python benches/bench_recovery.py`` (default: a few trials), ``--quick`` (about a minute)
or ``--full`` (100 trials, the paper's protocol; hours). Sections:

* **speed** — one solve of model (6) on the paper's instance (N = 500, J = 350, 40 dB,
  α = 150, λ = 0.02·λ_max) by ``graphsparse.recovery`` and by CVXPY on the SOCP form of the
  same problem (the anchor: CVXPY's default solver, and Clarabel at tight tolerances to fix the
  optimum); objectives must agree to 1e-4 relative; the ratio is printed. ``--full`` adds
  N = 2·10⁴ with a sparse ``L``.
* **figure 1** — NMSE against the number of measurements (40 dB) and against the SNR
  (J = 350) for the proposed model (α ∈ {50, 100, 150, 200, 300}), l1, the latent group lasso
  (edge and neighbourhood groups) and Graph-IHT, λ tuned per model on a ρ grid (the single ρ
  with the best trial-averaged NMSE, spec §5.2); prints the table and saves two plots.

``--anchor-only`` runs the CVXPY side of the speed section alone (it needs no binding).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from graphsparse.datasets import make_graph_structured_recovery
from graphsparse.metrics import nmse

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from reference import recovery as ref

try:
    from graphsparse import recovery as gsr
except ImportError:  # the binding of issue #11 is not built yet
    gsr = None  # type: ignore[assignment]

try:
    from tqdm import tqdm
except ImportError:  # pragma: no cover - optional
    tqdm = None


def progress(items: Sequence[Any], desc: str) -> Any:
    """``tqdm`` when installed, else a plain counter line."""
    if tqdm is not None:
        return tqdm(items, desc=desc, leave=False)

    def gen() -> Any:
        for k, item in enumerate(items):
            print(f"\r{desc}: {k + 1}/{len(items)}", end="", file=sys.stderr, flush=True)
            yield item
        print(file=sys.stderr)

    return gen()


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
    d = ref.difference_matrix(n, edges)
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


def ours(a: Any, y: np.ndarray, edges: np.ndarray, alpha: float, lam: float, tol: float) -> Any:
    """Fit ``graphsparse.recovery.GraphStructuredRecovery`` (the issue's API)."""
    model = gsr.GraphStructuredRecovery(edges, alpha=alpha, lambda_=lam, tol=tol, max_iter=50_000)
    return model.fit(a, y)


def bench_speed(full: bool, anchor_only: bool) -> None:
    print("\nspeed: one solve of model (6), alpha = 150, lambda = 0.02 lambda_max, 40 dB")
    print(f"{'N':>7} {'J':>6} {'CVXPY':>9} {'ours':>9} {'ratio':>7} {'rel. obj. diff':>15}")
    sizes = [(500, 350)] + ([(20_000, 14_000)] if full else [])
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
        lam = 0.02 * ref.lambda_max(a.toarray() if hasattr(a, "toarray") else a, y, p.edges, 150.0)
        _, obj_ref, _ = cvxpy_socp(a, y, p.edges, 150.0, lam, "CLARABEL")
        _, obj_cvx, t_cvx = cvxpy_socp(a, y, p.edges, 150.0, lam, None)
        if anchor_only or gsr is None:
            print(f"{n:>7} {j:>6} {t_cvx:>8.3f}s {'-':>9} {'-':>7} {'-':>15}")
            continue
        ours(a, y, p.edges, 150.0, lam, 1e-4)  # warm-up
        t0 = time.perf_counter()
        fit = ours(a, y, p.edges, 150.0, lam, 1e-4)
        t_ours = time.perf_counter() - t0
        obj = ref.graph_objective(
            a.toarray() if hasattr(a, "toarray") else a, y, fit.coef_, p.edges, 150.0, lam
        )
        diff = (obj - obj_ref) / abs(obj_ref)
        assert abs(diff) <= 1e-4, f"objectives differ: {obj} vs {obj_ref}"
        assert abs(obj_cvx - obj_ref) <= 1e-4 * abs(obj_ref)
        print(f"{n:>7} {j:>6} {t_cvx:>8.3f}s {t_ours:>8.3f}s {t_cvx / t_ours:>6.1f}x {diff:>15.1e}")


MODELS = ["l1", "LGL-edge", "LGL-nbhd", "IHT"] + [f"alpha={a}" for a in (50, 100, 150, 200, 300)]


def fit_model(name: str, a: np.ndarray, y: np.ndarray, edges: np.ndarray, rhos: np.ndarray) -> list:
    """The estimates of one model along the ρ grid (λ = ρ·λ_max of the model's own bound)."""
    if name == "IHT":
        return [gsr.GraphIHT(edges, sparsity=150, n_components=2).fit(a, y).coef_]
    top = gsr.lambda_max(a, y)
    out = []
    for rho in rhos:
        lam = float(rho * top)
        if name.startswith("alpha="):
            alpha = float(name.split("=")[1])
            model: Any = gsr.GraphStructuredRecovery(edges, alpha=alpha, lambda_=lam, tol=1e-6)
        elif name == "l1":
            model = gsr.GraphStructuredRecovery([], alpha=0.0, lambda_=lam, tol=1e-6)
        else:
            groups = (
                gsr.edge_groups(edges)
                if name == "LGL-edge"
                else gsr.neighbourhood_groups(edges, a.shape[1])
            )
            model = gsr.LatentGroupLasso(groups=groups, lambda_=lam, tol=1e-6)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out.append(model.fit(a, y).coef_)
    return out


def bench_figure1(trials: int, quick: bool) -> None:
    if gsr is None:
        print("\nfigure 1: skipped (graphsparse.recovery is not built yet)")
        return
    rhos = np.logspace(0, -5, 14 if quick else 25)
    settings: list[tuple[int, float]] = (
        [(200, 40.0), (350, 40.0), (350, 20.0)]
        if quick
        else [(j, 40.0) for j in (150, 200, 250, 275, 300, 350, 400, 450)]
        + [(350, s) for s in (0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0)]
    )
    table: dict[tuple[int, float], dict[str, tuple[float, float, float]]] = {}
    for j, snr in progress(settings, "settings"):
        errs = {m: [] for m in MODELS}
        for t in range(trials):
            p = make_graph_structured_recovery(n_measurements=j, snr_db=snr, random_state=1000 + t)
            for m in MODELS:
                errs[m].append([nmse(p.x_true, c) for c in fit_model(m, p.A, p.y, p.edges, rhos)])
        row = {}
        for m in MODELS:
            e = np.asarray(errs[m])  # trials × ρ
            k = int(np.argmin(e.mean(axis=0)))
            best = e[:, k]
            row[m] = (
                best.mean(),
                best.std(ddof=1) / math.sqrt(len(best)) if len(best) > 1 else 0.0,
                rhos[min(k, len(rhos) - 1)],
            )
        table[(j, snr)] = row
    print(
        "\nfigure 1: mean NMSE (dB) over",
        trials,
        "trials; rho = lambda / lambda_max chosen per model",
    )
    print(f"{'J':>4} {'SNR':>5} " + " ".join(f"{m:>11}" for m in MODELS))
    for (j, snr), row in table.items():
        print(
            f"{j:>4} {snr:>5.0f} "
            + " ".join(f"{10 * math.log10(row[m][0]):>11.2f}" for m in MODELS)
        )
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    for key, xs, label, fname in (
        (0, [k for k in table if k[1] == 40.0], "measurements J", "recovery_fig1a.png"),
        (1, [k for k in table if k[0] == 350], "SNR (dB)", "recovery_fig1b.png"),
    ):
        fig, ax = plt.subplots(figsize=(6, 4))
        for m in MODELS:
            ax.plot(
                [k[key] for k in xs],
                [10 * math.log10(table[k][m][0]) for k in xs],
                marker="o",
                label=m,
            )
        ax.set_xlabel(label)
        ax.set_ylabel("NMSE (dB)")
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(fname, dpi=120)
        print("saved", fname)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="about a minute")
    parser.add_argument("--full", action="store_true", help="100 trials and N = 2e4 (hours)")
    parser.add_argument("--anchor-only", action="store_true", help="CVXPY timings only")
    parser.add_argument("--speed-only", action="store_true", help="skip Figure 1")
    parser.add_argument("--trials", type=int, default=None)
    args = parser.parse_args(argv)
    trials = args.trials or (100 if args.full else 2 if args.quick else 10)
    bench_speed(args.full, args.anchor_only)
    if not (args.anchor_only or args.speed_only):
        bench_figure1(trials, args.quick)


if __name__ == "__main__":
    main()
