"""Self-check exercises: a student's answer in, specific feedback out.

The questions a lesson asks, each checked in pure Python so that the checks can
be tested (and used) without a browser:

* :func:`check_value` -- "what is the value of B?"
* :func:`check_pruned` -- "which leaves does this search prune?"
* :func:`check_move` -- "which move does MAX choose?"
* :func:`check_answer` and :func:`check_set` -- any other answer, with the
  lesson's own hints.

Every check says one of three things, and never the right answer to a wrong one:
``not answered yet`` for ``None`` (the blank that the student edition,
``make student``, puts in each answer cell), ``correct`` (with the reason), or
``not yet: <a hint>`` naming the slip the answer looks like.

:func:`value_quiz` and :func:`pruned_quiz` put either behind an ipywidgets text
box, a Check button and a feedback line (ipywidgets is imported only there).

Nodes are named by their name (``B``), their move label (``a1``, ``b2``) or
their path from the root (a tuple of child indices, ``(1, 0)``).  Leaves can
also be named by their number, counting from 1 at the left ("leaf 5" is the
fifth leaf).  Every value is from MAX's point of view.

>>> import expectviz as ev
>>> tree = ev.textbook("aima-fig-5.2")
>>> print(check_value(tree, "B", 3))
correct. B is a MIN node: its value is the smallest of 3, 12, 8, which is 3.
>>> print(check_value(tree, "B", 12))
not yet: 12 is the largest value among the children of B, and MIN takes the smallest.
>>> print(check_pruned(ev.alphabeta(tree), None))
not answered yet
>>> print(check_pruned(ev.alphabeta(tree), "c2, c3"))  # doctest: +ELLIPSIS
correct. alphabeta prunes c2, c3 (2 of 9 leaves). C is a MIN node whose value is now at most 2, ...
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
    "NOT_ANSWERED",
    "ExerciseError",
    "NodeRef",
    "check_value",
    "check_pruned",
    "check_move",
    "check_answer",
    "check_set",
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
    """What to tell the student: "correct", "not yet: <a hint>" or "not answered yet"; never the answer of a
    wrong one."""
    answered: bool = True
    """False when there was no answer to judge (the student edition's blank ``answer = None``)."""

    def __str__(self) -> str:
        return self.message


NOT_ANSWERED = Feedback(False, "not answered yet", answered=False)
"""What every check says about ``None``, the student edition's blank answer."""


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
        answer: the student's answer: a number, or text such as ``"2.1"`` or ``"1/3"``;
            None (or blank text) when there is no answer yet.
        depth: the depth limit of the search the question is about (None: no limit).

    A right answer is confirmed with the rule and the children's values.  A wrong
    one never gets the value, nor the children's values that would give it away:
    it gets the rule, and a note on the slip the answer looks like (MIN taking the
    largest, one child's value, a chance node's plain average or its expectation
    divided again by the number of outcomes, the depth limit ignored or miscounted).

    >>> import expectviz as ev
    >>> tree = ev.textbook("aima-fig-5.2")
    >>> print(check_value(tree, "B", None))
    not answered yet
    >>> print(check_value(tree, "B", 12))
    not yet: 12 is the largest value among the children of B, and MIN takes the smallest.
    >>> print(check_value("max A(a1: min B(5, 1, 9), a2: min C(6, 8), a3: min D(4, 7))", "A", 4))
    not yet: 4 is the value MIN would choose at D; MAX at A compares all its moves and takes the largest.
    >>> print(check_value("aima-fig-5.12-left", "a1", "2.1"))
    correct. a1 is a CHANCE node: its value is the probability-weighted sum 0.9·2 + 0.1·3, which is 2.1.
    """
    if _unanswered(answer):
        return NOT_ANSWERED
    root, depth = _tree_and_depth(tree_or_result, depth)
    path = find_node(root, node, depth=depth)
    value = value_of(root, path, depth=depth)
    given = _parse_number(answer)
    if given is None:
        return Feedback(False, f"not yet: {answer!r} is not a number: write it like 3, -2.5 or 1/3.")
    if _matches(given, value):
        return Feedback(True, f"correct. {_sentence(_rule(root, path, depth))}, which is {format_number(value)}.")
    shown = format_number(given)
    for slip, why in _slips(root, path, depth):
        if slip is not None and _matches(given, slip) and not _matches(value, slip):
            return Feedback(False, f"not yet: {why.replace('{answer}', shown)}.")
    return Feedback(False, f"not yet: {_general_rule(root, path, depth)}.")


def _unanswered(answer: object) -> bool:
    """True for None, the answer cell's blank, and for text with nothing in it (an empty text box)."""
    return answer is None or (isinstance(answer, str) and not answer.strip())


def _kids_values(root: Node, path: tuple[int, ...], depth: int | None) -> list[Number]:
    return [value_of(root, path + (i,), depth=depth) for i in range(len(node_at(root, path).children))]


def _rule(root: Node, path: tuple[int, ...], depth: int | None) -> str:
    """The sentence that gives a node's value from its children's values (said once the answer is right)."""
    node = node_at(root, path)
    name = _describe(root, path)
    left = None if depth is None else depth - len(path)
    if node.kind == LEAF:
        return f"{_is_a(name, 'leaf')}: its value is its utility"
    if left == 0:
        return f"The depth limit stops the search at {name}: its value is its static evaluation"
    kids = _kids_values(root, path, depth)
    listed = ", ".join(format_number(v) for v in kids)
    if node.kind == MAX:
        return f"{_is_a(name, 'MAX node')}: its value is the largest of {listed}"
    if node.kind == MIN:
        return f"{_is_a(name, 'MIN node')}: its value is the smallest of {listed}"
    terms = " + ".join(
        f"{format_probability(c.probability or 0)}·{format_number(v)}" for c, v in zip(node.children, kids, strict=True)
    )
    return f"{_is_a(name, 'CHANCE node')}: its value is the probability-weighted sum {terms}"


def _general_rule(root: Node, path: tuple[int, ...], depth: int | None) -> str:
    """The rule for a node without any of its children's values (said when the answer is wrong)."""
    node = node_at(root, path)
    name = _describe(root, path)
    left = None if depth is None else depth - len(path)
    if node.kind == LEAF:
        return f"{_is_a(name, 'leaf')}: its value is its utility, the number written at it"
    if left == 0:
        return (
            f"the depth limit stops the search at {name}: its value is its static evaluation "
            "(the number in brackets), whatever lies below it"
        )
    below = "" if left is None else f" (the depth limit is {left} level{'s' if left != 1 else ''} below it)"
    if node.kind in (MAX, MIN):
        word = "largest" if node.kind == MAX else "smallest"
        return (
            f"{_is_a(name, node.kind.upper() + ' node')}: its value is the {word} of its children's values{below}; "
            "work them out from the leaves up"
        )
    probabilities = ", ".join(format_probability(c.probability or 0) for c in node.children)
    return (
        f"{_is_a(name, 'CHANCE node')}: its value is the sum of each outcome's value times its probability "
        f"({probabilities}){below}"
    )


def _is_a(name: str, kind: str) -> str:
    """ "B is a MIN node"; a node named by its moves says its kind already ("the MIN node after a2")."""
    return name if " after " in name else f"{name} is a {kind}"


def _slips(root: Node, path: tuple[int, ...], depth: int | None) -> list[tuple[Number | None, str]]:
    """The wrong values worth a specific hint, most specific first; ``{answer}`` in a hint is the answer given.

    None of the hints names the right value: each says which slip would give the wrong one.
    """
    node = node_at(root, path)
    name = _describe(root, path)
    left = None if depth is None else depth - len(path)
    slips: list[tuple[Number | None, str]] = []
    if node.kind == LEAF:
        return slips
    if left == 0:
        slips.append(
            (
                _evaluate(node, None, _RULES),
                "that is what a search below the depth limit would find; at the limit a node's value is its "
                "static evaluation (the number in brackets)",
            )
        )
        return slips
    kids = _kids_values(root, path, depth)
    if node.kind == MAX:
        slips.append(
            (min(kids), f"{{answer}} is the smallest value among the children of {name}, and MAX takes the largest")
        )
    elif node.kind == MIN:
        slips.append(
            (max(kids), f"{{answer}} is the largest value among the children of {name}, and MIN takes the smallest")
        )
    else:
        weighted = sum(
            (Fraction(c.probability or 0) * v for c, v in zip(node.children, kids, strict=True)), Fraction(0)
        )
        n = len(kids)
        slips += [
            (
                _exact(weighted / n),
                "that looks like the expectation divided by the number of outcomes again; the "
                "probabilities already sum to 1",
            ),
            (
                _exact(Fraction(sum(kids, Fraction(0))) / n),
                "that is the plain average of the outcomes; weight each outcome by its probability",
            ),
            (max(kids), "that is the best outcome, but chance does not choose: take the expectation"),
            (min(kids), "that is the worst outcome, but chance does not choose: take the expectation"),
        ]
    # The same slips made somewhere below the node.
    slips += [
        (
            _evaluate(node, left, _RULES | {MIN: _largest}),
            f"that is what you get if MIN takes the largest value somewhere below {name}; MIN takes the smallest",
        ),
        (
            _evaluate(node, left, _RULES | {MAX: _smallest}),
            f"that is what you get if MAX takes the smallest value somewhere below {name}; MAX takes the largest",
        ),
        (
            _evaluate(node, left, _RULES | {CHANCE: _divided_again}),
            "that looks like an expectation below "
            f"{name} divided by the number of outcomes again; the probabilities already sum to 1",
        ),
        (
            _evaluate(node, left, _RULES | {CHANCE: _plain_average}),
            "that is what plain averages at the chance "
            f"nodes below {name} give; weight each outcome by its probability",
        ),
    ]
    if left is not None:
        slips += [
            (
                _evaluate(node, None, _RULES),
                "that is what a search without the depth limit would find; count "
                "the levels down to the limit (chance levels count)",
            ),
            (
                _evaluate(node, left + 1, _RULES),
                "that is the value with the depth limit one level deeper; count the levels again (chance levels count)",
            ),
            (
                _evaluate(node, left - 1, _RULES) if left > 0 else None,
                "that is the value with the depth limit "
                "one level shallower; count the levels again (chance levels count)",
            ),
        ]
    # One child's value: the choice made one level down, not at this node.
    for i, child in enumerate(node.children):
        child_name = _describe(root, path + (i,))
        if child.kind == LEAF or (left is not None and left - 1 == 0):
            what = f"the value of {child_name}"
        elif child.kind == CHANCE:
            what = f"the expectation at {child_name}"
        else:
            what = f"the value {child.kind.upper()} would choose at {child_name}"
        if node.kind == CHANCE:
            hint = f"{{answer}} is {what}, one outcome; {name} weighs all its outcomes by their probabilities"
        else:
            mover = node.kind.upper()
            best = "largest" if node.kind == MAX else "smallest"
            chooser = name if " after " in name else f"{mover} at {name}"
            hint = f"{{answer}} is {what}; {chooser} compares all its moves and takes the {best}"
        slips.append((kids[i], hint))
    # A leaf's value carried up unchanged.
    for leaf_path in leaves(node, depth=left):
        leaf = node_at(node, leaf_path)
        number = leaf.value if leaf.kind == LEAF else leaf.evaluation
        slips.append(
            (
                number,
                "{answer} is the value of one leaf below " + name + "; back the values up level "
                "by level, from the leaves to " + name,
            )
        )
    return slips


_Rule = Callable[[Node, list[Number]], Number]


def _expectation(node: Node, values: list[Number]) -> Number:
    return _exact(
        sum((Fraction(c.probability or 0) * v for c, v in zip(node.children, values, strict=True)), Fraction(0))
    )


def _divided_again(node: Node, values: list[Number]) -> Number:
    return _exact(Fraction(_expectation(node, values)) / len(values))


def _plain_average(node: Node, values: list[Number]) -> Number:
    return _exact(Fraction(sum(values, Fraction(0))) / len(values))


def _largest(node: Node, values: list[Number]) -> Number:
    return max(values)


def _smallest(node: Node, values: list[Number]) -> Number:
    return min(values)


_RULES: dict[str, _Rule] = {MAX: _largest, MIN: _smallest, CHANCE: _expectation}


def _evaluate(node: Node, levels_left: int | None, rules: dict[str, _Rule]) -> Number | None:
    """A node's value under ``rules`` (one per kind of inner node), or None when a static evaluation is missing."""
    if node.kind == LEAF:
        return node.value
    if levels_left is not None and levels_left <= 0:
        return node.evaluation
    values: list[Number] = []
    for child in node.children:
        value = _evaluate(child, None if levels_left is None else levels_left - 1, rules)
        if value is None:
            return None
        values.append(value)
    return rules[node.kind](node, values)


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


def _cutoff_triggers(result: Result) -> dict[tuple[int, ...], tuple[int, ...]]:
    """The leaves whose value caused a cutoff (the last leaf evaluated before it, below the node that cut),
    and where that cutoff is."""
    assert result.trace is not None
    triggers: dict[tuple[int, ...], tuple[int, ...]] = {}
    last_leaf: tuple[int, ...] | None = None
    for event in result.trace:
        if event.kind == "leaf":
            last_leaf = event.path
        elif event.kind == "cutoff" and last_leaf is not None and last_leaf[: len(event.path)] == event.path:
            triggers.setdefault(last_leaf, event.path)
            last_leaf = None
    return triggers


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
            ``"none"`` for none), or a list of labels, numbers or paths; None
            when there is no answer yet.
        depth: the depth limit the search ran with (None: read from the trace).

    A right answer is explained by the trace's own words for each cutoff; a wrong
    one says which named leaves are in fact evaluated (and when one of them is the
    leaf that causes a cutoff) and where to look for the missing ones.

    >>> import expectviz as ev
    >>> print(check_pruned(ev.star1("aima-star-exercise", bounds=(-2, 2)), "7, 8"))
    not yet: 1 pruned leaf is missing: look at the cutoff at the MIN node after moves 2, 1.
    >>> print(check_pruned(ev.alphabeta("aima-fig-5.2"), "c1, c2, c3"))
    not yet: c1 is evaluated, so not pruned: its value causes the cutoff at C, and the leaves after it are pruned.
    """
    if answers is None:
        return NOT_ANSWERED
    pruned_list = pruned_leaves(result, depth=depth)
    assert result.trace is not None  # pruned_leaves checked it
    tree = result.trace.tree
    if depth is None:
        depth = _depth_of(result)
    numbered = leaves(tree, depth=depth)
    pruned = set(pruned_list)
    chosen, problem = _leaf_answers(tree, answers, depth)
    if problem is not None:
        return Feedback(False, f"not yet: {problem}")
    not_leaves = [path for path in chosen if path not in numbered]
    if not_leaves:
        names = ", ".join(_describe(tree, path) for path in sorted(not_leaves))
        return Feedback(False, f"not yet: {names}: name leaves only (the nodes the search would evaluate).")
    steps = _cutoff_steps(result, pruned)
    algorithm = result.algorithm
    if chosen == pruned:
        if not pruned:
            return Feedback(True, f"correct. {algorithm} evaluates every leaf: nothing is pruned.")
        assert result.trace is not None
        reasons = []
        for step in sorted(set(steps.values())):
            reason = _sentence(result.trace.frame(step).explanation)
            if reason not in reasons:
                reasons.append(reason)
        listed = _describe_leaves(tree, pruned, numbered)
        return Feedback(
            True,
            f"correct. {algorithm} prunes {listed} ({len(pruned)} of {len(numbered)} leaves). " + " ".join(reasons),
        )
    parts = []
    extra = chosen - pruned
    triggers = _cutoff_triggers(result)
    causing = {path: triggers[path] for path in extra if path in triggers}
    plain = extra - set(causing)
    if plain:
        verb = "is" if len(plain) == 1 else "are"
        parts.append(f"{_sentence(_describe_leaves(tree, plain, numbered))} {verb} evaluated, so not pruned.")
    for path, cut in sorted(causing.items(), key=lambda item: numbered.index(item[0])):
        parts.append(
            f"{_sentence(_describe_leaves(tree, [path], numbered))} is evaluated, so not pruned: its value causes "
            f"the cutoff at {_describe(tree, cut)}, and the leaves after it are pruned."
        )
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
    text = " ".join(parts)
    return Feedback(False, f"not yet: {_lower_start(text)}")


def _lower_start(text: str) -> str:
    """Undo :func:`_sentence` after "not yet: " ('The MIN node after ...' -> 'the MIN node after ...')."""
    for start in ("The ", "Leaf ", "Leaves "):
        if text.startswith(start):
            return text[0].lower() + text[1:]
    return text


# ---------------------------------------------------------------- "which move does MAX choose?"


def check_move(tree_or_result: Node | str | Result, answer: object, *, depth: int | None = None) -> Feedback:
    """Check an answer to "which move does the player at the root choose?".

    The right move is the one expectiminimax chooses (the best value; ties go to the
    leftmost move).  Moves are named by their labels (``a2``), or by the child's name,
    or by their number from 1 at the left.  A wrong move gets a hint about the slip
    it looks like: the move the opponent would like, the move with the best single
    leaf below it, the best move if the outcomes were equally likely, or a move as
    good as the best that is not the leftmost of them.

    >>> import expectviz as ev
    >>> tree = "max(left: chance(0.9: 1, 0.1: 50), right: chance(0.9: 6, 0.1: 7))"
    >>> print(check_move(tree, None))
    not answered yet
    >>> print(check_move(tree, "left"))
    not yet: left has the best leaf below it, but chance decides before the game ends: compare the moves' values.
    >>> print(check_move(tree, "right"))
    correct. right is MAX's best move: its value, 6.1, is the largest.
    """
    if _unanswered(answer):
        return NOT_ANSWERED
    root, depth = _tree_and_depth(tree_or_result, depth)
    if root.kind not in (MAX, MIN) or depth == 0:
        raise ExerciseError("a question about the best move needs a MAX or MIN node at the root, searched below it")
    moves = [_move_name(child, i) for i, child in enumerate(root.children)]
    chosen = _chosen_move(root, answer, moves)
    if chosen is None:
        return Feedback(False, f"not yet: {answer!r} is not one of the moves ({', '.join(moves)}).")
    values = [value_of(root, (i,), depth=depth) for i in range(len(moves))]
    mover = root.kind.upper()
    better = max if root.kind == MAX else min
    best = values.index(better(values))
    if chosen == best:
        word = "largest" if root.kind == MAX else "smallest"
        return Feedback(
            True,
            f"correct. {moves[best]} is {mover}'s best move: its value, {format_number(values[best])}, is the {word}.",
        )
    name = moves[chosen]
    if values[chosen] == values[best]:
        return Feedback(False, f"not yet: {name} is as good as the best move, but ties go to the leftmost move.")
    other = "MIN" if root.kind == MAX else "MAX"
    worst = min if root.kind == MAX else max
    if len(moves) > 2 and values[chosen] == worst(values):
        return Feedback(
            False, f"not yet: {name} is the move {other} would like {mover} to make: compare the moves' values."
        )
    left = None if depth is None else depth - 1
    leaf_values = [[_leaf_number(node_at(child, p)) for p in leaves(child, depth=left)] for child in root.children]
    extremes = [
        better(v for v in numbers if v is not None) if any(v is not None for v in numbers) else None
        for numbers in leaf_values
    ]
    if extremes[chosen] is not None and extremes[chosen] == better(e for e in extremes if e is not None):
        replies = "chance decides" if root.children[chosen].kind == CHANCE else f"{other} replies"
        return Feedback(
            False,
            f"not yet: {name} has the best leaf below it, but {replies} before the game ends: "
            "compare the moves' values.",
        )
    averaged = [_evaluate(child, left, _RULES | {CHANCE: _plain_average}) for child in root.children]
    if all(v is not None for v in averaged) and averaged != values:
        if averaged.index(better(averaged)) == chosen:  # type: ignore[type-var]
            return Feedback(
                False,
                f"not yet: {name} is the best move if every outcome were equally likely; weight each outcome by its "
                "probability.",
            )
    word = "largest" if root.kind == MAX else "smallest"
    return Feedback(
        False, f"not yet: work out the value of each move from the leaves up, then {mover} takes the {word}."
    )


def _move_name(child: Node, index: int) -> str:
    return child.move or child.name or str(index + 1)


def _leaf_number(node: Node) -> Number | None:
    return node.value if node.kind == LEAF else node.evaluation


def _chosen_move(root: Node, answer: object, moves: list[str]) -> int | None:
    """The index of the move an answer names (label, child name, or number from 1), or None."""
    if isinstance(answer, int) and not isinstance(answer, bool):
        return answer - 1 if 1 <= answer <= len(moves) else None
    if not isinstance(answer, str):
        return None
    text = answer.strip()
    for i, child in enumerate(root.children):
        if text in (child.move, child.name):
            return i
    if text.isdigit() and 1 <= int(text) <= len(moves):
        return int(text) - 1
    return None


# ---------------------------------------------------------------- any other answer


def check_answer(
    answer: object,
    expected: object,
    *,
    hint: str,
    slips: Iterable[tuple[object, str]] = (),
    explain: str = "",
) -> Feedback:
    """Check any answer against the key, with the lesson's own hints.

    Numbers compare exactly, given as numbers or text (``"1/4"``, ``"0.25"``); a value
    with no finite decimal (1/3) also accepts a decimal close to it (0.33).  Lists and
    tuples compare item by item, sets as sets, dicts key by key, other text after
    stripping spaces.  ``expected`` is usually computed in the check cell (by the
    package), so the key's answer is never printed or written there.

    Args:
        answer: the student's answer (None: not answered yet).
        expected: the right answer.
        hint: what to say about a wrong answer that is none of the ``slips``; it must
            not give the answer away.
        slips: (wrong answer, what that slip is) pairs, tried in order.
        explain: said after "correct".

    >>> print(check_answer(None, 12, hint="multiply level by level"))
    not answered yet
    >>> print(check_answer("1/4", 0.25, hint="heads has probability 1/2"))
    correct
    >>> print(check_answer(7, 12, hint="count again", slips=[(7, "that counts the leaves of one move only")]))
    not yet: that counts the leaves of one move only
    """
    if _unanswered(answer):
        return NOT_ANSWERED
    if _same(answer, expected):
        return Feedback(True, f"correct. {explain}" if explain else "correct")
    for wrong, why in slips:
        if _same(answer, wrong) and not _same(wrong, expected):
            return Feedback(False, f"not yet: {why}")
    return Feedback(False, f"not yet: {hint}")


def check_set(answer: object, expected: Iterable[object], *, what: str = "item", hint: str = "") -> Feedback:
    """Check an answer that is a collection (its order does not matter), without naming the wrong items.

    A wrong answer gets how many of the items named do not belong and how many are
    missing (naming them would give the answer away), and ``hint``.

    >>> print(check_set([2, 7], [2, 7, 9], what="heap", hint="a heap loses when every move leaves a winning heap"))
    not yet: 1 heap is missing; a heap loses when every move leaves a winning heap.
    >>> print(check_set([9, 7, 2], [2, 7, 9], what="heap"))
    correct
    """
    if answer is None:
        return NOT_ANSWERED
    if isinstance(answer, (str, bytes)) or not isinstance(answer, Iterable):
        return Feedback(False, f"not yet: give a list of {what}s, like [1, 2].")
    given = list(answer)
    key = list(expected)
    extra = sum(1 for item in given if not any(_same(item, k) for k in key))
    missing = sum(1 for k in key if not any(_same(item, k) for item in given))
    if not extra and not missing:
        return Feedback(True, "correct")
    parts = []
    if extra:
        parts.append(f"{extra} of the {what}s you named {'does' if extra == 1 else 'do'} not belong")
    if missing:
        parts.append(f"{missing} {what}{'' if missing == 1 else 's'} {'is' if missing == 1 else 'are'} missing")
    text = " and ".join(parts)
    return Feedback(False, f"not yet: {text}{'; ' + hint if hint else ''}.")


def _same(answer: object, expected: object) -> bool:
    """Whether an answer equals the key's value, as :func:`check_answer` compares them."""
    if isinstance(answer, bool) != isinstance(expected, bool):
        return False  # True is not 1
    if isinstance(expected, (set, frozenset)) and isinstance(answer, (set, frozenset, list, tuple)):
        given = list(answer)
        return all(any(_same(a, e) for e in expected) for a in given) and all(
            any(_same(a, e) for a in given) for e in expected
        )
    if isinstance(expected, dict):
        return (
            isinstance(answer, dict)
            and answer.keys() == expected.keys()
            and all(_same(answer[k], expected[k]) for k in expected)
        )
    if isinstance(expected, (list, tuple)):
        return (
            isinstance(answer, (list, tuple))
            and len(answer) == len(expected)
            and all(_same(a, e) for a, e in zip(answer, expected, strict=True))
        )
    number, key = _parse_number(answer), _parse_number(expected)
    if number is not None and key is not None and not isinstance(answer, bool) and not isinstance(expected, bool):
        return _matches(number, key)
    if isinstance(answer, str) and isinstance(expected, str):
        return answer.strip() == expected.strip()
    return bool(answer == expected)


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
        if not self.last.answered:
            mark, color = ("…", "#57606a")
        else:
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
