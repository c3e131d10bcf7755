# Iterative deepening: the one loop every thread runs (as Stockfish's
# Worker::iterative_deepening), included by _search.pyx.

# What the main search tells its reporter (the Engine's, with the GIL) during the loop.
cdef enum Event:
    ITERATION_BEGINS = 1      # a new iteration: its lines so far are none
    LINE_FOUND = 2            # a root line searched to the end: its score, the line in S.pv[0]
    HELPER_TAKEN = 3          # a helper's iteration taken instead: S.taken_score, S.taken_pv
    STOPPED_IN_ITERATION = 4  # stopped after some finished iteration: S.root_scores[0], S.pv[0]
    ITERATION_ENDS = 5        # the iteration's lines are all in (complete: score 1); go on?

# The reporter: for ITERATION_ENDS, 0 to stop the search; ignored otherwise.
ctypedef int (*Reporter)(Search* S, int event, int depth, int score, void* data) noexcept nogil


cdef void deepen(Search* S, int max_depth, int multipv, Reporter report, void* data) noexcept nogil:
    """Search the root to depth 1, 2, ... `max_depth`, each root line in an aspiration window
    around the previous iteration's score (`iteration`), until stopped.

    A helper (S.main_search set) searches one line, keeps up with the main search's depth and
    hands it every iteration it finishes (`hand_over`). The main search searches `multipv`
    lines; where a helper finished the iteration first, it takes that one instead and goes on
    to the next. After each iteration `report` gets the lines, tells the caller, starts the
    helpers after the first one and decides, by the limits and the clock, whether to go on."""
    cdef Search* M = <Search*>S.main_search
    cdef int d = 0, pv_idx, score = 0, prev, lines, taken, completed = 0
    while d < max_depth and not (M != NULL and S.stop):
        d += 1
        if M != NULL:                                   # a helper
            if d < M.depth:
                d = M.depth                              # fallen behind: catch up
            score = iteration(S, d, 0, score, completed)
            if S.stop:
                return
            completed = d
            hand_over(S, d, score)
            continue
        S.depth = d
        report(S, ITERATION_BEGINS, d, 0, data)
        lines = 0
        taken = take_helper_iteration(S, d)            # a helper may have finished it already
        if taken:
            d = taken
            report(S, HELPER_TAKEN, d, S.taken_score, data)
            lines = 1
        else:
            for pv_idx in range(multipv):
                prev = S.root_scores[pv_idx] if completed else 0
                score = iteration(S, d, pv_idx, prev, 1)
                if S.stop:
                    break       # stopped (1) or handed a helper's iteration (2, below)
                report(S, LINE_FOUND, d, score, data)
                lines += 1
        if S.stop == 2:
            # A helper finished this iteration first: its result stands for the main search's
            # (whose partial work is in the table). A helper's result for an earlier iteration,
            # handed over as this one began, is not enough: redo it.
            taken = take_helper_iteration(S, d)
            if not taken:
                d -= 1
                continue
            d = taken
            report(S, ITERATION_BEGINS, d, 0, data)
            report(S, HELPER_TAKEN, d, S.taken_score, data)
            lines = 1
        if S.stop == 1 and completed:
            # An unfinished iteration still counts when the previous best move was searched to
            # the end and another move beat it (the reporter compares the moves).
            if (multipv == 1 and lines == 0 and S.root_done >= 2 and S.pv_len[0] > 0
                    and S.root_scores[0] > -INF):
                report(S, STOPPED_IN_ITERATION, d, S.root_scores[0], data)
            return
        S.check_limits = 1
        if lines == multipv:
            completed = d
        if not report(S, ITERATION_ENDS, d, lines == multipv, data):
            return
