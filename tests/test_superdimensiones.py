"""Super Dimensiones (RULES.md §1): the rules' test positions, perft of all 32 card sets against
a simple generator written from the rules, random positions with huffs, reinforcements, ally
chains and ended sub-games, FEN and move strings, the ends of the sub-games and their results,
the search (a player moving twice, point scores) and self-play of every card set."""

import random
import subprocess
import sys

import pytest

import engine
from engine._superdimensiones import card_sets, start_fen
from reference_superdimensiones import SUBGAME_TEAMS, Position
from reference_superdimensiones import perft as reference_perft

V = "superdimensiones"


def board(fen=None):
    return engine.Board(V, fen)


def moves(b):
    return sorted(str(m) for m in b.legal_moves())


def after(fen, move):
    b = board(fen)
    b.push(move)
    return b.fen()


# -- the rules' test positions (RULES.md §1.10) ---------------------------------------------------

WESTERN_MOVES = ["b2-a3", "b2-c3", "d2-c3", "d2-e3", "f2-e3"]


def test_sd_t1_western_start_multidimensional():
    assert moves(board("MCAWR")) == WESTERN_MOVES


def test_sd_t1_western_start_interdimensional_adds_three_ally_jumps():
    assert moves(board("ICAWR")) == sorted(WESTERN_MOVES + ["a1>a3", "c1>c3", "e1>e3"])


@pytest.mark.parametrize("cards", ["MCAER", "ICAER", "IDUES"])
def test_sd_t2_eastern_start(cards):
    assert moves(board(cards)) == ["a2-a3", "b2-b3", "c2-c3"]


def test_sd_t3_ally_chain_may_stop_after_any_jump():
    # A1 man a1; B1 men a2, b3, c4 (an A2 man on f6 keeps sub-game A going).
    fen = "5c/6/2b3/1b4/b5/a5 a ICAWR"
    assert moves(board(fen)) == ["a1-b2", "a1>a3", "a1>a3>c3", "a1>a3>c3>c5"]
    assert after(fen, "a1>a3>c3>c5") == "5c/2a3/2b3/1b4/b5/6 c ICAWR B1 0 0"
    assert moves(board(fen.replace("ICAWR", "MCAWR"))) == ["a1-b2"]


SD_T4 = "d5/2c1c1/1a4/6/6/1b4 a MCUW"


def test_sd_t4_real_queen_continues_the_capture_after_crowning():
    assert moves(board(SD_T4 + "R")) == ["b4-a5", "b4xf4"]
    # Both A2 men taken: A2 is eliminated and loses sub-game A under conquistar.
    assert after(SD_T4 + "R", "b4xf4") == "d5/6/5A/6/6/1b4 b MCUWR A1 0 0"


def test_sd_t4_symbolic_crowning_ends_the_capture():
    assert moves(board(SD_T4 + "S")) == ["b4-a5", "b4xd6"]
    assert after(SD_T4 + "S", "b4xd6") == "d2A2/4c1/6/6/6/1b4 c MCUWS - 0 0"


SD_T5 = "d5/6/3c2/2a3/6/ab4 a MCUWR"


def test_sd_t5_declining_huffs_the_piece_that_could_capture():
    assert moves(board(SD_T5)) == ["a1-b2", "c3-b4", "c3xe5"]
    assert after(SD_T5, "a1-b2") == "d5/6/3c2/6/1a4/1b4 c MCUWR - 0 0"      # c3 removed
    assert after(SD_T5, "c3-b4") == "d5/6/3c2/6/6/ab4 c MCUWR - 0 0"        # removed on b4
    m = board(SD_T5).parse_move("a1-b2")
    assert m.declines and m.penalty == ("huff", "c3")


SD_T6 = "dc4/6/3c1c/c1a3/6/1b4 c MDUWR"


def test_sd_t6_declining_under_distraer_brings_a_reinforcement():
    # A2 has 4 pieces (2 in its pool); sector a5 c5 e5 b6 d6 f6, b6 taken.
    sector = ["a5", "b6", "c5", "d6", "e5", "f6"]
    quiet = ["a3-b2", "b6-a5", "b6-c5", "d4-e3", "f4-e3"]
    expected = ["d4xb2"]
    for q in quiet:
        occupied = {"b6"} - {q[:2]} | {q[3:]}
        expected += [f"{q}+{s}" for s in sector if s not in occupied]
    assert moves(board(SD_T6)) == sorted(expected)
    assert len(expected) == 26
    assert after(SD_T6, "d4-e3+e5") == "dc4/4c1/5c/c1a1c1/6/1b4 b MDUWR - 0 0"


def test_sd_t6_with_an_empty_pool_a_man_on_the_home_row_is_crowned():
    fen = "dc1c1c/6/3c1c/c1a3/6/1b4 c MDUWR"           # 6 A2 pieces: nothing in the pool
    assert moves(board(fen)) == [
        "a3-b2=b6", "a3-b2=d6", "a3-b2=f6", "b6-a5=d6", "b6-a5=f6", "b6-c5=d6", "b6-c5=f6",
        "d4-e3=b6", "d4-e3=d6", "d4-e3=f6", "d4xb2", "d6-c5=b6", "d6-c5=f6", "d6-e5=b6",
        "d6-e5=f6", "f4-e3=b6", "f4-e3=d6", "f4-e3=f6", "f6-e5=b6", "f6-e5=d6"]
    assert after(fen, "b6-a5=f6") == "d2c1C/c5/3c1c/c1a3/6/1b4 b MDUWR - 0 0"


def test_sd_t6_without_men_on_the_home_row_any_man_is_crowned():
    fen = "d5/c1c1c1/3c1c/c1a3/6/1b4 c MDUWR"          # 6 pieces, none on rank 6
    crowned = {m.split("=")[1] for m in moves(board(fen)) if m.startswith("d4-e3")}
    assert crowned == {"a5", "c5", "e5", "a3", "e3", "f4"}


def test_huff_choice_is_a_ply_of_the_opponent():
    fen = "d5/6/3c2/2a1a1/6/ab4 a MCUWR"               # c3 and e3 can both take d4
    assert moves(board(fen)) == ["a1-b2", "c3-b4", "c3xe5", "e3-f4", "e3xc5"]
    b = board(fen)
    b.push("a1-b2")
    assert b.fen() == "d5/6/3c2/2a1a1/1a4/1b4 c!c3,e3 MCUWR - 0 0"
    assert b.turn == engine.BLACK and b.team == "a" and b.huff_candidates == ["c3", "e3"]
    assert moves(b) == ["huff-c3", "huff-e3"]
    b.push("huff-e3")
    assert b.fen() == "d5/6/3c2/2a3/1a4/1b4 c MCUWR - 0 0"
    assert b.turn == engine.BLACK                       # player 2 moves twice in a row
    # A moved candidate is removed from its new square.
    assert after(fen, "e3-f4") == "d5/6/3c1a/2a3/6/ab4 c!c3,f4 MCUWR - 0 0"
    assert engine.perft(board(fen), 3) == reference_perft(Position(fen), 3)


def test_armoured_captures_are_optional_and_free():
    fen = "d5/6/3c2/2a1a1/6/ab4 a MCAWR"
    assert moves(board(fen)) == ["a1-b2", "c3-b4", "c3xe5", "e3-f4", "e3xc5"]
    assert after(fen, "a1-b2") == "d5/6/3c2/2a1a1/1a4/1b4 c MCAWR - 0 0"


def test_quantity_then_quality_under_unarmoured():
    # c1 can take two men (b2, b4) or the queen on d2; e1 can take the queen d2 and the man b4.
    fen = "d5/6/1c4/6/1c1C2/1ba1a1 a MCUWS"
    assert [m for m in moves(board(fen)) if "x" in m] == ["e1xa5"]
    armoured = fen.replace("MCUWS", "MCAWS")
    assert [m for m in moves(board(armoured)) if "x" in m] == ["c1xc5", "c1xe3", "e1xa5"]


# -- perft against the reference generator --------------------------------------------------------

START_PERFT_5 = {
    "MDAWR": 3525, "IDAWR": 49030, "MCAWR": 3525, "ICAWR": 49030, "MDUWR": 4950,
    "IDUWR": 63402, "MCUWR": 3525, "ICUWR": 47271, "MDAER": 686, "IDAER": 967, "MCAER": 686,
    "ICAER": 967, "MDUER": 1013, "IDUER": 1356, "MCUER": 686, "ICUER": 967, "MDAWS": 3525,
    "IDAWS": 49030, "MCAWS": 3525, "ICAWS": 49030, "MDUWS": 4950, "IDUWS": 63402,
    "MCUWS": 3525, "ICUWS": 47271, "MDAES": 686, "IDAES": 967, "MCAES": 686, "ICAES": 967,
    "MDUES": 1013, "IDUES": 1356, "MCUES": 686, "ICUES": 967,
}


@pytest.mark.parametrize("cards", card_sets())
def test_start_perft_matches_the_reference(cards):
    b = board(cards)
    ours = [engine.perft(b, d) for d in range(1, 6)]
    ref = [reference_perft(Position(start_fen(cards)), d) for d in range(1, 6)]
    assert ours == ref
    assert ours[4] == START_PERFT_5[cards]


@pytest.mark.slow
@pytest.mark.parametrize("cards", ["IDUWR", "ICUWS", "MDUER", "ICAES"])
def test_start_perft_6_matches_the_reference(cards):
    assert engine.perft(board(cards), 6) == reference_perft(Position(start_fen(cards)), 6)


def random_fen(rng, cards):
    """Up to six pieces per team on random squares, a third of them queens (men never on their
    promotion rank), a random team to move and random clocks."""
    squares = [(f, r) for f in range(6) for r in range(6)]
    rng.shuffle(squares)
    placed = {}
    for team in "abcd":
        for _ in range(rng.randint(1, 6)):
            f, r = squares.pop()
            promotion = 5 if team in "ab" else 0
            queen = rng.random() < 0.35 or r == promotion
            placed[(f, r)] = team.upper() if queen else team
    rows = []
    for r in range(5, -1, -1):
        row, empty = "", 0
        for f in range(6):
            ch = placed.get((f, r))
            if ch is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + ch
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {rng.choice('abcd')} {cards} - {rng.randint(0, 29)} {rng.randint(0, 29)}"


def compare_with_reference(b, seen):
    """The legal moves of b and the position after each equal the reference's."""
    fen = b.fen()
    ref = Position(fen)
    assert ref.fen() == fen
    expected = {text: p.fen() for text, p in ref.legal_moves()}
    ours = {}
    for mv in b.legal_moves():
        b.push(mv)
        ours[str(mv)] = b.fen()
        b.pop()
        if mv.declines:
            seen[mv.penalty[0]] = seen.get(mv.penalty[0], 0) + 1
        if mv.is_ally_jump and len(mv.paths[0]) > 2:
            seen["chain"] = seen.get("chain", 0) + 1
        if mv.is_huff:
            seen["huff ply"] = seen.get("huff ply", 0) + 1
    if fen.split()[3] != "-":
        seen["ended"] = seen.get("ended", 0) + 1
    assert ours == expected, fen
    return list(ours)


def walk_against_reference(b, rng, plies, seen):
    """Random moves from b, each position compared with the reference."""
    for _ in range(plies):
        legal = compare_with_reference(b, seen)
        if not legal:
            return
        b.push(rng.choice(legal))


# Every kind of position and move the rules distinguish must have been met.
KINDS = ("huff", "huff-choice", "huff ply", "reinforce", "crown", "chain", "ended")


def test_random_games_of_every_card_set_match_the_reference():
    rng = random.Random(8)
    seen = {}
    for cards in card_sets():
        walk_against_reference(board(cards), rng, 120, seen)
    assert all(seen.get(kind, 0) >= 5 for kind in KINDS), seen


def test_random_positions_of_every_card_set_match_the_reference():
    rng = random.Random(9)
    seen = {}
    for i in range(640):
        walk_against_reference(board(random_fen(rng, card_sets()[i % 32])), rng, 4, seen)
    assert all(seen.get(kind, 0) >= 5 for kind in KINDS), seen


def test_random_positions_perft_3_matches_the_reference():
    rng = random.Random(10)
    for i in range(64):
        fen = random_fen(rng, card_sets()[i % 32])
        b = board(fen)
        assert engine.perft(b, 3) == reference_perft(Position(b.fen()), 3), fen


# -- FEN and move strings -------------------------------------------------------------------------

def test_start_positions_and_default():
    assert board().fen() == "dcdcdc/cdcdcd/6/6/bababa/ababab a MCAWR - 0 0"
    assert board("IDUES").fen() == "cccddd/cccddd/6/6/aaabbb/aaabbb a IDUES - 0 0"
    assert start_fen("ICUWR") == "dcdcdc/cdcdcd/6/6/bababa/ababab a ICUWR - 0 0"
    assert len(set(card_sets())) == 32
    assert board("ICUWR").cards == "ICUWR"


def test_fen_optional_fields_and_implied_endings():
    assert board("dcdcdc/cdcdcd/6/6/bababa/ababab a MCAWR").fen() == \
        "dcdcdc/cdcdcd/6/6/bababa/ababab a MCAWR - 0 0"
    # Team b has no piece: sub-game B is over (b loses under conquistar, wins under distraer).
    assert board("6/2c3/6/6/6/a5 a MCAWR").fen() == "6/2c3/6/6/6/a5 a MCAWR B2 0 0"
    assert board("6/2c3/6/6/6/a5 a MDAWR").fen() == "6/2c3/6/6/6/a5 a MDAWR B1 0 0"
    # A team to move without a legal move is blocked: its sub-game ends, the token goes on.
    fen = "6/6/6/2d3/1c4/a3b1 a MCAWR"                 # a1 can neither step nor take b2
    assert board(fen).fen() == "6/6/6/2d3/1c4/a3b1 b MCAWR A2 0 0"
    # The no-progress clock at 30 ends the sub-game by score (2 pieces against 1: A1 wins).
    assert board("6/2c3/6/6/6/a1a3 a MCAWR A= 30 0").fen().split()[3] == "A=,B2"
    assert board("5c/6/6/6/6/a1a3 a MCAWR - 30 0").fen().split()[3] == "A1,B2"


@pytest.mark.parametrize("fen, message", [
    ("", "expected <board>"),
    ("dcdcdc/cdcdcd/6/6/bababa a MCAWR", "6 ranks"),
    ("dcdcdc/cdcdcd/6/6/bababa/ababa a MCAWR", "does not have 6 squares"),
    ("dcdcdc/cdcdcd/6/6/bababa/abxbab a MCAWR", "team letters"),
    ("dcdcdc/cdcdcd/6/6/bababa/ababab e MCAWR", "must be a, b, c or d"),
    ("dcdcdc/cdcdcd/6/6/bababa/ababab a MCAW", "five letters"),
    ("dcdcdc/cdcdcd/6/6/bababa/ababab a XCAWR", "five letters"),
    ("aaaaaa/6/6/6/6/a5 a MCAWR", "promotion rank"),
    ("6/6/aaaa2/6/aaa3/6 a MCAWR", "more than 6"),
    ("dcdcdc/cdcdcd/6/6/bababa/ababab a MCAWR A3", "ended sub-games"),
    ("dcdcdc/cdcdcd/6/6/bababa/ababab a MCAWR A1,A2", "ended sub-games"),
    ("dcdcdc/cdcdcd/6/6/bababa/ababab a MCAWR - 31 0", "clock"),
    ("dcdcdc/cdcdcd/6/6/bababa/ababab a MCAWR - x 0", "clock"),
    ("d5/6/3c2/2a1a1/1a4/1b4 c!c3,e3 MCAWR", "only with the cards"),
    ("d5/6/3c2/2a1a1/1a4/1b4 c!c3 MCUWR", "two or more"),
    ("d5/6/3c2/2a1a1/1a4/1b4 c!c3,d4 MCUWR", "huff candidate"),
    ("d5/6/3c2/2a1a1/1a4/1b4 c!c3,c3 MCUWR", "huff candidate"),
])
def test_bad_fens_are_refused_and_change_nothing(fen, message):
    b = board("ICUWR")
    b.push("a1>a3")
    before = b.fen()
    with pytest.raises(engine.InvalidFenError, match=message):
        b.set_fen(fen)
    assert b.fen() == before and b.ply == 1


def test_capture_paths_and_parsing_alternative_forms():
    # A real queen on a1 takes b2 and d4 whichever way round the empty squares it goes.
    fen = "c5/6/3c2/6/1c4/A5 a MCUWR"
    b = board(fen)
    assert moves(b) == ["a1xe5", "a1xf6"]
    m = b.parse_move("a1xc3xe5")
    assert str(m) == "a1xe5" and m.captured == ["b2", "d4"] and m.paths == (("a1", "c3", "e5"),)
    with pytest.raises(engine.IllegalMoveError, match="not a legal move"):
        b.parse_move("a1xd4")
    with pytest.raises(engine.IllegalMoveError, match="not of the form"):
        b.parse_move("a1--e5")
    with pytest.raises(engine.IllegalMoveError, match="empty"):
        b.parse_move(" ")
    assert b.fen() == fen + " B2 0 0"             # no team b or d: sub-game B is over


def test_two_captures_with_the_same_ends_are_written_in_full():
    # The man on c1 reaches c5 over b2 and b4, or over d2 and d4: two moves, full paths.
    fen = "d5/6/1c1c2/6/1c1c2/2a2b a MCAWS"
    b = board(fen)
    assert [m for m in moves(b) if "x" in m] == ["c1xa3xc5", "c1xe3xc5"]
    with pytest.raises(engine.IllegalMoveError, match="not a legal move"):
        b.parse_move("c1xc5")


def test_ally_chains_with_the_same_ends_are_one_move():
    # a1 reaches c3 by a1>a3>c3 and by a1>c1>c3, and a3 also by a1>c1>c3>a3: one move per end,
    # written with the smallest path.
    fen = "5c/6/6/1b4/b1b3/ab4 a ICAWR"
    b = board(fen)
    chains = {m.to_square: m for m in b.legal_moves() if m.is_ally_jump}
    assert sorted(str(m) for m in chains.values()) == ["a1>a3", "a1>a3>c3", "a1>c1"]
    assert chains["c3"].paths == (("a1", "a3", "c3"), ("a1", "c1", "c3"))
    assert chains["a3"].paths == (("a1", "a3"), ("a1", "c1", "c3", "a3"))
    assert b.parse_move("a1>c1>c3") == chains["c3"]
    assert b.parse_move("a1>c1>c3>a3") == chains["a3"]


def test_reinforcement_and_crowning_strings_parse_with_their_suffix():
    b = board(SD_T6)
    assert b.parse_move("d4-e3+e5").penalty == ("reinforce", "e5")
    with pytest.raises(engine.IllegalMoveError):
        b.parse_move("d4-e3")                   # the reinforcement square is part of the move
    with pytest.raises(engine.IllegalMoveError):
        b.parse_move("d4-e3+b6")                # b6 is occupied


def test_random_games_keep_keys_and_fen_round_trips():
    rng = random.Random(11)
    for cards in card_sets()[::3]:
        b = board(cards)
        while not b.is_game_over() and b.ply < 200:
            b.push(rng.choice(b.legal_moves()))
            assert b.zobrist_hash() == b.recompute_hash()
            assert board(b.fen()).fen() == b.fen()
        while b.ply:
            b.pop()
        assert b.fen() == start_fen(cards)


# -- the end of the sub-games (RULES.md §1.8) ------------------------------------------------------

def test_elimination_loses_under_conquistar_and_wins_under_distraer():
    for cards, result in (("MCAWR", "A1"), ("MDAWR", "A2")):
        fen = f"5d/6/3c2/2a3/6/1b4 a {cards}"
        b = board(fen)
        b.push("c3xe5")                          # A2's last man is taken
        assert b.fen().split()[3] == result


def test_game_ends_when_both_sub_games_have_ended():
    b = board("6/6/3c2/2a3/6/b5 a MCAWR B2")
    assert not b.is_game_over()
    b.push("c3xe5")
    o = b.outcome()
    assert o.termination == engine.Termination.SUB_GAMES
    assert o.subgames == ("1", "2") and o.points() == (1.0, 1.0)
    assert o.winner is None and o.result() == "1/2-1/2"
    assert "sub-game A won by player 1, sub-game B won by player 2" in o.reason()
    assert b.legal_moves() == [] and engine.perft(b, 2) == 0


def test_repetition_ends_the_open_sub_games_by_score():
    # Two A1 queens against one A2 queen shuffle; sub-game B is over.
    b = board("C5/6/6/6/6/A1A3 a MCAWR B=")
    for _ in range(2):
        for text in ("a1-b2", "a6-b5", "b2-a1", "b5-a6"):
            b.push(text)
    assert b.repetitions() == 3
    o = b.outcome()
    assert o.termination == engine.Termination.REPETITION
    assert o.subgames == ("1", "=") and o.winner == engine.WHITE and o.result() == "1-0"


def test_no_progress_ends_a_sub_game_after_30_plies():
    b = board("C5/6/6/6/6/A1A3 a MDAWR B= 28 0")
    b.push("a1-b2")
    assert b.clocks == (29, 0) and not b.is_game_over()
    b.push("a6-b5")
    # 30 plies: scored; under distraer the fewer pieces (A2's one queen) win.
    assert b.fen().split()[3] == "A2,B="
    assert b.outcome().subgames == ("2", "=")


def test_only_moves_that_cannot_be_undone_are_progress():
    fen = "c4d/6/6/6/2a3/5b a MCAER - 5 0"
    assert moves(board(fen)) == ["c2-b2", "c2-c3", "c2-d2"]
    assert after(fen, "c2-d2").split()[-2:] == ["6", "0"]      # sideways: it can come back
    assert after(fen, "c2-c3").split()[-2:] == ["0", "0"]      # forward


def check_result_follows_the_rules(fen, g):
    """Sub-game g has just ended (in the position `fen`, right after the move that ended it):
    its result follows §1.8 from what ended it."""
    p = Position(fen)
    result = p.ended[g]
    teams = SUBGAME_TEAMS[g]
    empty = [t for t in teams if not p.pieces(t)]
    blocked = [t for t in teams if p.pieces(t) and not p.has_move(t)]
    causes = [p.finished_result(t) for t in empty + blocked]
    if p.clock[g] >= 30:
        causes.append(p.scored_result(g))
    assert result in causes, (fen, g)


@pytest.mark.parametrize("cards", card_sets())
def test_self_play_terminates_with_results_by_the_rules(cards):
    e = engine.Engine(4)
    b = board(cards)
    ended = {"A": None, "B": None}
    while not b.is_game_over():
        assert b.ply < 1500
        b.push(e.search(b, nodes=300).best_move)
        for g, result in b.subgame_results().items():
            if result is not None and ended[g] is None:
                check_result_follows_the_rules(b.fen(), g)
            ended[g] = result
    o = b.outcome()
    if o.termination == engine.Termination.SUB_GAMES:
        assert o.subgames == (ended["A"], ended["B"])
    else:
        assert o.termination == engine.Termination.REPETITION
        p = Position(b.fen())
        for g in "AB":
            assert o.subgames["AB".index(g)] == (ended[g] or p.scored_result(g))
    assert o.points()[0] + o.points()[1] == 2


# -- the search ----------------------------------------------------------------------------------

def test_search_takes_the_capture_that_wins_both_sub_games():
    b = board("6/6/3c2/2a3/6/b5 a MCAWR B1")
    r = engine.Engine(4).search(b, depth=3)
    assert str(r.best_move) == "c3xe5" and r.score == 2000


def test_search_chooses_the_huff_and_plays_on_with_the_same_player():
    # Player 2 picks which A1 man is removed: the one about to crown (e5) rather than a1.
    b = board("c5/4a1/6/6/6/ab4 c!a1,e5 MCUWR - 0 0")
    r = engine.Engine(4).search(b, depth=4)
    assert str(r.best_move) == "huff-e5"
    assert [str(m) for m in r.pv][:1] == ["huff-e5"]


def test_search_at_the_end_of_the_game_returns_the_final_score():
    b = board("6/6/6/6/6/6 a MCAWR A1,B1")
    r = engine.Engine(4).search(b, depth=2)
    assert r.best_move is None and r.score == 2000


def test_evaluation_understands_both_strategies():
    conquer = board("5d/2c3/6/6/a1a3/b5 a MCAWR")      # A1 has a man more than A2
    distract = board("5d/2c3/6/6/a1a3/b5 a MDAWR")
    assert conquer.evaluate() > 0 > distract.evaluate()


# -- protocols and command line ------------------------------------------------------------------

def test_uci_plays_any_card_set():
    from conftest import Transcript
    from engine.uci import UciSession
    t = Transcript(UciSession)
    t.send("setoption name UCI_Variant value superdimensiones")
    t.send("position fen dcdcdc/cdcdcd/6/6/bababa/ababab a ICUWR - 0 0 moves a1>a3 b6>b4")
    fen = [line for line in t.send("d") if line.startswith("Fen: ")][0][5:]
    assert fen == "d1dcdc/cdcdcd/1c4/a5/bababa/1babab b ICUWR - 0 0"
    lines = t.send("go depth 3")
    assert lines[-1].startswith("bestmove ")
    assert board(fen).parse_move(lines[-1].split()[1])
    lines = t.send("position fen ICUWR moves a1-a3")
    assert lines == ["info string error move 1 of the list: 'a1-a3' is not a legal move in "
                     + start_fen("ICUWR")]
    t.session.handle("quit")


def test_cli_moves_and_perft():
    out = subprocess.run([sys.executable, "-m", "engine", "moves", "-v", V, "-f", "ICUWR"],
                         capture_output=True, text=True, check=True).stdout
    assert "8 legal moves: " in out and "a1>a3" in out
    assert "team a (A1, player 1) to move; cards ICUWR" in out
    out = subprocess.run([sys.executable, "-m", "engine", "perft", "-v", V, "-f", "IDUWR", "5"],
                         capture_output=True, text=True, check=True).stdout
    assert out.startswith("63402 leaves")


def test_cli_analyse_of_a_finished_game_says_why():
    out = subprocess.run([sys.executable, "-m", "engine", "analyse", "-v", V, "-f",
                          "6/6/6/6/6/6 a MCAWR A1,B=", "--depth", "2"],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == ("bestmove (none): the game is over (both sub-games ended: sub-game A "
                           "won by player 1, sub-game B drawn; points 1.5-0.5)")
