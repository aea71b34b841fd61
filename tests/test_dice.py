"""Dice (expectviz.games.dice): the rules, the notation, the picture, and the searches on it.

The values are checked against a reference written here from the rules alone: a board as a list of
characters, the lines found by walking the board, the evaluation counted window by window and a bare
recursive expectimax, so they test the game independently of its bitboards and of the search core.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from fractions import Fraction
from typing import Any

import pytest

import expectviz as ev
from expectviz.errors import ExpectvizError, InputTypeError, OptionError, RenderError, UsageError
from expectviz.game import ChanceGame, Game
from expectviz.games.dice import GAMES, Dice, dice, dice_5x5, dice_order, square_name
from expectviz.render.picture import clean_picture

SVG = "{http://www.w3.org/2000/svg}"

# ---------------------------------------------------------------- helpers


def play(game: Dice, *moves: Any) -> int:
    """The state after these chance outcomes and moves from the game's initial state."""
    state = game.initial
    for move in moves:
        state = game.result(state, move)
    return state


def walk(game: Dice, seed: int) -> list[int]:
    """The states of a seeded random game from ``game.initial`` to its end (each roll and each move)."""
    rng = random.Random(seed)
    state, states = game.initial, [game.initial]
    while not game.is_terminal(state):
        if game.to_move(state) == ev.CHANCE:
            state = game.result(state, rng.choice([c for c, _ in game.chance_outcomes(state)]))
        else:
            state = game.result(state, rng.choice(game.actions(state)))
        states.append(state)
    return states


def labels(game: Dice, state: int) -> list[str]:
    return [game.move_label(state, a) for a in game.actions(state)]


# ---------------------------------------------------------------- the reference: the rules from scratch


class Reference:
    """Dice from its rules: a board of characters, lines found by walking, nothing shared with the game."""

    def __init__(self, rows: int, cols: int, k: int) -> None:
        self.rows, self.cols, self.k = rows, cols, k
        self.windows = []
        for r in range(rows):
            for c in range(cols):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + dr * i, c + dc * i) for i in range(k)]
                    if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                        self.windows.append([rr * cols + cc for rr, cc in cells])

    def winner(self, board: list[str]) -> str | None:
        for window in self.windows:
            marks = {board[s] for s in window}
            if len(marks) == 1 and marks != {"."}:
                return marks.pop()
        return None

    def evaluate(self, board: list[str]) -> Fraction:
        e = 0
        for window in self.windows:
            xs = sum(board[s] == "X" for s in window)
            os = sum(board[s] == "O" for s in window)
            if xs and not os:
                e += 3 ** (xs - 1)
            if os and not xs:
                e -= 3 ** (os - 1)
        return Fraction(e, len(self.windows) * 3 ** (self.k - 2) + 1)

    def moves(self, board: list[str], line: int) -> list[int]:
        """The empty squares of the rolled line (a column for X, a row for O), else every empty square."""
        x_to_move = board.count("X") == board.count("O")
        if x_to_move:
            squares = [r * self.cols + line for r in range(self.rows)]
        else:
            squares = [line * self.cols + c for c in range(self.cols)]
        empty = [s for s in squares if board[s] == "."]
        return empty or [s for s in range(len(board)) if board[s] == "."]

    def value(self, board: list[str], roll: int | None, depth: int) -> Fraction:
        """Expectimax, chance levels counting as depth; the evaluation at depth 0."""
        winner = self.winner(board)
        if winner is not None:
            return Fraction(1 if winner == "X" else -1)
        if "." not in board:
            return Fraction(0)
        if depth == 0:
            return self.evaluate(board)
        x_to_move = board.count("X") == board.count("O")
        if roll is None:
            faces = self.cols if x_to_move else self.rows
            return sum((Fraction(1, faces) * self.value(board, face, depth - 1) for face in range(faces)), Fraction(0))
        values = []
        for s in self.moves(board, roll):
            child = board.copy()
            child[s] = "X" if x_to_move else "O"
            values.append(self.value(child, None, depth - 1))
        return max(values) if x_to_move else min(values)


def reference_value(position: str, depth: int, k: int | None = None) -> Fraction:
    """The reference's value of a position written as ``'X.O/.X./..O roll 2'``."""
    board_text, _, roll = position.partition(" roll ")
    rows = board_text.split("/")
    cols = len(rows[0])
    if k is None:
        k = min(3 if max(len(rows), cols) <= 4 else 4, max(len(rows), cols))
    reference = Reference(len(rows), cols, k)
    return reference.value(list("".join(rows)), int(roll) - 1 if roll else None, depth)


# ---------------------------------------------------------------- the protocol


def test_dice_is_a_chance_game() -> None:
    game = dice()
    assert isinstance(game, Game) and isinstance(game, ChanceGame)
    assert game.has_chance is True and game.value_range == (-1, 1) and game.name == "dice"
    assert (game.rows, game.cols, game.k) == (3, 3, 3)
    assert sorted(GAMES) == ["dice", "dice-5x5"]
    assert GAMES["dice"]() == dice() and GAMES["dice-5x5"]() == dice(size=5, k=4)
    assert GAMES["dice-5x5"].__name__ == "dice_5x5" and GAMES["dice-5x5"]().name == "dice-5x5"
    assert dice_5x5("X..../...../...../...../.....", roll=2) == dice("X..../...../...../...../..... roll 2")
    with pytest.raises(OptionError, match=r"size=5 does not match the position, which has 3 rows of 3 squares"):
        dice_5x5("X.O/.X./..O")


# ---------------------------------------------------------------- the rules


def test_x_rolls_a_column_and_plays_in_it_top_to_bottom() -> None:
    game = dice("X.O/.X./..O")
    assert game.to_move(game.initial) == ev.CHANCE and game.player(game.initial) == ev.MAX
    assert game.roll(game.initial) is None
    assert game.chance_outcomes(game.initial) == tuple((c, Fraction(1, 3)) for c in range(3))
    assert [game.move_label(game.initial, c) for c in range(3)] == ["column a", "column b", "column c"]
    for column, expected in ((0, ["X a2", "X a3"]), (1, ["X b1", "X b3"]), (2, ["X c2"])):
        state = play(game, column)
        assert game.to_move(state) == ev.MAX and game.roll(state) == column
        assert not game.is_terminal(state)
        assert labels(game, state) == expected


def test_o_rolls_a_row_and_plays_in_it_left_to_right() -> None:
    game = dice("X.O/.X./X.O/... roll 2")  # a 4 x 3 board: O's die has 4 faces
    assert game.to_move(game.initial) == ev.MIN and game.roll(game.initial) == 1
    assert labels(game, game.initial) == ["O a2", "O c2"]
    after = play(game, 5)  # O c2
    assert game.to_move(after) == ev.CHANCE and game.player(after) == ev.MAX
    assert game.chance_outcomes(after) == tuple((c, Fraction(1, 3)) for c in range(3))
    rolled = play(game, 5, 1)  # column b
    assert game.to_move(rolled) == ev.MAX and labels(game, rolled) == ["X b1", "X b3", "X b4"]
    before_o = play(game, 5, 1, 1)  # X b1
    assert game.position(before_o) == "XXO/.XO/X.O/..."
    assert game.chance_outcomes(before_o) == tuple((r, Fraction(1, 4)) for r in range(4))
    assert [game.move_label(before_o, r) for r in range(4)] == ["row 1", "row 2", "row 3", "row 4"]


def test_a_full_line_lets_the_player_use_any_empty_square() -> None:
    game = dice("XO./OX./X.O")  # column a is full; row 1 is not
    assert labels(game, play(game, 0)) == ["X c1", "X c2", "X b3"]  # every empty square, row-major
    game = dice("XOX/O../.X. roll 1")  # O to move, row 1 full
    assert labels(game, game.initial) == ["O b2", "O c2", "O a3", "O c3"]
    game = dice("XOX/O../.X. roll 2")
    assert labels(game, game.initial) == ["O b2", "O c2"]


@pytest.mark.parametrize(
    ("position", "square", "value"),
    [
        ("XX./OO./... roll 3", 2, 1),  # a row
        ("X../XO./.O. roll 1", 6, 1),  # a column
        ("XO./.X./O.. roll 3", 8, 1),  # the diagonal
        ("XX./.O./O.X roll 1", 2, -1),  # the anti-diagonal, O in row 1
        ("XXO/OO./XX. roll 2", 5, -1),  # a row for O
    ],
)
def test_k_in_a_row_wins_at_once(position: str, square: int, value: int) -> None:
    game = dice(position)
    assert square in game.actions(game.initial)
    after = game.result(game.initial, square)
    assert game.is_terminal(after) and game.utility(after) == value and game.evaluate(after) == value


def test_a_full_board_without_a_line_is_a_draw() -> None:
    game = dice("XOX/XOO/OX. roll 3")
    after = game.result(game.initial, 8)
    assert game.is_terminal(after) and game.utility(after) == 0 and game.evaluate(after) == 0
    assert game.position(after) == "XOX/XOO/OXX"


def test_the_game_never_ends_with_a_roll_and_chance_outcomes_are_all_max_or_all_min() -> None:
    for game in (dice(), dice_5x5(), dice(size=(2, 4), k=2)):
        for seed in range(20):
            for state in walk(game, seed):
                if game.is_terminal(state) or game.to_move(state) != ev.CHANCE:
                    continue
                kinds = set()
                for outcome, _ in game.chance_outcomes(state):
                    child = game.result(state, outcome)
                    assert not game.is_terminal(child)
                    kinds.add(game.to_move(child))
                assert kinds == {game.player(state)}
                assert sum(p for _, p in game.chance_outcomes(state)) == 1


def test_rules_agree_with_the_reference_along_random_games() -> None:
    for game, k in ((dice(), 3), (dice_5x5(), 4), (dice(size=(3, 5), k=3), 3)):
        reference = Reference(game.rows, game.cols, k)
        for seed in range(30):
            for state in walk(game, seed):
                board = list(game.cells(state))
                winner = reference.winner(board)
                assert game.is_terminal(state) == (winner is not None or "." not in board)
                if game.is_terminal(state):
                    assert game.utility(state) == {"X": 1, "O": -1, None: 0}[winner]
                    continue
                assert game.evaluate(state) == reference.evaluate(board)
                rolled = game.roll(state)
                if rolled is not None:
                    assert list(game.actions(state)) == reference.moves(board, rolled)


def test_four_in_a_row_on_five_by_five() -> None:
    game = dice_5x5()
    assert (game.rows, game.cols, game.k, game.evaluation_scale) == (5, 5, 4, 28 * 9 + 1)
    assert game.chance_outcomes(game.initial) == tuple((c, Fraction(1, 5)) for c in range(5))
    three = dice("XXX../OO.../O..../...../..... roll 4", size=5)
    after = three.result(three.initial, 3)  # X d1: four in a row
    assert three.is_terminal(after) and three.utility(after) == 1
    two = dice("XX.../OO.../...../...../..... roll 3", size=5)
    after = two.result(two.initial, 2)  # X c1: three in a row is not a line on 5 x 5
    assert not two.is_terminal(after) and two.to_move(after) == ev.CHANCE
    with pytest.raises(OptionError, match="k=4 is not a line length for a 3 x 3 board; .* 2 to 3"):
        dice(k=4)


@pytest.mark.parametrize(
    ("size", "k", "shape"),
    [(None, None, (3, 3, 3)), (2, None, (2, 2, 2)), (4, None, (4, 4, 3)), (5, None, (5, 5, 4)), (8, None, (8, 8, 4))],
)
def test_board_sizes_and_default_k(size: Any, k: Any, shape: tuple[int, int, int]) -> None:
    game = dice(size=size, k=k)
    assert (game.rows, game.cols, game.k) == shape
    assert len(game.cells(game.initial)) == shape[0] * shape[1]


def test_a_rectangular_board() -> None:
    game = dice(size=(2, 5), k=2)
    assert (game.rows, game.cols, game.k) == (2, 5, 2)
    assert game.chance_outcomes(game.initial) == tuple((c, Fraction(1, 5)) for c in range(5))
    assert labels(game, play(game, 4)) == ["X e1", "X e2"]
    assert repr(game) == "dice(size=(2, 5), k=2)" and eval(repr(game), {"dice": dice}) == game


# ---------------------------------------------------------------- the accessors


def test_accessors() -> None:
    game = dice("X.O/.X./..O roll 3")
    state = game.initial
    assert game.cells(state) == ("X", ".", "O", ".", "X", ".", ".", ".", "O")
    assert game.roll(state) == 2 and game.player(state) == ev.MAX
    assert game.line_name(state, 2) == "column c" and game.square_name(5) == "c2"
    after = game.result(state, 5)
    assert game.player(after) == ev.MIN and game.roll(after) is None and game.line_name(after, 0) == "row 1"
    assert [square_name(s, 5) for s in (0, 4, 5, 24)] == ["a1", "e1", "a2", "e5"]
    assert square_name(8) == "c3"


# ---------------------------------------------------------------- notation


@pytest.mark.parametrize(
    "position",
    [
        "X.O/.X./..O",
        "X.O/.X./..O roll 2",
        "XO/..",
        "XO../.X../O... roll 3",
        "X.../..../.... roll 1",
        ".O./X../X.O/...",
        "X..../...../..O../...../.....",
    ],
)
def test_positions_read_back(position: str) -> None:
    game = dice(position)
    assert game.position(game.initial) == position
    assert dice(game.text(game.initial)) == game
    assert eval(repr(game), {"dice": dice}) == game
    assert repr(game) == f"dice({position!r})"


def test_reprs() -> None:
    assert repr(dice()) == "dice()"
    assert repr(dice(roll=2)) == "dice(roll=2)"
    assert repr(dice(size=5)) == repr(dice_5x5()) == "dice(size=5)"
    assert repr(dice(size=5, k=3)) == "dice(size=5, k=3)"
    assert repr(dice("X.O/.../...", k=2)) == "dice('X.O/.../...', k=2)"
    assert repr(dice(" x-o / -x- / --o ")) == "dice('X.O/.X./..O')"
    assert dice("X.O/.X./..O", roll=2) == dice("X.O/.X./..O roll 2") == dice("X.O/.X./..O ROLL 2", roll=2)
    assert dice("X.O\n.X.\n..O\nroll 2") == dice("X.O/.X./..O roll 2")
    assert dice(".../.../...", size=3) == dice() and dice(size=(3, 3)) == dice()
    assert dice() != dice(roll=1) and hash(dice()) == hash(dice(size=3))
    assert dice(roll=1).initial == dice().result(dice().initial, 0)


def test_text() -> None:
    game = dice("X.O/.X./..O roll 2")
    assert game.text(game.initial) == "X . O\n. X .\n. . O\nroll 2"
    assert game.text(game.result(game.initial, 1)) == "X X O\n. X .\n. . O"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X.O/.Z./..O", "position 1:6: 'Z' is not a square; a square is X, O or ."),
        ("X.O/.0./..O", "position 1:6: '0' is not a square; use the letter O, not the digit 0"),
        ("X.O/.X/..O", "position 1:7: row 2 has 2 squares; every row has as many squares as row 1 (3)"),
        ("X.O/.X.O/..O", "position 1:8: row 2 has a square too many, 'O'; row 1 has 3"),
        ("X.O\n.X\n..O", "position 2:3: row 2 has 2 squares; every row has as many squares as row 1 (3)"),
        ("X/./.", "position 1:2: row 1 has 1 square; a board has 2 to 8 columns"),
        ("X........", "position 1:9: row 1 has a square too many, '.'; a board has 2 to 8 columns"),
        ("X.O", "position 1:4: the position has 1 row; a board has 2 to 8 rows"),
        ("", "position 1:1: the position has 0 rows"),
        ("../../../../../../../../..", "position 1:25: a ninth row starts with '.'; a board has 2 to 8 rows"),
        ("X.O//..O", "position 1:5: row 2 has 0 squares"),
        ("X.O/.X./..O roll", "position 1:17: 'roll' is followed by nothing; write the die's face after it"),
        ("X.O/.X./..O roll b", "position 1:18: 'roll' is followed by 'b'; write the die's face"),
        ("X.O/.X./..O roll 2 3", "position 1:20: '3' after the roll; the roll ('roll 2') ends the position"),
        ("X.O/.X./..O roll 4", "position 1:18: roll 4: X's die selects a column: its faces are 1 to 3"),
        ("X.O/.X./... roll 0", "position 1:18: roll 0: O's die selects a row: its faces are 1 to 3 (rows 1 to 3)"),
        (
            "X.O/.X./..O\nroll 9",
            "position 2:6: roll 9: X's die selects a column: its faces are 1 to 3 (columns a to c)",
        ),
        ("roll 2", "position 1:1: the roll comes after the board"),
        ("XXX/OO./... roll 1", "position 1:18: roll 1: the game is over, so no die is rolled; leave the roll out"),
        ("XOX/XOO/OXX roll 1", "position 1:18: roll 1: the game is over"),
        ("XX./.../...", "X has 2 stones and O has 0; X moves first"),
        ("XXX/OOO/...", "both X (a1 b1 c1) and O (a2 b2 c2) have a line"),
        ("XXX/OO./..O", "X has a line (a1 b1 c1) but X has 3 stones and O has 3, so O moved after X had won"),
        ("OOO/XX./X.X", "O has a line (a1 b1 c1) but X has 4 stones and O has 3, so X moved after O had won"),
    ],
)
def test_bad_positions(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=re.escape(message)):
        dice(text)


def test_bad_options() -> None:
    for size in (1, 9, (3, 9), (3,), "3", 3.0, True, (2, 2, 2)):
        with pytest.raises(OptionError, match=r"is not a board size; use n for an n x n board or \(rows, columns\)"):
            dice(size=size)  # type: ignore[arg-type]
    for k in (1, 4, True, "3", 3.0):
        with pytest.raises(OptionError, match=r"is not a line length for a 3 x 3 board; .* is 2 to 3"):
            dice(k=k)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match=r"size=4 does not match the position, which has 3 rows of 3 squares"):
        dice("X.O/.X./..O", size=4)
    with pytest.raises(OptionError, match=r"roll=4: X's die selects a column: its faces are 1 to 3"):
        dice(roll=4)
    with pytest.raises(OptionError, match=r"roll=True: X's die"):
        dice(roll=True)
    with pytest.raises(OptionError, match=r"roll=3: O's die selects a row: its faces are 1 to 2 \(rows 1 to 2\)"):
        dice("X.../....", roll=3)
    with pytest.raises(OptionError, match=r"roll=1: the game is over"):
        dice("XXX/OO./...", roll=1)
    with pytest.raises(OptionError, match=r"roll=1 disagrees with the position's roll 2; give the roll once"):
        dice("X.O/.X./..O roll 2", roll=1)
    with pytest.raises(InputTypeError, match="dice\\(\\) takes a position as text"):
        dice(3)  # type: ignore[arg-type]
    assert issubclass(UsageError, ExpectvizError)


# ---------------------------------------------------------------- evaluation and ordering


def test_evaluation() -> None:
    game = dice(".../.X./...")
    assert game.evaluate(game.initial) == Fraction(4, 25) and game.evaluation_scale == 25
    game = dice("XX./O../...")  # X: row 1 (3), column b (1), the diagonal (1); O: row 2 (1); column a is mixed
    assert game.evaluate(game.initial) == Fraction(3 + 1 + 1 - 1, 25)
    game, swapped = dice("XX./OO./..."), dice("OO./XX./...")  # swapping X and O negates the evaluation
    assert game.evaluate(game.initial) == -swapped.evaluate(swapped.initial) == Fraction(3 - 3 - 1, 25)


def test_evaluation_and_utility_stay_inside_the_value_range() -> None:
    for game in (dice(), dice_5x5(), dice(size=(2, 6)), dice(size=8, k=8), dice(size=4, k=2)):
        low, high = game.value_range
        for seed in range(40):
            for state in walk(game, seed):
                v = game.evaluate(state)
                assert isinstance(v, (int, Fraction))
                if game.is_terminal(state):
                    assert v == game.utility(state) and low <= v <= high
                else:
                    assert low < v < high


def test_ordering_key() -> None:
    def ordered(position: str) -> list[str]:
        game = dice(position)
        moves = sorted(game.actions(game.initial), key=lambda a: dice_order(game.initial, a))
        return [game.move_label(game.initial, a) for a in moves]

    assert ordered("XX./OO./... roll 3") == ["X c1", "X c2", "X c3"]  # the win, then the block
    assert ordered("X../X.O/... roll 3") == ["O a3", "O c3", "O b3"]  # the block first
    assert ordered(".../.../... roll 2") == ["X b2", "X b1", "X b3"]  # the centre first
    assert ordered("...../...../...../...../..... roll 3") == ["X c3", "X c2", "X c4", "X c1", "X c5"]
    assert ordered("XXX../OO.../O..../...../..... roll 4")[0] == "X d1"  # four in a row on 5 x 5


# ---------------------------------------------------------------- the searches


SEARCHED = [
    ("", 2),
    ("", 4),
    ("", 6),
    ("X.O/.X./..O", 4),
    ("X.O/.X./..O roll 2", 5),
    ("XO./.../... roll 1", 5),
    ("XO./.X./..O", 6),
    ("XOX/.O./... roll 2", 7),
    ("X.../.O../.... roll 4", 4),
    ("...../...../...../...../.....", 3),
    ("X..../.O.../..X../...../.O...", 4),
]


def game_for(position: str) -> Dice:
    return dice(position) if position else dice()


@pytest.mark.parametrize(("position", "depth"), SEARCHED)
def test_expectiminimax_agrees_with_the_reference(position: str, depth: int) -> None:
    game = game_for(position)
    expected = reference_value(position or ".../.../...", depth)
    assert ev.expectiminimax(game, depth=depth, trace=False).exact_value == expected


def test_expectiminimax_traced_agrees() -> None:
    game = dice("XO./.X./..O")
    assert ev.expectiminimax(game, depth=4).exact_value == reference_value("XO./.X./..O", 4)


@pytest.mark.parametrize(("position", "depth"), SEARCHED)
@pytest.mark.parametrize("star", [ev.star1, ev.star2])
@pytest.mark.parametrize("order", [None, dice_order])
def test_star_agrees_with_expectiminimax(position: str, depth: int, star: Any, order: Any) -> None:
    game = game_for(position)
    exact = ev.expectiminimax(game, depth=depth, trace=False).exact_value
    assert star(game, depth=depth, order=order, trace=False).exact_value == exact


def test_star_traced_and_five_by_five_deeper() -> None:
    game = dice_5x5()
    exact = ev.expectiminimax(game, depth=4, trace=False).exact_value
    for star in (ev.star1, ev.star2):
        assert star(game, depth=4).exact_value == exact
        assert star(game, depth=4, order=dice_order, table=True).exact_value == exact


def test_ordering_helps_star2() -> None:
    game = dice()
    plain = ev.star2(game, depth=8, trace=False).stats.nodes_visited
    ordered = ev.star2(game, depth=8, order=dice_order, trace=False).stats.nodes_visited
    assert ordered < plain


# ---------------------------------------------------------------- picture


def test_picture() -> None:
    game = dice("X.O/.X./..O roll 2")
    svg = game.picture(game.initial)
    assert svg == game.picture(game.initial)
    picture, why = clean_picture(svg)
    assert picture is not None and why == "" and picture.view_box == "0 0 30 30"
    root = ET.fromstring(svg)
    assert root.get("width") == "40" and root.get("height") == "40"
    assert len(root.findall(f".//{SVG}circle")) == 2  # O's rings
    assert root.get("aria-label") == "dice X.O/.X./..O roll 2"
    assert 'fill="#CFE5F3"' in svg  # X's column shaded
    assert not re.search(r"\b(id|href|style|script|on\w+)=", svg)
    o_roll = game.result(game.result(game.initial, 1), 0)
    assert 'fill="#F7D8C4"' in game.picture(o_roll)  # O's row shaded once rolled
    pending = game.picture(game.result(game.initial, 1))
    assert "#CFE5F3" not in pending and "#F7D8C4" not in pending
    wide = dice(size=(2, 4))
    root = ET.fromstring(wide.picture(wide.initial, size=80))
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("80", "40", "0 0 40 20")
    for game in (dice_5x5(), dice(size=8)):
        for state in walk(game, 3)[::5]:
            assert clean_picture(game.picture(state))[0] is not None
    for size in (0, -1, "40", True, 10_000):
        with pytest.raises(RenderError, match="is not a number of pixels"):
            game.picture(game.initial, size)  # type: ignore[arg-type]
