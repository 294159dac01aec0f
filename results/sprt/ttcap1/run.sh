#!/bin/bash
# ttcap1: quiets of a node whose TT move is a capture reduced a ply more (`LmrTtCapture` 1024)
# alone, the other three c33 candidates off, against the main (bench 751,473). .dev/clio-c33 is
# the profile-guided build of branch c33 (fdc5246), .dev/clio-c32 that of main. Played on a
# 16-core device machine, 4 at once.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c33 --base-cmd .dev/clio-c32 --dev-name ttcap1 --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 176 --dev-option UseRfpBlend=false --dev-option UsePriorCounter=false --dev-option NmpEvalMax=0 --state results/sprt/ttcap1/state.json --json results/sprt/ttcap1/result.json --plot results/sprt/ttcap1/sprt.svg --pgn results/sprt/ttcap1/games.pgn
