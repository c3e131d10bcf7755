"""DamExchange: the messages as the protocol lays them out, this engine in both roles over
loopback against a peer written in the tests from the protocol (tests/dxp_peer.py), every way a
peer can misbehave, and the match runner playing a DXP engine."""

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import engine
from engine import dxp, pdn
from engine.dxp import (BackAccept, BackRequest, Chat, Connection, DxpError, GameAccept, GameEnd,
                        GameRequest, MoveMessage, Player, decode, encode)

sys.path.insert(0, str(Path(__file__).parent))
from dxp_peer import Peer, start  # noqa: E402

SHORT = "W:W31,32,33,34:B17,18,19,20"          # a small ending: games of a few dozen plies


# -- messages ---------------------------------------------------------------------------------------

def test_messages_have_the_protocols_exact_widths():
    request = encode(GameRequest("Dimensiones", "Z", 5, 0))
    assert request == "R01" + "Dimensiones".ljust(32) + "Z005000A" and len(request) == 43
    board = engine.Board("international", "B:WK46,31:B5,K10")
    custom = encode(GameRequest("x", "W", 120, 75, dxp.position_text(board)))
    assert len(custom) == 94 and custom[35:43] == "W120075B" and custom[43] == "Z"
    assert custom[44:94] == "eeeezeeeeZ" + "e" * 20 + "w" + "e" * 14 + "W" + "e" * 4
    assert encode(GameAccept("Scan", "0")) == "A" + "Scan".ljust(32) + "0"
    assert encode(MoveMessage(3, 6, 11)) == "M0003061100"
    assert encode(MoveMessage(12, 5, 25, (4, 22, 12, 20))) == "M001205250404221220"
    assert encode(MoveMessage(123456, 1, 2)) == "M9999010200"       # capped, never wider
    assert encode(GameEnd("2", "1")) == "E21"
    assert encode(BackRequest(5, "Z")) == "B005Z" and encode(BackAccept("1")) == "K1"
    assert encode(Chat("hello")) == "Chello"
    long_name = encode(GameAccept("A" * 50, "0"))
    assert len(long_name) == 34                                   # names cut to 32


def test_messages_read_back_and_tolerate_what_peers_send():
    for message in (GameRequest("Moby Dam", "W", 5, 75), GameAccept("Kingsrow", "2"),
                    MoveMessage(0, 32, 28), MoveMessage(9, 46, 5, (41, 32, 23, 14)),
                    GameEnd("3", "0"), Chat("x y"), BackRequest(12, "W"), BackAccept("0")):
        assert decode(encode(message)) == message
    assert decode("M0001061100\r\n") == MoveMessage(1, 6, 11)          # a line end after it
    assert decode("M0001 6 100") == MoveMessage(1, 6, 1)               # blank-padded numbers
    assert decode("E1") == GameEnd("1", "0")                           # no stop code
    assert decode("AScan") == GameAccept("Sca", "n")                    # a short name
    bad = ["", "Z123", "M00010611", "M000106110212", "R01x", "E123", "B5Z", "K", "M00aa061100",
           "M0001\u00b2611" + "00", "C" + "x" * 200, "R01" + " " * 32 + "X005000A",
           "R01" + " " * 32 + "W005000B" + "W" + "q" * 50]
    for text in bad:
        with pytest.raises(DxpError):
            decode(text)


def test_moves_are_found_by_their_ends_and_captured_squares_in_any_order():
    board = engine.Board("international", "W:WK46:B41,32,23,14,9")
    move = board.legal_moves()[0]
    message = dxp.move_message(move, 0.4)
    assert message.seconds == 0 and message.origin == 46
    shuffled = MoveMessage(0, message.origin, message.destination, message.captured[::-1])
    assert dxp.find_move(board, shuffled) == move
    with pytest.raises(DxpError, match="names no legal move"):
        dxp.find_move(board, MoveMessage(0, 46, 41))
    quiet = engine.Board("international")
    assert str(dxp.find_move(quiet, MoveMessage(0, 32, 28))) == "32-28"
    capture = engine.Board("international", "W:W28:B23")
    assert str(dxp.find_move(capture, MoveMessage(0, 28, 19))) == "28x19"   # squares left out
    assert dxp.board_from_text("international", dxp.position_text(board)).fen() == board.fen()


# -- this engine as a player ------------------------------------------------------------------------

def player_against(peer: Peer, initiator: bool, **options):
    """Our player (in this process) on one connection with `peer` (in a thread)."""
    if initiator:
        port = peer.listen()
        thread = start(peer)
        conn = Connection.connect("127.0.0.1", port, 10)
    else:
        ready = threading.Event()
        box = {}

        def on_port(p):
            box["port"] = p
            ready.set()
        holder = {}
        listener = threading.Thread(target=lambda: holder.setdefault(
            "conn", Connection.listen("127.0.0.1", 0, 10, ready=on_port)))
        listener.start()
        ready.wait(10)
        peer.connect(box["port"])
        thread = start(peer)
        listener.join(10)
        conn = holder["conn"]
    lines = []
    player = Player(conn, engine.Engine(hash_mb=4), timeout=options.pop("timeout", 10),
                    report=lines.append, movetime=0.02, **options)
    return player, conn, thread, lines


def test_initiator_plays_games_to_their_end(tmp_path):
    peer = Peer("play")
    player, conn, thread, lines = player_against(peer, True, pdn=str(tmp_path / "games.pdn"))
    player.initiate([SHORT, SHORT], 1, 0)
    conn.close()
    thread.join(10)
    assert peer.error is None, peer.error
    assert [g.result for g in player.games] == peer.games
    assert all(g.result in ("1-0", "0-1", "1/2-1/2") for g in player.games)
    assert [(g.white, g.black) for g in player.games] == [("Dimensiones", "TestPeer"),
                                                           ("TestPeer", "Dimensiones")]
    # The peer read a GAMEREQ with the position, our colour alternating, the last with stop 1.
    requests = [m for m in peer.received if m[0] == "R"]
    assert [r[35] for r in requests] == ["Z", "W"] and all(r[42] == "B" for r in requests)
    assert peer.received[-1] in ("E01", "E11", "E21", "E31")
    records = pdn.read_games(tmp_path / "games.pdn")
    assert [[str(m) for m in r.moves()] for r in records] == [g.moves for g in player.games]
    assert [r.headers["Result"] for r in records] == [
        {"1-0": "2-0", "0-1": "0-2", "1/2-1/2": "1-1"}[g.result] for g in player.games]


def test_follower_answers_the_peers_requests():
    peer = Peer("play", initiator=True, games=2, start=SHORT)
    player, conn, thread, lines = player_against(peer, False)
    player.follow()
    conn.close()
    thread.join(10)
    assert peer.error is None, peer.error
    assert len(player.games) == 2 and [g.result for g in player.games] == peer.games
    assert [m[0] for m in peer.received].count("A") == 2 and peer.received[0][33] == "0"


@pytest.mark.parametrize("mode,said", [
    ("refuse", "refused the game (GAMEACC code 2: not this game)"),
    ("disconnect", "the peer closed the connection"),
    ("illegal", "the move 46-41 names no legal move"),
    ("garbage", "unknown message type 'X'"),
    ("silent", "the peer sent nothing while we waited 2 s for the answer to our GAMEREQ"),
])
def test_a_misbehaving_peer_is_a_clear_error(mode, said):
    peer = Peer(mode)
    player, conn, thread, lines = player_against(peer, True, timeout=2)
    started = time.monotonic()
    with pytest.raises(DxpError) as error:
        player.initiate([SHORT], 1, 0)
    assert said in str(error.value)
    assert time.monotonic() - started < 30
    conn.close()
    if mode in ("disconnect", "illegal", "garbage"):
        assert player.games and player.games[0].termination.startswith("unfinished: ")


def test_a_peer_that_gives_up_chats_or_takes_back():
    peer = Peer("resign")
    player, conn, thread, lines = player_against(peer, True)
    player.initiate([engine.Board("international").fen()], 1, 0)
    assert player.games[0].result == "1-0" and "the sender gives up" in player.games[0].termination
    conn.close()
    peer = Peer("chat")
    player, conn, thread, lines = player_against(peer, True)
    player.initiate([SHORT], 1, 0)
    assert any(line == "chat from TestPeer: I am thinking" for line in lines)
    conn.close()
    peer = Peer("back")
    player, conn, thread, lines = player_against(peer, True)
    player.initiate([engine.Board("international").fen()] * 2, 1, 0)
    conn.close()
    thread.join(10)
    assert peer.took_back and peer.error is None, peer.error
    assert "K0" in peer.received and [g.result for g in player.games] == peer.games


def test_the_command_line_plays_and_exits_with_the_peers_fault(tmp_path):
    peer = Peer("play")
    port = peer.listen()
    start(peer)
    out = subprocess.run([sys.executable, "-m", "engine", "dxp", "--connect", f"127.0.0.1:{port}",
                          "--initiator", "--games", "2", "--time", "1", "--movetime", "0.02",
                          "--fen", SHORT, "--pdn", str(tmp_path / "g.pdn"), "--log",
                          str(tmp_path / "dxp.log")], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1].startswith("2 games against TestPeer: +")
    log = (tmp_path / "dxp.log").read_text().splitlines()
    assert log[0].split(maxsplit=3)[2:] == [">", "R01" + "Dimensiones".ljust(32) + "Z001000B"
                                            + "W" + "e" * 16 + "zzzz" + "e" * 10 + "wwww"
                                            + "e" * 16]
    assert len(pdn.read_games(tmp_path / "g.pdn")) == 2
    peer = Peer("illegal")
    port = peer.listen()
    start(peer)
    out = subprocess.run([sys.executable, "-m", "engine", "dxp", "--connect", f"127.0.0.1:{port}",
                          "--initiator", "--games", "1", "--time", "1", "--movetime", "0.02"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert out.stderr.startswith("error: the move 46-41 names no legal move")
    out = subprocess.run([sys.executable, "-m", "engine", "dxp", "--connect", "127.0.0.1:1",
                          "--timeout", "2"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and out.stderr.startswith("error: cannot connect to 127.0.0.1:1")


def test_the_command_line_listens_as_follower():
    process = subprocess.Popen([sys.executable, "-m", "engine", "dxp", "--listen", "0",
                                "--games", "1", "--movetime", "0.02"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("listening on 127.0.0.1:"), line
        port = int(line.split()[2].rsplit(":", 1)[1])
        peer = Peer("play", initiator=True, games=1, start=SHORT)
        peer.connect(port)
        thread = start(peer)
        out, err = process.communicate(timeout=120)
        thread.join(10)
        assert process.returncode == 0, err
        assert out.strip().splitlines()[-1].startswith("1 games against TestPeer")
        assert peer.error is None and len(peer.games) == 1
    finally:
        process.kill()


# -- the match runner against a DXP engine ----------------------------------------------------------

def test_the_match_runner_plays_a_dxp_engine(tmp_path):
    from engine.match import EngineSpec, Match, TimeControl
    scored = Path(__file__).with_name("scored_engine.py")
    peer = Peer("play")
    port = peer.listen()
    thread = start(peer)
    lines = []
    specs = [EngineSpec(f"{sys.executable} {scored} silent", "uci", "scripted"),
             EngineSpec.parse(f"dxp:127.0.0.1:{port}")]
    match = Match(specs, "international", TimeControl(base=60), [SHORT], pdn_path=str(tmp_path / "m.pdn"),
                  report=lines.append)
    result = match.run()
    thread.join(10)
    assert peer.error is None, peer.error
    assert result.played == 2 and not result.forfeits
    # The peer saw the same games: the runner's results, in its own words.
    assert len(peer.games) == 2
    assert [m[35] for m in peer.received if m[0] == "R"] == ["Z", "W"]
    with pytest.raises(engine.EngineError, match="BASE a multiple of 60 seconds"):
        Match(specs, "international", TimeControl(movetime=0.1), [SHORT])
    with pytest.raises(engine.EngineError, match="one game at a time"):
        Match(specs, "international", TimeControl(base=60), [SHORT], concurrency=2)


def test_the_match_runner_forfeits_a_dxp_engine_that_misbehaves():
    from engine.match import EngineSpec, Match, TimeControl
    scored = Path(__file__).with_name("scored_engine.py")
    peer = Peer("illegal")
    port = peer.listen()
    start(peer)
    specs = [EngineSpec(f"{sys.executable} {scored} silent", "uci", "scripted"),
             EngineSpec.parse(f"dxp:127.0.0.1:{port}")]
    result = Match(specs, "international", TimeControl(base=60), [SHORT], report=None).run()
    assert result.forfeits.get(f"dxp-127.0.0.1:{port}", 0) >= 1
    assert "names no legal move" in result.games[0].termination
