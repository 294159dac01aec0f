# Where Clio lost to Ethereal 12: for each lost game, the first move where Ethereal's own score
# reaches +1.5 pawns, the phase then (non-pawn material on the 24-point scale: mg >= 16,
# late-mg 8..15, eg < 8) and whether Clio's last score was still above -0.5 ("blind").
# Usage: python3 losses.py games.pgn.gz
import chess.pgn, gzip, re, sys, collections
f = gzip.open(sys.argv[1], 'rt')
rows = []
while True:
    g = chess.pgn.read_game(f)
    if g is None: break
    white = g.headers['White']; res = g.headers['Result']
    clio_white = white.startswith('clio')
    clio_lost = (res == '0-1' and clio_white) or (res == '1-0' and not clio_white)
    node = g; board = g.board()
    hist = []
    while node.variations:
        node = node.variations[0]
        mover_is_clio = (board.turn == chess.WHITE) == clio_white
        m = re.match(r'\s*([+-]?[\d.]+|[+-]?M\d+)/(\d+)', node.comment or '')
        sc = None
        if m:
            t = m.group(1)
            sc = (10000 if not t.startswith('-') else -10000) if 'M' in t else float(t)*100
        board.push(node.move)
        hist.append((mover_is_clio, sc, board.copy(stack=False)))
    rows.append((clio_lost, hist, res, clio_white))
# For each lost game: first ply where Ethereal's score >= 150 (its view); Clio's last score before it.
cnt = collections.Counter(); ex = []
for lost, hist, res, cw in rows:
    if not lost: continue
    last_clio = None
    for i, (mc, sc, b) in enumerate(hist):
        if sc is None: continue
        if mc: last_clio = sc; continue
        if sc >= 150:
            npm = sum(len(b.pieces(pt, c)) * v for pt, v in [(chess.KNIGHT,1),(chess.BISHOP,1),(chess.ROOK,2),(chess.QUEEN,4)] for c in (True, False))
            phase = 'mg' if npm >= 16 else ('late-mg' if npm >= 8 else 'eg')
            gap = 'blind' if last_clio is not None and last_clio > -50 else 'seen'
            cnt[(phase, gap)] += 1
            ex.append((phase, gap, i//2+1, last_clio, sc, b.fen()))
            break
print(sum(1 for r in rows if r[0]), 'losses')
for k, v in sorted(cnt.items()): print(k, v)
for e in ex[:60]: print(e)
