"""Optional libraries are used only behind the extra that names them, with one install hint.

``pip install .`` brings numpy, scipy, networkx and scikit-learn; everything else is an extra
of ``pyproject.toml``, imported through ``graphsparse._optional`` so that its error says how
to install it, from an index and from a checkout. (``tests/test_readme_scripts.py`` runs the
demo in a fresh environment holding the run-time dependencies alone.)
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

from graphsparse import cli, plotting
from graphsparse._optional import install_hint, require
from graphsparse.datasets import _uci
from graphsparse.exceptions import InvalidParameterError
from graphsparse.models import _lpboost

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "python" / "graphsparse"
EXTRAS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
    "optional-dependencies"
]
# the import names of the extras' libraries that the package itself uses
OPTIONAL_MODULES = ("pandas", "matplotlib", "rdkit", "dask", "distributed", "highspy", "ot")


def _hints(extra: str) -> list[str]:
    return [f'pip install "graphsparse[{extra}]"', f'pip install ".[{extra}]"']


def test_hint_names_the_index_and_the_checkout():
    with pytest.raises(ImportError) as info:
        require("graphsparse_no_such_module.sub", "chem", "this function")
    message = str(info.value)
    assert message.startswith("this function needs graphsparse_no_such_module, an optional")
    for hint in _hints("chem"):
        assert hint in message
    assert isinstance(info.value.__cause__, ImportError)


def test_every_extra_the_code_names_exists():
    named = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "_optional.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id == "require":
                named.append((path.name, node.args[1]))
            elif node.func.id == "install_hint":
                named.append((path.name, node.args[0]))
    assert {f for f, _ in named} >= {"_rdkit.py", "cli.py", "plotting.py", "_uci.py", "_lpboost.py"}
    for where, arg in named:
        assert isinstance(arg, ast.Constant), f"{where}: the extra must be a literal"
        assert arg.value in EXTRAS, f"{where} names extra {arg.value!r}, not in pyproject.toml"


# Run first in a subprocess: the optional libraries cannot be imported there, as without the
# extras (setting sys.modules[name] = None instead would break scikit-learn's pandas checks).
_BLOCK = f"""
import sys
class _Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {OPTIONAL_MODULES!r}:
            raise ImportError(f"{{name}} is blocked")
sys.meta_path.insert(0, _Blocked())
"""


def _without_optional(code: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", _BLOCK + code],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout


def test_every_module_imports_without_the_optional_libraries():
    out = _without_optional("""
import importlib, pkgutil
import graphsparse
for info in pkgutil.walk_packages(graphsparse.__path__, "graphsparse."):
    # __main__ would run the command line; distributed needs its extra
    if info.name != "graphsparse.__main__" and ".distributed" not in info.name:
        importlib.import_module(info.name)
try:
    import graphsparse.distributed
except ImportError as exc:
    print(exc)
""")
    assert out.startswith("graphsparse.distributed needs dask, an optional dependency: ")
    for hint in _hints("dask"):
        assert hint in out


def test_demo_rules_need_no_pandas():
    # load_iris(as_frame=True) made the demo stop here without pandas
    out = _without_optional("from graphsparse import cli; cli._demo_rules()")
    assert "iris (3 classes, one shared lattice)" in out
    rules = out.split("strongest rules:\n")[1].splitlines()
    assert len(rules) == 4
    # the rules print the iris column names, not x0..x3
    assert all(line.startswith(("    petal ", "    sepal ")) for line in rules)


def test_plotting_load_uci_and_warm_lpboost_name_their_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=re.escape(install_hint("plot"))):
        plotting.plot_history(object())
    with pytest.raises(ImportError, match=re.escape(install_hint("bench"))):
        _uci.load_uci("TIC", tmp_path)  # the extra is checked before the file is looked for
    monkeypatch.setattr(_lpboost, "HAVE_HIGHSPY", False)
    with pytest.raises(InvalidParameterError, match="needs highspy") as info:
        _lpboost.LPBoostMaster(np.array([1.0, -1.0]), 1.0, warm_start=True)
    assert install_hint("highs") in str(info.value)


def test_demo_figure_without_matplotlib_says_which_extra(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    cli._demo_figure(str(tmp_path / "demo.png"), None, None, None)
    out = capsys.readouterr().out
    assert "(no figure: the demo's figure needs matplotlib" in out
    for hint in _hints("plot"):
        assert hint in out
    assert not (tmp_path / "demo.png").exists()


def test_hypothesis_is_needed_by_the_strategies_alone():
    """``import graphsparse`` never imports Hypothesis; without it, the assertions and the
    references of ``graphsparse.testing`` work and its strategies say which extra to install."""
    assert any(dep.startswith("hypothesis") for dep in EXTRAS["test"])
    code = """
import sys
import graphsparse
assert "hypothesis" not in sys.modules
class _Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "hypothesis":
            raise ImportError(f"{name} is blocked")
sys.meta_path.insert(0, _Blocked())
import graphsparse.testing
from graphsparse.testing import assert_forests_equal, reference
assert_forests_equal(([0], []), ([0], []))
assert reference.projections.project_simplex_sort([2.0, 0.0]).tolist() == [1.0, 0.0]
try:
    import graphsparse.testing.strategies
except ImportError as exc:
    print(exc)
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    ).stdout
    assert out.startswith("graphsparse.testing.strategies needs hypothesis, an optional")
    for hint in _hints("test"):
        assert hint in out
