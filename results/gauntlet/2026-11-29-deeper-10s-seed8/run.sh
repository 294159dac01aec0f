#!/bin/bash
# The main with UseDeeper (3d15eff, bench 737,363; /work/bins/clio-main28, ci/pgo-build.sh)
# against Ethereal 12 at 10+0.1, seed 8, 2 games at once on the otherwise idle machine.
cd /work/main
exec /work/bins/arena gauntlet --engine name=clio cmd=/work/bins/clio-main28 --engine name=ethereal-chess cmd=$(bash ci/find-engine.sh ethereal-chess) --option Threads=1 --option Hash=16 --tc 10+0.1 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 8 --pgn /work/runs/g29/games.pgn --json /work/runs/g29/gauntlet.json --state /work/runs/g29/state.json
