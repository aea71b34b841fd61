"""Play a game against a search, and open the search behind each computer move.

:func:`play_game` is the widget (``ev.play_game``): the game, large (a board
with a button for each square, or Pig's scores, die and Roll / Hold buttons);
whose turn it is; the computer's algorithm and depth; New game; and, after each
computer move, "Show the search", which opens the step player
(:func:`expectviz.play`) below the game on the search that chose the move.  The
computer searches in a background thread, so the kernel stays free: the widget
shows how many nodes it has searched so far, and Stop ends the search (with
iterative deepening the computer then plays the best move of the deepest depth
it finished).  Coin flips and dice rolls are drawn from ``random.Random(seed)``.

The games are tic-tac-toe, coin-flip tic-tac-toe, Pig and Dice; each is shown
through its *board* (:mod:`expectviz.render.play_boards`), which says how to
draw the state, what a click means and how to tell a move.

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
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import OptionError
from ..games import GAMES
from ..numbers import format_short
from ..registry import ALGORITHM_INFO
from ..search import Result
from ..tree import CHANCE, MAX, MIN
from .play_boards import COINFLIP_DEPTH, DEEPEST_OFFERED, Board, board_for, parse_square

__all__ = [
    "play_game",
    "PlayGame",
    "Match",
    "Entry",
    "Answer",
    "COINFLIP_DEPTH",
    "game_names",
    "make_game",
    "parse_square",
    "search_move",
    "capitalised",
]

PROGRESS_SECONDS = 0.25
"""How often a running search reports the nodes searched so far."""

_TICK = 1023  # the stop flag and the clock are read every 1,024 nodes (about a millisecond)


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

    def __init__(self, game: Any, state: Any, watch: _Watch) -> None:
        self._game = game
        self.initial = state
        self.to_move = game.to_move
        self.actions = game.actions
        self.result = game.result
        self.utility = game.utility
        inner_is_terminal: Callable[[Any], bool] = game.is_terminal
        evaluate = game.evaluate
        tick = watch.tick

        def is_terminal(state: Any) -> bool:
            watch.count += 1
            if not watch.count & _TICK:
                tick()
            return inner_is_terminal(state)

        def noting_evaluate(state: Any) -> Any:
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
    """The move to play: a square, ``"roll"``/``"hold"``, or None ("no block", when the move is a block)."""
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
    """One event of a game: a move (yours or the computer's), or a chance event (a coin flip, a roll of the die)."""

    by: str
    """``"you"``, ``"computer"``, or what made the chance event: ``"coin"`` or ``"die"``."""
    action: Any
    """The move or the outcome: a square (row-major from a1), ``"roll"`` or ``"hold"``, the die's face (Pig) or
    line (Dice); None: the coin (or a blocker) blocked nothing."""
    text: str
    """``"X b2"``, ``"Coin: heads — b2 is blocked"``, ``"MAX rolled 4: turn total 4"``."""
    answer: Answer | None = None
    """The computer's search (its :attr:`Answer.result` holds the trace)."""
    deed: tuple[str, str] = ("", "")
    """The move after its player's name, in the past and the present: ``("played b2", "plays b2")``."""

    @property
    def chance(self) -> bool:
        """True for a chance event (a coin flip, a roll of the die)."""
        return self.by not in ("you", "computer")

    def played(self, who: str, *, present: bool = False) -> str:
        """``"You played b2"``, ``"O played b2"``, ``"O blocked b2"``, ``"MIN chose to roll"``
        (``present``: ``"O plays b2"``); a chance event's :attr:`text`."""
        if self.chance:
            return self.text
        return f"{who} {self.deed[1] if present else self.deed[0]}"

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

    game: Any
    state: Any
    algorithm: str
    depth: int | None
    table: bool
    order: Callable[[Any, Any], Any] | None
    iterative: bool
    time_limit: float | None
    trace: bool
    horizon: int | None
    """The most levels the game can last from ``state`` (None: it can go on for ever, so ``depth`` is set)."""


class Match:
    """A game between a person and a search, without a widget.

    Args:
        game: a game's name (``"tictactoe"``, ``"coinflip-tictactoe"``, ``"pig"``, ``"dice"``,
            ``"dice-5x5"``; see :func:`game_names`), or a game made by one of :mod:`expectviz.games`'
            functions (its position is where every game starts).
        human: the person's side: ``"X"`` (moves first) or ``"O"``; in Pig ``"MAX"`` (first) or ``"MIN"``
            (``"X"``/``"O"`` and ``"MAX"``/``"MIN"`` name the first and second player in every game).
        seed: the seed of the coin flips and dice rolls (``random.Random(seed)``); None for a fresh one each time.
        algorithm: the computer's algorithm (default: alphabeta, or expectiminimax in a game with chance).
        depth: the computer's depth limit, None to search to the end of the game, or ``"auto"``: the game's
            default (to the end in tic-tac-toe; :data:`~expectviz.render.play_boards.COINFLIP_DEPTH`,
            :data:`~expectviz.render.play_boards.PIG_DEPTH`, :data:`~expectviz.render.play_boards.DICE_DEPTH`...).
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
        game: Any = "tictactoe",
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
        self.game: Any = make_game(game) if isinstance(game, str) else game
        self.board: Board = board_for(self.game)
        """How the game is shown, read and told (:mod:`expectviz.render.play_boards`)."""
        self.chance = _has_chance(self.game)
        self.max_depth = self.board.horizon(self.game.initial)
        """The most levels a search from the starting position can need (the "to the end" depth); None when
        the game can go on for ever (Pig)."""
        if self.game.is_terminal(self.game.initial):
            raise OptionError(f"the position {self.game.position(self.game.initial)!r} is already over")
        self.human = self._side(human)
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
        self.state: Any = self.game.initial
        self.history: list[Entry] = []
        self.history.extend(self._chance_events())  # Dice starts with a roll of the die

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
                f"{name} has no rule for chance nodes, and {self.game.name} has {self.board.chance_moves}; "
                f"choose from {', '.join(self.algorithms)}"
            )
        return name

    def check_depth(self, depth: object) -> int | None:
        """A depth limit from 1 to :attr:`max_depth`, or None (to the end); ``"auto"`` picks the game's default."""
        if depth == "auto":
            return self.board.default_depth
        if depth is None:
            if self.max_depth is None:
                raise OptionError(
                    f"{self.title} can go on for ever, so the computer needs a depth limit: "
                    f"a whole number >= 1, or 'auto' ({self.board.default_depth})"
                )
            return None
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth:
            raise OptionError(f"depth must be a whole number >= 1, None (to the end) or 'auto', not {depth!r}")
        return None if self.max_depth is not None and depth >= self.max_depth else depth

    def depth_choices(self) -> list[tuple[int, str]]:
        """The depth limits the widget offers, as (value, text); 0 is "to the end" (not in a game without end)."""
        if self.max_depth is None:
            deepest = max(DEEPEST_OFFERED, self.depth or 0)
            return [(d, str(d)) for d in range(1, deepest + 1)]
        return [(0, "to the end"), *((d, str(d)) for d in range(1, self.max_depth))]

    @property
    def title(self) -> str:
        """The game's name in words: ``Tic-tac-toe``, ``Coin-flip tic-tac-toe``, ``Pig, first to 10``..."""
        return self.board.title

    def describe_settings(self) -> str:
        """``alphabeta to the end`` or ``expectiminimax to depth 6``."""
        how = "to the end" if self.depth is None else f"to depth {self.depth}"
        return f"{self.algorithm} {how}" + (" (iterative deepening)" if self.iterative else "")

    # ---- whose turn

    @property
    def computer(self) -> str:
        """The computer's side: ``"X"`` or ``"O"`` (``"MAX"`` or ``"MIN"`` in Pig)."""
        first, second = self.board.sides
        return second if self.human == first else first

    @property
    def over(self) -> bool:
        """True when the game has ended."""
        return bool(self.game.is_terminal(self.state))

    @property
    def mover(self) -> str | None:
        """Who moves next: a side (``"X"``, ``"O"``, ``"MAX"``, ``"MIN"``), ``"coin"`` or ``"die"``; None when over."""
        if self.over:
            return None
        player = self.game.to_move(self.state)
        return self.board.chance_actor if player == CHANCE else self.board.side(player)

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
        return self.mover in self.board.sides and None in self.game.actions(self.state)

    @property
    def winner(self) -> str | None:
        """The winner's side when the game is over and not drawn, else None."""
        if not self.over:
            return None
        value = self.game.utility(self.state)
        return self.board.side(MAX) if value > 0 else self.board.side(MIN) if value < 0 else None

    @property
    def last_answer(self) -> Answer | None:
        """The search behind the computer's last move, or None."""
        for entry in reversed(self.history):
            if entry.answer is not None:
                return entry.answer
        return None

    def outcome(self) -> str:
        """``"X wins (a1 b2 c3)"``, ``"Draw"``, ``"MAX wins, 10 to 7"``, or ``""`` while the game goes on."""
        return self.board.outcome(self.state) if self.over else ""

    # ---- moves

    def legal(self) -> list[Any]:
        """The moves of the side to move: empty squares (and None, "no block", when the move is a block),
        ``"roll"`` and ``"hold"``."""
        if self.mover not in self.board.sides:
            return []
        return list(self.game.actions(self.state))

    def inputs(self) -> list[Any]:
        """What the person may click now: squares (numbers), then buttons (``"roll"``, ``"no block"``...)."""
        return self.board.inputs(self.legal()) if self.humans_turn else []

    def refusal(self, action: Any) -> str | None:
        """Why the person may not play ``action`` now (None: it is legal)."""
        if self.over:
            return f"the game is over ({self.outcome()})"
        if not self.humans_turn:
            return f"it is {self.mover}'s turn, not yours"
        try:
            move = self.board.read(action)
        except OptionError as error:
            return str(error)
        if move in self.legal():
            return None
        return self.board.refusal(self.state, move)

    def play(self, action: Any) -> list[Entry]:
        """The person plays ``action``: a square (a number or a name such as ``"b2"``), ``"roll"`` or ``"hold"``,
        or None ("no block").

        Returns the entries added: the move and the chance events after it (a coin flip, a roll of the die).

        Raises:
            OptionError: the move is not legal now (the message says why).
        """
        reason = self.refusal(action)
        if reason is not None:
            raise OptionError(reason)
        return self._move("you", self.board.read(action), None)

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
            self.board.horizon(self.state),
        )

    def think(self, *, stop: threading.Event | None = None, progress: Callable[[int], None] | None = None) -> Answer:
        """Search the current position for the computer (the match does not change); see :func:`search_move`."""
        return search_move(self.plan(), stop=stop, progress=progress)

    def answer(self, answer: Answer) -> list[Entry]:
        """Play the computer's move from ``answer`` (and the chance events after it); returns the entries added.

        Raises:
            OptionError: it is not the computer's turn, or the answer has no move.
        """
        if not self.computers_turn:
            raise OptionError(f"it is not the computer's turn ({self.outcome() or self.mover})")
        if not answer.playable:
            raise OptionError("the search found no move to play")
        return self._move("computer", answer.action, answer)

    def _move(self, by: str, action: Any, answer: Answer | None) -> list[Entry]:
        board, state = self.board, self.state
        added = [Entry(by, action, self.game.move_label(state, action), answer, board.deed(state, action))]
        self.state = self.game.result(state, action)
        added.extend(self._chance_events())
        self.history.extend(added)
        return added

    def _chance_events(self) -> list[Entry]:
        """Flip the coin or roll the die while a chance event is pending, drawing from :attr:`rng`."""
        added: list[Entry] = []
        game = self.game
        while not self.over and game.to_move(self.state) == CHANCE:
            outcomes = list(game.chance_outcomes(self.state))
            draw, total = self.rng.random(), 0.0
            outcome = outcomes[-1][0]
            for candidate, probability in outcomes:
                total += float(probability)
                if draw < total:
                    outcome = candidate
                    break
            added.append(Entry(self.board.chance_actor, outcome, self.board.chance_text(self.state, outcome)))
            self.state = game.result(self.state, outcome)
        return added

    def new_game(self, human: str | None = None) -> None:
        """Start again from the starting position (the random numbers go on: a seed gives one sequence)."""
        if human is not None:
            self.human = self._side(human)
        self.state = self.game.initial
        self.history = self._chance_events()

    def _side(self, human: object) -> str:
        """The side that ``human`` names: one of the game's sides, or ``"X"``/``"MAX"`` (first), ``"O"``/``"MIN"``."""
        first, second = self.board.sides
        if isinstance(human, str):
            word = human.strip().upper()
            if word in (first, "X", "MAX"):
                return first
            if word in (second, "O", "MIN"):
                return second
        raise OptionError(f"human must be {first!r} (moves first) or {second!r}, not {human!r}")


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
    depths = [d for d in (plan.depth, plan.horizon) if d is not None]
    if not depths:
        return Answer(plan.algorithm, None, None, 0, 0.0, error="the game can go on for ever: give a depth limit")
    limit = min(depths)
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
        if move is None and None in plan.game.actions(plan.state):
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


def game_names() -> list[str]:
    """The names of the games that :func:`play_game` and ``expectviz play`` can play."""
    names = []
    for name, make in GAMES.items():
        try:
            board_for(make())
        except OptionError:
            continue
        names.append(name)
    return names


def make_game(name: str, position: str | None = None) -> Any:
    """The game called ``name`` (from ``position``, if given).

    Raises:
        OptionError: no game has that name.
        UsageError: the game cannot read ``position``.
    """
    make: Callable[..., Any] | None = GAMES.get(name.strip())  # a factory reads a position too
    if make is None:
        raise OptionError(f"no game is called {name!r}; the games are {', '.join(game_names())}")
    return make() if position is None else make(position)


def capitalised(text: str) -> str:
    """``text`` with a capital first letter, unless it starts with a square's name (``b2 is taken``)."""
    if not text or re.match(r"[a-z][0-9]+\b", text):
        return text
    return text[0].upper() + text[1:]


def _has_chance(game: Any) -> bool:
    flag = getattr(game, "has_chance", None)
    return flag if isinstance(flag, bool) else True


def _value(v: Any) -> str:
    return format_short(v, room=5, digits=3)


def _duration(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.1f} s"


def _why(stopped: str) -> str:
    return {"time": "out of time", "failed": "the search failed"}.get(stopped, "stopped")


# ---------------------------------------------------------------- the widget


def play_game(
    game: Any = "tictactoe",
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
    """A widget to play a game against a search: tic-tac-toe, coin-flip tic-tac-toe, Pig or Dice.

    Click a square of the board (or Pig's Roll and Hold); the computer answers.  After each computer
    move, "Show the search" opens the step player (:func:`expectviz.play`) on the search that chose it.
    The computer searches in a background thread: the widget counts the nodes searched so far, and
    Stop ends the search.

    Args:
        game: a game's name (``"tictactoe"``, ``"coinflip-tictactoe"``, ``"pig"``, ``"dice"``,
            ``"dice-5x5"``), or a game made by one of those functions of :mod:`expectviz.games` (its
            position starts every game).
        algorithm: the computer's algorithm (default: alphabeta; expectiminimax in a game with chance).
        depth: its depth limit in levels (coin flips and rolls count), None for none, ``"auto"``: to the
            end in tic-tac-toe (alpha-beta takes about 20 ms), else the game's default
            (:data:`~expectviz.render.play_boards.COINFLIP_DEPTH`, ``PIG_DEPTH``, ``DICE_DEPTH``,
            ``DICE_5X5_DEPTH`` in :mod:`expectviz.render.play_boards`).
        human: your side, ``"X"`` (moves first) or ``"O"``; in Pig ``"MAX"`` (first) or ``"MIN"``.
        seed: the seed of the coin flips and dice rolls: the same seed and the same moves give the same game.
        table: a transposition table (default: on in a game with chance).
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
        """The game's state and its controls; the game's logic is in :class:`PlayGame` (Python)."""

        _esm = module_text("play_game.js")
        _css = module_text("play_game.css")
        title = traitlets.Unicode("").tag(sync=True)
        view = traitlets.Dict().tag(sync=True)  # the state, drawn by the function of its "kind" in play_game.js
        legal = traitlets.List(traitlets.Any()).tag(sync=True)  # what you may click: squares, buttons ("roll")
        human = traitlets.Unicode("X").tag(sync=True)
        sides = traitlets.List(traitlets.Unicode(), ["X", "O"]).tag(sync=True)
        mover = traitlets.Unicode("").tag(sync=True)
        turn = traitlets.Unicode("").tag(sync=True)
        status = traitlets.Unicode("").tag(sync=True)
        notice = traitlets.Unicode("").tag(sync=True)
        log = traitlets.List(traitlets.Unicode()).tag(sync=True)
        thinking = traitlets.Bool(False).tag(sync=True)
        nodes = traitlets.Int(0).tag(sync=True)
        algorithm = traitlets.Unicode("").tag(sync=True)
        algorithms = traitlets.List(traitlets.Unicode()).tag(sync=True)
        depth = traitlets.Int(0).tag(sync=True)  # 0: to the end
        depths = traitlets.List(traitlets.Any()).tag(sync=True)  # the depth menu: [value, text] pairs
        can_move = traitlets.Bool(False).tag(sync=True)
        can_show = traitlets.Bool(False).tag(sync=True)
        showing = traitlets.Bool(False).tag(sync=True)
        opening = traitlets.Bool(False).tag(sync=True)
        shown = traitlets.Unicode("").tag(sync=True)

    _BOARD_CLASS = GameBoard
    return GameBoard


class PlayGame:
    """A game against the computer in a notebook: the game (an anywidget) and, on request, the step player.

    Display it to play (``widget`` is the ipywidgets ``VBox`` that is shown: the game, then the
    player when open).  The same actions from Python, for scripts and tests: :meth:`click` (a square,
    or a button such as ``"roll"``), :meth:`no_block`, :meth:`computer_move`, :meth:`stop`,
    :meth:`new_game`, :meth:`show_search`, :meth:`hide_search`, and :meth:`wait` for the background
    search.  :attr:`match` is the game.
    """

    def __init__(
        self,
        game: Any = "tictactoe",
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

    def click(self, what: int | str) -> bool:
        """Play for you: a square (a number from 0, row-major from a1, or a name such as ``"b2"``), or a button:
        ``"roll"``, ``"hold"`` (Pig), ``"no block"``; the computer answers.

        Returns False, with the reason in :attr:`notice`, when the move is not legal now.
        """
        return self._human(what)

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
    def state(self) -> Any:
        """The game's state now."""
        return self.match.state

    @property
    def history(self) -> list[Entry]:
        """Every move and chance event (coin flip, roll of the die) of this game, in order."""
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
        """The state as the game writes it: tic-tac-toe's three lines (``#``: a blocked square), Pig's scores..."""
        return str(self.match.game.text(self.match.state))

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
            if self.match.humans_turn and all(entry.chance for entry in self.match.history):
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
            again = self.match.computers_turn  # the computer moves again (it blocked a square, or rolled in Pig)
            said = []
            for entry in added:
                if entry.chance:
                    said.append(entry.text + ".")
                elif answer.stopped is not None:
                    said.append(
                        f"{_why(answer.stopped).capitalize()} during depth {(answer.reached or 0) + 1}: "
                        f"{entry.played(computer)}, the best move at depth {answer.reached} "
                        f"({answer.summary(stop_note=False)})."
                    )
                elif again:  # a move on the way: its search is in the log, the last one's is said here
                    said.append(f"{entry.played(computer)}.")
                else:
                    said.append(f"{entry.played(computer)} ({answer.summary()}).")
            self._status = " ".join([self._before, *said]).strip()
            if again:
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
            what = content.get("square", content.get("button"))
            if isinstance(what, (int, str)) and what in self._drawn_inputs():  # a refused click still says why
                self.click(what)
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
                if value in match.board.sides and value != match.human:
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
            return match.board.hint(match.state, match.inputs())
        return f"{match.computer} to move: press “Computer move”"

    def _drawn_inputs(self) -> list[Any]:
        """The inputs the board draws: every square, then its buttons (``"roll"``, ``"no block"``...)."""
        view = self.board.view
        squares = list(range(len(view.get("cells", []))))
        return squares + [name for name, _ in view.get("buttons", [])]

    def _sync(self) -> None:
        """Send the game's state to the browser (in one message); the lock is held."""
        match, model = self.match, self.board
        answer = match.last_answer
        inputs = match.inputs() if not self._thinking else []
        shown = ""
        if self._player_answer is not None and self._player_answer.result is not None:
            move = next((e.text for e in match.history if e.answer is self._player_answer), self._player_answer.move)
            shown = f"The search behind {move}: {self._player_answer.summary()}."
        with model.hold_sync():
            model.title = f"{match.title}: you play {match.human}, the computer plays {match.computer}"
            model.view = match.board.view(match.state, match.history, inputs)
            model.legal = inputs
            model.human = match.human
            model.sides = list(match.board.sides)
            model.mover = match.mover or ""
            model.turn = self._turn()
            model.status = self._status
            model.notice = self._notice
            model.log = [entry.line() for entry in match.history]
            model.thinking = self._thinking
            model.nodes = self._nodes if self._thinking else 0
            model.algorithms = match.algorithms
            model.algorithm = match.algorithm
            model.depths = [list(choice) for choice in match.depth_choices()]
            model.depth = match.depth or 0
            model.can_move = match.computers_turn and not self._thinking
            model.can_show = answer is not None and answer.result is not None and not self._thinking
            model.showing = self.player is not None
            model.opening = self._opening is not None
            model.shown = shown

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
            f"<p><b>{html.escape(match.title)}</b>: you play {match.human} against "
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
