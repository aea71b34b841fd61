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
"""

from __future__ import annotations

import math

from .errors import SearchError
from .search import Result, Search
from .trace import Value
from .tree import LEAF, MIN, Node

__all__ = ["alphabeta"]


def alphabeta(tree: Node | str, *, depth: int | None = None, prune_ties: bool = True, trace: bool = True) -> Result:
    """Alpha-beta search of a MAX/MIN tree (AIMA Fig. 5.7 / 6.7).

    Args:
        tree: a tree (or its text, or a textbook name).
        depth: stop this many levels below the root and use static evaluations there.
        prune_ties: cut when v >= beta (MAX) or v <= alpha (MIN), as AIMA does;
            False cuts only on strict inequalities.
        trace: record every event (False: only count, for speed).

    >>> import expectviz as ev
    >>> r = ev.alphabeta("max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))")   # AIMA Fig. 5.2
    >>> r.value, r.best_move, r.stats
    (3, 0, Stats(nodes_visited=11, leaves_evaluated=7, cutoffs=1))
    """
    if not isinstance(prune_ties, bool):
        raise SearchError(f"prune_ties must be True or False, not {prune_ties!r}")
    search = Search("alphabeta", tree, depth=depth, trace=trace, chance=False, options={"prune_ties": prune_ties})
    trace_ = search.tracer

    def cuts(v: Value, bound: Value) -> bool:
        """v >= bound (or v > bound when ties are not pruned)."""
        return v >= bound if prune_ties else v > bound

    def value(node: Node, alpha: Value, beta: Value, depth: int) -> tuple[Value, int | None]:
        """MAX-VALUE or MIN-VALUE, whichever player is to move at node."""
        if node.kind == MIN:
            return min_value(node, alpha, beta, depth)
        return max_value(node, alpha, beta, depth)

    def max_value(node: Node, alpha: Value, beta: Value, depth: int) -> tuple[Value, int | None]:
        trace_.visit(node, alpha, beta)
        if node.kind == LEAF:
            return trace_.leaf(node, node.value), None
        if depth == 0:
            return trace_.leaf(node, node.evaluation), None
        v: Value = -math.inf
        move = None
        for a, child in enumerate(trace_.expand(node)):
            v2, _ = value(child, alpha, beta, depth - 1)
            if v2 > v:
                v, move = v2, a
                alpha = max(alpha, v)
            if cuts(v, beta):
                trace_.cutoff(node, v, a + 1)  # MIN will never let the game reach node
                return trace_.backup(node, v), move
        return trace_.backup(node, v), move

    def min_value(node: Node, alpha: Value, beta: Value, depth: int) -> tuple[Value, int | None]:
        trace_.visit(node, alpha, beta)
        if node.kind == LEAF:
            return trace_.leaf(node, node.value), None
        if depth == 0:
            return trace_.leaf(node, node.evaluation), None
        v: Value = math.inf
        move = None
        for a, child in enumerate(trace_.expand(node)):
            v2, _ = value(child, alpha, beta, depth - 1)
            if v2 < v:
                v, move = v2, a
                beta = min(beta, v)
            if cuts(alpha, v):
                trace_.cutoff(node, v, a + 1)  # MAX will never let the game reach node
                return trace_.backup(node, v), move
        return trace_.backup(node, v), move

    return search.run(lambda root, depth: value(root, -math.inf, math.inf, depth))
