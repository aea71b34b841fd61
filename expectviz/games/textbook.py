"""The textbook trees, by name, each with its source.

>>> from expectviz.games import textbook
>>> textbook("aima-fig-5.2")
parse('max A(a1: min B(b1: 3, b2: 12, b3: 8), a2: min C(c1: 2, c2: 4, c3: 6), a3: min D(d1: 14, d2: 5, d3: 2))')
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import UnknownTreeError
from ..notation import parse
from ..tree import Node

__all__ = ["TextbookTree", "TEXTBOOK", "textbook", "textbook_trees"]


@dataclass(frozen=True)
class TextbookTree:
    """A named tree with where it comes from and what it shows."""

    name: str
    """The key to pass to :func:`textbook`."""
    text: str
    """The tree in the text notation."""
    source: str
    """The figure or text it is taken from."""
    note: str
    """What it is used to show."""
    bounds: tuple[int, int] | None = None
    """For the *-minimax trees: the value bounds [L, U] the example assumes."""

    @property
    def tree(self) -> Node:
        """The parsed tree."""
        return parse(self.text)


_TREES = [
    TextbookTree(
        "aima-fig-5.2",
        "max A(a1: min B(b1: 3, b2: 12, b3: 8), a2: min C(c1: 2, c2: 4, c3: 6), a3: min D(d1: 14, d2: 5, d3: 2))",
        "AIMA 3rd ed. Fig. 5.2 (4th ed. Fig. 6.2)",
        "The two-ply game: minimax value 3 by a1; alpha-beta prunes c2 and c3 (Fig. 5.5).",
    ),
    TextbookTree(
        "coin-flip",
        "max(left: chance(heads: 10, tails: 0), right: chance(heads: 5, tails: 15))",
        'The worked example of the encyclopedia article "Expectiminimax"',
        "MAX chooses between two fair coin flips: chance values 5 and 10, so MAX goes right, value 10.",
    ),
    TextbookTree(
        "lecture-coin-flip-min",
        "max(left: min(10, 10), right: min(9, 100))",
        "The classic lecture coin flip, with MIN choosing",
        "As MIN nodes: 10 against 9, so MAX goes left, value 10.",
    ),
    TextbookTree(
        "lecture-coin-flip-chance",
        "max(left: chance(10, 10), right: chance(9, 100))",
        "The classic lecture coin flip, with a fair coin choosing",
        "As chance nodes: 10 against 54.5, so MAX goes right, value 54.5.",
    ),
    TextbookTree(
        "aima-fig-5.12-left",
        "max(a1: chance(0.9: min(2, 2), 0.1: min(3, 3)), a2: chance(0.9: min(1, 1), 0.1: min(4, 4)))",
        "AIMA 3rd ed. Fig. 5.12 (4th ed. Fig. 6.14), left",
        "Chance values 2.1 and 1.3: a1 is best.",
    ),
    TextbookTree(
        "aima-fig-5.12-right",
        "max(a1: chance(0.9: min(20, 20), 0.1: min(30, 30)), a2: chance(0.9: min(1, 1), 0.1: min(400, 400)))",
        "AIMA 3rd ed. Fig. 5.12 (4th ed. Fig. 6.14), right",
        "The same order of leaf values, changed by an order-preserving map: 21 and 40.9, so a2 is best.",
    ),
    TextbookTree(
        "aima-star-exercise",
        "max(chance(min(2, 2), min(1, 2)), chance(min(0, 2), min(-1, 0)))",
        "The AIMA games-chapter exercise on pruning chance nodes, values in [-2, 2]",
        "Chance values 1.5 and -0.5; with bounds [-2, 2] Star1 evaluates 5 of the 8 leaves.",
        (-2, 2),
    ),
    TextbookTree(
        "star2-beats-star1",
        "max(1.5, chance(min(1.8, 1.9), min(0.5, 1)))",
        "A regular tree on which Star2's probing cuts earlier than Star1 (Ballard 1983)",
        "Star1 evaluates 4 leaves; Star2's probes bound the chance node by 1.15 <= 1.5 after 3.",
        (-2, 2),
    ),
]

TEXTBOOK: dict[str, TextbookTree] = {t.name: t for t in _TREES}
"""Every textbook tree, by name."""


def textbook(name: str) -> Node:
    """The textbook tree called ``name`` (see :func:`textbook_trees`)."""
    try:
        return TEXTBOOK[name].tree
    except KeyError:
        raise _unknown(name) from None


def textbook_trees() -> str:
    """A listing of the textbook trees: name, source and what each shows."""
    width = max(len(t.name) for t in _TREES)
    lines = []
    for t in _TREES:
        lines.append(f"{t.name.ljust(width)}  {t.source}")
        lines.append(f"{''.ljust(width)}  {t.note}")
    return "\n".join(lines)


def _unknown(name: str) -> UnknownTreeError:
    return UnknownTreeError(f"no textbook tree is called {name!r}; the names are: {', '.join(TEXTBOOK)}")

    def __str__(self) -> str:
        return str(self.args[0])
