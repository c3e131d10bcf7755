"""Analysing whole games: every move searched, the mistakes marked.

    python -m engine annotate games.pdn --movetime 0.5 --out annotated.pdn --html report.html

For every move of a game's main line the engine searches the position before it (its best move
and score) and the position after it (the score of the move played); the difference, from the
mover's side, is what the move lost. Marks, by what a move lost in centi-men (a man is 100):

    ?!  inaccuracy   >= 50      ?  mistake   >= 100      ??  blunder   >= 300

(thresholds: ``THRESHOLDS``). Each move gets a comment with the score after it and, when the
engine prefers another move, that move; marked moves get the engine's move as a variation. The
annotated games are written as PDN (PGN for Superajedrez) and, with ``--html``, a page with the
score graph of every game and the board before each mistake (engine.svg).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from . import Board, Engine, svg
from .pdn import Game, Node, write_game

THRESHOLDS = ((300, 4, "??", "blunder"), (100, 2, "?", "mistake"), (50, 6, "?!", "inaccuracy"))
MATE_SCORE = 3000            # mate scores are drawn and compared as this many centi-men


@dataclass
class MoveReport:
    ply: int
    move: str
    mover: int                       # 0 first player... as board.turn: 0 White, 1 Black
    best: str | None                 # the engine's move, None when the game had ended
    before: int                      # score before the move, for the mover
    after: int                       # score after the move played, for the mover
    loss: int                        # before - after, never negative
    mark: str = ""                   # "", "?!", "?", "??"
    label: str = ""                  # "", inaccuracy, mistake, blunder
    fen_before: str = ""


@dataclass
class GameReport:
    game: Game
    moves: list = field(default_factory=list)

    def marked(self) -> list:
        return [m for m in self.moves if m.mark]


def _score(result) -> int:
    if result.mate is not None:
        return MATE_SCORE if result.mate > 0 else -MATE_SCORE
    return max(-MATE_SCORE, min(MATE_SCORE, result.score))


def analyse_game(game: Game, engine: Engine, movetime: float | None, progress=None, on_move=None,
                 stop=None, depth: int | None = None) -> GameReport:
    """Search every position of the game's main line (``movetime`` seconds each, or to
    ``depth`` plies: the same report on every run); returns the report and adds the comments,
    marks and variations to the game's nodes. ``progress(1)`` and ``on_move(MoveReport)`` are
    called after each move; ``stop()``, asked before each, ends the analysis early when true."""
    board = game.board()
    report = GameReport(game)
    for ply, node in enumerate(game.mainline):
        mover = int(board.turn)
        fen = board.fen()
        if board.is_game_over() or (stop is not None and stop()):
            break
        best = engine.search(board, movetime=movetime, depth=depth)
        board.push(node.move)
        if board.is_game_over():
            outcome = board.outcome()
            assert outcome is not None                  # the game is over
            after = 0 if outcome.winner is None else (MATE_SCORE if int(outcome.winner) == mover else -MATE_SCORE)
        else:
            reply = engine.search(board, movetime=movetime, depth=depth)
            after = _score(reply) if int(board.turn) == mover else -_score(reply)
        before = max(_score(best), after) if str(best.best_move) == str(node.move) else _score(best)
        loss = max(0, before - after)
        entry = MoveReport(ply, str(node.move), mover, str(best.best_move), before, after, loss,
                           fen_before=fen)
        for threshold, nag, mark, label in THRESHOLDS:
            if loss >= threshold:
                entry.mark, entry.label = mark, label
                node.nags = [n for n in node.nags if n not in (1, 2, 3, 4, 5, 6)] + [nag]
                break
        text = f"{after / 100:+.2f}"
        if entry.best != entry.move:
            text += f" (best {entry.best} {before / 100:+.2f})"
        node.comment = f"{node.comment} {text}".strip()
        if entry.mark and best.best_move is not None:
            node.variations.append([Node(best.best_move, comment=f"{before / 100:+.2f}")])
        report.moves.append(entry)
        if progress is not None:
            progress(1)
        if on_move is not None:
            on_move(entry)
    return report


def annotate(games: list, movetime: float = 0.5, hash_mb: int = 64, progress: bool = True) -> list:
    """Analyse every game (a progress bar counts the moves); returns the reports."""
    from tqdm import tqdm
    engine = Engine(hash_mb)
    total = sum(len(g.mainline) for g in games)
    reports = []
    with tqdm(total=total, unit="move", desc="annotate", disable=None if progress else True) as bar:
        for game in games:
            engine.new_game()
            reports.append(analyse_game(game, engine, movetime, bar.update))
    return reports


def write_pdn(reports: list) -> str:
    return "".join(write_game(r.game) for r in reports)


def html_report(reports: list) -> str:
    """A page: per game, its tags, the score graph (first player's view) and every marked move
    with the board before it."""
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>Annotated games</title>"
             "<style>body{font-family:sans-serif;max-width:980px;margin:auto}"
             ".mistake{display:inline-block;margin:8px;vertical-align:top}</style></head><body>",
             "<h1>Annotated games</h1>"]
    for number, report in enumerate(reports, 1):
        h = report.game.headers
        title = f"{h.get('White', '?')} – {h.get('Black', '?')} {report.game.result}"
        parts.append(f"<h2>{number}. {escape(title)}</h2>")
        parts.append(f"<p>{escape(report.game.variant)}, {len(report.moves)} moves analysed, "
                     f"{len(report.marked())} marked</p>")
        parts.append(score_graph(report))
        for m in report.marked():
            board = Board(report.game.variant, m.fen_before)
            picture = svg.board(board, size=260, arrows=_arrow(board, m.best))
            parts.append(f"<div class='mistake'>{picture}<p>ply {m.ply + 1}: <b>{escape(m.move)}"
                         f"{m.mark}</b> ({m.label}, {m.before / 100:+.2f} → {m.after / 100:+.2f});"
                         f" best {escape(m.best or '-')}</p></div>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _arrow(board, move_text):
    """An arrow for the engine's move: its first and last squares."""
    if not move_text:
        return []
    names = svg._Shape(board).squares_in(move_text)
    return [(names[0], names[-1])] if len(names) >= 2 else []


def score_graph(report: GameReport, width: int = 640, height: int = 160) -> str:
    """The score after each move, from the first mover's side, clipped to ±5 men, as an SVG
    line (a few lines of SVG; no plotting library needed for one polyline)."""
    if not report.moves:
        return ""
    clip = 500
    first = report.moves[0].mover
    values = [max(-clip, min(clip, m.after if m.mover == first else -m.after)) for m in report.moves]
    step = width / max(1, len(values) - 1)
    points = " ".join(f"{i * step:.1f},{height / 2 - v / clip * (height / 2 - 4):.1f}"
                      for i, v in enumerate(values))
    marks = "".join(f'<circle cx="{i * step:.1f}" cy="{height / 2 - values[i] / clip * (height / 2 - 4):.1f}" '
                    f'r="4" fill="#dc2626"><title>{escape(m.move + m.mark)}</title></circle>'
                    for i, m in enumerate(report.moves) if m.mark)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'class="score-graph"><rect width="{width}" height="{height}" fill="#f8fafc"/>'
            f'<line x1="0" y1="{height / 2}" x2="{width}" y2="{height / 2}" stroke="#94a3b8"/>'
            f'<polyline points="{points}" fill="none" stroke="#1d4ed8" stroke-width="2"/>'
            f'{marks}</svg>')
