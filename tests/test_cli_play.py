"""``expectviz play``: a game in the terminal, moves read from stdin, one-line errors with status 2."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import expectviz as ev
from expectviz.cli import main
from expectviz.games.tictactoe import square_name

COMPUTER = re.compile(r"^O plays ([a-c][1-3]) \(alphabeta, value (-?\d+), ([\d,]+) nodes?, \d+ ms\)$", re.MULTILINE)


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str, *args: str) -> Any:
    """Run ``expectviz play ARGS`` in this process with ``stdin``; returns (status, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(["play", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_move_and_quit(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = play(monkeypatch, capsys, "b2\nquit\n", "tictactoe")
    assert (status, err) == (0, "")
    assert out.startswith("Tic-tac-toe: you play X, the computer plays O with alphabeta to the end.\n")
    assert "    a b c\n  1 . . .\n  2 . . .\n  3 . . .\nYour move (X): b2\n" in out  # the board, the echoed move
    answer = COMPUTER.search(out)
    assert answer is not None, out
    square, value, nodes = answer.groups()
    expected = ev.alphabeta(ev.games.tictactoe(".../.X./..."), trace=False)
    assert (f"O {square}", int(value), int(nodes.replace(",", ""))) == (
        expected.best_move,
        expected.value,
        expected.stats.nodes_visited,
    )
    board = out.split(answer.group(0) + "\n")[1].splitlines()[2:5]  # a blank line, the letters, then the rows
    row, column = int(square[1]) - 1, "abc".index(square[0])
    assert board[row].split()[1 + column] == "O" and board[1].split()[2] == "X"
    assert out.endswith("Your move (X): quit\n")


def test_numbers_name_squares_too(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = play(monkeypatch, capsys, "5\n", "tictactoe")
    assert status == 0 and "  2 . X .\n" in out.split("O plays")[1]  # 5 is b2, the centre


def test_bad_input_reprompts_with_a_reason(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = play(monkeypatch, capsys, "zz\n0\nd4\n\nb2\nb2\n", "tictactoe")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert "'zz' is not a square: type a1 to c3 (or 1 to 9), or quit" in lines
    assert "'0' is not a square: type a1 to c3 (or 1 to 9), or quit" in lines
    assert "'d4' is not a square: type a1 to c3 (or 1 to 9), or quit" in lines
    assert "'' is not a square: type a1 to c3 (or 1 to 9), or quit" in lines
    assert "b2 is taken (X): choose an empty square" in lines
    assert out.count("O plays ") == 1  # only the one legal move was answered
    assert out.count("Your move (X): ") == 7  # six lines read, then the end of input


def test_the_end_of_input_ends_the_game(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = play(monkeypatch, capsys, "", "tictactoe")
    assert (status, err) == (0, "") and out.endswith("Your move (X): \n")
    status, out, _ = play(monkeypatch, capsys, "a1", "tictactoe")  # a last line without a newline
    assert status == 0 and "Your move (X): a1\nO plays " in out


def test_a_whole_game_to_a_draw(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # the person (O) answers with a perfect player's moves, worked out here beforehand
    game = ev.games.tictactoe()
    state, moves = game.initial, []
    while not game.is_terminal(state):
        best = ev.alphabeta(ev.games.tictactoe(game.position(state)), trace=False).best_action
        if game.to_move(state) == ev.MIN:
            moves.append(square_name(best))
        state = game.result(state, best)
    status, out, _ = play(monkeypatch, capsys, "\n".join(moves) + "\n", "tictactoe", "--human", "o")
    assert status == 0 and out.rstrip().endswith("Draw.")
    assert out.startswith("Tic-tac-toe: you play O, the computer plays X with alphabeta to the end.\n")
    assert out.count("X plays ") == 5


def test_coin_flips_are_printed_and_seeded(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    moves = "a1\nb1\nc1\na2\nb2\nc2\na3\nb3\nc3\n" * 2  # the first empty one of these is legal each turn
    runs = [play(monkeypatch, capsys, moves, "coinflip-tictactoe", "--depth", "2", "--seed", "4") for _ in range(2)]
    (status, out, err), again = runs
    timeless = [re.sub(r"\d+ ms\)", "ms)", text) for text in (out, again[1])]
    assert status == 0 and err == "" and timeless[0] == timeless[1]  # the same seed, the same game
    assert "with expectiminimax to depth 2." in out.splitlines()[0]
    coins = [line for line in out.splitlines() if line.startswith("Coin: ")]
    assert coins and all(re.fullmatch(r"Coin: (tails — no block|heads — [a-c][1-3] is blocked)", c) for c in coins)
    assert re.search(r"^O plays [a-c][1-3] \(expectiminimax, depth 2, value ", out, re.MULTILINE)


def test_a_starting_position_and_an_algorithm(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = play(monkeypatch, capsys, "quit\n", "tictactoe", "--position", "XX./OO./...", "-a", "minimax")
    assert status == 0 and "  1 X X .\n  2 O O .\n" in out and "minimax to the end" in out
    status, out, _ = play(monkeypatch, capsys, "c1\n", "tictactoe", "--position", "XX./OO./...")
    assert status == 0 and out.rstrip().endswith("X wins (a1 b1 c1): you win.")
    status, out, _ = play(monkeypatch, capsys, "", "tictactoe", "--human", "O", "--position", "XX./OO./...")
    assert "X plays c1 (alphabeta, value 1, " in out and out.rstrip().endswith("X wins (a1 b1 c1): the computer wins.")


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["chess"], "argument GAME: invalid choice: 'chess'"),
        (["tictactoe", "--depth", "0"], "argument --depth: must be 1 or more, or 'end'"),
        (["tictactoe", "--human", "Z"], "argument --human: invalid choice: 'Z'"),
        (["tictactoe", "--position", "XX./.../..."], "X has 2 marks and O has 0"),
        (["tictactoe", "--position", "XXX/OO./..."], "already over"),
        (["coinflip-tictactoe", "-a", "alphabeta"], "no rule for chance nodes"),
        (["tictactoe", "--seed", "x"], "argument --seed: invalid int value: 'x'"),
        (["tictactoe", "--html", "a\0b.html"], "--html 'a\\x00b.html' cannot be a file name (it holds a NUL"),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(
    args: list[str], fragment: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = play(monkeypatch, capsys, "b2\n", *args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("expectviz: error: ") and fragment in err, err


def test_ctrl_c_is_status_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from expectviz.render.play_game import Match

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Match, "think", interrupted)
    status, out, err = play(monkeypatch, capsys, "b2\n", "tictactoe")
    assert (status, err) == (130, "expectviz: interrupted\n") and "Your move (X): b2\n" in out


def test_html_writes_the_last_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is missing (the page draws the tree)")
    page = tmp_path / "search.html"
    status, out, err = play(monkeypatch, capsys, "b2\na3\n", "tictactoe", "--html", str(page))
    assert (status, err) == (0, "")
    last = re.findall(r"^O plays ([a-c][1-3]) ", out, re.MULTILINE)[-1]
    assert out.rstrip().endswith(f"wrote {page} (the search behind O {last})")
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and "alphabeta" in text


def test_html_without_a_computer_move_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "search.html"
    status, out, err = play(monkeypatch, capsys, "quit\n", "tictactoe", "--html", str(page))
    assert status == 2 and not page.exists()
    assert err == f"expectviz: error: --html '{page}': the computer made no move, so there is no search to write\n"


def test_the_command_in_a_pipe() -> None:
    """As a script would use it: ``printf 'b2\\nquit\\n' | python -m expectviz play tictactoe``."""
    done = subprocess.run(
        [sys.executable, "-m", "expectviz", "play", "tictactoe"],
        input=b"b2\nzz\nquit\n",
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == b""
    out = done.stdout.decode()
    assert "Your move (X): b2\n" in out and COMPUTER.search(out) and "'zz' is not a square" in out
    helped = subprocess.run([sys.executable, "-m", "expectviz", "play", "--help"], capture_output=True, timeout=60)
    assert helped.returncode == 0 and b"--human {X,O,MAX,MIN}" in helped.stdout and b"--html FILE" in helped.stdout


# ---------------------------------------------------------------- Pig and Dice


def test_pig_in_the_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    moves = "hold\nzz\nroll\nr\n" + "roll\n" * 12  # a refused hold, a bad word, then roll on
    runs = [play(monkeypatch, capsys, moves, "pig", "--seed", "4") for _ in range(2)]
    (status, out, err), again = runs
    assert (status, err) == (0, "")
    timeless = [re.sub(r"\d+ ms\)", "ms)", text) for text in (out, again[1])]
    assert timeless[0] == timeless[1]  # the same seed, the same rolls
    lines = out.splitlines()
    assert lines[0] == "Pig, first to 10: you play MAX, the computer plays MIN with expectiminimax to depth 12."
    assert lines[1] == "Type roll (r) or hold (h); 'quit' to stop."
    assert "  MAX   0    MIN   0    (first to 10)" in lines and "  MAX to play, turn total 0" in lines
    assert "Roll or hold (MAX, turn total 0): hold" in lines
    assert "You cannot hold with a turn total of 0: roll first" in lines
    assert "'zz' is not a move: type roll (r) or hold (h), or quit" in lines
    rolls = [line for line in lines if re.match(r"(MAX|MIN) rolled [1-6]", line)]
    assert rolls and rolls[0] == "MAX rolled 2: turn total 2"
    assert re.search(r"^MIN chooses to roll \(expectiminimax, depth 12, value ", out, re.MULTILINE)
    assert re.search(r"^(MAX|MIN) wins, \d+ to \d+: (you|the computer) wins?\.$", out, re.MULTILINE)


def test_pig_as_min_with_a_position(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    position = "MAX 8, MIN 6, MIN to play, turn total 3"
    status, out, _ = play(
        monkeypatch, capsys, "hold\n", "pig", "--human", "min", "--position", position, "--depth", "4"
    )
    assert status == 0 and "you play MIN, the computer plays MAX with expectiminimax to depth 4." in out
    assert "  MAX   8    MIN   6    (first to 10)\n  MIN to play, turn total 3\n" in out
    assert "Roll or hold (MIN, turn total 3): hold\n" in out and "MAX chooses to roll (expectiminimax, depth 4, " in out


def test_dice_in_the_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    squares = "a1\nb1\nc1\na2\nb2\nc2\na3\nb3\nc3\n" * 5  # the first empty square of the die's line is legal
    runs = [play(monkeypatch, capsys, squares, "dice", "--seed", "2", "--depth", "4") for _ in range(2)]
    (status, out, err), again = runs
    assert (status, err) == (0, "")
    assert re.sub(r"\d+ ms\)", "", out) == re.sub(r"\d+ ms\)", "", again[1])
    lines = out.splitlines()
    assert lines[0] == "Dice 3×3, three in a row: you play X, the computer plays O with expectiminimax to depth 4."
    assert lines[3] == "Die for X: 3 — column c"  # X's first roll, before the board
    assert lines[5:9] == ["    a b c", "  1 . . .", "  2 . . .", "  3 . . ."]
    assert "Your move (X, column c): a1" in lines
    assert "a1 is not in column c: the die chose column c for X, so play there" in lines
    assert all(re.fullmatch(r"Die for [XO]: [1-3] — (column [a-c]|row [1-3])", line) for line in lines if "Die" in line)
    assert re.search(r"^O plays [a-c][1-3] \(expectiminimax, (depth 4, )?value ", out, re.MULTILINE)
    assert re.search(r"^(Draw|[XO] wins \([a-c][1-3] [a-c][1-3] [a-c][1-3]\): (you|the computer) wins?)\.$", out, re.M)


def test_dice_on_five_by_five(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = play(monkeypatch, capsys, "25\nquit\n", "dice-5x5", "--depth", "2", "--seed", "1")
    assert status == 0 and "Type a square (a1 to e5, or 1 to 25 row by row from the top left)" in out
    assert "    a b c d e\n  1 . . . . .\n" in out


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["pig", "--depth", "end"], "Pig, first to 10 can go on for ever, so the computer needs a depth limit"),
        (["pig", "-a", "minimax"], "minimax has no rule for chance nodes, and pig has dice rolls"),
        (["pig", "--position", "MAX 5, MIN 3, MAX to play, turn total 7"], "position 1:"),
        (["dice", "--position", "X.O/.X./..O roll 4"], "X's die selects a column: its faces are 1 to 3"),
    ],
)
def test_bad_pig_and_dice_arguments(
    args: list[str], fragment: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = play(monkeypatch, capsys, "roll\n", *args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("expectviz: error: ") and fragment in err, err
