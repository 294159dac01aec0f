#!/bin/bash
# dj: a repetition or rule draw in the main search (and the upcoming-repetition floor) scores -1
# or +1 by the node count instead of 0 (Stockfish's value_draw; `UseDrawJitter`), against the
# same binary with the switch off (bench 751,473, node for node the main). .dev/clio-c35 is the
# profile-guided build of branch c35 (`bash ci/pgo-build.sh .dev/clio-c35`).
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c35 --base-cmd .dev/clio-c35 --dev-name dj --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 178 --dev-option UseDrawJitter=true --state results/sprt/dj/state.json --json results/sprt/dj/result.json --plot results/sprt/dj/sprt.svg --pgn results/sprt/dj/games.pgn
