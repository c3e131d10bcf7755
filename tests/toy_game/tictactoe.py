"""Registers tic-tac-toe with the engine: the one row a game adds (docs/adding-a-game.md).

A package that ships a game names this module under the entry-point group ``dimensiones.games``;
the engine imports it with `engine.games` and every front end then offers the game.
"""

from engine import Move
from engine.games import Game, register

from _tictactoe import TicTacToeBoard, TicTacToeMove

# No perft of its own (the one over GameOps counts), records in PDN with the board's move strings,
# no Hub square codes, no tables; the balance check of random openings looks four plies ahead.
register(Game("tictactoe", "tictactoe", TicTacToeBoard, opening_check_depth=4))
Move.register(TicTacToeMove)    # isinstance(move, engine.Move), as for the built-in games' moves
