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
