"""Every number of the textbook figures and papers, reproduced exactly (the project is wrong until shown otherwise).

Counting conventions: nodes visited counts every node whose search began; leaves evaluated counts
utility and static evaluations; a cutoff is a node left before all of its children were searched.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest
from strategies import best_first, transform, uniform_tree, walk_paths

import expectviz as ev
from expectviz.tree import Node

INF = math.inf

FIG_5_2 = "max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))"
A, B, C, D = (), (0,), (1,), (2,)
NAMES = {  # the labelled textbook tree: path -> move label
    **{(i,): f"a{i + 1}" for i in range(3)},
    **{(i, j): f"{'bcd'[i]}{j + 1}" for i in range(3) for j in range(3)},
}


def fig52() -> Node:
    return ev.textbook("aima-fig-5.2")


def backups(result: ev.Result) -> dict[tuple[int, ...], object]:
    """The last value backed up (or evaluated) at each path."""
    assert result.trace is not None
    return {e.path: e.value for e in result.trace if e.kind in ("backup", "leaf")}


def leaf_step(trace: ev.Trace, path: tuple[int, ...]) -> int:
    """The step of the frame right after the leaf at ``path`` is evaluated."""
    (index,) = [i for i, e in enumerate(trace) if e.kind == "leaf" and e.path == path]
    return index + 1


# ---------------------------------------------------------------- AIMA Fig. 5.2


def test_fig_5_2_is_the_textbook_tree() -> None:
    tree = fig52()
    assert tree == ev.parse(
        "max A(a1: min B(b1: 3, b2: 12, b3: 8), a2: min C(c1: 2, c2: 4, c3: 6), a3: min D(d1: 14, d2: 5, d3: 2))"
    )
    assert [c.name for c in tree.children] == ["B", "C", "D"]
    assert tree.name == "A"
    assert [[leaf.value for leaf in c.children] for c in tree.children] == [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
    for path, label in NAMES.items():
        node = tree
        for i in path:
            node = node.children[i]
        assert node.move == label


@pytest.mark.parametrize("text", [FIG_5_2, "aima-fig-5.2"])
def test_fig_5_2_values(text: str) -> None:
    r = ev.minimax(text)
    values = backups(r)
    assert (values[B], values[C], values[D], values[A]) == (3, 2, 2, 3)
    assert r.value == 3 and r.exact_value == 3


def test_fig_5_2_best_move_is_a1() -> None:
    assert ev.minimax(fig52()).best_move == "a1"
    assert ev.alphabeta(fig52()).best_move == "a1"
    assert ev.minimax(FIG_5_2).best_move == 0


def test_fig_5_2_mins_best_replies_are_b1_c1_d3() -> None:
    tree = fig52()
    replies = [ev.minimax(child).best_move for child in tree.children]
    assert replies == ["b1", "c1", "d3"]
    assert [ev.minimax(child).value for child in tree.children] == [3, 2, 2]


def test_fig_5_2_minimax_counts() -> None:
    r = ev.minimax(fig52())
    assert r.stats == ev.Stats(nodes_visited=13, leaves_evaluated=9, cutoffs=0)


def test_fig_5_2_alphabeta_counts() -> None:
    r = ev.alphabeta(fig52())
    assert r.stats == ev.Stats(nodes_visited=11, leaves_evaluated=7, cutoffs=1)
    assert r.value == 3


def test_fig_5_2_alphabeta_cuts_once_at_c_pruning_exactly_c2_and_c3() -> None:
    r = ev.alphabeta(fig52())
    assert r.trace is not None
    cutoffs = [e for e in r.trace if e.kind == "cutoff"]
    assert len(cutoffs) == 1
    (cut,) = cutoffs
    assert cut.path == C and cut.child == 1 and cut.value == 2
    final = r.trace.frame(len(r.trace))
    pruned = {path for path, _ in walk_paths(r.tree) if final.node(path).status == "pruned"}
    assert pruned == {(1, 1), (1, 2)}  # c2 = 4 and c3 = 6
    assert final.node(C).cut
    evaluated = [e.path for e in r.trace if e.kind == "leaf"]
    assert [NAMES[p] for p in evaluated] == ["b1", "b2", "b3", "c1", "d1", "d2", "d3"]


# The stages of 3rd ed. Fig. 5.5 / 4th ed. Fig. 6.5: [lower, upper] after each leaf (None: not reached yet).
FIG_5_5 = [
    ("a", (0, 0), [(-INF, INF), (-INF, 3), None, None]),
    ("b", (0, 1), [(-INF, INF), (-INF, 3), None, None]),
    ("c", (0, 2), [(3, INF), (3, 3), None, None]),
    ("d", (1, 0), [(3, INF), (3, 3), (-INF, 2), None]),
    ("e", (2, 0), [(3, 14), (3, 3), (-INF, 2), (-INF, 14)]),
    ("f", (2, 2), [(3, 3), (3, 3), (-INF, 2), (2, 2)]),
]


@pytest.mark.parametrize(("stage", "leaf", "ranges"), FIG_5_5, ids=[row[0] for row in FIG_5_5])
def test_fig_5_5_stages(stage: str, leaf: tuple[int, ...], ranges: list[tuple[float, float] | None]) -> None:
    r = ev.alphabeta(fig52())
    assert r.trace is not None
    frame = r.trace.frame(leaf_step(r.trace, leaf))
    assert frame.event is not None and frame.event.kind == "leaf" and frame.event.path == leaf
    for path, expected in zip((A, B, C, D), ranges, strict=True):
        state = frame.node(path)
        if expected is None:
            assert state.status == "unvisited", (stage, path)
        else:
            assert state.status != "unvisited", (stage, path)
            assert state.range == expected, (stage, path, state.range)


def test_fig_5_5_stage_d_prunes_c2_and_c3_right_after_c1() -> None:
    r = ev.alphabeta(fig52())
    assert r.trace is not None
    step = leaf_step(r.trace, (1, 0))
    before, after = r.trace.frame(step), r.trace.frame(step + 1)
    assert before.node((1, 1)).status == before.node((1, 2)).status == "unvisited"
    assert after.event is not None and after.event.kind == "cutoff" and after.event.path == C
    assert after.node((1, 1)).status == after.node((1, 2)).status == "pruned"
    assert [after.node(p).range for p in (A, B, C)] == [(3, INF), (3, 3), (-INF, 2)]
    assert after.node(D).status == "unvisited"


def test_fig_5_5_stage_f_after_d2() -> None:
    """Between (e) and (f): after d2 = 5, D is at most 5 and so is A."""
    r = ev.alphabeta(fig52())
    assert r.trace is not None
    frame = r.trace.frame(leaf_step(r.trace, (2, 1)))
    assert frame.node(D).range == (-INF, 5)
    assert frame.node(A).range == (3, 5)


# ---------------------------------------------------------------- the coin flips


@pytest.mark.parametrize("tree", ["max(chance(10, 0), chance(5, 15))", "coin-flip"])
def test_seed_coin_flip(tree: str) -> None:
    r = ev.expectiminimax(tree)
    assert r.stats == ev.Stats(nodes_visited=7, leaves_evaluated=4, cutoffs=0)
    values = backups(r)
    assert (values[(0,)], values[(1,)]) == (5, 10)
    assert r.value == 10
    assert r.best_move == (1 if tree.startswith("max") else "right")


def test_seed_coin_flip_outcomes_are_equally_likely() -> None:
    tree = ev.parse("max(chance(10, 0), chance(5, 15))")
    assert [[p for p, _ in c.outcomes] for c in tree.children] == [[Fraction(1, 2)] * 2] * 2


def test_lecture_coin_flip_with_min() -> None:
    for tree in ("max(min(10, 10), min(9, 100))", "lecture-coin-flip-min"):
        r = ev.minimax(tree)
        assert r.value == 10
        assert backups(r)[(0,)] == 10 and backups(r)[(1,)] == 9
    assert ev.minimax("lecture-coin-flip-min").best_move == "left"
    assert ev.minimax("max(min(10, 10), min(9, 100))").best_move == 0


def test_lecture_coin_flip_with_chance() -> None:
    for tree in ("max(chance(10, 10), chance(9, 100))", "lecture-coin-flip-chance"):
        r = ev.expectiminimax(tree)
        assert r.exact_value == Fraction(109, 2) and r.value == 54.5
        assert backups(r)[(0,)] == 10 and backups(r)[(1,)] == Fraction(109, 2)
    assert ev.expectiminimax("lecture-coin-flip-chance").best_move == "right"
    assert ev.expectiminimax("max(chance(10, 10), chance(9, 100))").best_move == 1


# ---------------------------------------------------------------- AIMA Fig. 5.12


def test_fig_5_12_left() -> None:
    tree = ev.parse("max(a1: chance(0.9: min(2, 2), 0.1: min(3, 3)), a2: chance(0.9: min(1, 1), 0.1: min(4, 4)))")
    assert tree == ev.textbook("aima-fig-5.12-left")
    r = ev.expectiminimax(tree)
    assert [ev.expectiminimax(c).exact_value for c in tree.children] == [Fraction(21, 10), Fraction(13, 10)]
    assert (backups(r)[(0,)], backups(r)[(1,)]) == (Fraction(21, 10), Fraction(13, 10))
    assert r.best_move == "a1" and r.exact_value == Fraction(21, 10)


def test_fig_5_12_right() -> None:
    tree = ev.parse(
        "max(a1: chance(0.9: min(20, 20), 0.1: min(30, 30)), a2: chance(0.9: min(1, 1), 0.1: min(400, 400)))"
    )
    assert tree == ev.textbook("aima-fig-5.12-right")
    r = ev.expectiminimax(tree)
    assert [ev.expectiminimax(c).exact_value for c in tree.children] == [21, Fraction(409, 10)]
    assert r.best_move == "a2" and r.exact_value == Fraction(409, 10)


def test_fig_5_12_order_preserving_map_changes_the_decision() -> None:
    """Leaves 1 2 3 4 of the left tree map to 1 20 30 400 of the right one: same order, other decision."""
    left, right = ev.textbook("aima-fig-5.12-left"), ev.textbook("aima-fig-5.12-right")
    mapping = {1: 1, 2: 20, 3: 30, 4: 400}
    left_leaves = [n.value for _, n in walk_paths(left) if n.is_leaf]
    right_leaves = [n.value for _, n in walk_paths(right) if n.is_leaf]
    assert [mapping[v] for v in left_leaves] == right_leaves
    assert ev.expectiminimax(left).best_move != ev.expectiminimax(right).best_move


def test_fig_5_12_positive_linear_map_keeps_the_decision() -> None:
    """A positive linear transformation never changes the decision (the random-tree version is in
    test_properties.py)."""
    for name in ("aima-fig-5.12-left", "aima-fig-5.12-right"):
        tree = ev.textbook(name)
        r = ev.expectiminimax(tree)
        for a, b in [(2, 0), (10, -7), (Fraction(1, 3), 5), (Fraction(7, 2), -100)]:
            q = ev.expectiminimax(transform(tree, lambda x, a=a, b=b: a * x + b))
            assert q.best_move == r.best_move
            assert q.exact_value == a * r.exact_value + b


# ---------------------------------------------------------------- squaring the leaves 0, 40 | 20, 30


def test_squaring_leaves_keeps_the_minimax_decision() -> None:
    before = ev.minimax("max(min(0, 40), min(20, 30))")
    after = ev.minimax("max(min(0, 1600), min(400, 900))")
    assert (before.value, before.best_move) == (20, 1)
    assert (after.value, after.best_move) == (400, 1)


def test_squaring_leaves_changes_the_expectimax_decision() -> None:
    before = ev.expectiminimax("max(chance(0, 40), chance(20, 30))")
    after = ev.expectiminimax("max(chance(0, 1600), chance(400, 900))")
    assert (backups(before)[(0,)], backups(before)[(1,)]) == (20, 25)
    assert before.best_move == 1 and before.value == 25
    assert (backups(after)[(0,)], backups(after)[(1,)]) == (800, 650)
    assert after.best_move == 0 and after.value == 800


# ---------------------------------------------------------------- *-minimax: the AIMA exercise tree

STAR_EXERCISE = "max(chance(min(2, 2), min(1, 2)), chance(min(0, 2), min(-1, 0)))"


def test_star_exercise_values() -> None:
    tree = ev.parse(STAR_EXERCISE)
    assert tree == ev.textbook("aima-star-exercise")
    assert ev.TEXTBOOK["aima-star-exercise"].bounds == (-2, 2)
    assert all(p == Fraction(1, 2) for _, c in walk_paths(tree) if c.kind == "chance" for p, _ in c.outcomes)
    r = ev.expectiminimax(tree)
    values = backups(r)
    assert [values[p] for p in [(0, 0), (0, 1), (1, 0), (1, 1)]] == [2, 1, 0, -1]
    assert (values[(0,)], values[(1,)]) == (Fraction(3, 2), Fraction(-1, 2))
    assert r.exact_value == Fraction(3, 2) and r.value == 1.5
    assert r.best_move == 0
    assert r.stats.leaves_evaluated == 8


def test_star_exercise_star1_with_bounds_evaluates_5_leaves() -> None:
    r = ev.star1(STAR_EXERCISE, bounds=(-2, 2))
    assert r.stats.leaves_evaluated == 5
    assert r.exact_value == Fraction(3, 2) and r.best_move == 0
    assert r.trace is not None
    evaluated = [e.path for e in r.trace if e.kind == "leaf"]
    assert evaluated == [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0)]  # leaf 5 is 0
    # After leaf 5 = 0, the right chance node is at most 0.5 * 0 + 0.5 * 2 = 1 < 1.5: it is cut there.
    cut = [e for e in r.trace if e.kind == "cutoff" and e.path == (1,)]
    assert len(cut) == 1 and cut[0].value == 1 and cut[0].child == 1


def test_star_exercise_star1_without_bounds_skips_only_leaf_8() -> None:
    r = ev.star1(STAR_EXERCISE, bounds=(-INF, INF))
    assert r.stats.leaves_evaluated == 7
    assert r.exact_value == Fraction(3, 2) and r.best_move == 0
    assert r.trace is not None
    evaluated = {e.path for e in r.trace if e.kind == "leaf"}
    all_leaves = {p for p, n in walk_paths(r.tree) if n.is_leaf}
    assert all_leaves - evaluated == {(1, 1, 1)}


# ---------------------------------------------------------------- Star2 beats Star1

STAR2_TREE = "max(1.5, chance(min(1.8, 1.9), min(0.5, 1)))"


def test_star2_beats_star1_leaf_counts() -> None:
    assert ev.parse(STAR2_TREE) == ev.textbook("star2-beats-star1")
    one = ev.star1(STAR2_TREE, bounds=(-2, 2))
    two = ev.star2(STAR2_TREE, bounds=(-2, 2))
    assert one.stats.leaves_evaluated == 4
    assert two.stats.leaves_evaluated == 3
    assert one.exact_value == two.exact_value == ev.expectiminimax(STAR2_TREE).exact_value == Fraction(3, 2)
    assert one.best_move == two.best_move == 0


def test_star2_probes_and_bound_are_in_the_trace() -> None:
    r = ev.star2(STAR2_TREE, bounds=(-2, 2))
    assert r.trace is not None
    probes = [(e.path, e.value) for e in r.trace if e.kind == "probe"]
    assert probes == [((1, 0), Fraction(9, 5)), ((1, 1), Fraction(1, 2))]
    bound = Fraction(9, 10) + Fraction(1, 4)  # 0.5 * 1.8 + 0.5 * 0.5 = 1.15 <= 1.5
    assert bound == Fraction(23, 20)
    upper_bounds = [e.beta for e in r.trace if e.kind == "bounds" and e.path == (1,)]
    cut_values = [e.value for e in r.trace if e.kind == "cutoff" and e.path == (1,)]
    assert bound in upper_bounds or bound in cut_values
    assert cut_values == [bound]
    # The cut comes after the third leaf: no leaf is evaluated after the probes.
    leaves = [e.path for e in r.trace if e.kind == "leaf"]
    assert leaves == [(0,), (1, 0, 0), (1, 1, 0)]


# ---------------------------------------------------------------- Knuth and Moore


KNUTH_MOORE = [(2, 1), (2, 2), (2, 3), (2, 4), (2, 5), (2, 6), (3, 2), (3, 3), (3, 4), (4, 2), (4, 3), (5, 3)]


@pytest.mark.parametrize(("b", "d"), KNUTH_MOORE)
def test_knuth_moore_minimal_tree(b: int, d: int) -> None:
    rng = random.Random(b * 100 + d)
    values = rng.sample(range(10 * b**d), b**d)  # distinct leaves: no tie prunes extra
    tree = best_first(uniform_tree(b, d, iter(values)))
    minimal = b ** math.ceil(d / 2) + b ** math.floor(d / 2) - 1
    for ties in (True, False):
        assert ev.alphabeta(tree, prune_ties=ties).stats.leaves_evaluated == minimal
    full = ev.minimax(tree)
    assert full.stats.leaves_evaluated == b**d
    assert ev.alphabeta(tree).exact_value == full.exact_value


def test_knuth_moore_worst_ordering_prunes_nothing() -> None:
    """The reverse of perfect ordering (worst first, distinct leaves) lets alpha-beta cut nothing on 2 plies."""
    tree = best_first(uniform_tree(3, 2, iter(range(9))))
    worst = ev.parse(
        "max("
        + ", ".join(
            "min(" + ", ".join(str(g.value) for g in reversed(c.children)) + ")" for c in reversed(tree.children)
        )
        + ")"
    )
    assert ev.alphabeta(worst).stats.leaves_evaluated == 9


# ---------------------------------------------------------------- backgammon dice


def backgammon_roll_node() -> str:
    rolls = []
    for i, j in itertools.combinations_with_replacement(range(1, 7), 2):
        p = "1/36" if i == j else "1/18"
        moves = 4 * i if i == j else i + j  # pips moved: doubles are played four times
        rolls.append(f"r{i}{j} {p}: {moves}")
    return "chance(" + ", ".join(rolls) + ")"


def test_backgammon_dice_has_21_rolls_summing_to_1() -> None:
    tree = ev.parse(backgammon_roll_node())
    assert len(tree.children) == 21
    probabilities = [p for p, _ in tree.outcomes]
    assert sum(probabilities) == 1
    assert sorted(set(probabilities)) == [Fraction(1, 36), Fraction(1, 18)]
    assert probabilities.count(Fraction(1, 36)) == 6 and probabilities.count(Fraction(1, 18)) == 15
    # The expected number of pips a roll moves: 294 / 36 = 49 / 6.
    assert ev.expectiminimax(tree).exact_value == Fraction(49, 6)


def test_backgammon_dice_with_one_roll_missing_is_rejected() -> None:
    text = backgammon_roll_node().replace("r66 1/36: 24", "r66 1/18: 24")
    with pytest.raises(ev.InvalidTreeError, match="sum"):
        ev.parse(text)
