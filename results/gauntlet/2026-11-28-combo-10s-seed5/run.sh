#!/bin/bash
# The combo build (cuckoo + cxe + ocb, bench 714,095; /work/bins/clio-combo, ci/pgo-build.sh)
# against Ethereal 12 at 10+0.1, seed 5, 2 games at once on the otherwise idle machine.
cd /work/main
exec /work/bins/arena gauntlet --engine name=clio cmd=/work/bins/clio-combo --engine name=ethereal-chess cmd=$(bash ci/find-engine.sh ethereal-chess) --option Threads=1 --option Hash=16 --tc 10+0.1 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 5 --pgn /work/runs/g22/games.pgn --json /work/runs/g22/gauntlet.json --state /work/runs/g22/state.json
