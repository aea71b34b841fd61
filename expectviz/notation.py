"""The text notation: reading tree text (:func:`parse`) and writing it back (:func:`to_text`).

The grammar, as in the README (whitespace and newlines are free, and ``#``
starts a comment that runs to the end of the line)::

    tree        = node ;
    node        = number | kind [ name ] [ "[" number "]" ] "(" child { "," child } ")" ;
    kind        = "max" | "min" | "chance" ;
    child       = [ label [ probability ] ":" | probability ":" ] node ;
    name        = word | quoted ;
    label       = word | quoted ;       (* a move, or a chance outcome's name *)
    probability = number ;              (* only under chance; > 0; all or none given *)
    number      = (* the one number syntax: see expectviz.numbers *) ;
    word        = letter { letter | digit | "_" | "'" | "." | "-" } ;   (* ASCII; not max, min or chance *)
    quoted      = '"' { any character but '"' and newline, or a JSON escape } '"' ;

The parser below has one method for each rule (``tree``, ``node``, ``child``,
``name``, ``label``, ``number``, and ``prefix`` for the part of ``child``
before the ``:``), reading tokens one at a time.

What the parser accepts, and refuses with a :class:`~expectviz.errors.TreeSyntaxError`
naming the line and column:

* Numbers use the ASCII digits 0-9 only; a full-width or Arabic-Indic digit is
  refused, naming the character.
* Text is a ``str``; ``bytes`` are read as UTF-8 (a leading byte-order mark is
  skipped).  Anything else raises :class:`~expectviz.errors.InputTypeError`.
* Text longer than ``ev.options.max_input_bytes`` characters is refused before
  it is read, and a tree nested more than :data:`~expectviz.tree.MAX_DEPTH`
  (100,000) levels deep as soon as the parser gets there.

>>> t = parse("max A(a1: min B(3, 12, 8), a2: min C(2, 4, 6))")
>>> to_text(t)
'max A(a1: min B(3, 12, 8), a2: min C(2, 4, 6))'
>>> parse("max(1, ２)")
Traceback (most recent call last):
...
expectviz.errors.TreeSyntaxError: line 1, column 8: the digit '２' (FULLWIDTH DIGIT TWO) is not allowed; ...
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import deque
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import NamedTuple

from ._deep import call_deep
from .errors import InputTypeError, InvalidTreeError, TreeSyntaxError
from .numbers import NUMBER_PATTERN, Number, format_number, format_probability, read_number
from .options import options
from .tree import CHANCE, LEAF, MAX_DEPTH, Node, check, depth_first

__all__ = ["parse", "to_text", "text_pieces"]

KIND_WORDS = ("max", "min", "chance")
"""The words that start an inner node (the node kinds ``max``, ``min``, ``chance``)."""

_TOKEN = re.compile(
    rf"""
    (?P<space>[ \t\r\n]+|\#[^\n]*)
  | (?P<number>{NUMBER_PATTERN})
  | (?P<word>[A-Za-z_][A-Za-z0-9_'.\-]*)
  | (?P<punct>[(),:\[\]])
    """,
    re.VERBOSE,
)

_LABEL = re.compile(r"[A-Za-z_][A-Za-z0-9_'.\-]*")


# ---------------------------------------------------------------- reading


def parse(text: str | bytes) -> Node:
    """Read a tree from the text notation.

    Raises:
        TreeSyntaxError: the text does not follow the notation (line and column named).
        InvalidTreeError: it parses but breaks a rule (probabilities, labels).
        InputTypeError: ``text`` is neither a str nor bytes.

    >>> parse("max(chance(0.5: 10, 0.5: 0), chance(1/2: 5, 1/2: 15))").children[1].children[0].probability
    Fraction(1, 2)
    >>> parse("max(1, 2")
    Traceback (most recent call last):
    ...
    expectviz.errors.TreeSyntaxError: line 1, column 9: the text ended inside max(...) opened at line 1, column 1; ...
    """
    source = _source_text(text)
    parser = _Parser(source)
    levels = min(source.count("("), MAX_DEPTH) + 2  # room for the deepest possible nesting
    return check(call_deep(parser.tree, depth=levels, python_only=True))


def _source_text(text: object) -> str:
    """The text to parse: a str as it is, bytes decoded as UTF-8; refused when too long or of another type."""
    if isinstance(text, (bytes, bytearray)):
        _check_length(len(text), "bytes", lambda: (1, 1))
        data = bytes(text)
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            line, column = _position(data[: error.start].decode("utf-8-sig"), error.start)
            raise TreeSyntaxError(
                f"the bytes are not UTF-8 text (byte 0x{data[error.start]:02x} cannot be read); "
                "give a str, or bytes in UTF-8",
                line,
                column,
            ) from None
    if not isinstance(text, str):
        found = "None" if text is None else type(text).__name__
        hint = " (it is already a tree: use it as it is)" if isinstance(text, Node) else ""
        raise InputTypeError(f"parse() takes tree text (a str, or bytes in UTF-8), not {found}{hint}")
    limit = options.max_input_bytes
    _check_length(len(text), "characters", lambda: _position(text, limit))
    return text


def _check_length(size: int, unit: str, where: Callable[[], tuple[int, int]]) -> None:
    """Refuse text longer than ``ev.options.max_input_bytes``, at the place where the limit falls."""
    limit = options.max_input_bytes
    if size > limit:
        line, column = where()
        raise TreeSyntaxError(
            f"the text is {size:,} {unit} long, more than ev.options.max_input_bytes = {limit:,}; "
            "raise that option to read it",
            line,
            column,
        )


def _position(text: str, index: int) -> tuple[int, int]:
    """The line and column (from 1) of ``text[index]``."""
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


class Token(NamedTuple):
    """One token of tree text, with where it starts."""

    kind: str
    """``number``, ``word``, ``string``, ``punct`` or ``end``."""
    text: str
    line: int
    column: int


class _Tokens:
    """The tokens of a text, scanned only as far as the parser has looked (so a bad start fails at once)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0  # where scanning goes on
        self.line = 1
        self.line_start = 0  # the index where the current line starts
        self.ahead: deque[Token] = deque()

    def peek(self, k: int = 0) -> Token:
        """The token ``k`` places ahead (0: the next one), without taking it."""
        while len(self.ahead) <= k:
            self.ahead.append(self._scan())
        return self.ahead[k]

    def take(self) -> Token:
        """The next token, taken."""
        token = self.peek()
        self.ahead.popleft()
        return token

    def is_punct(self, text: str, k: int = 0) -> bool:
        """True when the token ``k`` places ahead is the punctuation ``text``."""
        token = self.peek(k)
        return token.kind == "punct" and token.text == text

    def _scan(self) -> Token:
        """Read the next token, skipping whitespace and comments."""
        text = self.text
        while True:
            column = self.pos - self.line_start + 1
            if self.pos >= len(text):
                return Token("end", "", self.line, column)
            if text[self.pos] == '"':
                return self._quoted(column)
            match = _TOKEN.match(text, self.pos)
            if match is None:
                raise self._bad_character(column)
            start, self.pos = self.pos, match.end()
            kind, piece = match.lastgroup or "", match.group()
            if kind != "space":
                if kind == "number":
                    self._check_number_end(piece)
                return Token(kind, piece, self.line, column)
            newlines = piece.count("\n")
            if newlines:
                self.line += newlines
                self.line_start = start + piece.rindex("\n") + 1

    def _quoted(self, column: int) -> Token:
        """A quoted name: from this '"' to the next one not escaped by a backslash, on one line."""
        text, start = self.text, self.pos
        search_from = start + 1
        while True:
            quote = text.find('"', search_from)
            end_of_line = text.find("\n", search_from, len(text) if quote < 0 else quote)
            if quote < 0 or end_of_line >= 0:
                raise TreeSyntaxError('unterminated quoted name (close it with ")', self.line, column)
            between = text[search_from:quote]
            backslashes = len(between) - len(between.rstrip("\\"))
            if backslashes % 2 == 0:  # not escaped: the closing quote
                self.pos = quote + 1
                return Token("string", text[start : self.pos], self.line, column)
            search_from = quote + 1

    def _bad_character(self, column: int) -> TreeSyntaxError:
        """The error for a character no token starts with."""
        ch = self.text[self.pos]
        if ch.isdigit():
            return TreeSyntaxError(
                f"the digit {ch!r}{_character_name(ch)} is not allowed; numbers use the ASCII digits 0-9",
                self.line,
                column,
            )
        return TreeSyntaxError(
            f"unexpected character {ch!r}{_character_name(ch)}; "
            "allowed are numbers, names, quoted names, ( ) , : [ ] and # comments",
            self.line,
            column,
        )

    def _check_number_end(self, number: str) -> None:
        """A number must not run straight into a letter, a '.' or a '/' (``1e``, ``2x``, ``1.2.3``, ``1/2/3``)."""
        ch = self.text[self.pos : self.pos + 1]
        if ch and (ch.isalpha() or ch in "_./"):
            hint = " (an exponent needs digits, as in 1e5 or 2.5e-3)" if ch in "eE" else ""
            raise TreeSyntaxError(
                f"the number {_shorten(number)} runs into {ch!r}{hint}; separate numbers with ','",
                self.line,
                self.pos - self.line_start + 1,
            )


def _character_name(ch: str) -> str:
    """`` (FULLWIDTH DIGIT TWO)`` for a character outside ASCII, else ""."""
    if ch.isascii():
        return ""
    name = unicodedata.name(ch, "")
    return f" ({name})" if name else f" (U+{ord(ch):04X})"


def _shorten(text: str) -> str:
    """``text`` cut in the middle when it is long (for messages)."""
    return text if len(text) <= 40 else f"{text[:20]}...{text[-8:]}"


def _quote(text: str) -> str:
    """``text`` quoted for a message, cut in the middle when it is long."""
    return repr(_shorten(text))


class _Parser:
    """A recursive-descent parser: one method per grammar rule."""

    def __init__(self, text: str) -> None:
        self.tokens = _Tokens(text)
        self.open: list[Token] = []  # the kind word of each inner node being read, outermost first

    def tree(self) -> Node:
        """tree = node ;  (with nothing after it)"""
        _, _, first = self.prefix()
        if first is not None:
            raise self.error(first, "the whole tree cannot have a move label or probability")
        root = self.node(None, None)
        end = self.tokens.peek()
        if end.kind != "end":
            unbalanced = " (unbalanced ')')" if end.text == ")" else ""
            raise self.error(end, f"unexpected {_quote(end.text)} after the end of the tree{unbalanced}")
        return root

    def node(self, move: str | None, probability: Number | None) -> Node:
        """node = number | kind [ name ] [ "[" number "]" ] "(" child { "," child } ")" ;"""
        token = self.tokens.peek()
        if token.kind == "number":
            self.tokens.take()
            return Node(LEAF, value=self.number(token, "leaf value"), move=move, probability=probability)
        if token.kind != "word" or token.text not in KIND_WORDS:
            raise self.not_a_node(token)
        kind = self.tokens.take()
        if len(self.open) >= MAX_DEPTH:
            raise self.error(
                kind, f"the tree goes deeper than {MAX_DEPTH:,} levels here; a tree has at most {MAX_DEPTH:,} levels"
            )
        name = self.name(kind)
        evaluation = self.evaluation()
        self.expect_children(kind)
        self.open.append(kind)
        children = [self.child(kind)]
        while self.tokens.is_punct(","):
            self.tokens.take()
            if self.tokens.is_punct(")"):
                raise self.error(self.tokens.peek(), "a child is missing after ','")
            children.append(self.child(kind))
        if not self.tokens.is_punct(")"):
            found = self.tokens.peek()
            raise self.error(
                found, f"expected ',' or ')' after a child of {kind.text}, found {_quote(found.text or 'the end')}"
            )
        self.tokens.take()
        self.open.pop()
        return Node(
            kind.text, children=tuple(children), name=name, move=move, probability=probability, evaluation=evaluation
        )

    def child(self, parent: Token) -> Node:
        """child = [ label [ probability ] ":" | probability ":" ] node ;"""
        move, probability, first = self.prefix()
        if probability is not None and parent.text != CHANCE:
            assert first is not None
            raise self.error(first, f"a probability is only allowed under a chance node, not under {parent.text}")
        return self.node(move, probability)

    def prefix(self) -> tuple[str | None, Number | None, Token | None]:
        """The optional ``label [ probability ] ":"`` or ``probability ":"`` of a child, and its first token."""
        tokens = self.tokens
        first = tokens.peek()
        if first.kind in ("word", "string"):
            if tokens.is_punct(":", 1):
                move = self.label()
                tokens.take()
                return move, None, first
            if tokens.peek(1).kind == "number" and tokens.is_punct(":", 2):
                move = self.label()
                probability = self.number(tokens.take(), "probability")
                tokens.take()
                return move, probability, first
        elif first.kind == "number" and tokens.is_punct(":", 1):
            probability = self.number(tokens.take(), "probability")
            tokens.take()
            return None, probability, first
        return None, None, None

    def name(self, kind: Token) -> str | None:
        """The optional name after a kind: name = word | quoted ;"""
        token = self.tokens.peek()
        if token.kind not in ("word", "string"):
            return None
        if token.kind == "word" and token.text in KIND_WORDS:
            raise self.error(token, f"expected '(' after {kind.text}, found the kind {_quote(token.text)}")
        return self.unquote(self.tokens.take())

    def label(self) -> str:
        """label = word | quoted ;  (a kind word must be quoted)"""
        token = self.tokens.take()
        if token.kind == "word" and token.text in KIND_WORDS:
            raise self.error(
                token, f'{_quote(token.text)} is a node kind and cannot be a move label; quote it: "{token.text}"'
            )
        return self.unquote(token)

    def evaluation(self) -> Number | None:
        """The optional static evaluation after a kind: "[" number "]"."""
        if not self.tokens.is_punct("["):
            return None
        bracket = self.tokens.take()
        token = self.tokens.peek()
        if token.kind != "number":
            raise self.error(token, "expected a number (the static evaluation) after '['")
        value = self.number(self.tokens.take(), "static evaluation")
        if not self.tokens.is_punct("]"):
            raise self.error(
                self.tokens.peek(), f"expected ']' to close the static evaluation opened at column {bracket.column}"
            )
        self.tokens.take()
        return value

    def expect_children(self, kind: Token) -> None:
        """The "(" that opens the children of ``kind``, which must not be empty."""
        token = self.tokens.peek()
        if not self.tokens.is_punct("("):
            if token.kind == "end" and not self.open:
                raise TreeSyntaxError(
                    f"{kind.text} needs children in parentheses, e.g. {kind.text}(1, 2)", token.line, token.column
                )
            raise self.error(
                token, f"expected '(' and the children of {kind.text}, found {_quote(token.text or 'the end')}"
            )
        self.tokens.take()
        if self.tokens.is_punct(")"):
            raise self.error(self.tokens.peek(), f"{kind.text}() has no children; give at least one")

    def number(self, token: Token, what: str) -> Number:
        """A number token's exact value (see :mod:`expectviz.numbers`)."""
        try:
            return read_number(token.text, what)
        except InvalidTreeError as error:
            raise TreeSyntaxError(error.reason, token.line, token.column) from None

    def unquote(self, token: Token) -> str:
        """The text of a word, or of a quoted name with its JSON escapes read."""
        if token.kind == "word":
            return token.text
        try:
            value = json.loads(token.text)
        except ValueError:
            raise TreeSyntaxError(
                f"bad escape in quoted name {_shorten(token.text)}", token.line, token.column
            ) from None
        if not isinstance(value, str):  # pragma: no cover - json.loads of a quoted string is a str
            raise TreeSyntaxError("a quoted name must be a string", token.line, token.column)
        return value

    def not_a_node(self, token: Token) -> TreeSyntaxError:
        """The error for a token where a node should start."""
        if token.kind == "word":
            if token.text.lower() in ("inf", "infinity", "nan"):
                return self.error(token, f"{_quote(token.text)} is not allowed: every value is a finite number")
            hint = "" if self.tokens.is_punct("(", 1) else " (a move label needs a ':' after it)"
            return self.error(
                token, f"unknown node kind {_quote(token.text)}; allowed are max, min, chance or a number{hint}"
            )
        if token.kind == "string":
            return self.error(token, "a quoted name must be followed by ':' (a move label) or come after a node kind")
        if token.kind == "punct" and token.text == ")":
            return self.error(token, "unbalanced ')': no child before it" if self.open else "unbalanced ')'")
        return self.error(token, f"expected a number or max/min/chance(...), found {_quote(token.text or 'the end')}")

    def error(self, token: Token, reason: str) -> TreeSyntaxError:
        """A syntax error at ``token``; at the end of the text, say which node is still open."""
        if token.kind == "end":
            if self.open:
                opener = self.open[-1]
                reason = (
                    f"the text ended inside {opener.text}(...) opened at line {opener.line}, "
                    f"column {opener.column}; close it with ')'"
                )
            else:
                reason = "the text ended where a tree was expected (a number or max/min/chance(...))"
        return TreeSyntaxError(reason, token.line, token.column)


# ---------------------------------------------------------------- writing


def to_text(root: Node) -> str:
    """Write a tree in the text notation; ``parse(to_text(t)) == t`` for every checked tree.

    Numbers are written exactly (long ones with an exponent or as a fraction,
    see :func:`~expectviz.numbers.format_number`).

    >>> to_text(parse("chance(heads 0.9: 10, tails 0.1: 0)"))
    'chance(heads 0.9: 10, tails 0.1: 0)'

    Equally likely outcomes are written without probabilities:

    >>> to_text(parse("chance(heads 1/2: 10, tails 1/2: 0)"))
    'chance(heads: 10, tails: 0)'
    """
    return "".join(text_pieces(root))


def text_pieces(root: Node) -> Iterator[str]:
    """The text of a tree piece by piece, in order (:func:`to_text` joins them; ``repr`` stops early)."""
    equally_likely: list[bool] = []  # for each inner node being written: leave out its children's probabilities
    for entering, path, node in depth_first(root):
        if not entering:
            if node.kind != LEAF:
                equally_likely.pop()
                yield ")"
            continue
        if path and path[-1]:
            yield ", "
        prefix = _prefix_text(node, bool(equally_likely) and equally_likely[-1])
        if prefix:
            yield prefix
        if node.kind == LEAF:
            yield format_number(node.value if node.value is not None else 0, exact=True)
        else:
            yield _head_text(node)
            equally_likely.append(_is_equally_likely(node))


def _prefix_text(node: Node, hide_probability: bool) -> str:
    """``heads 1/2: `` before a child: its move label and probability, if any."""
    parts = []
    if node.move is not None:
        parts.append(_label_text(node.move))
    if node.probability is not None and not hide_probability:
        parts.append(format_probability(node.probability, exact=True))
    return " ".join(parts) + ": " if parts else ""


def _head_text(node: Node) -> str:
    """``min B [4] (``: an inner node's kind, name and static evaluation, and the opening parenthesis."""
    head = node.kind
    if node.name is not None:
        head += " " + _label_text(node.name)
    if node.evaluation is not None:
        head += f" [{format_number(node.evaluation, exact=True)}] "
    return head + "("


def _is_equally_likely(node: Node) -> bool:
    """True for a chance node whose outcomes all have probability 1/n."""
    if node.kind != CHANCE:
        return False
    share = Fraction(1, len(node.children)) if node.children else None
    return all(child.probability == share for child in node.children)


def _label_text(label: str) -> str:
    """A name or move label as a word when it is one, else quoted."""
    if _LABEL.fullmatch(label) and label not in KIND_WORDS:
        return label
    return json.dumps(label, ensure_ascii=False)
