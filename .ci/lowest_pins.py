"""Print the lowest versions pyproject.toml allows, as exact pins, for ``make test-oldest``.

Every run-time dependency and every package of the ``test`` extra must be declared as
``name>=version`` (a lower bound is required; an upper bound is not allowed here, since the
oldest run cannot tell whether it holds); each is printed as ``name==version``, so the versions
installed are exactly the declared bounds, never something that merely satisfies them. The
names given as arguments add those packages from the other extras, pinned the same way (the
tests that use them run, at their lowest declared versions, instead of skipping).

With ``--check``, the versions installed in this interpreter are compared with the pins.
"""

from __future__ import annotations

import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# name, optional [extras], >=, a release number: nothing else
LOWER_BOUND = re.compile(
    r"(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)(?P<extras>\[[\w,-]+\])?>=(?P<version>\d+(?:\.\d+)*)"
)


def _pin(requirement: str) -> tuple[str, tuple[str, str]]:
    """``name[extras]>=version`` as ``(name, (name[extras], version))``."""
    m = LOWER_BOUND.fullmatch(requirement.replace(" ", ""))
    if not m:
        raise SystemExit(f"pyproject.toml: {requirement!r} is not `name>=version`")
    return m["name"], (m["name"] + (m["extras"] or ""), m["version"])


def pins(extra_names: list[str]) -> dict[str, tuple[str, str]]:
    """Distribution name: (what to install, lowest version)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    out = dict(_pin(r) for r in [*project["dependencies"], *extras["test"]])
    wanted = {_norm(n) for n in extra_names}
    found = {}
    for reqs in extras.values():
        for req in reqs:
            if _norm(re.split(r"[\[>=<~!; ]", req, maxsplit=1)[0]) in wanted:
                package, pin = _pin(req)
                if found.get(_norm(package), (package, pin))[1] != pin:
                    raise SystemExit(f"pyproject.toml: two lower bounds for {package}")
                found[_norm(package)] = (package, pin)
    missing = wanted - set(found)
    if missing:
        raise SystemExit(f"no extra of pyproject.toml names {sorted(missing)}")
    out.update(found.values())
    return out


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _release(version: str) -> tuple[int, ...]:
    parts = [int(p) for p in re.match(r"[\d.]+", version)[0].strip(".").split(".")]
    while parts and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    names = [a for a in argv if a != "--check"]
    wanted = pins(names)
    if not check:
        print(" ".join(f"{spec}=={v}" for spec, v in wanted.values()))
        return 0
    bad = []
    for name, (_, version) in wanted.items():
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            installed = "nothing"
        if installed == "nothing" or _release(installed) != _release(version):
            bad.append(f"{name} {installed} installed, {version} declared")
        print(f"{_norm(name):>16} {installed}")
    if bad:
        print("not the declared lowest versions:", *bad, sep="\n  ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
