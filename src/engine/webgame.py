"""One game on the web board (`python -m engine serve`): its line of moves, the engine that
plays or analyses it in a thread of its own, and the state a page draws.

Nothing here knows HTTP: `serve.py` maps requests onto these methods, and the tests call them
directly too. A page clicks squares; `click_moves` says, for every legal move, which squares (and
which tokens: ``@N`` a reserve piece, ``off`` bearing off) a person clicks to play it, so that the
page needs no rules of its own.

Threads: every game has one worker thread, the only one that searches with the game's engine.
A change (a move, a take-back, new settings) bumps ``generation`` and stops the running search;
the worker drops what a search of an older generation found, and starts the next one (the
engine's move, or the analysis of the position shown) from the new state.
"""

from __future__ import annotations

import threading
import time

from . import Board, pdn, svg
from ._search import Engine
from .errors import QUOTE_LIMIT, EngineError, IllegalMoveError
from .games import GAMES

# Super Dimensiones: the teams in turn order, each player's teams, and the five cards.
TEAMS = {"a": "A1 (player 1)", "c": "A2 (player 2)", "b": "B1 (player 1)", "d": "B2 (player 2)"}
# The card names are the game's own (Spanish), with what they mean in English beside them.
CARDS = [("Dimensión (dimension)", {"M": "multidimensional", "I": "interdimensional"}),
         ("Estrategia (strategy)", {"C": "conquistar (conquer)", "D": "distraer (distract)"}),
         ("Táctica (tactics)", {"A": "con armadura (armoured: capture optional)",
                                "U": "sin armadura (unarmoured: capture obligatory)"}),
         ("Formación (formation)", {"W": "occidental (western: diagonal)",
                                    "E": "oriental (eastern: orthogonal)"}),
         ("Poder (power)", {"R": "real (long-range queen)", "S": "simbólico (one-step queen)"})]
MOVETIME_RANGE = (0.05, 60.0)        # seconds per engine move the page may ask for
BASE_RANGE = (1.0, 3 * 3600.0)       # a clock's starting time, seconds
INCREMENT_RANGE = (0.0, 60.0)        # a clock's increment a move, seconds
MULTIPV_MAX = 5
REVIEW_MOVETIME = 0.2                # seconds a position when the page asks for a review


class WebError(EngineError):
    """A request the game cannot take; the message is shown on the page as it is."""


class Face:
    """What the web board needs of a family beyond the board API, with the answers that fit any
    two-player game: who sits at it, whose turn it is, how each move is clicked and labelled,
    and what else the page shows. A family with more to say has a face of its own (FACES)."""

    def seats(self, variant: str) -> dict[str, str]:
        order = ["white", "black"]
        if int(Board(variant).spec.first_player) == 1:          # English checkers: Black first
            order.reverse()
        return {side: side.capitalize() for side in order}

    def mover(self, board) -> str:
        return str(board.turn)

    def seats_of(self, side: str) -> set[str]:
        """The seats that play for 'white' or 'black' (the game record's two players)."""
        return {side}

    def players(self, variant: str) -> dict[str, str]:
        """The names of the game record's two players, 'white' and 'black'."""
        return {side: name for side, name in self.seats(variant).items()}

    def sides(self, variant: str) -> dict[str, dict]:
        """The record's two players as the page shows them: a name and the seats each holds
        (the page names a player's clock, marks who the engine is and swaps sides by these)."""
        return {side: {"name": name, "seats": sorted(self.seats_of(side))}
                for side, name in self.players(variant).items()}

    def click(self, board, move) -> tuple[list, str, bool]:
        """(paths, label, skip) of one legal move (see click_moves)."""
        start, end = getattr(move, "from_square", None), getattr(move, "to_square", None)
        squares = [str(sq) for sq in (start, end) if sq is not None]
        return [squares], str(move), False

    def extras(self, board) -> dict:
        return {}

    def cannot_win(self, board, side: str) -> bool:
        """Whether ``side`` has too little left to win by any series of legal moves (then a
        flag fall of the other side is a draw)."""
        return False

    def captured(self, start, board) -> dict | None:
        """The pieces each side has lost since ``start``: {'white': [...], 'black': [...]}
        of piece letters the page draws, or None where the page shows none."""
        return None

    def check_square(self, board) -> str | None:
        """The square of a king in check, to highlight."""
        return None


class DraughtsFace(Face):
    def click(self, board, move):
        return [list(p) for p in board.landing_paths(move)], str(move), move.is_capture

    def captured(self, start, board):
        # Counted in pieces, a crowned man still one: what left the board.
        def count(b, letter):
            return sum(1 for piece in b.piece_map().values() if piece[0].lower() == letter)
        return {side: ["man"] * max(0, count(start, side[0]) - count(board, side[0]))
                for side in ("white", "black")}


class StacksFace(Face):
    def click(self, board, move):
        if move.is_pass:
            return [[]], "pass", False
        if move.is_bear_off:
            return [[str(move.from_square), "off"]], f"{move} (bear off {move.count})", False
        return [[str(move.from_square), str(move.to_square)]], str(move), False


class SuperajedrezFace(Face):
    def click(self, board, move):
        if move.is_placement and not move.is_castling:      # castling with a reserve rook
            return [["@" + move.piece.upper(), str(move.to_square)]], board.san(move), False
        return [[str(move.from_square), str(move.to_square)]], board.san(move), False

    def extras(self, board) -> dict:
        return {"reserve": board.reserve(board.turn)}

    @staticmethod
    def _material(board, side: str) -> dict:
        from .types import BLACK, WHITE
        colour = WHITE if side == "white" else BLACK
        counts = dict(board.reserve(colour))
        for piece in board.piece_map().values():
            if piece[0].isupper() == (side == "white"):
                letter = piece[0].upper()
                counts[letter] = counts.get(letter, 0) + 1
        return counts

    def cannot_win(self, board, side):
        # A king alone, or with one bishop or knight, cannot mate (FIDE 6.9).
        others = [letter for letter, n in self._material(board, side).items()
                  if letter != "K" for _ in range(n)]
        return not others or others in (["B"], ["N"])

    def captured(self, start, board):
        out = {}
        for side in ("white", "black"):
            before, now = self._material(start, side), self._material(board, side)
            out[side] = [letter for letter in "QRBNP"
                         for _ in range(max(0, before.get(letter, 0) - now.get(letter, 0)))]
        return out

    def check_square(self, board):
        if not board.is_check():
            return None
        king = "K" if str(board.turn) == "white" else "k"
        return next((str(sq) for sq, piece in board.piece_map().items() if piece[0] == king),
                    None)


class SuperDimensionesFace(Face):
    def seats(self, variant):
        return dict(TEAMS)

    def mover(self, board):
        # While a huff choice is pending, the team that chooses: the FEN's ``c!c3,e3``.
        return board.fen().split()[1].split("!")[0]

    def seats_of(self, side):
        # Player 1 (the record's White) has teams a and b, player 2 teams c and d.
        return {"a", "b"} if side == "white" else {"c", "d"}

    def players(self, variant):
        return {"white": "player 1", "black": "player 2"}

    def sides(self, variant):
        return {"white": {"name": "Player 1 (A1, B1)", "seats": ["a", "b"]},
                "black": {"name": "Player 2 (A2, B2)", "seats": ["c", "d"]}}

    def click(self, board, move):
        text = str(move)
        if move.is_huff:
            square = text.split("-", 1)[1]
            return [[square]], f"remove the man on {square} ({text})", False
        paths = [list(p) for p in move.paths] or [[move.from_square, move.to_square]]
        label = text
        if move.penalty and move.penalty[0] in ("reinforce", "crown"):
            paths = [p + [move.penalty[1]] for p in paths]
            label = (f"{text} (a new man on {move.penalty[1]})" if move.penalty[0] == "reinforce"
                     else f"{text} (the man on {move.penalty[1]} crowned)")
        return paths, label, move.is_capture

    def extras(self, board):
        # The legend: each team's colour on the board, and whose it is.
        return {"subgames": board.subgame_results(), "cards": board.cards,
                "teams": [{"team": team, "name": name, "colour": svg.TEAM_COLOURS[team]}
                          for team, name in TEAMS.items()]}


FACES = {"draughts": DraughtsFace(), "stacks": StacksFace(), "superajedrez": SuperajedrezFace(),
         "superdimensiones": SuperDimensionesFace()}


def face(variant: str) -> Face:
    """The web face of a game's family; the plain one for a family without its own."""
    return FACES.get(GAMES[variant].family) or Face()


def seats(variant: str) -> dict[str, str]:
    """Who can be seated at a game: the sides (or Super Dimensiones' teams) and their names."""
    return face(variant).seats(variant)


def mover(board) -> str:
    """The seat that chooses the next move: 'white'/'black', or a Super Dimensiones team."""
    return face(board.variant).mover(board)


def click_moves(board) -> list[dict]:
    """Every legal move as the page plays it: ``move`` (its string), ``label`` (what a list of
    choices shows), ``paths`` (each a way of clicking it: square names, ``@N`` for the reserve
    piece N, ``off`` for bearing off; an empty path for a move played by its button alone) and
    ``skip`` (landing squares of a capture may be left out: origin and destination suffice)."""
    out = []
    family = face(board.variant)
    for move in board.legal_moves():
        paths, label, skip = family.click(board, move)
        out.append({"move": str(move), "label": label, "paths": paths, "skip": skip})
    return out


def move_arrow(board, move) -> list[tuple[str, str]]:
    """An arrow from a move's first square to its last, for the picture (none for a move that
    names fewer than two squares: a placement, a pass, a huff choice)."""
    names = svg.move_squares(board, move)
    return [(names[0], names[-1])] if len(names) >= 2 and names[0] != names[-1] else []


def _check_movetime(value) -> float:
    low, high = MOVETIME_RANGE
    seconds = float("nan")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            seconds = float(value)
        except OverflowError:                  # a JSON integer of hundreds of digits
            pass
    if not low <= seconds <= high:
        raise WebError(f"time per move must be a number of seconds between {low} and {high}, "
                       f"not {_shown_value(value)}")
    return seconds


def _check_clock(clock) -> tuple[float, float] | None:
    """None (no clock: the engine takes its time per move), or ``[base, increment]`` in
    seconds."""
    if clock is None:
        return None
    numbers = (isinstance(clock, (list, tuple)) and len(clock) == 2
               and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in clock))
    try:
        base, increment = (float(v) for v in clock) if numbers else (float("nan"),) * 2
    except OverflowError:
        base = increment = float("nan")
    if not (BASE_RANGE[0] <= base <= BASE_RANGE[1]
            and INCREMENT_RANGE[0] <= increment <= INCREMENT_RANGE[1]):
        raise WebError(f"a clock is [minutes in seconds, increment in seconds]: from "
                       f"{BASE_RANGE[0]:g} to {BASE_RANGE[1]:g} s, and from "
                       f"{INCREMENT_RANGE[0]:g} to {INCREMENT_RANGE[1]:g} s a move, not "
                       f"{_shown_value(clock)}")
    return base, increment


def _whole(value) -> bool:
    """A JSON integer (true and false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _shown_value(value) -> str:
    """A refused value as an error message quotes it (an integer too long to print is
    described)."""
    try:
        text = repr(value)
    except ValueError:
        return "a number of thousands of digits"
    return text if len(text) <= QUOTE_LIMIT else f"{text[:QUOTE_LIMIT]}... ({len(text)} characters)"


class WebGame:
    """A game a page plays: ``WebGame(variant, fen=None, engine_seats=(), movetime=1.0,
    clock=None)``. ``clock``: (base, increment) seconds for each side, counted here, the
    engine playing on its own; without one the engine takes ``movetime`` a move and nobody's
    time is counted. Bad variants, FENs, seats and times raise (UnknownVariantError,
    InvalidFenError, WebError) before anything starts."""

    def __init__(self, variant: str, fen: str | None = None, engine_seats=(), movetime: float = 1.0,
                 hash_mb: int = 32, tables=None, moves=(), clock=None):
        start = Board(variant, fen or None)
        self.variant = variant
        self.start_fen = start.fen()
        self.board = start
        self.line: list[str] = []            # the game's moves; the board shows line[:cursor]
        self.cursor = 0
        self.seats = seats(variant)
        self.engine_seats = self._check_seats(engine_seats)
        self.movetime = _check_movetime(movetime)
        self.clock = _check_clock(clock)
        # Each side's time left after each ply of the line (times[0]: at the start), the moment
        # the side to move at the line's end began its turn, and the side whose flag fell.
        base = self.clock[0] if self.clock else 0.0
        self.times: list[dict[str, float]] = [{"white": base, "black": base}]
        self.turn_began = clock_now()
        self.flagged: str | None = None
        self.review: dict | None = None      # the running or finished review (see start_review)
        self._review_stop = threading.Event()
        self.analysing = False
        self.multipv = 1
        self.tables = tables                 # engine.egdb.Tables of this variant, or None
        self.analysis: dict | None = None    # the running or last search's report
        self.thinking = False                # the worker is searching for the engine's move
        self.generation = 0
        self.closed = False
        self.last_seen = time.monotonic()
        self._shown: tuple = (-1, [], None)  # (generation, click_moves, tables) of the position
        self._state = threading.Lock()       # guards everything above
        self._wake = threading.Condition(self._state)
        self._engine = Engine(hash_mb=hash_mb)
        for text in moves:
            self._push(text)
        self._worker = threading.Thread(target=self._work, daemon=True, name=f"web-{variant}")
        self._worker.start()

    # -- what the page asks -------------------------------------------------------------------

    def play(self, text: str) -> None:
        """Play ``text`` (any string the board accepts) at the position shown; moves after it in
        the line are dropped. IllegalMoveError when it is not legal, WebError when the game is
        over or the engine is to move; nothing changes then."""
        with self._state:
            self._check_flag()
            if self.board.is_game_over() or (self.flagged and self.cursor == len(self.line)):
                raise WebError("the game is over")
            if mover(self.board) in self.engine_seats and self.cursor == len(self.line):
                raise WebError("the engine is to move: wait for it, or take the engine off that side")
            self.board.parse_move(str(text))          # raises before anything changes
            self._cut()
            self._push(text)
            self._changed()

    def undo(self) -> None:
        """Take back the last move; against the engine, back to the last position where a
        person is to move."""
        with self._state:
            if self.cursor == 0:
                raise WebError("no move to take back")
            self._cut()
            self._pop()
            people = set(self.seats) - self.engine_seats
            while self.cursor and people and mover(self.board) in self.engine_seats:
                self._pop()
            self._cut()
            self._changed()

    def goto(self, ply: int) -> None:
        """Show the position after ``ply`` moves of the line (the line is kept; playing a
        move there starts a new one)."""
        with self._state:
            if not _whole(ply) or not 0 <= ply <= len(self.line):
                raise WebError(f"ply must be between 0 and {len(self.line)}, not {_shown_value(ply)}")
            while self.cursor > ply:
                self.board.pop()
                self.cursor -= 1
            while self.cursor < ply:
                self.board.push(self.line[self.cursor])
                self.cursor += 1
            self._changed()

    def configure(self, engine_seats=None, movetime=None, analysing=None, multipv=None) -> None:
        """Change who the engine plays, its time per move, and the analysis; what is not given
        stays. Every value is checked before any is applied."""
        with self._state:
            seats_ = self._check_seats(engine_seats) if engine_seats is not None else self.engine_seats
            seconds = _check_movetime(movetime) if movetime is not None else self.movetime
            lines = self.multipv
            if multipv is not None:
                if not _whole(multipv) or not 1 <= multipv <= MULTIPV_MAX:
                    raise WebError(f"lines must be between 1 and {MULTIPV_MAX}, not "
                                   f"{_shown_value(multipv)}")
                lines = multipv
            self.engine_seats, self.movetime, self.multipv = seats_, seconds, lines
            if analysing is not None:
                self.analysing = bool(analysing)
            self._changed()

    def touch(self) -> None:
        """The page is still there."""
        with self._state:
            self.last_seen = time.monotonic()
            self._wake.notify_all()              # in case the worker waits for a page

    def idle(self) -> float:
        """Seconds since a page last asked; past IDLE_PAUSE the search is stopped and waits
        for the next request (the server's reaper calls this)."""
        with self._state:
            seconds = time.monotonic() - self.last_seen
            if seconds > IDLE_PAUSE and self._engine.searching:
                self._changed()
            return seconds

    def close(self) -> None:
        """Stop the search, the review and the worker for good (the page went away)."""
        with self._state:
            self.closed = True
            self._review_stop.set()
            self._changed()
        self._worker.join(timeout=5)

    def record(self) -> str:
        """The game line as PDN (PGN for Superajedrez), with the result when it is over."""
        with self._state:
            board = Board(self.variant, self.start_fen)
            nodes = []
            for text in self.line:
                nodes.append(pdn.Node(board.push(text)))
            result = board.result() if board.is_game_over() else "*"
            headers = {"Event": "Dimensiones web board", "White": self._name("white"),
                       "Black": self._name("black"), "Result": result}
            if self.clock:
                headers["TimeControl"] = f"{self.clock[0]:g}+{self.clock[1]:g}"
            if self.flagged:
                result = headers["Result"] = self._time_outcome()["result"]
                headers["Termination"] = "time forfeit"
            return pdn.write_game(pdn.Game(headers, self.variant, self.start_fen, nodes, result))

    def state(self, flipped: bool = False) -> dict:
        """Everything the page draws, as JSON-ready values."""
        with self._state:
            board = self.board
            last = self.line[self.cursor - 1] if self.cursor else None
            arrows = []
            lines = (self.analysis or {}).get("lines") or []
            if lines and lines[0]["pv"] and not board.is_game_over():
                try:
                    arrows = move_arrow(board, board.parse_move(lines[0]["pv"][0]))
                except IllegalMoveError:
                    arrows = []                       # a report of a position no longer shown
            self._check_flag()
            outcome = board.outcome()
            at_end = self.cursor == len(self.line)
            if self._shown[0] != self.generation:    # polled several times a position
                start = Board(self.variant, self.start_fen)
                self._shown = (self.generation,
                               [] if outcome or (self.flagged and at_end) else click_moves(board),
                               self._tables(board),
                               [{"number": number, "text": text}
                                for number, text in pdn.numbered_moves(start, self.line)],
                               face(self.variant).captured(start, board))
            _, moves, tables, numbered, captured = self._shown
            check = face(self.variant).check_square(board)
            state = {
                "variant": self.variant,
                "title": GAMES[self.variant].title,
                "fen": board.fen(),
                "start_fen": self.start_fen,
                "svg": str(svg.board(board, lastmove=last, arrows=arrows, flipped=flipped,
                                     squares=[check] if check else ())),
                "mover": mover(board),
                "turn": str(board.turn),
                "seats": self.seats,
                "sides": face(self.variant).sides(self.variant),
                "engine_seats": sorted(self.engine_seats),
                "movetime": self.movetime,
                "analysing": self.analysing,
                "multipv": self.multipv,
                "thinking": self.thinking,
                "analysis": self.analysis,
                "line": list(self.line),
                "numbered": numbered,
                "captured": captured,
                "check": check,
                "cursor": self.cursor,
                "moves": moves,
                "outcome": self._outcome(outcome),
                "tables": tables,
                "clock": self._clock_state(),
                # A copy: the review's thread appends to its list while the page reads this.
                "review": None if self.review is None else dict(self.review,
                                                                 moves=list(self.review["moves"])),
                "generation": self.generation,
            }
            state.update(face(self.variant).extras(board))
            return state

    def start_review(self, movetime: float = REVIEW_MOVETIME, depth: int | None = None) -> None:
        """Analyse the whole line as `annotate` does (a search before and after every move),
        in a thread of its own; ``review`` in the state fills as it goes: each move's score
        after it from White's side (centi-men; mates at annotate.MATE_SCORE), its loss and
        mark, and ``done``/``total``. A new review replaces a running one. ``depth``: each
        search to that depth instead (the same review on every run)."""
        movetime = _check_movetime(movetime)
        if depth is not None and not (_whole(depth) and 1 <= depth <= 30):
            raise WebError(f"a review's depth must be between 1 and 30, not {_shown_value(depth)}")
        with self._state:
            if not self.line:
                raise WebError("no moves to review")
            self._review_stop.set()
            self._review_stop = stop = threading.Event()
            line, start_fen = list(self.line), self.start_fen
            self.review = {"done": 0, "total": len(line), "line": line, "moves": [],
                           "finished": False}
            review = self.review
        threading.Thread(target=self._review, args=(review, line, start_fen, movetime, depth, stop),
                         daemon=True, name=f"review-{self.variant}").start()

    # -- inside ---------------------------------------------------------------------------------

    def _review(self, review, line, start_fen, movetime, depth, stop) -> None:
        from . import annotate
        board = Board(self.variant, start_fen)
        nodes = [pdn.Node(board.push(text)) for text in line]
        game = pdn.Game({}, self.variant, start_fen, nodes, "*")

        def moved(entry) -> None:
            white = entry.after if entry.mover == 0 else -entry.after
            with self._state:
                review["moves"].append({"ply": entry.ply + 1, "move": entry.move, "white": white,
                                        "loss": entry.loss, "mark": entry.mark,
                                        "label": entry.label, "best": entry.best})
                review["done"] = len(review["moves"])

        try:
            annotate.analyse_game(game, Engine(hash_mb=16), None if depth else movetime,
                                  on_move=moved, stop=stop.is_set, depth=depth)
        except EngineError as exc:
            with self._state:
                review["error"] = str(exc)
        with self._state:
            review["finished"] = not stop.is_set()

    def _check_flag(self) -> None:
        """Under the lock: the side to move at the line's end loses on time once its clock
        passes zero (only while the game is not over by the rules)."""
        if not self.clock or self.flagged or self.closed:
            return
        side = self._side_at_end()
        if side is None:
            return
        if self.times[-1][side] - (clock_now() - self.turn_began) <= 0:
            self.flagged = side
            self.times[-1] = dict(self.times[-1], **{side: 0.0})
            self._changed()

    def _side_at_end(self) -> str | None:
        """The side whose clock runs (at the line's end), None once the game is over."""
        board = self.board
        if self.cursor != len(self.line):
            board = Board(self.variant, self.start_fen)
            for text in self.line:
                board.push(text)
        return None if board.is_game_over() else str(board.turn)

    def _clock_state(self) -> dict | None:
        if not self.clock:
            return None
        running = None if self.flagged else self._side_at_end()
        left = dict(self.times[-1])
        if running is not None:
            left[running] = max(0.0, left[running] - (clock_now() - self.turn_began))
        return {"base": self.clock[0], "increment": self.clock[1], "left": left,
                "running": running}

    def _time_outcome(self) -> dict:
        flagged = self.flagged or ""
        other = "black" if flagged == "white" else "white"
        end = Board(self.variant, self.start_fen)
        for text in self.line:
            end.push(text)
        player = face(self.variant).players(self.variant)
        if face(self.variant).cannot_win(end, other):
            return {"result": "1/2-1/2", "winner": None,
                    "reason": f"{player[flagged]} ran out of time, and {player[other]} cannot "
                              f"win: a draw", "subgames": None, "on_time": True}
        return {"result": "1-0" if other == "white" else "0-1", "winner": other,
                "reason": f"{player[flagged]} lost on time", "subgames": None, "on_time": True}

    def _outcome(self, outcome) -> dict | None:
        """The game's end as the page shows it: by the rules, or on time at the line's end."""
        if outcome is not None:
            return {"result": outcome.result(), "reason": outcome.reason(),
                    "winner": None if outcome.winner is None else str(outcome.winner),
                    "subgames": list(outcome.subgames) if outcome.subgames else None,
                    "on_time": False}
        if self.flagged and self.cursor == len(self.line):
            return self._time_outcome()
        return None

    def _cut(self) -> None:
        """Drop the moves after the position shown, and the clocks go back to that moment."""
        if self.cursor == len(self.line):
            return
        del self.line[self.cursor:]
        del self.times[self.cursor + 1:]
        if self.clock:
            self.flagged = None
            self.turn_began = clock_now()

    def _check_seats(self, chosen) -> set:
        if not isinstance(chosen, (list, tuple, set)) or not all(isinstance(seat, str)
                                                                for seat in chosen):
            raise WebError(f"the engine's seats must be a list of names, not "
                           f"{_shown_value(chosen)}")
        chosen = set(chosen)
        unknown = chosen - set(self.seats)
        if unknown:
            raise WebError(f"no seat {', '.join(sorted(map(str, unknown)))} in {self.variant} "
                           f"(seats: {', '.join(self.seats)})")
        return chosen

    def _name(self, side: str) -> str:
        """The record's name of a side: the engine's where it holds every seat of that side."""
        held = face(self.variant).seats_of(side)
        return "Dimensiones" if held <= self.engine_seats else "?"

    def _push(self, text) -> None:
        """Play a move at the line's end; its side's clock is charged and gets the increment."""
        side = str(self.board.turn)
        move = self.board.push(text)
        self.line.append(str(move))
        self.cursor += 1
        left = dict(self.times[-1])
        if self.clock:
            now = clock_now()
            left[side] = max(0.0, left[side] - (now - self.turn_began)) + self.clock[1]
            self.turn_began = now
        self.times.append(left)

    def _pop(self) -> None:
        self.board.pop()
        self.cursor -= 1
        del self.line[self.cursor:]
        del self.times[self.cursor + 1:]
        if self.clock:
            self.flagged = None
            self.turn_began = clock_now()

    def _changed(self) -> None:
        """After any change, under the lock: a new generation, the running search stopped."""
        self.generation += 1
        self.analysis = None
        self.thinking = False
        self._engine.stop()
        self._wake.notify_all()

    def _tables(self, board) -> dict | None:
        """The endgame tables' value of the position and of each move, when they hold it."""
        if self.tables is None or board.is_game_over():
            return None
        here = self.tables.probe(board)
        if here is None:
            return None
        moves = []
        for move in board.legal_moves():
            board.push(move)
            after = self.tables.probe(board) if not board.is_game_over() else None
            board.pop()
            if after is not None:
                flipped = {"win": "loss", "loss": "win", "draw": "draw"}[after.result]
                moves.append({"move": str(move), "result": flipped, "plies": after.plies + 1
                              if after.result != "draw" else 0})
        return {"result": here.result, "plies": here.plies, "moves": moves}

    def _next_task(self):
        """What the worker should search now, under the lock: ('play' | 'analyse', board copy,
        generation), or None to wait."""
        if self.closed or time.monotonic() - self.last_seen > IDLE_PAUSE:
            return None
        board = self.board
        if board.is_game_over():
            return None
        if self.cursor == len(self.line) and mover(board) in self.engine_seats and not self.flagged:
            return "play", board.copy(), self.generation
        if self.analysing:
            return "analyse", board.copy(), self.generation
        return None

    def _work(self) -> None:
        started = None                          # the generation whose task was last started
        while True:
            with self._state:
                while True:
                    if self.closed:
                        return
                    if self.generation != started:
                        task = self._next_task()
                        if task is not None:
                            break
                    self._wake.wait(timeout=1.0)
                kind, board, generation = task
                started = generation
                self.thinking = kind == "play"
            self._search(kind, board, generation)

    def _search(self, kind: str, board, generation: int) -> None:
        def report(info) -> None:
            with self._state:
                if generation != self.generation:
                    self._engine.stop()          # a stop that came before the search began
                    return
                self.analysis = _report(info, board)

        try:
            if kind == "play" and self.clock:
                # Both clocks given as the mover's: the engine reads the side to move's.
                with self._state:
                    left, began = self.times[-1][str(board.turn)], self.turn_began
                result = self._engine.search(board, wtime=left, btime=left, winc=self.clock[1],
                                             binc=self.clock[1], info=report, multipv=1,
                                             asked_at=began)
            elif kind == "play":
                result = self._engine.search(board, movetime=self.movetime, info=report,
                                             multipv=1)
            else:
                result = self._engine.search(board, infinite=True, info=report,
                                             multipv=self.multipv)
        except EngineError as exc:                # a position the search cannot take
            with self._state:
                self.analysis = {"error": str(exc)}
            return
        with self._state:
            self.thinking = False
            if generation != self.generation or kind != "play" or result.best_move is None:
                return
            self._check_flag()
            if self.flagged:
                return
            self._push(result.best_move)
            self.generation += 1
            self.analysis = None       # the engine's own search: not an analysis of what is shown
            self._wake.notify_all()


IDLE_PAUSE = 90.0        # seconds without a page asking: the game's search waits for it


def clock_now() -> float:
    """The players' clocks' time (time.monotonic; a test puts its own in its place)."""
    return time.monotonic()


def _report(info, board) -> dict:
    return {"depth": info.depth, "seldepth": info.seldepth, "nodes": info.nodes,
            "nps": info.nps, "time": round(info.time, 2), "tbhits": info.tbhits,
            "lines": [{"score": line.score, "mate": line.mate, "text": line.score_text(),
                       "pv": [str(m) for m in line.pv]} for line in info.lines]}
