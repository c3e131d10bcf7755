"""An exhaustive solver for small endgames, independent of the native tables.

It walks the game graph through the public API only (legal_moves, push, fen), from every
position of the given material, and settles values by forward iteration: at step k a position is
won in k plies if some move reaches a position lost in k - 1, lost in k if every move reaches a
position won in fewer plies, the longest of them k - 1. What never settles is a draw. This is
the textbook definition (a game that has ended is won or lost at 0 plies by its outcome), slow
and simple; the native builder settles positions by distance from
their predecessors instead, so agreement checks one against the other.
"""

from __future__ import annotations

import itertools

import engine
from engine.errors import InvalidFenError


def square_names(variant: str) -> list[str]:
    board = engine.Board(variant)
    numbered = all(isinstance(k, int) for k in board.piece_map())
    if numbered:
        return [str(n) for n in range(1, board.spec.geometry.size ** 2 // 2 + 1)]
    g = board.spec.geometry
    return ["abcdefghij"[f] + str(r + 1) for (f, r) in g.coords.values()]


def positions(variant: str, signature: tuple) -> list[str]:
    """Every legal FEN of the material (white men, white kings, black men, black kings), both
    sides to move."""
    wm, wk, bm, bk = signature
    squares = square_names(variant)
    out = []
    groups = [(wm, ""), (wk, "K"), (bm, ""), (bk, "K")]
    total = sum(signature)
    for chosen in itertools.permutations(squares, total) if total <= 3 else []:
        parts, i = [], 0
        ok = True
        for count, prefix in groups:
            part = chosen[i:i + count]
            if list(part) != sorted(part, key=squares.index):
                ok = False          # one order per set of squares
                break
            parts.append([prefix + s for s in part])
            i += count
        if not ok:
            continue
        white = parts[0] + parts[1]
        black = parts[2] + parts[3]
        if variant == "chapinas":             # pieces carry numbers; the tables ignore them
            white = [f"{sq}.{i}" for i, sq in enumerate(white)]
            black = [f"{sq}.{i}" for i, sq in enumerate(black)]
        white, black = ",".join(white), ",".join(black)
        for side in "WB":
            try:
                board = engine.Board(variant, f"{side}:W{white}:B{black}")
            except InvalidFenError:
                continue             # a man on its crowning row
            out.append(board.fen())
    return out


def solve_all(variant: str, starts: list[str]) -> dict:
    """{fen: ('win' | 'loss' | 'draw', plies)} for every position reachable from starts."""
    moves: dict[str, list[str]] = {}
    todo = list(starts)
    while todo:
        fen = todo.pop()
        if fen in moves:
            continue
        board = engine.Board(variant, fen)
        children = []
        terminal = board.outcome()
        # Only the loss by having no piece or no move, and Turkish material rules, end a game
        # here: move-count rules are not part of the tables.
        ended = terminal is not None and terminal.termination in (
            engine.Termination.NO_PIECES, engine.Termination.NO_MOVES,
            engine.Termination.LONE_PIECE, engine.Termination.ONE_AGAINST_ONE)
        if not ended:
            for move in board.legal_moves():
                board.push(move)
                children.append(board.fen())
                board.pop()
            todo.extend(children)
        moves[fen] = (terminal if ended else None, children)
    value: dict[str, tuple] = {}
    for fen, (ending, children) in moves.items():
        if ending is None:
            continue
        if ending.winner is None:
            value[fen] = ("draw", 0)
        else:
            turn = engine.Board(variant, fen).turn
            value[fen] = ("win" if ending.winner == turn else "loss", 0)
    k = 0
    quiet = 0
    while quiet < 2:
        k += 1
        new = {}
        for fen, (ending, children) in moves.items():
            if fen in value:
                continue
            results = [value.get(c) for c in children]
            if any(r is not None and r[0] == "loss" and r[1] == k - 1 for r in results):
                new[fen] = ("win", k)
            elif all(r is not None and r[0] == "win" for r in results) and \
                    max(r[1] for r in results) == k - 1:
                new[fen] = ("loss", k)
        value.update(new)
        quiet = 0 if new else quiet + 1
    for fen in moves:
        value.setdefault(fen, ("draw", 0))
    return value


def dipole_positions(variant: str, white: int, black: int) -> list[str]:
    """Every Dipole FEN with that many checkers a side (in stacks of any heights)."""
    names = square_names(variant)

    def layouts(count):
        for k in range(1, count + 1):
            for squares in itertools.combinations(names, k):
                for cuts in itertools.combinations(range(1, count), k - 1):
                    bounds = (0,) + cuts + (count,)
                    yield [f"{sq}.{bounds[i + 1] - bounds[i]}" for i, sq in enumerate(squares)]

    out = []
    for w in layouts(white):
        used = {x.split(".")[0] for x in w}
        for b in layouts(black):
            if used & {x.split(".")[0] for x in b}:
                continue
            for side in "WB":
                out.append(engine.Board(variant, f"{side}:W{','.join(w)}:B{','.join(b)}").fen())
    return out
