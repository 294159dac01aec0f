#!/usr/bin/env python3
"""Mean think time (every move) and mean depth (moves with a non-mate score) per engine, from
the `{score/depth time}` comments arena writes after each move.

Usage: python3 results/gauntlet/pgnstats.py results/gauntlet/<run>/games.pgn.gz
Reads the PGN with python-chess (`bash ci/setup.sh` installs it).
"""
import collections
import gzip
import re
import sys

import chess.pgn

COMMENT = re.compile(r"\s*([+-]?M?[\d.]+)/(\d+)\s+([\d.]+)s")


def main(path):
    times = collections.defaultdict(list)
    depths = collections.defaultdict(list)
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            names = {chess.WHITE: game.headers["White"], chess.BLACK: game.headers["Black"]}
            for node in game.mainline():
                m = COMMENT.match(node.comment)
                if not m:
                    continue
                name = names[not node.turn()]  # the side that played node.move
                times[name].append(float(m.group(3)))
                if "M" not in m.group(1):
                    depths[name].append(int(m.group(2)))
    for name, t in times.items():
        d = depths[name]
        print(f"{name}: {len(t)} moves, {sum(t) / len(t):.3f} s a move, "
              f"depth {sum(d) / max(len(d), 1):.1f} (non-mate scores)")


if __name__ == "__main__":
    main(sys.argv[1])
