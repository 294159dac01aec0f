#!/usr/bin/env python3
"""Where Clio's gauntlet losses are decided: for each game Clio lost, the first move where the
opponent's own score reaches +1.5 pawns, the phase then (non-pawn material on the 24-point
scale, knight and bishop 1, rook 2, queen 4: mg >= 16, late-mg 8..15, eg < 8), and whether
Clio's last score before it was still above -0.5 ("blind") or not ("seen").

Usage: python3 results/gauntlet/losses.py results/gauntlet/<run>/games.pgn.gz
Scores are read from arena's move comments with pgnstats.py's pattern (mates count as 100 pawns).
"""
import collections
import gzip
import sys

import chess.pgn

from pgnstats import COMMENT

PHASE = {chess.KNIGHT: 1, chess.BISHOP: 1, chess.ROOK: 2, chess.QUEEN: 4}


def centipawns(score):
    if "M" in score:
        return -10000 if score.startswith("-") else 10000
    return round(float(score) * 100)


def phase(board):
    npm = sum(PHASE[p.piece_type] for p in board.piece_map().values() if p.piece_type in PHASE)
    return "mg" if npm >= 16 else "late-mg" if npm >= 8 else "eg"


def decisive_moment(game, clio, threshold=150, clio_above=None):
    """The first node whose move the opponent scored >= `threshold`, with Clio's last score
    before it and the opponent's score; with `clio_above`, only where Clio's last score was
    above it. None if there is none."""
    last_clio = None
    for node in game.mainline():
        m = COMMENT.match(node.comment)
        if not m:
            continue
        score = centipawns(m.group(1))
        if node.turn() != clio:  # Clio played node.move
            last_clio = score
        elif score >= threshold and (
            clio_above is None or (last_clio is not None and last_clio > clio_above)
        ):
            return node, last_clio, score
    return None


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    counts = collections.Counter()
    rows = []
    losses = 0
    with opener(path, "rt") as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            clio = chess.WHITE if game.headers["White"].startswith("clio") else chess.BLACK
            if game.headers["Result"] != ("0-1" if clio == chess.WHITE else "1-0"):
                continue
            losses += 1
            found = decisive_moment(game, clio)
            if found is None:
                continue
            node, last_clio, score = found
            board = node.board()
            kind = (phase(board), "blind" if last_clio is not None and last_clio > -50 else "seen")
            counts[kind] += 1
            rows.append((*kind, board.fullmove_number, last_clio, score, board.fen()))
    print(losses, "losses")
    for kind, n in sorted(counts.items()):
        print(kind, n)
    for row in rows:
        print(row)


if __name__ == "__main__":
    main(sys.argv[1])
