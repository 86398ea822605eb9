"""SMARTS text of a labelled graph given by its DFS code, which needs no RDKit: the element
symbols and bond types that vertex and edge labels name.

A leaf: :meth:`graphsparse.Pattern.to_smarts` writes its SMARTS here, so nothing here imports
:mod:`graphsparse.mining`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ..exceptions import InvalidGraphError

# fmt: off
_ELEMENTS = (
    "H", "He", "Li", "Be", "B", "C", "N", "O", "F", "Ne", "Na", "Mg", "Al", "Si", "P", "S", "Cl",
    "Ar", "K", "Ca", "Sc", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As",
    "Se", "Br", "Kr", "Rb", "Sr", "Y", "Zr", "Nb", "Mo", "Tc", "Ru", "Rh", "Pd", "Ag", "Cd", "In",
    "Sn", "Sb", "Te", "I", "Xe", "Cs", "Ba", "La", "Ce", "Pr", "Nd", "Pm", "Sm", "Eu", "Gd", "Tb",
    "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf", "Ta", "W", "Re", "Os", "Ir", "Pt", "Au", "Hg", "Tl",
    "Pb", "Bi", "Po", "At", "Rn", "Fr", "Ra", "Ac", "Th", "Pa", "U", "Np", "Pu", "Am", "Cm", "Bk",
    "Cf", "Es", "Fm", "Md", "No", "Lr", "Rf", "Db", "Sg", "Bh", "Hs", "Mt", "Ds", "Rg", "Cn", "Nh",
    "Fl", "Mc", "Lv", "Ts", "Og",
)
# fmt: on
_ATOMIC_NUMBER = {s: z for z, s in enumerate(_ELEMENTS, 1)}

#: The SMARTS bond primitive of each edge label the readers write (RDKit bond type names).
BOND_SMARTS: Mapping[str, str] = {
    "SINGLE": "-",
    "DOUBLE": "=",
    "TRIPLE": "#",
    "QUADRUPLE": "$",
    "AROMATIC": ":",
}
_ORDER_SMARTS = {1: "-", 2: "=", 3: "#", 4: "$", 1.5: ":"}


def _mapped(label: Any, mapping: Mapping[Any, Any] | None, what: str, name: str) -> Any:
    """``mapping[label]``, or ``label`` itself without a mapping; a label the mapping lacks is
    an :class:`InvalidGraphError` naming the argument."""
    if mapping is None:
        return label
    if label not in mapping:
        raise InvalidGraphError(f"{what} label {label!r} is not a key of {name}")
    return mapping[label]


def _atom_number(label: Any, atoms: Mapping[Any, Any] | None) -> int:
    value = _mapped(label, atoms, "vertex", "atoms")
    if isinstance(value, str) and value in _ATOMIC_NUMBER:
        return _ATOMIC_NUMBER[value]
    if atoms is not None and isinstance(value, int | np.integer) and 1 <= value <= len(_ELEMENTS):
        return int(value)
    raise InvalidGraphError(
        f"vertex label {label!r} is not an element symbol; patterns from molecules have atom "
        "labels (read_sdf, from_smiles), otherwise pass atoms={label: symbol or atomic number}"
    )


def _bond_smarts(label: Any, bonds: Mapping[Any, Any] | None) -> str:
    value = _mapped(label, bonds, "edge", "bonds")
    if isinstance(value, str) and value.upper() in BOND_SMARTS:
        return BOND_SMARTS[value.upper()]
    if bonds is not None:
        if isinstance(value, str) and value in _ORDER_SMARTS.values():
            return value
        if isinstance(value, int | float | np.number) and value in _ORDER_SMARTS:
            return _ORDER_SMARTS[value]  # type: ignore[index]
    raise InvalidGraphError(
        f"edge label {label!r} is not a bond type ({', '.join(BOND_SMARTS)}); patterns from "
        "molecules have bond labels (read_sdf, from_smiles), otherwise pass "
        "bonds={label: bond type name or order}"
    )


def dfs_code_smarts(
    vertex_labels: Sequence[Any],
    dfs_code: Iterable[tuple[int, int, Any, Any, Any]],
    atoms: Mapping[Any, Any] | None = None,
    bonds: Mapping[Any, Any] | None = None,
) -> str:
    """The SMARTS of a connected graph given by its vertex labels (in DFS order) and its DFS
    code: :func:`graphsparse.chem.pattern_smarts` of a pattern with these fields."""
    n = len(vertex_labels)
    z = [_atom_number(lab, atoms) for lab in vertex_labels]
    adj: list[list[tuple[int, str]]] = [[] for _ in range(n)]
    for i, j, _, lij, _ in dfs_code:
        b = _bond_smarts(lij, bonds)
        adj[i].append((j, b))
        adj[j].append((i, b))
    # a DFS spanning tree from vertex 0; every non-tree edge becomes a ring closure
    order: list[int] = []
    parent = [-1] * n
    children: list[list[tuple[int, str]]] = [[] for _ in range(n)]
    seen = [False] * n
    stack = [(0, -1, "")]
    while stack:
        v, p, b = stack.pop()
        if seen[v]:
            continue
        seen[v] = True
        parent[v] = p
        order.append(v)
        if p >= 0:
            children[p].append((v, b))
        stack.extend((w, v, bw) for w, bw in reversed(adj[v]) if not seen[w])
    if len(order) != n:
        raise InvalidGraphError("the pattern is not connected; SMARTS needs one fragment")
    rank = {v: k for k, v in enumerate(order)}
    opens: list[list[tuple[int, str]]] = [[] for _ in range(n)]
    closes: list[list[int]] = [[] for _ in range(n)]
    for u in range(n):
        for w, b in adj[u]:
            if rank[u] < rank[w] and parent[w] != u and parent[u] != w:
                opens[u].append((w, b))
                closes[w].append(u)
    free: list[int] = []
    next_digit = 1
    digit: dict[tuple[int, int], int] = {}

    def ring(d: int) -> str:
        return str(d) if d < 10 else f"%{d}" if d < 100 else f"%({d})"

    def write(v: int) -> str:
        nonlocal next_digit
        parts = [f"[#{z[v]}]"]
        for u in closes[v]:
            d = digit.pop((u, v))
            parts.append(ring(d))
            free.append(d)
        for w, b in opens[v]:
            if free:
                free.sort()
                d = free.pop(0)
            else:
                d, next_digit = next_digit, next_digit + 1
            digit[(v, w)] = d
            parts.append(b + ring(d))
        kids = children[v]
        for k, (w, b) in enumerate(kids):
            branch = b + write(w)
            parts.append(branch if k == len(kids) - 1 else f"({branch})")
        return "".join(parts)

    return write(0)
