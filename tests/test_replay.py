"""Replay at scale: frames as values (threads), the trace budget, Ctrl-C, deep chains, and what sentences claim."""

from __future__ import annotations

import math
import os
import re
import shutil
import signal
import sys
import threading
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import time_limit, trees, uniform_tree, walk_paths

import expectviz as ev
from expectviz.explain import say
from expectviz.tree import Node

INF = math.inf


def timed(work: Any) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def chain(depth: int) -> Node:
    return ev.parse("".join(f"{'max' if i % 2 == 0 else 'min'}(" for i in range(depth)) + "1" + ")" * depth)


# ---------------------------------------------------------------- frames are values


def snapshot(trace: ev.Trace, step: int) -> tuple[Any, ...]:
    frame = trace.frame(step)
    return frame.step, frame.event, tuple(frame.stack), frame.explanation, frame.nodes


def test_two_threads_get_the_same_frames() -> None:
    """Frames read an index built once under a lock: threads asking at once see what one thread sees."""
    tree = uniform_tree(3, 6, iter(range(3**6)))
    reference = ev.alphabeta(tree).trace
    assert reference is not None
    steps = list(range(0, len(reference) + 1, 3))
    expected = {k: snapshot(reference, k) for k in steps}
    shared = ev.alphabeta(tree).trace  # nothing built yet: the threads race to build the index
    assert shared is not None
    failures: list[str] = []

    def work(order: list[int]) -> None:
        try:
            for k in order:
                if snapshot(shared, k) != expected[k]:
                    failures.append(f"step {k} differs")
        except Exception as exc:  # noqa: BLE001 - reported below
            failures.append(repr(exc))

    threads = [threading.Thread(target=work, args=(steps[::-1] if i % 2 else steps,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_a_frame_stays_right_after_other_frames_are_asked_for() -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    assert r.trace is not None
    early = r.trace.frame(11)
    before = early.nodes
    for k in range(len(r.trace) + 1):
        assert r.trace.frame(k).nodes is not None
    assert early.nodes == before and early.node((1, 0)).status == "current"


def test_frame_stats_count_what_happened_so_far() -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    assert r.trace is not None
    assert r.trace.frame(0).stats == ev.Stats(0, 0, 0)
    assert r.trace.frame(13).stats == ev.Stats(7, 4, 1)
    assert r.trace.frame(-1).stats == r.stats


# ---------------------------------------------------------------- the budget


def test_a_search_over_budget_stops_with_a_clear_error() -> None:
    tree = uniform_tree(4, 6, iter(range(4**6)))
    with pytest.raises(ev.TraceBudgetError) as info:
        ev.minimax(tree, max_events=1_000)
    error = info.value
    assert isinstance(error, ev.ExpectvizError) and isinstance(error, ValueError)
    assert error.limit == 1_000 and 900 <= error.events <= 1_000 and error.nbytes > 0
    message = str(error)
    for words in ("events", "MB", "trace=False", "depth limit", "ev.options.max_events"):
        assert words in message, message
    # Nothing is left half-built: the same search works when it fits, and counting needs no budget.
    assert ev.minimax(tree, trace=False).stats.nodes_visited == sum(4**i for i in range(7))
    assert ev.minimax(tree).trace is not None


def test_the_budget_option_applies_to_every_algorithm() -> None:
    tree = uniform_tree(3, 5, iter(range(3**5)))
    ev.options.max_events = 50
    try:
        for search in (ev.minimax, ev.alphabeta, ev.expectiminimax):
            with pytest.raises(ev.TraceBudgetError):
                search(tree)
        with pytest.raises(ev.TraceBudgetError):
            ev.star1(tree, bounds=(-INF, INF))
        assert ev.minimax(tree, max_events=10_000).trace is not None  # the keyword wins over the option
    finally:
        ev.options.reset()
    assert ev.minimax(tree).trace is not None


@pytest.mark.parametrize("bad", [0, -1, 2.5, "many", True])
def test_bad_budgets_are_refused(bad: object) -> None:
    with pytest.raises(ev.SearchError, match="max_events"):
        ev.minimax("max(1, 2)", max_events=bad)  # type: ignore[arg-type]
    with pytest.raises(ev.OptionError, match="max_events"):
        ev.options.max_events = bad  # type: ignore[assignment]
    assert ev.options.max_events == 5_000_000


def test_a_budget_error_in_a_deep_search_leaves_the_process_clean() -> None:
    limit = sys.getrecursionlimit()
    with pytest.raises(ev.TraceBudgetError):
        ev.alphabeta(chain(5_000), max_events=3_000)
    assert sys.getrecursionlimit() == limit
    assert not [t for t in threading.enumerate() if t.name == "expectviz-deep"]


# ---------------------------------------------------------------- Ctrl-C


def test_ctrl_c_during_a_deep_search_leaves_the_process_clean() -> None:
    """A search deeper than the recursion limit runs with the limit raised (on Python 3.10 in a helper thread):
    Ctrl-C must stop it, leave no thread behind and put the limit back."""
    tree = uniform_tree(6, 7, iter(range(6**7)))
    for _ in range(400):  # deep enough for the helper thread
        tree = Node("max", children=(tree,))
    tree = ev.tree.check(tree)  # checked now, so the search starts at once
    limit = sys.getrecursionlimit()
    whole = min(timed(lambda: ev.minimax(tree)) for _ in range(2))
    deep_search_was_running: list[bool] = []

    def interrupt() -> None:
        deep_search_was_running.append(sys.getrecursionlimit() > limit)
        os.kill(os.getpid(), signal.SIGINT)

    for _ in range(5):  # a busy machine can shift the timing: try until the interrupt lands inside the search
        timer = threading.Timer(whole / 3, interrupt)
        timer.start()
        try:
            with pytest.raises(KeyboardInterrupt):
                ev.minimax(tree)
                time.sleep(5)  # the search finished first: the timer's interrupt arrives here instead
        finally:
            timer.cancel()
        assert sys.getrecursionlimit() == limit
        if deep_search_was_running[-1]:
            break
    assert deep_search_was_running[-1], "no interrupt came while the search was running"
    assert not [t for t in threading.enumerate() if t.name == "expectviz-deep"]
    assert sys.getrecursionlimit() == limit
    assert ev.alphabeta(chain(1_000)).value == 1  # and the next search works


# ---------------------------------------------------------------- deep chains stay linear


def test_every_operation_on_a_10000_level_chain_is_linear() -> None:
    """Quadratic work here would take minutes; linear work takes a second or two (the caps only catch a hang)."""
    depth = 10_000
    r = ev.alphabeta(chain(depth))
    trace = r.trace
    assert trace is not None and len(trace) == 2 * (depth + 1)
    with time_limit(60, "operations on a 10,000-level chain"):
        lines = str(trace).splitlines()
        assert len(lines) == len(trace)
        assert lines[depth].startswith("  " * 32 + "[depth 10,000] ")
        middle = trace.frame(depth + 1)
        assert len(middle.stack) == depth + 1 and middle.node((0,) * depth).status == "current"
        assert middle.node(()).range == (-INF, INF)
        final = trace.frame(-1)
        assert final.node(()).value == 1 and final.node(()).range == (1, 1) and len(final.stack) == 0
        back = ev.Trace.from_json(trace.to_json())
        assert back[-1] == trace[-1] and len(back) == len(trace)
        assert "the MAX node after" in trace.frame(depth - 1).explanation


# ---------------------------------------------------------------- what sentences claim


SEARCHES: dict[str, Any] = {
    "alphabeta": lambda t: ev.alphabeta(t),
    "alphabeta-strict": lambda t: ev.alphabeta(t, prune_ties=False),
    "star1": lambda t: ev.star1(t, bounds=bounds_of(t)),
    "star2": lambda t: ev.star2(t, bounds=bounds_of(t)),
    "star1-open": lambda t: ev.star1(t, bounds=(-INF, INF)),
}


def bounds_of(tree: Node) -> tuple[Any, Any]:
    values = [node.value for _, node in walk_paths(tree) if node.value is not None]
    return min(values) - 1, max(values) + 1


NUMBER = r"(−?∞|\+∞|−?[0-9][0-9./]*)"


def check_cutoff_sentences(result: ev.Result) -> int:
    """Every number a cutoff sentence names is the frame's, and every claim holds in the final frame."""
    trace = result.trace
    assert trace is not None
    final = trace.frame(-1)
    checked = 0
    for step in trace.steps("cutoff"):
        frame = trace.frame(step)
        event = frame.event
        assert event is not None
        path = event.path
        state = frame.node(path)
        text = frame.explanation
        window = state.window
        assert window is not None
        if match := re.search(r"α = " + NUMBER, text):
            assert match[1] == say(window[0]), text
        if match := re.search(r"β = " + NUMBER, text):
            assert match[1] == say(window[1]), text
        if " = αᵢ" in text:
            assert state.child_window is not None and state.child_window[0] == window[0], text
        if " = βᵢ" in text:
            assert state.child_window is not None and state.child_window[1] == window[1], text
        if "was clipped" in text:
            assert state.child_window is not None, text
            assert state.child_window[0] < window[0] or state.child_window[1] > window[1], text
        value = final.node(path).value
        parent = final.node(path[:-1]) if path else None
        if "settled as too low for MAX" in text:
            assert parent is not None and parent.window is not None and parent.value <= parent.window[0], text
        if "settled as too high for MIN" in text:
            assert parent is not None and parent.window is not None and parent.value >= parent.window[1], text
        if "MAX will never choose" in text:
            assert parent is not None and parent.value >= value, text
        if "MIN will never choose" in text:
            assert parent is not None and parent.value <= value, text
        if "is worth exactly" in text:
            exact = re.search(r"is worth exactly " + NUMBER, text)
            assert exact is not None and say(value) == exact[1], text
        if "cannot beat what MAX already has" in text:
            assert value <= window[0], text
        if "MIN will avoid it" in text:
            assert value >= window[1], text
        checked += 1
    return checked


@given(trees(chance=False, max_nodes=30), st.sampled_from(["alphabeta", "alphabeta-strict"]))
@settings(max_examples=150)
def test_cutoff_sentences_are_true_on_minimax_trees(tree: Node, algorithm: str) -> None:
    check_cutoff_sentences(SEARCHES[algorithm](tree))


@given(trees(chance=True, regular=True, max_nodes=30), st.sampled_from(["star1", "star2", "star1-open"]))
@settings(max_examples=150)
def test_cutoff_sentences_are_true_on_chance_trees(tree: Node, algorithm: str) -> None:
    check_cutoff_sentences(SEARCHES[algorithm](tree))


def test_the_clipped_window_sentence_on_lesson_7s_tree() -> None:
    """With values in [0, 20], I's window (−10, ...) is clipped to 0: the cutoff proves only I = 0, and D goes on."""
    tree = ev.random_trees.random_exercise(4, kind="chance", size="medium")
    r = ev.star1(tree, bounds=ev.random_trees.EXERCISE_BOUNDS)
    sentences = [r.trace.frame(k).explanation for k in r.trace.steps("cutoff")]
    (about_i,) = [s for s in sentences if s.startswith("I is")]
    assert "αᵢ = −10 was clipped to L = 0" in about_i and "I is worth exactly 0" in about_i
    assert "settled" not in about_i
    assert r.trace.frame(-1).node((2,)).value == ev.parse("4.5").value
    assert check_cutoff_sentences(r) == len(sentences)


def test_unnamed_nodes_are_named_by_their_moves() -> None:
    r = ev.alphabeta("max(min(3, 12, 8), min(2, 4, 6))")
    assert r.trace is not None
    text = r.trace.frame(r.trace.steps("cutoff")[0]).explanation
    assert text.startswith("The MIN node after move 2 is now worth at most 2, and 2 ≤ α = 3")
    assert "(the leaf after moves 2, 2, the leaf after moves 2, 3)" in text
    labelled = ev.minimax("max(a1: min(b1: 3, b2: 4), a2: min(c1: 1, c2: 2))")
    assert labelled.trace is not None
    assert labelled.trace.frame(-2).explanation.startswith("a2 is finished")  # never recapitalised


# ---------------------------------------------------------------- displaying a huge Result


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_a_result_above_the_display_cap_shows_its_final_diagram_and_a_note() -> None:
    from expectviz.render.player import result_mimebundle

    r = ev.minimax(uniform_tree(3, 5, iter(range(3**5))))
    assert r.trace is not None
    ev.options.max_display_steps = 100
    try:
        bundle = result_mimebundle(r)
    finally:
        ev.options.reset()
    assert "application/vnd.jupyter.widget-view+json" not in bundle  # no player over a trace this long
    assert bundle["image/svg+xml"].startswith("<svg")
    note = bundle["text/html"]
    assert f"{len(r.trace):,} steps" in note and "max_display_steps = 100" in note and "depth limit" in note
