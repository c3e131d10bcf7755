"""Errors raised at the API boundary, and the number readers every front end shares. The errors
are ValueError subclasses, and none leaves a board changed: input is checked in full before
anything is applied. Numbers are read in ASCII only."""

import re

QUOTE_LIMIT = 40          # characters of refused input quoted back in an error
# A number as the readers accept it: ASCII only (Python's float() and int() also read other
# scripts' digits, '1_000', 'nan' and 'inf').
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


def quote(text: str) -> str:
    """Refused input as an error message shows it: repr-quoted, cut short."""
    if len(text) > QUOTE_LIMIT:
        return repr(text[:QUOTE_LIMIT]) + f"... ({len(text)} characters)"
    return repr(text)


def is_digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits. Every reader of a whole number asks this,
    never ``str.isdigit()``, which also accepts '²' and other scripts' digits."""
    return text.isascii() and text.isdigit()


def whole_number(text: str, longest: int = 20) -> int | None:
    """``text`` as an integer written with ASCII digits and an optional sign, else None."""
    digits = text[1:] if text[:1] in ("-", "+") else text
    return int(text) if len(text) <= longest and is_digits(digits) else None


def decimal(text: str, longest: int = 32) -> float | None:
    """``text`` as a finite number written with ASCII digits ('0.5', '2', '1e-3'), else None."""
    if len(text) > longest or not _DECIMAL.fullmatch(text):
        return None
    value = float(text)
    return value if value == value and abs(value) != float("inf") else None


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
