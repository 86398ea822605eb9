"""
Substructures that predict mutagenicity
=======================================

With RDKit installed (the ``chem`` extra), :mod:`graphsparse.chem` turns SMILES into labelled
graphs (atoms are vertices labelled by element, bonds are edges labelled by bond type), and
turns the patterns a model selects back into molecule fragments that RDKit can draw. This example
fits a sparse subgraph model on 80 small molecules and draws the substructures it relies on.
"""

# %%
# Eighty molecules with a mutagenicity label
# ------------------------------------------
# The molecules are a small sample of the Salmonella (Ames test) mutagenicity data derived from
# the Carcinogenic Potency Database (EPA DSSTox CPDBAS): 40 mutagens (label 1) and 40
# non-mutagens (label 0), each with 6 to 20 heavy atoms. They are embedded here so that the
# example runs anywhere. A model trained on 80 molecules is only an illustration, not a
# mutagenicity predictor.
import io

import matplotlib.pyplot as plt
import numpy as np

import graphsparse as gs

MOLECULES = r"""
1 CC(C)CN(N=O)C(=N)N[N+]([O-])=O
1 C1(=C(C=C(N)C=C1)[N+](=O)[O-])NCCO
1 CN(C1=CC=C(C=C1)/N=N/C2=CC(=CC=C2)C)C
1 O=[N+](C1=CC(=C(C=C1)O)N)[O-]
1 CC1CC(OC(O1)C)OC(=O)C
1 [O-][N+](C2=CC=C(O2)C1=CSC=N1)=O
1 [O-][N+](C1=CN=C(NC(NCC)=O)S1)=O
1 OC([C@H](CC1=CC=C(N(CCCl)CCCl)C=C1)N)=O
1 C1(=CC=C(C=C1)SC2=CC=C(C=C2)N)N
1 O=C1c2c(O)cc(C)cc2C(=O)c3cc(O)cc(O)c13
1 NC1=CC=CC2=C1C=CC=C2
1 O=C(N(CCCCCC)N=O)N
1 N1C(N(CC(C1=O)C)N=O)=O
1 BrC(CCl)CBr
1 CC(=O)OC(C1=CC=C(O1)[N+](=O)[O-])OC(=O)C
1 ClC(C(O)O)(Cl)Cl
1 [O-][N+](C2=CC=C(O2)C1=CSC(NN(C)C)=N1)=O
1 C=CC1=CC=CC=C1
1 ClCC1=CC=CC=C1
1 CCN(CC)N=O
1 C1=C(C=CC=C1OCC2CO2)OCC3CO3
1 O=[N+](C1=CC=C(C=C1)N)[O-]
1 CN(C)/N=N/C1=CC=CC=C1
1 CN(C(=O)N)N=O
1 ClCCN(C1=CC=C(C=C1)CCCC(=O)O)CCCl
1 ClC(C(C1=CC=C(C=C1)CC)C2=CC=C(C=C2)CC)Cl
1 OCC(CO)(CBr)CBr
1 O=C(OC[C@@H](C(=O)O)N)C=[N+]=[N-]
1 NC1=CC=C(C=C1)OC2=CC=C(C=C2)N
1 [O-][N+](=O)C1=CC=C(O1)C2=CSC(=N2)NNC=O
1 NC1=C2C(=CC=C1)C(=CC=C2)N
1 O=[N+](C1=C2C(=CC=C1)C=CC=C2)[O-]
1 O(C1=CC=CC=C1)CC2CO2
1 C1N2CN3CN(C2)CN1C3
1 ClC1=C(C=CC(=C1)CC2=CC(=C(C=C2)N)Cl)N
1 NC(=O)N(CC)N=O
1 O=NN(CCCC)CCCC
1 O=C(N(CC)N=O)OCC
1 C=CCN(CC=C)N=O
1 [O-][N+](=O)c1ccc2c3ccccc3Cc2c1
0 OC1=C(C=CC(=C1)C)O
0 OC(CC(C1)C)C(C1)C(C)C
0 OC(=O)CN(CC(=O)O)CC(=O)O
0 CCCC1=CC2=C(C=C1)OCO2
0 C1=COC2=C1C=CC=C2
0 C1=CC=C(C=N1)N(N=O)C
0 CC(C=NOC(=O)NC)(SC)C
0 CC(CNCC(C)O)O
0 CC1=CC=CC=C1
0 C=CC(C1=CC=C(C=C1)OC)O
0 S=C(N(CC)CC)SSC(=S)N(CC)CC
0 ClC1=NC(=NC(=N1)NCC)NCC
0 O=S(=O)(C1=CC=C(C=C1)C(=O)O)N(CCC)CCC
0 CC=NN(C)C=O
0 NC(=O)C1=C(C=CC=C1)C(=O)N
0 O=C(NCO)C=C
0 CCC1=CC=CC=C1
0 CCN(CC)C(=O)C1=CC=CC(C)=C1
0 O=C(OCC)C=C
0 OC(=O)C1=CC=CC=C1
0 O=C(CCC(=O)O)NN(C)C
0 OC1C2=CC(=O)OC2=CCO1
0 ClC1=CC2=C(C=C1)OC3=C(C=CC(=C3)Cl)O2
0 S=C(NC1CCCCC1)NC1CCCCC1
0 O=C1C[C@H](C\C=C1\C)C(C)=C
0 O=C(CCCN(C)N=O)O
0 SC1=NC2=C(C=CC=C2)S1
0 OCCN(CCO)CCO
0 OCC1=CC=CC=C1
0 NC(=O)C1=C(C=CC=C1)OCC
0 OC(=O)CC1=C2C(=CC=C1)C=CC=C2
0 CC1=C2C(=CC=C1)C=CC=C2
0 OC1=C(C=C(C=C1C(C)(C)C)C)C(C)(C)C
0 NC(=S)C1=CC(=NC=C1)CC
0 C1=CC(=CC=N1)N(N=O)C
0 NC(=S)NNC(=S)N
0 O=C1C2=C(N=CN2C)N(C(=O)N1C)C
0 CC(CN(CC(C)O)CC(C)O)O
0 O=C2C=1/N=C\NC=1N(C)C(=O)N2C
0 O=NN(C1=CC=CC=C1)C2=CC=CC=C2
"""
rows = [line.split() for line in MOLECULES.strip().splitlines()]
y = np.array([int(label) for label, _ in rows])
smiles = [s for _, s in rows]
data = gs.datasets.from_smiles(smiles, y=y)
print(data)

# %%
# A sparse model over all substructures
# -------------------------------------
# :class:`graphsparse.SubgraphLogisticRegression` chooses among every connected substructure of
# up to six bonds that occurs in at least three molecules. The L1 penalty keeps only a dozen of
# them.
model = gs.SubgraphLogisticRegression(lambda1=0.02, max_size=6, min_support=3).fit(data, y)
print(f"{len(model.coef_)} substructures selected, training accuracy {model.score(data, y):.2f}")
order = np.argsort(-np.abs(model.coef_), kind="stable")
for j in order:
    pattern = model.patterns_[j]
    print(f"{model.coef_[j]:+.3f}  in {pattern.support:2d} molecules  {pattern.to_smarts()}")

# %%
# The substructures, drawn by RDKit
# ---------------------------------
# :func:`graphsparse.chem.draw_patterns` draws patterns as molecule fragments, each captioned
# with its coefficient and its support, and returns the picture as PNG bytes (or SVG text).
# Positive coefficients point to mutagens: aromatic amines and nitro groups, nitroso groups
# and alkyl halides are among the classic structural alerts for mutagenicity.
top = order[:8]
png = gs.chem.draw_patterns(
    [model.patterns_[j] for j in top], model.coef_[top], n_cols=4, size=(220, 180)
)
image = plt.imread(io.BytesIO(png))
fig, ax = plt.subplots(figsize=(8.8, 3.6))
ax.imshow(image)
ax.set_axis_off()
ax.set_title("the eight substructures with the largest coefficients")
fig.tight_layout()

# %%
# Where a substructure occurs
# ---------------------------
# :func:`graphsparse.chem.draw_occurrences` highlights every occurrence of a pattern in a
# molecule, here the strongest positive pattern in the first training molecule that contains
# it.
best = next(j for j in order if model.coef_[j] > 0)
pattern = model.patterns_[best]
molecule = smiles[int(pattern.graph_ids[0])]
png = gs.chem.draw_occurrences(pattern, molecule, size=(420, 300))
fig, ax = plt.subplots(figsize=(4.2, 3.0))
ax.imshow(plt.imread(io.BytesIO(png)))
ax.set_axis_off()
ax.set_title(pattern.to_smarts(), fontsize=8)
fig.tight_layout()
plt.show()
