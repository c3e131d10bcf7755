"""A deliberately simple Super Dimensiones move generator, written from RULES.md §1 alone.

It shares nothing with the native module: squares are (file, rank) pairs, pieces sit in a dict,
capture sequences and ally chains are enumerated path by path, and every move is the pair
(move string, position after it). It is slow and meant only to check the native generator.

Teams are the FEN letters: a = A1, b = B1 (player 1, rank 1 side), c = A2, d = B2 (player 2).
Sub-game A is a against c, sub-game B is b against d; the token cycles a, c, b, d.
"""

from __future__ import annotations

FILES = "abcdef"
NEXT = {"a": "c", "c": "b", "b": "d", "d": "a"}
FACING = {"a": "c", "c": "a", "b": "d", "d": "b"}
ALLY = {"a": "b", "b": "a", "c": "d", "d": "c"}
PLAYER = {"a": 1, "b": 1, "c": 2, "d": 2}
SUBGAME = {"a": "A", "c": "A", "b": "B", "d": "B"}
SUBGAME_TEAMS = {"A": ("a", "c"), "B": ("b", "d")}
NO_PROGRESS_PLIES = 30

WESTERN_START = "dcdcdc/cdcdcd/6/6/bababa/ababab"
EASTERN_START = "cccddd/cccddd/6/6/aaabbb/aaabbb"


def name(sq):
    return FILES[sq[0]] + str(sq[1] + 1)


def parse_sq(text):
    return FILES.index(text[0]), int(text[1:]) - 1


def on_board(sq):
    return 0 <= sq[0] < 6 and 0 <= sq[1] < 6


def add(sq, d, k=1):
    return sq[0] + d[0] * k, sq[1] + d[1] * k


class Position:
    """board {(f, r): (team, queen)}, turn, cards, ended {"A": "1"|"2"|"="}, clocks, and a
    pending huff: the set of candidate squares (the turn stays with the team that declined)."""

    def __init__(self, fen):
        fields = fen.split()
        board_text, team, self.cards = fields[0], fields[1], fields[2]
        ended = fields[3] if len(fields) > 3 else "-"
        self.clock = {"A": int(fields[4]) if len(fields) > 4 else 0,
                      "B": int(fields[5]) if len(fields) > 5 else 0}
        self.board = {}
        for rank, row in zip(range(5, -1, -1), board_text.split("/")):
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                else:
                    self.board[(f, rank)] = (ch.lower(), ch.isupper())
                    f += 1
        self.huff = set()
        if "!" in team:
            chooser, squares = team.split("!")
            self.turn = FACING[chooser]
            self.huff = {parse_sq(s) for s in squares.split(",")}
        else:
            self.turn = team
        self.ended = {}
        if ended != "-":
            for item in ended.split(","):
                self.ended[item[0]] = item[1]
        self.settle()

    def copy(self):
        p = Position.__new__(Position)
        p.board = dict(self.board)
        p.turn, p.cards = self.turn, self.cards
        p.ended, p.clock, p.huff = dict(self.ended), dict(self.clock), set(self.huff)
        return p

    def fen(self):
        rows = []
        for rank in range(5, -1, -1):
            row, empty = "", 0
            for f in range(6):
                piece = self.board.get((f, rank))
                if piece is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += piece[0].upper() if piece[1] else piece[0]
            rows.append(row + (str(empty) if empty else ""))
        team = self.turn
        if self.huff:
            team = FACING[self.turn] + "!" + ",".join(sorted(name(s) for s in self.huff))
        ended = ",".join(f"{g}{self.ended[g]}" for g in "AB" if g in self.ended) or "-"
        return f"{'/'.join(rows)} {team} {self.cards} {ended} {self.clock['A']} {self.clock['B']}"

    # -- the cards ------------------------------------------------------------------------------

    @property
    def inter(self):
        return self.cards[0] == "I"

    @property
    def distract(self):
        return self.cards[1] == "D"

    @property
    def unarmoured(self):
        return self.cards[2] == "U"

    @property
    def western(self):
        return self.cards[3] == "W"

    @property
    def real(self):
        return self.cards[4] == "R"

    def forward(self, team):
        return 1 if PLAYER[team] == 1 else -1

    def promotion_rank(self, team):
        return 5 if PLAYER[team] == 1 else 0

    def home_rank(self, team):
        return 0 if PLAYER[team] == 1 else 5

    def sector(self, team):
        """The team's squares in the start position (RULES.md §1.2)."""
        rows = (WESTERN_START if self.western else EASTERN_START).split("/")
        return {(f, 5 - i) for i, row in enumerate(rows) for f, ch in enumerate(row) if ch == team}

    def man_dirs(self, team):
        fw = self.forward(team)
        return [(1, fw), (-1, fw)] if self.western else [(0, fw), (1, 0), (-1, 0)]

    def queen_dirs(self):
        return [(1, 1), (1, -1), (-1, 1), (-1, -1)] if self.western else \
            [(0, 1), (0, -1), (1, 0), (-1, 0)]

    def pieces(self, team):
        return {sq: q for sq, (t, q) in self.board.items() if t == team}

    # -- captures ---------------------------------------------------------------------------------

    def capture_sequences(self, sq):
        """Every complete capture sequence of the piece on sq: (path, captured, queen at end)."""
        team, queen = self.board[sq]
        out = []
        self._extend(team, [sq], [], queen, out)
        return out

    def _jumps(self, team, at, captured, queen, origin):
        """The single jumps from `at`: (landing squares, captured square)."""
        def empty(s):
            return on_board(s) and (s == origin or s not in self.board)

        result = []
        if queen and self.real:
            for d in self.queen_dirs():
                s = add(at, d)
                while empty(s):
                    s = add(s, d)
                if not on_board(s) or s in captured:
                    continue
                t, _ = self.board[s]
                if t != FACING[team]:
                    continue
                lands = []
                beyond = add(s, d)
                while empty(beyond):
                    lands.append(beyond)
                    beyond = add(beyond, d)
                if lands:
                    result.append((lands, s))
        else:
            for d in self.queen_dirs() if queen else self.man_dirs(team):
                s, beyond = add(at, d), add(at, d, 2)
                if not on_board(beyond) or s not in self.board or s in captured:
                    continue
                if self.board[s][0] == FACING[team] and empty(beyond):
                    result.append(([beyond], s))
        return result

    def _extend(self, team, path, captured, queen, out):
        origin = path[0]
        jumps = self._jumps(team, path[-1], captured, queen, origin)
        if not jumps:
            if captured:
                out.append((path, captured, queen))
            return
        for lands, s in jumps:
            # A flying queen must land where the capture goes on, when it can.
            going_on = [l for l in lands
                        if self._continues(team, l, captured + [s], queen, origin)]
            for land in going_on or lands:
                now_queen = queen
                if not queen and land[1] == self.promotion_rank(team):
                    now_queen = True
                    if not self.real:          # crowned: the sequence ends here
                        out.append((path + [land], captured + [s], True))
                        continue
                self._extend(team, path + [land], captured + [s], now_queen, out)

    def _continues(self, team, at, captured, queen, origin):
        if not queen and at[1] == self.promotion_rank(team):
            if not self.real:
                return False
            queen = True
        return bool(self._jumps(team, at, captured, queen, origin))

    # -- quiet moves ------------------------------------------------------------------------------

    def quiet_moves(self, team):
        """(origin, destination, string) of every step, slide and ally chain."""
        out = []
        for sq, queen in self.pieces(team).items():
            dirs = self.queen_dirs() if queen else self.man_dirs(team)
            for d in dirs:
                s = add(sq, d)
                while on_board(s) and s not in self.board:
                    out.append((sq, s, f"{name(sq)}-{name(s)}"))
                    if not (queen and self.real):
                        break
                    s = add(s, d)
            if self.inter:
                chains = {}
                self._chains(team, queen, [sq], chains)
                for dest, text in chains.items():
                    out.append((sq, dest, text))
        return out

    def _chains(self, team, queen, path, chains):
        fw = self.forward(team)
        dirs = [(0, 1), (0, -1), (1, 0), (-1, 0)] if queen else [(0, fw), (1, 0), (-1, 0)]
        at = path[-1]
        for d in dirs:
            over, land = add(at, d), add(at, d, 2)
            if not on_board(land) or land in path:
                continue
            if self.board.get(over, ("", False))[0] != ALLY[team]:
                continue
            if land in self.board and land != path[0]:
                continue
            text = ">".join(name(s) for s in path + [land])
            if land not in chains or text < chains[land]:
                chains[land] = text
            self._chains(team, queen, path + [land], chains)

    # -- the whole move list ------------------------------------------------------------------------

    def legal_moves(self):
        """[(move string, position after)]; empty when the game is over."""
        if len(self.ended) == 2:
            return []
        team = self.turn
        if self.huff:
            out = []
            for sq in sorted(self.huff):
                p = self.copy()
                del p.board[sq]
                p.huff = set()
                p.clock[SUBGAME[team]] = 0
                p._finish_turn()
                out.append((f"huff-{name(sq)}", p))
            return out
        # Complete capture sequences, one per (origin, destination, captured set, promotion).
        groups = {}
        for sq in self.pieces(team):
            for path, captured, queen_after in self.capture_sequences(sq):
                key = (path[0], path[-1], frozenset(captured), queen_after)
                text = "x".join(name(s) for s in path)
                queens = sum(1 for s in captured if self.board[s][1])
                if key not in groups or text < groups[key][0]:
                    groups[key] = (text, len(captured), queens)
        obliged = set()
        if self.unarmoured and groups:
            most = max((n, q) for _, n, q in groups.values())
            groups = {k: v for k, v in groups.items() if (v[1], v[2]) == most}
            obliged = {k[0] for k in groups}
        out = []
        ends = {}
        for key in groups:
            ends[(key[0], key[1])] = ends.get((key[0], key[1]), 0) + 1
        for key, (text, _, _) in groups.items():
            origin, dest, captured, queen_after = key
            if ends[(origin, dest)] == 1:
                text = f"{name(origin)}x{name(dest)}"
            p = self.copy()
            moved = p.board.pop(origin)
            for s in captured:
                del p.board[s]
            p.board[dest] = (team, queen_after)
            p.clock[SUBGAME[team]] = 0
            p._finish_turn()
            out.append((text, p))
        for origin, dest, text in self.quiet_moves(team):
            p = self.copy()
            was_man = not p.board[origin][1]
            del p.board[origin]
            p.board[dest] = (team, not was_man or dest[1] == self.promotion_rank(team))
            g = SUBGAME[team]
            # Progress: a man that goes forward (sideways it can come back), or is crowned.
            p.clock[g] = 0 if was_man and dest[1] != origin[1] else p.clock[g] + 1
            if not obliged:
                p._finish_turn()
                out.append((text, p))
                continue
            # A declined obligatory capture: the penalty of the strategy card (§1.7).
            plain_clock = p.clock[g]
            p.clock[g] = 0
            if not self.distract:
                candidates = {dest if s == origin else s for s in obliged}
                if len(candidates) == 1:
                    del p.board[candidates.pop()]
                    p._finish_turn()
                else:
                    p.huff = candidates
                out.append((text, p))
                continue
            mine = p.pieces(team)
            empty_sector = [s for s in self.sector(team) if s not in p.board]
            if len(mine) < 6 and empty_sector:
                for s in empty_sector:
                    q = p.copy()
                    q.board[s] = (team, False)
                    q._finish_turn()
                    out.append((f"{text}+{name(s)}", q))
                continue
            men = [s for s, queen in mine.items() if not queen]
            home = [s for s in men if s[1] == self.home_rank(team)]
            if not men:                          # nothing to crown: no penalty
                p.clock[g] = plain_clock
                p._finish_turn()
                out.append((text, p))
            for s in home or men:
                q = p.copy()
                q.board[s] = (team, True)
                q._finish_turn()
                out.append((f"{text}={name(s)}", q))
        return out

    # -- the end of a turn --------------------------------------------------------------------------

    def has_move(self, team):
        saved = self.turn
        self.turn = team
        try:
            return bool(self.quiet_moves(team)) or any(
                self.capture_sequences(sq) for sq in self.pieces(team))
        finally:
            self.turn = saved

    def score(self, team):
        mine = self.pieces(team)
        return len(mine), sum(2 if q else 1 for q in mine.values())

    def finished_result(self, team):
        """The sub-game result when `team` is eliminated or blocked (§1.8)."""
        loses = not self.distract
        winner = FACING[team] if loses else team
        return str(PLAYER[winner])

    def scored_result(self, g):
        first, second = SUBGAME_TEAMS[g]           # player 1's team, player 2's team
        s1, s2 = self.score(first), self.score(second)
        if s1 == s2:
            return "="
        better = s1 > s2 if not self.distract else s1 < s2
        return "1" if better else "2"

    def _end_by_rule(self, g):
        """Elimination (§1.8 case 1) and the no-progress rule (case 4) for sub-game g."""
        if g in self.ended:
            return
        for t in SUBGAME_TEAMS[g]:
            if not self.pieces(t):
                self.ended[g] = self.finished_result(t)
                return
        if self.clock[g] >= NO_PROGRESS_PLIES:
            self.ended[g] = self.scored_result(g)

    def _finish_turn(self):
        team = self.turn
        self._end_by_rule(SUBGAME[team])
        self._pass_token(NEXT[team])

    def settle(self):
        """What a position given by FEN implies: ended sub-games, and the token past them."""
        for g in "AB":
            self._end_by_rule(g)
        if not self.huff:
            self._pass_token(self.turn)

    def _pass_token(self, team):
        """The token goes to `team`, past ended sub-games; a team without a legal move there
        ends its sub-game (blocked, §1.8 case 2)."""
        self.turn = team
        while len(self.ended) < 2:
            while SUBGAME[self.turn] in self.ended:
                self.turn = NEXT[self.turn]
            if self.has_move(self.turn):
                return
            self.ended[SUBGAME[self.turn]] = self.finished_result(self.turn)

def perft(pos, depth):
    if depth == 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(p, depth - 1) for _, p in moves)
