# Positions from Clio's self-play PGNs for Stockfish labels: every 4th position after ply 16,
# not in check, with at least one piece besides kings and pawns.
import chess.pgn, sys, random
random.seed(7)
out = open(sys.argv[1], 'w')
n = 0
for path in sys.argv[2:]:
    f = open(path)
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        b = g.board()
        for i, m in enumerate(g.mainline_moves()):
            b.push(m)
            if i >= 16 and i % 4 == random.randrange(4) and not b.is_check() and not b.is_game_over():
                out.write(b.fen() + '\n'); n += 1
print(n, 'positions')
