"""Scores for sparse models: support recovery, sparsity and online-learning metrics.

The definitions follow the GraphDA benchmark (Zhou, Chen & Ying, KDD 2019): precision, recall
and F1 of the selected features against the true support, the non-zero ratio, AUC computed from
hard ±1 predictions (which equals balanced accuracy) and the misclassification count.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .exceptions import InvalidParameterError

__all__ = [
    "auc_from_labels",
    "misclassification_count",
    "nmse",
    "nonzero_ratio",
    "support_f1",
    "support_precision",
    "support_recall",
    "support_scores",
]


def _coef(coef: Any) -> npt.NDArray[np.float64]:
    try:
        w = np.asarray(coef, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidParameterError("coef must be a 1-d array of real numbers") from None
    if w.ndim != 1:
        raise InvalidParameterError(f"coef must be 1-d, got shape {w.shape}")
    if np.isnan(w).any():
        raise InvalidParameterError("coef contains NaN")
    return w


def _support(true_support: Any, p: int) -> npt.NDArray[np.int64]:
    s = np.asarray(true_support)
    if s.ndim != 1 or (s.size and s.dtype.kind not in "iu"):
        raise InvalidParameterError("true_support must be a 1-d array of feature indices")
    s = s.astype(np.int64)
    if s.size and (s.min() < 0 or s.max() >= p):
        raise InvalidParameterError(f"true_support has an index outside [0, {p - 1}]")
    u = np.unique(s)
    if len(u) != len(s):
        raise InvalidParameterError("true_support has repeated indices")
    if len(u) == 0:
        raise InvalidParameterError("true_support must not be empty")
    return u


def support_scores(coef: npt.ArrayLike, true_support: npt.ArrayLike) -> tuple[float, float, float]:
    """Precision, recall and F1 of ``supp(coef)`` against ``true_support``.

    Parameters
    ----------
    coef : array-like of shape (p,)
        Learned feature weights (no intercept); a feature is selected when its weight is
        non-zero (``-0.0`` counts as zero).
    true_support : array-like of int
        Indices of the true non-zero features (non-empty, distinct).

    Returns
    -------
    precision, recall, f1 : float
        ``|S*∩Ŝ|/|Ŝ|`` (0 when nothing is selected), ``|S*∩Ŝ|/|S*|`` and
        ``2|S*∩Ŝ|/(|S*|+|Ŝ|)``.
    """
    w = _coef(coef)
    s_true = _support(true_support, len(w))
    selected = np.flatnonzero(w != 0.0)
    hit = len(np.intersect1d(selected, s_true, assume_unique=True))
    precision = hit / len(selected) if len(selected) else 0.0
    recall = hit / len(s_true)
    f1 = 2.0 * hit / (len(s_true) + len(selected))
    return float(precision), float(recall), float(f1)


def support_precision(coef: npt.ArrayLike, true_support: npt.ArrayLike) -> float:
    """Precision of the selected features; see :func:`support_scores`."""
    return support_scores(coef, true_support)[0]


def support_recall(coef: npt.ArrayLike, true_support: npt.ArrayLike) -> float:
    """Recall of the selected features; see :func:`support_scores`."""
    return support_scores(coef, true_support)[1]


def support_f1(coef: npt.ArrayLike, true_support: npt.ArrayLike) -> float:
    """F1 of the selected features; see :func:`support_scores`."""
    return support_scores(coef, true_support)[2]


def nonzero_ratio(coef: npt.ArrayLike) -> float:
    """Fraction of non-zero weights (``-0.0`` counts as zero); multiply by 100 for %."""
    w = _coef(coef)
    if len(w) == 0:
        raise InvalidParameterError("coef must not be empty")
    return float(np.count_nonzero(w != 0.0) / len(w))


def _labels(y_true: Any, y_pred: Any) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    a = np.asarray(y_true, dtype=np.float64)
    b = np.asarray(y_pred, dtype=np.float64)
    if a.ndim != 1 or b.shape != a.shape:
        raise InvalidParameterError(
            f"y_true and y_pred must be 1-d of equal length, got {a.shape} and {b.shape}"
        )
    for name, v in (("y_true", a), ("y_pred", b)):
        if not np.all((v == 1.0) | (v == -1.0)):
            raise InvalidParameterError(f"{name} must hold labels -1 and +1")
    return a, b


def auc_from_labels(y_true: npt.ArrayLike, y_pred: npt.ArrayLike) -> float:
    """ROC AUC of hard ±1 predictions, as the GraphDA benchmark reports it.

    With hard labels the ROC curve has one corner, so the AUC is ``(TPR + TNR) / 2``, the
    balanced accuracy; it equals ``sklearn.metrics.roc_auc_score(y_true, y_pred)``.

    Raises
    ------
    InvalidParameterError
        If the labels are not ±1 or ``y_true`` holds only one class.
    """
    a, b = _labels(y_true, y_pred)
    pos, neg = a == 1.0, a == -1.0
    if not pos.any() or not neg.any():
        raise InvalidParameterError("y_true must contain both classes for the AUC")
    tpr = np.mean(b[pos] == 1.0)
    tnr = np.mean(b[neg] == -1.0)
    return float((tpr + tnr) / 2.0)


def misclassification_count(y_true: npt.ArrayLike, y_pred: npt.ArrayLike) -> int:
    """Number of samples with ``y_pred != y_true`` (±1 labels)."""
    a, b = _labels(y_true, y_pred)
    return int(np.count_nonzero(a != b))


def _vector(name: str, v: Any) -> npt.NDArray[np.float64]:
    try:
        w = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"{name} must be a 1-d array of real numbers") from None
    if w.ndim != 1:
        raise InvalidParameterError(f"{name} must be 1-d, got shape {w.shape}")
    if not np.isfinite(w).all():
        raise InvalidParameterError(f"{name} contains NaN or infinity")
    return w


def nmse(x_true: npt.ArrayLike, x_hat: npt.ArrayLike) -> float:
    """Normalised mean squared error ``‖x_true − x_hat‖² / ‖x_true‖²`` (Kuroda & Kitahara, §4).

    Parameters
    ----------
    x_true : array-like of shape (p,)
        The true signal (not all zero).
    x_hat : array-like of shape (p,)
        The estimate.

    Returns
    -------
    float
        The NMSE (0 for a perfect estimate, 1 for ``x_hat = 0``); ``10·log10`` of it is the
        value in decibels.

    Raises
    ------
    InvalidParameterError
        If the arrays are not 1-d real arrays of the same length, hold NaN or infinity, or
        ``x_true`` is zero.

    Examples
    --------
    >>> from graphsparse.metrics import nmse
    >>> nmse([1.0, -2.0, 0.0], [1.0, -1.0, 0.0])
    0.2
    """
    a = _vector("x_true", x_true)
    b = _vector("x_hat", x_hat)
    if a.shape != b.shape:
        raise InvalidParameterError(
            f"x_true and x_hat must have the same length, got {a.size} and {b.size}"
        )
    den = float(a @ a)
    if den == 0.0:
        raise InvalidParameterError("x_true must not be all zero")
    d = a - b
    return float(d @ d) / den
