"""Expectiminimax: minimax with chance nodes (Michie 1966; AIMA 3rd ed. Section 5.5).

The pseudocode of the encyclopedia article "Expectiminimax" (and of Wikipedia's), with MAX, MIN and
CHANCE nodes in any arrangement::

    function expectiminimax(node, depth)
      if node is a terminal node or depth = 0
        return the heuristic value of node
      if the adversary is to play at node          // MIN
        let a := +inf;  foreach child: a := min(a, expectiminimax(child, depth-1))
      else if we are to play at node               // MAX
        let a := -inf;  foreach child: a := max(a, expectiminimax(child, depth-1))
      else if random event at node                 // CHANCE
        let a := 0;     foreach child: a := a + P(child) * expectiminimax(child, depth-1)
      return a

A chance node's value is the probability-weighted sum of its children's values,
divided by nothing: the probabilities already sum to 1.  Expectimax is this same
function on a game without MIN nodes.  The function reads any game
(:mod:`expectviz.game`; an explicit tree is one game): the children of a state
are the results of its moves, or of its chance outcomes with their
probabilities.  Every value is from MAX's point of view.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .recorder import Value
from .search import Result, Search
from .tree import MAX, MIN

__all__ = ["expectiminimax"]


def expectiminimax(
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
    """Search a game (or a tree) with MAX, MIN and CHANCE nodes exhaustively.

    Args:
        game: a game, a game's name (``"coinflip-tictactoe"``), a tree, its text, or a textbook tree's name.
        depth: stop this many levels below the root (chance levels count) and use
            static evaluations there.
        table: keep a transposition table: a position reached again at the same depth is not searched again.
        order: a move-ordering key ``key(state, move)`` for MAX and MIN (it changes no value here).
        iterative: iterative deepening: depth 1, 2, ... up to ``depth`` (or the end of the game).
        max_nodes: with ``iterative``, stop deepening when this many nodes have been visited.
        time_limit: with ``iterative``, stop deepening after this many seconds.
        trace: record every event (False: only count, for speed).
        max_events: the trace budget for this call (default ``ev.options.max_events``).

    >>> import expectviz as ev
    >>> r = ev.expectiminimax("max(chance(10, 0), chance(5, 15))")   # the article's coin flip
    >>> r.value, r.best_move, r.stats
    (10, 1, Stats(nodes_visited=7, leaves_evaluated=4, cutoffs=0))
    """
    search = Search(
        "expectiminimax",
        game,
        depth=depth,
        trace=trace,
        chance=True,
        max_events=max_events,
        order=order,
        table=table,
        iterative=iterative,
        max_nodes=max_nodes,
        time_limit=time_limit,
    )
    game, trace_, table_ = search.game, search.tracer, search.table

    def expectiminimax_value(state: Any, depth: int) -> tuple[Value, Any]:
        trace_.visit(state)
        if game.is_terminal(state):  # a terminal node: its utility
            return trace_.leaf(state, game.utility(state)), None
        if depth == 0:  # the depth limit: the heuristic value
            return trace_.leaf(state, game.evaluate(state)), None
        if table_ is not None and (known := table_.lookup(state, depth)) is not None:
            return trace_.table(state, known), None  # a transposition: searched before, by another path
        move = None
        v: Value
        player = game.to_move(state)
        if player == MIN:  # the adversary is to play
            v = math.inf
            for a in game.actions(state):
                v2, _ = expectiminimax_value(game.result(state, a), depth - 1)
                if v2 < v:
                    v, move = v2, a
        elif player == MAX:  # we are to play
            v = -math.inf
            for a in game.actions(state):
                v2, _ = expectiminimax_value(game.result(state, a), depth - 1)
                if v2 > v:
                    v, move = v2, a
        else:  # CHANCE: a random event
            v = 0
            for r, p in game.chance_outcomes(state):
                v2, _ = expectiminimax_value(game.result(state, r), depth - 1)
                v = v + p * v2
        if table_ is not None:
            table_.store(state, depth, v)
        return trace_.backup(state, v), move

    return search.run(expectiminimax_value)
