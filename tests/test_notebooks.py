"""The lesson notebooks: their shape, and that nbval really tests them.

- Shape (the lessons' house style), read from the stored ``notebooks/NN-*.ipynb``: each opens with a
  "What you'll learn" / "What you'll need" cell, its first code cell is ``import expectviz as ev``, there are no star
  imports, ``%run``, ``%time`` or network access, execution counts run 1..n, every code cell has stored outputs unless
  it is meant to print nothing, each cell tagged ``nbval-ignore-output`` is followed by a checked code cell, and the
  metadata is stripped.
- Mutations: an algorithm broken on purpose must make nbval fail on the lesson about it, in a cell that prints that
  algorithm's values or counts; the same copy with the real algorithm must pass.  The break is made in the kernel by
  a ``sitecustomize.py`` put first on PYTHONPATH, which rewrites one line of the algorithm's source (the package on
  disk is not touched).  Re-run the notebooks with ``python scripts/run_notebooks.py`` after changing them.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("[0-9][0-9]-*.ipynb"))
SANITIZE = NOTEBOOK_DIR / "sanitize.cfg"

nbformat = pytest.importorskip("nbformat")


def load(path: Path) -> Any:
    return nbformat.read(path, as_version=4)


def code_cells(nb: Any) -> list[Any]:
    return [cell for cell in nb.cells if cell.cell_type == "code"]


def tags(cell: Any) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


each_notebook = pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])


# ---- shape ------------------------------------------------------------------------------------------------------


def test_the_lessons_are_there() -> None:
    names = [p.name for p in NOTEBOOKS]
    for prefix in ("00-", "01-", "02-", "03-"):
        assert any(name.startswith(prefix) for name in names), f"no notebooks/{prefix}*.ipynb"
    assert len({name[:2] for name in names}) == len(names), f"two notebooks share a number: {names}"


@each_notebook
def test_opens_with_what_you_learn_and_need(path: Path) -> None:
    nb = load(path)
    first = nb.cells[0]
    assert first.cell_type == "markdown", "the first cell must be markdown"
    text = first.source.lower().replace("’", "'")
    assert first.source.lstrip().startswith("# "), "the first cell starts with the lesson's title (# ...)"
    assert "what you'll learn" in text and "what you'll need" in text, (
        "the first cell must have 'What you'll learn' and 'What you'll need'"
    )


@each_notebook
def test_first_code_cell_imports_expectviz(path: Path) -> None:
    cells = code_cells(load(path))
    assert cells, "a lesson with no code"
    assert cells[0].source.strip() == "import expectviz as ev"


@each_notebook
def test_markdown_before_every_code_cell(path: Path) -> None:
    nb = load(path)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert i > 0 and nb.cells[i - 1].cell_type == "markdown", (
                f"cell {i} ({cell.source.splitlines()[0] if cell.source else 'empty'}) has no markdown before it"
            )


FORBIDDEN = [
    (re.compile(r"^\s*from\s+\S+\s+import\s+\*", re.M), "a star import"),
    (re.compile(r"^\s*%+\s*run\b", re.M), "%run"),
    (re.compile(r"^\s*%+\s*(time|timeit|prun)\b", re.M), "%time/%timeit (timings are never deterministic)"),
    (re.compile(r"^\s*!", re.M), "a shell escape (!...)"),
    (re.compile(r"https?://"), "a URL in code (no network)"),
    (
        re.compile(r"\bimport\s+(requests|urllib|httpx|socket|http\.client)\b|\bfrom\s+(urllib|requests|http)\b"),
        "network access",
    ),
    (re.compile(r"\bpip\s+install\b"), "installing packages"),
    (re.compile(r"\bdatetime\.now\b|\btime\.time\(|\bperf_counter\(", re.M), "the clock (never deterministic)"),
]


@each_notebook
def test_no_star_imports_run_time_or_network(path: Path) -> None:
    for i, cell in enumerate(code_cells(load(path))):
        for pattern, what in FORBIDDEN:
            assert not pattern.search(cell.source), f"code cell {i} has {what}:\n{cell.source}"


@each_notebook
def test_execution_counts_run_1_to_n(path: Path) -> None:
    counts = [cell.execution_count for cell in code_cells(load(path)) if cell.source.strip()]
    assert counts == list(range(1, len(counts) + 1)), (
        f"execution counts {counts}: re-run with `python scripts/run_notebooks.py {path.relative_to(ROOT)}`"
    )


def meant_to_print_nothing(source: str) -> bool:
    """True when a cell only defines or imports: its last statement is no expression, and it never prints."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    if not tree.body or "print(" in source or "display(" in source:
        return False
    last = tree.body[-1]
    return not isinstance(last, ast.Expr) or source.rstrip().endswith(";")


@each_notebook
def test_code_cells_have_stored_outputs(path: Path) -> None:
    for i, cell in enumerate(code_cells(load(path))):
        if not cell.source.strip():
            assert not cell.outputs, f"code cell {i} is empty but has outputs"
            continue
        if cell.outputs:
            assert all(o.output_type != "error" for o in cell.outputs) or "raises-exception" in tags(cell), (
                f"code cell {i} stored an error:\n{cell.source}"
            )
            continue
        assert meant_to_print_nothing(cell.source), (
            f"code cell {i} has no stored output, so nbval cannot check it (run scripts/run_notebooks.py):\n"
            f"{cell.source}"
        )


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
FALLBACKS = ("image/svg+xml", "image/png", "text/html")


@each_notebook
def test_every_widget_output_has_a_static_fallback(path: Path) -> None:
    """A saved widget shows nothing without its kernel (GitHub, nbconvert, a reopened notebook): each stored widget
    view carries a picture or HTML beside it (players and compares their diagram, quizzes their question and tree)."""
    for i, cell in enumerate(code_cells(load(path))):
        for output in cell.outputs:
            data = output.get("data", {})
            if WIDGET_VIEW in data:
                assert any(kind in data for kind in FALLBACKS), (
                    f"code cell {i} stores a widget with no picture or HTML to show without a kernel:\n{cell.source}"
                )


@each_notebook
def test_ignored_outputs_are_followed_by_a_checked_cell(path: Path) -> None:
    cells = code_cells(load(path))
    for i, cell in enumerate(cells):
        if "nbval-ignore-output" not in tags(cell):
            continue
        assert cell.outputs, f"code cell {i} is tagged nbval-ignore-output but shows nothing:\n{cell.source}"
        assert i + 1 < len(cells), f"the last code cell ({i}) has its output ignored; add a checked cell after it"
        after = cells[i + 1]
        unchecked = {"nbval-ignore-output", "nbval-skip", "raises-exception"} & set(tags(after))
        assert not unchecked, f"code cell {i + 1} after the ignored cell {i} is tagged {sorted(unchecked)}"
        assert any(o.output_type in ("stream", "execute_result") for o in after.outputs), (
            f"code cell {i + 1}, which checks the ignored cell {i}, has no text output:\n{after.source}"
        )


@each_notebook
def test_metadata_is_stripped(path: Path) -> None:
    nb = load(path)
    assert "widgets" not in nb.metadata, "widget state is stored: run scripts/run_notebooks.py (it strips it)"
    for i, cell in enumerate(nb.cells):
        extra = set(cell.get("metadata", {})) - {"tags", "raw_mimetype"}
        assert not extra, f"cell {i} keeps metadata {sorted(extra)}: run scripts/run_notebooks.py"
        assert cell.get("id") == str(i), f"cell {i} has id {cell.get('id')!r}: run scripts/run_notebooks.py"
        for output in cell.get("outputs", []):
            text = output.get("text", "") + str(output.get("data", {}).get("text/plain", ""))
            assert not re.search(r"at 0x[0-9a-f]{6,}", text), f"cell {i} prints a memory address: {text[:200]}"


# ---- what particular lessons must keep saying --------------------------------------------------------------------


def stored_text(nb: Any) -> str:
    """Every stored text output of a notebook (printed text and plain-text results), joined."""
    parts = []
    for cell in code_cells(nb):
        for output in cell.outputs:
            parts.append(output.get("text", ""))
            parts.append(str(output.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


def markdown_text(nb: Any) -> str:
    return "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")


def test_lesson_05_pruning_at_chance_nodes_facts() -> None:
    """Lesson 05: the corrected claims (the best order on equally likely outcomes, what a probe costs), two words
    for two kinds of bounds, alpha_i against alpha shown on a tree where they disagree, Star2's probe loop shown
    with Star2, and the alternatives when chance branches are many."""
    nb = load(lesson("05-"))
    out, text = stored_text(nb), markdown_text(nb)
    assert "most likely outcomes first" not in text  # the outcomes are equally likely: no likeliest to put first
    assert "one leaf per outcome" not in text and "one move's whole subtree under every" in text
    assert "**value bounds**" in text and "**interval**" in text
    assert "evaluated: [1, 2, 3, 4, 5]" in out and "pruned:    [6, 7, 8]" in out
    assert "value=1.55, best_move=1, stats=Stats(nodes_visited=15, leaves_evaluated=8, cutoffs=0)" in out
    assert "window for the MIN node after moves 2, 2: [1.9, +inf]" in out
    sources = [cell.source for cell in code_cells(nb)]
    star1_listing = next(n for n, source in enumerate(sources) if "star1_loop" in source)
    probe_listing = next(n for n, source in enumerate(sources) if "if probing and depth > 1:" in source)
    star2_first_run = next(n for n, source in enumerate(sources) if "ev.star2(" in source)
    assert "if probing" not in code_cells(nb)[star1_listing].outputs[0].text, "Star1's listing shows Star2's probes"
    assert star1_listing < probe_listing <= star2_first_run + 1
    for source in ("Ballard", "Veness and Blair", "ChanceProbCut", "Schadd", "Monte Carlo", "AIMA", "lesson 09"):
        assert source in text, f"lesson 05 does not mention {source}"
    assert "exact: 7" in out


def test_lesson_06_depth_limits_tictactoe_and_states_what_changes() -> None:
    """Lesson 06: tic-tac-toe at depths 1-4 against the full search, iterative deepening with a node budget, and the
    two corrected claims (what changes with depth in the dice tree; depth 3 evaluates the counter-attack statically).
    """
    nb = load(lesson("06-"))
    out, text = stored_text(nb), markdown_text(nb)
    assert "Exercise 5.9" in text and "Section 5.4" in text
    for row in ("    1   0.16    4  X b2", "    4      0    0  X b2", "  end      0    0  X a1      18,297"):
        assert row in out, f"lesson 06's tic-tac-toe depth table lacks {row!r}"
    assert "-1 -1/25" in out  # the worked example: Eval = -1, the package's -1/25
    assert "depth 6: stopped" in out and "iterative deepening stopped during depth 6" in out
    for row in ("    2    5  4.5    4    6    8    1  a1", "    3    4  4.5    3    5    8    1  a2"):
        assert row in out, f"lesson 06's B-G table lacks {row!r}"
    assert "G is worth little" not in text  # G is 1 at depths 2, 3 and 4: its evaluation was right
    assert "MIN nodes are searched" not in text  # at depth 3 they are evaluated statically
    assert "static evaluation of the MIN node after grab, b2, 1 = -4" in out
    # The grab/b2 example is a non-quiescent cutoff; AIMA's horizon effect is a delaying move, shown on its own tree.
    assert "quiescence search" in text and "*horizon effect*" in text and "delaying" in text
    for row in ("    2    -1  delay", "    3    -1  delay", "    4    -5  accept"):
        assert row in out, f"lesson 06's horizon-effect table lacks {row!r}"


def test_lesson_07_practice_trees_are_new_and_answers_are_tagged() -> None:
    """Lesson 07: no practice tree is one of lessons 01-06's trees; each quiz is followed by an answer cell with its
    check (tagged for the student edition), and each question has a worked solution tagged ``solution``."""
    nb = load(lesson("07-"))
    trees = {line.strip() for line in stored_text(nb).splitlines() if line.startswith(("max", "min", "chance"))}
    assert len(trees) >= 5, trees
    earlier = "\n".join(
        stored_text(load(path)) + "\n".join(cell.source for cell in load(path).cells)
        for path in NOTEBOOKS
        if path.name[:2] in ("01", "02", "03", "04", "05", "06")
    )
    reused = sorted(tree for tree in trees if tree in earlier)
    assert not reused, f"lesson 07 reuses trees from lessons 01-06: {reused}"
    for name in ("aima-fig-5.2", "aima-fig-5.12", "aima-star-exercise", "star2-beats-star1"):
        assert name not in "\n".join(cell.source for cell in nb.cells), f"lesson 07 reuses the textbook tree {name}"
    cells = code_cells(nb)
    quizzes = [n for n, cell in enumerate(cells) if "_quiz(" in cell.source]
    assert len(quizzes) >= 6
    for n in quizzes:
        after = cells[n + 1]
        assert {"answer", "check"} <= set(tags(after)), f"the quiz in code cell {n} has no answer and check after it"
        assert after.source.startswith("answer = ") and "correct" in stored_text(
            nbformat.v4.new_notebook(cells=[after])
        )
    solutions = [cell for cell in nb.cells if "solution" in tags(cell)]
    worked = [cell for cell in solutions if cell.cell_type == "markdown"]
    assert len(worked) >= 6 and all(cell.source.startswith("**Worked solution") for cell in worked)
    # The cell that prints the Star1 search's cutoffs answers the prediction before it: folded too.
    assert any(cell.cell_type == "code" and '.steps("cutoff")' in cell.source for cell in solutions)
    assert "predict=True" in "\n".join(cell.source for cell in cells)


def test_lesson_08_real_games_facts() -> None:
    """Lesson 08: a game written in a cell (under 40 lines, an ev.Game), the tic-tac-toe counts, ordering and tables,
    and the coin-flip divergence with every move's value under the three models."""
    nb = load(lesson("08-"))
    out, text = stored_text(nb), markdown_text(nb)
    game_cells = [cell.source for cell in code_cells(nb) if cell.source.lstrip().startswith("class ")]
    assert game_cells and len(game_cells[0].splitlines()) < 40, "the game written in the notebook is under 40 lines"
    assert any("isinstance(" in cell.source and "ev.Game" in cell.source for cell in code_cells(nb))
    assert "ev.play(" in "\n".join(cell.source for cell in code_cells(nb))
    for fact in ("549,946", "255,168", "nodes_visited=18297, leaves_evaluated=7330", "1 + 549,945 = 549,946"):
        assert fact in out, f"lesson 08 lacks {fact!r}"
    assert sum(1 for square in "a1 b1 c1 a2 b2 c2 a3 b3 c3".split() if f"X {square}         0" in out) == 9
    for row in ("plain               18,297", "order=center_first   7,275", "table=True           4,793", "both 1,988"):
        assert " ".join(row.split()) in " ".join(out.split()), f"lesson 08's ordering table lacks {row!r}"
    assert "value=29/48, best_move='X b2'" in out and "value=0, best_move='X c1'" in out
    assert "X b2        1   29/48                0" in out and "X c1       -1  -25/96                0" in out
    assert "AIMA" in text and "Fig. 5.1" in text and '"Expectiminimax"' in text
    assert "*ply*" in text, "lesson 08 defines a ply where it first uses the word"


def test_lesson_09_star_minimax_on_dice_games_facts() -> None:
    """Lesson 09: the five searches on Dice at depths 1-10 with one value, a plot, the literature beside the savings,
    Pig's fallback note and value iteration, Star2 stepped on a small position, and games against the search."""
    nb = load(lesson("09-"))
    out, text = stored_text(nb), markdown_text(nb)
    flat = " ".join(out.split())
    for row in (
        "expectiminimax 3 9 27 72 216 504 1512 3132 9396 17820",
        "star2 + ordering + table 3 9 27 42 126 241 553 865 1705 2591",
        "depth 10: 374/1215",
        "[('max',), ('min',)]",
        "pig is not a regular tree, so star2 searched 81 of its chance nodes as star1 would",
        "MAX wins with probability 0.70942",
        "the probes were enough",
        "value=0.12, best_move='X b2', stats=Stats(nodes_visited=21, leaves_evaluated=9",
        "'O b2', 'Die for X: 2 — column b'",
        "hold is optimal in 0",
    ):
        assert row in flat, f"lesson 09 lacks {row!r}"
    assert any("image/png" in output.get("data", {}) for cell in code_cells(nb) for output in cell.outputs)
    assert "ev.play(" in "\n".join(cell.source for cell in code_cells(nb))
    assert "ev.play_game(" in "\n".join(cell.source for cell in code_cells(nb))
    for source in ("Ballard", "Hauk, Buro and Schaeffer", "Veness and Blair", "Neller and Presser", "AIMA"):
        assert source in text, f"lesson 09 does not cite {source}"


# ---- breaking an algorithm makes nbval fail -------------------------------------------------------------------

# name: (module, a line of its source, the broken line, the lessons, what the failing cell's source must contain).
# Each mutation runs on each of its lessons apart: every one of them must fail, in a cell that prints behaviour
# (values, best moves, counts, pruned leaves) of a call to that algorithm, never only in a printed source listing.
MUTATIONS: dict[str, tuple[str, str, str, tuple[str, ...], str]] = {
    # Ties replace the best move: minimax keeps the last of equal moves instead of the first (lesson 01: the tie
    # rule; lesson 08: X a1 from the empty board, X c1 against the blocker, both chosen by a tie).
    "minimax-ties-go-to-the-last-move": ("expectviz.minimax", "if v2 > v:", "if v2 >= v:", ("01-", "08-"), "minimax("),
    # MIN cuts only when v < alpha, whatever prune_ties says: the ties that AIMA prunes are searched.
    "alphabeta-min-cuts-only-below-alpha": (
        "expectviz.alphabeta",
        "if v <= alpha and (prune_ties or v < alpha):",
        "if v < alpha:",
        ("02-",),
        "alphabeta(",
    ),
    # aima-python's expect_minmax: the probability-weighted sum divided again by the number of outcomes.
    "expectiminimax-divides-by-outcomes": (
        "expectviz.expectiminimax",
        "v = v + p * v2",
        "v = v + p * v2 / len(game.chance_outcomes(state))",
        ("03-",),
        "expectiminimax(",
    ),
    # Star1 settles a chance node as soon as one outcome is at most alpha (MAX's best elsewhere), not alpha_i (the
    # least that outcome must reach, given what the other outcomes can still add): a wrong fail low.
    "star1-fails-low-on-alpha": (
        "expectviz.star",
        "if v <= alpha_i:  # fails low: the chance node is at most alpha",
        "if v <= alpha:  # fails low: the chance node is at most alpha",
        ("05-",),
        "star1(",
    ),
    # Star1 searches an outcome with alpha instead of alpha_i as the lower edge of its window.
    "star1-searches-the-outcome-with-alpha": (
        "expectviz.star",
        "v, _ = value(child, max(alpha_i, L), min(beta_i, U), depth - 1, probed[i])",
        "v, _ = value(child, max(alpha, L), min(beta_i, U), depth - 1, probed[i])",
        ("05-",),
        "star1(",
    ),
    # OpenSpiel-style depth counting: a chance level does not count toward the depth (lesson 06 says it does).
    "expectiminimax-chance-levels-do-not-count": (
        "expectviz.expectiminimax",
        "v2, _ = expectiminimax_value(game.result(state, r), depth - 1)",
        "v2, _ = expectiminimax_value(game.result(state, r), depth)",
        ("06-",),
        "expectiminimax(",
    ),
    # Off-by-one depth limits: each search goes one level deeper than asked (lesson 06's trees and tic-tac-toe).
    "minimax-depth-off-by-one": (
        "expectviz.minimax",
        "if depth == 0:  # CUTOFF-TEST: the static evaluation EVAL",
        "if depth < 0:  # CUTOFF-TEST: the static evaluation EVAL",
        ("06-",),
        "minimax(",
    ),
    "alphabeta-depth-off-by-one": (
        "expectviz.alphabeta",
        "if depth == 0:  # the depth limit: the static evaluation",
        "if depth < 0:  # the depth limit: the static evaluation",
        ("06-",),
        "alphabeta(",
    ),
    "expectiminimax-depth-off-by-one": (
        "expectviz.expectiminimax",
        "if depth == 0:  # the depth limit: the heuristic value",
        "if depth < 0:  # the depth limit: the heuristic value",
        ("06-",),
        "expectiminimax(",
    ),
}
RUNS = [(mutation, prefix) for mutation, (_, _, _, prefixes, _) in MUTATIONS.items() for prefix in prefixes]
"""Every (mutation, lesson) pair: one nbval run each."""

SITECUSTOMIZE = '''\
"""Break one line of an expectviz algorithm in this process (tests/test_notebooks.py)."""
import importlib
import sys

import expectviz

MODULE, OLD, NEW = {module!r}, {old!r}, {new!r}
module = importlib.import_module(MODULE)
with open(module.__file__, encoding="utf-8") as handle:
    source = handle.read()
if source.count(OLD) != 1:
    sys.exit(f"sitecustomize: {{OLD!r}} is not exactly once in {{module.__file__}}; update tests/test_notebooks.py")
old_functions = {{name: getattr(module, name) for name in module.__all__}}  # star1 and star2 for expectviz.star
# Same file name and line count, so tracebacks and inspect.getsource still point at the real file.
exec(compile(source.replace(OLD, NEW), module.__file__, "exec"), module.__dict__)
replaced = {{id(old_functions[name]): module.__dict__[name] for name in old_functions}}
for name, loaded in list(sys.modules.items()):
    if name == "expectviz" or name.startswith("expectviz."):
        for attribute, value in list(vars(loaded).items()):
            if id(value) in replaced:
                setattr(loaded, attribute, replaced[id(value)])
for key, value in list(expectviz.ALGORITHMS.items()):
    if id(value) in replaced:
        expectviz.ALGORITHMS[key] = replaced[id(value)]
'''


def lesson(prefix: str) -> Path:
    found = [p for p in NOTEBOOKS if p.name.startswith(prefix)]
    if not found:
        pytest.skip(f"no notebooks/{prefix}*.ipynb yet")
    return found[0]


def start_nbval(notebooks: list[Path], workdir: Path, mutation: str | None) -> subprocess.Popen[str]:
    """Start pytest --nbval on copies of ``notebooks`` in ``workdir``, with the mutation's sitecustomize if any."""
    workdir.mkdir(parents=True)
    for notebook in notebooks:
        shutil.copy(notebook, workdir / notebook.name)
    env = dict(os.environ)
    if mutation is not None:
        module, old, new, _, _ = MUTATIONS[mutation]
        patch_dir = workdir / "patch"
        patch_dir.mkdir()
        (patch_dir / "sitecustomize.py").write_text(SITECUSTOMIZE.format(module=module, old=old, new=new))
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(patch_dir), env.get("PYTHONPATH")]))
    command = [
        sys.executable, "-m", "pytest", "--nbval", *[notebook.name for notebook in notebooks], "--nbval-current-env",
        "--nbval-sanitize-with", str(SANITIZE), "-p", "no:cacheprovider", "-q", "-rfE", "--rootdir", str(workdir),
    ]  # fmt: skip
    return subprocess.Popen(command, cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


Key = tuple[str, str] | None
"""A (mutation, lesson prefix) run, or None for the unchanged lessons."""

PARALLEL = 4
"""How many nbval runs go at once (each starts a kernel; more only queue on two cores)."""


@pytest.fixture(scope="module")
def nbval_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[Key, tuple[int, str]]:
    """The nbval runs the mutation tests need: the unchanged lessons, then each mutation on each of its lessons.

    Keyed by (mutation, lesson prefix) (None: unchanged); each value is pytest's exit status and output.
    At most ``PARALLEL`` run at once; about 75 s in all on two idle cores.
    """
    pytest.importorskip("nbval")
    if shutil.which("dot") is None:
        pytest.skip("Graphviz `dot` is not installed (make dot); the lessons draw diagrams")
    root = tmp_path_factory.mktemp("nbval")
    jobs: list[tuple[Key, list[Path], Path, str | None]] = [
        (None, sorted({lesson(prefix) for _, prefix in RUNS}), root / "unchanged", None)
    ]
    for mutation, prefix in RUNS:
        jobs.append(((mutation, prefix), [lesson(prefix)], root / f"{mutation}-{prefix.rstrip('-')}", mutation))
    running: dict[Key, subprocess.Popen[str]] = {}
    results: dict[Key, tuple[int, str]] = {}
    try:
        for key, notebooks, workdir, mutation in jobs:
            if len(running) == PARALLEL:
                finish_one(running, results)
            running[key] = start_nbval(notebooks, workdir, mutation)
        while running:
            finish_one(running, results)
    finally:
        for process in running.values():
            if process.poll() is None:
                process.kill()
    return results


def finish_one(running: dict[Key, subprocess.Popen[str]], results: dict[Key, tuple[int, str]]) -> None:
    """Wait for the oldest running nbval and move its exit status and output to ``results``."""
    key = next(iter(running))
    out, _ = running[key].communicate(timeout=300)
    results[key] = (running.pop(key).returncode, out)


def failing_cells(output: str, notebook: str) -> list[int]:
    """The code cells of ``notebook`` (by index) that nbval failed in ``output``."""
    return [int(n) for n in re.findall(rf"^FAILED {re.escape(notebook)}::Cell (\d+)", output, re.M)]


RUN_IDS = [f"{mutation}-{prefix.rstrip('-')}" for mutation, prefix in RUNS]


@pytest.mark.parametrize("prefix", sorted({prefix for _, prefix in RUNS}))
def test_the_unbroken_lesson_passes(prefix: str, nbval_runs: dict[Key, tuple[int, str]]) -> None:
    notebook = lesson(prefix)
    status, output = nbval_runs[None]
    ours = re.findall(rf"^(?:FAILED|ERROR) {re.escape(notebook.name)}\b.*$", output, re.M)
    assert status in (0, 1) and not ours, f"nbval fails on an unchanged copy of {notebook.name}:\n{output[-4000:]}"


@pytest.mark.parametrize(("mutation", "prefix"), RUNS, ids=RUN_IDS)
def test_breaking_the_algorithm_fails_the_lesson(
    mutation: str, prefix: str, nbval_runs: dict[Key, tuple[int, str]]
) -> None:
    module, old, new, _, called = MUTATIONS[mutation]
    notebook = lesson(prefix)
    status, output = nbval_runs[(mutation, prefix)]
    assert "sitecustomize:" not in output, output[-2000:]
    assert status == 1, (
        f"nbval passed {notebook.name} with {module} broken ({old!r} -> {new!r}); the lesson does not check it "
        f"(exit status {status}):\n{output[-4000:]}"
    )
    failed = failing_cells(output, notebook.name)
    failing_anyway = set(failing_cells(nbval_runs[None][1], notebook.name))  # stale outputs: not the mutation's doing
    cells = code_cells(load(notebook))
    checked = [
        n
        for n in failed
        if n not in failing_anyway
        and called in cells[n].source
        and any(o.output_type in ("stream", "execute_result") for o in cells[n].outputs)
        and "nbval-ignore-output" not in tags(cells[n])
        and "getsource" not in cells[n].source
    ]
    shown = textwrap.indent("\n---\n".join(cells[n].source for n in failed), "    ")
    assert checked, f"nbval failed {notebook.name} only in cells that do not print {called}...'s behaviour:\n{shown}"
