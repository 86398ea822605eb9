"""``transform`` of the subgraph models: the 0/1 matrix of the model's patterns in new graphs,
against networkx subgraph matching."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

import graphsparse as gs
from graphsparse.testing.reference.subgraphs import occurrence_counts
from graphsparse.testing.strategies import graph_databases


@pytest.fixture(scope="module")
def toy():
    return gs.datasets.make_subgraph_classification(80, random_state=1)


@pytest.fixture(scope="module")
def fitted(toy):
    train = toy[:60]
    return gs.SubgraphLogisticRegression(lambda1=0.02, max_size=4).fit(train, train.y)


def test_the_linear_models_decide_by_the_transformed_matrix(toy, fitted):
    Z = fitted.transform(toy)
    assert sp.issparse(Z) and Z.format == "csr" and Z.dtype == np.float64
    assert Z.shape == (len(toy), len(fitted.patterns_)) and len(fitted.patterns_) > 0
    np.testing.assert_allclose(Z @ fitted.coef_ + fitted.intercept_, fitted.decision_function(toy))
    names = fitted.get_feature_names_out()
    assert names.shape == (Z.shape[1],) and names[0] == str(fitted.patterns_[0])


def test_a_training_graph_column_is_the_pattern_s_graph_ids(toy, fitted):
    Z = fitted.transform(toy[:60]).tocsc()
    for j, p in enumerate(fitted.patterns_):
        np.testing.assert_array_equal(Z[:, j].indices, p.graph_ids)


def test_pickled_models_transform_the_same(toy, fitted):
    again = pickle.loads(pickle.dumps(fitted))
    assert (again.transform(toy) != fitted.transform(toy)).nnz == 0


def test_the_features_feed_a_scikit_learn_pipeline(toy):
    miner = gs.SubgraphLinearRegression(lambda1=0.05, max_size=3).fit(toy[:60], toy[:60].y)
    clf = make_pipeline(LogisticRegression()).fit(miner.transform(toy[:60]), toy[:60].y)
    assert clf.predict(miner.transform(toy[60:])).shape == (20,)


@pytest.mark.parametrize("model", ["ada", "lp"])
def test_the_boosting_models_transform_their_stumps(toy, model):
    est = (
        gs.SubgraphAdaBoost(n_estimators=4, max_size=3)
        if model == "ada"
        else gs.SubgraphLPBoost(max_size=3)
    ).fit(toy[:60], toy[:60].y)
    Z = est.transform(toy).toarray()
    assert Z.shape == (len(toy), len(est.patterns_))
    # the stumps' constant parts are folded into intercept_, their weights into coef_
    np.testing.assert_allclose(Z @ est.coef_ + est.intercept_, est.decision_function(toy))


@settings(deadline=None, max_examples=25)
@given(graph_databases(min_graphs=4, max_graphs=8, max_vertices=5), st.data())
def test_transform_equals_networkx_matching(db, data):
    labels = [i % 2 for i in range(len(db))]
    if len(set(labels)) < 2:
        return
    model = gs.SubgraphLinearRegression(lambda1=1e-3, max_size=3).fit(db, labels)
    fresh = data.draw(graph_databases(min_graphs=1, max_graphs=4, max_vertices=6))
    Z = model.transform(fresh).toarray()
    for j, p in enumerate(model.patterns_):
        want = [float(occurrence_counts(p.to_networkx(), g)[0] > 0) for g in fresh]
        np.testing.assert_array_equal(Z[:, j], want)
