"""Re-annotates PGN games: each move's comment becomes Ethereal's depth-N score of the position
it reaches, from the mover's view, in the `{+0.35/6 0.001s}` form texel reads."""
import sys, subprocess, chess, chess.pgn
eng_path, depth, skip, out_path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
files = sys.argv[5:]
import os, threading, queue
def start():
    global p, lines
    p = subprocess.Popen([eng_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    lines = queue.Queue()
    def pump(out, q):
        for line in out:
            q.put(line)
        q.put("")
    threading.Thread(target=pump, args=(p.stdout, lines), daemon=True).start()
    send("uci"); until("uciok"); send("setoption name Hash value 16"); send("isready"); until("readyok")
def send(s): p.stdin.write(s + "\n")
class Hung(Exception): pass
def until(prefix):
    last = None
    while True:
        try:
            line = lines.get(timeout=5.0)
        except queue.Empty:
            raise Hung()
        if not line:
            raise Hung()
        if line.startswith("info") and " score " in line:
            last = line
        if line.startswith(prefix):
            return last
start()
done = 0
if os.path.exists(out_path):
    done = open(out_path).read().count("[Event ")
out = open(out_path, "a")
seen = 0
n = 0
for path in files:
    f = open(path)
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        seen += 1
        if seen <= done:
            continue
        board = g.board()
        for ply, node in enumerate(g.mainline()):
            board.push(node.move)
            if ply < skip or board.is_game_over():
                node.comment = ""
                continue
            try:
                send("position fen " + board.fen()); send(f"go depth {depth}")
                info = until("bestmove").split()
            except Hung:
                print("hung on", board.fen(), file=sys.stderr)
                p.kill(); start(); node.comment = ""
                continue
            i = info.index("score")
            kind, v = info[i + 1], int(info[i + 2])
            # The engine's score is the side to move's; the comment is the mover's.
            v = -v
            if kind == "mate":
                node.comment = f"{'+' if v > 0 else '-'}M{abs(v)}/{depth} 0.001s"
            else:
                node.comment = f"{v / 100:+.2f}/{depth} 0.001s"
            n += 1
        print(g, file=out, end="\n\n")
        out.flush()
print(n, "positions", file=sys.stderr)
send("quit")
