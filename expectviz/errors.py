"""The errors expectviz raises.

Every error is an :class:`ExpectvizError`; each one also inherits the built-in
exception that fits it (``ValueError`` for bad input), so ``except ValueError``
works too.  Messages name what is wrong and where: a line and column for tree
text, a node's path from the root for a tree, and what is allowed instead.
"""

from __future__ import annotations

__all__ = [
    "ExpectvizError",
    "TreeSyntaxError",
    "InvalidTreeError",
    "SearchError",
    "TraceFormatError",
    "TraceBudgetError",
    "OptionError",
    "InputTypeError",
]


class ExpectvizError(Exception):
    """Base class of every error raised by expectviz."""


class TreeSyntaxError(ExpectvizError, ValueError):
    """Tree text that does not follow the notation.

    Attributes:
        line: 1-based line of the offending character.
        column: 1-based column of the offending character.
        reason: what is wrong, without the position.
    """

    def __init__(self, reason: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {reason}")
        self.reason = reason
        self.line = line
        self.column = column


class InvalidTreeError(ExpectvizError, ValueError):
    """A tree that parses but breaks a rule (probabilities, values, labels).

    Attributes:
        path: the offending node's path from the root (a tuple of child indices).
    """

    def __init__(self, reason: str, path: tuple[int, ...] = ()) -> None:
        super().__init__(f"node at {format_path(path)}: {reason}")
        self.reason = reason
        self.path = path


class SearchError(ExpectvizError, ValueError):
    """A search that cannot run on this tree with these options."""


class TraceFormatError(ExpectvizError, ValueError):
    """A saved trace (JSON) that is malformed or from an unknown schema."""


class TraceBudgetError(SearchError):
    """A traced search that would record more events than the budget allows (``ev.options.max_events``).

    Attributes:
        events: how many events were recorded before the search stopped.
        nbytes: the memory those events took.
        limit: the budget in force.
    """

    def __init__(self, reason: str, *, events: int, nbytes: int, limit: int) -> None:
        super().__init__(reason)
        self.events = events
        self.nbytes = nbytes
        self.limit = limit


class InputTypeError(ExpectvizError, TypeError):
    """An argument of the wrong type (``parse(None)``): the message names the type expected."""


class OptionError(ExpectvizError, ValueError):
    """An option (``ev.options`` or a keyword) with a value it cannot take."""


def format_path(path: tuple[int, ...]) -> str:
    """Describe a node's path for messages: ``root`` or ``path (1, 0)``."""
    if not path:
        return "root"
    return "path (" + ", ".join(str(i) for i in path) + (",)" if len(path) == 1 else ")")
