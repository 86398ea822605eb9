"""Loaders for the UCI tables of the gHKL rule-ensemble experiments.

Each table is read with the treatment of Jawanpuria, Nath & Ramakrishnan (JMLR 2015) as
rebuilt in the project's spec (``ghkl-rule-ensembles.md`` §7.1 and §8): which column is the
class, which columns are categorical, ``'?'`` as missing, rows with missing values dropped
(except BCW, where the paper keeps all 699 rows), classes with fewer than three rows dropped
from the multiclass sets. Pure Python on top of pandas (imported lazily).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np
from numpy.typing import NDArray

from .._optional import require

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["UCI_SETS", "UciData", "UciSpec", "load_uci"]


@dataclass(frozen=True)
class UciSpec:
    """How one UCI table is read.

    Attributes
    ----------
    key : str
        Short name used in the paper's tables (``"TIC"``, ``"CAR"``, ...).
    folder, file : str
        Location under ``uci/`` of the shared data directory.
    task : {"binary", "multiclass"}
        The paper's task.
    target : int
        Index of the class column in the raw rows.
    drop : tuple of int
        Raw columns that are not features (ids, names).
    categorical : tuple of int
        Raw feature columns treated as categorical; every other feature is numeric.
    paper_p : int
        The number of basic propositions the paper reports.
    sep : str or None
        Field separator (``None``: runs of whitespace).
    header : bool
        Whether the first line is a header.
    positive : tuple of str
        Binary sets: the raw class values mapped to the positive class (others negative).
    keep_missing : bool
        Keep rows with missing values (NaN never satisfies a proposition).
    """

    key: str
    folder: str
    file: str
    task: Literal["binary", "multiclass"]
    target: int
    drop: tuple[int, ...] = ()
    categorical: tuple[int, ...] = ()
    paper_p: int = 0
    sep: str | None = ","
    header: bool = False
    positive: tuple[str, ...] = ()
    keep_missing: bool = False


_HEART_CATEGORICAL = (1, 2, 5, 6, 8, 10, 12)

UCI_SETS: dict[str, UciSpec] = {
    s.key: s
    for s in [
        UciSpec(
            "TIC",
            "tic-tac-toe",
            "tic-tac-toe.data",
            "binary",
            9,
            categorical=tuple(range(9)),
            paper_p=54,
            positive=("positive",),
        ),
        UciSpec(
            "BCW",
            "breast-cancer-wisconsin",
            "breast-cancer-wisconsin.data",
            "binary",
            10,
            drop=(0,),
            paper_p=72,
            positive=("4",),
            keep_missing=True,
        ),
        UciSpec(
            "DIA",
            "pima-indians-diabetes",
            "pima-indians-diabetes.data",
            "binary",
            8,
            paper_p=64,
            positive=("1",),
        ),
        UciSpec(
            "HAB",
            "haberman",
            "haberman.data",
            "binary",
            3,
            categorical=(1,),
            paper_p=40,
            positive=("2",),
        ),
        UciSpec(
            "HTC",
            "heart-c",
            "processed.cleveland.data",
            "binary",
            13,
            categorical=_HEART_CATEGORICAL,
            paper_p=78,
            positive=("1", "2", "3", "4"),
        ),
        UciSpec(
            "HTS",
            "heart-statlog",
            "heart.dat",
            "binary",
            13,
            categorical=_HEART_CATEGORICAL,
            paper_p=76,
            sep=None,
            positive=("2",),
        ),
        UciSpec(
            "MK3",
            "monk-3",
            "monks-3.train",
            "binary",
            0,
            drop=(7,),
            categorical=tuple(range(1, 7)),
            paper_p=30,
            sep=None,
            positive=("1",),
        ),
        UciSpec(
            "VTE",
            "vote",
            "house-votes-84.data",
            "binary",
            0,
            categorical=tuple(range(1, 17)),
            paper_p=32,
            positive=("republican",),
        ),
        UciSpec(
            "BCC",
            "breast-cancer",
            "breast-cancer.data",
            "binary",
            0,
            categorical=tuple(range(1, 10)),
            paper_p=76,
            positive=("recurrence-events",),
        ),
        UciSpec(
            "MAM",
            "mammographic-mass",
            "mammographic_masses.data",
            "binary",
            5,
            categorical=(0, 2, 3),
            paper_p=46,
            positive=("1",),
        ),
        UciSpec(
            "BLD",
            "blood-transfusion",
            "transfusion.data",
            "binary",
            4,
            paper_p=32,
            header=True,
            positive=("1",),
        ),
        UciSpec("LIV", "liver-bupa", "bupa.data", "binary", 6, paper_p=48, positive=("2",)),
        UciSpec("BALANCE", "balance-scale", "balance-scale.data", "multiclass", 0, paper_p=32),
        UciSpec("CAR", "car", "car.data", "multiclass", 6, categorical=tuple(range(6)), paper_p=42),
        UciSpec(
            "CMC", "cmc", "cmc.data", "multiclass", 9, categorical=(1, 2, 4, 5, 6, 7, 8), paper_p=54
        ),
        UciSpec("ECOLI", "ecoli", "ecoli.data", "multiclass", 8, drop=(0,), paper_p=42, sep=None),
        UciSpec("GLASS", "glass", "glass.data", "multiclass", 10, drop=(0,), paper_p=72),
        UciSpec("IRIS", "iris", "iris.data", "multiclass", 4, paper_p=50),
        UciSpec(
            "LYMPH",
            "lymphography",
            "lymphography.data",
            "multiclass",
            0,
            categorical=tuple(k for k in range(1, 19) if k != 15),
            paper_p=86,
        ),
        UciSpec("TAE", "tae", "tae.data", "multiclass", 5, categorical=(0, 1, 2, 3), paper_p=114),
        UciSpec("YEAST", "yeast", "yeast.data", "multiclass", 9, drop=(0,), paper_p=54, sep=None),
        UciSpec(
            "ZOO",
            "zoo",
            "zoo.data",
            "multiclass",
            17,
            drop=(0,),
            categorical=tuple(range(1, 17)),
            paper_p=42,
        ),
    ]
}


@dataclass(frozen=True)
class UciData:
    """One loaded table.

    Attributes
    ----------
    spec : UciSpec
        How it was read.
    X : pandas.DataFrame
        Features: numeric columns as ``float64`` (NaN where missing), categorical ones as
        ``category``; named ``x0, x1, ...`` after their raw column index.
    y : ndarray
        Binary sets: ``+1`` / ``-1``; multiclass sets: the raw class labels (strings).
    """

    spec: UciSpec
    X: pd.DataFrame
    y: NDArray[np.generic]


def _rows(path: Path, spec: UciSpec) -> list[list[str]]:
    with path.open(newline="") as fh:
        if spec.sep is None:
            rows = [line.split() for line in fh if line.strip()]
        else:
            rows = [[f.strip() for f in r] for r in csv.reader(fh, delimiter=spec.sep) if r]
    return rows[1:] if spec.header else rows


def load_uci(name: str, data_dir: str | Path) -> UciData:
    """Reads one of the paper's UCI tables with the paper's treatment.

    Parameters
    ----------
    name : str
        A key of :data:`UCI_SETS` (``"TIC"``, ``"BCW"``, ..., ``"ZOO"``), case-insensitive.
    data_dir : str or Path
        The shared data directory (the one holding ``uci/``).

    Returns
    -------
    UciData
        The features, the labels and the spec used.

    Raises
    ------
    KeyError
        For an unknown name.
    FileNotFoundError
        When the file is not under ``data_dir``.
    """
    pandas = require("pandas", "bench", "load_uci")

    spec = UCI_SETS[name.upper()]
    rows = _rows(Path(data_dir) / "uci" / spec.folder / spec.file, spec)
    features = [k for k in range(len(rows[0])) if k != spec.target and k not in spec.drop]
    if not spec.keep_missing:
        rows = [r for r in rows if "?" not in r]
    labels = [r[spec.target] for r in rows]
    if spec.task == "multiclass":
        counts = {c: labels.count(c) for c in set(labels)}
        keep = [counts[c] >= 3 for c in labels]
        rows = [r for r, k in zip(rows, keep, strict=True) if k]
        labels = [c for c, k in zip(labels, keep, strict=True) if k]
    data: dict[str, pd.Series] = {}
    for k in features:
        values = [r[k] for r in rows]
        if k in spec.categorical:
            data[f"x{k}"] = pandas.Series(
                [None if v == "?" else v for v in values], dtype="category"
            )
        else:
            data[f"x{k}"] = pandas.Series(
                [np.nan if v == "?" else float(v) for v in values], dtype="float64"
            )
    y: NDArray[np.generic]
    if spec.task == "binary":
        y = np.array([1.0 if c in spec.positive else -1.0 for c in labels])
    else:
        y = np.array(labels, dtype=object)
    return UciData(spec, pandas.DataFrame(data), y)
