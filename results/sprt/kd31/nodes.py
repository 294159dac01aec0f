"""Score the divergence positions with two Clio builds at fixed nodes (from the mover's side)."""
import json, subprocess, sys
pos = json.load(open("/work/main/results/diag/2026-11-29-divergence/ana.json"))
nodes = int(sys.argv[1])
def run(binary):
    e = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def cmd(s): e.stdin.write(s + "\n"); e.stdin.flush()
    cmd("uci"); cmd("setoption name Hash value 16"); cmd("isready")
    while e.stdout.readline().strip() != "readyok": pass
    out = []
    for p in pos:
        cmd("ucinewgame"); cmd("position fen " + p["fen"]); cmd(f"go nodes {nodes}")
        sc = None
        while True:
            l = e.stdout.readline()
            if l.startswith("bestmove"): break
            if " score cp " in l: sc = int(l.split(" score cp ")[1].split()[0])
            elif " score mate " in l: sc = 3000 if int(l.split(" score mate ")[1].split()[0]) > 0 else -3000
        out.append(sc)
    cmd("quit"); return out
res = {b: run(f"/work/bins/{b}") for b in sys.argv[2:]}
json.dump(res, open(f"nodes{nodes}.json", "w"))
sfpos = [i for i, p in enumerate(pos) if p["sf"] >= 50]
for b, sc in res.items():
    low = sum(1 for i in sfpos if sc[i] <= 30)
    med = sorted(sc)[len(sc)//2]
    print(f"{b}: of {len(sfpos)} where Stockfish >= +50, {low} at <= +30; median over all {med}")
