"""Progress for long work (exporting thousands of steps): a bar in a notebook, a line on a terminal.

Short work shows nothing.  In a Jupyter kernel the bar is an ipywidgets
``IntProgress`` with a label; on a terminal it is one line on stderr redrawn in
place; anywhere else (a pipe, a log file, a test) nothing is shown at all.

>>> with Progress(10, "steps drawn", shown=False) as progress:
...     for k in range(10):
...         progress.update(k + 1)
>>> progress.done
10
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import Any

__all__ = ["Progress", "SHOW_FROM"]

SHOW_FROM = 2_000
"""Work of fewer units than this shows no progress."""

_EVERY = 0.1  # seconds between redraws


class Progress:
    """Report ``done`` of ``total`` units of work (a context manager: the bar closes at the end).

    Args:
        total: how many units the work has.
        what: what a unit is, for the label ("steps drawn").
        shown: force showing (True) or hiding (False); None decides from ``total``
            and from where the output goes.
    """

    def __init__(self, total: int, what: str, *, shown: bool | None = None) -> None:
        self.total = max(0, total)
        self.what = what
        self.done = 0
        self._last = 0.0
        self._bar: Any = None
        self._terminal = False
        if shown is None:
            shown = self.total >= SHOW_FROM
        if shown:
            self._open()

    def _open(self) -> None:
        if _in_a_kernel():
            try:
                import ipywidgets as widgets
                from IPython.display import display
            except ImportError:  # pragma: no cover - ipywidgets comes with the viz extra
                return
            self._bar = widgets.IntProgress(min=0, max=max(1, self.total), description="")
            self._label = widgets.Label(f"0 of {self.total:,} {self.what}")
            display(widgets.HBox([self._bar, self._label]))  # type: ignore[no-untyped-call]
        elif sys.stderr is not None and sys.stderr.isatty():
            self._terminal = True
            self._draw()

    def update(self, done: int) -> None:
        """``done`` units are finished (redrawn at most ten times a second)."""
        self.done = done
        now = time.monotonic()
        if now - self._last < _EVERY and done < self.total:
            return
        self._last = now
        self._draw()

    def _draw(self) -> None:
        if self._bar is not None:
            self._bar.value = self.done
            self._label.value = f"{self.done:,} of {self.total:,} {self.what}"
        elif self._terminal:
            width = 30
            filled = width * self.done // max(1, self.total)
            bar = "#" * filled + "-" * (width - filled)
            sys.stderr.write(f"\r[{bar}] {self.done:,} of {self.total:,} {self.what}")
            sys.stderr.flush()

    def close(self) -> None:
        """End the report: the bar shows the final count; the terminal line ends."""
        self._draw()
        if self._terminal:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self._terminal = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


def _in_a_kernel() -> bool:
    """True inside a Jupyter kernel (where a widget can be displayed)."""
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover
        return False
    ip = get_ipython()
    return ip is not None and hasattr(ip, "kernel")
