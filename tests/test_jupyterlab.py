"""The player in a real JupyterLab, driven by headless Chromium: it renders, and its buttons and slider step it.

One JupyterLab server (tests/_lab.py: temporary root and settings, stopped by its PID at the end) runs one
notebook for the whole module:

    [1] import expectviz as ev
        r = ev.alphabeta("aima-fig-5.2")
        ev.play(r, step=13)            # the player at the cutoff at C (AIMA Fig. 5.5)
    [2] r                              # a bare Result shows the player too (at its last step)

Skips itself (with the reason) where Chromium or Playwright is missing.  About 20-30 s.
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import expectviz as ev

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _lab  # noqa: E402

pytestmark = pytest.mark.skipif(_lab.chromium_path() is None, reason=f"no Chromium at {_lab.CHROMIUM}")

TIMEOUT = 30_000  # ms, for each selector/expectation: the machine is shared and can be slow
TRACE = ev.alphabeta("aima-fig-5.2").trace
assert TRACE is not None
CUTOFF = 13  # alpha-beta's one cutoff on Fig. 5.2: at C, pruning c2 and c3

CELLS = [
    'import expectviz as ev\nr = ev.alphabeta("aima-fig-5.2")\nev.play(r, step=13)',
    "r",
]


def sentence(step: int) -> str:
    """The explanation the player shows at ``step``, as text."""
    return f"Step {step} of {len(TRACE)}. {TRACE.frame(step).explanation}"


@pytest.fixture(scope="module")
def lab() -> Iterator[tuple[Any, Any]]:
    """The page with the notebook run, and the locator of its two players."""
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    pytest.importorskip("nbformat", reason="nbformat is not installed")
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is missing (the diagrams need it)")
    with _lab.lab_server() as (base_url, root), _lab.browser() as chromium:
        page = _lab.new_page(chromium, timeout_ms=TIMEOUT)
        _lab.write_notebook(root, "player.ipynb", CELLS)
        _lab.open_notebook(page, base_url, "player.ipynb")
        _lab.run_all(page)
        players = _lab.wait_for_players(page, len(CELLS))
        yield page, players


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def explanation(player: Any) -> Any:
    """The sentence under the controls (the VBox's only direct HTML child)."""
    return player.locator(":scope > .widget-html")


def shown_step(player: Any) -> int:
    text = explanation(player).inner_text(timeout=TIMEOUT)
    match = re.match(r"Step (\d+) of", text)
    assert match, f"no step number in {text!r}"
    return int(match.group(1))


def button(player: Any, tooltip: str) -> Any:
    """An icon-only player button (no description) by its tooltip, the title attribute.

    Not by role and name: these buttons show only an icon, and their accessible name comes out empty.
    """
    return player.get_by_title(tooltip, exact=True)


def test_player_renders_at_the_cutoff(lab: tuple[Any, Any]) -> None:
    page, players = lab
    player = players.nth(0)
    svg = player.locator("svg").first
    _expect()(svg).to_be_visible(timeout=TIMEOUT)
    labels = svg.locator("text").all_text_contents()
    assert "C" in [t.strip() for t in labels], f"no node C among the SVG's texts: {labels[:20]}"
    _expect()(explanation(player)).to_contain_text("c2, c3", timeout=TIMEOUT)
    _expect()(explanation(player)).to_have_text(sentence(CUTOFF), timeout=TIMEOUT)
    # the side panel lists the call stack at the cutoff: A, then C
    _expect()(player).to_contain_text("Call stack", timeout=TIMEOUT)


def test_next_button_and_arrow_key(lab: tuple[Any, Any]) -> None:
    page, players = lab
    player = players.nth(0)
    k = shown_step(player)
    assert k < len(TRACE)
    button(player, "next step").click(timeout=TIMEOUT)
    _expect()(explanation(player)).to_have_text(sentence(k + 1), timeout=TIMEOUT)

    step_slider = player.locator(".widget-slider", has=page.locator("label", has_text=re.compile(r"^step$")))
    handle = step_slider.locator(".noUi-handle")
    handle.focus(timeout=TIMEOUT)
    page.keyboard.press("ArrowLeft")
    _expect()(explanation(player)).to_have_text(sentence(k), timeout=TIMEOUT)
    _expect()(handle).to_have_attribute("aria-valuetext", str(k), timeout=TIMEOUT)


def test_next_cutoff_from_the_start(lab: tuple[Any, Any]) -> None:
    page, players = lab
    player = players.nth(0)
    button(player, "first step (before the search)").click(timeout=TIMEOUT)
    _expect()(explanation(player)).to_have_text(sentence(0), timeout=TIMEOUT)
    cutoff = player.get_by_role("button", name=re.compile(r"^next cutoff"))
    _expect()(cutoff).to_be_enabled(timeout=TIMEOUT)
    cutoff.click(timeout=TIMEOUT)
    _expect()(explanation(player)).to_have_text(sentence(CUTOFF), timeout=TIMEOUT)
    _expect()(explanation(player)).to_contain_text("c2, c3", timeout=TIMEOUT)
    _expect()(cutoff).to_be_disabled(timeout=TIMEOUT)  # Fig. 5.2 has no later cutoff


def test_bare_result_shows_the_player(lab: tuple[Any, Any]) -> None:
    page, players = lab
    player = players.nth(1)
    _expect()(player.locator("svg").first).to_be_visible(timeout=TIMEOUT)
    _expect()(explanation(player)).to_have_text(sentence(len(TRACE)), timeout=TIMEOUT)
    # the widget view, not the static SVG fallback of the same bundle
    _expect()(button(player, "previous step")).to_be_visible(timeout=TIMEOUT)


def test_no_errors_in_the_page(lab: tuple[Any, Any]) -> None:
    page, _ = lab
    assert page.errors == [], f"JavaScript errors in the page: {page.errors}"
