"""The five algorithms' public entry points: option checking, tie rules, best moves, results, tracing on and off.

The textbook numbers are in test_facts.py and the random-tree properties in test_properties.py.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

import expectviz as ev
from expectviz.errors import ExpectvizError, SearchError

INF = math.inf
FIG_5_2 = "max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))"
STAR_EXERCISE = "max(chance(min(2, 2), min(1, 2)), chance(min(0, 2), min(-1, 0)))"

ALL = list(ev.ALGORITHMS)
STAR = ["star1", "star2"]


def run(name: str, tree: Any, **options: Any) -> ev.Result:
    if name in STAR:
        options.setdefault("bounds", (-100, 100))
    return ev.ALGORITHMS[name](tree, **options)


def search_error(make: Any) -> SearchError:
    with pytest.raises(SearchError) as info:
        make()
    assert isinstance(info.value, ExpectvizError) and isinstance(info.value, ValueError)
    return info.value


def test_algorithms_by_name() -> None:
    assert ev.ALGORITHMS == {
        "minimax": ev.minimax,
        "alphabeta": ev.alphabeta,
        "expectiminimax": ev.expectiminimax,
        "star1": ev.star1,
        "star2": ev.star2,
    }
    for name in ALL:
        assert run(name, FIG_5_2).algorithm == name


# ---------------------------------------------------------------- option checking


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("depth", [-1, -100, 1.5, 2.0, "2", True, False, [1]])
def test_depth_must_be_a_whole_number(name: str, depth: object) -> None:
    error = search_error(lambda: run(name, FIG_5_2, depth=depth))
    assert repr(depth) in str(error) and "depth" in str(error)


@pytest.mark.parametrize("name", ALL)
def test_depth_none_and_zero(name: str) -> None:
    assert run(name, FIG_5_2, depth=None).value == 3
    r = run(name, "max [7] (min(1, 2), 3)", depth=0)
    assert r.value == 7 and r.stats == ev.Stats(1, 1, 0) and r.best_move is None


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("trace", [1, 0, None, "yes"])
def test_trace_must_be_a_boolean(name: str, trace: object) -> None:
    search_error(lambda: run(name, FIG_5_2, trace=trace))


@pytest.mark.parametrize("name", ["alphabeta", "star1", "star2"])
@pytest.mark.parametrize("ties", [1, 0, None, "no"])
def test_prune_ties_must_be_a_boolean(name: str, ties: object) -> None:
    with pytest.raises((SearchError, TypeError)):
        run(name, FIG_5_2, prune_ties=ties)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("tree", [3, None, 1.5, ["max", 1]])
def test_the_tree_must_be_a_tree(name: str, tree: object) -> None:
    search_error(lambda: run(name, tree))


@pytest.mark.parametrize("name", ALL)
def test_tree_text_errors_come_through(name: str) -> None:
    with pytest.raises(ev.TreeSyntaxError):
        run(name, "max(1, 2")
    with pytest.raises(ev.InvalidTreeError):
        run(name, "chance(1/2: 1, 1/3: 2)" if name not in ("minimax", "alphabeta") else "max(a: 1, a: 2)")


@pytest.mark.parametrize("name", STAR)
def test_star_bounds_are_required(name: str) -> None:
    with pytest.raises(SearchError, match="needs bounds"):
        ev.ALGORITHMS[name](STAR_EXERCISE)  # type: ignore[call-arg]


@pytest.mark.parametrize("name", STAR)
def test_star_bounds_none_is_refused(name: str) -> None:
    """bounds are required: None must not silently mean (-inf, +inf)."""
    with pytest.raises((SearchError, TypeError)):
        ev.ALGORITHMS[name](STAR_EXERCISE, bounds=None)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", STAR)
@pytest.mark.parametrize(
    "bounds",
    [(1,), (1, 2, 3), (), "ab", 5, (0, "x"), ("low", 2), (math.nan, 2), (-2, math.nan), (True, 3), ([0], 2), {0: 1}],
)
def test_star_bounds_must_be_a_pair_of_numbers(name: str, bounds: object) -> None:
    search_error(lambda: ev.ALGORITHMS[name](STAR_EXERCISE, bounds=bounds))


@pytest.mark.parametrize("name", STAR)
@pytest.mark.parametrize("bounds", [(2, -2), (2, 2), (INF, INF), (INF, -INF), (0, 0)])
def test_star_bounds_need_l_below_u(name: str, bounds: tuple[float, float]) -> None:
    error = search_error(lambda: ev.ALGORITHMS[name](STAR_EXERCISE, bounds=bounds))
    assert "L < U" in str(error)


@pytest.mark.parametrize("name", STAR)
def test_star_bounds_accept_numbers_of_every_kind(name: str) -> None:
    for bounds in [(-2, 2), [-2, 2], (-2.0, 2.0), (Fraction(-5, 2), Fraction(5, 2)), ("-2", "2"), (-INF, INF)]:
        r = ev.ALGORITHMS[name](STAR_EXERCISE, bounds=bounds)  # type: ignore[arg-type]
        assert r.exact_value == Fraction(3, 2)


@pytest.mark.parametrize("name", STAR)
def test_a_leaf_outside_the_bounds_names_the_node(name: str) -> None:
    error = search_error(lambda: ev.ALGORITHMS[name]("max(chance(min(1, 2), min(5, 0)), 0)", bounds=(0, 4)))
    assert "path (0, 1, 0)" in str(error) and "5" in str(error) and "[0, 4]" in str(error)
    error = search_error(lambda: ev.ALGORITHMS[name]("max A(a1: chance(min(1, 2), min(x: -3, 0)))", bounds=(0, 4)))
    assert "path (0, 1, 0)" in str(error) and "-3" in str(error) and "leaf x" in str(error)


@pytest.mark.parametrize("name", STAR)
def test_a_static_evaluation_outside_the_bounds_names_the_node(name: str) -> None:
    error = search_error(lambda: ev.ALGORITHMS[name]("max(min B [9] (1, 2), 0)", bounds=(0, 4), depth=1))
    assert "B" in str(error) and "9" in str(error)


@pytest.mark.parametrize("name", STAR)
def test_bounds_exactly_at_the_extreme_values_are_valid(name: str) -> None:
    assert ev.ALGORITHMS[name](STAR_EXERCISE, bounds=(-1, 2)).exact_value == Fraction(3, 2)


def test_star2_on_an_irregular_tree_suggests_star1() -> None:
    for text, where in [
        ("max(chance(min(1, 2), 3), 0)", "path (0,)"),
        ("max(0, chance(min(1, 2), max(3, 4)))", "path (1,)"),
        ("chance(chance(1, 2), chance(3, 4))", "root"),
        ("max(1, min(2, chance(3, max(4, 5))))", "path (1, 1)"),
    ]:
        error = search_error(lambda text=text: ev.star2(text, bounds=(0, 10)))
        assert "regular" in str(error) and "star1" in str(error) and where in str(error)
        assert ev.star1(text, bounds=(0, 10)).exact_value == ev.expectiminimax(text).exact_value


@pytest.mark.parametrize("name", ["minimax", "alphabeta"])
def test_minimax_and_alphabeta_on_chance_trees_name_expectiminimax(name: str) -> None:
    for text in ["max(chance(10, 0), chance(5, 15))", "chance(1, 2)", "min(1, max(2, chance(3, 4)))"]:
        error = search_error(lambda text=text: ev.ALGORITHMS[name](text))
        assert "expectiminimax" in str(error)


@pytest.mark.parametrize("name", ALL)
def test_a_depth_limit_at_a_node_without_static_evaluation_names_it(name: str) -> None:
    error = search_error(lambda: run(name, "max A(a1: min B [1] (3, 4), a2: min C(2, max(5, 6)))", depth=1))
    assert "C" in str(error) and "path (1,)" in str(error) and "static evaluation" in str(error)
    error = search_error(lambda: run(name, "max(min [1] (3, 4), min [2] (2, max(5, 6)))", depth=2))
    assert "path (1, 1)" in str(error)
    # Leaves above the limit need nothing; the limit below the tree needs nothing.
    assert run(name, "max(1, min [2] (2, max(5, 6)))", depth=1).value == 2
    assert run(name, "max(1, min(2, max(5, 6)))", depth=3).value == 2


# ---------------------------------------------------------------- depth limits


@pytest.mark.parametrize("name", ALL)
def test_depth_limit_uses_static_evaluations(name: str) -> None:
    tree = "max A [0] (a1: min B [4] (3, 12, 8), a2: min C [1] (2, 4, 6), a3: min D [6] (14, 5, 2))"
    r = run(name, tree, depth=1)
    assert r.value == 6 and r.best_move == "a3"
    assert r.stats.leaves_evaluated == 3 and r.stats.nodes_visited == 4
    assert r.trace is not None
    assert [(e.path, e.value) for e in r.trace if e.kind == "leaf"] == [((0,), 4), ((1,), 1), ((2,), 6)]
    assert "static evaluation" in str(r.trace)
    assert run(name, tree, depth=2).value == 3


def test_expectiminimax_depth_counts_chance_levels() -> None:
    tree = "max(chance [5] (min [1] (0, 9), min [3] (9, 9)), 2)"
    assert ev.expectiminimax(tree, depth=1).value == 5
    assert ev.expectiminimax(tree, depth=2).value == 2  # (1 + 3) / 2 = 2, a tie: the first move
    assert ev.expectiminimax(tree, depth=2).best_move == 0
    assert ev.expectiminimax(tree, depth=3).value == Fraction(9, 2)
    for name in STAR:
        for depth in (1, 2, 3):
            assert run(name, tree, depth=depth).value == ev.expectiminimax(tree, depth=depth).value


# ---------------------------------------------------------------- the tie rule


def test_prune_ties_where_it_matters() -> None:
    """C's first leaf ties alpha = 3: AIMA's rule (v <= alpha) cuts there, the strict rule does not."""
    tree = "max(min(3, 5), min(3, 4))"
    ties = ev.alphabeta(tree)
    strict = ev.alphabeta(tree, prune_ties=False)
    assert ties.value == strict.value == 3
    assert ties.best_move == strict.best_move == 0
    assert ties.stats == ev.Stats(nodes_visited=6, leaves_evaluated=3, cutoffs=1)
    assert strict.stats == ev.Stats(nodes_visited=7, leaves_evaluated=4, cutoffs=0)
    assert ev.alphabeta(tree, prune_ties=True).stats == ties.stats


def test_prune_ties_at_max_nodes() -> None:
    """The mirror image: a MAX node whose first child ties beta."""
    tree = "min(max(3, 1), max(3, 2))"
    ties, strict = ev.alphabeta(tree), ev.alphabeta(tree, prune_ties=False)
    assert ties.value == strict.value == 3
    assert (ties.stats.cutoffs, strict.stats.cutoffs) == (1, 0)
    assert (ties.stats.leaves_evaluated, strict.stats.leaves_evaluated) == (3, 4)


def test_prune_ties_does_not_change_fig_5_2() -> None:
    assert ev.alphabeta(FIG_5_2, prune_ties=False).stats == ev.alphabeta(FIG_5_2).stats


@pytest.mark.parametrize("name", STAR)
def test_prune_ties_in_star(name: str) -> None:
    tree = "max(chance(3, 3), chance(min(3, 5), min(3, 4)))"
    ties = run(name, tree, bounds=(0, 10))
    strict = run(name, tree, bounds=(0, 10), prune_ties=False)
    assert ties.exact_value == strict.exact_value == 3
    assert ties.stats.leaves_evaluated <= strict.stats.leaves_evaluated


def test_the_tie_rule_is_recorded_in_the_trace() -> None:
    for ties in (True, False):
        r = ev.alphabeta(FIG_5_2, prune_ties=ties)
        assert r.trace is not None and r.trace.options == {"prune_ties": ties}


# ---------------------------------------------------------------- best moves


@pytest.mark.parametrize("name", ALL)
def test_best_move_is_the_label_when_labelled(name: str) -> None:
    assert run(name, "max(a: 1, b: 3, c: 2)").best_move == "b"
    assert run(name, "min(a: 1, b: 3, c: 0)").best_move == "c"
    assert run(name, "aima-fig-5.2").best_move == "a1"


@pytest.mark.parametrize("name", ALL)
def test_best_move_is_the_index_when_not_labelled(name: str) -> None:
    assert run(name, "max(1, 3, 2)").best_move == 1
    assert run(name, "min(1, 3, 0)").best_move == 2
    assert run(name, FIG_5_2).best_move == 0
    # Only some moves labelled: the label if the best one has one, else its index.
    assert run(name, "max(a: 1, 3, c: 2)").best_move == 1
    assert run(name, "max(1, 3, c: 4)").best_move == "c"


@pytest.mark.parametrize("name", ALL)
def test_ties_go_to_the_leftmost_move(name: str) -> None:
    assert run(name, "max(1, 3, 3, 2)").best_move == 1
    assert run(name, "max(min(3, 4), min(5, 3), 3)").best_move == 0


@pytest.mark.parametrize("name", ["expectiminimax", *STAR])
def test_best_move_is_none_at_a_chance_root(name: str) -> None:
    r = run(name, "chance(heads: max(1, 2), tails: max(0))")
    assert r.best_move is None and r.exact_value == 1


@pytest.mark.parametrize("name", ALL)
def test_a_single_leaf(name: str) -> None:
    r = run(name, "5")
    assert r.value == 5 and r.best_move is None
    assert r.stats == ev.Stats(nodes_visited=1, leaves_evaluated=1, cutoffs=0)


# ---------------------------------------------------------------- results


def test_result_value_and_exact_value() -> None:
    r = ev.expectiminimax("lecture-coin-flip-chance")
    assert r.exact_value == Fraction(109, 2) and r.value == 54.5 and isinstance(r.value, float)
    r = ev.minimax(FIG_5_2)
    assert r.exact_value == 3 and r.value == 3 and isinstance(r.value, int)
    assert isinstance(ev.expectiminimax("chance(1, 3)").value, int)
    r = ev.expectiminimax("chance(1, 2, 2)")
    assert r.exact_value == Fraction(5, 3) and r.value == pytest.approx(5 / 3)


def test_result_repr() -> None:
    assert repr(ev.alphabeta("aima-fig-5.2")) == (
        "Result(algorithm='alphabeta', value=3, best_move='a1', "
        "stats=Stats(nodes_visited=11, leaves_evaluated=7, cutoffs=1))"
    )
    assert "value=54.5" in repr(ev.expectiminimax("lecture-coin-flip-chance"))
    assert "value=5/3" in repr(ev.expectiminimax("chance(1, 2, 2)"))


def test_result_keeps_the_checked_tree() -> None:
    tree = ev.parse(FIG_5_2)
    r = ev.minimax(tree)
    assert r.tree == tree
    assert ev.minimax(FIG_5_2).tree == tree


@pytest.mark.parametrize("name", ALL)
def test_trees_are_accepted_as_nodes_text_or_textbook_names(name: str) -> None:
    by_name = run(name, "aima-fig-5.2")
    by_text = run(name, ev.TEXTBOOK["aima-fig-5.2"].text)
    by_node = run(name, ev.textbook("aima-fig-5.2"))
    assert by_name.exact_value == by_text.exact_value == by_node.exact_value == 3
    assert by_name.stats == by_text.stats == by_node.stats


@pytest.mark.parametrize("name", ALL)
def test_unchecked_nodes_are_checked(name: str) -> None:
    from expectviz.tree import MAX, Node, leaf

    r = run(name, Node(MAX, children=(leaf(1), Node(ev.LEAF, value=2.5))))
    assert r.exact_value == Fraction(5, 2)
    with pytest.raises(ev.InvalidTreeError):
        run(name, Node(MAX, children=(leaf(1), Node(ev.LEAF, value=math.nan))))


# ---------------------------------------------------------------- tracing on and off

TEXTBOOK_RUNS = [
    ("minimax", "aima-fig-5.2", {}),
    ("alphabeta", "aima-fig-5.2", {}),
    ("alphabeta", "aima-fig-5.2", {"prune_ties": False}),
    ("minimax", "lecture-coin-flip-min", {}),
    ("expectiminimax", "coin-flip", {}),
    ("expectiminimax", "aima-fig-5.12-left", {}),
    ("expectiminimax", "aima-star-exercise", {}),
    ("star1", "aima-star-exercise", {"bounds": (-2, 2)}),
    ("star1", "aima-star-exercise", {"bounds": (-INF, INF)}),
    ("star2", "aima-star-exercise", {"bounds": (-2, 2)}),
    ("star1", "star2-beats-star1", {"bounds": (-2, 2)}),
    ("star2", "star2-beats-star1", {"bounds": (-2, 2)}),
]


@pytest.mark.parametrize(("name", "tree", "options"), TEXTBOOK_RUNS)
def test_trace_false_gives_no_trace_and_the_same_result(name: str, tree: str, options: dict[str, Any]) -> None:
    traced = ev.ALGORITHMS[name](tree, **options)
    untraced = ev.ALGORITHMS[name](tree, trace=False, **options)
    assert untraced.trace is None
    assert traced.trace is not None
    assert untraced.stats == traced.stats == traced.trace.stats()
    assert untraced.exact_value == traced.exact_value
    assert untraced.best_move == traced.best_move


def test_star1_and_star2_agree_with_expectiminimax_on_the_textbook_trees() -> None:
    for name in ("aima-star-exercise", "star2-beats-star1", "coin-flip", "aima-fig-5.12-left", "aima-fig-5.12-right"):
        exact = ev.expectiminimax(name)
        for search in (ev.star1, ev.star2):
            for bounds in [(-1000, 1000), (-INF, INF)]:
                r = search(name, bounds=bounds)
                assert (r.exact_value, r.best_move) == (exact.exact_value, exact.best_move), (name, search)
