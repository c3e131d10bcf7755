# The draughts family's move generation, make/unmake and draw rules, at C level: the body of
# both builds, `_draughts` (64-bit sets of squares) and `_draughts_wide` (128), which include it
# after defining `Bits` and the bit functions for their width (see _draughts_types.pxi).
#
# One generator serves every rule set: the variant's row of `Rules` (filled from rulesets.py)
# says which directions men and kings use, whether kings fly, how captures are chosen and what
# happens at the far row. The board is a few words of Bits (see geometry.py for the layout).

from libc.stdint cimport uint8_t, int8_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset

from ._game cimport (RULE_NONE, RULE_DRAW, RULE_LOSS, RULE_WIN, UNDO_MAX, POS_MAX,
                     register_perft_stop)

cdef Rules RULES[MAX_VARIANTS]
cdef int N_RULES = 0

# Zobrist keys: [side][is king][bit], the side to move, Chapinas' piece numbers, and Frisian's
# count of one king's quiet moves in a row ([side][count][the king's bit]).
cdef u64 Z_PIECE[2][2][NBITS]
cdef u64 Z_NUMBER[20][NBITS]
cdef u64 Z_SIDE
cdef u64 Z_STREAK[2][4][NBITS]


cdef void _init_zobrist():
    cdef u64 state = 0x44696D656E73696F   # fixed seed: keys are identical on every machine
    cdef int s, k, b
    for s in range(2):
        for k in range(2):
            for b in range(NBITS):
                Z_PIECE[s][k][b] = splitmix64(&state)
    for k in range(20):
        for b in range(NBITS):
            Z_NUMBER[k][b] = splitmix64(&state)
    global Z_SIDE
    Z_SIDE = splitmix64(&state)
    for s in range(2):
        for k in range(1, 4):
            for b in range(NBITS):
                Z_STREAK[s][k][b] = splitmix64(&state)


_init_zobrist()


# ---------------------------------------------------------------------------------------------
# Rules table

def register_rules(spec) -> int:
    """Fill one row of the C rules table from a variants.DraughtsVariant; returns its id."""
    global N_RULES
    if N_RULES >= MAX_VARIANTS:
        raise RuntimeError("too many draughts variants")
    cdef int vid = N_RULES
    cdef Rules* R = &RULES[vid]
    memset(R, 0, sizeof(Rules))
    g = spec.geometry
    from .geometry import DIRECTIONS
    cdef int d, i, side, b
    if max(g.coords) >= MAX_BIT:
        raise ValueError(f"{spec.name}: the board needs bits up to {max(g.coords)}; this build "
                         f"holds squares below {MAX_BIT}")
    R.nsq = len(g.coords)
    R.valid = g.valid
    R.promo[0] = g.rank_mask(spec.size - 1)
    R.promo[1] = g.rank_mask(0)
    for d in range(NDIR):
        R.delta[d] = g.shift[d]
        R.lsh[d] = g.shift[d] if g.shift[d] > 0 else 0
        R.rsh[d] = -g.shift[d] if g.shift[d] < 0 else 0
        R.up[d] = 1 if g.shift[d] > 0 else 0
        R.canstep[d] = g.canstep[d]
        df, dr = DIRECTIONS[d]
        R.opposite[d] = DIRECTIONS.index((-df, -dr))
        for b in range(len(g.rays[d])):
            R.ray[d][b] = g.rays[d][b]
    # One load instead of a masked double shift where a capture looks at a single square.
    for d in range(NDIR):
        for b in g.coords:
            n1 = b + g.shift[d] if (g.canstep[d] >> b) & 1 else -1
            if n1 in g.coords:
                R.next1[d][b] = (<Bits>1) << n1
                n2 = n1 + g.shift[d] if (g.canstep[d] >> n1) & 1 else -1
                if n2 in g.coords:
                    R.next2[d][b] = (<Bits>1) << n2

    def mirror(int d):
        # Black's directions are White's with the rank step reversed.
        df, dr = DIRECTIONS[d]
        return DIRECTIONS.index((df, -dr))

    R.n_man_move = len(spec.man_move_dirs)
    for i, d in enumerate(spec.man_move_dirs):
        R.man_move[0][i] = d
        R.man_move[1][i] = mirror(d)
    R.n_man_cap = len(spec.man_capture_dirs)
    for i, d in enumerate(spec.man_capture_dirs):
        R.man_cap[0][i] = d
        R.man_cap[1][i] = mirror(d)
    for side in range(2):
        for i in range(R.n_man_cap):
            for b in g.coords:
                R.man_reach[side][b] |= R.next1[R.man_cap[side][i]][b]
    R.n_king_cap = len(spec.king_capture_dirs or spec.king_dirs)
    for i, d in enumerate(spec.king_capture_dirs or spec.king_dirs):
        R.king_cap[i] = d
        for b in g.coords:
            # The squares a king on b could take along d: those with a square beyond them
            # (any distance along the line for a flying king, the next square otherwise).
            line = int(R.ray[d][b] if spec.flying_kings else R.next1[d][b])
            while line:
                s = (line & -line).bit_length() - 1
                line &= line - 1
                if R.next1[d][s]:
                    R.king_reach[b] |= (<Bits>1) << s
    (R.diag_a, R.diag_b, R.man_cap_shifts, R.man_move_shifts,
     (R.forward_up[0], R.forward_up[1])) = _diagonal_shifts(
        g, [[R.man_cap[s][i] for i in range(R.n_man_cap)] for s in range(2)],
        [[R.man_move[s][i] for i in range(R.n_man_move)] for s in range(2)])
    R.n_king_dir = len(spec.king_dirs)
    for i, d in enumerate(spec.king_dirs):
        R.king_dir[i] = d
    if not 0 <= spec.king_streak <= 3:
        raise ValueError("king_streak: 0 to 3 quiet moves in a row")
    R.king_streak = spec.king_streak
    R.frisian_endings = spec.frisian_endings
    R.flying = spec.flying_kings
    R.immediate = spec.immediate_removal
    R.no_turn_back = 1 if spec.immediate_removal and not spec.turn_back else 0
    if R.no_turn_back:
        R.man_cap_shifts = 0
    R.short_man_jumps = 1 if R.man_cap_shifts and not R.immediate \
        and spec.promotion_in_capture != PROMO_KING else 0
    R.land_behind = spec.land_behind
    R.precedence = spec.precedence
    R.promo_in_capture = spec.promotion_in_capture
    R.win_rule = spec.win_rule
    R.killer = spec.killer
    R.kings_immune = 0 if spec.men_take_kings else <Bits>-1
    R.track = 1 if spec.killer or spec.precedence == PREC_ITALIAN else 0
    # (A king that lands right behind its victim has one square: nothing to choose.)
    R.must_go_on = 1 if spec.flying_kings and spec.precedence in (PREC_FREE, PREC_KING_FIRST) \
        and not spec.land_behind else 0
    R.plain_flying = 1 if R.flying and not (R.immediate or R.land_behind or R.track
                                            or R.must_go_on) else 0
    R.lateral = spec.lateral_king_move
    R.numbered = spec.numbered_pieces
    R.king_moves_limit = spec.king_moves_limit
    R.capture_limit = spec.capture_limit
    R.fmjd_endgames = spec.fmjd_endgames
    R.forzosa = spec.forzosa
    R.saque = spec.saque_de_peon
    R.turkish_endings = spec.turkish_endings
    R.plain_make = 0 if spec.numbered_pieces or spec.king_streak or spec.forzosa \
        or spec.saque_de_peon else 1
    R.value_tiebreak = spec.value_tiebreak
    _fill_eval_tables(R, spec)
    for name in spec.main_diagonal:
        R.main_diag |= (<Bits>1) << spec.square_bit(str(name))
    if spec.saque_de_peon:
        # RULES.md §6.3: White's man on 2 against Black's on 9; mirrored, 31 against 24.
        R.saque_man[0] = (<Bits>1) << spec.square_bit("2")
        R.saque_other_man[0] = (<Bits>1) << spec.square_bit("9")
        R.saque_man[1] = (<Bits>1) << spec.square_bit("31")
        R.saque_other_man[1] = (<Bits>1) << spec.square_bit("24")
    N_RULES += 1
    return vid


def _diagonal_shifts(g, caps, moves):
    """Where plain shifts may stand for the masked steps of men (men_that_capture,
    count_moves): (diag_a, diag_b, man_cap_shifts, man_move_shifts, forward_up) for the Rules
    fields of those names, all zeros where the layout's diagonal steps need their masks. caps
    and moves: each side's man capture and move directions."""
    none = (0, 0, 0, 0, (0, 0))
    diagonals = [0, 1, 2, 3]
    for d in diagonals:
        for b in g.coords:
            if not (g.canstep[d] >> b) & 1 and b + g.shift[d] in g.coords:
                return none              # a step off the board would wrap onto a square
    sizes = sorted({abs(g.shift[d]) for d in diagonals})   # (no negative indices: this
    if len(sizes) != 2 or sorted(g.shift[d] for d in diagonals) \
            != [-sizes[1], -sizes[0], sizes[0], sizes[1]]:  # module is built without wraparound)
        return none

    def forward_pair(dirs):
        # Two diagonals, one step of each size, both raising the index or both lowering it.
        return len(dirs) == 2 and sorted(abs(g.shift[d]) for d in dirs) == sizes \
            and (g.shift[dirs[0]] > 0) == (g.shift[dirs[1]] > 0)

    move_shifts = int(all(forward_pair(m) for m in moves))
    forward_up = tuple(int(move_shifts and g.shift[m[0]] > 0) for m in moves)
    if all(sorted(c) == diagonals for c in caps):
        cap_shifts = 4
    elif move_shifts and all(sorted(c) == sorted(m) for c, m in zip(caps, moves)):
        cap_shifts = 2
    else:
        cap_shifts = 0
    return sizes[0], sizes[1], cap_shifts, move_shifts, forward_up


cdef const Rules* rules_for(int variant_id) noexcept nogil:
    return &RULES[variant_id]


# ---------------------------------------------------------------------------------------------
# Generation

cdef inline Bits step(const Rules* R, Bits bb, int d) noexcept nogil:
    """Every square of bb moved one step in direction d; squares that would leave the board vanish."""
    return ((bb & R.canstep[d]) << R.lsh[d]) >> R.rsh[d]


cdef inline int nearest(Bits bb, int up) noexcept nogil:
    """The first square of bb met when walking in a direction (bb must not be empty)."""
    return bb_lsb(bb) if up else bb_msb(bb)


ctypedef struct Gen:
    const Rules* R
    Move* out
    int n
    int best               # best capture score so far (precedence)
    Bits occ               # occupied squares, with the moving piece lifted off its square
    Bits enemies
    Bits enemy_kings
    Bits man_targets       # the enemy pieces a man may take (not kings in Italian draughts)
    Bits promo             # the mover's crowning row
    Bits stop_promo        # the crowning row where a man's capture ends on it (PROMO_STOP), else 0
    const Bits* man_reach  # Rules.man_reach of the mover
    int us
    int frm
    int mover_king         # the capturing piece started as a king (Czech precedence)
    int crowned            # a man crowned during this capture goes on as a king (Russian)
    Bits victim            # the piece taken last, and the square right behind it (Killer)
    Bits behind
    int first_king         # captures made before the first king was taken (Italian), 64: none
    # Path mode: collect every landing path of one given move instead of generating moves.
    int path_mode
    int target_to
    Bits target_captured
    uint8_t path[64]
    int plen
    uint8_t* paths
    int npaths
    int max_paths


cdef void add_capture(Gen* g, int to, Bits captured, int promote) noexcept nogil:
    cdef int i
    if g.path_mode:
        if to == g.target_to and captured == g.target_captured and g.npaths < g.max_paths:
            for i in range(g.plen):
                g.paths[g.npaths * 64 + i] = g.path[i]
            for i in range(g.plen, 64):
                g.paths[g.npaths * 64 + i] = 255
            g.npaths += 1
        return
    record_capture(g, to, captured, promote, 1)


cdef void record_capture(Gen* g, int to, Bits captured, int promote, int may_repeat) noexcept nogil:
    """Add a capture to the list if the precedence allows it (dropping those it beats).
    may_repeat: 0 where this capture cannot have been found along another path (no check)."""
    cdef int score, i
    if g.R.precedence == PREC_QUANTITY:
        score = bb_popcount(captured)
    elif g.R.precedence == PREC_QUALITY:
        score = bb_popcount(captured) * 64 + bb_popcount(captured & g.enemy_kings)
    elif g.R.precedence == PREC_KING_FIRST:
        score = g.mover_king
    elif g.R.precedence == PREC_VALUE:
        # The highest value, a king worth a little less than two men; at equal value a king's
        # capture first (the weights Scan uses: 64 a man, 126 a king).
        score = bb_popcount(captured & ~g.enemy_kings) * 64 \
            + bb_popcount(captured & g.enemy_kings) * 126 + g.mover_king
    elif g.R.precedence == PREC_ITALIAN:
        # The most pieces; then with a king; then the most kings; then a king taken earliest.
        score = (bb_popcount(captured) << 14) + (g.mover_king << 13) \
            + (bb_popcount(captured & g.enemy_kings) << 7) + (64 - g.first_king)
    else:
        score = 0
    if score < g.best:
        return
    if score > g.best:
        g.best = score
        g.n = 0
    elif may_repeat:
        # The same origin, destination and captured set reached along another path is the
        # same move (NOTATION.md): keep one.
        for i in range(g.n):
            if g.out[i].to == to and captured_of(&g.out[i]) == captured and g.out[i].frm == g.frm:
                return
    if g.n < MAX_MOVES:
        g.out[g.n].frm = <uint8_t>g.frm
        g.out[g.n].to = <uint8_t>to
        set_captured(&g.out[g.n], captured)
        g.out[g.n].promote = <uint8_t>promote
        g.n += 1


cdef inline void man_jump(Gen* g, int cur, Bits captured, Bits v, int land_sq, int d) noexcept nogil:
    """A man on cur takes v (in direction d) and lands on land_sq; then its capture goes on.
    d matters only where a capture may not turn back (Rules.no_turn_back); elsewhere -1."""
    g.path[g.plen] = <uint8_t>land_sq
    g.plen += 1
    if g.R.promo_in_capture == PROMO_STOP and (((<Bits>1) << land_sq) & g.promo):
        add_capture(g, land_sq, captured | v, 1)
    elif g.R.promo_in_capture == PROMO_KING and (((<Bits>1) << land_sq) & g.promo):
        # Crowned on the spot: the capture goes on, if it can, as a king's.
        g.crowned = 1
        king_captures(g, land_sq, captured | v, d)
        g.crowned = 0
    else:
        man_captures(g, land_sq, captured | v, d)
    g.plen -= 1


cdef inline void man_short_jump(Gen* g, int land_sq, Bits captured, Bits free) noexcept nogil:
    """A man's short jump that lands on land_sq (captured: its victims so far, this one among
    them): the capture ends there where a man crowned mid-capture stops, else it goes on."""
    if ((<Bits>1) << land_sq) & g.stop_promo:
        record_capture(g, land_sq, captured, 1, bb_popcount(captured) >= 4)
    else:
        man_short_captures(g, land_sq, captured, free)


cdef void man_short_captures(Gen* g, int cur, Bits captured, Bits free) noexcept nogil:
    """man_captures where a man's captures are plain short jumps (Rules.short_man_jumps), from
    its second jump on (man_short_first_jumps makes the first): the board in registers, no
    landing path kept, no direction needed. free: the empty squares, the capturing man's own
    square among them."""
    cdef Bits victims = g.man_reach[cur] & g.man_targets & ~captured
    cdef int sq, land_sq, found = 0
    while victims:
        sq = bb_lsb(victims)
        victims &= victims - 1
        land_sq = 2 * sq - cur            # as far again, on the same diagonal (ghost bits)
        if <unsigned int>land_sq >= NBITS or not (((<Bits>1) << land_sq) & free):
            continue
        found = 1
        man_short_jump(g, land_sq, captured | ((<Bits>1) << sq), free)
    if not found:
        # Two paths of short diagonal jumps that take the same pieces and end on the same
        # square take at least four (they go round a square of pieces both ways).
        record_capture(g, cur, captured, 1 if ((<Bits>1) << cur) & g.promo else 0,
                       bb_popcount(captured) >= 4)


cdef inline void man_short_first_jumps(Gen* g, Bits men, Bits empty, int a, int b) noexcept nogil:
    """The captures of the men in `men` under Rules.short_man_jumps (diagonal steps +-a, +-b):
    each man's first jumps read from four whole-board sets, one a direction, as
    men_that_capture finds them, rather than tested victim by victim; then man_short_captures
    goes on from each landing square. Moves come in the order of the victim-by-victim loop this
    replaces: men by square, then victims by square. Called with constant steps where it
    matters."""
    cdef Bits t = g.man_targets, down_b = 0, down_a = 0, up_a = 0, up_b = 0, m, free
    cdef int cur
    if g.R.man_cap_shifts == 4 or not g.R.forward_up[g.us]:
        down_b = men & (t << b) & (empty << (2 * b))
        down_a = men & (t << a) & (empty << (2 * a))
    if g.R.man_cap_shifts == 4 or g.R.forward_up[g.us]:
        up_a = men & (t >> a) & (empty >> (2 * a))
        up_b = men & (t >> b) & (empty >> (2 * b))
    while men:
        m = men & (~men + 1)
        men ^= m
        cur = bb_lsb(m)
        g.frm = cur
        free = empty | m
        if down_b & m:
            man_short_jump(g, cur - 2 * b, m >> b, free)
        if down_a & m:
            man_short_jump(g, cur - 2 * a, m >> a, free)
        if up_a & m:
            man_short_jump(g, cur + 2 * a, m << a, free)
        if up_b & m:
            man_short_jump(g, cur + 2 * b, m << b, free)


cdef void man_captures(Gen* g, int cur, Bits captured, int lastdir) noexcept nogil:
    cdef const Rules* R = g.R
    cdef int i, d, sq, land_sq, found = 0
    cdef Bits v, land, victims
    cdef Bits occ = g.occ & ~captured if R.immediate else g.occ
    if R.man_cap_shifts:
        # Plain shifts (a layout with ghost bits): walk the pieces that can be taken, usually
        # none or one, rather than the directions; the landing square is as far again.
        victims = R.man_reach[g.us][cur] & g.man_targets & ~captured
        while victims:
            sq = bb_lsb(victims)
            victims &= victims - 1
            land_sq = 2 * sq - cur
            if land_sq < 0 or land_sq >= MAX_BIT or not (((<Bits>1) << land_sq) & R.valid & ~occ):
                continue
            found = 1
            man_jump(g, cur, captured, (<Bits>1) << sq, land_sq, -1)
    else:
        for i in range(R.n_man_cap):
            d = R.man_cap[g.us][i]
            if R.no_turn_back and lastdir >= 0 and d == R.opposite[lastdir]:
                continue
            v = R.next1[d][cur] & g.man_targets & ~captured
            if not v:
                continue
            land = R.next2[d][cur] & ~occ
            if not land:
                continue
            found = 1
            man_jump(g, cur, captured, v, bb_lsb(land), d)
    if not found and captured:
        add_capture(g, cur, captured, 1 if ((<Bits>1) << cur) & g.promo else 0)


cdef void king_captures(Gen* g, int cur, Bits captured, int lastdir) noexcept nogil:
    cdef const Rules* R = g.R
    cdef int i, d, b, l, found = 0
    cdef Bits blk, vb, beyond, land, saved_victim = 0, saved_behind = 0
    cdef int saved_first = 64
    cdef Bits occ = g.occ & ~captured if R.immediate else g.occ
    # No live enemy on any square this king could take from here: no direction to try.
    cdef int n_dirs = R.n_king_cap if R.king_reach[cur] & g.enemies & ~captured else 0
    for i in range(n_dirs):
        d = R.king_cap[i]
        if R.no_turn_back and lastdir >= 0 and d == R.opposite[lastdir]:
            continue
        if R.flying and not (R.ray[d][cur] & g.enemies & ~captured):
            continue                  # no live enemy anywhere along this line
        if R.flying and R.land_behind:
            vb = flying_victim(g, occ, captured, cur, d)
            if not vb:
                continue
            land = step(R, vb, d) & ~occ
        elif R.flying:
            vb = flying_victim(g, occ, captured, cur, d)
            if not vb:
                continue
            beyond = R.ray[d][bb_lsb(vb)]
            blk = beyond & occ
            land = beyond
            if blk:
                b = nearest(blk, R.up[d])
                land &= ~(R.ray[d][b] | ((<Bits>1) << b))
        else:
            vb = R.next1[d][cur] & g.enemies & ~captured
            if not vb:
                continue
            land = R.next2[d][cur] & ~occ
        if not land:
            continue
        found = 1
        if R.must_go_on:
            # A flying king that can go on capturing from some landing squares must land on
            # one of those (Russian, Czech, pool); where the most pieces must be taken, this
            # follows from the precedence already.
            land = continuing_landings(g, land, captured | vb, d)
        if R.track:
            saved_victim = g.victim
            saved_behind = g.behind
            saved_first = g.first_king
            g.victim = vb
            g.behind = step(R, vb, d)
            if g.first_king == 64 and (vb & g.enemy_kings):
                g.first_king = bb_popcount(captured)
        while land:
            l = bb_lsb(land)
            land &= land - 1
            g.path[g.plen] = <uint8_t>l
            g.plen += 1
            king_captures(g, l, captured | vb, d)
            g.plen -= 1
        if R.track:
            g.victim = saved_victim
            g.behind = saved_behind
            g.first_king = saved_first
    if not found and captured:
        # Killer: a capture whose last piece taken is a king ends right behind it.
        if R.killer and (g.victim & g.enemy_kings) and not (((<Bits>1) << cur) & g.behind):
            return
        add_capture(g, cur, captured, g.crowned)


cdef void plain_king_captures(Gen* g, int cur, Bits captured, Bits live, Bits occ) noexcept nogil:
    """king_captures for a king of Rules.plain_flying outside path mode, the same moves in the
    same order: the rule flags tested once (at the call), the live enemies and the occupied
    squares in registers, and only the lines that hold a live enemy with a square beyond it
    walked. live: the enemies not yet taken; occ: every piece but the capturing king, those
    taken included (they stay until the capture ends)."""
    cdef const Rules* R = g.R
    cdef Bits reach = R.king_reach[cur] & live, line, vb, land
    cdef int i, d, up, l, found = 0
    if reach:
        for i in range(R.n_king_cap):
            d = R.king_cap[i]
            line = R.ray[d][cur]
            if not (line & reach):
                continue              # no live enemy with a square beyond it on this line
            up = R.up[d]
            vb = (<Bits>1) << nearest(line & occ, up)
            if not (vb & live):
                continue              # the first piece met is the mover's own, or taken already
            land = king_slide(R, bb_lsb(vb), d, occ)     # the empty squares beyond it
            if not land:
                continue
            found = 1
            while land:
                l = bb_lsb(land)
                land &= land - 1
                plain_king_captures(g, l, captured | vb, live & ~vb, occ)
    if not found and captured:
        record_capture(g, cur, captured, 0, 1)


cdef inline Bits flying_victim(const Gen* g, Bits occ, Bits captured, int sq, int d) noexcept nogil:
    """The piece a flying king on sq would take in direction d: the first piece met, if it is a
    live enemy (a dead one, under end removal, blocks); 0 when there is none."""
    cdef const Rules* R = g.R
    cdef Bits blk = R.ray[d][sq] & occ, vb
    if not blk:
        return 0
    vb = (<Bits>1) << nearest(blk, R.up[d])
    return vb if vb & g.enemies & ~captured else 0


cdef Bits continuing_landings(Gen* g, Bits land, Bits captured, int lastdir) noexcept nogil:
    """The landing squares of a flying king from which it can capture again (all of land when
    none can): the first step of king_captures from each square."""
    cdef const Rules* R = g.R
    cdef Bits out = 0, occ = g.occ & ~captured if R.immediate else g.occ, vb, rest = land
    cdef int i, d, l
    while rest:
        l = bb_lsb(rest)
        rest &= rest - 1
        for i in range(R.n_king_cap):
            d = R.king_cap[i]
            if d == R.opposite[lastdir]:
                continue              # back along the line: the piece just taken blocks it
            vb = flying_victim(g, occ, captured, l, d)
            if vb and (step(R, vb, d) & ~occ):
                out |= (<Bits>1) << l
                break
    return out if out else land


cdef inline Bits jumps_up(Bits men, Bits enemies, Bits empty, int a, int b) noexcept nogil:
    """The men that can take upwards along the diagonal steps +a or +b (plain shifts: a layout
    with ghost bits): m + a an enemy and m + 2a empty. Called with constant steps where it
    matters, so that the compiler shifts by constants."""
    return men & ((enemies >> a) & (empty >> (2 * a)) | (enemies >> b) & (empty >> (2 * b)))


cdef inline Bits jumps_down(Bits men, Bits enemies, Bits empty, int a, int b) noexcept nogil:
    return men & ((enemies << a) & (empty << (2 * a)) | (enemies << b) & (empty << (2 * b)))


cdef inline Bits men_that_capture(const Pos* p, const Rules* R, Bits empty, int us) noexcept nogil:
    """Men of side `us` with at least one capture (a cheap whole-board test)."""
    cdef int i, d, o, a = R.diag_a, b = R.diag_b
    cdef Bits men = p.pieces[us] & ~p.kings, hit, res = 0
    cdef Bits enemies = p.pieces[us ^ 1] & ~(p.kings & R.kings_immune)
    if R.man_cap_shifts == 4:
        if a == 5 and b == 6:           # 10x10 boards
            return jumps_up(men, enemies, empty, 5, 6) | jumps_down(men, enemies, empty, 5, 6)
        if a == 4 and b == 5:           # 8x8 boards
            return jumps_up(men, enemies, empty, 4, 5) | jumps_down(men, enemies, empty, 4, 5)
        return jumps_up(men, enemies, empty, a, b) | jumps_down(men, enemies, empty, a, b)
    if R.man_cap_shifts == 2:
        if R.forward_up[us]:
            return jumps_up(men, enemies, empty, a, b)
        return jumps_down(men, enemies, empty, a, b)
    for i in range(R.n_man_cap):
        d = R.man_cap[us][i]
        hit = step(R, step(R, men, d) & enemies, d) & empty
        if hit:
            o = R.opposite[d]
            res |= step(R, step(R, hit, o), o)
    return res


cdef inline int gen_captures(const Pos* p, const Rules* R, Move* out, Gen* g) noexcept nogil:
    """The captures of the side to move (with the precedence rules applied) into out; their
    number. Inlined: most positions have none, found by a whole-board test without a call."""
    cdef int us = p.stm
    cdef Bits occ = p.pieces[0] | p.pieces[1]
    cdef Bits empty = R.valid & ~occ
    cdef Bits men = men_that_capture(p, R, empty, us), b
    # Kings with a live enemy on a square they could take on an empty board.
    cdef Bits kings = p.pieces[us] & p.kings, k = kings
    kings = 0
    while k:
        b = k & (~k + 1)
        k ^= b
        if R.king_reach[bb_lsb(b)] & p.pieces[us ^ 1]:
            kings |= b
    if not (men | kings):
        return 0
    return gen_captures_of(p, R, out, g, men, kings, occ, empty)


cdef int gen_captures_of(const Pos* p, const Rules* R, Move* out, Gen* g, Bits men, Bits kings,
                         Bits occ, Bits empty) noexcept nogil:
    """gen_captures for the men and kings that may capture."""
    cdef int us = p.stm
    cdef Bits b
    g.R = R
    g.out = out
    g.n = 0
    g.best = 0
    g.enemies = p.pieces[us ^ 1]
    g.enemy_kings = p.pieces[us ^ 1] & p.kings
    g.man_targets = g.enemies & ~(g.enemy_kings & R.kings_immune)
    g.promo = R.promo[us]
    g.stop_promo = g.promo if R.promo_in_capture == PROMO_STOP else 0
    g.man_reach = R.man_reach[us]
    g.us = us
    g.plen = 0
    g.crowned = 0
    g.mover_king = 0
    if R.track:
        g.victim = 0
        g.behind = 0
        g.first_king = 64
    if R.short_man_jumps:
        if R.diag_a == 5 and R.diag_b == 6:          # 10x10 boards: constant shifts
            man_short_first_jumps(g, men, empty, 5, 6)
        elif R.diag_a == 4 and R.diag_b == 5:        # 8x8 boards
            man_short_first_jumps(g, men, empty, 4, 5)
        else:
            man_short_first_jumps(g, men, empty, R.diag_a, R.diag_b)
    else:
        while men:
            b = men & (~men + 1)
            men ^= b
            g.frm = bb_lsb(b)
            g.occ = occ ^ b
            man_captures(g, g.frm, 0, -1)
    g.mover_king = 1
    while kings:
        b = kings & (~kings + 1)
        kings ^= b
        g.frm = bb_lsb(b)
        g.occ = occ ^ b
        if R.plain_flying:
            plain_king_captures(g, g.frm, 0, g.enemies, g.occ)
        else:
            king_captures(g, g.frm, 0, -1)
    return g.n


cdef inline Bits king_slide(const Rules* R, int sq, int d, Bits occ) noexcept nogil:
    """Empty squares a flying king on sq reaches in direction d."""
    cdef Bits ray = R.ray[d][sq]
    cdef Bits blk = ray & occ
    if blk:
        sq = nearest(blk, R.up[d])
        ray &= ~(R.ray[d][sq] | ((<Bits>1) << sq))
    return ray


cdef int has_capture(const Pos* p, const Rules* R) noexcept nogil:
    """Whether the side to move has a capture (then, captures being compulsory, no quiet move
    is legal)."""
    return side_can_capture(p, R, p.stm)


cdef int side_can_capture(const Pos* p, const Rules* R, int us) noexcept nogil:
    """Whether side `us` would have a capture if it were to move: the first step of
    man_captures / king_captures, without following sequences."""
    cdef int i, d, k, b
    cdef Bits occ = p.pieces[0] | p.pieces[1]
    cdef Bits enemies = p.pieces[us ^ 1], kings = p.pieces[us] & p.kings, ray, blk, vb
    if men_that_capture(p, R, R.valid & ~occ, us):
        return 1
    while kings:
        k = bb_lsb(kings)
        kings &= kings - 1
        if not (R.king_reach[k] & enemies):
            continue              # no enemy on a square this king could take from here
        for i in range(R.n_king_cap):
            d = R.king_cap[i]
            if R.flying:
                ray = R.ray[d][k]
                blk = ray & occ
                if not blk:
                    continue
                b = nearest(blk, R.up[d])
                vb = (<Bits>1) << b
                if (vb & enemies) and (step(R, vb, d) & ~occ):
                    return 1
            else:
                vb = step(R, (<Bits>1) << k, d) & enemies
                if vb and (step(R, vb, d) & ~occ):
                    return 1
    return 0


cdef inline int add_targets(Move* out, int n, Bits targets, int delta, Bits promo) noexcept nogil:
    """Quiet moves to each square of targets from the square delta bits behind it."""
    cdef int t
    while targets and n < MAX_MOVES:
        t = bb_lsb(targets)
        targets &= targets - 1
        out[n].frm = <uint8_t>(t - delta)
        out[n].to = <uint8_t>t
        set_captured(&out[n], 0)
        out[n].promote = 1 if ((<Bits>1) << t) & promo else 0
        n += 1
    return n


cdef inline Bits free_kings(const Pos* p, const Rules* R, int us) noexcept nogil:
    """The kings of side `us` that may make a quiet move: all of them, but in Frisian draughts
    the king that has just made `king_streak` quiet moves in a row while its side has men."""
    cdef Bits kings = p.pieces[us] & p.kings
    if R.king_streak and p.streak[us] >= R.king_streak and (p.pieces[us] & ~p.kings):
        kings &= ~((<Bits>1) << p.wolf[us])
    return kings


cdef int gen_quiet(const Pos* p, const Rules* R, Move* out) noexcept nogil:
    cdef int us = p.stm, i, d, k, n = 0
    cdef Bits occ = p.pieces[0] | p.pieces[1]
    cdef Bits empty = R.valid & ~occ
    cdef Bits men = p.pieces[us] & ~p.kings
    cdef Bits kings = free_kings(p, R, us), kk, t
    for i in range(R.n_man_move):
        d = R.man_move[us][i]
        n = add_targets(out, n, step(R, men, d) & empty, R.delta[d], R.promo[us])
    kk = kings
    while kk:
        k = bb_lsb(kk)
        kk &= kk - 1
        for i in range(R.n_king_dir):
            d = R.king_dir[i]
            if R.flying:
                t = king_slide(R, k, d, occ)
            else:
                t = step(R, (<Bits>1) << k, d) & empty
            while t and n < MAX_MOVES:
                out[n].frm = <uint8_t>k
                out[n].to = <uint8_t>bb_lsb(t)
                set_captured(&out[n], 0)
                out[n].promote = 0
                t &= t - 1
                n += 1
    if R.lateral:
        kk = kings & R.promo[us]
        n = add_targets(out, n, step(R, kk, 8) & empty, R.delta[8], 0)
        n = add_targets(out, n, step(R, kk, 9) & empty, R.delta[9], 0)
    return n


cdef int generate(const Pos* p, const Rules* R, Move* out) noexcept nogil:
    cdef Gen g
    g.path_mode = 0
    cdef int n = gen_captures(p, R, out, &g)
    if n:
        return n
    return gen_quiet(p, R, out)


cdef inline int man_step_count(Bits men, Bits empty, int a, int b, int up) noexcept nogil:
    """The men's quiet moves along the diagonal steps a and b, upwards (up) or downwards: plain
    shifts (a layout with ghost bits), called with constant steps where it matters."""
    if up:
        return bb_popcount((men << a) & empty) + bb_popcount((men << b) & empty)
    return bb_popcount((men >> a) & empty) + bb_popcount((men >> b) & empty)


cdef int count_moves(const Pos* p, const Rules* R, Move* scratch) noexcept nogil:
    """The number of legal moves, without writing quiet moves out (perft's last ply)."""
    cdef Gen g
    g.path_mode = 0
    cdef int n = gen_captures(p, R, scratch, &g)
    if n:
        return n
    return quiet_count(p, R)


cdef inline Bits promoting_steps(const Pos* p, const Rules* R) noexcept nogil:
    """The squares where a man of the side to move would be crowned by a quiet move."""
    cdef int us = p.stm, i
    cdef Bits men = p.pieces[us] & ~p.kings, to = 0
    for i in range(R.n_man_move):
        to |= step(R, men, R.man_move[us][i])
    return to & R.valid & ~(p.pieces[0] | p.pieces[1]) & R.promo[us]


cdef int quiet_count(const Pos* p, const Rules* R) noexcept nogil:
    """The number of quiet moves of the side to move (as gen_quiet writes them out)."""
    cdef int us = p.stm, i, k, n = 0
    cdef Bits occ = p.pieces[0] | p.pieces[1]
    cdef Bits empty = R.valid & ~occ
    cdef Bits men = p.pieces[us] & ~p.kings
    cdef Bits kings = free_kings(p, R, us), kk
    if R.man_move_shifts and R.diag_a == 5 and R.diag_b == 6:      # 10x10 boards: constants
        n += man_step_count(men, empty, 5, 6, R.forward_up[us])
    elif R.man_move_shifts:
        n += man_step_count(men, empty, R.diag_a, R.diag_b, R.forward_up[us])
    else:
        for i in range(R.n_man_move):
            n += bb_popcount(step(R, men, R.man_move[us][i]) & empty)
    if R.flying:
        kk = kings
        while kk:
            k = bb_lsb(kk)
            kk &= kk - 1
            for i in range(R.n_king_dir):
                n += bb_popcount(king_slide(R, k, R.king_dir[i], occ))
    else:
        for i in range(R.n_king_dir):
            n += bb_popcount(step(R, kings, R.king_dir[i]) & empty)
    if R.lateral:
        kk = kings & R.promo[us]
        n += bb_popcount(step(R, kk, 8) & empty) + bb_popcount(step(R, kk, 9) & empty)
    return n


cdef int capture_paths(const Pos* p, const Rules* R, const Move* m, uint8_t* paths,
                       int max_paths) noexcept nogil:
    """Every landing path (64 bytes each, 255-terminated, origin excluded) along which move m
    can be played; returns how many were written."""
    cdef Gen g
    g.path_mode = 1
    g.target_to = m.to
    g.target_captured = captured_of(m)
    g.paths = paths
    g.npaths = 0
    g.max_paths = max_paths
    g.R = R
    g.out = NULL
    g.n = 0
    g.best = 0
    g.plen = 0
    cdef int us = p.stm
    cdef Bits b = (<Bits>1) << m.frm
    g.enemies = p.pieces[us ^ 1]
    g.enemy_kings = p.pieces[us ^ 1] & p.kings
    g.man_targets = g.enemies & ~(g.enemy_kings & R.kings_immune)
    g.promo = R.promo[us]
    g.stop_promo = g.promo if R.promo_in_capture == PROMO_STOP else 0
    g.man_reach = R.man_reach[us]
    g.us = us
    g.frm = m.frm
    g.crowned = 0
    g.mover_king = 1 if p.kings & b else 0
    g.victim = 0
    g.behind = 0
    g.first_king = 64
    g.occ = (p.pieces[0] | p.pieces[1]) ^ b
    if p.kings & b:
        king_captures(&g, m.frm, 0, -1)
    else:
        man_captures(&g, m.frm, 0, -1)
    return g.npaths


# ---------------------------------------------------------------------------------------------
# Make / unmake and the counters behind the draw rules

cdef int special_condition(const Pos* p, const Rules* R) noexcept nogil:
    """Whether the position is a Forzosa or Saque de peon ending (RULES.md §6.3, §2.3)."""
    cdef int s, l
    cdef Bits strong, weak
    for s in range(2):
        l = s ^ 1
        strong = p.pieces[s]
        weak = p.pieces[l]
        if R.forzosa and bb_popcount(strong) == 3 and (strong & ~p.kings) == 0 \
                and bb_popcount(weak) == 1 and (weak & p.kings) and (strong & R.main_diag):
            return 1
        if R.saque and bb_popcount(strong & p.kings) == 2 and (strong & ~p.kings) == R.saque_man[s] \
                and (strong & p.kings & R.main_diag) and bb_popcount(weak & p.kings) == 1 \
                and (weak & ~p.kings) == R.saque_other_man[s]:
            return 1
    return 0


cdef void make(Pos* p, const Rules* R, const Move* m, Undo* u) noexcept nogil:
    if R.plain_make:
        make_plain(p, m, u)
    else:
        make_full(p, R, m, u)


cdef inline void save_counters(const Pos* p, Undo* u) noexcept nogil:
    """The key and the draw rules' counters, as unmake restores them."""
    u.key = p.key
    u.reversible = p.reversible
    u.since_capture = p.since_capture
    u.since_material = p.since_material
    u.special = p.special


cdef inline void count_plies(Pos* p, Bits captured, int was_king, int promote) noexcept nogil:
    """The draw rules' counters after a move: a capture restarts them all; a king's quiet move
    keeps the position reversible; a crowning changes the material."""
    if captured:
        p.reversible = 0
        p.since_capture = 0
        p.since_material = 0
    else:
        p.since_capture += 1
        p.reversible = p.reversible + 1 if was_king else 0
        p.since_material = 0 if promote else p.since_material + 1


cdef inline u64 key_after_move(const Pos* p, const Move* m) noexcept nogil:
    """The key after move m where the key holds only the pieces and the side to move (every
    rule but Chapinas' numbers and Frisian's streaks): make_plain's key, and GameOps.key_after."""
    cdef int us = p.stm, them = us ^ 1, s
    cdef int was_king = (p.kings >> m.frm) & 1
    cdef Bits c = captured_of(m) & ~p.kings
    cdef u64 key = p.key ^ Z_SIDE ^ Z_PIECE[us][was_king][m.frm] \
        ^ Z_PIECE[us][was_king | m.promote][m.to]
    while c:
        s = bb_lsb(c)
        c &= c - 1
        key ^= Z_PIECE[them][0][s]
    c = captured_of(m) & p.kings
    while c:
        s = bb_lsb(c)
        c &= c - 1
        key ^= Z_PIECE[them][1][s]
    return key


cdef inline void make_plain(Pos* p, const Move* m, Undo* u) noexcept nogil:
    """make for the rules with none of Chapinas' numbers, Frisian's streaks or the Forzosa and
    Saque counters (Rules.plain_make): the same, without looking at any of them."""
    cdef int was_king = (p.kings >> m.frm) & 1
    cdef Bits captured = captured_of(m)
    cdef u64 key = key_after_move(p, m)
    save_counters(p, u)
    u.captured_kings = captured & p.kings
    count_plies(p, captured, was_king, m.promote)
    move_board(p, m)
    p.key = key


cdef void make_full(Pos* p, const Rules* R, const Move* m, Undo* u) noexcept nogil:
    cdef int us = p.stm, them = us ^ 1, s
    cdef int was_king = (p.kings >> m.frm) & 1
    cdef u64 key = p.key
    cdef Bits c
    cdef int8_t num
    save_counters(p, u)
    cdef Bits captured = captured_of(m)
    u.captured_kings = captured & p.kings
    if R.numbered:
        u.num_to = p.num[m.to]
    if R.king_streak:
        u.wolf[0] = p.wolf[0]
        u.wolf[1] = p.wolf[1]
        u.streak[0] = p.streak[0]
        u.streak[1] = p.streak[1]

    if captured:
        c = captured
        while c:
            s = bb_lsb(c)
            c &= c - 1
            key ^= Z_PIECE[them][(u.captured_kings >> s) & 1][s]
            if R.numbered:
                key ^= Z_NUMBER[p.num[s]][s]
    count_plies(p, captured, was_king, m.promote)
    key ^= Z_PIECE[us][was_king][m.frm] ^ Z_PIECE[us][was_king | m.promote][m.to] ^ Z_SIDE
    move_board(p, m)
    if R.numbered:
        num = p.num[m.frm]
        key ^= Z_NUMBER[num][m.frm] ^ Z_NUMBER[num][m.to]
        p.num[m.to] = num
    if R.king_streak:
        key ^= _streak_key(p, us) ^ _streak_key(p, them)
        count_streak(p, m, was_king, us)
        key ^= _streak_key(p, us) ^ _streak_key(p, them)
    p.key = key
    if R.forzosa or R.saque:
        # The counter starts at the first position of the ending and runs while the material
        # stays the same (RULES.md SP-5).
        if p.since_material == 0:
            p.special = 0 if special_condition(p, R) else -1
        elif p.special >= 0:
            p.special += 1
        elif special_condition(p, R):
            p.special = 0


cdef void unmake(Pos* p, const Rules* R, const Move* m, const Undo* u) noexcept nogil:
    cdef int them = p.stm, us = them ^ 1
    cdef Bits fb = (<Bits>1) << m.frm, tb = (<Bits>1) << m.to
    p.stm = us
    p.pieces[us] ^= fb ^ tb
    if (p.kings >> m.to) & 1:
        p.kings &= ~tb
        if not m.promote:
            p.kings |= fb
    p.pieces[them] |= captured_of(m)
    p.kings |= u.captured_kings
    if R.numbered:
        p.num[m.frm] = p.num[m.to]
        p.num[m.to] = u.num_to
    p.key = u.key
    p.reversible = u.reversible
    p.since_capture = u.since_capture
    p.since_material = u.since_material
    p.special = u.special
    if R.king_streak:
        p.wolf[0] = u.wolf[0]
        p.wolf[1] = u.wolf[1]
        p.streak[0] = u.streak[0]
        p.streak[1] = u.streak[1]


cdef inline u64 _streak_key(const Pos* p, int side) noexcept nogil:
    return Z_STREAK[side][p.streak[side]][p.wolf[side]] if p.streak[side] else 0


cdef inline void count_streak(Pos* p, const Move* m, int was_king, int us) noexcept nogil:
    """Frisian: after move m of side `us` (already on the board), each side's count of one
    king's quiet moves in a row. The mover's grows with a quiet move of the same king while it
    has men, and restarts with any other move; the other side's ends when its king is taken or
    it has no man left (then the limit no longer applies)."""
    cdef int them = us ^ 1
    if p.streak[them] and (not ((p.pieces[them] & p.kings) >> p.wolf[them]) & 1
                           or not (p.pieces[them] & ~p.kings)):
        p.streak[them] = 0
    if was_king and not captured_of(m) and (p.pieces[us] & ~p.kings):
        if not (p.streak[us] and p.wolf[us] == m.frm):
            p.streak[us] = 0
        p.streak[us] += 1
        p.wolf[us] = <int8_t>m.to
    else:
        p.streak[us] = 0


cdef u64 compute_key(const Pos* p, const Rules* R) noexcept nogil:
    cdef u64 key = Z_SIDE if p.stm else 0
    cdef Bits c
    cdef int s, b
    for s in range(2):
        c = p.pieces[s]
        while c:
            b = bb_lsb(c)
            c &= c - 1
            key ^= Z_PIECE[s][(p.kings >> b) & 1][b]
            if R.numbered:
                key ^= Z_NUMBER[p.num[b]][b]
    if R.king_streak:
        key ^= _streak_key(p, 0) ^ _streak_key(p, 1)
    return key


cdef inline int counter_rule(const Pos* p, const Rules* R) noexcept nogil:
    """The move-count limits: END_KING_MOVES, END_CAPTURE_LIMIT or END_NONE."""
    if R.king_moves_limit and p.reversible >= R.king_moves_limit:
        return END_KING_MOVES
    if R.capture_limit and p.since_capture >= R.capture_limit:
        return END_CAPTURE_LIMIT
    return END_NONE


cdef inline int has_static_ends(const Rules* R) noexcept nogil:
    """Whether rule_draw_full can end a game whatever the move counters say: the first king's
    win, Turkish and Frisian endings. Otherwise a position with its counters at zero (as the
    endgame tables see it) is never ended by a rule."""
    return R.win_rule == WIN_FIRST_KING or R.turkish_endings or R.frisian_endings


cdef int rule_draw(const Pos* p, const Rules* R) noexcept nogil:
    """The rule that ends the game here, or END_NONE: END_LONE_PIECE is a loss for the side to
    move, every other code a draw. Repetition is checked by whoever keeps the history of keys;
    having no pieces or no move is checked before this."""
    cdef int code
    cdef Bits white = p.pieces[0], black = p.pieces[1]
    if (p.kings == 0 and not R.turkish_endings) or (
            p.special < 0 and not has_static_ends(R)
            and not (R.fmjd_endgames and ((white & (white - 1)) == 0
                                          or (black & (black - 1)) == 0))):
        # No king on the board (most positions of a search): every rule but the move counters,
        # Saque de peon's and Turkish endings needs one. With kings, where no rule of the game
        # looks at the pieces (no static ending, no Spanish count, no side down to one piece
        # under the FMJD endings), only the move counters remain. Kept small so that the
        # search's call inlines it.
        code = counter_rule(p, R)
        if code == END_NONE and p.special >= 64:
            return END_SAQUE
        return code
    return rule_draw_full(p, R)


cdef int rule_draw_full(const Pos* p, const Rules* R) noexcept nogil:
    """rule_draw for any position."""
    cdef int s, nk, total, mine, theirs, kings_only, code
    cdef Move buf[MAX_MOVES]
    cdef Gen g
    if R.win_rule == WIN_FIRST_KING and (p.pieces[p.stm ^ 1] & p.kings):
        return END_FIRST_KING
    # Frisian's endings count kings only; Turkish's any pieces.
    kings_only = p.kings == (p.pieces[0] | p.pieces[1])
    if R.turkish_endings or (R.frisian_endings and kings_only):
        mine = bb_popcount(p.pieces[p.stm])
        theirs = bb_popcount(p.pieces[p.stm ^ 1])
        if R.turkish_endings and mine == 1 and theirs >= 2 and (p.pieces[p.stm ^ 1] & p.kings):
            return END_LONE_PIECE
        if mine == 1 and theirs == 1:
            g.path_mode = 0
            if gen_captures(p, R, buf, &g) == 0:
                return END_ONE_AGAINST_ONE
        if R.frisian_endings and (mine == 1 and theirs == 2 or mine == 2 and theirs == 1) \
                and p.since_material >= 14:
            return END_SEVEN_MOVES
    code = counter_rule(p, R)
    if code != END_NONE:
        return code
    if R.fmjd_endgames:
        for s in range(2):
            if bb_popcount(p.pieces[s ^ 1]) == 1 and (p.pieces[s ^ 1] & p.kings):
                nk = bb_popcount(p.pieces[s] & p.kings)
                total = bb_popcount(p.pieces[s])
                if nk >= 1 and total == 3 and p.since_material >= 32:
                    return END_SIXTEEN_MOVES
                if nk >= 1 and total <= 2 and p.since_material >= 10:
                    return END_FIVE_MOVES
    if p.special >= 0:
        # Forzosa: 3 kings v 1 king, 12 moves each; Saque de peon: 32 moves each.
        if p.kings == (p.pieces[0] | p.pieces[1]):
            if p.special >= 24:
                return END_FORZOSA
        elif p.special >= 64:
            return END_SAQUE
    return END_NONE


# ---------------------------------------------------------------------------------------------
# Perft

cdef volatile int perft_stop = 0   # set through _game by engine.stop_perft(): abandon a perft
register_perft_stop(&perft_stop)


cdef u64 perft(Pos* p, const Rules* R, int depth, Move* stack) noexcept nogil:
    """Leaf count at depth; stack must hold depth * MAX_MOVES moves."""
    cdef int n, i
    cdef u64 total = 0
    cdef Undo u
    if depth <= 0:
        return 1
    if R.plain_make:
        return perft_board(p, R, depth, stack)
    if depth == 1:
        return count_moves(p, R, stack)
    n = generate(p, R, stack)
    if perft_stop:
        return 0
    for i in range(n):
        make(p, R, &stack[i], &u)
        total += perft(p, R, depth - 1, stack + n)
        unmake(p, R, &stack[i], &u)
    return total


cdef inline void move_board(Pos* p, const Move* m) noexcept nogil:
    """The pieces and the side to move after m: the board part of make_plain and make_full
    (which keep the key and the counters themselves), and the whole of a move in perft_board
    (a plain-make row's moves do not depend on the key or the counters)."""
    cdef int us = p.stm, them = us ^ 1
    cdef Bits fb = (<Bits>1) << m.frm, tb = (<Bits>1) << m.to
    cdef Bits captured = captured_of(m)
    cdef int was_king = (p.kings >> m.frm) & 1
    # The captured pieces leave before the mover lands, as in make_plain: under immediate
    # removal (Turkish) a king may end its capture on a square it emptied.
    p.pieces[them] ^= captured
    p.kings &= ~captured
    p.pieces[us] ^= fb ^ tb
    if was_king:
        p.kings ^= fb ^ tb
    elif m.promote:
        p.kings |= tb
    p.stm = them


cdef u64 perft_board(Pos* p, const Rules* R, int depth, Move* stack) noexcept nogil:
    """perft for the rows of Rules.plain_make: a move changes the pieces and the side to move
    only, and the three words it changes are put back from locals. Like Scan's perft, it keeps
    no key (the search's make does). depth >= 1."""
    cdef int n, i
    cdef u64 total = 0
    cdef Bits white = p.pieces[0], black = p.pieces[1], kings = p.kings
    cdef int stm = p.stm
    if depth == 1:
        return count_moves(p, R, stack)
    n = generate(p, R, stack)
    if perft_stop:
        return 0
    for i in range(n):
        move_board(p, &stack[i])
        total += perft_board(p, R, depth - 1, stack + n)
        p.pieces[0] = white
        p.pieces[1] = black
        p.kings = kings
        p.stm = stm
    return total
