"""Build the student edition of the lessons: answer cells blank, checks kept, worked solutions folded.

The committed notebooks (``notebooks/NN-*.ipynb``) are the answer key that nbval checks.  This script reads them and
writes ``build/student/NN-*.ipynb`` without outputs, following the cell tags:

- ``answer``: the cell's first statement assigns the student's answer (``answer = 3  # your answer``); it becomes
  ``answer = None  # your answer`` (``first, second = None, None`` for several names).  A comment that is not a
  "your answer ..." instruction (a worked reason such as ``# an answer: 0.5 * U <= 1.5``) is replaced by
  ``# your answer``.  The rest of the cell (a check in the same cell) is kept.
- ``check``: kept unchanged.  With the blank answer it must print "not answered yet" and raise nothing.
- ``solution``: folded.  A markdown cell is wrapped in ``<details>`` (a "Show the worked solution" button that works
  in JupyterLab, VS Code and on GitHub); a code cell gets JupyterLab's ``source_hidden`` and ``outputs_hidden``
  (it still runs, so later cells may use what it defines; its output stays folded until clicked).

``--check`` also verifies the edition: no answer cell holds the key's answer, every solution is folded, no check
cell contains the key's answer literally, and (unless ``--no-run``) each student notebook runs from top to bottom
with nbclient, raising nothing, with every check cell printing "not answered yet".

    python scripts/student_edition.py                 # build/student/ from notebooks/NN-*.ipynb
    python scripts/student_edition.py --check         # build, then verify and run the student notebooks
    python scripts/student_edition.py notebooks/01-minimax.ipynb -o /tmp/student
"""

from __future__ import annotations

import argparse
import ast
import copy
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
OUTPUT = ROOT / "build" / "student"

ANSWER, CHECK, SOLUTION = "answer", "check", "solution"
NOT_ANSWERED = "not answered yet"
SUMMARY = "Show the worked solution (try the exercise first)"
BANNER = (
    "*Student edition.* Each exercise's answer cell starts blank (`... = None  # your answer`): write your answer "
    "there and run it and the check below it, which says *correct* or *not yet* with a hint. Worked solutions are "
    "folded away: open one only after you have tried."
)
BANNER_MARK = "*Student edition.*"


class EditionError(ValueError):
    """A tagged cell that does not follow the convention (the message names the notebook and the cell)."""


def tags(cell: Any) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


# ---- the answer cell's first statement ---------------------------------------------------------------------------


def answer_assignment(source: str) -> tuple[int, int, list[str], str, str]:
    """Where the first statement of an answer cell is, what it assigns, and its trailing comment.

    Returns (first line, last line) of the statement (0-based, inclusive), the names assigned, the value's text and
    the comment on its last line ('' if none).  Raises EditionError when the first statement is not a plain
    assignment to one or more names.

    >>> answer_assignment("answer = 3  # your answer\\nprint(check(answer))")
    (0, 0, ['answer'], '3', 'your answer')
    >>> answer_assignment("first, second = 2, 2  # an answer: evaluations")[2:4]
    (['first', 'second'], '2, 2')
    """
    try:
        module = ast.parse(source)
    except SyntaxError as error:
        raise EditionError(f"the answer cell does not parse: {error}") from None
    if not module.body:
        raise EditionError("the answer cell is empty")
    statement = module.body[0]
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        value = statement.value
    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
        target, value = statement.target, statement.value
    else:
        raise EditionError("the first statement of an answer cell must assign the answer (answer = ...)")
    if isinstance(target, ast.Name):
        names = [target.id]
    elif isinstance(target, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in target.elts):
        names = [e.id for e in target.elts]  # type: ignore[attr-defined]
    else:
        raise EditionError("an answer cell must assign to a name or to names (answer = ..., first, second = ...)")
    lines = source.splitlines()
    first, last = statement.lineno - 1, (statement.end_lineno or statement.lineno) - 1
    value_text = ast.get_source_segment(source, value) or ""
    tail = lines[last][statement.end_col_offset :] if statement.end_col_offset is not None else ""
    comment = tail.strip()[1:].strip() if tail.strip().startswith("#") else ""
    return first, last, names, value_text, comment


def blank_answer(source: str) -> str:
    """The answer cell with the answer replaced by None (the rest of the cell unchanged).

    >>> print(blank_answer('answer = "c2, c3"  # your answer, as labels\\nprint(check_pruned(result, answer))'))
    answer = None  # your answer, as labels
    print(check_pruned(result, answer))
    >>> blank_answer("largest = 3  # an answer: 0.5 * U <= 1.5")
    'largest = None  # your answer'
    >>> blank_answer("first, second = 2, 2")
    'first, second = None, None  # your answer'
    """
    first, last, names, _, comment = answer_assignment(source)
    lines = source.splitlines()
    if not comment.lower().startswith("your answer"):
        comment = "your answer"  # a worked reason would give the answer away
    blank = f"{', '.join(names)} = {', '.join('None' for _ in names)}  # {comment}"
    return "\n".join([*lines[:first], blank, *lines[last + 1 :]])


# ---- building ----------------------------------------------------------------------------------------------------


def fold(cell: Any) -> None:
    """Fold a worked solution away behind a button."""
    if cell.cell_type == "markdown":
        if not cell.source.lstrip().startswith("<details>"):
            cell.source = f"<details>\n<summary>{SUMMARY}</summary>\n\n{cell.source.strip()}\n\n</details>"
    else:
        jupyter = dict(cell.metadata.get("jupyter", {}))
        jupyter.update(source_hidden=True, outputs_hidden=True)
        cell.metadata["jupyter"] = jupyter


def student_notebook(key: Any, *, name: str = "notebook") -> Any:
    """The student edition of one key notebook (a new notebook; the key is not changed)."""
    import nbformat

    nb = copy.deepcopy(key)
    for index, cell in enumerate(nb.cells):
        cell_tags = tags(cell)
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        if ANSWER in cell_tags:
            if cell.cell_type != "code":
                raise EditionError(f"{name}, cell {index}: a markdown cell is tagged {ANSWER!r}")
            try:
                cell.source = blank_answer(cell.source)
            except EditionError as error:
                raise EditionError(f"{name}, cell {index}: {error}") from None
        if SOLUTION in cell_tags:
            if ANSWER in cell_tags or CHECK in cell_tags:
                raise EditionError(f"{name}, cell {index}: a solution cannot also be an answer or a check")
            fold(cell)
    if any(ANSWER in tags(c) or SOLUTION in tags(c) for c in nb.cells) and not any(
        c.cell_type == "markdown" and c.source.startswith(BANNER_MARK) for c in nb.cells
    ):
        nb.cells.insert(1, nbformat.v4.new_markdown_cell(BANNER))
    return nb


def key_paths(paths: list[Path] | None = None) -> list[Path]:
    return [p.resolve() for p in paths] if paths else sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))


def build(paths: list[Path] | None = None, output: Path = OUTPUT) -> list[Path]:
    """Write the student edition of each key notebook into ``output``; returns the files written."""
    import nbformat

    output.mkdir(parents=True, exist_ok=True)
    written = []
    for path in key_paths(paths):
        key = nbformat.read(path, as_version=4)
        student = student_notebook(key, name=path.name)
        nbformat.validate(student)
        target = output / path.name
        nbformat.write(student, target)
        written.append(target)
    return written


# ---- checking ----------------------------------------------------------------------------------------------------


def static_problems(key: Any, student: Any) -> list[str]:
    """What is wrong with a student notebook without running it: answers left in, solutions not folded, outputs."""
    found: list[str] = []
    key_cells = [c for c in key.cells]
    student_cells = [c for c in student.cells if not (c.cell_type == "markdown" and c.source.startswith(BANNER_MARK))]
    if len(key_cells) != len(student_cells):
        return [f"the student edition has {len(student_cells)} lesson cells, the key {len(key_cells)}"]
    answers: list[str] = []
    for index, (k, s) in enumerate(zip(key_cells, student_cells, strict=True)):
        where = f"cell {index}"
        if s.cell_type == "code" and (s.get("outputs") or s.get("execution_count") is not None):
            found.append(f"{where}: has stored outputs")
        if ANSWER in tags(k):
            _, _, names, key_value, _ = answer_assignment(k.source)
            _, _, _, student_value, comment = answer_assignment(s.source)
            if student_value != ", ".join("None" for _ in names):
                found.append(f"{where}: the answer cell still assigns {student_value!r}")
            if key_value not in ("None",) and key_value in comment:
                found.append(f"{where}: the answer cell's comment still holds the key's answer")
            answers.append(key_value)
        if SOLUTION in tags(k):
            folded = (
                s.source.lstrip().startswith("<details>")
                if s.cell_type == "markdown"
                else s.metadata.get("jupyter", {}).get("source_hidden") is True
                and s.metadata.get("jupyter", {}).get("outputs_hidden") is True
            )
            if not folded:
                found.append(f"{where}: a worked solution that is not folded")
    for index, s in enumerate(student_cells):
        if CHECK in tags(s) and ANSWER not in tags(s):
            for value in answers:
                if len(value) >= 4 and value in s.source:
                    found.append(f"cell {index}: the check cell holds the key's answer {value!r}")
    return found


def _output_text(cell: Any) -> str:
    parts = []
    for output in cell.get("outputs", []):
        if output.output_type == "stream":
            parts.append(output.text)
        elif output.output_type in ("execute_result", "display_data"):
            parts.append(str(output.get("data", {}).get("text/plain", "")))
    return "".join(parts)


def execute(student: Any, *, directory: Path = NOTEBOOKS, timeout: int = 300) -> tuple[Any, list[str]]:
    """Run a student notebook from top to bottom (in ``directory``, as the key runs); returns it and its problems.

    A problem is a cell that raised (other than one tagged ``raises-exception``), or a check cell that does not
    print "not answered yet", or says "correct".
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError

    nb = copy.deepcopy(student)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(directory)}},
        allow_errors=False,
        record_timing=False,
        store_widget_state=False,
    )
    try:
        client.execute()
    except CellTimeoutError as exc:
        return nb, [f"a cell ran longer than {timeout} s: {str(exc).splitlines()[0]}"]
    except CellExecutionError as exc:
        return nb, [f"a cell raised:\n{exc}"]
    found = []
    for index, cell in enumerate(nb.cells):
        if CHECK not in tags(cell):
            continue
        text = _output_text(cell)
        if NOT_ANSWERED not in text:
            found.append(f"cell {index}: the check does not say {NOT_ANSWERED!r}: {text.strip()[:200]!r}")
        if re.search(r"(?<![a-z])correct\b", text, re.IGNORECASE):
            found.append(f"cell {index}: the check says 'correct' to a blank answer: {text.strip()[:200]!r}")
    return nb, found


def check_notebook(key_path: Path, student_path: Path, *, run: bool = True) -> list[str]:
    """Everything that is wrong with one student notebook, as sentences."""
    import nbformat

    key = nbformat.read(key_path, as_version=4)
    student = nbformat.read(student_path, as_version=4)
    found = static_problems(key, student)
    if run:
        found += execute(student, directory=key_path.parent)[1]
    return found


def _check_one(key_path: Path, student_path: Path, run: bool) -> list[str]:
    return check_notebook(key_path, student_path, run=run)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="key notebooks (default: notebooks/NN-*.ipynb)")
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT, help="where to write (default build/student)")
    parser.add_argument("--check", action="store_true", help="verify the edition, and run it (see --no-run)")
    parser.add_argument("--no-run", action="store_true", help="with --check: verify without running the notebooks")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks run at once by --check (default 2)")
    args = parser.parse_args(argv)
    keys = key_paths(args.notebooks)
    if not keys:
        print("student_edition: no notebooks found", file=sys.stderr)
        return 1
    try:
        written = build(keys, args.output)
    except EditionError as error:
        print(f"student_edition: {error}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    if not args.check:
        return 0
    failed = 0
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = pool.map(_check_one, keys, written, [not args.no_run] * len(keys))
        for key, found in zip(keys, results, strict=True):
            if found:
                failed += 1
                print(f"FAIL {key.name}", file=sys.stderr)
                for problem in found:
                    print("  " + problem.replace("\n", "\n  "), file=sys.stderr)
            else:
                print(f"ok   {key.name}")
    print(f"student_edition: checked {len(keys)} notebook(s) in {time.perf_counter() - start:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    from _venv import ensure

    ensure("student_edition", ["nbclient", "nbformat"])
    sys.exit(main())
