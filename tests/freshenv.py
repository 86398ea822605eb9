"""A wheel of this checkout and fresh virtual environments holding it, as a user installs it.

Shared by ``tests/test_wheel.py`` (the wheel stands alone: no Rust toolchain, no source tree)
and ``tests/test_readme_scripts.py`` (the README's examples run as scripts). The fixtures that
use these helpers live in ``tests/conftest.py``.

The wheel is built by maturin from the target directory ``make dev`` filled (the same
``dev-release`` profile), so only the binding is linked again, not the whole crate graph; it
is the abi3 wheel ``make wheel`` builds, with the quicker profile.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXTRAS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
    "optional-dependencies"
]
# what a machine without Rust lacks: a fresh environment's PATH holds no folder with these
TOOLCHAIN = ("cargo", "rustc", "rustup")
# variables that would point a process at this checkout, at another Python or at Rust
_DROPPED = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP", "CONDA_PREFIX")
_DROPPED_PREFIXES = ("CARGO", "RUSTUP", "RUSTC", "RUSTFLAGS", "MATURIN")


def build_wheel(out: Path, python: str = sys.executable) -> Path:
    """``maturin build --profile dev-release`` of this checkout into ``out``; the wheel's path."""
    maturin = Path(python).with_name("maturin")
    if not maturin.exists():
        raise FileNotFoundError(f"no maturin beside {python}: `make venv` installs it")
    cmd = [str(maturin), "build", "--profile", "dev-release", "-i", python, "-o", str(out)]
    for _ in range(2):  # once more if a concurrent cargo run moved the library while staging
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=1200)
        if proc.returncode == 0:
            break
    assert proc.returncode == 0, f"maturin build failed:\n{proc.stderr[-3000:]}"
    (built,) = out.glob("graphsparse-*.whl")
    return built


def toolchain_free_path(path: str) -> str:
    """``path`` (a ``PATH`` value) without the folders holding ``cargo``, ``rustc`` or
    ``rustup``, nor any folder inside this checkout."""
    kept = []
    for entry in path.split(os.pathsep):
        if not entry or not os.path.isabs(entry):
            continue  # an empty or relative entry would mean the working directory
        folder = Path(entry)
        if any((folder / tool).exists() for tool in TOOLCHAIN):
            continue
        if folder.resolve().is_relative_to(ROOT):
            continue
        kept.append(entry)
    return os.pathsep.join(kept)


class FreshEnv:
    """A virtual environment holding the wheel and what has been installed into it since.

    Its processes see no Rust toolchain (``PATH`` keeps no folder with ``cargo`` or ``rustc``,
    and no ``CARGO_*``/``RUSTUP_*`` variable), no ``PYTHONPATH`` and no user site.
    """

    def __init__(self, root: Path, wheel: Path, *, frozen: bool = False) -> None:
        self.root = root
        self.wheel = wheel
        self.frozen = frozen  # a frozen environment keeps the run-time dependencies alone
        self.bin = root / "venv" / "bin"
        self.python = self.bin / "python"
        self.env = {
            k: v
            for k, v in os.environ.items()
            if k not in _DROPPED and not k.startswith(_DROPPED_PREFIXES)
        }
        self.env.update(
            PATH=os.pathsep.join([str(self.bin), toolchain_free_path(os.environ.get("PATH", ""))]),
            PYTHONNOUSERSITE="1",
            PIP_DISABLE_PIP_VERSION_CHECK="1",
            MPLBACKEND="Agg",
        )
        self.installed: list[str] = []

    @classmethod
    def create(cls, root: Path, wheel: Path, *, frozen: bool = False) -> FreshEnv:
        """A new virtual environment under ``root`` with the wheel installed (``pip install .``)."""
        subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True, timeout=300)
        env = cls(root, wheel)
        env.pip_install(["."])
        env.frozen = frozen
        return env

    def run(self, args: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
        return subprocess.run(
            args, cwd=cwd, env=self.env, capture_output=True, text=True, timeout=timeout
        )

    def pip_install(self, args: list[str]) -> None:
        """``pip install args`` as the README writes it, ``.`` being this checkout's wheel."""
        assert not self.frozen, "this environment keeps the run-time dependencies alone"
        local = [self._local(a) for a in args]
        todo = [a for a in local if a not in self.installed]
        if not todo:
            return
        proc = self.run([str(self.python), "-m", "pip", "install", "-q", *todo], self.root)
        assert proc.returncode == 0, f"pip install {shlex.join(args)} failed:\n{proc.stderr}"
        self.installed += todo

    def _local(self, arg: str) -> str:
        m = re.fullmatch(r"\.(\[[\w,-]+\])?", arg)
        if not m:
            return arg
        extras = m[1] or ""
        for extra in extras.strip("[]").split(","):
            assert not extra or extra in EXTRAS, f"the README names extra {extra!r}"
        return f"{self.wheel}{extras}"

    def distributions(self) -> set[str]:
        code = (
            "import importlib.metadata as m; print('\\n'.join(d.name for d in m.distributions()))"
        )
        proc = self.run([str(self.python), "-c", code], self.root)
        return {re.sub(r"[-_.]+", "-", n).lower() for n in proc.stdout.split()}
