"""Weights files of the learned evaluations, and which evaluation each variant plays.

Two kinds of learned evaluation exist, each a module that knows its layout: ``patterns`` (the
draughts games: board regions, a king-square table, whole-board terms) and ``linear`` (Dipole,
Superajedrez, Super Dimensiones: a linear model over the features their native code lists).
The draughts games can also play a ``network`` (network.py), whose files say so in their meta
and hold its layers' arrays instead of ``weights``.
Their files share one format, a numpy ``.npz`` archive: ``weights`` (int16, shape (rows, 2):
opening and ending value of every row, in 1/16 centi-units), and ``meta`` (JSON: format,
variant, the layout's digest, the weights' SHA-256, how they were made, and what the kind adds).
``load(path)`` checks all of it before anything changes: a bad file raises ``WeightsError``
naming it, and the variant keeps the evaluation it had.

A variant plays its hand-set evaluation (evaluation.py) until weights are loaded; at import the
package loads the files it ships: ``weights/VARIANT.npz``, and over it ``weights/VARIANT-network.npz``
where a network ships for the variant (one that beat the patterns alone in a match at equal time).
``<shipped>`` names that default, ``<patterns>`` the shipped file without its network and
``<hand-set>`` the hand-set evaluation.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from .errors import EngineError
from .files import replacing

FORMAT = 1
SCALE = 16                      # stored weight = centi-units x SCALE
HAND_SET = "<hand-set>"         # the name that selects the hand-set evaluation (EvalFile option)
SHIPPED = "<shipped>"           # the name that selects the weights shipped with the package
PATTERNS = "<patterns>"         # the shipped weights without the network shipped over them


class WeightsError(EngineError):
    """A weights file that is missing, unreadable, damaged or made for another layout."""


def kind(variant: str):
    """The module of the variant's learned evaluation (patterns or linear), or None."""
    from . import linear, patterns
    from .games import GAMES
    game = GAMES.get(variant)
    if game is None or not game.learned:
        return None
    return patterns if game.patterns else linear


def learned_variants() -> list[str]:
    from .games import names
    return names(learned=True)


def _kind_of(variant: str, what: str):
    found = kind(variant)
    if found is None:
        raise WeightsError(f"{what}: {variant!r} has no learned evaluation")
    return found


def save(path, variant: str, weights: np.ndarray, info: dict | None = None, **options) -> None:
    """Write a weights file (weights: centi-units as floats, or already scaled int16); the
    options are the kind's (patterns: ``drawish``, ``phase``)."""
    module = _kind_of(variant, str(path))
    if weights.dtype != np.int16:
        weights = np.clip(np.rint(np.asarray(weights, dtype=np.float64) * SCALE), -32767, 32767)
        weights = weights.astype(np.int16)
    weights = np.ascontiguousarray(weights)
    size = module.layout_size(variant)
    if weights.shape != (size, 2):
        raise WeightsError(f"{path}: expected {size} x 2 weights for {variant}, "
                           f"not {weights.shape}")
    meta = {"format": FORMAT, "variant": variant, "scale": SCALE,
            **module.file_meta(path, variant, **options),
            "sha256": hashlib.sha256(weights.tobytes()).hexdigest(), "info": info or {}}
    with replacing(path) as fh:
        np.savez_compressed(fh, weights=weights, meta=np.array(json.dumps(meta)))


def read(path) -> tuple[str, Any, dict]:
    """(variant, int16 weights in today's layout, meta) of a weights file, every field
    checked; for a network file (meta "model": "network") the weights are its arrays, a dict."""
    from . import network
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if isinstance(meta, dict) and meta.get("model") == "network":
                arrays = {name: data[name] for name in network.ARRAYS}
            else:
                weights = data["weights"]
    except FileNotFoundError:
        raise WeightsError(f"{path}: no such weights file") from None
    except Exception as exc:      # numpy raises many kinds for a malformed file
        raise WeightsError(f"{path}: not a weights file ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise WeightsError(f"{path}: weights of format "
                           f"{meta.get('format') if isinstance(meta, dict) else '?'}, "
                           f"expected {FORMAT}")
    variant = meta.get("variant")
    module = kind(variant) if isinstance(variant, str) else None
    if module is None:
        raise WeightsError(f"{path}: weights for {variant!r}, which has no learned evaluation")
    if meta.get("model") == "network":
        if module is not _patterns():
            raise WeightsError(f"{path}: a network for {variant}, which has none")
        network.check(path, str(variant), arrays, meta)
        return str(variant), arrays, meta
    layout, size = module.file_layout(path, variant, meta)
    if weights.dtype != np.int16 or weights.shape != (size, 2):
        raise WeightsError(f"{path}: expected int16 weights of shape ({size}, 2), "
                           f"not {weights.dtype} {weights.shape}")
    if hashlib.sha256(np.ascontiguousarray(weights).tobytes()).hexdigest() != meta.get("sha256"):
        raise WeightsError(f"{path}: checksum mismatch (the file is damaged)")
    module.check_meta(path, meta)
    return str(variant), module.upgraded(variant, np.ascontiguousarray(weights), layout), meta


_LOADED: dict[str, str] = {}     # variant -> the file its evaluation came from
_BELOW: dict[str, str] = {}      # variant -> what plays under its network (a file or HAND_SET)


def load(path, variant: str | None = None) -> str:
    """Make every search of the file's variant use its weights; returns the variant. With
    ``variant``, the file must be for it. On any error nothing changes."""
    found, table, meta = read(path)
    if variant is not None and found != variant:
        raise WeightsError(f"{path}: weights for {found}, not {variant}")
    install(found, table, meta)
    if meta.get("model") != "network":
        _BELOW.pop(found, None)
    elif found not in _BELOW:
        _BELOW[found] = _LOADED.get(found, HAND_SET)
    _LOADED[found] = str(path)
    return found


def install(variant: str, table, meta: dict) -> None:
    """Make the variant play weights already `read` (a network plays over whatever patterns
    are installed; patterns put a network aside)."""
    from . import network
    if meta.get("model") == "network":
        network.install(variant, table, meta)
    else:
        if kind(variant) is _patterns():
            network.uninstall(variant)
        kind(variant).install(variant, table, meta)


def _patterns():
    from . import patterns
    return patterns


def use_hand_set(variant: str) -> None:
    """Back to the hand-set evaluation of evaluation.py for a variant."""
    module = _kind_of(variant, "the hand-set evaluation")
    if module is _patterns():
        from . import network
        network.uninstall(variant)
    module.uninstall(variant)
    _BELOW.pop(variant, None)
    _LOADED[variant] = HAND_SET


def files_of(variant: str, name: str) -> list[str]:
    """The files that make the evaluation `name` selects, in the order they load (none: the
    hand-set evaluation): SHIPPED the shipped weights and the network shipped over them,
    PATTERNS the shipped weights alone, a path itself."""
    if name not in (HAND_SET, SHIPPED, PATTERNS):
        return [str(name)]
    path = shipped(variant) if name != HAND_SET else None
    if path is None:
        return []
    net = shipped_network(variant) if name == SHIPPED else None
    return [str(path)] + ([str(net)] if net else [])


def use(variant: str, name: str) -> str:
    """Select a variant's evaluation by name: HAND_SET, SHIPPED (the shipped weights and the
    network over them, if one ships; the hand-set evaluation where nothing ships), PATTERNS
    (the shipped weights alone) or a weights file's path. Returns what plays, in words."""
    if name not in (HAND_SET, SHIPPED, PATTERNS):
        return f"{load(name)}: weights from {name}"
    if kind(variant) is None:
        raise EngineError(f"{variant} has no learned evaluation")
    files = files_of(variant, name)
    if not files:
        use_hand_set(variant)
        return f"{variant}: " + ("the hand-set evaluation" if name == HAND_SET
                                 else "no shipped weights, the hand-set evaluation")
    restore(variant, files)
    if len(files) == 1:
        return f"{variant}: weights from {files[0]}"
    return f"{variant}: network from {files[1]} over weights from {files[0]}"


def current(variant: str) -> str:
    """Where the variant's evaluation comes from: a file's path, or HAND_SET (a network's file
    where a network plays; `sources` names what plays under it too)."""
    return _LOADED.get(variant, HAND_SET)


def sources(variant: str) -> list[str]:
    """What the variant's evaluation is made of, in the order to load it again: a weights
    file or HAND_SET, then the network that plays over it, if one does."""
    top = current(variant)
    return [_BELOW[variant], top] if variant in _BELOW else [top]


def restore(variant: str, made_of: list[str]) -> None:
    """Load again what `sources` named."""
    for source in made_of:
        if source == HAND_SET:
            use_hand_set(variant)
        else:
            load(source, variant)


def shipped(variant: str) -> Path | None:
    """The weights file that ships with the package for a variant, if any."""
    item = resources.files("engine").joinpath("weights", f"{variant}.npz")
    return Path(str(item)) if item.is_file() else None


def shipped_network(variant: str) -> Path | None:
    """The network that ships over a variant's shipped weights (its default), if any."""
    item = resources.files("engine").joinpath("weights", f"{variant}-network.npz")
    return Path(str(item)) if item.is_file() else None


def load_shipped() -> None:
    """Load every shipped weights file, and the network shipped over it (at import). A file
    that fails to load leaves that variant on the hand-set evaluation, a network that fails on
    the patterns alone (the tests catch a broken shipped file)."""
    for variant in learned_variants():
        path = shipped(variant)
        if path is not None:
            try:
                load(path, variant)
            except WeightsError:
                use_hand_set(variant)
                continue
            net = shipped_network(variant)
            if net is not None:
                try:
                    load(net, variant)
                except WeightsError:
                    pass
