#!/bin/bash
# The tip with nullrep (bench 903,092; .dev/clio-tip, ci/pgo-build.sh of 9acd597) against Ethereal 12
# at 10+0.1, seed 15, 2 games at once on the otherwise idle machine: issue 12's target 2 (>= 50 %).
cd "$(dirname "$0")/../../.."
d=results/gauntlet/2026-12-02-tip-10s-seed15
exec .dev/arena gauntlet --engine name=clio cmd=.dev/clio-tip --engine name=ethereal-chess cmd=$(bash ci/find-engine.sh ethereal-chess) --option Threads=1 --option Hash=16 --tc 10+0.1 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 15 --pgn $d/games.pgn --json $d/gauntlet.json --state $d/state.json
