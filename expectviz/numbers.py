"""Exact numbers: the one number syntax, reading it, and writing numbers back.

Every value and probability in a tree is an exact number, an ``int`` or a
:class:`fractions.Fraction`, so ``0.1 + 0.2`` is exactly ``0.3``.  One syntax
is read everywhere: leaves, probabilities and static evaluations in tree
text, numbers and number strings in the JSON form, and search bounds::

    number   = [ "-" ] mantissa [ exponent ] [ "/" digits ] ;
    mantissa = digits [ "." [ digits ] ] | "." digits ;
    exponent = ( "e" | "E" ) [ "+" | "-" ] digits ;
    digits   = digit { digit } ;
    digit    = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" ;

Only the ASCII digits 0-9 count (not full-width or Arabic-Indic digits).
``1.5/2`` is 3/4 and ``1e-3/3`` is 1/3000.

Limits, so that one number cannot stall a lesson: a number has at most
:data:`MAX_DIGITS` (10,000) digits before its exponent and as many after its
``/``, and an exponent is at most :data:`MAX_EXPONENT` (10,000) either way.
Every number in a tree has a numerator and a denominator of at most 10,000
digits each, so the notation can always write it back exactly.

>>> read_number("2.5"), read_number("-1/3"), read_number("1e3")
(Fraction(5, 2), Fraction(-1, 3), 1000)
>>> format_number(Fraction(109, 2)), format_number(Fraction(1, 3)), format_number(10**400)
('54.5', '1/3', '1e400')

Numbers too long to show (more than 100 characters written exactly) are
shown rounded to 12 significant digits, marked with ``≈``; the exact form is
still there, with ``exact=True``:

>>> x = Fraction(1, 2**14000)
>>> format_number(x)
'≈3.80242541666e-4215'
>>> len(format_number(x, exact=True))
4217
"""

from __future__ import annotations

import math
import re
import reprlib
from fractions import Fraction
from typing import Union

from .errors import InvalidTreeError

__all__ = [
    "Number",
    "NUMBER_PATTERN",
    "MAX_DIGITS",
    "MAX_EXPONENT",
    "exact",
    "read_number",
    "read_bound",
    "format_number",
    "format_short",
    "format_probability",
    "short_repr",
]

Number = Union[int, Fraction]  # noqa: UP007 (a runtime alias, also on Python 3.10)
"""An exact number: every value and probability in a tree is one."""

NUMBER_PATTERN = r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?(?:/[0-9]+)?"
"""The number syntax as a regular expression (the tree notation's tokenizer uses it too)."""

MAX_DIGITS = 10_000
"""The most digits a number may have before its exponent, and after its ``/``."""

MAX_EXPONENT = 10_000
"""The largest exponent allowed, either way (``1e10000`` and ``1e-10000``)."""

SHOWN_CHARACTERS = 100
"""Numbers whose exact form is longer than this are shown rounded (:func:`format_number`)."""

SIGNIFICANT_DIGITS = 12
"""How many significant digits a rounded number shows."""

_PARTS = re.compile(r"(-?)(?=[0-9]|\.[0-9])([0-9]*)(?:\.([0-9]*))?(?:[eE]([-+]?[0-9]+))?(?:/([0-9]+))?")
"""The same syntax as :data:`NUMBER_PATTERN`, with its parts as groups: sign, whole, decimals, exponent, denominator."""
_SMALL_INT = re.compile(r"-?[0-9]{1,18}")
_OTHER_DIGIT = re.compile(r"(?![0-9])\d")  # a Unicode decimal digit that is not ASCII 0-9
_TOO_BIG = 10**MAX_DIGITS  # a numerator or denominator must be smaller than this
_SAFE_BITS = _TOO_BIG.bit_length() - 1  # numerators and denominators with fewer bits are certainly small enough
_SMALL = 10**18  # ints below this are written with str() at once
_CHUNK = 4000  # Python converts at most 4,300 digits between int and str in one go


# ---------------------------------------------------------------- reading


def read_number(text: str, what: str = "number", path: tuple[int, ...] = ()) -> Number:
    """Read one number written in the number syntax (no spaces around it).

    Raises:
        InvalidTreeError: the text is not a number, is too long, or divides by zero
            (the message starts with ``what`` and the text).

    >>> read_number("0.1") + read_number("0.2") == read_number("3/10")
    True
    >>> read_number("1/0")
    Traceback (most recent call last):
    ...
    expectviz.errors.InvalidTreeError: node at root: number '1/0' divides by zero
    """
    if _SMALL_INT.fullmatch(text):  # the usual case, read at once
        return int(text)
    parts = _PARTS.fullmatch(text)
    if parts is None:
        hint = "; only the ASCII digits 0-9 are allowed" if _has_other_digits(text) else ""
        raise InvalidTreeError(f"{what} {_shorten(text)} is not a number (write 3, -2.5, 1/3 or 1e-6){hint}", path)
    sign, whole, decimals, exponent, denominator = parts.groups(default="")
    for digits, where in ((whole + decimals, "before its exponent"), (denominator, "after its '/'")):
        if len(digits) > MAX_DIGITS:
            raise InvalidTreeError(
                f"{what} {_shorten(text)} has {len(digits):,} digits {where}; a number has at most {MAX_DIGITS:,}",
                path,
            )
    power = int(exponent or "0") if len(exponent) <= 8 else MAX_EXPONENT + 1  # a longer one is far too large
    if abs(power) > MAX_EXPONENT:
        raise InvalidTreeError(
            f"{what} {_shorten(text)} has the exponent {_shorten(exponent, quote=False)}; "
            f"an exponent is at most {MAX_EXPONENT:,} either way",
            path,
        )
    bottom = _digits_to_int(denominator) if denominator else 1
    if bottom == 0:
        raise InvalidTreeError(f"{what} {_shorten(text)} divides by zero", path)
    top = _digits_to_int(whole + decimals)
    power -= len(decimals)
    if power >= 0:
        top *= 10**power
    else:
        bottom *= 10**-power
    value = Fraction(-top if sign else top, bottom)
    return _within_limits(value, what, text, path)


INFINITY_WORDS = frozenset({"inf", "infinity", "\u221e"})
"""The words for an unbounded side of Star1/Star2's bounds (``-`` in front for minus infinity)."""


def read_bound(text: str) -> float | str:
    """A bound as typed (Star1/Star2's L or U): an infinity word (``inf``, ``+inf``, ``-inf``, ``infinity``, ``∞``)
    as a float; any other text stripped (and without a leading ``+``), for the search to read exactly as the
    notation does.

    >>> read_bound(" -inf "), read_bound("+∞"), read_bound("+1/3")
    (-inf, inf, '1/3')

    Raises ValueError: the text is empty.
    """
    word = text.strip().lower()
    if not word:
        raise ValueError("a bound is empty")
    sign, rest = (-1, word[1:]) if word[0] == "-" else (1, word.removeprefix("+"))
    return sign * math.inf if rest in INFINITY_WORDS else word.removeprefix("+")


def exact(x: object, what: str = "value", path: tuple[int, ...] = ()) -> Number:
    """Turn an int, float, Fraction or number text into an exact number.

    Floats are read as their shortest repr (``0.1`` is exactly 1/10).  Raises
    InvalidTreeError (naming ``what`` and ``path``) for NaN, infinities,
    booleans, non-numbers and numbers beyond the limits.

    >>> exact(0.1)
    Fraction(1, 10)
    >>> exact("2.5"), exact(4.0)
    (Fraction(5, 2), 4)
    """
    if isinstance(x, bool):
        raise InvalidTreeError(f"{what} {x!r} is a boolean; a number is allowed", path)
    if isinstance(x, str):
        return read_number(x.strip(), what, path)
    if isinstance(x, float):
        if not math.isfinite(x):
            raise InvalidTreeError(f"{what} {x!r} is not finite; a finite number is allowed", path)
        x = Fraction(repr(x))
    if isinstance(x, (int, Fraction)):
        return _within_limits(x, what, None, path)
    raise InvalidTreeError(f"{what} {short_repr(x)} is not a number", path)


def short_repr(x: object) -> str:
    """``repr(x)`` for a message, kept short; numbers as :func:`format_number` shows them.

    >>> short_repr("avg"), short_repr(10**5000), short_repr(list(range(100)))
    ("'avg'", '1e5000', '[0, 1, 2, 3, 4, 5, ...]')
    """
    if isinstance(x, (int, Fraction)) and not isinstance(x, bool):
        return format_number(x)
    if isinstance(x, str):
        return repr(x if len(x) <= 40 else f"{x[:20]}...{x[-8:]}")
    try:
        return reprlib.repr(x)
    except ValueError:  # it holds an int too long to write out
        return f"a {type(x).__name__}"


def _within_limits(value: Number, what: str, text: str | None, path: tuple[int, ...]) -> Number:
    """``value`` (an int when whole), after checking that its numerator and denominator are not too long."""
    if isinstance(value, int):
        value = int(value)  # a plain int, also for int subclasses
    if value.numerator.bit_length() >= _SAFE_BITS or value.denominator.bit_length() >= _SAFE_BITS:
        _check_size(value, what, text, path)
    if isinstance(value, int) or value.denominator != 1:
        return value
    return int(value.numerator)


def _check_size(value: Number, what: str, text: str | None, path: tuple[int, ...]) -> None:
    """Refuse a number whose numerator or denominator has more than :data:`MAX_DIGITS` digits."""
    for part, name in ((value.numerator, "numerator"), (value.denominator, "denominator")):
        if abs(part) >= _TOO_BIG:
            written = f"{what} {_shorten(text)}" if text else what
            raise InvalidTreeError(
                f"{written} has more than {MAX_DIGITS:,} digits in its {name} (about {_digits_estimate(abs(part)):,}); "
                f"a number has at most {MAX_DIGITS:,}",
                path,
            )


def _has_other_digits(text: str) -> bool:
    """True when ``text`` has a digit that is not one of ASCII 0-9 (full-width, Arabic-Indic...)."""
    return _OTHER_DIGIT.search(text) is not None


def _shorten(text: str, *, quote: bool = True) -> str:
    """``text`` for a message: quoted, and cut in the middle when long."""
    if len(text) > 40:
        cut = f"{text[:20]}...{text[-8:]}"
        return (f"'{cut}'" if quote else cut) + f" ({len(text):,} characters)"
    return repr(text) if quote else text


def _digits_to_int(digits: str) -> int:
    """The int written by ``digits`` (ASCII 0-9), however many there are."""
    if len(digits) <= _CHUNK:
        return int(digits or "0")
    value = 0
    for start in range(0, len(digits), _CHUNK):
        chunk = digits[start : start + _CHUNK]
        value = value * 10 ** len(chunk) + int(chunk)
    return value


def _int_to_digits(n: int) -> str:
    """The decimal digits of ``n >= 0``, however many there are."""
    if n < 10**_CHUNK:
        return str(n)
    chunks: list[str] = []
    unit = 10**_CHUNK
    while n >= unit:
        n, rest = divmod(n, unit)
        chunks.append(str(rest).rjust(_CHUNK, "0"))
    chunks.append(str(n))
    return "".join(reversed(chunks))


def _digits_estimate(n: int) -> int:
    """The number of digits of ``n > 0``, possibly one too many or too few (never writes ``n`` out)."""
    return int(math.log10(n)) + 1


# ---------------------------------------------------------------- writing


def format_number(x: Number | float, *, exact: bool = False) -> str:
    """Write a number as the notation does: ``3``, ``-2.5``, ``1/3``, ``1e400``, ``+inf``.

    A number whose exact form is longer than 100 characters is shown rounded
    to 12 significant digits with a leading ``≈``, unless ``exact=True``, which
    always gives the exact form (the notation reads it back).

    >>> format_number(Fraction(109, 2)), format_number(Fraction(1, 3)), format_number(-7)
    ('54.5', '1/3', '-7')
    >>> format_number(Fraction(-1, 7**200))
    '≈-9.55854957948e-170'
    """
    if isinstance(x, int) and -_SMALL < x < _SMALL:
        return str(int(x))
    if isinstance(x, float):
        if math.isinf(x):
            return "+inf" if x > 0 else "-inf"
        if math.isnan(x):
            return "nan"
        x = Fraction(repr(x))
    value = Fraction(x)
    sign = "-" if value < 0 else ""
    top, bottom = abs(value.numerator), value.denominator
    if exact:
        return sign + _exact_text(top, bottom)
    text = _shown_text(top, bottom)
    if text is not None:
        return sign + text
    return "≈" + sign + _rounded(top, bottom)


SHORT_CHARACTERS = 9
"""Diagrams and sentences write a value longer than this rounded (:func:`format_short`)."""


def format_short(x: Number | float, *, room: int = SHORT_CHARACTERS, digits: int = 4) -> str:
    """A value as a diagram shows it: :func:`format_number` when that is at most ``room`` characters long,
    else ``≈`` and ``digits`` significant digits (a game's expectations soon have long denominators).

    >>> format_short(Fraction(2, 75)), format_short(Fraction(178327343, 393693300)), format_short(-7)
    ('2/75', '≈0.453', '-7')
    """
    text = format_number(x)
    if len(text) <= room or text.startswith("≈") and len(text) <= room + 1:
        return text
    if isinstance(x, float) and not math.isfinite(x):
        return text
    return f"≈{float(Fraction(x)):.{digits}g}"


def format_probability(p: Number, *, exact: bool = False) -> str:
    """Write a probability as a fraction unless it is a tenth-style decimal.

    >>> format_probability(Fraction(1, 2)), format_probability(Fraction(9, 10)), format_probability(Fraction(1, 36))
    ('1/2', '0.9', '1/36')
    """
    value = Fraction(p)
    bottom = value.denominator
    if bottom == 1 or bottom % 5 == 0 and _powers_of_two_and_five(bottom) is not None:
        return format_number(value, exact=exact)
    top = abs(value.numerator)
    if _digits_estimate(top) + _digits_estimate(bottom) < SHOWN_CHARACTERS:
        text = f"{top}/{bottom}"
        if len(text) <= SHOWN_CHARACTERS:
            return ("-" if value < 0 else "") + text
    return format_number(value, exact=exact)


def _exact_text(top: int, bottom: int) -> str:
    """The shortest exact notation for ``top/bottom`` (both positive, in lowest terms).

    Short numbers are written plainly (``12``, ``0.25``, ``1/3``).  Longer ones
    may use an exponent (``1e400``, ``3e-500``, ``1e50/3``); among the forms
    the notation can read back, the shortest wins.
    """
    plain = _plain_text(top, bottom)
    if plain is not None:
        return plain
    forms = [write() for _, write in _long_forms(top, bottom)]
    readable = [text for text in forms if _readable(text)]
    return min(readable or forms, key=len)


def _shown_text(top: int, bottom: int) -> str | None:
    """The exact form of ``top/bottom`` when it has at most :data:`SHOWN_CHARACTERS` characters, else None.

    Forms estimated to be longer are never written out, so a huge number costs little to show.
    """
    plain = _plain_text(top, bottom)
    if plain is not None:
        return plain
    room = SHOWN_CHARACTERS
    forms = [write() for estimate, write in _long_forms(top, bottom) if estimate <= room + 2]
    short = [text for text in forms if len(text) <= room]
    return min(short, key=len) if short else None


def _plain_text(top: int, bottom: int) -> str | None:
    """``12``, ``0.25`` or ``1/3`` when that is at most :data:`SHOWN_CHARACTERS` long, else None."""
    room = SHOWN_CHARACTERS
    if bottom == 1:
        return str(top) if top < 10**room else None
    twos_fives = _powers_of_two_and_five(bottom)
    if twos_fives is None:
        if _digits_estimate(top) + _digits_estimate(bottom) > room + 2:
            return None
        text = f"{top}/{bottom}"
        return text if len(text) <= room else None
    places = max(twos_fives)
    if places > room:
        return None
    scaled = top * (10**places // bottom)
    if scaled >= 10 ** (room + 1):
        return None
    digits = str(scaled).rjust(places + 1, "0")
    text = f"{digits[:-places]}.{digits[-places:]}"
    return text if len(text) <= room else None


def _long_forms(top: int, bottom: int) -> list[tuple[int, _Writer]]:
    """The exact forms of a long number, each with an estimate of its length and a function writing it."""
    forms: list[tuple[int, _Writer]] = []
    twos_fives = _powers_of_two_and_five(bottom)
    if twos_fives is not None:  # top/bottom = mantissa * 10**power
        places = max(twos_fives)
        mantissa, zeros = _strip_tens(top * (10**places // bottom))
        power = zeros - places
        forms.append((_digits_estimate(mantissa) + len(str(power)) + 1, _Writer(mantissa, power, 1)))
    mantissa, zeros = _strip_tens(top)
    if bottom != 1:  # a fraction, its numerator perhaps with an exponent (1e50/3)
        size = _digits_estimate(mantissa) + len(str(zeros)) + 2 + _digits_estimate(bottom)
        forms.append((size, _Writer(mantissa, zeros, bottom)))
    if zeros:  # the numerator written out
        forms.append((_digits_estimate(top) + 1 + _digits_estimate(bottom), _Writer(top, 0, bottom)))
    return forms


class _Writer:
    """Writes ``mantissa``, ``e`` and ``power`` when not 0, and ``/`` and ``bottom`` when not 1."""

    __slots__ = ("mantissa", "power", "bottom")

    def __init__(self, mantissa: int, power: int, bottom: int) -> None:
        self.mantissa = mantissa
        self.power = power
        self.bottom = bottom

    def __call__(self) -> str:
        text = _int_to_digits(self.mantissa)
        if self.power:
            text += f"e{self.power}"
        if self.bottom != 1:
            text += "/" + _int_to_digits(self.bottom)
        return text


def _readable(text: str) -> bool:
    """True when :func:`read_number` reads ``text`` back (it is within the limits)."""
    try:
        read_number(text)
    except InvalidTreeError:
        return False
    return True


def _powers_of_two_and_five(n: int) -> tuple[int, int] | None:
    """``(a, b)`` when ``n == 2**a * 5**b``, else None: the denominators of finite decimals."""
    twos = (n & -n).bit_length() - 1
    rest = n >> twos
    if rest == 1:
        return twos, 0
    if rest % 5:
        return None
    fives = round(math.log(rest, 5))
    return (twos, fives) if 5**fives == rest else None


def _strip_tens(n: int) -> tuple[int, int]:
    """``(m, k)`` with ``n == m * 10**k`` and ``m`` not a multiple of 10 (``n > 0``)."""
    twos = (n & -n).bit_length() - 1
    if twos == 0 or n % 5:
        return n, 0
    fives_part = math.gcd(n, 5**twos)
    zeros = min(twos, round(math.log(fives_part, 5)))
    return n // 10**zeros, zeros


def _rounded(top: int, bottom: int) -> str:
    """``top/bottom`` (positive) rounded to :data:`SIGNIFICANT_DIGITS` digits: ``0.333333333333``, ``1.5e-400``."""
    if top == 0:
        return "0"
    lead = math.floor(math.log10(top) - math.log10(bottom))  # the power of ten of the first digit, give or take one
    while True:
        shift = SIGNIFICANT_DIGITS - 1 - lead
        if shift >= 0:
            scaled = (2 * top * 10**shift + bottom) // (2 * bottom)
        else:
            scaled = (2 * top + bottom * 10**-shift) // (2 * bottom * 10**-shift)
        if scaled >= 10**SIGNIFICANT_DIGITS:
            lead += 1
        elif scaled < 10 ** (SIGNIFICANT_DIGITS - 1):
            lead -= 1
        else:
            break
    digits = str(scaled).rstrip("0")
    if -4 <= lead < 0:
        return "0." + "0" * (-lead - 1) + digits
    if 0 <= lead < SIGNIFICANT_DIGITS:
        whole, rest = digits[: lead + 1].ljust(lead + 1, "0"), digits[lead + 1 :]
        return f"{whole}.{rest}" if rest else whole
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{mantissa}e{lead}"
