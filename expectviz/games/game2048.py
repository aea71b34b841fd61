"""A small 2048 (Gabriele Cirulli, 2014): the single-player game of chance that expectimax plays.

The encyclopedia article "Expectiminimax" names 2048 as the example of
*expectimax*: there is no opponent, only the player (MAX) and the random new
tiles (CHANCE).  The real game is played on a 4x4 board up to the 2048 tile;
here the board is 2x2 or 3x3 and the target smaller, so that a search can see
to the end of the game (:class:`Game2048` gives the exact rules).

>>> import expectviz as ev
>>> game = game2048("2 ./. 2")
>>> game
game2048()
>>> game.to_move(game.initial), game.actions(game.initial)
('max', ('up', 'down', 'left', 'right'))
>>> print(game.text(game.result(game.initial, "left")))
2 .
2 .
+
>>> after = game.result(game.initial, "up")             # both 2s in the top row; a new tile is pending
>>> game.position(after), game.to_move(after)
('2 2/. . +', 'chance')
>>> [(game.move_label(after, o), str(p)) for o, p in game.chance_outcomes(after)]
[('2 at a2', '9/20'), ('4 at a2', '1/20'), ('2 at b2', '9/20'), ('4 at b2', '1/20')]
>>> round(ev.expectiminimax(game, table=True, trace=False).value, 4)   # the chance to win, with the best play
0.0829

The cells are numbered in row-major order: a1, b1 (the top row, left to right),
then a2, b2 on a 2x2 board; a1, b1, c1, a2, ..., c3 on a 3x3 board.  Columns
are the letters from the left, rows the numbers from the *top*, as in
tic-tac-toe, so a position reads in the order it is written.

A state is one ``int``: cell ``i`` holds the exponent of its tile (1 for a 2,
2 for a 4, ..., 0 for an empty cell) in bits ``4i`` to ``4i + 3``; bit 36 is
set while a new tile is pending, and bit 37 on a 3x3 board (so that the
ordering key :func:`game2048_order` can tell the size from the state alone).
Sliding a row is one lookup in a table built at import (all 16² rows of two
cells and 16³ rows of three), and a column slides as a row of the transposed
board, which costs a few more lookups.  Every value is from MAX's (the
player's) point of view: 1 for a win, 0 for a loss, so a value is the chance
of winning.

Why the default targets (:data:`DEFAULT_TARGET`), measured in pure Python
(chance levels count in a depth; ``trace=False``):

* 2x2 to 32: 32 is the largest tile a 2x2 board can reach (to 64 the value is
  exactly 0), and even the best play wins only 8.3% of the games
  (6631667660933/80000000000000), so every move counts.  The whole game has
  695 distinct states: ``ev.expectiminimax(game2048(), table=True)`` solves it
  in 0.03 s (5,589 nodes).  Without the table the tree has 231,689,245 nodes,
  too many to search.  Depth 6 takes 0.01 s (2,653 nodes).  (To 16 the value
  is 0.96: almost any play wins.)
* 3x3 to 64: a game lasts about 40 moves; depth 4 takes 0.02 s (2,933 nodes),
  depth 6 about 1 s (129,541 nodes), and the whole game is far too big to
  solve.  In 40 games played at depth 2 the search won 35, at depth 4 it
  won 39, so looking further ahead pays.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ..errors import InputTypeError, OptionError, RenderError, UsageError
from ..tree import CHANCE, MAX

__all__ = [
    "Game2048",
    "game2048",
    "game2048_order",
    "cell_name",
    "MOVES",
    "SIZES",
    "DEFAULT_TARGET",
    "START",
    "LARGEST_TILE",
    "TILE_COLOURS",
    "TEXT_COLOURS",
    "contrast",
    "GAMES",
]

MOVES = ("up", "down", "left", "right")
"""The four moves, in the order :meth:`Game2048.actions` lists the legal ones."""

SIZES = (2, 3)
"""The board sizes: 2x2 and 3x3."""

DEFAULT_TARGET = {2: 32, 3: 64}
"""The tile that wins, by board size, when no ``target`` is given (see the module for why)."""

START = {2: "2 ./. 2", 3: "2 . ./. . ./. . 2"}
"""The position each size starts from when no position is given: two 2s in opposite corners."""

LARGEST_TILE = 1 << 15
"""The largest tile a cell holds (32768: four bits of exponent), so the largest target."""

_PENDING = 1 << 36
_THREE = 1 << 37  # set on every state of a 3x3 board, so that game2048_order can tell the size from the state
_TWO_IN_TEN = (Fraction(9, 10), Fraction(1, 10))  # the chances of a new 2 and a new 4

# ---------------------------------------------------------------- tables, built once at import


def _slide_left(line: list[int]) -> list[int]:
    """Slide a line of exponents toward its start: equal neighbours merge once, the leading ones first.

    >>> _slide_left([1, 1, 1]), _slide_left([1, 0, 1]), _slide_left([2, 1, 1]), _slide_left([1, 1, 2])
    ([2, 1, 0], [2, 0, 0], [2, 2, 0], [2, 2, 0])
    """
    tiles = [e for e in line if e]
    out: list[int] = []
    i = 0
    while i < len(tiles):
        # two 32768s do not merge: the game ends at the target, so such a line never occurs
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1] and tiles[i] < 15:
            out.append(tiles[i] + 1)
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (len(line) - len(out))


def _pack(line: list[int]) -> int:
    return sum(e << 4 * i for i, e in enumerate(line))


def _unpack(row: int, n: int) -> list[int]:
    return [row >> 4 * i & 15 for i in range(n)]


class _Rules:
    """The rules of one board size as lookup tables indexed by a packed row (``n`` exponents, four bits each).

    The subclasses :class:`_Rules2` and :class:`_Rules3` apply the tables to a
    whole board, one row after another, written out row by row for speed.
    """

    n = 0
    """The board's side."""

    def __init__(self) -> None:
        n = self.n
        rows = range(16**n)
        lines = [_unpack(row, n) for row in rows]
        self.cells = n * n
        self.left = [_pack(_slide_left(line)) for line in lines]
        """``left[row]``: the row slid toward its first cell (left; up for a column)."""
        self.right = [_pack(_slide_left(line[::-1])[::-1]) for line in lines]
        """``right[row]``: the row slid toward its last cell (right; down for a column)."""
        self.moves = [(self.left[row] != row) | (self.right[row] != row) << 1 for row in rows]
        """``moves[row]``: bit 0 when sliding left changes the row, bit 1 when sliding right does."""
        self.top = [max(line) for line in lines]
        """``top[row]``: the largest exponent in the row."""
        self.empty = [sum(1 << i for i, e in enumerate(line) if not e) for line in lines]
        """``empty[row]``: the empty cells of the row, one bit each."""
        self.transpose = [[sum(e << 4 * (c * n + r) for c, e in enumerate(line)) for line in lines] for r in range(n)]
        """``transpose[r][row]``: row r of a board written as column r (the board reflected in its diagonal)."""
        self.outcomes = [
            tuple(
                ((cell, 2 << k), p / e)
                for cell in range(self.cells)
                if free >> cell & 1
                for k, p in enumerate(_TWO_IN_TEN)
            )
            for free in range(1 << self.cells)
            for e in [max(free.bit_count(), 1)]
        ]
        """``outcomes[free]``: the new tiles for the set of empty cells ``free``, with their probabilities."""

    def slide(self, board: int, action: str) -> int:
        """The board after every tile slides toward one side (the move ``action``)."""
        if action == "left":
            return self.rows(board, self.left)
        if action == "right":
            return self.rows(board, self.right)
        # up and down: slide the columns as the rows of the transposed board
        return self.transposed(self.rows(self.transposed(board), self.left if action == "up" else self.right))

    def rows(self, board: int, table: list[int]) -> int:
        """Every row of the board replaced by ``table[row]``."""
        raise NotImplementedError

    def transposed(self, board: int) -> int:
        """The board reflected in its main diagonal: the columns become the rows (and back again)."""
        raise NotImplementedError

    def legal(self, board: int) -> int:
        """The moves that change the board, one bit each: 0 up, 1 down, 2 left, 3 right."""
        raise NotImplementedError

    def largest(self, board: int) -> int:
        """The largest exponent on the board (0 for an empty board)."""
        raise NotImplementedError

    def free(self, board: int) -> int:
        """The empty cells, one bit each in row-major order."""
        raise NotImplementedError


class _Rules2(_Rules):
    """The 2x2 board: two rows of 8 bits."""

    n = 2

    def rows(self, board: int, table: list[int]) -> int:
        return table[board & 0xFF] | table[board >> 8 & 0xFF] << 8

    def transposed(self, board: int) -> int:
        t0, t1 = self.transpose
        return t0[board & 0xFF] | t1[board >> 8 & 0xFF]

    def legal(self, board: int) -> int:
        moves, columns = self.moves, self.transposed(board)
        vertical = moves[columns & 0xFF] | moves[columns >> 8 & 0xFF]
        return vertical | (moves[board & 0xFF] | moves[board >> 8 & 0xFF]) << 2

    def largest(self, board: int) -> int:
        top = self.top
        return max(top[board & 0xFF], top[board >> 8 & 0xFF])

    def free(self, board: int) -> int:
        empty = self.empty
        return empty[board & 0xFF] | empty[board >> 8 & 0xFF] << 2


class _Rules3(_Rules):
    """The 3x3 board: three rows of 12 bits."""

    n = 3

    def rows(self, board: int, table: list[int]) -> int:
        return table[board & 0xFFF] | table[board >> 12 & 0xFFF] << 12 | table[board >> 24 & 0xFFF] << 24

    def transposed(self, board: int) -> int:
        t0, t1, t2 = self.transpose
        return t0[board & 0xFFF] | t1[board >> 12 & 0xFFF] | t2[board >> 24 & 0xFFF]

    def legal(self, board: int) -> int:
        moves, columns = self.moves, self.transposed(board)
        vertical = moves[columns & 0xFFF] | moves[columns >> 12 & 0xFFF] | moves[columns >> 24 & 0xFFF]
        return vertical | (moves[board & 0xFFF] | moves[board >> 12 & 0xFFF] | moves[board >> 24 & 0xFFF]) << 2

    def largest(self, board: int) -> int:
        top = self.top
        return max(top[board & 0xFFF], top[board >> 12 & 0xFFF], top[board >> 24 & 0xFFF])

    def free(self, board: int) -> int:
        empty = self.empty
        return empty[board & 0xFFF] | empty[board >> 12 & 0xFFF] << 3 | empty[board >> 24 & 0xFFF] << 6


_RULES: dict[int, _Rules] = {2: _Rules2(), 3: _Rules3()}
# the legal moves for each set of changing directions: bit 0 up, 1 down, 2 left, 3 right
_ACTIONS = tuple(tuple(m for i, m in enumerate(MOVES) if bits >> i & 1) for bits in range(16))
_CELL_NAMES = {n: tuple(f"{'abc'[i % n]}{i // n + 1}" for i in range(n * n)) for n in SIZES}
_CORNER_FIRST = {"up": 0, "left": 1, "right": 2, "down": 3}


def cell_name(cell: int, size: int = 3) -> str:
    """The name of a cell: column a, b, c from the left, row 1, 2, 3 from the top (cells in row-major order).

    >>> [cell_name(i, 2) for i in range(4)], cell_name(8)
    (['a1', 'b1', 'a2', 'b2'], 'c3')
    """
    return _CELL_NAMES[size][cell]


def game2048_order(state: int, action: str) -> int:
    """A move-ordering key (smaller first): the moves that free the most cells, then toward the top-left corner.

    The common 2048 advice in two rules: merge as much as possible (a move that
    frees more cells comes first), and keep the large tiles in one corner, here
    the top left: among moves that free as many cells, ``up`` then ``left``
    (toward the corner), then ``right``, and ``down`` last (it pulls tiles out
    of the top row).  The key reads the board size from the state, so the
    function serves both sizes; pass it as ``order=game2048_order``.

    >>> game = game2048("2 2 ./. . ./4 . .")
    >>> sorted(game.actions(game.initial), key=lambda a: game2048_order(game.initial, a))
    ['left', 'right', 'up', 'down']
    """
    rules = _RULES[3] if state & _THREE else _RULES[2]
    return -4 * rules.free(rules.slide(state, action)).bit_count() + _CORNER_FIRST[action]


# ---------------------------------------------------------------- positions


def _parse(text: object, size: int | None) -> tuple[list[int], bool]:
    """Read a position: the exponents of the cells in row-major order, and whether a new tile is pending.

    Raises:
        InputTypeError: the position is not a str.
        UsageError: the text is not a position (the message gives ``line:column``).
    """
    if not isinstance(text, str):
        raise InputTypeError(
            f"game2048() takes a position as text such as '2 ./. 2' (or None for the start), not {type(text).__name__}"
        )
    cells: list[int] = []  # exponents, row-major
    row: list[int] = []
    rows = 0
    width = size  # cells in a row: the size asked for, else the first row's
    pending: tuple[int, int] | None = None  # where the '+' is
    line, column = 1, 0
    token, token_at = "", (1, 1)

    def fail(reason: str, at: tuple[int, int]) -> UsageError:
        return UsageError(f"position {at[0]}:{at[1]}: {reason}")

    def end_token() -> None:
        nonlocal token
        if token:
            if pending is not None:
                raise fail("'+' (a new tile is pending) comes last, after the last row", pending)
            row.append(_exponent(token, token_at, fail))
            token = ""

    def end_row(at: tuple[int, int]) -> None:
        nonlocal rows, width
        end_token()
        if width is None:
            if len(row) not in SIZES:
                raise fail(f"row 1 has {_count(len(row))}; a board is 2x2 or 3x3 (rows of 2 or 3 cells)", at)
            width = len(row)
        elif len(row) != width:
            each = f"size={size} asks for rows of {width}" if size else f"each row has {width}"
            raise fail(f"row {rows + 1} has {_count(len(row))}; {each}, rows are separated by '/'", at)
        if rows == width:
            raise fail(f"a {width}x{width} board has {width} rows; this is row {rows + 1}", at)
        rows += 1
        cells.extend(row)
        row.clear()

    for char in text:
        column += 1
        at = (line, column)
        if char == "\n":
            end_token()
            if row:
                end_row(at)
            line, column = line + 1, 0
        elif char == "/":
            if pending is not None:
                raise fail("'+' (a new tile is pending) comes last, after the last row", pending)
            end_row(at)
        elif char in " \t\r":
            end_token()
        elif char == "+":
            end_token()
            if pending is not None:
                raise fail("a second '+'; one '+' at the end marks a pending new tile", at)
            pending = at
        else:
            if not token:
                token_at = at
            token += char
    end = (line, column + 1)
    end_token()
    if row:
        end_row(pending or end)
    if width is None or rows != width:
        expected = f"a {width}x{width} board has {width}" if width else "a board has 2 or 3"
        raise fail(f"the position has {rows} row{'' if rows == 1 else 's'}; {expected} rows separated by '/'", end)
    return cells, pending is not None


def _count(cells: int) -> str:
    return f"{cells} cell{'' if cells == 1 else 's'}"


def _exponent(token: str, at: tuple[int, int], fail: Callable[[str, tuple[int, int]], UsageError]) -> int:
    """A cell's exponent from its text: 0 for '.' or '0', k for the tile 2**k."""
    if token in (".", "0"):
        return 0
    allowed = f"a cell is '.' (or 0) when empty, else a tile: a power of two from 2 to {LARGEST_TILE}"
    if not token.isdigit() or not token.isascii():
        hint = "; separate cells with spaces" if "." in token and token.strip(".").isdigit() else ""
        raise fail(f"{token!r} is not a cell; {allowed}{hint}", at)
    value = int(token)
    if value & (value - 1) or value < 2:
        raise fail(f"{token!r} is not a tile; {allowed}", at)
    if value > LARGEST_TILE:
        raise fail(f"{token!r} is larger than the largest tile; {allowed}", at)
    return value.bit_length() - 1


def _write(exponents: list[int], pending: bool, *, rows: str, cells: str, width: int = 0) -> str:
    n = 3 if len(exponents) == 9 else 2
    words = [str(1 << e).rjust(width) if e else ".".rjust(width) for e in exponents]
    board = rows.join(cells.join(words[r * n : r * n + n]) for r in range(n))
    if not pending:
        return board
    return board + (" +" if rows == "/" else "\n+")


# ---------------------------------------------------------------- picture

_SVG_NS = "http://www.w3.org/2000/svg"
_BOARD_COLOUR = "#8f8171"
_EMPTY_COLOUR = "#e6dfd6"
_PLUS_COLOUR = "#8f8171"
TILE_COLOURS = (
    _EMPTY_COLOUR,
    "#fff7bc",  # 2
    "#fee391",  # 4
    "#fec44f",  # 8
    "#fe9929",  # 16
    "#ec7014",  # 32
    "#cc4c02",  # 64
    "#993404",  # 128
    "#662506",  # 256
    "#4a1486",  # 512
    "#3f007d",  # 1024
    "#2d004b",  # 2048
    "#161616",  # 4096
    "#0b0b0b",  # 8192
    "#050505",  # 16384
    "#000000",  # 32768
)
"""The fill of a tile by its exponent (index 0: an empty cell): light yellow to dark brown (ColorBrewer's YlOrBr),
then dark purples and black, each darker than the one before, so a larger tile is darker."""


def _luminance(colour: str) -> float:
    """The relative luminance of a ``#rrggbb`` colour (WCAG 2)."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two ``#rrggbb`` colours (1 to 21).

    >>> round(contrast("#000000", "#ffffff"))
    21
    """
    la, lb = sorted((_luminance(a), _luminance(b)))
    return (lb + 0.05) / (la + 0.05)


TEXT_COLOURS = tuple("#000000" if contrast(c, "#000000") >= contrast(c, "#ffffff") else "#ffffff" for c in TILE_COLOURS)
"""The number's colour on each tile: black or white, whichever contrasts more (at least 4.5:1 on every tile)."""

_FONT_SIZES = (0, 6.5, 6, 4.6, 3.6, 2.9)  # by the number of digits, in a cell 10 units wide


def _picture(exponents: list[int], pending: bool, size: float, label: str) -> str:
    if isinstance(size, bool) or not isinstance(size, (int, float)) or not 0 < size < 10_000:
        raise RenderError(f"picture size {size!r} is not a number of pixels; use a number from 1 to 9999 (default 40)")
    n = 3 if len(exponents) == 9 else 2
    side = 11 * n + 1  # cells 10 units wide with gaps of 1
    parts = [
        f'<svg xmlns="{_SVG_NS}" width="{size:g}" height="{size:g}" viewBox="0 0 {side} {side}" role="img" '
        f'aria-label="2048 {label}">',
        f'<rect width="{side}" height="{side}" rx="1.5" fill="{_BOARD_COLOUR}"/>',
    ]
    pluses = []
    for i, e in enumerate(exponents):
        x, y = 1 + 11 * (i % n), 1 + 11 * (i // n)
        parts.append(f'<rect x="{x}" y="{y}" width="10" height="10" rx="1" fill="{TILE_COLOURS[e]}"/>')
        if e:
            number = str(1 << e)
            font = _FONT_SIZES[len(number)]
            parts.append(
                f'<text x="{x + 5}" y="{y + 5 + 0.36 * font:g}" font-size="{font:g}" font-family="sans-serif" '
                f'font-weight="bold" text-anchor="middle" fill="{TEXT_COLOURS[e]}">{number}</text>'
            )
        elif pending:
            pluses.append(f"M{x + 3} {y + 5}H{x + 7}M{x + 5} {y + 3}V{y + 7}")
    if pluses:  # a new tile is pending: a small + in each cell where it may appear
        parts.append(f'<path d="{"".join(pluses)}" stroke="{_PLUS_COLOUR}" stroke-width="1" fill="none"/>')
    parts.append("</svg>")
    return "".join(parts)


# ---------------------------------------------------------------- the game


class Game2048:
    """2048 on a 2x2 or 3x3 board (Cirulli 2014): one player, MAX, against the random new tiles.

    The rules:

    * The board holds tiles, each a power of two (2, 4, 8, ...), at most one per cell.
    * MAX moves ``up``, ``down``, ``left`` or ``right``: every tile slides as
      far as it can that way.  Two equal tiles that meet merge into one tile of
      their sum, and each tile merges at most once in a move; the tiles nearest
      the side moved toward merge first, so a row ``2 2 2`` moved left becomes
      ``4 2 .`` and ``2 2 4`` becomes ``4 4 .`` (not ``8 . .``).
    * A move is legal only if it changes the board.  The legal moves are listed
      in the order up, down, left, right (:data:`MOVES`).
    * After each move that does not end the game, a new tile appears
      (CHANCE): in one of the e empty cells chosen uniformly at random, a 2 with
      probability 9/10 or a 4 with probability 1/10.  So each outcome ``(cell, 2)``
      has probability 9/(10e) and ``(cell, 4)`` 1/(10e); the outcomes are listed
      cell by cell in row-major order, the 2 before the 4.  (A move always
      leaves an empty cell: it either slides a tile into an empty cell or merges.)
    * MAX wins (utility 1) when a tile reaches the target, at once, before any
      new tile; MAX loses (utility 0) when no move changes the board.  There
      is no draw and no MIN: ``to_move`` is ``ev.MAX`` or ``ev.CHANCE``.

    The game always ends: each new tile adds 2 or 4 to the sum of the tiles,
    and a board without a tile at the target holds a bounded sum.

    Build one with :func:`game2048`, which reads a position.

    Attributes:
        initial: the state to search from (an ``int``: cell i's exponent in bits 4i to 4i+3,
            bit 36 set while a new tile is pending, bit 37 set on a 3x3 board).
        size: the board's side, 2 or 3.
        target: the tile that wins, a power of two from 8 to 32768.
    """

    name = "2048"
    """The game's name in messages and titles (and its key in :data:`GAMES`)."""
    has_chance = True
    """New tiles appear at random: expectiminimax (here expectimax), star1 and star2 apply."""
    value_range = (0, 1)
    """The least and greatest utility (and evaluation): the bounds for Star1 and Star2."""

    def __init__(self, position: str | None = None, *, size: int | None = None, target: int | None = None) -> None:
        if size is not None and (isinstance(size, bool) or size not in SIZES):
            raise OptionError(f"size={size!r} is not a board size; use 2 (a 2x2 board) or 3 (a 3x3 board)")
        exponents, pending = _parse(START[size or 2] if position is None else position, size)
        self.size: int = 3 if len(exponents) == 9 else 2
        if target is None:
            target = DEFAULT_TARGET[self.size]
        if isinstance(target, bool) or not isinstance(target, int) or target & (target - 1) or not 8 <= target:
            raise OptionError(f"target={target!r} is not a target; use a power of two from 8 to {LARGEST_TILE}")
        if target > LARGEST_TILE:
            raise OptionError(f"target={target!r} is too large; use a power of two from 8 to {LARGEST_TILE}")
        self.target: int = target
        self._goal = target.bit_length() - 1  # the target's exponent
        rules = _RULES[self.size]
        self._slide, self._legal, self._largest, self._free = rules.slide, rules.legal, rules.largest, rules.free
        self._outcomes = rules.outcomes
        self._cells = rules.cells
        self._names = _CELL_NAMES[self.size]
        # _evaluations[m][e]: the evaluation with the largest tile 2**m and e empty cells (see evaluate)
        self._evaluations = [
            [Fraction(m * self._cells + e, self._cells * (self._goal + 1)) for e in range(self._cells + 1)]
            for m in range(16)
        ]
        self.initial: int = _pack(exponents) | (_PENDING if pending else 0) | (_THREE if self.size == 3 else 0)
        self._check(exponents, pending, "" if position is None else position)

    def _check(self, exponents: list[int], pending: bool, text: str) -> None:
        """Raise a :class:`UsageError` for a position no game reaches."""
        where = f"position {text.strip()!r}"
        top = max(exponents)
        if top > self._goal:
            raise UsageError(
                f"{where}: the tile {1 << top} is above the target {self.target}; the game ends when a tile "
                f"reaches the target (give a larger target=)"
            )
        if pending and top == self._goal:
            raise UsageError(f"{where}: the tile {self.target} won the game, so no new tile is pending; drop the '+'")
        if pending and all(exponents):
            raise UsageError(f"{where}: a new tile is pending ('+') but no cell is empty; drop the '+'")

    # The search reads these methods hundreds of thousands of times: each is a few table lookups.

    def to_move(self, state: int) -> str:
        """``ev.CHANCE`` while a new tile is pending, else ``ev.MAX``: there is no MIN."""
        return CHANCE if state & _PENDING else MAX

    def actions(self, state: int) -> tuple[str, ...]:
        """The moves that change the board, in the order up, down, left, right."""
        return _ACTIONS[self._legal(state)]

    def chance_outcomes(self, state: int) -> tuple[tuple[tuple[int, int], Fraction], ...]:
        """The new tiles ``((cell, tile), probability)``: cells in row-major order, a 2 (9/(10e)) then a 4 (1/(10e))."""
        return self._outcomes[self._free(state)]

    def result(self, state: int, action: Any) -> int:
        """The state after a move (``"left"``...), or, while a tile is pending, after the new tile ``(cell, tile)``."""
        if state & _PENDING:
            cell: int
            tile: int
            cell, tile = action
            return (state ^ _PENDING) | (tile.bit_length() - 1) << 4 * cell
        after = self._slide(state, action) | state & _THREE
        return after if self._largest(after) >= self._goal else after | _PENDING

    def is_terminal(self, state: int) -> bool:
        """True when a tile has reached the target (a win) or no move changes the board (a loss)."""
        if state & _PENDING:
            return False
        return self._largest(state) >= self._goal or not self._legal(state)

    def utility(self, state: int) -> int:
        """1 when a tile has reached the target, else 0."""
        return 1 if self._largest(state) >= self._goal else 0

    def evaluate(self, state: int) -> Fraction | int:
        """A static evaluation for depth-limited search, in [0, 1): how near the target, plus room to move.

        With m the exponent of the largest tile (the tile is 2**m), t the
        target's exponent, e the number of empty cells and c the number of
        cells: ``(m + e/c) / (t + 1)``.  The largest tile's progress toward the
        target counts on a log scale (each doubling the same), and an empty
        cell, room to move, counts a fraction of one doubling.  As m < t and e < c
        when the game is not over (or m = 0 on an empty board), the evaluation
        stays below t/(t+1) < 1: a win always counts more.  At a terminal state
        the evaluation is the utility (1 or 0).

        >>> game = game2048("8 ./. 2")                     # m = 3, t = 5, e = 2, c = 4
        >>> game.evaluate(game.initial)
        Fraction(7, 12)
        """
        largest = self._largest(state)
        if largest >= self._goal:
            return 1
        if not state & _PENDING and not self._legal(state):
            return 0
        return self._evaluations[largest][self._free(state).bit_count()]

    def move_label(self, state: int, action: Any) -> str:
        """The move (``"left"``), or the new tile and its cell (``"2 at b1"``, ``"4 at c3"``)."""
        if state & _PENDING:
            cell, tile = action
            return f"{tile} at {self._names[cell]}"
        return str(action)

    # ---------------------------------------------------------------- reading a state

    def tiles(self, state: int) -> tuple[int, ...]:
        """The tiles in row-major order, 0 for an empty cell.

        >>> game = game2048("2 ./4 . +")
        >>> game.tiles(game.initial), game.pending(game.initial)
        ((2, 0, 4, 0), True)
        """
        return tuple(1 << e if e else 0 for e in self._exponents(state))

    def pending(self, state: int) -> bool:
        """True while a new tile is about to appear (a CHANCE state)."""
        return bool(state & _PENDING)

    def _exponents(self, state: int) -> list[int]:
        return [state >> 4 * i & 15 for i in range(self._cells)]

    def position(self, state: int) -> str:
        """The board as :func:`game2048` reads it: ``'2 4/. 2'``, or ``'2 4/. . +'`` while a tile is pending."""
        return _write(self._exponents(state), self.pending(state), rows="/", cells=" ")

    def text(self, state: int) -> str:
        """The board as lines, the numbers right-aligned (``+`` on a last line while a tile is pending); it reads back.

        >>> game = game2048("32 ./4 16")
        >>> print(game.text(game.initial))
        32  .
         4 16
        """
        exponents = self._exponents(state)
        width = max(len(str(1 << e)) for e in exponents)
        return _write(exponents, self.pending(state), rows="\n", cells=" ", width=width)

    def picture(self, state: int, size: float = 40) -> str:
        """A small standalone SVG of the board, ``size`` pixels square (default 40).

        Each tile is a square coloured by its value, light for small tiles and
        darker for larger ones (:data:`TILE_COLOURS`), with its number in black
        or white, whichever contrasts more.  While a new tile is pending, each
        empty cell shows a small ``+``: a place where it may appear.  The SVG has
        no scripts, ids or external references, and the same state always gives
        the same text, so it can be put inside diagram nodes.

        Raises:
            RenderError: ``size`` is not a number of pixels.
        """
        return _picture(self._exponents(state), self.pending(state), size, self.position(state))

    def __repr__(self) -> str:
        args = []
        if self.position(self.initial) != START[self.size]:
            args.append(repr(self.position(self.initial)))
        elif self.size != 2:
            args.append(f"size={self.size}")
        if self.target != DEFAULT_TARGET[self.size]:
            args.append(f"target={self.target}")
        return f"game2048({', '.join(args)})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and repr(other) == repr(self)

    def __hash__(self) -> int:
        return hash(repr(self))


def game2048(position: str | None = None, *, size: int | None = None, target: int | None = None) -> Game2048:
    """2048 from a position (two 2s in opposite corners of a 2x2 board by default; :class:`Game2048` gives the rules).

    Args:
        position: rows from the top, separated by ``/`` (or line breaks), each
            row its cells separated by spaces: ``.`` (or ``0``) for an empty cell,
            else the tile (2, 4, 8, ...); a ``+`` at the end means a new tile is
            about to appear (a CHANCE state); without it MAX is to move.  For
            example ``'2 ./. 2'`` or ``'2 4 ./. . 2/. . . +'``.  The number of
            cells in a row gives the size (2 or 3).
        size: 2 or 3, for the start position of that size (:data:`START`), or to
            require a position of that size.
        target: the tile that wins: a power of two from 8 to 32768 (default 32 on
            a 2x2 board, 64 on a 3x3 board: :data:`DEFAULT_TARGET`).

    Raises:
        UsageError: the text is not a position (the message gives ``line:column``),
            or no game reaches it (a tile above the target, a pending tile on a full or won board).
        OptionError: ``size`` is not 2 or 3, or ``target`` is not a power of two from 8 to 32768.

    >>> game2048("2 4 ./. . 2/0 0 0 +")
    game2048('2 4 ./. . 2/. . . +')
    >>> game2048(size=3, target=128)
    game2048(size=3, target=128)
    >>> game2048("2 3/. .")
    Traceback (most recent call last):
    ...
    expectviz.errors.UsageError: position 1:3: '3' is not a tile; a cell is '.' (or 0) when empty, else a tile: ...
    """
    return Game2048(position, size=size, target=target)


GAMES: dict[str, Callable[[], Game2048]] = {"2048": game2048}
"""The game of this module by name, a function that builds it with no arguments."""
