"""Run a script of scripts/ with the project's environment (.venv) when the Python that started it lacks what
the script needs (``python3 scripts/app.py`` from a shell without the venv activated)."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path

VENV = Path(__file__).resolve().parent.parent / ".venv"
VENV_PYTHON = VENV / "bin" / "python"


def ensure(script: str, modules: Sequence[str]) -> None:
    """Return if ``modules`` can be imported; else re-run this script under .venv's Python, or stop with a message
    naming what is missing."""
    if all(importlib.util.find_spec(name) is not None for name in modules):
        return
    # sys.prefix, not sys.executable: the venv's python is a symlink to the one that made it.
    if VENV_PYTHON.exists() and Path(sys.prefix).resolve() != VENV.resolve():
        os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), *sys.argv])
    raise SystemExit(f"{script}: needs {', '.join(modules)} (make venv)")
