#!/usr/bin/env python3
"""pgn2epd.py OUT.epd PGN.gz...: every position after every move of every game, `FEN [result]`
(White's result), game by game, as arena's --epdout writes them."""
import chess.pgn, gzip, sys
out = open(sys.argv[1], "w")
n = 0
for path in sys.argv[2:]:
    with gzip.open(path, "rt", errors="replace") as f:
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                break
            r = {"1-0": "[1.0]", "0-1": "[0.0]", "1/2-1/2": "[0.5]"}.get(g.headers.get("Result"))
            if r is None:
                continue
            b = g.board()
            lines = []
            for m in g.mainline_moves():
                b.push(m)
                lines.append(f"{b.fen()} {r}\n")
            out.writelines(lines)
            n += 1
    print(path, n, file=sys.stderr, flush=True)
