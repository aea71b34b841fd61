"""Tic-tac-toe from the empty board: expectviz against the textbook's reference code and OpenSpiel, side by side.

Prints, in one run:

1. full minimax with tracing off (549,946 nodes) -- ``ev.minimax("tictactoe", trace=False)`` against
   (a) AIMA's MINIMAX-DECISION (3rd ed. Fig. 5.3) over aima-python's TicTacToe, transcribed in this file, so that
   the ratio means something without any extra package; (b) the same code as published, aima-python's
   ``games.py`` packaged on PyPI as ``aima3`` (``minimax_decision``); (c) OpenSpiel's Python minimax
   (``open_spiel.python.algorithms.minimax.expectiminimax``, which is minimax when there are no chance nodes) over
   its C++ ``tic_tac_toe``.  Each time is the best of several runs, the contestants taking turns within each
   repeat, and each search's nodes are counted in a separate, untimed run.  Two more rows cross the halves over,
   to show where the difference lies: ``ev.minimax`` over the transcribed aima-python TicTacToe, and the
   transcribed MINIMAX-DECISION over ``ev.games.tictactoe()``;
2. alpha-beta from the empty board with tracing off (``ev.alphabeta``), beside OpenSpiel's ``alpha_beta_search``
   and aima-python's ``alphabeta_search`` (full depth);
3. a traced alpha-beta (18,297 nodes) opened in the player: the search, ``ev.play(result)`` (which builds the
   widget and its first state: the layout and the first chunk of packed steps) and the JSON of that state, the
   message a kernel sends the browser -- measured without a browser;
4. a traced full minimax: the events recorded (against ``ev.options.max_events``), the search time, the first
   ``frame(len(trace) // 2).explanation`` on a fresh trace, and the memory the Result holds (tracemalloc).

Targets (README, "Speed and memory", Games): expectviz minimax >= 3x as fast as the textbook's reference code
(both the transcription and aima3) and >= 1x OpenSpiel's Python minimax; alpha-beta < 20 ms; the traced alpha-beta
open in the player < 1 s; the traced minimax within the trace budget, its first frame <= 2 s.  This is a
benchmark, not a test: it marks each target met or missed and asserts nothing.  These machines are shared and
noisy: compare the ratios of one run, not times from different runs.

The comparisons are optional: ``pip install -e '.[bench]'`` installs aima3 and open_spiel (for this benchmark
only; ``make test`` does not need them).  Without them their rows say so and the rest still runs.

Run: ``make bench`` or ``.venv/bin/python benchmarks/bench_games.py``.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import math
import sys
import time
import tracemalloc
from collections import namedtuple
from collections.abc import Callable
from typing import Any

import expectviz as ev

MISSING = "not installed (pip install -e '.[bench]')"
FULL_NODES = 549_946  # the game tree of tic-tac-toe from the empty board, the root included
INFINITY = math.inf


# ---- AIMA's MINIMAX-DECISION over aima-python's TicTacToe, transcribed ----------------------------------------
#
# A transcription of the textbook's pseudocode (AIMA 3rd ed. Fig. 5.3) and of the reference tic-tac-toe that
# aima-python's games.py pairs it with (https://github.com/aimacode/aima-python, MIT licence), written here from
# the pseudocode and that file's description, with the same state and the same work per node: a state is a named
# tuple (player to move, utility, board, moves) whose board is a dict {(x, y): 'X' or 'O'} and whose moves are a
# list of the empty squares; a move copies both, and the utility of the new state comes from counting marks along
# the four directions through the square just played (k_in_row).


GameState = namedtuple("GameState", "to_move, utility, board, moves")


class AimaTicTacToe:
    """aima-python's TicTacToe on an h x v board, k in a row to win, X (MAX) first."""

    def __init__(self, h: int = 3, v: int = 3, k: int = 3) -> None:
        self.h, self.v, self.k = h, v, k
        squares = [(x, y) for x in range(1, h + 1) for y in range(1, v + 1)]
        self.initial = GameState(to_move="X", utility=0, board={}, moves=squares)

    def to_move(self, state: GameState) -> str:
        return state.to_move

    def actions(self, state: GameState) -> list[tuple[int, int]]:
        return state.moves  # every empty square is a legal move

    def result(self, state: GameState, move: tuple[int, int]) -> GameState:
        if move not in state.moves:
            return state  # an illegal move changes nothing
        player = state.to_move
        board = state.board.copy()
        board[move] = player
        moves = list(state.moves)
        moves.remove(move)
        return GameState(
            to_move="O" if player == "X" else "X",
            utility=self.compute_utility(board, move, player),
            board=board,
            moves=moves,
        )

    def utility(self, state: GameState, player: str) -> int:
        return state.utility if player == "X" else -state.utility

    def terminal_test(self, state: GameState) -> bool:
        return state.utility != 0 or len(state.moves) == 0

    def compute_utility(self, board: dict[tuple[int, int], str], move: tuple[int, int], player: str) -> int:
        """+1 if X has just made a line through ``move``, -1 if O has, else 0."""
        line = (
            self.k_in_row(board, move, player, (0, 1))  # vertical
            or self.k_in_row(board, move, player, (1, 0))  # horizontal
            or self.k_in_row(board, move, player, (1, -1))  # one diagonal
            or self.k_in_row(board, move, player, (1, 1))  # the other
        )
        return (1 if player == "X" else -1) if line else 0

    def k_in_row(
        self, board: dict[tuple[int, int], str], move: tuple[int, int], player: str, direction: tuple[int, int]
    ) -> bool:
        """Count ``player``'s marks in a line through ``move``, walking both ways from it."""
        dx, dy = direction
        count = 0
        x, y = move
        while board.get((x, y)) == player:
            count += 1
            x, y = x + dx, y + dy
        x, y = move
        while board.get((x, y)) == player:
            count += 1
            x, y = x - dx, y - dy
        return count - 1 >= self.k  # the move itself was counted twice


def minimax_decision(state: Any, game: Any) -> Any:
    """AIMA 3rd ed. Fig. 5.3: the action whose MIN-VALUE is largest, searching to the terminal states."""
    player = game.to_move(state)

    def max_value(state: Any) -> Any:
        if game.terminal_test(state):
            return game.utility(state, player)
        v = -INFINITY
        for a in game.actions(state):
            v = max(v, min_value(game.result(state, a)))
        return v

    def min_value(state: Any) -> Any:
        if game.terminal_test(state):
            return game.utility(state, player)
        v = INFINITY
        for a in game.actions(state):
            v = min(v, max_value(game.result(state, a)))
        return v

    return max(game.actions(state), key=lambda a: min_value(game.result(state, a)))  # argmax: the first best


def counting(game_class: type) -> Any:
    """An instance of ``game_class`` that counts the states it generates (``.generated``)."""

    class Counting(game_class):  # type: ignore[misc, valid-type]
        generated = 0

        def result(self, state: Any, move: Any) -> Any:
            self.generated += 1
            return super().result(state, move)

    return Counting()


# ---- the two halves crossed over: each search over the other's game ------------------------------------------


class AimaStatesForExpectviz(AimaTicTacToe):
    """The transcribed aima-python TicTacToe with the method names expectviz's searches read (ev.Game)."""

    has_chance = False

    def to_move(self, state: GameState) -> str:  # type: ignore[override]
        return ev.MAX if state.to_move == "X" else ev.MIN

    def is_terminal(self, state: GameState) -> bool:
        return self.terminal_test(state)

    def utility(self, state: GameState, player: str = "X") -> int:
        return state.utility  # X's point of view, as expectviz's values are


class ExpectvizGameForTextbook:
    """expectviz's tic-tac-toe (int states, table lookups) with the method names the textbook's code calls."""

    def __init__(self) -> None:
        game = ev.games.tictactoe()
        self.initial = game.initial
        self.to_move, self.actions, self.result = game.to_move, game.actions, game.result
        self.terminal_test, self.value = game.is_terminal, game.utility
        self.generated = 0

    def utility(self, state: int, player: str) -> int:
        return self.value(state) if player == ev.MAX else -self.value(state)


# ---- the contestants ----------------------------------------------------------------------------------------


class Contestant:
    """One search to time: ``run()`` does the search; ``count()`` (untimed) returns (nodes, decision)."""

    def __init__(self, name: str, run: Callable[[], Any] | None, count: Callable[[], tuple[int, Any]] | None) -> None:
        self.name, self.run, self.count = name, run, count
        self.best = INFINITY

    @property
    def available(self) -> bool:
        return self.run is not None


def version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def load_aima3() -> Any | None:
    try:
        from aima3 import games
    except ImportError:
        return None
    return games


def load_openspiel() -> tuple[Any, Any] | None:
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax as spiel_minimax
    except ImportError:
        return None
    return pyspiel, spiel_minimax


def spiel_counted(spiel_minimax: Any, name: str, work: Callable[[], Any]) -> tuple[int, Any]:
    """Run ``work`` with the recursive function ``spiel_minimax.<name>`` wrapped to count its calls (the nodes)."""
    original = getattr(spiel_minimax, name)
    calls = 0

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return original(*args, **kwargs)

    setattr(spiel_minimax, name, wrapped)  # the recursion looks the name up in the module each time
    try:
        answer = work()
    finally:
        setattr(spiel_minimax, name, original)
    return calls, answer


def minimax_contestants(aima3: Any, spiel: tuple[Any, Any] | None) -> list[Contestant]:
    transcribed = AimaTicTacToe()

    def count_transcribed() -> tuple[int, Any]:
        game = counting(AimaTicTacToe)
        move = minimax_decision(game.initial, game)
        return game.generated + 1, move  # every state generated, and the root

    out = [
        Contestant(
            "AIMA Fig. 5.3 + aima-python TicTacToe, transcribed here",
            lambda: minimax_decision(transcribed.initial, transcribed),
            count_transcribed,
        )
    ]
    name = f"aima3 {version('aima3')} games.minimax_decision"
    if aima3 is None:
        out.append(Contestant("aima3 games.minimax_decision", None, None))
    else:
        game = aima3.TicTacToe()

        def count_aima3() -> tuple[int, Any]:
            counted = counting(aima3.TicTacToe)
            move = aima3.minimax_decision(counted.initial, counted)
            return counted.generated + 1, move

        out.append(Contestant(name, lambda: aima3.minimax_decision(game.initial, game), count_aima3))
    if spiel is None:
        out.append(Contestant("OpenSpiel minimax.expectiminimax", None, None))
    else:
        pyspiel, spiel_minimax = spiel
        spiel_game = pyspiel.load_game("tic_tac_toe")

        def spiel_run() -> Any:
            return spiel_minimax.expectiminimax(spiel_game.new_initial_state(), 100, lambda s: 0, 0)

        out.append(
            Contestant(
                f"OpenSpiel {version('open_spiel')} minimax.expectiminimax",
                spiel_run,
                lambda: spiel_counted(spiel_minimax, "expectiminimax", spiel_run),
            )
        )

    def count_ev() -> tuple[int, Any]:
        r = ev.minimax("tictactoe", trace=False)
        return r.stats.nodes_visited, (r.value, r.best_move)

    out.append(
        Contestant('ev.minimax("tictactoe", trace=False)', lambda: ev.minimax("tictactoe", trace=False), count_ev)
    )

    crossed = AimaStatesForExpectviz()

    def count_crossed() -> tuple[int, Any]:
        r = ev.minimax(crossed, trace=False)
        return r.stats.nodes_visited, (r.value, r.best_move)

    out.append(
        Contestant(
            "ev.minimax over the transcribed aima-python TicTacToe",
            lambda: ev.minimax(crossed, trace=False),
            count_crossed,
        )
    )
    bitboard = ExpectvizGameForTextbook()

    def count_bitboard() -> tuple[int, Any]:
        game = ExpectvizGameForTextbook()
        result = game.result

        def counted(state: int, action: int) -> int:
            game.generated += 1
            return result(state, action)

        game.result = counted  # type: ignore[method-assign]
        move = minimax_decision(game.initial, game)
        return game.generated + 1, move

    out.append(
        Contestant(
            "AIMA Fig. 5.3 transcribed, over ev.games.tictactoe()",
            lambda: minimax_decision(bitboard.initial, bitboard),
            count_bitboard,
        )
    )
    return out


def alphabeta_contestants(aima3: Any, spiel: tuple[Any, Any] | None) -> list[Contestant]:
    out = []
    if aima3 is None:
        out.append(Contestant("aima3 games.alphabeta_search (full depth)", None, None))
    else:
        game = aima3.TicTacToe()

        def count_aima3() -> tuple[int, Any]:
            counted = counting(aima3.TicTacToe)
            move = aima3.alphabeta_search(counted.initial, counted)
            return counted.generated + 1, move

        out.append(
            Contestant(
                f"aima3 {version('aima3')} games.alphabeta_search (full depth)",
                lambda: aima3.alphabeta_search(game.initial, game),
                count_aima3,
            )
        )
    if spiel is None:
        out.append(Contestant("OpenSpiel minimax.alpha_beta_search", None, None))
    else:
        pyspiel, spiel_minimax = spiel
        spiel_game = pyspiel.load_game("tic_tac_toe")

        def spiel_run() -> Any:
            return spiel_minimax.alpha_beta_search(spiel_game)

        out.append(
            Contestant(
                f"OpenSpiel {version('open_spiel')} minimax.alpha_beta_search",
                spiel_run,
                lambda: spiel_counted(spiel_minimax, "_alpha_beta", spiel_run),
            )
        )

    def count_ev() -> tuple[int, Any]:
        r = ev.alphabeta("tictactoe", trace=False)
        return r.stats.nodes_visited, (r.value, r.best_move)

    out.append(
        Contestant('ev.alphabeta("tictactoe", trace=False)', lambda: ev.alphabeta("tictactoe", trace=False), count_ev)
    )
    return out


def time_interleaved(contestants: list[Contestant], repeats: int) -> None:
    """Each contestant's best time, taking turns within each repeat (so a busy spell hits them all alike)."""
    for _ in range(repeats):
        for c in contestants:
            if c.run is None:
                continue
            gc.collect()
            start = time.perf_counter()
            c.run()
            c.best = min(c.best, time.perf_counter() - start)


def verdict(met: bool) -> str:
    return "met" if met else "MISSED"


def row(what: str, seconds: float, note: str = "") -> None:
    """One line of sections 3 and 4: what, how long, and the target if any."""
    print(f"   {what:<66} {seconds:7.3f} s   {note}".rstrip())


# ---- the sections -------------------------------------------------------------------------------------------


def minimax_speed(aima3: Any, spiel: tuple[Any, Any] | None, repeats: int) -> None:
    contestants = minimax_contestants(aima3, spiel)
    counts = {c.name: c.count() for c in contestants if c.count is not None}
    time_interleaved(contestants, repeats)
    ours = contestants[3]
    targets = {0: 3.0, 1: 3.0, 2: 1.0}  # transcription, aima3, OpenSpiel: expectviz at least this many times as fast
    print(f"1. full tic-tac-toe minimax from the empty board, trace off (best of {repeats}, interleaved)")
    print(f"   {'what':<58} {'nodes':>9} {'returns':>14} {'best s':>8} {'/ expectviz':>11}   target")
    for i, c in enumerate(contestants):
        if i == 4:
            print("   crossed over, each search over the other's game (where the difference comes from):")
        if not c.available:
            print(f"   {c.name:<58} {MISSING}")
            continue
        nodes, decision = counts[c.name]
        ratio = c.best / ours.best
        note = "" if nodes == FULL_NODES else f"   (expected {FULL_NODES:,} nodes)"
        if i in targets:
            target = f">= {targets[i]:g}x  {verdict(ratio >= targets[i])}"
        else:
            target = ""
        print(f"   {c.name:<58} {nodes:>9,} {decision!s:>14} {c.best:8.3f} {ratio:10.2f}x   {target}{note}")
    present = [c for c in contestants[:3] if c.available]
    if len(present) >= 2 and present[0].name.startswith("AIMA") and present[1].name.startswith("aima3"):
        print(f"   (the transcription takes {present[0].best / present[1].best:.2f}x the time of aima3's own code)")


def alphabeta_speed(aima3: Any, spiel: tuple[Any, Any] | None, repeats: int) -> None:
    contestants = alphabeta_contestants(aima3, spiel)
    counts = {c.name: c.count() for c in contestants if c.count is not None}
    time_interleaved(contestants, repeats)
    ours = contestants[-1]
    print(f"2. alpha-beta from the empty board, trace off (best of {repeats}, interleaved)")
    print(f"   {'what':<58} {'nodes':>9} {'returns':>14} {'best ms':>8} {'/ expectviz':>11}   target")
    for c in contestants:
        if not c.available:
            print(f"   {c.name:<58} {MISSING}")
            continue
        nodes, decision = counts[c.name]
        target = f"< 20 ms  {verdict(c.best < 0.020)}" if c is ours else ""
        print(
            f"   {c.name:<58} {nodes:>9,} {decision!s:>14} {c.best * 1000:8.1f} {c.best / ours.best:10.2f}x   {target}"
        )
    if aima3 is not None:
        print(
            "   (aima-python tries the squares column by column, the others row by row: the mirror image across the\n"
            "   diagonal, so the search trees have the same shape)"
        )


def player_open(repeats: int) -> None:
    print(f"3. traced alpha-beta from the empty board, opened in the player (no browser; best of {repeats})")
    already = "anywidget" in sys.modules
    start = time.perf_counter()
    try:
        import expectviz.render.widget  # noqa: F401  (what ev.play imports the first time)
    except ImportError:
        print("   anywidget not installed (pip install -e '.[viz]')")
        return
    imported = time.perf_counter() - start
    best = {"search": INFINITY, "play": INFINITY, "json": INFINITY, "total": INFINITY}
    size = nodes = events = 0
    for _ in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        result = ev.alphabeta("tictactoe")  # a fresh trace: nothing of its index built yet
        t1 = time.perf_counter()
        player = ev.play(result)  # the layout, then the first chunk of steps, packed: the widget's state
        t2 = time.perf_counter()
        message = json.dumps(player.get_state())  # the state the kernel sends when the widget opens
        t3 = time.perf_counter()
        for key, seconds in (("search", t1 - t0), ("play", t2 - t1), ("json", t3 - t2), ("total", t3 - t0)):
            best[key] = min(best[key], seconds)
        size, nodes, events = len(message), result.stats.nodes_visited, len(result.trace or ())
        del player, result
    row(f'ev.alphabeta("tictactoe"), traced: {nodes:,} nodes, {events:,} events', best["search"])
    row("ev.play(result): the layout and the first chunk of steps, packed", best["play"])
    row(f"its state as JSON, the message that opens it ({size / 1e6:.1f} MB)", best["json"])
    row("search + play + JSON (the best total)", best["total"], f"target < 1 s  {verdict(best['total'] < 1.0)}")
    if not already:
        row("once per kernel: the first ev.play imports anywidget, ipywidgets", imported)


def traced_minimax(repeats: int, play_it: bool) -> None:
    print(f"4. traced full minimax from the empty board (best of {repeats}; each frame on a fresh trace)")
    searched, framed = [], []
    events = 0
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        result = ev.minimax("tictactoe")
        searched.append(time.perf_counter() - start)
        trace = result.trace
        assert trace is not None
        events = len(trace)
        start = time.perf_counter()
        sentence = trace.frame(events // 2).explanation
        framed.append(time.perf_counter() - start)
        assert sentence
        del result, trace
    budget = ev.options.max_events
    print(f"   events recorded: {events:,}; ev.options.max_events = {budget:,}: {verdict(events <= budget)}")
    row('ev.minimax("tictactoe"), traced', min(searched))
    row(
        f"first trace.frame({events // 2:,}).explanation",
        min(framed),
        f"target <= 2 s  {verdict(min(framed) <= 2.0)}  (slowest of {len(framed)}: {max(framed):.2f} s)",
    )
    gc.collect()
    tracemalloc.start()
    result = ev.minimax("tictactoe")
    recorded, _ = tracemalloc.get_traced_memory()
    trace = result.trace
    assert trace is not None
    trace.frame(len(trace) // 2).explanation  # noqa: B018  (builds the index, the ranges and the game's tree)
    replayed, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"   memory held by the Result (tracemalloc): {recorded / 1e6:.1f} MB after recording "
        f"({recorded / events:.1f} bytes an event);\n"
        f"   {replayed / 1e6:.1f} MB after that first frame ({replayed / events:.1f} bytes an event; "
        f"the index, the ranges and the game's tree built), peak {peak / 1e6:.1f} MB"
    )
    del result, trace
    if play_it:
        try:
            import expectviz.render.widget  # noqa: F401
        except ImportError:
            return
        result = ev.minimax("tictactoe")
        gc.collect()
        start = time.perf_counter()
        ev.play(result)
        row("ev.play(result) on it, once (the layout, the first chunk of steps)", time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs of each timed search (the best counts)")
    parser.add_argument("--frame-repeats", type=int, default=3, help="fresh traced minimax searches for section 4")
    parser.add_argument("--no-play", action="store_true", help="skip ev.play on the 1.1M-event minimax trace")
    args = parser.parse_args()
    aima3, spiel = load_aima3(), load_openspiel()
    print(f"Python {sys.version.split()[0]}, expectviz {version('expectviz')}")
    minimax_speed(aima3, spiel, args.repeats)
    alphabeta_speed(aima3, spiel, args.repeats)
    player_open(args.repeats)
    traced_minimax(args.frame_repeats, not args.no_play)


if __name__ == "__main__":
    main()
