#!/bin/bash
# rfpb: reverse futility returns (eval + beta) / 2 instead of the eval (Stockfish 16; `UseRfpBlend`).
# .dev/clio-c39 is the profile-guided build of branch c39 (main 784,276 plus the options
# SmallProbcut, RfpWorsening, IirPvExtra and UseRfpBlend, all off by default); the base is the same
# binary with its defaults, node for node main 784,276.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c39 --base-cmd .dev/clio-c39 --dev-name rfpb --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 185 --dev-option UseRfpBlend=true --state results/sprt/rfpb/state.json --json results/sprt/rfpb/result.json --plot results/sprt/rfpb/sprt.svg --pgn results/sprt/rfpb/games.pgn
