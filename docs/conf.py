"""Sphinx configuration for the graphsparse documentation.

The build needs no network: no intersphinx (no inventory of NumPy, SciPy, scikit-learn,
networkx, RDKit or Dask is available offline; the pages link to those projects with plain
links), and the theme is configured to fetch nothing.

Three checks run inside the build, so that ``make docs`` (``-W``) fails on them:

* every name in the ``__all__`` of every public module has a page in the API reference
  (:func:`_check_api_coverage`);
* every relative link in ``README.md`` points to a file of the repository
  (:func:`_check_readme_links`);
* references to a re-exported name (``graphsparse.mine_subgraphs``) resolve to the one page of
  the object (``graphsparse.mining.mine_subgraphs``) (:func:`_resolve_alias`); a reference that
  resolves neither way is a nitpicky warning, hence an error.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import os
import pkgutil
import re
import sys
import types
from pathlib import Path
from typing import Any

# the gallery's figures are drawn off screen, whatever the machine's default backend
os.environ.setdefault("MPLBACKEND", "Agg")

import graphsparse

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent

# -- project --------------------------------------------------------------------------------

project = "graphsparse"
author = "the graphsparse developers"
copyright = "the graphsparse developers"
release = graphsparse.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "myst_parser",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = [
    "_build",
    "**.ipynb_checkpoints",
    # sphinx-gallery writes these next to the gallery; they are not pages of the site
    "auto_examples/*.ipynb",
    "auto_examples/*.py",
    "auto_examples/*.zip",
    "auto_examples/*.md5",
    "auto_examples/*.json",
    "sg_execution_times.rst",
]
templates_path = ["_templates"]

# every cross-reference must resolve
nitpicky = True
# Names of other projects (``sklearn.exceptions.ConvergenceWarning``, ``networkx.Graph``):
# without those projects' inventories, which need the network, they cannot resolve, so a
# reference into one of these packages is let through. Nothing of graphsparse is.
_THIRD_PARTY = [
    "numpy",
    "scipy",
    "sklearn",
    "networkx",
    "rdkit",
    "dask",
    "distributed",
    "matplotlib",
    "pandas",
]
nitpick_ignore_regex = [(r"py:.*", rf"{pkg}(\..*)?") for pkg in _THIRD_PARTY]

# -- autodoc / autosummary / numpydoc --------------------------------------------------------

autosummary_generate = True
autosummary_generate_overwrite = True
autosummary_imported_members = False
# the signatures show parameter names and defaults; the types are in each Parameters section
autodoc_typehints = "none"
autodoc_member_order = "groupwise"
add_module_names = False
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

# -- MyST -------------------------------------------------------------------------------------

myst_enable_extensions = ["colon_fence", "dollarmath", "deflist"]
myst_heading_anchors = 3

# -- sphinx-gallery ---------------------------------------------------------------------------

sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": "/plot_",
    "ignore_pattern": r"/_",
    "abort_on_example_error": True,
    "only_warn_on_example_error": False,
    "image_scrapers": ("matplotlib",),
    "matplotlib_animations": False,
    "download_all_examples": False,
    "plot_gallery": "True",
    "reference_url": {"graphsparse": None},
    "backreferences_dir": None,
    "show_memory": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    # the computation-times page loads its table scripts from CDNs; the build log has the times
    "write_computation_times": False,
}

# -- HTML -------------------------------------------------------------------------------------

html_theme = "pydata_sphinx_theme"
html_title = f"graphsparse {release}"
html_static_path: list[str] = []
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "show_prev_next": True,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
    # nothing fetched at build or view time: no version switcher, no remote icons, no analytics
    "check_switcher": False,
    "icon_links": [],
}
html_sidebars = {"**": ["sidebar-nav-bs"], "index": [], "getting_started": [], "design": []}
html_show_sourcelink = False
html_copy_source = False
html_last_updated_fmt = None

# -- public API: modules, canonical pages, aliases ------------------------------------------


def _public_modules() -> list[types.ModuleType]:
    """``graphsparse`` and each submodule none of whose name parts starts with ``_``."""
    mods = [graphsparse]
    for info in pkgutil.walk_packages(graphsparse.__path__, "graphsparse."):
        if any(part.startswith("_") for part in info.name.split(".")[1:]):
            continue
        mods.append(importlib.import_module(info.name))
    return mods


def _canonical_names() -> tuple[dict[str, str], dict[str, str]]:
    """``(canonical, aliases)``: for every ``module.name`` of a public ``__all__``, the one
    qualified name its reference page has, and for every other name of the same object, that
    page's name.

    An object's page is in the shallowest public module whose ``__all__`` lists it, leaving out
    the top level when a subpackage lists it too (``graphsparse.mine_subgraphs`` is documented
    as ``graphsparse.mining.mine_subgraphs``); at equal depth, the module that defines it.
    """
    listed: dict[int, list[tuple[str, str]]] = {}
    objects: dict[int, Any] = {}
    for mod in _public_modules():
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            if isinstance(obj, types.ModuleType):
                continue
            key = id(obj)
            if not (inspect.isclass(obj) or inspect.isroutine(obj)):
                # constants are documented where their __all__ lists them
                key = id((mod.__name__, name))
                objects[key] = (mod.__name__, name)
            objects.setdefault(key, obj)
            listed.setdefault(key, []).append((mod.__name__, name))

    canonical: dict[str, str] = {}
    aliases: dict[str, str] = {}
    for key, places in listed.items():
        obj = objects[key]
        home = getattr(obj, "__module__", None)
        candidates = [p for p in places if p[0] != "graphsparse"] or places

        def rank(place: tuple[str, str], home: str | None = home) -> tuple[int, bool]:
            return (place[0].count("."), place[0] != home)

        mod, name = min(candidates, key=rank)
        target = f"{mod}.{name}"
        for m, n in places:
            canonical[f"{m}.{n}"] = target
            if f"{m}.{n}" != target:
                aliases[f"{m}.{n}"] = target
        qualname = getattr(obj, "__qualname__", None)
        if isinstance(home, str) and isinstance(qualname, str):
            defined = f"{home}.{qualname}"
            if defined != target and not any(p.startswith("_") for p in defined.split(".")[1:]):
                aliases[defined] = target
    return canonical, aliases


_CANONICAL, _ALIASES = _canonical_names()


def _resolve_alias(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """Resolve a Python reference written with a re-exported name (``graphsparse.Pattern``,
    ``graphsparse.Pattern.to_smarts``) to the object's page."""
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    module = node.get("py:module")
    tries = [target] + ([f"{module}.{target}"] if module else [])
    domain = env.get_domain("py")
    for name in tries:
        parts = name.split(".")
        for i in range(len(parts), 1, -1):
            head = ".".join(parts[:i])
            if head in _ALIASES:
                new = ".".join([_ALIASES[head], *parts[i:]])
                found = domain.resolve_xref(
                    env, node["refdoc"], app.builder, node["reftype"], new, node, contnode
                )
                if found is not None:
                    return found
    return None


def _check_api_coverage(app: Any, env: Any) -> None:
    """Every public module is documented as a module, and every name of its ``__all__`` has a
    page (under its canonical name); otherwise the build fails (``-W``)."""
    from sphinx.util import logging

    log = logging.getLogger("graphsparse.api")
    if not app.builder.name.startswith("html"):
        return
    objects = env.get_domain("py").objects
    missing: list[str] = []
    for mod in _public_modules():
        if mod.__name__ not in objects or objects[mod.__name__].objtype != "module":
            missing.append(f"module {mod.__name__}")
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            if isinstance(obj, types.ModuleType):
                target = obj.__name__
            else:
                target = _CANONICAL[f"{mod.__name__}.{name}"]
            if target not in objects:
                missing.append(f"{mod.__name__}.{name} (page: {target})")
    for item in missing:
        log.warning(
            "public name without a page in the API reference: %s; add it to docs/api/", item
        )


# -- README links -----------------------------------------------------------------------------

_LINK = re.compile(r"(?<!\\)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.MULTILINE)
_HTML_LINK = re.compile(r"""<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*["']([^"']+)["']""")
_URL = re.compile(r"^https?://[A-Za-z0-9.-]+\.[A-Za-z]{2,}(?::\d+)?(?:[/?#][^\s<>\"]*)?$")


def readme_link_errors(readme: Path, root: Path) -> list[str]:
    """The problems of the links of ``readme``: a relative link to no file or folder under
    ``root`` (or outside it), or a malformed ``http(s)`` address (those are not fetched)."""
    text = readme.read_text(encoding="utf-8")
    # code spans and fenced blocks are not links
    text = re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.MULTILINE | re.DOTALL)
    text = re.sub(r"`[^`\n]*`", "", text)
    errors = []
    for pattern in (_LINK, _REF_DEF, _HTML_LINK):
        for match in pattern.finditer(text):
            link = match.group(1)
            line = text.count("\n", 0, match.start()) + 1
            if link.startswith(("http://", "https://")):
                if not _URL.match(link):
                    errors.append(f"README.md:{line}: malformed address {link!r}")
                continue
            if link.startswith(("#", "mailto:")):
                continue
            if re.match(r"^[a-z][a-z0-9+.-]*:", link):
                errors.append(f"README.md:{line}: unsupported link scheme {link!r}")
                continue
            path = link.split("#", 1)[0].split("?", 1)[0]
            resolved = (readme.parent / path).resolve()
            if not resolved.is_relative_to(root) or not resolved.exists():
                errors.append(f"README.md:{line}: {link!r} is not a file of the repository")
    return errors


def _check_readme_links(app: Any) -> None:
    from sphinx.util import logging

    log = logging.getLogger("graphsparse.readme")
    for error in readme_link_errors(ROOT / "README.md", ROOT):
        log.warning("broken README link: %s", error)


# -- generated text -----------------------------------------------------------------------------


def _write_cli_help(app: Any) -> None:
    """``graphsparse --help`` and each subcommand's help, for the command-line page."""
    from graphsparse import cli

    os.environ["COLUMNS"] = "100"  # argparse wraps to the terminal; the page does not vary
    out = DOCS / "api" / "generated"
    out.mkdir(parents=True, exist_ok=True)
    pages = [
        (["--help"], "cli_help.txt"),
        (["demo", "--help"], "cli_demo_help.txt"),
        (["mine", "--help"], "cli_mine_help.txt"),
    ]
    for args, name in pages:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), contextlib.suppress(SystemExit):
            old = sys.argv
            sys.argv = ["graphsparse"]
            try:
                cli.main(args)
            finally:
                sys.argv = old
        text = buf.getvalue()
        if not text.strip():
            raise RuntimeError(f"graphsparse {' '.join(args)} printed nothing")
        path = out / name
        if not path.exists() or path.read_text() != text:
            path.write_text(text)


def _skip_foreign_member(app: Any, what: str, name: str, obj: Any, skip: bool, options: Any):
    """Leave out the members a class inherits from outside graphsparse (scikit-learn's
    ``get_params``, ``set_output``, metadata routing ...; the builtins' of exceptions): those are
    documented by their projects, and their docstrings link into those projects' sites."""
    if what not in ("class", "exception"):
        return None
    target = obj.fget if isinstance(obj, property) else getattr(obj, "__func__", obj)
    module = getattr(target, "__module__", None)
    if module is None or not module.startswith("graphsparse"):
        return True
    return None


def _constant_docs() -> dict[str, list[str]]:
    """The ``#:`` comment of every module-level constant of the package, private modules
    included, by name (a public module re-exports constants that a private module defines)."""
    from sphinx.pycode import ModuleAnalyzer

    docs: dict[str, list[str]] = {}
    for info in pkgutil.walk_packages(graphsparse.__path__, "graphsparse."):
        if info.name.endswith("__main__"):  # reading it would run the command line
            continue
        try:
            analyzer = ModuleAnalyzer.for_module(info.name)
            found = analyzer.find_attr_docs()
        except Exception:  # an extension module has no source to read
            continue
        for (scope, name), lines in found.items():
            if scope == "":
                docs.setdefault(name, list(lines))
    return docs


def _document_constant(
    app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    """A constant's page shows its ``#:`` comment, never the docstring of its type
    (``tuple``'s), which autodoc falls back to for a name re-exported from a private module."""
    if what != "data" or not name.startswith("graphsparse."):
        return
    if not hasattr(app, "_graphsparse_constant_docs"):
        app._graphsparse_constant_docs = _constant_docs()
    doc = app._graphsparse_constant_docs.get(name.rsplit(".", 1)[1])
    text = " ".join(" ".join(lines).split())
    if not text or text == " ".join((inspect.getdoc(type(obj)) or "").split()):
        lines[:] = doc or []
    if not "".join(lines).strip():
        from sphinx.util import logging

        logging.getLogger("graphsparse.api").warning(
            "public constant %s has no '#:' comment to document it", name
        )


def setup(app: Any) -> dict[str, Any]:
    # before numpydoc (priority 500) reformats the docstring
    app.connect("autodoc-process-docstring", _document_constant, priority=100)
    app.connect("autodoc-skip-member", _skip_foreign_member)
    app.connect("builder-inited", _write_cli_help)
    app.connect("builder-inited", _check_readme_links)
    app.connect("missing-reference", _resolve_alias)
    app.connect("env-check-consistency", _check_api_coverage)
    return {"parallel_read_safe": True}
