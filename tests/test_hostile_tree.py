"""Hostile tree input: text, JSON, numbers, probabilities, sizes, types and nesting.

Each case runs in a forked child under a memory and time cap (``tests/hostile.py``): it must raise the named
error (an ExpectvizError, with words its message must contain) or succeed, and never hang, crash or exhaust memory.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction

import pytest
from hostile import Case, run_case

import expectviz as ev
from expectviz.errors import ExpectvizError, InputTypeError, InvalidTreeError, TreeSyntaxError
from expectviz.notation import parse, to_text
from expectviz.numbers import MAX_DIGITS, exact, format_number, format_probability
from expectviz.options import options
from expectviz.tree import CHANCE, LEAF, MAX, MAX_DEPTH, Node, check, height, leaf
from expectviz.tree_json import from_json, to_json

# ---------------------------------------------------------------- helpers (they run in the child)


def chain(levels: int, kind: str = "max") -> str:
    """``max(max(...(1)...))`` with ``levels`` inner nodes."""
    return f"{kind}(" * levels + "1" + ")" * levels


def json_chain(levels: int) -> str:
    """The JSON form of a chain of ``levels`` MAX nodes over a leaf."""
    return '{"kind": "max", "children": [' * levels + '{"kind": "leaf", "value": 1}' + "]}" * levels


def node_chain(levels: int) -> Node:
    """A chain of ``levels`` MAX nodes over a leaf, built from nodes without recursion."""
    node = leaf(1)
    for _ in range(levels):
        node = Node(MAX, children=(node,))
    return node


def round_trips(tree: Node) -> None:
    """The tree survives the text and the JSON form, and shows itself without failing."""
    assert parse(to_text(tree)) == tree
    assert from_json(to_json(tree)) == tree
    assert repr(tree).startswith("parse(")


def parses_to(text: str | bytes, value: object) -> Callable[[], None]:
    """A call that parses ``text`` and checks the single leaf's exact value."""

    def call() -> None:
        tree = parse(text)
        assert tree.kind == LEAF and tree.value == value, tree.value
        round_trips(tree)

    return call


def leaf_json(value: str) -> str:
    """A tree's JSON with one leaf whose value is written as ``value`` (raw JSON)."""
    return f'{{"kind": "max", "children": [{{"kind": "leaf", "value": {value}}}]}}'


def primes_from(start: int, count: int) -> list[int]:
    """``count`` primes from ``start`` on (a sieve up to 40,000 holds the ones used here)."""
    composite = bytearray(40_000)
    for p in range(2, 200):
        composite[p * p :: p] = b"\x01" * len(composite[p * p :: p])
    return [n for n in range(start, len(composite)) if not composite[n]][:count]


def prime_outcomes_that_sum_to_one() -> None:
    """2,000 outcomes: 1,999 with prime denominators, the last one a fraction with an 8,000-digit denominator."""
    probabilities = [Fraction(1, p) for p in primes_from(10_007, 1_999)]
    probabilities.append(1 - sum(probabilities))
    tree = check(Node(CHANCE, children=tuple(leaf(i, probability=p) for i, p in enumerate(probabilities))))
    round_trips(tree)
    shown = format_number(ev.expectiminimax(tree, trace=False).exact_value)
    assert shown.startswith("≈"), shown
    assert format_probability(tree.children[-1].probability).startswith("≈")  # type: ignore[arg-type]


def tiny_leaf() -> None:
    """1/2**14000: far below a double's range, written and read back exactly."""
    tree = check(Node(MAX, children=(leaf(Fraction(1, 2**14000)), leaf(0))))
    round_trips(tree)
    assert format_number(tree.children[0].value) == "≈3.80242541666e-4215"  # type: ignore[arg-type]
    assert parse(format_number(tree.children[0].value, exact=True)) == tree.children[0]  # type: ignore[arg-type]


def huge_leaf() -> None:
    """10**5000 from a dict: kept exactly, written as 1e5000."""
    tree = from_json({"kind": "max", "children": [{"kind": "leaf", "value": 10**5000}]})
    assert tree.children[0].value == 10**5000
    assert to_text(tree) == "max(1e5000)"
    round_trips(tree)


def huge_numbers_format() -> None:
    """Numbers beyond Python's 4,300-digit int/str limit are shown rounded and written exactly."""
    big = 10**100_000 - 1
    assert format_number(big) == "≈1e100000"
    assert len(format_number(big, exact=True)) == 100_000
    assert format_number(Fraction(1, 3**20_000)).startswith("≈")


def tiny_probability() -> None:
    """A probability of 1e-400 is kept exactly (the other outcome has 0.999... with 400 nines)."""
    tree = parse("chance(1e-400: 5, 0." + "9" * 400 + ": 0)")
    assert tree.children[0].probability == Fraction(1, 10**400)
    assert to_text(tree).startswith("chance(1e-400: 5, ")
    round_trips(tree)
    assert ev.expectiminimax(tree, trace=False).exact_value == Fraction(5, 10**400)


def short_message(call: Callable[[], object]) -> Callable[[], object]:
    """``call``, whose error message must stay short (a few hundred characters) however big the input."""

    def checked() -> object:
        try:
            return call()
        except ExpectvizError as error:
            assert len(str(error)) < 400, f"a message of {len(str(error)):,} characters"
            raise

    return checked


def with_limit(limit: int, call: Callable[[], object]) -> Callable[[], object]:
    """``call`` with ``ev.options.max_input_bytes`` set to ``limit`` (in the child only)."""

    def limited() -> object:
        options.max_input_bytes = limit
        return call()

    return limited


def cyclic_dict() -> dict[str, object]:
    """A JSON object that contains itself."""
    data: dict[str, object] = {"kind": "max", "children": []}
    data["children"] = [{"kind": "leaf", "value": 1}, data]
    return data


def shared_dicts(levels: int) -> dict[str, object]:
    """A dict DAG: each level's two children are the same dict (2**levels nodes if expanded)."""
    node: dict[str, object] = {"kind": "leaf", "value": 1}
    for _ in range(levels):
        node = {"kind": "max", "children": [node, node]}
    return node


def deep_dict(levels: int) -> dict[str, object]:
    """A dict chain ``levels`` deep, built without recursion."""
    node: dict[str, object] = {"kind": "leaf", "value": 1}
    for _ in range(levels):
        node = {"kind": "max", "children": [node]}
    return node


def deep_chain_round_trip() -> None:
    tree = parse(chain(10_000))
    assert height(tree) == 10_000
    round_trips(tree)


def deepest_allowed_chain() -> None:
    tree = parse(chain(MAX_DEPTH, "min"))
    assert height(tree) == MAX_DEPTH
    assert to_text(tree) == chain(MAX_DEPTH, "min")


def deepest_allowed_json() -> None:
    text = json_chain(MAX_DEPTH)
    tree = from_json(text)
    assert height(tree) == MAX_DEPTH
    assert to_json(tree) == text


PRIMES_2000 = "chance(" + ", ".join(f"1/{p}: {i}" for i, p in enumerate(primes_from(10_007, 2_000))) + ")"
HUGE_DIGITS = "1" * 10_000_000
BIG = 50_000_001  # one more than the default ev.options.max_input_bytes

# ---------------------------------------------------------------- the cases

TEXT = [
    Case("text-10MB-of-open-parentheses", lambda: parse("(" * 10_000_000), TreeSyntaxError, ("line 1, column 1",)),
    Case("text-10MB-of-close-parentheses", lambda: parse(")" * 10_000_000), TreeSyntaxError, ("unbalanced",)),
    Case("text-1M-nested-max", lambda: parse("max(" * 1_000_000), TreeSyntaxError, ("100,000 levels", "column")),
    Case("text-chain-100001-levels", lambda: parse(chain(MAX_DEPTH + 1)), TreeSyntaxError, ("100,000 levels",)),
    Case("text-chain-100000-levels", deepest_allowed_chain, None),
    Case("text-chain-10000-levels-round-trip", deep_chain_round_trip, None),
    Case("text-unclosed-10000", lambda: parse("max(" * 10_000 + "1"), TreeSyntaxError, ("ended inside max",)),
    Case("text-unbalanced-close", lambda: parse("max(1, 2))"), TreeSyntaxError, ("line 1, column 10", "unbalanced")),
    Case("text-ends-early", lambda: parse("max(1, 2"), TreeSyntaxError, ("line 1, column 9", "close it with")),
    Case("text-unterminated-10MB-quote", lambda: parse('max("' + "a" * 10_000_000), TreeSyntaxError, ("unterminated",)),
    Case(
        "text-unterminated-quote-of-escapes",
        lambda: parse('max("' + "\\a" * 5_000_000),
        TreeSyntaxError,
        ("unterminated",),
    ),
    Case("text-2M-escaped-quotes-in-a-label", lambda: parse('max("' + '\\"' * 2_000_000 + '": 1)'), None),
    Case("text-10MB-comment", lambda: parse("# " + "x" * 10_000_000 + "\nmax(1, 2)"), None),
    Case("text-nul-character", lambda: parse("max(1,\x002)"), TreeSyntaxError, ("unexpected character", "column 7")),
    Case(
        "text-fullwidth-digits",
        lambda: parse("max(１２, 3)"),
        TreeSyntaxError,
        ("column 5", "FULLWIDTH DIGIT ONE", "0-9"),
    ),
    Case(
        "text-arabic-indic-digit", lambda: parse("max(1, ٣)"), TreeSyntaxError, ("column 8", "ARABIC-INDIC DIGIT THREE")
    ),
    Case("text-devanagari-digit", lambda: parse("max(\n  १)"), TreeSyntaxError, ("line 2, column 3", "DEVANAGARI")),
    Case("text-digit-after-ascii", lambda: parse("max(1٣)"), TreeSyntaxError, ("column 6", "ASCII digits")),
    Case("text-fullwidth-parenthesis", lambda: parse("max（1）"), TreeSyntaxError, ("FULLWIDTH LEFT PARENTHESIS",)),
    Case("text-inf", lambda: parse("max(inf, 1)"), TreeSyntaxError, ("column 5", "finite")),
    Case("text-nan", lambda: parse("max(NaN)"), TreeSyntaxError, ("finite",)),
    Case("text-unknown-kind", lambda: parse("avg(1, 2)"), TreeSyntaxError, ("unknown node kind 'avg'",)),
    Case(
        "text-10MB-word",
        short_message(lambda: parse("max(" + "a" * 10_000_000 + ")")),
        TreeSyntaxError,
        ("unknown node kind", "..."),
    ),
    Case(
        "text-10MB-label-after-the-tree",
        short_message(lambda: parse("1 " + "b" * 10_000_000)),
        TreeSyntaxError,
        ("after the end of the tree",),
    ),
    Case(
        "text-duplicate-10MB-labels",
        short_message(lambda: parse(f'max("{"c" * 5_000_000}": 1, "{"c" * 5_000_000}": 2)')),
        InvalidTreeError,
        ("duplicate move label",),
    ),
]

NUMBERS = [
    Case("number-1e9999-is-exact", parses_to("1e9999", 10**9999), None),
    Case("number-1e10000-too-long", lambda: parse("1e10000"), TreeSyntaxError, ("10,000 digits", "numerator")),
    Case("number-exponent-99999", lambda: parse("max(1, 1e99999)"), TreeSyntaxError, ("column 8", "exponent")),
    Case("number-exponent-5000-digits", lambda: parse("1e" + "9" * 5000), TreeSyntaxError, ("exponent", "10,000")),
    Case("number-negative-exponent", lambda: parse("1e-10001"), TreeSyntaxError, ("exponent",)),
    Case("number-1-over-0", lambda: parse("max(1, 1/0)"), TreeSyntaxError, ("column 8", "divides by zero")),
    Case("number-probability-1-over-00", lambda: parse("chance(1/00: 1)"), TreeSyntaxError, ("divides by zero",)),
    Case("number-5001-digits-is-exact", parses_to("7" * 5001, int("7" * 4000) * 10**1001 + int("7" * 1001)), None),
    Case("number-10001-digits", lambda: parse("max(" + "1" * 10_001 + ")"), TreeSyntaxError, ("10,001 digits",)),
    Case("number-10MB-of-digits", lambda: parse(HUGE_DIGITS), TreeSyntaxError, ("10,000,000 digits", "at most")),
    Case("number-long-denominator", lambda: parse("1/" + "3" * 10_001), TreeSyntaxError, ("after its '/'",)),
    Case("number-long-decimal", lambda: parse("0." + "0" * 10_000 + "1"), TreeSyntaxError, ("digits",)),
    Case("number-4215-digit-denominator", parses_to("1/" + str(2**14000), Fraction(1, 2**14000)), None),
    Case("number-runs-into-e", lambda: parse("max(1e, 2)"), TreeSyntaxError, ("column 6", "exponent needs digits")),
    Case("number-two-points", lambda: parse("max(1.2.3)"), TreeSyntaxError, ("runs into '.'",)),
    Case("number-two-slashes", lambda: parse("max(1/2/3)"), TreeSyntaxError, ("runs into '/'",)),
    Case("number-double-minus", lambda: parse("max(--1)"), TreeSyntaxError, ("unexpected character '-'",)),
    Case("number-tiny-leaf", tiny_leaf, None),
    Case("number-huge-leaf-from-dict", huge_leaf, None),
    Case("number-formatting-beyond-4300-digits", huge_numbers_format, None),
    Case("number-too-long-leaf-from-nodes", lambda: check(leaf(3**30_000)), InvalidTreeError, ("numerator", "10,000")),
    Case(
        "number-huge-value-on-an-inner-node",
        short_message(lambda: check(Node(MAX, children=(leaf(1),), value=3**30_000))),
        InvalidTreeError,
        ("only leaves have values",),
    ),
    Case("number-nan-leaf", lambda: check(leaf(float("nan"))), InvalidTreeError, ("not finite",)),
    Case("number-boolean-leaf", lambda: check(leaf(True)), InvalidTreeError, ("boolean",)),
    Case("number-exact-fullwidth-text", lambda: exact("１２"), InvalidTreeError, ("not a number", "ASCII digits")),
    Case("number-exact-underscores", lambda: exact("1_000"), InvalidTreeError, ("not a number",)),
    Case("number-exact-huge-list", lambda: exact([1] * 1_000_000), InvalidTreeError, ("is not a number",)),
]

PROBABILITIES = [
    Case("probability-1e-400-is-exact", tiny_probability, None),
    Case("probability-exponent-too-large", lambda: parse("chance(1e-99999: 1, 1: 2)"), TreeSyntaxError, ("exponent",)),
    Case("probability-sum-0.9", lambda: parse("chance(0.5: 1, 0.4: 2)"), InvalidTreeError, ("sum to 0.9", "1/2 + 0.4")),
    Case("probability-2000-primes-sum", lambda: parse(PRIMES_2000), InvalidTreeError, ("sum to ≈0.11", "1,992 more")),
    Case("probability-2000-primes-valid", prime_outcomes_that_sum_to_one, None, seconds=30),
    Case("probability-negative", lambda: parse("chance(-1/2: 1, 3/2: 2)"), InvalidTreeError, ("positive", "path (0,)")),
    Case("probability-above-one", lambda: parse("chance(2: 1, 1: 2)"), InvalidTreeError, ("more than 1",)),
    Case("probability-within-1e-9", lambda: parse("chance(0.3333333333: 1, 0.3333333333: 2, 0.3333333334: 3)"), None),
    Case(
        "probability-off-by-2e-9",
        lambda: parse("chance(0.333333333: 1, 0.333333333: 2, 0.333333332: 3)"),
        InvalidTreeError,
        ("sum to",),
    ),
    Case(
        "probability-under-max", lambda: parse("max(1/2: 1, 1/2: 2)"), TreeSyntaxError, ("only allowed under a chance",)
    ),
]

TYPES_AND_SIZES = [
    Case("type-parse-none", lambda: parse(None), InputTypeError, ("parse()", "str", "None")),  # type: ignore[arg-type]
    Case("type-parse-int", lambda: parse(42), InputTypeError, ("not int",)),  # type: ignore[arg-type]
    Case("type-parse-list", lambda: parse(["max(1)"]), InputTypeError, ("not list",)),  # type: ignore[arg-type]
    Case("type-parse-node", lambda: parse(leaf(1)), InputTypeError, ("already a tree",)),  # type: ignore[arg-type]
    Case("type-parse-is-a-type-error", lambda: parse(None), TypeError, ("str",)),  # type: ignore[arg-type]
    Case("type-parse-bytes", parses_to(b"7", 7), None),
    Case("type-parse-bytes-with-bom", parses_to(b"\xef\xbb\xbf 7", 7), None),
    Case("type-parse-bytearray", parses_to(bytearray(b"2.5"), Fraction(5, 2)), None),
    Case("type-parse-bad-utf8", lambda: parse(b"max(1,\n 2\xff)"), TreeSyntaxError, ("line 2, column 3", "UTF-8")),
    Case("type-from-json-none", lambda: from_json(None), InputTypeError, ("from_json()", "None")),  # type: ignore[arg-type]
    Case("type-from-json-int", lambda: from_json(42), InputTypeError, ("not int",)),  # type: ignore[arg-type]
    Case("type-from-json-list", lambda: from_json([{"kind": "leaf"}]), InputTypeError, ("not list",)),  # type: ignore[arg-type]
    Case("type-from-json-node", lambda: from_json(leaf(1)), InputTypeError, ("already a tree",)),  # type: ignore[arg-type]
    Case("type-check-list-children", lambda: check(Node(MAX, children=[leaf(1)])), InvalidTreeError, ("tuple",)),  # type: ignore[arg-type]
    Case(
        "size-text-over-the-option",
        with_limit(1000, lambda: parse("max(" + "1, " * 500 + "1)")),
        TreeSyntaxError,
        ("max_input_bytes", "1,000", "1,506 characters"),
    ),
    Case("size-text-over-the-default", lambda: parse(" " * BIG), TreeSyntaxError, ("max_input_bytes", "50,000,000")),
    Case(
        "size-bytes-over-the-option",
        with_limit(10, lambda: parse(b"max(1, 2, 3, 4)")),
        TreeSyntaxError,
        ("max_input_bytes", "15 bytes"),
    ),
    Case(
        "size-json-over-the-option",
        with_limit(10, lambda: from_json(leaf_json("1"))),
        InvalidTreeError,
        ("max_input_bytes",),
    ),
    Case("size-json-bytes-over-the-default", lambda: from_json(b" " * BIG), InvalidTreeError, ("50,000,000",)),
]

JSON = [
    Case("json-10M-open-brackets", lambda: from_json("[" * 10_000_000), InvalidTreeError, ("nested", "line 1")),
    Case("json-150000-levels", lambda: from_json(json_chain(150_000)), InvalidTreeError, ("nested", "100,000 levels")),
    Case("json-chain-10000-levels", lambda: round_trips(from_json(json_chain(10_000))), None),
    Case("json-chain-100000-levels", deepest_allowed_json, None),
    Case(
        "json-brackets-in-unterminated-string",
        lambda: from_json('"' + "[" * 1_000_000),
        InvalidTreeError,
        ("not valid JSON",),
    ),
    Case(
        "json-brackets-in-a-string",
        lambda: from_json(json.dumps(['\\"' + "[" * 300_000])),
        InvalidTreeError,
        ("expected a JSON object", "array"),
    ),
    Case("json-cyclic-dict", lambda: from_json(cyclic_dict()), InvalidTreeError, ("contains itself", "path (1,)")),
    Case("json-shared-dicts", lambda: from_json(shared_dicts(100)), InvalidTreeError, ("appears earlier",)),
    Case(
        "json-dict-deeper-than-the-limit",
        lambda: from_json(deep_dict(MAX_DEPTH + 1)),
        InvalidTreeError,
        ("100,000 levels", "levels down"),
    ),
    Case(
        "json-nodes-deeper-than-the-limit",
        lambda: check(node_chain(MAX_DEPTH + 1)),
        InvalidTreeError,
        ("100,000 levels",),
    ),
    Case("json-value-1e9999-string", lambda: from_json(leaf_json('"1e9999"')), None),
    Case("json-value-1e9999-number", lambda: from_json(leaf_json("1e9999")), None),
    Case(
        "json-value-1e-400-is-not-zero",
        lambda: assert_true(from_json(leaf_json("1e-400")).children[0].value != 0),
        None,
    ),
    Case("json-value-5001-digits", lambda: from_json(leaf_json("9" * 5001)), None),
    Case(
        "json-value-10001-digits",
        lambda: from_json(leaf_json("9" * 10_001)),
        InvalidTreeError,
        ("path (0,)", "10,001 digits"),
    ),
    Case(
        "json-value-exponent-too-large",
        lambda: from_json(leaf_json("1e99999")),
        InvalidTreeError,
        ("path (0,)", "exponent"),
    ),
    Case("json-value-divides-by-zero", lambda: from_json(leaf_json('"1/0"')), InvalidTreeError, ("divides by zero",)),
    Case("json-value-arabic-digits", lambda: from_json(leaf_json('"١٢"')), InvalidTreeError, ("ASCII digits",)),
    Case("json-value-nan", lambda: from_json(leaf_json("NaN")), InvalidTreeError, ("not finite", "path (0,)")),
    Case(
        "json-bad-utf8-bytes",
        lambda: from_json(b'{"kind": "leaf", "value": 1\x80}'),
        InvalidTreeError,
        ("not valid JSON",),
    ),
    Case(
        "json-non-string-key",
        lambda: from_json({"kind": "leaf", "value": 1, 2: 3}),
        InvalidTreeError,
        ("unknown key(s) 2",),
    ),
    Case(
        "json-number-as-move",
        lambda: from_json('{"kind": "max", "children": [{"kind": "leaf", "value": 1, "move": 3}]}'),
        InvalidTreeError,
        ("move 3 must be text",),
    ),
    Case(
        "json-huge-int-as-kind",
        short_message(lambda: from_json({"kind": 3**30_000})),
        InvalidTreeError,
        ("unknown node kind",),
    ),
    Case(
        "json-10001-digit-kind",
        short_message(lambda: from_json('{"kind": ' + "7" * 10_001 + "}")),
        InvalidTreeError,
        ("unknown node kind",),
    ),
    Case(
        "json-children-not-a-list",
        lambda: from_json('{"kind": "max", "children": 3}'),
        InvalidTreeError,
        ("'children' must be a list, found number",),
    ),
]


def assert_true(condition: bool) -> None:
    assert condition


CASES = TEXT + NUMBERS + PROBABILITIES + TYPES_AND_SIZES + JSON


def test_the_corpus_is_large_and_its_ids_unique() -> None:
    assert len(CASES) >= 70
    assert len({case.id for case in CASES}) == len(CASES)
    assert MAX_DIGITS == 10_000 and MAX_DEPTH == 100_000


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_hostile_tree_input(case: Case) -> None:
    run_case(case)
