"""
A rule ensemble learned by gHKL
===============================

:class:`graphsparse.rules.RuleEnsembleClassifier` predicts with a weighted sum of rules, each
rule a conjunction of simple conditions such as ``income > 48 AND loans <= 2``. It learns the
rules and their weights together by generalised hierarchical kernel learning (gHKL), whose
penalty favours few and short rules; the optimisation over all conjunctions is exact and
certified by a duality gap. This example plants a known rule set in a small table and reads
back what the model found in ``rules_``.
"""

# %%
# A table with a planted rule
# ---------------------------
# Four columns: two numeric (income, age), one categorical (housing, given as strings) and one
# small count (loans). A loan is repaid when ``income > 50 and loans <= 2``, or when the
# borrower owns a home; age plays no part. Five per cent of the labels are then flipped.
# Columns of strings in a NumPy object array are read as categorical, the others as numeric.
from dataclasses import replace

import matplotlib.pyplot as plt
import numpy as np

from graphsparse.rules import RuleEnsembleClassifier

rng = np.random.default_rng(0)
n = 400
income = np.round(rng.uniform(10, 100, n), 1)
age = rng.integers(18, 80, n)
housing = rng.choice(["own", "rent", "family"], n)
loans = rng.integers(0, 6, n)
repaid = ((income > 50) & (loans <= 2)) | (housing == "own")
repaid ^= rng.random(n) < 0.05
y = np.where(repaid, "repaid", "default")

X = np.empty((n, 4), dtype=object)
X[:, 0], X[:, 1], X[:, 2], X[:, 3] = income, age, housing, loans
names = {"x0": "income", "x1": "age", "x2": "housing", "x3": "loans"}
X_train, X_test, y_train, y_test = X[:300], X[300:], y[:300], y[300:]

# %%
# Fitting
# -------
# ``C`` weighs the hinge loss against the penalty; ``n_cuts`` numeric thresholds per column
# (at quantiles of its values) give the conditions ``x <= t`` and ``x > t``.
model = RuleEnsembleClassifier(C=10.0, n_cuts=4).fit(X_train, y_train)
print(
    f"{model.n_rules_} rules, held-out accuracy {model.score(X_test, y_test):.3f}, "
    f"duality gap {model.dual_gap_:.3g} (primal objective {model.primal_objective_:.3g}), "
    f"{model.active_set_size_} conjunctions visited"
)


# %%
# The rule list
# -------------
# ``rules_`` lists the rules strongest first. Each :class:`~graphsparse.rules.Rule` has its
# conditions, its weight (positive: in favour of ``classes_[1]``, here "repaid") and its
# support, the number of training rows where it fires. Unnamed NumPy columns are called
# ``x0, x1, ...``; the conditions are renamed for display. The text reads one condition per
# column: a rule's conditions on one column would be merged into an interval
# (``lo < income <= hi``) or a set of categories; none of the rules here needs that.
def readable(rule):
    """The rule as text, with the column names of the table."""
    named = tuple(replace(c, feature=names[c.feature]) for c in rule.conditions)
    return str(replace(rule, conditions=named))


print(f"positive class: {model.classes_[1]}")
for rule in model.rules_:
    print(f"{rule.weight:+.3f}  fires on {rule.support:3d} rows  {readable(rule)}")

# %%
# The strongest rules match the planted ones: owning a home, and high income with few loans;
# age appears in no rule. The weaker rules, mostly the complements and the other
# combinations of the same conditions, adjust the score in the remaining cells of the table.
shown = model.rules_[:10]
fig, ax = plt.subplots(figsize=(7.5, 4.0))
weights = [rule.weight for rule in shown]
ax.barh(
    range(len(shown)),
    weights,
    color=["tab:green" if w > 0 else "tab:purple" for w in weights],
)
ax.set_yticks(range(len(shown)), [readable(rule) for rule in shown], fontsize=8)
ax.invert_yaxis()
ax.axvline(0.0, color="k", lw=0.8)
ax.set_xlabel('rule weight (> 0: "repaid")')
ax.set_title(f"the {len(shown)} strongest of {model.n_rules_} rules")
fig.tight_layout()
plt.show()
