"""Size and time of the exported, self-contained player pages (and a GIF) for the README.

    python benchmarks/bench_export.py

Targets (README): a 100-step trace of a 40-node tree exports to at most 300 KB of HTML; a 1,111-node tree
exports within 10 s.
"""

from __future__ import annotations

import os
import tempfile
import time

import expectviz as ev
from expectviz.games.random_trees import chance_tree, uniform_tree


def main() -> None:
    cases = [
        ("AIMA Fig. 5.2, alphabeta", ev.alphabeta("aima-fig-5.2")),
        ("coin flip, expectiminimax", ev.expectiminimax("coin-flip")),
        (
            "40-node chance tree, star2",
            ev.star2(chance_tree(3, 3, 3, seed=0, pattern=("max", "chance", "min")), bounds=(-10, 10)),
        ),
        ("40-node tree, minimax", ev.minimax(uniform_tree(3, 3, seed=1))),
        ("364-node tree, alphabeta", ev.alphabeta(uniform_tree(3, 5, seed=1))),
        ("1,111-node tree, minimax", ev.minimax(uniform_tree(10, 3, seed=7))),
    ]
    print(f"{'trace':<30} {'nodes':>6} {'steps':>6} {'HTML bytes':>11} {'bytes/step':>11} {'seconds':>8}")
    with tempfile.TemporaryDirectory() as folder:
        for name, result in cases:
            assert result.trace is not None
            path = os.path.join(folder, "page.html")
            start = time.perf_counter()
            ev.export_html(result, path)
            seconds = time.perf_counter() - start
            size = os.path.getsize(path)
            nodes = sum(1 for _ in ev.walk(result.tree))
            steps = len(result.trace)
            print(f"{name:<30} {nodes:>6} {steps:>6} {size:>11,} {size / steps:>11,.0f} {seconds:>8.2f}")
        gif = os.path.join(folder, "fig52.gif")
        start = time.perf_counter()
        ev.export_gif(ev.alphabeta("aima-fig-5.2"), gif)
        seconds = time.perf_counter() - start
        print(f"GIF of AIMA Fig. 5.2 alphabeta (24 frames): {os.path.getsize(gif):,} bytes in {seconds:.2f} s")


if __name__ == "__main__":
    main()
