"""How long a search may think: the one time manager of the search and both protocols.

A fixed time per move is the GUI's own budget and is used to the end. Under a clock the search
gets a soft budget (a share of the clock plus most of the increment; no new iteration starts
after SOFT_SHARE of it) and a hard deadline that stops it, which always leaves a margin on the
clock. Budgets count from the moment the move was asked for (the protocol's `go` line), so that
time lost before the search starts -- parsing, a busy machine -- is not lost on the clock."""

from __future__ import annotations

MOVES_LEFT = 30          # moves the clock is assumed to cover when the GUI does not say
INCREMENT_SHARE = 0.75   # of the increment, spent on this move
SOFT_SHARE = 0.6         # no new iteration starts after this share of the soft budget
HARD_FACTOR = 4          # the hard deadline is at most this many soft budgets
MARGIN = 0.05            # seconds always left on the clock (at most a tenth of it)


def budget(clock: float | None, inc: float = 0.0, movestogo: int | None = None,
           movetime: float | None = None) -> tuple[float | None, float | None]:
    """(soft, hard) seconds for one move: soft decides whether another iteration starts, hard
    stops the search. (None, None) without a limit; a fixed movetime has no soft budget."""
    if movetime is not None:
        return None, movetime
    if clock is None:
        return None, None
    inc = inc or 0.0
    margin = min(MARGIN, clock * 0.1)
    soft = clock / (movestogo or MOVES_LEFT) + inc * INCREMENT_SHARE
    hard = min(max(clock - margin, 0.001), soft * HARD_FACTOR, clock * 0.5 + inc)
    return min(soft, hard), hard


def ponder_budget(clock: float | None, inc: float = 0.0, movestogo: int | None = None,
                  movetime: float | None = None) -> float | None:
    """The time a ponder search still gets once its move was played (ponderhit): what a normal
    search would have spent, or None when no limit was given."""
    soft, hard = budget(clock, inc, movestogo, movetime)
    return soft if soft is not None else hard
