"""Pruning at chance nodes on games: outcomes most probable first, the transposition table's bounds at chance
nodes (Veness and Blair 2007), Star2's fallback on a game that is not regular, bounds from the game and bounds an
evaluation exceeds, and Knuth and Moore's minimal tree reached through a move-ordering key."""

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
from expectviz.game import TreeGame
from expectviz.games import coinflip_tictactoe, tictactoe
from expectviz.games.random_trees import minimal_tree_leaves, ordered_tree
from expectviz.notation import parse
from expectviz.search import TranspositionTable
from expectviz.tree import CHANCE


class TreeAsGame:
    """An explicit tree offered as a game written by hand (so the search treats it as a game, not a tree)."""

    name = "hand-made"

    def __init__(self, text: str, value_range: tuple[int, int] | None = (-10, 10)) -> None:
        self.tree = TreeGame(parse(text))
        self.initial = self.tree.initial
        if value_range is not None:
            self.value_range = value_range

    def to_move(self, node: Any) -> str:
        return str(self.tree.to_move(node))

    def actions(self, node: Any) -> Any:
        return self.tree.actions(node)

    def result(self, node: Any, index: int) -> Any:
        return self.tree.result(node, index)

    def chance_outcomes(self, node: Any) -> Any:
        return self.tree.chance_outcomes(node)

    def is_terminal(self, node: Any) -> bool:
        return self.tree.is_terminal(node)

    def utility(self, node: Any) -> Any:
        return self.tree.utility(node)

    def evaluate(self, node: Any) -> Any:
        return 0 if node.evaluation is None else node.evaluation

    def move_label(self, node: Any, index: int) -> str:
        return self.tree.move_label(node, index)

    def table_key(self, node: Any) -> int:
        return id(node)


IRREGULAR = "max(chance(max(3, 1), min(2, 4)), chance(min(0, 5), min(1, 2)))"


# ---------------------------------------------------------------- the transposition table


def test_an_entry_keeps_a_lower_and_an_upper_bound() -> None:
    table = TranspositionTable()
    table.store("s", 2, 5, alpha=0, beta=5)  # failed high: at least 5
    table.store("s", 2, 8, alpha=8, beta=10)  # failed low: at most 8
    assert table.bounds("s", 2) == (5, 8)
    assert table.bounds("s", 1) == (-math.inf, math.inf)  # another depth is another entry
    assert table.lookup("s", 2, alpha=0, beta=4) == 5  # the lower bound decides a window below it
    assert table.lookup("s", 2, alpha=9, beta=12) == 8  # the upper bound decides a window above it
    assert table.lookup("s", 2, alpha=6, beta=7) is None  # [5, 8] decides nothing inside
    table.store("s", 2, 6, alpha=0, beta=10)
    assert table.bounds("s", 2) == (6, 6) and table.lookup("s", 2, alpha=6, beta=7) == 6


@pytest.mark.parametrize("algorithm", [ev.star1, ev.star2])
@pytest.mark.parametrize("depth", [2, 4, 6])
def test_a_table_at_chance_nodes_never_changes_a_value_and_never_searches_more(algorithm: Any, depth: int) -> None:
    game = coinflip_tictactoe("X../.O./...")
    plain = algorithm(game, depth=depth, trace=False)
    tabled = algorithm(game, depth=depth, table=True, trace=False)
    exact = ev.expectiminimax(game, depth=depth, trace=False)
    assert plain.exact_value == tabled.exact_value == exact.exact_value
    assert tabled.stats.nodes_visited <= plain.stats.nodes_visited


def test_the_tables_bounds_start_a_chance_node_and_can_decide_it() -> None:
    r = ev.star1(coinflip_tictactoe("XO./X../O.."), depth=6, table=True)
    assert r.trace is not None
    trace, ix = r.trace, r.trace.index
    starts = [
        i
        for i in range(1, len(trace))
        if trace.kind(i) == "bounds" and trace.kind(i - 1) == "visit" and ix.about[i] == ix.about[i - 1]
    ]
    assert starts, "no chance node started from the table's bounds"
    sentence = trace.explain(starts[0] + 1)
    assert sentence.startswith("The transposition table holds bounds on some outcomes of"), sentence
    decided = [i for i in starts if trace.kind(i + 1) == "cutoff"]
    assert decided, "no chance node was decided by the table's bounds alone"
    node = trace[decided[0]].path
    cut = trace.node(node)
    assert cut.kind == CHANCE and len(cut.children) == len(coinflip_tictactoe().chance_outcomes(cut.state))
    again = ev.Trace.from_json(trace.to_json())  # the pruned outcomes are saved and load back
    assert len(again) == len(trace)


# ---------------------------------------------------------------- Star2 on a game that is not regular


def test_star2_on_an_irregular_tree_is_an_error() -> None:
    with pytest.raises(SearchError, match="star2 needs a regular tree"):
        ev.star2(IRREGULAR, bounds=(-10, 10))


def test_star2_on_an_irregular_game_falls_back_to_star1_with_a_note() -> None:
    game = TreeAsGame(IRREGULAR)
    r2, r1 = ev.star2(game), ev.star1(game)
    assert r2.exact_value == r1.exact_value == ev.expectiminimax(IRREGULAR).exact_value
    assert r2.trace is not None and r2.trace.steps("probe") != []  # the second chance node (two MIN) is probed
    expected = (
        "hand-made is not a regular tree, so star2 searched 1 of its chance nodes as star1 would: their outcomes "
        "are not all MAX or all MIN states, and Star2's probe needs that"
    )
    assert r2.note == expected and r1.note is None
    assert r2.trace is not None and r2.trace.note == expected
    assert r2.trace.explain(0).endswith(f"Note: {expected}.")
    assert ev.Trace.from_json(r2.trace.to_json()).note == expected
    assert "\n" not in expected


def test_star2_probes_where_a_game_is_regular() -> None:
    game = TreeAsGame("max(1.5, chance(min(1.8, 1.9), min(0.5, 1)))", value_range=(-2, 2))
    r = ev.star2(game)
    assert r.note is None and r.stats.leaves_evaluated == 3  # FACTS.md: Star2's probes cut after 3 leaves


def test_the_note_survives_iterative_deepening() -> None:
    r = ev.star2(TreeAsGame(IRREGULAR), iterative=True)
    assert r.note is not None and "star2 searched 1 of its chance nodes as star1 would" in r.note


# ---------------------------------------------------------------- chance outcomes, most probable first


def test_star_searches_a_games_most_probable_outcome_first() -> None:
    text = "max(chance(rare 0.25: min(1, 2), likely 0.75: min(3, 4)))"
    game = TreeAsGame(text)
    for algorithm in (ev.star1, ev.star2):
        r = algorithm(game)
        assert r.trace is not None
        chance = r.trace.tree.children[0]
        assert [child.move for child in chance.children] == ["likely", "rare"]
        first = next(event for event in r.trace if event.kind == "visit" and len(event.path) == 2)
        assert first.path == (0, 0) and r.trace.node((0, 0)).probability == Fraction(3, 4)
    r = ev.expectiminimax(game)
    assert r.trace is not None and [c.move for c in r.trace.tree.children[0].children] == ["rare", "likely"]
    assert ev.star1(parse(text), bounds=(-10, 10)).trace.tree.children[0].children[0].move == "rare"  # type: ignore[union-attr]


# ---------------------------------------------------------------- bounds from the game, and bounds it exceeds


def test_a_built_in_game_gives_its_own_bounds() -> None:
    r = ev.star1(coinflip_tictactoe(), depth=2)
    assert r.trace is not None and r.trace.value_bounds == (-1, 1)


def test_bounds_an_evaluation_exceeds_are_an_error_naming_the_position() -> None:
    with pytest.raises(SearchError) as error:
        ev.star1(coinflip_tictactoe("XO./X../O.."), depth=3, bounds=(Fraction(-1, 10), Fraction(1, 10)))
    message = str(error.value)
    assert message.startswith("coinflip-tictactoe's ") and "of the position '" in message
    assert "outside the bounds [-0.1, 0.1] given to star1" in message and "widen bounds=" in message


def test_a_utility_outside_the_bounds_is_named_too() -> None:
    with pytest.raises(SearchError, match=r"hand-made's utility of the position .* is 5, outside the bounds \[-2, 2\]"):
        ev.star2(TreeAsGame("max(chance(min(5, 1), min(0, 1)))"), bounds=(-2, 2))


def test_a_game_without_a_range_needs_bounds() -> None:
    with pytest.raises(SearchError, match="star1 needs bounds"):
        ev.star1(TreeAsGame(IRREGULAR, value_range=None))


# ---------------------------------------------------------------- Knuth and Moore, through order=


def _minimax_value(node: Any) -> Any:
    return ev.minimax(node, trace=False).exact_value


def _best_first() -> Any:
    """A perfect move-ordering key: each player's best child first (its minimax value, worked out once)."""
    values: dict[int, Any] = {}

    def key(node: Any, index: int) -> Any:
        child = node.children[index]
        if id(child) not in values:
            values[id(child)] = _minimax_value(child)
        return -values[id(child)] if node.kind == "max" else values[id(child)]

    return key


@pytest.mark.parametrize(("branching", "depth"), [(2, 4), (2, 7), (3, 3), (3, 4), (4, 4), (5, 3)])
def test_perfect_ordering_by_key_reaches_the_minimal_tree(branching: int, depth: int) -> None:
    """Alpha-beta with a key that puts each player's best move first evaluates exactly the Knuth-Moore minimal
    number of leaves of a uniform random tree: b^ceil(d/2) + b^floor(d/2) - 1 (distinct leaf values)."""
    for seed in range(3):
        tree = ordered_tree(branching, depth, seed=seed, ordering="random")
        r = ev.alphabeta(tree, order=_best_first(), trace=False)
        assert r.exact_value == _minimax_value(tree)
        assert r.stats.leaves_evaluated == minimal_tree_leaves(branching, depth)
        assert ev.alphabeta(tree, trace=False).stats.leaves_evaluated >= minimal_tree_leaves(branching, depth)


def test_tic_tac_toe_bounds_are_not_changed() -> None:
    assert ev.star2(tictactoe("X../.O./..."), table=True).exact_value == 0


# ---------------------------------------------------------------- property tests on the dice games


def _walk(game: Any, choices: list[int]) -> Any:
    """The state reached from the game's start by taking, at each step, move or outcome ``choice % count``;
    it stops early at the end of the game."""
    state = game.initial
    for choice in choices:
        if game.is_terminal(state):
            break
        if game.to_move(state) == ev.CHANCE:
            options = [r for r, _ in game.chance_outcomes(state)]
        else:
            options = list(game.actions(state))
        state = game.result(state, options[choice % len(options)])
    return state


CHANCE_GAMES: dict[str, Any] = {
    "pig": lambda: ev.games.pig(),
    "dice": lambda: ev.games.dice(),
    "dice-5x5": lambda: ev.games.dice_5x5(),
    "2048": lambda: ev.games.game2048(),
    "2048-3x3": lambda: ev.games.game2048(size=3),
}
FACTORIES: dict[str, Any] = {
    "pig": ev.games.pig,
    "dice": ev.games.dice,
    "dice-5x5": lambda position: ev.games.dice(position, k=4),
    "2048": ev.games.game2048,
    "2048-3x3": ev.games.game2048,
}


DEEPEST = {"pig": 6, "dice": 5, "dice-5x5": 3, "2048": 5, "2048-3x3": 2}  # property tests: wide games shallower


@pytest.mark.parametrize("name", list(CHANCE_GAMES))
@given(choices=st.lists(st.integers(0, 10**6), max_size=12), depth=st.integers(1, 6))
def test_star1_and_star2_equal_expectiminimax_on_random_positions(name: str, choices: list[int], depth: int) -> None:
    depth = min(depth, DEEPEST[name])
    start = _walk(CHANCE_GAMES[name](), choices)
    game = FACTORIES[name](CHANCE_GAMES[name]().position(start))
    assert game.initial == start
    exact = ev.expectiminimax(game, depth=depth, trace=False).exact_value
    order = ev.games.move_ordering(game)
    for search in (ev.star1, ev.star2):
        variants: list[dict[str, Any]] = [{}, {"order": order}, {"table": True}, {"order": order, "table": True}]
        for options in [*variants, {"order": order, "table": True, "iterative": True}]:
            r = search(game, depth=depth, trace=False, **options)
            assert r.exact_value == exact, (search.__name__, options)


def test_the_figures_the_readme_gives_for_the_chance_games() -> None:
    assert f"{ev.games.pig().win_probability(ev.games.pig().initial):.5f}" == "0.70942"
    assert ev.expectiminimax("2048", table=True, trace=False).exact_value == Fraction(6631667660933, 80000000000000)
    note = ev.star2("pig", depth=8, trace=False).note
    assert note is not None and note.startswith("pig is not a regular tree, so star2 searched 81 of its chance nodes")


# ---------------------------------------------------------------- the command line


@pytest.mark.parametrize(
    ("name", "algorithm", "depth"),
    [
        ("pig", "expectiminimax", 6),
        ("pig", "star1", 6),
        ("dice", "star2", 5),
        ("dice-5x5", "star2", 3),
        ("2048", "star1", 4),
        ("2048", "expectiminimax", 4),
    ],
)
def test_solve_the_chance_games(capsys: pytest.CaptureFixture[str], name: str, algorithm: str, depth: int) -> None:
    assert main(["solve", name, "--algorithm", algorithm, "--depth", str(depth), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    exact = ev.expectiminimax(name, depth=depth, trace=False)
    assert printed["algorithm"] == algorithm and Fraction(str(printed["value"])) == exact.exact_value
    assert printed["best_move"] == exact.best_move


def test_solve_with_the_games_ordering_and_the_fallback_note(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "dice", "--algorithm", "star2", "--depth", "9", "--order", "--table", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert (printed["nodes_visited"], printed["leaves_evaluated"]) == (4027, 1705)  # README, bench_chance.py
    assert main(["solve", "pig", "--algorithm", "star2", "--depth", "6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["note"].startswith("pig is not a regular tree")
    assert main(["solve", "aima-fig-5.2", "--order"]) == 2
    assert "--order is for the games with a move ordering of their own" in capsys.readouterr().err


def test_long_values_are_rounded_in_diagrams_and_given_exactly_in_sentences() -> None:
    r = ev.star2("pig", depth=4)
    assert r.trace is not None and r.exact_value == Fraction(178327343, 393693300)
    svg = ev.draw(r).svg
    assert ">≈0.453<" in svg  # the node's value, rounded; exactly only in the sentence, with the rounded value
    assert svg.count("178327343/393693300") == svg.count("178327343/393693300 (≈0.453)") >= 1
    assert r.trace.explain(len(r.trace)).endswith("178327343/393693300 (≈0.453).")
