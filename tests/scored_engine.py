"""A UCI engine with scripted scores for the match runner's adjudication tests:
python scored_engine.py MODE [SCORE].

white S   plays the first legal move and reports S from White's view (S when White moves, -S
          when Black moves): both engines so scripted agree
mover S   reports S from its own view whoever moves (two of them disagree unless S is near 0)
silent    plays the first legal move and reports no score
"""

import sys

import engine

mode = sys.argv[1]
score = int(sys.argv[2]) if len(sys.argv) > 2 else 0
variant = "international"
board = engine.Board(variant)
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci":
        print("id name scored", flush=True)
        print("uciok", flush=True)
    elif cmd[0] == "setoption" and cmd[2] == "UCI_Variant":
        variant = cmd[4]
    elif cmd[0] == "isready":
        print("readyok", flush=True)
    elif cmd[0] == "position":
        fen, _, moves = " ".join(cmd[2:]).partition(" moves ")
        board = engine.Board(variant, fen)
        for move in moves.split():
            board.push(move)
    elif cmd[0] == "go":
        move = board.legal_moves()[0]
        if mode == "white":
            print(f"info depth 1 score cp {score if int(board.turn) == 0 else -score} pv {move}")
        elif mode == "mover":
            print(f"info depth 1 score cp {score} pv {move}")
        print(f"bestmove {move}", flush=True)
    elif cmd[0] == "quit":
        break
