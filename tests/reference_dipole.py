"""A deliberately simple Dipole move generator written from RULES.md §8 alone, to check the native
one: dicts of (file, rank) -> (colour, height), every rule spelt out, no speed."""

from __future__ import annotations

DIRECTIONS = [(1, 1), (-1, 1), (1, -1), (-1, -1), (0, 1), (0, -1), (1, 0), (-1, 0)]
FILES = "abcdefghij"


def name(sq):
    return f"{FILES[sq[0]]}{sq[1] + 1}"


class Position:
    def __init__(self, size: int, stacks: dict, turn: int):
        self.size = size
        self.stacks = dict(stacks)     # (file, rank) -> (colour, height)
        self.turn = turn

    def on_board(self, f, r):
        return 0 <= f < self.size and 0 <= r < self.size

    def legal_moves(self) -> list[str]:
        """Move strings in NOTATION.md form."""
        colours = {c for c, _ in self.stacks.values()}
        if colours != {0, 1}:
            return []                                  # someone has no checkers: game over
        forward = 1 if self.turn == 0 else -1
        moves = set()
        for (f, r), (colour, height) in self.stacks.items():
            if colour != self.turn:
                continue
            for df, dr in DIRECTIONS:
                straight = df == 0 or dr == 0
                is_forward = dr == forward
                for n in range(1, height + 1):
                    if straight and n % 2:
                        continue                         # would end on a light square
                    tf, tr = f + df * n, r + dr * n
                    if not self.on_board(tf, tr):
                        if is_forward:
                            moves.add(f"{name((f, r))}-off{n}")
                        continue
                    target = self.stacks.get((tf, tr))
                    if target is None or target[0] == colour:
                        if is_forward:
                            moves.add(f"{name((f, r))}-{name((tf, tr))}")
                    elif target[1] <= n:
                        moves.add(f"{name((f, r))}x{name((tf, tr))}")
        return sorted(moves) if moves else ["pass"]

    def play(self, move: str) -> "Position":
        stacks = dict(self.stacks)
        if move != "pass":
            if "-off" in move:
                frm, count = move.split("-off")
                to, n = None, int(count)
            else:
                frm, to = move.replace("x", "-").split("-")
            fsq = (FILES.index(frm[0]), int(frm[1:]) - 1)
            colour, height = stacks.pop(fsq)
            if to is not None:
                tsq = (FILES.index(to[0]), int(to[1:]) - 1)
                n = max(abs(tsq[0] - fsq[0]), abs(tsq[1] - fsq[1]))
                target = stacks.get(tsq)
                mine = target[1] if target is not None and target[0] == colour else 0
                stacks[tsq] = (colour, mine + n)
            if height > n:
                stacks[fsq] = (colour, height - n)
        return Position(self.size, stacks, 1 - self.turn)


def perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(pos.play(m), depth - 1) for m in moves)


def from_board(board) -> Position:
    stacks = {}
    for square, text in board.piece_map().items():
        stacks[(FILES.index(square[0]), int(square[1:]) - 1)] = (0 if text[0] == "w" else 1, int(text[1:]))
    return Position(board.spec.size, stacks, int(board.turn))
