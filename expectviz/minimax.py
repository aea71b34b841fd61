"""Minimax: the value of a game tree when both players play perfectly.

AIMA 3rd ed. Section 5.2 (4th ed. Section 6.2) defines it by one equation::

    MINIMAX(s) = UTILITY(s)                              if TERMINAL-TEST(s)
                 max over a of MINIMAX(RESULT(s, a))     if PLAYER(s) = MAX
                 min over a of MINIMAX(RESULT(s, a))     if PLAYER(s) = MIN

``minimax_value`` below is that equation, with a depth limit that stops at a
node's static evaluation (EVAL and CUTOFF-TEST, AIMA 3rd ed. Section 5.4), and
the best move carried up beside the value as in the 4th edition's Fig. 6.3.
Every value is from MAX's point of view.
"""

from __future__ import annotations

import math

from .recorder import Value
from .search import Result, Search
from .tree import LEAF, MAX, Node

__all__ = ["minimax"]


def minimax(
    tree: Node | str, *, depth: int | None = None, trace: bool = True, max_events: int | None = None
) -> Result:
    """Search a MAX/MIN tree exhaustively (AIMA Fig. 5.3 / 6.3).

    Args:
        tree: a tree (or its text, or a textbook name).
        depth: stop this many levels below the root and use static evaluations there.
        trace: record every event (False: only count, for speed).
        max_events: the trace budget for this call (default ``ev.options.max_events``).

    >>> import expectviz as ev
    >>> r = ev.minimax("max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))")   # AIMA Fig. 5.2
    >>> r.value, r.best_move, r.stats
    (3, 0, Stats(nodes_visited=13, leaves_evaluated=9, cutoffs=0))
    """
    search = Search("minimax", tree, depth=depth, trace=trace, chance=False, max_events=max_events)
    trace_ = search.tracer

    def minimax_value(node: Node, depth: int) -> tuple[Value, int | None]:
        trace_.visit(node)
        if node.kind == LEAF:  # TERMINAL-TEST
            return trace_.leaf(node, node.value), None
        if depth == 0:  # CUTOFF-TEST: the static evaluation EVAL
            return trace_.leaf(node, node.evaluation), None
        move = None
        if node.kind == MAX:
            v: Value = -math.inf
            for a, child in enumerate(node.children):
                v2, _ = minimax_value(child, depth - 1)
                if v2 > v:
                    v, move = v2, a
        else:  # MIN
            v = math.inf
            for a, child in enumerate(node.children):
                v2, _ = minimax_value(child, depth - 1)
                if v2 < v:
                    v, move = v2, a
        return trace_.backup(node, v), move

    return search.run(minimax_value)
