"""PNG, PDF and GIF are the player's SVG rasterised: one drawing (needs Graphviz's dot, CairoSVG and Pillow)."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import expectviz as ev
from expectviz.cli import main
from expectviz.render import RenderError
from expectviz.render.diagram import renderer_for
from expectviz.render.raster import GIF_SCALE, PNG_SCALE, for_cairo, svg_to_pdf, svg_to_png

try:
    import cairosvg  # noqa: F401
except (ImportError, OSError):  # OSError: no cairo library
    pytest.skip("CairoSVG or the cairo library is not installed", allow_module_level=True)
Image = pytest.importorskip("PIL.Image")
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")

SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="{w}pt" height="{h}pt" viewBox="0 0 {w} {h}">'

# (CLI arguments for the tree and algorithm, the search, the step drawn)
CASES = {
    "aima-fig-5.2 alphabeta": (["aima-fig-5.2", "-a", "alphabeta"], lambda: ev.alphabeta("aima-fig-5.2"), 13),
    "coin-flip expectiminimax": (["coin-flip"], lambda: ev.expectiminimax("coin-flip"), 9),
    "aima-star-exercise star1": (
        ["aima-star-exercise", "-a", "star1", "--bounds", "-2", "2"],
        lambda: ev.star1("aima-star-exercise", bounds=(-2, 2)),
        20,
    ),
}


def _image(data: bytes) -> object:
    with Image.open(io.BytesIO(data)) as image:
        return image.convert("RGB")


def _mean_difference(a: object, b: object) -> float:
    from PIL import ImageChops, ImageStat

    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3  # type: ignore[arg-type]


def _points(svg: str) -> tuple[float, float]:
    found = re.match(r'<svg [^>]*width="([0-9.]+)pt" height="([0-9.]+)pt"', svg)
    assert found, svg[:200]
    return float(found[1]), float(found[2])


@needs_dot
@pytest.mark.parametrize("case", list(CASES))
def test_cli_png_is_the_players_svg_rasterised(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arguments, search, step = CASES[case]
    output = tmp_path / "step.png"
    assert main(["render", *arguments, "--step", str(step), "-o", str(output)]) == 0
    assert capsys.readouterr() == (f"wrote {output}\n", "")

    result = search()
    assert result.trace is not None
    renderer = renderer_for(result)
    # The player's drawing of that step; a diagram (and so the CLI) adds the step's sentence under the caption.
    svg = renderer.drawer.svg(renderer.scene.paint(result.trace.frame(step)), explanation=True)
    made, expected = _image(output.read_bytes()), _image(svg_to_png(svg))
    assert made.size == expected.size  # type: ignore[attr-defined]
    width, height = _points(svg)
    assert made.size == (round(width * 4 / 3 * PNG_SCALE), round(height * 4 / 3 * PNG_SCALE))  # type: ignore[attr-defined]
    assert _mean_difference(made, expected) < 0.5


@needs_dot
def test_the_sentence_is_the_only_difference_from_the_players_frame() -> None:
    r = ev.alphabeta("aima-fig-5.2")
    assert r.trace is not None
    renderer = renderer_for(r)
    paint = renderer.scene.paint(r.trace.frame(13))
    plain, explained = renderer.drawer.svg(paint), renderer.drawer.svg(paint, explanation=True)
    assert ev.draw(r, 13).svg == explained
    assert "C is a MIN node" in explained and "C is a MIN node" not in plain
    assert _points(explained)[0] == _points(plain)[0]


@needs_dot
def test_pdf_is_one_page_the_size_of_the_svg(tmp_path: Path) -> None:
    r = ev.star1("aima-star-exercise", bounds=(-2, 2))
    output = tmp_path / "step.pdf"
    assert main(["render", "aima-star-exercise", "-a", "star1", "--bounds", "-2", "2", "-o", str(output)]) == 0
    data = output.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == 1
    boxes = re.findall(rb"/MediaBox\s*\[\s*([-0-9. ]+)\]", data)
    assert len(boxes) == 1
    assert [float(x) for x in boxes[0].split()] == pytest.approx([0, 0, *_points(ev.draw(r).svg)], abs=0.5)


@needs_dot
def test_gif_has_one_frame_per_step_from_the_players_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "search.gif"
    assert main(["animate", "coin-flip", "-o", str(output)]) == 0
    r = ev.expectiminimax("coin-flip")
    assert r.trace is not None
    renderer = renderer_for(r)
    with Image.open(output) as gif:
        assert gif.n_frames == len(r.trace) + 1
        durations = []
        for k in range(gif.n_frames):
            gif.seek(k)
            durations.append(gif.info["duration"])
            if k in (0, 9, len(r.trace)):
                frame = gif.convert("RGB")
                svg = renderer.drawer.svg(renderer.scene.paint(r.trace.frame(k)))
                expected = _image(svg_to_png(svg, scale=GIF_SCALE))
                assert frame.size == expected.size  # type: ignore[attr-defined]
                assert _mean_difference(frame, expected) < 0.5, k  # a 256-colour palette: flat colours exact
    assert durations == [700] * len(r.trace) + [2100]


def _ink_height(image: object) -> int:
    box = image.convert("L").point(lambda v: 255 if v < 128 else 0).getbbox()  # type: ignore[attr-defined]
    assert box is not None
    return int(box[3] - box[1])


def test_gif_text_is_legible() -> None:
    """At the GIF's scale an 11 pt capital is at least 12 px high, a line of 11 pt text at least 14 px."""
    text = '<text x="5" y="20" font-family="Helvetica, Arial" font-size="11">{}</text>'
    for letters, least in (("HE", 12), ("[g]", 14)):
        svg = SVG_HEAD.format(w=60, h=30) + '<rect width="60" height="30" fill="#FFFFFF"/>' + text.format(letters)
        assert least <= _ink_height(_image(svg_to_png(svg + "</svg>", scale=GIF_SCALE))) <= 2 * least, letters


def test_halo_under_text_is_drawn_under_it() -> None:
    """``paint-order="stroke"``: the white halo is drawn first, so the black text shows over it."""
    svg = (
        SVG_HEAD.format(w=80, h=30)
        + '<rect width="80" height="30" fill="#FFFFFF"/>'
        + '<text x="5" y="22" font-size="20" stroke="#FFFFFF" stroke-width="3" paint-order="stroke">HH</text></svg>'
    )
    prepared = for_cairo(svg).decode("utf-8")
    assert "paint-order" not in prepared and prepared.count(">HH</text>") == 2
    assert _ink_height(_image(svg_to_png(svg))) >= 20


def test_characters_the_first_font_lacks_get_a_font_that_has_them() -> None:
    svg = (
        SVG_HEAD.format(w=200, h=60)
        + '<g font-family="Helvetica, Arial, sans-serif">'
        + '<text x="5" y="20">pruned (\u2702 = cutoff)</text>'
        + '<text x="100" y="45" text-anchor="middle">cut \u2702</text></g></svg>'
    )
    prepared = for_cairo(svg).decode("utf-8")
    assert re.search(
        r'<text x="5" y="20">pruned \(<tspan font-family="[^"]+">\u2702</tspan> = cutoff\)</text>', prepared
    )
    assert re.search(r'<text x="100" y="45" text-anchor="middle" font-family="[^"]+">', prepared)


@needs_dot
def test_diagram_pipe_save_and_scale(tmp_path: Path) -> None:
    d = ev.draw(ev.alphabeta("aima-fig-5.2"), 13)
    width, height = _points(d.svg)
    one = _image(d.pipe("png", scale=1))
    assert one.size == (round(width * 4 / 3), round(height * 4 / 3))  # type: ignore[attr-defined]
    assert d.pipe("pdf").startswith(b"%PDF") and svg_to_pdf(d.svg).startswith(b"%PDF")
    assert Path(d.save(tmp_path / "d.png", scale=1)).read_bytes() == d.pipe("png", scale=1)
    for bad in (0, -1, float("nan"), float("inf"), True, "2"):
        with pytest.raises(RenderError, match="scale must be a positive number"):
            d.pipe("png", scale=bad)  # type: ignore[arg-type]
    for gone in ("dot", "gv"):
        with pytest.raises(RenderError, match="choose from svg, png, pdf"):
            d.pipe(gone)
        with pytest.raises(RenderError):
            d.save(tmp_path / f"d.{gone}")
    with pytest.raises(RenderError, match="more than the 32,767"):
        d.pipe("png", scale=100)


@needs_dot
def test_without_cairosvg_the_error_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if CairoSVG were not installed
    d = ev.draw(ev.alphabeta("aima-fig-5.2"))
    assert d.save(tmp_path / "d.svg").endswith("d.svg")  # SVG needs no CairoSVG
    with pytest.raises(RenderError, match=r"pip install cairosvg"):
        d.save(tmp_path / "d.png")
    assert main(["render", "coin-flip", "-o", str(tmp_path / "d.pdf")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("expectviz: error: PNG, PDF and GIF files are drawn by CairoSVG") and "libcairo2" in err


def test_importing_the_rasteriser_imports_no_drawing_package() -> None:
    code = (
        "import sys, expectviz, expectviz.render.raster, expectviz.render.export;"
        "print(sorted(m for m in ('cairosvg', 'cairocffi', 'PIL', 'graphviz') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
