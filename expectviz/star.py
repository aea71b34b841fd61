"""*-minimax: alpha-beta pruning that reaches through chance nodes (Ballard 1983).

Expectiminimax must average every outcome of a chance node, so plain alpha-beta
cannot skip any.  But when every value is known to lie in [L, U], the outcomes
not yet searched are bounded too, and the chance node's value is bounded by

    lower = sum_j p_j * l_j        upper = sum_j p_j * u_j

where [l_j, u_j] is what is known of outcome j ([L, U] before its search, its
value after).  Outcome i need only be searched with the window that can still
change the decision (Ballard 1983; AIMA 3rd ed. Exercise 5.21)::

    alpha_i = (alpha - sum_{j != i} p_j u_j) / p_i
    beta_i  = (beta  - sum_{j != i} p_j l_j) / p_i

search child i with (max(alpha_i, L), min(beta_i, U));
a value <= alpha_i fails low (the chance node is <= alpha: return its upper bound),
a value >= beta_i fails high (the chance node is >= beta: return its lower bound).

Star2 adds a probing phase on regular trees: before searching any outcome in
full, it searches only the *first move* below each one.  Under a MIN child that
gives an upper bound (MIN can do at least that well), under a MAX child a lower
bound, and these can prove a cutoff after a few leaves.  When no cutoff comes,
the outcomes are searched as in Star1, and the first move of each, which its
probe has already searched, is not searched again: its value is reused.  (A
probe of a MIN child is searched with beta = U, so its value is exact or an
upper bound that the later, narrower window treats the same way; likewise for
MAX with alpha = L.)

MAX and MIN nodes are searched exactly as in :mod:`expectviz.alphabeta`.

On a game, a chance node's outcomes are searched most probable first (its
window narrows fastest), and with ``table=True`` the transposition table's
bounds on the outcomes start the chance node's bounds before any outcome is
searched (Veness and Blair 2007): a transposition searched before may decide
the node at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from .errors import SearchError
from .game import game_name
from .recorder import Value
from .search import Result, Search
from .tree import CHANCE, MAX, MIN

__all__ = ["star1", "star2"]


def star1(
    game: Any,
    *,
    bounds: tuple[float, float] | None = None,
    depth: int | None = None,
    prune_ties: bool = True,
    table: bool = False,
    order: Callable[[Any, Any], Any] | None = None,
    iterative: bool = False,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    trace: bool = True,
    max_events: int | None = None,
) -> Result:
    """Ballard's Star1: alpha-beta with chance-node windows.

    Args:
        game: a game, a game's name, a tree, its text, or a textbook tree's name.
        bounds: (L, U), the least and greatest value any leaf or evaluation can take.
            Required for a tree; a built-in game gives its own (``value_range``).
            A leaf outside them is an error.  (-inf, inf) is allowed and prunes
            only below MAX/MIN nodes.
        depth: stop this many levels below the root (chance levels count).
        prune_ties: MAX/MIN cutoffs on equality (AIMA's rule) or only strict ones.
        table: keep a transposition table of exact values and bounds; at a chance node the
            bounds it holds on the outcomes are where their search starts.
        order: a move-ordering key ``key(state, move)`` for MAX and MIN: smaller keys first
            (Star2 probes the first move in this order).
        iterative: iterative deepening: depth 1, 2, ... up to ``depth`` (or the end of the game).
        max_nodes: with ``iterative``, stop deepening when this many nodes have been visited.
        time_limit: with ``iterative``, stop deepening after this many seconds.
        trace: record every event (False: only count).
        max_events: the trace budget for this call (default ``ev.options.max_events``).

    The AIMA exercise tree with values in [-2, 2]: 5 of its 8 leaves.

    >>> import expectviz as ev
    >>> tree = "max(chance(min(2, 2), min(1, 2)), chance(min(0, 2), min(-1, 0)))"
    >>> r = ev.star1(tree, bounds=(-2, 2))
    >>> r.value, r.best_move, r.stats.leaves_evaluated
    (1.5, 0, 5)
    """
    return _star(
        "star1",
        game,
        bounds=bounds,
        depth=depth,
        prune_ties=prune_ties,
        table=table,
        order=order,
        iterative=iterative,
        max_nodes=max_nodes,
        time_limit=time_limit,
        trace=trace,
        max_events=max_events,
    )


def star2(
    game: Any,
    *,
    bounds: tuple[float, float] | None = None,
    depth: int | None = None,
    prune_ties: bool = True,
    table: bool = False,
    order: Callable[[Any, Any], Any] | None = None,
    iterative: bool = False,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    trace: bool = True,
    max_events: int | None = None,
) -> Result:
    """Ballard's Star2: Star1 after probing the first move below each outcome.

    Needs a regular tree: a chance node's children are all MAX nodes, all MIN
    nodes or all leaves (an explicit tree that is not is refused).  On a game,
    a chance node whose outcomes are not all MAX or all MIN states is searched
    as Star1 would, and the result's ``note`` (and the trace's) says how many
    were.  Arguments as for :func:`star1`.

    >>> import expectviz as ev
    >>> tree = "max(1.5, chance(min(1.8, 1.9), min(0.5, 1)))"
    >>> ev.star1(tree, bounds=(-2, 2)).stats.leaves_evaluated, ev.star2(tree, bounds=(-2, 2)).stats.leaves_evaluated
    (4, 3)
    """
    return _star(
        "star2",
        game,
        bounds=bounds,
        depth=depth,
        prune_ties=prune_ties,
        table=table,
        order=order,
        iterative=iterative,
        max_nodes=max_nodes,
        time_limit=time_limit,
        trace=trace,
        max_events=max_events,
    )


def _star(name: str, game: Any, *, bounds: tuple[float, float] | None, prune_ties: bool, **options: Any) -> Result:
    """Star1 or Star2 (``name``); ``options`` are the search options every algorithm takes."""
    if not isinstance(prune_ties, bool):
        raise SearchError(f"prune_ties must be True or False, not {prune_ties!r}")
    probing = name == "star2"
    search = Search(
        name, game, chance=True, bounds=bounds, regular=probing, options={"prune_ties": prune_ties}, **options
    )
    L, U = search.bounds
    game, trace_, table_ = search.game, search.tracer, search.table

    def value(state: Any, alpha: Value, beta: Value, depth: int, first: Value | None = None) -> tuple[Value, Any]:
        """The value of state with window (alpha, beta); ``first`` is its first move's value when a probe found it."""
        trace_.visit(state, alpha, beta)
        if game.is_terminal(state):
            return trace_.leaf(state, game.utility(state)), None
        if depth == 0:
            return trace_.leaf(state, game.evaluate(state)), None
        if first is None and table_ is not None and (known := table_.lookup(state, depth, alpha, beta)) is not None:
            return trace_.table(state, known), None  # a transposition whose stored value decides this window
        player = game.to_move(state)
        if player == CHANCE:
            v, move = chance_value(state, alpha, beta, depth)
        elif player == MAX:
            v, move = max_value(state, alpha, beta, depth, first)
        else:
            v, move = min_value(state, alpha, beta, depth, first)
        if table_ is not None:
            table_.store(state, depth, v, alpha, beta)
        return trace_.backup(state, v), move

    def max_value(state: Any, alpha: Value, beta: Value, depth: int, first: Value | None) -> tuple[Value, Any]:
        v: Value = -math.inf
        move = None
        moves = game.actions(state)
        for i, a in enumerate(moves):
            if i == 0 and first is not None:
                v2 = trace_.reuse(state, first)  # the probe searched this move already
            else:
                v2, _ = value(game.result(state, a), alpha, beta, depth - 1)
            if v2 > v:
                v, move = v2, a
                alpha = max(alpha, v)
            if v >= beta and (prune_ties or v > beta):
                trace_.cutoff(state, v, i + 1, len(moves))
                return v, move
        return v, move

    def min_value(state: Any, alpha: Value, beta: Value, depth: int, first: Value | None) -> tuple[Value, Any]:
        v: Value = math.inf
        move = None
        moves = game.actions(state)
        for i, a in enumerate(moves):
            if i == 0 and first is not None:
                v2 = trace_.reuse(state, first)  # the probe searched this move already
            else:
                v2, _ = value(game.result(state, a), alpha, beta, depth - 1)
            if v2 < v:
                v, move = v2, a
                beta = min(beta, v)
            if v <= alpha and (prune_ties or v < alpha):
                trace_.cutoff(state, v, i + 1, len(moves))
                return v, move
        return v, move

    def chance_value(state: Any, alpha: Value, beta: Value, depth: int) -> tuple[Value, None]:
        outcomes = game.chance_outcomes(state)  # on a game: the most probable first
        p = [p_j for _, p_j in outcomes]
        children = [game.result(state, r) for r, _ in outcomes]
        lower = Weighted(p, L)  # what is known of each outcome's value: at least lower[j] ...
        upper = Weighted(p, U)  # ... and at most upper[j]
        probed: list[Value | None] = [None] * len(p)  # the value of each outcome's first move, once probed

        if table_ is not None and depth > 1 and known_from_table(children, depth - 1, lower, upper):
            trace_.bounds(state, lower.total(), upper.total())  # the table's bounds on the outcomes
            if upper.total() <= alpha or lower.total() >= beta:
                return decided(state, lower, upper, alpha, 0, len(p))

        if probing and depth > 1:
            if _regular(children) in (MAX, MIN):
                for i, child in enumerate(children):
                    alpha_i, beta_i = child_window(p, lower, upper, i, alpha, beta)
                    trace_.window(state, i, alpha_i, beta_i)
                    if game.to_move(child) == MIN:  # MIN's first move is an upper bound on MIN's value
                        probed[i] = v = probe(child, max(alpha_i, L), U, depth - 1)
                        upper[i] = min(upper[i], v)
                    else:  # MAX's first move is a lower bound on MAX's value
                        probed[i] = v = probe(child, L, min(beta_i, U), depth - 1)
                        lower[i] = max(lower[i], v)
                    trace_.bounds(state, lower.total(), upper.total())
                    if upper.total() <= alpha or lower.total() >= beta:
                        return decided(state, lower, upper, alpha, 0, len(p))
            else:
                not_regular[0] += 1  # no probe here: searched as Star1 would

        for i, child in enumerate(children):
            alpha_i, beta_i = child_window(p, lower, upper, i, alpha, beta)
            trace_.window(state, i, alpha_i, beta_i)
            v, _ = value(child, max(alpha_i, L), min(beta_i, U), depth - 1, probed[i])
            if v <= alpha_i:  # fails low: the chance node is at most alpha
                upper[i] = v
                return decided(state, lower, upper, alpha, i + 1, len(p))
            if v >= beta_i:  # fails high: the chance node is at least beta
                lower[i] = v
                return decided(state, lower, upper, alpha, i + 1, len(p))
            lower[i] = upper[i] = v
            trace_.bounds(state, lower.total(), upper.total())
        return lower.total(), None

    def decided(
        state: Any, lower: Weighted, upper: Weighted, alpha: Value, searched: int, n: int
    ) -> tuple[Value, None]:
        """A cutoff at a chance node: at most alpha (return the upper bound) or at least beta (the lower)."""
        v = upper.total() if upper.total() <= alpha else lower.total()
        trace_.cutoff(state, v, searched, n)
        return v, None

    def known_from_table(children: list[Any], depth: int, lower: Weighted, upper: Weighted) -> bool:
        """Start each outcome from the bounds the table holds on it (Veness and Blair 2007); True if any."""
        assert table_ is not None
        found = False
        for j, child in enumerate(children):
            low, high = table_.bounds(child, depth)
            if low > L:
                lower[j], found = low, True
            if high < U:
                upper[j], found = high, True
        return found

    def probe(state: Any, alpha: Value, beta: Value, depth: int) -> Value:
        """Star2's probe: search only the first move below state."""
        trace_.visit(state, alpha, beta)
        v, _ = value(game.result(state, game.actions(state)[0]), alpha, beta, depth - 1)
        return trace_.probe(state, v)

    def _regular(children: list[Any]) -> str | None:
        """MAX or MIN when every outcome is a non-terminal state of that player (Star2 probes only then)."""
        if any(game.is_terminal(child) for child in children):
            return None
        players = {game.to_move(child) for child in children}
        return players.pop() if len(players) == 1 else None

    not_regular = [0]  # Star2 on a game: chance nodes searched without a probe, their outcomes not all MAX or MIN

    def root_value(state: Any, depth: int) -> tuple[Value, Any]:
        not_regular[0] = 0
        return value(state, -math.inf, math.inf, depth)

    def note() -> str | None:
        n = not_regular[0]
        if not n:
            return None
        return (
            f"{game_name(search.game.game)} is not a regular tree, so star2 searched {n:,} of its chance nodes "
            "as star1 would: their outcomes are not all MAX or all MIN states, and Star2's probe needs that"
        )

    search.note = note
    return search.run(root_value)


class Weighted:
    """The known bounds x_j of a chance node's outcomes, with sum_j p_j * x_j kept up to date.

    ``total()`` is that sum and ``total_without(i)`` the sum over j != i, each in
    constant time; infinite bounds are counted apart, so no inf - inf arises.
    """

    def __init__(self, p: Sequence[Value], start: Value) -> None:
        self.p = p
        self.x: list[Value] = [start] * len(p)
        if type(start) is float:  # an infinite bound (exact values are never floats)
            self.finite: Value = 0
            self.infinite = len(p)  # how many x_j are infinite (all of one sign: L or U)
            self.sign = start
        else:
            self.finite = start * sum(p) if start else 0
            self.infinite = 0
            self.sign = math.inf

    @classmethod
    def of(cls, p: Sequence[Value], values: Sequence[Value]) -> Weighted:
        """A Weighted holding the given values."""
        weighted = cls(p, 0)
        for j, value in enumerate(values):
            weighted[j] = value
        return weighted

    def __getitem__(self, j: int) -> Value:
        return self.x[j]

    def __setitem__(self, j: int, value: Value) -> None:
        old = self.x[j]
        self.x[j] = value
        if type(old) is float:
            self.infinite -= 1
            old = 0
        if type(value) is float:
            self.infinite += 1
            self.sign = value
            value = 0
        if value != old:
            self.finite += self.p[j] * (value - old)

    def total(self) -> Value:
        """sum_j p_j * x_j"""
        return self.sign if self.infinite else self.finite

    def total_without(self, i: int) -> Value:
        """sum_{j != i} p_j * x_j"""
        x_i = self.x[i]
        if type(x_i) is float:
            return self.sign if self.infinite > 1 else self.finite
        return self.sign if self.infinite else self.finite - self.p[i] * x_i


def child_window(
    p: Sequence[Value],
    lower: Weighted | Sequence[Value],
    upper: Weighted | Sequence[Value],
    i: int,
    alpha: Value,
    beta: Value,
) -> tuple[Value, Value]:
    """(alpha_i, beta_i): the values of outcome i that decide the chance node at once.

    ``lower`` and ``upper`` are what is known of each outcome (lists work too).

    >>> from fractions import Fraction
    >>> half = Fraction(1, 2)
    >>> child_window([half, half], [-2, -2], [2, 2], 0, Fraction(3, 2), math.inf)   # the AIMA exercise tree
    (Fraction(1, 1), inf)
    """
    lower = lower if isinstance(lower, Weighted) else Weighted.of(p, lower)
    upper = upper if isinstance(upper, Weighted) else Weighted.of(p, upper)
    return _edge(alpha, upper.total_without(i), p[i]), _edge(beta, lower.total_without(i), p[i])


def _edge(bound: Value, others: Value, p_i: Value) -> Value:
    """(bound - others) / p_i, guarding inf - inf (an unbounded window stays unbounded)."""
    if _infinite(bound) and bound == others:
        return bound
    if _infinite(others):
        return -others
    if isinstance(bound, float):  # an infinite bound stays infinite
        return bound
    gap = bound - others
    return gap / p_i if type(p_i) is Fraction else Fraction(gap) / p_i


def _infinite(x: Value) -> bool:
    """Values are exact numbers or the float infinities of open windows (never math.isinf on an exact 10**400)."""
    return isinstance(x, float) and math.isinf(x)
