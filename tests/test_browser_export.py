"""The exported HTML player, opened from disk in headless Chromium with the network off.

Skips itself (with the reason) where Chromium or Playwright is missing; `make test` installs Chromium on
Debian when it can (scripts/ensure-chromium.sh).
"""

from __future__ import annotations

import os
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

CHROMIUM, ARGS = _lab.CHROMIUM, _lab.CHROMIUM_ARGS

pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) or shutil.which("chromium")), reason=f"no Chromium at {CHROMIUM}"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    executable = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    with playwright_api.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=executable, args=ARGS)
        yield instance
        instance.close()


def test_exported_fig_5_2_steps_offline(browser: Any, tmp_path: Path) -> None:
    result = ev.alphabeta("aima-fig-5.2")
    trace = result.trace
    assert trace is not None
    page_file = tmp_path / "trace.html"
    ev.export_html(result, page_file)

    context = browser.new_context(offline=True, viewport={"width": 1200, "height": 900})
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(page_file.as_uri())

    def shown() -> tuple[str, str, str]:
        return (
            page.inner_text("#counter"),
            page.inner_text("#explanation"),
            page.eval_on_selector("#diagram", "element => element.innerHTML"),
        )

    renderer = renderer_for(trace)

    def expected_svg(k: int) -> str:
        return renderer.drawer.svg(renderer.scene.paint(trace.frame(k)))

    counter, explanation, svg = shown()
    assert counter == f"step 0 of {len(trace)}"
    assert explanation == f"Step 0. {trace.frame(0).explanation}"
    assert "<svg" in svg

    page.click("#next")
    assert shown()[1] == f"Step 1. {trace.frame(1).explanation}"
    page.keyboard.press("ArrowRight")
    assert shown()[0] == f"step 2 of {len(trace)}"

    page.click("#cutoff")  # jump to the cutoff at C
    counter, explanation, svg = shown()
    assert counter == f"step 13 of {len(trace)}"
    assert "c2, c3" in explanation and "α = 3" in explanation
    assert "\u2702" in svg  # the pruned edges carry the scissors mark
    page.keyboard.press("ArrowLeft")
    assert shown()[0] == f"step 12 of {len(trace)}"
    page.keyboard.press("End")
    assert shown()[0] == f"step {len(trace)} of {len(trace)}"
    page.keyboard.press("Home")
    assert shown()[0] == f"step 0 of {len(trace)}"

    # The page rebuilds each frame from its stored pieces exactly as Python draws it.
    for k in (0, 9, 13, len(trace)):
        page.eval_on_selector("#step", "(s, k) => { s.value = k; s.dispatchEvent(new Event('input')); }", k)
        rendered = page.eval_on_selector("#diagram", "element => element.innerHTML")
        reference = page.evaluate(
            "svg => { const d = document.createElement('div'); d.innerHTML = svg; return d.innerHTML; }",
            expected_svg(k),
        )
        assert rendered == reference, k

    page.click("#play")  # plays without errors
    page.wait_for_timeout(300)
    page.click("#play")
    assert errors == []
    assert all(url.startswith("file://") for url in requests), requests
    context.close()
