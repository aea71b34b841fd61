"""Frames: the state of a search after any number of steps, computed when asked.

A :class:`Frame` is a value: the trace and a step.  Asking it about a node
(:meth:`Frame.node`) reads the trace's index (see
:class:`~expectviz.trace.TraceIndex`): the node's latest visit within the
step tells whether it is on the call stack, finished or probed; its visit
event holds its window; its children's closing events give its value so far.
Nothing is replayed event by event, so any step costs the same and frames
never go stale, whichever thread asks.

What a node's value can still be (AIMA Fig. 5.5's ``[lower, upper]`` ranges)
is worked out for every finished node once, on first use, in one pass over
the tree (:class:`Ranges`); a node on the call stack combines its children's.

A node a transposition table answered (a ``table`` event closes its visit) is
``done`` with ``from_table`` set.  What the table's value proves depends on the
window the node was searched with (:func:`table_hit`): an exact value is its
range, like a leaf's; a lower bound ``v >= beta`` proves only ``[v, U]`` and an
upper bound ``v <= alpha`` only ``[L, v]`` (``L`` and ``U`` the value bounds).

>>> import expectviz as ev
>>> r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
>>> f = r.trace.frame(13)
>>> f.node(()).status, f.node(()).range, f.node((1,)).status, f.node((1, 2)).status
('active', (3, inf), 'current', 'pruned')
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from .recorder import (
    BOUNDS,
    CUTOFF,
    LEAF,
    PROBE,
    REUSE,
    TABLE,
    WINDOW,
    Stats,
    Value,
    as_double,
    is_double,
)
from .tree import CHANCE, MIN
from .tree import LEAF as LEAF_NODE

if TYPE_CHECKING:
    from .trace import Event, Trace, TraceIndex

__all__ = ["Frame", "NodeState", "Stack", "Ranges", "table_hit", "table_range", "TABLE_HITS"]

INF = math.inf
Path = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NodeState:
    """What a frame knows about one node."""

    status: str
    """``unvisited``, ``active`` (on the call stack), ``current`` (the node of this step),
    ``done`` (also a node a transposition table answered: see ``from_table``),
    ``probed`` (only its first move searched, by Star2) or ``pruned``."""
    value: Value | None = None
    """done: the backed-up value (a bound when the node was cut), or the value a
    transposition table gave (a bound when the table gave one: see ``range``);
    active: the value so far."""
    window: tuple[Value, Value] | None = None
    """The (alpha, beta) window the node was searched with (alpha-beta, Star1, Star2)."""
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
    from_table: bool = False
    """True when a transposition table answered the node (its latest visit closed with a ``table``
    event): it was not searched, and ``value`` is what the table held.  Whether that value is exact or
    a bound is :func:`table_hit`'s answer; ``range`` says what it proves either way."""


class Frame:
    """The state of a search after ``step`` events (step 0: before the search)."""

    __slots__ = ("trace", "step", "_ix", "_explanation", "_event", "_open_ranges", "_climb")

    def __init__(self, trace: Trace, step: int) -> None:
        self.trace = trace
        self.step = step
        self._ix: TraceIndex = trace.index
        self._explanation: str | None = None
        self._event: Event | None = None
        self._open_ranges: dict[int, tuple[Value, Value]] | None = None

    # -- the step

    @property
    def event(self) -> Event | None:
        """The event of this step (None at step 0)."""
        if self.step == 0:
            return None
        if self._event is None:
            self._event = self.trace[self.step - 1]
        return self._event

    @property
    def current(self) -> Path | None:
        """The node this step is about."""
        event = self.event
        return event.path if event is not None else None

    @property
    def stack(self) -> Stack:
        """The nodes on the call stack, root first (a lazy sequence of paths)."""
        return Stack(self._ix, self._ix.top(self.step))

    @property
    def explanation(self) -> str:
        """One plain-English sentence about this step."""
        if self._explanation is None:
            from .explain import explain

            self._explanation = explain(self)
        return self._explanation

    @property
    def stats(self) -> Stats:
        """Nodes visited, leaves evaluated, cutoffs and table hits so far."""
        return self._ix.stats_before(self.step)

    # -- nodes

    def __getitem__(self, path: Path) -> NodeState:
        return self.node(path)

    def node(self, path: Path) -> NodeState:
        """The state of the node at ``path`` (``unvisited`` if the search has not reached it)."""
        path = tuple(path)
        nid, matched = self._ix.locate(path, self.step)
        if nid < 0:
            return NodeState("unvisited", range=self.trace.value_bounds)
        if matched == len(path):
            return self.state(nid)
        return self._unreached(nid, path[matched], deeper=matched + 1 < len(path))

    def state(self, nid: int) -> NodeState:
        """The state of the reached node with id ``nid``."""
        ix, step = self._ix, self.step
        kinds = ix.kinds
        visit, close = ix.visit_at(nid, step)
        if visit < 0:
            return NodeState("unvisited", range=self.trace.value_bounds)
        node = ix.nodes[nid]
        closed = 0 <= close < step
        value: Value | None
        if closed and kinds[close] == PROBE:
            status, value = "probed", self._fold(nid, visit, close)
        elif closed:
            status, value = "done", ix.value(close)
        else:
            last = step - 1
            current = ix.about[last] == nid and kinds[last] != REUSE
            status, value = ("current" if current else "active"), self._fold(nid, visit, step)
        info = self.trace.info
        parent = ix.parent[nid]
        under_chance = parent >= 0 and ix.nodes[parent].kind == CHANCE
        first_close = ix.first_close[nid]
        return NodeState(
            status=status,
            value=value,
            window=ix.values(visit) if info.windowed else None,
            range=self.range_of(nid),
            bounds=self._bounds(nid) if info.star and node.kind == CHANCE else None,
            child_window=self._child_window(nid, visit) if info.star and under_chance else None,
            probe=ix.value(first_close) if 0 <= first_close < step and kinds[first_close] == PROBE else None,
            cut=close >= 1 and close - 1 < step and kinds[close - 1] == CUTOFF and ix.about[close - 1] == nid,
            from_table=closed and kinds[close] == TABLE,
        )

    def status(self, nid: int) -> str:
        """Only the status of the reached node ``nid`` (cheaper than :meth:`state`)."""
        ix, step = self._ix, self.step
        visit, close = ix.visit_at(nid, step)
        if visit < 0:
            return "unvisited"
        if 0 <= close < step:
            return "probed" if ix.kinds[close] == PROBE else "done"
        last = step - 1
        return "current" if ix.about[last] == nid and ix.kinds[last] != REUSE else "active"

    def _unreached(self, nid: int, index: int, *, deeper: bool) -> NodeState:
        """A node below ``nid`` (reached) that the search has not reached: pruned or unvisited."""
        ix, step = self._ix, self.step
        if self._pruned_below(nid, index):
            return NodeState("pruned", range=self.trace.value_bounds)
        child_window = None
        if not deeper and self.trace.info.star and step:
            last = step - 1
            if ix.kinds[last] == WINDOW and ix.about[last] == nid and self.trace._code[last] >> 4 == index:
                child_window = ix.values(last)
        return NodeState("unvisited", range=self.trace.value_bounds, child_window=child_window)

    def _pruned_below(self, nid: int, index: int) -> bool:
        """Has a cutoff within this step pruned child ``index`` of the reached node ``nid``?"""
        ix, step = self._ix, self.step
        cut = self._cutoff_event(nid)
        if cut >= 0 and self.trace._code[cut] >> 4 <= index:
            return True
        # An outcome Star2 probed and a cutoff then settled: the moves its probe did not reach are pruned too.
        visit, close = ix.visit_at(nid, step)
        parent = ix.parent[nid]
        if parent >= 0 and 0 <= close < step and ix.kinds[close] == PROBE:
            cut = self._cutoff_event(parent)
            return cut >= 0 and self.trace._code[cut] >> 4 <= ix.child_index[nid]
        return False

    def _cutoff_event(self, nid: int) -> int:
        """The cutoff event of ``nid``'s latest visit within this step, or -1."""
        ix = self._ix
        _, close = ix.visit_at(nid, self.step)
        if close >= 1 and close - 1 < self.step and ix.kinds[close - 1] == CUTOFF and ix.about[close - 1] == nid:
            return close - 1
        return -1

    def _fold(self, nid: int, after: int, before: int) -> Value | None:
        """The value so far of ``nid``: its children's values closed between two events, combined."""
        ix = self._ix
        kinds = ix.kinds
        kind = ix.nodes[nid].kind
        result: Value | None = None
        shares: list[tuple[int, Value]] = []
        for child in ix.children(nid):
            found: Value | None = None
            for _, close in ix.visits(child):
                if after < close < before and kinds[close] != PROBE:
                    found = ix.value(close)
            if found is not None:
                shares.append((child, found))
        for event in ix.notes.get(nid, ()):
            if kinds[event] == REUSE and after < event < before:
                reused = ix.first_child[nid]
                shares.append((reused, ix.value(event)))
        for child, v in shares:
            if kind == CHANCE:
                share = ix.nodes[child].probability * v  # type: ignore[operator]
                result = share if result is None else result + share
            elif kind == MIN:
                result = v if result is None else min(result, v)
            else:
                result = v if result is None else max(result, v)
        return result

    def _bounds(self, nid: int) -> tuple[Value, Value] | None:
        ix = self._ix
        found = None
        for event in ix.notes.get(nid, ()):
            if event >= self.step:
                break
            if ix.kinds[event] == BOUNDS:
                found = event
        return ix.values(found) if found is not None else None

    def _child_window(self, nid: int, visit: int) -> tuple[Value, Value] | None:
        """(alpha_i, beta_i) of the window event just before the node's visit, or a newer one pending."""
        ix, step = self._ix, self.step
        parent, index = ix.parent[nid], ix.child_index[nid]
        code = self.trace._code

        def is_window(event: int) -> bool:
            return ix.kinds[event] == WINDOW and ix.about[event] == parent and code[event] >> 4 == index

        if step - 1 > visit and is_window(step - 1):  # a newer window: the node is about to be searched again
            return ix.values(step - 1)
        if visit >= 1 and is_window(visit - 1):
            return ix.values(visit - 1)
        return None

    def range_of(self, nid: int) -> tuple[Value, Value]:
        """[lower, upper] of the reached node ``nid`` at this step."""
        ix, step = self._ix, self.step
        visit, close = ix.visit_at(nid, step)
        if 0 <= close < step:
            return ranges(self.trace).at_close(nid, close)
        return self._range_on_stack(nid)

    def _range_on_stack(self, nid: int) -> tuple[Value, Value]:
        """The range of an open node: each open node combines its finished children's ranges and its open
        child's, so the stack is climbed from its innermost call, only as far up as ``nid`` (and remembered)."""
        ix, step = self._ix, self.step
        if self._open_ranges is None:
            self._open_ranges = {}
            self._climb = (ix.top(step), -1)  # the next open node to work out, and the one below it
        found = self._open_ranges
        at, below = self._climb
        while nid not in found and at >= 0:
            if ix.nodes[at].kind == LEAF_NODE:
                found[at] = self.trace.value_bounds
            else:
                known = []
                for child in ix.children(at):
                    if child == below:
                        known.append((child, found[child]))
                        continue
                    v, c = ix.visit_at(child, step)
                    if 0 <= c < step:
                        known.append((child, ranges(self.trace).at_close(child, c)))
                found[at] = combine(ix, at, known, self.trace.value_bounds)
            at, below = ix.parent[at], at
        self._climb = (at, below)
        return found.get(nid, self.trace.value_bounds)

    @property
    def nodes(self) -> dict[Path, NodeState]:
        """The state of every node the search has reached or pruned by this step (costs the size of that)."""
        ix, step = self._ix, self.step
        out: dict[Path, NodeState] = {}
        reached = _count_below(ix.first_visit, step)
        for nid in range(reached):
            path = ix.path(nid)
            out[path] = self.state(nid)
            node = ix.nodes[nid]
            for j in range(len(node.children)):
                if ix.child(nid, j, step) < 0:
                    state = self._unreached(nid, j, deeper=False)
                    if state.status != "unvisited" or state.child_window is not None:
                        out[path + (j,)] = state
        return out

    # -- values

    def __eq__(self, other: object) -> bool:
        """Frames are equal when they show the same: step, event, stack, sentence and every node's state."""
        if not isinstance(other, Frame):
            return NotImplemented
        return (
            self.step == other.step
            and self.event == other.event
            and tuple(self.stack) == tuple(other.stack)
            and self.explanation == other.explanation
            and self.nodes == other.nodes
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Frame(step={self.step}, event={self.event!r})"


TABLE_HITS = ("exact", "lower", "upper", "either")
"""What a table hit can prove: see :func:`table_hit`."""


def table_hit(trace: Trace, event: int) -> tuple[str, tuple[Value, Value] | None]:
    """What the table event ``event`` proves of its node, and the window the node was searched with.

    The table answers a search only when its entry decides the search (see
    :class:`~expectviz.search.TranspositionTable`): an exact value, a lower bound
    ``v >= beta`` or an upper bound ``v <= alpha``.  The trace records the
    value, not which of these the entry was, so it is read from the window of
    the node's visit (the event just before):

    * ``"exact"``: a search without windows (minimax, expectiminimax: the table
      holds only exact values), or ``alpha < v < beta`` (no bound is answered there);
    * ``"lower"``: ``v >= beta``: the node is worth at least ``v`` (exactly ``v``
      perhaps, but the trace cannot tell);
    * ``"upper"``: ``v <= alpha``: the node is worth at most ``v``;
    * ``"either"``: ``beta <= v <= alpha`` (an empty window): a bound, of an
      unknown side.

    >>> import expectviz as ev
    >>> t = ev.alphabeta(ev.games.tictactoe("XO./X../O.."), table=True).trace
    >>> [table_hit(t, step - 1)[0] for step in t.steps("table")]
    ['lower', 'lower', 'lower', 'upper', 'exact', 'upper', 'upper', 'upper', 'upper']
    >>> table_hit(t, t.steps("table")[0] - 1)     # worth at least 1, and 1 >= beta = 0
    ('lower', (-inf, 0))
    """
    ix = trace.index
    if not trace.info.windowed:
        return "exact", None
    alpha, beta = ix.values(event - 1)  # a table event directly follows its node's visit
    v = ix.value(event)
    if alpha < v < beta:
        return "exact", (alpha, beta)
    if v >= beta and v <= alpha:
        return "either", (alpha, beta)
    return ("lower" if v >= beta else "upper"), (alpha, beta)


def table_range(trace: Trace, event: int) -> tuple[Value, Value]:
    """[lower, upper] of the node the table event ``event`` answered: what its value proves."""
    v = trace.index.value(event)
    kind, _ = table_hit(trace, event)
    low, high = trace.value_bounds
    if kind == "exact":
        return v, v
    if kind == "lower":
        return v, max(v, high)  # v >= U can only be v == U: the range is [U, U]
    if kind == "upper":
        return min(v, low), v
    return low, high


def _count_below(sorted_events: array[int], step: int) -> int:
    from bisect import bisect_left

    return bisect_left(sorted_events, step)


class Stack(Sequence[Path]):
    """The call stack of a frame, root first: its paths are built only when read."""

    __slots__ = ("_ix", "_top", "_path")

    def __init__(self, ix: TraceIndex, top: int) -> None:
        self._ix = ix
        self._top = top
        self._path: Path | None = None

    def __len__(self) -> int:
        return 0 if self._top < 0 else self._ix.depth[self._top] + 1

    @overload
    def __getitem__(self, i: int) -> Path: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Path]: ...
    def __getitem__(self, i: int | slice) -> Path | Sequence[Path]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"the stack has {n} nodes")
        if self._path is None:
            self._path = self._ix.path(self._top)
        return self._path[:i]

    def __iter__(self) -> Iterator[Path]:
        for i in range(len(self)):
            yield self[i]

    def ids(self) -> list[int]:
        """The node ids on the stack, root first (cheap: no paths)."""
        out = []
        nid = self._top
        while nid >= 0:
            out.append(nid)
            nid = self._ix.parent[nid]
        out.reverse()
        return out

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Stack, tuple, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(tuple(self)) if len(self) <= 8 else f"<stack of {len(self)} nodes>"


def combine(
    ix: TraceIndex, nid: int, known: list[tuple[int, tuple[Value, Value]]], bounds: tuple[Value, Value]
) -> tuple[Value, Value]:
    """[lower, upper] of node ``nid`` from its children's ranges; children not in ``known`` lie in ``bounds``."""
    lo_bound, hi_bound = bounds
    node = ix.nodes[nid]
    if not node.children:  # an explored tree's node not expanded (yet): the depth limit or the table will say
        return bounds
    unknown = len(node.children) - len(known)
    if node.kind == CHANCE:
        lo: Value = 0
        hi: Value = 0
        mass = 1 - sum((ix.nodes[child].probability or 0 for child, _ in known), 0)
        for child, (child_lo, child_hi) in known:
            p = ix.nodes[child].probability or 0
            lo += p * child_lo
            hi += p * child_hi
        if unknown:
            lo += mass * lo_bound
            hi += mass * hi_bound
        return lo, hi
    los = [r[0] for _, r in known]
    his = [r[1] for _, r in known]
    if unknown:
        los.append(lo_bound)
        his.append(hi_bound)
    if node.kind == MIN:
        return min(los), min(his)
    return max(los), max(his)


class Ranges:
    """[lower, upper] of every visit at its close, for a whole trace, in one pass (children before parents)."""

    def __init__(self, trace: Trace) -> None:
        ix = trace.index
        self._ix = ix
        n = len(ix.nodes)
        self.lo = array("d", bytes(8 * n))
        self.hi = array("d", bytes(8 * n))
        self.exact: dict[int, Value] = {}
        """2 * node id (+1 for the upper end) -> the exact value, where a double does not hold it."""
        self.again: dict[tuple[int, int], tuple[Value, Value]] = {}
        """(node id, close event) of a later visit -> its range."""
        kinds = ix.kinds
        bounds = trace.value_bounds
        nodes, first_child, next_sibling, first_close = ix.nodes, ix.first_child, ix.next_sibling, ix.first_close
        revisits = ix.revisits
        for nid in range(n - 1, -1, -1):
            if nodes[nid].kind == LEAF_NODE:
                continue
            for number, (_, close) in enumerate(ix.visits(nid)):
                if close < 0 or kinds[close] == LEAF or kinds[close] == TABLE:
                    continue  # at_close reads a leaf's or a table hit's range from its event
                known = []
                child = first_child[nid]
                while child >= 0:
                    latest = first_close[child]
                    if latest >= close:
                        latest = -1
                    if revisits and child in revisits:
                        for _, child_close in revisits[child]:
                            if 0 <= child_close < close:
                                latest = child_close
                    if latest >= 0:
                        known.append((child, self.at_close(child, latest)))
                    child = next_sibling[child]
                pair = combine(ix, nid, known, bounds)
                if number == 0:
                    self._put(2 * nid, pair[0], self.lo, nid)
                    self._put(2 * nid + 1, pair[1], self.hi, nid)
                else:
                    self.again[(nid, close)] = pair

    def _put(self, key: int, x: Value, column: array[float], nid: int) -> None:
        column[nid] = as_double(x)
        if not is_double(x):
            self.exact[key] = x

    def at_close(self, nid: int, close: int) -> tuple[Value, Value]:
        """The range of ``nid`` when the visit closed by event ``close`` ended."""
        ix = self._ix
        if ix.kinds[close] == LEAF:
            v = ix.value(close)
            return v, v
        if ix.kinds[close] == TABLE:
            return table_range(ix.trace, close)
        if close != ix.first_close[nid]:
            return self.again[(nid, close)]
        from .trace import plain

        lo = self.exact.get(2 * nid)
        hi = self.exact.get(2 * nid + 1)
        return (
            lo if lo is not None else plain(self.lo[nid]),
            hi if hi is not None else plain(self.hi[nid]),
        )

    @property
    def nbytes(self) -> int:
        return 16 * len(self.lo) + 100 * (len(self.exact) + len(self.again))


def ranges(trace: Trace) -> Ranges:
    """The trace's ranges, worked out on first use (thread-safe)."""
    ix = trace.index
    found: Any = ix._ranges
    if found is None:
        with trace._lock:
            found = ix._ranges
            if found is None:
                found = ix._ranges = Ranges(trace)
    return found  # type: ignore[no-any-return]
