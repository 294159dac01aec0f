#!/usr/bin/env python3
"""The positions where Clio's gauntlet losses begin: for each game Clio lost, the first move
where the opponent scored itself >= +1.00 while Clio's last score was still above -0.30; the
position is the one the opponent scored (the opponent to move). Writes div.json.

Usage: python3 find.py <gauntlet games.pgn.gz>...
The moment is results/gauntlet/losses.py's decisive_moment with these two thresholds (scores
read with pgnstats.py's pattern; mates count as 100 pawns).
"""
import gzip
import json
import os
import sys

import chess.pgn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../gauntlet"))
from losses import decisive_moment  # noqa: E402


def main(paths):
    out = []
    for path in paths:
        with gzip.open(path, "rt") as pgn:
            while (game := chess.pgn.read_game(pgn)) is not None:
                clio = chess.WHITE if game.headers["White"].startswith("clio") else chess.BLACK
                if game.headers["Result"] != ("0-1" if clio == chess.WHITE else "1-0"):
                    continue
                found = decisive_moment(game, clio, threshold=100, clio_above=-30)
                if found is None:
                    continue
                node, last_clio, score = found
                board = node.parent.board()
                out.append(dict(fen=board.fen(), eth=score, clio=last_clio,
                                move=board.fullmove_number, file=path,
                                round=game.headers["Round"]))
    json.dump(out, open("div.json", "w"), indent=0)
    print(len(out))


if __name__ == "__main__":
    main(sys.argv[1:])
