"""The harness for the hostile-input corpus: each case runs in a forked child under a memory and time cap.

A case is a call that a user (or a saved file) could make with bad input, the exception it must raise
(``None``: it must succeed) and words its message must contain.  The child process gets an address-space limit
(``RLIMIT_AS``) and an alarm, so a case that would hang, exhaust memory or crash the interpreter fails its test
with a clear reason instead of taking the test run down with it.

    from hostile import Case, run_case
    CASES = [Case("deep-brackets", lambda: ev.parse("(" * 10**7), ev.TreeSyntaxError, ("line 1",))]

    @pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
    def test_hostile(case): run_case(case)
"""

from __future__ import annotations

import os
import pickle
import resource
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass

import pytest

__all__ = ["Case", "run_case"]


@dataclass(frozen=True)
class Case:
    """One hostile input and what it must do."""

    id: str
    call: Callable[[], object]
    """Runs in a forked child; its return value is ignored."""
    error: type[BaseException] | None
    """The exception type it must raise (a subclass counts), or None when it must succeed."""
    words: tuple[str, ...] = ()
    """Words the message must contain (case-insensitive)."""
    seconds: float = 20.0
    """Time cap for the child."""
    memory_mb: int = 2048
    """Address-space cap for the child (RLIMIT_AS)."""


def _child(case: Case, write_end: int) -> None:
    """In the forked child: cap memory and time, run the case, send back (outcome, type name, message)."""
    limit = case.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGALRM, signal.SIG_DFL)  # the alarm kills the child: no Python handler runs
    signal.setitimer(signal.ITIMER_REAL, case.seconds)
    try:
        case.call()
        report: tuple[str, str, str, list[str]] = ("ok", "", "", [])
    except BaseException as exc:  # noqa: BLE001 - the parent judges what was raised
        names = [klass.__module__ + "." + klass.__qualname__ for klass in type(exc).__mro__]
        report = ("raised", type(exc).__name__, str(exc)[:2000], names)
    data = pickle.dumps(report)
    os.write(write_end, data)
    os.close(write_end)
    os._exit(0)


def run_case(case: Case) -> None:
    """Run ``case`` in a forked child and assert on what it did."""
    if not hasattr(os, "fork"):  # pragma: no cover - the suite runs on Linux
        pytest.skip("needs os.fork")
    sys.stdout.flush()
    sys.stderr.flush()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        os.close(read_end)
        try:
            _child(case, write_end)
        finally:
            os._exit(3)
    os.close(write_end)
    chunks = []
    while True:
        chunk = os.read(read_end, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_end)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        sig = signal.Signals(os.WTERMSIG(status)).name
        reason = f"time cap of {case.seconds} s" if sig == "SIGALRM" else f"signal {sig}"
        pytest.fail(f"{case.id}: the child died ({reason}) instead of returning or raising a clear error")
    if not chunks:
        pytest.fail(f"{case.id}: the child exited with status {os.WEXITSTATUS(status)} and reported nothing")
    outcome, type_name, message, mro = pickle.loads(b"".join(chunks))
    if case.error is None:
        assert outcome == "ok", f"{case.id}: expected success, got {type_name}: {message}"
        return
    assert outcome == "raised", f"{case.id}: expected {case.error.__name__}, but the call returned"
    wanted = case.error.__module__ + "." + case.error.__qualname__
    assert wanted in mro, f"{case.id}: expected {case.error.__name__}, got {type_name}: {message}"
    lowered = message.lower()
    missing = [w for w in case.words if w.lower() not in lowered]
    assert not missing, f"{case.id}: the message lacks {missing}: {message}"
