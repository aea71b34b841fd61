"""The game widget in a real JupyterLab 4 (and Notebook 7), driven by headless Chromium.

One JupyterLab server (tests/_lab.py) runs one notebook at 1280x800:

    [0] import expectviz as ev
        g = ev.play_game()                              # you play X against alpha-beta to the end
        g
    [1] slow = ev.play_game("coinflip-tictactoe", human="O", depth=None)   # seconds of search: Stop it
        slow
    [2] print(g.match.history[-1].answer.result.trace is g.player.trace)  # run by a test
    [3] pig = ev.play_game("pig", seed=0)                 # seed 0: the first roll is a 6
        pig
    [4] dice = ev.play_game("dice", seed=0)               # seed 0: X's die chooses column c
        dice

A person clicks b2, the computer's O appears, "Show the search" opens the step player below the board;
Stop ends a slow search while the kernel answers.  In Pig a person rolls (the die shows the face, the turn
total grows), holds, and the computer plays its turn; in Dice the die's column is lit, a square outside it is
refused and one inside it is played, and the computer answers.  Both are checked for clipping at 1280x800
and 1920x1080 (with ``EXPECTVIZ_PLAY_SHOTS=DIR`` their screenshots are saved there, to look at).  Notebook 7
then plays a move and opens the player.  Skips itself where Chromium, Playwright or Graphviz's dot is missing.
About 50 s.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _lab  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(_lab.chromium_path() is None, reason=f"no Chromium at {_lab.CHROMIUM}"),
]

TIMEOUT = 30_000  # ms, for each selector/expectation: the machine is shared and can be slow
GAME = ".jp-OutputArea-output .ev-game"
CELLS = [
    "import expectviz as ev\ng = ev.play_game()\ng",
    'slow = ev.play_game("coinflip-tictactoe", human="O", depth=None)\nslow',
    "print(g.match.history[-1].answer.result.trace is g.player.trace, len(g.player.trace))",
    'pig = ev.play_game("pig", seed=0)\npig',
    'dice = ev.play_game("dice", seed=0)\ndice',
]
SIZES = [(1280, 800), (1920, 1080)]
SHOTS = os.environ.get("EXPECTVIZ_PLAY_SHOTS")  # a folder: save the widgets' screenshots there


def _needs() -> None:
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    pytest.importorskip("nbformat", reason="nbformat is not installed")
    pytest.importorskip("anywidget", reason="anywidget is not installed")
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is missing (the player's diagrams need it)")


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    _needs()
    with _lab.browser() as instance:
        yield instance


def _open(app: str, chromium: Any, cells: list[str]) -> Iterator[Any]:
    with _lab.lab_server(app=app) as (base_url, root):
        page = _lab.new_page(chromium, width=1280, height=800, timeout_ms=TIMEOUT)
        _lab.write_notebook(root, "game.ipynb", cells)
        _lab.open_notebook(page, base_url, "game.ipynb", app=app)
        _lab.run_cell(page, 0)
        _lab.wait_for_outputs(page, f"{GAME} .ev-square", 9, timeout_ms=60_000)
        yield page
        page.context.close()


@pytest.fixture(scope="module")
def lab(chromium: Any) -> Iterator[Any]:
    """The JupyterLab page with the first cell run: a game, you to move."""
    yield from _open("lab", chromium, CELLS)


def square(game: Any, name: str) -> Any:
    """A square of the board by its accessible name, e.g. 'X to move: play b2'."""
    return game.get_by_role("button", name=name, exact=True)


def click_and_see_the_answer(page: Any, game: Any) -> None:
    """Click b2; the computer's O appears and the status says what it played."""
    expect = _expect()
    square(game, "X to move: play b2").click()
    expect(game.locator(".ev-square[data-cell='X']")).to_have_count(1, timeout=TIMEOUT)
    expect(game.locator(".ev-square[data-cell='O']")).to_have_count(1, timeout=TIMEOUT)
    expect(game.locator(".ev-status")).to_contain_text("You played b2. O played ", timeout=TIMEOUT)
    expect(game.locator(".ev-status")).to_contain_text("(alphabeta, value 0, ", timeout=TIMEOUT)
    expect(game.locator(".ev-turn")).to_have_text("Your move (X): click a square", timeout=TIMEOUT)
    assert game.get_by_role("button", name="b2: X").count() == 1  # no longer playable, says what is there
    assert game.locator(".ev-square.ev-last[data-cell='O']").count() == 1  # the computer's move is marked


def test_click_a_square_the_computer_answers_open_its_search(lab: Any) -> None:
    page, expect = lab, _expect()
    game = page.locator(GAME).first
    expect(game.locator(".ev-turn")).to_have_text("Your move (X): click a square", timeout=TIMEOUT)
    assert game.locator(".ev-square[aria-label^='X to move: play ']").count() == 9
    click_and_see_the_answer(page, game)
    show = game.get_by_role("button", name="Show the search", exact=True)
    expect(show).to_be_visible(timeout=TIMEOUT)
    show.click()
    player = _lab.wait_for_players(page, 1).first  # the step player, with its SVG, below the board
    expect(player.locator(".ev-canvas > svg")).to_be_visible(timeout=TIMEOUT)
    expect(player.locator(".ev-sentence")).to_contain_text("Step ", timeout=TIMEOUT)
    expect(game.get_by_role("button", name="Hide the search", exact=True)).to_be_visible(timeout=TIMEOUT)
    expect(game.locator(".ev-shown")).to_contain_text("The search behind O ", timeout=TIMEOUT)
    below = player.bounding_box()
    assert below["y"] >= game.bounding_box()["y"] + game.bounding_box()["height"] - 1  # below the board
    _lab.run_cell(page, 2)  # the player shows that move's traced search
    out = page.locator(".jp-Cell").nth(2).locator(".jp-OutputArea-output")
    expect(out).to_contain_text("True ", timeout=TIMEOUT)


def test_refused_click_says_why(lab: Any) -> None:
    page, expect = lab, _expect()
    game = page.locator(GAME).first
    game.get_by_role("button", name="b2: X").click(force=True)  # aria-disabled, yet a person can click it
    expect(game.locator(".ev-notice")).to_have_text("b2 is taken (X): choose an empty square.", timeout=TIMEOUT)


def test_stop_a_slow_search_while_the_kernel_answers(lab: Any) -> None:
    page, expect = lab, _expect()
    _lab.run_cell(page, 1)
    _lab.wait_for_outputs(page, f"{GAME} .ev-square", 18)
    slow = page.locator(GAME).nth(1)
    expect(slow.locator(".ev-turn")).to_have_text("X is thinking…", timeout=TIMEOUT)
    expect(slow.locator(".ev-count")).to_contain_text(" nodes so far", timeout=TIMEOUT)  # progress arrives
    slow.get_by_role("button", name="Stop", exact=True).click()
    expect(slow.locator(".ev-status")).to_contain_text("Stopped after ", timeout=TIMEOUT)
    expect(slow.locator(".ev-turn")).to_have_text("X to move: press “Computer move”", timeout=TIMEOUT)
    assert slow.locator(".ev-square[data-cell='X']").count() == 0
    slow.get_by_label("the computer's depth limit").select_option("2")  # choose again, smaller
    slow.get_by_role("button", name="Computer move", exact=True).click()
    expect(slow.locator(".ev-square[data-cell='X']")).to_have_count(1, timeout=TIMEOUT)
    expect(slow.locator(".ev-status")).to_contain_text("(expectiminimax, depth 2, ", timeout=TIMEOUT)
    expect(slow.locator(".ev-log li").first).to_contain_text("Computer: X ", timeout=TIMEOUT)


def game_of(page: Any, cell: int, title: str) -> Any:
    """The game widget whose title starts with ``title``, running its cell first if it is not there yet."""
    game = page.locator(GAME).filter(has=page.locator(".ev-game-title", has_text=title))
    if game.count() == 0:
        _lab.run_cell(page, cell)
    _expect()(game).to_have_count(1, timeout=TIMEOUT)
    return game


def test_pig_roll_shows_the_die_then_hold(lab: Any) -> None:
    page, expect = lab, _expect()
    pig = game_of(page, 3, "Pig, first to 10")
    expect(pig.locator(".ev-turn")).to_have_text("Your turn (MAX): press Roll", timeout=TIMEOUT)
    expect(pig.locator(".ev-pig-die")).to_have_attribute("aria-label", "no roll yet")
    hold = pig.get_by_role("button", name="Hold", exact=True)
    assert hold.get_attribute("aria-disabled") == "true"
    hold.click(force=True)  # aria-disabled, yet a person can click it: a turn total of 0 is refused, with why
    expect(pig.locator(".ev-notice")).to_have_text("You cannot hold with a turn total of 0: roll first.")
    pig.get_by_role("button", name="MAX: roll", exact=True).click()
    expect(pig.locator(".ev-pig-die")).to_have_attribute("aria-label", "the die shows 6", timeout=TIMEOUT)
    expect(pig.locator(".ev-pig-die .ev-die-pip")).to_have_count(6)  # a drawn face, six pips
    expect(pig.locator(".ev-pig-total-value")).to_have_text("6")
    expect(pig.locator(".ev-pig-roll")).to_have_text("MAX rolled 6: turn total 6")
    expect(pig.locator(".ev-log li").last).to_have_text("MAX rolled 6: turn total 6")
    expect(pig.locator(".ev-pig-score").first).to_have_text("0 + 6")
    expect(pig.locator(".ev-notice")).to_be_hidden()
    pig.get_by_role("button", name="MAX: hold", exact=True).click()  # the computer (MIN) rolls 5, 3, 2 and wins
    expect(pig.locator(".ev-status")).to_contain_text("You held: 6 points banked, 6 to 0.", timeout=TIMEOUT)
    expect(pig.locator(".ev-turn")).to_have_text("The computer wins (MIN wins, 10 to 6).", timeout=TIMEOUT)
    expect(pig.locator(".ev-log li.ev-log-computer")).to_have_count(3)
    expect(pig.locator(".ev-pig-score")).to_have_text(["6", "10"])
    expect(pig.locator(".ev-pig-roll")).to_have_text("MIN rolled 2: 10 points, MIN wins")
    expect(pig.get_by_role("button", name="Show the search", exact=True)).to_be_visible()


def test_dice_lights_the_rolled_column_and_the_computer_answers(lab: Any) -> None:
    page, expect = lab, _expect()
    dice = game_of(page, 4, "Dice 3×3")
    expect(dice.locator(".ev-turn")).to_have_text("Your move (X): click a square in column c", timeout=TIMEOUT)
    expect(dice.locator(".ev-die-text")).to_have_text("Die for X: 3 — column c")
    expect(dice.locator(".ev-die-box .ev-die-pip")).to_have_count(3)
    expect(dice.locator(".ev-square.ev-lit")).to_have_count(3)
    expect(dice.locator(".ev-coord.ev-lit")).to_have_text("c")
    assert dice.locator(".ev-square[aria-label^='X to move: play ']").count() == 3  # only column c is open
    dice.get_by_role("button", name="a1: empty", exact=True).click(force=True)  # outside the die's column
    expect(dice.locator(".ev-notice")).to_have_text(
        "a1 is not in column c: the die chose column c for X, so play there.", timeout=TIMEOUT
    )
    dice.get_by_role("button", name="X to move: play c1", exact=True).click()
    expect(dice.locator(".ev-square[data-cell='O']")).to_have_count(1, timeout=TIMEOUT)  # the computer's O (c3)
    expect(dice.locator(".ev-status")).to_contain_text("You played c1. Die for O: 3 — row 3. O played c3 (")
    expect(dice.locator(".ev-die-text")).to_have_text("Die for X: 2 — column b")  # X's next roll
    expect(dice.locator(".ev-coord.ev-lit")).to_have_text("b")
    expect(dice.locator(".ev-turn")).to_have_text("Your move (X): click a square in column b")
    assert dice.locator(".ev-square.ev-last[data-cell='O']").count() == 1


@pytest.mark.parametrize("width, height", SIZES)
def test_pig_and_dice_fit_the_page(lab: Any, width: int, height: int) -> None:
    """Nothing of either widget is clipped or overlaps, at a laptop's size and a desktop's."""
    page = lab
    page.set_viewport_size({"width": width, "height": height})
    try:
        for cell, title, name in ((3, "Pig, first to 10", "pig"), (4, "Dice 3×3", "dice")):
            game = game_of(page, cell, title)
            game.scroll_into_view_if_needed()
            page.wait_for_timeout(200)  # the notebook's layout settles
            problems = game.evaluate(
                """root => {
                    const out = [], box = root.getBoundingClientRect();
                    if (root.scrollWidth > root.clientWidth + 1) out.push(`scrolls sideways: ${root.scrollWidth}`);
                    const parts = root.querySelectorAll(
                        '.ev-play, .ev-game-side, .ev-square, .ev-die, .ev-input, .ev-pig-player, .ev-game-controls');
                    for (const el of parts) {
                        const r = el.getBoundingClientRect();
                        if (el.closest('[hidden]') || r.width === 0) continue;
                        if (r.left < box.left - 1 || r.right > box.right + 1) out.push(`${el.className} sticks out`);
                    }
                    const play = root.querySelector('.ev-play').getBoundingClientRect();
                    const side = root.querySelector('.ev-game-side').getBoundingClientRect();
                    const apart = play.right <= side.left || play.bottom <= side.top;
                    if (!apart) out.push('the game and the text beside it overlap');
                    return out;
                }"""
            )
            assert problems == [], f"{name} at {width}x{height}: {problems}"
            if SHOTS:
                os.makedirs(SHOTS, exist_ok=True)
                game.screenshot(path=os.path.join(SHOTS, f"{name}-{width}x{height}.png"))
                page.screenshot(path=os.path.join(SHOTS, f"{name}-{width}x{height}-page.png"))
    finally:
        page.set_viewport_size({"width": 1280, "height": 800})


def test_keys_stay_in_the_game(lab: Any) -> None:
    page = lab
    game = page.locator(GAME).first
    cells = page.evaluate("() => window.jupyterapp.shell.currentWidget.content.widgets.length")
    free = game.locator(".ev-square.ev-open").first
    free.focus()
    for key in ("ArrowRight", "ArrowDown", "a", "b", "d", "d"):  # "a"/"b" insert cells, "d d" deletes one
        page.keyboard.press(key)
    assert page.evaluate("() => window.jupyterapp.shell.currentWidget.content.widgets.length") == cells
    assert page.evaluate("() => document.activeElement.classList.contains('ev-square')")


def test_no_errors_in_the_page(lab: Any) -> None:
    assert lab.errors == [], f"JavaScript errors in the page: {lab.errors}"


def test_notebook_7_plays_too(chromium: Any) -> None:
    pytest.importorskip("notebook", reason="notebook (Notebook 7) is not installed")
    for page in _open("notebook", chromium, CELLS[:1]):
        game = page.locator(GAME).first
        click_and_see_the_answer(page, game)
        game.get_by_role("button", name="Show the search", exact=True).click()
        player = _lab.wait_for_players(page, 1).first
        _expect()(player.locator(".ev-canvas > svg")).to_be_visible(timeout=TIMEOUT)
        known = "Cannot read properties of undefined (reading 'schema')"  # Notebook 7.6, on any page with output
        assert [error for error in page.errors if error != known] == []
