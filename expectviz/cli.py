"""The ``expectviz`` command line.

    expectviz solve TREE [--algorithm A] [--depth N] [--bounds L U] [--json] [--trace]
    expectviz render TREE [--algorithm A] [--step K] -o FILE       (.svg, .png, .pdf)
    expectviz animate TREE [--algorithm A] -o FILE                  (.html, .gif)
    expectviz list

TREE is tree text in the notation, a file holding it (text or JSON), or the
name of a textbook tree (``expectviz list``).  Bad input prints one line on
stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from typing import Any

from .errors import ExpectvizError
from .games.textbook import TEXTBOOK, textbook_trees
from .search import Result
from .tree import Node, facts, format_number, from_json, parse

__all__ = ["main", "load_tree", "run_algorithm"]

ALGORITHM_NAMES = ("minimax", "alphabeta", "expectiminimax", "star1", "star2")


class UsageError(ExpectvizError, ValueError):
    """A command-line argument that cannot be used."""


def load_tree(spec: str) -> tuple[Node, tuple[Any, Any] | None]:
    """A tree from notation text, a file, or a textbook name; with the textbook's bounds if any."""
    if spec in TEXTBOOK:
        entry = TEXTBOOK[spec]
        return entry.tree, entry.bounds
    if os.path.isfile(spec):
        try:
            with open(spec, encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read {spec}: {exc}") from None
        if text.lstrip().startswith("{"):
            return from_json(text), None
        return parse(text), None
    if "(" not in spec and not _looks_numeric(spec):
        raise UsageError(
            f"{spec!r} is neither tree text, a file, nor a textbook tree (those are: {', '.join(TEXTBOOK)})"
        )
    return parse(spec), None


def _looks_numeric(text: str) -> bool:
    try:
        float(text.split("#")[0].strip().split("/")[0])
        return True
    except ValueError:
        return False


def run_algorithm(
    tree: Node,
    algorithm: str | None,
    *,
    depth: int | None = None,
    bounds: tuple[Any, Any] | None = None,
    trace: bool = True,
) -> Result:
    """Run the named algorithm (default: alphabeta, or expectiminimax on chance trees)."""
    import expectviz as ev

    if algorithm is None:
        algorithm = "expectiminimax" if facts(tree).has_chance else "alphabeta"
    if algorithm not in ALGORITHM_NAMES:
        raise UsageError(f"unknown algorithm {algorithm!r}; choose from {', '.join(ALGORITHM_NAMES)}")
    if algorithm in ("star1", "star2"):
        if bounds is None:
            raise UsageError(f"{algorithm} needs --bounds L U (the least and greatest leaf values)")
        fn = ev.star1 if algorithm == "star1" else ev.star2
        return fn(tree, bounds=bounds, depth=depth, trace=trace)
    return ev.ALGORITHMS[algorithm](tree, depth=depth, trace=trace)  # type: ignore[no-any-return, operator]


def _bound(text: str) -> float | str:
    text = text.strip()
    if text.lower() in ("inf", "+inf", "infinity"):
        return math.inf
    if text.lower() in ("-inf", "-infinity"):
        return -math.inf
    return text


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="expectviz",
        description="Game-tree search under chance, step by step: minimax, alpha-beta, expectiminimax, Star1, Star2.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("tree", help="tree text, a file holding it, or a textbook tree name (see 'expectviz list')")
        p.add_argument(
            "-a", "--algorithm", choices=ALGORITHM_NAMES, help="default: alphabeta, or expectiminimax with chance nodes"
        )
        p.add_argument("--depth", type=int, help="depth limit in levels (chance levels count)")
        p.add_argument("--bounds", nargs=2, metavar=("L", "U"), type=_bound, help="value bounds for star1/star2")

    solve = sub.add_parser("solve", help="search a tree and print its value, best move and counts")
    common(solve)
    solve.add_argument("--json", action="store_true", help="print value, best move and counts as JSON")
    solve.add_argument("--trace", action="store_true", help="also print every event of the search")

    render = sub.add_parser("render", help="draw a tree, or one step of a search, to .svg/.png/.pdf")
    common(render)
    render.add_argument("--step", type=int, help="the step to draw (default: the end; 0: before the search)")
    render.add_argument("-o", "--output", required=True, help="output file: .svg, .png or .pdf")

    animate = sub.add_parser("animate", help="write a self-contained HTML player or an animated GIF of a search")
    common(animate)
    animate.add_argument("-o", "--output", required=True, help="output file: .html or .gif")

    sub.add_parser("list", help="list the textbook trees")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    for i, token in enumerate(argv[:-1]):
        if token == "--bounds":  # let "--bounds -inf 2" through: argparse takes "-inf" for an option
            for j in (i + 1, i + 2):
                if j < len(argv) and argv[j].startswith("-"):
                    argv[j] = " " + argv[j]
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed its one-line usage error
        return int(exc.code or 0)
    try:
        return _run(args)
    except ExpectvizError as exc:
        print(f"expectviz: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"expectviz: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.command == "list":
        print(textbook_trees())
        return 0
    tree, default_bounds = load_tree(args.tree)
    bounds = tuple(args.bounds) if args.bounds else default_bounds
    if args.depth is not None and args.depth < 0:
        raise UsageError(f"--depth must be 0 or more, not {args.depth}")
    if args.command == "solve":
        result = run_algorithm(tree, args.algorithm, depth=args.depth, bounds=bounds, trace=args.trace)
        if args.json:
            print(
                json.dumps(
                    {
                        "algorithm": result.algorithm,
                        "value": _json_number(result),
                        "best_move": result.best_move,
                        "nodes_visited": result.stats.nodes_visited,
                        "leaves_evaluated": result.stats.leaves_evaluated,
                        "cutoffs": result.stats.cutoffs,
                    }
                )
            )
        else:
            s = result.stats
            print(f"algorithm:        {result.algorithm}")
            print(f"value:            {format_number(result.exact_value)}")
            print(f"best move:        {result.best_move if result.best_move is not None else '-'}")
            print(f"nodes visited:    {s.nodes_visited}")
            print(f"leaves evaluated: {s.leaves_evaluated}")
            print(f"cutoffs:          {s.cutoffs}")
        if args.trace and result.trace is not None:
            print()
            print(result.trace)
        return 0
    result = run_algorithm(tree, args.algorithm, depth=args.depth, bounds=bounds)
    from .render import export

    if args.command == "render":
        export.render_file(result, args.output, step=args.step)
    else:
        export.animate_file(result, args.output)
    print(f"wrote {args.output}")
    return 0


def _json_number(result: Result) -> int | float | str:
    v = result.exact_value
    if isinstance(v, int):
        return v
    f = float(v)
    return f if format_number(f) == format_number(v) else format_number(v)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
