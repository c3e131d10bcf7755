"""The search: legal answers everywhere, exact wins and losses with their distance, the game's
draw rules inside the tree, limits, stop, MultiPV and the bench signature."""

import random
import threading
import time

import pytest

import engine
from engine import Engine
from conftest import random_game

VARIANTS = engine.variants()


@pytest.fixture(scope="module")
def searcher():
    return Engine(hash_mb=8)


def solve(board, plies):
    """Exact game value by exhaustive minimax over the public API: +n if the side to move wins
    within n plies (its last move ending the game), -n if it loses within n plies, 0 if neither
    can be forced within `plies`."""
    outcome = board.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return 0
        return -0.5 if outcome.winner != board.turn else 0.5     # the game ended before us
    if plies == 0:
        return 0
    values = []
    for move in board.legal_moves():
        board.push(move)
        v = solve(board, plies - 1)
        board.pop()
        if v == -0.5:
            values.append(1)                    # our move ended the game with a win
        elif v < 0:
            values.append(-v + 1)
        elif v > 0:
            values.append(-(v + 1))
        else:
            values.append(0)
    wins = [v for v in values if v > 0]
    if wins:
        return min(wins)
    if all(v < 0 for v in values):
        return min(values)                      # lose as late as possible
    return 0


def test_returns_a_legal_move_in_many_positions(searcher):
    rng = random.Random(5)
    for variant in VARIANTS:
        for _ in range(12):
            board = random_game(variant, rng, max_plies=rng.randint(0, 120))
            if not board.legal_moves():
                continue
            fen = board.fen()
            result = searcher.search(board, depth=4)
            assert result.best_move in board.legal_moves(), (variant, fen)
            assert board.fen() == fen                        # the board is left as it was
            assert result.pv and result.pv[0] == result.best_move


def test_forced_single_reply(searcher):
    board = engine.Board("international", "W:W37,44:B11,22,32,39")   # IN-T1: only 37x6
    result = searcher.search(board, depth=6)
    assert str(result.best_move) == "37x6"
    board = engine.Board("spanish", "B:W19,12,18,1,K10:B22")         # SP-T1: only 22x6
    assert str(searcher.search(board, movetime=0.05).best_move) == "22x6"


def test_no_legal_move():
    result = Engine(1).search(engine.Board("international", "W:W46:B37,41"), depth=3)
    assert result.best_move is None and result.mate == 0 and result.pv == []


def test_win_in_one(searcher):
    result = searcher.search(engine.Board("international", "W:W28:B23"), depth=5)
    assert str(result.best_move) == "28x19" and result.mate == 1


def test_international_shot_wins_material(searcher):
    # 27-21! forces 16x27 and then 32x23 takes two men: a shot worth a man.
    fen = ("W:W26,27,32,34,35,37,38,40,41,42,43,44,45,47,48,49,50:"
           "B1,2,3,4,5,6,7,8,9,10,11,15,16,17,18,20,24")
    board = engine.Board("international", fen)
    result = searcher.search(board, depth=8)
    assert str(result.best_move) == "27-21" and result.score > 80
    board.push("27-21")
    replies = board.legal_moves()
    assert replies and all(m.is_capture for m in replies)
    for reply in replies:
        board.push(reply)
        assert max(len(m.captured) for m in board.legal_moves()) >= 2
        board.pop()


def small_positions(variant, rng, count):
    """Random positions with 2 to 4 pieces, mostly kings."""
    out = []
    while len(out) < count:
        squares = rng.sample(range(1, {"international": 51, "checkers": 33}[variant]), rng.randint(3, 4))
        white = [f"K{s}" for s in squares[:2]]
        black = [f"K{s}" for s in squares[2:]]
        board = engine.Board(variant, f"{rng.choice('WB')}:W{','.join(white)}:B{','.join(black)}")
        if board.outcome() is None:
            out.append(board)
    return out


@pytest.mark.parametrize("variant,threads", [("checkers", 1), ("international", 1),
                                             ("checkers", 2)])
def test_exact_distances_match_exhaustive_search(variant, threads):
    """In small endings, every forced win or loss within 5 plies is reported with its exact
    distance by a full-width search, and nothing else is reported as won or lost, selective or
    not; with two threads too (they share the table and put off each other's moves: neither may
    change a proven result). The selective search (ProbCut, reductions) may miss a short win
    at depth 7 (one English checkers ending does on the shipped network), never invent one."""
    full_width = Engine(hash_mb=8, threads=threads, probcut=False, reductions=False,
                        early_reductions=False)
    selective = Engine(hash_mb=8, threads=threads)
    rng = random.Random(31 + len(variant))
    checked = decided = 0
    for board in small_positions(variant, rng, 60):
        exact = solve(board, 5)
        checked += 1
        decided += exact != 0
        for searcher in (full_width, selective):
            result = searcher.search(board, depth=7)
            if exact > 0 and (searcher is full_width or result.mate is not None):
                assert result.mate == (exact + 1) // 2, board.fen()
            elif exact < 0 and (searcher is full_width or result.mate is not None):
                assert result.mate == -((-exact) // 2), board.fen()
            elif exact == 0 and result.mate is not None:
                plies = 2 * result.mate - 1 if result.mate > 0 else -2 * result.mate
                assert plies > 5, board.fen()          # a longer win the search saw further
    assert decided >= 5 and checked == 60


def test_draw_rules_inside_the_tree(searcher):
    # International: two kings against a lone king, 8 plies into the 5-move count: every line
    # of the search meets the rule two plies on, so the position is a draw whatever it looks like.
    from test_draw_rules import walk
    board = walk(engine.Board("international", "W:WK1,K2:BK50"), 8)
    result = searcher.search(board, depth=4)
    assert result.score == 0 and result.mate is None
    # Turkish: one piece against one is a draw at once, whatever the search finds.
    result = searcher.search(engine.Board("turkish", "W:WKa1:Bh7"), depth=8)
    assert result.score == 0


def test_repetition_is_a_draw_in_the_tree(searcher):
    # Kings only and no progress possible: the search must not score a shuffle as a gain.
    board = engine.Board("checkers", "W:WK1,K2:BK31,K32")
    result = searcher.search(board, depth=12)
    assert abs(result.score) < 50


def test_chapinas_values_decide_drawn_endings():
    # A drawn ending (kings that cannot make progress) goes to the side with the higher sum of
    # piece numbers: here White (19 + 18 against 0 + 1) is winning by the tiebreak. The learned
    # evaluation once scored a lone king's ending 0 without the tiebreak, and only a search deep
    # enough to reach a repetition saw the win. A fresh engine, so no earlier search's history
    # helps; every depth.
    board = engine.Board("chapinas", "W:WK1.19,K2.18:BK50.0,K49.1")
    for depth in (1, 4, 10):
        assert Engine(hash_mb=8).search(board, depth=depth).score > 0


def test_multipv_returns_the_best_moves_in_order(searcher):
    board = engine.Board("international")
    result = searcher.search(board, depth=6, multipv=3)
    assert len(result.lines) == 3
    moves = [line.move for line in result.lines]
    assert len(set(moves)) == 3 and all(m in board.legal_moves() for m in moves)
    scores = [line.score for line in result.lines]
    assert scores == sorted(scores, reverse=True)
    assert result.best_move == moves[0]


def test_info_callback_gets_one_line_per_iteration(searcher):
    lines = []
    searcher.search(engine.Board("checkers"), depth=5, info=lines.append)
    assert [info.depth for info in lines] == [1, 2, 3, 4, 5]
    text = str(lines[-1])
    assert text.startswith("info depth 5 seldepth ") and " score cp " in text and " pv " in text


@pytest.mark.parametrize("threads", [1, 2])
def test_an_error_in_the_info_callback_ends_the_search_and_is_raised(threads):
    """The callback runs inside the search's loop (with the GIL): its exception stops every
    thread and comes out of search(); the engine searches again afterwards."""
    e = Engine(8, threads=threads)
    seen = []

    def info(report):
        seen.append(report.depth)
        if report.depth >= 3:
            raise ValueError("enough")
    with pytest.raises(ValueError, match="enough"):
        e.search(engine.Board("international"), depth=12, info=info)
    # (Two threads may skip an iteration: a helper's deeper one taken.)
    assert seen[0] == 1 and seen[-1] >= 3 and len(seen) <= 3 and not e.searching
    assert e.search(engine.Board("international"), depth=4).depth == 4


def test_node_limit(searcher):
    result = searcher.search(engine.Board("international"), nodes=20000)
    assert result.nodes < 20000 + 5000 and result.best_move is not None


def test_movetime_is_kept():
    start = time.perf_counter()
    result = Engine(8).search(engine.Board("international"), movetime=0.3)
    assert time.perf_counter() - start < 1.0 and result.depth >= 4


def test_clock_never_runs_out():
    board = engine.Board("international")
    start = time.perf_counter()
    result = Engine(8).search(board, wtime=0.5, btime=0.5)
    assert time.perf_counter() - start < 0.5 and result.best_move is not None


def test_time_counts_from_when_the_move_was_asked_for():
    # A protocol passes the arrival of its `go` line: 0.8 s of a 1 s budget already gone, the
    # search has about 0.2 s left (without asked_at it would think the whole second).
    start = time.perf_counter()
    result = Engine(8).search(engine.Board("international"), movetime=1.0,
                              asked_at=time.monotonic() - 0.8)
    assert time.perf_counter() - start < 0.9 and result.best_move is not None
    assert result.time >= 0.8                 # reported from when it was asked for


def test_time_budgets():
    from engine.timeman import budget, ponder_budget
    assert budget(None) == (None, None)
    assert budget(10.0, movetime=0.1) == (None, 0.1)           # a fixed time is used to the end
    soft, hard = budget(60.0, 1.0)
    assert soft == pytest.approx(60 / 30 + 0.75) and hard == pytest.approx(4 * soft)
    soft, hard = budget(10.0, 0.0, movestogo=1)                  # the last move before the control
    assert hard == pytest.approx(10.0 * 0.5) and soft == hard
    soft, hard = budget(0.2, 0.0)                                # a nearly empty clock keeps a margin
    assert hard <= 0.2 - 0.02 and soft <= hard
    assert 0 <= budget(0.001)[1] <= 0.001
    assert ponder_budget(60.0, 1.0) == pytest.approx(2.75) and ponder_budget(None, movetime=0.5) == 0.5


def test_stop_ends_an_infinite_search_quickly():
    searcher = Engine(16)
    board = engine.Board("international")
    results = []
    thread = threading.Thread(target=lambda: results.append(searcher.search(board, infinite=True)))
    thread.start()
    time.sleep(0.3)
    sent = time.perf_counter()
    searcher.stop()
    thread.join(5)
    latency = time.perf_counter() - sent
    assert not thread.is_alive() and latency < 0.2        # measured ~1 ms; 50 ms is the bar
    assert results[0].best_move in board.legal_moves()


def test_bench_signature_is_deterministic():
    from engine.bench import run_bench
    first, _ = run_bench(depth=6, hash_mb=4, report=None)
    second, _ = run_bench(depth=6, hash_mb=4, report=None)
    assert first == second > 10000


def test_bad_limits_are_refused():
    with pytest.raises(ValueError):
        Engine(0)
    with pytest.raises(ValueError):
        Engine(8).search(engine.Board(), depth=-1)
    with pytest.raises(ValueError):
        Engine(8).search(engine.Board(), depth=0)
    with pytest.raises(ValueError):
        Engine(8).search(engine.Board(), nodes=0)
    with pytest.raises(ValueError):
        Engine(8).search(engine.Board(), multipv=0)
    with pytest.raises(TypeError):
        Engine(8).search("W:W31:B1")


def test_one_search_at_a_time_per_engine():
    searcher = Engine(8)
    board = engine.Board("international")
    thread = threading.Thread(target=lambda: searcher.search(board, infinite=True))
    thread.start()
    time.sleep(0.1)
    try:
        with pytest.raises(RuntimeError, match="already searching"):
            searcher.search(board, depth=2)
        with pytest.raises(RuntimeError, match="stop"):
            searcher.new_game()
        with pytest.raises(RuntimeError):
            searcher.resize(4)
    finally:
        searcher.stop()
        thread.join(5)
    searcher.new_game()                          # fine again once it has stopped
    assert searcher.search(board, depth=2).best_move is not None



def test_tables_either_side_of_a_huge_page_search_alike():
    # A table of 2 MB or more is 2 MB-aligned and asks the system for huge pages, a smaller one
    # is aligned to its 64-byte buckets (_memory.h); a search that fits both sees no difference.
    board = engine.Board("international")
    small = Engine(1).search(board, depth=6)
    big = Engine(64).search(board, depth=6)
    assert (small.nodes, small.score, small.best_move) == (big.nodes, big.score, big.best_move)
    resized = Engine(64)
    resized.resize(1)
    again = resized.search(board, depth=6)
    assert (again.nodes, again.score, again.best_move) == (big.nodes, big.score, big.best_move)


def test_probcut_and_early_reductions_act_only_where_the_game_asks():
    def nodes(variant, **switches):
        board = engine.Board(variant)
        return engine.Engine(16, **switches).search(board, depth=7).nodes
    off = {"probcut": False, "early_reductions": False}
    assert engine.Engine(16).probcut and engine.Engine(16).early_reductions   # the defaults
    plain = nodes("international", **off)
    assert nodes("international", probcut=True, early_reductions=False) != plain
    assert nodes("international", probcut=False, early_reductions=True) != plain
    both = nodes("international")
    assert both not in (plain, nodes("international", probcut=True, early_reductions=False))
    result = engine.Engine(16).search(engine.Board("international"), depth=7)
    assert result.best_move in engine.Board("international").legal_moves()
    # Superajedrez and Dipole do not ask for them: the same tree.
    for variant in ("superajedrez", "dipole"):
        assert nodes(variant, qs_promotions=True) == nodes(variant, **off)
    # Nor do Turkish and breakthrough (their rows' selective_search), where they lose; Gothic,
    # the other 8x8 orthogonal game, does, and so does breakthrough's parent, International.
    assert nodes("turkish") == nodes("turkish", **off)
    assert nodes("breakthrough") == nodes("breakthrough", **off)
    assert nodes("gothic-checkers") != nodes("gothic-checkers", **off)


def test_quiescence_crowns_men_when_asked():
    # White to move has only quiet moves; after 7-1 or 7-2 (crowning; the king-square table
    # picks the square) Black's man on 45 crowns too. Without the switch a depth-1 search
    # stands pat after White's crowning; with it quiescence plays 45-50.
    board = engine.Board("international", "W:W7,32,33:B20,41,45")
    plain = engine.Engine(16).search(board, depth=1)                 # off by default
    crowning = engine.Engine(16, qs_promotions=True).search(board, depth=1)
    assert len(plain.pv) == 1 and str(plain.pv[0]) in ("7-1", "7-2")
    assert len(crowning.pv) == 2 and str(crowning.pv[0]) in ("7-1", "7-2") \
        and str(crowning.pv[1]) == "45-50"
    assert crowning.score < plain.score          # Black's new king counts against White
    # From the start no man is near crowning: the same tree.
    start = engine.Board("international")
    assert engine.Engine(16, qs_promotions=True).search(start, depth=7).nodes \
        == engine.Engine(16).search(start, depth=7).nodes


def test_exchange_offers_are_the_quiet_moves_answered_by_a_recapture():
    # Black to move. 19-23 is taken by 29x18 and retaken by 12x23 or 13x22; 20-24 by 29x20,
    # retaken by 14x25 or 15x24. 16-21 can be taken (27x16) but not retaken: a sacrifice.
    board = engine.Board("international", "B:W27,29,32,33,35,36,37,38,39,40,41,42,43,44,46,47,48,"
                         "49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,19,20,21")
    assert sorted(str(m) for m in board._exchange_offers()) == ["19-23", "20-24"]
    # With a king on the board quiescence offers none (Scan's rule).
    with_king = engine.Board("international", "B:W27,29,32,33,35,36,37,38,39,40,41,42,43,44,46,"
                             "47,48,49,K50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,19,20,21")
    assert with_king._exchange_offers() == []


def test_quiescence_offers_exchanges_when_asked():
    start = engine.Board("international")
    plain = engine.Engine(16).search(start, depth=6)                      # off by default
    offers = engine.Engine(16, qs_exchanges=True).search(start, depth=6)
    assert offers.nodes > plain.nodes and start.is_legal(offers.best_move)
    # Kings on the board: no offers, the same tree.
    kings = engine.Board("international", "W:W31,32,33,K45:B18,19,20,K6")
    assert engine.Engine(16, qs_exchanges=True).search(kings, depth=6).nodes \
        == engine.Engine(16).search(kings, depth=6).nodes


# -- threads --------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant,fen", [("international", None), ("checkers", None),
                                         ("dipole", None), ("superajedrez", None),
                                         ("superdimensiones", "ICUWR")])
def test_threads_give_legal_moves_and_count_every_thread(variant, fen):
    board = engine.Board(variant, fen)
    one = engine.Engine(16).search(board, depth=6)
    many = engine.Engine(16, threads=3)
    result = many.search(board, depth=6)
    assert result.best_move in board.legal_moves() and result.depth == 6
    assert abs(result.score) < 30000
    # The helpers' nodes are counted, each thread's apart (on a loaded machine a helper may
    # hardly run before the main search ends, so no thread's count is asserted positive).
    assert len(result.thread_nodes) == 3 and sum(result.thread_nodes) == result.nodes
    assert one.thread_nodes == (one.nodes,)
    # A node budget counts every thread's nodes too (checked every thousand or so of the main
    # search's nodes, while the helpers run on: a budget, not an exact count), and a movetime
    # is kept.
    limited = many.search(board, nodes=20000)
    assert limited.best_move in board.legal_moves() and limited.nodes < 2 * 20000
    timed = many.search(board, movetime=0.2)
    assert timed.best_move in board.legal_moves() and timed.time < 5


def test_a_helper_may_finish_the_main_search_iteration_for_it():
    """With two threads the first thread to finish an iteration sets the pace: when a helper
    finishes first, the main search takes its result (Engine.handovers counts these). Searches
    are repeated until one took a helper's iteration (on a loaded machine the helper may seldom
    run); each result is a finished iteration of the asked depth whose line is legal, and every
    iteration reported is deeper than the one before."""
    positions = [engine.Board("international"), engine.Board("checkers"),
                 engine.Board("international",
                              "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26")]
    e = engine.Engine(16, threads=2)
    handed = 0
    for attempt in range(300):
        board = positions[attempt % len(positions)]
        depths = []
        result = e.search(board, depth=10, info=lambda info: depths.append(info.depth))
        assert result.depth == 10 and depths[-1] == 10
        assert depths == sorted(set(depths))
        line = board.copy()
        for move in result.pv:
            assert line.is_legal(move), (board.fen(), result.pv)
            line.push(move)
        assert result.pv[0] == result.best_move and abs(result.score) < 30000
        handed += e.handovers
        if handed:
            break
        e.new_game()
    assert handed > 0
    # MultiPV is the main search's alone: its lines are not handed over.
    many = e.search(engine.Board("international"), depth=8, multipv=3)
    assert e.handovers == 0 and len(many.lines) == 3 and many.depth == 8
    one = engine.Engine(16)
    one.search(engine.Board("checkers"), depth=10)
    assert one.handovers == 0


def test_one_thread_is_the_single_threaded_search():
    """Threads=1 changes nothing (the bench signature holds the same); going back from more
    threads to one gives the single-threaded tree again, node for node."""
    board = engine.Board("international")
    reference = engine.Engine(16).search(board, depth=9).nodes
    e = engine.Engine(16, threads=4)
    e.search(board, depth=5)
    e.threads = 1
    e.new_game()
    assert e.search(board, depth=9).nodes == reference


def test_threads_stop_at_once_and_reject_bad_values():
    import threading
    board = engine.Board("international")
    e = engine.Engine(16, threads=2)
    timer = threading.Timer(0.3, e.stop)
    timer.start()
    result = e.search(board, infinite=True)
    timer.join()
    assert result.best_move in board.legal_moves() and result.time < 10
    for bad in (0, 65, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="threads must be 1 to 64"):
            e.threads = bad
    assert e.threads == 2
    with pytest.raises(ValueError):
        engine.Engine(1, threads=0)


@pytest.fixture
def international_evaluation_kept():
    from conftest import evaluations_kept
    yield from evaluations_kept(["international"])


def test_an_engine_searches_as_a_new_one_after_the_evaluation_changes(international_evaluation_kept):
    # The search keeps a cache of static values; a new evaluation must not meet the old one's.
    from engine import weights
    board = engine.Board("international")
    for move in ["32-28", "18-23", "37-32", "12-18"]:
        board.push(move)
    used = Engine(16)
    learned = used.search(board, depth=9)
    weights.use_hand_set("international")
    used.new_game()                               # the table's scores are the old evaluation's
    again = used.search(board, depth=9)
    fresh = Engine(16).search(board, depth=9)
    assert (again.nodes, again.score, again.pv) == (fresh.nodes, fresh.score, fresh.pv)
    assert (again.nodes, again.score) != (learned.nodes, learned.score)


@pytest.mark.parametrize("variant", engine.variants())
def test_game_move_ordering_gives_the_search_loop_numbers(variant):
    """A game's order_moves (draughts) must number the moves exactly as the search's own loop
    over the per-move functions does (the TT move, captures by size, two killers, history):
    any difference would change the trees. The other families have none and use the loop."""
    from conftest import random_positions
    from engine._search import _move_orders
    rng = random.Random(5)
    draughts = engine.Board(variant).__class__.__module__.startswith("engine._draughts")
    compared = 0
    for board in random_positions(variant, 25, seed=3):
        count = len(board.legal_moves())
        history = [rng.randrange(1 << 20) for _ in range(4096)]
        for tt_move, killers in ((-1, (-1, -1)), (rng.randrange(count), (rng.randrange(count),
                                 rng.randrange(count))), (count - 1, (0, 0))):
            fast, generic = _move_orders(board, tt_move, killers, history)
            assert len(generic) == count
            if draughts:
                assert fast == generic, (board.fen(), tt_move, killers)
                compared += 1
            else:
                assert fast is None
    assert compared == (75 if draughts else 0)


# GameOps.key_after: the key of the position after a move, without making it (the search loads
# the children's table buckets early with it). Wrong keys would only make the loads useless, so
# they are checked here against make: every move of the tree, captures of men and kings and
# crownings among them.
KEY_AFTER_POSITIONS = [
    ("international", None, 4),
    ("international", "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46", 4),
    ("international", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38", 6),
    ("international", "W:WK31-K50:BK1-K20", 3),
    ("checkers", None, 6),
    ("spanish", None, 5),
    ("turkish", None, 4),
    ("canadian", None, 3),
]


@pytest.mark.parametrize("variant,fen,depth", KEY_AFTER_POSITIONS)
def test_key_after_agrees_with_make(variant, fen, depth):
    from engine._game import game_key_after_check
    board = engine.Board(variant, fen) if fen else engine.Board(variant)
    checked, wrong = game_key_after_check(board, depth)
    assert checked == sum(engine.perft(board, d) for d in range(1, depth + 1))
    assert wrong == 0


def test_key_after_is_absent_where_keys_hold_more_than_the_pieces():
    from engine._game import game_key_after_check
    # Chapinas' keys hold the piece numbers, Frisian's the king streaks: no early loads there.
    # The other families have no key_after yet (their searches load each bucket after the move).
    for variant in ("chapinas", "frisian", "dipole", "superajedrez", "superdimensiones"):
        assert game_key_after_check(engine.Board(variant), 2) == (0, 0)
