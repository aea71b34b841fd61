"""A small 2048 (expectviz.games.game2048): the rules, the notation, the picture, and the searches on it.

The moves are checked against a reference slide written here on lists of tile values (rows and columns read
off the grid, not the game's tables), and the values of the searches against a bare expectimax written here,
so that the rules and the search core are tested independently of each other.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

import expectviz as ev
from expectviz.errors import ExpectvizError, InputTypeError, OptionError, RenderError, UsageError
from expectviz.game import ChanceGame, Game
from expectviz.games.game2048 import (
    DEFAULT_TARGET,
    GAMES,
    MOVES,
    START,
    TEXT_COLOURS,
    TILE_COLOURS,
    Game2048,
    cell_name,
    contrast,
    game2048,
    game2048_order,
)
from expectviz.render.picture import clean_picture

SVG = "{http://www.w3.org/2000/svg}"
NAMESPACE = {"game2048": game2048}

# ---------------------------------------------------------------- helpers


def play(game: Game2048, *moves: Any) -> int:
    """The state after these moves and new tiles from the game's initial state."""
    state = game.initial
    for move in moves:
        state = game.result(state, move)
    return state


def slide_line(line: list[int]) -> list[int]:
    """The reference rule on tile values: slide toward the start, equal tiles merge once, the leading pair first."""
    tiles = [v for v in line if v]
    out: list[int] = []
    while tiles:
        if len(tiles) > 1 and tiles[0] == tiles[1]:
            out.append(2 * tiles[0])
            tiles = tiles[2:]
        else:
            out.append(tiles.pop(0))
    return out + [0] * (len(line) - len(out))


def reference_move(tiles: tuple[int, ...], move: str) -> tuple[int, ...]:
    """The board after a move, by the reference rule: each line read from the side the tiles slide toward."""
    n = 3 if len(tiles) == 9 else 2
    grid = [list(tiles[r * n : r * n + n]) for r in range(n)]
    for k in range(n):
        if move in ("left", "right"):
            cells = [(k, c) for c in range(n)]
        else:
            cells = [(r, k) for r in range(n)]
        if move in ("right", "down"):
            cells.reverse()
        for (r, c), value in zip(cells, slide_line([grid[r][c] for r, c in cells]), strict=True):
            grid[r][c] = value
    return tuple(v for row in grid for v in row)


def random_walk(game: Game2048, rng: random.Random, steps: int = 200) -> list[int]:
    """The states of one game played with random moves and random new tiles (by their probabilities)."""
    state, seen = game.initial, [game.initial]
    for _ in range(steps):
        if game.is_terminal(state):
            break
        if game.to_move(state) == ev.CHANCE:
            outcomes = game.chance_outcomes(state)
            tile = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            state = game.result(state, tile)
        else:
            state = game.result(state, rng.choice(game.actions(state)))
        seen.append(state)
    return seen


GAMES_TO_WALK = [game2048(), game2048(target=16), game2048(size=3), game2048(size=3, target=128)]
WALKED = [
    (game, state)
    for i, game in enumerate(GAMES_TO_WALK)
    for s in range(12)
    for state in random_walk(game, random.Random(100 * i + s))
]


def bare_expectimax(game: Game2048, state: int, depth: int | None) -> Fraction | int:
    """Expectimax from the pseudocode: utility at the end, the evaluation at the depth limit, no table, no pruning."""
    if game.is_terminal(state):
        return game.utility(state)
    if depth == 0:
        return game.evaluate(state)
    below = None if depth is None else depth - 1
    if game.to_move(state) == ev.CHANCE:
        return sum(
            (p * bare_expectimax(game, game.result(state, o), below) for o, p in game.chance_outcomes(state)),
            Fraction(0),
        )
    return max(bare_expectimax(game, game.result(state, a), below) for a in game.actions(state))


def solver(game: Game2048) -> Callable[[int], Fraction | int]:
    """Expectimax to the end of the game, memoised on the states (every state reached again has one value)."""
    memo: dict[int, Fraction | int] = {}

    def value(state: int) -> Fraction | int:
        if state not in memo:
            if game.is_terminal(state):
                memo[state] = game.utility(state)
            elif game.to_move(state) == ev.CHANCE:
                memo[state] = sum(
                    (p * value(game.result(state, o)) for o, p in game.chance_outcomes(state)), Fraction(0)
                )
            else:
                memo[state] = max(value(game.result(state, a)) for a in game.actions(state))
        return memo[state]

    return value


# ---------------------------------------------------------------- the slide-and-merge rule


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ("2 2 2", "4 2 ."),  # the leading pair merges, the third tile follows
        ("2 2 4", "4 4 ."),  # a merged tile does not merge again in the same move
        ("4 2 2", "4 4 ."),
        ("8 8 16", "16 16 ."),
        ("4 4 4", "8 4 ."),
        ("2 . 2", "4 . ."),  # tiles meet across empty cells
        (". 2 2", "4 . ."),
        (". . 2", "2 . ."),
        (". 4 2", "4 2 ."),
        ("2 4 2", "2 4 2"),  # no change: left is illegal
        ("2 4 .", "2 4 ."),
        ("2 2 .", "4 . ."),
        (". . .", ". . ."),
    ],
)
def test_sliding_a_row_of_three_left(row: str, expected: str) -> None:
    game = game2048(f"{row}/. . ./. . .")
    after = game.result(game.initial, "left") if "left" in game.actions(game.initial) else game.initial
    assert game.position(after).split("/")[0] == expected
    assert ("left" in game.actions(game.initial)) == (row != expected)


@pytest.mark.parametrize(
    ("row", "expected"),
    [("2 2", "4 ."), (". 2", "2 ."), ("4 4", "8 ."), ("2 4", "2 4"), ("2 .", "2 ."), ("16 16", "32 .")],
)
def test_sliding_a_row_of_two_left(row: str, expected: str) -> None:
    game = game2048(f"{row}/. .", target=64)
    moved = "left" in game.actions(game.initial)
    after = game.result(game.initial, "left") if moved else game.initial
    assert game.position(after).split("/")[0] == expected
    assert moved == (row != expected)


def test_the_four_directions_on_one_board() -> None:
    game = game2048("2 2 4/2 . 4/. 2 8", target=64)
    s = game.initial
    assert game.actions(s) == ("up", "down", "left", "right")
    assert game.position(game.result(s, "left")) == "4 4 ./2 4 ./2 8 . +"
    assert game.position(game.result(s, "right")) == ". 4 4/. 2 4/. 2 8 +"
    assert game.position(game.result(s, "up")) == "4 4 8/. . 8/. . . +"
    assert game.position(game.result(s, "down")) == ". . ./. . 8/4 4 8 +"


def test_moves_agree_with_the_reference_rule_on_random_boards() -> None:
    rng = random.Random(2048)
    for n in (2, 3):
        for _ in range(400):
            tiles = tuple(rng.choice((0, 0, 2, 2, 4, 8, 16)) for _ in range(n * n))
            text = "/".join(" ".join(str(v) if v else "." for v in tiles[r * n : r * n + n]) for r in range(n))
            game = game2048(text, target=64)
            legal = game.actions(game.initial)
            assert legal == tuple(m for m in MOVES if reference_move(tiles, m) != tiles), text
            for move in legal:
                after = game.result(game.initial, move)
                assert game.tiles(after) == reference_move(tiles, move), (text, move)
                assert game.pending(after) and game.to_move(after) == ev.CHANCE


def test_the_reference_rule_itself() -> None:
    assert slide_line([2, 2, 2]) == [4, 2, 0]
    assert slide_line([2, 2, 4, 0]) == [4, 4, 0, 0]
    assert slide_line([2, 2, 2, 2]) == [4, 4, 0, 0]
    assert reference_move((2, 0, 0, 2), "down") == (0, 0, 2, 2)


# ---------------------------------------------------------------- legality, new tiles, the end


def test_the_start_and_the_game_protocol() -> None:
    game = game2048()
    s = game.initial
    assert isinstance(game, Game) and isinstance(game, ChanceGame) and isinstance(game, Game2048)
    assert (game.name, game.has_chance, game.value_range) == ("2048", True, (0, 1))
    assert (game.size, game.target) == (2, 32) and DEFAULT_TARGET == {2: 32, 3: 64}
    assert game.position(s) == START[2] == "2 ./. 2"
    assert game.tiles(s) == (2, 0, 0, 2) and not game.pending(s)
    assert game.to_move(s) == ev.MAX and not game.is_terminal(s)
    assert game.actions(s) == MOVES
    big = game2048(size=3)
    assert (big.size, big.target, big.position(big.initial)) == (3, 64, "2 . ./. . ./. . 2")


def test_a_move_is_legal_only_if_it_changes_the_board() -> None:
    assert game2048("2 4/. .").actions(game2048("2 4/. .").initial) == ("down",)
    game = game2048("2 4/4 2")  # locked: no move changes it
    assert game.actions(game.initial) == ()
    assert game.is_terminal(game.initial) and game.utility(game.initial) == 0 and game.evaluate(game.initial) == 0
    game = game2048("2 4/2 8")  # full, but the 2s merge up or down
    assert game.actions(game.initial) == ("up", "down") and not game.is_terminal(game.initial)


def test_a_new_tile_appears_after_each_move() -> None:
    game = game2048()
    s = play(game, "up")  # 2 2/. .
    assert game.to_move(s) == ev.CHANCE and not game.is_terminal(s) and game.pending(s)
    assert game.chance_outcomes(s) == (
        ((2, 2), Fraction(9, 20)),
        ((2, 4), Fraction(1, 20)),
        ((3, 2), Fraction(9, 20)),
        ((3, 4), Fraction(1, 20)),
    )
    assert [game.move_label(s, o) for o, _ in game.chance_outcomes(s)] == ["2 at a2", "4 at a2", "2 at b2", "4 at b2"]
    t = game.result(s, (3, 4))
    assert game.position(t) == "2 2/. 4" and game.to_move(t) == ev.MAX and not game.pending(t)


def test_new_tile_probabilities_are_exact_and_sum_to_one() -> None:
    chance_states = [(g, s) for g, s in WALKED if g.to_move(s) == ev.CHANCE]
    assert len(chance_states) > 500
    for game, state in chance_states:
        outcomes = game.chance_outcomes(state)
        empty = [i for i, v in enumerate(game.tiles(state)) if v == 0]
        e = len(empty)
        assert [o for o, _ in outcomes] == [(cell, tile) for cell in empty for tile in (2, 4)]
        assert [p for _, p in outcomes] == [Fraction(9, 10 * e), Fraction(1, 10 * e)] * e
        assert sum(p for _, p in outcomes) == 1 and all(type(p) is Fraction for _, p in outcomes)


def test_reaching_the_target_wins_at_once() -> None:
    game = game2048("16 16/2 .")
    s = play(game, "left")
    assert game.tiles(s) == (32, 0, 2, 0)
    assert game.is_terminal(s) and not game.pending(s)  # no new tile after the winning move
    assert game.utility(s) == 1 and game.evaluate(s) == 1
    assert game2048("32 ./. .").is_terminal(game2048("32 ./. .").initial)
    # a lower target ends the game earlier
    small = game2048("4 4/. .", target=8)
    assert small.utility(play(small, "left")) == 1


def test_a_locked_board_after_a_new_tile_loses() -> None:
    game = game2048("2 4/8 .")
    assert game.actions(game.initial) == ("down", "right")
    s = play(game, "right")  # 2 4/. 8, and the new tile comes to a2
    assert game.chance_outcomes(s) == (((2, 2), Fraction(9, 10)), ((2, 4), Fraction(1, 10)))
    lost = game.result(s, (2, 4))
    assert game.position(lost) == "2 4/4 8" and game.is_terminal(lost) and game.utility(lost) == 0
    assert game.evaluate(lost) == 0 and game.actions(lost) == ()
    alive = game.result(s, (2, 2))  # 2 4/2 8: the 2s merge up or down
    assert not game.is_terminal(alive) and game.actions(alive) == ("up", "down")


def test_a_move_always_leaves_an_empty_cell() -> None:
    for game, state in WALKED:
        if game.to_move(state) == ev.CHANCE:
            assert 0 in game.tiles(state)


def test_move_labels_and_cell_names() -> None:
    assert [cell_name(i, 2) for i in range(4)] == ["a1", "b1", "a2", "b2"]
    assert [cell_name(i) for i in range(9)] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    game = game2048(size=3)
    assert [game.move_label(game.initial, a) for a in game.actions(game.initial)] == list(MOVES)
    s = play(game, "left")  # 2 . ./. . ./2 . .
    assert game.move_label(s, (8, 4)) == "4 at c3" and game.move_label(s, (1, 2)) == "2 at b1"


# ---------------------------------------------------------------- the evaluation and the ordering key


@pytest.mark.parametrize(
    ("position", "target", "expected"),
    [
        ("2 ./. 2", 32, Fraction(1 * 4 + 2, 4 * 6)),  # m = 1, e = 2, t = 5
        ("8 ./. 2", 32, Fraction(3 * 4 + 2, 4 * 6)),
        ("16 8/16 2", 32, Fraction(4 * 4 + 0, 4 * 6)),  # a full board, not locked: the 16s merge
        ("2 . ./. . ./. . .", 64, Fraction(1 * 9 + 8, 9 * 7)),
        ("2 2/. . +", 32, Fraction(1 * 4 + 2, 4 * 6)),  # a chance state is evaluated too
    ],
)
def test_the_evaluation_on_hand_checked_positions(position: str, target: int, expected: Fraction) -> None:
    game = game2048(position, target=target)
    assert not game.is_terminal(game.initial)
    assert game.evaluate(game.initial) == expected and type(game.evaluate(game.initial)) is Fraction


def test_the_evaluation_stays_in_range_on_random_walks() -> None:
    assert len(WALKED) > 1500
    for game, state in WALKED:
        value = game.evaluate(state)
        if game.is_terminal(state):
            assert value == game.utility(state) in (0, 1)
        else:
            assert 0 <= value < 1 and type(value) is Fraction
            assert value < Fraction(game.target.bit_length() - 1, game.target.bit_length())  # below t/(t+1)


def test_the_ordering_key_frees_cells_first_then_heads_for_the_top_left() -> None:
    game = game2048("2 2 ./. . ./4 . .")
    s = game.initial
    assert sorted(game.actions(s), key=lambda a: game2048_order(s, a)) == ["left", "right", "up", "down"]
    game = game2048("2 ./. 4")  # nothing merges: up, left, right, down
    assert sorted(game.actions(game.initial), key=lambda a: game2048_order(game.initial, a)) == [
        "up",
        "left",
        "right",
        "down",
    ]
    # the key tells the sizes apart: a 3x3 board with tiles only in its first four cells
    big = game2048("2 2 ./2 . ./. . .")
    assert game2048_order(big.initial, "left") == -4 * 7 + 1  # 4 . ./2 . ./. . . frees 7 cells


# ---------------------------------------------------------------- searches against a bare expectimax


POSITIONS = [
    game2048(),
    game2048("2 2/. . +"),
    game2048("8 4/2 ."),
    game2048("16 8/4 ."),
    game2048("4 2/2 .", target=8),
    game2048(size=3),
    game2048("2 4 8/16 . 2/4 . ."),
    game2048("32 16 ./4 . ./. . 2 +"),
]


@pytest.mark.parametrize("game", POSITIONS, ids=repr)
def test_expectiminimax_equals_a_bare_expectimax(game: Game2048) -> None:
    for depth in range(1, 4 if game.size == 3 else 6):
        expected = bare_expectimax(game, game.initial, depth)
        r = ev.expectiminimax(game, depth=depth, trace=False)
        assert r.exact_value == expected, depth
        assert ev.expectiminimax(game, depth=depth, trace=False, order=game2048_order).exact_value == expected


@pytest.mark.parametrize("game", POSITIONS, ids=repr)
def test_star1_and_star2_equal_expectiminimax(game: Game2048) -> None:
    for depth in range(1, 4 if game.size == 3 else 6):
        expected = ev.expectiminimax(game, depth=depth, trace=False).exact_value
        for search in (ev.star1, ev.star2):
            for order in (None, game2048_order):
                r = search(game, depth=depth, trace=False, order=order)
                assert r.exact_value == expected, (search.__name__, depth, order)


def test_the_whole_default_game_is_solved_exactly() -> None:
    game = game2048()
    value = solver(game)(game.initial)
    assert value == Fraction(6631667660933, 80000000000000)  # 8.3%: 32 is hard to reach on a 2x2 board
    r = ev.expectiminimax(game, table=True, trace=False)
    assert r.exact_value == value and r.best_move == "up"
    for search in (ev.star1, ev.star2):
        assert search(game, table=True, trace=False, order=game2048_order).exact_value == value


def test_64_cannot_be_reached_on_a_2x2_board() -> None:
    game = game2048(target=64)
    assert solver(game)(game.initial) == 0


def test_a_whole_small_game_without_a_table() -> None:
    game = game2048("4 2/2 .", target=16)
    expected = bare_expectimax(game, game.initial, None)
    assert ev.expectiminimax(game, trace=False).exact_value == expected == solver(game)(game.initial)


def test_a_traced_search_names_the_moves_and_the_new_tiles() -> None:
    game = game2048("2 2/. .")
    r = ev.expectiminimax(game, depth=2)
    assert r.best_move == "left" and r.trace is not None
    s = play(game, "left")
    assert [game.move_label(s, o) for o, _ in game.chance_outcomes(s)][:2] == ["2 at b1", "4 at b1"]


# ---------------------------------------------------------------- the notation


def test_position_and_text_round_trip_on_random_walks() -> None:
    for game, state in WALKED:
        position = game.position(state)
        again = game2048(position, target=game.target)
        assert again.initial == state, position
        assert game2048(game.text(state), target=game.target).initial == state
        assert again.tiles(again.initial) == game.tiles(state)
        assert again.pending(again.initial) == game.pending(state)


def test_the_notation_reads_zeros_spaces_and_line_breaks() -> None:
    expected = game2048("2 4/. 2 +").initial
    for text in ["2 4/0 2 +", " 2  4 / . 2 + ", "2 4\n. 2\n+", "2 4\n. 2 +\n", "2\t4/.\t2+", "2 4/\n. 2 +"]:
        assert game2048(text).initial == expected, text
    game = game2048("1024 ./2 . +", target=2048)
    assert game.text(game.initial) == "1024    .\n   2    .\n+"


@pytest.mark.parametrize(
    ("text", "options", "expected"),
    [
        ("2 3/. .", {}, ["position 1:3:", "'3' is not a tile", "power of two"]),
        ("2 ./. 1", {}, ["position 1:7:", "'1' is not a tile"]),
        ("2 ./. x", {}, ["position 1:7:", "'x' is not a cell"]),
        ("2./. 2", {}, ["position 1:1:", "'2.'", "separate cells with spaces"]),
        ("2 ./. 65536", {}, ["position 1:7:", "larger than the largest tile", "32768"]),
        ("2 . 2 2/. . . .", {}, ["position 1:8:", "row 1 has 4 cells", "2x2 or 3x3"]),
        ("2/2", {}, ["position 1:2:", "row 1 has 1 cell;"]),
        ("2 ./. 2 2", {}, ["position 1:10:", "row 2 has 3 cells; each row has 2"]),
        ("2 .\n. 2 2", {}, ["position 2:6:", "row 2 has 3 cells"]),
        ("2 ./. 2/. .", {}, ["position 1:12:", "a 2x2 board has 2 rows; this is row 3"]),
        ("2 ./.", {}, ["position 1:6:", "row 2 has 1 cell"]),
        ("", {}, ["position 1:1:", "0 rows"]),
        ("2 .", {}, ["position 1:4:", "1 row;", "a 2x2 board has 2 rows"]),
        ("2 ./. 2 + +", {}, ["position 1:11:", "a second '+'"]),
        ("2 + ./. 2", {}, ["position 1:3:", "'+'", "comes last"]),
        ("2 ./. 2\n+\n2 .", {}, ["position 2:1:", "comes last"]),
        ("2 . ./. . ./. . .", {"size": 2}, ["position 1:6:", "size=2 asks for rows of 2"]),
        ("64 ./. 2", {}, ["the tile 64 is above the target 32"]),
        ("32 ./. 2 +", {}, ["the tile 32 won the game", "drop the '+'"]),
        ("2 4/8 16 +", {}, ["no cell is empty", "drop the '+'"]),
    ],
)
def test_bad_positions_are_named(text: str, options: dict[str, int], expected: list[str]) -> None:
    with pytest.raises(UsageError) as info:
        game2048(text, **options)
    assert isinstance(info.value, ExpectvizError) and isinstance(info.value, ValueError)
    for part in expected:
        assert part in str(info.value), (part, str(info.value))


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"size": 4}, "size=4 is not a board size; use 2 (a 2x2 board) or 3"),
        ({"size": True}, "size=True is not a board size"),
        ({"target": 12}, "target=12 is not a target; use a power of two from 8 to 32768"),
        ({"target": 4}, "target=4 is not a target"),
        ({"target": 16.0}, "target=16.0 is not a target"),
        ({"target": 65536}, "target=65536 is too large"),
    ],
)
def test_bad_options_are_named(options: dict[str, Any], expected: str) -> None:
    with pytest.raises(OptionError) as info:
        game2048(**options)
    assert expected in str(info.value)


def test_a_position_must_be_text() -> None:
    with pytest.raises(InputTypeError, match="not int"):
        game2048(2)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "game",
    [
        game2048(),
        game2048(size=3),
        game2048(target=16),
        game2048(size=3, target=256),
        game2048("2 4/. 2 +"),
        game2048("2 4 ./. . 2/. . . +", target=8),
        game2048("32 ./. ."),
    ],
    ids=repr,
)
def test_repr_evaluates_back(game: Game2048) -> None:
    again = eval(repr(game), NAMESPACE)
    assert again == game and again.initial == game.initial and hash(again) == hash(game)
    assert (again.size, again.target) == (game.size, game.target)


def test_reprs_look_like_the_calls() -> None:
    assert repr(game2048("2 ./0 2")) == "game2048()"
    assert repr(game2048(size=3)) == "game2048(size=3)"
    assert repr(game2048("2 4/. 2 +", target=64)) == "game2048('2 4/. 2 +', target=64)"
    assert game2048() != game2048(target=16) and game2048() != game2048(size=3)


# ---------------------------------------------------------------- the picture


@pytest.mark.parametrize(
    ("game", "numbers", "pluses"),
    [
        (game2048(), ["2", "2"], 0),
        (game2048("2 4/. 16 +"), ["2", "4", "16"], 1),
        (game2048("2 4 8/16 32 64/. . . +", target=128), ["2", "4", "8", "16", "32", "64"], 3),
        (game2048("1024 2048 ./4096 8192 16384/. . .", target=32768), ["1024", "2048", "4096", "8192", "16384"], 0),
    ],
    ids=repr,
)
def test_the_picture_is_clean_svg_with_the_numbers(game: Game2048, numbers: list[str], pluses: int) -> None:
    svg = game.picture(game.initial)
    picture, why = clean_picture(svg)
    assert picture is not None and why == ""
    root = ET.fromstring(svg)
    assert (root.get("width"), root.get("height")) == ("40", "40")
    assert [t.text for t in root.findall(f"{SVG}text")] == numbers
    assert len(root.findall(f"{SVG}rect")) == 1 + game.size**2  # the board, then every cell
    paths = [p.get("d", "") for p in root.findall(f"{SVG}path")]
    assert sum(d.count("M") for d in paths) == 2 * pluses  # a + in each empty cell while a tile is pending
    for banned in ("id=", "<script", "href", "url("):
        assert banned not in svg
    assert game.picture(game.initial) == svg and len(svg) < 2500


def test_the_picture_takes_a_size() -> None:
    game = game2048()
    root = ET.fromstring(game.picture(game.initial, size=24))
    assert (root.get("width"), root.get("height")) == ("24", "24")
    with pytest.raises(RenderError, match="picture size 0"):
        game.picture(game.initial, size=0)


def test_tiles_darken_with_their_value_and_their_numbers_stay_readable() -> None:
    from expectviz.games.game2048 import _luminance

    lightness = [_luminance(c) for c in TILE_COLOURS[1:]]
    assert lightness == sorted(lightness, reverse=True)  # a larger tile is darker
    assert all(contrast(tile, text) >= 4.5 for tile, text in zip(TILE_COLOURS, TEXT_COLOURS, strict=True))


# ---------------------------------------------------------------- the registry


def test_the_registry_builds_the_game_without_arguments() -> None:
    assert set(GAMES) == {"2048"}
    game = GAMES["2048"]()
    assert game.name == "2048" and game == game2048()
