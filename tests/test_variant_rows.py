"""The variants that other engines play, each a row of the same rules table: one hand-checked
position per rule that tells a variant from its nearest neighbour, the end rules of
antidraughts and breakthrough, and the names other programs use for them. Perft from the start
is in test_perft.py; the reference generator agrees on random positions in test_reference.py.

8x8 squares are numbered as in English checkers: 1 = b8 ... 4 = h8, 5 = a7 ... 32 = g1."""

import pytest

import engine
from engine import pdn
from engine.hub import HUB_VARIANTS
from engine.types import Termination

NEW = ["brazilian", "russian", "pool", "czech", "thai", "italian", "killer", "antidraughts", "breakthrough",
       "frisian", "frysk", "canadian"]


def moves(variant, fen):
    return sorted((str(m), m.captured, m.promotes) for m in engine.Board(variant, fen).legal_moves())


def test_russian_man_crowned_in_a_capture_goes_on_as_a_king():
    # f6 takes e7 and lands on d8, the crowning row: crowned at once, it takes b6 from afar.
    assert moves("russian", "W:W11:B4,7,9") == [("11x13", [7, 9], True)]
    # Under International rules (Brazilian) it goes on as a man, which cannot: it stops, crowned.
    assert moves("brazilian", "W:W11:B4,7,9") == [("11x2", [7], True)]


def test_pool_man_passing_the_crowning_row_stays_a_man():
    # d8 is reached in the capture but the man takes c7 backwards, ending on b6 uncrowned.
    assert moves("pool", "W:W11:B4,6,7") == [("11x9", [6, 7], False)]
    # Russian: crowned on d8, the king may land on b6 or a5.
    assert moves("russian", "W:W11:B4,6,7") == [("11x13", [6, 7], True), ("11x9", [6, 7], True)]


def test_czech_a_king_must_capture_before_a_man():
    assert moves("czech", "W:WK32,22:B1,18") == [
        ("32x14", [18], False), ("32x5", [18], False), ("32x9", [18], False)]
    # Pool's free choice lets the man take too.
    assert ("22x15", [18], False) in moves("pool", "W:WK32,22:B1,18")


def test_czech_men_capture_forward_only():
    # c3 could take b2 backwards in Russian, not in Czech.
    assert moves("czech", "B:W25:B22,1") == [("22x29", [25], True)]       # Black takes forward
    assert moves("czech", "W:W22:B25,1") == [("22-17", [], False), ("22-18", [], False)]
    assert moves("russian", "W:W22:B25,1") == [("22x29", [25], False)]


def test_free_choice_flying_king_lands_where_it_can_go_on():
    # a1 takes c3; only from f6 can it go on (over e7): it must land there and continue.
    assert moves("russian", "W:WK29:B22,7") == [("29x2", [7, 22], False)]
    # Free choice of sequence still: a lone man's capture or the king's longer one.
    assert sorted(m[0] for m in moves("russian", "W:WK29,21:B22,7,17")) == ["21x14", "29x2"]


def test_thai_free_choice_and_a_king_lands_right_behind():
    # The king on g1 sees d4 from afar but lands on c5 only, and the man may take instead
    # (Czech: the king must, landing on c5, b6 or a7).
    assert moves("thai", "W:WK32,22:B1,18") == [("22x15", [18], False), ("32x14", [18], False)]


def test_thai_pieces_leave_at_once_and_a_capture_may_turn_back():
    # c3 takes e5 (landing on f6), turns back over the emptied e5 and its own c3, takes b2 and
    # lands on a1; or takes b2 first and comes back the same way for e5.
    assert moves("thai", "W:WK22:B15,25") == [("22x11", [15, 25], False), ("22x29", [15, 25], False)]
    # Czech: the piece taken stays until the end and blocks the way back.
    assert moves("czech", "W:WK22:B15,25") == [
        ("22x11", [15], False), ("22x29", [25], False), ("22x4", [15], False), ("22x8", [15], False)]


def test_brazilian_takes_the_most_pieces():
    assert [m[0] for m in moves("brazilian", "W:WK29,21:B22,7,17")] == ["29x2"]


# Italian squares: 1 = a8, 2 = c8 ... 5 = b7 ... 9 = a6 ... 32 = h1 (the near right corner plays).
def test_italian_men_never_take_kings():
    assert moves("italian", "W:W22:BK19,1") == [("22-18", [], False)]
    assert moves("italian", "W:W22:B19,1") == [("22x15", [19], False)]


def test_italian_takes_with_the_king_then_the_most_kings_then_the_earliest_king():
    assert [m[0] for m in moves("italian", "W:W22,K9:B19,5,1")] == ["9x2"]        # king over man
    assert [m[0] for m in moves("italian", "W:WK14:BK10,11,1")] == ["14x5"]        # the king
    assert [m[0] for m in moves("italian", "W:WK14:B10,11,1")] == ["14x5", "14x7"]
    # Two pieces either way, a king in each: the sequence that meets its king first.
    assert moves("italian", "W:WK22:BK19,12,18,K10") == [("22x8", [12, 19], False)]


def test_killer_a_king_taken_last_stops_the_capture_behind_it():
    # The White king on 46 (a1) takes the Black king on 37 (c3) and may land anywhere on the
    # long diagonal under International rules; under Killer's only right behind it, on 32.
    anywhere = sorted(["46x32", "46x28", "46x23", "46x19", "46x14", "46x10", "46x5"])
    assert [m[0] for m in moves("international", "W:WK46:BK37,1")] == anywhere
    assert [m[0] for m in moves("killer", "W:WK46:BK37,1")] == ["46x32"]
    # A man taken last leaves the landing free, as in International.
    assert [m[0] for m in moves("killer", "W:WK46:B37,1")] == anywhere


def test_antidraughts_who_cannot_move_wins():
    board = engine.Board("antidraughts", "W:W33:B28")
    (move,) = board.legal_moves()                 # the capture is compulsory
    board.push(move)                              # and leaves Black without a piece...
    outcome = board.outcome()
    assert outcome.termination == Termination.NO_PIECES and board.result() == "0-1"   # ...Black wins
    # The search knows it: White's every move here gives its man away, which wins.
    result = engine.Engine(16).search(engine.Board("antidraughts", "W:W33:B23"), depth=6)
    assert result.mate is not None and result.mate > 0


def test_breakthrough_first_king_wins():
    board = engine.Board("breakthrough", "W:W7:B45")
    board.push("7-2")
    outcome = board.outcome()
    assert outcome.termination == Termination.FIRST_KING and board.result() == "1-0"
    result = engine.Engine(16).search(engine.Board("breakthrough", "W:W7:B45"), depth=4)
    assert result.mate == 1 and str(result.best_move) in ("7-1", "7-2")


# Frisian draughts: International's board and numbering (28 = e5, 29 = g5, 18 = e7, 46 = a1).
def test_frisian_men_capture_along_ranks_and_files():
    assert moves("frisian", "W:W28:B29") == [("28x30", [29], False)]          # over g5 to i5
    assert moves("frisian", "W:W28:B18") == [("28x8", [18], False)]           # over e7 to e9
    assert moves("frisian", "W:W28:B29,18,K30") == [("28x8", [18], False)]    # i5 is taken
    assert moves("international", "W:W28:B29") == [("28-22", [], False), ("28-23", [], False)]


def test_frisian_flying_king_turns_onto_a_file():
    # a1 takes c3 along the long diagonal, lands on i9 and flies down the i-file over i3 to i1:
    # the two men come before International's one.
    assert moves("frisian", "W:WK46,45:B37,40") == [("46x50", [37, 40], False)]
    assert ("45x34", [40], False) in moves("international", "W:WK46,45:B37,40")


def test_frisian_highest_value_first():
    # A king is worth more than a man: e5 takes the king on g5 rather than a man.
    assert moves("frisian", "W:W28,48:BK29,42,32") == [("28x30", [29], False)]
    # Two men are worth more than a king: g1 takes h2 and i5 rather than e5 the king on e7.
    assert moves("frisian", "W:W28,49:BK18,44,30") == [("49x20", [30, 44], False)]
    # At equal value the king's capture comes first (e5 could take g5 too).
    assert moves("frisian", "W:W28,K46:B29,37") == [("46x32", [37], False)]


def test_frisian_a_king_moves_at_most_three_times_in_a_row():
    board = engine.Board("frisian", "W:WK46,49:B3")
    for move in ["46-41", "3-8", "41-46", "8-12", "46-41", "12-17"]:
        board.push(move)
    assert board.counters["king_streak"] == ((41, 3), None)
    assert sorted(map(str, board.legal_moves())) == ["49-43", "49-44"]      # the king is held
    board.push("49-44")
    board.push("17-22")
    assert "41-46" in map(str, board.legal_moves())                          # free again
    board.pop()
    board.pop()
    assert board.counters["king_streak"] == ((41, 3), None)
    # A side with kings only has no limit; nor has International.
    board = engine.Board("frisian", "W:WK46:B3")
    for move in ["46-41", "3-8", "41-46", "8-12", "46-41", "12-17"]:
        board.push(move)
    assert "41-46" in map(str, board.legal_moves())
    board = engine.Board("international", "W:WK46,49:B3")
    for move in ["46-41", "3-8", "41-46", "8-12", "46-41", "12-17"]:
        board.push(move)
    assert "41-46" in map(str, board.legal_moves())


def test_frisian_endings():
    # One king against one, no capture: drawn at once; with a capture the game goes on.
    assert engine.Board("frisian", "W:WK46:BK5").outcome().termination == Termination.ONE_AGAINST_ONE
    assert engine.Board("frisian", "W:WK46:BK37").outcome() is None
    # Two kings against one: seven moves each to win. (The lone king on j10 and i9 is never on
    # a line with a free square behind it; no position comes a third time.)
    board = engine.Board("frisian", "W:WK45,K36:BK5")
    cycle = ["45-50", "5-10", "36-31", "10-5", "50-45", "5-10", "31-36", "10-5"]
    for i, move in enumerate(cycle + cycle[:6]):
        assert board.outcome() is None, i
        board.push(move)
    assert board.outcome().termination == Termination.SEVEN_MOVES and board.result() == "1/2-1/2"


def test_frysk_starts_with_five_men_on_the_back_row():
    board = engine.Board("frysk")
    assert board.fen() == "W:W46,47,48,49,50:B1,2,3,4,5"
    assert engine.perft(board, 3) == 657


def test_canadian_is_international_rules_on_twelve_by_twelve():
    board = engine.Board("canadian")
    assert board.fen() == ("W:W" + ",".join(map(str, range(43, 73))) + ":B"
                           + ",".join(map(str, range(1, 31))))
    # Squares: 1 = b12 ... 6 = l12, 7 = a11 ... 67 = a1, 72 = k1, White at the bottom.
    assert str(board).splitlines()[0].split()[:2] == ["12", "b"]
    # Men capture backwards: d6 takes c5.
    assert moves("canadian", "W:W38:B44") == [("38x49", [44], False)]
    # A man reaching the far row in a capture goes on as a man if it can (and must, since the
    # most pieces are taken): f10 takes e11 to d12, then c11 to b10, uncrowned.
    assert moves("canadian", "W:W15:B9,8") == [("15x13", [8, 9], False)]
    # ... and is crowned where it ends on the far row.
    assert moves("canadian", "W:W14:B8") == [("14x1", [8], True)]


def test_canadian_long_capture_across_the_whole_board():
    # The king on a1 flies the long diagonal to l12: b2 and h8 are taken, landing anywhere
    # beyond h8; both pieces must be taken, and the same capture for Black from l12.
    assert moves("canadian", "W:WK67:B61,28") == [
        ("67x12", [28, 61], False), ("67x17", [28, 61], False), ("67x23", [28, 61], False),
        ("67x6", [28, 61], False)]
    assert moves("canadian", "B:W61,28:BK6") == [("6x67", [28, 61], False)]
    board = engine.Board("canadian", "W:WK67:B61,28")
    board.push("67x6")
    assert board.fen() == "B:WK6:B"
    assert board.is_game_over() and board.result() == "1-0"


@pytest.mark.parametrize("variant", NEW)
def test_start_fen_round_trip_and_a_short_game(variant):
    board = engine.Board(variant)
    assert engine.Board(variant, board.fen()).fen() == board.fen()
    result = engine.Engine(16).search(board, depth=6)
    board.push(result.best_move)
    assert engine.Board(variant, board.fen()).fen() == board.fen()


def test_names_other_programs_use():
    assert [engine.games.by_hub_name(name).name for name in ("bt", "losing", "normal")] == \
        ["breakthrough", "antidraughts", "international"]
    assert engine.games.by_hub_name("russian").name == "russian"
    assert engine.games.by_hub_name("chess") is None
    # Each PDN GameType number names one game; a row copied from another names its own.
    numbers = {g.name: g.pdn_game_type for g in engine.GAMES.values() if g.pdn_game_type}
    assert numbers == {"international": 20, "checkers": 21, "italian": 22, "pool": 23,
                       "spanish": 24, "russian": 25, "brazilian": 26, "canadian": 27,
                       "czech": 29, "turkish": 30, "thai": 31, "frisian": 40}
    assert set(NEW) <= set(HUB_VARIANTS)
    text = '[GameType "25"]\n1. 22-17 11-15 *\n'
    game = pdn.read_game(text)
    assert game.variant == "russian" and [str(m) for m in game.moves()] == ["22-17", "11-15"]
    assert pdn.read_game('[GameType "26"]\n*\n').variant == "brazilian"
    assert pdn.read_game('[GameType "23"]\n*\n').variant == "pool"
    assert pdn.read_game('[GameType "29"]\n*\n').variant == "czech"
    assert pdn.read_game('[GameType "40"]\n*\n').variant == "frisian"
    assert pdn.read_game('[GameType "27"]\n*\n').variant == "canadian"


def test_no_tables_where_no_move_does_not_lose():
    from engine.egdb import table_variants
    assert "russian" in table_variants() and "czech" in table_variants()
    assert "antidraughts" not in table_variants() and "breakthrough" not in table_variants()
    # Frisian's king limit is history the tables' positions do not hold.
    assert "frisian" not in table_variants() and "frysk" not in table_variants()


@pytest.mark.parametrize("name, expected", [
    # (diagonal step sizes, men capture by plain shifts along 4 / 2 / no diagonals, men move by
    # plain shifts, each side's forward step raises the bit index)
    ("international", (5, 6, 4, 1, (0, 1))),
    ("canadian", (6, 7, 4, 1, (0, 1))),
    ("checkers", (4, 5, 2, 1, (0, 1))),
    ("spanish", (4, 5, 2, 1, (1, 0))),       # the board is turned: White moves up the bits
    ("frisian", (5, 6, 0, 1, (0, 1))),       # men also capture along files and rows
    ("turkish", (0, 0, 0, 0, (0, 0))),       # every square used: steps wrap, masks needed
])
def test_plain_shift_paths_are_chosen_only_where_they_hold(name, expected):
    """The generator replaces masked steps by plain shifts only on ghost-bit layouts, and only
    for the direction sets it handles (the perft and reference tests check the moves)."""
    from engine import _draughts, _draughts_wide
    from engine.geometry import DIRECTIONS
    from engine.rulesets import DRAUGHTS_VARIANTS

    def black(d):
        df, dr = DIRECTIONS[d]
        return DIRECTIONS.index((df, -dr))

    spec = DRAUGHTS_VARIANTS[name]
    caps = [list(spec.man_capture_dirs), [black(d) for d in spec.man_capture_dirs]]
    moves = [list(spec.man_move_dirs), [black(d) for d in spec.man_move_dirs]]
    module = _draughts_wide if spec.geometry.words == 2 else _draughts
    assert module._diagonal_shifts(spec.geometry, caps, moves) == expected
