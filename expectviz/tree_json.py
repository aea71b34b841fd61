"""The JSON form of a tree: nested objects with ``kind`` and ``children``.

::

    {"kind": "max", "name": "A", "children": [{"kind": "leaf", "value": 3, "move": "a1"}, ...]}

The keys are ``kind`` (always), ``children`` (inner nodes), ``value``
(leaves), ``name``, ``move``, ``probability`` (under a chance node) and
``evaluation``.  A number is a JSON number or a string in the number syntax
of :mod:`expectviz.numbers` (``"1/3"``, ``"1e-400"``); both are read exactly,
so ``0.1`` is 1/10 and ``1e400`` is 10**400, not an infinity.

:func:`from_json` takes JSON text (a str, or bytes in UTF-8, UTF-16 or UTF-32)
or an already-loaded dict.  It refuses, with an
:class:`~expectviz.errors.InvalidTreeError` naming the node's path or the
text's line and column:

* text longer than ``ev.options.max_input_bytes``, before reading it;
* JSON nested deeper than a tree of :data:`~expectviz.tree.MAX_DEPTH` levels
  (two brackets a level), found by one pass over the text before decoding it;
* a dict that contains itself, or the same dict (or list) in two places;
* anything that is not a tree.

>>> from expectviz.notation import parse
>>> tree = parse("chance(1/3: 1, 2/3: 0.5)")
>>> to_json(tree)
'{"kind": "chance", "children": [{"kind": "leaf", "value": 1, "probability": "1/3"}, {"kind": "leaf", "value": 0.5, \
"probability": "2/3"}]}'
>>> from_json(to_json(tree)) == tree
True
"""

from __future__ import annotations

import json
import re
from array import array
from collections.abc import Iterator
from fractions import Fraction
from itertools import accumulate
from json.encoder import encode_basestring
from typing import Any

from ._deep import call_deep
from .errors import InputTypeError, InvalidTreeError
from .numbers import Number, exact, format_number, short_repr
from .options import options
from .tree import KINDS, LEAF, MAX_DEPTH, Node, check, depth_first, nodes

__all__ = ["to_json", "from_json", "tree_to_plain", "json_number"]

_KEYS = ("kind", "name", "value", "evaluation", "children", "move", "probability")
"""The keys of a node's object, in the order they are written."""

_MAX_NESTING = 2 * MAX_DEPTH + 1
"""The deepest bracket nesting of a tree's JSON: the root object, then an array and an object a level."""

_LONGEST_INT = 10**100
"""Whole numbers this large or larger are written as strings (``"1e400"``), not as JSON numbers."""


# ---------------------------------------------------------------- writing


def to_json(root: Node, *, indent: int | None = None) -> str:
    """The JSON form of a tree (the same text as ``json.dumps(tree_to_plain(root), indent=indent)``).

    Written without recursion, so trees of any depth can be saved.

    >>> from expectviz.notation import parse
    >>> print(to_json(parse("min(1, 2)"), indent=1))
    {
     "kind": "min",
     "children": [
      {
       "kind": "leaf",
       "value": 1
      },
      {
       "kind": "leaf",
       "value": 2
      }
     ]
    }
    """
    return "".join(_json_pieces(root, indent))


def _json_pieces(root: Node, indent: int | None) -> Iterator[str]:
    """The JSON text of a tree, piece by piece, laid out as :func:`json.dumps` lays it out.

    Each node's object is opened on the way down and closed on the way up; with
    ``indent``, each item starts a new line indented by its nesting level.
    """
    comma = ", " if indent is None else ","
    breaks: list[str] = []  # the line break before an item at each nesting level

    def line_break(level: int) -> str:
        while len(breaks) <= level:
            breaks.append("" if indent is None else "\n" + " " * (indent * len(breaks)))
        return breaks[level]

    closing: list[str] = []  # the text that closes each node being written
    for entering, path, node in depth_first(root):
        if not entering:
            yield closing.pop()
            continue
        level = 2 * len(path)  # how deep the node's object is nested: an array and an object a tree level
        inside = line_break(level + 1)
        before, after = _fields(node)
        opening = "{" + comma.join(f'{inside}"{key}": {text}' for key, text in before)
        ending = "".join(f'{comma}{inside}"{key}": {text}' for key, text in after) + line_break(level) + "}"
        if node.children:
            opening += f'{comma}{inside}"children": ['
            ending = inside + "]" + ending
        if path:
            opening = (comma if path[-1] else "") + line_break(level) + opening
        closing.append(ending)
        yield opening


def _fields(node: Node) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """A node's keys with their JSON text: those written before its children, and those after."""
    before = [("kind", _json_text(node.kind))]
    if node.name is not None:
        before.append(("name", _json_text(node.name)))
    if node.kind == LEAF and node.value is not None:
        before.append(("value", _json_text(json_number(node.value))))
    if node.evaluation is not None:
        before.append(("evaluation", _json_text(json_number(node.evaluation))))
    after = []
    if node.move is not None:
        after.append(("move", _json_text(node.move)))
    if node.probability is not None:
        after.append(("probability", _json_text(json_number(node.probability))))
    return before, after


def _json_text(x: object) -> str:
    """One JSON scalar, written as :func:`json.dumps` writes it."""
    if isinstance(x, str):
        return encode_basestring(x)
    if isinstance(x, float):
        return float.__repr__(x)
    if isinstance(x, int) and not isinstance(x, bool):
        return int.__repr__(x)
    return json.dumps(x, ensure_ascii=False)


def json_number(x: Number) -> int | float | str:
    """A number for the JSON form: an int, or a float when it says the number exactly, else its exact text.

    >>> json_number(3), json_number(Fraction(1, 4)), json_number(Fraction(1, 3)), json_number(10**400)
    (3, 0.25, '1/3', '1e400')
    """
    if isinstance(x, int) or x.denominator == 1:
        whole = int(x)
        return whole if -_LONGEST_INT < whole < _LONGEST_INT else format_number(whole, exact=True)
    if 1e-300 < abs(x) < 1e300:
        as_float = float(x)
        if Fraction(repr(as_float)) == x:
            return as_float
    return format_number(x, exact=True)


def tree_to_plain(root: Node) -> dict[str, Any]:
    """The JSON form as plain dicts and lists (what ``json.loads(to_json(root))`` gives).

    >>> from expectviz.notation import parse
    >>> tree_to_plain(parse("max(1, 2.5)"))
    {'kind': 'max', 'children': [{'kind': 'leaf', 'value': 1}, {'kind': 'leaf', 'value': 2.5}]}
    """
    built: list[dict[str, Any]] = []  # the objects of finished nodes whose parent is not finished yet
    for node in nodes(root, "post"):
        obj: dict[str, Any] = {"kind": node.kind}
        if node.name is not None:
            obj["name"] = node.name
        if node.kind == LEAF and node.value is not None:
            obj["value"] = json_number(node.value)
        if node.evaluation is not None:
            obj["evaluation"] = json_number(node.evaluation)
        if node.children:
            count = len(node.children)
            obj["children"] = built[len(built) - count :]
            del built[len(built) - count :]
        if node.move is not None:
            obj["move"] = node.move
        if node.probability is not None:
            obj["probability"] = json_number(node.probability)
        built.append(obj)
    return built[0]


# ---------------------------------------------------------------- reading


def from_json(data: str | bytes | dict[str, Any]) -> Node:
    """Read a tree from its JSON form (text, or an already-loaded dict).

    Raises:
        InvalidTreeError: the JSON is not a tree (the node's path, or the text's line and column, is named).
        InputTypeError: ``data`` is not a str, bytes or dict.

    >>> from_json('{"kind": "max", "children": [{"kind": "leaf", "value": "1/3"}, {"kind": "leaf", "value": 0.1}]}')
    parse('max(1/3, 0.1)')
    >>> from_json('{"kind": "max", "children": [{"kind": "leaf", "value": 1}, {"kind": "leaf"}]}')
    Traceback (most recent call last):
    ...
    expectviz.errors.InvalidTreeError: node at path (1,): a leaf needs a value
    """
    if isinstance(data, (str, bytes, bytearray)):
        data = _load(_decoded(data))
    elif not isinstance(data, dict):
        found = "None" if data is None else type(data).__name__
        hint = " (it is already a tree: use it as it is)" if isinstance(data, Node) else ""
        raise InputTypeError(
            f"from_json() takes JSON text (a str or bytes) or a loaded JSON object (a dict), not {found}{hint}"
        )
    return check(_from_plain(data))


def _decoded(data: str | bytes | bytearray) -> str:
    """JSON text as a str, refused when longer than ``ev.options.max_input_bytes``; bytes decoded as json does."""
    limit = options.max_input_bytes
    if len(data) > limit:
        unit = "characters" if isinstance(data, str) else "bytes"
        raise InvalidTreeError(
            f"the JSON text is {len(data):,} {unit} long, more than ev.options.max_input_bytes = {limit:,}; "
            "raise that option to read it"
        )
    if isinstance(data, str):
        return data
    try:
        return bytes(data).decode(json.detect_encoding(data), "surrogatepass")
    except UnicodeDecodeError as error:
        raise InvalidTreeError(
            f"not valid JSON: the bytes are not UTF-8, UTF-16 or UTF-32 text ({error.reason} at byte {error.start})"
        ) from None


def load_json(data: str | bytes | bytearray, *, exact_numbers: bool = False) -> Any:
    """JSON text or bytes, loaded with the guards every reader needs: a size limit
    (``ev.options.max_input_bytes``), a linear check of the nesting, then ``json.loads``.

    ``exact_numbers=True`` keeps numbers as written, to be read exactly where their
    node is known (the tree reader's way).

    Raises:
        InvalidTreeError: too long, not text, nested too deep, or not JSON (with line and column).
    """
    return _load(_decoded(data), exact_numbers=exact_numbers)


def _load(text: str, *, exact_numbers: bool = True) -> Any:
    """``json.loads`` (numbers kept as written, unless told otherwise), once the nesting is known not too deep."""
    too_deep = _first_too_deep(text)
    if too_deep is not None:
        line = text.count("\n", 0, too_deep) + 1
        column = too_deep - (text.rfind("\n", 0, too_deep) + 1) + 1
        raise InvalidTreeError(
            f"the JSON is nested more than {_MAX_NESTING:,} brackets deep at line {line}, column {column}; "
            f"a tree has at most {MAX_DEPTH:,} levels (two brackets a level)"
        )
    nesting = min(text.count("[") + text.count("{"), _MAX_NESTING) + 2
    numbers: dict[str, _JsonNumber] = {}  # one object for each number text, read once

    def number(literal: str) -> _JsonNumber:
        found = numbers.get(literal)
        if found is None:
            found = numbers[literal] = _JsonNumber(literal)
        return found

    try:
        if not exact_numbers:
            return call_deep(json.loads, text, depth=nesting)
        return call_deep(json.loads, text, parse_int=number, parse_float=number, depth=nesting)
    except RecursionError:  # pragma: no cover - the nesting was checked above
        raise InvalidTreeError("not valid JSON: nested too deeply") from None
    except ValueError as error:
        raise InvalidTreeError(f"not valid JSON: {error}") from None


_JSON_SPECIAL = re.compile(r'["\\\[\]{}]')
_JSON_STRING = re.compile(r'"[^"]*"')
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # an opening bracket +1, a closing one -1 (signed)


def _first_too_deep(text: str) -> int | None:
    """The index of the first bracket nested deeper than a tree's JSON can be, else None.

    Brackets inside strings do not count.  Most texts are cleared at C speed;
    a text with backslashes, or one that is too deep, gets one pass over its
    quotes, backslashes and brackets.
    """
    if text.count("[") + text.count("{") <= _MAX_NESTING:
        return None
    if "\\" not in text:  # no escapes: strings are just '"' ... '"'
        brackets = _NOT_A_BRACKET.sub("", _JSON_STRING.sub("", text))
        steps = array("b", brackets.encode("ascii").translate(_STEPS))
        if max(accumulate(steps), default=0) <= _MAX_NESTING:
            return None
    depth = 0
    in_string = False
    escaped = -1  # the index of the character after a backslash in a string
    for match in _JSON_SPECIAL.finditer(text):
        i = match.start()
        ch = text[i]
        if in_string:
            if i == escaped:
                continue
            if ch == "\\":
                escaped = i + 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > _MAX_NESTING:
                return i
        elif ch in "]}":
            depth -= 1
    return None


class _JsonNumber:
    """A number of JSON text, kept as written until it is read exactly (where its node's path is known)."""

    __slots__ = ("text", "value")

    def __init__(self, text: str) -> None:
        self.text = text
        self.value: Number | None = None
        """The exact number, once read."""

    def __repr__(self) -> str:
        return self.text if len(self.text) <= 40 else f"{self.text[:20]}...{self.text[-8:]}"


_KEY_SET = frozenset(_KEYS)
_NO_CHILDREN: list[Any] = []


def _from_plain(data: Any) -> Node:
    """Build the (unchecked) nodes of loaded JSON data, depth first and without recursion.

    ``items`` and ``kids`` hold the object and the children of each node on
    the current path, root first; ``path`` is the current node's path.
    """
    seen: set[int] = set()  # the id() of every dict and list met so far
    items: list[dict[str, Any]] = []
    kids: list[list[Any]] = []
    path: list[int] = []
    finished: list[Node] = []  # nodes whose parent is not finished yet
    item = data
    while True:
        children = _enter(item, path, seen, items, kids)
        if children:  # down to the first child
            path.append(0)
            item = children[0]
            continue
        while True:  # finish nodes on the way up, until one has a next child
            _finish(items, kids, path, finished)
            if not path:
                return finished[0]
            following = path[-1] + 1
            if following < len(kids[-1]):
                path[-1] = following
                item = kids[-1][following]
                break
            path.pop()


def _enter(item: Any, path: list[int], seen: set[int], items: list[dict[str, Any]], kids: list[list[Any]]) -> list[Any]:
    """Check a node's object on the way down; put it on the path and return its children."""
    if not isinstance(item, dict):
        raise InvalidTreeError(f"expected a JSON object for a node, found {_json_type(item)}", tuple(path))
    if len(path) > MAX_DEPTH:
        raise InvalidTreeError(
            f"the tree is more than {MAX_DEPTH:,} levels deep (the most expectviz reads)", tuple(path)
        )
    if id(item) in seen:
        raise _repeated(item, path, items, kids)
    seen.add(id(item))
    if not item.keys() <= _KEY_SET:
        shown = ", ".join(sorted(repr(key) for key in item if key not in _KEY_SET))
        raise InvalidTreeError(f"unknown key(s) {shown}; allowed are {', '.join(_KEYS)}", tuple(path))
    children = item.get("children", _NO_CHILDREN)
    if not isinstance(children, list):
        raise InvalidTreeError(f"'children' must be a list, found {_json_type(children)}", tuple(path))
    if children:
        if id(children) in seen:
            raise _repeated(children, path, items, kids)
        seen.add(id(children))
    items.append(item)
    kids.append(children)
    return children


def _finish(items: list[dict[str, Any]], kids: list[list[Any]], path: list[int], finished: list[Node]) -> None:
    """On the way up: take the node off the path and build it over its finished children."""
    item = items.pop()
    count = len(kids.pop())
    children = tuple(finished[len(finished) - count :]) if count else ()
    del finished[len(finished) - count :]
    finished.append(_node_from(item, children, path))


def _repeated(thing: object, path: list[int], items: list[dict[str, Any]], kids: list[list[Any]]) -> InvalidTreeError:
    """The error for a dict or list met a second time: inside itself (a cycle), or in two places."""
    for depth, (item, children) in enumerate(zip(items, kids, strict=True)):
        if item is thing or children is thing:
            return InvalidTreeError(
                f"this node contains itself: it is the same object as the node at {_path_text(path[:depth])}",
                tuple(path),
            )
    return InvalidTreeError(
        "this node's object also appears earlier in the tree; give every node its own dict (copy it)", tuple(path)
    )


def _node_from(item: dict[str, Any], children: tuple[Node, ...], path: list[int]) -> Node:
    """One unchecked node from its object (the kind and numbers are read here, the rest by check)."""
    kind = item.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise InvalidTreeError(f"unknown node kind {short_repr(kind)}; allowed are max, min, chance, leaf", tuple(path))
    return Node(
        kind,
        children=children,
        value=_number(item.get("value"), "leaf value", path),
        name=item.get("name"),
        move=item.get("move"),
        probability=_number(item.get("probability"), "probability", path),
        evaluation=_number(item.get("evaluation"), "static evaluation", path),
    )


def _number(x: Any, what: str, path: list[int]) -> Number | None:
    """A number of the JSON form, read exactly (None stays None)."""
    if x is None:
        return None
    try:
        if not isinstance(x, _JsonNumber):
            return exact(x, what)
        if x.value is None:
            x.value = exact(x.text, what)
        return x.value
    except InvalidTreeError as error:
        raise InvalidTreeError(error.reason, tuple(path)) from None


def _json_type(x: Any) -> str:
    """What JSON calls the type of ``x``: object, array, string, number, true/false or null."""
    if isinstance(x, dict):
        return "object"
    if isinstance(x, list):
        return "array"
    if isinstance(x, str):
        return "string"
    if isinstance(x, bool):
        return "true/false"
    if isinstance(x, (_JsonNumber, int, float)):
        return "number"
    return "null" if x is None else type(x).__name__


def _path_text(path: list[int]) -> str:
    """``the root`` or ``path (0, 1)``."""
    if not path:
        return "the root"
    return "path (" + ", ".join(map(str, path)) + (",)" if len(path) == 1 else ")")
