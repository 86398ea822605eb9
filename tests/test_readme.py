"""The README's Python quickstart runs as written (it reads ../shared/data like the tests)."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_quickstart_runs(data_dir):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Quickstart \(Python\)\s+```python\n(.*?)```", text, re.S)
    assert block, "README lost its Python quickstart"
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(block.group(1), "README.md", "exec"), {"__name__": "readme"})
    finally:
        os.chdir(cwd)
