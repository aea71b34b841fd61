"""The playground app (``make app``: Voilà over notebooks/playground.ipynb), driven by headless Chromium.

One launcher (``scripts/app.py --port P``, what ``make app`` runs) serves the page; the test reads the address it
prints, opens the page at 1280x800 and, as someone with no Python would:

- sees AIMA Fig. 5.2 already searched (alpha-beta, value 3 by a1) with the lessons' player, and no code;
- types a tree, presses Search, sees the new player and steps it (the step counter and the sentence change);
- types a tree with a mistake and sees the error under the tree, with its line and column and a caret;
- picks a textbook tree, a *-minimax tree (its bounds appear) and a game from the Example list: one click each.

The page must load with no script error and no failed request to the server (only the stylesheets Voilà's
template asks of a CDN may fail, offline).  Then it is checked for clipping at 1280x800 and 1920x1080, stepped to
alpha-beta's cutoff; with ``EXPECTVIZ_APP_SHOTS=DIR`` its screenshots are saved there (``playground-1280x800.png``
is docs/playground.png).  Stopping the launcher stops Voilà.  The notebook's cells are also run without a browser,
driving the widgets from Python.  Skips itself where Voilà, Chromium, Playwright or Graphviz's dot is missing.
About 30 s.
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _lab  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LAUNCHER = ROOT / "scripts" / "app.py"
NOTEBOOK = ROOT / "notebooks" / "playground.ipynb"
TIMEOUT = 30_000  # ms, for each selector/expectation: the machine is shared and can be slow
SIZES = [(1280, 800), (1920, 1080)]
SHOTS = os.environ.get("EXPECTVIZ_APP_SHOTS")  # a folder: save the page's screenshots there

MESSAGE = ".ev-app-message"
PLAYER = ".ev-player"


def _needs_voila() -> None:
    pytest.importorskip("voila", reason="Voilà is not installed (make venv)")
    pytest.importorskip("anywidget", reason="anywidget is not installed")
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is missing (the player's diagrams need it)")


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


# ---- the notebook's widgets, driven from Python (no browser) ----------------------------------------------------


@pytest.fixture(scope="module")
def app() -> dict[str, Any]:
    """The namespace after running the notebook's cells: its widgets and functions."""
    _needs_voila()
    nbformat = pytest.importorskip("nbformat")
    namespace: dict[str, Any] = {}
    for cell in nbformat.read(NOTEBOOK, as_version=4).cells:
        if cell.cell_type == "code":
            exec(compile(cell.source, str(NOTEBOOK), "exec"), namespace)
    return namespace


def test_the_notebook_is_stored_after_restart_and_run_all() -> None:
    """As the lessons are (``make notebooks``): run 1..n, metadata stripped.  ``pytest --nbval notebooks`` checks it
    too: the page's widget is its only output, and is not compared."""
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code] == list(range(1, len(code) + 1))
    assert "widgets" not in nb.metadata
    assert all(not cell.outputs for cell in code[:-1])
    (page,) = code[-1].outputs
    assert "application/vnd.jupyter.widget-view+json" in page["data"]
    assert "nbval-ignore-output" in code[-1].metadata.get("tags", [])
    assert all(not cell.get("metadata", {}).get("tags") for cell in code[:-1])


def test_opens_with_fig_5_2_searched(app: dict[str, Any]) -> None:
    assert app["text"].value.splitlines()[1:] == [
        "max A(",
        "  a1: min B(b1: 3, b2: 12, b3: 8),",
        "  a2: min C(c1: 2, c2: 4, c3: 6),",
        "  a3: min D(d1: 14, d2: 5, d3: 2)",
        ")",
    ]
    import expectviz as ev

    assert ev.parse(app["text"].value) == ev.textbook("aima-fig-5.2")
    assert (
        "value <b>3</b>, best move <b>a1</b>; 11 nodes visited, 7 leaves evaluated, 1 cutoff." in app["message"].value
    )
    (player,) = app["player"].children
    assert repr(player) == "Player(algorithm='alphabeta', steps=23)"


def test_python_side_errors_and_examples(app: dict[str, Any]) -> None:
    text, search, message, player = app["text"], app["search"], app["message"], app["player"]
    text.value = "# two lines\nmax(min(3, x), 2)"
    search.click()
    assert "line 2, column 12: unknown node kind &#x27;x&#x27;" in message.value
    assert "2 | max(min(3, x), 2)\n" + " " * 15 + "^</pre>" in message.value  # the caret under the x
    assert player.children == ()
    assert app["examples"].value == ""  # edited: "your own tree"

    app["examples"].value = "aima-star-exercise"  # one click: the text, star1, its bounds, searched
    assert (app["algorithm"].value, app["low"].value, app["high"].value) == ("star1", "-2", "2")
    assert app["bounds"].layout.display == ""
    assert "<b>star1</b>: value <b>1.5</b>" in message.value and "5 leaves evaluated" in message.value
    app["low"].value = ""
    search.click()
    assert "Check the settings" in message.value and "the bound L is empty" in message.value

    app["examples"].value = "pig"  # a game: its name in the text, a position field, a depth limit
    assert app["position"].layout.display == "" and app["depth"].value == 2
    assert "<b>expectiminimax</b>: value <b>2579131/6906900 (≈0.3734)</b>, best move <b>MAX rolls</b>" in message.value
    app["position"].value = "MAX 5, MIN 3"
    search.click()
    assert "The position cannot be read" in message.value

    app["examples"].value = "coin-flip"
    app["algorithm"].value = "alphabeta"
    search.click()
    assert "This search cannot run" in message.value and "has no rule for chance nodes" in message.value

    app["examples"].value = "dice"
    app["algorithm"].value = "expectiminimax"
    app["depth"].value = "no limit"  # a trace far too long to step through: stopped by the page's budget
    search.click()
    assert "The search is too long to step through" in message.value
    assert "trace budget of 200,000 events" in message.value and "choose a depth limit (Depth)" in message.value


# ---- the page in Chromium ---------------------------------------------------------------------------------------


def _port_answers(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    """The launcher ``make app`` runs, on a free port, with Jupyter's user folders in a temporary directory;
    yields the address it prints.  Stopping it (SIGTERM) must stop Voilà: checked at the end."""
    _needs_voila()
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if _lab.chromium_path() is None:
        pytest.skip(f"no Chromium at {_lab.CHROMIUM}")
    tmp = Path(tempfile.mkdtemp(prefix="expectviz-app-"))
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(tmp / "config"),
        JUPYTER_DATA_DIR=str(tmp / "data"),
        JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
        IPYTHONDIR=str(tmp / "ipython"),
        JUPYTER_PLATFORM_DIRS="1",
        PYDEVD_DISABLE_FILE_VALIDATION="1",
        PYTHONUNBUFFERED="1",
    )
    port = _lab._free_port()
    process = subprocess.Popen(
        [sys.executable, str(LAUNCHER), "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    log: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            log.append(line)
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    try:
        address = None
        deadline = time.monotonic() + 60
        while address is None and time.monotonic() < deadline and process.poll() is None:
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                continue
            match = re.fullmatch(r"expectviz playground: (http://127\.0\.0\.1:(\d+)/)\n", line)
            if match:
                assert int(match.group(2)) == port
                address = match.group(1)
        assert address is not None, "the launcher did not print the playground's address:\n" + "".join(log)
        yield address
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    # Checked after the page's tests: a Voilà left behind would still answer on the port.
    deadline = time.monotonic() + 10
    while _port_answers(port) and time.monotonic() < deadline:
        time.sleep(0.25)
    assert not _port_answers(port), "Voilà still serves after the launcher was stopped"


@pytest.fixture(scope="module")
def page(served: str) -> Iterator[Any]:
    """The playground page, loaded (its first player drawn); page errors and failed requests are collected."""
    with _lab.browser() as chromium:
        page = _lab.new_page(chromium, width=1280, height=800, timeout_ms=TIMEOUT)
        failed: list[str] = []
        console: list[str] = []
        page.on("requestfailed", lambda request: failed.append(request.url))
        page.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
        page.failed, page.console = failed, console
        page.goto(served, wait_until="domcontentloaded")
        page.locator(f"{PLAYER} svg").first.wait_for(state="visible", timeout=90_000)
        yield page
        page.close(run_before_unload=True)  # as a browser tab closes: Voilà shuts its kernel down
        page.context.close()


@pytest.mark.browser
def test_the_page_loads_cleanly_and_shows_no_code(page: Any) -> None:
    expect = _expect()
    expect(page.locator(".ev-app-title")).to_contain_text("expectviz playground")
    expect(page.locator(MESSAGE)).to_contain_text("alphabeta: value 3, best move a1; 11 nodes visited")
    expect(page.locator(f"{PLAYER} .ev-counter")).to_have_text("step 0 of 23")
    assert "import expectviz" not in page.locator("body").inner_text()  # Voilà hides the code
    assert page.errors == [], page.errors
    local = [url for url in page.failed if url.startswith("http://127.0.0.1")]
    assert local == [], f"requests to the server failed: {local}"
    others = [text for text in page.console if not text.startswith("Failed to load resource")]
    assert others == [], f"errors in the browser console: {others}"


@pytest.mark.browser
def test_type_a_tree_search_and_step(page: Any) -> None:
    expect = _expect()
    page.locator(".ev-app-text textarea").fill("max(left: min(7, 9), right: min(4, 13))")
    page.get_by_role("button", name="Search", exact=True).click()
    message, player = page.locator(MESSAGE), page.locator(PLAYER)
    expect(message).to_contain_text("alphabeta: value 7, best move left; 6 nodes visited, 3 leaves evaluated, 1 cutoff")
    expect(player).to_have_count(1)
    expect(player.locator(".ev-counter")).to_have_text("step 0 of 13")
    expect(player.locator(".ev-canvas > svg")).to_contain_text("13")  # the new tree is drawn
    player.get_by_role("button", name="next step", exact=True).click()
    expect(player.locator(".ev-counter")).to_have_text("step 1 of 13")
    expect(player.locator(".ev-sentence")).to_contain_text("Step 1.")
    player.get_by_role("button", name="next cutoff", exact=True).click()
    expect(player.locator(".ev-counter")).not_to_have_text("step 1 of 13")
    expect(player.locator(".ev-sentence")).to_contain_text("≤ α = 7")


@pytest.mark.browser
def test_a_bad_tree_shows_the_error_under_it(page: Any) -> None:
    expect = _expect()
    page.locator(".ev-app-text textarea").fill("max(min(3, 12, 8), min(2, 4")
    page.get_by_role("button", name="Search", exact=True).click()
    error = page.locator(f"{MESSAGE} .ev-app-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("The tree cannot be read")
    expect(error).to_contain_text("line 1, column 28: the text ended inside min(...) opened at line 1, column 20")
    expect(error.locator(".ev-app-excerpt")).to_have_text("1 | max(min(3, 12, 8), min(2, 4\n" + " " * 31 + "^")
    expect(page.locator(PLAYER)).to_have_count(0)  # no stale player under a tree that does not read
    # The caret stands right after the last character of the line (column 28 of a 27-character line): the excerpt
    # is set in a monospace font, as the text box is.
    caret, after = error.locator(".ev-app-excerpt").evaluate(
        """(pre) => {
            const node = pre.firstChild, text = node.data, newline = text.indexOf("\\n");
            const caret = text.indexOf("^", newline), column = caret - newline - 1;
            const range = document.createRange(), box = (start) => {
                range.setStart(node, start); range.setEnd(node, start + 1); return range.getBoundingClientRect();
            };
            return [box(caret).left, box(column - 1).right];
        }"""
    )
    assert abs(caret - after) < 1.5, f"the caret is {caret - after:+.1f}px off its column"
    # The error sits right under the text it is about.
    text_box = page.locator(".ev-app-text").bounding_box()
    assert 0 <= error.bounding_box()["y"] - (text_box["y"] + text_box["height"]) < 40
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, "playground-error.png"))


def _pick(page: Any, label: str) -> None:
    page.locator(".widget-dropdown", has_text="Example").locator("select").select_option(label=label)


@pytest.mark.browser
def test_examples_are_one_click_away(page: Any) -> None:
    expect = _expect()
    textarea, message = page.locator(".ev-app-text textarea"), page.locator(MESSAGE)
    _pick(page, "coin-flip (tree)")
    expect(textarea).to_have_value(re.compile(r"chance\(heads: 10, tails: 0\)"))
    expect(message).to_contain_text("expectiminimax: value 10, best move right")
    expect(page.locator(f"{PLAYER} .ev-counter")).to_have_text("step 0 of 14")

    _pick(page, "aima-star-exercise (tree)")
    low = page.locator(".widget-text", has_text="Bounds L").locator("input")
    expect(low).to_be_visible()
    expect(low).to_have_value("-2")
    expect(message).to_contain_text("star1: value 1.5")

    _pick(page, "tictactoe (game)")
    expect(textarea).to_have_value(re.compile(r"\ntictactoe$"))
    expect(page.locator(".widget-text", has_text="Position").locator("input")).to_be_visible()
    expect(low).to_be_hidden()
    expect(message).to_contain_text("alphabeta: value 0.04, best move X b2; 36 nodes visited")
    expect(page.locator(f"{PLAYER} .ev-canvas > svg")).to_be_visible()
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, "playground-game.png"))


@pytest.mark.browser
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_fits_the_page(page: Any, width: int, height: int) -> None:
    """Fig. 5.2 stepped to alpha-beta's cutoff: nothing sticks out to the right, the controls sit beside the text."""
    expect = _expect()
    page.set_viewport_size({"width": width, "height": height})
    _pick(page, "aima-fig-5.2 (tree)")
    player = page.locator(PLAYER)
    expect(page.locator(MESSAGE)).to_contain_text("alphabeta: value 3")
    expect(player.locator(".ev-counter")).to_have_text(re.compile(r"step (0|13) of 23"))
    first = player.get_by_role("button", name="first step", exact=True)
    if first.is_enabled():  # the second size: the same player, still at the cutoff
        first.click()
    expect(player.locator(".ev-counter")).to_have_text("step 0 of 23")
    player.get_by_role("button", name="next cutoff", exact=True).click()
    expect(player.locator(".ev-counter")).to_have_text("step 13 of 23")
    page.wait_for_timeout(300)  # the diagram's transition
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the window"
    text_box = page.locator(".ev-app-text").bounding_box()
    side = page.locator(".ev-app-side").bounding_box()
    assert text_box["x"] + text_box["width"] <= side["x"], "the text box runs under the controls"
    assert side["x"] + side["width"] <= width
    assert page.get_by_role("button", name="Search", exact=True).bounding_box()["y"] < height / 2
    assert player.locator(".ev-canvas > svg").bounding_box()["y"] < height - 200  # the tree shows on the first screen
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"playground-{width}x{height}.png"))
