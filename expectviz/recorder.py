"""Recording a search: the tracer verbs the algorithms call, and what they store.

The algorithms call a *tracer* at the steps of the textbook pseudocode:

``visit(node, alpha, beta)``
    a node's search begins, with the window it is searched with (minimax and
    expectiminimax call ``visit(node)``: they have no window);
``leaf(node, value)``
    a utility or static evaluation (closes the visit; returns ``value``);
``backup(node, value)``
    an inner node's value is backed up (closes the visit; returns ``value``);
``cutoff(node, value, first_pruned, count)``
    the node is left early: of its ``count`` children (moves or outcomes), those
    from ``first_pruned`` onward are not searched (nothing happens when none is left);
``bounds(node, lower, upper)``, ``window(node, i, alpha_i, beta_i)``, ``probe(node, value)``
    *-minimax at chance nodes: the running bounds, child ``i``'s window, and
    Star2's probe result (closes the probing visit; returns ``value``);
``reuse(node, value)``
    Star2: a move whose value the probe already found is not searched again;
``table(node, value)``
    a transposition table already holds what this search needs of the node: its
    value, or a bound that decides the window (closes the visit; returns ``value``).

:class:`Counter` only counts (``trace=False``).  :class:`Recorder` stores each
event as an int32 code and its values in a column of doubles (16 bytes for a
visit with its window, 12 for a leaf or backup); values a double cannot hold
exactly (1/3, 10**400) are kept exactly in a side table.  Which node an event
is about is not stored: visits open nodes and leaf/backup/probe close them, so
it follows from the order (see :mod:`expectviz.trace`).
"""

from __future__ import annotations

import math
import sys
from array import array
from collections.abc import Callable
from dataclasses import dataclass

from .errors import TraceBudgetError
from .numbers import Number
from .tree import LEAF as LEAF_KIND
from .tree import Node

__all__ = [
    "Counter",
    "Recorder",
    "Stats",
    "Value",
    "EVENT_KINDS",
    "VISIT",
    "LEAF",
    "BACKUP",
    "CUTOFF",
    "BOUNDS",
    "WINDOW",
    "PROBE",
    "REUSE",
    "TABLE",
    "CLOSING",
    "WINDOWED_VISIT",
    "LEAF_INT",
    "BACKUP_INT",
    "value_count",
]

Value = Number | float
"""A value in a search: exact, or a float infinity (the ends of an open window)."""

INF = math.inf

VISIT, LEAF, BACKUP, CUTOFF, BOUNDS, WINDOW, PROBE, REUSE, TABLE = range(9)
EVENT_KINDS = ("visit", "leaf", "backup", "cutoff", "bounds", "window", "probe", "reuse", "table")
"""The event kinds, by code."""
CLOSING = (LEAF, BACKUP, PROBE, TABLE)
"""The events that close a visit."""
WINDOWED_VISIT, LEAF_INT, BACKUP_INT = 9, 10, 11
"""Stored forms: a visit with its window (two values); a leaf or backup whose whole-number value is in its code."""
_EXACT_INT = 2**53


def value_count(code: int) -> int:
    """How many values the event with this code carries in the value column.

    >>> value_count(VISIT), value_count(WINDOWED_VISIT), value_count(LEAF), value_count(-3 << 4 | LEAF_INT)
    (0, 2, 1, 0)
    """
    return _VALUES[code & 15]


_VALUES = (0, 1, 1, 1, 2, 2, 1, 1, 1, 2, 0, 0)


@dataclass(frozen=True, slots=True)
class Stats:
    """The counts every algorithm reports."""

    nodes_visited: int
    """Every node whose search began: root, inner nodes and leaves."""
    leaves_evaluated: int
    """Utility and static evaluations."""
    cutoffs: int
    """Nodes left before all of their children were searched."""
    table_hits: int = 0
    """Nodes whose search a transposition table answered (0 without a table)."""

    def __repr__(self) -> str:
        hits = f", table_hits={self.table_hits}" if self.table_hits else ""
        return (
            f"Stats(nodes_visited={self.nodes_visited}, leaves_evaluated={self.leaves_evaluated}, "
            f"cutoffs={self.cutoffs}{hits})"
        )


class Counter:
    """The null tracer: counts nodes, leaves and cutoffs and records nothing.

    Every visit is closed by exactly one leaf, backup or probe, so the visits
    are counted where they close and ``visit`` itself does nothing.
    """

    __slots__ = ("closed", "leaves_evaluated", "cutoffs", "table_hits")

    def __init__(self) -> None:
        self.restart()

    def restart(self) -> None:
        """Count from zero again (iterative deepening's next depth)."""
        self.closed = 0  # backups, probes and table hits
        self.leaves_evaluated = 0
        self.cutoffs = 0
        self.table_hits = 0

    def visit(self, node: Node, alpha: Value = -INF, beta: Value = INF) -> None:
        pass

    def leaf(self, node: Node, value: Number | None) -> Number:
        self.leaves_evaluated += 1
        return value  # type: ignore[return-value]  # checked trees: leaves have values, cut-off nodes evaluations

    def backup(self, node: Node, value: Value) -> Value:
        self.closed += 1
        return value

    def cutoff(self, node: Node, value: Value, first_pruned: int, count: int) -> None:
        if first_pruned < count:
            self.cutoffs += 1

    def bounds(self, node: Node, lower: Value, upper: Value) -> None:
        pass

    def window(self, node: Node, child: int, alpha: Value, beta: Value) -> None:
        pass

    def probe(self, node: Node, value: Value) -> Value:
        self.closed += 1
        return value

    def reuse(self, node: Node, value: Value) -> Value:
        return value

    def table(self, node: Node, value: Value) -> Value:
        self.closed += 1
        self.table_hits += 1
        return value

    def stats(self) -> Stats:
        return Stats(self.closed + self.leaves_evaluated, self.leaves_evaluated, self.cutoffs, self.table_hits)


class Recorder:
    """The recording tracer.

    Each event is one int64 code: the kind in the low four bits, and above them
    a child index (a cutoff's first pruned child, a window's child) or, for a
    leaf or backup whose value is a whole number, the value itself.  Other
    values go to a column of doubles, and those a double cannot hold exactly
    (1/3, 10**400) to a side table as well.

    Args:
        windowed: visits carry their (alpha, beta) window (alpha-beta, Star1, Star2).
        max_events: stop with :class:`~expectviz.errors.TraceBudgetError` at a backup
            that finds this many events recorded, less ``reserve``.
        reserve: room for the events that can follow the last check: between two
            backups a search records a few events a level and two for each leaf
            child of one node.
        states: keep each visit's state (a game search: its explored tree is built
            from them afterwards; an explicit tree needs none).
    """

    __slots__ = (
        "code",
        "values",
        "exact",
        "max_events",
        "cutoffs",
        "table_hits",
        "states",
        "windowed",
        "visit",
        "_code",
        "_value",
        "_state",
        "_limit",
    )

    def __init__(self, *, windowed: bool, max_events: int = 5_000_000, reserve: int = 0, states: bool = False) -> None:
        self.max_events = max_events
        self.windowed = windowed
        self._limit = max(1, max_events - reserve)
        self.states: list[object] | None = [] if states else None
        """Each visit's state, in order (game searches only)."""
        self.restart()

    def restart(self) -> None:
        """Record from nothing again, in new columns (a trace made before keeps its own)."""
        self.code = array("q")
        self.values = array("d")
        self.exact: dict[int, Value] = {}
        """Position in ``values`` -> the exact value, where a double does not hold it."""
        self.cutoffs = 0
        self.table_hits = 0
        # Bound appends: recording is on the search's hot path.
        self._code = self.code.append
        self._value = self.values.append
        visit: Callable[..., None]
        if self.states is not None:
            self.states = []
            self._state = self.states.append
            visit = self._visit_state_with_window if self.windowed else self._visit_state
        else:
            visit = self._visit_with_window if self.windowed else self._visit
        self.visit = visit

    def __len__(self) -> int:
        return len(self.code)

    def _visit(self, node: object, alpha: Value = -INF, beta: Value = INF) -> None:
        self._code(VISIT)

    def _visit_with_window(self, node: object, alpha: Value = -INF, beta: Value = INF) -> None:
        self._code(WINDOWED_VISIT)
        self._put(alpha)
        self._put(beta)

    def _visit_state(self, state: object, alpha: Value = -INF, beta: Value = INF) -> None:
        self._code(VISIT)
        self._state(state)

    def _visit_state_with_window(self, state: object, alpha: Value = -INF, beta: Value = INF) -> None:
        self._code(WINDOWED_VISIT)
        self._put(alpha)
        self._put(beta)
        self._state(state)

    def leaf(self, node: Node, value: Number | None) -> Number:
        if type(value) is int:
            try:
                self._code(value << 4 | LEAF_INT)  # the value inside the code: one append
                return value
            except OverflowError:  # beyond 2**59: into the value column
                pass
        self._code(LEAF)
        self._put(value)  # type: ignore[arg-type]  # checked trees: never None here
        return value  # type: ignore[return-value]

    def backup(self, node: Node, value: Value) -> Value:
        if len(self.code) >= self._limit:
            self._over_budget()
        if type(value) is int:
            try:
                self._code(value << 4 | BACKUP_INT)
                return value
            except OverflowError:
                pass
        self._code(BACKUP)
        self._put(value)
        return value

    def cutoff(self, node: Node, value: Value, first_pruned: int, count: int) -> None:
        if first_pruned < count:
            self.cutoffs += 1
            self._code(CUTOFF | first_pruned << 4)
            self._put(value)

    def bounds(self, node: Node, lower: Value, upper: Value) -> None:
        self._code(BOUNDS)
        self._put(lower)
        self._put(upper)

    def window(self, node: Node, child: int, alpha: Value, beta: Value) -> None:
        self._code(WINDOW | child << 4)
        self._put(alpha)
        self._put(beta)

    def probe(self, node: Node, value: Value) -> Value:
        self._code(PROBE)
        self._put(value)
        return value

    def reuse(self, node: Node, value: Value) -> Value:
        self._code(REUSE)
        self._put(value)
        return value

    def table(self, node: Node, value: Value) -> Value:
        if len(self.code) >= self._limit:
            self._over_budget()
        self.table_hits += 1
        self._code(TABLE)
        self._put(value)
        return value

    def _put(self, x: Value) -> None:
        """Append a value to the column; keep it exactly aside when a double does not hold it."""
        if type(x) is float or (type(x) is int and -_EXACT_INT <= x <= _EXACT_INT):
            self._value(x)
        else:
            self._value(as_double(x))
            if not is_double(x):
                self.exact[len(self.values) - 1] = x

    def add(self, kind: int, values: tuple[Value, ...], index: int = 0) -> None:
        """Append one event given its kind, values and child index (used when reading a saved trace)."""
        if len(self.code) >= self.max_events:
            self._over_budget()
        if kind == LEAF:
            self.leaf(_NO_NODE, values[0])  # type: ignore[arg-type]
        elif kind == BACKUP:
            self.backup(_NO_NODE, values[0])
        else:
            if kind == CUTOFF:
                self.cutoffs += 1
            elif kind == TABLE:
                self.table_hits += 1
            self._code(kind | index << 4)
            for x in values:
                self._put(x)

    def stats(self) -> Stats:
        """The counts, read from the codes' kinds (in C: no pass over the events in Python)."""
        kinds = kinds_of(self.code)
        visits = kinds.count(VISIT) + kinds.count(WINDOWED_VISIT)
        return Stats(visits, kinds.count(LEAF) + kinds.count(LEAF_INT), self.cutoffs, self.table_hits)

    @property
    def nbytes(self) -> int:
        """Bytes held by the recorded columns."""
        return sum(col.buffer_info()[1] * col.itemsize for col in (self.code, self.values))

    def _over_budget(self) -> None:
        events, nbytes = len(self.code), self.nbytes
        reserve = self.max_events - self._limit
        kept = (
            f", {reserve:,} of them kept free for the deepest path the search may still take"
            if events < self.max_events // 2 and reserve > 0
            else ""
        )
        raise TraceBudgetError(
            f"this search stopped before finishing: recording every step would pass the trace budget of "
            f"{self.max_events:,} events (ev.options.max_events{kept}); it had recorded {events:,} events "
            f"({nbytes / 1e6:.1f} MB). A classroom kernel has little memory, so it stops here rather than run out. "
            f"To go on: count only with trace=False, give a depth limit (depth=...), search a smaller tree, or "
            f"raise the budget (max_events=... for this search, or ev.options.max_events = ...)",
            events=events,
            nbytes=nbytes,
            limit=self.max_events,
        )


_NO_NODE = Node(LEAF_KIND)


def kinds_of(code: array[int]) -> bytes:
    """The stored kind (``code & 15``) of every code, one byte each, computed in C.

    >>> list(kinds_of(array("q", [VISIT, -3 << 4 | LEAF_INT, 5 << 4 | WINDOW, BACKUP])))
    [0, 10, 5, 2]
    """
    low_bytes = code.tobytes()[:: code.itemsize] if sys.byteorder == "little" else code.tobytes()[7 :: code.itemsize]
    return low_bytes.translate(_LOW_FOUR_BITS)


_LOW_FOUR_BITS = bytes(b & 15 for b in range(256))


def is_double(x: Value) -> bool:
    """True when a double holds ``x`` exactly."""
    if type(x) is float:
        return True
    if type(x) is int:
        return -_EXACT_INT <= x <= _EXACT_INT
    try:
        return float(x) == x
    except OverflowError:
        return False


def as_double(x: Value) -> float:
    """``x`` as a double for the columns; beyond a double's range, an infinity (the side table keeps x)."""
    try:
        return float(x)
    except OverflowError:
        return INF if x > 0 else -INF
