#!/bin/bash
# The tip with h2tune's SPSA-tuned history-family constants (bench 900,876; .dev/clio-h2,
# ci/pgo-build.sh) against Ethereal 12 at 10+0.1, seed 14, 2 games at once on the otherwise idle
# machine: issue 12's target 2 (>= 50 %) at this bench.
cd "$(dirname "$0")/../../.."
d=results/gauntlet/2026-12-02-h2-10s-seed14
exec .dev/arena gauntlet --engine name=clio cmd=.dev/clio-h2 --engine name=ethereal-chess cmd=$(bash ci/find-engine.sh ethereal-chess) --option Threads=1 --option Hash=16 --tc 10+0.1 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 14 --pgn $d/games.pgn --json $d/gauntlet.json --state $d/state.json
