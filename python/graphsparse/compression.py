"""Graph compression by optimal transport (OTC), coarsening baselines and WL evaluation.

Garg & Jaakkola, *Solving graph compression via optimal transport* (NeurIPS 2019), as
reconstructed and corrected in the project's specification.

This module is being built in stages: the evaluation protocol of the paper (§8.1 of the
specification) is here; the compressors, the transport distance and the WL feature map follow
with their binding.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from sklearn.model_selection import KFold, ShuffleSplit, StratifiedKFold, StratifiedShuffleSplit
from sklearn.svm import SVC

from .exceptions import InvalidParameterError

__all__ = ["TRAIN_FRACTIONS", "kernel_svm_accuracy"]

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
        return StratifiedKFold(n_splits=min(folds, smallest), shuffle=True, random_state=seed)
    return KFold(n_splits=min(folds, len(y)), shuffle=True, random_state=seed)


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
            n_splits=n_splits, train_size=n_train, random_state=seed
        )
    else:
        splitter = ShuffleSplit(n_splits=n_splits, train_size=n_train, random_state=seed)
    return list(splitter.split(np.zeros(n), y))


def kernel_svm_accuracy(
    kernel: npt.ArrayLike,
    y: npt.ArrayLike,
    *,
    train_fractions: Sequence[float] = TRAIN_FRACTIONS,
    n_splits: int = 5,
    C: Sequence[float] = (0.1, 1.0, 10.0),
    cv: int = 5,
    random_state: int | None = 0,
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
    for name, v in (("n_splits", n_splits), ("cv", cv)):
        if (
            isinstance(v, bool)
            or not isinstance(v, numbers.Integral)
            or v < (2 if name == "cv" else 1)
        ):
            raise InvalidParameterError(f"{name} must be an integer >= {2 if name == 'cv' else 1}")
    seed = 0 if random_state is None else int(random_state)
    out = np.zeros((len(fractions), n_splits))
    for i, p in enumerate(fractions):
        for j, (train, test) in enumerate(_outer_splits(labels, p, n_splits, seed + i)):
            y_train = labels[train]
            if len(np.unique(y_train)) < 2:
                # a one-class training part predicts that class everywhere
                out[i, j] = float(np.mean(labels[test] == y_train[0]))
                continue
            inner = _inner_cv(y_train, cv, seed + 1000 * (i + 1) + j)
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
            out[i, j] = float(np.mean(svm.predict(k[np.ix_(test, train)]) == labels[test]))
    return out
