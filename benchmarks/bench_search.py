"""Search speed and trace memory on a uniform random tree of about 10^6 nodes.

Reports nodes per second for minimax and alphabeta with tracing off and on,
and the bytes a recorded event costs (tracemalloc).  Each figure is the best
of several runs made in this one process, so ratios are comparable; the
machines are shared and noisy.  Targets (README): untraced minimax >= 3,000,000
nodes/s, traced >= 1,000,000 nodes/s, <= 40 bytes per event.

Run: ``make bench`` or ``.venv/bin/python benchmarks/bench_search.py``.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
import tracemalloc

import expectviz as ev
from expectviz.tree import LEAF, MAX, MIN, Node, check


def uniform_tree(branching: int, depth: int, seed: int = 2026) -> Node:
    """A MAX/MIN tree with every inner node of ``branching`` children and random integer leaves."""
    rng = random.Random(seed)

    def build(level: int) -> Node:
        if level == depth:
            return Node(LEAF, value=rng.randint(-100, 100))
        kind = MAX if level % 2 == 0 else MIN
        return Node(kind, children=tuple(build(level + 1) for _ in range(branching)))

    return check(build(0))


def best_rate(search, tree: Node, trace: bool, repeats: int) -> tuple[float, int]:
    best = 0.0
    nodes = 0
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        result = search(tree, trace=trace)
        elapsed = time.perf_counter() - start
        nodes = result.stats.nodes_visited
        best = max(best, nodes / elapsed)
        del result
    return best, nodes


def bytes_per_event(tree: Node) -> tuple[float, int]:
    gc.collect()
    tracemalloc.start()
    result = ev.minimax(tree, trace=True)
    current, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    events = len(result.trace) if result.trace else 1
    # What stays allocated with the result: the trace's columns (and the small result objects).
    return current / events, events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--branching", type=int, default=10)
    parser.add_argument("--depth", type=int, default=6, help="10 and 6 give 1,111,111 nodes")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    tree = uniform_tree(args.branching, args.depth)
    print(f"uniform tree: branching {args.branching}, depth {args.depth}, best of {args.repeats} runs")
    print(f"{'algorithm':<12} {'trace':<6} {'nodes':>10} {'nodes/s':>12}")
    for search in (ev.minimax, ev.alphabeta):
        for trace in (False, True):
            rate, nodes = best_rate(search, tree, trace, args.repeats)
            print(f"{search.__name__:<12} {str(trace):<6} {nodes:>10,} {rate:>12,.0f}")
    per_event, events = bytes_per_event(tree)
    print(f"trace memory: {per_event:.1f} bytes per event over {events:,} events (tracemalloc, minimax)")


if __name__ == "__main__":
    main()
