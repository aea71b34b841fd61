"""Diagrams of game searches: each node's picture, large explored trees, transposition-table hits.

The pictures come from the game's ``picture`` method, which may be a notebook cell's code: whatever it
returns is cleaned (expectviz.render.picture) before it goes into the SVG, the live player and the files.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import pytest

import expectviz as ev
from expectviz.render.diagram import Renderer, renderer_for
from expectviz.render.packed import ViewPacker, unpack_frames
from expectviz.render.picture import clean_picture
from expectviz.render.scene import MORE, WIDTH_BUDGET, Scene
from expectviz.replay import table_hit

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
needs_cairo = pytest.mark.skipif(importlib.util.find_spec("cairosvg") is None, reason="CairoSVG is not installed")

SVG = "{http://www.w3.org/2000/svg}"
POSITION = "XO./X../O.."


def small(table: bool = False) -> ev.Result:
    return ev.alphabeta(ev.games.tictactoe(POSITION), table=table)


def nested(svg: str) -> list[ET.Element]:
    """The pictures: the <svg> elements inside the diagram's own."""
    root = ET.fromstring(svg)
    return [element for element in root.iter(SVG + "svg") if element is not root]


def drawn_nodes(renderer: Renderer) -> int:
    return sum(1 for it in renderer.scene.items if it.kind != MORE)


class PictureGame:
    """Tic-tac-toe whose pictures are whatever ``draw`` makes of the board's own picture."""

    def __init__(self, draw: Callable[[str], Any]) -> None:
        self.board = ev.games.tictactoe(POSITION)
        self.draw = draw
        self.initial = self.board.initial

    def __getattr__(self, name: str) -> Any:
        return getattr(self.board, name)

    def picture(self, state: Any) -> Any:
        return self.draw(self.board.picture(state))


class TakeAway:
    """A game without pictures: each player takes 1 or 2 counters; whoever takes the last wins."""

    initial = (5, ev.MAX)

    def to_move(self, state: Any) -> str:
        return str(state[1])

    def actions(self, state: Any) -> list[int]:
        return [take for take in (1, 2) if take <= state[0]]

    def result(self, state: Any, take: int) -> Any:
        return (state[0] - take, ev.MIN if state[1] == ev.MAX else ev.MAX)

    def is_terminal(self, state: Any) -> bool:
        return bool(state[0] == 0)

    def utility(self, state: Any) -> int:
        return -1 if state[1] == ev.MAX else 1


# ---------------------------------------------------------------- pictures


@needs_dot
def test_every_drawn_node_of_a_game_has_its_picture() -> None:
    r = small()
    renderer = renderer_for(r)
    svg = ev.draw(r).svg
    pictures = nested(svg)
    with_picture = [it for it in renderer.scene.items if it.picture is not None]
    assert len(pictures) == len(with_picture) == drawn_nodes(renderer) > 20
    for picture in pictures:
        assert picture.get("viewBox") == "0 0 30 30" and picture.get("width") == "36"
    assert ' id="' not in svg  # nothing in a picture can clash with another diagram's ids on the same page
    root = ET.fromstring(svg)
    groups = [g for g in root.iter(SVG + "g") if g.get("data-picture")]
    assert {g.get("data-picture") for g in groups} == {it.id for it in with_picture}


@needs_dot
def test_trees_and_games_without_pictures_draw_none() -> None:
    for result in (ev.alphabeta("aima-fig-5.2"), ev.expectiminimax("coin-flip"), ev.minimax(TakeAway())):
        svg = ev.draw(result).svg
        assert nested(svg) == [] and "data-picture" not in svg and "faded picture" not in svg
    assert nested(ev.draw(ev.textbook("aima-fig-5.2")).svg) == []


@needs_dot
def test_pictures_of_nodes_not_searched_are_faded() -> None:
    r = small()
    renderer = renderer_for(r)
    assert renderer.svg(0).count('fill-opacity="0.62"') == drawn_nodes(renderer)  # nothing searched yet
    middle = len(r.trace) // 2  # type: ignore[arg-type]
    svg = renderer.svg(middle)
    looks = renderer.paint(middle).items
    items = renderer.scene.items
    faded = [k for k, look in enumerate(looks) if look.status in ("pruned", "unvisited") and items[k].kind != MORE]
    assert faded and all(items[k].picture is not None for k in faded)
    assert svg.count('fill-opacity="0.62"') == len(faded)  # what the search has not reached yet
    end = renderer.svg()  # the drawn part is what the search explored; the moves it pruned are in "+N" boxes
    assert 'fill-opacity="0.62"' not in end
    assert "faded picture: a position not searched (yet)" in end


HOSTILE_PICTURES: list[tuple[str, Callable[[str], Any], str]] = [
    ("script", lambda svg: svg.replace("</svg>", "<script>window.pwned = 1</script></svg>"), "<script>"),
    ("onload", lambda svg: svg.replace("<svg ", '<svg onload="window.pwned = 1" '), "event attribute, onload"),
    ("onclick-nested", lambda svg: svg.replace("<rect ", '<rect onclick="x()" ', 1), "onclick"),
    ("image", lambda svg: svg.replace("</svg>", '<image href="http://example.com/x.png"/></svg>'), "<image>"),
    (
        "xlink",
        lambda svg: svg.replace("<rect ", '<rect xmlns:xl="http://www.w3.org/1999/xlink" xl:href="#a" ', 1),
        "link",
    ),
    ("foreign", lambda svg: svg.replace("</svg>", "<foreignObject><div/></foreignObject></svg>"), "foreignObject"),
    ("use", lambda svg: svg.replace("</svg>", '<use href="#x"/></svg>'), "<use>"),
    ("url-fill", lambda svg: svg.replace('fill="#fff"', 'fill="url(http://example.com/#g)"', 1), "url"),
    ("style-url", lambda svg: svg.replace("<rect ", '<rect style="fill: url(http://x/#y)" ', 1), "refers"),
    ("css-escape", lambda svg: svg.replace('fill="#fff"', 'fill="u\\72l(x)"', 1), "CSS escape"),
    ("quote", lambda svg: svg.replace('fill="#fff"', "fill='#fff\"'", 1), "characters"),
    ("not-xml", lambda svg: svg[:-3], "not well-formed"),
    ("not-svg", lambda svg: "<html><body>board</body></html>", "not an <svg>"),
    ("entities", lambda svg: '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]>' + svg, "DOCTYPE"),
    ("deep", lambda svg: svg.replace("</svg>", "<g>" * 2000 + "</g>" * 2000 + "</svg>"), "nested deeper"),
    ("not-text", lambda svg: 42, "returned int"),
    ("raises", lambda svg: 1 / 0, "ZeroDivisionError"),
    ("too-long", lambda svg: svg.replace("</svg>", "<g/>" * 20_000 + "</svg>"), "characters long"),
    (
        "html-namespace",
        lambda svg: svg.replace("</svg>", '<x:script xmlns:x="http://www.w3.org/1999/xhtml"/></svg>'),
        "namespace",
    ),
]


@needs_dot
@pytest.mark.parametrize(("name", "draw", "reason"), HOSTILE_PICTURES, ids=[case[0] for case in HOSTILE_PICTURES])
def test_hostile_pictures_are_left_out_and_said_why(name: str, draw: Callable[[str], Any], reason: str) -> None:
    r = ev.alphabeta(PictureGame(draw))
    svg = ev.draw(r).svg
    assert nested(svg) == []
    lowered = svg.lower()
    for bad in ("<script", "onload=", "onclick=", "http://example", "<foreignobject", "<image", "<use", "href="):
        assert bad not in lowered, bad
    titles = " ".join(t.text or "" for t in ET.fromstring(svg).iter(SVG + "title"))
    assert "picture is not drawn" in titles and reason in titles, titles[:300]


def test_pictures_are_written_again_from_a_whitelist() -> None:
    picture, why = clean_picture(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:ink="http://example.com/ink" viewBox="0,0 , 20 10" '
        'width="80" id="top" class="board" fill="none" ink:label="x">'
        "<title>a board</title><!-- a comment -->"
        '<g id="g1" transform="translate(1, 2) rotate(45)" style="stroke: #333; stroke-width: 2; cursor: pointer">'
        '<rect width="3" height="4" fill="rgb(0, 114, 178)"/><text x="1" y="2" font-family="\'DejaVu Sans\'">'
        "a &lt; b<tspan> &amp; c</tspan> d</text></g></svg>"
    )
    assert why == "" and picture is not None
    assert picture.view_box == "0 0 20 10"
    assert picture.attributes == ' fill="none"'
    assert picture.body == (
        '<g transform="translate(1, 2) rotate(45)" stroke="#333" stroke-width="2">'
        '<rect width="3" height="4" fill="rgb(0, 114, 178)"/>'
        '<text x="1" y="2" font-family="\'DejaVu Sans\'">a &lt; b<tspan> &amp; c</tspan> d</text></g>'
    )
    assert picture.at(0, 0, 36).startswith('<svg x="0" y="0" width="36" height="36" viewBox="0 0 20 10" fill="none">')
    assert clean_picture('<svg width="10px" height="5"><circle r="2"/></svg>')[0].view_box == "0 0 10 5"  # type: ignore[union-attr]
    assert clean_picture("<svg><circle r='2'/></svg>")[1] == "it has neither a viewBox nor a width and height in pixels"
    assert "viewBox" in clean_picture('<svg viewBox="0 0 -1 4"/>')[1]


@needs_dot
def test_a_picture_that_fails_once_costs_only_that_picture() -> None:
    calls = {"n": 0}

    def sometimes(svg: str) -> str:
        calls["n"] += 1
        if calls["n"] == 2:
            raise ValueError("no board today")
        return svg

    renderer = renderer_for(ev.alphabeta(PictureGame(sometimes)))
    notes = [it.picture_note for it in renderer.scene.items if it.picture_note]
    assert notes == ["picture() raised ValueError: no board today"]
    assert len(nested(renderer.svg())) == drawn_nodes(renderer) - 1


@needs_dot
@needs_cairo
def test_png_and_pdf_of_a_game_diagram() -> None:
    import struct

    d = ev.draw(ev.expectiminimax(ev.games.coinflip_tictactoe(POSITION), depth=3))
    png = d.pipe("png", scale=1)
    width, height = struct.unpack(">II", png[16:24])
    assert png[:4] == b"\x89PNG" and width > 600 and height > 200
    assert d.pipe("pdf")[:5] == b"%PDF-"
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    blue = image.tobytes().count(bytes((0, 114, 178)))  # the boards' crosses (about: pixels need not align)
    assert blue > 50


# ---------------------------------------------------------------- large explored trees


@needs_dot
def test_full_tictactoe_draws_its_first_lines_within_the_budget() -> None:
    r = ev.alphabeta("tictactoe")
    start = time.perf_counter()
    d = ev.draw(r)
    assert time.perf_counter() - start < 10
    renderer = renderer_for(r)
    scene = renderer.scene
    assert scene.total_nodes == 25227 and drawn_nodes(renderer) <= 150
    root_moves = [it for it in scene.items if it.depth == 1]
    assert [it.edge_label for it in root_moves] == [
        "X a1",
        "X b1",
        "X c1",
        "X a2",
        "X b2",
        "X c2",
        "X a3",
        "X b3",
        "X c3",
    ]
    assert max(it.depth for it in scene.items if it.kind != MORE) == 9  # the first line searched, to its end
    assert renderer.where.width <= WIDTH_BUDGET
    hidden = [
        int(t.text[1:]) for t in ET.fromstring(d.svg).iter(SVG + "text") if t.text and re.fullmatch(r"\+\d+", t.text)
    ]
    assert sum(hidden) + drawn_nodes(renderer) == 25227
    assert len(nested(d.svg)) == drawn_nodes(renderer)


@needs_dot
def test_depth_limited_game_keeps_its_horizon_inside_the_tree() -> None:
    for result in (ev.alphabeta("tictactoe", depth=2), ev.expectiminimax("coinflip-tictactoe", depth=3)):
        renderer = renderer_for(result)
        svg = renderer.svg()
        root = ET.fromstring(svg)
        (horizon,) = [g for g in root.iter(SVG + "g") if g.get("data-horizon")]
        line = horizon.find(SVG + "line")
        assert line is not None
        drawer = renderer.drawer  # the tree's group is moved up by tree_y; the legend starts tree_height below it
        assert float(line.get("y1", "0")) - drawer.tree_y < drawer.tree_height


@needs_dot
def test_deeper_minimax_draws_a_collapsed_diagram() -> None:
    r = ev.minimax("tictactoe", depth=4)
    d = ev.draw(r)
    assert "drawing" in d.svg[:600] and drawn_nodes(renderer_for(r)) <= 150


def test_game_choice_keeps_the_whole_small_tree() -> None:
    r = ev.minimax(TakeAway())
    assert r.trace is not None
    scene = Scene(r.trace.tree, r.trace, 150)
    assert sum(1 for it in scene.items if it.kind != MORE) == scene.total_nodes


# ---------------------------------------------------------------- transposition tables


@needs_dot
def test_table_hits_are_marked_with_their_value() -> None:
    r = small(table=True)
    trace = r.trace
    assert trace is not None and r.stats.table_hits == 9
    everything = renderer_for(r, max_nodes=None)
    end = everything.svg()
    assert end.count('data-table="1"') == 9 and "TT: value from the transposition table" in end
    first = trace.steps("table")[0]
    assert 'data-table="1"' not in everything.svg(first - 1) and everything.svg(first).count('data-table="1"') == 1
    looks = everything.paint(None).items
    marked = [(it, look) for it, look in zip(everything.scene.items, looks, strict=True) if look.table]
    assert len(marked) == 9 and all(look.status == "done" for _, look in marked)
    sides = {"exact": "", "lower": "\u2265 ", "upper": "\u2264 "}
    expected = sorted(
        sides[table_hit(trace, step - 1)[0]] + str(trace.index.value(step - 1)) for step in trace.steps("table")
    )
    assert sorted(look.value.replace("\u2212", "-") for _, look in marked) == expected  # a bound shows as one
    assert any(look.value.startswith("\u2265") for _, look in marked)
    k = everything.scene.items.index(marked[0][0])
    assert "from the transposition table" in everything.scene.tooltip(k, marked[0][1])
    default = ev.draw(r).svg  # the first table hits are drawn even in the collapsed diagram
    assert default.count('data-table="1"') >= 1


@needs_dot
def test_no_table_no_marks() -> None:
    for result in (small(), ev.alphabeta("aima-fig-5.2")):
        svg = renderer_for(result, max_nodes=None).svg()
        assert "data-table" not in svg and "transposition" not in svg


@needs_dot
def test_every_packed_frame_of_a_game_is_the_drawers_svg() -> None:
    """The player's frames (changes only) are each frame drawn from scratch, table hits and pictures too."""
    for result in (small(table=True), ev.expectiminimax(ev.games.coinflip_tictactoe(POSITION), depth=3)):
        trace = result.trace
        assert trace is not None
        renderer = renderer_for(trace)
        view = ViewPacker(trace, renderer.scene, renderer.drawer, chunk_steps=None).view()
        frames = unpack_frames(view["pieces"], view["frames"])
        for k in range(0, len(trace) + 1, max(1, len(trace) // 150)):
            assert frames[k] == renderer.svg(k), k
        assert frames[-1] == renderer.svg(len(trace))
