"""PNG, PDF and GIF frames from the one drawing: the SVG of :meth:`~expectviz.render.svg.Drawer.svg`.

Every picture format is a rasterisation of that SVG by CairoSVG (``pip install
cairosvg``; it needs the cairo library), never a second drawing, so a PNG shows
what the player shows, at the same positions and in the same colours:

>>> import struct
>>> png = svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" width="30pt" height="15pt" viewBox="0 0 30 15"/>')
>>> png[:4], struct.unpack(">II", png[16:24])      # 30 pt = 40 CSS px, at the default scale 2: 80 px
(b'\\x89PNG', (80, 40))

CairoSVG draws SVG 1.1, so :func:`for_cairo` first spells two things the
drawing uses in terms it knows, changing nothing that is seen:

* ``paint-order="stroke"`` (the white halo under labels): each such element is
  drawn twice, its stroke alone and then its fill alone;
* characters missing from the first font named: cairo takes one font per text,
  without a browser's fallback for single glyphs such as ✂ or ᵢ.  In left-aligned
  text each run of them is put in a ``<tspan>`` of the first family, of the
  text's own list and then :data:`FALLBACK_FAMILIES`, whose font has them;
  centred text gets that family for all of it (cairo centres a text's first
  piece alone).

Sizes: the SVG's width and height are in points; its PDF page has that size,
and a PNG at ``scale=1`` has one pixel per CSS pixel (4/3 per point), as a
browser shows it at 100 %.  :data:`PNG_SCALE` doubles that, for slides and
high-density screens; :data:`GIF_SCALE` draws the 11 pt labels of an animation
18 px to the em (capitals 13 px high, a line of text 17 px).
"""

from __future__ import annotations

import copy
import functools
import io
import itertools
import math
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from ..errors import RenderError

__all__ = [
    "PNG_SCALE",
    "GIF_SCALE",
    "FALLBACK_FAMILIES",
    "MAX_PIXELS",
    "svg_to_png",
    "svg_to_pdf",
    "svgs_to_pdf",
    "svg_to_image",
    "for_cairo",
    "cairosvg_module",
]

PNG_SCALE = 2.0
"""Pixels per CSS pixel of a PNG (2: a 560 pt wide diagram is 1,493 px wide)."""
GIF_SCALE = 1.25
"""Pixels per CSS pixel of a GIF's frames (1.25: 11 pt text is 18 px to the em, its capitals 13 px high)."""
FALLBACK_FAMILIES = ("sans-serif", "DejaVu Sans", "Noto Sans", "Noto Sans Symbols2", "Symbola", "FreeSans")
"""Font families tried, after the drawing's own, for text whose characters the first font lacks."""
MAX_PIXELS = 32_767
"""The widest and highest picture cairo draws, in pixels."""

_SVG_NS = "http://www.w3.org/2000/svg"
_TEXT_TAGS = (f"{{{_SVG_NS}}}text", "text")
_LENGTH = re.compile(r"\s*([0-9.]+)\s*(pt|px)?\s*")
_INSTALL = (
    "PNG, PDF and GIF files are drawn by CairoSVG with the cairo library: pip install cairosvg "
    "(or pip install 'expectviz[viz]'), and cairo from apt-get install libcairo2 (Debian/Ubuntu), "
    "brew install cairo (macOS) or conda install -c conda-forge cairosvg"
)


def cairosvg_module() -> ModuleType:
    """CairoSVG, imported on first use.

    Raises:
        RenderError: CairoSVG or the cairo library it loads is missing; the message says how to install them.
    """
    try:
        import cairosvg
    except (ImportError, OSError) as error:  # OSError: cairocffi found no cairo library
        raise RenderError(f"{_INSTALL} ({type(error).__name__}: {error})") from None
    module: ModuleType = cairosvg
    return module


def svg_to_png(svg: str, *, scale: float = PNG_SCALE) -> bytes:
    """The PNG of an SVG drawing, ``scale`` pixels per CSS pixel.

    Raises:
        RenderError: a scale that is not a positive number, a picture larger than :data:`MAX_PIXELS`
            either way, or no CairoSVG.
    """
    scale = _check_scale(scale)
    data, width, height = _prepared(svg)
    _check_size(width, height, scale)
    png: bytes = cairosvg_module().svg2png(bytestring=data, scale=scale)
    return png


def svg_to_pdf(svg: str) -> bytes:
    """The one-page PDF of an SVG drawing; the page is the SVG's width and height in points."""
    data, _, _ = _prepared(svg)
    pdf: bytes = cairosvg_module().svg2pdf(bytestring=data)
    return pdf


def svgs_to_pdf(svgs: Sequence[str]) -> bytes:
    """One PDF of several SVG drawings, one page each, every page the size of its SVG (as :func:`svg_to_pdf`).

    Each page is drawn by CairoSVG's own PDF surface, which is handed one cairo PDF surface for every page
    (its ``_create_surface`` is the hook) and ends each page with ``show_page`` instead of finishing the file.

    Raises:
        RenderError: no drawings, a drawing that is not SVG, or no CairoSVG.
    """
    if not svgs:
        raise RenderError("a PDF needs at least one page")
    prepared = [_prepared(svg)[0] for svg in svgs]
    import cairocffi
    from cairosvg.parser import Tree
    from cairosvg.surface import PDFSurface

    output = io.BytesIO()
    shared: list[Any] = []

    class _Page(PDFSurface):  # type: ignore[misc]
        def _create_surface(self, width: float, height: float) -> tuple[Any, float, float]:
            if shared:
                shared[0].set_size(width, height)
            else:
                shared.append(cairocffi.PDFSurface(output, width, height))
            return shared[0], width, height

    for data in prepared:
        page = _Page(Tree(bytestring=data), None, 96)
        page.cairo.show_page()
    shared[0].finish()
    return output.getvalue()


def svg_to_image(svg: str, *, scale: float = PNG_SCALE) -> Any:
    """The drawing as an RGB Pillow image, the pixels :func:`svg_to_png` writes (for GIF frames).

    Drawn in memory: encoding and decoding a PNG would cost about as much as drawing it.
    """
    from PIL import Image

    scale = _check_scale(scale)
    data, width, height = _prepared(svg)
    _check_size(width, height, scale)
    from cairosvg.parser import Tree
    from cairosvg.surface import PNGSurface

    surface = PNGSurface(Tree(bytestring=data), None, 96, scale=scale)  # output None: draw in memory only
    pixels = surface.cairo
    pixels.flush()
    order = "BGRa" if sys.byteorder == "little" else "aRGB"  # cairo's ARGB32: native-endian, premultiplied
    size = (pixels.get_width(), pixels.get_height())
    image = Image.frombuffer("RGBA", size, bytes(pixels.get_data()), "raw", order, pixels.get_stride(), 1)
    surface.finish()
    return image.convert("RGB")


def for_cairo(svg: str) -> bytes:
    """The SVG with ``paint-order`` and font fallback spelled for CairoSVG (see the module's notes)."""
    return _prepared(svg)[0]


def _check_scale(scale: float) -> float:
    if isinstance(scale, bool) or not isinstance(scale, int | float) or not math.isfinite(scale) or scale <= 0:
        raise RenderError(f"scale must be a positive number, not {scale!r}")
    return float(scale)


def _check_size(width: float, height: float, scale: float) -> None:
    if max(width, height) * scale > MAX_PIXELS:
        raise RenderError(
            f"at scale {scale:g} this diagram would be {width * scale:,.0f} x {height * scale:,.0f} pixels, "
            f"more than the {MAX_PIXELS:,} cairo draws; use a smaller scale, or draw with max_nodes=..."
        )


def _prepared(svg: str) -> tuple[bytes, float, float]:
    """The SVG for CairoSVG, and its width and height in CSS pixels."""
    cairosvg_module()  # fail early, with how to install it
    ET.register_namespace("", _SVG_NS)
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as error:
        raise RenderError(f"not an SVG drawing: {error}") from None
    _adapt(root, {"font-family": "sans-serif", "text-anchor": "start", "fill": "#000000", "stroke": "none"})
    return ET.tostring(root, encoding="utf-8"), _pixels(root.get("width")), _pixels(root.get("height"))


def _pixels(length: str | None) -> float:
    """An SVG length in CSS pixels (points are 4/3 of a pixel); 0 when absent or in other units."""
    match = _LENGTH.fullmatch(length or "")
    if match is None:
        return 0.0
    return float(match.group(1)) * (4 / 3 if match.group(2) == "pt" else 1.0)


def _adapt(element: ET.Element, inherited: dict[str, str]) -> None:
    """Rewrite ``element``'s subtree in place: fonts of its texts, then ``paint-order`` of its children."""
    here = {name: element.get(name, value) for name, value in inherited.items()}
    children = list(element)
    for child in children:
        _adapt(child, here)
    if any(child.get("paint-order") is not None for child in children):
        element[:] = [piece for child in children for piece in _split_paint_order(child, here)]
    if element.tag in _TEXT_TAGS:
        _pick_font(element, here["font-family"], here["text-anchor"])


def _split_paint_order(element: ET.Element, inherited: dict[str, str]) -> list[ET.Element]:
    """``paint-order="stroke ..."`` as two elements: the stroke alone, then the fill alone."""
    order = element.attrib.pop("paint-order", None)
    if order is None or order.split()[:1] != ["stroke"] or element.get("stroke", inherited["stroke"]) == "none":
        return [element]
    stroke_only = copy.deepcopy(element)
    stroke_only.set("fill", "none")
    element.set("stroke", "none")
    return [stroke_only, element]


def _pick_font(text: ET.Element, families: str, anchor: str) -> None:
    """Fonts for the characters of a text that its first font family lacks (see the module's notes)."""
    content = "".join(text.itertext())
    own = [name.strip().strip("'\"") for name in families.split(",") if name.strip()]
    if not content.strip() or not own or _covers(own[0], content):
        return
    if anchor == "start" and len(text) == 0:
        _wrap_missing(text, own)
        return
    family = _fallback(own, content)  # centred text: one font for all of it, so that it stays centred
    if family is not None:
        text.set("font-family", family)


def _wrap_missing(text: ET.Element, own: list[str]) -> None:
    """Put each run of characters the first font lacks in a ``<tspan>`` of a font that has them."""
    content, text.text = text.text or "", ""
    last: ET.Element | None = None
    for has, letters in itertools.groupby(content, key=lambda ch: ch.isspace() or _covers(own[0], ch)):
        run = "".join(letters)
        family = None if has else _fallback(own, run)
        if family is not None:
            last = ET.SubElement(text, f"{{{_SVG_NS}}}tspan", {"font-family": family})
            last.text = run
        elif last is None:
            text.text += run
        else:
            last.tail = (last.tail or "") + run


def _fallback(own: list[str], content: str) -> str | None:
    """The first family, of the text's own and then :data:`FALLBACK_FAMILIES`, whose font has all of ``content``."""
    for family in (*own[1:], *FALLBACK_FAMILIES):
        if _covers(family, content):
            return family
    return None


@functools.lru_cache(maxsize=4096)
def _covers(family: str, text: str) -> bool:
    """Whether the font cairo picks for ``family`` has a glyph for every character of ``text``."""
    glyphs = _font_context(family).get_scaled_font().text_to_glyphs(0, 0, text, False)
    return all(glyph[0] != 0 for glyph, char in zip(glyphs, text, strict=False) if not char.isspace())


@functools.lru_cache(maxsize=64)
def _font_context(family: str) -> Any:
    import cairocffi

    context = cairocffi.Context(cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, 1, 1))
    context.select_font_face(family)
    return context
