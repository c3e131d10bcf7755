"""The learned evaluation of the draughts family: its layout, and its weights files.

The board is covered by overlapping regions of 8 playable squares: windows of 4 files x 4 ranks
on the boards that use half their squares (International, Spanish, checkers, Chapinas), 4 files
x 2 ranks on the boards that use them all (Turkish, Gothic), stepped by 2 files and 2 ranks (1
rank). A region's men, each empty / own / the other side's, form an index in base 3 (6561 values)
that selects one learned weight; kings count as empty there. White's regions are read as they
stand, Black's on the board turned 180 degrees with colours swapped, so the same weights serve
both sides and the evaluation is colour-symmetric by construction. Whole-board terms follow
(``DENSE_TERMS``, White minus Black). Every weight has an opening and an ending value, blended
by the number of pieces on the board. The native code (``_draughts_eval.pxi``) evaluates it in
the search; ``features()`` gives training the very indices that code computes.

A weights file is a numpy ``.npz`` archive: ``weights`` (int16, shape (n, 2), in 1/16
centi-men), and ``meta`` (JSON: format, variant, the layout's regions, the weights' SHA-256,
and how they were made). ``load(path)`` checks all of it before anything changes; a bad file
raises ``WeightsError`` naming it and the variant keeps the evaluation it had.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path

import numpy as np

from ._draughts import (_clear_patterns, _pattern_features, _set_patterns, draughts_variant_id,
                        draughts_variants)
from .errors import EngineError
from .variants import DRAUGHTS_VARIANTS

FORMAT = 1
SCALE = 16                      # stored weight = centi-men x SCALE
DENSE_TERMS = ("men", "kings", "king_mobility", "runner_1", "runner_2", "runner_3",
               "side_to_move", "balance", "first_king", "king_long_diagonal", "capture_threat")
# Files written before the last four terms existed hold the first seven; they load with the
# new terms at zero, which evaluates exactly as they did.
EARLIER_DENSE_TERMS = (DENSE_TERMS[:7],)
HAND_SET = "<hand-set>"         # the name that selects the hand-set evaluation (EvalFile option)
SHIPPED = "<shipped>"           # the name that selects the weights shipped with the package


class WeightsError(EngineError):
    """A weights file that is missing, unreadable, damaged or made for another layout."""


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


def layout_size(variant: str, dense: tuple = DENSE_TERMS) -> int:
    """Number of weights (rows) of a variant's layout: 3^8 per region, then the dense terms."""
    return sum(3 ** len(r) for r in regions(variant)[0]) + len(dense)


def start_pieces(variant: str) -> int:
    from . import Board
    board = Board(variant)
    return len(board.piece_map())


def layout_digest(variant: str, dense: tuple = DENSE_TERMS) -> str:
    """Names the layout (regions and terms): weights fit only the layout they were trained on."""
    text = json.dumps({"regions": regions(variant)[0], "dense": dense})
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def features(variant: str, white, black, kings, stm):
    """Training features of positions given as arrays of bitboards (uint64) and side to move
    (0 White, 1 Black): (region indices of White [N, R] and of Black [N, R] with each region's
    offset added, so that they index the weights' rows; dense terms [N, D]; pieces [N])."""
    own, turned = regions(variant)
    a, b, dense, pieces = _pattern_features(
        draughts_variant_id(variant), own, turned, np.ascontiguousarray(white, dtype=np.uint64),
        np.ascontiguousarray(black, dtype=np.uint64), np.ascontiguousarray(kings, dtype=np.uint64),
        np.ascontiguousarray(stm, dtype=np.uint8))
    offsets = np.cumsum([0] + [3 ** len(r) for r in own[:-1]]).astype(np.int32)
    return a + offsets, b + offsets, dense, pieces


# -- files ----------------------------------------------------------------------------------------

def save(path, variant: str, weights: np.ndarray, info: dict | None = None) -> None:
    """Write a weights file (weights: centi-men as floats or already-scaled int16)."""
    if weights.dtype != np.int16:
        weights = np.clip(np.rint(np.asarray(weights, dtype=np.float64) * SCALE), -32767, 32767)
        weights = weights.astype(np.int16)
    weights = np.ascontiguousarray(weights)
    if weights.shape != (layout_size(variant), 2):
        raise WeightsError(f"{path}: expected {layout_size(variant)} x 2 weights for {variant}, "
                           f"not {weights.shape}")
    meta = {"format": FORMAT, "variant": variant, "layout": layout_digest(variant),
            "scale": SCALE, "dense_terms": list(DENSE_TERMS),
            "sha256": hashlib.sha256(weights.tobytes()).hexdigest(), "info": info or {}}
    tmp = Path(str(path) + ".tmp.npz")
    np.savez_compressed(tmp, weights=weights, meta=np.array(json.dumps(meta)))
    tmp.replace(path)


def read(path) -> tuple[str, np.ndarray, dict]:
    """(variant, int16 weights, meta) of a weights file, every field checked."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            weights = data["weights"]
            meta = json.loads(str(data["meta"]))
    except FileNotFoundError:
        raise WeightsError(f"{path}: no such weights file") from None
    except Exception as exc:      # numpy raises many kinds for a malformed file
        raise WeightsError(f"{path}: not a weights file ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise WeightsError(f"{path}: weights of format {meta.get('format') if isinstance(meta, dict) else '?'}, "
                           f"expected {FORMAT}")
    variant = meta.get("variant")
    if variant not in draughts_variants():
        raise WeightsError(f"{path}: weights for {variant!r}, which has no learned evaluation")
    dense = next((d for d in (DENSE_TERMS, *EARLIER_DENSE_TERMS)
                  if meta.get("layout") == layout_digest(variant, d)), None)
    if dense is None:
        raise WeightsError(f"{path}: made for another layout of {variant}'s evaluation "
                           f"({meta.get('layout')}, this engine has {layout_digest(variant)})")
    if weights.dtype != np.int16 or weights.shape != (layout_size(variant, dense), 2):
        raise WeightsError(f"{path}: expected int16 weights of shape "
                           f"({layout_size(variant, dense)}, 2), not {weights.dtype} {weights.shape}")
    if hashlib.sha256(np.ascontiguousarray(weights).tobytes()).hexdigest() != meta.get("sha256"):
        raise WeightsError(f"{path}: checksum mismatch (the file is damaged)")
    if len(dense) < len(DENSE_TERMS):           # an earlier layout: the newer terms count 0
        weights = np.concatenate([weights, np.zeros((len(DENSE_TERMS) - len(dense), 2), np.int16)])
    return variant, np.ascontiguousarray(weights), meta


_LOADED: dict[str, str] = {}     # variant -> the file its evaluation came from


def load(path, variant: str | None = None) -> str:
    """Make every search of the file's variant use its weights; returns the variant. With
    ``variant``, the file must be for it. On any error nothing changes."""
    found, weights, _ = read(path)
    if variant is not None and found != variant:
        raise WeightsError(f"{path}: weights for {found}, not {variant}")
    own, turned = regions(found)
    _set_patterns(draughts_variant_id(found), own, turned, weights, start_pieces(found))
    _LOADED[found] = str(path)
    return found


def use_hand_set(variant: str) -> None:
    """Back to the hand-set evaluation of evaluation.py for a variant."""
    _clear_patterns(draughts_variant_id(variant))
    _LOADED[variant] = HAND_SET


def current(variant: str) -> str:
    """Where the variant's evaluation comes from: a file's path, or HAND_SET."""
    return _LOADED.get(variant, HAND_SET)


def shipped(variant: str) -> Path | None:
    """The weights file that ships with the package for a variant, if any."""
    item = resources.files("engine").joinpath("weights", f"{variant}.npz")
    return Path(str(item)) if item.is_file() else None


def load_shipped() -> None:
    """Load every shipped weights file (at import). A file that fails to load leaves that
    variant on the hand-set evaluation (the tests catch a broken shipped file)."""
    for variant in draughts_variants():
        path = shipped(variant)
        if path is not None:
            try:
                load(path, variant)
            except WeightsError:
                use_hand_set(variant)
