"""The player and comparison widgets, tested in Python (no browser), and a Result's Jupyter display."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

import expectviz as ev
from expectviz.render import player as player_module
from expectviz.render.player import align_steps, compare, play, result_mimebundle

pytest.importorskip("ipywidgets")
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
WIDGET = "application/vnd.jupyter.widget-view+json"


def test_import_expectviz_stays_light() -> None:
    code = (
        "import sys, expectviz as ev; ev.alphabeta(ev.textbook('aima-fig-5.2'));"
        "import expectviz.render.player, expectviz.render.dot;"
        "print(sorted(m for m in ('ipywidgets', 'graphviz', 'matplotlib') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@needs_dot
def test_setting_the_step_updates_the_view() -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    p = play(r)
    assert repr(p) == "Player(algorithm='alphabeta', steps=23)"
    assert p.step == 0 and p.explanation.value.startswith("<b>Step 0 of 23.</b> Before the search")
    before = p.diagram.value
    p.step = 13
    assert p.frame.step == 13 and p.frame.node((1, 1)).status == "pruned"
    assert "2 ≤ α = 3" in p.explanation.value
    assert p.diagram.value != before and "alphabeta: step 13 of 23" in p.diagram.value
    assert "\u2702" in p.diagram.value
    assert "&nbsp;C</td>" in p.stack_panel.value and "[3, +\u221e]" in p.stack_panel.value
    p.slider.value = 5  # what the slider (or the Play button, through jslink) does
    assert p.frame.step == 5 and "step 5 of 23" in p.diagram.value
    p.step = 99
    assert p.step == 23
    p.step = -4
    assert p.step == 0


@needs_dot
def test_buttons_and_next_cutoff() -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    p = play(r, step=2)
    assert p.cutoff_steps == [13]
    p.next_cutoff()
    assert p.step == 13 and p.next_cutoff_button.disabled
    p.next_cutoff()
    assert p.step == 13
    controls = p.children[0].children
    buttons = {b.tooltip: b for b in controls if hasattr(b, "click")}
    buttons["next step"].click()
    assert p.step == 14
    buttons["previous step"].click()
    buttons["previous step"].click()
    assert p.step == 12
    buttons["last step"].click()
    assert p.step == 23
    buttons["first step (before the search)"].click()
    assert p.step == 0 and not p.next_cutoff_button.disabled
    assert p.play_control.max == 23 and p.play_control.interval == p.speed.value


@needs_dot
def test_star_panel_shows_bounds() -> None:
    r = ev.star1(ev.textbook("aima-star-exercise"), bounds=(-2, 2))
    p = play(r)
    shown = set()
    for k in range(len(r.trace) + 1):  # type: ignore[arg-type]
        p.step = k
        if "L,U [" in p.stack_panel.value:
            shown.add("bounds")
        if "\u03b1\u1d62\u03b2\u1d62" in p.stack_panel.value:
            shown.add("child window")
    assert shown == {"bounds", "child window"}


@needs_dot
def test_result_mimebundle() -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    bundle = result_mimebundle(r)
    assert set(bundle) == {WIDGET, "image/svg+xml", "text/plain"}
    assert bundle["text/plain"] == repr(r)
    assert "alphabeta: step 23 of 23" in bundle["image/svg+xml"]
    assert r._repr_mimebundle_().keys() == bundle.keys()
    untraced = ev.alphabeta(ev.textbook("aima-fig-5.2"), trace=False)
    assert set(result_mimebundle(untraced)) == {"image/svg+xml", "text/plain"}


def test_result_mimebundle_without_dot(monkeypatch: pytest.MonkeyPatch) -> None:
    from expectviz.render import diagram

    r = ev.alphabeta(ev.parse("max(min(1, 2), min(0, 5))"))

    def missing(*args: object, **kwargs: object) -> object:
        from expectviz.render.layout import GraphvizNotFoundError

        raise GraphvizNotFoundError("no dot")

    monkeypatch.setattr(diagram, "layout", missing)
    assert result_mimebundle(r) == {"text/plain": repr(r)}


@needs_dot
def test_result_mimebundle_without_ipywidgets(monkeypatch: pytest.MonkeyPatch) -> None:
    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))

    def no_widgets(*args: object, **kwargs: object) -> object:
        raise ImportError("No module named 'ipywidgets'")

    monkeypatch.setattr(player_module, "play", no_widgets)
    assert set(result_mimebundle(r)) == {"image/svg+xml", "text/plain"}


@needs_dot
def test_player_mimebundle_has_a_static_fallback() -> None:
    p = play(ev.expectiminimax("coin-flip"), step=-1)
    bundle = p._repr_mimebundle_()
    assert set(bundle) >= {WIDGET, "image/svg+xml", "text/plain"}
    assert bundle["text/plain"] == "Player(algorithm='expectiminimax', steps=14)"


def test_align_steps() -> None:
    tree = ev.textbook("aima-fig-5.2")
    m, a = ev.minimax(tree).trace, ev.alphabeta(tree).trace
    assert m is not None and a is not None
    steps = align_steps(a, m)
    assert len(steps) == len(a) + 1 and steps[0] == 0 and steps[-1] == len(m)
    assert steps == sorted(steps)
    # At alpha-beta's cutoff at C (step 13) minimax searches c2 and c3, and waits to back up C.
    backup_c = next(i for i, e in enumerate(m) if e.kind == "backup" and e.path == (1,))
    assert steps[13] == backup_c and steps[14] == backup_c + 1
    assert align_steps(m, m) == [*range(len(m)), len(m)]


@needs_dot
def test_compare() -> None:
    tree = ev.textbook("aima-fig-5.2")
    c = compare(ev.alphabeta(tree), ev.minimax(tree))
    assert repr(c) == "Compare('alphabeta': 23 steps, 'minimax': 26 steps)"
    c.step = 13
    assert c.steps == (13, c.mapping[13])
    left, right = c.panels
    assert "11 nodes visited" in left.title.value and "13 nodes visited" in right.title.value
    assert "step 13 of 23" in left.diagram.value
    assert f"step {c.mapping[13]} of 26" in right.diagram.value
    with pytest.raises(ValueError):
        compare(ev.alphabeta(tree), ev.minimax("max(1, 2)"))


@needs_dot
def test_untraced_result_cannot_play() -> None:
    with pytest.raises(ValueError):
        play(ev.alphabeta(ev.textbook("aima-fig-5.2"), trace=False))
