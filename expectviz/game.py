"""Games: the interface every search reads, and an explicit tree as one game.

A game is what AIMA (4th ed. Section 5.1, 3rd ed. Section 5.1) and the
expectimax tutorial describe: an initial state, whose turn it is, the legal
moves, the result of a move, the terminal test and the utility; a game of
chance adds the outcomes of a random event with their probabilities.  Every
search in expectviz reads a game only through these methods, so a textbook
tree, tic-tac-toe and a game written in a notebook cell are searched by the
same code.

A take-away game (Nim with one heap): each player takes 1 or 2 counters, and
whoever takes the last counter wins.

>>> import expectviz as ev
>>> class TakeAway:
...     initial = (4, ev.MAX)                      # counters left, whose turn
...     def to_move(self, state):
...         return state[1]
...     def actions(self, state):
...         return [take for take in (1, 2) if take <= state[0]]
...     def result(self, state, take):
...         return (state[0] - take, ev.MIN if state[1] == ev.MAX else ev.MAX)
...     def is_terminal(self, state):
...         return state[0] == 0
...     def utility(self, state):                  # the player who just moved took the last counter
...         return -1 if state[1] == ev.MAX else 1
>>> isinstance(TakeAway(), ev.Game)
True
>>> r = ev.minimax(TakeAway())
>>> r.value, r.best_move, r.stats.nodes_visited
(1, '1', 12)

Every value is from MAX's point of view.  Optional methods, used when present:

``chance_outcomes(state)``
    at a CHANCE state, the ``(outcome, probability)`` pairs; ``result(state, outcome)``
    is the state after the outcome.  Probabilities are exact numbers summing to 1.
``evaluate(state)``
    a static evaluation for depth-limited search (MAX's point of view).
``move_label(state, action)``
    how diagrams and sentences name a move (default: ``str(action)``).
``picture(state)``
    a small SVG picture of the state, drawn in the diagram's nodes.
``name``
    the game's name in messages and titles.
``has_chance``
    True when the game has CHANCE states (minimax and alpha-beta refuse it at once);
    a game without this attribute is checked state by state as it is searched.
``value_range``
    ``(L, U)``: the least and greatest utility or evaluation (Star1 and Star2's bounds).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any, Protocol, runtime_checkable

from .errors import SearchError
from .numbers import Number, exact, format_number
from .tree import CHANCE, LEAF, MAX, MIN, Node

__all__ = ["Game", "ChanceGame", "TreeGame", "GameView", "as_game", "game_name", "State", "Action"]

State = Any
"""A game state: anything the game's methods accept (hashable, for transposition tables)."""
Action = Any
"""A move (or a chance outcome): anything ``actions`` returns and ``result`` accepts."""

PLAYERS = (MAX, MIN, CHANCE)


@runtime_checkable
class Game(Protocol):
    """A two-player zero-sum game of perfect information, as the searches read it (AIMA Section 5.1)."""

    initial: State
    """The state at the start (the root of the search)."""

    def to_move(self, state: State) -> str:
        """Whose turn it is in a non-terminal state: ``ev.MAX``, ``ev.MIN`` or ``ev.CHANCE``."""
        ...

    def actions(self, state: State) -> Sequence[Action]:
        """The legal moves in a MAX or MIN state, in the order they are searched."""
        ...

    def result(self, state: State, action: Action) -> State:
        """The state after a move (or after a chance outcome)."""
        ...

    def is_terminal(self, state: State) -> bool:
        """True when the game is over."""
        ...

    def utility(self, state: State) -> Number:
        """A terminal state's value, from MAX's point of view."""
        ...


@runtime_checkable
class ChanceGame(Game, Protocol):
    """A game with chance: CHANCE states list their outcomes (the expectiminimax tutorial's "nature")."""

    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, Number]]:
        """The ``(outcome, probability)`` pairs of a CHANCE state; the probabilities sum to 1."""
        ...


class TreeGame:
    """An explicit tree as a game: the states are its nodes, the moves its child indices.

    >>> from expectviz.notation import parse
    >>> game = TreeGame(parse("max(min(3, 12), 2)"))
    >>> game.to_move(game.initial), list(game.actions(game.initial)), game.utility(game.result(game.initial, 1))
    ('max', [0, 1], 2)
    """

    name = "tree"

    def __init__(self, root: Node) -> None:
        self.initial = root
        self.tree = root

    # Read straight off the node (in C: these run once for every node searched).
    to_move = attrgetter("kind")
    """A node's kind is whose turn it is."""
    utility = attrgetter("value")
    """A leaf's value is its utility."""
    evaluate = attrgetter("evaluation")
    """A node's static evaluation (checked before a depth-limited search)."""

    def actions(self, node: Node) -> range:
        return range(len(node.children))

    def result(self, node: Node, index: int) -> Node:
        return node.children[index]

    def chance_outcomes(self, node: Node) -> list[tuple[int, Number]]:
        return [(i, child.probability) for i, child in enumerate(node.children)]  # type: ignore[misc]

    def is_terminal(self, node: Node) -> bool:
        return node.kind == LEAF

    def move_label(self, node: Node, index: int) -> str:
        child = node.children[index]
        return child.move or child.name or str(index)

    def table_key(self, node: Node) -> int:
        return id(node)  # nodes live as long as the search; structural equality would cost O(subtree)


class GameView:
    """The game as one search reads it: the game's own bound methods, plus what the search adds.

    The search's options (a move-ordering key, chance outcomes in order of
    probability for Star1 and Star2, the checks run on a game written by
    hand, the ply limit of a search without a depth limit) replace single
    methods; the rest are the game's methods themselves, so reading a built-in
    game costs nothing extra.
    """

    __slots__ = (
        "game",
        "initial",
        "to_move",
        "actions",
        "result",
        "chance_outcomes",
        "is_terminal",
        "utility",
        "evaluate",
        "move_label",
        "table_key",
        "order",
    )

    def __init__(
        self,
        game: Any,
        *,
        order: Callable[[State, Action], Any] | None = None,
        checked: bool = False,
        chance: bool = True,
        algorithm: str = "the search",
        likely_first: bool = False,
    ) -> None:
        self.game = game
        self.initial = game.initial
        self.to_move = game.to_move
        self.actions = game.actions
        self.result = game.result
        self.chance_outcomes = getattr(game, "chance_outcomes", None) or _no_chance(game)
        self.is_terminal = game.is_terminal
        self.utility = game.utility
        self.evaluate = getattr(game, "evaluate", None) or _no_evaluation(game)
        label = getattr(game, "move_label", None)
        self.move_label: Callable[[State, Action], str] = label if label is not None else _plain_label
        self.table_key: Callable[[State], Any] | None = getattr(game, "table_key", None)
        self.order = order
        if checked:
            self._check_each_call(chance=chance, algorithm=algorithm)
        if order is not None:
            self.actions = _ordered(self.actions, order)
        if likely_first:
            self.chance_outcomes = _most_probable_first(self.chance_outcomes)

    def _check_each_call(self, *, chance: bool, algorithm: str) -> None:
        """Wrap the methods of a game written by hand so that a wrong answer is named, with the state."""
        game = self.game
        name = game_name(game)
        to_move, actions, outcomes = self.to_move, self.actions, self.chance_outcomes
        is_terminal, utility, evaluate = self.is_terminal, self.utility, self.evaluate

        def checked_to_move(state: State) -> str:
            player: str = to_move(state)
            if player not in PLAYERS:
                raise SearchError(
                    f"{name}.to_move returned {player!r} for the state {_show(state)}; "
                    "it must return ev.MAX, ev.MIN or ev.CHANCE ('max', 'min' or 'chance')"
                )
            if player == CHANCE and not chance:
                raise SearchError(
                    f"{algorithm} has no rule for chance nodes, and {name}.to_move said CHANCE for the state "
                    f"{_show(state)}; use expectiminimax (exact), or star1/star2 (with pruning)"
                )
            return player

        def checked_actions(state: State) -> Sequence[Action]:
            moves: Sequence[Action] = actions(state)
            try:
                count = len(moves)
            except TypeError:
                raise SearchError(
                    f"{name}.actions returned {moves!r} for the state {_show(state)}; it must return a list of moves"
                ) from None
            if count == 0:
                raise SearchError(
                    f"{name}.actions returned no moves for the state {_show(state)}, which is_terminal says is not "
                    "over; a state without moves must be terminal"
                )
            return moves

        def checked_outcomes(state: State) -> Sequence[tuple[Action, Number]]:
            pairs = list(outcomes(state))
            if not pairs:
                raise SearchError(f"{name}.chance_outcomes returned no outcomes for the state {_show(state)}")
            total: Number = 0
            out = []
            for pair in pairs:
                if not isinstance(pair, tuple) or len(pair) != 2:
                    raise SearchError(
                        f"{name}.chance_outcomes returned {pair!r} for the state {_show(state)}; "
                        "each outcome is a pair (outcome, probability)"
                    )
                try:
                    p = exact(pair[1], "probability")
                except ValueError as error:
                    raise SearchError(
                        f"{name}.chance_outcomes gave the probability {pair[1]!r} for the state {_show(state)}: {error}"
                    ) from None
                if not 0 < p <= 1:
                    raise SearchError(
                        f"{name}.chance_outcomes gave the probability {format_number(p)} for the state "
                        f"{_show(state)}; probabilities are in (0, 1]"
                    )
                total += p
                out.append((pair[0], p))
            if total != 1:
                raise SearchError(
                    f"{name}.chance_outcomes gave probabilities summing to {format_number(total)}, not 1, for the "
                    f"state {_show(state)}"
                )
            return out

        def checked_is_terminal(state: State) -> bool:
            return bool(is_terminal(state))

        def checked_number(method: Callable[[State], Number], what: str) -> Callable[[State], Number]:
            def number(state: State) -> Number:
                value = method(state)
                try:
                    return exact(value, what)
                except (ValueError, TypeError) as error:
                    raise SearchError(
                        f"{name}.{what} returned {value!r} for the state {_show(state)}: {error}"
                    ) from None

            return number

        self.to_move = checked_to_move
        self.actions = checked_actions
        self.chance_outcomes = checked_outcomes
        self.is_terminal = checked_is_terminal
        self.utility = checked_number(utility, "utility")
        self.evaluate = checked_number(evaluate, "evaluate")


def _ordered(actions: Callable[[State], Sequence[Action]], key: Callable[[State, Action], Any]) -> Callable[..., Any]:
    def ordered_actions(state: State) -> list[Action]:
        return sorted(actions(state), key=lambda a: key(state, a))

    return ordered_actions


def _most_probable_first(
    outcomes: Callable[[State], Sequence[tuple[Action, Number]]],
) -> Callable[[State], list[tuple[Action, Number]]]:
    def likely_first(state: State) -> list[tuple[Action, Number]]:
        return sorted(outcomes(state), key=_less_probable)  # stable: equally likely outcomes keep their order

    return likely_first


def _less_probable(pair: tuple[Action, Number]) -> Number:
    return -pair[1]


def _plain_label(state: State, action: Action) -> str:
    return str(action)


def _no_chance(game: Any) -> Callable[[State], Any]:
    def chance_outcomes(state: State) -> Any:
        raise SearchError(
            f"{game_name(game)}.to_move said CHANCE for the state {_show(state)}, "
            "but the game has no chance_outcomes method"
        )

    return chance_outcomes


def _no_evaluation(game: Any) -> Callable[[State], Any]:
    def evaluate(state: State) -> Any:
        raise SearchError(
            f"the depth limit stopped the search at the state {_show(state)}, and {game_name(game)} has no "
            "evaluate method; search without a depth limit or give the game an evaluation"
        )

    return evaluate


def _show(state: State) -> str:
    text = repr(state)
    return text if len(text) <= 80 else text[:77] + "..."


def game_name(game: Any) -> str:
    """How messages name a game: its ``name`` attribute, else its class name."""
    name = getattr(game, "name", None)
    return name if isinstance(name, str) and name else type(game).__name__


def is_game(x: Any) -> bool:
    """True for an object with the methods of :class:`Game` (and not a tree)."""
    return not isinstance(x, (Node, str, bytes)) and isinstance(x, Game)


def as_game(x: Any) -> Any:
    """The game a search is asked for: a :class:`Game`, a game's name, or a tree (its text, a textbook name).

    Returns a built-in game object, a :class:`TreeGame` around a checked tree, or the game itself.
    """
    from .search import as_tree

    if isinstance(x, str):
        from .games import GAMES

        key = x.strip()
        if key in GAMES:
            return GAMES[key]()
        return TreeGame(as_tree(x))
    if isinstance(x, Node):
        return TreeGame(as_tree(x))
    if is_game(x):
        return x
    missing = [m for m in ("initial", "to_move", "actions", "result", "is_terminal", "utility") if not hasattr(x, m)]
    if missing and not isinstance(x, (int, float, list, tuple, dict, type(None))):
        raise SearchError(
            f"{type(x).__name__} is not a game: it lacks {', '.join(missing)} "
            "(a game has initial, to_move, actions, result, is_terminal and utility; see ev.Game)"
        )
    raise SearchError(f"expected a tree (a Node, tree text or a name) or a game, not {type(x).__name__}")


def materialise(index: Any, states: list[State], game: GameView) -> list[Node]:
    """The explored part of a game's tree, as nodes: one for each node the search reached, by id.

    ``index`` is the trace's :class:`~expectviz.trace.TraceIndex` and ``states``
    the state of each node it numbered.  A node whose search was expanded gets
    its children in search order: the ones reached, and a childless node for
    each move the search pruned.  A state the depth limit stopped at carries its
    evaluation; a terminal state is a leaf with its utility.  Time and memory
    are linear in the nodes reached and the moves pruned.
    """
    from .recorder import LEAF as LEAF_EVENT
    from .recorder import TABLE

    count = len(states)
    first_child, next_sibling, child_index = index.first_child, index.next_sibling, index.child_index
    first_close, kinds = index.first_close, index.kinds
    if isinstance(game.game, TreeGame):
        return _reordered(index, states, game)
    labels: list[str | None] = [None] * count
    chances: list[Number | None] = [None] * count
    pruned: dict[int, list[tuple[int, Node]]] = {}  # node id -> (move index, node) for each move not searched
    label, to_move, actions, outcomes = game.move_label, game.to_move, game.actions, game.chance_outcomes
    for nid in range(count):  # parents before children: ids follow the order nodes were first reached
        child = first_child[nid]
        if child < 0 and (first_close[nid] < 0 or kinds[first_close[nid]] in (LEAF_EVENT, TABLE)):
            continue  # a leaf, the depth limit or a table's answer (a node cut before any child has them all pruned)
        state = states[nid]
        reached = 0
        if to_move(state) == CHANCE:
            pairs = list(outcomes(state))
            moves = [a for a, _ in pairs]
            while child >= 0:
                i = child_index[child]
                labels[child] = label(state, moves[i])
                chances[child] = pairs[i][1]
                reached += 1
                child = next_sibling[child]
        else:
            pairs = None
            moves = actions(state)
            while child >= 0:
                labels[child] = label(state, moves[child_index[child]])
                reached += 1
                child = next_sibling[child]
        if reached < len(moves):
            pruned[nid] = _pruned(index, nid, state, moves, pairs, game)
    built: list[Node] = [None] * count  # type: ignore[list-item]
    is_terminal, utility, value_of = game.is_terminal, game.utility, index.value
    new = Node.__new__
    # Node's frozen __init__ sets its nine fields one by one through object.__setattr__; the slots' own
    # setters do the same in half the time, which matters for a tree of half a million nodes.
    set_kind, set_children, set_value, set_name, set_move = _SET
    set_probability, set_evaluation, set_state, set_facts = _SET2
    for nid in range(count - 1, -1, -1):  # children before parents
        state = states[nid]
        node = new(Node)
        set_name(node, None)
        set_move(node, labels[nid])
        set_probability(node, chances[nid])
        set_state(node, state)
        set_facts(node, None)
        if is_terminal(state):
            set_kind(node, LEAF)
            set_children(node, ())
            set_value(node, utility(state))
            set_evaluation(node, None)
            built[nid] = node
            continue
        set_kind(node, to_move(state))
        set_value(node, None)
        close = first_close[nid]
        closing = kinds[close] if close >= 0 else -1
        if closing == LEAF_EVENT or closing == TABLE:  # the depth limit's evaluation, or a table's answer
            set_children(node, ())
            set_evaluation(node, value_of(close) if closing == LEAF_EVENT else None)
        else:
            children: list[Node] = []
            child = first_child[nid]
            while child >= 0:
                children.append(built[child])
                child = next_sibling[child]
            stubs = pruned.pop(nid, None)
            if stubs:  # the pruned moves, in their places among the searched ones
                placed = [(child_index[c], n) for c, n in zip(_siblings(index, nid), children, strict=True)]
                children = [n for _, n in sorted(placed + stubs, key=lambda pair: pair[0])]
            set_children(node, tuple(children))
            set_evaluation(node, None)
        built[nid] = node
    return built


def _reordered(index: Any, states: list[Node], game: GameView) -> list[Node]:
    """An explicit tree searched with a move-ordering key: the same tree, each searched node's children in
    the order they were searched (unsearched subtrees stay whole, so pruned leaves are still drawn)."""
    count = len(states)
    built: list[Node] = list(states)
    for nid in range(count - 1, -1, -1):  # children before parents
        node = states[nid]
        child = index.first_child[nid]
        if child < 0:
            continue
        searched = {}
        while child >= 0:
            searched[index.child_index[child]] = built[child]
            child = index.next_sibling[child]
        order = list(game.actions(node))
        built[nid] = Node(
            node.kind,
            children=tuple(searched[i] if i in searched else node.children[a] for i, a in enumerate(order)),
            value=node.value,
            name=node.name,
            move=node.move,
            probability=node.probability,
            evaluation=node.evaluation,
            state=node,
        )
    return built


def _siblings(index: Any, nid: int) -> list[int]:
    found = []
    child = index.first_child[nid]
    while child >= 0:
        found.append(child)
        child = index.next_sibling[child]
    return found


def _pruned(
    index: Any, nid: int, state: State, moves: Sequence[Action], pairs: list[Any] | None, game: GameView
) -> list[tuple[int, Node]]:
    """A childless node for each move of ``state`` the search did not reach (pruned), with its index."""
    reached = {index.child_index[c] for c in _siblings(index, nid)}
    stubs = []
    for i, a in enumerate(moves):
        if i in reached:
            continue
        after = game.result(state, a)
        if game.is_terminal(after):
            kind, value = LEAF, game.utility(after)
        else:
            kind, value = game.to_move(after), None
        p = pairs[i][1] if pairs is not None else None
        stubs.append((i, _node(kind, (), value, game.move_label(state, a), p, None, after)))
    return stubs


_SET = tuple(getattr(Node, name).__set__ for name in ("kind", "children", "value", "name", "move"))
_SET2 = tuple(getattr(Node, name).__set__ for name in ("probability", "evaluation", "state", "_facts"))


def _node(
    kind: str,
    children: tuple[Node, ...],
    value: Number | None,
    move: str | None,
    probability: Number | None,
    evaluation: Number | None,
    state: State,
) -> Node:
    """``Node(kind, children, value, None, move, probability, evaluation, state)`` without the dataclass's
    frozen ``__init__`` (half the time: an explored tree can have a million nodes)."""
    node = Node.__new__(Node)
    set_kind, set_children, set_value, set_name, set_move = _SET
    set_probability, set_evaluation, set_state, set_facts = _SET2
    set_kind(node, kind)
    set_children(node, children)
    set_value(node, value)
    set_name(node, None)
    set_move(node, move)
    set_probability(node, probability)
    set_evaluation(node, evaluation)
    set_state(node, state)
    set_facts(node, None)
    return node
