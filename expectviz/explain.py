"""The words of a trace: a sentence for every step, a line for every event, and the names of nodes.

A node is named by its name (``B``), else by its move label when no other
edge of the tree has that label (``b1``), else by the moves that reach it
from the root: "the MIN node after a2, c1", "the leaf after moves 1, 2" (a
move without a label is written as its child number, counting from 1).
Sentences write numbers as the diagrams do (``−∞``, ``≤``, ``α``).

Every claim a sentence makes follows from the events up to its step: a cutoff
sentence names the window the node was really searched with, and says what
the cutoff proves (a chance node settled, a move MAX or MIN will never
choose, or only the node's own value when the window had been clipped to the
value bounds).  A transposition table's answer says what the table's value
proves with the window the node was searched with: its exact value, or only a
bound that makes its exact value irrelevant there (see
:func:`~expectviz.replay.table_hit`).

A game search's first sentence names the game, the position and whose turn it is.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from .numbers import format_number, format_probability, format_short
from .recorder import BACKUP, CUTOFF, LEAF, PROBE, TABLE, VISIT, Value
from .tree import CHANCE, KIND_NAMES, KIND_WORDS, MAX, MIN, Node, nodes
from .tree import LEAF as LEAF_NODE

if TYPE_CHECKING:
    from .replay import Frame
    from .trace import Trace, TraceIndex

__all__ = ["explain", "event_lines", "describe_path", "say", "MOVES_SHOWN"]

INF = math.inf
MOVES_SHOWN = 6
"""A node deeper than this is named by its last moves and its depth."""


def say(x: Value | None) -> str:
    """A number as sentences write it: ``3``, ``1/3``, ``−∞``, and a long one exactly and rounded:
    ``178327343/393693300 (≈0.453)``."""
    if x is None:
        return "?"
    if isinstance(x, float) and math.isinf(x):
        return "+\u221e" if x > 0 else "\u2212\u221e"
    text = format_number(x)
    short = format_short(x)
    if short != text and not text.startswith("\u2248"):
        text = f"{text} ({short})"
    return text.replace("-", "\u2212")


def unique_labels(tree: Node) -> set[str]:
    """The move labels that name exactly one edge of the tree."""
    seen: dict[str, int] = {}
    for node in nodes(tree):
        if node.move is not None:
            seen[node.move] = seen.get(node.move, 0) + 1
    return {label for label, count in seen.items() if count == 1}


def _phrase(node: Node, moves: list[str], depth: int, unique: set[str]) -> str:
    """Name a node from its own labels, or from the moves that reach it (the last ones, for a deep node)."""
    if node.name is not None:
        return node.name
    if node.move is not None and node.move in unique:
        return node.move
    if depth == 0:
        return "the root"
    words = ", ".join(moves)
    if all(m.isdigit() for m in moves):
        words = ("move " if len(moves) == 1 else "moves ") + words
    if depth > len(moves):
        words = f"\u2026, {words} (depth {depth:,})"
    return f"the {KIND_WORDS[node.kind]} after {words}"


def _move(node: Node, index: int) -> str:
    return node.move if node.move is not None else str(index + 1)


class Namer:
    """Names nodes of one trace; deep nodes cost only their last few moves."""

    def __init__(self, trace: Trace) -> None:
        self.trace = trace
        self.ix: TraceIndex = trace.index
        self.unique: set[str] = trace.unique_labels

    def __call__(self, nid: int) -> str:
        ix = self.ix
        return self._named(ix.nodes[nid], [], nid, ix.depth[nid])

    def child(self, nid: int, index: int) -> str:
        """Name child ``index`` of the reached node ``nid`` (reached or not)."""
        node = self.ix.nodes[nid].children[index]
        return self._named(node, [_move(node, index)], nid, self.ix.depth[nid] + 1)

    def _named(self, node: Node, moves: list[str], at: int, depth: int) -> str:
        """Name ``node`` at ``depth``: ``moves`` (last move first) continued up from node ``at`` as far as shown."""
        ix = self.ix
        while ix.parent[at] >= 0 and len(moves) < (MOVES_SHOWN if depth <= MOVES_SHOWN else 3):
            moves.append(_move(ix.nodes[at], ix.child_index[at]))
            at = ix.parent[at]
        moves.reverse()
        return _phrase(node, moves, depth, self.unique)


def describe_path(tree: Node, path: tuple[int, ...], unique: set[str] | None = None) -> str:
    """Name the node at ``path`` of ``tree`` as sentences do.

    >>> import expectviz as ev
    >>> t = ev.parse("max A(a1: min(3, 12), a2: min(1, chance(4, 5)))")
    >>> describe_path(t, ()), describe_path(t, (0,)), describe_path(t, (1, 1)), describe_path(t, (1, 1, 0))
    ('A', 'a1', 'the chance node after a2, 2', 'the leaf after a2, 2, 1')
    """
    node = tree
    moves = []
    for i in path:
        node = node.children[i]
        moves.append(_move(node, i))
    if len(moves) > MOVES_SHOWN:
        moves = moves[-3:]
    return _phrase(node, moves, len(path), unique if unique is not None else unique_labels(tree))


def _capital(sentence: str) -> str:
    """Capitalise a sentence that starts with one of our own words, never with a label."""
    for word in ("the ", "its "):
        if sentence.startswith(word):
            return sentence[:1].upper() + sentence[1:]
    return sentence


# ---------------------------------------------------------------- lines


def event_lines(trace: Trace) -> Iterator[str]:
    """One line per event, indented two spaces a level (deeper than INDENT_LIMIT: marked with the depth)."""
    from .trace import INDENT_LIMIT

    ix = trace.index
    name = Namer(trace)
    windows = trace.info.windowed
    kinds = ix.kinds
    code = trace._code
    for i in range(len(trace)):
        k = kinds[i]
        nid = ix.about[i]
        depth = ix.depth[nid]
        indent = "  " * depth if depth <= INDENT_LIMIT else "  " * INDENT_LIMIT + f"[depth {depth:,}] "
        who = name(nid)
        node = ix.nodes[nid]
        if k == VISIT:
            text = f"visit {who}" if " after " in who else f"visit {who} ({KIND_NAMES[node.kind]})"
            if windows and node.kind != LEAF_NODE:
                a, b = ix.values(i)
                text += f" window [{format_number(a)}, {format_number(b)}]"
        elif k == LEAF and who.startswith("the leaf after "):
            text = f"{who[4:]} = {format_number(ix.value(i))}"  # "leaf after moves 1, 2 = 3"
        elif k == LEAF:
            what = "leaf" if node.kind == LEAF_NODE else "static evaluation of"
            text = f"{what} {who} = {format_number(ix.value(i))}"
        elif k == BACKUP:
            text = f"backup {who} = {format_number(ix.value(i))}"
        elif k == CUTOFF and _after_probing(trace, nid, code[i] >> 4):
            text = f"cutoff at {who} with {format_number(ix.value(i))} after probing: no outcome is searched in full"
        elif k == CUTOFF:
            pruned = _pruned_names(name, node, nid, code[i] >> 4)
            text = f"cutoff at {who} with {format_number(ix.value(i))}" + (f", pruned {pruned}" if pruned else "")
        elif k == PROBE:
            text = f"probe {who}: first move gives {format_number(ix.value(i))}"
        elif k == TABLE:
            text = f"table hit at {who} {_table_line(trace, i)}"
        elif trace.kind(i) == "bounds":
            a, b = ix.values(i)
            text = f"bounds {who} in [{format_number(a)}, {format_number(b)}]"
        elif trace.kind(i) == "window":
            a, b = ix.values(i)
            text = f"window for {name.child(nid, code[i] >> 4)}: [{format_number(a)}, {format_number(b)}]"
        else:  # reuse
            text = f"reuse {name.child(nid, 0)} = {format_number(ix.value(i))} (searched by the probe)"
        yield indent + text


def _table_line(trace: Trace, i: int) -> str:
    """ "= 1", ">= 1 (a lower bound)", "<= 1 (an upper bound)": what the table event ``i`` gave."""
    from .replay import table_hit

    v = format_number(trace.index.value(i))
    kind, _ = table_hit(trace, i)
    if kind == "exact":
        return f"= {v}"
    if kind == "lower":
        return f">= {v} (a lower bound)"
    if kind == "upper":
        return f"<= {v} (an upper bound)"
    return f"bound {v} (the window is empty)"


def _table_bound(trace: Trace, i: int) -> bool:
    """Did the table event ``i`` give only a bound (not the node's exact value)?"""
    from .replay import table_hit

    return table_hit(trace, i)[0] != "exact"


def _after_probing(trace: Trace, nid: int, first_pruned: int) -> bool:
    """A Star2 cutoff made by the probes alone (every outcome probed, none searched in full)."""
    return trace.info.probes and first_pruned == 0 and trace.index.nodes[nid].kind == CHANCE


def _pruned_names(name: Namer, node: Node, nid: int, first: int) -> str:
    count = len(node.children) - first
    if count > 8:
        return f"{name.child(nid, first)}, {name.child(nid, first + 1)}, \u2026 ({count:,} children)"
    return ", ".join(name.child(nid, i) for i in range(first, len(node.children)))


# ---------------------------------------------------------------- sentences


def explain(frame: Frame) -> str:
    """One plain-English sentence about the frame's step."""
    return _capital(_sentence(frame))


def _sentence(frame: Frame) -> str:
    trace = frame.trace
    ix = trace.index
    name = Namer(trace)
    step = frame.step
    if step == 0:
        root = trace.tree
        if trace.game is not None:
            text = _game_start(trace, root)
        else:
            who = describe_path(root, (), name.unique)
            text = f"Before the search: {trace.algorithm} will search the tree from {who}, a {KIND_WORDS[root.kind]}."
        return text if trace.note is None else f"{text} Note: {trace.note}."
    i = step - 1
    k = ix.kinds[i]
    nid = ix.about[i]
    node = ix.nodes[nid]
    who = name(nid)
    named = not who.startswith("the ")
    a_kind = f", a {KIND_WORDS[node.kind]}" if named else ""
    if k == VISIT:
        if node.kind == LEAF_NODE:
            return f"Reach leaf {who}." if named else f"Reach {who}."
        text = f"Search {who}{a_kind}"
        if trace.info.windowed:
            alpha, beta = ix.values(i)
            text += f", with window [{say(alpha)}, {say(beta)}]"
            parent = ix.parent[nid]
            if parent >= 0 and ix.nodes[parent].kind == CHANCE:
                state = frame.state(nid)
                if state.child_window is not None:
                    alpha_i, beta_i = state.child_window
                    text += (
                        f": the window that decides {name(parent)} is "
                        f"[{say(alpha_i)}, {say(beta_i)}], clipped to the value bounds"
                    )
            elif node.kind == MIN and alpha > -INF:
                text += f": MAX already has {say(alpha)}"
            elif node.kind == MAX and beta < INF:
                text += f": MIN already has {say(beta)}"
        return text + "."
    if k == LEAF:
        v = say(ix.value(i))
        if node.kind == LEAF_NODE:
            return f"Leaf {who} has utility {v}." if named else f"{who} has utility {v}."
        return f"The depth limit stops the search at {who}: its static evaluation is {v}."
    if k == BACKUP:
        return _backup_sentence(frame, nid, who, i)
    if k == CUTOFF:
        return _cutoff_sentence(frame, nid, who, i, name)
    if k == TABLE:
        return _table_sentence(frame, nid, who, i, named)
    if k == PROBE:
        parent = ix.parent[nid]
        bound = "at most" if node.kind == MIN else "at least"
        v = say(ix.value(i))
        return (
            f"Probe: the first move of {who} gives {v}, so {who} is {bound} {v}; "
            f"this tightens {name(parent)}'s bounds without a full search."
        )
    kind = trace.kind(i)
    if kind == "bounds":
        lower, upper = ix.values(i)
        if ix.kinds[i - 1] == VISIT and ix.about[i - 1] == nid:  # before any outcome: Star1/Star2's table lookups
            return (
                f"The transposition table holds bounds on some outcomes of {who}, from earlier searches of the "
                f"same positions: before searching any, its expected value lies in [{say(lower)}, {say(upper)}]."
            )
        return f"{who}'s expected value now lies in [{say(lower)}, {say(upper)}]."
    if kind == "window":
        alpha_i, beta_i = ix.values(i)
        child = name.child(nid, trace._code[i] >> 4)
        return (
            f"Before searching {child}, {who} works out the window that matters: values of {child} at most "
            f"{say(alpha_i)} or at least {say(beta_i)} decide {who} at once."
        )
    # reuse
    return (
        f"The probe already searched {name.child(nid, 0)}: its value {say(ix.value(i))} is used again, "
        f"not searched a second time."
    )


def _game_start(trace: Trace, root: Node) -> str:
    """ "Before the search: alphabeta will search tictactoe from the position X../.../..., MAX (X) to move." """
    from .game import game_name

    game = trace.game
    state = root.state
    position = getattr(game, "position", None)
    where = "from its starting position"
    if callable(position):
        try:
            where = f"from the position {position(state)}"
        except Exception:  # a game's own method: a failure costs only the position in the sentence
            pass
    if root.kind == LEAF_NODE:
        turn = "where the game is already over"
    elif root.kind == CHANCE:
        turn = "where a chance event comes first"
    else:
        turn = f"{KIND_NAMES[root.kind]}{_letter(game, root.kind)} to move"
    return f"Before the search: {trace.algorithm} will search {game_name(game)} {where}, {turn}."


def _letter(game: object, player: str) -> str:
    """ " (X)" for MAX in tic-tac-toe: the mark the player writes, where the game has marks."""
    from .games.tictactoe import CoinFlipTicTacToe, TicTacToe

    if isinstance(game, (TicTacToe, CoinFlipTicTacToe)):
        return " (X)" if player == MAX else " (O)"
    return ""


def _table_sentence(frame: Frame, nid: int, who: str, i: int, named: bool) -> str:
    """A transposition table's answer: what its value proves with the window the node was searched with.

    Only an exact hit gives the node's value.  A bound gives what the window needs and no more: that
    the node is worth at least v >= beta (or at most v <= alpha), so its exact value cannot matter here.
    """
    from .replay import table_hit

    trace = frame.trace
    ix = trace.index
    node = ix.nodes[nid]
    value = ix.value(i)
    v = say(value)
    chance = node.kind == CHANCE
    subject = f"{who}, a {KIND_WORDS[node.kind]}," if named else who
    head = f"{subject} was reached before by another order of moves (a transposition)"
    kind, window = table_hit(trace, i)
    if kind == "exact":
        what = "expected value" if chance else "value"
        return f"{head}: the table holds its {what} {v} from that search, so it is not searched again."
    assert window is not None
    alpha, beta = window
    low, high = trace.value_bounds
    worth = "its expected value is" if chance else "it is worth"
    if kind == "lower" and value >= high:  # clipped to U: nothing is worth more, so this is exact
        return (
            f"{head}: the table holds that {worth} at least {v}, the greatest value any leaf can have "
            f"(U = {say(high)}), so {worth} exactly {v}; it is not searched again."
        )
    if kind == "upper" and value <= low:  # clipped to L
        return (
            f"{head}: the table holds that {worth} at most {v}, the least value any leaf can have "
            f"(L = {say(low)}), so {worth} exactly {v}; it is not searched again."
        )
    if kind == "lower":
        return (
            f"{head}: the table holds that {worth} at least {v}, and {v} \u2265 \u03b2 = {say(beta)}, "
            f"so its exact value cannot matter here; it is not searched again."
        )
    if kind == "upper":
        return (
            f"{head}: the table holds that {worth} at most {v}, and {v} \u2264 \u03b1 = {say(alpha)}, "
            f"so its exact value cannot matter here; it is not searched again."
        )
    return (
        f"{head}: the table holds a bound of {v} on its value, and the window [{say(alpha)}, {say(beta)}] is empty, "
        f"so its exact value cannot matter here; it is not searched again."
    )


def _backup_sentence(frame: Frame, nid: int, who: str, i: int) -> str:
    ix = frame.trace.index
    node = ix.nodes[nid]
    v = say(ix.value(i))
    if i >= 1 and ix.kinds[i - 1] == CUTOFF and ix.about[i - 1] == nid:
        return f"{who} returns {v}, a bound rather than its exact value, after the cutoff."
    how = {
        MAX: "MAX takes the largest child value",
        MIN: "MIN takes the smallest child value",
        CHANCE: "its value is the probability-weighted average of its children",
    }[node.kind]
    if node.kind == CHANCE and len(node.children) <= 6:
        terms = []
        for child in ix.children(nid):
            found = None
            for _, close in ix.visits(child):
                if 0 <= close < i and ix.kinds[close] != PROBE:
                    found = ix.value(close)
            if found is None:
                break
            terms.append(f"{format_probability(ix.nodes[child].probability or 0)}\u00b7{say(found)}")
        if len(terms) == len(node.children):
            return f"{who} is finished: {how}, {' + '.join(terms)} = {v}."
    return f"{who} is finished: {how}, {v}."


def _cutoff_sentence(frame: Frame, nid: int, who: str, i: int, name: Namer) -> str:
    trace = frame.trace
    ix = trace.index
    node = ix.nodes[nid]
    first = trace._code[i] >> 4
    visit, _ = ix.visit_at(nid, i + 1)
    alpha, beta = ix.values(visit)
    value = ix.value(i)
    v = say(value)
    pruned = _pruned_names(name, node, nid, first)
    rest = f"its other children ({pruned}) are pruned" if pruned else "nothing is left to prune"
    if _after_probing(trace, nid, first):
        rest = "no outcome needs a full search: the probes were enough"
    strict = not trace.options.get("prune_ties", True)
    le, ge = ("<" if strict else "\u2264"), (">" if strict else "\u2265")
    parent = ix.parent[nid]
    if parent >= 0 and ix.nodes[parent].kind == CHANCE and node.kind in (MAX, MIN):
        return _cutoff_under_chance(frame, nid, who, value, (alpha, beta), rest, name)
    if node.kind == MIN:
        where = _where_alpha(frame, nid, alpha, name)
        return (
            f"{_worth(who, MIN, 'at most', v)}, and {v} {le} \u03b1 = {say(alpha)}: "
            f"MAX already has {say(alpha)}{where}, so MAX will never choose {who}; {rest}."
        )
    if node.kind == MAX:
        return (
            f"{_worth(who, MAX, 'at least', v)}, and {v} {ge} \u03b2 = {say(beta)}: "
            f"MIN already has {say(beta)} elsewhere, so MIN will never choose {who}; {rest}."
        )
    if value <= alpha:
        return (
            f"{_worth(who, CHANCE, 'at most', v)}, and {v} \u2264 \u03b1 = "
            f"{say(alpha)}: it cannot beat what MAX already has, so {rest}."
        )
    return f"{_worth(who, CHANCE, 'at least', v)}, and {v} \u2265 \u03b2 = {say(beta)}: MIN will avoid it, so {rest}."


def _cutoff_under_chance(
    frame: Frame, nid: int, who: str, value: Value, window: tuple[Value, Value], rest: str, name: Namer
) -> str:
    """A MAX or MIN outcome of a chance node cut by its Star1/Star2 window.

    The window is (max(alpha_i, L), min(beta_i, U)).  When it was not clipped, the cutoff proves
    the chance node fails (it is settled); when alpha_i < L (or beta_i > U) it proves only that the
    node's own value is L (or U): what that means for the chance node is the next step's news.
    """
    trace = frame.trace
    ix = trace.index
    node = ix.nodes[nid]
    chance = name(ix.parent[nid])
    low, high = trace.value_bounds
    state = trace.frame(frame.step).state(nid)
    alpha_i, beta_i = state.child_window if state.child_window is not None else window
    alpha, beta = window
    strict = not trace.options.get("prune_ties", True)
    v = say(value)
    if node.kind == MIN:
        rel = "<" if strict else "\u2264"
        head = f"{_worth(who, MIN, 'at most', v)}, and {v} {rel} \u03b1 = {say(alpha)}"
        if alpha_i < alpha:  # clipped to L: no value is below L, so the node is worth exactly L
            return (
                f"{head}, the least value any leaf can have (\u03b1\u1d62 = {say(alpha_i)} was clipped to "
                f"L = {say(low)}): {who} is worth exactly {say(alpha)}, so {rest}."
            )
        return (
            f"{head} = \u03b1\u1d62, the lowest value that could still matter to {chance}, "
            f"which is therefore settled as too low for MAX; {rest}."
        )
    rel = ">" if strict else "\u2265"
    head = f"{_worth(who, MAX, 'at least', v)}, and {v} {rel} \u03b2 = {say(beta)}"
    if beta_i > beta:  # clipped to U
        return (
            f"{head}, the greatest value any leaf can have (\u03b2\u1d62 = {say(beta_i)} was clipped to "
            f"U = {say(high)}): {who} is worth exactly {say(beta)}, so {rest}."
        )
    return (
        f"{head} = \u03b2\u1d62, the highest value that could still matter to {chance}, "
        f"which is therefore settled as too high for MIN; {rest}."
    )


def _worth(who: str, kind: str, bound: str, v: str) -> str:
    """ "C is a MIN node whose value is now at most 2"; for a node named by its moves, "… is now worth at most 2"."""
    what = "expected value" if kind == CHANCE else "value"
    if " after " in who or who == "the root":
        return f"{who} is now worth {bound} {v}" if kind != CHANCE else f"{who}'s {what} is now {bound} {v}"
    return f"{who} is a {KIND_WORDS[kind]} whose {what} is now {bound} {v}"


def _where_alpha(frame: Frame, nid: int, alpha: Value, name: Namer) -> str:
    """' at B' when alpha came from a finished sibling, for the explanation."""
    ix = frame.trace.index
    parent = ix.parent[nid]
    if parent < 0:
        return ""
    for sibling in ix.children(parent):
        if sibling == nid:
            break
        _, close = ix.visit_at(sibling, frame.step)
        if 0 <= close < frame.step and ix.kinds[close] != PROBE and ix.value(close) == alpha:
            if ix.kinds[close] == TABLE and _table_bound(frame.trace, close):
                continue  # a bound from the table: alpha did not come from this sibling's value
            return f" at {name(sibling)}"
    return " elsewhere"
