"""The hostile-input corpus, traces and searches: saved traces that do not fit their tree, options and budgets out of
range, numbers beyond a double, and huge or deep inputs.  Each case runs in a forked child under a memory and time
cap (see hostile.py) and must raise the named error with the named words, or succeed."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from hostile import Case, run_case

import expectviz as ev
from expectviz.errors import InputTypeError, OptionError, SearchError, TraceBudgetError, TraceFormatError


def saved(make: Any = None) -> dict[str, Any]:
    result = make() if make is not None else ev.alphabeta(ev.textbook("aima-fig-5.2"))
    data: dict[str, Any] = json.loads(result.trace.to_json())
    return data


def changed(change: Any, make: Any = None) -> str:
    data = saved(make)
    change(data)
    return json.dumps(data)


def event(i: int, value: list[Any]) -> Any:
    def change(data: dict[str, Any]) -> None:
        data["events"][i] = value

    return change


def star1_exercise() -> ev.Result:
    return ev.star1(ev.textbook("aima-star-exercise"), bounds=(-2, 2))


def star2_probe() -> ev.Result:
    return ev.star2(ev.textbook("star2-beats-star1"), bounds=(-2, 2))


def load(text: str | bytes) -> Any:
    return lambda: ev.Trace.from_json(text)


def nested_options(depth: int) -> str:
    data = saved()
    data["options"] = None
    text = json.dumps(data)
    return text.replace('"options": null', '"options": ' + '{"a": ' * depth + "1" + "}" * depth)


def primes(count: int) -> list[int]:
    found: list[int] = []
    n = 2
    while len(found) < count:
        if all(n % p for p in found if p * p <= n):
            found.append(n)
        n += 1
    return found


def prime_outcomes() -> None:
    """2,000 outcomes with distinct prime denominators: the value's denominator has thousands of digits."""
    ps = primes(1999)
    shares = [Fraction(1, 2000 * p) for p in ps]
    last = 1 - sum(shares)  # about 0.9987: its denominator has thousands of digits
    assert last.numerator > 0
    rest = ev.numbers.format_number(last, exact=True)
    text = "chance(" + ", ".join(f"1/{2000 * p}: {i}" for i, p in enumerate(ps)) + f", {rest}: 0)"
    r = ev.expectiminimax(text)
    assert r.trace is not None
    assert repr(r) and str(r.trace) and r.trace.frame(-1).explanation
    again = ev.Trace.from_json(r.trace.to_json())
    assert again[-1].value == r.exact_value


def with_small_input_limit() -> None:
    ev.options.max_input_bytes = 1_000
    ev.Trace.from_json(json.dumps(saved()))


def over_budget(search: Any, **options: Any) -> Any:
    tree = ev.random_trees.uniform_tree(4, 6, seed=1)
    return lambda: search(tree, max_events=500, **options)


def huge_bound_star1() -> None:
    r = ev.star1("max(chance(1, 2), chance(0, 3))", bounds=(-2, 10**400))
    assert r.value == 1.5 and str(r.trace) and r.trace.frame(-1).explanation


def chance_stays_within_children() -> None:
    """Decimal probabilities are accepted within 1e-9 of 1; a chance node's value never leaves its children's range."""
    r = ev.expectiminimax("chance(0.3333333333: 7, 0.3333333333: 7, 0.3333333333: 7)")
    assert r.exact_value == 7, r.exact_value
    s = ev.star1("chance(0.3333333333: 7, 0.3333333333: 7, 0.3333333333: 7)", bounds=(0, 7))
    assert s.exact_value == 7, s.exact_value


def huge_table_value() -> None:
    """A table event at C of Fig. 5.2 with a 5,000-digit value (no bounds refuse it): it replays, explains and saves."""

    def change(data: dict[str, Any]) -> None:
        data["events"][10:14] = [["table", 0, "9" * 5000, 0]]

    trace = ev.Trace.from_json(changed(change))
    assert trace.stats().table_hits == 1 and str(trace)
    for frame in trace.frames():
        assert frame.explanation and frame.nodes is not None
    assert trace.frame(-1).node((1,)).range[0] == 10**5000 - 1
    assert ev.Trace.from_json(trace.to_json())[10].value == 10**5000 - 1


TABLE_AT_ROOT = [["visit", 0, "-inf", "+inf"], ["table", 0, 3, 0]]

CASES = [
    # ---- not JSON, or not a trace
    Case("from-json-none", load(None), InputTypeError, ("str or bytes", "not None")),  # type: ignore[arg-type]
    Case("from-json-number", load(3), InputTypeError, ("int",)),  # type: ignore[arg-type]
    Case("from-json-list-object", load([1]), InputTypeError, ("list",)),  # type: ignore[arg-type]
    Case("from-json-bad-utf8", load(b'{"schema": "\xff"}'), TraceFormatError, ("UTF-8",)),
    Case("from-json-ten-million-brackets", load("[" * 10_000_000), TraceFormatError, ("nested",), seconds=30),
    Case("from-json-ten-million-braces", load('{"a":' * 2_000_000), TraceFormatError, ("nested",), seconds=30),
    Case("from-json-empty", load(""), TraceFormatError, ("JSON",)),
    Case("from-json-not-an-object", load("[]"), TraceFormatError, ("expectviz trace",)),
    Case("from-json-over-the-input-limit", with_small_input_limit, TraceFormatError, ("max_input_bytes",)),
    Case("options-nested-200000-deep", load(nested_options(200_000)), TraceFormatError, ("options",), seconds=30),
    # ---- the document's fields
    Case("unknown-algorithm", load(changed(lambda d: d.update(algorithm="negamax"))), TraceFormatError, ("negamax",)),
    Case("algorithm-a-list", load(changed(lambda d: d.update(algorithm=[1]))), TraceFormatError, ("algorithm",)),
    Case("option-unknown", load(changed(lambda d: d.update(options={"x": True}))), TraceFormatError, ("'x'",)),
    Case("option-not-bool", load(changed(lambda d: d.update(options={"prune_ties": 1}))), TraceFormatError, ("true",)),
    Case("bounds-1e9999", load(changed(lambda d: d.update(bounds=["-inf", "1e9999"]))), TraceFormatError, ("bounds",)),
    Case("bounds-reversed", load(changed(lambda d: d.update(bounds=[3, 1]))), TraceFormatError, ("L < U",)),
    Case("bounds-miss-the-leaves", load(changed(lambda d: d.update(bounds=[0, 5]))), TraceFormatError, ("14",)),
    Case("bounds-nan-text", load(changed(lambda d: d.update(bounds=["nan", 1]))), TraceFormatError, ("bounds",)),
    Case("tree-missing", load(changed(lambda d: d.pop("tree"))), TraceFormatError, ("tree",)),
    Case("tree-childless", load(changed(lambda d: d.update(tree={"kind": "max"}))), TraceFormatError, ("bad tree",)),
    Case("events-not-a-list", load(changed(lambda d: d.update(events={}))), TraceFormatError, ("events",)),
    Case("no-events", load(changed(lambda d: d.update(events=[]))), TraceFormatError, ("no events",)),
    # ---- events that do not fit the tree
    Case("backup-closes-a-leaf", load(changed(event(3, ["backup", 0, 3, 0]))), TraceFormatError, ("leaf",)),
    Case("leaf-value-not-the-leafs", load(changed(event(3, ["leaf", 0, 4, 0]))), TraceFormatError, ("says 4",)),
    Case("leaf-event-for-inner-node", load(changed(event(8, ["leaf", 0, 3, 0]))), TraceFormatError, ("evaluation",)),
    Case("visit-out-of-order", load(changed(event(4, ["visit", 2, "-inf", "+inf"]))), TraceFormatError, ("left to",)),
    Case("visit-no-such-child", load(changed(event(4, ["visit", 7, "-inf", "+inf"]))), TraceFormatError, ("child 7",)),
    Case("window-at-a-max-node", load(changed(event(12, ["window", 1, 0, 1]))), TraceFormatError, ("chance",)),
    Case("bounds-at-a-min-node", load(changed(event(12, ["bounds", 0, 0, 1]))), TraceFormatError, ("chance",)),
    Case("probe-under-alphabeta", load(changed(event(8, ["probe", 0, 3, 0]))), TraceFormatError, ("probe",)),
    Case("reuse-under-alphabeta", load(changed(event(4, ["reuse", 0, 3, 0]))), TraceFormatError, ("reuse",)),
    Case(
        "cutoff-not-followed-by-backup",
        load(changed(lambda d: d["events"].insert(13, ["visit", 1, 3, "+inf"]))),
        TraceFormatError,
        ("followed by the backup",),
    ),
    Case("cutoff-prunes-nothing", load(changed(event(12, ["cutoff", 3, 2, 0]))), TraceFormatError, ("pruned",)),
    Case("value-1e9999-text", load(changed(event(3, ["leaf", 0, "1e9999", 0]))), TraceFormatError, ("says",)),
    Case("value-huge-digits", load(changed(event(3, ["leaf", 0, "9" * 5000, 0]))), TraceFormatError, ("tree says 3",)),
    Case("value-infinite-leaf", load(changed(event(3, ["leaf", 0, "+inf", 0]))), TraceFormatError, ("finite",)),
    Case("index-negative", load(changed(event(1, ["visit", -1, "-inf", "+inf"]))), TraceFormatError, ("index",)),
    Case("index-a-float", load(changed(event(1, ["visit", 0.0, "-inf", "+inf"]))), TraceFormatError, ("index",)),
    Case("a-second-root", load(changed(lambda d: d["events"].append(["visit", 0, 0, 0]))), TraceFormatError, ("root",)),
    Case("unclosed-nodes", load(changed(lambda d: d["events"].pop())), TraceFormatError, ("still open",)),
    Case("table-at-the-root", load(changed(lambda d: d.update(events=TABLE_AT_ROOT))), TraceFormatError, ("root",)),
    Case("table-closes-a-leaf", load(changed(event(3, ["table", 0, 3, 0]))), TraceFormatError, ("leaf",)),
    Case(
        "table-with-nothing-open",
        load(changed(lambda d: d["events"].append(["table", 0, 3, 0]))),
        TraceFormatError,
        ("event 23", "no node being searched"),
    ),
    Case("table-after-a-child", load(changed(event(8, ["table", 0, 3, 0]))), TraceFormatError, ("follow the visit",)),
    Case("table-value-huge-digits", huge_table_value, None),
    Case(
        "table-value-beyond-star1-bounds",
        load(changed(lambda d: d["events"].insert(4, ["table", 0, 5, 0]), star1_exercise)),
        TraceFormatError,
        ("outside the bounds",),
    ),
    Case(
        "star2-window-for-a-missing-child",
        load(changed(event(4, ["window", 5, 0, 1]), star2_probe)),
        TraceFormatError,
        ("out of range",),
    ),
    Case(
        "star1-probe-event",
        load(changed(event(8, ["probe", 0, 2, 0]), star1_exercise)),
        TraceFormatError,
        ("probe",),
    ),
    # ---- searches: budgets, options and numbers
    Case("budget-minimax", over_budget(ev.minimax), TraceBudgetError, ("events", "trace=False", "depth limit")),
    Case("budget-alphabeta", over_budget(ev.alphabeta), TraceBudgetError, ("max_events",)),
    Case("budget-star2", over_budget(ev.star2, bounds=(-100, 100)), TraceBudgetError, ("MB",)),
    Case("budget-zero", lambda: ev.minimax("max(1, 2)", max_events=0), SearchError, ("max_events",)),
    Case("budget-text", lambda: ev.minimax("max(1, 2)", max_events="lots"), SearchError, ("max_events",)),
    Case("option-unknown-name", lambda: setattr(ev.options, "max_nodes", 3), OptionError, ("no option",)),
    Case("option-negative", lambda: setattr(ev.options, "max_events", -5), OptionError, ("max_events",)),
    Case("star1-bound-10-to-the-400", huge_bound_star1, None),
    Case("star1-bound-float-overflow", lambda: ev.star1("chance(1, 2)", bounds=(-2, 1e400)), None),
    Case("two-thousand-prime-outcomes", prime_outcomes, None, seconds=60),
    Case("decimal-probabilities-stay-in-range", chance_stays_within_children, None),
    Case("unknown-textbook-name", lambda: ev.minimax("aima-fig-9.9"), SearchError, ("aima-fig-5.2",)),
    Case("depth-negative", lambda: ev.minimax("max(1, 2)", depth=-1), SearchError, ("depth",)),
    Case("depth-a-float", lambda: ev.alphabeta("max(1, 2)", depth=1.5), SearchError, ("depth",)),
    Case("prune-ties-not-bool", lambda: ev.alphabeta("max(1, 2)", prune_ties="yes"), SearchError, ("prune_ties",)),
    Case("star1-without-bounds", lambda: ev.star1("chance(1, 2)", bounds=None), SearchError, ("bounds",)),
    Case("star1-leaf-outside-bounds", lambda: ev.star1("chance(1, 5)", bounds=(0, 2)), SearchError, ("5",)),
    Case("star2-irregular", lambda: ev.star2("chance(1, max(1, 2))", bounds=(0, 2)), SearchError, ("regular",)),
    Case("frame-step-text", lambda: ev.minimax("max(1, 2)").trace.frame("3"), TypeError, ("step",)),
    Case("frame-step-out-of-range", lambda: ev.minimax("max(1, 2)").trace.frame(99), IndexError, ("0 to 6",)),
]


def test_the_corpus_has_distinct_names() -> None:
    assert len({case.id for case in CASES}) == len(CASES) >= 60


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_hostile_trace_and_search_input(case: Case) -> None:
    run_case(case)
