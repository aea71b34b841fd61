"""Alpha-beta search: minimax's value without the branches that cannot matter.

This is ALPHA-BETA-SEARCH of AIMA 4th ed. Fig. 6.7 (3rd ed. Fig. 5.7)::

    function MAX-VALUE(game, state, alpha, beta) returns a (utility, move) pair
      if game.IS-TERMINAL(state) then return game.UTILITY(state, MAX), null
      v <- -inf
      for each a in game.ACTIONS(state) do
        v2, a2 <- MIN-VALUE(game, game.RESULT(state, a), alpha, beta)
        if v2 > v then
          v, move <- v2, a
          alpha <- MAX(alpha, v)
        if v >= beta then return v, move
      return v, move

and MIN-VALUE with the roles swapped.  alpha is the value of the best choice
found so far for MAX along the path, beta the best for MIN.  A depth limit
stops at a node's static evaluation.  With ``prune_ties=False`` the cutoffs
are strict (``v > beta``, ``v < alpha``), as some course autograders expect.

A leaf is no player's turn; ``value`` sends it to MAX-VALUE, whose
IS-TERMINAL test handles it, so MIN-VALUE needs no terminal test of its own.
"""

from __future__ import annotations

import math

from .errors import SearchError
from .recorder import Value
from .search import Result, Search
from .tree import LEAF, MIN, Node

__all__ = ["alphabeta"]


def alphabeta(
    tree: Node | str,
    *,
    depth: int | None = None,
    prune_ties: bool = True,
    trace: bool = True,
    max_events: int | None = None,
) -> Result:
    """Alpha-beta search of a MAX/MIN tree (AIMA Fig. 5.7 / 6.7).

    Args:
        tree: a tree (or its text, or a textbook name).
        depth: stop this many levels below the root and use static evaluations there.
        prune_ties: cut when v >= beta (MAX) or v <= alpha (MIN), as AIMA does;
            False cuts only on strict inequalities.
        trace: record every event (False: only count, for speed).
        max_events: the trace budget for this call (default ``ev.options.max_events``).

    >>> import expectviz as ev
    >>> r = ev.alphabeta("max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))")   # AIMA Fig. 5.2
    >>> r.value, r.best_move, r.stats
    (3, 0, Stats(nodes_visited=11, leaves_evaluated=7, cutoffs=1))
    """
    if not isinstance(prune_ties, bool):
        raise SearchError(f"prune_ties must be True or False, not {prune_ties!r}")
    search = Search(
        "alphabeta",
        tree,
        depth=depth,
        trace=trace,
        chance=False,
        options={"prune_ties": prune_ties},
        max_events=max_events,
    )
    trace_ = search.tracer

    def value(node: Node, alpha: Value, beta: Value, depth: int) -> tuple[Value, int | None]:
        """MAX-VALUE or MIN-VALUE, whichever player is to move at node (a leaf goes to MAX-VALUE)."""
        if node.kind == MIN:
            return min_value(node, alpha, beta, depth)
        return max_value(node, alpha, beta, depth)

    def max_value(node: Node, alpha: Value, beta: Value, depth: int) -> tuple[Value, int | None]:
        trace_.visit(node, alpha, beta)
        if node.kind == LEAF:  # IS-TERMINAL
            return trace_.leaf(node, node.value), None
        if depth == 0:  # the depth limit: the static evaluation
            return trace_.leaf(node, node.evaluation), None
        v: Value = -math.inf
        move = None
        for a, child in enumerate(node.children):
            v2, _ = value(child, alpha, beta, depth - 1)
            if v2 > v:
                v, move = v2, a
                alpha = max(alpha, v)
            if v >= beta and (prune_ties or v > beta):
                trace_.cutoff(node, v, a + 1)  # MIN will never let the game reach node: the rest are pruned
                return trace_.backup(node, v), move
        return trace_.backup(node, v), move

    def min_value(node: Node, alpha: Value, beta: Value, depth: int) -> tuple[Value, int | None]:
        trace_.visit(node, alpha, beta)
        if depth == 0:  # the depth limit: the static evaluation
            return trace_.leaf(node, node.evaluation), None
        v: Value = math.inf
        move = None
        for a, child in enumerate(node.children):
            v2, _ = value(child, alpha, beta, depth - 1)
            if v2 < v:
                v, move = v2, a
                beta = min(beta, v)
            if v <= alpha and (prune_ties or v < alpha):
                trace_.cutoff(node, v, a + 1)  # MAX will never let the game reach node: the rest are pruned
                return trace_.backup(node, v), move
        return trace_.backup(node, v), move

    return search.run(lambda root, depth: value(root, -math.inf, math.inf, depth))
