"""Fits BOOMER on one split, run by ``bench_rules.py`` in BOOMER's own environment.

``mlrl-boomer`` pins an older scikit-learn than graphsparse's tests use, so it lives in a
separate virtual environment (``python -m venv boomer && boomer/bin/pip install mlrl-boomer``)
and ``bench_rules.py --boomer-python boomer/bin/python`` calls this script there once per split.

Reads an ``.npz`` with ``A`` (train), ``y`` (0/1) and ``B`` (test); prints one JSON line with
the fit time, test predictions and scores, and the number and average length of the rules
BOOMER uses (its default rule, with an empty body, not counted).
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np
from mlrl.boosting import BoomerClassifier


class _Bodies:
    """Collects the condition count of each used rule's body (``None``: the default rule)."""

    def __init__(self) -> None:
        self.lengths: list[int | None] = []

    def visit_empty_body(self, body: object) -> None:
        self.lengths.append(None)

    def visit_conjunctive_body(self, body: object) -> None:
        parts = (getattr(body, a) for a in dir(body) if a.endswith("_indices"))
        self.lengths.append(sum(0 if p is None else len(p) for p in parts))

    def visit_complete_head(self, head: object) -> None:
        pass

    def visit_partial_head(self, head: object) -> None:
        pass


def main() -> None:
    data = np.load(sys.argv[1])
    model = BoomerClassifier()
    t = time.perf_counter()
    model.fit(data["A"], data["y"].astype(np.uint8))
    seconds = time.perf_counter() - t
    pred = np.asarray(model.predict(data["B"])).ravel()
    score = np.asarray(model.predict_proba(data["B"]))
    score = score[:, -1] if score.ndim == 2 else score.ravel()
    bodies = _Bodies()
    model.model_.visit_used(bodies)
    lengths = [n for n in bodies.lengths if n is not None]
    print(
        json.dumps(
            {
                "seconds": seconds,
                "pred": pred.astype(int).tolist(),
                "score": score.astype(float).tolist(),
                "n_rules": len(lengths),
                "length": float(np.mean(lengths)) if lengths else 0.0,
            }
        )
    )


if __name__ == "__main__":
    main()
