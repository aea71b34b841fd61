"""The lesson suite's cost: nbval wall time, and each notebook kernel's peak memory.

    python benchmarks/bench_notebooks.py

Targets (README): the whole suite under nbval in at most 3 minutes on a 2-core machine; no
notebook's kernel above 500 MB (a classroom JupyterHub allowance).  Peak memory is the kernel's
own maximum resident set size (``ru_maxrss``), read by one extra cell run after all of a copy's
cells; the stored notebooks are not touched.
"""

from __future__ import annotations

import copy
import subprocess
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
PROBE = "import resource\nprint(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"


def peak_kernel_mb(path: Path) -> tuple[float, float]:
    notebook = copy.deepcopy(nbformat.read(path, as_version=4))
    notebook.cells.append(nbformat.v4.new_code_cell(PROBE))
    client = NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    start = time.perf_counter()
    client.execute()
    elapsed = time.perf_counter() - start
    text = "".join(output.get("text", "") for output in notebook.cells[-1].outputs)
    return int(text.strip()) / 1024, elapsed  # ru_maxrss is in KiB on Linux


def main() -> None:
    print(f"{'notebook':<40} {'run (s)':>8} {'peak kernel MB':>15}")
    for path in NOTEBOOKS:
        megabytes, seconds = peak_kernel_mb(path)
        print(f"{path.name:<40} {seconds:>8.1f} {megabytes:>15.0f}")
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--nbval",
        "--nbval-current-env",
        "--nbval-sanitize-with",
        "notebooks/sanitize.cfg",
        *[str(p.relative_to(ROOT)) for p in NOTEBOOKS],
    ]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()[-200:]
    print(f"whole suite under nbval: {elapsed:.1f} s ({summary})")


if __name__ == "__main__":
    main()
