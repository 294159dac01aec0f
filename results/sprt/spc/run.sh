#!/bin/bash
# spc: a TT lower bound at most 4 plies shallower than the node that beats beta + 400 returns beta + 400 at once (Stockfish 17's small probcut), SmallProbcut 400.
# .dev/clio-c37 is the profile-guided build of branch c37 (main 784,276 plus two options, off by
# default); the base is the same binary with the option off, node for node main 784,276.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c37 --base-cmd .dev/clio-c37 --dev-name spc --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 182 --dev-option SmallProbcut=400 --state results/sprt/spc/state.json --json results/sprt/spc/result.json --plot results/sprt/spc/sprt.svg --pgn results/sprt/spc/games.pgn
