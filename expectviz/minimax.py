"""Minimax: the value of a game when both players play perfectly.

AIMA 3rd ed. Section 5.2 (4th ed. Section 6.2) defines it by one equation::

    MINIMAX(s) = UTILITY(s)                              if TERMINAL-TEST(s)
                 max over a of MINIMAX(RESULT(s, a))     if PLAYER(s) = MAX
                 min over a of MINIMAX(RESULT(s, a))     if PLAYER(s) = MIN

``minimax_value`` below is that equation, over any game (:mod:`expectviz.game`;
an explicit tree is one game), with a depth limit that stops at a state's
static evaluation (EVAL and CUTOFF-TEST, AIMA 3rd ed. Section 5.4), an
optional transposition table, and the best move carried up beside the value as
in the 4th edition's Fig. 6.3.  Every value is from MAX's point of view.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .recorder import Value
from .search import Result, Search
from .tree import MAX

__all__ = ["minimax"]


def minimax(
    game: Any,
    *,
    depth: int | None = None,
    table: bool = False,
    order: Callable[[Any, Any], Any] | None = None,
    iterative: bool = False,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    trace: bool = True,
    max_events: int | None = None,
) -> Result:
    """Search a game (or a MAX/MIN tree) exhaustively (AIMA Fig. 5.3 / 6.3).

    Args:
        game: a game, a game's name (``"tictactoe"``), a tree, its text, or a textbook tree's name.
        depth: stop this many moves below the root and use static evaluations there.
        table: keep a transposition table: a position reached again at the same depth is not searched again.
        order: a move-ordering key ``key(state, move)``: moves with smaller keys are searched first.
        iterative: iterative deepening: depth 1, 2, ... up to ``depth`` (or the end of the game).
        max_nodes: with ``iterative``, stop deepening when this many nodes have been visited.
        time_limit: with ``iterative``, stop deepening after this many seconds.
        trace: record every event (False: only count, for speed).
        max_events: the trace budget for this call (default ``ev.options.max_events``).

    >>> import expectviz as ev
    >>> r = ev.minimax("max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))")   # AIMA Fig. 5.2
    >>> r.value, r.best_move, r.stats
    (3, 0, Stats(nodes_visited=13, leaves_evaluated=9, cutoffs=0))
    >>> ev.minimax("tictactoe", trace=False).stats      # AIMA Fig. 5.1, from the empty board
    Stats(nodes_visited=549946, leaves_evaluated=255168, cutoffs=0)
    """
    search = Search(
        "minimax",
        game,
        depth=depth,
        trace=trace,
        chance=False,
        max_events=max_events,
        order=order,
        table=table,
        iterative=iterative,
        max_nodes=max_nodes,
        time_limit=time_limit,
    )
    game, trace_, table_ = search.game, search.tracer, search.table

    def minimax_value(state: Any, depth: int) -> tuple[Value, Any]:
        trace_.visit(state)
        if game.is_terminal(state):  # TERMINAL-TEST
            return trace_.leaf(state, game.utility(state)), None
        if depth == 0:  # CUTOFF-TEST: the static evaluation EVAL
            return trace_.leaf(state, game.evaluate(state)), None
        if table_ is not None and (known := table_.lookup(state, depth)) is not None:
            return trace_.table(state, known), None  # a transposition: searched before, by another move order
        move = None
        if game.to_move(state) == MAX:
            v: Value = -math.inf
            for a in game.actions(state):
                v2, _ = minimax_value(game.result(state, a), depth - 1)
                if v2 > v:
                    v, move = v2, a
        else:  # MIN
            v = math.inf
            for a in game.actions(state):
                v2, _ = minimax_value(game.result(state, a), depth - 1)
                if v2 < v:
                    v, move = v2, a
        if table_ is not None:
            table_.store(state, depth, v)
        return trace_.backup(state, v), move

    return search.run(minimax_value)
