#!/bin/bash
# data3-clock: data3 (the network refitted to 11.26 M quiet positions, accepted at 25,000 nodes)
# confirmed at a clock: 2+0.02, profile-guided builds (ci/pgo-build.sh) of the landing commit 37ffb0a (reverted since)
# (.dev/clio-data3-pgo, bench 577,895) and of main before it (.dev/clio-pgo, bench 721,976),
# UHO, [0, 10] nElo, seed 211, two games at once on the otherwise idle 2-core machine.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-data3-pgo --base-cmd .dev/clio-pgo --dev-name data3 --base-name main --option Hash=16 --option Threads=1 --tc 2+0.02 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency 2 --seed 211 --state results/sprt/data3-clock/state.json --json results/sprt/data3-clock/result.json --plot results/sprt/data3-clock/sprt.svg --pgn results/sprt/data3-clock/games.pgn
