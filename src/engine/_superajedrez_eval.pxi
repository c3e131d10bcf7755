# The Superajedrez evaluation: material on the board and in reserve, piece-square tables blended
# by game phase, mobility, king safety against placements, reserved-square pressure and passed
# pawns. Weights are data in evaluation.py (SUPERAJEDREZ_WEIGHTS); or, once weights are loaded
# (linear.py), the learned linear evaluation over the same terms, each with its own opening and
# ending weight. Both read the terms count_terms() finds.


cdef void _load_weights() except *:
    w = SUPERAJEDREZ_WEIGHTS
    cdef int t, sq, f, r, cd
    for t in range(5):
        EV.value[t] = w["value"][t]
        EV.reserve_value[t] = w["value"][t] + w["reserve_bonus"][t]
    for t in range(6):
        EV.mobility[t] = w["mobility"][t]
    EV.drop_check = w["drop_check"]
    EV.zone_attack = w["zone_attack"]
    EV.exposed = w["exposed"]
    EV.held_square = w["held_square"]
    EV.doubled = w["doubled"]
    EV.tempo = w["tempo"]
    for r in range(8):
        EV.passed[r] = w["passed"][r]
    EV.phase_total = 2 * (2 * w["value"][KNIGHT] + 2 * w["value"][BISHOP] + 2 * w["value"][ROOK]
                          + w["value"][QUEEN])
    # Piece-square tables from a few shapes: distance from the centre, rank, and for the king
    # shelter in the middlegame and activity in the endgame.
    for sq in range(64):
        f = sq & 7
        r = sq >> 3
        cd = max(abs(2 * f - 7), abs(2 * r - 7)) // 2          # 0 in the centre .. 3 on the rim
        EV.pst_mg[PAWN][sq] = w["pawn_advance"][r] + (w["pawn_centre"] if 2 <= f <= 5 and 2 <= r <= 4 else 0)
        EV.pst_eg[PAWN][sq] = 2 * w["pawn_advance"][r]
        EV.pst_mg[KNIGHT][sq] = w["knight_centre"] * (3 - cd)
        EV.pst_eg[KNIGHT][sq] = w["knight_centre"] * (3 - cd)
        EV.pst_mg[BISHOP][sq] = w["bishop_centre"] * (3 - cd)
        EV.pst_eg[BISHOP][sq] = w["bishop_centre"] * (3 - cd)
        EV.pst_mg[ROOK][sq] = w["rook_seventh"] if r == 6 else 0
        EV.pst_eg[ROOK][sq] = w["rook_seventh"] if r == 6 else 0
        EV.pst_mg[QUEEN][sq] = w["queen_centre"] * (3 - cd)
        EV.pst_eg[QUEEN][sq] = w["queen_centre"] * (3 - cd)
        EV.pst_mg[KING][sq] = w["king_shelter"][f] if r == 0 else -w["king_exposed"] * r
        EV.pst_eg[KING][sq] = w["king_centre"] * (3 - cd)


cdef inline int mirror(int side, int sq) noexcept nogil:
    return sq if side == 0 else sq ^ 56


# What the evaluation counts, per side.
ctypedef struct Terms:
    int material[5]           # pieces on the board by type, pawn to queen
    int mobility[6]           # squares attacked that the side does not occupy, by type
    int exposed               # pieces on an enemy protected reserved square
    int held                  # own protected reserved squares
    int zone                  # squares next to the king the enemy attacks
    int drop_check            # safe squares from which an enemy reserve piece would check
    int doubled               # pawns with another on their file
    int passed[8]             # passed pawns by relative rank
    int bishops               # bishops on the board and in reserve


cdef int count_terms(const Pos* p, Terms* terms, int* placed) noexcept nogil:
    """Fill both sides' terms; placed[i] = 1 + 64 * (type + 6 * side) + the square as the side
    sees it, for every piece on the board. Returns how many pieces."""
    cdef int s, t, sq, ksq, n = 0
    cdef u64 occ = p.occ[0] | p.occ[1], bits, att, safe_checks
    cdef u64 attacks[2]
    cdef u64 prot[2]
    cdef Terms* T
    prot[0] = protected_squares(p, 0, 0)
    prot[1] = protected_squares(p, 1, 0)
    memset(terms, 0, 2 * sizeof(Terms))
    for s in range(2):
        T = &terms[s]
        attacks[s] = 0
        T.bishops = p.reserve[s][BISHOP]
        for t in range(6):
            bits = p.pieces[s][t]
            while bits:
                sq = bb_lsb(bits)
                bits &= bits - 1
                placed[n] = 64 * (t + 6 * s) + mirror(s, sq)
                n += 1
                if t == KING:
                    att = KING_ATT[sq]
                elif t == PAWN:
                    att = PAWN_ATT[s][sq]
                    T.material[PAWN] += 1
                    if not (PASSED_MASK[s][sq] & p.pieces[s ^ 1][PAWN]):
                        T.passed[mirror(s, sq) >> 3] += 1
                    if (FILE_A << (sq & 7)) & p.pieces[s][PAWN] & ~((<u64>1) << sq):
                        T.doubled += 1
                else:
                    if t == KNIGHT:
                        att = KNIGHT_ATT[sq]
                    elif t == BISHOP:
                        att = bishop_att(sq, occ)
                        T.bishops += 1
                    elif t == ROOK:
                        att = rook_att(sq, occ)
                    else:
                        att = bishop_att(sq, occ) | rook_att(sq, occ)
                    T.material[t] += 1
                    T.mobility[t] += bb_popcount(att & ~p.occ[s])
                    # A piece on an enemy protected reserved square can be taken by a placement.
                    if (prot[s ^ 1] >> sq) & 1:
                        T.exposed += 1
                attacks[s] |= att
        T.held = bb_popcount(prot[s])
    # King safety: enemy pieces bearing on the squares around the king, and empty squares from
    # which a reserve piece of the enemy would give check without being taken.
    for s in range(2):
        ksq = king_square(p, s)
        terms[s].zone = bb_popcount(KING_ATT[ksq] & attacks[s ^ 1])
        safe_checks = 0
        if p.reserve[s ^ 1][KNIGHT]:
            safe_checks |= KNIGHT_ATT[ksq]
        if p.reserve[s ^ 1][ROOK]:
            safe_checks |= rook_att(ksq, occ)
        if p.reserve[s ^ 1][BISHOP]:
            safe_checks |= bishop_att(ksq, occ) & bishop_colours(p, s ^ 1, 0)
        safe_checks &= ~occ & ~attacks[s]
        terms[s].drop_check = bb_popcount(safe_checks)
    return n


cdef int evaluate(const Pos* p) noexcept nogil:
    """Centipawns for the side to move."""
    cdef Terms terms[2]
    cdef int placed[64]
    cdef int mg[2]
    cdef int eg[2]
    cdef int other[2]
    cdef int s, t, i, r, n, row, phase = 0, score
    cdef Feature listed[LINEAR_MAX_FEATURES]
    if LEARNED.rows:
        n = features(p, listed, &phase)
        score = linear_value(&LEARNED, listed, n, phase)
        return score if p.stm == 0 else -score
    n = count_terms(p, terms, placed)
    for s in range(2):
        mg[s] = 0
        eg[s] = 0
        other[s] = EV.exposed * terms[s].exposed + EV.held_square * terms[s].held \
            + EV.zone_attack * terms[s].zone + EV.drop_check * terms[s].drop_check \
            + EV.doubled * terms[s].doubled
        for t in range(5):
            other[s] += p.reserve[s][t] * EV.reserve_value[t] + terms[s].material[t] * EV.value[t]
            if t != PAWN:
                phase += (p.reserve[s][t] + terms[s].material[t]) * EV.value[t]
        for t in range(6):
            other[s] += EV.mobility[t] * terms[s].mobility[t]
        for r in range(8):
            other[s] += EV.passed[r] * terms[s].passed[r]
    for i in range(n):
        row = placed[i]
        s = row // 384
        t = (row // 64) % 6
        mg[s] += EV.pst_mg[t][row & 63]
        eg[s] += EV.pst_eg[t][row & 63]
    if phase > EV.phase_total:
        phase = EV.phase_total
    score = (((mg[0] - mg[1]) * phase + (eg[0] - eg[1]) * (EV.phase_total - phase)) // EV.phase_total
             + other[0] - other[1])
    return (score if p.stm == 0 else -score) + EV.tempo


# -- the learned evaluation's rows ----------------------------------------------------------------
# A piece-square table per type (as the owner sees the board), then the whole-board terms.

cdef enum:
    ROW_MATERIAL = 384        # pieces on the board, pawn to queen
    ROW_RESERVE = 389         # pieces in reserve, pawn to queen
    ROW_MOBILITY = 394        # knight, bishop, rook, queen
    ROW_EXPOSED = 398
    ROW_HELD = 399
    ROW_ZONE = 400
    ROW_DROP_CHECK = 401
    ROW_DOUBLED = 402
    ROW_PASSED = 403          # by relative rank 1 .. 8
    ROW_TEMPO = 411           # the side to move
    ROW_BISHOP_PAIR = 412     # two bishops or more, on the board or in reserve
    LINEAR_ROWS = 413
    # The phase: minor pieces 1, rooks 2, queens 4, on the board and in reserve; 24 at the start.
    PHASE_MAX = 24

cdef int PHASE_UNIT[5]
PHASE_UNIT[:] = [0, 1, 1, 2, 4]
TYPE_NAMES = ("pawn", "knight", "bishop", "rook", "queen", "king")


cdef int features(const Pos* p, Feature* out, int* phase) noexcept nogil:
    """The learned evaluation's features (White's view); returns how many."""
    cdef Terms terms[2]
    cdef int placed[64]
    cdef int n, i, s, t, r, sign, k = 0, ph = 0
    n = count_terms(p, terms, placed)
    for i in range(n):
        out[k].row = placed[i] % 384
        out[k].count = 1 if placed[i] < 384 else -1
        k += 1
    for t in range(5):
        out[k].row = ROW_MATERIAL + t
        out[k].count = terms[0].material[t] - terms[1].material[t]
        out[k + 1].row = ROW_RESERVE + t
        out[k + 1].count = p.reserve[0][t] - p.reserve[1][t]
        k += 2
        ph += (terms[0].material[t] + terms[1].material[t] + p.reserve[0][t] + p.reserve[1][t]) \
            * PHASE_UNIT[t]
    for t in range(KNIGHT, KING):
        out[k].row = ROW_MOBILITY + t - KNIGHT
        out[k].count = terms[0].mobility[t] - terms[1].mobility[t]
        k += 1
    for r in range(8):
        out[k].row = ROW_PASSED + r
        out[k].count = terms[0].passed[r] - terms[1].passed[r]
        k += 1
    out[k].row = ROW_EXPOSED
    out[k].count = terms[0].exposed - terms[1].exposed
    out[k + 1].row = ROW_HELD
    out[k + 1].count = terms[0].held - terms[1].held
    out[k + 2].row = ROW_ZONE
    out[k + 2].count = terms[0].zone - terms[1].zone
    out[k + 3].row = ROW_DROP_CHECK
    out[k + 3].count = terms[0].drop_check - terms[1].drop_check
    out[k + 4].row = ROW_DOUBLED
    out[k + 4].count = terms[0].doubled - terms[1].doubled
    out[k + 5].row = ROW_TEMPO
    out[k + 5].count = 1 if p.stm == 0 else -1
    out[k + 6].row = ROW_BISHOP_PAIR
    out[k + 6].count = (terms[0].bishops >= 2) - (terms[1].bishops >= 2)
    phase[0] = ph
    return k + 7


def linear_layout() -> list:
    """The names of the learned evaluation's rows (for the weights file's layout)."""
    names = [f"pst_{TYPE_NAMES[t]}_{'abcdefgh'[sq & 7]}{1 + (sq >> 3)}"
             for t in range(6) for sq in range(64)]
    names += [f"material_{TYPE_NAMES[t]}" for t in range(5)]
    names += [f"reserve_{TYPE_NAMES[t]}" for t in range(5)]
    names += [f"mobility_{TYPE_NAMES[t]}" for t in range(KNIGHT, KING)]
    names += ["exposed", "held_square", "zone_attack", "drop_check", "doubled"]
    names += [f"passed_{r + 1}" for r in range(8)] + ["side_to_move", "bishop_pair"]
    assert len(names) == LINEAR_ROWS
    return names


def linear_prior():
    """The hand-set evaluation as learned weights (centipawns): where training starts and what
    its penalty pulls towards. Equal to it but for the phase's units."""
    prior = np.zeros((LINEAR_ROWS, 2))
    cdef int t, sq
    for t in range(6):
        for sq in range(64):
            prior[64 * t + sq] = EV.pst_mg[t][sq], EV.pst_eg[t][sq]
    for t in range(5):
        prior[ROW_MATERIAL + t] = EV.value[t]
        prior[ROW_RESERVE + t] = EV.reserve_value[t]
    for t in range(KNIGHT, KING):
        prior[ROW_MOBILITY + t - KNIGHT] = EV.mobility[t]
    prior[ROW_EXPOSED] = EV.exposed
    prior[ROW_HELD] = EV.held_square
    prior[ROW_ZONE] = EV.zone_attack
    prior[ROW_DROP_CHECK] = EV.drop_check
    prior[ROW_DOUBLED] = EV.doubled
    for t in range(8):
        prior[ROW_PASSED + t] = EV.passed[t]
    prior[ROW_TEMPO] = EV.tempo
    return prior
