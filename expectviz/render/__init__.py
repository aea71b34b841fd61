"""Drawing and playing searches: diagrams, the step-through player, exports.

>>> import expectviz as ev
>>> r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
>>> from expectviz.render.scene import Scene
>>> scene = Scene(r.tree, r.trace, None)            # what is drawn, and how each item looks at a step
>>> [scene.items[k].edge_label for k, look in enumerate(scene.paint(r.trace.frame(13)).items) if look.cut_mark]
['c2', 'c3']

* :func:`draw` -- one step as a :class:`~expectviz.render.diagram.Diagram` (SVG in Jupyter, .svg/.png/.pdf files);
* :func:`play` -- the player, which steps in the browser; :func:`compare` -- two searches of one tree, stepped together;
* :func:`export_html` / :func:`export_gif` -- a player page that works offline, an animated GIF.

Graphviz's ``dot`` lays each tree out once; every frame is then drawn in
Python, as SVG, at the same positions.  That SVG is the only drawing: PNG, PDF
and GIF files are rasterisations of it by CairoSVG (:mod:`~expectviz.render.raster`).
ipywidgets is imported only by the player, CairoSVG only when a picture is written.
"""

from __future__ import annotations

from typing import Any

from .diagram import Diagram, draw
from .layout import GraphvizError, GraphvizNotFoundError, RenderError, StepRangeError
from .scene import DEFAULT_MAX_NODES

__all__ = [
    "draw",
    "Diagram",
    "play",
    "compare",
    "export_html",
    "export_gif",
    "result_mimebundle",
    "DEFAULT_MAX_NODES",
    "GraphvizNotFoundError",
    "GraphvizError",
    "RenderError",
    "StepRangeError",
]


def play(result: Any, **options: Any) -> Any:
    """The step-through player of a search (see :func:`expectviz.render.player.play`)."""
    from .player import play as play_

    return play_(result, **options)


def compare(result_a: Any, result_b: Any, **options: Any) -> Any:
    """Two searches of one tree stepped together (see :func:`expectviz.render.player.compare`)."""
    from .player import compare as compare_

    return compare_(result_a, result_b, **options)


def result_mimebundle(result: Any) -> dict[str, Any]:
    """Jupyter's display of a Result (see :func:`expectviz.render.player.result_mimebundle`)."""
    from .player import result_mimebundle as bundle

    return bundle(result)


def export_html(result: Any, path: Any = None, **options: Any) -> str:
    """A self-contained player page (see :func:`expectviz.render.export.export_html`)."""
    from .export import export_html as export

    page: str = export(result, path, **options)
    return page


def export_gif(result: Any, path: Any, **options: Any) -> str:
    """An animated GIF of a search (see :func:`expectviz.render.export.export_gif`)."""
    from .export import export_gif as export

    written: str = export(result, path, **options)
    return written
