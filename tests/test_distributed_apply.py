"""Partition-wise apply and batched solves on a two-process LocalCluster == in-memory calls."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import graphsparse as gs
from graphsparse.exceptions import InvalidParameterError

pytest.importorskip("distributed")
gsd = pytest.importorskip("graphsparse.distributed")
da = pytest.importorskip("dask.array")
db = pytest.importorskip("dask.bag")

from graphsparse import compression as gc  # noqa: E402
from graphsparse.distributed.apply import pattern_features  # noqa: E402
from graphsparse.mining import pattern_matrix  # noqa: E402


@pytest.fixture(scope="module")
def toy():
    return gs.datasets.make_subgraph_classification(n_samples=90, random_state=1)


@pytest.fixture(scope="module")
def subgraph_model(toy):
    return gs.SubgraphLogisticRegression(lambda1=0.02, max_size=4).fit(toy, toy.y)


def _dense(x):
    return x.toarray() if sp.issparse(x) else np.asarray(x)


@pytest.mark.parametrize("method", ["predict", "decision_function", "predict_proba", "transform"])
@pytest.mark.parametrize("form", ["bag", "dataset", "files"])
def test_subgraph_model_partitionwise_equals_in_memory(
    dask_client, toy, subgraph_model, method, form, tmp_path
):
    if form == "bag":
        collection = db.from_sequence(toy.graphs, npartitions=3)
    elif form == "dataset":
        collection = toy
    else:
        collection = []
        for k, (a, b) in enumerate([(0, 40), (40, 41), (41, 90)]):
            gs.write_gspan(toy[a:b], tmp_path / f"part{k}.gsp")
            collection.append(tmp_path / f"part{k}.gsp")
    lazy = getattr(gsd, method)(subgraph_model, collection, n_shards=4)
    assert isinstance(lazy, da.Array)
    got = lazy.compute()
    if method == "transform":
        assert sp.issparse(got)
        expected = pattern_matrix(subgraph_model.patterns_, len(toy))
    else:
        expected = getattr(subgraph_model, method)(toy)
    np.testing.assert_array_equal(_dense(got), expected)


def test_more_blocks_than_graphs_gives_empty_blocks(dask_client, toy, subgraph_model):
    from dask import delayed

    got = gsd.decision_function(subgraph_model, toy[:3], n_shards=5)
    np.testing.assert_array_equal(got.compute(), subgraph_model.decision_function(toy[:3]))
    parts = [toy.graphs[:2], [], toy.graphs[2:3]]
    bag = db.from_delayed([delayed(list)(p) for p in parts])
    np.testing.assert_array_equal(
        gsd.predict(subgraph_model, bag).compute(), subgraph_model.predict(toy[:3])
    )
    features = gsd.transform(subgraph_model, toy[:3], n_shards=5).compute()
    expected = pattern_matrix(subgraph_model.patterns_, len(toy))[:3]
    np.testing.assert_array_equal(features.toarray(), expected)


def test_mined_patterns_as_features(dask_client, data_dir):
    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")
    patterns = gsd.mine_subgraphs(mutag, 0.3, 4, n_shards=3)
    features = gsd.transform(patterns, db.from_sequence(mutag.graphs, npartitions=5)).compute()
    np.testing.assert_array_equal(features.toarray(), pattern_matrix(patterns, len(mutag)))
    np.testing.assert_array_equal(pattern_features(patterns, mutag).toarray(), features.toarray())


def test_wl_features_and_compressor(dask_client, data_dir):
    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")
    wl = gc.WLSubtreeFeatures(n_iter=3).fit(mutag)
    got = gsd.transform(wl, mutag, n_shards=3).compute()
    assert sp.issparse(got)
    np.testing.assert_array_equal(got.toarray(), wl.transform(mutag).toarray())
    compressor = gc.OTCompressor(ratio=0.5).fit(mutag[:30])
    bag = gsd.transform(compressor, db.from_sequence(mutag[:30].graphs, npartitions=3))
    assert isinstance(bag, db.Bag)
    got_graphs = bag.compute()
    expected = compressor.transform(mutag[:30])
    assert gs.from_networkx(got_graphs) == gs.from_networkx(expected.graphs)


def test_rule_ensemble_on_dask_dataframe(dask_client):
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    from graphsparse.rules import RuleEnsembleClassifier

    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {"width": rng.uniform(0, 2.5, 120), "colour": rng.choice(["red", "blue", "white"], 120)}
    )
    kind = np.where((frame.width <= 0.8) & (frame.colour == "red"), "a", "b")
    kind[frame.width > 2.0] = "c"
    rules = RuleEnsembleClassifier(rho=1.5, C=5.0).fit(frame, kind)
    ddf = dd.from_pandas(frame, npartitions=3)
    np.testing.assert_array_equal(gsd.predict(rules, ddf).compute(), rules.predict(frame))
    np.testing.assert_allclose(
        gsd.decision_function(rules, ddf).compute(), rules.decision_function(frame), rtol=0
    )
    got = gsd.transform(rules, ddf).compute()
    assert sp.issparse(got)
    np.testing.assert_array_equal(got.toarray(), rules.transform(frame).toarray())


def test_recovery_classifier_on_dask_array(dask_client):
    from graphsparse.recovery import GraphStructuredClassifier

    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 12))
    y = np.where(X[:, 0] + X[:, 1] > 0, "yes", "no")
    edges = np.array([[k, k + 1] for k in range(11)])
    clf = GraphStructuredClassifier(edges, alpha=2.0, lambda_=1.0).fit(X, y)
    dx = da.from_array(X, chunks=(70, 6))
    np.testing.assert_array_equal(gsd.predict(clf, dx).compute(), clf.predict(X))
    np.testing.assert_array_equal(gsd.predict_proba(clf, dx).compute(), clf.predict_proba(X))


def test_apply_rejects_bad_input(dask_client, subgraph_model):
    with pytest.raises(InvalidParameterError, match="no method"):
        gsd.predict_proba(gs.SubgraphLinearRegression(), [])
    with pytest.raises(InvalidParameterError, match="collection"):
        gsd.predict(subgraph_model, 3)
    with pytest.raises(InvalidParameterError, match="2-D"):
        gsd.predict(subgraph_model, da.zeros(5))


# -- batched solves -------------------------------------------------------------------------------
def _grid(k):
    edges = np.array(
        [[r * k + c, r * k + c + 1] for r in range(k) for c in range(k - 1)]
        + [[r * k + c, (r + 1) * k + c] for r in range(k - 1) for c in range(k)]
    )
    return edges, np.ones(len(edges))


def _same_forests(a, b):
    assert len(a) == len(b)
    for (na, ea), (nb, eb) in zip(a, b, strict=True):
        np.testing.assert_array_equal(na, nb)
        np.testing.assert_array_equal(ea, eb)


@pytest.mark.parametrize("pruning", ["gw", "strong"])
def test_pcst_many_equals_one_by_one(dask_client, pruning):
    edges, costs = _grid(12)
    rng = np.random.default_rng(5)
    prizes = rng.exponential(1.0, size=(17, 144)) * (rng.random((17, 144)) < 0.2)
    got = gsd.pcst_many(edges, prizes, costs, pruning=pruning, chunk_size=4, n_jobs=2)
    _same_forests(got, [gs.pcst(edges, p, costs, pruning=pruning) for p in prizes])


def test_pcst_graphs_equals_one_by_one(dask_client):
    rng = np.random.default_rng(6)
    problems = []
    for k in range(3, 10):
        edges, _ = _grid(k)
        problems.append((edges, rng.exponential(size=k * k), rng.uniform(0.5, 2, len(edges))))
    got = gsd.pcst_graphs(problems, root=0, pruning="strong")
    _same_forests(got, [gs.pcst(*p, root=0, pruning="strong") for p in problems])


def test_map_solves_recovery_and_compression(dask_client, data_dir):
    from graphsparse.recovery import GraphStructuredRecovery

    A, y, _, edges, _ = gs.datasets.make_graph_structured_recovery(random_state=0)
    lambdas = [0.5, 1.0, 2.0]

    def fit(lam, edges, A, y):
        return GraphStructuredRecovery(edges, alpha=150.0, lambda_=lam).fit(A, y).coef_

    got = gsd.map_solves(fit, lambdas, shared={"edges": edges, "A": A, "y": y}, chunk_size=1)
    for lam, coef in zip(lambdas, got, strict=True):
        np.testing.assert_array_equal(coef, fit(lam, edges, A, y))

    mutag = gs.load_tu(data_dir / "tu" / "MUTAG")[:12]
    compress = gc.OTCompressor(ratio=0.5)
    kept = gsd.map_solves(
        lambda g, model: model.compress(gs.from_networkx([g])).kept[0],
        mutag.graphs,
        shared={"model": compress},
    )
    for k, ids in zip(range(len(mutag)), kept, strict=True):
        np.testing.assert_array_equal(ids, compress.compress(mutag[k]).kept[0])


def test_map_solves_raises_the_callers_error(dask_client):
    def boom(x):
        raise InvalidParameterError(f"bad item {x}")

    with pytest.raises(InvalidParameterError, match="bad item"):
        gsd.map_solves(boom, [1, 2])
    with pytest.raises(InvalidParameterError, match="chunk_size"):
        gsd.map_solves(abs, [1], chunk_size=0)
    assert gsd.map_solves(abs, []) == []


def test_grid_search_on_the_joblib_dask_backend(dask_client):
    joblib = pytest.importorskip("joblib")
    from sklearn.model_selection import GridSearchCV

    from graphsparse.recovery import GraphStructuredRecovery

    A, y, _, edges, _ = gs.datasets.make_graph_structured_recovery(random_state=1)
    grid = {"lambda_": [0.3, 1.0, 3.0], "alpha": [100.0, 150.0]}
    search = GridSearchCV(GraphStructuredRecovery(edges), grid, cv=3)
    local = search.fit(A, y)
    local_scores = local.cv_results_["mean_test_score"].copy()
    with joblib.parallel_backend("dask"):
        remote = GridSearchCV(GraphStructuredRecovery(edges), grid, cv=3, n_jobs=-1).fit(A, y)
    assert remote.best_params_ == local.best_params_
    np.testing.assert_array_equal(remote.cv_results_["mean_test_score"], local_scores)
