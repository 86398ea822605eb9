"""
Graph-structured sparse recovery vs the lasso
=============================================

A sparse signal on the nodes of a graph is measured through a few random linear measurements.
When its non-zeros form connected pieces of the graph, a penalty that knows the graph can
recover it from fewer measurements than the lasso.
:class:`graphsparse.recovery.GraphStructuredRecovery` is the convex model of Kuroda &
Kitahara: every weight ``w_n`` gets a latent scale ``sigma_n``, and the budget ``alpha``
bounds how much the scales may jump across the edges, so that large weights come in
connected groups. With no edges (or a very large ``alpha``) it is the lasso. This example
compares the two along their regularisation paths and draws the supports they find.
"""

# %%
# The problem
# -----------
# :func:`graphsparse.datasets.make_graph_structured_recovery` draws a random 3-regular graph,
# two disjoint connected subgraphs carrying the non-zeros (40 of 200 nodes, N(0, 1)
# amplitudes), a Gaussian measurement matrix with 80 rows and noise at 40 dB.
import matplotlib.pyplot as plt
import networkx as nx
import numpy as np

import graphsparse as gs
from graphsparse.metrics import nmse
from graphsparse.recovery import recovery_path

problem = gs.datasets.make_graph_structured_recovery(
    n_nodes=200, n_measurements=80, support_size=40, random_state=3
)
A, y, x_true, edges = problem.A, problem.y, problem.x_true, problem.edges
true_support = np.flatnonzero(x_true)
print(f"{A.shape[1]} unknowns, {A.shape[0]} measurements, {len(true_support)} non-zeros")

# %%
# Two regularisation paths
# ------------------------
# :func:`graphsparse.recovery.recovery_path` solves the model for a decreasing sequence of
# ``lambda_`` values (from the smallest one that gives ``w = 0``), each solve starting from the
# previous solution. Without edges it is the lasso path. The budget ``alpha=30`` is of the
# order of the total jump of ``|x|`` along the edges for the true signal, printed below; it was
# not tuned.
jumps = np.abs(np.abs(x_true[edges[:, 0]]) - np.abs(x_true[edges[:, 1]])).sum()
print(f"total jump of |x_true| along the edges: {jumps:.1f}")
graph_path = recovery_path(A, y, edges, alpha=30.0, n_lambdas=25, eps=1e-3)
lasso_path = recovery_path(A, y, (), n_lambdas=25, eps=1e-3)
errors = {
    "graph-structured": [nmse(x_true, w) for w in graph_path.coefs],
    "lasso": [nmse(x_true, w) for w in lasso_path.coefs],
}
paths = {"graph-structured": graph_path, "lasso": lasso_path}
for name, path in paths.items():
    converged = path.converged.all()
    print(f"{name:17s} best NMSE {min(errors[name]):.3f}, all solves converged: {converged}")

fig, ax = plt.subplots(figsize=(5.2, 3.4))
for name, path in paths.items():
    ax.plot(path.lambdas / path.lambdas[0], errors[name], marker=".", label=name)
ax.set_xscale("log")
ax.set_yscale("log")
ax.invert_xaxis()
ax.set_xlabel("lambda_ / lambda_max")
ax.set_ylabel("NMSE  ||x - x_true||² / ||x_true||²")
ax.legend()
fig.tight_layout()

# %%
# The supports
# ------------
# For each path, the solution with the smallest error (an oracle choice, possible only because
# the true signal is known here) drawn on the graph: node size is ``|w_n|``, red nodes are the
# true non-zeros (a piece of 36 nodes and one of 4). The Kamada-Kawai layout places nodes
# by their distances in the graph, so each piece appears as a patch. Both estimates have many
# small non-zeros; the graph-structured one puts more of its weight on the true pieces, while
# the lasso gives larger weights to isolated nodes elsewhere.
graph = nx.Graph()
graph.add_nodes_from(range(len(x_true)))
graph.add_edges_from(edges.tolist())
layout = nx.kamada_kawai_layout(graph)
panels = [("truth", x_true)] + [
    (name, paths[name].coefs[int(np.argmin(errors[name]))]) for name in paths
]
fig, axes = plt.subplots(1, 3, figsize=(12.0, 4.2))
colours = np.where(x_true != 0, "tab:red", "tab:gray")
for ax, (name, w) in zip(axes, panels, strict=True):
    nx.draw_networkx_edges(graph, layout, ax=ax, alpha=0.15)
    nx.draw_networkx_nodes(
        graph, layout, ax=ax, node_size=4 + 120 * np.abs(w) / np.abs(w).max(), node_color=colours
    )
    title = name if name == "truth" else f"{name}: NMSE {nmse(x_true, w):.3f}"
    if name != "truth":
        on_truth = np.sum(w[true_support] ** 2) / np.sum(w**2)
        title += f"\n{100 * on_truth:.1f}% of ||w||² on the true support"
    ax.set_title(title, fontsize=10)
    ax.set_axis_off()
fig.tight_layout()
plt.show()
