"""The wheel stands alone: installed on a machine without Rust, away from this checkout, it works.

The abi3 wheel of this checkout (``tests/freshenv.py`` builds it as ``make wheel`` does, with
the quicker ``dev-release`` profile) goes into a fresh virtual environment with its run-time
dependencies alone (the ``bare_env`` fixture of ``tests/conftest.py``). That environment's
``PATH`` holds no ``cargo`` or ``rustc`` and no folder of this checkout, and every process runs
in a folder outside it. There ``graphsparse demo`` runs to the end (once per session: the
README's first-command test in ``tests/test_readme_scripts.py`` reads the same run) and a short
script checks numbers the compiled module computes against values known by construction or
computed naively in the script itself.
"""

from __future__ import annotations

import email.parser
import re
import shutil
import tomllib
import zipfile

from tests.freshenv import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# name-version-pythontag-abitag-platform.whl (no build tag)
WHEEL_NAME = re.compile(
    r"graphsparse-(?P<version>[^-]+)-(?P<python>[^-]+)-(?P<abi>[^-]+)-(?P<platform>[^-]+)\.whl"
)


def test_the_wheel_is_abi3_for_python_3_11_and_later(wheel):
    m = WHEEL_NAME.fullmatch(wheel.name)
    assert m, wheel.name
    assert (m["python"], m["abi"]) == ("cp311", "abi3"), wheel.name
    assert PYPROJECT["project"]["requires-python"] == ">=3.11"
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = email.parser.Parser().parsestr(zf.read(meta).decode())
        tags = next(n for n in names if n.endswith(".dist-info/WHEEL"))
        wheel_info = email.parser.Parser().parsestr(zf.read(tags).decode())
    # one extension module, built against the stable ABI, with its stub and marker
    modules = [n for n in names if n.endswith(".so")]
    assert modules == ["graphsparse/_graphsparse.abi3.so"], modules
    assert {"graphsparse/_graphsparse.pyi", "graphsparse/py.typed"} <= set(names)
    assert wheel_info.get_all("Tag") == [f"cp311-abi3-{m['platform']}"]
    assert wheel_info["Root-Is-Purelib"] == "false"
    # the wheel declares the bounds pyproject.toml declares (those `make test-oldest` tests)
    assert metadata["Requires-Python"] == ">=3.11"
    run_time = [r for r in metadata.get_all("Requires-Dist") if "extra ==" not in r]
    assert sorted(run_time) == sorted(PYPROJECT["project"]["dependencies"])


def test_the_environment_has_no_rust_toolchain_and_no_checkout(bare_env):
    code = (
        "import shutil, sys, graphsparse\n"
        "print(shutil.which('cargo'), shutil.which('rustc'), shutil.which('rustup'))\n"
        "print(graphsparse.__file__)\n"
        "print(sys.prefix)\n"
    )
    work = bare_env.root / "which"
    work.mkdir()
    assert not work.resolve().is_relative_to(ROOT)
    proc = bare_env.run([str(bare_env.python), "-c", code], work)
    assert proc.returncode == 0, proc.stderr
    tools, module, prefix = proc.stdout.splitlines()
    assert tools == "None None None"
    # graphsparse is the installed wheel, not this checkout's editable build
    assert module.startswith(prefix) and "site-packages" in module, module
    assert not module.startswith(str(ROOT)), module
    # while this process, which built the wheel, has cargo on its PATH: the check is not vacuous
    assert shutil.which("cargo") is not None


def test_demo_runs_outside_the_source_tree(demo_run):
    proc, work = demo_run
    assert not work.resolve().is_relative_to(ROOT)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    assert "demo finished in" in proc.stdout
    assert "Traceback" not in proc.stderr


SMOKE = r"""
import networkx as nx
import numpy as np
from networkx.algorithms import isomorphism

import graphsparse as gs
from graphsparse.datasets import make_subgraph_classification

rng = np.random.default_rng(20261128)


# -- projections: against the sort-and-threshold formula, computed here row by row
def simplex(v, r):
    u = np.sort(v)[::-1]
    excess = np.cumsum(u) - r
    k = np.arange(1, v.size + 1)
    rho = k[u - excess / k > 0][-1]
    return np.maximum(v - excess[rho - 1] / rho, 0.0)


V = rng.normal(scale=3.0, size=(40, 13))
for radius in (1.0, 2.5):
    got = gs.project_simplex(V, radius)
    want = np.array([simplex(v, radius) for v in V])
    assert np.abs(got - want).max() <= 1e-12, np.abs(got - want).max()
    assert np.abs(got.sum(axis=1) - radius).max() <= 1e-12
    one = gs.project_simplex(V[3], radius)
    assert np.array_equal(one, got[3])
    ball = gs.project_l1_ball(V, radius)
    want = np.sign(V) * np.array([simplex(np.abs(v), radius) for v in V])
    assert np.abs(ball - want).max() <= 1e-12
inside = np.array([0.25, 0.0, 0.75])
assert np.array_equal(gs.project_simplex(inside), inside)
print("projections ok")

# -- PCST: a path 0-1-2 worth 20 for 2, and node 3 behind an edge of 100 for a prize of 1
edges = np.array([[0, 1], [1, 2], [2, 3]])
prizes = np.array([10.0, 0.0, 10.0, 1.0])
costs = np.array([1.0, 1.0, 100.0])
nodes, kept = gs.pcst(edges, prizes, costs, root=-1, num_clusters=1, pruning="gw")
assert nodes.dtype == np.int64 and kept.dtype == np.int64
assert sorted(nodes.tolist()) == [0, 1, 2] and sorted(kept.tolist()) == [0, 1], (nodes, kept)
# rooted at 3, reaching the path costs 102 for 20: the root alone
nodes, kept = gs.pcst(edges, prizes, costs, root=3, num_clusters=1, pruning="gw")
assert nodes.tolist() == [3] and kept.tolist() == [], (nodes, kept)
print("pcst ok")

# -- gSpan on a generator: every pattern's support is what networkx's matcher counts
data = make_subgraph_classification(n_samples=30, random_state=1)
graphs = [data.graph(i) for i in range(len(data))]
result = gs.mine_subgraphs(data, min_support=5, max_size=3, n_jobs=2)
same = lambda a, b: a["label"] == b["label"]  # noqa: E731
assert len(result) > 50, len(result)
for pattern in result:
    g = pattern.to_networkx()
    hits = [
        i
        for i, host in enumerate(graphs)
        if isomorphism.GraphMatcher(host, g, node_match=same, edge_match=same)
        .subgraph_is_monomorphic()
    ]
    assert pattern.graph_ids.tolist() == hits, (str(pattern), pattern.graph_ids, hits)
    assert pattern.support == len(hits) >= 5
# complete on single edges: every labelled edge in at least 5 graphs is a pattern
counts = {}
for host in graphs:
    seen = set()
    for u, v, e in host.edges(data=True):
        a, b = sorted((host.nodes[u]["label"], host.nodes[v]["label"]))
        seen.add((a, e["label"], b))
    for key in seen:
        counts[key] = counts.get(key, 0) + 1
singles = set()
for pattern in result:
    if pattern.n_edges == 1:
        g = pattern.to_networkx()
        (u, v, e), = g.edges(data=True)
        a, b = sorted((g.nodes[u]["label"], g.nodes[v]["label"]))
        singles.add((a, e["label"], b))
assert singles == {k for k, c in counts.items() if c >= 5}, singles
# no pattern twice, and the same patterns on one thread
for i, p in enumerate(result):
    for q in result[i + 1 :]:
        if (p.n_vertices, p.n_edges) == (q.n_vertices, q.n_edges):
            assert not nx.is_isomorphic(
                p.to_networkx(), q.to_networkx(), node_match=same, edge_match=same
            ), (str(p), str(q))
serial = gs.mine_subgraphs(data, min_support=5, max_size=3, n_jobs=1)
assert [str(p) for p in serial] == [str(p) for p in result]
print("mining ok", len(result))
"""


def test_numbers_in_the_fresh_environment(bare_env):
    work = bare_env.root / "smoke"
    work.mkdir()
    script = work / "smoke.py"
    script.write_text(SMOKE, encoding="utf-8")
    proc = bare_env.run([str(bare_env.python), "-W", "error", str(script)], work)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    lines = proc.stdout.splitlines()
    assert lines[:2] == ["projections ok", "pcst ok"], lines
    assert re.fullmatch(r"mining ok \d+", lines[2]), lines
