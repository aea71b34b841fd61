"""SVG for one frame, written in pure Python from a fixed layout.

:class:`Drawer` turns a :class:`~expectviz.render.scene.Scene` and its
:class:`~expectviz.render.layout.Layout` into geometry once (shapes, rings, edge
ends, label anchors); :meth:`Drawer.svg` then only restyles that geometry for
each frame, so stepping through a trace costs string formatting, not Graphviz.

Where text goes, so that no line ever runs through it:

* an item's layout box holds its shape, the ring the current step may draw
  around it, its value (right) and name (left) beside the ring, and under the
  ring its annotation lines (window, range, bounds) in a white label box drawn
  over the edges;
* the space between two levels holds the edges, each edge's label beside its
  child end on the outer side, a cutoff's ✂ near its parent end, and the
  dashed horizon line of a depth-limited search.

Edges leave a node from its shape (a MIN triangle's tip), not from under its
labels, so a two-child MIN node reads as a triangle over a long, narrow fan.

A game's pictures of its states (AIMA Fig. 5.1's boards) sit left of their
nodes' shapes, each a nested ``<svg>`` that :mod:`expectviz.render.picture`
wrote out from a whitelist; they are one slot, the same at every step, and a
node not searched (yet) veils its own picture in its node slot.  A node a
transposition table answered carries a black "TT" badge over its value.

Styles are presentation attributes, not a ``<style>`` sheet: the SVG looks the
same inline in a notebook, as an ``<img>``, on GitHub and in a file.  All text
from the tree goes through :func:`~expectviz.render.style.xml_escape`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass

from ..registry import info
from ..tree import CHANCE, LEAF, MAX, MIN
from .layout import Layout
from .scene import (
    EDGE_LABEL_GAP,
    LABEL_PAD,
    MORE,
    PICTURE,
    PICTURE_GAP,
    SHAPE_TOP,
    VALUE_GAP,
    VALUE_SIZE,
    Item,
    ItemPaint,
    Paint,
    Scene,
    label_top,
    reach_below,
)
from .style import (
    CURRENT_HALO,
    CUT_MARK,
    EDGE_COLOURS,
    EDGE_DASHES,
    EDGE_WIDTHS,
    FONT,
    FONT_SIZE,
    HALO_WORDS,
    HORIZON,
    LEAF_BOX,
    LINE_HEIGHT,
    LOOKS,
    MORE_BOX,
    RING_WIDTH,
    SHAPE,
    SMALL_SIZE,
    STATUS_COLOURS,
    STATUS_WORDS,
    Look,
    ring_of,
    shape_half_height,
    shorten,
    text_width,
    xml_escape,
)

__all__ = ["Drawer", "LEGEND_MIN_WIDTH", "SIDE_LEGEND_MAX_WIDTH", "ANSWER_BOX_WIDTH"]

_HALO = ' stroke="#FFFFFF" stroke-width="3" paint-order="stroke"'
_VEILED = ("unvisited", "pruned")
"""A node's picture is veiled while the node is not searched (yet): the searched positions stand out."""
_VEIL = "0.62"
_TABLE_BADGE = (
    '<g data-table="1" transform="translate({x},{y})"><rect width="23" height="15" rx="3" fill="#000000"/>'
    '<text x="11.5" y="11.5" text-anchor="middle" font-size="10.5" font-weight="bold" fill="#FFFFFF">TT</text></g>'
)
"""The mark of a node a transposition table answered ({x}, {y}: its top left corner, over the value)."""
"""A white outline under text, so that labels stay readable where lines pass."""
_PLAIN = Look("#FFFFFF", "#000000", 1.4, "", "#000000")
CAPTION_HEIGHT = 20.0
LEGEND_MIN_WIDTH = 340.0
"""The legend wraps to the tree's width, but never narrower than this (its longest entry fits)."""
SIDE_LEGEND_MAX_WIDTH = 860.0
"""A legend goes beside a tree only if the drawing stays this narrow (it fits a 1280-pixel screen)."""
_CUT_RADIUS = 8.0
_CUT_BELOW = 11.0
"""How far under the parent's box a cutoff's ✂ sits on the pruned edge."""
_HORIZON_BELOW = 6.0
"""How far under the boxes of the depth limit's level the horizon line runs."""
_EDGE_LABEL_ABOVE = 7.0
"""How far above the child's box an edge label's baseline sits."""
ANSWER_BOX_WIDTH = 30.0
"""The least width of a handout's empty value box (``ItemPaint.blank``), in points."""


def _f(x: float) -> str:
    """A coordinate: at most one decimal, no trailing zeros."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


@dataclass(frozen=True, slots=True)
class _Edge:
    """The line from a parent's shape to a child's, where it is when."""

    x0: float
    y0: float
    x1: float
    y1: float

    def x_at(self, y: float) -> float:
        """The edge's x at height ``y``."""
        if self.y1 == self.y0:
            return self.x1
        return self.x0 + (self.x1 - self.x0) * (y - self.y0) / (self.y1 - self.y0)


class Drawer:
    """Frame-by-frame SVG for one scene and layout."""

    def __init__(self, scene: Scene, where: Layout, *, legend: bool = True) -> None:
        self.scene = scene
        self.where = where
        self.show_legend = legend
        self._geometry()
        self._edge_memo: list[dict[tuple[str, bool], str]] = [{} for _ in scene.items]
        self._node_memo: list[dict[tuple[str, str, tuple[str, ...], str, bool, bool, bool], str]] = [
            {} for _ in scene.items
        ]
        self.tree_top = CAPTION_HEIGHT
        self._legend_svg, self._legend_at = "", (0.0, 0.0)
        self.width, self.height = where.width, CAPTION_HEIGHT + self.tree_height
        if legend:
            self._place_legend()
        self._horizon = self._horizon_line()

    # ---------------------------------------------------------------- geometry, once

    def _geometry(self) -> None:
        scene = self.scene
        self.cx: list[float] = []
        self.cy: list[float] = []
        self.box_top: list[float] = []
        self.top: list[float] = []  # where the edge from the parent ends
        self.bottom: list[float] = []  # where edges to the children start
        self.shapes: list[str] = []  # element text with a {style} hole
        self.rings: list[str] = []
        self.inner: list[tuple[float, float, str]] = []  # text drawn inside the shape
        self.labels_at: list[float] = []  # top of the label box
        self.value_x: list[float] = []
        self.name_x: list[float] = []
        self.picture_x: list[float] = []  # left side of the item's picture (when it has one)
        for k, it in enumerate(scene.items):
            self._place(k, it)
        self._pictures = "".join(
            f'<g data-picture="{it.id}">' + it.picture.at(self.picture_x[k], self.cy[k] - PICTURE / 2, PICTURE) + "</g>"
            for k, it in enumerate(scene.items)
            if it.picture is not None
        )
        """Every node's picture: one slot, the same at every step (a node's look veils its own)."""
        self.box_bottom = [t + scene.height for t in self.box_top]
        # The tree's part of the drawing: from the highest ring to the lowest label box, with a margin.
        reach = [
            (cy - ring_of(it.kind, it.shape_width).above, cy + reach_below(it))
            for cy, it in zip(self.cy, scene.items, strict=True)
        ]
        self.tree_y = min(top for top, _ in reach) - 8
        lowest = max(bottom for _, bottom in reach)
        horizon = self._horizon_y()
        if horizon is not None:  # a depth limit at the deepest level drawn: its line runs under that level
            lowest = max(lowest, horizon + 2)
        self.tree_height = lowest + 8 - self.tree_y
        self.edges: list[_Edge | None] = [
            _Edge(self.cx[it.parent], self.bottom[it.parent], self.cx[k], self.top[k]) if it.parent >= 0 else None
            for k, it in enumerate(scene.items)
        ]
        self.beside = [self._name_beside(k, it) for k, it in enumerate(scene.items)]

    def _place(self, k: int, it: Item) -> None:
        """Item ``k``'s shape, ring and text anchors, from the centre of its layout box."""
        cx = self.where.x[k]
        box_top = self.where.y[k] - self.scene.height / 2
        cy = box_top + SHAPE_TOP
        half = shape_half_height(it.kind)
        shape, text_y = _shape(it.kind, cx, cy, it.shape_width)
        ring = ring_of(it.kind, it.shape_width)
        self.cx.append(cx)
        self.cy.append(cy)
        self.box_top.append(box_top)
        self.top.append(cy - half)
        self.bottom.append(cy + half)
        self.shapes.append(shape)
        self.rings.append(_ring(ring.circle, cx, cy + ring.dy, ring.rx, ring.ry))
        self.labels_at.append(cy + label_top(it.kind, it.shape_width))
        self.value_x.append(cx + ring.side + VALUE_GAP)
        self.picture_x.append(cx - ring.side - PICTURE_GAP - PICTURE)
        if it.picture is not None:
            self.name_x.append(cx - ring.side - PICTURE_GAP - PICTURE - VALUE_GAP)
        else:
            self.name_x.append(cx - ring.side - VALUE_GAP)
        inner = it.leaf_text if it.kind in (LEAF, MORE) else (it.name if len(it.name) <= 2 else "")
        self.inner.append((cx, text_y, xml_escape(inner)))

    def _name_beside(self, k: int, it: Item) -> str:
        """A name too long for the shape (or a leaf's name), in italics left of the ring ("" if none)."""
        name = it.name if (len(it.name) > 2 or it.kind == LEAF) else ""
        if not name:
            return ""
        return (
            f'<text x="{_f(self.name_x[k])}" y="{_f(self.cy[k] + 5)}" text-anchor="end" font-style="italic">'
            f"{xml_escape(shorten(name, 12))}</text>"
        )

    def _edge_label(self, k: int, kind: str) -> str:
        """The move and probability beside the child end of edge ``k``, on the side away from the parent."""
        it, edge = self.scene.items[k], self.edges[k]
        if edge is None or not it.edge_label:
            return ""
        base = self.box_top[k] - _EDGE_LABEL_ABOVE
        lowest, highest = base + SMALL_SIZE * 0.3, base - SMALL_SIZE * 0.85
        gap = EDGE_LABEL_GAP + EDGE_WIDTHS["stack"] / 2
        if edge.x1 < edge.x0 - 1:
            anchor, x = "end", min(edge.x_at(lowest), edge.x_at(highest)) - gap
        else:
            anchor, x = "start", max(edge.x_at(lowest), edge.x_at(highest)) + gap
        colour = "#8A8A8A" if kind in ("pruned", "unvisited") else "#222222"
        return (
            f'<text x="{_f(x)}" y="{_f(base)}" text-anchor="{anchor}" font-size="{_f(SMALL_SIZE)}" '
            f'fill="{colour}"{_HALO}>{xml_escape(shorten(it.edge_label, 24))}</text>'
        )

    def _horizon_y(self) -> float | None:
        """Where the depth limit's line runs (None if the search had none)."""
        depth = self.scene.static_depth
        if depth is None:
            return None
        level = [k for k, it in enumerate(self.scene.items) if it.depth == depth]
        if not level:
            return None
        return self.box_top[level[0]] + self.scene.height + _HORIZON_BELOW

    def _horizon_line(self) -> str:
        """The dashed line under the level a depth-limited search evaluated statically ("" if none)."""
        depth = self.scene.static_depth
        y = self._horizon_y()
        if depth is None or y is None:
            return ""
        title = f"the depth limit: nodes at depth {depth} are valued by static evaluations, nothing below is searched"
        return (
            f'<g data-horizon="{depth}"><title>{title}</title><line x1="4" y1="{_f(y)}" '
            f'x2="{_f(self.where.width - 4)}" y2="{_f(y)}" stroke="{HORIZON}" stroke-width="1.3" '
            f'stroke-dasharray="9 5"/></g>'
        )

    # ---------------------------------------------------------------- pieces, memoised by svg()

    def _edge(self, k: int, kind: str) -> str:
        it, edge = self.scene.items[k], self.edges[k]
        assert edge is not None
        dash = "2 3" if it.kind == MORE else EDGE_DASHES[kind]
        return (
            f'<line x1="{_f(edge.x0)}" y1="{_f(edge.y0)}" x2="{_f(edge.x1)}" y2="{_f(edge.y1)}" '
            f'stroke="{EDGE_COLOURS[kind]}" stroke-width="{EDGE_WIDTHS[kind]}"'
            + (f' stroke-dasharray="{dash}"' if dash else "")
            + "/>"
        )

    def _cut_mark(self, k: int) -> str:
        edge = self.edges[k]
        assert edge is not None
        y = self.box_bottom[self.scene.items[k].parent] + _CUT_BELOW
        x = edge.x_at(y)
        return (
            f'<g><title>pruned by a cutoff</title><circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(_CUT_RADIUS)}" '
            f'fill="#FFFFFF" stroke="{CURRENT_HALO}" stroke-width="1.2"/><text x="{_f(x)}" y="{_f(y + 4.5)}" '
            f'text-anchor="middle" font-size="12" fill="{CURRENT_HALO}">{CUT_MARK}</text></g>'
        )

    def _node(self, k: int, look: ItemPaint) -> str:
        it = self.scene.items[k]
        style = _PLAIN if look.status == "plain" else LOOKS[look.status]
        cy = self.cy[k]
        out = [f'<g data-node="{it.id}"><title>{xml_escape(self.scene.tooltip(k, look))}</title>']
        if look.ring:
            out.append(self.rings[k])
        dash = style.dash or ("4 2" if it.kind == MORE else "")
        attrs = f'fill="{style.fill}" stroke="{style.stroke}" stroke-width="{style.width}"' + (
            f' stroke-dasharray="{dash}"' if dash else ""
        )
        out.append(self.shapes[k].replace("{style}", attrs))
        if it.picture is not None and look.status in _VEILED:
            out.append(
                f'<rect x="{_f(self.picture_x[k] - 1)}" y="{_f(cy - PICTURE / 2 - 1)}" width="{_f(PICTURE + 2)}" '
                f'height="{_f(PICTURE + 2)}" fill="#FFFFFF" fill-opacity="{_VEIL}"/>'
            )
        tx, ty, inner = self.inner[k]
        if inner:
            size = f' font-size="{_f(SMALL_SIZE)}"' if it.kind == MORE else ""
            weight = ' font-weight="bold"' if it.kind == LEAF and look.status == "done" else ""
            out.append(
                f'<text x="{_f(tx)}" y="{_f(ty)}" text-anchor="middle" fill="{style.text}"{size}{weight}>{inner}</text>'
            )
        if self.beside[k]:
            out.append(self.beside[k])
        if look.blank:
            out.append(self._answer_box(k))
        elif look.value:
            colour = "#000000" if look.status != "pruned" else "#8A8A8A"
            out.append(
                f'<text x="{_f(self.value_x[k])}" y="{_f(cy + 5)}" font-weight="bold" '
                f'font-size="{_f(VALUE_SIZE)}" fill="{colour}">{xml_escape(look.value)}</text>'
            )
        if look.table:
            out.append(_TABLE_BADGE.replace("{x}", _f(self.value_x[k])).replace("{y}", _f(cy - 25)))
        if look.lines:
            out.append(self._label_box(k, look.lines))
        out.append("</g>")
        return "".join(out)

    def _answer_box(self, k: int) -> str:
        """An empty box where item ``k``'s value goes (``ItemPaint.blank``): as wide as the room its layout box
        keeps right of the ring for the value, at least :data:`ANSWER_BOX_WIDTH`, and as high as a leaf."""
        room = self.where.x[k] + self.scene.items[k].width / 2 - self.value_x[k]
        width = max(ANSWER_BOX_WIDTH, min(room - 2, 2 * ANSWER_BOX_WIDTH))
        return (
            f'<rect data-answer="1" x="{_f(self.value_x[k])}" y="{_f(self.cy[k] - LEAF_BOX / 2)}" '
            f'width="{_f(width)}" height="{_f(LEAF_BOX)}" fill="#FFFFFF" stroke="#555555" stroke-width="1"/>'
        )

    def _label_box(self, k: int, lines: tuple[str, ...]) -> str:
        """The annotation lines in a white box under the ring, drawn over any edge behind them."""
        cx, top = self.cx[k], self.labels_at[k]
        width = max(text_width(line, SMALL_SIZE) for line in lines) + 8
        height = len(lines) * LINE_HEIGHT + 2 * LABEL_PAD
        out = [
            f'<rect x="{_f(cx - width / 2)}" y="{_f(top)}" width="{_f(width)}" height="{_f(height)}" rx="3" '
            f'fill="#FFFFFF" stroke="#B4B4B4" stroke-width="0.7"/>'
        ]
        for i, line in enumerate(lines):
            y = top + LABEL_PAD + i * LINE_HEIGHT + 10
            out.append(
                f'<text x="{_f(cx)}" y="{_f(y)}" text-anchor="middle" font-size="{_f(SMALL_SIZE)}" '
                f'fill="#222222">{xml_escape(line)}</text>'
            )
        return "".join(out)

    # ---------------------------------------------------------------- legend, once

    def _place_legend(self) -> None:
        """The legend under the tree (wrapped to its width) or beside a narrow one, whichever fits a 16:10 slide
        larger."""
        groups = self._legend_entries()
        widest = max((_entry_width(swatch, text) for group in groups for swatch, text in group), default=0.0)
        if not widest:
            return
        tree_w, tree_h = self.where.width, self.tree_height
        under_w = max(tree_w, LEGEND_MIN_WIDTH, widest + 20)
        under_svg, under_h = _lay_legend(groups, under_w)
        side_w = widest + 20
        side_svg, side_h = _lay_legend(groups, side_w)
        under = (under_w, CAPTION_HEIGHT + tree_h + under_h)
        side = (tree_w + side_w, CAPTION_HEIGHT + max(tree_h, side_h))
        if side[0] <= SIDE_LEGEND_MAX_WIDTH and _slide_scale(*side) > _slide_scale(*under):
            self._legend_svg = f'<line x1="0" y1="8" x2="0" y2="{_f(side_h - 8)}" stroke="#CCCCCC"/>{side_svg}'
            self._legend_at = (tree_w, 0.0)
            self.width, self.height = side
        else:
            self._legend_svg = f'<line x1="8" y1="0" x2="{_f(under_w - 8)}" y2="0" stroke="#CCCCCC"/>{under_svg}'
            self._legend_at = (0.0, tree_h)
            self.width, self.height = under

    def _legend_entries(self) -> list[list[tuple[str, str]]]:
        """The legend's entries (swatch with {x},{y} holes, text), in groups that each start a row."""
        scene = self.scene
        kinds = {it.kind for it in scene.items}
        shapes = [(_swatch_shape(kind, _PLAIN), kind.upper()) for kind in (MAX, MIN, CHANCE) if kind in kinds]
        if LEAF in kinds:
            shapes.append((_swatch_shape(LEAF, _PLAIN), "leaf (utility)"))
        if MORE in kinds:
            shapes.append((_swatch_shape(MORE, LOOKS["unvisited"]), "+N: N nodes not drawn"))
        texts: list[tuple[str, str]] = []
        if scene.algorithm is None:
            if any(it.evaluation for it in scene.items):
                texts.append(("", "[v]: static evaluation, used at a depth limit"))
            return [shapes, texts]
        facts = info(scene.algorithm)
        statuses = ["current", "active", "done", "probed", "pruned", "unvisited"]
        if not facts.probes:
            statuses.remove("probed")
        if not facts.windowed:  # nothing is pruned without a window
            statuses.remove("pruned")
        looks = [(_swatch_ring(), f"{HALO_WORDS} ring: this step's node")]
        for status in statuses:
            looks.append((_swatch_shape(CHANCE, LOOKS[status]), f"{STATUS_COLOURS[status]}: {STATUS_WORDS[status]}"))
        if scene.has_table:
            looks.append((_swatch_table(), "TT: value from the transposition table"))
        lines = [(_swatch_edge("stack"), f"thick {HALO_WORDS} line: the call stack")]
        if facts.windowed:
            lines.append((_swatch_edge("pruned", cut=True), f"grey dashed line, {CUT_MARK}: cut off"))
        if scene.static_depth is not None:
            lines.append((_swatch_horizon(), f"dashed line across: the horizon, depth limit {scene.static_depth}"))
        if facts.windowed:
            texts.append(("", "\u03b1\u03b2 [\u03b1, \u03b2]: the window searched with"))
        texts.append(("", "range [lo, hi]: what the leaves seen prove"))
        texts.append(("", "\u2265 / \u2264 v: a bound, not exact"))
        if scene.static_depth is not None:
            texts.append(("", "[v]: static evaluation"))
        if scene.pictures:
            texts.append(("", "faded picture: a position not searched (yet)"))
        if facts.star:
            texts.append(("", "L,U: chance node's running bounds"))
            texts.append(("", "\u03b1\u1d62\u03b2\u1d62 (before clipping): chance child's window"))
        return [shapes, looks, lines, texts]

    # ---------------------------------------------------------------- one frame

    def svg(self, paint: Paint, *, explanation: bool = False) -> str:
        """The SVG of one frame (``explanation=True`` adds the step's sentence under the caption)."""
        return "".join(self.parts(paint, explanation=explanation))

    # Slots of :meth:`parts`: five for the heading (the caption twice: as the title and as text), then per item
    # its edge, its edge's label, its cutoff mark, then (only when the game has pictures) one slot with every
    # node's picture, then per item its node (in that order of layers: every label box and edge label lies over
    # every edge, a node's veil over its picture), then the closing piece with the legend.
    HEAD = 5

    @property
    def nodes_at(self) -> int:
        """The slot of the first item's node (item ``k``'s node is in slot ``nodes_at + k``)."""
        return self.HEAD + 3 * len(self.scene.items) + (1 if self._pictures else 0)

    def parts(self, paint: Paint, *, explanation: bool = False) -> list[str]:
        """The SVG of one frame as a fixed list of slots (joined, it is :meth:`svg`): the heading, then per
        item its edge, edge label and cutoff mark, the pictures, then per item its node, then the legend; a
        step changes only a few slots."""
        n = len(self.scene.items)
        pictures = [self._pictures] if self._pictures else []
        out = self._heading(paint, explanation) + [""] * (3 * n) + pictures + [""] * n
        out.append(self._tail(paint, explanation))
        self._fill(paint, range(n), out)
        return out

    def changed_parts(self, paint: Paint, items: set[int]) -> dict[int, str]:
        """The slots that can differ from the frame before when only ``items`` changed (no explanation)."""
        n = len(self.scene.items)
        out: dict[int, str] = {1: xml_escape(paint.caption), 3: xml_escape(paint.caption)}
        slots = [""] * (self.nodes_at + n + 1)
        self._fill(paint, items, slots)
        for k in items:
            for slot in (self.HEAD + k, self.HEAD + n + k, self.HEAD + 2 * n + k, self.nodes_at + k):
                out[slot] = slots[slot]
        return out

    def _heading(self, paint: Paint, explanation: bool) -> list[str]:
        notes: list[str] = []
        if explanation and paint.explanation:
            notes = textwrap.wrap(paint.explanation, max(40, int(self.width / (SMALL_SIZE * 0.56))))
        top = self.tree_top + len(notes) * LINE_HEIGHT
        height = self.height + len(notes) * LINE_HEIGHT
        caption = xml_escape(paint.caption)
        below = "".join(
            f'<text x="10" y="{_f(14 + (i + 1) * LINE_HEIGHT)}" font-size="{_f(SMALL_SIZE)}">{xml_escape(line)}</text>'
            for i, line in enumerate(notes)
        )
        return [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(self.width)}pt" height="{_f(height)}pt" '
            f'viewBox="0 0 {_f(self.width)} {_f(height)}" font-family="{FONT}" font-size="{_f(FONT_SIZE)}" '
            f'role="img"><title>',
            caption,
            f'</title><rect width="{_f(self.width)}" height="{_f(height)}" fill="#FFFFFF"/>'
            f'<text x="10" y="14" font-size="{_f(SMALL_SIZE + 1)}" font-weight="bold">',
            caption,
            f'</text>{below}<g transform="translate(0,{_f(top - self.tree_y)})">{self._horizon}',
        ]

    def _tail(self, paint: Paint, explanation: bool) -> str:
        notes = 0
        if explanation and paint.explanation:
            notes = len(textwrap.wrap(paint.explanation, max(40, int(self.width / (SMALL_SIZE * 0.56)))))
        top = self.tree_top + notes * LINE_HEIGHT
        legend = ""
        if self._legend_svg:
            x, y = self._legend_at
            legend = (
                f'<g transform="translate({_f(x)},{_f(top + y)})" font-size="{_f(SMALL_SIZE)}">{self._legend_svg}</g>'
            )
        return "</g>" + legend + "</svg>"

    def _fill(self, paint: Paint, items: Iterable[int], out: list[str]) -> None:
        """Write the edge, edge label, mark and node slots of ``items`` into ``out``."""
        scene = self.scene
        n = len(scene.items)
        looks = paint.items
        plain = paint.steps == 0
        nodes = self.nodes_at
        for k in items:
            it = scene.items[k]
            look = looks[k]
            if it.parent >= 0:
                kind = "normal" if plain and look.status == "plain" else look.edge
                out[self.HEAD + k] = self._memo_edge(k, kind, False)
                out[self.HEAD + n + k] = self._memo_edge(k, kind, True)
                out[self.HEAD + 2 * n + k] = self._cut_mark(k) if look.cut_mark else ""
            node_key = (look.status, look.value, look.lines, look.known, look.ring, look.table, look.blank)
            piece = self._node_memo[k].get(node_key)
            if piece is None:
                piece = self._node_memo[k][node_key] = self._node(k, look)
            out[nodes + k] = piece

    def _memo_edge(self, k: int, kind: str, label: bool) -> str:
        """Edge ``k``'s line (or its label) drawn as ``kind``, made once per kind."""
        key = (kind, label)
        piece = self._edge_memo[k].get(key)
        if piece is None:
            piece = self._edge_memo[k][key] = self._edge_label(k, kind) if label else self._edge(k, kind)
        return piece


def _shape(kind: str, cx: float, cy: float, w: float) -> tuple[str, float]:
    """A node's shape element, with a {style} hole, and the baseline of the text inside it."""
    h = SHAPE
    join = ' stroke-linejoin="round"'
    if kind == MAX:
        pts = f"{_f(cx)},{_f(cy - h / 2)} {_f(cx + w / 2)},{_f(cy + h / 2)} {_f(cx - w / 2)},{_f(cy + h / 2)}"
        return f'<polygon points="{pts}"{join} {{style}}/>', cy + 10
    if kind == MIN:
        pts = f"{_f(cx - w / 2)},{_f(cy - h / 2)} {_f(cx + w / 2)},{_f(cy - h / 2)} {_f(cx)},{_f(cy + h / 2)}"
        return f'<polygon points="{pts}"{join} {{style}}/>', cy - 2
    if kind == CHANCE:
        return f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(h / 2)}" {{style}}/>', cy + 5
    if kind == LEAF:
        return (
            f'<rect x="{_f(cx - w / 2)}" y="{_f(cy - LEAF_BOX / 2)}" width="{_f(w)}" height="{_f(LEAF_BOX)}" '
            f"{{style}}/>",
            cy + 5,
        )
    return (
        f'<rect x="{_f(cx - w / 2)}" y="{_f(cy - MORE_BOX / 2)}" width="{_f(w)}" height="{_f(MORE_BOX)}" rx="8" '
        f"{{style}}/>",
        cy + 4,
    )


def _ring(circle: bool, x: float, y: float, rx: float, ry: float) -> str:
    """The ring around the step's node: a circle, or a rounded box around a leaf or summary."""
    paint = f'fill="none" stroke="{CURRENT_HALO}" stroke-width="{_f(RING_WIDTH)}"'
    if circle:
        return f'<circle data-ring="1" cx="{_f(x)}" cy="{_f(y)}" r="{_f(rx)}" {paint}/>'
    return (
        f'<rect data-ring="1" x="{_f(x - rx)}" y="{_f(y - ry)}" width="{_f(2 * rx)}" height="{_f(2 * ry)}" '
        f'rx="7" {paint}/>'
    )


def _lay_legend(groups: list[list[tuple[str, str]]], width: float) -> tuple[str, float]:
    """The legend's entries flowed into rows ``width`` wide, each group from a new row: its SVG and height."""
    x, y = 10.0, 16.0
    row_h = 20.0
    parts: list[str] = []
    for group in groups:
        for swatch, text in group:
            w = _entry_width(swatch, text)
            if x + w > width - 6 and x > 10:
                x, y = 10.0, y + row_h
            if swatch:
                parts.append(swatch.replace("{x}", _f(x + 9)).replace("{y}", _f(y)))
            tx = x + (24.0 if swatch else 0.0)
            parts.append(f'<text x="{_f(tx)}" y="{_f(y + 4)}" font-size="{_f(SMALL_SIZE)}">{xml_escape(text)}</text>')
            x += w
        if group:
            x, y = 10.0, y + row_h
    return "".join(parts), y - row_h + 14


def _slide_scale(width: float, height: float) -> float:
    """How much a drawing of this size can be enlarged to fill a 16:10 slide (the larger, the better it reads)."""
    return min(16 / width, 10 / height)


def _entry_width(swatch: str, text: str) -> float:
    return (24.0 if swatch else 0.0) + text_width(text, SMALL_SIZE) * 0.9 + 14


def _swatch_shape(kind: str, look: Look) -> str:
    attrs = f'fill="{look.fill}" stroke="{look.stroke}" stroke-width="{min(look.width, 2.6)}"' + (
        f' stroke-dasharray="{look.dash}"' if look.dash else ""
    )
    s = 7.0
    if kind == MAX:
        return _poly([(0, -s), (s, s * 0.8), (-s, s * 0.8)], attrs)
    if kind == MIN:
        return _poly([(-s, -s * 0.8), (s, -s * 0.8), (0, s)], attrs)
    if kind == CHANCE:
        return f'<circle cx="{{x}}" cy="{{y}}" r="{_f(s)}" {attrs}/>'
    if kind == LEAF:
        return _poly([(-s, -s * 0.7), (s, -s * 0.7), (s, s * 0.7), (-s, s * 0.7)], attrs)
    return _poly([(-s, -s * 0.7), (s, -s * 0.7), (s, s * 0.7), (-s, s * 0.7)], attrs + ' stroke-dasharray="3 2"')


def _swatch_table() -> str:
    """The mark of a node closed by a transposition-table hit, centred on the swatch's place."""
    return (
        '<g transform="translate({x},{y})">'
        + _TABLE_BADGE.replace("{x}", "-11.5").replace("{y}", "-7.5").replace(' data-table="1"', "")
        + "</g>"
    )


def _swatch_ring() -> str:
    """A finished (blue) node with the ring: the ring marks the step's node whatever its colour."""
    return (
        f'<circle cx="{{x}}" cy="{{y}}" r="10" fill="none" stroke="{CURRENT_HALO}" stroke-width="2.2"/>'
        + _swatch_shape(CHANCE, LOOKS["done"])
    )


def _poly(points: list[tuple[float, float]], attrs: str) -> str:
    """A polygon around the {x},{y} swatch centre (filled in by a transform)."""
    pts = " ".join(f"{_f(px)},{_f(py)}" for px, py in points)
    return f'<g transform="translate({{x}},{{y}})"><polygon points="{pts}" {attrs}/></g>'


def _swatch_edge(kind: str, *, cut: bool = False) -> str:
    dash = EDGE_DASHES[kind]
    line = (
        f'<g transform="translate({{x}},{{y}})"><line x1="-9" y1="0" x2="9" y2="0" stroke="{EDGE_COLOURS[kind]}" '
        f'stroke-width="{EDGE_WIDTHS[kind]}"' + (f' stroke-dasharray="{dash}"' if dash else "") + "/>"
    )
    if cut:
        line += f'<text x="0" y="4" text-anchor="middle" font-size="11" fill="{CURRENT_HALO}">{CUT_MARK}</text>'
    return line + "</g>"


def _swatch_horizon() -> str:
    return (
        f'<g transform="translate({{x}},{{y}})"><line x1="-10" y1="0" x2="10" y2="0" stroke="{HORIZON}" '
        f'stroke-width="1.3" stroke-dasharray="5 3"/></g>'
    )
