"""The exported player page, opened from disk in headless Chromium with the network off.

The page runs the live player's own front end (player.js) with a stand-in for the kernel's model, so
these tests also cover what the notebook player does in the browser.  Skips itself (with the reason)
where Chromium or Playwright is missing; `make test` installs Chromium on Debian when it can
(scripts/ensure-chromium.sh).
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import expectviz as ev
from expectviz.render.diagram import renderer_for

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _lab  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(_lab.chromium_path() is None, reason=f"no Chromium at {_lab.CHROMIUM}"),
    pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed"),
]

HOSTILE = (
    'max "<script>window.pwned = 1</script>"('
    '"</svg><img src=x onerror=window.pwned=2>": min "a & b"(3, 12), '
    '"\'quoted\' \\"name\\"": min(2, 4))'
)
NORMALISE = "svg => { const d = document.createElement('div'); d.innerHTML = svg; return d.innerHTML; }"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with _lab.browser() as chromium:
        yield chromium


class Page:
    """An exported page opened offline, with what it requested and the errors it raised."""

    def __init__(self, browser: Any, path: Path, *, width: int = 1280, height: int = 800) -> None:
        self.context = browser.new_context(offline=True, viewport={"width": width, "height": height})
        self.requests: list[str] = []
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("dialog", lambda dialog: (self.errors.append(f"dialog: {dialog.message}"), dialog.dismiss()))
        self.page.goto(path.as_uri())
        self.page.wait_for_selector(".ev-canvas svg")

    def button(self, name: str) -> Any:
        return self.page.get_by_role("button", name=name, exact=True)

    def counter(self) -> str:
        return str(self.page.inner_text(".ev-counter"))

    def sentence(self) -> str:
        return str(self.page.inner_text(".ev-sentence"))

    def svg(self) -> str:
        return str(self.page.eval_on_selector(".ev-canvas", "element => element.innerHTML"))

    def normalised(self, svg: str) -> str:
        return str(self.page.evaluate(NORMALISE, svg))

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def fig_5_2(browser: Any, tmp_path: Path) -> Iterator[tuple[Page, ev.Trace]]:
    result = ev.alphabeta("aima-fig-5.2")
    assert result.trace is not None
    ev.export_html(result, tmp_path / "trace.html")
    page = Page(browser, tmp_path / "trace.html")
    yield page, result.trace
    page.close()


def test_buttons_keys_and_next_cutoff(fig_5_2: tuple[Page, ev.Trace]) -> None:
    page, trace = fig_5_2
    n = len(trace)
    assert page.counter() == f"step 0 of {n}"
    assert page.sentence() == f"Step 0. {trace.frame(0).explanation}"
    page.button("next step").click()
    assert page.sentence() == f"Step 1. {trace.frame(1).explanation}"
    page.page.keyboard.press("ArrowRight")  # the page opens with the player focused
    assert page.counter() == f"step 2 of {n}"
    page.button("next cutoff").click()  # the cutoff at C (AIMA Fig. 5.5)
    assert page.counter() == f"step 13 of {n}"
    assert "c2, c3" in page.sentence() and "α = 3" in page.sentence()
    assert "\u2702" in page.svg()
    assert page.button("next cutoff").is_disabled()  # no cutoff is ahead
    page.page.keyboard.press("ArrowLeft")
    assert page.counter() == f"step 12 of {n}"
    page.page.keyboard.press("c")
    assert page.counter() == f"step 13 of {n}"
    page.page.keyboard.press("End")
    assert page.counter() == f"step {n} of {n}" and page.button("next step").is_disabled()
    page.page.keyboard.press("Home")
    assert page.counter() == f"step 0 of {n}" and page.button("previous step").is_disabled()
    page.button("last step").click()
    page.button("first step").click()
    assert page.counter() == f"step 0 of {n}"
    stack = page.page.inner_text(".ev-side")
    assert "Call stack" in stack and "Nodes visited so far: 0 of 11" in stack
    assert page.errors == []
    assert all(url.startswith("file://") for url in page.requests), page.requests


def test_every_frame_is_the_drawers_svg(fig_5_2: tuple[Page, ev.Trace]) -> None:
    """Forwards, backwards (through the undo logs) and by jumps, each frame is exactly Python's SVG."""
    page, trace = fig_5_2
    renderer = renderer_for(trace)
    slider = page.page.get_by_role("slider", name="step", exact=True)
    order = [*range(len(trace) + 1), *range(len(trace), -1, -1), 9, 21, 3, 13, 0]
    for k in order:
        slider.fill(str(k))
        expected = renderer.drawer.svg(renderer.scene.paint(trace.frame(k)))
        assert page.svg() == page.normalised(expected), k
        assert page.sentence() == f"Step {k}. {trace.frame(k).explanation}"
    assert page.errors == []


def test_play_pause_and_labels(fig_5_2: tuple[Page, ev.Trace]) -> None:
    page, trace = fig_5_2
    for name in ("first step", "previous step", "play", "next step", "last step", "next cutoff"):
        assert page.button(name).count() == 1, name
    for name in ("zoom in", "zoom out", "fit to width"):
        assert page.button(name).count() == 1, name
    assert page.page.get_by_role("slider", name="step", exact=True).count() == 1
    assert page.page.get_by_role("slider", name="milliseconds per step when playing").count() == 1
    page.page.get_by_role("slider", name="milliseconds per step when playing").fill("50")
    page.button("play").click()
    assert page.button("pause").inner_text() == "\u275a\u275a Pause"
    page.page.wait_for_function("() => document.querySelector('.ev-counter').textContent !== 'step 0 of 23'")
    page.button("pause").click()
    assert page.button("play").inner_text() == "\u25b6 Play"
    paused = page.counter()
    page.page.wait_for_timeout(200)
    assert page.counter() == paused
    page.page.keyboard.press("Space")  # Space on the focused Play button presses it
    page.page.focus(".ev-player")
    page.page.keyboard.press("Space")
    assert page.button("play").count() == 1 and page.errors == []


def test_layout_holds_still_and_zooms(fig_5_2: tuple[Page, ev.Trace]) -> None:
    page, trace = fig_5_2
    boxes = set()
    for k in range(len(trace) + 1):
        page.page.keyboard.press("ArrowRight" if k else "Home")
        boxes.add(
            tuple(
                tuple(round(v) for v in page.page.locator(selector).bounding_box().values())
                for selector in (".ev-diagram", ".ev-side", ".ev-sentence", ".ev-slider")
            )
        )
    assert len(boxes) == 1, boxes  # nothing moves or resizes from step to step
    side = page.page.locator(".ev-side").bounding_box()
    page.page.set_viewport_size({"width": 1000, "height": 800})
    assert page.page.locator(".ev-side").bounding_box()["width"] == side["width"]  # a fixed width
    width = drawn_width(page)
    for _ in range(3):
        page.button("zoom in").click()
    assert drawn_width(page) > width * 1.9
    assert page.page.eval_on_selector(".ev-diagram", "d => d.scrollWidth > d.clientWidth")  # it pans
    page.button("fit to width").click()
    assert drawn_width(page) == width
    page.page.hover(".ev-diagram")
    page.page.keyboard.down("Control")
    page.page.mouse.wheel(0, -100)
    page.page.keyboard.up("Control")
    assert drawn_width(page) > width
    assert page.errors == []


def test_a_wide_tree_gets_the_width_when_the_panel_would_make_it_small(browser: Any, tmp_path: Path) -> None:
    """Beside the call-stack panel a wide, shallow tree (lesson 07's Star1 question, 12 leaves) is drawn small
    in a narrow player: there the panel goes under it, and stays there from step to step.  A wide window, and
    Fig. 5.2 at any width, keep the panel beside the diagram."""
    wide = ev.star1(ev.random_trees.random_exercise(27, kind="chance", size="medium"), bounds=(0, 20))
    ev.export_html(wide, tmp_path / "wide.html")
    ev.export_html(ev.alphabeta("aima-fig-5.2"), tmp_path / "fig.html")

    def boxes(page: Page) -> tuple[dict[str, float], dict[str, float]]:
        """The diagram's and the panel's boxes once the layout has settled (the page sizes the drawing after
        it is shown, and again when the window changes): the same over two animation frames."""
        last = None
        for _ in range(50):
            page.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            now = (page.page.locator(".ev-diagram").bounding_box(), page.page.locator(".ev-side").bounding_box())
            if now == last:
                break
            last = now
        return now

    def stacked(page: Page) -> bool:
        diagram, side = boxes(page)
        if side["y"] >= diagram["y"] + diagram["height"] and side["width"] == diagram["width"]:
            return True
        assert side["x"] >= diagram["x"] + diagram["width"], (diagram, side)  # beside it
        return False

    for name, width, expected in (("wide", 1280, False), ("wide", 950, True), ("fig", 950, False)):
        page = Page(browser, tmp_path / f"{name}.html", width=width, height=800)
        assert stacked(page) == expected, (name, width)
        if expected:
            before = drawn_width(page)
            page.page.set_viewport_size({"width": 1280, "height": 800})  # wider: beside again
            assert not stacked(page)
            page.page.set_viewport_size({"width": width, "height": 800})
            assert stacked(page) and drawn_width(page) == before
            layout = {str(boxes(page))}
            for _ in range(10):
                page.page.keyboard.press("ArrowRight")
                layout.add(str(boxes(page)))
            assert len(layout) == 1, layout  # the panel does not jump as the search goes on
            assert before > 0.85 * 950  # nearly the whole width (the beside layout gave it about 640px)
        assert page.errors == []
        page.close()


def drawn_width(page: Page) -> float:
    """The width of the drawing (the SVG keeps its proportions inside its box)."""
    return float(
        page.page.evaluate(
            """() => {
                const svg = document.querySelector('.ev-canvas svg'), box = svg.getBoundingClientRect();
                const view = svg.viewBox.baseVal;
                return Math.round(Math.min(box.width, box.height * view.width / view.height));
            }"""
        )
    )


def test_hostile_labels_run_nothing(browser: Any, tmp_path: Path) -> None:
    result = ev.alphabeta(HOSTILE)
    assert result.trace is not None
    html = ev.export_html(result, tmp_path / "hostile.html", step=-1)
    assert html.count("<script") == 2
    page = Page(browser, tmp_path / "hostile.html")
    renderer = renderer_for(result.trace)
    assert page.svg() == page.normalised(renderer.svg(len(result.trace)))
    for _ in range(len(result.trace) + 1):
        page.page.keyboard.press("ArrowLeft")
    page.page.keyboard.press("End")
    page.page.wait_for_timeout(100)
    assert page.page.evaluate("() => window.pwned") is None
    assert page.page.evaluate("() => document.querySelectorAll('script').length") == 2
    assert page.page.evaluate("() => document.querySelectorAll('img').length") == 0
    titles = page.page.eval_on_selector_all(".ev-canvas title", "ts => ts.map(t => t.textContent).join(' ')")
    assert "<script>window.pwned = 1</script>" in titles
    page.page.keyboard.press("Home")
    page.page.keyboard.press("ArrowRight")
    page.page.keyboard.press("ArrowRight")
    assert "a & b" in page.page.inner_text(".ev-side")
    texts = page.page.eval_on_selector_all(".ev-canvas text", "ts => ts.map(t => t.textContent).join(' ')")
    assert "</svg><img src=x" in texts and "'quoted' \"name\"" in texts
    assert page.errors == []
    page.close()


def test_no_cutoff_button_without_cutoffs(browser: Any, tmp_path: Path) -> None:
    ev.export_html(ev.minimax("aima-fig-5.2"), tmp_path / "minimax.html")
    page = Page(browser, tmp_path / "minimax.html")
    assert page.button("next cutoff").count() == 0
    page.page.keyboard.press("c")  # does nothing, and fails nothing
    assert page.counter() == "step 0 of 26" and page.errors == []
    page.close()


def test_predict_mode_hides_leaves_until_evaluated(browser: Any, tmp_path: Path) -> None:
    result = ev.alphabeta("aima-fig-5.2")
    ev.export_html(result, tmp_path / "predict.html", predict=True)
    page = Page(browser, tmp_path / "predict.html")

    def leaves() -> list[str]:
        """The text in each leaf's box, left to right."""
        texts: list[str] = page.page.eval_on_selector_all(
            ".ev-canvas [data-node]",
            """groups => groups.filter(g => g.querySelector('title').textContent.includes('(leaf)'))
                .map(g => g.querySelector('text').textContent.trim())""",
        )
        return texts

    def visited() -> str:
        return page.page.inner_text(".ev-visited")

    assert leaves() == ["?"] * 9
    assert visited() == "Nodes visited so far: 0"  # "of 11" would tell that two nodes are pruned
    page.page.keyboard.press("ArrowRight")
    page.page.keyboard.press("ArrowRight")
    page.page.keyboard.press("ArrowRight")  # visit A, B, b1: b1 not yet evaluated
    assert visited() == "Nodes visited so far: 3"
    assert leaves() == ["?"] * 9
    page.page.keyboard.press("ArrowRight")  # b1's value, 3
    assert leaves() == ["3"] + ["?"] * 8
    page.page.keyboard.press("End")
    assert leaves() == ["3", "12", "8", "2", "?", "?", "14", "5", "2"]  # c2 and c3 were never looked at
    assert visited() == "Nodes visited so far: 11 of 11"  # the totals at the last step
    assert page.errors == []
    page.close()


def test_a_game_page_draws_the_drawers_svg_and_follows_the_search(browser: Any, tmp_path: Path) -> None:
    """A game's boards and table hits come through the page unchanged; zoomed in, stepping keeps the step's
    node in sight."""
    result = ev.alphabeta(ev.games.tictactoe("XO./X../O.."), table=True)
    trace = result.trace
    assert trace is not None
    ev.export_html(result, tmp_path / "game.html")
    page = Page(browser, tmp_path / "game.html")
    renderer = renderer_for(trace)
    slider = page.page.get_by_role("slider", name="step", exact=True)
    first_hit = trace.steps("table")[0]
    for k in (0, 1, first_hit - 1, first_hit, 60, len(trace), 30, 0):
        slider.fill(str(k))
        assert page.svg() == page.normalised(renderer.drawer.svg(renderer.scene.paint(trace.frame(k)))), k
    pictures = page.page.eval_on_selector_all(".ev-canvas svg svg", "s => s.length")
    assert pictures == sum(1 for it in renderer.scene.items if it.picture is not None) > 20
    assert page.button("fit to width").is_disabled()  # it opens fitted to the panel, as every diagram does
    for _ in range(3):
        page.button("zoom in").click()
    assert page.page.eval_on_selector(".ev-diagram", "d => d.scrollWidth > d.clientWidth")

    def ring_in_sight() -> bool:
        inside: bool = page.page.evaluate(
            """() => {
                const pane = document.querySelector('.ev-diagram').getBoundingClientRect();
                const ring = document.querySelector('.ev-canvas [data-ring]').getBoundingClientRect();
                return ring.left >= pane.left && ring.right <= pane.right && ring.top >= pane.top
                    && ring.bottom <= pane.bottom;
            }"""
        )
        return inside

    page.page.locator(".ev-player").focus()
    for step in range(1, 40):
        page.page.keyboard.press("ArrowRight")
        assert ring_in_sight(), step
    page.page.keyboard.press("End")
    assert ring_in_sight()
    page.button("fit to width").click()
    assert not page.page.eval_on_selector(".ev-diagram", "d => d.scrollWidth > d.clientWidth + 1")
    assert page.errors == []
    assert all(url.startswith("file://") for url in page.requests), page.requests
    page.close()


class _HostileBoards:
    """Tic-tac-toe whose pictures try to run script: each is left out of the diagram, and says why."""

    def __init__(self) -> None:
        self.board = ev.games.tictactoe("XOX/X../O..")
        self.initial = self.board.initial

    def __getattr__(self, name: str) -> Any:
        return getattr(self.board, name)

    def picture(self, state: Any) -> str:
        svg: str = self.board.picture(state)
        if state % 2:
            return svg.replace("<svg ", '<svg onload="window.pwned = 1" ')
        return svg.replace("</svg>", "<script>window.pwned = 2</script></svg>")


def test_hostile_pictures_run_nothing(browser: Any, tmp_path: Path) -> None:
    result = ev.alphabeta(_HostileBoards())
    ev.export_html(result, tmp_path / "boards.html", step=-1)
    page = Page(browser, tmp_path / "boards.html")
    for _ in range(5):
        page.page.keyboard.press("ArrowLeft")
    page.page.keyboard.press("End")
    page.page.wait_for_timeout(100)
    assert page.page.evaluate("() => window.pwned") is None
    assert page.page.evaluate("() => document.querySelectorAll('.ev-canvas svg svg').length") == 0
    titles = page.page.eval_on_selector_all(".ev-canvas title", "ts => ts.map(t => t.textContent).join(' ')")
    assert "its picture is not drawn" in titles
    assert page.errors == []
    page.close()
