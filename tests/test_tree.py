"""Trees: the notation, the JSON form, the checks, and errors that name where the problem is.

(expectviz.tree, expectviz.notation, expectviz.tree_json and expectviz.numbers; the hostile inputs are in
test_hostile_tree.py.)"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import arbitrary_json, raw_trees, time_limit, tree_text, trees

import expectviz as ev
from expectviz.errors import ExpectvizError, InvalidTreeError, TreeSyntaxError
from expectviz.notation import parse, to_text
from expectviz.numbers import exact, format_number, format_probability
from expectviz.tree import CHANCE, LEAF, MAX, MIN, Node, check, depth_first, height, leaf, node_at, nodes, walk
from expectviz.tree_json import from_json, to_json, tree_to_plain

# ---------------------------------------------------------------- the six forms of the README


def test_form_plain() -> None:
    t = parse("max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))")
    assert t.kind == MAX and [c.kind for c in t.children] == [MIN] * 3
    assert [[g.value for g in c.children] for c in t.children] == [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
    assert all(g.kind == LEAF and g.move is None and g.name is None for c in t.children for g in c.children)
    assert t.name is None and t.move is None


def test_form_named_with_moves() -> None:
    t = parse("max A(a1: min B(3, 12, 8), a2: min C(2, 4, 6), a3: min D(14, 5, 2))")
    assert t.name == "A"
    assert [(c.move, c.name) for c in t.children] == [("a1", "B"), ("a2", "C"), ("a3", "D")]
    assert t == parse("max A(a1: min B(3,12,8),a2: min C(2,4,6),a3: min D(14,5,2))")
    assert t != parse("max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))")  # names and labels count


def test_form_decimal_and_fraction_probabilities() -> None:
    t = parse("max(chance(0.5: 10, 0.5: 0), chance(1/2: 5, 1/2: 15))")
    assert [c.kind for c in t.children] == [CHANCE, CHANCE]
    for c in t.children:
        assert [p for p, _ in c.outcomes] == [Fraction(1, 2), Fraction(1, 2)]
        assert all(isinstance(p, Fraction) for p, _ in c.outcomes)
    assert [[g.value for g in c.children] for c in t.children] == [[10, 0], [5, 15]]
    assert t == parse("max(chance(10, 0), chance(5, 15))")


def test_form_labelled_outcomes() -> None:
    t = parse("chance(heads 1/2: 10, tails 1/2: 0)")
    assert [(c.move, c.probability, c.value) for c in t.children] == [
        ("heads", Fraction(1, 2), 10),
        ("tails", Fraction(1, 2), 0),
    ]


def test_form_equally_likely() -> None:
    t = parse("chance(1, 2, 3, 4, 5, 6)")
    assert [p for p, _ in t.outcomes] == [Fraction(1, 6)] * 6
    assert [c.value for c in t.children] == [1, 2, 3, 4, 5, 6]
    assert ev.expectiminimax(t).exact_value == Fraction(7, 2)


def test_form_static_evaluation() -> None:
    t = parse("min B [4] (3, 12, 8)")
    assert (t.kind, t.name, t.evaluation) == (MIN, "B", 4)
    assert [c.value for c in t.children] == [3, 12, 8]
    assert parse("min B[4](3,12,8)") == t
    assert parse("min [4] (3, 12, 8)").evaluation == 4
    assert to_text(t) == "min B [4] (3, 12, 8)"


@pytest.mark.parametrize(
    "text",
    [
        "max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))",
        "max A(a1: min B(3, 12, 8), a2: min C(2, 4, 6), a3: min D(14, 5, 2))",
        "chance(heads 0.9: 10, tails 0.1: 0)",
        "min B [4] (3, 12, 8)",
        "max(-3, 2.5, -0.25)",
        "chance(1/3: 1, 2/3: min(2, 3))",
    ],
)
def test_to_text_writes_the_forms_back(text: str) -> None:
    assert to_text(parse(text)) == text


def test_equal_probabilities_are_written_without_them() -> None:
    assert to_text(parse("chance(heads 1/2: 10, tails 1/2: 0)")) == "chance(heads: 10, tails: 0)"
    assert to_text(parse("max(chance(0.5: 10, 0.5: 0), chance(1/2: 5, 1/2: 15))")) == (
        "max(chance(10, 0), chance(5, 15))"
    )


# ---------------------------------------------------------------- comments, whitespace, numbers


def test_comments_and_free_whitespace() -> None:
    text = """
    # AIMA Fig. 5.2, written out
    max A (          # the root
        a1 : min B ( 3 ,12,
                     8 ) ,
\ta2: min C(2, 4, 6),   # pruned after 2
        a3: min D(
            14,
            5,
            2
        )
    )
    # trailing comment"""
    assert parse(text) == parse("max A(a1: min B(3, 12, 8), a2: min C(2, 4, 6), a3: min D(14, 5, 2))")
    assert parse("  7  ") == leaf(7)
    assert parse("max(1,\r\n 2)") == parse("max(1, 2)")


def test_negative_and_decimal_leaves() -> None:
    t = parse("max(-3, 2.5, -0.25, .5, 1e2, -1/3, 0.1)")
    assert [c.value for c in t.children] == [
        -3,
        Fraction(5, 2),
        Fraction(-1, 4),
        Fraction(1, 2),
        100,
        Fraction(-1, 3),
        Fraction(1, 10),
    ]
    assert type(t.children[4].value) is int  # whole numbers stay int
    assert parse("max(0.1, 0.2)").children[0].value + parse("max(0.2)").children[0].value == Fraction(3, 10)


def test_quoted_names_and_labels() -> None:
    t = parse('max "my root" ("max": 1, "two words": 2, "é": 3)')
    assert t.name == "my root"
    assert [c.move for c in t.children] == ["max", "two words", "é"]
    assert parse(to_text(t)) == t


# ---------------------------------------------------------------- errors: syntax, with line and column


def syntax_error(text: str) -> TreeSyntaxError:
    with pytest.raises(TreeSyntaxError) as info:
        parse(text)
    error = info.value
    assert isinstance(error, ExpectvizError) and isinstance(error, ValueError)
    assert f"line {error.line}, column {error.column}" in str(error)
    return error


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("max(1, 2", 1, 9),  # the text ends inside max(
        ("max(1, 2))", 1, 10),  # one ')' too many
        (")", 1, 1),
        ("max(1, min(2, 3)", 1, 17),
        ("max(\n  min(1, 2),\n  min(3, 4)", 3, 12),
    ],
)
def test_unbalanced_parentheses(text: str, line: int, column: int) -> None:
    error = syntax_error(text)
    assert (error.line, error.column) == (line, column)


def test_unclosed_parenthesis_names_where_it_opened() -> None:
    error = syntax_error("max(\n  min(1, 2),\n  min(3, 4)")
    assert "opened at line 1, column 1" in str(error)


def test_unknown_node_kind() -> None:
    error = syntax_error("max(\n  min(1, 2),\n  avg(3, 4)\n)")
    assert (error.line, error.column) == (3, 3)
    assert "'avg'" in str(error) and "max, min, chance" in str(error)
    assert syntax_error("maxx(1)").column == 1


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   # only a comment",
        "max()",
        "max(1,)",
        "max(1,,2)",
        "max 1, 2",
        "max(1 2)",
        "max(1/0)",
        "chance(1/0: 1)",
        "max(a 1/2: 1)",  # a probability under MAX
        "max(1/2: 1, 1/2: 2)",
        "1/2: 3",  # the whole tree with a probability
        "a: 3",
        "max(min: 1)",  # a kind word as a label
        'max("a" 1)',
        'max("unterminated',
        "max [4 (1, 2)",
        "max [x] (1, 2)",
        "max(1) 2",
        "max(inf, 1)",
        "max(nan)",
        "max(1 @ 2)",
        "max(--1)",
        "min min(1)",
    ],
)
def test_bad_text_is_a_syntax_error(text: str) -> None:
    syntax_error(text)


def test_parse_needs_text() -> None:
    with pytest.raises(TypeError):
        parse(42)  # type: ignore[arg-type]


# ---------------------------------------------------------------- errors: rules, with the node's path


def invalid(make: Any) -> InvalidTreeError:
    with pytest.raises(InvalidTreeError) as info:
        make()
    error = info.value
    assert isinstance(error, ExpectvizError) and isinstance(error, ValueError)
    return error


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("chance(-1/2: 1, 3/2: 2)", (0,)),
        ("max(1, chance(0: 1, 1: 2))", (1, 0)),
        ("max(1, chance(0.0: 1, 1.0: 2))", (1, 0)),
        ("chance(1/2: 1, 1/2: min(chance(-0.5: 1, 1.5: 2)))", (1, 0, 0)),
    ],
)
def test_probabilities_must_be_positive(text: str, path: tuple[int, ...]) -> None:
    error = invalid(lambda: parse(text))
    assert error.path == path
    assert "positive" in str(error) or "more than 1" in str(error)


def test_probabilities_missing_on_some_outcomes() -> None:
    error = invalid(lambda: parse("max(5, chance(1/2: 1, 2, 1/2: 3))"))
    assert error.path == (1,)
    assert "[1]" in str(error) and "all or none" in str(error)


@pytest.mark.parametrize(
    "text",
    [
        "chance(1/3: 1, 1/3: 2)",
        "chance(0.5: 1, 0.4: 2)",
        "chance(0.5: 1, 0.6: 2)",
        "chance(1/3: 1, 1/3: 2, 333333334/1000000001: 3)",  # within 1e-9 of 1, but fractions are exact
        "chance(0.3333333: 1, 0.3333333: 2, 0.3333333: 3)",
        "chance(1: 1, 1: 2)",
    ],
)
def test_probabilities_must_sum_to_one(text: str) -> None:
    error = invalid(lambda: parse(text))
    assert error.path == ()
    assert "sum" in str(error) or "more than 1" in str(error)


@pytest.mark.parametrize(
    "text",
    [
        "chance(1/3: 1, 1/3: 2, 1/3: 3)",
        "chance(0.3333333333: 1, 0.3333333333: 2, 0.3333333334: 3)",
        "chance(0.1: 1, 0.2: 2, 0.3: 3, 0.4: 4)",
        "chance(0.9: 1, 0.1: 2)",
        "chance(1: 7)",
        "chance(1/6: 1, 1/3: 2, 0.5: 3)",
    ],
)
def test_probabilities_that_sum_to_one(text: str) -> None:
    tree = parse(text)
    assert sum(p for p, _ in tree.outcomes) in (1, pytest.approx(1, abs=1e-9))


def test_decimal_probabilities_within_1e_9_keep_their_exact_values() -> None:
    tree = parse("chance(0.3333333333: 1, 0.3333333333: 2, 0.3333333334: 3)")
    assert [p for p, _ in tree.outcomes] == [Fraction("0.3333333333")] * 2 + [Fraction("0.3333333334")]
    assert sum(p for p, _ in tree.outcomes) == 1


def test_a_single_outcome_has_probability_1() -> None:
    """Probabilities are always exact Fractions (so windows divide exactly); the JSON form writes 1, not 1.0."""
    tree = parse("chance(5)")
    assert tree.children[0].probability == 1
    assert type(tree.children[0].probability) is Fraction
    assert json.loads(to_json(tree))["children"][0]["probability"] == 1
    assert '"probability": 1.0' not in to_json(tree)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_nan_and_infinite_leaves_via_nodes(bad: float) -> None:
    error = invalid(lambda: check(Node(MAX, children=(leaf(1), Node(LEAF, value=bad)))))
    assert error.path == (1,)
    error = invalid(lambda: check(Node(LEAF, value=bad)))
    assert error.path == ()
    error = invalid(lambda: check(Node(MAX, children=(leaf(1),), evaluation=bad)))
    assert error.path == ()


@pytest.mark.parametrize(
    "text",
    [
        '{"kind": "max", "children": [{"kind": "leaf", "value": NaN}]}',
        '{"kind": "max", "children": [{"kind": "leaf", "value": Infinity}]}',
        '{"kind": "max", "children": [{"kind": "leaf", "value": -Infinity}]}',
        '{"kind": "max", "children": [{"kind": "leaf", "value": 1e99999}]}',  # beyond the exponent limit
        '{"kind": "max", "children": [{"kind": "leaf", "value": "nan"}]}',
        '{"kind": "max", "children": [{"kind": "leaf", "value": "inf"}]}',
        '{"kind": "max", "children": [{"kind": "leaf", "value": true}]}',
        '{"kind": "max", "children": [{"kind": "leaf", "value": [1]}]}',
    ],
)
def test_nan_infinite_and_non_numbers_via_json(text: str) -> None:
    error = invalid(lambda: from_json(text))
    assert error.path == (0,)


def test_empty_children() -> None:
    syntax_error("max()")
    assert invalid(lambda: check(Node(MAX))).path == ()
    assert invalid(lambda: check(Node(MAX, children=(Node(CHANCE),)))).path == (0,)
    assert invalid(lambda: from_json('{"kind": "min", "children": []}')).path == ()
    assert invalid(lambda: from_json('{"kind": "min"}')).path == ()


def test_duplicate_move_labels() -> None:
    error = invalid(lambda: parse("max(a: 1, b: 2, a: 3)"))
    assert error.path == () and "'a'" in str(error)
    error = invalid(lambda: parse("max(x: min(a: 1, a: 2))"))
    assert error.path == (0,)
    # Unlabelled siblings, and equal labels at different places, are fine.
    parse("max(a: min(a: 1, b: 2), b: min(a: 3, b: 4))")


def test_unknown_kind_via_nodes_and_json() -> None:
    assert invalid(lambda: check(Node("avg", children=(leaf(1),)))).path == ()
    assert invalid(lambda: from_json('{"kind": "max", "children": [{"kind": "avg"}]}')).path == (0,)
    assert invalid(lambda: from_json('{"kind": "max", "children": [{"kind": "leaf", "value": 1, "x": 2}]}')).path == (
        0,
    )


@pytest.mark.parametrize(
    "node",
    [
        Node(LEAF),  # a leaf without a value
        Node(LEAF, value=1, children=(leaf(2),)),
        Node(MAX, children=(leaf(1),), value=3),
        Node(LEAF, value=1, evaluation=2),
        Node(MAX, children=(leaf(1, probability=Fraction(1, 2)),)),  # a probability under MAX
        Node(MAX, children=(leaf(1),), name=5),  # type: ignore[arg-type]
        Node(MAX, children=[leaf(1)]),  # type: ignore[arg-type]
        Node(MAX, children=("1",)),  # type: ignore[arg-type]
        Node(LEAF, value="x"),  # type: ignore[arg-type]
        Node(LEAF, value=True),
    ],
)
def test_broken_nodes(node: Node) -> None:
    invalid(lambda: check(node))


def test_check_rejects_non_nodes() -> None:
    invalid(lambda: check("max(1, 2)"))  # type: ignore[arg-type]


def test_check_fills_in_equal_probabilities_and_exact_numbers() -> None:
    raw = Node(CHANCE, children=(leaf(1), Node(LEAF, value=0.5), leaf(3)))
    tree = check(raw)
    assert [p for p, _ in tree.outcomes] == [Fraction(1, 3)] * 3
    assert tree.children[1].value == Fraction(1, 2)
    assert tree == parse("chance(1, 0.5, 3)")
    assert check(tree) is tree


def test_float_probabilities_via_nodes() -> None:
    tree = check(Node(CHANCE, children=(leaf(1, probability=0.9), leaf(2, probability=0.1))))  # type: ignore[arg-type]
    assert [p for p, _ in tree.outcomes] == [Fraction(9, 10), Fraction(1, 10)]
    invalid(lambda: check(Node(CHANCE, children=(leaf(1, probability=0.5), leaf(2, probability=0.4)))))


# ---------------------------------------------------------------- JSON


def test_json_form() -> None:
    tree = parse("max A(a1: chance(1/3: 1, 2/3: min [2] (2, 3)), a2: -0.5)")
    data = json.loads(to_json(tree))
    assert data["kind"] == "max" and data["name"] == "A"
    assert data["children"][0]["children"][0] == {"kind": "leaf", "value": 1, "probability": "1/3"}
    assert data["children"][0]["children"][1]["evaluation"] == 2
    assert data["children"][1] == {"kind": "leaf", "value": -0.5, "move": "a2"}
    assert from_json(to_json(tree)) == tree
    assert from_json(data) == tree  # an already-loaded dict


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[1, 2]",
        "3",
        "null",
        '"max(1, 2)"',
        "{}",
        '{"kind": "max", "children": {"kind": "leaf"}}',
        '{"kind": "max", "children": [1]}',
        '{"kind": "leaf", "value": "1/0"}',
        '{"kind": "chance", "children": [{"kind": "leaf", "value": 1, "probability": "half"}]}',
        "[" * 100_000,
        b"\xff\xfe",
    ],
)
def test_bad_json_is_an_invalid_tree(text: str | bytes) -> None:
    invalid(lambda: from_json(text))  # type: ignore[arg-type]


def test_json_numbers_are_read_exactly() -> None:
    """JSON numbers go through the one number syntax: 1e400 is 10**400 (not an infinity), 1e-400 is not 0."""
    values = ["1e400", "1e-400", "0.1000000000000000000001", "-12345678901234567890123"]
    leaves = ", ".join(f'{{"kind": "leaf", "value": {v}}}' for v in values)
    tree = from_json(f'{{"kind": "max", "children": [{leaves}]}}')
    assert [c.value for c in tree.children] == [
        10**400,
        Fraction(1, 10**400),
        Fraction("0.1000000000000000000001"),
        -12345678901234567890123,
    ]
    assert from_json(to_json(tree)) == tree and parse(to_text(tree)) == tree


def test_to_json_writes_what_json_dumps_writes() -> None:
    tree = parse('max A(a1: chance(1/3: 1, 2/3: min [2] (2, 3)), "é \\"q\\"": -0.5, 1e400)')
    for indent in (None, 0, 1, 4):
        assert to_json(tree, indent=indent) == json.dumps(tree_to_plain(tree), indent=indent, ensure_ascii=False)


def test_each_name_has_one_home() -> None:
    """The notation, the JSON form and the numbers live in their own modules, not again in expectviz.tree."""
    from expectviz import tree

    for name in ("parse", "to_text", "to_json", "from_json", "_to_plain"):
        assert not hasattr(tree, name), name


@pytest.mark.parametrize("value", ["1.5/2", "1e5/3", "-2.5/5", ".5/1"])
def test_json_number_text_with_a_slash_after_a_decimal(value: str) -> None:
    """A number text that the notation accepts ("1.5/2" is 3/4 in the notation) is read, or refused with an
    ExpectvizError: never a bare ValueError from Fraction()."""
    text = json.dumps({"kind": "max", "children": [{"kind": "leaf", "value": value}]})
    try:
        tree = from_json(text)
    except ExpectvizError:
        return
    assert tree.children[0].value == parse(f"max({value})").children[0].value


# ---------------------------------------------------------------- helpers


def test_walk_node_at_height() -> None:
    tree = parse("max(1, min(2, chance(3, 4)))")
    assert [p for p, _ in walk(tree)] == [(), (0,), (1,), (1, 0), (1, 1), (1, 1, 0), (1, 1, 1)]
    assert [n for n in nodes(tree)] == [n for _, n in walk(tree)]
    assert [n.kind for n in nodes(tree, "post")] == [LEAF, LEAF, LEAF, LEAF, CHANCE, MIN, MAX]
    assert [(entering, len(path)) for entering, path, _ in depth_first(leaf(1))] == [(True, 0), (False, 0)]
    with pytest.raises(ValueError):
        list(nodes(tree, "in"))
    assert node_at(tree, (1, 1, 0)).value == 3
    assert height(tree) == 3 and height(leaf(1)) == 0
    with pytest.raises(InvalidTreeError) as info:
        node_at(tree, (1, 5))
    assert info.value.path == (1,)


def test_exact_numbers() -> None:
    assert exact(0.1) == Fraction(1, 10)
    assert exact("2.5") == Fraction(5, 2) and exact(4.0) == 4 and type(exact(4.0)) is int
    assert exact(Fraction(6, 3)) == 2 and type(exact(Fraction(6, 3))) is int
    for bad in (True, None, "x", math.nan, math.inf, "1/0", [1]):
        with pytest.raises(InvalidTreeError):
            exact(bad)


def test_number_formatting() -> None:
    assert format_number(Fraction(109, 2)) == "54.5"
    assert format_number(Fraction(1, 3)) == "1/3"
    assert format_number(-7) == "-7" and format_number(Fraction(-1, 4)) == "-0.25"
    assert format_number(math.inf) == "+inf" and format_number(-math.inf) == "-inf"
    assert format_probability(Fraction(1, 2)) == "1/2"
    assert format_probability(Fraction(9, 10)) == "0.9"
    assert format_probability(Fraction(1, 36)) == "1/36"


@given(st.text(alphabet="0123456789.-+eE/ x\u0663\uff11", max_size=12))
def test_the_tokenizer_and_read_number_share_one_syntax(text: str) -> None:
    from expectviz import numbers

    assert bool(re.fullmatch(numbers.NUMBER_PATTERN, text)) == bool(numbers._PARTS.fullmatch(text))


@st.composite
def exact_numbers(draw: Any) -> Fraction:
    """Numbers of every size the notation allows: long decimals, powers of ten, huge and tiny fractions."""
    top = draw(st.integers(-(10**60), 10**60)) * 10 ** draw(st.integers(0, 3000))
    odd = draw(st.sampled_from([1, 3, 7, 10**9 + 7]))
    bottom = odd * 2 ** draw(st.integers(0, 3000)) * 5 ** draw(st.integers(0, 1000))
    return Fraction(top, bottom)


@given(exact_numbers())
def test_numbers_are_written_exactly_and_shown_briefly(x: Fraction) -> None:
    assert exact(format_number(x, exact=True)) == x
    assert exact(format_probability(x, exact=True)) == x
    shown = format_number(x)
    assert len(shown) <= 101
    if not shown.startswith("≈"):  # shown exactly
        assert exact(shown) == x


def test_repr_evaluates_back() -> None:
    tree = parse("max A(a1: chance(heads 0.9: 10, tails 0.1: 0), a2: min [3] (1, 2))")
    assert repr(tree) == "parse('max A(a1: chance(heads 0.9: 10, tails 0.1: 0), a2: min [3] (1, 2))')"
    assert eval(repr(tree), {"parse": parse}) == tree
    assert repr(leaf(3)) == "parse('3')"


# ---------------------------------------------------------------- random trees: two ways of building agree


@given(raw_trees(chance=True, labels=True, evaluations=None, fractions=True, max_nodes=25))
def test_parsing_generated_text_equals_checking_nodes(raw: Node) -> None:
    text = tree_text(raw)
    assert parse(text) == check(raw)
    assert to_text(parse(text)) == to_text(check(raw))


# ---------------------------------------------------------------- fuzz: only ExpectvizError, and quickly

TOKENS = ["max", "min", "chance", "(", ")", ",", ":", "[", "]", *"0123456789", ".", "-", "/", "#", '"', "a", "\n", " "]
token_soup = st.lists(st.sampled_from(TOKENS), max_size=60).map("".join)


@st.composite
def mutated_text(draw: Any) -> str:
    """Valid tree text with a few characters or tokens inserted, deleted or replaced."""
    text = tree_text(draw(raw_trees(chance=True, labels=True, evaluations=None, fractions=True, max_nodes=15)))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = draw(st.sampled_from(TOKENS) | st.text(max_size=2))
        if action == "insert":
            text = text[:i] + piece + text[i:]
        elif action == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 3)) :]
        else:
            text = text[:i] + piece + text[i + 1 :]
    return text


def parse_or_refuse(text: str) -> None:
    with time_limit(2, f"parse({text!r})"):
        try:
            tree = parse(text)
        except Exception as error:  # noqa: BLE001 - the assertion is the point
            assert isinstance(error, ExpectvizError), repr(error)
            assert isinstance(error, ValueError)
            return
        assert parse(to_text(tree)) == tree


@given(st.text(max_size=80))
def test_fuzz_parse_arbitrary_text(text: str) -> None:
    parse_or_refuse(text)


@given(token_soup)
def test_fuzz_parse_token_soup(text: str) -> None:
    parse_or_refuse(text)


@given(mutated_text())
def test_fuzz_parse_mutated_trees(text: str) -> None:
    parse_or_refuse(text)


def from_json_or_refuse(data: Any) -> None:
    with time_limit(2, "from_json"):
        try:
            tree = from_json(data)
        except Exception as error:  # noqa: BLE001
            assert isinstance(error, ExpectvizError), repr(error)
            return
        assert from_json(to_json(tree)) == tree


@given(arbitrary_json)
def test_fuzz_from_json_arbitrary_json(data: Any) -> None:
    from_json_or_refuse(data)
    from_json_or_refuse(json.dumps(data))


@st.composite
def tree_like_json(draw: Any) -> Any:
    """JSON that is almost a tree: a real tree's JSON with one value replaced by arbitrary JSON."""
    data = json.loads(to_json(draw(trees(chance=True, labels=True, evaluations=None, max_nodes=15))))
    spots: list[tuple[Any, Any]] = []
    stack = [data]
    while stack:
        obj = stack.pop()
        for key in list(obj):
            spots.append((obj, key))
        stack.extend(obj.get("children", []))
    obj, key = draw(st.sampled_from(spots))
    obj[draw(st.sampled_from([key, *json.loads('["kind", "value", "probability", "children", "move"]')]))] = draw(
        arbitrary_json
    )
    return data


@given(tree_like_json())
def test_fuzz_from_json_almost_trees(data: Any) -> None:
    from_json_or_refuse(data)
    from_json_or_refuse(json.dumps(data))


# ---------------------------------------------------------------- deep and wide trees

DEPTH = 10_000
WIDTH = 10_000


def deep_chain(kinds: list[str]) -> str:
    return "".join(f"{kinds[i % len(kinds)]}(" for i in range(DEPTH)) + "1" + ")" * DEPTH


@pytest.fixture(scope="module")
def deep_tree() -> Node:
    return parse(deep_chain(["max", "min"]))


@pytest.fixture(scope="module")
def deep_chance_tree() -> Node:
    return parse(deep_chain(["max", "chance", "min"]))


def test_deep_tree_parses_and_round_trips(deep_tree: Node, deep_chance_tree: Node) -> None:
    for tree in (deep_tree, deep_chance_tree):
        assert height(tree) == DEPTH
        assert parse(to_text(tree)) == tree
        assert from_json(to_json(tree)) == tree
    assert check(Node(MAX, children=(deep_tree,))).children[0] == deep_tree
    assert repr(deep_tree).endswith("...')")


def test_deep_tree_searches_with_every_algorithm(deep_tree: Node, deep_chance_tree: Node) -> None:
    for name, search in ev.ALGORITHMS.items():
        options = {"bounds": (0, 2)} if name.startswith("star") else {}
        r = search(deep_tree, **options)
        assert r.exact_value == 1 and r.stats.nodes_visited == DEPTH + 1 and r.stats.leaves_evaluated == 1
        assert r.trace is not None and len(r.trace) == 2 * (DEPTH + 1)
        if name not in ("minimax", "alphabeta"):
            r = search(deep_chance_tree, trace=False, **options)
            assert r.exact_value == 1 and r.stats.leaves_evaluated == 1


def test_wide_tree_parses_and_round_trips() -> None:
    for kind in ("max", "chance"):
        text = f"{kind}(" + ", ".join(str(i % 97 - 48) for i in range(WIDTH)) + ")"
        tree = parse(text)
        assert len(tree.children) == WIDTH
        assert parse(to_text(tree)) == tree
        assert from_json(to_json(tree)) == tree


@pytest.mark.parametrize("name", list(ev.ALGORITHMS))
def test_wide_max_tree_searches_with_every_algorithm(name: str) -> None:
    tree = parse("max(" + ", ".join(str(i % 97 - 48) for i in range(WIDTH)) + ")")
    options = {"bounds": (-48, 48)} if name.startswith("star") else {}
    with time_limit(10, f"{name} on a node with {WIDTH} children"):
        r = ev.ALGORITHMS[name](tree, **options)
    assert r.exact_value == 48
    assert r.best_move == 96


@pytest.mark.parametrize("name", ["expectiminimax", "star1", "star2"])
def test_wide_chance_tree_searches_with_every_chance_algorithm(name: str) -> None:
    tree = parse("max(0, chance(" + ", ".join(str(i % 97 - 48) for i in range(WIDTH)) + "))")
    truth = Fraction(sum(i % 97 - 48 for i in range(WIDTH)), WIDTH)
    options = {"bounds": (-48, 48)} if name.startswith("star") else {}
    with time_limit(5, f"{name} on a chance node with {WIDTH} outcomes"):
        r = ev.ALGORITHMS[name](tree, **options)
    assert r.exact_value == max(0, truth)
