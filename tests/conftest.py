"""Shared pytest configuration: hypothesis profiles and paths to the shared data."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# CI=true selects hypothesis' own derandomized "ci" profile; HYPOTHESIS_PROFILE overrides.
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
else:
    settings.register_profile("default-gs", deadline=None)
    if not os.environ.get("CI"):
        settings.load_profile("default-gs")

DATA = Path(
    os.environ.get(
        "GRAPHSPARSE_DATA", Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
    )
)


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The shared real datasets (``../shared/data``); tests that need them skip when absent."""
    if not DATA.is_dir():
        pytest.skip(f"shared data not found at {DATA}")
    return DATA


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """The abi3 wheel of this checkout (``dev-release`` profile), built once per session."""
    from tests.freshenv import build_wheel

    try:
        return build_wheel(tmp_path_factory.mktemp("wheel"))
    except FileNotFoundError as e:
        pytest.fail(str(e))


@pytest.fixture(scope="session")
def bare_env(tmp_path_factory, wheel):
    """A fresh virtual environment holding the wheel and its run-time dependencies alone,
    outside the source tree, on a ``PATH`` without ``cargo`` or ``rustc``; nothing more may be
    installed into it."""
    from tests.freshenv import FreshEnv

    return FreshEnv.create(tmp_path_factory.mktemp("bare"), wheel, frozen=True)


@pytest.fixture(scope="session")
def demo_run(bare_env):
    """``graphsparse demo`` run once in ``bare_env``, in a new empty folder: (process, folder)."""
    work = bare_env.root / "demo"
    work.mkdir()
    return bare_env.run(["graphsparse", "demo"], work), work


@pytest.fixture(scope="module")
def dask_client():
    """One ``distributed`` cluster per test module that asks for it (workers start slowly).

    Two worker processes with one thread each, as ``graphsparse.distributed`` would meet on a
    real cluster: everything the tests ship is pickled across processes. Module scope, not
    session: the cluster's threads and processes are gone before the other modules' tests
    (and their timings and hypothesis runs) start.
    """
    distributed = pytest.importorskip("distributed")
    restore = _private_random_for_dask()
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()
    restore()


def _private_random_for_dask():
    """Give the scheduler and client threads of this process their own random generator.

    Hypothesis fails a test whose data generation changes the global ``random`` state
    (``HypothesisDeprecationWarning``, then ``FlakyStrategyDefinition``). The in-process
    scheduler, comms and tornado timers of ``distributed`` draw from ``random`` on their own
    threads at any moment, so an example drawn while they run would look flaky. They get a
    private ``random.Random`` here; the worker processes are untouched.
    """
    import importlib
    import random

    own = random.Random(20261124)
    patched = []
    for name, attr in [
        ("distributed.scheduler", "random"),
        ("distributed.utils_comm", "random"),
        ("distributed.comm.core", "random"),
        ("distributed.protocol.compression", "randint"),
        ("dask.sizeof", "random"),
        ("tornado.ioloop", "random"),
    ]:
        module = importlib.import_module(name)
        old = getattr(module, attr, None)
        if old is None:
            continue
        patched.append((module, attr, old))
        setattr(module, attr, own if attr == "random" else getattr(own, attr))

    def restore():
        for module, attr, old in patched:
            setattr(module, attr, old)

    return restore
