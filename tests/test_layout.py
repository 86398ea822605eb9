"""The Python package's layout: each area is a subpackage whose ``__init__.py`` only re-exports
its public names, which report that public home; and no import circle runs through a package's
``__init__.py`` either.

``tests/test_architecture.py`` checks module against module. Python also runs every package on
the way to a module first (importing ``graphsparse.datasets._readers`` runs
``graphsparse/datasets/__init__.py``), so a module inside a package whose ``__init__`` imports
the importer closes a circle there that only the order of the imports in
``graphsparse/__init__.py`` keeps from failing; the check below follows those edges too.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys

import pytest

from tests.test_architecture import PACKAGE, cycles, package_modules

SUBPACKAGES = ("chem", "compression", "datasets", "mining", "models", "recovery", "rules")
PUBLIC_MODULES = [
    "graphsparse",
    *(f"graphsparse.{name}" for name in SUBPACKAGES),
    "graphsparse.online",
    "graphsparse.online.projections",
    "graphsparse.metrics",
    "graphsparse.plotting",
    "graphsparse.exceptions",
    "graphsparse.projections",
    "graphsparse.steiner",
    "graphsparse.cli",
    "graphsparse.testing",
    "graphsparse.testing.strategies",
    *(
        f"graphsparse.testing.reference.{name}"
        for name in (
            "bcgd",
            "compression",
            "lpboost",
            "online",
            "pcst",
            "projections",
            "recovery",
            "rules",
            "subgraphs",
        )
    ),
]


def _run_time_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, function-level ones included, but not those under
    ``if TYPE_CHECKING:`` (never run)."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def run_time_imports() -> dict[str, set[str]]:
    """Module → the package's modules that importing it runs: each module it imports and every
    package on the way to that module (its own packages left out: they are running already)."""
    modules = package_modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in _run_time_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = here[: len(here) - node.level + 1] if node.level else []
                module = ".".join(base + ([node.module] if node.module else []))
                targets = [module] + [f"{module}.{alias.name}" for alias in node.names]
            else:
                targets = [alias.name for alias in node.names]
            for target in targets:
                if target not in modules:
                    continue
                parts = target.split(".")
                for k in range(1, len(parts) + 1):
                    step = ".".join(parts[:k])
                    if step in modules and step != name and not name.startswith(step + "."):
                        graph[name].add(step)
    return graph


def test_no_import_circle_runs_through_a_package() -> None:
    assert cycles(run_time_imports()) == []


def test_the_check_sees_a_circle_through_a_package_init() -> None:
    """chem's reader importing datasets/_dataset.py would run datasets/__init__.py, which
    imports that reader: the circle this file guards against."""
    graph = {
        "pkg.chem": {"pkg.chem._readers"},
        "pkg.chem._readers": {"pkg.datasets", "pkg.datasets._dataset"},
        "pkg.datasets": {"pkg.datasets._dataset", "pkg.chem", "pkg.chem._readers"},
        "pkg.datasets._dataset": set(),
    }
    assert cycles(graph) == [["pkg.chem", "pkg.chem._readers", "pkg.datasets"]]


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_a_subpackage_init_only_re_exports(name: str) -> None:
    """Docstring, imports, ``__all__`` and the ``_publish`` call; the code lives in private
    modules."""
    path = PACKAGE / name / "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for k, node in enumerate(tree.body):
        if k == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        if isinstance(node, ast.ImportFrom) and (node.level > 0 or node.module == "__future__"):
            continue
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["__all__"]:
            continue
        if ast.unparse(node) == "_publish(__name__, __all__, globals())":
            continue
        pytest.fail(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {ast.unparse(node)[:60]}")
    for private in (PACKAGE / name).glob("*.py"):
        assert private.name == "__init__.py" or private.name.startswith("_"), private


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_public_names_say_where_users_import_them(name: str) -> None:
    """Each class and function of ``__all__`` names a public module as its home, where pickle
    finds it again: pickles never name a private module that a later move could take away."""
    module = importlib.import_module(name)
    for attr in module.__all__:
        obj = getattr(module, attr)
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue
        home = obj.__module__
        if not home.startswith("graphsparse"):
            continue
        assert not any(p.startswith("_") for p in home.split(".")[1:]), f"{name}.{attr}: {home}"
        assert getattr(sys.modules[home], obj.__qualname__) is obj, f"{name}.{attr}"
