"""Tic-tac-toe (AIMA Fig. 5.1) and coin-flip tic-tac-toe (the encyclopedia article "Expectiminimax").

Two games with the methods every search reads (:class:`expectviz.game.Game`):

* :func:`tictactoe` -- the plain game: X (MAX) moves first, three in a row wins.
* :func:`coinflip_tictactoe` -- after each move that does not end the game a fair
  coin may block a square (:class:`CoinFlipTicTacToe` gives the exact rules);
  with ``blocker="opponent"`` the opponent chooses the block instead of a coin.

The squares are numbered 0 to 8 in row-major order, and that is the order of the
moves: a1, b1, c1 (the top row, left to right), then a2, b2, c2, then a3, b3, c3.
Columns are the letters a, b, c from the left; rows are the numbers 1, 2, 3 from
the *top*, so the text reads in the order it is written.

A position is written row by row from the top, rows separated by ``/``, each row
three squares from ``X``, ``O`` and ``.`` (``x``, ``o`` and ``-`` too, and ``#``
for a blocked square in the coin-flip game); spaces are ignored, and line breaks
separate rows too, so :meth:`TicTacToe.text` reads back.  Whose turn it is
follows from the counts: X moves first.

>>> game = tictactoe("X.O/.X./..O")
>>> game
tictactoe('X.O/.X./..O')
>>> game.to_move(game.initial), game.actions(game.initial)
('max', (1, 3, 5, 6, 7))
>>> [game.move_label(game.initial, a) for a in game.actions(game.initial)]
['X b1', 'X a2', 'X c2', 'X a3', 'X b3']
>>> print(game.text(game.result(game.initial, 5)))
X . O
. X X
. . O
>>> game.evaluate(game.initial), game.utility(game.result(tictactoe("XX./OO./...").initial, 2))
(Fraction(-1, 25), 1)

A state is one ``int`` (X's squares in bits 0-8, O's in bits 9-17, blocked squares
in bits 18-26 and a "coin pending" flag in bit 27), so that every method is one or
two table lookups: a plain minimax over the whole game (549,946 nodes) takes
about a quarter of a second in pure Python.  Every value is from MAX's (X's) point
of view.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ..errors import InputTypeError, OptionError, RenderError, UsageError
from ..tree import CHANCE, MAX, MIN

__all__ = [
    "TicTacToe",
    "CoinFlipTicTacToe",
    "tictactoe",
    "coinflip_tictactoe",
    "center_first",
    "square_name",
    "LINES",
    "EVALUATION_SCALE",
    "BLOCKERS",
    "GAMES",
]

# ---------------------------------------------------------------- tables, built once at import

LINES: tuple[tuple[int, int, int], ...] = (
    # the rows
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    # the columns
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    # the diagonals
    (0, 4, 8),
    (2, 4, 6),
)
"""The eight lines of three squares (squares numbered 0-8 in row-major order)."""

_LINE_MASKS = tuple(sum(1 << i for i in line) for line in LINES)

WIN: tuple[bool, ...] = tuple(any(m & line == line for line in _LINE_MASKS) for m in range(512))
"""``WIN[mask]``: does the 9-bit set of squares ``mask`` contain a whole line?"""

FREE: tuple[tuple[int, ...], ...] = tuple(tuple(i for i in range(9) if not m >> i & 1) for m in range(512))
"""``FREE[mask]``: the squares not in the 9-bit set ``mask``, in row-major order (the legal moves)."""

NO_BLOCK = None
"""The coin-flip outcome (and the blocker's option) that blocks nothing."""

_OPTIONS: tuple[tuple[int | None, ...], ...] = tuple((NO_BLOCK, *free) for free in FREE)
"""``_OPTIONS[mask]``: the blocker's options: no block, then each empty square."""

_OUTCOMES: tuple[tuple[tuple[int | None, Fraction], ...], ...] = tuple(
    ((NO_BLOCK, Fraction(1, 2)), *((square, Fraction(1, 2 * len(free))) for square in free)) if free else ()
    for free in FREE
)
"""``_OUTCOMES[mask]``: the coin's outcomes with their probabilities: 1/2 no block, 1/(2k) each of k empty squares."""

_TURN = (MAX, MIN)  # indexed by the parity of the number of marks: X (MAX) moves when the counts are equal
_LETTER = ("X", "O")
_BOARD = 0x3FFFF  # the X and O bits
_PENDING = 1 << 27
_SQUARE_NAMES = tuple(f"{'abc'[i % 3]}{i // 3 + 1}" for i in range(9))
_CENTRE_FIRST = (1, 2, 1, 2, 0, 2, 1, 2, 1)  # centre 0, corners 1, edges 2

EVALUATION_SCALE = 25
"""The evaluation is Eval / 25: |Eval| is at most 24 (eight lines, each worth at most 3), so it stays inside (-1, 1)."""

BLOCKERS = ("chance", "opponent")
"""Who blocks a square in coin-flip tic-tac-toe: a fair coin, or the opponent of the player who just moved."""


def square_name(square: int) -> str:
    """The name of a square: column a, b, c from the left, row 1, 2, 3 from the top.

    >>> [square_name(s) for s in (0, 1, 2, 3, 4, 8)]
    ['a1', 'b1', 'c1', 'a2', 'b2', 'c3']
    """
    return _SQUARE_NAMES[square]


def center_first(state: Any, action: Any) -> int:
    """A move-ordering key (smaller first): the centre, then the corners, then the edges.

    Ties keep row-major order.  Pass it as a search's ordering key to search the
    strong moves first (alpha-beta cuts more).  In coin-flip tic-tac-toe the
    "no block" option (``None``) comes before every square.

    >>> sorted(range(9), key=lambda a: center_first(0, a))
    [4, 0, 2, 6, 8, 1, 3, 5, 7]
    """
    if action is None:
        return -1
    square = int(action)
    return _CENTRE_FIRST[square] * 9 + square


def _evaluation(x: int, o: int, b: int) -> Fraction:
    """Eval = 3·X2 + X1 − (3·O2 + O1) over the lines without a blocked square, divided by 25."""
    e = 0
    for line in _LINE_MASKS:
        if line & b:
            continue
        xs, os = x & line, o & line
        if xs and not os:
            e += 3 if xs.bit_count() == 2 else 1
        elif os and not xs:
            e -= 3 if os.bit_count() == 2 else 1
    return Fraction(e, EVALUATION_SCALE)


# ---------------------------------------------------------------- positions


_SQUARE_CHARS = {"X": 0, "x": 0, "O": 1, "o": 1, ".": 2, "-": 2, "#": 3}


def _parse(text: object, *, blocks: bool, function: str) -> tuple[int, int, int]:
    """Read a position: the X, O and blocked squares as 9-bit masks.

    Raises:
        InputTypeError: the position is not a str.
        UsageError: the text is not a position, or the position cannot arise in a game.
    """
    if not isinstance(text, str):
        raise InputTypeError(
            f"{function}() takes a position as text such as 'X.O/.X./..O' (or None for the empty board), "
            f"not {type(text).__name__}"
        )
    allowed = "X, O or . (also x, o, -" + (", and # for a blocked square)" if blocks else ")")
    x = o = b = 0
    rows = 0  # rows completed
    row: list[str] = []  # the squares of the row being read
    line, column = 1, 0
    row_start = (1, 1)

    def fail(reason: str, at: tuple[int, int]) -> UsageError:
        return UsageError(f"position {at[0]}:{at[1]}: {reason}")

    def end_row(at: tuple[int, int]) -> None:
        nonlocal rows
        if len(row) != 3:
            shown = "".join(row)
            raise fail(
                f"row {rows + 1} has {len(row)} square{'' if len(row) == 1 else 's'}"
                + (f" ({shown!r})" if row else "")
                + "; each row has 3 squares, rows are separated by '/'",
                at,
            )
        rows += 1
        row.clear()

    for char in text:
        column += 1
        at = (line, column)
        if char == "\n":
            if row:
                end_row(at)
            line, column = line + 1, 0
        elif char == "/":
            end_row(at)
        elif char in " \t\r":
            continue
        elif char in _SQUARE_CHARS and (blocks or char != "#"):
            if not row:
                row_start = at
            if rows == 3:
                raise fail(f"a fourth row starts with {char!r}; a position has 3 rows", row_start)
            if len(row) == 3:
                raise fail(f"row {rows + 1} has a fourth square {char!r}; each row has 3 squares", at)
            bit = 1 << (rows * 3 + len(row))
            kind = _SQUARE_CHARS[char]
            if kind == 0:
                x |= bit
            elif kind == 1:
                o |= bit
            elif kind == 3:
                b |= bit
            row.append(char)
        else:
            if char == "#":
                hint = f"; blocked squares are only in coin-flip tic-tac-toe (coinflip_tictactoe({text!r}))"
            elif char == "0":
                hint = f"; use the letter O, not the digit 0, and {allowed}"
            else:
                hint = f"; a square is {allowed}"
            raise fail(f"{char!r} is not a square{hint}", at)
    end = (line, column + 1)
    if row:
        end_row(end)
    if rows != 3:
        raise fail(f"the position has {rows} row{'' if rows == 1 else 's'}; it has 3 rows separated by '/'", end)
    _check_reachable(text, x, o, b)
    return x, o, b


def _check_reachable(text: str, x: int, o: int, b: int) -> None:
    """Raise a :class:`UsageError` for a position no game reaches."""
    nx, no, nb = x.bit_count(), o.bit_count(), b.bit_count()
    counts = f"X has {nx} mark{'' if nx == 1 else 's'} and O has {no}"
    where = f"position {text.strip()!r}"
    if nx - no not in (0, 1):
        raise UsageError(
            f"{where}: {counts}; X moves first, so X has as many marks as O (X to move) or one more (O to move)"
        )
    x_line, o_line = _line_names(x), _line_names(o)
    if x_line and o_line:
        raise UsageError(
            f"{where}: both X ({x_line}) and O ({o_line}) have three in a row; the game ends at the first line"
        )
    if x_line and nx == no:
        raise UsageError(
            f"{where}: X has three in a row ({x_line}) but {counts}, so O moved after X had won; "
            "the game ends at the first line"
        )
    if o_line and nx > no:
        raise UsageError(
            f"{where}: O has three in a row ({o_line}) but {counts}, so X moved after O had won; "
            "the game ends at the first line"
        )
    if nb > nx + no:
        raise UsageError(
            f"{where}: {nb} blocked squares after {nx + no} move{'' if nx + no == 1 else 's'} ({counts}); "
            "at most one square is blocked after each move"
        )


def _line_names(mask: int) -> str:
    return ", ".join(
        " ".join(_SQUARE_NAMES[i] for i in line) for line, m in zip(LINES, _LINE_MASKS, strict=True) if mask & m == m
    )


def _squares(state: int) -> tuple[int, int, int]:
    return state & 511, state >> 9 & 511, state >> 18 & 511


def _char(x: int, o: int, b: int, i: int) -> str:
    bit = 1 << i
    return "X" if x & bit else "O" if o & bit else "#" if b & bit else "."


# ---------------------------------------------------------------- picture

_SVG_NS = "http://www.w3.org/2000/svg"
_X_COLOUR = "#0072B2"  # Okabe-Ito blue
_O_COLOUR = "#D55E00"  # Okabe-Ito vermillion (a dark orange)
_BLOCK_COLOUR = "#595959"
_GRID_COLOUR = "#333"


def _picture(x: int, o: int, b: int, size: float, label: str) -> str:
    if isinstance(size, bool) or not isinstance(size, (int, float)) or not 0 < size < 10_000:
        raise RenderError(f"picture size {size!r} is not a number of pixels; use a number from 1 to 9999 (default 40)")
    parts = [
        f'<svg xmlns="{_SVG_NS}" width="{size:g}" height="{size:g}" viewBox="0 0 30 30" role="img" '
        f'aria-label="tic-tac-toe {label}">',
        '<rect width="30" height="30" rx="2" fill="#fff"/>',
    ]
    crosses, noughts = [], []
    for i in range(9):
        cx, cy, bit = i % 3 * 10 + 5, i // 3 * 10 + 5, 1 << i
        if b & bit:
            parts.append(f'<rect x="{cx - 4}" y="{cy - 4}" width="8" height="8" fill="{_BLOCK_COLOUR}"/>')
        elif x & bit:
            crosses.append(f"M{cx - 3} {cy - 3}L{cx + 3} {cy + 3}M{cx + 3} {cy - 3}L{cx - 3} {cy + 3}")
        elif o & bit:
            noughts.append(f'<circle cx="{cx}" cy="{cy}" r="3.2"/>')
    parts.append(f'<path d="M10 1V29M20 1V29M1 10H29M1 20H29" stroke="{_GRID_COLOUR}" stroke-width="0.8"/>')
    if crosses:
        parts.append(
            f'<path d="{"".join(crosses)}" stroke="{_X_COLOUR}" stroke-width="2.2" stroke-linecap="round" fill="none"/>'
        )
    if noughts:
        parts.append(f'<g fill="none" stroke="{_O_COLOUR}" stroke-width="2">{"".join(noughts)}</g>')
    parts.append("</svg>")
    return "".join(parts)


# ---------------------------------------------------------------- the games


class _Board:
    """What both games share: the evaluation, the notation, the picture, ``repr`` and equality."""

    name = "tictactoe"
    """The game's name in messages and titles (and its key in :data:`GAMES`)."""
    value_range = (-1, 1)
    """The least and greatest utility (and evaluation): the bounds for Star1 and Star2."""
    initial: int
    """The state to search from."""

    def evaluate(self, state: int) -> Fraction | int:
        """A static evaluation for depth-limited search, in the open interval (-1, 1).

        AIMA 3rd ed. Exercise 5.9: Eval = 3·X2 + X1 − (3·O2 + O1), where Xn is the
        number of lines with exactly n X's and no O's (On likewise for O).  A line
        with a blocked square (coin-flip tic-tac-toe) counts for neither player.
        Eval is divided by :data:`EVALUATION_SCALE` (25): each of the eight lines
        is worth at most 3, so |Eval| ≤ 24 and the result lies strictly between
        -1 and 1 -- a win (+1) always counts more than any evaluation.  At a
        terminal state the evaluation is the utility.

        >>> game = tictactoe()
        >>> game.evaluate(game.result(game.initial, 4))  # X in the centre: four open lines
        Fraction(4, 25)
        """
        x, o, b = _squares(state)
        if WIN[x]:
            return 1
        if WIN[o]:
            return -1
        if x | o | b == 511:
            return 0
        return _evaluation(x, o, b)

    def position(self, state: int) -> str:
        """The board in the position notation the game's function reads, such as ``'X.O/.X./..O'``.

        A pending coin is not part of the notation: the position shows the board only.
        """
        x, o, b = _squares(state)
        return "/".join("".join(_char(x, o, b, r * 3 + c) for c in range(3)) for r in range(3))

    def text(self, state: int) -> str:
        """The board as three lines, such as ``'X . O'`` (``#`` for a blocked square); the parser reads it back."""
        x, o, b = _squares(state)
        return "\n".join(" ".join(_char(x, o, b, r * 3 + c) for c in range(3)) for r in range(3))

    def picture(self, state: int, size: float = 40) -> str:
        """A small standalone SVG of the board, ``size`` pixels square (default 40).

        X's are blue crosses, O's dark orange rings (two colours told apart with
        every common colour-vision deficiency), blocked squares dark grey.  The
        SVG has no scripts, ids or external references, and the same state
        always gives the same text, so it can be put inside diagram nodes.

        Raises:
            RenderError: ``size`` is not a number of pixels.
        """
        x, o, b = _squares(state)
        return _picture(x, o, b, size, self.position(state))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and repr(other) == repr(self)

    def __hash__(self) -> int:
        return hash(repr(self))


class TicTacToe(_Board):
    """Tic-tac-toe (AIMA 3rd ed. Fig. 5.1, 4th ed. Fig. 5.1): X is MAX and moves first.

    Utility: +1 when X has three in a row, -1 when O has, 0 for a full board
    without a line.  The moves are the empty squares in row-major order (a1, b1,
    c1, a2, ...); searched in that order from the empty board, minimax visits
    549,946 nodes, 255,168 of them leaves, and the value is 0 (a draw).

    Build one with :func:`tictactoe`, which reads a position.

    Attributes:
        initial: the state to search from (an ``int``: X's squares in bits 0-8, O's in bits 9-17).
    """

    has_chance = False
    """No chance nodes: minimax and alpha-beta apply."""

    def __init__(self, position: str | None = None) -> None:
        x, o, _ = (0, 0, 0) if position is None else _parse(position, blocks=False, function="tictactoe")
        self.initial = x | o << 9

    # The search reads these five methods hundreds of thousands of times: each is a table lookup or two.

    def to_move(self, state: int) -> str:
        """``ev.MAX`` (X) when X and O have as many marks, else ``ev.MIN`` (O)."""
        return _TURN[state.bit_count() & 1]

    def actions(self, state: int) -> tuple[int, ...]:
        """The empty squares, in row-major order (0 is a1, top left; 8 is c3, bottom right)."""
        return FREE[(state | state >> 9) & 511]

    def result(self, state: int, action: int) -> int:
        """The state after the player to move marks the square ``action`` (one of ``actions(state)``)."""
        return state | 1 << (action + 9 * (state.bit_count() & 1))

    def is_terminal(self, state: int) -> bool:
        """True when a player has three in a row or the board is full."""
        return WIN[state & 511] or WIN[state >> 9] or state.bit_count() == 9

    def utility(self, state: int) -> int:
        """+1 when X has three in a row, -1 when O has, else 0 (MAX's point of view)."""
        return 1 if WIN[state & 511] else -1 if WIN[state >> 9] else 0

    def move_label(self, state: int, action: int) -> str:
        """The mover's letter and the square: ``"X b2"`` (columns a-c from the left, rows 1-3 from the top)."""
        return f"{_LETTER[state.bit_count() & 1]} {_SQUARE_NAMES[action]}"

    def __repr__(self) -> str:
        return "tictactoe()" if self.initial == 0 else f"tictactoe({self.position(self.initial)!r})"


class CoinFlipTicTacToe(_Board):
    """Tic-tac-toe where a coin may block a square (the variant of the encyclopedia article "Expectiminimax").

    The rules are those of tic-tac-toe, and after each move that does not end
    the game a fair coin is flipped:

    * tails (probability 1/2): nothing happens;
    * heads (probability 1/2): one of the k unoccupied squares, chosen uniformly
      at random, is blocked -- nobody may play there and it belongs to no line.

    So the CHANCE state after a move has the outcomes "no block" (``None``) with
    probability 1/2, then each empty square in row-major order with probability
    1/(2k): exact fractions summing to 1.  A block that fills the last empty
    square ends the game in a draw.  After the chance event the other player
    moves: X and O keep alternating, and as a block is nobody's mark, whose turn
    it is still follows from the counts of X's and O's (equal: X to move).

    With ``blocker="opponent"`` the block is not random: the opponent of the
    player who just moved chooses it, with the same options (no block, or any
    empty square).  The chance state becomes a MIN state after X's move and a
    MAX state after O's: a minimax that treats the block as the opponent's
    choice, to compare with expectiminimax on the coin.

    Build one with :func:`coinflip_tictactoe`, which reads a position (with
    ``#`` for a blocked square); the position is at a MAX or MIN turn.

    Attributes:
        initial: the state to search from (an ``int``: X's squares in bits 0-8, O's in 9-17,
            blocked squares in 18-26, bit 27 set while the coin is pending).
        blocker: ``"chance"`` or ``"opponent"``.
    """

    name = "coinflip-tictactoe"

    def __init__(self, position: str | None = None, *, blocker: str = "chance") -> None:
        if blocker not in BLOCKERS:
            raise OptionError(
                f"blocker={blocker!r} is not a blocker; use 'chance' (a fair coin blocks a square) "
                "or 'opponent' (the opponent of the player who just moved chooses the block)"
            )
        self.blocker = blocker
        self.has_chance = blocker == "chance"
        """True when a coin blocks (chance nodes: expectiminimax, star1, star2); False when the opponent does."""
        x, o, b = (0, 0, 0) if position is None else _parse(position, blocks=True, function="coinflip_tictactoe")
        self.initial = x | o << 9 | b << 18
        self._pending_player = (CHANCE, CHANCE) if blocker == "chance" else (MAX, MIN)

    def to_move(self, state: int) -> str:
        """``ev.MAX`` or ``ev.MIN`` by the counts of X's and O's; ``ev.CHANCE`` while the coin is pending.

        With ``blocker="opponent"`` the pending state is the opponent's: MIN after X's move, MAX after O's.
        """
        if state & _PENDING:
            return self._pending_player[(state & _BOARD).bit_count() & 1]
        return _TURN[(state & _BOARD).bit_count() & 1]

    def actions(self, state: int) -> tuple[int | None, ...]:
        """The empty squares in row-major order; while the coin is pending, ``None`` (no block) and then those."""
        if state & _PENDING:
            return _OPTIONS[(state | state >> 9 | state >> 18) & 511]
        return FREE[(state | state >> 9 | state >> 18) & 511]

    def chance_outcomes(self, state: int) -> tuple[tuple[int | None, Fraction], ...]:
        """The coin's outcomes: ``(None, 1/2)`` (no block), then ``(square, 1/(2k))`` for each of k empty squares."""
        return _OUTCOMES[(state | state >> 9 | state >> 18) & 511]

    def result(self, state: int, action: int | None) -> int:
        """The state after a move, or, while the coin is pending, after the outcome ``action`` (None: no block)."""
        if state & _PENDING:
            state ^= _PENDING
            return state if action is None else state | 1 << (action + 18)
        after = state | 1 << (action + 9 * ((state & _BOARD).bit_count() & 1))  # type: ignore[operator]
        x, o = after & 511, after >> 9 & 511
        if WIN[x] or WIN[o] or (x | o | after >> 18) & 511 == 511:
            return after
        return after | _PENDING

    def is_terminal(self, state: int) -> bool:
        """True when a player has three in a row or no square is empty (marks and blocks fill the board)."""
        x, o = state & 511, state >> 9 & 511
        return WIN[x] or WIN[o] or (x | o | state >> 18) & 511 == 511

    def utility(self, state: int) -> int:
        """+1 when X has three in a row, -1 when O has, else 0 (MAX's point of view)."""
        return 1 if WIN[state & 511] else -1 if WIN[state >> 9 & 511] else 0

    def move_label(self, state: int, action: int | None) -> str:
        """``"X b2"`` for a move; ``"no block"`` or ``"block b2"`` for the coin's (or the blocker's) choice."""
        if state & _PENDING:
            return "no block" if action is None else f"block {_SQUARE_NAMES[action]}"
        return f"{_LETTER[(state & _BOARD).bit_count() & 1]} {_SQUARE_NAMES[action]}"  # type: ignore[index]

    def __repr__(self) -> str:
        args = [] if self.initial & ~_PENDING == 0 else [repr(self.position(self.initial))]
        if self.blocker != "chance":
            args.append(f"blocker={self.blocker!r}")
        return f"coinflip_tictactoe({', '.join(args)})"


def tictactoe(position: str | None = None) -> TicTacToe:
    """Tic-tac-toe from a position (the empty board by default).

    Args:
        position: rows from the top, separated by ``/``, each three squares from
            ``X``, ``O`` and ``.`` (also ``x``, ``o``, ``-``), such as ``'X.O/.X./..O'``;
            spaces are ignored and line breaks separate rows too.  X moves first:
            equal counts mean X (MAX) is to move, one X more means O (MIN) is.

    Raises:
        UsageError: the text is not a position (the message gives ``line:column``),
            or no game reaches it (wrong counts, both players with a line, a move after a win).

    >>> tictactoe("x-o/-x-/--o")
    tictactoe('X.O/.X./..O')
    >>> tictactoe("XX./.../...")
    Traceback (most recent call last):
    ...
    expectviz.errors.UsageError: position 'XX./.../...': X has 2 marks and O has 0; X moves first, ...
    """
    return TicTacToe(position)


def coinflip_tictactoe(position: str | None = None, *, blocker: str = "chance") -> CoinFlipTicTacToe:
    """Coin-flip tic-tac-toe from a position (see :class:`CoinFlipTicTacToe` for the rules).

    Args:
        position: as for :func:`tictactoe`, with ``#`` for a blocked square.
        blocker: ``"chance"`` (a fair coin, the default) or ``"opponent"`` (the
            opponent of the player who just moved chooses the block).

    Raises:
        UsageError: the text is not a position, or no game reaches it.
        OptionError: ``blocker`` is neither ``"chance"`` nor ``"opponent"``.

    >>> game = coinflip_tictactoe("X#./.O./...")
    >>> after = game.result(game.initial, 2)
    >>> game.to_move(after), [(game.move_label(after, s), p) for s, p in game.chance_outcomes(after)][:2]
    ('chance', [('no block', Fraction(1, 2)), ('block a2', Fraction(1, 10))])
    >>> coinflip_tictactoe(blocker="opponent").to_move(after)
    'min'
    """
    return CoinFlipTicTacToe(position, blocker=blocker)


GAMES: dict[str, Callable[[], _Board]] = {
    "tictactoe": tictactoe,
    "coinflip-tictactoe": coinflip_tictactoe,
}
"""The games of this module by name, each a function that builds the game with no arguments."""
