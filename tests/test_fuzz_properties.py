"""Property-based fuzzing (hypothesis) of everything that reads outside input: FEN and move
strings of every game through the Python API, UCI and Hub lines (their number fields too),
game files, DamExchange messages, the web server's HTTP requests, and endgame-table files.

The default run is quick and repeatable (derandomized, a few hundred cases a test); the `slow`
mark runs the same properties with many more random cases. A property holds when the input
either works or gives the engine's own error, and a refused input changes nothing."""

import json

import pytest

pytest.importorskip("hypothesis", reason="property tests need hypothesis (pip install '.[test]')")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import engine  # noqa: E402
from engine import egdb  # noqa: E402
from engine.hub import HubSession  # noqa: E402
from engine.uci import UciSession  # noqa: E402
from conftest import Transcript  # noqa: E402

QUICK = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
LONG = settings(max_examples=5000, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

VARIANTS = engine.variants()
# Characters that FENs and moves of the games are made of, plus a few that should never be.
# Digits of other scripts ('²', Arabic-Indic '٣', full-width '５') pass str.isdigit().
ALPHABET = "WBKwbk:,.-x0123456789abcdefghijoffpas[]/QRNPqrnp@=+>!* \t\n\x00é\u00b2\u0663\uff15_"


def near_miss(base: str):
    """Strings a few edits away from a valid one: the inputs most likely to slip through."""
    return st.lists(st.tuples(st.integers(0, 2), st.integers(0, max(len(base), 1)),
                              st.sampled_from(ALPHABET)), min_size=1, max_size=5).map(
        lambda edits: _apply(base, edits))


def _apply(text, edits):
    chars = list(text)
    for op, i, c in edits:
        i = min(i, len(chars))
        if op == 0 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op == 1:
            chars.insert(i, c)
        elif chars:
            chars[min(i, len(chars) - 1)] = c
    return "".join(chars)


def random_position(variant, plies):
    board = engine.Board(variant)
    import random
    rng = random.Random(plies * 7919 + len(variant))
    while board.ply < plies and not board.is_game_over():
        board.push(rng.choice(board.legal_moves()))
    return board


@st.composite
def fen_inputs(draw):
    variant = draw(st.sampled_from(VARIANTS))
    base = random_position(variant, draw(st.integers(0, 12))).fen()
    text = draw(st.one_of(near_miss(base), st.text(alphabet=ALPHABET, max_size=60),
                          st.text(max_size=30)))
    return variant, text


@st.composite
def move_inputs(draw):
    variant = draw(st.sampled_from(VARIANTS))
    board = random_position(variant, draw(st.integers(0, 12)))
    legal = [str(m) for m in board.legal_moves()] or ["pass"]
    base = draw(st.sampled_from(legal))
    text = draw(st.one_of(near_miss(base), st.text(alphabet=ALPHABET, max_size=20),
                          st.text(max_size=10)))
    return board, text


def check_fen(variant, text):
    try:
        board = engine.Board(variant, text)
    except engine.InvalidFenError:
        return
    again = engine.Board(variant, board.fen())            # what it accepts, it writes back
    assert again.fen() == board.fen()
    for move in board.legal_moves()[:5]:
        board.push(move)
        board.pop()


def check_move(board, text):
    before = board.fen()
    try:
        board.push(text)
    except engine.IllegalMoveError:
        assert board.fen() == before
        return
    board.pop()
    assert board.fen() == before


@QUICK
@given(fen_inputs())
def test_fen_strings(case):
    check_fen(*case)


@QUICK
@given(move_inputs())
def test_move_strings(case):
    check_move(*case)


@pytest.mark.slow
@LONG
@given(fen_inputs())
def test_fen_strings_long(case):
    check_fen(*case)


@pytest.mark.slow
@LONG
@given(move_inputs())
def test_move_strings_long(case):
    check_move(*case)


# -- protocols -------------------------------------------------------------------------------------

UCI_WORDS = ["uci", "isready", "position", "startpos", "fen", "moves", "go", "depth", "nodes",
             "movetime", "wtime", "btime", "winc", "binc", "movestogo", "perft", "mate", "infinite",
             "ponder", "stop", "ponderhit", "setoption", "name", "value", "Hash", "MultiPV",
             "UCI_Variant", "Move", "Overhead", "Ponder", "ucinewgame", "d", "32-28", "19-23",
             "-1", "0", "1", "2", "3", "99999999999999999999", "nan", "W:W31-50:B1-20", "true",
             "\u00b2", "\u0663", "1_0", "+5", "1e3", "inf", "W:W3\u00b2:B1", "dipole"]
HUB_WORDS = ["hub", "init", "ping", "new-game", "pos", "pos=W" + "b" * 20 + "e" * 10 + "w" * 20,
             'moves="32-28 19-23"', "level", "depth=1", "depth=2", "nodes=100", "move-time=0.01",
             "move-time=nan", "time=1", "inc=0.1", "moves=5", "infinite", "go", "think", "ponder",
             "analyze", "ponder-hit", "stop", "set-param", "name=variant", "value=normal",
             "value=checkers", "name=hash", "value=1", "x=", '"', "=", "depth=\u00b2",
             "nodes=\u0663", "move-time=\uff15", "time=1_0", "inc=+1", "moves=\u00b2",
             "value=\u00b2", "time=1e999"]


def protocol_lines(words):
    return st.lists(st.one_of(
        st.lists(st.sampled_from(words), min_size=1, max_size=6).map(" ".join),
        st.text(max_size=40)), min_size=1, max_size=8)


def check_protocol(session_class, lines, ready, answer):
    t = Transcript(session_class)
    try:
        for line in lines:
            t.send(line, wait=False)
            if line.split()[:1] == ["go"]:                # it may run until stopped
                t.session.handle("stop")
        assert answer in t.send(ready, wait=False)         # still answering
    finally:
        t.session.handle("quit")


@QUICK
@given(protocol_lines(UCI_WORDS))
def test_uci_lines(lines):
    check_protocol(UciSession, lines, "isready", "readyok")


@QUICK
@given(protocol_lines(HUB_WORDS))
def test_hub_lines(lines):
    check_protocol(HubSession, lines, "ping", "pong")


@pytest.mark.slow
@LONG
@given(protocol_lines(UCI_WORDS))
def test_uci_lines_long(lines):
    check_protocol(UciSession, lines, "isready", "readyok")


@pytest.mark.slow
@LONG
@given(protocol_lines(HUB_WORDS))
def test_hub_lines_long(lines):
    check_protocol(HubSession, lines, "ping", "pong")


# -- game files -------------------------------------------------------------------------------------

PDN_SAMPLE = ('[Event "x"]\n[GameType "20"]\n1. 32-28 {a} 19-23 (18-23 2. 28x19) 2. 28x19 14x23 $1\n'
              '3. 37-32 (; line\n 33-29!?) 10-14 1-0\n\n[Variant "superajedrez"]\n1. 0-Cf3 N@f6 *\n')


@st.composite
def pdn_texts(draw):
    return draw(st.one_of(near_miss(PDN_SAMPLE), st.text(alphabet=ALPHABET + '[]"{}();$!?%',
                                                         max_size=80)))


def check_pdn(text):
    from engine import pdn
    try:
        games = pdn.read_games(text, "international")
    except pdn.PdnError:
        return
    for game in games:
        assert all(isinstance(error, str) and error for error in game.errors)
        if not game.errors:                  # what reads cleanly writes and reads back the same
            written = pdn.write_game(game)
            assert pdn.write_game(pdn.read_game(written, strict=True)) == written


@QUICK
@given(pdn_texts())
def test_game_files(text):
    check_pdn(text)


@pytest.mark.slow
@LONG
@given(pdn_texts())
def test_game_files_long(text):
    check_pdn(text)


# -- DamExchange messages ---------------------------------------------------------------------------

DXP_SAMPLES = ["R01" + "Scan 2.0".ljust(32) + "W005075A", "A" + "Moby Dam".ljust(32) + "0",
               "M001205250422122320", "M0012061100", "E21", "CHello", "B005Z", "K0",
               "R01" + "x".ljust(32) + "Z001000BW" + "e" * 20 + "z" * 10 + "w" * 20]


def check_dxp(text):
    from engine import dxp
    try:
        message = dxp.decode(text)
    except dxp.DxpError:
        return
    # What reads, writes back to a text that reads as the same message, but for what the writer
    # cleans: names cut to 32 characters, control characters in names and chats replaced.
    again = dxp.decode(dxp.encode(message))
    clean = dxp.decode(dxp.encode(again))
    assert clean == again
    if not isinstance(message, (dxp.GameRequest, dxp.GameAccept, dxp.Chat)):
        assert again == message
    if isinstance(message, dxp.MoveMessage):
        board = engine.Board("international")
        try:
            dxp.find_move(board, message)
        except dxp.DxpError:
            pass


@QUICK
@given(st.one_of(*(near_miss(t) for t in DXP_SAMPLES), st.text(max_size=130)))
def test_dxp_messages(text):
    check_dxp(text)


@pytest.mark.slow
@LONG
@given(st.one_of(*(near_miss(t) for t in DXP_SAMPLES), st.text(max_size=130)))
def test_dxp_messages_long(text):
    check_dxp(text)


# -- the web server's requests -------------------------------------------------------------------

@pytest.fixture(scope="module")
def web_app():
    """The web board's WSGI application, called in this process (no socket: many cases a
    second)."""
    pytest.importorskip("bottle", reason="the web board needs Bottle (pip install '.[web]')")
    from engine import serve
    lobby = serve.Lobby(hash_mb=1)
    key, _ = lobby.new("international")
    yield serve.app(lobby), lobby, key
    lobby.close_all()


def call_app(application, method, path, body, headers):
    import io
    import wsgiref.util
    # As a server hands them over: the path's bytes (UTF-8 here) read as Latin-1 (PEP 3333).
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path.encode().decode("latin-1"),
               "QUERY_STRING": "",
               "CONTENT_LENGTH": str(len(body)), "wsgi.input": io.BytesIO(body),
               "HTTP_HOST": "127.0.0.1:8000"}
    wsgiref.util.setup_testing_defaults(environ)
    for name, value in headers.items():
        key = name.upper().replace("-", "_")
        environ[key if key in ("CONTENT_TYPE", "CONTENT_LENGTH") else f"HTTP_{key}"] = value
    answer = {}

    def start_response(status, response_headers, exc_info=None):
        answer["status"] = int(status.split()[0])
        answer["headers"] = dict(response_headers)
    data = b"".join(application(environ, start_response))
    return answer["status"], answer["headers"], data


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True)
                           | st.text(alphabet=ALPHABET, max_size=12),
                           lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                           max_leaves=8)


@st.composite
def http_requests(draw, key):
    routes = ["/", "/static/board.js", "/static/../serve.py", "/api/variants", "/api/games",
              "/api/load", f"/api/games/{key}", f"/api/games/{key}/move", f"/api/games/{key}/goto",
              f"/api/games/{key}/settings", f"/api/games/{key}/undo", f"/api/games/{key}/record",
              "/api/games/nosuchgame/move", "/api/games//move", "/nowhere"]
    path = draw(st.one_of(st.sampled_from(routes), near_miss(f"/api/games/{key}/move")))
    method = draw(st.sampled_from(["GET", "POST", "POST", "POST", "PUT", "DELETE", "HEAD"]))
    fields = st.dictionaries(st.sampled_from(["variant", "fen", "engine", "movetime", "move", "ply",
                                              "analyse", "multipv", "text"]), JSON_VALUES, max_size=4)
    body = draw(st.one_of(fields.map(lambda d: json.dumps(d).encode()),
                          st.binary(max_size=60),
                          st.integers(1, 4000).map(lambda n: b'{"a":' * n),
                          st.integers(1, 500).map(lambda n: b'{"movetime": 1' + b"0" * n + b"}")))
    headers = {"Content-Type": draw(st.sampled_from(["application/json", "application/json; charset=utf-8",
                                                     "text/plain", ""]))}
    if draw(st.booleans()):
        headers["Origin"] = draw(st.sampled_from(["http://127.0.0.1:8000", "http://evil.example",
                                                  "null"]))
    if draw(st.booleans()):
        headers["Host"] = draw(st.sampled_from(["127.0.0.1:8000", "localhost", "evil.example",
                                                "[::1]:8000", ""]))
    return method, path, body, headers


def check_http(web_app, request):
    application, lobby, key = web_app
    method, path, body, headers = request
    before = lobby.games[key].state(False)["fen"]
    status, response_headers, data = call_app(application, method, path, body, headers)
    assert status in (200, 400, 403, 404, 405, 413, 415), (request, status, data[:200])
    assert response_headers.get("X-Content-Type-Options") == "nosniff"
    if status >= 400 and "json" in response_headers.get("Content-Type", "") and method != "HEAD":
        assert json.loads(data)["error"]                  # (an answer to HEAD has no body)
    if status != 200 or not path.endswith(("/move", "/goto", "/undo", "/settings")):
        assert lobby.games[key].state(False)["fen"] == before
    for other in [k for k in lobby.games if k != key]:       # games a request made
        lobby.close(other)
    game = lobby.games[key]
    game.configure(engine_seats=[], analysing=False)
    if game.line:
        game.goto(0)


@QUICK
@given(data=st.data())
def test_http_requests(web_app, data):
    check_http(web_app, data.draw(http_requests(web_app[2])))


@pytest.mark.slow
@LONG
@given(data=st.data())
def test_http_requests_long(web_app, data):
    check_http(web_app, data.draw(http_requests(web_app[2])))


# -- table files -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def table_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("egdb")
    egdb.build("checkers", 3, folder, report=None)
    return folder


def check_tables(table_dir, tmp_path, manifest_text, file_bytes):
    import shutil
    target = tmp_path / "t"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(table_dir / "checkers", target / "checkers")
    if manifest_text is not None:
        (target / "checkers" / "manifest.json").write_text(manifest_text)
    if file_bytes is not None:
        (target / "checkers" / "0m1k-0m1k.npy").write_bytes(file_bytes)
    try:
        egdb.Tables(target, "checkers")
    except egdb.TableError:
        pass


def manifests(table_dir):
    text = (table_dir / "checkers" / "manifest.json").read_text()
    data = json.loads(text)
    return st.one_of(near_miss(text[:400]), st.text(max_size=50),
                     st.builds(lambda k, v: json.dumps({**data, k: v}),
                               st.sampled_from(["format", "variant", "slices"]),
                               st.one_of(st.none(), st.integers(), st.text(max_size=5),
                                         st.just({}), st.just([]))))


@QUICK
@given(data=st.data())
def test_table_files(table_dir, tmp_path, data):
    manifest = data.draw(st.one_of(st.none(), manifests(table_dir)))
    original = (table_dir / "checkers" / "0m1k-0m1k.npy").read_bytes()
    payload = data.draw(st.one_of(st.none(), st.binary(max_size=200),
                                  near_miss(original.decode("latin-1")).map(
                                      lambda t: t.encode("latin-1", "replace"))))
    check_tables(table_dir, tmp_path, manifest, payload)


def test_move_strings_with_control_characters_are_refused():
    # Found by fuzzing the API: a newline inside a Super Dimensiones move raised AttributeError.
    for variant in VARIANTS:
        board = engine.Board(variant)
        before = board.fen()
        for text in ("x\ny", "\n", "32-28\n19-23", "a1\x00", "e2e4\r\nx"):
            with pytest.raises(engine.IllegalMoveError):
                board.push(text)
            assert board.fen() == before


# -- weights files ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def weights_file(tmp_path_factory):
    import numpy as np
    from engine import patterns, weights
    path = tmp_path_factory.mktemp("weights") / "c.npz"
    weights.save(path, "checkers", np.zeros((patterns.layout_size("checkers"), 2)))
    return path


def check_weights(path):
    from engine import weights
    before = weights.sources("checkers")
    try:
        weights.load(path, "checkers")
    except weights.WeightsError:
        assert weights.sources("checkers") == before
        return
    weights.restore("checkers", before)


@QUICK
@given(data=st.data())
def test_weights_files(weights_file, tmp_path, data):
    original = weights_file.read_bytes()
    edits = data.draw(st.lists(st.tuples(st.integers(0, len(original) - 1), st.integers(0, 255)),
                               min_size=1, max_size=4))
    cut = data.draw(st.integers(0, len(original)))
    damaged = bytearray(original[:cut] if data.draw(st.booleans()) else original)
    for i, value in edits:
        if i < len(damaged):
            damaged[i] = value
    path = tmp_path / "w.npz"
    path.write_bytes(bytes(damaged))
    check_weights(path)
