#!/bin/bash
# The tip with Rule50Damp and low-ply history (bench 784,276; /work/bins/clio-lp, ci/pgo-build.sh)
# against Ethereal 12 at 10+0.1, seed 12, 2 games at once on the otherwise idle machine.
cd "$(dirname "$0")/../../.."
exec /work/bins/arena gauntlet --engine name=clio cmd=/work/bins/clio-lp --engine name=ethereal-chess cmd=$(bash ci/find-engine.sh ethereal-chess) --option Threads=1 --option Hash=16 --tc 10+0.1 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 12 --pgn results/gauntlet/2026-11-30-lp-10s-seed12/games.pgn --json results/gauntlet/2026-11-30-lp-10s-seed12/gauntlet.json --state results/gauntlet/2026-11-30-lp-10s-seed12/state.json
