#!/bin/bash
# The tip (bench 903,092; .dev/clio-tip, ci/pgo-build.sh of 40d5d16) against Toga II 3.0 and
# Glaurung 2.2 at 5+0.05, 100 pairs each, seed 16, 2 games at once on the otherwise idle machine:
# issue 12's target 1 (>= 60 % against each) replayed at this bench (last measured at 784,276).
# Resumes from state.json.
cd "$(dirname "$0")/../../.."
d=results/gauntlet/2026-12-02-tip-5s-toga-glaurung-seed16
exec .dev/arena gauntlet --engine name=clio cmd=.dev/clio-tip --engine name=toga2 cmd=$(bash ci/find-engine.sh toga2) --engine name=glaurung cmd=$(bash ci/find-engine.sh glaurung) --option Threads=1 --option Hash=16 --tc 5+0.05 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 16 --pgn $d/games.pgn --json $d/gauntlet.json --state $d/state.json
