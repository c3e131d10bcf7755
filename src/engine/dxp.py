"""DamExchange (DXP): the protocol draughts engines and tournament operators use to play over
TCP (port 27531): ``python -m engine dxp``, and the match runner's ``--engine dxp:HOST:PORT``.

Messages are ASCII strings of 1 to 127 characters, each followed on the socket by a NUL byte;
the first character says what a message is, and every field has a fixed width:

    R GAMEREQ  version "01", initiator's name (32, blank-padded), follower's colour (W or Z),
               minutes a side for the game (3 digits), moves for that time (3, 000: the whole
               game), A (the usual start) or B + side to move + 50 squares (e w z W Z)
    A GAMEACC  follower's name (32), code: 0 accepted, 1 not this protocol version, 2 not
               this game (another would do), 3 no game at all
    M MOVE     seconds used (4 digits), from (2), to (2), pieces taken (2), their squares
               (2 digits each, in any order)
    E GAMEEND  reason (0 none given, 1 I lose, 2 draw, 3 I win), stop code (0 another game
               may follow, 1 stop altogether); answered by the other side with a GAMEEND
    C CHAT     free text
    B BACKREQ  move number (3 digits) and the side to move there (W or Z)
    K BACKACC  code: 0 accepted, 1 not supported, 2 refused

The initiator sends GAMEREQ, the follower answers GAMEACC, the moves alternate, and the side to
move ends the game with GAMEEND instead of a move. DXP has no field for the rules: a game is
International draughts unless both sides are told otherwise (``--variant``).

Reading is tolerant where peers are known to differ (blanks or a line end after a message,
shorter names, a GAMEEND without its stop code, blank-padded numbers, a capture sent without
its captured squares when its two ends say which it is); anything else is a `DxpError`
naming the message. Every message in both directions can be logged with its time
(`MessageLog`) for disputes.
"""

from __future__ import annotations

import math
import queue
import socket
import sys
import threading
import time
from dataclasses import dataclass, field

from . import Board
from .clients import HANDSHAKE_TIMEOUT, EngineFailure
from .errors import EngineError, is_digits

PORT = 27531
VERSION = "01"
NAME_WIDTH = 32
MAX_MESSAGE = 127            # characters, as the protocol says
MAX_READ = 4096              # bytes read without a message's end before the peer is refused
START = "international"
ACCEPT_CODES = {"0": "accepted", "1": "not this protocol version", "2": "not this game",
                "3": "no game at all"}
END_REASONS = {"0": "no reason given", "1": "the sender gives up", "2": "a draw",
               "3": "the sender wins"}
BACK_CODES = {"0": "accepted", "1": "not supported", "2": "refused"}


class DxpError(EngineError):
    """A message that cannot be read, a peer that breaks the protocol, a lost connection or a
    wait that timed out."""


class ConnectionClosed(DxpError):
    """The peer closed the connection."""


# -- messages ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameRequest:
    name: str
    follower_color: str                  # "W" or "Z"
    minutes: int
    moves: int                           # 0: the whole game
    position: str | None = None          # None: the usual start; else side to move + 50 squares
    version: str = VERSION


@dataclass(frozen=True)
class GameAccept:
    name: str
    code: str


@dataclass(frozen=True)
class MoveMessage:
    seconds: int
    origin: int
    destination: int
    captured: tuple = ()


@dataclass(frozen=True)
class GameEnd:
    reason: str
    stop: str = "0"


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class BackRequest:
    move_number: int
    color: str


@dataclass(frozen=True)
class BackAccept:
    code: str


def _number(value: int, width: int, what: str) -> str:
    if not 0 <= value < 10 ** width:
        raise DxpError(f"{what} {value} does not fit in {width} digits")
    return f"{value:0{width}d}"


def _name(text: str) -> str:
    clean = "".join(c if 32 <= ord(c) < 127 else "?" for c in text).strip()
    return clean[:NAME_WIDTH].ljust(NAME_WIDTH)


def encode(message) -> str:
    """The message's text, exactly as the protocol lays it out (no NUL)."""
    if isinstance(message, GameRequest):
        text = (f"R{message.version}{_name(message.name)}{message.follower_color}"
                f"{_number(message.minutes, 3, 'minutes')}{_number(message.moves, 3, 'moves')}")
        text += "A" if message.position is None else "B" + message.position
    elif isinstance(message, GameAccept):
        text = f"A{_name(message.name)}{message.code}"
    elif isinstance(message, MoveMessage):
        text = (f"M{_number(min(message.seconds, 9999), 4, 'seconds')}"
                f"{_number(message.origin, 2, 'square')}{_number(message.destination, 2, 'square')}"
                f"{_number(len(message.captured), 2, 'captures')}"
                + "".join(_number(s, 2, "square") for s in message.captured))
    elif isinstance(message, GameEnd):
        text = f"E{message.reason}{message.stop}"
    elif isinstance(message, Chat):
        text = "C" + "".join(c if 32 <= ord(c) < 127 else "?" for c in message.text)[:MAX_MESSAGE - 1]
    elif isinstance(message, BackRequest):
        text = f"B{_number(message.move_number, 3, 'move number')}{message.color}"
    elif isinstance(message, BackAccept):
        text = f"K{message.code}"
    else:
        raise TypeError(f"not a DXP message: {message!r}")
    return text


def _digits(text: str, what: str, message: str) -> int:
    """A fixed-width number; blanks around it are tolerated (some peers pad with blanks)."""
    body = text.strip()
    if not is_digits(body):
        raise DxpError(f"{what} {text!r} is not a number in {message!r}")
    return int(body)


def decode(text: str):
    """A message from its text (without the NUL); DxpError when it cannot be read."""
    text = text.rstrip(" \r\n\t")
    if not text:
        raise DxpError("an empty message")
    if len(text) > MAX_MESSAGE or not all(0 < ord(c) < 128 for c in text):
        raise DxpError(f"not a DXP message (over {MAX_MESSAGE} characters, or not ASCII): "
                       f"{text[:60]!r}")
    kind, body = text[0], text[1:]
    if kind == "R":
        if len(body) < 2 + NAME_WIDTH + 8:
            raise DxpError(f"GAMEREQ too short: {text!r}")
        version, name = body[:2], body[2:2 + NAME_WIDTH].strip()
        rest = body[2 + NAME_WIDTH:]
        color, minutes, moves, start = rest[0], rest[1:4], rest[4:7], rest[7]
        if color not in "WZ":
            raise DxpError(f"GAMEREQ: the follower's colour must be W or Z, not {color!r}")
        position = None
        if start == "B":
            position = rest[8:]
            if len(position) != 51 or position[0] not in "WZ" or \
                    any(c not in "ewzWZ" for c in position[1:]):
                raise DxpError(f"GAMEREQ: the position must be W or Z and 50 squares of e, w, z, "
                               f"W, Z: {position!r}")
        elif start != "A" or len(rest) != 8:
            raise DxpError(f"GAMEREQ: the start must be A, or B and a position: {text!r}")
        return GameRequest(name, color, _digits(minutes, "minutes", text),
                           _digits(moves, "moves", text), position, version)
    if kind == "A":
        if not body:
            raise DxpError("GAMEACC without its code")
        return GameAccept(body[:-1].strip(), body[-1])
    if kind == "M":
        if len(body) < 10:
            raise DxpError(f"MOVE too short: {text!r}")
        count = _digits(body[8:10], "captures", text)
        squares = body[10:]
        if len(squares) != 2 * count:
            raise DxpError(f"MOVE names {len(squares) // 2} captured squares where it counts "
                           f"{count}: {text!r}")
        captured = tuple(_digits(squares[i:i + 2], "square", text) for i in range(0, len(squares), 2))
        return MoveMessage(_digits(body[:4], "seconds", text), _digits(body[4:6], "square", text),
                           _digits(body[6:8], "square", text), captured)
    if kind == "E":
        if len(body) not in (1, 2):
            raise DxpError(f"GAMEEND must be E, a reason and a stop code: {text!r}")
        return GameEnd(body[0], body[1] if len(body) == 2 else "0")
    if kind == "C":
        return Chat(body)
    if kind == "B":
        if len(body) != 4 or body[3] not in "WZ":
            raise DxpError(f"BACKREQ must be B, a move number of 3 digits and W or Z: {text!r}")
        return BackRequest(_digits(body[:3], "move number", text), body[3])
    if kind == "K":
        if len(body) != 1:
            raise DxpError(f"BACKACC must be K and a code: {text!r}")
        return BackAccept(body)
    raise DxpError(f"unknown message type {kind!r}: {text[:60]!r}")


# -- positions and moves ------------------------------------------------------------------------------

def position_text(board: Board) -> str:
    """The side to move (W or Z) and the 50 squares of a GAMEREQ."""
    pieces = board.piece_map()
    letters = {"w": "w", "b": "z", "W": "W", "B": "Z"}
    squares = "".join(letters[pieces[n]] if n in pieces else "e" for n in range(1, 51))
    return ("W" if int(board.turn) == 0 else "Z") + squares


def board_from_text(variant: str, text: str) -> Board:
    """The board of a GAMEREQ position (side to move and 50 squares)."""
    lists: dict = {"w": [], "z": []}
    for number, letter in enumerate(text[1:], 1):
        if letter != "e":
            lists[letter.lower()].append(("K" if letter.isupper() else "") + str(number))
    side = "W" if text[0] == "W" else "B"
    return Board(variant, f"{side}:W{','.join(lists['w'])}:B{','.join(lists['z'])}")


def move_message(move, seconds: float) -> MoveMessage:
    """A move as a MOVE message: its two ends and every piece it takes."""
    return MoveMessage(max(0, min(9999, int(round(seconds)))), int(move.from_square),
                       int(move.to_square), tuple(int(s) for s in (move.captured or ())))


def find_move(board: Board, message: MoveMessage):
    """The legal move a MOVE message names: its two ends and the set of squares it takes (in
    any order). A capture sent without its squares is taken when its two ends name one legal
    capture only. DxpError when it names none, or several."""
    ends = [m for m in board.legal_moves()
            if int(m.from_square) == message.origin and int(m.to_square) == message.destination]
    wanted = sorted(message.captured)
    found = [m for m in ends if sorted(int(s) for s in (m.captured or ())) == wanted]
    if not found and not wanted and len(ends) == 1:
        found = ends
    if len(found) != 1:
        said = f"{message.origin:02d}-{message.destination:02d}" + (
            f" taking {','.join(map(str, message.captured))}" if message.captured else "")
        problem = "names no legal move" if not found else "names several legal moves"
        raise DxpError(f"the move {said} {problem} in {board.fen()}")
    return found[0]


# -- the connection -------------------------------------------------------------------------------------

class MessageLog:
    """Every message with its time and direction, to a file and/or standard error."""

    def __init__(self, path: str | None = None, verbose: bool = False):
        self.file = open(path, "a", encoding="utf-8", buffering=1) if path else None
        self.verbose = verbose
        self.started = time.monotonic()

    def write(self, direction: str, text: str) -> None:
        line = f"{time.strftime('%H:%M:%S')} {time.monotonic() - self.started:9.3f} {direction} {text}"
        if self.file:
            self.file.write(line + "\n")
        if self.verbose:
            print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.file:
            self.file.close()


class Connection:
    """One DXP connection over a socket: messages out, and messages in through a reader thread,
    so that every wait has a deadline. A peer that sends something that is not a message, or
    over MAX_READ bytes without a message's end, or closes the connection, ends it: `receive`
    raises DxpError saying so."""

    def __init__(self, sock: socket.socket, log: MessageLog | None = None):
        self.sock = sock
        self.log = log or MessageLog()
        self.peer = "{}:{}".format(*sock.getpeername()[:2])
        self.closed = False
        self._inbox: queue.Queue = queue.Queue()
        sock.settimeout(None)
        threading.Thread(target=self._read, daemon=True, name="dxp-reader").start()

    @classmethod
    def connect(cls, host: str, port: int, timeout: float, log: MessageLog | None = None):
        try:
            sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as exc:
            raise DxpError(f"cannot connect to {host}:{port}: {exc.strerror or exc}") from None
        return cls(sock, log)

    @classmethod
    def listen(cls, host: str, port: int, timeout: float, log: MessageLog | None = None,
               ready=None):
        """Wait at most `timeout` seconds for one peer on host:port (`ready(port)` is called
        once the port listens: port 0 takes a free one)."""
        try:
            server = socket.create_server((host, port))
        except OSError as exc:
            raise DxpError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
        with server:
            if ready is not None:
                ready(server.getsockname()[1])
            server.settimeout(timeout)
            try:
                sock, _ = server.accept()
            except socket.timeout:
                raise DxpError(f"no peer connected to {host}:{port} within {timeout:g} s") from None
        return cls(sock, log)

    def _read(self) -> None:
        buffer = b""
        try:
            while True:
                chunk = self.sock.recv(4096)
                if not chunk:
                    self._inbox.put(ConnectionClosed("the peer closed the connection"))
                    return
                buffer += chunk
                *messages, buffer = buffer.split(b"\0")
                for raw in messages:
                    text = raw.decode("ascii", errors="replace")
                    self.log.write("<", text)
                    try:
                        self._inbox.put(decode(text))
                    except DxpError as exc:
                        self._inbox.put(exc)
                        return
                if len(buffer) > MAX_READ:
                    self._inbox.put(DxpError(f"the peer sent over {MAX_READ} bytes without a "
                                             f"message's end (NUL): not DXP"))
                    return
        except OSError as exc:
            if not self.closed:
                self._inbox.put(DxpError(f"the connection broke: {exc.strerror or exc}"))

    def send(self, message) -> None:
        text = encode(message)
        self.log.write(">", text)
        try:
            self.sock.sendall(text.encode("ascii") + b"\0")
        except OSError as exc:
            raise DxpError(f"cannot send to the peer: {exc.strerror or exc}") from None

    def receive(self, deadline: float, waiting_for: str):
        """The next message, or DxpError when none comes by `deadline` (time.monotonic())."""
        left = deadline - time.monotonic()
        try:
            item = self._inbox.get(timeout=max(left, 0.001))
        except queue.Empty:
            raise DxpError(f"the peer sent nothing while we waited {max(left, 0):.0f} s for "
                           f"{waiting_for}") from None
        if isinstance(item, DxpError):
            self._inbox.put(item)             # the connection stays broken for later waits
            raise item
        return item

    def pending(self):
        """A message already received, or None (no wait)."""
        try:
            item = self._inbox.get_nowait()
        except queue.Empty:
            return None
        if isinstance(item, DxpError):
            self._inbox.put(item)
            raise item
        return item

    def close(self) -> None:
        self.closed = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


# -- this engine as a DXP player ------------------------------------------------------------------------

@dataclass
class GameReport:
    """A game played over DXP, for the record and the summary."""
    number: int
    white: str
    black: str
    start: str
    moves: list = field(default_factory=list)
    result: str = "*"
    termination: str = ""


class Player:
    """This engine on one DXP connection, as initiator or follower. Games are written to
    `pdn` as they end; `games` keeps their reports."""

    def __init__(self, conn: Connection, engine, name: str = "Dimensiones",
                 variant: str = START, timeout: float = 60.0, pdn: str | None = None,
                 report=print, movetime: float | None = None):
        self.conn = conn
        self.engine = engine
        self.name = name
        self.variant = variant
        self.timeout = timeout
        self.pdn = pdn
        self.report = report
        self.games: list[GameReport] = []
        self.peer_name = "peer"
        self.movetime = movetime              # seconds a move at most, within the clock

    # -- the two roles --

    def initiate(self, starts: list[str], minutes: int, moves: int) -> None:
        """Play a game from each start, our colour alternating (White in the first); the last
        game's end tells the peer to stop."""
        for number, fen in enumerate(starts, 1):
            ours = 0 if number % 2 == 1 else 1
            board = Board(self.variant, fen)
            usual = board.fen() == Board(self.variant).fen()
            self.conn.send(GameRequest(self.name, "Z" if ours == 0 else "W", minutes, moves,
                                       None if usual else position_text(board)))
            answer = self._wait(GameAccept, "the answer to our GAMEREQ")
            if answer.code != "0":
                raise DxpError(f"the peer refused the game (GAMEACC code {answer.code}: "
                               f"{ACCEPT_CODES.get(answer.code, 'unknown code')})")
            self.peer_name = answer.name or self.peer_name
            self._play(number, board, ours, minutes, moves, last=number == len(starts))

    def follow(self, games: int | None = None) -> None:
        """Answer the peer's GAMEREQs and play, until it stops (or `games` were played)."""
        number = 0
        while games is None or number < games:
            try:
                request = self._wait((GameRequest, GameEnd), "a GAMEREQ", self.timeout * 10)
            except ConnectionClosed:
                if number:
                    return                       # the initiator is done
                raise
            if isinstance(request, GameEnd):     # between games: answered, and maybe the end
                self.conn.send(GameEnd("0", request.stop))
                if request.stop == "1":
                    return
                continue
            if request.version != VERSION:
                self.conn.send(GameAccept(self.name, "1"))
                continue
            try:
                board = Board(self.variant) if request.position is None else \
                    board_from_text(self.variant, request.position)
                playable = request.minutes > 0 and board.legal_moves() and not board.is_game_over()
            except EngineError:
                playable = False
            if not playable:
                self.report(f"refused a game from {request.name!r}: its position or time "
                            f"cannot be played")
                self.conn.send(GameAccept(self.name, "2"))
                continue
            self.peer_name = request.name or self.peer_name
            self.conn.send(GameAccept(self.name, "0"))
            number += 1
            ours = 0 if request.follower_color == "W" else 1
            if self._play(number, board, ours, request.minutes, request.moves,
                          last=number == games):
                return                           # the peer asked to stop

    # -- one game --

    def _play(self, number: int, board: Board, ours: int, minutes: int, moves: int,
              last: bool = False) -> bool:
        """Play one game to its end; returns whether the peer asked to stop altogether."""
        start = board.fen()
        white, black = (self.name, self.peer_name) if ours == 0 else (self.peer_name, self.name)
        game = GameReport(number, white, black, start)
        clocks = [60.0 * minutes, 60.0 * minutes]        # ours, theirs
        self.engine.new_game()
        stop = "1" if last else "0"
        try:
            return self._moves(game, board, ours, minutes, moves, clocks, stop)
        except DxpError as exc:
            if game not in self.games:        # kept, unfinished, with what went wrong
                game.termination = f"unfinished: {exc}"
                self._save(game)
            raise

    def _moves(self, game: GameReport, board: Board, ours: int, minutes: int, moves: int,
               clocks: list, stop: str) -> bool:
        """The moves of a game until its end (see _play)."""
        our_moves = 0
        arrived = sent = time.monotonic()
        start = game.start
        peer_stops = False
        while True:
            outcome = board.outcome()
            if int(board.turn) == ours:
                if outcome is not None:
                    self._end(game, board, outcome.result(), outcome.reason(), ours, stop)
                    break
                if clocks[0] <= 0:
                    self._end(game, board, "0-1" if ours == 0 else "1-0", "we lost on time",
                              ours, stop, reason="1")
                    break
                move, used = self._think(board, clocks[0], moves - our_moves if moves else None,
                                         arrived)
                clocks[0] -= used
                our_moves += 1
                self.conn.send(move_message(move, used))
                board.push(move)
                game.moves.append(str(move))
                sent = time.monotonic()
                continue
            # The peer's clock, and a grace for the network and a peer that keeps a margin.
            grace = max(10.0, 6.0 * minutes)
            message = self.conn.receive(sent + max(clocks[1], 0) + grace, "the peer's move")
            arrived = time.monotonic()
            if isinstance(message, MoveMessage):
                clocks[1] -= arrived - sent
                if outcome is not None:
                    # Our rules ended the game with our move (a draw the peer plays on from):
                    # it is our turn now, so we end it.
                    self._end(game, board, outcome.result(), outcome.reason(), ours, stop)
                    break
                move = find_move(board, message)
                board.push(move)
                game.moves.append(str(move))
            elif isinstance(message, GameEnd):
                self.conn.send(GameEnd("0", stop))
                peer_stops = message.stop == "1"
                if outcome is not None:
                    game.result, game.termination = outcome.result(), outcome.reason()
                else:
                    game.result = _claimed(message.reason, ours ^ 1)
                    game.termination = f"the peer ended the game ({END_REASONS.get(message.reason, 'unknown reason')})"
                self._save(game)
                break
            elif isinstance(message, BackRequest):
                self._back(board, game, message, start)
            elif isinstance(message, Chat):
                self.report(f"chat from {self.peer_name}: {message.text}")
            else:
                raise DxpError(f"the peer sent {type(message).__name__} during a game")
        return peer_stops

    def _think(self, board: Board, clock: float, moves_to_go: int | None, asked_at: float):
        """Our move on our clock: the engine's time manager with a margin for the network."""
        side = "w" if int(board.turn) == 0 else "b"
        limits: dict = {f"{side}time": max(clock - 0.05, 0.01), "asked_at": asked_at}
        if moves_to_go is not None and moves_to_go > 0:
            limits["movestogo"] = moves_to_go
        if self.movetime is not None and self.movetime < clock / 2:
            limits = {"movetime": self.movetime, "asked_at": asked_at}
        result = self.engine.search(board, **limits)
        move = result.best_move or board.legal_moves()[0]
        return move, time.monotonic() - asked_at

    def _end(self, game: GameReport, board: Board, result: str, why: str, ours: int, stop: str,
             reason: str | None = None) -> None:
        """We end the game on our turn (GAMEEND with our reason) and wait for the answer."""
        if reason is None:
            reason = "2" if result == "1/2-1/2" else "3" if (result == "1-0") == (ours == 0) else "1"
        self.conn.send(GameEnd(reason, stop))
        game.result, game.termination = result, why
        self._save(game)
        try:
            self._wait(GameEnd, "the answer to our GAMEEND")
        except DxpError as exc:
            if stop != "1":                   # a peer told to stop may just close
                raise
            self.report(f"(after the last game: {exc})")

    def _back(self, board: Board, game: GameReport, request: BackRequest, start: str) -> None:
        """Take moves back to the move number and side a BACKREQ names, if the game has them."""
        first = Board(self.variant, start)
        ply = 2 * (request.move_number - 1) + (request.color == "Z") - (int(first.turn) == 1)
        if not 0 <= ply <= len(game.moves):
            self.conn.send(BackAccept("2"))
            return
        while len(game.moves) > ply:
            board.pop()
            game.moves.pop()
        self.conn.send(BackAccept("0"))

    def _wait(self, kind, what: str, timeout: float | None = None):
        """The next message of `kind` (a class or a tuple of them); chats on the way are
        reported, anything else is an error."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            message = self.conn.receive(deadline, what)
            if isinstance(message, kind):
                return message
            if isinstance(message, Chat):
                self.report(f"chat from {self.peer_name}: {message.text}")
                continue
            if isinstance(message, GameRequest):
                self.conn.send(GameAccept(self.name, "2"))   # not while a game is played
                continue
            raise DxpError(f"expected {what}, the peer sent {encode(message)!r}")

    def _save(self, game: GameReport) -> None:
        self.games.append(game)
        self.report(f"game {game.number}: {game.white} - {game.black} {game.result} "
                    f"({game.termination}, {len(game.moves)} plies)")
        if self.pdn:
            from .match import GameRecord, pdn
            record = GameRecord(game.number, game.white, game.black, game.start)
            record.moves = list(game.moves)
            record.result, record.termination = game.result, game.termination
            with open(self.pdn, "a", encoding="utf-8") as fh:
                fh.write(pdn(record, self.variant, "DamExchange"))


# -- the match runner's side: a DXP engine as one of its players ------------------------------------

def check_time_control(tc) -> int:
    """The minutes of a DXP game for the match's time control: DXP gives each side a clock
    for the whole game and no increment, so the match's --tc must be BASE+0 with BASE a
    whole number of minutes; EngineError otherwise."""
    if tc.base is None or tc.inc or tc.base % 60 or not 60 <= tc.base <= 999 * 60:
        raise EngineError(f"a DXP engine plays on a clock for the whole game (whole minutes, no "
                          f"increment): give --tc BASE+0 with BASE a multiple of 60 seconds, "
                          f"e.g. --tc 300+0, not {tc}")
    return int(tc.base // 60)


class DxpClient:
    """A DXP engine that listens on HOST:PORT, played by the match runner (`--engine
    dxp:HOST:PORT`). The referee is the initiator: it asks for each game with the opening and
    the engine's colour, sends the other player's moves and reads the engine's. The engine's
    own game end (GAMEEND instead of a move) ends the game as it claims only where the rules
    agree; else it is a failure, as an illegal move is."""

    def __init__(self, spec, variant: str):
        self.spec = spec
        self.variant = variant
        self.host, self.port = host_port(spec.command)
        self.conn: Connection | None = None
        self.score = None                  # DXP reports no scores
        self.arrived = 0.0
        self._game: tuple | None = None    # (start FEN, moves the engine knows) of the game on
        self.log = MessageLog()

    def alive(self) -> bool:
        return self.conn is not None and not self.conn.closed

    def restart(self) -> None:
        self.stop()
        try:
            self.conn = Connection.connect(self.host, self.port, HANDSHAKE_TIMEOUT, self.log)
        except DxpError as exc:
            raise EngineFailure(str(exc)) from None

    def new_game(self) -> None:
        self._end_game("0")

    def _end_game(self, stop: str) -> None:
        """End the game on, if any: GAMEEND and the engine's answer (a short wait)."""
        conn = self.conn
        if self._game is None or conn is None or conn.closed:
            self._game = None
            return
        self._game = None
        try:
            conn.send(GameEnd("0", stop))
            deadline = time.monotonic() + 10.0
            while not isinstance(conn.receive(deadline, "the answer to GAMEEND"), GameEnd):
                pass
        except DxpError as exc:
            if stop == "0":
                raise EngineFailure(f"the game's end: {exc}") from None

    def go(self, start: Board, moves: list, tc, clocks: list, turn: int,
           allowed: float) -> tuple[str, float]:
        if self.conn is None:
            raise EngineFailure("the engine could not be reached")
        try:
            return self._go(start, moves, tc, turn, allowed)
        except DxpError as exc:
            self.stop()
            raise EngineFailure(str(exc)) from None

    def _go(self, start: Board, moves: list, tc, turn: int, allowed: float):
        assert self.conn is not None
        if self._game is None or self._game[0] != start.fen():
            usual = start.fen() == Board(self.variant).fen()
            color = "W" if turn == 0 else "Z"                 # the engine's colour
            self.conn.send(GameRequest("Dimensiones referee", color, check_time_control(tc), 0,
                                       None if usual else position_text(start)))
            deadline = time.monotonic() + HANDSHAKE_TIMEOUT
            answer = self.conn.receive(deadline, "GAMEACC")
            while isinstance(answer, Chat):
                answer = self.conn.receive(deadline, "GAMEACC")
            if not isinstance(answer, GameAccept):
                raise DxpError(f"expected GAMEACC, the engine sent {encode(answer)!r}")
            if answer.code != "0":
                raise DxpError(f"the engine refused the game (code {answer.code}: "
                               f"{ACCEPT_CODES.get(answer.code, 'unknown code')})")
            self._game = (start.fen(), 0)
        known = self._game[1]
        board = start.copy()
        for i, move in enumerate(moves):
            if i >= known and int(board.turn) != turn:
                self.conn.send(move_message(move, 0))
            board.push(move)
        sent = time.monotonic()
        deadline = sent + allowed
        while True:
            message = self.conn.receive(deadline, "its move")
            if isinstance(message, MoveMessage):
                break
            if isinstance(message, GameEnd):
                self._game = None
                self.conn.send(GameEnd("0", "0"))
                raise DxpError(f"it ended the game ({END_REASONS.get(message.reason, 'reason ' + message.reason)}) "
                               f"where the rules go on")
            if not isinstance(message, Chat):
                raise DxpError(f"expected a move, the engine sent {encode(message)!r}")
        self.arrived = time.monotonic()
        move = find_move(board, message)
        self._game = (self._game[0], len(moves) + 1)
        return str(move), self.arrived - sent

    def stop(self) -> None:
        if self.conn is not None:
            self._end_game("1")
            self.conn.close()
        self.conn = None


def _claimed(reason: str, sender: int) -> str:
    """The result a GAMEEND's reason claims, `sender` the colour that sent it (0 White)."""
    if reason == "2":
        return "1/2-1/2"
    if reason in "13" and reason:
        sender_wins = reason == "3"
        return "1-0" if sender_wins == (sender == 0) else "0-1"
    return "*"


def dxp_variants() -> list[str]:
    """The games a DXP position and move can describe: 50 numbered squares, pieces without
    numbers, White first (International and the rows played on its board)."""
    from . import variants
    out = []
    for name in variants():
        spec = Board(name).spec
        if getattr(spec, "numbered", False) and not getattr(spec, "numbered_pieces", True) \
                and len(spec.square_names) == 50 and spec.first_player == 0:
            out.append(name)
    return out


def minutes_for(seconds: float) -> int:
    """Whole minutes of a DXP clock for `seconds` (rounded up, at least one)."""
    return max(1, math.ceil(seconds / 60 - 1e-9))


def host_port(text: str, default_host: str = "127.0.0.1") -> tuple[str, int]:
    """'HOST:PORT', '[v6]:PORT' or 'PORT' as (host, port); EngineError when it is neither."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or default_host
    if not is_digits(port) or not 0 < int(port) < 65536:
        raise EngineError(f"{text!r}: expected HOST:PORT with a port from 1 to 65535")
    return host, int(port)


def main(args) -> int:
    """``python -m engine dxp``: play as initiator or follower over one connection. Exit 0
    after the games, 1 with the reason when the peer misbehaves or a wait times out."""
    from . import Engine
    from .openings import load
    if args.openings:
        pool = load(args.openings, args.variant)
        starts = [pool[i // 2 % len(pool)] for i in range(args.games)]    # each twice, colours
    else:                                                                  # swapped
        starts = [Board(args.variant, args.fen).fen()] * args.games
    log = MessageLog(args.log, args.verbose)
    engine = Engine(hash_mb=args.hash, threads=args.threads)
    from .egdb import playing_tables
    engine.tablebases = playing_tables(args.egdb, args.variant)
    conn = None
    player = None
    try:
        if args.connect:
            host, port = host_port(args.connect)
            print(f"connecting to {host}:{port}", flush=True)
            conn = Connection.connect(host, port, args.timeout, log)
        else:
            conn = Connection.listen(args.host, args.listen, args.wait, log, ready=lambda p: print(
                f"listening on {args.host}:{p} (waiting {args.wait:g} s for a peer)", flush=True))
        print(f"connected to {conn.peer}", flush=True)
        player = Player(conn, engine, args.name, args.variant, args.timeout, args.pdn,
                        report=lambda line: print(line, flush=True), movetime=args.movetime)
        if args.initiator:
            player.initiate(starts, args.time, args.moves)
        else:
            player.follow(args.games or None)
    except DxpError as exc:
        if conn is not None:
            try:                              # tell the peer, where it still listens
                conn.send(GameEnd("0", "1"))
            except DxpError:
                pass
        print(f"error: {exc}", file=sys.stderr, flush=True)
        return 1
    finally:
        if conn is not None:
            conn.close()
        log.close()
    print(summary(player.games, args.name, player.peer_name), flush=True)
    return 0


def summary(games: list[GameReport], name: str, peer: str) -> str:
    """'N games against PEER: +W =D -L' from our side."""
    decided = [g for g in games if g.result in ("1-0", "0-1")]
    wins = sum((g.result == "1-0") == (g.white == name) for g in decided)
    draws = sum(g.result == "1/2-1/2" for g in games)
    unfinished = len(games) - len(decided) - draws
    return (f"{len(games)} games against {peer}: +{wins} ={draws} -{len(decided) - wins}"
            + (f", {unfinished} without a result" if unfinished else ""))
