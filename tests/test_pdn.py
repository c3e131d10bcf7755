"""Reading game files (engine.pdn): what the match runner writes, and the usual PDN/PGN forms."""

import random
import re
from pathlib import Path

import pytest

import engine
from engine import pdn
from engine.match import GameRecord
from engine.match import pdn as write_pdn


@pytest.mark.parametrize("variant", engine.variants())
def test_reads_back_what_the_match_runner_writes(variant):
    rng = random.Random(variant)
    board = engine.Board(variant)
    moves = []
    while len(moves) < 40 and not board.is_game_over():
        move = rng.choice(board.legal_moves())
        moves.append(move)
        board.push(move)
    text = write_pdn(GameRecord(7, "one", "two", engine.Board(variant).fen(), moves, "0-1", "t"),
                     variant, "test")
    game = pdn.read_game(text)
    assert game.errors == [] and game.variant == variant
    assert [str(m) for m in game.moves()] == [str(m) for m in moves]
    assert game.end().fen() == board.fen()
    assert game.headers["White"] == "one" and game.headers["Round"] == "7"
    assert game.result == ("0-2" if engine.games.game(variant).fmjd_results else "0-1")


def test_one_writer_numbers_a_turn_once_when_a_player_moves_twice():
    """Super Dimensiones: the huff choice is the opponent's ply, so after it the same player
    moves again. Numbers go before each turn of the first player that follows the other's, in
    the match's records and in write_game alike (they are one writer)."""
    fen = "d5/6/3c2/2a1a1/6/ab4 a MCUWR"                 # c3 and e3 can both take d4
    board = engine.Board("superdimensiones", fen)
    moves = [board.push(m) for m in ("a1-b2", "huff-e3")]
    moves.append(board.push("d4-e3"))                   # the same player again
    moves.append(board.push(board.legal_moves()[0]))
    text = write_pdn(GameRecord(1, "one", "two", fen, moves, "*", "t"), "superdimensiones", "e")
    body = text.split("\n\n")[1].strip()
    assert body == f"1. a1-b2 huff-e3 d4-e3 2. {moves[-1]} *"
    game = pdn.read_game(text)
    assert game.errors == [] and [str(m) for m in game.moves()] == [str(m) for m in moves]
    assert pdn.write_game(game).split("\n\n")[1] == body


def test_comments_variations_marks_and_several_games(tmp_path):
    text = """[Event "club"]
[GameType "20"]
{before the game} 1. 32-28! {the classical start} 19-23 (17-22 $1 2. 28x17 11x22) 2. 28x19
14x23?? ; a line comment
2-0

[Event "second"]
[Variant "checkers"]
[FEN "B:W21,22:B9,10"]
1... 9-14 2. 22-18 14x23 *
"""
    path = tmp_path / "games.pdn"
    path.write_text(text)
    games = pdn.read_games(path)
    assert [g.headers["Event"] for g in games] == ["club", "second"]
    first, second = games
    assert first.variant == "international" and first.result == "2-0" and first.comment == "before the game"
    nodes = first.mainline
    assert [str(n.move) for n in nodes] == ["32-28", "19-23", "28x19", "14x23"]
    assert nodes[0].comment == "the classical start" and nodes[0].nags == [1]
    assert nodes[3].nags == [4] and nodes[3].comment == "a line comment"
    (variation,) = nodes[1].variations                   # instead of 19-23
    assert [str(n.move) for n in variation] == ["17-22", "28x17", "11x22"]
    assert variation[0].nags == [1]
    assert second.variant == "checkers" and second.start_fen == "B:W21,22:B9,10"
    assert [str(m) for m in second.moves()] == ["9-14", "22-18", "14x23"]
    assert second.line == 7


def test_game_types_and_move_forms():
    game = pdn.read_game('[GameType "24"]\n1. 12-16 21-17 *')
    assert game.variant == "spanish"
    game = pdn.read_game('[GameType "21"]\n1. 11-15 23-19 *')
    assert game.variant == "checkers"
    full_path = pdn.read_game('[FEN "W:W28:B23,13"]\n1. 28x19x8 *', "international")
    assert [str(m) for m in full_path.moves()] == ["28x8"]
    assert pdn.read_game("1.32-28 19-23 *", "international").errors == []   # no space after the number


def test_superajedrez_spanish_and_english_letters():
    spanish = pdn.read_game('[Variant "superajedrez"]\n1. 0-Cf3 0-Cf6 2. 0-e4 0-d5 3. exd5 Cxd5 *')
    assert spanish.errors == []
    english = pdn.read_game('[Variant "superajedrez"]\n1. N@f3 N@f6 2. P@e4 P@d5 3. exd5 Nxd5 *')
    assert english.errors == []
    assert [str(m) for m in english.moves()] == [str(m) for m in spanish.moves()]
    assert english.end().fen() == spanish.end().fen()


def test_errors_name_the_line_and_keep_the_moves_read():
    text = '[Variant "international"]\n1. 32-28 19-23\n2. 28-22 *'
    game = pdn.read_game(text)
    assert [str(m) for m in game.moves()] == ["32-28", "19-23"]
    assert len(game.errors) == 1 and game.errors[0].startswith("line 3, column 4:")
    assert "28-22" in game.errors[0]
    with pytest.raises(pdn.PdnError, match="line 3, column 4:"):
        pdn.read_game(text, strict=True)
    with pytest.raises(pdn.PdnError, match="unknown Variant 'shogi'"):
        pdn.read_game('[Variant "shogi"]\n*')
    with pytest.raises(pdn.PdnError, match="GameType '28'"):
        pdn.read_game('[GameType "28"]\n1. c3-d4 *')
    assert "FEN tag" in pdn.read_game('[FEN "W:W99"]\n*', "international").errors[0]
    with pytest.raises(pdn.PdnError, match="FEN tag"):
        pdn.read_game('[FEN "W:W99"]\n*', "international", strict=True)
    assert "without '('" in pdn.read_game("1. 32-28 ) *", "international").errors[0]
    assert "inside a variation" in pdn.read_game("1. 32-28 (33-29", "international").errors[0]
    assert "never closes" in pdn.read_game("1. 32-28 {oops", "international").errors[0]
    with pytest.raises(pdn.PdnError, match="no game"):
        pdn.read_game("")
    with pytest.raises(pdn.PdnError, match="missing.pdn: No such file"):
        pdn.read_games(Path("missing.pdn"))
    # A string is the text of a game file, never a file's name: nothing is opened.
    named = pdn.read_games("missing.pdn", "international")
    assert len(named) == 1 and named[0].moves() == [] and "missing.pdn" in named[0].errors[0]
    with pytest.raises(pdn.PdnError, match="embedded null byte"):
        pdn.read_games(Path("bad\0name.pdn"))
    with pytest.raises(ValueError, match="language"):
        pdn.read_games("*", "international", language="fr")


@pytest.mark.parametrize("variant", engine.variants())
def test_read_write_read_gives_the_same_game(variant):
    rng = random.Random(variant + "w")
    board = engine.Board(variant)
    text_moves = []
    while len(text_moves) < 24 and not board.is_game_over():
        move = rng.choice(board.legal_moves())
        text_moves.append(str(move))
        board.push(move)
    first_move = engine.Board(variant).parse_move(text_moves[0])
    record = write_pdn(GameRecord(1, "a", "b", engine.Board(variant).fen(), [first_move], "*", "t"),
                       variant, "e")
    game = pdn.read_game(record)
    # Add the rest of the moves, a comment, a mark and a variation, then write and read again.
    replay = engine.Board(variant)
    replay.push(game.mainline[0].move)
    for text in text_moves[1:]:
        move = replay.parse_move(text)
        game.mainline.append(pdn.Node(move))
        replay.push(move)
    game.mainline[1].comment = "a comment {with braces}"
    game.mainline[1].nags = [2, 14]
    alternative = engine.Board(variant)
    alternative.push(game.mainline[0].move)
    game.mainline[1].variations.append([pdn.Node(alternative.legal_moves()[-1], comment="instead")])
    again = pdn.read_game(pdn.write_game(game))
    assert again.errors == []
    assert [str(m) for m in again.moves()] == text_moves
    # "}" would end the comment: it is written as ")".
    assert again.mainline[1].comment == "a comment {with braces)" and again.mainline[1].nags == [2, 14]
    (variation,) = again.mainline[1].variations
    assert [str(n.move) for n in variation] == [str(alternative.legal_moves()[-1])]
    assert again.headers["White"] == "a" and again.end().fen() == board.fen()


BLUNDER_START = "W:W30,31,35,36,37,38,39,40,41,42,44,45,46,48,49,50:B1,2,4,5,6,7,9,10,12,13,15,16,17,19,22,23,29"


def test_annotate_finds_a_planted_blunder(tmp_path, capsys):
    from engine.cli import main
    games = tmp_path / "games.pdn"
    games.write_text(f'[White "careless"]\n[FEN "{BLUNDER_START}"]\n1. 38-33 *\n\n'
                     f'[White "careful"]\n[FEN "{BLUNDER_START}"]\n1. 39-33 *\n')
    out, html = tmp_path / "annotated.pdn", tmp_path / "report.html"
    assert main(["annotate", str(games), "--movetime", "0.3", "--out", str(out),
                 "--html", str(html)]) == 0
    said = capsys.readouterr().err.splitlines()
    assert said[0] == "game 1: 1 move, 1 blunder, 0 mistakes, 0 inaccuracies", said
    careless, careful = pdn.read_games(out)
    assert careless.mainline[0].nags == [4]                       # ?? a blunder
    assert "best" in careless.mainline[0].comment
    (engine_line,) = careless.mainline[0].variations             # the engine's move instead
    assert str(engine_line[0].move) != "38-33"
    assert 4 not in careful.mainline[0].nags
    page = html.read_text()
    assert page.count('class="score-graph"') == 2 and "38-33??" in page and "blunder" in page
    assert main(["annotate", str(tmp_path / "none.pdn")]) == 2


# -- published game files ------------------------------------------------------------------------
# tests/published/ holds a few games from public PDN collections, as they were published (see the
# comment before each game): tournament games of International, Czech, Russian and Italian
# draughts and of English checkers, and problems set up by FEN.

PUBLISHED = Path(__file__).parent / "published"


@pytest.mark.parametrize("variant, games", [
    ("international", 5), ("checkers", 5), ("czech", 2), ("russian", 1), ("italian", 2)])
def test_published_games_read_without_error(variant, games):
    read = pdn.read_games(PUBLISHED / f"{variant}.pdn", variant)
    clean = [g for g in read if not g.errors]
    defects = [g for g in read if g.errors]
    assert len(read) == games
    # The one defect is in the file: a remark typed into the move text without braces.
    assert [g.headers["Event"] for g in defects] == (["Petal 1987, game 15"] if variant == "checkers" else [])
    for game in clean:
        if "PlyCount" in game.headers:
            assert len(game.moves()) == int(game.headers["PlyCount"])
        assert game.result == game.headers.get("Result", game.headers.get("Risultato"))
        again = pdn.read_game(pdn.write_game(game), variant)
        assert [str(m) for m in again.moves()] == [str(m) for m in game.moves()]
        assert again.end().fen() == game.end().fen()


def test_published_move_forms_are_read_as_meant():
    tinsley = pdn.read_games(PUBLISHED / "checkers.pdn", "checkers")
    # "4. 10x14 19x10 5. 14x23": the first is a plain move written with 'x'.
    assert [str(m) for m in tinsley[0].moves()[6:10]] == ["10-14", "19x10", "14x23", "26x19"]
    assert str(tinsley[0].moves()[-1]) == "24x6"                      # written 24x15x6
    defect = tinsley[4]
    assert len(defect.moves()) == 30 and defect.errors[0].startswith("line 57, column 70:")
    dutch = pdn.read_games(PUBLISHED / "international.pdn", "international")[2]
    assert [str(m) for m in dutch.moves()[30:34]] == ["39-34", "10-15", "43-39", "1-6"]   # "1- 6"
    czech = pdn.read_games(PUBLISHED / "czech.pdn", "czech")[0]
    assert [str(m) for m in czech.moves()[:3]] == ["21-17", "9-14", "25-21"]  # a3-b4 b6-c5 b2-a3
    russian = pdn.read_game(PUBLISHED / "russian.pdn", "russian")
    assert [str(m) for m in russian.moves()[10:12]] == ["18x9", "13x6"]  # d4:b6 a5:c7
    problem = pdn.read_games(PUBLISHED / "international.pdn", "international")[4]
    assert problem.start_fen == "W:W10,16,19,28,31,33,46:B7,8,12,17,26,37,42"   # FEN ending in '.'


def test_the_rules_of_a_published_game_matter():
    """The second Czech championship game is not a legal game of Russian draughts: the reader
    checks every move against the rules of the variant it is given."""
    as_russian = pdn.read_games(PUBLISHED / "czech.pdn", "russian")
    assert as_russian[0].errors == [] and len(as_russian[1].errors) == 1
    assert "'h6xf4' (12-19)" in as_russian[1].errors[0]


def test_tolerant_reading_of_common_file_habits():
    text = ("% written by some program\n"
            '[GameType "20"]\n1. 32-28!? 19-23(!?) 2. 28x19 14x23 3. ... *\n\n'
            '[GameType "20"]\n[FEN "W:W31-50:B1-20."]\n1. 32-28 *\n\n'
            '[GameType "20"]\n[FEN "?:W29,13,11:B22,4,2"]\n*\n\n'
            '[GameType "20"]\n1. 31-27 *\n')
    first, ranges, bad_fen, last = pdn.read_games(text)
    assert first.errors == [] and [str(m) for m in first.moves()] == ["32-28", "19-23", "28x19", "14x23"]
    assert first.mainline[0].nags == [5] and first.mainline[1].nags == [5]
    assert ranges.errors == [] and ranges.board().fen() == engine.Board("international").fen()
    # A bad FEN spoils its own game only; the next game still reads.
    assert bad_fen.errors and "line 9: the FEN tag" in bad_fen.errors[0] and bad_fen.moves() == []
    with pytest.raises(engine.EngineError):
        bad_fen.board()
    assert last.errors == [] and [str(m) for m in last.moves()] == ["31-27"]
    with pytest.raises(pdn.PdnError, match="line 9: the FEN tag"):
        pdn.read_games(text, strict=True)


# -- hostile files ---------------------------------------------------------------------------------

def test_reading_is_linear_in_time_and_bounded_in_depth():
    """Files found by fuzzing to take quadratic time or gigabytes: each reads in about a second
    here (the bound below is generous for a loaded machine; the old reader took minutes or
    ran out of memory)."""
    import time
    cases = [("1. 32-28 (" + "* " * 40_000, "the result * inside a variation"),
             ("1. 32-28 " + "(32-28 " * 40_000 + ")" * 40_000, "nested deeper than 100"),
             ("1. 32-28 " + "{x} " * 100_000 + "*", None),
             ("1. 32-28 " + "(33-29) " * 40_000 + "*", None)]
    for text, error in cases:
        started = time.monotonic()
        game = pdn.read_game(text, "international")
        assert time.monotonic() - started < 60
        assert [str(m) for m in game.moves()] == ["32-28"]
        if error:
            assert len(game.errors) == 1 and error in game.errors[0]
            with pytest.raises(pdn.PdnError, match=re.escape(error)):
                pdn.read_game(text, "international", strict=True)
        else:
            assert game.errors == []
    assert len(pdn.read_game(cases[3][0], "international").mainline[0].variations) == 40_000
    assert pdn.read_game(cases[2][0], "international").mainline[0].comment == " ".join(["x"] * 100_000)


def test_deep_variations_read_and_write_up_to_the_limit():
    def nested(depth):
        return "1. 32-28 " + "(33-29 " * depth + ")" * depth + " *"
    game = pdn.read_game(nested(pdn.MAX_NESTING), "international", strict=True)
    again = pdn.read_game(pdn.write_game(game), strict=True)
    assert pdn.write_game(again) == pdn.write_game(game)
    with pytest.raises(pdn.PdnError, match="nested deeper than 100"):
        pdn.read_game(nested(pdn.MAX_NESTING + 1), "international", strict=True)
    # A game made in Python with deeper variations is refused by the writer, not a RecursionError.
    board = engine.Board("international")
    move = board.parse_move("32-28")
    root = pdn.Node(move)
    node = root
    for _ in range(10_000):
        deeper = pdn.Node(move)
        node.variations.append([deeper])
        node = deeper
    made = pdn.Game({}, "international", board.fen(), [root])
    with pytest.raises(pdn.PdnError, match="nested deeper than 100"):
        pdn.write_game(made)


def test_only_text_paths_and_files_are_sources():
    import io
    with pytest.raises(TypeError, match="not int"):
        pdn.read_games(3)
    assert [str(m) for m in pdn.read_game(io.StringIO("1. 32-28 *"), "international").moves()] == ["32-28"]
    assert [str(m) for m in pdn.read_game(io.BytesIO(b"1. 32-28 *"), "international").moves()] == ["32-28"]
