"""Naive transcriptions of the online learners (spec §C) and of GraphDA's binary search (§B.4).

Everything is scalar Python or elementwise NumPy, in the spec's order of operations, so the
results are bit-for-bit those of a plain left-to-right implementation: dot products are summed
sequentially and the sigmoid uses ``math.exp`` (the platform libm, as Rust does).

Size and cost: one Python-level pass per sample, ``O(n_features)`` each (a few microseconds
per feature); :func:`binsearch` calls the Steiner-forest solver it is given ``max_iter`` times.
Meant for a few hundred samples of a few dozen features.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = [
    "sigmoid",
    "decision",
    "label",
    "gradient",
    "running_average",
    "top_s",
    "restrict",
    "step",
    "binsearch",
]

Support = Callable[[np.ndarray], Sequence[int]]


def sigmoid(z: float) -> float:
    if z > 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    return 1.0 - 1.0 / (1.0 + math.exp(z))


def decision(x: np.ndarray, w: np.ndarray) -> float:
    acc = 0.0
    for xi, wi in zip(x.tolist(), w[:-1].tolist(), strict=True):
        acc += xi * wi
    return acc + float(w[-1])


def label(score: float) -> float:
    return 1.0 if sigmoid(score) >= 0.5 else -1.0


def gradient(loss: str, x: np.ndarray, y: float, w: np.ndarray, l2: float) -> np.ndarray:
    score = decision(x, w)
    a = (sigmoid(y * score) - 1.0) * y if loss == "logistic" else score - y
    g = np.empty_like(w)
    g[:-1] = a * x + l2 * w[:-1]
    g[-1] = a
    return g


def running_average(avg: np.ndarray, new: np.ndarray, tt: float) -> np.ndarray:
    out = avg * (tt / (tt + 1.0))
    return out + (1.0 / (tt + 1.0)) * new


def top_s(v: np.ndarray, s: int) -> list[int]:
    """Indices of the ``s`` largest ``|v_i|``, ties to the smaller index (sorted)."""
    order = sorted(range(len(v)), key=lambda i: (-abs(float(v[i])), i))
    return sorted(order[:s])


def restrict(v: np.ndarray, support: Sequence[int]) -> np.ndarray:
    out = np.zeros_like(v)
    idx = np.asarray(list(support), dtype=np.int64)
    out[idx] = v[idx]
    return out


def _sign(x: float) -> float:
    return 1.0 if x > 0 else (-1.0 if x < 0 else 0.0)


def step(
    method: str,
    params: dict[str, Any],
    state: dict[str, Any],
    x: np.ndarray,
    y: float,
    head: Support | None = None,
    tail: Support | None = None,
    groups: Sequence[Sequence[int]] | None = None,
) -> dict[str, Any]:
    """One online update of ``method`` from ``state`` (the fields of ``online_pass``'s
    ``OnlineState``, as a dict)."""
    st = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in state.items()}
    w = st["coef"]
    p = len(w) - 1
    tt = float(st["n_seen"])
    t = tt + 1.0
    loss, l2 = params["loss"], params["l2"]
    g = gradient(loss, x, y, w, l2)
    truth = 1.0 if y > 0 else -1.0
    st["n_mistakes"] += int(label(decision(x, w)) != truth)
    st["n_mistakes_avg"] += int(label(decision(x, st["coef_avg"])) != truth)
    new = np.zeros(p + 1)
    if method in ("graph_da", "da_iht", "l1_rda", "adagrad_l1", "da_gl", "da_sgl"):
        st["grad_avg"] = gbar = running_average(st["grad_avg"], g, tt)
    if method == "graph_da":
        assert head is not None and tail is not None
        h = list(head(gbar[:p]))
        kappa = -math.sqrt(tt + 1.0) / params["gamma"]
        b = np.zeros(p + 1)
        b[h] = kappa * gbar[h]
        b[p] = kappa * gbar[p]
        new = restrict(b, list(tail(b[:p])))
        new[p] = b[p]
    elif method == "da_iht":
        kappa = -1.0 / params["gamma"] * math.sqrt(tt + 1.0)
        sup = top_s(gbar[:p], params["sparsity"])
        new[sup] = kappa * gbar[sup]
        new[p] = kappa * gbar[p]
    elif method == "sto_iht":
        b = w + (-params["lr"] / math.sqrt(t)) * g
        new = restrict(b, top_s(b[:p], params["sparsity"]))
        new[p] = b[p]
    elif method == "graph_sto_iht":
        assert head is not None and tail is not None
        hsup = list(head(g[:p]))
        hvec = np.zeros(p + 1)
        hvec[hsup] = g[hsup]
        b = w.copy()
        b[hsup] = w[hsup] + (-params["lr"] / math.sqrt(t)) * hvec[hsup]
        new = restrict(b, list(tail(b[:p])))
        new[p] = b[p]
    elif method == "l1_rda":
        lam_t = params["lam"] + (params["gamma"] * params["rho"]) / math.sqrt(tt + 1.0)
        kappa = -math.sqrt(tt + 1.0) / params["gamma"]
        for i in range(p):
            gi = float(gbar[i])
            new[i] = 0.0 if abs(gi) <= lam_t else kappa * (gi - lam_t * _sign(gi))
        new[p] = kappa * gbar[p]
    elif method == "adagrad_l1":
        st["grad_sq_sum"] = big_g = st["grad_sq_sum"] + g * g
        for i in range(p + 1):
            gi = float(gbar[i])
            shr = max(abs(gi) - params["lam"], 0.0) if i < p else abs(gi)
            new[i] = (
                _sign(-gi)
                * params["eta"]
                * (tt + 1.0)
                / (params["delta"] + math.sqrt(big_g[i]))
                * shr
            )
    elif method in ("da_gl", "da_sgl"):
        kappa = -(math.sqrt(tt + 1.0) / params["gamma"])
        lam = params["lam"]
        src = gbar[:p].copy()
        if method == "da_sgl":
            for j in range(p):
                src[j] = _sign(float(src[j])) * max(abs(float(src[j])) - lam * params["r"], 0.0)
        covered = {i for grp in (groups or []) for i in grp}
        all_groups = [sorted(grp) for grp in (groups or [])] + [
            [i] for i in range(p) if i not in covered
        ]
        for grp in all_groups:
            sq = 0.0
            for j in grp:
                sq += float(src[j]) * float(src[j])
            norm = math.sqrt(sq)
            if norm == 0.0:
                continue
            factor = kappa * max(1.0 - lam * math.sqrt(len(grp)) / norm, 0.0)
            for j in grp:
                new[j] = factor * src[j]
        new[p] = kappa * gbar[p]
    elif method == "adam":
        b1, b2 = params["beta1"], params["beta2"]
        c1, c2 = 1.0 - st["beta1_power"], 1.0 - st["beta2_power"]
        st["moment1"] = m = b1 * st["moment1"] + (1.0 - b1) * g
        st["moment2"] = v = b2 * st["moment2"] + (1.0 - b2) * (g * g)
        new = w - params["alpha"] * m / (c1 * (np.sqrt(v / c2) + params["epsilon"]))
        st["beta1_power"] *= b1
        st["beta2_power"] *= b2
    else:
        raise ValueError(method)
    st["coef"] = new
    st["coef_avg"] = running_average(st["coef_avg"], new, tt)
    st["n_seen"] += 1
    return st


# -- GraphDA's head/tail binary search (spec §B.4) -------------------------------------------------
def binsearch(
    w: np.ndarray,
    edges: np.ndarray,
    costs: np.ndarray,
    s_low: int,
    s_high: int,
    max_iter: int,
    pcst: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray],
) -> tuple[list[int], int]:
    """graph-da's ``head_tail_binsearch``; ``pcst(edges, prizes, costs)`` returns the nodes of an
    unrooted one-tree GW-pruned PCST. Returns (nodes ascending, iterations)."""
    prizes = w * w
    n = len(prizes)
    d = sorted(prizes.tolist(), reverse=True)
    lam_h = 2.0 * d[n - s_high]
    if lam_h == 0.0:
        lam_h = 2.0 * d[n - s_low]
        if lam_h == 0.0:
            lam_h = 2.0 * max(d)
    lam_l = 0.0
    it = 0
    lam_h /= 2.0
    while True:
        it += 1
        lam_h *= 2.0
        nodes = pcst(edges, prizes, lam_h * costs)
        if not (len(nodes) > s_high and it < max_iter):
            break
    if it < max_iter and len(nodes) >= s_low:
        return sorted(int(v) for v in nodes), it
    while it < max_iter:
        it += 1
        lam_m = (lam_l + lam_h) / 2.0
        nodes = pcst(edges, prizes, lam_m * costs)
        k = len(nodes)
        if s_low <= k <= s_high:
            return sorted(int(v) for v in nodes), it
        if k > s_high:
            lam_l = lam_m
        else:
            lam_h = lam_m
    nodes = pcst(edges, prizes, lam_h * costs)
    return sorted(int(v) for v in nodes), it
