"""The shape of the house, checked statically: no import circle (Python modules, or the
top-level modules of a Rust crate), the foundation crate alone defines the shared concepts,
and the crates stand on each other in layers.

These read source files only; nothing is imported or built.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "python" / "graphsparse"
CRATES = ROOT / "rust" / "crates"
FOUNDATION = "graphsparse-base"


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph.get(child, ()))))
                elif child in on_stack:
                    low[v] = min(low[v], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def package_modules() -> dict[str, Path]:
    """Dotted module name (a package by its ``__init__.py``) → source file, for every module
    of the package."""
    modules: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def python_imports() -> dict[str, set[str]]:
    """Module → the package's modules it imports, function-level imports included (an import
    moved into a function to dodge a circle is still a circle)."""
    modules = package_modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here[: len(here) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                targets = [module] + [f"{module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            for target in targets:
                # a package's own parents are imported by Python anyway: not an edge
                if target in modules and target != name and not name.startswith(target + "."):
                    graph[name].add(target)
    return graph


def rust_module_uses(src: Path) -> dict[str, set[str]]:
    """Top-level module of a crate → the sibling top-level modules its code names through
    `crate::` (unit-test modules left out: a test may reach anything)."""
    top = {
        p.stem if p.is_file() else p.name
        for p in src.iterdir()
        if (p.suffix == ".rs" and p.stem not in ("lib", "main")) or p.is_dir()
    }
    graph: dict[str, set[str]] = {m: set() for m in top}
    for path in src.rglob("*.rs"):
        module = path.relative_to(src).parts[0].removesuffix(".rs")
        if module not in top:
            continue
        text = re.split(r"#\[cfg\(test\)\]\s*mod tests", path.read_text(encoding="utf-8"))[0]
        named = re.findall(r"\bcrate::(\w+)", text)
        for group in re.findall(r"use crate::\{([^;]*)\}", text):
            named += re.findall(r"(?:^|[,{\s])(\w+)(?=::|\s*[,}]|\s*$)", group)
        graph[module] |= {m for m in named if m in top and m != module}
    return graph


def crate_dependencies() -> dict[str, set[str]]:
    graph = {}
    for manifest in CRATES.glob("*/Cargo.toml"):
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
        graph[data["package"]["name"]] = {
            d for d in data.get("dependencies", {}) if d.startswith("graphsparse")
        }
    return graph


def test_python_modules_have_no_import_circle() -> None:
    assert cycles(python_imports()) == []


@pytest.mark.parametrize("crate", sorted(p.name for p in CRATES.iterdir() if (p / "src").is_dir()))
def test_rust_modules_have_no_import_circle(crate: str) -> None:
    assert cycles(rust_module_uses(CRATES / crate / "src")) == []


def test_crates_stand_in_layers() -> None:
    deps = crate_dependencies()
    assert cycles(deps) == []
    # every core crate stands on the foundation, which stands on nothing of ours
    assert deps[FOUNDATION] == set()
    # recovery uses the head/tail projection, not the online learners
    assert "graphsparse-online" not in deps["graphsparse-recovery"]


SHARED_DEFINITIONS = {
    "the Check trait": re.compile(r"\btrait\s+Check\b"),
    "the Parallel policy": re.compile(r"\benum\s+Parallel\b"),
    # a generator's own arithmetic (the SplitMix64 step and finaliser, xorshift's shift
    # triple), not a seed that happens to be the golden-ratio constant
    "a seeded generator": re.compile(
        r"wrapping_(?:add|mul)\(\s*0x9E37_?79B9_?7F4A_?7C15|0xBF58_?476D_?1CE4_?E5B9"
        r"|\^=\s*\*?\w+\s*<<\s*13\b",
        re.IGNORECASE,
    ),
    "a loss enum": re.compile(r"\benum\s+Loss\b"),
}


@pytest.mark.parametrize("concept", sorted(SHARED_DEFINITIONS))
def test_only_the_foundation_defines_shared_concepts(concept: str) -> None:
    pattern = SHARED_DEFINITIONS[concept]
    offenders = [
        str(path.relative_to(ROOT))
        for path in CRATES.glob("*/src/**/*.rs")
        if not path.is_relative_to(CRATES / FOUNDATION)
        and pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == [], f"{concept} is defined outside {FOUNDATION}"


def test_the_checker_finds_a_circle() -> None:
    """The guard itself can fail."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
