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
