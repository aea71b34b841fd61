"""DOT text of the textbook figures, compared with golden files (no Graphviz needed).

Rewrite the golden files with ``EXPECTVIZ_UPDATE_GOLDEN=1 pytest tests/test_render_dot.py`` and read the diff.
"""

from __future__ import annotations

import os
import pathlib

import pytest

import expectviz as ev
from expectviz.render.dot import frame_dot, tree_dot
from expectviz.render.style import dot_escape

GOLDEN = pathlib.Path(__file__).parent / "golden" / "render"
UPDATE = os.environ.get("EXPECTVIZ_UPDATE_GOLDEN") == "1"

CASES = [
    ("aima-fig-5.2", "minimax", (0, 9, 13, -1)),
    ("aima-fig-5.2", "alphabeta", (0, 9, 13, -1)),
    ("coin-flip", "expectiminimax", (0, 9, 13, -1)),
]


def _run(name: str, algorithm: str) -> ev.Result:
    result: ev.Result = ev.ALGORITHMS[algorithm](ev.textbook(name))  # type: ignore[operator]
    return result


def _check(text: str, filename: str) -> None:
    path = GOLDEN / filename
    if UPDATE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path}; run with EXPECTVIZ_UPDATE_GOLDEN=1 to write it"
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "algorithm", "steps"), CASES)
def test_frame_dot_golden(name: str, algorithm: str, steps: tuple[int, ...]) -> None:
    trace = _run(name, algorithm).trace
    assert trace is not None
    for step in steps:
        label = "final" if step == -1 else str(step)
        _check(frame_dot(trace, step), f"{name}.{algorithm}.{label}.dot")


def test_tree_dot_golden() -> None:
    _check(tree_dot(ev.textbook("aima-fig-5.2")), "aima-fig-5.2.tree.dot")


def test_frame_dot_is_deterministic() -> None:
    a = _run("aima-fig-5.2", "alphabeta").trace
    b = _run("aima-fig-5.2", "alphabeta").trace
    assert a is not None and b is not None
    assert frame_dot(a, 13) == frame_dot(b, 13)
    assert frame_dot(a, 13) == frame_dot(a, 13 - len(a) - 1)


def test_cutoff_marks_pruned_edges() -> None:
    trace = _run("aima-fig-5.2", "alphabeta").trace
    assert trace is not None
    text = frame_dot(trace, 13)
    pruned = [line for line in text.splitlines() if "\u2702" in line and "->" in line]
    assert [line.split("[")[1].split(",")[0] for line in pruned] == ['label="c2  \u2702"', 'label="c3  \u2702"']
    assert all("style=dashed" in line for line in pruned)
    assert "\u2702" not in frame_dot(trace, 12).split("legend")[0]


def test_minimax_has_no_windows() -> None:
    trace = _run("aima-fig-5.2", "minimax").trace
    assert trace is not None
    assert "\u03b1\u03b2 [" not in frame_dot(trace, 13, legend=False)
    alphabeta = _run("aima-fig-5.2", "alphabeta").trace
    assert alphabeta is not None
    assert "\u03b1\u03b2 [3, +\u221e]" in frame_dot(alphabeta, 13)


def test_star_annotations() -> None:
    r = ev.star1(ev.textbook("aima-star-exercise"), bounds=(-2, 2))
    assert r.trace is not None
    text = frame_dot(r.trace, -1)
    assert "L,U [" in text and "\u03b1\u1d62\u03b2\u1d62 [" in text
    r2 = ev.star2(ev.textbook("star2-beats-star1"), bounds=(-2, 2))
    assert r2.trace is not None
    assert any("probe " in frame_dot(r2.trace, k) for k in range(len(r2.trace) + 1))


def test_dot_escape() -> None:
    assert dot_escape('a"b\\n&amp;<x>') == '"a\\"b\\\\n&amp;amp;<x>"'
    assert dot_escape("one\ntwo") == '"one\\ntwo"'
    assert dot_escape("one\ntwo", newline="\\l") == '"one\\ltwo\\l"'


def test_hostile_labels_stay_inside_strings() -> None:
    tree = ev.parse('max "A</svg><script>x</script>"("m&\\"q": 1, "x<y": min "a\\\\b"(2, 3))')
    text = frame_dot(ev.alphabeta(tree).trace, -1)  # type: ignore[arg-type]
    for line in text.splitlines():
        # Every double quote in a line is either a delimiter or escaped: the count of unescaped ones is even.
        unescaped = line.replace("\\\\", "").replace('\\"', "").count('"')
        assert unescaped % 2 == 0, line
    assert 'm&amp;\\"q' in text  # the edge label: & as an entity, the quote escaped
    assert "a\\\\b" in text
