"""Looking at subgraph models: selected patterns, learning curves, regularisation paths.

:func:`pattern_to_text` needs nothing extra. The plotting functions need matplotlib, the extra
``plot`` (``pip install "graphsparse[plot]"``, from a checkout ``pip install ".[plot]"``); it is
imported only when one of them is called, and a clear :class:`ImportError` says so when it is
missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import networkx as nx
import numpy as np

from ._optional import require
from ._validation import as_count
from .exceptions import InvalidParameterError
from .mining import Pattern

__all__ = ["pattern_to_text", "plot_history", "plot_path", "plot_patterns"]


def _pyplot() -> Any:
    return require("matplotlib.pyplot", "plot", "graphsparse.plotting")


def pattern_to_text(pattern: Pattern, coef: float | None = None) -> str:
    """A readable adjacency listing of a pattern, for terminals.

    Each line is one vertex ``v<i> <label>`` followed by its neighbours as
    ``-[edge label]- v<j>``.

    Examples
    --------
    >>> import networkx as nx, graphsparse as gs
    >>> ring = nx.cycle_graph(3)
    >>> nx.set_node_attributes(ring, dict(enumerate("NCC")), "label")
    >>> nx.set_edge_attributes(ring, {(0, 1): "s", (1, 2): "d", (0, 2): "s"}, "label")
    >>> triangle = max(gs.mine_subgraphs([ring], 1), key=lambda q: q.n_edges)
    >>> print(gs.plotting.pattern_to_text(triangle))
    pattern: 3 vertices, 3 edges, support 1
      v0 C  -[d]- v1  -[s]- v2
      v1 C  -[d]- v0  -[s]- v2
      v2 N  -[s]- v0  -[s]- v1
    """
    head = (
        f"pattern: {pattern.n_vertices} vertices, {pattern.n_edges} edges, "
        f"support {pattern.support}"
    )
    if coef is not None:
        head += f", coefficient {coef:+.4g}"
    nbrs: dict[int, list[tuple[int, Any]]] = {v: [] for v in range(pattern.n_vertices)}
    for i, j, _, lij, _ in pattern.dfs_code:
        nbrs[i].append((j, lij))
        nbrs[j].append((i, lij))
    lines = [head]
    for v, lab in enumerate(pattern.vertex_labels):
        adj = "".join(f"  -[{lij}]- v{w}" for w, lij in sorted(nbrs[v], key=lambda t: t[0]))
        lines.append(f"  v{v} {lab}{adj}")
    return "\n".join(lines)


def _patterns_and_coefs(model: Any) -> tuple[list[Pattern], np.ndarray | None]:
    if isinstance(model, Sequence):
        return list(model), None
    if not hasattr(model, "patterns_"):
        raise InvalidParameterError("expected a fitted subgraph model or a list of Pattern objects")
    return list(model.patterns_), np.asarray(model.coef_)


def plot_patterns(
    model: Any, *, top: int = 12, ncols: int = 4, node_size: int = 300, figsize_per: float = 2.6
) -> Any:
    """Draw the selected patterns (largest ``|coef|`` first) with their coefficients.

    Parameters
    ----------
    model : fitted subgraph model or list of Pattern
        Anything with ``patterns_`` and ``coef_``, or patterns alone.
    top : int, default=12
        How many patterns to draw.
    ncols : int, default=4
        Panels per row.
    node_size : int, default=300
        Marker area of a vertex, in points².

    Returns
    -------
    matplotlib.figure.Figure
    """
    top, ncols = as_count(top, "top"), as_count(ncols, "ncols", 1)
    node_size = as_count(node_size, "node_size")
    plt = _pyplot()
    patterns, coef = _patterns_and_coefs(model)
    order = (
        np.argsort(-np.abs(coef), kind="stable") if coef is not None else np.arange(len(patterns))
    )
    order = order[:top]
    k = max(len(order), 1)
    nrows = (k + ncols - 1) // ncols
    fig, axes = plt.subplots(
        nrows, min(ncols, k), figsize=(figsize_per * min(ncols, k), figsize_per * nrows)
    )
    axes = np.atleast_1d(axes).ravel()
    for ax in axes:
        ax.set_axis_off()
    for ax, j in zip(axes, order, strict=False):
        p = patterns[j]
        g = p.to_networkx()
        pos = nx.kamada_kawai_layout(g) if g.number_of_nodes() > 2 else nx.spring_layout(g, seed=0)
        colour = "tab:gray" if coef is None else ("tab:red" if coef[j] > 0 else "tab:blue")
        nx.draw_networkx(
            g,
            pos,
            ax=ax,
            labels={v: d["label"] for v, d in g.nodes(data=True)},
            node_color=colour,
            node_size=node_size,
            font_color="white",
            font_size=8,
        )
        nx.draw_networkx_edge_labels(
            g,
            pos,
            ax=ax,
            edge_labels={(u, v): d["label"] for u, v, d in g.edges(data=True)},
            font_size=7,
        )
        title = (
            f"support {p.support}" if coef is None else f"coef {coef[j]:+.3f} (support {p.support})"
        )
        ax.set_title(title, fontsize=8)
    fig.tight_layout()
    return fig


def plot_history(model: Any, keys: Sequence[str] = ("objective", "nonzeros", "visited")) -> Any:
    """The learning curve of a BCGD fit: one panel per ``history_`` key against the iteration."""
    plt = _pyplot()
    if not hasattr(model, "history_"):
        raise InvalidParameterError("expected a fitted SubgraphLogisticRegression/LinearRegression")
    fig, axes = plt.subplots(1, len(keys), figsize=(3.4 * len(keys), 3.0))
    axes = np.atleast_1d(axes)
    for ax, key in zip(axes, keys, strict=True):
        values = [h[key] for h in model.history_]
        ax.plot(np.arange(1, len(values) + 1), values, marker=".")
        ax.set_xlabel("iteration")
        ax.set_title(key)
    fig.tight_layout()
    return fig


def plot_path(models: Sequence[Any]) -> Any:
    """A regularisation path (from :func:`graphsparse.lambda1_path`): coefficients against lambda1.

    Each line follows one pattern (matched by its DFS code) across the fits.
    """
    plt = _pyplot()
    if not models:
        raise InvalidParameterError("models is empty")
    lams = np.array([m.lambda1 for m in models], dtype=float)
    codes: dict[tuple[Any, ...], int] = {}
    for m in models:
        for p in m.patterns_:
            codes.setdefault(p.dfs_code, len(codes))
    path = np.zeros((len(models), len(codes)))
    for r, m in enumerate(models):
        for p, c in zip(m.patterns_, m.coef_, strict=True):
            path[r, codes[p.dfs_code]] = c
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(8.0, 3.2))
    ax1.plot(lams, path, marker=".")
    ax1.set_xscale("log")
    ax1.invert_xaxis()
    ax1.set_xlabel("lambda1")
    ax1.set_ylabel("coefficient")
    ax2.plot(lams, [len(m.coef_) for m in models], marker="o")
    ax2.set_xscale("log")
    ax2.invert_xaxis()
    ax2.set_xlabel("lambda1")
    ax2.set_ylabel("selected features")
    fig.tight_layout()
    return fig
