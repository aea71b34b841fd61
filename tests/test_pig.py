"""Pig (expectviz.games.pig): the rules, the notation, the picture, the searches and value iteration.

A bare depth-limited expectiminimax written here checks the search core on the game, node for node; value
iteration is checked against the rules through the game's own ``result`` and ``chance_outcomes``: at every
reachable state the optimal win probability is the maximum (MAX), minimum (MIN) or average (the die) of its
children's, which is what "optimal play by both" means.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

import expectviz as ev
from expectviz.errors import ExpectvizError, InputTypeError, OptionError, RenderError, UsageError
from expectviz.game import ChanceGame
from expectviz.games.pig import DIE, GAMES, HOLD_AT, RACE, TURN_BONUS, Pig, pig, pig_order
from expectviz.games.pig import _state as make_state
from expectviz.render.picture import clean_picture, picture_of

# ---------------------------------------------------------------- helpers


def at(position: str, target: int = 10) -> tuple[Pig, int]:
    """The game and the state a position names."""
    game = pig(position, target=target)
    return game, game.initial


def after(game: Pig, state: int, *moves: Any) -> int:
    """The state after these moves and faces."""
    for move in moves:
        state = game.result(state, move)
    return state


def walk(game: Pig, seed: int, steps: int) -> Iterator[int]:
    """The states of random games from the game's initial state, a new game after each end (seeded)."""
    rng = random.Random(seed)
    state = game.initial
    for _ in range(steps):
        yield state
        if game.is_terminal(state):
            state = game.initial
        elif game.to_move(state) == ev.CHANCE:
            state = game.result(state, rng.choice([face for face, _ in game.chance_outcomes(state)]))
        else:
            state = game.result(state, rng.choice(game.actions(state)))


def reachable(game: Pig) -> set[int]:
    """Every state reachable from the game's initial state (the game has cycles: a set stops them)."""
    seen, stack = {game.initial}, [game.initial]
    while stack:
        state = stack.pop()
        if game.is_terminal(state):
            continue
        if game.to_move(state) == ev.CHANCE:
            moves: list[Any] = [face for face, _ in game.chance_outcomes(state)]
        else:
            moves = list(game.actions(state))
        for move in moves:
            child = game.result(state, move)
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return seen


def bare_expectiminimax(game: Pig, state: int, depth: int) -> tuple[Fraction | int, int]:
    """Depth-limited expectiminimax (chance levels count), and the nodes it visits: no table, no pruning."""
    nodes = 0

    def value(state: int, depth: int) -> Fraction | int:
        nonlocal nodes
        nodes += 1
        if game.is_terminal(state):
            return game.utility(state)
        if depth == 0:
            return game.evaluate(state)
        player = game.to_move(state)
        if player == ev.CHANCE:
            outcomes = game.chance_outcomes(state)
            return sum((p * value(game.result(state, face), depth - 1) for face, p in outcomes), Fraction(0))
        values = [value(game.result(state, a), depth - 1) for a in game.actions(state)]
        return max(values) if player == ev.MAX else min(values)

    v = value(state, depth)
    return v, nodes


# ---------------------------------------------------------------- the rules


def test_the_start() -> None:
    game = pig()
    s = game.initial
    assert isinstance(game, Pig) and isinstance(game, ChanceGame)
    assert (game.name, game.has_chance, game.value_range, game.target) == ("pig", True, (-1, 1), 10)
    assert game.position(s) == "MAX 0, MIN 0, MAX to play, turn total 0"
    assert game.to_move(s) == ev.MAX and game.actions(s) == ("roll",)
    assert not game.is_terminal(s)
    assert (game.scores(s), game.turn_total(s), game.player(s), game.rolling(s)) == ((0, 0), 0, ev.MAX, False)
    assert GAMES == {"pig": pig} and GAMES["pig"]() == game


def test_roll_leads_to_a_chance_state_whose_outcomes_are_the_six_faces() -> None:
    game = pig()
    rolling = game.result(game.initial, "roll")
    assert game.to_move(rolling) == ev.CHANCE
    assert game.chance_outcomes(rolling) == tuple((face, Fraction(1, 6)) for face in range(1, 7)) == DIE
    assert sum(p for _, p in game.chance_outcomes(rolling)) == 1
    assert (game.player(rolling), game.rolling(rolling), game.turn_total(rolling)) == (ev.MAX, True, 0)
    assert game.position(rolling) == "MAX 0, MIN 0, MAX to play, turn total 0, rolling"


@pytest.mark.parametrize("player", ["MAX", "MIN"])
def test_faces_2_to_6_add_to_the_turn_total_and_the_player_decides_again(player: str) -> None:
    game, s = at(f"MAX 0, MIN 0, {player} to play, turn total 2, rolling")
    for face in range(2, 7):
        t = game.result(s, face)
        assert game.position(t) == f"MAX 0, MIN 0, {player} to play, turn total {2 + face}"
        assert game.to_move(t) == player.lower() and game.actions(t) == ("roll", "hold")


def test_a_1_loses_the_turn_total_and_passes_the_turn() -> None:
    game, s = at("MAX 3, MIN 4, MAX to play, turn total 5, rolling")
    assert game.position(game.result(s, 1)) == "MAX 3, MIN 4, MIN to play, turn total 0"
    game, s = at("MAX 3, MIN 4, MIN to play, turn total 5, rolling")
    assert game.position(game.result(s, 1)) == "MAX 3, MIN 4, MAX to play, turn total 0"


def test_hold_banks_the_turn_total_and_passes_the_turn() -> None:
    game, s = at("MAX 3, MIN 4, MAX to play, turn total 5")
    t = game.result(s, "hold")
    assert game.position(t) == "MAX 8, MIN 4, MIN to play, turn total 0"
    assert game.actions(t) == ("roll",)  # no hold with a turn total of 0
    game, s = at("MAX 3, MIN 4, MIN to play, turn total 5")
    assert game.position(game.result(s, "hold")) == "MAX 3, MIN 9, MAX to play, turn total 0"


def test_there_is_no_hold_at_a_turn_total_of_0() -> None:
    for player in ("MAX", "MIN"):
        game, s = at(f"MAX 6, MIN 2, {player} to play")
        assert game.actions(s) == ("roll",)


def test_the_game_has_cycles() -> None:
    game = pig()
    s = after(game, game.initial, "roll", 1, "roll", 1)  # MAX rolls a 1, then MIN does
    assert s == game.initial


@pytest.mark.parametrize(("player", "utility"), [("MAX", 1), ("MIN", -1)])
def test_reaching_the_target_ends_the_game_at_once(player: str, utility: int) -> None:
    game, s = at(f"MAX 5, MIN 5, {player} to play, turn total 2, rolling")
    ends = [game.is_terminal(game.result(s, face)) for face in range(1, 7)]
    assert ends == [False, False, True, True, True, True]  # 5 + 2 + 3 = 10 is the target
    t = game.result(s, 3)
    assert game.position(t) == f"MAX {10 if player == 'MAX' else 5}, MIN {10 if player == 'MIN' else 5}, {player} won"
    assert game.utility(t) == game.evaluate(t) == utility
    assert game.player(t) == player.lower() and game.turn_total(t) == 0 and not game.rolling(t)
    top = game.result(s, 6)
    assert max(game.scores(top)) == 13 and game.utility(top) == utility  # the banked score plus the turn total


def test_the_target_option() -> None:
    game = pig(target=2)
    rolling = game.result(game.initial, "roll")
    assert [game.is_terminal(game.result(rolling, face)) for face in range(1, 7)] == [False] + [True] * 5
    assert pig(target=100).target == 100 and repr(pig(target=100)) == "pig(target=100)"


@pytest.mark.parametrize("target", [1, 0, 101, -10, 10.0, "10", True, None])
def test_a_bad_target_is_an_option_error_naming_the_allowed_values(target: Any) -> None:
    with pytest.raises(OptionError, match=r"target=.* is not a target score; use a whole number from 2 to 100"):
        pig(target=target)


def test_move_labels_are_short() -> None:
    game, s = at("MAX 2, MIN 5, MAX to play, turn total 3")
    assert [game.move_label(s, a) for a in game.actions(s)] == ["MAX rolls", "MAX holds 3"]
    game, t = at("MAX 2, MIN 5, MIN to play, turn total 2")
    assert [game.move_label(t, a) for a in game.actions(t)] == ["MIN rolls", "MIN holds 2"]
    rolling = game.result(t, "roll")  # MIN has 5 + 2: a 2 goes on to 9, a 3 or more reaches the target 10
    labels = [game.move_label(rolling, face) for face, _ in game.chance_outcomes(rolling)]
    assert labels == ["rolled 1 (bust)", "rolled 2"] + [f"rolled {face} (wins)" for face in range(3, 7)]
    game, u = at("MAX 0, MIN 0, MAX to play, turn total 0, rolling")
    assert [game.move_label(u, face) for face in (1, 4)] == ["rolled 1 (bust)", "rolled 4"]
    assert all(len(game.move_label(u, face)) < 16 for face in range(1, 7))


def test_the_accessors_read_a_state() -> None:
    game, s = at("MAX 6, MIN 2, MIN to play, turn total 4, rolling")
    assert game.scores(s) == (6, 2) and game.turn_total(s) == 4
    assert game.player(s) == ev.MIN and game.rolling(s) and game.to_move(s) == ev.CHANCE


# ---------------------------------------------------------------- the notation


@pytest.mark.parametrize("target", [2, 10, 25, 100])
def test_position_and_text_read_back_on_random_states(target: int) -> None:
    game = pig(target=target)
    for s in walk(game, seed=target, steps=600):
        assert pig(game.position(s), target=target).initial == s
        assert pig(game.text(s), target=target).initial == s
        assert len(game.text(s).splitlines()) == 2


def test_the_notation_is_lenient_about_order_case_and_spaces() -> None:
    expected = pig("MAX 5, MIN 3, MIN to play, turn total 0")
    assert pig("  min 3 ,max   5,\tMIN TO PLAY,  ") == expected  # the turn total is 0 if left out
    assert pig("MAX 5\nMIN 3\nMIN to play\nturn total 0\n") == expected
    game = pig("Rolling, turn total 4, MAX to play, MAX 2, MIN 0")
    assert game.position(game.initial) == "MAX 2, MIN 0, MAX to play, turn total 4, rolling"
    game = pig("MAX 11, MIN 3, max WON")
    assert game.position(game.initial) == "MAX 11, MIN 3, MAX won"


def test_repr_evaluates_back() -> None:
    games = [
        pig(),
        pig(target=20),
        pig("MAX 5, MIN 3, MAX to play, turn total 4"),
        pig("MAX 5, MIN 3, MIN to play, turn total 0, rolling", target=30),
        pig("MAX 2, MIN 12, MIN won"),
    ]
    assert [repr(g) for g in games[:3]] == ["pig()", "pig(target=20)", "pig('MAX 5, MIN 3, MAX to play, turn total 4')"]
    for game in games:
        again = eval(repr(game), {"pig": pig})
        assert again == game and hash(again) == hash(game) and again.initial == game.initial
    assert pig() != pig(target=11) and pig() != pig("MAX 0, MIN 0, MIN to play")


@pytest.mark.parametrize(
    ("text", "target", "message"),
    [
        ("MAX 5, MIN 3, MAX to ply", 10, "position 1:15: 'MAX to ply' is not part of a Pig position; write 'MAX 5'"),
        ("", 10, "position 1:1: the position does not give MAX's score; add 'MAX 0'"),
        ("MAX 5", 10, "position 1:6: the position does not give MIN's score; add 'MIN 0'"),
        ("MAX 5, MIN 3", 10, "position 1:13: the position does not give whose turn it is; add 'MAX to play'"),
        ("MAX five, MIN 3, MAX to play", 10, "position 1:5: 'five' is not a number of points; write a whole number"),
        ("MAX 5, MIN 3, MAX to play, turn total -2", 10, "position 1:39: '-2' is not a number of points"),
        ("MAX 5, MIN 3, MAX to play, turn total 12345", 100, "position 1:39: '12345' is not a number of points"),
        ("MAX 5, MAX 3, MIN to play", 10, "position 1:8: MAX's score is given twice (first at 1:1)"),
        ("MAX 5, MIN 3, MAX to play, MIN won", 10, "position 1:28: whose turn it is is given twice (first at 1:15)"),
        ("MAX 5, MIN 3, MAX to play, rolling, rolling", 10, "position 1:37: 'rolling' is given twice"),
        ("MAX 1, MIN 3, MAX to play", 10, "position 1:1: MAX's score 1 cannot arise: every turn banks 0 or at least 2"),
        ("MAX 5, MIN 3, MAX to play, turn total 1", 10, "position 1:28: a turn total of 1 cannot arise"),
        (
            "MAX 12, MIN 3, MAX to play",
            10,
            "position 1:1: MAX's score 12 reaches the target 10, so the game is over; "
            "write 'MAX won' instead of 'MAX to play'",
        ),
        ("MAX 2, MIN 30, MAX to play", 20, "position 1:8: MIN's score 30 reaches the target 20"),
        (
            "MAX 5, MIN 3, MAX to play, turn total 5",
            10,
            "position 1:28: MAX's score 5 plus the turn total 5 reaches the target 10: MAX has won already",
        ),
        ("MAX 5, MIN 3, MAX won", 10, "position 1:1: MAX won but has 5 points, fewer than the target 10"),
        (
            "MAX 16, MIN 3, MAX won",
            10,
            "position 1:1: MAX's score 16 cannot arise: the game ends when a roll reaches the target 10, at 15 at most",
        ),
        ("MAX 7, MIN 0, MAX won", 2, "at 6 at most"),  # with the target 2 the turn starts at 0 (1 cannot arise)
        ("MAX 12, MIN 10, MAX won", 10, "position 1:9: MIN's score 10 reaches the target 10 too"),
        ("MAX 12, MIN 3, MAX won, turn total 4", 10, "position 1:25: MAX won: a finished game has no turn total"),
        ("MAX 3, MIN 12, MIN won, rolling", 10, "position 1:25: MIN won: a finished game has no roll to come"),
        ("MAX 5\nMIN 3\nMAX to play\nturn total x", 10, "position 4:12: 'x' is not a number of points"),
        ("MAX 5,\n  MIN 3, MIN to go", 10, "position 2:10: 'MIN to go' is not part of a Pig position"),
    ],
)
def test_every_parse_error_names_line_column_and_what_is_wrong(text: str, target: int, message: str) -> None:
    with pytest.raises(UsageError) as raised:
        pig(text, target=target)
    assert message in str(raised.value)
    assert isinstance(raised.value, ExpectvizError) and isinstance(raised.value, ValueError)


def test_a_position_that_is_not_text_is_an_input_type_error() -> None:
    with pytest.raises(InputTypeError, match="pig\\(\\) takes a position as text"):
        pig(5)  # type: ignore[arg-type]


# ---------------------------------------------------------------- evaluation, utility, picture


@pytest.mark.parametrize("target", [2, 10, 40, 100])
def test_evaluation_and_utility_stay_inside_the_value_range_on_random_states(target: int) -> None:
    game = pig(target=target)
    low, high = game.value_range
    for s in walk(game, seed=7 * target, steps=3000):
        e = game.evaluate(s)
        assert isinstance(e, (int, Fraction))
        if game.is_terminal(s):
            assert e == game.utility(s) in (low, high)
        else:
            assert low < e < high


def states_of(target: int) -> Iterator[tuple[int, int, int, str]]:
    """Every decision state of a game still on: (MAX's score, MIN's score, turn total, whose turn)."""
    for max_score in range(target):
        for min_score in range(target):
            for player in ("MAX", "MIN"):
                own = max_score if player == "MAX" else min_score
                for total in range(target - own):
                    yield max_score, min_score, total, player


def decision(game: Pig, max_score: int, min_score: int, total: int, player: str) -> int:
    """A decision state from its parts; unlike the notation it allows scores and turn totals of 1, which no
    game reaches but which the evaluation and value iteration cover too."""
    return make_state(max_score, min_score, total, player.lower(), False, game.target)


def evaluation(game: Pig, max_score: int, min_score: int, total: int, player: str) -> Fraction | int:
    return game.evaluate(decision(game, max_score, min_score, total, player))


@pytest.mark.parametrize("target", [10, 30])
def test_the_evaluation_is_monotone_in_the_obvious_ways(target: int) -> None:
    game = pig(target=target)
    for max_score, min_score, total, player in states_of(target):
        e = evaluation(game, max_score, min_score, total, player)
        mover = max_score if player == "MAX" else min_score
        if max_score + 1 + (total if player == "MAX" else 0) < target:  # more banked points for MAX: better for MAX
            assert evaluation(game, max_score + 1, min_score, total, player) > e
        if min_score + 1 + (total if player == "MIN" else 0) < target:  # for MIN: worse for MAX
            assert evaluation(game, max_score, min_score + 1, total, player) < e
        if mover + total + 1 < target:  # a larger turn total helps the player whose turn it is
            better = evaluation(game, max_score, min_score, total + 1, player)
            assert better > e if player == "MAX" else better < e
        mirrored = evaluation(game, min_score, max_score, total, "MIN" if player == "MAX" else "MAX")
        assert mirrored == -e  # the same position with the roles swapped
    assert evaluation(game, 0, 0, 0, "MAX") > 0 > evaluation(game, 0, 0, 0, "MIN")  # having the turn is worth points
    assert evaluation(game, 0, 0, 0, "MAX") == Fraction(TURN_BONUS, 2 * target + TURN_BONUS)


@pytest.mark.parametrize("target", [10, 20])
def test_the_evaluation_agrees_in_sign_with_optimal_values_where_one_side_is_clearly_ahead(target: int) -> None:
    game = pig(target=target)
    for max_score, min_score, total, player in states_of(target):
        s = decision(game, max_score, min_score, total, player)
        optimal = game.optimal_value(s)
        if abs(optimal) > 0.4:
            assert (game.evaluate(s) > 0) == (optimal > 0), game.position(s)


def test_picture_is_a_clean_small_svg() -> None:
    positions = [
        ("MAX 0, MIN 0, MAX to play", 10),
        ("MAX 5, MIN 3, MAX to play, turn total 4, rolling", 10),
        ("MAX 5, MIN 3, MIN to play, turn total 0, rolling", 10),
        ("MAX 12, MIN 7, MAX won", 10),
        ("MAX 45, MIN 104, MIN won", 100),
        ("MAX 45, MIN 19, MIN to play, turn total 24, rolling", 100),
    ]
    for text, target in positions:
        game, s = at(text, target)
        svg = game.picture(s)
        picture, why = clean_picture(svg)
        assert picture is not None and why == "", (text, why)
        assert svg == game.picture(s) and 'width="40"' in svg
        assert str(game.scores(s)[0]) in svg and str(game.scores(s)[1]) in svg
        assert "#0072B2" in svg and "#D55E00" in svg
    assert 'width="80"' in pig().picture(pig().initial, 80)
    for size in (0, -1, 10_000, "40", True, None):
        with pytest.raises(RenderError, match="is not a number of pixels"):
            pig().picture(pig().initial, size)  # type: ignore[arg-type]


# ---------------------------------------------------------------- the searches

SEARCHED = [
    (None, 10),
    ("MAX 6, MIN 4, MIN to play, turn total 2", 10),
    ("MAX 7, MIN 8, MAX to play, turn total 0, rolling", 10),
    ("MAX 0, MIN 0, MAX to play, turn total 6", 20),
    ("MAX 50, MIN 60, MAX to play, turn total 22", 100),
]


@pytest.mark.parametrize(("position", "target"), SEARCHED)
def test_expectiminimax_agrees_with_a_bare_expectiminimax_node_for_node(position: str | None, target: int) -> None:
    game = pig(position, target=target)
    for depth in range(1, 7):
        value, nodes = bare_expectiminimax(game, game.initial, depth)
        r = ev.expectiminimax(game, depth=depth, trace=False)
        assert r.exact_value == value and r.stats.nodes_visited == nodes, depth


@pytest.mark.parametrize(("position", "target"), SEARCHED)
def test_star1_and_star2_equal_expectiminimax(position: str | None, target: int) -> None:
    game = pig(position, target=target)
    for depth in (1, 2, 3, 5, 7):
        exact = ev.expectiminimax(game, depth=depth, trace=False)
        for search in (ev.star1, ev.star2):
            for order in (None, pig_order):
                r = search(game, depth=depth, trace=False, order=order)
                assert r.exact_value == exact.exact_value, (search, depth, order)
                assert r.stats.nodes_visited <= exact.stats.nodes_visited


def test_a_traced_search_explores_labelled_moves_with_clean_pictures() -> None:
    game = pig("MAX 6, MIN 8, MAX to play, turn total 2")
    r = ev.expectiminimax(game, depth=3)
    assert r.best_action == "roll" and r.best_move == "MAX rolls" and r.trace is not None
    tree = r.tree
    assert tree is not None and [child.move for child in tree.children] == ["MAX rolls", "MAX holds 2"]
    die = tree.children[0]
    assert [(child.move, child.probability) for child in die.children[:3]] == [
        ("rolled 1 (bust)", Fraction(1, 6)),
        ("rolled 2 (wins)", Fraction(1, 6)),
        ("rolled 3 (wins)", Fraction(1, 6)),
    ]
    for _, node in ev.walk(tree):
        picture, why = picture_of(game, node.state)
        assert picture is not None and why == ""


# ---------------------------------------------------------------- value iteration


def test_the_start_value_computed_once_per_target() -> None:
    game = pig()
    assert game.win_probability(game.initial) == pytest.approx(0.7094243225980237, abs=1e-10)
    assert game.optimal_value(game.initial) == pytest.approx(2 * 0.7094243225980237 - 1, abs=1e-10)
    assert game.solve() is pig().solve()  # computed once per target


@pytest.mark.parametrize("target", [2, 3, 10, 16])
def test_win_probabilities_satisfy_the_rules_at_every_reachable_state(target: int) -> None:
    """The optimal value is a fixed point of expectiminimax: MAX maximises, MIN minimises, the die averages."""
    game = pig(target=target)
    p = game.win_probability
    for s in reachable(game):
        v = p(s)
        assert 0.0 <= v <= 1.0
        if game.is_terminal(s):
            assert v == (1.0 if game.utility(s) == 1 else 0.0)
            continue
        player = game.to_move(s)
        if player == ev.CHANCE:
            assert v == pytest.approx(sum(float(q) * p(game.result(s, face)) for face, q in DIE), abs=1e-10)
            continue
        children = {a: p(game.result(s, a)) for a in game.actions(s)}
        best = max(children.values()) if player == ev.MAX else min(children.values())
        assert v == pytest.approx(best, abs=1e-10)
        assert children[game.optimal_action(s)] == pytest.approx(best, abs=1e-10)


def test_the_mirrored_position_has_the_complementary_probability() -> None:
    game = pig(target=12)
    for max_score, min_score, total, player in states_of(12):
        s = decision(game, max_score, min_score, total, player)
        mirrored = decision(game, min_score, max_score, total, "MIN" if player == "MAX" else "MAX")
        assert game.win_probability(s) + game.win_probability(mirrored) == pytest.approx(1.0, abs=1e-12)


def test_optimal_decisions() -> None:
    game = pig()
    assert all(  # up to the target 30 holding is never optimal: a hold hands over a turn that often wins
        game.optimal_action(decision(game, a, b, k, who)) == "roll" for a, b, k, who in states_of(10) if k > 0
    )
    game = pig(target=40)
    assert game.optimal_action(at("MAX 0, MIN 0, MAX to play, turn total 24", 40)[1]) == "hold"
    assert game.optimal_action(at("MAX 0, MIN 0, MIN to play, turn total 24", 40)[1]) == "hold"
    assert game.optimal_action(at("MAX 0, MIN 0, MAX to play, turn total 10", 40)[1]) == "roll"
    assert game.optimal_action(at("MAX 0, MIN 30, MAX to play, turn total 24", 40)[1]) == "roll"  # racing
    for text in ("MAX 0, MIN 0, MAX to play, turn total 2, rolling", "MAX 12, MIN 0, MAX won"):
        with pytest.raises(UsageError, match="is not a decision"):
            pig(text).optimal_action(pig(text).initial)


@pytest.mark.parametrize(
    "position",
    [
        None,
        "MAX 8, MIN 8, MAX to play, turn total 0",
        "MAX 0, MIN 8, MAX to play, turn total 6",
        "MAX 6, MIN 2, MIN to play, turn total 4",
        "MAX 4, MIN 4, MAX to play, turn total 3, rolling",
    ],
)
def test_deeper_searches_come_near_the_value_iteration_value(position: str | None) -> None:
    game = pig(position)
    optimal = game.optimal_value(game.initial)
    shallow = ev.expectiminimax(game, depth=1, trace=False)
    deep = ev.expectiminimax(game, depth=10, trace=False)
    assert abs(float(deep.exact_value) - optimal) < 0.005
    assert abs(float(deep.exact_value) - optimal) < abs(float(shallow.exact_value) - optimal)
    if not game.rolling(game.initial):  # the deep search's move is the optimal one
        assert deep.best_action == game.optimal_action(game.initial) == "roll"


def test_pig_order_holds_first_only_at_20_and_far_from_the_target() -> None:
    def first(position: str, target: int) -> str:
        game, s = at(position, target)
        return sorted(game.actions(s), key=lambda a: pig_order(s, a))[0]

    assert first("MAX 10, MIN 30, MAX to play, turn total 22", 100) == "hold"
    assert first("MAX 10, MIN 30, MIN to play, turn total 20", 100) == "hold"
    assert first(f"MAX 10, MIN 30, MIN to play, turn total {HOLD_AT - 1}", 100) == "roll"
    assert first(f"MAX 10, MIN {100 - RACE + 1}, MAX to play, turn total 22", 100) == "roll"  # the race to the end
    game = pig()
    assert all(pig_order(s, "roll") < pig_order(s, "hold") for s in walk(game, seed=3, steps=500))
    game = pig(target=40)  # against the optimal policy, over every decision with both moves
    agree = total = 0
    for a, b, k, who in states_of(40):
        if k > 0:
            s = decision(game, a, b, k, who)
            agree += game.optimal_action(s) == min(game.actions(s), key=lambda m: pig_order(s, m))
            total += 1
    assert agree / total > 0.9
