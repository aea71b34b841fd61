"""Drawing and playing searches: diagrams, the step-through player, exports.

>>> import expectviz as ev
>>> r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
>>> from expectviz.render import frame_dot
>>> [line.split(" [")[0].strip() for line in frame_dot(r.trace, 13).splitlines() if "\u2702" in line and "->" in line]
['n5 -> n7', 'n5 -> n8']

* :func:`draw` -- one step as a :class:`~expectviz.render.diagram.Diagram` (SVG in Jupyter, .svg/.png/.pdf files);
* :func:`play` -- the ipywidgets player; :func:`compare` -- two searches of one tree, stepped together;
* :func:`export_html` / :func:`export_gif` -- a player page that works offline, an animated GIF;
* :func:`frame_dot` / :func:`tree_dot` -- the DOT text (pure text, no Graphviz needed).

Graphviz's ``dot`` lays each tree out once; every frame is then drawn in
Python at the same positions.  ipywidgets is imported only by the player.
"""

from __future__ import annotations

from typing import Any

from .diagram import Diagram, draw
from .dot import frame_dot, tree_dot
from .layout import GraphvizError, GraphvizNotFoundError, RenderError, StepRangeError
from .scene import DEFAULT_MAX_NODES

__all__ = [
    "draw",
    "Diagram",
    "play",
    "compare",
    "export_html",
    "export_gif",
    "frame_dot",
    "tree_dot",
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
