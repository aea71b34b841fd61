"""Size of the exported, self-contained player pages (and a GIF) for the README.

    python benchmarks/bench_export.py

Target (the issue): a 100-step trace of a 40-node tree exports to at most 300 KB of HTML.
"""

from __future__ import annotations

import os
import tempfile

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
    ]
    print(f"{'trace':<30} {'nodes':>6} {'steps':>6} {'HTML bytes':>11} {'bytes/step':>11}")
    with tempfile.TemporaryDirectory() as folder:
        for name, result in cases:
            assert result.trace is not None
            path = os.path.join(folder, "page.html")
            ev.export_html(result, path)
            size = os.path.getsize(path)
            nodes = sum(1 for _ in ev.walk(result.tree))
            steps = len(result.trace)
            print(f"{name:<30} {nodes:>6} {steps:>6} {size:>11,} {size / steps:>11,.0f}")
        gif = os.path.join(folder, "fig52.gif")
        ev.export_gif(ev.alphabeta("aima-fig-5.2"), gif)
        print(f"GIF of AIMA Fig. 5.2 alphabeta (24 frames): {os.path.getsize(gif):,} bytes")


if __name__ == "__main__":
    main()
