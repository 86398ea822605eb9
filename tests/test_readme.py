"""The README's Python quickstart runs as written (it reads ../shared/data like the tests)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

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


def test_readme_chemistry_quickstart_runs(data_dir, tmp_path):
    pytest.importorskip("rdkit")
    from graphsparse.exceptions import MoleculeRepairedWarning, MoleculeSkippedWarning

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Chemistry quickstart\s.*?```python\n(.*?)```", text, re.S)
    assert block, "README lost its chemistry quickstart"
    code = block.group(1).replace("../shared/data", str(data_dir))
    cwd = os.getcwd()
    os.chdir(tmp_path)  # the pictures it writes land here
    try:
        msg = "1 of 3 molecules could not be read and were left out: 1 "
        # read_sdf restores the charges CPDB leaves out (83 molecules, mostly nitro groups)
        repaired = "83 of 684 molecules were read with formal charges restored"
        with (
            pytest.warns(MoleculeRepairedWarning, match=repaired),
            pytest.warns(MoleculeSkippedWarning, match=msg),
        ):
            exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
    finally:
        os.chdir(cwd)
    assert (tmp_path / "selected_substructures.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "occurrences.svg").read_text(encoding="utf-8").startswith("<?xml")
