#!/usr/bin/env python3
"""Re-run the notebooks as Restart & Run All does, then store them clean.

    python scripts/run_notebooks.py                       # every notebooks/*.ipynb: the lessons, the playground
    python scripts/run_notebooks.py notebooks/02-*.ipynb  # some of them

For each notebook, in place:

1. execute every cell top to bottom in a fresh ``python3`` kernel of this
   environment (nbclient; working directory ``notebooks/``; a timeout per cell),
   honouring the ``raises-exception`` cell tag;
2. join the chunks of each cell's printed text (as nbval does before comparing),
   and strip metadata as ``nbstripout --keep-output --keep-count`` does: outputs
   and execution counts stay, cell tags stay, widget state and execution timing
   go, cell ids become 0, 1, 2, ...;
3. check what nbval relies on: execution counts run 1..n over the non-empty
   code cells, and no cell shows an error (unless tagged ``raises-exception``)
   or a warning on stderr.

Any problem is printed and the exit status is 1; the notebook is written only
when it passes (so a failing run never replaces good stored outputs).  Run it
with the project's environment (``.venv/bin/python``); under another Python it
re-starts itself with ``.venv/bin/python`` when that exists.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"

# What `nbstripout` removes by default (its --extra-keys defaults), applied with --keep-output --keep-count.
STRIP_KEYS = [
    "metadata.signature",
    "metadata.widgets",
    "cell.metadata.collapsed",
    "cell.metadata.ExecuteTime",
    "cell.metadata.execution",
    "cell.metadata.heading_collapsed",
    "cell.metadata.hidden",
    "cell.metadata.scrolled",
]


def strip(nb: object) -> object:
    """Strip metadata like ``nbstripout --keep-output --keep-count`` (cell tags are kept)."""
    from nbstripout import strip_output

    return strip_output(nb, keep_output=True, keep_count=True, keep_id=False, extra_keys=STRIP_KEYS)


def coalesce_streams(nb: object) -> None:
    """Join consecutive stdout (or stderr) chunks into one output, as nbval does before comparing.

    How a cell's printing is split into chunks depends on timing; the stored notebook should not.
    """
    for cell in nb.cells:  # type: ignore[attr-defined]
        merged: list[Any] = []
        for output in cell.get("outputs", []):
            previous = merged[-1] if merged else None
            if (
                output.output_type == "stream"
                and previous is not None
                and previous.output_type == "stream"
                and previous.name == output.name
            ):
                previous.text += output.text
            else:
                merged.append(output)
        if "outputs" in cell:
            cell.outputs = merged


def problems(nb: object) -> list[str]:
    """What would make the stored notebook a poor nbval test."""
    found: list[str] = []
    expected = 1
    code_number = -1
    for cell in nb.cells:  # type: ignore[attr-defined]
        if cell.cell_type != "code":
            continue
        code_number += 1
        where = f"code cell {code_number} ({_first_line(cell.source)})"
        tags = cell.get("metadata", {}).get("tags", [])
        if not cell.source.strip():
            if cell.get("execution_count") is not None or cell.get("outputs"):
                found.append(f"{where}: empty, but has a count or outputs")
            continue
        if cell.get("execution_count") != expected:
            found.append(f"{where}: execution count {cell.get('execution_count')}, expected {expected}")
        expected += 1
        for output in cell.get("outputs", []):
            if output.output_type == "error" and "raises-exception" not in tags:
                found.append(f"{where}: {output.ename}: {output.evalue}")
            if output.output_type == "stream" and output.name == "stderr" and _looks_like_warning(output.text):
                found.append(f"{where}: a warning on stderr: {output.text.strip()[:200]}")
        if "raises-exception" in tags and not any(o.output_type == "error" for o in cell.get("outputs", [])):
            found.append(f"{where}: tagged raises-exception but raised nothing")
    return found


def _looks_like_warning(text: str) -> bool:
    return "Warning:" in text or "Traceback" in text or "/tmp/ipykernel_" in text


def _first_line(source: str) -> str:
    line = source.strip().splitlines()[0] if source.strip() else "empty"
    return line if len(line) <= 60 else line[:57] + "..."


def run(path: Path, *, timeout: int, kernel: str) -> list[str]:
    """Execute one notebook and store it stripped; returns its problems (nothing is written if any)."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name=kernel,
        resources={"metadata": {"path": str(path.parent)}},
        allow_errors=False,  # cells tagged raises-exception may still raise
        record_timing=False,
        store_widget_state=False,
    )
    try:
        client.execute()
    except CellTimeoutError as exc:
        return [f"a cell ran longer than {timeout} s: {str(exc).splitlines()[0]}"]
    except CellExecutionError as exc:
        return [f"a cell failed:\n{exc}"]
    coalesce_streams(nb)
    nb = strip(nb)
    found = problems(nb)
    if not found:
        nbformat.validate(nb)
        nbformat.write(nb, path)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: notebooks/*.ipynb")
    parser.add_argument("--timeout", type=int, default=120, help="seconds allowed per cell (default 120)")
    parser.add_argument("--kernel", default="python3", help="kernel name (default python3, this environment's)")
    parser.add_argument("--check", action="store_true", help="only check the stored notebooks; execute nothing")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted(NOTEBOOKS.glob("*.ipynb"))
    if not paths:
        print("run_notebooks: no notebooks found", file=sys.stderr)
        return 1
    failed = 0
    for path in paths:
        path = path.resolve()
        start = time.perf_counter()
        if args.check:
            import nbformat

            found = problems(nbformat.read(path, as_version=4))
        else:
            found = run(path, timeout=args.timeout, kernel=args.kernel)
        took = time.perf_counter() - start
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        if found:
            failed += 1
            print(f"FAIL {shown} ({took:.1f} s)", file=sys.stderr)
            for problem in found:
                print("  " + problem.replace("\n", "\n  "), file=sys.stderr)
        else:
            print(f"ok   {shown} ({took:.1f} s)")
    if failed:
        print(
            f"run_notebooks: {failed} of {len(paths)} notebook(s) failed; nothing was written for them", file=sys.stderr
        )
        return 1
    return 0


if __name__ == "__main__":
    from _venv import ensure

    ensure("run_notebooks", ["nbclient", "nbformat", "nbstripout"])
    sys.exit(main())
