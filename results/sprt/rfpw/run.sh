#!/bin/bash
# rfpw: reverse futility asks a third of a ply's margin less when the opponent's position got worse (our static eval above the negation of theirs a ply back; Stockfish 17's opponentWorsening), RfpWorsening 341/1024.
# .dev/clio-c37 is the profile-guided build of branch c37 (main 784,276 plus two options, off by
# default); the base is the same binary with the option off, node for node main 784,276.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c37 --base-cmd .dev/clio-c37 --dev-name rfpw --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 181 --dev-option RfpWorsening=341 --state results/sprt/rfpw/state.json --json results/sprt/rfpw/result.json --plot results/sprt/rfpw/sprt.svg --pgn results/sprt/rfpw/games.pgn
