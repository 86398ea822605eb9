"""The molecule readers: SMILES and SD files in, :class:`~graphsparse.datasets.GraphDataset`
out (:func:`from_smiles`, :func:`read_sdf`), and one SMILES as its RDKit molecule."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from .._dataset import GraphDataset, _label_file_values
from .._validation import as_flag, as_response
from ..exceptions import GraphFormatError, InvalidParameterError
from ._convert import _Builder
from ._rdkit import _rdkit
from ._sanitize import _parse_smiles, _read_one, _repaired_warning

PathLike = str | os.PathLike[str]
OnError = Literal["raise", "skip"]


def _check_options(on_error: Any, kekulize: Any, sanitize: Any, strict_valence: Any) -> None:
    if on_error not in ("raise", "skip"):
        raise InvalidParameterError(f"on_error must be 'raise' or 'skip', got {on_error!r}")
    as_flag(kekulize, "kekulize")
    as_flag(strict_valence, "strict_valence")
    if not as_flag(sanitize, "sanitize") and strict_valence:
        raise InvalidParameterError(
            "strict_valence=True asks for RDKit's valence check, which sanitize=False turns "
            "off; pass one of them"
        )


def from_smiles(
    smiles: Iterable[str],
    y: npt.ArrayLike | None = None,
    on_error: OnError = "raise",
    *,
    kekulize: bool = False,
    sanitize: bool = True,
    strict_valence: bool = False,
    names: Sequence[str] | None = None,
) -> GraphDataset:
    """Molecules given as SMILES strings, as a :class:`~graphsparse.datasets.GraphDataset`.

    Parameters
    ----------
    smiles : iterable of str
        One SMILES per molecule.
    y : array-like, optional
        One response per SMILES; molecules left out take their response with them.
    on_error : {"raise", "skip"}, default="raise"
        What to do with a SMILES that RDKit cannot read: raise, or leave it out with a
        :class:`MoleculeSkippedWarning` naming it.
    kekulize : bool, default=False
        Label aromatic bonds ``"SINGLE"``/``"DOUBLE"`` (a Kekulé form) instead of ``"AROMATIC"``.
    sanitize : bool, default=True
        Read each molecule as RDKit does, its valence check included, restoring formal charges
        that the input left out by the rules of :mod:`graphsparse.chem` (nitro and nitrate
        groups, azides, quaternary and iminium N, oxonium O). ``False`` skips the valence check,
        as earlier versions did: the graph of whatever bonds are written, a hydrogen with two
        bonds included.
    strict_valence : bool, default=False
        Restore no charges: refuse every molecule RDKit's valence check refuses, as
        ``rdkit.Chem.MolFromSmiles`` does (needs ``sanitize=True``).
    names : sequence of str, optional
        A name per SMILES (default: its index).

    Returns
    -------
    GraphDataset
        Vertex labels are element symbols, edge labels RDKit bond type names. ``source_index``
        holds the index in ``smiles`` of each molecule kept.

    Raises
    ------
    GraphFormatError
        For a SMILES RDKit cannot read, or whose valences no charge rule explains
        (``on_error="raise"``): the message gives its index and RDKit's reason.
    ImportError
        When RDKit is not installed.

    Warns
    -----
    MoleculeRepairedWarning
        Once per call, when charges the input left out were restored (``sanitize=True``).
    MoleculeSkippedWarning
        Once per call, for the SMILES left out (``on_error="skip"``).

    Examples
    --------
    >>> from graphsparse.datasets import from_smiles
    >>> ds = from_smiles(["c1ccccc1O", "CC(=O)O"])
    >>> ds.vertex_label_values, ds.edge_label_values
    (('C', 'O'), ('AROMATIC', 'DOUBLE', 'SINGLE'))
    >>> ds.graph(1).edges(data="label")
    EdgeDataView([(0, 1, 'SINGLE'), (1, 2, 'DOUBLE'), (1, 3, 'SINGLE')])
    """
    _rdkit()
    _check_options(on_error, kekulize, sanitize, strict_valence)
    if isinstance(smiles, str | bytes):
        raise InvalidParameterError("smiles must be a sequence of SMILES strings, not one string")
    try:
        items = list(smiles)
    except TypeError:
        raise InvalidParameterError(
            f"smiles must be a sequence of SMILES strings, got {type(smiles).__name__}"
        ) from None
    y_arr = None if y is None else as_response(y, len(items), "y")
    name_arr = None if names is None else as_response(names, len(items), "names")
    out = _Builder()
    for i, s in enumerate(items):
        if not isinstance(s, str):  # e.g. a missing value (None, NaN) from a table
            out.fail(i, f"{s!r} is a {type(s).__name__}, not a string", on_error, "SMILES")
            continue
        mol, reason, repaired = _parse_smiles(s, kekulize, sanitize, strict_valence)
        if mol is None:
            out.fail(i, f"{s!r}: {reason}", on_error, "SMILES")
            continue
        out.add(i, mol, str(i) if name_arr is None else str(name_arr[i]), repaired)
    return out.build(y_arr, "")


def read_sdf(
    path: PathLike,
    y_field: str | None = None,
    on_error: OnError = "raise",
    *,
    kekulize: bool = False,
    sanitize: bool = True,
    strict_valence: bool = False,
    remove_hs: bool = True,
) -> GraphDataset:
    """Molecules from an SD file, as a :class:`~graphsparse.datasets.GraphDataset`.

    Parameters
    ----------
    path : str or path-like
        The SD (``.sdf``) file.
    y_field : str, optional
        The data field (``> <name>``) holding each molecule's response; integers, else floats,
        else the text.
    on_error : {"raise", "skip"}, default="raise"
        What to do with a record RDKit cannot read: raise, or leave it out with a
        :class:`MoleculeSkippedWarning` naming it.
    kekulize : bool, default=False
        Keep the file's single and double bonds instead of perceiving aromatic ones.
    sanitize : bool, default=True
        Read each molecule as RDKit does, its valence check included, restoring formal charges
        that the input left out by the rules of :mod:`graphsparse.chem` (nitro and nitrate
        groups, azides, quaternary and iminium N, oxonium O). ``False`` skips the valence check,
        as earlier versions did: the graph of whatever bonds are written, a hydrogen with two
        bonds included.
    strict_valence : bool, default=False
        Restore no charges: refuse every molecule RDKit's valence check refuses, as
        ``rdkit.Chem.MolFromSmiles`` does (needs ``sanitize=True``).
    remove_hs : bool, default=True
        Drop explicit hydrogen atoms as RDKit's ``RemoveHs`` does (``False`` keeps every atom
        of the file).

    Returns
    -------
    GraphDataset
        Names are the molecules' titles (their index when the title is empty);
        ``source_index`` holds each molecule's position in the file.

    Raises
    ------
    GraphFormatError
        For a record RDKit cannot read or whose valences no charge rule explains, or one
        without ``y_field``: the message gives its index and RDKit's reason.
    FileNotFoundError
        If the file does not exist.
    ImportError
        When RDKit is not installed.

    Warns
    -----
    MoleculeRepairedWarning
        Once per call, when charges the file left out were restored (``sanitize=True``);
        CPDB's ``mutagen.sdf`` has 83 such molecules, mostly nitro groups written ``N(=O)O``.
    MoleculeSkippedWarning
        Once per call, for the records left out (``on_error="skip"``).
    """
    Chem = _rdkit()
    _check_options(on_error, kekulize, sanitize, strict_valence)
    as_flag(remove_hs, "remove_hs")
    if y_field is not None and not isinstance(y_field, str):
        raise InvalidParameterError(f"y_field must be a field name, got {y_field!r}")
    if not isinstance(path, str | os.PathLike):
        raise InvalidParameterError(f"path must be a file path, got {type(path).__name__}")
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no such SD file: {path!r}")
    supplier = Chem.SDMolSupplier(path, sanitize=False, removeHs=False)
    out = _Builder()
    ys: list[str] = []
    what = f"{path}: molecule"
    for i in range(len(supplier)):
        mol, reason, repaired = _read_one(
            lambda: supplier[i],  # noqa: B023 (called at once)
            "RDKit cannot parse the record",
            kekulize,
            sanitize,
            strict_valence,
            remove_hs,
        )
        if mol is None:
            out.fail(i, reason, on_error, what)
            continue
        if y_field is not None:
            if not mol.HasProp(y_field):
                raise GraphFormatError(f"{what} {i} has no {y_field!r} field")
            ys.append(mol.GetProp(y_field).strip())
        title = mol.GetProp("_Name").strip() if mol.HasProp("_Name") else ""
        out.add(i, mol, title or str(i), repaired)
    ds = out.build(None, f"{path}: ")
    if y_field is not None:
        ds.y = np.asarray(_label_file_values(ys))
    return ds


def mol_from_smiles(
    smiles: str, *, kekulize: bool = False, sanitize: bool = True, strict_valence: bool = False
) -> Any:
    """One SMILES as the RDKit molecule :func:`from_smiles` builds its graph from.

    The options are those of :func:`from_smiles`; charges the SMILES left out are restored (with
    a :class:`MoleculeRepairedWarning`) and set on the molecule returned. Raises
    :class:`~graphsparse.exceptions.GraphFormatError` with RDKit's reason when the SMILES cannot
    be read.
    """
    _check_options("raise", kekulize, sanitize, strict_valence)
    if not isinstance(smiles, str):
        raise InvalidParameterError(f"smiles must be a string, got {type(smiles).__name__}")
    mol, reason, repaired = _parse_smiles(smiles, kekulize, sanitize, strict_valence)
    if mol is None:
        raise GraphFormatError(f"SMILES {smiles!r} cannot be read: {reason}")
    if repaired:
        warnings.warn(_repaired_warning("", [(0, "; ".join(repaired))], 1), stacklevel=2)
    return mol
