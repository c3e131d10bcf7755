"""The web board: ``python -m engine serve [--port 8000]`` plays and analyses every game in a
browser.

The application is Bottle (one module, no dependencies of its own: a few JSON routes and three
static files need nothing more), served by waitress (pure Python, no dependencies): it reads each
request whole, without a thread, before a thread of a fixed pool runs it, so a slow or half-sent
request holds no thread; it bounds connections, header and body sizes, and drops idle
connections. Each game lives in the server process as a `webgame.WebGame` with its own engine;
the page polls its state a few times a second and stops the game when it goes away (and a game
no page has asked about for a while stops searching).

Who may ask (docs/web.md): the server answers only requests whose Host is one of its own names
(127.0.0.1, localhost, [::1], the --host address and any --allow-host name), so that a web page
whose name is made to point at this machine (DNS rebinding) gets nothing; a request that changes
anything must be a JSON POST from the page's own origin (a cross-site form or script is
refused). It never opens a path named in a request: game files come as text.

Routes (JSON in and out; a refused request answers ``{"error": "..."}`` with status 400, an
unknown game 404, a foreign host or origin 403, a body over MAX_BODY bytes 413, and changes
nothing):

    GET  /                          the page
    GET  /api/variants              the games, their seats, start positions, Super Dimensiones' cards
    POST /api/games                 {variant, fen?, engine?: [seat...], movetime?} -> {id, state}
    POST /api/load                  {text, variant?}: a PDN/PGN game as text -> {id, state, warnings}
    GET  /api/games/ID?flipped=1    the state: picture, moves, line, analysis, outcome, tables
    POST /api/games/ID/move         {move}
    POST /api/games/ID/undo         take back (to the last position a person is to move in)
    POST /api/games/ID/goto         {ply}: show the position after ply moves of the line
    POST /api/games/ID/settings     {engine?, movetime?, analyse?, multipv?}
    GET  /api/games/ID/record       the game as PDN (PGN for Superajedrez), text
    POST /api/games/ID/close        the page went away
"""

from __future__ import annotations

import io
import ipaddress
import json
import os
import threading
import time
import uuid
from pathlib import Path

from .errors import EngineError, is_digits
from .games import GAMES
from .webgame import (BASE_RANGE, CARDS, INCREMENT_RANGE, MOVETIME_RANGE, MULTIPV_MAX, REVIEW_MOVETIME,
                      WebGame, seats)

WEB = Path(__file__).resolve().parent / "web"
MAX_GAMES = 32                  # games held at once; a page asking for more is refused
CLOSE_AFTER = 1800.0            # seconds without a request: the game is dropped
MAX_BODY = 4 << 20              # bytes of a request's body (game files of a few MB)
MAX_HEADERS = 64 << 10          # bytes of a request's line and headers
THREADS = 8                     # requests run at once (the searches run in threads of their own)
CONNECTIONS = 100               # connections held at once; more wait in the listen queue
BACKLOG = 1024                  # connections the system queues before the server takes them
IDLE_TIMEOUT = 20               # seconds a connection may send nothing before it is dropped
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


class GameNotFound(EngineError):
    """A request names a game this server does not hold (closed, or the server restarted)."""


def _bottle():
    try:
        import bottle
    except ImportError:
        raise SystemExit("python -m engine serve needs Bottle and waitress: pip install "
                         "'dimensiones[web]' (or pip install bottle waitress)") from None
    return bottle


def _waitress():
    try:
        import waitress
    except ImportError:
        raise SystemExit("python -m engine serve needs waitress: pip install 'dimensiones[web]' "
                         "(or pip install waitress)") from None
    return waitress


class Lobby:
    """The games a server holds, and the tables it probes."""

    def __init__(self, egdb: str | os.PathLike | None = None, hash_mb: int = 32):
        from .egdb import user_dir
        self.games: dict[str, WebGame] = {}
        # No folder named: the user's table folder (egdb install), where it holds any.
        self.egdb = Path(egdb) if egdb else user_dir()
        self.hash_mb = hash_mb
        self._tables: dict[str, object] = {}     # variant -> Tables, or the error text
        self._making = 0                         # games being made (their places taken)
        self._lock = threading.Lock()

    def tables(self, variant: str):
        """The endgame tables of ``variant`` under --egdb, loaded once; None if there are none
        (a folder that does not load is reported by `variants`)."""
        if not GAMES[variant].tables or not (self.egdb / variant).is_dir():
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
        """Every game the page can open: its name, title, seats, record format and tables."""
        out = []
        for name, record in GAMES.items():
            tables = self.tables(name)
            out.append({"name": name, "title": record.title, "family": record.family,
                        "seats": seats(name), "record": record.record,
                        "tables": tables is not None,
                        "tables_error": self.table_error(name)})
        return {"variants": out, "cards": [{"name": n, "options": o} for n, o in CARDS],
                "movetime": list(MOVETIME_RANGE), "base": list(BASE_RANGE),
                "increment": list(INCREMENT_RANGE), "multipv": MULTIPV_MAX}

    def new(self, variant, fen=None, engine=(), movetime=1.0, moves=(),
            clock=None) -> tuple[str, WebGame]:
        """Make a game; its key and the game. EngineError when the game or its settings are
        refused or the server is full."""
        if not isinstance(variant, str) or variant not in GAMES:
            raise EngineError(f"unknown game {str(variant)[:40]!r} (known: {', '.join(GAMES)})")
        # The place is taken under the lock before the game is made (it allocates its engine's
        # table): requests that arrive together cannot pass the limit between them.
        with self._lock:
            if len(self.games) + self._making >= MAX_GAMES:
                raise EngineError(f"this server already holds {MAX_GAMES} games: close a page")
            self._making += 1
        try:
            game = WebGame(variant, fen, engine, movetime, hash_mb=self.hash_mb,
                           tables=self.tables(variant), moves=moves, clock=clock)
            key = uuid.uuid4().hex
            with self._lock:
                self.games[key] = game
        finally:
            with self._lock:
                self._making -= 1
        return key, game

    def get(self, key: str) -> WebGame | None:
        """The game of a key, or None."""
        with self._lock:
            return self.games.get(key)

    def close(self, key: str) -> bool:
        """End a game and free its engine; whether there was one."""
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
        """End every game (when the server stops)."""
        for key in list(self.games):
            self.close(key)


def host_name(text: str) -> str:
    """A host as a Host header names it, without the port: lower case, IPv6 in brackets."""
    text = text.strip().lower()
    try:
        if ipaddress.ip_address(text.strip("[]")).version == 6:
            return f"[{text.strip('[]')}]"
    except ValueError:
        pass
    return text


def allowed_hosts(host: str, extra=()) -> frozenset:
    """The names a request's Host header may give: the loopback names, the address the server
    listens on and the names given with --allow-host (a wildcard address is no name)."""
    names = {host_name(name) for name in (*LOOPBACK_NAMES, host, *extra)}
    return frozenset(names - {"0.0.0.0", "[::]", ""})


def _header_host(value: str) -> str:
    """The name part of a Host header ('localhost:8000' -> 'localhost', '[::1]:80' -> '[::1]')."""
    if value.startswith("["):
        return host_name(value[:value.find("]") + 1])
    return host_name(value.rsplit(":", 1)[0] if value.count(":") == 1 else value)


SECURITY_HEADERS = [
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    ("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' "
     "'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
]


def guard(application, hosts: frozenset):
    """WSGI middleware: answer only this server's host names, refuse what changes state unless
    it is JSON from the page's own origin, refuse bodies over MAX_BODY, and add the security
    headers to every answer."""
    def refuse(start_response, status: str, text: str):
        body = json.dumps({"error": text}).encode()
        start_response(status, [("Content-Type", "application/json"), ("Cache-Control", "no-store"),
                                ("Content-Length", str(len(body))), *SECURITY_HEADERS])
        return [body]

    def guarded(environ, start_response):
        host = environ.get("HTTP_HOST", "")
        if _header_host(host) not in hosts:
            return refuse(start_response, "403 Forbidden", f"this server does not answer for "
                          f"host {host[:60]!r} (start it with --allow-host to add a name)")
        length = environ.get("CONTENT_LENGTH") or "0"
        if not is_digits(length) or int(length) > MAX_BODY:
            return refuse(start_response, "413 Request Entity Too Large",
                          f"a request's body may hold at most {MAX_BODY} bytes")
        if environ.get("REQUEST_METHOD", "GET") not in ("GET", "HEAD"):
            origin = environ.get("HTTP_ORIGIN")
            if origin is not None and origin.lower() != f"http://{host.lower()}":
                return refuse(start_response, "403 Forbidden",
                              f"requests from {origin[:60]!r} are refused: only this server's "
                              f"own page may change its games")
            if environ.get("HTTP_SEC_FETCH_SITE", "same-origin") not in ("same-origin", "none"):
                return refuse(start_response, "403 Forbidden", "cross-site requests are refused")
            kind = environ.get("CONTENT_TYPE", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return refuse(start_response, "415 Unsupported Media Type",
                              "a request that changes anything must be application/json")

        def with_headers(status, headers, exc_info=None):
            return start_response(status, [*headers, *SECURITY_HEADERS], exc_info)
        return application(environ, with_headers)
    return guarded


def app(server: Lobby, hosts: frozenset | None = None):
    """The WSGI application of ``server``, guarded (see `guard`) for the host names ``hosts``
    (default: the loopback names)."""
    bottle = _bottle()
    bottle.BaseRequest.MEMFILE_MAX = MAX_BODY
    web = bottle.Bottle()
    # The page's files, read once: a request names one of them, never a path.
    static_files = {path.name: path.read_bytes() for path in WEB.iterdir()
                    if path.suffix in (".html", ".js", ".css")}
    static_types = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                    ".css": "text/css; charset=utf-8"}

    def reply(data, status=200):
        bottle.response.status = status
        bottle.response.content_type = "application/json"
        bottle.response.set_header("Cache-Control", "no-store")
        return json.dumps(data)

    def body() -> dict:
        raw = bottle.request.body.read(MAX_BODY + 1)
        if len(raw) > MAX_BODY:
            raise EngineError(f"a request's body may hold at most {MAX_BODY} bytes")
        try:
            data = json.loads(raw or b"{}")
        except RecursionError:
            raise EngineError("the request nests its JSON too deeply") from None
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
            raise GameNotFound(f"no game {key[:40]!r} on this server (closed, or the server "
                               f"restarted)")
        game.touch()
        return game

    def flipped() -> bool:
        return bottle.request.query.get("flipped", "0") in ("1", "true", "yes")

    def static_file(name: str):
        if name not in static_files:
            return bottle.HTTPError(404, "no such file")
        bottle.response.content_type = static_types[Path(name).suffix]
        bottle.response.set_header("Cache-Control", "no-cache")
        return static_files[name]

    @web.get("/")
    def index():
        return static_file("index.html")

    @web.get("/static/<name>")
    def static(name):
        return static_file(name)

    @web.get("/api/variants")
    @handled
    def variants():
        return reply(server.variants())

    @web.post("/api/games")
    @handled
    def new_game():
        data = body()
        key, game = server.new(data.get("variant"), data.get("fen") or None, data.get("engine") or (),
                               data.get("movetime", 1.0), clock=data.get("clock"))
        return reply({"id": key, "state": game.state(flipped())})

    @web.post("/api/load")
    @handled
    def load():
        from .pdn import read_game
        data = body()
        text = data.get("text")
        if not isinstance(text, str) or not text.strip():
            raise EngineError("the game file is empty")
        variant = data.get("variant") or None
        if variant is not None and variant not in GAMES:
            raise EngineError(f"unknown game {str(variant)[:40]!r} (known: {', '.join(GAMES)})")
        # The text is read as a game file, never as a path to one.
        record = read_game(io.StringIO(text), variant)
        moves = [str(m) for m in record.moves()]
        # A file of which nothing could be read is refused, the page's game kept; one that goes
        # wrong later loads up to its first error, with a warning that says where.
        if record.errors and not moves:
            raise EngineError(f"no move of this game file could be read: {record.errors[0]}")
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

    @web.post("/api/games/<key>/review")
    @handled
    def review(key):
        game = game_of(key)
        data = body()
        game.start_review(data.get("movetime", REVIEW_MOVETIME), data.get("depth"))
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

    return guard(web, hosts if hosts is not None else allowed_hosts("127.0.0.1"))


def _logged(application):
    """WSGI middleware printing a line per request (--verbose)."""
    def logged(environ, start_response):
        def log(status, headers, exc_info=None):
            print(f"{environ.get('REMOTE_ADDR', '-')} {environ.get('REQUEST_METHOD')} "
                  f"{environ.get('PATH_INFO', '')[:200]} {status.split()[0]}", flush=True)
            return start_response(status, headers, exc_info)
        return application(environ, log)
    return logged


class WebServer:
    """The waitress server of an application, run in a thread of its own: `port` is the port
    taken (any free one for port 0), `shutdown()` stops it."""

    def __init__(self, application, host: str, port: int):
        from waitress.server import create_server
        self._map: dict = {}
        self._server = create_server(
            application, map=self._map, host=host, port=port, threads=THREADS,
            connection_limit=CONNECTIONS, backlog=BACKLOG, channel_timeout=IDLE_TIMEOUT,
            cleanup_interval=min(5, IDLE_TIMEOUT), max_request_body_size=MAX_BODY,
            max_request_header_size=MAX_HEADERS, asyncore_use_poll=True,
            expose_tracebacks=False, ident="Dimensiones")
        self.port = self._server.effective_port
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True, name="web-server")
        self._thread.start()

    def _serve(self) -> None:
        from waitress import wasyncore
        while not self._stopping.is_set():
            wasyncore.loop(timeout=0.2, map=self._map, use_poll=True, count=1)

    def shutdown(self) -> None:
        """Stop serving: the loop, the worker threads and every connection."""
        from waitress import wasyncore
        self._stopping.set()
        self._thread.join(5)
        self._server.task_dispatcher.shutdown(timeout=5)
        wasyncore.close_all(self._map)


def start(host: str = "127.0.0.1", port: int = 8000, egdb=None, hash_mb: int = 32,
          quiet: bool = True, allow_hosts=()):
    """Start serving in a background thread; returns (the WebServer, the Lobby, its URL).
    ``port`` 0 takes a free port. ``server.shutdown()`` and ``lobby.close_all()`` stop it."""
    if not 0 <= port <= 65535:
        raise EngineError(f"a port is a number from 0 to 65535, not {port}")
    _bottle()
    _waitress()
    board = Lobby(egdb, hash_mb)
    application = app(board, allowed_hosts(host, allow_hosts))
    httpd = WebServer(application if quiet else _logged(application), host, port)

    def reaper():
        while True:
            time.sleep(5)
            board.reap()
    threading.Thread(target=reaper, daemon=True, name="web-reaper").start()
    url = f"http://{host_name(host) if host not in ('0.0.0.0', '::') else '127.0.0.1'}:{httpd.port}/"
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
    try:
        httpd, board, url = start(args.host, args.port, args.egdb, args.hash, not args.verbose,
                                  args.allow_host or ())
    except OSError as exc:
        print(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc} "
              f"(another server there? try --port)")
        return 1
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"listening on {args.host}: other machines can reach this board; it answers "
              f"for {', '.join(sorted(allowed_hosts(args.host, args.allow_host or ())))}",
              flush=True)
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
