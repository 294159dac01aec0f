#!/bin/bash
# iirpv: internal iterative reduction two plies more at a PV node without a TT move (Stockfish 15's `depth -= 3` at PV nodes; `IirPvExtra` 2).
# .dev/clio-c39 is the profile-guided build of branch c39 (main 784,276 plus the options
# SmallProbcut, RfpWorsening, IirPvExtra and UseRfpBlend, all off by default); the base is the same
# binary with its defaults, node for node main 784,276.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c39 --base-cmd .dev/clio-c39 --dev-name iirpv --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 186 --dev-option IirPvExtra=2 --state results/sprt/iirpv/state.json --json results/sprt/iirpv/result.json --plot results/sprt/iirpv/sprt.svg --pgn results/sprt/iirpv/games.pgn
