# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Super Dimensiones (RULES.md §1): 6×6, four teams, two sub-games, 32 rule sets.

Squares are numbered 6 * rank + file (a1 = 0, f6 = 35); a position is four team bitboards (a = A1,
b = B1 for player 1; c = A2, d = B2 for player 2, the FEN letters), a queen bitboard, the team
whose phase it is, the candidates of a pending huff, and per sub-game its result and no-progress
clock. Sub-game A is teams a and c, B is b and d: team t faces t ^ 2, its ally is t ^ 1, its
player is t >> 1 and its sub-game t & 1. The token cycles a, c, b, d.

The five cards (RULES.md §1.1) are one of 32 rule tables, chosen by the FEN's card field; the
generator reads the table (directions, ranges, what a declined capture costs) like the draughts
generator reads its variant row. A 6×6 board needs no shift tricks: steps come from a table of
neighbours, and capture sequences are followed square by square, with the pieces taken left on
the board until the sequence ends (they block, and are never jumped twice).

One move is one position reached: a declined capture under distraer is as many moves as there
are squares for the reinforcement (or men to crown); under conquistar with several pieces that
could have captured, the decline leaves a huff to choose, a ply of the opponent (`huff-c3`)
after which the token moves on. A team left without pieces or without a move ends its sub-game
at once (its turns are skipped from then on); the game ends when both sub-games have ended.
"""

from libc.stdint cimport uint8_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset, memcpy

from ._bitboard cimport u64, bb_popcount, bb_lsb, splitmix64
from ._game cimport (GameBoard, GameOps, SMove, RULE_NONE, RULE_DRAW, END_NONE,
                     SEARCH_MAX_MOVES, UNDO_MAX, POS_MAX, Feature, LinearEval, LINEAR_MAX_FEATURES,
                     linear_value, register_perft_stop)

import numpy as np

from .errors import IllegalMoveError, InvalidFenError, UnknownVariantError, is_digits
from .types import Color, Outcome, Termination
from .evaluation import SUPERDIMENSIONES_WEIGHTS

cdef enum:
    NSQ = 36
    NONE = 255
    N_CARD_SETS = 32
    # Card bits of a rule set's index (RULES.md §1.1; the FEN letters in order).
    CARD_INTER = 1          # I, else M
    CARD_CONQUER = 2        # C, else D
    CARD_UNARMOURED = 4     # U, else A
    CARD_EASTERN = 8        # E, else W
    CARD_SYMBOLIC = 16      # S, else R
    # Move kinds.
    KIND_QUIET = 0          # a step, or a slide of a real queen
    KIND_CAPTURE = 1
    KIND_ALLY = 2           # an interdimensional ally-jump chain
    KIND_HUFF = 3           # the opponent picks the piece that a declined capture costs
    # What a declining move costs (RULES.md §1.7).
    PEN_NONE = 0
    PEN_HUFF_NOW = 1        # one piece could capture: removed at once (penalty_sq)
    PEN_HUFF_CHOICE = 2     # several: the opponent's huff ply follows (captured = candidates)
    PEN_REINFORCE = 3       # a man from the pool placed on penalty_sq
    PEN_CROWN = 4           # the man on penalty_sq crowned instead
    # Sub-game results.
    OPEN = 0
    WON_BY_1 = 1
    WON_BY_2 = 2
    DRAWN = 3
    NO_PROGRESS_PLIES = 30  # 15 moves by each team of a sub-game (RULES.md §1.8 case 4)
    TEAM_SIZE = 6
    MAX_PATHS = 4096
    MAX_PATH = 16

# Directions: 0-3 orthogonal (N, S, E, W), 4-7 diagonal (NE, NW, SE, SW).
cdef int DFILE[8]
cdef int DRANK[8]
DFILE[:] = [0, 0, 1, -1, 1, -1, 1, -1]
DRANK[:] = [1, -1, 0, 0, 1, 1, -1, -1]
cdef int NEXT_TEAM[4]
NEXT_TEAM[:] = [2, 3, 1, 0]            # a -> c -> b -> d -> a

ctypedef struct Rules:
    int cards
    int inter
    int conquer
    int unarmoured
    int eastern
    int real
    uint8_t step[NSQ][8]                # the neighbour in a direction, NONE off the board
    int man_dirs[2][3]                  # by player: moves and captures of a man
    int n_man_dirs
    int queen_dirs[4]
    int ally_dirs[2][3]                 # by player: a man's ally jumps (forward, sideways)
    int orth_dirs[4]
    u64 sector[4]                       # by team: its start squares
    u64 promotion[2]                    # by player: the far rank
    u64 home[2]                         # by player: its own first rank
    int w_man
    int w_queen
    int w_advance
    int w_mobility
    LinearEval* learned                 # the learned evaluation (shared by the 32 rule sets)

ctypedef struct Pos:
    u64 team[4]
    u64 queens
    u64 key
    u64 huff                # candidates of a pending huff (pieces of the team to move), or 0
    uint8_t turn            # the team whose phase it is (while a huff is pending: the decliner)
    uint8_t ended[2]        # per sub-game: OPEN or its result
    uint8_t clock[2]        # per sub-game: plies without progress
    uint8_t rev             # plies of the whole game without progress (repetitions)
    uint8_t pad[2]

ctypedef struct Move:
    u64 captured            # captures: the pieces taken; PEN_HUFF_CHOICE: the huff candidates
    uint8_t frm
    uint8_t to
    uint8_t kind
    uint8_t penalty
    uint8_t penalty_sq
    uint8_t promote         # a man ends this move as a queen
    uint8_t ncap
    uint8_t nqueens         # queens among the captured pieces

# Recording of paths (capture landings, ally chains) for move strings; NULL while generating.
ctypedef struct PathRec:
    uint8_t path[MAX_PATH]
    int plen
    uint8_t* out            # records of MAX_PATH + 10 bytes: length, path, captured, queen
    int n
    int cap

cdef enum:
    PATH_RECORD = MAX_PATH + 10

ctypedef struct CapSearch:
    const Rules* R
    int player
    u64 enemy
    u64 empty               # empty squares, the moving piece's origin included
    u64 queens
    int origin
    Move* out
    int n
    PathRec* rec

cdef Rules RULES[N_CARD_SETS]
cdef GameOps OPS[N_CARD_SETS]
cdef LinearEval LEARNED
cdef u64 Z_PIECE[4][2][NSQ]
cdef u64 Z_TURN[4]
cdef u64 Z_HUFF[NSQ]
cdef u64 Z_ENDED[2][4]


cdef void _init_keys():
    cdef u64 state = 0x5375706572446D73    # fixed seed: the same keys on every machine
    cdef int t, q, s
    for t in range(4):
        for q in range(2):
            for s in range(NSQ):
                Z_PIECE[t][q][s] = splitmix64(&state)
        Z_TURN[t] = splitmix64(&state)
    for s in range(NSQ):
        Z_HUFF[s] = splitmix64(&state)
    for t in range(2):
        for q in range(4):
            Z_ENDED[t][q] = 0 if q == OPEN else splitmix64(&state)


_init_keys()


cdef inline u64 bit(int s) noexcept nogil:
    return (<u64>1) << s


# ---------------------------------------------------------------------------------------------
# Captures

cdef inline void path_push(PathRec* rec, int s) noexcept nogil:
    if rec != NULL and rec.plen < MAX_PATH:
        rec.path[rec.plen] = <uint8_t>s
        rec.plen += 1


cdef inline void path_pop(PathRec* rec) noexcept nogil:
    if rec != NULL:
        rec.plen -= 1


cdef void path_record(PathRec* rec, u64 captured, int queen) noexcept nogil:
    """Keep the current path: its length, squares, the captured set and the final rank."""
    cdef uint8_t* r
    if rec.n >= rec.cap:
        return
    r = rec.out + rec.n * PATH_RECORD
    r[0] = <uint8_t>rec.plen
    memcpy(r + 1, rec.path, MAX_PATH)
    memcpy(r + 1 + MAX_PATH, &captured, 8)
    r[9 + MAX_PATH] = <uint8_t>queen
    rec.n += 1


cdef void capture_found(CapSearch* C, int to, u64 captured, int queen) noexcept nogil:
    """A complete sequence: one move per (origin, destination, captured set, promotion)."""
    cdef int i
    cdef Move* m
    cdef int promote = queen and not (C.queens & bit(C.origin))
    if C.rec != NULL:
        path_record(C.rec, captured, queen)
        return
    for i in range(C.n):
        m = &C.out[i]
        if m.frm == C.origin and m.to == to and m.captured == captured and m.promote == promote:
            return
    if C.n >= SEARCH_MAX_MOVES:
        return
    m = &C.out[C.n]
    m.captured = captured
    m.frm = <uint8_t>C.origin
    m.to = <uint8_t>to
    m.kind = KIND_CAPTURE
    m.penalty = PEN_NONE
    m.penalty_sq = NONE
    m.promote = <uint8_t>promote
    m.ncap = <uint8_t>bb_popcount(captured)
    m.nqueens = <uint8_t>bb_popcount(captured & C.queens)
    C.n += 1


cdef int jump_targets(CapSearch* C, int at, u64 captured, int queen, int d,
                      uint8_t* lands, int* over) noexcept nogil:
    """The landing squares of a capture from `at` in direction d (written to lands), and the
    square of the piece taken; 0 when there is none."""
    cdef const Rules* R = C.R
    cdef int s = R.step[at][d], n = 0, l
    if queen and R.real:
        while s != NONE and (C.empty & bit(s)):
            s = R.step[s][d]
    if s == NONE or not (C.enemy & bit(s)) or (captured & bit(s)):
        return 0
    l = R.step[s][d]
    while l != NONE and (C.empty & bit(l)):
        lands[n] = <uint8_t>l
        n += 1
        if not (queen and R.real):
            break
        l = R.step[l][d]
    over[0] = s
    return n


cdef inline int jump_dirs(CapSearch* C, int queen, const int** dirs) noexcept nogil:
    if queen:
        dirs[0] = C.R.queen_dirs
        return 4
    dirs[0] = C.R.man_dirs[C.player]
    return C.R.n_man_dirs


cdef int can_jump(CapSearch* C, int at, u64 captured, int queen) noexcept nogil:
    cdef const int* dirs
    cdef int nd = jump_dirs(C, queen, &dirs), i, over
    cdef uint8_t lands[8]
    for i in range(nd):
        if jump_targets(C, at, captured, queen, dirs[i], lands, &over):
            return 1
    return 0


cdef inline int goes_on(CapSearch* C, int at, u64 captured, int queen) noexcept nogil:
    """Whether a capture that lands on `at` continues (a man crowned there is a queen under
    the real power, and stops under the symbolic one)."""
    if not queen and (C.R.promotion[C.player] & bit(at)):
        if not C.R.real:
            return 0
        queen = 1
    return can_jump(C, at, captured, queen)


cdef void capture_extend(CapSearch* C, int at, u64 captured, int queen) noexcept nogil:
    cdef const int* dirs
    cdef int nd = jump_dirs(C, queen, &dirs), i, k, n, over, l, found = 0, any_on
    cdef uint8_t lands[8]
    cdef uint8_t on[8]
    cdef u64 taken
    for i in range(nd):
        n = jump_targets(C, at, captured, queen, dirs[i], lands, &over)
        if n == 0:
            continue
        taken = captured | bit(over)
        # A flying queen must land where the capture goes on, when there is such a square.
        any_on = 0
        for k in range(n):
            on[k] = <uint8_t>goes_on(C, lands[k], taken, queen)
            any_on |= on[k]
        for k in range(n):
            if any_on and not on[k]:
                continue
            l = lands[k]
            found = 1
            path_push(C.rec, l)
            if not queen and (C.R.promotion[C.player] & bit(l)):
                if C.R.real:
                    capture_extend(C, l, taken, 1)    # crowned, goes on as a queen
                else:
                    capture_found(C, l, taken, 1)     # crowned: the sequence ends
            else:
                capture_extend(C, l, taken, queen)
            path_pop(C.rec)
    if not found and captured:
        capture_found(C, at, captured, queen)


cdef void init_capsearch(CapSearch* C, const Rules* R, const Pos* p, int t) noexcept nogil:
    C.R = R
    C.player = t >> 1
    C.enemy = p.team[t ^ 2]
    C.queens = p.queens
    C.empty = ~(p.team[0] | p.team[1] | p.team[2] | p.team[3])
    C.n = 0
    C.rec = NULL


cdef int gen_captures(const Rules* R, const Pos* p, int t, Move* out) noexcept nogil:
    """Every complete capture sequence of team t, one move per distinct result."""
    cdef CapSearch C
    cdef u64 own = p.team[t]
    cdef int s
    init_capsearch(&C, R, p, t)
    C.out = out
    while own:
        s = bb_lsb(own)
        own &= own - 1
        C.origin = s
        C.empty |= bit(s)
        capture_extend(&C, s, 0, (p.queens >> s) & 1)
        C.empty &= ~bit(s)
    return C.n


cdef int keep_obligatory(Move* moves, int n) noexcept nogil:
    """Quantity, then quality (RULES.md §1.4): only the captures taking the most pieces, and
    among them the most queens, stay."""
    cdef int i, k = 0, best = -1, v
    for i in range(n):
        v = moves[i].ncap * 64 + moves[i].nqueens
        if v > best:
            best = v
    for i in range(n):
        if moves[i].ncap * 64 + moves[i].nqueens == best:
            moves[k] = moves[i]
            k += 1
    return k


# ---------------------------------------------------------------------------------------------
# Quiet moves and ally chains

cdef u64 ally_reach(const Rules* R, int at, u64 visited, u64 allies, u64 empty,
                    const int* dirs, int nd, PathRec* rec, int target) noexcept nogil:
    """The squares an ally-jump chain from `at` can end on (RULES.md §1.5): over an adjacent
    piece of the own other team to the empty square beyond, never landing twice on a square.
    With a recorder, the chains that end on `target` are recorded."""
    cdef u64 reach = 0
    cdef int i, o, l
    for i in range(nd):
        o = R.step[at][dirs[i]]
        if o == NONE or not (allies & bit(o)):
            continue
        l = R.step[o][dirs[i]]
        if l == NONE or (visited & bit(l)) or not (empty & bit(l)):
            continue
        reach |= bit(l)
        path_push(rec, l)
        if rec != NULL and l == target:
            path_record(rec, 0, 0)
        reach |= ally_reach(R, l, visited | bit(l), allies, empty, dirs, nd, rec, target)
        path_pop(rec)
    return reach


cdef inline int add_quiet(Move* out, int n, int frm, int to, int kind, int promote) noexcept nogil:
    if n >= SEARCH_MAX_MOVES:
        return n
    out[n].captured = 0
    out[n].frm = <uint8_t>frm
    out[n].to = <uint8_t>to
    out[n].kind = <uint8_t>kind
    out[n].penalty = PEN_NONE
    out[n].penalty_sq = NONE
    out[n].promote = <uint8_t>promote
    out[n].ncap = 0
    out[n].nqueens = 0
    return n + 1


cdef int gen_quiet(const Rules* R, const Pos* p, int t, Move* out, int n) noexcept nogil:
    """Steps, slides and ally chains of team t, appended from index n."""
    cdef u64 own = p.team[t], empty = ~(p.team[0] | p.team[1] | p.team[2] | p.team[3])
    cdef u64 promo = R.promotion[t >> 1], reach
    cdef int s, d, i, to, queen
    while own:
        s = bb_lsb(own)
        own &= own - 1
        queen = (p.queens >> s) & 1
        if queen:
            for i in range(4):
                d = R.queen_dirs[i]
                to = R.step[s][d]
                while to != NONE and (empty & bit(to)):
                    n = add_quiet(out, n, s, to, KIND_QUIET, 0)
                    if not R.real:
                        break
                    to = R.step[to][d]
        else:
            for i in range(R.n_man_dirs):
                to = R.step[s][R.man_dirs[t >> 1][i]]
                if to != NONE and (empty & bit(to)):
                    n = add_quiet(out, n, s, to, KIND_QUIET, (promo >> to) & 1)
        if R.inter:
            if queen:
                reach = ally_reach(R, s, bit(s), p.team[t ^ 1], empty, R.orth_dirs, 4, NULL, 0)
            else:
                reach = ally_reach(R, s, bit(s), p.team[t ^ 1], empty, R.ally_dirs[t >> 1], 3,
                                   NULL, 0)
            while reach:
                to = bb_lsb(reach)
                reach &= reach - 1
                n = add_quiet(out, n, s, to, KIND_ALLY, (not queen) and ((promo >> to) & 1))
    return n


cdef int has_move(const Rules* R, const Pos* p, int t) noexcept nogil:
    """Whether team t has any legal move: a step, a capture or an ally jump."""
    cdef u64 own = p.team[t], empty = ~(p.team[0] | p.team[1] | p.team[2] | p.team[3])
    cdef int s, i, d, o, l, queen
    cdef CapSearch C
    init_capsearch(&C, R, p, t)
    while own:
        s = bb_lsb(own)
        own &= own - 1
        queen = (p.queens >> s) & 1
        for i in range(4 if queen else R.n_man_dirs):
            d = R.queen_dirs[i] if queen else R.man_dirs[t >> 1][i]
            o = R.step[s][d]
            if o != NONE and (empty & bit(o)):
                return 1
        C.origin = s
        C.empty = empty | bit(s)
        if can_jump(&C, s, 0, queen):
            return 1
        if R.inter:
            for i in range(4 if queen else 3):
                d = R.orth_dirs[i] if queen else R.ally_dirs[t >> 1][i]
                o = R.step[s][d]
                if o == NONE or not (p.team[t ^ 1] & bit(o)):
                    continue
                l = R.step[o][d]
                if l != NONE and (empty & bit(l)):
                    return 1
    return 0


# ---------------------------------------------------------------------------------------------
# The whole move list, with the penalties of a declined capture

cdef int add_choices(Move* out, int n, const Move* q, u64 squares, int penalty) noexcept nogil:
    """The quiet move q once per square of `squares`, with that square as its penalty."""
    cdef int s
    while squares and n < SEARCH_MAX_MOVES:
        s = bb_lsb(squares)
        squares &= squares - 1
        out[n] = q[0]
        out[n].penalty = <uint8_t>penalty
        out[n].penalty_sq = <uint8_t>s
        n += 1
    return n


cdef int add_declines(const Rules* R, const Pos* p, int t, const Move* q, u64 obliged,
                      Move* out, int n) noexcept nogil:
    """The declining moves that the quiet move q becomes when a capture was obligatory."""
    cdef u64 fb = bit(q.frm), tb = bit(q.to), own_after, occ_after, free_sector, men, home
    cdef u64 queens_after
    if n >= SEARCH_MAX_MOVES:
        return n
    if R.conquer:
        # Soplar: the piece that could capture is removed (from where it went, if it moved).
        if obliged & fb:
            obliged = (obliged & ~fb) | tb
        out[n] = q[0]
        if bb_popcount(obliged) == 1:
            out[n].penalty = PEN_HUFF_NOW
            out[n].penalty_sq = <uint8_t>bb_lsb(obliged)
        else:
            out[n].penalty = PEN_HUFF_CHOICE
            out[n].captured = obliged
        return n + 1
    # Distraer: a reinforcement on an empty square of the team's sector, else a crowning.
    own_after = (p.team[t] & ~fb) | tb
    occ_after = ((p.team[0] | p.team[1] | p.team[2] | p.team[3]) & ~fb) | tb
    free_sector = R.sector[t] & ~occ_after
    if bb_popcount(p.team[t]) < TEAM_SIZE and free_sector:
        return add_choices(out, n, q, free_sector, PEN_REINFORCE)
    queens_after = p.queens & ~fb
    if (p.queens & fb) or q.promote:
        queens_after |= tb
    men = own_after & ~queens_after
    if not men:
        out[n] = q[0]                 # nothing to crown: no penalty
        return n + 1
    home = men & R.home[t >> 1]
    return add_choices(out, n, q, home if home else men, PEN_CROWN)


cdef int generate(const Rules* R, const Pos* p, Move* out, int captures_only) noexcept nogil:
    """The legal moves (captures and huff choices only with captures_only)."""
    cdef int t = p.turn, n, i, nq
    cdef u64 h, obliged = 0
    cdef Move quiet[SEARCH_MAX_MOVES]
    if p.ended[0] != OPEN and p.ended[1] != OPEN:
        return 0
    if p.huff:
        n = 0
        h = p.huff
        while h:
            i = bb_lsb(h)
            h &= h - 1
            n = add_quiet(out, n, i, i, KIND_HUFF, 0)
        return n
    n = gen_captures(R, p, t, out)
    if R.unarmoured and n:
        n = keep_obligatory(out, n)
        for i in range(n):
            obliged |= bit(out[i].frm)
    if captures_only:
        return n
    if not obliged:
        return gen_quiet(R, p, t, out, n)
    nq = gen_quiet(R, p, t, quiet, 0)
    for i in range(nq):
        n = add_declines(R, p, t, &quiet[i], obliged, out, n)
    return n


# ---------------------------------------------------------------------------------------------
# Make, the end of a turn, keys

cdef u64 compute_key(const Pos* p) noexcept nogil:
    cdef u64 k = Z_TURN[p.turn] ^ Z_ENDED[0][p.ended[0]] ^ Z_ENDED[1][p.ended[1]], b
    cdef int t, s
    for t in range(4):
        b = p.team[t]
        while b:
            s = bb_lsb(b)
            b &= b - 1
            k ^= Z_PIECE[t][(p.queens >> s) & 1][s]
    b = p.huff
    while b:
        s = bb_lsb(b)
        b &= b - 1
        k ^= Z_HUFF[s]
    return k


cdef inline int finished_result(const Rules* R, int t) noexcept nogil:
    """The result when team t is eliminated or blocked: it loses under conquistar and wins
    under distraer (RULES.md §1.8)."""
    cdef int winner = (t ^ 2) if R.conquer else t
    return WON_BY_1 if (winner >> 1) == 0 else WON_BY_2


cdef inline void team_score(const Pos* p, int t, int* count, int* value) noexcept nogil:
    count[0] = bb_popcount(p.team[t])
    value[0] = count[0] + bb_popcount(p.team[t] & p.queens)


cdef int scored_result(const Rules* R, const Pos* p, int g) noexcept nogil:
    """The result by (pieces, value), compared lexicographically: the higher score wins under
    conquistar, the lower under distraer (RULES.md §1.6)."""
    cdef int c1, v1, c2, v2, first_better
    team_score(p, g, &c1, &v1)
    team_score(p, g | 2, &c2, &v2)
    if c1 == c2 and v1 == v2:
        return DRAWN
    first_better = c1 > c2 or (c1 == c2 and v1 > v2)
    if not R.conquer:
        first_better = not first_better
    return WON_BY_1 if first_better else WON_BY_2


cdef void end_by_rule(const Rules* R, Pos* p, int g) noexcept nogil:
    """Elimination and the no-progress rule for sub-game g (RULES.md §1.8 cases 1 and 4)."""
    if p.ended[g] != OPEN:
        return
    if p.team[g] == 0:
        p.ended[g] = <uint8_t>finished_result(R, g)
    elif p.team[g | 2] == 0:
        p.ended[g] = <uint8_t>finished_result(R, g | 2)
    elif p.clock[g] >= NO_PROGRESS_PLIES:
        p.ended[g] = <uint8_t>scored_result(R, p, g)


cdef void pass_token(const Rules* R, Pos* p, int t) noexcept nogil:
    """The token goes to team t, past ended sub-games; a team there without a legal move ends
    its sub-game (blocked, RULES.md §1.8 case 2) and the token goes on."""
    p.turn = <uint8_t>t
    while p.ended[0] == OPEN or p.ended[1] == OPEN:
        while p.ended[p.turn & 1] != OPEN:
            p.turn = <uint8_t>NEXT_TEAM[p.turn]
        if has_move(R, p, p.turn):
            return
        p.ended[p.turn & 1] = <uint8_t>finished_result(R, p.turn)


cdef void make(const Rules* R, Pos* p, const Move* m, Pos* undo) noexcept nogil:
    cdef int t = p.turn, g = t & 1, progress
    cdef u64 fb, tb
    undo[0] = p[0]
    if m.kind == KIND_HUFF:
        tb = bit(m.to)
        p.team[t] &= ~tb
        p.queens &= ~tb
        p.huff = 0
        p.clock[g] = 0
        p.rev = 0
        end_by_rule(R, p, g)
        pass_token(R, p, NEXT_TEAM[t])
        p.key = compute_key(p)
        return
    fb = bit(m.frm)
    tb = bit(m.to)
    # Progress (RULES.md §1.8 case 4) is what cannot be undone: a capture, a penalty, a crowning,
    # a man going forward. A man stepping or jumping sideways can come back (docs/rules-notes.md).
    progress = (m.kind == KIND_CAPTURE or m.penalty != PEN_NONE or m.promote
                or (not (p.queens & fb) and m.frm // 6 != m.to // 6))
    p.team[t] = (p.team[t] & ~fb) | tb
    if p.queens & fb:
        p.queens = (p.queens & ~fb) | tb
    elif m.promote:
        p.queens |= tb
    if m.kind == KIND_CAPTURE:
        p.team[t ^ 2] &= ~m.captured
        p.queens &= ~m.captured
    if m.penalty == PEN_HUFF_NOW:
        p.team[t] &= ~bit(m.penalty_sq)
        p.queens &= ~bit(m.penalty_sq)
    elif m.penalty == PEN_REINFORCE:
        p.team[t] |= bit(m.penalty_sq)
    elif m.penalty == PEN_CROWN:
        p.queens |= bit(m.penalty_sq)
    if progress:
        p.clock[g] = 0
        p.rev = 0
    else:
        if p.clock[g] < 255:
            p.clock[g] += 1
        if p.rev < 255:
            p.rev += 1
    if m.penalty == PEN_HUFF_CHOICE:
        p.huff = m.captured          # the opponent's huff ply comes next; the token waits
    else:
        end_by_rule(R, p, g)
        pass_token(R, p, NEXT_TEAM[t])
    p.key = compute_key(p)


cdef inline void unmake(Pos* p, const Pos* undo) noexcept nogil:
    p[0] = undo[0]


cdef inline int game_over(const Pos* p) noexcept nogil:
    return p.ended[0] != OPEN and p.ended[1] != OPEN


cdef inline int side_to_move(const Pos* p) noexcept nogil:
    """The player who decides now: the token's team's, or its opponent during a huff choice."""
    return (p.turn >> 1) ^ (1 if p.huff else 0)


cdef volatile int perft_stop = 0   # set through _game by engine.stop_perft(): abandon a perft
register_perft_stop(&perft_stop)


cdef unsigned long long perft(const Rules* R, Pos* p, int depth, Move* stack) noexcept nogil:
    cdef int n, i
    cdef unsigned long long total = 0
    cdef Pos u
    if depth == 0:
        return 1
    n = generate(R, p, stack, 0)
    if depth == 1:
        return n
    if perft_stop:
        return 0
    for i in range(n):
        make(R, p, &stack[i], &u)
        total += perft(R, p, depth - 1, stack + n)
        unmake(p, &u)
    return total


include "_superdimensiones_eval.pxi"


include "_superdimensiones_ops.pxi"


# ---------------------------------------------------------------------------------------------
# The 32 rule tables

WESTERN_START = "dcdcdc/cdcdcd/6/6/bababa/ababab"
EASTERN_START = "cccddd/cccddd/6/6/aaabbb/aaabbb"


cdef u64 _start_squares(str board, str team):
    cdef u64 b = 0
    for i, row in enumerate(board.split("/")):
        for f, ch in enumerate(row):
            if ch == team:
                b |= bit(6 * (5 - i) + f)
    return b


cdef void _fill_rules(int cards):
    cdef Rules* R = &RULES[cards]
    cdef int s, d, f, r, player, t
    memset(R, 0, sizeof(Rules))
    R.cards = cards
    R.inter = (cards & CARD_INTER) != 0
    R.conquer = (cards & CARD_CONQUER) != 0
    R.unarmoured = (cards & CARD_UNARMOURED) != 0
    R.eastern = (cards & CARD_EASTERN) != 0
    R.real = (cards & CARD_SYMBOLIC) == 0
    for s in range(NSQ):
        for d in range(8):
            f, r = s % 6 + DFILE[d], s // 6 + DRANK[d]
            R.step[s][d] = 6 * r + f if 0 <= f < 6 and 0 <= r < 6 else NONE
    for d in range(4):
        R.orth_dirs[d] = d
    for player in range(2):
        fwd = 0 if player == 0 else 1                  # N for player 1, S for player 2
        R.ally_dirs[player][0] = fwd
        R.ally_dirs[player][1] = 2
        R.ally_dirs[player][2] = 3
        if R.eastern:
            R.man_dirs[player][0] = fwd
            R.man_dirs[player][1] = 2
            R.man_dirs[player][2] = 3
        else:
            R.man_dirs[player][0] = 4 if player == 0 else 6   # NE / SE
            R.man_dirs[player][1] = 5 if player == 0 else 7   # NW / SW
        R.promotion[player] = (<u64>0x3F) << (30 if player == 0 else 0)
        R.home[player] = (<u64>0x3F) << (0 if player == 0 else 30)
    R.n_man_dirs = 3 if R.eastern else 2
    for d in range(4):
        R.queen_dirs[d] = d if R.eastern else 4 + d
    for t in range(4):
        R.sector[t] = _start_squares(EASTERN_START if R.eastern else WESTERN_START, "abcd"[t])
    w = SUPERDIMENSIONES_WEIGHTS
    R.w_man = w["man"]
    R.w_queen = w["queen"]
    R.w_advance = w["advance"]
    R.w_mobility = w["mobility"]
    R.learned = &LEARNED
    _fill_ops(cards)


for _cards in range(N_CARD_SETS):
    _fill_rules(_cards)
LEARNED.phase_max = PHASE_MAX


include "_superdimensiones_board.pxi"
