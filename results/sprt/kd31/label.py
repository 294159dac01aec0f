"""Label the positions of PGN games with Stockfish's search score, as EPD lines texel reads:
`FEN c9 "result"; ce N; id "opening";` (ce in centipawns for the side to move, clamped to
+-3000; id a hash of the game's FEN tag, so both games of an opening share it).

    python3 label.py DEPTH SHARE OUT.epd GAMES.pgn...

Every position after the first 8 plies of each finished game is kept with probability SHARE
(seeded, so a run repeats), searched by /usr/games/stockfish (1 thread, 16 MB, `ucinewgame`
before each game) to DEPTH; positions whose score is a mate, and final positions, are left out.
The kd31 fit used DEPTH 6 and SHARE 0.6 on two halves of the files at once (one process each).
"""
import subprocess, sys, random, hashlib, chess.pgn
depth, prob, out = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
files = sys.argv[4:]
rng = random.Random(31)
sf = subprocess.Popen(["/usr/games/stockfish"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def cmd(s): sf.stdin.write(s + "\n"); sf.stdin.flush()
cmd("uci"); cmd("setoption name Hash value 16"); cmd("isready")
while sf.stdout.readline().strip() != "readyok": pass
n = skipped = 0
with open(out, "w") as w:
    for path in files:
        with open(path) as f:
            while True:
                g = chess.pgn.read_game(f)
                if g is None: break
                res = g.headers.get("Result", "*")
                if res not in ("1-0", "0-1", "1/2-1/2"): continue
                opening = hashlib.sha1(g.headers.get("FEN", str(n)).encode()).hexdigest()[:12]
                b = g.board()
                cmd("ucinewgame")
                for ply, m in enumerate(g.mainline_moves()):
                    b.push(m)
                    if ply + 1 < 8 or rng.random() >= prob or b.is_game_over(): continue
                    fen = b.fen()
                    cmd("position fen " + fen); cmd(f"go depth {depth}")
                    score = None
                    while True:
                        l = sf.stdout.readline()
                        if l.startswith("bestmove"): break
                        if " score " in l:
                            t = l.split(); i = t.index("score")
                            score = (t[i+1], int(t[i+2]))
                    if score is None or score[0] != "cp":
                        skipped += 1; continue
                    cp = max(-3000, min(3000, score[1]))
                    w.write(f'{" ".join(fen.split()[:4])} c9 "{res}"; ce {cp}; id "{opening}";\n')
                    n += 1
                    if n % 20000 == 0:
                        print(n, "positions", skipped, "mates skipped", flush=True)
print("done", n, "positions", skipped, "mates skipped", flush=True)
