"""Chemistry in and out: molecules as graphs, patterns as SMARTS, drawings of substructures.

A molecule becomes a labelled graph with one vertex per heavy atom (hydrogens are implicit) and
one edge per bond: the vertex label is the atom's element symbol (``"C"``, ``"Cl"``) and the edge
label its RDKit bond type name (``"SINGLE"``, ``"DOUBLE"``, ``"TRIPLE"``, ``"AROMATIC"``). With
``kekulize=True`` aromaticity is not perceived and aromatic rings get alternating single and double
bonds (an SD file keeps the bonds it lists). Charges, isotopes and stereochemistry are not labels.

Reading and drawing need RDKit (``pip install "graphsparse[chem]"``, from a checkout
``pip install ".[chem]"``); :func:`pattern_smarts` (and :meth:`graphsparse.Pattern.to_smarts`)
does not.

Molecules are read as RDKit reads them: its sanitisation (valence check, ring perception,
kekulisation, aromaticity) decides what is a molecule. One exception, because real files need it:
where the valence check fails only because the file left out formal charges, the charges are
restored by the rules below and the molecule is kept, with one :class:`MoleculeRepairedWarning`
per call that counts them (``repaired`` lists each molecule and the charges set, numbering atoms
as the input does, explicit hydrogens included). The rules come into play only where RDKit's
valence check fails, and only on an uncharged atom with more bonds than RDKit allows it, so a
molecule RDKit accepts is read unchanged.

=============================  ===================================================================
the file has                   is read as
=============================  ===================================================================
N with four bonds and a        N+ and O- (``nitro``: ``CN(=O)O`` -> ``C[N+](=O)[O-]``;
terminal single-bonded O       ``nitrate``: ``CON(=O)O``; ``N-oxide``: azoxy ``CN=N(C)O``,
                               amine oxides)
N with four bonds and a        N+ and N- (``azide``: ``CN=N=N`` -> ``CN=[N+]=[N-]``;
terminal double-bonded N       ``diazo``: ``C=N=N``); where the file kept the N- only N+ is set
N with four bonds (hydrogens   N+ alone, a cation (``quaternary ammonium`` ``CN(C)(C)C``,
included), neither partner     ``ammonium`` ``C[NH](C)C``, ``iminium`` ``C=N(C)C``, ``ring
                               iminium`` as in pyridinium written in Kekulé form)
O with three bonds             O+ (``oxonium``, ``ring oxonium`` as in pyrylium)
=============================  ===================================================================

A group is neutral overall where the chemistry says so (one N+ and one O- in a nitro group); a
terminal neighbour that already carries the negative charge keeps it. Whatever else fails, a
hydrogen with two bonds or a carbon with five, is refused with RDKit's reason
(:class:`~graphsparse.exceptions.GraphFormatError`, or left out with ``on_error="skip"``).
``strict_valence=True`` refuses every molecule RDKit refuses, charges left out or not;
``sanitize=False`` skips the valence check altogether (the graph of whatever bonds are written).
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import numpy as np
import numpy.typing as npt

from ._dataset import GraphDataset, _label_file_values
from ._optional import require
from ._validation import as_count, as_flag, as_float_array, as_response
from .exceptions import (
    GraphFormatError,
    InvalidGraphError,
    InvalidParameterError,
    MoleculeRepairedWarning,
    MoleculeSkippedWarning,
)

if TYPE_CHECKING:
    from .mining import Pattern

__all__ = [
    "BOND_SMARTS",
    "MoleculeRepairedWarning",
    "MoleculeSkippedWarning",
    "draw_occurrences",
    "draw_patterns",
    "from_smiles",
    "mol_from_smiles",
    "pattern_smarts",
    "pattern_to_rdkit",
    "read_sdf",
]

PathLike = str | os.PathLike[str]
OnError = Literal["raise", "skip"]

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
_LOG_STAMP = re.compile(r"^\[\d\d:\d\d:\d\d\] (ERROR: )?")


def _rdkit() -> Any:
    """RDKit's ``Chem`` module, or an ImportError that says how to install it."""
    return require("rdkit.Chem", "chem", "this function")


# -- molecules -> graphs --------------------------------------------------------------------------
class _Captured:
    """RDKit's error log while parsing one molecule, kept off standard error."""

    def __enter__(self) -> _Captured:
        from rdkit import rdBase

        self._block = rdBase.BlockLogs()
        capture = getattr(rdBase, "CaptureErrorLog", None)
        self._cap = capture() if capture is not None else None
        if self._cap is not None:
            self._cap.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._cap is not None:
            self._cap.__exit__(None, None, None)
        del self._block

    def reason(self, default: str) -> str:
        if self._cap is None:
            return default
        lines = [_LOG_STAMP.sub("", ln).strip() for ln in self._cap.messages.splitlines()]
        lines = [ln for ln in lines if ln]
        return "; ".join(dict.fromkeys(lines)) or default


def _bond_sum(atom: Any) -> int | None:
    """An unsanitised atom's bond orders plus its explicit hydrogens; ``None`` when one of its
    bonds is not single, double or triple (an aromatic bond has no integer order yet)."""
    total = atom.GetNumExplicitHs()
    for bond in atom.GetBonds():
        order = bond.GetBondTypeAsDouble()
        if order not in (1.0, 2.0, 3.0):
            return None
        total += int(order)
    return total


def _bond_order(mol: Any, a: Any, b: Any) -> float:
    return float(mol.GetBondBetweenAtoms(a.GetIdx(), b.GetIdx()).GetBondTypeAsDouble())


def _terminal(mol: Any, atom: Any, z: int, order: float, via: Any) -> bool:
    """Is ``atom`` an uncharged element ``z`` whose one bond, of ``order``, goes to ``via``?"""
    return (
        atom.GetAtomicNum() == z
        and atom.GetFormalCharge() == 0
        and atom.GetDegree() == 1
        and atom.GetNumExplicitHs() == 0
        and atom.GetNumRadicalElectrons() == 0
        and _bond_order(mol, atom, via) == order
    )


def _charge_nitrogen(mol: Any, n: Any) -> tuple[str, list[int]]:
    """N+ for a four-bonded uncharged N, with the terminal partner that balances it, if any.

    Returns the group's kind ("" for a cation, named once rings are known) and the atoms whose
    charge was set.
    """
    n.SetFormalCharge(1)
    charged = [n.GetIdx()]
    nbrs = list(n.GetNeighbors())
    # a partner whose charge the file kept (CPDB writes its diazo compounds [N-]=N=C)
    partner = next((a for a in nbrs if a.GetDegree() == 1 and a.GetFormalCharge() == -1), None)
    if partner is None:
        partner = next((a for a in nbrs if _terminal(mol, a, 8, 1.0, n)), None) or next(
            (a for a in nbrs if _terminal(mol, a, 7, 2.0, n)), None
        )
        if partner is None:
            return "", charged
        partner.SetFormalCharge(-1)
        charged.append(partner.GetIdx())
    rest = [a for a in nbrs if a.GetIdx() != partner.GetIdx()]
    double = {a.GetAtomicNum() for a in rest if _bond_order(mol, n, a) == 2.0}
    single = {a.GetAtomicNum() for a in rest if _bond_order(mol, n, a) == 1.0}
    if partner.GetAtomicNum() == 7:
        kind = "azide" if 7 in double else "diazo"
    elif 8 not in double:
        kind = "N-oxide"  # azoxy CN=N(C)O, amine oxide CN(C)(C)O
    else:
        kind = "nitrate" if 8 in single else "nitro"
    return kind, charged


def _restore_charges(mol: Any) -> list[tuple[str, list[int]]]:
    """Set the formal charges a file left out, by the rules of the module docstring.

    Works on an unsanitised molecule; returns each group charged (its kind, "" for a cation
    named later, and its atoms' indices).
    """
    groups: list[tuple[str, list[int]]] = []
    for atom in mol.GetAtoms():
        if atom.GetFormalCharge() != 0 or atom.GetNumRadicalElectrons() != 0:
            continue
        z, valence = atom.GetAtomicNum(), _bond_sum(atom)
        if z == 7 and valence == 4:
            groups.append(_charge_nitrogen(mol, atom))
        elif z == 8 and valence == 3:
            atom.SetFormalCharge(1)
            groups.append(("", [atom.GetIdx()]))
    return groups


def _describe(mol: Any, groups: list[tuple[str, list[int]]]) -> list[str]:
    """Each group as ``"nitro (N1+, O0-)"`` (the charges set), on the sanitised molecule."""
    out = []
    for kind, idx in groups:
        atoms = [mol.GetAtomWithIdx(k) for k in idx]
        if not kind:  # a cation: N+ or O+ alone
            (a,) = atoms
            ring = "ring " if a.IsInRing() else ""
            if a.GetAtomicNum() == 8:
                kind = f"{ring}oxonium"
            elif any(b.GetBondTypeAsDouble() != 1.0 for b in a.GetBonds()):
                kind = f"{ring}iminium"  # aromatic bonds: pyridinium written in Kekulé form
            elif a.GetTotalNumHs(includeNeighbors=True):
                kind = "ammonium"  # a protonated amine, C[NH](C)C
            else:
                kind = "quaternary ammonium"
        charges = ", ".join(
            f"{a.GetSymbol()}{a.GetIdx()}{'+' if a.GetFormalCharge() > 0 else '-'}" for a in atoms
        )
        out.append(f"{kind} ({charges})")
    return out


def _prepare(
    mol: Any, kekulize: bool, sanitize: bool, strict: bool, remove_hs: bool
) -> tuple[Any, list[str]]:
    """Sanitise a molecule read with ``sanitize=False``, restoring left-out charges unless
    ``strict``; the molecule and what was restored (raises RDKit's exception on failure)."""
    Chem = _rdkit()
    ops = Chem.SanitizeFlags.SANITIZE_ALL
    if kekulize:
        ops ^= Chem.SanitizeFlags.SANITIZE_SETAROMATICITY
    repaired: list[str] = []
    if not sanitize:
        mol.UpdatePropertyCache(strict=False)
        Chem.SanitizeMol(mol, sanitizeOps=ops ^ Chem.SanitizeFlags.SANITIZE_PROPERTIES)
    else:
        trial = Chem.Mol(mol)  # a failed SanitizeMol leaves its molecule half done
        try:
            Chem.SanitizeMol(trial, sanitizeOps=ops)
            mol = trial
        except Chem.AtomValenceException:
            if strict:
                raise
            groups = _restore_charges(mol)
            if not groups:
                raise
            # what still fails is what no rule explains: RDKit's reason names that atom
            Chem.SanitizeMol(mol, sanitizeOps=ops)
            repaired = _describe(mol, groups)
    if remove_hs:
        mol = Chem.RemoveHs(mol, sanitize=False)
    return mol, repaired


def _read_one(
    parse: Callable[[], Any],
    unreadable: str,
    kekulize: bool,
    sanitize: bool,
    strict: bool,
    remove_hs: bool,
) -> tuple[Any, str, list[str]]:
    """``parse()``'s molecule prepared for the graph, or ``None`` and RDKit's reason; and the
    charges restored."""
    with _Captured() as log:
        mol = parse()
        if mol is None:
            return None, log.reason(unreadable), []
        try:
            mol, repaired = _prepare(mol, kekulize, sanitize, strict, remove_hs)
        except (ValueError, RuntimeError) as exc:  # RDKit's MolSanitizeException and kin
            return None, str(exc).strip() or type(exc).__name__, []
        return mol, "", repaired


def _parse_smiles(
    smiles: str, kekulize: bool, sanitize: bool, strict: bool
) -> tuple[Any, str, list[str]]:
    """The prepared molecule, or ``None`` and RDKit's reason; and the charges restored."""
    Chem = _rdkit()
    if not smiles.strip():
        return None, "empty SMILES", []
    params = Chem.SmilesParserParams()
    params.sanitize = False
    params.removeHs = False
    return _read_one(
        lambda: Chem.MolFromSmiles(smiles, params),
        "RDKit cannot parse it",
        kekulize,
        sanitize,
        strict,
        True,
    )


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


def _repaired_warning(
    source: str, repaired: list[tuple[int, str]], total: int
) -> MoleculeRepairedWarning:
    """One warning for every molecule of a call whose left-out charges were restored."""
    kinds: dict[str, int] = {}
    for _, what in repaired:
        # molecules per kind of group: "nitro (N1+, O0-); nitro (...)" counts once
        for kind in dict.fromkeys(g.split(" (")[0] for g in what.split("; ")):
            kinds[kind] = kinds.get(kind, 0) + 1
    by_kind = ", ".join(f"{k} {c}" for k, c in sorted(kinds.items(), key=lambda kc: -kc[1]))
    shown = ", ".join(f"{i} ({w})" for i, w in repaired[:5])
    more = f" and {len(repaired) - 5} more" if len(repaired) > 5 else ""
    return MoleculeRepairedWarning(
        f"{source}{len(repaired)} of {total} molecules were read with formal charges restored "
        f"that the input left out (molecules per group: {by_kind}): {shown}{more}; the "
        "warning's .repaired lists them all; strict_valence=True refuses such molecules, "
        "sanitize=False reads every molecule without RDKit's valence check",
        repaired,
    )


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


# -- patterns -> SMARTS and molecules -----------------------------------------------------------
def _atom_number(label: Any, atoms: Mapping[Any, Any] | None) -> int:
    value = label
    if atoms is not None:
        if label not in atoms:
            raise InvalidGraphError(f"vertex label {label!r} is not a key of atoms")
        value = atoms[label]
    if isinstance(value, str) and value in _ATOMIC_NUMBER:
        return _ATOMIC_NUMBER[value]
    if atoms is not None and isinstance(value, int | np.integer) and 1 <= value <= len(_ELEMENTS):
        return int(value)
    raise InvalidGraphError(
        f"vertex label {label!r} is not an element symbol; patterns from molecules have atom "
        "labels (read_sdf, from_smiles), otherwise pass atoms={label: symbol or atomic number}"
    )


def _bond_smarts(label: Any, bonds: Mapping[Any, Any] | None) -> str:
    value = label
    if bonds is not None:
        if label not in bonds:
            raise InvalidGraphError(f"edge label {label!r} is not a key of bonds")
        value = bonds[label]
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


def pattern_smarts(
    pattern: Pattern,
    atoms: Mapping[Any, Any] | None = None,
    bonds: Mapping[Any, Any] | None = None,
) -> str:
    """The SMARTS of a pattern; see :meth:`graphsparse.Pattern.to_smarts`. Needs no RDKit."""
    n = pattern.n_vertices
    z = [_atom_number(lab, atoms) for lab in pattern.vertex_labels]
    adj: list[list[tuple[int, str]]] = [[] for _ in range(n)]
    for i, j, _, lij, _ in pattern.dfs_code:
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


def pattern_to_rdkit(
    pattern: Pattern,
    atoms: Mapping[Any, Any] | None = None,
    bonds: Mapping[Any, Any] | None = None,
) -> Any:
    """The pattern as an RDKit molecule fragment (no implicit hydrogens), e.g. for drawing.

    Labels are read as in :meth:`graphsparse.Pattern.to_smarts`.
    """
    Chem = _rdkit()
    bond_type = {
        "-": Chem.BondType.SINGLE,
        "=": Chem.BondType.DOUBLE,
        "#": Chem.BondType.TRIPLE,
        "$": Chem.BondType.QUADRUPLE,
        ":": Chem.BondType.AROMATIC,
    }
    mol = Chem.RWMol()
    for lab in pattern.vertex_labels:
        atom = Chem.Atom(_atom_number(lab, atoms))
        atom.SetNoImplicit(True)
        mol.AddAtom(atom)
    for i, j, _, lij, _ in pattern.dfs_code:
        t = bond_type[_bond_smarts(lij, bonds)]
        mol.AddBond(int(i), int(j), t)
        if t == Chem.BondType.AROMATIC:
            bond = mol.GetBondBetweenAtoms(int(i), int(j))
            bond.SetIsAromatic(True)
            mol.GetAtomWithIdx(int(i)).SetIsAromatic(True)
            mol.GetAtomWithIdx(int(j)).SetIsAromatic(True)
    frag = mol.GetMol()
    frag.UpdatePropertyCache(strict=False)
    Chem.FastFindRings(frag)
    return frag


# -- drawing ------------------------------------------------------------------------------------
def _image_format(path: PathLike | None, fmt: str | None) -> str:
    if fmt is None:
        suffix = os.path.splitext(os.fspath(path))[1].lower() if path is not None else ""
        fmt = "svg" if suffix == ".svg" else "png"
    if fmt not in ("png", "svg"):
        raise InvalidParameterError(f"format must be 'png' or 'svg', got {fmt!r}")
    return fmt


def _size(size: Any) -> tuple[int, int]:
    try:
        w, h = (int(s) for s in size)
    except (TypeError, ValueError):
        raise InvalidParameterError(
            f"size must be (width, height) in pixels, got {size!r}"
        ) from None
    if not (16 <= w <= 4096 and 16 <= h <= 4096):
        raise InvalidParameterError(f"size must be between 16 and 4096 pixels, got {size!r}")
    return w, h


def _finish(drawer: Any, path: PathLike | None) -> bytes | str:
    drawer.FinishDrawing()
    image: bytes | str = drawer.GetDrawingText()
    if path is not None:
        if isinstance(image, bytes):
            with open(path, "wb") as fh:
                fh.write(image)
        else:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(image)
    return image


def _drawer(fmt: str, width: int, height: int, panel_w: int = -1, panel_h: int = -1) -> Any:
    from rdkit.Chem.Draw import rdMolDraw2D

    cls = rdMolDraw2D.MolDraw2DCairo if fmt == "png" else rdMolDraw2D.MolDraw2DSVG
    drawer: Any = cls(width, height, panel_w, panel_h)
    drawer.drawOptions().clearBackground = True
    return drawer


_F = TypeVar("_F", bound=Callable[..., Any])

# the parameters and the result the drawing functions share, filled into their docstrings
_DRAW_DOC = {
    "path": (
        "path : str or path-like, optional\n"
        "        Where to write the image; its suffix (``.png``, ``.svg``) picks the format."
    ),
    "format_labels_returns": (
        'format : {"png", "svg"}, optional\n'
        "        The image format when ``path`` does not say (default PNG).\n"
        "    atoms, bonds : mapping, optional\n"
        "        Label names, as in :meth:`graphsparse.Pattern.to_smarts`.\n"
        "\n"
        "    Returns\n"
        "    -------\n"
        "    bytes or str\n"
        "        The PNG bytes or the SVG text (also written to ``path`` when given)."
    ),
}


def _draw_doc(func: _F) -> _F:
    """Fills ``%(path)s`` and ``%(format_labels_returns)s`` in a drawing function's docstring."""
    if func.__doc__ is not None:  # None under ``python -OO``
        func.__doc__ %= _DRAW_DOC
    return func


@_draw_doc
def draw_patterns(
    patterns: Sequence[Pattern],
    coefs: npt.ArrayLike | None = None,
    path: PathLike | None = None,
    *,
    n_cols: int = 4,
    size: tuple[int, int] = (240, 200),
    format: Literal["png", "svg"] | None = None,
    atoms: Mapping[Any, Any] | None = None,
    bonds: Mapping[Any, Any] | None = None,
) -> bytes | str:
    """Draw patterns as a grid of molecule fragments, each captioned with its coefficient.

    Parameters
    ----------
    patterns : sequence of Pattern
        The patterns, e.g. a fitted model's ``patterns_``.
    coefs : array-like, optional
        One coefficient per pattern (e.g. ``coef_``), shown under each fragment with the
        pattern's support.
    %(path)s
    n_cols : int, default=4
        Fragments per row.
    size : (int, int), default=(240, 200)
        Pixels per fragment.
    %(format_labels_returns)s

    Examples
    --------
    >>> import graphsparse as gs
    >>> ds = gs.datasets.from_smiles(["Nc1ccccc1", "Oc1ccc(N)cc1"])
    >>> [p.to_smarts() for p in gs.mine_subgraphs(ds, 2) if p.n_edges == 7]
    ['[#6]:1:[#6]:[#6]:[#6]:[#6]:[#6]1-[#7]']
    >>> pats = [p for p in gs.mine_subgraphs(ds, 2) if p.n_edges == 7]
    >>> svg = draw_patterns(pats, [0.8], format="svg")
    >>> svg.startswith("<?xml")
    True
    """
    _rdkit()
    pats = list(patterns)
    if not pats:
        raise InvalidParameterError("patterns is empty; there is nothing to draw")
    coef = None if coefs is None else as_float_array(coefs, "coefs", length=len(pats))
    n_cols = as_count(n_cols, "n_cols", 1)
    fmt = _image_format(path, format)
    w, h = _size(size)
    cols = min(n_cols, len(pats))
    rows = -(-len(pats) // cols)
    mols = [pattern_to_rdkit(p, atoms, bonds) for p in pats]
    legends = [
        (f"{float(coef[k]):+.3f}   " if coef is not None else "") + f"support {p.support}"
        for k, p in enumerate(pats)
    ]
    from rdkit.Chem.Draw import rdMolDraw2D

    prepared = [rdMolDraw2D.PrepareMolForDrawing(m, kekulize=False) for m in mols]
    drawer = _drawer(fmt, w * cols, h * rows, w, h)
    drawer.drawOptions().minFontSize = 20  # atom labels of two-atom fragments stay legible
    drawer.DrawMolecules(prepared, legends=legends)
    return _finish(drawer, path)


@_draw_doc
def draw_occurrences(
    pattern: Pattern,
    molecule: Any,
    path: PathLike | None = None,
    *,
    kekulize: bool = False,
    sanitize: bool = True,
    size: tuple[int, int] = (400, 300),
    format: Literal["png", "svg"] | None = None,
    atoms: Mapping[Any, Any] | None = None,
    bonds: Mapping[Any, Any] | None = None,
) -> bytes | str:
    """Draw a molecule with every occurrence of a pattern highlighted.

    Parameters
    ----------
    pattern : Pattern
        The substructure.
    molecule : str or rdkit.Chem.Mol
        A SMILES, or an RDKit molecule.
    %(path)s
    kekulize : bool, default=False
        Read a SMILES as the pattern's dataset was read (its ``kekulize`` option).
    sanitize : bool, default=True
        Likewise its ``sanitize`` option (see :func:`from_smiles`).
    size : (int, int), default=(400, 300)
        Pixels.
    %(format_labels_returns)s

    Raises
    ------
    InvalidParameterError
        When the pattern does not occur in the molecule.

    Examples
    --------
    >>> import graphsparse as gs
    >>> ds = gs.datasets.from_smiles(["CC(=O)O", "CCC(=O)O"])
    >>> acid = next(p for p in gs.mine_subgraphs(ds, 2) if p.to_smarts() == "[#6](=[#8])-[#8]")
    >>> draw_occurrences(acid, "OC(=O)CCC(=O)O")[:4]  # both carboxyl groups highlighted
    b'\\x89PNG'
    """
    Chem = _rdkit()
    if isinstance(molecule, str):
        mol = mol_from_smiles(molecule, kekulize=kekulize, sanitize=sanitize)
    elif isinstance(molecule, Chem.Mol):
        mol = Chem.Mol(molecule)
        if kekulize:
            Chem.Kekulize(mol, clearAromaticFlags=True)
    else:
        raise InvalidParameterError(
            f"molecule must be a SMILES or an RDKit Mol, got {type(molecule).__name__}"
        )
    fmt = _image_format(path, format)
    w, h = _size(size)
    query = Chem.MolFromSmarts(pattern_smarts(pattern, atoms, bonds))
    matches = mol.GetSubstructMatches(query, uniquify=True, maxMatches=1000)
    if not matches:
        raise InvalidParameterError("the pattern does not occur in the molecule")
    hl_atoms = sorted({a for m in matches for a in m})
    hl_bonds = sorted(
        {
            mol.GetBondBetweenAtoms(m[b.GetBeginAtomIdx()], m[b.GetEndAtomIdx()]).GetIdx()
            for m in matches
            for b in query.GetBonds()
        }
    )
    from rdkit.Chem.Draw import rdMolDraw2D

    drawer = _drawer(fmt, w, h)
    rdMolDraw2D.PrepareAndDrawMolecule(
        drawer, mol, highlightAtoms=hl_atoms, highlightBonds=hl_bonds, kekulize=False
    )
    return _finish(drawer, path)


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
