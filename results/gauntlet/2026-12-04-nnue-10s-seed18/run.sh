#!/bin/bash
# The distilled network (branch nnue2, UseNnue on by default, bench 935,985; .dev/clio-nn-pgo,
# ci/pgo-build.sh) against Ethereal 12 at 10+0.1, seed 18, 2 games at once on the otherwise idle
# machine: issue 12's target 2 (>= 50 %). Resumes from state.json.
cd "$(dirname "$0")/../../.."
d=results/gauntlet/2026-12-04-nnue-10s-seed18
exec .dev/arena gauntlet --engine name=clio cmd=.dev/clio-nn-pgo --engine name=ethereal-chess cmd=$(bash ci/find-engine.sh ethereal-chess) --option Threads=1 --option Hash=16 --tc 10+0.1 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 18 --pgn $d/games.pgn --json $d/gauntlet.json --state $d/state.json
