"""The ``table`` event: a transposition table's answer, everywhere outside the renderer.

Sentences say what the table's value proves with the window the node was searched with (its exact value, or
only a bound), lines print it, frames show the node done with ``from_table`` and a range that never contradicts
the node's real value, and saved traces keep table events and refuse ones no search could have recorded.
"""

from __future__ import annotations

import copy
import json
import math
from functools import cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import expectviz as ev
from expectviz.errors import TraceFormatError
from expectviz.games import coinflip_tictactoe, tictactoe
from expectviz.replay import table_hit
from expectviz.tree import CHANCE, LEAF

INF = math.inf
POSITION = "XO./X../O.."  # alpha-beta with a table meets all three kinds of hit from here


def hits(trace: ev.Trace) -> list[tuple[int, str]]:
    """(step, kind) of every table hit."""
    return [(step, table_hit(trace, step - 1)[0]) for step in trace.steps("table")]


def first_hit(trace: ev.Trace, kind: str) -> int:
    return next(step for step, found in hits(trace) if found == kind)


def traced(result: ev.Result) -> ev.Trace:
    assert result.trace is not None
    return result.trace


# ---------------------------------------------------------------- sentences


def test_the_three_kinds_of_hit_in_alphabeta() -> None:
    trace = traced(ev.alphabeta(tictactoe(POSITION), table=True))
    assert [kind for _, kind in hits(trace)] == ["lower"] * 3 + ["upper", "exact"] + ["upper"] * 4
    assert trace.explain(first_hit(trace, "exact")) == (
        "The MAX node after X b2, O c3, X c1, O c2 was reached before by another order of moves (a transposition): "
        "the table holds its value 0 from that search, so it is not searched again."
    )
    assert trace.explain(first_hit(trace, "lower")) == (
        "The MAX node after X c1, O b3, X b2, O c2 was reached before by another order of moves (a transposition): "
        "the table holds that it is worth at least 1, and 1 \u2265 \u03b2 = 0, so its exact value cannot matter "
        "here; it is not searched again."
    )
    assert trace.explain(first_hit(trace, "upper")) == (
        "The MIN node after X b2, O b3, X c1 was reached before by another order of moves (a transposition): "
        "the table holds that it is worth at most \u22121, and \u22121 \u2264 \u03b1 = \u22121, so its exact "
        "value cannot matter here; it is not searched again."
    )


def test_a_bound_is_never_called_the_value() -> None:
    """Only an exact hit may say "its value"; a bound says at least / at most, and names the window's edge."""
    trace = traced(ev.alphabeta("tictactoe", table=True))
    for step, kind in hits(trace):
        sentence = trace.explain(step)
        alpha, beta = trace[step - 2].alpha, trace[step - 2].beta  # the node's visit
        value = trace[step - 1].value
        assert kind != "either"  # alpha < beta when ties prune
        if kind == "exact":
            assert "holds its value" in sentence and alpha < value < beta  # type: ignore[operator]
        else:
            assert "its value" not in sentence and "cannot matter here" in sentence
            assert ("at least" in sentence) == (kind == "lower") and ("at most" in sentence) == (kind == "upper")


def test_minimax_and_expectiminimax_hits_are_exact() -> None:
    trace = traced(ev.minimax(tictactoe(POSITION), table=True))
    assert {kind for _, kind in hits(trace)} == {"exact"}
    assert trace.explain(trace.steps("table")[0]) == (
        "The MAX node after X c1, O c2, X b3, O b2 was reached before by another order of moves (a transposition): "
        "the table holds its value 0 from that search, so it is not searched again."
    )
    chance = traced(ev.expectiminimax(coinflip_tictactoe(POSITION), table=True))
    assert {kind for _, kind in hits(chance)} == {"exact"}
    sentences = [chance.explain(step) for step in chance.steps("table")]
    assert any(s.startswith("The chance node after") and "holds its expected value" in s for s in sentences)


def test_a_bound_at_the_value_bounds_is_exact_and_says_why() -> None:
    """Star1's windows are clipped to [L, U]: at least U means exactly U."""
    trace = traced(ev.star1(tictactoe("X../.O./..."), table=True))
    found = {kind: trace.explain(step) for step, kind in reversed(hits(trace))}
    assert found["lower"].endswith(
        "the table holds that it is worth at least 1, the greatest value any leaf can have (U = 1), "
        "so it is worth exactly 1; it is not searched again."
    )
    assert found["upper"].endswith(
        "the table holds that it is worth at most \u22121, the least value any leaf can have (L = \u22121), "
        "so it is worth exactly \u22121; it is not searched again."
    )


def test_an_empty_window_hit_claims_no_side() -> None:
    """With strict pruning a node can be searched with alpha = beta; a hit there is a bound of unknown side."""
    trace = traced(ev.alphabeta(tictactoe("X../.O./..."), table=True, prune_ties=False))
    step = first_hit(trace, "either")
    assert "holds a bound of \u22121 on its value, and the window [\u22121, \u22121] is empty" in trace.explain(step)
    assert trace.frame(step).node(trace[step - 1].path).range == (-INF, INF)


def test_the_first_sentence_of_a_game_search_names_the_game_and_the_position() -> None:
    assert traced(ev.alphabeta("tictactoe", depth=2)).explain(0) == (
        "Before the search: alphabeta will search tictactoe from the position .../.../..., MAX (X) to move."
    )
    assert traced(ev.minimax(tictactoe("XO./X../O.."), table=True)).explain(0) == (
        "Before the search: minimax will search tictactoe from the position XO./X../O.., MAX (X) to move."
    )
    assert traced(ev.alphabeta(tictactoe("X../.../..."))).explain(0).endswith("X../.../..., MIN (O) to move.")
    assert traced(ev.expectiminimax("coinflip-tictactoe", depth=3)).explain(0) == (
        "Before the search: expectiminimax will search coinflip-tictactoe from the position .../.../..., "
        "MAX (X) to move."
    )
    assert traced(ev.minimax(tictactoe("XXX/OO./..."))).explain(0).endswith("where the game is already over.")
    # a tree keeps its sentence
    assert traced(ev.alphabeta(ev.textbook("aima-fig-5.2"))).explain(0) == (
        "Before the search: alphabeta will search the tree from A, a MAX node."
    )


class TakeAway:
    """One heap of counters, take 1 or 2, whoever takes the last wins (a game with no position notation)."""

    initial = (4, ev.MAX)

    def to_move(self, state: Any) -> str:
        return state[1]  # type: ignore[no-any-return]

    def actions(self, state: Any) -> list[int]:
        return [take for take in (1, 2) if take <= state[0]]

    def result(self, state: Any, take: int) -> Any:
        return (state[0] - take, ev.MIN if state[1] == ev.MAX else ev.MAX)

    def is_terminal(self, state: Any) -> bool:
        return state[0] == 0  # type: ignore[no-any-return]

    def utility(self, state: Any) -> int:
        return -1 if state[1] == ev.MAX else 1


def test_a_game_without_positions_and_its_hits() -> None:
    trace = traced(ev.minimax(TakeAway(), table=True))
    assert (
        trace.explain(0) == "Before the search: minimax will search TakeAway from its starting position, MAX to move."
    )
    assert trace.steps("table") and all("holds its value" in trace.explain(s) for s in trace.steps("table"))


def test_depth_limit_sentences_on_a_game() -> None:
    trace = traced(ev.alphabeta("tictactoe", depth=2))
    assert trace.explain(4) == (
        "The depth limit stops the search at the MAX node after X a1, O b1: its static evaluation is 0.04."
    )
    assert (
        trace.explain(5)
        == "Search the MAX node after X a1, O c1, with window [\u2212\u221e, 0.04]: MIN already has 0.04."
    )


# ---------------------------------------------------------------- lines


def test_lines_print_each_kind_of_hit() -> None:
    trace = traced(ev.alphabeta(tictactoe(POSITION), table=True))
    lines = list(trace.lines())
    assert lines[first_hit(trace, "exact") - 1] == "        table hit at the MAX node after X b2, O c3, X c1, O c2 = 0"
    assert lines[first_hit(trace, "lower") - 1] == (
        "        table hit at the MAX node after X c1, O b3, X b2, O c2 >= 1 (a lower bound)"
    )
    assert lines[first_hit(trace, "upper") - 1] == (
        "      table hit at the MIN node after X b2, O b3, X c1 <= -1 (an upper bound)"
    )
    assert str(trace).count("table hit at") == len(trace.steps("table")) == trace.stats().table_hits
    # the hit's line follows its visit's, at the same indentation
    step = first_hit(trace, "upper")
    assert lines[step - 2] == "      visit the MIN node after X b2, O b3, X c1 window [-1, 1]"


def test_minimax_lines_have_no_bounds() -> None:
    trace = traced(ev.minimax(tictactoe(POSITION), table=True))
    table_lines = [line.strip() for line in trace.lines() if "table hit" in line]
    assert table_lines and all(" = " in line and "bound" not in line for line in table_lines)


# ---------------------------------------------------------------- frames


def test_a_hit_node_is_done_from_the_table() -> None:
    trace = traced(ev.alphabeta(tictactoe(POSITION), table=True))
    for kind, expected in (("exact", (0, 0)), ("lower", (1, INF)), ("upper", (-INF, -1))):
        step = first_hit(trace, kind)
        path = trace[step - 1].path
        before, after = trace.frame(step - 1).node(path), trace.frame(step).node(path)
        assert before.status == "current" and not before.from_table
        assert after.status == "done" and after.from_table and not after.cut
        assert after.value == trace[step - 1].value and after.range == expected
        assert trace.frame(step).stack == [path[:i] for i in range(len(path))]  # closed: off the stack
        assert trace.frame(-1).node(path).from_table  # and stays so
    assert not trace.frame(-1).node(()).from_table


def test_frame_stats_count_table_hits() -> None:
    trace = traced(ev.alphabeta(tictactoe(POSITION), table=True))
    steps = trace.steps("table")
    assert trace.frame(steps[0] - 1).stats.table_hits == 0 and trace.frame(steps[0]).stats.table_hits == 1
    assert trace.frame(-1).stats == trace.stats() == ev.alphabeta(tictactoe(POSITION), table=True).stats


@cache
def game_value(position: str) -> Any:
    return ev.minimax(tictactoe(position), trace=False).exact_value


def positions() -> st.SearchStrategy[str]:
    """A tic-tac-toe position 2 to 5 moves into a game, not over."""

    @st.composite
    def build(draw: Any) -> str:
        game = tictactoe()
        state = game.initial
        for _ in range(draw(st.integers(2, 5))):
            moves = game.actions(state)
            state = game.result(state, moves[draw(st.integers(0, len(moves) - 1))])
            if game.is_terminal(state):
                break
        return game.position(state)

    return build().filter(lambda p: not tictactoe(p).is_terminal(tictactoe(p).initial))


SEARCHES = {
    "minimax": lambda game: ev.minimax(game, table=True),
    "alphabeta": lambda game: ev.alphabeta(game, table=True),
    "alphabeta strict": lambda game: ev.alphabeta(game, table=True, prune_ties=False),
    "star1": lambda game: ev.star1(game, table=True),
    "star2": lambda game: ev.star2(game, table=True),
}


@given(positions(), st.sampled_from(list(SEARCHES)))
def test_ranges_at_a_hit_hold_the_real_values(position: str, algorithm: str) -> None:
    """At every table hit, the hit node's range and every range on the stack hold the node's real value."""
    game = tictactoe(position)
    result = SEARCHES[algorithm](game)
    trace = traced(result)
    ix = trace.index
    assert result.exact_value == game_value(position)
    for number, (step, kind) in enumerate(hits(trace)):
        frame = trace.frame(step)
        nid = ix.about[step - 1]
        real = game_value(game.position(ix.nodes[nid].state))
        state = frame.state(nid)
        low, high = state.range
        assert low <= real <= high, (step, kind, state)
        assert state.from_table and state.value is not None
        if kind == "exact":
            assert state.value == real and state.range == (real, real)
        elif kind == "lower":
            assert real >= state.value
        elif kind == "upper":
            assert real <= state.value
        for on_stack in frame.stack.ids():
            low, high = frame.state(on_stack).range
            assert low <= game_value(game.position(ix.nodes[on_stack].state)) <= high
        if number < 3:  # every node reached so far, at the first few hits
            for path, node_state in frame.nodes.items():
                node = trace.node(path)
                if node_state.status in ("done", "active", "current") and node.kind != LEAF:
                    low, high = node_state.range
                    assert low <= game_value(game.position(node.state)) <= high, path


@pytest.mark.parametrize(("position", "depth"), [(POSITION, None), ("X../.O./...", 5)])
def test_expectiminimax_hits_give_the_value_of_the_node_s_own_search(position: str, depth: int | None) -> None:
    """A chance game's hits are exact: the value is what the node's own search (to the same depth) gives."""
    game = coinflip_tictactoe(position)
    trace = traced(ev.expectiminimax(game, depth=depth, table=True))
    ix = trace.index
    steps = trace.steps("table")
    kinds = {ix.nodes[ix.about[step - 1]].kind for step in steps}
    assert kinds == {CHANCE, ev.MAX, ev.MIN} if depth is None else kinds and kinds <= {ev.MAX, ev.MIN}
    for step in steps[:: max(1, len(steps) // 40)]:
        nid = ix.about[step - 1]
        at = copy.copy(game)
        at.initial = ix.nodes[nid].state  # the node's state, a pending coin flip too
        left = None if depth is None else depth - ix.depth[nid]
        real = ev.expectiminimax(at, depth=left, trace=False).exact_value
        state = trace.frame(step).state(nid)
        assert state.value == real and state.range == (real, real), step
    chance = next(step for step in steps if ix.nodes[ix.about[step - 1]].kind == CHANCE) if depth is None else None
    if chance is not None:
        assert "the table holds its expected value" in trace.explain(chance)


# ---------------------------------------------------------------- JSON


ROUND_TRIPS = {
    "alphabeta tictactoe": lambda: ev.alphabeta("tictactoe", table=True),
    "alphabeta depth 2": lambda: ev.alphabeta("tictactoe", depth=2),
    "minimax table": lambda: ev.minimax(tictactoe(POSITION), table=True),
    "expectiminimax coin flips": lambda: ev.expectiminimax(coinflip_tictactoe(POSITION), table=True),
    "expectiminimax depth 5": lambda: ev.expectiminimax(coinflip_tictactoe("X../.O./..."), depth=5, table=True),
    "star1 coin flips": lambda: ev.star1(coinflip_tictactoe(POSITION), table=True),
    "star2 table": lambda: ev.star2(tictactoe("X../.O./..."), table=True),
    "star2 coin flips": lambda: ev.star2(coinflip_tictactoe(POSITION), table=True),
    "depth 0": lambda: ev.alphabeta("tictactoe", depth=0),
}


@pytest.mark.parametrize("make", list(ROUND_TRIPS.values()), ids=list(ROUND_TRIPS))
def test_a_game_trace_round_trips_through_json(make: Any) -> None:
    result = make()
    trace = traced(result)
    text = trace.to_json()
    data = json.loads(text)
    assert sum(event[0] == "table" for event in data["events"]) == result.stats.table_hits
    again = ev.Trace.from_json(text)
    assert list(again) == list(trace)
    assert again.stats() == trace.stats() == result.stats
    assert again.tree == trace.tree and again.to_json() == text
    assert list(again.lines()) == list(trace.lines())
    every = max(1, len(trace) // 40)
    for step in [*range(1, len(trace) + 1, every), *trace.steps("table")[:20]]:
        assert again.frame(step).nodes == trace.frame(step).nodes, step
        assert again.explain(step) == trace.explain(step), step
    assert again.explain(0).startswith(f"Before the search: {result.algorithm} will search the tree")


def test_a_textbook_trace_with_a_table_event_loads() -> None:
    """A table event may close any inner node below the root, right after its visit (here C of Fig. 5.2)."""
    data = json.loads(traced(ev.alphabeta(ev.textbook("aima-fig-5.2"))).to_json())
    data["events"][10:14] = [["table", 0, 2, 0]]  # C: worth at most 2, and 2 <= alpha = 3
    trace = ev.Trace.from_json(json.dumps(data))
    assert trace.stats().table_hits == 1 and trace.stats().cutoffs == 0
    step = trace.steps("table")[0]
    assert trace.explain(step) == (
        "C, a MIN node, was reached before by another order of moves (a transposition): the table holds that it "
        "is worth at most 2, and 2 \u2264 \u03b1 = 3, so its exact value cannot matter here; it is not searched again."
    )
    assert trace.frame(step).node((1,)).range == (-INF, 2)
    assert trace.frame(-1).node(()).range == (3, 3)


def saved_game() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(traced(ev.alphabeta(tictactoe(POSITION), table=True)).to_json())
    return data


def saved_fig_5_2() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(traced(ev.alphabeta(ev.textbook("aima-fig-5.2"))).to_json())
    return data


def at_root(data: dict[str, Any]) -> None:
    data["events"] = [["visit", 0, "-inf", "+inf"], ["table", 0, 3, 0]]


def closing_a_leaf(data: dict[str, Any]) -> None:
    data["events"][3] = ["table", 0, 3, 0]


def with_nothing_open(data: dict[str, Any]) -> None:
    data["events"].append(["table", 0, 3, 0])


def after_a_child(data: dict[str, Any]) -> None:
    data["events"][8] = ["table", 0, 3, 0]  # B after its three leaves


def outside_the_bounds(data: dict[str, Any]) -> None:
    data["events"][10:14] = [["table", 0, 20, 0]]
    data["bounds"] = [0, 14]


def backup_of_a_node_not_expanded(data: dict[str, Any]) -> None:
    step = next(i for i, event in enumerate(data["events"]) if event[0] == "table")
    data["events"][step][0] = "backup"


def table_hit_with_a_bad_tree(data: dict[str, Any]) -> None:
    data["tree"] = {"kind": "max"}


HOSTILE = {
    "at the root": (saved_fig_5_2, at_root, "event 1: a table event cannot close the root"),
    "closing a leaf": (saved_fig_5_2, closing_a_leaf, "event 3: a table event cannot close a leaf"),
    "with no open visit": (saved_fig_5_2, with_nothing_open, "event 23: table with no node being searched"),
    "after a child": (saved_fig_5_2, after_a_child, "event 8: a table event must follow the visit of its node"),
    "outside the bounds": (saved_fig_5_2, outside_the_bounds, "event 10: the table's value 20 is outside the bounds"),
    "backup of a node not expanded": (saved_game, backup_of_a_node_not_expanded, "a backup cannot close a max node"),
    "childless root without evaluation": (saved_game, table_hit_with_a_bad_tree, "bad tree"),
}


@pytest.mark.parametrize("case", list(HOSTILE.values()), ids=list(HOSTILE))
def test_hostile_table_events_are_refused(case: Any) -> None:
    make, change, words = case
    data = make()
    change(data)
    with pytest.raises(TraceFormatError) as info:
        ev.Trace.from_json(json.dumps(data))
    assert words in str(info.value)


def test_a_table_event_cannot_stand_for_a_star2_research() -> None:
    """Star2 searches a probed outcome again with its first move known: that search never reads the table."""
    data = json.loads(traced(ev.star2(coinflip_tictactoe(POSITION))).to_json())
    events = data["events"]
    probed = next(i for i, e in enumerate(events) if e[0] == "reuse") - 1  # the visit of the outcome searched again
    assert events[probed][0] == "visit"
    events[probed + 1 :] = [["table", 0, 0, 0]] + events[probed + 1 :]
    with pytest.raises(TraceFormatError, match="outcome searched again after its probe"):
        ev.Trace.from_json(json.dumps(data))
