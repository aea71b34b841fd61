"""How the game widget and ``expectviz play`` show each game: one small board per kind of game.

The widget (:mod:`expectviz.render.play_game`, ``play_game.js``) and the
command play any game through its *board*, which knows what the search's
:class:`~expectviz.game.Game` methods do not say:

* what the state looks like, as data for the browser (:meth:`Board.view`: a
  ``{"kind": "grid", ...}`` of squares or a ``{"kind": "pig", ...}`` of scores
  and a die) and as text for the terminal (:meth:`Board.text_lines`);
* what a person's input means (:meth:`Board.read`: a square clicked or typed,
  a button such as ``"roll"``), and why a move is refused (:meth:`Board.refusal`);
* how to say a move or a chance event in a sentence (:meth:`Board.deed`,
  :meth:`Board.chance_text`; the history shows a move by the game's own
  ``move_label``), and how the game ended (:meth:`Board.outcome`);
* the side names (X and O, or MAX and MIN), how deep a search can need to go
  (:meth:`Board.horizon`) and the computer's default depth limit.

:func:`board_for` picks the board of a game:

>>> import expectviz as ev
>>> board = board_for(ev.games.tictactoe("X../.O./..."))
>>> board.title, board.sides, board.horizon(board.game.initial)
('Tic-tac-toe', ('X', 'O'), 7)
>>> board.refusal(board.game.initial, board.read("b2"))
'b2 is taken (O): choose an empty square'
>>> board.view(board.game.initial, [], [1, 2])["cells"]
['X', '', '', '', 'O', '', '', '', '']

Tic-tac-toe, coin-flip tic-tac-toe and Dice are played on a grid of squares
(:class:`GridBoard`); Pig on two scores, a turn total and a die (:class:`PigBoard`).
Adding a game to the widget is adding a board here (and, for a new ``kind``, a
drawing function in ``play_game.js``).
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import OptionError
from ..games.tictactoe import LINES, CoinFlipTicTacToe, TicTacToe
from ..tree import MAX, MIN

__all__ = [
    "Board",
    "GridBoard",
    "TicTacToeBoard",
    "DiceBoard",
    "PigBoard",
    "board_for",
    "parse_square",
    "square_name",
    "winning_line",
    "COINFLIP_DEPTH",
    "PIG_DEPTH",
    "DICE_DEPTH",
    "DICE_5X5_DEPTH",
    "DEEPEST_OFFERED",
]

COINFLIP_DEPTH = 6
"""The computer's default depth limit in coin-flip tic-tac-toe (chance levels count): three moves and their coins.
Measured: expectiminimax with a transposition table, traced, answers from the empty board (its slowest move:
45,595 nodes) in 0.3 to 0.7 s, and its player opens in about 2 s; depth 7 takes 0.5 to 0.8 s and 10 s to open,
depth 8 over a second."""

PIG_DEPTH = 12
"""The computer's default depth limit in Pig, first to 10 (chance levels count: six decisions and their rolls).
Measured: expectiminimax with a transposition table, traced, over the start and 40 positions of random games:
at most 77 to 94 ms (10,702 nodes), 32 to 38 ms on average, per decision (a turn is a few decisions); depth 14
takes up to 0.24 s, depth 16 0.42 s.  Star1 is slower here (depth 12: up to 0.38 s).  The player opens in
about a second."""

DICE_DEPTH = 10
"""The computer's default depth limit in Dice on 3x3 (chance levels count: the die and the move, five times).
Measured: expectiminimax with a transposition table, traced: at most 70 to 130 ms (8,044 nodes, the first
moves); depth 12 takes up to 0.17 to 0.33 s, a search to the end of the game (27,078 nodes) 0.2 to 0.5 s.
The player opens in about a second."""

DICE_5X5_DEPTH = 6
"""The computer's default depth limit in Dice on 5x5, four in a row (chance levels count: the die and the move,
three times).  Measured: expectiminimax with a transposition table, traced: at most 0.16 to 0.36 s (14,801
to 16,161 nodes, the first moves), 70 ms on average; depth 8 takes 4 s (210,971 nodes), Star1 at depth 6 1.4 s."""

DEEPEST_OFFERED = 16
"""The deepest depth limit the widget's menu offers in a game without end (Pig): there is no "to the end"."""

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class Board:
    """What the widget and the command need to know about a game beyond the search's methods.

    A board wraps one game (:attr:`game`) and reads its state; it holds no state of its own.
    """

    kind = "grid"
    """How the browser draws the state: ``"grid"`` or ``"pig"`` (a drawing function in play_game.js)."""
    sides: tuple[str, str] = ("X", "O")
    """The names of MAX (who moves first) and MIN."""
    chance_actor = "coin"
    """What makes the chance moves, as the history names it (``Entry.by``): ``"coin"`` or ``"die"``."""
    chance_moves = "coin flips"
    """The chance moves in words, for messages."""
    default_depth: int | None = None
    """The computer's depth limit when none is given (None: to the end of the game)."""

    def __init__(self, game: Any) -> None:
        self.game = game

    @classmethod
    def fits(cls, game: Any) -> bool:
        """True when this board shows ``game``."""
        return False

    @property
    def title(self) -> str:
        """The game's name in words, as the widget's title says it."""
        return str(self.game.name)

    def side(self, player: str) -> str:
        """The side name of ``ev.MAX`` or ``ev.MIN``: ``"X"``/``"O"``, or ``"MAX"``/``"MIN"``."""
        return self.sides[0] if player == MAX else self.sides[1]

    def player(self, state: Any) -> str:
        """``ev.MAX`` or ``ev.MIN``: the side whose turn it is (also while a chance event is pending)."""
        return str(self.game.player(state))

    def horizon(self, state: Any) -> int | None:
        """The most levels below ``state`` that the game can last (None: it can go on for ever)."""
        raise NotImplementedError

    # ---- the person's input

    def read(self, what: Any) -> Any:
        """The move that ``what`` (a click in the widget, or a value from Python) means.

        Raises:
            OptionError: ``what`` names no move of this game.
        """
        raise NotImplementedError

    def read_typed(self, text: str) -> Any:
        """The move that a line typed in the terminal means (``text``: the line without spaces around it).

        Raises:
            OptionError: the message says what to type.
        """
        return self.read(text)

    def inputs(self, actions: list[Any]) -> list[Any]:
        """The widget's inputs for these legal moves: squares (numbers) first, then buttons (words)."""
        return list(actions)

    def refusal(self, state: Any, action: Any) -> str:
        """Why ``action`` (read, but not legal in ``state``) may not be played now."""
        return f"{self.game.move_label(state, action)} is not a legal move now"

    # ---- saying what happens

    def deed(self, state: Any, action: Any) -> tuple[str, str]:
        """The move after its player's name, in the past and the present: ``("played b2", "plays b2")``."""
        label = self.game.move_label(state, action)
        return f"played {label}", f"plays {label}"

    def chance_text(self, state: Any, outcome: Any) -> str:
        """A chance event as the history shows it."""
        return f"Chance: {self.game.move_label(state, outcome)}"

    def outcome(self, state: Any) -> str:
        """How the finished game ended: ``"X wins (a1 b2 c3)"``, ``"Draw"``."""
        value = self.game.utility(state)
        if value == 0:
            return "Draw"
        return f"{self.side(MAX if value > 0 else MIN)} wins"

    def hint(self, state: Any, inputs: list[Any]) -> str:
        """What the person does now: ``"Your move (X): click a square"``."""
        return f"Your move ({self.side(self.player(state))}): click a square"

    def view(self, state: Any, history: list[Any], inputs: list[Any]) -> dict[str, Any]:
        """The state as data for the browser (``inputs``: what the person may click now)."""
        raise NotImplementedError

    # ---- the terminal

    def instructions(self) -> list[str]:
        """What to type, said once at the start of ``expectviz play``."""
        return []

    def text_lines(self, state: Any) -> list[str]:
        """The state as lines of text for the terminal."""
        return str(self.game.text(state)).splitlines()

    def prompt(self, state: Any, inputs: list[Any]) -> str:
        """The prompt before the person's move in the terminal."""
        return f"Your move ({self.side(self.player(state))}): "


# ---------------------------------------------------------------- grids: tic-tac-toe, coin-flip tic-tac-toe, Dice


class GridBoard(Board):
    """A game of marks on a grid of squares, numbered row-major from a1 (top left): columns a, b, ... rows 1, 2, ..."""

    rows = 3
    cols = 3
    k = 3
    """The marks in a row that win."""

    def cells(self, state: Any) -> list[str]:
        """Each square from a1, row by row: ``"X"``, ``"O"``, ``"#"`` (blocked) or ``""`` (empty)."""
        raise NotImplementedError

    def horizon(self, state: Any) -> int | None:
        return max(1, self.cells(state).count(""))

    def square_name(self, square: int) -> str:
        """``"b2"``: the column's letter and the row's number (from the top)."""
        return square_name(square, self.cols)

    def read(self, what: Any) -> Any:
        return parse_square(what, self.rows, self.cols)

    def read_typed(self, text: str) -> Any:
        n = self.rows * self.cols
        if text.isdigit() and 1 <= int(text) <= n and not text.startswith("0"):
            return int(text) - 1
        try:
            return parse_square(text, self.rows, self.cols)
        except OptionError:
            raise OptionError(
                f"{_quoted(text)} is not a square: type a1 to {self.square_name(n - 1)} (or 1 to {n}), or quit"
            ) from None

    def refusal(self, state: Any, action: Any) -> str:
        if action is None:
            return "choose a square"
        mark, name = self.cells(state)[action], self.square_name(action)
        if mark == "#":
            return f"{name} is blocked: choose an empty square"
        if mark:
            return f"{name} is taken ({mark}): choose an empty square"
        return f"{name} is not a legal move now"

    def deed(self, state: Any, action: Any) -> tuple[str, str]:
        name = self.square_name(action)
        return f"played {name}", f"plays {name}"

    def line(self, state: Any) -> list[int]:
        """The squares of the winner's line (empty without one)."""
        value = self.game.utility(state) if self.game.is_terminal(state) else 0
        if value == 0:
            return []
        mark = self.side(MAX if value > 0 else MIN)
        return winning_line(self.cells(state), self.rows, self.cols, self.k, mark)

    def outcome(self, state: Any) -> str:
        line = self.line(state)
        if not line:
            return super().outcome(state)
        cells = self.cells(state)
        return f"{cells[line[0]]} wins ({' '.join(self.square_name(i) for i in line)})"

    def last_square(self, history: list[Any]) -> int | None:
        """The square of the last move (not a block, nor a chance event), or None."""
        for entry in reversed(history):
            if entry.by in ("you", "computer") and isinstance(entry.action, int) and not entry.text.startswith("block"):
                return entry.action
        return None

    def view(self, state: Any, history: list[Any], inputs: list[Any]) -> dict[str, Any]:
        last = self.last_square(history)
        return {
            "kind": "grid",
            "rows": self.rows,
            "cols": self.cols,
            "cells": self.cells(state),
            "last": -1 if last is None else last,
            "line": self.line(state),
            "verb": "play",
            "lit": None,
            "die": None,
            "buttons": [],
        }

    def text_lines(self, state: Any) -> list[str]:
        """The column letters, then each row after its number: ``"  1 X . O"`` (``#``: a blocked square)."""
        cells = [cell or "." for cell in self.cells(state)]
        width = len(str(self.rows))
        lines = [" " * (width + 3) + " ".join(_LETTERS[: self.cols])]
        for row in range(self.rows):
            squares = " ".join(cells[row * self.cols : (row + 1) * self.cols])
            lines.append(f"  {row + 1:>{width}} {squares}")
        return lines

    def instructions(self) -> list[str]:
        n = self.rows * self.cols
        return [
            f"Type a square (a1 to {self.square_name(n - 1)}, or 1 to {n} row by row from the top left) to move; "
            "'quit' to stop."
        ]


class TicTacToeBoard(GridBoard):
    """Tic-tac-toe and coin-flip tic-tac-toe: X and O on 3x3; in the coin-flip game a coin may block a square."""

    @classmethod
    def fits(cls, game: Any) -> bool:
        return isinstance(game, (TicTacToe, CoinFlipTicTacToe))

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.coin = isinstance(game, CoinFlipTicTacToe)
        self.default_depth = COINFLIP_DEPTH if self.coin else None

    @property
    def title(self) -> str:
        return "Coin-flip tic-tac-toe" if self.coin else "Tic-tac-toe"

    def player(self, state: Any) -> str:
        return MAX if self.cells(state).count("X") == self.cells(state).count("O") else MIN

    def cells(self, state: Any) -> list[str]:
        return [c if c in "XO#" else "" for c in self.game.position(state).replace("/", "")]

    def horizon(self, state: Any) -> int | None:
        empty = self.cells(state).count("")
        return 2 * empty + 1 if self.coin else max(1, empty)

    def line(self, state: Any) -> list[int]:
        value = self.game.utility(state) if self.game.is_terminal(state) else 0
        if value == 0:
            return []
        cells, mark = self.cells(state), self.side(MAX if value > 0 else MIN)
        return next((list(line) for line in LINES if all(cells[i] == mark for i in line)), [])

    def blocking(self, state: Any) -> bool:
        """True when the next move is a block (coin-flip tic-tac-toe with ``blocker="opponent"``)."""
        return not self.game.is_terminal(state) and None in self.game.actions(state)

    def read(self, what: Any) -> Any:
        if what is None or (isinstance(what, str) and what.strip().lower() in ("no block", "none")):
            return None
        return super().read(what)

    def read_typed(self, text: str) -> Any:
        if text.lower() in ("none", "no", "-", "no block"):
            return None
        return super().read_typed(text)

    def inputs(self, actions: list[Any]) -> list[Any]:
        return [a for a in actions if a is not None] + (["no block"] if None in actions else [])

    def deed(self, state: Any, action: Any) -> tuple[str, str]:
        if not self.blocking(state):
            return super().deed(state, action)
        name = "no square" if action is None else self.square_name(action)
        return f"blocked {name}", f"blocks {name}"

    def chance_text(self, state: Any, outcome: Any) -> str:
        if outcome is None:
            return "Coin: tails — no block"
        return f"Coin: heads — {self.square_name(outcome)} is blocked"

    def hint(self, state: Any, inputs: list[Any]) -> str:
        side = self.side(self.player(state))
        if self.blocking(state):
            return f"Your choice ({side}): click a square to block it, or press “No block”"
        return f"Your move ({side}): click a square"

    def view(self, state: Any, history: list[Any], inputs: list[Any]) -> dict[str, Any]:
        view = super().view(state, history, inputs)
        if self.blocking(state):
            view["verb"] = "block"
            view["buttons"] = [["no block", "No block"]]
        return view

    def instructions(self) -> list[str]:
        lines = super().instructions()
        if self.game.has_chance:
            lines.append("After each move a coin is flipped: heads blocks a random empty square, tails blocks nothing.")
        return lines

    def prompt(self, state: Any, inputs: list[Any]) -> str:
        side = self.side(self.player(state))
        return f"Your block ({side}): " if self.blocking(state) else f"Your move ({side}): "


class DiceBoard(GridBoard):
    """Dice: a die chooses the line (X: a column, O: a row) of each move; k in a row wins (``expectviz.games.dice``)."""

    chance_actor = "die"
    chance_moves = "dice rolls"

    @classmethod
    def fits(cls, game: Any) -> bool:
        return all(hasattr(game, name) for name in ("rows", "cols", "k", "cells", "roll", "line_name"))

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.rows, self.cols, self.k = int(game.rows), int(game.cols), int(game.k)
        self.default_depth = DICE_DEPTH if self.rows * self.cols <= 9 else DICE_5X5_DEPTH

    @property
    def title(self) -> str:
        return f"Dice {self.rows}×{self.cols}, {_count_word(self.k)} in a row"

    def cells(self, state: Any) -> list[str]:
        return [c if c in "XO" else "" for c in self.game.cells(state)]

    def horizon(self, state: Any) -> int | None:
        return max(1, 2 * self.cells(state).count(""))  # a roll and a move for each empty square

    def rolled(self, state: Any) -> str | None:
        """The rolled line's name (``"column b"``), or None before the roll or after the end."""
        index = self.game.roll(state)
        if index is None or self.game.is_terminal(state):
            return None
        return str(self.game.line_name(state, index))

    def refusal(self, state: Any, action: Any) -> str:
        line = self.rolled(state)
        if action is None or self.cells(state)[action] or line is None:
            return super().refusal(state, action)
        side = self.side(self.player(state))
        return f"{self.square_name(action)} is not in {line}: the die chose {line} for {side}, so play there"

    def chance_text(self, state: Any, outcome: Any) -> str:
        side = self.side(self.player(state))
        return f"Die for {side}: {outcome + 1} — {self.game.line_name(state, outcome)}"

    def hint(self, state: Any, inputs: list[Any]) -> str:
        side, line = self.side(self.player(state)), self.rolled(state)
        if any(square not in self.line_squares(state) for square in inputs):
            return f"Your move ({side}): {line} is full, so click any empty square"
        return f"Your move ({side}): click a square in {line}"

    def line_squares(self, state: Any) -> list[int]:
        """The squares of the line the die chose (a column for X, a row for O); empty before the roll."""
        index = self.game.roll(state)
        if index is None:
            return []
        if self.player(state) == MAX:
            return [row * self.cols + index for row in range(self.rows)]
        return [index * self.cols + col for col in range(self.cols)]

    def view(self, state: Any, history: list[Any], inputs: list[Any]) -> dict[str, Any]:
        view = super().view(state, history, inputs)
        index, line = self.game.roll(state), self.rolled(state)
        if index is not None and line is not None:
            view["lit"] = {"line": line.split()[0], "index": index}
            view["die"] = {"face": index + 1, "text": line, "by": self.side(self.player(state))}
        return view

    def instructions(self) -> list[str]:
        return [
            *super().instructions(),
            "Before each move a die chooses the line: a column for X, a row for O. Play an empty square "
            "of that line (any empty square when it is full).",
        ]

    def prompt(self, state: Any, inputs: list[Any]) -> str:
        return f"Your move ({self.side(self.player(state))}, {self.rolled(state)}): "


# ---------------------------------------------------------------- Pig


class PigBoard(Board):
    """Pig: roll a die for points or hold them; a 1 loses the turn's points; the first to the target wins."""

    kind = "pig"
    sides = ("MAX", "MIN")
    chance_actor = "die"
    chance_moves = "dice rolls"
    default_depth = PIG_DEPTH

    @classmethod
    def fits(cls, game: Any) -> bool:
        return all(hasattr(game, name) for name in ("scores", "turn_total", "rolling", "target"))

    @property
    def title(self) -> str:
        return f"Pig, first to {self.game.target}"

    def horizon(self, state: Any) -> int | None:
        return None  # a roll of 1 passes the turn back, so a game can go on for ever

    def read(self, what: Any) -> Any:
        if isinstance(what, str):
            word = what.strip().lower()
            if word in ("roll", "r"):
                return "roll"
            if word in ("hold", "h"):
                return "hold"
        shown = _quoted(what) if isinstance(what, str) else repr(what)
        raise OptionError(f"{shown} is not a move in Pig: roll or hold")

    def read_typed(self, text: str) -> Any:
        try:
            return self.read(text)
        except OptionError:
            raise OptionError(f"{_quoted(text)} is not a move: type roll (r) or hold (h), or quit") from None

    def refusal(self, state: Any, action: Any) -> str:
        if action == "hold" and self.game.turn_total(state) == 0:
            return "you cannot hold with a turn total of 0: roll first"
        return f"{action} is not a legal move now"

    def deed(self, state: Any, action: Any) -> tuple[str, str]:
        if action == "hold":
            total = self.game.turn_total(state)
            mine, theirs = self._scores(state)
            banked = f"{total} point{'' if total == 1 else 's'} banked, {mine + total} to {theirs}"
            return f"held: {banked}", f"holds: {banked}"
        return "chose to roll", "chooses to roll"

    def _scores(self, state: Any) -> tuple[int, int]:
        """The scores of the player to move, then the other player's."""
        max_score, min_score = self.game.scores(state)
        return (max_score, min_score) if self.player(state) == MAX else (min_score, max_score)

    def chance_text(self, state: Any, outcome: Any) -> str:
        side, total = self.side(self.player(state)), self.game.turn_total(state)
        if outcome == 1:
            lost = f", {total} point{'' if total == 1 else 's'} lost" if total else ""
            return f"{side} rolled 1: turn over{lost}"
        after = self.game.result(state, outcome)
        if self.game.is_terminal(after):
            return f"{side} rolled {outcome}: {self._scores(state)[0] + total + outcome} points, {side} wins"
        return f"{side} rolled {outcome}: turn total {total + outcome}"

    def outcome(self, state: Any) -> str:
        max_score, min_score = self.game.scores(state)
        if max_score > min_score:
            return f"MAX wins, {max_score} to {min_score}"
        return f"MIN wins, {min_score} to {max_score}"

    def hint(self, state: Any, inputs: list[Any]) -> str:
        side = self.side(self.player(state))
        if "hold" in inputs:
            return f"Your turn ({side}): press Roll or Hold"
        return f"Your turn ({side}): press Roll"

    def last_roll(self, history: list[Any]) -> Any:
        """The last roll of the die (its entry), or None."""
        return next((entry for entry in reversed(history) if entry.by == self.chance_actor), None)

    def view(self, state: Any, history: list[Any], inputs: list[Any]) -> dict[str, Any]:
        roll = self.last_roll(history)
        over = self.game.is_terminal(state)
        return {
            "kind": "pig",
            "target": self.game.target,
            "names": list(self.sides),
            "scores": list(self.game.scores(state)),
            "turn_total": 0 if over else self.game.turn_total(state),
            "player": -1 if over else (0 if self.player(state) == MAX else 1),
            "die": 0 if roll is None else roll.action,
            "roll": "" if roll is None else roll.text,
            "buttons": [["roll", "Roll"], ["hold", "Hold"]],
        }

    def instructions(self) -> list[str]:
        return [
            "Type roll (r) or hold (h); 'quit' to stop.",
            f"Roll: a 1 loses the turn total and ends the turn, 2 to 6 add to it. Hold: add the turn total "
            f"to your score. The first to {self.game.target} wins.",
        ]

    def text_lines(self, state: Any) -> list[str]:
        max_score, min_score = self.game.scores(state)
        lines = [f"  MAX {max_score:>3}    MIN {min_score:>3}    (first to {self.game.target})"]
        if not self.game.is_terminal(state):
            lines.append(f"  {self.side(self.player(state))} to play, turn total {self.game.turn_total(state)}")
        return lines

    def prompt(self, state: Any, inputs: list[Any]) -> str:
        return f"Roll or hold ({self.side(self.player(state))}, turn total {self.game.turn_total(state)}): "


BOARDS: tuple[type[Board], ...] = (TicTacToeBoard, PigBoard, DiceBoard)
"""The boards, each with the test :meth:`Board.fits` that picks it for a game."""


def board_for(game: Any) -> Board:
    """The board that shows ``game``.

    Raises:
        OptionError: no board shows it.
    """
    for board in BOARDS:
        if board.fits(game):
            return board(game)
    raise OptionError(f"play_game plays tic-tac-toe, coin-flip tic-tac-toe, Pig and Dice, not {type(game).__name__}")


# ---------------------------------------------------------------- squares


def square_name(square: int, cols: int = 3) -> str:
    """The name of a square: the column's letter from the left, the row's number from the top.

    >>> square_name(4), square_name(24, cols=5)
    ('b2', 'e5')
    """
    return f"{_LETTERS[square % cols]}{square // cols + 1}"


def parse_square(square: Any, rows: int = 3, cols: int = 3) -> int:
    """A square from its number (0 to rows·cols - 1, row-major from a1) or its name (``"b2"``; rows from the top).

    Raises:
        OptionError: no such square.

    >>> parse_square("b2"), parse_square("C3"), parse_square(0), parse_square("e5", 5, 5)
    (4, 8, 0, 24)
    """
    n = rows * cols
    last = square_name(n - 1, cols)
    if isinstance(square, int) and not isinstance(square, bool):
        if 0 <= square < n:
            return square
        raise OptionError(f"there is no square {square}; the squares are 0 to {n - 1} (a1 to {last})")
    if isinstance(square, str):
        word = square.strip().lower()
        found = re.fullmatch(r"([a-z])([1-9][0-9]?)", word)
        if found is not None:
            col, row = _LETTERS.index(found.group(1)), int(found.group(2)) - 1
            if col < cols and row < rows:
                return row * cols + col
        raise OptionError(
            f"{_quoted(square.strip())} is not a square; the squares are a1 to {last} "
            f"(columns a-{last[0]}, rows 1-{rows} from the top)"
        )
    raise OptionError(f"a square is a number 0-{n - 1} or a name such as 'b2', not {type(square).__name__}")


def winning_line(cells: list[str], rows: int, cols: int, k: int, mark: str) -> list[int]:
    """The first ``k`` squares in a row (a row, a column or a diagonal) that all hold ``mark``; empty without one.

    >>> winning_line(["X", "X", "X", "O", "O", "", "", "", ""], 3, 3, 3, "X")
    [0, 1, 2]
    """
    for row in range(rows):
        for col in range(cols):
            for down, right in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_row, end_col = row + down * (k - 1), col + right * (k - 1)
                if not (end_row < rows and 0 <= end_col < cols):
                    continue
                line = [(row + down * j) * cols + col + right * j for j in range(k)]
                if all(cells[i] == mark for i in line):
                    return line
    return []


def _quoted(text: str) -> str:
    """``text`` in quotes, cut to 20 characters."""
    return repr(text) if len(text) <= 20 else repr(text[:20]) + "..."


def _count_word(k: int) -> str:
    return {3: "three", 4: "four", 5: "five"}.get(k, str(k))
