"""Endgame tables: build them, store them with checksums, load and probe them, solve positions.

    python -m engine egdb build --variant checkers --pieces 5      # into ./egdb/checkers/
    python -m engine egdb info --variant checkers
    python -m engine egdb verify --variant checkers                # every value from its successors
    python -m engine solve --variant checkers --fen "W:WK1,K2:BK32"

The package knows no game: each family's native table set (``DraughtsTableSet`` in
_draughts_tables.pxi, ``StackTableSet`` in _stacks_tables.pxi, named by the game's record in
`engine.games`) says what its slices are: their signatures in build order, their names, which
of them a position can reach, and how an entry reads as a FEN.

A table directory holds one ``.npy`` file per material slice (draughts: one byte per position,
two in a slice with a distance past 252 plies) and ``manifest.json`` with each file's SHA-256,
size and statistics.
``egdb compress`` turns raw slices into two compressed files each (``NAME.wdl``: win/draw/loss
in two bits an entry; ``NAME.dist``: the distances of won positions), cut into blocks that
decode on their own (LZ4 and zstd), so that a probe reads one block; see docs/egdb.md. A build writes
each slice atomically and records it in the manifest at once, so an interrupted build resumes
where it stopped. Loading verifies every checksum and memory-maps the files. A checksum says
only that a file is the one the manifest lists; ``verify`` checks what the values say: every
stored value is derived again from its successors' values by the retrograde rule, so a file
altered together with its manifest entry is caught too.

Modules: `manifest` (the folder, names, checks), `codecs` (compressed files, LZ4 and zstd),
`tables` (loading and probing), `builder`, `compressor`, `solver`, `verifier`; this package's
names are their public faces.
"""

from .builder import BIG_SLICE, build
from .codecs import (IN_ORDER_MAGIC, LZ4_LEVEL, OLD_MAGIC, PACKED_HEADER, PACKED_MAGIC, PER_BLOCK,
                     ZSTD_LEVEL)
from .compressor import CHECK_RUN, CHECK_RUNS, compress
from .manifest import (DEFAULT_DIR, FORMAT, MANIFEST, USER_DIR, USER_DIR_ENV, TableError,
                       signatures, slice_name, table_variants, user_dir)
from .solver import DRAW_LINE_PLIES, Solution, solve
from .tables import Probe, Tables, info, playing_tables
from .verifier import VERIFY_CHUNK, VerifyReport, position_text, reachable_slices, verify

__all__ = ["BIG_SLICE", "CHECK_RUN", "CHECK_RUNS", "DEFAULT_DIR", "DRAW_LINE_PLIES", "FORMAT",
           "IN_ORDER_MAGIC", "LZ4_LEVEL", "MANIFEST", "OLD_MAGIC", "PACKED_HEADER", "PACKED_MAGIC",
           "PER_BLOCK", "USER_DIR", "USER_DIR_ENV", "VERIFY_CHUNK", "ZSTD_LEVEL", "Probe",
           "Solution", "TableError", "Tables", "VerifyReport", "build", "compress", "info",
           "playing_tables", "position_text", "reachable_slices", "signatures", "slice_name",
           "solve", "table_variants", "user_dir", "verify"]
