"""Where a public name says it lives.

Each area of the package is a subpackage whose code sits in private modules (``_bcgd.py``,
``_readers.py`` ...) and whose ``__init__.py`` re-exports the public names. :func:`publish`,
called there, gives each public class and function the subpackage as its ``__module__`` (as
NumPy and pandas do), so that pickles, ``repr``s of types and the doctests name the import
path users write (``graphsparse.models.SubgraphLogisticRegression``), and a later move between
private modules breaks no pickle.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["publish"]


def _private(module: str) -> bool:
    return any(part.startswith("_") for part in module.split(".")[1:])


def publish(module: str, names: Iterable[str], namespace: Mapping[str, Any]) -> None:
    """Set ``__module__`` to ``module`` on every class and function of ``names`` (looked up in
    ``namespace``) that a private module defines, and on the methods such a class defines.

    A name that another public module already published (``graphsparse.datasets`` re-exports
    :func:`graphsparse.chem.from_smiles`) keeps its home.
    """
    for name in names:
        obj = namespace[name]
        home = getattr(obj, "__module__", None)
        if not (inspect.isclass(obj) or inspect.isfunction(obj)) or not isinstance(home, str):
            continue
        if not home.startswith("graphsparse.") or not _private(home):
            continue
        obj.__module__ = module
        if inspect.isclass(obj):
            for member in vars(obj).values():
                for func in _functions(member):
                    if func.__module__ == home:
                        func.__module__ = module


def _functions(member: Any) -> list[Any]:
    """The plain functions behind a class attribute: a method, a static or class method, or a
    property's accessors (their doctests are found through ``__module__``)."""
    if isinstance(member, staticmethod | classmethod):
        member = member.__func__
    if isinstance(member, property):
        return [f for f in (member.fget, member.fset, member.fdel) if inspect.isfunction(f)]
    return [member] if inspect.isfunction(member) else []
