"""The command line: solve, list, help, and one-line errors with exit status 2 (130 after Ctrl-C)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import expectviz as ev
import expectviz.cli as cli
from expectviz.cli import main
from expectviz.options import options


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


def test_help_prints_in_full_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "--help")
    assert status == 0 and err == ""
    assert out.startswith("usage: expectviz") and "solve" in out and "animate" in out
    status, out, _ = run(capsys, "solve", "--help")
    assert status == 0 and "--bounds L U" in out and "--trace" in out


def test_algorithm_choices_are_the_package_registry(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "solve", "--help")
    assert "{" + ",".join(ev.ALGORITHMS) + "}" in out
    status, _, err = run(capsys, "solve", "coin-flip", "-a", "negamax")
    assert status == 2 and ", ".join(repr(name) for name in ev.ALGORITHMS) in err


@pytest.mark.parametrize(
    "args, fragment",
    [
        ([], "required: COMMAND (see expectviz --help)"),
        (["bogus"], "invalid choice: 'bogus'"),
        (
            ["solve", "coin-flip", "--depth", "x"],
            "argument --depth: 'x' is not a whole number (see expectviz solve --help)",
        ),
        (["render", "coin-flip", "--step", "-1", "-o", "d.svg"], "argument --step: must be 0 or more"),
        (["solve", "coin-flip", "-a", "star1", "--bounds", "1e9999", "2"], "'1e9999' is not a bound"),
    ],
)
def test_argument_errors_are_one_line(args: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("expectviz: error: ") and fragment in err
    assert "usage:" not in err


def test_negative_bounds_reach_star1(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "coin-flip", "-a", "star1", "--bounds", "-1/2", "+inf", "--json")
    assert status == 0 and json.loads(out)["value"] == 10


def test_file_over_the_size_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.txt"
    big.write_text("max(1, 2)" + " " * 91)
    monkeypatch.setattr(options, "max_input_bytes", 99)
    status, _, err = run(capsys, "solve", str(big))
    assert status == 2
    assert (
        err == f"expectviz: error: {str(big)!r} is 100 bytes, over the limit of 99 bytes for a tree file "
        "(expectviz.options.max_input_bytes)\n"
    )
    monkeypatch.setattr(options, "max_input_bytes", 100)
    assert run(capsys, "solve", str(big))[0] == 0


def test_files_a_directory_and_non_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "solve", str(tmp_path))
    assert status == 2 and "is a directory" in err and err.count("\n") == 1
    latin = tmp_path / "latin.txt"
    latin.write_bytes('max("café": 1, b: 2)'.encode("latin-1"))
    status, _, err = run(capsys, "solve", str(latin))
    assert status == 2 and "is not UTF-8 text: byte 0xe9 at offset 8" in err
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbfmax(1, 2)")
    assert run(capsys, "solve", str(bom), "--json")[0] == 0


def test_huge_exact_values_print(capsys: pytest.CaptureFixture[str]) -> None:
    big = "9" * 400
    status, out, _ = run(capsys, "solve", f"max({big}/7, 1)", "--json")
    assert status == 0 and json.loads(out)["value"] == f"{big}/7"


def strict_streams() -> tuple[io.BytesIO, io.BytesIO, io.TextIOWrapper, io.TextIOWrapper]:
    out, err = io.BytesIO(), io.BytesIO()
    return (
        out,
        err,
        io.TextIOWrapper(out, encoding="utf-8", errors="strict", write_through=True),
        io.TextIOWrapper(err, encoding="utf-8", errors="strict", write_through=True),
    )


@pytest.mark.parametrize("name", ['"\\ud800"', '"\\udcff"'])
def test_lone_surrogates_print_as_escapes(name: str) -> None:
    out, err, stdout, stderr = strict_streams()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = main(["solve", f"max({name}: 2, b: 1)", "--trace"])
    assert status == 0 and err.getvalue() == b""
    text = out.getvalue().decode("ascii")
    assert "best move:        " + name.strip('"') in text
    assert stdout.errors == "strict"  # the streams are put back as they were


def test_an_ascii_terminal_gets_escapes() -> None:
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="ascii", errors="strict", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="ascii", errors="strict", write_through=True)
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        assert main(["solve", 'max("café": 2, b: 1)']) == 0
        assert main(["solve", "café"]) == 2
    assert b"best move:        caf\\xe9" in out.getvalue()
    assert err.getvalue() == b"expectviz: error: 'caf\\xe9' is neither tree text, a file, a textbook tree " + (
        b"(those are: " + ", ".join(ev.TEXTBOOK).encode() + b") "
        b"nor a game (" + ", ".join(ev.games.GAMES).encode() + b")\n"
    )


def test_ctrl_c_is_one_line_and_status_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "run_algorithm", interrupted)
    assert run(capsys, "solve", "coin-flip") == (130, "", "expectviz: interrupted\n")


def test_an_unexpected_exception_is_still_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("something\nwent wrong")

    monkeypatch.setattr(cli, "run_algorithm", broken)
    status, _, err = run(capsys, "solve", "coin-flip")
    assert (status, err) == (
        2,
        "expectviz: error: internal error, please report it: RuntimeError: something went wrong\n",
    )


def test_a_missing_drawing_package_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)  # as if Pillow were not installed
    status, _, err = run(capsys, "animate", "coin-flip", "-o", str(tmp_path / "a.gif"))
    assert (status, err) == (2, "expectviz: error: drawing needs the PIL package: pip install 'expectviz[viz]'\n")


def expectviz(*args: str | bytes, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "expectviz", *args], capture_output=True, timeout=60, env=env)


def test_module_entry_point() -> None:
    done = expectviz("solve", "lecture-coin-flip-chance", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["value"] == 54.5
    helped = expectviz("--help")
    assert helped.returncode == 0 and helped.stdout.startswith(b"usage: expectviz") and helped.stderr == b""


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "max((("],
        ["solve", "coin-flip", "--depth", "x"],
        [],
        ["render", "coin-flip", "-o", "d.bmp"],
    ],
)
def test_module_errors_are_one_line_and_status_2(args: list[str]) -> None:
    bad = expectviz(*args)
    assert bad.returncode == 2 and bad.stdout == b""
    assert bad.stderr.count(b"\n") == 1 and bad.stderr.startswith(b"expectviz: error: ")


def test_module_prints_undecodable_argv_bytes() -> None:
    """Invalid UTF-8 in argv arrives as lone surrogates (os.fsdecode) and prints as escapes."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = expectviz("solve", b'max("\xff": 2, b: 1)', env=env)
    assert done.returncode == 0 and b"best move:        \\udcff" in done.stdout and done.stderr == b""
    bad = expectviz("solve", b"max(\xff: 2)", env=env)
    assert bad.returncode == 2 and bad.stderr.count(b"\n") == 1 and b"\\udcff" in bad.stderr


def test_module_stops_quietly_when_the_reader_goes_away(tmp_path: Path) -> None:
    """``expectviz solve ... --trace | head -1``: no traceback, no message."""
    tree = tmp_path / "wide.txt"
    tree.write_text("max(" + ", ".join(f"min({i}, {i + 1})" for i in range(20_000)) + ")")
    with subprocess.Popen(
        [sys.executable, "-m", "expectviz", "solve", str(tree), "-a", "minimax", "--trace"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline() == b"algorithm:        minimax\n"
        process.stdout.close()
        error = process.stderr.read()
        status = process.wait(timeout=60)
    assert (status, error) == (2, b"")
