"""Defaults ablation of the rule ensembles on public tables outside the paper (issue 29, item 3).

For each table, stratified random splits (``--train`` share of the rows for training, default
0.1 as in the paper's protocol), ``C`` chosen by 3-fold ``GridSearchCV`` over ``--cs`` on the
training part, then test accuracy (multiclass) or F1 of the positive class (binary), rules and
fit time, for each combination of ``cut_rule`` and ``rho`` given; imodels RuleFit (defaults,
binary only) on the same splits when it is installed.

Run ``python benches/ablation_rules.py`` (scikit-learn's bundled breast-cancer, wine and iris
tables, 3 splits) or ``--sets breast_cancer --splits 1`` for a smoke run. Timings on a shared
machine are noisy; the accuracy columns are what the ablation is for.

This is a start: it covers the cut rule, ``rho`` and the C grid; the rule threshold and more
tables (UCI sets in ``../shared/data``) are left to extend ``SETS`` and the flags.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
import warnings
from typing import Any

import numpy as np
from sklearn import datasets
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import GridSearchCV, StratifiedShuffleSplit

from graphsparse.exceptions import TruncatedSearchWarning
from graphsparse.rules import RuleEnsembleClassifier

SETS = {
    "breast_cancer": datasets.load_breast_cancer,
    "wine": datasets.load_wine,
    "iris": datasets.load_iris,
}


def score(y: Any, pred: Any, binary: bool) -> float:
    return float(f1_score(y, pred) if binary else accuracy_score(y, pred))


def ours(X: Any, y: Any, Xt: Any, cut: str, rho: float, cs: list[float], limit: float) -> Any:
    base = RuleEnsembleClassifier(rho=rho, cut_rule=cut, time_limit=limit)
    search = GridSearchCV(base, {"C": cs}, cv=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TruncatedSearchWarning)
        search.fit(X, y)
        best = RuleEnsembleClassifier(
            rho=rho, cut_rule=cut, time_limit=limit, C=search.best_params_["C"]
        )
        t = time.perf_counter()
        best.fit(X, y)
        dt = time.perf_counter() - t
    return best.predict(Xt), best.n_rules_, dt


def rulefit(X: Any, y: Any, Xt: Any) -> Any:
    from imodels import RuleFitClassifier

    model = RuleFitClassifier(random_state=0)
    t = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X, y)
    dt = time.perf_counter() - t
    rules = model._get_rules()
    n = int(((rules.coef != 0) & (rules.type == "rule")).sum())
    return model.predict(Xt), n, dt


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sets", nargs="*", default=list(SETS))
    ap.add_argument("--splits", type=int, default=3)
    ap.add_argument("--train", type=float, default=0.1)
    ap.add_argument("--cuts", nargs="*", default=["distinct_quantiles", "tree"])
    ap.add_argument("--rho", type=float, nargs="*", default=[1.5])
    ap.add_argument("--cs", type=float, nargs="*", default=[1e-2, 1e-1, 1.0, 1e1, 1e2])
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per fit")
    args = ap.parse_args()
    have_rulefit = importlib.util.find_spec("imodels") is not None
    print("| data | method | F1 / acc (mean) | rules (mean) | fit s (median) |")
    print("|---|---|---|---|---|")
    for name in args.sets:
        bunch = SETS[name]()
        X, y = np.asarray(bunch.data, dtype=np.float64), np.asarray(bunch.target)
        binary = len(np.unique(y)) == 2
        split = StratifiedShuffleSplit(args.splits, train_size=args.train, random_state=0)
        results: dict[str, list[tuple[float, int, float]]] = {}
        for train, test in split.split(X, y):
            for cut in args.cuts:
                for rho in args.rho:
                    pred, n, dt = ours(
                        X[train], y[train], X[test], cut, rho, args.cs, args.time_limit
                    )
                    key = f"ours cut_rule={cut} rho={rho}"
                    results.setdefault(key, []).append((score(y[test], pred, binary), n, dt))
            if have_rulefit and binary:
                pred, n, dt = rulefit(X[train], y[train], X[test])
                results.setdefault("RuleFit", []).append((score(y[test], pred, binary), n, dt))
        for key, rows in results.items():
            s, n, t = zip(*rows, strict=True)
            print(
                f"| {name} | {key} | {statistics.mean(s):.3f} | {statistics.mean(n):.1f} "
                f"| {statistics.median(t):.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
