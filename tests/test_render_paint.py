"""What the drawer draws at each step, as readable text compared with golden files (no Graphviz needed).

Each item's look at a step (status, value, annotation lines, edge, cutoff mark) comes from
:meth:`Scene.paint`; the SVG, and the PNG, PDF and GIF made from it, only format it.  Rewrite the golden
files after a deliberate change with ``EXPECTVIZ_UPDATE_GOLDEN=1 pytest tests/test_render_paint.py`` and read
the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import expectviz as ev
from expectviz.render.scene import Paint, Scene

GOLDEN = Path(__file__).parent / "golden" / "render"
UPDATE = os.environ.get("EXPECTVIZ_UPDATE_GOLDEN") == "1"

CASES = [
    ("aima-fig-5.2", "minimax"),
    ("aima-fig-5.2", "alphabeta"),
    ("coin-flip", "expectiminimax"),
]
STEPS = (0, 9, 13, -1)


def _run(name: str, algorithm: str) -> ev.Result:
    result: ev.Result = ev.ALGORITHMS[algorithm](ev.textbook(name))  # type: ignore[operator]
    return result


def dump(scene: Scene, paint: Paint) -> str:
    """One line per drawn item: id, kind, path, name and edge label, then its look at this step."""
    lines = [f"caption: {paint.caption}"]
    for it, look in zip(scene.items, paint.items, strict=True):
        path = ".".join(map(str, it.path)) or "root"
        label = " ".join(
            part for part in (it.name, f"'{it.edge_label}'" if it.edge_label else "", it.leaf_text) if part
        )
        look_text = [look.status]
        if look.value:
            look_text.append(f"value {look.value}")
        if it.parent >= 0:
            look_text.append(f"edge {look.edge}" + (" \u2702" if look.cut_mark else ""))
        shown = [line for line in look.lines if line]
        if shown:
            look_text.append("lines " + " | ".join(shown))
        lines.append(f"{it.id:<4} {it.kind:<6} {path:<6} {label:<14} {', '.join(look_text)}".rstrip())
    return "\n".join(lines) + "\n"


def check(text: str, filename: str) -> None:
    path = GOLDEN / filename
    if UPDATE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path}; create it with EXPECTVIZ_UPDATE_GOLDEN=1 and read it first"
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "algorithm"), CASES)
def test_frames_golden(name: str, algorithm: str) -> None:
    trace = _run(name, algorithm).trace
    assert trace is not None
    scene = Scene(trace.tree, trace, None)
    for step in STEPS:
        label = "final" if step == -1 else str(step)
        check(dump(scene, scene.paint(trace.frame(step))), f"{name}.{algorithm}.{label}.txt")


def test_bare_tree_golden() -> None:
    scene = Scene(ev.textbook("aima-fig-5.2"), None, None)
    check(dump(scene, scene.paint(None)), "aima-fig-5.2.tree.txt")


def test_incremental_paints_match_direct_ones() -> None:
    """The paints the GIF and the page are made from (``paint_steps``) are the paints of each frame."""
    for name, algorithm in CASES:
        trace = _run(name, algorithm).trace
        assert trace is not None
        scene = Scene(trace.tree, trace, None)
        steps = list(scene.paint_steps())
        assert len(steps) == len(trace) + 1
        for k, (paint, _) in enumerate(steps):
            assert dump(scene, paint) == dump(scene, scene.paint(trace.frame(k))), (name, algorithm, k)


def _cut_edges(result: ev.Result, step: int) -> list[str]:
    assert result.trace is not None
    scene = Scene(result.tree, result.trace, None)
    paint = scene.paint(result.trace.frame(step))
    return [scene.items[k].edge_label for k, look in enumerate(paint.items) if look.cut_mark]


def test_cutoff_marks_pruned_edges() -> None:
    r = _run("aima-fig-5.2", "alphabeta")
    assert _cut_edges(r, 13) == ["c2", "c3"]
    assert _cut_edges(r, 12) == []


def _all_lines(result: ev.Result) -> set[str]:
    assert result.trace is not None
    scene = Scene(result.tree, result.trace, None)
    return {line for paint, _ in scene.paint_steps() for look in paint.items for line in look.lines}


def test_minimax_has_no_windows() -> None:
    assert not any(line.startswith("\u03b1\u03b2 [") for line in _all_lines(_run("aima-fig-5.2", "minimax")))
    assert "\u03b1\u03b2 [3, +\u221e]" in _all_lines(_run("aima-fig-5.2", "alphabeta"))


def test_star_annotations() -> None:
    star1 = _all_lines(ev.star1(ev.textbook("aima-star-exercise"), bounds=(-2, 2)))
    assert any(line.startswith("L,U [") for line in star1)
    assert any(line.startswith("\u03b1\u1d62\u03b2\u1d62 [") for line in star1)
    star2 = _all_lines(ev.star2(ev.textbook("star2-beats-star1"), bounds=(-2, 2)))
    assert any(line.startswith("probe ") for line in star2)
