"""Patterns as molecules: their SMARTS, RDKit fragments, and drawings of them alone or where
they occur in a molecule."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import numpy.typing as npt

from .._validation import as_count, as_float_array
from ..exceptions import InvalidParameterError
from ._rdkit import _rdkit
from ._readers import PathLike, mol_from_smiles
from ._smarts import _atom_number, _bond_smarts, dfs_code_smarts

if TYPE_CHECKING:
    from ..mining import Pattern


def pattern_smarts(
    pattern: Pattern,
    atoms: Mapping[Any, Any] | None = None,
    bonds: Mapping[Any, Any] | None = None,
) -> str:
    """The SMARTS of a pattern; see :meth:`graphsparse.Pattern.to_smarts`. Needs no RDKit."""
    return dfs_code_smarts(pattern.vertex_labels, pattern.dfs_code, atoms, bonds)


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


# -- drawing ---------------------------------------------------------------------------------------


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
