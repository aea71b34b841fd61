"""Traces: every event of one search, readable one by one and replayable to any step.

A :class:`Trace` holds what the :class:`~expectviz.recorder.Recorder` stored:
an int32 code per event and a column of values.  Which node each event is
about follows from the order (visits open nodes, leaf/backup/probe close
them, children are searched left to right), and is worked out once, on first
use, by :class:`TraceIndex` in one pass: every node the search reached gets a
small integer id with its parent, child index and depth in compact arrays, so
no path tuple is built per event.  :meth:`Trace.frame` then answers questions
about any step from that index (see :mod:`expectviz.replay`).

>>> import expectviz as ev
>>> r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
>>> len(r.trace), r.trace[0]
(23, Event(kind='visit', path=(), value=None, alpha=-inf, beta=inf, child=None))
>>> print(r.trace.frame(13).explanation)  # doctest: +NORMALIZE_WHITESPACE
C is a MIN node whose value is now at most 2, and 2 ≤ α = 3: MAX already has 3 at B,
so MAX will never choose C; its other children (c2, c3) are pruned.
"""

from __future__ import annotations

import contextlib
import gc
import math
import threading
from array import array
from bisect import bisect_left
from collections.abc import Iterator
from fractions import Fraction
from itertools import accumulate
from typing import Any

from .recorder import (
    BACKUP,
    BOUNDS,
    CUTOFF,
    EVENT_KINDS,
    LEAF,
    LEAF_INT,
    PROBE,
    REUSE,
    TABLE,
    VISIT,
    WINDOW,
    WINDOWED_VISIT,
    Recorder,
    Stats,
    Value,
    kinds_of,
)
from .registry import AlgorithmInfo, info
from .tree import Node

__all__ = ["Trace", "Event", "TraceIndex", "INDENT_LIMIT"]

INF = math.inf
_KIND = bytes((0, 1, 2, 3, 4, 5, 6, 7, 8, VISIT, LEAF, BACKUP)).ljust(256, b"\0")  # code & 15 -> event kind
_VALUES = bytes((0, 1, 1, 1, 2, 2, 1, 1, 1, 2, 0, 0)).ljust(256, b"\0")  # code & 15 -> values in the column

INDENT_LIMIT = 32
"""Lines of :meth:`Trace.lines` are indented two spaces a level down to this depth, then marked with the depth."""


class Event:
    """One step of a trace.

    ``kind`` is ``visit``, ``leaf``, ``backup``, ``cutoff``, ``bounds``, ``window``,
    ``probe``, ``reuse`` or ``table``; ``path`` the node it is about (child indices
    from the root; worked out when first read); ``value`` the value of a leaf, backup,
    cutoff, probe, reuse or table hit; ``alpha``/``beta`` a visit's window, a window's
    (alpha_i, beta_i) or the bounds; ``child`` a cutoff's first pruned child or a
    window's child.
    """

    __slots__ = ("kind", "value", "alpha", "beta", "child", "_path", "_trace", "_node")

    def __init__(
        self,
        kind: str,
        path: tuple[int, ...] = (),
        value: Value | None = None,
        alpha: Value | None = None,
        beta: Value | None = None,
        child: int | None = None,
    ) -> None:
        self.kind = kind
        self.value = value
        self.alpha = alpha
        self.beta = beta
        self.child = child
        self._path: tuple[int, ...] | None = path
        self._trace: Trace | None = None
        self._node = -1

    @classmethod
    def _of(cls, trace: Trace, node: int, kind: str, **values: Any) -> Event:
        event = cls(kind, **values)
        event._path, event._trace, event._node = None, trace, node
        return event

    @property
    def path(self) -> tuple[int, ...]:
        """The node the event is about (for ``reuse``, the move whose value is reused)."""
        if self._path is None:
            assert self._trace is not None
            path = self._trace.index.path(self._node)
            self._path = path + (0,) if self.kind == "reuse" else path
        return self._path

    def _fields(self) -> tuple[Any, ...]:
        return (self.kind, self.path, self.value, self.alpha, self.beta, self.child)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"Event(kind={self.kind!r}, path={self.path!r}, value={self.value!r}, alpha={self.alpha!r}, "
            f"beta={self.beta!r}, child={self.child!r})"
        )


class Trace:
    """Every event of one search, replayable to any step (see the module docstring)."""

    def __init__(
        self,
        tree: Node | None,
        recorder: Recorder,
        *,
        algorithm: str,
        bounds: tuple[Value, Value] = (-INF, INF),
        options: dict[str, Any] | None = None,
        game: Any = None,
        note: str | None = None,
    ) -> None:
        self._tree = tree
        self.note = note
        """A one-line remark on the search (as :attr:`Result.note`), or None."""
        self.view = game
        """A game search's view of the game (:class:`~expectviz.game.GameView`); None for an explicit tree."""
        self.game = game.game if game is not None else None
        """The game searched, when it was a game (its pictures draw the nodes)."""
        self._states = recorder.states
        self.algorithm = algorithm
        self.info: AlgorithmInfo = info(algorithm)
        self.value_bounds = bounds
        self.options = dict(options or {})
        self._code = recorder.code
        self._values = recorder.values
        self._exact = recorder.exact
        self._index: TraceIndex | None = None
        self._unique: set[str] | None = None
        self._lock = threading.Lock()

    @property
    def tree(self) -> Node:
        """The tree searched; for a game, the part of its tree the search explored (built when first asked)."""
        tree = self._tree
        if tree is None:
            self.index  # noqa: B018 - building the index builds the explored tree
            tree = self._tree
            assert tree is not None
        return tree

    @property
    def index(self) -> TraceIndex:
        """Which node each event is about, worked out once (thread-safe)."""
        index = self._index
        if index is None:
            with self._lock:
                index = self._index
                if index is None:
                    index = self._index = TraceIndex(self)
        return index

    # -- reading events

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
        ix = self.index
        code = self._code[i]
        kind = _KIND[code & 15]
        node = ix.about[i]
        if kind == VISIT:
            if code & 15 == WINDOWED_VISIT:
                a, b = ix.values(i)
                return Event._of(self, node, "visit", alpha=a, beta=b)
            return Event._of(self, node, "visit")
        if kind in (BOUNDS, WINDOW):
            a, b = ix.values(i)
            child = code >> 4 if kind == WINDOW else None
            return Event._of(self, node, EVENT_KINDS[kind], alpha=a, beta=b, child=child)
        value = ix.value(i)
        if kind == CUTOFF:
            return Event._of(self, node, "cutoff", value=value, child=code >> 4)
        return Event._of(self, node, EVENT_KINDS[kind], value=value)

    def kind(self, i: int) -> str:
        """The kind of event ``i`` (cheaper than ``trace[i].kind``)."""
        return EVENT_KINDS[_KIND[self._code[i] & 15]]

    def steps(self, kind: str) -> list[int]:
        """The steps at which events of ``kind`` happen: event i is step i + 1.

        >>> import expectviz as ev
        >>> ev.alphabeta(ev.textbook("aima-fig-5.2")).trace.steps("cutoff")
        [13]
        """
        code = EVENT_KINDS.index(kind)
        return [i + 1 for i, c in enumerate(self._code) if _KIND[c & 15] == code]

    def stats(self) -> Stats:
        """The counts, read from the events."""
        ix = self.index
        return Stats(ix.visits_before(len(self)), len(ix.leaf_events), len(ix.cutoff_events), ix.kinds.count(TABLE))

    @property
    def nbytes(self) -> int:
        """Bytes held by the recorded columns and, once built, the index."""
        held = sum(col.buffer_info()[1] * col.itemsize for col in (self._code, self._values))
        return held + (self._index.nbytes if self._index is not None else 0)

    def node(self, path: tuple[int, ...]) -> Node:
        """The tree node at ``path``."""
        node = self.tree
        for i in path:
            node = node.children[i]
        return node

    def describe(self, path: tuple[int, ...]) -> str:
        """A short name for the node at ``path``, as the explanations write it."""
        from .explain import describe_path

        return describe_path(self.tree, path, self.unique_labels)

    @property
    def unique_labels(self) -> set[str]:
        """The move labels that name exactly one edge of the tree (worked out once)."""
        found: set[str] | None = getattr(self, "_unique", None)
        if found is None:
            from .explain import unique_labels

            found = self._unique = unique_labels(self.tree)
        return found

    # -- text form

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def __repr__(self) -> str:
        return f"<Trace of {self.algorithm}: {len(self)} events>"

    def lines(self) -> Iterator[str]:
        """One readable line per event, indented by depth (time and memory linear in the trace)."""
        from .explain import event_lines

        return event_lines(self)

    # -- replay

    def frame(self, step: int) -> Frame:
        """The state after ``step`` events; ``frame(0)`` is before the search.

        Steps run from 0 to ``len(trace)``; negative steps count from the end.
        Frames are values: they compute what is asked of them from the trace's
        index, so any step is ready at once and frames never go stale.
        """
        from .replay import Frame

        n = len(self._code)
        if isinstance(step, bool) or not isinstance(step, int):
            raise TypeError(f"a step is a whole number from 0 to {n}, not {step!r}")
        if step < 0:
            step += n + 1
        if not 0 <= step <= n:
            raise IndexError(f"step {step} out of range: this trace has steps 0 to {n}")
        return Frame(self, step)

    def frames(self) -> Iterator[Frame]:
        """Every frame, from step 0 to the end."""
        for k in range(len(self) + 1):
            yield self.frame(k)

    def explain(self, step: int) -> str:
        """One plain-English sentence about step ``step``."""
        return self.frame(step).explanation

    # -- JSON

    def to_json(self) -> str:
        """The trace as JSON (with its tree and a schema version)."""
        from .trace_json import trace_to_json

        return trace_to_json(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> Trace:
        """Load a trace saved by :meth:`to_json`, checking every event against the tree.

        Raises:
            TraceFormatError: malformed JSON, an unknown schema version, or events
                that do not describe a search of the tree.
        """
        from .trace_json import trace_from_json

        trace: Trace = trace_from_json(text)
        return trace


if False:  # pragma: no cover - for type checkers only
    from .replay import Frame


class TraceIndex:
    """Which node each event is about, and each node's place in the tree, in compact arrays.

    Nodes get ids in the order the search first reaches them (the root is 0).
    Per event: ``about`` (the node id) and ``offset`` (where its values start).
    Per node: ``parent``, ``child_index``, ``depth``, ``first_visit`` and
    ``first_close`` (event indices), ``first_child``/``next_sibling`` (the
    reached children, in order) and the tree ``nodes``.  A node searched again
    (Star2 searches an outcome after probing it) has its later visits in
    ``revisits``.  Built in one pass over the events, in time and memory linear
    in the trace.
    """

    def __init__(self, trace: Trace) -> None:
        self.trace = trace
        code = trace._code
        n = len(code)
        kinds = kinds_of(code)
        self.kinds = kinds.translate(_KIND)
        """The event kind of each event (one byte each)."""
        self.offset = array("i", accumulate(kinds.translate(_VALUES), initial=0))
        self._values = trace._values
        self._exact = trace._exact
        self._code = trace._code
        self.about = array("i", bytes(4 * n))
        self.parent = array("i")
        self.child_index = array("i")
        self.depth = array("i")
        self.first_visit = array("i")
        self.first_close = array("i")
        self.first_child = array("i")
        self.next_sibling = array("i")
        self.nodes: list[Node] = []
        self.revisits: dict[int, list[list[int]]] = {}
        """Node id -> [visit, close] of every later visit."""
        self.revisit_events = array("i")
        self.leaf_events = array("i")
        self.cutoff_events = array("i")
        self.table_events = array("i")
        self.notes: dict[int, list[int]] = {}
        """Node id -> its bounds and reuse events (Star1/Star2), in order."""
        self._ranges: Any = None
        with _no_collection():
            self._build(kinds)

    def _build(self, kinds: bytes) -> None:
        """The one pass: a stack of open nodes, and per open node the child searched last.

        The per-node arrays are made at their largest size (one node per visit) and cut
        to the nodes found at the end, so the loop only stores into them.
        """
        code = self.trace._code
        about = self.about
        room = kinds.count(VISIT) + kinds.count(WINDOWED_VISIT)  # visits
        unset = array("i", [-1]) * room
        parent, child_index, depth = array("i", unset), array("i", unset), array("i", unset)
        first_visit, first_close = array("i", unset), array("i", unset)
        first_child, next_sibling = array("i", unset), array("i", unset)
        game = self.trace._tree is None
        nodes: list[Node] = [] if game else [self.trace._tree] * room  # type: ignore[list-item]
        first_state = array("i", unset) if game else None  # per node: which visit's state it is
        seen = 0  # visits so far
        leaf_events, cutoff_events = self.leaf_events, self.cutoff_events
        count = 0
        stack: list[int] = []  # open node ids
        last: list[int] = []  # per open node: the id of the child searched last in this pass (-1: none yet)
        visits: list[int] = []  # per open node: its visit event
        for i, k in enumerate(self.kinds):
            if k == VISIT:
                if not stack:
                    nid, count = count, count + 1
                    parent[nid], child_index[nid], depth[nid], first_visit[nid] = -1, 0, 0, i
                    if first_state is not None:
                        first_state[nid] = seen
                else:
                    p = stack[-1]
                    before = last[-1]
                    index = child_index[before] + 1 if before >= 0 else 0
                    following = next_sibling[before] if before >= 0 else first_child[p]
                    if following >= 0 and child_index[following] == index:
                        nid = following  # searched again (after a Star2 probe)
                        self.revisits.setdefault(nid, []).append([i, -1])
                        self.revisit_events.append(i)
                    else:
                        nid, count = count, count + 1
                        if first_state is None:
                            nodes[nid] = nodes[p].children[index]
                        else:
                            first_state[nid] = seen
                        parent[nid], child_index[nid], depth[nid], first_visit[nid] = p, index, len(stack), i
                        if before >= 0:
                            next_sibling[before] = nid
                        else:
                            first_child[p] = nid
                        next_sibling[nid] = following
                    last[-1] = nid
                about[i] = nid
                stack.append(nid)
                last.append(-1)
                visits.append(i)
                seen += 1
            elif k == LEAF or k == BACKUP or k == PROBE or k == TABLE:
                nid = stack.pop()
                last.pop()
                visit = visits.pop()
                about[i] = nid
                if visit == first_visit[nid]:
                    first_close[nid] = i
                else:
                    self.revisits[nid][-1][1] = i
                if k == LEAF:
                    leaf_events.append(i)
                elif k == TABLE:
                    self.table_events.append(i)
            else:
                nid = stack[-1]
                about[i] = nid
                if k == CUTOFF:
                    cutoff_events.append(i)
                elif k == WINDOW:
                    # A new pass over the children (Star2's full search after its probes) starts where the
                    # window says; within a pass the window names the next child.
                    index = code[i] >> 4
                    before = last[-1]
                    if index == 0:
                        last[-1] = -1
                    elif before < 0 or child_index[before] != index - 1:
                        child = first_child[nid]
                        before = -1
                        while child >= 0 and child_index[child] < index:
                            before, child = child, next_sibling[child]
                        last[-1] = before
                elif k == REUSE:  # stands in for the visit of the next child, searched by a probe already
                    before = last[-1]
                    last[-1] = next_sibling[before] if before >= 0 else first_child[nid]
                    self.notes.setdefault(nid, []).append(i)
                else:  # BOUNDS
                    self.notes.setdefault(nid, []).append(i)
        for column in (parent, child_index, depth, first_visit, first_close, first_child, next_sibling):
            del column[count:]
        self.parent, self.child_index, self.depth = parent, child_index, depth
        self.first_visit, self.first_close = first_visit, first_close
        self.first_child, self.next_sibling = first_child, next_sibling
        if first_state is None:
            del nodes[count:]
            self.nodes = nodes
        else:
            from .game import materialise

            assert self.trace._states is not None
            states = self.trace._states
            self.nodes = materialise(self, [states[first_state[nid]] for nid in range(count)], self.trace.view)
            self.trace._tree = self.nodes[0]

    # -- values

    def value(self, i: int) -> Value:
        """The (first) value of event ``i``, exactly."""
        code = self._code[i]
        if code & 15 >= LEAF_INT:  # a whole number inside the code
            return code >> 4
        slot = self.offset[i]
        exact = self._exact.get(slot) if self._exact else None
        return exact if exact is not None else plain(self._values[slot])

    def values(self, i: int) -> tuple[Value, Value]:
        """The two values of a windowed visit, a window or bounds, exactly."""
        slot = self.offset[i]
        a = self._exact.get(slot) if self._exact else None
        b = self._exact.get(slot + 1) if self._exact else None
        return (
            a if a is not None else plain(self._values[slot]),
            b if b is not None else plain(self._values[slot + 1]),
        )

    # -- nodes

    def path(self, nid: int) -> tuple[int, ...]:
        """The path of node ``nid`` from the root (built in time linear in its depth)."""
        out = [0] * self.depth[nid]
        for level in range(len(out) - 1, -1, -1):
            out[level] = self.child_index[nid]
            nid = self.parent[nid]
        return tuple(out)

    def children(self, nid: int) -> Iterator[int]:
        """The reached children of ``nid``, left to right."""
        child = self.first_child[nid]
        while child >= 0:
            yield child
            child = self.next_sibling[child]

    def child(self, nid: int, index: int, step: int) -> int:
        """The id of child ``index`` of ``nid`` if the search reached it within ``step`` events, else -1."""
        child = self.first_child[nid]
        while child >= 0 and self.child_index[child] < index:
            child = self.next_sibling[child]
        if child >= 0 and self.child_index[child] == index and self.first_visit[child] < step:
            return child
        return -1

    def locate(self, path: tuple[int, ...], step: int) -> tuple[int, int]:
        """(node id, levels matched): the deepest node on ``path`` reached within ``step`` events."""
        nid = 0
        if step <= 0 or not len(self.nodes):
            return -1, 0
        for level, index in enumerate(path):
            child = self.child(nid, index, step)
            if child < 0:
                return nid, level
            nid = child
        return nid, len(path)

    def visit_at(self, nid: int, step: int) -> tuple[int, int]:
        """(visit, close) event indices of ``nid``'s latest visit within ``step`` events ((-1, -1): none);
        close is -1 while the node is still open at the end of the trace."""
        visit, close = self.first_visit[nid], self.first_close[nid]
        if visit >= step:
            return -1, -1
        for again in self.revisits.get(nid, ()):
            if again[0] < step:
                visit, close = again
        return visit, close

    def visits(self, nid: int) -> list[tuple[int, int]]:
        """Every (visit, close) of ``nid``, in order."""
        out = [(self.first_visit[nid], self.first_close[nid])]
        out.extend((v, c) for v, c in self.revisits.get(nid, ()))
        return out

    def top(self, step: int) -> int:
        """The innermost open node after ``step`` events (-1: none)."""
        if step <= 0:
            return -1
        i = step - 1
        nid = self.about[i]
        if self.kinds[i] in (LEAF, BACKUP, PROBE, TABLE):
            return self.parent[nid]
        return nid

    def visits_before(self, step: int) -> int:
        """How many visits the first ``step`` events hold."""
        return bisect_left(self.first_visit, step) + bisect_left(self.revisit_events, step)

    def stats_before(self, step: int) -> Stats:
        """The counts of the first ``step`` events."""
        return Stats(
            self.visits_before(step),
            bisect_left(self.leaf_events, step),
            bisect_left(self.cutoff_events, step),
            bisect_left(self.table_events, step),
        )

    @property
    def nbytes(self) -> int:
        """Bytes held by the index (its arrays, the node list and the side tables)."""
        arrays = (
            self.offset,
            self.about,
            self.parent,
            self.child_index,
            self.depth,
            self.first_visit,
            self.first_close,
            self.first_child,
            self.next_sibling,
            self.leaf_events,
            self.cutoff_events,
            self.revisit_events,
        )
        total = sum(a.buffer_info()[1] * a.itemsize for a in arrays) + len(self.kinds) + 8 * len(self.nodes)
        total += 120 * (len(self.revisits) + len(self.notes))
        if self._ranges is not None:
            total += self._ranges.nbytes
        return total


@contextlib.contextmanager
def _no_collection() -> Iterator[None]:
    """Pause the cyclic garbage collector while the index is built.

    Building it allocates an object or more for each node (a game's explored tree:
    half a million nodes), and each allocation would count towards a collection
    that walks every object alive; none of these objects form cycles.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def plain(x: float) -> Value:
    """A column double back as an exact number (ints as int)."""
    if x != x or x in (INF, -INF):
        return x
    if x.is_integer():
        return int(x)
    return Fraction(x)  # exact: only values a double holds exactly are read from the columns
