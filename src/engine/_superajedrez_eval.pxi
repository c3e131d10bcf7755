# The Superajedrez evaluation: material on the board and in reserve, piece-square tables blended
# by game phase, mobility, king safety against placements, reserved-square pressure and passed
# pawns. Weights are data in evaluation.py (SUPERAJEDREZ_WEIGHTS).


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


cdef int evaluate(const Pos* p) noexcept nogil:
    """Centipawns for the side to move."""
    cdef int mg[2]
    cdef int eg[2]
    cdef int other[2]
    cdef int s, t, sq, phase = 0, ksq, e, score
    cdef u64 occ = p.occ[0] | p.occ[1], bits, att, zone, safe_checks
    cdef u64 attacks[2]
    cdef u64 prot[2]
    prot[0] = protected_squares(p, 0, 0)
    prot[1] = protected_squares(p, 1, 0)
    for s in range(2):
        mg[s] = 0
        eg[s] = 0
        other[s] = 0
        attacks[s] = 0
        for t in range(5):
            other[s] += p.reserve[s][t] * EV.reserve_value[t]
            if t != PAWN:
                phase += p.reserve[s][t] * EV.value[t]
        for t in range(6):
            bits = p.pieces[s][t]
            while bits:
                sq = bb_lsb(bits)
                bits &= bits - 1
                e = mirror(s, sq)
                mg[s] += EV.pst_mg[t][e]
                eg[s] += EV.pst_eg[t][e]
                if t == KING:
                    att = KING_ATT[sq]
                elif t == PAWN:
                    att = PAWN_ATT[s][sq]
                    other[s] += EV.value[PAWN]
                    if not (PASSED_MASK[s][sq] & p.pieces[s ^ 1][PAWN]):
                        other[s] += EV.passed[e >> 3]
                    if (FILE_A << (sq & 7)) & p.pieces[s][PAWN] & ~((<u64>1) << sq):
                        other[s] += EV.doubled
                else:
                    if t == KNIGHT:
                        att = KNIGHT_ATT[sq]
                    elif t == BISHOP:
                        att = bishop_att(sq, occ)
                    elif t == ROOK:
                        att = rook_att(sq, occ)
                    else:
                        att = bishop_att(sq, occ) | rook_att(sq, occ)
                    other[s] += EV.value[t] + EV.mobility[t] * bb_popcount(att & ~p.occ[s])
                    phase += EV.value[t]
                    # A piece on an enemy protected reserved square can be taken by a placement.
                    if (prot[s ^ 1] >> sq) & 1:
                        other[s] += EV.exposed
                attacks[s] |= att
        other[s] += EV.held_square * bb_popcount(prot[s])
    # King safety: enemy pieces bearing on the squares around the king, and empty squares from
    # which a reserve piece of the enemy would give check without being taken.
    for s in range(2):
        ksq = king_square(p, s)
        zone = KING_ATT[ksq]
        other[s] += EV.zone_attack * bb_popcount(zone & attacks[s ^ 1])
        safe_checks = 0
        if p.reserve[s ^ 1][KNIGHT]:
            safe_checks |= KNIGHT_ATT[ksq]
        if p.reserve[s ^ 1][ROOK]:
            safe_checks |= rook_att(ksq, occ)
        if p.reserve[s ^ 1][BISHOP]:
            safe_checks |= bishop_att(ksq, occ) & bishop_colours(p, s ^ 1, 0)
        safe_checks &= ~occ & ~attacks[s]
        other[s] += EV.drop_check * bb_popcount(safe_checks)
    if phase > EV.phase_total:
        phase = EV.phase_total
    score = (((mg[0] - mg[1]) * phase + (eg[0] - eg[1]) * (EV.phase_total - phase)) // EV.phase_total
             + other[0] - other[1])
    return (score if p.stm == 0 else -score) + EV.tempo
