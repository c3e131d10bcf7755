# The draughts network evaluation (network.py trains it and checks its files): integers only,
# so that every build, and network.py's reference, give the same value.
#
#   inputs   a piece on a square, of 4 kinds (own man, own king, other man, other king) as one
#            side sees the board (Black's board turned 180 degrees): 4 x squares, 0 or 1
#   layer 1  inputs -> net_h, int16 weights in 1/127 units, the same for both views; the side
#            to move's view and the other's, each clamped to 0..127 (1.0)
#   layer 2  2 x net_h -> net_h2, int8 weights in 1/64 units (grouped by four inputs for the
#            kernel); the sums shifted down 6 bits (floor) and clamped to 0..127
#   output   net_h2 -> 1, int16 weights in 1/64 units: a logit in 1/(127 x 64) units, times
#            net_centi centi-men, divided by 127 x 64 (truncating toward zero)
#
# The loops are C kernels (_network.h) over int16 rows that the compiler vectorises, with an
# AVX2 build chosen at load where the processor has it. Each thread brings the first layer's
# sums of the last position it evaluated up to date by the pieces that differ (a few, between
# two positions of a search) rather than adding a row for every piece again.

from libc.stdint cimport uint64_t

cdef extern from "_network.h" nogil:
    ctypedef struct NetCache:
        const void* rules
        uint64_t generation
        uint64_t planes[4][2]
        int16_t acc[2][NET_MAX_H]
    NetCache* net_cache()
    void net_rows(int16_t* acc, const int16_t* w1, int h, const int* add, int nadd,
                  const int* sub, int nsub)
    int32_t net_output(const int16_t* us, const int16_t* them, int h, const int8_t* w2q,
                       const int32_t* b2, int h2, const int16_t* w3, int32_t b3)

cdef enum:
    NET_UNIT = 127                 # a clamped activation of 1.0
    NET_SHIFT = 6                  # weights of layers 2 and 3 are in 1/64 units
    NET_REFRESH = 24               # pieces changed beyond which both views are summed afresh

# A colour's plane as each view sees it: [plane][view] = the kind of input (0 own man, 1 own
# king, 2 other man, 3 other king); planes: White's men, White's kings, Black's men, kings.
cdef int NET_KIND[4][2]
NET_KIND[0][0], NET_KIND[0][1] = 0, 2
NET_KIND[1][0], NET_KIND[1][1] = 1, 3
NET_KIND[2][0], NET_KIND[2][1] = 2, 0
NET_KIND[3][0], NET_KIND[3][1] = 3, 1


cdef inline uint64_t net_word(Bits b, int i) noexcept nogil:
    """Word i (0 low, 1 high) of a set of squares (the high word is 0 on 64-bit boards)."""
    return <uint64_t>(b >> (64 * i)) if i == 0 or sizeof(Bits) > 8 else 0


cdef inline Bits net_bits(const uint64_t* words) noexcept nogil:
    cdef Bits b = <Bits>words[0]
    if sizeof(Bits) > 8:
        b |= (<Bits>words[1]) << 32 << 32
    return b


cdef void net_refresh(const Rules* R, NetCache* c, const Bits* planes) noexcept nogil:
    """Both views' sums from nothing: the bias and a row a piece."""
    cdef int feats[2][NBITS]
    cdef int nf = 0, plane, b, v, j
    cdef Bits bits
    for plane in range(4):
        bits = planes[plane]
        while bits:
            b = bb_lsb(bits)
            bits &= bits - 1
            feats[0][nf] = R.net_feat[plane][0][b]
            feats[1][nf] = R.net_feat[plane][1][b]
            nf += 1
    for v in range(2):
        for j in range(R.net_h):
            c.acc[v][j] = R.net_b1[j]
        net_rows(c.acc[v], R.net_w1, R.net_h, feats[v], nf, NULL, 0)


cdef int network_eval(const Rules* R, const Pos* p) noexcept nogil:
    """The network's value for the side to move, in centi-men: this thread's sums of the last
    position it evaluated, brought up to date by the pieces that differ (or summed afresh)."""
    cdef NetCache* c = net_cache()
    cdef Bits planes[4]
    cdef Bits old, gone, come
    cdef int add[2][2 * NBITS]
    cdef int sub[2][2 * NBITS]
    cdef int nadd = 0, nsub = 0, plane, b
    cdef int32_t out
    cdef long long value
    planes[0] = p.pieces[0] & ~p.kings
    planes[1] = p.pieces[0] & p.kings
    planes[2] = p.pieces[1] & ~p.kings
    planes[3] = p.pieces[1] & p.kings
    if c.rules == <const void*>R and c.generation == R.net_generation:
        for plane in range(4):
            old = net_bits(c.planes[plane])
            gone = old & ~planes[plane]
            come = planes[plane] & ~old
            while gone:
                b = bb_lsb(gone)
                gone &= gone - 1
                sub[0][nsub] = R.net_feat[plane][0][b]
                sub[1][nsub] = R.net_feat[plane][1][b]
                nsub += 1
            while come:
                b = bb_lsb(come)
                come &= come - 1
                add[0][nadd] = R.net_feat[plane][0][b]
                add[1][nadd] = R.net_feat[plane][1][b]
                nadd += 1
        if nadd + nsub <= NET_REFRESH:
            net_rows(c.acc[0], R.net_w1, R.net_h, add[0], nadd, sub[0], nsub)
            net_rows(c.acc[1], R.net_w1, R.net_h, add[1], nadd, sub[1], nsub)
        else:
            net_refresh(R, c, planes)
    else:
        net_refresh(R, c, planes)
        c.rules = <const void*>R
        c.generation = R.net_generation
    for plane in range(4):
        c.planes[plane][0] = net_word(planes[plane], 0)
        c.planes[plane][1] = net_word(planes[plane], 1)
    out = net_output(c.acc[p.stm], c.acc[p.stm ^ 1], R.net_h, R.net_w2, R.net_b2, R.net_h2,
                     R.net_w3, R.net_b3)
    value = <long long>out * R.net_centi
    # Truncating toward zero (cdivision), as network.py's reference does.
    return <int>(value // (NET_UNIT << NET_SHIFT))


_NETWORK_ARRAYS = {}         # variant id -> the arrays the native network points into


def _set_network(int vid, list squares, int16_t[:, ::1] w1, int16_t[::1] b1, int8_t[::1] w2,
                 int32_t[::1] b2, int16_t[::1] w3, int b3, int centi, bint over_patterns=False):
    """Install a network for one variant (network.py checks the file and the sums' range first):
    `squares` is, for each side, each bit's square as that side sees the board (-1 for a bit off
    the board); w1 [4 x squares, h], b1 [h], w2 [ceil(2h / 4) * h2 * 4]: layer 2's int8 weights
    grouped by four inputs (network.grouped), b2 [h2], w3 [h2]. With
    `over_patterns` its value is added to the installed patterns' (it corrects them). Every board
    and search of the variant evaluates with it from now on."""
    cdef Rules* R = &RULES[vid]
    cdef int n = w1.shape[0] // 4, h = w1.shape[1], h2 = b2.shape[0], s, b, plane
    if not (0 < h <= NET_MAX_H and 0 < h2 <= NET_MAX_H2 and w1.shape[0] == 4 * n
            and b1.shape[0] == h and w2.shape[0] == (2 * h + 3) // 4 * 4 * h2
            and w3.shape[0] == h2 and centi > 0):
        raise ValueError("network layers of inconsistent or too large sizes")
    if len(squares) != 2 or any(len(row) != NBITS for row in squares):
        raise ValueError(f"squares: two lists of {NBITS} entries")
    for s in range(2):
        for b in range(NBITS):
            if ((R.valid >> b) & 1) != (0 <= squares[s][b] < n):
                raise ValueError(f"bit {b}: its square {squares[s][b]} does not match the board")
    R.net_h = 0                       # nothing reads a half-installed network
    for plane in range(4):
        for s in range(2):
            for b in range(NBITS):
                R.net_feat[plane][s][b] = (NET_KIND[plane][s] * n
                                           + (squares[s][b] if squares[s][b] >= 0 else 0))
    R.net_squares = n
    R.net_w1 = &w1[0, 0]
    R.net_b1 = &b1[0]
    R.net_w2 = &w2[0]
    R.net_b2 = &b2[0]
    R.net_w3 = &w3[0]
    R.net_b3 = b3
    R.net_centi = centi
    R.net_over_patterns = over_patterns
    R.net_h2 = h2
    R.net_generation += 1             # every thread's sums of the last network are stale
    _NETWORK_ARRAYS[vid] = (w1, b1, w2, b2, w3)
    R.net_h = h


def _clear_network(int vid):
    """No network for one variant: the patterns (if installed) or the hand-set terms play."""
    RULES[vid].net_h = 0
    _NETWORK_ARRAYS.pop(vid, None)
