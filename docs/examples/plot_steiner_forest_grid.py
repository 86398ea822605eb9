"""
A prize-collecting Steiner forest on a grid
===========================================

Given a graph with a non-negative *prize* on every node and a *cost* on every edge, the
prize-collecting Steiner forest problem asks for a forest of ``g`` trees that collects large
prizes with cheap edges: it minimises the cost of the edges taken plus the prizes of the nodes
left out. :func:`graphsparse.pcst` solves it with the Goemans-Williamson scheme (the same
answers as ``pcst_fast``, computed in Rust). This example finds a forest on a grid whose
prizes hide three blobs, then uses the same machinery as a *projection*: the connected support
closest to a noisy signal, compared with plain top-``k`` thresholding.
"""

# %%
# Prizes on a grid
# ----------------
# :func:`graphsparse.datasets.grid_edges` lists the edges of a 4-neighbour grid, numbering the
# nodes row by row. The prizes are small random values everywhere, plus three round blobs of
# large values.
import matplotlib.pyplot as plt
import numpy as np

import graphsparse as gs

side = 30
edges = gs.datasets.grid_edges(side, side)
rows, cols = np.divmod(np.arange(side * side), side)
rng = np.random.default_rng(0)
prizes = rng.exponential(0.15, side * side)
for r0, c0, radius in [(7, 8, 4.5), (20, 21, 5.5), (23, 6, 3.5)]:
    prizes[(rows - r0) ** 2 + (cols - c0) ** 2 <= radius**2] += 2.0
costs = np.ones(len(edges))
print(f"{side * side} nodes, {len(edges)} edges, total prize {prizes.sum():.1f}")

# %%
# The forest
# ----------
# ``num_clusters=3`` asks for three trees (the unrooted problem); ``pruning="gw"`` is the
# Goemans-Williamson pruning with its factor-2 guarantee, ``"strong"`` a stronger pruning that
# is never worse.
nodes, picked = gs.pcst(edges, prizes, costs, num_clusters=3, pruning="strong")
left_out = np.setdiff1d(np.arange(side * side), nodes)
print(
    f"forest: {len(nodes)} nodes, {len(picked)} edges; edge cost {costs[picked].sum():.0f} "
    f"+ prizes left out {prizes[left_out].sum():.1f}"
)


def draw_edges(ax, edge_ids, **style):
    """Draw grid edges (given by their indices into ``edges``) in image coordinates."""
    for u, v in edges[edge_ids]:
        ax.plot([u % side, v % side], [u // side, v // side], **style)


fig, axes = plt.subplots(1, 2, figsize=(9.0, 4.4))
axes[0].imshow(prizes.reshape(side, side), cmap="viridis")
axes[0].set_title("prizes")
axes[1].imshow(prizes.reshape(side, side), cmap="Greys", alpha=0.5)
draw_edges(axes[1], picked, color="tab:red", lw=1.5)
axes[1].plot(nodes % side, nodes // side, "o", color="tab:red", ms=2.5)
axes[1].set_title(f"Steiner forest with 3 trees ({len(nodes)} nodes)")
for ax in axes:
    ax.set_xticks([])
    ax.set_yticks([])
fig.tight_layout()

# %%
# A graph-structured projection
# -----------------------------
# To keep the ``k`` "most important" entries of a vector, the usual choice is the ``k`` of
# largest magnitude (:func:`graphsparse.project_top_k`). When the signal is known to live on a
# connected part of a graph, :func:`graphsparse.online.tail_projection` looks instead for a
# *connected* support of about ``k`` nodes: it runs the Steiner forest solver with prizes
# ``w**2`` and searches over the scale of the edge costs until the forest has the requested
# size. It is the projection that GraphDA (see
# :ref:`the online learning example <sphx_glr_auto_examples_plot_online_graphda.py>`)
# applies at every step.
truth = (rows - 14) ** 2 + (cols - 13) ** 2 <= 5.5**2
w = 1.0 * truth + rng.normal(0.0, 0.45, side * side)
k = int(truth.sum())
top_k = np.flatnonzero(gs.project_top_k(w, k))
connected, n_runs = gs.online.tail_projection(w, edges, k, num_clusters=1)
print(f"true support {k} nodes; top-k keeps {len(top_k)}, the graph projection {len(connected)}")
print(f"(the projection ran the Steiner solver {n_runs} times)")


def f1(selected):
    """F1 score of a selected node set against the true support."""
    mask = np.zeros(side * side)
    mask[selected] = 1.0
    return gs.metrics.support_f1(mask, np.flatnonzero(truth))


fig, axes = plt.subplots(1, 3, figsize=(10.5, 3.8))
axes[0].imshow(w.reshape(side, side), cmap="RdBu_r", vmin=-2.5, vmax=2.5)
axes[0].contour(truth.reshape(side, side), levels=[0.5], colors="k", linewidths=1)
axes[0].set_title("noisy signal (black: true support)")
for ax, chosen, name in [(axes[1], top_k, "top-k"), (axes[2], connected, "tail projection")]:
    mask = np.zeros(side * side)
    mask[chosen] = 1.0
    ax.imshow(mask.reshape(side, side), cmap="Greys", vmin=0, vmax=1.5)
    ax.contour(truth.reshape(side, side), levels=[0.5], colors="tab:red", linewidths=1)
    ax.set_title(f"{name}: {len(chosen)} nodes, F1 {f1(chosen):.2f}")
for ax in axes:
    ax.set_xticks([])
    ax.set_yticks([])
fig.tight_layout()
plt.show()
