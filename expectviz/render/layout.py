"""Node positions: Graphviz ``dot`` is run once per scene, never per frame.

The layout graph gives every item a fixed-size box (its shape plus room for the
labels beside and below it, see :mod:`expectviz.render.scene`), so the positions
hold for any frame's labels.  ``dot -Tplain`` answers with the box centres;
results are cached by the scene's shape, so every frame of a trace, and every
later diagram of the same tree, reuses one layout.
"""

from __future__ import annotations

import shutil
from collections import OrderedDict
from dataclasses import dataclass

from ..errors import GraphvizError, GraphvizNotFoundError, RenderError, StepRangeError
from ..registry import info
from .scene import Scene

__all__ = [
    "Layout",
    "layout",
    "layout_dot",
    "dot_binary",
    "lay_out",
    "MAX_LAYOUT_ITEMS",
    "RenderError",
    "StepRangeError",
    "GraphvizNotFoundError",
    "GraphvizError",
]

_CACHE: OrderedDict[tuple[object, ...], Layout] = OrderedDict()
_CACHE_SIZE = 64
MARGIN = 12.0


@dataclass(frozen=True)
class Layout:
    """Box centres of a scene's items, in points, y growing downwards (SVG's way)."""

    x: tuple[float, ...]
    y: tuple[float, ...]
    """Centre of each item's layout box (its shape sits at the top of the box)."""
    width: float
    height: float
    """Size of the tree drawing, margins included."""


def dot_binary(program: str = "dot") -> str:
    """The path of a Graphviz program, or GraphvizNotFoundError with how to install it."""
    found = shutil.which(program)
    if found is None:
        raise GraphvizNotFoundError(
            f"Graphviz's {program!r} program is not on PATH; diagrams need it "
            "(Debian/Ubuntu: apt-get install graphviz; conda: conda install -c conda-forge graphviz; "
            "macOS: brew install graphviz)"
        )
    return found


def lay_out(source: str) -> bytes:
    """Graphviz's ``dot`` on layout DOT text, through the ``graphviz`` package: its plain-text output."""
    import graphviz

    try:
        data: bytes = graphviz.pipe("dot", "plain", source.encode("utf-8"), quiet=True)
    except graphviz.ExecutableNotFound:
        dot_binary("dot")  # raises GraphvizNotFoundError with how to install it
        raise  # pragma: no cover - dot_binary raised
    except graphviz.CalledProcessError as error:
        lines = (error.stderr or b"").decode("utf-8", "replace").strip().splitlines()
        raise GraphvizError(f"dot failed: {lines[0] if lines else error}") from None
    return data


MAX_LAYOUT_ITEMS = 10_000
"""The most boxes one diagram lays out; bigger trees are drawn with ``max_nodes`` (default 150)."""


def _ranksep(scene: Scene) -> float:
    """Inches between two levels' boxes: room for a cutoff's ✂ under a level and for edge labels over the next."""
    labelled = any(it.edge_label for it in scene.items)
    windowed = scene.algorithm is not None and info(scene.algorithm).windowed
    return 0.53 if labelled and windowed else 0.4


def layout_dot(scene: Scene) -> str:
    """The DOT text Graphviz lays out: fixed-size, label-free boxes in tree order.

    Each box holds an item's shape, the ring the current step may put around it, the
    value and name beside it and its label box; the space between two levels holds only
    edges, edge labels, cutoff marks and the depth-limit line (see :mod:`expectviz.render.svg`).
    """
    lines = [
        "digraph layout {",
        f"  graph [ordering=out, nodesep=0.14, ranksep={_ranksep(scene):.2f}, margin=0, splines=false];",
        f'  node [shape=box, fixedsize=true, label="", height={scene.height / 72:.3f}];',
    ]
    for it in scene.items:
        lines.append(f"  {it.id} [width={it.width / 72:.3f}];")
    for it in scene.items:
        if it.parent >= 0:
            lines.append(f"  {scene.items[it.parent].id} -> {it.id};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _key(scene: Scene) -> tuple[object, ...]:
    return (
        id(scene.tree),
        round(scene.height, 2),
        _ranksep(scene),
        tuple((it.parent, round(it.width, 1)) for it in scene.items),
    )


def layout(scene: Scene) -> Layout:
    """The positions of a scene's items (one ``dot`` call per distinct scene, then cached)."""
    key = _key(scene)
    cached = _CACHE.get(key)
    if cached is not None and cached_tree_alive(key, scene):
        _CACHE.move_to_end(key)
        return cached
    if len(scene.items) == 1:
        it = scene.items[0]
        result = Layout(
            (MARGIN + it.width / 2,), (MARGIN + scene.height / 2,), it.width + 2 * MARGIN, scene.height + 2 * MARGIN
        )
    else:
        if len(scene.items) > MAX_LAYOUT_ITEMS:
            raise RenderError(
                f"this diagram would draw {len(scene.items):,} boxes, more than the {MAX_LAYOUT_ITEMS:,} one diagram "
                "lays out; draw it with max_nodes=... (the default, 150, collapses the rest into '+N' boxes)"
            )
        result = _parse_plain(lay_out(layout_dot(scene)).decode("utf-8"), scene)
    _CACHE[key] = result
    _TREES[key] = scene.tree
    while len(_CACHE) > _CACHE_SIZE:
        old, _ = _CACHE.popitem(last=False)
        _TREES.pop(old, None)
    return result


_TREES: dict[tuple[object, ...], object] = {}
"""The tree of each cached layout, held so that its id() cannot be reused while cached."""


def cached_tree_alive(key: tuple[object, ...], scene: Scene) -> bool:
    return _TREES.get(key) is scene.tree


def _parse_plain(text: str, scene: Scene) -> Layout:
    width = height = 0.0
    centres: dict[str, tuple[float, float]] = {}
    for line in text.splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "graph":
            width, height = float(parts[2]) * 72, float(parts[3]) * 72
        elif parts[0] == "node":
            centres[parts[1]] = (float(parts[2]) * 72, float(parts[3]) * 72)
    try:
        xs = tuple(MARGIN + centres[it.id][0] for it in scene.items)
        ys = tuple(MARGIN + height - centres[it.id][1] for it in scene.items)
    except KeyError as missing:
        raise GraphvizError(f"dot's layout has no position for node {missing}") from None
    return Layout(xs, ys, width + 2 * MARGIN, height + 2 * MARGIN)
