# cython: language_level=3
"""The base class of every family's board, as the search sees it (see _game.pxd)."""


cdef class GameBoard:
    cdef const GameOps* search_ops(self):
        return NULL

    cdef const void* search_position(self):
        return NULL

    cdef int search_history(self, u64* out, int capacity):
        return 0

    cdef object wrap_search_move(self, const SMove* m):
        raise NotImplementedError

    def _repr_svg_(self):
        """The position as an SVG picture (engine.svg.board): notebooks draw the board."""
        from .svg import board as picture
        return picture(self)


cdef class ProbeSource:
    """Base of the endgame tables as the search sees them (see _game.pxd)."""
    pass
