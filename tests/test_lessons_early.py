"""Lessons 00-04 and docs/notation.md: the facts they must keep saying, their exercises, and their prompts.

Read from the stored notebooks (as tests/test_notebooks.py does): each lesson's checked outputs hold the values,
moves, counts and pruned leaves of its algorithm, so that a behavioural change fails nbval on it; the corrected
claims stay corrected; every exercise follows the student-edition convention (an ``answer`` cell whose first line is
``answer = ...  # your answer``, a ``check`` that says "correct" for the key's answer, a folded ``solution``); every
player is preceded by a prompt to predict.  One test runs the lessons with their answers blanked, as the student
edition does, and every check must then say "not answered yet".
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path
from typing import Any

import pytest

import expectviz as ev

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
NOTATION = ROOT / "docs" / "notation.md"
EARLY = ("00-", "01-", "02-", "03-", "04-")

nbformat = pytest.importorskip("nbformat")

ANSWER_LINE = re.compile(r"^answer = (?P<value>.+?)  # your answer$")


def lesson(prefix: str) -> Path:
    found = sorted(NOTEBOOK_DIR.glob(f"{prefix}*.ipynb"))
    assert found, f"no notebooks/{prefix}*.ipynb"
    return found[0]


def load(path: Path) -> Any:
    return nbformat.read(path, as_version=4)


def tags(cell: Any) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def text_of(cell: Any) -> str:
    """A code cell's stored printed text and plain-text results, joined."""
    parts = []
    for output in cell.get("outputs", []):
        parts.append(output.get("text", ""))
        parts.append(str(output.get("data", {}).get("text/plain", "")))
    return "".join(parts)


def stored_text(nb: Any) -> str:
    return "\n".join(text_of(cell) for cell in nb.cells if cell.cell_type == "code")


def markdown_text(nb: Any) -> str:
    return "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")


each_early_lesson = pytest.mark.parametrize("prefix", EARLY)


# ---- the facts ---------------------------------------------------------------------------------------------------


def test_lesson_00_is_a_short_start_and_points_to_the_notation_reference() -> None:
    nb = load(lesson("00-"))
    text, out = markdown_text(nb), stored_text(nb)
    assert "docs/notation.md" in text
    assert len([cell for cell in nb.cells if cell.cell_type == "code"]) <= 15, "lesson 00 is meant to be short"
    assert "Stats(nodes_visited=13, leaves_evaluated=9, cutoffs=0)" in out
    assert "value=5, best_move='right'" in out


def test_lesson_01_checks_values_ties_ply_and_strategy() -> None:
    nb = load(lesson("01-"))
    text, out = markdown_text(nb), stored_text(nb)
    assert "**ply**" in text and "**strategy**" in text, "lesson 01 defines ply and strategy where first used"
    for fact in ("B = 3\nC = 2\nD = 2\nA = 3", "B: MIN replies b1, value 3", "D: MIN replies d3, value 2"):
        assert fact in out, f"lesson 01 lacks {fact!r}"
    # The tie: a1 and a3 are both worth 3 and MIN's d2 and d3 both give 3; the leftmost of equal moves is reported.
    assert "value=3, best_move='a1', stats=Stats(nodes_visited=13, leaves_evaluated=9, cutoffs=0)" in out
    assert "D: MIN replies d2, value 3" in out


def test_lesson_02_checks_pruned_leaves_counts_and_stages() -> None:
    out = stored_text(load(lesson("02-")))
    for fact in (
        "alphabeta  value 3  move a1  nodes 11  leaves 7  cutoffs 1",
        "pruned: ['c2', 'c3']",
        "{'c1': 'done', 'c2': 'pruned', 'c3': 'pruned'}",
        "(d)   c1 = 2         [3, +inf]     [3, 3]        [-inf, 2]",
        "strict rule:            Result(algorithm='alphabeta', value=3, best_move='a1', "
        "stats=Stats(nodes_visited=13, leaves_evaluated=9, cutoffs=0))",
    ):
        assert fact in out, f"lesson 02 lacks {fact!r}"


def test_lesson_03_checks_values_depth_optimality_and_optimism() -> None:
    nb = load(lesson("03-"))
    text, out = markdown_text(nb), stored_text(nb)
    for fact in (
        "value=10, best_move='right', stats=Stats(nodes_visited=7, leaves_evaluated=4, cutoffs=0)",
        "value=4.5, best_move=None, stats=Stats(nodes_visited=15, leaves_evaluated=8, cutoffs=0)",
        "depth 1: value 7, move left",
        "depth 2: value 6, move right",  # a chance level counts as a level of depth
        "depth 3: value 10, move right",
        "after low move 1, after high move 2   4.5",
        "expectiminimax value:            4.5",
        "minimax agent     left            10         10",
        "expectimax agent  right            9       54.5",
        "49/6",
    ):
        assert fact in out, f"lesson 03 lacks {fact!r}"
    for source in ("move by nature", "perfect but", "Michie", "Ballard", "TD-Gammon", "CS188", "depth-1"):
        assert source in text, f"lesson 03 does not mention {source!r}"


def test_lesson_04_infinite_wins_and_losses_are_stated_right() -> None:
    """A certain loss averages to -inf, and so does a good position with one -inf roll; only +inf with -inf is nan."""
    nb = load(lesson("04-"))
    text, out = markdown_text(nb), stored_text(nb)
    assert 'averages to "undefined", exactly like a move that loses' not in text
    for fact in (
        "good after 1-3, lost after 4: -inf",
        "lost after every roll:        -inf",
        "won after 1-3, lost after 4:  nan",
        "the good move looks exactly like a certain loss: True",
    ):
        assert fact in out, f"lesson 04 lacks {fact!r}"
    assert "Expectiminimax-Algorithmus" in text, "lesson 04 cites the German article for the point"


def test_lesson_04_reproduces_fig_5_12() -> None:
    out = stored_text(load(lesson("04-")))
    for fact in (
        "value=2.1, best_move='a1'",
        "{'a1': '2.1', 'a2': '1.3'}",
        "value=40.9, best_move='a2'",
        "{'a1': '21', 'a2': '40.9'}",
        "expectimax  squared     800    650  left",
    ):
        assert fact in out, f"lesson 04 lacks {fact!r}"


@each_early_lesson
def test_cites_sources_not_seeds(prefix: str) -> None:
    text = markdown_text(load(lesson(prefix))).lower()
    for phrase in ("seed text", "the seed's", "from the seed", "the seed says", "in the seed"):
        assert phrase not in text, f"{prefix} cites {phrase!r}: name the real source"


# ---- exercises and prompts ---------------------------------------------------------------------------------------


@each_early_lesson
def test_exercises_follow_the_student_edition_convention(prefix: str) -> None:
    nb = load(lesson(prefix))
    answers = [i for i, cell in enumerate(nb.cells) if "answer" in tags(cell)]
    assert answers, f"{prefix} has no exercise tagged `answer`"
    for i in answers:
        cell = nb.cells[i]
        first = cell.source.splitlines()[0]
        assert ANSWER_LINE.match(first), f"cell {i}: the first line is not `answer = ...  # your answer`: {first!r}"
        check = cell if "check" in tags(cell) else nb.cells[i + 1]
        assert "check" in tags(check), f"cell {i}: no check tagged in it or right after it"
        said = text_of(check).strip()
        assert said.startswith("correct"), f"cell {i}: the key's answer is not checked as correct: {said[:200]!r}"
        assert "not yet" not in said
        following = nb.cells[i + 1 : i + 3]
        assert any("solution" in tags(after) for after in following), f"cell {i}: no worked solution follows it"


@each_early_lesson
def test_every_player_is_preceded_by_a_prompt_to_predict(prefix: str) -> None:
    nb = load(lesson(prefix))
    players = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code" and "ev.play(" in cell.source]
    for i in players:
        before = nb.cells[i - 1]
        assert before.cell_type == "markdown" and "predict" in before.source.lower(), (
            f"cell {i} ({nb.cells[i].source.splitlines()[0]}) has no prompt to predict before it"
        )


def test_the_student_edition_of_the_early_lessons_runs_with_blank_answers(tmp_path: Path) -> None:
    """With every answer blanked (as the student edition does) each lesson runs and each check says so."""
    pytest.importorskip("nbclient")
    from nbclient import NotebookClient

    for prefix in EARLY:
        nb = load(lesson(prefix))
        checks = []
        for cell in nb.cells:
            if "answer" in tags(cell):
                lines = cell.source.splitlines()
                lines[0] = ANSWER_LINE.sub("answer = None  # your answer", lines[0])
                cell.source = "\n".join(lines)
            if "check" in tags(cell):
                checks.append(cell)
            if cell.cell_type == "code":
                cell.outputs = []
        NotebookClient(
            nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
        ).execute()
        for cell in checks:
            assert text_of(cell).strip() == "not answered yet", f"{prefix}: {cell.source.splitlines()[0]} said " + repr(
                text_of(cell)
            )


# ---- the notation reference --------------------------------------------------------------------------------------


def test_the_notation_reference_prints_what_it_says() -> None:
    """Every example in docs/notation.md runs and prints what the page shows (one session, top to bottom)."""
    text = NOTATION.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 10
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(parser.get_doctest("\n".join(blocks), {"ev": ev}, "docs/notation.md", str(NOTATION), 0))
    assert runner.failures == 0 and runner.tries >= 30


def test_the_notation_reference_covers_the_whole_notation() -> None:
    text = NOTATION.read_text(encoding="utf-8")
    for topic in ("Names and move labels", "Chance nodes", "equally likely", "Static evaluations", "comments",
                  "TreeSyntaxError", "InvalidTreeError", "textbook", "command line"):  # fmt: skip
        assert topic in text, f"docs/notation.md lacks {topic!r}"
