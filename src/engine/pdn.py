"""Reading game files: PDN for the draughts games, Dipole and Super Dimensiones, PGN for
Superajedrez (Spanish or English piece letters).

    >>> from engine import pdn
    >>> game = pdn.read_game('[GameType "20"]\\n1. 32-28 19-23 2. 28x19 14x23 *')
    >>> game.variant, [str(m) for m in game.moves()], len(game.end().piece_map())
    ('international', ['32-28', '19-23', '28x19', '14x23'], 38)

A file holds games one after another: tag pairs (``[Event "..."]``), then the move text with
move numbers, comments (``{...}`` and ``;`` to the end of the line), variations in parentheses,
annotation marks (``!``, ``?``, ``$3``) and a result. The variant comes from the ``Variant`` tag
(this project's names, as its own records write them), else from ``GameType`` (the PDN numbers:
20 International, 21 English checkers, 24 Spanish, 30 Turkish), else from the ``variant``
argument; ``FEN`` gives the start position. Moves are read in every form ``Board.parse_move``
takes (draughts: ``32-28``, ``28x19``, full capture paths), and in Superajedrez also PGN's
English letters (``Nf3``, ``O-O``, ``e8=Q``), chosen per game (``language``).

Reading is tolerant, like python-chess: a game whose move text goes wrong keeps the moves read
so far and says what went wrong, with its line and column, in ``Game.errors``; ``strict=True`` raises
``PdnError`` instead; a bad FEN tag spoils its own game only. The habits of published files are
read as meant: plain moves written with ``x``, captures with ``-`` or ``:``, squares padded with a
space (``1- 6``) or a zero, algebraic squares on numbered 8×8 boards (Russian and Czech records:
``c3-d4``), a capture given by its two ends where the next move shows the route, FENs ending in a
period, ``%`` escape lines, ``(!?)`` marks and ``...`` placeholders. Writing is ``write_game``,
the one writer of game records (the match runner's and the DXP player's go through it).
"""

from __future__ import annotations

import functools
import io
import itertools
import os
import re
from dataclasses import dataclass, field

from . import Board, games
from .errors import EngineError, whole_number
from .geometry import algebraic

# Variations inside variations, at most: deeper nesting is refused when read (each level keeps a
# line open) and when written.
MAX_NESTING = 100
RESULTS = {"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"}
# English piece letters -> Spanish (RULES.md §7.9): king, queen, rook, bishop, knight.
ENGLISH_TO_SPANISH = {"K": "R", "Q": "D", "R": "T", "B": "A", "N": "C"}

_TOKEN = re.compile(r"""
      (?P<tag>\[\s*(?P<key>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\])
    | (?P<comment>\{[^}]*\}?)
    | (?P<line_comment>;[^\n]*)
    | (?P<strength>\([!?]{1,6}\))
    | (?P<open>\()
    | (?P<close>\))
    | (?P<nag>\$\d+)
    | (?P<number>\d+\s*\.(?:\.\.)?)
    | (?P<word>[^\s(){};\[\]]+)
    | (?P<bad>\S)
""", re.VERBOSE)


class PdnError(EngineError):
    """A game file that cannot be read; the message names the line and column."""


class _Where(tuple):
    """Where a token starts: (line, column), both from 1; prints as 'line L, column C'."""

    def __new__(cls, line: int, column: int):
        return super().__new__(cls, (line, column))

    @property
    def line(self) -> int:
        return self[0]

    def __str__(self) -> str:
        return f"line {self[0]}, column {self[1]}"


@dataclass
class Node:
    """A move of a game, with its comment, annotation marks and the variations that could
    have been played instead of it."""
    move: object
    comment: str = ""
    nags: list = field(default_factory=list)
    variations: list = field(default_factory=list)     # each a list of Nodes


@dataclass
class Game:
    headers: dict
    variant: str
    start_fen: str
    mainline: list = field(default_factory=list)        # Nodes
    result: str = "*"
    comment: str = ""                                   # before the first move
    errors: list = field(default_factory=list)          # what went wrong, with the line
    line: int = 1                                       # where the game starts in the file

    def board(self) -> Board:
        """The start position."""
        return Board(self.variant, self.start_fen)

    def moves(self) -> list:
        """The main line's moves."""
        return [node.move for node in self.mainline]

    def end(self) -> Board:
        """The position after the main line, with the moves in its history."""
        board = self.board()
        for move in self.moves():
            board.push(move)
        return board


def read_games(source, variant: str | None = None, *, strict: bool = False,
               language: str = "auto") -> list[Game]:
    """Every game of ``source``: the text itself (a ``str``), a path (``pathlib.Path``) or an
    open text file. A string is never taken for a file name: what a request or a protocol
    line gives cannot make the reader open a file."""
    return list(iter_games(source, variant, strict=strict, language=language))


def read_game(source, variant: str | None = None, **options) -> Game:
    """The first game of ``source``; PdnError if it holds none."""
    for game in iter_games(source, variant, **options):
        return game
    raise PdnError("no game in the file")


def iter_games(source, variant: str | None = None, *, strict: bool = False,
               language: str = "auto"):
    """The games of ``source`` one by one (see read_games)."""
    if language not in ("auto", "es", "en"):
        raise ValueError(f"language is auto, es or en, not {language!r}")
    text = _text(source)
    tokens = list(_tokens(text))
    i = 0
    while i < len(tokens):
        headers: dict = {}
        first_line = tokens[i][2].line
        while i < len(tokens) and tokens[i][0] == "tag":
            headers[tokens[i][1][0]] = tokens[i][1][1]
            i += 1
        body = []
        depth = 0                                        # of variations, kept as tokens come
        while i < len(tokens) and tokens[i][0] != "tag":
            kind, value, _where = tokens[i]
            body.append(tokens[i])
            i += 1
            depth += 1 if kind == "open" else -1 if kind == "close" else 0
            if kind == "word" and value in RESULTS and depth <= 0:
                break
        if not headers and not any(kind != "comment" for kind, _, _ in body):
            continue                                     # trailing comments: no game
        yield _game(headers, body, variant, strict, language, first_line)


def _text(source) -> str:
    if isinstance(source, io.TextIOBase) or hasattr(source, "read"):
        text = source.read()
        return text.decode("utf-8", errors="replace") if isinstance(text, bytes) else text
    if isinstance(source, (bytes, bytearray)):
        return source.decode("utf-8", errors="replace")
    if isinstance(source, os.PathLike):
        path = os.fspath(source)
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError as exc:
            raise PdnError(f"{path}: {exc.strerror}") from None
        except ValueError as exc:                        # a NUL byte in the name
            raise PdnError(f"{path!r}: {exc}") from None
    if not isinstance(source, str):
        raise TypeError(f"a game file is text, a path or an open file, not {type(source).__name__}")
    return source


# Old files pad one-digit squares with a space ("1- 6", "17x 8"): joined back, the padding
# kept after the move so that columns still point at the text as written.
_PADDED_MOVE = re.compile(r"(?<![\d.])(\d{1,2})([-x])([ \t]+)(\d{1,2})(?![\d.])")
# A line that starts with '%' is PGN's escape mechanism: software-specific, ignored.
_ESCAPE_LINE = re.compile(r"^%[^\n]*", re.MULTILINE)


def _tokens(text: str):
    """(kind, value, where) for every token of the text."""
    text = _ESCAPE_LINE.sub(lambda m: " " * len(m.group(0)), text)
    text = _PADDED_MOVE.sub(lambda m: m.group(1) + m.group(2) + m.group(4) + m.group(3), text)
    line = 1
    pos = 0
    line_start = 0
    for m in _TOKEN.finditer(text):
        newlines = text.count("\n", pos, m.start())
        if newlines:
            line += newlines
            line_start = text.rindex("\n", pos, m.start()) + 1
        pos = m.start()
        where = _Where(line, m.start() - line_start + 1)
        kind = m.lastgroup
        if kind == "tag":
            value = (m.group("key"), re.sub(r"\\(.)", r"\1", m.group("value")))
            yield "tag", value, where
        elif kind == "comment":
            if not m.group(0).endswith("}"):
                yield "bad", "a comment that never closes ('{' without '}')", where
            yield "comment", m.group(0)[1:-1].strip(), where
        elif kind == "line_comment":
            yield "comment", m.group(0)[1:].strip(), where
        elif kind == "number" or m.group(0) == "...":
            continue                                    # move numbers carry nothing we need
        elif kind == "strength":
            yield "word_mark", m.group(0)[1:-1], where  # "(!?)": PDN's move strength
        else:
            yield kind, m.group(0), where


def _variant(headers: dict, default: str | None, line: int) -> str:
    from . import variants
    name = headers.get("Variant")
    if name:
        name = name.strip().lower()
        if name in variants():
            return name
        raise PdnError(f"line {line}: unknown Variant {headers['Variant']!r} "
                       f"(known: {', '.join(variants())})")
    game_type = headers.get("GameType")
    if game_type:
        number = game_type.split(",")[0].strip()
        known = games.by_pdn_game_type(whole_number(number) or 0)
        if known is not None:
            return known.name
        if default is None:
            numbered = sorted((g.pdn_game_type, g.name) for g in games.GAMES.values()
                              if g.pdn_game_type)
            raise PdnError(f"line {line}: GameType {game_type!r} is not a game this engine plays "
                           f"(known: {', '.join(f'{k} {v}' for k, v in numbered)})")
    if default is None:
        # No tag says: a chess-like FEN (ranks and slashes) or a SetUp tag is a PGN game (of the
        # one game written in PGN), anything else the default game.
        if "SetUp" in headers or _looks_like_pgn(headers):
            pgn = games.names(record="PGN")
            if len(pgn) == 1:
                return pgn[0]
        return games.DEFAULT
    return default


def _looks_like_pgn(headers: dict) -> bool:
    fen = headers.get("FEN", "")
    return "/" in fen and ":" not in fen


def _game(headers, body, default_variant, strict, language, first_line) -> Game:
    variant = _variant(headers, default_variant, first_line)
    fen = headers.get("FEN")
    if fen:
        fen = fen.strip().rstrip(".")                   # PDN 3 FENs may end with a period
    try:
        start = Board(variant, fen) if fen else Board(variant)
    except EngineError as exc:
        message = f"line {first_line}: the FEN tag is not a {variant} position ({exc})"
        if strict:
            raise PdnError(message) from None
        # Kept with its error and no moves: the rest of the file still reads; board() raises.
        return Game(headers=headers, variant=variant, start_fen=fen or "", line=first_line,
                    errors=[message])
    game = Game(headers=headers, variant=variant, start_fen=start.fen(), line=first_line)
    algebraic_moves = games.game(variant).record == "PGN"
    if algebraic_moves and language == "auto":
        language = _guess_language(body)
    for kind, value, where in body:
        if kind == "bad":
            problem = value if len(value) > 1 else f"unexpected {value!r}"
            _fail(game, strict, f"{where}: {problem}")
            return game
    # The line being read is `line_nodes`, on `board`. A variation replaces the last move of its
    # line: '(' takes that move back and keeps (the line, the move) on a stack; ')' takes back
    # the variation's moves and plays the move again. No board is copied, so a long game full of
    # variations reads in linear time.
    board = start.copy()
    line_nodes = game.mainline
    stack: list = []
    comments: dict = {}                   # id(node) -> (node, its comment's parts), joined last
    opening_comment: list = []
    pending_comment: list = []
    broken = False
    for index, (kind, value, where) in enumerate(body):
        if kind == "comment":
            if line_nodes:
                node = line_nodes[-1]
                comments.setdefault(id(node), (node, [node.comment]))[1].append(value)
            elif not stack:
                opening_comment.append(value)
            else:
                pending_comment.append(value)
        elif kind == "nag":
            if line_nodes:
                line_nodes[-1].nags.append(int(value[1:]))
        elif kind == "word_mark":
            if line_nodes:
                line_nodes[-1].nags.extend(_marks(value))
        elif kind == "open":
            if not line_nodes:
                _fail(game, strict, f"{where}: a variation before any move")
                broken = True
                break
            if len(stack) >= MAX_NESTING:
                _fail(game, strict, f"{where}: variations nested deeper than {MAX_NESTING}")
                broken = True
                break
            alternative: list = []
            line_nodes[-1].variations.append(alternative)
            stack.append((line_nodes, board.pop()))
            line_nodes = alternative
        elif kind == "close":
            if not stack:
                _fail(game, strict, f"{where}: ')' without '('")
                broken = True
                break
            for _ in line_nodes:
                board.pop()
            line_nodes, move = stack.pop()
            board.push(move)
        elif kind == "word":
            if value in RESULTS:
                if stack:
                    _fail(game, strict, f"{where}: the result {value} inside a variation")
                    broken = True
                    break
                game.result = value
                continue
            try:
                move = _parse(board, value, language)
            except EngineError as exc:
                move = _resolve_by_next_move(board, value, body, index, language)
                if move is None:
                    _fail(game, strict, f"{where}: {exc}")
                    broken = True
                    break
            board.push(move)
            node = Node(move, comment=" ".join(pending_comment), nags=_marks(value))
            pending_comment = []
            line_nodes.append(node)
    game.comment = " ".join(part for part in opening_comment if part)
    for node, parts in comments.values():
        node.comment = " ".join(part for part in parts if part)
    if stack and not broken:
        _fail(game, strict, "the game ends inside a variation ('(' without ')')")
    return game


def _fail(game: Game, strict: bool, message: str) -> None:
    if strict:
        raise PdnError(message)
    game.errors.append(message)


_MARKS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


def _marks(word: str) -> list:
    tail = re.search(r"[!?]+$", word)
    return [_MARKS[tail.group(0)]] if tail and tail.group(0) in _MARKS else []


def _guess_language(body) -> str:
    """English if a move uses a letter or form only English PGN has (N, Q, B, K, O-O)."""
    for kind, value, _where in body:
        if kind == "word" and value not in RESULTS:
            if re.match(r"^(O-O|[NQBK][a-h1-8x@])", value):
                return "en"
            if re.match(r"^(0-|[DTAC][a-h1-8x])", value):
                return "es"
    return "es"


def _parse(board, word: str, language: str):
    text = re.sub(r"[!?]+$", "", word)
    if games.game(board.variant).record == "PGN":
        text = text.rstrip("+#")
        if language == "en":
            text = _english(text)
    try:
        return board.parse_move(text)
    except EngineError:
        move = _by_squares(board, text)
        if move is None:
            raise
        return move


def _by_squares(board, text: str):
    """The legal draughts move whose squares are those written, whatever the separator and
    the square names: published files write some plain moves with 'x' ('29x25'), captures
    with '-' or ':', squares with leading zeros ('06-11') and, for Russian and Czech games,
    algebraic names ('c3-d4', 'a5xc3'). None when the text is not a list of squares."""
    squares = _written_squares(board.variant, text)
    if squares is None:
        return None
    error = None
    for separator in "x-":
        try:
            return board.parse_move(separator.join(squares))
        except EngineError as exc:
            error = error or exc
    if any(square not in text for square in squares):
        # Algebraic names were read: say what they meant rather than that they are no squares.
        raise EngineError(f"move {text!r} ({'-'.join(squares)}): {error}")
    return None


def _resolve_by_next_move(board, word: str, body: list, index: int, language: str):
    """Files often give a capture by its first and last squares only ('36x16') where two
    routes of this engine's move list take different pieces: the move that lets the next move of
    the same line be played is the one meant. None when that does not single one out."""
    squares = _written_squares(board.variant, re.sub(r"[!?]+$", "", word))
    following = _next_word(body, index)
    if squares is None or following is None:
        return None
    routes = [m for m in board.legal_moves() if m.is_capture
              and str(m.from_square) == squares[0] and str(m.to_square) == squares[-1]]
    fitting = []
    for move in routes:
        board.push(move)
        try:
            _parse(board, following, language)
            fitting.append(move)
        except EngineError:
            pass
        finally:
            board.pop()
    return fitting[0] if len(routes) > 1 and len(fitting) == 1 else None


def _written_squares(variant: str, text: str) -> list | None:
    """The squares a draughts move string names, as this project numbers them; None when the
    game is not a draughts game or the text is not a list of two or more squares."""
    if variant not in _draughts_rows():
        return None
    squares = re.split(r"[-x:]", text)
    if len(squares) == 1:
        squares = re.findall(r"[a-l]\d{1,2}", text)        # "a3b4": no separator
        if "".join(squares) != text:
            return None
    if len(squares) < 2 or not all(squares):
        return None
    names = _square_numbers(variant)
    return [names.get(s, s.lstrip("0") or s) for s in squares]


def _next_word(body: list, index: int):
    """The next move of the same line after body[index], skipping variations."""
    depth = 0
    for kind, value, _where in itertools.islice(body, index + 1, None):
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth < 0:
                return None
        elif kind == "word" and depth == 0:
            return None if value in RESULTS else value
    return None


def _draughts_rows() -> dict:
    from .rulesets import DRAUGHTS_VARIANTS
    return DRAUGHTS_VARIANTS


@functools.lru_cache(maxsize=None)
def _square_numbers(variant: str) -> dict:
    """Algebraic name -> square number on a numbered draughts board (files of Russian and Czech
    games write 'c3-d4'); empty for other boards."""
    row = _draughts_rows()[variant]
    if not row.numbered:
        return {}
    return {algebraic(*row.geometry.coords[bit]): name for bit, name in row.square_names.items()}


def _english(text: str) -> str:
    """An English SAN move in the Spanish letters the board reads."""
    text = text.replace("O-O-O", "0-0-0").replace("O-O", "0-0")
    if "@" in text:
        return text                                   # placements: the engine form already
    out = []
    for i, ch in enumerate(text):
        piece_position = i == 0 or (i > 0 and text[i - 1] == "=")
        out.append(ENGLISH_TO_SPANISH.get(ch, ch) if piece_position else ch)
    return "".join(out)


# -- writing ---------------------------------------------------------------------------------------

_SYMBOLS = {v: k for k, v in _MARKS.items()}
_TAG_ORDER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


# The FMJD's way of writing results, used by 10×10 draughts records (games.Game.fmjd_results).
FMJD_RESULTS = {"1-0": "2-0", "0-1": "0-2", "1/2-1/2": "1-1"}


def write_game(game: Game) -> str:
    """The game as its game writes records (PDN; PGN with Spanish algebraic moves where the
    game's record says so, as Superajedrez's), with its tags, comments, marks and variations;
    reading it back gives the same game. The one writer of game files: the match runner, the
    DXP player, the web board and annotate all write through it."""
    facts = games.game(game.variant)
    result = FMJD_RESULTS.get(game.result, game.result) if facts.fmjd_results else game.result
    headers = dict(game.headers)
    headers["Result"] = result
    headers["Variant"] = game.variant
    if "FEN" not in headers and game.start_fen != Board(game.variant).fen():
        headers["FEN"] = game.start_fen
    tags = [k for k in _TAG_ORDER if k in headers] + [k for k in headers if k not in _TAG_ORDER]
    lines = [f'[{k} "{_quote(str(headers[k]))}"]' for k in tags]
    if _nesting(game.mainline) > MAX_NESTING:
        raise PdnError(f"variations nested deeper than {MAX_NESTING}: no reader would take them")
    board = game.board()
    algebraic_moves = facts.record == "PGN"
    number = getattr(board, "fullmove_number", 1) if algebraic_moves else 1
    words = [f"{{{_comment(game.comment)}}}"] if game.comment else []
    words += _line_words(board, game.mainline, number, algebraic_moves)
    words.append(result)
    text, line = [], ""
    for word in words:
        if line and len(line) + len(word) + 1 > 79:
            text.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    text.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(text) + "\n\n"


def numbered_moves(board, moves) -> list[tuple[str | None, str]]:
    """A line of moves from ``board`` (left as it was) as write_game numbers and writes it:
    for each move, the number before it (``"1."``, ``"1..."`` where the line starts with the
    other player, else None) and its text (Superajedrez's Spanish algebraic, ``0-Ta2``)."""
    algebraic_moves = games.game(board.variant).record == "PGN"
    number = getattr(board, "fullmove_number", 1) if algebraic_moves else 1
    first = board.spec.first_player
    out: list[tuple[str | None, str]] = []
    pushed = 0
    previous: int | None = None
    try:
        for move in moves:
            move = board.parse_move(str(move)) if isinstance(move, str) else move
            side = int(board.turn)
            label = _turn_number(number, side, first, previous, not out)
            out.append((label, board.san(move) if algebraic_moves else str(move)))
            board.push(move)
            pushed += 1
            if side != first and int(board.turn) == first:
                number += 1
            previous = side
    finally:
        for _ in range(pushed):
            board.pop()
    return out


def _turn_number(number: int, side: int, first: int, previous: int | None,
                 needed: bool) -> str | None:
    """The number written before a move: ``N.`` before a turn of the first player that follows
    the other player's, ``N...`` where a number is ``needed`` (a line or a comment leaves the
    other player to move), else none."""
    if side == first and previous != first:
        return f"{number}."
    return f"{number}..." if needed else None


def _line_words(board, nodes, number: int, algebraic_moves: bool) -> list:
    """The words of a line from `board` (left as it was): a number before each turn of the
    game's first player that follows the other player's (in Super Dimensiones a player can move
    twice running), `N...` where a line or a comment leaves the other player to move."""
    words = []
    first = board.spec.first_player
    need_number = True
    previous = None
    for node in nodes:
        side = int(board.turn)
        label = _turn_number(number, side, first, previous, need_number)
        if label:
            words.append(label)
        need_number = False
        text = board.san(node.move) if algebraic_moves else str(node.move)
        marks = [n for n in node.nags if n in _SYMBOLS]
        if marks:
            text += _SYMBOLS[marks[0]]
        words.append(text)
        words += [f"${n}" for n in node.nags if n not in _SYMBOLS or n != marks[0]]
        if node.comment:
            words.append(f"{{{_comment(node.comment)}}}")
            need_number = True
        for variation in node.variations:
            words.append("(")
            words += _line_words(board, variation, number, algebraic_moves)
            words.append(")")
            need_number = True
        board.push(node.move)
        if side != first and int(board.turn) == first:
            number += 1
        previous = side
    for _ in nodes:
        board.pop()
    # Glue parentheses to their neighbours: "(17-22" and "11x22)".
    out: list[str] = []
    for word in words:
        if out and out[-1] == "(":
            out[-1] = "(" + word
        elif word == ")" and out:
            out[-1] += ")"
        else:
            out.append(word)
    return out


def _nesting(nodes: list) -> int:
    """How deep the variations under a line go (0: none), counted without recursion."""
    deepest = 0
    todo = [(nodes, 0)]
    while todo:
        line, depth = todo.pop()
        deepest = max(deepest, depth)
        todo.extend((variation, depth + 1) for node in line for variation in node.variations)
    return deepest


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment(text: str) -> str:
    return text.replace("}", ")")
