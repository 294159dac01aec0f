#!/bin/bash
# combo32 (pp30 + kd31 + lmrk + prev; bench 751,473; /work/bins/clio-c32, ci/pgo-build.sh)
# against Ethereal 12 at 10+0.1, seed 10, 2 games at once on the otherwise idle machine.
cd "$(dirname "$0")/../../.."
exec /work/bins/arena gauntlet --engine name=clio cmd=/work/bins/clio-c32 --engine name=ethereal-chess cmd=$(bash ci/find-engine.sh ethereal-chess) --option Threads=1 --option Hash=16 --tc 10+0.1 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 10 --pgn results/gauntlet/2026-11-29-c32-10s-seed10/games.pgn --json results/gauntlet/2026-11-29-c32-10s-seed10/gauntlet.json --state results/gauntlet/2026-11-29-c32-10s-seed10/state.json
