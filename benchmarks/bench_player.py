"""Kernel-side latency of one player step: frame replay plus the SVG string, no browser.

    python benchmarks/bench_player.py

Targets (the issue): median <= 15 ms a step on AIMA Fig. 5.2, <= 60 ms on a 1,000-node tree.
Every step is timed the way the player does it (setting ``player.step``), forwards through the
whole trace and then at random steps (a dragged slider), after one warm-up pass (the layout).
"""

from __future__ import annotations

import random
import statistics
import time

import expectviz as ev
from expectviz.games.random_trees import uniform_tree
from expectviz.render.player import play


def _time_steps(result: ev.Result, *, max_nodes: int | None, seed: int = 0) -> tuple[float, float, int]:
    assert result.trace is not None
    n = len(result.trace)
    player = play(result, max_nodes=max_nodes)
    player.step = n  # warm-up: layout and replay caches
    player.step = 0
    forward = []
    for k in range(1, n + 1):
        start = time.perf_counter()
        player.step = k
        forward.append(time.perf_counter() - start)
    rng = random.Random(seed)
    jumps = []
    for k in (rng.randrange(n + 1) for _ in range(min(200, n))):
        start = time.perf_counter()
        player.step = k
        jumps.append(time.perf_counter() - start)
    return statistics.median(forward) * 1000, statistics.median(jumps) * 1000, n


def main() -> None:
    fig = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    big_tree = uniform_tree(10, 3, seed=1)  # 1 + 10 + 100 + 1000 = 1,111 nodes
    big = ev.alphabeta(big_tree)
    big_minimax = ev.minimax(big_tree)
    cases = [
        ("AIMA Fig. 5.2, alphabeta (13 nodes)", fig, 150, 15.0),
        ("1,111-node tree, alphabeta, every node drawn", big, None, 60.0),
        ("1,111-node tree, minimax, every node drawn", big_minimax, None, 60.0),
        ("1,111-node tree, minimax, default max_nodes=150", big_minimax, 150, 60.0),
    ]
    print(f"{'case':52} {'steps':>6} {'forward ms':>11} {'random ms':>10} {'target':>7}")
    for name, result, max_nodes, target in cases:
        forward, jumps, n = _time_steps(result, max_nodes=max_nodes)
        verdict = "ok" if max(forward, jumps) <= target else "SLOW"
        print(f"{name:52} {n:6d} {forward:11.2f} {jumps:10.2f} {target:6.0f}  {verdict}")


if __name__ == "__main__":
    main()
