"""Writing a file whole or not at all: the new content goes to a fresh temporary file in the
same folder (``tempfile.mkstemp``: a new name, opened exclusively, so a link planted under a
guessable name is never followed), which then replaces the old file in one step
(``os.replace``). A reader sees the old file or the new one, never half of one; a failure
leaves the old file and removes the temporary one."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

FILE_MODE = 0o644          # mkstemp makes files its owner alone may read


@contextlib.contextmanager
def replacing(path: str | os.PathLike, mode: str = "wb", encoding: str | None = None):
    """``with replacing(path) as fh: fh.write(...)`` writes ``path`` whole or not at all."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, FILE_MODE)
        with os.fdopen(fd, mode, encoding=encoding) as fh:
            yield fh
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
