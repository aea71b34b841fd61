"""Textbook trees and real games, by name.

>>> import expectviz as ev
>>> sorted(ev.games.GAMES)
['coinflip-tictactoe', 'tictactoe']
>>> ev.games.tictactoe("X.O/.X./..O")
tictactoe('X.O/.X./..O')
"""

from __future__ import annotations

from .textbook import TEXTBOOK, TextbookTree, textbook, textbook_trees
from .tictactoe import GAMES, CoinFlipTicTacToe, TicTacToe, center_first, coinflip_tictactoe, tictactoe

__all__ = [
    "TEXTBOOK",
    "TextbookTree",
    "textbook",
    "textbook_trees",
    "GAMES",
    "TicTacToe",
    "CoinFlipTicTacToe",
    "tictactoe",
    "coinflip_tictactoe",
    "center_first",
]
