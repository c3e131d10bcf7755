"""The engine's settings as one table, from which both protocols are made: UCI's ``uci``
listing and ``setoption``, Hub's ``hub`` parameters and ``set-param``.

An option is named once for each protocol (``Hash`` / ``hash``; ``hub`` is None where Hub does
not offer it), has a kind (spin, check, string, button, combo), reads its current value from the
session and applies a value that ``parse`` has already checked. A value that does not parse
raises EngineError with the message both protocols show, and nothing changes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .errors import EngineError, quote, whole_number
from ._search import SWITCHES
from .protocol import MAX_THREADS

MAX_HASH = 65536          # MB
MAX_MULTIPV = 64
MAX_MOVE_OVERHEAD = 5000  # ms


@dataclass(frozen=True)
class Option:
    name: str                                  # UCI's name
    hub: str | None                            # Hub's parameter name; None: UCI only
    kind: str                                  # spin, check, string, button, combo
    get: Callable[[Any], Any]                  # the session's current value
    set: Callable[[Any, Any], None]            # apply a parsed value to the session
    low: int = 0
    high: int = 0
    stops: bool = True                         # the running search stops first

    def parse(self, text: str, name: str, session) -> Any:
        """The value of `text` for this option (`name` as the protocol spells it, for errors);
        raises before anything changes."""
        if self.kind == "spin":
            number = whole_number(text)
            if number is None:
                raise EngineError(f"option {name} needs a number, not {quote(text)}")
            if not self.low <= number <= self.high:
                raise EngineError(f"option {name} must be between {self.low} and {self.high}, "
                                  f"not {number}")
            return number
        if self.kind == "check":
            if text.lower() not in ("true", "false"):
                raise EngineError(f"option {name} takes true or false, not {quote(text)}")
            return text.lower() == "true"
        if self.kind == "string":
            return "" if text in ("", "<empty>") else text
        if self.kind == "combo":
            return session.variant_name(text)
        return text                                    # a button has no value

    def uci_line(self, session) -> str:
        head = f"option name {self.name} type {self.kind}"
        value = self.get(session)
        if self.kind == "spin":
            return f"{head} default {value} min {self.low} max {self.high}"
        if self.kind == "check":
            return f"{head} default {'true' if value else 'false'}"
        if self.kind == "string":
            return f"{head} default {value or '<empty>'}"
        if self.kind == "combo":
            return f"{head} default {value} " + " ".join(f"var {v}" for v in session.variant_choices())
        return head

    def hub_line(self, session) -> str:
        head = f"param name={self.hub} value="
        value = self.get(session)
        if self.kind == "spin":
            return f"{head}{value} type=int min={self.low} max={self.high}"
        if self.kind == "check":
            return f"{head}{'true' if value else 'false'} type=bool"
        if self.kind == "combo":
            return f'{head}{value} type=enum values="{" ".join(session.variant_choices())}"'
        return f"{head}{value or '<empty>'} type=string"


def _switch(name: str, hub: str, attribute: str) -> Option:
    """A search feature that an Engine attribute turns on and off."""
    return Option(name, hub, "check", lambda s: getattr(s.engine, attribute),
                  lambda s, v: setattr(s.engine, attribute, v))


OPTIONS = (
    Option("UCI_Variant", "variant", "combo", lambda s: s.variant, lambda s, v: s.set_variant(v)),
    # resize_hash stops the search itself, once it knows the table fits.
    Option("Hash", "hash", "spin", lambda s: s.hash_mb, lambda s, v: s.resize_hash(v), 1, MAX_HASH,
           stops=False),
    Option("Clear Hash", None, "button", lambda s: None, lambda s, v: s.engine.new_game()),
    Option("Threads", "threads", "spin", lambda s: s.engine.threads,
           lambda s, v: setattr(s.engine, "threads", v), 1, MAX_THREADS),
    Option("MultiPV", None, "spin", lambda s: s.multipv, lambda s, v: setattr(s, "multipv", v),
           1, MAX_MULTIPV, stops=False),
    Option("Move Overhead", None, "spin", lambda s: s.move_overhead,
           lambda s, v: setattr(s, "move_overhead", v), 0, MAX_MOVE_OVERHEAD, stops=False),
    Option("Ponder", None, "check", lambda s: False, lambda s, v: None, stops=False),
    # The search's switches, from its one table.
    *(_switch(s.uci, s.hub, name) for name, s in SWITCHES.items()),
    Option("EgdbPath", None, "string", lambda s: s.egdb_path, lambda s, v: s.set_egdb_path(v)),
    # set_eval_file stops the search itself.
    Option("EvalFile", "eval-file", "string", lambda s: "<shipped>",
           lambda s, v: s.send_eval_file(v), stops=False),
)

BY_UCI_NAME = {o.name.lower(): o for o in OPTIONS}
BY_HUB_NAME = {o.hub: o for o in OPTIONS if o.hub}


def uci_option(name: str) -> Option:
    try:
        return BY_UCI_NAME[name.lower()]
    except KeyError:
        raise EngineError(f"unknown option {quote(name)}") from None
