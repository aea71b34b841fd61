"""Handouts and exams: the sheet hides what the key shows, PDFs rendered back to pictures, seeded exams, the CLI."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import expectviz as ev
from expectviz.cli import main
from expectviz.errors import OptionError, RenderError
from expectviz.handout import (
    KINDS,
    exam,
    exam_pages,
    handout,
    page_files,
    question,
    write_exam,
    write_handout,
    write_pages,
)
from expectviz.render.raster import svg_to_png, svgs_to_pdf
from expectviz.tree import LEAF, nodes

pytest.importorskip("cairosvg")
pytestmark = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot lays the trees out")

POPPLER = shutil.which("pdftoppm") is not None and shutil.which("pdftotext") is not None
needs_poppler = pytest.mark.skipif(not POPPLER, reason="poppler-utils (pdftoppm, pdftotext) renders PDFs back")

CHANCE_TREE = "max(chance(1, 6), chance(2, 7))"
"""Chance values 3.5 and 4.5, root 4.5: answers that are no leaf's value, so the sheet must not show them."""


def text_of(svg: str) -> str:
    """The words of an SVG page: its text elements' content, without tags (tooltips included)."""
    return re.sub(r"<[^>]+>", " ", svg)


def pdf_pages(data: bytes) -> int:
    """The page count a PDF's page tree declares."""
    counts = [int(n) for n in re.findall(rb"/Count (\d+)", data)]
    assert counts, "no page tree"
    return max(counts)


def rendered(pdf: Path, tmp_path: Path) -> list[Path]:
    """The PDF's pages as PNG files, drawn by poppler (not by cairo, which wrote it)."""
    subprocess.run(["pdftoppm", "-r", "60", "-png", str(pdf), str(tmp_path / "page")], check=True)
    return sorted(tmp_path.glob("page-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))


def pdf_text(pdf: Path, page: int) -> str:
    out = subprocess.run(
        ["pdftotext", "-f", str(page), "-l", str(page), "-layout", str(pdf), "-"],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout


def ink(png: Path) -> tuple[int, int]:
    """(pixels not white, blue pixels) of a page: blue is a finished node, drawn only on keys."""
    from PIL import Image

    image = Image.open(png).convert("RGB")
    dark = blue = 0
    for (r, g, b), count in ((colour, n) for n, colour in image.getcolors(image.width * image.height)):
        if (r, g, b) != (255, 255, 255):
            dark += count
        if b > 180 and r < 150 and b - r > 80:
            blue += count
    return dark, blue


# ---------------------------------------------------------------- the key's answers


def test_fig_5_2_alphabeta_key() -> None:
    q = question("aima-fig-5.2", algorithm="alphabeta")
    assert q.answers == (
        "Value of the root: 3, by move a1.",
        "Values: A 3, B 3, C ≤ 2, D 2.",
        "Pruned leaves (never evaluated): c2 = 4, c3 = 6; alpha-beta evaluates 7 of the 9 leaves.",
        "Windows [α, β] the nodes are searched with: A [−∞, +∞], B [−∞, +∞], C [3, +∞], D [3, +∞].",
    )
    assert q.blanks == ("Value of the root", "MAX's move at the root", "Leaves never evaluated")


def test_star1_key_names_the_first_chance_cutoff_and_its_alpha_i() -> None:
    q = question("aima-star-exercise", algorithm="star1")  # the textbook tree brings its bounds [-2, 2]
    assert q.bounds == (-2, 2)
    assert "Values: A 1.5, B 1.5, C ≤ 1, D 2, E 1, F ≤ 0, G pruned." in q.answers
    assert "Pruned leaves (never evaluated): f2 = 2, g1 = -1, g2 = 0; Star1 evaluates 5 of the 8 leaves." in q.answers
    first = next(line for line in q.answers if line.startswith("The first cutoff"))
    assert first.startswith("The first cutoff at a chance node is at C, after F (step 27):")
    assert "F was searched with (αᵢ, βᵢ) = (1, +∞)." in q.answers


def test_an_unnamed_tree_is_named_like_the_textbook() -> None:
    q = question("max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))", algorithm="alphabeta")
    assert [n.name for n in nodes(q.tree) if n.kind != LEAF] == ["A", "B", "C", "D"]
    assert q.answers == question("aima-fig-5.2", algorithm="alphabeta").answers


def test_depth_limited_handout_gives_the_evaluations_and_asks_above_the_line() -> None:
    tree = "max(min [4] (max [5] (3, 6), max [4] (2, 1)), min [2] (max [7] (8, 1), max [1] (0, 9)))"
    q = question(tree, algorithm="minimax", depth=2)
    assert q.sheet.count('data-answer="1"') == 3  # A, B and C; the nodes on the line show their evaluations
    assert all(f">[{v}]<" in q.sheet for v in (5, 4, 7, 1)) and ">[2]<" not in q.sheet  # C's own [2] is above it
    assert q.answers[0] == "Value of the root: 4, by move a1."
    assert "data-horizon" in q.sheet and "data-horizon" in q.key


def test_the_sheet_hides_what_the_key_shows() -> None:
    q = question(CHANCE_TREE)
    assert q.algorithm == "expectiminimax"
    assert q.sheet.count('data-answer="1"') == 3 and 'data-answer="1"' not in q.key
    sheet, key = handout(CHANCE_TREE)
    for value in ("3.5", "4.5"):
        assert value in text_of(key)
        assert value not in text_of(sheet)
    assert "Value of the root" in text_of(sheet)  # the line to write it on


def test_blank_boxes_leave_other_drawings_alone() -> None:
    from expectviz.render.diagram import renderer_for
    from expectviz.render.scene import ItemPaint

    r = ev.alphabeta(ev.textbook("aima-fig-5.2"))
    renderer = renderer_for(r)
    paint = renderer.paint(None)
    assert 'data-answer="1"' not in renderer.drawer.svg(paint)
    blank = [ItemPaint(look.status, value=look.value, edge=look.edge, blank=True) for look in paint.items]
    paint.items = blank
    drawn = renderer.drawer.svg(paint)
    assert drawn.count('data-answer="1"') == len(paint.items)  # one box each, and no value beside it
    assert 'font-size="13" fill="#000000">3<' not in drawn


# ---------------------------------------------------------------- files


def test_handout_pdf_has_the_sheet_then_the_key(tmp_path: Path) -> None:
    pdf = tmp_path / "sheet.pdf"
    assert write_handout(CHANCE_TREE, pdf) == [str(pdf)]
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and pdf_pages(data) == 2
    assert re.findall(rb"/MediaBox \[ ?0 0 (\d+) (\d+) ?\]", data) == [(b"595", b"842")] * 2  # A4


@needs_poppler
def test_handout_pdf_rendered_back(tmp_path: Path) -> None:
    pdf = tmp_path / "sheet.pdf"
    write_handout(CHANCE_TREE, pdf, title="two coins")
    pages = rendered(pdf, tmp_path)
    assert len(pages) == 2
    (sheet_ink, sheet_blue), (key_ink, key_blue) = ink(pages[0]), ink(pages[1])
    assert sheet_ink > 2000 and key_ink > 2000  # a drawn tree on each
    assert sheet_blue == 0 and key_blue > 200  # finished nodes are blue on the key only
    sheet, key = pdf_text(pdf, 1), pdf_text(pdf, 2)
    assert "Expectiminimax on two coins" in sheet and "Answer key" in key
    assert "4.5" in key and "3.5" in key
    assert "4.5" not in sheet and "3.5" not in sheet


def test_handout_svg_and_png_are_two_files(tmp_path: Path) -> None:
    written = write_handout("aima-fig-5.2", tmp_path / "fig.svg")
    assert written == [str(tmp_path / "fig.svg"), str(tmp_path / "fig-key.svg")]
    sheet, key = (Path(name).read_text(encoding="utf-8") for name in written)
    assert 'data-answer="1"' in sheet and "c2 = 4, c3 = 6" in key
    written = write_handout("aima-fig-5.2", tmp_path / "fig.png")
    for name in written:
        data = Path(name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(data[16:20], "big") == 1587  # A4 at the PNG scale of 2 (595 pt = 793 px)


def test_output_names_and_refusals(tmp_path: Path) -> None:
    assert page_files("a/sheet.svg", 2, handout=True) == ["a/sheet.svg", "a/sheet-key.svg"]
    assert page_files("exam.PNG", 2) == ["exam-1.PNG", "exam-2.PNG"]
    with pytest.raises(RenderError, match=r"'\.txt'; use \.pdf, \.svg or \.png"):
        write_handout("aima-fig-5.2", tmp_path / "sheet.txt")
    assert not list(tmp_path.iterdir())
    with pytest.raises(RenderError, match="at least one page"):
        svgs_to_pdf([])
    with pytest.raises(RenderError, match="a handout draws every node"):
        question(ev.random_trees.uniform_tree(3, 5, seed=1))


def test_pdf_pages_keep_their_own_sizes() -> None:
    small = '<svg xmlns="http://www.w3.org/2000/svg" width="100pt" height="50pt" viewBox="0 0 100 50"/>'
    wide = '<svg xmlns="http://www.w3.org/2000/svg" width="300pt" height="80pt" viewBox="0 0 300 80"/>'
    data = svgs_to_pdf([small, wide, small])
    assert pdf_pages(data) == 3
    assert re.findall(rb"/MediaBox \[ ?0 0 (\d+) (\d+) ?\]", data) == [
        (b"100", b"50"),
        (b"300", b"80"),
        (b"100", b"50"),
    ]


# ---------------------------------------------------------------- exams


def test_exam_is_the_same_for_a_seed() -> None:
    first, again, other = exam(11, 5), exam(11, 5), exam(12, 5)
    assert [q.kind for q in first] == list(KINDS)
    assert [(q.sheet, q.key, q.answers) for q in first] == [(q.sheet, q.key, q.answers) for q in again]
    assert exam_pages(first) == exam_pages(again)
    assert [q.tree for q in first] != [q.tree for q in other]
    assert [q.kind for q in exam(11, 7)] == [*KINDS, "minimax", "alphabeta"]
    assert [q.kind for q in exam(11, 3, kinds=["star1"])] == ["star1"] * 3


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_exam_answers_are_right(seed: int) -> None:
    for q in exam(seed, 5):
        tree, root = q.tree, q.result
        search = ev.ALGORITHMS[q.algorithm]
        again = search(tree, depth=q.depth, **({"bounds": q.bounds} if q.bounds else {}))
        assert again.exact_value == root.exact_value
        value_line = next(line for line in q.answers if line.startswith("Value of the root"))
        assert f": {_said(root.exact_value)}, by move {root.best_move}." in value_line
        assert q.sheet.count('data-answer="1"') > 0
        leaves = sum(1 for n in nodes(tree) if n.kind == LEAF)
        if q.kind == "alphabeta":
            assert root.stats.leaves_evaluated < leaves  # the question asks about pruning: there is some
            pruned = next(line for line in q.answers if line.startswith("Pruned leaves"))
            assert pruned.count(" = ") == leaves - root.stats.leaves_evaluated
            assert root.exact_value == ev.minimax(tree).exact_value
        if q.kind == "star1":
            assert q.bounds == (0, 20)
            assert any(line.startswith("The first cutoff at a chance node is at ") for line in q.answers)
            assert any("(αᵢ, βᵢ) = (" in line for line in q.answers)
            assert root.exact_value == ev.expectiminimax(tree).exact_value
        if q.kind == "depth":
            assert q.depth == 2
            evaluated = [n for n in nodes(tree) if n.evaluation is not None]
            assert len(evaluated) == 6 and all(n.kind == "max" for n in evaluated)
            full = ev.minimax(tree)
            assert f"finds the value {_said(full.exact_value)} and the move {full.best_move}" in q.answers[-1]


def _said(x: object) -> str:
    from expectviz.explain import say

    return say(x)  # type: ignore[arg-type]


def test_exam_refuses_bad_requests() -> None:
    with pytest.raises(OptionError, match="from 1 to 100"):
        exam(1, 0)
    with pytest.raises(OptionError, match="unknown kind of question 'chess'"):
        exam(1, 2, kinds=["chess"])
    with pytest.raises(OptionError, match="whole number or a text"):
        exam(None, 2)  # type: ignore[arg-type]


@needs_poppler
def test_exam_pdf_rendered_back(tmp_path: Path) -> None:
    pdf = tmp_path / "exam.pdf"
    assert write_exam(5, 5, pdf) == [str(pdf)]
    expected = len(exam_pages(exam(5, 5), title="Exam (seed 5)"))
    assert pdf_pages(pdf.read_bytes()) == expected
    pages = rendered(pdf, tmp_path)
    assert len(pages) == expected
    looks = [ink(page) for page in pages]
    assert all(dark > 2000 for dark, _ in looks)
    first_key = next(k for k in range(1, expected + 1) if "answer key" in pdf_text(pdf, k))
    assert first_key > 1
    assert all(blue == 0 for _, blue in looks[: first_key - 1])  # questions: no finished (blue) node
    assert all(blue > 100 for _, blue in looks[first_key - 1 :])  # the key: solved trees
    assert "Question 5. A depth-limited value" in "".join(pdf_text(pdf, k) for k in range(1, first_key))


def test_exam_png_pages(tmp_path: Path) -> None:
    pages = exam_pages(exam(2, 1))
    written = write_pages(pages, tmp_path / "exam.png")
    assert written == [str(tmp_path / f"exam-{k}.png") for k in range(1, len(pages) + 1)]
    assert Path(written[0]).read_bytes() == svg_to_png(pages[0])


# ---------------------------------------------------------------- the command line


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_handout_and_exam(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdf = tmp_path / "sheet.pdf"
    status, out, err = run(capsys, "handout", "aima-fig-5.2", "--algorithm", "alphabeta", "-o", str(pdf))
    assert (status, err) == (0, "")
    assert out == f"wrote {pdf} (page 1: the sheet, page 2: the key)\n"
    assert pdf_pages(pdf.read_bytes()) == 2
    status, out, err = run(capsys, "handout", "aima-star-exercise", "-a", "star1", "-o", str(tmp_path / "s.svg"))
    assert status == 0 and out.endswith("s.svg (the sheet) and " + str(tmp_path / "s-key.svg") + " (the key)\n")
    assert "F was searched with (αᵢ, βᵢ) = (1, +∞)." in (tmp_path / "s-key.svg").read_text(encoding="utf-8")
    tree_file = tmp_path / "two-coins.txt"
    tree_file.write_text(CHANCE_TREE, encoding="utf-8")
    status, out, _ = run(capsys, "handout", str(tree_file), "--depth", "2", "-o", str(tmp_path / "t.svg"))
    assert status == 0 and "Expectiminimax to depth 2 on two-coins.txt" in (tmp_path / "t.svg").read_text("utf-8")
    status, out, err = run(capsys, "exam", "--seed", "3", "--count", "2", "-o", str(tmp_path / "exam.pdf"))
    assert (status, err) == (0, "")
    assert re.fullmatch(
        r"wrote \S+exam\.pdf: 2 questions \(minimax, alphabeta\) on \d+ pages, the answer key last\n", out
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["handout", "tictactoe"], "'tictactoe' is a game"),
        (["handout", "max(1,"], "line 1, column 7"),
        (["handout", "coin-flip", "-a", "star1"], "star1 needs --bounds L U"),
        (["handout", "coin-flip", "-a", "alphabeta"], "alphabeta has no rule for chance nodes"),
        (["handout", "nosuchtree"], "is neither tree text, a file, a textbook tree"),
        (["handout", "aima-fig-5.2", "--depth", "-1"], "argument --depth: must be 0 or more"),
        (["exam", "--seed", "1", "--count", "0"], "argument --count: must be from 1 to 100, not 0"),
        (["exam", "--seed", "x"], "argument --seed: invalid int value: 'x'"),
        (["exam", "--count", "2"], "the following arguments are required: --seed"),
        (["exam", "--seed", "1", "--kinds", "minimax,chess"], "'chess' is not a kind of question"),
    ],
)
def test_cli_bad_input_is_one_line_and_status_2(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, *args, "-o", str(tmp_path / "out.pdf"))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("expectviz: error: ") and message in err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("command", [["handout", "aima-fig-5.2"], ["exam", "--seed", "1"]])
def test_cli_bad_output_extension(command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, *command, "-o", str(tmp_path / "out.docx"))
    assert status == 2 and err == (
        "expectviz: error: cannot write a handout or exam as '.docx'; use .pdf, .svg or .png\n"
    )
