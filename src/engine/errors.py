"""Errors raised at the API boundary. All are ValueError subclasses, and none leaves a board
changed: input is checked in full before anything is applied."""

QUOTE_LIMIT = 40          # characters of refused input quoted back in an error


def quote(text: str) -> str:
    """Refused input as an error message shows it: repr-quoted, cut short."""
    if len(text) > QUOTE_LIMIT:
        return repr(text[:QUOTE_LIMIT]) + f"... ({len(text)} characters)"
    return repr(text)


class EngineError(ValueError):
    """Base class of every input error of the engine."""


class UnknownVariantError(EngineError):
    """A variant name that the engine does not implement."""


class InvalidFenError(EngineError):
    """A position string that is malformed or describes an impossible position."""


class IllegalMoveError(EngineError):
    """A move string that names no legal move, or names several, in the position."""


class PerftStopped(RuntimeError):
    """A perft abandoned by ``engine.stop_perft()`` (a protocol's ``stop``) before its end."""
