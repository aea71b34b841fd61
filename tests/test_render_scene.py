"""expectviz.render.scene: painting a whole trace step by step gives exactly the frames painted one by one."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import trees

import expectviz as ev
from expectviz.render.scene import Scene
from expectviz.tree import Node

INF = math.inf

SEARCHES: dict[str, Any] = {
    "minimax": ev.minimax,
    "alphabeta": ev.alphabeta,
    "expectiminimax": ev.expectiminimax,
    "star1": lambda t: ev.star1(t, bounds=(-INF, INF)),
    "star2": lambda t: ev.star2(t, bounds=(-INF, INF)),
}


def assert_incremental_equals_full(result: ev.Result, max_nodes: int | None) -> None:
    assert result.trace is not None
    scene = Scene(result.tree, result.trace, max_nodes)
    reference = Scene(result.tree, result.trace, max_nodes)
    steps = 0
    for paint, changed in scene.paint_steps():
        full = reference.paint(result.trace.frame(paint.step))
        assert paint.items == full.items, paint.step
        ringed = sum(look.ring for look in paint.items)
        assert ringed == (paint.step > 0) if max_nodes is None else ringed <= 1, paint.step  # the step's node
        assert (paint.caption, paint.explanation) == (full.caption, full.explanation)
        if changed is not None:
            assert all(0 <= k < len(scene.items) for k in changed)
        steps += 1
    assert steps == len(result.trace) + 1


@given(trees(chance=False, max_nodes=18), st.sampled_from(["minimax", "alphabeta"]), st.sampled_from([None, 5, 9]))
@settings(max_examples=60)
def test_incremental_paint_minimax_trees(tree: Node, algorithm: str, max_nodes: int | None) -> None:
    assert_incremental_equals_full(SEARCHES[algorithm](tree), max_nodes)


@given(
    trees(chance=True, regular=True, max_nodes=18),
    st.sampled_from(["expectiminimax", "star1", "star2"]),
    st.sampled_from([None, 5, 9]),
)
@settings(max_examples=60)
def test_incremental_paint_chance_trees(tree: Node, algorithm: str, max_nodes: int | None) -> None:
    assert_incremental_equals_full(SEARCHES[algorithm](tree), max_nodes)


@pytest.mark.parametrize("name", ["aima-fig-5.2", "coin-flip", "aima-star-exercise", "star2-beats-star1"])
def test_incremental_paint_textbook_trees(name: str) -> None:
    entry = ev.TEXTBOOK[name]
    for algorithm, search in SEARCHES.items():
        if algorithm in ("star1", "star2"):
            if entry.bounds is None:
                continue
            result = getattr(ev, algorithm)(entry.tree, bounds=entry.bounds)
        else:
            try:
                result = search(entry.tree)
            except ev.SearchError:
                continue
        for max_nodes in (None, 4):
            assert_incremental_equals_full(result, max_nodes)


def test_painting_a_deep_chain_is_linear() -> None:
    depth = 3_000
    text = "".join(f"{'max' if i % 2 == 0 else 'min'}(" for i in range(depth)) + "1" + ")" * depth
    result = ev.alphabeta(ev.parse(text))
    scene = Scene(result.tree, result.trace, 150)
    count = sum(1 for _ in scene.paint_steps())
    assert count == len(result.trace) + 1


def test_the_step_s_node_keeps_its_colour_under_the_ring() -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    scene = Scene(r.tree, r.trace, None)
    looks = {step: scene.paint(r.trace.frame(step)).items for step in (8, 9, 13)}  # type: ignore[union-attr]
    b, c = scene.index[(0,)], scene.index[(1,)]
    assert (looks[8][b].status, looks[8][b].ring) == ("active", False)  # step 8 is about B's last leaf
    assert (looks[9][b].status, looks[9][b].ring, looks[9][b].value) == ("done", True, "3")  # B's backup
    assert (looks[13][c].status, looks[13][c].ring, looks[13][c].value) == ("current", True, "\u2264 2")  # cutoff


def _star_results() -> list[ev.Result]:
    out = []
    for name in ("aima-star-exercise", "star2-beats-star1"):
        entry = ev.TEXTBOOK[name]
        out += [ev.star1(entry.tree, bounds=entry.bounds), ev.star2(entry.tree, bounds=entry.bounds)]
    return out


def assert_one_story_per_node(result: ev.Result) -> None:
    """Chance nodes show their running bounds L,U and no range; a child shows alpha_i, beta_i only when clipping
    changed its window."""
    assert result.trace is not None
    scene = Scene(result.tree, result.trace, None)
    for paint, _ in scene.paint_steps():
        for it, look in zip(scene.items, paint.items, strict=True):
            if it.kind == "chance":
                assert not any(line.startswith("range") for line in look.lines), (paint.step, it.path, look.lines)
            windows = [line.split(" ", 1)[1] for line in look.lines if line.startswith("\u03b1")]
            assert len(windows) == len(set(windows)), (paint.step, it.path, look.lines)


@pytest.mark.parametrize("result", _star_results(), ids=lambda r: r.algorithm)
def test_star_nodes_show_one_coherent_story(result: ev.Result) -> None:
    assert_one_story_per_node(result)
    last = Scene(result.tree, result.trace, None).paint(result.trace.frame(-1))  # type: ignore[union-attr]
    assert any(line.startswith("\u03b1\u1d62\u03b2\u1d62") for look in last.items for line in look.lines)


@given(trees(chance=True, regular=True, max_nodes=14), st.sampled_from(["star1", "star2"]))
@settings(max_examples=40)
def test_star_nodes_show_one_coherent_story_on_random_trees(tree: Node, algorithm: str) -> None:
    assert_one_story_per_node(SEARCHES[algorithm](tree))


def test_static_evaluations_are_found_at_the_depth_limit() -> None:
    tree = ev.parse("max(min [4] (3, 12, 8), min [1] (max [2] (2, 5), 4, 6))")
    for depth, found in ((None, None), (1, 1), (2, 2), (3, None)):
        r = ev.minimax(tree, depth=depth)
        scene = Scene(r.tree, r.trace, None)
        assert scene.static_depth == found, depth
    r = ev.minimax(tree, depth=1)
    scene = Scene(r.tree, r.trace, None)
    end = scene.paint(r.trace.frame(-1))  # type: ignore[union-attr]
    assert [end.items[scene.index[p]].value for p in ((), (0,), (1,))] == ["4", "[4]", "[1]"]
    assert [look.value for look in Scene(tree, None, None).paint(None).items if look.value] == ["[4]", "[1]", "[2]"]
