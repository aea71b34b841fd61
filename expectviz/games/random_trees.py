"""Random game trees, seeded, for experiments and fresh practice.

Every generator takes a ``seed`` and draws from its own ``random.Random(seed)``,
never from the global random state: the same arguments give the same tree on
every run.  Every tree comes back checked (:func:`expectviz.tree.check`).

* :func:`uniform_tree` -- alternating MAX/MIN levels, random whole-number leaves.
* :func:`ordered_tree` -- the same kind of tree with its children put in the best,
  worst or a random order for alpha-beta; :func:`minimal_tree_leaves` is the
  Knuth-Moore count that best ordering reaches.
* :func:`chance_tree` -- regular trees with chance levels, for expectiminimax,
  Star1 and Star2.
* :func:`random_exercise` -- a small named tree to practise on.

With perfect move ordering alpha-beta evaluates exactly the leaves of the
minimal tree (Knuth and Moore 1975):

>>> import expectviz as ev
>>> tree = ordered_tree(3, 4, seed=7, ordering="best")
>>> ev.alphabeta(tree, trace=False).stats.leaves_evaluated, minimal_tree_leaves(3, 4)
(17, 17)
>>> ev.minimax(tree, trace=False).stats.leaves_evaluated
81

Every value is from MAX's point of view.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from fractions import Fraction

from ..numbers import Number
from ..tree import CHANCE, LEAF, MAX, MIN, Node, check

__all__ = [
    "ORDERINGS",
    "EXERCISE_BOUNDS",
    "minimal_tree_leaves",
    "uniform_tree",
    "ordered_tree",
    "chance_tree",
    "random_exercise",
]

ORDERINGS = ("best", "worst", "random")
"""The move orderings :func:`ordered_tree` and :func:`chance_tree` know."""

EXERCISE_BOUNDS = (0, 20)
"""The least and greatest leaf of a :func:`random_exercise` (the ``bounds`` for star1 and star2)."""

MAX_LEAVES = 1_000_000
"""The largest number of leaves a generator builds (a guard against typing depth=30 by mistake)."""

Seed = int | str
"""A seed for ``random.Random``: a whole number or a text."""

_Item = tuple[Number, Node]
"""A subtree with its exact (expecti)minimax value, while a tree is built from the leaves up."""


# ---------------------------------------------------------------- the minimal tree


def minimal_tree_leaves(branching: int, depth: int) -> int:
    """The leaves alpha-beta evaluates on a perfectly ordered uniform tree (Knuth and Moore 1975).

    ``b**ceil(d/2) + b**floor(d/2) - 1``: the leaves of the minimal tree, which
    any search must look at to prove the minimax value.  Minimax looks at all
    ``b**d``.

    >>> [minimal_tree_leaves(3, d) for d in range(1, 7)]
    [3, 5, 11, 17, 35, 53]
    >>> minimal_tree_leaves(2, 0), 3**4
    (1, 81)
    """
    _check_whole("branching", branching, least=1)
    _check_whole("depth", depth, least=0)
    return int(branching ** math.ceil(depth / 2) + branching ** (depth // 2) - 1)


# ---------------------------------------------------------------- MAX/MIN trees


def uniform_tree(
    branching: int,
    depth: int,
    *,
    seed: Seed,
    low: int = -100,
    high: int = 100,
    first: str = MAX,
) -> Node:
    """A uniform MAX/MIN tree: every inner node has ``branching`` children, every leaf is ``depth`` deep.

    Levels alternate, starting with ``first`` at the root; leaves are whole
    numbers drawn uniformly from ``low`` to ``high`` (both included), so values
    may repeat.

    >>> from expectviz.notation import to_text
    >>> to_text(uniform_tree(2, 2, seed=1, low=0, high=9))
    'max(min(2, 9), min(1, 4))'
    >>> uniform_tree(3, 5, seed=1) == uniform_tree(3, 5, seed=1)
    True
    """
    kinds = _alternating(depth, first)
    _check_whole("low", low)
    _check_whole("high", high)
    if low > high:
        raise ValueError(f"low must be at most high; got low={low!r}, high={high!r}")
    rng = _rng(seed)
    n = _leaf_count([branching] * depth)
    leaves = [rng.randint(low, high) for _ in range(n)]
    return _build(kinds, [branching] * depth, leaves, rng, ordering="random", probabilities="equal")


def ordered_tree(branching: int, depth: int, *, seed: Seed, ordering: str, first: str = MAX) -> Node:
    """A uniform MAX/MIN tree with its moves in the best, worst or a random order for alpha-beta.

    The leaves are a random permutation of ``1 .. branching**depth``, all
    distinct, so no two moves tie.  The same seed gives the same game for every
    ordering; only the order of the children differs:

    * ``"best"``: at every node the best move first (MAX: children by
      descending minimax value, MIN: ascending).  Alpha-beta then evaluates
      exactly :func:`minimal_tree_leaves` leaves.
    * ``"worst"``: the worst move first (MAX ascending, MIN descending).
    * ``"random"``: the order as drawn, which is a uniformly random one.

    >>> from expectviz.notation import to_text
    >>> to_text(ordered_tree(2, 2, seed=3, ordering="best"))
    'max(min(2, 3), min(1, 4))'
    >>> to_text(ordered_tree(2, 2, seed=3, ordering="worst"))
    'max(min(4, 1), min(3, 2))'
    """
    kinds = _alternating(depth, first)
    ordering = _choice("ordering", ordering, ORDERINGS)
    rng = _rng(seed)
    n = _leaf_count([branching] * depth)
    leaves: list[Number] = list(range(1, n + 1))
    rng.shuffle(leaves)
    return _build(kinds, [branching] * depth, leaves, rng, ordering=ordering, probabilities="equal")


# ---------------------------------------------------------------- trees with chance


def chance_tree(
    branching: int,
    outcomes: int,
    depth: int,
    *,
    seed: Seed,
    bounds: tuple[int, int] = (-10, 10),
    pattern: Sequence[str] = (MAX, CHANCE, MIN, CHANCE),
    probabilities: str = "equal",
    ordering: str = "random",
) -> Node:
    """A regular tree with chance levels, for expectiminimax, Star1 and Star2.

    Level ``i`` below the root (the root is level 0) is of kind
    ``pattern[i % len(pattern)]``; a MAX or MIN node has ``branching``
    children, a chance node ``outcomes``.  ``depth`` counts every level,
    chance levels included, as the searches' ``depth`` does.  Leaves are whole
    numbers drawn uniformly from ``bounds`` (both included), so
    ``bounds`` can be given to star1 and star2 as it is.

    Args:
        probabilities: ``"equal"`` (every outcome 1/outcomes) or ``"random"``
            (random fractions that sum to exactly 1).
        ordering: ``"random"`` (as drawn), ``"best"`` (MAX and MIN nodes best
            move first by expectiminimax value, chance nodes most likely outcome
            first, which prunes most; Ballard 1983) or ``"worst"`` (the reverse).

    The tree is regular (a chance node's children are all of one kind), as
    Star2 needs, as long as the pattern never puts two chance levels in a row.

    >>> from expectviz.notation import to_text
    >>> to_text(chance_tree(2, 2, 2, seed=4, bounds=(0, 9)))
    'max(chance(3, 4), chance(1, 6))'
    >>> to_text(chance_tree(2, 2, 2, seed=4, bounds=(0, 9), probabilities="random"))
    'max(chance(8/11: 3, 3/11: 4), chance(1, 6))'
    >>> to_text(chance_tree(2, 2, 2, seed=4, bounds=(0, 9), probabilities="random", ordering="best"))
    'max(chance(1, 6), chance(8/11: 3, 3/11: 4))'
    """
    if isinstance(pattern, str) or not isinstance(pattern, Sequence) or not pattern:
        raise ValueError(f"pattern must be a non-empty sequence of 'max', 'min' and 'chance'; got {pattern!r}")
    for kind in pattern:
        _choice("pattern entry", kind, (MAX, MIN, CHANCE))
    _check_whole("branching", branching, least=1)
    _check_whole("outcomes", outcomes, least=1)
    _check_whole("depth", depth, least=0)
    if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
        raise ValueError(f"bounds must be a pair (L, U) of whole numbers; got {bounds!r}")
    low, high = bounds
    _check_whole("the lower bound", low)
    _check_whole("the upper bound", high)
    if low > high:
        raise ValueError(f"bounds must satisfy L <= U; got {bounds!r}")
    probabilities = _choice("probabilities", probabilities, ("equal", "random"))
    ordering = _choice("ordering", ordering, ORDERINGS)
    kinds = [pattern[level % len(pattern)] for level in range(depth)]
    widths = [outcomes if kind == CHANCE else branching for kind in kinds]
    rng = _rng(seed)
    n = _leaf_count(widths)
    leaves: list[Number] = [rng.randint(low, high) for _ in range(n)]
    return _build(kinds, widths, leaves, rng, ordering=ordering, probabilities=probabilities)


# ---------------------------------------------------------------- exercises


def random_exercise(seed: Seed, *, kind: str = "minimax", size: str = "small") -> Node:
    """A small tree to practise on, named like AIMA Fig. 5.2 (A, B, C, ...; moves a1, b2, ...).

    The root MAX node A has three moves.  Leaves are whole numbers from 0 to 20
    (:data:`EXERCISE_BOUNDS`, the bounds to give star1 and star2).

    * ``kind="minimax", size="small"``: MIN replies B, C, D with 2 or 3 moves each.
    * ``kind="minimax", size="medium"``: MIN replies with 2 moves, then MAX with 2.
    * ``kind="chance", size="small"``: each move is followed by a fair coin flip.
    * ``kind="chance", size="medium"``: a fair coin flip, then MIN with 2 moves
      (the shape of the AIMA exercise on pruning at chance nodes).

    The same seed gives the same exercise:

    >>> from expectviz.notation import to_text
    >>> to_text(random_exercise(1))
    'max A(a1: min B(b1: 3, b2: 15), a2: min C(c1: 14, c2: 15), a3: min D(d1: 20, d2: 12, d3: 6))'
    >>> import expectviz as ev
    >>> ev.minimax(random_exercise(1)).value
    14
    >>> exercise = random_exercise(1, kind="chance")
    >>> to_text(exercise)
    'max A(a1: chance B(heads: 4, tails: 18), a2: chance C(heads: 2, tails: 8), a3: chance D(heads: 3, tails: 15))'
    >>> ev.expectiminimax(exercise).value, ev.expectiminimax(exercise).best_move
    (11, 'a1')
    """
    kind = _choice("kind", kind, ("minimax", "chance"))
    size = _choice("size", size, ("small", "medium"))
    rng = _rng(seed)
    low, high = EXERCISE_BOUNDS
    letters = iter("ABCDEFGHIJKLMNOPQRSTUVWXYZ")

    # Each level: the kind of node there and how many children it has.
    levels: list[tuple[str, int | None]]
    if kind == "minimax":
        levels = [(MAX, 3), (MIN, None)] if size == "small" else [(MAX, 3), (MIN, 2), (MAX, 2)]
    else:
        levels = [(MAX, 3), (CHANCE, 2)] if size == "small" else [(MAX, 3), (CHANCE, 2), (MIN, 2)]

    # Names are given level by level, left to right, as in the textbook figures.
    def named_level(count: int) -> list[str]:
        return [next(letters) for _ in range(count)]

    names = [named_level(1)]
    widths: list[list[int]] = []
    for level, (_, width) in enumerate(levels):
        widths.append([width if width is not None else rng.randint(2, 3) for _ in names[level]])
        if level + 1 < len(levels):
            names.append(named_level(sum(widths[level])))

    leaf_count = sum(widths[-1])
    values = [rng.randint(low, high) for _ in range(leaf_count)]

    # Build from the leaves up: the children of level `level` are the nodes built for level + 1.
    below: list[Node] = [Node(LEAF, value=v) for v in values]
    for level in range(len(levels) - 1, -1, -1):
        node_kind = levels[level][0]
        built: list[Node] = []
        start = 0
        for name, width in zip(names[level], widths[level], strict=True):
            children = below[start : start + width]
            start += width
            if node_kind == CHANCE:
                moves = ["heads", "tails"] if width == 2 else [f"{name.lower()}{i + 1}" for i in range(width)]
                children = [
                    dataclasses.replace(child, move=move, probability=Fraction(1, width))
                    for child, move in zip(children, moves, strict=True)
                ]
            else:
                children = [
                    dataclasses.replace(child, move=f"{name.lower()}{i + 1}") for i, child in enumerate(children)
                ]
            built.append(Node(node_kind, children=tuple(children), name=name))
        below = built
    return check(below[0])


# ---------------------------------------------------------------- building


def _build(
    kinds: Sequence[str],
    widths: Sequence[int],
    leaves: Sequence[Number],
    rng: random.Random,
    *,
    ordering: str,
    probabilities: str,
) -> Node:
    """Build a regular tree from its leaves up, level by level (no recursion, so depth is no limit).

    ``kinds[i]`` and ``widths[i]`` are the kind and number of children of the
    nodes at level ``i``; ``leaves`` are listed left to right.  Children are
    reordered by their exact values as the ordering asks.
    """
    items: list[_Item] = [(value, Node(LEAF, value=value)) for value in leaves]
    for level in range(len(kinds) - 1, -1, -1):
        kind, width = kinds[level], widths[level]
        parents: list[_Item] = []
        for start in range(0, len(items), width):
            parents.append(_parent(kind, items[start : start + width], rng, ordering, probabilities))
        items = parents
    return check(items[0][1])


def _parent(kind: str, children: list[_Item], rng: random.Random, ordering: str, probabilities: str) -> _Item:
    """One inner node over ``children``, with its value; children put in order."""
    if kind == CHANCE:
        n = len(children)
        if probabilities == "random":
            weights = [rng.randint(1, 9) for _ in range(n)]
            total = sum(weights)
            shares = [Fraction(w, total) for w in weights]
        else:
            shares = [Fraction(1, n)] * n
        outcomes = list(zip(shares, children, strict=True))
        if ordering != "random":  # most likely first (stable: ties keep the drawn order)
            outcomes.sort(key=lambda outcome: outcome[0], reverse=ordering == "best")
        value: Number = sum((p * v for p, (v, _) in outcomes), Fraction(0))
        if isinstance(value, Fraction) and value.denominator == 1:
            value = int(value)
        nodes = tuple(dataclasses.replace(child, probability=p) for p, (_, child) in outcomes)
        return value, Node(CHANCE, children=nodes)
    if ordering != "random":
        best_first = ordering == "best"
        # MAX: descending values best first; MIN: ascending.  Worst is the reverse.
        children = sorted(children, key=lambda item: item[0], reverse=(kind == MAX) == best_first)
    values = [v for v, _ in children]
    value = max(values) if kind == MAX else min(values)
    return value, Node(kind, children=tuple(child for _, child in children))


# ---------------------------------------------------------------- checking options


def _rng(seed: Seed) -> random.Random:
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise TypeError(f"seed must be a whole number or a text, not {seed!r} (None would not be reproducible)")
    return random.Random(seed)


def _check_whole(what: str, x: object, *, least: int | None = None) -> None:
    if isinstance(x, bool) or not isinstance(x, int):
        raise TypeError(f"{what} must be a whole number, not {x!r}")
    if least is not None and x < least:
        raise ValueError(f"{what} must be at least {least}, not {x!r}")


def _choice(what: str, x: str, allowed: Sequence[str]) -> str:
    if x not in allowed:
        raise ValueError(f"{what} {x!r} is not one of " + ", ".join(repr(a) for a in allowed))
    return x


def _alternating(depth: int, first: str) -> list[str]:
    _check_whole("depth", depth, least=0)
    first = _choice("first", first, (MAX, MIN))
    second = MIN if first == MAX else MAX
    return [first if level % 2 == 0 else second for level in range(depth)]


def _leaf_count(widths: Sequence[int]) -> int:
    for width in widths:
        _check_whole("branching", width, least=1)
    n = math.prod(widths)
    if n > MAX_LEAVES:
        raise ValueError(f"that tree would have {n:,} leaves; at most {MAX_LEAVES:,} are built")
    return n
