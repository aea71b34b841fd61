"""Game trees: node kinds, the text notation, and the JSON form.

A tree is made of :class:`Node` objects.  Inner nodes are MAX, MIN or CHANCE
nodes; terminal nodes are leaves carrying their utility.  Every value is from
MAX's point of view.

The text notation (the README has the full grammar)::

    max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))            # AIMA Fig. 5.2
    max A(a1: min B(3, 12, 8), a2: min C(2, 4, 6), a3: min D(14, 5, 2))
    max(chance(0.5: 10, 0.5: 0), chance(1/2: 5, 1/2: 15))
    chance(heads 1/2: 10, tails 1/2: 0)
    chance(1, 2, 3, 4, 5, 6)                                   # equally likely
    min B [4] (3, 12, 8)                                       # static evaluation 4

>>> t = parse("max A(a1: min B(3, 12, 8), a2: min C(2, 4, 6))")
>>> t.kind, t.name, [c.move for c in t.children]
('max', 'A', ['a1', 'a2'])
>>> to_text(t)
'max A(a1: min B(3, 12, 8), a2: min C(2, 4, 6))'

Numbers are kept exact: integers stay ``int``, decimals and fractions become
:class:`fractions.Fraction`, so ``0.1 + 0.2`` is exactly ``0.3`` in a tree.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Union

from .errors import InvalidTreeError, TreeSyntaxError

__all__ = [
    "MAX",
    "MIN",
    "CHANCE",
    "LEAF",
    "KINDS",
    "Number",
    "Node",
    "leaf",
    "parse",
    "to_text",
    "to_json",
    "from_json",
    "walk",
    "node_at",
    "describe",
    "height",
    "format_number",
    "format_probability",
    "exact",
    "check",
    "facts",
    "Facts",
    "path_to",
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

Number = Union[int, Fraction]  # noqa: UP007 (a runtime alias, also on Python 3.10)
"""An exact number: every value and probability in a tree is one."""

_KIND_WORDS = {"max": MAX, "min": MIN, "chance": CHANCE}


@dataclass(frozen=True, slots=True, eq=False)
class Node:
    """One node of a game tree.

    Build trees with :func:`parse` (or :func:`from_json`); the constructor
    does no checking of its own.
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
    _facts: Facts | None = field(default=None, repr=False, compare=False)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Node):
            return NotImplemented
        pairs = [(self, other)]
        while pairs:
            a, b = pairs.pop()
            if a is b:
                continue
            if (
                a.kind != b.kind
                or a.value != b.value
                or a.name != b.name
                or a.move != b.move
                or a.probability != b.probability
                or a.evaluation != b.evaluation
                or len(a.children) != len(b.children)
            ):
                return False
            pairs.extend(zip(a.children, b.children, strict=False))
        return True

    def __hash__(self) -> int:
        return hash((self.kind, self.value, self.name, self.move, len(self.children)))

    def __repr__(self) -> str:
        text = to_text(self)
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
        return self.kind is LEAF or self.kind == LEAF


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
    irregular: tuple[int, ...] | None
    """The path of a chance node whose children are of mixed kinds (Star2 needs none)."""
    widest: int = 0
    """The most children any node has."""


def facts(root: Node) -> Facts:
    """The facts of a tree, checking it first if it was not checked (kept on the checked root)."""
    known = root._facts
    if known is not None:
        return known
    checked = check(root)
    assert checked._facts is not None
    return checked._facts


def _record_facts(root: Node) -> Facts:
    """Work out a checked tree's facts and keep them on its root (which marks it checked)."""
    height_ = 0
    has_chance = has_min = False
    least: Number | None = None
    greatest: Number | None = None
    irregular: tuple[int, ...] | None = None
    widest = 0
    stack: list[tuple[Node, int]] = [(root, 0)]
    while stack:
        node, level = stack.pop()
        if level > height_:
            height_ = level
        if len(node.children) > widest:
            widest = len(node.children)
        kind = node.kind
        value = node.value if kind == LEAF else node.evaluation
        if value is not None:
            if least is None or value < least:
                least = value
            if greatest is None or value > greatest:
                greatest = value
        if kind == CHANCE:
            has_chance = True
            if irregular is None:
                kinds = {c.kind for c in node.children}
                if len(kinds) > 1 or CHANCE in kinds:
                    irregular = _path_to(root, node)
        elif kind == MIN:
            has_min = True
        for child in node.children:
            stack.append((child, level + 1))
    result = Facts(
        height_,
        has_chance,
        has_min,
        least if least is not None else 0,
        greatest if greatest is not None else 0,
        irregular,
        widest,
    )
    object.__setattr__(root, "_facts", result)
    return result


def _path_to(root: Node, target: Node) -> tuple[int, ...]:
    """The path of ``target`` (found by identity) below ``root``."""
    path: list[int] = []
    stack: list[list[Any]] = [[root, 0]]
    while stack:
        top = stack[-1]
        node, i = top
        if node is target:
            return tuple(path)
        if i < len(node.children):
            top[1] = i + 1
            path.append(i)
            stack.append([node.children[i], 0])
        else:
            stack.pop()
            if path:
                path.pop()
    raise ValueError("node not in tree")


def path_to(root: Node, target: Node) -> tuple[int, ...]:
    """The path from ``root`` to the node object ``target``."""
    return _path_to(root, target)


def leaf(value: Number, *, move: str | None = None, probability: Number | None = None) -> Node:
    """A terminal node with the given utility.

    >>> leaf(3)
    parse('3')
    """
    return Node(LEAF, value=value, move=move, probability=probability)


# ---------------------------------------------------------------- numbers


def exact(x: object, what: str = "value", path: tuple[int, ...] = ()) -> Number:
    """Turn an int, float, Fraction or number text into an exact number.

    Raises InvalidTreeError for NaN, infinities, booleans and non-numbers.

    >>> exact(0.1)
    Fraction(1, 10)
    >>> exact("2.5"), exact(4.0)
    (Fraction(5, 2), 4)
    """
    if isinstance(x, bool):
        raise InvalidTreeError(f"{what} {x!r} is a boolean; a number is allowed", path)
    if isinstance(x, int):
        return x
    if isinstance(x, Fraction):
        result: Number = x
    elif isinstance(x, float):
        if not math.isfinite(x):
            raise InvalidTreeError(f"{what} {x!r} is not finite; a finite number is allowed", path)
        result = Fraction(repr(x))
    elif isinstance(x, str):
        if not _NUMBER_TEXT.fullmatch(x.strip()):
            raise InvalidTreeError(f"{what} {x!r} is not a number (write 3, -2.5 or 1/3)", path)
        try:
            numerator, _, denominator = x.strip().partition("/")
            result = Fraction(numerator) / Fraction(denominator or 1)
        except ZeroDivisionError:
            raise InvalidTreeError(f"{what} {x!r} divides by zero", path) from None
        except (ValueError, OverflowError):
            raise InvalidTreeError(f"{what} {x!r} is not a number (write 3, -2.5 or 1/3)", path) from None
    else:
        raise InvalidTreeError(f"{what} {x!r} is not a number", path)
    if result.denominator == 1:
        return int(result.numerator)
    return result


_NUMBER_TEXT = re.compile(r"-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d{1,4})?(/\d+)?")


def _terminating(x: Fraction) -> bool:
    d = x.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def format_number(x: Number | float) -> str:
    """Write a number as the notation does: ``3``, ``-2.5``, ``1/3``, ``+inf``.

    >>> format_number(Fraction(109, 2)), format_number(Fraction(1, 3)), format_number(-7)
    ('54.5', '1/3', '-7')
    """
    if isinstance(x, float):
        if math.isinf(x):
            return "+inf" if x > 0 else "-inf"
        if math.isnan(x):
            return "nan"
        x = Fraction(repr(x))
    if isinstance(x, int) or x.denominator == 1:
        return str(int(x))
    if _terminating(x):
        sign = "-" if x < 0 else ""
        x = abs(x)
        scale = 1
        digits = 0
        while (x * scale).denominator != 1:
            scale *= 10
            digits += 1
        whole = int(x * scale)
        text = str(whole).rjust(digits + 1, "0")
        return f"{sign}{text[:-digits]}.{text[-digits:]}"
    return f"{x.numerator}/{x.denominator}"


def format_probability(p: Number) -> str:
    """Write a probability as a fraction unless it is a tenth-style decimal.

    >>> format_probability(Fraction(1, 2)), format_probability(Fraction(9, 10)), format_probability(Fraction(1, 36))
    ('1/2', '0.9', '1/36')
    """
    if isinstance(p, int) or p.denominator == 1:
        return str(int(p))
    if _terminating(p) and p.denominator % 5 == 0:
        return format_number(p)
    return f"{p.numerator}/{p.denominator}"


# ---------------------------------------------------------------- walking


def walk(root: Node) -> Iterator[tuple[tuple[int, ...], Node]]:
    """Yield ``(path, node)`` for every node in depth-first, left-to-right order.

    >>> [path for path, _ in walk(parse("max(1, min(2, 3))"))]
    [(), (0,), (1,), (1, 0), (1, 1)]
    """
    stack: list[tuple[tuple[int, ...], Node]] = [((), root)]
    while stack:
        path, node = stack.pop()
        yield path, node
        for i in range(len(node.children) - 1, -1, -1):
            stack.append((path + (i,), node.children[i]))


def describe(node: Node, path: tuple[int, ...]) -> str:
    """A short name for the node at ``path`` in messages: its name, its move label, or its path.

    >>> t = parse("max A(a1: min(3, 12))")
    >>> describe(t, ()), describe(t.children[0], (0,)), describe(t.children[0].children[1], (0, 1))
    ('A', 'a1', 'node (0, 1)')
    """
    if node.name is not None:
        return node.name
    if node.move is not None:
        return node.move
    if not path:
        return "the root"
    return "node (" + ", ".join(map(str, path)) + (",)" if len(path) == 1 else ")")


def node_at(root: Node, path: tuple[int, ...]) -> Node:
    """The node reached from ``root`` by following ``path``.

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

    >>> height(parse("max(min(3, 12, 8), 2)"))
    2
    """
    best = 0
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        best = max(best, depth)
        stack.extend((child, depth + 1) for child in node.children)
    return best


# ---------------------------------------------------------------- text form

_TOKEN = re.compile(
    r"""
    (?P<space>[ \t\r\n]+|\#[^\n]*)
  | (?P<number>-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d{1,3})?(?:/\d+)?)
  | (?P<word>[A-Za-z_][A-Za-z0-9_'.\-]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<punct>[(),:\[\]])
    """,
    re.VERBOSE,
)


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # number, word, string, punct, end
    text: str
    line: int
    column: int


def _tokens(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    pos, line, line_start = 0, 1, 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        column = pos - line_start + 1
        if m is None:
            ch = text[pos]
            if ch == '"':
                raise TreeSyntaxError('unterminated quoted name (close it with ")', line, column)
            raise TreeSyntaxError(
                f"unexpected character {ch!r}; allowed are numbers, names, quoted names, ( ) , : [ ] and # comments",
                line,
                column,
            )
        kind = m.lastgroup or ""
        if kind != "space":
            tokens.append(_Token(kind, m.group(), line, column))
        newlines = m.group().count("\n")
        if newlines:
            line += newlines
            line_start = pos + m.group().rindex("\n") + 1
        pos = m.end()
    column = pos - line_start + 1
    tokens.append(_Token("end", "", line, column))
    return tokens


def _unquote(token: _Token) -> str:
    try:
        value = json.loads(token.text)
    except ValueError:
        raise TreeSyntaxError(f"bad escape in quoted name {token.text}", token.line, token.column) from None
    if not isinstance(value, str):  # pragma: no cover - json.loads of a quoted string is a str
        raise TreeSyntaxError("a quoted name must be a string", token.line, token.column)
    return value


def _number(token: _Token, what: str) -> Number:
    text = token.text
    try:
        if "/" in text:
            num, den = text.split("/")
            if int(den) == 0:
                raise TreeSyntaxError(f"{what} {text} divides by zero", token.line, token.column)
            return exact(Fraction(Fraction(num), int(den)))
        return exact(Fraction(text))
    except (ValueError, OverflowError):
        raise TreeSyntaxError(f"{what} {text!r} is not a number", token.line, token.column) from None


class _Frame:
    """A node being parsed: its header and the children read so far."""

    __slots__ = ("kind", "name", "evaluation", "children", "prefix", "token")

    def __init__(self, kind: str, name: str | None, evaluation: Number | None, token: _Token) -> None:
        self.kind = kind
        self.name = name
        self.evaluation = evaluation
        self.children: list[Node] = []
        self.prefix: tuple[str | None, Number | None, _Token | None] = (None, None, None)
        self.token = token


def parse(text: str) -> Node:
    """Read a tree from the text notation.

    Raises:
        TreeSyntaxError: the text does not follow the notation (line and column named).
        InvalidTreeError: it parses but breaks a rule (probabilities, labels).

    >>> parse("max(chance(0.5: 10, 0.5: 0), chance(1/2: 5, 1/2: 15))").children[1].children[0].probability
    Fraction(1, 2)
    >>> parse("max(1, 2")
    Traceback (most recent call last):
    ...
    expectviz.errors.TreeSyntaxError: line 1, column 9: the text ended inside max(...) opened at line 1, column 1; ...
    """
    if not isinstance(text, str):
        raise TypeError(f"parse() takes tree text (a str), not {type(text).__name__}")
    tokens = _tokens(text)
    pos = 0
    stack: list[_Frame] = []
    root: Node | None = None

    def peek(offset: int = 0) -> _Token:
        return tokens[min(pos + offset, len(tokens) - 1)]

    def fail(token: _Token, reason: str) -> TreeSyntaxError:
        if token.kind == "end":
            if stack:
                opener = stack[-1].token
                reason = (
                    f"the text ended inside {stack[-1].kind}(...) opened at line {opener.line}, "
                    f"column {opener.column}; close it with ')'"
                )
            else:
                reason = "the text ended where a tree was expected (a number or max/min/chance(...))"
        return TreeSyntaxError(reason, token.line, token.column)

    while True:
        # At the start of a child (or of the whole tree): read an optional prefix.
        move: str | None = None
        probability: Number | None = None
        prefix_token: _Token | None = None
        t0, t1, t2 = peek(), peek(1), peek(2)
        if t0.kind in ("word", "string") and t1.text == ":" and t1.kind == "punct":
            if t0.kind == "word" and t0.text in _KIND_WORDS:
                raise fail(t0, f'{t0.text!r} is a node kind and cannot be a move label; quote it: "{t0.text}"')
            move = _unquote(t0) if t0.kind == "string" else t0.text
            prefix_token = t0
            pos += 2
        elif t0.kind in ("word", "string") and t1.kind == "number" and t2.text == ":" and t2.kind == "punct":
            move = _unquote(t0) if t0.kind == "string" else t0.text
            probability = _number(t1, "probability")
            prefix_token = t0
            pos += 3
        elif t0.kind == "number" and t1.text == ":" and t1.kind == "punct":
            probability = _number(t0, "probability")
            prefix_token = t0
            pos += 2
        if prefix_token is not None and not stack:
            raise fail(prefix_token, "the whole tree cannot have a move label or probability")
        if prefix_token is not None:
            parent = stack[-1]
            if probability is not None and parent.kind != CHANCE:
                raise fail(
                    prefix_token,
                    f"a probability is only allowed under a chance node, not under {parent.kind}",
                )

        # The node itself.
        token = peek()
        node: Node | None = None
        if token.kind == "number":
            value = _number(token, "leaf value")
            node = Node(LEAF, value=value, move=move, probability=probability)
            pos += 1
        elif token.kind == "word" and token.text in _KIND_WORDS:
            kind = _KIND_WORDS[token.text]
            pos += 1
            name: str | None = None
            evaluation: Number | None = None
            if peek().kind in ("word", "string"):
                nt = peek()
                if nt.kind == "word" and nt.text in _KIND_WORDS:
                    raise fail(nt, f"expected '(' after {token.text}, found the kind {nt.text!r}")
                name = _unquote(nt) if nt.kind == "string" else nt.text
                pos += 1
            if peek().text == "[" and peek().kind == "punct":
                bracket = peek()
                pos += 1
                if peek().kind != "number":
                    raise fail(peek(), "expected a number (the static evaluation) after '['")
                evaluation = _number(peek(), "static evaluation")
                pos += 1
                if not (peek().text == "]" and peek().kind == "punct"):
                    raise fail(peek(), f"expected ']' to close the static evaluation opened at column {bracket.column}")
                pos += 1
            if not (peek().text == "(" and peek().kind == "punct"):
                if peek().kind == "end" and not stack:
                    raise TreeSyntaxError(
                        f"{token.text} needs children in parentheses, e.g. {token.text}(1, 2)",
                        peek().line,
                        peek().column,
                    )
                raise fail(peek(), f"expected '(' and the children of {token.text}, found {peek().text or 'the end'!r}")
            pos += 1
            if peek().text == ")" and peek().kind == "punct":
                raise fail(peek(), f"{token.text}() has no children; give at least one")
            frame = _Frame(kind, name, evaluation, token)
            frame.prefix = (move, probability, prefix_token)
            stack.append(frame)
            continue
        elif token.kind == "word":
            raise fail(
                token,
                f"unknown node kind {token.text!r}; allowed are max, min, chance or a number"
                + (" (a move label needs a ':' after it)" if peek(1).kind != "punct" or peek(1).text != "(" else ""),
            )
        elif token.kind == "string":
            raise fail(token, "a quoted name must be followed by ':' (a move label) or come after a node kind")
        elif token.text == ")":
            raise fail(token, "unbalanced ')': no child before it" if stack else "unbalanced ')'")
        else:
            raise fail(token, f"expected a number or max/min/chance(...), found {token.text or 'the end'!r}")

        # A finished node: attach it, then close as many parents as the text closes.
        while True:
            if not stack:
                root = node
                break
            stack[-1].children.append(node)
            sep = peek()
            if sep.text == "," and sep.kind == "punct":
                pos += 1
                if peek().text == ")" and peek().kind == "punct":
                    raise fail(peek(), "a child is missing after ','")
                break
            if sep.text == ")" and sep.kind == "punct":
                pos += 1
                frame = stack.pop()
                move, probability, prefix_token = frame.prefix
                node = Node(
                    frame.kind,
                    children=tuple(frame.children),
                    name=frame.name,
                    move=move,
                    probability=probability,
                    evaluation=frame.evaluation,
                )
                continue
            raise fail(sep, f"expected ',' or ')' after a child of {stack[-1].kind}, found {sep.text or 'the end'!r}")
        if root is not None:
            break
    end = peek()
    if end.kind != "end":
        raise fail(
            end, f"unexpected {end.text!r} after the end of the tree" + (" (unbalanced ')')" if end.text == ")" else "")
        )
    return check(root)


_LABEL = re.compile(r"[A-Za-z_][A-Za-z0-9_'.\-]*")


def _label_text(label: str) -> str:
    if _LABEL.fullmatch(label) and label not in _KIND_WORDS:
        return label
    return json.dumps(label, ensure_ascii=False)


def to_text(root: Node) -> str:
    """Write a tree in the text notation; ``parse(to_text(t)) == t``.

    >>> to_text(parse("chance(heads 0.9: 10, tails 0.1: 0)"))
    'chance(heads 0.9: 10, tails 0.1: 0)'

    Equally likely outcomes are written without probabilities:

    >>> to_text(parse("chance(heads 1/2: 10, tails 1/2: 0)"))
    'chance(heads: 10, tails: 0)'
    """
    out: list[str] = []
    _equally_likely: dict[int, bool] = {}
    pending = [root]
    while pending:
        node = pending.pop()
        pending.extend(node.children)
        if node.kind == CHANCE:
            n = len(node.children)
            same = all(c.probability == Fraction(1, n) for c in node.children)
            for c in node.children:
                _equally_likely[id(c)] = same
    # Each stack item is either a node to write or a literal string to emit.
    stack: list[Node | str] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        node = item
        prefix = []
        if node.move is not None:
            prefix.append(_label_text(node.move))
        if node.probability is not None and not _equally_likely.get(id(node), False):
            prefix.append(format_probability(node.probability))
        if prefix:
            out.append(" ".join(prefix) + ": ")
        if node.kind == LEAF:
            out.append(format_number(node.value if node.value is not None else 0))
            continue
        head = node.kind
        if node.name is not None:
            head += " " + _label_text(node.name)
        if node.evaluation is not None:
            head += f" [{format_number(node.evaluation)}] "
        out.append(head + "(")
        stack.append(")")
        for i in range(len(node.children) - 1, -1, -1):
            stack.append(node.children[i])
            if i:
                stack.append(", ")
    return "".join(out)


# ---------------------------------------------------------------- checking


def check(root: Node) -> Node:
    """Check the rules every tree must follow and fill in equal probabilities.

    Under a CHANCE node either every outcome has a probability or none has
    (then they are equally likely); probabilities are positive and sum to 1
    (exactly for fractions, within 1e-9 for decimals).  Leaf values are finite
    numbers; move labels are unique among siblings; inner nodes have children.

    Returns the tree, with missing chance probabilities set to 1/n.
    """
    if not isinstance(root, Node):
        raise InvalidTreeError(f"expected a Node, found {type(root).__name__}")
    if root._facts is not None:
        return root
    results: list[Node] = []
    path: list[int] = []
    stack: list[list[Any]] = [[root, 0]]
    while stack:
        top = stack[-1]
        node, i = top
        if not isinstance(node.children, tuple):
            raise InvalidTreeError(f"children must be a tuple, found {type(node.children).__name__}", tuple(path))
        if i < len(node.children):
            top[1] = i + 1
            child = node.children[i]
            path.append(i)
            if not isinstance(child, Node):
                raise InvalidTreeError(f"expected a Node, found {type(child).__name__}", tuple(path))
            stack.append([child, 0])
            continue
        stack.pop()
        n = len(node.children)
        kids = tuple(results[len(results) - n :]) if n else ()
        if n:
            del results[len(results) - n :]
        results.append(_check_node(node, kids, path))
        if path:
            path.pop()
    _record_facts(results[0])
    return results[0]


def _check_node(node: Node, kids: tuple[Node, ...], where: list[int]) -> Node:
    def at(*extra: int) -> tuple[int, ...]:
        return tuple(where) + extra

    if node.kind not in KINDS:
        raise InvalidTreeError(f"unknown node kind {node.kind!r}; allowed are max, min, chance, leaf", at())
    for key in ("name", "move"):
        label = getattr(node, key)
        if label is not None and not isinstance(label, str):
            raise InvalidTreeError(f"{key} {label!r} must be text", at())
    if node.kind == LEAF:
        if kids:
            raise InvalidTreeError("a leaf cannot have children", at())
        if node.value is None:
            raise InvalidTreeError("a leaf needs a value", at())
        value = exact(node.value, "leaf value", at())
        if value is not node.value:
            node = _replace(node, value=value)
        if node.evaluation is not None:
            raise InvalidTreeError("a leaf has its utility; a static evaluation is only for inner nodes", at())
    else:
        if not kids:
            raise InvalidTreeError(f"{node.kind} node has no children; give at least one", at())
        if node.value is not None:
            raise InvalidTreeError(f"only leaves have values; this {node.kind} node has {node.value!r}", at())
        if node.evaluation is not None:
            evaluation = exact(node.evaluation, "static evaluation", at())
            if evaluation is not node.evaluation:
                node = _replace(node, evaluation=evaluation)
    labels: dict[str, int] = {}
    for i, kid in enumerate(kids):
        if kid.move is not None:
            if kid.move in labels:
                raise InvalidTreeError(f"duplicate move label {kid.move!r} (children {labels[kid.move]} and {i})", at())
            labels[kid.move] = i
    if node.kind == CHANCE:
        kids = _check_probabilities(kids, at)
    else:
        for i, kid in enumerate(kids):
            if kid.probability is not None:
                raise InvalidTreeError(
                    f"a probability is only allowed under a chance node, not under {node.kind}", at(i)
                )
    if any(a is not b for a, b in zip(kids, node.children, strict=False)):
        node = _replace(node, children=kids)
    return node


def _check_probabilities(kids: tuple[Node, ...], at: Any) -> tuple[Node, ...]:
    path = at()
    given = [k.probability is not None for k in kids]
    if not any(given):
        share = Fraction(1, len(kids))
        return tuple(_replace(k, probability=share) for k in kids)
    if not all(given):
        missing = [i for i, g in enumerate(given) if not g]
        raise InvalidTreeError(
            f"chance outcomes {missing} have no probability while others do; give all or none (none: equally likely)",
            path,
        )
    probs: list[Number] = []
    decimal = False  # decimals (denominators with a factor 5) are checked within 1e-9
    for i, k in enumerate(kids):
        p = exact(k.probability, "probability", at(i))
        if isinstance(k.probability, float) or isinstance(p, Fraction) and p.denominator % 5 == 0:
            decimal = True
        if p <= 0:
            raise InvalidTreeError(f"probability {format_number(p)} must be positive", at(i))
        if p > 1:
            raise InvalidTreeError(f"probability {format_number(p)} is more than 1", at(i))
        probs.append(Fraction(p))  # probabilities stay Fractions, even 1
    total = Fraction(sum(probs, Fraction(0)))
    tolerance = Fraction(1, 10**9) if decimal else Fraction(0)
    if abs(total - 1) > tolerance:
        raise InvalidTreeError(
            f"probabilities sum to {format_number(total)}, not 1 ("
            + " + ".join(format_probability(p) for p in probs)
            + ")",
            path,
        )
    return tuple(
        k if type(k.probability) is Fraction and k.probability == p else _replace(k, probability=p)
        for k, p in zip(kids, probs, strict=True)
    )


def _replace(node: Node, **changes: Any) -> Node:
    fields: dict[str, Any] = {
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


# ---------------------------------------------------------------- JSON form

_JSON_KEYS = {"kind", "children", "value", "name", "move", "probability", "evaluation"}


def _json_number(x: Number) -> int | float | str:
    if isinstance(x, int):
        return x
    if x.denominator == 1:
        return int(x)
    if _terminating(x):
        f = float(x)
        if Fraction(repr(f)) == x:
            return f
    return format_number(x)


def to_json(root: Node, *, indent: int | None = None) -> str:
    """The JSON form of a tree: nested objects with ``kind`` and ``children``.

    >>> print(to_json(parse("chance(1/3: 1, 2/3: min(2, 3))"), indent=1))
    {
     "kind": "chance",
     "children": [
      {
       "kind": "leaf",
       "value": 1,
       "probability": "1/3"
      },
      {
       "kind": "min",
       "children": [
        {
         "kind": "leaf",
         "value": 2
        },
        {
         "kind": "leaf",
         "value": 3
        }
       ],
       "probability": "2/3"
      }
     ]
    }
    >>> from_json(to_json(parse("max(1, 2.5)"))) == parse("max(1, 2.5)")
    True
    """
    from ._deep import call_deep

    return call_deep(json.dumps, _to_plain(root), indent=indent, ensure_ascii=False, depth=height(root) * 2)


def _to_plain(root: Node) -> dict[str, Any]:
    objects: dict[int, dict[str, Any]] = {}
    order = [root]
    for node in order:
        order.extend(node.children)
    for node in reversed(order):
        obj: dict[str, Any] = {"kind": node.kind}
        if node.name is not None:
            obj["name"] = node.name
        if node.kind == LEAF and node.value is not None:
            obj["value"] = _json_number(node.value)
        if node.evaluation is not None:
            obj["evaluation"] = _json_number(node.evaluation)
        if node.children:
            obj["children"] = [objects.pop(id(c)) for c in node.children]
        if node.move is not None:
            obj["move"] = node.move
        if node.probability is not None:
            obj["probability"] = _json_number(node.probability)
        objects[id(node)] = obj
    return objects[id(root)]


def from_json(data: str | dict[str, Any]) -> Node:
    """Read a tree from its JSON form (text or an already-loaded dict).

    Raises:
        InvalidTreeError: the JSON is not a tree (the node's path is named).
    """
    if isinstance(data, (str, bytes)):
        from ._deep import call_deep

        try:
            obj = call_deep(json.loads, data, depth=len(data))
        except (ValueError, RecursionError) as exc:
            raise InvalidTreeError(f"not valid JSON: {exc}") from None
    else:
        obj = data
    return check(_from_plain(obj))


def _from_plain(obj: Any) -> Node:
    results: list[Node] = []
    path: list[int] = []
    stack: list[list[Any]] = [[obj, -1]]
    while stack:
        top = stack[-1]
        item, i = top
        if i == -1:
            if not isinstance(item, dict):
                raise InvalidTreeError(f"expected a JSON object for a node, found {type(item).__name__}", tuple(path))
            unknown = set(item) - _JSON_KEYS
            if unknown:
                raise InvalidTreeError(
                    f"unknown key(s) {sorted(unknown)}; allowed are {sorted(_JSON_KEYS)}", tuple(path)
                )
            if not isinstance(item.get("children", []), list):
                found = type(item["children"]).__name__
                raise InvalidTreeError(f"'children' must be a list, found {found}", tuple(path))
            i = top[1] = 0
        kids = item.get("children", [])
        if i < len(kids):
            top[1] = i + 1
            path.append(i)
            stack.append([kids[i], -1])
            continue
        stack.pop()
        where = tuple(path)
        kind = item.get("kind")
        if kind not in KINDS:
            raise InvalidTreeError(f"unknown node kind {kind!r}; allowed are max, min, chance, leaf", where)
        n = len(kids)
        children = tuple(results[len(results) - n :]) if n else ()
        if n:
            del results[len(results) - n :]
        value = item.get("value")
        probability = item.get("probability")
        evaluation = item.get("evaluation")
        results.append(
            Node(
                kind,
                children=children,
                value=None if value is None else exact(value, "leaf value", where),
                name=item.get("name"),
                move=item.get("move"),
                probability=None if probability is None else exact(probability, "probability", where),
                evaluation=None if evaluation is None else exact(evaluation, "static evaluation", where),
            )
        )
        if path:
            path.pop()
    return results[0]
