# Endgame tables of Dipole (see the egdb package and docs/egdb.md).
#
# A slice is (White's checkers, Black's checkers). A side's checkers form k stacks: its index is
# an offset for k, the colex rank of the k squares, and the rank of the heights as a composition
# of the count into k parts (the k - 1 partial sums, a subset of 1..count-1). White's and Black's
# stacks on one square make an index invalid. Values are 16 bits: 0 unknown, 1 invalid, else
# 2 + 2 * plies + (1 for a win of the side to move, 0 for a loss); Dipole has no draw.
#
# Every move but a pass is irreversible and a pass is never answered by a pass (docs/rules-notes.md),
# and inside a slice only basic moves, merges and passes happen (captures and bear-offs change the
# counts). So the moves inside a slice form no cycle, and a slice is solved by a depth-first
# search with every value kept: the retrograde order is the reverse of that search's finishing
# order. Successors in other slices (fewer checkers) come from the slices built before.


cdef enum:
    TMAX = 16                  # checkers per side a table can hold
    MAX_DEPTH = 1000           # in-slice moves in a row the solver follows (far more than occur)
    T_UNKNOWN = 0
    T_INVALID = 1

ctypedef struct TCtx:
    const Rules* R
    int nsq
    int sq[64]                 # dense -> bit
    int dense[64]              # bit -> dense
    u64 side_size[TMAX + 1]
    u64 offset[TMAX + 1][TMAX + 2]   # index of the first position with k stacks
    int max_total
    uint16_t* vals[TMAX + 1][TMAX + 1]

cdef u64 TBINOM[65][TMAX + 2]


cdef void _init_tbinom():
    cdef int n, k
    for n in range(65):
        for k in range(TMAX + 2):
            if k == 0:
                TBINOM[n][k] = 1
            elif n == 0:
                TBINOM[n][k] = 0
            else:
                TBINOM[n][k] = TBINOM[n - 1][k - 1] + TBINOM[n - 1][k]


_init_tbinom()


cdef inline u64 t_side_index(const TCtx* c, const Pos* p, int side) noexcept nogil:
    cdef u64 bits = p.stacks[side], squares = 0, sums = 0
    cdef int k = 0, n = 0, b, partial = 0, j = 1
    cdef u64 rank_sq = 0, rank_h = 0
    while bits:
        b = bb_lsb(bits)
        bits &= bits - 1
        k += 1
        rank_sq += TBINOM[c.dense[b]][k]
        partial += p.height[b]
        if bits:                       # the partial sums before the last stack
            rank_h += TBINOM[partial - 1][j]
            j += 1
    n = partial
    return c.offset[n][k] + rank_sq * TBINOM[n - 1][k - 1] + rank_h


cdef inline int t_side_decode(const TCtx* c, u64 idx, int n, int side, Pos* p,
                              u64 occupied) noexcept nogil:
    """Place side's n checkers from its index; 0 if a stack lands on an occupied square."""
    cdef int k = 1, kk, d, prev, i
    cdef u64 per, r_sq, r_h
    cdef int squares[TMAX + 1]
    cdef int sums[TMAX + 1]
    while k < n and c.offset[n][k + 1] <= idx:
        k += 1
    idx -= c.offset[n][k]
    per = TBINOM[n - 1][k - 1]
    r_sq = idx // per
    r_h = idx % per
    for kk in range(k, 0, -1):
        d = kk - 1
        while TBINOM[d + 1][kk] <= r_sq:
            d += 1
        r_sq -= TBINOM[d][kk]
        squares[kk - 1] = c.sq[d]
    for kk in range(k - 1, 0, -1):
        d = kk - 1
        while TBINOM[d + 1][kk] <= r_h:
            d += 1
        r_h -= TBINOM[d][kk]
        sums[kk - 1] = d + 1          # partial sums are 1..n-1, stored from 0
    sums[k - 1] = n
    prev = 0
    for i in range(k):
        if (occupied >> squares[i]) & 1:
            return 0
        p.stacks[side] |= (<u64>1) << squares[i]
        p.height[squares[i]] = <uint8_t>(sums[i] - prev)
        prev = sums[i]
    return 1


cdef inline u64 t_slice_size(const TCtx* c, int w, int b) noexcept nogil:
    return c.side_size[w] * c.side_size[b] * 2


cdef inline u64 t_index(const TCtx* c, const Pos* p, int w, int b) noexcept nogil:
    return (t_side_index(c, p, 0) * c.side_size[b] + t_side_index(c, p, 1)) * 2 + p.stm


cdef inline int t_decode(const TCtx* c, u64 idx, int w, int b, Pos* p) noexcept nogil:
    memset(p, 0, sizeof(Pos))
    p.stm = idx & 1
    idx >>= 1
    if not t_side_decode(c, idx // c.side_size[b], w, 0, p, 0):
        return 0
    if not t_side_decode(c, idx % c.side_size[b], b, 1, p, p.stacks[0]):
        return 0
    p.key = compute_key(p)
    return 1


cdef inline uint16_t t_lookup(const TCtx* c, const Pos* p) noexcept nogil:
    """The value of a position held by the tables (or T_UNKNOWN). A side without checkers has
    lost, whoever is to move."""
    if p.stacks[p.stm] == 0:
        return 2                            # loss, 0 plies
    if p.stacks[p.stm ^ 1] == 0:
        return 3                            # win, 0 plies
    cdef int w = checkers(p, 0), b = checkers(p, 1)
    if w > TMAX or b > TMAX or c.vals[w][b] == NULL:
        return T_UNKNOWN
    return c.vals[w][b][t_index(c, p, w, b)]


cdef uint16_t t_solve(const TCtx* c, int w, int b, uint16_t* val, Pos* p, Move* stack,
                      int depth, int* err) noexcept nogil:
    """The value of p (in slice w, b), computing in-slice successors first."""
    cdef u64 idx = t_index(c, p, w, b)
    if val[idx] != T_UNKNOWN:
        return val[idx]
    cdef int n = generate(c.R, p, stack, 0), i, sw, sb, child_plies, child_win
    cdef int best_win = -1, worst_loss = -1
    cdef uint16_t v
    cdef Undo u
    if depth > MAX_DEPTH:
        err[0] = -2
        return T_INVALID
    for i in range(n):
        make(c.R, p, &stack[i], &u)
        if p.stacks[0] and p.stacks[1] and checkers(p, 0) == w and checkers(p, 1) == b:
            v = t_solve(c, w, b, val, p, stack + n, depth + 1, err)
        else:
            v = t_lookup(c, p)
        unmake(c.R, p, &stack[i], &u)
        if err[0]:
            return T_INVALID
        if v < 2:
            err[0] = -3
            return T_INVALID
        child_plies = (v - 2) >> 1
        child_win = (v - 2) & 1
        if not child_win:
            if best_win < 0 or child_plies + 1 < best_win:
                best_win = child_plies + 1
        elif child_plies + 1 > worst_loss:
            worst_loss = child_plies + 1
    if best_win >= 0:
        v = <uint16_t>(2 + 2 * best_win + 1)
    else:
        v = <uint16_t>(2 + 2 * worst_loss)
    val[idx] = v
    return v


cdef int t_build(const TCtx* c, int w, int b, uint16_t* val, u64* counts) noexcept nogil:
    cdef u64 size = t_slice_size(c, w, b), idx
    cdef Move* stack = <Move*>malloc((MAX_DEPTH + 2) * SEARCH_MAX_MOVES * sizeof(Move))
    cdef Pos p
    cdef int err = 0, plies
    cdef uint16_t v
    if stack == NULL:
        return -1
    memset(val, 0, size * sizeof(uint16_t))
    memset(counts, 0, 5 * sizeof(u64))
    for idx in range(size):
        if val[idx] != T_UNKNOWN:
            continue
        if not t_decode(c, idx, w, b, &p):
            val[idx] = T_INVALID
            continue
        t_solve(c, w, b, val, &p, stack, 0, &err)
        if err:
            break
    free(stack)
    if err:
        return err
    for idx in range(size):
        v = val[idx]
        if v == T_INVALID:
            counts[3] += 1
            continue
        plies = (v - 2) >> 1
        if (v - 2) & 1:
            counts[0] += 1
        else:
            counts[2] += 1
        if <u64>plies > counts[4]:
            counts[4] = plies
    return 0


cdef int t_verify_range(const TCtx* c, int w, int b, const uint16_t* val, u64 start, u64 stop,
                        u64* wrong, int max_wrong, u64* counts) noexcept nogil:
    """Check entries start..stop-1 of a slice against the rule t_solve applies (the shortest win
    through a lost successor, else the longest loss), from the stored successors' values.
    counts = (checked, wrong, underived: a successor holds no value, so the entry's cannot be
    worked out). Returns 0 or -1 out of memory."""
    cdef Move* moves = <Move*>malloc(SEARCH_MAX_MOVES * sizeof(Move))
    cdef Pos p
    cdef Undo u
    cdef u64 idx
    cdef int n, i, best_win, worst_loss, err = 0, child_plies
    cdef uint16_t v, want
    if moves == NULL:
        return -1
    counts[0] = counts[1] = counts[2] = 0
    for idx in range(start, stop):
        if not t_decode(c, idx, w, b, &p):
            want = T_INVALID
        else:
            n = generate(c.R, &p, moves, 0)
            best_win = -1
            worst_loss = -1
            for i in range(n):
                make(c.R, &p, &moves[i], &u)
                v = t_lookup(c, &p)
                unmake(c.R, &p, &moves[i], &u)
                if v < 2:
                    err = 1
                    break
                child_plies = (v - 2) >> 1
                if not ((v - 2) & 1):
                    if best_win < 0 or child_plies + 1 < best_win:
                        best_win = child_plies + 1
                elif child_plies + 1 > worst_loss:
                    worst_loss = child_plies + 1
            if err:
                err = 0
                counts[0] += 1
                counts[2] += 1
                continue
            want = <uint16_t>(2 + 2 * best_win + 1) if best_win >= 0 else <uint16_t>(2 + 2 * worst_loss)
        counts[0] += 1
        if val[idx] != want:
            if counts[1] < <u64>max_wrong:
                wrong[counts[1]] = idx
            counts[1] += 1
    free(moves)
    return err


cdef int t_probe(const void* ctx, const void* pos, int* plies) noexcept nogil:
    cdef const TCtx* c = <const TCtx*>ctx
    cdef const Pos* p = <const Pos*>pos
    if checkers(p, 0) + checkers(p, 1) > c.max_total:
        return RULE_NONE
    cdef uint16_t v = t_lookup(c, p)
    if v < 2:
        return RULE_NONE
    plies[0] = (v - 2) >> 1
    return RULE_WIN if (v - 2) & 1 else RULE_LOSS


_STACK_TABLE_ERRORS = {-1: "out of memory", -2: "a line longer than the builder follows",
                       -3: "a successor slice is missing (build the smaller slices first)"}


cdef class StackTableSet(ProbeSource):
    """The Dipole slices known to the native code (see engine.egdb)."""

    cdef TCtx* c
    cdef dict _arrays

    def __cinit__(self, *args, **kwargs):
        self.c = <TCtx*>calloc(1, sizeof(TCtx))
        if self.c == NULL:
            raise MemoryError()
        self._arrays = {}

    def __dealloc__(self):
        free(self.c)

    def __init__(self, variant: str):
        if variant not in _ID_BY_NAME:
            raise UnknownVariantError(f"unknown variant {variant!r}")
        cdef TCtx* c = self.c
        cdef const Rules* R = &RULES[_ID_BY_NAME[variant]]
        cdef int n = 0, b, k, total
        c.R = R
        spec = _SPEC_BY_ID[_ID_BY_NAME[variant]]
        for b in range(64):
            c.dense[b] = -1
        for b in sorted(spec.geometry.coords):
            c.dense[b] = n
            c.sq[n] = b
            n += 1
        c.nsq = n
        for total in range(1, TMAX + 1):
            c.offset[total][1] = 0
            for k in range(1, total + 1):
                c.offset[total][k + 1] = c.offset[total][k] + TBINOM[n][k] * TBINOM[total - 1][k - 1]
            c.side_size[total] = c.offset[total][total + 1]
        self.variant = variant
        self.probe_fn = t_probe
        self.probe_ctx = self.c

    # -- the slices, as engine.egdb sees them: signatures, their names, their order ----------

    compressible = False           # Dipole's 16-bit values are stored raw

    @staticmethod
    def slice_name(tuple signature) -> str:
        """``(3, 2)`` → ``'3w-2b'``: the checkers of each side."""
        return f"{signature[0]}w-{signature[1]}b"

    @staticmethod
    def parse_name(str name) -> tuple:
        """The signature a slice name stands for; ValueError when it names none."""
        white, black = name.split("-")
        if not (white.endswith("w") and black.endswith("b")):
            raise ValueError(f"{name!r} is not a slice name")
        return int(white[:len(white) - 1]), int(black[:len(black) - 1])

    @staticmethod
    def build_group(tuple signature) -> tuple:
        """Slices of one group lead only to slices with fewer checkers: built side by side."""
        return (sum(signature), 0)

    def signatures(self, int pieces, bint kings_only=False) -> list:
        """Every slice (White's checkers, Black's) with 2..pieces checkers, at least one a side
        (Dipole has no kings: ``kings_only`` changes nothing)."""
        per_side = min(self.per_side(), StackTableSet.limit())
        return [(w, total - w) for total in range(2, pieces + 1) for w in range(1, total)
                if w <= per_side and total - w <= per_side]

    @staticmethod
    def reachable(bytes position, tuple signature) -> bool:
        """Whether a game from this position can reach the slice: no more checkers of a side."""
        if len(position) != sizeof(Pos):
            raise ValueError(f"a position of this family is {sizeof(Pos)} bytes, "
                             f"not {len(position)}")
        cdef const Pos* p = <const Pos*><const char*>position
        return signature[0] <= checkers(p, 0) and signature[1] <= checkers(p, 1)

    def position_text(self, tuple signature, u64 index) -> str:
        """A slice entry as a FEN the engine reads (for naming wrong positions)."""
        found = self.position(signature, index)
        if found is None:
            return f"entry {index} (an invalid index)"
        stm, white, black = found
        coords = _SPEC_BY_ID[_ID_BY_NAME[self.variant]].geometry.coords

        def stacks(d):
            return ",".join(f"{algebraic(*coords[b])}.{h}" for b, h in sorted(d.items()))
        return f"{'WB'[stm]}:W{stacks(white)}:B{stacks(black)}"

    @staticmethod
    def limit() -> int:
        return TMAX

    def per_side(self) -> int:
        return self.c.R.total

    def size(self, tuple signature) -> int:
        w, b = signature
        return t_slice_size(self.c, w, b)

    def attach(self, tuple signature, values):
        w, b = signature
        if not (1 <= w <= TMAX and 1 <= b <= TMAX):
            raise ValueError(f"slice {signature}: 1 to {TMAX} checkers a side")
        if values.dtype != np.uint16 or values.ndim != 1 or values.shape[0] != self.size(signature):
            raise ValueError(f"slice {signature}: expected {self.size(signature)} 16-bit values")
        cdef const uint16_t[::1] view = values
        self._arrays[signature] = values
        self.c.vals[w][b] = <uint16_t*>&view[0]
        if w + b > self.c.max_total:
            self.c.max_total = w + b

    file_bytes = 2                 # disk a raw file needs an entry
    build_bytes = 2                # memory a build needs an entry: its value, nothing more
    wide_build_bytes = 2           # Dipole's values are always two bytes: no widening

    def build(self, tuple signature, int threads=1):
        """Compute one slice (smaller slices attached); (values, (wins, 0, losses, invalid,
        longest plies)). A Dipole slice is small and built on one thread, whatever `threads`."""
        w, b = signature
        if not (1 <= w <= TMAX and 1 <= b <= TMAX):
            raise ValueError(f"slice {signature}: 1 to {TMAX} checkers a side")
        values = np.empty(self.size(signature), dtype=np.uint16)
        cdef uint16_t[::1] view = values
        cdef u64 counts[5]
        cdef int err, ww = w, bb = b
        with nogil:
            err = t_build(self.c, ww, bb, &view[0], counts)
        if err:
            raise RuntimeError(f"slice {signature}: {_STACK_TABLE_ERRORS[err]}")
        self.attach(signature, values)
        return values, tuple(counts[i] for i in range(5))

    def probe_position(self, bytes native):
        cdef Pos p
        if len(native) != sizeof(Pos):
            raise ValueError("not a Dipole position")
        memcpy(&p, <const char*>native, sizeof(Pos))
        cdef int plies = 0
        cdef int r = t_probe(self.c, &p, &plies)
        return r, plies

    def verify(self, tuple signature, start=0, stop=None, int max_wrong=10):
        """Re-derive entries start..stop of an attached slice from their successors;
        (checked, wrong count, first wrong indices, underived count: entries a successor of
        which holds no value)."""
        w, b = signature
        if signature not in self._arrays:
            raise ValueError(f"slice {signature} is not attached")
        size = self.size(signature)
        stop = size if stop is None else min(stop, size)
        cdef const uint16_t[::1] view = self._arrays[signature]
        cdef u64 wrong[64]
        cdef u64 counts[3]
        cdef int err, ww = w, bb = b, mw = min(max(max_wrong, 0), 64)
        cdef u64 lo = start, hi = stop
        with nogil:
            err = t_verify_range(self.c, ww, bb, &view[0], lo, hi, wrong, mw, counts)
        if err:
            raise MemoryError(f"slice {signature}: {_STACK_TABLE_ERRORS[err]}")
        return counts[0], counts[1], [wrong[i] for i in range(min(counts[1], mw))], counts[2]

    def position(self, tuple signature, u64 index):
        """(side to move, {bit: height} of White, of Black) of a slice's entry, or None."""
        w, b = signature
        cdef Pos p
        cdef int bit
        if index >= self.size(signature) or not t_decode(self.c, index, w, b, &p):
            return None
        sides = []
        for side in range(2):
            sides.append({bit: p.height[bit] for bit in range(64) if (p.stacks[side] >> bit) & 1})
        return p.stm, sides[0], sides[1]

    @property
    def max_pieces(self) -> int:
        return self.c.max_total
