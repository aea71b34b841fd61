"""Plots of pruning on random trees: Figures made without pyplot, titled and labelled, with numbers that match."""

from __future__ import annotations

import math
import subprocess
import sys
from typing import Any

import pytest

pytest.importorskip("matplotlib")

from matplotlib.figure import Figure  # noqa: E402

from expectviz.games.random_trees import minimal_tree_leaves  # noqa: E402
from expectviz.render import plots  # noqa: E402

MINIMAX_KEYS = [
    "minimax",
    "alphabeta (random order)",
    "alphabeta (worst order)",
    "alphabeta (best order)",
    "minimal tree",
]
CHANCE_KEYS = [
    "expectiminimax",
    "star1 (random order)",
    "star2 (random order)",
    "star1 (best order)",
    "star2 (best order)",
]


def labelled_lines(ax: Any) -> list[Any]:
    return [line for line in ax.get_lines() if not str(line.get_label()).startswith("_")]


def line_named(ax: Any, prefix: str) -> Any:
    [line] = [line for line in ax.get_lines() if str(line.get_label()).startswith(prefix)]
    return line


def xdata(line: Any) -> list[Any]:
    return list(line.get_xdata())


def ydata(line: Any) -> list[Any]:
    return list(line.get_ydata())


def check_axes(ax: Any, lines: int) -> None:
    assert ax.get_title()
    assert ax.get_xlabel()
    assert ax.get_ylabel()
    assert ax.get_legend() is not None
    assert len(labelled_lines(ax)) == lines
    assert len(ax.get_legend().get_texts()) == lines


# The plots with their default arguments, each built once (a few seconds in all).


@pytest.fixture(scope="module")
def depth_figure() -> Figure:
    return plots.plot_leaves_vs_depth()


@pytest.fixture(scope="module")
def branching_figure() -> Figure:
    return plots.plot_leaves_vs_branching()


@pytest.fixture(scope="module")
def chance_figure() -> Figure:
    return plots.plot_chance_pruning()


# ---------------------------------------------------------------- the figures


def test_leaves_vs_depth_figure(depth_figure: Figure) -> None:
    assert isinstance(depth_figure, Figure)
    [ax] = depth_figure.axes
    check_axes(ax, 5)
    assert ax.get_yscale() == "log"
    assert ax.get_title() == "Leaves evaluated on uniform trees, branching 3"
    assert ax.get_xlabel() == "depth d (plies)"
    minimal = line_named(ax, "minimal tree")
    assert xdata(minimal) == list(range(1, 8))
    assert ydata(minimal) == [3, 5, 11, 17, 35, 53, 107]
    assert ydata(line_named(ax, "minimax")) == [3**d for d in range(1, 8)]


def test_leaves_vs_branching_figure(branching_figure: Figure) -> None:
    assert isinstance(branching_figure, Figure)
    [ax] = branching_figure.axes
    check_axes(ax, 5)
    assert ax.get_yscale() == "log"
    assert ax.get_xlabel() == "branching factor b"
    minimal = line_named(ax, "minimal tree")
    assert xdata(minimal) == list(range(2, 9))
    assert ydata(minimal) == [b**2 + b**2 - 1 for b in range(2, 9)]


def test_chance_pruning_figure(chance_figure: Figure) -> None:
    assert isinstance(chance_figure, Figure)
    left, right = chance_figure.axes
    assert chance_figure.get_suptitle().startswith("Pruning at chance nodes")
    check_axes(left, 5)
    check_axes(right, 4)
    assert left.get_yscale() == "log"
    assert right.get_yscale() == "linear"
    assert [line.get_label() for line in labelled_lines(left)] == CHANCE_KEYS
    assert [line.get_label() for line in labelled_lines(right)] == CHANCE_KEYS[1:]


def test_chance_pruning_figure_draws_its_numbers() -> None:
    left, right = plots.plot_chance_pruning([2, 3, 4, 5], seed=2, samples=2).axes
    counts = plots.chance_leaf_counts([2, 3, 4, 5], seed=2, samples=2)
    saved = plots.percent_saved(counts)
    for line in labelled_lines(left):
        assert ydata(line) == counts[line.get_label()]
    for line in labelled_lines(right):
        assert ydata(line) == saved[line.get_label()]


def test_figures_show_themselves_in_jupyter_as_png_with_a_stable_text_repr(depth_figure: Figure) -> None:
    assert repr(depth_figure) == "<Figure size 700x450 with 1 Axes>"
    png = depth_figure._repr_png_()  # type: ignore[attr-defined]
    assert png.startswith(b"\x89PNG\r\n\x1a\n")


def test_plot_arguments_reach_the_figure() -> None:
    fig = plots.plot_leaves_vs_depth(2, range(1, 5), seed=3, samples=2)
    [ax] = fig.axes
    assert ax.get_title() == "Leaves evaluated on uniform trees, branching 2"
    assert ax.get_ylabel() == "leaves evaluated (mean of 2)"
    counts = plots.leaf_counts_by_depth(2, range(1, 5), seed=3, samples=2)
    for line in labelled_lines(ax):
        key = "minimal tree" if line.get_label().startswith("minimal tree") else line.get_label()
        assert ydata(line) == counts[key]
    fig = plots.plot_chance_pruning([2, 3, 4], seed=1, samples=1, bounds=(-3, 3), branching=2, outcomes=3)
    assert "2 moves, 3 equally likely outcomes, leaves in [-3, 3]" in fig.get_suptitle()
    assert xdata(fig.axes[0].get_lines()[0]) == [2, 3, 4]


def test_plotting_uses_neither_pyplot_nor_a_backend_and_imports_matplotlib_only_when_drawing() -> None:
    code = (
        "import sys\n"
        "import expectviz, expectviz.render.plots as plots\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported with the module'\n"
        "plots.leaf_counts_by_depth(2, [1, 2], samples=1)\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported for numbers only'\n"
        "import matplotlib\n"
        "backend = matplotlib.rcParams._get_backend_or_none()\n"
        "fig = plots.plot_leaves_vs_depth(2, [1, 2], samples=1)\n"
        "fig._repr_png_()\n"
        "assert 'matplotlib.pyplot' not in sys.modules, 'pyplot imported'\n"
        "assert matplotlib.rcParams._get_backend_or_none() == backend, 'a backend was chosen'\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


# ---------------------------------------------------------------- the numbers


def test_leaf_counts_by_depth_keys_and_exact_values() -> None:
    counts = plots.leaf_counts_by_depth(3, range(1, 6), seed=0, samples=3)
    assert list(counts) == ["depth", *MINIMAX_KEYS]
    assert counts["depth"] == [1, 2, 3, 4, 5]
    assert counts["minimax"] == [3, 9, 27, 81, 243]
    assert counts["minimal tree"] == [3, 5, 11, 17, 35]
    assert counts["alphabeta (best order)"] == counts["minimal tree"]
    assert counts["alphabeta (worst order)"][:3] == [3, 9, 27]  # every leaf up to depth 3
    for d, worst, random_, best in zip(
        counts["depth"],
        counts["alphabeta (worst order)"],
        counts["alphabeta (random order)"],
        counts["alphabeta (best order)"],
        strict=True,
    ):
        assert best <= random_ <= worst <= 3**d


def test_leaf_counts_by_branching_keys_and_exact_values() -> None:
    counts = plots.leaf_counts_by_branching(3, range(2, 6), seed=0, samples=2)
    assert list(counts) == ["branching", *MINIMAX_KEYS]
    assert counts["minimax"] == [b**3 for b in range(2, 6)]
    assert counts["minimal tree"] == [minimal_tree_leaves(b, 3) for b in range(2, 6)]
    assert counts["minimal tree"] == [b**2 + b - 1 for b in range(2, 6)]
    assert counts["alphabeta (best order)"] == counts["minimal tree"]


def test_chance_leaf_counts_keys_and_values() -> None:
    counts = plots.chance_leaf_counts([1, 2, 3, 4], seed=0, samples=2)
    assert list(counts) == ["depth", *CHANCE_KEYS]
    assert counts["expectiminimax"] == [3, 6, 18, 36]  # every leaf: 3, 3*2, 3*2*3, 3*2*3*2
    for key in CHANCE_KEYS[1:]:
        assert counts[key][0] == 3  # depth 1 has no chance node to prune at
        assert all(0 < n for n in counts[key])
    for key in ("star1 (random order)", "star1 (best order)"):  # Star1 never evaluates more than every leaf
        assert all(n <= e for n, e in zip(counts[key], counts["expectiminimax"], strict=True))


def test_the_numbers_are_the_same_for_the_same_seed_and_mean_over_samples() -> None:
    assert plots.chance_leaf_counts([3], seed=4, samples=2) == plots.chance_leaf_counts([3], seed=4, samples=2)
    one = [plots.leaf_counts_by_depth(3, [4], seed=s, samples=1)["alphabeta (random order)"][0] for s in (5, 6, 7)]
    assert plots.leaf_counts_by_depth(3, [4], seed=5, samples=3)["alphabeta (random order)"] == [sum(one) / 3]


def test_percent_saved() -> None:
    counts: dict[str, list[float]] = {
        "depth": [1, 2],
        "expectiminimax": [10, 20],
        "star1 (random order)": [10, 15],
        "star2": [5, 30],
    }
    assert plots.percent_saved(counts) == {"depth": [1, 2], "star1 (random order)": [0, 25], "star2": [50, -50]}
    with pytest.raises(ValueError, match="'expectiminimax'"):
        plots.percent_saved(counts, baseline="minimax")


def test_node_counts_finds_the_numbers_by_plot_name() -> None:
    assert list(plots.node_counts("leaves_vs_depth", branching=2, depths=[1, 2], samples=1)) == [
        "depth",
        *MINIMAX_KEYS,
    ]
    assert list(plots.node_counts("leaves_vs_branching", depth=2, branchings=[2], samples=1)) == [
        "branching",
        *MINIMAX_KEYS,
    ]
    assert list(plots.node_counts("chance_pruning", depths=[2], samples=1)) == ["depth", *CHANCE_KEYS]
    with pytest.raises(ValueError, match="'leaves_vs_depth', 'leaves_vs_branching', 'chance_pruning'"):
        plots.node_counts("pie")


def test_counts_table_is_stable_text() -> None:
    counts: dict[str, list[float]] = {
        "depth": [1, 2, 3],
        "minimax": [3.0, 9.0, 27.0],
        "star1 (random order)": [2.5, -20.000000000000004, 1 / 3],
    }
    assert plots.counts_table(counts).splitlines() == [
        "depth                   1    2    3",
        "minimax                 3    9   27",
        "star1 (random order)  2.5  -20  0.3",
    ]


@pytest.mark.parametrize("samples", [0, -1, 1.5, True])
def test_bad_sample_counts_are_refused(samples: Any) -> None:
    with pytest.raises(ValueError, match="samples"):
        plots.leaf_counts_by_depth(2, [1], samples=samples)


def test_minimal_tree_curve_matches_knuth_and_moore() -> None:
    counts = plots.leaf_counts_by_depth(4, range(0, 5), samples=1)
    assert counts["minimal tree"] == [4 ** math.ceil(d / 2) + 4 ** (d // 2) - 1 for d in range(5)]
    assert counts["minimal tree"] == [1, 4, 7, 19, 31]
