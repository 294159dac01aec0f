#!/bin/bash
# The 256-neuron network (a940507, bench 721,976; .dev/clio-h256-pgo, ci/pgo-build.sh) against
# Ethereal 12 at 10+0.1, seed 20, 2 games at once on the otherwise idle machine: issue 12's
# target 2 (>= 50 %) at the new bench. Resumes from state.json.
cd "$(dirname "$0")/../../.."
d=results/gauntlet/2026-12-04-h256-10s-seed20
exec .dev/arena gauntlet --engine name=clio cmd=.dev/clio-h256-pgo --engine name=ethereal-chess cmd=$(bash ci/find-engine.sh ethereal-chess) --option Threads=1 --option Hash=16 --tc 10+0.1 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 20 --pgn $d/games.pgn --json $d/gauntlet.json --state $d/state.json
