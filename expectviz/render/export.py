"""Files from a search: one diagram (.svg/.png/.pdf), a player page (.html) or an animation (.gif).

:func:`export_html` writes a single page that works from disk with no network
and no kernel: every frame's SVG (drawn on one layout) and sentence are
embedded as JSON, with a small script for play/pause, speed, first/previous/
next/last, "next cutoff", a step slider and the arrow keys.  Frames are stored
compactly: the SVG is a fixed list of slots (heading, then each drawn item's
stem, edge, cutoff mark and node), every distinct slot text is stored once,
and each step lists only the slots it changes, which the scene knows without
drawing the rest (so exporting costs time linear in the trace).

:func:`export_gif` renders every frame with Graphviz (one ``neato -n2`` run for
all frames, nodes pinned at the layout's positions) and joins them with Pillow.

:func:`render_file` and :func:`animate_file` are what ``expectviz render`` and
``expectviz animate`` call.
"""

from __future__ import annotations

import html
import io
import json
import os
from collections.abc import Iterable, Iterator
from typing import Any

from ..search import Result
from ..trace import Trace
from .diagram import FORMATS, Drawable, draw, renderer_for
from .dot import scene_dot
from .layout import GraphvizError, RenderError, run_graphviz
from .scene import DEFAULT_MAX_NODES, Paint
from .svg import Drawer

__all__ = ["export_html", "export_gif", "render_file", "animate_file"]

PathLike = str | os.PathLike[str]


def _trace(result: Result | Trace) -> Trace:
    trace = result.trace if isinstance(result, Result) else result
    if not isinstance(trace, Trace):
        raise RenderError("this result has no trace to animate: run the search with trace=True (the default)")
    return trace


def _json_for_script(data: Any) -> str:
    """JSON safe inside a <script> element (no ``</script>``, ``<!--`` or ``&`` can appear)."""
    return json.dumps(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def pack_steps(drawer: Drawer, paints: Iterable[tuple[Paint, set[int] | None]]) -> tuple[list[str], list[list[int]]]:
    """Store a whole trace's SVG compactly: each distinct piece once, and per step only the slots it changes.

    ``frames[0]`` lists the piece of every slot of :meth:`Drawer.parts` for step 0; each later
    ``frames[k]`` is a flat list ``[slot, piece, slot, piece, ...]`` of the slots step k changes.
    :func:`unpack_frames` (and the page's script) rebuild any frame from these.
    """
    table: dict[str, int] = {}
    frames: list[list[int]] = []
    current: list[int] = []
    for paint, changed in paints:
        if changed is None:
            current = [table.setdefault(part, len(table)) for part in drawer.parts(paint)]
            frames.append(list(current))
            continue
        ops: list[int] = []
        for slot, part in sorted(drawer.changed_parts(paint, changed).items()):
            piece = table.setdefault(part, len(table))
            if current[slot] != piece:
                current[slot] = piece
                ops.extend((slot, piece))
        frames.append(ops)
    return list(table), frames


def unpack_frames(pieces: list[str], frames: list[list[int]]) -> list[str]:
    """The SVG of every frame, from :func:`pack_steps`' output (what the page's script does)."""
    out: list[str] = []
    state: list[int] = []
    for k, ops in enumerate(frames):
        if k == 0:
            state = list(ops)
        else:
            for j in range(0, len(ops), 2):
                state[ops[j]] = ops[j + 1]
        out.append("".join(pieces[i] for i in state))
    return out


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: Helvetica, Arial, sans-serif; margin: 1em; color: #111; }}
#controls {{ display: flex; flex-wrap: wrap; gap: .4em; align-items: center; margin-bottom: .5em; }}
#controls button {{ min-width: 2.5em; padding: .25em .6em; }}
#step {{ width: 22em; }}
#explanation {{ min-height: 3em; max-width: 60em; margin: .4em 0; }}
#diagram svg {{ max-width: 100%; height: auto; }}
</style>
</head>
<body>
<h2>{title}</h2>
<div id="controls">
<button id="play" title="play / pause (space)">&#9654; Play</button>
<button id="first" title="first step (Home)">&#124;&#9664;</button>
<button id="prev" title="previous step (left arrow)">&#9664;</button>
<input id="step" type="range" min="0" max="{last}" value="{start}" aria-label="step">
<button id="next" title="next step (right arrow)">&#9654;</button>
<button id="last" title="last step (End)">&#9654;&#124;</button>
<button id="cutoff" title="next cutoff (c)">next cutoff &#9986;</button>
<label>ms/step <input id="speed" type="number" min="50" max="5000" step="50" value="{interval}"></label>
<span id="counter"></span>
</div>
<div id="explanation" aria-live="polite"></div>
<div id="diagram"></div>
<script id="frames" type="application/json">{frames}</script>
<script>
(function () {{
  "use strict";
  var data = JSON.parse(document.getElementById("frames").textContent);
  var pieces = data.pieces, texts = data.texts, cutoffs = data.cutoffs, frames = data.frames;
  var last = texts.length - 1;
  // Frame 0 lists every slot's piece; each later frame the [slot, piece] pairs its step changes.  One pass
  // records what each change replaced, so stepping backwards undoes changes instead of starting over.
  var state = frames[0].slice(), shownStep = 0, undo = [null], walk = frames[0].slice();
  for (var k = 1; k <= last; k++) {{
    var ops = frames[k], old = [];
    for (var j = 0; j < ops.length; j += 2) {{ old.push(walk[ops[j]]); walk[ops[j]] = ops[j + 1]; }}
    undo.push(old);
  }}
  function moveTo(k) {{
    while (shownStep < k) {{
      shownStep++;
      var ops = frames[shownStep];
      for (var j = 0; j < ops.length; j += 2) state[ops[j]] = ops[j + 1];
    }}
    while (shownStep > k) {{
      var ops = frames[shownStep], old = undo[shownStep];
      for (var j = 0; j < ops.length; j += 2) state[ops[j]] = old[j / 2];
      shownStep--;
    }}
  }}
  function svgOf(k) {{ moveTo(k); return state.map(function (i) {{ return pieces[i]; }}).join(""); }}
  var slider = document.getElementById("step"), diagram = document.getElementById("diagram");
  var explanation = document.getElementById("explanation"), counter = document.getElementById("counter");
  var playButton = document.getElementById("play"), speed = document.getElementById("speed");
  var timer = null;
  function show(k) {{
    k = Math.max(0, Math.min(last, k));
    slider.value = k;
    diagram.innerHTML = svgOf(k);
    explanation.textContent = texts[k];
    counter.textContent = "step " + k + " of " + last;
  }}
  function step() {{ return parseInt(slider.value, 10); }}
  function stop() {{
    if (timer !== null) {{ clearInterval(timer); timer = null; }}
    playButton.innerHTML = "&#9654; Play";
  }}
  function start() {{
    if (step() >= last) show(0);
    playButton.innerHTML = "&#10074;&#10074; Pause";
    timer = setInterval(function () {{ if (step() >= last) stop(); else show(step() + 1); }},
                        Math.max(50, parseInt(speed.value, 10) || {interval}));
  }}
  function nextCutoff() {{
    for (var i = 0; i < cutoffs.length; i++) {{ if (cutoffs[i] > step()) {{ show(cutoffs[i]); return; }} }}
  }}
  playButton.onclick = function () {{ if (timer === null) start(); else stop(); }};
  speed.onchange = function () {{ if (timer !== null) {{ stop(); start(); }} }};
  document.getElementById("first").onclick = function () {{ stop(); show(0); }};
  document.getElementById("prev").onclick = function () {{ stop(); show(step() - 1); }};
  document.getElementById("next").onclick = function () {{ stop(); show(step() + 1); }};
  document.getElementById("last").onclick = function () {{ stop(); show(last); }};
  document.getElementById("cutoff").onclick = function () {{ stop(); nextCutoff(); }};
  slider.oninput = function () {{ stop(); show(step()); }};
  document.addEventListener("keydown", function (e) {{
    if (e.target === speed) return;
    if (e.key === "ArrowRight") {{ stop(); show(step() + 1); e.preventDefault(); }}
    else if (e.key === "ArrowLeft") {{ stop(); show(step() - 1); e.preventDefault(); }}
    else if (e.key === "Home") {{ stop(); show(0); e.preventDefault(); }}
    else if (e.key === "End") {{ stop(); show(last); e.preventDefault(); }}
    else if (e.key === " ") {{ playButton.onclick(); e.preventDefault(); }}
    else if (e.key === "c") {{ stop(); nextCutoff(); }}
  }});
  show({start});
}})();
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
) -> str:
    """A self-contained HTML player of a search: no network, no kernel needed.

    Args:
        result: a Result (searched with ``trace=True``) or its Trace.
        path: where to write the page; None only returns it.
        step: the step shown when the page opens.
        interval: milliseconds per step when playing.
        max_nodes: larger trees are drawn with collapsed subtrees.
        title: the page's heading (default: the algorithm and the step count).

    Returns:
        The HTML text.
    """
    trace = _trace(result)
    renderer = renderer_for(trace, max_nodes=max_nodes)
    texts: list[str] = []

    def paints() -> Iterator[tuple[Paint, set[int] | None]]:
        for paint, changed in renderer.scene.paint_steps():
            texts.append(f"Step {paint.step}. {paint.explanation}")
            yield paint, changed

    pieces, frames = pack_steps(renderer.drawer, paints())
    cutoffs = trace.steps("cutoff")
    heading = title if title is not None else f"{trace.algorithm}: {len(trace)} steps"
    page = _PAGE.format(
        title=html.escape(heading),
        last=len(trace),
        start=max(0, min(len(trace), step if step >= 0 else len(trace) + 1 + step)),
        interval=int(interval),
        frames=_json_for_script({"pieces": pieces, "frames": frames, "texts": texts, "cutoffs": cutoffs}),
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
    dpi: int = 72,
    loop: int = 0,
) -> str:
    """An animated GIF of a search, one frame per step (Graphviz renders, Pillow joins).

    Args:
        result: a Result (searched with ``trace=True``) or its Trace.
        path: the .gif file to write.
        interval: milliseconds per frame (the last frame is held three times as long).
        max_nodes: larger trees are drawn with collapsed subtrees.
        dpi: resolution of the frames.
        loop: how many times viewers repeat it (0: for ever).

    Returns:
        The path written.
    """
    from PIL import Image

    trace = _trace(result)
    renderer = renderer_for(trace, max_nodes=max_nodes)
    where = renderer.where
    source = "".join(
        scene_dot(renderer.scene, renderer.scene.paint(trace.frame(k)), where=where, legend=renderer.legend)
        for k in range(len(trace) + 1)
    )
    data = run_graphviz("neato", ["-n2", "-Tpng", f"-Gdpi={int(dpi)}"], source)
    images = []
    for chunk in data.split(b"\x89PNG\r\n\x1a\n")[1:]:
        with Image.open(io.BytesIO(b"\x89PNG\r\n\x1a\n" + chunk)) as image:
            images.append(image.convert("RGB"))
    if len(images) != len(trace) + 1:
        raise GraphvizError(f"neato rendered {len(images)} frames, expected {len(trace) + 1}")
    width = max(im.width for im in images)
    height = max(im.height for im in images)
    frames = []
    for im in images:
        canvas = Image.new("RGB", (width, height), "white")
        canvas.paste(im, (0, 0))
        frames.append(canvas.convert("P", palette=Image.Palette.ADAPTIVE, colors=128))
    durations = [int(interval)] * len(frames)
    durations[-1] = 3 * int(interval)
    name = os.fspath(path)
    frames[0].save(name, save_all=True, append_images=frames[1:], duration=durations, loop=loop, optimize=False)
    return name


def render_file(result: Drawable, output: PathLike, *, step: int | None = None, **options: Any) -> str:
    """``expectviz render``: one diagram to .svg, .png or .pdf (by extension)."""
    name = os.fspath(output)
    ext = os.path.splitext(name)[1].lower()
    if ext not in FORMATS:
        raise RenderError(f"cannot render to {ext or 'a file without extension'!r}; use .svg, .png or .pdf")
    return draw(result, step, **options).save(name)


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
