"""A game's pictures of its states, made safe to draw inside a diagram.

A game may have a ``picture(state)`` method returning a small standalone SVG
(tic-tac-toe's boards; see :class:`~expectviz.game.Game`).  The diagram draws
each node's picture beside its shape (AIMA Fig. 5.1), as a nested ``<svg>``.
The text comes from the game, which may be code written in a notebook cell,
so it is treated as untrusted: :func:`clean_picture` parses it and writes it
out again from a whitelist, or refuses it with the reason, which the node's
tooltip then gives.

* Drawn: the shapes, groups and text of SVG (``svg g rect circle ellipse line
  polyline polygon path text tspan``) with their geometry and presentation
  attributes, each value written back escaped.
* Left out without fuss: ``id`` and ``class`` (ids of pictures would clash with
  each other in a page), ``title``/``desc``/``metadata`` (the node's tooltip
  describes the node), comments, ARIA and editor attributes.
* Refused, so that the picture is not drawn: text that is not well-formed XML
  or not an ``<svg>``, a DOCTYPE (entities), scripts, ``foreignObject``, images,
  links, ``use``, style sheets, animations and any other element, event
  attributes (``onload=...``), ``href``s, and values that refer to anything
  (``url(...)``) or use CSS escapes.

>>> picture, why = clean_picture('<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" id="a">'
...                              '<rect width="20" height="10" fill="#fff" onclick="alert(1)"/></svg>')
>>> picture, why
(None, 'it has an event attribute, onclick')
>>> picture, why = clean_picture('<svg width="20" height="10"><rect width="20" height="10" fill="red"/></svg>')
>>> picture.view_box, picture.body
('0 0 20 10', '<rect width="20" height="10" fill="red"/>')
>>> picture.at(5, 6, 30)
'<svg x="5" y="6" width="30" height="30" viewBox="0 0 20 10"><rect width="20" height="10" fill="red"/></svg>'
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

from .style import xml_escape

__all__ = ["Picture", "clean_picture", "picture_of", "MAX_PICTURE_CHARS"]

MAX_PICTURE_CHARS = 50_000
"""The longest picture text read (a board is about 700 characters)."""
_MAX_ELEMENTS = 2_000
_MAX_DEPTH = 40

_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"

_ELEMENTS = frozenset(("svg", "g", "rect", "circle", "ellipse", "line", "polyline", "polygon", "path", "text", "tspan"))
"""The elements a picture may use."""
_SKIPPED = frozenset(("title", "desc", "metadata"))
"""Elements left out with their content (the node's tooltip describes the node)."""
_TEXTUAL = frozenset(("text", "tspan"))

_GEOMETRY = (
    "x y width height rx ry cx cy r x1 y1 x2 y2 dx dy points d transform pathLength rotate textLength lengthAdjust"
)
_PRESENTATION = (
    "fill fill-opacity fill-rule stroke stroke-width stroke-opacity stroke-linecap stroke-linejoin stroke-dasharray "
    "stroke-dashoffset stroke-miterlimit opacity font-family font-size font-weight font-style text-anchor "
    "dominant-baseline alignment-baseline baseline-shift letter-spacing word-spacing text-decoration "
    "visibility display shape-rendering text-rendering paint-order vector-effect"
)
_ATTRIBUTES = frozenset((_GEOMETRY + " " + _PRESENTATION).split())
"""The attributes a picture's elements may carry (the root ``<svg>`` adds viewBox and preserveAspectRatio)."""
_ROOT_ATTRIBUTES = frozenset(("viewBox", "preserveAspectRatio"))

_VALUE = re.compile(r"[\w#%.,\s()+\-'/]*")
"""Characters an attribute value may hold: no quotes but ', no backslash (CSS escapes), no ; : < > & @."""
_FUNCTION = re.compile(r"([A-Za-z_-][\w-]*)\s*\(")
_FUNCTIONS = frozenset(("rgb", "rgba", "hsl", "hsla", "matrix", "translate", "scale", "rotate", "skewx", "skewy"))
"""The functions a value may call (colours and transforms); url(...) and the like refer to other content."""
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_LENGTH = re.compile(rf"\s*({_NUMBER})\s*(?:px)?\s*")
_VIEW_BOX = re.compile(rf"\s*({_NUMBER})[\s,]+({_NUMBER})[\s,]+({_NUMBER})[\s,]+({_NUMBER})\s*")
_DOCTYPE = re.compile(r"<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture that passed :func:`clean_picture`: its coordinate box and its content, written out safely."""

    view_box: str
    """The ``viewBox`` of the picture's own coordinates, e.g. ``0 0 30 30``."""
    body: str
    """The picture's elements as SVG text (whitelisted, every value escaped; no ids)."""
    attributes: str = ""
    """Presentation attributes of the picture's root (``fill="none"``...), as SVG text with a leading space."""

    def at(self, x: float, y: float, size: float) -> str:
        """The picture as a nested ``<svg>`` filling the ``size`` square whose top left corner is ``x``, ``y``."""
        return (
            f'<svg x="{_f(x)}" y="{_f(y)}" width="{_f(size)}" height="{_f(size)}" viewBox="{self.view_box}"'
            f"{self.attributes}>{self.body}</svg>"
        )


class _Refused(Exception):
    """Why a picture is not drawn."""


def picture_of(game: Any, state: Any) -> tuple[Picture | None, str]:
    """The cleaned picture of ``state`` (``game.picture(state)``), or None and why not ("" if the game has none)."""
    method = getattr(game, "picture", None)
    if method is None or not callable(method):
        return None, ""
    try:
        text = method(state)
    except Exception as error:  # a game's own code: any error only costs the picture
        message = str(error).splitlines()[0] if str(error) else ""
        return None, f"picture() raised {type(error).__name__}" + (f": {message[:120]}" if message else "")
    return clean_picture(text)


def clean_picture(text: object) -> tuple[Picture | None, str]:
    """The picture in ``text`` rewritten from the whitelist, or None and why it is refused (see the module)."""
    try:
        return _clean(text), ""
    except _Refused as why:
        return None, str(why)


def _clean(text: object) -> Picture:
    if not isinstance(text, str):
        raise _Refused(f"picture() returned {type(text).__name__}, not SVG text")
    if len(text) > MAX_PICTURE_CHARS:
        raise _Refused(f"it is {len(text):,} characters long, more than the {MAX_PICTURE_CHARS:,} read")
    if _DOCTYPE.search(text):
        raise _Refused("it has a DOCTYPE or entity declaration")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        raise _Refused(f"it is not well-formed XML ({error})") from None
    if _local(root.tag) != "svg" or _namespace(root.tag) not in ("", _SVG_NS):
        raise _Refused(f"it is a <{_local(root.tag)}>, not an <svg>")
    view_box = _view_box(root)
    count = [0]
    attributes = _attributes(root, root=True)
    body = "".join(_element(child, 1, count) for child in root)
    return Picture(view_box, body, attributes)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _namespace(tag: str) -> str:
    return tag[1:].split("}", 1)[0] if isinstance(tag, str) and tag.startswith("{") else ""


def _view_box(root: ET.Element) -> str:
    found = root.get("viewBox")
    if found is not None:
        match = _VIEW_BOX.fullmatch(found)
        if match is None or float(match[3]) <= 0 or float(match[4]) <= 0:
            raise _Refused("its viewBox is not four numbers with a positive width and height")
        return " ".join(_f(float(match[i])) for i in range(1, 5))
    sizes = [_LENGTH.fullmatch(root.get(name, "")) for name in ("width", "height")]
    if sizes[0] is None or sizes[1] is None or float(sizes[0][1]) <= 0 or float(sizes[1][1]) <= 0:
        raise _Refused("it has neither a viewBox nor a width and height in pixels")
    return f"0 0 {_f(float(sizes[0][1]))} {_f(float(sizes[1][1]))}"


def _element(node: ET.Element, depth: int, count: list[int]) -> str:
    if not isinstance(node.tag, str):  # a comment or processing instruction
        return ""
    name, space = _local(node.tag), _namespace(node.tag)
    if space not in ("", _SVG_NS):
        raise _Refused(f"it has an element from another namespace, <{name}>")
    if name in _SKIPPED:
        return ""
    if name not in _ELEMENTS:
        raise _Refused(f"it has a <{name}> element, which diagrams do not draw")
    count[0] += 1
    if count[0] > _MAX_ELEMENTS or depth > _MAX_DEPTH:
        raise _Refused(f"it has more than {_MAX_ELEMENTS:,} elements or is nested deeper than {_MAX_DEPTH}")
    if name == "svg":
        inner = _attributes(node, root=True)
        boxed = f' viewBox="{_view_box(node)}"' if node.get("viewBox") is not None else ""
        inner = boxed + inner
    else:
        inner = _attributes(node, root=False)
    textual = name in _TEXTUAL
    parts = [f"<{name}{inner}"]
    content = [xml_escape(node.text)] if textual and node.text else []
    for child in node:
        content.append(_element(child, depth + 1, count))
        if textual and child.tail:
            content.append(xml_escape(child.tail))
    body = "".join(content)
    parts.append(f">{body}</{name}>" if body else "/>")
    return "".join(parts)


def _attributes(node: ET.Element, *, root: bool) -> str:
    """The element's allowed attributes as SVG text (root: x, y, width and height are the diagram's to set)."""
    found: dict[str, str] = {}
    for key, value in node.attrib.items():
        name, space = _local(key), _namespace(key)
        if name.lower().startswith("on"):
            raise _Refused(f"it has an event attribute, {name}")
        if name == "href" or space == _XLINK_NS:
            raise _Refused(f"it has a link attribute, {name}")
        if space:
            continue  # xml:space, editors' attributes: nothing drawn depends on them
        if name == "style":
            for declaration in value.split(";"):
                prop, colon, text = declaration.partition(":")
                prop = prop.strip()
                if colon and prop in _ATTRIBUTES:
                    found.setdefault(prop, _checked(prop, text.strip()))
                elif colon and ("url" in text.lower() or "\\" in text or "@" in declaration):
                    raise _Refused("its style refers to other content (url, @import or an escape)")
            continue
        if root and name in ("x", "y", "width", "height", "viewBox"):
            continue
        if name in _ATTRIBUTES or (root and name in _ROOT_ATTRIBUTES):
            found[name] = _checked(name, value)
    return "".join(f' {name}="{xml_escape(value)}"' for name, value in found.items())


def _checked(name: str, value: str) -> str:
    """An attribute's value, or a refusal if it could refer to anything (the reason does not repeat the value)."""
    if "\\" in value:
        raise _Refused(f"its {name} has a CSS escape (a backslash)")
    for function in _FUNCTION.findall(value):
        if function.lower() == "url":
            raise _Refused(f"its {name} refers to other content with url(...)")
        if function.lower() not in _FUNCTIONS:
            raise _Refused(f"its {name} calls {function[:20]}(...), which diagrams do not accept")
    if len(value) > 20_000 or _VALUE.fullmatch(value) is None:
        raise _Refused(f"its {name} has characters diagrams do not accept (only letters, digits, spaces, #%.,()+-'/)")
    return value


def _f(x: float) -> str:
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"
