#!/usr/bin/env python3
"""A game-like speed workload: one engine process plays itself PLIES plies (default 60) from the
start position at NODES nodes a move (default 50,000), `position startpos moves ...` then
`go nodes N`, Hash 16. Node limits make the moves the same on every run, so two builds of one
search can be compared by instructions (valgrind) or CPU time. Unlike `clio bench`, the tables
are not cleared between searches, as in a game.

    python3 game.py target/release/clio
    python3 game.py valgrind --tool=callgrind target/release/clio
    /usr/bin/time -f %U python3 game.py target/release/clio
"""
import subprocess,sys,os
p=subprocess.Popen(sys.argv[1:],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True)
def send(s): p.stdin.write(s+"\n"); p.stdin.flush()
def wait(prefix):
    while True:
        l=p.stdout.readline()
        if not l: sys.exit("eof")
        if l.startswith(prefix): return l
send("uci"); wait("uciok"); send("setoption name Hash value 16"); send("ucinewgame"); send("isready"); wait("readyok")
moves=[]
for i in range(int(os.environ.get("PLIES","60"))):
    send("position startpos moves "+" ".join(moves)); send("go nodes "+os.environ.get("NODES","50000"))
    b=wait("bestmove").split()[1]
    if b in ("(none)","0000"): break
    moves.append(b)
send("quit"); p.wait()
print(" ".join(moves[-6:]))
