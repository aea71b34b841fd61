"""Handouts and exams: a tree with empty value boxes for students, its answer key, and seeded exams.

:func:`handout` draws one search twice, each on an A4 page: the *sheet*, where every
node's value is an empty box to fill in (the leaves' utilities, and at a depth limit
the static evaluations, are given), and the *key*, the search's last frame (values;
pruned leaves grey and dashed, their edges marked ✂; for alpha-beta, Star1 and
Star2 the window each node was searched with) with the answers written out under
it.  :func:`exam` asks fresh questions about trees from the seeded random-tree
generator (:mod:`expectviz.games.random_trees`); :func:`exam_pages` lays them out,
the questions first and the answer key at the end.

There is one drawing: the SVG of :mod:`expectviz.render.svg`, on one layout per
tree.  A sheet is that drawing painted plain, with ``ItemPaint.blank`` set on the
nodes whose values are asked; the key is the search's last frame.  A page is an
A4-sized SVG holding the drawing, and PDF and PNG files are that SVG rasterised by
CairoSVG (:mod:`expectviz.render.raster`), so a PDF shows what the player shows.

AIMA Fig. 5.2 under alpha-beta (Fig. 5.5): four boxes on the sheet, and a key
that names the pruned leaves and the windows:

>>> q = question("aima-fig-5.2", algorithm="alphabeta")
>>> q.sheet.count('data-answer="1"'), q.key.count('data-answer="1"')
(4, 0)
>>> print("\\n".join(q.answers))
Value of the root: 3, by move a1.
Values: A 3, B 3, C ≤ 2, D 2.
Pruned leaves (never evaluated): c2 = 4, c3 = 6; alpha-beta evaluates 7 of the 9 leaves.
Windows [α, β] the nodes are searched with: A [−∞, +∞], B [−∞, +∞], C [3, +∞], D [3, +∞].

The same seed gives the same exam, question for question:

>>> [q.kind for q in exam(7, 5)]
['minimax', 'alphabeta', 'expectiminimax', 'star1', 'depth']
>>> exam(7, 2)[1].answers == exam(7, 2)[1].answers
True

A tree with no names and no move labels is named as the textbook figures are
(A, B, C, ... level by level; moves a1, a2, ...), so that the key can name its
nodes.  Every value is from MAX's point of view.
"""

from __future__ import annotations

import dataclasses
import os
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError, RenderError
from .explain import describe_path, say
from .games.random_trees import EXERCISE_BOUNDS, random_exercise
from .games.textbook import TEXTBOOK
from .registry import ALGORITHM_INFO, info
from .search import Result, as_tree
from .tree import CHANCE, LEAF, MAX, MIN, Node, check, nodes

__all__ = [
    "Question",
    "KINDS",
    "PAGE",
    "MAX_QUESTIONS",
    "MAX_HANDOUT_NODES",
    "question",
    "handout",
    "exam",
    "exam_pages",
    "write_handout",
    "write_exam",
    "write_pages",
    "page_files",
    "exam_title",
]

KINDS = ("minimax", "alphabeta", "expectiminimax", "star1", "depth")
"""The kinds of exam question, in the order :func:`exam` cycles through them: minimax values, the leaves
alpha-beta prunes, expectiminimax values, Star1's first cutoff at a chance node with its alpha_i window,
and a depth-limited minimax value."""

PAGE = (595.0, 842.0)
"""An A4 page in points, portrait (a wide tree's handout is turned to landscape)."""
MAX_QUESTIONS = 100
"""The most questions one exam holds."""
MAX_HANDOUT_NODES = 150
"""The largest tree a handout draws (every node is drawn, none collapsed: each may carry an answer)."""

_MARGIN = 42.0
"""The page margin, in points (about 15 mm)."""
_FOOTER = 20.0
"""Room kept at the bottom of a page for its footer line."""
_BODY = 11.0
_TITLE = 16.0
_HEADING = 13.0
_SMALL = 8.5
_LEADING = 1.35
"""Line height as a multiple of the font size."""
_FONT = "Helvetica, Arial, sans-serif"
_LEGIBLE = 0.8
"""An exam is printed landscape when its widest tree would be drawn smaller than this on a portrait page
(the labels' 11 pt would be under 9 pt)."""
_ATTEMPTS = 200
"""How many trees an exam question may draw before one fits its kind (each is seeded; none so far has needed
more than a handful)."""

_NAMES = {
    "minimax": "minimax",
    "alphabeta": "alpha-beta",
    "expectiminimax": "expectiminimax",
    "star1": "Star1",
    "star2": "Star2",
}
"""The algorithms' names in sentences."""
_OPERATORS = frozenset({"≤", "≥", "=", "≈"})
"""A line never breaks next to these (``C ≤ 2`` stays on one line)."""
_NARROW = frozenset("ijlfrt.,:;'|!()[] ")
_WIDE = frozenset("mwMW@")
_GREY = "#555555"


# ---------------------------------------------------------------- questions


@dataclass(frozen=True)
class Question:
    """One tree to work on: the question, its drawings, and its answers."""

    kind: str
    """``handout`` for :func:`question`, else one of :data:`KINDS`."""
    title: str
    """A short heading: what is asked, on which tree."""
    prompt: str
    """The question, in full."""
    tree: Node
    algorithm: str
    depth: int | None
    bounds: tuple[Any, Any] | None
    answers: tuple[str, ...]
    """The key's lines: values, the best move, pruned leaves, windows, the first cutoff."""
    blanks: tuple[str, ...]
    """The sheet's answer lines, each a label with a line to write on."""
    sheet: str = field(repr=False)
    """The tree drawn with empty boxes for the values asked (SVG)."""
    key: str = field(repr=False)
    """The search's last frame drawn (SVG): values, pruned leaves, windows."""
    result: Result = field(repr=False)


def question(
    tree: Node | str,
    *,
    algorithm: str | None = None,
    depth: int | None = None,
    bounds: tuple[Any, Any] | None = None,
    title: str | None = None,
) -> Question:
    """A handout question on one tree: fill in the values the search finds (and for pruning searches, cross out
    the leaves it never evaluates and write the windows).

    Args:
        tree: a tree, tree text or a textbook tree's name (a textbook tree brings its bounds).
        algorithm: minimax, alphabeta, expectiminimax, star1 or star2; None picks alphabeta, or
            expectiminimax on a tree with chance nodes.
        depth: a depth limit: the nodes there count their static evaluations ``[v]``.
        bounds: ``(L, U)`` for star1 and star2.
        title: the heading (default: the textbook tree's name, or "a tree").

    Raises:
        SearchError: an unknown algorithm, star1/star2 without bounds, or a search this tree refuses.
        RenderError: a tree of more than :data:`MAX_HANDOUT_NODES` nodes.
    """
    name = tree.strip() if isinstance(tree, str) and tree.strip() in TEXTBOOK else None
    if name is not None and bounds is None:
        bounds = TEXTBOOK[name].bounds
    root = _named(as_tree(tree))
    if algorithm is None:
        algorithm = "expectiminimax" if any(n.kind == CHANCE for n in nodes(root)) else "alphabeta"
    facts = info(algorithm)
    what = title or name or "a tree"
    prompt = _handout_prompt(algorithm, depth, bounds)
    blanks = ["Value of the root", "MAX's move at the root"]
    if facts.windowed:
        blanks.append("Leaves never evaluated")
    if facts.star:
        blanks.append("First cutoff at a chance node, and its outcome's αᵢ")
    heading = _capital(_NAMES[algorithm]) + (f" to depth {depth}" if depth is not None else "") + f" on {what}"
    return _make(
        "handout", heading, prompt, root, algorithm, depth, bounds, tuple(blanks), caption="", answers=_all_answers
    )


def handout(
    tree: Node | str,
    *,
    algorithm: str | None = None,
    depth: int | None = None,
    bounds: tuple[Any, Any] | None = None,
    title: str | None = None,
) -> tuple[str, str]:
    """The two pages of a handout, as SVG: the sheet (empty value boxes) and its key.

    Arguments as for :func:`question`.  Each page is A4, portrait, or landscape when that draws a wide tree
    larger.

    >>> sheet, key = handout("aima-fig-5.2")
    >>> 'width="595pt" height="842pt"' in sheet, "c2 = 4, c3 = 6" in key, "c2 = 4" in sheet
    (True, True, False)
    """
    q = question(tree, algorithm=algorithm, depth=depth, bounds=bounds, title=title)
    return _handout_pages(q)


def write_handout(
    tree: Node | str,
    output: str | os.PathLike[str],
    *,
    algorithm: str | None = None,
    depth: int | None = None,
    bounds: tuple[Any, Any] | None = None,
    title: str | None = None,
) -> list[str]:
    """Write a handout: a two-page .pdf (the sheet, then the key), or two .svg or .png files,
    ``sheet.svg`` and ``sheet-key.svg`` for ``output="sheet.svg"``.

    Returns:
        The files written.

    Raises:
        RenderError: another extension, or no CairoSVG for .pdf and .png.
    """
    _extension(output)
    pages = handout(tree, algorithm=algorithm, depth=depth, bounds=bounds, title=title)
    return write_pages(pages, output, handout=True)


# ---------------------------------------------------------------- exams


def exam(seed: int | str, count: int, *, kinds: Sequence[str] | None = None) -> list[Question]:
    """``count`` fresh questions from the seeded random-tree generator; the same seed gives the same exam.

    Question ``n`` (from 1) is of kind ``kinds[(n - 1) % len(kinds)]`` (default :data:`KINDS`: minimax values,
    the leaves alpha-beta prunes, expectiminimax values, Star1's first cutoff at a chance node with its
    alpha_i window, a depth-limited value).  Its tree is :func:`~expectviz.games.random_trees.random_exercise`
    with the seed ``f"{seed}/{n}/{attempt}"``: the first attempt whose tree suits the kind (one best move at
    the root; alpha-beta prunes a leaf; Star1 cuts off at a chance node).  Leaves lie in
    :data:`~expectviz.games.random_trees.EXERCISE_BOUNDS`.

    Raises:
        OptionError: a count outside 1 to :data:`MAX_QUESTIONS`, a seed that is neither a whole number nor a
            text, or an unknown kind.
    """
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise OptionError(f"the seed must be a whole number or a text, not {seed!r}")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_QUESTIONS:
        raise OptionError(f"the number of questions must be a whole number from 1 to {MAX_QUESTIONS}, not {count!r}")
    chosen = tuple(KINDS if kinds is None else kinds)
    if not chosen:
        raise OptionError(f"give at least one kind of question: {', '.join(KINDS)}")
    for kind in chosen:
        if kind not in KINDS:
            raise OptionError(f"unknown kind of question {kind!r}; the kinds are {', '.join(KINDS)}")
    return [_exam_question(seed, n, chosen[(n - 1) % len(chosen)]) for n in range(1, count + 1)]


def exam_pages(questions: Sequence[Question], *, title: str = "Exam") -> list[str]:
    """The pages of an exam, as A4 SVG: the questions (each with its tree, empty boxes and answer lines),
    then, from a new page, the answer key (each question's answers and its solved tree).

    The pages are portrait, or landscape when the widest tree would be drawn at less than 80 % on a portrait
    page.  A question starts a page when it does not fit under the one before.
    """
    if not questions:
        raise OptionError("an exam needs at least one question")
    header: list[_Element] = [
        _TitleRow(title),
        _Text(
            "Search children left to right. Every value is from MAX's point of view: MAX moves at an upward "
            "triangle, MIN at a downward one, and a circle is a chance node whose outcomes have the probabilities "
            "on their edges (equal when none are written).",
            _BODY,
        ),
    ]
    blocks: list[_Block] = []
    for n, q in enumerate(questions, 1):
        asked: list[_Element] = [
            _Text(f"Question {n}. {q.title}", _HEADING, bold=True),
            _Text(q.prompt, _BODY),
            _Figure(q.sheet, max_scale=1.0, max_height=400.0),
            _Blanks(q.blanks),
        ]
        blocks.append(_Block(header + asked if n == 1 else asked))
    for n, q in enumerate(questions, 1):
        answered: list[_Element] = [
            _Text(f"{n}. {q.title}", _HEADING, bold=True),
            *[_Text(line, _BODY, indent=10.0) for line in q.answers],
            _Figure(q.key, max_scale=0.8, max_height=300.0),
        ]
        if n == 1:
            blocks.append(_Block([_Text(f"{title}: answer key", _TITLE, bold=True), *answered], new_page=True))
        else:
            blocks.append(_Block(answered))
    widest = max(_figure_size(q.sheet)[0] for q in questions)
    portrait = min(1.0, (PAGE[0] - 2 * _MARGIN) / widest)
    size = PAGE if portrait >= _LEGIBLE else (PAGE[1], PAGE[0])
    return _flow(blocks, size, footer=title)


def write_exam(
    seed: int | str, count: int, output: str | os.PathLike[str], *, kinds: Sequence[str] | None = None
) -> list[str]:
    """Write an exam: one .pdf, or one .svg or .png file per page (``exam-1.png``, ``exam-2.png``, ...).

    Returns:
        The files written.
    """
    _extension(output)
    pages = exam_pages(exam(seed, count, kinds=kinds), title=exam_title(seed))
    return write_pages(pages, output)


def exam_title(seed: int | str) -> str:
    """The heading of the exam with this seed (it names the seed, so that the exam can be made again)."""
    return f"Exam (seed {seed})"


def page_files(output: str | os.PathLike[str], pages: int, *, handout: bool = False) -> list[str]:
    """The files :func:`write_handout` (``handout=True``) or :func:`write_exam` writes for ``output``.

    Raises:
        RenderError: an extension other than .pdf, .svg and .png.

    >>> page_files("sheet.svg", 2, handout=True), page_files("exam.png", 3), page_files("exam.pdf", 3)
    (['sheet.svg', 'sheet-key.svg'], ['exam-1.png', 'exam-2.png', 'exam-3.png'], ['exam.pdf'])
    """
    kind = _extension(output)
    name = os.fspath(output)
    stem, ext = os.path.splitext(name)  # the extension as written (.PNG stays .PNG)
    if kind == ".pdf":
        return [name]
    if handout:
        return [name, f"{stem}-key{ext}"]
    return [f"{stem}-{k}{ext}" for k in range(1, pages + 1)]


def _exam_question(seed: int | str, n: int, kind: str) -> Question:
    """Question ``n`` of the exam: the first seeded tree that suits ``kind``."""
    for attempt in range(_ATTEMPTS):
        made = _ASK[kind](f"{seed}/{n}/{attempt}")
        if made is not None:
            return made
    raise OptionError(f"no tree for a {kind} question after {_ATTEMPTS} tries with seed {seed!r}")  # pragma: no cover


def _ask_minimax(seed: str) -> Question | None:
    rng = random.Random(seed)
    tree = random_exercise(seed, kind="minimax", size=rng.choice(("small", "medium")))
    return _exam_make(
        "minimax",
        "Minimax values",
        "Write the minimax value of every MAX and MIN node in its box (MAX takes the largest value of its "
        "children, MIN the smallest). Which move does MAX make at the root?",
        tree,
        "minimax",
        blanks=("Value of the root", "MAX's move"),
        answers=_value_answers,
    )


def _ask_alphabeta(seed: str) -> Question | None:
    rng = random.Random(seed)
    tree = random_exercise(seed, kind="minimax", size=rng.choice(("small", "medium")))
    return _exam_make(
        "alphabeta",
        "Alpha-beta pruning",
        "Run alpha-beta on this tree, children left to right. Cross out every leaf it never evaluates, and "
        "write in each box the value the node returns (a bound such as ≤ 2 where a cutoff stops it early).",
        tree,
        "alphabeta",
        blanks=("Leaves never evaluated", "Value of the root"),
        answers=_pruning_answers,
        suits=lambda r, tree: r.stats.leaves_evaluated < _leaf_count(tree),
    )


def _ask_expectiminimax(seed: str) -> Question | None:
    rng = random.Random(seed)
    tree = random_exercise(seed, kind="chance", size=rng.choice(("small", "medium")))
    return _exam_make(
        "expectiminimax",
        "Expectiminimax values",
        "A chance node (circle) is worth the average of its outcomes, each weighted by its probability (here "
        "every outcome is equally likely). Write the expectiminimax value of every node in its box. Which move "
        "does MAX make at the root?",
        tree,
        "expectiminimax",
        blanks=("Value of the root", "MAX's move"),
        answers=_value_answers,
    )


def _ask_star1(seed: str) -> Question | None:
    low, high = EXERCISE_BOUNDS
    tree = random_exercise(seed, kind="chance", size="medium")
    return _exam_make(
        "star1",
        "Star1's first cutoff",
        f"Run Star1 on this tree with the value bounds [L, U] = [{low}, {high}], children left to right. Which "
        "chance node is the first to be cut off, after which outcome, and what was that outcome's window "
        f"(αᵢ, βᵢ) before it was clipped to [{low}, {high}]? Which leaves are never evaluated?",
        tree,
        "star1",
        bounds=EXERCISE_BOUNDS,
        blanks=(
            "The chance node, and the outcome after which it is cut off",
            "That outcome's (αᵢ, βᵢ)",
            "Leaves never evaluated",
        ),
        answers=_star_answers,
        suits=lambda r, _: _first_chance_cutoff(r) is not None,
    )


def _ask_depth(seed: str) -> Question | None:
    rng = random.Random(seed)
    tree = _with_evaluations(random_exercise(seed, kind="minimax", size="medium"), 2, rng)
    return _exam_make(
        "depth",
        "A depth-limited value",
        "Search this tree with minimax to depth 2 only (the dashed line): a node on the line is not expanded, "
        "its static evaluation [v] stands for its value. Write the depth-limited value of every node above the "
        "line in its box. Which move does MAX make? Would a search to the leaves choose the same move?",
        tree,
        "minimax",
        depth=2,
        blanks=("Value of the root at depth 2, and MAX's move", "The move a search to the leaves makes"),
        answers=_depth_answers,
    )


_ASK: dict[str, Callable[[str], Question | None]] = {
    "minimax": _ask_minimax,
    "alphabeta": _ask_alphabeta,
    "expectiminimax": _ask_expectiminimax,
    "star1": _ask_star1,
    "depth": _ask_depth,
}


def _exam_make(
    kind: str,
    title: str,
    prompt: str,
    tree: Node,
    algorithm: str,
    *,
    blanks: tuple[str, ...],
    answers: Callable[[Result, Any, Any], list[str]],
    depth: int | None = None,
    bounds: tuple[Any, Any] | None = None,
    suits: Callable[[Result, Node], bool] | None = None,
) -> Question | None:
    """The question, or None when its tree does not suit it (a tie for the best move, or ``suits`` says no)."""
    from . import ALGORITHMS

    search = ALGORITHMS[algorithm]
    options: dict[str, Any] = {"depth": depth}
    if bounds is not None:
        options["bounds"] = bounds
    result = search(tree, **options)
    if not _one_best_move(result) or (suits is not None and not suits(result, tree)):
        return None
    return _make(
        kind, title, prompt, tree, algorithm, depth, bounds, blanks, caption="", answers=answers, result=result
    )


# ---------------------------------------------------------------- drawing a question


def _make(
    kind: str,
    title: str,
    prompt: str,
    tree: Node,
    algorithm: str,
    depth: int | None,
    bounds: tuple[Any, Any] | None,
    blanks: tuple[str, ...],
    *,
    caption: str,
    answers: Callable[[Result, Any, Any], list[str]],
    result: Result | None = None,
) -> Question:
    """Search (unless done), then draw the sheet and the key on the search's one layout."""
    from .render.diagram import renderer_for
    from .render.scene import ItemPaint, Paint

    if result is None:
        from . import ALGORITHMS

        options: dict[str, Any] = {"depth": depth}
        if ALGORITHM_INFO[algorithm].needs_bounds or bounds is not None:
            options["bounds"] = bounds
        result = ALGORITHMS[algorithm](tree, **options)
    assert result.trace is not None
    size = sum(1 for _ in nodes(result.trace.tree))
    if size > MAX_HANDOUT_NODES:
        raise RenderError(
            f"this tree has {size:,} nodes; a handout draws every node, at most {MAX_HANDOUT_NODES} "
            "(use a smaller tree or a depth limit)"
        )
    renderer = renderer_for(result, max_nodes=None, legend=False)
    scene = renderer.scene
    end = renderer.paint(None)
    horizon = scene.static_depth
    sheet_looks = []
    for it in scene.items:
        asked = it.kind in (MAX, MIN, CHANCE) and (horizon is None or it.depth < horizon)
        given = f"[{it.evaluation}]" if it.evaluation and horizon is not None and it.depth == horizon else ""
        sheet_looks.append(ItemPaint("plain", value=given, edge="normal", blank=asked))
    sheet_paint = Paint(0, 0, sheet_looks, caption, "")
    key_looks = [dataclasses.replace(look, ring=False) for look in end.items]
    stats = result.stats
    key_caption = (
        f"{_capital(_NAMES[algorithm])}: value {say(result.exact_value)}, "
        f"{stats.leaves_evaluated} of {_leaf_count(result.trace.tree, horizon)} leaves evaluated"
    )
    key_paint = Paint(end.step, end.steps, key_looks, key_caption, "")
    lines = answers(result, scene, end)
    return Question(
        kind=kind,
        title=title,
        prompt=prompt,
        tree=tree,
        algorithm=algorithm,
        depth=depth,
        bounds=bounds,
        answers=tuple(lines),
        blanks=blanks,
        sheet=renderer.drawer.svg(sheet_paint),
        key=renderer.drawer.svg(key_paint),
        result=result,
    )


# ---------------------------------------------------------------- answers


def _all_answers(result: Result, scene: Any, end: Any) -> list[str]:
    """A handout's key: value and move, every node's value, and for pruning searches the pruned leaves, the
    windows and (Star1, Star2) the first cutoff at a chance node."""
    lines = _value_answers(result, scene, end)
    facts = info(result.algorithm)
    if facts.windowed:
        lines.append(_pruned_line(result, scene, end))
        lines.append(_windows_line(scene, end))
    if facts.star:
        lines.extend(_first_cutoff_lines(result))
    return lines


def _value_answers(result: Result, scene: Any, end: Any) -> list[str]:
    return [_root_line(result), _values_line(scene, end)]


def _pruning_answers(result: Result, scene: Any, end: Any) -> list[str]:
    return [_pruned_line(result, scene, end), _root_line(result), _values_line(scene, end)]


def _star_answers(result: Result, scene: Any, end: Any) -> list[str]:
    return [*_first_cutoff_lines(result), _pruned_line(result, scene, end), _root_line(result)]


def _depth_answers(result: Result, scene: Any, end: Any) -> list[str]:
    from . import ALGORITHMS

    full = ALGORITHMS[result.algorithm](result.trace.tree if result.trace is not None else None, trace=False)
    same = "the same move" if full.best_move == result.best_move else "a different move"
    return [
        _root_line(result, what=f"Value of the root at depth {result.depth}"),
        _values_line(scene, end),
        f"A search to the leaves finds the value {say(full.exact_value)} and the move {full.best_move}: {same}.",
    ]


def _root_line(result: Result, *, what: str = "Value of the root") -> str:
    move = f", by move {result.best_move}" if result.best_move is not None else ""
    return f"{what}: {say(result.exact_value)}{move}."


def _values_line(scene: Any, end: Any) -> str:
    """Every inner node's value as the key's drawing shows it, level by level (pruned ones said so)."""
    horizon = scene.static_depth
    parts = []
    for k in _level_order(scene):
        it, look = scene.items[k], end.items[k]
        if it.kind == LEAF or (horizon is not None and it.depth > horizon):
            continue
        name = _name(scene, k)
        if look.status == "pruned":
            parts.append(f"{name} pruned")
        elif look.status == "unvisited":
            parts.append(f"{name} not searched")
        else:
            parts.append(f"{name} {look.value}")
    return "Values: " + ", ".join(parts) + "."


def _pruned_line(result: Result, scene: Any, end: Any) -> str:
    pruned = [
        f"{_name(scene, k)} = {scene.items[k].leaf_text}"
        for k in range(len(scene.items))
        if scene.items[k].kind == LEAF and end.items[k].status == "pruned"
    ]
    total = _leaf_count(scene.tree, scene.static_depth)
    evaluated = result.stats.leaves_evaluated
    who = _NAMES[result.algorithm]
    if not pruned:
        return f"No leaf is pruned: {who} evaluates all {total} leaves."
    return f"Pruned leaves (never evaluated): {', '.join(pruned)}; {who} evaluates {evaluated} of the {total} leaves."


def _windows_line(scene: Any, end: Any) -> str:
    from .render.style import interval

    frame = scene.trace.frame(len(scene.trace))
    parts = []
    for k in _level_order(scene):
        it = scene.items[k]
        if it.kind == LEAF:
            continue
        state = frame.node(it.path)
        if state.window is not None and state.status != "pruned":
            parts.append(f"{_name(scene, k)} {interval(state.window)}")
    return "Windows [α, β] the nodes are searched with: " + ", ".join(parts) + "."


def _first_chance_cutoff(result: Result) -> tuple[int, tuple[int, ...], int, tuple[Any, Any] | None] | None:
    """Star1/Star2's first cutoff at a chance node: (step, the chance node's path, the outcome after which it
    is cut off, that outcome's (alpha_i, beta_i) before clipping), or None when no chance node is cut off."""
    trace = result.trace
    if trace is None:
        return None
    ix = trace.index
    windows: dict[tuple[int, ...], tuple[int, tuple[Any, Any]]] = {}
    for i in range(len(trace)):
        kind = trace.kind(i)
        if kind not in ("window", "cutoff"):
            continue
        event = trace[i]
        node = ix.nodes[ix.about[i]]
        if kind == "window" and event.child is not None:
            windows[event.path] = (event.child, (event.alpha, event.beta))
        elif kind == "cutoff" and node.kind == CHANCE:
            child, window = windows.get(event.path, (-1, None))
            outcome = child if child >= 0 else (event.child or 1) - 1
            return i + 1, event.path, outcome, window
    return None


def _first_cutoff_lines(result: Result) -> list[str]:
    from .render.style import number

    found = _first_chance_cutoff(result)
    if found is None:
        return ["No chance node is cut off."]
    assert result.trace is not None
    step, path, outcome, window = found
    trace = result.trace
    named = describe_path(trace.tree, path, trace.unique_labels)
    after = describe_path(trace.tree, (*path, outcome), trace.unique_labels)
    lines = [f"The first cutoff at a chance node is at {named}, after {after} (step {step}): {trace.explain(step)}"]
    if window is not None:
        pair = f"({number(window[0])}, {number(window[1])})"
        lines.append(f"{_capital(after)} was searched with (αᵢ, βᵢ) = {pair}.")
    return lines


# ---------------------------------------------------------------- tree helpers


def _named(tree: Node) -> Node:
    """A tree without any name or move label, named as the textbook figures are: inner nodes A, B, C, ...
    level by level, the edges below node X x1, x2, ... (other trees come back as they are)."""
    if any(n.name or n.move for n in nodes(tree)):
        return tree
    letters = _letters()
    level = [tree]
    names: dict[int, str] = {}
    while level:
        for n in level:
            if n.kind != LEAF:
                names[id(n)] = next(letters)
        level = [c for n in level for c in n.children]

    def rebuild(n: Node, move: str | None) -> Node:
        if n.kind == LEAF:
            return dataclasses.replace(n, move=move)
        name = names[id(n)]
        kids = tuple(rebuild(c, f"{name.lower()}{i}") for i, c in enumerate(n.children, 1))
        return dataclasses.replace(n, name=name, move=move, children=kids)

    return check(rebuild(tree, None))


def _letters() -> Any:
    """A, B, ..., Z, AA, AB, ..."""
    import itertools
    import string

    for width in itertools.count(1):
        for letters in itertools.product(string.ascii_uppercase, repeat=width):
            yield "".join(letters)


def _with_evaluations(tree: Node, depth: int, rng: random.Random) -> Node:
    """The tree with a static evaluation on every node ``depth`` deep: its minimax value give or take 6,
    within the exercise bounds (an evaluation is an estimate)."""
    from . import minimax

    low, high = EXERCISE_BOUNDS

    def walk(n: Node, level: int) -> Node:
        if n.kind == LEAF:
            return n
        if level == depth:
            true = minimax(n, trace=False).exact_value
            guess = max(low, min(high, int(true) + rng.randint(-6, 6)))
            return dataclasses.replace(n, evaluation=guess)
        return dataclasses.replace(n, children=tuple(walk(c, level + 1) for c in n.children))

    return check(walk(tree, 0))


def _one_best_move(result: Result) -> bool:
    """True when exactly one root move reaches the root's value (no tie to break)."""
    from . import ALGORITHMS

    trace = result.trace
    assert trace is not None
    root = trace.tree
    if root.kind not in (MAX, MIN) or len(root.children) < 2:
        return True
    search = ALGORITHMS["expectiminimax" if any(n.kind == CHANCE for n in nodes(root)) else "minimax"]
    limit = None if result.depth is None else result.depth - 1
    values = [search(child, depth=limit, trace=False).exact_value for child in root.children]
    return values.count(max(values) if root.kind == MAX else min(values)) == 1


def _leaf_count(tree: Node, horizon: int | None = None) -> int:
    """The leaves of the tree (above a depth limit ``horizon``: the ones a search can reach)."""
    count = 0
    stack = [(tree, 0)]
    while stack:
        n, level = stack.pop()
        if n.kind == LEAF:
            count += 1
        elif horizon is None or level < horizon:
            stack.extend((c, level + 1) for c in n.children)
    return count


def _level_order(scene: Any) -> list[int]:
    return sorted(range(len(scene.items)), key=lambda k: (scene.items[k].depth, k))


def _name(scene: Any, k: int) -> str:
    """Item ``k``'s name for the key: its name, else its move label, else the explanations' words."""
    it = scene.items[k]
    trace = scene.trace
    if it.name:
        return str(it.name)
    return describe_path(scene.tree, it.path, trace.unique_labels if trace is not None else None)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _handout_prompt(algorithm: str, depth: int | None, bounds: tuple[Any, Any] | None) -> str:
    from .render.style import number

    if algorithm == "minimax":
        text = (
            "Write each node's minimax value in its box: MAX takes the largest value of its children, MIN the "
            "smallest. Which move does MAX make at the root?"
        )
    elif algorithm == "expectiminimax":
        text = (
            "Write each node's expectiminimax value in its box: MAX takes the largest value of its children, "
            "MIN the smallest, and a chance node (circle) the average of its outcomes, each weighted by the "
            "probability on its edge (equal when none is written). Which move does MAX make at the root?"
        )
    else:
        start = f"Run {_NAMES[algorithm]}"
        if bounds is not None:
            start += f" with the value bounds [L, U] = [{number(bounds[0])}, {number(bounds[1])}]"
        text = (
            f"{start}, children left to right. Write in each box the value the node returns (a bound such as "
            "≤ 2 where a cutoff stops it early), cross out every leaf it never evaluates, and write under each "
            "node the window [α, β] it is searched with."
        )
        if info(algorithm).star:
            text += " Where is the first cutoff at a chance node, and what was the window (αᵢ, βᵢ) of the outcome "
            text += "that caused it, before clipping to [L, U]?"
        if algorithm == "star2":
            text += " Remember that Star2 first probes the first move below each outcome."
    if depth is not None:
        text += (
            f" Search to depth {depth} only (the dashed line): a node on the line is worth its static evaluation "
            "[v], and nothing below it is searched."
        )
    return text


# ---------------------------------------------------------------- pages


@dataclass
class _Text:
    """A paragraph, wrapped to the page."""

    text: str
    size: float
    bold: bool = False
    indent: float = 0.0
    colour: str = "#000000"


@dataclass
class _Blanks:
    """Answer lines: each label followed by a line to write on, the lines starting under one another."""

    labels: tuple[str, ...]


@dataclass
class _TitleRow:
    """The title, with Name and Date lines to its right when they fit there (else under it)."""

    title: str


@dataclass
class _Figure:
    """A drawing, scaled to fit: at most ``max_scale`` and ``max_height`` points high."""

    svg: str
    max_scale: float
    max_height: float


_Element = _Text | _TitleRow | _Blanks | _Figure


@dataclass
class _Block:
    """Elements kept together on one page (a question); ``new_page`` starts a page."""

    elements: list[_Element]
    new_page: bool = False


_SIZE = re.compile(r'width="([0-9.]+)pt" height="([0-9.]+)pt"')


def _figure_size(svg: str) -> tuple[float, float]:
    found = _SIZE.search(svg[:400])
    if found is None:
        raise RenderError("not a drawing of expectviz.render: its size in points is missing")
    return float(found.group(1)), float(found.group(2))


def _text_width(text: str, size: float) -> float:
    """An estimate of ``text``'s width in Helvetica or Arial at ``size`` points (narrow and wide letters told
    apart: wrapping by a generous average leaves lines short)."""
    ems = sum(0.3 if ch in _NARROW else 0.85 if ch in _WIDE else 0.66 if ch.isupper() else 0.54 for ch in text)
    return ems * size


def _wrap(text: str, size: float, width: float) -> list[str]:
    """``text`` in lines at most ``width`` points wide, by measured widths.  A line never breaks inside
    brackets or before one (``C [3, +∞]``), nor next to ``≤``, ``≥``, ``=`` (``c2 = 4``); a word longer than a line
    stands alone."""
    units: list[str] = []
    for piece in text.split():
        glued = _open(units[-1]) or units[-1].split()[-1] in _OPERATORS if units else False
        if units and (glued or piece in _OPERATORS or piece.startswith("[")):
            units[-1] += " " + piece
        else:
            units.append(piece)
    lines: list[str] = []
    line = ""
    for unit in units:
        candidate = f"{line} {unit}" if line else unit
        if line and _text_width(candidate, size) > width:
            lines.append(line)
            line = unit
        else:
            line = candidate
    return [*lines, line] if line or not lines else lines


def _open(text: str) -> bool:
    """Whether ``text`` leaves a bracket open, or a parenthesis that holds a pair (``(1,``), not prose."""
    pair = len(text) <= 12 and text.count("(") > text.count(")")
    return text.count("[") > text.count("]") or pair


def _gap(element: _Element) -> float:
    return 8.0 if isinstance(element, _Figure) else 6.0


def _title_fits(title: str, width: float) -> bool:
    """Whether the Name and Date lines fit right of ``title`` (each at least 120 points long)."""
    return _text_width(title, _TITLE) + 2 * (_text_width("Name:", _BODY) + 140) <= width


def _measure(element: _Element, width: float) -> float:
    """The height ``element`` takes on a page ``width`` wide (a figure at its largest)."""
    if isinstance(element, _TitleRow):
        return 30.0 if _title_fits(element.title, width) else 30.0 + 26.0
    if isinstance(element, _Text):
        return len(_wrap(element.text, element.size, width - element.indent)) * element.size * _LEADING
    if isinstance(element, _Blanks):
        return len(element.labels) * 26.0
    w, h = _figure_size(element.svg)
    scale = min(element.max_scale, width / w, element.max_height / h)
    return h * scale


def _flow(blocks: Sequence[_Block], size: tuple[float, float], *, footer: str) -> list[str]:
    """Lay blocks out on pages of ``size``: a block that does not fit starts a page; a figure too tall for a
    whole page is made smaller.  Each page gets a footer with its number."""
    width, height = size
    inner = width - 2 * _MARGIN
    bottom = height - _MARGIN - _FOOTER
    pages: list[list[str]] = []
    y = bottom + 1.0  # no page yet
    for block in blocks:
        needed = sum(_measure(e, inner) + _gap(e) for e in block.elements)
        if block.new_page or y + needed > bottom:
            pages.append([])
            y = _MARGIN
        room = bottom - y
        fixed = sum(_measure(e, inner) + _gap(e) for e in block.elements if not isinstance(e, _Figure))
        figures = [e for e in block.elements if isinstance(e, _Figure)]
        squeeze = 1.0
        if figures and needed > room:
            tall = sum(_measure(e, inner) for e in figures)
            squeeze = max(0.2, (room - fixed - sum(_gap(e) for e in figures)) / tall)
        for element in block.elements:
            y = _place(pages[-1], element, y, inner, squeeze)
        y += 10.0
    out = []
    for number, parts in enumerate(pages, 1):
        foot = (
            f'<text x="{_MARGIN:g}" y="{height - _MARGIN + 4:g}" font-size="{_SMALL:g}" fill="{_GREY}">'
            f"{_escape(footer)}</text>"
            f'<text x="{width - _MARGIN:g}" y="{height - _MARGIN + 4:g}" font-size="{_SMALL:g}" fill="{_GREY}" '
            f'text-anchor="end">page {number} of {len(pages)}</text>'
        )
        out.append(_page(size, "".join(parts) + foot))
    return out


def _place(parts: list[str], element: _Element, y: float, inner: float, squeeze: float = 1.0) -> float:
    """Draw ``element`` at ``y`` into ``parts``; returns the y under it."""
    x0 = _MARGIN
    if isinstance(element, _Text):
        weight = ' font-weight="bold"' if element.bold else ""
        leading = element.size * _LEADING
        for line in _wrap(element.text, element.size, inner - element.indent):
            y += leading
            parts.append(
                f'<text x="{x0 + element.indent:g}" y="{y - element.size * 0.3:.1f}" font-size="{element.size:g}"'
                f'{weight} fill="{element.colour}">{_escape(line)}</text>'
            )
        return y + _gap(element)
    if isinstance(element, _TitleRow):
        parts.append(
            f'<text x="{x0:g}" y="{y + 22:g}" font-size="{_TITLE:g}" font-weight="bold">{_escape(element.title)}</text>'
        )
        if _title_fits(element.title, inner):
            left = x0 + _text_width(element.title, _TITLE) + 24
            _fields(parts, ("Name", "Date"), left, x0 + inner, y + 24)
            return y + 30.0 + _gap(element)
        _fields(parts, ("Name", "Date"), x0, x0 + inner, y + 30 + 24)
        return y + 56.0 + _gap(element)
    if isinstance(element, _Blanks):
        start = x0 + 6 + max(_text_width(f"{label}:", _BODY) for label in element.labels)
        for label in element.labels:
            y += 26.0
            parts.append(f'<text x="{x0:g}" y="{y - 4:g}" font-size="{_BODY:g}">{_escape(label)}:</text>')
            parts.append(
                f'<line x1="{start:.1f}" y1="{y - 2:g}" x2="{x0 + inner:.1f}" y2="{y - 2:g}" '
                'stroke="#000000" stroke-width="0.6"/>'
            )
        return y + _gap(element)
    w, h = _figure_size(element.svg)
    scale = min(element.max_scale, inner / w, element.max_height / h) * squeeze
    shown_w, shown_h = w * scale, h * scale
    x = x0 + (inner - shown_w) / 2
    nested = _SIZE.sub(f'x="{x:.1f}" y="{y:.1f}" width="{shown_w:.1f}" height="{shown_h:.1f}"', element.svg, count=1)
    parts.append(nested)
    return y + shown_h + _gap(element)


def _fields(parts: list[str], labels: tuple[str, str], left: float, right: float, baseline: float) -> None:
    """Two labels side by side from ``left`` to ``right``, each followed by a line to write on; the first
    field gets 60 % of the room."""
    span = right - left
    x = left
    for i, label in enumerate(labels):
        share = span * (0.6 if i == 0 else 0.4)
        end = x + share - (12 if i + 1 < len(labels) else 0)
        start = x + _text_width(f"{label}:", _BODY) + 6
        parts.append(f'<text x="{x:.1f}" y="{baseline:g}" font-size="{_BODY:g}">{_escape(label)}:</text>')
        parts.append(
            f'<line x1="{start:.1f}" y1="{baseline + 2:g}" x2="{end:.1f}" y2="{baseline + 2:g}" '
            f'stroke="#000000" stroke-width="0.6"/>'
        )
        x += share


def _page(size: tuple[float, float], body: str) -> str:
    width, height = size
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}pt" height="{height:g}pt" '
        f'viewBox="0 0 {width:g} {height:g}" font-family="{_FONT}" font-size="{_BODY:g}">'
        f'<rect width="{width:g}" height="{height:g}" fill="#FFFFFF"/>{body}</svg>'
    )


def _escape(text: str) -> str:
    from .render.style import xml_escape

    return xml_escape(text)


def _handout_pages(q: Question) -> tuple[str, str]:
    """The sheet and the key, on A4 turned the way that draws the tree larger."""
    sheet = _Block(
        [
            _TitleRow(q.title),
            _Text(q.prompt, _BODY),
            _Figure(q.sheet, max_scale=1.3, max_height=2000.0),
            _Blanks(q.blanks),
        ]
    )
    legend = _key_legend(q)
    key = _Block(
        [
            _Text(f"Answer key: {q.title}", _TITLE, bold=True),
            _Figure(q.key, max_scale=1.3, max_height=2000.0),
            *([_Text(legend, _SMALL, colour=_GREY)] if legend else []),
            *[_Text(line, _BODY) for line in q.answers],
        ]
    )
    best: tuple[float, tuple[float, float]] | None = None
    for size in (PAGE, (PAGE[1], PAGE[0])):
        scale = _fitted_scale(sheet, size)
        if best is None or scale > best[0] * 1.1:
            best = (scale, size)
    assert best is not None
    size = best[1]
    key.new_page = True
    sheet_page, key_page = _flow([sheet, key], size, footer=f"expectviz handout: {q.title}")
    return sheet_page, key_page


def _key_legend(q: Question) -> str:
    """What the key's drawing shows, in words, for the algorithm of ``q``."""
    facts = info(q.algorithm)
    said = ["Blue: a node the search finished, its value beside it."]
    if facts.windowed:
        said.append(
            "Grey and dashed: never evaluated (✂ marks each edge a cutoff pruned). Under a node: αβ [α, β], the "
            "window it was searched with; range [lo, hi], what the leaves seen prove; ≥ v and ≤ v are bounds."
        )
    if facts.star:
        said.append("αᵢβᵢ: a chance outcome's window before clipping to [L, U]; L,U: a chance node's running bounds.")
    if facts.probes:
        said.append("probe: the value of an outcome's first move, searched first.")
    if q.depth is not None:
        said.append(f"[v]: a static evaluation, used at the depth limit {q.depth} (the dashed line).")
    return " ".join(said)


def _fitted_scale(block: _Block, size: tuple[float, float]) -> float:
    """The scale ``block``'s figure is drawn at on a page of ``size`` (squeezed to fit one page)."""
    width, height = size
    inner = width - 2 * _MARGIN
    room = height - 2 * _MARGIN - _FOOTER
    fixed = sum(_measure(e, inner) + _gap(e) for e in block.elements if not isinstance(e, _Figure))
    (figure,) = [e for e in block.elements if isinstance(e, _Figure)]
    w, h = _figure_size(figure.svg)
    scale = min(figure.max_scale, inner / w, figure.max_height / h)
    return min(scale, (room - fixed - _gap(figure)) / h)


# ---------------------------------------------------------------- files

_EXTENSIONS = (".pdf", ".svg", ".png")


def _extension(output: str | os.PathLike[str]) -> str:
    ext = os.path.splitext(os.fspath(output))[1].lower()
    if ext not in _EXTENSIONS:
        raise RenderError(
            f"cannot write a handout or exam as {ext or 'a file without extension'!r}; use .pdf, .svg or .png"
        )
    return ext


def write_pages(pages: Sequence[str], output: str | os.PathLike[str], *, handout: bool = False) -> list[str]:
    """Write pages made by :func:`handout` or :func:`exam_pages`: one .pdf, or a .svg or .png file per page
    named as :func:`page_files` says (every page is drawn before any file is written).

    Returns:
        The files written.

    Raises:
        RenderError: an extension other than .pdf, .svg and .png, or no CairoSVG for .pdf and .png.
    """
    from .render.raster import svg_to_png, svgs_to_pdf

    ext = _extension(output)
    targets = page_files(output, len(pages), handout=handout)
    if ext == ".pdf":
        data = [svgs_to_pdf(pages)]
    else:
        data = [page.encode("utf-8") if ext == ".svg" else svg_to_png(page) for page in pages]
    for target, content in zip(targets, data, strict=True):
        with open(target, "wb") as handle:
            handle.write(content)
    return targets
