"""The UCI tables of the gHKL experiments load with the paper's shapes, and rule P1 gives
the paper's number of basic propositions p (spec §7.1: 19 of the 22 sets match)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from graphsparse.datasets._uci import UCI_SETS, load_uci
from graphsparse.testing.reference.rules import propositions_p1

pytest.importorskip("pandas")

# p by rule P1 where it differs from the paper (spec §7.1 table): HTS 78 (paper 76), IRIS 32
# (paper 50), LYMPH between 82 and 98 depending on column typing (paper 86).
P1_DIFFERS = {"HTS": 78, "IRIS": 32}

ROWS = {
    "TIC": 958,
    "BCW": 699,
    "HTC": 297,
    "MK3": 122,
    "VTE": 232,
    "BCC": 277,
    "ECOLI": 332,
    "CAR": 1728,
    "ZOO": 101,
}


@pytest.mark.parametrize("name", sorted(UCI_SETS))
def test_p1_gives_the_papers_number_of_propositions(name: str, data_dir: Path) -> None:
    data = load_uci(name, data_dir)
    props, matrix = propositions_p1(data.X)
    assert matrix.shape == (len(data.X), len(props))
    if name == "LYMPH":
        assert 82 <= len(props) <= 98
    else:
        assert len(props) == P1_DIFFERS.get(name, data.spec.paper_p)
    if name in ROWS:
        assert len(data.X) == ROWS[name]
    if data.spec.task == "binary":
        assert set(np.unique(data.y)) == {-1.0, 1.0}
    else:
        _, counts = np.unique(data.y.astype(str), return_counts=True)
        assert counts.min() >= 3


def test_missing_values_satisfy_no_proposition(data_dir: Path) -> None:
    data = load_uci("BCW", data_dir)
    missing = data.X.isna().any(axis=1).to_numpy()
    assert missing.sum() == 16
    props, matrix = propositions_p1(data.X)
    column = [k for k, (c, _, _) in enumerate(props) if c == "x6"]
    assert not matrix[np.ix_(missing, column)].any()
