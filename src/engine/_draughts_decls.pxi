# The draughts family's C functions, declared by both builds (see _draughts_types.pxi).

cdef const Rules* rules_for(int variant_id) noexcept nogil
cdef int generate(const Pos* p, const Rules* R, Move* out) noexcept nogil
cdef int count_moves(const Pos* p, const Rules* R, Move* scratch) noexcept nogil
cdef int has_capture(const Pos* p, const Rules* R) noexcept nogil
cdef void make(Pos* p, const Rules* R, const Move* m, Undo* u) noexcept nogil
cdef void unmake(Pos* p, const Rules* R, const Move* m, const Undo* u) noexcept nogil
cdef u64 compute_key(const Pos* p, const Rules* R) noexcept nogil
cdef int rule_draw(const Pos* p, const Rules* R) noexcept nogil
cdef u64 perft(Pos* p, const Rules* R, int depth, Move* stack) noexcept nogil
cdef int evaluate(const Rules* R, const Pos* p) noexcept nogil
cdef int evaluate_as(const Rules* R, const Pos* p, bint quiet) noexcept nogil
