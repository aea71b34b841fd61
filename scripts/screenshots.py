#!/usr/bin/env python3
"""Screenshots of the player, a handout and the exported page, for the README and for review.

    .venv/bin/python scripts/screenshots.py                  # writes the five docs/*.png below
    .venv/bin/python scripts/screenshots.py --scale 1        # the cell outputs at 1 pixel per CSS pixel
    .venv/bin/python scripts/screenshots.py --review shots/  # whole windows, to look at the layout
    .venv/bin/python scripts/screenshots.py --games shots/   # game searches (boards, big trees), for review

The default run writes into docs/ (or --out):

- player-alphabeta-cutoff.png: the player on AIMA Fig. 5.2, alpha-beta at step 13, the cutoff at C;
- player-coin-flip.png: the player on expectiminimax's coin-flip tree at the step where the first
  chance node's value is backed up (the sentence shows the probability-weighted average);
  (these two: a throwaway JupyterLab (tests/_lab.py), simple interface at 1280x900 with the sidebars and the
  status bar hidden, one screenshot of each cell's output, at --scale)
- player-lesson-05.png: the whole JupyterLab window at 1280x800 with the file browser open, lesson 05 run,
  its Star1 player stepped to Star1's first cutoff;
- handout-fig-5.2.png: the PNG ``expectviz render aima-fig-5.2 --algorithm alphabeta --step 13 -o ...`` writes;
- exported-page.png: the page ``ev.export_html`` writes for Fig. 5.2 alpha-beta, opened from disk at 1280x800
  and stepped to 13 with its "next cutoff" button.

With ``--review DIR`` it writes, instead, whole-window screenshots at 1280x800 and 1920x1080 of the
player in JupyterLab (file browser open, as a new user sees it) and of the exported page:
``lab-1280x800.png``, ``lab-1920x1080.png``, ``page-1280x800.png``, ``page-1920x1080.png``.

With ``--games DIR`` it writes whole-window screenshots, at 1280x800 and 1920x1080, of game searches with
their boards: the exported page of alpha-beta with a transposition table on ``XO./X../O..`` (at its end and
at its first table hit), the live player of alpha-beta on all of tic-tac-toe in JupyterLab (with the kernel's
time to make the widget), and the exported page of coin-flip tic-tac-toe's expectiminimax to depth 3; and
the PDF ``expectviz render tictactoe --depth 2`` writes, with a PNG of it (Poppler's pdftoppm, if installed).

Needs Chromium (/usr/bin/chromium, or $EXPECTVIZ_CHROMIUM), Playwright and Graphviz's dot.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import _lab  # noqa: E402

import expectviz as ev  # noqa: E402
from expectviz.tree import CHANCE  # noqa: E402

MAX_BYTES = 400_000


def chance_backup_step(result: ev.Result) -> int:
    """The first step where a chance node's value is backed up (its weighted average is shown)."""
    trace = result.trace
    assert trace is not None
    for i, event in enumerate(trace):
        if event.kind == "backup" and trace.node(event.path).kind == CHANCE:
            return i + 1
    raise SystemExit("no chance node is backed up in this trace")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="folder for the PNGs (default: docs/)")
    parser.add_argument("--scale", type=float, default=2, help="device pixels per CSS pixel (default: 2)")
    parser.add_argument("--review", type=Path, help="write whole-window screenshots for review into this folder")
    parser.add_argument("--games", type=Path, help="write screenshots of game searches into this folder")
    args = parser.parse_args(argv)
    if _lab.chromium_path() is None:
        print(f"screenshots: no Chromium at {_lab.CHROMIUM}", file=sys.stderr)
        return 1
    if args.review is not None:
        return review(args.review)
    if args.games is not None:
        return games(args.games)

    coin_step = chance_backup_step(ev.expectiminimax("coin-flip"))
    shots = [  # (file, cell source, what the output is)
        ("player-alphabeta-cutoff.png", 'ev.play(ev.alphabeta("aima-fig-5.2"), step=13)', "player"),
        ("player-coin-flip.png", f'ev.play(ev.expectiminimax("coin-flip"), step={coin_step})', "player"),
    ]
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with _lab.lab_server() as (base_url, root), _lab.browser() as chromium:
        context = chromium.new_context(viewport={"width": 1280, "height": 900}, device_scale_factor=args.scale)
        context.set_default_timeout(30_000)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        _lab.write_notebook(root, "screenshots.ipynb", ["import expectviz as ev"] + [cell for _, cell, _ in shots])
        _lab.open_notebook(page, base_url, "screenshots.ipynb")
        _lab.hide_chrome(page)
        _lab.run_all(page)
        _lab.wait_for_players(page, sum(kind == "player" for _, _, kind in shots))
        page.evaluate("() => document.fonts.ready.then(() => true)")
        page.mouse.move(0, 0)
        page.wait_for_timeout(500)  # let the last layout settle
        outputs = page.locator(".jp-Cell .jp-OutputArea-output")
        if outputs.count() != len(shots):
            raise SystemExit(f"expected {len(shots)} outputs, found {outputs.count()}")
        too_big = []
        for i, (name, cell, _) in enumerate(shots):
            path = args.out / name
            outputs.nth(i).screenshot(path=str(path), animations="disabled")
            size = path.stat().st_size
            shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
            print(f"{shown}: {size / 1000:.0f} KB  <- {cell}")
            if size > MAX_BYTES:
                too_big.append(f"{shown} is over {MAX_BYTES // 1000} KB: try a smaller --scale")
        context.close()
        lesson_player(chromium, base_url, root, args.out / "player-lesson-05.png", errors)
        exported_page(chromium, args.out / "exported-page.png", errors)
    handout(args.out / "handout-fig-5.2.png")
    for name in ("player-lesson-05.png", "exported-page.png", "handout-fig-5.2.png"):
        path = args.out / name
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"{shown}: {path.stat().st_size / 1000:.0f} KB")
        if path.stat().st_size > MAX_BYTES:
            too_big.append(f"{shown} is over {MAX_BYTES // 1000} KB")
    if errors:
        print("JavaScript errors in the page:", *errors, sep="\n  ", file=sys.stderr)
    print(f"done in {time.monotonic() - started:.0f} s")
    for problem in too_big:
        print(problem, file=sys.stderr)
    return 1 if errors or too_big else 0


LESSON = ROOT / "notebooks" / "05-pruning-chance-nodes.ipynb"


def lesson_player(chromium: Any, base_url: str, root: Path, path: Path, errors: list[str]) -> None:
    """Lesson 05 run in JupyterLab at 1280x800 (file browser open), its Star1 player at the first cutoff."""
    import nbformat

    notebook = nbformat.read(LESSON, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    notebook.metadata.pop("widgets", None)
    nbformat.write(notebook, root / LESSON.name)
    page = _lab.new_page(chromium, width=1280, height=800)
    _lab.open_notebook(page, base_url, LESSON.name)
    _lab.show_file_browser(page)
    _lab.run_all(page)
    player = _lab.wait_for_players(page, 1).first
    if "star1" not in (player.get_attribute("aria-label") or ""):
        raise SystemExit(f"{LESSON.name}: the first player is not Star1's")
    player.get_by_role("button", name="next cutoff", exact=True).click()
    page.wait_for_function(
        "p => !p.querySelector('.ev-counter').textContent.startsWith('step 0 ')", arg=player.element_handle()
    )
    player.evaluate("p => p.scrollIntoView({block: 'end'})")  # all of the player, and its cell's code if it fits
    page.evaluate("() => document.fonts.ready.then(() => true)")
    page.mouse.move(0, 0)
    page.wait_for_timeout(500)
    page.screenshot(path=str(path), animations="disabled")
    errors += page.errors
    _lab.shut_down_kernel(page)
    page.context.close()


def exported_page(chromium: Any, path: Path, errors: list[str]) -> None:
    """The exported page of Fig. 5.2 alpha-beta, from disk at 1280x800, stepped to the cutoff at step 13."""
    with tempfile.TemporaryDirectory(prefix="expectviz-shots-") as tmp:
        page_file = Path(tmp) / "alphabeta.html"
        ev.export_html(ev.alphabeta("aima-fig-5.2"), page_file)
        page = _lab.new_page(chromium, width=1280, height=800)
        page.goto(page_file.as_uri())
        page.wait_for_selector(".ev-canvas svg")
        page.get_by_role("button", name="next cutoff", exact=True).click()
        page.locator(".ev-sentence").filter(has_text="Step 13.").wait_for()
        page.mouse.move(0, 0)
        page.wait_for_timeout(300)
        page.screenshot(path=str(path), animations="disabled")
        errors += page.errors
        page.context.close()


def handout(path: Path) -> None:
    """The handout: the PNG ``expectviz render`` writes for Fig. 5.2 alpha-beta at step 13."""
    command = [
        sys.executable,
        "-m",
        "expectviz",
        "render",
        "aima-fig-5.2",
        "--algorithm",
        "alphabeta",
        "--step",
        "13",
        "-o",
        str(path),
    ]
    subprocess.run(command, check=True, cwd=ROOT)


SIZES = [(1280, 800), (1920, 1080)]


def review(folder: Path) -> int:
    """Whole-window screenshots of the player in JupyterLab and of the exported page, at each of SIZES."""
    folder.mkdir(parents=True, exist_ok=True)
    page_file = folder / "alphabeta.html"
    ev.export_html(ev.alphabeta("aima-fig-5.2"), page_file, step=13)
    errors: list[str] = []
    with _lab.lab_server() as (base_url, root), _lab.browser() as chromium:
        _lab.write_notebook(
            root, "review.ipynb", ['import expectviz as ev\nev.play(ev.alphabeta("aima-fig-5.2"), step=13)']
        )
        for width, height in SIZES:
            page = _lab.new_page(chromium, width=width, height=height)
            _lab.open_notebook(page, base_url, "review.ipynb")
            _lab.show_file_browser(page)
            _lab.run_cell(page, 0)
            player = _lab.wait_for_players(page, 1).first
            player.scroll_into_view_if_needed()
            page.mouse.move(0, 0)
            page.wait_for_timeout(500)
            shot = folder / f"lab-{width}x{height}.png"
            page.screenshot(path=str(shot))
            print(shot)
            errors += page.errors
            _lab.delete_sessions(base_url)
            page.context.close()
            page = _lab.new_page(chromium, width=width, height=height)
            page.goto(page_file.as_uri())
            page.wait_for_selector(".ev-canvas svg")
            shot = folder / f"page-{width}x{height}.png"
            page.screenshot(path=str(shot))
            print(shot)
            errors += page.errors
            page.context.close()
    if errors:
        print("JavaScript errors in the page:", *errors, sep="\n  ", file=sys.stderr)
    return 1 if errors else 0


GAME_PAGES = {  # file stem: the search
    "tictactoe-table": lambda: ev.alphabeta(ev.games.tictactoe("XO./X../O.."), table=True),
    "coinflip-depth3": lambda: ev.expectiminimax("coinflip-tictactoe", depth=3),
    "dice-star2": lambda: ev.star2(ev.games.dice("XO./.../... roll 2"), depth=3),
    "pig-star2-fallback": lambda: ev.star2("pig", depth=4),
    "2048-star1": lambda: ev.star1("2048", depth=2),
    "dice-5x5-table": lambda: ev.star2("dice-5x5", depth=3, table=True, order=ev.games.dice_order),
}
FULL_GAME = (
    'import time, expectviz as ev\nr = ev.alphabeta("tictactoe")\nt = time.perf_counter()\np = ev.play(r, step=-1)\n'
    "print(f'{time.perf_counter() - t:.2f} s')\np"
)
"""The live player on all of tic-tac-toe: the cell times making the widget (the kernel's part of opening it)."""


def games(folder: Path) -> int:
    """Game searches with their boards: exported pages, the live player on all of tic-tac-toe, a PDF."""
    folder.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    pages = []
    for stem, search in GAME_PAGES.items():
        result = search()
        path = folder / f"{stem}.html"
        ev.export_html(result, path)
        pages.append((stem, path, result))
    with _lab.browser() as chromium:
        for stem, path, result in pages:
            assert result.trace is not None
            stops = {"end": len(result.trace)}
            if result.trace.steps("table"):
                stops["first-table-hit"] = result.trace.steps("table")[0]
            if result.trace.steps("probe"):
                stops["first-probe"] = result.trace.steps("probe")[0]
            if result.trace.steps("cutoff"):
                stops["first-cutoff"] = result.trace.steps("cutoff")[0]
            for width, height in SIZES:
                for where, step in stops.items():
                    page = _lab.new_page(chromium, width=width, height=height)
                    page.goto(path.as_uri())
                    page.wait_for_selector(".ev-canvas svg")
                    page.get_by_role("slider", name="step", exact=True).fill(str(step))
                    page.mouse.move(0, 0)
                    page.wait_for_timeout(400)
                    shot = folder / f"page-{stem}-{where}-{width}x{height}.png"
                    page.screenshot(path=str(shot))
                    print(shot)
                    errors += page.errors
                    page.context.close()
        with _lab.lab_server() as (base_url, root):
            _lab.write_notebook(root, "games.ipynb", [FULL_GAME])
            for width, height in SIZES:
                page = _lab.new_page(chromium, width=width, height=height)
                _lab.open_notebook(page, base_url, "games.ipynb")
                _lab.hide_chrome(page)
                _lab.run_cell(page, 0)
                player = _lab.wait_for_players(page, 1).first
                player.scroll_into_view_if_needed()
                page.mouse.move(0, 0)
                page.wait_for_timeout(800)
                timing = page.locator(".jp-OutputArea-output pre").first.inner_text()
                shot = folder / f"lab-tictactoe-alphabeta-{width}x{height}.png"
                page.screenshot(path=str(shot))
                print(shot, f"(the kernel made the player in {timing.strip()})")
                errors += page.errors
                _lab.delete_sessions(base_url)
                page.context.close()
    pdf = folder / "tictactoe-depth2.pdf"
    subprocess.run(
        [sys.executable, "-m", "expectviz", "render", "tictactoe", "--depth", "2", "-o", str(pdf)], check=True, cwd=ROOT
    )
    print(pdf)
    try:
        subprocess.run(["pdftoppm", "-png", "-r", "72", "-singlefile", str(pdf), str(pdf.with_suffix(""))], check=True)
        print(pdf.with_suffix(".png"))
    except FileNotFoundError:
        print("no pdftoppm: the PDF is not turned into a PNG", file=sys.stderr)
    if errors:
        print("JavaScript errors in the page:", *errors, sep="\n  ", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
