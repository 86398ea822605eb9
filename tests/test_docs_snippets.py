"""Every Python example of the user guide and the getting-started page runs as written.

The gallery (``docs/examples``) runs at build time (``make docs``); the code blocks of the MyST
pages do not, so each page's blocks are run here, in order, as one script in a fresh process
from the repository root (the pages' ``../shared/data`` paths hold as they do in a checkout).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [*sorted((ROOT / "docs" / "guide").glob("*.md")), ROOT / "docs" / "getting_started.md"]
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.M | re.S)
# what a page's examples import beyond the run-time dependencies
NEEDS = {
    "chemistry.md": ("rdkit",),
    "dask.md": ("distributed",),
    "rules.md": ("pandas",),
    "testing.md": ("hypothesis", "pcst_fast", "gspan_mining"),
}


def _pages_with_code() -> list[Path]:
    return [p for p in PAGES if BLOCK.search(p.read_text(encoding="utf-8"))]


def test_the_guide_has_examples() -> None:
    # a renamed fence or folder must not turn this file into a test of nothing
    assert len(_pages_with_code()) >= 10


@pytest.mark.slow
@pytest.mark.parametrize("page", _pages_with_code(), ids=lambda p: p.name)
def test_page_examples_run(page: Path, tmp_path: Path) -> None:
    for need in NEEDS.get(page.name, ()):
        if importlib.util.find_spec(need) is None:
            pytest.skip(f"{page.name} needs {need}")
    script = tmp_path / f"guide_{page.stem}.py"  # not dask.py: it would shadow dask
    script.write_text("\n\n".join(BLOCK.findall(page.read_text(encoding="utf-8"))))
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONWARNINGS": "error::DeprecationWarning"}
    proc = subprocess.run(
        [sys.executable, str(script)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, f"{page.name}:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
