"""A deliberately broken UCI engine for match-runner tests: python broken_engine.py MODE.

crash     exits when asked for a move
hang      never answers a move request
nonsense  answers with a move that does not exist
illegal   answers with a real square pair that is not a legal move
late      answers a move request only after 2 seconds
bytes     writes bytes that are not UTF-8, then a move that is illegal in every test opening
refuse    exits during the handshake with a message on stderr, as Scan does for an unknown variant
flood     answers a move request with 20 MB without a newline, then hangs
"""

import os
import sys
import time

mode = sys.argv[1]
if len(sys.argv) > 2:                 # a file to note this process in (the process-group test)
    with open(sys.argv[2], "a") as noted:
        noted.write(f"{os.getpid()}\n")
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci" and mode == "refuse":
        print("unknown variant: international", file=sys.stderr, flush=True)
        sys.exit(1)
    if cmd[0] == "uci":
        print("id name broken", flush=True)
        print("uciok", flush=True)
    elif cmd[0] == "isready":
        print("readyok", flush=True)
    elif cmd[0] == "quit":
        break
    elif cmd[0] == "go":
        if mode == "crash":
            sys.exit(3)
        if mode == "hang":
            continue
        if mode == "flood":
            for _ in range(20):
                sys.stdout.write("x" * (1 << 20))
            sys.stdout.flush()
            continue
        if mode == "late":
            time.sleep(2)
            print("bestmove 31-26", flush=True)
            print("bestmove 20-24", flush=True)
        elif mode == "nonsense":
            print("bestmove hello", flush=True)
        elif mode == "illegal":
            print("bestmove 46-41", flush=True)
        elif mode == "bytes":
            sys.stdout.buffer.write(b"info string \xff\xfe\n")
            sys.stdout.flush()
            print("bestmove 46-41", flush=True)
