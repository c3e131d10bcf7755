"""The web board: ``python -m engine serve [--port 8000]`` plays and analyses every game in a
browser.

The server is Bottle (one module, no dependencies of its own, WSGI: a few JSON routes and three
static files need nothing more), run by the standard library's WSGI server with a thread per
request, so that several pages play at once. Each game lives in the server process as a
`webgame.WebGame` with its own engine; the page polls its state a few times a second and stops
the game when it goes away (and a game no page has asked about for a while stops searching).

Routes (JSON in and out; a refused request answers ``{"error": "..."}`` with status 400, an
unknown game 404, and changes nothing):

    GET  /                          the page
    GET  /api/variants              the games, their seats, start positions, Super Dimensiones' cards
    POST /api/games                 {variant, fen?, engine?: [seat...], movetime?} -> {id, state}
    POST /api/load                  {text, variant?}: a PDN/PGN game -> {id, state, warnings}
    GET  /api/games/ID?flipped=1    the state: picture, moves, line, analysis, outcome, tables
    POST /api/games/ID/move         {move}
    POST /api/games/ID/undo         take back (to the last position a person is to move in)
    POST /api/games/ID/goto         {ply}: show the position after ply moves of the line
    POST /api/games/ID/settings     {engine?, movetime?, analyse?, multipv?}
    GET  /api/games/ID/record       the game as PDN (PGN for Superajedrez), text
    POST /api/games/ID/close        the page went away
"""

from __future__ import annotations

import json
import os
import socketserver
import threading
import time
import uuid
from pathlib import Path
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from .errors import EngineError
from .games import GAMES
from .webgame import CARDS, MOVETIME_RANGE, MULTIPV_MAX, WebGame, seats

WEB = Path(__file__).resolve().parent / "web"
MAX_GAMES = 32                  # games held at once; a page asking for more is refused
CLOSE_AFTER = 1800.0            # seconds without a request: the game is dropped


class GameNotFound(EngineError):
    """A request names a game this server does not hold (closed, or the server restarted)."""


def _bottle():
    try:
        import bottle
    except ImportError:
        raise SystemExit("python -m engine serve needs Bottle: pip install 'dimensiones[web]' "
                         "(or pip install bottle)") from None
    return bottle


class Lobby:
    """The games a server holds, and the tables it probes."""

    def __init__(self, egdb: str | os.PathLike | None = None, hash_mb: int = 32):
        self.games: dict[str, WebGame] = {}
        self.egdb = Path(egdb) if egdb else None
        self.hash_mb = hash_mb
        self._tables: dict[str, object] = {}     # variant -> Tables, or the error text
        self._lock = threading.Lock()

    def tables(self, variant: str):
        """The endgame tables of ``variant`` under --egdb, loaded once; None if there are none
        (a folder that does not load is reported by `variants`)."""
        if self.egdb is None or not GAMES[variant].tables or not (self.egdb / variant).is_dir():
            return None
        with self._lock:
            if variant not in self._tables:
                from .egdb import Tables
                try:
                    self._tables[variant] = Tables(self.egdb, variant)
                except EngineError as exc:
                    self._tables[variant] = f"{exc}"
            found = self._tables[variant]
        return None if isinstance(found, str) else found

    def table_error(self, variant: str) -> str | None:
        """Why the tables of ``variant`` under --egdb did not load, if they did not."""
        found = self._tables.get(variant)
        return found if isinstance(found, str) else None

    def variants(self) -> dict:
        out = []
        for name, record in GAMES.items():
            tables = self.tables(name)
            out.append({"name": name, "title": record.title, "family": record.family,
                        "seats": seats(name), "record": record.record,
                        "tables": tables is not None,
                        "tables_error": self.table_error(name)})
        return {"variants": out, "cards": [{"name": n, "options": o} for n, o in CARDS],
                "movetime": list(MOVETIME_RANGE), "multipv": MULTIPV_MAX}

    def new(self, variant, fen=None, engine=(), movetime=1.0, moves=()) -> tuple[str, WebGame]:
        if not isinstance(variant, str) or variant not in GAMES:
            raise EngineError(f"unknown game {variant!r} (known: {', '.join(GAMES)})")
        with self._lock:
            if len(self.games) >= MAX_GAMES:
                raise EngineError(f"this server already holds {MAX_GAMES} games: close a page")
        game = WebGame(variant, fen, engine, movetime, hash_mb=self.hash_mb,
                       tables=self.tables(variant), moves=moves)
        key = uuid.uuid4().hex
        with self._lock:
            self.games[key] = game
        return key, game

    def get(self, key: str) -> WebGame | None:
        with self._lock:
            return self.games.get(key)

    def close(self, key: str) -> bool:
        with self._lock:
            game = self.games.pop(key, None)
        if game is not None:
            game.close()
        return game is not None

    def reap(self) -> None:
        """Stop the searches of games no page asks about; drop those long forgotten."""
        with self._lock:
            items = list(self.games.items())
        for key, game in items:
            if game.idle() > CLOSE_AFTER:
                self.close(key)

    def close_all(self) -> None:
        for key in list(self.games):
            self.close(key)


def app(server: Lobby):
    """The WSGI application of ``server``."""
    bottle = _bottle()
    bottle.BaseRequest.MEMFILE_MAX = 4 << 20          # game files of a few MB
    web = bottle.Bottle()

    def reply(data, status=200):
        bottle.response.status = status
        bottle.response.content_type = "application/json"
        bottle.response.set_header("Cache-Control", "no-store")
        return json.dumps(data)

    def body() -> dict:
        raw = bottle.request.body.read()
        try:
            data = json.loads(raw or b"{}")
        except ValueError:
            raise EngineError("the request is not JSON") from None
        if not isinstance(data, dict):
            raise EngineError("the request must be a JSON object")
        return data

    def handled(action):
        """Run ``action``; an error becomes its message with status 400 (404: no such game)."""
        def run(*args, **kwargs):
            try:
                return action(*args, **kwargs)
            except GameNotFound as exc:
                return reply({"error": str(exc)}, 404)
            except (EngineError, ValueError, TypeError) as exc:
                return reply({"error": str(exc)}, 400)
        return run

    def game_of(key: str) -> WebGame:
        game = server.get(key)
        if game is None:
            raise GameNotFound(f"no game {key!r} on this server (closed, or the server restarted)")
        game.touch()
        return game

    def flipped() -> bool:
        return bottle.request.query.get("flipped", "0") in ("1", "true", "yes")

    @web.get("/")
    def index():
        return bottle.static_file("index.html", root=str(WEB))

    @web.get("/static/<name>")
    def static(name):
        return bottle.static_file(name, root=str(WEB))

    @web.get("/api/variants")
    @handled
    def variants():
        return reply(server.variants())

    @web.post("/api/games")
    @handled
    def new_game():
        data = body()
        key, game = server.new(data.get("variant"), data.get("fen") or None, data.get("engine") or (),
                               data.get("movetime", 1.0))
        return reply({"id": key, "state": game.state(flipped())})

    @web.post("/api/load")
    @handled
    def load():
        from .pdn import read_game
        data = body()
        text = data.get("text")
        if not isinstance(text, str) or not text.strip():
            raise EngineError("the game file is empty")
        record = read_game(text, data.get("variant") or None)
        moves = [str(m) for m in record.moves()]
        key, game = server.new(record.variant, record.start_fen, (), data.get("movetime", 1.0), moves)
        return reply({"id": key, "state": game.state(flipped()), "warnings": list(record.errors)})

    @web.get("/api/games/<key>")
    @handled
    def state(key):
        return reply(game_of(key).state(flipped()))

    @web.post("/api/games/<key>/move")
    @handled
    def move(key):
        game = game_of(key)
        text = body().get("move")
        if not isinstance(text, str):
            raise EngineError("no move given")
        game.play(text)
        return reply(game.state(flipped()))

    @web.post("/api/games/<key>/undo")
    @handled
    def undo(key):
        game = game_of(key)
        game.undo()
        return reply(game.state(flipped()))

    @web.post("/api/games/<key>/goto")
    @handled
    def goto(key):
        game = game_of(key)
        game.goto(body().get("ply"))
        return reply(game.state(flipped()))

    @web.post("/api/games/<key>/settings")
    @handled
    def settings(key):
        game = game_of(key)
        data = body()
        game.configure(engine_seats=data.get("engine"), movetime=data.get("movetime"),
                       analysing=data.get("analyse"), multipv=data.get("multipv"))
        return reply(game.state(flipped()))

    @web.get("/api/games/<key>/record")
    @handled
    def record(key):
        text = game_of(key).record()
        bottle.response.content_type = "text/plain; charset=utf-8"
        return text

    @web.route("/api/games/<key>/close", method=["POST", "DELETE"])
    @handled
    def close(key):
        if not server.close(key):
            raise GameNotFound(f"no game {key!r} on this server")
        return reply({"closed": key})

    return web


class _ThreadingServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True
    allow_reuse_address = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):     # one line per poll would drown the terminal
        pass


def start(host: str = "127.0.0.1", port: int = 8000, egdb=None, hash_mb: int = 32,
          quiet: bool = True):
    """Start serving in a background thread; returns (the WSGI server, the Lobby, its URL).
    ``port`` 0 takes a free port. ``httpd.shutdown()`` and ``lobby.close_all()`` stop it."""
    board = Lobby(egdb, hash_mb)
    httpd = make_server(host, port, app(board), server_class=_ThreadingServer,
                        handler_class=_QuietHandler if quiet else WSGIRequestHandler)
    threading.Thread(target=httpd.serve_forever, daemon=True, name="web-server").start()

    def reaper():
        while True:
            time.sleep(5)
            board.reap()
    threading.Thread(target=reaper, daemon=True, name="web-reaper").start()
    url = f"http://{host if ':' not in host else f'[{host}]'}:{httpd.server_port}/"
    return httpd, board, url


def _load_tables(lobby: Lobby, folder) -> None:
    """Load the tables under --egdb before the first page asks, saying what was found."""
    found = []
    for name in GAMES:
        tables = lobby.tables(name)
        if tables is not None:
            found.append(f"{name} ({len(tables.manifest['slices'])} slices)")
        elif lobby.table_error(name):
            print(f"endgame tables of {name} not loaded: {lobby.table_error(name)}", flush=True)
    print(f"endgame tables from {folder}: {', '.join(found) or 'none found'}", flush=True)


def main(args) -> int:
    """``python -m engine serve``: serve until interrupted."""
    _bottle()
    try:
        httpd, board, url = start(args.host, args.port, args.egdb, args.hash, not args.verbose)
    except OSError as exc:
        print(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc} "
              f"(another server there? try --port)")
        return 1
    try:                                   # Ctrl-C is how a server is stopped: exit 0
        if args.egdb:
            _load_tables(board, args.egdb)
        print(f"Dimensiones web board on {url}  (Ctrl-C stops it)", flush=True)
        if args.open:
            import webbrowser
            webbrowser.open(url)
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        print("stopping")
    finally:
        httpd.shutdown()
        board.close_all()
    return 0
