"""The ``expectviz render`` and ``expectviz animate`` commands' work, for the CLI to call.

Both take a finished search and an output file; the extension picks the format.
They raise :class:`~expectviz.errors.ExpectvizError` subclasses (which the CLI
prints as one line and exits with status 2) for unknown extensions, steps out
of range and a missing Graphviz.
"""

from __future__ import annotations

import os

from .search import Result

__all__ = ["render_command", "animate_command", "RENDER_FORMATS", "ANIMATE_FORMATS"]

RENDER_FORMATS = (".svg", ".png", ".pdf")
"""What ``expectviz render -o FILE`` writes."""
ANIMATE_FORMATS = (".html", ".gif")
"""What ``expectviz animate -o FILE`` writes."""


def render_command(result: Result, output: str | os.PathLike[str], *, step: int | None = None) -> str:
    """Draw ``result`` at ``step`` (default: the end; 0: before the search) to ``output``; returns the path."""
    from .render.export import render_file

    return render_file(result, output, step=step)


def animate_command(result: Result, output: str | os.PathLike[str]) -> str:
    """Write ``result`` as a player page (.html) or an animated GIF (.gif) to ``output``; returns the path."""
    from .render.export import animate_file

    return animate_file(result, output)
