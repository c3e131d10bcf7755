"""Board geometry: square names, the internal bit layout, and the tables the native code uses.

Every draughts-family board is mapped onto one 64-bit word (128 bits for Canadian draughts'
12x12, whose layout needs bits 0-76) so that each direction of travel is a single shift of the
whole bitboard:

* boards that use every square (8×8 Turkish, Gothic) use ``bit = 8 * rank + file``; a mask per
  direction removes the squares that would wrap around an edge;
* boards that use one colour (10×10 and 8×8 diagonal games) store W = size/2 squares per row and
  leave one unused "ghost" bit after every pair of rows, ``bit = (2W+1)*(row//2) + W*(row%2) +
  col``. With that gap the diagonal neighbours are always ±W and ±(W+1) bits away, whatever the
  row, and a step off the board lands on a ghost bit or outside the board, which masks drop.

The tables are computed here once, in Python, and handed to the native module; nothing in this
file runs during move generation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Directions as (file step, rank step). The order is the index the native code uses.
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, 1), (-1, 1), (1, -1), (-1, -1),      # 0 NE, 1 NW, 2 SE, 3 SW  (diagonals)
    (0, 1), (0, -1), (1, 0), (-1, 0),        # 4 N,  5 S,  6 E,  7 W   (orthogonals)
    (2, 0), (-2, 0),                         # 8 E2, 9 W2  (next playable square along a row)
    (0, 2), (0, -2),                         # 10 N2, 11 S2 (next playable square along a file)
)
NE, NW, SE, SW, N, S, E, W, E2, W2, N2, S2 = range(12)
NUM_DIRECTIONS = len(DIRECTIONS)
FILES = "abcdefghijkl"


def algebraic(file: int, rank: int) -> str:
    """``(0, 0)`` → ``a1``."""
    return f"{FILES[file]}{rank + 1}"


@dataclass
class Geometry:
    """Where each playable square lives in the bitboard, and how to step between squares."""

    size: int
    colour: str                                  # "dark", "light" or "all"
    coords: dict[int, tuple[int, int]] = field(default_factory=dict)   # bit -> (file, rank)
    bit_at: dict[tuple[int, int], int] = field(default_factory=dict)   # (file, rank) -> bit
    shift: list[int] = field(default_factory=list)      # per direction: bit delta (signed)
    canstep: list[int] = field(default_factory=list)    # per direction: squares with a neighbour
    rays: list[list[int]] = field(default_factory=list)  # [direction][bit] -> squares beyond

    @property
    def valid(self) -> int:
        return sum(1 << b for b in self.coords)

    @property
    def words(self) -> int:
        """64-bit words a set of its squares needs: 1, or 2 (Canadian's 12x12, bits 0-76),
        which the 128-bit build of the draughts code (_draughts_wide) plays."""
        return 1 if max(self.coords) < 64 else 2

    def rank_mask(self, rank: int) -> int:
        return sum(1 << b for b, (_, r) in self.coords.items() if r == rank)


def _playable(size: int, colour: str, f: int, r: int) -> bool:
    if colour == "all":
        return True
    dark = (f + r) % 2 == 0          # a1 is dark
    return dark if colour == "dark" else not dark


def _half_layout(size: int, colour: str) -> dict[tuple[int, int], int] | None:
    """Ghost-bit layout for one-colour boards; tries the four orientations of the board and keeps
    the one in which the first stored row holds the squares of odd (oriented) file."""
    w = size // 2
    for flip_files in (False, True):
        for flip_ranks in (False, True):
            layout = {}
            ok = True
            for r in range(size):
                for f in range(size):
                    if not _playable(size, colour, f, r):
                        continue
                    ff = size - 1 - f if flip_files else f
                    rr = size - 1 - r if flip_ranks else r
                    if rr % 2 == 0 and ff % 2 == 0:
                        ok = False
                    layout[(f, r)] = (2 * w + 1) * (rr // 2) + w * (rr % 2) + ff // 2
            if ok:
                return layout
    return None


def build_geometry(size: int, colour: str) -> Geometry:
    if colour == "all":
        if size != 8:
            raise ValueError("full boards are 8x8 only")
        layout = {(f, r): 8 * r + f for r in range(8) for f in range(8)}
    else:
        half = _half_layout(size, colour)
        assert half is not None
        layout = half
    g = Geometry(size=size, colour=colour)
    g.bit_at = layout
    g.coords = {b: fr for fr, b in layout.items()}
    assert max(g.coords) < 128
    for df, dr in DIRECTIONS:
        delta = None
        mask = 0
        for (f, r), b in layout.items():
            target = layout.get((f + df, r + dr))
            if target is None:
                continue
            d = target - b
            if delta is None:
                delta = d
            # A direction must be one uniform shift; if it is not, the layout is unusable for it.
            if d != delta:
                delta = None
                mask = 0
                break
            mask |= 1 << b
        g.shift.append(delta if delta is not None else 0)
        g.canstep.append(mask)
    for d in range(NUM_DIRECTIONS):
        per_square = [0] * (64 * g.words)
        for b in g.coords:
            ray = 0
            cur = b
            while g.canstep[d] >> cur & 1:
                cur += g.shift[d]
                ray |= 1 << cur
            per_square[b] = ray
        g.rays.append(per_square)
    return g
