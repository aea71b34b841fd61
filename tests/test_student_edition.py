"""The student edition (``make student``): answers blanked, checks kept, solutions folded, and it still runs.

``scripts/student_edition.py`` turns the committed notebooks (the answer key that nbval checks) into
``build/student/``.  Here: the builder's rules on small cells; a tagged notebook built, verified and run, where every
check must say "not answered yet" to the blank answers and the key must say "correct"; and every current lesson
built and run (lessons without tags yet still have to run as student copies).
"""

from __future__ import annotations

import importlib.util
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbclient")


def _load_builder() -> Any:
    spec = importlib.util.spec_from_file_location("student_edition", ROOT / "scripts" / "student_edition.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["student_edition"] = module
    spec.loader.exec_module(module)
    return module


edition = _load_builder()


def code(source: str, *tags: str) -> Any:
    cell = nbformat.v4.new_code_cell(source)
    if tags:
        cell.metadata["tags"] = list(tags)
    return cell


def markdown(source: str, *tags: str) -> Any:
    cell = nbformat.v4.new_markdown_cell(source)
    if tags:
        cell.metadata["tags"] = list(tags)
    return cell


# ---- the builder's rules -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "student"),
    [
        ("answer = 3  # your answer", "answer = None  # your answer"),
        ('answer_1 = "c2, c3"\nprint(check(answer_1))', "answer_1 = None  # your answer\nprint(check(answer_1))"),
        ("largest = 3  # an answer: 0.5 * U <= 1.5", "largest = None  # your answer"),
        ('answer = "1/4"  # your answer, as a fraction', "answer = None  # your answer, as a fraction"),
        ("first, second = 2, 2  # an answer", "first, second = None, None  # your answer"),
        (
            'answer = {\n    "a1": "47",\n    "a2": "86.8",\n}\nprint(answer)',
            "answer = None  # your answer\nprint(answer)",
        ),
        ("answer: int = 12", "answer = None  # your answer"),
    ],
)
def test_an_answer_cell_is_blanked_and_the_rest_kept(key: str, student: str) -> None:
    assert edition.blank_answer(key) == student


@pytest.mark.parametrize("source", ["print(3)", "def f():\n    pass", "x.y = 3", "", "answer = (", "a = b = 3"])
def test_an_answer_cell_that_does_not_assign_first_is_refused(source: str) -> None:
    with pytest.raises(edition.EditionError):
        edition.blank_answer(source)


def test_the_builder_names_the_cell_that_breaks_the_convention() -> None:
    nb = nbformat.v4.new_notebook(cells=[markdown("# T"), code("print(3)", "answer")])
    with pytest.raises(edition.EditionError, match=r"lesson\.ipynb, cell 1: the first statement"):
        edition.student_notebook(nb, name="lesson.ipynb")


def test_solutions_fold_and_outputs_go() -> None:
    worked = code("print(value_of(tree, 'B'))", "solution")
    worked.outputs = [nbformat.v4.new_output("stream", text="3\n")]
    worked.execution_count = 4
    nb = nbformat.v4.new_notebook(cells=[markdown("# T"), markdown("B is 3: the smallest.", "solution"), worked])
    student = edition.student_notebook(nb)
    assert student.cells[1].source.startswith(edition.BANNER_MARK)
    folded_text, folded_code = student.cells[2], student.cells[3]
    assert folded_text.source.startswith("<details>\n<summary>") and folded_text.source.endswith("</details>")
    assert "B is 3: the smallest." in folded_text.source
    assert folded_code.metadata["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
    assert folded_code.outputs == [] and folded_code.execution_count is None
    assert nb.cells[1].source == "B is 3: the smallest." and nb.cells[2].outputs, "the key was changed"
    assert edition.static_problems(nb, student) == []


def test_the_static_check_finds_an_answer_left_in() -> None:
    key = nbformat.v4.new_notebook(
        cells=[markdown("# T"), code("answer = 'max(min(5, 7), 4)'", "answer"), markdown("B is 3.", "solution")]
    )
    leaky = edition.student_notebook(key)
    leaky.cells[2].source = "answer = 'max(min(5, 7), 4)'"
    leaky.cells[3].source = "B is 3."
    leaky.cells.append(code("print(check_tree(answer, 'max(min(5, 7), 4)'))", "check"))
    key.cells.append(code("print(check_tree(answer, 'max(min(5, 7), 4)'))", "check"))
    problems = edition.static_problems(key, leaky)
    assert any("still assigns" in p for p in problems)
    assert any("not folded" in p for p in problems)
    assert any("holds the key's answer" in p for p in problems)


# ---- a tagged lesson, built and run ------------------------------------------------------------------------------

TAGGED = [
    markdown("# A tagged lesson"),
    code("import expectviz as ev\nfrom expectviz import exercises"),
    code('tree = ev.textbook("aima-fig-5.2")'),
    markdown("**1.** The value of B?"),
    code("answer_1 = 3  # your answer\nprint(exercises.check_value(tree, 'B', answer_1))", "answer", "check"),
    markdown("**2.** Which leaves does alpha-beta prune?"),
    code('answer_2 = "c2, c3"  # your answer: labels or leaf numbers', "answer"),
    code("print(exercises.check_pruned(ev.alphabeta(tree), answer_2))", "check"),
    markdown("**3.** MAX's move?"),
    code('answer_3 = "a1"  # an answer: B is worth 3, the most', "answer"),
    code("print(exercises.check_move(tree, answer_3))", "check"),
    markdown("**4.** How many leaves does minimax evaluate? **5.** Which are MIN's replies to a1?"),
    code("first, second = 9, ['b1', 'b2', 'b3']", "answer"),
    code(
        "leaves = ev.minimax(tree, trace=False).stats.leaves_evaluated\n"
        "print(exercises.check_answer(first, leaves, hint='count the leaves of every move'))\n"
        "print(exercises.check_set(second, [c.move for c in tree.children[0].children], what='move'))",
        "check",
    ),
    markdown("B is the smallest of 3, 12 and 8, so 3.", "solution"),
    code("print(exercises.check_value(tree, 'B', 3))", "solution"),
]


@pytest.fixture(scope="module")
def tagged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("key")
    key = folder / "01-tagged.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=TAGGED), key)
    [student] = edition.build([key], folder / "student")
    return key, student


def test_a_tagged_lesson_has_no_answer_left(tagged: tuple[Path, Path]) -> None:
    key, student = tagged
    nb = nbformat.read(student, as_version=4)
    sources = [cell.source for cell in nb.cells]
    assert "answer_1 = None  # your answer\nprint(exercises.check_value(tree, 'B', answer_1))" in sources
    assert "answer_2 = None  # your answer: labels or leaf numbers" in sources
    assert "answer_3 = None  # your answer" in sources, "a worked reason in the comment must go"
    assert "first, second = None, None  # your answer" in sources
    assert edition.static_problems(nbformat.read(key, as_version=4), nb) == []


def test_a_tagged_lesson_runs_and_every_check_says_not_answered_yet(tagged: tuple[Path, Path]) -> None:
    key, student = tagged
    ran, problems = edition.execute(nbformat.read(student, as_version=4), directory=key.parent)
    assert problems == []
    checks = [edition._output_text(c) for c in ran.cells if "check" in edition.tags(c)]
    assert checks == ["not answered yet\n", "not answered yet\n", "not answered yet\n", "not answered yet\n" * 2]


def test_the_key_says_correct_to_every_check(tagged: tuple[Path, Path]) -> None:
    key, _ = tagged
    ran, _ = edition.execute(nbformat.read(key, as_version=4), directory=key.parent)
    for cell in ran.cells:
        if "check" in edition.tags(cell):
            for line in edition._output_text(cell).splitlines():
                assert line.startswith("correct"), line


def test_a_check_that_prints_the_answer_is_caught(tmp_path: Path) -> None:
    cells = [
        markdown("# T"),
        code("answer = 3  # your answer", "answer"),
        code("print('correct' if answer == 3 else 'not yet: the value is 3')", "check"),
    ]
    key = tmp_path / "02-leaky.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=cells), key)
    [student] = edition.build([key], tmp_path / "student")
    problems = edition.check_notebook(key, student)
    assert problems == ["cell 3: the check does not say 'not answered yet': 'not yet: the value is 3'"]


def test_a_check_that_raises_on_a_blank_answer_is_caught(tmp_path: Path) -> None:
    cells = [markdown("# T"), code("smallest = 12", "answer"), code("print(smallest - 1)", "check")]
    key = tmp_path / "03-raises.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=cells), key)
    [student] = edition.build([key], tmp_path / "student")
    [problem] = edition.check_notebook(key, student)
    assert problem.startswith("a cell raised") and "TypeError" in problem


# ---- the lessons as they are -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def lesson_problems(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """Each lesson's student edition, built and checked (three kernels at a time, as ``--check --jobs 3``)."""
    students = edition.build(NOTEBOOKS, tmp_path_factory.mktemp("student"))
    with ProcessPoolExecutor(max_workers=3) as pool:
        found = pool.map(edition._check_one, NOTEBOOKS, students, [True] * len(NOTEBOOKS))
        return {key.name: problems for key, problems in zip(NOTEBOOKS, found, strict=True)}


@pytest.mark.parametrize("name", [p.name for p in NOTEBOOKS])
def test_each_lesson_s_student_edition_has_no_answer_and_runs(lesson_problems: dict[str, list[str]], name: str) -> None:
    problems = lesson_problems[name]
    assert problems == [], "\n".join(problems)
