#!/bin/bash
# The faster network code (1f51219: lazy one-pass accumulator updates, 16-bit SIMD output layer;
# no functional change, bench 721,976) against 631d716, both profile-guided (.dev/clio-simd-pgo,
# .dev/clio-pgo), at 2+0.02 on the otherwise idle machine, [0, 10] nElo, seed 206: the speed-up
# seen at a clock. Resumes from state.json.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-simd-pgo --base-cmd .dev/clio-pgo --dev-name lazy-simd --base-name main --option Hash=16 --option Threads=1 --tc 2+0.02 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency 2 --seed 206 --state results/sprt/lazy-simd-clock/state.json --json results/sprt/lazy-simd-clock/result.json --plot results/sprt/lazy-simd-clock/sprt.svg
