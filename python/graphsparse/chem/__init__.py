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

from .._public import publish as _publish
from ..exceptions import MoleculeRepairedWarning, MoleculeSkippedWarning
from ._patterns import draw_occurrences, draw_patterns, pattern_smarts, pattern_to_rdkit
from ._readers import OnError as OnError
from ._readers import PathLike as PathLike
from ._readers import from_smiles, mol_from_smiles, read_sdf
from ._smarts import BOND_SMARTS

# the imports written ``X as X`` re-export public names that __all__ leaves out, as before
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

_publish(__name__, __all__, globals())
