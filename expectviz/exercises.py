"""Self-check exercises: a student's answer in, specific feedback out.

Two questions a lesson asks about a tree, each checked in pure Python so that the
checks can be tested (and used) without a browser:

* :func:`check_value` -- "what is the value of B?"
* :func:`check_pruned` -- "which leaves does this search prune?"

:func:`value_quiz` and :func:`pruned_quiz` put either behind an ipywidgets text
box, a Check button and a feedback line (ipywidgets is imported only there).

Nodes are named by their name (``B``), their move label (``a1``, ``b2``) or
their path from the root (a tuple of child indices, ``(1, 0)``).  Leaves can
also be named by their number, counting from 1 at the left ("leaf 5" is the
fifth leaf).  Every value is from MAX's point of view.

>>> import expectviz as ev
>>> tree = ev.textbook("aima-fig-5.2")
>>> print(check_value(tree, "B", 3))
Correct! B is a MIN node: its value is the smallest of 3, 12, 8, which is 3.
>>> print(check_pruned(ev.alphabeta(tree), "c2, c3"))  # doctest: +ELLIPSIS
Correct! alphabeta prunes c2, c3 (2 of 9 leaves). C is a MIN node whose value is now at most 2, ...
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Union

from .errors import ExerciseError
from .expectiminimax import expectiminimax
from .explain import describe_path
from .numbers import Number, exact, format_number, format_probability
from .search import Result, as_tree
from .tree import CHANCE, LEAF, MAX, MIN, Node, depth_first, node_at, nodes

__all__ = [
    "Feedback",
    "ExerciseError",
    "NodeRef",
    "check_value",
    "check_pruned",
    "value_of",
    "leaves",
    "pruned_leaves",
    "find_node",
    "Quiz",
    "quiz",
    "value_quiz",
    "pruned_quiz",
]

NodeRef = Union[str, int, tuple[int, ...]]  # noqa: UP007 (a runtime alias, also on Python 3.10)
"""How a question names a node: its name or move label, a leaf number (from 1, left to right), or its path."""

_CLOSE_ENOUGH = Fraction(1, 200)
"""How far a decimal answer may be from a value like 1/3 that has no finite decimal (0.33 is accepted)."""


@dataclass(frozen=True, slots=True)
class Feedback:
    """The verdict on one answer."""

    correct: bool
    """True when the answer is right."""
    message: str
    """What to tell the student: the verdict and the reason, naming the node."""

    def __str__(self) -> str:
        return self.message


# ---------------------------------------------------------------- finding nodes


def find_node(tree: Node, ref: NodeRef, *, depth: int | None = None) -> tuple[int, ...]:
    """The path of the node a question names.

    ``ref`` is a path (tuple), a leaf number (int, from 1 at the left), or text:
    a node's name or move label, or a leaf number written as digits.  Leaves are
    numbered as :func:`leaves` lists them (with a depth limit, the nodes at the
    limit count as leaves).

    >>> import expectviz as ev
    >>> tree = ev.textbook("aima-fig-5.2")
    >>> find_node(tree, "C"), find_node(tree, "d3"), find_node(tree, 4), find_node(tree, (2,))
    ((1,), (2, 2), (1, 0), (2,))
    """
    if isinstance(ref, tuple):
        try:
            node_at(tree, ref)
        except ValueError:
            raise ExerciseError(f"the tree has no node at path {ref!r}") from None
        return ref
    if isinstance(ref, bool) or not isinstance(ref, (str, int)):
        raise ExerciseError(f"name a node by its name, move label, leaf number or path, not {ref!r}")
    if isinstance(ref, int) or ref.strip().isdigit():
        number = int(ref)
        numbered = leaves(tree, depth=depth)
        if not 1 <= number <= len(numbered):
            raise ExerciseError(
                f"there is no leaf {number}: the leaves are numbered 1 to {len(numbered)} from the left"
            )
        return numbered[number - 1]
    label = ref.strip()
    by_name: list[tuple[int, ...]] = []
    by_move: list[tuple[int, ...]] = []
    for entering, path, node in depth_first(tree):
        if entering and node.name == label:
            by_name.append(tuple(path))
        elif entering and node.move == label:
            by_move.append(tuple(path))
    found = by_name or by_move
    if len(found) == 1:
        return found[0]
    if found:
        raise ExerciseError(f"{len(found)} nodes are called {label!r}; name the node by its path instead")
    raise ExerciseError(f"no node is called {label!r}; use a node's name or move label, a leaf number or a path")


def leaves(tree: Node, *, depth: int | None = None) -> list[tuple[int, ...]]:
    """The paths of the nodes a full search evaluates, left to right: the leaves of the
    tree, or with a depth limit the nodes at the limit and the leaves above it.

    >>> import expectviz as ev
    >>> leaves(ev.parse("max(1, min(2, 3))"))
    [(0,), (1, 0), (1, 1)]
    >>> leaves(ev.parse("max(1, min [2] (2, 3))"), depth=1)
    [(0,), (1,)]
    """
    return [
        tuple(path) for entering, path, node in depth_first(tree) if entering and _evaluated(node, len(path), depth)
    ]


def _evaluated(node: Node, level: int, depth: int | None) -> bool:
    """True for a node a full search evaluates: a leaf above the depth limit, or a node at the limit."""
    return (node.kind == LEAF and (depth is None or level <= depth)) or (depth is not None and level == depth)


def _describe(tree: Node, path: tuple[int, ...]) -> str:
    """A node's name for messages, as the trace's sentences name it (its name, a unique move label, or its moves)."""
    return describe_path(tree, path)


def _unique(tree: Node, label: str) -> bool:
    """True when the label names one node only (so an answer can use it)."""
    return sum(1 for node in nodes(tree) if node.name == label or node.move == label) == 1


def _sentence(text: str) -> str:
    """Start a sentence with a capital when it opens with a generated name ('the root', 'the MIN node after a2',
    'leaf 5'), never when it opens with a label."""
    for start in ("the ", "leaf ", "leaves "):
        if text.startswith(start):
            return text[0].upper() + text[1:]
    return text


def _describe_leaves(tree: Node, paths: Iterable[tuple[int, ...]], numbered: list[tuple[int, ...]]) -> str:
    """'c2, c3' for uniquely labelled leaves, 'leaves 6, 7, 8' for the others (numbered from the left)."""
    labels = []
    numbers = []
    for path in sorted(paths, key=numbered.index):
        node = node_at(tree, path)
        label = node.name or node.move
        if label is not None and _unique(tree, label):
            labels.append(label)
        else:
            numbers.append(str(numbered.index(path) + 1))
    parts = list(labels)
    if numbers:
        parts.append(("leaf " if len(numbers) == 1 else "leaves ") + ", ".join(numbers))
    return ", ".join(parts) if parts else "none"


# ---------------------------------------------------------------- "what is the value of B?"


def value_of(tree: Node | str, ref: NodeRef, *, depth: int | None = None) -> Number:
    """The exact value of a node (searched by expectiminimax), as a question expects it.

    ``depth`` is the depth limit of the search from the root: a node ``k`` levels
    down is searched with ``depth - k`` levels left (chance levels count).

    >>> import expectviz as ev
    >>> value_of(ev.textbook("aima-fig-5.12-left"), "a1")
    Fraction(21, 10)
    """
    root = as_tree(tree)
    path = find_node(root, ref, depth=depth)
    levels_left = None if depth is None else depth - len(path)
    if levels_left is not None and levels_left < 0:
        raise ExerciseError(f"{_describe(root, path)} lies below the depth limit {depth}: the search never reaches it")
    # The answer key is the package's own expectiminimax, run on the subtree below the node.
    return expectiminimax(node_at(root, path), depth=levels_left, trace=False).exact_value


def _tree_and_depth(tree_or_result: Node | str | Result, depth: int | None) -> tuple[Node, int | None]:
    """The tree to check answers on, and the depth limit (a result's own unless one is given)."""
    if isinstance(tree_or_result, Result):
        if tree_or_result.tree is None:
            raise ExerciseError(
                "this result searched a game with trace=False, so it kept no tree to check answers on; "
                "search again with trace=True"
            )
        return tree_or_result.tree, _depth_of(tree_or_result) if depth is None else depth
    return as_tree(tree_or_result), depth


def _depth_of(result: Result) -> int | None:
    """The depth limit a traced search ran with, read from where it used static evaluations."""
    if result.trace is None:
        return None
    trace = result.trace
    levels = [len(e.path) for e in trace if e.kind == "leaf" and trace.node(e.path).kind != LEAF]
    return min(levels) if levels else None


def _parse_number(answer: object) -> Number | None:
    if isinstance(answer, str):
        answer = answer.strip().replace("−", "-")
    try:
        return exact(answer, "answer")
    except ValueError:
        return None


def _matches(answer: Number, value: Number) -> bool:
    if answer == value:
        return True
    denominator = Fraction(value).denominator
    for factor in (2, 5):
        while denominator % factor == 0:
            denominator //= factor
    # 1/3 has no finite decimal, so 0.33 will do; 2.1 has one, so it must be exact.
    return denominator != 1 and abs(Fraction(answer) - Fraction(value)) <= _CLOSE_ENOUGH


def check_value(
    tree_or_result: Node | str | Result, node: NodeRef, answer: object, *, depth: int | None = None
) -> Feedback:
    """Check an answer to "what is the value of ``node``?".

    Args:
        tree_or_result: the tree (or its text, or a textbook name), or a search
            result (its tree, and the depth limit it used, are taken).
        node: the node asked about (name, move label, leaf number or path).
        answer: the student's answer: a number, or text such as ``"2.1"`` or ``"1/3"``.
        depth: the depth limit of the search the question is about (None: no limit).

    The feedback names the node's kind and the rule that gives its value; a wrong
    answer gets the rule and the children's values (not the answer), and a note
    on the usual slips (MIN taking the largest, a chance node's plain average).

    >>> import expectviz as ev
    >>> tree = ev.textbook("aima-fig-5.2")
    >>> print(check_value(tree, "B", 12))  # doctest: +NORMALIZE_WHITESPACE
    Not 12: that is the largest of them, and MIN takes the smallest.
    B is a MIN node: its value is the smallest of 3, 12, 8.
    >>> print(check_value("aima-fig-5.12-left", "a1", "2.1"))
    Correct! a1 is a CHANCE node: its value is the probability-weighted sum 0.9·2 + 0.1·3, which is 2.1.
    """
    root, depth = _tree_and_depth(tree_or_result, depth)
    path = find_node(root, node, depth=depth)
    value = value_of(root, path, depth=depth)
    rule, slips = _rule(root, path, depth)
    given = _parse_number(answer)
    if given is None:
        return Feedback(False, f"{answer!r} is not a number: write it like 3, -2.5 or 1/3.")
    if _matches(given, value):
        return Feedback(True, f"Correct! {_sentence(rule)}, which is {format_number(value)}.")
    slip = next((why for wrong, why in slips if wrong == given and wrong != value), None)
    head = f"Not {format_number(given)}: {slip}." if slip else f"Not {format_number(given)}."
    return Feedback(False, f"{head} {_sentence(rule)}.")


def _rule(root: Node, path: tuple[int, ...], depth: int | None) -> tuple[str, list[tuple[Number, str]]]:
    """The sentence that gives a node's value, and the wrong answers worth a specific note."""
    node = node_at(root, path)
    name = _describe(root, path)
    left = None if depth is None else depth - len(path)

    def is_a(kind: str) -> str:
        """ "B is a MIN node"; a node named by its moves says its kind already ("the MIN node after a2")."""
        return name if " after " in name else f"{name} is a {kind}"

    if node.kind == LEAF:
        return f"{is_a('leaf')}: its value is its utility", []
    if left == 0:
        slips: list[tuple[Number, str]] = []
        deeper = expectiminimax(node, trace=False).exact_value
        slips.append((deeper, "that is what a search below the depth limit would find"))
        return f"The depth limit stops the search at {name}: its value is its static evaluation", slips
    kids = [value_of(root, path + (i,), depth=depth) for i in range(len(node.children))]
    listed = ", ".join(format_number(v) for v in kids)
    if node.kind == MAX:
        return f"{is_a('MAX node')}: its value is the largest of {listed}", [
            (min(kids), "that is the smallest of them, and MAX takes the largest"),
        ]
    if node.kind == MIN:
        return f"{is_a('MIN node')}: its value is the smallest of {listed}", [
            (max(kids), "that is the largest of them, and MIN takes the smallest"),
        ]
    assert node.kind == CHANCE
    terms = " + ".join(
        f"{format_probability(c.probability or 0)}·{format_number(v)}" for c, v in zip(node.children, kids, strict=True)
    )
    weighted = sum((Fraction(c.probability or 0) * v for c, v in zip(node.children, kids, strict=True)), Fraction(0))
    n = len(kids)
    slips = [
        (
            _exact(Fraction(sum(kids, Fraction(0))) / n),
            "that is the plain average; weight each outcome by its probability",
        ),
        (
            _exact(weighted / n),
            "that divides by the number of outcomes a second time; the probabilities already sum to 1",
        ),
        (max(kids), "that is the best outcome, but chance does not choose: take the expectation"),
        (min(kids), "that is the worst outcome, but chance does not choose: take the expectation"),
    ]
    return f"{is_a('CHANCE node')}: its value is the probability-weighted sum {terms}", slips


def _exact(x: Fraction) -> Number:
    return int(x) if x.denominator == 1 else x


# ---------------------------------------------------------------- "which leaves are pruned?"


def _leaf_answers(
    tree: Node, answers: str | Iterable[NodeRef], depth: int | None
) -> tuple[set[tuple[int, ...]], str | None]:
    """The leaves an answer names, or an error message for the student."""
    if isinstance(answers, str):
        text = answers.strip()
        items: list[NodeRef] = [] if text.lower() in ("", "none", "-", "nothing") else re.split(r"[\s,;]+", text)
    else:
        items = list(answers)
    chosen: set[tuple[int, ...]] = set()
    for item in items:
        if isinstance(item, str) and item.lower() in ("", "leaf", "leaves", "and"):
            continue  # "leaves 6, 7 and 8"
        try:
            chosen.add(find_node(tree, item, depth=depth))
        except ExerciseError as error:
            return set(), f"{error}."
    return chosen, None


def _cutoff_steps(result: Result, pruned: set[tuple[int, ...]]) -> dict[tuple[int, ...], int]:
    """For each pruned leaf, the step of the cutoff that pruned it."""
    assert result.trace is not None
    where: dict[tuple[int, ...], int] = {}
    for index, event in enumerate(result.trace):
        if event.kind != "cutoff":
            continue
        depth = len(event.path)
        for leaf_path in pruned:
            if leaf_path not in where and leaf_path[:depth] == event.path and len(leaf_path) > depth:
                if leaf_path[depth] >= (event.child or 0):
                    where[leaf_path] = index + 1
    return where


def pruned_leaves(result: Result, *, depth: int | None = None) -> list[tuple[int, ...]]:
    """The leaves (numbered as by :func:`leaves`) that a traced search never evaluated, left to right."""
    if result.trace is None:
        raise ExerciseError("this question needs a traced search: run it with trace=True (the default)")
    if depth is None:
        depth = _depth_of(result)
    evaluated = {event.path for event in result.trace if event.kind == "leaf"}
    return [path for path in leaves(result.trace.tree, depth=depth) if path not in evaluated]


def check_pruned(result: Result, answers: str | Iterable[NodeRef], *, depth: int | None = None) -> Feedback:
    """Check an answer to "which leaves does this search prune?".

    Args:
        result: a traced search (alphabeta, star1, star2, ...).
        answers: the leaves the student names: text such as ``"c2, c3"`` or
            ``"6 7 8"`` (labels or leaf numbers from 1 at the left; ``""`` or
            ``"none"`` for none), or a list of labels, numbers or paths.
        depth: the depth limit the search ran with (None: read from the trace).

    A right answer is explained by the trace's own words for each cutoff; a wrong
    one says which named leaves are in fact evaluated and where to look for the
    missing ones.

    >>> import expectviz as ev
    >>> print(check_pruned(ev.star1("aima-star-exercise", bounds=(-2, 2)), "7, 8"))
    Not quite. 1 pruned leaf is missing: look at the cutoff at the MIN node after moves 2, 1.
    """
    pruned_list = pruned_leaves(result, depth=depth)
    assert result.trace is not None  # pruned_leaves checked it
    tree = result.trace.tree
    if depth is None:
        depth = _depth_of(result)
    numbered = leaves(tree, depth=depth)
    pruned = set(pruned_list)
    chosen, problem = _leaf_answers(tree, answers, depth)
    if problem is not None:
        return Feedback(False, problem)
    not_leaves = [path for path in chosen if path not in numbered]
    if not_leaves:
        names = ", ".join(_describe(tree, path) for path in sorted(not_leaves))
        return Feedback(False, f"{names}: name leaves only (the nodes the search would evaluate).")
    steps = _cutoff_steps(result, pruned)
    algorithm = result.algorithm
    if chosen == pruned:
        if not pruned:
            return Feedback(True, f"Correct! {algorithm} evaluates every leaf: nothing is pruned.")
        assert result.trace is not None
        reasons = []
        for step in sorted(set(steps.values())):
            reason = _sentence(result.trace.frame(step).explanation)
            if reason not in reasons:
                reasons.append(reason)
        listed = _describe_leaves(tree, pruned, numbered)
        return Feedback(
            True,
            f"Correct! {algorithm} prunes {listed} ({len(pruned)} of {len(numbered)} leaves). " + " ".join(reasons),
        )
    parts = ["Not quite."]
    extra = chosen - pruned
    if extra:
        verb = "is" if len(extra) == 1 else "are"
        parts.append(f"{_sentence(_describe_leaves(tree, extra, numbered))} {verb} evaluated, so not pruned.")
    missing = pruned - chosen
    if missing:
        assert result.trace is not None
        at = sorted(
            {result.trace[steps[path] - 1].path for path in missing if path in steps}, key=lambda p: (len(p), p)
        )
        where = " and ".join(_describe(tree, path) for path in at)
        look = f": look at the cutoff at {where}" if where else ""
        count = "1 pruned leaf is" if len(missing) == 1 else f"{len(missing)} pruned leaves are"
        parts.append(f"{count} missing{look}.")
    return Feedback(False, " ".join(parts))


# ---------------------------------------------------------------- the widgets


class Quiz:
    """A question, a text box, a Check button and a feedback line (ipywidgets).

    ``check`` turns the text typed into :class:`Feedback`.  The parts are
    attributes so that the widget can be driven from Python (``quiz.text.value =
    "3"; quiz.button.click()``); ``last`` is the latest feedback.  A quiz about a
    tree shows that tree: its saved output carries the question and the tree's
    drawing, so a notebook opened without a kernel (or on GitHub) shows them.
    """

    def __init__(
        self, question: str, check: Callable[[str], Feedback], *, placeholder: str = "", tree: Node | None = None
    ) -> None:
        import ipywidgets as widgets

        self.check = check
        self.tree = tree
        self.prompt = question
        self.last: Feedback | None = None
        self.question = widgets.HTML(f"<b>{html.escape(question)}</b>")
        self.text = widgets.Text(placeholder=placeholder, layout=widgets.Layout(width="16em"))
        self.button = widgets.Button(description="Check", button_style="primary")
        self.feedback = widgets.HTML("")
        self.button.on_click(self._on_click)
        self.widget = widgets.VBox([self.question, widgets.HBox([self.text, self.button]), self.feedback])

    def _on_click(self, _button: Any = None) -> None:
        self.last = self.check(self.text.value)
        mark, color = ("✔", "#1a7f37") if self.last.correct else ("✘", "#cf222e")
        self.feedback.value = f'<span style="color: {color}">{mark} {html.escape(self.last.message)}</span>'

    def __repr__(self) -> str:
        return f"Quiz({self.prompt!r})"

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget's view; for a saved notebook, the question (and the tree's drawing) as HTML and SVG."""
        bundle = self.widget._repr_mimebundle_(**kwargs)
        if not isinstance(bundle, dict):
            return bundle
        bundle["text/plain"] = repr(self)
        drawing = ""
        if self.tree is not None:
            try:
                from .render import draw

                drawing = draw(self.tree).svg
                bundle["image/svg+xml"] = drawing
            except Exception:  # no Graphviz: the question alone (a display must never fail)
                drawing = ""
        bundle["text/html"] = f"<div><p><b>{html.escape(self.prompt)}</b></p>{drawing}</div>"
        return bundle


def quiz(question: str, check: Callable[[str], Feedback], *, placeholder: str = "") -> Quiz:
    """A self-check widget for any question whose answers ``check`` can judge."""
    return Quiz(question, check, placeholder=placeholder)


def value_quiz(tree_or_result: Node | str | Result, node: NodeRef, *, depth: int | None = None) -> Quiz:
    """A widget asking "What is the value of ``node``?", checked by :func:`check_value`."""
    root, depth = _tree_and_depth(tree_or_result, depth)
    path = find_node(root, node, depth=depth)
    if depth is not None:
        value_of(root, path, depth=depth)  # fail now, not on the first click, if the node lies below the limit
    name = _describe(root, path)
    return Quiz(
        f"What is the value of {name}?",
        lambda text: check_value(tree_or_result, node, text, depth=depth),
        placeholder="a number: 3, 2.1 or 1/3",
        tree=root,
    )


def pruned_quiz(result: Result, *, depth: int | None = None) -> Quiz:
    """A widget asking which leaves a search prunes, checked by :func:`check_pruned`."""
    pruned_leaves(result, depth=depth)  # fail now, not on the first click, if there is no trace
    return Quiz(
        f"Which leaves does {result.algorithm} prune?",
        lambda text: check_pruned(result, text, depth=depth),
        placeholder="labels or leaf numbers, e.g. 6, 8",
        tree=result.tree,
    )
