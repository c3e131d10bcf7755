"""A deliberately simple Superajedrez move generator, written from RULES.md §7 alone.

It shares nothing with the native module: squares are (file, rank) pairs, pieces are tuples in a
dict, every move is tried on a copy of the position and kept when the mover's king is then not
attacked (by a board piece, or by standing on a protected reserved square of the enemy). It is
slow and meant only to check the native generator in the tests.
"""

from __future__ import annotations

import copy

FILES = "abcdefgh"
LETTERS = "PNBRQK"
START_COUNT = {"P": 8, "N": 2, "B": 2, "R": 2, "Q": 1}
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(1, 1), (1, 0), (1, -1), (0, 1), (0, -1), (-1, 1), (-1, 0), (-1, -1)]
ROOK_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP_DIRS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def name(sq):
    return FILES[sq[0]] + str(sq[1] + 1)


def parse_sq(text):
    return FILES.index(text[0]), int(text[1]) - 1


def dark(sq):
    return (sq[0] + sq[1]) % 2 == 0            # a1 is dark


class Position:
    """board: {(f, r): (colour, letter, promoted)}; reserve: [{letter: n}, {letter: n}];
    king_unmoved / rook_unmoved[colour]['h' | 'a']; ep: the square passed over or None."""

    def __init__(self, fen: str):
        fields = fen.split()
        placement, side, castling, ep = fields[:4]
        board_text, reserve_text = placement[:-1].split("[")
        self.board = {}
        for row, text in zip(range(7, -1, -1), board_text.split("/")):
            f = 0
            i = 0
            while i < len(text):
                ch = text[i]
                i += 1
                if ch.isdigit():
                    f += int(ch)
                    continue
                promoted = i < len(text) and text[i] == "~"
                if promoted:
                    i += 1
                self.board[(f, row)] = (0 if ch.isupper() else 1, ch.upper(), promoted)
                f += 1
        self.reserve = [{k: 0 for k in "QRBNP"}, {k: 0 for k in "QRBNP"}]
        for ch in reserve_text:
            self.reserve[0 if ch.isupper() else 1][ch.upper()] += 1
        self.turn = 0 if side == "w" else 1
        self.king_unmoved = [False, False]
        self.rook_unmoved = [{"h": False, "a": False}, {"h": False, "a": False}]
        for colour, (k, q) in enumerate((("K", "Q"), ("k", "q"))):
            if k in castling or q in castling:
                self.king_unmoved[colour] = True
            rank = 0 if colour == 0 else 7
            for flag, wing, file in ((k, "h", 7), (q, "a", 0)):
                piece = self.board.get((file, rank))
                if flag in castling and piece == (colour, "R", False):
                    self.rook_unmoved[colour][wing] = True
        self.ep = None if ep == "-" else parse_sq(ep)

    # -- the rules --------------------------------------------------------------------------

    def king(self, colour):
        return next(sq for sq, (c, p, _) in self.board.items() if c == colour and p == "K")

    def original_bishop_colours(self, colour):
        """Colours (True = dark) of the side's never-promoted bishops on the board."""
        return {dark(sq) for sq, (c, p, promo) in self.board.items()
                if c == colour and p == "B" and not promo}

    def bishop_may_go(self, colour, sq):
        return dark(sq) not in self.original_bishop_colours(colour)

    def reserved_squares(self, colour):
        """{square: letter}: the starting squares of the side's pieces (the king's excepted)."""
        rank = 0 if colour == 0 else 7
        pawn_rank = 1 if colour == 0 else 6
        out = {(f, pawn_rank): "P" for f in range(8)}
        for f, letter in enumerate("RNBQ"):
            out[(f, rank)] = letter
        for f, letter in zip(range(5, 8), "BNR"):
            out[(f, rank)] = letter
        return out

    def protected(self, colour):
        """The reserved squares of `colour` on which a reserve piece of it could be placed."""
        out = set()
        for sq, letter in self.reserved_squares(colour).items():
            if self.reserve[colour][letter] == 0:
                continue
            if letter == "B" and not self.bishop_may_go(colour, sq):
                continue
            out.add(sq)
        return out

    def attacks(self, colour, target):
        """Whether a board piece of `colour` attacks `target`."""
        for sq, (c, p, _) in self.board.items():
            if c != colour:
                continue
            df, dr = target[0] - sq[0], target[1] - sq[1]
            if p == "P":
                if dr == (1 if colour == 0 else -1) and abs(df) == 1:
                    return True
            elif p == "N":
                if (df, dr) in KNIGHT:
                    return True
            elif p == "K":
                if (df, dr) in KING:
                    return True
            else:
                dirs = (ROOK_DIRS if p == "R" else BISHOP_DIRS if p == "B"
                        else ROOK_DIRS + BISHOP_DIRS)
                for d in dirs:
                    f, r = sq[0] + d[0], sq[1] + d[1]
                    while 0 <= f < 8 and 0 <= r < 8:
                        if (f, r) == target:
                            return True
                        if (f, r) in self.board:
                            break
                        f, r = f + d[0], r + d[1]
        return False

    def king_attacked(self, colour):
        k = self.king(colour)
        return self.attacks(1 - colour, k) or k in self.protected(1 - colour)

    # -- moves ------------------------------------------------------------------------------

    def pseudo_moves(self):
        """(string, function that plays it on a copy) for every move before the king test."""
        us = self.turn
        them = 1 - us
        fwd = 1 if us == 0 else -1
        out = []
        for sq, (c, p, promo) in list(self.board.items()):
            if c != us:
                continue
            targets = []
            if p == "P":
                one = (sq[0], sq[1] + fwd)
                if 0 <= one[1] < 8 and one not in self.board:
                    targets.append((one, False))
                    two = (sq[0], sq[1] + 2 * fwd)
                    if sq[1] == (1 if us == 0 else 6) and two not in self.board:
                        targets.append((two, True))
                for df in (-1, 1):
                    t = (sq[0] + df, sq[1] + fwd)
                    if not (0 <= t[0] < 8 and 0 <= t[1] < 8):
                        continue
                    victim = self.board.get(t)
                    if victim and victim[0] == them and victim[1] != "K":
                        targets.append((t, False))
                    elif t == self.ep and victim is None:
                        targets.append((t, "ep"))
                for t, special in targets:
                    if t[1] in (0, 7):
                        for promo_letter in "QRBN":
                            out.append((name(sq) + name(t) + promo_letter.lower(),
                                        (self._board_move, sq, t, promo_letter, special)))
                    else:
                        out.append((name(sq) + name(t), (self._board_move, sq, t, None, special)))
                continue
            if p in "NK":
                steps = KNIGHT if p == "N" else KING
                cands = [(sq[0] + d[0], sq[1] + d[1]) for d in steps]
                cands = [t for t in cands if 0 <= t[0] < 8 and 0 <= t[1] < 8]
            else:
                dirs = (ROOK_DIRS if p == "R" else BISHOP_DIRS if p == "B"
                        else ROOK_DIRS + BISHOP_DIRS)
                cands = []
                for d in dirs:
                    f, r = sq[0] + d[0], sq[1] + d[1]
                    while 0 <= f < 8 and 0 <= r < 8:
                        cands.append((f, r))
                        if (f, r) in self.board:
                            break
                        f, r = f + d[0], r + d[1]
            for t in cands:
                victim = self.board.get(t)
                if victim and (victim[0] == us or victim[1] == "K"):
                    continue
                out.append((name(sq) + name(t), (self._board_move, sq, t, None, False)))
        # Placements, and reserved-space captures on the own protected starting squares.
        reserved = self.reserved_squares(us)
        for letter in "QRBNP":
            if self.reserve[us][letter] == 0:
                continue
            for f in range(8):
                for r in range(8):
                    t = (f, r)
                    occupant = self.board.get(t)
                    if occupant is None:
                        if letter == "Q" and t != ((3, 0) if us == 0 else (3, 7)):
                            continue
                        if letter == "P" and r not in ((1, 2, 3) if us == 0 else (6, 5, 4)):
                            continue
                        if letter == "B" and not self.bishop_may_go(us, t):
                            continue
                    else:
                        if occupant[0] != them or occupant[1] == "K" or reserved.get(t) != letter:
                            continue
                        if letter == "B" and not self.bishop_may_go(us, t):
                            continue
                    out.append((f"{letter}@{name(t)}", (self._place, letter, t)))
        # Castling, standard or with the rook from the reserve.
        rank = 0 if us == 0 else 7
        if self.king_unmoved[us] and self.board.get((4, rank)) == (us, "K", False):
            for wing, between, king_to, rook_to, corner in (
                    ("h", [(5, rank), (6, rank)], (6, rank), (5, rank), (7, rank)),
                    ("a", [(3, rank), (2, rank), (1, rank)], (2, rank), (3, rank), (0, rank))):
                if any(sq in self.board for sq in between):
                    continue
                text = name((4, rank)) + name(king_to)
                if self.rook_unmoved[us][wing]:
                    out.append((text, (self._castle, king_to, rook_to, corner)))
                if self.reserve[us]["R"]:
                    out.append((text + "r", (self._castle, king_to, rook_to, None)))
        return out

    def _board_move(self, sq, t, promo, special):
        us = self.turn
        colour, p, promoted = self.board.pop(sq)
        if special == "ep":
            del self.board[(t[0], sq[1])]
        if promo:
            self.board[t] = (us, promo, True)
        else:
            self.board[t] = (colour, p, promoted)
        self.ep = ((sq[0], (sq[1] + t[1]) // 2) if special is True else None)
        if p == "K":
            self.king_unmoved[us] = False
            self.rook_unmoved[us] = {"h": False, "a": False}
        for c in (0, 1):
            rank = 0 if c == 0 else 7
            for wing, file in (("h", 7), ("a", 0)):
                if (file, rank) in (sq, t):
                    self.rook_unmoved[c][wing] = False

    def _place(self, letter, t):
        us = self.turn
        self.reserve[us][letter] -= 1
        self.board[t] = (us, letter, False)
        self.ep = None
        rank = 0 if us == 0 else 7
        if letter == "R" and self.king_unmoved[us] and t in ((7, rank), (0, rank)):
            self.rook_unmoved[us]["h" if t[0] == 7 else "a"] = True

    def _castle(self, king_to, rook_to, corner):
        us = self.turn
        rank = 0 if us == 0 else 7
        del self.board[(4, rank)]
        self.board[king_to] = (us, "K", False)
        if corner is None:
            self.reserve[us]["R"] -= 1
        else:
            del self.board[corner]
        self.board[rook_to] = (us, "R", False)
        self.king_unmoved[us] = False
        self.rook_unmoved[us] = {"h": False, "a": False}
        self.ep = None

    def play(self, action):
        child = copy.deepcopy(self)
        fn, *args = action
        getattr(child, fn.__name__)(*args)
        child.turn = 1 - self.turn
        return child

    def legal(self):
        """{move string: position after it}."""
        out = {}
        for text, action in self.pseudo_moves():
            child = self.play(action)
            # The mover's king must not stand attacked (the original king square for castling
            # does not matter: out of and through check is allowed).
            if not child.king_attacked(self.turn):
                out[text] = child
        return out


def perft(position: Position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = position.legal()
    if depth == 1:
        return len(moves)
    return sum(perft(child, depth - 1) for child in moves.values())
