"""What a diagram shows: which nodes are drawn, and how each looks at one step.

A :class:`Scene` is made once per tree (and trace): it picks the nodes to draw
(at most ``max_nodes``; the rest are collapsed into "+N nodes" summaries), and
fixes every drawn item's size, so that one Graphviz layout serves every frame.
:meth:`Scene.paint` turns a :class:`~expectviz.trace.Frame` into the per-item
looks, in pure Python; the SVG drawer only formats them.

Which nodes are kept when the tree is too big: first the nodes the search
visits, level by level from the root (so the explored part near the root, with
its backed-up values, is always shown), then unvisited nodes level by level
while room is left.  Children that are not kept are summarised per parent:
each run of consecutive hidden siblings becomes one "+N nodes" box, N counting
every node in those subtrees.

The explored tree of a game search is wide (tic-tac-toe's root has 9 moves,
each with 8 replies): there the most nodes are drawn whose drawing stays
within :data:`WIDTH_BUDGET` -- the root's moves, and below them the lines the
search tried first, as deep as it went (see :meth:`Scene._choose_game`).  A
game with a ``picture`` method has each drawn node's picture drawn beside it
(see :mod:`expectviz.render.picture`), faded while the node is not searched.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice

from ..numbers import format_probability
from ..recorder import BACKUP as EVENT_BACKUP
from ..recorder import CUTOFF as EVENT_CUTOFF
from ..recorder import LEAF as EVENT_LEAF
from ..recorder import PROBE as EVENT_PROBE
from ..recorder import REUSE as EVENT_REUSE
from ..recorder import TABLE as EVENT_TABLE
from ..recorder import VISIT as EVENT_VISIT
from ..recorder import WINDOW as EVENT_WINDOW
from ..registry import info
from ..replay import Frame, NodeState
from ..trace import Trace, TraceIndex, plain
from ..tree import CHANCE, KIND_NAMES, LEAF, MAX, MIN, Node, nodes, walk
from .picture import Picture, picture_of
from .style import LINE_HEIGHT, SHAPE, SMALL_SIZE, interval, number, ring_of, shorten, text_width

__all__ = [
    "Scene",
    "Item",
    "Paint",
    "ItemPaint",
    "DEFAULT_MAX_NODES",
    "MORE",
    "SHAPE_TOP",
    "LABEL_PAD",
    "EDGE_LABEL_GAP",
    "VALUE_SIZE",
    "label_top",
    "reach_below",
    "VALUE_GAP",
    "WIDTH_BUDGET",
    "ROOT_MOVES",
    "TABLE_HITS_SHOWN",
    "PICTURE",
    "PICTURE_GAP",
    "MAX_PICTURES",
]

_READ_VALUES = 200_000
"""Traces recording at most this many numbers have them all read to size the label boxes."""

DEFAULT_MAX_NODES = 150
"""Trees with more nodes than this are drawn with collapsed subtrees."""

MORE = "more"
"""The kind of a summary item standing for hidden subtrees."""

Path = tuple[int, ...]

SHAPE_TOP = ring_of(MIN, SHAPE + 6).above + 2
"""From the top of an item's layout box to the centre of its shape: room for the ring above any shape."""
LABEL_PAD = 2.0
"""Padding inside a label box, above and below its lines."""
EDGE_LABEL_GAP = 4.0
"""White space between an edge and its label."""
VALUE_SIZE = 13.0
"""Font size of the value beside a node."""
VALUE_GAP = 6.0
"""White space between a node's ring and the value (right) or name (left) beside it."""
WIDTH_BUDGET = 2000.0
"""How wide (in points) the drawing of a game's explored tree may be: the most nodes that fit are drawn (see
:meth:`Scene._choose_game`).  Fitted to a 1,500-pixel panel (the player at 1920x1080), its text is still read."""
ROOT_MOVES = 12
"""A game's drawing shows this many of the root's moves (all of tic-tac-toe's 9)."""
TABLE_HITS_SHOWN = 2
"""A game's drawing shows the first this many nodes a transposition table answered, wherever they are."""
_SPREADS = tuple((e, p) for e in (4, 3, 2, 1) for p in (6, 4, 3, 2, 1))
"""(nodes expanded per level, moves shown per expanded node) of the candidate drawings of a game's tree."""
PICTURE = 36.0
"""The side of the square a game's picture of a node's state is drawn in, left of the node's shape, in points."""
PICTURE_GAP = 5.0
"""White space between a node's ring and its picture."""
MAX_PICTURES = 300
"""Diagrams drawing more nodes than this draw no pictures (``max_nodes=None`` on a big tree)."""


def label_top(kind: str, shape_width: float) -> float:
    """How far below its shape's centre a node's label box starts: just under the ring, which never cuts it."""
    return ring_of(kind, shape_width).below + 4


@dataclass(slots=True)
class Item:
    """One drawn box of the diagram: a tree node, or a summary of hidden siblings."""

    id: str
    """The item's name in the layout and the SVG, ``n0`` (the root), ``n1``, ... in preorder."""
    path: Path
    """The node's path; for a summary, the path of its first hidden sibling."""
    kind: str
    """``max``, ``min``, ``chance``, ``leaf`` or ``more``."""
    parent: int
    """Index of the parent item in :attr:`Scene.items` (-1 for the root)."""
    depth: int
    name: str
    """The node's name ("" if none)."""
    edge_label: str
    """Move label and probability for the edge from the parent ("" if none)."""
    leaf_text: str
    """A leaf's utility; a summary's "+N nodes"; else ""."""
    slots: tuple[str, ...]
    """The annotation lines this item may show under its shape (fixed for the whole trace)."""
    width: float
    """Layout box width in points (shape plus room for labels beside and below it)."""
    shape_width: float
    hidden: int = 0
    """For a summary: how many nodes it stands for."""
    covers: tuple[int, ...] = ()
    """For a summary: the child indices (under the parent's path) it stands for."""
    evaluation: str = ""
    """An inner node's static evaluation from the tree (``4`` for ``min [4] (...)``), else ""."""
    picture: Picture | None = None
    """The game's picture of the node's state, cleaned (None: no picture)."""
    picture_note: str = ""
    """Why the game's picture of this node is not drawn ("" when it is, or the game has none)."""


@dataclass(slots=True)
class ItemPaint:
    """How one item looks at one step."""

    status: str
    value: str = ""
    """Text beside the shape: the backed-up value or a bound (``≥ 3``)."""
    lines: tuple[str, ...] = ()
    """The annotation lines shown at this step, in slot order (slots with nothing to say are left out)."""
    ring: bool = False
    """True on the item the step is about (a finished or probed node keeps its colour and gets the ring)."""
    edge: str = "unvisited"
    """The edge from the parent: ``normal``, ``unvisited``, ``stack`` or ``pruned``."""
    cut_mark: bool = False
    """True on the edge of a child that a cutoff pruned directly."""
    known: str = ""
    """The node's value so far, for its tooltip ("" if none)."""
    table: bool = False
    """True on a node whose visit a transposition table closed: its value is the table's."""
    blank: bool = False
    """True: an empty box where the value goes, for a student to write it in (a handout's sheet); ``value``
    is not drawn.  No frame of a search sets it: :mod:`expectviz.handout` paints its sheets with it."""


@dataclass(slots=True)
class Paint:
    """One frame's looks, item by item."""

    step: int
    steps: int
    items: list[ItemPaint]
    caption: str
    explanation: str


@dataclass
class Scene:
    """The items of one diagram, fixed for every frame of a trace."""

    tree: Node
    trace: Trace | None
    max_nodes: int | None
    items: list[Item] = field(default_factory=list)
    index: dict[Path, int] = field(default_factory=dict)
    """Item index of every drawn tree node, by path."""
    summary_of: dict[tuple[Path, int], int] = field(default_factory=dict)
    """Item index of the summary holding child ``i`` of the node at ``path``."""
    total_nodes: int = 0
    algorithm: str | None = None
    height: float = 0.0
    """Layout box height of every item (one height keeps each level's shapes in line)."""
    static_depth: int | None = None
    """The depth of the nodes the search valued by static evaluations (its depth limit), None if none."""
    game: object = None
    """The game searched, when the trace is a game search's (None for a tree)."""
    pictures: bool = False
    """True when some drawn node has its game's picture."""
    has_table: bool = False
    """True when the trace has transposition-table hits (the diagram marks and explains them)."""
    _tooltips: list[str] | None = None
    _deepest: int = 0
    _item_nids: list[int] | None = None
    _shown: int | None = None
    _items_of_nids: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.algorithm = self.trace.algorithm if self.trace is not None else None
        self.game = getattr(self.trace, "game", None) if self.trace is not None else None
        if self.trace is not None and self.game is not None:
            self.has_table = EVENT_TABLE in self.trace.index.kinds
        self._build()
        self.static_depth = self._static_depth()

    # ---------------------------------------------------------------- building

    def _build(self) -> None:
        sizes = _game_sizes(self.trace) if self.game is not None and self.trace is not None else None
        if sizes is None:
            sizes = _subtree_sizes(self.tree)
        self.total_nodes = sizes[id(self.tree)]
        drawn = self.total_nodes if self.max_nodes is None else min(self.total_nodes, self.max_nodes)
        self._picturing = callable(getattr(self.game, "picture", None)) and drawn <= MAX_PICTURES
        keep = self._choose(sizes)
        facts = info(self.algorithm) if self.algorithm is not None else None
        windowed = facts is not None and facts.windowed
        star = facts is not None and facts.star
        bottom = 0.0
        # Preorder over kept nodes, with one summary for each run of hidden children.
        stack: list[tuple[Path, Node | _RunMarker, int, int]] = [((), self.tree, -1, 0)]
        while stack:
            path, entry, parent, depth = stack.pop()
            if isinstance(entry, _RunMarker):
                self._add_summary(path, entry, parent, depth)
                continue
            node = entry
            parent_kind = self.items[parent].kind if parent >= 0 else None
            slots = _slots(node, parent_kind, windowed=windowed, star=star, algorithm=self.algorithm)
            me = len(self.items)
            item = self._item(me, path, node, parent, depth, slots)
            self.items.append(item)
            bottom = max(bottom, reach_below(item))
            self.index[path] = me
            pending: list[tuple[Path, Node | _RunMarker, int, int]] = []
            run: list[int] = []
            kids = node.children
            for i, child in enumerate((*kids, None)):
                if child is not None and path + (i,) not in keep:
                    run.append(i)
                    continue
                if run:
                    size = sum(sizes[id(kids[j])] for j in run)
                    pending.append((path + (run[0],), _RunMarker(tuple(run), size), me, depth + 1))
                    run = []
                if child is not None:
                    pending.append((path + (i,), child, me, depth + 1))
            stack.extend(reversed(pending))
        for it in self.items:
            if it.kind == MORE:
                bottom = max(bottom, reach_below(it))
        self.height = SHAPE_TOP + bottom + 2
        self.pictures = any(it.picture is not None for it in self.items)
        self._deepest = max(it.depth for it in self.items)

    def _static_depth(self) -> int | None:
        """The depth of the search's static evaluations: a leaf event on an inner node is one.

        A depth-limited search evaluates statically exactly at its depth limit, so the first
        one found tells; only trees with evaluations (``min [4] (...)``) are looked through.
        """
        trace = self.trace
        if trace is None or not any(it.evaluation for it in self.items):
            return None
        ix = trace.index
        for event in ix.leaf_events:
            nid = ix.about[event]
            if ix.nodes[nid].kind != LEAF:
                return int(ix.depth[nid])
        return None

    def _add_summary(self, first: Path, marker: _RunMarker, parent: int, depth: int) -> None:
        me = len(self.items)
        text = f"+{marker.size}"
        parent_path = first[:-1]
        self.items.append(
            Item(
                id=f"n{me}",
                path=first,
                kind=MORE,
                parent=parent,
                depth=depth,
                name="",
                edge_label="",
                leaf_text=text,
                slots=(),
                width=_summary_width(marker.size),
                shape_width=text_width(text, SMALL_SIZE) + 14,
                hidden=marker.size,
                covers=marker.children,
            )
        )
        for i in marker.children:
            self.summary_of[(parent_path, i)] = me

    def _item(self, me: int, path: Path, node: Node, parent: int, depth: int, slots: tuple[str, ...]) -> Item:
        name = node.name or ""
        edge = _edge_text(node)
        leaf_text = number(node.value) if node.kind == LEAF else ""
        picture, note = self._picture(node)
        width, shape_w = self._width(node, slots, picture=picture is not None)
        return Item(
            id=f"n{me}",
            path=path,
            kind=node.kind,
            parent=parent,
            depth=depth,
            name=name,
            edge_label=edge,
            leaf_text=leaf_text,
            slots=slots,
            width=width,
            shape_width=shape_w,
            evaluation=number(node.evaluation) if node.kind != LEAF and node.evaluation is not None else "",
            picture=picture,
            picture_note=note,
        )

    def _width(self, node: Node, slots: tuple[str, ...], *, picture: bool) -> tuple[float, float]:
        """A node's layout box width and shape width: room for its shape, ring, value, name, picture, label box
        and the label of the edge into it."""
        name = node.name or ""
        if node.kind == LEAF:
            shape_w = max(SHAPE, text_width(number(node.value)) + 12)
        else:
            shape_w = SHAPE + 6 if node.kind in (MAX, MIN) else SHAPE
        beside = 0.0  # the widest text beside the shape, left (a name) or right (a value)
        if node.kind != LEAF:
            beside = text_width("\u2265 " + self._widest_number(), VALUE_SIZE)
            if len(name) > 2:
                beside = max(beside, text_width(shorten(name, 12)))
        elif node.name:
            beside = text_width(shorten(name, 12))
        side = ring_of(node.kind, shape_w).side + (beside + VALUE_GAP + 1 if beside else 2)
        if picture:  # the picture left of the ring, and a name beyond it; the value stays right
            left = ring_of(node.kind, shape_w).side + PICTURE_GAP + PICTURE + 2
            if len(name) > 2 or (node.kind == LEAF and name):
                left += VALUE_GAP + text_width(shorten(name, 12)) + 1
            side = max(side, left)
        box = max((text_width(_SLOT_PREFIX[s] + self._widest_interval(), SMALL_SIZE) for s in slots), default=0.0)
        label = text_width(shorten(_edge_text(node), 24), SMALL_SIZE)
        width = max(2 * side, box + 2 * LABEL_PAD + 8, 2 * (label + EDGE_LABEL_GAP + 4) if label else 0.0)
        return width, shape_w

    def _picture(self, node: Node) -> tuple[Picture | None, str]:
        """The game's picture of the node's state, cleaned, or None and why not ("" for a game without pictures)."""
        if self.game is None or node.state is None or not callable(getattr(self.game, "picture", None)):
            return None, ""
        if not self._picturing:
            return None, f"pictures are drawn in diagrams of at most {MAX_PICTURES} nodes"
        return picture_of(self.game, node.state)

    def _widest_number(self) -> str:
        cached: str | None = getattr(self, "_widest", None)
        if cached is None:
            texts = ["+\u221e"]
            chance = False
            for node in islice(nodes(self.tree), 5000):
                chance = chance or node.kind == CHANCE
                for x in (node.value, node.evaluation):
                    if x is not None:
                        texts.append(number(x))
            cached = max(texts, key=len)
            averaged = chance or self.game is None  # a game's tree without chance nodes takes no averages
            if averaged and any("." in t or "/" in t for t in texts):
                cached = cached + "00"  # averages of fractions grow a digit or two
            cached = max([cached, *self._recorded_numbers()], key=len)
            self._widest = cached
        return cached

    def _recorded_numbers(self) -> list[str]:
        """The numbers a trace records (windows, bounds, values) as drawn, when there are few enough to read.

        Windows and bounds below chance nodes with odd probabilities are fractions such as
        ``1289/35``, wider than any leaf; reading them keeps the label boxes inside their items.
        """
        trace = self.trace
        if trace is None or len(trace._values) > _READ_VALUES:
            return []
        exact = trace._exact or {}
        doubles = {x for i, x in enumerate(trace._values) if i not in exact}  # an exact value's double is rounded
        return [number(x) for x in exact.values()] + [number(plain(x)) for x in doubles]

    def _widest_interval(self) -> str:
        w = self._widest_number()
        return f"[{w}, {w}]"

    def _choose(self, sizes: dict[int, int]) -> set[Path]:
        """The paths to draw: everything when it fits, else visited nodes first, level by level.

        A game's explored tree is chosen by :meth:`_choose_game` instead: its levels widen too fast.
        """
        limit = self.max_nodes
        if limit is not None and self.game is not None and self.trace is not None:
            return self._choose_game(sizes, max(limit, 1))
        if limit is None or self.total_nodes <= limit:
            return {path for path, _ in walk(self.tree)}
        limit = max(limit, 1)
        keep: set[Path] = {()}
        if self.trace is not None:  # the nodes the search reached, level by level, read from the trace's index
            ix = self.trace.index
            reached: deque[tuple[Path, int]] = deque([((), 0)])
            while reached and len(keep) < limit:
                path, nid = reached.popleft()
                for child in ix.children(nid):
                    if len(keep) >= limit:
                        break
                    child_path = path + (ix.child_index[child],)
                    keep.add(child_path)
                    reached.append((child_path, child))
        queue: deque[tuple[Path, Node]] = deque([((), self.tree)])
        while queue and len(keep) < limit:
            path, tree_node = queue.popleft()
            for i, child_node in enumerate(tree_node.children):
                child_path = path + (i,)
                if child_path not in keep:
                    if len(keep) >= limit:
                        break
                    keep.add(child_path)
                queue.append((child_path, child_node))
        return keep

    def _choose_game(self, sizes: dict[int, int], limit: int) -> set[Path]:
        """The paths to draw of a game's explored tree: the most nodes whose drawing fits :data:`WIDTH_BUDGET`.

        The candidates: the whole tree (when it has at most ``limit`` nodes), and for each ``e`` and ``p`` of
        :data:`_SPREADS` the explored part read level by level, where the first ``e`` nodes of a level with
        moves searched show their first ``p`` moves searched (the root all its moves, up to
        :data:`ROOT_MOVES`).  So the root's moves are always shown, and below them the lines the search
        tried first, as deep as it went; and the first :data:`TABLE_HITS_SHOWN` nodes a transposition table
        answered, with the moves to them.  When none fits, the narrowest is drawn.
        """
        assert self.trace is not None
        ix = self.trace.index
        candidates: list[set[Path]] = []
        if self.total_nodes <= limit:
            candidates.append({path for path, _ in walk(self.tree)})
        hits: set[Path] = set()
        event = -1
        for _ in range(TABLE_HITS_SHOWN):
            event = ix.kinds.find(EVENT_TABLE, event + 1)
            if event < 0:
                break
            path = ix.path(ix.about[event])
            hits.update(path[:depth] for depth in range(len(path) + 1))
        for e, p in _SPREADS:
            keep = self._spread(ix, e, p, limit)
            if len(keep | hits) <= limit:
                keep |= hits
            candidates.append(keep)
        estimate = _WidthEstimate(self, sizes)
        narrowest: tuple[float, set[Path]] | None = None
        tries = 0
        seen: set[frozenset[Path]] = set()
        for keep in sorted(candidates, key=len, reverse=True):  # stable: of two the same size, the first
            key = frozenset(keep)
            if key in seen:
                continue
            seen.add(key)
            boxes = estimate.boxes(keep)
            width = estimate(boxes)
            if width <= WIDTH_BUDGET:
                return keep
            if narrowest is None or width < narrowest[0]:
                narrowest = (width, keep)
            if width <= 1.5 * WIDTH_BUDGET and tries < _LAYOUT_TRIES:  # dot may lay it out narrower than estimated
                tries += 1
                laid = estimate.laid_out(boxes)
                if laid is not None and laid <= WIDTH_BUDGET:
                    return keep
        assert narrowest is not None
        return narrowest[1]

    def _spread(self, ix: TraceIndex, expand: int, moves: int, limit: int) -> set[Path]:
        """The explored part level by level: the first ``expand`` nodes of each level that have moves searched
        show their first ``moves`` moves searched (the root up to :data:`ROOT_MOVES`); at most ``limit`` nodes."""
        keep: set[Path] = {()}
        level: list[tuple[Path, int]] = [((), 0)]
        while level and len(keep) < limit:
            below: list[tuple[Path, int]] = []
            expanded = 0
            for path, nid in level:
                if expanded >= expand or len(keep) >= limit:
                    break
                child = ix.first_child[nid]
                if child < 0:
                    continue
                expanded += 1
                shown = 0
                while child >= 0 and shown < (ROOT_MOVES if not path else moves) and len(keep) < limit:
                    child_path = path + (ix.child_index[child],)
                    keep.add(child_path)
                    below.append((child_path, child))
                    shown += 1
                    child = ix.next_sibling[child]
            level = below
        return keep

    # ---------------------------------------------------------------- painting

    def paint(self, frame: Frame | None) -> Paint:
        """The looks of every item at ``frame`` (None: the bare tree, no search state)."""
        trace = self.trace
        steps = len(trace) if trace is not None else 0
        if frame is None:
            plain = [
                ItemPaint(
                    "plain",
                    value=f"[{it.evaluation}]" if it.evaluation else "",
                    edge="normal",
                )
                for it in self.items
            ]
            return Paint(0, 0, plain, self._caption(None), "")
        stack_items = self._stack_items(frame)
        current_item = self._current_item(frame)
        looks: list[ItemPaint] = []
        for k in range(len(self.items)):
            looks.append(self._look(k, frame, stack_items, current_item, looks))
        return Paint(frame.step, steps, looks, self._caption(frame), frame.explanation)

    def paint_steps(self, start: int = 0) -> Iterator[tuple[Paint, set[int] | None]]:
        """Every frame's looks in order from step ``start``, with the items each step changed (None for the
        first: all of them).

        A step repaints only what its event can change: its node and that node's parent, the
        node that was current before, every open ancestor when a leaf is evaluated (their
        ranges), and the drawn subtree of a node that is cut off.  So painting a whole trace
        costs time linear in its events, not events times drawn nodes; starting later costs
        one frame painted whole.
        """
        trace = self.trace
        assert trace is not None
        ix = trace.index
        frame = trace.frame(start)
        paint = self.paint(frame)
        yield paint, None
        looks = list(paint.items)
        before = self._current_item(frame)
        below = self._descendants()
        on_stack: dict[int, int] = {}  # item -> how many open nodes it draws (a summary can hide several)
        for nid in frame.stack.ids():  # the calls open at the start
            item = self._item_of(nid)
            on_stack[item] = on_stack.get(item, 0) + 1
        for step in range(start + 1, len(trace) + 1):
            frame = trace.frame(step)
            i = step - 1
            kind = ix.kinds[i]
            nid = ix.about[i]
            item = self._item_of(nid)
            if kind == EVENT_VISIT:
                on_stack[item] = on_stack.get(item, 0) + 1
            elif kind in (EVENT_LEAF, EVENT_BACKUP, EVENT_PROBE, EVENT_TABLE):
                on_stack[item] -= 1
                if not on_stack[item]:
                    del on_stack[item]
            touched = {item, self._item_of(ix.parent[nid]) if ix.parent[nid] >= 0 else -1}
            if kind == EVENT_LEAF or kind == EVENT_TABLE:  # the ranges of every open ancestor may narrow
                touched.update(on_stack)
            elif kind == EVENT_CUTOFF:
                touched.update(below.get(self._item_of(nid), ()))
            elif kind == EVENT_WINDOW:
                touched.add(self._item_of_child(nid, trace._code[i] >> 4))
            elif kind == EVENT_REUSE:
                touched.add(self._item_of(ix.first_child[nid]))
            current = self._current_item(frame)
            if current is not None:
                touched.add(current)
            if before is not None:
                touched.add(before)
            touched.discard(-1)
            stack_items = set(on_stack) - {-1}
            for k in sorted(touched):
                looks[k] = self._look(k, frame, stack_items, current, looks)
            before = current
            yield Paint(step, len(trace), list(looks), self._caption(frame), frame.explanation), touched

    def _look(
        self, k: int, frame: Frame, stack_items: set[int], current_item: int | None, looks: list[ItemPaint]
    ) -> ItemPaint:
        """How item ``k`` looks at ``frame`` (its parent's look, ``looks[parent]``, must be up to date)."""
        it = self.items[k]
        if it.kind == MORE:
            look = self._paint_summary(it, frame, k in stack_items, current_item == k)
        else:
            nid = self._nid(k)
            look = self._paint_node(it, frame.state(nid) if nid >= 0 else frame.node(it.path))
            if look.status == "active" and current_item == k:
                look.status = "current"
        if current_item == k:  # ringed whatever its status: a finished node keeps its colour
            look.ring = True
        if it.parent >= 0:
            if look.status == "pruned":
                look.edge = "pruned"
                look.cut_mark = looks[it.parent].status != "pruned"
            elif k in stack_items or look.status == "current":
                look.edge = "stack"
            elif look.status in ("done", "probed", "active"):
                look.edge = "normal"
            else:
                look.edge = "unvisited"
        return look

    # -- items and the trace's node ids

    def _nid(self, k: int) -> int:
        """The trace's node id of item ``k`` (a drawn tree node), or -1 if the search never reached it."""
        if self._item_nids is None:
            self._item_nids = [-2] * len(self.items)
        nid = self._item_nids[k]
        if nid == -2:
            nid = -1
            if self.trace is not None and self.items[k].kind != MORE:
                ix = self.trace.index
                parent = self.items[k].parent
                if parent < 0:
                    nid = 0 if len(ix.nodes) else -1
                else:
                    above = self._nid(parent)
                    if above >= 0:
                        nid = ix.child(above, self.items[k].path[-1], len(self.trace))
            self._item_nids[k] = nid
        return nid

    def _item_of(self, nid: int) -> int:
        """The item drawing the reached node ``nid``: its own, the summary hiding it, or -1."""
        memo = self._items_of_nids
        found = memo.get(nid)
        if found is not None:
            return found
        assert self.trace is not None
        ix = self.trace.index
        chain = []
        at = nid
        while at >= 0 and at not in memo:
            chain.append(at)
            at = ix.parent[at]
        above = memo.get(at, -1) if at >= 0 else -1
        for node in reversed(chain):
            if ix.parent[node] < 0:
                item = self.index.get((), -1)
            else:
                item = self._child_item(above, ix.child_index[node])
            memo[node] = item
            above = item
        return memo[nid]

    def _item_of_child(self, nid: int, index: int) -> int:
        return self._child_item(self._item_of(nid), index)

    def _child_item(self, parent_item: int, index: int) -> int:
        """The item drawing child ``index`` of the node drawn by ``parent_item``."""
        if parent_item < 0:
            return -1
        parent = self.items[parent_item]
        if parent.kind == MORE:
            return parent_item  # hidden inside the summary
        path = parent.path + (index,)
        found = self.index.get(path)
        if found is not None:
            return found
        return self.summary_of.get((parent.path, index), -1)

    def _current_item(self, frame: Frame) -> int | None:
        """The item of the node the frame's step is about, whatever the step (the reused move for a reuse)."""
        if frame.step == 0 or self.trace is None:
            return None
        ix = self.trace.index
        i = frame.step - 1
        nid = ix.about[i]
        if ix.kinds[i] == EVENT_REUSE:  # about the move whose value is reused
            nid = ix.first_child[nid]
        item = self._item_of(nid)
        return item if item >= 0 else None

    def _descendants(self) -> dict[int, list[int]]:
        """For every item, the items drawn below it."""
        below: dict[int, list[int]] = {k: [] for k in range(len(self.items))}
        for k in range(len(self.items) - 1, -1, -1):
            parent = self.items[k].parent
            if parent >= 0:
                below[parent].append(k)
                below[parent].extend(below[k])
        return below

    def _locate(self, path: Path) -> int | None:
        """The item drawing ``path``: its own, or the summary holding it."""
        for depth in range(min(len(path), self._deepest) + 1):
            prefix = path[:depth]
            if prefix not in self.index:
                return self.summary_of.get((prefix[:-1], prefix[-1]))
        return self.index.get(path)

    def _stack_items(self, frame: Frame) -> set[int]:
        """The items on the call stack: the nodes drawn on it, and summaries hiding part of it."""
        assert self.trace is not None
        ix = self.trace.index
        chain = frame.stack.ids()
        found: set[int] = set()
        path: Path = ()
        for depth, nid in enumerate(chain):
            if depth:
                path = path + (ix.child_index[nid],)
            if depth > self._deepest:
                break
            k = self.index.get(path)
            if k is None:
                summary = self.summary_of.get((path[:-1], path[-1])) if path else None
                if summary is not None:
                    found.add(summary)
                break
            found.add(k)
        return found

    def _paint_summary(self, it: Item, frame: Frame, on_stack: bool, is_current: bool) -> ItemPaint:
        if is_current:
            return ItemPaint("current")
        if on_stack:
            return ItemPaint("active")
        statuses = self._covered_statuses(it, frame)
        if statuses == {"pruned"}:
            status = "pruned"
        elif statuses <= {"done", "pruned", "probed"}:
            status = "done"
        else:
            status = "unvisited"
        return ItemPaint(status)

    def _covered_statuses(self, it: Item, frame: Frame) -> set[str]:
        """The statuses of the siblings a summary stands for (each reached one asked once, the rest in bulk)."""
        parent = self._nid(it.parent)
        if parent < 0:
            return {frame.node(it.path[:-1] + (i,)).status for i in it.covers}
        ix = frame.trace.index
        first, last = it.covers[0], it.covers[-1]
        statuses: set[str] = set()
        reached: set[int] = set()
        for child in ix.children(parent):
            index = ix.child_index[child]
            if first <= index <= last and ix.first_visit[child] < frame.step:
                reached.add(index)
                statuses.add(frame.status(child))
        if len(reached) < len(it.covers):  # pruning is monotone in the index: the least and greatest unreached tell
            low, high = first, last
            while low in reached:
                low += 1
            while high in reached:
                high -= 1
            for i in (low, high):
                statuses.add("pruned" if frame._pruned_below(parent, i) else "unvisited")
        return statuses

    def _paint_node(self, it: Item, state: NodeState) -> ItemPaint:
        status = state.status
        value = ""
        if it.kind != LEAF and state.value is not None:
            if status == "done" and not state.cut and it.depth == self.static_depth and it.evaluation:
                value = f"[{number(state.value)}]"  # a static evaluation at the depth limit, not a backed-up value
            else:
                value = self._value_text(it.kind, state)
        lines = tuple(line for line in (self._slot_text(slot, state) for slot in it.slots) if line)
        known = number(state.value) if state.value is not None else ""
        if known and status in ("active", "current", "probed"):  # the tooltip says no more than the label
            known = f"{value} so far" if value else f"{known} so far: the weighted sum of the outcomes searched"
        if state.from_table and state.value is not None:  # the table's value: exact, or a bound its window shows
            value = known = self._table_text(state)
        return ItemPaint(status, value=value, lines=lines, known=known, table=state.from_table)

    def _table_text(self, state: NodeState) -> str:
        """The value a transposition table gave a node, with its side when it was a bound (``≥ 1``)."""
        v, window = state.value, state.window
        if window is None or v is None:
            return number(v)
        alpha, beta = window
        above, below = v >= beta, v <= alpha  # the table answers a window only with an exact value or a bound
        if above and below:
            return "\u2264/\u2265 " + number(v)
        if above:
            return "\u2265 " + number(v)
        if below:
            return "\u2264 " + number(v)
        return number(v)

    def _value_text(self, kind: str, state: NodeState) -> str:
        """The value beside a node: exact once finished, else a bound (a probe bounds a node from one side)."""
        v = state.value
        status = state.status
        if status in ("active", "current", "probed"):
            if kind == MAX:
                return "\u2265 " + number(v)
            if kind == MIN:
                return "\u2264 " + number(v)
            return ""  # a chance node's partial sum is no bound; its range says what is known
        if state.cut:
            if kind == MAX:
                return "\u2265 " + number(v)
            if kind == MIN:
                return "\u2264 " + number(v)
            window = state.window
            if window is not None and v is not None and v <= window[0]:
                return "\u2264 " + number(v)
            return "\u2265 " + number(v)
        return number(v)

    def _slot_text(self, slot: str, state: NodeState) -> str:
        """One annotation line of a node ("" when it has nothing to say at this step)."""
        if state.status in ("unvisited", "pruned"):
            if slot == "child_window" and state.child_window is not None:  # the window of the outcome searched next
                return _SLOT_PREFIX[slot] + interval(state.child_window)
            return ""
        pair: tuple[object, object] | None = None
        if slot == "window":
            pair = state.window
        elif slot in ("range", "bounds"):
            pair = state.range if slot == "range" else self._bounds(state)
            finished = state.status == "done" and not state.cut
            if pair is not None and (pair[0] == pair[1] or finished):
                pair = None  # exact, or the value beside the node says it all
        elif slot == "child_window" and state.child_window != state.window:
            pair = state.child_window  # only when clipping to [L, U] changed the window
        elif slot == "probe" and state.probe is not None:
            return _SLOT_PREFIX[slot] + number(state.probe)
        return _SLOT_PREFIX[slot] + interval(pair) if pair is not None else ""

    def _bounds(self, state: NodeState) -> tuple[object, object] | None:
        """A chance node's running bounds L, U under Star1/Star2 (the value bounds until its first update)."""
        if state.bounds is not None:
            return state.bounds
        if state.status in ("active", "current") and self.trace is not None:
            return self.trace.value_bounds
        return None

    def tooltip(self, k: int, look: ItemPaint) -> str:
        """The hover text of item ``k`` in one frame (plain text: escape it for the output format)."""
        it = self.items[k]
        if it.kind == MORE:
            return f"{it.hidden} more nodes, not drawn (max_nodes={self.max_nodes})"
        if self._tooltips is None:
            self._tooltips = [self._tooltip_base(item) for item in self.items]
        text = self._tooltips[k]
        if look.status != "plain":
            text += f": {look.status}"
            if look.ring and look.status != "current":
                text += " (this step's node)"
            if look.known:
                text += f", value {look.known}"
            if look.table:
                text += " from the transposition table (this position was searched before; not searched again)"
        return text

    def _tooltip_base(self, it: Item) -> str:
        if it.kind == MORE:
            return ""
        who = it.name or (self.trace.describe(it.path) if self.trace is not None else "")
        kind = KIND_NAMES[it.kind]
        text = f"{who} ({kind})" if who and " after " not in who else (who or kind)
        if it.path:
            text += " at path " + "/".join(map(str, it.path))
        if it.picture_note:
            text += f" (its picture is not drawn: {it.picture_note})"
        return text

    def _caption(self, frame: Frame | None) -> str:
        if self._shown is None:
            self._shown = sum(1 for it in self.items if it.kind != MORE)
        shown = self._shown
        extra = f" (drawing {shown} of {self.total_nodes} nodes)" if shown < self.total_nodes else ""
        if frame is None or self.trace is None:
            return f"{self.total_nodes} nodes" + (f" ({shown} drawn)" if extra else "")
        return f"{self.algorithm}: step {frame.step} of {len(self.trace)}{extra}"


class _RunMarker:
    """A run of hidden siblings, while the scene is being built."""

    __slots__ = ("children", "size")

    def __init__(self, children: tuple[int, ...], size: int) -> None:
        self.children = children
        self.size = size


_SLOT_PREFIX = {
    "window": "\u03b1\u03b2 ",
    "range": "range ",
    "bounds": "L,U ",
    "child_window": "\u03b1\u1d62\u03b2\u1d62 ",
    "probe": "probe ",
}
"""The words before each annotation line's interval or value."""


def reach_below(it: Item) -> float:
    """How far below its shape's centre an item's drawing can reach: its ring, or its label box if it has one."""
    picture = PICTURE / 2 + 1 if it.picture is not None else 0.0  # a picture is centred beside the shape
    if not it.slots:
        return max(ring_of(it.kind, it.shape_width).below, picture)
    return max(label_top(it.kind, it.shape_width) + len(it.slots) * LINE_HEIGHT + 2 * LABEL_PAD, picture)


def _slots(
    node: Node, parent_kind: str | None, *, windowed: bool, star: bool, algorithm: str | None
) -> tuple[str, ...]:
    """The annotation lines a node can show, in order (the same for every frame).

    Under Star1/Star2 a chance node's running bounds L, U are what is known of it, so
    they take the place of its range; a chance node's child shows its window, and its
    window before clipping (alpha_i, beta_i) when that differs.
    """
    if algorithm is None:
        return ()
    slots: list[str] = []
    if node.kind != LEAF:
        if windowed:
            slots.append("window")
        if not (star and node.kind == CHANCE):
            slots.append("range")
    if star and node.kind == CHANCE:
        slots.append("bounds")
    if star and parent_kind == CHANCE:
        slots.append("child_window")
        if algorithm is not None and info(algorithm).probes and node.kind != LEAF:
            slots.append("probe")
    return tuple(slots)


class _WidthEstimate:
    """How wide the drawing of a choice of paths would be: estimated (each subtree side by side), or laid out.

    The estimate errs wide: Graphviz's ``dot`` lets subtrees overlap where their levels do not, so a tree
    whose deep lines lean one way is drawn up to half as wide.  Widths of nodes are worked out once per path.
    """

    def __init__(self, scene: Scene, sizes: dict[int, int]) -> None:
        self.scene = scene
        self.sizes = sizes
        facts = info(scene.algorithm) if scene.algorithm is not None else None
        self.windowed = facts is not None and facts.windowed
        self.star = facts is not None and facts.star
        self.widths: dict[Path, float] = {}
        self.nodes: dict[Path, Node] = {(): scene.tree}

    def boxes(self, keep: set[Path]) -> list[tuple[float, int]]:
        """The layout boxes the scene would have, in preorder: (width, index of the parent's box)."""
        out: list[tuple[float, int]] = []
        stack: list[tuple[Path, int, int]] = [((), -1, 0)]  # (path, parent box, hidden nodes: a summary if > 0)
        while stack:
            path, parent, hidden = stack.pop()
            me = len(out)
            if hidden:
                out.append((_summary_width(hidden), parent))
                continue
            node = self._node(path)
            out.append((self._width(path, node), parent))
            pending: list[tuple[Path, int, int]] = []
            run = 0
            for i, child in enumerate(node.children):
                child_path = path + (i,)
                if child_path in keep:
                    if run:
                        pending.append(((), me, run))
                        run = 0
                    pending.append((child_path, me, 0))
                else:
                    run += self.sizes[id(child)]
            if run:
                pending.append(((), me, run))
            stack.extend(reversed(pending))
        return out

    def __call__(self, boxes: list[tuple[float, int]]) -> float:
        """The estimate: each box as wide as itself or its children side by side."""
        spread = [0.0] * len(boxes)
        count = [0] * len(boxes)
        need = [0.0] * len(boxes)
        for k in range(len(boxes) - 1, -1, -1):  # children before parents (preorder reversed)
            width, parent = boxes[k]
            need[k] = max(width, spread[k] + _NODE_GAP * (count[k] - 1)) if count[k] else width
            if parent >= 0:
                spread[parent] += need[k]
                count[parent] += 1
        return need[0]

    def laid_out(self, boxes: list[tuple[float, int]]) -> float | None:
        """The width Graphviz's ``dot`` lays the boxes out in (None without ``dot``)."""
        from ..errors import GraphvizError, GraphvizNotFoundError
        from .layout import MARGIN, lay_out

        lines = ["digraph layout {", "  graph [ordering=out, nodesep=0.14, ranksep=0.4, margin=0, splines=false];"]
        lines.append('  node [shape=box, fixedsize=true, label="", height=0.5];')
        lines.extend(f"  n{k} [width={width / 72:.3f}];" for k, (width, _) in enumerate(boxes))
        lines.extend(f"  n{parent} -> n{k};" for k, (_, parent) in enumerate(boxes) if parent >= 0)
        try:
            plain = lay_out("\n".join(lines) + "\n}\n").decode("utf-8")
        except (GraphvizNotFoundError, GraphvizError):
            return None
        first = plain.split("\n", 1)[0].split()
        return float(first[2]) * 72 + 2 * MARGIN

    def _node(self, path: Path) -> Node:
        found = self.nodes.get(path)
        if found is None:
            found = self.nodes[path] = self._node(path[:-1]).children[path[-1]]
        return found

    def _width(self, path: Path, node: Node) -> float:
        found = self.widths.get(path)
        if found is None:
            parent_kind = self._node(path[:-1]).kind if path else None
            slots = _slots(node, parent_kind, windowed=self.windowed, star=self.star, algorithm=self.scene.algorithm)
            picture = self.scene._picturing and node.state is not None
            found = self.widths[path] = self.scene._width(node, slots, picture=picture)[0]
        return found


_LAYOUT_TRIES = 6
"""How many choices too wide by the estimate are laid out by ``dot`` to see whether they fit after all."""
_NODE_GAP = 10.0
"""The room Graphviz leaves between two boxes side by side (``nodesep``), in points."""


def _edge_text(node: Node) -> str:
    """The label of the edge into a node: its move and probability ("" if neither)."""
    return " ".join(
        part
        for part in (node.move or "", format_probability(node.probability) if node.probability is not None else "")
        if part
    )


def _summary_width(size: int) -> float:
    """The layout box width of a "+N" summary of ``size`` hidden nodes."""
    width = text_width(f"+{size}", SMALL_SIZE) + 14
    return max(width + 8, 2 * ring_of(MORE, width).side + 4)


def _game_sizes(trace: Trace) -> dict[int, int] | None:
    """Nodes in each subtree of a game search's explored tree, by id() of its root, read from the trace's index.

    Every node of that tree is one the search reached (numbered by the index, parents before children) or a
    childless stub for a pruned move, so one pass over the reached nodes counts them all: much faster than a
    walk of a tree of half a million nodes.  None when the tree is not the index's.
    """
    ix = trace.index
    nodes_ = ix.nodes
    if not nodes_ or trace.tree is not nodes_[0]:
        return None
    size = [1 + len(node.children) for node in nodes_]  # every child counted once, as if it were a stub
    parent = ix.parent
    for nid in range(len(size) - 1, 0, -1):  # children before parents: a reached child adds its own subtree
        size[parent[nid]] += size[nid] - 1
    return _StubSizes(zip(map(id, nodes_), size, strict=True))


class _StubSizes(dict[int, int]):
    """Subtree sizes by id(); a node not listed is a pruned move's stub, with no children."""

    def __missing__(self, key: int) -> int:
        return 1


def _subtree_sizes(root: Node) -> dict[int, int]:
    """Nodes in each subtree, by id() of its root (children come before their parent in postorder)."""
    sizes: dict[int, int] = {}
    for node in nodes(root, "post"):
        sizes[id(node)] = 1 + sum(sizes[id(c)] for c in node.children)
    return sizes
