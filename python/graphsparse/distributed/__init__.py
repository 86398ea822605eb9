"""graphsparse on Dask: exact sharded subgraph mining, partition-wise apply, batched solves.

Everything here needs the optional extra ``dask`` (``pip install "graphsparse[dask]"``, from a
checkout ``pip install ".[dask]"``, which installs ``dask[distributed]``); ``import graphsparse``
works without it. Every function takes a ``distributed.Client`` as ``client=`` and otherwise
uses the current one (``distributed.get_client()``).

* :func:`mine_subgraphs` — exact level-wise mining over a sharded collection (a ``dask.bag``
  of networkx graphs, a list of files read on the workers, or a ``GraphDataset`` split into
  shards) with supports summed across the shards; identical to
  :func:`graphsparse.mine_subgraphs` on the concatenated data for any shard layout, its work
  bounded by the frequent patterns' extensions (:class:`ShardedMiningResult` says how many).
* :func:`predict`, :func:`decision_function`, :func:`predict_proba`, :func:`transform` — a
  fitted model (subgraph models, rule ensembles, compressors, WL features) applied
  partition-wise to a Dask collection; the model is sent once to each worker.
* :func:`pcst_many` (one graph, many prize vectors), :func:`pcst_graphs` (many graphs),
  :func:`map_solves` (any solver: compression, recovery fits) — many independent solves spread
  over the workers.
"""

from __future__ import annotations

from .._optional import require

require("dask", "dask", "graphsparse.distributed")
require("distributed", "dask", "graphsparse.distributed")

from .apply import decision_function, predict, predict_proba, transform  # noqa: E402
from .batch import map_solves, pcst_graphs, pcst_many  # noqa: E402
from .mining import ShardedMiningResult, mine_subgraphs  # noqa: E402

__all__ = [
    "ShardedMiningResult",
    "decision_function",
    "map_solves",
    "mine_subgraphs",
    "pcst_graphs",
    "pcst_many",
    "predict",
    "predict_proba",
    "transform",
]
