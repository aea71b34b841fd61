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
function on a tree without MIN nodes.  Every value is from MAX's point of view.
"""

from __future__ import annotations

import math

from .recorder import Value
from .search import Result, Search
from .tree import LEAF, MAX, MIN, Node

__all__ = ["expectiminimax"]


def expectiminimax(
    tree: Node | str, *, depth: int | None = None, trace: bool = True, max_events: int | None = None
) -> Result:
    """Search a tree with MAX, MIN and CHANCE nodes exhaustively.

    Args:
        tree: a tree (or its text, or a textbook name).
        depth: stop this many levels below the root (chance levels count) and use
            static evaluations there.
        trace: record every event (False: only count, for speed).
        max_events: the trace budget for this call (default ``ev.options.max_events``).

    >>> import expectviz as ev
    >>> r = ev.expectiminimax("max(chance(10, 0), chance(5, 15))")   # the article's coin flip
    >>> r.value, r.best_move, r.stats
    (10, 1, Stats(nodes_visited=7, leaves_evaluated=4, cutoffs=0))
    """
    search = Search("expectiminimax", tree, depth=depth, trace=trace, chance=True, max_events=max_events)
    trace_ = search.tracer

    def expectiminimax_value(node: Node, depth: int) -> tuple[Value, int | None]:
        trace_.visit(node)
        if node.kind == LEAF or depth == 0:  # a terminal node, or the depth limit: its heuristic value
            return trace_.leaf(node, node.value if node.kind == LEAF else node.evaluation), None
        move = None
        v: Value
        if node.kind == MIN:  # the adversary is to play
            v = math.inf
            for a, child in enumerate(node.children):
                v2, _ = expectiminimax_value(child, depth - 1)
                if v2 < v:
                    v, move = v2, a
        elif node.kind == MAX:  # we are to play
            v = -math.inf
            for a, child in enumerate(node.children):
                v2, _ = expectiminimax_value(child, depth - 1)
                if v2 > v:
                    v, move = v2, a
        else:  # CHANCE: a random event
            v = 0
            for child in node.children:
                v2, _ = expectiminimax_value(child, depth - 1)
                v = v + child.probability * v2  # type: ignore[operator]
        return trace_.backup(node, v), move

    return search.run(expectiminimax_value)
