"""SVG for one frame, written in pure Python from a fixed layout.

:class:`Drawer` turns a :class:`~expectviz.render.scene.Scene` and its
:class:`~expectviz.render.layout.Layout` into geometry once (shapes, edge
ends, label anchors); :meth:`Drawer.svg` then only restyles that geometry for
each frame, so stepping through a trace costs string formatting, not Graphviz.

Styles are presentation attributes, not a ``<style>`` sheet: the SVG looks the
same inline in a notebook, as an ``<img>``, on GitHub and in a file.  All text
from the tree goes through :func:`~expectviz.render.style.xml_escape`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from ..registry import info
from ..tree import CHANCE, LEAF, MAX, MIN
from .layout import Layout
from .scene import MORE, ItemPaint, Paint, Scene
from .style import (
    CURRENT_HALO,
    CUT_MARK,
    EDGE_COLOURS,
    EDGE_DASHES,
    EDGE_WIDTHS,
    FONT,
    FONT_SIZE,
    LEAF_BOX,
    LINE_HEIGHT,
    LOOKS,
    MORE_BOX,
    SHAPE,
    SMALL_SIZE,
    STATUS_WORDS,
    Look,
    shorten,
    text_width,
    xml_escape,
)

__all__ = ["Drawer"]

_HALO = ' stroke="#FFFFFF" stroke-width="3" paint-order="stroke"'
"""A white outline under text, so that labels stay readable where lines pass."""
_PLAIN = Look("#FFFFFF", "#000000", 1.4, "", "#000000", "filled")
CAPTION_HEIGHT = 20.0


def _f(x: float) -> str:
    """A coordinate: at most one decimal, no trailing zeros."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


class Drawer:
    """Frame-by-frame SVG for one scene and layout."""

    def __init__(self, scene: Scene, where: Layout, *, legend: bool = True) -> None:
        self.scene = scene
        self.where = where
        self.show_legend = legend
        self._geometry()
        self._edge_memo: list[dict[tuple[str, bool], str]] = [{} for _ in scene.items]
        self._node_memo: list[dict[tuple[str, str, tuple[str, ...], str], str]] = [{} for _ in scene.items]
        self._legend_svg, legend_h, legend_w = self._legend() if legend else ("", 0.0, 0.0)
        self.width = max(where.width, legend_w)
        self.tree_top = CAPTION_HEIGHT
        self.height = CAPTION_HEIGHT + where.height + legend_h

    # ---------------------------------------------------------------- geometry, once

    def _geometry(self) -> None:
        scene, where = self.scene, self.where
        self.cx: list[float] = []
        self.cy: list[float] = []
        self.top: list[float] = []
        self.bottom: list[float] = []  # where edges to the children start
        self.shape_bottom: list[float] = []
        self.shapes: list[str] = []  # element text with a {style} hole
        self.inner: list[tuple[float, float, str]] = []  # text drawn inside the shape
        for k, it in enumerate(scene.items):
            cx = where.x[k]
            cy = where.y[k] - scene.height / 2 + SHAPE / 2 + 3
            self.cx.append(cx)
            self.cy.append(cy)
            w, h = it.shape_width, SHAPE
            if it.kind == MAX:
                pts = f"{_f(cx)},{_f(cy - h / 2)} {_f(cx + w / 2)},{_f(cy + h / 2)} {_f(cx - w / 2)},{_f(cy + h / 2)}"
                shape = f'<polygon points="{pts}" {{style}}/>'
                top, bottom, text_y = cy - h / 2, cy + h / 2, cy + 10
            elif it.kind == MIN:
                pts = f"{_f(cx - w / 2)},{_f(cy - h / 2)} {_f(cx + w / 2)},{_f(cy - h / 2)} {_f(cx)},{_f(cy + h / 2)}"
                shape = f'<polygon points="{pts}" {{style}}/>'
                top, bottom, text_y = cy - h / 2, cy + h / 2, cy - 2
            elif it.kind == CHANCE:
                shape = f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(h / 2)}" {{style}}/>'
                top, bottom, text_y = cy - h / 2, cy + h / 2, cy + 5
            elif it.kind == LEAF:
                shape = (
                    f'<rect x="{_f(cx - w / 2)}" y="{_f(cy - LEAF_BOX / 2)}" width="{_f(w)}" '
                    f'height="{_f(LEAF_BOX)}" {{style}}/>'
                )
                top, bottom, text_y = cy - LEAF_BOX / 2, cy + LEAF_BOX / 2, cy + 5
            else:
                shape = (
                    f'<rect x="{_f(cx - w / 2)}" y="{_f(cy - MORE_BOX / 2)}" width="{_f(w)}" '
                    f'height="{_f(MORE_BOX)}" rx="8" {{style}}/>'
                )
                top, bottom, text_y = cy - MORE_BOX / 2, cy + MORE_BOX / 2, cy + 4
            self.shapes.append(shape)
            self.top.append(top)
            self.shape_bottom.append(bottom)
            # Edges leave from under the annotation lines, so that no edge crosses them.
            self.bottom.append(cy + SHAPE / 2 + 5 + len(it.slots) * LINE_HEIGHT if it.slots else bottom)
            if it.kind in (LEAF, MORE):
                inner = it.leaf_text
            else:
                inner = it.name if len(it.name) <= 2 else ""
            self.inner.append((cx, text_y, xml_escape(inner)))
        self.children_of: dict[int, list[int]] = {}
        for k, it in enumerate(scene.items):
            if it.parent >= 0:
                self.children_of.setdefault(it.parent, []).append(k)
        # Static text per item: names beside the shape, edge labels.
        self.beside: list[str] = []
        self.edge_text: list[str] = []
        for k, it in enumerate(scene.items):
            cx, cy, w = self.cx[k], self.cy[k], it.shape_width
            name = it.name if (len(it.name) > 2 or it.kind == LEAF) else ""
            self.beside.append(
                f'<text x="{_f(cx - w / 2 - 5)}" y="{_f(cy + 5)}" text-anchor="end" font-style="italic">'
                f"{xml_escape(shorten(name, 12))}</text>"
                if name
                else ""
            )
            label = ""
            if it.parent >= 0 and it.edge_label:
                p = it.parent
                x0, y0, x1, y1 = self.cx[p], self.bottom[p], cx, self.top[k]
                mx, my = x0 + (x1 - x0) * 0.45, y0 + (y1 - y0) * 0.45
                if x1 < x0 - 1:
                    anchor, dx = "end", -4.0
                elif x1 > x0 + 1:
                    anchor, dx = "start", 4.0
                else:
                    anchor, dx = "start", 5.0
                label = (
                    f'<text x="{_f(mx + dx)}" y="{_f(my + 4)}" text-anchor="{anchor}" font-size="{_f(SMALL_SIZE)}" '
                    f'fill="#333333"{_HALO}>{xml_escape(shorten(it.edge_label, 24))}</text>'
                )
            self.edge_text.append(label)

    # ---------------------------------------------------------------- pieces, memoised by svg()

    def _edge(self, k: int, kind: str) -> str:
        it, p = self.scene.items[k], self.scene.items[k].parent
        dash = "2 3" if it.kind == MORE else EDGE_DASHES[kind]
        return (
            f'<line x1="{_f(self.cx[p])}" y1="{_f(self.bottom[p])}" x2="{_f(self.cx[k])}" y2="{_f(self.top[k])}" '
            f'stroke="{EDGE_COLOURS[kind]}" stroke-width="{EDGE_WIDTHS[kind]}"'
            + (f' stroke-dasharray="{dash}"' if dash else "")
            + "/>"
            + self.edge_text[k]
        )

    def _stem(self, k: int, kind: str) -> str:
        return (
            f'<line x1="{_f(self.cx[k])}" y1="{_f(self.shape_bottom[k])}" x2="{_f(self.cx[k])}" '
            f'y2="{_f(self.bottom[k])}" stroke="{EDGE_COLOURS[kind]}" stroke-width="{EDGE_WIDTHS[kind]}"/>'
        )

    def _cut_mark(self, k: int) -> str:
        p = self.scene.items[k].parent
        mx = self.cx[p] + (self.cx[k] - self.cx[p]) * 0.75
        my = self.bottom[p] + (self.top[k] - self.bottom[p]) * 0.75
        return (
            f'<g><title>pruned by a cutoff</title><circle cx="{_f(mx)}" cy="{_f(my)}" r="8" fill="#FFFFFF" '
            f'stroke="{CURRENT_HALO}" stroke-width="1.2"/><text x="{_f(mx)}" y="{_f(my + 4.5)}" '
            f'text-anchor="middle" font-size="12" fill="{CURRENT_HALO}">{CUT_MARK}</text></g>'
        )

    def _node(self, k: int, look: ItemPaint) -> str:
        it = self.scene.items[k]
        style = _PLAIN if look.status == "plain" else LOOKS[look.status]
        cx, cy = self.cx[k], self.cy[k]
        out = [f'<g data-node="{it.id}"><title>{xml_escape(self.scene.tooltip(k, look))}</title>']
        if look.status == "current":
            r = max(it.shape_width, SHAPE) / 2 + 7
            out.append(
                f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r)}" fill="none" stroke="{CURRENT_HALO}" '
                f'stroke-width="3"/>'
            )
        dash = style.dash or ("4 2" if it.kind == MORE else "")
        attrs = f'fill="{style.fill}" stroke="{style.stroke}" stroke-width="{style.width}"' + (
            f' stroke-dasharray="{dash}"' if dash else ""
        )
        out.append(self.shapes[k].replace("{style}", attrs))
        tx, ty, inner = self.inner[k]
        if inner:
            size = f' font-size="{_f(SMALL_SIZE)}"' if it.kind == MORE else ""
            weight = ' font-weight="bold"' if it.kind == LEAF and look.status == "done" else ""
            out.append(
                f'<text x="{_f(tx)}" y="{_f(ty)}" text-anchor="middle" fill="{style.text}"{size}{weight}>{inner}</text>'
            )
        if self.beside[k]:
            out.append(self.beside[k])
        if look.value:
            colour = "#000000" if look.status != "pruned" else "#8A8A8A"
            out.append(
                f'<text x="{_f(cx + it.shape_width / 2 + 8)}" y="{_f(cy + 5)}" font-weight="bold" '
                f'font-size="13" fill="{colour}">{xml_escape(look.value)}</text>'
            )
        y = max(self.shape_bottom[k], cy + SHAPE / 2) + 2
        for line in look.lines:
            y += LINE_HEIGHT
            if line:
                out.append(
                    f'<text x="{_f(cx)}" y="{_f(y)}" text-anchor="middle" font-size="{_f(SMALL_SIZE)}" '
                    f'fill="#222222"{_HALO}>{xml_escape(line)}</text>'
                )
        out.append("</g>")
        return "".join(out)

    # ---------------------------------------------------------------- legend, once

    def _legend(self) -> tuple[str, float, float]:
        algorithm = self.scene.algorithm
        entries: list[tuple[str, str]] = []  # (swatch svg with {x},{y} holes, text)
        entries.append((_swatch_shape(MAX, _PLAIN), "MAX"))
        entries.append((_swatch_shape(MIN, _PLAIN), "MIN"))
        if any(it.kind == CHANCE for it in self.scene.items):
            entries.append((_swatch_shape(CHANCE, _PLAIN), "CHANCE"))
        entries.append((_swatch_shape(LEAF, _PLAIN), "leaf (utility)"))
        if any(it.kind == MORE for it in self.scene.items):
            entries.append((_swatch_shape(MORE, LOOKS["unvisited"]), "+N: N nodes not drawn"))
        if algorithm is not None:
            facts = info(algorithm)
            statuses = ["current", "active", "done", "pruned", "unvisited"]
            if facts.probes:
                statuses.insert(3, "probed")
            for status in statuses:
                entries.append((_swatch_shape(CHANCE, LOOKS[status], halo=status == "current"), STATUS_WORDS[status]))
            entries.append((_swatch_edge("stack"), "call-stack path"))
            if facts.windowed:
                entries.append((_swatch_edge("pruned", cut=True), "pruned edge (\u2702 = cutoff)"))
                entries.append(("", "\u03b1\u03b2 [\u03b1, \u03b2]: window searched with"))
            entries.append(("", "range [lo, hi]: what the leaves seen prove"))
            entries.append(("", "\u2265 / \u2264 v: bound, not exact"))
            if facts.star:
                entries.append(("", "L,U: chance node's running bounds"))
                entries.append(("", "\u03b1\u1d62\u03b2\u1d62: a chance child's window"))
        width = max(self.where.width, 560.0)
        x, y = 10.0, 16.0
        row_h = 22.0
        parts: list[str] = []
        for swatch, text in entries:
            w = (24.0 if swatch else 0.0) + text_width(text, SMALL_SIZE) * 0.9 + 16
            if x + w > width - 6 and x > 10:
                x, y = 10.0, y + row_h
            if swatch:
                parts.append(swatch.replace("{x}", _f(x + 9)).replace("{y}", _f(y)))
            tx = x + (24.0 if swatch else 0.0)
            parts.append(f'<text x="{_f(tx)}" y="{_f(y + 4)}" font-size="{_f(SMALL_SIZE)}">{xml_escape(text)}</text>')
            x += w
        height = y + 14
        return "".join(parts), height, width

    # ---------------------------------------------------------------- one frame

    def svg(self, paint: Paint, *, explanation: bool = False) -> str:
        """The SVG of one frame (``explanation=True`` adds the step's sentence under the caption)."""
        return "".join(self.parts(paint, explanation=explanation))

    # Slots of :meth:`parts`: five for the heading (the caption twice: as the title and as text), then per item
    # its stem, its edge, its cutoff mark and its node, then the closing piece with the legend.
    HEAD = 5

    def parts(self, paint: Paint, *, explanation: bool = False) -> list[str]:
        """The SVG of one frame as a fixed list of slots (joined, it is :meth:`svg`): the heading, then per
        item its stem, edge, cutoff mark and node, then the legend; a step changes only a few slots."""
        n = len(self.scene.items)
        out = self._heading(paint, explanation) + [""] * (4 * n) + [self._tail(paint, explanation)]
        self._fill(paint, range(n), out)
        return out

    def changed_parts(self, paint: Paint, items: set[int]) -> dict[int, str]:
        """The slots that can differ from the frame before when only ``items`` changed (no explanation)."""
        n = len(self.scene.items)
        out: dict[int, str] = {1: xml_escape(paint.caption), 3: xml_escape(paint.caption)}
        slots = [""] * (self.HEAD + 4 * n + 1)
        self._fill(paint, items, slots)
        for k in items:
            for slot in (self.HEAD + k, self.HEAD + n + k, self.HEAD + 2 * n + k, self.HEAD + 3 * n + k):
                out[slot] = slots[slot]
            parent = self.scene.items[k].parent
            if parent >= 0:  # a parent's stem follows its children's edges
                out[self.HEAD + parent] = slots[self.HEAD + parent]
        return out

    def _heading(self, paint: Paint, explanation: bool) -> list[str]:
        notes: list[str] = []
        if explanation and paint.explanation:
            notes = textwrap.wrap(paint.explanation, max(40, int(self.width / (SMALL_SIZE * 0.56))))
        top = self.tree_top + len(notes) * LINE_HEIGHT
        height = self.height + len(notes) * LINE_HEIGHT
        caption = xml_escape(paint.caption)
        below = "".join(
            f'<text x="10" y="{_f(14 + (i + 1) * LINE_HEIGHT)}" font-size="{_f(SMALL_SIZE)}">'
            f"{xml_escape(line)}</text>"
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
            f'</text>{below}<g transform="translate(0,{_f(top)})">',
        ]

    def _tail(self, paint: Paint, explanation: bool) -> str:
        notes = 0
        if explanation and paint.explanation:
            notes = len(textwrap.wrap(paint.explanation, max(40, int(self.width / (SMALL_SIZE * 0.56)))))
        top = self.tree_top + notes * LINE_HEIGHT
        legend = ""
        if self._legend_svg:
            legend = (
                f'<g transform="translate(0,{_f(top + self.where.height)})" font-size="{_f(SMALL_SIZE)}">'
                f'<line x1="8" y1="0" x2="{_f(self.width - 8)}" y2="0" stroke="#CCCCCC"/>{self._legend_svg}</g>'
            )
        return "</g>" + legend + "</svg>"

    def _fill(self, paint: Paint, items: Iterable[int], out: list[str]) -> None:
        """Write the stem, edge, mark and node slots of ``items`` (stems of their parents too) into ``out``."""
        scene = self.scene
        n = len(scene.items)
        looks = paint.items
        plain = paint.steps == 0
        stems: set[int] = set()
        for k in items:
            it = scene.items[k]
            look = looks[k]
            if it.parent >= 0:
                kind = "normal" if plain and look.status == "plain" else look.edge
                key = (kind, look.cut_mark)
                piece = self._edge_memo[k].get(key)
                if piece is None:
                    piece = self._edge_memo[k][key] = self._edge(k, kind)
                out[self.HEAD + n + k] = piece
                out[self.HEAD + 2 * n + k] = self._cut_mark(k) if look.cut_mark else ""
                stems.add(it.parent)
            if k in self.children_of:
                stems.add(k)
            node_key = (look.status, look.value, look.lines, look.known)
            piece = self._node_memo[k].get(node_key)
            if piece is None:
                piece = self._node_memo[k][node_key] = self._node(k, look)
            out[self.HEAD + 3 * n + k] = piece
        # Stems: from a shape, under its annotation lines, down to where its edges start.
        for k in stems:
            kids = self.children_of.get(k)
            if not kids or not scene.items[k].slots or self.bottom[k] <= self.shape_bottom[k]:
                continue
            kinds = {looks[c].edge for c in kids}
            if plain:
                kind = "normal"
            elif "stack" in kinds:
                kind = "stack"
            elif "normal" in kinds:
                kind = "normal"
            elif kinds == {"pruned"}:
                kind = "pruned"
            else:
                kind = "unvisited"
            out[self.HEAD + k] = self._stem(k, kind)


def _swatch_shape(kind: str, look: Look, *, halo: bool = False) -> str:
    attrs = f'fill="{look.fill}" stroke="{look.stroke}" stroke-width="{min(look.width, 2.6)}"' + (
        f' stroke-dasharray="{look.dash}"' if look.dash else ""
    )
    s = 7.0
    if kind == MAX:
        shape = _poly([(0, -s), (s, s * 0.8), (-s, s * 0.8)], attrs)
    elif kind == MIN:
        shape = _poly([(-s, -s * 0.8), (s, -s * 0.8), (0, s)], attrs)
    elif kind == CHANCE:
        shape = f'<circle cx="{{x}}" cy="{{y}}" r="{_f(s)}" {attrs}/>'
    elif kind == LEAF:
        shape = _poly([(-s, -s * 0.7), (s, -s * 0.7), (s, s * 0.7), (-s, s * 0.7)], attrs)
    else:
        shape = _poly([(-s, -s * 0.7), (s, -s * 0.7), (s, s * 0.7), (-s, s * 0.7)], attrs + ' stroke-dasharray="3 2"')
    if halo:
        shape = (
            f'<circle cx="{{x}}" cy="{{y}}" r="{_f(s + 4)}" fill="none" stroke="{CURRENT_HALO}" stroke-width="2"/>'
            + shape
        )
    return shape


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
