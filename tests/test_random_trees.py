"""Random trees: seeded, checked and shaped as promised; best ordering reaches Knuth and Moore's minimal tree."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import expectviz as ev
from expectviz.games.random_trees import (
    EXERCISE_BOUNDS,
    ORDERINGS,
    chance_tree,
    minimal_tree_leaves,
    ordered_tree,
    random_exercise,
    uniform_tree,
)
from expectviz.notation import to_text
from expectviz.tree import CHANCE, LEAF, MAX, MIN, Node, check, facts, height, walk


def leaf_values(tree: Node) -> list[object]:
    return [node.value for _, node in walk(tree) if node.kind == LEAF]


def kinds_by_level(tree: Node) -> dict[int, set[str]]:
    levels: dict[int, set[str]] = {}
    for path, node in walk(tree):
        levels.setdefault(len(path), set()).add(node.kind)
    return levels


def leaves(search: object, tree: Node, **options: object) -> int:
    return search(tree, trace=False, **options).stats.leaves_evaluated  # type: ignore[operator, no-any-return]


# ---------------------------------------------------------------- seeds

GENERATORS = [
    lambda seed: uniform_tree(3, 4, seed=seed),
    lambda seed: ordered_tree(3, 4, seed=seed, ordering="best"),
    lambda seed: ordered_tree(3, 4, seed=seed, ordering="random"),
    lambda seed: chance_tree(3, 2, 4, seed=seed, probabilities="random"),
    lambda seed: random_exercise(seed),
    lambda seed: random_exercise(seed, kind="chance", size="medium"),
]


@pytest.mark.parametrize("generate", GENERATORS)
def test_the_same_seed_gives_the_same_tree_and_another_seed_another(generate: object) -> None:
    first = generate(5)  # type: ignore[operator]
    assert isinstance(first, Node)
    assert first == generate(5)  # type: ignore[operator]
    assert to_text(first) == to_text(generate(5))  # type: ignore[operator]
    assert any(to_text(generate(seed)) != to_text(first) for seed in range(6, 10))  # type: ignore[operator]


@pytest.mark.parametrize("generate", GENERATORS)
def test_the_global_random_state_is_neither_used_nor_changed(generate: object) -> None:
    random.seed(1)
    state = random.getstate()
    tree = generate(3)  # type: ignore[operator]
    assert random.getstate() == state
    random.seed(2)
    random.random()
    assert generate(3) == tree  # type: ignore[operator]


@pytest.mark.parametrize("generate", GENERATORS)
def test_trees_come_back_checked(generate: object) -> None:
    tree = generate(0)  # type: ignore[operator]
    assert tree._facts is not None
    assert check(tree) is tree


def test_text_seeds_work_and_none_is_refused() -> None:
    assert uniform_tree(2, 3, seed="lesson 4") == uniform_tree(2, 3, seed="lesson 4")
    with pytest.raises(TypeError, match="seed"):
        uniform_tree(2, 3, seed=None)  # type: ignore[arg-type]


# ---------------------------------------------------------------- uniform trees


def test_uniform_tree_shape_levels_and_leaf_range() -> None:
    tree = uniform_tree(3, 4, seed=1, low=-5, high=5)
    assert height(tree) == 4
    assert kinds_by_level(tree) == {0: {MAX}, 1: {MIN}, 2: {MAX}, 3: {MIN}, 4: {LEAF}}
    values = leaf_values(tree)
    assert len(values) == 81
    assert all(isinstance(v, int) and -5 <= v <= 5 for v in values)
    assert all(len(node.children) == 3 for _, node in walk(tree) if node.kind != LEAF)


def test_uniform_tree_can_start_with_min_and_be_a_single_leaf() -> None:
    assert kinds_by_level(uniform_tree(2, 2, seed=0, first="min")) == {0: {MIN}, 1: {MAX}, 2: {LEAF}}
    assert uniform_tree(4, 0, seed=0, low=7, high=7) == ev.leaf(7)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: uniform_tree(0, 2, seed=0), ValueError, "branching must be at least 1"),
        (lambda: uniform_tree(2, -1, seed=0), ValueError, "depth must be at least 0"),
        (lambda: uniform_tree(2, 2.0, seed=0), TypeError, "depth must be a whole number"),  # type: ignore[arg-type]
        (lambda: uniform_tree(2, 2, seed=0, low=3, high=2), ValueError, "low must be at most high"),
        (lambda: uniform_tree(2, 2, seed=0, first="chance"), ValueError, "'max', 'min'"),
        (lambda: ordered_tree(2, 2, seed=0, ordering="good"), ValueError, "'best', 'worst', 'random'"),
        (lambda: uniform_tree(10, 7, seed=0), ValueError, "10,000,000 leaves"),
        (lambda: chance_tree(2, 2, 2, seed=0, pattern=("max", "avg")), ValueError, "'max', 'min', 'chance'"),
        (lambda: chance_tree(2, 2, 2, seed=0, pattern=()), ValueError, "non-empty"),
        (lambda: chance_tree(2, 2, 2, seed=0, bounds=(3, 1)), ValueError, "L <= U"),
        (lambda: chance_tree(2, 2, 2, seed=0, probabilities="skewed"), ValueError, "'equal', 'random'"),
        (lambda: random_exercise(0, kind="tic-tac-toe"), ValueError, "'minimax', 'chance'"),
        (lambda: random_exercise(0, size="huge"), ValueError, "'small', 'medium'"),
    ],
)
def test_bad_options_are_refused_with_what_is_allowed(call: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        call()  # type: ignore[operator]


# ---------------------------------------------------------------- move ordering


def test_minimal_tree_leaves_formula() -> None:
    assert [minimal_tree_leaves(2, d) for d in range(7)] == [1, 2, 3, 5, 7, 11, 15]
    assert [minimal_tree_leaves(3, d) for d in range(1, 7)] == [3, 5, 11, 17, 35, 53]
    for b in range(1, 6):
        for d in range(8):
            assert minimal_tree_leaves(b, d) == b ** math.ceil(d / 2) + b ** math.floor(d / 2) - 1


@pytest.mark.parametrize("ordering", ORDERINGS)
def test_ordered_leaves_are_a_permutation_and_every_ordering_is_the_same_game(ordering: str) -> None:
    tree = ordered_tree(3, 4, seed=11, ordering=ordering)
    assert sorted(leaf_values(tree)) == list(range(1, 82))  # type: ignore[type-var]
    assert (
        ev.minimax(tree, trace=False).exact_value
        == ev.minimax(ordered_tree(3, 4, seed=11, ordering="random"), trace=False).exact_value
    )


def test_best_and_worst_order_put_the_children_in_order_of_their_minimax_values() -> None:
    for ordering, best_first in (("best", True), ("worst", False)):
        tree = ordered_tree(3, 4, seed=2, ordering=ordering)
        for path, node in walk(tree):
            if node.kind in (MAX, MIN):
                values = [ev.minimax(child, trace=False).exact_value for child in node.children]
                descending = (node.kind == MAX) == best_first
                assert values == sorted(values, reverse=descending), (ordering, path)


@pytest.mark.parametrize(
    ("branching", "depth"), [(2, 2), (2, 5), (2, 8), (3, 3), (3, 4), (3, 6), (4, 4), (5, 3), (6, 4)]
)
@pytest.mark.parametrize("first", [MAX, MIN])
@pytest.mark.parametrize("prune_ties", [True, False])
def test_best_order_makes_alphabeta_evaluate_exactly_the_minimal_tree(
    branching: int, depth: int, first: str, prune_ties: bool
) -> None:
    """Knuth and Moore (1975): b^ceil(d/2) + b^floor(d/2) - 1 leaves."""
    for seed in range(3):
        tree = ordered_tree(branching, depth, seed=seed, ordering="best", first=first)
        assert leaves(ev.alphabeta, tree, prune_ties=prune_ties) == minimal_tree_leaves(branching, depth)
        assert leaves(ev.minimax, tree) == branching**depth


@given(branching=st.integers(1, 5), depth=st.integers(0, 6), seed=st.integers(0, 10**6))
def test_best_order_reaches_the_minimal_tree_for_any_seed(branching: int, depth: int, seed: int) -> None:
    tree = ordered_tree(branching, depth, seed=seed, ordering="best")
    assert leaves(ev.alphabeta, tree) == minimal_tree_leaves(branching, depth)


@pytest.mark.parametrize(("branching", "depth"), [(2, 1), (2, 3), (3, 2), (3, 3), (4, 3), (5, 3)])
def test_worst_order_makes_alphabeta_evaluate_every_leaf_up_to_depth_3(branching: int, depth: int) -> None:
    for seed in range(5):
        tree = ordered_tree(branching, depth, seed=seed, ordering="worst")
        assert leaves(ev.alphabeta, tree) == branching**depth


def test_worst_order_can_still_prune_from_depth_4() -> None:
    """Sorting by minimax value, worst first, is not enough for b^d below depth 3: alpha from the root reaches
    two levels down, where a MIN node's first leaf can already be <= alpha."""
    tree = ordered_tree(2, 4, seed=7, ordering="worst")
    assert to_text(tree) == (
        "max(min(max(min(2, 1), min(13, 9)), max(min(11, 3), min(16, 7))), "
        "min(max(min(6, 5), min(14, 12)), max(min(15, 4), min(10, 8))))"
    )
    assert leaves(ev.alphabeta, tree) == 15  # leaf 5 is pruned: 6 <= alpha = 9 (the root's first move)


@pytest.mark.parametrize(("branching", "depth"), [(2, 4), (2, 6), (3, 4), (3, 5), (4, 4), (5, 4)])
def test_worst_order_evaluates_the_most_leaves_of_the_three_orderings(branching: int, depth: int) -> None:
    for seed in range(5):
        counts = {o: leaves(ev.alphabeta, ordered_tree(branching, depth, seed=seed, ordering=o)) for o in ORDERINGS}
        assert counts["best"] <= counts["random"] <= counts["worst"] <= branching**depth
        assert counts["best"] == minimal_tree_leaves(branching, depth)


# ---------------------------------------------------------------- trees with chance


def test_chance_tree_levels_follow_the_pattern_and_depth_counts_chance_levels() -> None:
    tree = chance_tree(3, 2, 5, seed=0)
    assert height(tree) == 5
    assert kinds_by_level(tree) == {0: {MAX}, 1: {CHANCE}, 2: {MIN}, 3: {CHANCE}, 4: {MAX}, 5: {LEAF}}
    for _, node in walk(tree):
        if node.kind in (MAX, MIN):
            assert len(node.children) == 3
        elif node.kind == CHANCE:
            assert [p for p, _ in node.outcomes] == [Fraction(1, 2)] * 2
    other = chance_tree(2, 3, 3, seed=0, pattern=("chance", "min"))
    assert kinds_by_level(other) == {0: {CHANCE}, 1: {MIN}, 2: {CHANCE}, 3: {LEAF}}


def test_chance_tree_leaves_lie_within_the_bounds() -> None:
    tree = chance_tree(3, 3, 4, seed=3, bounds=(-2, 5))
    values = leaf_values(tree)
    assert all(isinstance(v, int) and -2 <= v <= 5 for v in values)
    assert {-2, 5} <= set(values)  # the ends are included


def test_random_probabilities_are_fractions_summing_to_one() -> None:
    tree = chance_tree(2, 3, 4, seed=8, probabilities="random")
    shares = set()
    for _, node in walk(tree):
        if node.kind == CHANCE:
            probabilities = [p for p, _ in node.outcomes]
            assert all(isinstance(p, Fraction) and 0 < p < 1 for p in probabilities)
            assert sum(probabilities) == 1
            shares.update(probabilities)
    assert len(shares) > 3


def test_best_order_puts_likely_outcomes_and_best_moves_first_in_the_same_game() -> None:
    drawn = chance_tree(3, 3, 4, seed=6, probabilities="random")
    best = chance_tree(3, 3, 4, seed=6, probabilities="random", ordering="best")
    assert ev.expectiminimax(best, trace=False).exact_value == ev.expectiminimax(drawn, trace=False).exact_value
    assert sorted(leaf_values(best)) == sorted(leaf_values(drawn))  # type: ignore[type-var]
    for _, node in walk(best):
        if node.kind == CHANCE:
            probabilities = [p for p, _ in node.outcomes]
            assert probabilities == sorted(probabilities, reverse=True)
        elif node.kind in (MAX, MIN):
            values = [ev.expectiminimax(child, trace=False).exact_value for child in node.children]
            assert values == sorted(values, reverse=node.kind == MAX)


@pytest.mark.parametrize("ordering", ["random", "best", "worst"])
@pytest.mark.parametrize("probabilities", ["equal", "random"])
@pytest.mark.parametrize(("branching", "outcomes", "depth"), [(2, 2, 4), (3, 2, 5), (2, 3, 6), (3, 3, 3)])
def test_regular_chance_trees_are_accepted_by_star2_and_star_values_are_exact(
    ordering: str, probabilities: str, branching: int, outcomes: int, depth: int
) -> None:
    for seed in range(2):
        bounds = (-10, 10)
        tree = chance_tree(
            branching, outcomes, depth, seed=seed, bounds=bounds, probabilities=probabilities, ordering=ordering
        )
        assert facts(tree).irregular is None
        exact = ev.expectiminimax(tree, trace=False)
        assert exact.stats.leaves_evaluated == len(leaf_values(tree))
        for search in (ev.star1, ev.star2):
            result = search(tree, bounds=bounds, trace=False)
            assert result.exact_value == exact.exact_value


# ---------------------------------------------------------------- exercises


@pytest.mark.parametrize("seed", range(20))
def test_small_minimax_exercise_shape(seed: int) -> None:
    tree = random_exercise(seed)
    assert tree.kind == MAX and tree.name == "A"
    assert [child.move for child in tree.children] == ["a1", "a2", "a3"]
    assert [child.name for child in tree.children] == ["B", "C", "D"]
    for child in tree.children:
        assert child.kind == MIN and 2 <= len(child.children) <= 3
        assert [g.move for g in child.children] == [f"{child.name.lower()}{i + 1}" for i in range(len(child.children))]  # type: ignore[union-attr]
        assert all(g.kind == LEAF for g in child.children)
    low, high = EXERCISE_BOUNDS
    assert all(low <= v <= high for v in leaf_values(tree))  # type: ignore[operator]


def test_small_exercises_vary_the_number_of_replies() -> None:
    sizes = {len(child.children) for seed in range(20) for child in random_exercise(seed).children}
    assert sizes == {2, 3}


@pytest.mark.parametrize("seed", range(10))
def test_small_chance_exercise_is_three_fair_coin_flips(seed: int) -> None:
    tree = random_exercise(seed, kind="chance")
    assert kinds_by_level(tree) == {0: {MAX}, 1: {CHANCE}, 2: {LEAF}}
    for child in tree.children:
        assert [(p, outcome.move) for p, outcome in child.outcomes] == [
            (Fraction(1, 2), "heads"),
            (Fraction(1, 2), "tails"),
        ]
    ev.star1(tree, bounds=EXERCISE_BOUNDS)  # the leaves lie within the bounds


def test_medium_exercises() -> None:
    tree = random_exercise(4, size="medium")
    assert kinds_by_level(tree) == {0: {MAX}, 1: {MIN}, 2: {MAX}, 3: {LEAF}}
    assert len(leaf_values(tree)) == 12
    assert [node.name for _, node in walk(tree) if node.name] == list("ABEFCGHDIJ")
    chance = random_exercise(4, kind="chance", size="medium")
    assert kinds_by_level(chance) == {0: {MAX}, 1: {CHANCE}, 2: {MIN}, 3: {LEAF}}
    assert ev.star2(chance, bounds=EXERCISE_BOUNDS).exact_value == ev.expectiminimax(chance).exact_value


def test_an_exercise_pinned_by_its_seed() -> None:
    assert to_text(random_exercise(1)) == (
        "max A(a1: min B(b1: 3, b2: 15), a2: min C(c1: 14, c2: 15), a3: min D(d1: 20, d2: 12, d3: 6))"
    )
    assert ev.minimax(random_exercise(1)).value == 14
