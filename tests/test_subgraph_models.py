"""Sparse models over all subgraph features against explicit-matrix references.

The references build the full 0/1 pattern matrix with ``mine_subgraphs(max_size=k)`` and run the
same algorithm on it (``graphsparse.testing.reference.bcgd``), an independent solver
(scikit-learn, HiGHS) or a brute-force stump search.
"""

from __future__ import annotations

import itertools
import pickle
import subprocess
import sys
import warnings

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import ElasticNet, Lasso, LogisticRegression
from sklearn.model_selection import GridSearchCV, cross_val_score

import graphsparse as gs
from graphsparse import _graphsparse as _rs
from graphsparse.datasets import from_networkx, make_subgraph_classification
from graphsparse.exceptions import InvalidParameterError
from graphsparse.mining import TruncatedSearchWarning, pattern_matrix
from graphsparse.models import _lpboost as lpb
from graphsparse.testing.reference import bcgd as ref
from graphsparse.testing.reference import lpboost as lp_ref
from graphsparse.testing.strategies import graph_databases


def given_fits(graphs, lam1=None, lam2=(0.0, 0.1), **more):
    """``@given`` a graph database, 14 bits for its 0/1 response, ``lam1`` (when given) and
    ``lam2`` from the listed values, both losses and the strategies ``more``."""
    penalties = {} if lam1 is None else {"lam1": st.sampled_from(lam1)}
    return given(
        graphs=graphs,
        bits=st.lists(st.booleans(), min_size=14, max_size=14),
        **penalties,
        lam2=st.sampled_from(lam2),
        loss=st.sampled_from(["logistic", "squared"]),
        **more,
    )


def _explicit(ds, max_size):
    """Distinct pattern columns (DFS order, first kept) and a lookup from graph-id sets."""
    pats = gs.mine_subgraphs(ds, min_support=1, max_size=max_size)
    x = pattern_matrix(pats, len(ds))
    keep = ref.unique_columns(x) if x.shape[1] else np.zeros(0, dtype=np.int64)
    x = x[:, keep]
    index = {tuple(np.flatnonzero(x[:, j]).tolist()): j for j in range(x.shape[1])}
    return x, index, [pats[k] for k in keep]


def _bcgd_params(lam2, tol, max_iter, max_size, prune, cache, screening, record_trace):
    """The binding's BCGD parameter dict (no budget, every pattern of at least one graph)."""
    return {
        "lambda2": lam2,
        "tol": tol,
        "max_iter": max_iter,
        "min_support": 1,
        "max_size": max_size,
        "max_nodes": None,
        "time_limit": None,
        "prune": prune,
        "cache": cache,
        "screening": screening,
        "record_trace": record_trace,
    }


def _rust_fit(
    ds,
    y,
    loss,
    lam1,
    lam2=0.0,
    tol=1e-3,
    max_iter=1000,
    max_size=3,
    prune=True,
    n_threads=1,
    cache=True,
    screening=False,
    cache_bytes=None,
):
    params = _bcgd_params(lam2, tol, max_iter, max_size, prune, cache, screening, True)
    if cache_bytes is not None:
        params["cache_bytes"] = cache_bytes
    return _rs.fit_subgraph_bcgd(
        ds._db,
        np.ascontiguousarray(y, dtype=np.float64),
        loss,
        np.array([lam1]),
        params,
        n_threads,
    )[0]


def _dense_trace(fit, index, p):
    out = []
    for b0, ids, coefs in fit.trace:
        b = np.zeros(p)
        for g, c in zip(ids, coefs, strict=True):
            b[index[tuple(g.tolist())]] = c
        out.append((b0, b))
    return out


def _toy(n=40, seed=0, max_vertices=7):
    """Random small labelled graphs with a response that depends on their labels."""
    rng = np.random.default_rng(seed)
    graphs = []
    for _ in range(n):
        k = int(rng.integers(3, max_vertices + 1))
        g = nx.Graph()
        for v in range(k):
            g.add_node(v, label=int(rng.integers(3)))
        for v in range(1, k):
            g.add_edge(int(rng.integers(v)), v, label=int(rng.integers(2)))
        a, b = rng.choice(k, 2, replace=False)
        g.add_edge(int(a), int(b), label=int(rng.integers(2)))
        graphs.append(g)
    ds = from_networkx(graphs)
    score = np.array([sum(d["label"] == 2 for _, d in g.nodes(data=True)) for g in graphs], float)
    score += rng.normal(0, 0.7, n)
    y01 = (score > np.median(score)).astype(float)
    return ds, y01, score


# -- BCGD == explicit-matrix BCGD, iteration by iteration ----------------------------------------
@settings(max_examples=30)
@given_fits(graph_databases(min_graphs=6, max_graphs=14, max_vertices=6), [0.003, 0.01, 0.03])
def test_bcgd_equals_explicit_reference_every_iteration(graphs, bits, lam1, lam2, loss):
    ds = from_networkx(graphs)
    y = np.array(bits[: len(ds)], dtype=float)
    if loss == "squared":
        y = y * 2.0 + 0.25 * np.arange(len(ds)) % 1.0
    x, index, _ = _explicit(ds, 3)
    got = _rust_fit(ds, y, loss, lam1, lam2, tol=1e-6, max_iter=200)
    want = ref.bcgd(x, y, lam1, lam2, loss=loss, tol=1e-6, max_iter=200)
    assert got.n_iter == want.n_iter
    assert got.converged == want.converged
    for t, ((b0, b), w0, wb) in enumerate(
        zip(_dense_trace(got, index, x.shape[1]), want.intercepts, want.coefs, strict=True)
    ):
        np.testing.assert_array_equal(np.flatnonzero(b), np.flatnonzero(wb), err_msg=f"iter {t}")
        np.testing.assert_allclose(b, wb, rtol=0, atol=1e-8, err_msg=f"iter {t}")
        assert abs(b0 - w0) <= 1e-8
    if want.objectives:
        np.testing.assert_allclose(
            got.history.objective[: len(want.objectives)], want.objectives, rtol=1e-10
        )


def test_bcgd_equals_reference_on_generated_data():
    data = make_subgraph_classification(n_samples=40, random_state=3)
    x, index, _ = _explicit(data, 3)
    got = _rust_fit(data, data.y, "logistic", 0.01, tol=1e-4)
    want = ref.bcgd(x, data.y.astype(float), 0.01, tol=1e-4)
    assert got.n_iter == want.n_iter > 5
    for (b0, b), w0, wb in zip(
        _dense_trace(got, index, x.shape[1]), want.intercepts, want.coefs, strict=True
    ):
        np.testing.assert_allclose(b, wb, atol=1e-8)
        assert abs(b0 - w0) <= 1e-8


def test_pruned_unpruned_cached_uncached_and_parallel_agree():
    ds, y, _ = _toy(50, seed=1)
    a = _rust_fit(ds, y, "logistic", 0.01, tol=1e-5, max_size=4)
    b = _rust_fit(ds, y, "logistic", 0.01, tol=1e-5, max_size=4, prune=False)
    c = _rust_fit(ds, y, "logistic", 0.01, tol=1e-5, max_size=4, n_threads=2, cache=False)
    d = _rust_fit(ds, y, "logistic", 0.01, tol=1e-5, max_size=4, cache=False)
    # cached searches with any frontier byte budget (none, tiny, default), serial or parallel
    kept = [
        _rust_fit(ds, y, "logistic", 0.01, tol=1e-5, max_size=4, n_threads=t, cache_bytes=m)
        for t in (1, 2)
        for m in (0, 500, None)
    ]
    for other in (b, c, d, *kept):
        assert other.n_iter == a.n_iter
        for (b0, ids, coefs), (o0, oids, ocoefs) in zip(a.trace, other.trace, strict=True):
            assert b0 == pytest.approx(o0, abs=1e-12)
            assert [i.tolist() for i in ids] == [i.tolist() for i in oids]
            np.testing.assert_allclose(coefs, ocoefs, atol=1e-12)
    for other in (c, d, *kept):  # cached and uncached searches evaluate the same nodes
        assert np.array_equal(a.history.visited, other.history.visited)
        assert np.array_equal(a.history.skipped, other.history.skipped)
    assert a.history.visited.sum() < b.history.visited.sum()


# -- optimum == independent solvers ---------------------------------------------------------------
def test_logistic_objective_matches_sklearn():
    ds, y, _ = _toy(40, seed=2)
    lam = 0.02
    m = gs.SubgraphLogisticRegression(lambda1=lam, max_size=3, tol=1e-7, max_iter=20000).fit(ds, y)
    x, _, _ = _explicit(ds, 3)
    n = len(ds)
    # scikit-learn >= 1.8 reads the penalty from l1_ratio (`penalty` is deprecated); before, a
    # bare l1_ratio is ignored with a warning and the fit is l2-penalised: ask for l1 by name
    l1 = {"l1_ratio": 1.0} if LogisticRegression().penalty == "deprecated" else {"penalty": "l1"}
    sk = LogisticRegression(C=1.0 / (lam * n), **l1, solver="saga", tol=1e-13, max_iter=200000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sk.fit(x, y)
    want = ref.objective(x, y, sk.intercept_[0], sk.coef_[0], lam, 0.0)
    got = m.history_[-1]["objective"]
    assert got == pytest.approx(want, rel=1e-6)
    # our own objective, recomputed from the fitted model on the explicit matrix
    xm = pattern_matrix(m.patterns_, n)
    assert ref.objective(xm, y, m.intercept_, m.coef_, lam, 0.0) == pytest.approx(got, rel=1e-12)


@pytest.mark.parametrize("lam2", [0.0, 0.05])
def test_squared_objective_matches_sklearn(lam2):
    ds, _, score = _toy(40, seed=4)
    lam = 0.02
    m = gs.SubgraphLinearRegression(lambda1=lam, lambda2=lam2, max_size=3, tol=1e-8, max_iter=20000)
    m.fit(ds, score)
    x, _, _ = _explicit(ds, 3)
    if lam2 == 0.0:
        sk = Lasso(alpha=lam, tol=1e-14, max_iter=1_000_000).fit(x, score)
    else:
        alpha = lam + lam2
        sk = ElasticNet(alpha=alpha, l1_ratio=lam / alpha, tol=1e-14, max_iter=1_000_000).fit(
            x, score
        )
    want = ref.objective(x, score, sk.intercept_, sk.coef_, lam, lam2, loss="squared")
    assert m.history_[-1]["objective"] == pytest.approx(want, rel=1e-6)
    np.testing.assert_allclose(m.predict(ds), sk.predict(x), atol=1e-3)


def test_warm_path_equals_cold_starts():
    ds, y, _ = _toy(40, seed=5)
    grid = [0.05, 0.02, 0.01, 0.006]
    base = gs.SubgraphLogisticRegression(max_size=4, tol=1e-7, max_iter=20000)
    path = gs.lambda1_path(base, ds, y, grid)
    assert [m.lambda1 for m in path] == grid
    visited_warm = 0
    for lam, warm in zip(grid, path, strict=True):
        cold = clone(base).set_params(lambda1=lam).fit(ds, y)
        assert warm.history_[-1]["objective"] == pytest.approx(
            cold.history_[-1]["objective"], rel=1e-6
        )
        assert warm.converged_ and cold.converged_
        visited_warm += warm.n_iter_
    assert len(path[-1].coef_) >= len(path[0].coef_)


# -- boosting against brute force ---------------------------------------------------------------
def _stump_gains(x, w, labels):
    """Gain of the + stump of every column (the - stump has the negated gain)."""
    return 2.0 * (x.T @ (w * labels)) - (w * labels).sum()


def test_adaboost_picks_best_stump_each_round():
    ds, y, _ = _toy(40, seed=6)
    model = gs.SubgraphAdaBoost(n_estimators=15, max_size=3).fit(ds, y)
    pats = gs.mine_subgraphs(ds, 1, max_size=3)
    x = pattern_matrix(pats, len(ds))
    labels = 2.0 * y - 1.0
    w = np.full(len(ds), 1.0 / len(ds))
    assert len(model.estimators_) >= 5
    for pattern, sign, alpha in model.estimators_:
        best = np.abs(_stump_gains(x, w, labels)).max()
        inside = np.zeros(len(ds), dtype=bool)
        inside[pattern.graph_ids] = True
        h = sign * np.where(inside, 1.0, -1.0)
        assert float(w @ (labels * h)) == pytest.approx(best, abs=1e-12)
        err = w[h != labels].sum()
        assert alpha == pytest.approx(0.5 * np.log((1 - err) / err))
        w = w * np.exp(-alpha * labels * h)
        w /= w.sum()
    # the merged linear form is the same function as the ensemble
    f = sum(
        a * s * np.where(np.isin(np.arange(len(ds)), p.graph_ids), 1.0, -1.0)
        for p, s, a in model.estimators_
    )
    np.testing.assert_allclose(model.decision_function(ds), f, atol=1e-12)


@pytest.mark.skipif(not lpb.HAVE_HIGHSPY, reason="highspy not installed")
@pytest.mark.parametrize("verbose", [0, 1])
def test_lpboost_prints_nothing_unless_verbose(verbose):
    # HiGHS prints its banner once per process, from its constructor: a fresh interpreter
    code = (
        "import warnings; warnings.simplefilter('ignore')\n"
        "import graphsparse as gs\n"
        "from graphsparse.datasets import make_subgraph_classification\n"
        "ds = make_subgraph_classification(n_samples=30, random_state=0)\n"
        f"gs.SubgraphLPBoost(nu=0.4, max_size=3, max_iter=3, verbose={verbose}).fit(ds, ds.y)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    if verbose:
        assert "HiGHS" in out.stdout + out.stderr
    else:
        assert out.stdout == "" and out.stderr == ""


@pytest.mark.parametrize(
    "make",
    [
        lambda v: gs.SubgraphLogisticRegression(lambda1=0.05, max_size=3, verbose=v),
        lambda v: gs.SubgraphLinearRegression(lambda1=0.05, max_size=3, verbose=v),
        lambda v: gs.SubgraphAdaBoost(n_estimators=5, max_size=3, verbose=v),
        lambda v: gs.SubgraphLPBoost(max_size=3, max_iter=3, verbose=v),
    ],
    ids=["logistic", "linear", "adaboost", "lpboost"],
)
def test_verbose_reports_progress_and_quiet_prints_nothing(make, capsys, monkeypatch):
    # linprog for LPBoost: HiGHS writes its log from C, past capsys
    monkeypatch.setattr(lpb, "HAVE_HIGHSPY", False)
    ds = make_subgraph_classification(n_samples=30, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # short fits may stop short of convergence
        quiet = make(0).fit(ds, ds.y)
        assert capsys.readouterr() == ("", "")
        make(1).fit(ds, ds.y)
    out, err = capsys.readouterr()
    name = type(quiet).__name__
    assert out == "" and f"[graphsparse] {name}: " in err and " nodes" in err


@pytest.mark.parametrize("warm", [True, False], ids=["highspy", "linprog"])
def test_lpboost_optimum_equals_explicit_lp(warm, monkeypatch):
    if warm and not lpb.HAVE_HIGHSPY:
        pytest.skip("highspy not installed")
    monkeypatch.setattr(lpb, "HAVE_HIGHSPY", warm)
    ds, y, _ = _toy(30, seed=7)
    nu = 0.4
    model = gs.SubgraphLPBoost(nu=nu, tol=1e-9, max_size=3).fit(ds, y)
    x, _, _ = _explicit(ds, 3)
    labels = 2.0 * y - 1.0
    h = np.hstack([2 * x - 1, 1 - 2 * x])  # both signs of every stump
    cap = 1.0 / (nu * len(y))
    optimum, _ = lp_ref.primal_lp(h, labels, cap)
    assert model.converged_
    assert model.objective_ == pytest.approx(optimum, abs=1e-7)
    weights = np.array([a for _, _, a in model.estimators_])
    assert weights.sum() == pytest.approx(1.0) and (weights > 0).all()
    # the fitted ensemble attains the optimum as a primal solution
    ids = np.arange(len(y))
    hs = np.column_stack(
        [s * np.where(np.isin(ids, p.graph_ids), 1.0, -1.0) for p, s, _ in model.estimators_]
    )
    assert lp_ref.primal_value(weights, hs, labels, cap) == pytest.approx(optimum, abs=1e-7)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 12),
    m=st.integers(1, 8),
    nu=st.floats(0.05, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_lpboost_master_equals_explicit_primal_at_every_column(n, m, nu, seed):
    rng = np.random.default_rng(seed)
    labels = rng.choice([-1.0, 1.0], n)
    h = rng.choice([-1.0, 1.0], (n, m))
    cap = 1.0 / (nu * n)
    masters = [lpb.LPBoostMaster(labels, cap, warm_start=False)]
    if lpb.HAVE_HIGHSPY:
        masters.append(lpb.LPBoostMaster(labels, cap, warm_start=True))
    for j in range(m):
        optimum, _ = lp_ref.primal_lp(h[:, : j + 1], labels, cap)
        for master in masters:
            a, u, beta = master.add(h[:, j])
            assert beta == pytest.approx(optimum, abs=1e-8)
            assert a.shape == (j + 1,) and (a >= 0).all() and a.sum() == pytest.approx(1.0)
            assert lp_ref.primal_value(a, h[:, : j + 1], labels, cap) == pytest.approx(
                optimum, abs=1e-7
            )
            assert u.sum() == pytest.approx(1.0) and (u <= cap + 1e-9).all()
            # u is dual feasible: no column beats beta
            assert ((u * labels) @ h[:, : j + 1] <= beta + 1e-8).all()


def test_stump_searcher_rejects_bad_weights():
    ds, y, _ = _toy(10, seed=3)
    params = {"min_support": 1, "max_size": 3, "max_nodes": None, "time_limit": None, "prune": True}
    searcher = _rs.StumpSearcher(ds._db, params)
    labels = 2.0 * y - 1.0
    s = searcher.search(np.full(10, 0.1), labels)
    assert s.code is not None and searcher.cached_nodes > 1
    st = searcher.frontier_stats
    assert st.budget == 256 * 2**20 and 0 <= st.bytes <= st.budget
    tiny = _rs.StumpSearcher(ds._db, {**params, "cache_bytes": 0})
    tiny.search(np.full(10, 0.1), labels)
    assert tiny.frontier_stats.budget == 0 and tiny.frontier_stats.entries == 0
    with pytest.raises(InvalidParameterError, match="weights"):
        searcher.search(np.full(10, np.nan), labels)
    with pytest.raises(ValueError, match="one value per graph"):
        searcher.search(np.full(9, 0.1), labels[:9])


# -- estimator behaviour --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def generated():
    return make_subgraph_classification(n_samples=80, random_state=1)


def test_predict_on_new_graphs_uses_subgraph_isomorphism(generated):
    tr, te = generated[:60], generated[60:]
    m = gs.SubgraphLogisticRegression(lambda1=0.02, max_size=5).fit(tr, generated.y[:60])
    xm = pattern_matrix(m.patterns_, 60)
    np.testing.assert_allclose(m.decision_function(tr), m.intercept_ + xm @ m.coef_, atol=1e-12)
    # new graphs as networkx objects, in another order: the matcher agrees with mining them
    graphs = te.graphs[::-1]
    mu = m.decision_function(graphs)
    occ = [gs.mine_subgraphs(graphs, 1, max_size=5)]
    codes = {p.dfs_code: p.graph_ids for p in occ[0]}
    want = np.full(len(graphs), m.intercept_)
    for p, c in zip(m.patterns_, m.coef_, strict=True):
        want[codes.get(p.dfs_code, np.zeros(0, dtype=np.int64))] += c
    np.testing.assert_allclose(mu, want, atol=1e-12)
    proba = m.predict_proba(graphs)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert set(m.predict(graphs)) <= set(m.classes_)


def test_any_two_labels_and_history(generated):
    y = np.where(generated.y == 1, "active", "inactive")
    m = gs.SubgraphLogisticRegression(lambda1=0.02, max_size=4).fit(generated, y)
    assert list(m.classes_) == ["active", "inactive"]
    assert m.score(generated, y) > 0.6
    assert set(m.history_[0]) == {
        "objective",
        "nonzeros",
        "visited",
        "skipped",
        "pruned_bound",
        "pruned_spp",
        "duality_gap",
        "seconds",
    }
    assert len(m.history_) == m.n_iter_ + 1 and m.converged_
    obj = [h["objective"] for h in m.history_]
    assert all(b <= a + 1e-12 for a, b in itertools.pairwise(obj))
    assert (
        len(m.patterns_)
        == len(m.coef_)
        == len(m.equivalent_patterns_)
        == m.history_[-1]["nonzeros"]
    )
    for p, eq in zip(m.patterns_, m.equivalent_patterns_, strict=True):
        assert all(np.array_equal(p.graph_ids, q.graph_ids) for q in eq)


@pytest.mark.parametrize(
    "est",
    [
        gs.SubgraphLogisticRegression(lambda1=0.03, max_size=4, n_jobs=1),
        gs.SubgraphLinearRegression(lambda1=0.03, max_size=4, n_jobs=1),
        gs.SubgraphAdaBoost(n_estimators=10, max_size=4, n_jobs=1),
        gs.SubgraphLPBoost(nu=0.4, max_size=4, n_jobs=1),
    ],
)
def test_sklearn_compatibility(est, generated):
    y = generated.y
    c = clone(est)
    assert c.get_params() == est.get_params()
    scores = cross_val_score(c, generated, y, cv=3)
    assert scores.shape == (3,) and np.all(np.isfinite(scores))
    m = clone(est).fit(generated, y)
    back = pickle.loads(pickle.dumps(m))
    np.testing.assert_array_equal(back.predict(generated), m.predict(generated))
    np.testing.assert_array_equal(back.coef_, m.coef_)


def test_grid_search(generated):
    gs_cv = GridSearchCV(
        gs.SubgraphLogisticRegression(max_size=4, n_jobs=1), {"lambda1": [0.01, 0.05]}, cv=2
    ).fit(generated, generated.y)
    assert gs_cv.best_params_["lambda1"] in (0.01, 0.05)
    assert gs_cv.best_estimator_.score(generated, generated.y) > 0.5


@pytest.mark.parametrize(
    ("kwargs", "y_fn", "match"),
    [
        ({"lambda1": -1.0}, None, "lambda1"),
        ({"lambda1": float("nan")}, None, "lambda1"),
        ({"lambda2": -0.1}, None, "lambda2"),
        ({"tol": 0}, None, "tol"),
        ({"max_iter": 0}, None, "max_iter"),
        ({"max_size": 0}, None, "max_size"),
        ({"min_support": 0}, None, "min_support"),
        ({}, lambda y: y[:-1], "y"),
        ({}, lambda y: np.zeros_like(y), "two classes"),
        ({}, lambda y: np.where(y == 1, np.nan, 0.0), "NaN"),
    ],
)
def test_bad_input_raises(kwargs, y_fn, match, generated):
    y = generated.y if y_fn is None else y_fn(generated.y)
    with pytest.raises(InvalidParameterError, match=match):
        gs.SubgraphLogisticRegression(**kwargs).fit(generated, y)


def test_other_errors_and_warnings(generated):
    with pytest.raises(InvalidParameterError, match="y"):
        gs.SubgraphLinearRegression().fit(generated, np.array(["a"] * len(generated)))
    with pytest.raises(InvalidParameterError, match="nu"):
        gs.SubgraphLPBoost(nu=1.5).fit(generated, generated.y)
    with pytest.raises(InvalidParameterError, match="n_estimators"):
        gs.SubgraphAdaBoost(n_estimators=0).fit(generated, generated.y)
    with pytest.raises(InvalidParameterError, match="lambdas"):
        gs.lambda1_path(gs.SubgraphLogisticRegression(), generated, generated.y, [])
    with pytest.warns(ConvergenceWarning):
        gs.SubgraphLogisticRegression(lambda1=0.01, max_iter=1, max_size=3).fit(
            generated, generated.y
        )
    with pytest.warns(TruncatedSearchWarning, match="max_nodes"):
        m = gs.SubgraphLogisticRegression(lambda1=0.005, max_nodes=30).fit(generated, generated.y)
    assert m.truncated_ is True and m.truncation_ == "max_nodes"


# -- Morishita-Kudo bounds on real gSpan trees ----------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(
    graphs=graph_databases(min_graphs=2, max_graphs=10, max_vertices=6),
    values=st.lists(st.tuples(st.floats(-5, 5), st.floats(-5, 5)), min_size=10, max_size=10),
)
def test_separable_bounds_hold_below_every_node(graphs, values):
    """lower(u) <= f(v) <= upper(u) for every pattern v below u in the tree (1(v) within 1(u))."""
    n = len(graphs)
    f0 = np.array([a for a, _ in values[:n]])
    f1 = np.array([b for _, b in values[:n]])
    pats = gs.mine_subgraphs(graphs, 1, max_size=4)
    by_code = {p.dfs_code: p for p in pats}
    for v in pats:
        value, lo_v, hi_v = _rs.separable_bounds(f0, f1, v.graph_ids)
        inside = np.isin(np.arange(n), v.graph_ids)
        naive = np.where(inside, f1, f0).sum()
        assert value == pytest.approx(naive, abs=1e-9)
        delta = (f1 - f0)[inside]
        assert lo_v == pytest.approx(f0.sum() + delta[delta < 0].sum(), abs=1e-9)
        assert hi_v == pytest.approx(f0.sum() + delta[delta > 0].sum(), abs=1e-9)
        for k in range(1, len(v.dfs_code)):  # every ancestor u of v in the gSpan tree
            u = by_code[v.dfs_code[:k]]
            assert set(v.graph_ids.tolist()) <= set(u.graph_ids.tolist())
            _, lo, hi = _rs.separable_bounds(f0, f1, u.graph_ids)
            assert lo - 1e-9 <= value <= hi + 1e-9


def test_separable_bounds_reject_bad_input():
    f = np.zeros(3)
    with pytest.raises(InvalidParameterError, match="one value per graph"):
        _rs.separable_bounds(f, np.zeros(2), np.array([0], dtype=np.int64))
    with pytest.raises(InvalidParameterError, match="finite"):
        _rs.separable_bounds(f, np.array([0.0, np.nan, 0.0]), np.array([0], dtype=np.int64))
    with pytest.raises(InvalidParameterError, match="graph_ids"):
        _rs.separable_bounds(f, f, np.array([3], dtype=np.int64))


@pytest.mark.parametrize(
    "make",
    [
        lambda j: gs.SubgraphAdaBoost(n_estimators=15, max_size=4, n_jobs=j),
        lambda j: gs.SubgraphLPBoost(nu=0.3, max_size=4, n_jobs=j),
    ],
    ids=["adaboost", "lpboost"],
)
def test_boosting_does_not_depend_on_n_jobs_or_cache_bytes(make):
    ds, y, _ = _toy(40, seed=11)
    one = make(1).fit(ds, y)
    # frontier byte budgets: none, tiny (constant eviction), the default
    for n_jobs, cache_bytes in itertools.product((1, 2), (0, 2000, 256 * 2**20)):
        two = make(n_jobs).set_params(cache_bytes=cache_bytes).fit(ds, y)
        assert [p.dfs_code for p in one.patterns_] == [p.dfs_code for p in two.patterns_]
        np.testing.assert_array_equal(one.coef_, two.coef_)
        assert one.intercept_ == two.intercept_
        # a parallel search may visit more nodes before its incumbent rises, never none
        assert len(one.n_visited_) == len(two.n_visited_) and min(two.n_visited_) > 0
        if n_jobs == 1:  # serially, resuming or re-embedding evaluates the same nodes
            assert one.n_visited_ == two.n_visited_


@pytest.mark.parametrize("bad", [-1, 1.5, True, "big"])
def test_bad_cache_bytes_raises(bad, generated):
    for est in (gs.SubgraphLogisticRegression(max_size=2), gs.SubgraphAdaBoost(n_estimators=2)):
        with pytest.raises(InvalidParameterError, match="cache_bytes"):
            est.set_params(cache_bytes=bad).fit(generated, generated.y)
