#!/bin/bash
# lmrcorr: a quiet's late-move reduction smaller by |correction| * 192 / 16 in 1/1024 plies, the correction being what the correction histories add to the static eval (Stockfish 17's `r -= abs(correctionValue) / ...`; `LmrCorr` 192).
# .dev/clio-c40 is the profile-guided build of branch c40 (main 784,276 plus the options LmrCorr,
# SmallProbcut, RfpWorsening, IirPvExtra and UseRfpBlend, all off by default); the base is the same
# binary with its defaults, node for node main 784,276.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c40 --base-cmd .dev/clio-c40 --dev-name lmrcorr --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 187 --dev-option LmrCorr=192 --state results/sprt/lmrcorr/state.json --json results/sprt/lmrcorr/result.json --plot results/sprt/lmrcorr/sprt.svg --pgn results/sprt/lmrcorr/games.pgn
