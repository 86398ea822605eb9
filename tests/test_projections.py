"""Projections: agreement with naive references, set membership, optimality, API behaviour."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import graphsparse as gs
from graphsparse import _graphsparse as _rs
from graphsparse.exceptions import InvalidParameterError
from graphsparse.testing.reference import projections as ref
from graphsparse.testing.strategies import (
    capped_simplex_inputs,
    projection_batches,
    projection_vectors,
    radii,
    weighted_simplex_inputs,
)

finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)


def scale_of(*xs: object) -> float:
    return max([1e-300] + [float(np.max(np.abs(np.asarray(x)), initial=0.0)) for x in xs])


def assert_vi(y: np.ndarray, x: np.ndarray, w: np.ndarray, scale: float) -> None:
    """<y - P(y), w - P(y)> <= 0 for a feasible w (in units of scale: no over/underflow)."""
    r, d = (y - x) / scale, (w - x) / scale
    assert r @ d <= 1e-10 * (1.0 + np.linalg.norm(r) * np.linalg.norm(d))


# ---------------------------------------------------------------------------- simplex


@given(v=projection_vectors(), z=radii(allow_zero=False), seed=st.integers(0, 2**32 - 1))
def test_project_simplex_matches_reference_and_is_a_projection(v, z, seed):
    s = scale_of(v)
    if s > 1e100 or s < 1e-100:  # the total on the scale of the data (within range)
        z = s * (min(z, 1e3) / 1e3)
    x = gs.project_simplex(v, radius=z)
    sc = scale_of(v, z)
    np.testing.assert_allclose(x, ref.project_simplex_sort(v, z), rtol=1e-10, atol=1e-10 * sc)
    assert np.all(x >= 0) and abs(x.sum() - z) <= 1e-12 * sc * max(1, v.size)
    w = np.random.default_rng(seed).dirichlet(np.ones(v.size)) * z
    assert_vi(v, x, w, sc)
    np.testing.assert_allclose(gs.project_simplex(x, radius=z), x, rtol=0, atol=1e-12 * sc * v.size)


def test_project_simplex_small_cases():
    assert gs.project_simplex([7.0]).tolist() == [1.0]
    np.testing.assert_allclose(gs.project_simplex(np.full(5, 3.3), 2.0), np.full(5, 0.4))
    np.testing.assert_allclose(gs.project_simplex([0.3, 0.9, -0.2, -2.0]), [0.2, 0.8, 0, 0])
    # 1e300-scale input with z = 1: feasible up to the resolution of the input
    x = gs.project_simplex(np.array([3e300, 1e300, -2e300]))
    assert x[1] == x[2] == 0 and np.all(x >= 0)


# ---------------------------------------------------------------------------- l1 ball


@given(
    v=projection_vectors(),
    r=radii(),
    seed=st.integers(0, 2**32 - 1),
)
def test_project_l1_ball_matches_reference_and_is_a_projection(v, r, seed):
    x = gs.project_l1_ball(v, radius=r)
    sc = scale_of(v, r)
    np.testing.assert_allclose(x, ref.project_l1_ball_sort(v, r), rtol=1e-10, atol=1e-10 * sc)
    assert np.abs(x).sum() <= r + 1e-12 * sc * max(1, v.size)
    assert np.all(np.sign(x) * np.sign(v) >= 0)  # x * v can overflow at 1e305
    rng = np.random.default_rng(seed)
    w = rng.dirichlet(np.ones(v.size)) * r * rng.uniform() * rng.choice([-1.0, 1.0], v.size)
    assert_vi(v, x, w, sc)
    np.testing.assert_allclose(gs.project_l1_ball(x, radius=r), x, rtol=0, atol=1e-12 * sc * v.size)


def test_project_l1_ball_inside_is_identity_and_radius_zero_is_zero():
    v = np.array([0.1, -0.2, 0.3])
    np.testing.assert_array_equal(gs.project_l1_ball(v), v)
    np.testing.assert_array_equal(gs.project_l1_ball(v, 0.0), np.zeros(3))
    assert gs.project_l1_ball(np.array([], dtype=np.float64)).shape == (0,)


# ---------------------------------------------------------------------------- weighted simplex


def check_weighted(y: np.ndarray, eps: np.ndarray, x: np.ndarray, seed: int) -> None:
    p = eps > 0
    assert np.all(x[p] >= 0)
    np.testing.assert_array_equal(x[~p], y[~p])
    assert abs(eps @ x - 1.0) <= 1e-12 * (1.0 + np.abs(eps * y).sum())
    rng = np.random.default_rng(seed)
    w = rng.uniform(-1, 1, y.size)
    w[p] = rng.dirichlet(np.ones(p.sum())) / eps[p]
    assert_vi(y, x, w, scale_of(y, 1.0 / eps[p].max()))


def check_against_sort_reference(y, eps, seed):
    """Our weighted simplex projection equals the sort-based reference and passes the VI check."""
    x = gs.project_weighted_simplex(y, eps)
    sc = scale_of(y, 1.0 / eps.max())
    np.testing.assert_allclose(
        x, ref.project_weighted_simplex_sort(y, eps), rtol=1e-10, atol=1e-10 * sc
    )
    check_weighted(y, eps, x, seed)
    return x, sc


@given(case=weighted_simplex_inputs(), seed=st.integers(0, 2**32 - 1))
def test_project_weighted_simplex_matches_sort_reference(case, seed):
    y, eps = case
    x, sc = check_against_sort_reference(y, eps, seed)
    np.testing.assert_allclose(
        gs.project_weighted_simplex(x, eps), x, rtol=0, atol=1e-12 * sc * y.size
    )


@given(case=weighted_simplex_inputs(max_len=7), seed=st.integers(0, 2**32 - 1))
def test_project_weighted_simplex_matches_active_set_brute_force(case, seed):
    y, eps = case
    x = gs.project_weighted_simplex(y, eps)
    want = ref.project_weighted_simplex_brute(y, eps)
    np.testing.assert_allclose(x, want, rtol=1e-10, atol=1e-10 * scale_of(y, 1.0 / eps.max()))
    check_weighted(y, eps, x, seed)


@given(case=weighted_simplex_inputs(max_len=400), seed=st.integers(0, 2**32 - 1))
def test_project_weighted_simplex_long_inputs_use_the_linear_variant(case, seed):
    # above the sort/linear switch (12 in Rust) the expected-linear variant runs
    y, eps = case
    check_against_sort_reference(y, eps, seed)


def test_project_weighted_simplex_spec_example_and_slsqp():
    y = np.array([0.9, -0.3, 0.4, 2.0, 0.1])
    eps = np.array([1.0, 0.5, 0.0, 0.25, 0.8])
    x = gs.project_weighted_simplex(y, eps)
    theta = -0.4 / 1.0625
    np.testing.assert_allclose(x, [0.9 + theta, 0, 0.4, 2.0 + 0.25 * theta, 0], atol=1e-15)
    np.testing.assert_allclose(x, [0.523529411765, 0, 0.4, 1.905882352941, 0], atol=1e-12)
    rng = np.random.default_rng(0)
    for _ in range(20):
        d = int(rng.integers(2, 8))
        yy = rng.normal(size=d)
        ee = rng.choice([0.0, 0.5, 1.0, 0.3], size=d)
        ee[0] = 0.7
        lower = np.where(ee > 0, 0.0, -np.inf)
        want = ref.project_qp_slsqp(yy, eq=(ee, 1.0), lower=lower)
        np.testing.assert_allclose(gs.project_weighted_simplex(yy, ee), want, atol=1e-6)


def test_project_weighted_simplex_unit_weights_is_simplex():
    v = np.random.default_rng(1).normal(size=500)
    np.testing.assert_allclose(
        gs.project_weighted_simplex(v, np.ones(500)), gs.project_simplex(v), atol=1e-15
    )


# ---------------------------------------------------------------------------- capped simplex


def check_capped(y: np.ndarray, k: float, seed: int, reference: Any) -> np.ndarray:
    """Our projection of ``y`` against ``reference(y, k)``, feasible and optimal (a
    variational inequality at a random feasible point)."""
    x = gs.project_capped_simplex(y, k)
    np.testing.assert_allclose(x, reference(y, k), rtol=1e-10, atol=1e-10 * scale_of(y, 1.0))
    sc = scale_of(y, 1.0)
    assert np.all((x >= 0) & (x <= 1))
    assert x.sum() <= k + 1e-12 * sc * max(1, y.size)
    w = np.random.default_rng(seed).uniform(0, 1, y.size)
    if w.sum() > k:
        w *= k / w.sum()
    assert_vi(y, x, w, sc)
    return x


@given(case=capped_simplex_inputs(), seed=st.integers(0, 2**32 - 1))
def test_project_capped_simplex_matches_sort_reference(case, seed):
    y, k = case
    x = check_capped(y, k, seed, ref.project_capped_simplex_sort)
    # P(y) is feasible up to the rounding of y - tau, so idempotence holds on y's scale
    np.testing.assert_allclose(
        gs.project_capped_simplex(x, k), x, rtol=0, atol=1e-12 * scale_of(y, 1.0) * y.size
    )


@given(case=capped_simplex_inputs(max_len=6), seed=st.integers(0, 2**32 - 1))
def test_project_capped_simplex_matches_active_set_brute_force(case, seed):
    y, k = case
    check_capped(y, k, seed, ref.project_capped_simplex_brute)


def test_project_capped_simplex_spec_example_and_slsqp():
    x = gs.project_capped_simplex([1.4, 0.9, 0.5, 0.2, -0.3], 2)
    np.testing.assert_allclose(x, [1.0, 0.7, 0.3, 0.0, 0.0], atol=1e-15)
    rng = np.random.default_rng(2)
    for _ in range(20):
        d = int(rng.integers(2, 8))
        y = rng.normal(0.5, 1.0, size=d)
        k = float(rng.uniform(0, d))
        want = ref.project_qp_slsqp(y, ineq=(np.ones(d), k), lower=np.zeros(d), upper=np.ones(d))
        np.testing.assert_allclose(gs.project_capped_simplex(y, k), want, atol=1e-6)


def test_project_capped_simplex_long_input():
    rng = np.random.default_rng(3)
    y = rng.normal(0.3, 1.0, size=20_000)
    for k in (0.5, 10.0, 3000.0, 19_999.0):
        np.testing.assert_allclose(
            gs.project_capped_simplex(y, k), ref.project_capped_simplex_sort(y, k), atol=1e-10
        )


# ---------------------------------------------------------------------------- top-k


@given(v=projection_vectors(max_len=80), frac=st.floats(0, 1), seed=st.integers(0, 2**32 - 1))
def test_project_top_k_matches_full_sort(v, frac, seed):
    k = round(frac * v.size)
    x = gs.project_top_k(v, k)
    np.testing.assert_array_equal(x, ref.project_top_k_sort(v, k))
    assert np.count_nonzero(x) <= k
    np.testing.assert_array_equal(gs.project_top_k(x, k), x)
    # no other k-support is closer
    other = np.zeros_like(v)
    keep = np.random.default_rng(seed).permutation(v.size)[:k]
    other[keep] = v[keep]
    sc = scale_of(v)
    # (equal supports of tied values differ only by summation order)
    assert np.sum(((x - v) / sc) ** 2) <= np.sum(((other - v) / sc) ** 2) * (1 + 1e-12)


def test_project_top_k_ties_go_to_lower_index():
    np.testing.assert_array_equal(
        gs.project_top_k([1.0, -3.0, 3.0, 2.0, -3.0], 2), [0, -3.0, 3.0, 0, 0]
    )
    np.testing.assert_array_equal(gs.project_top_k(np.ones(4), 0), np.zeros(4))
    np.testing.assert_array_equal(gs.project_top_k([2.0, -1.0], 2), [2.0, -1.0])


# ------------------------------------------------------------------------ batches, threads, out=

PROJECTIONS = {
    "simplex": (
        lambda a, **kw: gs.project_simplex(a, 1.5, **kw),
        lambda r: ref.project_simplex_sort(r, 1.5),
    ),
    "l1": (
        lambda a, **kw: gs.project_l1_ball(a, 2.0, **kw),
        lambda r: ref.project_l1_ball_sort(r, 2.0),
    ),
    "capped": (
        lambda a, **kw: gs.project_capped_simplex(a, 2.5, **kw),
        lambda r: ref.project_capped_simplex_sort(r, 2.5),
    ),
    "top_k": (lambda a, **kw: gs.project_top_k(a, 3, **kw), lambda r: ref.project_top_k_sort(r, 3)),
}


@pytest.mark.parametrize("name", list(PROJECTIONS))
@given(data=projection_batches(extreme_scales=True))
def test_batched_equals_row_by_row(name, data):
    proj, _ = PROJECTIONS[name]
    got = proj(data, n_jobs=1)
    for i, row in enumerate(data):
        np.testing.assert_array_equal(got[i], proj(row))


@pytest.mark.parametrize("name", list(PROJECTIONS))
def test_batched_matches_reference_and_threads_do_not_matter(name):
    proj, reference = PROJECTIONS[name]
    data = np.random.default_rng(4).normal(size=(300, 150))  # 45k values: the pool is used
    one = proj(data, n_jobs=1)
    two = proj(data, n_jobs=2)
    np.testing.assert_array_equal(one, two)
    for i in range(0, 300, 37):
        np.testing.assert_allclose(one[i], reference(data[i]), atol=1e-12)


@given(
    data=arrays(np.float64, st.tuples(st.integers(2, 9), st.integers(1, 20)), elements=finite),
    seed=st.integers(0, 2**32 - 1),
)
def test_forced_parallel_path_equals_serial(data, seed):
    eps = np.random.default_rng(seed).uniform(0, 1, data.shape)
    eps[:, 0] = 0.5
    k = data.shape[1] // 2
    calls = [
        lambda **kw: _rs.project_simplex(data, 1.0, **kw),
        lambda **kw: _rs.project_l1_ball(data, 1.0, **kw),
        lambda **kw: _rs.project_weighted_simplex(data, eps, **kw),
        lambda **kw: _rs.project_weighted_simplex(data, eps[0], **kw),
        lambda **kw: _rs.project_capped_simplex(data, 1.5, **kw),
        lambda **kw: _rs.project_top_k(data, k, **kw),
    ]
    for call in calls:
        np.testing.assert_array_equal(call(n_threads=1), call(n_threads=2, min_parallel=0))


LARGE = np.random.default_rng(8).normal(size=(1100, 1000))
LARGE_EPS = np.random.default_rng(9).uniform(0.0, 1.0, size=(1100, 1000))
BLOCKED = {
    "simplex": lambda a, e, **kw: gs.project_simplex(a, 2.0, **kw),
    "l1": lambda a, e, **kw: gs.project_l1_ball(a, 3.0, **kw),
    "capped": lambda a, e, **kw: gs.project_capped_simplex(a, 7.5, **kw),
    "top_k": lambda a, e, **kw: gs.project_top_k(a, 9, **kw),
    "weighted_rows": lambda a, e, **kw: gs.project_weighted_simplex(a, e, **kw),
    "weighted_shared": lambda a, e, **kw: gs.project_weighted_simplex(a, LARGE_EPS[5], **kw),
}


@pytest.mark.parametrize("name", list(BLOCKED))
def test_large_batches_run_in_interruptible_blocks(name):
    # more than 2**20 values: the binding works in blocks of rows between Ctrl-C checks
    proj = BLOCKED[name]
    one = proj(LARGE, LARGE_EPS, n_jobs=1)
    two = proj(LARGE, LARGE_EPS, n_jobs=2)
    np.testing.assert_array_equal(one, two)
    for i in (0, 1047, 1048, 1099):  # either side of the first block boundary (1048 rows)
        eps = LARGE_EPS[i : i + 1]
        np.testing.assert_array_equal(one[i : i + 1], proj(LARGE[i : i + 1], eps))


def test_large_batch_errors_name_the_global_row():
    data = LARGE.copy()
    data[1060, 7] = np.nan
    with pytest.raises(InvalidParameterError, match=r"row 1060: v .*index 7"):
        gs.project_simplex(data, n_jobs=2)
    eps = LARGE_EPS.copy()
    eps[1070] = 0.0
    with pytest.raises(InvalidParameterError, match=r"row 1070: eps has no positive entry"):
        gs.project_weighted_simplex(LARGE, eps, n_jobs=2)


def test_weighted_batches_with_shared_and_per_row_weights():
    rng = np.random.default_rng(5)
    y = rng.normal(size=(50, 90))
    eps = rng.uniform(0, 1, size=(50, 90))
    eps[:, ::7] = 0.0
    per_row = gs.project_weighted_simplex(y, eps, n_jobs=2)
    shared = gs.project_weighted_simplex(y, eps[3], n_jobs=2)
    for i in range(50):
        np.testing.assert_array_equal(per_row[i], gs.project_weighted_simplex(y[i], eps[i]))
        np.testing.assert_array_equal(shared[i], gs.project_weighted_simplex(y[i], eps[3]))
        np.testing.assert_allclose(
            per_row[i], ref.project_weighted_simplex_sort(y[i], eps[i]), atol=1e-12
        )


def test_out_argument_and_in_place():
    rng = np.random.default_rng(6)
    v = rng.normal(size=(4, 10))
    want = gs.project_simplex(v)
    out = np.empty_like(v)
    got = gs.project_simplex(v, out=out)
    assert got is out
    np.testing.assert_array_equal(out, want)
    w = v.copy()
    assert gs.project_simplex(w, out=w) is w  # in place
    np.testing.assert_array_equal(w, want)
    y = rng.normal(size=12)
    eps = np.abs(rng.normal(size=12))
    want = gs.project_weighted_simplex(y, eps)
    gs.project_weighted_simplex(y, eps, out=y)
    np.testing.assert_array_equal(y, want)
    e2 = eps.copy()
    gs.project_weighted_simplex(rng.normal(size=12), e2, out=e2)  # out aliases eps
    assert np.all(np.isfinite(e2))


def test_input_coercion_and_zero_copy():
    np.testing.assert_array_equal(gs.project_simplex([3, 1, 0]), [1.0, 0.0, 0.0])
    np.testing.assert_array_equal(
        gs.project_top_k(np.array([1, -5, 2], dtype=np.int32), 1), [0, -5.0, 0]
    )
    f32 = np.array([0.2, 0.9], dtype=np.float32)
    assert gs.project_simplex(f32).dtype == np.float64
    strided = np.arange(20.0)[::2]
    np.testing.assert_allclose(gs.project_simplex(strided), ref.project_simplex_sort(strided))
    fortran = np.asfortranarray(np.random.default_rng(7).normal(size=(5, 6)))
    np.testing.assert_array_equal(
        gs.project_l1_ball(fortran), gs.project_l1_ball(np.ascontiguousarray(fortran))
    )
    v = np.array([0.1, 0.2])
    x = gs.project_l1_ball(v)
    assert x is not v and not np.shares_memory(x, v)


def test_empty_batches():
    assert gs.project_simplex(np.empty((0, 4))).shape == (0, 4)
    assert gs.project_top_k(np.empty((3, 0)), 0).shape == (3, 0)
    assert gs.project_capped_simplex(np.empty(0), 1.0).shape == (0,)


# ---------------------------------------------------------------------------- errors


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_input_is_rejected_with_its_name_and_index(bad):
    v = np.ones(5)
    v[3] = bad
    for call, name in [
        (lambda: gs.project_simplex(v), "v"),
        (lambda: gs.project_l1_ball(v), "v"),
        (lambda: gs.project_capped_simplex(v, 1.0), "y"),
        (lambda: gs.project_top_k(v, 2), "y"),
        (lambda: gs.project_weighted_simplex(v, np.ones(5)), "y"),
        (lambda: gs.project_weighted_simplex(np.ones(5), v), "eps"),
    ]:
        with pytest.raises(InvalidParameterError, match=rf"{name}.*index 3"):
            call()
    with pytest.raises(InvalidParameterError, match=r"row 1: v .*index 3"):
        gs.project_simplex(np.vstack([np.ones(5), v]))


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: gs.project_simplex([1.0], 0.0), "radius"),
        (lambda: gs.project_simplex([1.0], -1.0), "radius"),
        (lambda: gs.project_simplex([1.0], np.nan), "radius"),
        (lambda: gs.project_simplex([1.0], "1"), "radius"),
        (lambda: gs.project_simplex([]), "empty"),
        (lambda: gs.project_simplex(np.ones((2, 2, 2))), "1-D or 2-D"),
        (lambda: gs.project_simplex(3.0), "1-D or 2-D"),
        (lambda: gs.project_simplex(["a", "b"]), "real numbers"),
        (lambda: gs.project_simplex([1 + 2j]), "real numbers"),
        (lambda: gs.project_l1_ball([1.0], -0.1), "radius"),
        (lambda: gs.project_l1_ball([1.0], np.inf), "radius"),
        (lambda: gs.project_capped_simplex([1.0], -1), "k"),
        (lambda: gs.project_capped_simplex([1.0], np.nan), "k"),
        (lambda: gs.project_top_k([1.0, 2.0], 3), "k"),
        (lambda: gs.project_top_k([1.0, 2.0], -1), "k"),
        (lambda: gs.project_top_k([1.0, 2.0], 1.5), "k"),
        (lambda: gs.project_top_k([1.0, 2.0], True), "k"),
        (lambda: gs.project_weighted_simplex([1.0, 2.0], [0.0, 0.0]), "eps"),
        (lambda: gs.project_weighted_simplex([1.0, 2.0], [1.0, -0.5]), "eps"),
        (lambda: gs.project_weighted_simplex([1.0, 2.0], [1.0]), "eps"),
        (lambda: gs.project_weighted_simplex(np.ones((2, 3)), np.ones((3, 2))), "eps"),
        (
            lambda: gs.project_weighted_simplex(np.ones((2, 3)), [[1, 1, 1], [0, 0, 0]]),
            "row 1: eps",
        ),
        (lambda: gs.project_simplex([1.0, 2.0], out=np.empty(3)), "out"),
        (lambda: gs.project_simplex([1.0, 2.0], out=np.empty(2, dtype=np.float32)), "out"),
        (lambda: gs.project_simplex([1.0, 2.0], out=[0.0, 0.0]), "out"),
        (lambda: gs.project_simplex(np.ones((2, 2)), out=np.empty((2, 4))[:, ::2]), "out"),
        (lambda: gs.project_simplex(np.ones((2, 2)), n_jobs=0), "n_jobs"),
    ],
)
def test_bad_parameters_raise_invalid_parameter_error(call, match):
    with pytest.raises(InvalidParameterError, match=match):
        call()


def test_errors_are_value_errors():
    with pytest.raises(ValueError):
        gs.project_simplex([np.nan])


def test_read_only_out_is_rejected():
    out = np.empty(2)
    out.flags.writeable = False
    with pytest.raises(InvalidParameterError, match="out"):
        gs.project_simplex([1.0, 2.0], out=out)
