"""Self-play games for training: ``python -m engine selfplay``.

The engine plays itself from random openings (a few random plies from the start), a fixed
number of nodes a move, in several processes. Every quiet position of a game is kept with the
game's result and the search's score: in draughts one where the side to move has no capture,
in the other games one where the move played takes nothing and the side to move is not in
check (its value is not a pending exchange). Games are played in batches; each batch is one
compressed numpy file ``DIR/VARIANT-NNNNNN.npz`` written atomically, with its own seed, so an
interrupted run continues where it stopped and a rerun gives the same games.

Games start from the start position, or where a game has several (Super Dimensiones' 32 card
sets) from one drawn at random.

Arrays of a batch file: the position, as ``white``, ``black``, ``kings`` (uint64 bitboards) for
the draughts games, as ``position`` (uint8 [N, size], the native position's bytes) and
``start`` (str, the FEN the game started from, "" for the start position: it says the rules)
for the others; ``stm`` (uint8, 0 White), ``score`` (int16, the search's score for the side to move,
centi-units), ``result`` (int8, the game's result for White: 1, 0, -1), ``game`` (int32, the
game's number), ``ply`` (int16); and ``meta`` (JSON: variant, nodes, evaluation used).
"""

from __future__ import annotations

import json
import os
import random
import struct
import zlib
from pathlib import Path

import numpy as np

from .errors import EngineError
from .files import replacing

BATCH_GAMES = 16
MAX_PLIES = 400                 # a game this long is scored a draw
SCORE_LIMIT = 3000              # scores are clipped here (a won position, not a mate count)


def batch_path(out: Path, variant: str, number: int) -> Path:
    return out / f"{variant}-{number:06d}.npz"


def _draughts_position(board, words: int) -> tuple:
    """White's, Black's and the kings' squares: three words, or three pairs of words (lowest
    first) on a board of more than 64 bits."""
    values = struct.unpack_from(f"<{3 * words}Q", board._native_position())
    if words == 1:
        return values
    return tuple(values[i:i + words] for i in range(0, 3 * words, words))


def _is_quiet(board, best, draughts: bool) -> bool:
    """Whether the position's value is not a pending exchange (see the module's docstring)."""
    if draughts:
        return not any(m.is_capture for m in board.legal_moves())
    # A game whose moves never capture (a plugin's) has no exchanges to wait out.
    return not getattr(best, "is_capture", False) and not (hasattr(board, "is_check")
                                                           and board.is_check())


def _kept_as_bitboards(variant: str) -> bool:
    """Whether the variant's positions are kept as bitboards for the pattern evaluation (the
    draughts games; their quiet positions are those with no capture to make)."""
    from .games import GAMES
    return GAMES[variant].patterns


def play_batch(variant: str, number: int, games: int, nodes: int, random_plies: tuple[int, int],
               eval_file: str | None, seed: int = 0) -> dict:
    """Play one batch of games (seeded by its number and the run's seed); returns its arrays."""
    from . import Board, Engine, patterns, weights
    from .games import GAMES
    if eval_file is not None:
        weights.use(variant, eval_file)
    rng = random.Random(number * 1_000_003 + 17 + seed * 1_000_000_007)
    engine = Engine(16)
    draughts = _kept_as_bitboards(variant)
    words = patterns.words(variant) if draughts else 0
    random_start = GAMES[variant].random_start
    positions: list = []
    rows: list[tuple] = []
    for g in range(games):
        game_id = number * BATCH_GAMES + g
        start = random_start(rng) if random_start else ""
        board = Board(variant, start or None)
        engine.new_game()
        for _ in range(rng.randint(*random_plies)):
            if board.is_game_over():
                break
            board.push(rng.choice(board.legal_moves()))
        kept, kept_positions = [], []
        while not board.is_game_over() and board.ply < MAX_PLIES:
            result = engine.search(board, nodes=nodes)
            if result.mate is None and _is_quiet(board, result.best_move, draughts):
                kept_positions.append(_draughts_position(board, words) if draughts
                                      else board._native_position())
                kept.append((int(board.turn), max(-SCORE_LIMIT, min(SCORE_LIMIT, result.score)),
                             game_id, board.ply, start))
            board.push(result.best_move)
        outcome = board.outcome()
        white_result = 0
        if outcome is not None and outcome.winner is not None:
            white_result = 1 if int(outcome.winner) == 0 else -1
        rows.extend(row + (white_result,) for row in kept)
        positions.extend(kept_positions)
    cols: list = list(zip(*rows)) if rows else [[]] * 6
    arrays = {
        "stm": np.array(cols[0], dtype=np.uint8), "score": np.array(cols[1], dtype=np.int16),
        "game": np.array(cols[2], dtype=np.int32), "ply": np.array(cols[3], dtype=np.int16),
        "result": np.array(cols[5], dtype=np.int8),
    }
    if draughts:
        boards: list = list(zip(*positions)) if positions else [[]] * 3
        for key, column in zip(("white", "black", "kings"), boards):
            arrays[key] = np.array(column, dtype=np.uint64).reshape((-1,) if words == 1
                                                                     else (-1, words))
    else:
        size = len(Board(variant)._native_position())
        arrays["position"] = np.frombuffer(b"".join(positions), dtype=np.uint8).reshape(-1, size)
        # The position's bytes need not hold the rules (Super Dimensiones' card set): the
        # start each game came from says them ("" for the start position).
        arrays["start"] = np.array(cols[4], dtype=str) if rows else np.array([], dtype="<U1")
    return arrays


def _job(args):
    """One batch: its number and arrays. Only the head writes files, so that a batch played on
    another machine (Ray) lands in the head's folder, and a batch run twice writes once."""
    variant, number, games, nodes, plies, eval_file, seed = args
    return number, play_batch(variant, number, games, nodes, plies, eval_file, seed)


def _write(path: Path, arrays: dict, meta: dict) -> None:
    with replacing(path) as fh:
        np.savez_compressed(fh, meta=np.array(json.dumps(meta)), **arrays)


def run(variant: str, games: int, out: str | os.PathLike, nodes: int = 2000, workers: int = 1,
        random_plies: tuple[int, int] = (4, 8), eval_file: str | None = None,
        progress: bool = True, seed: int = 0, ray: str | None = None) -> tuple[int, int]:
    """Play ``games`` games (rounded up to batches of BATCH_GAMES) into ``out``, skipping
    batches already there; returns (games played now, positions kept now). The batches run on
    ``workers`` local processes, or on a Ray cluster (``ray``: an address, ``auto`` or
    ``local``; see `engine.parallel`); the files are the same either way."""
    from tqdm import tqdm

    from . import weights
    from .games import names
    from .parallel import Runner
    if variant not in names(learned=True):
        raise EngineError(f"self-play trains a learned evaluation; {variant!r} has none yet "
                          f"(games: {', '.join(names(learned=True))})")
    if games < 1 or nodes < 1 or workers < 1:
        raise EngineError("games, nodes and workers must be 1 or more")
    if not 0 <= random_plies[0] <= random_plies[1]:
        raise EngineError(f"random plies {random_plies[0]} to {random_plies[1]}: need 0 <= MIN <= MAX")
    if eval_file is not None and eval_file not in (weights.HAND_SET, weights.SHIPPED,
                                                  weights.PATTERNS):
        found = weights.read(eval_file)[0]             # a bad file fails here, not in a worker
        if found != variant:
            raise weights.WeightsError(f"{eval_file}: weights for {found}, not {variant}")
    runner = Runner(workers, ray)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    meta = {"variant": variant, "nodes": nodes, "random_plies": list(random_plies),
            "evaluation": eval_file or " + ".join(weights.sources(variant)), "seed": seed}
    batches = -(-games // BATCH_GAMES)
    todo = [n for n in range(batches) if not batch_path(out, variant, n).exists()]
    jobs = [(variant, n, BATCH_GAMES, nodes, random_plies, eval_file, seed) for n in todo]
    played = kept = 0
    bar = tqdm(total=batches * BATCH_GAMES, initial=(batches - len(todo)) * BATCH_GAMES,
               unit="game", desc=f"selfplay {variant}", disable=None if progress else True)
    for number, arrays in runner.map_unordered(_job, jobs):
        _write(batch_path(out, variant, number), arrays, meta)
        played += BATCH_GAMES
        kept += len(arrays["stm"])
        bar.update(BATCH_GAMES)
        bar.set_postfix(positions=kept)
    bar.close()
    return played, kept


def _batch_files(dirs: list, variant: str) -> list[Path]:
    """The batch files of `variant` in the folders, in order (not one being written)."""
    return sorted(f for d in dirs for f in Path(d).glob(f"{variant}-*.npz")
                  if not f.name.endswith(".tmp.npz"))


def board_of(variant: str, arrays: dict, i: int):
    """The board of position `i` of self-play arrays."""
    from . import Board
    from .notation import square_order
    board = Board(variant)
    order = square_order(board)
    bits = sorted(board.spec.square_names, key=board.spec.order_key)

    def word(key: str) -> int:
        value = np.asarray(arrays[key][i]).ravel()
        return sum(int(w) << (64 * j) for j, w in enumerate(value))
    kings = word("kings")
    lists = []
    for key in ("white", "black"):
        occupied = word(key)
        lists.append(",".join(("K" if (kings >> b) & 1 else "") + name
                              for b, name in zip(bits, order) if (occupied >> b) & 1))
    return Board(variant, f"{'W' if arrays['stm'][i] == 0 else 'B'}:W{lists[0]}:B{lists[1]}")


def _relabel_file(args):
    """One batch file searched again: its name and arrays, `score` now the deeper search's
    (``shallow_score`` the one played), `share` of its positions kept (chosen by the file's
    name, so that a rerun keeps the same ones)."""
    variant, path, nodes, share = args
    from . import Engine
    path = Path(path)
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files if k != "meta"}
    count = len(arrays["stm"])
    keep = sorted(random.Random(zlib.crc32(path.name.encode())).sample(
        range(count), round(count * share))) if share < 1 else list(range(count))
    arrays = {k: v[keep] for k, v in arrays.items()}
    engine = Engine(16)
    scores = np.zeros(len(keep), dtype=np.int16)
    game = None
    for row in range(len(keep)):
        if arrays["game"][row] != game:          # one game's positions share a hash table
            game = arrays["game"][row]
            engine.new_game()
        found = engine.search(board_of(variant, arrays, row), nodes=nodes)
        value = found.score if found.mate is None else (SCORE_LIMIT if found.mate > 0
                                                        else -SCORE_LIMIT)
        scores[row] = max(-SCORE_LIMIT, min(SCORE_LIMIT, value))
    arrays["shallow_score"] = arrays["score"]
    arrays["score"] = scores
    return path.name, arrays


def relabel(variant: str, source: str | os.PathLike, out: str | os.PathLike, nodes: int = 20000,
            share: float = 1.0, workers: int = 1, progress: bool = True,
            ray: str | None = None) -> tuple[int, int]:
    """Search the positions of the self-play files in ``source`` again, ``nodes`` nodes each,
    and write them to ``out`` (same file names) with ``score`` the deeper search's: labels of
    a deeper search for the games' positions, which `train` blends with the results as it does
    the played scores (``--lambda``). ``share`` keeps that part of each file's positions.
    Files already in ``out`` are skipped (an interrupted run continues). Returns (files,
    positions) written now. The draughts games only: their files keep positions as bitboards."""
    from tqdm import tqdm

    from .parallel import Runner
    if not _kept_as_bitboards(variant):
        raise EngineError(f"relabel reads draughts positions (bitboards); {variant}'s self-play "
                          f"files keep native positions")
    if nodes < 1 or workers < 1 or not 0 < share <= 1:
        raise EngineError("nodes and workers must be 1 or more, share in (0, 1]")
    source, out = Path(source), Path(out)
    if source.resolve() == out.resolve():
        raise EngineError(f"relabel writes new files: --out must not be {source}")
    files = _batch_files([source], variant)
    if not files:
        raise EngineError(f"no self-play files of {variant} in {source}")
    out.mkdir(parents=True, exist_ok=True)
    todo = [f for f in files if not (out / f.name).exists()]
    with np.load(files[0], allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
    meta.update(relabel_nodes=nodes, relabel_share=share)
    runner = Runner(workers, ray)
    written = positions = 0
    bar = tqdm(total=len(files), initial=len(files) - len(todo), unit="file",
               desc=f"relabel {variant}", disable=None if progress else True)
    for name, arrays in runner.map_unordered(_relabel_file,
                                             [(variant, str(f), nodes, share) for f in todo]):
        _write(out / name, arrays, meta)
        written += 1
        positions += len(arrays["stm"])
        bar.update(1)
        bar.set_postfix(positions=positions)
    bar.close()
    return written, positions


def load(dirs: list, variant: str) -> dict:
    """Every batch file of `variant` under the given folders, concatenated; games are numbered
    0.. across all of them."""
    files = _batch_files(dirs, variant)
    if not files:
        raise EngineError(f"no self-play files of {variant} in {', '.join(map(str, dirs))} "
                          f"(run 'python -m engine selfplay --variant {variant}' first)")
    parts: dict[str, list] = {}
    games = 0
    board_keys = ("white", "black", "kings") if _kept_as_bitboards(variant) else ("position",)
    for f in files:
        try:
            with np.load(f, allow_pickle=False) as data:
                for key in (*board_keys, "stm", "score", "ply", "result"):
                    parts.setdefault(key, []).append(data[key])
                if not _kept_as_bitboards(variant):
                    # A file without starts has every game from the start position.
                    parts.setdefault("start", []).append(
                        data["start"] if "start" in data else np.full(len(data["stm"]), ""))
                # Game numbers restart in every run's folder: number them anew, in file order.
                _, local = np.unique(data["game"], return_inverse=True)
                parts.setdefault("game", []).append((local + games).astype(np.int32))
                games += int(local.max()) + 1 if len(local) else 0
        except Exception as exc:      # numpy raises many kinds for a malformed file
            raise EngineError(f"{f}: not a self-play file ({exc})") from None
    return {k: np.concatenate(v) for k, v in parts.items()}
