"""expectviz.trace: golden traces of the textbook figures, replay to any frame, and the JSON form.

Golden traces are compared as readable text (``str(trace)``) against ``tests/golden/trace/*.txt``.  After a
deliberate change, rewrite them with ``EXPECTVIZ_UPDATE_GOLDEN=1 pytest tests/test_trace.py`` and read the diff
against the textbook figures before committing.
"""

from __future__ import annotations

import copy
import json
import math
import os
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import arbitrary_json, time_limit, trees, uniform_tree, walk_paths

import expectviz as ev
from expectviz.errors import ExpectvizError, TraceFormatError
from expectviz.tree import Node

INF = math.inf
GOLDEN = Path(__file__).parent / "golden" / "trace"
UPDATE = os.environ.get("EXPECTVIZ_UPDATE_GOLDEN") == "1"

GOLDEN_CASES = {
    "aima-fig-5.2.minimax": lambda: ev.minimax(ev.textbook("aima-fig-5.2")),
    "aima-fig-5.2.alphabeta": lambda: ev.alphabeta(ev.textbook("aima-fig-5.2")),
    "coin-flip.expectiminimax": lambda: ev.expectiminimax(ev.textbook("coin-flip")),
    "aima-star-exercise.star1": lambda: ev.star1(ev.textbook("aima-star-exercise"), bounds=(-2, 2)),
    "star2-beats-star1.star1": lambda: ev.star1(ev.textbook("star2-beats-star1"), bounds=(-2, 2)),
    "star2-beats-star1.star2": lambda: ev.star2(ev.textbook("star2-beats-star1"), bounds=(-2, 2)),
}


def fig52_alphabeta() -> ev.Result:
    return ev.alphabeta(ev.textbook("aima-fig-5.2"))


# ---------------------------------------------------------------- golden traces


@pytest.mark.parametrize("name", list(GOLDEN_CASES))
def test_golden_trace(name: str) -> None:
    r = GOLDEN_CASES[name]()
    assert r.trace is not None
    text = str(r.trace) + "\n"
    path = GOLDEN / f"{name}.txt"
    if UPDATE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path}; create it with EXPECTVIZ_UPDATE_GOLDEN=1 and read it first"
    assert text == path.read_text(encoding="utf-8")


def test_golden_traces_are_all_used() -> None:
    assert {p.stem for p in GOLDEN.glob("*.txt")} == set(GOLDEN_CASES)


def test_trace_text_is_indented_by_depth() -> None:
    r = fig52_alphabeta()
    assert r.trace is not None
    lines = list(r.trace.lines())
    assert len(lines) == len(r.trace) == 23
    for line, event in zip(lines, r.trace, strict=True):
        assert line.startswith("  " * len(event.path)) and not line.startswith("  " * len(event.path) + " ")
    assert lines[0] == "visit A (MAX) window [-inf, +inf]"
    assert lines[-1] == "backup A = 3"
    assert "  cutoff at C with 2, pruned c2, c3" in lines


# ---------------------------------------------------------------- events


def test_events_of_fig_5_2() -> None:
    r = fig52_alphabeta()
    trace = r.trace
    assert trace is not None
    assert trace[0] == ev.Event("visit", (), alpha=-INF, beta=INF)
    assert trace[-1] == ev.Event("backup", (), value=3)
    assert trace[len(trace) - 1] == trace[-1]
    assert [e.kind for e in trace].count("visit") == 11
    assert [e for e in trace if e.kind == "cutoff"] == [ev.Event("cutoff", (1,), value=2, child=1)]
    visits_of_c = [e for e in trace if e.kind == "visit" and e.path == (1,)]
    assert visits_of_c == [ev.Event("visit", (1,), alpha=3, beta=INF)]
    with pytest.raises(IndexError):
        trace[len(trace)]
    with pytest.raises(IndexError):
        trace[-len(trace) - 1]
    assert repr(trace) == "<Trace of alphabeta: 23 events>"
    assert trace.stats() == r.stats


def test_minimax_trace_has_no_windows_or_cutoffs() -> None:
    r = ev.minimax(ev.textbook("aima-fig-5.2"))
    assert r.trace is not None
    assert {e.kind for e in r.trace} == {"visit", "leaf", "backup"}
    assert "window" not in str(r.trace)


def test_exact_values_survive_recording() -> None:
    """Values a double cannot hold (1/3, 0.1) come back exactly from the trace."""
    r = ev.expectiminimax("max(chance(1/3: 1, 2/3: 0.1), chance(0.1, 0.2, 0.3))")
    assert r.trace is not None
    values = {e.path: e.value for e in r.trace if e.kind in ("leaf", "backup")}
    assert values[(0, 1)] == Fraction(1, 10)
    assert values[(0,)] == Fraction(1, 3) + Fraction(2, 3) * Fraction(1, 10)
    assert values[(1,)] == Fraction(1, 5)
    assert values[()] == r.exact_value == Fraction(2, 5)


@pytest.mark.parametrize(
    "value",
    [Fraction(1, 2**24), Fraction(3, 2**40), Fraction(1, 2**60), Fraction(2**53 + 1), -(2**60) - 1, Fraction(7, 2**30)],
)
def test_dyadic_and_big_values_survive_recording(value: Fraction | int) -> None:
    """A double holds 1/2**24 exactly, but its shortest repr does not: the trace must still read it back exactly."""
    v = ev.numbers.format_number(value)
    r = ev.minimax(ev.parse(f"max({v}, min({v}, {v}))"))
    assert r.trace is not None
    assert r.exact_value == value
    for event in r.trace:
        if event.kind in ("leaf", "backup"):
            assert event.value == value, event
    back = ev.Trace.from_json(r.trace.to_json())
    assert list(back) == list(r.trace)


@pytest.mark.parametrize("text", ["max(1e300, 2)", "max(1e400, 2)", "max(-1e999, min(1e999, 3))"])
def test_huge_leaves_search_with_a_trace(text: str) -> None:
    """Exact numbers beyond a double's range are valid leaves; recording them must not overflow."""
    tree = ev.parse(text)
    for search in (ev.minimax, ev.alphabeta, ev.expectiminimax):
        untraced = search(tree, trace=False)
        r = search(tree)
        assert r.exact_value == untraced.exact_value
        assert r.trace is not None
        assert r.trace[-1].value == r.exact_value


# ---------------------------------------------------------------- frames


def test_frame_0_is_before_the_search() -> None:
    r = fig52_alphabeta()
    assert r.trace is not None
    frame = r.trace.frame(0)
    assert frame.step == 0 and frame.event is None and frame.stack == () and frame.current is None
    assert frame.nodes == {}
    for path, _ in walk_paths(r.tree):
        assert frame.node(path).status == "unvisited"
        assert frame[path] == frame.node(path)
    assert "Before the search" in frame.explanation


def test_final_frame() -> None:
    r = fig52_alphabeta()
    assert r.trace is not None
    frame = r.trace.frame(len(r.trace))
    assert frame.stack == ()
    root = frame.node(())
    assert root.status == "done" and root.value == 3 and root.range == (3, 3)
    assert frame.node((0,)).value == 3 and frame.node((1,)).value == 2 and frame.node((2,)).value == 2
    assert frame.node((1,)).cut and not frame.node((0,)).cut
    assert frame.node((1, 1)).status == frame.node((1, 2)).status == "pruned"
    assert frame.node((1, 1)).value is None
    assert "A is finished" in frame.explanation and "3" in frame.explanation


def test_frame_during_the_search() -> None:
    r = fig52_alphabeta()
    assert r.trace is not None
    frame = r.trace.frame(11)  # visit c1
    assert frame.event == ev.Event("visit", (1, 0), alpha=3, beta=INF)
    assert frame.stack == ((), (1,), (1, 0))
    assert frame.current == (1, 0)
    assert frame.node((1, 0)).status == "current"
    assert frame.node((1,)).status == "active" and frame.node(()).status == "active"
    assert frame.node((1,)).window == (3, INF)
    assert frame.node(()).value == 3  # the value so far
    assert frame.node((0,)).status == "done"
    assert frame.node((2,)).status == "unvisited"


def test_cutoff_explanation_at_c() -> None:
    r = fig52_alphabeta()
    assert r.trace is not None
    (step,) = [i + 1 for i, e in enumerate(r.trace) if e.kind == "cutoff"]
    text = r.trace.frame(step).explanation
    assert "c2" in text and "c3" in text
    assert "α = 3" in text
    assert "C" in text and "2 ≤ α" in text


def test_cutoff_explanation_with_strict_pruning() -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"), prune_ties=False)
    assert r.trace is not None
    (step,) = [i + 1 for i, e in enumerate(r.trace) if e.kind == "cutoff"]
    assert "2 < α = 3" in r.trace.frame(step).explanation


def test_every_frame_has_an_explanation() -> None:
    for make in GOLDEN_CASES.values():
        r = make()
        assert r.trace is not None
        for frame in r.trace.frames():
            assert frame.explanation and frame.explanation.strip() == frame.explanation
            assert "?" not in frame.explanation  # what a missing value is written as


def test_negative_steps_count_from_the_end() -> None:
    r = fig52_alphabeta()
    trace = r.trace
    assert trace is not None
    n = len(trace)
    assert trace.frame(-1) == trace.frame(n)
    assert trace.frame(-2) == trace.frame(n - 1)
    assert trace.frame(-n - 1) == trace.frame(0)


@pytest.mark.parametrize("step", [24, 25, 10**9, -25, -(10**9)])
def test_out_of_range_steps_raise_index_error(step: int) -> None:
    r = fig52_alphabeta()
    assert r.trace is not None and len(r.trace) == 23
    with pytest.raises(IndexError):
        r.trace.frame(step)


def fresh(trace: ev.Trace) -> ev.Trace:
    """The same trace without any cached replay state."""
    return ev.Trace.from_json(trace.to_json())


@given(trees(chance=True, regular=True, max_nodes=12), st.randoms(use_true_random=False))
def test_frames_in_any_order_equal_frames_in_order(tree: Node, rng: random.Random) -> None:
    r = ev.star2(tree, bounds=(-INF, INF))
    assert r.trace is not None
    in_order = list(fresh(r.trace).frames())
    assert len(in_order) == len(r.trace) + 1
    shuffled = fresh(r.trace)
    steps = list(range(len(in_order)))
    rng.shuffle(steps)
    for k in steps:
        assert shuffled.frame(k) == in_order[k], k


def test_frames_of_a_long_trace_in_random_order() -> None:
    """Past the replay checkpoints (every 2048 steps): any order gives the frame that stepping from 0 gives."""
    rng = random.Random(5)
    tree = uniform_tree(3, 7, iter(rng.randrange(-50, 50) for _ in range(3**7)))
    r = ev.minimax(tree)
    assert r.trace is not None
    n = len(r.trace)
    assert n > 3 * 2048
    steps = [0, 1, 2047, 2048, 2049, 4095, 4096, 4097, 6143, 6144, n - 1, n] + rng.sample(range(n + 1), 12)
    expected = {}
    for k in set(steps):  # each computed by stepping from 0 on a new trace, nothing cached
        new = ev.minimax(tree).trace
        assert new is not None
        expected[k] = new.frame(k)
    rng.shuffle(steps)
    shared = r.trace
    for k in steps + steps[::-1]:
        assert shared.frame(k) == expected[k], k
    assert shared.frame(n).node(()).value == r.exact_value


# ---------------------------------------------------------------- JSON


def saved(result: ev.Result | None = None) -> dict[str, Any]:
    r = result or fig52_alphabeta()
    assert r.trace is not None
    data: dict[str, Any] = json.loads(r.trace.to_json())
    return data


def test_json_round_trip_of_the_golden_traces() -> None:
    for make in GOLDEN_CASES.values():
        r = make()
        assert r.trace is not None
        back = ev.Trace.from_json(r.trace.to_json())
        assert list(back) == list(r.trace)
        assert str(back) == str(r.trace)
        assert back.stats() == r.stats
        assert back.algorithm == r.algorithm and back.tree == r.tree
        assert back.value_bounds == r.trace.value_bounds and back.options == r.trace.options
        assert back.frame(-1) == r.trace.frame(-1)
        again = ev.Trace.from_json(r.trace.to_json().encode())
        assert json.loads(again.to_json()) == json.loads(r.trace.to_json())


def test_json_schema() -> None:
    data = saved()
    assert data["schema"] == "expectviz-trace" and data["version"] == 1
    assert data["algorithm"] == "alphabeta"
    assert data["options"] == {"prune_ties": True}
    assert ev.from_json(data["tree"]) == ev.textbook("aima-fig-5.2")
    assert len(data["events"]) == 23


def hostile(mutate: Any) -> str:
    data = saved()
    mutate(data)
    return json.dumps(data)


def set_event(i: int, event: Any) -> Any:
    def mutate(data: dict[str, Any]) -> None:
        data["events"][i] = event

    return mutate


HOSTILE = {
    "not JSON": "{not json",
    "empty": "",
    "a list": "[]",
    "a number": "3",
    "deeply nested": "[" * 50_000 + "]" * 50_000,
    "no schema": hostile(lambda d: d.pop("schema")),
    "wrong schema": hostile(lambda d: d.update(schema="something-else")),
    "wrong version": hostile(lambda d: d.update(version=2)),
    "version as text": hostile(lambda d: d.update(version="1")),
    "algorithm not text": hostile(lambda d: d.update(algorithm=3)),
    "options not an object": hostile(lambda d: d.update(options=[1])),
    "no tree": hostile(lambda d: d.pop("tree")),
    "bad tree": hostile(lambda d: d.update(tree={"kind": "max", "children": []})),
    "tree as a number": hostile(lambda d: d.update(tree=5)),
    "bounds not a pair": hostile(lambda d: d.update(bounds=[1])),
    "bounds not numbers": hostile(lambda d: d.update(bounds=["a", "b"])),
    "events missing": hostile(lambda d: d.pop("events")),
    "events not a list": hostile(lambda d: d.update(events={"0": 1})),
    "event not a list": hostile(set_event(3, "leaf")),
    "event too short": hostile(set_event(3, ["leaf", 0, 3])),
    "event too long": hostile(set_event(3, ["leaf", 0, 3, 0, 0])),
    "unknown event kind": hostile(set_event(3, ["jump", 0, 3, 0])),
    "event kind not text": hostile(set_event(3, [1, 0, 3, 0])),
    "child index out of range": hostile(set_event(1, ["visit", 3, "-inf", "+inf"])),
    "negative index": hostile(set_event(1, ["visit", -1, "-inf", "+inf"])),
    "huge index": hostile(set_event(1, ["visit", 10**30, "-inf", "+inf"])),
    "index as text": hostile(set_event(1, ["visit", "0", "-inf", "+inf"])),
    "index as a float": hostile(set_event(1, ["visit", 0.0, "-inf", "+inf"])),
    "index as a boolean": hostile(set_event(1, ["visit", False, "-inf", "+inf"])),
    "value as text": hostile(set_event(3, ["leaf", 0, "three", 0])),
    "value as a list": hostile(set_event(3, ["leaf", 0, [3], 0])),
    "value as null": hostile(set_event(3, ["leaf", 0, None, 0])),
    "value as a boolean": hostile(set_event(3, ["leaf", 0, True, 0])),
    "NaN value": json.dumps(saved()).replace('["leaf", 0, 3, 0]', '["leaf", 0, NaN, 0]', 1),
    "Infinity value": json.dumps(saved()).replace('["leaf", 0, 3, 0]', '["leaf", 0, Infinity, 0]', 1),
    "window bound as text": hostile(set_event(0, ["visit", 0, "-infinity", "+inf"])),
    "root visit with an index": hostile(set_event(0, ["visit", 1, "-inf", "+inf"])),
    "closing with nothing open": hostile(lambda d: d["events"].append(["backup", 0, 3, 0])),
    "a second root": hostile(lambda d: d["events"].extend([["visit", 0, "-inf", "+inf"], ["backup", 0, 3, 0]])),
    "unclosed nodes": hostile(lambda d: d["events"].pop()),
    "only a visit": hostile(lambda d: d.update(events=[["visit", 0, "-inf", "+inf"]])),
    "cutoff index out of range": hostile(set_event(12, ["cutoff", 9, 2, 0])),
    "window child out of range": hostile(set_event(12, ["window", 9, 2, 0])),
    "a leaf's child": hostile(lambda d: d["events"].insert(3, ["visit", 0, "-inf", "+inf"])),
}


@pytest.mark.parametrize("text", list(HOSTILE.values()), ids=list(HOSTILE))
def test_from_json_rejects_hostile_json(text: str) -> None:
    with time_limit(5, "Trace.from_json"):
        with pytest.raises(TraceFormatError) as info:
            ev.Trace.from_json(text)
    assert isinstance(info.value, ExpectvizError) and isinstance(info.value, ValueError)


def test_hostile_json_fixtures_were_valid_before_the_change() -> None:
    ev.Trace.from_json(json.dumps(saved()))
    assert '["leaf", 0, 3, 0]' in json.dumps(saved())


@pytest.mark.parametrize("value", [10**400, "1e999", "-1e999"], ids=["10**400", "1e999", "-1e999"])
def test_from_json_with_a_value_beyond_a_double(value: object) -> None:
    """A value a double cannot hold is either kept exactly or refused with a TraceFormatError."""
    text = hostile(set_event(3, ["leaf", 0, value, 0]))
    try:
        trace = ev.Trace.from_json(text)
    except TraceFormatError:
        return
    assert trace[3].value == ev.numbers.exact(value)


def test_from_json_keeps_or_refuses_a_visit_that_skips_children() -> None:
    """A visit's child index is part of the event: a trace that visits d1 first (skipping B and C) must not be
    read back as a visit of B."""
    events = [
        ["visit", 0, "-inf", "+inf"],
        ["visit", 2, "-inf", "+inf"],  # D, skipping B and C
        ["visit", 0, "-inf", "+inf"],  # d1
        ["leaf", 0, 14, 0],
        ["backup", 0, 14, 0],
        ["backup", 0, 14, 0],
    ]
    text = hostile(lambda d: d.update(events=events))
    try:
        trace = ev.Trace.from_json(text)
    except TraceFormatError:
        return
    assert [e.path for e in trace] == [(), (2,), (2, 0), (2, 0), (2,), ()]


def loads_or_refuses(text: str) -> None:
    with time_limit(2, "Trace.from_json"):
        try:
            trace = ev.Trace.from_json(text)
        except Exception as error:  # noqa: BLE001 - the assertion is the point
            assert isinstance(error, ExpectvizError), repr(error)
            assert isinstance(error, TraceFormatError), repr(error)
            return
        # A trace that loads can be shown, replayed and saved.
        str(trace)
        for frame in trace.frames():
            assert frame.explanation
        again = ev.Trace.from_json(trace.to_json())
        assert list(again) == list(trace)


@given(arbitrary_json)
def test_fuzz_from_json_with_arbitrary_json(data: Any) -> None:
    loads_or_refuses(json.dumps(data))


GAME_CASES = [
    # explored trees: nodes the depth limit stopped at, table hits and pruned moves have no children
    lambda: ev.alphabeta(ev.games.tictactoe("XO./X../O.."), table=True),
    lambda: ev.star1(ev.games.coinflip_tictactoe("XO./X../O.."), depth=4, table=True),
]
EVENT_PIECES = st.one_of(
    st.sampled_from(["visit", "leaf", "backup", "cutoff", "bounds", "window", "probe", "reuse", "table", "other"]),
    arbitrary_json,
)
SMALL_NUMBERS = st.one_of(st.integers(-2, 4), st.sampled_from(["+inf", "-inf", "1/3", 0.5, "x"]), arbitrary_json)


@st.composite
def mutated_traces(draw: Any) -> str:
    """A real trace with events replaced, inserted, deleted or corrupted."""
    make = draw(st.sampled_from([*GOLDEN_CASES.values(), *GAME_CASES]))
    data = saved(make())
    events = data["events"]
    for _ in range(draw(st.integers(1, 4))):
        action = draw(st.sampled_from(["replace", "insert", "delete", "field"]))
        i = draw(st.integers(0, len(events)))
        event = [draw(EVENT_PIECES), draw(SMALL_NUMBERS), draw(SMALL_NUMBERS), draw(SMALL_NUMBERS)]
        if action == "insert":
            events.insert(i, event)
        elif action == "delete" and events:
            del events[min(i, len(events) - 1)]
        elif action == "replace" and events:
            events[min(i, len(events) - 1)] = event
        elif events:
            target = events[min(i, len(events) - 1)]
            target[draw(st.integers(0, 3))] = event[draw(st.integers(0, 3))]
    if draw(st.booleans()):
        key = draw(st.sampled_from(["algorithm", "bounds", "options", "version", "tree"]))
        data[key] = copy.deepcopy(draw(arbitrary_json))
    return json.dumps(data)


@given(mutated_traces())
def test_fuzz_from_json_with_mutated_traces(text: str) -> None:
    loads_or_refuses(text)


# ---------------------------------------------------------------- deep traces


def chain(depth: int) -> Node:
    return ev.parse("".join(f"{'max' if i % 2 == 0 else 'min'}(" for i in range(depth)) + "1" + ")" * depth)


def test_deep_trace_replays() -> None:
    """Deeper than Python's default recursion limit.  (Paths are tuples and lines are indented by depth, so reading
    a trace costs depth squared: 2,500 levels keep this quick.)"""
    depth = 2_500
    r = ev.alphabeta(chain(depth))
    assert r.trace is not None and len(r.trace) == 2 * (depth + 1)
    final = r.trace.frame(-1)
    assert final.node(()).value == 1 and final.stack == ()
    middle = r.trace.frame(depth + 1)  # the leaf just reached, every node open
    assert len(middle.stack) == depth + 1 and middle.current == (0,) * depth
    assert len(str(r.trace).splitlines()) == len(r.trace)


def test_deep_trace_json_round_trip() -> None:
    depth = 10_000
    r = ev.alphabeta(chain(depth))
    assert r.trace is not None
    back = ev.Trace.from_json(r.trace.to_json())
    assert len(back) == len(r.trace) and back.stats() == r.stats
    assert back.tree == r.tree
    assert back[-1] == r.trace[-1] == ev.Event("backup", (), value=1)


def test_trace_memory_is_compact() -> None:
    tree = uniform_tree(4, 6, iter(range(4**6)))
    r = ev.minimax(tree)
    assert r.trace is not None
    assert r.trace.nbytes <= 32 * len(r.trace)
