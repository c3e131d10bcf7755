"""A DamExchange peer for the tests, written from the protocol's description (message layouts
and the dialogue), not from any engine's code, and not from engine.dxp: it encodes and reads
its messages itself. It keeps the position with engine.Board (the rules are not what is tested)
and plays the first legal move at once. Modes make it misbehave on purpose.

    play        plays every game to its end (GAMEEND on its turn when the game is over)
    refuse      answers a GAMEREQ with GAMEACC code 2
    disconnect  closes the connection after its first move
    illegal     sends a move that is not legal (a man from 46 to 41 when its first move is due)
    garbage     sends a message of an unknown type when its first move is due
    silent      reads everything and never answers
    resign      gives up (GAMEEND, reason 1) when its third move is due
    chat        sends a CHAT before each of its moves
    back        after its second move asks to take both sides' last moves back (BACKREQ)
"""

import socket
import threading

import engine


def field(value: int, width: int) -> str:
    return str(value).rjust(width, "0")


def dxp_position(board) -> str:
    pieces = board.piece_map()
    code = {"w": "w", "b": "z", "W": "W", "B": "Z"}
    return ("W" if int(board.turn) == 0 else "Z") + "".join(
        code.get(pieces.get(n), "e") for n in range(1, 51))


def position_board(text: str):
    white = [("K" if c == "W" else "") + str(n) for n, c in enumerate(text[1:], 1) if c in "wW"]
    black = [("K" if c == "Z" else "") + str(n) for n, c in enumerate(text[1:], 1) if c in "zZ"]
    return engine.Board("international", f"{'W' if text[0] == 'W' else 'B'}:W{','.join(white)}:B{','.join(black)}")


class Peer:
    """One peer on one connection; `run()` in a thread. `received` keeps every message it read,
    `games` the result it saw of each game ('1-0', '0-1', '1/2-1/2' or the GAMEEND it got)."""

    def __init__(self, mode="play", initiator=False, games=2, minutes=1, start=None,
                 name="TestPeer"):
        self.mode = mode
        self.initiator = initiator
        self.games_wanted = games
        self.minutes = minutes
        self.start = start
        self.name = name
        self.received: list = []
        self.games: list = []
        self.error: Exception | None = None
        self.sock = None
        self.buffer = b""
        self.took_back = False

    # -- layer 1 --

    def listen(self):
        server = socket.create_server(("127.0.0.1", 0))
        self.port = server.getsockname()[1]
        self._server = server
        return self.port

    def accept(self):
        self._server.settimeout(60)
        self.sock, _ = self._server.accept()
        self._server.close()

    def connect(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)

    def put(self, text: str):
        self.sock.sendall(text.encode("ascii") + b"\0")

    def get(self) -> str:
        while b"\0" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise EOFError("closed")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        text = raw.decode("ascii")
        self.received.append(text)
        return text

    # -- layer 2 --

    def run(self):
        try:
            if self.sock is None:
                self.accept()
            if self.mode == "silent":
                while True:
                    self.get()
            if self.initiator:
                self.initiate()
            else:
                self.follow()
        except Exception as exc:          # the test reads it
            self.error = exc
        finally:
            if self.sock is not None:
                self.sock.close()

    def initiate(self):
        for number in range(self.games_wanted):
            ours = "W" if number % 2 == 0 else "Z"            # the follower has the other
            board = engine.Board("international", self.start)
            start = "A" if self.start is None else "B" + dxp_position(board)
            self.put("R01" + self.name.ljust(32) + ("Z" if ours == "W" else "W")
                     + field(self.minutes, 3) + "000" + start)
            answer = self.get()
            assert answer[0] == "A" and len(answer) == 34, answer
            if answer[33] != "0":
                self.games.append(f"refused {answer[33]}")
                return
            if not self.play(board, 0 if ours == "W" else 1, last=number == self.games_wanted - 1):
                return

    def follow(self):
        while True:
            try:
                request = self.get()
            except EOFError:
                return
            if request[0] == "E":            # a GAMEEND with nothing to end: answer it
                self.put("E0" + request[2:3])
                if request[2:3] == "1":
                    return
                continue
            assert request[0] == "R", request
            if self.mode == "refuse":
                self.put("A" + self.name.ljust(32) + "2")
                continue
            board = engine.Board("international") if request[42] == "A" else position_board(request[43:94])
            self.put("A" + self.name.ljust(32) + "0")
            ours = 0 if request[35] == "W" else 1
            if not self.play(board, ours, last=False):
                return

    def play(self, board, ours: int, last: bool) -> bool:
        """One game; False when the other side asked to stop or the connection ended."""
        moved = 0
        while True:
            if int(board.turn) == ours:
                if board.is_game_over():
                    result = board.result()
                    mine = "1-0" if ours == 0 else "0-1"
                    reason = "2" if result == "1/2-1/2" else "3" if result == mine else "1"
                    self.put("E" + reason + ("1" if last else "0"))
                    self.games.append(result)
                    answer = self.get()
                    assert answer[0] == "E", answer
                    return not last
                if self.mode == "resign" and moved == 2:
                    self.put("E1" + ("1" if last else "0"))
                    self.games.append("resigned")
                    answer = self.get()
                    assert answer[0] == "E", answer
                    return not last
                if self.mode == "illegal":
                    self.put("M00004641" + "00")
                    return False
                if self.mode == "garbage":
                    self.put("Xthis is no message")
                    return False
                if self.mode == "chat":
                    self.put("CI am thinking")
                if self.mode == "back" and moved == 2:
                    # Its turn after two moves of its own: back to the position one move
                    # earlier (before the other side's last move and its own), its turn again.
                    ply = board.ply - 2
                    self.put("B" + field(ply // 2 + 1, 3) + ("W" if ply % 2 == 0 else "Z"))
                    answer = self.get()
                    assert answer == "K0", answer
                    board.pop()
                    board.pop()
                    self.mode = "play"
                    self.took_back = True
                move = board.legal_moves()[0]
                captured = [int(s) for s in (move.captured or [])]
                self.put("M0000" + field(int(move.from_square), 2) + field(int(move.to_square), 2)
                         + field(len(captured), 2) + "".join(field(s, 2) for s in captured[::-1]))
                board.push(move)
                moved += 1
                if self.mode == "disconnect":
                    self.sock.shutdown(socket.SHUT_RDWR)
                    return False
                continue
            message = self.get()
            if message[0] == "E":
                self.put("E0" + message[2])
                self.games.append(f"ended {message[1]}")
                return message[2] != "1"
            if message[0] == "C":
                continue
            assert message[0] == "M", message
            origin, target, count = int(message[5:7]), int(message[7:9]), int(message[9:11])
            taken = sorted(int(message[11 + 2 * i:13 + 2 * i]) for i in range(count))
            matches = [m for m in board.legal_moves()
                       if int(m.from_square) == origin and int(m.to_square) == target
                       and sorted(int(s) for s in (m.captured or [])) == taken]
            assert len(matches) == 1, (message, board.fen())
            board.push(matches[0])


def start(peer: Peer) -> threading.Thread:
    thread = threading.Thread(target=peer.run, daemon=True)
    thread.start()
    return thread
