"""Text rendering of patterns and the matplotlib views of subgraph models."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

import graphsparse as gs
from graphsparse.datasets import make_subgraph_classification
from graphsparse.plotting import pattern_to_text


@pytest.fixture(scope="module")
def fitted():
    data = make_subgraph_classification(n_samples=60, random_state=2)
    return data, gs.SubgraphLogisticRegression(lambda1=0.02, max_size=4).fit(data, data.y)


def test_pattern_to_text_lists_every_edge_twice(fitted):
    _, m = fitted
    for p, c in zip(m.patterns_, m.coef_, strict=True):
        text = pattern_to_text(p, c)
        lines = text.splitlines()
        assert lines[0].startswith(f"pattern: {p.n_vertices} vertices, {p.n_edges} edges")
        assert len(lines) == 1 + p.n_vertices
        assert sum(line.count("-[") for line in lines[1:]) == 2 * p.n_edges
        # the listing describes the same graph
        g = nx.Graph()
        for v, line in enumerate(lines[1:]):
            parts = line.split()
            assert parts[0] == f"v{v}"
            for w in parts[3::2]:
                g.add_edge(v, int(w[1:]))
        assert nx.is_isomorphic(g, p.to_networkx())


def test_plots_build_figures(fitted):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data, m = fitted
    fig = gs.plotting.plot_patterns(m, top=5)
    assert len([ax for ax in fig.axes if ax.get_title()]) == min(5, len(m.coef_))
    fig2 = gs.plotting.plot_history(m)
    assert len(fig2.axes) == 3
    path = gs.lambda1_path(gs.SubgraphLogisticRegression(max_size=4), data, data.y, [0.05, 0.02])
    fig3 = gs.plotting.plot_path(path)
    line_count = len(fig3.axes[0].get_lines())
    assert line_count == len({p.dfs_code for mm in path for p in mm.patterns_})
    np.testing.assert_allclose(
        fig3.axes[1].get_lines()[0].get_ydata(), [len(mm.coef_) for mm in path]
    )
    plt.close("all")
    with pytest.raises(gs.exceptions.InvalidParameterError):
        gs.plotting.plot_history(object())
