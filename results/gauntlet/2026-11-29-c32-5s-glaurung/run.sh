#!/bin/bash
# combo32 (bench 751,473; /work/bins/clio-c32, ci/pgo-build.sh) against Glaurung 2.2 at 5+0.05 (the
# Makefile's default clock), seed 11, 2 games at once on the otherwise idle machine.
cd "$(dirname "$0")/../../.."
exec /work/bins/arena gauntlet --engine name=clio cmd=/work/bins/clio-c32 --engine name=glaurung cmd=$(bash ci/find-engine.sh glaurung) --option Threads=1 --option Hash=16 --tc 5+0.05 --rounds 100 --concurrency 2 --openings openings/clio-balanced.epd --seed 11 --pgn results/gauntlet/2026-11-29-c32-5s-glaurung/games.pgn --json results/gauntlet/2026-11-29-c32-5s-glaurung/gauntlet.json --state results/gauntlet/2026-11-29-c32-5s-glaurung/state.json
