"""DOT text for a tree or one step of a search: pure text, no Graphviz needed.

>>> import expectviz as ev
>>> r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
>>> text = frame_dot(r.trace, 13)
>>> text.splitlines()[0]
'digraph expectviz {'
>>> [line.strip()[:25] for line in text.splitlines() if line.strip().startswith("n5 [")]   # C
['n5 [shape=invtriangle, wi']

The same :class:`~expectviz.render.scene.Scene` drives this text and the SVG,
so a PNG or PDF made from it (``neato -n2`` with the ``pos`` of the layout,
see :func:`scene_dot`) shows what the SVG shows, at the same positions.
Every label is escaped with :func:`~expectviz.render.style.dot_escape`.
"""

from __future__ import annotations

from ..registry import info
from ..trace import Trace
from ..tree import CHANCE, LEAF, MAX, MIN, Node
from .layout import Layout
from .scene import DEFAULT_MAX_NODES, MORE, Paint, Scene
from .style import (
    CURRENT_HALO,
    CUT_MARK,
    EDGE_COLOURS,
    EDGE_WIDTHS,
    LEAF_BOX,
    LINE_HEIGHT,
    LOOKS,
    MORE_BOX,
    SHAPE,
    STATUS_WORDS,
    dot_escape,
    shorten,
    text_width,
)

__all__ = ["frame_dot", "tree_dot", "scene_dot"]

_SHAPES = {MAX: "triangle", MIN: "invtriangle", CHANCE: "circle", LEAF: "box", MORE: "box"}


def frame_dot(trace: Trace, step: int, *, max_nodes: int | None = DEFAULT_MAX_NODES, legend: bool = True) -> str:
    """The DOT text of ``trace`` after ``step`` events (negative steps count from the end).

    Deterministic: the same trace and step always give the same text.
    """
    scene = Scene(trace.tree, trace, max_nodes)
    frame = trace.frame(step)
    return scene_dot(scene, scene.paint(frame), legend=legend)


def tree_dot(tree: Node, *, max_nodes: int | None = DEFAULT_MAX_NODES, legend: bool = True) -> str:
    """The DOT text of a bare tree (no search state).

    >>> import expectviz as ev
    >>> print(tree_dot(ev.parse("max(a: 1, b: 2)"), legend=False))  # doctest: +NORMALIZE_WHITESPACE
    digraph expectviz {
      graph [ordering=out, splines=false, nodesep=0.14, ranksep=0.42, fontname="Helvetica", fontsize=12,
             labelloc=t, labeljust=l, label="3 nodes\\l"];
      node [fontname="Helvetica", fontsize=14, fixedsize=true, style=filled, fillcolor="#FFFFFF", color="#000000"];
      edge [arrowhead=none, fontname="Helvetica", fontsize=11];
      n0 [shape=triangle, width=0.556, height=0.472, label="", tooltip="MAX"];
      n1 [shape=box, width=0.472, height=0.333, label="1", tooltip="leaf at path 0"];
      n2 [shape=box, width=0.472, height=0.333, label="2", tooltip="leaf at path 1"];
      n0 -> n1 [label="a"];
      n0 -> n2 [label="b"];
    }
    """
    from ..search import as_tree

    scene = Scene(as_tree(tree), None, max_nodes)
    return scene_dot(scene, scene.paint(None), legend=legend)


def _num(x: float) -> str:
    return f"{x:.3f}"


def scene_dot(scene: Scene, paint: Paint, *, where: Layout | None = None, legend: bool = True) -> str:
    """DOT for one painted frame; with ``where``, every node is pinned (``pos="x,y!"``, for ``neato -n2``)."""
    ranksep = 0.42 if any(it.edge_label for it in scene.items) else 0.28
    caption = paint.caption + ("\n" + paint.explanation if paint.explanation else "")
    label = dot_escape(caption, newline="\\l")
    lines = [
        "digraph expectviz {",
        f"  graph [ordering=out, splines=false, nodesep=0.14, ranksep={ranksep:.2f}, "
        f'fontname="Helvetica", fontsize=12, labelloc=t, labeljust=l, label={label}];',
        '  node [fontname="Helvetica", fontsize=14, fixedsize=true, style=filled, fillcolor="#FFFFFF", '
        'color="#000000"];',
        '  edge [arrowhead=none, fontname="Helvetica", fontsize=11];',
    ]
    height = where.height if where is not None else 0.0
    pinned: list[str] = []  # with a layout: values and annotation lines as nodes of their own, where the SVG has them
    for k, it in enumerate(scene.items):
        look = paint.items[k]
        attrs: list[str] = [f"shape={_SHAPES[it.kind]}"]
        if it.kind == LEAF:
            w, h = it.shape_width, LEAF_BOX
        elif it.kind == MORE:
            w, h = it.shape_width, MORE_BOX
        else:
            w, h = it.shape_width, SHAPE
        attrs.append(f"width={_num(w / 72)}, height={_num(h / 72)}")
        if it.kind in (LEAF, MORE):
            inner = it.leaf_text
        else:
            inner = it.name if len(it.name) <= 2 else ""
        attrs.append(f"label={dot_escape(inner)}")
        if look.status != "plain":
            style = LOOKS[look.status]
            dot_style = style.dot_style + (
                ",rounded,dashed"
                if it.kind == MORE and "dashed" not in style.dot_style
                else ",rounded"
                if it.kind == MORE
                else ""
            )
            outline = CURRENT_HALO if look.status == "current" else style.stroke
            attrs.append(
                f'style="{dot_style}", fillcolor="{style.fill}", color="{outline}", '
                f'penwidth={style.width:.1f}, fontcolor="{style.text}"'
            )
            if look.status == "current":
                attrs.append("peripheries=2")
        elif it.kind == MORE:
            attrs.append('style="filled,rounded,dashed"')
        attrs.append(f"tooltip={dot_escape(scene.tooltip(k, look))}")
        if it.kind == MORE:
            attrs.append("fontsize=11")
        extra: list[str] = []
        long_name = shorten(it.name, 12) if it.name and (len(it.name) > 2 or it.kind == LEAF) else ""
        if where is None:
            extra = [line for line in (long_name, look.value, *look.lines) if line]
            if extra:
                attrs.append(f"xlabel={dot_escape(chr(10).join(extra))}")
        else:
            cx, cy = where.x[k], where.y[k] - scene.height / 2 + SHAPE / 2 + 3
            attrs.append(f'pos="{cx:.1f},{height - cy:.1f}!"')
            side = it.shape_width / 2 + 5
            if look.value:
                tw = text_width(look.value, 13)
                pinned.append(
                    f"  {it.id}_v [shape=plaintext, fixedsize=false, width=0, height=0, margin=0, fontsize=13, "
                    f'fontname="Helvetica-Bold", label={dot_escape(look.value)}, pos="{cx + side + tw / 2:.1f},'
                    f'{height - cy:.1f}!"];'
                )
            if long_name:
                tw = text_width(long_name)
                pinned.append(
                    f"  {it.id}_n [shape=plaintext, fixedsize=false, width=0, height=0, margin=0, "
                    f'fontname="Helvetica-Oblique", label={dot_escape(long_name)}, '
                    f'pos="{cx - side - tw / 2:.1f},{height - cy:.1f}!"];'
                )
            if it.slots:
                block = len(it.slots) * LINE_HEIGHT
                text = "\\n".join(dot_escape(line or " ")[1:-1] for line in look.lines)
                pinned.append(
                    f"  {it.id}_a [shape=plaintext, fixedsize=true, width={_num(it.width / 72)}, "
                    f'height={_num(block / 72)}, margin=0, fontsize=11, label="{text}", '
                    f'pos="{cx:.1f},{height - (cy + SHAPE / 2 + 3 + block / 2):.1f}!"];'
                )
        lines.append(f"  {it.id} [{', '.join(attrs)}];")
    lines.extend(pinned)
    for k, it in enumerate(scene.items):
        if it.parent < 0:
            continue
        look = paint.items[k]
        attrs = []
        text = it.edge_label
        if look.cut_mark:
            text = (text + "  " if text else "") + CUT_MARK
        if text:
            attrs.append(f"label={dot_escape(text)}")
        kind = "normal" if look.status == "plain" else look.edge
        if kind != "normal":
            attrs.append(f'color="{EDGE_COLOURS[kind]}", penwidth={EDGE_WIDTHS[kind]:.1f}')
            if kind == "pruned":
                attrs.append("style=dashed")
        if it.kind == MORE:
            attrs.append("style=dotted")
        suffix = f" [{', '.join(attrs)}]" if attrs else ""
        tail = scene.items[it.parent].id
        if where is not None and scene.items[it.parent].slots:
            tail += "_a"  # edges leave from under the annotation lines, as in the SVG
        lines.append(f"  {tail} -> {it.id}{suffix};")
    if legend and scene.algorithm is not None:
        lines.append(_legend_node(scene, where))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _legend_node(scene: Scene, where: Layout | None) -> str:
    rows = ["\u25b3 MAX   \u25bd MIN   \u25cb CHANCE   \u25a1 leaf"]
    fills = {
        "current": "orange, double outline",
        "active": "yellow, bold outline",
        "done": "blue",
        "probed": "purple, dashed",
        "pruned": "grey, dashed",
        "unvisited": "white",
    }
    statuses = ["current", "active", "done", "pruned", "unvisited"]
    facts = info(scene.algorithm) if scene.algorithm is not None else None
    if facts is not None and facts.probes:
        statuses.insert(3, "probed")
    rows.append("; ".join(f"{fills[s]}: {STATUS_WORDS[s]}" for s in statuses[:3]))
    rows.append("; ".join(f"{fills[s]}: {STATUS_WORDS[s]}" for s in statuses[3:]))
    windowed = facts is not None and facts.windowed
    cut = f"; {CUT_MARK}: pruned by a cutoff" if windowed else ""
    rows.append(f"thick red edges: call stack{cut}; \u2265/\u2264 v: a bound")
    if windowed:
        rows.append("\u03b1\u03b2 [\u03b1, \u03b2]: window searched with; range [lo, hi]: what the leaves seen prove")
    if facts is not None and facts.star:
        rows.append("L,U: a chance node's running bounds; \u03b1\u1d62\u03b2\u1d62: a chance child's window")
    label = dot_escape("\n".join(rows), newline="\\l")
    pos = ""
    if where is not None:
        pos = f', pos="{where.width / 2:.1f},{-14 * len(rows):.1f}!"'
    return (
        f'  legend [shape=note, fixedsize=false, fontsize=11, style=filled, fillcolor="#FFFFFF", label={label}{pos}];'
    )
