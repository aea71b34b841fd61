"""The player in a real JupyterLab 4 and Notebook 7, driven by headless Chromium.

One JupyterLab server (tests/_lab.py: temporary root and settings, stopped by its PID at the end) runs one
notebook for the whole module, at 1280x800 with the file browser open:

    [0] import expectviz as ev
        r = ev.alphabeta("aima-fig-5.2")
        p = ev.play(r, step=13)        # the player at the cutoff at C (AIMA Fig. 5.5)
        p
    [1] r                              # a bare Result shows the player too (at its last step)
    [2] p.step                         # run by the tests: the step the browser chose, in Python
    [3] p.step = 5                     # run by the tests: Python moves the player
    [4] ev.compare(...)                # alpha-beta and minimax side by side
    [5] Player(..., chunk_steps=4)     # a trace sent in chunks of four steps, asked for from the browser

The player steps in the browser: one test shuts the kernel down and steps on.  On the same server, a fresh
page then opens every lesson in notebooks/ (a copy without outputs), runs it and checks that each player's
diagram and side panel lie inside the visible output area (about 50 s), and another runs a player whose
names and move labels are markup.  A Notebook 7 server then runs the first notebook for the keyboard.
Skips itself (with the reason) where Chromium or Playwright is missing.  About 90 s.
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import expectviz as ev

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _lab  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(_lab.chromium_path() is None, reason=f"no Chromium at {_lab.CHROMIUM}"),
]

TIMEOUT = 30_000  # ms, for each selector/expectation: the machine is shared and can be slow
TRACE = ev.alphabeta("aima-fig-5.2").trace
assert TRACE is not None
CUTOFF = 13  # alpha-beta's one cutoff on Fig. 5.2: at C, pruning c2 and c3

CELLS = [
    'import expectviz as ev\nr = ev.alphabeta("aima-fig-5.2")\np = ev.play(r, step=13)\np',
    "r",
    "p.step",
    "p.step = 5",
    'ev.compare(ev.alphabeta("aima-fig-5.2"), ev.minimax("aima-fig-5.2"))',
    "from expectviz.render.widget import Player\n"
    'Player(ev.minimax("max(min(1, 2), min(3, 4), min(5, 6))"), chunk_steps=4)',
]
LONG_STEPS = 20  # the last cell's trace, sent four steps at a time


def sentence(step: int) -> str:
    """The explanation the player shows at ``step``."""
    return f"Step {step}. {TRACE.frame(step).explanation}"


def _needs() -> None:
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    pytest.importorskip("nbformat", reason="nbformat is not installed")
    pytest.importorskip("anywidget", reason="anywidget is not installed")
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is missing (the diagrams need it)")


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless Chromium for both servers (Playwright's sync API runs once per thread)."""
    _needs()
    with _lab.browser() as instance:
        yield instance


def _open(app: str, chromium: Any, server: _lab.Lab) -> Iterator[tuple[Any, Any]]:
    base_url, root = server
    page = _lab.new_page(chromium, width=1280, height=800, timeout_ms=TIMEOUT)
    _lab.write_notebook(root, "player.ipynb", CELLS)
    _lab.open_notebook(page, base_url, "player.ipynb", app=app)
    if app == "lab":
        _lab.show_file_browser(page)
    for index in (0, 1):
        _lab.run_cell(page, index)
    players = _lab.wait_for_players(page, 2)
    yield page, players
    page.context.close()


@pytest.fixture(scope="module")
def lab_server(chromium: Any) -> Iterator[_lab.Lab]:
    """One JupyterLab server for the module's JupyterLab tests."""
    with _lab.lab_server() as server:
        yield server


@pytest.fixture(scope="module")
def lab(chromium: Any, lab_server: _lab.Lab) -> Iterator[tuple[Any, Any]]:
    """The JupyterLab page with the first two cells run, and the locator of their two players."""
    yield from _open("lab", chromium, lab_server)


@pytest.fixture(scope="module")
def notebook7(chromium: Any) -> Iterator[tuple[Any, Any]]:
    """The same notebook in Notebook 7."""
    pytest.importorskip("notebook", reason="notebook (Notebook 7) is not installed")
    with _lab.lab_server(app="notebook") as server:
        yield from _open("notebook", chromium, server)


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def explanation(player: Any) -> Any:
    return player.locator(".ev-sentence")


def button(player: Any, name: str) -> Any:
    """A player button by its accessible name (its aria-label)."""
    return player.get_by_role("button", name=name, exact=True)


def cell_count(page: Any) -> int:
    return int(page.evaluate("() => window.jupyterapp.shell.currentWidget.content.widgets.length"))


def active_cell(page: Any) -> int:
    return int(page.evaluate("() => window.jupyterapp.shell.currentWidget.content.activeCellIndex"))


def test_player_renders_at_the_cutoff(lab: tuple[Any, Any]) -> None:
    page, players = lab
    player = players.nth(0)
    svg = player.locator(".ev-canvas svg")
    _expect()(svg).to_be_visible(timeout=TIMEOUT)
    labels = [t.strip() for t in svg.locator("text").all_text_contents()]
    assert "C" in labels, f"no node C among the SVG's texts: {labels[:20]}"
    _expect()(explanation(player)).to_have_text(sentence(CUTOFF), timeout=TIMEOUT)
    _expect()(player.locator(".ev-side")).to_contain_text("Call stack", timeout=TIMEOUT)
    _expect()(player.locator(".ev-side")).to_contain_text("Nodes visited so far: 7 of 11", timeout=TIMEOUT)


def test_diagram_lies_inside_the_visible_output_area(lab: tuple[Any, Any]) -> None:
    page, players = lab
    assert page.locator(".jp-FileBrowser").is_visible()  # the sidebar takes its share of the 1280 pixels
    player = players.nth(0)
    player.scroll_into_view_if_needed()
    output = player.locator("xpath=ancestor::div[contains(@class, 'jp-OutputArea-output')]").first.bounding_box()
    panel = page.locator(".jp-NotebookPanel").first.bounding_box()
    for part in (".ev-diagram", ".ev-side", ".ev-toolbar"):
        box = player.locator(part).bounding_box()
        assert box["x"] >= output["x"] - 0.5 and box["x"] + box["width"] <= output["x"] + output["width"] + 0.5, (
            part,
            box,
            output,
        )
        assert box["x"] + box["width"] <= panel["x"] + panel["width"], (part, box, panel)
    svg = player.locator(".ev-canvas svg").bounding_box()
    diagram = player.locator(".ev-diagram").bounding_box()
    assert svg["width"] <= diagram["width"] and svg["height"] <= 0.75 * 800 + 1  # all of it shows at "fit"
    overflow = player.locator(".ev-diagram").evaluate(
        "d => [d.scrollWidth - d.clientWidth, d.scrollHeight - d.clientHeight]"
    )
    assert overflow == [0, 0]  # no scrollbars at "fit"


def test_keys_step_the_player_and_not_the_notebook(lab: tuple[Any, Any]) -> None:
    page, players = lab
    player = players.nth(0)
    cells, active = cell_count(page), None
    player.locator(".ev-diagram").click()  # the player takes the focus
    active = active_cell(page)
    assert page.evaluate("() => document.activeElement.classList.contains('ev-player')")
    for key, step in [
        ("ArrowRight", 14),
        ("ArrowLeft", 13),
        ("ArrowLeft", 12),
        ("Home", 0),
        ("c", CUTOFF),
        ("End", len(TRACE)),
        ("Home", 0),
    ]:
        page.keyboard.press(key)
        _expect()(explanation(player)).to_have_text(sentence(step), timeout=TIMEOUT)
    page.keyboard.press("c")  # the notebook's "copy cell"...
    page.keyboard.press("v")  # ...would show here as a pasted cell
    page.keyboard.press("Space")  # play
    _expect()(button(player, "pause")).to_be_visible(timeout=TIMEOUT)
    page.keyboard.press("Space")  # pause
    _expect()(button(player, "play")).to_be_visible(timeout=TIMEOUT)
    assert cell_count(page) == cells and active_cell(page) == active
    assert page.evaluate("() => document.activeElement.closest('.ev-player') !== null")


def test_the_kernel_sees_the_browsers_step_and_sets_it(lab: tuple[Any, Any]) -> None:
    page, players = lab
    player = players.nth(0)
    button(player, "first step").click()
    button(player, "next cutoff").click()
    _expect()(explanation(player)).to_have_text(sentence(CUTOFF), timeout=TIMEOUT)
    result = page.locator(".jp-Cell").nth(2).locator(".jp-OutputArea-output")
    # The step travels to the kernel as a widget message; on a loaded machine it can reach the kernel after the
    # cell's execute request (once in CI), so run `p.step` again until the kernel has it, within the timeout.
    deadline = time.monotonic() + TIMEOUT / 1000
    while True:
        _lab.run_cell(page, 2)  # p.step
        try:
            _expect()(result).to_have_text(str(CUTOFF), timeout=3_000)
            break
        except AssertionError:
            if time.monotonic() > deadline:
                raise
    _lab.run_cell(page, 3)  # p.step = 5
    _expect()(explanation(player)).to_have_text(sentence(5), timeout=TIMEOUT)


def test_bare_result_shows_the_player(lab: tuple[Any, Any]) -> None:
    page, players = lab
    player = players.nth(1)
    _expect()(player.locator(".ev-canvas svg")).to_be_visible(timeout=TIMEOUT)
    _expect()(explanation(player)).to_have_text(sentence(len(TRACE)), timeout=TIMEOUT)
    # the widget, not the static SVG of the same bundle
    assert page.locator(".jp-Cell").nth(1).locator('[data-mime-type="image/svg+xml"]').count() == 0


def test_compare_steps_two_views_on_one_layout(lab: tuple[Any, Any]) -> None:
    page, players = lab
    _lab.run_cell(page, 4)
    player = _lab.wait_for_players(page, 3).nth(2)
    button(player, "next cutoff").click()
    left, right = player.locator(".ev-view").nth(0), player.locator(".ev-view").nth(1)
    _expect()(explanation(left)).to_have_text(sentence(CUTOFF), timeout=TIMEOUT)
    _expect()(right.locator(".ev-title")).to_contain_text("minimax: 13 nodes visited", timeout=TIMEOUT)
    _expect()(explanation(right)).to_contain_text("Step 16.", timeout=TIMEOUT)  # minimax waits to back up C
    for node in ("n0", "n5", "n12"):  # the same node at the same place in both drawings
        places = []
        for view in (left, right):
            shape = view.locator(f"[data-node='{node}'] > :is(polygon, rect)").first.bounding_box()
            canvas = view.locator(".ev-canvas").bounding_box()
            places.append((shape["x"] - canvas["x"], shape["y"] - canvas["y"]))
        (x0, y0), (x1, y1) = places
        assert abs(x0 - x1) <= 3 and abs(y0 - y1) <= 3, (node, places)  # up to a thicker outline


def test_long_traces_stream_from_the_kernel(lab: tuple[Any, Any]) -> None:
    page, players = lab
    _lab.run_cell(page, 5)
    player = _lab.wait_for_players(page, 4).nth(3)
    _expect()(explanation(player)).to_contain_text("Step 0.", timeout=TIMEOUT)
    button(player, "last step").click()  # chunk 5 of 6 comes from the kernel when asked for
    _expect()(explanation(player)).to_contain_text(f"Step {LONG_STEPS}.", timeout=TIMEOUT)
    for _ in range(6):  # back through chunk 4 (asked for too)
        page.keyboard.press("ArrowLeft")
    _expect()(explanation(player)).to_contain_text(f"Step {LONG_STEPS - 6}.", timeout=TIMEOUT)
    assert player.locator(".ev-canvas svg").count() == 1


def test_steps_without_a_kernel(lab: tuple[Any, Any]) -> None:
    page, players = lab
    player = players.nth(0)
    _lab.shut_down_kernel(page)
    svg = player.locator(".ev-canvas").inner_html()
    before = explanation(player).inner_text()
    button(player, "next step").click()
    _expect()(explanation(player)).not_to_have_text(before, timeout=TIMEOUT)
    assert player.locator(".ev-canvas").inner_html() != svg
    step = int(re.match(r"Step (\d+)\.", explanation(player).inner_text()).group(1))  # type: ignore[union-attr]
    player.locator(".ev-diagram").click()
    page.keyboard.press("ArrowRight")
    _expect()(explanation(player)).to_have_text(sentence(step + 1), timeout=TIMEOUT)


def test_no_errors_in_the_page(lab: tuple[Any, Any]) -> None:
    page, _ = lab
    assert page.errors == [], f"JavaScript errors in the page: {page.errors}"


LESSONS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("[0-9][0-9]-*.ipynb"))
SHOWN_AS_PLAYER = ("Player(", "Compare(", "Result(")  # the reprs of what displays as the player


def players_stored(notebook: Any) -> int:
    """How many players (or compares) the stored outputs of a lesson show (nbval keeps them)."""
    return sum(
        1
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if "application/vnd.jupyter.widget-view+json" in output.get("data", {})
        and output["data"].get("text/plain", "").startswith(SHOWN_AS_PLAYER)
    )


_RUN_ALL_DONE = """error => {
    for (const el of document.querySelectorAll(error)) if (el.textContent.includes('Traceback')) return true;
    const w = window.jupyterapp.shell.currentWidget;
    const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
    if (!kernel || kernel.status !== 'idle') return false;
    return w.content.widgets.every(cell => cell.model.type !== 'code' || !cell.model.sharedModel.getSource().trim()
        || cell.model.executionCount !== null);
}"""

_MEASURE = """root => {
    const box = el => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
    const output = root.closest('.jp-OutputArea-output');
    const scroller = root.closest('.jp-WindowedPanel-outer') || root.closest('.jp-Notebook');
    return {
        output: box(output), scroller: box(scroller),
        outputOverflow: output.scrollWidth - output.clientWidth,
        svgs: [...root.querySelectorAll('.ev-canvas > svg')].map(box),
        sides: [...root.querySelectorAll('.ev-side')].map(box),
        overflow: [...root.querySelectorAll('.ev-diagram')].map(d => d.scrollWidth - d.clientWidth),
    };
}"""


def _inside(part: list[float], area: list[float], *, vertically: bool) -> bool:
    left, top, right, bottom = part
    ok = left >= area[0] - 0.5 and right <= area[2] + 0.5
    return ok and (not vertically or (top >= area[1] - 0.5 and bottom <= area[3] + 0.5))


def test_every_lessons_players_fit_the_window(chromium: Any, lab_server: _lab.Lab) -> None:
    """At 1280x800 with the file browser open, each lesson's players show all of their diagram and panel."""
    import nbformat

    base_url, root = lab_server
    page = _lab.new_page(chromium, width=1280, height=800, timeout_ms=TIMEOUT)
    problems: list[str] = []
    for path in LESSONS:
        notebook = nbformat.read(path, as_version=4)
        expected = players_stored(notebook)
        for cell in notebook.cells:  # run afresh: no stored outputs or widget state
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        notebook.metadata.pop("widgets", None)
        nbformat.write(notebook, root / path.name)
        _lab.open_notebook(page, base_url, path.name)
        _lab.show_file_browser(page)
        _lab.run_all(page)
        page.wait_for_function(_RUN_ALL_DONE, arg=_lab.ERROR, timeout=120_000, polling=250)
        players = _lab.wait_for_players(page, expected)
        assert players.count() == expected, (path.name, players.count(), expected)
        for i in range(expected):
            player = players.nth(i)
            for k in range(player.locator(".ev-canvas > svg").count()):
                player.locator(".ev-canvas > svg").nth(k).scroll_into_view_if_needed()
                page.wait_for_function(
                    "root => [...root.querySelectorAll('.ev-canvas')].every(c => c.classList.contains('ev-sized'))",
                    arg=player.element_handle(),
                )
                m = player.evaluate(_MEASURE)
                visible = [
                    max(m["output"][0], m["scroller"][0]),
                    m["scroller"][1],
                    min(m["output"][2], m["scroller"][2]),
                    m["scroller"][3],
                ]
                where = f"{path.name}, player {i}"
                if not _inside(m["svgs"][k], visible, vertically=True):
                    problems.append(f"{where}: diagram {k} at {m['svgs'][k]} is not inside {visible}")
                for side in m["sides"]:
                    if not _inside(side, visible, vertically=False):
                        problems.append(f"{where}: side panel at {side} is not inside {visible}")
                if any(m["overflow"]) or m["outputOverflow"] > 0:
                    problems.append(f"{where}: horizontal scrollbar ({m['overflow']}, output {m['outputOverflow']})")
        _lab.shut_down_kernel(page)
    errors = list(page.errors)
    page.context.close()
    assert not problems, "\n".join(problems)
    assert errors == [], f"JavaScript errors in the page: {errors}"


def _quoted(text: str) -> str:
    """``text`` as a quoted name in the tree notation."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


SCRIPT = "<script>window.__pwned=1</script>"
IMG = '</svg><img src=x onerror="window.__pwned=1">'
QUOTES = "'it's \"quoted\" & co"
HOSTILE = (
    f"max {_quoted(SCRIPT)}({_quoted(IMG)}: min {_quoted(IMG)}(3, 12), "
    f"{_quoted(SCRIPT)}: min {_quoted('a & b')}(2, 4), {_quoted(QUOTES)}: min {_quoted(QUOTES)}(1, 5))"
)


def test_hostile_labels_show_as_text_in_the_live_player(chromium: Any, lab_server: _lab.Lab) -> None:
    base_url, root = lab_server
    steps = len(ev.alphabeta(HOSTILE).trace or ())
    page = _lab.new_page(chromium, width=1280, height=800, timeout_ms=TIMEOUT)
    _lab.write_notebook(root, "hostile.ipynb", [f"import expectviz as ev\np = ev.play(ev.alphabeta({HOSTILE!r}))\np"])
    _lab.open_notebook(page, base_url, "hostile.ipynb")
    _lab.run_cell(page, 0)
    player = _lab.wait_for_players(page, 1).first
    _expect()(explanation(player)).to_contain_text("Step 0.", timeout=TIMEOUT)
    seen: set[str] = set()
    for step in range(1, steps + 1):  # every step, each label in the drawing and in the call stack
        button(player, "next step").click()
        _expect()(explanation(player)).to_contain_text(f"Step {step}.", timeout=TIMEOUT)
        seen.update(player.locator(".ev-canvas text").all_text_contents())
        seen.add(player.locator(".ev-side").inner_text())
        seen.add(explanation(player).inner_text())
    shown = "\n".join(seen)
    for label in (SCRIPT, IMG, "a & b", QUOTES):
        assert label in shown, (label, shown[:2000])
    assert page.evaluate("() => window.__pwned") is None
    assert player.locator("script, img, foreignObject").count() == 0
    assert page.locator(".jp-OutputArea-output img[src='x']").count() == 0
    html = player.locator(".ev-canvas").inner_html()
    assert "&lt;script&gt;" in html and "&amp;" in html  # the markup holds them as text
    _lab.shut_down_kernel(page)
    errors = list(page.errors)
    page.context.close()
    assert errors == [], f"JavaScript errors in the page: {errors}"


def test_notebook_7_keys(notebook7: tuple[Any, Any]) -> None:
    page, players = notebook7
    player = players.nth(0)
    _expect()(explanation(player)).to_have_text(sentence(CUTOFF), timeout=TIMEOUT)
    cells = cell_count(page)
    player.locator(".ev-diagram").click()
    active = active_cell(page)
    for key, step in [("ArrowRight", 14), ("ArrowLeft", 13), ("Home", 0), ("c", CUTOFF), ("End", len(TRACE))]:
        page.keyboard.press(key)
        _expect()(explanation(player)).to_have_text(sentence(step), timeout=TIMEOUT)
    page.keyboard.press("c")
    page.keyboard.press("v")
    assert cell_count(page) == cells and active_cell(page) == active
    button(player, "previous step").click()
    _expect()(explanation(player)).to_have_text(sentence(len(TRACE) - 1), timeout=TIMEOUT)
    # Notebook 7.6's shortcut settings raise this on a page with any output, with or without a player
    known = "Cannot read properties of undefined (reading 'schema')"
    errors = [error for error in page.errors if error != known]
    assert errors == [], f"JavaScript errors in the page: {errors}"


def test_the_live_player_and_the_exported_page_draw_the_same(lab: tuple[Any, Any], tmp_path: Path) -> None:
    """One front end: at the same step, the notebook's player and the exported page show the same SVG."""
    page, players = lab
    player = players.nth(0)
    exported = tmp_path / "fig-5.2.html"
    ev.export_html(ev.alphabeta("aima-fig-5.2"), exported)
    other = page.context.new_page()
    try:
        other.goto(exported.as_uri())
        other.wait_for_selector(".ev-canvas svg", timeout=TIMEOUT)
        go = "(slider, k) => { slider.value = String(k); slider.dispatchEvent(new Event('input', {bubbles: true})); }"
        assert TRACE is not None
        for k in (0, 9, CUTOFF, len(TRACE)):
            player.locator('input[aria-label="step"]').evaluate(go, k)
            other.locator('input[aria-label="step"]').evaluate(go, k)
            live = player.locator(".ev-canvas").inner_html()
            assert live.startswith("<svg") and live == other.locator(".ev-canvas").inner_html(), k
    finally:
        other.close()
