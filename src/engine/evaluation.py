"""Evaluation weights, as data: one row per variant, in centi-men (a man is 100). The native
evaluators read these rows when the module loads; tuning means editing numbers here.

Terms of the draughts evaluation (all from the side to move's point of view):

- ``man``, ``king``: material.
- ``tempo``: per man and rank advanced; the sum of advancement, which drives men forward and, in
  the opening, measures who will run out of safe moves first.
- ``back_rank``: per man still on its own back row (it guards the crowning squares); counted
  only while the opponent has no king.
- ``centre``: per man on the central squares.
- ``balance``: per man of imbalance between the two wings (a penalty, so negative).
- ``king_mobility``: per square a king can move to.
- ``runaway``: for a man whose path to the crowning row is free of every piece, indexed by the
  number of rows it still has to go (1, 2, 3).
- ``lone_king_draw``: with kings only on the board, a lone king against this many kings or fewer
  is scored a draw (endgame knowledge: in International draughts a lone king holds against three
  kings unless it is caught at once; with short kings two kings win).
- ``piece_numbers``: Chapinas only, per point of difference between the sums of the piece numbers
  on the board, which decide every drawn game (RULES.md §2.3).
"""

DRAUGHTS_WEIGHTS = {
    "international": dict(lone_king_draw=3, man=100, king=320, tempo=2, back_rank=6, centre=5, balance=-3,
                          king_mobility=2, runaway=(0, 80, 50, 25)),
    "spanish": dict(lone_king_draw=2, man=100, king=300, tempo=2, back_rank=8, centre=5, balance=-2,
                    king_mobility=2, runaway=(0, 80, 50, 25)),
    "checkers": dict(lone_king_draw=1, man=100, king=150, tempo=2, back_rank=10, centre=6, balance=-2,
                     king_mobility=3, runaway=(0, 60, 35, 15)),
    "chapinas": dict(lone_king_draw=2, piece_numbers=2, man=100, king=320, tempo=2, back_rank=6, centre=5, balance=-3,
                     king_mobility=2, runaway=(0, 80, 50, 25)),
    "turkish": dict(lone_king_draw=1, man=100, king=250, tempo=3, back_rank=4, centre=4, balance=-2,
                    king_mobility=2, runaway=(0, 80, 50, 25)),
    "gothic-checkers": dict(lone_king_draw=1, man=100, king=200, tempo=2, back_rank=8, centre=5, balance=-2,
                            king_mobility=3, runaway=(0, 70, 40, 20)),
    # 8x8 with flying kings (Brazilian, Russian, pool, Czech): Spanish's weights (below).
    # Italian: short kings that men cannot take.
    "italian": dict(lone_king_draw=1, man=100, king=180, tempo=2, back_rank=10, centre=6, balance=-2,
                    king_mobility=3, runaway=(0, 60, 35, 15)),
    # Killer, Frisian and Frysk!: International's weights (below).
    # Antidraughts: a piece is a burden (the side that runs out of moves wins); no draw by a lone
    # king, no bonus for advancing or crowning.
    "antidraughts": dict(lone_king_draw=0, man=-100, king=-150, tempo=0, back_rank=0, centre=0, balance=0,
                         king_mobility=0, runaway=(0, 0, 0, 0)),
    # Breakthrough: the first king wins, so a man with a free path is nearly the game.
    "breakthrough": dict(lone_king_draw=0, man=100, king=0, tempo=4, back_rank=6, centre=5, balance=-3,
                         king_mobility=0, runaway=(0, 900, 500, 200)),
}
for _name in ("brazilian", "russian", "pool", "czech", "thai"):
    DRAUGHTS_WEIGHTS[_name] = DRAUGHTS_WEIGHTS["spanish"]
for _name in ("killer", "frisian", "frysk", "canadian"):
    DRAUGHTS_WEIGHTS[_name] = DRAUGHTS_WEIGHTS["international"]

# Dipole (RULES.md §8), in hundredths of a checker: a checker on the board, per checker and row
# advanced (the tempo towards bearing off), per checker of a stack the side to move can capture at
# once (a loss for the other side), per stack, and per move available (mobility).
STACK_WEIGHTS = {
    "dipole": dict(checker=100, advance=2, attacked=60, stack=8, mobility=2),
    "dipole10": dict(checker=100, advance=2, attacked=60, stack=8, mobility=2),
}

# Superajedrez (RULES.md §7), in centipawns. Per type, pawn, knight, bishop, rook, queen:
# ``value`` on the board and ``reserve_bonus`` added while the piece is still in reserve (it can
# go anywhere, and it protects its reserved squares; the queen can only go to d1, so none).
# ``mobility`` per square a piece attacks that its side does not occupy (pawn to king).
# ``drop_check``: per empty square, not covered by the defender, from which a reserve knight,
# bishop or rook of the enemy would give check (a penalty). ``zone_attack``: per square next to the
# king that the enemy attacks (a penalty). ``exposed``: per piece on an enemy protected reserved
# square, where a placement can take it (a penalty). ``held_square``: per own protected reserved
# square. Piece-square shapes: ``pawn_advance`` by rank from the own side, ``*_centre`` per step
# towards the centre, ``rook_seventh``, ``king_shelter`` per file on the own first rank in the
# middlegame, ``king_exposed`` per rank the king has left it, ``king_centre`` in the endgame.
# ``passed`` pawn bonus by relative rank; ``doubled`` per pawn with another on its file.
SUPERAJEDREZ_WEIGHTS = dict(
    value=(100, 320, 330, 500, 950),
    reserve_bonus=(5, 15, 15, 15, 0),
    mobility=(0, 3, 3, 2, 1, 0),
    drop_check=-12,
    zone_attack=-8,
    exposed=-30,
    held_square=2,
    pawn_advance=(0, 0, 4, 8, 14, 24, 40, 0),
    pawn_centre=6,
    knight_centre=8,
    bishop_centre=4,
    queen_centre=2,
    rook_seventh=15,
    king_shelter=(10, 20, 15, -5, 0, -5, 20, 10),
    king_exposed=15,
    king_centre=10,
    passed=(0, 5, 10, 20, 35, 60, 100, 0),
    doubled=-12,
    tempo=10,
)

# Super Dimensiones (RULES.md §1), per open sub-game, in hundredths of a man: ``man`` per piece,
# ``queen`` more per queen, ``advance`` per rank a man has advanced (conquistar only),
# ``mobility`` per square a team can step or slide to. Under distraer, where the fewest pieces
# win and a blocked team wins, the material and mobility terms count against their owner.
SUPERDIMENSIONES_WEIGHTS = dict(man=100, queen=60, advance=4, mobility=4)
