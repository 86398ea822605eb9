"""Molecules read the way RDKit reads them (graphsparse.chem, ``sanitize=True``).

RDKit's valence check is on by default. Formal charges that a file left out (nitro groups written
``N(=O)O``, as CPDB does) are restored by the rules of :mod:`graphsparse.chem`, with one
``MoleculeRepairedWarning`` per call; whatever no rule explains is refused with RDKit's reason.
The reference for "restored right" is RDKit itself: the repaired molecule must pass its
sanitisation and give the graph of the same molecule written with its charges.
"""

from __future__ import annotations

import collections
import re
import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

pytest.importorskip("rdkit")

from rdkit import Chem

import graphsparse as gs
from graphsparse.chem import draw_occurrences, mol_from_smiles
from graphsparse.datasets import from_smiles, read_sdf
from graphsparse.exceptions import (
    GraphFormatError,
    InvalidParameterError,
    MoleculeRepairedWarning,
    MoleculeSkippedWarning,
)
from tests.test_chem import (
    CPDB_REPAIRED,
    _matching,
    _read_cpdb,
    _reference_mols,
    _same,
    molecules,
)

# what no charge explains: RDKit's MolFromSmiles returns None for each
IMPOSSIBLE = ["NC1=CC=CC=C1[H]Cl", "CC(C)(C)(C)C", "CN(=O)(=O)O"]


@pytest.fixture(scope="module")
def mutagen(data_dir):
    path = data_dir / "molecules" / "CPDB" / "mutagen.sdf"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    return path


def _rdkit_reason(smiles):
    """RDKit's own complaint about a SMILES, from its full sanitisation."""
    mol = Chem.MolFromSmiles(smiles, sanitize=False)
    with pytest.raises(Chem.MolSanitizeException) as exc:
        Chem.SanitizeMol(mol)
    return str(exc.value)


def _identical(a, b):
    """The same labelled graph, vertex numbering included (graph names aside)."""
    return sorted(a.nodes(data="label")) == sorted(b.nodes(data="label")) and sorted(
        (min(u, v), max(u, v), d) for u, v, d in a.edges(data="label")
    ) == sorted((min(u, v), max(u, v), d) for u, v, d in b.edges(data="label"))


def _repairs(call):
    """``call()`` and the ``repaired`` list of the one MoleculeRepairedWarning it gives."""
    with pytest.warns(MoleculeRepairedWarning) as rec:
        out = call()
    (w,) = [r.message for r in rec if isinstance(r.message, MoleculeRepairedWarning)]
    return out, w.repaired


# -- what no rule explains ----------------------------------------------------------------------
@pytest.mark.parametrize("bad", IMPOSSIBLE)
def test_impossible_valence_is_refused_with_rdkits_reason(bad):
    assert Chem.MolFromSmiles(bad) is None
    reason = re.escape(_rdkit_reason(bad))
    assert "valence" in reason
    with pytest.raises(GraphFormatError, match=rf"SMILES 1 cannot be read: '{re.escape(bad)}': "):
        from_smiles(["CCO", bad])
    with pytest.raises(GraphFormatError, match=reason):
        from_smiles(["CCO", bad])
    with pytest.raises(GraphFormatError, match=reason):
        mol_from_smiles(bad)
    with pytest.raises(GraphFormatError, match=reason):
        from_smiles([bad], strict_valence=True)


def test_impossible_valences_are_skipped_with_y_aligned():
    smiles = ["CCO", IMPOSSIBLE[0], "c1ccccc1", IMPOSSIBLE[1], "CCN"]
    msg = r"^2 of 5 molecules could not be read and were left out: 1 \(.*H, 2, .*\), 3 \("
    with pytest.warns(MoleculeSkippedWarning, match=msg) as rec:
        ds = from_smiles(smiles, y=[0, 1, 2, 3, 4], on_error="skip")
    assert [i for i, _ in rec[0].message.skipped] == [1, 3]
    np.testing.assert_array_equal(ds.source_index, [0, 2, 4])
    np.testing.assert_array_equal(ds.y, [0, 2, 4])


def test_sanitize_false_reads_the_unchecked_graph():
    ds = from_smiles(IMPOSSIBLE[:2], sanitize=False)  # no warning: nothing is repaired
    h = ds.graph(0)
    (hv,) = [v for v, lab in h.nodes(data="label") if lab == "H"]
    assert sorted(h.nodes[w]["label"] for w in h[hv]) == ["C", "Cl"]  # the H with two bonds
    assert max(d for _, d in ds.graph(1).degree) == 5  # the carbon with five
    # a dropped charge is not restored either: the same graph, without a warning
    assert _identical(
        from_smiles(["CN(=O)O"], sanitize=False).graph(0),
        _repairs(lambda: from_smiles(["CN(=O)O"]))[0].graph(0),
    )
    mol = mol_from_smiles("CN(=O)O", sanitize=False)
    assert [a.GetFormalCharge() for a in mol.GetAtoms()] == [0, 0, 0, 0]
    pat = next(p for p in gs.mine_subgraphs(from_smiles(["CN"]), 1) if p.n_edges == 1)
    with pytest.raises(GraphFormatError, match="H, 2"):
        draw_occurrences(pat, IMPOSSIBLE[0])
    assert draw_occurrences(pat, IMPOSSIBLE[0], sanitize=False)[:4] == b"\x89PNG"


def test_sanitize_option_is_checked(tmp_path):
    with pytest.raises(InvalidParameterError, match="sanitize must be True or False"):
        from_smiles(["C"], sanitize="no")
    with pytest.raises(InvalidParameterError, match=r"strict_valence=True .* sanitize=False"):
        from_smiles(["C"], sanitize=False, strict_valence=True)
    with pytest.raises(InvalidParameterError, match=r"strict_valence=True .* sanitize=False"):
        read_sdf(tmp_path / "none.sdf", sanitize=False, strict_valence=True)
    with pytest.raises(InvalidParameterError, match="sanitize must be True or False"):
        mol_from_smiles("C", sanitize=None)


# -- charges a SMILES left out --------------------------------------------------------------------
# (as written, as written with its charges, what the warning reports); same atom order in both
DROPPED = [
    ("CN(=O)O", "C[N+](=O)[O-]", "nitro (N1+, O3-)"),
    ("O=N(O)c1ccccc1", "O=[N+]([O-])c1ccccc1", "nitro (N1+, O2-)"),
    ("CON(=O)O", "CO[N+](=O)[O-]", "nitrate (N2+, O4-)"),
    ("CN=N(C)O", "CN=[N+](C)[O-]", "N-oxide (N2+, O4-)"),
    ("CN(C)(C)O", "C[N+](C)(C)[O-]", "N-oxide (N1+, O4-)"),
    ("CN=N=N", "CN=[N+]=[N-]", "azide (N2+, N3-)"),
    ("C=N=N", "C=[N+]=[N-]", "diazo (N1+, N2-)"),
    ("[N-]=N=CC", "[N-]=[N+]=CC", "diazo (N1+)"),  # the file kept the N-, as CPDB's does
    ("CN(C)(C)CCO", "C[N+](C)(C)CCO", "quaternary ammonium (N1+)"),
    ("C[NH](C)C", "C[NH+](C)C", "ammonium (N1+)"),
    ("CN(C)=CC", "C[N+](C)=CC", "iminium (N1+)"),
    ("CN1=CC=CC=C1", "C[n+]1ccccc1", "ring iminium (N1+)"),
    ("C1=CC=OC=C1", "c1cc[o+]cc1", "ring oxonium (O3+)"),
]


@pytest.mark.parametrize(("dropped", "charged", "what"), DROPPED)
@pytest.mark.parametrize("kekulize", [False, True])
def test_dropped_charges_read_as_the_charged_molecule(dropped, charged, what, kekulize):
    assert Chem.MolFromSmiles(dropped) is None  # RDKit refuses the SMILES as written
    ref = Chem.MolFromSmiles(charged)
    assert ref is not None
    mol, repaired = _repairs(lambda: mol_from_smiles(dropped, kekulize=kekulize))
    assert repaired == [(0, what)]
    # exactly these charges and hydrogens, atom by atom (both SMILES list the atoms alike)
    assert [(a.GetFormalCharge(), a.GetTotalNumHs()) for a in mol.GetAtoms()] == [
        (a.GetFormalCharge(), a.GetTotalNumHs()) for a in ref.GetAtoms()
    ]
    Chem.SanitizeMol(Chem.Mol(mol))  # and RDKit accepts the result as it is
    ds, repaired = _repairs(lambda: from_smiles(["CCO", dropped, charged], kekulize=kekulize))
    assert repaired == [(1, what)]
    assert _identical(ds.graph(1), ds.graph(2))
    with pytest.raises(GraphFormatError, match=r"SMILES 0 cannot be read: .*valence"):
        from_smiles([dropped], strict_valence=True)


def test_pentavalent_nitro_was_never_refused():
    """RDKit's own clean-up reads N(=O)=O as [N+](=O)[O-]: no repair, no warning."""
    ds = from_smiles(["CN(=O)=O", "C[N+](=O)[O-]"])
    assert _same(ds.graph(0), ds.graph(1))


def test_one_warning_per_call_counts_the_molecules():
    smiles = [d for d, _, _ in DROPPED] + ["CCO", IMPOSSIBLE[0]]
    n = len(DROPPED)
    msg = rf"^{n} of {n + 2} molecules were read with formal charges restored .*[(: ]nitro 2,"
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        ds = from_smiles(smiles, on_error="skip")
    skipped, w = rec  # one of each, in this order
    assert skipped.category is MoleculeSkippedWarning
    assert str(skipped.message).startswith(f"1 of {n + 2} molecules")
    assert w.category is MoleculeRepairedWarning
    assert re.match(msg, str(w.message)) and len(ds) == n + 1
    assert w.message.repaired == [(i, what) for i, (_, _, what) in enumerate(DROPPED)]
    assert w.filename == __file__  # it points at the caller's line


# groups whose charges a file may leave out, charged, bonded to the molecule by their first atom
GROUPS = ["[N+](=O)[O-]", "O[N+](=O)[O-]", "N=[N+]=[N-]", "[N+](C)(C)C", "[N+](C)(C)[O-]"]


@st.composite
def with_dropped_charges(draw):
    """A random molecule with one charged group on a carbon: (charged SMILES, without charges)."""
    base = Chem.MolFromSmiles(draw(molecules(max_atoms=7)))
    group = Chem.MolFromSmiles(draw(st.sampled_from(GROUPS)))
    sites = [
        a.GetIdx()
        for a in base.GetAtoms()
        if a.GetSymbol() == "C" and a.GetTotalNumHs() and not a.GetNoImplicit()
    ]
    assume(sites)  # on a terminal O or N the charges could be restored two ways
    mol = Chem.RWMol(Chem.CombineMols(base, group))
    mol.AddBond(draw(st.sampled_from(sites)), base.GetNumAtoms(), Chem.BondType.SINGLE)
    Chem.SanitizeMol(mol)
    charged = Chem.MolToSmiles(mol)
    for atom in mol.GetAtoms():
        atom.SetFormalCharge(0)
    mol.UpdatePropertyCache(strict=False)
    return charged, Chem.MolToSmiles(mol)


@given(st.lists(with_dropped_charges(), min_size=1, max_size=4), st.booleans())
def test_random_molecules_with_dropped_charges(pairs, kekulize):
    charged = [c for c, _ in pairs]
    dropped = [d for _, d in pairs]
    ours, repaired = _repairs(lambda: from_smiles(dropped, kekulize=kekulize))
    assert [i for i, _ in repaired] == list(range(len(pairs)))
    theirs = from_smiles(charged, kekulize=kekulize)  # filterwarnings=error: no warning here
    for i, (c, d) in enumerate(pairs):
        assert _same(ours.graph(i), theirs.graph(i)), (c, d)
        mol, _ = _repairs(lambda d=d: mol_from_smiles(d))
        assert Chem.MolToSmiles(mol) == Chem.MolToSmiles(Chem.MolFromSmiles(c)), (c, d)


@given(st.lists(molecules(), min_size=1, max_size=5), st.booleans())
def test_molecules_rdkit_accepts_are_read_unchanged(smiles, kekulize):
    ds = from_smiles(smiles, kekulize=kekulize)  # no warning: nothing repaired
    assert ds == from_smiles(smiles, kekulize=kekulize, sanitize=False)


# -- CPDB ---------------------------------------------------------------------------------------
# molecules per kind of group repaired in CPDB's mutagen.sdf (a molecule counts once per kind)
CPDB_KINDS = {
    "nitro": 71,
    "iminium": 4,
    "quaternary ammonium": 2,
    "nitrate": 1,
    "diazo": 1,
    "azide": 1,
    "N-oxide": 1,
    "ring iminium": 1,
    "ring oxonium": 1,
}


def test_cpdb_repairs_exactly_what_rdkit_refuses(mutagen):
    ds, repaired = _read_cpdb(mutagen)
    assert len(ds) == 684 and len(repaired) == CPDB_REPAIRED == sum(CPDB_KINDS.values())
    # the 83 are the molecules RDKit's own reader refuses, every one for a valence
    with pytest.warns(MoleculeSkippedWarning) as rec:
        strict = read_sdf(mutagen, strict_valence=True, on_error="skip")
    refused = {i: why for i, why in rec[0].message.skipped}
    assert set(refused) == set(repaired) == set(range(684)) - set(strict.source_index.tolist())
    assert all(
        re.match(r"Explicit valence for atom # \d+ [NO], [34],", w) for w in refused.values()
    )
    kinds = collections.Counter(
        kind for what in repaired.values() for kind in {g.split(" (")[0] for g in what.split("; ")}
    )
    assert kinds == CPDB_KINDS
    groups = collections.Counter(g.split(" (")[0] for w in repaired.values() for g in w.split("; "))
    assert groups["nitro"] == 81 and groups["nitrate"] == 4  # 4 nitrates in one molecule (PETN)
    assert repaired[77] == "diazo (N7+)"  # azaserine: the file kept the N-
    assert repaired[573].count("nitrate") == 4


def test_cpdb_repaired_molecules_sanitize_and_equal_their_charged_smiles(mutagen):
    ds, repaired = _read_cpdb(mutagen)
    mols = _reference_mols(mutagen)  # RDKit sanitises each one with the reported charges
    for i in sorted(repaired):
        mol = mols[i]
        Chem.SanitizeMol(Chem.Mol(mol))
        cations = sum("ium (" in g for g in repaired[i].split("; "))  # iminium, oxonium ...
        assert Chem.GetFormalCharge(mol) == cations, (i, repaired[i])  # neutral groups balance
        smiles = Chem.MolToSmiles(mol)
        again = from_smiles([smiles])  # written with its charges: read as is, no warning
        assert _same(again.graph(0), ds.graph(i)), (i, smiles)


def test_cpdb_unchecked_reading_differs_only_where_charges_make_rings_aromatic(mutagen):
    ds, repaired = _read_cpdb(mutagen)
    unchecked = read_sdf(mutagen, sanitize=False)  # no warning
    differ = [i for i in range(684) if not _identical(ds.graph(i), unchecked.graph(i))]
    # xanthylium O+ (erythrosine) and the azacytidine ring N+ are aromatic once charged
    assert differ == [196, 285]
    assert repaired[196] == "ring oxonium (O19+)" and repaired[285] == "ring iminium (N4+)"
    kek, _ = _read_cpdb(mutagen, kekulize=True)
    assert kek == read_sdf(mutagen, kekulize=True, sanitize=False)


def test_smarts_of_patterns_match_their_graph_ids_on_the_repaired_molecules(mutagen):
    ds, repaired = _read_cpdb(mutagen)
    mols = _reference_mols(mutagen)
    ids = sorted(repaired)
    sub = ds[ids]
    patterns = gs.mine_subgraphs(sub, min_support=4, max_size=5)
    assert len(patterns) > 50
    assert any(p.to_smarts() == "[#7](=[#8])-[#8]" for p in patterns)  # the nitro group
    for p in patterns:
        assert _matching(p.to_smarts(), [mols[i] for i in ids]) == p.graph_ids.tolist(), str(p)
