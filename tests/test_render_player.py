"""The player and comparison widgets, tested in Python (no browser), and a Result's Jupyter display.

What the browser does with the widget's data is tested in test_browser_export.py (the exported page runs
the same front end) and test_jupyterlab.py.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from typing import Any

import pytest

import expectviz as ev
from expectviz.render import player as player_module
from expectviz.render.diagram import renderer_for
from expectviz.render.packed import STACK_ROWS, ViewPacker, unpack_frames
from expectviz.render.player import align_steps, compare, play, result_mimebundle

pytest.importorskip("anywidget")
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
WIDGET = "application/vnd.jupyter.widget-view+json"


def svgs(view: dict[str, Any]) -> list[str]:
    return unpack_frames(view["pieces"], view["frames"])


def test_import_expectviz_stays_light() -> None:
    code = (
        "import sys, expectviz as ev; ev.alphabeta(ev.textbook('aima-fig-5.2'));"
        "import expectviz.render.player, expectviz.render.packed, expectviz.render.export;"
        "print(sorted(m for m in ('ipywidgets', 'anywidget', 'graphviz', 'matplotlib') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@needs_dot
def test_step_is_a_synced_trait() -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    p = play(r)
    assert repr(p) == "Player(algorithm='alphabeta', steps=23)"
    assert p.step == 0 and p.steps == 23 and p.cutoffs == [13] and p.interval == 700
    assert {"step", "steps", "views", "cutoffs", "interval", "follow"} <= set(p.keys)  # synced with the browser
    p.step = 13
    assert p.frame.step == 13 and p.frame.node((1, 1)).status == "pruned"
    p.step = 99
    assert p.step == 23
    p.step = -4
    assert p.step == 0
    p.next_cutoff()
    assert p.step == 13
    p.next_cutoff()
    assert p.step == 13
    assert play(r, step=-1).step == 23 and play(r, step=5, interval=300).interval == 300


@needs_dot
def test_the_views_are_the_drawers_frames() -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    assert r.trace is not None
    (view,) = play(r).views
    renderer = renderer_for(r.trace)
    assert svgs(view) == [renderer.svg(k) for k in range(24)]
    assert view["texts"][13].startswith("Step 13. C is a MIN node") and "2 ≤ α = 3" in view["texts"][13]
    assert view["stats"] == [11, 7, 1] and view["visited"][-1] == 11 and view["windowed"] and not view["star"]
    rows = [view["rows"][i] for i in view["stacks"][13]]
    assert rows == [[0, "A", "MAX", "[−∞, +∞]", "3", ""], [1, "C", "MIN", "[3, +∞]", "2", ""]]
    assert view["depths"][13] == 2 and view["stacks"][0] == []


@needs_dot
def test_star_stack_shows_bounds() -> None:
    (view,) = play(ev.star1(ev.textbook("aima-star-exercise"), bounds=(-2, 2))).views
    extras = " ".join(row[5] for row in view["rows"])
    assert view["star"] and "L,U [" in extras and "\u03b1\u1d62\u03b2\u1d62" in extras


def test_deep_stacks_show_the_innermost_calls() -> None:
    deep = "max(" * 60 + "1" + ")" * 60
    trace = ev.minimax(deep).trace
    assert trace is not None
    renderer = renderer_for(trace, max_nodes=20)
    view = ViewPacker(trace, renderer.scene, renderer.drawer, chunk_steps=None).view()
    deepest = max(range(len(trace) + 1), key=lambda k: view["depths"][k])
    assert view["depths"][deepest] == 61 and len(view["stacks"][deepest]) == STACK_ROWS
    assert view["rows"][view["stacks"][deepest][0]][0] == 61 - STACK_ROWS  # the innermost 40, with their depth


@needs_dot
def test_long_traces_come_in_chunks_that_stand_alone() -> None:
    from expectviz.games.random_trees import uniform_tree

    r = ev.minimax(uniform_tree(3, 4, seed=1))
    trace = r.trace
    assert trace is not None and len(trace) == 242
    p = ev.render.player.Player(r, chunk_steps=100, max_nodes=40)
    renderer = renderer_for(trace, max_nodes=40)
    (first,) = p.views
    assert first["chunk"] == 100 and first["start"] == 0 and len(first["frames"]) == 100
    sent: list[dict[str, Any]] = []
    p.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    for index in (2, 1, 0, 2):  # ahead, back, and again: each chunk is whole on its own
        p._on_message(p, {"type": "chunk", "view": 0, "index": index}, [])
        reply = sent.pop()
        data = reply["data"]
        assert reply["type"] == "chunk" and reply["index"] == index and data["start"] == 100 * index
        frames = svgs(data)
        assert len(frames) == min(100, len(trace) + 1 - data["start"])
        for i in (0, len(frames) // 2, len(frames) - 1):
            assert frames[i] == renderer.svg(data["start"] + i), (index, i)
        assert data["texts"][0] == f"Step {data['start']}. {trace.frame(data['start']).explanation}"
    p._on_message(p, {"type": "chunk", "view": 0, "index": 3}, [])
    assert sent.pop()["type"] == "error"
    p._on_message(p, {"type": "chunk", "view": "x", "index": 0}, [])
    assert sent.pop()["type"] == "error"
    late = ev.render.player.Player(r, chunk_steps=100, max_nodes=40, step=230)
    assert late.views[0]["start"] == 200  # the first chunk sent is the one shown first


@needs_dot
def test_predict_hides_leaves_until_evaluated() -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    (view,) = play(r, predict=True).views
    frames = svgs(view)
    leaf_3 = ">3</text>"
    assert leaf_3 not in frames[0] and frames[0].count(">?</text>") == 9
    assert frames[4].count(">?</text>") == 8  # b1 = 3 evaluated at step 4
    assert frames[-1].count(">?</text>") == 2  # c2 and c3 were pruned: never looked at
    assert play(r, predict=True, step=-1)._repr_mimebundle_()[0]["image/svg+xml"].count(">?</text>") == 2


@needs_dot
def test_result_mimebundle() -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    bundle = result_mimebundle(r)
    assert set(bundle) == {WIDGET, "image/svg+xml", "text/plain"}
    assert bundle["text/plain"] == repr(r)
    assert "alphabeta: step 23 of 23" in bundle["image/svg+xml"]
    assert r._repr_mimebundle_().keys() == bundle.keys()
    untraced = ev.alphabeta(ev.textbook("aima-fig-5.2"), trace=False)
    assert set(result_mimebundle(untraced)) == {"image/svg+xml", "text/plain"}


@needs_dot
def test_result_mimebundle_above_max_display_steps() -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    try:
        ev.options.max_display_steps = 10
        bundle = result_mimebundle(r)
    finally:
        ev.options.reset()
    assert WIDGET not in bundle and "more than ev.options.max_display_steps" in bundle["text/html"]


def test_result_mimebundle_without_dot(monkeypatch: pytest.MonkeyPatch) -> None:
    from expectviz.render import diagram

    r = ev.alphabeta(ev.parse("max(min(1, 2), min(0, 5))"))

    def missing(*args: object, **kwargs: object) -> object:
        from expectviz.render.layout import GraphvizNotFoundError

        raise GraphvizNotFoundError("no dot")

    monkeypatch.setattr(diagram, "layout", missing)
    assert result_mimebundle(r) == {"text/plain": repr(r)}


@needs_dot
def test_result_mimebundle_without_anywidget(monkeypatch: pytest.MonkeyPatch) -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))

    def no_widgets(*args: object, **kwargs: object) -> object:
        raise ImportError("No module named 'anywidget'")

    monkeypatch.setattr(player_module, "play", no_widgets)
    assert set(result_mimebundle(r)) == {"image/svg+xml", "text/plain"}


@needs_dot
def test_player_mimebundle_has_a_static_fallback() -> None:
    p = play(ev.expectiminimax("coin-flip"), step=-1)
    data, _ = p._repr_mimebundle_()
    assert set(data) >= {WIDGET, "image/svg+xml", "text/plain"}
    assert data["text/plain"] == "Player(algorithm='expectiminimax', steps=14)"
    assert "expectiminimax: step 14 of 14" in data["image/svg+xml"]


def test_align_steps() -> None:
    tree = ev.textbook("aima-fig-5.2")
    m, a = ev.minimax(tree).trace, ev.alphabeta(tree).trace
    assert m is not None and a is not None
    steps = align_steps(a, m)
    assert len(steps) == len(a) + 1 and steps[0] == 0 and steps[-1] == len(m)
    assert steps == sorted(steps)
    # At alpha-beta's cutoff at C (step 13) minimax searches c2 and c3, and waits to back up C.
    backup_c = next(i for i, e in enumerate(m) if e.kind == "backup" and e.path == (1,))
    assert steps[13] == backup_c and steps[14] == backup_c + 1
    assert align_steps(m, m) == [*range(len(m)), len(m)]


@needs_dot
def test_compare_is_the_player_with_two_views_on_one_layout() -> None:
    tree = ev.textbook("aima-fig-5.2")
    c = compare(ev.alphabeta(tree), ev.minimax(tree))
    assert isinstance(c, ev.render.player.Player)
    assert repr(c) == "Compare('alphabeta': 23 steps, 'minimax': 26 steps)"
    assert c.steps == 23 and c.follow == c.mapping and c.cutoffs == [13]
    c.step = 13
    assert c.pair == (13, c.mapping[13])
    left, right = c.views
    assert (left["title"], right["title"]) == ("alphabeta", "minimax")
    assert (left["stats"][0], right["stats"][0]) == (11, 13)
    assert "step 13 of 23" in svgs(left)[13]
    assert f"step {c.mapping[13]} of 26" in svgs(right)[c.mapping[13]]
    data, _ = c._repr_mimebundle_()  # a saved notebook shows both diagrams without the kernel
    assert data["text/plain"] == repr(c) and "step 13 of 23" in data["image/svg+xml"]
    assert data["text/html"].count("<svg") == 2 and f"step {c.mapping[13]} of 26" in data["text/html"]
    with pytest.raises(ValueError):
        compare(ev.alphabeta(tree), ev.minimax("max(1, 2)"))


@needs_dot
def test_compare_lines_the_trees_up() -> None:
    """Each node sits at the same place in both views, even where each search alone would draw others."""
    import re

    from expectviz.games.random_trees import uniform_tree

    tree = uniform_tree(3, 5, seed=2)  # 364 nodes: more than max_nodes, so each search keeps its own
    a, m = ev.alphabeta(tree), ev.minimax(tree)
    c = compare(a, m, max_nodes=60)
    left, right = (svgs(view)[-1] for view in c.views)

    def places(svg: str) -> dict[str, str]:
        return dict(
            re.findall(
                r'<g data-node="(n\d+)"><title>[^<]*</title>(?:<circle[^>]*/>)?<(?:polygon|rect|circle)'
                r' ([^>]*?(?:points|x|cx)="[^"]*")',
                svg,
            )
        )

    assert places(left) == places(right) and len(places(left)) > 60


@needs_dot
def test_compare_cutoffs_of_either_search() -> None:
    tree = ev.textbook("aima-fig-5.2")
    c = compare(ev.minimax(tree), ev.alphabeta(tree))
    assert c.cutoffs and all(c.follow[k] >= 13 for k in c.cutoffs)


@needs_dot
def test_untraced_result_cannot_play() -> None:
    with pytest.raises(ValueError):
        play(ev.alphabeta(ev.textbook("aima-fig-5.2"), trace=False))
