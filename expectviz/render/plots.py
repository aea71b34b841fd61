"""How much pruning saves: leaves evaluated on random trees, measured and plotted.

Each plot has a function that returns the numbers behind it as a plain dict
(a list of x values under the axis name, then one list per curve), so that a
notebook can print them as text that nbval checks; :func:`node_counts` finds
them by the plot's name and :func:`counts_table` lays them out.

>>> counts = leaf_counts_by_depth(3, range(1, 5), seed=0, samples=3)
>>> print(counts_table(counts))
depth                     1  2     3     4
minimax                   3  9    27    81
alphabeta (random order)  3  7  18.3  49.3
alphabeta (worst order)   3  9    27  79.7
alphabeta (best order)    3  5    11    17
minimal tree              3  5    11    17

The plots are :class:`matplotlib.figure.Figure` objects made without pyplot:
nothing global changes and no backend is chosen.  They show themselves in
Jupyter (as a PNG) when a cell ends with one.  matplotlib is imported only when
a plot is drawn.  Trees come from :mod:`expectviz.games.random_trees`, seeded;
sample ``i`` uses seed ``seed + i``.
"""

from __future__ import annotations

import functools
import io
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..alphabeta import alphabeta
from ..errors import SearchError
from ..expectiminimax import expectiminimax
from ..game import as_game, game_name
from ..games.random_trees import chance_tree, minimal_tree_leaves, ordered_tree
from ..minimax import minimax
from ..star import star1, star2
from ..tree import Node

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "Counts",
    "leaf_counts_by_depth",
    "leaf_counts_by_branching",
    "chance_leaf_counts",
    "percent_saved",
    "node_counts",
    "counts_table",
    "plot_leaves_vs_depth",
    "plot_leaves_vs_branching",
    "plot_chance_pruning",
    "GAME_VARIANTS",
    "GameRun",
    "game_pruning_runs",
    "game_pruning_counts",
    "plot_game_pruning",
]

Counts = dict[str, list[float]]
"""The numbers behind a plot: the x values under the axis name, then one list per curve."""

MINIMAX = "minimax"
MINIMAL = "minimal tree"
ALPHABETA = {ordering: f"alphabeta ({ordering} order)" for ordering in ("random", "worst", "best")}
EXPECTIMINIMAX = "expectiminimax"
STAR = {
    (name, ordering): f"{name} ({ordering} order)" for ordering in ("random", "best") for name in ("star1", "star2")
}

# How each curve is drawn, by its key: the same curve looks the same in every plot.
_STYLE: dict[str, dict[str, Any]] = {
    MINIMAX: {"color": "black", "marker": "o"},
    ALPHABETA["worst"]: {"color": "tab:red", "marker": "v"},
    ALPHABETA["random"]: {"color": "tab:blue", "marker": "s"},
    ALPHABETA["best"]: {"color": "tab:green", "marker": "^", "markersize": 8},
    MINIMAL: {"color": "0.4", "linestyle": "--", "marker": ""},
    EXPECTIMINIMAX: {"color": "black", "marker": "o"},
    STAR["star1", "random"]: {"color": "tab:blue", "marker": "s"},
    STAR["star2", "random"]: {"color": "tab:orange", "marker": "D"},
    STAR["star1", "best"]: {"color": "tab:blue", "marker": "s", "linestyle": ":"},
    STAR["star2", "best"]: {"color": "tab:orange", "marker": "D", "linestyle": ":"},
    "star1": {"color": "tab:blue", "marker": "s"},
    "star2": {"color": "tab:orange", "marker": "D"},
    "star2 + ordering": {"color": "tab:green", "marker": "^", "markersize": 8},
    "star2 + ordering + table": {"color": "tab:purple", "marker": "v", "linestyle": "--"},
}

GAME_VARIANTS: dict[str, tuple[Callable[..., Any], dict[str, bool]]] = {
    EXPECTIMINIMAX: (expectiminimax, {}),
    "star1": (star1, {}),
    "star2": (star2, {}),
    "star2 + ordering": (star2, {"order": True}),
    "star2 + ordering + table": (star2, {"order": True, "table": True}),
}
"""The searches compared on a game of chance: each an algorithm and whether it uses the game's move
ordering and a transposition table.  Star1 and Star2 take their bounds from the game."""


# ---------------------------------------------------------------- the numbers


def leaf_counts_by_depth(
    branching: int = 3, depths: Iterable[int] = range(1, 8), *, seed: int = 0, samples: int = 5
) -> Counts:
    """Leaves evaluated by minimax and alpha-beta on uniform trees, by depth.

    Alpha-beta runs on the same ``samples`` games (:func:`ordered_tree`) in a
    random, the worst and the best move order; each count is the mean over the
    samples.  ``minimal tree`` is Knuth and Moore's b^ceil(d/2) + b^floor(d/2) - 1,
    which best order reaches exactly.

    >>> counts = leaf_counts_by_depth(2, [1, 2, 3], samples=2)
    >>> counts["alphabeta (best order)"] == counts["minimal tree"] == [2, 3, 5]
    True
    """
    depths = list(depths)
    return _minimax_counts("depth", depths, [(branching, d) for d in depths], seed=seed, samples=samples)


def leaf_counts_by_branching(
    depth: int = 4, branchings: Iterable[int] = range(2, 9), *, seed: int = 0, samples: int = 5
) -> Counts:
    """Leaves evaluated by minimax and alpha-beta on uniform trees, by branching factor.

    As :func:`leaf_counts_by_depth`, with the depth fixed.

    >>> leaf_counts_by_branching(2, [2, 3], samples=1)["minimal tree"]
    [3, 5]
    """
    branchings = list(branchings)
    return _minimax_counts("branching", branchings, [(b, depth) for b in branchings], seed=seed, samples=samples)


def chance_leaf_counts(
    depths: Iterable[int] = range(2, 9),
    *,
    seed: int = 0,
    samples: int = 5,
    bounds: tuple[int, int] = (-10, 10),
    branching: int = 3,
    outcomes: int = 2,
) -> Counts:
    """Leaves evaluated by expectiminimax, Star1 and Star2 on regular chance trees, by depth.

    The trees (:func:`chance_tree`) repeat MAX, chance, MIN, chance with
    ``branching`` moves and ``outcomes`` equally likely outcomes; the depth
    counts chance levels.  Star1 and Star2 run with the given ``bounds`` in a
    random and the best move order (the same games); expectiminimax evaluates
    every leaf, whatever the order.  Each count is the mean over the samples.
    A leaf that Star2 evaluates twice (once while probing, once in the full
    search) counts twice.

    >>> counts = chance_leaf_counts([2, 3], samples=2)
    >>> counts["depth"], counts["expectiminimax"]
    ([2, 3], [6.0, 18.0])
    """
    depths = list(depths)
    _check_samples(samples)
    counts: Counts = {"depth": list(depths), EXPECTIMINIMAX: []}
    counts.update({key: [] for key in STAR.values()})
    for depth in depths:
        totals = dict.fromkeys(counts, 0)
        for ordering in ("random", "best"):
            for sample in range(samples):
                tree = chance_tree(branching, outcomes, depth, seed=seed + sample, bounds=bounds, ordering=ordering)
                if ordering == "random":
                    totals[EXPECTIMINIMAX] += _leaves(expectiminimax, tree)
                for name, search in (("star1", star1), ("star2", star2)):
                    totals[STAR[name, ordering]] += _leaves(search, tree, bounds=bounds)
        for key in counts:
            if key != "depth":
                counts[key].append(totals[key] / samples)
    return counts


def percent_saved(counts: Mapping[str, Sequence[float]], *, baseline: str = EXPECTIMINIMAX) -> Counts:
    """Each curve's leaves saved against ``baseline``, in per cent (negative: more leaves).

    >>> percent_saved({"depth": [1, 2], "expectiminimax": [4, 8], "star1 (random order)": [4, 6]})
    {'depth': [1, 2], 'star1 (random order)': [0.0, 25.0]}
    """
    if baseline not in counts:
        raise ValueError(f"baseline {baseline!r} is not one of the curves " + ", ".join(map(repr, list(counts)[1:])))
    axis = next(iter(counts))
    saved: Counts = {axis: list(counts[axis])}
    for key, values in counts.items():
        if key not in (axis, baseline):
            saved[key] = [100 * (1 - v / b) for v, b in zip(values, counts[baseline], strict=True)]
    return saved


@dataclass(frozen=True)
class GameRun:
    """One search of :func:`game_pruning_runs`."""

    variant: str
    """A key of :data:`GAME_VARIANTS`."""
    depth: int
    """The depth limit (plies, chance levels included)."""
    value: Any
    """The root's value (exact)."""
    leaves: int
    """Leaves evaluated (utilities and evaluations)."""
    nodes: int
    """Nodes visited."""
    seconds: float
    """How long the untraced search took."""


def game_pruning_runs(
    game: Any,
    depths: Iterable[int],
    *,
    variants: Iterable[str] = tuple(GAME_VARIANTS),
    order: Callable[[Any, Any], Any] | None = None,
) -> list[GameRun]:
    """Search a game of chance to each depth with each variant (untraced), checking that all agree.

    ``game`` is a game or a game's name; ``order`` the move-ordering key of the
    "ordering" variants (default: the game's own, :func:`expectviz.games.move_ordering`).
    Every variant must give the root the same value at a depth: if one does not,
    that is a bug and :class:`~expectviz.errors.SearchError` says which.

    >>> runs = game_pruning_runs("dice", [2])
    >>> [(run.variant, run.leaves) for run in runs]  # doctest: +NORMALIZE_WHITESPACE
    [('expectiminimax', 9), ('star1', 9), ('star2', 9), ('star2 + ordering', 9), ('star2 + ordering + table', 9)]
    """
    from ..games import move_ordering

    game = as_game(game)
    variants = list(variants)
    unknown = [v for v in variants if v not in GAME_VARIANTS]
    if unknown:
        raise ValueError(f"variant {unknown[0]!r} is not one of " + ", ".join(map(repr, GAME_VARIANTS)))
    key = order if order is not None else move_ordering(game)
    if key is None and any(GAME_VARIANTS[v][1].get("order") for v in variants):
        raise ValueError(f"{game_name(game)} has no move-ordering key of its own: pass order=key(state, move)")
    runs: list[GameRun] = []
    for depth in depths:
        first: GameRun | None = None
        for variant in variants:
            search, options = GAME_VARIANTS[variant]
            keywords: dict[str, Any] = {"depth": depth, "trace": False, "table": options.get("table", False)}
            if options.get("order"):
                keywords["order"] = key
            began = time.perf_counter()
            r = search(game, **keywords)
            seconds = time.perf_counter() - began
            run = GameRun(variant, depth, r.exact_value, r.stats.leaves_evaluated, r.stats.nodes_visited, seconds)
            if first is None:
                first = run
            elif run.value != first.value:
                raise SearchError(
                    f"{variant} gives {game_name(game)} the value {run.value} at depth {depth}, "
                    f"but {first.variant} gives {first.value}: one of them is wrong"
                )
            runs.append(run)
    return runs


def game_pruning_counts(
    game: Any,
    depths: Iterable[int],
    *,
    count: str = "leaves",
    variants: Iterable[str] = tuple(GAME_VARIANTS),
    order: Callable[[Any, Any], Any] | None = None,
) -> Counts:
    """Leaves evaluated (``count="leaves"``) or nodes visited (``"nodes"``) by each variant, by depth.

    >>> print(counts_table(game_pruning_counts("dice", [2, 4], variants=["expectiminimax", "star2 + ordering"])))
    depth             2   4
    expectiminimax    9  72
    star2 + ordering  9  42
    """
    if count not in ("leaves", "nodes"):
        raise ValueError(f"count must be 'leaves' or 'nodes', not {count!r}")
    depths = list(depths)
    runs = game_pruning_runs(game, depths, variants=variants, order=order)
    counts: Counts = {"depth": list(depths)}
    for run in runs:
        counts.setdefault(run.variant, []).append(run.leaves if count == "leaves" else run.nodes)
    return counts


_COUNTS: dict[str, Callable[..., Counts]] = {
    "leaves_vs_depth": leaf_counts_by_depth,
    "leaves_vs_branching": leaf_counts_by_branching,
    "chance_pruning": chance_leaf_counts,
    "game_pruning": game_pruning_counts,
}


def node_counts(plot: str, **options: Any) -> Counts:
    """The numbers behind a plot, by the plot's name (without ``plot_``); options as for the plot.

    >>> node_counts("leaves_vs_branching", depth=2, branchings=[2, 3, 4], samples=1)["minimal tree"]
    [3, 5, 7]
    """
    if plot not in _COUNTS:
        raise ValueError(f"plot {plot!r} is not one of " + ", ".join(map(repr, _COUNTS)))
    return _COUNTS[plot](**options)


def counts_table(counts: Mapping[str, Sequence[float]]) -> str:
    """The numbers as a text table: one row per curve, one column per x value.

    Whole numbers are written without decimals, others with at most one.

    >>> print(counts_table({"depth": [1, 2], "minimax": [3, 9], "alphabeta (random order)": [3, 6.5]}))
    depth                     1    2
    minimax                   3    9
    alphabeta (random order)  3  6.5
    """
    rows = [[key] + [_number_text(v) for v in values] for key, values in counts.items()]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


# ---------------------------------------------------------------- the plots


def plot_leaves_vs_depth(
    branching: int = 3, depths: Iterable[int] = range(1, 8), *, seed: int = 0, samples: int = 5
) -> Figure:
    """Leaves evaluated against depth: minimax, alpha-beta in three move orders, the minimal tree.

    The numbers are :func:`leaf_counts_by_depth`.

    >>> fig = plot_leaves_vs_depth(2, range(1, 4), samples=1)
    >>> fig.axes[0].get_title()
    'Leaves evaluated on uniform trees, branching 2'
    """
    counts = leaf_counts_by_depth(branching, depths, seed=seed, samples=samples)
    return _leaf_count_figure(
        counts, f"Leaves evaluated on uniform trees, branching {branching}", "depth d (plies)", samples
    )


def plot_leaves_vs_branching(
    depth: int = 4, branchings: Iterable[int] = range(2, 9), *, seed: int = 0, samples: int = 5
) -> Figure:
    """Leaves evaluated against branching factor: minimax, alpha-beta in three move orders, the minimal tree.

    The numbers are :func:`leaf_counts_by_branching`.

    >>> plot_leaves_vs_branching(2, range(2, 4), samples=1).axes[0].get_xlabel()
    'branching factor b'
    """
    counts = leaf_counts_by_branching(depth, branchings, seed=seed, samples=samples)
    return _leaf_count_figure(
        counts, f"Leaves evaluated on uniform trees, depth {depth}", "branching factor b", samples
    )


def _leaf_count_figure(counts: Counts, title: str, xlabel: str, samples: int) -> Figure:
    """One log-scale panel of leaf counts, one line per algorithm."""
    fig = _new_figure()
    ax = fig.add_subplot()
    _draw(ax, counts, log=True)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"leaves evaluated (mean of {samples})")
    return fig


def plot_chance_pruning(
    depths: Iterable[int] = range(2, 9),
    *,
    seed: int = 0,
    samples: int = 5,
    bounds: tuple[int, int] = (-10, 10),
    branching: int = 3,
    outcomes: int = 2,
) -> Figure:
    """Pruning at chance nodes: leaves evaluated by expectiminimax, Star1 and Star2, and the share saved.

    Left, leaves evaluated against depth (log scale); right, the per cent of
    expectiminimax's leaves that Star1 and Star2 save.  The numbers are
    :func:`chance_leaf_counts` and :func:`percent_saved`.

    >>> fig = plot_chance_pruning([2, 3], samples=1)
    >>> [ax.get_title() for ax in fig.axes]
    ['Leaves evaluated', 'Leaves saved against expectiminimax']
    """
    counts = chance_leaf_counts(
        depths, seed=seed, samples=samples, bounds=bounds, branching=branching, outcomes=outcomes
    )
    fig = _new_figure(figsize=(11, 4.5))
    left, right = fig.subplots(1, 2)
    _draw(left, counts, log=True)
    left.set_title("Leaves evaluated")
    left.set_ylabel(f"leaves evaluated (mean of {samples})")
    right.axhline(0, color="0.75", linewidth=0.8, zorder=0)
    _draw(right, percent_saved(counts), log=False)
    right.set_title("Leaves saved against expectiminimax")
    right.set_ylabel("leaves saved (%)")
    for ax in (left, right):
        ax.set_xlabel("depth (plies, chance levels included)")
    low, high = bounds
    fig.suptitle(
        f"Pruning at chance nodes: {branching} moves, {outcomes} equally likely outcomes, leaves in [{low}, {high}]"
    )
    return fig


def plot_game_pruning(
    game: Any,
    depths: Iterable[int] = (),
    *,
    variants: Iterable[str] = tuple(GAME_VARIANTS),
    order: Callable[[Any, Any], Any] | None = None,
    runs: Sequence[GameRun] | None = None,
) -> Figure:
    """Pruning on a game of chance: leaves each variant evaluates against depth, and the share it saves.

    Left, leaves evaluated (log scale); right, the per cent of expectiminimax's
    leaves saved.  The numbers are :func:`game_pruning_counts`, or the ``runs``
    of :func:`game_pruning_runs` already measured (then ``depths`` and
    ``variants`` are theirs).

    >>> fig = plot_game_pruning("dice", [2, 3])
    >>> [ax.get_title() for ax in fig.axes]
    ['Leaves evaluated', 'Leaves saved against expectiminimax']
    """
    game = as_game(game)
    if runs is None:
        counts = game_pruning_counts(game, depths, variants=variants, order=order)
    else:
        counts = {"depth": sorted({run.depth for run in runs})}
        for run in runs:
            counts.setdefault(run.variant, []).append(run.leaves)
    fig = _new_figure(figsize=(11, 4.5))
    left, right = fig.subplots(1, 2)
    _draw(left, counts, log=True)
    left.set_title("Leaves evaluated")
    left.set_ylabel("leaves evaluated")
    right.axhline(0, color="0.75", linewidth=0.8, zorder=0)
    if EXPECTIMINIMAX in counts:
        _draw(right, percent_saved(counts), log=False)
    right.set_title("Leaves saved against expectiminimax")
    right.set_ylabel("leaves saved (%)")
    for ax in (left, right):
        ax.set_xlabel("depth (plies, chance levels included)")
    fig.suptitle(f"Pruning at chance nodes on {game_name(game)}: bounds {_range_text(game)} from the game")
    return fig


def _range_text(game: Any) -> str:
    low, high = getattr(game, "value_range", ("-inf", "inf"))
    return f"[{low}, {high}]"


# ---------------------------------------------------------------- helpers


def _minimax_counts(axis: str, xs: list[int], shapes: list[tuple[int, int]], *, seed: int, samples: int) -> Counts:
    _check_samples(samples)
    counts: Counts = {axis: list(xs), MINIMAX: []}
    counts.update({ALPHABETA[o]: [] for o in ("random", "worst", "best")})
    counts[MINIMAL] = []
    for branching, depth in shapes:
        totals = dict.fromkeys(counts, 0)
        for ordering in ("random", "worst", "best"):
            for sample in range(samples):
                tree = ordered_tree(branching, depth, seed=seed + sample, ordering=ordering)
                if ordering == "random":
                    totals[MINIMAX] += _leaves(minimax, tree)
                totals[ALPHABETA[ordering]] += _leaves(alphabeta, tree)
        for key in (MINIMAX, *ALPHABETA.values()):
            counts[key].append(totals[key] / samples)
        counts[MINIMAL].append(minimal_tree_leaves(branching, depth))
    return counts


def _leaves(search: Callable[..., Any], tree: Node, **options: Any) -> int:
    """Leaves evaluated by one untraced search."""
    leaves: int = search(tree, trace=False, **options).stats.leaves_evaluated
    return leaves


def _check_samples(samples: int) -> None:
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be a whole number >= 1, not {samples!r}")


def _number_text(x: float) -> str:
    rounded = round(x, 1)
    if float(rounded).is_integer():
        return str(int(rounded))
    return f"{rounded:.1f}"


def _draw(ax: Axes, counts: Mapping[str, Sequence[float]], *, log: bool) -> None:
    """One line per curve, x values from the first entry; a legend; integer x ticks."""
    axis = next(iter(counts))
    xs = counts[axis]
    for key, values in counts.items():
        if key == axis:
            continue
        label = key
        if key == MINIMAL:
            label = "minimal tree $b^{\\lceil d/2 \\rceil} + b^{\\lfloor d/2 \\rfloor} - 1$"
        ax.plot(xs, values, label=label, **_STYLE.get(key, {}))
    if log:
        ax.set_yscale("log")
    ax.set_xticks(xs)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize="small")


@functools.cache
def _figure_class() -> type[Figure]:
    """A Figure that Jupyter shows as a PNG even when pyplot was never imported."""
    from matplotlib.figure import Figure

    class PlotFigure(Figure):
        def _repr_png_(self) -> bytes:
            buffer = io.BytesIO()
            self.savefig(buffer, format="png")
            return buffer.getvalue()

    PlotFigure.__name__ = PlotFigure.__qualname__ = "Figure"  # so its repr reads <Figure size ... with 1 Axes>
    return PlotFigure


def _new_figure(*, figsize: tuple[float, float] = (7, 4.5)) -> Figure:
    return _figure_class()(figsize=figsize, layout="constrained")
