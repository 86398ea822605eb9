"""
Online learning with graph-structured sparsity: GraphDA vs l1-RDA
=================================================================

Online learners see each training sample once, in order, and update their model after each.
GraphDA (Zhou, Chen & Ying, KDD 2019) is dual averaging whose model is forced, at every step,
onto a *connected* support on a graph over the features, through the head and tail projections
of :mod:`graphsparse.online`. This example runs it next to l1-regularised dual averaging
(:class:`~graphsparse.online.L1RDA`), which promotes sparsity but knows nothing of the graph,
on the GraphDA benchmark, and follows how well each recovers the true support.
"""

# %%
# The benchmark
# -------------
# :func:`graphsparse.datasets.make_graphda_benchmark` draws features on the nodes of a 33x33
# grid. The positive samples have their mean shifted by ``mu`` on a connected subgraph of 26
# nodes (``"Graph01"``) and nowhere else, so the ideal model is supported on that subgraph.
import matplotlib.pyplot as plt
import numpy as np

import graphsparse as gs
from graphsparse import metrics, online

bench = gs.datasets.make_graphda_benchmark(
    "Graph01", n_train=400, n_valid=400, n_test=400, random_state=0
)
sparsity = len(bench.true_support)
print(f"{bench.X_train.shape[1]} features, {len(bench.edges)} grid edges, true support {sparsity}")

# %%
# Tuning the baseline
# -------------------
# l1-RDA has a penalty ``lam`` and a step parameter ``gamma``. They are chosen here on the
# validation split (one pass each, a fraction of a second in all). GraphDA gets the size of the
# true support as its ``sparsity`` and a fixed ``gamma``.
grid = [(lam, gamma) for lam in (0.01, 0.02, 0.03, 0.05, 0.07) for gamma in (1.0, 5.0)]
scores = [
    online.L1RDA(lam=lam, gamma=gamma)
    .fit(bench.X_train, bench.y_train)
    .score(bench.X_valid, bench.y_valid)
    for lam, gamma in grid
]
lam, gamma = grid[int(np.argmax(scores))]
print(f"l1-RDA: lam={lam}, gamma={gamma} (validation accuracy {max(scores):.3f})")

# %%
# Learning curves
# ---------------
# ``partial_fit`` continues the online pass, so feeding the training samples in chunks of 25 and
# scoring the model after each chunk traces the learning curve of a single pass. The support F1
# compares the non-zero weights with the true subgraph (:func:`graphsparse.metrics.support_f1`).
learners = {
    "GraphDA": online.GraphDA(bench.edges, sparsity, gamma=10.0),
    "l1-RDA": online.L1RDA(lam=lam, gamma=gamma),
}
chunk = 25
seen = np.arange(chunk, len(bench.y_train) + 1, chunk)
curves = {name: {"f1": [], "accuracy": []} for name in learners}
for stop in seen:
    rows = slice(stop - chunk, stop)
    for name, learner in learners.items():
        learner.partial_fit(bench.X_train[rows], bench.y_train[rows], classes=[-1.0, 1.0])
        curves[name]["f1"].append(metrics.support_f1(learner.coef_, bench.true_support))
        curves[name]["accuracy"].append(learner.score(bench.X_test, bench.y_test))

for name, learner in learners.items():
    print(
        f"{name:8s} after {learner.n_samples_seen_} samples: "
        f"{np.count_nonzero(learner.coef_)} non-zero weights, "
        f"support F1 {curves[name]['f1'][-1]:.2f}, "
        f"test accuracy {curves[name]['accuracy'][-1]:.3f}, "
        f"{learner.n_mistakes_} online mistakes"
    )

fig, axes = plt.subplots(1, 2, figsize=(9.0, 3.4))
for name in learners:
    axes[0].plot(seen, curves[name]["f1"], marker=".", label=name)
    axes[1].plot(seen, curves[name]["accuracy"], marker=".", label=name)
axes[0].set(xlabel="training samples seen", ylabel="support F1", title="support recovery")
axes[1].set(xlabel="training samples seen", ylabel="test accuracy", title="classification")
axes[0].legend()
fig.tight_layout()

# %%
# The learned weights on the grid
# -------------------------------
# The magnitude of each weight, drawn at its node of the grid, with the true subgraph outlined
# in red. GraphDA's support is one connected piece; l1-RDA's non-zero weights are scattered.
side = 33
truth = np.zeros(side * side)
truth[bench.true_support] = 1.0
fig, axes = plt.subplots(1, 2, figsize=(8.0, 4.0))
for ax, (name, learner) in zip(axes, learners.items(), strict=True):
    ax.imshow(np.abs(learner.coef_).reshape(side, side), cmap="Greys")
    ax.contour(truth.reshape(side, side), levels=[0.5], colors="tab:red", linewidths=1)
    ax.set_title(f"{name}: |w|")
    ax.set_xticks([])
    ax.set_yticks([])
fig.tight_layout()
plt.show()
