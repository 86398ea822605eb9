"""The README works on a fresh machine: its first command, and every Python example as a script.

A wheel of this checkout goes into a new virtual environment with nothing else, as
``pip install .`` would put it there, and ``graphsparse demo`` must run to the end. Then every
```` ```python ```` block of the README is saved as a script and run in its own process in that
environment, after installing what its first line, ``# needs: pip install ...``, declares (``.``
is this checkout's wheel), in the README's order: the installs only add, so each block runs
with what it declares plus what the blocks before it declared. Its ``# -> ...`` comments are
what it must print: each is a line of its output, in order (other lines may come between),
token by token, where a number agrees to the digits it shows and ``...`` stands for one or more
tokens. The scripts run in a folder beside a ``shared`` that is the shared data, so the
README's ``../shared/data`` paths hold as they do in a checkout beside ``shared/``.

The wheel and the environments come from ``tests/freshenv.py``; the first command runs in the
environment that ``tests/test_wheel.py`` checks too (no Rust toolchain on its ``PATH``), once.
"""

from __future__ import annotations

import decimal
import re
import shlex
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.freshenv import FreshEnv

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
EXTRAS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
    "optional-dependencies"
]
FIRST_COMMAND = "pip install . && graphsparse demo"
NEEDS = re.compile(r"# needs: pip install (?P<args>.+)")
EXPECTS = re.compile(r"#\s*->\s*(?P<line>.+)$")
# A script prints no warning (the tests that ran these blocks in-process did so under
# filterwarnings=error) but those its section expects or tolerates, and must leave the files
# named here.
CHECKS = {
    "Chemistry quickstart": {
        "warnings": {
            # read_sdf restores the charges CPDB leaves out (83 molecules, mostly nitro groups)
            "MoleculeRepairedWarning": "83 of 684 molecules were read with formal charges restored",
            "MoleculeSkippedWarning": "1 of 3 molecules could not be read and were left out: 1 ",
        },
        "files": {"selected_substructures.png": b"\x89PNG", "occurrences.svg": b"<?xml"},
    },
    # where another Dask cluster runs on the machine, the dashboard takes another port
    "Scaling out (Dask)": {"tolerated": {"UserWarning": "Port 8787 is already in use"}},
}
# a warning as Python prints it: file, line, category, message
WARNING_LINE = re.compile(r"^\S.*?:\d+: (?P<category>\w*Warning): (?P<message>.*)$", re.M)


@dataclass(frozen=True)
class Block:
    section: str
    line: int  # of the README, where the code starts
    code: str

    @property
    def needs(self) -> list[str]:
        first = self.code.splitlines()[0] if self.code.strip() else ""
        m = NEEDS.fullmatch(first.strip())
        assert m, (
            f"README line {self.line} ({self.section}): a Python example must start with "
            f"'# needs: pip install ...' (what to install for it), got {first!r}"
        )
        return shlex.split(m["args"])

    @property
    def expected(self) -> list[str]:
        return [m["line"].strip() for m in map(EXPECTS.search, self.code.splitlines()) if m]


def _blocks() -> list[Block]:
    blocks = []
    for m in re.finditer(r"^```python\n(.*?)^```$", README, re.M | re.S):
        heading = re.findall(r"^## (.+)$", README[: m.start()], re.M)[-1]
        line = README.count("\n", 0, m.start(1)) + 1
        blocks.append(Block(heading.strip(), line, m[1]))
    return blocks


BLOCKS = _blocks()


def _slug(block: Block) -> str:
    return re.sub(r"[^a-z0-9]+", "-", block.section.lower()).strip("-")


# -- the fresh environment ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def fresh(tmp_path_factory, wheel, data_dir) -> FreshEnv:
    env = FreshEnv.create(tmp_path_factory.mktemp("fresh"), wheel)
    (env.root / "shared").mkdir()
    (env.root / "shared" / "data").symlink_to(data_dir.resolve(), target_is_directory=True)
    return env


def _warnings(stderr: str) -> list[tuple[str, str]]:
    """The warnings a process printed, as (category, message)."""
    return [(m["category"], m["message"]) for m in WARNING_LINE.finditer(stderr)]


# -- the first command ----------------------------------------------------------------------------
def test_first_command_runs_on_the_run_time_dependencies_alone(bare_env, demo_run):
    # the README's first command, as a user types it
    first = re.search(r"^## The two commands.*?^```bash\n(.*?)\n```", README, re.M | re.S)
    assert first and first[1] == FIRST_COMMAND
    # `pip install .` brought no extra: no library any extra names is there
    present = bare_env.distributions()
    assert {"graphsparse", "numpy", "scipy", "networkx", "scikit-learn"} <= present
    for extra, reqs in EXTRAS.items():
        for req in reqs:
            name = re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", req)[0]).lower()
            assert name not in present, f"{name} (extra {extra}) came with `pip install .`"
    proc, work = demo_run  # `graphsparse demo`, in an empty folder
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    for section in range(1, 7):
        assert f"\n== {section}. " in proc.stdout
    assert "demo finished in" in proc.stdout
    # no matplotlib: no figure, and the way to get one
    assert "(no figure: the demo's figure needs matplotlib" in proc.stdout
    assert 'pip install ".[plot]"' in proc.stdout
    assert not list(work.iterdir())
    assert _warnings(proc.stderr) == []


# -- every Python example -------------------------------------------------------------------------
def _number(token: str) -> decimal.Decimal | None:
    try:
        value = decimal.Decimal(token)
    except decimal.InvalidOperation:
        return None
    return value if value.is_finite() else None


def _line_matches(expected: str, line: str) -> bool:
    """``line`` printed what ``expected`` shows: tokens, numbers to the digits shown, ``...``."""
    parts, numbers = [], []
    for token in expected.split():
        if token == "...":
            parts.append(r"\S(?:.*\S)?")
        elif "..." in token:  # such as {...}
            parts.append(".*".join(map(re.escape, token.split("..."))))
        elif _number(token) is not None:
            parts.append(r"(\S+)")
            numbers.append(token)
        else:
            parts.append(re.escape(token))
    m = re.fullmatch(r"\s+".join(parts), line.strip())
    if not m:
        return False
    for shown, printed in zip(numbers, m.groups(), strict=True):
        value = _number(printed)
        want = decimal.Decimal(shown)
        if value is None or abs(value - want) > decimal.Decimal(5).scaleb(
            want.as_tuple().exponent - 1
        ):
            return False
    return True


def _unmatched(expected: list[str], stdout: str) -> list[str]:
    """The expected lines not found in order in ``stdout``."""
    lines = stdout.splitlines()
    at, missing = 0, []
    for want in expected:
        hit = next((i for i in range(at, len(lines)) if _line_matches(want, lines[i])), None)
        if hit is None:
            missing.append(want)
        else:
            at = hit + 1
    return missing


def test_matching_rules():
    assert _line_matches("93 False", "93 False")
    assert not _line_matches("93 False", "93 None")
    assert not _line_matches("93 False", "94 False")
    assert _line_matches("1.5e-3 True ...", "0.0015203976555423523 True 8.57e-07")
    assert not _line_matches("1.5e-3 True ...", "0.0016 True 8.57e-07")
    assert not _line_matches("1.5e-3 True ...", "0.0015 True")  # `...` is at least one token
    assert _line_matches("0.70 15 {...}", "0.7 15 {'objective': 0.47, 'nonzeros': 15}")
    assert not _line_matches("0.70 15 {...}", "0.7 15 [0.47]")
    assert _line_matches("((0, 1, 0), ... (5, 0, 0)) 173", "((0, 1, 0), (1, 2, 0), (5, 0, 0)) 173")
    assert _line_matches("+0.98  colour == 'red'", "+0.98  colour == 'red'")
    assert not _line_matches("+0.98  colour == 'red'", "+0.94  colour == 'red'")
    assert _unmatched(["1", "3"], "1\n2\n3\n") == []
    assert _unmatched(["3", "1"], "1\n2\n3\n") == ["1"]
    stderr = "/x/ex.py:6: MoleculeSkippedWarning: 1 of 3\n  ds = f()\nINFO - x: y\n"
    assert _warnings(stderr) == [("MoleculeSkippedWarning", "1 of 3")]


def test_every_example_declares_what_it_needs():
    assert [b.section for b in BLOCKS][:1] == ["Quickstart (Python)"]
    assert {"Scaling out (Dask)", "Chemistry quickstart"} <= {b.section for b in BLOCKS}
    for block in BLOCKS:
        assert block.needs[:1] == ["."] or block.needs[0].startswith(".["), block.needs


@pytest.mark.parametrize("block", BLOCKS, ids=_slug)
def test_readme_example_runs_as_a_script(fresh, block):
    fresh.pip_install(block.needs)
    work = fresh.root / _slug(block)  # beside ../shared, like a checkout
    work.mkdir()
    script = work / "example.py"
    script.write_text(block.code, encoding="utf-8")
    proc = fresh.run([str(fresh.python), str(script)], work)
    assert proc.returncode == 0, (
        f"README line {block.line} ({block.section}) failed as a script:\n"
        f"{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    )
    assert block.expected or block.section in CHECKS, "an example shows what it prints"
    missing = _unmatched(block.expected, proc.stdout)
    assert not missing, f"printed:\n{proc.stdout}\nnot found in order: {missing}"
    checks = CHECKS.get(block.section, {})
    expected_warnings = checks.get("warnings", {})
    printed = _warnings(proc.stderr)
    for category, message in expected_warnings.items():
        assert any(c == category and message in m for c, m in printed), (category, message)
    tolerated = {**expected_warnings, **checks.get("tolerated", {})}
    assert [(c, m) for c, m in printed if tolerated.get(c, "\0") not in m] == []
    for name, head in checks.get("files", {}).items():
        assert (work / name).read_bytes().startswith(head), name


def test_install_section_lists_every_extra():
    install = re.search(r"^## Install\n(.*?)^## ", README, re.M | re.S)
    assert install
    listed = re.findall(r"^- `([\w-]+)` \(", install[1], re.M)
    assert sorted(listed) == sorted(EXTRAS)
