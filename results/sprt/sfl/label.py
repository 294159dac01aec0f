# Labels FENs with Stockfish 15.1's expected score (W + D/2 from its WDL model, White's view)
# after a fixed-node search: writes "FEN [p]" lines, the texel EPD form.
import subprocess, sys
inp, outp, nodes = sys.argv[1], sys.argv[2], int(sys.argv[3])
start = int(sys.argv[4]) if len(sys.argv) > 4 else 0
step = int(sys.argv[5]) if len(sys.argv) > 5 else 1
sf = subprocess.Popen(['/usr/games/stockfish'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): sf.stdin.write(s + '\n')
send('uci'); send('setoption name UCI_ShowWDL value true'); send('setoption name Hash value 16'); send('isready')
for line in sf.stdout:
    if line.startswith('readyok'): break
out = open(outp, 'a')
for i, fen in enumerate(open(inp)):
    if i % step != start: continue
    fen = fen.strip()
    send('position fen ' + fen); send(f'go nodes {nodes}')
    wdl = None
    for line in sf.stdout:
        if ' wdl ' in line:
            t = line.split()
            k = t.index('wdl'); wdl = tuple(int(x) for x in t[k+1:k+4])
        if line.startswith('bestmove'): break
    if wdl is None: continue
    p = (wdl[0] + wdl[1] / 2) / 1000
    if fen.split()[1] == 'b': p = 1 - p
    out.write(f'{fen} [{p:.3f}]\n')
    if i % 1000 == 0: out.flush()
send('quit')
