#!/usr/bin/env python3
"""Labels positions with Stockfish 15.1's NNUE evaluation (White's view, centipawns).

label.py IN.epd OUT.txt [JOBS]: IN holds `FEN [result]` lines (arena's --epdout); each unique
position (first four FEN fields) is written once, in input order, as `FEN [result] CP`, CP the
"NNUE evaluation" line of Stockfish's `eval`; positions in check (no NNUE line) are dropped.
"""
import os, shutil, subprocess, sys, threading

# $STOCKFISH, else stockfish on the PATH, else Debian's games directory.
SF = os.environ.get("STOCKFISH") or shutil.which("stockfish") or "/usr/games/stockfish"

def work(lines, out, lock):
    p = subprocess.Popen([SF], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    p.stdin.write("uci\nisready\n"); p.stdin.flush()
    while p.stdout.readline().strip() != "readyok":
        pass
    buf = []
    for i in range(0, len(lines), 256):
        chunk = lines[i:i + 256]
        for fen, _ in chunk:
            p.stdin.write(f"position fen {fen}\neval\nisready\n")
        p.stdin.flush()
        for fen, res in chunk:
            cp = None
            while True:
                l = p.stdout.readline()
                if not l:
                    raise SystemExit(f"stockfish exited at {fen}")
                l = l.strip()
                if l == "readyok":
                    break
                if l.startswith("NNUE evaluation"):
                    cp = round(float(l.split()[2]) * 100)
            if cp is not None:
                buf.append(f"{fen} {res} {cp}\n")
        if len(buf) > 20000:
            with lock:
                out.writelines(buf); out.flush()
            buf = []
    with lock:
        out.writelines(buf); out.flush()
    p.stdin.write("quit\n"); p.stdin.flush(); p.wait()

def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and not sys.argv[3].isdigit()):
        sys.exit("usage: label.py IN.epd OUT.txt [JOBS]")
    src, dst = sys.argv[1], sys.argv[2]
    jobs = max(1, int(sys.argv[3])) if len(sys.argv) > 3 else 2
    if not (os.path.isfile(SF) and os.access(SF, os.X_OK)):
        sys.exit(f"label.py: no Stockfish at {SF}: install it (bash ci/setup-engines.sh stockfish) "
                 "or name it in $STOCKFISH")
    try:
        text = open(src)
    except OSError as e:
        sys.exit(f"label.py: cannot read {src}: {e.strerror}")
    seen, lines = set(), []
    for l in text:
        i = l.rfind("[")
        if i < 0:
            continue
        fen, res = l[:i].strip(), l[i:].strip()
        key = " ".join(fen.split()[:4])
        if key in seen:
            continue
        seen.add(key)
        lines.append((fen, res))
    print(f"{len(lines)} unique positions", file=sys.stderr)
    # contiguous slices keep each game's positions together (the trainer holds out by block)
    per = (len(lines) + jobs - 1) // jobs
    lock = threading.Lock()
    failed = []
    def run(part, out):
        try:
            work(part, out, lock)
        except (OSError, SystemExit) as e:
            failed.append(str(e))
    with open(dst, "w") as out:
        ts = [threading.Thread(target=run, args=(lines[k * per:(k + 1) * per], out)) for k in range(jobs)]
        [t.start() for t in ts]
        [t.join() for t in ts]
    if failed:
        sys.exit(f"label.py: {dst} is incomplete: " + "; ".join(failed))

main()
