#!/bin/bash
# The refitted network with the reverse-futility guard (48070d6, bench 589,642; .dev/clio-d3r-pgo,
# ci/pgo-build.sh) against Toga II 3.0 and Glaurung 2.2 at 5+0.05, 100 pairs each, seed 23, 2 games
# at once on the otherwise idle machine: issue 12's target 1 (>= 60 % against each) replayed at
# the shipped bench. Resumes from state.json.
cd "$(dirname "$0")/../../.."
d=results/gauntlet/2026-12-05-data3-5s-toga-glaurung-seed23
exec .dev/arena gauntlet --engine name=clio cmd=.dev/clio-d3r-pgo --engine name=toga2 cmd=$(bash ci/find-engine.sh toga2) --engine name=glaurung cmd=$(bash ci/find-engine.sh glaurung) --option Threads=1 --option Hash=16 --tc 5+0.05 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 23 --pgn $d/games.pgn --json $d/gauntlet.json --state $d/state.json
