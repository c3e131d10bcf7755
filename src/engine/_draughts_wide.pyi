# Type stubs of a native module: made by tools/make_stubs.py. The draughts code built on
# 128-bit boards: the names and types of _draughts.
from ._draughts import (
    DraughtsBoard as DraughtsBoard,
    DraughtsMove as DraughtsMove,
    draughts_variants as draughts_variants,
    draughts_variant_id as draughts_variant_id,
    _set_patterns as _set_patterns,
    _pattern_tables as _pattern_tables,
    _clear_patterns as _clear_patterns,
    _pattern_features as _pattern_features,
)
