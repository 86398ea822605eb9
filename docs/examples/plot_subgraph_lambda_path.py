"""
An L1 model over all subgraphs, along its regularisation path
=============================================================

:class:`graphsparse.SubgraphLogisticRegression` fits an L1-penalised logistic regression whose
features are *all* connected subgraphs of the training graphs, without ever building that
feature matrix: block coordinate gradient descent searches the gSpan enumeration tree for the
few features it needs and prunes the rest with a bound. :func:`graphsparse.lambda1_path` fits a
decreasing sequence of ``lambda1`` values with warm starts, which is much cheaper than fitting
each one from scratch. This example follows the coefficients along such a path.
"""

# %%
# Data and the largest useful ``lambda1``
# ---------------------------------------
# Above ``lambda_max`` the model has no feature at all. A fit from scratch (with the default
# ``screening=True``) computes it and stores it as ``lambda_max_``; a fit at a large
# ``lambda1`` is enough to read it.
import matplotlib.pyplot as plt
import numpy as np

import graphsparse as gs

data = gs.datasets.make_subgraph_classification(n_samples=300, random_state=0)
y = np.asarray(data.y)
train, test = data[:200], data[200:]
y_train, y_test = y[:200], y[200:]

# patterns of up to 5 edges, which keeps every fit in the path well under a second
template = gs.SubgraphLogisticRegression(max_size=5)
probe = gs.SubgraphLogisticRegression(lambda1=1.0, max_size=5).fit(train, y_train)
lambda_max = probe.lambda_max_
print(f"lambda_max = {lambda_max:.4f}; features selected at lambda1=1.0: {len(probe.coef_)}")

# %%
# The path
# --------
# Twenty values from just below ``lambda_max`` down to 2% of it, fitted in that order so that
# every fit starts from the previous solution and reuses the cached enumeration tree.
lambdas = lambda_max * np.geomspace(0.95, 0.02, 20)
models = gs.lambda1_path(template, train, y_train, lambdas)
for m in models[::4]:
    print(
        f"lambda1={m.lambda1:.4f}: {len(m.coef_):3d} patterns, "
        f"held-out accuracy {m.score(test, y_test):.3f}, duality gap {m.dual_gap_:.1e}"
    )

# %%
# :func:`graphsparse.plotting.plot_path` draws one line per pattern (matched across the fits by
# its minimum DFS code) and the number of selected patterns. Patterns enter one after another
# as ``lambda1`` decreases; the first to enter are those whose indicators agree best with
# the labels.
fig = gs.plotting.plot_path(models)
fig.axes[0].set_title("coefficients")
fig.axes[1].set_title("model size")
fig.tight_layout()

# %%
# Accuracy along the path
# -----------------------
# The held-out graphs were not used in any fit. A handful of patterns already give most of the
# accuracy this noisy problem allows; many more do not help.
fig, ax = plt.subplots(figsize=(5.0, 3.2))
ax.plot(lambdas, [m.score(train, y_train) for m in models], marker=".", label="training")
ax.plot(lambdas, [m.score(test, y_test) for m in models], marker=".", label="held out")
ax.set_xscale("log")
ax.invert_xaxis()
ax.set_xlabel("lambda1")
ax.set_ylabel("accuracy")
ax.legend()
fig.tight_layout()

# %%
# The patterns of a small model
# -----------------------------
# The first model on the path with at least eight patterns, drawn with
# :func:`graphsparse.plotting.plot_patterns` (red: positive coefficient, blue: negative).
small = next(m for m in models if len(m.coef_) >= 8)
fig = gs.plotting.plot_patterns(small, top=8)
fig.suptitle(f"lambda1 = {small.lambda1:.4f}")
fig.tight_layout()
plt.show()
