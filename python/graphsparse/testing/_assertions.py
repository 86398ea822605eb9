"""Assertions for results that are equal without being equal as Python objects."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Literal

import networkx as nx
import numpy as np

from ..exceptions import InvalidParameterError
from ..mining import min_dfs_code

_SHOWN = 5  # differences listed in a failure message


def _pattern_key(item: Any, argument: str) -> tuple[tuple[Any, ...], int | None, int | None]:
    """``(minimum DFS code, vertex label of a one-vertex pattern, support)`` of one entry."""
    support: int | None = None
    if hasattr(item, "dfs_code") and hasattr(item, "to_networkx"):  # a graphsparse Pattern
        graph, support = item.to_networkx(), int(item.support)
    elif isinstance(item, nx.Graph):
        graph = item
    elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], nx.Graph):
        graph, occ = item
        support = int(occ) if isinstance(occ, int | np.integer) else len(set(occ))
    else:
        raise InvalidParameterError(
            f"{argument}: each pattern must be a graphsparse Pattern, a networkx graph or a "
            f"(graph, support or graph ids) pair, got {type(item).__name__}"
        )
    if graph.number_of_nodes() == 0 or not nx.is_connected(graph):
        raise InvalidParameterError(f"{argument}: a pattern must be a connected, non-empty graph")
    code = tuple(min_dfs_code(graph))
    label = None
    if not code:  # one vertex: the code is empty, the label tells patterns apart
        label = int(next(iter(graph.nodes(data="label")))[1])
    return code, label, support


def assert_patterns_equal(got: Iterable[Any], want: Iterable[Any]) -> None:
    """Assert that two collections of subgraph patterns are the same patterns, in any order.

    Each pattern is compared by its minimum DFS code (:func:`graphsparse.min_dfs_code`, so two
    isomorphic labelled graphs are the same pattern however their vertices are numbered and
    in whatever order they are listed) and, where both sides give one, by its support.

    Parameters
    ----------
    got, want : iterable
        Patterns, each a :class:`graphsparse.Pattern`, a connected :class:`networkx.Graph`
        with ``label`` attributes (no support), or a pair ``(graph, support)`` where the
        support is an int or the collection of ids of the graphs that contain the pattern
        (what :func:`graphsparse.testing.reference.subgraphs.frequent_subgraphs` returns).
        A pattern listed twice on one side must be listed twice on the other.

    Raises
    ------
    AssertionError
        Naming up to five patterns (as DFS codes) found on one side only, or whose supports
        differ.
    graphsparse.exceptions.InvalidParameterError
        If an entry is none of the above.

    Examples
    --------
    >>> import networkx as nx
    >>> from graphsparse.testing import assert_patterns_equal
    >>> a = nx.Graph([(0, 1)]); nx.set_node_attributes(a, {0: 1, 1: 2}, "label")
    >>> nx.set_edge_attributes(a, 0, "label")
    >>> b = nx.relabel_nodes(a, {0: 1, 1: 0})  # the same pattern, numbered the other way
    >>> assert_patterns_equal([(a, 3)], [(b, {0, 4, 5})])
    """
    keys_got = [_pattern_key(p, "got") for p in got]
    keys_want = [_pattern_key(p, "want") for p in want]
    with_support = all(k[2] is not None for k in keys_got + keys_want)
    trim = (lambda k: k) if with_support else (lambda k: k[:2])
    count_got, count_want = Counter(map(trim, keys_got)), Counter(map(trim, keys_want))
    if count_got == count_want:
        return
    only_got = list((count_got - count_want).elements())
    only_want = list((count_want - count_got).elements())
    lines = [f"pattern sets differ: {len(keys_got)} patterns got, {len(keys_want)} wanted"]
    for title, items in (("only in got", only_got), ("only in want", only_want)):
        if items:
            shown = ", ".join(_describe(k) for k in sorted(items, key=repr)[:_SHOWN])
            more = f" and {len(items) - _SHOWN} more" if len(items) > _SHOWN else ""
            lines.append(f"{title} ({len(items)}): {shown}{more}")
    raise AssertionError("\n".join(lines))


def _describe(key: tuple[Any, ...]) -> str:
    code, label = key[0], key[1]
    text = f"vertex labelled {label}" if not code else f"dfs code {list(code)}"
    return text + (f" (support {key[2]})" if len(key) > 2 else "")


def _id_set(values: Any, argument: str) -> set[int]:
    array = np.asarray(values)
    if array.ndim != 1 or (array.size and not np.issubdtype(array.dtype, np.integer)):
        raise InvalidParameterError(f"{argument}: expected a one-dimensional array of integer ids")
    ids = [int(v) for v in array]
    if len(set(ids)) != len(ids):
        raise AssertionError(f"{argument} lists an id twice: {sorted(ids)}")
    return set(ids)


def assert_forests_equal(got: Sequence[Any], want: Sequence[Any]) -> None:
    """Assert that two forests hold the same vertices and the same edges, in any order.

    A Steiner-forest solver (:func:`graphsparse.pcst`, ``pcst_fast``) returns the ids of the
    vertices and of the edges it keeps; two solvers that agree may list them in different
    orders. Each side must list an id at most once.

    Parameters
    ----------
    got, want : pair of array-like
        ``(vertex ids, edge ids)``: edge ids are row indices into the instance's edge list.

    Raises
    ------
    AssertionError
        Naming the vertices and edges found on one side only, or an id listed twice.
    graphsparse.exceptions.InvalidParameterError
        If a side is not a pair of one-dimensional integer arrays.

    Examples
    --------
    >>> from graphsparse.testing import assert_forests_equal
    >>> assert_forests_equal(([3, 0, 1], [2, 0]), ([0, 1, 3], [0, 2]))
    """
    parts = []
    for argument, side in (("got", got), ("want", want)):
        if len(side) != 2:
            raise InvalidParameterError(f"{argument}: expected a pair (vertex ids, edge ids)")
        parts.append(
            (_id_set(side[0], f"{argument} vertices"), _id_set(side[1], f"{argument} edges"))
        )
    (v_got, e_got), (v_want, e_want) = parts
    problems = []
    for what, a, b in (("vertices", v_got, v_want), ("edges", e_got, e_want)):
        if a != b:
            problems.append(f"{what}: only in got {sorted(a - b)}, only in want {sorted(b - a)}")
    if problems:
        raise AssertionError("forests differ: " + "; ".join(problems))


def assert_within_gap(
    value: float,
    reference: float,
    gap: float,
    *,
    reference_gap: float = 0.0,
    sense: Literal["min", "max"] = "min",
    rtol: float = 1e-9,
    atol: float = 1e-12,
) -> None:
    """Assert that two objective values are equal up to their certified duality gaps.

    A solver that stops at a certified gap ``gap`` knows that its objective ``value`` is at most
    ``gap`` above the optimum ``p*`` (below, when maximising): ``p*`` lies in
    ``[value - gap, value]``. Two certified values (a reference's, with ``reference_gap``,
    ``0`` for an exact one) agree when their intervals meet, up to a rounding tolerance
    ``atol + rtol * max(|value|, |reference|)``.

    Parameters
    ----------
    value : float
        The objective value of the solution under test.
    reference : float
        The objective value of the reference solution.
    gap : float
        The certified gap of ``value`` (``dual_gap_`` of a graphsparse solver), ``>= 0``.
    reference_gap : float, default=0.0
        The certified gap of ``reference``, ``>= 0``.
    sense : {"min", "max"}, default="min"
        Whether the problem is a minimisation or a maximisation.
    rtol, atol : float
        The relative and absolute rounding tolerances, ``>= 0``.

    Raises
    ------
    AssertionError
        If the two intervals are further apart than the tolerance.
    graphsparse.exceptions.InvalidParameterError
        If a value is not finite, a gap or tolerance is negative, or ``sense`` is neither.

    Examples
    --------
    >>> from graphsparse.testing import assert_within_gap
    >>> assert_within_gap(1.0005, 1.0, gap=1e-3)  # 1.0 is in [0.9995, 1.0005]
    """
    for name, x in (("value", value), ("reference", reference)):
        if not isinstance(x, int | float | np.floating | np.integer) or not math.isfinite(x):
            raise InvalidParameterError(f"{name} must be a finite number, got {x!r}")
    for name, x in (("gap", gap), ("reference_gap", reference_gap), ("rtol", rtol), ("atol", atol)):
        if not isinstance(x, int | float | np.floating | np.integer) or not x >= 0:
            raise InvalidParameterError(f"{name} must be a number >= 0, got {x!r}")
    if sense not in ("min", "max"):
        raise InvalidParameterError(f"sense must be 'min' or 'max', got {sense!r}")
    sign = 1.0 if sense == "min" else -1.0
    lo_a, hi_a = sorted((float(value), float(value) - sign * float(gap)))
    lo_b, hi_b = sorted((float(reference), float(reference) - sign * float(reference_gap)))
    tol = atol + rtol * max(abs(float(value)), abs(float(reference)))
    if lo_a > hi_b + tol or lo_b > hi_a + tol:
        raise AssertionError(
            f"objective {value!r} (gap {gap!r}) and reference {reference!r} (gap "
            f"{reference_gap!r}) disagree: the optimum would lie in [{lo_a!r}, {hi_a!r}] and in "
            f"[{lo_b!r}, {hi_b!r}], which are {max(lo_a - hi_b, lo_b - hi_a)!r} apart "
            f"(tolerance {tol!r})"
        )
