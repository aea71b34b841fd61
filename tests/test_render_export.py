"""Exports: the offline player page, the GIF, and the files the CLI writes (need Graphviz's dot).

The GIF, PNG and PDF also need CairoSVG (see tests/test_render_raster.py for what they show).
"""

from __future__ import annotations

import importlib.util
import io
import json
import re
import shutil
from pathlib import Path

import pytest

import expectviz as ev
from expectviz.render import RenderError
from expectviz.render.export import animate_file, export_html, render_file, unpack_frames

pytestmark = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
needs_cairosvg = pytest.mark.skipif(importlib.util.find_spec("cairosvg") is None, reason="CairoSVG is not installed")


def test_html_embeds_every_frame_offline(tmp_path: Path) -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    page = export_html(r, tmp_path / "p.html")
    assert (tmp_path / "p.html").read_text(encoding="utf-8") == page
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "") and "https://" not in page
    data = json.loads(re.search(r'<script id="frames" type="application/json">(.*?)</script>', page, re.S)[1])  # type: ignore[index]
    assert len(data["frames"]) == len(data["texts"]) == 24 and data["cutoffs"] == [13]
    assert data["texts"][13].startswith("Step 13. C is a MIN node")
    frames = unpack_frames(data["pieces"], data["frames"])
    assert frames[13].startswith("<svg") and frames[13].endswith("</svg>") and "\u2702" in frames[13]


@needs_cairosvg
def test_gif_and_cli_files(tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    from PIL import Image

    r = ev.expectiminimax("coin-flip")
    path = animate_file(r, tmp_path / "a.gif")
    with Image.open(path) as image:
        assert image.n_frames == len(r.trace) + 1  # type: ignore[arg-type]
    assert animate_file(r, tmp_path / "a.html").endswith("a.html")
    assert Path(render_file(r, tmp_path / "d.pdf", step=3)).read_bytes().startswith(b"%PDF")
    with pytest.raises(RenderError):
        render_file(r, tmp_path / "d.bmp")
    with pytest.raises(RenderError):
        animate_file(r, tmp_path / "d.svg")


def test_html_frames_are_packed_compactly(tmp_path: Path) -> None:
    """A 100-step trace of a 40-node tree fits in 300 KB: pieces stored once, frames as changes."""
    from expectviz.games.random_trees import chance_tree
    from expectviz.render.diagram import renderer_for
    from expectviz.render.export import pack_steps, unpack_frames

    tree = chance_tree(3, 3, 3, seed=0, pattern=("max", "chance", "min"))
    nodes = sum(1 for _ in ev.walk(tree))
    result = ev.star2(tree, bounds=(-10, 10))
    assert result.trace is not None
    assert 25 <= nodes <= 45 and len(result.trace) >= 100, (nodes, len(result.trace))
    page = tmp_path / "trace.html"
    ev.export_html(result, page)
    assert page.stat().st_size <= 300_000

    renderer = renderer_for(result.trace)
    frames = unpack_frames(*pack_steps(renderer.drawer, renderer.scene.paint_steps()))
    assert len(frames) == len(result.trace) + 1
    for k in (0, 1, len(frames) // 2, len(frames) - 1):
        assert frames[k] == renderer.drawer.svg(renderer.scene.paint(result.trace.frame(k))), k


def test_exports_over_their_cap_stop_with_a_clear_message(tmp_path: Path) -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    ev.options.max_export_steps = 10
    ev.options.max_gif_frames = 10
    try:
        with pytest.raises(RenderError, match=r"23 steps, more than ev.options.max_export_steps = 10"):
            export_html(r)
        with pytest.raises(RenderError, match=r"max_gif_frames = 10 for a GIF"):
            ev.export_gif(r, tmp_path / "a.gif")
    finally:
        ev.options.reset()
    assert export_html(r).startswith("<!DOCTYPE html>")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_long_export_shows_progress_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from expectviz.render.progress import SHOW_FROM

    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    tree = ev.parse("max(" + ", ".join(f"min({i}, {i + 1}, {i + 2})" for i in range(SHOW_FROM // 8)) + ")")
    r = ev.minimax(tree)
    assert r.trace is not None and len(r.trace) >= SHOW_FROM
    export_html(r)
    shown = terminal.getvalue()
    assert shown.startswith("\r[") and f"{len(r.trace) + 1:,} of {len(r.trace) + 1:,} steps drawn\n" in shown
    quiet = _Terminal()
    monkeypatch.setattr("sys.stderr", quiet)
    export_html(ev.alphabeta(ev.textbook("aima-fig-5.2")))  # short work shows nothing
    assert quiet.getvalue() == ""


def test_drawing_and_exporting_a_10000_level_chain_stay_linear() -> None:
    """Per step, the page's call-stack panel and the diagram look only at the innermost calls: quadratic work here
    takes minutes, linear work about a second (the cap only catches the former)."""
    from strategies import time_limit

    depth = 10_000
    chain = ev.parse("".join(f"{'max' if i % 2 == 0 else 'min'}(" for i in range(depth)) + "1" + ")" * depth)
    r = ev.alphabeta(chain)
    with time_limit(60, "drawing and exporting a 10,000-level chain"):
        assert ev.draw(r).svg.startswith("<svg")
        page = export_html(r)
    assert page.startswith("<!DOCTYPE html>") and f"{len(r.trace or ())} steps" in page
