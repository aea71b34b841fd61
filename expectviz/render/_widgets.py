"""The widgets behind :func:`~expectviz.render.player.play` and :func:`~expectviz.render.player.compare`.

This module imports ipywidgets; :mod:`expectviz.render.player` (which describes
the controls) imports it only when a widget is made.
"""

from __future__ import annotations

import html
from bisect import bisect_right
from typing import Any

import ipywidgets as widgets

from ..replay import Frame
from ..search import Result
from ..trace import Trace
from ..tree import KIND_NAMES, MAX, MIN
from .diagram import Renderer, renderer_for
from .layout import RenderError
from .player import align_steps
from .scene import DEFAULT_MAX_NODES
from .style import interval, number

__all__ = ["Player", "Compare"]

STACK_ROWS = 40
"""The call-stack panel shows this many innermost calls."""


def _trace_of(result: Result | Trace) -> Trace:
    trace = result.trace if isinstance(result, Result) else result
    if not isinstance(trace, Trace):
        raise RenderError("this result has no trace to play: run the search with trace=True (the default)")
    return trace


class _Panel:
    """The diagram, sentence and call-stack panel of one trace, redrawn per step."""

    def __init__(self, renderer: Renderer, *, title: str = "") -> None:
        self.renderer = renderer
        assert renderer.trace is not None
        self.trace: Trace = renderer.trace
        self.title = widgets.HTML(value=title)
        self.diagram = widgets.HTML(layout=widgets.Layout(overflow="auto"))
        self.explanation = widgets.HTML(layout=widgets.Layout(min_height="3em"))
        self.stack = widgets.HTML(layout=widgets.Layout(min_width="16em"))
        self.frame: Frame | None = None

    def show(self, step: int) -> None:
        r = self.renderer
        frame = self.trace.frame(step)
        self.frame = frame
        self.diagram.value = r.drawer.svg(r.scene.paint(frame))
        self.explanation.value = f"<b>Step {frame.step} of {len(self.trace)}.</b> {html.escape(frame.explanation)}"
        self.stack.value = self._stack_html(frame)

    def _stack_html(self, frame: Frame) -> str:
        trace = self.trace
        windowed = trace.info.windowed
        rows = []
        stack = frame.stack
        shown = range(max(0, len(stack) - STACK_ROWS), len(stack))  # the innermost calls: a deep stack is long
        if len(stack) > STACK_ROWS:
            rows.append(f"<tr><td colspan='5'><i>{len(stack) - STACK_ROWS:,} more calls above</i></td></tr>")
        for depth in shown:
            path = stack[depth]
            node = trace.node(path)
            state = frame.node(path)
            cells = [
                "&nbsp;" * (2 * depth) + html.escape(trace.describe(path)),
                KIND_NAMES[node.kind],
            ]
            if windowed:
                cells.append(html.escape(interval(state.window)) if state.window else "")
            value = number(state.value) if state.value is not None and node.kind in (MAX, MIN) else ""
            cells.append(html.escape(value))
            extra = []
            if state.bounds is not None:
                extra.append("L,U " + interval(state.bounds))
            if state.child_window is not None:
                extra.append("\u03b1\u1d62\u03b2\u1d62 " + interval(state.child_window))
            if state.probe is not None:
                extra.append("probe " + number(state.probe))
            cells.append(html.escape("; ".join(extra)))
            rows.append("<tr>" + "".join(f"<td style='padding:1px 6px'>{c}</td>" for c in cells) + "</tr>")
        head = ["node", "kind"] + (["[\u03b1, \u03b2]"] if windowed else []) + ["value so far", "bounds"]
        header = "<tr>" + "".join(f"<th style='text-align:left;padding:1px 6px'>{h}</th>" for h in head) + "</tr>"
        body = "".join(rows) if rows else f"<tr><td colspan='{len(head)}'><i>empty</i></td></tr>"
        visited = frame.stats.nodes_visited
        return (
            "<div style='font-size:90%'><b>Call stack</b> (root first)"
            f"<table style='border-collapse:collapse'>{header}{body}</table>"
            f"<div style='margin-top:6px'>Nodes visited so far: {visited} of "
            f"{self.trace.stats().nodes_visited}</div></div>"
        )


def _controls(steps: int, interval_ms: int) -> tuple[widgets.Play, widgets.IntSlider, widgets.IntSlider]:
    player = widgets.Play(
        value=0, min=0, max=steps, step=1, interval=interval_ms, description="Play", show_repeat=False
    )
    slider = widgets.IntSlider(
        value=0,
        min=0,
        max=steps,
        description="step",
        continuous_update=True,
        layout=widgets.Layout(width="380px"),
    )
    widgets.jslink((player, "value"), (slider, "value"))
    speed = widgets.IntSlider(
        value=interval_ms,
        min=50,
        max=2000,
        step=50,
        description="ms/step",
        continuous_update=True,
        layout=widgets.Layout(width="260px"),
    )
    widgets.jslink((speed, "value"), (player, "interval"))
    return player, slider, speed


def _button(description: str, tooltip: str, icon: str = "") -> widgets.Button:
    return widgets.Button(
        description=description, tooltip=tooltip, icon=icon, layout=widgets.Layout(width="auto", min_width="3em")
    )


class Player(widgets.VBox):  # type: ignore[misc]
    """Steps through one search: the diagram, the sentence and the call stack of each step.

    Set :attr:`step` (or move the slider) to show another step.
    """

    def __init__(
        self,
        result: Result | Trace,
        *,
        step: int = 0,
        max_nodes: int | None = DEFAULT_MAX_NODES,
        interval: int = 700,
        legend: bool = True,
    ) -> None:
        trace = _trace_of(result)
        self.trace = trace
        self._panel = _Panel(renderer_for(trace, max_nodes=max_nodes, legend=legend))
        steps = len(trace)
        self.play_control, self.slider, self.speed = _controls(steps, interval)
        self.cutoff_steps = trace.steps("cutoff")
        first = _button("", "first step (before the search)", "step-backward")
        previous = _button("", "previous step", "chevron-left")
        following = _button("", "next step", "chevron-right")
        last = _button("", "last step", "step-forward")
        self.next_cutoff_button = _button("next cutoff \u2702", "jump to the next step where a cutoff prunes")
        first.on_click(lambda _: self._go(0))
        previous.on_click(lambda _: self._go(self.step - 1))
        following.on_click(lambda _: self._go(self.step + 1))
        last.on_click(lambda _: self._go(steps))
        self.next_cutoff_button.on_click(lambda _: self.next_cutoff())
        controls = widgets.HBox(
            [self.play_control, first, previous, self.slider, following, last, self.next_cutoff_button],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        body = widgets.HBox([self._panel.diagram, self._panel.stack], layout=widgets.Layout(align_items="flex-start"))
        super().__init__([controls, self.speed, self._panel.explanation, body])
        self.slider.observe(self._on_step, names="value")
        self._go(step if step >= 0 else steps + 1 + step)
        self._show(self.slider.value)

    # -- the parts, for code and tests

    @property
    def diagram(self) -> widgets.HTML:
        """The HTML widget holding the current step's SVG."""
        return self._panel.diagram

    @property
    def explanation(self) -> widgets.HTML:
        """The HTML widget holding the current step's sentence."""
        return self._panel.explanation

    @property
    def stack_panel(self) -> widgets.HTML:
        """The HTML widget listing the call stack."""
        return self._panel.stack

    @property
    def frame(self) -> Frame:
        """The frame shown."""
        assert self._panel.frame is not None
        return self._panel.frame

    @property
    def step(self) -> int:
        """The step shown (0: before the search; ``len(trace)``: the end)."""
        return int(self.slider.value)

    @step.setter
    def step(self, k: int) -> None:
        self._go(k)

    def next_cutoff(self) -> None:
        """Jump to the next step where a cutoff prunes (no move when there is none)."""
        i = bisect_right(self.cutoff_steps, self.step)
        if i < len(self.cutoff_steps):
            self._go(self.cutoff_steps[i])

    def _go(self, k: int) -> None:
        self.slider.value = max(0, min(len(self.trace), int(k)))

    def _on_step(self, change: dict[str, Any]) -> None:
        self._show(int(change["new"]))

    def _show(self, k: int) -> None:
        self._panel.show(k)
        self.next_cutoff_button.disabled = bisect_right(self.cutoff_steps, k) >= len(self.cutoff_steps)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        bundle: dict[str, Any] | None = super()._repr_mimebundle_(**kwargs)
        if bundle is not None:
            bundle["image/svg+xml"] = self.diagram.value  # what a saved notebook shows without the kernel
            bundle["text/plain"] = repr(self)
        return bundle

    def __repr__(self) -> str:
        return f"Player(algorithm={self.trace.algorithm!r}, steps={len(self.trace)})"


class Compare(widgets.VBox):  # type: ignore[misc]
    """Two searches of one tree side by side, stepped together by one slider.

    The slider runs over the steps of the first result; the second follows by
    :func:`~expectviz.render.player.align_steps` (aligned by the events at each node).
    """

    def __init__(
        self,
        result_a: Result,
        result_b: Result,
        *,
        max_nodes: int | None = DEFAULT_MAX_NODES,
        interval: int = 700,
        legend: bool = True,
    ) -> None:
        a, b = _trace_of(result_a), _trace_of(result_b)
        if not a.tree == b.tree:
            raise RenderError("compare() needs two searches of the same tree")
        self.traces = (a, b)
        self.mapping = align_steps(a, b)
        self.panels = tuple(
            _Panel(renderer_for(t, max_nodes=max_nodes, legend=legend), title=_title(t)) for t in (a, b)
        )
        self.play_control, self.slider, self.speed = _controls(len(a), interval)
        columns = [
            widgets.VBox([p.title, p.explanation, p.diagram], layout=widgets.Layout(width="50%")) for p in self.panels
        ]
        super().__init__([widgets.HBox([self.play_control, self.slider, self.speed]), widgets.HBox(columns)])
        self.slider.observe(lambda change: self._show(int(change["new"])), names="value")
        self._show(0)

    @property
    def step(self) -> int:
        """The step of the first search shown."""
        return int(self.slider.value)

    @step.setter
    def step(self, k: int) -> None:
        self.slider.value = max(0, min(len(self.traces[0]), int(k)))

    @property
    def steps(self) -> tuple[int, int]:
        """The steps shown of each search."""
        return self.step, self.mapping[self.step]

    def _show(self, k: int) -> None:
        self.panels[0].show(k)
        self.panels[1].show(self.mapping[k])
        for panel, step in zip(self.panels, (k, self.mapping[k]), strict=True):
            panel.title.value = _title(panel.trace, step)

    def __repr__(self) -> str:
        a, b = self.traces
        return f"Compare({a.algorithm!r}: {len(a)} steps, {b.algorithm!r}: {len(b)} steps)"


def _title(trace: Trace, step: int | None = None) -> str:
    s = trace.stats()
    so_far = ""
    if step is not None:
        visited = trace.frame(step).stats.nodes_visited
        so_far = f"; {visited} visited so far"
    return (
        f"<b>{html.escape(trace.algorithm)}</b>: {s.nodes_visited} nodes visited, "
        f"{s.leaves_evaluated} leaves evaluated, {s.cutoffs} cutoffs{so_far}"
    )
