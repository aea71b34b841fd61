"""The core at scale: search speed against a bare recursive minimax, trace memory, replay and a 10,000-level chain.

Prints, in one run:

1. the speed of ``ev.minimax`` with tracing off and on, as a ratio to a bare recursive minimax over the same
   tree in the same process: AIMA 4th ed. Fig. 6.3 as the book writes it, over the game interface
   (IS-TERMINAL, ACTIONS, RESULT, UTILITY of the same :class:`~expectviz.game.TreeGame` the searches read),
   returning the value and the move, with no tracing and no depth limit; for reference also against a
   recursion that walks the nodes directly (no game interface); each time is the best of several runs;
2. bytes per event held after recording, and after replaying frames (the trace's index and ranges built);
3. on a trace of about 1,000,000 events: the first ``frame(k)`` for several k (each on a fresh trace, so it pays
   for building the index and the ranges) and then each step k -> k+1 and k -> k-1, with the sentence, the states
   of the root and the current node, and (the player's work) a repaint of the 150-node diagram;
4. on a 10,000-level chain: ``str(trace)``, ``lines()``, ``frame``, ``to_json``, ``from_json``, ``draw`` and
   ``export_html``.

Targets (README): traced >= 0.3x and untraced >= 0.6x the bare minimax over the same game; <= 40 bytes an event
recorded and <= 60 after replay; first frame <= 2 s and each step <= 5 ms at 1,000,000 events; each chain
operation <= 2 s.
These machines are shared and noisy: compare ratios from one run, not times from different runs.

Run: ``make bench`` or ``.venv/bin/python benchmarks/bench_trace.py``.
"""

from __future__ import annotations

import argparse
import gc
import math
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from bench_search import uniform_tree  # the same trees as the search benchmark

import expectviz as ev
from expectviz.game import TreeGame
from expectviz.tree import LEAF, MAX, Node


def game_minimax(game: TreeGame, state: Any) -> tuple[Any, Any]:
    """AIMA 4th ed. Fig. 6.3 over the game interface: the value and the best move, nothing else."""
    if game.is_terminal(state):
        return game.utility(state), None
    move = None
    if game.to_move(state) == MAX:
        v = -math.inf
        for a in game.actions(state):
            v2, _ = game_minimax(game, game.result(state, a))
            if v2 > v:
                v, move = v2, a
    else:
        v = math.inf
        for a in game.actions(state):
            v2, _ = game_minimax(game, game.result(state, a))
            if v2 < v:
                v, move = v2, a
    return v, move


def bare_minimax(node: Node) -> tuple[Any, int | None]:
    """The same recursion walking the nodes directly, without the game interface (for reference)."""
    if node.kind == LEAF:
        return node.value, None
    move = None
    if node.kind == MAX:
        v = -math.inf
        for a, child in enumerate(node.children):
            v2, _ = bare_minimax(child)
            if v2 > v:
                v, move = v2, a
    else:
        v = math.inf
        for a, child in enumerate(node.children):
            v2, _ = bare_minimax(child)
            if v2 < v:
                v, move = v2, a
    return v, move


def best_time(work: Callable[[], Any], repeats: int) -> float:
    best = math.inf
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def seconds(work: Callable[[], Any]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def speed(tree: Node, repeats: int) -> None:
    nodes = ev.minimax(tree, trace=False).stats.nodes_visited
    game = TreeGame(tree)
    bare = best_time(lambda: game_minimax(game, tree), repeats)
    direct = best_time(lambda: bare_minimax(tree), repeats)
    untraced = best_time(lambda: ev.minimax(tree, trace=False), repeats)
    traced = best_time(lambda: ev.minimax(tree), repeats)
    print(f"speed over {nodes:,} nodes (best of {repeats}):")
    print(f"  bare minimax (Fig. 6.3 over the game)  {bare:7.3f} s   1.00x")
    print(f"  ev.minimax, trace=False                {untraced:7.3f} s   {bare / untraced:.2f}x   (target >= 0.6x)")
    print(f"  ev.minimax, trace=True                 {traced:7.3f} s   {bare / traced:.2f}x   (target >= 0.3x)")
    print(
        f"  for reference, a recursion over the nodes themselves: {direct:.3f} s "
        f"(ev.minimax untraced {direct / untraced:.2f}x, traced {direct / traced:.2f}x of it)"
    )


def ask(trace: ev.Trace, k: int) -> None:
    """What the player asks of a step: the frame, its sentence, the root's and the current node's states."""
    frame = trace.frame(k)
    assert frame.explanation
    frame.node(())
    if frame.current is not None:
        frame.node(frame.current)


def memory(tree: Node) -> None:
    gc.collect()
    tracemalloc.start()
    result = ev.minimax(tree)
    recorded, _ = tracemalloc.get_traced_memory()
    trace = result.trace
    assert trace is not None
    for k in (0, len(trace) // 3, len(trace) // 2, len(trace)):
        ask(trace, k)
    replayed, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    events = len(trace)
    print(f"memory held by the Result over {events:,} events (tracemalloc):")
    print(f"  after recording          {recorded / events:5.1f} bytes an event   (target <= 40)")
    print(f"  after replaying frames   {replayed / events:5.1f} bytes an event   (target <= 60)")


def replay(tree: Node, steps: int) -> None:
    from expectviz.render.scene import DEFAULT_MAX_NODES, Scene

    events = len(ev.minimax(tree).trace or ())
    print(f"replay of a {events:,}-event trace (minimax):")
    firsts = []
    for fraction in (0.1, 0.5, 0.9, 1.0):
        fresh = ev.minimax(tree).trace  # nothing built yet: the first frame pays for the index and the ranges
        assert fresh is not None
        k = int(fraction * len(fresh))
        start = time.perf_counter()
        ask(fresh, k)
        firsts.append(time.perf_counter() - start)
        print(f"  first frame({k:,})      {firsts[-1]:6.2f} s")
    print(f"  slowest first frame      {max(firsts):6.2f} s   (target <= 2 s)")
    trace = ev.minimax(tree).trace
    assert trace is not None
    scene = Scene(tree, trace, DEFAULT_MAX_NODES)
    middle = len(trace) // 2
    ask(trace, middle)  # built: what follows is a step's own cost
    forwards, backwards, painted = [], [], []
    for k in range(middle + 1, middle + 1 + steps):
        start = time.perf_counter()
        ask(trace, k)
        forwards.append(time.perf_counter() - start)
    for k in range(middle - 1, middle - 1 - steps, -1):
        start = time.perf_counter()
        ask(trace, k)
        backwards.append(time.perf_counter() - start)
    for k in range(middle, middle + steps):
        start = time.perf_counter()
        scene.paint(trace.frame(k))
        painted.append(time.perf_counter() - start)
    print(f"  step k -> k+1 (median)   {statistics.median(forwards) * 1000:6.2f} ms   (target <= 5 ms)")
    print(f"  step k -> k-1 (median)   {statistics.median(backwards) * 1000:6.2f} ms   (target <= 5 ms)")
    print(f"  diagram repaint (median) {statistics.median(painted) * 1000:6.2f} ms   ({len(scene.items)} items drawn)")


def chain(depth: int) -> None:
    text = "".join(f"{'max' if i % 2 == 0 else 'min'}(" for i in range(depth)) + "1" + ")" * depth
    tree = ev.parse(text)
    result = ev.alphabeta(tree)
    trace = result.trace
    assert trace is not None
    saved = trace.to_json()
    timings = {
        "str(trace)": lambda: str(trace),
        "list(trace.lines())": lambda: list(trace.lines()),
        "frame(-1) + sentence": lambda: (trace.frame(-1).explanation, trace.frame(-1).node(())),
        f"frame({depth + 1}) + deepest node": lambda: trace.frame(depth + 1).node((0,) * depth),
        "to_json": trace.to_json,
        "Trace.from_json": lambda: ev.Trace.from_json(saved),
        "draw (final frame)": lambda: ev.draw(result).svg,
        "export_html": lambda: ev.export_html(result),
    }
    print(f"a {depth:,}-level chain (alphabeta, {len(trace):,} events; target <= 2 s each):")
    for name, work in timings.items():
        print(f"  {name:<32} {seconds(work):6.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--branching", type=int, default=5)
    parser.add_argument("--depth", type=int, default=8, help="5 and 8 give 488,281 nodes and 976,562 events")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--chain", type=int, default=10_000)
    args = parser.parse_args()
    tree = uniform_tree(args.branching, args.depth)
    speed(tree, args.repeats)
    memory(tree)
    replay(tree, args.steps)
    chain(args.chain)


if __name__ == "__main__":
    main()
