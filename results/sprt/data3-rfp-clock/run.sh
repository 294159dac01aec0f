#!/bin/bash
# data3-rfp-clock: data3-rfp (the data3 network as nets/clio-3.nnue, with no reverse futility for
# a side with only its king and pawns) confirmed at a clock: 2+0.02, profile-guided builds
# (ci/pgo-build.sh) of the landing (.dev/clio-d3r-pgo, bench 589,642) and of main before it
# (.dev/clio-pgo, bench 721,976), UHO, [0, 10] nElo, seed 213, two games at once on the
# otherwise idle 2-core machine.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-d3r-pgo --base-cmd .dev/clio-pgo --dev-name data3-rfp --base-name main --option Hash=16 --option Threads=1 --tc 2+0.02 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency 2 --seed 213 --state results/sprt/data3-rfp-clock/state.json --json results/sprt/data3-rfp-clock/result.json --plot results/sprt/data3-rfp-clock/sprt.svg --pgn results/sprt/data3-rfp-clock/games.pgn
