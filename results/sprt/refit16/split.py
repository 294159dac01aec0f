"""Splits a PGN into N files by game, round robin (for parallel labelling)."""
import sys
path, n = sys.argv[1], int(sys.argv[2])
outs = [open(f"{path[:-4]}-part{i}.pgn", "w") for i in range(n)]
text = open(path).read()
games = ["[Event " + g for g in text.split("[Event ")[1:]]
for i, g in enumerate(games):
    outs[i % n].write(g.rstrip() + "\n\n")
print(len(games), "games")
