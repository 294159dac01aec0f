#!/bin/bash
# rfpb1: reverse futility returns (eval + beta) / 2 instead of eval (`UseRfpBlend`) alone, the
# other three c33 candidates off, against the main (bench 751,473). .dev/clio-c33 is the
# profile-guided build of branch c33 (fdc5246), .dev/clio-c32 that of main. The first 1,256
# games were played on a 16-core device machine (3, then 7 at once), the rest here.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c33 --base-cmd .dev/clio-c32 --dev-name rfpb1 --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 177 --dev-option UsePriorCounter=false --dev-option NmpEvalMax=0 --dev-option LmrTtCapture=0 --state results/sprt/rfpb1/state.json --json results/sprt/rfpb1/result.json --plot results/sprt/rfpb1/sprt.svg --pgn results/sprt/rfpb1/games.pgn
