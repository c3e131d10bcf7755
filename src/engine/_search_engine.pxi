# The Python face: the Engine class and what its results need. Included by _search.pyx.

TABLE_WIN_BOUND = TABLE_BOUND    # a score above this (and below a mate) is a win the tables
                                 # proved without giving its distance


def _move_orders(GameBoard board, int tt_move, killer_moves, history):
    """For tests: the search's ordering numbers of the board's moves, as its game's
    order_moves gives them and as order_moves (here) asks them move by move: (fast, generic);
    fast is None where the game has none. killer_moves: two indexes into the move list (-1: no
    killer yet); history: 4096 ints."""
    cdef const GameOps* ops = board.search_ops()
    cdef SMove moves[SEARCH_MAX_MOVES]
    cdef SMove killers[2]
    cdef int hist[4096]
    cdef int order[SEARCH_MAX_MOVES]
    cdef int n = ops.generate(ops.ctx, board.search_position(), moves), i, k
    if len(history) != 4096:
        raise ValueError("history must hold 4096 numbers")
    for i in range(4096):
        hist[i] = history[i]
    memset(killers, 0, sizeof(killers))
    for k in range(2):
        if 0 <= killer_moves[k] < n:
            killers[k] = moves[killer_moves[k]]
    order_moves(ops, moves, n, tt_move, killers, hist, order)
    generic = [order[i] for i in range(n)]
    if ops.order_moves == NULL:
        return None, generic
    ops.order_moves(moves, n, tt_move, killers, hist, order)
    return [order[i] for i in range(n)], generic


def _table_move(tables, board, result):
    """The search's result, its move replaced by the one the tables' distances call best when
    they hold the root as won or lost: the fastest win, or the slowest loss. Probing
    compressed tables, the search sees only "won" inside them, and can shuffle in a won
    position until a move-count rule draws the game (docs/egdb.md); raw tables give the same
    move as the search."""
    if not hasattr(tables, "best_move") or board.variant != tables.variant:
        return result
    root = tables.probe(board)
    if root is None or root.result == "draw":
        return result
    found = tables.best_move(board, root)
    if found is None or found[0] == result.best_move:
        return result
    best = found[0]
    line = PVLine(result.score, result.mate, [best])
    return _dataclass_replace(result, best_move=best, pv=[best], lines=[line])


def _mate_distance(int score):
    """Moves (not plies) to the end for a won (> 0) or lost (< 0) score, else None."""
    if score >= MATE_BOUND:
        return (MATE - score + 1) // 2
    if score <= -MATE_BOUND:
        return -((MATE + score) // 2)
    return None


class Switch:
    """A search feature that can be turned off or on: where the search reads it (`index`, an
    SW_* of _search.pyx), its default, its names in UCI and Hub, and why it is set so."""

    __slots__ = ("index", "default", "uci", "hub", "meaning")

    def __init__(self, index, default, uci, hub, meaning):
        self.index, self.default, self.uci, self.hub, self.meaning = index, default, uci, hub, meaning


SWITCHES = {
    "reductions": Switch(
        SW_REDUCTIONS, True, "Reductions", "reductions",
        "Late quiet moves searched with reduced depth first; about +100 Elo against dame-rs."),
    "null_move": Switch(
        SW_NULL_MOVE, True, "NullMove", "null-move",
        "Null-move pruning in the games that allow it (Superajedrez; never in draughts, where "
        "zugzwang is everywhere): +89 Elo in Superajedrez self-play."),
    "probcut": Switch(
        SW_PROBCUT, True, "ProbCut", "probcut",
        "ProbCut (a shallow search that holds beta by a margin cuts the node) in the games that "
        "ask for it (draughts), as Scan does: with early reductions +5.6 % a game against Scan "
        "2.0; off in the rows whose `selective_search` is false (Turkish, breakthrough)."),
    "early_reductions": Switch(
        SW_EARLY_REDUCTIONS, True, "EarlyReductions", "early-reductions",
        "Every quiet move after the first reduced at a non-PV node, not only from the fourth, in "
        "the games that ask for it (draughts), as Scan does; with ProbCut (see there)."),
    "qs_promotions": Switch(
        SW_QS_PROMOTIONS, False, "QsPromotions", "qs-promotions",
        "Quiescence also searches the moves that crown a man (draughts), as Scan does: +24 Elo "
        "in self-play at 100,000 nodes, none against Scan 2.0 at 0.1 s, so off."),
    "qs_exchanges": Switch(
        SW_QS_EXCHANGES, False, "QsExchanges", "qs-exchanges",
        "Quiescence with no king on the board also searches the men's moves that offer a "
        "one-for-one exchange (draughts), as Scan does: +33 Elo in self-play, +0.0 % a game "
        "against Scan 2.0, so off."),
}


cdef class Engine:
    """The search, with its transposition table: ``Engine(hash_mb=64)``.

    ``search(board, ...)`` returns a SearchResult; ``stop()`` (from another thread) ends a running
    search at once with the best move found so far; ``new_game()`` clears what was learnt.
    ``eval_file``: a learned evaluation's weights file (weights.py) to load first; weights
    belong to a variant, not to one Engine, so every search of that variant uses them."""

    cdef Search* S
    cdef void* helper_searches[MAX_THREADS]   # Search* of the helper threads (threads - 1)
    cdef u64* busy                            # the threads' shared table of busy positions
    cdef int nthreads
    cdef readonly int hash_mb
    cdef readonly int handovers               # iterations the last search took from a helper
    cdef object _lock
    cdef public bint searching
    cdef ProbeSource _tables
    cdef object _tables_owner

    def __cinit__(self, *args, **kwargs):
        self.S = new_search()
        if self.S == NULL:
            raise MemoryError()
        self.nthreads = 1

    def __init__(self, hash_mb=64, eval_file=None, threads=1, **switches):
        """`switches`: any of SWITCHES by name (``Engine(probcut=False)``), else its default."""
        unknown = set(switches) - set(SWITCHES)
        if unknown:
            raise TypeError(f"Engine() has no switch {', '.join(sorted(unknown))} (its switches: "
                            f"{', '.join(SWITCHES)})")
        self._lock = _threading.Lock()
        if eval_file is not None:
            from . import weights
            weights.load(eval_file)
        self.resize(hash_mb)
        for name, switch in SWITCHES.items():
            self.S.switches[switch.index] = 1 if switches.get(name, switch.default) else 0
        self.threads = threads

    @property
    def threads(self) -> int:
        """Search threads (1 to 64): the main search and threads - 1 helpers sharing its
        transposition table (lazy SMP, see the module's docstring). 1 by default."""
        return self.nthreads

    @threads.setter
    def threads(self, value):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_THREADS:
            raise ValueError(f"threads must be 1 to {MAX_THREADS}, not {value!r}")
        self._not_searching("change the number of threads")
        cdef int i
        cdef Search* H
        for i in range(self.nthreads - 1, value - 1, -1):        # fewer: free the extra ones
            free_search(<Search*>self.helper_searches[i - 1])
            self.helper_searches[i - 1] = NULL
        if value > 1 and self.busy == NULL:
            self.busy = <u64*>malloc(BUSY_SIZE * sizeof(u64))
            if self.busy == NULL:
                raise MemoryError("cannot allocate the threads' shared table")
        for i in range(self.nthreads, value):                   # more: allocate
            H = new_search()
            if H == NULL:
                self.nthreads = i
                raise MemoryError("cannot allocate another search thread")
            self.helper_searches[i - 1] = H
        self.nthreads = value

    # -- the switches (SWITCHES): attributes and keywords of their own names -----------------

    def __getattr__(self, name):
        switch = SWITCHES.get(name)
        if switch is None:
            raise AttributeError(f"'Engine' object has no attribute {name!r}")
        return bool(self.S.switches[switch.index])

    def __setattr__(self, name, value):
        switch = SWITCHES.get(name)
        if switch is None:
            PyObject_GenericSetAttr(self, name, value)      # properties and public attributes
        else:
            self.S.switches[switch.index] = 1 if value else 0

    def __dir__(self):
        return list(object.__dir__(self)) + list(SWITCHES)

    @property
    def tablebases(self):
        """Endgame tables (engine.egdb.Tables) the search probes for exact results in their
        variant's positions, or None."""
        return self._tables_owner

    @tablebases.setter
    def tablebases(self, tables):
        self._not_searching("change the endgame tables")
        if tables is None:
            self._tables = None
            self._tables_owner = None
            return
        native = getattr(tables, "native", tables)
        if not isinstance(native, ProbeSource):
            raise TypeError("tablebases must be engine.egdb.Tables or None")
        self._tables = native
        self._tables_owner = tables

    def __dealloc__(self):
        cdef int i
        for i in range(self.nthreads - 1):
            free_search(<Search*>self.helper_searches[i])
        free(self.busy)
        if self.S != NULL:
            free(self.S.tt)
            free_search(self.S)

    def resize(self, hash_mb):
        """Set the transposition table size in MB (rounded down to a power of two of buckets);
        this clears it."""
        if not isinstance(hash_mb, int) or hash_mb < 1 or hash_mb > 65536:
            raise ValueError(f"hash size must be 1 to 65536 MB, not {hash_mb!r}")
        self._not_searching("resize the hash table")
        cdef u64 buckets = 1
        cdef u64 bytes_wanted = <u64>hash_mb * 1024 * 1024
        while buckets * 2 * BUCKET * sizeof(TTEntry) <= bytes_wanted:
            buckets *= 2
        cdef TTEntry* tt = <TTEntry*>tt_alloc(buckets * BUCKET * sizeof(TTEntry))
        if tt == NULL:
            raise MemoryError(f"cannot allocate a {hash_mb} MB hash table")
        free(self.S.tt)
        self.S.tt = tt
        self.S.tt_mask = buckets - 1
        self.hash_mb = hash_mb
        self.new_game()

    def new_game(self):
        """Forget the transposition table, killers and history (a new game starts)."""
        self._not_searching("start a new game")
        cdef int i
        memset(self.S.tt, 0, (self.S.tt_mask + 1) * BUCKET * sizeof(TTEntry))
        memset(self.S.history, 0, sizeof(self.S.history))
        memset(self.S.killers, 0, sizeof(self.S.killers))
        for i in range(self.nthreads - 1):
            memset((<Search*>self.helper_searches[i]).history, 0, sizeof(self.S.history))
        self.S.generation = 0

    def _not_searching(self, what):
        if self.searching:
            raise RuntimeError(f"cannot {what} while this engine is searching: stop() it first")

    def stop(self):
        """End the running search as soon as possible (safe from any thread)."""
        self.S.stop = 1

    def _helper(self, int index, int max_depth):
        """A helper thread's body: its search runs without the GIL until the main one stops it."""
        cdef Search* H = <Search*>self.helper_searches[index]
        with nogil:
            deepen(H, max_depth, 1, NULL, NULL)

    def hashfull(self) -> int:
        """Per mille of the first thousand entries used by the current search."""
        cdef int used = 0, i
        cdef u64 total = (self.S.tt_mask + 1) * BUCKET
        cdef int sample = 1000 if total > 1000 else <int>total
        for i in range(sample):
            if self.S.tt[i].bound and self.S.tt[i].generation == self.S.generation:
                used += 1
        return used * 1000 // sample

    def search(self, board, depth=None, nodes=None, movetime=None, wtime=None, btime=None,
               winc=0, binc=0, movestogo=None, infinite=False, multipv=1, info=None,
               asked_at=None):
        """Search ``board`` (left unchanged) and return a SearchResult.

        Limits: ``depth`` (plies), ``nodes``, ``movetime`` (seconds), or a clock: ``wtime`` /
        ``btime`` (seconds left), ``winc`` / ``binc`` (increment), ``movestogo``. With none of
        them, or ``infinite=True``, it runs until ``stop()`` (or to the maximum depth).
        ``multipv`` > 1 searches the best N moves. ``info(SearchInfo)`` is called after every
        finished iteration. ``asked_at``: the ``time.monotonic()`` reading when the move was
        asked for; time limits count from then (default: from the call)."""
        if not isinstance(board, GameBoard):
            raise TypeError("search() needs an engine Board")
        if multipv < 1:
            raise ValueError("multipv must be 1 or more")
        for name, value in (("depth", depth), ("nodes", nodes), ("movetime", movetime),
                            ("wtime", wtime), ("btime", btime), ("movestogo", movestogo)):
            if value is not None and value < 0:
                raise ValueError(f"{name} must not be negative")
        if depth is not None and not 1 <= depth <= MAX_PLY - 2:
            raise ValueError(f"depth must be 1 to {MAX_PLY - 2}, not {depth}")
        if nodes is not None and nodes < 1:
            raise ValueError("nodes must be 1 or more")
        if not self._lock.acquire(blocking=False):
            raise RuntimeError("this engine is already searching (use one Engine per thread)")
        try:
            result = self._search(board, depth, nodes, movetime, wtime, btime, winc, binc,
                                  movestogo, infinite, multipv, info, asked_at)
        finally:
            self._lock.release()
        if self._tables_owner is not None and multipv == 1 and result.best_move is not None:
            result = _table_move(self._tables_owner, board, result)
        return result

    def _search(self, board, depth, nodes, movetime, wtime, btime, winc, binc, movestogo,
                infinite, multipv, info, asked_at):
        cdef GameBoard gb = board
        cdef Search* S = self.S
        cdef const GameOps* ops = gb.search_ops()
        S.ops = ops
        S.ctx = ops.ctx
        memcpy(S.pos, gb.search_position(), ops.pos_size)
        cdef int nhist = gb.search_history(S.keys, MAX_HISTORY)
        S.root_index = nhist - 1
        S.nodes = 0
        # Emptied for each search: the game, its weights or its rules may have changed since.
        memset(S.eval_cache, 0, EVAL_CACHE_SIZE * sizeof(u64))
        S.seldepth = 0
        S.stop = 0
        S.in_probcut = 0
        S.check_limits = 0
        S.node_limit = nodes if nodes else 0
        S.generation = (S.generation + 1) & 0xFF
        memset(S.killers, 0, sizeof(S.killers))
        memset(S.nulled, 0, sizeof(S.nulled))
        S.tb_hits = 0
        S.probe = NULL
        if self._tables is not None and self._tables.variant == board.variant:
            S.probe = self._tables.probe_fn
            S.probe_ctx = self._tables.probe_ctx
        S.nroot = ops.generate(ops.ctx, S.pos, S.root_moves)
        # The budget counts from when the move was asked for (timeman.py): a protocol passes
        # the arrival of its `go` line, so time lost before this point is not lost on the clock.
        start_mono = asked_at if asked_at is not None and asked_at <= now() else now()
        clock = wtime if int(board.turn) == 0 else btime
        inc = (winc if int(board.turn) == 0 else binc) or 0
        soft, hard = _time_budget(None if infinite else clock, inc, movestogo, movetime)
        S.deadline = start_mono + hard if hard is not None else 0
        start = _time.perf_counter() - (now() - start_mono)
        max_depth = depth if depth else MAX_PLY - 2
        if infinite:
            max_depth = MAX_PLY - 2
        multipv = min(multipv, S.nroot) if S.nroot else 1

        if S.nroot == 0:
            if ops.end_score != NULL:
                final = ops.end_score(ops.ctx, S.pos, 0)
                final = 0 if final == END_NONE else final
            else:
                final = -MATE if ops.in_check == NULL or ops.in_check(ops.ctx, S.pos) else 0
            return SearchResult(None, final, _mate_distance(final), 0, 0, 0, 0.0, [], [])

        helpers = []
        S.helpers = self.helper_searches
        S.nhelpers = self.nthreads - 1
        S.busy = NULL
        if S.nhelpers:
            S.busy = self.busy
            memset(S.busy, 0, BUSY_SIZE * sizeof(u64))
        cdef int i
        for i in range(S.nhelpers):
            prepare_helper(S, <Search*>self.helper_searches[i])
            helpers.append(_threading.Thread(target=self._helper, args=(i, max_depth), daemon=True))
        S.takeover = 1 if S.nhelpers and multipv == 1 else 0
        self.handovers = 0
        S.shared_lock = 0
        S.shared_depth = 0
        cdef _MainLoop loop = _MainLoop(self, board, info, helpers, soft, infinite, depth, start)
        cdef void* reporter_data = <void*>loop
        cdef int deepest = max_depth, lines_wanted = multipv
        self.searching = True
        try:
            with nogil:
                deepen(S, deepest, lines_wanted, report_to_main_loop, reporter_data)
            if loop.error is not None:
                raise loop.error
        finally:
            for i in range(S.nhelpers):
                (<Search*>self.helper_searches[i]).stop = 1
            if loop.started:
                for thread in helpers:
                    thread.join()
            self.searching = False
        lines, completed = loop.lines, loop.completed
        nodes = total_nodes(S)
        thread_nodes = [S.nodes]
        for i in range(S.nhelpers):
            thread_nodes.append((<Search*>S.helpers[i]).nodes)
        S.nhelpers = 0
        elapsed = _time.perf_counter() - start
        if not lines:
            # Stopped before the first iteration finished: the first legal move, unscored.
            lines = [self._line(board, 0, [(<char*>&S.root_moves[0])[:sizeof(SMove)]])]
        best = lines[0]
        return SearchResult(best.move, best.score, best.mate, completed, S.seldepth, nodes,
                            elapsed, best.pv, lines, self.hashfull(), S.tb_hits, tuple(thread_nodes))

    cdef void _sort_lines(self, list lines):
        """MultiPV lines best first (searches of later lines can find higher scores), with the
        root moves reordered to match."""
        cdef int i, j, n = len(lines)
        cdef SMove tmp[SEARCH_MAX_MOVES]
        order = sorted(range(n), key=lambda k: -lines[k][0])
        for i in range(n):
            tmp[i] = self.S.root_moves[order[i]]
        for i in range(n):
            self.S.root_moves[i] = tmp[i]
            self.S.root_scores[i] = lines[order[i]][0]
        lines[:] = [lines[k] for k in order]

    cdef object _line(self, board, int score, list pv):
        """A PVLine with the moves as the board's Move objects, played out on a copy."""
        cdef SMove m
        cdef GameBoard copy = board.copy()
        moves = []
        for raw in pv:
            memcpy(&m, <const char*>raw, sizeof(SMove))
            mv = copy.wrap_search_move(&m)
            if mv is None:
                break
            moves.append(mv)
            copy.push(mv)
        return PVLine(score, _mate_distance(score), moves)


cdef class _MainLoop:
    """What the main search's iterative deepening (`deepen`) reports, kept between its events:
    the iteration's lines, the last complete iteration's, the info callback, the limits."""
    cdef Engine engine
    cdef object board, info, helpers, soft, depth_limit, error
    cdef int infinite
    cdef double start
    cdef public list lines            # the last complete iteration's PVLines
    cdef public int completed         # its depth
    cdef public bint started          # the helpers were started (after the first iteration)
    cdef list iteration_lines         # this iteration's (score, raw pv)
    cdef object best_raw              # the last complete iteration's best move, raw

    def __init__(self, Engine engine, board, info, list helpers, soft, infinite, depth_limit,
                 double start):
        self.engine, self.board, self.info = engine, board, info
        self.helpers, self.soft, self.infinite = helpers, soft, bool(infinite)
        self.depth_limit, self.start = depth_limit, start
        self.lines, self.completed, self.started = [], 0, False
        self.iteration_lines, self.best_raw, self.error = [], None, None

    cdef int event(self, int kind, int depth, int score) except -1:
        cdef Search* S = self.engine.S
        cdef Engine engine = self.engine
        if kind == ITERATION_BEGINS:
            self.iteration_lines = []
        elif kind == LINE_FOUND:
            self.iteration_lines.append((score, _raw_pv(S.pv[0], S.pv_len[0])))
        elif kind == HELPER_TAKEN:
            engine.handovers += 1
            self.iteration_lines = [(score, _raw_pv(S.taken_pv, S.taken_pv_len))]
        elif kind == STOPPED_IN_ITERATION:
            pv = _raw_pv(S.pv[0], S.pv_len[0])
            if pv[0] != self.best_raw:
                self.lines = [engine._line(self.board, score, pv)]
        elif kind == ITERATION_ENDS:
            if len(self.iteration_lines) > 1:
                engine._sort_lines(self.iteration_lines)
            if not self.started:
                # The helpers join once the first iteration, which always completes, is done.
                for thread in self.helpers:
                    thread.start()
                self.started = True
            if score:                   # complete: every line searched
                self.completed = depth
                self.lines = [engine._line(self.board, s, pv) for s, pv in self.iteration_lines]
                self.best_raw = self.iteration_lines[0][1][0] if self.iteration_lines[0][1] else None
                if self.info is not None:
                    self.info(SearchInfo(depth, S.seldepth, total_nodes(S),
                                         _time.perf_counter() - self.start, engine.hashfull(),
                                         self.lines, S.tb_hits))
            return self.goes_on(depth)
        return 1

    cdef int goes_on(self, int depth):
        """After an iteration: whether the limits and the clock leave time for the next."""
        cdef Search* S = self.engine.S
        if S.stop == 1:
            return 0
        elapsed = _time.perf_counter() - self.start
        if self.soft is not None and elapsed >= self.soft * SOFT_SHARE and not self.infinite:
            return 0
        if S.nroot == 1 and self.soft is not None and not self.infinite:
            return 0           # a forced move needs no more thought against the clock
        if S.node_limit and total_nodes(S) >= S.node_limit:
            return 0
        if (abs(self.lines[0].score) >= MATE_BOUND and not self.infinite and self.depth_limit is None
                and depth > 2 * abs(self.lines[0].mate) + 4):
            return 0           # the win or loss is proven; deeper search changes nothing
        return 1


cdef int report_to_main_loop(Search* S, int kind, int depth, int score, void* data) noexcept nogil:
    """`deepen`'s reporter for the main search: the event to its _MainLoop, with the GIL. An
    exception there (the info callback's) stops the search and is raised by Engine.search."""
    with gil:
        loop = <_MainLoop>data
        try:
            return loop.event(kind, depth, score)
        except BaseException as exc:
            loop.error = exc
            S.stop = 1
            return 0


cdef list _raw_pv(const SMove* pv, int n):
    """A line of search moves as bytes, one per move (what PVLines are made from)."""
    cdef int i
    return [(<const char*>&pv[i])[:sizeof(SMove)] for i in range(n)]
