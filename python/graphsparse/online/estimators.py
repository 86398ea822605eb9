# ruff: noqa: RUF001  (mathematical notation in docstrings)
"""The online learners: GraphDA, GraphStoIHT and the baselines, on one shared base."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import set_init_params
from ..exceptions import InvalidParameterError
from ._base import GRAPH_PARAMS, _GraphMixin, _OnlineClassifier

_COMMON_DOC = """
    loss : {"logistic", "least_squares"}, default="logistic"
        The per-sample loss.
    l2 : float, default=0.0
        Ridge weight ``η`` added to the gradient (never on the intercept).

    Attributes
    ----------
    coef_, intercept_ : ndarray of shape (n_features,), float
        The last iterate ``w_T``.
    coef_avg_, intercept_avg_ : ndarray of shape (n_features,), float
        The average ``w̄_T`` of the iterates.
    n_mistakes_, n_mistakes_avg_ : int
        Online mistakes of ``w_t`` and ``w̄_t`` (each prediction made before its update).
    n_samples_seen_ : int
    n_features_in_ : int
"""

_GRAPH_DOC = """
    costs : array-like of shape (m,), optional
        Non-negative edge costs; default 1.
    head_sparsity : int, optional
        Lower end of the head projection's support size; default ``n_features // 2``.
    ratio : float, default=0.1
        Tolerance ``ω``: the projections aim at ``s`` to ``⌊s(1+ω)⌋`` nodes.
    max_iter : int, default=20
        PCST runs per projection before its fallback.
    num_clusters : int, default=1
        Trees in each projected forest.
    fallback : {"lambda_high", "closest"}, default="lambda_high"
        What a projection returns when no run lands in range (see :func:`head_projection`).
    lambda_start : {"fixed", "previous"}, default="fixed"
        Where each projection's binary search over the PCST cost scale ``λ`` starts.
        ``"fixed"``: the reference code's rule every time, so each projection is that of
        :func:`head_projection` and the iterates are the published method's. ``"previous"``:
        from the ``λ`` that ended the same projection (head or tail) at the previous sample, a
        range the support sizes jump over given up once the bracket is within ``λ/1024``;
        about half the PCST runs per pass on the benchmark grid, but the supports, hence the
        iterates, generally differ from ``"fixed"``'s. The search state lives in the running
        learner only: a learner rebuilt from the fitted attributes (after pickling or a change
        of parameters) starts its next searches with the fixed rule."""

# the parameters that several learners share, each described once
_GRAPH_TARGET_DOC = """
    edges : array-like of int, shape (m, 2)
        The feature graph.
    sparsity : int
        Target support size ``s`` of the tail projection."""
_SPARSITY_DOC = """
    sparsity : int
        Number of non-zero features."""
_GAMMA_DOC = """
    gamma : float{default}
        Learning-rate parameter ``γ > 0``."""
_LR_DOC = """
    lr : float
        Step size; step ``t`` uses ``lr/√t``."""
_L1_DOC = """
    lam : float, default=0.01
        ℓ1 weight ``λ ≥ 0``."""


def _doc(summary: str, *params: str, attributes: str = "") -> str:
    """A learner's numpydoc: its summary and parameters, then ``loss``, ``l2`` and the fitted
    attributes that every learner has, then its own ``attributes``."""
    heading = "\n\n    Parameters\n    ----------"
    return summary.rstrip() + heading + "".join(params) + _COMMON_DOC + attributes


class GraphDA(_GraphMixin, _OnlineClassifier):
    __doc__ = _doc(
        """GraphDA: online dual averaging under a graph-structured sparsity model.

    Per sample: ``ḡ ← mean of the gradients``; ``b = P(ḡ, head(ḡ))``; ``w̃ = −√t/γ · b``;
    ``w = P(w̃, tail(w̃))`` (the intercept follows ``w̃``). Head and tail are the WGM projections
    of :func:`head_projection` on ``edges`` (one node per feature).
    """,
        _GRAPH_TARGET_DOC,
        _GAMMA_DOC.format(default=""),
        _GRAPH_DOC,
        attributes="""    grad_avg_ : ndarray of shape (n_features + 1,)
        The dual average ``ḡ`` (intercept last).
""",
    )

    _method = "graph_da"
    _params = (*GRAPH_PARAMS, "gamma")
    _state_vectors = ("grad_avg",)

    def __init__(
        self,
        edges: npt.ArrayLike,
        sparsity: int,
        gamma: float,
        loss: str = "logistic",
        *,
        costs: npt.ArrayLike | None = None,
        head_sparsity: int | None = None,
        ratio: float = 0.1,
        max_iter: int = 20,
        num_clusters: int = 1,
        fallback: str = "lambda_high",
        lambda_start: str = "fixed",
        l2: float = 0.0,
    ) -> None:
        set_init_params(self, locals())


class GraphStoIHT(_GraphMixin, _OnlineClassifier):
    __doc__ = _doc(
        """GraphStoIHT: StoIHT whose gradient step is restricted to a head projection and whose
    iterate is a tail projection on ``edges``; the intercept stays 0.
    """,
        _GRAPH_TARGET_DOC,
        _LR_DOC,
        _GRAPH_DOC,
    )

    _method = "graph_sto_iht"
    _params = (*GRAPH_PARAMS, "lr")

    def __init__(
        self,
        edges: npt.ArrayLike,
        sparsity: int,
        lr: float,
        loss: str = "logistic",
        *,
        costs: npt.ArrayLike | None = None,
        head_sparsity: int | None = None,
        ratio: float = 0.1,
        max_iter: int = 20,
        num_clusters: int = 1,
        fallback: str = "lambda_high",
        lambda_start: str = "fixed",
        l2: float = 0.0,
    ) -> None:
        set_init_params(self, locals())


class DAIHT(_OnlineClassifier):
    __doc__ = _doc(
        """DA-IHT: dual averaging with the exact top-``s`` projection (GraphDA without a graph).

    ``w = −1/γ·√t · ḡ`` on the ``sparsity`` largest ``|ḡ_i|`` (ties to the smaller index).
    """,
        _SPARSITY_DOC,
        _GAMMA_DOC.format(default=""),
    )

    _method = "da_iht"
    _params = ("sparsity", "gamma")
    _state_vectors = ("grad_avg",)

    def __init__(
        self, sparsity: int, gamma: float, loss: str = "logistic", *, l2: float = 0.0
    ) -> None:
        set_init_params(self, locals())


class StoIHT(_OnlineClassifier):
    __doc__ = _doc(
        """StoIHT with block size 1: ``w ← top-s(w − lr/√t · g)``; the intercept is not thresholded.
    """,
        _SPARSITY_DOC,
        _LR_DOC,
    )

    _method = "sto_iht"
    _params = ("sparsity", "lr")

    def __init__(
        self, sparsity: int, lr: float, loss: str = "logistic", *, l2: float = 0.0
    ) -> None:
        set_init_params(self, locals())


class L1RDA(_OnlineClassifier):
    __doc__ = _doc(
        """Enhanced ℓ1 regularised dual averaging (Xiao 2010, Algorithm 2).

    ``λ_t = λ + γρ/√t``; ``w_i = −√t/γ · (ḡ_i − λ_t sgn ḡ_i)`` where ``|ḡ_i| > λ_t``, else 0.
    """,
        _L1_DOC,
        _GAMMA_DOC.format(default=", default=1.0"),
        """
    rho : float, default=0.0
        Sparsity-enhancing ``ρ ≥ 0`` (0: basic ℓ1-RDA).""",
    )

    _method = "l1_rda"
    _params = ("lam", "gamma", "rho")
    _state_vectors = ("grad_avg",)

    def __init__(
        self,
        lam: float = 0.01,
        gamma: float = 1.0,
        rho: float = 0.0,
        loss: str = "logistic",
        *,
        l2: float = 0.0,
    ) -> None:
        set_init_params(self, locals())


class AdaGradL1(_OnlineClassifier):
    __doc__ = _doc(
        """AdaGrad with ℓ1 regularisation, primal-dual form (Duchi, Hazan & Singer 2011).

    ``w_i = sign(−ḡ_i)·η·t/(δ + √G_i)·max(|ḡ_i| − λ, 0)`` with ``G`` the sum of squared gradients.
    """,
        _L1_DOC,
        """
    eta : float, default=1.0
        Step size ``η > 0``.
    delta : float, default=1e-8
        ``δ > 0`` added to ``√G``.""",
    )

    _method = "adagrad_l1"
    _params = ("lam", "eta", "delta")
    _state_vectors = ("grad_avg", "grad_sq_sum")

    def __init__(
        self,
        lam: float = 0.01,
        eta: float = 1.0,
        delta: float = 1e-8,
        loss: str = "logistic",
        *,
        l2: float = 0.0,
    ) -> None:
        set_init_params(self, locals())


def _group_labels(groups: Any, p: int) -> npt.NDArray[np.int64]:
    """Group id per feature (-1: in no group, which makes it a singleton group)."""
    if groups is None:
        return np.arange(p, dtype=np.int64)
    labels = np.full(p, -1, dtype=np.int64)
    try:
        lists = [list(g) for g in groups]
    except TypeError:
        raise InvalidParameterError(
            "groups must be a sequence of sequences of feature indices"
        ) from None
    for k, g in enumerate(lists):
        if not g:
            raise InvalidParameterError(f"groups[{k}] is empty")
        for i in g:
            if isinstance(i, bool) or not isinstance(i, numbers.Integral) or not 0 <= int(i) < p:
                raise InvalidParameterError(
                    f"groups[{k}] has {i!r}, not a feature index in [0, {p - 1}] (X has {p} "
                    "columns)"
                )
            if labels[int(i)] >= 0:
                raise InvalidParameterError(
                    f"feature {int(i)} is in more than one group (groups[{k}])"
                )
            labels[int(i)] = k
    return labels


class DAGL(_OnlineClassifier):
    __doc__ = _doc(
        """Online dual-averaging group lasso (Yang et al. 2010).

    ``w_G = −√t/γ · max(0, 1 − λ√|G|/‖ḡ_G‖) · ḡ_G`` for each group ``G``.
    """,
        """
    lam : float, default=0.01
        Group-lasso weight ``λ ≥ 0``.""",
        _GAMMA_DOC.format(default=", default=1.0"),
        """
    groups : sequence of sequences of int, optional
        Disjoint feature groups (e.g. :func:`grid_groups`); features in no group are singleton
        groups; ``None`` makes every feature its own group.""",
    )

    _method = "da_gl"
    _params = ("lam", "gamma")
    _state_vectors = ("grad_avg",)

    def __init__(
        self,
        lam: float = 0.01,
        gamma: float = 1.0,
        groups: Sequence[Sequence[int]] | None = None,
        loss: str = "logistic",
        *,
        l2: float = 0.0,
    ) -> None:
        set_init_params(self, locals())

    def _graph_args(self, n_features: int) -> dict[str, Any]:
        return {"groups": _group_labels(self.groups, n_features)}


class DASGL(DAGL):
    __doc__ = _doc(
        """Online dual-averaging sparse group lasso (Yang et al. 2010).

    ``c = sgn(ḡ)·max(0, |ḡ| − λr)``; ``w_G = −√t/γ · max(0, 1 − λ√|G|/‖c_G‖) · c_G``.
    """,
        """
    lam : float, default=0.01
        Weight ``λ ≥ 0``.""",
        _GAMMA_DOC.format(default=", default=1.0"),
        """
    groups : sequence of sequences of int, optional
        Disjoint feature groups, as for :class:`DAGL`.
    r : float, default=1.0
        Per-group ℓ1 factor ``r ≥ 0``.""",
    )

    _method = "da_sgl"
    _params = ("lam", "gamma", "r")

    def __init__(
        self,
        lam: float = 0.01,
        gamma: float = 1.0,
        groups: Sequence[Sequence[int]] | None = None,
        r: float = 1.0,
        loss: str = "logistic",
        *,
        l2: float = 0.0,
    ) -> None:
        set_init_params(self, locals())


class Adam(_OnlineClassifier):
    __doc__ = _doc(
        """Online Adam (Kingma & Ba 2014) on all coefficients including the intercept (dense).
    """,
        """
    alpha : float, default=0.001
        Step size ``α > 0``.
    beta1, beta2 : float, default=0.9, 0.999
        Moment decay rates in ``[0, 1)``.
    epsilon : float, default=1e-8
        ``ε > 0``.""",
    )

    _method = "adam"
    _params = ("alpha", "beta1", "beta2", "epsilon")
    _state_vectors = ("moment1", "moment2")

    def __init__(
        self,
        alpha: float = 0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-8,
        loss: str = "logistic",
        *,
        l2: float = 0.0,
    ) -> None:
        set_init_params(self, locals())
