"""Game trees: the node model, the rules every tree follows, and walking a tree.

A tree is made of :class:`Node` objects.  Inner nodes are MAX, MIN or CHANCE
nodes; terminal nodes are leaves carrying their utility.  Every value is from
MAX's point of view, and every number is exact (:mod:`expectviz.numbers`).

Trees are usually read from text (:mod:`expectviz.notation`) or JSON
(:mod:`expectviz.tree_json`); :func:`check` applies the rules to a tree built
from nodes by hand:

>>> from expectviz.notation import parse
>>> t = parse("max A(a1: min B(3, 12, 8), a2: min C(2, 4, 6))")
>>> t.kind, t.name, [c.move for c in t.children]
('max', 'A', ['a1', 'a2'])
>>> check(Node(MAX, children=(leaf(3), leaf(5)))) == parse("max(3, 5)")
True

One walk serves every traversal, without recursion: :func:`depth_first`
(each node on the way down and on the way up, with its live path), and on top
of it :func:`walk` (``(path, node)`` pairs, for small trees and lookups) and
:func:`nodes` (the nodes alone, pre- or postorder, for bulk work).

Trees are at most :data:`MAX_DEPTH` (100,000) levels deep.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .errors import InvalidTreeError
from .numbers import Number, exact, format_number, format_probability, short_repr

__all__ = [
    "MAX",
    "MIN",
    "CHANCE",
    "LEAF",
    "KINDS",
    "MAX_DEPTH",
    "Number",
    "Node",
    "leaf",
    "check",
    "facts",
    "Facts",
    "depth_first",
    "walk",
    "nodes",
    "node_at",
    "path_to",
    "height",
    "KIND_NAMES",
    "KIND_WORDS",
]

MAX = "max"
"""A node where MAX chooses the child with the largest value."""
MIN = "min"
"""A node where MIN chooses the child with the smallest value."""
CHANCE = "chance"
"""A node where chance picks a child; its value is the expectation."""
LEAF = "leaf"
"""A terminal node whose value is its utility."""
KINDS = (MAX, MIN, CHANCE, LEAF)
KIND_NAMES = {MAX: "MAX", MIN: "MIN", CHANCE: "CHANCE", LEAF: "leaf"}
"""Each kind's short name, as traces and tables print it."""
KIND_WORDS = {MAX: "MAX node", MIN: "MIN node", CHANCE: "chance node", LEAF: "leaf"}
"""How sentences and messages name a node of each kind ("the chance node after a1")."""

MAX_DEPTH = 100_000
"""The deepest tree expectviz reads or checks: levels below the root (text, JSON and nodes alike)."""

Path = tuple[int, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Node:
    """One node of a game tree.

    Build trees with :func:`~expectviz.notation.parse` (or
    :func:`~expectviz.tree_json.from_json`); the constructor does no checking
    of its own, :func:`check` does.
    """

    kind: str
    """``"max"``, ``"min"``, ``"chance"`` or ``"leaf"``."""
    children: tuple[Node, ...] = ()
    """The successors, searched left to right."""
    value: Number | None = None
    """A leaf's utility (None for inner nodes)."""
    name: str | None = None
    """An optional name shown in diagrams and messages (``A``, ``B``)."""
    move: str | None = None
    """The label of the edge from the parent (``a1``, ``heads``), if any."""
    probability: Number | None = None
    """Under a CHANCE parent: the probability of reaching this node."""
    evaluation: Number | None = None
    """A static evaluation, used when a depth limit stops the search here."""
    state: Any = field(default=None, repr=False, compare=False)
    """In the explored tree of a game search: the game state at this node (its picture is drawn)."""
    _facts: Facts | None = field(default=None, repr=False, compare=False)

    def __eq__(self, other: object) -> bool:
        """Two trees are equal when they have the same shape and the same fields everywhere."""
        if not isinstance(other, Node):
            return NotImplemented
        if self is other:
            return True
        # Preorders line up node for node as long as every pair has as many children.
        return all(_same_node(a, b) for a, b in zip(nodes(self), nodes(other), strict=False))

    def __hash__(self) -> int:
        return hash((self.kind, self.value, self.name, self.move, len(self.children)))

    def __repr__(self) -> str:
        """``parse('...')`` with the tree's text, cut after 200 characters."""
        from .notation import text_pieces

        pieces: list[str] = []
        size = 0
        for piece in text_pieces(self):
            pieces.append(piece)
            size += len(piece)
            if size > 200:
                break
        text = "".join(pieces)
        if len(text) > 200:
            text = text[:197] + "..."
        return f"parse({text!r})"

    @property
    def outcomes(self) -> tuple[tuple[Number, Node], ...]:
        """A chance node's ``(probability, child)`` pairs, in order."""
        return tuple((child.probability, child) for child in self.children)  # type: ignore[misc]

    @property
    def is_leaf(self) -> bool:
        """True for a terminal node."""
        return self.kind == LEAF


def _same_node(a: Node, b: Node) -> bool:
    """True when two nodes agree in every field and in their number of children."""
    return (
        a.kind == b.kind
        and a.value == b.value
        and a.name == b.name
        and a.move == b.move
        and a.probability == b.probability
        and a.evaluation == b.evaluation
        and len(a.children) == len(b.children)
    )


def leaf(value: Number, *, move: str | None = None, probability: Number | None = None) -> Node:
    """A terminal node with the given utility.

    >>> leaf(3)
    parse('3')
    """
    return Node(LEAF, value=value, move=move, probability=probability)


# ---------------------------------------------------------------- walking


def depth_first(root: Node) -> Iterator[tuple[bool, list[int], Node]]:
    """Walk a tree depth first, left to right, without recursion: the one walk every traversal uses.

    Yields ``(entering, path, node)`` twice for every node: ``entering`` is
    True on the way down (before its children) and False on the way up (after
    them).  ``path`` holds the node's child indices from the root as a *live*
    list that the walk keeps changing: read it (``len(path)`` is the node's
    depth) or copy it (``tuple(path)``), but do not keep it.  Each step costs
    O(1), so a 10,000-level chain walks in linear time.

    >>> from expectviz.notation import parse
    >>> [(entering, tuple(path)) for entering, path, _ in depth_first(parse("max(1, 2)"))]
    [(True, ()), (True, (0,)), (False, (0,)), (True, (1,)), (False, (1,)), (False, ())]
    """
    path: list[int] = []
    above: list[Node] = []  # the ancestors of `node`, root first
    node = root
    while True:
        yield True, path, node
        if node.children:  # down to the first child
            above.append(node)
            path.append(0)
            node = node.children[0]
            continue
        yield False, path, node
        while above:  # up, until an ancestor has a next child
            parent = above[-1]
            following = path[-1] + 1
            if following < len(parent.children):
                path[-1] = following
                node = parent.children[following]
                break
            above.pop()
            path.pop()
            yield False, path, parent
        else:
            return


def walk(root: Node) -> Iterator[tuple[Path, Node]]:
    """Yield ``(path, node)`` for every node in depth-first, left-to-right order.

    Each path is a new tuple, which costs time in proportion to the depth:
    use :func:`nodes` for bulk work on big trees.

    >>> from expectviz.notation import parse
    >>> [path for path, _ in walk(parse("max(1, min(2, 3))"))]
    [(), (0,), (1,), (1, 0), (1, 1)]
    """
    for entering, path, node in depth_first(root):
        if entering:
            yield tuple(path), node


def nodes(root: Node, order: str = "pre") -> Iterator[Node]:
    """Yield every node once: in preorder (a node before its children) or postorder (after them).

    >>> from expectviz.notation import parse
    >>> tree = parse("max A(min B(1, 2), 3)")
    >>> [n.name or n.value for n in nodes(tree)], [n.name or n.value for n in nodes(tree, "post")]
    (['A', 'B', 1, 2, 3], [1, 2, 'B', 3, 'A'])
    """
    if order not in ("pre", "post"):
        raise ValueError(f"order must be 'pre' or 'post', not {order!r}")
    wanted = order == "pre"
    for entering, _, node in depth_first(root):
        if entering is wanted:
            yield node


def path_to(root: Node, target: Node) -> Path:
    """The path from ``root`` to the node object ``target`` (found by identity).

    >>> from expectviz.notation import parse
    >>> tree = parse("max(1, min(2, 3))")
    >>> path_to(tree, tree.children[1].children[0])
    (1, 0)
    """
    for entering, path, node in depth_first(root):
        if entering and node is target:
            return tuple(path)
    raise ValueError("node not in tree")


def node_at(root: Node, path: Path) -> Node:
    """The node reached from ``root`` by following ``path``.

    >>> from expectviz.notation import parse
    >>> node_at(parse("max(1, min(2, 3))"), (1, 0)).value
    2
    """
    node = root
    for depth, i in enumerate(path):
        if not 0 <= i < len(node.children):
            raise InvalidTreeError(f"has no child {i}", path[:depth])
        node = node.children[i]
    return node


def height(root: Node) -> int:
    """The number of edges on the longest path from ``root`` to a leaf.

    >>> from expectviz.notation import parse
    >>> height(parse("max(min(3, 12, 8), 2)"))
    2
    """
    return max(len(path) for entering, path, _ in depth_first(root) if entering)


# ---------------------------------------------------------------- facts


@dataclass(frozen=True, slots=True)
class Facts:
    """What :func:`check` learned about a whole tree, kept on its root."""

    height: int
    has_chance: bool
    has_min: bool
    least: Number
    """The least leaf value or static evaluation."""
    greatest: Number
    """The greatest leaf value or static evaluation."""
    irregular: Path | None
    """The path of the first chance node whose children are of mixed kinds (Star2 needs none)."""
    widest: int = 0
    """The most children any node has."""


def facts(root: Node) -> Facts:
    """The facts of a tree, checking it first if it was not checked (kept on the checked root).

    >>> from expectviz.notation import parse
    >>> facts(parse("max(chance(1, 5), min(-2, 3))"))
    Facts(height=2, has_chance=True, has_min=True, least=-2, greatest=5, irregular=None, widest=2)
    """
    known = root._facts
    if known is not None:
        return known
    checked = check(root)
    assert checked._facts is not None
    return checked._facts


def _record_facts(root: Node) -> Facts:
    """Work out a checked tree's facts and keep them on its root (which marks it checked)."""
    deepest = widest = 0
    has_chance = has_min = False
    numbers: list[Number] = []
    irregular: Path | None = None
    for entering, path, node in depth_first(root):
        if not entering:
            continue
        deepest = max(deepest, len(path))
        widest = max(widest, len(node.children))
        number = node.value if node.kind == LEAF else node.evaluation
        if number is not None:
            numbers.append(number)
        if node.kind == CHANCE:
            has_chance = True
            if irregular is None:
                kinds = {child.kind for child in node.children}
                if len(kinds) > 1 or CHANCE in kinds:
                    irregular = tuple(path)
        elif node.kind == MIN:
            has_min = True
    result = Facts(deepest, has_chance, has_min, min(numbers, default=0), max(numbers, default=0), irregular, widest)
    object.__setattr__(root, "_facts", result)
    return result


# ---------------------------------------------------------------- checking


def check(root: Node) -> Node:
    """Check the rules every tree must follow and fill in equal probabilities.

    Under a CHANCE node either every outcome has a probability or none has
    (then they are equally likely); probabilities are positive and sum to 1
    (exactly for fractions, within 1e-9 for decimals).  Leaf values are finite
    numbers; move labels are unique among siblings; inner nodes have children;
    the tree is at most :data:`MAX_DEPTH` levels deep.

    Returns the tree, with missing chance probabilities set to 1/n and every
    number exact (a checked tree is returned as it is).

    >>> check(Node(CHANCE, children=(leaf(1), leaf(2)))).children[0].probability
    Fraction(1, 2)
    >>> check(Node(MAX, children=(leaf(1), Node(MIN))))
    Traceback (most recent call last):
    ...
    expectviz.errors.InvalidTreeError: node at path (1,): min node has no children; give at least one
    """
    if not isinstance(root, Node):
        raise InvalidTreeError(f"expected a Node, found {type(root).__name__}")
    if root._facts is not None:
        return root
    finished: list[Node] = []  # checked nodes whose parent is not finished yet
    for entering, path, node in depth_first(root):
        if entering:
            _check_shape(node, path)
            continue
        count = len(node.children)
        kids = tuple(finished[len(finished) - count :]) if count else ()
        del finished[len(finished) - count :]
        finished.append(_check_node(node, kids, path))
    _record_facts(finished[0])
    return finished[0]


def _check_shape(node: Node, path: list[int]) -> None:
    """Before walking below ``node``: its children must be a tuple of nodes, and not too deep."""
    if len(path) > MAX_DEPTH:
        raise InvalidTreeError(
            f"the tree is more than {MAX_DEPTH:,} levels deep (the most expectviz reads)", tuple(path)
        )
    if not isinstance(node.children, tuple):
        raise InvalidTreeError(f"children must be a tuple, found {type(node.children).__name__}", tuple(path))
    for i, child in enumerate(node.children):
        if not isinstance(child, Node):
            raise InvalidTreeError(f"expected a Node, found {type(child).__name__}", (*path, i))


def _check_node(node: Node, kids: tuple[Node, ...], path: list[int]) -> Node:
    """Check one node whose children ``kids`` are checked; return it, rebuilt if anything changed."""
    if node.kind not in KINDS:
        raise InvalidTreeError(
            f"unknown node kind {short_repr(node.kind)}; allowed are max, min, chance, leaf", tuple(path)
        )
    for key in ("name", "move"):
        label = getattr(node, key)
        if label is not None and not isinstance(label, str):
            raise InvalidTreeError(f"{key} {short_repr(label)} must be text", tuple(path))
    if node.kind == LEAF:
        node = _check_leaf(node, kids, path)
    else:
        node = _check_inner(node, kids, path)
        kids = _check_children(node, kids, path)
    if any(a is not b for a, b in zip(kids, node.children, strict=False)):
        node = _replace(node, children=kids)
    return node


def _check_leaf(node: Node, kids: tuple[Node, ...], path: list[int]) -> Node:
    """A leaf: a finite value, no children, no static evaluation."""
    if kids:
        raise InvalidTreeError("a leaf cannot have children", tuple(path))
    if node.value is None:
        raise InvalidTreeError("a leaf needs a value", tuple(path))
    if node.evaluation is not None:
        raise InvalidTreeError("a leaf has its utility; a static evaluation is only for inner nodes", tuple(path))
    value = _exact_at(node.value, "leaf value", path)
    return node if value is node.value else _replace(node, value=value)


def _check_inner(node: Node, kids: tuple[Node, ...], path: list[int]) -> Node:
    """An inner node: children, no value, an exact static evaluation if any."""
    if not kids:
        raise InvalidTreeError(f"{node.kind} node has no children; give at least one", tuple(path))
    if node.value is not None:
        raise InvalidTreeError(
            f"only leaves have values; this {node.kind} node has {short_repr(node.value)}", tuple(path)
        )
    if node.evaluation is None:
        return node
    evaluation = _exact_at(node.evaluation, "static evaluation", path)
    return node if evaluation is node.evaluation else _replace(node, evaluation=evaluation)


def _check_children(node: Node, kids: tuple[Node, ...], path: list[int]) -> tuple[Node, ...]:
    """Unique move labels, and probabilities under a chance node only (filled in and checked there)."""
    labels: dict[str, int] = {}
    for i, kid in enumerate(kids):
        if kid.move is not None:
            if kid.move in labels:
                raise InvalidTreeError(
                    f"duplicate move label {short_repr(kid.move)} (children {labels[kid.move]} and {i})", tuple(path)
                )
            labels[kid.move] = i
    if node.kind == CHANCE:
        return _check_probabilities(kids, path)
    for i, kid in enumerate(kids):
        if kid.probability is not None:
            raise InvalidTreeError(
                f"a probability is only allowed under a chance node, not under {node.kind}", (*path, i)
            )
    return kids


_SHOWN_OUTCOMES = 8  # a message about probabilities lists at most this many


def _check_probabilities(kids: tuple[Node, ...], path: list[int]) -> tuple[Node, ...]:
    """A chance node's outcomes: all probabilities or none (then 1/n each), positive, summing to 1.

    Decimals may sum to 1 within 1e-9 (``0.3333333333`` three times); they are then divided by their
    sum, so the probabilities used sum to exactly 1 and no chance node's value leaves its children's range.
    """
    given = [k.probability is not None for k in kids]
    if not any(given):
        share = Fraction(1, len(kids))
        return tuple(_replace(k, probability=share) for k in kids)
    if not all(given):
        missing = [i for i, g in enumerate(given) if not g]
        shown = str(missing) if len(missing) <= _SHOWN_OUTCOMES else f"{missing[:_SHOWN_OUTCOMES]} and more"
        raise InvalidTreeError(
            f"chance outcomes {shown} have no probability while others do; give all or none (none: equally likely)",
            tuple(path),
        )
    probs: list[Fraction] = []
    decimal = False  # decimals (denominators with a factor 5) are checked within 1e-9
    for i, k in enumerate(kids):
        p = _exact_at(k.probability, "probability", path, i)
        if isinstance(k.probability, float) or isinstance(p, Fraction) and p.denominator % 5 == 0:
            decimal = True
        if p <= 0:
            raise InvalidTreeError(f"probability {format_number(p)} must be positive", (*path, i))
        if p > 1:
            raise InvalidTreeError(f"probability {format_number(p)} is more than 1", (*path, i))
        probs.append(Fraction(p))  # probabilities stay Fractions, even 1
    total = sum(probs, Fraction(0))
    tolerance = Fraction(1, 10**9) if decimal else Fraction(0)
    if abs(total - 1) > tolerance:
        raise InvalidTreeError(_sum_message(total, probs), tuple(path))
    if total != 1:  # decimals rounded within 1e-9: scaled to sum to exactly 1, so a chance value stays in range
        probs = [p / total for p in probs]
    return tuple(
        k if type(k.probability) is Fraction and k.probability == p else _replace(k, probability=p)
        for k, p in zip(kids, probs, strict=True)
    )


def _sum_message(total: Fraction, probs: list[Fraction]) -> str:
    """``probabilities sum to 0.9, not 1 (1/2 + 0.4)``, kept short for many or long probabilities."""
    shown = format_number(total)
    if shown == "≈1":  # close to 1, but not within the tolerance
        shown += f" (off by {format_number(total - 1)})"
    terms = [format_probability(p) for p in probs[:_SHOWN_OUTCOMES]]
    if len(probs) > _SHOWN_OUTCOMES:
        terms.append(f"... {len(probs) - _SHOWN_OUTCOMES:,} more")
    return f"probabilities sum to {shown}, not 1 (" + " + ".join(terms) + ")"


def _exact_at(x: object, what: str, path: list[int], *below: int) -> Number:
    """:func:`~expectviz.numbers.exact` for the node at ``path`` (the path is copied only for an error)."""
    try:
        return exact(x, what)
    except InvalidTreeError as error:
        raise InvalidTreeError(error.reason, (*path, *below)) from None


def _replace(
    node: Node,
    *,
    children: tuple[Node, ...] | None = None,
    value: Number | None = None,
    probability: Number | None = None,
    evaluation: Number | None = None,
) -> Node:
    """A copy of ``node`` with the fields given changed (unchecked, like the constructor)."""
    return Node(
        node.kind,
        node.children if children is None else children,
        node.value if value is None else value,
        node.name,
        node.move,
        node.probability if probability is None else probability,
        node.evaluation if evaluation is None else evaluation,
    )
