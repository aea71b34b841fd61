"""SVG diagrams: stable layout across frames, escaping, large trees, saving (needs Graphviz's dot)."""

from __future__ import annotations

import re
import shutil
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import expectviz as ev
from expectviz.games.random_trees import uniform_tree
from expectviz.render import RenderError, StepRangeError, draw
from expectviz.render import layout as layout_module

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
pytestmark = needs_dot

SVG = "{http://www.w3.org/2000/svg}"


def _shapes(svg: str) -> dict[str, str]:
    """Each drawn node's shape element (its geometry and tag), by node id."""
    root = ET.fromstring(svg)
    found = {}
    for group in root.iter(SVG + "g"):
        node = group.get("data-node")
        if node is None:
            continue
        for child in group:
            if child.tag in (SVG + "polygon", SVG + "rect") or (
                child.tag == SVG + "circle" and child.get("fill") != "none"
            ):
                geometry = {
                    k: v for k, v in child.attrib.items() if k in ("points", "x", "y", "width", "cx", "cy", "r")
                }
                found[node] = f"{child.tag} {sorted(geometry.items())}"
                break
    return found


def test_layout_is_the_same_in_every_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    tree = ev.parse("max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2), min(1, 7))")  # a fresh tree: no cached layout
    r = ev.alphabeta(tree)
    assert r.trace is not None
    calls: list[Any] = []
    real = layout_module.lay_out
    monkeypatch.setattr(layout_module, "lay_out", lambda *a, **k: calls.append(a) or real(*a, **k))
    shapes = [_shapes(draw(r, k).svg) for k in (0, 5, 9, 13, len(r.trace))]
    assert len(calls) == 1  # dot ran once for all frames
    assert len(shapes[0]) == 16
    assert all(s == shapes[0] for s in shapes)


def test_svg_is_well_formed_and_shows_the_step() -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    svg = draw(r, 13).svg
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter(SVG + "text")]
    assert "alphabeta: step 13 of 23" in texts
    assert "\u2264 2" in texts and "\u03b1\u03b2 [3, +\u221e]" in texts and "range [\u2212\u221e, 2]" in texts
    assert texts.count("\u2702") == 2 + 1  # two pruned edges, one in the legend
    assert "#E69F00" in svg  # the current node (Okabe-Ito orange)
    assert 'stroke-dasharray="3 3"' in svg  # pruned nodes are dashed as well as grey


def test_escaping() -> None:
    tree = ev.parse('max "A</svg><script>x</script>"("m&\\"q": 1, "x<y": min "a\\\\b"(2, 3))')
    for item in (tree, ev.alphabeta(tree)):
        svg = draw(item).svg
        root = ET.fromstring(svg)  # well-formed
        assert not list(root.iter(SVG + "script")) and not list(root.iter("script"))
        texts = "".join(t.text or "" for t in root.iter(SVG + "text"))
        titles = "".join(t.text or "" for t in root.iter(SVG + "title"))
        assert 'm&"q' in texts and "x<y" in texts
        assert "A</svg><script>x</script>" in titles  # the full name, as text, in the tooltip
    html = ev.render.export_html(ev.alphabeta(tree))
    assert html.count("<script") == 2 and "</svg><script>x" not in html


def test_large_tree_collapses_quickly() -> None:
    tree = uniform_tree(3, 9, seed=1)  # 29,524 nodes
    r = ev.minimax(tree)
    start = time.perf_counter()
    d = draw(r)
    assert time.perf_counter() - start < 2.0
    assert repr(d) == f"Diagram(algorithm='minimax', step={len(r.trace)}, steps={len(r.trace)}, nodes=150)"  # type: ignore[arg-type]
    root = ET.fromstring(d.svg)
    hidden = [int(t.text[1:]) for t in root.iter(SVG + "text") if t.text and re.fullmatch(r"\+\d+", t.text)]
    assert sum(hidden) + 150 == 29524
    start = time.perf_counter()
    draw(tree, max_nodes=40)
    assert time.perf_counter() - start < 2.0


def test_max_nodes_none_draws_everything() -> None:
    tree = uniform_tree(2, 4, seed=3)
    assert repr(draw(tree, max_nodes=None)) == "Diagram(nodes=31)"
    with pytest.raises(RenderError):
        draw(tree, max_nodes=0)


def test_steps_and_errors() -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    assert draw(r).step == 23 and draw(r, -1).step == 23 and draw(r, 0).step == 0
    with pytest.raises(StepRangeError):
        draw(r, 24)
    with pytest.raises(RenderError):
        draw(r.tree, 3)
    with pytest.raises(RenderError):
        draw(r).save("x.jpg")


def test_save(tmp_path: Path) -> None:
    d = draw(ev.star1(ev.textbook("aima-star-exercise"), bounds=(-2, 2)), 20)
    for ext, magic in ((".svg", b"<svg"), (".png", b"\x89PNG"), (".pdf", b"%PDF")):
        path = tmp_path / f"d{ext}"
        d.save(path)
        assert path.read_bytes().startswith(magic)


def test_mimebundle_and_repr() -> None:
    d = draw(ev.expectiminimax("coin-flip"), 9)
    assert repr(d) == "Diagram(algorithm='expectiminimax', step=9, steps=14, nodes=7)"
    bundle = d._repr_mimebundle_()
    assert bundle["text/plain"] == repr(d) and bundle["image/svg+xml"].startswith("<svg")
    assert "0x" not in repr(d)
