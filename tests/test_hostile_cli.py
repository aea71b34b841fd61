"""Hostile input to the command line: every failure is one line on stderr and exit status 2, never a traceback.

Each case runs ``expectviz.cli.main(argv)`` in a forked child under a memory and time cap (see ``hostile.py``),
with stdout and stderr captured through strict UTF-8 text wrappers, so a character that cannot be encoded would
fail the case.  The call asserts the outcome itself; the case then expects it to succeed (``error=None``).
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hostile import Case, run_case

from expectviz.cli import main
from expectviz.options import options

Setup = Callable[[Path], None]


def fails_in_one_line(argv: list[str], words: tuple[str, ...] = (), setup: Setup | None = None) -> None:
    """Run the CLI on ``argv`` and assert: status 2, one non-empty line on stderr, the ``words`` in it, no stdout.

    ``{tmp}`` in an argument is replaced by a fresh temporary directory, which ``setup`` fills first.
    """
    with tempfile.TemporaryDirectory() as tmp:
        if setup is not None:
            setup(Path(tmp))
        argv = [arg.replace("{tmp}", tmp) for arg in argv]
        out, err = io.BytesIO(), io.BytesIO()
        stdout = io.TextIOWrapper(out, encoding="utf-8", errors="strict", write_through=True)
        stderr = io.TextIOWrapper(err, encoding="utf-8", errors="strict", write_through=True)
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                status: object = main(argv)
            except SystemExit as exc:
                status = exc.code
        text, printed = err.getvalue().decode("utf-8"), out.getvalue().decode("utf-8")
    lines = text.splitlines()
    problems = []
    if status != 2:
        problems.append(f"exit status {status!r}, not 2")
    if len(lines) != 1 or not lines[0].strip() or not text.endswith("\n"):
        problems.append(f"{len(lines)} lines on stderr, not one")
    elif not lines[0].startswith("expectviz: error: "):
        problems.append("the line does not start with 'expectviz: error: '")
    if "Traceback" in text or "internal error" in text:
        problems.append("an internal error")
    if printed:
        problems.append("output on stdout")
    missing = [w for w in words if w.lower() not in text.lower()]
    if missing:
        problems.append(f"the message lacks {missing}")
    if problems:
        raise AssertionError(f"{'; '.join(problems)}: stderr {text[:2000]!r}, stdout {printed[:500]!r}")


def cli_case(
    id: str, argv: list[str], words: tuple[str, ...] = (), *, setup: Setup | None = None, seconds: float = 20.0
) -> Case:
    """A case whose call must fail in one line with status 2."""
    return Case(id, lambda: fails_in_one_line(argv, words, setup), None, seconds=seconds)


def write(name: str, data: bytes) -> Setup:
    """A setup that writes ``data`` to ``name`` in the temporary directory."""

    def setup(tmp: Path) -> None:
        (tmp / name).write_bytes(data)

    return setup


def with_limit(limit: int, then: Setup | None = None) -> Setup:
    """A setup that lowers ``options.max_input_bytes`` (the case runs in a forked child, so it does not leak)."""

    def setup(tmp: Path) -> None:
        options.max_input_bytes = limit
        if then is not None:
            then(tmp)

    return setup


def sparse(name: str, size: int) -> Setup:
    """A setup that makes a sparse file of ``size`` bytes: it takes no disk space and must never be read."""

    def setup(tmp: Path) -> None:
        with open(tmp / name, "wb") as handle:
            handle.truncate(size)

    return setup


def symlink_loop(tmp: Path) -> None:
    (tmp / "a").symlink_to(tmp / "b")
    (tmp / "b").symlink_to(tmp / "a")


def unreadable(tmp: Path) -> None:
    (tmp / "secret.txt").write_text("max(1, 2)")
    (tmp / "secret.txt").chmod(0)


CHANCE = "max(chance(1, 2), 3)"

CASES = [
    # argparse: every kind of argument error
    cli_case("no-command", [], ("required", "COMMAND", "--help")),
    cli_case("unknown-command", ["bogus"], ("invalid choice", "'bogus'")),
    cli_case("unknown-option", ["solve", "coin-flip", "--nope"], ("unrecognized arguments", "--nope")),
    cli_case("unknown-option-before-command", ["--nope", "solve", "coin-flip"], ("--nope",)),
    cli_case("missing-tree", ["solve"], ("required", "tree", "expectviz solve --help")),
    cli_case("missing-option-value", ["solve", "coin-flip", "--depth"], ("--depth", "expected one argument")),
    cli_case("list-takes-no-tree", ["list", "coin-flip"], ("unrecognized",)),
    cli_case("depth-not-a-number", ["solve", "coin-flip", "--depth", "x"], ("--depth", "'x'", "whole number")),
    cli_case("depth-negative", ["solve", "coin-flip", "--depth", "-1"], ("--depth", "0 or more")),
    cli_case("depth-huge-digits", ["solve", "coin-flip", "--depth", "9" * 5000], ("--depth",)),
    cli_case("unknown-algorithm", ["solve", "coin-flip", "-a", "negamax"], ("invalid choice", "negamax", "star2")),
    cli_case("bounds-one-value", ["solve", "coin-flip", "-a", "star1", "--bounds", "1"], ("--bounds", "2 arguments")),
    cli_case("bounds-not-numbers", ["solve", "coin-flip", "-a", "star1", "--bounds", "x", "y"], ("--bounds", "'x'")),
    cli_case("bounds-nan", ["solve", "coin-flip", "-a", "star1", "--bounds", "nan", "1"], ("--bounds", "'nan'")),
    cli_case(
        "bounds-huge-exponent", ["solve", "coin-flip", "-a", "star1", "--bounds", "-1e9999", "1e9999"], ("--bounds",)
    ),
    cli_case("bounds-reversed", ["solve", "coin-flip", "-a", "star1", "--bounds", "5", "1"], ("L < U",)),
    cli_case("bounds-too-narrow", ["solve", "aima-star-exercise", "-a", "star1", "--bounds", "0", "1"], ("bounds",)),
    cli_case("step-not-a-number", ["render", "coin-flip", "--step", "x", "-o", "{tmp}/d.svg"], ("--step",)),
    cli_case("step-negative", ["render", "coin-flip", "--step", "-1", "-o", "{tmp}/d.svg"], ("--step", "0 or more")),
    cli_case("step-out-of-range", ["render", "coin-flip", "--step", "999", "-o", "{tmp}/d.svg"], ("999",)),
    cli_case("render-without-output", ["render", "coin-flip"], ("-o/--output",)),
    cli_case("render-bad-extension", ["render", "coin-flip", "-o", "{tmp}/d.bmp"], (".bmp", ".svg")),
    cli_case("render-no-extension", ["render", "coin-flip", "-o", "{tmp}/d"], ("without extension",)),
    cli_case("animate-bad-extension", ["animate", "coin-flip", "-o", "{tmp}/d.svg"], (".svg", ".html")),
    cli_case(
        "output-in-missing-directory",
        ["render", "coin-flip", "-o", "{tmp}/no/such/" + os.fsdecode(b"\xff.svg")],
        ("no such file", "\\udcff.svg"),
    ),
    cli_case("output-unencodable-name", ["render", "coin-flip", "-o", "{tmp}/\ud800.svg"], ("file name",)),
    # trees given as text
    cli_case("syntax-error", ["solve", "max(1, 2"], ("line 1, column 9",)),
    cli_case("probabilities-over-1", ["solve", "chance(0.5: 1, 0.6: 2)"], ("probabilities",)),
    cli_case("negative-probability", ["solve", "chance(-0.5: 1, 1.5: 2)"], ("probabilit",)),
    cli_case("duplicate-move-labels", ["solve", "max(a: 1, a: 2)"], ("duplicate",)),
    cli_case("exponent-too-large", ["solve", "max(1e99999, 2)"], ("line 1",)),
    cli_case("too-many-digits", ["solve", "max(" + "9" * 10_001 + ", 1)"], ("line 1",)),
    cli_case("divide-by-zero", ["solve", "max(1/0, 2)"], ("1/0",)),
    cli_case("deep-unclosed", ["solve", "max(" * 100_000], ("close it",)),
    cli_case("million-brackets", ["solve", "(" * 1_000_000], ("line 1, column 1",)),
    cli_case("no-tree-at-all", ["solve", "nosuch"], ("textbook tree", "coin-flip")),
    cli_case("empty-text", ["solve", ""], ("neither",)),
    cli_case("nul-character", ["solve", "max(1,\x00 2)"], ("\\x00",)),
    cli_case("quoted-surrogate", ["solve", 'max("\ud800" 1)'], ("line 1",)),
    cli_case("argv-surrogate", ["solve", os.fsdecode(b"max(\xff: 1, 2)")], ("\\udcff",)),
    cli_case("surrogate-not-a-tree", ["solve", os.fsdecode(b"\xff\xfe")], ("neither",)),
    cli_case(
        "text-over-size-limit",
        ["solve", "max(" + "1, " * 500 + "1)"],
        ("1,000", "max_input_bytes"),
        setup=with_limit(1000),
    ),
    # algorithm and tree do not fit
    cli_case("star1-without-bounds", ["solve", CHANCE, "-a", "star1"], ("star1", "--bounds")),
    cli_case("alphabeta-on-chance", ["solve", CHANCE, "-a", "alphabeta"], ("expectiminimax",)),
    cli_case(
        "star2-irregular", ["solve", "max(chance(1, min(2, 3)), 1)", "-a", "star2", "--bounds", "0", "5"], ("regular",)
    ),
    cli_case("depth-without-evaluations", ["solve", "max(min(1, 2), 3)", "--depth", "1"], ("static evaluation",)),
    # files
    cli_case("directory", ["solve", "{tmp}"], ("is a directory",)),
    cli_case("not-utf8", ["solve", "{tmp}/t.txt"], ("not UTF-8", "0xff"), setup=write("t.txt", b"max(\xff, 1)")),
    cli_case(
        "utf16-file", ["solve", "{tmp}/t.txt"], ("not UTF-8",), setup=write("t.txt", "max(1, 2)".encode("utf-16"))
    ),
    cli_case("file-syntax-error", ["solve", "{tmp}/t.txt"], ("t.txt", "line 2"), setup=write("t.txt", b"max(1,\n2")),
    cli_case("file-json-broken", ["solve", "{tmp}/t.json"], ("t.json", "JSON"), setup=write("t.json", b"{")),
    cli_case(
        "file-json-wrong-shape",
        ["solve", "{tmp}/t.json"],
        ("children",),
        setup=write("t.json", b'{"kind": "max", "children": 5}'),
    ),
    cli_case(
        "file-json-nan",
        ["solve", "{tmp}/t.json"],
        ("not finite",),
        setup=write("t.json", b'{"kind": "max", "children": [{"kind": "leaf", "value": NaN}]}'),
    ),
    cli_case(
        "file-json-deep",
        ["solve", "{tmp}/t.json"],
        ("t.json",),
        setup=write("t.json", b'{"kind": "max", "children": [' * 100_000),
    ),
    cli_case(
        "file-over-size-limit",
        ["solve", "{tmp}/big.txt"],
        ("big.txt", "2,000 bytes", "1,000 bytes"),
        setup=with_limit(1000, write("big.txt", b"max(1, 2)" + b" " * 1991)),
    ),
    cli_case(
        "sparse-file-of-3-GB",
        ["solve", "{tmp}/huge.txt"],
        ("huge.txt", "3,000,000,000 bytes", f"{options.max_input_bytes:,} bytes"),
        setup=sparse("huge.txt", 3_000_000_000),
    ),
    cli_case("endless-device", ["solve", "/dev/zero"], ("/dev/zero", "more than 1,000 bytes"), setup=with_limit(1000)),
    cli_case("empty-device", ["solve", "/dev/null"], ("/dev/null", "line 1")),
    cli_case("symlink-loop", ["solve", "{tmp}/a"], ("cannot read", "symbolic links"), setup=symlink_loop),
]
if os.geteuid() != 0:  # root reads anything
    CASES.append(cli_case("unreadable-file", ["solve", "{tmp}/secret.txt"], ("permission",), setup=unreadable))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_fails_in_one_line(case: Case) -> None:
    run_case(case)


def test_the_corpus_is_large_and_distinct() -> None:
    assert len(CASES) >= 25
    assert len({c.id for c in CASES}) == len(CASES)


def test_the_check_itself_catches_a_traceback() -> None:
    """The assertion wrapper rejects a run that succeeds, so a passing case means a one-line failure."""
    with pytest.raises(AssertionError, match="exit status 0"):
        fails_in_one_line(["list"])
