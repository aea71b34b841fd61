"""The player widget: one anywidget (``player.js`` and ``player.css``) for :func:`~expectviz.render.player.play`
and :func:`~expectviz.render.player.compare`.

This module imports anywidget (and so ipywidgets); :mod:`expectviz.render.player`
imports it only when a widget is made.  The browser does the stepping: Python
sends each view's packed steps once (see :mod:`expectviz.render.packed`), and
the synced ``step`` trait tells either side where the other stands.

Messages, for traces longer than one chunk:

* browser to kernel: ``{"type": "chunk", "view": v, "index": c}``;
* kernel to browser: ``{"type": "chunk", "view": v, "index": c, "data": {...}}``,
  or ``{"type": "error", "view": v, "index": c, "message": "..."}``.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

import anywidget
import traitlets

from ..replay import Frame
from ..search import Result
from ..trace import Trace
from .diagram import renderer_for
from .layout import RenderError, layout
from .packed import CHUNK_STEPS, ViewPacker, aligned_cutoffs, module_text, shared_scenes
from .scene import DEFAULT_MAX_NODES
from .svg import Drawer

__all__ = ["Player", "Compare"]


def trace_of(result: Result | Trace) -> Trace:
    """The trace to play, or RenderError when the search was run without one."""
    trace = result.trace if isinstance(result, Result) else result
    if not isinstance(trace, Trace):
        raise RenderError("this result has no trace to play: run the search with trace=True (the default)")
    return trace


class Player(anywidget.AnyWidget):
    """Steps through one search (or two, side by side): the diagram, the sentence and the call stack.

    Set :attr:`step` to show another step; :attr:`frame` is the trace's frame there.
    """

    _esm = module_text("player.js")
    _css = module_text("player.css")

    step = traitlets.Int(0).tag(sync=True)
    """The step shown (0: before the search; the trace's length: the end)."""
    steps = traitlets.Int(0).tag(sync=True)
    """The last step."""
    interval = traitlets.Int(700).tag(sync=True)
    """Milliseconds per step when playing (the speed control)."""
    cutoffs = traitlets.List(traitlets.Int()).tag(sync=True)
    """The steps where a cutoff prunes (what "next cutoff" jumps to)."""
    views = traitlets.List(traitlets.Dict()).tag(sync=True)
    """Each view's facts and first chunk of packed steps (see :mod:`expectviz.render.packed`)."""
    follow = traitlets.List(traitlets.Int()).tag(sync=True)
    """Two views: the second view's step at each step of the first (empty for one view)."""

    def __init__(
        self,
        result: Result | Trace,
        *,
        step: int = 0,
        max_nodes: int | None = DEFAULT_MAX_NODES,
        interval: int = 700,
        legend: bool = True,
        predict: bool = False,
        chunk_steps: int = CHUNK_STEPS,
    ) -> None:
        trace = trace_of(result)
        renderer = renderer_for(trace, max_nodes=max_nodes, legend=legend)
        packer = ViewPacker(trace, renderer.scene, renderer.drawer, predict=predict, chunk_steps=chunk_steps)
        self._setup((packer,), [], trace.steps("cutoff"), step, interval)

    def _setup(
        self, packers: tuple[ViewPacker, ...], follow: list[int], cutoffs: list[int], step: int, interval: int
    ) -> None:
        self.trace = packers[0].trace
        self.packers = packers
        n = len(self.trace)
        first = max(0, min(n, step if step >= 0 else n + 1 + step))
        firsts = [first] + ([follow[first]] if follow else [])
        views = [packer.view(k) for packer, k in zip(packers, firsts, strict=True)]
        super().__init__(step=first, steps=n, interval=int(interval), cutoffs=cutoffs, views=views, follow=follow)
        self.on_msg(self._on_message)

    @traitlets.validate("step")
    def _clamp(self, proposal: dict[str, Any]) -> int:
        return max(0, min(len(self.trace), int(proposal["value"]))) if hasattr(self, "trace") else 0

    @property
    def frame(self) -> Frame:
        """The trace's frame at :attr:`step`."""
        return self.trace.frame(self.step)

    def next_cutoff(self) -> None:
        """Jump to the next step where a cutoff prunes (no move when there is none)."""
        i = bisect_right(self.cutoffs, self.step)
        if i < len(self.cutoffs):
            self.step = self.cutoffs[i]

    def _on_message(self, widget: Any, content: Any, buffers: Any) -> None:
        """Answer the browser's request for a chunk of steps."""
        if not isinstance(content, dict) or content.get("type") != "chunk":
            return
        view, index = content.get("view"), content.get("index")
        reply: dict[str, Any] = {"type": "chunk", "view": view, "index": index}
        try:
            reply["data"] = self.packers[int(view)].chunk(int(index))  # type: ignore[arg-type]
        except (IndexError, TypeError, ValueError) as error:
            reply.update(type="error", message=str(error))
        self.send(reply)

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[Any, Any], dict[Any, Any]] | None:
        """The widget, with the diagram of the step shown and the repr: what a notebook shows without the player
        (GitHub, nbconvert, an untrusted or reopened notebook); two views side by side as HTML too."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is not None:
            steps = [self.step] + ([self.follow[self.step]] if self.follow else [])
            svgs = [
                "".join(packer.drawer.parts(packer.scene.paint(packer.trace.frame(k))))
                for packer, k in zip(self.packers, steps, strict=True)
            ]
            bundle[0]["image/svg+xml"] = svgs[0]
            if len(svgs) > 1:
                cells = "".join(f'<div style="flex: 1 1 0; min-width: 0">{svg}</div>' for svg in svgs)
                bundle[0]["text/html"] = f'<div style="display: flex; gap: 12px">{cells}</div>'
            bundle[0]["text/plain"] = repr(self)
        return bundle

    def __repr__(self) -> str:
        return f"Player(algorithm={self.trace.algorithm!r}, steps={len(self.trace)})"


class Compare(Player):
    """Two searches of one tree side by side on one layout, stepped together.

    :attr:`step` runs over the steps of the first search; the second follows by
    :func:`~expectviz.render.player.align_steps` (aligned by the events at each node).
    """

    def __init__(
        self,
        result_a: Result | Trace,
        result_b: Result | Trace,
        *,
        step: int = 0,
        max_nodes: int | None = DEFAULT_MAX_NODES,
        interval: int = 700,
        legend: bool = True,
        predict: bool = False,
        chunk_steps: int = CHUNK_STEPS,
    ) -> None:
        from .player import align_steps

        a, b = trace_of(result_a), trace_of(result_b)
        if not a.tree == b.tree:
            raise RenderError("compare() needs two searches of the same tree")
        self.traces = (a, b)
        self.mapping = align_steps(a, b)
        scenes = shared_scenes((a, b), max_nodes)
        where = layout(scenes[0])
        packers = tuple(
            ViewPacker(
                trace,
                scene,
                Drawer(scene, where, legend=legend),
                predict=predict,
                chunk_steps=chunk_steps,
                title=trace.algorithm,
            )
            for trace, scene in zip((a, b), scenes, strict=True)
        )
        self._setup(packers, self.mapping, aligned_cutoffs(a, b, self.mapping), step, interval)

    @property
    def pair(self) -> tuple[int, int]:
        """The steps shown of each search."""
        return self.step, self.mapping[self.step]

    def __repr__(self) -> str:
        a, b = self.traces
        return f"Compare({a.algorithm!r}: {len(a)} steps, {b.algorithm!r}: {len(b)} steps)"
