"""The web board's server (`python -m engine serve`): its JSON routes for every game, over a real
loopback socket, and the click model the page plays by (`webgame.click_moves`)."""

import json
import random
import time
import urllib.error
import urllib.request

import pytest

import engine
from engine import egdb, pdn, webgame
from engine.webgame import WebError
from engine.games import GAMES

pytest.importorskip("bottle", reason="the web board needs Bottle (pip install '.[web]')")
from engine import serve  # noqa: E402

SHORT_GAMES = {     # a position and a line that ends the game (used by the browser tests too)
    "international": ("W:W8,24:B31,16", ["8-3", "16-21", "3x37"]),      # a new king takes two
    "spanish": ("W:W27,2:B13,22", ["27-31", "13-10", "31x3"]),
    "checkers": ("B:W20,24:B25,7", ["7-11", "20-16", "11x27"]),
    "chapinas": ("W:W13.4,19.3:B28.5,23.6", ["19-25", "23-18", "13x33"]),
    "turkish": ("W:Wf7,d1:Bf5,f2", ["f7-f8", "f5-f4", "f8xf1"]),
    "gothic-checkers": ("W:Wg5,b1:Bf3,e3", ["b1-c2", "e3-d2", "c2xg4"]),
    "dipole": ("W:Wd8.2:Bc1.3", ["d8-off1", "c1-off1", "d8-off1"]),
    "superajedrez": ("7k/5K2/8/8/8/8/8/8[RNn] w - - 0 1", ["f7g6", "N@a1", "R@a8"]),
    "superdimensiones": ("d5/6/3c2/2a1a1/6/a5 a MCUWR B1 0 0", ["a1-b2", "huff-c3", "d4-c3"]),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tables = tmp_path_factory.mktemp("egdb")
    egdb.build("checkers", 3, tables, report=None)
    httpd, lobby, url = serve.start(port=0, egdb=tables, hash_mb=4)
    yield lobby, url
    httpd.shutdown()
    lobby.close_all()


def call(url, method, path, data=None, headers=None):
    """(status, payload) of one request; JSON payloads decoded. A POST sends JSON (an empty
    object when no data is given), as the page does."""
    if data is None and method != "GET":
        data = {}
    body = None if data is None else (data if isinstance(data, bytes) else json.dumps(data).encode())
    request = urllib.request.Request(url + path.lstrip("/"), data=body, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, raw, kind = response.status, response.read(), response.headers["Content-Type"]
    except urllib.error.HTTPError as error:
        status, raw, kind = error.code, error.read(), error.headers["Content-Type"]
    return status, (json.loads(raw) if "json" in (kind or "") else raw.decode())


def new_game(url, variant, fen=None, engine_seats=(), movetime=1.0):
    status, made = call(url, "POST", "/api/games", {"variant": variant, "fen": fen,
                                                    "engine": list(engine_seats), "movetime": movetime})
    assert status == 200, made
    return made["id"], made["state"]


def wait_for(url, key, test, seconds=60.0):
    """Poll the game's state until ``test(state)`` holds (generous: the machine may be busy)."""
    deadline = time.monotonic() + seconds
    while True:
        status, state = call(url, "GET", f"/api/games/{key}")
        assert status == 200, state
        if test(state):
            return state
        assert time.monotonic() < deadline, f"no such state within {seconds} s: {state['line']}"
        time.sleep(0.1)


def test_the_page_and_its_files_are_served(server):
    _, url = server
    status, page = call(url, "GET", "/")
    assert status == 200 and '<div id="board">' in page and "/static/board.js" in page
    for name, marker in (("board.js", "function click("), ("board.css", "#board")):
        status, text = call(url, "GET", f"/static/{name}")
        assert status == 200 and marker in text
    assert call(url, "GET", "/static/../serve.py")[0] == 404


def test_variants_lists_every_game_with_its_seats_and_cards(server):
    _, url = server
    status, info = call(url, "GET", "/api/variants")
    assert status == 200
    by_name = {v["name"]: v for v in info["variants"]}
    assert list(by_name) == list(GAMES)
    assert list(by_name["checkers"]["seats"]) == ["black", "white"]          # Black moves first
    assert list(by_name["international"]["seats"]) == ["white", "black"]
    assert set(by_name["superdimensiones"]["seats"]) == {"a", "b", "c", "d"}
    assert by_name["superajedrez"]["record"] == "PGN"
    assert by_name["checkers"]["tables"] and not by_name["international"]["tables"]
    assert [c["name"] for c in info["cards"]] == [
        "Dimensión (dimension)", "Estrategia (strategy)", "Táctica (tactics)",
        "Formación (formation)", "Poder (power)"]
    assert info["cards"][1]["options"]["C"] == "conquistar (conquer)"
    assert [sorted(c["options"]) for c in info["cards"]] == [["I", "M"], ["C", "D"], ["A", "U"],
                                                               ["E", "W"], ["R", "S"]]


@pytest.mark.parametrize("variant", list(GAMES))
def test_every_game_plays_through_the_routes(server, variant):
    """Moves from the state's own list, a take-back, going back and forth, the record read
    back, and the close: for every game, people on both sides."""
    _, url = server
    key, state = new_game(url, variant)
    board = engine.Board(variant)
    assert state["fen"] == board.fen() and state["line"] == [] and state["outcome"] is None
    assert sorted(m["move"] for m in state["moves"]) == sorted(str(m) for m in board.legal_moves())
    assert state["svg"].startswith("<svg") and "data-square=" in state["svg"]
    rng = random.Random(variant)
    for _ in range(6):
        if state["outcome"]:
            break
        move = rng.choice(state["moves"])["move"]
        status, state = call(url, "POST", f"/api/games/{key}/move", {"move": move})
        assert status == 200, state
        board.push(move)
        assert state["fen"] == board.fen()
        assert state["line"] == [str(m) for m in board.move_stack]
    played = list(state["line"])
    status, state = call(url, "POST", f"/api/games/{key}/undo")
    assert status == 200 and state["line"] == played[:-1]
    status, state = call(url, "POST", f"/api/games/{key}/goto", {"ply": 1})
    assert status == 200 and state["cursor"] == 1 and state["line"] == played[:-1]
    first = engine.Board(variant)
    first.push(played[0])
    assert state["fen"] == first.fen()
    status, state = call(url, "POST", f"/api/games/{key}/goto", {"ply": len(played) - 1})
    assert state["cursor"] == len(played) - 1
    status, text = call(url, "GET", f"/api/games/{key}/record")
    assert status == 200
    game = pdn.read_game(text, strict=True)
    assert game.variant == variant and [str(m) for m in game.moves()] == played[:-1]
    assert call(url, "POST", f"/api/games/{key}/close")[0] == 200
    assert call(url, "GET", f"/api/games/{key}")[0] == 404


@pytest.mark.parametrize("variant", list(SHORT_GAMES))
def test_a_short_game_ends_with_who_won_and_why(server, variant):
    _, url = server
    fen, line = SHORT_GAMES[variant]
    key, state = new_game(url, variant, fen)
    for move in line:
        status, state = call(url, "POST", f"/api/games/{key}/move", {"move": move})
        assert status == 200, state
    board = engine.Board(variant, fen)
    for move in line:
        board.push(move)
    outcome = board.outcome()
    assert state["outcome"] == {"result": outcome.result(), "reason": outcome.reason(),
                                "winner": None if outcome.winner is None else str(outcome.winner),
                                "subgames": list(outcome.subgames) if outcome.subgames else None,
                                "on_time": False}
    assert state["moves"] == []
    status, refused = call(url, "POST", f"/api/games/{key}/move", {"move": line[-1]})
    assert status == 400 and refused["error"] == "the game is over"
    call(url, "POST", f"/api/games/{key}/close")


def test_super_dimensiones_reports_its_sub_games(server):
    _, url = server
    fen, line = SHORT_GAMES["superdimensiones"]
    key, state = new_game(url, "superdimensiones", fen)
    assert state["mover"] == "a" and state["cards"] == "MCUWR"
    status, state = call(url, "POST", f"/api/games/{key}/move", {"move": line[0]})
    # The huff choice belongs to player 2's team A2 (c), and is clicked on the man removed.
    assert state["mover"] == "c"
    assert sorted((m["move"], m["paths"]) for m in state["moves"]) == [
        ("huff-c3", [["c3"]]), ("huff-e3", [["e3"]])]
    for move in line[1:]:
        status, state = call(url, "POST", f"/api/games/{key}/move", {"move": move})
    assert state["outcome"]["subgames"] == ["1", "1"]
    assert "sub-game A won by player 1" in state["outcome"]["reason"]
    call(url, "POST", f"/api/games/{key}/close")


def test_bad_requests_get_a_message_and_change_nothing(server):
    _, url = server
    status, answer = call(url, "POST", "/api/games", {"variant": "chess"})
    assert status == 400 and "unknown game 'chess'" in answer["error"]
    status, answer = call(url, "POST", "/api/games", {"variant": "international", "fen": "W:W99"})
    assert status == 400 and answer["error"]
    status, answer = call(url, "POST", "/api/games", {"variant": "international", "engine": ["red"]})
    assert status == 400 and "no seat red" in answer["error"]
    status, answer = call(url, "POST", "/api/games", {"variant": "international", "engine": "black"})
    assert status == 400 and "must be a list of names" in answer["error"]
    status, answer = call(url, "POST", "/api/games", {"variant": "international", "engine": [1]})
    assert status == 400 and "must be a list of names" in answer["error"]
    status, answer = call(url, "POST", "/api/games", {"variant": "international", "movetime": 0})
    assert status == 400 and "between 0.05 and 60" in answer["error"]
    status, answer = call(url, "POST", "/api/games", b"{not json")
    assert status == 400 and answer["error"] == "the request is not JSON"
    status, answer = call(url, "POST", "/api/games", b"[1, 2]")
    assert status == 400 and answer["error"] == "the request must be a JSON object"
    key, state = new_game(url, "international")
    for move in ("32-26", "", "x", "99-98", "31-26 extra"):
        status, answer = call(url, "POST", f"/api/games/{key}/move", {"move": move})
        assert status == 400 and answer["error"], move
    status, answer = call(url, "POST", f"/api/games/{key}/move", {"move": 3228})
    assert status == 400 and answer["error"] == "no move given"
    for ply in (-1, 1, "0", None):
        status, answer = call(url, "POST", f"/api/games/{key}/goto", {"ply": ply})
        assert status == 400 and "ply must be between 0 and 0" in answer["error"]
    status, answer = call(url, "POST", f"/api/games/{key}/undo")
    assert status == 400 and answer["error"] == "no move to take back"
    status, answer = call(url, "POST", f"/api/games/{key}/settings", {"multipv": 9, "movetime": 2})
    assert status == 400 and "lines must be between 1 and 5" in answer["error"]
    status, after = call(url, "GET", f"/api/games/{key}")
    assert after["fen"] == state["fen"] and after["line"] == [] and after["movetime"] == 1.0
    status, answer = call(url, "GET", "/api/games/nosuchgame")
    assert status == 404 and "no game 'nosuchgame'" in answer["error"]
    assert call(url, "POST", "/api/games/nosuchgame/move", {"move": "32-28"})[0] == 404
    status, answer = call(url, "POST", "/api/load", {"text": "  "})
    assert status == 400 and answer["error"] == "the game file is empty"
    for clock in ([0.5, 0], [60, -1], [60], "3+2", [True, 0], [10**400, 0], [60, 61]):
        status, answer = call(url, "POST", "/api/games", {"variant": "international",
                                                          "clock": clock})
        assert status == 400 and "a clock is [minutes in seconds, increment" in answer["error"]
    for depth in (0, 31, "3", 2.5):
        status, answer = call(url, "POST", f"/api/games/{key}/review", {"depth": depth})
        assert status == 400 and answer["error"], depth
    call(url, "POST", f"/api/games/{key}/close")


def test_a_file_of_which_nothing_can_be_read_is_refused(server):
    """A file read in part loads up to its first error, with a warning; one of which no move
    can be read is refused, and the page keeps its game."""
    _, url = server
    status, answer = call(url, "POST", "/api/load", {"text": "1. 32-99 19-23 *",
                                                     "variant": "international"})
    assert status == 400
    assert answer["error"].startswith("no move of this game file could be read: ")
    assert "32-99" in answer["error"]


def test_clocks_charge_the_mover_add_the_increment_and_a_flag_fall_ends_the_game(monkeypatch):
    from engine.webgame import WebGame
    now = [1000.0]                                    # the players' clocks read this, not time
    monkeypatch.setattr(webgame, "clock_now", lambda: now[0])
    game = WebGame("international", clock=[30, 2])
    try:
        now[0] += 5                                   # White thinks for five seconds
        game.play("32-28")
        clock = game.state()["clock"]
        assert clock == {"base": 30, "increment": 2, "running": "black",
                         "left": {"white": 27, "black": 30}}
        now[0] += 10
        assert game.state()["clock"]["left"] == {"white": 27, "black": 20}
        now[0] += 30                                  # Black's flag falls
        state = game.state()
        assert state["outcome"] == {"result": "1-0", "winner": "white", "on_time": True,
                                    "reason": "Black lost on time", "subgames": None}
        assert state["moves"] == [] and state["clock"]["left"] == {"white": 27, "black": 0}
        assert state["clock"]["running"] is None
        with pytest.raises(WebError, match="the game is over"):
            game.play("19-23")
        record = game.record()
        assert '[Result "2-0"]' in record and '[Termination "time forfeit"]' in record
        assert '[TimeControl "30+2"]' in record
        # A take-back goes back to the clocks of that moment, and the game goes on.
        game.undo()
        assert game.state()["outcome"] is None and game.line == []
        assert game.state()["clock"]["left"] == {"white": 30, "black": 30}
    finally:
        game.close()


def test_a_side_that_cannot_win_draws_when_the_other_flag_falls():
    from engine.webgame import WebGame
    # Black has a king and a knight: it cannot mate, so White's flag fall is a draw.
    game = WebGame("superajedrez", "4k3/8/8/2n5/8/8/8/R3K3[] w - - 0 1", clock=[10, 0])
    try:
        game.turn_began -= 11
        outcome = game.state()["outcome"]
        assert outcome["result"] == "1/2-1/2" and outcome["reason"] == \
            "White ran out of time, and Black cannot win: a draw"
    finally:
        game.close()


def test_super_dimensiones_players_lose_on_time_as_players():
    from engine.webgame import WebGame
    game = WebGame("superdimensiones", clock=[5, 0])          # team a (player 1) to move
    try:
        game.turn_began -= 6
        outcome = game.state()["outcome"]
        assert (outcome["result"], outcome["reason"]) == ("0-1", "player 1 lost on time")
    finally:
        game.close()


def test_the_engine_plays_on_its_clock():
    from engine.webgame import WebGame
    game = WebGame("checkers", engine_seats=["black"], clock=[20, 0])
    try:
        for _ in range(300):
            if game.line:
                break
            time.sleep(0.05)
        clock = game.state()["clock"]
        assert len(game.line) == 1 and clock["running"] == "white"
        assert 0 < clock["left"]["black"] < 20 and game.state()["analysis"] is None
    finally:
        game.close()


def test_the_state_numbers_the_moves_and_counts_the_captures():
    from engine.webgame import WebGame
    game = WebGame("international", "W:W28,33:B22,12,13,1", moves=["28x19", "1-7"])
    try:
        state = game.state()
        assert state["numbered"] == [{"number": "1.", "text": "28x19"},
                                     {"number": None, "text": "1-7"}]
        assert state["captured"] == {"white": [], "black": ["man"] * 3}
    finally:
        game.close()
    game = WebGame("superajedrez", "4k3/8/8/8/8/8/8/4K2R[R] w KQ - 0 1",
                   moves=["R@a2", "e8d8", "e1g1"])
    try:
        assert [m["text"] for m in game.state()["numbered"]] == ["0-Ta2", "Rd8", "0-0"]
    finally:
        game.close()


def test_a_review_gives_annotates_scores_from_whites_side():
    """The page's review graph draws these numbers: each move's score after it as annotate
    finds it (to a fixed depth here, so that both runs search alike), from White's side."""
    from engine import annotate, pdn
    from engine.webgame import WebGame
    line = ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14"]
    game = WebGame("international", moves=line)
    try:
        game.start_review(depth=4)
        for _ in range(600):
            if game.state()["review"]["finished"]:
                break
            time.sleep(0.05)
        review = game.state()["review"]
    finally:
        game.close()
    board = engine.Board("international")
    record = pdn.Game({}, "international", board.fen(),
                      [pdn.Node(board.push(m)) for m in line], "*")
    expected = annotate.analyse_game(record, engine.Engine(hash_mb=16), None, depth=4)
    assert review["done"] == review["total"] == 6
    assert [(m["ply"], m["move"], m["white"], m["mark"]) for m in review["moves"]] == [
        (e.ply + 1, e.move, e.after if e.mover == 0 else -e.after, e.mark) for e in expected.moves]


def test_the_engine_answers_a_move_and_refuses_to_be_overtaken(server):
    _, url = server
    key, state = new_game(url, "international", engine_seats=["black"], movetime=0.05)
    status, state = call(url, "POST", f"/api/games/{key}/move", {"move": "32-28"})
    assert status == 200
    state = wait_for(url, key, lambda s: len(s["line"]) == 2)
    assert state["mover"] == "white" and not state["thinking"]
    board = engine.Board("international")
    for move in state["line"]:
        board.push(move)                              # the engine's move was legal
    # Take back: back to the position the person is to move in (both plies).
    status, state = call(url, "POST", f"/api/games/{key}/undo")
    assert state["line"] == [] and state["mover"] == "white"
    # The engine to move: a person's move is refused.
    status, state = call(url, "POST", f"/api/games/{key}/settings", {"engine": ["white", "black"]})
    status, answer = call(url, "POST", f"/api/games/{key}/move", {"move": "32-28"})
    assert status == 400 and "the engine is to move" in answer["error"]
    state = wait_for(url, key, lambda s: len(s["line"]) >= 4)      # engine against engine
    call(url, "POST", f"/api/games/{key}/close")


def test_analysis_reports_lines_of_the_position_shown(server):
    _, url = server
    key, state = new_game(url, "checkers")
    status, state = call(url, "POST", f"/api/games/{key}/settings", {"analyse": True, "multipv": 3})
    assert state["analysing"] and state["multipv"] == 3
    state = wait_for(url, key, lambda s: s["analysis"] and s["analysis"].get("depth", 0) >= 4)
    lines = state["analysis"]["lines"]
    assert len(lines) == 3 and all(line["pv"] for line in lines)
    assert {line["pv"][0] for line in lines} <= {m["move"] for m in state["moves"]}
    assert 'class="arrow"' in state["svg"]                          # the best move drawn
    status, state = call(url, "POST", f"/api/games/{key}/move", {"move": lines[0]["pv"][0]})
    state = wait_for(url, key, lambda s: s["analysis"] and s["analysis"].get("depth", 0) >= 2)
    after = engine.Board("checkers")
    after.push(state["line"][0])
    assert {line["pv"][0] for line in state["analysis"]["lines"]} <= {str(m) for m in after.legal_moves()}
    call(url, "POST", f"/api/games/{key}/close")


def test_a_game_file_loads_with_its_moves(server):
    _, url = server
    text = '[GameType "21"]\n[FEN "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n'
    status, made = call(url, "POST", "/api/load", {"text": text})
    assert status == 200, made
    assert made["state"]["variant"] == "checkers" and made["warnings"] == []
    assert made["state"]["line"] == ["11-15", "23-19", "8-11", "22-17"] and made["state"]["cursor"] == 4
    status, made = call(url, "POST", "/api/load", {"text": "1. 32-28 19-23 2. 28-99 *",
                                                   "variant": "international"})
    assert status == 200 and made["state"]["line"] == ["32-28", "19-23"]
    assert made["warnings"] and "28-99" in made["warnings"][0]


def test_endgame_tables_value_the_position_and_each_move(server):
    _, url = server
    key, state = new_game(url, "checkers", "B:WK10:BK1,K3")
    tables = state["tables"]
    board = engine.Board("checkers", "B:WK10:BK1,K3")
    probe = egdb.Tables(server[0].egdb, "checkers").probe(board)
    assert (tables["result"], tables["plies"]) == (probe.result, probe.plies) == ("win", tables["plies"])
    assert sorted(m["move"] for m in tables["moves"]) == sorted(str(m) for m in board.legal_moves())
    best = min((m for m in tables["moves"] if m["result"] == "win"), key=lambda m: m["plies"])
    assert best["plies"] == probe.plies
    call(url, "POST", f"/api/games/{key}/close")


def test_a_game_no_page_asks_about_stops_searching(server, monkeypatch):
    lobby, url = server
    key, state = new_game(url, "international")
    call(url, "POST", f"/api/games/{key}/settings", {"analyse": True})
    wait_for(url, key, lambda s: s["analysis"] is not None)
    game = lobby.get(key)
    monkeypatch.setattr(webgame, "IDLE_PAUSE", 0.0)
    time.sleep(0.05)
    game.idle()
    deadline = time.monotonic() + 30
    while game._engine.searching:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(1.5)
    assert not game._engine.searching                             # and it stays stopped
    monkeypatch.setattr(webgame, "IDLE_PAUSE", 90.0)
    wait_for(url, key, lambda s: s["analysis"] is not None)       # a page asks: it goes on
    monkeypatch.setattr(serve, "CLOSE_AFTER", 0.0)
    time.sleep(0.05)
    lobby.reap()
    assert lobby.get(key) is None and call(url, "GET", f"/api/games/{key}")[0] == 404


def test_several_pages_play_at_once(server):
    _, url = server
    keys = [new_game(url, "checkers", engine_seats=["black", "white"], movetime=0.05)[0] for _ in range(3)]
    for key in keys:
        wait_for(url, key, lambda s: len(s["line"]) >= 3)
    for key in keys:
        call(url, "POST", f"/api/games/{key}/close")


# -- the click model -----------------------------------------------------------------------

def clicked(moves, tokens):
    """The moves whose paths the tokens follow to the end (the page's rule, `advance`)."""
    out = set()
    for move in moves:
        for path in move["paths"]:
            if not path or path[0] != tokens[0]:
                continue
            at, ok = 1, True
            for i, token in enumerate(tokens[1:], 1):
                if move["skip"] and i == len(tokens) - 1 and token == path[-1]:
                    at = len(path)                  # the end completes it
                elif move["skip"] and token in path[at:]:
                    at = path.index(token, at) + 1
                elif not move["skip"] and at < len(path) and path[at] == token:
                    at += 1
                else:
                    ok = False
                    break
            if ok and at == len(path):
                out.add(move["move"])
    return out


@pytest.mark.parametrize("variant", list(GAMES))
def test_every_move_is_played_by_its_clicks(variant):
    """In random positions of every game, clicking any path of a move ends on that move,
    alone or among moves that end alike (then the page lists them), and the endpoints of a
    capture suffice."""
    rng = random.Random(f"clicks {variant}")
    board = engine.Board(variant)
    for _ in range(40):
        if board.is_game_over():
            break
        moves = webgame.click_moves(board)
        assert sorted(m["move"] for m in moves) == sorted(str(m) for m in board.legal_moves())
        for move in moves:
            assert board.parse_move(move["move"])
            for path in move["paths"]:
                if not path:
                    continue
                assert move["move"] in clicked(moves, path)
                if move["skip"]:
                    assert move["move"] in clicked(moves, [path[0], path[-1]])
        board.push(rng.choice(board.legal_moves()))


def test_flying_king_captures_have_every_landing_path():
    board = engine.Board("international", "W:WK46:B41,32,23,19,9,8")
    assert board.landing_paths("46x28") == [("46", "37", "28")]
    board = engine.Board("international", "W:W28,33:B22,12,13")
    assert board.landing_paths("28x19") == [("28", "17", "8", "19")]
    assert board.landing_paths(board.legal_moves()[0]) == [("28", "17", "8", "19")]
    with pytest.raises(engine.IllegalMoveError):
        board.landing_paths("33-29")
    board = engine.Board("international", "W:WK1:B12,23,34")
    paths = board.landing_paths("1x45")
    assert len(paths) >= 1 and all(p[0] == "1" and p[-1] == "45" for p in paths)


def test_special_moves_have_their_own_controls():
    dipole = {m["move"]: m for m in webgame.click_moves(engine.Board("dipole", "W:We1.10,e3.2:Bh8.12"))}
    assert dipole["e1-off5"]["paths"] == [["e1", "off"]] and "bear off 5" in dipole["e1-off5"]["label"]
    chess = {m["move"]: m for m in webgame.click_moves(engine.Board("superajedrez"))}
    assert chess["Q@d1"]["paths"] == [["@Q", "d1"]]
    castling = {m["move"]: m for m in webgame.click_moves(
        engine.Board("superajedrez", "4k3/8/8/8/8/8/8/4K2R[R] w KQ - 0 1"))}
    assert castling["e1g1"]["paths"] == castling["e1g1r"]["paths"] == [["e1", "g1"]]
    assert clicked(castling.values(), ["e1", "g1"]) == {"e1g1", "e1g1r"}     # the page asks which
    sd = {m["move"]: m for m in webgame.click_moves(engine.Board("superdimensiones", "dc4/6/3c1c/c1a3/6/1b4 c MDUWR - 0 0"))}
    assert sd["d4-e3+c5"]["paths"] == [["d4", "e3", "c5"]] and "a new man on c5" in sd["d4-e3+c5"]["label"]
    assert sd["d4xb2"]["paths"] == [["d4", "b2"]] and sd["d4xb2"]["skip"]
    ally = {m["move"]: m for m in webgame.click_moves(engine.Board("superdimensiones", "5c/6/2b3/1b4/b5/a5 a ICAWR - 0 0"))}
    assert ally["a1>a3>c3"]["paths"] == [["a1", "a3", "c3"]] and not ally["a1>a3>c3"]["skip"]
    assert clicked(ally.values(), ["a1", "a3"]) == {"a1>a3"}


def test_the_record_names_the_engine_only_for_the_side_it_plays():
    """Super Dimensiones' record has two players, each of two teams: the engine's name goes to
    a player whose teams it holds, not to both whenever it holds any."""
    from engine.webgame import WebGame
    game = WebGame("superdimensiones", None, ["a", "b"], 0.05)
    try:
        text = game.record()
    finally:
        game.close()
    assert '[White "Dimensiones"]' in text and '[Black "?"]' in text
    game = WebGame("checkers", None, ["white"], 0.05)
    try:
        assert '[White "Dimensiones"]' in game.record() and '[Black "?"]' in game.record()
    finally:
        game.close()


def test_a_family_without_a_face_of_its_own_gets_the_plain_one(monkeypatch):
    """The web board's per-family answers are a table with a default: a family it does not know
    (a plugin's) gets two seats and moves clicked from their two squares, not another family's
    code."""
    from engine import games
    record = games.game("dipole")
    monkeypatch.setitem(games.GAMES, "dipole", games.Game("dipole", "unknown", record.board))
    assert webgame.face("dipole").__class__ is webgame.Face
    assert webgame.seats("dipole") == {"white": "White", "black": "Black"}
    moves = webgame.click_moves(engine.Board("dipole", "W:We1.10,e3.2:Bh8.12"))
    by_text = {m["move"]: m for m in moves}
    assert by_text["e1-f2"]["paths"] == [["e1", "f2"]] and not by_text["e1-f2"]["skip"]


def test_random_requests_never_break_the_server(server):
    """Any JSON a page could send gets 200 or a 400 with a message, never a server error."""
    pytest.importorskip("hypothesis", reason="property tests need hypothesis (pip install '.[test]')")
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    _, url = server
    key, _ = new_game(url, "international")
    values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True)
                          | st.text(max_size=12), lambda inner: st.lists(inner, max_size=3), max_leaves=6)
    fields = st.dictionaries(st.sampled_from(["variant", "fen", "engine", "movetime", "move", "ply",
                                              "analyse", "multipv", "text"]), values, max_size=4)
    routes = st.sampled_from(["/api/games", f"/api/games/{key}/move", f"/api/games/{key}/goto",
                              f"/api/games/{key}/settings", "/api/load"])

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(routes, fields)
    def check(route, body):
        status, answer = call(url, "POST", route, body)
        assert status in (200, 400), (route, body, answer)
        if status == 400:
            assert isinstance(answer["error"], str) and answer["error"]
        elif route == "/api/games" or route == "/api/load":
            call(url, "POST", f"/api/games/{answer['id']}/close")
        else:
            call(url, "POST", f"/api/games/{key}/settings", {"engine": [], "analyse": False})
    check()
    call(url, "POST", f"/api/games/{key}/close")


def test_the_command_line_serves_until_interrupted():
    import signal
    import subprocess
    import sys
    # Ctrl-C as a terminal sends it. A test run started in the background by a shell inherits
    # SIGINT ignored, and so would the server: it gets the default action back first.
    process = subprocess.Popen([sys.executable, "-m", "engine", "serve", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        line = process.stdout.readline()
        assert line.startswith("Dimensiones web board on http://127.0.0.1:"), line
        url = line.split()[4]
        status, info = call(url, "GET", "/api/variants")
        assert status == 200 and len(info["variants"]) == len(GAMES)
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=30)
        assert process.returncode == 0 and "stopping" in out
    finally:
        process.kill()


def test_a_port_in_use_is_a_clear_error():
    import socket
    import subprocess
    import sys
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "engine", "serve", "--port", str(port)],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and f"cannot listen on 127.0.0.1:{port}" in done.stdout


# -- safe to leave running -------------------------------------------------------------------------

def raw_request(url, text: bytes, timeout=30.0) -> tuple[int, bytes]:
    """Send ``text`` as the whole request on a socket of its own: (status, body)."""
    import socket
    host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=timeout) as conn:
        conn.sendall(text)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def test_a_request_never_opens_a_path_of_the_server(server, tmp_path):
    _, url = server
    real = tmp_path / "real.pdn"
    real.write_text('[GameType "20"]\n1. 32-28 19-23 *\n')
    answers = []
    for text in ("/etc/passwd", str(real), str(tmp_path / "missing.pdn"), "x\0.pdn"):
        status, made = call(url, "POST", "/api/load", {"text": text, "variant": "international"})
        answers.append((status, made))
        # Read as a game file: its one word is no move, so the file is refused with an error
        # that quotes the text itself; nothing says whether such a file exists.
        assert status == 400 and "no move of this game file could be read" in made["error"], \
            (text, made)
        assert "No such file" not in made["error"] and "root:" not in json.dumps(made)
    assert "is not a square" in answers[0][1]["error"]
    status, answer = call(url, "POST", "/api/load", {"text": "1. 32-28 *", "variant": "../x"})
    assert status == 400 and "unknown game" in answer["error"]
    for name in ("../serve.py", "..%2Fserve.py", "%2e%2e/serve.py", "index.html/../../serve.py"):
        status, answer = call(url, "GET", f"/static/{name}")
        assert status == 404, name


def test_only_json_from_the_page_itself_changes_anything(server):
    lobby, url = server
    before = len(lobby.games)
    for headers, want in (({"Content-Type": "text/plain"}, 415),
                          ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
                          ({"Origin": "http://attacker.example"}, 403),
                          ({"Origin": "null"}, 403),
                          ({"Sec-Fetch-Site": "cross-site"}, 403)):
        status, answer = call(url, "POST", "/api/games", {"variant": "international"}, headers)
        assert status == want and answer["error"], headers
    assert len(lobby.games) == before
    own = url.rstrip("/")
    status, made = call(url, "POST", "/api/games", {"variant": "international"},
                        {"Origin": own, "Sec-Fetch-Site": "same-origin"})
    assert status == 200
    status, answer = call(url, "POST", f"/api/games/{made['id']}/close", None,
                          {"Content-Type": "text/plain"})
    assert status == 415 and made["id"] in lobby.games
    assert call(url, "POST", f"/api/games/{made['id']}/close")[0] == 200


def test_only_the_servers_own_host_names_are_served(server):
    _, url = server
    port = url.rstrip("/").rsplit(":", 1)[1]
    for host in ("attacker.example", f"attacker.example:{port}", "127.0.0.2", "[::2]", ""):
        status, body = raw_request(url, f"GET /api/variants HTTP/1.1\r\nHost: {host}\r\n"
                                        f"Connection: close\r\n\r\n".encode())
        assert status == 403 and b"does not answer for host" in body, host
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}", "localhost",
                 f"[::1]:{port}"):
        status, _ = raw_request(url, f"GET /api/variants HTTP/1.1\r\nHost: {host}\r\n"
                                     f"Connection: close\r\n\r\n".encode())
        assert status == 200, host
    assert serve.allowed_hosts("0.0.0.0", ["board.lan"]) == {"127.0.0.1", "localhost", "[::1]",
                                                              "board.lan"}
    assert "[::1]" in serve.allowed_hosts("::1")


def test_hostile_bodies_get_a_400_or_413(server):
    lobby, url = server
    before = len(lobby.games)
    status, answer = call(url, "POST", "/api/games",
                          b'{"variant": "international", "movetime": 1' + b"0" * 400 + b"}")
    assert status == 400 and "between 0.05 and 60" in answer["error"]
    status, answer = call(url, "POST", "/api/games", b'{"a":' * 3000)
    assert status == 400 and answer["error"]
    status, answer = call(url, "POST", "/api/games", b"[" * 100000 + b"]" * 100000)
    assert status == 400 and answer["error"]
    status, answer = call(url, "POST", "/api/games", {"variant": "international",
                                                      "movetime": 1e308})
    assert status == 400
    status, _ = raw_request(url, b"POST /api/load HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                 b"Content-Type: application/json\r\nContent-Length: "
                                 + str(serve.MAX_BODY + 1).encode() + b"\r\nConnection: close"
                                 b"\r\n\r\n" + b" " * 1000)
    assert status == 413
    assert len(lobby.games) == before


def test_hostile_game_files_read_in_bounded_time_and_memory(server):
    """The three slow game files found by fuzzing: each answers in linear time (seconds at
    most where they took minutes or gigabytes) and says what it refused."""
    _, url = server
    for text, said in (("1. 32-28 (" + "* " * 16000, "inside a variation"),
                       ("1. 32-28 " + "(32-28 " * 10 ** 5 + ")" * 10 ** 5, "nested deeper than"),
                       ("1. 32-28 " + "{x} " * 10 ** 5 + "*", None)):
        status, made = call(url, "POST", "/api/load", {"text": text, "variant": "international"})
        assert status == 200 and made["state"]["line"] == ["32-28"]
        if said:
            assert said in made["warnings"][0]
        call(url, "POST", f"/api/games/{made['id']}/close")


def test_the_game_limit_holds_under_simultaneous_requests(monkeypatch):
    import concurrent.futures
    monkeypatch.setattr(serve, "MAX_GAMES", 5)
    httpd, lobby, url = serve.start(port=0, hash_mb=1)
    try:
        def make(_):
            return call(url, "POST", "/api/games", {"variant": "checkers"})[0]
        with concurrent.futures.ThreadPoolExecutor(40) as pool:
            statuses = list(pool.map(make, range(40)))
        # Every connection was answered (none reset), and exactly the limit was made.
        assert statuses.count(200) == 5 and statuses.count(400) == 35
        assert len(lobby.games) == 5
    finally:
        httpd.shutdown()
        lobby.close_all()


def test_half_sent_requests_hold_no_thread(monkeypatch):
    import socket
    import threading
    httpd, lobby, url = serve.start(port=0, hash_mb=1)
    host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
    held = []
    try:
        threads_before = threading.active_count()
        for _ in range(60):
            conn = socket.create_connection((host, int(port)), timeout=10)
            conn.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100"
                         b"\r\nContent-Type: application/json\r\n\r\n{")
            held.append(conn)
        # The page still gets its answers, and no thread was started per connection.
        status, info = call(url, "GET", "/api/variants")
        assert status == 200 and info["variants"]
        assert threading.active_count() <= threads_before + serve.THREADS
    finally:
        for conn in held:
            conn.close()
        httpd.shutdown()
        lobby.close_all()


def test_idle_connections_are_dropped(monkeypatch):
    import socket
    monkeypatch.setattr(serve, "IDLE_TIMEOUT", 1)
    httpd, lobby, url = serve.start(port=0, hash_mb=1)
    host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
    try:
        with socket.create_connection((host, int(port)), timeout=60) as conn:
            conn.sendall(b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\n")   # never ends
            started = time.monotonic()
            assert conn.recv(1000) == b""          # the server closed it
            assert time.monotonic() - started < 50
    finally:
        httpd.shutdown()
        lobby.close_all()


def test_a_bad_port_is_a_clear_error():
    import subprocess
    import sys
    for port in ("70000", "-1", "80x", "\u00b2"):
        done = subprocess.run([sys.executable, "-m", "engine", "serve", "--port", port],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and "a port is a number from 0 to 65535" in done.stderr
        assert "Traceback" not in done.stderr
