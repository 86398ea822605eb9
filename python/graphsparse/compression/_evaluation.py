"""The paper's evaluation protocol: the SVM on a precomputed WL kernel
(:func:`kernel_svm_accuracy`) and the whole experiment (:func:`evaluate_compression`)."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from sklearn.model_selection import KFold, ShuffleSplit, StratifiedKFold, StratifiedShuffleSplit
from sklearn.svm import SVC

from .._dataset import as_dataset
from .._threads import python_threads
from .._validation import as_count
from ..exceptions import InvalidParameterError
from ._base import _Compressor
from ._coarsening import (
    AffinityCompressor,
    AlgebraicDistanceCompressor,
    HeavyEdgeCompressor,
    RECCompressor,
)
from ._ot import OTCompressor
from ._wl import WLSubtreeFeatures

#: The paper's training fractions (§4.1): 0.2, 0.3, ..., 0.8.
TRAIN_FRACTIONS: tuple[float, ...] = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


def _check_fraction(p: object) -> float:
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0.0 < float(p) < 1.0:
        raise InvalidParameterError(f"train_fractions: each must be in (0, 1), got {p!r}")
    return float(p)


def _inner_cv(y: np.ndarray, folds: int, seed: int) -> KFold | StratifiedKFold:
    """Stratified ``folds``-fold CV, with fewer folds when the rarest class is smaller, and
    plain K-fold when some class has a single member (stratification is then impossible)."""
    smallest = int(np.unique(y, return_counts=True)[1].min())
    if smallest >= 2:
        return StratifiedKFold(
            n_splits=min(folds, smallest), shuffle=True, random_state=seed % 2**32
        )
    return KFold(n_splits=min(folds, len(y)), shuffle=True, random_state=seed % 2**32)


def _outer_splits(
    y: np.ndarray, p: float, n_splits: int, seed: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    """``n_splits`` random train/test splits with a fraction ``p`` for training, stratified
    when every class can appear on both sides."""
    n = len(y)
    n_train = round(p * n)
    _, counts = np.unique(y, return_counts=True)
    classes = len(counts)
    if counts.min() >= 2 and classes <= n_train <= n - classes:
        splitter: StratifiedShuffleSplit | ShuffleSplit = StratifiedShuffleSplit(
            n_splits=n_splits, train_size=n_train, random_state=seed % 2**32
        )
    else:
        splitter = ShuffleSplit(n_splits=n_splits, train_size=n_train, random_state=seed % 2**32)
    return list(splitter.split(np.zeros(n), y))


_BASELINES: dict[str, type[_Compressor]] = {
    "otc": OTCompressor,
    "heavy": HeavyEdgeCompressor,
    "algebraic": AlgebraicDistanceCompressor,
    "affinity": AffinityCompressor,
}


@dataclass(frozen=True)
class EvaluationResult:
    """What :func:`evaluate_compression` measured.

    Attributes
    ----------
    train_fractions : tuple of float
        The training fractions, in column order.
    accuracies : dict of str to ndarray of shape (n_runs, n_fractions, n_splits)
        Test accuracy of every method, REC run (collection), fraction and split.
    sizes : ndarray of shape (n_runs, n_graphs)
        The per-graph budgets ``k`` that each REC run produced.
    """

    train_fractions: tuple[float, ...]
    accuracies: dict[str, np.ndarray]
    sizes: np.ndarray

    @property
    def mean(self) -> dict[str, np.ndarray]:
        """Per method and fraction: the mean over collections of the mean over splits."""
        return {m: a.mean(axis=2).mean(axis=0) for m, a in self.accuracies.items()}

    @property
    def std(self) -> dict[str, np.ndarray]:
        """Per method and fraction: the standard deviation over collections (as Table 1)."""
        return {m: a.mean(axis=2).std(axis=0) for m, a in self.accuracies.items()}


def evaluate_compression(
    dataset: Any,
    methods: Sequence[str] = ("rec", "heavy", "otc"),
    *,
    ratio: float = 0.5,
    n_runs: int = 5,
    train_fractions: Sequence[float] = TRAIN_FRACTIONS,
    n_splits: int = 5,
    C: Sequence[float] = (0.1, 1.0, 10.0),
    cv: int = 5,
    wl_iter: int = 5,
    mode: str = "paper",
    random_state: int = 0,
    n_jobs: int | None = None,
) -> EvaluationResult:
    """The evaluation protocol of Garg & Jaakkola (spec §8.1) on a labelled dataset.

    Each of ``n_runs`` REC runs (ratio ``ratio``, one level, seed ``random_state + r``) fixes a
    budget ``k`` per graph (the size REC reached). Every method compresses every graph to that
    budget ("rec" is REC's own output), giving one collection per run and method. Each
    collection's WL subtree kernel (``wl_iter`` refinements, unnormalised) is scored by
    :func:`kernel_svm_accuracy`; the splits are the same for every method of a run.

    Parameters
    ----------
    dataset : GraphDataset or sequence of networkx.Graph
        The graphs; a ``GraphDataset`` must carry class labels ``y``.
    methods : sequence of str, default ("rec", "heavy", "otc")
        Any of "rec", "otc", "heavy", "algebraic", "affinity".
    ratio : float, default 0.5
        REC's compression ratio.
    n_runs : int, default 5
        REC runs (collections per method).
    train_fractions, n_splits, C, cv :
        As :func:`kernel_svm_accuracy`.
    wl_iter : int, default 5
        WL refinements ``h``.
    mode : {"paper", "stable"}, default "paper"
        OTC's step sizes.
    random_state : int, default 0
        Seed of REC, the test vectors and the splits.
    n_jobs : int, optional
        Threads of the compressors, the WL features and the SVM splits.

    Returns
    -------
    EvaluationResult
        ``mean`` and ``std`` give the numbers of the paper's Table 1.
    """
    data = as_dataset(dataset, "dataset")
    if data.y is None:
        raise InvalidParameterError("dataset must carry class labels y")
    known = ("rec", *_BASELINES)
    for m in methods:
        if m not in known:
            raise InvalidParameterError(f"methods: unknown method {m!r}; choose from {known}")
    runs = as_count(n_runs, "n_runs", 1)
    seed = as_count(random_state, "random_state")
    # checked here, not only by the calls below: the accuracy table is allocated first
    n_splits = as_count(n_splits, "n_splits", 1)
    as_count(cv, "cv", 2)
    as_count(wl_iter, "wl_iter")
    fractions = tuple(_check_fraction(p) for p in train_fractions)
    acc = {m: np.zeros((runs, len(fractions), n_splits)) for m in methods}
    sizes = np.zeros((runs, len(data)), dtype=np.int64)
    for r in range(runs):
        # the seeds derived from random_state wrap, as kernel_svm_accuracy's own seeds do
        run_seed = (seed + r) % 2**63
        rec = RECCompressor(ratio=ratio, random_state=run_seed, n_jobs=n_jobs).compress(data)
        sizes[r] = np.maximum(1, rec.dataset.n_vertices)
        for m in methods:
            if m == "rec":
                out = rec.dataset
            else:
                cls = _BASELINES[m]
                est = (
                    OTCompressor(k=sizes[r], mode=mode, n_jobs=n_jobs)
                    if cls is OTCompressor
                    else cls(k=sizes[r], random_state=run_seed, n_jobs=n_jobs)
                )
                out = est.compress(data).dataset
            x = WLSubtreeFeatures(n_iter=wl_iter, n_jobs=n_jobs).fit_transform(out)
            kernel = (x @ x.T).toarray()
            acc[m][r] = kernel_svm_accuracy(
                kernel,
                data.y,
                train_fractions=fractions,
                n_splits=n_splits,
                C=C,
                cv=cv,
                random_state=(seed * 1000 + r) % 2**32,
                n_jobs=n_jobs,
            )
    return EvaluationResult(fractions, acc, sizes)


def kernel_svm_accuracy(
    kernel: npt.ArrayLike,
    y: npt.ArrayLike,
    *,
    train_fractions: Sequence[float] = TRAIN_FRACTIONS,
    n_splits: int = 5,
    C: Sequence[float] = (0.1, 1.0, 10.0),
    cv: int = 5,
    random_state: int | None = 0,
    n_jobs: int | None = None,
) -> np.ndarray:
    """Test accuracy of a C-SVM on a precomputed kernel, in the protocol of Garg & Jaakkola.

    For each training fraction ``p``, ``n_splits`` random train/test splits are drawn (stratified
    when every class has at least two members and fits on both sides). On each training part,
    ``C`` is chosen by ``cv``-fold stratified cross-validation on accuracy, the first best value
    in grid order winning ties; an SVM with that ``C`` is refitted on the whole training part
    and scored on the test part. Multiclass problems are one-vs-one (libsvm).

    Parameters
    ----------
    kernel : array-like of shape (n_graphs, n_graphs)
        A positive semi-definite kernel matrix, e.g. ``X @ X.T`` of WL subtree features.
    y : array-like of shape (n_graphs,)
        Class labels (any hashable values, at least two classes).
    train_fractions : sequence of float, default (0.2, ..., 0.8)
        Fractions of the graphs used for training, each in (0, 1).
    n_splits : int, default 5
        Random splits per fraction.
    C : sequence of float, default (0.1, 1, 10)
        The grid of SVM penalties.
    cv : int, default 5
        Folds of the inner cross-validation (fewer when the rarest training class is smaller).
    random_state : int or None, default 0
        Seed of the splits; the same seed gives the same splits for every kernel, so methods
        are compared on identical splits.
    n_jobs : int, optional
        Threads that score splits side by side (libsvm fits without the GIL); ``None`` uses
        every core. The result does not depend on it.

    Returns
    -------
    ndarray of shape (len(train_fractions), n_splits)
        The test accuracy of every split.

    Raises
    ------
    InvalidParameterError
        For a non-square kernel, a length mismatch, a single class, or a parameter out of range.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.repeat(np.eye(2), 10, axis=0)          # two perfectly separated groups
    >>> acc = kernel_svm_accuracy(x @ x.T, [0] * 10 + [1] * 10, train_fractions=[0.5])
    >>> acc.shape, float(acc.min())
    ((1, 5), 1.0)
    """
    k = np.asarray(kernel, dtype=np.float64)
    labels = np.asarray(y)
    if k.ndim != 2 or k.shape[0] != k.shape[1]:
        raise InvalidParameterError(f"kernel must be a square matrix, got shape {k.shape}")
    if labels.ndim != 1 or len(labels) != k.shape[0]:
        raise InvalidParameterError(
            f"y must have one label per row of kernel ({k.shape[0]}), got shape {labels.shape}"
        )
    if not np.all(np.isfinite(k)):
        raise InvalidParameterError("kernel must be finite")
    if len(np.unique(labels)) < 2:
        raise InvalidParameterError("y must hold at least two classes")
    fractions = [_check_fraction(p) for p in train_fractions]
    grid = [float(c) for c in C]
    if not grid or not all(np.isfinite(c) and c > 0 for c in grid):
        raise InvalidParameterError(f"C must be a non-empty grid of finite values > 0, got {C!r}")
    n_splits = as_count(n_splits, "n_splits", 1)
    cv = as_count(cv, "cv", 2)
    # scikit-learn takes seeds below 2**32: larger ones wrap, so every integer >= 0 is a seed
    seed = 0 if random_state is None else as_count(random_state, "random_state") % 2**32
    threads = python_threads(n_jobs)
    tasks = [
        (i, j, train, test)
        for i, p in enumerate(fractions)
        for j, (train, test) in enumerate(_outer_splits(labels, p, n_splits, seed + i))
    ]

    def score(task: tuple[int, int, np.ndarray, np.ndarray]) -> float:
        i, j, train, test = task
        return _split_accuracy(k, labels, train, test, grid, cv, seed + 1000 * (i + 1) + j)

    # libsvm releases the GIL while it fits, so threads run the splits side by side; each
    # split's result depends only on its own seed, never on the thread count
    if threads > 1 and len(tasks) > 1:
        with ThreadPoolExecutor(max_workers=min(threads, len(tasks))) as pool:
            scores = list(pool.map(score, tasks))
    else:
        scores = [score(t) for t in tasks]
    out = np.zeros((len(fractions), n_splits))
    for (i, j, _, _), a in zip(tasks, scores, strict=True):
        out[i, j] = a
    return out


def _split_accuracy(
    k: np.ndarray,
    labels: np.ndarray,
    train: np.ndarray,
    test: np.ndarray,
    grid: list[float],
    cv: int,
    seed: int,
) -> float:
    """Test accuracy of one outer split: ``C`` by inner CV on ``train``, refit, score ``test``."""
    y_train = labels[train]
    if len(np.unique(y_train)) < 2:
        # a one-class training part predicts that class everywhere
        return float(np.mean(labels[test] == y_train[0]))
    inner = _inner_cv(y_train, cv, seed)
    scores = np.zeros(len(grid))
    for fit_idx, val_idx in inner.split(np.zeros(len(train)), y_train):
        a, b = train[fit_idx], train[val_idx]
        if len(np.unique(labels[a])) < 2:
            scores += np.mean(labels[b] == labels[a][0])
            continue
        for c, penalty in enumerate(grid):
            svm = SVC(kernel="precomputed", C=penalty).fit(k[np.ix_(a, a)], labels[a])
            scores[c] += np.mean(svm.predict(k[np.ix_(b, a)]) == labels[b])
    best = grid[int(np.argmax(scores))]
    svm = SVC(kernel="precomputed", C=best).fit(k[np.ix_(train, train)], y_train)
    return float(np.mean(svm.predict(k[np.ix_(test, train)]) == labels[test]))
