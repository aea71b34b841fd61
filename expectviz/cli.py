"""The ``expectviz`` command line.

    expectviz solve TREE [--algorithm A] [--depth N] [--bounds L U] [--json] [--trace]
    expectviz render TREE [--algorithm A] [--step K] -o FILE       (.svg, .png, .pdf)
    expectviz animate TREE [--algorithm A] -o FILE                  (.html, .gif)
    expectviz play GAME [--algorithm A] [--depth N] [--human SIDE] [--position P] [--seed S] [--html FILE]
    expectviz handout TREE [--algorithm A] [--depth N] [--bounds L U] [--title T] -o FILE   (.pdf, .svg, .png)
    expectviz exam --seed N [--count K] [--kinds K1,K2,...] -o FILE                          (.pdf, .svg, .png)
    expectviz list

TREE is tree text in the notation, a file holding it (text or JSON), or the
name of a textbook tree (``expectviz list``).

Every failure prints one line on stderr, ``expectviz: error: ...``, and exits
with status 2: bad arguments, bad trees, unreadable or oversized files (over
``ev.options.max_input_bytes``), searches that cannot run, files that cannot
be written.  Two exceptions keep to the usual conventions of command-line
tools: Ctrl-C prints ``expectviz: interrupted`` and exits with 130 (128 +
SIGINT, as shells report it), and when the reader of the output goes away
(``expectviz solve TREE --trace | head -1``) the command stops quietly with
status 2.  Output is written with ``errors="backslashreplace"``, so a name that
the terminal's encoding cannot hold (a lone surrogate) prints as ``\\udcff``
instead of failing.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn, TextIO, cast

from .errors import ExpectvizError, UsageError
from .games import GAMES
from .games.textbook import TEXTBOOK, textbook_trees
from .notation import parse
from .numbers import format_number, read_bound
from .options import options
from .registry import ALGORITHM_INFO
from .search import Result
from .tree import Node, facts
from .tree_json import from_json, json_number

__all__ = ["main", "load_game", "load_tree", "run_algorithm", "UsageError"]

INTERRUPTED_STATUS = 130
"""The exit status after Ctrl-C (128 + SIGINT)."""
ERROR_STATUS = 2
"""The exit status of every other failure."""


# ---------------------------------------------------------------- arguments


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: it raises :class:`UsageError` for :func:`main` to print."""

    def error(self, message: str) -> NoReturn:
        """Raise the parse error as a :class:`UsageError` instead of printing the usage and exiting."""
        raise UsageError(f"{message} (see {self.prog} --help)")


def _algorithms() -> dict[str, Callable[..., Result]]:
    """The package's search functions by name (``expectviz.ALGORITHMS``)."""
    from . import ALGORITHMS

    return cast("dict[str, Callable[..., Result]]", ALGORITHMS)


def _quote(text: str, limit: int = 60) -> str:
    """``repr`` of user input for a message, cut short when long."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def _count(text: str) -> int:
    """Argument type of ``--depth`` and ``--step``: a whole number, 0 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{_quote(text.strip())} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


_BOUND = re.compile(r"-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d{1,3})?(/\d+)?")
_NEGATIVE = re.compile(r"-(\d|\.\d|inf)", re.IGNORECASE)


def _bound(text: str) -> float | str:
    """Argument type of ``--bounds``: a number (``-2``, ``0.5``, ``1/3``, ``1e3``) or ``-inf``/``inf``."""
    try:
        word = read_bound(text)
    except ValueError:
        word = ""
    if isinstance(word, float):
        return word
    if len(word) > 100 or not _BOUND.fullmatch(word):
        raise argparse.ArgumentTypeError(
            f"{_quote(text.strip())} is not a bound; write a number such as -2, 0.5, 1/3 or 1e3 "
            "(exponents up to 999), or -inf or inf"
        )
    return word


def _parser() -> argparse.ArgumentParser:
    algorithms = tuple(_algorithms())
    parser = _Parser(
        prog="expectviz",
        description="Game-tree search under chance, step by step: minimax, alpha-beta, expectiminimax, Star1, Star2.",
        epilog="Errors print one line on stderr and exit with status 2 (130 after Ctrl-C).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "tree", help="tree text, a file holding it, a textbook tree or a game name (see 'expectviz list')"
        )
        p.add_argument(
            "-a", "--algorithm", choices=algorithms, help="default: alphabeta, or expectiminimax with chance nodes"
        )
        p.add_argument("--depth", type=_count, help="depth limit in levels (chance levels count)")
        p.add_argument("--bounds", nargs=2, metavar=("L", "U"), type=_bound, help="value bounds for star1/star2")
        p.add_argument("--position", help="a game's starting position, e.g. 'X.O/.X./..O' for tictactoe")
        p.add_argument("--table", action="store_true", help="use a transposition table")
        p.add_argument("--order", action="store_true", help="a game's own move ordering (good moves first)")
        p.add_argument("--iterative", action="store_true", help="iterative deepening (up to --depth)")
        p.add_argument("--max-nodes", type=_count, help="with --iterative: stop deepening after this many nodes")

    solve = sub.add_parser("solve", help="search a tree and print its value, best move and counts")
    common(solve)
    solve.add_argument("--json", action="store_true", help="print value, best move and counts as JSON")
    solve.add_argument("--trace", action="store_true", help="also print every event of the search")

    render = sub.add_parser("render", help="draw a tree, or one step of a search, to .svg/.png/.pdf")
    common(render)
    render.add_argument("--step", type=_count, help="the step to draw (default: the end; 0: before the search)")
    render.add_argument("-o", "--output", required=True, help="output file: .svg, .png or .pdf")

    animate = sub.add_parser("animate", help="write a self-contained HTML player or an animated GIF of a search")
    common(animate)
    animate.add_argument("-o", "--output", required=True, help="output file: .html or .gif")

    from .render.play_boards import COINFLIP_DEPTH, DICE_5X5_DEPTH, DICE_DEPTH, PIG_DEPTH
    from .render.play_game import game_names

    playable = game_names()
    play = sub.add_parser(
        "play",
        help="play a game (tic-tac-toe, Pig, Dice...) against an algorithm in the terminal",
        description="Play a game against the computer: type a square (a1 to c3, or 1 to 9 row by row from the "
        "top left) to move, or in Pig roll or hold; 'quit' or the end of input stops.",
    )
    play.add_argument("game", metavar="GAME", choices=playable, help=f"the game: {', '.join(playable)}")
    play.add_argument(
        "-a", "--algorithm", choices=algorithms, help="default: alphabeta, or expectiminimax in a game with chance"
    )
    play.add_argument(
        "--depth",
        type=_play_depth,
        default=-1,  # the game's default (a number: argparse does not pass it through the type)
        help="the computer's depth limit in levels (coin flips and rolls count), or 'end'; default: the end in "
        f"tictactoe, {COINFLIP_DEPTH} in coinflip-tictactoe, {PIG_DEPTH} in pig, {DICE_DEPTH} in dice, "
        f"{DICE_5X5_DEPTH} in dice-5x5",
    )
    play.add_argument(
        "--human",
        type=str.upper,
        choices=("X", "O", "MAX", "MIN"),
        default="X",
        help="your side: X or MAX moves first, O or MIN second (X and O on a board, MAX and MIN in Pig)",
    )
    play.add_argument(
        "--position", help="the starting position, e.g. 'X.O/.X./...', or in pig 'MAX 5, MIN 3, MAX to play'"
    )
    play.add_argument("--seed", type=int, default=0, help="the seed of the coin flips and dice rolls (default 0)")
    play.add_argument("--html", metavar="FILE", help="at the end, write the computer's last search as a player page")

    _handout_parsers(sub, algorithms)
    sub.add_parser("list", help="list the textbook trees and the games")
    return parser


# ---------------------------------------------------------------- handouts and exams


def _handout_parsers(sub: Any, algorithms: tuple[str, ...]) -> None:
    """The ``handout`` and ``exam`` commands (see :mod:`expectviz.handout`)."""
    from .handout import KINDS, MAX_QUESTIONS

    handout = sub.add_parser(
        "handout",
        help="a handout: the tree with empty value boxes for students, and its answer key",
        description="Draw a tree with an empty box for each node's value (the sheet) and the search's last "
        "frame with values, pruned leaves and windows (the key). A .pdf has two pages, the sheet and the key; "
        "with .svg or .png the key goes to a second file: sheet.png and sheet-key.png.",
    )
    handout.add_argument("tree", help="tree text, a file holding it, or a textbook tree (see 'expectviz list')")
    handout.add_argument(
        "-a", "--algorithm", choices=algorithms, help="default: alphabeta, or expectiminimax with chance nodes"
    )
    handout.add_argument("--depth", type=_count, help="depth limit in levels (chance levels count)")
    handout.add_argument("--bounds", nargs=2, metavar=("L", "U"), type=_bound, help="value bounds for star1/star2")
    handout.add_argument("--title", help="the heading (default: the textbook tree's or the file's name)")
    handout.add_argument(
        "-o", "--output", required=True, help="output file: .pdf (sheet and key), or .svg/.png (FILE and FILE-key)"
    )
    exam = sub.add_parser(
        "exam",
        help="an exam: fresh questions on seeded random trees, with an answer key at the end",
        description="Generate questions on trees from the seeded random-tree generator, each with its tree "
        "drawn with empty value boxes, and an answer key after the last question. The same seed gives the "
        f"same exam. The kinds, cycled in this order: {', '.join(KINDS)}. A .pdf holds every page; with .svg "
        "or .png each page is a file: exam-1.png, exam-2.png, ...",
    )
    exam.add_argument("--seed", type=int, required=True, help="the seed: the same seed gives the same exam")
    exam.add_argument(
        "--count", type=_question_count, default=5, help=f"how many questions, 1 to {MAX_QUESTIONS} (default 5)"
    )
    exam.add_argument("--kinds", type=_kinds, help=f"the kinds to cycle through, comma-separated: {','.join(KINDS)}")
    exam.add_argument("-o", "--output", required=True, help="output file: .pdf, or .svg/.png (one file a page)")


def _question_count(text: str) -> int:
    """Argument type of ``exam --count``: a whole number from 1 to MAX_QUESTIONS."""
    from .handout import MAX_QUESTIONS

    value = _count(text)
    if not 1 <= value <= MAX_QUESTIONS:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_QUESTIONS}, not {value}")
    return value


def _kinds(text: str) -> tuple[str, ...]:
    """Argument type of ``exam --kinds``: kinds of question, comma-separated."""
    from .handout import KINDS

    chosen = tuple(word.strip() for word in text.split(",") if word.strip())
    unknown = [word for word in chosen if word not in KINDS]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(
            f"{_quote(', '.join(unknown) or text)} is not a kind of question; choose from {','.join(KINDS)}"
        )
    return chosen


def _handout(args: argparse.Namespace) -> int:
    """``expectviz handout``: the sheet and its key."""
    from .handout import write_handout

    spec = args.tree.strip()
    if spec in GAMES:
        raise UsageError(
            f"a handout draws a tree, and {_quote(spec)} is a game; give tree text, a file or a textbook tree"
        )
    tree, default_bounds = load_tree(args.tree)
    bounds = tuple(args.bounds) if args.bounds else default_bounds
    if args.algorithm is not None and ALGORITHM_INFO[args.algorithm].needs_bounds and bounds is None:
        raise UsageError(f"{args.algorithm} needs --bounds L U (the least and greatest leaf values)")
    title = args.title
    if title is None and spec in TEXTBOOK:
        title = spec
    elif title is None and _stat(args.tree) is not None:
        title = os.path.basename(args.tree)
    with _drawing():
        written = write_handout(
            tree, args.output, algorithm=args.algorithm, depth=args.depth, bounds=bounds, title=title
        )
    if len(written) == 1:
        _write(f"wrote {written[0]} (page 1: the sheet, page 2: the key)")
    else:
        _write(f"wrote {written[0]} (the sheet) and {written[1]} (the key)")
    return 0


def _exam(args: argparse.Namespace) -> int:
    """``expectviz exam``: seeded questions, then the answer key."""
    from .handout import exam, exam_pages, exam_title, page_files, write_pages

    page_files(args.output, 1)  # a bad extension fails before the questions are made
    with _drawing():
        questions = exam(args.seed, args.count, kinds=args.kinds)
        pages = exam_pages(questions, title=exam_title(args.seed))
        written = write_pages(pages, args.output)
    kinds = ", ".join(dict.fromkeys(q.kind for q in questions))
    where = written[0] if len(written) == 1 else f"{written[0]} ... {written[-1]}"
    _write(f"wrote {where}: {len(questions)} questions ({kinds}) on {len(pages)} pages, the answer key last")
    return 0


def _protect_negative_bounds(argv: list[str]) -> list[str]:
    """Let ``--bounds -inf 2`` through: argparse would take ``-inf`` for an option, so prefix a space."""
    argv = list(argv)
    for i, token in enumerate(argv):
        if token == "--bounds":
            for j in (i + 1, i + 2):
                if j < len(argv) and _NEGATIVE.match(argv[j]):
                    argv[j] = " " + argv[j]
    return argv


# ---------------------------------------------------------------- trees


def load_game(spec: str, position: str | None = None) -> tuple[Any, tuple[Any, Any] | None]:
    """What ``spec`` names: a game (by name, from ``position`` if given), else a tree as :func:`load_tree` reads it.

    Raises:
        UsageError: a position given with a tree, or a position the game refuses.
    """
    if spec.strip() in GAMES:
        make = GAMES[spec.strip()]
        game = make(position) if position is not None else make()  # type: ignore[call-arg]
        return game, None
    if position is not None:
        raise UsageError(f"--position is for games ({', '.join(GAMES)}), not for {_quote(spec)}")
    return load_tree(spec)


def load_tree(spec: str) -> tuple[Node, tuple[Any, Any] | None]:
    """A tree from notation text, a file, or a textbook name; with the textbook's bounds if any.

    Args:
        spec: a textbook tree's name, the path of a file holding notation text
            or JSON, or notation text.

    Returns:
        The tree, and the textbook's ``(L, U)`` bounds (None unless a textbook
        tree brings them).

    Raises:
        UsageError: a file that cannot be read, is not UTF-8, holds a bad tree,
            or is larger than ``ev.options.max_input_bytes``; text that is no tree.
        TreeSyntaxError: tree text that does not follow the notation.
        InvalidTreeError: tree text that breaks a rule of trees.
    """
    if spec in TEXTBOOK:
        entry = TEXTBOOK[spec]
        return entry.tree, entry.bounds
    info = _stat(spec)
    if info is not None:
        return _read_tree_file(spec, info), None
    limit = options.max_input_bytes
    if len(spec) > limit:
        raise UsageError(
            f"the tree text is {len(spec):,} characters, over the limit of {limit:,} "
            "(expectviz.options.max_input_bytes)"
        )
    if "(" not in spec and not _looks_numeric(spec):
        raise UsageError(
            f"{_quote(spec)} is neither tree text, a file, a textbook tree (those are: {', '.join(TEXTBOOK)}) "
            f"nor a game ({', '.join(GAMES)})"
        )
    return parse(spec), None


def _stat(spec: str) -> os.stat_result | None:
    """The file ``spec`` names, or None when it names none (then it is tree text)."""
    try:
        return os.stat(spec)
    except (ValueError, UnicodeError):  # a NUL or an unencodable character: not a file name
        return None
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.ENAMETOOLONG, errno.EINVAL):
            return None
        raise UsageError(f"cannot read {_quote(spec)}: {exc.strerror or exc}") from None


def _read_tree_file(path: str, info: os.stat_result) -> Node:
    """Read and parse a tree file, refusing directories and files over the size limit before reading."""
    name = _quote(path, 200)
    if stat.S_ISDIR(info.st_mode):
        raise UsageError(f"{name} is a directory, not a tree file")
    limit = options.max_input_bytes
    if info.st_size > limit:
        raise UsageError(_too_large(name, f"{info.st_size:,} bytes", limit))
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)  # bounded: a device or pipe has no size to check first
    except OSError as exc:
        raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise UsageError(_too_large(name, f"more than {limit:,} bytes", limit))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"{name} is not UTF-8 text: byte 0x{data[exc.start]:02x} at offset {exc.start:,} (save it as UTF-8)"
        ) from None
    try:
        if text.lstrip().startswith("{"):
            return from_json(text)
        return parse(text)
    except ExpectvizError as exc:
        raise UsageError(f"{name}: {exc}") from exc


def _too_large(name: str, size: str, limit: int) -> str:
    return f"{name} is {size}, over the limit of {limit:,} bytes for a tree file (expectviz.options.max_input_bytes)"


def _looks_numeric(text: str) -> bool:
    try:
        float(text.split("#")[0].strip().split("/")[0])
        return True
    except ValueError:
        return False


# ---------------------------------------------------------------- searching


def run_algorithm(
    tree: Any,
    algorithm: str | None,
    *,
    depth: int | None = None,
    bounds: tuple[Any, Any] | None = None,
    trace: bool = True,
    **options: Any,
) -> Result:
    """Run the named algorithm from ``expectviz.ALGORITHMS``.

    Args:
        tree: the tree (or game) to search.
        algorithm: its name; None picks alphabeta, or expectiminimax on trees
            with chance nodes.
        depth: the depth limit, or None for none.
        bounds: ``(L, U)``, for the algorithms that take bounds (star1, star2).
        trace: record every event.
        options: further keywords of the search (``table``, ``iterative``, ``max_nodes``).

    Returns:
        The search's result.

    Raises:
        UsageError: an unknown algorithm, or one that needs bounds without them.
        SearchError: a search that cannot run on this tree with these options.
    """
    algorithms = _algorithms()
    is_tree = isinstance(tree, Node)
    if algorithm is None:
        chance = facts(tree).has_chance if is_tree else getattr(tree, "has_chance", False)
        algorithm = "expectiminimax" if chance else "alphabeta"
    search = algorithms.get(algorithm)
    if search is None:
        raise UsageError(f"unknown algorithm {_quote(algorithm)}; choose from {', '.join(algorithms)}")
    if ALGORITHM_INFO[algorithm].needs_bounds:
        if bounds is None and is_tree:
            raise UsageError(f"{algorithm} needs --bounds L U (the least and greatest leaf values)")
        return search(tree, bounds=bounds, depth=depth, trace=trace, **options)
    return search(tree, depth=depth, trace=trace, **options)


# ---------------------------------------------------------------- output


def _write(line: str, stream: TextIO | None = None) -> None:
    """Write one line; a character the stream's encoding cannot hold is written as a backslash escape."""
    stream = sys.stdout if stream is None else stream
    try:
        stream.write(line + "\n")
    except UnicodeEncodeError:  # a stream that could not be reconfigured (see _tolerant_streams)
        encoding = getattr(stream, "encoding", None) or "utf-8"
        stream.write((line + "\n").encode(encoding, "backslashreplace").decode(encoding))


def _fail(message: str) -> None:
    """Print ``message`` as one line on stderr; never raises (stderr may be closed)."""
    one_line = " ".join(part.strip() for part in message.splitlines() if part.strip())
    with contextlib.suppress(OSError, ValueError):
        _write(f"expectviz: {one_line}", sys.stderr)
        sys.stderr.flush()


@contextlib.contextmanager
def _tolerant_streams() -> Iterator[None]:
    """Write stdout and stderr with ``errors="backslashreplace"`` while the command runs, then restore them."""
    restore: list[tuple[io.TextIOWrapper[Any], str]] = []
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors != "backslashreplace":
            with contextlib.suppress(OSError, ValueError):
                errors = stream.errors or "strict"
                stream.reconfigure(errors="backslashreplace")
                restore.append((stream, errors))
    try:
        yield
    finally:
        for stream, errors in restore:
            with contextlib.suppress(OSError, ValueError):
                stream.reconfigure(errors=errors)


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at the null device, so no later flush fails again."""
    with contextlib.suppress(AttributeError, OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, sys.stdout.fileno())
        finally:
            os.close(null)


# ---------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Args:
        argv: the arguments after the program name (default: ``sys.argv[1:]``).

    Returns:
        The exit status: 0 on success (and after ``--help``), 2 after any
        failure (one line on stderr), 130 after Ctrl-C.
    """
    with _tolerant_streams():
        try:
            status = _main(list(sys.argv[1:] if argv is None else argv))
            sys.stdout.flush()
            return status
        except BrokenPipeError:  # the reader went away (| head): stop quietly
            _silence_stdout()
            return ERROR_STATUS
        except KeyboardInterrupt:
            _fail("interrupted")
            return INTERRUPTED_STATUS


def _main(argv: list[str]) -> int:
    """Parse and run, turning every failure into one line on stderr and status 2."""
    try:
        try:
            args = _parser().parse_args(_protect_negative_bounds(argv))
        except SystemExit as exc:  # --help has printed the help
            return exc.code if isinstance(exc.code, int) else 0
        return _run(args)
    except ExpectvizError as exc:
        _fail(f"error: {exc}")
    except BrokenPipeError:
        raise
    except OSError as exc:
        where = f": {exc.filename}" if exc.filename is not None else ""
        _fail(f"error: {exc.strerror or exc}{where}")
    except MemoryError:
        _fail("error: out of memory; try a smaller tree, --depth, or leave out --trace")
    except RecursionError:
        _fail("error: the tree is nested too deeply to process")
    except Exception as exc:  # noqa: BLE001 - a bug still fails in one line, naming the exception
        _fail(f"error: internal error, please report it: {type(exc).__name__}: {exc}")
    return ERROR_STATUS


def _run(args: argparse.Namespace) -> int:
    if args.command == "list":
        for line in textbook_trees().splitlines():
            _write(line)
        _write("")
        _write("Games (a position with --position):")
        for name, make in GAMES.items():
            _write(f"  {name:<20} {_plain_doc(make.__doc__)}")
        return 0
    if args.command == "play":
        return _play(args)
    if args.command in ("handout", "exam"):
        _check_file_name(args.output)
        return _handout(args) if args.command == "handout" else _exam(args)
    output: str | None = getattr(args, "output", None)
    if output is not None:
        _check_file_name(output)
    tree, default_bounds = load_game(args.tree, args.position)
    bounds = tuple(args.bounds) if args.bounds else default_bounds
    if args.command == "solve":
        _solve(args, tree, bounds)
        return 0
    assert output is not None
    result = run_algorithm(tree, args.algorithm, depth=args.depth, bounds=bounds, **_search_options(args, tree))
    with _drawing():
        from .render import export

        if args.command == "render":
            export.render_file(result, output, step=args.step)
        else:
            export.animate_file(result, output)
    _write(f"wrote {output}")
    return 0


@contextlib.contextmanager
def _drawing() -> Iterator[None]:
    """Drawing code runs inside: a drawing package that is not installed becomes a one-line UsageError."""
    try:
        yield
    except ModuleNotFoundError as exc:
        package = (exc.name or "").partition(".")[0]
        if not package or package == __package__:
            raise
        raise UsageError(f"drawing needs the {package} package: pip install 'expectviz[viz]'") from None


def _check_file_name(name: str, option: str = "-o") -> None:
    """Refuse an output name (given with ``option``) the file system cannot hold, before searching."""
    try:
        os.fsencode(name)
    except UnicodeError:
        raise UsageError(
            f"{option} {_quote(name)} cannot be a file name here (it holds an unencodable character)"
        ) from None
    if "\0" in name:
        raise UsageError(f"{option} {_quote(name)} cannot be a file name (it holds a NUL character)")


def _plain_doc(doc: str | None) -> str:
    """A docstring's first line without reStructuredText's markup (``:class:`Pig``` reads Pig)."""
    line = (doc or "").strip().splitlines()[0] if (doc or "").strip() else ""
    line = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", line)
    return line.replace("``", "")


def _search_options(args: argparse.Namespace, game: Any) -> dict[str, Any]:
    if args.max_nodes is not None and not args.iterative:
        raise UsageError("--max-nodes is a budget for iterative deepening; add --iterative")
    found: dict[str, Any] = {}
    if args.order:
        from .games import ORDERINGS, move_ordering

        key = move_ordering(game)
        if key is None:
            raise UsageError(f"--order is for the games with a move ordering of their own: {', '.join(ORDERINGS)}")
        found["order"] = key
    if args.table:
        found["table"] = True
    if args.iterative:
        found["iterative"] = True
        found["max_nodes"] = args.max_nodes
    return found


def _solve(args: argparse.Namespace, tree: Any, bounds: tuple[Any, Any] | None) -> None:
    result = run_algorithm(
        tree, args.algorithm, depth=args.depth, bounds=bounds, trace=args.trace, **_search_options(args, tree)
    )
    s = result.stats
    if args.json:
        summary = {
            "algorithm": result.algorithm,
            "value": json_number(result.exact_value),
            "best_move": result.best_move,
            "nodes_visited": s.nodes_visited,
            "leaves_evaluated": s.leaves_evaluated,
            "cutoffs": s.cutoffs,
        }
        if args.table:
            summary["table_hits"] = s.table_hits
        if result.iterations:
            summary["depth_reached"] = result.iterations[-1].depth if result.note is None else result.depth
        if result.note:
            summary["note"] = result.note
        _write(json.dumps(summary))
    else:
        _write(f"algorithm:        {result.algorithm}")
        _write(f"value:            {format_number(result.exact_value)}")
        _write(f"best move:        {result.best_move if result.best_move is not None else '-'}")
        _write(f"nodes visited:    {s.nodes_visited}")
        _write(f"leaves evaluated: {s.leaves_evaluated}")
        _write(f"cutoffs:          {s.cutoffs}")
        if args.table:
            _write(f"table hits:       {s.table_hits}")
        if result.note:
            _write(f"note:             {result.note}")
    if args.trace and result.trace is not None:
        _write("")
        for line in result.trace.lines():  # streamed: a long trace is never one string
            _write(line)


# ---------------------------------------------------------------- play


def _play_depth(text: str) -> int | None:
    """Argument type of ``play --depth``: a whole number from 1, or ``end`` (no limit)."""
    if text.strip().lower() in ("end", "none"):
        return None
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more, or 'end' (search to the end of the game)")
    return value


def _play(args: argparse.Namespace) -> int:
    """A game in the terminal: the state, your moves from stdin, the computer's answers; 0 when it ends."""
    from .render.play_game import Match, capitalised, make_game

    if args.html is not None:
        _check_file_name(args.html, "--html")
    match = Match(
        make_game(args.game, args.position),
        human=args.human,
        seed=args.seed,
        algorithm=args.algorithm,
        depth="auto" if args.depth == -1 else args.depth,
        trace=args.html is not None,
    )
    board = match.board
    _write(
        f"{match.title}: you play {match.human}, the computer plays {match.computer} with {match.describe_settings()}."
    )
    for instruction in board.instructions():
        _write(instruction)
    for entry in match.history:  # Dice starts with a roll of the die
        _write(entry.text)
    moved = True  # print the state before the first prompt and after each move
    while True:
        if match.computers_turn:
            answer = match.think()
            if not answer.playable:
                raise UsageError(f"the computer's search failed: {answer.error or answer.stopped}")
            for entry in match.answer(answer):
                said = entry.played(match.computer, present=True)
                _write(said if entry.chance else f"{said} ({answer.summary()})")
            moved = True
            continue
        if moved:
            _write("")
            for row in board.text_lines(match.state):
                _write(row)
            moved = False
        if match.over:
            winner = match.winner
            who = "" if winner is None else ": you win" if winner == match.human else ": the computer wins"
            _write(f"{match.outcome()}{who}.")
            break
        line = _ask(board.prompt(match.state, match.inputs()))
        if line is None:
            _write("")
            break
        word = line.strip().lower()
        if word in ("quit", "q", "exit"):
            break
        try:
            action = board.read_typed(line.strip())
        except ExpectvizError as error:
            _write(str(error))
            continue
        reason = match.refusal(action)
        if reason is not None:
            _write(capitalised(reason))
            continue
        moved = True
        for entry in match.play(action):
            if entry.chance:
                _write(entry.text)
    if args.html is not None:
        last = match.last_answer
        if last is None or last.result is None:
            raise UsageError(
                f"--html {_quote(args.html, 200)}: the computer made no move, so there is no search to write"
            )
        with _drawing():
            from .render import export_html

            export_html(last.result, args.html)
        _write(f"wrote {args.html} (the search behind {last.move})")
    return 0


def _ask(prompt: str) -> str | None:
    """One line from stdin after ``prompt`` (None at the end of input); echoed when stdin is not a terminal."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        return None
    interactive = False
    with contextlib.suppress(AttributeError, ValueError, OSError):
        interactive = sys.stdin.isatty()
    if not interactive:
        sys.stdout.write(line if line.endswith("\n") else line + "\n")  # the transcript shows what was typed
    return line.rstrip("\r\n")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
