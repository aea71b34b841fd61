"""Pruning at chance nodes on real dice games: leaves and nodes by depth, against the literature's figures.

For each game (Pig, Dice 3x3 and Dice 5x5 by default) and each depth 1, 2, ... this runs the five searches of
``ev.plots.GAME_VARIANTS`` with tracing off -- expectiminimax, Star1, Star2, Star2 with the game's move ordering,
and Star2 with ordering and a transposition table -- and prints the leaves each evaluates and the nodes each
visits.  Every variant must give the root the same value at every depth: ``game_pruning_runs`` raises if one does
not, so the script asserts it.  The depths go on while the slowest search of a depth took less than a third of
``--budget`` seconds (default 60): the deepest depth reported is the deepest whose searches take about a minute.

Then, at the deepest depth of each game, the share of expectiminimax's leaves and nodes each variant saves, beside
the figures of the literature: Ballard (1983): Star1 saves 25-30 % over exhaustive search and Star2 more than 50 %
with random ordering, an order of magnitude with optimal ordering; Hauk, Buro and Schaeffer (2004): about 93 %
fewer nodes than expectimax at depth 5 in backgammon; Veness and Blair (2007): a transposition table cuts Star2's
nodes by a further 37 % on Dice (5x5, depth 13: 6.12M to 3.85M).

Target (README, "Pruning at chance nodes"): at the deepest depth reported, Star2 with ordering evaluates at most
half the leaves of expectiminimax on Pig and on Dice.  A benchmark, not a test: it prints met or missed.

Run: ``.venv/bin/python benchmarks/bench_chance.py`` (``--games dice --budget 10`` for a quick look, ``--json``
for the numbers as JSON).
"""

from __future__ import annotations

import argparse
import json
import sys

import expectviz as ev
from expectviz.numbers import format_number
from expectviz.render.plots import GAME_VARIANTS, GameRun, game_pruning_runs

EXPECTIMINIMAX = "expectiminimax"
ORDERED = "star2 + ordering"
TABLED = "star2 + ordering + table"


def measure(name: str, budget: float, max_depth: int) -> list[GameRun]:
    """Every variant at depths 1, 2, ... while the slowest search of a depth took less than a third of ``budget``
    (a depth costs 2 to 8 times the one before it, so the last depth's slowest search takes about ``budget``)."""
    runs: list[GameRun] = []
    for depth in range(1, max_depth + 1):
        row = game_pruning_runs(name, [depth])
        runs.extend(row)
        slowest = max(row, key=lambda r: r.seconds)
        print(
            f"  {name} depth {depth}: {sum(r.seconds for r in row):.1f} s (slowest: {slowest.variant}, "
            f"{slowest.seconds:.1f} s), value {float(row[0].value):.4f}",
            file=sys.stderr,
        )
        if slowest.seconds > budget / 3:
            break
    return runs


def table(name: str, runs: list[GameRun]) -> str:
    depths = sorted({r.depth for r in runs})
    lines = [
        f"{name}: leaves evaluated / nodes visited",
        "| depth | " + " | ".join(GAME_VARIANTS) + " | value |",
        "| ---: | " + " | ".join("---:" for _ in GAME_VARIANTS) + " | ---: |",
    ]
    for depth in depths:
        row = {r.variant: r for r in runs if r.depth == depth}
        cells = [f"{row[v].leaves:,} / {row[v].nodes:,}" for v in GAME_VARIANTS]
        value = f"{float(row[EXPECTIMINIMAX].value):.4f}"
        lines.append(f"| {depth} | " + " | ".join(cells) + f" | {value} |")
    return "\n".join(lines)


def savings(name: str, runs: list[GameRun]) -> tuple[str, bool]:
    deepest = max(r.depth for r in runs)
    row = {r.variant: r for r in runs if r.depth == deepest}
    base = row[EXPECTIMINIMAX]
    lines = [f"{name} at depth {deepest}: saved against expectiminimax (leaves, nodes), time"]
    for variant in GAME_VARIANTS:
        r = row[variant]
        leaves = 100 * (1 - r.leaves / base.leaves)
        nodes = 100 * (1 - r.nodes / base.nodes)
        lines.append(f"  {variant:<26} {leaves:6.1f} %  {nodes:6.1f} %  {r.seconds:7.2f} s")
    table_cut = 100 * (1 - row[TABLED].nodes / row[ORDERED].nodes)
    lines.append(f"  the table's further cut of Star2 + ordering's nodes: {table_cut:.1f} % (Veness and Blair: 37 %)")
    met = row[ORDERED].leaves <= base.leaves / 2
    lines.append(
        f"  target: star2 + ordering <= half of expectiminimax's leaves: {row[ORDERED].leaves:,} vs "
        f"{base.leaves:,} -> {'met' if met else 'MISSED'}"
    )
    return "\n".join(lines), met


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="pig,dice,dice-5x5", help="comma-separated game names")
    parser.add_argument("--budget", type=float, default=60.0, help="about how long the slowest search may take (s)")
    parser.add_argument("--max-depth", type=int, default=30)
    parser.add_argument("--json", action="store_true", help="print the runs as JSON")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.games.split(",") if n.strip()]
    everything: dict[str, list[GameRun]] = {}
    print(f"expectviz {ev.__version__}, Python {sys.version.split()[0]}; budget {args.budget:g} s a search")
    all_met = True
    for name in names:
        runs = measure(name, args.budget, args.max_depth)
        everything[name] = runs
        print()
        print(table(name, runs))
        print()
        text, met = savings(name, runs)
        print(text)
        all_met &= met
    if args.json:
        print(
            json.dumps(
                {
                    name: [
                        {**r.__dict__, "value": format_number(r.value), "seconds": round(r.seconds, 4)} for r in runs
                    ]
                    for name, runs in everything.items()
                },
                indent=1,
            )
        )
    print()
    print("all targets met" if all_met else "a target was MISSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
