"""Play tic-tac-toe or coin-flip tic-tac-toe against a search, and open the search behind each computer move.

:func:`play_game` is the widget (``ev.play_game``): the board, large, with a
button for each square; whose turn it is; the computer's algorithm and depth;
New game; and, after each computer move, "Show the search", which opens the
step player (:func:`expectviz.play`) below the board on the search that chose
the move.  The computer searches in a background thread, so the kernel stays
free: the widget shows how many nodes it has searched so far, and Stop ends the
search (with iterative deepening the computer then plays the best move of the
deepest depth it finished).  Coin flips are drawn from ``random.Random(seed)``.

:class:`Match` is the game itself, without a widget; the widget and the
``expectviz play`` command both use it:

>>> m = Match("tictactoe", human="O")          # the computer plays X, alpha-beta to the end of the game
>>> m.computers_turn
True
>>> answer = m.think()                          # search the current position (the match does not change)
>>> answer.result.best_move, answer.result.stats.nodes_visited
('X a1', 18297)
>>> [entry.text for entry in m.answer(answer)]
['X a1']
>>> m.refusal(0)
'a1 is taken (X): choose an empty square'
>>> [entry.text for entry in m.play("b2")]
['O b2']
>>> print(m.game.text(m.state))
X . .
. O .
. . .

The computer stops on request because it searches a thin wrapper around the
game whose terminal test (made once for every node visited) counts the nodes
and raises a private exception when the stop flag is set.  The wrapper lives in
this package, so the search trusts it as it trusts the built-in games (no
per-call checks).
"""

from __future__ import annotations

import contextlib
import html
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import OptionError
from ..games.tictactoe import GAMES, LINES, CoinFlipTicTacToe, TicTacToe, square_name
from ..numbers import format_number
from ..registry import ALGORITHM_INFO
from ..search import Result
from ..tree import CHANCE, MAX, MIN

__all__ = [
    "play_game",
    "PlayGame",
    "Match",
    "Entry",
    "Answer",
    "COINFLIP_DEPTH",
    "parse_square",
    "search_move",
    "capitalised",
]

COINFLIP_DEPTH = 6
"""The computer's default depth limit in coin-flip tic-tac-toe (chance levels count): three moves and their coins.
Measured: expectiminimax with a transposition table, traced, answers from the empty board (its slowest move:
45,595 nodes) in 0.3 to 0.7 s, and its player opens in about 2 s; depth 7 takes 0.5 to 0.8 s and 10 s to open,
depth 8 over a second."""

PROGRESS_SECONDS = 0.25
"""How often a running search reports the nodes searched so far."""

_TICK = 1023  # the stop flag and the clock are read every 1,024 nodes (about a millisecond)
_LETTER = {MAX: "X", MIN: "O"}
_GAME_NAMES = {"tictactoe": "Tic-tac-toe", "coinflip-tictactoe": "Coin-flip tic-tac-toe"}
Board = TicTacToe | CoinFlipTicTacToe


class _Stopped(Exception):
    """Raised inside a search by the watched terminal test: Stop was pressed, or the time limit ran out."""


# ---------------------------------------------------------------- the watched game


class _Watch:
    """Counts the nodes of the searches of one computer move, and stops them when asked."""

    __slots__ = ("stop", "progress", "deadline", "count", "last", "armed", "evaluated")

    def __init__(
        self, stop: threading.Event | None, progress: Callable[[int], None] | None, deadline: float | None
    ) -> None:
        self.stop = stop
        self.progress = progress
        self.deadline = deadline
        self.count = 0
        self.last = time.perf_counter()
        self.armed = True
        self.evaluated = False

    def tick(self) -> None:
        """Every 1,024 nodes: stop if asked (or out of time); report progress now and then."""
        if not self.armed:
            return
        if self.stop is not None and self.stop.is_set():
            raise _Stopped("stopped")
        now = time.perf_counter()
        if self.deadline is not None and now > self.deadline:
            raise _Stopped("time")
        if self.progress is not None and now - self.last >= PROGRESS_SECONDS:
            self.last = now
            self.progress(self.count)


class _Watched:
    """A game as one search of the computer's reads it: the game's own methods, with a counting terminal test.

    Every search makes the terminal test once for each node it visits, so counting
    those calls is counting nodes.  Everything else (``evaluate`` aside, which notes
    that the depth limit was reached) is the game's own bound method, or found on
    the game (``picture``, ``name``, ``value_range``...).
    """

    def __init__(self, game: Board, state: int, watch: _Watch) -> None:
        self._game = game
        self.initial = state
        self.to_move = game.to_move
        self.actions = game.actions
        self.result = game.result
        self.utility = game.utility
        inner_is_terminal, evaluate = game.is_terminal, game.evaluate
        tick = watch.tick

        def is_terminal(state: int) -> bool:
            watch.count += 1
            if not watch.count & _TICK:
                tick()
            return inner_is_terminal(state)

        def noting_evaluate(state: int) -> Any:
            watch.evaluated = True
            return evaluate(state)

        self.is_terminal = is_terminal
        self.evaluate = noting_evaluate

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or "_game" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self._game, name)

    def __repr__(self) -> str:
        return repr(self._game)


# ---------------------------------------------------------------- what happens in a game


@dataclass(frozen=True)
class Answer:
    """What the computer's search found for one move, and what it cost."""

    algorithm: str
    """The algorithm that searched."""
    depth: int | None
    """The depth limit asked for (None: to the end of the game)."""
    result: Result | None
    """The search whose move is played: the deepest one that finished (None: none finished)."""
    nodes: int
    """Nodes searched in all (every depth of iterative deepening, and a stopped search's part)."""
    seconds: float
    """How long it took."""
    stopped: str | None = None
    """Why it ended early: ``"stopped"`` (Stop), ``"time"`` (the time limit); None when it finished."""
    error: str | None = None
    """Why the search could not run (a trace over ``ev.options.max_events``, an algorithm that refuses the game)."""
    iterative: bool = False
    """Iterative deepening: ``reached`` is the deepest depth that finished."""
    reached: int | None = None
    """The depth of :attr:`result`'s search (iterative deepening)."""
    complete: bool = True
    """The search looked to the end of the game (no depth limit cut it short)."""
    action: Any = None
    """The move to play: a square, or None ("no block", when the move is a block)."""
    move: str | None = None
    """The move's label (``"O b2"``, ``"no block"``); None when no search finished."""

    @property
    def playable(self) -> bool:
        """True when the answer has a move to play."""
        return self.result is not None and self.move is not None

    def summary(self, *, stop_note: bool = True) -> str:
        """``alphabeta, value 0, 18,297 nodes, 12 ms``: how the move was found (and when it was stopped)."""
        parts = [self.algorithm]
        if self.iterative and self.reached is not None:
            to = "to the end" if self.complete else f"to depth {self.reached}"
            parts.append(f"iterative deepening {to}")
        elif self.depth is not None and not self.complete:
            parts.append(f"depth {self.depth}")
        if stop_note and self.stopped is not None and self.result is not None:
            parts.append(f"{_why(self.stopped)} during depth {(self.reached or 0) + 1}")
        if self.result is not None:
            parts.append(f"value {_value(self.result.exact_value)}")
        parts.append(f"{self.nodes:,} node{'' if self.nodes == 1 else 's'}")
        parts.append(_duration(self.seconds))
        return ", ".join(parts)


@dataclass(frozen=True)
class Entry:
    """One event of a game: a move (yours or the computer's) or a coin flip."""

    by: str
    """``"you"``, ``"computer"`` or ``"coin"``."""
    action: Any
    """The square (0-8, row-major from a1), or None: the coin (or a blocker) blocked nothing."""
    text: str
    """``"X b2"``, ``"Coin: heads — b2 is blocked"``, ``"Coin: tails — no block"``."""
    answer: Answer | None = None
    """The computer's search (its :attr:`Answer.result` holds the trace)."""

    def played(self, who: str, *, present: bool = False) -> str:
        """``"You played b2"``, ``"O played b2"``, ``"O blocked b2"`` (``present``: ``"O plays b2"``);
        a coin flip's :attr:`text`."""
        if self.by == "coin":
            return self.text
        block = self.action is None or self.text.startswith("block")
        verb = ("blocks" if present else "blocked") if block else ("plays" if present else "played")
        return f"{who} {verb} {'no square' if self.action is None else square_name(self.action)}"

    def line(self) -> str:
        """The entry as the game's log shows it."""
        if self.by == "computer" and self.answer is not None:
            return f"Computer: {self.text} ({self.answer.summary()})"
        if self.by == "you":
            return f"You: {self.text}"
        return self.text


@dataclass(frozen=True)
class Plan:
    """One computer move to search: the position and the settings, copied when the search starts."""

    game: Board
    state: int
    algorithm: str
    depth: int | None
    table: bool
    order: Callable[[Any, Any], Any] | None
    iterative: bool
    time_limit: float | None
    trace: bool


class Match:
    """A game of tic-tac-toe (or coin-flip tic-tac-toe) between a person and a search, without a widget.

    Args:
        game: ``"tictactoe"``, ``"coinflip-tictactoe"``, or a game from :func:`expectviz.games.tictactoe`
            or :func:`expectviz.games.coinflip_tictactoe` (its position is where every game starts).
        human: the person's side, ``"X"`` (moves first) or ``"O"``.
        seed: the seed of the coin flips (``random.Random(seed)``); None for a fresh one each time.
        algorithm: the computer's algorithm (default: alphabeta, or expectiminimax in a game with chance).
        depth: the computer's depth limit, None to search to the end of the game, or ``"auto"``: to the end
            in tic-tac-toe, :data:`COINFLIP_DEPTH` in coin-flip tic-tac-toe.
        table: use a transposition table (default: in a game with chance).
        order: a move-ordering key for the search (such as ``ev.games.center_first``).
        iterative: iterative deepening: depth 1, 2, ... up to ``depth``; when stopped, the computer plays
            the best move of the deepest depth that finished.
        time_limit: with ``iterative``, the computer's thinking time in seconds.
        trace: record each search (the player needs it).

    Raises:
        OptionError: an unknown game, side, algorithm or depth, or an algorithm that cannot search the game.
    """

    def __init__(
        self,
        game: str | Board = "tictactoe",
        *,
        human: str = "X",
        seed: int | None = 0,
        algorithm: str | None = None,
        depth: int | str | None = "auto",
        table: bool | None = None,
        order: Callable[[Any, Any], Any] | None = None,
        iterative: bool = False,
        time_limit: float | None = None,
        trace: bool = True,
    ) -> None:
        self.game: Board = _resolve_game(game)
        self.chance = _has_chance(self.game)
        self.max_depth = _horizon(self.game, self.game.initial)
        """The most levels a search from the starting position can need (the "to the end" depth)."""
        if self.game.is_terminal(self.game.initial):
            raise OptionError(f"the position {self.game.position(self.game.initial)!r} is already over")
        self.human = _side(human)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise OptionError(f"seed must be a whole number or None, not {seed!r}")
        self.seed = seed
        self.rng = random.Random(seed)
        self.algorithm = self.default_algorithm() if algorithm is None else self.check_algorithm(algorithm)
        self.depth = self.check_depth(depth)
        if table is not None and not isinstance(table, bool):
            raise OptionError(f"table must be True, False or None (the game's default), not {table!r}")
        self.table = self.chance if table is None else table
        if order is not None and not callable(order):
            raise OptionError(f"order must be a key function key(state, move) or None, not {order!r}")
        self.order = order
        if not isinstance(iterative, bool):
            raise OptionError(f"iterative must be True or False, not {iterative!r}")
        self.iterative = iterative
        if time_limit is not None:
            if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not 0 < time_limit < 1e6:
                raise OptionError(f"time_limit must be a number of seconds > 0 or None, not {time_limit!r}")
            if not iterative:
                raise OptionError("time_limit is the thinking time of iterative deepening; add iterative=True")
        self.time_limit = time_limit
        self.trace = bool(trace)
        self.state: int = self.game.initial
        self.history: list[Entry] = []

    # ---- settings

    @property
    def algorithms(self) -> list[str]:
        """The algorithms that can search this game (those with a rule for chance nodes, in a game with chance)."""
        return [name for name, info in ALGORITHM_INFO.items() if info.chance or not self.chance]

    def default_algorithm(self) -> str:
        """alphabeta, or expectiminimax in a game with chance."""
        return "expectiminimax" if self.chance else "alphabeta"

    def check_algorithm(self, name: object) -> str:
        """``name`` if it can search this game, else :class:`OptionError`."""
        if not isinstance(name, str) or name not in ALGORITHM_INFO:
            raise OptionError(f"unknown algorithm {name!r}; choose from {', '.join(ALGORITHM_INFO)}")
        if name not in self.algorithms:
            raise OptionError(
                f"{name} has no rule for chance nodes, and {self.game.name} has coin flips; "
                f"choose from {', '.join(self.algorithms)}"
            )
        return name

    def check_depth(self, depth: object) -> int | None:
        """A depth limit from 1 to :attr:`max_depth`, or None (to the end); ``"auto"`` picks the game's default."""
        if depth == "auto":
            return COINFLIP_DEPTH if isinstance(self.game, CoinFlipTicTacToe) else None
        if depth is None:
            return None
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth:
            raise OptionError(f"depth must be a whole number >= 1, None (to the end) or 'auto', not {depth!r}")
        return None if depth >= self.max_depth else depth

    @property
    def title(self) -> str:
        """The game's name in words: ``Tic-tac-toe`` or ``Coin-flip tic-tac-toe``."""
        return _game_title(self.game)

    def describe_settings(self) -> str:
        """``alphabeta to the end`` or ``expectiminimax to depth 6``."""
        how = "to the end" if self.depth is None else f"to depth {self.depth}"
        return f"{self.algorithm} {how}" + (" (iterative deepening)" if self.iterative else "")

    # ---- whose turn

    @property
    def computer(self) -> str:
        """The computer's side, ``"X"`` or ``"O"``."""
        return "O" if self.human == "X" else "X"

    @property
    def over(self) -> bool:
        """True when the game has ended."""
        return bool(self.game.is_terminal(self.state))

    @property
    def mover(self) -> str | None:
        """Who moves next: ``"X"``, ``"O"``, ``"coin"``, or None when the game is over."""
        if self.over:
            return None
        player = self.game.to_move(self.state)
        return "coin" if player == CHANCE else _LETTER[player]

    @property
    def humans_turn(self) -> bool:
        """True when the person moves next."""
        return self.mover == self.human

    @property
    def computers_turn(self) -> bool:
        """True when the computer moves next."""
        return self.mover == self.computer

    @property
    def blocking(self) -> bool:
        """True when the next move is a block (coin-flip tic-tac-toe with ``blocker="opponent"``)."""
        return not self.over and None in self.game.actions(self.state)

    @property
    def winner(self) -> str | None:
        """``"X"`` or ``"O"`` when that side has three in a row, else None."""
        if not self.over:
            return None
        value = self.game.utility(self.state)
        return "X" if value > 0 else "O" if value < 0 else None

    @property
    def line(self) -> list[int]:
        """The squares of the winning line (empty without one)."""
        winner = self.winner
        if winner is None:
            return []
        cells = self.cells
        return next((list(line) for line in LINES if all(cells[i] == winner for i in line)), [])

    @property
    def cells(self) -> list[str]:
        """Each square from a1 to c3: ``"X"``, ``"O"``, ``"#"`` (blocked) or ``""``."""
        return [c if c in "XO#" else "" for c in self.game.position(self.state).replace("/", "")]

    @property
    def last_move(self) -> int | None:
        """The square of the last move (not a block), or None."""
        for entry in reversed(self.history):
            if entry.by != "coin" and entry.action is not None and not entry.text.startswith("block"):
                return int(entry.action)
        return None

    @property
    def last_answer(self) -> Answer | None:
        """The search behind the computer's last move, or None."""
        for entry in reversed(self.history):
            if entry.answer is not None:
                return entry.answer
        return None

    def outcome(self) -> str:
        """``"X wins (a1 b2 c3)"``, ``"Draw"``, or ``""`` while the game goes on."""
        if not self.over:
            return ""
        winner = self.winner
        if winner is None:
            return "Draw"
        return f"{winner} wins ({' '.join(square_name(i) for i in self.line)})"

    # ---- moves

    def legal(self) -> list[Any]:
        """The moves of the side to move: empty squares (and None, "no block", when the move is a block)."""
        if self.over or self.mover == "coin":
            return []
        return list(self.game.actions(self.state))

    def refusal(self, action: Any) -> str | None:
        """Why the person may not play ``action`` now (None: it is legal)."""
        if self.over:
            return f"the game is over ({self.outcome()})"
        if not self.humans_turn:
            return f"it is {self.mover}'s turn, not yours"
        if action is None:
            return None if self.blocking else "choose a square"
        try:
            square = parse_square(action)
        except OptionError as error:
            return str(error)
        if square in self.legal():
            return None
        mark, name = self.cells[square], square_name(square)
        if mark == "#":
            return f"{name} is blocked: choose an empty square"
        return f"{name} is taken ({mark}): choose an empty square"

    def play(self, action: Any) -> list[Entry]:
        """The person plays ``action`` (a square 0-8 or a name such as ``"b2"``; None: no block).

        Returns the entries added: the move and any coin flip after it.

        Raises:
            OptionError: the move is not legal now (the message says why).
        """
        reason = self.refusal(action)
        if reason is not None:
            raise OptionError(reason)
        square = None if action is None else parse_square(action)
        return self._move("you", square, None)

    def plan(self) -> Plan:
        """The computer's next search: the position and the current settings."""
        return Plan(
            self.game,
            self.state,
            self.algorithm,
            self.depth,
            self.table,
            self.order,
            self.iterative,
            self.time_limit,
            self.trace,
        )

    def think(self, *, stop: threading.Event | None = None, progress: Callable[[int], None] | None = None) -> Answer:
        """Search the current position for the computer (the match does not change); see :func:`search_move`."""
        return search_move(self.plan(), stop=stop, progress=progress)

    def answer(self, answer: Answer) -> list[Entry]:
        """Play the computer's move from ``answer`` (and flip the coin after it); returns the entries added.

        Raises:
            OptionError: it is not the computer's turn, or the answer has no move.
        """
        if not self.computers_turn:
            raise OptionError(f"it is not the computer's turn ({self.outcome() or self.mover})")
        if not answer.playable:
            raise OptionError("the search found no move to play")
        return self._move("computer", answer.action, answer)

    def _move(self, by: str, action: Any, answer: Answer | None) -> list[Entry]:
        added = [Entry(by, action, self.game.move_label(self.state, action), answer)]
        self.state = self.game.result(self.state, action)
        added.extend(self._flips())
        self.history.extend(added)
        return added

    def _flips(self) -> list[Entry]:
        """Flip the coin while one is pending (once after each move that does not end the game)."""
        added: list[Entry] = []
        game = self.game
        while isinstance(game, CoinFlipTicTacToe) and not self.over and game.to_move(self.state) == CHANCE:
            outcomes = list(game.chance_outcomes(self.state))
            draw, total = self.rng.random(), 0.0
            outcome = outcomes[-1][0]
            for candidate, probability in outcomes:
                total += float(probability)
                if draw < total:
                    outcome = candidate
                    break
            if outcome is None:
                text = "Coin: tails — no block"
            else:
                text = f"Coin: heads — {square_name(outcome)} is blocked"
            added.append(Entry("coin", outcome, text))
            self.state = game.result(self.state, outcome)
        return added

    def new_game(self, human: str | None = None) -> None:
        """Start again from the starting position (the coin's random numbers go on: a seed gives one sequence)."""
        if human is not None:
            self.human = _side(human)
        self.state = self.game.initial
        self.history = []


def search_move(
    plan: Plan, *, stop: threading.Event | None = None, progress: Callable[[int], None] | None = None
) -> Answer:
    """Search ``plan.state`` for the side to move, as ``plan`` says; never raises for a search that fails.

    Args:
        plan: the position and the settings.
        stop: when set (by another thread), the search stops within about a thousand nodes.
        progress: called now and then (every :data:`PROGRESS_SECONDS`) with the nodes searched so far,
            from the searching thread.

    Returns:
        The answer: with iterative deepening the deepest depth that finished (also after a stop or the
        time limit), else the search, or none when it was stopped or failed.
    """
    from .. import ALGORITHMS

    search = ALGORITHMS[plan.algorithm]
    horizon = _horizon(plan.game, plan.state)
    limit = horizon if plan.depth is None else min(plan.depth, horizon)
    start = time.perf_counter()
    deadline = start + plan.time_limit if plan.time_limit is not None else None
    watch = _Watch(stop, progress, deadline)
    best: Result | None = None
    reached: int | None = None
    complete = False
    stopped: str | None = None
    error: str | None = None
    for depth in range(1, limit + 1) if plan.iterative else (limit,):
        watch.evaluated = False
        game = _Watched(plan.game, plan.state, watch)
        try:
            # An explicit depth, never None: a game searched "to the end" would take the package's deep-recursion
            # lock for the whole search, and every other search in the kernel would wait for it.
            result = search(game, depth=depth, table=plan.table, order=plan.order, trace=plan.trace)
        except _Stopped as why:
            stopped = str(why)
            break
        except Exception as failure:  # noqa: BLE001 - shown to the person, who can choose again
            error = str(failure) or type(failure).__name__
            if best is not None:
                stopped = "failed"  # iterative deepening: the depths that finished still stand
            break
        best, reached = result, depth
        complete = not watch.evaluated
        if complete:
            break  # nothing was cut off by the depth: deeper searches would find the same
    watch.armed = False  # the trace reads the game again later (the player): never stop that
    seconds = time.perf_counter() - start
    if not plan.iterative and (stopped is not None or error is not None):
        best = None
    action, move = None, None
    if best is not None:
        action, move = best.best_action, None if best.best_move is None else str(best.best_move)
        if move is None and isinstance(plan.game, CoinFlipTicTacToe) and None in plan.game.actions(plan.state):
            move = plan.game.move_label(plan.state, None)  # "no block": the search reports a best action None as none
    return Answer(
        algorithm=plan.algorithm,
        depth=plan.depth,
        result=best,
        action=action,
        move=move,
        nodes=watch.count,
        seconds=seconds,
        stopped=stopped,
        error=error,
        iterative=plan.iterative,
        reached=reached,
        complete=complete,
    )


# ---------------------------------------------------------------- helpers


def parse_square(square: Any) -> int:
    """A square from its number (0-8, row-major from a1) or its name (``"b2"``; columns a-c, rows 1-3 from the top).

    Raises:
        OptionError: no such square.

    >>> parse_square("b2"), parse_square("C3"), parse_square(0)
    (4, 8, 0)
    """
    if isinstance(square, int) and not isinstance(square, bool):
        if 0 <= square <= 8:
            return square
        raise OptionError(f"there is no square {square}; the squares are 0 to 8 (a1 to c3)")
    if isinstance(square, str):
        word = square.strip().lower()
        if len(word) == 2 and word[0] in "abc" and word[1] in "123":
            return "abc".index(word[0]) + 3 * (int(word[1]) - 1)
        shown = repr(square.strip()) if len(square) <= 20 else repr(square.strip()[:20]) + "..."
        raise OptionError(f"{shown} is not a square; the squares are a1 to c3 (columns a-c, rows 1-3 from the top)")
    raise OptionError(f"a square is a number 0-8 or a name such as 'b2', not {type(square).__name__}")


def capitalised(text: str) -> str:
    """``text`` with a capital first letter, unless it starts with a square's name (``b2 is taken``)."""
    if not text or (len(text) >= 2 and text[0] in "abc" and text[1] in "123"):
        return text
    return text[0].upper() + text[1:]


def _resolve_game(game: Any) -> Board:
    if isinstance(game, str):
        key = game.strip()
        if key in GAMES:
            made: Board = GAMES[key]()  # type: ignore[assignment]
            return made
        raise OptionError(f"no game is called {game!r}; the games are {', '.join(GAMES)}")
    if isinstance(game, (TicTacToe, CoinFlipTicTacToe)):
        return game
    raise OptionError(
        f"play_game plays tic-tac-toe: a name ({', '.join(GAMES)}) or a game from ev.games.tictactoe(...) "
        f"or ev.games.coinflip_tictactoe(...), not {type(game).__name__}"
    )


def _has_chance(game: Board) -> bool:
    flag = getattr(game, "has_chance", None)
    if isinstance(flag, bool):
        return flag
    return isinstance(game, CoinFlipTicTacToe) and game.blocker == "chance"


def _horizon(game: Board, state: int) -> int:
    """The most levels below ``state`` that a game can last: every search to this depth reaches its end."""
    empty = game.position(state).count(".")
    return 2 * empty + 1 if isinstance(game, CoinFlipTicTacToe) else max(1, empty)


def _side(human: object) -> str:
    if isinstance(human, str) and human.strip().upper() in ("X", "O"):
        return human.strip().upper()
    raise OptionError(f"human must be 'X' (moves first) or 'O', not {human!r}")


def _value(v: Any) -> str:
    text = format_number(v)
    return text if len(text) <= 5 else f"≈{float(v):.3g}"


def _duration(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.1f} s"


def _why(stopped: str) -> str:
    return {"time": "out of time", "failed": "the search failed"}.get(stopped, "stopped")


def _game_title(game: Board) -> str:
    return _GAME_NAMES.get(game.name, game.name)


# ---------------------------------------------------------------- the widget


def play_game(
    game: str | Board = "tictactoe",
    *,
    algorithm: str | None = None,
    depth: int | str | None = "auto",
    human: str = "X",
    seed: int | None = 0,
    table: bool | None = None,
    order: Callable[[Any, Any], Any] | None = None,
    iterative: bool = False,
    time_limit: float | None = None,
    threaded: bool = True,
) -> PlayGame:
    """A widget to play tic-tac-toe (or coin-flip tic-tac-toe) against a search, by clicking the board.

    After each computer move, "Show the search" opens the step player (:func:`expectviz.play`) on the
    search that chose it.  The computer searches in a background thread: the widget counts the nodes
    searched so far, and Stop ends the search.

    Args:
        game: ``"tictactoe"``, ``"coinflip-tictactoe"``, or a game from :func:`expectviz.games.tictactoe` /
            :func:`expectviz.games.coinflip_tictactoe` (its position starts every game).
        algorithm: the computer's algorithm (default: alphabeta; expectiminimax in coin-flip tic-tac-toe).
        depth: its depth limit in levels (coin flips count), None for none, ``"auto"``: to the end in
            tic-tac-toe (alpha-beta takes about 20 ms), :data:`COINFLIP_DEPTH` in coin-flip tic-tac-toe.
        human: your side, ``"X"`` (moves first) or ``"O"``.
        seed: the seed of the coin flips: the same seed and the same moves give the same game.
        table: a transposition table (default: on in coin-flip tic-tac-toe).
        order: a move-ordering key, such as ``ev.games.center_first``.
        iterative: iterative deepening; Stop (or ``time_limit``) then plays the deepest finished depth's move.
        time_limit: with ``iterative``, the computer's thinking time in seconds.
        threaded: False searches in the calling thread (for scripts and tests: each call returns when done).

    Returns:
        A :class:`PlayGame`; display it (the last line of a cell) to play.

    Raises:
        OptionError: an unknown game, side, algorithm or depth.
    """
    return PlayGame(
        game,
        algorithm=algorithm,
        depth=depth,
        human=human,
        seed=seed,
        table=table,
        order=order,
        iterative=iterative,
        time_limit=time_limit,
        threaded=threaded,
    )


_BOARD_CLASS: Any = None


def _board_class() -> Any:
    """The anywidget of the board (``play_game.js``, ``play_game.css``), made on first use (anywidget is optional)."""
    global _BOARD_CLASS
    if _BOARD_CLASS is not None:
        return _BOARD_CLASS
    import anywidget
    import traitlets

    from .packed import module_text

    class GameBoard(anywidget.AnyWidget):
        """The board and its controls; the game's logic is in :class:`PlayGame` (Python)."""

        _esm = module_text("play_game.js")
        _css = module_text("play_game.css")
        title = traitlets.Unicode("").tag(sync=True)
        cells = traitlets.List(traitlets.Unicode(), [""] * 9).tag(sync=True)
        legal = traitlets.List(traitlets.Int()).tag(sync=True)
        last = traitlets.Int(-1).tag(sync=True)
        line = traitlets.List(traitlets.Int()).tag(sync=True)
        human = traitlets.Unicode("X").tag(sync=True)
        mover = traitlets.Unicode("").tag(sync=True)
        blocking = traitlets.Bool(False).tag(sync=True)
        turn = traitlets.Unicode("").tag(sync=True)
        status = traitlets.Unicode("").tag(sync=True)
        notice = traitlets.Unicode("").tag(sync=True)
        log = traitlets.List(traitlets.Unicode()).tag(sync=True)
        thinking = traitlets.Bool(False).tag(sync=True)
        nodes = traitlets.Int(0).tag(sync=True)
        algorithm = traitlets.Unicode("").tag(sync=True)
        algorithms = traitlets.List(traitlets.Unicode()).tag(sync=True)
        depth = traitlets.Int(0).tag(sync=True)  # 0: to the end
        max_depth = traitlets.Int(9).tag(sync=True)
        can_move = traitlets.Bool(False).tag(sync=True)
        can_show = traitlets.Bool(False).tag(sync=True)
        showing = traitlets.Bool(False).tag(sync=True)
        opening = traitlets.Bool(False).tag(sync=True)
        shown = traitlets.Unicode("").tag(sync=True)

    _BOARD_CLASS = GameBoard
    return GameBoard


class PlayGame:
    """A game against the computer in a notebook: the board (an anywidget) and, on request, the step player.

    Display it to play (``widget`` is the ipywidgets ``VBox`` that is shown: the board, then the
    player when open).  The same actions from Python, for scripts and tests: :meth:`click`,
    :meth:`no_block`, :meth:`computer_move`, :meth:`stop`, :meth:`new_game`, :meth:`show_search`,
    :meth:`hide_search`, and :meth:`wait` for the background search.  :attr:`match` is the game.
    """

    def __init__(
        self,
        game: str | Board = "tictactoe",
        *,
        algorithm: str | None = None,
        depth: int | str | None = "auto",
        human: str = "X",
        seed: int | None = 0,
        table: bool | None = None,
        order: Callable[[Any, Any], Any] | None = None,
        iterative: bool = False,
        time_limit: float | None = None,
        threaded: bool = True,
    ) -> None:
        import ipywidgets

        self.match = Match(
            game,
            human=human,
            seed=seed,
            algorithm=algorithm,
            depth=depth,
            table=table,
            order=order,
            iterative=iterative,
            time_limit=time_limit,
        )
        self.threaded = bool(threaded)
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thinking = False
        self._nodes = 0
        self._worker: threading.Thread | None = None
        self._opener: threading.Thread | None = None
        self._opening: Answer | None = None
        self._status = ""
        self._before = ""  # what you just did, said before the computer's answer
        self._notice = ""
        self.player: Any = None
        """The step player shown below the board (None when closed)."""
        self._player_answer: Answer | None = None
        self.board: Any = _board_class()()
        """The board's anywidget."""
        self.widget: Any = ipywidgets.VBox([self.board])
        """What is displayed: the board, and the player below it when open."""
        self.board.on_msg(self._on_message)
        self.board.observe(self._on_pick, names=["algorithm", "depth", "human"])
        with self._lock:
            self._begin()

    # ---- what Python (and the browser, through messages) can do

    def click(self, square: int | str) -> bool:
        """Play ``square`` (0-8 or a name such as ``"b2"``) for you; the computer answers.

        Returns False, with the reason in :attr:`notice`, when the move is not legal now.
        """
        return self._human(square)

    def no_block(self) -> bool:
        """Block no square (when your move is a block: coin-flip tic-tac-toe with ``blocker="opponent"``)."""
        return self._human(None)

    def computer_move(self) -> bool:
        """Let the computer search and move now (after a stop or a failed search); False if it is not its turn."""
        with self._lock:
            if self._thinking or not self.match.computers_turn:
                self._notice = "It is not the computer's turn." if not self._thinking else "The computer is thinking."
                self._sync()
                return False
            self._start_search()
            return True

    def stop(self) -> None:
        """Stop the computer's search (it ends within about a thousand nodes; see :meth:`wait`)."""
        with self._lock:
            if self._thinking:
                self._stop.set()
                self._status = "Stopping…"
                self._sync()

    def new_game(self, human: str | None = None) -> None:
        """Start a new game (as ``human``, ``"X"`` or ``"O"``, if given); a running search is dropped."""
        with self._lock:
            self._stop.set()
            self._stop = threading.Event()
            self._thinking = False
            self.match.new_game(human)
            self._close_player()
            self._begin()

    def show_search(self) -> bool:
        """Open the step player on the search behind the computer's last move; False when there is none."""
        with self._lock:
            answer = self.match.last_answer
            if answer is None or answer.result is None:
                self._notice = "The computer has not moved yet: there is no search to show."
                self._sync()
                return False
            if self._player_answer is answer or self._opening is answer:
                return True
            if answer.result.trace is None:
                self._notice = "This search was not traced."
                self._sync()
                return False
            self._opening = answer
            self._sync()
        if self.threaded:
            self._opener = threading.Thread(target=self._open, args=(answer,), name="expectviz-play-open", daemon=True)
            self._opener.start()
        else:
            self._open(answer)
        return True

    def hide_search(self) -> None:
        """Close the step player."""
        with self._lock:
            self._close_player()
            self._sync()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the computer's search (and a player being opened); True when nothing runs any more."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:  # a search can start another (the computer blocks a square, then moves)
            running = [t for t in (self._worker, self._opener) if t is not None and t.is_alive()]
            left = None if deadline is None else deadline - time.monotonic()
            if not running or (left is not None and left <= 0):
                break
            running[0].join(left)
        return not self._thinking and self._opening is None

    def close(self) -> None:
        """Stop the search and close the widgets (the board, the player and their box)."""
        with self._lock:
            self._stop.set()
            self._thinking = False
            self._close_player()
            self.board.close()
            self.widget.close()

    # ---- what the game looks like

    @property
    def state(self) -> int:
        """The game's state now."""
        return self.match.state

    @property
    def history(self) -> list[Entry]:
        """Every move and coin flip of this game, in order."""
        return list(self.match.history)

    @property
    def result(self) -> Result | None:
        """The search behind the computer's last move (with its trace), or None."""
        answer = self.match.last_answer
        return None if answer is None else answer.result

    @property
    def thinking(self) -> bool:
        """True while the computer searches."""
        return self._thinking

    @property
    def status(self) -> str:
        """What just happened, as the widget says it."""
        return str(self.board.status)

    @property
    def notice(self) -> str:
        """Why the last action was refused (empty when it was not)."""
        return str(self.board.notice)

    @property
    def turn(self) -> str:
        """Whose turn it is, or how the game ended, as the widget says it."""
        return str(self.board.turn)

    @property
    def algorithm(self) -> str:
        """The computer's algorithm (set it to change the next search)."""
        return self.match.algorithm

    @algorithm.setter
    def algorithm(self, name: str) -> None:
        with self._lock:
            self.match.algorithm = self.match.check_algorithm(name)
            self._sync()

    @property
    def depth(self) -> int | None:
        """The computer's depth limit, None for none (set it to change the next search)."""
        return self.match.depth

    @depth.setter
    def depth(self, depth: int | None) -> None:
        with self._lock:
            self.match.depth = self.match.check_depth(depth)
            self._sync()

    def text(self) -> str:
        """The board as three lines of text (``#``: a blocked square)."""
        return self.match.game.text(self.match.state)

    # ---- inside

    def _human(self, action: Any) -> bool:
        with self._lock:
            reason: str | None
            if self._thinking:
                reason = f"wait: {self.match.computer} is thinking (press Stop to stop it)"
            else:
                reason = self.match.refusal(action)
                if reason is not None and self.match.computers_turn:
                    reason = f"it is {self.match.computer}'s turn: press “Computer move”"
            if reason is not None:
                self._notice = capitalised(reason) + "."
                self._sync()
                return False
            self._notice = ""
            added = self.match.play(action)
            self._status = self._before = " ".join(entry.played("You") + "." for entry in added)
            self._begin(keep_status=True)
            return True

    def _begin(self, keep_status: bool = False) -> None:
        """After a change of position: the computer starts searching if it is its turn; show the state."""
        if not keep_status:
            self._status = self._before = ""
            if self.match.humans_turn and not self.match.history:
                self._status = (
                    f"The computer plays {self.match.describe_settings()}. After each of its moves, "
                    "“Show the search” steps through the search that chose it."
                )
        if self.match.computers_turn:
            self._start_search()
        else:
            self._sync()

    def _start_search(self) -> None:
        """Start the computer's search (in the background, unless not threaded); the lock is held."""
        stop = self._stop = threading.Event()
        self._thinking = True
        self._nodes = 0
        self._notice = ""
        self._close_player()
        plan = self.match.plan()
        searching = f"{self.match.computer} searches with {self.match.describe_settings()}."
        self._status = f"{self._before} {searching}".strip()
        self._sync()
        if self.threaded:
            self._worker = threading.Thread(
                target=self._think, args=(plan, stop), name="expectviz-play-search", daemon=True
            )
            self._worker.start()
        else:
            self._think(plan, stop)

    def _think(self, plan: Plan, stop: threading.Event) -> None:
        def progress(nodes: int) -> None:
            with self._lock:
                if stop is self._stop and self._thinking:
                    self._nodes = nodes
                    self.board.nodes = nodes

        try:
            answer = search_move(plan, stop=stop, progress=progress)
        except BaseException as failure:  # a bug must not leave the widget thinking for ever
            answer = Answer(plan.algorithm, plan.depth, None, 0, 0.0, error=f"{type(failure).__name__}: {failure}")
        with self._lock:
            if stop is not self._stop or not self._thinking:
                return  # a new game began meanwhile
            self._thinking = False
            self._finish(answer)

    def _finish(self, answer: Answer) -> None:
        """The search has ended: play its move, or say why there is none; the lock is held."""
        computer = self.match.computer
        if answer.playable:
            added = self.match.answer(answer)
            said = []
            for entry in added:
                if entry.by == "coin":
                    said.append(entry.text + ".")
                elif answer.stopped is not None:
                    said.append(
                        f"{_why(answer.stopped).capitalize()} during depth {(answer.reached or 0) + 1}: "
                        f"{entry.played(computer)}, the best move at depth {answer.reached} "
                        f"({answer.summary(stop_note=False)})."
                    )
                else:
                    said.append(f"{entry.played(computer)} ({answer.summary()}).")
            self._status = " ".join([self._before, *said]).strip()
            if self.match.computers_turn:  # the computer moves again (it blocked a square, then plays)
                self._before = self._status
                self._start_search()
                return
        elif answer.error is not None:
            self._status = f"The search failed: {answer.error}"
            self._notice = "Choose another algorithm or depth, then press “Computer move”."
        elif answer.stopped is None:
            self._status = "The search found no move to play."
            self._notice = "Choose another algorithm or depth, then press “Computer move”."
        else:
            self._status = (
                f"{_why(answer.stopped).capitalize()} after {answer.nodes:,} nodes "
                f"({_duration(answer.seconds)}), before the search finished: no move."
            )
            self._notice = "Choose an algorithm and depth (a smaller depth is faster), then press “Computer move”."
        self._before = ""
        self._sync()

    def _open(self, answer: Answer) -> None:
        """Make the player of ``answer``'s search and show it below the board."""
        from .player import play

        try:
            assert answer.result is not None
            player: Any = play(answer.result, step=-1)
            failure = None
        except Exception as error:  # noqa: BLE001 - said in the widget
            player, failure = None, f"The player could not open: {error}"
        with self._lock:
            if self._opening is not answer:  # a new move or game meanwhile
                if player is not None:
                    player.close()
                return
            self._opening = None
            if player is None:
                self._notice = failure or ""
            else:
                self.player = player
                self._player_answer = answer
                self.widget.children = (self.board, player)
            self._sync()

    def _close_player(self) -> None:
        self._opening = None
        if self.player is not None:
            self.widget.children = (self.board,)
            with contextlib.suppress(Exception):
                self.player.close()
        self.player = None
        self._player_answer = None

    def _on_message(self, widget: Any, content: Any, buffers: Any) -> None:
        """What the person did in the browser."""
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        if kind == "click":
            square = content.get("square")
            if isinstance(square, int) and not isinstance(square, bool) and 0 <= square <= 8:
                self.click(square)
        elif kind == "noblock":
            self.no_block()
        elif kind == "new":
            self.new_game()
        elif kind == "stop":
            self.stop()
        elif kind == "move":
            self.computer_move()
        elif kind == "show":
            if self.player is not None:
                self.hide_search()
            else:
                self.show_search()

    def _on_pick(self, change: dict[str, Any]) -> None:
        """The algorithm, depth or side picked in the browser."""
        name, value = change["name"], change["new"]
        with self._lock:
            match = self.match
            if name == "human":
                if value in ("X", "O") and value != match.human:
                    self.new_game(value)
                return
            try:
                if name == "algorithm" and value != match.algorithm:
                    match.algorithm = match.check_algorithm(value)
                elif name == "depth" and (value or None) != match.depth:
                    match.depth = match.check_depth(value or None)
                else:
                    return
            except OptionError as error:
                self._notice = str(error)
            else:
                later = " for the next move" if self._thinking else ""
                self._notice = f"The computer now plays {match.describe_settings()}{later}."
            self._sync()

    def _turn(self) -> str:
        match = self.match
        if match.over:
            winner = match.winner
            if winner is None:
                return "Draw."
            return (
                f"You win! ({match.outcome()})" if winner == match.human else f"The computer wins ({match.outcome()})."
            )
        if self._thinking:
            return f"{match.computer} is thinking…"
        if match.humans_turn:
            if match.blocking:
                return f"Your choice ({match.human}): click a square to block it, or press “No block”"
            return f"Your move ({match.human}): click a square"
        return f"{match.computer} to move: press “Computer move”"

    def _sync(self) -> None:
        """Send the game's state to the browser (in one message); the lock is held."""
        match, board = self.match, self.board
        answer = match.last_answer
        title = f"{_game_title(match.game)}: you play {match.human}, the computer plays {match.computer}"
        shown = ""
        if self._player_answer is not None and self._player_answer.result is not None:
            move = self._player_answer.move
            shown = f"The search behind {move}: {self._player_answer.summary()}."
        with board.hold_sync():
            board.title = title
            board.cells = match.cells
            board.legal = (
                [a for a in match.legal() if a is not None] if match.humans_turn and not self._thinking else []
            )
            last = match.last_move
            board.last = -1 if last is None else last
            board.line = match.line
            board.human = match.human
            board.mover = match.mover or ""
            board.blocking = match.blocking and match.humans_turn
            board.turn = self._turn()
            board.status = self._status
            board.notice = self._notice
            board.log = [entry.line() for entry in match.history]
            board.thinking = self._thinking
            board.nodes = self._nodes if self._thinking else 0
            board.algorithms = match.algorithms
            board.algorithm = match.algorithm
            board.max_depth = match.max_depth
            board.depth = match.depth or 0
            board.can_move = match.computers_turn and not self._thinking
            board.can_show = answer is not None and answer.result is not None and not self._thinking
            board.showing = self.player is not None
            board.opening = self._opening is not None
            board.shown = shown

    # ---- display

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The widget, with the board as a picture and the status as HTML: what shows without a kernel."""
        bundle = self.widget._repr_mimebundle_(**kwargs)
        data: dict[str, Any] = dict(bundle[0] if isinstance(bundle, tuple) else bundle or {})
        data["text/plain"] = repr(self)
        data["text/html"] = self.static_html()
        return data

    def static_html(self) -> str:
        """The board (SVG) and the game's state as HTML, for a notebook shown without its kernel."""
        match = self.match
        lines = "".join(f"<li>{html.escape(entry.line())}</li>" for entry in match.history)
        parts = [
            '<div class="ev-game-static" style="font-family: sans-serif">',
            f"<p><b>{html.escape(_game_title(match.game))}</b>: you play {match.human} against "
            f"{html.escape(match.describe_settings())}</p>",
            match.game.picture(match.state, size=180),
            f"<p><b>{html.escape(self._turn())}</b> {html.escape(self._status)}</p>",
        ]
        if lines:
            parts.append(f"<ol>{lines}</ol>")
        parts.append("</div>")
        return "".join(parts)

    def __repr__(self) -> str:
        match = self.match
        where = match.outcome() or f"{match.mover} to move"
        return f"PlayGame({match.game.name}, you play {match.human}, {match.describe_settings()}: {where})"
