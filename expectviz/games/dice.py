"""Dice: k in a row on a board where a die picks the line you play in (Hauk, Buro and Schaeffer 2004).

The small regular game of chance on which Thomas Hauk's MSc thesis ("Search in
Trees with Chance Nodes", University of Alberta, 2004) and the *-minimax papers
of Hauk, Buro and Schaeffer (Computers and Games 2004, published 2006; among
them "*-Minimax Performance in Backgammon") measure Star1 and Star2; Veness and
Blair (2007, "Effective use of transposition tables in stochastic game tree
search") play it on a 5 x 5 board.
:class:`Dice` gives the exact rules.  In short: before each move a die is rolled
for the player to move, X's die picks a column and O's a row, and the player
places a stone on an empty square of that line; k stones in a row win.

* :func:`dice` -- the game on an m x n board with k in a row (3 x 3 and 3 in a row by default).
* :func:`dice_5x5` -- Veness and Blair's 5 x 5 board, 4 in a row.

Squares are named as in tic-tac-toe: columns a, b, c, ... from the left, rows
1, 2, 3, ... from the *top* ("b2").  A position is written row by row from the
top, rows separated by ``/``, each square ``X``, ``O`` or ``.``, and optionally
the die already rolled for the player to move: ``roll 2`` is the die's face,
column b for X or row 2 for O.  Without it the die is still to be rolled.

>>> game = dice("X.O/.X./..O")
>>> game
dice('X.O/.X./..O')
>>> game.to_move(game.initial), game.chance_outcomes(game.initial)   # X's die: a column, 1/3 each
('chance', ((0, Fraction(1, 3)), (1, Fraction(1, 3)), (2, Fraction(1, 3))))
>>> [game.move_label(game.initial, c) for c, _ in game.chance_outcomes(game.initial)]
['column a', 'column b', 'column c']
>>> rolled = game.result(game.initial, 1)            # the die selects column b
>>> game.position(rolled), game.to_move(rolled), [game.move_label(rolled, a) for a in game.actions(rolled)]
('X.O/.X./..O roll 2', 'max', ['X b1', 'X b3'])
>>> after = game.result(rolled, 7)                    # X b3: no line yet; O's die (a row) is next
>>> game.position(after), game.to_move(after), game.line_name(after, 2)
('X.O/.X./.XO', 'chance', 'row 3')
>>> won = dice("X.O/XO./... roll 1")                 # X in column a: a3 makes a column of three
>>> after = won.result(won.initial, 6)
>>> won.is_terminal(after), won.utility(after)
(True, 1)
>>> full = dice("XO./OX./X.O roll 1")                 # column a is full: X may play on any empty square
>>> [full.move_label(full.initial, a) for a in full.actions(full.initial)]
['X c1', 'X c2', 'X b3']

A state is one ``int`` (see :class:`Dice` for the bits), so the methods the
searches call are a few bit operations and table lookups.  Every value is from
MAX's (X's) point of view.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache

from ..errors import InputTypeError, OptionError, RenderError, UsageError
from ..tree import CHANCE, MAX, MIN
from .tictactoe import _GRID_COLOUR, _O_COLOUR, _SVG_NS, _X_COLOUR

__all__ = ["Dice", "dice", "dice_5x5", "dice_order", "square_name", "SIZES", "GAMES"]

SIZES = range(2, 9)
"""The number of rows, and of columns, a board may have: 2 to 8."""

_LETTERS = "abcdefgh"
_TURN = (MAX, MIN)  # indexed by the parity of the number of stones: X (MAX) moves when the counts are equal
_STONE = ("X", "O")
_LINE_KIND = ("column", "row")  # what X's die and O's die select
_SQUARE_CHARS = {"X": 0, "x": 0, "O": 1, "o": 1, ".": 2, "-": 2}
_HEADER_BITS = 10  # the board's shape, stored at the top of every state (see Dice)


def square_name(square: int, cols: int = 3) -> str:
    """The name of a square (row-major number) on a board ``cols`` wide: column letter, then row from the top.

    >>> [square_name(s) for s in (0, 1, 4, 8)], square_name(7, 5), square_name(24, 5)
    (['a1', 'b1', 'b2', 'c3'], 'c2', 'e5')
    """
    return f"{_LETTERS[square % cols]}{square // cols + 1}"


def _default_k(rows: int, cols: int) -> int:
    """3 in a row on boards up to 4 wide, 4 on larger ones (never more than the longer side)."""
    return min(3 if max(rows, cols) <= 4 else 4, max(rows, cols))


# ---------------------------------------------------------------- tables, built once per board shape


class _Shape:
    """The tables of one board shape (rows, columns, k), shared by every game with that shape."""

    def __init__(self, rows: int, cols: int, k: int) -> None:
        self.rows, self.cols, self.k = rows, cols, k
        n = self.squares = rows * cols
        self.all = (1 << n) - 1  # every square
        self.header = ((1 << (_HEADER_BITS - 1)) | (rows - 2) << 6 | (cols - 2) << 3 | (k - 2)) << (2 * n + 6)
        self.windows = _windows(rows, cols, k)
        self.through = tuple(tuple(w for w in self.windows if w >> s & 1) for s in range(n))
        columns = [sum(1 << (r * cols + c) for r in range(rows)) for c in range(cols)]
        row_masks = [sum(1 << (r * cols + c) for c in range(cols)) for r in range(rows)]
        self.free_on = (tuple(_free_table(m) for m in columns), tuple(_free_table(m) for m in row_masks))
        self.weight = tuple(3 ** (c - 1) if c else 0 for c in range(k))
        self.scale = len(self.windows) * 3 ** (k - 2) + 1
        self.fractions: dict[int, Fraction] = {}  # Eval -> Eval / scale, made once each


def _windows(rows: int, cols: int, k: int) -> tuple[int, ...]:
    """Every k squares in a row (as a bit mask): along the rows, the columns, the diagonals, the anti-diagonals."""
    found = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(rows):
            for c in range(cols):
                if 0 <= r + dr * (k - 1) < rows and 0 <= c + dc * (k - 1) < cols:
                    found.append(sum(1 << ((r + dr * i) * cols + c + dc * i) for i in range(k)))
    return tuple(found)


def _free_table(line: int) -> tuple[int, dict[int, tuple[int, ...]]]:
    """A line's mask, and for each set of its squares that may be occupied, the line's empty squares in order."""
    squares = [s for s in range(line.bit_length()) if line >> s & 1]
    table = {}
    for pattern in range(1 << len(squares)):
        occupied = sum(1 << s for i, s in enumerate(squares) if pattern >> i & 1)
        table[occupied] = tuple(s for s in squares if not occupied >> s & 1)
    return line, table


_SHAPES: dict[int, _Shape] = {}
"""Every shape built so far, by its header (``state >> (state.bit_length() - 10)``): how :func:`dice_order` finds it."""


@cache
def _shape(rows: int, cols: int, k: int) -> _Shape:
    shape = _Shape(rows, cols, k)
    _SHAPES[shape.header >> (2 * shape.squares + 6)] = shape
    return shape


_shape(3, 3, 3), _shape(5, 5, 4)  # the boards of GAMES, built at import


# ---------------------------------------------------------------- the move-ordering key


def dice_order(state: int, action: int) -> int:
    """A move-ordering key for Dice (smaller first): winning squares, then blocks, then the most open squares.

    For the player to move, a square is put in one of three groups:

    1. it completes k in a row (a window of k squares holding k-1 of the player's stones and none of the opponent's);
    2. else it blocks the opponent's k-1 (a window with k-1 opponent stones and none of the player's);
    3. every other square.

    Within a group, squares on more promising lines come first: each window of
    k through the square scores 1 + the player's stones in it if the opponent
    has none there, and 1 + the opponent's stones if the player has none (an
    empty window scores 2).  On the empty board that puts the centre first.
    Ties keep row-major order.  The cost is one pass over the (at most 4k)
    windows through the square.

    >>> def ordered(position):
    ...     game = dice(position)
    ...     moves = sorted(game.actions(game.initial), key=lambda a: dice_order(game.initial, a))
    ...     return [game.move_label(game.initial, a) for a in moves]
    >>> ordered("XX./O../O.. roll 3")   # X in column c: c1 wins
    ['X c1', 'X c3', 'X c2']
    >>> ordered("X../X.O/... roll 3")   # O in row 3: a3 blocks X's column a
    ['O a3', 'O c3', 'O b3']
    >>> ordered(".../.../... roll 2")   # X in column b: the centre first
    ['X b2', 'X b1', 'X b3']
    """
    shape = _SHAPES[state >> (state.bit_length() - _HEADER_BITS)]
    n = shape.squares
    mover = (state & ((1 << 2 * n) - 1)).bit_count() & 1
    mine = state >> (n * mover) & shape.all
    theirs = state >> (n * (1 - mover)) & shape.all
    almost = shape.k - 1
    group, score = 2, 0
    for window in shape.through[action]:
        own, other = mine & window, theirs & window
        if not other:
            count = own.bit_count()
            if count == almost:
                group = 0
            score += count + 1
        if not own:
            count = other.bit_count()
            if count == almost and group:
                group = 1
            score += count + 1
    return (group * 1024 - score) * 64 + action


# ---------------------------------------------------------------- the game


class Dice:
    """Dice (Hauk 2004; Hauk, Buro and Schaeffer 2004/2006): k in a row where a die picks the line.

    The rules:

    * The board has m rows and n columns (2 to 8 each), empty at the start.  X
      (MAX) moves first, then O (MIN), alternately.
    * Before each move a fair die is rolled for the player to move.  X's die
      has n faces and selects a *column* (probability 1/n each); O's die has m
      faces and selects a *row* (1/m each).
    * The player places a stone on an empty square of the selected line.
      **This implementation's rule for a full line:** if the selected line has
      no empty square, the player may place the stone on any empty square.
    * The first player with k stones in a row -- horizontally, vertically or
      diagonally -- wins: utility +1 if X, -1 if O.  A full board without such
      a line is a draw (0).  The game ends only after a placement, never after
      a roll.

    So the tree is regular: CHANCE (X's die) -> MAX -> CHANCE (O's die) -> MIN
    -> CHANCE ...; every outcome of a chance node is a MAX state, or every one
    a MIN state (what Star2 needs), and the searches count the chance levels
    as depth: depth 2 is one roll and one move.

    The order of things:

    * chance outcomes: the line's index 0 to n-1 (columns a, b, ... from the left)
      for X, 0 to m-1 (rows 1, 2, ... from the top) for O, each ``Fraction(1, n)``
      or ``Fraction(1, m)``, in that order; labelled ``"column b"``, ``"row 2"``.
    * moves: the square's number (row-major from a1 = 0), the empty squares of
      the selected line in order -- top to bottom in a column, left to right in
      a row -- or, when the line is full, every empty square in row-major
      order; labelled ``"X b2"``.

    A state is one ``int``, with N = m·n squares numbered row-major:

    * bits 0 to N-1: X's stones; bits N to 2N-1: O's stones (whose turn it is
      follows from the counts: equal means X);
    * bits 2N to 2N+3: the die, 0 while it is still to be rolled, else the
      selected line's index + 1;
    * bit 2N+4: X has k in a row; bit 2N+5: O has (set by the move that made it);
    * bits 2N+6 to 2N+15: the board's shape (a leading 1, then m-2, n-2 and k-2 in
      three bits each), so a state alone names its board: :func:`dice_order`,
      a plain function of a state and a move, reads it.

    Build one with :func:`dice`.

    Attributes:
        rows, cols: the board's size, m rows and n columns.
        k: how many in a row win.
        initial: the state to search from.
        evaluation_scale: the divisor of the evaluation (see :meth:`evaluate`).
    """

    has_chance = True
    """The dice are chance nodes: expectiminimax, star1, star2."""
    value_range = (-1, 1)
    """The least and greatest utility (and evaluation): the bounds for Star1 and Star2."""

    def __init__(
        self,
        position: str | None = None,
        *,
        size: int | tuple[int, int] | None = None,
        k: int | None = None,
        roll: int | None = None,
    ) -> None:
        asked = _check_size(size)
        if position is None:
            rows, cols = asked or (3, 3)
            x = o = 0
            face, face_at = None, None
        else:
            rows, cols, x, o, face, face_at = _parse(position)
            if asked is not None and asked != (rows, cols):
                raise OptionError(
                    f"size={size!r} does not match the position, which has {rows} rows of {cols} squares; "
                    "leave size out when you give a position (the position gives the size)"
                )
        self.rows, self.cols = rows, cols
        self.k = _check_k(k, rows, cols)
        shape = self._shape = _shape(rows, cols, self.k)
        self.name = "dice-5x5" if (rows, cols, self.k) == (5, 5, 4) else "dice"
        """The game's name in messages and titles (and its key in :data:`GAMES`)."""
        self.evaluation_scale = shape.scale
        n = shape.squares
        # The constants the hot methods read (each one is a table lookup or a few bit operations).
        self._n, self._all, self._board = n, shape.all, (1 << 2 * n) - 1
        self._roll_shift, self._roll_mask = 2 * n, 15 << 2 * n
        self._x_won, self._o_won = 1 << 2 * n + 4, 1 << 2 * n + 5
        self._won = (self._x_won, self._o_won)
        self._through, self._free_on = shape.through, shape.free_on
        self._windows, self._weight, self._fractions = shape.windows, shape.weight, shape.fractions
        self._outcomes = tuple(
            tuple((i, Fraction(1, count)) for i in range(count)) for count in (cols, rows)
        )  # X's die (columns), O's die (rows)
        state = shape.header | x | o << n
        x_wins, o_wins = self._has_line(x), self._has_line(o)
        state |= self._x_won if x_wins else 0
        state |= self._o_won if o_wins else 0
        if position is not None:
            _check_reachable(position, x, o, x_wins, o_wins, self._line_names)
        if roll is not None:
            if face is not None and face != roll:
                raise OptionError(f"roll={roll!r} disagrees with the position's roll {face}; give the roll once")
            face = self._check_roll(state, roll, lambda reason: OptionError(f"roll={roll!r}: {reason}"))
        elif face is not None:
            where = f"position {face_at[0]}:{face_at[1]}: " if face_at else ""
            self._check_roll(state, face, lambda reason: UsageError(f"{where}roll {face}: {reason}"))
        self.initial = state if face is None else state | face << self._roll_shift

    # ---------------------------------------------------------------- the rules (what the searches call)

    def to_move(self, state: int) -> str:
        """``ev.CHANCE`` while the die is to be rolled, else ``ev.MAX`` (X) or ``ev.MIN`` (O) by the counts."""
        if state & self._roll_mask:
            return _TURN[(state & self._board).bit_count() & 1]
        return CHANCE

    def chance_outcomes(self, state: int) -> tuple[tuple[int, Fraction], ...]:
        """The die's faces: X's selects a column (0 to n-1, 1/n each), O's a row (0 to m-1, 1/m each)."""
        return self._outcomes[(state & self._board).bit_count() & 1]

    def actions(self, state: int) -> tuple[int, ...]:
        """The empty squares of the selected line in order, or every empty square if that line is full."""
        occupied = (state | state >> self._n) & self._all
        line, free = self._free_on[(state & self._board).bit_count() & 1][(state >> self._roll_shift & 15) - 1]
        return free[occupied & line] or tuple(s for s in range(self._n) if not occupied >> s & 1)

    def result(self, state: int, action: int) -> int:
        """The state after the die shows the line ``action`` (while it is to be rolled), or after a move."""
        if not state & self._roll_mask:
            return state | (action + 1) << self._roll_shift
        mover = (state & self._board).bit_count() & 1
        after = (state ^ (state & self._roll_mask)) | 1 << (action + self._n * mover)  # the die is spent
        stones = after >> (self._n * mover) & self._all
        for window in self._through[action]:
            if stones & window == window:
                return after | self._won[mover]
        return after

    def is_terminal(self, state: int) -> bool:
        """True when a player has k in a row or the board is full."""
        return bool(state & (self._x_won | self._o_won)) or (state | state >> self._n) & self._all == self._all

    def utility(self, state: int) -> int:
        """+1 when X has k in a row, -1 when O has, else 0 (MAX's point of view)."""
        return 1 if state & self._x_won else -1 if state & self._o_won else 0

    def evaluate(self, state: int) -> Fraction | int:
        """A static evaluation for depth-limited search, in the open interval (-1, 1).

        AIMA 3rd ed. Exercise 5.9 (3·X2 + X1 − (3·O2 + O1) for tic-tac-toe),
        generalised to k in a row: every window of k squares in a row that
        holds c ≥ 1 of X's stones and none of O's adds 3^(c-1), and one with c
        of O's and none of X's subtracts 3^(c-1).  Before the end no window is
        full, so each is worth at most 3^(k-2), and Eval is divided by
        ``evaluation_scale`` = (number of windows)·3^(k-2) + 1, which puts it
        strictly between -1 and 1: a win (+1) always counts more.  The
        evaluation reads the board only (not the die, nor whose turn it is), so
        it is symmetric: swapping X and O negates it.  At a terminal state it is
        the utility.  On 3 x 3 it is tic-tac-toe's evaluation (scale 25); on
        5 x 5 with k = 4 the scale is 28·9 + 1 = 253.

        >>> game = dice(".../.X./...")
        >>> game.evaluate(game.initial), game.evaluation_scale     # X in the centre: four open lines
        (Fraction(4, 25), 25)
        """
        if self.is_terminal(state):
            return self.utility(state)
        x, o = state & self._all, state >> self._n & self._all
        weight, e = self._weight, 0  # weight[c] = 3^(c-1), weight[0] = 0
        for window in self._windows:
            if not o & window:
                e += weight[(x & window).bit_count()]
            elif not x & window:
                e -= weight[(o & window).bit_count()]
        fraction = self._fractions.get(e)
        if fraction is None:
            fraction = self._fractions[e] = Fraction(e, self.evaluation_scale)
        return fraction

    def move_label(self, state: int, action: int) -> str:
        """``"column b"`` or ``"row 2"`` for the die; ``"X b2"`` for a move."""
        if not state & self._roll_mask:
            return self.line_name(state, action)
        return f"{_STONE[(state & self._board).bit_count() & 1]} {square_name(action, self.cols)}"

    # ---------------------------------------------------------------- accessors (the play widget reads these)

    def player(self, state: int) -> str:
        """Whose turn it is, ``ev.MAX`` (X) or ``ev.MIN`` (O), also while that player's die is to be rolled."""
        return _TURN[(state & self._board).bit_count() & 1]

    def roll(self, state: int) -> int | None:
        """The index of the line the die selected (a column for X, a row for O), or None while it is to be rolled."""
        field = state >> self._roll_shift & 15
        return field - 1 if field else None

    def line_name(self, state: int, index: int) -> str:
        """The line ``index`` of the player to move's die: ``"column b"`` for X, ``"row 2"`` for O."""
        if (state & self._board).bit_count() & 1:
            return f"row {index + 1}"
        return f"column {_LETTERS[index]}"

    def square_name(self, square: int) -> str:
        """The name of a square on this board, such as ``"b2"`` (see :func:`square_name`)."""
        return square_name(square, self.cols)

    def cells(self, state: int) -> tuple[str, ...]:
        """The squares in row-major order, each ``"X"``, ``"O"`` or ``"."``."""
        x, o = state & self._all, state >> self._n & self._all
        return tuple("X" if x >> s & 1 else "O" if o >> s & 1 else "." for s in range(self._n))

    # ---------------------------------------------------------------- notation and picture

    def position(self, state: int) -> str:
        """The position in the notation :func:`dice` reads, such as ``'X.O/.X./..O roll 2'`` (the die's face)."""
        rolled = self.roll(state)
        return "/".join(self._rows(state)) + ("" if rolled is None else f" roll {rolled + 1}")

    def text(self, state: int) -> str:
        """The board as m lines such as ``'X . O'``, then ``roll 2`` if the die is rolled; :func:`dice` reads it."""
        rolled = self.roll(state)
        lines = [" ".join(row) for row in self._rows(state)]
        return "\n".join(lines + ([] if rolled is None else [f"roll {rolled + 1}"]))

    def picture(self, state: int, size: float = 40) -> str:
        """A small standalone SVG of the board, ``size`` pixels on its longer side (default 40).

        X's are blue crosses and O's dark orange rings, as in tic-tac-toe; the
        line the die selected is shaded light blue (X's column) or light orange
        (O's row).  No scripts, ids or external references, and the same state
        always gives the same text, so it can be put inside diagram nodes.

        Raises:
            RenderError: ``size`` is not a number of pixels.
        """
        if isinstance(size, bool) or not isinstance(size, (int, float)) or not 0 < size < 10_000:
            raise RenderError(
                f"picture size {size!r} is not a number of pixels; use a number from 1 to 9999 (default 40)"
            )
        rows, cols = self.rows, self.cols
        w, h = cols * 10, rows * 10
        longer = max(rows, cols)
        parts = [
            f'<svg xmlns="{_SVG_NS}" width="{size * cols / longer:g}" height="{size * rows / longer:g}" '
            f'viewBox="0 0 {w} {h}" role="img" aria-label="dice {self.position(state)}">',
            f'<rect width="{w}" height="{h}" rx="2" fill="#fff"/>',
        ]
        rolled = self.roll(state)
        if rolled is not None:
            if (state & self._board).bit_count() & 1:
                parts.append(f'<rect x="0.5" y="{rolled * 10 + 0.5:g}" width="{w - 1}" height="9" fill="{_O_SHADE}"/>')
            else:
                parts.append(f'<rect x="{rolled * 10 + 0.5:g}" y="0.5" width="9" height="{h - 1}" fill="{_X_SHADE}"/>')
        grid = "".join(f"M{c * 10} 1V{h - 1}" for c in range(1, cols)) + "".join(
            f"M1 {r * 10}H{w - 1}" for r in range(1, rows)
        )
        parts.append(f'<path d="{grid}" stroke="{_GRID_COLOUR}" stroke-width="0.8"/>')
        crosses, rings = [], []
        for s, cell in enumerate(self.cells(state)):
            cx, cy = s % cols * 10 + 5, s // cols * 10 + 5
            if cell == "X":
                crosses.append(f"M{cx - 3} {cy - 3}L{cx + 3} {cy + 3}M{cx + 3} {cy - 3}L{cx - 3} {cy + 3}")
            elif cell == "O":
                rings.append(f'<circle cx="{cx}" cy="{cy}" r="3.2"/>')
        if crosses:
            parts.append(
                f'<path d="{"".join(crosses)}" stroke="{_X_COLOUR}" stroke-width="2.2" stroke-linecap="round" '
                'fill="none"/>'
            )
        if rings:
            parts.append(f'<g fill="none" stroke="{_O_COLOUR}" stroke-width="2">{"".join(rings)}</g>')
        parts.append("</svg>")
        return "".join(parts)

    def __repr__(self) -> str:
        state = self.initial
        k = [] if self.k == _default_k(self.rows, self.cols) else [f"k={self.k}"]
        if state & (self._board | self._x_won | self._o_won):
            return f"dice({', '.join([repr(self.position(state)), *k])})"
        shape = self.rows if self.rows == self.cols else (self.rows, self.cols)
        size = [] if shape == 3 else [f"size={shape!r}"]
        rolled = self.roll(state)
        roll = [] if rolled is None else [f"roll={rolled + 1}"]
        return f"dice({', '.join([*size, *k, *roll])})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and repr(other) == repr(self)

    def __hash__(self) -> int:
        return hash(repr(self))

    # ---------------------------------------------------------------- helpers

    def _rows(self, state: int) -> list[str]:
        cells, cols = self.cells(state), self.cols
        return ["".join(cells[r * cols : (r + 1) * cols]) for r in range(self.rows)]

    def _has_line(self, stones: int) -> bool:
        return any(stones & w == w for w in self._windows)

    def _line_names(self, stones: int) -> str:
        return ", ".join(
            " ".join(square_name(s, self.cols) for s in range(self._n) if w >> s & 1)
            for w in self._windows
            if stones & w == w
        )

    def _check_roll(self, state: int, face: object, error: Callable[[str], Exception]) -> int:
        """The die's face ``face`` (1 to n for X's column, 1 to m for O's row), checked against the position."""
        if self.is_terminal(state):
            raise error("the game is over, so no die is rolled; leave the roll out")
        mover = (state & self._board).bit_count() & 1
        faces = (self.cols, self.rows)[mover]
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= faces:
            lines = f"columns a to {_LETTERS[faces - 1]}" if mover == 0 else f"rows 1 to {faces}"
            raise error(f"{_STONE[mover]}'s die selects a {_LINE_KIND[mover]}: its faces are 1 to {faces} ({lines})")
        return face


_X_SHADE = "#CFE5F3"  # a light tint of X's blue: X's column
_O_SHADE = "#F7D8C4"  # a light tint of O's orange: O's row


# ---------------------------------------------------------------- options and positions


def _check_size(size: object) -> tuple[int, int] | None:
    if size is None:
        return None
    dims = (size, size) if isinstance(size, int) else size
    if (
        isinstance(size, bool)
        or not isinstance(dims, (tuple, list))
        or len(dims) != 2
        or not all(isinstance(d, int) and not isinstance(d, bool) and d in SIZES for d in dims)
    ):
        raise OptionError(
            f"size={size!r} is not a board size; use n for an n x n board or (rows, columns), each 2 to 8"
        )
    return dims[0], dims[1]


def _check_k(k: object, rows: int, cols: int) -> int:
    if k is None:
        return _default_k(rows, cols)
    longest = max(rows, cols)
    if isinstance(k, bool) or not isinstance(k, int) or not 2 <= k <= longest:
        raise OptionError(
            f"k={k!r} is not a line length for a {rows} x {cols} board; k (how many in a row win) is 2 to {longest}"
        )
    return k


def _parse(text: object) -> tuple[int, int, int, int, int | None, tuple[int, int] | None]:
    """Read a position: rows, columns, X's and O's squares as masks, and the die's face (or None) and where it is.

    Raises:
        InputTypeError: the position is not a str.
        UsageError: the text is not a position (the message gives ``line:column``).
    """
    if not isinstance(text, str):
        raise InputTypeError(
            "dice() takes a position as text such as 'X.O/.X./..O' or 'X.O/.X./..O roll 2' "
            f"(or None for the empty board), not {type(text).__name__}"
        )

    def at(i: int) -> tuple[int, int]:
        return text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)

    def fail(reason: str, i: int) -> UsageError:
        line, column = at(i)
        return UsageError(f"position {line}:{column}: {reason}")

    rows: list[list[int]] = []
    row: list[int] = []
    row_start = 0

    def end_row(i: int) -> None:
        if rows and len(row) != len(rows[0]):
            raise fail(
                f"row {len(rows) + 1} has {len(row)} square{'' if len(row) == 1 else 's'}; "
                f"every row has as many squares as row 1 ({len(rows[0])})",
                i,
            )
        if not rows and len(row) < SIZES[0]:
            raise fail(f"row 1 has {len(row)} square{'' if len(row) == 1 else 's'}; a board has 2 to 8 columns", i)
        rows.append(row.copy())
        row.clear()

    face, face_at = None, None
    i = 0
    while i < len(text):
        char = text[i]
        if char == "/" or (char == "\n" and row):
            end_row(i)
        elif char in " \t\r\n":
            pass
        elif char in _SQUARE_CHARS:
            if not row:
                row_start = i
            if len(rows) == SIZES[-1]:
                raise fail(f"a ninth row starts with {char!r}; a board has 2 to 8 rows", row_start)
            width = len(rows[0]) if rows else SIZES[-1]
            if len(row) == width:
                limit = f"row 1 has {width}" if rows else "a board has 2 to 8 columns"
                raise fail(f"row {len(rows) + 1} has a square too many, {char!r}; {limit}", i)
            row.append(_SQUARE_CHARS[char])
        elif text[i : i + 4].lower() == "roll":
            if row:
                end_row(i)
            if not rows:
                raise fail("the roll comes after the board, such as 'X.O/.X./..O roll 2'", i)
            face, start = _parse_roll(text, i + 4, fail)
            face_at = at(start)
            break
        else:
            hint = "use the letter O, not the digit 0; " if char == "0" else ""
            raise fail(
                f"{char!r} is not a square; {hint}a square is X, O or . (also x, o, -), "
                "and the die's face may follow the board, such as ' roll 2'",
                i,
            )
        i += 1
    if row:
        end_row(len(text))
    if len(rows) < SIZES[0]:
        raise fail(
            f"the position has {len(rows)} row{'' if len(rows) == 1 else 's'}; "
            "a board has 2 to 8 rows separated by '/'",
            len(text),
        )
    cols = len(rows[0])
    x = sum(1 << (r * cols + c) for r, squares in enumerate(rows) for c, kind in enumerate(squares) if kind == 0)
    o = sum(1 << (r * cols + c) for r, squares in enumerate(rows) for c, kind in enumerate(squares) if kind == 1)
    return len(rows), cols, x, o, face, face_at


def _parse_roll(text: str, i: int, fail: Callable[[str, int], UsageError]) -> tuple[int, int]:
    """After the word ``roll`` (ending at ``i``): the die's face and where it is written; nothing may follow."""
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    start = i
    while i < len(text) and text[i].isdigit() and text[i].isascii():
        i += 1
    if start == i:
        shown = repr(text[start]) if start < len(text) else "nothing"
        raise fail(f"'roll' is followed by {shown}; write the die's face after it, such as 'roll 2'", start)
    face = int(text[start:i])
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    if i < len(text):
        raise fail(f"{text[i]!r} after the roll; the roll ('roll 2') ends the position", i)
    return face, start


def _check_reachable(text: str, x: int, o: int, x_wins: bool, o_wins: bool, line_names: Callable[[int], str]) -> None:
    """Raise a :class:`UsageError` for a position no game reaches."""
    nx, no = x.bit_count(), o.bit_count()
    counts = f"X has {nx} stone{'' if nx == 1 else 's'} and O has {no}"
    where = f"position {text.strip()!r}"
    if nx - no not in (0, 1):
        raise UsageError(
            f"{where}: {counts}; X moves first, so X has as many stones as O (X to move) or one more (O to move)"
        )
    if x_wins and o_wins:
        raise UsageError(
            f"{where}: both X ({line_names(x)}) and O ({line_names(o)}) have a line; the game ends at the first line"
        )
    if x_wins and nx == no:
        raise UsageError(
            f"{where}: X has a line ({line_names(x)}) but {counts}, so O moved after X had won; "
            "the game ends at the first line"
        )
    if o_wins and nx > no:
        raise UsageError(
            f"{where}: O has a line ({line_names(o)}) but {counts}, so X moved after O had won; "
            "the game ends at the first line"
        )


# ---------------------------------------------------------------- the functions that build the games


def dice(
    position: str | None = None,
    *,
    size: int | tuple[int, int] | None = None,
    k: int | None = None,
    roll: int | None = None,
) -> Dice:
    """Dice from a position (the empty 3 x 3 board by default); :class:`Dice` gives the rules.

    Args:
        position: rows from the top, separated by ``/`` (or line breaks), each
            square ``X``, ``O`` or ``.`` (also ``x``, ``o``, ``-``; spaces are
            ignored), such as ``'X.O/.X./..O'``; it gives the board's size.
            It may end with the die's face for the player to move, ``roll 2``:
            column b for X, row 2 for O.  Without a roll the die is still to be rolled.
            X moves first: equal counts mean X (MAX) is to move, one X more means O (MIN) is.
        size: the board for the empty position: n for n x n, or (rows, columns), each 2 to 8 (default 3).
            With a position it must agree with it.
        k: how many in a row win, 2 to the longer side (default 3 on boards up to 4 wide, 4 on larger ones).
        roll: the die's face already rolled for the player to move, as ``roll N`` in the position.

    Raises:
        UsageError: the text is not a position (the message gives ``line:column``),
            or no game reaches it (wrong counts, both players with a line, a move after a win).
        OptionError: a bad ``size``, ``k`` or ``roll``.

    >>> dice("x-o/-x-/--o  Roll 3")
    dice('X.O/.X./..O roll 3')
    >>> dice(size=(4, 5), k=3).rows, dice(size=5).k
    (4, 4)
    >>> dice("X.O/.X./..O roll 4")
    Traceback (most recent call last):
    ...
    expectviz.errors.UsageError: position 1:18: roll 4: X's die selects a column: its faces are 1 to 3 (columns a to c)
    """
    return Dice(position, size=size, k=k, roll=roll)


def dice_5x5(position: str | None = None, *, roll: int | None = None) -> Dice:
    """Dice on Veness and Blair's 5 x 5 board with 4 in a row (``dice(position, size=5, k=4)``).

    >>> dice_5x5()
    dice(size=5)
    >>> dice_5x5().name, dice_5x5().evaluation_scale
    ('dice-5x5', 253)
    """
    return Dice(position, size=5, k=4, roll=roll)


GAMES: dict[str, Callable[[], Dice]] = {
    "dice": dice,
    "dice-5x5": dice_5x5,
}
"""The games of this module by name, each a function that builds the game with no arguments."""
