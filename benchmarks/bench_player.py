"""The player's latency: what the kernel does once, and what one step costs in the browser.

    python benchmarks/bench_player.py

The player steps in the browser from frames sent once (the exported page runs the same front end), so a step
costs the kernel nothing.  This measures, per case:

- kernel: building what the player is sent (the layout, then every step's changes, for the first chunk of up to
  5,000 steps), the best of three;
- browser: one step, as the page's own clock sees it (median over every step forwards, and over 200 random jumps
  of the slider), in headless Chromium with the exported page (skipped without /usr/bin/chromium and Playwright).

Targets (README): a browser step within 15 ms on AIMA Fig. 5.2 and within 60 ms on a 1,000-node tree.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import expectviz as ev
from expectviz.games.random_trees import uniform_tree
from expectviz.render.player import play

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# In the page: step forwards through every step, then jump to random steps, timing each with performance.now();
# each step includes building the SVG string and the browser parsing it into the page (innerHTML).
MEASURE = """async (jumps) => {
  const slider = document.querySelector('input[aria-label="step"]');
  const last = Number(slider.max);
  const go = (k) => { slider.value = String(k); slider.dispatchEvent(new Event("input", {bubbles: true})); };
  const median = (xs) => { xs.sort((a, b) => a - b); return xs[Math.floor(xs.length / 2)]; };
  go(0);
  const forward = [];
  for (let k = 1; k <= last; k++) {
    const t0 = performance.now(); go(k); document.body.offsetHeight; forward.push(performance.now() - t0);
  }
  let seed = 1;
  const random = () => { seed = (seed * 16807) % 2147483647; return seed / 2147483647; };
  const jumped = [];
  for (let i = 0; i < jumps; i++) {
    const k = Math.floor(random() * (last + 1));
    const t0 = performance.now(); go(k); document.body.offsetHeight; jumped.push(performance.now() - t0);
  }
  return [median(forward), median(jumped)];
}"""


def cases() -> list[tuple[str, ev.Result, int | None, float]]:
    big = uniform_tree(10, 3, seed=7)  # 1,111 nodes
    return [
        ("AIMA Fig. 5.2, alphabeta (13 nodes)", ev.alphabeta(ev.textbook("aima-fig-5.2")), None, 15),
        ("1,111-node tree, alphabeta, every node drawn", ev.alphabeta(big), None, 60),
        ("1,111-node tree, minimax, every node drawn", ev.minimax(big), None, 60),
        ("1,111-node tree, minimax, default max_nodes=150", ev.minimax(big), 150, 60),
    ]


def kernel_seconds(result: ev.Result, max_nodes: int | None) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        play(result, max_nodes=max_nodes)
        best = min(best, time.perf_counter() - start)
    return best


def browser_ms(pages: list[tuple[Path, int]]) -> list[tuple[float, float] | None]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return [None] * len(pages)
    if not Path(CHROMIUM).exists():
        return [None] * len(pages)
    out: list[tuple[float, float] | None] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page: Any = browser.new_page(viewport={"width": 1280, "height": 800})
        for path, _ in pages:
            page.goto(path.as_uri())
            page.wait_for_selector('input[aria-label="step"]')
            forward, jumped = page.evaluate(MEASURE, 200)
            out.append((forward, jumped))
        browser.close()
    return out


def main() -> None:
    rows = cases()
    folder = Path(tempfile.mkdtemp())
    try:
        pages = []
        for i, (_, result, max_nodes, _) in enumerate(rows):
            path = folder / f"case{i}.html"
            ev.export_html(result, path, max_nodes=max_nodes)
            pages.append((path, len(result.trace or ())))
        browser = browser_ms(pages)
        print(f"{'case':50} {'steps':>6} {'kernel s':>9} {'step ms':>8} {'jump ms':>8} {'target':>7}")
        for (name, result, max_nodes, target), timed in zip(rows, browser, strict=True):
            steps = len(result.trace or ())
            kernel = kernel_seconds(result, max_nodes)
            if timed is None:
                print(f"{name:50} {steps:6d} {kernel:9.2f} {'-':>8} {'-':>8} {target:6.0f}  (no browser)")
                continue
            forward, jumped = timed
            verdict = "ok" if max(forward, jumped) <= target else "SLOW"
            print(f"{name:50} {steps:6d} {kernel:9.2f} {forward:8.2f} {jumped:8.2f} {target:6.0f}  {verdict}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
