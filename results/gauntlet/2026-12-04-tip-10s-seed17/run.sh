#!/bin/bash
# The tip (bench 903,092; .dev/clio-tip, ci/pgo-build.sh of 61e35ea) against Ethereal 12 at 10+0.1,
# seed 17, 2 games at once on the otherwise idle machine: issue 12's target 2 (>= 50 %), a second
# 200-game measurement at this bench (seed 15 scored 45.75 %). Resumes from state.json.
cd "$(dirname "$0")/../../.."
d=results/gauntlet/2026-12-04-tip-10s-seed17
exec .dev/arena gauntlet --engine name=clio cmd=.dev/clio-tip --engine name=ethereal-chess cmd=$(bash ci/find-engine.sh ethereal-chess) --option Threads=1 --option Hash=16 --tc 10+0.1 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 17 --pgn $d/games.pgn --json $d/gauntlet.json --state $d/state.json
