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
    "UsageError",
    "ExerciseError",
    "UnknownTreeError",
    "RenderError",
    "StepRangeError",
    "GraphvizNotFoundError",
    "GraphvizError",
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


class UsageError(ExpectvizError, ValueError):
    """A command-line argument that cannot be used."""


class ExerciseError(ExpectvizError, LookupError):
    """A question that cannot be asked: no such node, or a search without a trace."""

    def __str__(self) -> str:
        return str(self.args[0])


class UnknownTreeError(ExpectvizError, KeyError):
    """No textbook tree has that name."""

    def __str__(self) -> str:
        return str(self.args[0])


class RenderError(ExpectvizError, ValueError):
    """A drawing option or output file that cannot be used."""


class StepRangeError(ExpectvizError, IndexError):
    """A step outside ``0 .. len(trace)``."""


class GraphvizNotFoundError(ExpectvizError, RuntimeError):
    """Graphviz's ``dot`` program is not on PATH (it lays diagrams out)."""


class GraphvizError(ExpectvizError, RuntimeError):
    """Graphviz failed on a graph expectviz wrote."""


class InputTypeError(ExpectvizError, TypeError):
    """An argument of the wrong type (``parse(None)``): the message names the type expected."""


class OptionError(ExpectvizError, ValueError):
    """An option (``ev.options`` or a keyword) with a value it cannot take."""


def format_path(path: tuple[int, ...]) -> str:
    """Describe a node's path for messages: ``root`` or ``path (1, 0)`` (a long path is shortened)."""
    if not path:
        return "root"
    if len(path) > 12:
        shown = ", ".join(str(i) for i in path[:6]) + ", ..., " + ", ".join(str(i) for i in path[-3:])
        return f"path ({shown}), {len(path):,} levels down"
    return "path (" + ", ".join(str(i) for i in path) + (",)" if len(path) == 1 else ")")
