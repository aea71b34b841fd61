"""What every search shares: checking its input once, running it, and its result.

The algorithm modules (``minimax.py``, ``alphabeta.py``, ``expectiminimax.py``,
``star.py``) hold only the textbook recursion over a game (:mod:`expectviz.game`);
this module validates the game or tree and the options at the public entry
point, picks the tracer, adds what the options ask for (a move-ordering key, a
transposition table, iterative deepening with node and time budgets), makes
room for deep trees, and packs the answer into a :class:`Result`.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ._deep import call_deep
from .errors import SearchError, format_path
from .game import GameView, TreeGame, as_game, game_name
from .notation import parse
from .numbers import Number, exact, format_number
from .options import options as default_options
from .recorder import Counter, Recorder, Stats, Value
from .registry import info
from .trace import Trace
from .tree import KIND_WORDS, LEAF, Node, depth_first, facts, node_at, path_to

__all__ = ["Result", "Search", "Iteration", "TranspositionTable", "as_tree", "MAX_PLIES"]

INF = math.inf

MAX_PLIES = 10_000
"""How far below the root a game search without a depth limit may go before it stops with a message."""


@dataclass(frozen=True, slots=True)
class Iteration:
    """One depth of an iterative-deepening search."""

    depth: int
    """The depth limit of this iteration."""
    value: Value
    """The root's value at this depth."""
    best_move: str | int | None
    """The best move at this depth."""
    stats: Stats
    """What this iteration searched."""
    seconds: float
    """How long it took."""
    complete: bool
    """True when the iteration finished (an iteration a budget stopped is not used)."""


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
    source: Node | None
    """The tree searched, when it was an explicit tree (a game's explored tree is ``tree``)."""
    best_action: Any = None
    """The best move as the game names it (a game's action; a tree's child index)."""
    game: Any = None
    """The game searched (a :class:`~expectviz.game.TreeGame` for an explicit tree)."""
    depth: int | None = None
    """The depth limit searched to (None: to the end of the game)."""
    iterations: tuple[Iteration, ...] = ()
    """Iterative deepening: each depth searched, the last complete one giving this result."""
    note: str | None = None
    """A one-line remark on how the search went: a budget that stopped iterative deepening, or Star2 searching
    chance nodes of a game that is not regular as Star1 would."""

    @property
    def tree(self) -> Node | None:
        """The tree searched: the explicit tree, or the part of a game's tree the traced search explored.

        None for a game searched with ``trace=False`` (nothing was kept).
        """
        if self.source is not None:
            return self.source
        return self.trace.tree if self.trace is not None else None

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
    """Accept a Node, tree text or a textbook name (a game's name is refused: this needs a tree)."""
    if isinstance(tree, Node):
        from .tree import check

        return check(tree)
    if isinstance(tree, str):
        from .games.textbook import TEXTBOOK

        key = tree.strip()
        if key in TEXTBOOK:
            return TEXTBOOK[key].tree
        if re.fullmatch(r"[A-Za-z][\w.\-]*", key) and key not in ("max", "min", "chance"):
            from .games import GAMES

            if key in GAMES:
                raise SearchError(f"{key!r} is a game, not a tree; search it (ev.minimax({key!r})) to get its tree")
            raise SearchError(
                f"no textbook tree or game is called {key!r}; the trees are: {', '.join(TEXTBOOK)}; "
                f"the games are: {', '.join(GAMES)}"
            )
        return parse(tree)
    raise SearchError(f"expected a tree (a Node or tree text), not {type(tree).__name__}")


class Search:
    """One search's setup: the game (or checked tree), the depth limit, the options and the tracer."""

    def __init__(
        self,
        algorithm: str,
        tree: Any,
        *,
        depth: int | None,
        trace: bool,
        chance: bool,
        bounds: tuple[Any, Any] | None = None,
        regular: bool = False,
        options: dict[str, Any] | None = None,
        max_events: int | None = None,
        order: Callable[[Any, Any], Any] | None = None,
        table: bool = False,
        iterative: bool = False,
        max_nodes: int | None = None,
        time_limit: float | None = None,
    ) -> None:
        self.algorithm = algorithm
        self.info = info(algorithm)
        game = as_game(tree)
        self.is_tree = isinstance(game, TreeGame)
        self.root: Node | None = game.tree if self.is_tree else None
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
            raise SearchError(f"depth must be a whole number >= 0 or None, not {depth!r}")
        if not isinstance(trace, bool):
            raise SearchError(f"trace must be True or False, not {trace!r}")
        for flag, what in ((table, "table"), (iterative, "iterative")):
            if not isinstance(flag, bool):
                raise SearchError(f"{what} must be True or False, not {flag!r}")
        if order is not None and not callable(order):
            raise SearchError(f"order must be a key function key(state, move) (smaller first) or None, not {order!r}")
        self.max_nodes = _check_budget(max_nodes, "max_nodes", whole=True)
        self.time_limit = _check_budget(time_limit, "time_limit", whole=False)
        if (self.max_nodes is not None or self.time_limit is not None) and not iterative:
            raise SearchError("max_nodes and time_limit are budgets for iterative deepening; add iterative=True")
        self.iterative = iterative
        self.bounds: tuple[Value, Value] = (-INF, INF)
        given_bounds = bounds is not None
        if bounds is None and self.info.needs_bounds and not self.is_tree:
            bounds = getattr(game, "value_range", None)
        if bounds is not None:
            self.bounds = _check_bounds(bounds, algorithm)
        elif self.info.needs_bounds:
            raise SearchError(
                f"{algorithm} needs bounds=(L, U), the least and greatest value a leaf can have; "
                "(-inf, inf) is allowed but prunes only below MAX and MIN nodes"
            )
        self.options = dict(options or {})
        if self.root is not None:
            self.height = facts(self.root).height
            self.depth = depth if depth is not None else self.height + 1
            self._check_tree(chance=chance, regular=regular)
            self.levels = min(self.height, self.depth) + 2
            self.widest = facts(self.root).widest
        else:
            if not chance and getattr(game, "has_chance", False):
                raise SearchError(
                    f"{algorithm} has no rule for chance nodes, and {game_name(game)} has them; "
                    "use expectiminimax (exact), or star1/star2 (with pruning)"
                )
            self.height = 0
            self.depth = depth if depth is not None else MAX_PLIES
            self.levels = self.depth + 2
            self.widest = 1_000
        self.materialise = self.root is None or order is not None
        """Build the explored tree from the trace: a game's, or a tree searched in another order than its own."""
        builtin = self.is_tree or type(game).__module__.startswith("expectviz.")
        self.game = GameView(
            game,
            order=order,
            checked=not builtin,
            chance=chance,
            algorithm=algorithm,
            likely_first=self.info.star and not self.is_tree,  # Star1/Star2 search the most probable outcomes first
        )
        if self.info.needs_bounds and not self.is_tree and (given_bounds or not builtin):
            _check_values(self.game, self.bounds, algorithm)
        if self.root is None and depth is None and not iterative:
            self.game.evaluate = _ply_limit(game)
        self.table: TranspositionTable | None = TranspositionTable(self.game.table_key) if table else None
        if max_events is None:
            max_events = default_options.max_events
        elif isinstance(max_events, bool) or not isinstance(max_events, int) or max_events < 1:
            raise SearchError(f"max_events must be a whole number >= 1 or None, not {max_events!r}")
        self.max_events = max_events
        self.trace = trace
        self.tracer: Counter | Recorder = self._tracer()
        self.note: Callable[[], str | None] | None = None
        """Set by an algorithm that has a one-line remark on the search it ran (read after each run)."""

    def _tracer(self) -> Counter | Recorder:
        if not self.trace:
            return Counter()
        reserve = 5 * self.levels + 2 * self.widest + 16
        return Recorder(
            windowed=self.info.windowed, max_events=self.max_events, reserve=reserve, states=self.materialise
        )

    def _check_tree(self, *, chance: bool, regular: bool) -> None:
        assert self.root is not None
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
        assert self.root is not None
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

    def run(self, value_of_root: Callable[[Any, int], tuple[Value, Any]]) -> Result:
        """Run ``value_of_root(initial_state, depth)`` and pack the result (deepening first, if asked)."""
        if self.iterative:
            return self._deepen(value_of_root)
        return self._run_once(value_of_root, self.depth)

    def _run_once(self, value_of_root: Callable[[Any, int], tuple[Value, Any]], depth: int) -> Result:
        game = self.game
        v, move = call_deep(value_of_root, game.initial, depth, depth=self.levels, python_only=True)
        note = self.note() if self.note is not None else None
        tracer = self.tracer
        if isinstance(tracer, Recorder):
            trace: Trace | None = Trace(
                None if self.materialise else self.root,
                tracer,
                algorithm=self.algorithm,
                bounds=self.bounds,
                options=self.options,
                game=game if self.materialise else None,
                note=note,
            )
        else:
            trace = None
        stats = tracer.stats()
        best: str | int | None = None
        if move is not None:
            if self.root is not None:
                best = self.root.children[move].move
                if best is None:
                    best = move
            else:
                best = game.move_label(game.initial, move)
        if isinstance(v, float):  # only an infinity could be a float here
            raise SearchError(f"{self.algorithm} produced the non-number {v!r}")  # pragma: no cover
        limit = None if self.root is None and self.depth == MAX_PLIES and not self.iterative else depth
        if self.root is not None and depth > self.height:
            limit = None
        source = self.root if trace is None or not self.materialise else None  # else trace.tree, in search order
        return Result(self.algorithm, v, best, stats, trace, source, move, game.game, limit, note=note)

    def _deepen(self, value_of_root: Callable[[Any, int], tuple[Value, Any]]) -> Result:
        """Iterative deepening: depth 1, 2, ... until a depth reaches the end of the game or a budget runs out.

        The first iteration always finishes; a budget that runs out during a later
        one stops it, and the result is the last iteration that finished.
        """
        game = self.game
        evaluate = game.evaluate
        cut_off = [False]

        def noting_evaluate(state: Any) -> Any:
            cut_off[0] = True
            return evaluate(state)

        game.evaluate = noting_evaluate
        is_terminal = game.is_terminal
        start = time.perf_counter()
        done: list[Iteration] = []
        best: Result | None = None
        note = None
        spent = 0
        for depth in range(1, self.depth + 1):
            cut_off[0] = False
            self.tracer.restart()
            game.is_terminal = is_terminal
            if best is not None:
                budget = _Budget(self.max_nodes - spent if self.max_nodes is not None else None, self.time_limit, start)
                game.is_terminal = budget.wrap(is_terminal, self.tracer)
            began = time.perf_counter()
            try:
                result = self._run_once(value_of_root, depth)
            except _OutOfBudget as stop:
                partial = Stats(stop.begun, stop.stats.leaves_evaluated, stop.stats.cutoffs, stop.stats.table_hits)
                done.append(Iteration(depth, math.nan, None, partial, time.perf_counter() - began, False))
                note = (
                    f"iterative deepening stopped during depth {depth}, {stop} after {spent + stop.begun:,} nodes "
                    f"in all; the result is depth {depth - 1}'s"
                )
                break
            spent += result.stats.nodes_visited
            done.append(
                Iteration(depth, result.exact_value, result.best_move, result.stats, time.perf_counter() - began, True)
            )
            best = result
            if not cut_off[0]:
                break  # nothing was cut off: this depth searched to the end of the game
        game.evaluate, game.is_terminal = evaluate, is_terminal
        assert best is not None
        total = Stats(
            sum(i.stats.nodes_visited for i in done),
            sum(i.stats.leaves_evaluated for i in done),
            sum(i.stats.cutoffs for i in done),
            sum(i.stats.table_hits for i in done),
        )
        return Result(
            best.algorithm,
            best.exact_value,
            best.best_move,
            total,
            best.trace,
            best.source,
            best.best_action,
            best.game,
            best.depth,
            tuple(done),
            "; ".join(n for n in (best.note, note) if n) or None,
        )


class TranspositionTable:
    """What earlier searches of a position found: its value, or bounds on it, at a given depth.

    Positions reached by different move orders (transpositions) are searched
    once.  An entry is keyed by the position and the depth left to search, so a
    depth-limited value is only reused at the same depth.  It holds a lower and
    an upper bound on the value, both kept (Veness and Blair 2007): a search
    whose value fell inside its window makes them equal (the exact value); one
    that failed high (v >= beta) raises the lower bound to v, one that failed
    low (v <= alpha) lowers the upper bound to v.  A lookup answers only when
    the entry decides the search: an exact value, a lower bound >= beta, or an
    upper bound <= alpha (so the table never changes a value).  Star1 and Star2
    also read the bounds of a chance node's outcomes before searching any of
    them (:meth:`bounds`).
    """

    def __init__(self, key: Callable[[Any], Any] | None = None) -> None:
        self.entries: dict[Any, tuple[Value, Value]] = {}
        self.key = key

    def __len__(self) -> int:
        return len(self.entries)

    def _key(self, state: Any, depth: int) -> Any:
        return (self.key(state) if self.key else state, depth)

    def lookup(self, state: Any, depth: int, alpha: Value = -INF, beta: Value = INF) -> Value | None:
        """The stored value when it decides the search of ``state`` with window (alpha, beta), else None."""
        try:
            entry = self.entries.get(self._key(state, depth))
        except TypeError:
            raise SearchError(
                f"table=True keeps positions in a dictionary, so states must be hashable; this game's states are "
                f"{type(state).__name__}s like {_short(state)}: make them tuples (or give the game a table_key method)"
            ) from None
        if entry is None:
            return None
        lower, upper = entry
        if lower == upper or lower >= beta:
            return lower
        if upper <= alpha:
            return upper
        return None

    def bounds(self, state: Any, depth: int) -> tuple[Value, Value]:
        """What the table knows of ``state``'s value at ``depth``: (lower, upper), (-inf, inf) when nothing."""
        return self.entries.get(self._key(state, depth), _UNKNOWN)

    def store(self, state: Any, depth: int, v: Value, alpha: Value = -INF, beta: Value = INF) -> None:
        """Remember what searching ``state`` with window (alpha, beta) to ``depth`` found."""
        key = self._key(state, depth)
        lower, upper = self.entries.get(key, _UNKNOWN)
        if v <= alpha:  # failed low: the value is at most v
            upper = min(upper, v)
        elif v >= beta:  # failed high: the value is at least v
            lower = max(lower, v)
        else:
            lower = upper = v
        self.entries[key] = (lower, upper)


_UNKNOWN: tuple[Value, Value] = (-INF, INF)


class _OutOfBudget(Exception):
    def __init__(self, reason: str, stats: Stats, begun: int) -> None:
        super().__init__(reason)
        self.stats = stats
        self.begun = begun
        """Nodes whose search began in the stopped iteration."""


class _Budget:
    """Stops an iteration when the node budget or the time budget runs out.

    It counts the terminal tests, which every algorithm makes once for each node it visits.
    """

    def __init__(self, nodes: int | None, seconds: float | None, start: float) -> None:
        self.nodes = nodes
        self.deadline = start + seconds if seconds is not None else None
        self.count = 0

    def wrap(self, is_terminal: Callable[[Any], bool], tracer: Counter | Recorder) -> Callable[[Any], bool]:
        def counted_is_terminal(state: Any) -> bool:
            self.count += 1
            if self.nodes is not None and self.count > self.nodes:
                raise _OutOfBudget("when the node budget max_nodes ran out", tracer.stats(), self.count - 1)
            if self.deadline is not None and self.count % 256 == 0 and time.perf_counter() > self.deadline:
                raise _OutOfBudget("when the time budget time_limit ran out", tracer.stats(), self.count)
            return is_terminal(state)

        return counted_is_terminal


def _check_values(view: GameView, bounds: tuple[Value, Value], algorithm: str) -> None:
    """Make a utility or evaluation outside the bounds Star1/Star2 prune with an error naming the position."""
    low, high = bounds
    if low == -INF and high == INF:
        return
    game = view.game

    def checked(method: Callable[[Any], Any], what: str) -> Callable[[Any], Any]:
        def within(state: Any) -> Any:
            v = method(state)
            if not low <= v <= high:
                raise SearchError(
                    f"{game_name(game)}'s {what} of the position {_position(game, state)} is {format_number(v)}, "
                    f"outside the bounds [{format_number(low)}, {format_number(high)}] given to {algorithm}; "
                    "its pruning would be wrong: widen bounds= (or leave it out: the game's value_range is used)"
                )
            return v

        return within

    view.utility = checked(view.utility, "utility")
    view.evaluate = checked(view.evaluate, "evaluation")


def _position(game: Any, state: Any) -> str:
    """A state in the game's own notation when it has one (``position(state)``), else its repr."""
    position = getattr(game, "position", None)
    if callable(position):
        try:
            return repr(position(state))
        except Exception:  # a game's own method: a failure costs only the notation in the message
            pass
    return _short(state)


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def _ply_limit(game: Any) -> Callable[[Any], Any]:
    def evaluate(state: Any) -> Any:
        raise SearchError(
            f"{game_name(game)} reached no end within {MAX_PLIES:,} moves of the root; "
            "give a depth limit (depth=...) and an evaluation"
        )

    return evaluate


def _check_budget(x: Any, what: str, *, whole: bool) -> Any:
    if x is None:
        return None
    ok = isinstance(x, int) if whole else isinstance(x, (int, float))
    if isinstance(x, bool) or not ok or not x > 0 or (isinstance(x, float) and math.isinf(x)):
        kind = "a whole number" if whole else "a number of seconds"
        raise SearchError(f"{what} must be {kind} > 0 or None, not {x!r}")
    return x


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
    """ "the MIN node C at path (1,)": a node for messages, in the words the sentences use."""
    label = node.name or node.move
    at = "the root" if not path else format_path(path)
    return f"the {KIND_WORDS[node.kind]} {label} at {at}" if label else f"the {KIND_WORDS[node.kind]} at {at}"


def _find_value(root: Node, value: Number) -> tuple[int, ...]:
    for entering, path, node in depth_first(root):
        if entering and (node.value if node.kind == LEAF else node.evaluation) == value:
            return tuple(path)
    return ()  # pragma: no cover - the value came from this tree
