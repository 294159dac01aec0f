#!/bin/bash
# The refitted network with the reverse-futility guard (48070d6, bench 589,642; .dev/clio-d3r-pgo,
# ci/pgo-build.sh) against Ethereal 12 at 10+0.1, seed 22, 2 games at once on the otherwise idle
# machine. Resumes from state.json.
cd "$(dirname "$0")/../../.."
d=results/gauntlet/2026-12-05-data3-10s-seed22
exec .dev/arena gauntlet --engine name=clio cmd=.dev/clio-d3r-pgo --engine name=ethereal-chess cmd=$(bash ci/find-engine.sh ethereal-chess) --option Threads=1 --option Hash=16 --tc 10+0.1 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 22 --pgn $d/games.pgn --json $d/gauntlet.json --state $d/state.json
