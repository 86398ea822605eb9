"""Defaults ablation of the rule ensembles on public tables outside the paper (issue 29, item 3).

Six tables none of the paper's 17 UCI sets:

* ``breast_cancer`` (Wisconsin diagnostic, 569 x 30, binary), ``wine`` (178 x 13, 3 classes)
  and ``digits`` (1,797 x 64, 10 classes) from scikit-learn;
* ``penguins`` (Palmer penguins, 333 complete rows, species from 4 measurements, island and
  sex one-hot, 3 classes) from the ``palmerpenguins`` package;
* ``affairs`` (Fair's affairs survey, 6,366 x 8, "any affair") and ``anes96`` (1996 American
  National Election Study, 944 x 10, vote) from ``statsmodels``.

A table whose package is missing is skipped with a note. For each table: stratified random
splits with ``--train`` of the rows for training (default 0.1, the paper's protocol), ``C``
chosen by 3-fold ``GridSearchCV`` on the training part, then test F1 of the positive class
(binary) or accuracy (multiclass), the number of rules and the final fit's time.

Our configurations vary one setting at a time from the defaults (``cut_rule``, ``rho``, the C
grid, ``rule_threshold``, and ``C by F1``: the grid search scored by the positive class's F1 on
binary tables instead of accuracy; ``--configs`` picks some). The baselines run on the same
splits and the same numeric matrices (categoricals one-hot): imodels ``RuleFitClassifier``
(defaults; one versus rest through scikit-learn for multiclass, rules summed) when imodels is
installed, and BOOMER (``mlrl-boomer`` defaults, one versus rest for multiclass) when
``--boomer-python`` names the python of an environment that has it
(``benches/_boomer_worker.py``).

The summary at the end averages each method's score and rule count over the tables where all
methods ran. Run ``python benches/ablation_rules.py`` (3 splits, every setting: an hour or more
on 2 cores, most of it digits and the quantile cuts of breast_cancer) or ``--sets wine --splits 1
--configs default`` for a smoke run.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
from sklearn import datasets
from sklearn.metrics import accuracy_score, f1_score, make_scorer
from sklearn.model_selection import GridSearchCV, StratifiedShuffleSplit

from graphsparse.exceptions import TruncatedSearchWarning
from graphsparse.rules import RuleEnsembleClassifier

CS = [1e-2, 1e-1, 1.0, 1e1, 1e2]
WIDE_CS = [1e-3, 1e-2, 1e-1, 1.0, 1e1, 1e2, 1e3]


def _sklearn(loader: Any) -> Any:
    def load() -> tuple[np.ndarray, np.ndarray]:
        bunch = loader()
        return np.asarray(bunch.data, dtype=np.float64), np.asarray(bunch.target)

    return load


def _one_hot(frame: Any, columns: list[str]) -> np.ndarray:
    import pandas as pd

    return pd.get_dummies(frame, columns=columns, dtype=np.float64).to_numpy(np.float64)


def _penguins() -> tuple[np.ndarray, np.ndarray]:
    from palmerpenguins import load_penguins

    d = load_penguins().dropna().drop(columns=["year"])
    y = d.pop("species").to_numpy()
    return _one_hot(d, ["island", "sex"]), y


def _affairs() -> tuple[np.ndarray, np.ndarray]:
    from statsmodels.datasets import fair

    d = fair.load_pandas().data
    y = (d.pop("affairs") > 0).to_numpy(np.int64)
    return d.to_numpy(np.float64), y


def _anes96() -> tuple[np.ndarray, np.ndarray]:
    from statsmodels.datasets import anes96

    d = anes96.load_pandas().data.drop(columns=["logpopul"])
    y = d.pop("vote").to_numpy(np.int64)
    return d.to_numpy(np.float64), y


# name -> (loader, package it needs)
SETS = {
    "breast_cancer": (_sklearn(datasets.load_breast_cancer), "sklearn"),
    "wine": (_sklearn(datasets.load_wine), "sklearn"),
    "digits": (_sklearn(datasets.load_digits), "sklearn"),
    "penguins": (_penguins, "palmerpenguins"),
    "affairs": (_affairs, "statsmodels"),
    "anes96": (_anes96, "statsmodels"),
}

DEFAULTS: dict[str, Any] = {"cut_rule": "distinct_quantiles", "rho": 1.5, "rule_threshold": 1e-3}
# one setting changed at a time from the defaults; "cs" is the GridSearchCV grid
CONFIGS: dict[str, dict[str, Any]] = {
    "default": {},
    "tree": {"cut_rule": "tree"},
    "mdl": {"cut_rule": "mdl"},
    # GridSearchCV scored by the reported metric (F1 of the positive class on binary tables)
    # instead of its default, accuracy
    "C by F1": {"cv_f1": True},
    "rho=1.1": {"rho": 1.1},
    "rho=2": {"rho": 2.0},
    "wide C": {"cs": WIDE_CS},
    "threshold=1e-2": {"rule_threshold": 1e-2},
}


def score(y: Any, pred: Any, binary: bool) -> float:
    return float(f1_score(y, pred, pos_label=np.max(y)) if binary else accuracy_score(y, pred))


def ours(X: Any, y: Any, Xt: Any, config: dict[str, Any], limit: float) -> Any:
    settings = {**DEFAULTS, **config}
    cs = settings.pop("cs", CS)
    binary = len(np.unique(y)) == 2
    f1 = make_scorer(f1_score, pos_label=np.max(y))
    scoring = f1 if settings.pop("cv_f1", False) and binary else None
    base = RuleEnsembleClassifier(**settings, time_limit=limit)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TruncatedSearchWarning)
        search = GridSearchCV(base, {"C": cs}, cv=3, scoring=scoring).fit(X, y)
        best = RuleEnsembleClassifier(**settings, time_limit=limit, C=search.best_params_["C"])
        t = time.perf_counter()
        best.fit(X, y)
        dt = time.perf_counter() - t
    return best.predict(Xt), best.n_rules_, dt


def rulefit(X: Any, y: Any, Xt: Any) -> Any:
    from imodels import RuleFitClassifier
    from sklearn.multiclass import OneVsRestClassifier

    def n_rules(model: Any) -> int:
        rules = model._get_rules()
        return int(((rules.coef != 0) & (rules.type == "rule")).sum())

    binary = len(np.unique(y)) == 2
    model = (
        RuleFitClassifier(random_state=0)
        if binary
        else OneVsRestClassifier(RuleFitClassifier(random_state=0))
    )
    t = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X, y)
    dt = time.perf_counter() - t
    n = n_rules(model) if binary else sum(n_rules(m) for m in model.estimators_)
    return model.predict(Xt), n, dt


def boomer(python: str, X: Any, y: Any, Xt: Any) -> Any:
    """BOOMER in its own environment, one versus rest for multiclass (rules summed)."""
    classes = np.unique(y)
    columns = [classes[-1:]] if len(classes) == 2 else [[c] for c in classes]
    scores, n_rules, seconds = [], 0, 0.0
    worker = Path(__file__).with_name("_boomer_worker.py")
    with tempfile.TemporaryDirectory() as tmp:
        for positive in columns:
            path = Path(tmp) / "split.npz"
            np.savez(path, A=X, y=np.isin(y, positive).astype(np.uint8), B=Xt)
            out = subprocess.run(
                [python, str(worker), str(path)], capture_output=True, text=True, check=True
            )
            r = json.loads(out.stdout.strip().splitlines()[-1])
            scores.append(np.asarray(r["score"]))
            n_rules += r["n_rules"]
            seconds += r["seconds"]
    if len(classes) == 2:
        pred = np.where(scores[0] >= 0.5, classes[1], classes[0])
    else:
        pred = classes[np.argmax(np.stack(scores, axis=1), axis=1)]
    return pred, n_rules, seconds


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sets", nargs="*", default=list(SETS), choices=list(SETS))
    ap.add_argument("--configs", nargs="*", default=list(CONFIGS), choices=list(CONFIGS))
    ap.add_argument("--splits", type=int, default=3)
    ap.add_argument("--train", type=float, default=0.1)
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per fit")
    ap.add_argument("--no-rulefit", action="store_true")
    ap.add_argument("--boomer-python", default=None, help="python of an mlrl-boomer environment")
    args = ap.parse_args()
    have_rulefit = not args.no_rulefit and importlib.util.find_spec("imodels") is not None
    if not have_rulefit:
        print("(imodels not installed or --no-rulefit: no RuleFit column)")
    print("| data | rows x features | method | F1 / acc (mean) | rules (mean) | fit s (median) |")
    print("|---|---|---|---|---|---|")
    table: dict[str, dict[str, tuple[float, float]]] = {}
    for name in args.sets:
        loader, package = SETS[name]
        if importlib.util.find_spec(package) is None:
            print(f"| {name} | skipped: {package} is not installed | | | | |")
            continue
        X, y = loader()
        binary = len(np.unique(y)) == 2
        split = StratifiedShuffleSplit(args.splits, train_size=args.train, random_state=0)
        results: dict[str, list[tuple[float, int, float]]] = {}
        for train, test in split.split(X, y):
            parts = (X[train], y[train], X[test])
            methods = [f"ours {c}" for c in args.configs]
            methods += ["RuleFit"] * have_rulefit + ["BOOMER"] * bool(args.boomer_python)
            for key in methods:
                if key == "RuleFit":
                    pred, n, dt = rulefit(*parts)
                elif key == "BOOMER":
                    pred, n, dt = boomer(args.boomer_python, *parts)
                else:
                    pred, n, dt = ours(*parts, CONFIGS[key[5:]], args.time_limit)
                results.setdefault(key, []).append((score(y[test], pred, binary), n, dt))
        for key, rows in results.items():
            s, n, t = zip(*rows, strict=True)
            table.setdefault(name, {})[key] = (statistics.mean(s), statistics.mean(n))
            print(
                f"| {name} | {X.shape[0]} x {X.shape[1]} | {key} | {statistics.mean(s):.3f} "
                f"| {statistics.mean(n):.1f} | {statistics.median(t):.2f} |",
                flush=True,
            )
    methods = sorted({m for per in table.values() for m in per})
    common = [t for t, per in table.items() if all(m in per for m in methods)]
    if not common:
        return
    print(f"\nMean over the {len(common)} tables where every method ran ({', '.join(common)}):\n")
    print("| method | F1 / acc | rules |")
    print("|---|---|---|")
    for m in methods:
        s = statistics.mean(table[t][m][0] for t in common)
        n = statistics.mean(table[t][m][1] for t in common)
        print(f"| {m} | {s:.3f} | {n:.1f} |")


if __name__ == "__main__":
    sys.exit(main())
