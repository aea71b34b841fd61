"""Shared helpers for the search-core tests: Hypothesis strategies for random trees, an independent tree writer,
a tiny reference implementation of the node values, tree transformations, and a per-call time limit.

Nothing here calls the algorithms under test, so the tests can compare the package against it.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import signal
import threading
import time
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from expectviz.notation import parse
from expectviz.tree import CHANCE, LEAF, MAX, MIN, Node, check

INF = math.inf
Path = tuple[int, ...]

# ---------------------------------------------------------------- labels

# Move labels and names: plain words, words that need quotes (kind words, digits first, spaces, quotes, unicode).
LABELS = ["a", "b1", "heads", "tails", "x'", "a.b", "c-d", "max", "chance", "1-1", "two words", 'q"uote', "é", "leaf"]


# ---------------------------------------------------------------- random trees


@st.composite
def raw_trees(
    draw: Any,
    *,
    chance: bool = False,
    regular: bool = False,
    max_depth: int = 5,
    max_branch: int = 4,
    max_nodes: int = 40,
    evaluations: bool | None = False,
    labels: bool = False,
    fractions: bool = False,
    leaf_odds: int = 4,
) -> Node:
    """An unchecked random tree made of :class:`Node` objects.

    Args:
        chance: allow CHANCE nodes (else MAX and MIN only).
        regular: a chance node's children are all MIN, all MAX or all leaves (what Star2 needs).
        max_depth: the tree's height is drawn from 0 to this.
        max_branch: each inner node has 1 to this many children.
        max_nodes: a soft size budget (free choices turn into leaves once it is spent).
        evaluations: True: every inner node has a static evaluation; None: some have; False: none.
        labels: draw names and (sibling-unique) move labels, some needing quotes.
        fractions: leaf values may be fractions (halves and thirds), not only integers.
        leaf_odds: below the root, a node whose kind is free is a leaf with probability 1/leaf_odds.
    """
    low = draw(st.integers(-20, 5), label="low")
    high = low + draw(st.integers(0, 20), label="spread")  # a small spread makes ties common
    if fractions:
        values = st.builds(
            lambda n, d: Fraction(n, d), st.integers(low * 6, high * 6), st.sampled_from([1, 2, 3, 6])
        ).map(lambda x: min(max(x, Fraction(low)), Fraction(high)))
    else:
        values = st.integers(low, high)
    height = draw(st.integers(0, max_depth), label="height")
    alternate = draw(st.booleans(), label="alternate")
    cycle = [MAX, CHANCE, MIN, CHANCE] if chance else [MAX, MIN]
    start = draw(st.integers(0, len(cycle) - 1), label="start")
    budget = [max_nodes]

    def kind_at(level: int, parent: str | None) -> str:
        if alternate:
            kind = cycle[(start + level) % len(cycle)]
            if regular and parent == CHANCE and kind == CHANCE:  # never chance under chance in a regular tree
                kind = MAX
            return kind
        options = [MAX, MIN, CHANCE] if chance else [MAX, MIN]
        if regular and parent == CHANCE:
            options = [MAX, MIN]
        return str(draw(st.sampled_from(options)))

    def build(depth_left: int, level: int, parent: str | None, forced: str | None) -> Node:
        budget[0] -= 1
        if forced == LEAF or depth_left == 0:
            return Node(LEAF, value=draw(values))
        if forced is not None:
            kind = forced
        elif level > 0 and (budget[0] <= 0 or draw(st.integers(1, leaf_odds)) == 1):
            return Node(LEAF, value=draw(values))
        else:
            kind = kind_at(level, parent)
        n = draw(st.integers(1, max_branch))
        if budget[0] < n:
            n = max(1, min(n, budget[0]))
        child_forced: str | None = None
        if kind == CHANCE and regular:
            if depth_left == 1:
                child_forced = LEAF
            else:
                inner = kind_at(level + 1, CHANCE)
                child_forced = draw(st.sampled_from([LEAF, inner, inner, MIN if inner == MAX else MAX]))
        children = [build(depth_left - 1, level + 1, kind, child_forced) for _ in range(n)]
        if labels:
            used: set[str] = set()
            labelled = []
            for i, child in enumerate(children):
                move = draw(st.none() | st.sampled_from(LABELS))
                if move is not None and move in used:
                    move = f"{move}{i}"
                if move is not None:
                    used.add(move)
                labelled.append(_with(child, move=move))
            children = labelled
        if kind == CHANCE:
            mode = draw(st.sampled_from(["equal", "weights", "weights"]))
            if mode == "weights":
                weights = draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
                total = sum(weights)
                children = [_with(c, probability=Fraction(w, total)) for c, w in zip(children, weights, strict=True)]
        evaluation = None
        if evaluations or (evaluations is None and draw(st.booleans())):
            evaluation = draw(values)
        name = draw(st.none() | st.sampled_from(LABELS)) if labels else None
        return Node(kind, children=tuple(children), name=name, evaluation=evaluation)

    return build(height, 0, None, None)


@st.composite
def trees(draw: Any, **options: Any) -> Node:
    """A checked random tree, built either by parsing generated text or from Node objects."""
    raw = draw(raw_trees(**options))
    if draw(st.booleans(), label="via text"):
        return parse(tree_text(raw))
    return check(raw)


def _with(node: Node, **changes: Any) -> Node:
    fields = {
        "kind": node.kind,
        "children": node.children,
        "value": node.value,
        "name": node.name,
        "move": node.move,
        "probability": node.probability,
        "evaluation": node.evaluation,
    }
    fields.update(changes)
    return Node(**fields)


# ---------------------------------------------------------------- an independent writer of the notation

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_'.\-]*")


def _label(text: str) -> str:
    if _WORD.fullmatch(text) and text not in ("max", "min", "chance"):
        return text
    return json.dumps(text)


def _number(x: Any) -> str:
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    return f"{x.numerator}/{x.denominator}"


def tree_text(node: Node) -> str:
    """The notation for a (possibly unchecked) tree, written without using expectviz's printer."""
    prefix = []
    if node.move is not None:
        prefix.append(_label(node.move))
    if node.probability is not None:
        prefix.append(_number(node.probability))
    head = " ".join(prefix) + ": " if prefix else ""
    if node.kind == LEAF:
        return head + _number(node.value)
    text = head + node.kind
    if node.name is not None:
        text += " " + _label(node.name)
    if node.evaluation is not None:
        text += f" [{_number(node.evaluation)}]"
    return text + "(" + ", ".join(tree_text(c) for c in node.children) + ")"


# ---------------------------------------------------------------- reference values and transformations


def walk_paths(root: Node) -> Iterator[tuple[Path, Node]]:
    """(path, node) in depth-first, left-to-right order (independent of expectviz.tree.walk)."""
    stack: list[tuple[Path, Node]] = [((), root)]
    while stack:
        path, node = stack.pop()
        yield path, node
        for i in reversed(range(len(node.children))):
            stack.append((path + (i,), node.children[i]))


def subtree(root: Node, path: Path) -> Node:
    node = root
    for i in path:
        node = node.children[i]
    return node


def reference_values(root: Node, depth: int | None = None) -> dict[Path, Any]:
    """The exact (expecti)minimax value of every node reachable within ``depth`` (None: the whole tree).

    A node at the depth limit takes its static evaluation.  Probabilities must be filled in (a checked tree).
    """
    values: dict[Path, Any] = {}

    def value(node: Node, path: Path, left: int | None) -> Any:
        if node.kind == LEAF:
            v = node.value
        elif left == 0:
            v = node.evaluation
        else:
            below = None if left is None else left - 1
            kids = [value(c, path + (i,), below) for i, c in enumerate(node.children)]
            if node.kind == MAX:
                v = max(kids)
            elif node.kind == MIN:
                v = min(kids)
            else:
                v = sum((c.probability * k for c, k in zip(node.children, kids, strict=True)), Fraction(0))
                v = v.numerator if v.denominator == 1 else v
        values[path] = v
        return v

    value(root, (), depth)
    return values


def reference_value(root: Node, depth: int | None = None) -> Any:
    return reference_values(root, depth)[()]


def leftmost_best(root: Node) -> int | None:
    """The index of the leftmost child whose exact value equals the root's (None at a leaf or chance root)."""
    if root.kind in (LEAF, CHANCE):
        return None
    values = reference_values(root)
    target = values[()]
    return next(i for i in range(len(root.children)) if values[(i,)] == target)


def transform(root: Node, fn: Any, *, swap: bool = False) -> Node:
    """A copy of the tree with every leaf value and static evaluation mapped by fn (MAX/MIN swapped if asked)."""
    swapped = {MAX: MIN, MIN: MAX}

    def copy(node: Node) -> Node:
        kind = swapped.get(node.kind, node.kind) if swap else node.kind
        return Node(
            kind,
            children=tuple(copy(c) for c in node.children),
            value=None if node.value is None else fn(node.value),
            name=node.name,
            move=node.move,
            probability=node.probability,
            evaluation=None if node.evaluation is None else fn(node.evaluation),
        )

    return check(copy(root))


def negate(root: Node) -> Node:
    """Negate every value and swap MAX and MIN: the same game seen from MIN's side."""
    return transform(root, lambda x: -x, swap=True)


def truncate(root: Node, depth: int) -> Node:
    """The tree cut at ``depth``: inner nodes there become leaves carrying their static evaluation."""

    def copy(node: Node, left: int) -> Node:
        if node.kind != LEAF and left == 0:
            return Node(LEAF, value=node.evaluation, name=node.name, move=node.move, probability=node.probability)
        return Node(
            node.kind,
            children=tuple(copy(c, left - 1) for c in node.children),
            value=node.value,
            name=node.name,
            move=node.move,
            probability=node.probability,
            evaluation=node.evaluation,
        )

    return check(copy(root, depth))


def value_range(root: Node) -> tuple[Any, Any]:
    """The least and greatest leaf value or static evaluation."""
    found = [n.value if n.kind == LEAF else n.evaluation for _, n in walk_paths(root)]
    found = [v for v in found if v is not None]
    return min(found), max(found)


def uniform_tree(branching: int, depth: int, leaves: Iterator[int]) -> Node:
    """A uniform MAX/MIN tree (MAX at the root) with the given leaf values, left to right."""

    def build(level: int) -> Node:
        if level == depth:
            return Node(LEAF, value=next(leaves))
        kind = MAX if level % 2 == 0 else MIN
        return Node(kind, children=tuple(build(level + 1) for _ in range(branching)))

    return check(build(0))


def best_first(root: Node) -> Node:
    """The same tree with perfect move ordering: MAX's best child first, MIN's best (lowest) child first."""
    values: dict[int, Any] = {}

    def order(node: Node) -> Node:
        if node.kind == LEAF:
            values[id(node)] = node.value
            return node
        kids = [order(c) for c in node.children]
        kids.sort(key=lambda c: values[id(c)], reverse=node.kind == MAX)
        v = values[id(kids[0])]
        ordered = Node(node.kind, children=tuple(kids))
        values[id(ordered)] = v
        return ordered

    return check(order(root))


# ---------------------------------------------------------------- arbitrary JSON

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
    | st.sampled_from(["max", "min", "chance", "leaf", "+inf", "-inf", "1/3", "0.5", "1e5", "-2", ""])
)

JSON_KEYS = ["kind", "children", "value", "name", "move", "probability", "evaluation"]

arbitrary_json = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(JSON_KEYS) | st.text(max_size=5), inner, max_size=5)
    ),
    max_leaves=20,
)


# ---------------------------------------------------------------- a time limit


class TimeLimitExceeded(BaseException):  # noqa: N818 - a BaseException so no `except Exception` swallows it
    """Raised in the main thread when a call takes longer than allowed."""


@contextlib.contextmanager
def time_limit(seconds: float, what: str = "the call") -> Iterator[None]:
    """Fail if the body runs longer than ``seconds`` (interrupting it with SIGALRM where possible)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    start = time.perf_counter()
    if not usable:  # pragma: no cover - Windows or a worker thread: measure only
        yield
        elapsed = time.perf_counter() - start
        if elapsed > seconds:
            raise TimeLimitExceeded(f"{what} took {elapsed:.1f} s (limit {seconds} s)")
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise TimeLimitExceeded(f"{what} took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
