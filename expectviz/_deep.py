"""Run deeply recursive work (searching a 10,000-level chain) without RecursionError.

The algorithms are plain recursive functions, as in the textbook.  For trees
deeper than Python's default recursion limit allows, the recursion limit is
raised for the call.  Since Python 3.11 a call from Python code to Python code
takes no C stack, so that is all the algorithms need, in the caller's own
thread: Ctrl-C stops them as it stops any Python code, and the limit is put
back.  Work that recurses in C (``json`` on a deep tree), and everything on
Python 3.10, runs in a helper thread with a large stack; Ctrl-C then raises
the interrupt inside that thread too and waits for it to end.
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


def call_deep(fn: Callable[..., T], *args: Any, depth: int, python_only: bool = False, **kwargs: Any) -> T:
    """Call ``fn(*args, **kwargs)`` with room for ``depth`` levels of recursion.

    ``python_only=True`` says the recursion is Python code calling Python code
    (the algorithms), which on Python 3.11 and later needs no helper thread.
    """
    if depth < _SHALLOW:
        return fn(*args, **kwargs)
    if python_only and sys.version_info >= (3, 11):
        with _LOCK:
            old_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(old_limit, old_limit + _FRAMES_PER_LEVEL * depth + 100))
            try:
                return fn(*args, **kwargs)
            finally:
                sys.setrecursionlimit(old_limit)
    box: dict[str, Any] = {}
    finished = threading.Event()  # our own signal: Thread.join() misreports a thread it was interrupted waiting for

    def target() -> None:
        try:
            box["result"] = fn(*args, **kwargs)
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc
        finally:
            finished.set()

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
                finished.wait()
            except BaseException:  # Ctrl-C in the caller's thread: stop the worker before going on
                _interrupt(worker, finished)
                raise
            _join(worker)
        finally:
            threading.stack_size(old_size)
            sys.setrecursionlimit(old_limit)
    if "error" in box:
        raise box["error"]
    return box["result"]  # type: ignore[no-any-return]


def _interrupt(worker: threading.Thread, finished: threading.Event) -> None:
    """Raise KeyboardInterrupt inside ``worker`` and wait for it to end."""
    if worker.ident is not None and not finished.is_set():
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(worker.ident), ctypes.py_object(KeyboardInterrupt))
    while not finished.is_set():
        try:
            finished.wait()
        except KeyboardInterrupt:  # a second Ctrl-C while it stops: keep waiting, it is on its way out
            continue
    _join(worker)


def _join(worker: threading.Thread) -> None:
    """Wait for a worker that has finished its work to leave (a moment), whatever Ctrl-C does meanwhile."""
    while True:
        try:
            worker.join()
            return
        except KeyboardInterrupt:
            continue
