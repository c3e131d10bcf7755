"""SVG pictures (engine.svg) and `python -m engine show`, for every game."""

import xml.etree.ElementTree as ET

import pytest

import engine
from engine import svg
from engine.cli import main

NS = "{http://www.w3.org/2000/svg}"


def parse(picture: str) -> ET.Element:
    return ET.fromstring(picture)


def by_class(root: ET.Element, name: str) -> list:
    return [e for e in root.iter() if e.get("class") == name]


@pytest.mark.parametrize("variant", engine.variants())
def test_every_game_draws_its_start_position(variant):
    board = engine.Board(variant)
    root = parse(svg.board(board))
    assert root.tag == NS + "svg"
    assert root.find(NS + "desc").text == board.fen()           # the picture says what it shows
    spec = board.spec
    assert len(by_class(root, "square")) == spec.size * spec.size
    assert len(by_class(root, "piece")) == len(board.piece_map())
    assert len(by_class(root, "coordinate")) == 2 * spec.size


def test_draughts_numbers_kings_and_piece_numbers():
    board = engine.Board("international", "W:WK46,28:B3,K17")
    root = parse(svg.board(board))
    numbers = [e.text for e in by_class(root, "number")]
    assert sorted(map(int, numbers)) == list(range(1, 51))
    assert len(by_class(root, "crown")) == 2                     # the two kings
    chapinas = parse(svg.board(engine.Board("chapinas")))
    labels = [t.text for g in by_class(chapinas, "piece") for t in g.iter(NS + "text")]
    assert sorted(labels) == sorted([str(n) for n in range(20)] * 2)   # Chapinas' piece numbers
    assert by_class(parse(svg.board(engine.Board("turkish"))), "number") == []   # algebraic board


def test_square_positions_follow_the_geometry_and_flip():
    board = engine.Board("international")
    def square_at(picture, name):
        rect = by_class(parse(picture), "mark")[0]
        return float(rect.get("x")), float(rect.get("y"))
    x1, y1 = square_at(svg.board(board, squares=["46"]), "46")       # a1: bottom left
    x50, y50 = square_at(svg.board(board, squares=["5"]), "5")       # j10: top right
    assert x1 < x50 and y1 > y50
    fx, fy = square_at(svg.board(board, squares=["46"], flipped=True), "46")
    assert fx > x1 and fy < y1


def test_lastmove_arrows_and_marks():
    board = engine.Board("international")
    move = board.parse_move("32-28")
    board.push(move)
    root = parse(svg.board(board, lastmove=move, arrows=[("19", "23")], squares=["1"]))
    assert len(by_class(root, "lastmove")) == 2
    assert len(by_class(root, "arrow")) == 1 and len(by_class(root, "mark")) == 1
    capture = engine.Board("international", "W:W28:B23,13")
    move = capture.legal_moves()[0]
    assert str(move) == "28x8"
    assert svg.board(capture, lastmove=move).count('class="lastmove"') == 2
    assert svg.board(capture, lastmove="28x19x8").count('class="lastmove"') == 3   # the path
    chess = engine.Board("superajedrez")
    assert svg.board(chess, lastmove="Q@d1").count('class="lastmove"') == 1
    assert svg.board(chess, lastmove="e1e2").count('class="lastmove"') == 2


def test_superajedrez_reserves_and_protected_squares():
    board = engine.Board("superajedrez")
    root = parse(svg.board(board))
    assert len(by_class(root, "protected")) == 30               # 15 reserved squares a side
    reserve = "".join(e.text or "" for e in by_class(root, "reserve"))
    assert "White reserve" in reserve and "Black reserve" in reserve
    board.push(board.parse_move("P@e4"))
    root = parse(svg.board(board))
    counts = [t.text for t in root.iter(NS + "text") if t.text and t.text.startswith("\u00d7")]
    assert counts == ["\u00d7 1", "\u00d7 2", "\u00d7 2", "\u00d7 2", "\u00d7 8",     # Black's
                      "\u00d7 1", "\u00d7 2", "\u00d7 2", "\u00d7 2", "\u00d7 7"]     # White's
    assert len(by_class(root, "piece")) == 3


def test_dipole_heights_and_superdimensiones_status():
    root = parse(svg.board(engine.Board("dipole")))
    heights = sorted(t.text for g in by_class(root, "piece") for t in g.iter(NS + "text"))
    assert heights == ["12", "12"]
    sd = engine.Board("superdimensiones")
    root = parse(svg.board(sd))
    status = " ".join(e.text for e in by_class(root, "status"))
    assert "team a to move" in status and "cards MCAWR" in status and "sub-game A open" in status
    assert len(by_class(root, "turn")) == 1


def test_bad_requests_raise_and_draw_nothing():
    board = engine.Board("international")
    with pytest.raises(ValueError, match="'51' is not a square of international"):
        svg.board(board, arrows=[("1", "51")])
    with pytest.raises(ValueError, match="size"):
        svg.board(board, size=0)


def test_repr_svg_and_size():
    board = engine.Board("checkers")
    assert board._repr_svg_() == svg.board(board)
    assert 'width="200"' in svg.board(board, size=200)


def test_show_command(tmp_path, capsys):
    out = tmp_path / "b.svg"
    assert main(["show", "--variant", "spanish", "--moves", "12-16", "--svg", str(out),
                 "--arrow", "21-17"]) == 0
    root = parse(out.read_text())
    assert len(by_class(root, "lastmove")) == 2 and len(by_class(root, "arrow")) == 1
    assert main(["show", "--variant", "turkish"]) == 0
    assert "white to move" in capsys.readouterr().out
    png = tmp_path / "b.png"
    assert main(["show", "--variant", "dipole", "--png", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["show", "--arrow", "1-99"]) == 2
    assert "'99' is not a square" in capsys.readouterr().err


@pytest.mark.parametrize("variant", engine.variants())
def test_random_positions_draw_as_valid_svg(variant):
    import random
    rng = random.Random(variant)
    board = engine.Board(variant)
    for _ in range(60):
        if board.is_game_over():
            break
        move = rng.choice(board.legal_moves())
        board.push(move)
        root = parse(svg.board(board, lastmove=move, flipped=bool(rng.getrandbits(1))))
        assert len(by_class(root, "piece")) == len(board.piece_map())
        highlighted = len(by_class(root, "lastmove"))
        if str(move) == "pass":                                      # Dipole: no square
            assert highlighted == 0
        else:
            assert 1 <= highlighted <= 12
