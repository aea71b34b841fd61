"""Hypothesis properties of the five algorithms and their traces, on random trees (tests/strategies.py).

A value right only at the root is wrong: besides the root's value, every backed-up value in the trace is checked
against a tiny independent reference implementation (exactly for minimax and expectiminimax, as a fail-soft bound
for the pruning algorithms).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import (
    leftmost_best,
    negate,
    reference_value,
    reference_values,
    subtree,
    transform,
    trees,
    truncate,
    value_range,
    walk_paths,
)

import expectviz as ev
from expectviz.notation import parse, to_text
from expectviz.tree import LEAF, Node
from expectviz.tree_json import from_json, to_json

INF = math.inf

minmax_trees = trees()
chance_trees = trees(chance=True)
regular_trees = trees(chance=True, regular=True, max_nodes=50, leaf_odds=6)
prune_ties = st.booleans()


@st.composite
def bounded(draw: Any, tree_strategy: Any) -> tuple[Node, tuple[Any, Any]]:
    """A tree and valid value bounds for Star1/Star2: tight, with slack, or open on one or both sides."""
    tree = draw(tree_strategy)
    low, high = value_range(tree)
    kind = draw(st.sampled_from(["tight", "slack", "slack", "open-low", "open-high", "open"]))
    if kind == "tight":
        lo, hi = low, high
    else:
        lo = low - draw(st.integers(0, 5))
        hi = high + draw(st.integers(0, 5))
    if kind in ("open-low", "open"):
        lo = -INF
    if kind in ("open-high", "open"):
        hi = INF
    if not lo < hi:  # a tree whose values are all equal: widen to a valid pair
        hi = lo + 1
    return tree, (lo, hi)


def leaf_paths(result: ev.Result) -> list[tuple[int, ...]]:
    assert result.trace is not None
    return [e.path for e in result.trace if e.kind == "leaf"]


def dfs_rank(tree: Node) -> dict[tuple[int, ...], int]:
    return {path: i for i, (path, _) in enumerate(walk_paths(tree))}


def is_subsequence(part: list[tuple[int, ...]], whole: list[tuple[int, ...]]) -> bool:
    it = iter(whole)
    return all(any(p == w for w in it) for p in part)


def run_all(tree: Node, bounds: tuple[Any, Any] | None = None, **options: Any) -> dict[str, ev.Result]:
    """Every algorithm that applies to the tree."""
    results = {"expectiminimax": ev.expectiminimax(tree, **options)}
    has_chance = any(n.kind == "chance" for _, n in walk_paths(tree))
    if not has_chance:
        results["minimax"] = ev.minimax(tree, **options)
        results["alphabeta"] = ev.alphabeta(tree, **options)
    if bounds is not None:
        results["star1"] = ev.star1(tree, bounds=bounds, **options)
        regular = all(
            len({c.kind for c in n.children}) == 1 and n.children[0].kind != "chance"
            for _, n in walk_paths(tree)
            if n.kind == "chance"
        )
        if regular:
            results["star2"] = ev.star2(tree, bounds=bounds, **options)
    return results


# ---------------------------------------------------------------- values agree


@given(minmax_trees, prune_ties)
def test_alphabeta_equals_minimax_and_evaluates_a_subsequence_of_its_leaves(tree: Node, ties: bool) -> None:
    full = ev.minimax(tree)
    pruned = ev.alphabeta(tree, prune_ties=ties)
    assert pruned.exact_value == full.exact_value == reference_value(tree)
    assert pruned.best_move == full.best_move
    assert is_subsequence(leaf_paths(pruned), leaf_paths(full))
    assert pruned.best_move == leftmost_best(tree)
    assert full.stats.leaves_evaluated == sum(1 for _, n in walk_paths(tree) if n.kind == LEAF)
    assert full.stats.nodes_visited == sum(1 for _ in walk_paths(tree))
    assert pruned.stats.leaves_evaluated <= full.stats.leaves_evaluated


@given(minmax_trees)
def test_pruning_ties_never_searches_more(tree: Node) -> None:
    """Cutting on equality (AIMA's rule) never evaluates more leaves than the strict rule."""
    ties = ev.alphabeta(tree, prune_ties=True)
    strict = ev.alphabeta(tree, prune_ties=False)
    assert ties.exact_value == strict.exact_value
    assert is_subsequence(leaf_paths(ties), leaf_paths(strict))


@given(bounded(chance_trees), prune_ties)
def test_star1_equals_expectiminimax(case: tuple[Node, tuple[Any, Any]], ties: bool) -> None:
    tree, bounds = case
    exact = ev.expectiminimax(tree)
    star = ev.star1(tree, bounds=bounds, prune_ties=ties)
    assert exact.exact_value == reference_value(tree)
    assert star.exact_value == exact.exact_value
    assert star.best_move == exact.best_move
    # Star1 never searches a node twice: its leaves are a subsequence of expectiminimax's.
    assert is_subsequence(leaf_paths(star), leaf_paths(exact))
    # Without bounds, Star1 still prunes below MAX and MIN nodes, and is still exact.
    assert ev.star1(tree, bounds=(-INF, INF), prune_ties=ties).exact_value == exact.exact_value


@given(bounded(regular_trees), prune_ties)
def test_star2_equals_star1_and_expectiminimax(case: tuple[Node, tuple[Any, Any]], ties: bool) -> None:
    tree, bounds = case
    exact = ev.expectiminimax(tree).exact_value
    assert ev.star1(tree, bounds=bounds, prune_ties=ties).exact_value == exact
    r = ev.star2(tree, bounds=bounds, prune_ties=ties)
    assert r.exact_value == exact
    assert r.best_move == ev.expectiminimax(tree).best_move
    assert ev.star2(tree, bounds=(-INF, INF), prune_ties=ties).exact_value == exact


@given(minmax_trees)
def test_star_on_trees_without_chance_nodes_is_alphabeta(tree: Node) -> None:
    low, high = value_range(tree)
    ab = ev.alphabeta(tree)
    for star in (ev.star1, ev.star2):
        r = star(tree, bounds=(-INF, INF))
        assert r.exact_value == ab.exact_value
        assert leaf_paths(r) == leaf_paths(ab)
        assert star(tree, bounds=(low - 1, high + 1)).exact_value == ab.exact_value


@given(bounded(regular_trees))
def test_negating_leaves_and_swapping_max_min_negates_every_algorithm(case: tuple[Node, tuple[Any, Any]]) -> None:
    tree, (lo, hi) = case
    mirror = negate(tree)
    before = run_all(tree, (lo, hi))
    after = run_all(mirror, (-hi, -lo))
    assert before.keys() == after.keys()
    for name, r in before.items():
        assert after[name].exact_value == -r.exact_value, name
        assert after[name].best_move == r.best_move, name
        assert after[name].stats == r.stats, name  # the algorithms are symmetric: the same search, mirrored


@given(minmax_trees)
def test_negation_mirrors_alphabeta_on_max_min_trees(tree: Node) -> None:
    mirror = negate(tree)
    for ties in (True, False):
        a, b = ev.alphabeta(tree, prune_ties=ties), ev.alphabeta(mirror, prune_ties=ties)
        assert b.exact_value == -a.exact_value
        assert b.stats == a.stats
        assert leaf_paths(b) == leaf_paths(a)


@given(chance_trees, st.fractions(min_value=Fraction(1, 7), max_value=7), st.integers(-10, 10))
def test_a_positive_linear_transformation_never_changes_the_decision(tree: Node, a: Fraction, b: int) -> None:
    """AIMA 3rd ed. Section 5.5.1 (Fig. 5.12): only positive linear transformations of the evaluation are safe."""
    assume(a > 0)
    moved = transform(tree, lambda x: a * x + b)
    before, after = ev.expectiminimax(tree), ev.expectiminimax(moved)
    assert after.best_move == before.best_move
    assert after.exact_value == a * before.exact_value + b


# ---------------------------------------------------------------- best move


@given(bounded(regular_trees))
def test_best_move_is_the_leftmost_child_with_the_root_value(case: tuple[Node, tuple[Any, Any]]) -> None:
    tree, bounds = case
    expected = leftmost_best(tree)
    for name, r in run_all(tree, bounds).items():
        assert r.best_move == expected, name


# ---------------------------------------------------------------- tracing


@given(bounded(regular_trees))
def test_tracing_never_changes_a_value_or_the_stats(case: tuple[Node, tuple[Any, Any]]) -> None:
    tree, bounds = case
    traced = run_all(tree, bounds)
    untraced = run_all(tree, bounds, trace=False)
    for name, r in traced.items():
        q = untraced[name]
        assert q.trace is None
        assert r.trace is not None
        assert (q.exact_value, q.best_move, q.stats) == (r.exact_value, r.best_move, r.stats), name
        assert r.trace.stats() == r.stats


def check_stack_discipline(tree: Node, trace: ev.Trace) -> None:
    """Every visit is closed exactly once, by a leaf, backup or probe event of the same node, in stack order."""
    stack: list[tuple[int, ...]] = []
    opened: dict[tuple[int, ...], int] = {}
    closed: dict[tuple[int, ...], int] = {}
    for event in trace:
        if event.kind == "visit":
            if stack:
                assert event.path[:-1] == stack[-1], event
                assert 0 <= event.path[-1] < len(subtree(tree, stack[-1]).children)
            else:
                assert event.path == () and not opened, event  # one root visit
            stack.append(event.path)
            opened[event.path] = opened.get(event.path, 0) + 1
        elif event.kind in ("leaf", "backup", "probe"):
            assert stack and stack[-1] == event.path, event
            stack.pop()
            closed[event.path] = closed.get(event.path, 0) + 1
            node = subtree(tree, event.path)
            if event.kind == "leaf":  # the value really is that node's utility or static evaluation
                assert event.value == (node.value if node.kind == LEAF else node.evaluation), event
        elif event.kind == "reuse":  # Star2: a child of the open node whose value its probe found
            assert stack and event.path[:-1] == stack[-1] and event.path[-1] == 0, event
        else:
            assert stack and stack[-1] == event.path, event
    assert not stack
    assert opened == closed


@given(bounded(regular_trees))
def test_every_visit_is_closed_exactly_once(case: tuple[Node, tuple[Any, Any]]) -> None:
    tree, bounds = case
    for r in run_all(tree, bounds).values():
        assert r.trace is not None
        check_stack_discipline(tree, r.trace)
        visits = sum(1 for e in r.trace if e.kind == "visit")
        assert visits == r.stats.nodes_visited


@given(bounded(chance_trees))
def test_every_visit_is_closed_exactly_once_star1(case: tuple[Node, tuple[Any, Any]]) -> None:
    tree, bounds = case
    r = ev.star1(tree, bounds=bounds)
    assert r.trace is not None
    check_stack_discipline(tree, r.trace)


@given(trees(chance=True, fractions=True))
def test_every_backup_of_expectiminimax_is_exact(tree: Node) -> None:
    truth = reference_values(tree)
    r = ev.expectiminimax(tree)
    assert r.exact_value == truth[()]
    assert r.trace is not None
    for event in r.trace:
        if event.kind in ("leaf", "backup"):
            assert event.value == truth[event.path], event


@given(minmax_trees)
def test_every_backup_of_minimax_is_exact(tree: Node) -> None:
    truth = reference_values(tree)
    r = ev.minimax(tree)
    assert r.trace is not None
    for event in r.trace:
        if event.kind in ("leaf", "backup"):
            assert event.value == truth[event.path], event


def check_fail_soft(tree: Node, trace: ev.Trace) -> None:
    """Each closing value v, against the window (alpha, beta) its node was visited with:
    v <= alpha => true <= v;  v >= beta => true >= v;  otherwise v == true.
    A Star2 probe's value is its node's first child's value, searched with the same window."""
    truth = reference_values(tree)
    windows: list[tuple[Any, Any]] = []
    for event in trace:
        if event.kind == "visit":
            windows.append((event.alpha, event.beta))
            continue
        if event.kind not in ("leaf", "backup", "probe"):
            continue
        alpha, beta = windows.pop()
        v = event.value
        true = truth[event.path + (0,)] if event.kind == "probe" else truth[event.path]
        if v <= alpha:
            assert true <= v, (event, alpha, beta, true)
        elif v >= beta:
            assert true >= v, (event, alpha, beta, true)
        else:
            assert v == true, (event, alpha, beta, true)


@given(minmax_trees, prune_ties)
def test_every_alphabeta_value_is_fail_soft_correct(tree: Node, ties: bool) -> None:
    r = ev.alphabeta(tree, prune_ties=ties)
    assert r.trace is not None
    check_fail_soft(tree, r.trace)


@given(bounded(chance_trees), prune_ties)
def test_every_star1_value_is_fail_soft_correct(case: tuple[Node, tuple[Any, Any]], ties: bool) -> None:
    tree, bounds = case
    r = ev.star1(tree, bounds=bounds, prune_ties=ties)
    assert r.trace is not None
    check_fail_soft(tree, r.trace)


@given(bounded(regular_trees), prune_ties)
def test_every_star2_value_is_fail_soft_correct(case: tuple[Node, tuple[Any, Any]], ties: bool) -> None:
    tree, bounds = case
    r = ev.star2(tree, bounds=bounds, prune_ties=ties)
    assert r.trace is not None
    check_fail_soft(tree, r.trace)


@given(bounded(regular_trees))
def test_the_final_frame_shows_the_root_done_and_nothing_unsearched(case: tuple[Node, tuple[Any, Any]]) -> None:
    """After the search, every node was searched (done), probed, or pruned: none is left 'unvisited'."""
    tree, bounds = case
    for name, r in run_all(tree, bounds).items():
        assert r.trace is not None
        final = r.trace.frame(len(r.trace))
        assert final.stack == ()
        assert final.node(()).status == "done"
        assert final.node(()).value == r.exact_value
        for path, _ in walk_paths(tree):
            status = final.node(path).status
            assert status in ("done", "probed", "pruned"), (name, path, status, str(r.trace))
            if name in ("minimax", "expectiminimax"):
                assert status == "done"


# ---------------------------------------------------------------- depth limits


@st.composite
def depth_cases(draw: Any) -> tuple[Node, int, tuple[Any, Any]]:
    tree = draw(trees(chance=True, regular=True, evaluations=True))
    depth = draw(st.integers(0, 6))
    low, high = value_range(tree)
    return tree, depth, (low - 1, high + 1)


@given(depth_cases())
def test_depth_limited_search_equals_search_of_the_truncated_tree(case: tuple[Node, int, tuple[Any, Any]]) -> None:
    tree, depth, bounds = case
    cut = truncate(tree, depth)
    limited = run_all(tree, bounds, depth=depth)
    whole = run_all(cut, bounds)
    assert limited.keys() <= whole.keys()  # cutting may remove every chance node, never add one
    for name, r in limited.items():
        q = whole[name]
        assert (r.exact_value, r.best_move, r.stats) == (q.exact_value, q.best_move, q.stats), name
        assert r.exact_value == reference_value(tree, depth)
        assert r.trace is not None and q.trace is not None
        assert list(r.trace) == list(q.trace), name


@given(minmax_trees)
def test_a_depth_limit_at_or_beyond_the_height_changes_nothing(tree: Node) -> None:
    height = max(len(p) for p, _ in walk_paths(tree))
    full = ev.alphabeta(tree)
    for depth in (height, height + 1, height + 5):
        r = ev.alphabeta(tree, depth=depth)
        assert (r.exact_value, r.best_move, r.stats) == (full.exact_value, full.best_move, full.stats)


# ---------------------------------------------------------------- serialization


@given(bounded(regular_trees))
def test_trace_json_round_trip(case: tuple[Node, tuple[Any, Any]]) -> None:
    tree, bounds = case
    for name, r in run_all(tree, bounds).items():
        assert r.trace is not None
        text = r.trace.to_json()
        back = ev.Trace.from_json(text)
        assert list(back) == list(r.trace), name
        assert str(back) == str(r.trace), name
        assert back.stats() == r.stats
        assert back.algorithm == r.trace.algorithm
        assert back.tree == tree
        assert json.loads(back.to_json()) == json.loads(text)
        assert back.frame(len(back)) == r.trace.frame(len(r.trace))


@given(trees(chance=True, labels=True, evaluations=None, fractions=True, max_nodes=20))
def test_text_and_json_round_trip(tree: Node) -> None:
    text = to_text(tree)
    again = parse(text)
    assert again == tree and hash(again) == hash(tree)
    assert to_text(again) == text
    assert from_json(to_json(tree)) == tree
    assert from_json(json.loads(to_json(tree, indent=2))) == tree
    assert transform(tree, lambda x: x + 1) != tree
    assert transform(tree, lambda x: x + 1) != tree
