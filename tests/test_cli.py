"""The command line: help everywhere, mine on files and folders, demo on built-in data."""

from __future__ import annotations

import subprocess
import sys

import pytest

import graphsparse as gs
from graphsparse.cli import main


def test_help_everywhere(capsys):
    for argv in (["--help"], ["mine", "--help"], ["demo", "--help"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 0
        assert "usage: graphsparse" in capsys.readouterr().out
    assert main([]) == 0


def test_mine_gspan_file_and_writes_patterns(tmp_path, capsys):
    ds = gs.datasets.make_subgraph_classification(40, random_state=4)
    path = tmp_path / "db.gsp"
    gs.write_gspan(ds, path)
    out_file = tmp_path / "patterns.gsp"
    assert (
        main(["mine", str(path), "--min-support", "0.25", "--max-size", "3", "-o", str(out_file)])
        == 0
    )
    out = capsys.readouterr().out
    expected = len(gs.mine_subgraphs(ds, 10, max_size=3))
    assert f"{expected} frequent connected patterns" in out
    assert out_file.read_text().count("t # ") == expected


def test_mine_tu_folder(data_dir, capsys):
    assert main(["mine", str(data_dir / "tu" / "MUTAG"), "--min-support", "56"]) == 0
    assert "638 frequent connected patterns" in capsys.readouterr().out


def test_mine_says_whether_a_budget_stopped_it(data_dir, capsys):
    mutag = str(data_dir / "tu" / "MUTAG")
    assert main(["mine", mutag, "--min-support", "56"]) == 0
    assert "; complete" in capsys.readouterr().out
    with pytest.warns(gs.exceptions.TruncatedSearchWarning):
        assert main(["mine", mutag, "--min-support", "56", "--max-nodes", "5"]) == 0
    assert "STOPPED by max_nodes budget" in capsys.readouterr().out


def test_mine_reports_bad_input_without_traceback(tmp_path, capsys):
    bad = tmp_path / "bad.gsp"
    bad.write_text("t # 0\nv 1 C\ne 1 2 1\n")
    assert main(["mine", str(bad), "--min-support", "1"]) == 2
    err = capsys.readouterr().err
    assert "bad.gsp:3:" in err and "Traceback" not in err
    assert main(["mine", str(tmp_path / "missing.gsp"), "--min-support", "1"]) == 2


def test_demo_runs_as_a_program_over_every_area(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "graphsparse", "demo", "--n-samples", "60"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "mined" in out
    for area in ("GraphDA", "PCST-GW", "simplex", "NMSE", "OTC kept", "WL subtree", "rules in"):
        assert area in out, area
    png = tmp_path / "graphsparse-demo.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
