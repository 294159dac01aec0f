#!/bin/bash
# The tip (bench 784,276: Rule50Damp and low-ply history; .dev/clio-lp, ci/pgo-build.sh) against
# Toga II 3.0 and Glaurung 2.2 at 5+0.05 (the Makefile's default clock), 100 pairs each, seed 13,
# 2 games at once on the otherwise idle machine: issue 12's target 1 (>= 60 % against each) at
# this bench. The command of `make gauntlet GAUNTLET_OPPONENTS="toga2 glaurung"` with --state.
cd "$(dirname "$0")/../../.."
d=results/gauntlet/2026-11-30-tip-5s-toga-glaurung-seed13
exec .dev/arena gauntlet --engine name=clio cmd=.dev/clio-lp --engine name=toga2 cmd=$(bash ci/find-engine.sh toga2) --engine name=glaurung cmd=$(bash ci/find-engine.sh glaurung) --option Threads=1 --option Hash=16 --tc 5+0.05 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 13 --pgn $d/games.pgn --json $d/gauntlet.json --state $d/state.json
