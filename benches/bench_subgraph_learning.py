"""Sparse learning over all subgraphs on CPDB: the paper's Table 4, plus the two-stage route.

Runs, on the real CPDB mutagenicity data (684 molecules) with stratified k-fold CV:

* L1 logistic regression by BCGD on the gSpan tree (``SubgraphLogisticRegression``) for the
  paper's ``lambda1`` grid: test accuracy, selected features, iterations, seconds per fit, tree
  nodes visited per search of the tree (the paper's "# visited", one search per iteration there;
  here iterations over the working set search none) and the share skipped as duplicates;
* Adaboost (500 rounds) and LPBoost (nu = 0.4) on the same tree;
* optionally Mutagenicity (TU, 4,337 molecules) with fewer folds;
* the two-stage route "mine every pattern up to the selected size, then scikit-learn's L1
  logistic regression on the explicit matrix", timed to reach the same objective.

The paper's numbers (2x6-core Xeon, re-embedding at every visit) are printed beside ours.

    python benches/bench_subgraph_learning.py            # full run (slow: minutes per lambda)
    python benches/bench_subgraph_learning.py --quick    # 2 folds, one lambda, well under a minute
    python benches/bench_subgraph_learning.py --path     # Mutagenicity lambda path, all subgraphs

``--path`` fits the L1 logistic path over *all* connected subgraphs of Mutagenicity (no
``min_support``) from ``lambda_max`` down to ``--path-min`` (default 0.01) on a geometric grid of
``--path-steps`` values, with safe pattern pruning and the Theorem 11 bound; it prints per lambda
the iterations, the searches of the whole tree, the seconds, the tree nodes visited, the nodes
each rule pruned, the duality gap, and the
accuracy of the path's model by 3-fold CV (each fold runs its own path).
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

import graphsparse as gs
from graphsparse.mining import pattern_matrix

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / ".." / "shared" / "data"

# Table 4 of Takigawa & Mamitsuka (CPDB, 10-fold CV): acc, features, seconds, visited
PAPER = {
    0.004: (0.755, 95.0, 8918.94, 54250),
    0.005: (0.774, 80.3, 2078.88, 31472),
    0.006: (0.762, 67.6, 1012.93, 23354),
    0.008: (0.750, 50.9, 277.69, 16588),
    0.010: (0.733, 39.1, 97.29, 12524),
    "adaboost": (0.772, 180.3, 36.21, 61644),
    "lpboost": (0.784, 101.1, 7.76, 15432),
}


def load_cpdb() -> gs.GraphDataset:
    d = DATA / "molecules" / "CPDB"
    return gs.read_gspan(d / "mutagen.gsp", d / "mutagen.label")


def cv_run(make, ds, y, folds, seed=0):
    """Fit ``make()`` on each training fold; return per-fold dicts of measurements."""
    skf = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)
    rows = []
    for tr, te in skf.split(np.zeros(len(y)), y):
        model = make()
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(ds[tr], y[tr])
        seconds = time.perf_counter() - t0
        row = {"acc": model.score(ds[te], y[te]), "features": len(model.coef_), "seconds": seconds}
        if hasattr(model, "history_"):
            # per search of the tree (iterations over the working set search none)
            visited = [h["visited"] for h in model.history_ if h["visited"] > 0]
            row["iters"] = model.n_iter_
            row["visited"] = float(np.mean(visited)) if visited else 0.0
            row["skipped"] = (
                100.0 * sum(h["skipped"] for h in model.history_) / max(sum(visited), 1)
            )
        else:
            row["iters"] = len(model.n_visited_)
            row["visited"] = float(np.mean(model.n_visited_))
            row["skipped"] = float("nan")
        rows.append(row)
    return rows


def summary(name, rows, paper):
    mean = {k: float(np.mean([r[k] for r in rows])) for k in rows[0]}
    ours = (
        f"{name:<18} {mean['acc']:6.3f} {mean['features']:8.1f} {mean['iters']:6.0f} "
        f"{mean['seconds']:9.2f} {mean['visited']:10.0f} {mean['skipped']:8.1f}"
    )
    if paper is not None:
        acc, feat, sec, vis = paper
        ours += (
            f"   | paper {acc:5.3f} {feat:6.1f} {sec:9.2f} {vis:7d}  ({sec / mean['seconds']:.0f}x)"
        )
    print(ours, flush=True)
    return mean


def two_stage(ds, y, lam, model, n_jobs, budget=600.0):
    """Mine all patterns up to the model's largest feature, then scikit-learn's L1 logistic."""
    max_size = max(p.n_edges for p in model.patterns_)
    t0 = time.perf_counter()
    pats = gs.mine_subgraphs(ds, 1, max_size=max_size, n_jobs=n_jobs)
    x = pattern_matrix(pats, len(ds))
    _, keep = np.unique(x, axis=1, return_index=True)
    x = x[:, np.sort(keep)]
    t_mine = time.perf_counter() - t0
    target = model.history_[-1]["objective"]
    n = len(ds)
    y01 = (y == model.classes_[1]).astype(float)
    # saga in chunks of epochs (warm starts) until it reaches BCGD's objective
    t1 = time.perf_counter()
    sk = LogisticRegression(
        C=1.0 / (lam * n), l1_ratio=1.0, solver="saga", tol=1e-12, max_iter=25, warm_start=True
    )
    obj = float("inf")
    while obj > target and time.perf_counter() - t1 < budget:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            sk.fit(x, y01)
        mu = sk.intercept_[0] + x @ sk.coef_[0]
        obj = float(np.mean(np.logaddexp(0.0, mu) - y01 * mu) + lam * np.abs(sk.coef_[0]).sum())
    t_fit = time.perf_counter() - t1
    print(
        f"two-stage lambda1={lam}: {len(pats)} patterns <= {max_size} edges ({x.shape[1]} distinct "
        f"columns) mined in {t_mine:.2f} s, scikit-learn saga to the same objective {t_fit:.2f} s, "
        f"total {t_mine + t_fit:.2f} s; objective {obj:.6f} vs BCGD {target:.6f}"
    )
    return t_mine + t_fit


def run_path(args) -> None:
    """The Mutagenicity lambda path over all subgraphs (see the module docstring)."""
    mg = gs.load_tu(DATA / "tu" / "Mutagenicity")
    y = np.asarray(mg.y)
    n_jobs = args.n_jobs
    base = gs.SubgraphLogisticRegression(n_jobs=n_jobs, time_limit=args.fit_limit)
    t0 = time.perf_counter()
    # no time limit here: a truncated lambda_max search leaves lambda_max_ unset
    lam_max = clone_with(base, lambda1=1.0, time_limit=None).fit(mg, y).lambda_max_
    t_max = time.perf_counter() - t0
    grid = np.geomspace(lam_max, args.path_min, args.path_steps)
    print(f"Mutagenicity: {mg!r}; all subgraphs; lambda_max = {lam_max:.5f} ({t_max:.1f} s)")
    print(f"grid: {args.path_steps} values from lambda_max to {args.path_min} (geometric)")
    bar = progress(len(grid), "path")
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path = gs.lambda1_path(base, mg, y, grid)
    total = time.perf_counter() - t0
    bar(len(grid))
    accs = cv_path_accuracy(base, mg, y, grid, args.path_folds) if args.path_folds else None
    print(
        f"{'lambda1':>9} {'#feat':>6} {'iters':>6} {'searches':>8} {'seconds':>8} "
        f"{'visited':>10} {'per search':>10} {'pruned Thm11':>12} {'pruned SPP':>11} "
        f"{'gap':>9} {'cv acc':>7}"
    )
    for k, m in enumerate(path):
        st, h = m.search_stats_, m.history_
        acc = "" if accs is None or np.isnan(accs[k]) else f"{accs[k]:7.3f}"
        # searches: of the whole tree (iterations over the working set search none)
        print(
            f"{m.lambda1:9.5f} {m.n_nonzero_:6d} {m.n_iter_:6d} {st['full_searches']:8d} "
            f"{sum(r['seconds'] for r in h):8.2f} {st['visited']:10d} "
            f"{st['visited'] / max(st['full_searches'], 1):10.0f} {st['pruned_bound']:12d} "
            f"{st['pruned_spp']:11d} {m.dual_gap_:9.2e} {acc:>7}"
            + (f"  (stopped: {m.truncation_})" if m.truncated_ else "")
        )
    done = "" if len(path) == len(grid) else f" (stopped after {len(path)} of {len(grid)})"
    print(f"whole path: {total:.1f} s{done}, lambda_max search {t_max:.1f} s")


def clone_with(est, **params):
    from sklearn.base import clone

    return clone(est).set_params(**params)


def progress(total, what):
    """A tqdm bar when tqdm is installed, else one line per update."""
    try:
        from tqdm import tqdm

        bar = tqdm(total=total, desc=what)
        return lambda k: bar.update(k - bar.n)
    except ImportError:
        return lambda k: print(f"{what}: {k}/{total}", flush=True)


def cv_path_accuracy(base, ds, y, grid, folds):
    """Test accuracy of each lambda's model, averaged over stratified folds (one path per fold)."""
    skf = StratifiedKFold(n_splits=folds, shuffle=True, random_state=0)
    accs = np.full((folds, len(grid)), np.nan)
    bar = progress(folds, "cv folds")
    for f, (tr, te) in enumerate(skf.split(np.zeros(len(y)), y)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            path = gs.lambda1_path(base, ds[tr], y[tr], grid)
        for k, m in enumerate(path):
            accs[f, k] = m.score(ds[te], y[te])
        bar(f + 1)
    return accs.mean(axis=0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="2 folds, one lambda, no boosting")
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--lambdas", type=float, nargs="+", default=[0.004, 0.005, 0.006, 0.008, 0.010])
    ap.add_argument("--no-boost", action="store_true", help="skip Adaboost and LPBoost")
    ap.add_argument("--no-logreg", action="store_true", help="skip the lambda1 grid")
    ap.add_argument("--mutagenicity", action="store_true", help="also run TU Mutagenicity (slow)")
    ap.add_argument("--two-stage", action="store_true", help="time the mine-then-fit route (slow)")
    ap.add_argument("--n-jobs", type=int, default=None)
    ap.add_argument("--path", action="store_true", help="only the Mutagenicity lambda path")
    ap.add_argument("--path-min", type=float, default=0.01, help="smallest lambda1 of --path")
    ap.add_argument("--path-steps", type=int, default=10, help="grid values of --path")
    ap.add_argument("--path-folds", type=int, default=3, help="CV folds of --path (0: none)")
    ap.add_argument("--fit-limit", type=float, default=None, help="seconds per fit of --path")
    args = ap.parse_args()
    if args.path:
        run_path(args)
        return
    folds, lambdas = (2, [0.01]) if args.quick else (args.folds, args.lambdas)
    ds = load_cpdb()
    y = np.asarray(ds.y)
    print(f"CPDB: {ds!r}; {folds}-fold stratified CV, n_jobs={args.n_jobs}")
    print(
        f"{'method':<18} {'acc':>6} {'#feat':>8} {'iters':>6} {'s/fit':>9} {'visited/it':>10} "
        f"{'%skip':>8}   | paper acc  #feat    s/fit visited (speed-up)"
    )
    for lam in [] if args.no_logreg else lambdas:
        rows = cv_run(
            lambda lam=lam: gs.SubgraphLogisticRegression(lambda1=lam, n_jobs=args.n_jobs),
            ds,
            y,
            folds,
        )
        summary(f"L1-LogReg {lam:g}", rows, PAPER.get(round(lam, 3)))
    if not (args.quick or args.no_boost):
        rows = cv_run(
            lambda: gs.SubgraphAdaBoost(n_estimators=500, n_jobs=args.n_jobs), ds, y, folds
        )
        summary("Adaboost 500", rows, PAPER["adaboost"])
        rows = cv_run(lambda: gs.SubgraphLPBoost(nu=0.4, n_jobs=args.n_jobs), ds, y, folds)
        summary("LPBoost nu=0.4", rows, PAPER["lpboost"])
    print(
        "('visited/it' = nodes per search of the tree; boosting: 'iters' = rounds, "
        "'visited/it' = nodes per round's search)"
    )

    if args.mutagenicity and not args.quick:
        mg = gs.load_tu(DATA / "tu" / "Mutagenicity")
        ym = np.asarray(mg.y)
        mfolds = 3
        print(f"\nMutagenicity: {mg!r}; {mfolds}-fold stratified CV (no published numbers)")
        # all subgraphs at a lambda1 whose first search stays within a minute; a smaller
        # lambda1 on the frequent part of the tree (min_support 10 %); boosting on the same part
        configs = [
            (
                "L1-LogReg 0.03",
                lambda: gs.SubgraphLogisticRegression(lambda1=0.03, n_jobs=args.n_jobs),
            ),
            (
                "L1-LogReg 0.005 s10%",
                lambda: gs.SubgraphLogisticRegression(
                    lambda1=0.005, min_support=0.1, n_jobs=args.n_jobs
                ),
            ),
            (
                "Adaboost 100 s10%",
                lambda: gs.SubgraphAdaBoost(n_estimators=100, min_support=0.1, n_jobs=args.n_jobs),
            ),
            (
                "LPBoost 0.4 s10%",
                lambda: gs.SubgraphLPBoost(nu=0.4, min_support=0.1, n_jobs=args.n_jobs),
            ),
        ]
        for name, make in configs:
            summary(name, cv_run(make, mg, ym, mfolds), None)

    lam = lambdas[0]
    t0 = time.perf_counter()
    model = gs.SubgraphLogisticRegression(lambda1=lam, n_jobs=args.n_jobs).fit(ds, y)
    t_bcgd = time.perf_counter() - t0
    print(f"\nfull data, lambda1={lam}: BCGD {t_bcgd:.2f} s, {len(model.coef_)} features")
    if args.two_stage:
        t_two = two_stage(ds, y, lam, model, args.n_jobs)
        print(f"two-stage / BCGD time: {t_two / t_bcgd:.2f}x")


if __name__ == "__main__":
    main()
