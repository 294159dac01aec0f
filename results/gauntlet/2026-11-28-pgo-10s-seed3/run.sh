#!/bin/bash
cd /work/main
exec /work/bins/arena gauntlet --engine name=clio cmd=/work/bins/clio-pgo --engine name=ethereal-chess cmd=$(bash ci/find-engine.sh ethereal-chess) --option Threads=1 --option Hash=16 --tc 10+0.1 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 3 --pgn /work/runs/g18/games.pgn --json /work/runs/g18/gauntlet.json --state /work/runs/g18/state.json
