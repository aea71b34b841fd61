"""The look of a diagram: palette, sizes, number formats and text escaping.

One table per concern, for the one drawer (``svg.py``; PNG, PDF and GIF are its
SVG rasterised).  Colours are the Okabe-Ito palette (safe for the common colour-vision
deficiencies); every status also differs in line style, line width or fill
lightness, so a greyscale print still tells them apart.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from ..numbers import format_short

__all__ = [
    "OKABE_ITO",
    "Look",
    "LOOKS",
    "STATUS_WORDS",
    "STATUS_COLOURS",
    "Ring",
    "ring_of",
    "shape_half_height",
    "number",
    "interval",
    "text_width",
    "xml_escape",
    "shorten",
]

OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
}
"""Okabe and Ito (2008), "Color Universal Design": eight colours most viewers can tell apart."""


@dataclass(frozen=True, slots=True)
class Look:
    """How a node in one status is drawn."""

    fill: str
    """Fill colour of the node's shape."""
    stroke: str
    """Outline colour."""
    width: float
    """Outline width in points."""
    dash: str
    """SVG ``stroke-dasharray`` ("" for a solid line)."""
    text: str
    """Colour of the node's own text (name, leaf value)."""


LOOKS: dict[str, Look] = {
    # Lightness steps (greyscale): unvisited white, active very light + thick black outline, current orange
    # + thickest outline + halo, done mid blue, probed light purple dashed, pruned light grey dashed.
    "unvisited": Look("#FFFFFF", "#7A7A7A", 1.2, "", "#404040"),
    "active": Look(OKABE_ITO["yellow"], "#000000", 2.6, "", "#000000"),
    "current": Look(OKABE_ITO["orange"], "#000000", 4.0, "", "#000000"),
    "done": Look(OKABE_ITO["sky_blue"], OKABE_ITO["blue"], 1.6, "", "#000000"),
    "probed": Look("#EBCBDD", OKABE_ITO["reddish_purple"], 2.2, "6 3", "#000000"),
    "pruned": Look("#EEEEEE", "#9A9A9A", 1.2, "3 3", "#8A8A8A"),
}
"""Node looks by NodeState status (``collapsed`` summaries reuse these)."""

STATUS_WORDS = {
    "current": "being searched",
    "active": "on the call stack",
    "done": "finished",
    "probed": "probed (Star2)",
    "pruned": "pruned",
    "unvisited": "not reached yet",
}
"""Legend text for each status."""

STATUS_COLOURS = {
    "current": "orange",
    "active": "yellow",
    "done": "blue",
    "probed": "pink, dashed",
    "pruned": "grey, dashed",
    "unvisited": "white",
}
"""The colour words the legend puts before each status (what a reader sees in :data:`LOOKS`)."""

EDGE_COLOURS = {
    "normal": "#000000",
    "unvisited": "#9A9A9A",
    "stack": OKABE_ITO["vermillion"],
    "pruned": "#9A9A9A",
}
EDGE_WIDTHS = {"normal": 1.4, "unvisited": 1.0, "stack": 3.6, "pruned": 1.2}
EDGE_DASHES = {"normal": "", "unvisited": "", "stack": "", "pruned": "4 3"}
CUT_MARK = "\u2702"  # ✂ on the edge of every child a cutoff prunes
CURRENT_HALO = OKABE_ITO["vermillion"]
"""The ring around the node a step is about, and the call-stack path: red-orange (vermillion)."""
HALO_WORDS = "red-orange"
"""How the legend names :data:`CURRENT_HALO`."""
HORIZON = "#555555"
"""The dashed line at a search's depth limit."""

FONT = "Helvetica, Arial, sans-serif"
FONT_SIZE = 14.0
SMALL_SIZE = 11.0
LINE_HEIGHT = 13.0
SHAPE = 34.0
"""Height of a node's shape in points (triangles are a little wider, leaf boxes grow with their text)."""
LEAF_BOX = 24.0
"""Height of a leaf's box in points."""
MORE_BOX = 22.0
"""Height of a "+N nodes" summary box in points."""
RING_WIDTH = 3.0
"""Line width of the ring around the node a step is about."""
RING_GAP = 2.0
"""White space between a shape's outline and its ring."""
OUTLINE = 2.0
"""Half the thickest outline a shape gets (the current node's), which the ring must clear."""


def shape_half_height(kind: str) -> float:
    """Half the height of a node's shape: leaves and summaries are flat boxes, the rest :data:`SHAPE` high."""
    if kind == "leaf":
        return LEAF_BOX / 2
    if kind == "more":
        return MORE_BOX / 2
    return SHAPE / 2


@dataclass(frozen=True, slots=True)
class Ring:
    """The ring around the node a step is about: a circle, or a rounded box around a leaf or summary.

    Offsets are from the centre of the node's shape box, y growing downwards.
    """

    dy: float
    """How far the ring's centre lies below the shape's centre (a triangle's ring is centred on its circumcircle)."""
    rx: float
    """Half the width of the ring's centre line (a circle's radius)."""
    ry: float
    """Half the height of the ring's centre line."""
    circle: bool

    @property
    def above(self) -> float:
        """How far the ring reaches above the shape's centre (outer edge)."""
        return self.ry - self.dy + RING_WIDTH / 2

    @property
    def below(self) -> float:
        """How far the ring reaches below the shape's centre (outer edge)."""
        return self.ry + self.dy + RING_WIDTH / 2

    @property
    def side(self) -> float:
        """How far the ring reaches left and right of the shape's centre (outer edge)."""
        return self.rx + RING_WIDTH / 2


def ring_of(kind: str, shape_width: float) -> Ring:
    """The ring around a node of ``kind`` whose shape is ``shape_width`` wide.

    A triangle's ring is centred on its circumcircle, so it clears the three corners
    alike; an upward (MAX) triangle's circle lies lower than a downward (MIN) one's.

    >>> r = ring_of("min", 40.0)
    >>> round(r.dy, 1), round(r.rx, 1), round(r.below, 1), round(r.above, 1)
    (-5.9, 28.4, 24.0, 35.8)
    """
    clear = OUTLINE + RING_GAP + RING_WIDTH / 2
    if kind in ("max", "min"):
        half = SHAPE / 2
        centre = (shape_width / 2) ** 2 / (4 * half)  # circumcentre, below the apex's side of the box centre
        radius = half + centre + clear
        return Ring(centre if kind == "max" else -centre, radius, radius, True)
    if kind == "chance":
        return Ring(0.0, SHAPE / 2 + clear, SHAPE / 2 + clear, True)
    return Ring(0.0, shape_width / 2 + clear, shape_half_height(kind) + clear, False)


def number(x: object) -> str:
    """A value for a diagram: like format_number, but infinities as ``−∞``/``+∞`` and a long value rounded
    (:func:`~expectviz.numbers.format_short`)."""
    if x is None:
        return "?"
    if isinstance(x, float) and math.isinf(x):
        return "+\u221e" if x > 0 else "\u2212\u221e"
    if isinstance(x, (int, float, Fraction)):
        return format_short(x)
    return str(x)


def interval(pair: tuple[object, object]) -> str:
    """``[a, b]`` with diagram numbers."""
    return f"[{number(pair[0])}, {number(pair[1])}]"


def text_width(text: str, size: float = FONT_SIZE) -> float:
    """A generous estimate of the width of ``text`` in points (no font metrics needed)."""
    return 0.62 * size * len(text)


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_escape(text: str) -> str:
    """Escape text for XML/HTML content and attribute values; drops characters XML cannot hold."""
    if _NOT_XML.search(text):
        text = _NOT_XML.sub("", text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
