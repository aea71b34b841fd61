"""Pig, the jeopardy dice game (Neller & Presser, "Optimal Play of the Dice Game Pig", UMAP Journal 2004).

A chance game with cycles: both players can keep rolling 1s for ever, so an
exhaustive search needs a depth limit, and the exact value comes from value
iteration instead (:meth:`Pig.win_probability`).  :class:`Pig` gives the rules.

* :func:`pig` -- the game from a position, first to ``target`` points (10 by default) wins.
* :func:`pig_order` -- a move-ordering key: hold first only where holding is usually right.

A position says both banked scores, whose turn it is, the turn total and
whether the die is about to be rolled, as parts separated by commas (or line
breaks): ``'MAX 5, MIN 3, MAX to play, turn total 4'``, with ``', rolling'``
added while a roll is pending, and ``'MAX 11, MIN 3, MAX won'`` for a finished game.

>>> game = pig("MAX 2, MIN 5, MAX to play, turn total 3")
>>> game
pig('MAX 2, MIN 5, MAX to play, turn total 3')
>>> s = game.initial
>>> game.to_move(s), game.actions(s), [game.move_label(s, a) for a in game.actions(s)]
('max', ('roll', 'hold'), ['MAX rolls', 'MAX holds 3'])
>>> rolling = game.result(s, "roll")
>>> game.to_move(rolling), game.position(rolling)
('chance', 'MAX 2, MIN 5, MAX to play, turn total 3, rolling')
>>> [game.move_label(rolling, face) for face, p in game.chance_outcomes(rolling)]
['rolled 1 (bust)', 'rolled 2', 'rolled 3', 'rolled 4', 'rolled 5 (wins)', 'rolled 6 (wins)']
>>> game.position(game.result(rolling, 1)), game.position(game.result(rolling, 6))
('MAX 2, MIN 5, MIN to play, turn total 0', 'MAX 11, MIN 5, MAX won')
>>> round(game.win_probability(s), 4), game.optimal_action(s), game.evaluate(s)
(0.7913, 'roll', Fraction(4, 9))

A state is one ``int`` (both scores, the turn total, whose turn, a pending
roll and the target, in bit fields), so each method is a few shifts and masks.
Every value is from MAX's point of view.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import Any

from ..errors import InputTypeError, OptionError, RenderError, UsageError
from ..tree import CHANCE, MAX, MIN

__all__ = [
    "Pig",
    "pig",
    "pig_order",
    "DIE",
    "TARGETS",
    "TURN_BONUS",
    "HOLD_AT",
    "RACE",
    "CONVERGENCE",
    "GAMES",
]

# ---------------------------------------------------------------- the state: one int of bit fields

# bits 0-6 MAX's banked score, 7-13 MIN's, 14-20 the turn total, bit 21 set when it is MIN's turn,
# bit 22 set while a roll is pending, bits 23-29 the target.  A score is at most 105 (99 + 6) < 128.
_FIELD = 127
_MIN_SCORE = 7  # shifts
_TOTAL = 14
_TARGET = 23
_MIN_TURN = 1 << 21
_ROLLING = 1 << 22
_NO_TOTAL = ~(_FIELD << _TOTAL)

_TO_MOVE = (MAX, MIN, CHANCE, CHANCE)  # indexed by state >> 21 & 3: (MIN's turn, rolling)
_NAME = {MAX: "MAX", MIN: "MIN"}
_ROLL_OR_HOLD = ("roll", "hold")
_ROLL_ONLY = ("roll",)

DIE: tuple[tuple[int, Fraction], ...] = tuple((face, Fraction(1, 6)) for face in range(1, 7))
"""The die's outcomes: the faces 1 to 6, each with probability 1/6, in that order."""

TARGETS = range(2, 101)
"""The targets a game may have: 2 to 100 points (Neller & Presser play to 100; the default is 10)."""

TURN_BONUS = 8
"""The evaluation's allowance for having the turn: 8 points, the average gain of a hold-at-20 turn (8.14)."""

HOLD_AT = 20
""":func:`pig_order` tries hold first from this turn total (the "hold at 20" rule) ..."""

RACE = 30
"""... unless a banked score is within this many points of the target: then both race, rolling."""

CONVERGENCE = 1e-12
"""Value iteration stops when no probability changes by more than this in a sweep."""


def _state(max_score: int, min_score: int, total: int, player: str, rolling: bool, target: int) -> int:
    """The ``int`` of a state (see the bit fields above)."""
    return (
        max_score
        | min_score << _MIN_SCORE
        | total << _TOTAL
        | (_MIN_TURN if player == MIN else 0)
        | (_ROLLING if rolling else 0)
        | target << _TARGET
    )


def _rolled(state: int, face: int) -> int:
    """The state after the die shows ``face`` (the pending-roll bit already cleared)."""
    if face == 1:  # the turn total is lost and the turn passes
        return (state & _NO_TOTAL) ^ _MIN_TURN
    total = (state >> _TOTAL & _FIELD) + face
    shift = _MIN_SCORE if state & _MIN_TURN else 0
    if (state >> shift & _FIELD) + total >= state >> _TARGET:  # the target is reached: the game ends, won
        return (state & _NO_TOTAL) + (total << shift)
    return (state & _NO_TOTAL) | total << _TOTAL


@cache
def _estimate(need_max: int, need_min: int) -> Fraction:
    """(n_MIN - n_MAX) / (n_MAX + n_MIN), kept: the search asks for the same few hundred values."""
    return Fraction(need_min - need_max, need_max + need_min)


def pig_order(state: Any, action: Any) -> int:
    """A move-ordering key (smaller first): roll first, but hold first at a turn total of 20 or more
    while both banked scores are at least 30 points short of the target.

    "Hold at 20" is the rule that maximises the points a turn adds on average
    (Neller & Presser): at a turn total k a roll gains 4 on average with
    probability 5/6 and loses k with probability 1/6, worth it while k < 20.
    Near the end the turn total that wins matters more than the average, and the
    optimal player races for the goal, rolling.  Measured against the optimal
    policy (value iteration, every decision with both moves): for targets up to
    30 holding is never optimal and this key always puts roll first (100 %
    agreement); for the target 100 it names the optimal move first in 90 % of them.

    >>> game = pig(target=100)
    >>> early = pig("MAX 10, MIN 30, MAX to play, turn total 22", target=100).initial
    >>> late = pig("MAX 10, MIN 80, MAX to play, turn total 22", target=100).initial
    >>> sorted(game.actions(early), key=lambda a: pig_order(early, a)), pig_order(late, "hold")
    (['hold', 'roll'], 1)
    """
    if action != "hold":
        return 0
    target = state >> _TARGET
    far = target - max(state & _FIELD, state >> _MIN_SCORE & _FIELD) >= RACE
    return -1 if far and state >> _TOTAL & _FIELD >= HOLD_AT else 1


# ---------------------------------------------------------------- value iteration


@cache
def _solve(target: int) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """``p[i][j][k]``: the probability that the player to move wins with optimal play by both, when
    the player has banked ``i``, the opponent ``j``, and the turn total is ``k`` (Neller & Presser 2004).

    The equations, for ``i + k < target`` (a turn total that reaches the target has won: ``p = 1``)::

        roll = (1 - p[j][i][0] + p[i][j][k+2] + ... + p[i][j][k+6]) / 6
        hold = 1 - p[j][i+k][0]                      (only when k > 0)
        p[i][j][k] = max(roll, hold)

    They are circular (a 1 hands the turn to the opponent, whose 1 hands it back), so they
    are solved by value iteration: start from 0 and apply them again and again until no value
    changes by more than :data:`CONVERGENCE`.  As Neller & Presser do, the states are solved
    in groups with the same banked sum ``i + j``, the largest sum first: rolling keeps the
    sum and holding raises it, so each group depends only on itself and on groups solved already.
    """
    # p[i][j] lists k = 0 .. target-1-i, then six 1.0s: a roll that takes the turn total there wins.
    p = [[[0.0] * (target - i) + [1.0] * 6 for _ in range(target)] for i in range(target)]
    for banked in range(2 * target - 2, -1, -1):
        pairs = [(i, banked - i) for i in range(max(0, banked - target + 1), min(banked, target - 1) + 1)]
        # hold[i][k] = 1 - p[j][i+k][0] lies in a group solved already (0 at k = 0: no hold there)
        hold = {i: [0.0] + [1.0 - p[j][i + k][0] for k in range(1, target - i)] for i, j in pairs}
        change = 1.0
        while change > CONVERGENCE:
            change = 0.0
            for i, j in pairs:
                row, holding, bust = p[i][j], hold[i], 1.0 - p[j][i][0]
                for k in range(target - 1 - i, -1, -1):  # larger turn totals first: rolling leads to them
                    v = (bust + row[k + 2] + row[k + 3] + row[k + 4] + row[k + 5] + row[k + 6]) / 6  # roll
                    if holding[k] > v:
                        v = holding[k]
                    if abs(v - row[k]) > change:
                        change = abs(v - row[k])
                    row[k] = v
    return tuple(tuple(tuple(row) for row in rows) for rows in p)


# ---------------------------------------------------------------- positions

_TOKEN = re.compile(r"[^\s,]+|[,\n]")
_NUMBER = re.compile(r"[0-9]{1,4}")
_PARTS = "'MAX 5', 'MIN 3', 'MAX to play' (or 'MAX won'), 'turn total 4' and 'rolling', separated by commas"


def _where(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of ``text[offset]``."""
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def _fail(reason: str, at: tuple[int, int]) -> UsageError:
    return UsageError(f"position {at[0]}:{at[1]}: {reason}")


def _number(word: str, at: tuple[int, int], example: str) -> int:
    if _NUMBER.fullmatch(word) is None:
        raise _fail(f"{word!r} is not a number of points; write a whole number, as in {example!r}", at)
    return int(word)


def _part(words: list[tuple[str, tuple[int, int]]]) -> tuple[str, Any, tuple[int, int]]:
    """One part of a position: what it gives (``"MAX"``, ``"MIN"``, ``"player"``, ``"total"`` or
    ``"rolling"``), its value, and where it starts."""
    lower = [word.lower() for word, _ in words]
    at = words[0][1]
    if lower[0] in ("max", "min") and len(words) in (2, 3):
        who = lower[0].upper()
        if lower[1:] == ["to", "play"]:
            return "player", (who, False), at
        if lower[1:] == ["won"]:
            return "player", (who, True), at
        if len(words) == 2:
            return who, _number(words[1][0], words[1][1], f"{who} 5"), at
    if lower[:2] == ["turn", "total"] and len(words) == 3:
        return "total", _number(words[2][0], words[2][1], "turn total 4"), at
    if lower == ["rolling"]:
        return "rolling", True, at
    shown = " ".join(word for word, _ in words)
    raise _fail(f"{shown!r} is not part of a Pig position; write {_PARTS}", at)


_GIVES = {
    "MAX": "MAX's score",
    "MIN": "MIN's score",
    "player": "whose turn it is",
    "total": "the turn total",
    "rolling": "'rolling'",
}


def _parse(text: object, target: int) -> int:
    """Read a position (see :func:`pig`) into a state.

    Raises:
        InputTypeError: the position is not a str.
        UsageError: the text is not a position, or the position cannot arise in a game to ``target``.
    """
    if not isinstance(text, str):
        raise InputTypeError(
            f"pig() takes a position as text such as 'MAX 5, MIN 3, MAX to play, turn total 4' "
            f"(or None for the start), not {type(text).__name__}"
        )
    parts: list[list[tuple[str, tuple[int, int]]]] = [[]]
    for match in _TOKEN.finditer(text):
        if match.group() in ",\n":
            parts.append([])
        else:
            parts[-1].append((match.group(), _where(text, match.start())))
    found: dict[str, tuple[Any, tuple[int, int]]] = {}
    for words in parts:
        if words:
            gives, value, at = _part(words)
            if gives in found:
                first = found[gives][1]
                raise _fail(f"{_GIVES[gives]} is given twice (first at {first[0]}:{first[1]})", at)
            found[gives] = (value, at)
    end = _where(text, len(text))
    for gives, example in (("MAX", "MAX 0"), ("MIN", "MIN 0"), ("player", "MAX to play")):
        if gives not in found:
            raise _fail(f"the position does not give {_GIVES[gives]}; add {example!r} ({_PARTS})", end)
    who, won = found["player"][0]
    total, total_at = found.get("total", (0, end))
    rolling = "rolling" in found
    scores = {name: found[name][0] for name in ("MAX", "MIN")}
    for name, score in scores.items():
        if score == 1:
            raise _fail(f"{name}'s score 1 cannot arise: every turn banks 0 or at least 2", found[name][1])
    if total == 1:
        raise _fail("a turn total of 1 cannot arise: a 1 ends the turn and the other faces add 2 to 6", total_at)
    if won:
        _check_finished(found, who, target)
    else:
        _check_playing(found, who, total, target)
    player = MAX if who == "MAX" else MIN
    return _state(scores["MAX"], scores["MIN"], total, player, rolling, target)


def _check_finished(found: dict[str, tuple[Any, tuple[int, int]]], winner: str, target: int) -> None:
    """Raise a :class:`UsageError` unless the scores are those of a game ``winner`` has just won."""
    loser = "MIN" if winner == "MAX" else "MAX"
    (score, at), (other, other_at) = found[winner], found[loser]
    highest = (target - 1 if target != 2 else 0) + 6  # the most banked and rolled without winning, plus a 6
    if score < target:
        raise _fail(f"{winner} won but has {score} points, fewer than the target {target}", at)
    if score > highest:
        raise _fail(
            f"{winner}'s score {score} cannot arise: the game ends when a roll reaches the target {target}, "
            f"at {highest} at most",
            at,
        )
    if other >= target:
        raise _fail(f"{loser}'s score {other} reaches the target {target} too; the game ends at the first", other_at)
    for gives, what in (("total", "turn total"), ("rolling", "roll to come")):
        if gives in found:
            raise _fail(f"{winner} won: a finished game has no {what}", found[gives][1])


def _check_playing(found: dict[str, tuple[Any, tuple[int, int]]], who: str, total: int, target: int) -> None:
    """Raise a :class:`UsageError` unless the game is still on: nobody has reached the target."""
    for name in ("MAX", "MIN"):
        score, at = found[name]
        if score >= target:
            raise _fail(
                f"{name}'s score {score} reaches the target {target}, so the game is over; "
                f"write '{name} won' instead of '{who} to play'",
                at,
            )
    if found[who][0] + total >= target:
        raise _fail(
            f"{who}'s score {found[who][0]} plus the turn total {total} reaches the target {target}: "
            f"{who} has won already (the game ends at once); the turn total is less than {target - found[who][0]}",
            found["total"][1],
        )


# ---------------------------------------------------------------- picture

_SVG_NS = "http://www.w3.org/2000/svg"
_MAX_COLOUR = "#0072B2"  # Okabe-Ito blue, tic-tac-toe's X
_MIN_COLOUR = "#D55E00"  # Okabe-Ito vermillion (a dark orange), tic-tac-toe's O
_FONT = 'font-family="Helvetica, Arial, sans-serif" font-weight="bold" text-anchor="middle"'


def _text(x: float, y: float, size: float, colour: str, content: str) -> str:
    return f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{colour}" {_FONT}>{content}</text>'


# ---------------------------------------------------------------- the game


class Pig:
    """Pig (Neller & Presser 2004), two players: MAX starts, the first to reach the target wins.

    On a turn the player to move rolls a fair die, again and again:

    * a 1 loses the turn total and passes the turn (MAX, MIN, MAX ...);
    * a 2 to 6 adds to the turn total, and the player decides again;
    * instead of rolling, the player may *hold*: the turn total is added to the
      player's banked score, and the turn passes.

    Two rules pin the game down:

    * A roll that takes banked score + turn total to the target or beyond ends
      the game at once: that player wins (they would hold anyway; this is
      Neller & Presser's ``P = 1`` for ``i + k >= target``).  Holding therefore
      never wins by itself, and the winner's final score is the banked score
      plus the turn total, from the target to target + 5.
    * With a turn total of 0 the only move is to roll (holding nothing only
      passes the turn, and two such holds would repeat the position).

    So ``actions`` is ``("roll", "hold")``, or ``("roll",)`` at a turn total of 0.
    "roll" leads to a CHANCE state (the die in the air) whose outcomes are the
    faces 1 to 6 with probability 1/6 each, in that order (:data:`DIE`).  The
    utility is +1 when MAX wins and -1 when MIN wins.

    The game has cycles: both players may roll 1 after 1 and come back to the
    same scores.  A search with ``depth=`` (chance levels count) ends at the
    evaluation; the exact value is :meth:`win_probability`'s value iteration.
    For small targets optimal play never holds (up to a target of 30 it is
    always better to roll on: a hold hands the opponent a turn that often wins).

    Build one with :func:`pig`, which reads a position.

    Attributes:
        initial: the state to search from (an ``int``; see the module).
        target: the score that wins, 2 to 100.
    """

    name = "pig"
    """The game's name in messages and titles (and its key in :data:`GAMES`)."""
    has_chance = True
    """The die: expectiminimax, star1 and star2 apply."""
    value_range = (-1, 1)
    """The least and greatest utility (and evaluation): the bounds for Star1 and Star2."""

    def __init__(self, position: str | None = None, *, target: int = 10) -> None:
        if isinstance(target, bool) or not isinstance(target, int) or target not in TARGETS:
            raise OptionError(f"target={target!r} is not a target score; use a whole number from 2 to 100 (default 10)")
        self.target = target
        self._start = _state(0, 0, 0, MAX, False, target)
        self.initial = self._start if position is None else _parse(position, target)

    # The search reads these methods hundreds of thousands of times: each is a few shifts and masks.

    def to_move(self, state: int) -> str:
        """``ev.CHANCE`` while a roll is pending, else the player whose turn it is (``ev.MAX`` or ``ev.MIN``)."""
        return _TO_MOVE[state >> 21 & 3]

    def actions(self, state: int) -> tuple[str, ...]:
        """``("roll", "hold")``, or only ``("roll",)`` when the turn total is 0."""
        return _ROLL_OR_HOLD if state >> _TOTAL & _FIELD else _ROLL_ONLY

    def chance_outcomes(self, state: int) -> tuple[tuple[int, Fraction], ...]:
        """The faces 1 to 6, each with probability 1/6 (:data:`DIE`)."""
        return DIE

    def result(self, state: int, action: str | int) -> int:
        """The state after "roll" or "hold", or, while a roll is pending, after the face ``action`` (1 to 6)."""
        if state & _ROLLING:
            return _rolled(state & ~_ROLLING, action)  # type: ignore[arg-type]
        if action == "roll":
            return state | _ROLLING
        total = state >> _TOTAL & _FIELD  # hold: bank the turn total, and the opponent's turn starts at 0
        banked = state & _NO_TOTAL
        return (banked + (total << _MIN_SCORE if state & _MIN_TURN else total)) ^ _MIN_TURN

    def is_terminal(self, state: int) -> bool:
        """True when a player's banked score has reached the target."""
        target = state >> _TARGET
        return state & _FIELD >= target or state >> _MIN_SCORE & _FIELD >= target

    def utility(self, state: int) -> int:
        """+1 when MAX has reached the target, else -1 (MIN has): MAX's point of view."""
        return 1 if state & _FIELD >= state >> _TARGET else -1

    def evaluate(self, state: int) -> Fraction | int:
        """A static evaluation for depth-limited search, in the open interval (-1, 1).

        Eval = (n_MIN - n_MAX) / (n_MAX + n_MIN), where n is the number of points a
        player still needs: the target minus the banked score, minus the turn total
        for the player whose turn it is (the turn total counts as if banked), plus
        :data:`TURN_BONUS` (8) for the player who waits: having the turn is worth
        about a turn's points (a hold-at-20 turn adds 8.14 on average).  Both n are
        at least 1 before the end, so the value lies strictly between -1 and 1, and a
        win (+1) counts more.  At a terminal state the evaluation is the utility.

        It ranks positions much as the optimal values do (Spearman rank correlation
        0.99 with :meth:`optimal_value` over every position for targets 10 to 30).

        >>> game = pig()
        >>> game.evaluate(game.initial), game.evaluate(game.result(game.initial, "roll"))  # 18 - 10 over 28
        (Fraction(2, 7), Fraction(2, 7))
        """
        target = state >> _TARGET
        need_max, need_min = target - (state & _FIELD), target - (state >> _MIN_SCORE & _FIELD)
        if need_max <= 0 or need_min <= 0:
            return 1 if need_max <= 0 else -1
        total = state >> _TOTAL & _FIELD
        if state & _MIN_TURN:
            need_min, need_max = need_min - total, need_max + TURN_BONUS
        else:
            need_max, need_min = need_max - total, need_min + TURN_BONUS
        return _estimate(need_max, need_min)

    def move_label(self, state: int, action: str | int) -> str:
        """``"MAX rolls"``, ``"MAX holds 7"`` (the points banked); for the die ``"rolled 4"``,
        ``"rolled 1 (bust)"`` (the turn total is lost) or ``"rolled 6 (wins)"``."""
        if not state & _ROLLING:
            who = "MIN" if state & _MIN_TURN else "MAX"
            return f"{who} rolls" if action == "roll" else f"{who} holds {state >> _TOTAL & _FIELD}"
        if action == 1:
            return "rolled 1 (bust)"
        return f"rolled {action} (wins)" if self.is_terminal(self.result(state, action)) else f"rolled {action}"

    # ------------------------------------------------------------ reading a state (for people and widgets)

    def scores(self, state: int) -> tuple[int, int]:
        """The banked scores: (MAX's, MIN's)."""
        return state & _FIELD, state >> _MIN_SCORE & _FIELD

    def turn_total(self, state: int) -> int:
        """The points rolled this turn and not yet banked (0 at the start of a turn and at the end)."""
        return state >> _TOTAL & _FIELD

    def player(self, state: int) -> str:
        """Whose turn it is, ``ev.MAX`` or ``ev.MIN``, also while a roll is pending (the winner at the end)."""
        return MIN if state & _MIN_TURN else MAX

    def rolling(self, state: int) -> bool:
        """True while a roll is pending (a CHANCE state)."""
        return bool(state & _ROLLING)

    # ------------------------------------------------------------ optimal play

    def solve(self) -> tuple[tuple[tuple[float, ...], ...], ...]:
        """The optimal win probabilities ``p[i][j][k]`` of the player to move, for every score ``i``,
        opponent's score ``j`` and turn total ``k`` (``k < target - i``; ``p[i][j][k]`` for
        ``k >= target - i`` is 1, a roll that got there has won).

        Computed by value iteration over all the states for the target, as Neller
        & Presser do, until no value changes by more than :data:`CONVERGENCE`
        (1e-12), so they are floats exact to about 1e-12; computed once per target
        and kept.  It takes a few milliseconds for the target 10, about 0.2 s for
        30, and some seconds for 100 (where the first player wins with probability
        0.5306, Neller & Presser's figure).
        """
        return _solve(self.target)

    def win_probability(self, state: int) -> float:
        """The probability that MAX wins from ``state`` when both play optimally (see :meth:`solve`)."""
        if self.is_terminal(state):
            return 1.0 if self.utility(state) == 1 else 0.0
        own, other = self._own_other(state)
        k = self.turn_total(state)
        p = self.solve()
        mover = self._roll_value(p, own, other, k) if state & _ROLLING else p[own][other][k]
        return mover if self.player(state) == MAX else 1.0 - mover

    def optimal_value(self, state: int) -> float:
        """The value of ``state`` with optimal play, in MAX's terms: 2p - 1 for the win probability p."""
        return 2 * self.win_probability(state) - 1

    def optimal_action(self, state: int) -> str:
        """The optimal move at a MAX or MIN state: ``"roll"``, or ``"hold"`` when it wins more often.

        Raises:
            UsageError: the state is a CHANCE state or the game is over.
        """
        if self.is_terminal(state) or state & _ROLLING:
            raise UsageError(f"{self.position(state)!r} is not a decision: there is no move to choose")
        own, other = self._own_other(state)
        k = self.turn_total(state)
        p = self.solve()
        return "hold" if k and 1.0 - p[other][own + k][0] > self._roll_value(p, own, other, k) else "roll"

    def _own_other(self, state: int) -> tuple[int, int]:
        """The banked scores of the player to move and of the opponent."""
        max_score, min_score = self.scores(state)
        return (min_score, max_score) if state & _MIN_TURN else (max_score, min_score)

    @staticmethod
    def _roll_value(p: tuple[tuple[tuple[float, ...], ...], ...], own: int, other: int, k: int) -> float:
        """The mover's win probability after rolling (the CHANCE state): the average over the six faces."""
        return (1.0 - p[other][own][0] + sum(p[own][other][k + 2 : k + 7])) / 6

    # ------------------------------------------------------------ notation and picture

    def position(self, state: int) -> str:
        """The position in the notation :func:`pig` reads, such as ``'MAX 5, MIN 3, MAX to play, turn total 4'``."""
        max_score, min_score = self.scores(state)
        who = _NAME[self.player(state)]
        if self.is_terminal(state):
            return f"MAX {max_score}, MIN {min_score}, {who} won"
        rolling = ", rolling" if state & _ROLLING else ""
        return f"MAX {max_score}, MIN {min_score}, {who} to play, turn total {self.turn_total(state)}{rolling}"

    def text(self, state: int) -> str:
        """Two lines: the scores, then whose turn it is with the turn total (``pig`` reads them back).

        >>> game = pig()
        >>> print(game.text(game.result(game.initial, "roll")))
        MAX 0, MIN 0
        MAX to play, turn total 0, rolling
        """
        max_score, min_score, rest = self.position(state).split(", ", 2)
        return f"{max_score}, {min_score}\n{rest}"

    def picture(self, state: int, size: float = 40) -> str:
        """A small standalone SVG of the state, ``size`` pixels square (default 40).

        The banked scores side by side, MAX's in blue on the left and MIN's in dark
        orange on the right (tic-tac-toe's colours, told apart with every common
        colour-vision deficiency); a bar under the player whose turn it is; below
        it that player's turn total (``+4``), and a die while a roll is pending.
        At the end the winner's score is underlined and marked "won".  No scripts,
        ids or references, and the same state always gives the same text.

        Raises:
            RenderError: ``size`` is not a number of pixels.
        """
        if isinstance(size, bool) or not isinstance(size, (int, float)) or not 0 < size < 10_000:
            raise RenderError(
                f"picture size {size!r} is not a number of pixels; use a number from 1 to 9999 (default 40)"
            )
        max_score, min_score = self.scores(state)
        mover = self.player(state)
        x, colour = (10, _MAX_COLOUR) if mover == MAX else (30, _MIN_COLOUR)
        parts = [
            f'<svg xmlns="{_SVG_NS}" width="{size:g}" height="{size:g}" viewBox="0 0 40 40" role="img" '
            f'aria-label="pig {self.position(state)}">',
            '<rect width="40" height="40" rx="3" fill="#fff"/>',
            _text(10, 16, 14 if max_score < 100 else 11, _MAX_COLOUR, str(max_score)),
            _text(30, 16, 14 if min_score < 100 else 11, _MIN_COLOUR, str(min_score)),
            f'<rect x="{x - 8}" y="19" width="16" height="2.5" fill="{colour}"/>',
        ]
        if self.is_terminal(state):
            parts.append(_text(x, 33, 9, colour, "won"))
            return "".join(parts) + "</svg>"
        total, rolling = self.turn_total(state), bool(state & _ROLLING)
        inward = 1 if mover == MAX else -1  # towards the middle: the die goes there, beside the turn total
        if total:
            parts.append(_text(x, 35, 10, colour, f"+{total}"))
        if rolling:
            die = x + 16 * inward if total else x  # the die's centre
            parts.append(
                f'<rect x="{die - 5:g}" y="26" width="10" height="10" rx="2" fill="#fff" stroke="{colour}" '
                f'stroke-width="1.2"/><circle cx="{die:g}" cy="31" r="1.5" fill="{colour}"/>'
            )
        return "".join(parts) + "</svg>"

    def __repr__(self) -> str:
        args = [] if self.initial == self._start else [repr(self.position(self.initial))]
        if self.target != 10:
            args.append(f"target={self.target}")
        return f"pig({', '.join(args)})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and repr(other) == repr(self)

    def __hash__(self) -> int:
        return hash(repr(self))


def pig(position: str | None = None, *, target: int = 10) -> Pig:
    """Pig from a position (the start by default): see :class:`Pig` for the rules.

    Args:
        position: parts separated by commas or line breaks, in any order:
            ``MAX <score>`` and ``MIN <score>`` (the banked scores), ``MAX to play``
            or ``MIN to play`` (whose turn it is), ``turn total <points>`` (0 if
            left out), and ``rolling`` when the player has chosen to roll and the die
            is in the air (a CHANCE state).  A finished game says ``MAX won`` or
            ``MIN won`` instead of whose turn it is.  Words may be in any case;
            :meth:`Pig.position` and :meth:`Pig.text` write it back.
        target: the score that wins, a whole number from 2 to 100 (default 10).

    Raises:
        UsageError: the text is not a position (the message gives ``line:column``),
            or no game reaches it (a score or turn total of 1, a score at the target
            in a game still on, a finished game without a score at the target ...).
        OptionError: ``target`` is not a whole number from 2 to 100.

    >>> pig("min 3, max 5, MAX to play, turn total 4")
    pig('MAX 5, MIN 3, MAX to play, turn total 4')
    >>> pig("MAX 5, MIN 3, MIN to play\\nturn total 7")
    Traceback (most recent call last):
    ...
    expectviz.errors.UsageError: position 2:1: MIN's score 3 plus the turn total 7 reaches the target 10: ...
    """
    return Pig(position, target=target)


GAMES: dict[str, Callable[[], Pig]] = {"pig": pig}
"""The games of this module by name, each a function that builds the game with no arguments."""
