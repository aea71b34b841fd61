"""What each algorithm is, in one table: the facts the trace, the drawings and the command line ask about.

>>> from expectviz.registry import ALGORITHM_INFO, info
>>> info("star2").probes, info("minimax").windowed
(True, False)
>>> [name for name, a in ALGORITHM_INFO.items() if a.chance]
['expectiminimax', 'star1', 'star2']
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import SearchError

__all__ = ["AlgorithmInfo", "ALGORITHM_INFO", "info"]


@dataclass(frozen=True, slots=True)
class AlgorithmInfo:
    """The facts of one algorithm."""

    name: str
    windowed: bool
    """Every visit carries the (alpha, beta) window it is searched with."""
    chance: bool
    """Chance nodes are allowed."""
    needs_bounds: bool
    """Needs ``bounds=(L, U)``, the least and greatest leaf value (Star1, Star2)."""
    probes: bool
    """Probes the first move below each outcome before a full search (Star2)."""
    options: tuple[str, ...] = ()
    """The keyword options a saved trace may record."""

    @property
    def star(self) -> bool:
        """Windows reach through chance nodes: the *-minimax family."""
        return self.chance and self.windowed


ALGORITHM_INFO: dict[str, AlgorithmInfo] = {
    "minimax": AlgorithmInfo("minimax", windowed=False, chance=False, needs_bounds=False, probes=False),
    "alphabeta": AlgorithmInfo(
        "alphabeta", windowed=True, chance=False, needs_bounds=False, probes=False, options=("prune_ties",)
    ),
    "expectiminimax": AlgorithmInfo("expectiminimax", windowed=False, chance=True, needs_bounds=False, probes=False),
    "star1": AlgorithmInfo(
        "star1", windowed=True, chance=True, needs_bounds=True, probes=False, options=("prune_ties",)
    ),
    "star2": AlgorithmInfo(
        "star2", windowed=True, chance=True, needs_bounds=True, probes=True, options=("prune_ties",)
    ),
}
"""Every algorithm, by name, in teaching order."""


def info(name: str) -> AlgorithmInfo:
    """The facts of the algorithm called ``name``.

    Raises:
        SearchError: no algorithm has that name (the names are listed).
    """
    found = ALGORITHM_INFO.get(name) if isinstance(name, str) else None
    if found is None:
        raise SearchError(f"unknown algorithm {name!r}; the algorithms are {', '.join(ALGORITHM_INFO)}")
    return found
