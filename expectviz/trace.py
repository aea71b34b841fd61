"""Traces: what a search did, event by event, and the state after any step.

The algorithms call a *tracer* with a handful of verbs:

``visit(node, alpha, beta)``
    a node's search begins, with the window it is searched with;
``leaf(node, value)``
    a utility or static evaluation (closes the visit; returns ``value``);
``backup(node, value)``
    an inner node's value is backed up (closes the visit; returns ``value``);
``cutoff(node, value, first_pruned)``
    the node is left early: children ``first_pruned`` onward are not searched
    (nothing is recorded when no child is left);
``expand(node)``, ``outcomes(node)``
    the children (for a chance node, ``(probability, child)`` pairs): a pass
    over them begins, searched left to right;
``bounds(node, lower, upper)``, ``window(node, i, alpha_i, beta_i)``, ``probe(node, value)``
    *-minimax at chance nodes: the running bounds, child ``i``'s window, and
    Star2's probe result (closes the probing visit; returns ``value``);
``reuse(node, value)``
    Star2: a move whose value the probe already found is not searched again
    (returns ``value``).

:class:`Counter` only counts (``trace=False``); :class:`Recorder` also records
every event into compact array columns (about 25 bytes an event).  The
finished :class:`Trace` replays to a :class:`Frame` at any step.

Nodes are named by their path from the root: a tuple of child indices.
"""

from __future__ import annotations

import json
import math
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from ._deep import call_deep
from .errors import TraceFormatError
from .tree import (
    CHANCE,
    LEAF,
    MAX,
    MIN,
    Node,
    Number,
    _to_plain,
    describe,
    facts,
    format_number,
    format_probability,
    from_json,
)

__all__ = [
    "Counter",
    "Recorder",
    "ExactRecorder",
    "Trace",
    "Event",
    "Frame",
    "NodeState",
    "Stats",
    "EVENT_KINDS",
    "SCHEMA_VERSION",
]

INF = math.inf
SCHEMA_VERSION = 1

VISIT, LEAF_EVENT, BACKUP, CUTOFF, BOUNDS, WINDOW, PROBE, REUSE = range(8)
EVENT_KINDS = ("visit", "leaf", "backup", "cutoff", "bounds", "window", "probe", "reuse")
_CLOSING = (LEAF_EVENT, BACKUP, PROBE)
_TWO_VALUES = frozenset((VISIT, BOUNDS, WINDOW))  # the events whose b column is stored

Value = Number | float  # float only for the infinities of open windows


@dataclass(frozen=True, slots=True)
class Stats:
    """The three counts every algorithm reports (FACTS.md's conventions)."""

    nodes_visited: int
    """Every node whose search began: root, inner nodes and leaves."""
    leaves_evaluated: int
    """Utility and static evaluations."""
    cutoffs: int
    """Nodes left before all of their children were searched."""


# ---------------------------------------------------------------- tracers


class Counter:
    """The null tracer: counts nodes, leaves and cutoffs and records nothing."""

    __slots__ = ("nodes_visited", "leaves_evaluated", "cutoffs")

    def __init__(self) -> None:
        self.nodes_visited = 0
        self.leaves_evaluated = 0
        self.cutoffs = 0

    def visit(self, node: Node, alpha: Value = -INF, beta: Value = INF) -> None:
        self.nodes_visited += 1

    def leaf(self, node: Node, value: Number | None) -> Number:
        self.leaves_evaluated += 1
        return value  # type: ignore[return-value]  # checked trees: leaves have values, cut-off nodes evaluations

    def backup(self, node: Node, value: Value) -> Value:
        return value

    def cutoff(self, node: Node, value: Value, first_pruned: int) -> None:
        if first_pruned < len(node.children):
            self.cutoffs += 1

    def expand(self, node: Node) -> Sequence[Node]:
        return node.children

    def outcomes(self, node: Node) -> Sequence[tuple[Number, Node]]:
        return node.outcomes

    def bounds(self, node: Node, lower: Value, upper: Value) -> None:
        pass

    def window(self, node: Node, child: int, alpha: Value, beta: Value) -> None:
        pass

    def probe(self, node: Node, value: Value) -> Value:
        return value

    def reuse(self, node: Node, value: Value) -> Value:
        return value

    def stats(self) -> Stats:
        return Stats(self.nodes_visited, self.leaves_evaluated, self.cutoffs)


class Recorder:
    """The recording tracer: every event goes into three array columns.

    ``code`` (int32) packs the event kind (low 3 bits) with a small integer
    (a cutoff's first pruned child, a window's child); ``a`` (double) holds the
    value, or a window's or bounds' lower end, and ``b`` (double) the upper end
    of the events that have one (visits, bounds, windows): 16 to 20 bytes an event.
    Which node an event is about is not stored: visits open nodes, and
    leaf/backup/probe close them, so it follows from the order, and children
    are searched left to right, each pass over them starting where ``expand``
    was called (those positions are kept in ``passes``).  Values a double
    cannot hold exactly (1/3) are kept in a side table as well.
    """

    __slots__ = ("code", "a", "b", "passes", "exact", "_code", "_a", "_b", "_passes")

    def __init__(self) -> None:
        self.code = array("i")
        self.a = array("d")
        self.b = array("d")
        self.passes = array("i")  # event positions where a new pass over the open node's children begins
        self.exact: dict[int, tuple[Value, Value]] = {}
        # Bound appends: recording is on the search's hot path.
        self._code = self.code.append
        self._a = self.a.append
        self._b = self.b.append
        self._passes = self.passes.append

    def _add(self, kind: int, aux: int, a: Value, b: Value) -> None:
        self._code(kind | aux << 3)
        self._a(_as_double(a))
        if kind in _TWO_VALUES:
            self._b(_as_double(b))
        if type(a) is not float or type(b) is not float:
            self._keep_exact(a, b)

    def _keep_exact(self, a: Value, b: Value) -> None:
        if not (_double(a) and _double(b)):
            self.exact[len(self.code) - 1] = (a, b)

    def expand(self, node: Node) -> Sequence[Node]:
        self._passes(len(self.code))
        return node.children

    def outcomes(self, node: Node) -> Sequence[tuple[Number, Node]]:
        self._passes(len(self.code))
        return node.outcomes

    def visit(self, node: Node, alpha: Value = -INF, beta: Value = INF) -> None:
        self._code(VISIT)
        self._a(alpha)  # type: ignore[arg-type]
        self._b(beta)  # type: ignore[arg-type]
        # Ints are exact here: trees with integers beyond 2**53 are recorded by ExactRecorder.
        kind_a, kind_b = type(alpha), type(beta)
        if (kind_a is not float and kind_a is not int) or (kind_b is not float and kind_b is not int):
            self._keep_exact(alpha, beta)

    def leaf(self, node: Node, value: Number | None) -> Number:
        self._code(LEAF_EVENT)
        self._a(value)  # type: ignore[arg-type]  # checked trees: never None here
        if type(value) is not int:
            self._keep_exact(value, 0.0)  # type: ignore[arg-type]
        return value  # type: ignore[return-value]

    def backup(self, node: Node, value: Value) -> Value:
        self._code(BACKUP)
        self._a(value)  # type: ignore[arg-type]  # array('d') takes Fractions through __float__
        if type(value) is not int:
            self._keep_exact(value, 0.0)
        return value

    def probe(self, node: Node, value: Value) -> Value:
        self._add(PROBE, 0, value, 0.0)
        return value

    def reuse(self, node: Node, value: Value) -> Value:
        self._add(REUSE, 0, value, 0.0)
        return value

    def cutoff(self, node: Node, value: Value, first_pruned: int) -> None:
        if first_pruned < len(node.children):
            self._add(CUTOFF, first_pruned, value, 0.0)

    def bounds(self, node: Node, lower: Value, upper: Value) -> None:
        self._add(BOUNDS, 0, lower, upper)

    def window(self, node: Node, child: int, alpha: Value, beta: Value) -> None:
        self._add(WINDOW, child, alpha, beta)


class ExactRecorder(Recorder):
    """A Recorder for trees with integers beyond 2**53: every value is checked (and may exceed a double)."""

    __slots__ = ()

    def visit(self, node: Node, alpha: Value = -INF, beta: Value = INF) -> None:
        self._add(VISIT, 0, alpha, beta)

    def leaf(self, node: Node, value: Number | None) -> Number:
        self._add(LEAF_EVENT, 0, value, 0.0)  # type: ignore[arg-type]
        return value  # type: ignore[return-value]

    def backup(self, node: Node, value: Value) -> Value:
        self._add(BACKUP, 0, value, 0.0)
        return value


def _double(x: Value) -> bool:
    """True when a double holds x exactly."""
    if type(x) is float:
        return True
    if type(x) is int:
        return -_EXACT_INT <= x <= _EXACT_INT
    try:
        return float(x) == x
    except OverflowError:
        return False


def _as_double(x: Value) -> float:
    """x as a double for the columns; beyond a double's range, an infinity (the side table keeps x)."""
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


_EXACT_INT = 2**53


# ---------------------------------------------------------------- events and frames


class Event(NamedTuple):
    """One step of a trace, as read back from the columns."""

    kind: str
    """``visit``, ``leaf``, ``backup``, ``cutoff``, ``bounds``, ``window`` or ``probe``."""
    path: tuple[int, ...]
    """The node the event is about."""
    value: Value | None = None
    """leaf, backup, cutoff, probe: the value."""
    alpha: Value | None = None
    """visit: the window's lower end; window: alpha_i; bounds: the lower bound."""
    beta: Value | None = None
    """visit: the window's upper end; window: beta_i; bounds: the upper bound."""
    child: int | None = None
    """cutoff: the first pruned child; window: the child's index."""


@dataclass(frozen=True, slots=True)
class NodeState:
    """What a frame knows about one node."""

    status: str
    """``unvisited``, ``active`` (on the call stack), ``current`` (the node of this step),
    ``done``, ``probed`` (only its first move searched, by Star2) or ``pruned``."""
    value: Value | None = None
    """done: the backed-up value (a bound when the node was cut); active: the value so far."""
    window: tuple[Value, Value] | None = None
    """The (alpha, beta) window the node was searched with."""
    range: tuple[Value, Value] = (-INF, INF)
    """[lower, upper]: what the leaves seen so far prove about its value (AIMA Fig. 5.5)."""
    bounds: tuple[Value, Value] | None = None
    """Chance nodes under Star1/Star2: the running lower and upper bounds."""
    child_window: tuple[Value, Value] | None = None
    """Children of chance nodes under Star1/Star2: (alpha_i, beta_i) before clipping to [L, U]."""
    probe: Value | None = None
    """Star2: the value of the node's first move, found by probing."""
    cut: bool = False
    """True when the node was left before all its children were searched."""


@dataclass(frozen=True)
class Frame:
    """The state of a search after ``step`` events (step 0: before the search)."""

    step: int
    event: Event | None
    stack: tuple[tuple[int, ...], ...]
    explanation: str
    nodes: dict[tuple[int, ...], NodeState] = field(repr=False)

    def __getitem__(self, path: tuple[int, ...]) -> NodeState:
        return self.node(path)

    def node(self, path: tuple[int, ...]) -> NodeState:
        """The state of the node at ``path`` (``unvisited`` if the search has not reached it)."""
        state = self.nodes.get(path)
        if state is not None:
            return state
        for cut in range(len(path) - 1, -1, -1):
            above = self.nodes.get(path[:cut])
            if above is not None:
                if above.status == "pruned":
                    return NodeState("pruned")
                break
        return NodeState("unvisited")

    @property
    def current(self) -> tuple[int, ...] | None:
        """The node this step is about."""
        return self.event.path if self.event is not None else None


class _Replay:
    """Mutable replay state; :meth:`Trace.frame` copies it into a Frame."""

    def __init__(self) -> None:
        self.step = 0
        self.status: dict[tuple[int, ...], str] = {}
        self.value: dict[tuple[int, ...], Value] = {}
        self.window: dict[tuple[int, ...], tuple[Value, Value]] = {}
        self.bounds: dict[tuple[int, ...], tuple[Value, Value]] = {}
        self.child_window: dict[tuple[int, ...], tuple[Value, Value]] = {}
        self.probe: dict[tuple[int, ...], Value] = {}
        self.cut: set[tuple[int, ...]] = set()
        self.leaf_value: dict[tuple[int, ...], Value] = {}  # evaluated leaves and static evaluations
        self.stack: list[tuple[int, ...]] = []

    def copy(self) -> _Replay:
        other = _Replay()
        other.step = self.step
        other.status = dict(self.status)
        other.value = dict(self.value)
        other.window = dict(self.window)
        other.bounds = dict(self.bounds)
        other.child_window = dict(self.child_window)
        other.probe = dict(self.probe)
        other.cut = set(self.cut)
        other.leaf_value = dict(self.leaf_value)
        other.stack = list(self.stack)
        return other


# ---------------------------------------------------------------- the trace


class Trace:
    """Every event of one search, replayable to any step.

    >>> import expectviz as ev
    >>> r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    >>> len(r.trace), r.trace[0]
    (23, Event(kind='visit', path=(), value=None, alpha=-inf, beta=inf, child=None))
    >>> print(r.trace.frame(13).explanation)  # doctest: +NORMALIZE_WHITESPACE
    C is a MIN node whose value is now at most 2, and 2 <= alpha = 3: MAX already has 3 at B,
    so MAX will never choose C; its other children (c2, c3) are pruned.
    """

    def __init__(
        self,
        tree: Node,
        recorder: Recorder,
        *,
        algorithm: str,
        bounds: tuple[Value, Value] = (-INF, INF),
        options: dict[str, Any] | None = None,
    ) -> None:
        self.tree = tree
        self.algorithm = algorithm
        self.value_bounds = bounds
        self.options = dict(options or {})
        self._code = recorder.code
        self._a = recorder.a
        self._b = recorder.b
        self._exact = recorder.exact
        self._pass_starts = recorder.passes
        self._kind_col: array[int] | None = None
        self._ref_col: array[int] | None = None
        self._aux_col: array[int] | None = None
        self._b_col: array[int] | None = None
        self._paths: list[tuple[int, ...] | None] | None = None
        self._nodes: dict[tuple[int, ...], Node] | None = None
        self._replay: _Replay | None = None
        self._checkpoints: dict[int, _Replay] = {}

    # -- reading events

    @property
    def _kind(self) -> array[int]:
        if self._kind_col is None:
            self._kind_col = array("B", (c & 7 for c in self._code))
        return self._kind_col

    @property
    def _aux(self) -> array[int]:
        """A visit's child index; a cutoff's first pruned child; a window's child."""
        if self._aux_col is None:
            self._derive()
        assert self._aux_col is not None
        return self._aux_col

    @property
    def _ref(self) -> array[int]:
        """For a visit, its parent's visit event (-1 for the root); else the visit it is about."""
        if self._ref_col is None:
            self._derive()
        assert self._ref_col is not None
        return self._ref_col

    def _derive(self) -> None:
        """Replay the stack discipline: which node each event is about, and visits' child indices."""
        n = len(self._code)
        refs = array("i", bytes(4 * n))
        aux = array("i", (c >> 3 for c in self._code))
        passes = set(self._pass_starts)
        stack: list[int] = []
        searched: list[int] = []  # per open node: the child index visited last in this pass
        for i, c in enumerate(self._code):
            if i in passes and searched:
                searched[-1] = -1
            kind = c & 7
            if kind == VISIT:
                if stack:
                    refs[i] = stack[-1]
                    searched[-1] += 1
                    aux[i] = searched[-1]
                else:
                    refs[i] = -1
                    aux[i] = 0
                stack.append(i)
                searched.append(-1)
            elif kind in _CLOSING:
                refs[i] = stack.pop()
                searched.pop()
            elif kind == REUSE:  # stands in for the visit of the parent's next child
                refs[i] = stack[-1]
                searched[-1] += 1
                aux[i] = searched[-1]
            else:
                refs[i] = stack[-1]
        self._ref_col = refs
        self._aux_col = aux

    def __len__(self) -> int:
        return len(self._code)

    def __iter__(self) -> Iterator[Event]:
        for i in range(len(self._code)):
            yield self[i]

    def __getitem__(self, i: int) -> Event:
        n = len(self._code)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"event {i} out of range: the trace has {n} events")
        kind = self._kind[i]
        a, b = self._values(i)
        if kind == VISIT:
            return Event("visit", self.path_of(i), alpha=a, beta=b)
        path = self.path_of(self._ref[i])
        if kind in _CLOSING:
            return Event(EVENT_KINDS[kind], path, value=a)
        if kind == CUTOFF:
            return Event("cutoff", path, value=a, child=self._aux[i])
        if kind == BOUNDS:
            return Event("bounds", path, alpha=a, beta=b)
        if kind == REUSE:
            return Event("reuse", path + (self._aux[i],), value=a)
        return Event("window", path, alpha=a, beta=b, child=self._aux[i])

    def _values(self, i: int) -> tuple[Value, Value]:
        pair = self._exact.get(i)
        if pair is not None:
            return pair
        if self._kind[i] not in _TWO_VALUES:
            return _plain(self._a[i]), 0
        return _plain(self._a[i]), _plain(self._b[self._b_index[i]])

    @property
    def _b_index(self) -> array[int]:
        """For each event, where its upper value sits in the b column (events with two values only)."""
        if self._b_col is None:
            positions = array("i", bytes(4 * len(self._code)))
            count = 0
            for i, kind in enumerate(self._kind):
                positions[i] = count
                if kind in _TWO_VALUES:
                    count += 1
            self._b_col = positions
        return self._b_col

    def path_of(self, visit_event: int) -> tuple[int, ...]:
        """The path of the node opened by the visit event at that index."""
        if self._paths is None:
            paths: list[tuple[int, ...] | None] = [None] * len(self._code)
            refs, code, aux = self._ref, self._code, self._aux
            for i, c in enumerate(code):
                if c & 7 == VISIT:
                    parent = refs[i]
                    paths[i] = () if parent < 0 else paths[parent] + (aux[i],)  # type: ignore[operator]
            self._paths = paths
        path = self._paths[visit_event]
        if path is None:
            raise IndexError(f"event {visit_event} is not a visit")
        return path

    def node(self, path: tuple[int, ...]) -> Node:
        """The tree node at ``path``."""
        if self._nodes is None:
            nodes: dict[tuple[int, ...], Node] = {(): self.tree}
            for i, c in enumerate(self._code):
                if c & 7 == VISIT and i > 0:
                    p = self.path_of(i)
                    if p not in nodes:
                        nodes[p] = nodes[p[:-1]].children[p[-1]]
            self._nodes = nodes
        node = self._nodes.get(path)
        if node is None:
            node = self.tree
            for i in path:
                node = node.children[i]
        return node

    def stats(self) -> Stats:
        """The counts, read from the events."""
        counts = [0] * 8
        for c in self._code:
            counts[c & 7] += 1
        return Stats(counts[VISIT], counts[LEAF_EVENT], counts[CUTOFF])

    @property
    def nbytes(self) -> int:
        """Bytes held by the recorded event columns."""
        columns = (self._code, self._a, self._b, self._pass_starts)
        return sum(col.buffer_info()[1] * col.itemsize for col in columns)

    # -- names used in text

    def describe(self, path: tuple[int, ...]) -> str:
        """A short name for a node: its name, its move label, or its path."""
        return describe(self.node(path), path)

    def _kind_word(self, node: Node) -> str:
        return {MAX: "MAX", MIN: "MIN", CHANCE: "CHANCE", LEAF: "leaf"}[node.kind]

    # -- text form

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def __repr__(self) -> str:
        return f"<Trace of {self.algorithm}: {len(self)} events>"

    def lines(self) -> Iterator[str]:
        """One readable line per event, indented by depth."""
        windows = self.algorithm not in ("minimax", "expectiminimax")
        for event in self:
            indent = "  " * len(event.path)
            name = self.describe(event.path)
            if event.kind == "visit":
                node = self.node(event.path)
                text = f"visit {name} ({self._kind_word(node)})"
                if windows and node.kind != LEAF:
                    text += f" window [{_fmt(event.alpha)}, {_fmt(event.beta)}]"
            elif event.kind == "leaf":
                node = self.node(event.path)
                what = "leaf" if node.kind == LEAF else "static evaluation of"
                text = f"{what} {name} = {_fmt(event.value)}"
            elif event.kind == "backup":
                text = f"backup {name} = {_fmt(event.value)}"
            elif event.kind == "cutoff" and self._after_probing(event):
                text = f"cutoff at {name} with {_fmt(event.value)} after probing: no outcome is searched in full"
            elif event.kind == "cutoff":
                pruned = self._pruned_names(event)
                text = f"cutoff at {name} with {_fmt(event.value)}" + (f", pruned {pruned}" if pruned else "")
            elif event.kind == "bounds":
                text = f"bounds {name} in [{_fmt(event.alpha)}, {_fmt(event.beta)}]"
            elif event.kind == "window":
                child = self.describe(event.path + (event.child or 0,))
                text = f"window for {child}: [{_fmt(event.alpha)}, {_fmt(event.beta)}]"
            elif event.kind == "reuse":
                text = f"reuse {name} = {_fmt(event.value)} (searched by the probe)"
            else:
                text = f"probe {name}: first move gives {_fmt(event.value)}"
            yield indent + text

    def _after_probing(self, event: Event) -> bool:
        """A Star2 cutoff made by the probes alone (every outcome probed, none searched in full)."""
        return self.algorithm == "star2" and event.child == 0 and self.node(event.path).kind == CHANCE

    def _pruned_names(self, event: Event) -> str:
        node = self.node(event.path)
        first = event.child or 0
        return ", ".join(self.describe(event.path + (i,)) for i in range(first, len(node.children)))

    # -- replay

    def frame(self, step: int) -> Frame:
        """The state after ``step`` events; ``frame(0)`` is before the search.

        Steps run from 0 to ``len(trace)``; negative steps count from the end.
        """
        n = len(self._code)
        if step < 0:
            step += n + 1
        if not 0 <= step <= n:
            raise IndexError(f"step {step} out of range: this trace has steps 0 to {n}")
        replay = self._replay
        if replay is None or replay.step > step:
            start = max((k for k in self._checkpoints if k <= step), default=None)
            replay = self._checkpoints[start].copy() if start is not None else _Replay()
        while replay.step < step:
            self._apply(replay, replay.step)
            replay.step += 1
            if replay.step % 2048 == 0 and replay.step not in self._checkpoints:
                self._checkpoints[replay.step] = replay.copy()
        self._replay = replay
        return self._snapshot(replay)

    def frames(self) -> Iterator[Frame]:
        """Every frame, from step 0 to the end."""
        for k in range(len(self) + 1):
            yield self.frame(k)

    def _apply(self, r: _Replay, i: int) -> None:
        kind = self._kind[i]
        a, b = self._values(i)
        if kind == VISIT:
            path = self.path_of(i)
            r.status[path] = "active"
            r.window[path] = (a, b)
            r.value.pop(path, None)
            r.cut.discard(path)
            r.stack.append(path)
            # A node searched again after a probe starts afresh below it.
            return
        path = self.path_of(self._ref[i])
        node = self.node(path)
        if kind == REUSE:
            self._update_parent_value(r, path + (self._aux[i],), a)
            return
        if kind in _CLOSING:
            r.stack.pop()
            if kind == PROBE:
                r.status[path] = "probed"
                r.probe[path] = a
            else:
                r.status[path] = "done"
                r.value[path] = a
                if kind == LEAF_EVENT:
                    r.leaf_value[path] = a
            if path and kind != PROBE:
                self._update_parent_value(r, path, a)
        elif kind == CUTOFF:
            r.cut.add(path)
            for j in range(self._aux[i], len(node.children)):
                child = path + (j,)
                if r.status.get(child) != "probed":
                    r.status[child] = "pruned"
                    continue
                # A probed outcome: the moves its probe did not reach are pruned with it.
                for k in range(len(node.children[j].children)):
                    if (child + (k,)) not in r.status:
                        r.status[child + (k,)] = "pruned"
        elif kind == BOUNDS:
            r.bounds[path] = (a, b)
        elif kind == WINDOW:
            r.child_window[path + (self._aux[i],)] = (a, b)

    def _update_parent_value(self, r: _Replay, path: tuple[int, ...], value: Value) -> None:
        """Fold a finished child's value into its parent's value so far (max, min or weighted sum)."""
        parent = path[:-1]
        node = self.node(parent)
        so_far = r.value.get(parent)
        if node.kind == MAX:
            r.value[parent] = value if so_far is None else max(so_far, value)
        elif node.kind == MIN:
            r.value[parent] = value if so_far is None else min(so_far, value)
        else:
            share = node.children[path[-1]].probability * value  # type: ignore[operator]
            r.value[parent] = share if so_far is None else so_far + share

    def _snapshot(self, r: _Replay) -> Frame:
        step = r.step
        event = self[step - 1] if step else None
        ranges = self._ranges(r)
        nodes: dict[tuple[int, ...], NodeState] = {}
        current = event.path if event is not None else None
        for path in r.child_window:
            if path not in r.status:
                nodes[path] = NodeState("unvisited", child_window=r.child_window[path])
        for path, status in r.status.items():
            if path == current and status == "active":
                status = "current"
            nodes[path] = NodeState(
                status=status,
                value=r.value.get(path),
                window=r.window.get(path),
                range=ranges.get(path, self.value_bounds),
                bounds=r.bounds.get(path),
                child_window=r.child_window.get(path),
                probe=r.probe.get(path),
                cut=path in r.cut,
            )
        return Frame(step, event, tuple(r.stack), self.explain(step, r), nodes)

    def _ranges(self, r: _Replay) -> dict[tuple[int, ...], tuple[Value, Value]]:
        """[lower, upper] for every reached node, from the leaves seen (AIMA Fig. 5.5)."""
        unknown = self.value_bounds
        reached = [p for p, s in r.status.items() if s != "pruned"]
        reached.sort(key=len, reverse=True)
        ranges: dict[tuple[int, ...], tuple[Value, Value]] = {}
        for path in reached:
            if path in r.leaf_value:
                v = r.leaf_value[path]
                ranges[path] = (v, v)
                continue
            node = self.node(path)
            if node.kind == LEAF:
                continue
            kids = [ranges.get(path + (j,), unknown) for j in range(len(node.children))]
            if node.kind == MAX:
                ranges[path] = (max(k[0] for k in kids), max(k[1] for k in kids))
            elif node.kind == MIN:
                ranges[path] = (min(k[0] for k in kids), min(k[1] for k in kids))
            else:
                lo: Value = 0
                hi: Value = 0
                for child, (kl, ku) in zip(node.children, kids, strict=False):
                    lo += child.probability * kl  # type: ignore[operator]
                    hi += child.probability * ku  # type: ignore[operator]
                ranges[path] = (lo, hi)
        return ranges

    # -- explanations

    def explain(self, step: int, r: _Replay | None = None) -> str:
        """One plain-English sentence about step ``step``."""
        sentence = self._explain(step, r)
        return sentence[:1].upper() + sentence[1:]

    def _explain(self, step: int, r: _Replay | None = None) -> str:
        if step == 0:
            root = self.node(())
            return (
                f"Before the search: {self.algorithm} will search the tree from {self.describe(())}, "
                f"a {self._kind_word(root)} node."
            )
        event = self[step - 1]
        path = event.path
        node = self.node(path)
        name = self.describe(path)
        kind_word = self._kind_word(node)
        if event.kind == "visit":
            if node.kind == LEAF:
                return f"Reach leaf {name}."
            text = f"Search {name}, a {kind_word} node"
            if self.algorithm not in ("minimax", "expectiminimax"):
                text += f", with window [{_fmt(event.alpha)}, {_fmt(event.beta)}]"
                under_chance = bool(path) and self.node(path[:-1]).kind == CHANCE
                if under_chance:
                    text += f": the window that decides {self.describe(path[:-1])}, clipped to the value bounds"
                elif node.kind == MIN and event.alpha is not None and event.alpha > -INF:
                    text += f": MAX already has {_fmt(event.alpha)}"
                elif node.kind == MAX and event.beta is not None and event.beta < INF:
                    text += f": MIN already has {_fmt(event.beta)}"
            return text + "."
        if event.kind == "leaf":
            if node.kind == LEAF:
                return f"Leaf {name} has utility {_fmt(event.value)}."
            return f"The depth limit stops the search at {name}: its static evaluation is {_fmt(event.value)}."
        if event.kind == "backup":
            how = {
                MAX: "MAX takes the largest child value",
                MIN: "MIN takes the smallest child value",
                CHANCE: "its value is the probability-weighted average of its children",
            }[node.kind]
            cut = r is not None and path in r.cut
            if cut:
                return f"{name} returns {_fmt(event.value)}, a bound rather than its exact value, after the cutoff."
            if node.kind == CHANCE:
                terms = self._chance_terms(path, step)
                if terms:
                    return f"{name} is finished: {how}, {terms} = {_fmt(event.value)}."
            return f"{name} is finished: {how}, {_fmt(event.value)}."
        if event.kind == "cutoff":
            return self._explain_cutoff(step, event, node, name)
        if event.kind == "bounds":
            return f"{name}'s expected value now lies in [{_fmt(event.alpha)}, {_fmt(event.beta)}]."
        if event.kind == "window":
            child = self.describe(path + (event.child or 0,))
            return (
                f"Before searching {child}, {name} works out the window that matters: values of {child} at most "
                f"{_fmt(event.alpha)} or at least {_fmt(event.beta)} decide {name} at once."
            )
        if event.kind == "reuse":
            return (
                f"The probe already searched {name}: its value {_fmt(event.value)} is used again, "
                f"not searched a second time."
            )
        parent = self.describe(path[:-1]) if path else name
        bound = "at most" if node.kind == MIN else "at least"
        return (
            f"Probe: the first move of {name} gives {_fmt(event.value)}, so {name} is {bound} "
            f"{_fmt(event.value)}; this tightens {parent}'s bounds without a full search."
        )

    def _chance_terms(self, path: tuple[int, ...], step: int) -> str:
        node = self.node(path)
        if len(node.children) > 6:
            return ""
        values = []
        for j in range(len(node.children)):
            v = self._last_value(path + (j,), step)
            if v is None:
                return ""
            values.append(f"{format_probability(node.children[j].probability or 0)}·{_fmt(v)}")
        return " + ".join(values)

    def _last_value(self, path: tuple[int, ...], step: int) -> Value | None:
        for i in range(step - 1, -1, -1):
            kind = self._kind[i]
            if kind in (LEAF_EVENT, BACKUP) and self.path_of(self._ref[i]) == path:
                return self._values(i)[0]
        return None

    def _explain_cutoff(self, step: int, event: Event, node: Node, name: str) -> str:
        visit = self._visit_window(step - 1)
        alpha, beta = visit if visit else (-INF, INF)
        pruned = self._pruned_names(event)
        rest = f"its other children ({pruned}) are pruned" if pruned else "nothing is left to prune"
        if self._after_probing(event):
            rest = "no outcome needs a full search: the probes were enough"
        v = _fmt(event.value)
        strict = not self.options.get("prune_ties", True)
        parent = self.node(event.path[:-1]) if event.path else None
        if parent is not None and parent.kind == CHANCE and node.kind in (MAX, MIN):
            chance = self.describe(event.path[:-1])
            the_chance = "the chance " + (chance if chance.startswith("node ") else f"node {chance}")
            if node.kind == MIN:
                return (
                    f"{name} is a MIN node whose value is now at most {v}, and {v} {'<' if strict else '<='} "
                    f"alpha = {_fmt(alpha)}, the lowest value of {name} that could still matter to "
                    f"{the_chance}: {chance} is settled as too low for MAX, so {rest}."
                )
            return (
                f"{name} is a MAX node whose value is now at least {v}, and {v} {'>' if strict else '>='} "
                f"beta = {_fmt(beta)}, the highest value of {name} that could still matter to "
                f"{the_chance}: {chance} is settled as too high for MIN, so {rest}."
            )
        if node.kind == MIN:
            rel = "<" if strict else "<="
            where = self._where_alpha(step - 1, alpha)
            return (
                f"{name} is a MIN node whose value is now at most {v}, and {v} {rel} alpha = {_fmt(alpha)}: "
                f"MAX already has {_fmt(alpha)}{where}, so MAX will never choose {name}; {rest}."
            )
        if node.kind == MAX:
            rel = ">" if strict else ">="
            return (
                f"{name} is a MAX node whose value is now at least {v}, and {v} {rel} beta = {_fmt(beta)}: "
                f"MIN already has {_fmt(beta)} elsewhere, so MIN will never choose {name}; {rest}."
            )
        low = event.value is not None and event.value <= alpha
        if low:
            return (
                f"{name} is a CHANCE node whose expected value can be at most {v}, and {v} <= alpha = "
                f"{_fmt(alpha)}: it cannot beat what MAX already has, so {rest}."
            )
        return (
            f"{name} is a CHANCE node whose expected value is at least {v}, and {v} >= beta = {_fmt(beta)}: "
            f"MIN will avoid it, so {rest}."
        )

    def _visit_window(self, event_index: int) -> tuple[Value, Value] | None:
        ref = self._ref[event_index]
        if self._kind[ref] != VISIT:
            return None
        return self._values(ref)

    def _where_alpha(self, event_index: int, alpha: Value) -> str:
        """' at B' when alpha came from a finished MAX child's sibling, for the explanation."""
        path = self.path_of(self._ref[event_index])
        if not path:
            return ""
        parent = path[:-1]
        for j in range(path[-1]):
            v = self._last_value(parent + (j,), event_index)
            if v is not None and v == alpha:
                return f" at {self.describe(parent + (j,))}"
        return " elsewhere"

    # -- JSON

    def to_json(self) -> str:
        """The trace as JSON (with its tree and a schema version)."""
        events = []
        for i in range(len(self._code)):
            a, b = self._values(i)
            events.append([EVENT_KINDS[self._kind[i]], self._aux[i], _json_value(a), _json_value(b)])
        document = {
            "schema": "expectviz-trace",
            "version": SCHEMA_VERSION,
            "algorithm": self.algorithm,
            "bounds": [_json_value(self.value_bounds[0]), _json_value(self.value_bounds[1])],
            "options": self.options,
            "tree": _to_plain(self.tree),
            "events": events,
        }
        return call_deep(json.dumps, document, depth=2 * facts(self.tree).height)

    @classmethod
    def from_json(cls, text: str | bytes) -> Trace:
        """Load a trace saved by :meth:`to_json`, checking every event.

        Raises:
            TraceFormatError: malformed JSON, an unknown schema version, or events
                that do not describe a search of the tree.
        """
        try:
            data = call_deep(json.loads, text, depth=len(text))
        except (ValueError, RecursionError) as exc:
            raise TraceFormatError(f"not valid JSON: {exc}") from None
        if not isinstance(data, dict) or data.get("schema") != "expectviz-trace":
            raise TraceFormatError('not an expectviz trace: expected an object with "schema": "expectviz-trace"')
        if data.get("version") != SCHEMA_VERSION:
            raise TraceFormatError(
                f"trace schema version {data.get('version')!r} is not supported (this is {SCHEMA_VERSION})"
            )
        algorithm = data.get("algorithm")
        if not isinstance(algorithm, str):
            raise TraceFormatError('"algorithm" must be a string')
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise TraceFormatError('"options" must be an object')
        try:
            tree = from_json(data.get("tree"))  # type: ignore[arg-type]
        except ValueError as exc:
            raise TraceFormatError(f"bad tree: {exc}") from None
        raw_bounds = data.get("bounds", ["-inf", "+inf"])
        if not isinstance(raw_bounds, list) or len(raw_bounds) != 2:
            raise TraceFormatError('"bounds" must be a list of two numbers')
        bounds = (_read_value(raw_bounds[0], "bounds"), _read_value(raw_bounds[1], "bounds"))
        events = data.get("events")
        if not isinstance(events, list):
            raise TraceFormatError('"events" must be a list')
        recorder = Recorder()
        _check_events(tree, events, recorder)
        return cls(tree, recorder, algorithm=algorithm, bounds=bounds, options=options)


def _check_events(tree: Node, events: list[Any], recorder: Recorder) -> None:
    """Replay raw JSON events against the tree, refusing anything inconsistent."""
    open_nodes: list[Node] = []
    last_child: list[int] = []
    visited_root = False
    for i, item in enumerate(events):
        where = f"event {i}"
        if not (isinstance(item, list) and len(item) == 4):
            raise TraceFormatError(f"{where}: expected [kind, index, a, b]")
        name, aux, a, b = item
        if name not in EVENT_KINDS:
            raise TraceFormatError(f"{where}: unknown kind {name!r}; allowed are {', '.join(EVENT_KINDS)}")
        if not isinstance(aux, int) or isinstance(aux, bool) or not 0 <= aux < 2**28:
            raise TraceFormatError(f"{where}: the index {aux!r} must be a whole number from 0")
        av, bv = _read_value(a, where), _read_value(b, where)
        kind = EVENT_KINDS.index(name)
        if kind == VISIT:
            if not open_nodes:
                if visited_root:
                    raise TraceFormatError(f"{where}: a second root visit after the search finished")
                if aux != 0:
                    raise TraceFormatError(f"{where}: the root visit must have index 0")
                visited_root = True
                node = tree
            else:
                parent = open_nodes[-1]
                if aux >= len(parent.children):
                    raise TraceFormatError(f"{where}: child {aux} does not exist (the node has {len(parent.children)})")
                node = parent.children[aux]
                _next_child(aux, last_child, recorder, where)
            open_nodes.append(node)
            last_child.append(-1)
        else:
            if not open_nodes:
                raise TraceFormatError(f"{where}: {name} with no node being searched")
            node = open_nodes[-1]
            if kind in _CLOSING:
                open_nodes.pop()
                last_child.pop()
            elif kind == CUTOFF and aux > len(node.children):
                raise TraceFormatError(f"{where}: first pruned child {aux} out of range")
            elif kind == WINDOW and aux >= len(node.children):
                raise TraceFormatError(f"{where}: window for child {aux} out of range")
            elif kind == REUSE:
                if aux >= len(node.children):
                    raise TraceFormatError(f"{where}: reused child {aux} does not exist")
                _next_child(aux, last_child, recorder, where)
        recorder._add(kind, 0 if kind in (VISIT, REUSE) else aux, av, bv)
    if open_nodes:
        raise TraceFormatError(f"the trace ends with {len(open_nodes)} node(s) still open")


def _next_child(aux: int, last_child: list[int], recorder: Recorder, where: str) -> None:
    """Children are searched left to right: the next one, or the first again (a new pass, as Star2 makes)."""
    if aux == last_child[-1] + 1:
        pass
    elif aux == 0:
        recorder.passes.append(len(recorder.code))
    else:
        raise TraceFormatError(
            f"{where}: child {aux} is searched after child {last_child[-1]}; children are searched left to right"
        )
    last_child[-1] = aux


def _read_value(x: Any, where: str) -> Value:
    if x == "+inf":
        return INF
    if x == "-inf":
        return -INF
    if isinstance(x, bool) or not isinstance(x, (int, float, str)):
        raise TraceFormatError(f"{where}: {x!r} is not a number")
    try:
        from .tree import exact

        return exact(x)
    except ValueError:
        raise TraceFormatError(f"{where}: {x!r} is not a number") from None


def _json_value(x: Value) -> int | float | str:
    if isinstance(x, float):
        if math.isinf(x):
            return "+inf" if x > 0 else "-inf"
        return x
    if isinstance(x, int):
        return x
    f = float(x)
    return f if Fraction(repr(f)) == x else f"{x.numerator}/{x.denominator}"


def _plain(x: float) -> Value:
    """A column double back as an exact number (ints as int)."""
    if math.isinf(x):
        return x
    if x.is_integer():
        return int(x)
    return Fraction(x)  # exact: only values a double holds exactly are read from the columns


def _fmt(x: Value | None) -> str:
    if x is None:
        return "?"
    return format_number(x)
