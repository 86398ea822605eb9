"""Molecules -> a :class:`~graphsparse.datasets.GraphDataset`: one vertex per heavy atom
labelled with its element symbol, one edge per bond labelled with its RDKit bond type name."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._dataset import GraphDataset
from ..exceptions import GraphFormatError, MoleculeSkippedWarning
from ._sanitize import _repaired_warning


class _BondNames(dict):  # type: ignore[type-arg]
    """RDKit bond type -> its name, filled on first use (``str()`` of the enum is slow)."""

    def __missing__(self, key: Any) -> str:
        name = self[key] = str(key)
        return name


_BOND_NAME = _BondNames()


class _Builder:
    """Accumulates molecules as flat arrays, then builds one :class:`GraphDataset`."""

    def __init__(self) -> None:
        self.atoms: list[str] = []
        self.bonds: list[str] = []
        self.edges: list[tuple[int, int]] = []
        self.node_ptr = [0]
        self.edge_ptr = [0]
        self.kept: list[int] = []
        self.names: list[str] = []
        self.skipped: list[tuple[int, str]] = []
        self.repaired: list[tuple[int, str]] = []

    def add(self, index: int, mol: Any, name: str, repaired: list[str]) -> None:
        if repaired:
            self.repaired.append((index, "; ".join(repaired)))
        # by index: RDKit's GetAtoms()/GetBonds() sequences cost more than the work here
        atom, bond = mol.GetAtomWithIdx, mol.GetBondWithIdx
        self.atoms.extend([atom(k).GetSymbol() for k in range(mol.GetNumAtoms())])
        for k in range(mol.GetNumBonds()):
            b = bond(k)
            self.edges.append((b.GetBeginAtomIdx(), b.GetEndAtomIdx()))
            self.bonds.append(_BOND_NAME[b.GetBondType()])
        self.node_ptr.append(len(self.atoms))
        self.edge_ptr.append(len(self.edges))
        self.kept.append(index)
        self.names.append(name)

    def fail(self, index: int, reason: str, on_error: str, what: str) -> None:
        if on_error == "raise":
            raise GraphFormatError(f"{what} {index} cannot be read: {reason}")
        self.skipped.append((index, reason))

    def build(self, y: np.ndarray | None, source: str) -> GraphDataset:
        if self.skipped:
            shown = ", ".join(f"{i} ({r})" for i, r in self.skipped[:10])
            more = f" and {len(self.skipped) - 10} more" if len(self.skipped) > 10 else ""
            warnings.warn(
                MoleculeSkippedWarning(
                    f"{source}{len(self.skipped)} of {len(self.skipped) + len(self.kept)} "
                    f"molecules could not be read and were left out: {shown}{more}; "
                    "ds.source_index holds the index of each one kept",
                    self.skipped,
                ),
                stacklevel=3,
            )
        if self.repaired:
            total = len(self.skipped) + len(self.kept)
            warnings.warn(_repaired_warning(source, self.repaired, total), stacklevel=3)
        vvals, vids = np.unique(np.asarray(self.atoms, dtype=str), return_inverse=True)
        evals, eids = np.unique(np.asarray(self.bonds, dtype=str), return_inverse=True)
        kept = np.asarray(self.kept, dtype=np.int64)
        ds = GraphDataset(
            np.asarray(self.node_ptr, dtype=np.int64),
            vids.astype(np.int64).ravel(),
            np.asarray(self.edge_ptr, dtype=np.int64),
            np.asarray(self.edges, dtype=np.int64).reshape(-1, 2),
            eids.astype(np.int64).ravel(),
            tuple(vvals.tolist()),
            tuple(evals.tolist()),
            y=None if y is None else y[kept],
            names=self.names,
        )
        kept.flags.writeable = False
        ds.source_index = kept
        return ds
