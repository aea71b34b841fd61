"""Searching games: the tic-tac-toe facts, the Game protocol, and the search options (ordering, tables, deepening).

Every option is checked against plain minimax (or expectiminimax) on random positions: ordering, a
transposition table and iterative deepening may change how much is searched, never a value.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import expectviz as ev
from expectviz.cli import main
from expectviz.errors import SearchError
from expectviz.games import center_first, coinflip_tictactoe, tictactoe
from expectviz.tree import check, nodes

# ---------------------------------------------------------------- the facts (FACTS.md, "Real games")


def test_tictactoe_minimax_counts_and_value() -> None:
    r = ev.minimax("tictactoe", trace=False)
    assert (r.value, r.stats.nodes_visited, r.stats.leaves_evaluated) == (0, 549_946, 255_168)


def test_tictactoe_alphabeta_counts_and_value() -> None:
    r = ev.alphabeta("tictactoe", trace=False)
    assert (r.value, r.stats.nodes_visited, r.stats.leaves_evaluated) == (0, 18_297, 7_330)


def test_tracing_a_game_changes_nothing() -> None:
    traced, untraced = ev.alphabeta("tictactoe"), ev.alphabeta("tictactoe", trace=False)
    assert traced.trace is not None and traced.trace.stats() == traced.stats == untraced.stats
    assert (traced.exact_value, traced.best_move) == (untraced.exact_value, untraced.best_move)


@pytest.mark.parametrize("square", ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"])
def test_every_opening_is_worth_zero(square: str) -> None:
    board = ["."] * 9
    board["abc".index(square[0]) + 3 * (int(square[1]) - 1)] = "X"
    position = "/".join("".join(board[row * 3 : row * 3 + 3]) for row in range(3))
    assert ev.alphabeta(tictactoe(position), trace=False).value == 0


def test_the_root_moves_and_best_move_are_named_by_squares() -> None:
    r = ev.minimax("tictactoe", trace=False)
    assert (r.best_move, r.best_action) == ("X a1", 0)
    r = ev.alphabeta(tictactoe("X.O/.X./..O"))
    assert r.best_move is not None and r.best_move.startswith("X ")
    assert r.trace is not None and r.trace.tree.children[0].move == "X b1"


def test_cli_prints_the_counts_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "tictactoe", "--algorithm", "alphabeta", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["nodes_visited"], out["leaves_evaluated"], out["value"]) == (18_297, 7_330, 0)
    assert main(["solve", "tictactoe", "--algorithm", "alphabeta", "--depth", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["nodes_visited"] == ev.alphabeta("tictactoe", depth=2, trace=False).stats.nodes_visited
    assert out["best_move"] == "X b2"  # the centre scores best by the evaluation at depth 2


def test_cli_takes_a_position_and_refuses_a_bad_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "tictactoe", "--position", "XX./OO./...", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["best_move"] == "X c1"
    assert main(["solve", "tictactoe", "--position", "XX?/OO./..."]) == 2
    assert "1:3" in capsys.readouterr().err
    assert main(["solve", "aima-fig-5.2", "--position", "X../.../..."]) == 2
    assert "--position is for games" in capsys.readouterr().err


# ---------------------------------------------------------------- random positions


@st.composite
def positions(draw: st.DrawFn, *, chance: bool = False, least: int = 2) -> Any:
    """A non-terminal position reached by random legal moves from the empty board (at least ``least`` marks)."""
    make = coinflip_tictactoe if chance else tictactoe
    game = make()
    state = game.initial
    marks = draw(st.integers(min_value=least, max_value=7))
    placed = 0
    while placed < marks and not game.is_terminal(state):
        if game.to_move(state) == ev.CHANCE:
            outcomes = [r for r, _ in game.chance_outcomes(state)]
            state = game.result(state, draw(st.sampled_from(outcomes)))
            continue
        state = game.result(state, draw(st.sampled_from(list(game.actions(state)))))
        placed += 1
    if game.is_terminal(state) or game.to_move(state) == ev.CHANCE:
        return None
    return make(game.position(state))


@given(positions())
def test_alphabeta_equals_minimax_on_random_positions(game: Any) -> None:
    if game is None:
        return
    reference = ev.minimax(game, trace=False)
    for options in ({}, {"order": center_first}, {"table": True}, {"order": center_first, "table": True}):
        r = ev.alphabeta(game, trace=False, **options)
        assert r.exact_value == reference.exact_value, options
    plain = ev.alphabeta(game, trace=False)
    assert plain.best_move == reference.best_move  # same order: the first best move, as minimax finds it


@given(positions(), st.integers(min_value=1, max_value=4))
def test_depth_limited_alphabeta_equals_depth_limited_minimax(game: Any, depth: int) -> None:
    if game is None:
        return
    reference = ev.minimax(game, depth=depth, trace=False).exact_value
    for options in ({}, {"table": True}, {"order": center_first, "table": True}):
        assert ev.alphabeta(game, depth=depth, trace=False, **options).exact_value == reference, options
    assert ev.minimax(game, depth=depth, table=True, trace=False).exact_value == reference


@given(positions())
def test_iterative_deepening_to_the_end_equals_minimax(game: Any) -> None:
    if game is None:
        return
    reference = ev.minimax(game, trace=False)
    for search in (ev.minimax, ev.alphabeta):
        r = search(game, iterative=True, trace=False)
        assert r.exact_value == reference.exact_value
        assert r.iterations and r.iterations[-1].complete and r.note is None
        assert [i.depth for i in r.iterations] == list(range(1, len(r.iterations) + 1))


@given(positions())
def test_a_transposition_table_never_changes_a_value(game: Any) -> None:
    if game is None:
        return
    for search in (ev.minimax, ev.alphabeta):
        without, with_table = search(game, trace=False), search(game, table=True, trace=False)
        assert with_table.exact_value == without.exact_value
        assert with_table.stats.nodes_visited <= without.stats.nodes_visited


@given(positions(chance=True), st.integers(min_value=1, max_value=3))
def test_chance_searches_agree_on_coinflip_positions(game: Any, depth: int) -> None:
    if game is None:
        return
    reference = ev.expectiminimax(game, depth=depth, trace=False).exact_value
    assert ev.expectiminimax(game, depth=depth, table=True, trace=False).exact_value == reference
    for search in (ev.star1, ev.star2):
        assert search(game, depth=depth, trace=False).exact_value == reference, search
        assert search(game, depth=depth, table=True, trace=False).exact_value == reference, search


@given(positions(least=5))
def test_the_explored_tree_of_a_full_minimax_is_the_game_tree(game: Any) -> None:
    """Searching the explored tree as an explicit tree repeats the game search exactly."""
    if game is None:
        return
    r = ev.minimax(game)
    assert r.trace is not None
    tree = check(r.trace.tree)
    again = ev.minimax(tree, trace=False)
    assert (again.exact_value, again.stats) == (r.exact_value, r.stats)
    assert sum(1 for _ in nodes(tree)) == r.stats.nodes_visited


def test_the_explored_tree_of_alphabeta_keeps_the_pruned_moves() -> None:
    r = ev.alphabeta(tictactoe("XO./X../O.."))
    assert r.trace is not None
    tree = r.trace.tree
    reached = len(r.trace.index.nodes)
    assert sum(1 for _ in nodes(tree)) > reached  # the pruned moves are drawn, unsearched
    assert all(n.state is not None for n in nodes(tree))
    assert [c.move for c in tree.children] == ["X c1", "X b2", "X c2", "X b3", "X c3"]


def test_a_table_hit_is_an_event_of_its_own() -> None:
    r = ev.minimax(tictactoe("X../.O./..."), table=True)
    assert r.trace is not None and r.stats.table_hits > 0
    steps = r.trace.steps("table")
    assert len(steps) == r.stats.table_hits == r.trace.stats().table_hits
    assert "table_hits=" in repr(r.stats) and "table_hits" not in repr(ev.minimax("tictactoe", trace=False).stats)


# ---------------------------------------------------------------- coin-flip tic-tac-toe


def test_coinflip_divergence() -> None:
    """A coin and a worst-case blocker choose different moves (every move draws against the blocker)."""
    position = "XO./X../O.."
    chance = ev.expectiminimax(coinflip_tictactoe(position), table=True, trace=False)
    worst = ev.minimax(coinflip_tictactoe(position, blocker="opponent"), table=True, trace=False)
    assert (chance.best_move, chance.exact_value) == ("X b2", Fraction(29, 48))
    assert (worst.best_move, worst.exact_value) == ("X c1", 0)
    after_c1 = ev.expectiminimax(coinflip_tictactoe("XOX/X../O.."), table=True, trace=False)
    assert after_c1.exact_value < chance.exact_value  # what the coin makes of minimax's choice


# ---------------------------------------------------------------- a game written by hand


class Nim:
    """Nim with one heap: take 1, 2 or 3; whoever takes the last counter wins."""

    name = "nim"

    def __init__(self, counters: int = 6) -> None:
        self.initial = (counters, ev.MAX)

    def to_move(self, state: tuple[int, str]) -> str:
        return state[1]

    def actions(self, state: tuple[int, str]) -> list[int]:
        return [take for take in (1, 2, 3) if take <= state[0]]

    def result(self, state: tuple[int, str], take: int) -> tuple[int, str]:
        return (state[0] - take, ev.MIN if state[1] == ev.MAX else ev.MAX)

    def is_terminal(self, state: tuple[int, str]) -> bool:
        return state[0] == 0

    def utility(self, state: tuple[int, str]) -> int:
        return -1 if state[1] == ev.MAX else 1  # the player who just moved took the last counter

    def move_label(self, state: tuple[int, str], take: int) -> str:
        return f"take {take}"


@pytest.mark.parametrize("counters", range(1, 10))
def test_nim_values_and_every_algorithm_agree(counters: int) -> None:
    game = Nim(counters)
    expected = -1 if counters % 4 == 0 else 1
    assert isinstance(game, ev.Game)
    for search in (ev.minimax, ev.alphabeta, ev.expectiminimax):
        assert search(game, trace=False).value == expected
    for star in (ev.star1, ev.star2):
        assert star(game, bounds=(-1, 1), trace=False).value == expected
    if expected == 1:
        assert ev.minimax(game, trace=False).best_move == f"take {counters % 4}"


def test_nim_trace_names_nodes_by_moves() -> None:
    r = ev.alphabeta(Nim(5))
    assert r.trace is not None
    assert "the MIN node after take 1" in r.trace.describe((0,))


class Broken(Nim):
    def __init__(self, fault: str) -> None:
        super().__init__(4)
        self.fault = fault

    def to_move(self, state: tuple[int, str]) -> Any:
        return "X" if self.fault == "player" else state[1]

    def actions(self, state: tuple[int, str]) -> Any:
        return [] if self.fault == "no moves" else super().actions(state)

    def utility(self, state: tuple[int, str]) -> Any:
        return "win" if self.fault == "utility" else super().utility(state)


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("player", r"nim\.to_move returned 'X' for the state \(4, 'max'\)"),
        ("no moves", r"nim\.actions returned no moves for the state \(4, 'max'\)"),
        ("utility", r"nim\.utility returned 'win' for the state \(0, "),
    ],
)
def test_a_broken_game_is_named_with_the_state(fault: str, message: str) -> None:
    with pytest.raises(SearchError, match=message):
        ev.minimax(Broken(fault))


def test_a_game_without_an_end_stops_with_a_message() -> None:
    class Forever(Nim):
        def result(self, state: tuple[int, str], take: int) -> tuple[int, str]:
            return (state[0], ev.MIN if state[1] == ev.MAX else ev.MAX)

    with pytest.raises(SearchError, match="reached no end within 10,000 moves"):
        ev.minimax(Forever(3), trace=False)


def test_a_depth_limit_needs_an_evaluation() -> None:
    with pytest.raises(SearchError, match="has no evaluate method"):
        ev.minimax(Nim(9), depth=2)


def test_chance_needs_a_chance_algorithm() -> None:
    with pytest.raises(SearchError, match="minimax has no rule for chance nodes, and coinflip-tictactoe has them"):
        ev.minimax("coinflip-tictactoe")

    class Coin(Nim):
        def to_move(self, state: tuple[int, str]) -> str:
            return ev.CHANCE

    with pytest.raises(SearchError, match="alphabeta has no rule for chance nodes"):
        ev.alphabeta(Coin())


def test_bad_probabilities_are_named() -> None:
    class Dice:
        initial = 0

        def to_move(self, state: int) -> str:
            return ev.CHANCE

        def chance_outcomes(self, state: int) -> list[tuple[int, Any]]:
            return [(1, Fraction(1, 3)), (2, Fraction(1, 3))]

        def actions(self, state: int) -> list[int]:
            return []

        def result(self, state: int, outcome: int) -> int:
            return outcome

        def is_terminal(self, state: int) -> bool:
            return state > 0

        def utility(self, state: int) -> int:
            return state

    with pytest.raises(SearchError, match="probabilities summing to 2/3, not 1"):
        ev.expectiminimax(Dice())


def test_not_a_game() -> None:
    with pytest.raises(SearchError, match="lacks"):
        ev.minimax(object())
    with pytest.raises(SearchError, match="no textbook tree or game is called 'tictacto'"):
        ev.minimax("tictacto")


# ---------------------------------------------------------------- search options


def test_iterative_deepening_stops_on_a_node_budget() -> None:
    r = ev.alphabeta("tictactoe", iterative=True, max_nodes=3_000, trace=False)
    assert r.note is not None and "node budget" in r.note
    assert not r.iterations[-1].complete and all(i.complete for i in r.iterations[:-1])
    finished = r.iterations[-2]
    assert (r.exact_value, r.best_move) == (finished.value, finished.best_move)
    assert r.depth == finished.depth


def test_iterative_deepening_stops_on_a_time_budget() -> None:
    r = ev.minimax("tictactoe", iterative=True, time_limit=0.05, trace=False)
    assert r.note is not None and "time budget" in r.note
    assert r.iterations[0].complete  # the first depth always finishes


def test_iterative_deepening_keeps_the_last_trace() -> None:
    r = ev.alphabeta(tictactoe("XO./X../O.."), iterative=True)
    assert r.trace is not None and r.trace.stats() == r.iterations[-1].stats
    assert sum(i.stats.nodes_visited for i in r.iterations) == r.stats.nodes_visited


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_nodes": 10}, "add iterative=True"),
        ({"iterative": True, "max_nodes": 0}, "max_nodes must be a whole number > 0"),
        ({"iterative": True, "time_limit": math.inf}, "time_limit must be a number of seconds > 0"),
        ({"table": "yes"}, "table must be True or False"),
        ({"order": 3}, "order must be a key function"),
    ],
)
def test_bad_search_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(SearchError, match=message):
        ev.alphabeta("tictactoe", trace=False, **options)


def test_ordering_searches_less_and_keeps_the_value() -> None:
    plain = ev.alphabeta("tictactoe", trace=False)
    ordered = ev.alphabeta("tictactoe", order=center_first, trace=False)
    both = ev.alphabeta("tictactoe", order=center_first, table=True, trace=False)
    assert plain.value == ordered.value == both.value == 0
    assert both.stats.nodes_visited < ordered.stats.nodes_visited < plain.stats.nodes_visited
    assert ordered.best_move == "X b2"


def test_explicit_trees_take_the_game_options() -> None:
    """An explicit tree is one game: ordering and tables work on it too (AIMA Fig. 5.2, moves right to left)."""
    tree = ev.textbook("aima-fig-5.2")
    backwards = ev.alphabeta(tree, order=lambda node, i: -i)
    assert (backwards.value, backwards.best_move) == (3, "a1")
    assert backwards.trace is not None
    assert [backwards.trace.describe(e.path) for e in backwards.trace if e.kind == "leaf"][:3] == ["d3", "d2", "d1"]
    assert ev.alphabeta(tree, table=True).stats == ev.alphabeta(tree).stats  # no transpositions in a tree


def test_a_table_needs_hashable_states() -> None:
    class Lists(Nim):
        def __init__(self) -> None:
            self.initial = [3, ev.MAX]  # type: ignore[assignment]

        def result(self, state: Any, take: int) -> Any:
            return [state[0] - take, ev.MIN if state[1] == ev.MAX else ev.MAX]

    with pytest.raises(SearchError, match=r"states must be hashable; this game's states are lists like \[3, 'max'\]"):
        ev.minimax(Lists(), table=True)
    assert ev.minimax(Lists()).value == 1  # without a table, lists are fine


def test_a_ten_thousand_ply_game() -> None:
    class Chain(Nim):
        def actions(self, state: tuple[int, str]) -> list[int]:
            return [1]

        def utility(self, state: tuple[int, str]) -> int:
            return 0

    r = ev.minimax(Chain(9_998))
    assert r.stats.nodes_visited == 9_999 and r.trace is not None
    assert r.trace.frame(-1).explanation.startswith("The root is finished")
    assert len(r.trace.tree.children) == 1
