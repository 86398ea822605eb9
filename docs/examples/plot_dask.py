"""
graphsparse on a Dask cluster
=============================

:mod:`graphsparse.distributed` spreads the work over a Dask cluster: exact frequent-subgraph
mining over a collection split into shards, a fitted model applied to every partition of a
collection, and many independent solves (Steiner forests, compressions, recovery fits) run as
a batch. It needs the ``dask`` extra. This example starts a small cluster inside the Python
process itself, so it runs anywhere; with a real cluster only the ``Client`` changes.
"""

# %%
# A local cluster
# ---------------
# ``processes=False`` keeps the two workers as threads of this process. The scheduler's web
# server listens on a free port (``dashboard_address=":0"``), so that the example does not
# collide with another cluster on the default port 8787. Every function of
# :mod:`graphsparse.distributed` takes the client as ``client=`` (or uses the current one).
import matplotlib.pyplot as plt
import numpy as np
from distributed import Client, LocalCluster

import graphsparse as gs
import graphsparse.distributed as gsd

cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0")
client = Client(cluster)

# %%
# Sharded mining
# --------------
# :func:`graphsparse.distributed.mine_subgraphs` splits a collection into shards, mines them
# level by level on the workers and adds the supports up on the driver. The result is exactly
# that of :func:`graphsparse.mine_subgraphs` on the whole collection: the same patterns in the
# same order, with the same supports.
data = gs.datasets.make_subgraph_classification(n_samples=400, random_state=0)
sharded = gsd.mine_subgraphs(data, 0.05, max_size=5, client=client, n_shards=4)
local = gs.mine_subgraphs(data, 0.05, max_size=5)
same = [p.dfs_code for p in sharded] == [p.dfs_code for p in local] and [
    p.support for p in sharded
] == [p.support for p in local]
print(
    f"{len(sharded)} patterns from 4 shards in {sharded.rounds} rounds "
    f"({sharded.scheme} scheme, {sharded.candidates} candidates counted); "
    f"identical to the single-machine result: {same}"
)

# %%
# Applying a model partition by partition
# ---------------------------------------
# A model fitted on one machine is sent once to each worker, and
# :func:`graphsparse.distributed.predict` returns a lazy ``dask.array`` of its predictions on a
# collection, one block per partition.
y = np.asarray(data.y)
model = gs.SubgraphLogisticRegression(lambda1=0.03, max_size=4).fit(data[:300], y[:300])
lazy = gsd.predict(model, data[300:], client=client, n_shards=4)
predicted = lazy.compute()
print(
    f"{lazy.npartitions} partitions; predictions equal the local ones: "
    f"{np.array_equal(predicted, model.predict(data[300:]))}; "
    f"accuracy {np.mean(predicted == y[300:]):.3f}"
)

# %%
# A batch of Steiner forests
# --------------------------
# :func:`graphsparse.distributed.pcst_many` solves one prize-collecting Steiner problem per
# prize vector on a shared graph, which is sent to each worker only once. Here the prizes are
# twelve noisy copies of a blob moving across a 20x20 grid; each solve finds one tree around it.
side = 20
edges = gs.datasets.grid_edges(side, side)
rows, cols = np.divmod(np.arange(side * side), side)
rng = np.random.default_rng(0)
centres = np.linspace(3, side - 4, 12)
prizes = np.array(
    [
        2.0 * ((rows - c) ** 2 + (cols - (side - 1 - c)) ** 2 <= 9) + rng.exponential(0.15, side**2)
        for c in centres
    ]
)
costs = np.ones(len(edges))
forests = gsd.pcst_many(edges, prizes, costs, num_clusters=1, client=client)
assert all(
    np.array_equal(nodes, gs.pcst(edges, p, costs)[0])
    for p, (nodes, _) in zip(prizes, forests, strict=True)
)
print(f"{len(forests)} forests, sizes {[len(nodes) for nodes, _ in forests]}")

fig, axes = plt.subplots(2, 6, figsize=(10.0, 3.8))
for ax, p, (nodes, _) in zip(axes.ravel(), prizes, forests, strict=True):
    picked = np.zeros(side * side)
    picked[nodes] = 1.0
    ax.imshow(p.reshape(side, side), cmap="Greys", vmin=0, vmax=3)
    ax.contour(picked.reshape(side, side), levels=[0.5], colors="tab:red", linewidths=1)
    ax.set_xticks([])
    ax.set_yticks([])
fig.suptitle("prizes (grey) and the tree found for each (red outline), solved on the cluster")
fig.tight_layout()

# %%
# The same cluster can compress graphs or fit recovery models in batches
# (:func:`graphsparse.distributed.map_solves`). Close it when done.
client.close()
cluster.close()
plt.show()
