"""SVG pictures of positions, for every game: ``engine.svg.board(board)``.

    >>> import engine, engine.svg
    >>> picture = engine.svg.board(engine.Board("international"), size=360)
    >>> picture.startswith("<svg")
    True

The picture is a string (``SvgImage``) that notebooks show inline; ``Board._repr_svg_`` returns
it, so a board at the end of a Jupyter cell is drawn. Everything is drawn from the board's public
face (``piece_map``, ``spec``, reserves, cards), so the picture shows what the FEN says:

- draughts: the board of its size with its playable squares, square numbers on the numbered
  boards, men and kings (a crown), Chapinas' piece numbers;
- Dipole: stacks with their heights;
- Superajedrez: the pieces (Unicode chess figures), the protected reserved squares of each side
  (a corner mark in the owner's colour) and both reserves beside the board;
- Super Dimensiones: the four teams in four colours, queens crowned, and a line with the team to
  move, the cards and the sub-games' state.

``lastmove`` (a move or its string) highlights the squares its string names, ``arrows`` draws
arrows between square names, ``squares`` marks more squares, ``flipped`` turns the board so
that the second player is at the bottom. No drawing comes from another project: the shapes here
are circles, a five-point crown and text.
"""

from __future__ import annotations

import re
from html import escape

LIGHT = "#f0d9b5"
DARK = "#b58863"
PLAYABLE = "#8f6a47"             # the playable squares of the one-colour draughts boards
HIGHLIGHT = "#f6f669"
MARK = "#3b82f6"
ARROW = "#15803d"
WHITE_FILL, WHITE_EDGE = "#fbfbf7", "#555555"
BLACK_FILL, BLACK_EDGE = "#262626", "#000000"
TEAM_COLOURS = {"a": "#dc2626", "b": "#2563eb", "c": "#16a34a", "d": "#ca8a04"}
# The solid figures (U+265A-U+265F) for both sides, filled with the side's colour: fonts draw
# the outline figures of U+2654-U+2659 in too many ways.
CHESS_FIGURES = {"K": "\u265a", "Q": "\u265b", "R": "\u265c", "B": "\u265d", "N": "\u265e",
                 "P": "\u265f"}
SQ = 45                          # a square's side in drawing units
EDGE = 20                        # room for the coordinates


class SvgImage(str):
    """An SVG document; Jupyter shows it as a picture."""

    def _repr_svg_(self) -> str:
        return self


def board(board, *, size: int | None = None, lastmove=None, arrows=(), squares=(),
          coordinates: bool = True, flipped: bool = False) -> SvgImage:
    """The picture of ``board``. ``size``: width in pixels (default: natural size, 45 a
    square); ``lastmove``: a move (or move string) whose squares are highlighted; ``arrows``:
    (from, to) square-name pairs; ``squares``: square names to mark; ``coordinates``: file
    letters and rank numbers around the board; ``flipped``: the second player at the bottom.
    An unknown square name raises ValueError and draws nothing."""
    if size is not None and size < 1:
        raise ValueError(f"size must be 1 pixel or more, not {size}")
    shape = _Shape(board)
    named = [str(s) for s in squares]
    pairs = [(str(a), str(b)) for a, b in arrows]
    for name in named + [n for pair in pairs for n in pair]:
        if name not in shape.where:
            raise ValueError(f"{name!r} is not a square of {board.variant}")
    moved = shape.squares_in(str(lastmove)) if lastmove is not None else []
    edge = EDGE if coordinates else 0
    side_panel = 4 * SQ if shape.kind == "superajedrez" else 0
    footer = 52 if shape.kind == "superdimensiones" else 0
    width = edge + shape.files * SQ + side_panel
    height = shape.ranks * SQ + edge + footer
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="{size or width}" height="{(size or width) * height // width}" '
           f'font-family="sans-serif">',
           f'<desc>{escape(board.fen())}</desc>',
           f'<rect width="{width}" height="{height}" fill="#ffffff"/>']

    def corner(name: str) -> tuple[int, int]:
        f, r = shape.where[name]
        if flipped:
            f, r = shape.files - 1 - f, shape.ranks - 1 - r
        return edge + f * SQ, (shape.ranks - 1 - r) * SQ

    def centre(name: str) -> tuple[float, float]:
        x, y = corner(name)
        return x + SQ / 2, y + SQ / 2

    # Squares, their numbers, highlights and marks.
    for f in range(shape.files):
        for r in range(shape.ranks):
            x: float = edge + (shape.files - 1 - f if flipped else f) * SQ
            y = (r if flipped else shape.ranks - 1 - r) * SQ
            name = shape.name_at.get((f, r))
            data = f' data-square="{name}"' if name else ""      # for a page that is clicked
            colour = shape.colour(f, r)
            shade = {LIGHT: "light", DARK: "dark", PLAYABLE: "playable"}[colour]  # page themes
            out.append(f'<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" '
                       f'fill="{colour}" class="square" data-shade="{shade}"{data}/>')
    for name in moved:
        x, y = corner(name)
        out.append(f'<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{HIGHLIGHT}" '
                   f'fill-opacity="0.55" class="lastmove"/>')
    for name in named:
        x, y = corner(name)
        out.append(f'<rect x="{x + 2}" y="{y + 2}" width="{SQ - 4}" height="{SQ - 4}" fill="none" '
                   f'stroke="{MARK}" stroke-width="3" class="mark"/>')
    if shape.numbered:
        for name in shape.where:
            x, y = corner(name)
            out.append(f'<text x="{x + 3}" y="{y + 10}" font-size="9" fill="#f5e6cc" '
                       f'class="number">{name}</text>')
    for owner, names in shape.protected():
        for name in names:
            x, y = corner(name)
            fill = WHITE_FILL if owner == 0 else BLACK_FILL
            out.append(f'<polygon points="{x + SQ},{y} {x + SQ - 12},{y} {x + SQ},{y + 12}" '
                       f'fill="{fill}" stroke="{WHITE_EDGE}" stroke-width="0.8" class="protected"/>')

    # Pieces.
    for name, piece in shape.pieces():
        out.append(shape.draw_piece(piece, *centre(name)))

    # Arrows, over everything but the coordinates.
    if pairs:
        out.append(f'<defs><marker id="head" viewBox="0 0 10 10" refX="5" refY="5" '
                   f'markerWidth="3" markerHeight="3" orient="auto"><path d="M0,0 L10,5 L0,10 z" '
                   f'fill="{ARROW}"/></marker></defs>')
        for a, b in pairs:
            (x1, y1), (x2, y2) = centre(a), centre(b)
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{ARROW}" '
                       f'stroke-width="7" stroke-opacity="0.8" marker-end="url(#head)" class="arrow"/>')

    if coordinates:
        for f in range(shape.files):
            x = edge + (shape.files - 1 - f if flipped else f) * SQ + SQ / 2
            out.append(f'<text x="{x}" y="{shape.ranks * SQ + 14}" font-size="12" '
                       f'text-anchor="middle" class="coordinate">{chr(97 + f)}</text>')
        for r in range(shape.ranks):
            y = (r if flipped else shape.ranks - 1 - r) * SQ + SQ / 2 + 4
            out.append(f'<text x="{edge / 2}" y="{y}" font-size="12" text-anchor="middle" '
                       f'class="coordinate">{r + 1}</text>')
    out.extend(shape.extras(edge + shape.files * SQ, shape.ranks * SQ + edge))
    out.append("</svg>")
    return SvgImage("\n".join(out))


def move_squares(board, move) -> list[str]:
    """The square names a move's string mentions, in order (what ``lastmove`` highlights)."""
    return _Shape(board).squares_in(str(move))


# The families whose boards these pictures know how to draw.
DRAWN_FAMILIES = ("draughts", "stacks", "superajedrez", "superdimensiones")


class _Shape:
    """What a family's board looks like: its size, square colours, names and pieces."""

    def __init__(self, board):
        self.board = board
        spec = board.spec
        self.numbered = False
        self.where: dict[str, tuple[int, int]] = {}     # square name -> (file, rank)
        from .errors import EngineError
        from .games import GAMES
        record = GAMES.get(board.variant)
        self.kind = record.family if record is not None else ""
        if self.kind not in DRAWN_FAMILIES:
            # Another family's board (a plugin's) is drawn as a plain square board when it
            # says its size and where its pieces are (see docs/adding-a-game.md).
            if not (isinstance(getattr(spec, "size", None), int) and 0 < spec.size <= 26
                    and hasattr(board, "piece_map")):
                raise EngineError(f"no picture for {board.variant}: its board gives no "
                                  f"spec.size and piece_map()")
            self.kind = "plain"
        if self.kind == "draughts":
            self.files = self.ranks = spec.size
            self.numbered = spec.numbered
            self.one_colour = spec.colour != "all"
            for bit, (f, r) in spec.geometry.coords.items():
                self.where[spec.square_names[bit]] = (f, r)
        else:
            self.files = self.ranks = spec.size
            self.one_colour = self.kind == "stacks"          # Dipole: the dark squares
            for f in range(self.files):
                for r in range(self.ranks):
                    if not self.one_colour or (f + r) % 2 == 0:
                        self.where[f"{chr(97 + f)}{r + 1}"] = (f, r)
        self.playable = set(self.where.values())
        self.name_at = {place: name for name, place in self.where.items()}
        # Longest names first, so that "10" is not read as "1".
        names = sorted(self.where, key=len, reverse=True)
        self._name_re = re.compile("|".join(re.escape(n) for n in names))

    def colour(self, f: int, r: int) -> str:
        if self.one_colour:
            return PLAYABLE if (f, r) in self.playable else LIGHT
        return DARK if (f + r) % 2 == 0 else LIGHT

    def squares_in(self, text: str) -> list[str]:
        """The square names a move string mentions, in order (numbers only as whole tokens)."""
        if self.numbered:
            return [t for t in re.findall(r"\d+", text) if t in self.where]
        text = re.sub(r"off\d*", "", text)        # Dipole's "e1-off5": no square f5 in it
        return [m.group(0) for m in self._name_re.finditer(text)]

    def pieces(self):
        for key, piece in self.board.piece_map().items():
            yield str(key), piece

    def protected(self):
        if self.kind != "superajedrez":
            return []
        from .types import BLACK, WHITE
        return [(0, self.board.protected_squares(WHITE)), (1, self.board.protected_squares(BLACK))]

    def draw_piece(self, piece: str, x: float, y: float) -> str:
        if self.kind == "superajedrez":
            fill = WHITE_FILL if piece.isupper() else BLACK_FILL
            return (f'<text x="{x}" y="{y + 13}" font-size="38" text-anchor="middle" '
                    f'fill="{fill}" stroke="{BLACK_EDGE}" stroke-width="0.6" class="piece">'
                    f'{CHESS_FIGURES[piece.upper()]}</text>')
        if self.kind == "superdimensiones":
            fill, edge, crowned, label = TEAM_COLOURS[piece.lower()], BLACK_EDGE, piece.isupper(), ""
        else:
            colour, _, number = piece.partition(".")
            white = colour[0] in "wW"
            fill, edge = (WHITE_FILL, WHITE_EDGE) if white else (BLACK_FILL, BLACK_EDGE)
            crowned = colour[0].isupper() and self.kind == "draughts"
            label = number if self.kind == "draughts" else colour[1:]    # Chapinas / heights
        side = ("white" if fill == WHITE_FILL else "black" if fill == BLACK_FILL
                else piece.lower()[0])                    # for a page's piece styles
        parts = [f'<g class="piece" data-side="{side}"><circle cx="{x}" cy="{y}" '
                 f'r="{SQ * 0.4:.1f}" fill="{fill}" '
                 f'stroke="{edge}" stroke-width="1.5"/>',
                 f'<circle cx="{x}" cy="{y}" r="{SQ * 0.3:.1f}" fill="none" stroke="{edge}" '
                 f'stroke-width="0.8" stroke-opacity="0.6"/>']
        ink = BLACK_FILL if fill == WHITE_FILL else WHITE_FILL
        if crowned:
            parts.append(f'<path d="{_crown(x, y)}" fill="{ink}" class="crown"/>')
        if label:
            parts.append(f'<text x="{x}" y="{y + (12 if crowned else 5)}" font-size="'
                         f'{11 if crowned else 14}" text-anchor="middle" fill="{ink}" '
                         f'font-weight="bold">{escape(label)}</text>')
        parts.append("</g>")
        return "".join(parts)

    def extras(self, right: int, bottom: int) -> list[str]:
        board = self.board
        if self.kind == "superajedrez":
            from .types import BLACK, WHITE
            out = []
            for row, (colour, title) in enumerate(((BLACK, "Black"), (WHITE, "White"))):
                y0 = 20 + row * (self.ranks * SQ // 2)
                out.append(f'<text x="{right + 10}" y="{y0}" font-size="13" class="reserve">'
                           f'{title} reserve</text>')
                line = 0
                for letter, count in board.reserve(colour).items():
                    if count:
                        fill = WHITE_FILL if colour == WHITE else BLACK_FILL
                        out.append(f'<text x="{right + 12}" y="{y0 + 30 + 26 * line}" font-size="24" '
                                   f'fill="{fill}" stroke="{BLACK_EDGE}" stroke-width="0.5" class="reserve">'
                                   f'{CHESS_FIGURES[letter]}</text><text x="{right + 42}" '
                                   f'y="{y0 + 26 + 26 * line}" font-size="14">\u00d7 {count}</text>')
                        line += 1
            return out
        if self.kind == "superdimensiones":
            state = ", ".join(f"sub-game {k} {'open' if v is None else v}"
                              for k, v in board.subgame_results().items())
            chooser, huff, _ = board.fen().split()[1].partition("!")
            lines = [f"team {chooser} chooses the man to remove (huff)" if huff else
                     f"team {board.team} to move", f"cards {board.cards}", state]
            return [f'<circle cx="{10}" cy="{bottom + 10}" r="6" fill="{TEAM_COLOURS[chooser]}" '
                    f'class="turn"/>'] + [f'<text x="22" y="{bottom + 14 + 16 * i}" font-size="11" '
                                          f'class="status">{escape(text)}</text>'
                                          for i, text in enumerate(lines)]
        return []


def _crown(x: float, y: float) -> str:
    """A five-point crown centred on (x, y)."""
    w, h = SQ * 0.36, SQ * 0.2
    left, top, base = x - w / 2, y - h * 0.9, y + h * 0.35
    points = [(left, base), (left, top + h * 0.3), (left + w * 0.25, top + h * 0.75), (x, top),
              (left + w * 0.75, top + h * 0.75), (left + w, top + h * 0.3), (left + w, base)]
    return "M" + " L".join(f"{px:.1f},{py:.1f}" for px, py in points) + " Z"
