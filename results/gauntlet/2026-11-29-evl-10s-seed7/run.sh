#!/bin/bash
# The evl build (main 9a348c5, bench 753,304; /work/bins/clio-main26, ci/pgo-build.sh)
# against Ethereal 12 at 10+0.1, seed 7, 2 games at once on the otherwise idle machine.
cd /work/main
exec /work/bins/arena gauntlet --engine name=clio cmd=/work/bins/clio-main26 --engine name=ethereal-chess cmd=$(bash ci/find-engine.sh ethereal-chess) --option Threads=1 --option Hash=16 --tc 10+0.1 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 7 --pgn /work/runs/g26/games.pgn --json /work/runs/g26/gauntlet.json --state /work/runs/g26/state.json
