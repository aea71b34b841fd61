"""What every search shares: checking its input once, running it, and its result.

The algorithm modules (``minimax.py``, ``alphabeta.py``, ``expectiminimax.py``,
``star.py``) hold only the textbook recursion; this module validates the tree
and options at the public entry point, picks the tracer, makes room for deep
trees, and packs the answer into a :class:`Result`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ._deep import call_deep
from .errors import SearchError, format_path
from .notation import parse
from .numbers import Number, exact, format_number
from .options import options as default_options
from .recorder import Counter, Recorder, Stats, Value
from .registry import info
from .trace import Trace
from .tree import KIND_WORDS, LEAF, Node, depth_first, facts, node_at, path_to

__all__ = ["Result", "Search", "as_tree"]

INF = math.inf


@dataclass(frozen=True, eq=False)
class Result:
    """The answer of a search.

    >>> import expectviz as ev
    >>> ev.alphabeta(ev.textbook("aima-fig-5.2"))
    Result(algorithm='alphabeta', value=3, best_move='a1', stats=Stats(nodes_visited=11, leaves_evaluated=7, cutoffs=1))
    """

    algorithm: str
    """The algorithm's name: ``minimax``, ``alphabeta``, ``expectiminimax``, ``star1`` or ``star2``."""
    exact_value: Number
    """The root's value, exactly (an int or a Fraction), from MAX's point of view."""
    best_move: str | int | None
    """The root player's best move: its label when the tree labels it, else the child index;
    None at a chance root or a leaf.  Ties go to the leftmost move."""
    stats: Stats
    """Nodes visited, leaves evaluated and cutoffs."""
    trace: Trace | None
    """Every event, or None when the search ran with ``trace=False``."""
    tree: Node
    """The tree searched."""

    @property
    def value(self) -> int | float:
        """The root's value as a plain number (int when whole, else float)."""
        v = self.exact_value
        if isinstance(v, int):
            return v
        if isinstance(v, Fraction) and v.denominator == 1:
            return int(v)
        return float(v)

    def __repr__(self) -> str:
        return (
            f"Result(algorithm={self.algorithm!r}, value={format_number(self.exact_value)}, "
            f"best_move={self.best_move!r}, stats={self.stats!r})"
        )

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """Jupyter display: the player (with a static diagram for saved notebooks)."""
        from .render.player import result_mimebundle

        bundle: dict[str, Any] = result_mimebundle(self)
        return bundle


def as_tree(tree: Node | str) -> Node:
    """Accept a Node, tree text or a textbook name."""
    if isinstance(tree, Node):
        from .tree import check

        return check(tree)
    if isinstance(tree, str):
        from .games.textbook import TEXTBOOK

        key = tree.strip()
        if key in TEXTBOOK:
            return TEXTBOOK[key].tree
        if re.fullmatch(r"[A-Za-z][\w.\-]*", key) and key not in ("max", "min", "chance"):
            raise SearchError(f"no textbook tree is called {key!r}; the names are: {', '.join(TEXTBOOK)}")
        return parse(tree)
    raise SearchError(f"expected a tree (a Node or tree text), not {type(tree).__name__}")


class Search:
    """One search's setup: the checked tree, the depth limit and the tracer."""

    def __init__(
        self,
        algorithm: str,
        tree: Node | str,
        *,
        depth: int | None,
        trace: bool,
        chance: bool,
        bounds: tuple[Any, Any] | None = None,
        regular: bool = False,
        options: dict[str, Any] | None = None,
        max_events: int | None = None,
    ) -> None:
        self.algorithm = algorithm
        self.info = info(algorithm)
        self.root = as_tree(tree)
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
            raise SearchError(f"depth must be a whole number >= 0 or None, not {depth!r}")
        self.height = facts(self.root).height
        self.depth = depth if depth is not None else self.height + 1
        self.bounds: tuple[Value, Value] = (-INF, INF)
        if bounds is not None:
            self.bounds = _check_bounds(bounds, algorithm)
        self.options = dict(options or {})
        if not isinstance(trace, bool):
            raise SearchError(f"trace must be True or False, not {trace!r}")
        self._check_tree(chance=chance, regular=regular)
        if max_events is None:
            max_events = default_options.max_events
        elif isinstance(max_events, bool) or not isinstance(max_events, int) or max_events < 1:
            raise SearchError(f"max_events must be a whole number >= 1 or None, not {max_events!r}")
        self.tracer: Counter | Recorder = Counter()
        if trace:
            levels = min(self.height, self.depth) + 2
            reserve = 5 * levels + 2 * facts(self.root).widest + 16
            self.tracer = Recorder(windowed=self.info.windowed, max_events=max_events, reserve=reserve)

    def _check_tree(self, *, chance: bool, regular: bool) -> None:
        known = facts(self.root)
        if known.has_chance and not chance:
            raise SearchError(
                f"{self.algorithm} has no rule for chance nodes, and this tree has them; "
                "use expectiminimax (exact), or star1/star2 (with pruning)"
            )
        lo, hi = self.bounds
        if not (lo <= known.least and known.greatest <= hi):
            bad = known.least if known.least < lo else known.greatest
            path = _find_value(self.root, bad)
            raise SearchError(
                f"{_where(node_at(self.root, path), path)} has value {format_number(bad)}, outside the bounds "
                f"[{format_number(lo)}, {format_number(hi)}] given to {self.algorithm}"
            )
        if regular and known.irregular is not None:
            path = known.irregular
            kinds = sorted({c.kind for c in node_at(self.root, path).children})
            raise SearchError(
                f"star2 needs a regular tree (a chance node's children all MAX, all MIN or all leaves), "
                f"but {_where(node_at(self.root, path), path)} has children of kinds {', '.join(kinds)}; use star1"
            )
        if self.depth <= known.height:
            self._check_evaluations()

    def _check_evaluations(self) -> None:
        """Every inner node the depth limit stops at needs a static evaluation (nothing below it is read)."""
        stack: list[tuple[Node, int]] = [(self.root, 0)]
        while stack:
            node, level = stack.pop()
            if node.kind == LEAF:
                continue
            if level == self.depth:
                if node.evaluation is None:
                    path = path_to(self.root, node)
                    raise SearchError(
                        f"the depth limit {self.depth} stops the search at {_where(node, path)}, which has no "
                        f"static evaluation; give one in brackets, e.g. {node.kind} [3] (...), or raise the depth"
                    )
                continue
            stack.extend((child, level + 1) for child in node.children)

    def run(self, value_of_root: Callable[[Node, int], tuple[Value, int | None]]) -> Result:
        """Run ``value_of_root(root, depth)`` and pack the result."""
        levels = min(self.height, self.depth) + 2
        v, move = call_deep(value_of_root, self.root, self.depth, depth=levels, python_only=True)
        tracer = self.tracer
        if isinstance(tracer, Recorder):
            trace: Trace | None = Trace(
                self.root, tracer, algorithm=self.algorithm, bounds=self.bounds, options=self.options
            )
            stats = tracer.stats()
        else:
            trace = None
            stats = tracer.stats()
        best: str | int | None = None
        if move is not None:
            best = self.root.children[move].move
            if best is None:
                best = move
        if isinstance(v, float):  # only an infinity could be a float here
            raise SearchError(f"{self.algorithm} produced the non-number {v!r}")  # pragma: no cover
        return Result(self.algorithm, v, best, stats, trace, self.root)


def _check_bounds(bounds: tuple[Any, Any], algorithm: str) -> tuple[Value, Value]:
    if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
        raise SearchError(f"{algorithm} needs bounds=(L, U), the least and greatest leaf values; got {bounds!r}")
    out: list[Value] = []
    for b in bounds:
        if isinstance(b, float) and math.isinf(b):
            out.append(b)
        else:
            try:
                out.append(exact(b, "bound"))
            except ValueError:
                raise SearchError(f"bounds must be numbers (or +/-inf), not {b!r}") from None
    lo, hi = out
    if not lo < hi:
        raise SearchError(f"bounds must satisfy L < U; got [{format_number(lo)}, {format_number(hi)}]")
    return lo, hi


def _where(node: Node, path: tuple[int, ...]) -> str:
    """"the MIN node C at path (1,)": a node for messages, in the words the sentences use."""
    label = node.name or node.move
    at = "the root" if not path else format_path(path)
    return f"the {KIND_WORDS[node.kind]} {label} at {at}" if label else f"the {KIND_WORDS[node.kind]} at {at}"


def _find_value(root: Node, value: Number) -> tuple[int, ...]:
    for entering, path, node in depth_first(root):
        if entering and (node.value if node.kind == LEAF else node.evaluation) == value:
            return tuple(path)
    return ()  # pragma: no cover - the value came from this tree
