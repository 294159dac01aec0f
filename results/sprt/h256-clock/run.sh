#!/bin/bash
# h256-clock: the 256-neuron network (branch h256) against main's 128-neuron one at a clock,
# 2+0.02, Hash 16, both profile-guided builds (ci/pgo-build.sh; .dev/clio-h256-pgo of branch
# h256, .dev/clio-nn-pgo of main's engine, bench 935,985), 2 games at once on the otherwise idle
# machine, [0, 10] nElo, seed 205. The bigger network is about 12 % slower a node; this is where
# that counts.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-h256-pgo --base-cmd .dev/clio-nn-pgo --dev-name h256 --base-name main --option Hash=16 --option Threads=1 --tc 2+0.02 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency 2 --seed 205 --state results/sprt/h256-clock/state.json --json results/sprt/h256-clock/result.json --plot results/sprt/h256-clock/sprt.svg
