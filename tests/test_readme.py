"""The README's examples run and print what the README says."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import expectviz as ev

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_first_look_examples_hold() -> None:
    blocks = python_blocks()
    assert blocks, "the README has no python example"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {"ev": ev}, f"README block {i}", str(README), 0)
        runner.run(test)
    assert runner.failures == 0


def test_error_examples_are_the_real_messages() -> None:
    text = README.read_text(encoding="utf-8")
    for source, error in (("max(1, 2", ev.TreeSyntaxError), ("chance(0.5: 1, 0.4: 2)", ev.InvalidTreeError)):
        try:
            ev.parse(source)
        except error as exc:
            assert f"{type(exc).__name__}: {exc}" in text
        else:  # pragma: no cover
            raise AssertionError(f"{source!r} parsed")


def test_notation_examples_parse() -> None:
    block = re.search(
        r"These all parse, exactly as written:\n\n```\n(.*?)```", README.read_text(encoding="utf-8"), re.S
    )
    assert block is not None
    lines = [line for line in block.group(1).splitlines() if line.strip()]
    assert len(lines) == 6
    for line in lines:
        ev.parse(line)
