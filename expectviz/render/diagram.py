"""Diagrams: :func:`draw` and the :class:`Diagram` it returns.

A diagram of AIMA Fig. 5.5 (alpha-beta on Fig. 5.2 at its cutoff)::

    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    d = ev.draw(r, step=13)      # Diagram(algorithm='alphabeta', step=13, steps=23, nodes=13)
    d.save("fig-5.5.svg")        # .svg, .png or .pdf

A :class:`Renderer` holds what every frame of one trace shares: the scene
(which nodes are drawn), the layout (one ``dot`` run) and the SVG drawer.
Renderers are cached per trace (and per tree), so :func:`draw` at another step,
the player and the exporters reuse one layout.

The SVG is the only drawing: a diagram's PNG and PDF are that SVG rasterised
by CairoSVG (:mod:`expectviz.render.raster`), so they show what the player shows.
"""

from __future__ import annotations

import os
import weakref
from collections import OrderedDict
from typing import Any

from ..replay import Frame
from ..search import Result, as_tree
from ..trace import Trace
from ..tree import Node
from .layout import Layout, RenderError, StepRangeError, layout
from .raster import PNG_SCALE, svg_to_pdf, svg_to_png
from .scene import DEFAULT_MAX_NODES, Paint, Scene
from .svg import Drawer

__all__ = ["draw", "Diagram", "Renderer", "renderer_for", "FORMATS"]

FORMATS = (".svg", ".png", ".pdf")
"""The file types :meth:`Diagram.save` writes, chosen by the file's extension."""

Drawable = Result | Trace | Node | str


class Renderer:
    """Scene, layout and drawer of one trace (or bare tree): everything frames share."""

    def __init__(self, tree: Node, trace: Trace | None, *, max_nodes: int | None, legend: bool) -> None:
        if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1):
            raise RenderError(f"max_nodes must be a whole number >= 1 or None, not {max_nodes!r}")
        self.tree = tree
        self.trace = trace
        self.max_nodes = max_nodes
        self.legend = legend
        self.scene = Scene(tree, trace, max_nodes)
        self._layout: Layout | None = None
        self._drawer: Drawer | None = None

    @property
    def steps(self) -> int:
        """The last step (the trace's length; 0 for a bare tree)."""
        return len(self.trace) if self.trace is not None else 0

    @property
    def where(self) -> Layout:
        """The layout (runs ``dot`` the first time)."""
        if self._layout is None:
            self._layout = layout(self.scene)
        return self._layout

    @property
    def drawer(self) -> Drawer:
        if self._drawer is None:
            self._drawer = Drawer(self.scene, self.where, legend=self.legend)
        return self._drawer

    def frame(self, step: int | None) -> Frame | None:
        """The trace's frame at ``step`` (None: the end); None for a bare tree."""
        if self.trace is None:
            return None
        return self.trace.frame(len(self.trace) if step is None else step)

    def paint(self, step: int | None) -> Paint:
        return self.scene.paint(self.frame(step))

    def svg(self, step: int | None = None, *, explanation: bool = False) -> str:
        """The SVG of one step, drawn in Python on the cached layout."""
        return self.drawer.svg(self.paint(step), explanation=explanation)


_BY_TRACE: weakref.WeakKeyDictionary[Trace, dict[tuple[int | None, bool], Renderer]] = weakref.WeakKeyDictionary()
_BY_TREE: OrderedDict[tuple[int, int | None, bool], tuple[Node, Renderer]] = OrderedDict()


def renderer_for(item: Drawable, *, max_nodes: int | None = DEFAULT_MAX_NODES, legend: bool = True) -> Renderer:
    """The (cached) renderer of a result's trace, a trace, or a bare tree."""
    if isinstance(item, Result):
        if item.trace is None:
            if item.tree is None:
                raise RenderError(
                    "this result searched a game with trace=False, so nothing of its tree was kept to draw; "
                    "search again with trace=True"
                )
            return renderer_for(item.tree, max_nodes=max_nodes, legend=legend)
        item = item.trace
    if isinstance(item, Trace):
        per_trace = _BY_TRACE.setdefault(item, {})
        found = per_trace.get((max_nodes, legend))
        if found is None:
            found = per_trace[(max_nodes, legend)] = Renderer(item.tree, item, max_nodes=max_nodes, legend=legend)
        return found
    tree = as_tree(item)
    key = (id(tree), max_nodes, legend)
    entry = _BY_TREE.get(key)
    if entry is not None and entry[0] is tree:
        _BY_TREE.move_to_end(key)
        return entry[1]
    made = Renderer(tree, None, max_nodes=max_nodes, legend=legend)
    _BY_TREE[key] = (tree, made)
    while len(_BY_TREE) > 32:
        _BY_TREE.popitem(last=False)
    return made


class Diagram:
    """One drawn frame: shows as SVG in Jupyter, saves to .svg/.png/.pdf.

    Attributes:
        svg: the SVG text (drawn in Python on the cached Graphviz layout); PNG and PDF are rasterisations of it.
        step: the step drawn (None for a bare tree).
        steps: the trace's last step (0 for a bare tree).
    """

    def __init__(self, renderer: Renderer, step: int | None, *, explanation: bool = True) -> None:
        self._renderer = renderer
        self.steps = renderer.steps
        if renderer.trace is None:
            self.step: int | None = None
        else:
            n = renderer.steps
            k = n if step is None else step
            if isinstance(k, bool) or not isinstance(k, int):
                raise RenderError(f"step must be a whole number or None, not {step!r}")
            if k < 0:
                k += n + 1
            if not 0 <= k <= n:
                raise StepRangeError(f"step {step} out of range: this trace has steps 0 to {n}")
            self.step = k
        self._paint = renderer.paint(self.step)
        self.svg = renderer.drawer.svg(self._paint, explanation=explanation)

    def pipe(self, format: str, *, scale: float = PNG_SCALE) -> bytes:
        """This frame as ``svg``, ``png`` or ``pdf`` bytes; PNG and PDF are :attr:`svg` rasterised.

        Args:
            format: ``svg``, ``png`` or ``pdf``.
            scale: a PNG's pixels per CSS pixel of the SVG (1 pt is 4/3 px); the default 2 is sharp on slides.
                The PDF's page is the SVG's size in points.

        Raises:
            RenderError: another format, a bad scale, or no CairoSVG (PNG and PDF need it).
        """
        if format == "svg":
            return self.svg.encode("utf-8")
        if format == "png":
            return svg_to_png(self.svg, scale=scale)
        if format == "pdf":
            return svg_to_pdf(self.svg)
        raise RenderError(f"unknown format {format!r}; choose from svg, png, pdf")

    def save(self, path: str | os.PathLike[str], *, scale: float = PNG_SCALE) -> str:
        """Write the diagram to ``path``; the extension picks the format (.svg, .png, .pdf).

        Args:
            path: the file to write.
            scale: a PNG's pixels per CSS pixel (see :meth:`pipe`).

        Returns:
            The path written, as a string.
        """
        name = os.fspath(path)
        ext = os.path.splitext(name)[1].lower()
        if ext not in FORMATS:
            raise RenderError(
                f"cannot save a diagram as {ext or 'a file without extension'!r}; use one of {', '.join(FORMATS)}"
            )
        data = self.pipe(ext[1:], scale=scale)
        with open(name, "wb") as handle:
            handle.write(data)
        return name

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return {"image/svg+xml": self.svg, "text/plain": repr(self)}

    def __repr__(self) -> str:
        scene = self._renderer.scene
        shown = sum(1 for it in scene.items if it.kind != "more")
        if self.step is None:
            return f"Diagram(nodes={shown})"
        return f"Diagram(algorithm={scene.algorithm!r}, step={self.step}, steps={self.steps}, nodes={shown})"


def draw(
    item: Drawable,
    step: int | None = None,
    *,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    legend: bool = True,
) -> Diagram:
    """Draw a tree, or one step of a search (AIMA Figs. 5.2 and 5.5 are the model).

    Args:
        item: a Result (its trace is drawn), a Trace, or a bare tree (a Node, tree text or a textbook name).
        step: the step to draw; None draws the end of the search; 0 is before it; negative counts from the end.
        max_nodes: trees with more nodes are drawn with collapsed subtrees ("+412 nodes"): the nodes the search
            visited first, level by level, then the rest while room is left.  None draws every node.
        legend: add a key to the shapes, colours and labels.

    Returns:
        A :class:`Diagram`: shown as SVG in Jupyter; ``.save("x.svg" | "x.png" | "x.pdf")``.

    Raises:
        GraphvizNotFoundError: Graphviz's ``dot`` is not installed (it lays the tree out once per tree).
        RenderError: a bad option, or a step of a bare tree.

    MAX nodes are upward triangles, MIN nodes downward ones, chance nodes circles, leaves boxes with their
    utility.  At a step: the current node is ringed in red-orange, nodes on the call stack yellow with
    thick outlines (and thick red-orange edges), finished nodes blue with their values, pruned nodes grey and dashed
    with a ✂ on the pruned edges; under each visited node its [alpha, beta] window (alpha-beta, Star1/2) and
    its [lower, upper] range (AIMA Fig. 5.5).

    A game search draws the part of the game's tree it explored; when the game has a ``picture`` method,
    each node's picture (a tic-tac-toe board) is drawn left of it, faded until the search reaches it, and
    a node a transposition table answered carries a black "TT" badge with the table's value.  A big game
    tree is drawn as the root's moves and the lines the search tried first, as wide as fits
    :data:`~expectviz.render.scene.WIDTH_BUDGET`.
    """
    if isinstance(item, Node | str) and step is not None:
        raise RenderError("a bare tree has no steps: draw(result, step=...) draws a step of a search")
    return Diagram(renderer_for(item, max_nodes=max_nodes, legend=legend), step)
