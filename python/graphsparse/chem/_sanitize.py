"""Molecules sanitised as RDKit reads them, with the formal charges a file left out restored by
the rules of :mod:`graphsparse.chem`'s docstring, and the warning that counts the repairs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..exceptions import MoleculeRepairedWarning
from ._rdkit import _Captured, _rdkit


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
    """Set the formal charges a file left out, by the rules of :mod:`graphsparse.chem`.

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
