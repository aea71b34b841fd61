"""SVG diagrams: stable layout across frames, escaping, large trees, saving (needs Graphviz's dot)."""

from __future__ import annotations

import importlib.util
import math
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
from expectviz.render.diagram import renderer_for

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
            if child.get("data-ring"):
                continue  # the ring around the step's node comes first
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


@pytest.mark.skipif(importlib.util.find_spec("cairosvg") is None, reason="CairoSVG is not installed")
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


# ---------------------------------------------------------------- what a reader sees: text, lines, rings

Box = tuple[float, float, float, float]
"""x0, y0, x1, y1 in the SVG's user units."""

LESSON_06_TWO_PLY = "max A(a1: min B [4] (3, 12, 8), a2: min C [5] (2, 4, 6), a3: min D [3] (14, 5, 2))"
LESSON_06_DICE = """max A(
  a1: chance B [5] (min D [4] (max [6] (6, 1), max [3] (3, 2)), min E [6] (max [7] (7, 8), max [5] (5, 4))),
  a2: chance C [4] (min F [8] (max [9] (9, 9), max [8] (8, 7)), min G [1] (max [2] (2, 3), max [1] (0, 1))))"""
LESSON_06_HORIZON = """max A(
  grab: min B [3] (b1: max [3] (min [3] (3, 4), min [2] (2, 5)), b2: max [2] (min [-4] (-5, 4), min [-5] (-6, 3))),
  quiet: min C [1] (c1: max [1] (min [1] (1, 2), min [0] (0, 3)), c2: max [1] (min [1] (1, 1), min [0] (2, 0))))"""


def _searches() -> dict[str, ev.Result]:
    """The diagrams instructors show: the textbook figures, the Star exercises and lesson 06's depth limits."""
    horizon = ev.parse(LESSON_06_HORIZON)
    return {
        "fig-5.2 alphabeta": ev.alphabeta(ev.textbook("aima-fig-5.2")),
        "coin-flip": ev.expectiminimax("coin-flip"),
        "star1 exercise": ev.star1("aima-star-exercise", bounds=(-2, 2)),
        "star2": ev.star2("star2-beats-star1", bounds=(-2, 2)),
        "depth 1": ev.minimax(ev.parse("max(min [4] (3, 12, 8), min [1] (2, 4, 6))"), depth=1),
        "lesson 06 two-ply": ev.minimax(ev.parse(LESSON_06_TWO_PLY), depth=1),
        "lesson 06 dice": ev.expectiminimax(ev.parse(LESSON_06_DICE), depth=2),
        "lesson 06 horizon": ev.minimax(horizon, depth=2),
        "lesson 06 horizon, alpha-beta": ev.alphabeta(horizon, depth=3),
    }


class _Drawing:
    """The geometry of a drawn SVG, in document order: text boxes (generously wide), lines, rings, white boxes."""

    def __init__(self, svg: str) -> None:
        self.texts: list[tuple[int, Box, str]] = []
        self.lines: list[tuple[int, Box]] = []  # (x1, y1, x2, y2)
        self.rings: list[tuple[int, ET.Element, float, float]] = []
        self.covers: list[tuple[int, Box]] = []
        self.order = 0
        for child in ET.fromstring(svg):
            if child.tag == SVG + "g":  # the tree, then the legend (its own group, skipped)
                if self._is_legend(child):
                    continue
                self._walk(child, *_translation(child), 14.0)

    @staticmethod
    def _is_legend(group: ET.Element) -> bool:
        return any(t.text and t.text.startswith("MAX") for t in group.iter(SVG + "text"))

    def _walk(self, element: ET.Element, dx: float, dy: float, size: float) -> None:
        for child in element:
            self.order += 1
            tag = child.tag.removeprefix(SVG)
            cdx, cdy = _translation(child)
            x, y = dx + cdx, dy + cdy
            font = float(child.get("font-size", size))
            if tag == "text" and child.text:
                self.texts.append((self.order, _text_box(child, x, y, font), child.text))
            elif tag == "line":
                x1, y1, x2, y2 = (float(child.get(a, "0")) for a in ("x1", "y1", "x2", "y2"))
                self.lines.append((self.order, (x1 + x, y1 + y, x2 + x, y2 + y)))
            elif child.get("data-ring"):
                self.rings.append((self.order, child, x, y))
            elif tag in ("rect", "circle") and child.get("fill") == "#FFFFFF" and child.get("x", child.get("cx")):
                self.covers.append((self.order, _bounds(child, x, y)))
            self._walk(child, x, y, font)

    def clashes(self) -> list[str]:
        """Every text a line or ring crosses (unless a white box drawn over that line holds it), every two texts
        that overlap."""
        found = []
        for order, box, text in self.texts:
            held = [at for at, cover in self.covers if at < order and _inside(box, cover)]  # white boxes under it
            for at, line in self.lines:
                if _crosses(line, box) and not any(cover > at for cover in held):
                    found.append(f"a line {tuple(round(v) for v in line)} crosses {text!r}")
            for at, ring, x, y in self.rings:
                if _ring_cuts(ring, x, y, box) and not any(cover > at for cover in held):
                    found.append(f"the ring cuts {text!r}")
        for i, (_, a, text_a) in enumerate(self.texts):
            found.extend(f"{text_a!r} overlaps {text_b!r}" for _, b, text_b in self.texts[i + 1 :] if _overlap(a, b))
        return found


def _translation(element: ET.Element) -> tuple[float, float]:
    found = re.search(r"translate\(([-\d.]+),([-\d.]+)\)", element.get("transform", ""))
    return (float(found.group(1)), float(found.group(2))) if found else (0.0, 0.0)


def _text_box(text: ET.Element, dx: float, dy: float, size: float) -> Box:
    """Generous: 0.62 em a character (Helvetica's digits take 0.56), from above the capitals to under descenders."""
    width = 0.62 * size * len(text.text or "")
    x = float(text.get("x", "0")) + dx
    y = float(text.get("y", "0")) + dy
    left = {"start": x, "middle": x - width / 2, "end": x - width}[text.get("text-anchor", "start")]
    return (left, y - 0.8 * size, left + width, y + 0.25 * size)


def _bounds(shape: ET.Element, dx: float, dy: float) -> Box:
    if shape.tag == SVG + "circle":
        cx, cy, r = (float(shape.get(a, "0")) for a in ("cx", "cy", "r"))
        return (cx + dx - r, cy + dy - r, cx + dx + r, cy + dy + r)
    x, y, w, h = (float(shape.get(a, "0")) for a in ("x", "y", "width", "height"))
    return (x + dx, y + dy, x + dx + w, y + dy + h)


def _inside(inner: Box, outer: Box) -> bool:
    return inner[0] >= outer[0] and inner[1] >= outer[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crosses(line: Box, box: Box) -> bool:
    """Does the segment meet the box (Liang-Barsky clipping)?"""
    x1, y1, x2, y2 = line
    low, high = 0.0, 1.0
    for p, q in ((x1 - x2, x1 - box[0]), (x2 - x1, box[2] - x1), (y1 - y2, y1 - box[1]), (y2 - y1, box[3] - y1)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def _ring_cuts(ring: ET.Element, dx: float, dy: float, box: Box) -> bool:
    """Does the ring's stroke (3 units wide) meet the box?"""
    width = float(ring.get("stroke-width", "3"))
    if ring.tag == SVG + "circle":
        cx, cy, r = float(ring.get("cx", "0")) + dx, float(ring.get("cy", "0")) + dy, float(ring.get("r", "0"))
        near = math.hypot(max(box[0] - cx, 0, cx - box[2]), max(box[1] - cy, 0, cy - box[3]))
        far = max(math.hypot(x - cx, y - cy) for x in (box[0], box[2]) for y in (box[1], box[3]))
        return near <= r + width / 2 and far >= r - width / 2
    x0, y0, x1, y1 = _bounds(ring, dx, dy)
    outer = (x0 - width / 2, y0 - width / 2, x1 + width / 2, y1 + width / 2)
    inner = (x0 + width / 2, y0 + width / 2, x1 - width / 2, y1 - width / 2)
    return _overlap(box, outer) and not _inside(box, inner)


@pytest.mark.parametrize("name", list(_searches()))
def test_no_line_or_ring_crosses_text(name: str) -> None:
    result = _searches()[name]
    assert result.trace is not None
    for step in range(len(result.trace) + 1):
        drawing = _Drawing(draw(result, step).svg)
        assert drawing.texts and drawing.lines
        assert drawing.clashes() == [], (name, step)
    assert _Drawing(draw(result.tree).svg).clashes() == []


def test_the_clash_finder_finds_clashes() -> None:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg"><g transform="translate(0,10)">'
        '<line x1="0" y1="0" x2="100" y2="0"/><text x="10" y="4" font-size="11">[1.2, 2]</text>'
        '<line x1="0" y1="40" x2="100" y2="40"/><rect x="5" y="30" width="90" height="16" fill="#FFFFFF"/>'
        '<text x="10" y="42" font-size="11">hidden line</text>'
        '<circle data-ring="1" cx="50" cy="80" r="20" stroke-width="3"/><text x="30" y="64">cut</text></g></svg>'
    )
    found = _Drawing(svg).clashes()
    assert len(found) == 2 and "'[1.2, 2]'" in found[0] and "cut" in found[1]


def _ring_holder(svg: str) -> list[str]:
    """The data-node ids of the groups that hold a ring."""
    root = ET.fromstring(svg)
    return [g.get("data-node", "") for g in root.iter(SVG + "g") if any(c.get("data-ring") for c in g)]


def test_the_node_of_every_step_is_ringed() -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    assert r.trace is not None
    scene = renderer_for(r.trace).scene
    assert _ring_holder(draw(r, 0).svg) == []
    for step in range(1, len(r.trace) + 1):
        event = r.trace[step - 1]
        item = scene.items[scene.index[event.path]]
        svg = draw(r, step).svg
        assert _ring_holder(svg) == [item.id], (step, event)
        status = scene.paint(r.trace.frame(step)).items[scene.index[event.path]].status
        assert status == ("current" if event.kind in ("visit", "cutoff") else "done"), (step, event)
    backup_of_b = draw(r, 9).svg  # B is finished: blue, with the ring
    group = next(g for g in ET.fromstring(backup_of_b).iter(SVG + "g") if g.get("data-node") == "n1")
    assert any(c.get("fill") == "#56B4E9" for c in group)
    assert "this step's node" in (group.findtext(SVG + "title") or "")


def test_a_reused_move_is_ringed() -> None:
    r = ev.star2("star2-beats-star1", bounds=(-2, 2))
    assert r.trace is not None
    reuses = r.trace.steps("reuse")
    scene = renderer_for(r.trace).scene
    for step in reuses:
        event = r.trace[step - 1]
        assert _ring_holder(draw(r, step).svg) == [scene.items[scene.index[event.path + (0,)]].id]


def test_depth_limited_diagram_shows_static_evaluations_and_the_horizon() -> None:
    r = ev.minimax(ev.parse("max(min [4] (3, 12, 8), min [1] (2, 4, 6))"), depth=1)
    svg = draw(r).svg
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter(SVG + "text")]
    assert "[4]" in texts and "[1]" in texts and "4" in texts  # the root's value is backed up: no brackets
    horizon = [g for g in root.iter(SVG + "g") if g.get("data-horizon") == "1"]
    assert len(horizon) == 1
    line = horizon[0].find(SVG + "line")
    assert line is not None and line.get("stroke-dasharray")
    shapes = _shapes(svg)
    min_bottom = max(float(p.split(",")[1]) for p in re.findall(r"[\d.]+,[\d.]+", shapes["n1"]))
    leaf_top = float(re.search(r"'y', '([\d.]+)'", shapes["n2"]).group(1))  # type: ignore[union-attr]
    assert min_bottom < float(line.get("y1", "0")) < leaf_top  # between the evaluated MIN nodes and the leaves
    assert any("depth limit 1" in (t or "") for t in texts) and "[v]: static evaluation" in texts
    assert "[4]" not in draw(ev.minimax(r.tree)).svg  # a full search evaluates no inner node
    assert "[4]" in draw(r.tree).svg  # the bare tree shows its evaluations


def test_a_two_child_min_node_is_a_triangle() -> None:
    r = ev.star1("aima-star-exercise", bounds=(-2, 2))
    assert r.trace is not None
    scene = renderer_for(r.trace).scene
    for step in (0, 15, len(r.trace)):
        svg = draw(r, step).svg
        root = ET.fromstring(svg)
        lines = [tuple(float(line.get(a, "0")) for a in ("x1", "y1", "x2", "y2")) for line in root.iter(SVG + "line")]
        for k, it in enumerate(scene.items):
            if it.kind != "min":
                continue
            assert len([c for c in scene.items if c.parent == k]) == 2
            points = [tuple(map(float, p.split(","))) for p in re.findall(r"[-\d.]+,[-\d.]+", _shapes(svg)[it.id])]
            assert len(points) == 3
            (ax, ay), (bx, by), (tx, ty) = sorted(points, key=lambda p: (p[1], p[0]))
            assert ay == by and ty > ay and tx == (ax + bx) / 2  # a flat top and one tip below its middle
            height = ty - ay
            from_tip = [line for line in lines if (line[0], line[1]) == (tx, ty)]
            assert len(from_tip) == 2  # the two edges start at the tip: no stem under it
            assert all(line[3] - ty > 2 * height for line in from_tip)  # a long fan, no mirror image of the shape


def test_legend_names_only_the_kinds_of_node_drawn() -> None:
    def kinds(result: ev.Result) -> list[str]:
        texts = [t.text or "" for t in ET.fromstring(draw(result).svg).iter(SVG + "text")]
        return [t for t in texts if t in ("MAX", "MIN", "CHANCE", "leaf (utility)")]

    assert kinds(ev.expectiminimax("coin-flip")) == ["MAX", "CHANCE", "leaf (utility)"]  # no MIN node in it
    assert kinds(ev.minimax("aima-fig-5.2")) == ["MAX", "MIN", "leaf (utility)"]
    assert kinds(ev.expectiminimax("aima-fig-5.12-left")) == ["MAX", "MIN", "CHANCE", "leaf (utility)"]


def test_a_tooltip_says_no_more_than_the_search_knows() -> None:
    """An open node's hover text gives its value as the label does: a bound for MAX and MIN, a running sum for a
    chance node (1/2·10 after heads, before tails is seen), never as if it were the node's value."""

    def titles(result: ev.Result, step: int) -> list[str]:
        return [t.text or "" for t in ET.fromstring(draw(result, step).svg).iter(SVG + "title")]

    assert "left (CHANCE) at path 0: active, value 5 so far: the weighted sum of the outcomes searched" in titles(
        ev.expectiminimax("coin-flip"), 4
    )
    fig = titles(ev.alphabeta("aima-fig-5.2"), 13)
    assert "A (MAX): active, value \u2265 3 so far" in fig
    assert "C (MIN) at path 1: current, value \u2264 2 so far" in fig
    assert "B (MIN) at path 0: done, value 3" in fig


def test_legend_names_its_colours_and_keeps_small_trees_small() -> None:
    star = draw(ev.star1("aima-star-exercise", bounds=(-2, 2)), 15).svg
    texts = [t.text or "" for t in ET.fromstring(star).iter(SVG + "text")]
    for words in ("red-orange ring", "orange: ", "yellow: ", "blue: ", "grey, dashed: ", "white: "):
        assert any(t.startswith(words) for t in texts), words
    assert "thick red-orange line: the call stack" in texts
    assert "\u03b1\u1d62\u03b2\u1d62 (before clipping): chance child's window" in texts
    assert not any("red" in t and "red-orange" not in t for t in texts)
    wide = renderer_for(ev.alphabeta(ev.textbook("aima-fig-5.2")).trace)  # type: ignore[arg-type]
    assert wide.drawer.width == wide.where.width  # the legend wraps under the tree
    small = ev.minimax(ev.parse("max(1, 2)"))
    renderer = renderer_for(small.trace)  # type: ignore[arg-type]
    assert renderer.where.width < 200 and renderer.drawer.width < 480  # one column beside a small tree
    drawn = re.search(r'width="([\d.]+)pt"', draw(small).svg)
    assert drawn is not None and float(drawn.group(1)) == pytest.approx(renderer.drawer.width, abs=0.05)
