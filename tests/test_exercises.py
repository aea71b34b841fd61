"""Self-check exercises: answers judged right or wrong, with feedback that names the node and the rule.

The widget is driven from Python (set the text, click the button), as a student would in the browser.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from fractions import Fraction

import pytest

import expectviz as ev
from expectviz.exercises import (
    NOT_ANSWERED,
    ExerciseError,
    Feedback,
    check_answer,
    check_move,
    check_pruned,
    check_set,
    check_value,
    find_node,
    leaves,
    pruned_leaves,
    pruned_quiz,
    quiz,
    value_of,
    value_quiz,
)
from expectviz.explain import describe_path
from expectviz.numbers import format_number

FIG_5_2 = "aima-fig-5.2"

# ---------------------------------------------------------------- naming nodes


@pytest.mark.parametrize(
    ("ref", "path"),
    [("A", ()), ("B", (0,)), ("a3", (2,)), ("d3", (2, 2)), (1, (0, 0)), ("9", (2, 2)), ((1, 2), (1, 2)), ((), ())],
)
def test_find_node_by_name_label_number_or_path(ref: object, path: tuple[int, ...]) -> None:
    assert find_node(ev.textbook(FIG_5_2), ref) == path  # type: ignore[arg-type]


@pytest.mark.parametrize("ref", ["Z", 0, 10, (3,), (0, 0, 0), 1.5, True])
def test_find_node_refuses_what_is_not_there(ref: object) -> None:
    with pytest.raises(ExerciseError):
        find_node(ev.textbook(FIG_5_2), ref)  # type: ignore[arg-type]


def test_an_ambiguous_label_asks_for_a_path() -> None:
    with pytest.raises(ExerciseError, match="2 nodes are called 'x'"):
        find_node(ev.parse("max(x: min(x: 1, 2), 3)"), "x")


def test_leaves_are_numbered_left_to_right_and_stop_at_the_depth_limit() -> None:
    tree = ev.parse("max(1, min [5] (2, chance(3, 4)))")
    assert leaves(tree) == [(0,), (1, 0), (1, 1, 0), (1, 1, 1)]
    assert leaves(tree, depth=1) == [(0,), (1,)]
    assert leaves(tree, depth=2) == [(0,), (1, 0), (1, 1)]


# ---------------------------------------------------------------- "what is the value of B?"


def test_a_right_value_is_confirmed_with_the_rule() -> None:
    feedback = check_value(ev.textbook(FIG_5_2), "B", 3)
    assert feedback == Feedback(True, "correct. B is a MIN node: its value is the smallest of 3, 12, 8, which is 3.")
    assert str(feedback) == feedback.message


def test_no_answer_yet() -> None:
    for blank in (None, "", "  "):
        feedback = check_value(FIG_5_2, "B", blank)
        assert feedback == NOT_ANSWERED
        assert (feedback.message, feedback.correct, feedback.answered) == ("not answered yet", False, False)


def test_a_wrong_value_gets_the_rule_but_not_the_answer() -> None:
    feedback = check_value(ev.textbook(FIG_5_2), "B", 8)
    assert not feedback.correct and feedback.answered
    assert feedback.message == "not yet: 8 is the value of b3; MIN at B compares all its moves and takes the smallest."
    other = check_value(ev.textbook(FIG_5_2), "B", 7)
    assert other.message == (
        "not yet: B is a MIN node: its value is the smallest of its children's values; "
        "work them out from the leaves up."
    )


# Every wrong answer to every node of these trees: the message never holds the right value, nor lists the children's.
@pytest.mark.parametrize(
    ("tree", "depth"),
    [
        (FIG_5_2, None),
        ("aima-fig-5.12-right", None),
        ("max A(a1: min B(5, 1, 9), a2: min C(6, 8), a3: min D(4, 7))", None),
        ("max(a: min A [4] (3, chance [9] (12, 8)), b: min B [1] (2, 4, 6))", 2),
        ("aima-star-exercise", None),
    ],
)
def test_no_wrong_answer_is_told_the_value(tree: str, depth: int | None) -> None:
    root = ev.textbook(tree) if tree in ev.textbook_trees() else ev.parse(tree)
    paths = [tuple(p) for p, _ in ev.walk(root) if depth is None or len(p) <= depth]
    names = sorted({describe_path(root, p) for p, _ in ev.walk(root)}, key=len, reverse=True)
    for path in paths:
        value = value_of(root, path, depth=depth)
        for wrong in range(-3, 60):
            feedback = check_value(root, path, wrong, depth=depth)
            if feedback.correct:
                assert Fraction(wrong) == value
                continue
            assert feedback.message.startswith("not yet: "), feedback.message
            told = feedback.message.replace(f"not yet: {wrong} ", "not yet: ")
            for name in names:  # node names hold move numbers ("the leaf after moves 1, 2")
                told = told.replace(name, "N")
            assert not re.search(rf"(?<![\w./·-]){re.escape(format_number(value))}(?![\w./])", told) or (
                format_number(value) == str(wrong)
            ), (path, wrong, feedback.message)


def test_min_taking_the_largest_is_named() -> None:
    feedback = check_value(ev.textbook(FIG_5_2), "B", 12)
    assert feedback.message == "not yet: 12 is the largest value among the children of B, and MIN takes the smallest."
    deeper = check_value(ev.textbook(FIG_5_2), "A", 14)
    assert deeper.message == (
        "not yet: that is what you get if MIN takes the largest value somewhere below A; MIN takes the smallest."
    )


def test_max_taking_the_smallest_is_named() -> None:
    feedback = check_value(ev.textbook(FIG_5_2), "A", 2)
    assert feedback.message == "not yet: 2 is the smallest value among the children of A, and MAX takes the largest."


def test_the_value_min_would_choose_one_level_down() -> None:
    tree = "max A(a1: min B(5, 1, 9), a2: min C(6, 8), a3: min D(4, 7))"
    assert check_value(tree, "A", 4).message == (
        "not yet: 4 is the value MIN would choose at D; MAX at A compares all its moves and takes the largest."
    )
    assert check_value(tree, "A", 7).message == (
        "not yet: 7 is the value of one leaf below A; back the values up level by level, from the leaves to A."
    )


@pytest.mark.parametrize("answer", [3, "3", " 3 ", "3.0", Fraction(3), 3.0])
def test_answers_may_be_numbers_or_text(answer: object) -> None:
    assert check_value(FIG_5_2, "A", answer).correct


def test_text_that_is_not_a_number() -> None:
    feedback = check_value(FIG_5_2, "A", "three")
    assert feedback == Feedback(False, "not yet: 'three' is not a number: write it like 3, -2.5 or 1/3.")


def test_nodes_by_path_and_leaf_number() -> None:
    assert check_value(FIG_5_2, (1,), 2).correct
    assert check_value(FIG_5_2, 2, 12).message == "correct. b2 is a leaf: its value is its utility, which is 12."
    assert (
        check_value(FIG_5_2, 2, 3).message
        == "not yet: b2 is a leaf: its value is its utility, the number written at it."
    )
    root = check_value("max(min(3, 12, 8), min(2, 4, 6))", (), 3)
    assert root.message == "correct. The root is a MAX node: its value is the largest of 3, 2, which is 3."
    inner = check_value("max(min(3, 12, 8), min(2, 4, 6))", (1,), 4)
    assert inner.message == (
        "not yet: 4 is the value of the leaf after moves 2, 2; the MIN node after move 2 compares all its moves "
        "and takes the smallest."
    )


def test_chance_node_value_and_its_usual_slips() -> None:
    tree = ev.textbook("aima-fig-5.12-left")
    right = check_value(tree, "a1", "2.1")
    assert right.message == (
        "correct. a1 is a CHANCE node: its value is the probability-weighted sum 0.9·2 + 0.1·3, which is 2.1."
    )
    assert check_value(tree, "a2", 1.3).correct
    assert "plain average" in check_value(tree, "a1", 2.5).message
    assert check_value(tree, "a1", "1.05").message == (
        "not yet: that looks like the expectation divided by the number of outcomes again; "
        "the probabilities already sum to 1."
    )
    assert "best outcome" in check_value(tree, "a1", 3).message
    assert "worst outcome" in check_value(tree, "a1", 2).message
    assert check_value(tree, "a1", 2.2).message == (
        "not yet: a1 is a CHANCE node: its value is the sum of each outcome's value times its probability (0.9, 0.1)."
    )


def test_an_expectation_divided_again_below_the_node() -> None:
    tree = "max(a: chance(0.5: 4, 0.5: 8), b: 1)"
    assert check_value(tree, (), 3).message == (
        "not yet: that looks like an expectation below the root divided by the number of outcomes again; "
        "the probabilities already sum to 1."
    )


def test_values_without_a_finite_decimal_accept_a_rounded_answer() -> None:
    tree = "max(chance(1, 0, 0), -1)"
    assert check_value(tree, (0,), "1/3").correct
    assert check_value(tree, (0,), "0.33").correct
    assert not check_value(tree, (0,), "0.3").correct
    assert not check_value("aima-fig-5.12-left", "a1", "2.11").correct  # 2.1 has a finite decimal: exact only


def test_value_of_is_exact() -> None:
    assert value_of("aima-fig-5.12-right", "a2") == Fraction(409, 10)
    assert value_of("lecture-coin-flip-chance", (1,)) == Fraction(109, 2)


def test_depth_limited_values_are_static_evaluations() -> None:
    tree = "max(a: min A [4] (3, 12, 8), b: min B [1] (2, 4, 6))"
    feedback = check_value(tree, "A", 3, depth=1)
    assert feedback.message == (
        "not yet: that is what a search below the depth limit would find; at the limit a node's value is its "
        "static evaluation (the number in brackets)."
    )
    assert check_value(tree, (), 3, depth=1).message == (
        "not yet: that is what a search without the depth limit would find; count the levels down to the limit "
        "(chance levels count)."
    )
    assert check_value(tree, "A", 4, depth=1).correct
    assert check_value(tree, (), 4, depth=1).correct
    with pytest.raises(ExerciseError, match="below the depth limit 1"):
        check_value(tree, (0, 0), 3, depth=1)


def test_a_result_brings_its_tree_and_its_depth_limit() -> None:
    tree = "max(a: min A [4] (3, 12, 8), b: min B [1] (2, 4, 6))"
    assert check_value(ev.minimax(tree, depth=1), "A", 4).correct
    assert check_value(ev.minimax(tree), "A", 3).correct
    assert check_value(ev.minimax(tree, depth=1, trace=False), "A", 3).correct  # no trace: no limit known


# ---------------------------------------------------------------- "which leaves are pruned?"


def test_alphabeta_on_figure_5_2_prunes_c2_and_c3() -> None:
    result = ev.alphabeta(FIG_5_2)
    assert pruned_leaves(result) == [(1, 1), (1, 2)]
    for answer in ("c2, c3", "c3 c2", "5; 6", ["c2", "c3"], [5, 6], [(1, 1), (1, 2)]):
        assert check_pruned(result, answer).correct, answer
    assert check_pruned(result, "c2, c3").message == (
        "correct. alphabeta prunes c2, c3 (2 of 9 leaves). C is a MIN node whose value is now at most 2, and "
        "2 ≤ α = 3: MAX already has 3 at B, so MAX will never choose C; its other children (c2, c3) are pruned."
    )


def test_star1_on_the_aima_exercise_prunes_leaves_6_7_8() -> None:
    result = ev.star1("aima-star-exercise", bounds=(-2, 2))
    assert [leaves(result.tree).index(p) + 1 for p in pruned_leaves(result)] == [6, 7, 8]
    feedback = check_pruned(result, "leaves 6, 7 and 8")
    assert feedback.correct
    assert feedback.message.startswith(
        "correct. star1 prunes leaves 6, 7, 8 (3 of 8 leaves). The MIN node after moves 2, 1 is now worth at most 0"
    )
    assert "at most 1, and 1 ≤ α = 1.5" in feedback.message


def test_without_bounds_only_leaf_8_is_pruned() -> None:
    result = ev.star1("aima-star-exercise", bounds=(float("-inf"), float("inf")))
    assert check_pruned(result, "8").correct


def test_star2_probes_count_as_evaluated() -> None:
    result = ev.star2("star2-beats-star1", bounds=(-2, 2))
    assert pruned_leaves(result) == [(1, 0, 1), (1, 1, 1)]
    assert check_pruned(result, "3, 5").correct


def test_nothing_pruned() -> None:
    result = ev.expectiminimax("coin-flip")
    for answer in ("", "none", "None", []):
        feedback = check_pruned(result, answer)
        assert feedback == Feedback(True, "correct. expectiminimax evaluates every leaf: nothing is pruned.")
    assert check_pruned(result, "1").message == "not yet: leaf 1 is evaluated, so not pruned."
    assert check_pruned(result, None) == NOT_ANSWERED


def test_wrong_pruned_sets_say_what_is_wrong_without_the_answer() -> None:
    result = ev.alphabeta(FIG_5_2)
    assert check_pruned(result, "c2").message == "not yet: 1 pruned leaf is missing: look at the cutoff at C."
    assert check_pruned(result, "").message == "not yet: 2 pruned leaves are missing: look at the cutoff at C."
    assert check_pruned(result, "c2 c3 d2").message == "not yet: d2 is evaluated, so not pruned."
    both = check_pruned(result, "b3, c2")
    assert both.message == "not yet: b3 is evaluated, so not pruned. 1 pruned leaf is missing: look at the cutoff at C."
    trigger = check_pruned(result, "c1, c2, c3")
    assert trigger.message == (
        "not yet: c1 is evaluated, so not pruned: its value causes the cutoff at C, and the leaves after it are pruned."
    )


def test_pruned_answers_must_name_leaves() -> None:
    result = ev.alphabeta(FIG_5_2)
    assert check_pruned(result, "C").message == "not yet: C: name leaves only (the nodes the search would evaluate)."
    unknown = check_pruned(result, "c2, zz")
    assert not unknown.correct
    assert unknown.message.startswith("not yet: no node is called 'zz'")


def test_depth_limited_pruning_counts_static_evaluations_as_leaves() -> None:
    tree = "max(min [3] (3, 12, 8), min [2] (2, 4, 6), min [1] (14, 5, 2))"
    result = ev.alphabeta(tree, depth=1)
    assert pruned_leaves(result) == []
    assert check_pruned(result, "none").correct


def test_leaf_numbers_follow_the_depth_limit() -> None:
    tree = "max(min [3] (3, 12, 8), min [2] (2, 4, 6), 1)"
    assert find_node(ev.parse(tree), 4) == (1, 0)
    assert find_node(ev.parse(tree), 2, depth=1) == (1,)
    assert check_value(tree, 2, 2, depth=1).correct  # the second node the depth-1 search evaluates
    result = ev.alphabeta("max(min [3] (3, 12, 8), min [2] (2, 4, 6), min [5] (1, 9))", depth=1)
    assert pruned_leaves(result) == []
    assert check_pruned(result, "3").message == "not yet: leaf 3 is evaluated, so not pruned."


def test_pruned_needs_a_trace() -> None:
    with pytest.raises(ExerciseError, match="trace=True"):
        check_pruned(ev.alphabeta(FIG_5_2, trace=False), "c2")


# ---------------------------------------------------------------- "which move?", and any other answer


def test_check_move() -> None:
    assert check_move(FIG_5_2, None) == NOT_ANSWERED
    assert check_move(FIG_5_2, "a1").message == "correct. a1 is MAX's best move: its value, 3, is the largest."
    assert check_move(FIG_5_2, 1).correct and check_move(FIG_5_2, "B").correct and check_move(FIG_5_2, " 1 ").correct
    assert (
        check_move(FIG_5_2, "a3").message
        == "not yet: a3 is the move MIN would like MAX to make: compare the moves' values."
    )
    assert check_move(FIG_5_2, "a9").message == "not yet: 'a9' is not one of the moves (a1, a2, a3)."
    ties = "max(x: min(1, 9), y: min(2, 3), z: min(2, 5))"
    assert check_move(ties, "z").message == "not yet: z is as good as the best move, but ties go to the leftmost move."
    chance = "max(left: chance(0.9: 1, 0.1: 50), right: chance(0.9: 6, 0.1: 7))"
    assert check_move(chance, "left").message == (
        "not yet: left has the best leaf below it, but chance decides before the game ends: compare the moves' values."
    )
    averaged = "max(left: chance(0.9: 1, 0.1: 9), right: chance(0.5: 3, 0.5: 3), third: chance(0.5: 10, 0.5: -10))"
    assert check_move(averaged, "left").message == (
        "not yet: left is the best move if every outcome were equally likely; weight each outcome by its probability."
    )
    assert check_move(ev.minimax("max(a: min [4] (3, 12), b: min [1] (20, 30))", depth=1), "a").correct
    for wrong in ("a2", "a3"):
        assert not re.search(r"(?<!\w)3(?!\w)", check_move(FIG_5_2, wrong).message)
    with pytest.raises(ExerciseError, match="MAX or MIN node at the root"):
        check_move("chance(1, 2)", "1")


def test_check_answer() -> None:
    assert check_answer(None, 3, hint="h") == NOT_ANSWERED
    assert check_answer("1/4", Fraction(1, 4), hint="h").message == "correct"
    assert check_answer(0.25, "1/4", hint="h", explain="one coin in four").message == "correct. one coin in four"
    assert check_answer("0.33", Fraction(1, 3), hint="h").correct
    assert check_answer({"a1": "47", "best": "a2"}, {"a1": 47, "best": "a2"}, hint="h").correct
    assert check_answer((11, 7), (11, 7), hint="h").correct and not check_answer((7, 11), (11, 7), hint="h").correct
    assert check_answer({3, 1}, {1, 3}, hint="h").correct and check_answer([3, 1], {1, 3}, hint="h").correct
    assert check_answer(" a2 ", "a2", hint="h").correct and not check_answer(True, 1, hint="h").correct
    slips = [(11, "11 ties with 10: MAX needs more than 10"), (10, "that ties")]
    assert check_answer(11, 12, hint="solve 0.5·9 + 0.5·x > 10", slips=slips).message == (
        "not yet: 11 ties with 10: MAX needs more than 10"
    )
    assert check_answer(13, 12, hint="solve 0.5·9 + 0.5·x > 10", slips=slips).message == (
        "not yet: solve 0.5·9 + 0.5·x > 10"
    )


def test_check_set_counts_without_naming() -> None:
    assert check_set(None, [2, 7, 9], what="heap") == NOT_ANSWERED
    assert check_set([9, 2, 7], [2, 7, 9], what="heap").correct
    assert check_set([2, 4], [2, 7, 9], what="heap", hint="work up from heap 1").message == (
        "not yet: 1 of the heaps you named does not belong and 2 heaps are missing; work up from heap 1."
    )
    assert check_set("2, 7", [2, 7], what="heap").message == "not yet: give a list of heaps, like [1, 2]."


# ---------------------------------------------------------------- the widgets


def test_importing_expectviz_does_not_import_ipywidgets() -> None:
    code = "import sys, expectviz, expectviz.exercises; print('ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_value_quiz_checks_what_is_typed_when_the_button_is_clicked() -> None:
    pytest.importorskip("ipywidgets")
    q = value_quiz(ev.textbook(FIG_5_2), "B")
    assert q.question.value == "<b>What is the value of B?</b>"
    assert q.feedback.value == "" and q.last is None
    q.text.value = "12"
    q.button.click()
    assert q.last is not None and not q.last.correct
    assert "MIN takes the smallest" in q.feedback.value and "✘" in q.feedback.value
    q.text.value = "3"
    q.button.click()
    assert q.last == check_value(FIG_5_2, "B", 3)
    assert q.feedback.value.startswith('<span style="color: #1a7f37">✔ correct. B is a MIN node')
    q.text.value = ""
    q.button.click()
    assert q.last == NOT_ANSWERED and "…" in q.feedback.value and "not answered yet" in q.feedback.value


def test_pruned_quiz() -> None:
    pytest.importorskip("ipywidgets")
    q = pruned_quiz(ev.star1("aima-star-exercise", bounds=(-2, 2)))
    assert q.question.value == "<b>Which leaves does star1 prune?</b>"
    q.text.value = "6, 7"
    q.button.click()
    assert q.last is not None and not q.last.correct
    q.text.value = "6, 7, 8"
    q.button.click()
    assert q.last is not None and q.last.correct


def test_feedback_is_escaped_in_the_widget() -> None:
    pytest.importorskip("ipywidgets")
    q = quiz("Is 1 < 2?", lambda text: Feedback(text == "yes", "1 < 2 & 2 > 1"))
    q.text.value = "yes"
    q.button.click()
    assert "1 &lt; 2 &amp; 2 &gt; 1" in q.feedback.value
    assert "Is 1 &lt; 2?" in q.question.value
    assert repr(q) == "Quiz('Is 1 < 2?')"
    bundle = q._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"] == "Quiz('Is 1 < 2?')"


def test_value_quiz_refuses_a_node_it_cannot_ask_about_at_once() -> None:
    pytest.importorskip("ipywidgets")
    with pytest.raises(ExerciseError, match="no node is called 'Z'"):
        value_quiz(FIG_5_2, "Z")
    with pytest.raises(ExerciseError, match="below the depth limit 1"):
        value_quiz("max(a: min A [4] (3, 12, 8), b: min B [1] (2, 4, 6))", (0, 0), depth=1)


def test_pruned_quiz_refuses_an_untraced_search_at_once() -> None:
    pytest.importorskip("ipywidgets")
    with pytest.raises(ExerciseError):
        pruned_quiz(ev.alphabeta(FIG_5_2, trace=False))


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_a_saved_quiz_shows_its_question_and_tree_without_a_kernel() -> None:
    bundle = value_quiz(ev.textbook("aima-fig-5.2"), "B")._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["image/svg+xml"].startswith("<svg")
    assert bundle["text/html"].startswith("<div><p><b>What is the value of B?</b></p><svg")
    pruned = pruned_quiz(ev.alphabeta(ev.textbook("aima-fig-5.2")))._repr_mimebundle_()
    assert "Which leaves does alphabeta prune?" in pruned["text/html"] and "image/svg+xml" in pruned
    hostile = quiz("Is <b>3</b> & 4 < 5?", lambda text: Feedback(True, "yes"))._repr_mimebundle_()
    assert hostile["text/html"] == "<div><p><b>Is &lt;b&gt;3&lt;/b&gt; &amp; 4 &lt; 5?</b></p></div>"
