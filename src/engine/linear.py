"""The learned evaluation of Dipole, Superajedrez and Super Dimensiones: a linear model over
the features their native code lists.

A family's native module lists a position's features as (row, count) pairs, counts from White's
(player 1's) view: a piece-square table as each side sees the board, material on the board and
in reserve, mobility, king safety, stack heights, ... (the rows are named by the board's
``_linear_layout()``; docs/learning.md lists them). The value is the sum of each row's weight
times its count, an opening and an ending weight blended by the family's phase (the material
left), for the side to move. The same C function serves the search and training, so the two
never disagree. The board's ``_linear_prior()`` is the hand-set evaluation written as such
weights: training starts there and its penalty pulls towards it.

Until a variant's weights are loaded (weights.py) its hand-set evaluation plays.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np

from .weights import WeightsError


def _board(variant: str):
    from . import Board
    return Board(variant)


def layout(variant: str) -> list[str]:
    """The names of the variant's rows."""
    return list(_board(variant)._linear_layout())


def layout_size(variant: str) -> int:
    return len(layout(variant))


def layout_digest(variant: str) -> str:
    """Names the layout (rows and phase): weights fit only the layout they were trained on."""
    board = _board(variant)
    text = json.dumps({"rows": list(board._linear_layout()), "phase": board._linear_phase_max()})
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def prior(variant: str) -> np.ndarray:
    """The hand-set evaluation as weights (centi-units, rows x (opening, ending))."""
    return np.asarray(_board(variant)._linear_prior(), dtype=np.float64)


def fixed_rows(variant: str) -> list[int]:
    """Rows whose values the search does not take from the weights: training keeps them at
    the prior."""
    return list(_board(variant)._linear_fixed_rows())


def features(variant: str, positions: np.ndarray, starts: np.ndarray | None = None):
    """Training features of positions given as their native bytes (uint8 [N, size], as
    selfplay keeps them) and the FEN of the start of each one's game ("" for the start
    position), which says the rules the bytes are read under: (a sparse matrix [N, rows] of
    White's counts, the phase of each position from 1 (the start) to 0 (no material left))."""
    from . import Board
    from scipy import sparse
    positions = np.asarray(positions, dtype=np.uint8)
    starts = np.full(len(positions), "") if starts is None else np.asarray(starts, dtype=str)
    parts, phase = [], np.zeros(len(positions))
    top = _board(variant)._linear_phase_max()
    for start in np.unique(starts):
        at = np.flatnonzero(starts == start)
        which, rows, counts, ph = Board(variant, str(start) or None)._linear_features(positions[at])
        parts.append((counts, at[which], rows))
        phase[at] = np.minimum(ph, top) / top
    if parts:
        counts, which, rows = (np.concatenate(a) for a in zip(*parts))
    else:
        counts, which, rows = np.zeros(0), np.zeros(0, np.int64), np.zeros(0, np.int64)
    matrix = sparse.csr_matrix((counts, (which, rows)), shape=(len(positions), layout_size(variant)))
    return matrix, phase


# -- files (weights.py) ----------------------------------------------------------------------------

def file_meta(path, variant: str) -> dict:
    return {"layout": layout_digest(variant), "rows": layout(variant)}


def file_layout(path, variant: str, meta: dict) -> tuple[None, int]:
    if meta.get("layout") != layout_digest(variant):
        raise WeightsError(f"{path}: made for another layout of {variant}'s evaluation "
                           f"({meta.get('layout')}, this engine has {layout_digest(variant)})")
    return None, layout_size(variant)


def check_meta(path, meta: dict) -> None:
    """Nothing beyond the common fields."""


def upgraded(variant: str, weights: np.ndarray, layout: None) -> np.ndarray:
    return weights                      # one layout so far


def install(variant: str, weights: np.ndarray, meta: dict) -> None:
    _board(variant)._set_linear(weights)


def uninstall(variant: str) -> None:
    _board(variant)._clear_linear()
