"""The command line: solve, list, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from expectviz.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_solve_json_fig_5_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "solve", "aima-fig-5.2", "--json")
    assert status == 0 and err == ""
    assert json.loads(out) == {
        "algorithm": "alphabeta",
        "value": 3,
        "best_move": "a1",
        "nodes_visited": 11,
        "leaves_evaluated": 7,
        "cutoffs": 1,
    }


def test_solve_each_algorithm(capsys: pytest.CaptureFixture[str]) -> None:
    expected = {"minimax": (13, 9), "alphabeta": (11, 7)}
    for algorithm, (nodes, leaves) in expected.items():
        status, out, _ = run(
            capsys, "solve", "max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))", "-a", algorithm, "--json"
        )
        data = json.loads(out)
        assert status == 0 and (data["nodes_visited"], data["leaves_evaluated"]) == (nodes, leaves)
    status, out, _ = run(capsys, "solve", "aima-star-exercise", "-a", "star1", "--json")
    assert json.loads(out)["leaves_evaluated"] == 5 and json.loads(out)["value"] == 1.5
    status, out, _ = run(capsys, "solve", "star2-beats-star1", "-a", "star2", "--json")
    assert json.loads(out)["leaves_evaluated"] == 3
    status, out, _ = run(capsys, "solve", "max(chance(1, 2), 3)", "-a", "star1", "--bounds", "-inf", "inf", "--json")
    assert json.loads(out)["value"] == 3


def test_solve_text_and_trace(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "coin-flip", "--trace")
    assert status == 0
    assert "value:            10" in out and "best move:        right" in out
    assert "backup the root = 10" in out


def test_solve_reads_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "tree.txt"
    text.write_text("# a comment\nmax(\n  min(1, 2),\n  3)\n")
    status, out, _ = run(capsys, "solve", str(text), "--json")
    assert status == 0 and json.loads(out)["value"] == 3
    as_json = tmp_path / "tree.json"
    as_json.write_text('{"kind": "max", "children": [{"kind": "leaf", "value": 4}]}')
    status, out, _ = run(capsys, "solve", str(as_json), "--json")
    assert status == 0 and json.loads(out)["value"] == 4


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["solve", "max(1, 2"], "line 1, column 9"),
        (["solve", "nosuch"], "textbook tree"),
        (["solve", "max(chance(1, 2), 3)", "-a", "alphabeta"], "expectiminimax"),
        (["solve", "coin-flip", "-a", "star1"], "--bounds"),
        (["solve", "max(min(1, 2), 3)", "--depth", "1"], "static evaluation"),
        (["solve", "max(1, 2)", "--depth", "-1"], "--depth"),
        (["solve", "aima-star-exercise", "-a", "star1", "--bounds", "0", "1"], "outside the bounds"),
        (["solve", "max(chance(1, min(2, 3)), 1)", "-a", "star2", "--bounds", "0", "5"], "regular"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *args)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("expectviz: error: ") and fragment in err
    assert "Traceback" not in err


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "list")
    assert status == 0 and "aima-fig-5.2" in out and "star2-beats-star1" in out


def test_module_entry_point() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "expectviz", "solve", "lecture-coin-flip-chance", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["value"] == 54.5
    bad = subprocess.run(
        [sys.executable, "-m", "expectviz", "solve", "max((("], capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
