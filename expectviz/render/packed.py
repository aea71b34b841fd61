"""A search packed for the browser: what the player (live or exported) receives, once.

The SVG of a frame is a fixed list of slots (:meth:`~expectviz.render.svg.Drawer.parts`);
every distinct slot text (a *piece*) is stored once, and each step lists only
the slots it changes, so a whole trace costs little more than its changes.
A *view* (one search as the player shows it) is sent as *chunks* of steps:

* ``start``: the chunk's first step;
* ``pieces``: the distinct slot texts of the chunk;
* ``frames``: ``frames[0]`` the piece of every slot at ``start``, each later
  ``frames[i]`` a flat list ``[slot, piece, slot, piece, ...]`` of the slots
  step ``start + i`` changes;
* ``texts``: the sentence of each step;
* ``rows``, ``stacks``, ``depths``: the call-stack panel, rows stored once
  (``[indent, node, kind, window, value, bounds]``), each step the ids of its
  innermost rows (at most :data:`STACK_ROWS`) and the full depth of its stack;
* ``visited``: nodes visited so far at each step.

Each chunk starts from a full slot list, so it stands alone: the browser can
drop it and ask again.  A view's first chunk travels with the view's facts
(:meth:`ViewPacker.view`); the live player asks the kernel for the others.

>>> import expectviz as ev
>>> from expectviz.render.diagram import renderer_for
>>> r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
>>> renderer = renderer_for(r.trace)
>>> view = ViewPacker(r.trace, renderer.scene, renderer.drawer).view()
>>> view["steps"], view["cutoffs"], len(view["frames"]), view["texts"][13][:24]
(23, [13], 24, 'Step 13. C is a MIN node')
>>> unpack_frames(view["pieces"], view["frames"])[13] == renderer.svg(13)
True
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Iterator
from functools import cache
from importlib import resources
from typing import Any, Protocol

from ..explain import Namer
from ..replay import Frame
from ..trace import Trace
from ..tree import KIND_NAMES, LEAF, MAX, MIN
from .progress import Progress
from .scene import MORE, Paint, Scene
from .style import interval, number, xml_escape

__all__ = [
    "CHUNK_STEPS",
    "STACK_ROWS",
    "SlotDrawer",
    "ViewPacker",
    "pack_steps",
    "unpack_frames",
    "aligned_cutoffs",
    "shared_scenes",
    "module_text",
]

CHUNK_STEPS = 2_000
"""Steps per chunk sent to the live player; further chunks are sent when the browser asks."""
STACK_ROWS = 40
"""The call-stack panel shows this many innermost calls."""
_DIRECT_COST = 15
"""Painting one step from scratch costs about this many steps of :meth:`Scene.paint_steps`: a walk this far
behind the chunk asked for goes on to it, one further behind starts again at the chunk."""


@cache
def module_text(name: str) -> str:
    """The text of the player's front end, ``player.js`` or ``player.css``, shipped beside this module."""
    return resources.files("expectviz.render").joinpath(name).read_text(encoding="utf-8")


class SlotDrawer(Protocol):
    """What :func:`pack_steps` needs of a drawer: the SVG as slots (see :class:`~expectviz.render.svg.Drawer`)."""

    def parts(self, paint: Paint) -> list[str]: ...

    def changed_parts(self, paint: Paint, items: set[int]) -> dict[int, str]: ...


def pack_steps(
    drawer: SlotDrawer, paints: Iterable[tuple[Paint, set[int] | None]]
) -> tuple[list[str], list[list[int]]]:
    """Store a run of steps compactly: each distinct piece once, and per step only the slots it changes.

    ``frames[0]`` lists the piece of every slot of :meth:`Drawer.parts` for the first step; each later
    ``frames[k]`` is a flat list ``[slot, piece, slot, piece, ...]`` of the slots step k changes (a
    ``changed`` of None repaints every slot).  :func:`unpack_frames` (and the player) rebuild any frame.
    """
    table: dict[str, int] = {}
    frames: list[list[int]] = []
    current: list[int] = []
    for paint, changed in paints:
        if changed is None or not frames:
            parts = drawer.parts(paint)
            if not frames:
                current = [table.setdefault(part, len(table)) for part in parts]
                frames.append(list(current))
                continue
            slots = dict(enumerate(parts))
        else:
            slots = drawer.changed_parts(paint, changed)
        ops: list[int] = []
        for slot, part in sorted(slots.items()):
            piece = table.setdefault(part, len(table))
            if current[slot] != piece:
                current[slot] = piece
                ops.extend((slot, piece))
        frames.append(ops)
    return list(table), frames


def unpack_frames(pieces: list[str], frames: list[list[int]]) -> list[str]:
    """The SVG of every frame, from :func:`pack_steps`' output (what the player's script does)."""
    out: list[str] = []
    state: list[int] = []
    for k, ops in enumerate(frames):
        if k == 0:
            state = list(ops)
        else:
            for j in range(0, len(ops), 2):
                state[ops[j]] = ops[j + 1]
        out.append("".join(pieces[i] for i in state))
    return out


class _Predicting:
    """A drawer whose leaves show "?" until the search evaluates them (the player's predict mode)."""

    def __init__(self, drawer: Any, scene: Scene) -> None:
        self.drawer = drawer
        node_slot = drawer.nodes_at
        self.leaves = {
            node_slot + k: (k, f">{xml_escape(it.leaf_text)}</text>")
            for k, it in enumerate(scene.items)
            if it.kind == LEAF and it.leaf_text
        }

    def _hide(self, paint: Paint, slots: dict[int, str]) -> dict[int, str]:
        for slot, text in slots.items():
            found = self.leaves.get(slot)
            if found is not None and paint.items[found[0]].status != "done":
                slots[slot] = text.replace(found[1], ">?</text>", 1)  # the value inside the box comes first
        return slots

    def parts(self, paint: Paint) -> list[str]:
        parts: list[str] = self.drawer.parts(paint)
        hidden = self._hide(paint, dict(enumerate(parts)))
        return [hidden[i] for i in range(len(parts))]

    def changed_parts(self, paint: Paint, items: set[int]) -> dict[int, str]:
        return self._hide(paint, dict(self.drawer.changed_parts(paint, items)))


class ViewPacker:
    """One search as the player shows it: its facts, and its steps in chunks.

    Args:
        trace: the search.
        scene: which nodes are drawn (see :class:`~expectviz.render.scene.Scene`).
        drawer: its SVG slots (see :class:`~expectviz.render.svg.Drawer`).
        predict: leaves show "?" until the search evaluates them.
        chunk_steps: steps per chunk (None: the whole trace in one chunk).
        title: a heading for the view ("" for none).
        progress: told of each step packed (a long export shows it; see :mod:`~expectviz.render.progress`).
    """

    def __init__(
        self,
        trace: Trace,
        scene: Scene,
        drawer: Any,
        *,
        predict: bool = False,
        chunk_steps: int | None = CHUNK_STEPS,
        title: str = "",
        progress: Progress | None = None,
    ) -> None:
        self.trace = trace
        self.progress = progress
        self.scene = scene
        self.predict = predict
        self.drawer: SlotDrawer = _Predicting(drawer, scene) if predict else drawer
        self.chunk_steps = max(1, chunk_steps) if chunk_steps is not None else len(trace) + 1
        self.title = title
        self._walk: Iterator[tuple[Paint, set[int] | None]] | None = None
        self._walked = -1  # the last step the sequential walk yielded
        self._names: dict[int, str] = {}
        self._namer = Namer(trace)

    @property
    def chunks(self) -> int:
        """How many chunks the trace takes."""
        return (len(self.trace) + self.chunk_steps) // self.chunk_steps

    def chunk_of(self, step: int) -> int:
        """The chunk holding ``step``."""
        return max(0, min(step, len(self.trace))) // self.chunk_steps

    def view(self, first: int = 0) -> dict[str, Any]:
        """The view's facts together with the chunk holding step ``first``."""
        trace = self.trace
        stats = trace.stats()
        facts = trace.info
        return {
            "title": self.title,
            "algorithm": trace.algorithm,
            "steps": len(trace),
            "chunk": self.chunk_steps,
            "cutoffs": trace.steps("cutoff"),
            "windowed": facts.windowed,
            "star": facts.star,
            "stats": [stats.nodes_visited, stats.leaves_evaluated, stats.cutoffs],
            "predict": self.predict,  # the totals (which tell how much is pruned) wait for the last step
            **self.chunk(self.chunk_of(first)),
        }

    def chunk(self, index: int) -> dict[str, Any]:
        """Chunk ``index``: steps ``index * chunk_steps`` on (see the module's docstring)."""
        if not 0 <= index < self.chunks:
            raise IndexError(f"chunk {index} out of range: this view has chunks 0 to {self.chunks - 1}")
        start = index * self.chunk_steps
        stop = min(len(self.trace), start + self.chunk_steps - 1)
        texts: list[str] = []

        def paints() -> Iterator[tuple[Paint, set[int] | None]]:
            for paint, changed in self._paints(start, stop):
                texts.append(f"Step {paint.step}. {paint.explanation}")
                if self.progress is not None:
                    self.progress.update(paint.step + 1)
                yield paint, changed

        pieces, frames = pack_steps(self.drawer, paints())
        rows, stacks, depths, visited = self._stacks(start, stop)
        return {
            "index": index,
            "start": start,
            "pieces": pieces,
            "frames": frames,
            "texts": texts,
            "rows": rows,
            "stacks": stacks,
            "depths": depths,
            "visited": visited,
        }

    # -- painting a run of steps

    def _paints(self, start: int, stop: int) -> Iterator[tuple[Paint, set[int] | None]]:
        """The paints of steps ``start``..``stop``, the first marked as all changed.

        Walking :meth:`Scene.paint_steps` costs little a step; starting a walk costs one step painted
        from scratch.  A chunk behind the walk, or far ahead of it, starts a walk of its own.
        """
        behind = self._walked < start
        if self._walk is None or not behind or start - (self._walked + 1) > _DIRECT_COST:
            self._walk, self._walked = self.scene.paint_steps(start), start - 1
        first = True
        for paint, changed in self._walk:
            self._walked = paint.step
            if paint.step < start:
                continue
            yield paint, None if first else changed
            first = False
            if paint.step >= stop:
                return

    # -- the call-stack panel

    def _stacks(self, start: int, stop: int) -> tuple[list[list[Any]], list[list[int]], list[int], list[int]]:
        ix = self.trace.index
        table: dict[tuple[Any, ...], int] = {}
        stacks: list[list[int]] = []
        depths: list[int] = []
        visited: list[int] = []
        rows_of: dict[int, int] = {}  # a call's row, kept while its step leaves it alone
        for step in range(start, stop + 1):
            if step > start:  # a step changes the row of its own node and (its value so far) of that node's parent
                changed = ix.about[step - 1]
                rows_of.pop(changed, None)
                rows_of.pop(ix.parent[changed], None)
            innermost = self._innermost(step)  # the calls shown, root side first: a deep stack costs its top only
            total = ix.depth[innermost[-1]] + 1 if innermost else 0
            first = total - len(innermost)
            frame = self.trace.frame(step)
            ids = []
            for j, nid in enumerate(innermost):
                row = rows_of.get(nid)
                if row is None:
                    row = rows_of[nid] = table.setdefault(self._row(frame, first + j, nid), len(table))
                ids.append(row)
            stacks.append(ids)
            depths.append(total)
            visited.append(ix.visits_before(step))
        return [list(row) for row in table], stacks, depths, visited

    def _innermost(self, step: int) -> list[int]:
        """The ids of the (at most STACK_ROWS) innermost calls open after ``step`` events, root side first."""
        ix = self.trace.index
        ids: list[int] = []
        at = ix.top(step)
        while at >= 0 and len(ids) < STACK_ROWS:
            ids.append(at)
            at = ix.parent[at]
        ids.reverse()
        return ids

    def _row(self, frame: Frame, depth: int, nid: int) -> tuple[Any, ...]:
        """One call: indent, node, kind, window, value so far (MAX/MIN), and chance bounds."""
        ix = self.trace.index
        name = self._names.get(nid)
        if name is None:
            name = self._names[nid] = self._namer(nid)  # as the sentences name it, from the id: no path built
        kind = ix.nodes[nid].kind
        state = frame.state(nid)
        window = interval(state.window) if state.window is not None else ""
        value = number(state.value) if state.value is not None and kind in (MAX, MIN) else ""
        extra = []
        if state.bounds is not None:
            extra.append("L,U " + interval(state.bounds))
        if state.child_window is not None:
            extra.append("\u03b1\u1d62\u03b2\u1d62 " + interval(state.child_window))
        if state.probe is not None:
            extra.append("probe " + number(state.probe))
        return (depth, name, KIND_NAMES[kind], window, value, "; ".join(extra))


def aligned_cutoffs(leader: Trace, follower: Trace, mapping: list[int]) -> list[int]:
    """The leader's steps at which either search cuts off (the follower's through ``mapping``).

    ``mapping[k]`` is the follower's step shown at the leader's step ``k`` (non-decreasing).
    """
    steps = set(leader.steps("cutoff"))
    for cut in follower.steps("cutoff"):
        k = bisect_left(mapping, cut)
        if k < len(mapping):
            steps.add(k)
    return sorted(steps)


class _KeptScene(Scene):
    """A scene that draws exactly the given nodes (and summaries of the rest)."""

    def __init__(self, tree: Any, trace: Trace, max_nodes: int | None, keep: set[tuple[int, ...]]) -> None:
        self._keep = keep
        super().__init__(tree, trace, max_nodes)

    def _choose(self, sizes: dict[int, int]) -> set[tuple[int, ...]]:
        return self._keep


def shared_scenes(traces: tuple[Trace, Trace], max_nodes: int | None) -> tuple[Scene, Scene]:
    """Scenes of two searches of one tree with the same items, sizes and so positions.

    Each draws the nodes either search would draw alone (what either reached first); every item
    gets the wider of its two sizes, and both the taller box height, so one layout serves both.
    """
    alone = [Scene(trace.tree, trace, max_nodes) for trace in traces]
    keep = {it.path for scene in alone for it in scene.items if it.kind != MORE}
    a, b = (_KeptScene(trace.tree, trace, max_nodes, keep) for trace in traces)
    a.height = b.height = max(a.height, b.height)
    for left, right in zip(a.items, b.items, strict=True):
        left.width = right.width = max(left.width, right.width)
    return a, b
