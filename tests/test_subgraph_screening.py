"""Safe pattern pruning and the duality gap of the subgraph models against explicit references.

``graphsparse.testing.reference.bcgd`` computes the dual point, gap and sphere of the crate docs
over the explicit pattern matrix; these tests check (1) the maths itself: the sphere holds the
optimal dual point and the SPP bound holds for every pattern below a node; (2) the gap the Rust fit
reports equals the explicit one (without pruning, where the search's bound is exact) and bounds the
suboptimality with pruning; (3) screening changes no optimum: paths with and without it equal the
explicit-matrix BCGD at every lambda.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, settings
from hypothesis import strategies as st

import graphsparse as gs
from graphsparse import _graphsparse as _rs
from graphsparse.datasets import from_networkx
from graphsparse.testing.reference import bcgd as ref
from graphsparse.testing.strategies import graph_databases

from .test_subgraph_models import _bcgd_params, _explicit, _toy, given_fits


def _params(lam2=0.0, tol=1e-7, max_iter=50_000, prune=True, screening=True, max_size=3):
    return _bcgd_params(lam2, tol, max_iter, max_size, prune, True, screening, False)


def _path(ds, y, loss, lambdas, working_set=True, n_threads=1, **kw):
    return _rs.fit_subgraph_bcgd(
        ds._db,
        np.ascontiguousarray(y, dtype=np.float64),
        loss,
        np.asarray(lambdas, float),
        {**_params(**kw), "working_set": working_set},
        n_threads,
    )


def _dense(fit, index, p):
    b = np.zeros(p)
    for ids, c in zip(fit.graph_ids, fit.coef, strict=True):
        b[index[tuple(ids.tolist())]] = c
    return fit.intercept, b


def _response(bits, n, loss):
    y = np.array(bits[:n], dtype=float)
    if loss == "squared":
        y = y * 2.0 + 0.3 * (np.arange(n) % 3)
    return y


def _optimum(x, y, lam1, lam2, loss):
    """The reference's solution and objective, and its own certified gap."""
    tr = ref.bcgd(x, y, lam1, lam2, loss=loss, tol=1e-7, max_iter=20_000)
    assume(tr.converged)
    b0 = tr.intercepts[-1] if tr.intercepts else 0.0
    b = tr.coefs[-1] if tr.coefs else np.zeros(x.shape[1])
    return b0, b, ref.objective(x, y, b0, b, lam1, lam2, loss)


@settings(max_examples=20, deadline=None)
@given_fits(
    graph_databases(min_graphs=6, max_graphs=12, max_vertices=5),
    [0.005, 0.02, 0.05],
    shrink=st.floats(0.0, 1.0),
)
def test_sphere_holds_the_optimal_dual_point(graphs, bits, lam1, lam2, loss, shrink):
    ds = from_networkx(graphs)
    y = _response(bits, len(ds), loss)
    x, _, pats = _explicit(ds, 3)
    if x.shape[1] == 0 or (loss == "logistic" and len(set(y)) < 2):
        return
    b0s, bs, _ = _optimum(x, y, lam1, lam2, loss)
    # the reference is itself approximate: the true optimum lies within r_ref of its point
    theta_ref, _, _, gap_ref, r_ref = ref.dual_point(x, y, b0s, bs, lam1, lam2, loss)
    assert gap_ref >= -1e-12
    # any primal point: a shrunk optimum with a moved intercept
    theta, _, _, gap, r = ref.dual_point(x, y, 0.3 * b0s, shrink * bs, lam1, lam2, loss)
    assert gap >= -1e-12
    assert np.linalg.norm(theta - theta_ref) <= r + r_ref + 1e-12
    # the SPP bound of each pattern's node holds for every pattern below it (occurrence subsets)
    occ = [np.flatnonzero(x[:, j]) for j in range(x.shape[1])]
    corr_ref = np.abs(x.T @ theta_ref)
    for j in range(x.shape[1]):
        slack = r_ref * np.sqrt(len(occ[j])) + 1e-12
        below = [k for k in range(x.shape[1]) if set(occ[k]) <= set(occ[j])]
        assert corr_ref[below].max() <= ref.spp_bound(theta, r, occ[j]) + slack
    assert len(pats) == x.shape[1]


@settings(max_examples=25, deadline=None)
@given_fits(
    graph_databases(min_graphs=6, max_graphs=14, max_vertices=6),
    [0.005, 0.02, 0.05],
    max_iter=st.sampled_from([1, 3, 50_000]),
)
def test_reported_gap_equals_explicit_gap(graphs, bits, lam1, lam2, loss, max_iter):
    ds = from_networkx(graphs)
    y = _response(bits, len(ds), loss)
    x, index, _ = _explicit(ds, 3)
    if x.shape[1] == 0:
        return
    # no pruning: the bound the search takes over all patterns is the exact maximum
    exact = _path(ds, y, loss, [lam1], lam2=lam2, max_iter=max_iter, prune=False, screening=False)[
        0
    ]
    b0, b = _dense(exact, index, x.shape[1])
    _, p, _, gap, _ = ref.dual_point(x, y, b0, b, lam1, lam2, loss)
    assert exact.dual_gap >= 0.0
    assert exact.dual_gap == pytest.approx(max(gap, 0.0), abs=1e-10 * (1 + abs(p)))
    # with both pruning rules the bound is looser: the reported gap can only be larger
    fit = _path(ds, y, loss, [lam1], lam2=lam2, max_iter=max_iter)[0]
    b0, b = _dense(fit, index, x.shape[1])
    _, _, _, gap, _ = ref.dual_point(x, y, b0, b, lam1, lam2, loss)
    assert fit.dual_gap >= gap - 1e-10


@settings(max_examples=10, deadline=None)
@given_fits(graph_databases(min_graphs=8, max_graphs=14, max_vertices=6), lam2=[0.0, 0.05])
def test_screened_path_equals_theorem11_path_and_reference(graphs, bits, lam2, loss):
    ds = from_networkx(graphs)
    y = _response(bits, len(ds), loss)
    x, _, _ = _explicit(ds, 3)
    if x.shape[1] == 0 or (loss == "logistic" and len(set(y)) < 2):
        return
    grid = [0.1, 0.04, 0.015, 0.006]
    spp = _path(ds, y, loss, grid, lam2=lam2)
    thm11 = _path(ds, y, loss, grid, lam2=lam2, screening=False)
    for lam, a, b in zip(grid, spp, thm11, strict=True):
        *_, want = _optimum(x, y, lam, lam2, loss)
        for fit in (a, b):
            assert fit.converged
            got = fit.history.objective[-1]
            assert got == pytest.approx(want, rel=1e-6, abs=1e-9)
            assert fit.dual_gap >= max(got - want, 0.0) - 1e-10
            assert fit.dual_gap < 1e-4
        assert b.total_pruned_spp == 0


def _support(fit, atol=0.0):
    """The columns of the coefficients above ``atol`` in magnitude."""
    return {
        tuple(ids.tolist()) for ids, c in zip(fit.graph_ids, fit.coef, strict=True) if abs(c) > atol
    }


def _coef_radius(x, y, b0, b, lam1, lam2, loss, cols):
    """How far from the optimum, in coefficients, a point whose suboptimality is at most 1 can be
    (scale by the square root of the gap), or ``None`` where the optimum is not unique.

    With the intercept and the columns ``cols`` (a superset of the equicorrelation set and of every
    support compared) linearly independent, the objective restricted to them is strongly convex
    near the optimum with modulus ``mu`` = the least eigenvalue of the loss Hessian there, so
    ``|beta - beta*|^2 <= 2 gap / mu``; the factor 4 allows the Hessian to vary between the
    points compared."""
    xs = np.column_stack([np.ones(len(y)), x[:, cols]])
    if lam2 == 0.0 and np.linalg.matrix_rank(xs) < xs.shape[1]:
        return None
    _, _, h = ref.LOSSES[loss](y, b0 + x @ b)
    hess = xs.T @ (h[:, None] * xs) / len(y)
    hess[1:, 1:] += lam2 * np.eye(len(cols))
    mu = np.linalg.eigvalsh(hess)[0]
    return None if mu <= 1e-12 else np.sqrt(4.0 / mu)


@settings(max_examples=15, deadline=None)
@given_fits(
    graph_databases(min_graphs=8, max_graphs=14, max_vertices=6),
    lam2=[0.0, 0.05],
    grid=st.lists(st.floats(0.003, 0.15), min_size=1, max_size=5, unique=True).map(
        lambda v: sorted(v, reverse=True)
    ),
)
def test_working_set_path_equals_the_plain_screened_path_and_reference(
    graphs, bits, lam2, loss, grid
):
    ds = from_networkx(graphs)
    y = _response(bits, len(ds), loss)
    x, index, _ = _explicit(ds, 3)
    if x.shape[1] == 0 or (loss == "logistic" and len(set(y)) < 2):
        return
    new = _path(ds, y, loss, grid, lam2=lam2)
    old = _path(ds, y, loss, grid, lam2=lam2, working_set=False)
    # the thread count changes nothing, to the bit
    par = _path(ds, y, loss, grid, lam2=lam2, n_threads=2)
    for lam, a, b, c in zip(grid, new, old, par, strict=True):
        b0s, bs, want = _optimum(x, y, lam, lam2, loss)
        assert a.converged and b.converged
        # the final iterate was certified by a search of the whole tree
        assert a.history.full_search[-1] and a.history.visited[-1] > 0
        assert a.full_searches == int(a.history.full_search.sum()) + a.path_searches
        assert not a.history.visited[~a.history.full_search].any()
        got, old_obj = a.history.objective[-1], b.history.objective[-1]
        assert got == pytest.approx(want, rel=1e-6, abs=1e-9)
        assert a.dual_gap >= max(got - want, 0.0) - 1e-10 and a.dual_gap < 1e-4
        # the same model as the path without working sets: objective within the gaps and, when
        # the optimum is unique, the same support, which holds every column of the optimum's
        # (no pattern active at the optimum was pruned away); a column whose optimal
        # coefficient is zero but whose correlation is at the bound may stay tiny in one fit
        assert abs(got - old_obj) <= max(a.dual_gap, b.dual_gap) + 1e-12
        # a coefficient larger than the distance the gaps allow between two fits is nonzero in
        # both: the same support up to the accuracy the gaps certify
        _, dense_a = _dense(a, index, x.shape[1])
        _, dense_b = _dense(b, index, x.shape[1])
        theta, _, _, gap_ref, _ = ref.dual_point(x, y, b0s, bs, lam, lam2, loss)
        cols = (np.abs(x.T @ theta) >= lam * (1.0 - 1e-3)) | (dense_a != 0) | (dense_b != 0)
        cols |= np.abs(bs) > 1e-12
        unit = _coef_radius(x, y, b0s, bs, lam, lam2, loss, np.flatnonzero(cols))
        if unit is not None:
            ra, rb, rs = (unit * np.sqrt(max(g, 0.0)) for g in (a.dual_gap, b.dual_gap, gap_ref))
            assert _support(a, ra + rb) <= _support(b) and _support(b, ra + rb) <= _support(a)
            assert {c for c, j in index.items() if abs(bs[j]) > ra + rs} <= _support(a)
        assert c.intercept == a.intercept and _support(c) == _support(a)
        np.testing.assert_array_equal(c.coef, a.coef)
        np.testing.assert_array_equal(c.history.objective, a.history.objective)
        np.testing.assert_array_equal(c.history.visited, a.history.visited)


def test_estimators_report_gap_and_pruning_counts():
    ds, y, score = _toy(60, seed=4)
    m = gs.SubgraphLogisticRegression(lambda1=0.01, max_size=4, tol=1e-6).fit(ds, y)
    plain = gs.SubgraphLogisticRegression(lambda1=0.01, max_size=4, tol=1e-6, screening=False).fit(
        ds, y
    )
    assert 0.0 <= m.dual_gap_ < 1e-3 and 0.0 <= plain.dual_gap_ < 1e-3
    assert m.history_[-1]["objective"] == pytest.approx(plain.history_[-1]["objective"], rel=1e-6)
    assert m.search_stats_["pruned_spp"] > 0 and m.search_stats_["path_searches"] > 0
    assert plain.search_stats_["pruned_spp"] == 0 and plain.search_stats_["path_searches"] == 0
    assert plain.search_stats_["visited"] == sum(h["visited"] for h in plain.history_)
    path = gs.lambda1_path(
        gs.SubgraphLinearRegression(max_size=3, tol=1e-6), ds, score, [0.2, 0.1, 0.05]
    )
    for est in path:
        assert 0.0 <= est.dual_gap_ < 1e-3
        assert est.history_[-1]["duality_gap"] == est.dual_gap_
    # warm fits of the path screen from the previous dual point
    assert sum(e.search_stats_["pruned_spp"] for e in path[1:]) > 0
    cut = gs.SubgraphLogisticRegression(lambda1=0.01, max_size=4, max_nodes=5)
    with pytest.warns(gs.mining.TruncatedSearchWarning):
        cut.fit(ds, y)
    assert cut.dual_gap_ == np.inf


def test_working_sets_search_the_whole_tree_a_few_times_per_fit():
    ds, y, _ = _toy(60, seed=4)
    grid = [0.05, 0.02, 0.01]
    path = gs.lambda1_path(gs.SubgraphLogisticRegression(max_size=4, tol=1e-6), ds, y, grid)
    plain = gs.lambda1_path(
        gs.SubgraphLogisticRegression(max_size=4, tol=1e-6, screening=False), ds, y, grid
    )
    iterations = searches = 0
    for m, p in zip(path, plain, strict=True):
        assert m.converged_ and p.converged_
        h = m.history_
        full = [e for e in h if e["visited"] > 0]
        assert h[-1]["visited"] > 0 and h[-1]["duality_gap"] == m.dual_gap_ < 1e-3
        assert all(e["duality_gap"] == np.inf for e in h if e["visited"] == 0)
        st = m.search_stats_
        assert st["full_searches"] == len(full) + st["path_searches"]
        if m.lambda_max_ is None:  # a warm fit: no search before it
            assert st["path_searches"] == 0
            assert st["visited"] == sum(e["visited"] for e in h)
        # the same model as the plain BCGD: objectives within the gaps
        gap = m.dual_gap_ + p.dual_gap_
        assert abs(h[-1]["objective"] - p.history_[-1]["objective"]) <= gap
        iterations += len(h)
        searches += len(full)
    assert searches < iterations / 2
