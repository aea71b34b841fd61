"""expectviz.games.textbook: the named textbook trees, their sources, and the errors for unknown names."""

from __future__ import annotations

import pytest

import expectviz as ev
from expectviz.errors import ExpectvizError
from expectviz.games.textbook import TEXTBOOK, TextbookTree, UnknownTreeError, textbook, textbook_trees

# The trees as their sources write them (labels and names aside).
SOURCE_TEXT = {
    "aima-fig-5.2": "max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))",
    "coin-flip": "max(chance(10, 0), chance(5, 15))",
    "lecture-coin-flip-min": "max(min(10, 10), min(9, 100))",
    "lecture-coin-flip-chance": "max(chance(10, 10), chance(9, 100))",
    "aima-fig-5.12-left": "max(chance(0.9: min(2, 2), 0.1: min(3, 3)), chance(0.9: min(1, 1), 0.1: min(4, 4)))",
    "aima-fig-5.12-right": (
        "max(chance(0.9: min(20, 20), 0.1: min(30, 30)), chance(0.9: min(1, 1), 0.1: min(400, 400)))"
    ),
    "aima-star-exercise": "max(chance(min(2, 2), min(1, 2)), chance(min(0, 2), min(-1, 0)))",
    "star2-beats-star1": "max(1.5, chance(min(1.8, 1.9), min(0.5, 1)))",
}


def strip_labels(tree: ev.Node) -> str:
    """The tree's text without names and move labels."""
    from strategies import walk_paths

    from expectviz.tree import Node, check

    def copy(node: Node) -> Node:
        return Node(
            node.kind,
            children=tuple(copy(c) for c in node.children),
            value=node.value,
            probability=node.probability,
            evaluation=node.evaluation,
        )

    plain = check(copy(tree))
    assert len(list(walk_paths(plain))) == len(list(walk_paths(tree)))
    return ev.to_text(plain)


def test_every_facts_tree_is_in_the_textbook() -> None:
    assert set(SOURCE_TEXT) <= set(TEXTBOOK)


@pytest.mark.parametrize("name", list(TEXTBOOK))
def test_textbook_tree(name: str) -> None:
    entry = TEXTBOOK[name]
    assert isinstance(entry, TextbookTree)
    assert entry.name == name
    assert entry.source and entry.note
    tree = textbook(name)
    assert tree == ev.parse(entry.text) == entry.tree
    assert ev.to_text(tree) == entry.text  # stored in the printer's own form
    if name in SOURCE_TEXT:
        assert strip_labels(tree) == ev.to_text(ev.parse(SOURCE_TEXT[name]))


@pytest.mark.parametrize("name", ["aima-star-exercise", "star2-beats-star1"])
def test_star_trees_carry_their_bounds(name: str) -> None:
    assert TEXTBOOK[name].bounds == (-2, 2)
    low, high = TEXTBOOK[name].bounds  # type: ignore[misc]
    for search in (ev.star1, ev.star2):
        assert search(name, bounds=(low, high)).exact_value == ev.expectiminimax(name).exact_value


def test_textbook_names_work_as_trees_in_every_algorithm() -> None:
    assert ev.minimax("aima-fig-5.2").best_move == "a1"
    assert ev.expectiminimax(" coin-flip ").best_move == "right"


def test_sources_cite_the_figures() -> None:
    assert "Fig. 5.2" in TEXTBOOK["aima-fig-5.2"].source and "6.2" in TEXTBOOK["aima-fig-5.2"].source
    assert "Fig. 5.12" in TEXTBOOK["aima-fig-5.12-left"].source
    assert "Ballard" in TEXTBOOK["star2-beats-star1"].source


def test_unknown_name() -> None:
    with pytest.raises(UnknownTreeError) as info:
        textbook("aima-fig-5.3")
    error = info.value
    assert isinstance(error, ExpectvizError) and isinstance(error, KeyError)
    assert "'aima-fig-5.3'" in str(error)
    for name in TEXTBOOK:
        assert name in str(error)


def test_listing_names_every_tree() -> None:
    listing = textbook_trees()
    for entry in TEXTBOOK.values():
        assert entry.name in listing and entry.source in listing and entry.note in listing
    assert len(listing.splitlines()) == 2 * len(TEXTBOOK)


def test_each_call_gives_an_equal_tree() -> None:
    assert textbook("coin-flip") == textbook("coin-flip")
    assert ev.textbook is textbook
