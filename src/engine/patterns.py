"""The learned evaluation of the draughts family: its layout, and what its weights files say.

The board is covered by overlapping regions of 8 playable squares: windows of 4 files x 4 ranks
on the boards that use half their squares (International, Spanish, checkers, Chapinas), 4 files
x 2 ranks on the boards that use them all (Turkish, Gothic), stepped by 2 files and 2 ranks (1
rank). A region's men, each empty / own / the other side's, form an index in base 3 (6561 values)
that selects one learned weight; kings count as empty there. White's regions are read as they
stand, Black's on the board turned 180 degrees with colours swapped, so the same weights serve
both sides and the evaluation is colour-symmetric by construction. A king-square table follows:
one weight per playable square for a king standing there, as its owner sees the board. Then the
whole-board terms (``DENSE_TERMS``, White minus Black). Every weight has an opening and an
ending value, blended by the number of pieces on the board or, where the file asks for it
(``meta.phase``), by the men's tempo (the rows they still have to go, as Scan's phase). A file
may also ask for drawish material to be scaled down (``drawish_divisors``). The native code
(``_draughts_eval.pxi``) evaluates it in the search; ``features()`` and ``king_features()`` give
training the very values that code uses.

Its weights files (weights.py) add to the common fields the whole-board terms' names, whether
drawish material is scaled (``drawish``) and what blends the phases (``phase``). Files of earlier
layouts (no king-square table, fewer whole-board terms) load with what they lack at zero, and
evaluate exactly as they did.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np

from . import _draughts
from . import _draughts_wide
from .rulesets import DRAUGHTS_VARIANTS
from .weights import WeightsError

DENSE_TERMS = ("men", "kings", "king_mobility", "runner_1", "runner_2", "runner_3",
               "side_to_move", "balance", "first_king", "king_long_diagonal", "capture_threat",
               "king_exposed_mobility")
# The layouts of earlier files, (whole-board terms, whether a king-square table follows the
# regions): the first releases had seven terms, later eleven, both without the king table.
EARLIER_LAYOUTS = ((DENSE_TERMS[:7], False), (DENSE_TERMS[:11], False))
# Variants whose fits scale drawish material down by default (train --drawish): flying-king
# endgames on 10x10, where three pieces rarely beat a king (the rule Scan's evaluation uses).
DRAWISH_BY_DEFAULT = frozenset({"international"})


def words(variant: str) -> int:
    """64-bit words of a variant's boards (geometry.py): training arrays of boards are 1-D
    uint64 for one word, [N, 2] for two (lowest word first)."""
    return DRAUGHTS_VARIANTS[variant].geometry.words


def _native(variant: str):
    """The build of the draughts code that plays the variant (64- or 128-bit boards)."""
    return _draughts if words(variant) == 1 else _draughts_wide


def as_words(boards) -> np.ndarray:
    """Boards as a [N, words] uint64 array (a 1-D array is one word each)."""
    a = np.asarray(boards, dtype=np.uint64)
    return a.reshape(len(a), -1)


def _on(boards: np.ndarray, bit: int) -> np.ndarray:
    """Whether each of the [N, words] boards holds the square of this bit."""
    return (boards[:, bit >> 6] >> np.uint64(bit & 63)) & np.uint64(1) != 0


def regions(variant: str) -> tuple[list[list[int]], list[list[int]]]:
    """The layout of a variant: each region's square bits (White's view), and the same squares
    turned 180 degrees (Black's view), in the same order."""
    spec = DRAUGHTS_VARIANTS[variant]
    g, size = spec.geometry, spec.size
    width, height, rank_step = (4, 2, 1) if spec.colour == "all" else (4, 4, 2)
    out, turned = [], []
    for r0 in range(0, size - height + 1, rank_step):
        for f0 in range(0, size - width + 1, 2):
            squares = [g.bit_at[(f, r)] for r in range(r0, r0 + height)
                       for f in range(f0, f0 + width) if (f, r) in g.bit_at]
            out.append(squares)
            turned.append([g.bit_at[(size - 1 - g.coords[b][0], size - 1 - g.coords[b][1])]
                           for b in squares])
    return out, turned


def king_squares(variant: str) -> tuple[list[int], list[int]]:
    """Each side's row of the king-square table for every bit (0 for bits that are no square):
    the playable squares in bit order as White sees the board; Black sees it turned 180
    degrees, so a Black king's row is that of the square opposite."""
    spec = DRAUGHTS_VARIANTS[variant]
    g, size = spec.geometry, spec.size
    order = {b: i for i, b in enumerate(sorted(g.coords))}
    white, black = [0] * (64 * words(variant)), [0] * (64 * words(variant))
    for b, (f, r) in g.coords.items():
        white[b] = order[b]
        black[b] = order[g.bit_at[(size - 1 - f, size - 1 - r)]]
    return white, black


def region_rows(variant: str) -> int:
    """Number of weights (rows) of the regions: 3^8 each."""
    return sum(3 ** len(r) for r in regions(variant)[0])


def king_rows(variant: str) -> int:
    """Number of rows of the king-square table: one per playable square."""
    return len(DRAUGHTS_VARIANTS[variant].geometry.coords)


def layout_size(variant: str, dense: tuple = DENSE_TERMS, king_table: bool = True) -> int:
    """Number of weights (rows) of a variant's layout: the regions, the king-square table,
    then the whole-board terms."""
    return region_rows(variant) + (king_rows(variant) if king_table else 0) + len(dense)


def start_pieces(variant: str) -> int:
    from . import Board
    board = Board(variant)
    return len(board.piece_map())


def tempo(variant: str, white, black, kings) -> np.ndarray:
    """The rows the men of both sides still have to go to be crowned (Scan's "pip"), for
    positions given as bitboards: the phase of a file that asks for it (``meta.phase``)."""
    spec = DRAUGHTS_VARIANTS[variant]
    white, black, kings = (as_words(a) for a in (white, black, kings))
    total = np.zeros(len(white), dtype=np.int64)
    for b, (_, r) in spec.geometry.coords.items():
        total += (spec.size - 1 - r) * _on(white & ~kings, b)     # White crowns at the top
        total += r * _on(black & ~kings, b)
    return total


def phase_start(variant: str, tempo_phase: bool) -> int:
    """The phase's value at the start: pieces on the board, or their tempo."""
    if not tempo_phase:
        return start_pieces(variant)
    from . import Board
    bit_of = DRAUGHTS_VARIANTS[variant].bit_of
    n = words(variant)
    men = {"w": np.zeros((1, n), np.uint64), "b": np.zeros((1, n), np.uint64)}  # no kings
    for name, piece in Board(variant).piece_map().items():
        b = bit_of[str(name)]
        men[piece[0].lower()][0, b >> 6] |= np.uint64(1 << (b & 63))
    return int(tempo(variant, men["w"], men["b"], np.zeros((1, n), np.uint64))[0])


def layout_digest(variant: str, dense: tuple = DENSE_TERMS, king_table: bool = True) -> str:
    """Names the layout (regions, king table and terms): weights fit only the layout they were
    trained on. (Layouts without the king table keep the digest they always had.)"""
    layout: dict = {"regions": regions(variant)[0], "dense": dense}
    if king_table:
        layout["king_squares"] = king_rows(variant)
    return hashlib.sha256(json.dumps(layout).encode()).hexdigest()[:16]


def features(variant: str, white, black, kings, stm):
    """Training features of positions given as arrays of bitboards (uint64; [N, 2] on boards
    of two words) and side to move (0 White, 1 Black): (region indices of White [N, R] and of
    Black [N, R] with each region's offset added, so that they index the weights' rows; dense
    terms [N, D]; pieces [N])."""
    own, turned = regions(variant)
    native = _native(variant)
    a, b, dense, pieces = native._pattern_features(
        native.draughts_variant_id(variant), own, turned,
        *(np.ascontiguousarray(as_words(x)) for x in (white, black, kings)),
        np.ascontiguousarray(stm, dtype=np.uint8))
    offsets = np.cumsum([0] + [3 ** len(r) for r in own[:-1]]).astype(np.int32)
    return a + offsets, b + offsets, dense, pieces


def king_features(variant: str, white, black, kings):
    """The king-square counts of positions (for training): a sparse matrix [N, king_rows],
    +1 for each White king at its row, -1 for each Black king at its (turned) row."""
    from scipy import sparse
    white, black, kings = (as_words(a) for a in (white, black, kings))
    own, turned = king_squares(variant)
    rows, cols, vals = [], [], []
    for b in DRAUGHTS_VARIANTS[variant].geometry.coords:
        for side, table, sign in ((white, own, 1.0), (black, turned, -1.0)):
            at = np.flatnonzero(_on(side & kings, b))
            rows.append(at)
            cols.append(np.full(len(at), table[b]))
            vals.append(np.full(len(at), sign))
    shape = (len(white), king_rows(variant))
    return sparse.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                             shape=shape)


def popcount(a: np.ndarray) -> np.ndarray:
    """Squares on each of the boards ([N] or [N, words] uint64)."""
    words = as_words(a)
    return np.unpackbits(np.ascontiguousarray(words, dtype="<u8").view(np.uint8)
                         .reshape(len(words), -1), axis=1).sum(axis=1).astype(np.int64)


def drawish_divisors(white, black, kings) -> tuple[np.ndarray, np.ndarray]:
    """What a value is divided by when drawish material is scaled (as the native
    drawish_divisor): (when White is ahead, when Black is ahead). The side ahead with three
    pieces or fewer against a king: 8; kings equal and men within one: 2; else 1."""
    white, black, kings = (as_words(a) for a in (white, black, kings))
    nw, nb = popcount(white), popcount(black)
    nwk, nbk = popcount(white & kings), popcount(black & kings)
    even = (nwk == nbk) & (np.abs((nw - nwk) - (nb - nbk)) <= 1)
    white_ahead = np.where((nbk > 0) & (nw <= 3), 8, np.where((nbk > 0) & even, 2, 1))
    black_ahead = np.where((nwk > 0) & (nb <= 3), 8, np.where((nwk > 0) & even, 2, 1))
    return white_ahead, black_ahead


# -- files (weights.py) ----------------------------------------------------------------------

PHASES = ("pieces", "tempo")     # what blends opening and ending values (meta.phase)


def file_meta(path, variant: str, drawish: bool = False, phase: str = "pieces") -> dict:
    """What a weights file of this kind says besides the common fields: `drawish`, the
    evaluation scales drawish material down (it was fitted that way); `phase`, what blends
    opening and ending values, the pieces on the board or the men's tempo."""
    if phase not in PHASES:
        raise WeightsError(f"{path}: phase must be one of {', '.join(PHASES)}, not {phase!r}")
    return {"layout": layout_digest(variant), "dense_terms": list(DENSE_TERMS),
            "drawish": bool(drawish), "phase": phase}


def file_layout(path, variant: str, meta: dict) -> tuple[tuple, int]:
    """The layout a file was made for (today's or an earlier one) and its number of rows."""
    layout = next(((d, kt) for d, kt in ((DENSE_TERMS, True), *EARLIER_LAYOUTS)
                   if meta.get("layout") == layout_digest(variant, d, kt)), None)
    if layout is None:
        raise WeightsError(f"{path}: made for another layout of {variant}'s evaluation "
                           f"({meta.get('layout')}, this engine has {layout_digest(variant)})")
    return layout, layout_size(variant, *layout)


def check_meta(path, meta: dict) -> None:
    if not isinstance(meta.get("drawish", False), bool):
        raise WeightsError(f"{path}: 'drawish' must be true or false")
    if meta.get("phase", "pieces") not in PHASES:
        raise WeightsError(f"{path}: 'phase' must be one of {', '.join(PHASES)}, "
                           f"not {meta.get('phase')!r}")


def upgraded(variant: str, weights: np.ndarray, layout: tuple) -> np.ndarray:
    """Weights of an earlier layout in today's: a zero king table, the newer terms at zero."""
    dense, king_table = layout
    if (dense, king_table) == (DENSE_TERMS, True):
        return np.ascontiguousarray(weights)
    n = region_rows(variant)
    zeros = np.zeros((king_rows(variant), 2), np.int16)
    table = weights[n:n + len(zeros)] if king_table else zeros
    terms = weights[len(weights) - len(dense):]
    padding = np.zeros((len(DENSE_TERMS) - len(dense), 2), np.int16)
    return np.ascontiguousarray(np.concatenate([weights[:n], table, terms, padding]))


def install(variant: str, weights: np.ndarray, meta: dict) -> None:
    """Make the native evaluation of the variant use these (checked) weights."""
    own, turned = regions(variant)
    by_tempo = meta.get("phase", "pieces") == "tempo"
    native = _native(variant)
    native._set_patterns(native.draughts_variant_id(variant), own, turned,
                         list(king_squares(variant)), king_rows(variant), weights,
                         phase_start(variant, by_tempo), meta.get("drawish", False), by_tempo)


def uninstall(variant: str) -> None:
    """Back to the hand-set evaluation of evaluation.py."""
    native = _native(variant)
    native._clear_patterns(native.draughts_variant_id(variant))
