#!/bin/bash
# The combo3 build (main 93e86ed, bench 809,974; /work/bins/clio-combo3, ci/pgo-build.sh)
# against Ethereal 12 at 10+0.1, seed 6, 2 games at once on the otherwise idle machine.
cd /work/main
exec /work/bins/arena gauntlet --engine name=clio cmd=/work/bins/clio-combo3 --engine name=ethereal-chess cmd=$(bash ci/find-engine.sh ethereal-chess) --option Threads=1 --option Hash=16 --tc 10+0.1 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 6 --pgn /work/runs/g23/games.pgn --json /work/runs/g23/gauntlet.json --state /work/runs/g23/state.json
