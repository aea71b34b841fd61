"""*-minimax: alpha-beta pruning that reaches through chance nodes (Ballard 1983).

Expectiminimax must average every outcome of a chance node, so plain alpha-beta
cannot skip any.  But when every value is known to lie in [L, U], the outcomes
not yet searched are bounded too, and the chance node's value is bounded by

    lower = sum_j p_j * l_j        upper = sum_j p_j * u_j

where [l_j, u_j] is what is known of outcome j ([L, U] before its search, its
value after).  Outcome i need only be searched with the window that can still
change the decision (FACTS.md, Star1)::

    alpha_i = (alpha - sum_{j != i} p_j u_j) / p_i
    beta_i  = (beta  - sum_{j != i} p_j l_j) / p_i

search child i with (max(alpha_i, L), min(beta_i, U));
a value <= alpha_i fails low (the chance node is <= alpha: return its upper bound),
a value >= beta_i fails high (the chance node is >= beta: return its lower bound).

Star2 adds a probing phase on regular trees: before searching any outcome in
full, it searches only the *first move* below each one.  Under a MIN child that
gives an upper bound (MIN can do at least that well), under a MAX child a lower
bound, and these can prove a cutoff after a few leaves.

MAX and MIN nodes are searched exactly as in :mod:`expectviz.alphabeta`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .search import Result, Search
from .trace import Value
from .tree import CHANCE, LEAF, MAX, MIN, Node

__all__ = ["star1", "star2"]


def star1(
    tree: Node | str,
    *,
    bounds: tuple[float, float],
    depth: int | None = None,
    prune_ties: bool = True,
    trace: bool = True,
) -> Result:
    """Ballard's Star1: alpha-beta with chance-node windows.

    Args:
        tree: a tree (or its text, or a textbook name).
        bounds: (L, U), the least and greatest value any leaf or evaluation can take.
            Required; a leaf outside them is an error.  (-inf, inf) is allowed and
            prunes only below MAX/MIN nodes.
        depth: stop this many levels below the root (chance levels count).
        prune_ties: MAX/MIN cutoffs on equality (AIMA's rule) or only strict ones.
        trace: record every event (False: only count).

    The AIMA exercise tree with values in [-2, 2] (FACTS.md): 5 of its 8 leaves.

    >>> import expectviz as ev
    >>> tree = "max(chance(min(2, 2), min(1, 2)), chance(min(0, 2), min(-1, 0)))"
    >>> r = ev.star1(tree, bounds=(-2, 2))
    >>> r.value, r.best_move, r.stats.leaves_evaluated
    (1.5, 0, 5)
    """
    return _star("star1", tree, bounds, depth, prune_ties, trace, probing=False)


def star2(
    tree: Node | str,
    *,
    bounds: tuple[float, float],
    depth: int | None = None,
    prune_ties: bool = True,
    trace: bool = True,
) -> Result:
    """Ballard's Star2: Star1 after probing the first move below each outcome.

    Needs a regular tree: a chance node's children are all MAX nodes, all MIN
    nodes or all leaves.  Arguments as for :func:`star1`.

    >>> import expectviz as ev
    >>> tree = "max(1.5, chance(min(1.8, 1.9), min(0.5, 1)))"
    >>> ev.star1(tree, bounds=(-2, 2)).stats.leaves_evaluated, ev.star2(tree, bounds=(-2, 2)).stats.leaves_evaluated
    (4, 3)
    """
    return _star("star2", tree, bounds, depth, prune_ties, trace, probing=True)


def _star(
    name: str,
    tree: Node | str,
    bounds: tuple[float, float],
    depth: int | None,
    prune_ties: bool,
    trace: bool,
    *,
    probing: bool,
) -> Result:
    if not isinstance(prune_ties, bool):
        raise TypeError(f"prune_ties must be True or False, not {prune_ties!r}")
    search = Search(
        name,
        tree,
        depth=depth,
        trace=trace,
        chance=True,
        bounds=bounds,
        regular=probing,
        options={"prune_ties": prune_ties},
    )
    L, U = search.bounds
    trace_ = search.tracer

    def cuts(v: Value, bound: Value) -> bool:
        """v >= bound (or v > bound when ties are not pruned)."""
        return v >= bound if prune_ties else v > bound

    def value(node: Node, alpha: Value, beta: Value, depth: int) -> tuple[Value, int | None]:
        if node.kind == CHANCE:
            return chance_value(node, alpha, beta, depth)
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
                trace_.cutoff(node, v, a + 1)
                return trace_.backup(node, v), move
        return trace_.backup(node, v), move

    def min_value(node: Node, alpha: Value, beta: Value, depth: int) -> tuple[Value, int | None]:
        trace_.visit(node, alpha, beta)
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
                trace_.cutoff(node, v, a + 1)
                return trace_.backup(node, v), move
        return trace_.backup(node, v), move

    def chance_value(node: Node, alpha: Value, beta: Value, depth: int) -> tuple[Value, None]:
        trace_.visit(node, alpha, beta)
        if depth == 0:
            return trace_.leaf(node, node.evaluation), None
        p = [p_j for p_j, _ in node.outcomes]
        lower: list[Value] = [L] * len(p)  # what is known of each outcome's value: at least lower[j] ...
        upper: list[Value] = [U] * len(p)  # ... and at most upper[j]

        if probing and depth > 1 and node.children[0].kind in (MAX, MIN):
            for i, child in enumerate(trace_.expand(node)):
                alpha_i, beta_i = child_window(p, lower, upper, i, alpha, beta)
                trace_.window(node, i, alpha_i, beta_i)
                if child.kind == MIN:  # MIN's first move is an upper bound on MIN's value
                    upper[i] = probe(child, max(alpha_i, L), U, depth - 1)
                else:  # MAX's first move is a lower bound on MAX's value
                    lower[i] = probe(child, L, min(beta_i, U), depth - 1)
                trace_.bounds(node, expected(p, lower), expected(p, upper))
                if expected(p, upper) <= alpha:  # fails low: MAX has better elsewhere
                    trace_.cutoff(node, expected(p, upper), 0)
                    return trace_.backup(node, expected(p, upper)), None
                if expected(p, lower) >= beta:  # fails high: MIN has better elsewhere
                    trace_.cutoff(node, expected(p, lower), 0)
                    return trace_.backup(node, expected(p, lower)), None

        for i, child in enumerate(trace_.expand(node)):
            alpha_i, beta_i = child_window(p, lower, upper, i, alpha, beta)
            trace_.window(node, i, alpha_i, beta_i)
            v, _ = value(child, max(alpha_i, L), min(beta_i, U), depth - 1)
            if v <= alpha_i:  # fails low: the chance node is at most alpha
                upper[i] = v
                trace_.cutoff(node, expected(p, upper), i + 1)
                return trace_.backup(node, expected(p, upper)), None
            if v >= beta_i:  # fails high: the chance node is at least beta
                lower[i] = v
                trace_.cutoff(node, expected(p, lower), i + 1)
                return trace_.backup(node, expected(p, lower)), None
            lower[i] = upper[i] = v
            trace_.bounds(node, expected(p, lower), expected(p, upper))
        return trace_.backup(node, expected(p, lower)), None

    def probe(node: Node, alpha: Value, beta: Value, depth: int) -> Value:
        """Star2's probe: search only the first move below node."""
        trace_.visit(node, alpha, beta)
        for child in trace_.expand(node):
            v, _ = value(child, alpha, beta, depth - 1)
            return trace_.probe(node, v)
        raise AssertionError("a checked tree has no childless inner node")  # pragma: no cover

    return search.run(lambda root, depth: value(root, -math.inf, math.inf, depth))


def expected(p: Sequence[Value], values: list[Value]) -> Value:
    """sum_j p_j * values_j: the chance node's value if each outcome took values_j."""
    total: Value = 0
    for p_j, v_j in zip(p, values, strict=False):
        total = total + p_j * v_j
    return total


def child_window(
    p: Sequence[Value], lower: list[Value], upper: list[Value], i: int, alpha: Value, beta: Value
) -> tuple[Value, Value]:
    """(alpha_i, beta_i): the values of outcome i that decide the chance node at once."""
    others = [j for j in range(len(p)) if j != i]
    others_upper = expected([p[j] for j in others], [upper[j] for j in others])
    others_lower = expected([p[j] for j in others], [lower[j] for j in others])
    return _edge(alpha, others_upper, p[i]), _edge(beta, others_lower, p[i])


def _edge(bound: Value, others: Value, p_i: Value) -> Value:
    """(bound - others) / p_i, guarding inf - inf (an unbounded window stays unbounded)."""
    if math.isinf(bound) and bound == others:
        return bound
    if math.isinf(others):
        return -others
    return (bound - others) / p_i
