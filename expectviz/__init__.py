"""expectviz: game-tree search under chance, step by step.

A short tour (AIMA Fig. 5.2, the two-ply game):

>>> import expectviz as ev
>>> tree = ev.parse("max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))")
>>> ev.minimax(tree).value
3
>>> r = ev.alphabeta(tree)
>>> r.value, r.best_move, r.stats
(3, 0, Stats(nodes_visited=11, leaves_evaluated=7, cutoffs=1))
>>> r = ev.alphabeta(ev.textbook("aima-fig-5.2"))     # the same tree, with names
>>> r.trace.frame(13).explanation.split(": ")[0]
'C is a MIN node whose value is now at most 2, and 2 ≤ α = 3'
>>> r.trace.frame(13).node((1, 1)).status   # c2
'pruned'

Chance nodes (the coin flip of the encyclopedia article "Expectiminimax") and *-minimax pruning:

>>> ev.expectiminimax("max(chance(10, 0), chance(5, 15))").value
10
>>> ev.star1(ev.textbook("aima-star-exercise"), bounds=(-2, 2)).stats.leaves_evaluated
5

Every value is from MAX's point of view.
"""

from __future__ import annotations

from typing import Any

from . import games
from .alphabeta import alphabeta
from .errors import (
    ExpectvizError,
    InputTypeError,
    InvalidTreeError,
    OptionError,
    SearchError,
    TraceBudgetError,
    TraceFormatError,
    TreeSyntaxError,
)
from .expectiminimax import expectiminimax
from .game import ChanceGame, Game, TreeGame
from .games.textbook import TEXTBOOK, textbook, textbook_trees
from .minimax import minimax
from .notation import parse, to_text
from .options import options
from .recorder import Stats
from .replay import Frame, NodeState
from .search import Result
from .star import star1, star2
from .trace import Event, Trace
from .tree import CHANCE, LEAF, MAX, MIN, Node, leaf, walk
from .tree_json import from_json, to_json

__all__ = [
    "parse",
    "to_text",
    "to_json",
    "from_json",
    "walk",
    "leaf",
    "Node",
    "MAX",
    "MIN",
    "CHANCE",
    "LEAF",
    "minimax",
    "alphabeta",
    "expectiminimax",
    "star1",
    "star2",
    "Game",
    "ChanceGame",
    "TreeGame",
    "games",
    "ALGORITHMS",
    "draw",
    "play",
    "compare",
    "export_html",
    "export_gif",
    "plots",
    "random_trees",
    "Result",
    "Stats",
    "Trace",
    "Event",
    "Frame",
    "NodeState",
    "textbook",
    "textbook_trees",
    "TEXTBOOK",
    "ExpectvizError",
    "TreeSyntaxError",
    "InvalidTreeError",
    "SearchError",
    "TraceFormatError",
    "TraceBudgetError",
    "OptionError",
    "InputTypeError",
    "options",
]

__version__ = "0.1.0"

_LAZY = {
    # name: (module, attribute); these need graphviz, ipywidgets or matplotlib, imported on first use.
    "draw": ("expectviz.render", "draw"),
    "play": ("expectviz.render", "play"),
    "play_game": ("expectviz.render.play_game", "play_game"),
    "compare": ("expectviz.render", "compare"),
    "export_html": ("expectviz.render", "export_html"),
    "export_gif": ("expectviz.render", "export_gif"),
    "plots": ("expectviz.render.plots", None),
    "random_trees": ("expectviz.games.random_trees", None),
}


def __getattr__(name: str) -> Any:
    """Import the drawing, player and plotting functions only when first used."""
    if name in _LAZY:
        import importlib

        module_name, attribute = _LAZY[name]
        module = importlib.import_module(module_name)
        return module if attribute is None else getattr(module, attribute)
    raise AttributeError(f"module 'expectviz' has no attribute {name!r}")


ALGORITHMS = {
    "minimax": minimax,
    "alphabeta": alphabeta,
    "expectiminimax": expectiminimax,
    "star1": star1,
    "star2": star2,
}
"""The search functions by name."""
