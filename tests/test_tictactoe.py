"""Tic-tac-toe and coin-flip tic-tac-toe (expectviz.games.tictactoe): the rules, the notation, the picture.

The node counts are checked with a bare recursive minimax written here, so they test the rules independently
of the search core; the divergence between expectiminimax on the coin and minimax against an opponent who
blocks goes through the public search API.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import expectviz as ev
from expectviz.errors import ExpectvizError, InputTypeError, OptionError, RenderError, UsageError
from expectviz.game import ChanceGame, Game
from expectviz.games.tictactoe import (
    GAMES,
    LINES,
    CoinFlipTicTacToe,
    TicTacToe,
    center_first,
    coinflip_tictactoe,
    square_name,
    tictactoe,
)

SVG = "{http://www.w3.org/2000/svg}"
NAMESPACE = {"tictactoe": tictactoe, "coinflip_tictactoe": coinflip_tictactoe}

# ---------------------------------------------------------------- helpers


def play(game: Any, *moves: Any) -> Any:
    """The state after these moves (and chance outcomes) from the game's initial state."""
    state = game.initial
    for move in moves:
        state = game.result(state, move)
    return state


@st.composite
def reachable(draw: Any, game: Any, *, chance: bool = False) -> Any:
    """A state reached from ``game.initial`` by random legal moves and chance outcomes.

    With ``chance``: a CHANCE state, or a terminal one (a game has at most 17 moves and outcomes).
    """
    state = game.initial
    for _ in range(20):
        if game.is_terminal(state):
            break
        if game.to_move(state) == ev.CHANCE:
            if chance and draw(st.booleans()):
                break
            options = [outcome for outcome, _ in game.chance_outcomes(state)]
        else:
            if not chance and draw(st.integers(0, 5)) == 0:
                break
            options = list(game.actions(state))
        state = game.result(state, draw(st.sampled_from(options)))
    return state


def bare_minimax(game: Any) -> tuple[int, int, int]:
    """The minimax value, nodes visited and leaves of the whole game tree: no table, moves in the game's order."""
    to_move, actions, result, is_terminal, utility = (
        game.to_move,
        game.actions,
        game.result,
        game.is_terminal,
        game.utility,
    )
    nodes = leaves = 0

    def value(state: int) -> int:
        nonlocal nodes, leaves
        nodes += 1
        if is_terminal(state):
            leaves += 1
            return int(utility(state))
        values = [value(result(state, a)) for a in actions(state)]
        return max(values) if to_move(state) == ev.MAX else min(values)

    v = value(game.initial)
    return v, nodes, leaves


def bare_alphabeta(game: Any) -> tuple[float, int, int]:
    """AIMA's alpha-beta (Fig. 5.7): the value, nodes visited and leaves."""
    nodes = leaves = 0

    def value(state: int, alpha: float, beta: float) -> float:
        nonlocal nodes, leaves
        nodes += 1
        if game.is_terminal(state):
            leaves += 1
            return float(game.utility(state))
        if game.to_move(state) == ev.MAX:
            v = -math.inf
            for a in game.actions(state):
                v = max(v, value(game.result(state, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(state):
            v = min(v, value(game.result(state, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    v = value(game.initial, -math.inf, math.inf)
    return v, nodes, leaves


def solver(game: Any) -> Callable[[int], Fraction | int]:
    """Expectiminimax with memoisation over a game's states (MIN, MAX and CHANCE in any arrangement)."""
    memo: dict[int, Fraction | int] = {}

    def value(state: int) -> Fraction | int:
        if state in memo:
            return memo[state]
        if game.is_terminal(state):
            v: Fraction | int = game.utility(state)
        elif game.to_move(state) == ev.CHANCE:
            v = sum((p * value(game.result(state, o)) for o, p in game.chance_outcomes(state)), Fraction(0))
        else:
            values = [value(game.result(state, a)) for a in game.actions(state)]
            v = max(values) if game.to_move(state) == ev.MAX else min(values)
        memo[state] = v
        return v

    return value


def all_states(game: Any) -> set[int]:
    """Every state reachable from the game's initial state."""
    seen = {game.initial}
    stack = [game.initial]
    while stack:
        state = stack.pop()
        if game.is_terminal(state):
            continue
        if game.to_move(state) == ev.CHANCE:
            children = [game.result(state, o) for o, _ in game.chance_outcomes(state)]
        else:
            children = [game.result(state, a) for a in game.actions(state)]
        for child in children:
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return seen


# ---------------------------------------------------------------- the rules


def test_the_empty_board() -> None:
    game = tictactoe()
    s = game.initial
    assert game.name == "tictactoe" and isinstance(game, TicTacToe)
    assert isinstance(game, Game)
    assert game.to_move(s) == ev.MAX
    assert list(game.actions(s)) == list(range(9))
    assert not game.is_terminal(s)
    assert game.position(s) == ".../.../..."
    assert game.value_range == (-1, 1)


def test_moves_alternate_and_fill_squares_in_row_major_order() -> None:
    game = tictactoe()
    s = play(game, 4)  # X b2
    assert game.to_move(s) == ev.MIN
    assert list(game.actions(s)) == [0, 1, 2, 3, 5, 6, 7, 8]
    assert game.position(s) == ".../.X./..."
    s = play(game, 4, 0)  # O a1
    assert game.to_move(s) == ev.MAX
    assert game.position(s) == "O../.X./..."
    assert game.text(play(game, 4, 0, 8)) == "O . .\n. X .\n. . X"


@pytest.mark.parametrize("line", LINES)
def test_three_in_a_row_wins_for_x_on_every_line(line: tuple[int, int, int]) -> None:
    game = tictactoe()
    others = [i for i in range(9) if i not in line][:2]
    moves = [line[0], others[0], line[1], others[1], line[2]]
    for k in range(len(moves)):
        assert not game.is_terminal(play(game, *moves[:k]))
    s = play(game, *moves)
    assert game.is_terminal(s) and game.utility(s) == 1 and game.evaluate(s) == 1


@pytest.mark.parametrize("line", LINES)
def test_three_in_a_row_wins_for_o_on_every_line(line: tuple[int, int, int]) -> None:
    game = tictactoe()
    rest = [i for i in range(9) if i not in line]
    xs = next(
        (a, b, c)
        for a in rest
        for b in rest
        for c in rest
        if a < b < c and tuple(sorted((a, b, c))) not in {tuple(sorted(ln)) for ln in LINES}
    )
    moves = [xs[0], line[0], xs[1], line[1], xs[2], line[2]]
    for k in range(len(moves)):
        assert not game.is_terminal(play(game, *moves[:k]))
    s = play(game, *moves)
    assert game.is_terminal(s) and game.utility(s) == -1 and game.evaluate(s) == -1


def test_a_full_board_without_a_line_is_a_draw() -> None:
    game = tictactoe("XOX/XOO/OXX")
    s = game.initial
    assert game.is_terminal(s) and game.utility(s) == 0 and game.evaluate(s) == 0
    assert list(game.actions(s)) == []
    # the same draw reached by moves: the last move fills the board
    s = play(tictactoe(), 0, 1, 2, 4, 3, 5, 7, 6, 8)
    assert tictactoe().position(s) == "XOX/XOO/OXX" and tictactoe().is_terminal(s)


def test_a_win_on_the_last_square_counts_as_a_win() -> None:
    game = tictactoe("XOX/OXO/OX.")
    s = game.result(game.initial, 8)
    assert game.is_terminal(s) and game.utility(s) == 1


@pytest.mark.parametrize(
    ("position", "expected"),
    [
        (".../.../...", Fraction(0)),
        (".../.X./...", Fraction(4, 25)),  # the centre: four open lines
        ("X../.../...", Fraction(3, 25)),  # a corner: three
        (".X./.../...", Fraction(2, 25)),  # an edge: two
        ("X../.O./...", Fraction(-1, 25)),  # X1 = 2 (row 1, column a) against O1 = 3
        ("XX./.O./...", Fraction(2, 25)),  # X2 = 1 (row 1), X1 = 1 (column a); O1 = 2 (row 2, the other diagonal)
        ("XX./OO./...", Fraction(-1, 25)),  # 3·1 against 3·1 + 1 (O's diagonal c1-b2-a3)
        ("XOX/.O./...", Fraction(-2, 25)),  # X1 = 2 (columns a, c); O2 = 1 (column b), O1 = 1 (row 2)
    ],
)
def test_evaluation_on_hand_checked_positions(position: str, expected: Fraction) -> None:
    game = tictactoe(position)
    value = game.evaluate(game.initial)
    assert value == expected and isinstance(value, Fraction)


def test_blocked_squares_kill_lines_in_the_evaluation() -> None:
    game = coinflip_tictactoe("X../.#./...")
    assert game.evaluate(game.initial) == Fraction(2, 25)  # the diagonal a1-b2-c3 is dead
    game = coinflip_tictactoe("XX#/.O./...")
    assert game.evaluate(game.initial) == 0  # row 1, column c and a diagonal dead: X1 = 1 (column a), O1 = 1 (row 2)


def test_the_evaluation_stays_inside_the_open_interval_on_every_state() -> None:
    game = tictactoe()
    states = all_states(game)
    assert len(states) == 5478  # the reachable positions of tic-tac-toe
    values = [game.evaluate(s) for s in states if not game.is_terminal(s)]
    assert max(abs(v) for v in values) < 1
    assert max(abs(v) for v in values) * 25 <= 24


@given(reachable(coinflip_tictactoe()))
def test_the_coin_flip_evaluation_stays_inside_the_open_interval(state: int) -> None:
    game = coinflip_tictactoe()
    if game.is_terminal(state):
        assert game.evaluate(state) == game.utility(state)
    else:
        assert -1 < game.evaluate(state) < 1


def test_move_labels_name_the_mover_and_the_square() -> None:
    game = tictactoe()
    assert [square_name(i) for i in range(9)] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    assert [game.move_label(game.initial, a) for a in (0, 4, 8)] == ["X a1", "X b2", "X c3"]
    assert game.move_label(play(game, 4), 2) == "O c1"
    cf = coinflip_tictactoe()
    s = play(cf, 4)
    assert [cf.move_label(s, o) for o, _ in cf.chance_outcomes(s)][:3] == ["no block", "block a1", "block b1"]
    assert cf.move_label(play(cf, 4, None), 0) == "O a1"


def test_center_first_orders_centre_corners_edges() -> None:
    assert sorted(range(9), key=lambda a: center_first(0, a)) == [4, 0, 2, 6, 8, 1, 3, 5, 7]
    assert sorted([None, 8, 1, 4], key=lambda a: center_first(0, a)) == [None, 4, 8, 1]


# ---------------------------------------------------------------- counts with a bare minimax


def test_bare_minimax_counts_the_whole_game() -> None:
    assert bare_minimax(tictactoe()) == (0, 549_946, 255_168)


def test_bare_alphabeta_counts_the_whole_game() -> None:
    assert bare_alphabeta(tictactoe()) == (0, 18_297, 7_330)


@pytest.mark.parametrize("opening", range(9))
def test_every_opening_is_a_draw(opening: int) -> None:
    game = tictactoe()
    position = game.position(game.result(game.initial, opening))
    value, _, _ = bare_minimax(tictactoe(position))
    assert value == 0


def test_the_search_core_counts_the_same() -> None:
    r = ev.minimax(tictactoe(), trace=False)
    assert (r.value, r.stats.nodes_visited, r.stats.leaves_evaluated) == (0, 549_946, 255_168)
    assert r.best_move == "X a1"
    r = ev.alphabeta(tictactoe(), trace=False)
    assert (r.value, r.stats.nodes_visited, r.stats.leaves_evaluated) == (0, 18_297, 7_330)


# ---------------------------------------------------------------- the notation


@given(reachable(tictactoe()))
def test_position_round_trip(state: int) -> None:
    game = tictactoe()
    position = game.position(state)
    assert tictactoe(position).initial == state
    assert tictactoe(game.text(state)).initial == state
    assert tictactoe(position.lower().replace(".", "-")).initial == state


@given(reachable(coinflip_tictactoe()))
def test_coin_flip_position_round_trip(state: int) -> None:
    game = coinflip_tictactoe()
    if game.to_move(state) == ev.CHANCE:
        state = game.result(state, None)  # positions are written at a MAX or MIN turn
    position = game.position(state)
    again = coinflip_tictactoe(position)
    assert again.initial == state
    assert again.to_move(again.initial) == game.to_move(state)
    assert coinflip_tictactoe(game.text(state)).initial == state


def test_the_notation_allows_lowercase_dashes_spaces_and_line_breaks() -> None:
    expected = tictactoe("X.O/.X./..O").initial
    for text in ["x-o/-x-/--o", " X.O / .X. / ..O ", "X . O\n. X .\n. . O\n", "\nX.O\n.X.\n..O", "X.O/\n.X./\n..O"]:
        assert tictactoe(text).initial == expected, text


def test_whose_turn_follows_from_the_counts() -> None:
    assert tictactoe("X.O/.X./...").to_move(tictactoe("X.O/.X./...").initial) == ev.MIN
    game = tictactoe("X.O/.X./..O")
    assert game.to_move(game.initial) == ev.MAX
    game = coinflip_tictactoe("X#O/.X#/...")  # blocks are nobody's marks
    assert game.to_move(game.initial) == ev.MIN


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("X.O/.X./..Z", ["position 1:11:", "'Z'", "X, O or ."]),
        ("X.O/.X./0..", ["position 1:9:", "'0'", "letter O"]),
        ("X.O/.X", ["position 1:7:", "row 2 has 2 squares ('.X')"]),
        ("X.OO/.../...", ["position 1:4:", "row 1 has a fourth square 'O'"]),
        ("X.O/.X./..O/...", ["position 1:13:", "a fourth row"]),
        ("X.O/.X.", ["position 1:8:", "2 rows", "3 rows"]),
        ("", ["position 1:1:", "0 rows"]),
        ("   ", ["position 1:4:", "0 rows"]),
        ("X.O//...", ["position 1:5:", "row 2 has 0 squares"]),
        ("X.O\n.XZ\n..O", ["position 2:3:", "'Z'"]),
        ("X.O\n.X\n..O", ["position 2:3:", "row 2 has 2 squares"]),
        ("X#./.../...", ["position 1:2:", "'#'", "coinflip_tictactoe"]),
        ("XX./.../...", ["X has 2 marks and O has 0", "X moves first"]),
        ("O../.../...", ["X has 0 marks and O has 1"]),
        ("XXO/OO./...", ["X has 2 marks and O has 3"]),
        ("XXX/OOO/...", ["both X (a1 b1 c1) and O (a2 b2 c2) have three in a row"]),
        ("XXX/OO./O..", ["X has three in a row (a1 b1 c1)", "X has 3 marks and O has 3"]),
        ("OOO/XX./XX.", ["O has three in a row (a1 b1 c1)", "X has 4 marks and O has 3"]),
    ],
)
def test_bad_positions_are_named(text: str, expected: list[str]) -> None:
    with pytest.raises(UsageError) as info:
        tictactoe(text)
    assert isinstance(info.value, ExpectvizError) and isinstance(info.value, ValueError)
    for part in expected:
        assert part in str(info.value), (part, str(info.value))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("###/X../...", ["3 blocked squares after 1 move", "at most one square is blocked after each move"]),
        ("X.O/.X./..?", ["position 1:11:", "'?'", "# for a blocked square"]),
        ("XX#/.../...", ["X has 2 marks and O has 0"]),
    ],
)
def test_bad_coin_flip_positions_are_named(text: str, expected: list[str]) -> None:
    with pytest.raises(UsageError) as info:
        coinflip_tictactoe(text)
    for part in expected:
        assert part in str(info.value), (part, str(info.value))


def test_a_position_must_be_text_and_the_blocker_a_known_one() -> None:
    with pytest.raises(InputTypeError, match="not int"):
        tictactoe(123)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="blocker='coin' is not a blocker; use 'chance'"):
        coinflip_tictactoe(blocker="coin")


@pytest.mark.parametrize(
    "game",
    [
        tictactoe(),
        tictactoe("X.O/.X./..O"),
        tictactoe("XOX/XOO/OXX"),
        coinflip_tictactoe(),
        coinflip_tictactoe("X#O/.X#/..."),
        coinflip_tictactoe(blocker="opponent"),
        coinflip_tictactoe("XO./X../O..", blocker="opponent"),
    ],
)
def test_repr_evaluates_back(game: Any) -> None:
    again = eval(repr(game), NAMESPACE)
    assert again == game and again.initial == game.initial and repr(again) == repr(game)
    assert hash(again) == hash(game)


def test_reprs_look_like_the_calls() -> None:
    assert repr(tictactoe()) == "tictactoe()"
    assert repr(tictactoe("x-o/-x-/--o")) == "tictactoe('X.O/.X./..O')"
    assert repr(coinflip_tictactoe("X#./.../...", blocker="opponent")) == (
        "coinflip_tictactoe('X#./.../...', blocker='opponent')"
    )
    assert tictactoe() != coinflip_tictactoe() and coinflip_tictactoe() != coinflip_tictactoe(blocker="opponent")


# ---------------------------------------------------------------- the picture


@pytest.mark.parametrize(
    ("game", "crosses", "noughts", "blocks"),
    [
        (tictactoe(), 0, 0, 0),
        (tictactoe("XOX/XOO/OXX"), 5, 4, 0),
        (coinflip_tictactoe("X#O/.X#/O.."), 2, 2, 2),
    ],
)
def test_the_picture_is_well_formed_svg(game: Any, crosses: int, noughts: int, blocks: int) -> None:
    svg = game.picture(game.initial)
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("40", "40", "0 0 30 30")
    assert len(root.findall(f".//{SVG}circle")) == noughts
    assert len(root.findall(f"{SVG}rect")) == 1 + blocks  # the board, then one square per block
    paths = [p.get("d", "") for p in root.findall(f"{SVG}path")]
    assert sum(d.count("M") for d in paths) == 4 + 2 * crosses  # four grid lines, two strokes per cross
    for banned in ("id=", "<script", "href", "url("):
        assert banned not in svg
    assert game.picture(game.initial) == svg  # deterministic
    assert len(svg) < 1200


def test_the_picture_takes_a_size() -> None:
    game = tictactoe("X.O/.X./..O")
    root = ET.fromstring(game.picture(game.initial, size=24))
    assert (root.get("width"), root.get("height")) == ("24", "24")
    with pytest.raises(RenderError, match="picture size 0"):
        game.picture(game.initial, size=0)


def test_x_and_o_have_different_colours() -> None:
    game = tictactoe("X.O/.../...")
    svg = game.picture(game.initial)
    assert "#0072B2" in svg and "#D55E00" in svg


# ---------------------------------------------------------------- coin-flip tic-tac-toe


def test_the_coin_is_flipped_after_each_move_that_does_not_end_the_game() -> None:
    game = coinflip_tictactoe()
    assert isinstance(game, CoinFlipTicTacToe) and game.name == "coinflip-tictactoe"
    assert isinstance(game, ChanceGame)
    s = play(game, 4)
    assert game.to_move(s) == ev.CHANCE and not game.is_terminal(s)
    outcomes = list(game.chance_outcomes(s))
    assert outcomes == [(None, Fraction(1, 2))] + [(sq, Fraction(1, 16)) for sq in (0, 1, 2, 3, 5, 6, 7, 8)]
    assert game.to_move(game.result(s, None)) == ev.MIN  # the other player moves next
    blocked = game.result(s, 0)
    assert game.to_move(blocked) == ev.MIN and game.position(blocked) == "#../.X./..."
    assert 0 not in game.actions(blocked)
    # a winning move ends the game: no coin
    won = play(coinflip_tictactoe("XX./OO./..."), 2)
    assert game.is_terminal(won) and game.utility(won) == 1


@given(reachable(coinflip_tictactoe(), chance=True))
def test_chance_probabilities_sum_to_exactly_one(state: int) -> None:
    game = coinflip_tictactoe()
    if game.is_terminal(state):
        return
    assert game.to_move(state) == ev.CHANCE
    outcomes = list(game.chance_outcomes(state))
    empty = [a for a in outcomes[1:]]
    assert outcomes[0] == (None, Fraction(1, 2))
    assert [sq for sq, _ in empty] == sorted(sq for sq, _ in empty)
    assert all(p == Fraction(1, 2 * len(empty)) for _, p in empty)
    assert sum(p for _, p in outcomes) == 1 and all(isinstance(p, Fraction) for _, p in outcomes)


def test_a_block_on_the_last_square_ends_in_a_draw() -> None:
    game = coinflip_tictactoe("XOX/XOO/.X.")  # O to move; a3 and c3 are empty
    s = game.result(game.initial, 6)  # O a3: no line, one square left
    assert game.to_move(s) == ev.CHANCE
    assert list(game.chance_outcomes(s)) == [(None, Fraction(1, 2)), (8, Fraction(1, 2))]
    end = game.result(s, 8)
    assert game.is_terminal(end) and game.utility(end) == 0 and game.position(end) == "XOX/XOO/OX#"
    assert not game.is_terminal(game.result(s, None))  # no block: X still has c3


def test_the_opponent_blocks_in_the_opponent_variant() -> None:
    game = coinflip_tictactoe(blocker="opponent")
    after_x = play(game, 4)
    assert game.to_move(after_x) == ev.MIN  # O chooses the block after X's move
    assert list(game.actions(after_x)) == [None, 0, 1, 2, 3, 5, 6, 7, 8]
    assert [game.move_label(after_x, a) for a in game.actions(after_x)[:2]] == ["no block", "block a1"]
    after_o = play(game, 4, 1, 0)  # X b2, block b1, O a1
    assert game.to_move(after_o) == ev.MAX  # X chooses the block after O's move
    assert game.to_move(game.result(after_o, None)) == ev.MAX  # and then moves
    assert game.position(after_o) == "O#./.X./..."


def test_the_whole_coin_flip_game_is_a_draw_either_way() -> None:
    assert solver(coinflip_tictactoe())(0) == 0
    assert solver(coinflip_tictactoe(blocker="opponent"))(0) == 0


# ---------------------------------------------------------------- where the coin and the worst case part


DIVERGENCE = "XO./X../O.."
"""X (a1, a2) to move against O (b1, a3): b2 forks (c2 and c3), and takes the square both O lines need."""


def test_the_divergence_position_with_a_bare_solver() -> None:
    chance, opponent = coinflip_tictactoe(DIVERGENCE), coinflip_tictactoe(DIVERGENCE, blocker="opponent")
    by_coin, by_opponent = solver(chance), solver(opponent)
    s = chance.initial
    coin_values = {chance.move_label(s, a): by_coin(chance.result(s, a)) for a in chance.actions(s)}
    worst_values = {opponent.move_label(s, a): by_opponent(opponent.result(s, a)) for a in opponent.actions(s)}
    assert coin_values == {
        "X c1": Fraction(-25, 96),
        "X b2": Fraction(29, 48),
        "X c2": Fraction(-25, 96),
        "X b3": 0,
        "X c3": Fraction(-25, 96),
    }
    assert set(worst_values.values()) == {0}  # every threat is blocked: every move is a draw


def test_expectiminimax_and_minimax_against_the_blocker_choose_different_moves() -> None:
    r = ev.expectiminimax(coinflip_tictactoe(DIVERGENCE), trace=False)
    assert r.best_move == "X b2" and r.value == pytest.approx(29 / 48)
    r = ev.minimax(coinflip_tictactoe(DIVERGENCE, blocker="opponent"), trace=False)
    assert r.best_move == "X c1" and r.value == 0  # all moves tie at 0: the first in row-major order


# ---------------------------------------------------------------- the registry


def test_the_registry_builds_each_game_without_arguments() -> None:
    assert set(GAMES) == {"tictactoe", "coinflip-tictactoe"}
    for name, make in GAMES.items():
        game = make()
        assert game.name == name and game.initial == 0
