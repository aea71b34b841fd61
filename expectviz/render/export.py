"""Files from a search: one diagram (.svg/.png/.pdf), a player page (.html) or an animation (.gif).

:func:`export_html` writes a single page that works from disk with no network
and no kernel: every frame's SVG (drawn on one layout) and sentence are
embedded as JSON, with a small script for play/pause, speed, first/previous/
next/last, "next cutoff", a step slider and the arrow keys.  Frames are stored
compactly: the SVG is a fixed list of slots (heading, then each drawn item's
stem, edge, cutoff mark and node), every distinct slot text is stored once,
and each step lists only the slots it changes, which the scene knows without
drawing the rest (so exporting costs time linear in the trace).

:func:`export_gif` rasterises every frame's SVG (the drawing the player shows,
see :mod:`expectviz.render.raster`) and joins the frames with Pillow.

:func:`render_file` and :func:`animate_file` are what ``expectviz render`` and
``expectviz animate`` call.
"""

from __future__ import annotations

import html
import json
import os
from collections import Counter
from typing import Any

from ..options import options
from ..search import Result
from ..trace import Trace
from .diagram import FORMATS, Drawable, draw, renderer_for
from .layout import RenderError
from .packed import ViewPacker, module_text, pack_steps, unpack_frames
from .progress import Progress
from .raster import GIF_SCALE, PNG_SCALE, svg_to_image
from .scene import DEFAULT_MAX_NODES, Paint

__all__ = ["export_html", "export_gif", "render_file", "animate_file", "pack_steps", "unpack_frames"]

PathLike = str | os.PathLike[str]


def _trace(result: Result | Trace) -> Trace:
    trace = result.trace if isinstance(result, Result) else result
    if not isinstance(trace, Trace):
        raise RenderError("this result has no trace to animate: run the search with trace=True (the default)")
    return trace


def _json_for_script(data: Any) -> str:
    """JSON safe inside a <script> element (no ``</script>``, ``<!--`` or ``&`` can appear)."""
    return json.dumps(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ margin: 1em 1.5em; color: #1a1a1a; background: #ffffff; font: 14px system-ui, Helvetica, Arial, sans-serif; }}
h1 {{ font-size: 1.25em; margin: 0 0 .5em; }}
{css}
</style>
</head>
<body>
<h1>{title}</h1>
<div id="player"></div>
<script id="frames" type="application/json">{frames}</script>
<script type="module">
{module}
// The page's stand-in for anywidget's model: the same calls, no kernel behind them.
const data = JSON.parse(document.getElementById("frames").textContent);
const state = {{
  views: [data], steps: data.steps, cutoffs: data.cutoffs, follow: [], interval: {interval}, step: {start},
}};
const listeners = {{}};
const model = {{
  get: (name) => state[name],
  set: (name, value) => {{ state[name] = value; for (const f of listeners["change:" + name] || []) f(); }},
  on: (event, f) => {{ (listeners[event] = listeners[event] || []).push(f); }},
  off: (event, f) => {{ listeners[event] = (listeners[event] || []).filter((g) => g !== f); }},
  save_changes: () => {{}},
  send: () => {{}},
}};
render({{ model, el: document.getElementById("player") }});
document.querySelector(".ev-player").focus({{ preventScroll: true }});
</script>
</body>
</html>
"""


def export_html(
    result: Result | Trace,
    path: PathLike | None = None,
    *,
    step: int = 0,
    interval: int = 700,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    title: str | None = None,
    predict: bool = False,
) -> str:
    """A self-contained HTML player of a search: no network, no kernel needed.

    The page holds the live player's own front end (``player.js`` and ``player.css``, see
    :func:`~expectviz.render.player.play`) and every step packed as the player receives it
    (:mod:`expectviz.render.packed`), with a small stand-in for the kernel's side.

    Args:
        result: a Result (searched with ``trace=True``) or its Trace.
        path: where to write the page; None only returns it.
        step: the step shown when the page opens.
        interval: milliseconds per step when playing.
        max_nodes: larger trees are drawn with collapsed subtrees.
        title: the page's heading (default: the algorithm and the step count).
        predict: leaves show "?" until the search evaluates them.

    Returns:
        The HTML text.
    """
    trace = _trace(result)
    _check_size(len(trace), options.max_export_steps, "max_export_steps", "an exported page")
    renderer = renderer_for(trace, max_nodes=max_nodes)
    with Progress(len(trace) + 1, "steps drawn") as progress:
        packer = ViewPacker(
            trace, renderer.scene, renderer.drawer, predict=predict, chunk_steps=None, progress=progress
        )
        view = packer.view()
    heading = title if title is not None else f"{trace.algorithm}: {len(trace)} steps"
    module = module_text("player.js")
    if "</script" in module.lower():  # pragma: no cover - a guard on the shipped file
        raise RenderError("player.js must not contain '</script'")
    page = _PAGE.format(
        title=html.escape(heading),
        css=module_text("player.css"),
        module=module,
        interval=int(interval),
        start=max(0, min(len(trace), step if step >= 0 else len(trace) + 1 + step)),
        frames=_json_for_script(view),
    )
    if path is not None:
        with open(os.fspath(path), "w", encoding="utf-8") as handle:
            handle.write(page)
    return page


def export_gif(
    result: Result | Trace,
    path: PathLike,
    *,
    interval: int = 700,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    scale: float = GIF_SCALE,
    loop: int = 0,
) -> str:
    """An animated GIF of a search, one frame per step: the player's SVG of each step, rasterised.

    Args:
        result: a Result (searched with ``trace=True``) or its Trace.
        path: the .gif file to write.
        interval: milliseconds per frame (the last frame is held three times as long).
        max_nodes: larger trees are drawn with collapsed subtrees.
        scale: pixels per CSS pixel of the SVG; the default makes the 11 pt labels 18 px to the em.
        loop: how many times viewers repeat it (0: for ever).

    Returns:
        The path written.

    Raises:
        RenderError: a result without a trace, a bad scale, or no CairoSVG.
    """
    from PIL import Image

    trace = _trace(result)
    _check_size(len(trace), options.max_gif_frames, "max_gif_frames", "a GIF")
    renderer = renderer_for(trace, max_nodes=max_nodes)

    def picture(paint: Paint) -> Any:
        return svg_to_image(renderer.drawer.svg(paint), scale=scale)

    # One palette for every frame (from the first, middle and last), so that a step changes only the pixels of
    # what it changes, and the GIF stores little more than those.
    match, colours = _palette([picture(renderer.scene.paint(trace.frame(k))) for k in {0, len(trace) // 2, len(trace)}])

    def frame(paint: Paint) -> Any:
        indexed = picture(paint).quantize(palette=match, dither=Image.Dither.NONE)
        indexed.putpalette(colours)
        return indexed

    durations = [int(interval)] * len(trace) + [3 * int(interval)]
    name = os.fspath(path)
    with Progress(len(trace) + 1, "frames drawn", shown=None if len(trace) >= 200 else False) as progress:

        def frames() -> Any:  # drawn one at a time, as Pillow writes them
            for paint, _ in renderer.scene.paint_steps():
                progress.update(paint.step + 1)
                yield frame(paint)

        steps = frames()
        first = next(steps)
        first.save(name, save_all=True, append_images=steps, duration=durations, loop=loop, optimize=False)
    return name


def _check_size(steps: int, limit: int, option: str, what: str) -> None:
    """Refuse an export longer than its cap, saying what to do instead."""
    if steps > limit:
        raise RenderError(
            f"this trace has {steps:,} steps, more than ev.options.{option} = {limit:,} for {what}; "
            "search with a depth limit or a smaller tree, or raise the option"
        )


def _palette(samples: list[Any]) -> tuple[Any, list[int]]:
    """A GIF palette: the 256 commonest colours of sample frames, which hold every flat colour of a diagram.

    Returns:
        The palette image Pillow matches pixels against, and the colours to show (as ``putpalette`` takes them).
        Pillow matches a pixel by the lowest corner of its box of 4 x 4 x 4 colours, so pure white could come
        out near-white: matching against the colours rounded down to that grid, then showing the true ones,
        keeps every flat colour exact.
    """
    from PIL import Image

    counts: Counter[tuple[int, ...]] = Counter()
    for sample in samples:
        for count, colour in sample.getcolors(sample.width * sample.height):
            counts[colour] += count
    chosen: dict[tuple[int, ...], tuple[int, ...]] = {}
    for colour, _ in counts.most_common():
        chosen.setdefault(tuple(value & ~3 for value in colour), colour)
        if len(chosen) == 256:
            break
    match = Image.new("P", (1, 1))
    match.putpalette([value for key in chosen for value in key])
    return match, [value for colour in chosen.values() for value in colour]


def render_file(
    result: Drawable, output: PathLike, *, step: int | None = None, scale: float = PNG_SCALE, **options: Any
) -> str:
    """``expectviz render``: one diagram to .svg, .png or .pdf (by extension), as :meth:`Diagram.save` writes it."""
    name = os.fspath(output)
    ext = os.path.splitext(name)[1].lower()
    if ext not in FORMATS:
        raise RenderError(f"cannot render to {ext or 'a file without extension'!r}; use .svg, .png or .pdf")
    return draw(result, step, **options).save(name, scale=scale)


def animate_file(result: Result | Trace, output: PathLike, **options: Any) -> str:
    """``expectviz animate``: a player page (.html) or an animation (.gif), by extension."""
    name = os.fspath(output)
    ext = os.path.splitext(name)[1].lower()
    if ext in (".html", ".htm"):
        export_html(result, name, **options)
        return name
    if ext == ".gif":
        return export_gif(result, name, **options)
    raise RenderError(f"cannot animate to {ext or 'a file without extension'!r}; use .html or .gif")
