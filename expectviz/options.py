"""Limits that keep a classroom kernel safe, changeable in one place: ``ev.options``.

>>> import expectviz as ev
>>> ev.options.max_events
5000000
>>> ev.options.max_events = 100
>>> ev.options.max_events = "many"
Traceback (most recent call last):
...
expectviz.errors.OptionError: ev.options.max_events must be a whole number >= 1, not 'many'
>>> ev.options.reset()
>>> ev.options.max_events, ev.options.max_export_steps
(5000000, 100000)

Each search also takes ``max_events=`` as a keyword, for one call.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .errors import OptionError

__all__ = ["Options", "options"]


@dataclass
class Options:
    """The limits, with their defaults."""

    max_events: int = 5_000_000
    """A traced search stops with :class:`~expectviz.errors.TraceBudgetError` before recording more events
    than this (about 20 bytes an event: the default is about 100 MB)."""
    max_input_bytes: int = 50_000_000
    """Tree text or JSON longer than this (in characters or bytes) is refused before it is read."""
    max_display_steps: int = 20_000
    """A Result with a longer trace displays its final diagram and a note instead of the step-by-step player."""
    max_export_steps: int = 100_000
    """``export_html`` refuses a longer trace (the page would hold every step), with a note on what to do."""
    max_gif_frames: int = 1_000
    """``export_gif`` refuses a longer trace (every frame is a picture)."""

    def __setattr__(self, name: str, value: object) -> None:
        if name not in {f.name for f in fields(self)}:
            allowed = ", ".join(f.name for f in fields(self))
            raise OptionError(f"ev.options has no option {name!r}; the options are {allowed}")
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise OptionError(f"ev.options.{name} must be a whole number >= 1, not {value!r}")
        object.__setattr__(self, name, value)

    def reset(self) -> None:
        """Put every option back to its default."""
        for f in fields(self):
            object.__setattr__(self, f.name, f.default)


options = Options()
"""The options in force (``ev.options``)."""
