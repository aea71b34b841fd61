"""The game widget (ev.play_game) in Python, without a browser: scripted games, coin flips, Stop, refusals.

Most tests run the widget with ``threaded=False`` (each click returns when the computer has answered); the
tests of Stop and of the kernel staying free run the search in its background thread, as in a notebook.
"""

from __future__ import annotations

import importlib
import random
import re
import threading
import time
from typing import Any

import pytest

import expectviz as ev
from expectviz.errors import OptionError

pytest.importorskip("anywidget", reason="anywidget is not installed")

from expectviz.games.dice import dice  # noqa: E402
from expectviz.games.tictactoe import square_name as square_name  # noqa: E402
from expectviz.render.play_game import Match, PlayGame, parse_square  # noqa: E402

# The widget's module.
play_module = importlib.import_module("expectviz.render.play_game")
boards = importlib.import_module("expectviz.render.play_boards")


def perfect(game: Any, state: int) -> int:
    """A perfect player's move: minimax's best (the first of the best, in row-major order)."""
    best = ev.minimax(type(game)(game.position(state)), trace=False).best_action
    assert isinstance(best, int)
    return best


def computer_entries(widget: PlayGame) -> list[Any]:
    return [entry for entry in widget.history if entry.by == "computer"]


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize("human", ["X", "O"])
def test_perfect_play_against_full_depth_alphabeta_is_a_draw(human: str) -> None:
    g = ev.play_game(human=human, threaded=False)
    assert g.algorithm == "alphabeta" and g.depth is None
    while not g.match.over:
        assert g.match.humans_turn and g.board.legal  # the computer has answered every click at once
        assert g.click(perfect(g.match.game, g.state))
    assert g.match.outcome() == "Draw" and g.turn == "Draw."
    assert len(computer_entries(g)) == (4 if human == "X" else 5)


SCRIPTED = [  # the person's squares in order of preference: the first one still empty is clicked
    ["b2", "a1", "c3", "c1", "a3", "b1", "b3", "a2", "c2"],
    ["a1", "c3", "a3", "c1", "b2", "a2", "b1", "b3", "c2"],
    ["b1", "a2", "b3", "c2", "a1", "c3", "b2", "a3", "c1"],
    ["c3", "b2", "a1", "a3", "c1", "b1", "a2", "c2", "b3"],
]


@pytest.mark.parametrize("human", ["X", "O"])
@pytest.mark.parametrize("script", SCRIPTED)
def test_full_depth_alphabeta_never_loses_a_scripted_line(script: list[str], human: str) -> None:
    g = ev.play_game(human=human, threaded=False)
    while not g.match.over:
        square = next(s for s in script if parse_square(s) in g.board.legal)
        assert g.click(square)
    assert g.match.winner != human  # a draw, or the computer punished a mistake
    for entry in computer_entries(g):  # each computer move is its search's best move, with a trace to show
        assert entry.answer is not None and entry.answer.result is not None
        assert entry.answer.result.best_action == entry.action and entry.answer.result.trace is not None
    assert g.turn in ("Draw.", f"The computer wins ({g.match.outcome()}).")


def test_random_people_never_beat_full_depth_alphabeta() -> None:
    rng = random.Random(1)
    for _ in range(12):
        g = ev.play_game(human=rng.choice("XO"), threaded=False)
        while not g.match.over:
            g.click(rng.choice(g.board.legal))
        assert g.match.winner != g.match.human


def test_the_board_the_log_and_the_last_move() -> None:
    g = ev.play_game(threaded=False)
    assert g.board.view["cells"] == [""] * 9 and g.board.legal == list(range(9)) and g.board.view["last"] == -1
    assert g.turn == "Your move (X): click a square" and g.board.title.startswith("Tic-tac-toe: you play X")
    assert g.click("b2")
    reply = computer_entries(g)[0]
    view = g.board.view
    assert view["cells"][4] == "X" and view["cells"][reply.action] == "O" and view["last"] == reply.action
    assert g.status.startswith("You played b2. O played ") and "(alphabeta, value 0, " in g.status
    assert g.board.log == ["You: X b2", reply.line()] and reply.line().startswith("Computer: O ")
    assert g.board.can_show and not g.board.showing and g.board.mover == "X"


# ---------------------------------------------------------------- coin flips


def first_legal_game(seed: int) -> list[str]:
    g = ev.play_game("coinflip-tictactoe", seed=seed, depth=3, threaded=False)
    while not g.match.over:
        g.click(g.board.legal[0])
    return [entry.line().split(" (")[0] for entry in g.history]


def test_a_seeded_coin_flip_game_is_reproducible() -> None:
    first = first_legal_game(5)
    assert first == first_legal_game(5)
    coins = [line for line in first if line.startswith("Coin: ")]
    assert coins and all(
        line == "Coin: tails — no block" or (line.startswith("Coin: heads — ") and line.endswith(" is blocked"))
        for line in coins
    )
    assert any(first_legal_game(seed) != first for seed in (6, 7, 8))


def test_coin_flip_defaults_and_the_blocked_squares() -> None:
    g = ev.play_game("coinflip-tictactoe", seed=11, threaded=False)
    assert g.algorithm == "expectiminimax" and g.depth == play_module.COINFLIP_DEPTH and g.match.table
    assert g.board.algorithms == ["expectiminimax", "star1", "star2"]
    while not g.match.over:
        g.click(g.board.legal[-1])
    blocked = [e.action for e in g.history if e.by == "coin" and e.action is not None]
    assert all(g.board.view["cells"][s] == "#" for s in blocked)
    assert "#" in g.board.view["cells"] or not blocked
    for entry in computer_entries(g):  # "depth 6" unless the search looked to the end of the game anyway
        assert entry.answer is not None
        assert entry.answer.summary().startswith("expectiminimax, depth 6, ") != entry.answer.complete


def test_you_choose_the_block_when_the_opponent_blocks() -> None:
    game = ev.games.coinflip_tictactoe(blocker="opponent")
    g = ev.play_game(game, human="O", threaded=False)
    assert g.board.algorithms == list(ev.ALGORITHMS) and g.algorithm == "alphabeta"
    assert [e.by for e in g.history] == ["computer"]  # X moved; O blocks a square, or none
    assert g.match.blocking and "no block" in g.board.legal
    assert g.turn.startswith("Your choice (O): click a square to block")
    assert g.no_block() and g.history[-1].text == "no block"
    assert g.match.humans_turn and not g.match.blocking and "no block" not in g.board.legal  # now O's mark
    assert not g.no_block() and g.notice == "Choose a square."
    assert g.click(g.board.legal[0])
    # the computer blocked (or not) after O's move, then moved: two searches in a row
    assert [e.by for e in g.history] == ["computer", "you", "you", "computer", "computer"]
    assert g.history[3].text.startswith(("block ", "no block")) and g.match.blocking
    block = g.board.legal[0]
    assert g.click(block) and g.history[-1].text == f"block {square_name(block)}"
    assert g.board.view["cells"][block] == "#" and g.match.humans_turn and not g.match.blocking


# ---------------------------------------------------------------- refusals


def test_illegal_clicks_are_refused_with_a_reason() -> None:
    g = ev.play_game(threaded=False)
    g.click("b2")
    taken = computer_entries(g)[0].action
    assert not g.click(4) and g.notice == "b2 is taken (X): choose an empty square."
    assert not g.click(taken) and "is taken (O)" in g.notice
    assert not g.click(9) and g.notice.startswith("There is no square 9")
    assert not g.click("d4") and "'d4' is not a square" in g.notice
    assert not g.click(True) and g.notice.startswith("A square is a number 0-8")  # type: ignore[arg-type]
    assert g.board.view["cells"].count("") == 7  # nothing was played
    assert g.click("a3") and g.notice == ""  # a legal click clears the notice


def test_clicks_after_the_end_are_refused() -> None:
    g = ev.play_game(ev.games.tictactoe("XX./OO./..."), threaded=False)
    assert g.click("c1") and g.match.winner == "X" and g.turn == "You win! (X wins (a1 b1 c1))"
    assert g.board.view["line"] == [0, 1, 2] and g.board.legal == [] and not g.board.can_move
    assert not g.click("a3") and g.notice.startswith("The game is over (X wins")
    g.new_game()
    assert g.state == ev.games.tictactoe("XX./OO./...").initial and g.history == []


def test_options_are_checked() -> None:
    for kwargs, fragment in [
        ({"game": "chess"}, "no game is called 'chess'"),
        ({"human": "Z"}, "human must be 'X'"),
        ({"depth": 0}, "depth must be a whole number >= 1"),
        ({"game": "coinflip-tictactoe", "algorithm": "alphabeta"}, "no rule for chance nodes"),
        ({"algorithm": "negamax"}, "unknown algorithm 'negamax'"),
        ({"time_limit": 1}, "add iterative=True"),
        ({"game": ev.textbook("aima-fig-5.2")}, "play_game plays tic-tac-toe"),
        ({"game": ev.games.tictactoe("XXX/OO./...")}, "already over"),
        ({"seed": "x"}, "seed must be a whole number"),
    ]:
        with pytest.raises(OptionError, match=fragment.replace("(", r"\(")):
            ev.play_game(threaded=False, **kwargs)


# ---------------------------------------------------------------- the background search, Stop


@pytest.fixture
def quick_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play_module, "PROGRESS_SECONDS", 0.02)


def stop_when(widget: PlayGame, nodes: int) -> threading.Event:
    """Press Stop from the search's own progress report once it has searched ``nodes`` nodes (no race)."""
    pressed = threading.Event()

    def watch(change: dict[str, Any]) -> None:
        if change["new"] >= nodes and not pressed.is_set():
            pressed.set()
            widget.stop()

    widget.board.observe(watch, names="nodes")
    return pressed


def slow_game(**kwargs: Any) -> PlayGame:
    """The computer (X) searches coin-flip tic-tac-toe to the end from the empty board: seconds, traced."""
    return ev.play_game("coinflip-tictactoe", human="O", depth=None, **kwargs)


def test_stop_ends_a_slow_search_and_the_widget_recovers(quick_progress: None) -> None:
    g = slow_game()
    pressed = stop_when(g, 20_000)
    assert g.wait(30) and pressed.is_set()
    assert g.board.view["cells"] == [""] * 9 and g.match.history == []
    assert g.status.startswith("Stopped after ") and "no move" in g.status
    assert g.board.can_move and not g.board.thinking and g.turn == "X to move: press “Computer move”"
    assert not g.click("b2") and g.notice == "It is X's turn: press “Computer move”."
    g.depth = 2
    assert g.computer_move() and g.wait(30)
    assert g.board.view["cells"].count("X") == 1 and g.match.humans_turn and "depth 2" in g.status


def test_stop_with_iterative_deepening_plays_the_deepest_finished_depth(quick_progress: None) -> None:
    g = ev.play_game("coinflip-tictactoe", human="O", depth=None, iterative=True)
    stop_when(g, 30_000)  # depths 1 to 4 take 5,540 nodes, depth 5 another 15,859
    assert g.wait(30)
    answer = computer_entries(g)[0].answer
    assert answer is not None and answer.stopped == "stopped" and answer.reached is not None
    assert answer.reached >= 4 and answer.result is not None and answer.result.best_action == g.history[0].action
    assert g.status.startswith(f"Stopped during depth {answer.reached + 1}: X played ")
    assert f"the best move at depth {answer.reached}" in g.status and g.match.humans_turn


def test_a_time_limit_stops_iterative_deepening() -> None:
    g = ev.play_game("coinflip-tictactoe", human="O", depth=None, iterative=True, time_limit=0.2, threaded=False)
    answer = computer_entries(g)[0].answer
    assert answer is not None and answer.stopped == "time" and answer.seconds < 2
    assert g.status.startswith("Out of time during depth ")


def test_the_kernel_stays_free_while_the_computer_thinks(quick_progress: None) -> None:
    started = time.perf_counter()
    g = slow_game()
    assert time.perf_counter() - started < 1  # the search runs in its own thread
    assert g.thinking and g.turn == "X is thinking…" and g.board.thinking
    seen: list[int] = []
    g.board.observe(lambda change: seen.append(change["new"]), names="nodes")
    deadline = time.monotonic() + 20
    while not any(seen) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert any(n > 0 for n in seen)  # progress arrives while the main thread is free
    assert not g.click("a1") and g.notice.startswith("Wait: X is thinking")
    g.new_game("X")  # drops the search: a new game as X
    assert g.wait(30) and g.match.humans_turn and g.board.view["cells"] == [""] * 9 and not g.thinking
    assert g.click("a1") and g.wait(30) and g.board.view["cells"].count("O") == 1


def test_a_failed_search_is_said_and_the_person_chooses_again(monkeypatch: pytest.MonkeyPatch) -> None:
    g = ev.play_game(human="O", threaded=False, depth=None, algorithm="minimax")
    assert g.board.view["cells"].count("X") == 1
    ev.options.max_events = 1_000
    try:
        g.click(perfect(g.match.game, g.state))
    finally:
        ev.options.reset()
    assert g.status.startswith("The search failed: ") and "max_events" in g.status
    assert g.board.can_move and "Computer move" in g.notice
    assert g.computer_move() and g.board.view["cells"].count("X") == 2


# ---------------------------------------------------------------- the player, the display, the browser's messages


def test_show_the_search_opens_the_same_player_below_the_board() -> None:
    g = ev.play_game(threaded=False)
    assert not g.show_search() and "no search to show" in g.notice
    g.click("b2")
    assert g.show_search() and g.wait(30)
    from expectviz.render.widget import Player

    assert isinstance(g.player, Player) and g.widget.children == (g.board, g.player)
    assert g.player.trace is g.result.trace and g.player.step == len(g.player.trace)  # opened at the end
    assert g.board.showing and g.board.shown.startswith("The search behind O ")
    g.hide_search()
    assert g.player is None and g.widget.children == (g.board,) and not g.board.showing
    g.show_search()
    g.click(next(s for s in g.board.legal))  # the next computer move closes the old search's player
    assert g.player is None and g.board.can_show


def test_show_the_search_in_the_background() -> None:
    g = ev.play_game(human="O")
    assert g.wait(30)
    assert g.show_search()
    assert g.wait(60) and g.player is not None and g.board.showing and not g.board.opening


def test_the_browsers_messages_and_pickers() -> None:
    g = ev.play_game(threaded=False)
    g._on_message(g.board, {"type": "click", "square": 4}, [])
    assert g.board.view["cells"][4] == "X"
    g._on_message(g.board, {"type": "click", "square": "4"}, [])  # not a square number: ignored
    g._on_message(g.board, {"type": "show"}, [])
    assert g.player is not None
    g._on_message(g.board, {"type": "show"}, [])  # the same button hides it
    assert g.player is None
    g.board.algorithm = "minimax"  # as the browser sets it
    assert g.algorithm == "minimax" and g.notice == "The computer now plays minimax to the end."
    g.board.depth = 3
    assert g.depth == 3 and g.board.depth == 3
    g.board.depth = 0
    assert g.depth is None
    g._on_message(g.board, {"type": "new"}, [])
    assert g.board.view["cells"] == [""] * 9
    g.board.human = "O"  # choosing a side starts a new game, the computer moving first
    assert g.match.human == "O" and g.board.view["cells"].count("X") == 1 and g.board.human == "O"
    c = ev.play_game("coinflip-tictactoe", threaded=False)
    c.board.algorithm = "alphabeta"  # not offered for coin flips; refused and put back
    assert c.algorithm == "expectiminimax" and c.board.algorithm == "expectiminimax"
    assert "no rule for chance nodes" in c.notice


def test_a_saved_notebook_shows_the_board_and_the_status() -> None:
    g = ev.play_game(threaded=False)
    g.click("b2")
    bundle = g._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"] == repr(g) == "PlayGame(tictactoe, you play X, alphabeta to the end: X to move)"
    page = bundle["text/html"]
    assert page.count("<svg") == 1 and "You played b2. O played " in page and "<li>You: X b2</li>" in page


def test_ev_play_is_still_the_player_after_the_game_module_is_imported() -> None:
    import expectviz.render

    assert callable(ev.play) and ev.play.__module__ == "expectviz.render"
    assert expectviz.render.play is ev.play  # the widget module does not hide the player function
    assert ev.play_game is play_module.play_game


def test_match_without_a_widget() -> None:
    m = Match("coinflip-tictactoe", seed=2, depth=2, trace=False)
    assert m.mover == "X" and m.humans_turn and m.legal() == list(range(9))
    added = m.play("a1")
    assert [e.by for e in added] == ["you", "coin"] and m.computers_turn
    answer = m.think()
    assert answer.result is not None and answer.result.trace is None and answer.nodes > 0
    assert m.answer(answer)[0].by == "computer"
    with pytest.raises(OptionError, match="not the computer's turn"):
        m.answer(answer)


# ---------------------------------------------------------------- Pig

PIG_ROLL = re.compile(
    r"^(MAX|MIN) rolled ([1-6])(: turn over(, \d+ points? lost)?|: turn total \d+|: \d+ points, \1 wins)$"
)


def replay(game: Any, history: list[Any]) -> Any:
    """The state after the history's moves and chance events, each checked legal on the way (the game's own rules)."""
    state = game.initial
    for entry in history:
        if entry.chance:
            assert game.to_move(state) == ev.CHANCE
            assert entry.action in [outcome for outcome, _ in game.chance_outcomes(state)]
        else:
            assert game.to_move(state) in (ev.MAX, ev.MIN) and entry.action in game.actions(state)
            assert entry.text == game.move_label(state, entry.action)
        state = game.result(state, entry.action)
    return state


def timeless(widget: PlayGame) -> list[str]:
    """The game's log without the searches' summaries (their times vary)."""
    return [entry.line().split(" (")[0] for entry in widget.history]


def pig_game(seed: int, human: str = "MAX", hold_at: int = 5) -> PlayGame:
    """A whole game of Pig (to 10): the person rolls until the turn total reaches ``hold_at``, then holds."""
    g = ev.play_game("pig", human=human, seed=seed, threaded=False)
    while not g.match.over:
        assert g.match.humans_turn and not g.thinking
        assert g.click("hold" if g.match.game.turn_total(g.state) >= hold_at else "roll")
    return g


def test_a_seeded_game_of_pig_is_reproducible_and_legal() -> None:
    g = pig_game(4)
    assert timeless(g) == timeless(pig_game(4))  # the same seed, the same game
    assert any(timeless(g) != timeless(pig_game(seed)) for seed in (5, 6, 7))
    assert replay(g.match.game, g.history) == g.state  # every move and roll legal, in order
    rolls = [entry for entry in g.history if entry.chance]
    assert rolls and all(entry.by == "die" and PIG_ROLL.match(entry.text) for entry in rolls)
    assert {entry.by for entry in g.history} == {"you", "computer", "die"}  # the computer decided too
    for entry in computer_entries(g):  # each computer decision is its search's best move, traced
        assert entry.answer is not None and entry.answer.result is not None
        assert entry.answer.result.best_action == entry.action and entry.answer.result.trace is not None
        assert entry.answer.summary().startswith(f"expectiminimax, depth {boards.PIG_DEPTH}, ")
    winner = g.match.winner
    assert winner in ("MAX", "MIN") and g.match.game.scores(g.state)[0 if winner == "MAX" else 1] >= 10
    assert g.turn in (f"You win! ({g.match.outcome()})", f"The computer wins ({g.match.outcome()}).")
    assert re.fullmatch(r"(MAX|MIN) wins, \d+ to \d+", g.match.outcome())


def test_pig_shows_the_scores_the_turn_total_and_the_die() -> None:
    g = ev.play_game("pig", seed=0, threaded=False)  # seed 0: the first roll is a 6
    assert g.board.title == "Pig, first to 10: you play MAX, the computer plays MIN"
    assert g.board.view == {
        "kind": "pig",
        "target": 10,
        "names": ["MAX", "MIN"],
        "scores": [0, 0],
        "turn_total": 0,
        "player": 0,
        "die": 0,
        "roll": "",
        "buttons": [["roll", "Roll"], ["hold", "Hold"]],
    }
    assert g.board.legal == ["roll"] and g.turn == "Your turn (MAX): press Roll" and g.board.sides == ["MAX", "MIN"]
    assert g.algorithm == "expectiminimax" and g.depth == boards.PIG_DEPTH and g.match.table
    assert g.board.depths[0] == [1, "1"] and [0, "to the end"] not in g.board.depths  # Pig has no end to search to
    assert g.click("roll")
    roll = g.history[-1]
    assert (roll.by, roll.action, roll.text) == ("die", 6, "MAX rolled 6: turn total 6")
    view = g.board.view
    assert view["die"] == roll.action and view["roll"] == roll.text and view["turn_total"] >= roll.action
    assert g.board.legal == ["roll", "hold"] and g.turn == "Your turn (MAX): press Roll or Hold"
    assert g.status.endswith(f"{roll.text}.") and g.board.log[-1] == roll.text
    total, before = g.match.game.turn_total(g.state), g.match.game.scores(g.state)[0]
    assert g.click("hold")
    held = next(entry for entry in g.history if entry.by == "you" and entry.action == "hold")
    assert held.text == f"MAX holds {total}" and g.match.game.scores(g.state)[0] == before + total
    assert g.status.startswith(f"You held: {total} points banked, {before + total} to ")  # then the computer's turn


def test_pig_refuses_what_the_rules_forbid() -> None:
    g = ev.play_game("pig", seed=2, threaded=False)
    assert not g.click("hold") and g.notice == "You cannot hold with a turn total of 0: roll first."
    assert not g.click("b2") and g.notice == "'b2' is not a move in Pig: roll or hold."
    assert not g.click(3) and g.notice == "3 is not a move in Pig: roll or hold."
    assert g.history == [] and g.board.view["turn_total"] == 0  # nothing happened
    assert g.click("r") and g.notice == ""  # "r" is roll, as in the terminal
    m = Match("pig", human="MIN", seed=2, trace=False)
    assert m.computers_turn and m.refusal("roll") == "it is MAX's turn, not yours"
    with pytest.raises(OptionError, match="can go on for ever, so the computer needs a depth limit"):
        ev.play_game("pig", depth=None, threaded=False)
    with pytest.raises(OptionError, match=r"human must be 'MAX' \(moves first\) or 'MIN', not 'Z'"):
        ev.play_game("pig", human="Z", threaded=False)


def test_pig_as_min_and_the_browsers_buttons() -> None:
    g = ev.play_game("pig", human="min", seed=4, threaded=False)  # the computer (MAX) starts, and rolls a 1
    assert g.match.human == "MIN" and g.board.human == "MIN" and computer_entries(g)
    assert g.match.humans_turn and g.board.view["player"] == 1
    g._on_message(g.board, {"type": "click", "button": "roll"}, [])  # as the Roll button sends it
    rolled = next(i for i, entry in enumerate(g.history) if entry.by == "you")
    assert g.history[rolled].action == "roll" and g.history[rolled + 1].by == "die"
    g._on_message(g.board, {"type": "click", "button": "jump"}, [])  # no such button: ignored
    assert g.notice == ""
    g.board.human = "MAX"  # the side menu starts a new game
    assert g.match.human == "MAX" and g.history == [] and g.board.legal == ["roll"]


# ---------------------------------------------------------------- Dice

DIE_LINE = re.compile(r"^Die for (X|O): (\d) — (column [a-e]|row [1-5])$")


def dice_game(seed: int) -> PlayGame:
    """A whole game of Dice on 3x3: the person clicks the first square the die allows."""
    g = ev.play_game("dice", seed=seed, threaded=False)
    while not g.match.over:
        assert g.match.humans_turn and g.board.legal
        assert g.click(g.board.legal[0])
    return g


def test_a_seeded_game_of_dice_is_reproducible_and_legal() -> None:
    g = dice_game(3)
    assert timeless(g) == timeless(dice_game(3))
    assert any(timeless(g) != timeless(dice_game(seed)) for seed in (4, 5, 6))
    assert g.history[0].by == "die"  # the game starts with X's roll
    assert replay(g.match.game, g.history) == g.state  # each move in the rolled line (the game's actions say so)
    for entry in g.history:
        if entry.chance:
            found = DIE_LINE.match(entry.text)
            assert found is not None and int(found.group(2)) == entry.action + 1
    for entry in computer_entries(g):
        assert entry.answer is not None and entry.answer.result is not None
        assert entry.answer.result.best_action == entry.action
    outcome = g.match.outcome()
    assert outcome == "Draw" or re.fullmatch(r"[XO] wins \([a-c][1-3]( [a-c][1-3]){2}\)", outcome)


def test_dice_highlights_the_rolled_line_and_refuses_the_others() -> None:
    g = ev.play_game("dice", seed=0, threaded=False)
    assert g.algorithm == "expectiminimax" and g.depth == boards.DICE_DEPTH
    column = g.history[-1].action
    line = f"column {'abc'[column]}"
    view = g.board.view
    assert view["kind"] == "grid" and (view["rows"], view["cols"]) == (3, 3)
    assert view["lit"] == {"line": "column", "index": column}
    assert view["die"] == {"face": column + 1, "text": line, "by": "X"}
    assert g.board.legal == [column, column + 3, column + 6]  # the column's squares, top to bottom
    assert g.turn == f"Your move (X): click a square in {line}"
    other = (column + 1) % 3
    assert not g.click(other)
    assert g.notice == f"{'abc'[other]}1 is not in {line}: the die chose {line} for X, so play there."
    assert not g.click("d1") and g.notice.startswith("'d1' is not a square; the squares are a1 to c3")
    assert g.click(column) and g.notice == ""
    assert [e.by for e in g.history] == ["die", "you", "die", "computer", "die"]  # you, O's roll and move, X's roll
    assert g.history[2].text.startswith("Die for O: ")
    assert g.status.startswith(f"You played {'abc'[column]}1. Die for O: ")


def test_a_full_line_lets_you_play_anywhere() -> None:
    g = ev.play_game(dice("XO./OX./X.O", roll=1), threaded=False)
    assert g.board.legal == [2, 5, 7] and g.turn == "Your move (X): column a is full, so click any empty square"


def test_dice_on_five_by_five() -> None:
    g = ev.play_game("dice-5x5", seed=1, depth=2, threaded=False)
    assert g.board.title == "Dice 5×5, four in a row: you play X, the computer plays O"
    assert (g.board.view["rows"], g.board.view["cols"]) == (5, 5) and len(g.board.legal) == 5
    assert Match("dice-5x5", trace=False).depth == boards.DICE_5X5_DEPTH
    for _ in range(3):
        assert g.click(g.board.legal[-1])
    assert g.board.view["cells"].count("X") == 3 and g.board.view["cells"].count("O") == 3
    assert g.board.view["last"] == computer_entries(g)[-1].action
    page = g.static_html()
    assert "<svg" in page and "Die for X: " in page


def test_the_games_by_name() -> None:
    assert sorted(play_module.game_names()) == ["coinflip-tictactoe", "dice", "dice-5x5", "pig", "tictactoe"]
    with pytest.raises(OptionError, match="no game is called 'chess'; the games are "):
        Match("chess")
    assert repr(ev.play_game("pig", threaded=False)) == (
        f"PlayGame(pig, you play MAX, expectiminimax to depth {boards.PIG_DEPTH}: MAX to move)"
    )
