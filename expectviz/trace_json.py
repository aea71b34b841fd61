"""The JSON form of a trace: saving it, and loading it back only if every event fits the tree.

A saved trace is one object::

    {"schema": "expectviz-trace", "version": 1, "algorithm": "alphabeta",
     "bounds": ["-inf", "+inf"], "options": {"prune_ties": true},
     "tree": {...the tree's JSON form...},
     "events": [["visit", 0, "-inf", "+inf"], ["visit", 0, "-inf", "+inf"], ["leaf", 0, 3, 0], ...]}

Each event is ``[kind, index, a, b]``: ``index`` is a visit's child index, a
cutoff's first pruned child or a window's child; ``a`` and ``b`` are a
visit's window, a window's (alpha_i, beta_i) or the bounds, or ``a`` the
value of a leaf, backup, cutoff, probe, reuse or table hit.  Numbers that JSON
cannot hold exactly are written as text (``"1/3"``, ``"+inf"``).

Loading replays the events against the tree and refuses, with the event's
number, anything a search could not have recorded: a visit out of order, a
leaf event whose value is not the leaf's, a backup that closes a leaf, a
window at a MAX node, bounds that leaves fall outside of, a table event
anywhere but right after the visit of an inner node below the root, and so on.

A game search's trace is saved with the part of the game's tree it explored
(:attr:`Trace.tree <expectviz.trace.Trace.tree>`): its nodes carry their move
labels, probabilities, utilities and static evaluations, but not the game or
its states, so the loaded trace is a trace of that tree (its diagrams draw no
pictures of positions, and its first sentence names the tree, not the game).
An explored tree may have inner nodes without children: a node the depth
limit stopped at (with its ``evaluation``), a node a transposition table
answered, and each move a cutoff pruned.  Such a tree loads only as part of a
trace (:func:`~expectviz.tree_json.from_json` refuses it), and a node of it
the search reached must close with a leaf event (its static evaluation) or a
table event, never with a backup.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

from ._deep import call_deep
from .errors import ExpectvizError, InvalidTreeError, TraceFormatError
from .numbers import exact, format_number
from .options import options as limits
from .recorder import (
    BACKUP,
    BOUNDS,
    CUTOFF,
    EVENT_KINDS,
    LEAF,
    PROBE,
    REUSE,
    TABLE,
    VISIT,
    WINDOW,
    WINDOWED_VISIT,
    Recorder,
    Value,
)
from .registry import ALGORITHM_INFO
from .tree import CHANCE, MAX, MIN, Node, check, facts, height, nodes
from .tree import LEAF as LEAF_NODE
from .tree_json import _from_plain, from_json, json_number, load_json, tree_to_plain

__all__ = ["trace_to_json", "trace_from_json", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1
INF = math.inf
_FLOAT_MAX = Fraction(2**1024)


def trace_to_json(trace: Any) -> str:
    """The trace as JSON (with its tree and a schema version)."""
    ix = trace.index
    code = trace._code
    events: list[list[Any]] = []
    for i in range(len(code)):
        k = ix.kinds[i]
        if k == VISIT:
            nid = ix.about[i]
            index = ix.child_index[nid] if ix.parent[nid] >= 0 else 0
            a, b = ix.values(i) if trace.info.windowed else (-INF, INF)
            events.append(["visit", index, _json_value(a), _json_value(b)])
        elif k in (BOUNDS, WINDOW):
            a, b = ix.values(i)
            events.append([EVENT_KINDS[k], code[i] >> 4 if k == WINDOW else 0, _json_value(a), _json_value(b)])
        else:
            index = code[i] >> 4 if k == CUTOFF else 0
            events.append([EVENT_KINDS[k], index, _json_value(ix.value(i)), 0])
    document = {
        "schema": "expectviz-trace",
        "version": SCHEMA_VERSION,
        "algorithm": trace.algorithm,
        "bounds": [_json_value(trace.value_bounds[0]), _json_value(trace.value_bounds[1])],
        "options": trace.options,
        "tree": tree_to_plain(trace.tree),
        "events": events,
    }
    if trace.note is not None:
        document["note"] = trace.note
    tree = trace.tree
    levels = facts(tree).height if tree._facts is not None else height(tree)  # a game's explored tree is unchecked
    text: str = call_deep(json.dumps, document, depth=2 * levels + 8)
    return text


def trace_from_json(text: str | bytes) -> Any:
    """Load a saved trace, checking every event against the tree (see the module docstring)."""
    from .trace import Trace

    data = _load(text)
    if not isinstance(data, dict) or data.get("schema") != "expectviz-trace":
        raise TraceFormatError('not an expectviz trace: expected an object with "schema": "expectviz-trace"')
    version = data.get("version")
    if version != SCHEMA_VERSION or isinstance(version, bool):
        raise TraceFormatError(f"trace schema version {version!r} is not supported (this is {SCHEMA_VERSION})")
    algorithm = data.get("algorithm")
    if not isinstance(algorithm, str) or algorithm not in ALGORITHM_INFO:
        raise TraceFormatError(f'"algorithm" must be one of {", ".join(ALGORITHM_INFO)}, not {algorithm!r}')
    info = ALGORITHM_INFO[algorithm]
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise TraceFormatError('"options" must be an object')
    for key, value in options.items():
        if key not in info.options:
            allowed = ", ".join(info.options) or "none"
            raise TraceFormatError(f'"options" has {key!r}, which {algorithm} does not take (allowed: {allowed})')
        if not isinstance(value, bool):
            raise TraceFormatError(f'"options": {key} must be true or false, not {value!r}')
    if "tree" not in data:
        raise TraceFormatError('"tree" is missing')
    try:
        tree, least, greatest = _read_tree(data["tree"])
    except ExpectvizError as exc:
        raise TraceFormatError(f"bad tree: {exc}") from None
    raw_bounds = data.get("bounds", ["-inf", "+inf"])
    if not isinstance(raw_bounds, list) or len(raw_bounds) != 2:
        raise TraceFormatError('"bounds" must be a list of two numbers')
    bounds = (_read_value(raw_bounds[0], "bounds", infinite=True), _read_value(raw_bounds[1], "bounds", infinite=True))
    for bound in bounds:
        if not isinstance(bound, float) and not -_FLOAT_MAX < bound < _FLOAT_MAX:
            raise TraceFormatError(
                f'"bounds": {format_number(bound)} is beyond the range of a double; use "-inf" or "+inf" for no bound'
            )
    if not bounds[0] < bounds[1]:
        low, high = format_number(bounds[0]), format_number(bounds[1])
        raise TraceFormatError(f'"bounds" must satisfy L < U, not [{low}, {high}]')
    if not (bounds[0] <= least and greatest <= bounds[1]):
        raise TraceFormatError(
            f'"bounds" [{format_number(bounds[0])}, {format_number(bounds[1])}] do not hold the tree\'s values '
            f"(from {format_number(least)} to {format_number(greatest)})"
        )
    events = data.get("events")
    if not isinstance(events, list):
        raise TraceFormatError('"events" must be a list')
    recorder = Recorder(windowed=info.windowed, max_events=max(1, limits.max_events))
    _Checker(tree, info, recorder, bounds).check(events)
    note = data.get("note")
    if note is not None and (not isinstance(note, str) or len(note) > 1000):
        raise TraceFormatError('"note" must be a line of text (at most 1,000 characters)')
    return Trace(tree, recorder, algorithm=algorithm, bounds=bounds, options=options, note=note)


_INNER = ("max", "min", "chance")
_STAND_IN = '{"kind": "leaf", "value": 0}'


def _read_tree(data: Any) -> tuple[Node, Value, Value]:
    """The saved tree, checked, with its least and greatest leaf value or static evaluation.

    A tree whose inner nodes all have children is read as :func:`~expectviz.tree_json.from_json`
    reads it.  An explored tree (a game search's) may have inner nodes without children: each gets
    a stand-in leaf while the tree is checked by the same rules, and loses it afterwards, so the
    tree loaded is the tree saved (unchecked, like the explored tree of a live search).
    """
    if not isinstance(data, dict):
        return _known(from_json(data))
    childless = _childless_inner(data)
    if not childless:
        return _known(from_json(data))
    if childless[0] is data and data.get("evaluation") is None:  # only a depth limit of 0 stops at the root
        raise InvalidTreeError(f"{data['kind']} node has no children; give at least one (or its static evaluation)")
    for item in childless:
        item["children"] = [json.loads(_STAND_IN)]
    checked = check(_from_plain(data))
    marked = {id(item) for item in childless}
    tree = _without_stand_ins(checked, data, marked)
    numbers = [n.value if n.kind == LEAF_NODE else n.evaluation for n in nodes(tree)]
    found = [x for x in numbers if x is not None]
    return tree, min(found, default=0), max(found, default=0)


def _known(tree: Node) -> tuple[Node, Value, Value]:
    known = facts(tree)
    return tree, known.least, known.greatest


def _childless_inner(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The objects of inner nodes with no children, found without recursion (the JSON's depth was checked)."""
    found: list[dict[str, Any]] = []
    stack: list[Any] = [data]
    while stack:
        item = stack.pop()
        if not isinstance(item, dict):
            continue  # from_json names what is wrong with it
        children = item.get("children")
        if item.get("kind") in _INNER and ("children" not in item or children == []):
            found.append(item)
        elif isinstance(children, list):
            stack.extend(children)
    return found


def _without_stand_ins(checked: Node, data: dict[str, Any], marked: set[int]) -> Node:
    """The checked tree rebuilt without the stand-in leaves (``marked``: the objects that got one)."""
    built: list[Node] = []
    stack: list[tuple[Node, Any, bool]] = [(checked, data, False)]
    while stack:
        node, item, finished = stack.pop()
        bare = id(item) in marked
        if not finished:
            stack.append((node, item, True))
            if not bare:
                items = item.get("children") or []
                stack.extend((child, items[i], False) for i, child in reversed(list(enumerate(node.children))))
            continue
        children: tuple[Node, ...] = ()
        if not bare and node.children:
            count = len(node.children)
            children = tuple(built[len(built) - count :])
            del built[len(built) - count :]
        built.append(Node(node.kind, children, node.value, node.name, node.move, node.probability, node.evaluation))
    return built[0]


def _load(text: str | bytes) -> Any:
    from .errors import InputTypeError

    if not isinstance(text, (str, bytes, bytearray)):
        found = "None" if text is None else type(text).__name__
        raise InputTypeError(f"Trace.from_json takes the JSON text (str or bytes), not {found}")
    try:
        return load_json(text)
    except ExpectvizError as exc:
        raise TraceFormatError(str(exc).replace("node at root: ", "")) from None


class _Checker:
    """Replays raw JSON events against the tree, refusing anything a search could not have recorded."""

    def __init__(self, tree: Node, info: Any, recorder: Recorder, bounds: tuple[Value, Value]) -> None:
        self.tree = tree
        self.info = info
        self.recorder = recorder
        self.bounds = bounds
        self.previous = -1  # the kind of the event before
        self.open: list[Node] = []
        self.last: list[int] = []  # per open node: the child searched last in this pass (-1: none)
        self.probed: list[set[int]] = []  # per open node: the children Star2 has probed
        self.revisit: list[bool] = []  # per open node: searched after a probe (its first move may be reused)

    def check(self, events: list[Any]) -> None:
        visited_root = False
        for i, item in enumerate(events):
            where = f"event {i}"
            if not (isinstance(item, list) and len(item) == 4):
                raise TraceFormatError(f"{where}: expected [kind, index, a, b]")
            name, aux, a, b = item
            if name not in EVENT_KINDS:
                raise TraceFormatError(f"{where}: unknown kind {name!r}; allowed are {', '.join(EVENT_KINDS)}")
            if not isinstance(aux, int) or isinstance(aux, bool) or not 0 <= aux < 2**26:
                raise TraceFormatError(f"{where}: the index {aux!r} must be a whole number from 0")
            kind = EVENT_KINDS.index(name)
            if kind == VISIT:
                if not self.open and visited_root:
                    raise TraceFormatError(f"{where}: a second root visit after the search finished")
                visited_root = True
                self._visit(where, aux, a, b)
            elif not self.open:
                raise TraceFormatError(f"{where}: {name} with no node being searched")
            else:
                self._other(where, kind, aux, a, b, events[i + 1] if i + 1 < len(events) else None)
            self.previous = kind
        if self.open:
            raise TraceFormatError(f"the trace ends with {len(self.open)} node(s) still open")
        if not visited_root:
            raise TraceFormatError("the trace has no events")

    def _visit(self, where: str, aux: int, a: Any, b: Any) -> None:
        if self.info.windowed:
            window: tuple[Value, ...] = (
                _read_value(a, where, infinite=True),
                _read_value(b, where, infinite=True),
            )
        else:
            _read_value(a, where, infinite=True)
            _read_value(b, where, infinite=True)
            window = ()
        revisit = False
        if not self.open:
            if aux != 0:
                raise TraceFormatError(f"{where}: the root visit must have index 0")
            node = self.tree
        else:
            parent = self.open[-1]
            if aux >= len(parent.children):
                raise TraceFormatError(f"{where}: child {aux} does not exist (the node has {len(parent.children)})")
            if aux != self.last[-1] + 1:
                raise TraceFormatError(
                    f"{where}: child {aux} is searched after child {self.last[-1]}; children are searched left to right"
                )
            self.last[-1] = aux
            node = parent.children[aux]
            revisit = aux in self.probed[-1]
        self.recorder.add(WINDOWED_VISIT if self.info.windowed else VISIT, window)
        self.open.append(node)
        self.last.append(-1)
        self.probed.append(set())
        self.revisit.append(revisit)

    def _other(self, where: str, kind: int, aux: int, a: Any, b: Any, following: Any) -> None:
        node = self.open[-1]
        name = EVENT_KINDS[kind]
        if kind in (BOUNDS, WINDOW):
            if not (self.info.star and node.kind == CHANCE):
                raise TraceFormatError(f"{where}: {name} events belong to chance nodes under star1 or star2")
            pair = (_read_value(a, where, infinite=True), _read_value(b, where, infinite=True))
            if kind == WINDOW:
                if aux >= len(node.children):
                    raise TraceFormatError(f"{where}: window for child {aux} out of range")
                if aux != self.last[-1] + 1 and aux != 0:
                    raise TraceFormatError(f"{where}: a window for child {aux} after child {self.last[-1]}")
                self.last[-1] = aux - 1
                self.recorder.add(WINDOW, pair, aux)
            else:
                self.recorder.add(BOUNDS, pair)
            return
        value = _read_value(a, where, infinite=False)
        if kind == CUTOFF:
            first = self.last[-1] + 1
            if node.kind == LEAF_NODE or not (aux == first or (aux == 0 and node.kind == CHANCE)):
                raise TraceFormatError(f"{where}: first pruned child {aux} out of range")
            if aux >= len(node.children):
                raise TraceFormatError(f"{where}: first pruned child {aux} out of range: no child is left")
            if not (isinstance(following, list) and following[:1] == ["backup"]):
                raise TraceFormatError(f"{where}: a cutoff must be followed by the backup of the same node")
            self.recorder.add(CUTOFF, (value,), aux)
            return
        if kind == REUSE:
            if not (self.info.probes and self.revisit[-1] and self.last[-1] == -1 and node.kind in (MAX, MIN)):
                raise TraceFormatError(f"{where}: reuse stands for the first move of an outcome Star2 probed")
            self.last[-1] = 0
            self.recorder.add(REUSE, (value,))
            return
        # a closing event
        if kind == LEAF:
            expected = node.value if node.kind == LEAF_NODE else node.evaluation
            if expected is None:
                raise TraceFormatError(f"{where}: a leaf event for a {node.kind} node that has no static evaluation")
            if value != expected:
                raise TraceFormatError(
                    f"{where}: the leaf event says {format_number(value)}, but the tree says {format_number(expected)}"
                )
        elif node.kind == LEAF_NODE:
            raise TraceFormatError(f"{where}: a {name} event cannot close a leaf (leaves close with a leaf event)")
        elif kind == TABLE:
            self._table(where, node, value)
        elif kind == BACKUP and not node.children:
            raise TraceFormatError(
                f"{where}: a backup cannot close a {node.kind} node that has no children "
                "(it closes with a leaf event, its static evaluation, or a table event)"
            )
        elif kind == PROBE:
            parent_is_chance = len(self.open) >= 2 and self.open[-2].kind == CHANCE
            if not (self.info.probes and parent_is_chance and node.kind in (MAX, MIN) and self.last[-1] == 0):
                raise TraceFormatError(f"{where}: a probe closes an outcome of a chance node after its first move")
        self.open.pop()
        self.last.pop()
        self.probed.pop()
        self.revisit.pop()
        if kind == PROBE:
            self.probed[-1].add(self.last[-1])
        self.recorder.add(kind, (value,))

    def _table(self, where: str, node: Node, value: Value) -> None:
        """A transposition table's answer: it closes the visit of an inner node below the root, at once."""
        if len(self.open) == 1:
            raise TraceFormatError(
                f"{where}: a table event cannot close the root (the table is empty when the search begins)"
            )
        if self.previous != VISIT:
            raise TraceFormatError(
                f"{where}: a table event must follow the visit of its node at once (the table is read first)"
            )
        if self.revisit[-1]:
            raise TraceFormatError(f"{where}: a table event cannot close an outcome searched again after its probe")
        low, high = self.bounds
        if not low <= value <= high:
            raise TraceFormatError(
                f"{where}: the table's value {format_number(value)} is outside the bounds "
                f"[{format_number(low)}, {format_number(high)}]"
            )


def _read_value(x: Any, where: str, *, infinite: bool) -> Value:
    if x in ("+inf", "-inf") and not isinstance(x, bool):
        if not infinite:
            raise TraceFormatError(f"{where}: {x!r} is not allowed here; a finite number is")
        return INF if x == "+inf" else -INF
    if isinstance(x, bool) or not isinstance(x, (int, float, str)):
        raise TraceFormatError(f"{where}: {x!r} is not a number")
    try:
        return exact(x, what="the value")
    except ExpectvizError as exc:
        raise TraceFormatError(f"{where}: {exc}") from None
    except (ValueError, ArithmeticError):
        raise TraceFormatError(f"{where}: {_short(x)} is not a number") from None


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def _json_value(x: Value) -> int | float | str:
    if isinstance(x, float):  # only the infinities of open windows and bounds are floats
        return "+inf" if x > 0 else "-inf"
    return json_number(x)
