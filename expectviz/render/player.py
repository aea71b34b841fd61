"""The step-through player, side-by-side comparison, and a Result's Jupyter display.

>>> import expectviz as ev
>>> r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
>>> p = play(r)
>>> p
Player(algorithm='alphabeta', steps=23)
>>> p.step = 13                      # what the Next button does in the browser; the diagram follows
>>> p.frame.node((1, 1)).status
'pruned'
>>> p.views[0]["texts"][13][:24]
'Step 13. C is a MIN node'

The player is one anywidget (:mod:`expectviz.render.widget`, with its front end in
``player.js`` and ``player.css``): Python sends every step's diagram, sentence and
call stack once, packed compactly (:mod:`expectviz.render.packed`), and the
browser steps through them with no round trip through the kernel, so a saved
or disconnected notebook still steps.  The controls: first, previous,
play/pause, next, last, next cutoff (for algorithms that cut off), a step
slider and the speed; with the player focused, the arrow keys, Home/End,
``c`` (next cutoff) and Space (play/pause).  The diagram fits the panel's
width; zoom in and out with the buttons or Ctrl+wheel.  The same module,
written into a page, is :func:`~expectviz.render.export.export_html`'s player.

anywidget is imported when a widget is made, not with this module, so that a
Result still displays (as SVG and text) where it is missing.
"""

from __future__ import annotations

import html
from bisect import bisect_right
from typing import TYPE_CHECKING, Any

from ..options import options
from ..search import Result
from ..trace import Trace
from .diagram import draw
from .scene import DEFAULT_MAX_NODES

if TYPE_CHECKING:
    from .widget import Compare, Player

__all__ = ["Player", "Compare", "play", "compare", "result_mimebundle", "align_steps"]


def __getattr__(name: str) -> Any:
    if name in ("Player", "Compare"):
        from . import widget

        return getattr(widget, name)
    raise AttributeError(f"module 'expectviz.render.player' has no attribute {name!r}")


def align_steps(leader: Trace, follower: Trace) -> list[int]:
    """For each step of ``leader``, the step of ``follower`` shown beside it.

    Steps are aligned by what happens, not by the clock: an event of the
    follower (a visit, a leaf, a backup, a cutoff... of some node) waits until
    the leader has done the same event at the same node; events the leader
    never does (the subtrees alpha-beta prunes, say) do not wait.  So two
    searches of one tree stand at the same place in it: at alpha-beta's cutoff
    at C (AIMA Fig. 5.5), minimax has searched c2 and c3 and waits to back up C.
    A trace aligned with itself steps in lockstep.

    >>> import expectviz as ev
    >>> tree = ev.textbook("aima-fig-5.2")
    >>> m, a = ev.minimax(tree), ev.alphabeta(tree)
    >>> steps = align_steps(a.trace, m.trace)
    >>> steps[0], steps[13], steps[-1], len(m.trace)
    (0, 16, 26, 26)
    """

    def keys(trace: Trace) -> list[tuple[str, tuple[int, ...], int]]:
        seen: dict[tuple[str, tuple[int, ...]], int] = {}
        out = []
        for event in trace:
            key = (event.kind, event.path)
            seen[key] = seen.get(key, 0) + 1
            out.append((event.kind, event.path, seen[key]))
        return out

    done_at = {key: i + 1 for i, key in enumerate(keys(leader))}
    gates: list[int] = []
    gate = 0
    for key in keys(follower):
        gate = max(gate, done_at.get(key, 0))
        gates.append(gate)
    return [bisect_right(gates, k) for k in range(len(leader) + 1)]


def play(
    result: Result | Trace,
    *,
    step: int = 0,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    interval: int = 700,
    legend: bool = True,
    predict: bool = False,
) -> Player:
    """A player for one search (the search must have been run with ``trace=True``).

    Args:
        result: a Result (or its Trace).
        step: the step shown first (0: before the search; -1: the end).
        max_nodes: larger trees are drawn with collapsed subtrees (see :func:`expectviz.render.draw`).
        interval: milliseconds per step when playing (the speed control changes it).
        legend: draw the key under the diagram.
        predict: leaves show "?" until the search evaluates them, so that students can predict the
            values before the step reveals them (a pruned leaf keeps its "?": the search never looked).
    """
    from .widget import Player

    return Player(result, step=step, max_nodes=max_nodes, interval=interval, legend=legend, predict=predict)


def compare(
    result_a: Result,
    result_b: Result,
    *,
    step: int = 0,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    interval: int = 700,
    legend: bool = True,
    predict: bool = False,
) -> Compare:
    """Two searches of the same tree side by side, with their node counts, stepped together.

    Both are drawn on one layout (the nodes either search reaches), so their trees line up.  The
    step runs through ``result_a``; ``result_b`` follows, aligned by the events at each node (see
    :func:`align_steps`): e.g. ``compare(ev.alphabeta(t), ev.minimax(t))`` shows minimax searching
    what alpha-beta prunes.  "Next cutoff" stops at the cutoffs of either search.
    """
    from .widget import Compare

    return Compare(
        result_a, result_b, step=step, max_nodes=max_nodes, interval=interval, legend=legend, predict=predict
    )


def result_mimebundle(result: Result) -> dict[str, Any]:
    """How Jupyter shows a Result: the player, a static SVG of the end, and the text repr.

    The SVG and the text are what a notebook shows where the player cannot run (GitHub,
    nbconvert, an untrusted or reopened notebook).  Without anywidget: SVG and text; without
    Graphviz's ``dot``: text only.  Never raises.
    """
    bundle: dict[str, Any] = {"text/plain": repr(result)}
    try:
        bundle["image/svg+xml"] = draw(result).svg
    except Exception:  # no dot, or anything else: a repr must not fail
        return bundle
    if result.trace is None:
        return bundle
    if len(result.trace) > options.max_display_steps:  # a player over this many steps is no way to read it
        note = (
            f"This search recorded {len(result.trace):,} steps, more than ev.options.max_display_steps = "
            f"{options.max_display_steps:,}, so this is its final diagram. To step through a part, search with a "
            "depth limit (depth=...) or search a subtree; ev.play(result) opens the player on all of it anyway."
        )
        bundle["text/html"] = f"<div>{bundle['image/svg+xml']}<p><i>{html.escape(note)}</i></p></div>"
        return bundle
    try:
        view = play(result, step=-1)._repr_mimebundle_()
    except Exception:
        return bundle
    data = view[0] if isinstance(view, tuple) else view
    if data and WIDGET_MIME in data:
        bundle[WIDGET_MIME] = data[WIDGET_MIME]
    return bundle


WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
