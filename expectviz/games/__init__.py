"""Textbook trees and real games, by name.

>>> import expectviz as ev
>>> sorted(ev.games.GAMES)
['2048', 'coinflip-tictactoe', 'dice', 'dice-5x5', 'pig', 'tictactoe']
>>> ev.games.tictactoe("X.O/.X./..O")
tictactoe('X.O/.X./..O')
>>> ev.games.move_ordering(ev.games.dice()) is ev.games.dice_order
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import dice as _dice
from . import game2048 as _game2048
from . import pig as _pig
from . import tictactoe as _tictactoe
from .dice import Dice, dice, dice_5x5, dice_order
from .game2048 import Game2048, game2048, game2048_order
from .pig import Pig, pig, pig_order
from .textbook import TEXTBOOK, TextbookTree, textbook, textbook_trees
from .tictactoe import CoinFlipTicTacToe, TicTacToe, center_first, coinflip_tictactoe, tictactoe

__all__ = [
    "TEXTBOOK",
    "TextbookTree",
    "textbook",
    "textbook_trees",
    "GAMES",
    "ORDERINGS",
    "move_ordering",
    "TicTacToe",
    "CoinFlipTicTacToe",
    "tictactoe",
    "coinflip_tictactoe",
    "center_first",
    "Dice",
    "dice",
    "dice_5x5",
    "dice_order",
    "Pig",
    "pig",
    "pig_order",
    "Game2048",
    "game2048",
    "game2048_order",
]

GAMES: dict[str, Callable[[], Any]] = {**_tictactoe.GAMES, **_dice.GAMES, **_pig.GAMES, **_game2048.GAMES}
"""Every built-in game by name, each a function that builds it (with its default options) from no arguments."""

ORDERINGS: dict[str, Callable[[Any, Any], Any]] = {
    "tictactoe": center_first,
    "coinflip-tictactoe": center_first,
    "dice": dice_order,
    "dice-5x5": dice_order,
    "pig": pig_order,
    "2048": game2048_order,
}
"""Each built-in game's move-ordering key (``order=``), by the game's name: good moves first."""


def move_ordering(game: Any) -> Callable[[Any, Any], Any] | None:
    """The move-ordering key of a built-in game (by its ``name``), or None for other games."""
    return ORDERINGS.get(getattr(game, "name", None) or "")
