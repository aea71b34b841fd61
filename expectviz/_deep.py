"""Run deeply recursive work (searching a 10,000-level chain) without RecursionError.

The algorithms are plain recursive functions, as in the textbook.  For trees
deeper than Python's default recursion limit allows, the work runs in a helper
thread with a large stack and a raised recursion limit.  Ctrl-C while it runs
stops the helper thread too (the interrupt is raised inside it), so the
process is left as it was: no thread still searching, the limits restored.
"""

from __future__ import annotations

import ctypes
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_SHALLOW = 300  # depth below which the ordinary stack is plenty
_FRAMES_PER_LEVEL = 4
_LOCK = threading.Lock()


def call_deep(fn: Callable[..., T], *args: Any, depth: int, **kwargs: Any) -> T:
    """Call ``fn(*args, **kwargs)`` with room for ``depth`` levels of recursion."""
    if depth < _SHALLOW:
        return fn(*args, **kwargs)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = fn(*args, **kwargs)
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    with _LOCK:
        old_limit = sys.getrecursionlimit()
        old_size = threading.stack_size()
        needed = old_limit + _FRAMES_PER_LEVEL * depth + 100
        try:
            sys.setrecursionlimit(max(old_limit, needed))
            threading.stack_size(min(1 << 30, max(64 << 20, 2048 * _FRAMES_PER_LEVEL * depth)))
            worker = threading.Thread(target=target, name="expectviz-deep", daemon=True)
            worker.start()
            try:
                worker.join()
            except BaseException:  # Ctrl-C in the caller's thread: stop the worker before going on
                _interrupt(worker)
                raise
        finally:
            threading.stack_size(old_size)
            sys.setrecursionlimit(old_limit)
    if "error" in box:
        raise box["error"]
    return box["result"]  # type: ignore[no-any-return]


def _interrupt(worker: threading.Thread) -> None:
    """Raise KeyboardInterrupt inside ``worker`` and wait for it to end."""
    ident = worker.ident
    if ident is not None and worker.is_alive():
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(KeyboardInterrupt))
    while worker.is_alive():
        try:
            worker.join()
        except KeyboardInterrupt:  # a second Ctrl-C while it stops: keep waiting, it is on its way out
            continue
