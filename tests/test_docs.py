"""The documentation's own checks, without building the site (``make docs`` builds it).

``docs/conf.py`` fails the build on a public name without an API page and on a README link to
no file; these tests run the same checks in a second, and check that the checks can fail.
"""

from __future__ import annotations

import importlib.util
import os
import re
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

pytest.importorskip("dask")  # the reference documents graphsparse.distributed, which needs it


@pytest.fixture(scope="module")
def conf() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("graphsparse_docs_conf", DOCS / "conf.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    backend = os.environ.get("MPLBACKEND")
    try:
        spec.loader.exec_module(module)
    finally:  # conf.py sets matplotlib's backend for the gallery; leave the session's alone
        if backend is None:
            os.environ.pop("MPLBACKEND", None)
        else:
            os.environ["MPLBACKEND"] = backend
    return module


def documented_names() -> tuple[set[str], set[str]]:
    """``(objects, modules)``: the qualified names that the API pages give a page of their own
    (autosummary entries with ``:toctree:``, ``.. data::``) and the modules they document."""
    objects: set[str] = set()
    modules: set[str] = set()
    for page in sorted((DOCS / "api").glob("*.rst")):
        current = None
        in_toctree_summary = False
        for line in page.read_text(encoding="utf-8").splitlines():
            if m := re.match(r"\.\. (?:automodule|module|currentmodule):: (\S+)", line):
                if not line.startswith(".. currentmodule"):
                    modules.add(m.group(1))
                current = m.group(1)
                in_toctree_summary = False
            elif line.startswith(".. autosummary::"):
                in_toctree_summary = False
            elif line.strip() == ":toctree: generated/":
                in_toctree_summary = True
            elif m := re.match(r"\.\. data:: (\S+)", line):
                objects.add(f"{current}.{m.group(1)}")
            elif in_toctree_summary and (m := re.match(r"   (\w+)$", line)):
                objects.add(f"{current}.{m.group(1)}")
            elif line and not line.startswith(" "):
                in_toctree_summary = False
    return objects, modules


def test_every_public_name_has_an_api_page(conf: types.ModuleType) -> None:
    objects, modules = documented_names()
    public = {m.__name__ for m in conf._public_modules()}
    assert public - modules == set(), "public modules without a page in docs/api"
    missing = sorted(
        f"{mod.__name__}.{name} -> {conf._CANONICAL[f'{mod.__name__}.{name}']}"
        for mod in conf._public_modules()
        for name in getattr(mod, "__all__", ())
        if not isinstance(getattr(mod, name), types.ModuleType)
        and conf._CANONICAL[f"{mod.__name__}.{name}"] not in objects
    )
    assert missing == [], "public names without a page in docs/api"
    # and no page for a name that is no longer public
    assert objects - set(conf._CANONICAL.values()) == set()


def test_a_reexported_name_points_to_one_page(conf: types.ModuleType) -> None:
    assert conf._ALIASES["graphsparse.mine_subgraphs"] == "graphsparse.mining.mine_subgraphs"
    assert conf._ALIASES["graphsparse.datasets.from_smiles"] == "graphsparse.chem.from_smiles"
    # a name is documented where users import it, not in the private module defining it
    assert conf._CANONICAL["graphsparse.online.GraphDA"] == "graphsparse.online.GraphDA"
    assert conf._ALIASES["graphsparse.online.estimators.GraphDA"] == "graphsparse.online.GraphDA"
    private = [t for t in conf._CANONICAL.values() if re.search(r"\._[^_]", t)]
    assert private == []


def test_readme_links_resolve(conf: types.ModuleType) -> None:
    assert conf.readme_link_errors(ROOT / "README.md", ROOT) == []


def test_the_readme_check_finds_broken_links(conf: types.ModuleType, tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("# page\n")
    readme = tmp_path / "README.md"
    readme.write_text(
        "[ok](docs/page.md) [anchor](docs/page.md#page) [here](#install)\n"
        "[gone](docs/missing.md) ![img](docs/nothing.png)\n"
        "[outside](../elsewhere.md) [web](https://example.org/a?b=c#d) [bad](https://nodot)\n"
        '<img src="docs/absent.svg"> `[not a link](nowhere.md)`\n'
        "```\n[in a code block](nowhere.md)\n```\n"
        "[ref]: docs/also_missing.md\n"
    )
    errors = conf.readme_link_errors(readme, tmp_path)
    flagged = [re.search(r"'([^']+)'", e).group(1) for e in errors]  # type: ignore[union-attr]
    assert sorted(flagged) == sorted(
        [
            "docs/missing.md",
            "docs/nothing.png",
            "../elsewhere.md",
            "https://nodot",
            "docs/absent.svg",
            "docs/also_missing.md",
        ]
    )
